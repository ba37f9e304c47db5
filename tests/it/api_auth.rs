//! Token → scope → store → wire shape, end to end, and the web-UI session.

use crate::common;

use common::*;
use serde_json::{Value, json};

const UNAUTHORIZED: &str = "Authentification requise : jeton d'API manquant, inconnu ou révoqué.";

fn object_keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn me_answers_exactly_the_account_table() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let second = server.cli_json(&[
        "agency",
        "create",
        "--organization",
        &org.organization_id,
        "--name",
        "Durand Est",
    ]);
    let second_id = str_of(&second, "id").to_owned();

    let (status, body) = server
        .get_with("/api/v2/me", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        object_keys(&body),
        ["agencies", "agency", "email", "id", "name"]
    );
    assert_eq!(body["id"], json!(org.admin_id));
    assert_eq!(body["name"], json!("Admin Durand"));
    assert_eq!(body["email"], json!("claire@durand.fr"));
    assert_eq!(
        body["agency"],
        json!({ "id": org.agency_id, "name": "Durand Centre" })
    );
    let agencies = body["agencies"].as_array().expect("array");
    assert_eq!(
        agencies.len(),
        2,
        "an organization admin works in every agency, present and future"
    );
    for agency in agencies {
        assert_eq!(object_keys(agency), ["id", "name"]);
    }

    // X-Service-Agency picks the acting agency within the scope.
    let (status, body) = server
        .get_with("/api/v2/me", Some(&org.admin_token), Some(&second_id))
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        body["agency"],
        json!({ "id": second_id, "name": "Durand Est" })
    );

    // A name-less account: present with null.
    server.cli_json(&[
        "init",
        "--organization",
        "Sans Nom",
        "--agency",
        "A",
        "--admin-email",
        "x@sans.fr",
        "--admin-password",
        "motdepasse1",
    ]);
    let token = server.cli_json(&["token", "create", "--email", "x@sans.fr", "--name", "t"]);
    let (_, body) = server
        .get_with("/api/v2/me", Some(str_of(&token, "token")), None)
        .await;
    assert_eq!(body["name"], Value::Null);
    assert_eq!(
        object_keys(&body),
        ["agencies", "agency", "email", "id", "name"]
    );
    server.stop().await;
}

#[tokio::test]
async fn missing_unknown_and_revoked_tokens_get_401_with_a_french_body_only() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let fake = format!("svc_agent_{}", "A".repeat(32));
    let cases: Vec<(Option<String>, &str)> = vec![
        (None, "missing"),
        (Some(fake), "unknown"),
        (Some("not-even-a-token".to_owned()), "malformed"),
    ];
    for (token, case) in cases {
        let (status, body) = server.get_with("/api/v2/me", token.as_deref(), None).await;
        assert_eq!(status, 401, "{case}");
        assert_eq!(body, json!({ "error": UNAUTHORIZED }), "{case}");
    }
    // A wrong scheme is no bearer token.
    let response = server
        .client
        .get(server.url("/api/v2/me"))
        .header("Authorization", format!("Basic {}", org.admin_token))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);

    // The word Bearer in any case.
    for scheme in ["bearer", "BEARER", "BeArEr"] {
        let response = server
            .client
            .get(server.url("/api/v2/me"))
            .header("Authorization", format!("{scheme} {}", org.admin_token))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 200, "{scheme}");
    }

    // Revocation is immediate.
    let token = server.cli_json(&[
        "token",
        "create",
        "--email",
        "admin@org.fr",
        "--name",
        "éphémère",
    ]);
    let token_text = str_of(&token, "token");
    assert_eq!(
        server
            .get_with("/api/v2/me", Some(token_text), None)
            .await
            .0,
        200
    );
    server.cli_json(&["token", "revoke", "--id", str_of(&token, "id")]);
    let (status, body) = server.get_with("/api/v2/me", Some(token_text), None).await;
    assert_eq!(status, 401);
    assert_eq!(body, json!({ "error": UNAUTHORIZED }));
    // The other token of the account still works.
    assert_eq!(
        server
            .get_with("/api/v2/me", Some(&org.admin_token), None)
            .await
            .0,
        200
    );
    server.stop().await;
}

