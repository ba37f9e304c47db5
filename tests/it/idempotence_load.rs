//! Idempotence of the call-center API under load, on the real binary
//! (`liftdesk serve --demo`): the demo's two call centers (« Astreinte
//! Plus », « Télésecours Île-de-France », both of the first agency) send
//! the same references concurrently. The spec scopes a reference to its
//! center: the first receipt of a reference from a center opens a call (201),
//! every repeat from that center answers 200 with that same call, and the
//! same reference from the other center is another call.
//!
//! Two ways: a load of 50 references × 10 copies × 2 centers (1,000
//! requests) shuffled and sent by 32 clients at once; then 20 references
//! whose 20 copies (10 per center) are released together by a barrier, on
//! connections already open. The copies of a reference differ only by their
//! description, so the stored call shows which request opened it.
//!
//! Invariants, for every (center, reference):
//! - exactly one 201, every other copy 200, every body exactly `id`,
//!   `reference`, `statut` `ouverte`, `libelle`, all with the same id; the
//!   two centers' calls differ; tracking (`GET /api/partners/calls/{ref}`)
//!   gives each center its own call;
//! - the store holds exactly one call, of that center, with the description
//!   of the request answered 201, and one audit entry `ouverture`;
//! - the creation emits no webhook event (the spec's events are
//!   `appel.clos`, `releve.termine`, `devis.accepte`): the outbox holds
//!   nothing for these calls; the staff board's live feed (`GET
//!   /app/api/calls/events`) announces each call exactly once (`ouvert`),
//!   duplicates announce nothing.
//!
//! Then each call is resolved three times at once (admin and member tokens,
//! a barrier per call): exactly one 201, the two others 422 « L'appel est
//! déjà résolu. »; exactly one `appel.clos` in the outbox per call, with one
//! delivery for the agency's subscription, one audit entry, one `statut`
//! event on the live feed.
//!
//! The order of the load comes from a seed, printed;
//! `LIFTDESK_IDEMPOTENCE_SEED=<n>` replays one.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::served::{Served, demo_credentials};
use common::{open_db, str_of};
use liftdesk::store::params;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use tokio::sync::{Barrier, mpsc};

const LOAD_REFERENCES: usize = 50;
const RACE_REFERENCES: usize = 20;
/// Copies of a reference sent by each center.
const COPIES: usize = 10;
const LOAD_CLIENTS: usize = 32;
/// Resolutions of one call sent at once.
const RESOLUTIONS: usize = 3;
/// Calls whose resolutions race at the same time.
const RESOLVE_BATCH: usize = 10;
/// Bound on the wait for a live-feed event (a liveness bound only).
const FEED_WAIT: Duration = Duration::from_secs(20);

/// One request of a center and its answer.
#[derive(Debug, Clone)]
struct Answer {
    center: usize,
    reference: String,
    description: String,
    status: u16,
    body: Value,
}

#[derive(Clone)]
struct Centers {
    base_url: String,
    keys: [String; 2],
    equipment: String,
}

impl Centers {
    async fn open(
        &self,
        client: &reqwest::Client,
        center: usize,
        reference: &str,
        copy: usize,
    ) -> Answer {
        let description = format!("Cabine immobilisée, copie {copy} du centre {center}.");
        let response = client
            .post(format!("{}/api/partners/calls", self.base_url))
            .bearer_auth(&self.keys[center])
            .json(&json!({
                "reference": reference,
                "equipement": self.equipment,
                "type": "personne_bloquee",
                "description": description,
            }))
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        let body = response.json().await.expect("json");
        Answer {
            center,
            reference: reference.to_owned(),
            description,
            status,
            body,
        }
    }
}

fn server(dir: &Path, log: &Path) -> Served {
    Served::start(
        dir,
        log.join("serve.log"),
        &[
            "--demo",
            // The load is far beyond the default per-key pace.
            "--rate-limit",
            "1000000/100000",
            "--insecure-webhooks",
            "--connectivity-probe",
            "off",
        ],
    )
}

