//! `/app/api/session`: sign in, who am I, sign out.

use crate::domain::id::AgencyId;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::json::ApiJson;
use crate::api::wire::me::AgencyRef;
use crate::auth::secret;
use crate::auth::staff_session::{self, StaffSession};
use crate::error::{ApiError, AppError, AppResult};
use crate::services::sessions;
use crate::state::AppState;
use crate::store::accounts::AccountRow;
use crate::store::agencies::AgencyRow;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/session", post(sign_in).get(current).delete(sign_out))
        .route("/session/agency", put(switch_agency))
}

#[derive(Deserialize)]
struct SignInBody {
    email: String,
    password: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SwitchAgencyBody {
    agency_id: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct AccountSummary {
    id: String,
    name: Option<String>,
    email: String,
    role: &'static str,
    /// Signed in with a password an administrator gave: the session opens
    /// nothing but « Mon compte » until the account chooses its own.
    must_change_password: bool,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    account: AccountSummary,
    agency: Option<AgencyRef>,
    agencies: Vec<AgencyRef>,
    /// The account administers the installation (the settings screen):
    /// `services::accounts::is_installation_admin`.
    installation_admin: bool,
    csrf_token: String,
}

fn session_view(
    account: &AccountRow,
    agency: Option<&AgencyRow>,
    scope: &[AgencyRow],
    installation_admin: bool,
    csrf_token: String,
) -> SessionView {
    SessionView {
        account: AccountSummary {
            id: account.id.to_string(),
            name: account.name.clone(),
            email: account.email.clone(),
            role: account.role.as_str(),
            must_change_password: account.must_change_password,
        },
        agency: agency.map(AgencyRef::from),
        agencies: scope.iter().map(AgencyRef::from).collect(),
        installation_admin,
        csrf_token,
    }
}

async fn sign_in(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<SignInBody>,
) -> AppResult<Response> {
    let email = body.email.trim().to_lowercase();
    if email.is_empty() || body.password.is_empty() {
        return Err(ApiError::bad_request(
            "Saisissez votre adresse e-mail et votre mot de passe.",
        ));
    }
    if let Some(retry_after_secs) = state.login_throttle.retry_after(&email) {
        return Err(AppError::TooManyRequests { retry_after_secs }.into());
    }
    let found = sessions::sign_in(&state.store, &email, body.password).await?;
    let Some((account, scope)) = found else {
        state.login_throttle.record_failure(&email);
        return Err(ApiError::unauthorized(
            "Adresse e-mail ou mot de passe incorrect.",
        ));
    };
    state.login_throttle.clear(&email);
    open_session(&state, account, scope).await
}

/// Opens a staff session for an authenticated account (sign-in, and the
/// first run's administrator): the session row, its audit line, the cookie
/// and the session view.
pub(crate) async fn open_session(
    state: &AppState,
    account: AccountRow,
    scope: Vec<AgencyRow>,
) -> AppResult<Response> {
    let session_secret = staff_session::new_session_secret()?;
    let opened = sessions::open(
        &state.store,
        &account,
        &scope,
        secret::fingerprint(&session_secret),
        staff_session::expiry_from,
    )
    .await?;
    let view = session_view(
        &account,
        opened.agency.as_ref(),
        &scope,
        opened.installation_admin,
        staff_session::csrf_token_for(&session_secret),
    );
    Ok((
        [(
            header::SET_COOKIE,
            staff_session::session_cookie(&session_secret, state.network.https),
        )],
        Json(view),
    )
        .into_response())
}

async fn current(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<SessionView>> {
    let installation_admin = installation_admin_of(&state, &session).await?;
    Ok(Json(session_view(
        &session.account,
        session.agency.as_ref(),
        &session.scope,
        installation_admin,
        session.csrf_token.clone(),
    )))
}

async fn installation_admin_of(state: &AppState, session: &StaffSession) -> AppResult<bool> {
    Ok(sessions::installation_admin(&state.store, &session.principal()).await?)
}

async fn sign_out(State(state): State<AppState>, session: StaffSession) -> AppResult<Response> {
    sessions::sign_out(&state.store, &session.session_id).await?;
    Ok((
        StatusCode::NO_CONTENT,
        [(
            header::SET_COOKIE,
            staff_session::expired_cookie(state.network.https),
        )],
    )
        .into_response())
}

/// `PUT /app/api/session/agency`: the agency switcher. Every later request of
/// the session acts in that agency; one outside the account's scope is 403,
/// as `X-Service-Agency` is on the REST API.
async fn switch_agency(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<SwitchAgencyBody>,
) -> AppResult<Json<SessionView>> {
    let agency = sessions::choose_agency(
        &state.store,
        &session.principal(),
        &session.session_id,
        &AgencyId::new(body.agency_id.trim()),
    )
    .await?;
    let installation_admin = installation_admin_of(&state, &session).await?;
    Ok(Json(session_view(
        &session.account,
        Some(&agency),
        &session.scope,
        installation_admin,
        session.csrf_token.clone(),
    )))
}
