//! `StaffSession`: a web-UI request signed in with the session cookie. Every
//! request that changes something also carries the CSRF token in
//! `X-CSRF-Token`. API tokens do not open the web application.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};
use chrono::Duration;

use crate::auth::secret;
use crate::clock;
use crate::domain::id::SessionId;
use crate::error::{ApiError, AppResult};
use crate::principal::{self, Door, Principal};
use crate::services::credentials;
use crate::state::AppState;
use crate::store::accounts::AccountRow;
use crate::store::agencies::AgencyRow;
use crate::store::audit::Actor;
use crate::store::sessions;

pub const COOKIE_NAME: &str = "liftdesk_session";
pub const CSRF_HEADER: &str = "x-csrf-token";
/// A session ends after this long without a request.
pub const IDLE_TIMEOUT_HOURS: i64 = 8;
const SESSION_SECRET_LENGTH: usize = 43;
const EXTEND_INTERVAL_SECS: i64 = 60;
const SIGNED_OUT_MESSAGE: &str = "Session absente ou expirée : reconnectez-vous.";

#[derive(Debug, Clone)]
pub struct StaffSession {
    pub session_id: SessionId,
    pub account: AccountRow,
    pub agency: Option<AgencyRow>,
    pub scope: Vec<AgencyRow>,
    pub csrf_token: String,
}

/// A new session secret (the cookie value).
impl StaffSession {
    /// The session as the principal of an operation: the staff member, the
    /// agency chosen on screen and the account's scope.
    pub fn principal(&self) -> Principal {
        Principal {
            actor: Actor::Account(self.account.id.clone()),
            account: Some(self.account.clone()),
            agency: self.agency.clone(),
            scope: self.scope.clone(),
            door: Door::App,
        }
    }

    /// The agency the session acts in; every screen of the application needs one.
    pub fn require_agency(&self) -> AppResult<&AgencyRow> {
        self.agency.as_ref().ok_or_else(|| {
            ApiError::bad_request("Ce compte n'agit dans aucune agence : choisissez-en une.")
        })
    }
}

pub fn new_session_secret() -> anyhow::Result<String> {
    secret::random_alphanumeric(SESSION_SECRET_LENGTH)
        .map_err(|err| anyhow::anyhow!("générateur aléatoire du système indisponible : {err}"))
}

/// The CSRF token of a session: derived from its secret, so the page can get
/// it again after a reload, and a cross-site page (which cannot read the
/// HttpOnly cookie) cannot compute it.
pub fn csrf_token_for(session_secret: &str) -> String {
    secret::fingerprint(&format!("liftdesk-csrf:{session_secret}"))
}

/// The session cookie; `Secure` when the clients reach the server over
/// HTTPS (its own or its proxy's): the browser never sends it in clear.
pub fn session_cookie(session_secret: &str, https: bool) -> String {
    let secure = if https { "; Secure" } else { "" };
    format!("{COOKIE_NAME}={session_secret}; HttpOnly; SameSite=Strict; Path=/{secure}")
}

pub fn expired_cookie(https: bool) -> String {
    let secure = if https { "; Secure" } else { "" };
    format!("{COOKIE_NAME}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0{secure}")
}

pub fn expiry_from(now: chrono::DateTime<chrono::Utc>) -> String {
    clock::format_timestamp(now + Duration::hours(IDLE_TIMEOUT_HOURS))
}

fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim())
        .filter(|value| !value.is_empty())
}

fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// What a session signed in with a temporary password may open: itself
/// (read, sign out) and the password change (`/app/api` is nested, so the
/// paths are the router's).
const OPEN_BEFORE_OWN_PASSWORD: &[&str] = &["/session", "/account/password"];

/// Reads made in the background by the desktop app connected to the
/// agency's server (every 3 s, `src-tauri/src/agency.rs`): not the user's
/// activity, so they do not push the session's idle expiry (a desktop left
/// alone signs out as a browser would).
const BACKGROUND_READS: &[&str] = &["/calls/notices"];

/// The refusal of everything else to such a session.
pub const MUST_CHANGE_MESSAGE: &str = "Choisissez d'abord votre propre mot de passe (écran « Mon compte ») : celui que vous avez reçu est provisoire.";

impl FromRequestParts<AppState> for StaffSession {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let session_secret = cookie_value(&parts.headers, COOKIE_NAME)
            .ok_or_else(|| ApiError::unauthorized(SIGNED_OUT_MESSAGE))?
            .to_owned();
        let csrf_token = csrf_token_for(&session_secret);
        if changes_state(&parts.method) {
            let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
            if sent != Some(csrf_token.as_str()) {
                return Err(ApiError::forbidden(
                    "Jeton anti-CSRF manquant ou invalide : rechargez la page.",
                ));
            }
        }
        let fingerprint = secret::fingerprint(&session_secret);
        let now = state.now();
        let (row, account, scope) =
            credentials::session_holder(&state.store, &fingerprint, clock::format_timestamp(now))
                .await?
                .ok_or_else(|| ApiError::unauthorized(SIGNED_OUT_MESSAGE))?;
        if account.must_change_password && !OPEN_BEFORE_OWN_PASSWORD.contains(&parts.uri.path()) {
            return Err(ApiError::forbidden(MUST_CHANGE_MESSAGE));
        }
        let agency =
            principal::default_agency(&account, &scope, row.agency_id.as_deref(), Door::App);
        if !BACKGROUND_READS.contains(&parts.uri.path()) {
            extend_if_stale(state, &row, now).await?;
        }
        Ok(StaffSession {
            session_id: row.id,
            account,
            agency,
            scope,
            csrf_token,
        })
    }
}

/// Pushes the idle expiry forward, at most once a minute per session.
async fn extend_if_stale(
    state: &AppState,
    row: &sessions::SessionRow,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<()> {
    let stale = clock::parse_timestamp(&row.last_seen_at)
        .is_none_or(|at| now - at > Duration::seconds(EXTEND_INTERVAL_SECS));
    if stale {
        credentials::extend_session(
            &state.store,
            &row.id,
            clock::format_timestamp(now),
            expiry_from(now),
        )
        .await?;
    }
    Ok(())
}
