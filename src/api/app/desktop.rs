//! `/app/api/desktop/agency-server`: the desktop app's « Serveur de
//! l'agence » (settings screen, an installation administrator; on a
//! computer not yet set up, `/app/api/setup/agency-server` in `setup.rs`
//! answers through the same [`connect`]). The rule is
//! `agency_server::choose`: the address checked, a Liftdesk server set up
//! answering there, saved in the settings' `agencyServer`, handed to the
//! host. Only a host that can (the desktop app) accepts: `liftdesk serve`
//! answers 409.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::agency_server;
use crate::api::json::ApiJson;
use crate::auth::staff_session::StaffSession;
use crate::error::AppResult;
use crate::services::sessions;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/desktop/agency-server", post(connect_from_settings))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AgencyServerBody {
    /// `https://host[:port]` of the agency's Liftdesk server.
    url: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(super) struct AgencyServerAccepted {
    /// The address saved, as the window opens it.
    url: String,
}

async fn connect_from_settings(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<AgencyServerBody>,
) -> AppResult<(StatusCode, Json<AgencyServerAccepted>)> {
    sessions::require_installation_admin(
        &state.store,
        &session.principal(),
        "Le choix du serveur de l'agence",
    )
    .await?;
    connect(&state, body).await
}

/// Hands over to [`agency_server::choose`] (202: the window changes once
/// the answer has gone out).
pub(super) async fn connect(
    state: &AppState,
    body: AgencyServerBody,
) -> AppResult<(StatusCode, Json<AgencyServerAccepted>)> {
    let url = agency_server::choose(state, &body.url).await?;
    Ok((StatusCode::ACCEPTED, Json(AgencyServerAccepted { url })))
}
