//! The benchmarks' helpers (`bench/run.py` drives them; `bench/icount.sh`
//! runs the instruction-count gate):
//! - `memory-server`: the denominators, the same answers as Liftdesk's list
//!   routes served from rows held in memory (no database work);
//! - `queue-webhooks`: a backlog of events queued in a stopped server's
//!   database, through Liftdesk's own outbox;
//! - `webhook-latency`: commit-to-arrival time of events to a live receiver;
//! - `hook-receiver`: a local receiver that times a backlog's drain;
//! - `xlsx`: a park spreadsheet of N rows for the import case;
//! - `icount`: fixed workloads on the real router in-process, counted by
//!   callgrind.

mod icount;
mod memory;
mod webhooks;
mod xlsx;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "liftdesk-bench",
    about = "Outils des bancs d'essai de Liftdesk"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Sert depuis la mémoire les réponses que Liftdesk a données une fois.
    MemoryServer(memory::Args),
    /// Met des événements en file dans la base d'un serveur arrêté.
    QueueWebhooks(webhooks::QueueArgs),
    /// Mesure le délai entre la validation d'un changement et l'arrivée de son événement.
    WebhookLatency(webhooks::LatencyArgs),
    /// Récepteur local qui chronomètre l'arrivée de N événements.
    HookReceiver(webhooks::ReceiverArgs),
    /// Écrit un classeur de parc de N lignes.
    Xlsx(xlsx::Args),
    /// Charges fixes sur le routeur, comptées par callgrind.
    Icount {
        #[command(subcommand)]
        step: icount::Step,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::MemoryServer(args) => runtime()?.block_on(memory::run(args)),
        Command::QueueWebhooks(args) => webhooks::queue(args),
        Command::WebhookLatency(args) => runtime()?.block_on(webhooks::latency(args)),
        Command::HookReceiver(args) => runtime()?.block_on(webhooks::receive(args)),
        Command::Xlsx(args) => xlsx::write(args),
        Command::Icount { step } => icount::run(step),
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

/// The demo's credentials file, as `liftdesk demo` writes it.
pub fn credentials(data_dir: &std::path::Path) -> anyhow::Result<serde_json::Value> {
    let path: PathBuf = data_dir.join(liftdesk::config::DEMO_CREDENTIALS_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|err| anyhow::anyhow!("{} illisible : {err}", path.display()))?;
    Ok(serde_json::from_str(&text)?)
}

pub fn text<'a>(value: &'a serde_json::Value, pointer: &str) -> anyhow::Result<&'a str> {
    value
        .pointer(pointer)
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| anyhow::anyhow!("{pointer} absent des identifiants"))
}
