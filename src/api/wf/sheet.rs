//! `/generate_token`: the signed, single-use address of the equipment sheet.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::Deserialize;
use serde_json::json;

use super::{WfJson, WfResult, success};
use crate::auth::partner_key::PartnerCaller;
use crate::services::sheet;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/generate_token", post(generate_token))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    agency_id: String,
    equipment_number: String,
}

async fn generate_token(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(body): WfJson<Body>,
) -> WfResult {
    let principal = caller.in_agency(&body.agency_id)?;
    let url = sheet::generate_for(
        &state.store,
        &principal,
        &state.sheet_secret,
        &state.base_url,
        &body.equipment_number,
    )
    .await?;
    Ok(success(json!({ "url": url })))
}
