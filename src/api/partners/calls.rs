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
use crate::auth::call_center_key::CallCenterCaller;
use crate::domain::call::CallStatus;
use crate::error::{AppError, AppResult};
use crate::notices::Notice;
use crate::services::calls::{self as service, CenterCallInput, CenterSender};
use crate::state::AppState;
use crate::store::calls::CenterCallRow;

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

fn status_of(row: &CenterCallRow) -> AppResult<CallStatus> {
    CallStatus::parse(&row.status).ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!(
            "statut d'appel inconnu en base : {}",
            row.status
        ))
    })
}

async fn open_call(
    State(state): State<AppState>,
    caller: CallCenterCaller,
    ApiJson(body): ApiJson<OpenCallBody>,
) -> AppResult<(StatusCode, Json<OpenedCall>)> {
    let sender = CenterSender {
        credential_id: caller.credential_id,
        agency_id: caller.agency_id,
        call_center_id: caller.call_center_id,
    };
    let urgent =
        crate::domain::call::CallType::parse(&body.call_type).is_some_and(|t| t.is_emergency());
    let equipment_text = body.equipement.trim().to_owned();
    let agency_id = sender.agency_id.clone();
    let input = CenterCallInput {
        reference: body.reference,
        equipment: body.equipement,
        call_type: body.call_type,
        description: body.description,
        caller: body.appelant,
        received_at: body.recu_le,
    };
    let opened =
        service::open_from_call_center(&state.store, &state.call_feed, &sender, input).await?;
    let status = status_of(&opened.call)?;
    if opened.created {
        let equipment = equipment_and_building(&state, &agency_id, equipment_text).await;
        state.notices.publish(Notice::CallReceived {
            agency_id,
            id: opened.call.id.clone(),
            reference: opened.call.reference.clone(),
            equipment,
            urgent,
        });
    }
    let code = if opened.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        code,
        Json(OpenedCall {
            id: opened.call.id,
            reference: opened.call.reference,
            statut: status.as_str(),
            libelle: status.label(),
        }),
    ))
}

/// « ASC-42 — Résidence Les Tilleuls, 12 rue des Lilas, Lyon » for the
/// shell's notice; the number alone when the building is unknown.
async fn equipment_and_building(state: &AppState, agency_id: &str, number: String) -> String {
    let agency = agency_id.to_owned();
    let lookup = number.clone();
    let found = state
        .store
        .read(move |conn| crate::store::equipment::find_by_number(conn, &agency, &lookup))
        .await;
    let Ok(Some(row)) = found else {
        return number;
    };
    let Some(building) = row.building else {
        return number;
    };
    let place: Vec<&str> = [
        building.name.as_deref(),
        Some(building.address.as_str()),
        building.city.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(str::trim)
    .filter(|part| !part.is_empty())
    .collect();
    if place.is_empty() {
        number
    } else {
        format!("{number} — {}", place.join(", "))
    }
}

async fn track_call(
    State(state): State<AppState>,
    caller: CallCenterCaller,
    ApiPath(reference): ApiPath<String>,
) -> AppResult<Json<TrackedCall>> {
    let row = service::track(&state.store, &caller.call_center_id, &reference)
        .await?
        .ok_or_else(|| AppError::not_found("Aucun appel de ce centre sous cette référence."))?;
    let status = status_of(&row)?;
    Ok(Json(TrackedCall {
        id: row.id,
        reference: row.reference,
        statut: status.as_str(),
        libelle: status.label(),
        arrive_le: row.arrived_at,
        resolu_le: row.resolved_at,
    }))
}
