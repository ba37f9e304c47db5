//! `/app/api/settings…` and `/app/api/diagnostics`: the settings screen of
//! the installation, for the organization administrators of the
//! organization that set it up (`services::accounts::is_installation_admin`:
//! the installation holds every organization's data). The address to give to
//! integrations, the port and the agency-network switch (they take effect
//! at the next start, or at once through the host's restart), the backup
//! folder and the daily backup, "back up now", the backups and "restore…"
//! (through the host: the server must stop), and the support diagnostics.

use std::path::{Path, PathBuf};
use ts_rs::TS;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::api::json::ApiJson;
use crate::api::wire::webhooks::{self as shared, SyncStatusWire};
use crate::auth::staff_session::StaffSession;
use crate::backup::{self, BackupFile};
use crate::error::{ApiError, AppError, AppResult};
use crate::server;
use crate::services::sessions;
use crate::settings::{self, Settings};
use crate::state::AppState;
use crate::store;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/settings", get(read).put(update))
        .route("/settings/backups", get(list).post(back_up_now))
        .route("/settings/restore", post(restore))
        .route("/settings/restart", post(restart))
        .route("/diagnostics", get(diagnostics_report))
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BackupView {
    name: String,
    path: String,
    bytes: u64,
    /// Local date and time, `AAAA-MM-JJTHH:MM:SS`.
    taken_at: Option<String>,
}

