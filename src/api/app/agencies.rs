//! `/app/api/agencies…`: the « Agence › Agences » screen, the agencies of
//! the organization as their administrators manage them, through
//! `services::agencies` (the JSON in `wire::agencies`, shared with the REST
//! API v2): the list, a new agency (with its identity when given), a new
//! name, archive and restore. An organization administrator creates,
//! archives and restores; an agency's own administrator renames it.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::agencies::{
    self as wire, AgenciesAnswer, AgencyEntryWire, ArchiveAnswer, NewAgencyBody, RenameBody,
};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::AgencyId;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/agencies", get(list).post(create))
        .route("/agencies/{id}", patch(rename))
        .route("/agencies/{id}/archive", post(archive))
        .route("/agencies/{id}/restore", post(restore))
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<AgenciesAnswer>> {
    session.require_agency()?;
    wire::agencies_managed(&state, &session.principal())
        .await
        .map(Json)
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewAgencyBody>,
) -> AppResult<(StatusCode, Json<AgencyEntryWire>)> {
    session.require_agency()?;
    wire::agency_create(&state, &session.principal(), body)
        .await
        .map(|entry| (StatusCode::CREATED, Json(entry)))
}

async fn rename(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AgencyId>,
    ApiJson(body): ApiJson<RenameBody>,
) -> AppResult<Json<AgencyEntryWire>> {
    session.require_agency()?;
    wire::agency_rename(&state, &session.principal(), id, body)
        .await
        .map(Json)
}

async fn archive(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AgencyId>,
) -> AppResult<Json<ArchiveAnswer>> {
    session.require_agency()?;
    wire::agency_archive(&state, &session.principal(), id)
        .await
        .map(Json)
}

async fn restore(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AgencyId>,
) -> AppResult<Json<AgencyEntryWire>> {
    session.require_agency()?;
    wire::agency_restore(&state, &session.principal(), id)
        .await
        .map(Json)
}
