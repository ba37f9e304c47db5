//! `ApiCaller`: a REST API v2 (and MCP) request authenticated by an API token,
//! acting in one agency of the account's scope.

use std::ops::Deref;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::auth::{bearer_token, secret};
use crate::error::{ApiError, AppResult};
use crate::principal::{self, Door, Principal};
use crate::services::credentials;
use crate::state::AppState;
use crate::store::accounts::AccountRow;
use crate::store::agencies::AgencyRow;
use crate::store::audit::Actor;

pub const AGENCY_HEADER: &str = "x-service-agency";
/// The spec says "401 with no further detail": one message for every case.
pub const UNAUTHORIZED_MESSAGE: &str =
    "Authentification requise : jeton d'API manquant, inconnu ou révoqué.";

/// The extractor of the REST API v2 and the MCP server: the `Principal` of
/// the API token, acting where `X-Service-Agency` says (else the account's
/// default agency).
#[derive(Debug, Clone)]
pub struct ApiCaller(pub Principal);

impl Deref for ApiCaller {
    type Target = Principal;

    fn deref(&self) -> &Principal {
        &self.0
    }
}

/// The agency requested by `X-Service-Agency`, if any (400 when not a UUID).
pub fn requested_agency(parts: &Parts) -> AppResult<Option<String>> {
    let Some(value) = parts.headers.get(AGENCY_HEADER) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    uuid::Uuid::parse_str(text)
        .map(|id| Some(id.hyphenated().to_string()))
        .map_err(|_| {
            ApiError::bad_request(
                "L'en-tête X-Service-Agency doit contenir l'identifiant (UUID) d'une agence.",
            )
        })
}

/// Picks the acting agency within the scope: 403 outside it
/// (`principal::scope_agency`); none named, the account's default
/// (`principal::default_agency`).
pub fn choose_agency(
    account: &AccountRow,
    scope: &[AgencyRow],
    requested: Option<&str>,
) -> AppResult<Option<AgencyRow>> {
    match requested {
        Some(id) => Ok(Some(principal::scope_agency(scope, id, Door::Rest)?)),
        None => Ok(principal::default_agency(account, scope, None, Door::Rest)),
    }
}

impl FromRequestParts<AppState> for ApiCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = bearer_token(&parts.headers)
            .ok_or_else(|| ApiError::unauthorized(UNAUTHORIZED_MESSAGE))?;
        // Only the API token form opens this API; anything else is unknown.
        if !secret::has_shape(token, secret::API_TOKEN_PREFIX) {
            return Err(ApiError::unauthorized(UNAUTHORIZED_MESSAGE));
        }
        let fingerprint = secret::fingerprint(token);
        let requested = requested_agency(parts);
        let (matched, account, scope) = credentials::api_token_holder(&state.store, &fingerprint)?
            .ok_or_else(|| ApiError::unauthorized(UNAUTHORIZED_MESSAGE))?;
        state.rate_limiter.check(&matched.credential_id)?;
        let requested = requested?;
        let agency = choose_agency(&account, &scope, requested.as_deref())?;
        super::touch_if_stale(
            state,
            &matched.credential_id,
            None,
            matched.last_used_at.as_deref(),
        );
        Ok(ApiCaller(Principal {
            actor: Actor::ApiToken(matched.credential_id),
            account: Some(account),
            agency,
            scope,
            door: Door::Rest,
        }))
    }
}
