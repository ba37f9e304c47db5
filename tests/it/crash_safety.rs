//! Crash safety of the real binary: `liftdesk serve --demo` takes a load of
//! concurrent writes from eight clients with four credentials (two call-center
//! keys, the admin's and the member's API tokens; both agencies), is killed
//! with SIGKILL once a random number of writes were acknowledged, and is
//! started again on the same data directory. Five rounds, killed at random
//! points from early to late in their 1,000 planned writes.
//!
//! The writes: calls opened by the call-center API (`POST
//! /api/partners/calls`) and half of them resolved (`appel.clos`); quotes
//! created (`POST /api/v2/quotes`, three rows) and half of them accepted
//! (`devis.accepte`); invoices created (`POST /api/v2/invoices`, two lines)
//! and three in four issued (`POST /api/v2/invoices/{id}/issue`, numbered).
//! Each write is noted before it is sent and marked acknowledged when its
//! success answer arrived; a write cut by the kill may or may not have been
//! committed.
//!
//! After every restart, in one read transaction of the database:
//! - `PRAGMA integrity_check` is `ok` and `PRAGMA foreign_key_check` is empty;
//! - every acknowledged write is there, complete, with the data sent: the
//!   call (center, reference, equipment, description), the quote with exactly
//!   its three rows, the invoice with exactly its two lines and the totals of
//!   those lines; an acknowledged resolution, acceptance or issue is in its
//!   target state with its timestamp (an issued invoice: number, issue and due
//!   days, buyer);
//! - nothing half-written and nothing unasked: every call, quote and invoice
//!   made since the demo was seeded is one this test sent; every quote has
//!   three rows, every invoice (the demo's too) at least one line and an
//!   invoice of this test exactly two; a state change is only found where it
//!   was asked, with its timestamp and exactly one audit entry, and each
//!   object of the test has exactly one creation audit entry;
//! - every invoice series (agency, nature, year) is numbered 1..=n without a
//!   gap or a double, its counter (`invoice_counters`) says n, and the day
//!   counts kept by triggers (`invoice_day_counts`) match the invoices;
//! - the outbox holds exactly one `appel.clos` per resolved call of the test
//!   and one `devis.accepte` per accepted quote of the test, each with the
//!   object's agency, equipment and status in its body, nothing else since
//!   the demo; each event has exactly one delivery for the subscription of
//!   its agency (its receiver is down: deliveries wait, none is removed).
//!
//! The rounds share the data directory: each restart must recover a
//! database that already went through earlier kills, and the invariants are
//! checked on everything written so far. At the end one invoice per agency
//! is issued through the API after the last restart: it takes the next
//! number of its series.
//!
//! The kill points come from a seed, printed; `LIFTDESK_CRASH_SEED=<n>`
//! replays one.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::served::{Served, demo_credentials};
use common::str_of;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde_json::{Value, json};
use tokio::sync::Notify;
use tokio::task::JoinSet;

/// Writes planned per round, spread over the workers.
const PLANNED_WRITES: usize = 1_000;
const WORKERS: usize = 8;
/// Acknowledged writes after which the server is killed: (name, from, to).
const KILL_WINDOWS: [(&str, usize, usize); 5] = [
    ("early", 20, 120),
    ("first quarter", 200, 300),
    ("midway", 400, 600),
    ("third quarter", 650, 800),
    ("late", 850, 980),
];
/// Bound on a round's wait for its kill point (a hung server fails the test).
const ROUND_LIMIT: Duration = Duration::from_secs(60);
/// How many rows a quote of this test has, and lines an invoice.
const QUOTE_ROWS: usize = 3;
const INVOICE_LINES: usize = 2;

/// What the demo gives the test, and what it reads once in the database.
#[derive(Clone)]
struct Fixture {
    admin_token: String,
    member_token: String,
    center_keys: [String; 2],
    /// `call_centers.id` of each key.
    center_ids: [String; 2],
    agencies: [String; 2],
    /// (id, number) of an equipment of each agency.
    equipment: [(String, String); 2],
    /// `client_ref` of an active client of each agency.
    clients: [String; 2],
}

/// One line of a quote or invoice as sent.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    label: String,
    quantity: i64,
    unit_price_cents: i64,
    vat_rate_bp: i64,
}

impl Line {
    fn wire(&self) -> Value {
        json!({
            "label": self.label,
            "quantity": self.quantity,
            "unitPrice": self.unit_price_cents as f64 / 100.0,
            "vatRate": self.vat_rate_bp as f64 / 100.0,
        })
    }
}

/// Totals (excl., incl. tax, cents) of lines whose VAT falls on whole cents.
fn totals(lines: &[Line]) -> (i64, i64) {
    let excl: i64 = lines.iter().map(|l| l.quantity * l.unit_price_cents).sum();
    let vat: i64 = lines
        .iter()
        .map(|l| {
            let base = l.quantity * l.unit_price_cents;
            assert_eq!(base * l.vat_rate_bp % 10_000, 0, "VAT on whole cents");
            base * l.vat_rate_bp / 10_000
        })
        .sum();
    (excl, excl + vat)
}

#[derive(Clone, Debug)]
struct CallAttempt {
    reference: String,
    center: usize,
    description: String,
    acked: Option<String>,
}

