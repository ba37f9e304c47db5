//! The staff web UI, built into `ui/dist` and embedded in the binary (read
//! from disk in debug builds). Unknown paths get `index.html` so the UI's
//! own routes survive a reload.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "ui/dist"]
struct UiAssets;

/// Only the local server: no inline script, no third-party origin, no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

pub async fn serve_ui(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if !path.is_empty() {
        if let Some(file) = UiAssets::get(path) {
            let cache = if path.starts_with("assets/") {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            return asset_response(path, file.data.into_owned(), cache);
        }
        // A missing file with an extension is a real 404, not a UI route.
        if path
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains('.'))
        {
            return (StatusCode::NOT_FOUND, "Fichier introuvable.").into_response();
        }
    }
    match UiAssets::get("index.html") {
        Some(index) => asset_response("index.html", index.data.into_owned(), "no-cache"),
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "L'interface web n'est pas construite : lancez « npm ci && npm run build » dans ui/, puis relancez Liftdesk.",
        )
            .into_response(),
    }
}

fn asset_response(path: &str, bytes: Vec<u8>, cache: &'static str) -> Response {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let mut response = Response::new(Body::from(bytes));
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(mime.as_ref()) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if path.ends_with(".html") {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
    }
    response
}
