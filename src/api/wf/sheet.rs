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
use crate::store::audit::Actor;

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
    caller.authorize_agency(&body.agency_id)?;
    let secret = state.sheet_secret.clone();
    let base_url = state.base_url.clone();
    let now = state.now();
    let credential_id = caller.credential_id.clone();
    let actor = Actor::PartnerKey(caller.credential_id.clone());
    let url = state
        .store
        .write(move |tx| {
            sheet::generate(
                tx,
                &secret,
                &base_url,
                &body.agency_id,
                &body.equipment_number,
                &credential_id,
                now,
                &actor,
            )
        })
        .await?;
    Ok(success(json!({ "url": url })))
}