#[derive(Clone, Debug)]
struct DocAttempt {
    /// The quote's object, or the invoice's first line label: unique.
    tag: String,
    agency: usize,
    lines: Vec<Line>,
    acked: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Change {
    Resolve,
    Accept,
    Issue,
}

#[derive(Clone, Debug)]
struct ChangeAttempt {
    change: Change,
    id: String,
    acked: bool,
}

/// Every write sent, in every round.
#[derive(Default)]
struct Ledger {
    calls: Vec<CallAttempt>,
    quotes: Vec<DocAttempt>,
    invoices: Vec<DocAttempt>,
    changes: Vec<ChangeAttempt>,
    /// Invoice id -> the number read through the API after its issue.
    numbers: BTreeMap<String, String>,
}

type Shared = Arc<Mutex<Ledger>>;

fn ledger(shared: &Shared) -> std::sync::MutexGuard<'_, Ledger> {
    shared.lock().expect("ledger")
}

/// The answer to a write, or nothing when the connection broke (the kill).
enum Outcome {
    Answered(u16, Value),
    Lost,
}

async fn send(request: reqwest::RequestBuilder) -> Outcome {
    let Ok(response) = request.send().await else {
        return Outcome::Lost;
    };
    let status = response.status().as_u16();
    match response.bytes().await {
        Ok(bytes) => Outcome::Answered(
            status,
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned())),
        ),
        Err(_) => Outcome::Lost,
    }
}

#[derive(Clone, Copy)]
enum Role {
    /// Opens calls with the center's key; resolves every other one with the
    /// token.
    Calls { center: usize, member: bool },
    /// Creates quotes in the agency; accepts every other one.
    Quotes { agency: usize, member: bool },
    /// Creates invoices in the agency; issues three in four.
    Invoices { agency: usize, member: bool },
}

const ROLES: [Role; WORKERS] = [
    Role::Calls {
        center: 0,
        member: false,
    },
    Role::Calls {
        center: 1,
        member: true,
    },
    Role::Quotes {
        agency: 0,
        member: false,
    },
    Role::Quotes {
        agency: 0,
        member: true,
    },
    Role::Quotes {
        agency: 1,
        member: false,
    },
    Role::Invoices {
        agency: 0,
        member: false,
    },
    Role::Invoices {
        agency: 0,
        member: true,
    },
    Role::Invoices {
        agency: 1,
        member: false,
    },
];

struct Worker {
    round: usize,
    index: usize,
    role: Role,
    base_url: String,
    fixture: Fixture,
    ledger: Shared,
    acked: Arc<AtomicUsize>,
    kill_at: usize,
    kill: Arc<Notify>,
    client: reqwest::Client,
}

impl Worker {
    fn token(&self, member: bool) -> &str {
        if member {
            &self.fixture.member_token
        } else {
            &self.fixture.admin_token
        }
    }

    fn post_v2(&self, member: bool, agency: usize, path: &str) -> reqwest::RequestBuilder {
        self.client
            .post(format!("{}/api/v2{path}", self.base_url))
            .bearer_auth(self.token(member))
            .header("X-Service-Agency", &self.fixture.agencies[agency])
    }

    /// Counts an acknowledged write; the one that reaches the kill point
    /// wakes the killer.
    fn ack(&self) {
        if self.acked.fetch_add(1, Ordering::SeqCst) + 1 == self.kill_at {
            self.kill.notify_one();
        }
    }

    /// Sends writes until the budget is spent or the server is gone. An
    /// answer other than the documented success is an error.
    async fn run(self, budget: usize) -> Result<(), String> {
        let mut sent = 0;
        let mut n = 0;
        while sent < budget {
            let id = match self.role {
                Role::Calls { center, .. } => self.open_call(center, n).await?,
                Role::Quotes { agency, member } => self.create_quote(agency, member, n).await?,
                Role::Invoices { agency, member } => self.create_invoice(agency, member, n).await?,
            };
            sent += 1;
            let Some(id) = id else { return Ok(()) };
            let change = match (self.role, n % 4) {
                (Role::Calls { member, .. }, 0 | 2) => Some((Change::Resolve, member, 0)),
                (Role::Quotes { agency, member }, 1 | 3) => Some((Change::Accept, member, agency)),
                (Role::Invoices { agency, member }, 0..=2) => Some((Change::Issue, member, agency)),
                _ => None,
            };
            if let Some((change, member, agency)) = change
                && sent < budget
            {
                sent += 1;
                if !self.change(change, member, agency, &id).await? {
                    return Ok(());
                }
            }
            n += 1;
        }
        Ok(())
    }

    fn tag(&self, n: usize) -> String {
        format!("r{} w{} n{n}", self.round, self.index)
    }

    async fn open_call(&self, center: usize, n: usize) -> Result<Option<String>, String> {
        let reference = format!("CRASH-{}", self.tag(n).replace(' ', "-"));
        let description = format!("Ascenseur bloqué au 3e étage ({}).", self.tag(n));
        let at = {
            let mut ledger = ledger(&self.ledger);
            ledger.calls.push(CallAttempt {
                reference: reference.clone(),
                center,
                description: description.clone(),
                acked: None,
            });
            ledger.calls.len() - 1
        };
        let request = self
            .client
            .post(format!("{}/api/partners/calls", self.base_url))
            .bearer_auth(&self.fixture.center_keys[center])
            .json(&json!({
                "reference": reference,
                "equipement": self.fixture.equipment[0].1,
                "type": "panne",
                "description": description,
            }));
        match send(request).await {
            Outcome::Lost => Ok(None),
            Outcome::Answered(201, body) if body["reference"] == json!(reference) => {
                let id = str_of(&body, "id").to_owned();
                ledger(&self.ledger).calls[at].acked = Some(id.clone());
                self.ack();
                Ok(Some(id))
            }
            Outcome::Answered(status, body) => Err(format!("call {reference}: {status} {body}")),
        }
    }