#[tokio::test]
async fn agency_outside_the_scope_is_403_and_a_malformed_header_400() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let second = server.cli_json(&[
        "agency",
        "create",
        "--organization",
        &org.organization_id,
        "--name",
        "Org Sud",
    ]);
    let member = server.cli_json(&[
        "user",
        "create",
        "--email",
        "membre@org.fr",
        "--name",
        "Membre",
        "--password",
        "motdepasse1",
        "--agency",
        &org.agency_id,
    ]);
    let member_token =
        server.cli_json(&["token", "create", "--email", "membre@org.fr", "--name", "t"]);
    let member_token = str_of(&member_token, "token");

    // Another organization's agency, and an agency that does not exist.
    for agency in [
        other.agency_id.as_str(),
        "0190a0a0-0000-7000-8000-000000000000",
    ] {
        let (status, body) = server
            .get_with("/api/v2/me", Some(&org.admin_token), Some(agency))
            .await;
        assert_eq!(status, 403);
        assert_eq!(
            body,
            json!({ "error": "Cette agence est hors du périmètre de ce compte." })
        );
    }
    // A member works only in its own agencies.
    let (status, body) = server
        .get_with("/api/v2/me", Some(member_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["id"], json!(str_of(&member, "id")));
    assert_eq!(
        body["agencies"],
        json!([{ "id": org.agency_id, "name": "Org Centre" }])
    );
    let (status, _) = server
        .get_with(
            "/api/v2/me",
            Some(member_token),
            Some(str_of(&second, "id")),
        )
        .await;
    assert_eq!(status, 403);

    let (status, body) = server
        .get_with("/api/v2/me", Some(&org.admin_token), Some("pas-un-uuid"))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({ "error": "L'en-tête X-Service-Agency doit contenir l'identifiant (UUID) d'une agence." })
    );
    // Authentication comes first: no token and a bad header is still 401.
    assert_eq!(
        server
            .get_with("/api/v2/me", None, Some("pas-un-uuid"))
            .await
            .0,
        401
    );
    server.stop().await;
}

#[tokio::test]
async fn the_service_operator_sees_every_client_organization() {
    let server = TestServer::start().await;
    let a = init_org(server.data_dir.path(), "A", "admin@a.fr");
    let b = init_org(server.data_dir.path(), "B", "admin@b.fr");
    create_operator(server.data_dir.path(), "ops@service.fr", "motdepasse1");
    let token = server.cli_json(&[
        "token",
        "create",
        "--email",
        "ops@service.fr",
        "--name",
        "supervision",
    ]);
    let token = str_of(&token, "token");
    let (status, body) = server.get_with("/api/v2/me", Some(token), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        body["agency"],
        Value::Null,
        "no agency requested: the operator acts in none"
    );
    let ids: Vec<&str> = body["agencies"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|a| a["id"].as_str())
        .collect();
    assert!(ids.contains(&a.agency_id.as_str()) && ids.contains(&b.agency_id.as_str()));
    let (status, body) = server
        .get_with("/api/v2/me", Some(token), Some(&b.agency_id))
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["agency"]["id"], json!(b.agency_id));
    server.stop().await;
}

#[tokio::test]
async fn unknown_api_paths_answer_json_404() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let (status, body) = server
        .get_with("/api/v2/nothing-here", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(body, json!({ "error": "Ressource introuvable." }));
    let (status, body) = server.get_with("/app/api/nothing", None, None).await;
    assert_eq!(status, 404);
    assert_eq!(body, json!({ "error": "Ressource introuvable." }));
    server.stop().await;
}

