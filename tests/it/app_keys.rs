//! The keys-and-tokens screen's API (`/app/api/keys/…`): the account's API
//! tokens, the agency's call-center keys and partner keys; shown once, only
//! fingerprints stored, member refusals, another agency's keys answering 404.

use crate::common;

use std::time::Duration;

use common::app::StaffClient;
use common::*;
use liftdesk::auth::secret::fingerprint;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";
const CSRF_REFUSED: &str = "Jeton anti-CSRF manquant ou invalide : rechargez la page.";
const TOKEN_NOT_FOUND: &str = "Jeton d'API introuvable parmi ceux de votre compte.";
const KEY_NOT_FOUND: &str = "Clé introuvable dans cette agence.";

/// An organization with two agencies, an admin of both and a member of the
/// first; and another organization.
struct World {
    server: TestServer,
    org: Org,
    second_agency: String,
    other: Org,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let second = server.cli_json(&[
        "agency",
        "create",
        "--organization",
        &org.organization_id,
        "--name",
        "Durand Sud",
    ]);
    server.cli_json(&[
        "user",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "Sophie Membre",
        "--password",
        PASSWORD,
        "--agency",
        &org.agency_id,
    ]);
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    World {
        server,
        org,
        second_agency: str_of(&second, "id").to_owned(),
        other,
    }
}

fn keys_of(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected, got {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn results(body: &Value) -> Vec<Value> {
    body["results"]
        .as_array()
        .unwrap_or_else(|| panic!("results expected in {body}"))
        .clone()
}

fn find<'a>(rows: &'a [Value], id: &str) -> Option<&'a Value> {
    rows.iter().find(|row| row["id"] == json!(id))
}

/// The secret appears nowhere in the database files (main file and WAL).
fn assert_not_stored(server: &TestServer, secret: &str) {
    let db = db_path(server.data_dir.path());
    for path in [db.clone(), db.with_extension("db-wal")] {
        if let Ok(bytes) = std::fs::read(&path) {
            assert!(
                !bytes
                    .windows(secret.len())
                    .any(|window| window == secret.as_bytes()),
                "secret found in {}",
                path.display()
            );
        }
    }
}