/// The staff board's live feed, read by a task: (event name, data).
async fn live_feed(served: &Served, email: &str, password: &str, agency: &str) -> Feed {
    let http = crate::common::http_client_builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let response = http
        .post(served.url("/app/api/session"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .expect("sign in");
    assert_eq!(response.status().as_u16(), 200);
    let session: Value = response.json().await.expect("session");
    assert_eq!(session["agency"]["id"], json!(agency), "{session}");
    let mut response = http
        .get(served.url("/app/api/calls/events"))
        .send()
        .await
        .expect("events");
    assert_eq!(response.status().as_u16(), 200);
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut buffer = String::new();
        while let Ok(Some(chunk)) = response.chunk().await {
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let mut name = None;
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("event:") {
                        name = Some(value.trim().to_owned());
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data.push_str(value.trim_start());
                    }
                }
                // Keep-alive comments have no event name.
                if let Some(name) = name {
                    let data = serde_json::from_str(&data).unwrap_or(Value::String(data));
                    if tx.send((name, data)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let mut feed = Feed { rx };
    let (name, _) = feed.next().await;
    assert_eq!(name, "pret");
    feed
}

struct Feed {
    rx: mpsc::UnboundedReceiver<(String, Value)>,
}

impl Feed {
    async fn next(&mut self) -> (String, Value) {
        tokio::time::timeout(FEED_WAIT, self.rx.recv())
            .await
            .unwrap_or_else(|_| panic!("no live-feed event within {FEED_WAIT:?}"))
            .expect("live feed open")
    }

    /// Every `appel` event up to the one about `sentinel` (excluded): what
    /// was published before the sentinel call was opened, in order.
    async fn until(&mut self, sentinel: &str) -> Vec<Value> {
        let mut events = Vec::new();
        loop {
            let (name, data) = self.next().await;
            assert_eq!(name, "appel", "no resync, nothing else: {data}");
            if data["reference"] == json!(sentinel) {
                assert_eq!(data["change"], json!("ouvert"));
                return events;
            }
            events.push(data);
        }
    }
}

/// The answers of each (center, reference): one 201, the rest 200, all
/// the same call. Returns the call id of each (center, reference) and the
/// description of the request that opened it.
fn check_answers(answers: &[Answer]) -> BTreeMap<(usize, String), (String, String)> {
    let mut grouped: BTreeMap<(usize, String), Vec<&Answer>> = BTreeMap::new();
    for answer in answers {
        grouped
            .entry((answer.center, answer.reference.clone()))
            .or_default()
            .push(answer);
    }
    let mut calls = BTreeMap::new();
    for (key, group) in grouped {
        assert_eq!(group.len(), COPIES, "{key:?}");
        let opened: Vec<&&Answer> = group.iter().filter(|a| a.status == 201).collect();
        let repeated = group.iter().filter(|a| a.status == 200).count();
        assert_eq!(
            (opened.len(), repeated),
            (1, COPIES - 1),
            "{key:?}: one 201, the rest 200: {group:#?}"
        );
        let first = &opened[0].body;
        let keys: BTreeSet<&str> = first
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            BTreeSet::from(["id", "libelle", "reference", "statut"])
        );
        assert_eq!(first["reference"], json!(key.1));
        assert_eq!(first["statut"], json!("ouverte"));
        assert!(!str_of(first, "libelle").is_empty());
        for answer in &group {
            assert_eq!(&answer.body, first, "{key:?}: the same call every time");
        }
        calls.insert(
            key,
            (
                str_of(first, "id").to_owned(),
                opened[0].description.clone(),
            ),
        );
    }
    let distinct: BTreeSet<&String> = calls.values().map(|(id, _)| id).collect();
    assert_eq!(
        distinct.len(),
        calls.len(),
        "one call per center and reference"
    );
    calls
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicates_from_two_centers_open_one_call_per_center_and_reference() {
    let started = Instant::now();
    let seed = std::env::var("LIFTDESK_IDEMPOTENCE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .expect("clock")
                .as_nanos() as u64
        });
    eprintln!("LIFTDESK_IDEMPOTENCE_SEED={seed}");
    let data = tempfile::tempdir().expect("data dir");
    let logs = tempfile::tempdir().expect("logs dir");
    let dir = data.path();
    let served = server(dir, logs.path());
    let creds = demo_credentials(dir);
    let agency = str_of(&creds["agencies"][0], "id").to_owned();
    let keys = creds["callCenterKeys"].as_array().expect("keys");
    let db = open_db(dir);
    let equipment: String = db
        .query_row(
            "SELECT number FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL
              ORDER BY number LIMIT 1",
            [&agency],
            |r| r.get(0),
        )
        .expect("equipment");
    // Both demo keys are of the first agency, one per center.
    let center_ids: [String; 2] = liftdesk::demo::CALL_CENTERS.map(|name| {
        db.query_row(
            "SELECT id FROM call_centers WHERE agency_id = ?1 AND name = ?2",
            params![agency, name],
            |r| r.get(0),
        )
        .expect("call center")
    });
    let centers = Centers {
        base_url: served.base_url.clone(),
        keys: [0, 1].map(|i| keys[i].as_str().expect("key").to_owned()),
        equipment,
    };
    let admin_token = str_of(&creds["admin"], "apiToken").to_owned();
    let member_token = str_of(&creds["member"], "apiToken").to_owned();

    // The agency's events go to a receiver that is down: queued, kept.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("address").port()
    };
    let client = crate::common::http_client();
    let response = client
        .post(served.url("/api/v2/webhooks"))
        .bearer_auth(&admin_token)
        .json(&json!({
            "url": format!("http://127.0.0.1:{port}/hooks"),
            "events": ["appel.clos"],
        }))
        .send()
        .await
        .expect("subscribe");
    assert_eq!(response.status().as_u16(), 201);
    let mut feed = live_feed(
        &served,
        str_of(&creds["admin"], "email"),
        str_of(&creds["admin"], "password"),
        &agency,
    )
    .await;

    // -- 1. The load: every copy of every reference, shuffled, 32 clients.
    let mut requests: Vec<(usize, String, usize)> = Vec::new();
    for r in 0..LOAD_REFERENCES {
        for center in 0..2 {
            for copy in 0..COPIES {
                requests.push((center, format!("IDEM-L-{r:02}"), copy));
            }
        }
    }
    requests.shuffle(&mut StdRng::seed_from_u64(seed));
    let requests = Arc::new(requests);
    let next = Arc::new(AtomicUsize::new(0));
    let answers = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for _ in 0..LOAD_CLIENTS {
        let (requests, next, answers, centers) = (
            requests.clone(),
            next.clone(),
            answers.clone(),
            centers.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let client = crate::common::http_client();
            while let Some((center, reference, copy)) =
                requests.get(next.fetch_add(1, Ordering::SeqCst))
            {
                let answer = centers.open(&client, *center, reference, *copy).await;
                answers.lock().expect("answers").push(answer);
            }
        }));
    }
    for task in tasks {
        task.await.expect("load client");
    }
    let load_done = started.elapsed().as_secs_f64();

    // -- 2. The race: the 20 copies of a reference released together, each
    // on a connection of its own already open.
    let clients: Vec<reqwest::Client> = (0..2 * COPIES)
        .map(|_| crate::common::http_client())
        .collect();
    for client in &clients {
        let response = client
            .get(served.url("/api/partners/calls/IDEM-AUCUN"))
            .bearer_auth(&centers.keys[0])
            .send()
            .await
            .expect("warm-up");
        assert_eq!(response.status().as_u16(), 404);
    }
    for r in 0..RACE_REFERENCES {
        let reference = format!("IDEM-B-{r:02}");
        let barrier = Arc::new(Barrier::new(2 * COPIES));
        let mut tasks = Vec::new();
        for (slot, client) in clients.iter().enumerate() {
            let (barrier, client, centers, reference) = (
                barrier.clone(),
                client.clone(),
                centers.clone(),
                reference.clone(),
            );
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                centers.open(&client, slot % 2, &reference, slot / 2).await
            }));
        }
        for task in tasks {
            let answer = task.await.expect("race client");
            answers.lock().expect("answers").push(answer);
        }
    }
    let answers = answers.lock().expect("answers").clone();
    assert_eq!(
        answers.len(),
        2 * COPIES * (LOAD_REFERENCES + RACE_REFERENCES)
    );
    let calls = check_answers(&answers);
    assert_eq!(calls.len(), 2 * (LOAD_REFERENCES + RACE_REFERENCES));
    for reference in calls.keys().map(|(_, r)| r).collect::<BTreeSet<_>>() {
        let (mine, theirs) = (
            &calls[&(0, reference.clone())].0,
            &calls[&(1, reference.clone())].0,
        );
        assert_ne!(
            mine, theirs,
            "{reference}: the other center's call is another"
        );
        for center in 0..2 {
            let response = client
                .get(served.url(&format!("/api/partners/calls/{reference}")))
                .bearer_auth(&centers.keys[center])
                .send()
                .await
                .expect("track");
            assert_eq!(response.status().as_u16(), 200);
            let tracked: Value = response.json().await.expect("json");
            assert_eq!(tracked["id"], json!(calls[&(center, reference.clone())].0));
        }
    }

    // The store: one call per (center, reference), opened by the 201.
    let ours: BTreeSet<&String> = calls.values().map(|(id, _)| id).collect();
    let stored: Vec<(String, Option<String>, String, String)> = {
        let mut stmt = db
            .prepare(
                "SELECT id, call_center_id, reference, description FROM calls
                  WHERE reference LIKE 'IDEM-%'",
            )
            .expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    assert_eq!(stored.len(), calls.len(), "no duplicate in the store");
    for (id, center_id, reference, description) in &stored {
        let center = center_ids
            .iter()
            .position(|c| Some(c) == center_id.as_ref())
            .unwrap_or_else(|| panic!("call {id} of no demo center"));
        let (want_id, want_description) = &calls[&(center, reference.clone())];
        assert_eq!(id, want_id);
        assert_eq!(
            description, want_description,
            "{reference}: the 201 opened it"
        );
    }
    let audit = |action: &str| -> BTreeMap<String, i64> {
        let mut stmt = db
            .prepare(
                "SELECT object_id, count(*) FROM audit_log
                  WHERE object_type = 'call' AND action = ?1 AND object_id IN
                        (SELECT id FROM calls WHERE reference LIKE 'IDEM-%')
                  GROUP BY object_id",
            )
            .expect("prepare");
        stmt.query_map([action], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    let openings = audit("ouverture");
    assert_eq!(openings.len(), calls.len());
    assert!(openings.values().all(|n| *n == 1), "{openings:?}");
    let events_of = |event: &str| -> BTreeMap<String, (i64, String, i64)> {
        let mut stmt = db
            .prepare(
                "SELECT e.object_id, count(DISTINCT e.id), max(e.status), count(d.id)
                   FROM outbox_events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
                  WHERE e.event = ?1 AND e.object_id IN
                        (SELECT id FROM calls WHERE reference LIKE 'IDEM-%')
                  GROUP BY e.object_id",
            )
            .expect("prepare");
        stmt.query_map([event], |r| {
            Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?)))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
    };
    let outbox: i64 = db
        .query_row(
            "SELECT count(*) FROM outbox_events WHERE object_id IN
                    (SELECT id FROM calls WHERE reference LIKE 'IDEM-%')",
            [],
            |r| r.get(0),
        )
        .expect("outbox");
    assert_eq!(outbox, 0, "opening a call emits no webhook event");

    // The live feed: one `ouvert` per call, then the sentinel.
    let sentinel = centers.open(&client, 0, "IDEM-REPERE-1", 0).await;
    assert_eq!(sentinel.status, 201);
    let announced = feed.until("IDEM-REPERE-1").await;
    let mut per_call: BTreeMap<String, usize> = BTreeMap::new();
    for event in &announced {
        assert_eq!(event["change"], json!("ouvert"), "{event}");
        assert_eq!(event["statut"], json!("ouverte"));
        *per_call.entry(str_of(event, "id").to_owned()).or_default() += 1;
    }
    assert_eq!(
        per_call.keys().collect::<BTreeSet<_>>(),
        ours,
        "each call announced, nothing else"
    );
    let repeated: Vec<_> = per_call.iter().filter(|(_, n)| **n != 1).collect();
    assert!(
        repeated.is_empty(),
        "announced more than once: {repeated:?}"
    );
    let race_done = started.elapsed().as_secs_f64();

    // -- 3. Each call resolved three times at once.
    let tokens = [admin_token.clone(), member_token, admin_token];
    // One client per token slot: the three resolutions of a call go out on
    // three connections.
    let resolvers: Vec<reqwest::Client> = tokens
        .iter()
        .map(|_| crate::common::http_client())
        .collect();
    let ids: Vec<String> = ours.iter().map(|id| (*id).clone()).collect();
    let mut resolutions: BTreeMap<String, Vec<(u16, Value)>> = BTreeMap::new();
    for batch in ids.chunks(RESOLVE_BATCH) {
        let mut tasks = Vec::new();
        for id in batch {
            let barrier = Arc::new(Barrier::new(RESOLUTIONS));
            for (token, client) in tokens.iter().zip(&resolvers) {
                let (barrier, token, id) = (barrier.clone(), token.clone(), id.clone());
                let client = client.clone();
                let url = served.url(&format!("/api/v2/calls/{id}/status"));
                tasks.push(tokio::spawn(async move {
                    barrier.wait().await;
                    let response = client
                        .post(url)
                        .bearer_auth(token)
                        .json(&json!({ "statut": "resolue" }))
                        .send()
                        .await
                        .expect("resolve");
                    let status = response.status().as_u16();
                    (id, status, response.json::<Value>().await.expect("json"))
                }));
            }
        }
        for task in tasks {
            let (id, status, body) = task.await.expect("resolver");
            resolutions.entry(id).or_default().push((status, body));
        }
    }
    for (id, answers) in &resolutions {
        let won: Vec<&(u16, Value)> = answers.iter().filter(|(s, _)| *s == 201).collect();
        assert_eq!(won.len(), 1, "{id}: one resolution: {answers:?}");
        assert_eq!(won[0].1["id"], json!(id));
        assert_eq!(won[0].1["ok"], json!(true));
        for (status, body) in answers.iter().filter(|(s, _)| *s != 201) {
            assert_eq!(
                (*status, body),
                (422, &json!({ "error": "L'appel est déjà résolu." })),
                "{id}"
            );
        }
    }
    assert_eq!(resolutions.len(), ids.len());
    let closed = events_of("appel.clos");
    assert_eq!(closed.len(), ids.len(), "every call closed once");
    for (id, (events, status, deliveries)) in &closed {
        assert_eq!(
            (*events, status.as_str(), *deliveries),
            (1, "resolue", 1),
            "{id}: one event, one delivery"
        );
    }
    let changes = audit("changement_statut");
    assert_eq!(changes.len(), ids.len());
    assert!(changes.values().all(|n| *n == 1), "{changes:?}");
    let unresolved: i64 = db
        .query_row(
            "SELECT count(*) FROM calls WHERE reference LIKE 'IDEM-%' AND reference <> 'IDEM-REPERE-1'
                AND (status <> 'resolue' OR resolved_at IS NULL)",
            [],
            |r| r.get(0),
        )
        .expect("unresolved");
    assert_eq!(unresolved, 0);
    let sentinel = centers.open(&client, 0, "IDEM-REPERE-2", 0).await;
    assert_eq!(sentinel.status, 201);
    let changed = feed.until("IDEM-REPERE-2").await;
    let mut per_call: BTreeMap<String, usize> = BTreeMap::new();
    for event in &changed {
        assert_eq!(
            (&event["change"], &event["statut"]),
            (&json!("statut"), &json!("resolue")),
            "{event}"
        );
        *per_call.entry(str_of(event, "id").to_owned()).or_default() += 1;
    }
    assert_eq!(per_call.keys().collect::<BTreeSet<_>>(), ours);
    let repeated: Vec<_> = per_call.iter().filter(|(_, n)| **n != 1).collect();
    assert!(
        repeated.is_empty(),
        "status change announced more than once: {repeated:?}"
    );

    eprintln!(
        "{} openings (load done at {load_done:.1} s, race and checks at {race_done:.1} s); \
         {} calls; {} resolutions; total {:.1} s",
        answers.len(),
        calls.len(),
        resolutions.values().map(Vec::len).sum::<usize>(),
        started.elapsed().as_secs_f64()
    );
    served.kill_9();
}
