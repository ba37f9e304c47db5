//! `POST /api/partners/calls` (open a call) and `GET
//! /api/partners/calls/{reference}` (track it). The rules are in
//! `services::calls`; the bodies are exactly the spec's fields.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::auth::call_center_key::{CallCenterCaller, CallCenterOpener};
use crate::error::{ApiError, AppResult};
use crate::services::calls::{self as service, CenterCallInput};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/calls", post(open_call))
        .route("/calls/{reference}", get(track_call))
}

/// The body of POST /calls, as the spec names its fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenCallBody {
    reference: String,
    equipement: String,
    #[serde(rename = "type")]
    call_type: String,
    description: String,
    #[serde(default)]
    appelant: Option<String>,
    #[serde(default, rename = "recuLe")]
    recu_le: Option<String>,
}

/// The answer of POST /calls: `id`, `reference`, `statut`, `libelle`.
#[derive(Serialize)]
struct OpenedCall {
    id: String,
    reference: String,
    statut: &'static str,
    libelle: &'static str,
}

/// The answer of GET /calls/{reference}.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TrackedCall {
    id: String,
    reference: String,
    statut: &'static str,
    libelle: &'static str,
    arrive_le: Option<String>,
    resolu_le: Option<String>,
}

/// A call center's new call. Its key may be this server's hint
/// (`CallCenterOpener`): confirmed by the service, before any refusal of
/// the body too (401 comes first).
async fn open_call(
    State(state): State<AppState>,
    CallCenterOpener(caller): CallCenterOpener,
    body: Result<ApiJson<OpenCallBody>, ApiError>,
) -> AppResult<(StatusCode, Json<OpenedCall>)> {
    let answer = open(&state, &caller, body).await;
    caller.answered(&state, &answer);
    answer
}

async fn open(
    state: &AppState,
    caller: &CallCenterCaller,
    body: Result<ApiJson<OpenCallBody>, ApiError>,
) -> AppResult<(StatusCode, Json<OpenedCall>)> {
    let body = match body {
        Ok(ApiJson(body)) => body,
        Err(refusal) => {
            let refusal = service::confirm_before_refusal(
                &state.store,
                &caller.principal,
                caller.key,
                refusal.0,
            )
            .await;
            return Err(refusal.into());
        }
    };
    let input = CenterCallInput {
        reference: body.reference,
        equipment: body.equipement,
        call_type: body.call_type,
        description: body.description,
        caller: body.appelant,
        received_at: body.recu_le,
    };
    let opened = service::open_from_call_center(
        &state.store,
        &state.call_feed,
        &state.notices,
        &caller.principal,
        &caller.call_center_id,
        input,
        caller.key,
    )
    .await?;
    let status = opened.call.status;
    let code = if opened.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        code,
        Json(OpenedCall {
            id: opened.call.id.into_string(),
            reference: opened.call.reference,
            statut: status.as_str(),
            libelle: status.label(),
        }),
    ))
}

async fn track_call(
    State(state): State<AppState>,
    caller: CallCenterCaller,
    ApiPath(reference): ApiPath<String>,
) -> AppResult<Json<TrackedCall>> {
    let row = service::track(
        &state.store,
        &caller.principal,
        &caller.call_center_id,
        &reference,
    )
    .await?
    .ok_or_else(|| ApiError::not_found("Aucun appel de ce centre sous cette référence."))?;
    let status = row.status;
    Ok(Json(TrackedCall {
        id: row.id.into_string(),
        reference: row.reference,
        statut: status.as_str(),
        libelle: status.label(),
        arrive_le: row.arrived_at,
        resolu_le: row.resolved_at,
    }))
}