impl From<BackupFile> for BackupView {
    fn from(file: BackupFile) -> Self {
        Self {
            name: file.name,
            path: file.path.display().to_string(),
            bytes: file.bytes,
            taken_at: file
                .taken_at
                .map(|at| at.format("%Y-%m-%dT%H:%M:%S").to_string()),
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SettingsView {
    /// The address to give to integrations (API, webhooks' partners…).
    base_url: String,
    /// The port the server listens on now.
    running_port: Option<u16>,
    /// When the running server is open to the agency's network: the
    /// addresses the other computers of the agency use (`http://IP:PORT`).
    network_urls: Vec<String>,
    /// The saved settings (the port and network ones apply at the next start).
    settings: SettingsWire,
    /// Where backups go now (`serve --backup-dir`, else the settings' folder).
    backup_dir: Option<String>,
    /// Set by `serve --backup-dir`: the folder cannot be changed here.
    backup_dir_fixed: bool,
    /// The host can restart the server (desktop application): restore and
    /// the port change apply at once.
    restart_available: bool,
    /// The port or network setting saved differs from the one the server
    /// was started with.
    restart_needed: bool,
    /// The server was bound from the settings (desktop application); false
    /// under `liftdesk serve --bind`, where the port and network settings
    /// are not used.
    listens_from_settings: bool,
    backups: Vec<BackupView>,
    webhooks: Option<SyncStatusWire>,
}

#[derive(Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
struct SettingsWire {
    port: u16,
    lan: bool,
    backup_dir: Option<String>,
    daily_backup: bool,
}

impl From<&Settings> for SettingsWire {
    fn from(s: &Settings) -> Self {
        Self {
            port: s.port,
            lan: s.lan,
            backup_dir: s.backup_dir.as_ref().map(|p| p.display().to_string()),
            daily_backup: s.daily_backup,
        }
    }
}

fn running_port(state: &AppState) -> Option<u16> {
    url::Url::parse(&state.base_url)
        .ok()
        .and_then(|u| u.port_or_known_default())
}

fn load_settings(state: &AppState) -> AppResult<Settings> {
    settings::load(&state.data_dir()).map_err(ApiError::from)
}

/// The folder where "back up now" writes.
fn current_backup_dir(state: &AppState, saved: &Settings) -> Option<PathBuf> {
    state
        .backup_dir_override
        .as_deref()
        .map(Path::to_path_buf)
        .or_else(|| saved.backup_dir.clone())
}

fn backups_in(folder: Option<&Path>) -> AppResult<Vec<BackupView>> {
    let Some(folder) = folder else {
        return Ok(Vec::new());
    };
    Ok(backup::list_backups(folder)?
        .into_iter()
        .map(BackupView::from)
        .collect())
}

async fn view(state: &AppState, session: &StaffSession) -> AppResult<SettingsView> {
    let saved = load_settings(state)?;
    let folder = current_backup_dir(state, &saved);
    let port = running_port(state);
    let webhooks = if session.agency.is_some() {
        Some(shared::status_read(state, &session.principal()).await?)
    } else {
        None
    };
    Ok(SettingsView {
        base_url: state.base_url.to_string(),
        running_port: port,
        network_urls: match (&state.listen_settings, port) {
            (Some(started), Some(port)) if started.lan => settings::network_urls(port),
            _ => Vec::new(),
        },
        restart_needed: state
            .listen_settings
            .as_ref()
            .is_some_and(|started| started.port != saved.port || started.lan != saved.lan),
        listens_from_settings: state.listen_settings.is_some(),
        settings: SettingsWire::from(&saved),
        backup_dir: folder.as_ref().map(|p| p.display().to_string()),
        backup_dir_fixed: state.backup_dir_override.is_some(),
        restart_available: state.control.is_some(),
        backups: backups_in(folder.as_deref())?,
        webhooks,
    })
}

const WHAT: &str = "Le réglage de l'installation";

/// 403 unless the session's account administers the installation.
async fn require_installation_admin(
    state: &AppState,
    session: &StaffSession,
    what: &'static str,
) -> AppResult<()> {
    Ok(sessions::require_installation_admin(&state.store, &session.principal(), what).await?)
}

async fn read(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<SettingsView>> {
    require_installation_admin(&state, &session, WHAT).await?;
    Ok(Json(view(&state, &session).await?))
}

async fn update(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<SettingsWire>,
) -> AppResult<Json<SettingsView>> {
    require_installation_admin(&state, &session, WHAT).await?;
    if body.port < 1024 {
        return Err(ApiError::unprocessable(
            "Choisissez un port entre 1024 et 65535 (8080 par défaut).",
        ));
    }
    let backup_dir = match body.backup_dir.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(settings::check_backup_dir(raw).map_err(AppError::unprocessable)?),
    };
    let saved = Settings {
        port: body.port,
        lan: body.lan,
        backup_dir,
        daily_backup: body.daily_backup,
        // Not this screen's: the agency server is chosen through its own call.
        agency_server: load_settings(&state)?.agency_server,
    };
    let data_dir = state.data_dir();
    let to_save = saved.clone();
    tokio::task::spawn_blocking(move || settings::save(&data_dir, &to_save))
        .await
        .map_err(|err| AppError::Internal(anyhow::anyhow!(err.to_string())))?
        .map_err(AppError::Internal)?;
    tracing::info!(
        port = saved.port,
        lan = saved.lan,
        daily_backup = saved.daily_backup,
        "réglages enregistrés"
    );
    Ok(Json(view(&state, &session).await?))
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<Vec<BackupView>>> {
    require_installation_admin(&state, &session, WHAT).await?;
    let saved = load_settings(&state)?;
    Ok(Json(backups_in(
        current_backup_dir(&state, &saved).as_deref(),
    )?))
}

async fn back_up_now(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<(StatusCode, Json<BackupView>)> {
    require_installation_admin(&state, &session, "Sauvegarder la base").await?;
    let saved = load_settings(&state)?;
    let Some(folder) = current_backup_dir(&state, &saved) else {
        return Err(ApiError::conflict(
            "Choisissez d'abord le dossier de sauvegarde dans les paramètres.",
        ));
    };
    let written = server::backup_now(&state, folder)
        .await
        .map_err(|err| ApiError::unprocessable(err.to_string()))?;
    Ok((StatusCode::CREATED, Json(BackupView::from(written))))
}

#[derive(Deserialize)]
struct RestoreBody {
    /// The backup file (full path).
    path: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RestoreAccepted {
    schema_version: i64,
}

async fn restore(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<RestoreBody>,
) -> AppResult<(StatusCode, Json<RestoreAccepted>)> {
    require_installation_admin(&state, &session, "Restaurer une sauvegarde").await?;
    let path = PathBuf::from(body.path.trim());
    if !path.is_absolute() {
        return Err(ApiError::unprocessable(
            "Indiquez le chemin complet du fichier de sauvegarde.",
        ));
    }
    let checked = path.clone();
    let check = tokio::task::spawn_blocking(move || backup::check_backup(&checked))
        .await
        .map_err(|err| AppError::Internal(anyhow::anyhow!(err.to_string())))?
        .map_err(|err| ApiError::unprocessable(err.to_string()))?;
    let Some(control) = state.control.clone() else {
        return Err(ApiError::conflict(format!(
            "Le serveur ne peut pas redémarrer de lui-même ici : arrêtez-le puis lancez « liftdesk restore --from {} ».",
            path.display()
        )));
    };
    tracing::info!(from = %path.display(), "restauration demandée");
    control.restore_and_restart(path).map_err(|reason| {
        AppError::Conflict(format!("La restauration n'a pas pu démarrer : {reason}"))
    })?;
    Ok((
        StatusCode::ACCEPTED,
        Json(RestoreAccepted {
            schema_version: check.schema_version,
        }),
    ))
}

async fn restart(State(state): State<AppState>, session: StaffSession) -> AppResult<StatusCode> {
    require_installation_admin(&state, &session, "Le redémarrage").await?;
    let Some(control) = state.control.clone() else {
        return Err(ApiError::conflict(
            "Le serveur ne peut pas redémarrer de lui-même ici : les nouveaux réglages s'appliqueront au prochain démarrage.",
        ));
    };
    control
        .restart()
        .map_err(|reason| AppError::Conflict(format!("Le redémarrage a échoué : {reason}")))?;
    Ok(StatusCode::ACCEPTED)
}

/// `GET /app/api/diagnostics`: a French plain-text report for support,
/// with no secret (no key, token, password, address of a receiver).
async fn diagnostics_report(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Response> {
    let figures = sessions::database_figures(&state.store, &session.principal()).await?;
    let saved = load_settings(&state).ok();
    let folder = saved.as_ref().and_then(|s| current_backup_dir(&state, s));
    let db_path = state.store.path().map(Path::to_path_buf);
    let sessions::DatabaseFigures {
        schema_version: version,
        counts,
        deliveries,
    } = figures;
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let sync = state.webhooks.status();
    let mut text = String::new();
    let mut line = |s: String| {
        text.push_str(&s);
        text.push('\n');
    };
    line("Diagnostic Liftdesk".to_owned());
    line(format!("Version : {}", env!("CARGO_PKG_VERSION")));
    line(format!(
        "Établi le : {}",
        state.now().format("%Y-%m-%d %H:%M:%S UTC")
    ));
    line(format!(
        "Système : {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    ));
    line(format!(
        "Dossier de données : {}",
        state.data_dir().display()
    ));
    let schema = format!(
        "schéma {} (cette version : {})",
        version.map_or_else(|| "?".to_owned(), |v| v.to_string()),
        store::latest_schema_version()
    );
    match &db_path {
        Some(path) => {
            let wal = PathBuf::from(format!("{}-wal", path.display()));
            line(format!(
                "Base : {} ({} octets, journal {} octets), {schema}",
                path.display(),
                size(path),
                size(&wal),
            ));
        }
        None => line(format!(
            "Base : PostgreSQL {}, {schema}",
            state.store.shown()
        )),
    }
    line(format!("Adresse des intégrations : {}", state.base_url));
    if let (Some(started), Some(port)) = (&state.listen_settings, running_port(&state))
        && started.lan
    {
        line(format!(
            "Adresses sur le réseau de l'agence : {}",
            settings::network_urls(port).join(", ")
        ));
    }
    if let Some(s) = &saved {
        line(format!(
            "Réglages : port {}, réseau de l'agence {}, sauvegarde quotidienne {}",
            s.port,
            if s.lan { "ouvert" } else { "fermé" },
            if s.daily_backup {
                "active"
            } else {
                "désactivée"
            }
        ));
    }
    line(String::new());
    line("Enregistrements :".to_owned());
    for (label, count) in counts {
        line(format!("  {label} : {count}"));
    }
    line(String::new());
    line(format!(
        "Webhooks : {} (dernière vérification : {})",
        if sync.online {
            "en ligne"
        } else {
            "hors ligne"
        },
        sync.checked_at.map_or_else(
            || "jamais".to_owned(),
            |at| at.format("%Y-%m-%d %H:%M:%S UTC").to_string()
        )
    ));
    for (status, count) in deliveries {
        line(format!("  livraisons {status} : {count}"));
    }
    line(String::new());
    match &folder {
        None => line("Sauvegardes : aucun dossier choisi".to_owned()),
        Some(folder) => {
            line(format!("Sauvegardes dans {} :", folder.display()));
            let list = backup::list_backups(folder).unwrap_or_default();
            if list.is_empty() {
                line("  aucune".to_owned());
            }
            for b in list.iter().take(5) {
                line(format!("  {} ({} octets)", b.name, b.bytes));
            }
        }
    }
    if let Some(dir) = &state.log_dir {
        line(String::new());
        line(format!("Dernières lignes du journal ({}) :", dir.display()));
        for l in crate::logging::recent_lines(dir, 40) {
            line(format!("  {l}"));
        }
    }
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}
