//! The MCP server at /api/mcp through a real MCP client session (rmcp's
//! Streamable HTTP client): authentication, the tool list, each tool's
//! answer in the REST API's shape, refusals as tool errors, isolation.

mod common;

use std::collections::HashMap;

use common::*;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ClientConfig>;

async fn connect(server: &TestServer, token: &str, agency: Option<&str>) -> Client {
    let mut headers = HashMap::new();
    if let Some(agency) = agency {
        headers.insert(
            axum::http::HeaderName::from_static("x-service-agency"),
            axum::http::HeaderValue::from_str(agency).expect("header"),
        );
    }
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

async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
        .unwrap_or_else(|err| panic!("{tool}: {err}"))
}

/// The tool's JSON answer (its text content), and whether it is an error.
fn json_of(result: &CallToolResult) -> (bool, Value) {
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

#[tokio::test]
async fn a_session_lists_the_tools_and_answers_in_the_rest_shapes() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let server = TestServer::start_in(dir).await;
    let client = connect(&server, &org.admin_token, None).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("liftdesk")
    );

    let tools = client.list_all_tools().await.expect("tools");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(names.contains(&"compte"), "{names:?}");

    let (error, account) = json_of(&call(&client, "compte", json!({})).await);
    assert!(!error);
    let (_, rest) = server
        .get_with("/api/v2/me", Some(&org.admin_token), None)
        .await;
    assert_eq!(account, rest, "the REST API's shape");
    let (error, technicians) = json_of(&call(&client, "techniciens", json!({})).await);
    assert!(!error);
    let (_, rest) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(technicians, rest);
    client.cancel().await.expect("close");
    server.stop().await;
}
