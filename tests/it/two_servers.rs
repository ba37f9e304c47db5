//! Two `liftdesk serve` processes on one PostgreSQL database (each with its
//! own data directory, the shared key files copied from the first, as
//! `docs/deployment.md` says): a reference sent to both opens one call;
//! invoices issued through both get gapless numbers; a webhook delivery is
//! sent by one server only, on its schedule, and one whose server died
//! mid-send is taken over once its claim runs out; a session and a token
//! revocation hold across servers; a server killed under load leaves every
//! acknowledged write to the other, which goes on. A server whose key files
//! are not the others' refuses to start.
//!
//! On SQLite these tests return at once: a database file is one server's
//! (its data directory's lock).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode};
use chrono::Datelike;
use common::app::StaffClient;
use common::served::Served;
use common::world::World;
use common::*;
use liftdesk::auth::shared_keys::SHARED_KEY_FILES;
use liftdesk::services::clients::ClientInput;
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::task::JoinSet;

const PASSWORD: &str = "motdepasse-solide";
const CENTER_BODY_TYPE: &str = "panne";

/// Two servers on one database, and the fixtures' view of it.
struct Pair {
    first_dir: TempDir,
    second_dir: TempDir,
    first: Served,
    second: Served,
    org: Org,
    world: World,
}

/// Whether the run is on PostgreSQL; says why the test does nothing if not.
fn shared_database() -> bool {
    let shared = common::engine::on_postgres();
    if !shared {
        eprintln!("SQLite : une base est à un seul serveur ; ces essais sont ceux de PostgreSQL.");
    }
    shared
}

/// The second server's data directory, on the first one's database, with
/// the first one's key files (what an administrator copies).
fn second_dir_of(first: &Path) -> TempDir {
    let second = tempfile::tempdir().expect("temp dir");
    common::engine::share_database(first, second.path());
    for name in SHARED_KEY_FILES {
        std::fs::copy(first.join(name), second.path().join(name)).expect("copy of a key file");
    }
    second
}

/// An organization, then two servers started with `args` on its database.
fn pair(args: &[&str]) -> Pair {
    let first_dir = tempfile::tempdir().expect("temp dir");
    let org = init_org(first_dir.path(), "Durand", "claire@durand.fr");
    let first = Served::start(first_dir.path(), first_dir.path().join("serve.log"), args);
    let second_dir = second_dir_of(first_dir.path());
    let second = Served::start(second_dir.path(), second_dir.path().join("serve.log"), args);
    let world = World::of_store(&open_store(first_dir.path()), &org.agency_id);
    Pair {
        first_dir,
        second_dir,
        first,
        second,
        org,
        world,
    }
}

impl Pair {
    /// The first server for even `n`, the second for odd.
    fn server(&self, n: usize) -> &Served {
        if n.is_multiple_of(2) {
            &self.first
        } else {
            &self.second
        }
    }
}

async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// `POST /api/partners/calls` with the center's key.
async fn send_call(base: String, key: String, reference: String) -> (u16, Value) {
    let response = http_client()
        .post(format!("{base}/api/partners/calls"))
        .bearer_auth(key)
        .json(&json!({
            "reference": reference,
            "equipement": "asc 1",
            "type": CENTER_BODY_TYPE,
            "description": "Cabine bloquée entre deux étages",
        }))
        .send()
        .await
        .expect("call request");
    json_of(response).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reference_sent_to_both_servers_at_once_opens_one_call() {
    if !shared_database() {
        return;
    }
    let pair = pair(&[]);
    pair.world.lift("ASC 1", None).await;
    let key = pair.world.call_center_key("Centre de nuit").await;

    let mut sends = JoinSet::new();
    for reference in 0..10 {
        for n in 0..4 {
            let base = pair.server(n).base_url.clone();
            let (key, reference) = (key.clone(), format!("NUIT-{reference}"));
            sends.spawn(async move {
                let answer = send_call(base, key, reference.clone()).await;
                (reference, answer)
            });
        }
    }
    let mut by_reference: BTreeMap<String, Vec<(u16, Value)>> = BTreeMap::new();
    while let Some(done) = sends.join_next().await {
        let (reference, answer) = done.expect("send");
        by_reference.entry(reference).or_default().push(answer);
    }
    assert_eq!(by_reference.len(), 10);
    for (reference, answers) in &by_reference {
        let mut statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 200, 200, 201], "{reference}: {answers:?}");
        let ids: BTreeSet<&str> = answers.iter().map(|(_, body)| str_of(body, "id")).collect();
        assert_eq!(ids.len(), 1, "{reference}: one call, {answers:?}");
        assert!(
            answers
                .iter()
                .all(|(_, body)| body["reference"] == json!(reference)
                    && body["statut"] == json!("ouverte")),
            "{answers:?}"
        );
    }
    let db = open_db(pair.first_dir.path());
    let calls: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM calls WHERE agency_id = ?1",
            liftdesk::store::params![pair.org.agency_id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(calls, 10, "one call per reference, none twice");
}

