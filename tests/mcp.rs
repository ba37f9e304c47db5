//! The MCP server at /api/mcp through a real MCP client session (rmcp's
//! Streamable HTTP client): authentication, the tool list, each tool's
//! answer in the REST API's shape, refusals as tool errors, isolation.

mod common;

use common::mcp::*;
use common::*;
use serde_json::json;

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
