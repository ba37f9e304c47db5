//! The tools, by group: each file holds one `#[tool_router]` block of the
//! server, merged in `LiftdeskMcp::tool_set`.

mod account;
mod args;
mod billing;
mod buildings;
mod calls;
mod checked;
mod contacts;
mod contracts;
pub(super) mod equipment;
mod planning;
mod prompts;
mod surveys;

use axum::http::request::Parts;

use crate::auth::api_token::ApiCaller;
use crate::error::ApiError;

/// The caller authenticated by the transport's middleware.
pub(super) fn caller_of(parts: &Parts) -> Result<ApiCaller, ApiError> {
    parts
        .extensions
        .get::<ApiCaller>()
        .cloned()
        .ok_or_else(|| ApiError::unauthorized(crate::auth::api_token::UNAUTHORIZED_MESSAGE))
}
