//! Webhooks end to end, in-process: the subscription operations, and real
//! deliveries to a real local receiver (an axum server in the test) that
//! checks every signature, with a compressed retry schedule.

use crate::common;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use chrono::Utc;
use common::world::World;
use common::*;
use hmac::{Hmac, Mac};
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::clock;
use liftdesk::webhooks::{Probe, RetrySchedule, WebhookSettings};
use serde_json::{Value, json};
use sha2::Sha256;

// ---------------------------------------------------------------- receiver

/// What the receiver answers to one request.
#[derive(Clone, Copy, Debug)]
struct Reply {
    status: u16,
    after: Duration,
}

fn reply(status: u16) -> Reply {
    Reply {
        status,
        after: Duration::ZERO,
    }
}

/// One request as the receiver saw it.
#[derive(Clone, Debug)]
struct Hit {
    delivery: String,
    signature: String,
    content_type: String,
    body: Vec<u8>,
    at: Instant,
    /// Whether the signature verified with the secret, fresh (≤ 5 min).
    verified: bool,
}

#[derive(Default)]
struct ReceiverState {
    hits: Mutex<Vec<Hit>>,
    /// Replies in order; once empty, `otherwise`.
    script: Mutex<VecDeque<Reply>>,
    otherwise: Mutex<Option<Reply>>,
    secret: Mutex<String>,
}

