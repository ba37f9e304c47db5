//! `/app/api/desktop/agency-server`: the desktop app's « Serveur de
//! l'agence » (settings screen, an installation administrator; on a
//! computer not yet set up, `/app/api/setup/agency-server` in `setup.rs`
//! calls the same [`connect`]). The address is checked
//! (`agency_server::parse`), a Liftdesk server must answer there
//! (`agency_server::probe`), then it is saved in the settings'
//! `agencyServer` and the host stops the embedded server and shows that
//! one. Only a host that can do so (the desktop app) accepts: `liftdesk
//! serve` answers 409.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::agency_server;
use crate::api::json::ApiJson;
use crate::auth::staff_session::StaffSession;
use crate::error::{ApiError, AppError, AppResult};
use crate::services::sessions;
use crate::settings;
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

/// Checks the address, probes the server, saves it, and hands over to the
/// host (202: the window changes once the answer has gone out).
pub(super) async fn connect(
    state: &AppState,
    body: AgencyServerBody,
) -> AppResult<(StatusCode, Json<AgencyServerAccepted>)> {
    let Some(control) = state.control.clone() else {
        return Err(ApiError::conflict(
            "Seule l'application de bureau se connecte au serveur de l'agence : ouvrez plutôt son adresse dans un navigateur.",
        ));
    };
    let url = agency_server::parse(&body.url).map_err(ApiError::unprocessable)?;
    let shown = agency_server::display(&url);
    if is_this_computer(&url, &state.base_url) {
        return Err(ApiError::unprocessable(format!(
            "{shown} est l'adresse de Liftdesk sur cet ordinateur : indiquez celle du serveur de l'agence."
        )));
    }
    let client = agency_server::client().map_err(AppError::Internal)?;
    agency_server::probe(&client, &url)
        .await
        .map_err(ApiError::unprocessable)?;

    let previous = save_agency_server(state, Some(shown.clone())).await?;
    tracing::info!(serveur = %shown, "serveur de l'agence choisi");
    if let Err(reason) = control.connect_to_agency_server(shown.clone()) {
        // Not taken (a restart under way): the next start must not connect.
        save_agency_server(state, previous).await?;
        return Err(AppError::Conflict(format!(
            "La connexion au serveur de l'agence a échoué : {reason}"
        ))
        .into());
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(AgencyServerAccepted { url: shown }),
    ))
}

/// Saves the settings' `agencyServer`; the value it replaces.
async fn save_agency_server(state: &AppState, value: Option<String>) -> AppResult<Option<String>> {
    let data_dir = state.data_dir();
    tokio::task::spawn_blocking(move || {
        let mut current = settings::load(&data_dir)?;
        let previous = std::mem::replace(&mut current.agency_server, value);
        settings::save(&data_dir, &current)?;
        anyhow::Ok(previous)
    })
    .await
    .map_err(|err| AppError::Internal(anyhow::anyhow!(err.to_string())))?
    .map_err(|err| AppError::Internal(err).into())
}

/// Whether `url` is this computer's own Liftdesk: its address, or any
/// loopback name on its port (`localhost`, `[::1]`).
fn is_this_computer(url: &url::Url, base_url: &str) -> bool {
    let Ok(own) = url::Url::parse(base_url) else {
        return false;
    };
    if own.origin() == url.origin() {
        return true;
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    loopback && url.port_or_known_default() == own.port_or_known_default()
}

#[cfg(test)]
mod tests {
    use super::is_this_computer;

    #[test]
    fn this_computer_is_its_address_or_any_loopback_name_on_its_port() {
        let base = "http://127.0.0.1:8080";
        let this = |raw: &str| is_this_computer(&url::Url::parse(raw).unwrap(), base);
        assert!(this("http://127.0.0.1:8080"));
        assert!(this("http://localhost:8080"));
        assert!(this("http://[::1]:8080"));
        assert!(!this("http://127.0.0.1:9090"));
        assert!(!this("https://liftdesk.agence.fr"));
    }
}
