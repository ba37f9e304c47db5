//! The deterministic gate: fixed workloads on the real router, in-process
//! (extractors, authentication, store, serialisation), whose instructions
//! callgrind counts (the read cache off, but for `invoices-cached`, which
//! measures an answer kept in memory). Every run first makes `WARM_UP`
//! requests; `bench/icount.sh` runs each workload twice, with 20 and with 220
//! requests more, and divides the difference: the instructions of one
//! request, without the process's start-up or one-time work.
//!
//! The fixture is the small demo at a fixed instant, its invoices copied
//! until the agency holds about 8,000 (enough for the list's total and far
//! pages to show their algorithm, small enough for callgrind).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use chrono::{DateTime, TimeZone, Utc};
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::demo::DemoSize;
use liftdesk::state::AppState;
use liftdesk::store::Store;
use serde_json::{Value, json};
use tower::ServiceExt;

#[derive(clap::Subcommand)]
pub enum Step {
    /// Builds the fixture in DIR (liftdesk.db and icount.json).
    Prepare {
        #[arg(long)]
        dir: PathBuf,
    },
    /// Runs a workload on a copy of the fixture of DIR.
    Run {
        #[arg(long)]
        dir: PathBuf,
        #[arg(long, value_enum)]
        workload: Workload,
        #[arg(long)]
        iterations: u32,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Workload {
    /// GET /api/v2/invoices?status=payee&limit=50 (page 1, with its total).
    Invoices,
    /// The same list, page 100 (past the plain-offset range).
    InvoicesFar,
    /// GET /api/v2/planning of the fixture's week.
    Planning,
    /// GET /api/v2/technicians with their open calls.
    Technicians,
    /// POST /api/partners/calls with a new reference.
    CallCreate,
    /// The invoice list again, answered from the read cache (no commit
    /// between two requests).
    InvoicesCached,
}

/// The fixture's "now": a Monday morning, so the week holds visits.
fn fixed_now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 9, 0, 0)
        .single()
        .unwrap_or_default()
}

/// Requests before the counted ones, in every run.
const WARM_UP: u32 = 100;

/// Copies of each invoice added to the fixture.
const INVOICE_COPIES: u32 = 40;

pub fn run(step: Step) -> anyhow::Result<()> {
    match step {
        Step::Prepare { dir } => prepare(&dir),
        Step::Run {
            dir,
            workload,
            iterations,
        } => run_workload(&dir, workload, iterations),
    }
}

fn prepare(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join("liftdesk.db");
    anyhow::ensure!(!path.exists(), "{} existe déjà", path.display());
    let store = Store::open(&path)?;
    // In bulk: the same rows, ids included, on every run.
    let creds = liftdesk::demo::install_reproducible(&store, DemoSize::Small, 1, fixed_now())?;
    let agency = creds.agencies[0].id.clone();
    // The copies are the fixture's own rows, not an operation's: they are
    // written by SQL on a connection of the benchmark's, in one
    // transaction, while the store (whose handles keep SQL to itself) waits.
    let mut conn = rusqlite::Connection::open(&path)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let equipment: String = {
        for copy in 1..=INVOICE_COPIES {
            // Same rows under new ids and numbers (each series moved by
            // 1,000 per copy): the counters' triggers see ordinary inserts.
            tx.execute(
                "INSERT INTO invoices (id, agency_id, client_id, nature, status, number, number_year,
                    number_seq, credited_invoice_id, quote_id, buyer_name, buyer_address, buyer_siren,
                    issued_on, due_on, paid_on, total_excl_cents, total_incl_cents, created_on,
                    created_at, updated_at)
                 SELECT ?1 || '-' || id, agency_id, client_id, nature, status,
                    CASE WHEN number IS NULL THEN NULL
                         ELSE (CASE nature WHEN 'facture' THEN 'FA' ELSE 'AV' END) || '-' || number_year
                              || '-' || printf('%06d', number_seq + ?1 * 1000) END,
                    number_year, CASE WHEN number_seq IS NULL THEN NULL ELSE number_seq + ?1 * 1000 END,
                    CASE WHEN credited_invoice_id IS NULL THEN NULL ELSE ?1 || '-' || credited_invoice_id END,
                    NULL, buyer_name, buyer_address, buyer_siren, issued_on, due_on, paid_on,
                    total_excl_cents, total_incl_cents, created_on, created_at, updated_at
                 FROM invoices WHERE id NOT LIKE '%-%-%-%-%-%' ORDER BY credited_invoice_id IS NOT NULL, id",
                [copy],
            )?;
            tx.execute(
                "INSERT INTO invoice_lines (id, invoice_id, position, label, quantity_milli,
                    unit_price_cents, vat_rate_bp)
                 SELECT ?1 || '-' || id, ?1 || '-' || invoice_id, position, label, quantity_milli,
                    unit_price_cents, vat_rate_bp
                 FROM invoice_lines WHERE invoice_id NOT LIKE '%-%-%-%-%-%'",
                [copy],
            )?;
        }
        tx.query_row(
            "SELECT number FROM equipment WHERE agency_id = ? AND number IS NOT NULL ORDER BY number LIMIT 1",
            [&agency],
            |r| r.get(0),
        )?
    };
    tx.commit()?;
    drop(conn);
    store.checkpoint()?;
    let fixture = json!({
        "agency": agency,
        "token": creds.admin.api_token,
        "key": creds.call_center_keys[0],
        "equipment": equipment,
        "day": fixed_now().format("%Y-%m-%d").to_string(),
    });
    std::fs::write(
        dir.join("icount.json"),
        serde_json::to_vec_pretty(&fixture)?,
    )?;
    println!("{fixture}");
    Ok(())
}

