//! `CallCenterCaller`: a call-center API request authenticated by a
//! call-center key (`Authorization: Bearer svc_…`): the `Principal` of the
//! key (`Door::CallCenter`), acting in the key's agency, never the body's;
//! and the center the key belongs to. Each key is rate-limited like an API
//! token.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::auth::{bearer_token, secret, touch_if_stale};
use crate::error::ApiError;
use crate::principal::Principal;
use crate::services::credentials;
use crate::state::AppState;

pub const UNAUTHORIZED_MESSAGE: &str =
    "Authentification requise : clé de centre d'appels manquante, inconnue ou révoquée.";

#[derive(Debug, Clone)]
pub struct CallCenterCaller {
    pub principal: Principal,
    pub call_center_id: String,
    pub call_center_name: String,
}

impl FromRequestParts<AppState> for CallCenterCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let key = bearer_token(&parts.headers)
            .ok_or_else(|| ApiError::unauthorized(UNAUTHORIZED_MESSAGE))?;
        // `svc_` + exactly 32 alphanumerics: API tokens and partner keys never match.
        if !secret::has_shape(key, secret::CALL_CENTER_KEY_PREFIX) {
            return Err(ApiError::unauthorized(UNAUTHORIZED_MESSAGE));
        }
        let fingerprint = secret::fingerprint(key);
        let matched = credentials::call_center_key_holder(&state.store, &fingerprint)?
            .ok_or_else(|| ApiError::unauthorized(UNAUTHORIZED_MESSAGE))?;
        // Per key, like API tokens: past it, 429 with `Retry-After`.
        state.rate_limiter.check(&matched.credential_id)?;
        touch_if_stale(
            state,
            &matched.credential_id,
            Some(matched.agency.id.as_str()),
            matched.last_used_at.as_deref(),
        );
        Ok(CallCenterCaller {
            principal: Principal::call_center_key(matched.credential_id, matched.agency),
            call_center_id: matched.call_center_id,
            call_center_name: matched.call_center_name,
        })
    }
}
