//! Kill-and-restart proof of the webhook outbox, on the real binary: events
//! queued while the receiver is down survive a `kill -9` of the server and
//! all arrive once it is restarted and the receiver comes up, each with the
//! bytes stored at commit time and a valid signature; a delivery in flight
//! when the server dies is sent again after the restart.
//!
//! The receiver is an axum server inside the test, on a port reserved at the
//! start (bound, noted, released: "down"; bound again later: "up").

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use common::served::Served as Server;
use common::world::World;
use common::*;
use hmac::{Hmac, Mac};
use liftdesk::store::params;
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::sync::mpsc;

/// 20 delays of one second (the most the option accepts): while the receiver
/// is down only the head of the queue spends attempts, one a second, so the
/// test keeps the downtime well under 20 s and nothing is abandoned.
const SCHEDULE: &str = "1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s";
const EVENTS: [&str; 3] = ["appel.clos", "releve.termine", "devis.accepte"];
const PINGS: usize = 3;
const CALLS: usize = 3;

/// The real `liftdesk serve` with webhooks to a loopback receiver, quick
/// retries and no connectivity probe; killed on drop if still running.
fn start_server(data_dir: &Path, log: PathBuf) -> Server {
    Server::start(
        data_dir,
        log,
        &[
            "--insecure-webhooks",
            "--webhook-retry-schedule",
            SCHEDULE,
            "--connectivity-probe",
            "off",
        ],
    )
}

/// One request as the receiver got it.
#[derive(Debug, Clone)]
struct Arrival {
    delivery: String,
    signature: String,
    content_type: String,
    body: Vec<u8>,
    /// Unix seconds at receipt.
    received_at: i64,
}

#[derive(Clone)]
struct Receiver {
    arrivals: Arc<Mutex<Vec<Arrival>>>,
    /// The next request is held (answered only after 30 s): a delivery in
    /// flight. Its arrival is reported on `held`.
    hold_next: Arc<AtomicBool>,
    held: mpsc::UnboundedSender<String>,
}

fn header(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let received_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let arrival = Arrival {
        delivery: header(&headers, "x-service-livraison"),
        signature: header(&headers, "x-service-signature"),
        content_type: header(&headers, "content-type"),
        body: body.to_vec(),
        received_at: i64::try_from(received_at).expect("seconds"),
    };
    let delivery = arrival.delivery.clone();
    receiver.arrivals.lock().expect("arrivals").push(arrival);
    if receiver.hold_next.swap(false, Ordering::SeqCst) {
        let _ = receiver.held.send(delivery);
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
    StatusCode::NO_CONTENT
}

impl Receiver {
    /// Binds the reserved port again ("up") and serves there.
    async fn bring_up(&self, port: u16) {
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        let started = Instant::now();
        let listener = loop {
            match tokio::net::TcpListener::bind(address).await {
                Ok(listener) => break listener,
                Err(err) if started.elapsed() < Duration::from_secs(5) => {
                    eprintln!("receiver port {port} not free yet: {err}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(err) => panic!("receiver port {port} taken meanwhile: {err}"),
            }
        };
        let app = axum::Router::new()
            .route("/hooks", axum::routing::post(receive))
            .with_state(self.clone());
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("receiver");
        });
    }

    fn arrivals(&self) -> Vec<Arrival> {
        self.arrivals.lock().expect("arrivals").clone()
    }
}

/// A free loopback port, released at once: nobody listens there ("down").
fn reserve_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").port()
}

struct Api {
    client: reqwest::Client,
    token: String,
}

impl Api {
    async fn post(&self, server: &Server, path: &str, body: Value) -> (u16, Value) {
        let response = self
            .client
            .post(server.url(path))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, server: &Server, path: &str) -> Value {
        let response = self
            .client
            .get(server.url(path))
            .bearer_auth(&self.token)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 200, "GET {path}");
        response.json().await.expect("json")
    }

    /// The subscription's deliveries by id (at most 200: enough here).
    async fn deliveries(&self, server: &Server, subscription: &str) -> BTreeMap<String, Value> {
        let page = self
            .get(
                server,
                &format!("/api/v2/webhooks/{subscription}/deliveries?limit=200"),
            )
            .await;
        page["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|d| (str_of(d, "id").to_owned(), d.clone()))
            .collect()
    }
}

