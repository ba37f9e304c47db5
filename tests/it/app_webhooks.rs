//! The webhooks screen's API (`/app/api/webhooks…`): the REST API v2's
//! operations with the staff session as the caller. Writes are an
//! administrator's; reads are open to the agency's accounts; another
//! agency's subscription answers 404; a real local receiver gets the test.

use crate::common;

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::HeaderMap;
use common::app::StaffClient;
use common::*;
use hmac::{Hmac, Mac};
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::webhooks::{Probe, RetrySchedule, WebhookSettings};
use serde_json::{Value, json};
use sha2::Sha256;

const PASSWORD: &str = "motdepasse-solide";
const NOT_FOUND: &str = "Abonnement webhook introuvable.";

type Hits = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A receiver answering 200 and keeping each signature and body.
async fn receiver() -> (String, Hits, tokio::task::JoinHandle<()>) {
    let hits: Hits = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}/hook", listener.local_addr().expect("addr"));
    async fn receive(
        State(hits): State<Hits>,
        headers: HeaderMap,
        body: axum::body::Bytes,
    ) -> &'static str {
        let signature = headers
            .get("x-service-signature")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        hits.lock().expect("hits").push((signature, body.to_vec()));
        "reçu"
    }
    let app = axum::Router::new()
        .route("/hook", axum::routing::post(receive))
        .with_state(hits.clone());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, hits, task)
}

