//! `/app/api/people…`: the « Agence › Personnes » screen, the accounts of
//! the organization as their administrators manage them, through
//! `services::people` (the JSON in `wire::people`, shared with the REST API
//! v2: who may manage whom, the last administrator, the temporary passwords
//! shown once).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::people::{
    self as wire, EditPersonBody, NewPersonBody, PeopleAnswer, PersonWire, PersonWithPassword,
};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::AccountId;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/people", get(list).post(create))
        .route("/people/{id}", patch(edit))
        .route("/people/{id}/deactivate", post(deactivate))
        .route("/people/{id}/reactivate", post(reactivate))
        .route("/people/{id}/password-reset", post(reset_password))
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<PeopleAnswer>> {
    session.require_agency()?;
    wire::people_managed(
        &state,
        &session.principal(),
        &session.scope,
        &session.account.id,
    )
    .await
    .map(Json)
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewPersonBody>,
) -> AppResult<(StatusCode, Json<PersonWithPassword>)> {
    session.require_agency()?;
    wire::person_create(&state, &session.principal(), body)
        .await
        .map(|created| (StatusCode::CREATED, Json(created)))
}

async fn edit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
    ApiJson(body): ApiJson<EditPersonBody>,
) -> AppResult<Json<PersonWire>> {
    session.require_agency()?;
    wire::person_edit(&state, &session.principal(), &id, body)
        .await
        .map(Json)
}

async fn deactivate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWire>> {
    session.require_agency()?;
    wire::person_deactivate(&state, &session.principal(), &id)
        .await
        .map(Json)
}

async fn reactivate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWire>> {
    session.require_agency()?;
    wire::person_reactivate(&state, &session.principal(), &id)
        .await
        .map(Json)
}

async fn reset_password(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWithPassword>> {
    session.require_agency()?;
    wire::person_reset_password(&state, &session.principal(), &id)
        .await
        .map(Json)
}
