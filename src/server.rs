//! The server entry: it takes an already-bound listener and a shutdown
//! signal, so tests bind port 0 and the desktop shell binds its own port.

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use tokio::net::TcpListener;

use crate::backup::{self, BackupFile};
use crate::config;
use crate::notices::Notice;
use crate::settings;
use crate::state::AppState;
use crate::store::{Database, Store};

/// Opens (creating and migrating if needed) the data directory's SQLite
/// database.
pub fn open_store(data_dir: &Path) -> anyhow::Result<Store> {
    open_database(&Database::of(data_dir, None))
}

/// Opens (migrating if needed) `database`: the data directory's SQLite
/// file, created if needed, or a PostgreSQL database (which must exist),
/// the data directory beside it made if needed.
pub fn open_database(database: &Database) -> anyhow::Result<Store> {
    config::ensure_data_dir(database.data_dir())?;
    Ok(Store::connect(database)?)
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
    serve_over(listener, state, shutdown, None).await
}

/// [`serve`] over HTTPS when given a TLS configuration (`serve
/// --tls-cert --tls-key`, `network::tls_config`), plain HTTP otherwise.
pub async fn serve_over(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
    tls: Option<axum_server::tls_rustls::RustlsConfig>,
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
    // The daily backup (into the settings' folder, or `--backup-dir`).
    let backing_up = tokio::spawn(daily_backups(state.clone()));
    // The webhooks' sync task: delivers queued events whenever online.
    let delivering = tokio::spawn(state.webhooks.clone().run());
    // The mail task: sends the documents' e-mails whenever online.
    let mailing = tokio::spawn(state.mail.clone().run());
    // Open live feeds (Server-Sent Events) end when the server stops, so the
    // graceful shutdown does not wait for them.
    let feed = state.call_feed.clone();
    let shutdown = async move {
        shutdown.await;
        feed.close();
    };
    // The peer's address is known to handlers (the first-run setup is
    // accepted from this computer only).
    let app = crate::api::router(state).into_make_service_with_connect_info::<SocketAddr>();
    let served: anyhow::Result<()> = match tls {
        None => axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(Into::into),
        Some(config) => {
            // The same graceful stop: no new connection, the requests under
            // way answered (30 s at most).
            let handle = axum_server::Handle::new();
            let stopping = handle.clone();
            tokio::spawn(async move {
                shutdown.await;
                stopping.graceful_shutdown(Some(std::time::Duration::from_secs(30)));
            });
            match axum_server::from_tcp_rustls(listener.into_std()?, config) {
                Ok(server) => server.handle(handle).serve(app).await.map_err(Into::into),
                Err(err) => Err(err.into()),
            }
        }
    };
    pruning.abort();
    purging.abort();
    backing_up.abort();
    // A send cut short here is sent again at the next start.
    delivering.abort();
    mailing.abort();
    served?;
    tokio::task::spawn_blocking(move || store.checkpoint()).await??;
    tracing::info!("serveur arrêté proprement");
    Ok(())
}

/// The folder where the daily backups of this server go now: the one given
/// at start (`serve --backup-dir`), else the settings' one if the daily
/// backup is on. The settings are read each time (the settings screen may
/// have changed them).
pub fn daily_backup_dir(state: &AppState) -> Option<PathBuf> {
    if let Some(dir) = &state.backup_dir_override {
        return Some(dir.to_path_buf());
    }
    match settings::load(&state.data_dir()) {
        Ok(settings) => settings.daily_backup_dir().map(Path::to_path_buf),
        Err(err) => {
            tracing::warn!(error = %err, "réglages illisibles : pas de sauvegarde quotidienne");
            None
        }
    }
}

/// Backs up into `folder` now (kept: the newest 14); a failure is logged and
/// published as a notice. For the daily task and "back up now".
pub async fn backup_now(state: &AppState, folder: PathBuf) -> anyhow::Result<BackupFile> {
    let store = state.store.clone();
    let now = state.now();
    let result =
        tokio::task::spawn_blocking(move || backup::backup_into_folder(&store, &folder, now))
            .await
            .map_err(|err| anyhow::anyhow!("La sauvegarde s'est interrompue : {err}"))
            .and_then(|r| r.map_err(anyhow::Error::from));
    if let Err(err) = &result {
        tracing::error!(error = %err, "sauvegarde en échec");
        state.notices.publish(Notice::BackupFailed {
            reason: err.to_string(),
        });
    }
    result
}

/// Whether `folder` already holds a backup taken today (local date).
fn backed_up_today(folder: &Path, now: chrono::DateTime<chrono::Utc>) -> bool {
    let today = now.with_timezone(&chrono::Local).date_naive();
    backup::list_backups(folder).is_ok_and(|list| {
        list.first()
            .and_then(|b| b.taken_at)
            .is_some_and(|at| at.date() == today)
    })
}

/// The daily backup: at start if there is none of today yet, then once a
/// day (looked at every hour, so a computer asleep at midnight catches up).
async fn daily_backups(state: AppState) {
    let mut every_hour = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        every_hour.tick().await;
        let Some(folder) = daily_backup_dir(&state) else {
            continue;
        };
        if backed_up_today(&folder, state.now()) {
            continue;
        }
        let _ = backup_now(&state, folder).await;
    }
}

/// Binds `preferred`; should the port be taken, a free port on the same
/// address, with the French message saying so (to show and log).
pub async fn bind_with_fallback(
    preferred: SocketAddr,
) -> anyhow::Result<(TcpListener, Option<String>)> {
    match TcpListener::bind(preferred).await {
        Ok(listener) => Ok((listener, None)),
        Err(err) if err.kind() == std::io::ErrorKind::AddrInUse => {
            let fallback = SocketAddr::new(preferred.ip(), 0);
            let listener = TcpListener::bind(fallback)
                .await
                .map_err(|err| anyhow::anyhow!("Impossible d'écouter sur {fallback} : {err}"))?;
            let port = listener.local_addr()?.port();
            let message = format!(
                "Le port {} est déjà utilisé par un autre programme : Liftdesk écoute cette fois sur le port {port}. Les intégrations configurées avec le port {} ne le joindront pas : libérez ce port ou choisissez-en un autre dans les paramètres.",
                preferred.port(),
                preferred.port()
            );
            tracing::warn!("{message}");
            Ok((listener, Some(message)))
        }
        Err(err) => Err(anyhow::anyhow!(
            "Impossible d'écouter sur {preferred} : {err}"
        )),
    }
}

/// Deletes the import files past their lifetime, and forgets their runs,
/// and takes out of the park the lifts whose contract has ended, once a
/// minute; the first time at once.
async fn purge_import_files(state: AppState) {
    let mut every_minute = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        every_minute.tick().await;
        let now = state.now();
        state.imports.prune(now);
        match crate::services::imports::purge(&state.store).await {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, "fichiers d'import expirés supprimés"),
            Err(err) => tracing::warn!(error = %err, "purge des fichiers d'import en échec"),
        }
        match crate::services::contracts::release_ended(&state.store).await {
            Ok(0) => {}
            Ok(lifts) => {
                tracing::info!(lifts, "appareils sortis du parc : leur contrat a pris fin")
            }
            Err(err) => tracing::warn!(error = %err, "fin de couverture des contrats en échec"),
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
