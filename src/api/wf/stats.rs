//! `/get_opportunities_stats`: the number of deals of that one agency by
//! creation date range, type and category.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::Deserialize;
use serde_json::json;

use super::{WfJson, WfResult, success};
use crate::auth::partner_key::PartnerCaller;
use crate::services::workflow::{self, StatsInput};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/get_opportunities_stats", post(opportunities_stats))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatsBody {
    agency_id: String,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
    #[serde(default)]
    opportunity_type: Option<String>,
    #[serde(default)]
    opportunity_category: Option<String>,
}

async fn opportunities_stats(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(body): WfJson<StatsBody>,
) -> WfResult {
    let principal = caller.in_agency(&body.agency_id)?;
    let input = StatsInput {
        from: body.from,
        to: body.to,
        opportunity_type: body.opportunity_type,
        opportunity_category: body.opportunity_category,
    };
    let count = workflow::opportunities_count_for(&state.store, &principal, input).await?;
    Ok(success(json!({ "opportunities_count": count })))
}