fn stored_fingerprint(server: &TestServer, id: &str) -> String {
    open_db(server.data_dir.path())
        .query_row(
            "SELECT fingerprint FROM credentials WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .expect("stored credential")
}

async fn partners_call(server: &TestServer, key: &str) -> u16 {
    server
        .client
        .get(server.url("/api/partners/calls/INCONNUE-0001"))
        .header("Authorization", format!("Bearer {key}"))
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

async fn workflow_call(server: &TestServer, key: &str, agency_id: &str) -> u16 {
    server
        .client
        .post(server.url("/api/1.1/wf/get_client"))
        .header("x-api-key", key)
        .json(&json!({ "agency_id": agency_id, "client_id": "inconnu" }))
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

#[tokio::test]
async fn an_account_creates_lists_and_revokes_its_own_api_tokens() {
    let w = world().await;
    let admin = StaffClient::sign_in(&w.server, "admin@durand.fr", PASSWORD).await;

    // The token of `init_org` is listed, by its fingerprint prefix only.
    let (status, body) = admin.get("/keys/tokens").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(keys_of(&body), ["limit", "page", "results", "total"]);
    assert_eq!(
        (
            body["total"].clone(),
            body["page"].clone(),
            body["limit"].clone()
        ),
        (json!(1), json!(1), json!(50))
    );
    let first = &results(&body)[0];
    assert_eq!(
        keys_of(first),
        ["createdAt", "fingerprintPrefix", "id", "lastUsedAt", "name"]
    );
    assert_eq!(first["name"], json!("tests"));
    assert_eq!(
        first["fingerprintPrefix"],
        json!(&fingerprint(&w.org.admin_token)[..8])
    );

    // Validation, in French, like the CLI's.
    for (sent, expected) in [
        (
            json!({ "name": "   " }),
            "Le nom de l'outil est obligatoire.",
        ),
        (
            json!({ "name": "x".repeat(201) }),
            "Le nom de l'outil ne doit pas dépasser 200 caractères.",
        ),
        (json!({}), "Le champ « name » est obligatoire."),
    ] {
        let (status, body) = admin.post("/keys/tokens", sent).await;
        assert_eq!((status, body), (422, json!({ "error": expected })));
    }

    // Created: the token is in this answer only.
    let (status, created) = admin
        .post("/keys/tokens", json!({ "name": "  Tableur de suivi " }))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        keys_of(&created),
        ["fingerprintPrefix", "id", "name", "ok", "token"]
    );
    assert_eq!(created["name"], json!("Tableur de suivi"));
    assert_eq!(created["ok"], json!(true));
    let token = str_of(&created, "token").to_owned();
    let id = str_of(&created, "id").to_owned();
    assert!(
        token.starts_with("svc_agent_") && token.len() == 42,
        "{token}"
    );
    assert_eq!(
        created["fingerprintPrefix"],
        json!(&fingerprint(&token)[..8])
    );

    // Only its fingerprint is stored.
    assert_eq!(stored_fingerprint(&w.server, &id), fingerprint(&token));
    assert_not_stored(&w.server, &token);

    // It opens the REST API v2, and its last use shows in the list.
    let (status, me) = w.server.get_with("/api/v2/me", Some(&token), None).await;
    assert_eq!(status, 200, "{me}");
    let mut listed = Value::Null;
    for _ in 0..50 {
        let (_, body) = admin.get("/keys/tokens").await;
        listed = find(&results(&body), &id).cloned().expect("listed");
        if !listed["lastUsedAt"].is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed["lastUsedAt"].is_string(), "{listed}");
    assert_eq!(listed["name"], json!("Tableur de suivi"));
    let (_, body) = admin.get("/keys/tokens").await;
    assert_eq!(body["total"], json!(2));
    assert!(
        !body.to_string().contains(&token),
        "the list shows the secret"
    );
    assert_eq!(results(&body)[0]["id"], json!(id), "newest first: {body}");
    // Paged.
    let (_, body) = admin.get("/keys/tokens?limit=1&page=2").await;
    assert_eq!(body["total"], json!(2));
    assert_eq!(results(&body).len(), 1);
    assert_eq!(results(&body)[0]["name"], json!("tests"));
    let (status, body) = admin.get("/keys/tokens?limit=500").await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le paramètre « limit » doit être compris entre 1 et 200." })
        )
    );

    // A member sees only its own tokens and cannot revoke anyone else's.
    let member = StaffClient::sign_in(&w.server, "membre@durand.fr", PASSWORD).await;
    let (status, body) = member.get("/keys/tokens").await;
    assert_eq!(status, 200);
    assert_eq!(body["total"], json!(0));
    let (status, body) = member
        .post(&format!("/keys/tokens/{id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (404, json!({ "error": TOKEN_NOT_FOUND })));
    let (status, _) = w.server.get_with("/api/v2/me", Some(&token), None).await;
    assert_eq!(
        status, 200,
        "another account's refusal left the token alive"
    );
    // A member creates tokens for itself.
    let (status, own) = member
        .post("/keys/tokens", json!({ "name": "Assistant" }))
        .await;
    assert_eq!(status, 201, "{own}");
    let (_, me) = w
        .server
        .get_with("/api/v2/me", Some(str_of(&own, "token")), None)
        .await;
    assert_eq!(me["email"], json!("membre@durand.fr"), "{me}");

    // Without the CSRF header: refused, nothing revoked.
    let response = admin
        .http
        .post(w.server.url(&format!("/app/api/keys/tokens/{id}/revoke")))
        .json(&json!({}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let body: Value = response.json().await.expect("json");
    assert_eq!(body, json!({ "error": CSRF_REFUSED }));
    let response = admin
        .http
        .post(w.server.url("/app/api/keys/tokens"))
        .json(&json!({ "name": "Sans CSRF" }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let (_, body) = admin.get("/keys/tokens").await;
    assert_eq!(body["total"], json!(2));

    // An API token does not open the web application's API.
    let response = w
        .server
        .client
        .get(w.server.url("/app/api/keys/tokens"))
        .header("Authorization", format!("Bearer {token}"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);

    // Revoked: 401 on the REST API at once, gone from the list.
    let (status, body) = admin
        .post(&format!("/keys/tokens/{id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (200, json!({ "id": id, "ok": true })));
    let (status, body) = w.server.get_with("/api/v2/me", Some(&token), None).await;
    assert_eq!(status, 401, "{body}");
    let (_, body) = admin.get("/keys/tokens").await;
    assert_eq!(body["total"], json!(1));
    assert!(find(&results(&body), &id).is_none());
    let (status, body) = admin
        .post(&format!("/keys/tokens/{id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (409, json!({ "error": "Ce jeton est déjà révoqué." }))
    );
    let (status, body) = admin.post("/keys/tokens/inconnu/revoke", json!({})).await;
    assert_eq!((status, body), (404, json!({ "error": TOKEN_NOT_FOUND })));

    // Another organization's admin: 404 too.
    let other = StaffClient::sign_in(&w.server, "admin@autre.fr", PASSWORD).await;
    let (status, body) = other
        .post(
            &format!("/keys/tokens/{}/revoke", str_of(&own, "id")),
            json!({}),
        )
        .await;
    assert_eq!((status, body), (404, json!({ "error": TOKEN_NOT_FOUND })));
    let _ = &w.other;

    // Signed out: 401.
    let response = w
        .server
        .client
        .get(w.server.url("/app/api/keys/tokens"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
}

#[tokio::test]
async fn call_center_keys_are_an_administrators_to_create_and_revoke_in_the_agency() {
    let w = world().await;
    let admin = StaffClient::sign_in(&w.server, "admin@durand.fr", PASSWORD).await;
    let member = StaffClient::sign_in(&w.server, "membre@durand.fr", PASSWORD).await;

    let (status, body) = admin.get("/keys/call-center-keys").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({ "total": 0, "page": 1, "limit": 50, "results": [] })
    );

    let (status, body) = admin
        .post("/keys/call-center-keys", json!({ "name": "" }))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le nom du centre d'appels est obligatoire." })
        )
    );

    let (status, created) = admin
        .post("/keys/call-center-keys", json!({ "name": "Centre Nord" }))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        keys_of(&created),
        ["fingerprintPrefix", "id", "key", "name", "ok"]
    );
    let key = str_of(&created, "key").to_owned();
    let id = str_of(&created, "id").to_owned();
    assert!(
        key.starts_with("svc_") && !key.starts_with("svc_agent_") && key.len() == 36,
        "{key}"
    );
    assert_eq!(stored_fingerprint(&w.server, &id), fingerprint(&key));
    assert_not_stored(&w.server, &key);
    // The key opens the call-center API (a valid key on an unknown reference: 404).
    assert_eq!(partners_call(&w.server, &key).await, 404);

    // Listed for everyone of the agency, secret never shown.
    for staff in [&admin, &member] {
        let (status, body) = staff.get("/keys/call-center-keys").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], json!(1));
        let row = &results(&body)[0];
        assert_eq!(
            keys_of(row),
            ["createdAt", "fingerprintPrefix", "id", "lastUsedAt", "name"]
        );
        assert_eq!(row["name"], json!("Centre Nord"));
        assert_eq!(row["fingerprintPrefix"], json!(&fingerprint(&key)[..8]));
        assert!(!body.to_string().contains(&key));
    }

    // A member can neither create nor revoke.
    let (status, body) = member
        .post("/keys/call-center-keys", json!({ "name": "Centre Membre" }))
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Créer une clé de centre d'appels est réservé à un administrateur de l'agence." })
        )
    );
    let (status, body) = member
        .post(&format!("/keys/call-center-keys/{id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Révoquer une clé de centre d'appels est réservé à un administrateur de l'agence." })
        )
    );
    let (_, body) = admin.get("/keys/call-center-keys").await;
    assert_eq!(body["total"], json!(1), "the member created nothing");

    // Another agency (of the same organization, or another organization): 404.
    let other = StaffClient::sign_in(&w.server, "admin@autre.fr", PASSWORD).await;
    let (status, body) = other
        .post(&format!("/keys/call-center-keys/{id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (404, json!({ "error": KEY_NOT_FOUND })));
    let (_, body) = other.get("/keys/call-center-keys").await;
    assert_eq!(body["total"], json!(0));
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": w.second_agency }))
        .await;
    assert_eq!(status, 200);
    let (_, body) = admin.get("/keys/call-center-keys").await;
    assert_eq!(body["total"], json!(0));
    let (status, body) = admin
        .post(&format!("/keys/call-center-keys/{id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (404, json!({ "error": KEY_NOT_FOUND })));
    assert_eq!(partners_call(&w.server, &key).await, 404, "still alive");
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": w.org.agency_id }))
        .await;
    assert_eq!(status, 200);

    // No CSRF: refused.
    let response = admin
        .http
        .post(
            w.server
                .url(&format!("/app/api/keys/call-center-keys/{id}/revoke")),
        )
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    assert_eq!(partners_call(&w.server, &key).await, 404);

    // Revoked: 401 on the call-center API.
    let (status, body) = admin
        .post(&format!("/keys/call-center-keys/{id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (200, json!({ "id": id, "ok": true })));
    assert_eq!(partners_call(&w.server, &key).await, 401);
    let (_, body) = admin.get("/keys/call-center-keys").await;
    assert_eq!(body["total"], json!(0));
    let (status, body) = admin
        .post(&format!("/keys/call-center-keys/{id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (409, json!({ "error": "Cette clé est déjà révoquée." }))
    );
    // A token id is not a call-center key.
    let (_, tokens) = admin.get("/keys/tokens").await;
    let token_id = results(&tokens)[0]["id"].as_str().expect("id").to_owned();
    let (status, body) = admin
        .post(
            &format!("/keys/call-center-keys/{token_id}/revoke"),
            json!({}),
        )
        .await;
    assert_eq!((status, body), (404, json!({ "error": KEY_NOT_FOUND })));
}

#[tokio::test]
async fn a_partner_key_of_several_agencies_is_withdrawn_agency_by_agency() {
    let w = world().await;
    let shared = w.server.cli_json(&[
        "partner-key",
        "create",
        "--name",
        "Logiciel commun",
        "--agency",
        &w.org.agency_id,
        "--agency",
        &w.second_agency,
    ]);
    let shared_key = str_of(&shared, "key").to_owned();
    let shared_id = str_of(&shared, "id").to_owned();
    let admin = StaffClient::sign_in(&w.server, "admin@durand.fr", PASSWORD).await;
    let member = StaffClient::sign_in(&w.server, "membre@durand.fr", PASSWORD).await;

    // Created from the screen: attributed to the session's agency only.
    let (status, created) = admin
        .post("/keys/partner-keys", json!({ "name": "Partenaire local" }))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        keys_of(&created),
        ["fingerprintPrefix", "id", "key", "name", "ok"]
    );
    let local_key = str_of(&created, "key").to_owned();
    let local_id = str_of(&created, "id").to_owned();
    assert!(local_key.starts_with("svc_partner_"), "{local_key}");
    assert_eq!(
        stored_fingerprint(&w.server, &local_id),
        fingerprint(&local_key)
    );
    assert_not_stored(&w.server, &local_key);
    assert_eq!(
        workflow_call(&w.server, &local_key, &w.org.agency_id).await,
        200
    );
    assert_eq!(
        workflow_call(&w.server, &local_key, &w.second_agency).await,
        403
    );

    let (status, body) = member.get("/keys/partner-keys").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["total"], json!(2));
    assert!(!body.to_string().contains(&local_key));
    let rows = results(&body);
    let local = find(&rows, &local_id).expect("local key listed");
    assert_eq!(
        keys_of(local),
        [
            "createdAt",
            "fingerprintPrefix",
            "id",
            "lastUsedAt",
            "name",
            "otherAgencies"
        ]
    );
    assert_eq!(local["otherAgencies"], json!(0));
    let listed_shared = find(&rows, &shared_id).expect("shared key listed");
    assert_eq!(listed_shared["name"], json!("Logiciel commun"));
    assert_eq!(listed_shared["otherAgencies"], json!(1));
    assert_eq!(
        listed_shared["fingerprintPrefix"],
        json!(&fingerprint(&shared_key)[..8])
    );

    // Members: refused.
    let (status, body) = member
        .post(
            "/keys/partner-keys",
            json!({ "name": "Partenaire du membre" }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Créer une clé partenaire est réservé à un administrateur de l'agence." })
        )
    );
    let (status, body) = member
        .post(&format!("/keys/partner-keys/{shared_id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Révoquer une clé partenaire est réservé à un administrateur de l'agence." })
        )
    );
    // Another organization: 404, key untouched.
    let other = StaffClient::sign_in(&w.server, "admin@autre.fr", PASSWORD).await;
    let (status, body) = other
        .post(&format!("/keys/partner-keys/{shared_id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (404, json!({ "error": KEY_NOT_FOUND })));
    let (status, body) = other
        .post("/keys/partner-keys", json!({ "name": "" }))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le nom du partenaire est obligatoire." })
        )
    );

    // Revoked in the first agency: withdrawn there only.
    let (status, body) = admin
        .post(&format!("/keys/partner-keys/{shared_id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            200,
            json!({ "id": shared_id, "ok": true, "revoked": false, "remainingAgencies": 1 })
        )
    );
    assert_eq!(
        workflow_call(&w.server, &shared_key, &w.org.agency_id).await,
        403
    );
    assert_eq!(
        workflow_call(&w.server, &shared_key, &w.second_agency).await,
        200
    );
    let (_, body) = admin.get("/keys/partner-keys").await;
    assert!(find(&results(&body), &shared_id).is_none(), "{body}");
    let (status, body) = admin
        .post(&format!("/keys/partner-keys/{shared_id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (404, json!({ "error": KEY_NOT_FOUND })));

    // In the second agency it is still listed, now serving no other agency;
    // revoked there, the key itself is revoked.
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": w.second_agency }))
        .await;
    assert_eq!(status, 200);
    let (_, body) = admin.get("/keys/partner-keys").await;
    assert_eq!(body["total"], json!(1));
    assert_eq!(results(&body)[0]["otherAgencies"], json!(0));
    let (status, body) = admin
        .post(&format!("/keys/partner-keys/{local_id}/revoke"), json!({}))
        .await;
    assert_eq!((status, body), (404, json!({ "error": KEY_NOT_FOUND })));
    let (status, body) = admin
        .post(&format!("/keys/partner-keys/{shared_id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            200,
            json!({ "id": shared_id, "ok": true, "revoked": true, "remainingAgencies": 0 })
        )
    );
    assert_eq!(
        workflow_call(&w.server, &shared_key, &w.second_agency).await,
        401
    );
    let revoked_at: Option<String> = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT revoked_at FROM credentials WHERE id = ?1",
            [&shared_id],
            |r| r.get(0),
        )
        .expect("row");
    assert!(revoked_at.is_some());
}