    async fn create_quote(
        &self,
        agency: usize,
        member: bool,
        n: usize,
    ) -> Result<Option<String>, String> {
        let object = format!("Crash {} : remise en état", self.tag(n));
        let lines = vec![
            Line {
                label: format!("Main-d'œuvre {}", self.tag(n)),
                quantity: 1 + (n % 3) as i64,
                unit_price_cents: 8_500,
                vat_rate_bp: 2_000,
            },
            Line {
                label: "Contacteur de porte".to_owned(),
                quantity: 2,
                unit_price_cents: 12_345,
                vat_rate_bp: 2_000,
            },
            Line {
                label: "Déplacement".to_owned(),
                quantity: 1,
                unit_price_cents: 4_000,
                vat_rate_bp: 1_000,
            },
        ];
        let at = {
            let mut ledger = ledger(&self.ledger);
            ledger.quotes.push(DocAttempt {
                tag: object.clone(),
                agency,
                lines: lines.clone(),
                acked: None,
            });
            ledger.quotes.len() - 1
        };
        let request = self.post_v2(member, agency, "/quotes").json(&json!({
            "equipmentId": self.fixture.equipment[agency].0,
            "origin": "panne",
            "object": object,
            "rows": lines.iter().map(Line::wire).collect::<Vec<_>>(),
        }));
        self.created(request, |ledger, id| ledger.quotes[at].acked = Some(id))
            .await
            .map_err(|e| format!("quote {object}: {e}"))
    }

    async fn create_invoice(
        &self,
        agency: usize,
        member: bool,
        n: usize,
    ) -> Result<Option<String>, String> {
        let lines = vec![
            Line {
                label: format!("Crash {} : visite de dépannage", self.tag(n)),
                quantity: 1,
                unit_price_cents: 18_000,
                vat_rate_bp: 2_000,
            },
            Line {
                label: "Fourniture".to_owned(),
                quantity: 1 + (n % 2) as i64,
                unit_price_cents: 6_550,
                vat_rate_bp: 1_000,
            },
        ];
        let tag = lines[0].label.clone();
        let at = {
            let mut ledger = ledger(&self.ledger);
            ledger.invoices.push(DocAttempt {
                tag: tag.clone(),
                agency,
                lines: lines.clone(),
                acked: None,
            });
            ledger.invoices.len() - 1
        };
        let request = self.post_v2(member, agency, "/invoices").json(&json!({
            "clientId": self.fixture.clients[agency],
            "lines": lines.iter().map(Line::wire).collect::<Vec<_>>(),
        }));
        self.created(request, |ledger, id| ledger.invoices[at].acked = Some(id))
            .await
            .map_err(|e| format!("invoice {tag}: {e}"))
    }

    /// A REST creation: 201 with `id` and `ok` true.
    async fn created(
        &self,
        request: reqwest::RequestBuilder,
        note: impl FnOnce(&mut Ledger, String),
    ) -> Result<Option<String>, String> {
        match send(request).await {
            Outcome::Lost => Ok(None),
            Outcome::Answered(201, body) if body["ok"] == json!(true) => {
                let id = str_of(&body, "id").to_owned();
                note(&mut ledger(&self.ledger), id.clone());
                self.ack();
                Ok(Some(id))
            }
            Outcome::Answered(status, body) => Err(format!("{status} {body}")),
        }
    }

    /// Resolves, accepts or issues `id`; false when the server is gone.
    async fn change(
        &self,
        change: Change,
        member: bool,
        agency: usize,
        id: &str,
    ) -> Result<bool, String> {
        let at = {
            let mut ledger = ledger(&self.ledger);
            ledger.changes.push(ChangeAttempt {
                change,
                id: id.to_owned(),
                acked: false,
            });
            ledger.changes.len() - 1
        };
        let request = match change {
            Change::Resolve => self
                .post_v2(member, agency, &format!("/calls/{id}/status"))
                .json(&json!({ "statut": "resolue" })),
            Change::Accept => self.post_v2(member, agency, &format!("/quotes/{id}/accept")),
            Change::Issue => self.post_v2(member, agency, &format!("/invoices/{id}/issue")),
        };
        match send(request).await {
            Outcome::Lost => Ok(false),
            Outcome::Answered(201, body)
                if body["id"] == json!(id) && body["ok"] == json!(true) =>
            {
                ledger(&self.ledger).changes[at].acked = true;
                self.ack();
                if change == Change::Issue {
                    return self.read_number(member, agency, id).await;
                }
                Ok(true)
            }
            Outcome::Answered(status, body) => Err(format!("{change:?} {id}: {status} {body}")),
        }
    }
}

impl Worker {
    /// Reads the number an issued invoice got, as a client would show it;
    /// false when the server is gone.
    async fn read_number(&self, member: bool, agency: usize, id: &str) -> Result<bool, String> {
        let request = self
            .client
            .get(format!("{}/api/v2/invoices/{id}", self.base_url))
            .bearer_auth(self.token(member))
            .header("X-Service-Agency", &self.fixture.agencies[agency]);
        match send(request).await {
            Outcome::Lost => Ok(false),
            Outcome::Answered(200, body) if body["status"] == json!("emise") => {
                let number = str_of(&body, "number").to_owned();
                ledger(&self.ledger).numbers.insert(id.to_owned(), number);
                Ok(true)
            }
            Outcome::Answered(status, body) => Err(format!("read {id}: {status} {body}")),
        }
    }
}