/// Calls are taken under their agency's lock and the store's lock shared:
/// while a write holds one agency's lock, another agency's calls go
/// through and that agency's wait; while a write of the whole store holds
/// its lock, every call waits. Ordered by the holder's end, not by a
/// duration.
#[tokio::test(flavor = "multi_thread")]
async fn calls_of_different_agencies_are_taken_side_by_side() {
    if !shared_database() {
        return;
    }
    let pair = pair(&[]);
    pair.world.lift("ASC 1", None).await;
    let key_a = pair.world.call_center_key("Centre A").await;
    let other = init_org(pair.first_dir.path(), "Martin", "paul@martin.fr");
    let store = open_store(pair.first_dir.path());
    let world_b = World::of_store(&store, &other.agency_id);
    world_b.lift("ASC 1", None).await;
    let key_b = world_b.call_center_key("Centre B").await;
    let base = pair.second.base_url.clone();

    /// Holds a lock for 3 s on a blocking thread; when it let go.
    fn hold(
        store: liftdesk::store::Store,
        agency: Option<String>,
    ) -> tokio::task::JoinHandle<Instant> {
        tokio::task::spawn_blocking(move || {
            let sql = "SELECT pg_sleep(3)";
            match agency {
                Some(agency) => store.inspect_execute_for_agency(&agency, sql, []),
                None => store.inspect_execute(sql, []),
            }
            .expect("lock held");
            Instant::now()
        })
    }
    /// Until the holder's `pg_sleep` runs: its transaction's locks, taken
    /// by the statements sent before it on its connection, are held.
    fn until_held(store: &liftdesk::store::Store) {
        for _ in 0..200 {
            let running = store
                .inspect_rows(
                    "SELECT count(*) FROM pg_stat_activity
                      WHERE query = 'SELECT pg_sleep(3)' AND state = 'active'",
                    [],
                    |r| r.get::<i64>(0),
                )
                .expect("pg_stat_activity");
            if running.first().is_some_and(|n| *n > 0) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the lock was never held");
    }
    async fn call_done(base: String, key: String, reference: &str) -> Instant {
        let (status, body) = send_call(base, key, reference.to_owned()).await;
        assert_eq!(status, 201, "{body}");
        Instant::now()
    }

    // Agency A's lock held: B's call goes through, A's waits.
    let holder = hold(store.clone(), Some(pair.org.agency_id.clone()));
    tokio::task::block_in_place(|| until_held(&store));
    let a = tokio::spawn(call_done(base.clone(), key_a.clone(), "A-1"));
    let b_done = call_done(base.clone(), key_b.clone(), "B-1").await;
    let released = holder.await.expect("holder");
    let a_done = a.await.expect("call A");
    assert!(b_done < released, "B waited for A's lock");
    assert!(a_done > released, "A's call did not wait for A's lock");

    // The whole store's lock held: every agency's call waits.
    let holder = hold(store.clone(), None);
    tokio::task::block_in_place(|| until_held(&store));
    let b_done = call_done(base.clone(), key_b.clone(), "B-2").await;
    let released = holder.await.expect("holder");
    assert!(
        b_done > released,
        "B's call did not wait for the store's lock"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn invoices_issued_through_both_servers_get_gapless_numbers() {
    if !shared_database() {
        return;
    }
    let pair = pair(&[]);
    pair.world
        .client(ClientInput {
            client_id: Some("CLI-000042".to_owned()),
            nom: Some("Syndic Dupont".to_owned()),
            adresse: Some(Some("12 rue de la Paix, 75002 Paris".to_owned())),
            siren: Some(Some("732829320".to_owned())),
            supprime: Some(false),
            ..ClientInput::default()
        })
        .await;
    let mut drafts = Vec::new();
    for n in 0..16 {
        drafts.push(
            pair.world
                .draft_invoice(
                    "CLI-000042",
                    vec![World::line(
                        "Visite d'entretien",
                        1.0,
                        100.0 + n as f64,
                        None,
                    )],
                )
                .await,
        );
    }
    let on_first =
        StaffClient::sign_in_at(&pair.first.base_url, "claire@durand.fr", PASSWORD).await;
    let on_second = on_first.at(&pair.second.base_url);
    let clients = Arc::new([on_first, on_second]);
    // Each server's read cache holds the list of issued invoices (empty),
    // read twice: the second answer from memory.
    for client in clients.iter() {
        for _ in 0..2 {
            let (status, page) = client.get("/invoices?status=emise").await;
            assert_eq!(status, 200, "{page}");
            assert_eq!(page["total"], json!(0), "{page}");
        }
    }
    let mut issues = JoinSet::new();
    for (n, draft) in drafts[..15].iter().enumerate() {
        let (clients, draft) = (clients.clone(), draft.clone());
        issues.spawn(async move {
            clients[n % 2]
                .post(&format!("/invoices/{draft}/issue"), json!({}))
                .await
        });
    }
    while let Some(done) = issues.join_next().await {
        let (status, body) = done.expect("issue");
        assert_eq!(status, 201, "{body}");
    }
    // The first server keeps the list of 15, then the last invoice is
    // issued through the second only: the first sees it at once (its kept
    // answer is keyed by what its reads see, any server's commit included).
    for _ in 0..2 {
        let (_, page) = clients[0].get("/invoices?status=emise").await;
        assert_eq!(page["total"], json!(15), "{page}");
    }
    let (status, body) = clients[1]
        .post(&format!("/invoices/{}/issue", drafts[15]), json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    for client in clients.iter() {
        let (_, page) = client.get("/invoices?status=emise").await;
        assert_eq!(page["total"], json!(16), "{page}");
    }
    let year = chrono::Utc::now().year();
    let mut numbers = Vec::new();
    for draft in &drafts {
        let (status, detail) = clients[0].get(&format!("/invoices/{draft}")).await;
        assert_eq!(status, 200, "{detail}");
        numbers.push(str_of(&detail["invoice"], "number").to_owned());
    }
    numbers.sort();
    let expected: Vec<String> = (1..=16).map(|n| format!("FA-{year}-{n:06}")).collect();
    assert_eq!(numbers, expected, "gapless, none twice");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_and_a_revocation_hold_on_both_servers() {
    if !shared_database() {
        return;
    }
    let pair = pair(&[]);
    // A session opened on the first server works on the second.
    let on_first =
        StaffClient::sign_in_at(&pair.first.base_url, "claire@durand.fr", PASSWORD).await;
    let on_second = on_first.at(&pair.second.base_url);
    let (status, session) = on_second.get("/session").await;
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["agency"]["id"], json!(pair.org.agency_id));

    // A token made on the second server opens the first; revoked on the
    // first, the second refuses it at once.
    let (status, created) = on_second
        .post("/keys/tokens", json!({ "name": "Tableur" }))
        .await;
    assert_eq!(status, 201, "{created}");
    let token = str_of(&created, "token").to_owned();
    let me = |base: &str| {
        http_client()
            .get(format!("{base}/api/v2/me"))
            .bearer_auth(&token)
            .send()
    };
    for served in [&pair.first, &pair.second] {
        let (status, body) = json_of(me(&served.base_url).await.expect("me")).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = on_first
        .post(
            &format!("/keys/tokens/{}/revoke", str_of(&created, "id")),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    for served in [&pair.second, &pair.first] {
        let (status, body) = json_of(me(&served.base_url).await.expect("me")).await;
        assert_eq!(status, 401, "{body}");
    }

    // A call center's key used on both servers (each keeps it as a hint
    // for its next calls), revoked on the first: the second refuses it at
    // once, for a new call, a reference it already sent, and a body it
    // would refuse.
    pair.world.lift("ASC 1", None).await;
    let (status, created) = on_second
        .post(
            "/keys/call-center-keys",
            json!({ "name": "Centre révoqué" }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let key = str_of(&created, "key").to_owned();
    for (n, served) in [&pair.first, &pair.second].into_iter().enumerate() {
        let (status, body) =
            send_call(served.base_url.clone(), key.clone(), format!("REV-{n}")).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = on_first
        .post(
            &format!("/keys/call-center-keys/{}/revoke", str_of(&created, "id")),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let refused = json!({
        "error": "Authentification requise : clé de centre d'appels manquante, inconnue ou révoquée."
    });
    for reference in ["REV-1", "REV-2"] {
        let (status, body) = send_call(
            pair.second.base_url.clone(),
            key.clone(),
            reference.to_owned(),
        )
        .await;
        assert_eq!((status, &body), (401, &refused), "{reference}");
    }
    let (status, body) =
        send_call(pair.first.base_url.clone(), key.clone(), "REV-0".to_owned()).await;
    assert_eq!((status, &body), (401, &refused));

    // Signed out on the second server: the first refuses the cookie too.
    let (status, _) = on_second.delete("/session").await;
    assert!(matches!(status, 200 | 204), "{status}");
    let (status, _) = on_first.get("/session").await;
    assert_eq!(status, 401);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_whose_keys_are_not_the_others_refuses_to_start() {
    if !shared_database() {
        return;
    }
    let pair = pair(&[]);
    drop(pair.second);
    // Without the key files: refused, and no new key made.
    let bare = tempfile::tempdir().expect("temp dir");
    common::engine::share_database(pair.first_dir.path(), bare.path());
    let said = common::served::refused(bare.path(), &["--bind", "127.0.0.1:0"]);
    assert!(
        said.contains("n'a pas leur clé sheet-secret.key : copiez-la depuis le dossier de données d'un autre serveur avant de démarrer celui-ci (docs/deployment.md)."),
        "{said}"
    );
    assert!(!bare.path().join("sheet-secret.key").exists());
    // With another key: refused.
    std::fs::write(bare.path().join("sheet-secret.key"), [7u8; 32]).expect("key");
    let said = common::served::refused(bare.path(), &["--bind", "127.0.0.1:0"]);
    assert!(
        said.contains("sheet-secret.key n'est pas celle des autres serveurs Liftdesk de la base"),
        "{said}"
    );
    // With the first server's keys: it starts.
    for name in SHARED_KEY_FILES {
        std::fs::copy(pair.first_dir.path().join(name), bare.path().join(name)).expect("copy");
    }
    let third = Served::start(bare.path(), bare.path().join("serve.log"), &[]);
    let (status, _) = json_of(
        http_client()
            .get(third.url("/api/v2/me"))
            .bearer_auth(&pair.org.admin_token)
            .send()
            .await
            .expect("me"),
    )
    .await;
    assert_eq!(status, 200);
    drop(pair.second_dir);
}

/// One request as the receiver got it.
#[derive(Debug, Clone)]
struct Arrival {
    delivery: String,
    at: Instant,
}

/// A webhook receiver in the test: it notes every arrival; `answer` says
/// what to answer the `n`-th arrival of a delivery (1 for the first).
struct Receiver {
    url: String,
    arrivals: Arc<Mutex<Vec<Arrival>>>,
}

impl Receiver {
    async fn start<F, Fut>(answer: F) -> Receiver
    where
        F: Fn(usize) -> Fut + Clone + Send + Sync + 'static,
        Fut: std::future::Future<Output = StatusCode> + Send,
    {
        let arrivals: Arc<Mutex<Vec<Arrival>>> = Arc::default();
        let noted = arrivals.clone();
        let app = axum::Router::new().route(
            "/hooks",
            axum::routing::post(move |headers: HeaderMap| {
                let (noted, answer) = (noted.clone(), answer.clone());
                async move {
                    let delivery = headers
                        .get("x-service-livraison")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_owned();
                    let nth = {
                        let mut noted = noted.lock().expect("arrivals");
                        noted.push(Arrival {
                            delivery: delivery.clone(),
                            at: Instant::now(),
                        });
                        noted.iter().filter(|a| a.delivery == delivery).count()
                    };
                    answer(nth).await
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}/hooks", listener.local_addr().expect("address"));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Receiver { url, arrivals }
    }

    fn arrivals(&self) -> Vec<Arrival> {
        self.arrivals.lock().expect("arrivals").clone()
    }
}

/// Subscribes the receiver to the agency's events through `served`; the
/// subscription's id.
async fn subscribe(served: &Served, token: &str, url: &str) -> String {
    let (status, body) = json_of(
        http_client()
            .post(served.url("/api/v2/webhooks"))
            .bearer_auth(token)
            .json(&json!({ "url": url, "events": ["appel.clos"] }))
            .send()
            .await
            .expect("subscribe"),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    str_of(&body, "id").to_owned()
}

/// The subscription's deliveries as `served` lists them, by id.
async fn deliveries(served: &Served, token: &str, subscription: &str) -> BTreeMap<String, Value> {
    let (status, body) = json_of(
        http_client()
            .get(served.url(&format!(
                "/api/v2/webhooks/{subscription}/deliveries?limit=200"
            )))
            .bearer_auth(token)
            .send()
            .await
            .expect("deliveries"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|d| (str_of(d, "id").to_owned(), d.clone()))
        .collect()
}

/// Waits (bounded) until `count` deliveries are listed and all delivered.
async fn wait_all_delivered(
    served: &Served,
    token: &str,
    subscription: &str,
    count: usize,
    limit: Duration,
) -> BTreeMap<String, Value> {
    let started = Instant::now();
    loop {
        let listed = deliveries(served, token, subscription).await;
        if listed.len() == count && listed.values().all(|d| d["status"] == json!("livree")) {
            return listed;
        }
        assert!(
            started.elapsed() < limit,
            "not all delivered within {limit:?}: {listed:#?}\nlog:\n{}",
            served.log_text()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn each_delivery_is_sent_by_one_server_on_its_schedule() {
    if !shared_database() {
        return;
    }
    let args = [
        "--insecure-webhooks",
        "--webhook-retry-schedule",
        "2s",
        "--connectivity-probe",
        "off",
    ];
    let pair = pair(&args);
    // Every delivery's first arrival fails (500): its retry, 2 s later,
    // is due on both servers at once.
    let receiver = Receiver::start(|nth| async move {
        if nth == 1 {
            StatusCode::INTERNAL_SERVER_ERROR
        } else {
            StatusCode::OK
        }
    })
    .await;
    let token = &pair.org.admin_token;
    let subscription = subscribe(&pair.first, token, &receiver.url).await;
    const PINGS: usize = 12;
    for n in 0..PINGS {
        let (status, body) = json_of(
            http_client()
                .post(
                    pair.server(n)
                        .url(&format!("/api/v2/webhooks/{subscription}/test")),
                )
                .bearer_auth(token)
                .send()
                .await
                .expect("test send"),
        )
        .await;
        assert_eq!(status / 100, 2, "{body}");
    }
    let listed = wait_all_delivered(
        &pair.second,
        token,
        &subscription,
        PINGS,
        Duration::from_secs(60),
    )
    .await;
    // Let a second send, were there one, arrive.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let arrivals = receiver.arrivals();
    for (id, delivery) in &listed {
        let times: Vec<Instant> = arrivals
            .iter()
            .filter(|a| &a.delivery == id)
            .map(|a| a.at)
            .collect();
        assert_eq!(
            times.len(),
            2,
            "{id}: the failed attempt, then one retry: {arrivals:?}"
        );
        assert_eq!(delivery["attempts"], json!(2), "{delivery}");
        let gap = times[1] - times[0];
        assert!(
            gap >= Duration::from_millis(1900),
            "{id}: the retry on its schedule (2 s), not {gap:?}"
        );
    }
    assert_eq!(arrivals.len(), 2 * PINGS);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_delivery_whose_server_died_mid_send_is_taken_over_after_its_claim() {
    if !shared_database() {
        return;
    }
    let args = [
        "--insecure-webhooks",
        "--connectivity-probe",
        "off",
        "--webhook-claim",
        "15s",
    ];
    let first_dir = tempfile::tempdir().expect("temp dir");
    let org = init_org(first_dir.path(), "Durand", "claire@durand.fr");
    let first = Served::start(first_dir.path(), first_dir.path().join("serve.log"), &args);
    // The first arrival hangs (the server is killed meanwhile); the next
    // ones are answered.
    let receiver = Receiver::start(|nth| async move {
        if nth == 1 {
            tokio::time::sleep(Duration::from_secs(30)).await;
        }
        StatusCode::OK
    })
    .await;
    let subscription = subscribe(&first, &org.admin_token, &receiver.url).await;
    let test_send = {
        let url = first.url(&format!("/api/v2/webhooks/{subscription}/test"));
        let token = org.admin_token.clone();
        tokio::spawn(async move { http_client().post(url).bearer_auth(token).send().await })
    };
    let started = Instant::now();
    while receiver.arrivals().is_empty() {
        assert!(started.elapsed() < Duration::from_secs(20), "no send");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let claimed_at = receiver.arrivals()[0].at;
    first.kill_9();
    assert!(test_send.await.expect("task").is_err(), "the server died");

    // Another server on the same database takes it over, once the dead
    // one's claim has run out (not before: it might still be sending).
    let second_dir = second_dir_of(first_dir.path());
    let second = Served::start(
        second_dir.path(),
        second_dir.path().join("serve.log"),
        &args,
    );
    let listed = wait_all_delivered(
        &second,
        &org.admin_token,
        &subscription,
        1,
        Duration::from_secs(40),
    )
    .await;
    let arrivals = receiver.arrivals();
    assert_eq!(arrivals.len(), 2, "{arrivals:?}");
    assert_eq!(arrivals[0].delivery, arrivals[1].delivery);
    let waited = arrivals[1].at - claimed_at;
    assert!(
        waited >= Duration::from_secs(14),
        "taken over after the claim (15 s), not {waited:?}"
    );
    let delivery = listed.values().next().expect("the ping");
    assert_eq!(delivery["attempts"], json!(1), "{delivery}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_killed_under_load_leaves_every_acknowledged_call_to_the_other() {
    if !shared_database() {
        return;
    }
    // The load, not the rate limit, is what this test is about.
    let pair = pair(&["--rate-limit", "100000/10000"]);
    pair.world.lift("ASC 1", None).await;
    let key = pair.world.call_center_key("Centre de nuit").await;
    let acknowledged: Arc<Mutex<BTreeMap<String, String>>> = Arc::default();
    let sent = Arc::new(AtomicUsize::new(0));
    let mut workers = JoinSet::new();
    for worker in 0..4 {
        let base = pair.server(worker).base_url.clone();
        let (key, acknowledged, sent) = (key.clone(), acknowledged.clone(), sent.clone());
        workers.spawn(async move {
            let mut refused = 0;
            for n in 0..60 {
                let reference = format!("CHARGE-{worker}-{n}");
                sent.fetch_add(1, Ordering::SeqCst);
                let response = http_client()
                    .post(format!("{base}/api/partners/calls"))
                    .bearer_auth(&key)
                    .json(&json!({
                        "reference": reference,
                        "equipement": "ASC 1",
                        "type": "panne",
                        "description": "Porte palière bloquée",
                    }))
                    .send()
                    .await;
                let answer = match response {
                    Ok(response) => {
                        let status = response.status().as_u16();
                        response.text().await.map(|text| (status, text))
                    }
                    Err(err) => Err(err),
                };
                match answer {
                    Ok((status, text)) => {
                        assert_eq!(status, 201, "{text}");
                        let body: Value = serde_json::from_str(&text).expect("json");
                        acknowledged
                            .lock()
                            .expect("acknowledged")
                            .insert(reference, str_of(&body, "id").to_owned());
                    }
                    // The killed server: its connections fail, and no
                    // answer means nothing was acknowledged.
                    Err(_) => refused += 1,
                }
            }
            refused
        });
    }
    while sent.load(Ordering::SeqCst) < 80 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let Pair {
        first,
        second,
        first_dir,
        second_dir,
        ..
    } = pair;
    first.kill_9();
    let mut refused = 0;
    while let Some(done) = workers.join_next().await {
        refused += done.expect("worker");
    }
    let acknowledged = acknowledged.lock().expect("acknowledged").clone();
    assert!(
        refused > 0,
        "the first server was killed while it was sent calls"
    );
    // The second server went on: every one of its 120 calls acknowledged.
    assert_eq!(
        acknowledged
            .keys()
            .filter(|r| r.starts_with("CHARGE-1-") || r.starts_with("CHARGE-3-"))
            .count(),
        120
    );
    // Every acknowledged call is there, as acknowledged, through the second.
    for (reference, id) in &acknowledged {
        let (status, body) = json_of(
            http_client()
                .get(second.url(&format!("/api/partners/calls/{reference}")))
                .bearer_auth(&key)
                .send()
                .await
                .expect("track"),
        )
        .await;
        assert_eq!(status, 200, "{reference}: {body}");
        assert_eq!(str_of(&body, "id"), id);
    }
    drop((first_dir, second_dir));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_rate_limit_is_counted_by_each_server() {
    if !shared_database() {
        return;
    }
    // A burst of 5: each server counts the token's calls it serves
    // (docs/deployment.md: the limit is per server).
    let pair = pair(&["--rate-limit", "60/5"]);
    for served in [&pair.first, &pair.second] {
        let mut statuses = Vec::new();
        for _ in 0..6 {
            let response = http_client()
                .get(served.url("/api/v2/me"))
                .bearer_auth(&pair.org.admin_token)
                .send()
                .await
                .expect("me");
            statuses.push(response.status().as_u16());
        }
        assert_eq!(statuses, [200, 200, 200, 200, 200, 429]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn each_document_e_mail_is_sent_by_one_server() {
    if !shared_database() {
        return;
    }
    // Every message's first delivery fails (a temporary refusal): its
    // retry, 1 s later, is due on both servers at once; a send then takes
    // 1.5 s (a slow server), while the other server looks for due messages.
    const QUOTES: usize = 6;
    let sink = common::smtp::SmtpSink::start(&["--fail-first", "6", "--delay", "1.5"]);
    let pair = pair(&[
        "--webhook-retry-schedule",
        "1s,1s,1s",
        "--connectivity-probe",
        "off",
    ]);
    let admin = StaffClient::sign_in_at(&pair.first.base_url, "claire@durand.fr", PASSWORD).await;
    let on_second = admin.at(&pair.second.base_url);
    let (status, body) = admin
        .put(
            "/agency/identity",
            json!({
                "legalName": "Durand Ascenseurs", "siret": TEST_SIRET, "address": TEST_ADDRESS,
                "vatNumber": TEST_VAT_NUMBER, "email": "contact@durand-ascenseurs.fr"
            }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin
        .put(
            "/mail-settings",
            json!({ "host": "127.0.0.1", "port": sink.port, "security": "aucune" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin
        .post(
            "/clients",
            json!({ "id": "CLI-1", "name": "Syndic Dupont", "address": "12 rue de la Paix, 75002 Paris" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, contact) = admin
        .post(
            "/contacts",
            json!({ "parentId": "CLI-1", "champs": { "nom": "Jeanne Martin", "email": "jeanne@dupont.fr" } }),
        )
        .await;
    assert_eq!(status, 201, "{contact}");
    let (status, lift) = admin
        .post(
            "/equipment",
            json!({ "number": "ASC-1", "type": "ascenseur", "clientId": "CLI-1" }),
        )
        .await;
    assert_eq!(status, 201, "{lift}");
    for n in 0..QUOTES {
        let client = if n % 2 == 0 { &admin } else { &on_second };
        let (status, quote) = client
            .post(
                "/quotes",
                json!({ "equipmentId": str_of(&lift, "id"), "origin": "panne", "object": format!("Devis {n}"),
                        "rows": [{ "label": "Contacteur", "quantity": 1, "unitPrice": 240 }] }),
            )
            .await;
        assert_eq!(status, 201, "{quote}");
        let (status, body) = client
            .post(
                &format!("/quotes/{}/send", str_of(&quote, "id")),
                json!({ "contactIds": [str_of(&contact, "id")] }),
            )
            .await;
        assert_eq!(status / 100, 2, "{body}");
    }
    let started = Instant::now();
    while sink.messages().len() < QUOTES {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{} message(s) of {QUOTES}",
            sink.messages().len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Let a second send, were there one, arrive.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let messages = sink.messages();
    let subjects: BTreeSet<String> = messages
        .iter()
        .map(|m| m["subject"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(messages.len(), QUOTES, "each once: {subjects:?}");
    assert_eq!(subjects.len(), QUOTES, "{subjects:?}");
}
