//! `/app/api/webhooks…`: the webhooks screen. Every operation is the REST
//! API v2's (`api::wire::webhooks`), called for the session's principal:
//! same shapes, same rules. Subscribing, testing and revoking are an
//! administrator's (403 for a member); reading subscriptions, deliveries and
//! the sync state is open to every account of the agency, as on the REST API.
//! The events offered are the server's list (`/webhooks/events`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::webhooks::{
    self as shared, DeliveryWire, Revoked, Subscribed, SubscriptionBody, SubscriptionWire,
    SyncStatusWire, TestSent,
};
use crate::api::wire::{Page, PageQuery};
use crate::auth::staff_session::StaffSession;
use crate::domain::event::WebhookEvent;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/webhooks", get(list).post(create))
        .route("/webhooks/status", get(status))
        .route("/webhooks/events", get(events))
        .route("/webhooks/{id}/test", post(test))
        .route("/webhooks/{id}/deliveries", get(deliveries))
        .route("/webhooks/{id}/revoke", post(revoke))
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<Vec<SubscriptionWire>>> {
    session.require_agency()?;
    Ok(Json(
        shared::subscription_list(&state, &session.principal()).await?,
    ))
}

/// An event to subscribe to, as the screen offers it.
#[derive(Serialize, TS)]
pub(crate) struct EventChoice {
    code: &'static str,
    label: &'static str,
}

/// The events to subscribe to, in the API's order (`domain::event`): the
/// screen's choices come from here, not from a list of its own.
async fn events(session: StaffSession) -> AppResult<Json<Vec<EventChoice>>> {
    session.require_agency()?;
    Ok(Json(
        WebhookEvent::ALL
            .into_iter()
            .map(|event| EventChoice {
                code: event.code(),
                label: event.label(),
            })
            .collect(),
    ))
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<SubscriptionBody>,
) -> AppResult<(StatusCode, Json<Subscribed>)> {
    session.require_agency()?;
    let subscribed = shared::subscription_create(&state, &session.principal(), body).await?;
    Ok((StatusCode::CREATED, Json(subscribed)))
}

async fn status(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<SyncStatusWire>> {
    session.require_agency()?;
    Ok(Json(
        shared::status_read(&state, &session.principal()).await?,
    ))
}

async fn test(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<TestSent>)> {
    session.require_agency()?;
    let sent = shared::test_send(&state, &session.principal(), id).await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

async fn deliveries(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> AppResult<Page<DeliveryWire>> {
    session.require_agency()?;
    shared::delivery_list(&state, &session.principal(), id, &query).await
}

async fn revoke(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<Revoked>> {
    session.require_agency()?;
    Ok(Json(
        shared::subscription_revoke(&state, &session.principal(), id).await?,
    ))
}
