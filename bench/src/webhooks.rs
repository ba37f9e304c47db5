//! Webhook benchmarks' helpers: a backlog queued through Liftdesk's own
//! outbox, a receiver timing its drain, and the commit-to-arrival latency.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::{Value, json};
use tokio::sync::mpsc;

#[derive(clap::Args)]
pub struct QueueArgs {
    /// Data directory of a stopped server.
    #[arg(long)]
    data_dir: PathBuf,
    /// Agency whose resolved calls give the events.
    #[arg(long)]
    agency: String,
    /// Events to queue.
    #[arg(long, default_value_t = 10_000)]
    count: usize,
    /// PostgreSQL database of the stopped servers (else the data
    /// directory's SQLite file).
    #[arg(long)]
    database: Option<String>,
    /// On PostgreSQL: the resolved calls giving the events, one `id
    /// equipment_id` per line (read by the benchmark with psql: the store
    /// keeps its SQL to itself, and this crate has no PostgreSQL client).
    #[arg(long)]
    calls: Option<PathBuf>,
}

/// Queues `count` events `appel.clos` (about resolved calls of the agency)
/// in one transaction, through `store::outbox::record_event`: one delivery
/// per live subscription of the agency, as a real change would.
pub fn queue(args: QueueArgs) -> anyhow::Result<()> {
    let database = liftdesk::store::Database::of(&args.data_dir, args.database.as_deref());
    let store = liftdesk::server::open_database(&database)?;
    // The benchmark's own reads of the database file (the store keeps its
    // SQL to itself): which calls give events, and how many deliveries wait.
    // On PostgreSQL the calls come from the file `--calls`.
    let raw = match store.path() {
        Some(path) => Some(rusqlite::Connection::open(path)?),
        None => None,
    };
    let calls: Vec<(String, String)> = match (&raw, &args.calls) {
        (Some(raw), _) => raw
            .prepare(
                "SELECT id, equipment_id FROM calls WHERE agency_id = ? AND status = 'resolue'
                 ORDER BY id LIMIT ?",
            )?
            .query_map(
                rusqlite::params![args.agency, i64::try_from(args.count).unwrap_or(i64::MAX)],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?
            .collect::<Result<_, _>>()?,
        (None, Some(file)) => std::fs::read_to_string(file)?
            .lines()
            .filter_map(|line| line.split_once(' '))
            .map(|(id, equipment)| (id.trim().to_owned(), equipment.trim().to_owned()))
            .collect(),
        (None, None) => anyhow::bail!("sur PostgreSQL, --calls donne les appels"),
    };
    let queued = store.write_blocking(|tx| -> liftdesk::store::StoreResult<usize> {
        let mut queued = 0;
        while queued < args.count {
            for (call, equipment) in &calls {
                if queued == args.count {
                    break;
                }
                liftdesk::store::outbox::record_event(
                    tx,
                    &liftdesk::domain::id::AgencyId::new(args.agency.as_str()),
                    "appel.clos",
                    call,
                    &liftdesk::domain::id::EquipmentId::new(equipment.as_str()),
                    "resolue",
                )?;
                queued += 1;
            }
            if calls.is_empty() {
                break;
            }
        }
        Ok(queued)
    })?;
    // On PostgreSQL the benchmark counts them itself (psql).
    let deliveries: Option<i64> = match &raw {
        Some(raw) => Some(raw.query_row(
            "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'en_attente'",
            [],
            |r| r.get(0),
        )?),
        None => None,
    };
    println!(
        "{}",
        json!({ "events": queued, "pendingDeliveries": deliveries })
    );
    Ok(())
}

#[derive(clap::Args)]
pub struct ReceiverArgs {
    /// Address to listen on.
    #[arg(long)]
    bind: SocketAddr,
    /// Deliveries to wait for.
    #[arg(long, default_value_t = 10_000)]
    expect: usize,
    /// Longest wait, in seconds.
    #[arg(long, default_value_t = 300)]
    timeout: u64,
}

/// Answers 200 to every POST and prints, once `expect` arrived, the time
/// between the first and the last arrival and the rate.
pub async fn receive(args: ReceiverArgs) -> anyhow::Result<()> {
    let (arrivals, mut arrived) = mpsc::unbounded_channel::<Instant>();
    let app = Router::new()
        .route("/{*path}", post(record_arrival))
        .with_state(arrivals);
    let listener = tokio::net::TcpListener::bind(args.bind).await?;
    eprintln!("récepteur prêt sur {}", listener.local_addr()?);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    let deadline = tokio::time::Instant::now() + Duration::from_secs(args.timeout);
    let mut first = None;
    let mut last = None;
    let mut count = 0;
    while count < args.expect {
        match tokio::time::timeout_at(deadline, arrived.recv()).await {
            Ok(Some(at)) => {
                first.get_or_insert(at);
                last = Some(at);
                count += 1;
            }
            _ => break,
        }
    }
    server.abort();
    let seconds = match (first, last) {
        (Some(first), Some(last)) => (last - first).as_secs_f64(),
        _ => 0.0,
    };
    // n arrivals span n - 1 intervals.
    let rate = if seconds > 0.0 {
        (count.saturating_sub(1)) as f64 / seconds
    } else {
        0.0
    };
    println!(
        "{}",
        json!({ "received": count, "seconds": seconds, "perSecond": rate })
    );
    anyhow::ensure!(
        count == args.expect,
        "{count} livraisons reçues sur {}",
        args.expect
    );
    Ok(())
}

async fn record_arrival(
    State(arrivals): State<mpsc::UnboundedSender<Instant>>,
    _body: Bytes,
) -> StatusCode {
    let _ = arrivals.send(Instant::now());
    StatusCode::OK
}

#[derive(clap::Args)]
pub struct LatencyArgs {
    /// Liftdesk's address (served with `--insecure-webhooks`).
    #[arg(long)]
    url: String,
    /// An administrator's API token of the agency.
    #[arg(long)]
    token: String,
    /// A call-center key of the agency.
    #[arg(long)]
    key: String,
    /// An equipment number of the agency.
    #[arg(long)]
    equipment: String,
    /// Events measured.
    #[arg(long, default_value_t = 200)]
    samples: usize,
}

type Arrivals = Arc<Mutex<Vec<(String, Instant)>>>;

/// Subscribes a local receiver to `appel.clos`, then, one at a time, opens a
/// call and resolves it: the latency is from the moment the resolving
/// request is sent (before its commit: an upper bound) to the event's arrival.
pub async fn latency(args: LatencyArgs) -> anyhow::Result<()> {
    let arrivals: Arrivals = Arc::default();
    let app = Router::new()
        .route("/crochet", post(record_event))
        .with_state(arrivals.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let receiver = format!("http://{}/crochet", listener.local_addr()?);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    liftdesk::webhooks::sender::install_tls_provider();
    let client = reqwest::Client::new();
    let subscribed: Value = client
        .post(format!("{}/api/v2/webhooks", args.url))
        .bearer_auth(&args.token)
        .json(&json!({ "url": receiver, "events": ["appel.clos"] }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let subscription = subscribed["id"].as_str().unwrap_or_default().to_owned();
    let run = chrono::Utc::now().timestamp_millis();
    let mut latencies = Vec::with_capacity(args.samples);
    for n in 0..args.samples {
        let opened: Value = client
            .post(format!("{}/api/partners/calls", args.url))
            .bearer_auth(&args.key)
            .json(&json!({
                "reference": format!("BANC-LAT-{run}-{n}"),
                "equipement": args.equipment,
                "type": "panne",
                "description": "Banc d'essai : délai des webhooks.",
            }))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let call = opened["id"].as_str().unwrap_or_default().to_owned();
        let sent = Instant::now();
        client
            .post(format!("{}/api/v2/calls/{call}/status", args.url))
            .bearer_auth(&args.token)
            .json(&json!({ "statut": "resolue" }))
            .send()
            .await?
            .error_for_status()?;
        let arrived = wait_for(&arrivals, &call).await?;
        latencies.push(arrived.saturating_duration_since(sent).as_secs_f64() * 1000.0);
    }
    server.abort();
    client
        .post(format!(
            "{}/api/v2/webhooks/{subscription}/revoke",
            args.url
        ))
        .bearer_auth(&args.token)
        .send()
        .await?;
    latencies.sort_by(f64::total_cmp);
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    println!(
        "{}",
        json!({ "samples": latencies.len(), "medianMs": at(0.5), "p90Ms": at(0.9), "maxMs": at(1.0) })
    );
    Ok(())
}

async fn record_event(State(arrivals): State<Arrivals>, body: Bytes) -> StatusCode {
    let at = Instant::now();
    let id = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|event| event["id"].as_str().map(str::to_owned))
        .unwrap_or_default();
    if let Ok(mut list) = arrivals.lock() {
        list.push((id, at));
    }
    StatusCode::OK
}

async fn wait_for(arrivals: &Arrivals, call: &str) -> anyhow::Result<Instant> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(list) = arrivals.lock()
            && let Some((_, at)) = list.iter().find(|(id, _)| id == call)
        {
            return Ok(*at);
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "l'événement de {call} n'est jamais arrivé"
        );
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
}
