//! The denominators: Liftdesk's answers for the benchmarked list routes,
//! fetched once from the real server, held in memory as typed rows and
//! serialised again on every request. That is the cost of producing the
//! answer with no database work: the practical limit of a list endpoint.
//!
//! The rows mirror the wire types field for field; at start the re-serialised
//! answer is compared with Liftdesk's, so the two always do the same work.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use liftdesk::api::wire::list_json;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(clap::Args)]
pub struct Args {
    /// Liftdesk's address, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    from: String,
    /// An API token of the agency.
    #[arg(long)]
    token: String,
    /// Address to listen on (port 0: any).
    #[arg(long, default_value = "127.0.0.1:0")]
    bind: String,
    /// GET path of the invoice page, with its query.
    #[arg(long, default_value = "/api/v2/invoices?status=payee&limit=50")]
    invoices: String,
    /// GET path of the planning week, with its query.
    #[arg(long, default_value = "/api/v2/planning")]
    planning: String,
    /// Agency whose week is planned (X-Service-Agency), if not the default one.
    #[arg(long)]
    planning_agency: Option<String>,
    /// GET path of the technicians.
    #[arg(long, default_value = "/api/v2/technicians")]
    technicians: String,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct InvoiceRow {
    id: String,
    number: Option<String>,
    nature: String,
    status: String,
    client: Option<String>,
    buyer: Option<String>,
    issued_on: Option<String>,
    due_on: Option<String>,
    paid_on: Option<String>,
    total_excl_tax: Option<f64>,
    total_incl_tax: Option<f64>,
    link: String,
    url: String,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Page<T> {
    total: i64,
    page: u32,
    limit: u32,
    results: Vec<T>,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PlanningEntry {
    id: String,
    technician_id: Option<String>,
    day: Option<String>,
    status: Option<String>,
    equipment_id: Option<String>,
    number: Option<String>,
    building: Option<String>,
    address: Option<String>,
    deadline: Option<String>,
    overdue: Option<bool>,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Technician {
    id: String,
    name: Option<String>,
    sectors: Option<String>,
    open_calls: i64,
    on_call: bool,
    absent_until: Option<String>,
    off_until: Option<String>,
}

struct Held {
    invoices: Page<InvoiceRow>,
    planning: Vec<PlanningEntry>,
    technicians: Vec<Technician>,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    liftdesk::webhooks::sender::install_tls_provider();
    let client = reqwest::Client::new();
    let held = Held {
        invoices: fetch(&client, &args, &args.invoices, None).await?,
        planning: fetch(
            &client,
            &args,
            &args.planning,
            args.planning_agency.as_deref(),
        )
        .await?,
        technicians: fetch(&client, &args, &args.technicians, None).await?,
    };
    let app = Router::new()
        .route("/memoire/invoices", get(invoices))
        .route("/memoire/planning", get(planning))
        .route("/memoire/technicians", get(technicians))
        .with_state(Arc::new(held));
    let listener = tokio::net::TcpListener::bind(&args.bind).await?;
    println!("http://{}", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}

/// Liftdesk's answer at `path`, typed, after checking that serialising the
/// typed rows gives that answer back.
async fn fetch<T: Serialize + for<'de> Deserialize<'de>>(
    client: &reqwest::Client,
    args: &Args,
    path: &str,
    agency: Option<&str>,
) -> anyhow::Result<T> {
    let mut request = client
        .get(format!("{}{path}", args.from))
        .bearer_auth(&args.token);
    if let Some(agency) = agency {
        request = request.header("X-Service-Agency", agency);
    }
    let answer: Value = request.send().await?.error_for_status()?.json().await?;
    let typed: T = serde_json::from_value(answer.clone())?;
    anyhow::ensure!(
        serde_json::to_value(&typed)? == answer,
        "la copie en mémoire de {path} diffère de la réponse de Liftdesk"
    );
    Ok(typed)
}

// Each handler clones its rows as a handler producing them would own them,
// and writes them as Liftdesk's lists do (`list_json`: a buffer sized from
// the number of rows).
async fn invoices(State(held): State<Arc<Held>>) -> Response {
    let page = held.invoices.clone();
    list_json(&page, page.results.len())
}

async fn planning(State(held): State<Arc<Held>>) -> Response {
    let entries = held.planning.clone();
    list_json(&entries, entries.len())
}

async fn technicians(State(held): State<Arc<Held>>) -> Response {
    let technicians = held.technicians.clone();
    list_json(&technicians, technicians.len())
}
