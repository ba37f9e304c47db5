//! `/app/api/setup`: the installation's first run. While no client
//! organization exists (the service operator's own does not count), the
//! setup screen creates the organization, its first agency and its
//! administrator (the same rules as `liftdesk init`) and signs the
//! administrator in, or installs the demo. Only from the computer itself
//! (loopback peer: 403 otherwise), and never once a client organization
//! exists (409).

use std::net::{IpAddr, SocketAddr};
use ts_rs::TS;

use axum::extract::{ConnectInfo, FromRequestParts, State};
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::api::json::ApiJson;
use crate::demo;
use crate::error::{ApiError, AppError, AppResult};
use crate::services::sessions::{self, SetupInput};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/setup", get(status).post(set_up))
        .route("/setup/demo", post(install_demo))
        .route("/setup/agency-server", post(connect_first))
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SetupStatus {
    /// No organization yet: the setup screen replaces the sign-in.
    needed: bool,
    /// The desktop app: the setup screen also offers to connect this
    /// computer to the agency's server instead (`/setup/agency-server`).
    desktop: bool,
}

async fn status(State(state): State<AppState>) -> AppResult<Json<SetupStatus>> {
    Ok(Json(SetupStatus {
        needed: sessions::setup_needed(&state.store).await?,
        desktop: state.control.is_some(),
    }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SetupBody {
    organization: String,
    agency: String,
    #[serde(default)]
    admin_name: Option<String>,
    email: String,
    password: String,
}

/// The client's address (the peer's, or behind a TLS proxy the one the
/// proxy forwarded: `network.rs`), when the server was started with it
/// (`server::serve` does), and whether the request named this computer in
/// its `Host` (a page of another site reaching the loopback server through
/// DNS rebinding names its own host).
struct Peer(Option<IpAddr>, bool);

fn host_is_loopback(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    matches!(name, "127.0.0.1" | "localhost" | "[::1]")
}

impl FromRequestParts<AppState> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let local_host = parts
            .headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .is_some_and(host_is_loopback);
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| *addr);
        Ok(Peer(state.network.client(peer, &parts.headers), local_host))
    }
}

/// The peer must be this computer: the setup creates the first administrator.
fn require_loopback(peer: Peer) -> AppResult<()> {
    match peer.0 {
        Some(ip) if ip.is_loopback() && peer.1 => Ok(()),
        _ => Err(ApiError::forbidden(
            "L'installation de Liftdesk se fait depuis l'ordinateur où il est installé.",
        )),
    }
}

fn already_set_up() -> ApiError {
    ApiError::conflict(
        "Liftdesk est déjà installé : une organisation existe. Connectez-vous avec votre compte.",
    )
}

async fn set_up(
    State(state): State<AppState>,
    peer: Peer,
    ApiJson(body): ApiJson<SetupBody>,
) -> AppResult<Response> {
    require_loopback(peer)?;
    let (account, scope) = sessions::set_up(
        &state.store,
        SetupInput {
            organization: body.organization,
            agency: body.agency,
            email: body.email,
            admin_name: body.admin_name,
            password: body.password,
        },
    )
    .await?;
    tracing::info!("installation : organisation et administrateur créés");
    super::session::open_session(&state, account, scope).await
}

/// `POST /app/api/setup/agency-server`: a desktop not yet set up shows the
/// agency's server instead (from this computer only, before any setup).
async fn connect_first(
    State(state): State<AppState>,
    peer: Peer,
    ApiJson(body): ApiJson<super::desktop::AgencyServerBody>,
) -> AppResult<(
    axum::http::StatusCode,
    Json<super::desktop::AgencyServerAccepted>,
)> {
    require_loopback(peer)?;
    if !sessions::setup_needed(&state.store).await? {
        return Err(ApiError::conflict(
            "Liftdesk est déjà installé sur cet ordinateur : un administrateur choisit le serveur de l'agence dans les paramètres.",
        ));
    }
    super::desktop::connect(&state, body).await
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct DemoSignIn {
    email: String,
    password: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DemoInstalled {
    admin: DemoSignIn,
    member: DemoSignIn,
}

async fn install_demo(State(state): State<AppState>, peer: Peer) -> AppResult<Json<DemoInstalled>> {
    require_loopback(peer)?;
    if !sessions::setup_needed(&state.store).await? {
        return Err(already_set_up());
    }
    let store = state.store.clone();
    let data_dir = state.data_dir();
    let creds =
        tokio::task::spawn_blocking(move || demo::seed_if_empty_credentials(&store, &data_dir))
            .await
            .map_err(|err| AppError::Internal(anyhow::anyhow!(err.to_string())))??
            .ok_or_else(already_set_up)?;
    Ok(Json(DemoInstalled {
        admin: DemoSignIn {
            email: creds.admin.email,
            password: creds.admin.password,
        },
        member: DemoSignIn {
            email: creds.member.email,
            password: creds.member.password,
        },
    }))
}
