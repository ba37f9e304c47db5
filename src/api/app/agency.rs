//! `/app/api/agency/identity…`: the « Agence » screen's identity, the
//! seller printed on the agency's quotes, invoices and credit notes, and
//! its logo, through `services::identity`. Every staff member of the agency
//! reads it; its administrators (organization and agency) change it.

use axum::extract::{FromRequest, Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

use crate::api::json::{ApiJson, json_body_with_limit};
use crate::api::wire::identity as wire;
use crate::api::wire::identity::IdentityAnswer;
use crate::auth::staff_session::StaffSession;
use crate::documents::LOGO_MAX_BYTES;
use crate::domain::identity::IdentityInput;
use crate::error::{ApiError, AppResult};
use crate::services::identity as service;
use crate::state::AppState;

/// Largest body of `PUT /agency/identity/logo`: a logo of 1 Mio in base64,
/// with room for line breaks and the JSON around it.
const LOGO_BODY_MAX_BYTES: usize = LOGO_MAX_BYTES / 3 * 4 + 64 * 1024;

pub fn router() -> Router<AppState> {
    let logo = Router::new()
        .route(
            "/agency/identity/logo",
            get(logo).put(set_logo).delete(remove_logo),
        )
        .layer(axum::extract::DefaultBodyLimit::max(LOGO_BODY_MAX_BYTES));
    Router::new()
        .route("/agency/identity", get(read).put(update))
        .merge(logo)
}

async fn read(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    wire::identity_read(&state, &session.principal())
        .await
        .map(Json)
}

async fn update(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<IdentityInput>,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    wire::identity_update(&state, &session.principal(), body)
        .await
        .map(Json)
}

/// Le logo envoyé : l'image PNG ou JPEG encodée en base64.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LogoBody {
    content: String,
}

/// The logo body, read with the route's own limit and 413 reason.
struct LogoJson(LogoBody);

impl FromRequest<AppState> for LogoJson {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        json_body_with_limit(req, state, || ApiError::from(service::logo_too_large()))
            .await
            .map(LogoJson)
    }
}

async fn set_logo(
    State(state): State<AppState>,
    session: StaffSession,
    LogoJson(body): LogoJson,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    let view = service::set_logo_base64(&state.store, &session.principal(), &body.content).await?;
    Ok(Json(view.into()))
}

async fn remove_logo(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    let view = service::remove_logo(&state.store, &session.principal()).await?;
    Ok(Json(view.into()))
}

async fn logo(State(state): State<AppState>, session: StaffSession) -> AppResult<Response> {
    session.require_agency()?;
    let (media_type, bytes) = service::logo(&state.store, &session.principal()).await?;
    Ok((
        [
            (header::CONTENT_TYPE, media_type),
            (header::CACHE_CONTROL, "private, no-cache".to_owned()),
        ],
        bytes,
    )
        .into_response())
}
