//! `CallCenterCaller`: a call-center API request authenticated by a
//! call-center key (`Authorization: Bearer svc_…`): the `Principal` of the
//! key (`Door::CallCenter`), acting in the key's agency, never the body's;
//! and the center the key belongs to. Each key is rate-limited like an API
//! token. `CallCenterOpener`, the caller of a new call: the key may be one
//! this server found live before (`KeyHints`), confirmed by the call's own
//! transaction instead of a read of its own.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::auth::{bearer_token, secret, touch_if_stale};
use crate::error::ApiError;
use crate::principal::Principal;
use crate::services::calls::{self, KeyCheck};
use crate::services::credentials;
use crate::state::AppState;
use crate::store::credentials::CallCenterKeyMatch;

pub const UNAUTHORIZED_MESSAGE: &str = calls::KEY_REFUSED;

/// Keys found live at most: past it the hints are forgotten (each is read
/// again at its next use).
const MAX_HINTS: usize = 1024;

/// The call-center keys this server found live, by fingerprint: a hint a
/// new call may open on without reading the key again
/// ([`CallCenterOpener`]); the call's transaction confirms it
/// (`services::calls::KeyCheck::Hinted`). A key found revoked, or refused
/// by a call's confirmation, is forgotten. Per server: a key revoked on
/// another server is refused here by that confirmation.
#[derive(Default)]
pub struct KeyHints {
    live: Mutex<HashMap<String, CallCenterKeyMatch>>,
}

impl KeyHints {
    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<String, CallCenterKeyMatch>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn get(&self, fingerprint: &str) -> Option<CallCenterKeyMatch> {
        self.live().get(fingerprint).cloned()
    }

    fn remember(&self, fingerprint: &str, matched: &CallCenterKeyMatch) {
        let mut live = self.live();
        if live.len() >= MAX_HINTS && !live.contains_key(fingerprint) {
            live.clear();
        }
        live.insert(fingerprint.to_owned(), matched.clone());
    }

    fn forget(&self, fingerprint: &str) {
        self.live().remove(fingerprint);
    }
}

#[derive(Debug, Clone)]
pub struct CallCenterCaller {
    pub principal: Principal,
    pub call_center_id: String,
    pub call_center_name: String,
    /// How far the key was checked (`KeyCheck::Read` but for
    /// [`CallCenterOpener`]).
    pub key: KeyCheck,
    fingerprint: String,
}

impl CallCenterCaller {
    /// After the service's answer: a key it refused as no longer live is
    /// forgotten.
    pub fn answered<T>(&self, state: &AppState, answer: &Result<T, ApiError>) {
        if matches!(answer, Err(err) if err.status() == axum::http::StatusCode::UNAUTHORIZED) {
            state.call_center_keys.forget(&self.fingerprint);
        }
    }
}

impl FromRequestParts<AppState> for CallCenterCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        caller(parts, state, false)
    }
}

/// The caller of `POST /api/partners/calls`: a [`CallCenterCaller`] whose
/// key may be a hint of this server's ([`KeyHints`]), to be confirmed by
/// the call's service (`key`: `KeyCheck::Hinted`). Every other request of
/// a call center reads its key.
#[derive(Debug, Clone)]
pub struct CallCenterOpener(pub CallCenterCaller);

impl FromRequestParts<AppState> for CallCenterOpener {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        caller(parts, state, true).map(CallCenterOpener)
    }
}

/// The live key of `fingerprint`, read (and remembered, or forgotten).
fn read_key(state: &AppState, fingerprint: &str) -> Result<CallCenterKeyMatch, ApiError> {
    match credentials::call_center_key_holder(&state.store, fingerprint)? {
        Some(matched) => {
            state.call_center_keys.remember(fingerprint, &matched);
            Ok(matched)
        }
        None => {
            state.call_center_keys.forget(fingerprint);
            Err(ApiError::unauthorized(UNAUTHORIZED_MESSAGE))
        }
    }
}

fn caller(parts: &Parts, state: &AppState, hinted: bool) -> Result<CallCenterCaller, ApiError> {
    let key =
        bearer_token(&parts.headers).ok_or_else(|| ApiError::unauthorized(UNAUTHORIZED_MESSAGE))?;
    // `svc_` + exactly 32 alphanumerics: API tokens and partner keys never match.
    if !secret::has_shape(key, secret::CALL_CENTER_KEY_PREFIX) {
        return Err(ApiError::unauthorized(UNAUTHORIZED_MESSAGE));
    }
    let fingerprint = secret::fingerprint(key);
    let hint = hinted
        .then(|| state.call_center_keys.get(&fingerprint))
        .flatten();
    let (mut matched, check) = match hint {
        Some(matched) => (matched, KeyCheck::Hinted),
        None => (read_key(state, &fingerprint)?, KeyCheck::Read),
    };
    // Per key, like API tokens: past it, 429 with `Retry-After`; a hinted
    // key is read first, as 401 comes before 429.
    if let Err(limited) = state.rate_limiter.check(&matched.credential_id) {
        if check == KeyCheck::Hinted {
            read_key(state, &fingerprint)?;
        }
        return Err(limited.into());
    }
    if let Some(at) = touch_if_stale(
        state,
        &matched.credential_id,
        Some(matched.agency.id.as_str()),
        matched.last_used_at.as_deref(),
    ) {
        // The hint keeps the use just recorded: one record a minute.
        matched.last_used_at = Some(at);
        state.call_center_keys.remember(&fingerprint, &matched);
    }
    Ok(CallCenterCaller {
        principal: Principal::call_center_key(matched.credential_id, matched.agency),
        call_center_id: matched.call_center_id,
        call_center_name: matched.call_center_name,
        key: check,
        fingerprint,
    })
}
