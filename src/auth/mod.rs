//! Credentials and the extractors that turn them into a caller: a handler's
//! signature says which credential it takes and which agency scope it acts in.

pub mod api_token;
pub mod password;
pub mod secret;
pub mod staff_session;
pub mod throttle;

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;

/// The token of `Authorization: Bearer <token>` (the word in any case).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(char::is_whitespace)?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
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