/// The server as every round starts it: the demo (seeded only into an empty
/// directory), no rate limit in the way of the load, webhooks to a plain
/// http receiver on the loopback.
fn start(dir: &Path, logs: &Path, name: &str) -> Served {
    Served::start(
        dir,
        logs.join(format!("{name}.log")),
        &[
            "--demo",
            "--rate-limit",
            "1000000/100000",
            "--insecure-webhooks",
            "--connectivity-probe",
            "off",
        ],
    )
}

fn read_only(dir: &Path) -> Connection {
    Connection::open_with_flags(
        common::db_path(dir),
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .expect("open database")
}

fn fixture(dir: &Path) -> Fixture {
    let creds = demo_credentials(dir);
    let agencies = [0, 1].map(|i| str_of(&creds["agencies"][i], "id").to_owned());
    let db = read_only(dir);
    let equipment = agencies.clone().map(|agency| {
        db.query_row(
            "SELECT id, number FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL
              ORDER BY number LIMIT 1",
            [&agency],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("an equipment")
    });
    let clients = agencies.clone().map(|agency| {
        db.query_row(
            "SELECT client_ref FROM clients WHERE agency_id = ?1 AND supprime = 0
              ORDER BY client_ref LIMIT 1",
            [&agency],
            |r| r.get(0),
        )
        .expect("a client")
    });
    let center_ids = liftdesk::demo::CALL_CENTERS.map(|name| {
        db.query_row(
            "SELECT id FROM call_centers WHERE agency_id = ?1 AND name = ?2",
            params![agencies[0], name],
            |r| r.get(0),
        )
        .expect("call center")
    });
    let keys = creds["callCenterKeys"].as_array().expect("keys");
    Fixture {
        admin_token: str_of(&creds["admin"], "apiToken").to_owned(),
        member_token: str_of(&creds["member"], "apiToken").to_owned(),
        center_keys: [0, 1].map(|i| keys[i].as_str().expect("key").to_owned()),
        center_ids,
        agencies,
        equipment,
        clients,
    }
}

fn ids(db: &Connection, sql: &str) -> BTreeSet<String> {
    let mut stmt = db.prepare(sql).expect("prepare");
    stmt.query_map([], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
}

/// What exists right after the demo was seeded.
struct Baseline {
    calls: BTreeSet<String>,
    quotes: BTreeSet<String>,
    invoices: BTreeSet<String>,
    events: BTreeSet<String>,
}

fn baseline(dir: &Path) -> Baseline {
    let db = read_only(dir);
    Baseline {
        calls: ids(&db, "SELECT id FROM calls"),
        quotes: ids(&db, "SELECT id FROM quotes"),
        invoices: ids(&db, "SELECT id FROM invoices"),
        events: ids(&db, "SELECT id FROM outbox_events"),
    }
}

/// Subscribes each agency's events to a receiver that never answers (a
/// port nobody listens on): deliveries stay queued, none is removed.
async fn subscribe(served: &Served, fixture: &Fixture) {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("address").port()
    };
    let client = crate::common::http_client();
    for agency in &fixture.agencies {
        let response = client
            .post(served.url("/api/v2/webhooks"))
            .bearer_auth(&fixture.admin_token)
            .header("X-Service-Agency", agency)
            .json(&json!({
                "url": format!("http://127.0.0.1:{port}/hooks"),
                "events": ["appel.clos", "releve.termine", "devis.accepte"],
            }))
            .send()
            .await
            .expect("subscribe");
        let status = response.status().as_u16();
        let body: Value = response.json().await.expect("json");
        assert_eq!(status, 201, "{body}");
    }
}

/// One round: the load, the kill once `kill_at` writes were acknowledged
/// (and a few random milliseconds), the count of acknowledged writes.
async fn round(
    round: usize,
    served: Served,
    fixture: &Fixture,
    shared: &Shared,
    kill_at: usize,
    jitter: Duration,
) -> usize {
    let acked = Arc::new(AtomicUsize::new(0));
    let kill = Arc::new(Notify::new());
    let mut workers = JoinSet::new();
    for (index, role) in ROLES.into_iter().enumerate() {
        let worker = Worker {
            round,
            index,
            role,
            base_url: served.base_url.clone(),
            fixture: fixture.clone(),
            ledger: shared.clone(),
            acked: acked.clone(),
            kill_at,
            kill: kill.clone(),
            client: crate::common::http_client(),
        };
        workers.spawn(worker.run(PLANNED_WRITES / WORKERS));
    }
    // Until the kill point, a worker ending is an error: its answer was
    // not the documented one (or it ran out of writes, which cannot be).
    let deadline = tokio::time::Instant::now() + ROUND_LIMIT;
    loop {
        tokio::select! {
            () = kill.notified() => break,
            () = tokio::time::sleep_until(deadline) => panic!(
                "round {round}: {} writes acknowledged in {ROUND_LIMIT:?}, kill point {kill_at}\n{}",
                acked.load(Ordering::SeqCst),
                served.log_text()
            ),
            ended = workers.join_next() => match ended {
                Some(Ok(Err(error))) => panic!("round {round}: {error}\n{}", served.log_text()),
                Some(Err(panic)) => panic!("round {round}: worker panicked: {panic}"),
                Some(Ok(Ok(()))) => {}
                None => panic!(
                    "round {round}: every worker ended with {} acknowledged writes, before {kill_at}",
                    acked.load(Ordering::SeqCst)
                ),
            },
        }
    }
    tokio::time::sleep(jitter).await;
    served.kill_9();
    // The workers end on their broken connections.
    while let Some(ended) = workers.join_next().await {
        if let Err(error) = ended.expect("worker") {
            panic!("round {round}: {error}");
        }
    }
    acked.load(Ordering::SeqCst)
}

/// The audit entries of `object_type` by object and action.
fn audit_counts(db: &Connection, object_type: &str) -> BTreeMap<(String, String), i64> {
    let mut stmt = db
        .prepare(
            "SELECT object_id, action, count(*) FROM audit_log
              WHERE object_type = ?1 AND object_id IS NOT NULL GROUP BY object_id, action",
        )
        .expect("prepare");
    stmt.query_map([object_type], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
}

fn lines_of(db: &Connection, table: &str, parent: &str, id: &str) -> Vec<(i64, Line)> {
    let mut stmt = db
        .prepare(&format!(
            "SELECT position, label, quantity_milli, unit_price_cents, vat_rate_bp FROM {table}
              WHERE {parent} = ?1 ORDER BY position"
        ))
        .expect("prepare");
    stmt.query_map([id], |r| {
        let milli: i64 = r.get(2)?;
        Ok((
            r.get(0)?,
            Line {
                label: r.get(1)?,
                quantity: milli / 1000,
                unit_price_cents: r.get(3)?,
                vat_rate_bp: r.get(4)?,
            },
        ))
    })
    .expect("query")
    .collect::<Result<_, _>>()
    .expect("rows")
}

fn one(counts: &BTreeMap<(String, String), i64>, id: &str, action: &str) -> i64 {
    counts
        .get(&(id.to_owned(), action.to_owned()))
        .copied()
        .unwrap_or(0)
}

/// Counts found in the store, for the report.
#[derive(Debug, Default)]
struct Found {
    calls: usize,
    resolved: usize,
    quotes: usize,
    accepted: usize,
    invoices: usize,
    issued: usize,
    events: usize,
    unacked_committed: usize,
}

/// Every invariant of the module doc, on the database as the restarted
/// server sees it.
fn check_store(dir: &Path, fixture: &Fixture, shared: &Shared, base: &Baseline) -> Found {
    let mut db = read_only(dir);
    // One snapshot: the restarted server keeps writing delivery attempts.
    let tx = db.transaction().expect("read transaction");
    let integrity: Vec<String> = {
        let mut stmt = tx.prepare("PRAGMA integrity_check").expect("prepare");
        stmt.query_map([], |r| r.get(0))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    assert_eq!(integrity, ["ok"]);
    let broken_keys: i64 = tx
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .expect("foreign keys");
    assert_eq!(broken_keys, 0, "foreign keys all resolve");

    let ledger = ledger(shared);
    let mut found = Found::default();
    let asked: BTreeSet<(Change, &str)> = ledger
        .changes
        .iter()
        .map(|c| (c.change, c.id.as_str()))
        .collect();
    let acked_changes: BTreeSet<(Change, &str)> = ledger
        .changes
        .iter()
        .filter(|c| c.acked)
        .map(|c| (c.change, c.id.as_str()))
        .collect();
    // (event, object id) -> (agency, equipment, status) expected in the outbox.
    let mut expected_events: BTreeMap<(String, String), (String, String, String)> = BTreeMap::new();

    // -- Calls --------------------------------------------------------------
    let call_audit = audit_counts(&tx, "call");
    let by_reference: BTreeMap<&str, &CallAttempt> = ledger
        .calls
        .iter()
        .map(|c| (c.reference.as_str(), c))
        .collect();
    let mut stmt = tx
        .prepare(
            "SELECT id, reference, call_center_id, agency_id, equipment_id, description, status,
                    resolved_at
               FROM calls",
        )
        .expect("prepare");
    type CallRow = (
        String,
        String,
        Option<String>,
        String,
        String,
        String,
        String,
        Option<String>,
    );
    let calls: Vec<CallRow> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
            ))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    drop(stmt);
    let mut calls_by_reference = BTreeMap::new();
    for (id, reference, center, agency, equipment, description, status, resolved_at) in &calls {
        if base.calls.contains(id) {
            continue;
        }
        let attempt = by_reference
            .get(reference.as_str())
            .unwrap_or_else(|| panic!("call {id} ({reference}) was never sent"));
        assert!(
            calls_by_reference
                .insert(reference.clone(), id.clone())
                .is_none(),
            "{reference} opened twice"
        );
        assert_eq!(
            center.as_deref(),
            Some(fixture.center_ids[attempt.center].as_str())
        );
        assert_eq!(agency, &fixture.agencies[0]);
        assert_eq!(equipment, &fixture.equipment[0].0);
        assert_eq!(description, &attempt.description);
        assert_eq!(
            one(&call_audit, id, "ouverture"),
            1,
            "call {id} opened once"
        );
        found.calls += 1;
        if attempt.acked.is_none() {
            found.unacked_committed += 1;
        }
        let resolutions = one(&call_audit, id, "changement_statut");
        match status.as_str() {
            "ouverte" => {
                assert_eq!(resolved_at, &None, "{id}");
                assert_eq!(resolutions, 0, "{id}");
                assert!(
                    !acked_changes.contains(&(Change::Resolve, id.as_str())),
                    "call {id}: resolution acknowledged, not stored"
                );
            }
            "resolue" => {
                assert!(resolved_at.is_some(), "{id}: resolved without resoluLe");
                assert_eq!(resolutions, 1, "{id}");
                assert!(
                    asked.contains(&(Change::Resolve, id.as_str())),
                    "call {id} resolved unasked"
                );
                found.resolved += 1;
                expected_events.insert(
                    ("appel.clos".to_owned(), id.clone()),
                    (agency.clone(), equipment.clone(), "resolue".to_owned()),
                );
            }
            other => panic!("call {id}: status {other}"),
        }
    }
    for attempt in &ledger.calls {
        if let Some(id) = &attempt.acked {
            assert_eq!(
                calls_by_reference.get(&attempt.reference),
                Some(id),
                "acknowledged call {} is stored under its id",
                attempt.reference
            );
        }
    }

    // -- Quotes -------------------------------------------------------------
    let quote_audit = audit_counts(&tx, "quote");
    let quote_tags: BTreeMap<&str, &DocAttempt> =
        ledger.quotes.iter().map(|q| (q.tag.as_str(), q)).collect();
    let mut stmt = tx
        .prepare(
            "SELECT id, agency_id, equipment_id, object, number, status, accepted_at FROM quotes",
        )
        .expect("prepare");
    type QuoteRow = (
        String,
        String,
        String,
        String,
        Option<String>,
        String,
        Option<String>,
    );
    let quotes: Vec<QuoteRow> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    drop(stmt);
    let mut numbers = BTreeSet::new();
    let mut quotes_by_tag = BTreeMap::new();
    for (id, agency, equipment, object, number, status, accepted_at) in &quotes {
        let number = number
            .clone()
            .unwrap_or_else(|| panic!("quote {id} without a number"));
        assert!(
            numbers.insert((agency.clone(), number.clone())),
            "quote number {number} given twice"
        );
        let rows = lines_of(&tx, "quote_rows", "quote_id", id);
        assert!(!rows.is_empty(), "quote {id} without rows");
        if base.quotes.contains(id) {
            continue;
        }
        let attempt = quote_tags
            .get(object.as_str())
            .unwrap_or_else(|| panic!("quote {id} ({object}) was never sent"));
        assert!(quotes_by_tag.insert(object.clone(), id.clone()).is_none());
        assert_eq!(agency, &fixture.agencies[attempt.agency]);
        assert_eq!(equipment, &fixture.equipment[attempt.agency].0);
        let positions: Vec<i64> = rows.iter().map(|(p, _)| *p).collect();
        assert_eq!(positions, [1, 2, 3], "quote {id}: its {QUOTE_ROWS} rows");
        let stored: Vec<Line> = rows.into_iter().map(|(_, l)| l).collect();
        assert_eq!(stored, attempt.lines, "quote {id}: the rows sent");
        assert_eq!(one(&quote_audit, id, "creation"), 1, "quote {id}");
        found.quotes += 1;
        if attempt.acked.is_none() {
            found.unacked_committed += 1;
        }
        let acceptances = one(&quote_audit, id, "acceptation");
        match status.as_str() {
            "brouillon" => {
                assert_eq!(accepted_at, &None);
                assert_eq!(acceptances, 0);
                assert!(
                    !acked_changes.contains(&(Change::Accept, id.as_str())),
                    "quote {id}: acceptance acknowledged, not stored"
                );
            }
            "accepte" => {
                assert!(accepted_at.is_some(), "{id}");
                assert_eq!(acceptances, 1, "{id}");
                assert!(
                    asked.contains(&(Change::Accept, id.as_str())),
                    "quote {id} accepted unasked"
                );
                found.accepted += 1;
                expected_events.insert(
                    ("devis.accepte".to_owned(), id.clone()),
                    (agency.clone(), equipment.clone(), "accepte".to_owned()),
                );
            }
            other => panic!("quote {id}: status {other}"),
        }
    }
    for attempt in &ledger.quotes {
        if let Some(id) = &attempt.acked {
            assert_eq!(quotes_by_tag.get(&attempt.tag), Some(id), "{}", attempt.tag);
        }
    }

    // -- Invoices -----------------------------------------------------------
    let invoice_audit = audit_counts(&tx, "invoice");
    let invoice_tags: BTreeMap<&str, &DocAttempt> = ledger
        .invoices
        .iter()
        .map(|i| (i.tag.as_str(), i))
        .collect();
    let mut stmt = tx
        .prepare(
            "SELECT i.id, i.agency_id, c.client_ref, i.status, i.number, i.issued_on, i.due_on,
                    i.buyer_name, i.total_excl_cents, i.total_incl_cents
               FROM invoices i LEFT JOIN clients c ON c.id = i.client_id",
        )
        .expect("prepare");
    type InvoiceRow = (
        String,
        String,
        Option<String>,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        i64,
        i64,
    );
    let invoices: Vec<InvoiceRow> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
            ))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    drop(stmt);
    let mut invoices_by_tag = BTreeMap::new();
    for (id, agency, client, status, number, issued_on, due_on, buyer, excl, incl) in &invoices {
        let lines = lines_of(&tx, "invoice_lines", "invoice_id", id);
        assert!(!lines.is_empty(), "invoice {id} without lines");
        if base.invoices.contains(id) {
            continue;
        }
        let tag = &lines[0].1.label;
        let attempt = invoice_tags
            .get(tag.as_str())
            .unwrap_or_else(|| panic!("invoice {id} ({tag}) was never sent"));
        assert!(invoices_by_tag.insert(tag.clone(), id.clone()).is_none());
        assert_eq!(agency, &fixture.agencies[attempt.agency]);
        assert_eq!(
            client.as_deref(),
            Some(fixture.clients[attempt.agency].as_str())
        );
        let positions: Vec<i64> = lines.iter().map(|(p, _)| *p).collect();
        assert_eq!(positions, [1, 2], "invoice {id}: its {INVOICE_LINES} lines");
        let stored: Vec<Line> = lines.into_iter().map(|(_, l)| l).collect();
        assert_eq!(stored, attempt.lines, "invoice {id}: the lines sent");
        assert_eq!(
            (*excl, *incl),
            totals(&attempt.lines),
            "invoice {id}: totals"
        );
        assert_eq!(one(&invoice_audit, id, "creation"), 1, "invoice {id}");
        found.invoices += 1;
        if attempt.acked.is_none() {
            found.unacked_committed += 1;
        }
        let issues = one(&invoice_audit, id, "emission");
        match status.as_str() {
            "brouillon" => {
                assert_eq!((number, issued_on, due_on), (&None, &None, &None), "{id}");
                assert_eq!(issues, 0);
                assert!(
                    !acked_changes.contains(&(Change::Issue, id.as_str())),
                    "invoice {id}: issue acknowledged, not stored"
                );
            }
            "emise" => {
                assert!(
                    number.is_some() && issued_on.is_some() && due_on.is_some() && buyer.is_some(),
                    "invoice {id} issued without number, days or buyer"
                );
                assert_eq!(issues, 1, "{id}");
                assert!(
                    asked.contains(&(Change::Issue, id.as_str())),
                    "invoice {id} issued unasked"
                );
                if let Some(shown) = ledger.numbers.get(id) {
                    assert_eq!(
                        Some(shown),
                        number.as_ref(),
                        "invoice {id} keeps the number shown"
                    );
                }
                found.issued += 1;
            }
            other => panic!("invoice {id}: status {other}"),
        }
    }
    for attempt in &ledger.invoices {
        if let Some(id) = &attempt.acked {
            assert_eq!(
                invoices_by_tag.get(&attempt.tag),
                Some(id),
                "{}",
                attempt.tag
            );
        }
    }

    // Every series numbered 1..=n, its counter at n.
    let mut series: BTreeMap<(String, String, i64), Vec<i64>> = BTreeMap::new();
    {
        let mut stmt = tx
            .prepare(
                "SELECT agency_id, nature, number_year, number_seq FROM invoices
                  WHERE number IS NOT NULL ORDER BY number_seq",
            )
            .expect("prepare");
        let rows = stmt
            .query_map([], |r| {
                Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get::<_, i64>(3)?))
            })
            .expect("query");
        for row in rows {
            let (key, seq) = row.expect("row");
            series.entry(key).or_default().push(seq);
        }
    }
    for (key, seqs) in &series {
        let expected: Vec<i64> = (1..=i64::try_from(seqs.len()).expect("count")).collect();
        assert_eq!(seqs, &expected, "series {key:?} gapless, no number twice");
    }
    let counters: BTreeMap<(String, String, i64), i64> = {
        let mut stmt = tx
            .prepare("SELECT agency_id, nature, year, last_seq FROM invoice_counters")
            .expect("prepare");
        stmt.query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get(3)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    let highest: BTreeMap<(String, String, i64), i64> = series
        .iter()
        .map(|(key, seqs)| (key.clone(), seqs.len() as i64))
        .collect();
    assert_eq!(counters, highest, "each counter at its series' last number");
    let day_counts: Vec<(String, String, String, i64)> = {
        let sql = "SELECT agency_id, status, created_on, n FROM invoice_day_counts WHERE n > 0
                   ORDER BY 1, 2, 3";
        let mut stmt = tx.prepare(sql).expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    let actual_counts: Vec<(String, String, String, i64)> = {
        let sql = "SELECT agency_id, status, created_on, count(*) FROM invoices
                   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3";
        let mut stmt = tx.prepare(sql).expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    assert_eq!(
        day_counts, actual_counts,
        "day counts kept with the invoices"
    );

    // -- Outbox -------------------------------------------------------------
    let mut stmt = tx
        .prepare(
            "SELECT id, event, object_id, agency_id, equipment_id, status, body FROM outbox_events",
        )
        .expect("prepare");
    type EventRow = (
        String,
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        String,
    );
    let events: Vec<EventRow> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    drop(stmt);
    let mut seen = BTreeMap::new();
    for (id, event, object, agency, equipment, status, body) in &events {
        if base.events.contains(id) {
            continue;
        }
        let key = (event.clone(), object.clone());
        let (want_agency, want_equipment, want_status) = expected_events
            .get(&key)
            .unwrap_or_else(|| panic!("event {event} for {object}: no committed change emits it"));
        assert!(
            seen.insert(key.clone(), id.clone()).is_none(),
            "{key:?} recorded twice"
        );
        assert_eq!(
            (agency, equipment.as_ref(), status.as_ref()),
            (want_agency, Some(want_equipment), Some(want_status))
        );
        let body: Value = serde_json::from_str(body).expect("event body");
        assert_eq!(body["event"], json!(event));
        assert_eq!(body["id"], json!(object));
        assert_eq!(body["agency"], json!(want_agency));
        assert_eq!(body["equipment"], json!(want_equipment));
        assert_eq!(body["status"], json!(want_status));
        let deliveries: i64 = tx
            .query_row(
                "SELECT count(*) FROM webhook_deliveries d
                   JOIN webhook_subscriptions s ON s.id = d.subscription_id
                  WHERE d.event_id = ?1 AND s.agency_id = ?2",
                params![id, agency],
                |r| r.get(0),
            )
            .expect("deliveries");
        assert_eq!(deliveries, 1, "event {id}: one delivery");
        found.events += 1;
    }
    let missing: Vec<&(String, String)> = expected_events
        .keys()
        .filter(|key| !seen.contains_key(*key))
        .collect();
    assert!(
        missing.is_empty(),
        "committed changes without their event: {missing:?}"
    );
    let stray_deliveries: i64 = tx
        .query_row(
            "SELECT count(*) FROM webhook_deliveries d
               JOIN outbox_events e ON e.id = d.event_id
              WHERE e.event <> 'ping' AND d.subscription_id NOT IN
                    (SELECT id FROM webhook_subscriptions WHERE agency_id = e.agency_id)",
            [],
            |r| r.get(0),
        )
        .expect("stray deliveries");
    assert_eq!(stray_deliveries, 0);
    found
}

/// An invoice issued through the API after the last restart takes the next
/// number of its series.
async fn issue_one_more(served: &Served, fixture: &Fixture, dir: &Path) {
    let client = crate::common::http_client();
    for (agency, id) in fixture.agencies.iter().enumerate() {
        let year = {
            let db = read_only(dir);
            let year = i64::from(chrono::Datelike::year(&liftdesk::clock::paris_today()));
            let last: Option<i64> = db
                .query_row(
                    "SELECT last_seq FROM invoice_counters
                      WHERE agency_id = ?1 AND nature = 'facture' AND year = ?2",
                    params![id, year],
                    |r| r.get(0),
                )
                .optional()
                .expect("counter");
            let series: Option<String> = db
                .query_row(
                    "SELECT i.invoice_series FROM agencies a
                     JOIN agency_identities i ON i.id = a.identity_id WHERE a.id = ?1",
                    [id],
                    |r| r.get(0),
                )
                .expect("series");
            (year, last.unwrap_or(0), series)
        };
        let post = |path: String, body: Value| {
            client
                .post(served.url(&path))
                .bearer_auth(&fixture.admin_token)
                .header("X-Service-Agency", id)
                .json(&body)
                .send()
        };
        let response = post(
            "/api/v2/invoices".to_owned(),
            json!({
                "clientId": fixture.clients[agency],
                "lines": [{ "label": "Après le redémarrage", "quantity": 1, "unitPrice": 10 }],
            }),
        )
        .await
        .expect("create");
        assert_eq!(response.status().as_u16(), 201);
        let created: Value = response.json().await.expect("json");
        let invoice = str_of(&created, "id").to_owned();
        let response = post(format!("/api/v2/invoices/{invoice}/issue"), json!({}))
            .await
            .expect("issue");
        assert_eq!(response.status().as_u16(), 201);
        let read: Value = client
            .get(served.url(&format!("/api/v2/invoices/{invoice}")))
            .bearer_auth(&fixture.admin_token)
            .header("X-Service-Agency", id)
            .send()
            .await
            .expect("read")
            .json()
            .await
            .expect("json");
        let (year, last, series) = year;
        assert_eq!(read["status"], json!("emise"));
        let series = series.expect("each demo agency numbers in its series");
        assert_eq!(
            read["number"],
            json!(format!("FA-{series}-{year}-{:06}", last + 1)),
            "{read}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_under_load_the_server_keeps_every_acknowledged_write_and_nothing_half_done() {
    let started = Instant::now();
    let seed = std::env::var("LIFTDESK_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .expect("clock")
                .as_nanos() as u64
        });
    eprintln!("LIFTDESK_CRASH_SEED={seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let data = tempfile::tempdir().expect("data dir");
    let logs = tempfile::tempdir().expect("logs dir");
    let dir = data.path();

    let served = start(dir, logs.path(), "serve-0");
    let credentials = std::fs::read(dir.join("demo-credentials.json")).expect("credentials");
    let fixture = fixture(dir);
    let base = baseline(dir);
    assert!(base.events.is_empty(), "the demo queues no event");
    subscribe(&served, &fixture).await;
    let shared: Shared = Arc::default();

    let mut served = Some(served);
    for (index, (name, from, to)) in KILL_WINDOWS.into_iter().enumerate() {
        let round_no = index + 1;
        let kill_at = rng.random_range(from..=to);
        let jitter = Duration::from_millis(rng.random_range(0..20));
        let server = served.take().expect("server");
        let acked = round(round_no, server, &fixture, &shared, kill_at, jitter).await;

        // Restarted on the same directory, still with --demo: the demo is
        // not installed again over the data.
        let server = start(dir, logs.path(), &format!("serve-{round_no}"));
        assert_eq!(
            std::fs::read(dir.join("demo-credentials.json")).expect("credentials"),
            credentials,
            "the demo is seeded only into an empty directory"
        );
        let found = check_store(dir, &fixture, &shared, &base);
        let sent = {
            let ledger = ledger(&shared);
            ledger.calls.len() + ledger.quotes.len() + ledger.invoices.len() + ledger.changes.len()
        };
        eprintln!(
            "round {round_no} ({name}): killed at {acked} acknowledged writes (point {kill_at}, +{} ms); \
             {sent} writes sent so far; in store: {found:?}; {:.1} s",
            jitter.as_millis(),
            started.elapsed().as_secs_f64()
        );
        served = Some(server);
    }
    let server = served.take().expect("server");
    issue_one_more(&server, &fixture, dir).await;
    server.kill_9();
    eprintln!("done in {:.1} s", started.elapsed().as_secs_f64());
}
