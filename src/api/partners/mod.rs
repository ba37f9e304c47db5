//! The call-center API (`{base_url}/api/partners`), opened by call-center
//! keys (`Authorization: Bearer svc_…`). The agency is the key's. It is not
//! part of the REST API v2's OpenAPI description: its contract is the spec's
//! "Call-center API" and `docs/call-center-api.md`. One file per resource.

pub mod calls;

use axum::Router;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().merge(calls::router())
}