/// Opens a call through the call-center API and resolves it through REST
/// v2 (`appel.clos`); returns the call's id.
async fn resolve_a_call(api: &Api, server: &Server, center_key: &str, n: usize) -> String {
    let response = api
        .client
        .post(server.url("/api/partners/calls"))
        .bearer_auth(center_key)
        .json(&json!({
            "reference": format!("CC-RESTART-{n}"),
            "equipement": "asc7",
            "type": "panne",
            "description": "Appareil arrêté.",
        }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 201);
    let call = str_of(&response.json::<Value>().await.expect("json"), "id").to_owned();
    let (status, body) = api
        .post(
            server,
            &format!("/api/v2/calls/{call}/status"),
            json!({ "statut": "resolue" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    call
}

/// (status, attempts, stored body, event) of a delivery, read in the database.
fn stored(data_dir: &Path, delivery: &str) -> (String, i64, String, String) {
    open_db(data_dir)
        .query_row(
            "SELECT d.status, d.attempts, e.body, e.event
               FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
              WHERE d.id = ?1",
            params![delivery],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("delivery row")
}

/// Waits (bounded) until every listed delivery is `livree`.
async fn wait_delivered(
    api: &Api,
    server: &Server,
    subscription: &str,
    ids: &BTreeSet<String>,
    limit: Duration,
) {
    let started = Instant::now();
    loop {
        let listed = api.deliveries(server, subscription).await;
        let pending: Vec<&Value> = ids
            .iter()
            .map(|id| listed.get(id).unwrap_or_else(|| panic!("{id} not listed")))
            .filter(|d| d["status"] != json!("livree"))
            .collect();
        if pending.is_empty() {
            return;
        }
        assert!(
            started.elapsed() < limit,
            "not delivered within {limit:?}: {pending:#?}\nserver log:\n{}",
            server.log_text()
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// HMAC-SHA256 of `"<t>.<body>"` with the secret, recomputed here, and the
/// header's strict form `t=<digits>,v1=<64 lowercase hex>`.
fn check_signature(arrival: &Arrival, secret: &str) {
    let header = &arrival.signature;
    let (t_part, v1_part) = header
        .split_once(',')
        .unwrap_or_else(|| panic!("signature header {header:?}"));
    let t = t_part
        .strip_prefix("t=")
        .unwrap_or_else(|| panic!("no t= in {header:?}"));
    let v1 = v1_part
        .strip_prefix("v1=")
        .unwrap_or_else(|| panic!("no v1= in {header:?}"));
    assert!(
        !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()),
        "{header:?}"
    );
    assert!(
        v1.len() == 64 && v1.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        "{header:?}"
    );
    let timestamp: i64 = t.parse().expect("t");
    assert!(
        (arrival.received_at - timestamp).abs() <= 300,
        "t={timestamp} not within 5 minutes of the receipt at {}",
        arrival.received_at
    );
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes()).expect("key");
    mac.update(t.as_bytes());
    mac.update(b".");
    mac.update(&arrival.body);
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(v1, expected, "signature of delivery {}", arrival.delivery);
}

/// Every arrival of every id: known id, `application/json`, the stored bytes
/// on every arrival, a valid signature. Returns how many times each arrived.
fn check_arrivals(
    arrivals: &[Arrival],
    ids: &BTreeSet<String>,
    data_dir: &Path,
    secret: &str,
) -> BTreeMap<String, usize> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for arrival in arrivals.iter().filter(|a| ids.contains(&a.delivery)) {
        let (_, _, body, _) = stored(data_dir, &arrival.delivery);
        assert_eq!(
            String::from_utf8_lossy(&arrival.body),
            body,
            "delivery {}: the bytes received are the outbox's",
            arrival.delivery
        );
        assert_eq!(arrival.content_type, "application/json");
        check_signature(arrival, secret);
        *counts.entry(arrival.delivery.clone()).or_default() += 1;
    }
    let missing: Vec<&String> = ids.iter().filter(|id| !counts.contains_key(*id)).collect();
    assert!(missing.is_empty(), "never arrived: {missing:?}");
    counts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_twice_the_server_loses_no_webhook() {
    let started = Instant::now();
    let data = tempfile::tempdir().expect("data dir");
    let logs = tempfile::tempdir().expect("logs dir");
    let dir = data.path();

    // Fixtures through the CLI and the operations, as an installer would.
    let org = init_org(dir, "Durand", "admin@durand.fr");
    let center_key = str_of(
        &cli_json(
            dir,
            &[
                "call-center-key",
                "create",
                "--agency",
                &org.agency_id,
                "--name",
                "Astreinte Plus",
            ],
        ),
        "key",
    )
    .to_owned();
    let equipment = {
        let store = crate::common::open_store(dir);
        World::of_store(&store, &org.agency_id)
            .lift("ASC 7", None)
            .await
    };

    // The receiver is down: its port is reserved, nobody listens.
    let port = reserve_port();
    let (held_tx, mut held_rx) = mpsc::unbounded_channel();
    let receiver = Receiver {
        arrivals: Arc::new(Mutex::new(Vec::new())),
        hold_next: Arc::new(AtomicBool::new(false)),
        held: held_tx,
    };

    let api = Api {
        client: crate::common::http_client(),
        token: org.admin_token.clone(),
    };
    let server = start_server(dir, logs.path().join("serve-1.log"));
    let (status, created) = api
        .post(
            &server,
            "/api/v2/webhooks",
            json!({ "url": format!("http://127.0.0.1:{port}/hooks"), "events": EVENTS }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let subscription = str_of(&created, "id").to_owned();
    let secret = str_of(&created, "secret").to_owned();

    // Phase 1: events queued while the receiver is down. Each ping is tried
    // at once and fails (connection refused).
    let mut ids = BTreeSet::new();
    for _ in 0..PINGS {
        let (status, sent) = api
            .post(
                &server,
                &format!("/api/v2/webhooks/{subscription}/test"),
                json!({}),
            )
            .await;
        assert_eq!(status, 201, "{sent}");
        assert_eq!(sent["delivery"]["status"], json!("echec"), "{sent}");
        assert_eq!(sent["delivery"]["attempts"], json!(1), "{sent}");
        ids.insert(str_of(&sent["delivery"], "id").to_owned());
    }
    let mut calls = Vec::new();
    for n in 0..CALLS {
        calls.push(resolve_a_call(&api, &server, &center_key, n).await);
    }
    let listed = api.deliveries(&server, &subscription).await;
    assert_eq!(listed.len(), PINGS + CALLS, "{listed:#?}");
    for (id, delivery) in &listed {
        if delivery["event"] == json!("appel.clos") {
            assert!(
                calls.contains(&str_of(delivery, "objectId").to_owned()),
                "{delivery}"
            );
            ids.insert(id.clone());
        }
    }
    assert_eq!(ids.len(), PINGS + CALLS, "every delivery id noted");
    let in_db: BTreeSet<String> = {
        let db = open_db(dir);
        let mut stmt = db
            .prepare("SELECT id FROM webhook_deliveries WHERE subscription_id = ?1")
            .expect("prepare");
        stmt.query_map([&subscription], |r| r.get(0))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    assert_eq!(in_db, ids, "the API lists what the database holds");

    // Let the sync task retry the head of the queue a few times (receiver
    // still down), then kill -9 with everything pending.
    let deadline = Instant::now() + Duration::from_secs(8);
    loop {
        let retried = ids.iter().any(|id| stored(dir, id).1 >= 2);
        if retried {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no retry while the receiver is down:\n{}",
            server.log_text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    server.kill_9();
    let mut failed_once = 0;
    for id in &ids {
        let (status, attempts, _, _) = stored(dir, id);
        assert!(
            status == "en_attente" || status == "echec",
            "{id} is {status} after the kill"
        );
        if attempts >= 1 {
            failed_once += 1;
        }
    }
    assert!(
        failed_once >= PINGS,
        "some deliveries failed before the kill"
    );
    assert!(receiver.arrivals().is_empty(), "nothing could arrive yet");

    // Restart on the same data directory; the receiver is still down for a
    // moment (the schedule resumes from the stored times), then comes up.
    let server = start_server(dir, logs.path().join("serve-2.log"));
    let attempts_at_restart: i64 = ids.iter().map(|id| stored(dir, id).1).sum();
    let deadline = Instant::now() + Duration::from_secs(5);
    while ids.iter().map(|id| stored(dir, id).1).sum::<i64>() == attempts_at_restart {
        assert!(
            Instant::now() < deadline,
            "no attempt after the restart:\n{}",
            server.log_text()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    receiver.bring_up(port).await;
    wait_delivered(&api, &server, &subscription, &ids, Duration::from_secs(30)).await;

    let arrivals = receiver.arrivals();
    let counts = check_arrivals(&arrivals, &ids, dir, &secret);
    let strangers: Vec<&String> = arrivals
        .iter()
        .map(|a| &a.delivery)
        .filter(|d| !ids.contains(*d))
        .collect();
    assert!(strangers.is_empty(), "unknown delivery ids: {strangers:?}");
    for id in &ids {
        let (status, _, text, event) = stored(dir, id);
        assert_eq!(status, "livree");
        // The spec's body, in its order: event, id, agency, equipment,
        // status, occurredAt (UTC, milliseconds).
        let keys: Vec<&str> = [
            "\"event\":",
            "\"id\":",
            "\"agency\":",
            "\"equipment\":",
            "\"status\":",
            "\"occurredAt\":",
        ]
        .into_iter()
        .filter(|key| text.contains(key))
        .collect();
        assert_eq!(keys.len(), 6, "{text}");
        let positions: Vec<usize> = keys.iter().filter_map(|key| text.find(key)).collect();
        assert!(positions.is_sorted(), "fields in the spec's order: {text}");
        let body: Value = serde_json::from_str(&text).expect("stored body");
        assert_eq!(body.as_object().map(|o| o.len()), Some(6), "{text}");
        assert_eq!(body["event"], json!(event));
        assert_eq!(body["agency"], json!(org.agency_id));
        let occurred = str_of(&body, "occurredAt");
        assert!(
            occurred.len() == 24 && occurred.ends_with('Z') && occurred.as_bytes()[19] == b'.',
            "{occurred}"
        );
        if event == "ping" {
            assert_eq!(body["id"], json!(subscription));
            assert_eq!(body["equipment"], Value::Null);
        } else {
            assert_eq!(event, "appel.clos");
            assert!(calls.contains(&str_of(&body, "id").to_owned()));
            assert_eq!(body["equipment"], json!(equipment));
            assert_eq!(body["status"], json!("resolue"));
        }
    }
    let attempts: Vec<i64> = ids.iter().map(|id| stored(dir, id).1).collect();
    assert!(
        counts.values().all(|n| *n == 1),
        "sent once each: {counts:?}"
    );
    eprintln!(
        "phase 1: {} deliveries arrived once each, attempts {attempts:?}, {:.1} s",
        ids.len(),
        started.elapsed().as_secs_f64()
    );

    // Phase 2: the receiver holds the next request; the server is killed
    // while that delivery is in flight.
    receiver.hold_next.store(true, Ordering::SeqCst);
    let call = resolve_a_call(&api, &server, &center_key, CALLS).await;
    let in_flight = tokio::time::timeout(Duration::from_secs(10), held_rx.recv())
        .await
        .unwrap_or_else(|_| panic!("nothing sent within 10 s:\n{}", server.log_text()))
        .expect("held delivery");
    let (_, _, body, event) = stored(dir, &in_flight);
    assert_eq!(event, "appel.clos");
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("body")["id"],
        json!(call)
    );
    server.kill_9();
    let (status, attempts, _, _) = stored(dir, &in_flight);
    assert_eq!(
        (status.as_str(), attempts),
        ("en_attente", 0),
        "the send cut short by the kill is not recorded"
    );

    let server = start_server(dir, logs.path().join("serve-3.log"));
    let again = BTreeSet::from([in_flight.clone()]);
    wait_delivered(
        &api,
        &server,
        &subscription,
        &again,
        Duration::from_secs(20),
    )
    .await;
    let arrivals = receiver.arrivals();
    let counts = check_arrivals(&arrivals, &again, dir, &secret);
    assert!(
        counts[&in_flight] >= 2,
        "the delivery in flight is sent again after the restart: {counts:?}"
    );
    // Phase 1's deliveries were not sent again.
    let all: BTreeSet<String> = ids.iter().cloned().chain([in_flight.clone()]).collect();
    assert_eq!(
        arrivals
            .iter()
            .map(|a| a.delivery.clone())
            .collect::<BTreeSet<_>>(),
        all
    );
    let status = api.get(&server, "/api/v2/webhooks/status").await;
    assert_eq!(status["pending"], json!(0), "{status}");
    eprintln!(
        "phase 2: in flight {in_flight} arrived {} times; total {:.1} s",
        counts[&in_flight],
        started.elapsed().as_secs_f64()
    );
    server.kill_9();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the proof takes under a minute"
    );
}