fn run_workload(dir: &Path, workload: Workload, iterations: u32) -> anyhow::Result<()> {
    let fixture: Value = serde_json::from_slice(&std::fs::read(dir.join("icount.json"))?)?;
    // A private copy: the write workload starts from the same state each run.
    let work = std::env::temp_dir().join(format!("liftdesk-icount-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let db = work.join("liftdesk.db");
    std::fs::copy(dir.join("liftdesk.db"), &db)?;
    let result = measure(&db, &fixture, workload, iterations);
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn measure(db: &Path, fixture: &Value, workload: Workload, iterations: u32) -> anyhow::Result<()> {
    let text = |key: &str| -> anyhow::Result<String> {
        fixture[key]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| anyhow::anyhow!("{key} absent de icount.json"))
    };
    let (token, key, equipment, day) = (
        text("token")?,
        text("key")?,
        text("equipment")?,
        text("day")?,
    );
    let store = Store::open(db)?;
    // The database work is what is counted; one workload measures the
    // answers kept in memory.
    if !matches!(workload, Workload::InvoicesCached) {
        store.disable_read_cache();
    }
    let limit = RateLimit::parse("1000000/1000000").map_err(anyhow::Error::msg)?;
    let now = fixed_now();
    let state = AppState::with_rate_limit(store, "http://127.0.0.1:8080", limit)
        .with_clock(Arc::new(move || now));
    let router = liftdesk::api::router(state);
    // One thread for the requests, one for the store's blocking work: the
    // requests are sequential, and a pool that grows when a thread is slow
    // to park would vary from run to run (a thread, a malloc arena each).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(1)
        .build()?;
    runtime.block_on(async {
        // The warm-up (statement caches, the read pool's connections, the
        // first pages read, a credential's first use) is in every run.
        for n in 0..WARM_UP + iterations {
            let (method, uri, credential, body, expected) = match workload {
                Workload::Invoices | Workload::InvoicesCached => (
                    Method::GET,
                    "/api/v2/invoices?status=payee&limit=50".to_owned(),
                    &token,
                    None,
                    StatusCode::OK,
                ),
                Workload::InvoicesFar => (
                    Method::GET,
                    "/api/v2/invoices?status=payee&limit=50&page=100".to_owned(),
                    &token,
                    None,
                    StatusCode::OK,
                ),
                Workload::Planning => (
                    Method::GET,
                    format!("/api/v2/planning?day={day}"),
                    &token,
                    None,
                    StatusCode::OK,
                ),
                Workload::Technicians => (
                    Method::GET,
                    "/api/v2/technicians".to_owned(),
                    &token,
                    None,
                    StatusCode::OK,
                ),
                Workload::CallCreate => (
                    Method::POST,
                    "/api/partners/calls".to_owned(),
                    &key,
                    Some(json!({
                        "reference": format!("ICOUNT-{n:06}"),
                        "equipement": equipment,
                        "type": "panne",
                        "description": "Compte d'instructions : ouverture d'un appel.",
                    })),
                    StatusCode::CREATED,
                ),
            };
            let mut request = Request::builder()
                .method(method)
                .uri(uri)
                .header("authorization", format!("Bearer {credential}"));
            let body = match body {
                Some(json) => {
                    request = request.header("content-type", "application/json");
                    Body::from(serde_json::to_vec(&json)?)
                }
                None => Body::empty(),
            };
            let response = router.clone().oneshot(request.body(body)?).await?;
            let status = response.status();
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
            anyhow::ensure!(
                status == expected,
                "réponse {status} : {}",
                String::from_utf8_lossy(&bytes)
            );
        }
        Ok(())
    })
}
