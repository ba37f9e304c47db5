//! The REST API v2's machine-readable description, its offline docs page,
//! and the limits every operation shares (429 with Retry-After, 413).

use crate::common;

use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use serde_json::{Value, json};

#[tokio::test]
async fn the_description_is_openapi_3_1_with_the_bearer_scheme_and_the_agency_header() {
    let server = TestServer::start().await;
    let response = server
        .client
        .get(server.url("/api/v2/openapi.json"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap_or_default()
            .starts_with("application/json")
    );
    let doc: Value = response.json().await.expect("json");
    assert_eq!(doc["openapi"], json!("3.1.0"));
    assert_eq!(doc["info"]["version"], json!("2.0.0-beta"));
    assert!(doc["info"].get("license").is_none(), "no license invented");
    assert_eq!(doc["servers"][0]["url"], json!("/api/v2"));
    assert_eq!(
        doc["components"]["securitySchemes"]["jeton_api"]["scheme"],
        json!("bearer")
    );
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.contains_key("/me"));
    for (path, item) in paths {
        for (method, operation) in item.as_object().expect("path item") {
            let parameters = operation["parameters"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert!(
                parameters
                    .iter()
                    .any(|p| p["name"] == json!("X-Service-Agency") && p["in"] == json!("header")),
                "{method} {path} lacks X-Service-Agency"
            );
            assert_eq!(
                operation["security"],
                json!([{ "jeton_api": [] }]),
                "{method} {path}"
            );
            for status in ["400", "401", "403", "429"] {
                assert!(
                    operation["responses"].get(status).is_some(),
                    "{method} {path} lacks {status}"
                );
            }
        }
    }
    // The account schema says what /me answers: five fields, all required.
    let account = &doc["components"]["schemas"]["AccountView"];
    let mut required: Vec<&str> = account["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    required.sort_unstable();
    assert_eq!(required, ["agencies", "agency", "email", "id", "name"]);
    server.stop().await;
}

#[tokio::test]
async fn the_docs_page_works_offline() {
    let server = TestServer::start().await;
    let response = server
        .client
        .get(server.url("/api/v2/docs"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    let html = response.text().await.expect("html");
    assert!(html.contains("/api-docs/swagger-ui-bundle.js"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no third-party address: works offline"
    );
    if std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("ui/dist/api-docs/swagger-ui-bundle.js")
        .exists()
    {
        for asset in [
            "/api-docs/swagger-ui-bundle.js",
            "/api-docs/swagger-ui.css",
            "/api-docs/init.js",
        ] {
            let response = server
                .client
                .get(server.url(asset))
                .send()
                .await
                .expect("request");
            assert_eq!(response.status().as_u16(), 200, "{asset}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn too_many_calls_get_429_with_retry_after_per_token() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let other = cli_json(
        dir.path(),
        &[
            "token",
            "create",
            "--email",
            "admin@org.fr",
            "--name",
            "autre",
        ],
    );
    let server = TestServer::start_with(dir, RateLimit::parse("60/5").expect("limit")).await;
    for _ in 0..5 {
        assert_eq!(
            server
                .get_with("/api/v2/me", Some(&org.admin_token), None)
                .await
                .0,
            200
        );
    }
    let response = server
        .client
        .get(server.url("/api/v2/me"))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 429);
    let retry_after: u64 = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({ "error": format!("Trop de requêtes : réessayez dans {retry_after} s.") })
    );
    // The threshold is per token: another token of the same account still passes.
    assert_eq!(
        server
            .get_with("/api/v2/me", Some(str_of(&other, "token")), None)
            .await
            .0,
        200
    );
    // Unknown tokens are refused before counting: 401, not 429.
    assert_eq!(
        server
            .get_with("/api/v2/me", Some("svc_agent_inconnu"), None)
            .await
            .0,
        401
    );
    server.stop().await;
}

#[tokio::test]
async fn bodies_over_the_limit_get_413_in_french() {
    let server = TestServer::start().await;
    let huge = format!(
        "{{\"email\": \"{}\", \"password\": \"x\"}}",
        "a".repeat(2 * 1024 * 1024)
    );
    let response = server
        .client
        .post(server.url("/app/api/session"))
        .header("Content-Type", "application/json")
        .body(huge)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 413);
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({ "error": "Le corps de la requête dépasse la taille maximale acceptée (1024 Kio)." })
    );
    server.stop().await;
}

#[tokio::test]
async fn a_wrong_method_gets_405_in_french_with_allow() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let response = server
        .client
        .delete(server.url("/api/v2/me"))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 405);
    let allow = response
        .headers()
        .get("allow")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(allow.contains("GET"), "{allow}");
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({ "error": "Méthode non autorisée pour cette adresse." })
    );
    server.stop().await;
}
