//! `/update_equipment_data` and `/get_equipment_data`: the partner technical
//! data of an equipment found by its number in the agency. The rules are in
//! `services::technical_data` (catalog types and allowed values,
//! `taux_connaissance` read-only).

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{WfJson, WfResult, success};
use crate::auth::partner_key::PartnerCaller;
use crate::error::{ApiError, AppResult};
use crate::services::workflow;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/update_equipment_data", post(update_equipment_data))
        .route("/get_equipment_data", post(get_equipment_data))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GetBody {
    agency_id: String,
    equipment_number: String,
}

/// Takes a required text field out of a free-form body: 422 naming it when
/// absent or not a string.
fn take_text(body: &mut Map<String, Value>, field: &str) -> AppResult<String> {
    match body.remove(field) {
        Some(Value::String(text)) => Ok(text),
        None | Some(Value::Null) => Err(ApiError::unprocessable(format!(
            "Le champ « {field} » est obligatoire."
        ))),
        Some(_) => Err(ApiError::unprocessable(format!(
            "Le champ « {field} » n'a pas le type attendu."
        ))),
    }
}

async fn update_equipment_data(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(mut body): WfJson<Map<String, Value>>,
) -> WfResult {
    let agency_id = take_text(&mut body, "agency_id")?;
    let principal = caller.in_agency(&agency_id)?;
    let equipment_number = take_text(&mut body, "equipment_number")?;
    workflow::update_equipment_data_for(&state.store, &principal, &equipment_number, body).await?;
    Ok(success(json!({})))
}

async fn get_equipment_data(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(body): WfJson<GetBody>,
) -> WfResult {
    let principal = caller.in_agency(&body.agency_id)?;
    let data =
        workflow::equipment_data_for(&state.store, &principal, &body.equipment_number).await?;
    Ok(success(Value::Object(data)))
}