fn signed_with(secret: &str, header: &str, body: &[u8]) -> bool {
    let Some((t, v1)) = header
        .split_once(',')
        .and_then(|(t, v)| Some((t.strip_prefix("t=")?, v.strip_prefix("v1=")?)))
    else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("key");
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    expected == v1
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

#[tokio::test]
async fn the_webhooks_screen_runs_the_rest_operations_for_administrators() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let second = cli_json(
        dir.path(),
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Durand Sud",
        ],
    );
    let second_agency = str_of(&second, "id").to_owned();
    cli_json(
        dir.path(),
        &[
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
        ],
    );
    init_org(dir.path(), "Autre", "admin@autre.fr");
    let server = TestServer::start_adjusted(dir, RateLimit::default(), |state| {
        state.with_webhook_settings(WebhookSettings {
            insecure_loopback: true,
            retry_schedule: RetrySchedule::parse("1s,2s").expect("schedule"),
            probe: Probe::Off,
            ..WebhookSettings::default()
        })
    })
    .await;
    let (url, hits, _receiver) = receiver().await;

    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let member = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "admin@autre.fr", PASSWORD).await;

    let (status, body) = admin.get("/webhooks").await;
    assert_eq!((status, body), (200, json!([])));

    // The service's French refusals.
    let (status, body) = admin
        .post(
            "/webhooks",
            json!({ "url": "http://hooks.example.org/x", "events": ["appel.clos"] }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "L'adresse doit commencer par https:// : les événements ne sont envoyés qu'en HTTPS." })
        )
    );
    let (status, body) = admin
        .post(
            "/webhooks",
            json!({ "url": "https://hooks.example.org/x", "events": [] }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le champ « events » doit contenir au moins un événement parmi : appel.clos, releve.termine, devis.accepte." })
        )
    );

    // A member may not subscribe.
    let (status, body) = member
        .post("/webhooks", json!({ "url": url, "events": ["appel.clos"] }))
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Créer un abonnement webhook est réservé à un administrateur de l'agence." })
        )
    );

    // No CSRF header: refused.
    let response = admin
        .http
        .post(server.url("/app/api/webhooks"))
        .json(&json!({ "url": url, "events": ["appel.clos"] }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let (_, body) = admin.get("/webhooks").await;
    assert_eq!(body, json!([]));

    // Created: the secret once.
    let (status, created) = admin
        .post(
            "/webhooks",
            json!({ "url": url, "events": ["devis.accepte", "appel.clos"] }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(keys_of(&created), ["id", "ok", "secret"]);
    let id = str_of(&created, "id").to_owned();
    let secret = str_of(&created, "secret").to_owned();
    assert!(secret.starts_with("whsec_"), "{secret}");
    let db = db_path(server.data_dir.path());
    for path in [db.clone(), db.with_extension("db-wal")] {
        if let Ok(bytes) = std::fs::read(&path) {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "secret in clear in {}",
                path.display()
            );
        }
    }

    // Listed, without the secret, the same as on the REST API v2.
    let (status, list) = admin.get("/webhooks").await;
    assert_eq!(status, 200);
    let rows = list.as_array().expect("array");
    assert_eq!(rows.len(), 1);
    assert_eq!(keys_of(&rows[0]), ["createdAt", "events", "id", "url"]);
    assert_eq!(rows[0]["events"], json!(["appel.clos", "devis.accepte"]));
    assert!(!list.to_string().contains(&secret));
    let (status, rest) = server
        .get_with("/api/v2/webhooks", Some(&org.admin_token), None)
        .await;
    assert_eq!((status, &rest), (200, &list));
    // Members read, as on the REST API.
    let (status, body) = member.get("/webhooks").await;
    assert_eq!((status, body), (200, list.clone()));

    // A member may neither test nor revoke.
    let (status, body) = member
        .post(&format!("/webhooks/{id}/test"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Envoyer un test est réservé à un administrateur de l'agence." })
        )
    );
    let (status, body) = member
        .post(&format!("/webhooks/{id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Révoquer un abonnement webhook est réservé à un administrateur de l'agence." })
        )
    );
    assert!(hits.lock().expect("hits").is_empty());

    // The test is delivered at once, signed with the secret shown.
    let (status, sent) = admin.post(&format!("/webhooks/{id}/test"), json!({})).await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(keys_of(&sent), ["delivery", "ok"]);
    assert_eq!(sent["delivery"]["event"], json!("ping"));
    assert_eq!(sent["delivery"]["status"], json!("livree"));
    assert_eq!(sent["delivery"]["attempts"], json!(1));
    assert_eq!(sent["delivery"]["lastHttpStatus"], json!(200));
    {
        let hits = hits.lock().expect("hits");
        assert_eq!(hits.len(), 1);
        assert!(signed_with(&secret, &hits[0].0, &hits[0].1));
    }

    // Deliveries, paged, newest first.
    let (status, page) = admin.get(&format!("/webhooks/{id}/deliveries")).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(keys_of(&page), ["limit", "page", "results", "total"]);
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["id"], sent["delivery"]["id"]);
    assert_eq!(page["results"][0]["status"], json!("livree"));
    let (status, body) = admin
        .get(&format!("/webhooks/{id}/deliveries?limit=0"))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le paramètre « limit » doit être compris entre 1 et 200." })
        )
    );
    let (status, body) = member.get(&format!("/webhooks/{id}/deliveries")).await;
    assert_eq!((status, body["total"].clone()), (200, json!(1)));

    // The events the screen offers: the server's one list, codes and labels.
    for client in [&admin, &member] {
        let (status, events) = client.get("/webhooks/events").await;
        assert_eq!(
            (status, events),
            (
                200,
                json!([
                    { "code": "appel.clos", "label": "Appel de panne résolu" },
                    { "code": "releve.termine", "label": "Relevé soumis par le technicien" },
                    { "code": "devis.accepte", "label": "Devis accepté" },
                ])
            )
        );
    }

    // The sync state.
    let (status, state) = admin.get("/webhooks/status").await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        keys_of(&state),
        ["checkedAt", "nextAttemptAt", "online", "pending"]
    );
    assert_eq!(state["pending"], json!(0));

    // Another organization, another agency: 404.
    for path in [
        format!("/webhooks/{id}/test"),
        format!("/webhooks/{id}/revoke"),
    ] {
        let (status, body) = other.post(&path, json!({})).await;
        assert_eq!(
            (status, body),
            (404, json!({ "error": NOT_FOUND })),
            "{path}"
        );
    }
    let (status, body) = other.get(&format!("/webhooks/{id}/deliveries")).await;
    assert_eq!((status, body), (404, json!({ "error": NOT_FOUND })));
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": second_agency }))
        .await;
    assert_eq!(status, 200);
    let (_, body) = admin.get("/webhooks").await;
    assert_eq!(body, json!([]));
    let (status, body) = admin.post(&format!("/webhooks/{id}/test"), json!({})).await;
    assert_eq!((status, body), (404, json!({ "error": NOT_FOUND })));
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": org.agency_id }))
        .await;
    assert_eq!(status, 200);

    // Revoked: gone from the list; its deliveries stay readable.
    let (status, body) = admin
        .post(&format!("/webhooks/{id}/revoke"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (200, json!({ "id": id, "ok": true, "abandoned": 0 }))
    );
    let (_, body) = admin.get("/webhooks").await;
    assert_eq!(body, json!([]));
    let (status, body) = admin.post(&format!("/webhooks/{id}/test"), json!({})).await;
    assert_eq!((status, body), (404, json!({ "error": NOT_FOUND })));
    let (status, body) = admin.get(&format!("/webhooks/{id}/deliveries")).await;
    assert_eq!((status, body["total"].clone()), (200, json!(1)));

    // Signed out: 401.
    let response = server
        .client
        .get(server.url("/app/api/webhooks"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
}
