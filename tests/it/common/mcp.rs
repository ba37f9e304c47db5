//! An MCP client session against the test server (rmcp's Streamable HTTP
//! client), and helpers to read tool answers.

use std::collections::HashMap;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::Value;

use super::TestServer;

pub type Client = RunningService<RoleClient, ClientConfig>;

pub async fn connect(server: &TestServer, token: &str, agency: Option<&str>) -> Client {
    let mut headers = HashMap::new();
    if let Some(agency) = agency {
        headers.insert(
            axum::http::HeaderName::from_static("x-service-agency"),
            axum::http::HeaderValue::from_str(agency).expect("header"),
        );
    }
    // rmcp's transport makes its own reqwest client.
    liftdesk::webhooks::sender::install_tls_provider();
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(server.url("/api/mcp"))
            .auth_header(token)
            .custom_headers(headers),
    );
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("MCP session")
}

pub async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
        .unwrap_or_else(|err| panic!("{tool}: {err}"))
}

/// The tool's JSON answer (its text content), and whether it is an error.
pub fn json_of(result: &CallToolResult) -> (bool, Value) {
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("text content");
    (
        result.is_error == Some(true),
        serde_json::from_str(&text).expect("JSON text"),
    )
}
