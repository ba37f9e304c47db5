//! `/app/api/buildings…`: the agency's buildings on the screens, through
//! `services::buildings` (the views and bodies in `wire::buildings`,
//! shared with the REST API v2 and MCP): found as you type (name, address,
//! city, client), created with their client and access instructions, read,
//! and how a technician gets in changed (digicode, key box, Vigik). Every
//! staff member of the agency (the service operator only reads).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::Deserialize;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::buildings as wire;
use crate::api::wire::buildings::{AccessWire, BuildingView, BuildingsAnswer, NewBuildingBody};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::BuildingId;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/buildings", get(search).post(create))
        .route("/buildings/{id}", get(read))
        .route("/buildings/{id}/access", put(set_access))
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct SearchQuery {
    q: Option<String>,
}

async fn search(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> AppResult<Json<BuildingsAnswer>> {
    session.require_agency()?;
    wire::building_search(&state, &session.principal(), query.q.as_deref())
        .await
        .map(Json)
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewBuildingBody>,
) -> AppResult<(StatusCode, Json<BuildingView>)> {
    session.require_agency()?;
    wire::building_create(&state, &session.principal(), body)
        .await
        .map(|view| (StatusCode::CREATED, Json(view)))
}

async fn read(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<BuildingId>,
) -> AppResult<Json<BuildingView>> {
    session.require_agency()?;
    wire::building_read(&state, &session.principal(), id)
        .await
        .map(Json)
}

async fn set_access(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<BuildingId>,
    ApiJson(body): ApiJson<AccessWire>,
) -> AppResult<Json<BuildingView>> {
    session.require_agency()?;
    wire::building_access(&state, &session.principal(), id, body)
        .await
        .map(Json)
}
