//! The MCP server at /api/mcp through a real MCP client session (rmcp's
//! Streamable HTTP client): authentication, the tool list, each tool's
//! answer in the REST API's shape, refusals as tool errors, isolation.

use crate::common;

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

/// A raw MCP `initialize` POST, as any client's first request.
async fn raw_initialize(server: &TestServer, headers: &[(&str, &str)]) -> (u16, String) {
    let mut request = server
        .client
        .post(server.url("/api/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
        );
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

#[tokio::test]
async fn every_request_is_authenticated_before_any_mcp_processing() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(dir.path(), "Autre", "admin@autre.fr");
    let server = TestServer::start_in(dir).await;
    let refusal =
        r#"{"error":"Authentification requise : jeton d'API manquant, inconnu ou révoqué."}"#;

    let bearer = format!("Bearer {}", org.admin_token);
    let (status, body) = raw_initialize(&server, &[("Authorization", &bearer)]).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"liftdesk\""), "{body}");

    for headers in [
        vec![],
        vec![(
            "Authorization",
            "Bearer svc_agent_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        )],
        vec![("Authorization", "Basic YWRtaW46YWRtaW4=")],
    ] {
        let (status, body) = raw_initialize(&server, &headers).await;
        assert_eq!(status, 401, "{headers:?}");
        assert_eq!(body, refusal);
    }
    // A call-center key is not an API token.
    let key = str_of(
        &server.cli_json(&[
            "call-center-key",
            "create",
            "--agency",
            &org.agency_id,
            "--name",
            "CC",
        ]),
        "key",
    )
    .to_owned();
    let (status, _) = raw_initialize(&server, &[("Authorization", &format!("Bearer {key}"))]).await;
    assert_eq!(status, 401);

    // X-Service-Agency as in the REST API: another organization's agency is
    // outside the scope (403), a malformed one is 400.
    let (status, body) = raw_initialize(
        &server,
        &[
            ("Authorization", &bearer),
            ("X-Service-Agency", &other.agency_id),
        ],
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("hors du périmètre"), "{body}");
    let (status, _) = raw_initialize(
        &server,
        &[("Authorization", &bearer), ("X-Service-Agency", "x")],
    )
    .await;
    assert_eq!(status, 400);

    // Another Host than the server's own names: refused (DNS rebinding).
    let (status, _) = raw_initialize(
        &server,
        &[("Authorization", &bearer), ("Host", "evil.example")],
    )
    .await;
    assert_eq!(status, 403);
    server.stop().await;
}

#[tokio::test]
async fn a_revoked_token_is_refused_at_its_next_request_and_scopes_do_not_mix() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(dir.path(), "Autre", "admin@autre.fr");
    let server = TestServer::start_in(dir).await;
    let extra = server.cli_json(&[
        "token",
        "create",
        "--email",
        "admin@durand.fr",
        "--name",
        "assistant",
    ]);
    let token = str_of(&extra, "token").to_owned();

    let client = connect(&server, &token, None).await;
    let (error, account) = json_of(&call(&client, "compte", json!({})).await);
    assert!(!error);
    assert_eq!(account["agency"]["id"], json!(org.agency_id));

    // Another organization's token sees its own account and agency only.
    let stranger = connect(&server, &other.admin_token, None).await;
    let (_, theirs) = json_of(&call(&stranger, "compte", json!({})).await);
    assert_eq!(theirs["agency"]["id"], json!(other.agency_id));
    let (_, agencies) = json_of(&call(&stranger, "agences", json!({})).await);
    assert!(!agencies.to_string().contains(&org.agency_id), "{agencies}");
    stranger.cancel().await.expect("close");

    server.cli_json(&["token", "revoke", "--id", str_of(&extra, "id")]);
    let refused = client
        .call_tool(rmcp::model::CallToolRequestParams::new("compte"))
        .await;
    assert!(
        refused.is_err(),
        "a revoked token still answered: {refused:?}"
    );
    let (status, _) =
        raw_initialize(&server, &[("Authorization", &format!("Bearer {token}"))]).await;
    assert_eq!(status, 401);
    server.stop().await;
}
