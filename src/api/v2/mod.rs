//! REST API v2 (`{base_url}/api/v2`), opened by API tokens.

pub mod me;

use axum::Router;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().merge(me::router())
}