/// A browser-like client that keeps cookies.
fn browser() -> reqwest::Client {
    crate::common::http_client_builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

async fn sign_in(
    server: &TestServer,
    client: &reqwest::Client,
    email: &str,
    password: &str,
) -> (u16, Value) {
    let response = client
        .post(server.url("/app/api/session"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn staff_session_sign_in_csrf_and_sign_out() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let client = browser();

    let response = client
        .get(server.url("/app/api/session"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);

    let (status, body) = sign_in(&server, &client, "admin@org.fr", "mauvais-mot-de-passe").await;
    assert_eq!(status, 401);
    assert_eq!(
        body,
        json!({ "error": "Adresse e-mail ou mot de passe incorrect." })
    );
    let (status, body) = sign_in(&server, &client, "inconnu@org.fr", "motdepasse-solide").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("Adresse e-mail ou mot de passe incorrect."))
    );

    let response = client
        .post(server.url("/app/api/session"))
        .json(&json!({ "email": " ADMIN@org.fr ", "password": "motdepasse-solide" }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(cookie.starts_with("liftdesk_session="), "{cookie}");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body["account"],
        json!({ "id": org.admin_id, "name": "Admin Org", "email": "admin@org.fr", "role": "org_admin", "mustChangePassword": false })
    );
    assert_eq!(
        body["agency"],
        json!({ "id": org.agency_id, "name": "Org Centre" })
    );
    let csrf = body["csrfToken"].as_str().expect("csrf token").to_owned();

    // After a reload, the same session and the same CSRF token.
    let again: Value = client
        .get(server.url("/app/api/session"))
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    assert_eq!(again["csrfToken"], json!(csrf));

    // The session does not open the REST API, and an API token does not open the web API.
    let response = client
        .get(server.url("/api/v2/me"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
    let response = server
        .client
        .get(server.url("/app/api/session"))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);

    // Sign-out needs the CSRF token.
    let response = client
        .delete(server.url("/app/api/session"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({ "error": "Jeton anti-CSRF manquant ou invalide : rechargez la page." })
    );
    let response = client
        .delete(server.url("/app/api/session"))
        .header("X-CSRF-Token", &csrf)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 204);
    let response = client
        .get(server.url("/app/api/session"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
    server.stop().await;
}

#[tokio::test]
async fn sign_in_refuses_malformed_bodies_in_french() {
    let server = TestServer::start().await;
    let response = server
        .client
        .post(server.url("/app/api/session"))
        .header("Content-Type", "text/plain")
        .body("{}")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 400);
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({ "error": "Le corps de la requête doit être du JSON, avec l'en-tête Content-Type: application/json." })
    );
    let response = server
        .client
        .post(server.url("/app/api/session"))
        .header("Content-Type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 400);
    let response = server
        .client
        .post(server.url("/app/api/session"))
        .json(&json!({ "email": "a@b.fr" }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 422);
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({ "error": "Le champ « password » est obligatoire." })
    );
    server.stop().await;
}

#[tokio::test]
async fn repeated_failed_sign_ins_are_throttled() {
    let server = TestServer::start().await;
    let _org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let client = browser();
    for _ in 0..5 {
        assert_eq!(
            sign_in(&server, &client, "admin@org.fr", "faux-mot-de-passe")
                .await
                .0,
            401
        );
    }
    let response = client
        .post(server.url("/app/api/session"))
        .json(&json!({ "email": "admin@org.fr", "password": "motdepasse-solide" }))
        .send()
        .await
        .expect("request");
    assert_eq!(
        response.status().as_u16(),
        429,
        "even the right password waits"
    );
    let retry_after: u64 = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!(retry_after > 0 && retry_after <= 15 * 60);
    let body: Value = response.json().await.expect("json");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("Trop de requêtes")),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test]
async fn changing_the_password_revokes_every_api_token_of_the_account() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let second_token = server.cli_json(&[
        "token",
        "create",
        "--email",
        "admin@org.fr",
        "--name",
        "autre outil",
    ]);
    let second_token = str_of(&second_token, "token").to_owned();
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");

    let client = browser();
    let (status, body) = sign_in(&server, &client, "admin@org.fr", "motdepasse-solide").await;
    assert_eq!(status, 200);
    let csrf = body["csrfToken"].as_str().expect("csrf").to_owned();
    let second_browser = browser();
    assert_eq!(
        sign_in(
            &server,
            &second_browser,
            "admin@org.fr",
            "motdepasse-solide"
        )
        .await
        .0,
        200
    );

    let change = |current: &str, new: &str, csrf: Option<&str>| {
        let mut request = client
            .post(server.url("/app/api/account/password"))
            .json(&json!({ "currentPassword": current, "newPassword": new }));
        if let Some(csrf) = csrf {
            request = request.header("X-CSRF-Token", csrf);
        }
        request.send()
    };
    assert_eq!(
        change("motdepasse-solide", "nouveau-secret-2026", None)
            .await
            .expect("request")
            .status()
            .as_u16(),
        403
    );
    let response = change("faux", "nouveau-secret-2026", Some(&csrf))
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 422);
    assert_eq!(
        response.json::<Value>().await.expect("json"),
        json!({ "error": "Le mot de passe actuel est incorrect." })
    );
    let response = change("motdepasse-solide", "court", Some(&csrf))
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 422);
    // Nothing was revoked by the refusals.
    assert_eq!(
        server
            .get_with("/api/v2/me", Some(&org.admin_token), None)
            .await
            .0,
        200
    );

    let response = change("motdepasse-solide", "nouveau-secret-2026", Some(&csrf))
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.json::<Value>().await.expect("json"),
        json!({ "revokedTokens": 2 })
    );

    for token in [&org.admin_token, &second_token] {
        let (status, body) = server.get_with("/api/v2/me", Some(token), None).await;
        assert_eq!(status, 401);
        assert_eq!(body, json!({ "error": UNAUTHORIZED }));
    }
    // Another account's token is untouched.
    assert_eq!(
        server
            .get_with("/api/v2/me", Some(&other.admin_token), None)
            .await
            .0,
        200
    );
    // The session that changed it stays open; the other browser is signed out.
    assert_eq!(
        client
            .get(server.url("/app/api/session"))
            .send()
            .await
            .expect("request")
            .status()
            .as_u16(),
        200
    );
    assert_eq!(
        second_browser
            .get(server.url("/app/api/session"))
            .send()
            .await
            .expect("request")
            .status()
            .as_u16(),
        401
    );
    // Old password refused, new accepted.
    assert_eq!(
        sign_in(&server, &browser(), "admin@org.fr", "motdepasse-solide")
            .await
            .0,
        401
    );
    assert_eq!(
        sign_in(&server, &browser(), "admin@org.fr", "nouveau-secret-2026")
            .await
            .0,
        200
    );
    server.stop().await;
}
