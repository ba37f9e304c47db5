//! The server entry: it takes an already-bound listener and a shutdown
//! signal, so tests bind port 0 and the desktop shell binds its own port.

use std::future::Future;
use std::path::Path;

use tokio::net::TcpListener;

use crate::config;
use crate::state::AppState;
use crate::store::Store;

/// Opens (creating and migrating if needed) the data directory's database.
pub fn open_store(data_dir: &Path) -> anyhow::Result<Store> {
    config::ensure_data_dir(data_dir)?;
    Ok(Store::open(&config::database_path(data_dir))?)
}

/// The base URL of a bound listener (`http://127.0.0.1:PORT`).
pub fn base_url_of(listener: &TcpListener) -> std::io::Result<String> {
    Ok(format!("http://{}", listener.local_addr()?))
}

/// Serves every API family and the UI until `shutdown` resolves; in-flight
/// requests finish, then the WAL is checkpointed.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let store = state.store.clone();
    // Rate-limit buckets of idle credentials are dropped once a minute.
    let limiter = state.rate_limiter.clone();
    let pruning = tokio::spawn(async move {
        let mut every_minute = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every_minute.tick().await;
            limiter.prune();
        }
    });
    // Expired import files are deleted once a minute (and at start).
    let purging = tokio::spawn(purge_import_files(state.clone()));
    // The webhooks' sync task: delivers queued events whenever online.
    let delivering = tokio::spawn(state.webhooks.clone().run());
    // Open live feeds (Server-Sent Events) end when the server stops, so the
    // graceful shutdown does not wait for them.
    let feed = state.call_feed.clone();
    let shutdown = async move {
        shutdown.await;
        feed.close();
    };
    let served = axum::serve(listener, crate::api::router(state))
        .with_graceful_shutdown(shutdown)
        .await;
    pruning.abort();
    purging.abort();
    // A send cut short here is sent again at the next start.
    delivering.abort();
    served?;
    tokio::task::spawn_blocking(move || store.checkpoint()).await??;
    tracing::info!("serveur arrêté proprement");
    Ok(())
}

/// Deletes the import files past their lifetime, and forgets their runs,
/// once a minute; the first time at once.
async fn purge_import_files(state: AppState) {
    let mut every_minute = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        every_minute.tick().await;
        let now = state.now();
        state.imports.prune(now);
        match state
            .store
            .write(move |tx| crate::services::imports::purge_expired(tx, now))
            .await
        {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, "fichiers d'import expirés supprimés"),
            Err(err) => tracing::warn!(error = %err, "purge des fichiers d'import en échec"),
        }
    }
}

/// Resolves on SIGINT (Ctrl+C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %err, "signal Ctrl+C non disponible");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::warn!(error = %err, "signal SIGTERM non disponible");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("arrêt demandé");
}
