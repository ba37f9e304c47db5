//! Credentials and the extractors that turn them into a caller: a handler's
//! signature says which credential it takes and which agency scope it acts in.

pub mod api_token;
pub mod call_center_key;
pub mod partner_key;
pub mod rate_limit;
pub mod staff_session;
pub mod throttle;

/// Secrets, fingerprints, passwords and sheet links (crate `liftdesk-core`).
pub use liftdesk_core::auth::{password, secret, shared_keys, sheet_token};

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use chrono::Duration;

use crate::clock;
use crate::domain::id::CredentialId;
use crate::services::credentials;
use crate::state::AppState;

/// `last_used_at` of a credential is written at most this often.
const TOUCH_INTERVAL_SECS: i64 = 60;

/// The token of `Authorization: Bearer <token>` (the word in any case).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(char::is_whitespace)?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Records a credential's last use without making every request a write:
/// when `last_used_at` is older than [`TOUCH_INTERVAL_SECS`], the use is
/// recorded now, in the background, and its time (stored text) returned.
/// The server's clock, not the machine's: under a fixed clock (tests, the
/// instruction-count gate) a slow run must not add writes, each of which
/// also empties the read cache.
pub(crate) fn touch_if_stale(
    state: &AppState,
    credential_id: &CredentialId,
    agency: Option<&str>,
    last_used_at: Option<&str>,
) -> Option<String> {
    let now = state.now();
    let stale = last_used_at
        .and_then(clock::parse_timestamp)
        .is_none_or(|at| now - at > Duration::seconds(TOUCH_INTERVAL_SECS));
    if !stale {
        return None;
    }
    let store = state.store.clone();
    let id = credential_id.to_owned();
    let agency = agency.map(str::to_owned);
    let at = clock::format_timestamp(now);
    let recorded = at.clone();
    tokio::spawn(async move {
        if let Err(err) = credentials::record_use(&store, &id, agency.as_deref(), at).await {
            tracing::warn!(error = %err, "date de dernière utilisation non enregistrée");
        }
    });
    Some(recorded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(value: &str) -> HeaderMap {
        let mut map = HeaderMap::new();
        map.insert(AUTHORIZATION, HeaderValue::from_str(value).expect("header"));
        map
    }

    #[test]
    fn bearer_word_is_case_insensitive() {
        assert_eq!(bearer_token(&headers("Bearer abc")), Some("abc"));
        assert_eq!(bearer_token(&headers("bearer abc")), Some("abc"));
        assert_eq!(bearer_token(&headers("BEARER   abc ")), Some("abc"));
        assert_eq!(bearer_token(&headers("Basic abc")), None);
        assert_eq!(bearer_token(&headers("Bearer")), None);
        assert_eq!(bearer_token(&HeaderMap::new()), None);
    }
}
