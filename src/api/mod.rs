//! HTTP: one module per API family, one file per resource, each with its
//! `router()`. Handlers are thin: extract, validate, call the domain, map to
//! the wire shape.

pub mod app;
pub mod extract;
pub mod json;
pub mod mcp;
pub mod partners;
pub mod pdf;
pub mod sheet;
pub mod ui;
pub mod v2;
pub mod wf;
pub mod wire;

use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;

use crate::error::ApiError;
use crate::state::AppState;

/// Largest JSON body accepted (the import family sets its own).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

pub fn router(state: AppState) -> Router {
    Router::new()
        .nest("/api/v2", v2::router())
        .merge(mcp::router(&state))
        .nest("/api/partners", partners::router())
        .nest("/api/1.1/wf", wf::router())
        .route("/fiche/{token}", axum::routing::get(sheet::open_sheet))
        .nest("/app/api", app::router())
        // Any other address under an API prefix is a JSON 404, never the UI.
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .route("/app/api/{*rest}", axum::routing::any(api_not_found))
        .fallback(ui::serve_ui)
        .layer(middleware::map_response(french_method_not_allowed))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(log_request))
        .with_state(state)
}

/// axum answers a known path with a wrong method by an empty 405 (with its
/// `Allow` header): give it the French error body, keeping the headers.
async fn french_method_not_allowed(response: Response) -> Response {
    if response.status() != StatusCode::METHOD_NOT_ALLOWED {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    let body =
        serde_json::json!({ "error": "Méthode non autorisée pour cette adresse." }).to_string();
    Response::from_parts(parts, Body::from(body))
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("Ressource introuvable.")
}

/// The path as logged: a sheet link's token is a secret, not logged.
fn loggable_path(path: &str) -> String {
    match path.strip_prefix("/fiche/") {
        Some(_) => "/fiche/…".to_owned(),
        None => path.to_owned(),
    }
}

/// One log line per request: method, path (never the query string, which
/// could carry secrets), status and duration. The request is answered as
/// one (`store::as_one_request`).
async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = loggable_path(request.uri().path());
    let started = Instant::now();
    // One request: the store's kept answers may be those of any moment since.
    let response = crate::store::as_one_request(next.run(request)).await;
    tracing::info!(
        %method,
        %path,
        status = response.status().as_u16(),
        ms = started.elapsed().as_millis() as u64,
        "requête"
    );
    response
}
