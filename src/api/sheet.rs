//! `GET /fiche/{token}`: the single-use equipment sheet page (outside /api).
//! Opens once within 5 minutes; otherwise — used, expired, forged, unknown —
//! the same French "lien expiré" page with 410, revealing nothing.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::services::sheet;
use crate::state::AppState;

const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

pub async fn open_sheet(
    State(state): State<AppState>,
    method: Method,
    token: Result<Path<String>, PathRejection>,
) -> Response {
    // axum answers HEAD with the GET handler: a link checker's HEAD must
    // not consume the single-use link, nor tell whether it is valid.
    if method == Method::HEAD {
        let mut response = StatusCode::METHOD_NOT_ALLOWED.into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET"));
        return with_headers(response);
    }
    // A token that is not even text (`%FF`) is a forged link like any
    // other: the same page, not axum's English 400.
    let Ok(Path(token)) = token else {
        return with_headers((StatusCode::GONE, sheet::expired_page()).into_response());
    };
    let opened = sheet::open_link(&state.store, &state.sheet_secret, &token).await;
    let (status, html) = match opened {
        Ok(Some(html)) => (StatusCode::OK, html),
        Ok(None) => (StatusCode::GONE, sheet::expired_page()),
        Err(err) => {
            tracing::error!(error = ?err, "ouverture de fiche en échec");
            (StatusCode::GONE, sheet::expired_page())
        }
    };
    with_headers((status, html).into_response())
}

/// The sheet's security headers, on every answer of `/fiche/{token}`.
fn with_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}
