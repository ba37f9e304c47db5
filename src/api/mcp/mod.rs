//! The MCP server (`{base_url}/api/mcp`): rmcp's Streamable HTTP transport,
//! opened by the same API tokens as the REST API v2 and acting, like it, in
//! the token's account with its rights and the agency of `X-Service-Agency`.
//!
//! Every HTTP request is authenticated before any MCP processing (401, 403,
//! 429 as in the REST API); the caller travels to the tools in the request's
//! extensions. Tools call the same functions as the REST handlers and answer
//! the same shapes; refusals are tool errors carrying the same French reason.

mod result;
mod server;
mod tools;

use axum::Router;
use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use crate::auth::api_token::ApiCaller;
use crate::state::AppState;

pub use server::LiftdeskMcp;

/// Where the MCP server answers.
pub const PATH: &str = "/api/mcp";

/// The service mounted at `/api/mcp`.
pub fn router(state: &AppState) -> Router<AppState> {
    let tools = server::LiftdeskMcp::tool_set();
    let factory_state = state.clone();
    let service = StreamableHttpService::new(
        move || Ok(LiftdeskMcp::new(factory_state.clone(), tools.clone())),
        NeverSessionManager::default().into(),
        // Stateless, plain JSON answers: every request stands alone (and is
        // authenticated on its own), and no stream outlives its request.
        StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_sse_keep_alive(None)
            .with_allowed_hosts(allowed_hosts(&state.base_url)),
    );
    Router::new()
        .route_service(PATH, service)
        .layer(middleware::from_fn_with_state(state.clone(), authenticate))
}

/// The loopback names, and the public URL's host (`serve --public-url`):
/// rmcp refuses other `Host` headers (DNS rebinding).
fn allowed_hosts(base_url: &str) -> Vec<String> {
    let mut hosts = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
    ];
    if let Ok(url) = reqwest::Url::parse(base_url)
        && let Some(host) = url.host_str()
    {
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        if !hosts.contains(&host) {
            hosts.push(host);
        }
    }
    hosts
}

/// Authenticates the request as the REST API v2 does; the caller is handed
/// to the tools through the request's extensions.
async fn authenticate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    match ApiCaller::from_request_parts(&mut parts, &state).await {
        Ok(caller) => {
            parts.extensions.insert(caller);
            next.run(Request::from_parts(parts, body)).await
        }
        Err(refusal) => refusal.into_response(),
    }
}