struct Receiver {
    url: String,
    state: Arc<ReceiverState>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn receive(
    State(state): State<Arc<ReceiverState>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> impl IntoResponse {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let signature = header("x-service-signature");
    let secret = state.secret.lock().expect("secret").clone();
    let verified = verify_signature(&secret, &signature, &body, Utc::now().timestamp());
    state.hits.lock().expect("hits").push(Hit {
        delivery: header("x-service-livraison"),
        signature,
        content_type: header("content-type"),
        body: body.to_vec(),
        at: Instant::now(),
        verified,
    });
    let reply = state
        .script
        .lock()
        .expect("script")
        .pop_front()
        .or(*state.otherwise.lock().expect("otherwise"))
        .unwrap_or(reply(200));
    tokio::time::sleep(reply.after).await;
    let status = StatusCode::from_u16(reply.status).expect("status");
    let mut response = (status, "reçu").into_response();
    if status.is_redirection() {
        response
            .headers_mut()
            .insert("location", "/elsewhere".parse().expect("location header"));
    }
    response
}

impl Receiver {
    async fn start() -> Receiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind receiver");
        let url = format!("http://{}/hook", listener.local_addr().expect("addr"));
        let state = Arc::new(ReceiverState::default());
        let app = axum::Router::new()
            .route("/hook", axum::routing::post(receive))
            .route("/elsewhere", axum::routing::post(receive))
            .with_state(state.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Receiver { url, state, task }
    }

    fn set_secret(&self, secret: &str) {
        *self.state.secret.lock().expect("secret") = secret.to_owned();
    }

    fn script(&self, replies: &[Reply]) {
        self.state
            .script
            .lock()
            .expect("script")
            .extend(replies.iter().copied());
    }

    fn always(&self, reply: Reply) {
        *self.state.otherwise.lock().expect("otherwise") = Some(reply);
    }

    fn hits(&self) -> Vec<Hit> {
        self.state.hits.lock().expect("hits").clone()
    }
}

/// The receiver's side of the scheme: `t=<s>,v1=<64 lowercase hex>` exactly,
/// HMAC-SHA256 of `"<t>.<body>"`, `t` not older than five minutes.
fn verify_signature(secret: &str, header: &str, body: &[u8], now: i64) -> bool {
    let Some((t_part, v_part)) = header.split_once(',') else {
        return false;
    };
    let (Some(t), Some(v1)) = (t_part.strip_prefix("t="), v_part.strip_prefix("v1=")) else {
        return false;
    };
    let Ok(timestamp) = t.parse::<i64>() else {
        return false;
    };
    if now - timestamp > 300 || timestamp - now > 300 {
        return false;
    }
    if v1.len() != 64 || !v1.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return false;
    }
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("hmac key");
    mac.update(format!("{timestamp}.").as_bytes());
    mac.update(body);
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    expected == v1
}

// ------------------------------------------------------------------ server

fn settings(schedule: &str, probe: Probe) -> WebhookSettings {
    WebhookSettings {
        insecure_loopback: true,
        retry_schedule: RetrySchedule::parse(schedule).expect("schedule"),
        probe,
        ..WebhookSettings::default()
    }
}

async fn server_with(settings: WebhookSettings) -> (TestServer, Org) {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let server = TestServer::start_adjusted(dir, RateLimit::default(), move |state| {
        state.with_webhook_settings(settings)
    })
    .await;
    (server, org)
}

async fn post(server: &TestServer, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = server
        .client
        .post(server.url(path))
        .header("Authorization", format!("Bearer {token}"));
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(server: &TestServer, path: &str, token: &str) -> (u16, Value) {
    server.get_with(path, Some(token), None).await
}

/// Subscribes `url` to every event; returns (id, secret).
async fn subscribe(server: &TestServer, token: &str, url: &str) -> (String, String) {
    let (status, body) = post(
        server,
        "/api/v2/webhooks",
        token,
        Some(json!({ "url": url, "events": ["appel.clos", "releve.termine", "devis.accepte"] })),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    (
        str_of(&body, "id").to_owned(),
        str_of(&body, "secret").to_owned(),
    )
}

async fn deliveries(server: &TestServer, token: &str, subscription: &str) -> Vec<Value> {
    let (status, body) = get(
        server,
        &format!("/api/v2/webhooks/{subscription}/deliveries"),
        token,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["results"].as_array().expect("results").clone()
}

/// Waits (at most `limit`) until `done` holds for the subscription's deliveries.
async fn wait_for(
    server: &TestServer,
    token: &str,
    subscription: &str,
    limit: Duration,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let list = deliveries(server, token, subscription).await;
        if done(&list) {
            return list;
        }
        assert!(
            started.elapsed() < limit,
            "still waiting after {limit:?}: {list:#?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
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

fn is_utc_millis(text: &str) -> bool {
    // 2026-11-21T07:23:00.000Z
    text.len() == 24
        && text.ends_with('Z')
        && text.as_bytes()[10] == b'T'
        && text.as_bytes()[19] == b'.'
        && chrono::DateTime::parse_from_rfc3339(text).is_ok()
}

// ------------------------------------------------------------------- tests

#[tokio::test]
async fn subscribing_is_an_administrators_with_https_and_known_events() {
    // A server with the default settings: no http:// receiver at all.
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let server = TestServer::start_in(dir).await;
    let token = &org.admin_token;

    let refused = [
        (
            json!({ "url": "http://hooks.example.org/x", "events": ["appel.clos"] }),
            "https://",
        ),
        (
            json!({ "url": "http://127.0.0.1:9/x", "events": ["appel.clos"] }),
            "--insecure-webhooks",
        ),
        (
            json!({ "url": "hooks.example.org/x", "events": ["appel.clos"] }),
            "absolue",
        ),
        (
            json!({ "url": "", "events": ["appel.clos"] }),
            "obligatoire",
        ),
        (
            json!({ "url": "https://hooks.example.org/x", "events": [] }),
            "au moins un",
        ),
        (
            json!({ "url": "https://hooks.example.org/x", "events": ["ping"] }),
            "inconnu",
        ),
        (
            json!({ "url": "https://hooks.example.org/x", "events": ["appel.clos", "facture.payee"] }),
            "facture.payee",
        ),
        (json!({ "url": "https://hooks.example.org/x" }), "events"),
        (json!({ "events": ["appel.clos"] }), "url"),
        (
            json!({ "url": "https://hooks.example.org/x", "events": "appel.clos" }),
            "events",
        ),
    ];
    for (body, reason) in refused {
        let (status, answer) = post(&server, "/api/v2/webhooks", token, Some(body.clone())).await;
        assert_eq!(status, 422, "{body} → {answer}");
        let error = str_of(&answer, "error");
        assert!(
            error.contains(reason),
            "{body}: « {error} » should mention {reason}"
        );
    }
    let response = server
        .client
        .post(server.url("/api/v2/webhooks"))
        .header("Authorization", format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .body("{\"url\": ")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 400);

    // A member sees subscriptions but may not create one.
    cli_json(
        server.data_dir.path(),
        &[
            "user",
            "create",
            "--email",
            "membre@durand.fr",
            "--name",
            "Membre",
            "--password",
            "motdepasse-solide",
            "--agency",
            &org.agency_id,
        ],
    );
    let member = str_of(
        &cli_json(
            server.data_dir.path(),
            &[
                "token",
                "create",
                "--email",
                "membre@durand.fr",
                "--name",
                "outil",
            ],
        ),
        "token",
    )
    .to_owned();
    let (status, answer) = post(
        &server,
        "/api/v2/webhooks",
        &member,
        Some(json!({ "url": "https://hooks.example.org/x", "events": ["appel.clos"] })),
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(
        str_of(&answer, "error"),
        "Créer un abonnement webhook est réservé à un administrateur de l'agence."
    );

    // Created: id, secret (shown once), ok.
    let (status, created) = post(
        &server,
        "/api/v2/webhooks",
        token,
        Some(json!({ "url": "https://hooks.example.org/liftdesk", "events": ["devis.accepte", "appel.clos", "appel.clos"] })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(keys_of(&created), ["id", "ok", "secret"]);
    assert_eq!(created["ok"], json!(true));
    let secret = str_of(&created, "secret");
    assert!(
        secret.starts_with("whsec_") && secret.len() == 38,
        "{secret}"
    );
    assert!(secret[6..].bytes().all(|b| b.is_ascii_alphanumeric()));
    let id = str_of(&created, "id");

    // Listed (to members too), never with its secret.
    let (status, list) = get(&server, "/api/v2/webhooks", &member).await;
    assert_eq!(status, 200);
    assert_eq!(
        list,
        json!([{
            "id": id,
            "url": "https://hooks.example.org/liftdesk",
            "events": ["appel.clos", "devis.accepte"],
            "createdAt": list[0]["createdAt"],
        }])
    );
    assert!(is_utc_millis(str_of(&list[0], "createdAt")));

    // The secret is nowhere in the database files, in clear.
    drop(open_db(server.data_dir.path()));
    for file in ["liftdesk.db", "liftdesk.db-wal"] {
        if let Ok(bytes) = std::fs::read(server.data_dir.path().join(file)) {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "secret in clear in {file}"
            );
        }
    }
    // …and its key is the data directory's own, private file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta =
            std::fs::metadata(server.data_dir.path().join("webhook-secret.key")).expect("key file");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(meta.len(), 32);
    }

    // A member may not test nor revoke; reading deliveries is allowed.
    for action in ["test", "revoke"] {
        let (status, _) = post(
            &server,
            &format!("/api/v2/webhooks/{id}/{action}"),
            &member,
            None,
        )
        .await;
        assert_eq!(status, 403, "{action}");
    }
    let (status, page) = get(
        &server,
        &format!("/api/v2/webhooks/{id}/deliveries"),
        &member,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        page,
        json!({ "total": 0, "page": 1, "limit": 50, "results": [] })
    );
    let (status, _) = get(
        &server,
        &format!("/api/v2/webhooks/{id}/deliveries?limit=500"),
        token,
    )
    .await;
    assert_eq!(status, 422);
    let (status, _) = get(
        &server,
        &format!("/api/v2/webhooks/{id}/deliveries?page=x"),
        token,
    )
    .await;
    assert_eq!(status, 400);

    // Another organization's administrator: 404 everywhere, nothing changed.
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    for action in ["test", "revoke"] {
        let (status, answer) = post(
            &server,
            &format!("/api/v2/webhooks/{id}/{action}"),
            &other.admin_token,
            None,
        )
        .await;
        assert_eq!(status, 404, "{action}");
        assert_eq!(str_of(&answer, "error"), "Abonnement webhook introuvable.");
    }
    let (status, _) = get(
        &server,
        &format!("/api/v2/webhooks/{id}/deliveries"),
        &other.admin_token,
    )
    .await;
    assert_eq!(status, 404);
    let (_, other_list) = get(&server, "/api/v2/webhooks", &other.admin_token).await;
    assert_eq!(other_list, json!([]));
    let (status, _) = post(&server, "/api/v2/webhooks/inconnu/revoke", token, None).await;
    assert_eq!(status, 404);

    // Revoked: gone from the list, revoke and test answer 404, history stays.
    let (status, revoked) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/revoke"),
        token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(revoked, json!({ "id": id, "ok": true, "abandoned": 0 }));
    let (_, list) = get(&server, "/api/v2/webhooks", token).await;
    assert_eq!(list, json!([]));
    for action in ["test", "revoke"] {
        let (status, _) = post(
            &server,
            &format!("/api/v2/webhooks/{id}/{action}"),
            token,
            None,
        )
        .await;
        assert_eq!(status, 404, "{action} after revoke");
    }
    let (status, _) = get(&server, &format!("/api/v2/webhooks/{id}/deliveries"), token).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn a_ping_is_signed_and_sent_at_once() {
    let (server, org) = server_with(settings("1h", Probe::Off)).await;
    let receiver = Receiver::start().await;
    let (id, secret) = subscribe(&server, &org.admin_token, &receiver.url).await;
    receiver.set_secret(&secret);

    let (status, answer) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/test"),
        &org.admin_token,
        None,
    )
    .await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(keys_of(&answer), ["delivery", "ok"]);
    let delivery = &answer["delivery"];
    assert_eq!(
        keys_of(delivery),
        [
            "attempts",
            "createdAt",
            "deliveredAt",
            "event",
            "id",
            "lastError",
            "lastHttpStatus",
            "nextAttemptAt",
            "objectId",
            "occurredAt",
            "status",
            "updatedAt",
        ]
    );
    assert_eq!(delivery["status"], json!("livree"));
    assert_eq!(delivery["event"], json!("ping"));
    assert_eq!(delivery["objectId"], json!(id));
    assert_eq!(delivery["attempts"], json!(1));
    assert_eq!(delivery["lastHttpStatus"], json!(200));
    assert_eq!(delivery["lastError"], Value::Null);
    assert_eq!(delivery["nextAttemptAt"], Value::Null);
    assert!(is_utc_millis(str_of(delivery, "deliveredAt")));

    let hits = receiver.hits();
    assert_eq!(hits.len(), 1, "sent once, at once");
    let hit = &hits[0];
    assert!(hit.verified, "signature {}", hit.signature);
    assert_eq!(hit.content_type, "application/json");
    assert_eq!(hit.delivery, str_of(delivery, "id"));
    let body = std::str::from_utf8(&hit.body).expect("utf-8");
    let occurred = str_of(delivery, "occurredAt");
    assert!(is_utc_millis(occurred), "{occurred}");
    assert_eq!(
        body,
        format!(
            r#"{{"event":"ping","id":"{id}","agency":"{}","equipment":null,"status":"actif","occurredAt":"{occurred}"}}"#,
            org.agency_id
        )
    );
    // A wrong secret or a changed body does not verify: the check can fail.
    let now = Utc::now().timestamp();
    assert!(!verify_signature(
        "whsec_autre",
        &hit.signature,
        &hit.body,
        now
    ));
    let mut tampered = hit.body.clone();
    tampered[2] ^= 1;
    assert!(!verify_signature(&secret, &hit.signature, &tampered, now));

    let (status, sync) = get(&server, "/api/v2/webhooks/status", &org.admin_token).await;
    assert_eq!(status, 200);
    assert_eq!(
        keys_of(&sync),
        ["checkedAt", "nextAttemptAt", "online", "pending"]
    );
    assert_eq!(sync["online"], json!(true));
    assert_eq!(sync["pending"], json!(0));
    assert_eq!(sync["nextAttemptAt"], Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn retries_follow_the_schedule_with_the_same_id_and_bytes_then_give_up() {
    let (server, org) = server_with(settings("1s,2s,3s", Probe::Off)).await;
    let receiver = Receiver::start().await;
    receiver.always(reply(500));
    let (id, secret) = subscribe(&server, &org.admin_token, &receiver.url).await;
    receiver.set_secret(&secret);

    let (status, answer) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/test"),
        &org.admin_token,
        None,
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(answer["delivery"]["status"], json!("echec"));
    assert_eq!(answer["delivery"]["attempts"], json!(1));
    assert_eq!(answer["delivery"]["lastHttpStatus"], json!(500));
    assert_eq!(
        answer["delivery"]["lastError"],
        json!("Le destinataire a répondu HTTP 500.")
    );
    let next = str_of(&answer["delivery"], "nextAttemptAt");
    let updated = str_of(&answer["delivery"], "updatedAt");
    let gap = clock::parse_timestamp(next).expect("next")
        - clock::parse_timestamp(updated).expect("updated");
    assert_eq!(
        gap.num_milliseconds(),
        1000,
        "first retry one schedule step later"
    );

    let list = wait_for(
        &server,
        &org.admin_token,
        &id,
        Duration::from_secs(30),
        |list| list[0]["status"] == json!("abandonnee"),
    )
    .await;
    let delivery = &list[0];
    assert_eq!(
        delivery["attempts"],
        json!(4),
        "the first send and three retries"
    );
    assert_eq!(delivery["nextAttemptAt"], Value::Null);
    assert_eq!(delivery["lastHttpStatus"], json!(500));
    // Nothing more once abandoned.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let hits = receiver.hits();
    assert_eq!(hits.len(), 4);
    for hit in &hits {
        assert_eq!(hit.delivery, str_of(delivery, "id"), "same delivery id");
        assert_eq!(hit.body, hits[0].body, "same bytes on every retry");
        assert!(hit.verified, "each attempt signed and fresh");
    }
    // Each retry comes no earlier than its delay (1 s, 2 s, 3 s).
    for (i, expected) in [1000u128, 2000, 3000].into_iter().enumerate() {
        let waited = hits[i + 1].at.duration_since(hits[i].at).as_millis();
        assert!(waited >= expected, "retry {} after {waited} ms", i + 1);
        // Not seconds late either (a loose bound: the machine may be busy).
        assert!(
            waited < expected + 1900,
            "retry {} late: {waited} ms",
            i + 1
        );
    }
    // The signature is made at each attempt: its timestamp moves on.
    assert_ne!(hits[0].signature, hits[3].signature);
    server.stop().await;
}

#[tokio::test]
async fn a_2xx_after_two_failures_stops_the_retries() {
    let (server, org) = server_with(settings("1s,1s,1s,1s", Probe::Off)).await;
    let receiver = Receiver::start().await;
    receiver.script(&[reply(503), reply(404), reply(204)]);
    let (id, secret) = subscribe(&server, &org.admin_token, &receiver.url).await;
    receiver.set_secret(&secret);
    let (status, _) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/test"),
        &org.admin_token,
        None,
    )
    .await;
    assert_eq!(status, 201);
    let list = wait_for(
        &server,
        &org.admin_token,
        &id,
        Duration::from_secs(20),
        |list| list[0]["status"] == json!("livree"),
    )
    .await;
    assert_eq!(list[0]["attempts"], json!(3));
    assert_eq!(list[0]["lastHttpStatus"], json!(204));
    assert_eq!(list[0]["lastError"], Value::Null);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(receiver.hits().len(), 3, "no retry after success");
    server.stop().await;
}

#[tokio::test]
async fn redirects_are_failures_and_not_followed() {
    let (server, org) = server_with(settings("1h", Probe::Off)).await;
    let receiver = Receiver::start().await;
    receiver.script(&[reply(307)]);
    let (id, secret) = subscribe(&server, &org.admin_token, &receiver.url).await;
    receiver.set_secret(&secret);
    let (_, answer) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/test"),
        &org.admin_token,
        None,
    )
    .await;
    assert_eq!(answer["delivery"]["status"], json!("echec"));
    assert_eq!(answer["delivery"]["lastHttpStatus"], json!(307));
    assert_eq!(
        answer["delivery"]["lastError"],
        json!("Le destinataire a répondu HTTP 307 : les redirections ne sont pas suivies.")
    );
    assert_eq!(receiver.hits().len(), 1, "the redirect was not followed");
    server.stop().await;
}

#[tokio::test]
async fn an_answer_in_9_seconds_succeeds_and_in_11_seconds_fails() {
    let (server, org) = server_with(settings("1h", Probe::Off)).await;
    let patient = Receiver::start().await;
    patient.script(&[Reply {
        status: 200,
        after: Duration::from_secs(9),
    }]);
    let slow = Receiver::start().await;
    slow.script(&[Reply {
        status: 200,
        after: Duration::from_secs(11),
    }]);
    let (patient_id, _) = subscribe(&server, &org.admin_token, &patient.url).await;
    let (slow_id, _) = subscribe(&server, &org.admin_token, &slow.url).await;
    let patient_path = format!("/api/v2/webhooks/{patient_id}/test");
    let slow_path = format!("/api/v2/webhooks/{slow_id}/test");
    let (a, b) = tokio::join!(
        post(&server, &patient_path, &org.admin_token, None),
        post(&server, &slow_path, &org.admin_token, None),
    );
    assert_eq!(a.1["delivery"]["status"], json!("livree"), "{}", a.1);
    assert_eq!(a.1["delivery"]["lastHttpStatus"], json!(200));
    assert_eq!(b.1["delivery"]["status"], json!("echec"), "{}", b.1);
    assert_eq!(b.1["delivery"]["lastHttpStatus"], Value::Null);
    assert_eq!(
        b.1["delivery"]["lastError"],
        json!("Pas de réponse du destinataire en 10 secondes.")
    );
    server.stop().await;
}

#[tokio::test]
async fn offline_periods_spend_no_attempt_and_the_backlog_drains_in_order() {
    // "Online" is a TCP probe this test controls.
    let probe_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("probe");
    let probe_address = probe_listener.local_addr().expect("addr");
    drop(probe_listener);
    let (server, org) = server_with(settings("1s,1s", Probe::Tcp(probe_address.to_string()))).await;
    let receiver = Receiver::start().await;
    let (id, secret) = subscribe(&server, &org.admin_token, &receiver.url).await;
    receiver.set_secret(&secret);

    let mut queued = Vec::new();
    for _ in 0..5 {
        let (status, answer) = post(
            &server,
            &format!("/api/v2/webhooks/{id}/test"),
            &org.admin_token,
            None,
        )
        .await;
        assert_eq!(status, 201);
        assert_eq!(
            answer["delivery"]["status"],
            json!("en_attente"),
            "{answer}"
        );
        assert_eq!(answer["delivery"]["attempts"], json!(0));
        queued.push(str_of(&answer["delivery"], "id").to_owned());
    }
    let (_, sync) = get(&server, "/api/v2/webhooks/status", &org.admin_token).await;
    assert_eq!(sync["online"], json!(false));
    assert_eq!(sync["pending"], json!(5));
    assert!(sync["nextAttemptAt"].is_string());

    // Offline for longer than the whole retry schedule: nothing is spent.
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(receiver.hits().is_empty());
    for delivery in deliveries(&server, &org.admin_token, &id).await {
        assert_eq!(delivery["status"], json!("en_attente"));
        assert_eq!(delivery["attempts"], json!(0));
    }

    // Back online: everything goes, once, oldest first.
    let _probe = tokio::net::TcpListener::bind(probe_address)
        .await
        .expect("probe back");
    let list = wait_for(
        &server,
        &org.admin_token,
        &id,
        Duration::from_secs(20),
        |list| list.iter().all(|d| d["status"] == json!("livree")),
    )
    .await;
    assert!(list.iter().all(|d| d["attempts"] == json!(1)));
    let arrived: Vec<String> = receiver.hits().into_iter().map(|h| h.delivery).collect();
    assert_eq!(arrived, queued, "drained once each, in order");
    let (_, sync) = get(&server, "/api/v2/webhooks/status", &org.admin_token).await;
    assert_eq!(sync["online"], json!(true));
    assert_eq!(sync["pending"], json!(0));
    server.stop().await;
}

#[tokio::test]
async fn revoking_abandons_pending_deliveries() {
    let (server, org) = server_with(settings("1h", Probe::Off)).await;
    let receiver = Receiver::start().await;
    receiver.always(reply(502));
    let (id, _) = subscribe(&server, &org.admin_token, &receiver.url).await;
    for _ in 0..2 {
        let (_, answer) = post(
            &server,
            &format!("/api/v2/webhooks/{id}/test"),
            &org.admin_token,
            None,
        )
        .await;
        assert_eq!(answer["delivery"]["status"], json!("echec"));
    }
    let (_, sync) = get(&server, "/api/v2/webhooks/status", &org.admin_token).await;
    assert_eq!(sync["pending"], json!(2));

    let (status, revoked) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/revoke"),
        &org.admin_token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(revoked["abandoned"], json!(2));
    for delivery in deliveries(&server, &org.admin_token, &id).await {
        assert_eq!(delivery["status"], json!("abandonnee"));
        assert_eq!(delivery["nextAttemptAt"], Value::Null);
        assert_eq!(
            delivery["lastError"],
            json!("Abonnement révoqué : envoi abandonné.")
        );
    }
    let (_, sync) = get(&server, "/api/v2/webhooks/status", &org.admin_token).await;
    assert_eq!(sync["pending"], json!(0));
    server.stop().await;
}

#[tokio::test]
async fn a_resolved_call_reaches_its_subscribers_with_the_spec_body() {
    let (server, org) = server_with(settings("1h", Probe::Off)).await;
    let dir = server.data_dir.path();
    let everything = Receiver::start().await;
    let quotes_only = Receiver::start().await;
    let (all_id, secret) = subscribe(&server, &org.admin_token, &everything.url).await;
    everything.set_secret(&secret);
    let (status, created) = post(
        &server,
        "/api/v2/webhooks",
        &org.admin_token,
        Some(json!({ "url": quotes_only.url, "events": ["devis.accepte"] })),
    )
    .await;
    assert_eq!(status, 201);
    // Another organization's subscriber hears nothing of this agency.
    let other = init_org(dir, "Autre", "admin@autre.fr");
    let stranger = Receiver::start().await;
    subscribe(&server, &other.admin_token, &stranger.url).await;

    let key = str_of(
        &cli_json(
            dir,
            &[
                "call-center-key",
                "create",
                "--agency",
                &org.agency_id,
                "--name",
                "Astreinte",
            ],
        ),
        "key",
    )
    .to_owned();
    let equipment = World::in_agency(&server, &org.agency_id)
        .lift("ASC 7", None)
        .await;
    let (status, call) = post(
        &server,
        "/api/partners/calls",
        &key,
        Some(json!({ "reference": "CC-1", "equipement": "asc7", "type": "panne", "description": "Appareil arrêté." })),
    )
    .await;
    assert_eq!(status, 201, "{call}");
    let call_id = str_of(&call, "id").to_owned();
    let (status, body) = post(
        &server,
        &format!("/api/v2/calls/{call_id}/status"),
        &org.admin_token,
        Some(json!({ "statut": "resolue" })),
    )
    .await;
    assert_eq!(status, 201, "{body}");

    let list = wait_for(
        &server,
        &org.admin_token,
        &all_id,
        Duration::from_secs(10),
        |list| list.first().is_some_and(|d| d["status"] == json!("livree")),
    )
    .await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["event"], json!("appel.clos"));
    assert_eq!(list[0]["objectId"], json!(call_id));
    let hits = everything.hits();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].verified);
    let stored: String = open_db(dir)
        .query_row(
            "SELECT body FROM outbox_events WHERE object_id = ?1 AND event = 'appel.clos'",
            [&call_id],
            |r| r.get(0),
        )
        .expect("event");
    assert_eq!(hits[0].body, stored.as_bytes(), "the stored bytes, as sent");
    let occurred = str_of(&list[0], "occurredAt");
    assert_eq!(
        stored,
        format!(
            r#"{{"event":"appel.clos","id":"{call_id}","agency":"{}","equipment":"{equipment}","status":"resolue","occurredAt":"{occurred}"}}"#,
            org.agency_id
        )
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        quotes_only.hits().is_empty(),
        "not subscribed to appel.clos"
    );
    assert!(
        stranger.hits().is_empty(),
        "another organization's subscriber"
    );
    assert_eq!(
        deliveries(&server, &org.admin_token, str_of(&created, "id")).await,
        Vec::<Value>::new()
    );
    server.stop().await;
}

#[tokio::test]
async fn a_receiver_that_is_down_spends_attempts_on_its_head_only_and_blocks_no_other() {
    let probe_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("probe");
    let probe_address = probe_listener.local_addr().expect("addr");
    drop(probe_listener);
    let (server, org) = server_with(settings("1h", Probe::Tcp(probe_address.to_string()))).await;
    let down = Receiver::start().await;
    down.always(reply(503));
    let up = Receiver::start().await;
    let (down_id, _) = subscribe(&server, &org.admin_token, &down.url).await;
    let (up_id, _) = subscribe(&server, &org.admin_token, &up.url).await;
    // A backlog for the receiver that is down, queued offline, then one
    // delivery for the other.
    for _ in 0..4 {
        post(
            &server,
            &format!("/api/v2/webhooks/{down_id}/test"),
            &org.admin_token,
            None,
        )
        .await;
    }
    post(
        &server,
        &format!("/api/v2/webhooks/{up_id}/test"),
        &org.admin_token,
        None,
    )
    .await;

    let _probe = tokio::net::TcpListener::bind(probe_address)
        .await
        .expect("probe back");
    wait_for(
        &server,
        &org.admin_token,
        &up_id,
        Duration::from_secs(10),
        |list| list[0]["status"] == json!("livree"),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(
        down.hits().len(),
        1,
        "one request to a receiver that is down"
    );
    let backlog = deliveries(&server, &org.admin_token, &down_id).await;
    let attempts: Vec<i64> = backlog
        .iter()
        .map(|d| d["attempts"].as_i64().expect("attempts"))
        .collect();
    // Newest first: the oldest (the head) failed once, the rest wait untouched.
    assert_eq!(attempts, [0, 0, 0, 1]);
    assert_eq!(backlog[3]["status"], json!("echec"));
    assert!(
        backlog[..3]
            .iter()
            .all(|d| d["status"] == json!("en_attente"))
    );
    server.stop().await;
}

#[tokio::test]
async fn an_abandoned_delivery_is_announced_to_the_desktop_shell() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
    let for_state = slot.clone();
    let server = TestServer::start_adjusted(dir, RateLimit::default(), move |state| {
        let state = state.with_webhook_settings(settings("1s", Probe::Off));
        *for_state.lock().expect("lock") = Some(state.notices.subscribe());
        state
    })
    .await;
    let mut notices = slot.lock().expect("lock").take().expect("receiver");
    let receiver = Receiver::start().await;
    receiver.always(reply(500));
    let (id, _) = subscribe(&server, &org.admin_token, &receiver.url).await;
    let (status, _) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/test"),
        &org.admin_token,
        None,
    )
    .await;
    assert_eq!(status, 201);
    let notice = tokio::time::timeout(Duration::from_secs(30), notices.recv())
        .await
        .expect("in time")
        .expect("notice");
    assert_eq!(
        notice,
        liftdesk::notices::Notice::DeliveryAbandoned {
            event: "ping".to_owned(),
            receiver_host: "127.0.0.1".to_owned(),
        }
    );
    assert_eq!(notice.title(), "Webhook abandonné");
    assert!(notice.body().contains("127.0.0.1"), "{}", notice.body());
    server.stop().await;
}

#[tokio::test]
async fn the_overview_counts_waiting_deliveries_and_gives_the_latest_error() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
    let for_state = slot.clone();
    let server = TestServer::start_adjusted(dir, RateLimit::default(), move |state| {
        let state = state.with_webhook_settings(settings("1h", Probe::Off));
        *for_state.lock().expect("lock") = Some(state.webhooks.clone());
        state
    })
    .await;
    let sync = slot.lock().expect("lock").take().expect("sync");
    let calm = sync.overview().await.expect("overview");
    assert_eq!(
        (calm.online, calm.pending, calm.last_error),
        (true, 0, None)
    );

    let receiver = Receiver::start().await;
    receiver.always(reply(503));
    let (id, _) = subscribe(&server, &org.admin_token, &receiver.url).await;
    let (status, _) = post(
        &server,
        &format!("/api/v2/webhooks/{id}/test"),
        &org.admin_token,
        None,
    )
    .await;
    assert_eq!(status, 201);
    // The first attempt fails; the retry is an hour away: one delivery waits.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let overview = loop {
        let overview = sync.overview().await.expect("overview");
        if overview.last_error.is_some() || tokio::time::Instant::now() > deadline {
            break overview;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(overview.pending, 1, "{overview:?}");
    let error = overview.last_error.expect("latest error");
    assert!(error.contains("503"), "{error}");
    server.stop().await;
}
