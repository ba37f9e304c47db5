//! Liftdesk desktop shell: starts the Liftdesk server in-process on
//! 127.0.0.1 and shows the staff UI it serves in a native window; or,
//! connected to the agency's server (« Serveur de l'agence »), shows that
//! server's UI instead (`agency.rs`), back to this computer in one click.

// No console window next to the app in Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod agency;
mod notices;
mod port;
mod tray;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use anyhow::Context as _;
use liftdesk::config::DataDirLock;
use liftdesk::settings::Settings;
use liftdesk::state::{AppState, ServerControl};
use liftdesk::store::Store;
use liftdesk::{agency_server, backup, config, logging, server, settings};
use tauri::async_runtime::JoinHandle;
use tauri::{App, AppHandle, Manager as _, Url, WebviewUrl, WebviewWindowBuilder};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// How long the exit waits for in-flight requests and the WAL checkpoint.
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the exit waits for a restore or restart under way.
const RESTART_WAIT: Duration = Duration::from_secs(60);

/// The running embedded server, stopped on exit, restore or restart.
struct Server {
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
    /// The tasks holding a clone of its state (notifications, tray): they
    /// end with it, and must have let go of the database before a restore.
    companions: Vec<JoinHandle<()>>,
    port: u16,
}

/// Filled by `setup()`; read after the event loop returns.
#[derive(Default)]
struct Shell {
    host: Mutex<Option<Arc<Host>>>,
    /// The core's data-directory lock, held while the app runs (also across
    /// restarts and restores: no other Liftdesk may take the database then).
    data_dir_lock: Mutex<Option<DataDirLock>>,
    startup_failed: AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn main() -> ExitCode {
    init_logging();
    let shell = Arc::new(Shell::default());

    let app = {
        let shell = Arc::clone(&shell);
        tauri::Builder::default()
            // First: a second launch must be stopped before anything else runs.
            .plugin(single_instance())
            .plugin(tauri_plugin_notification::init())
            // The bundled page's buttons (a server's pages have no IPC).
            .invoke_handler(tauri::generate_handler![
                reessayer,
                revenir_a_cet_ordinateur
            ])
            .setup(move |app| {
                // Tauri panics when setup() returns an error: handle it here so a
                // refused database is shown to the user instead.
                if let Err(err) = start(app, &shell) {
                    let message = format!("{err:#}");
                    tracing::error!(erreur = %message, "échec du démarrage");
                    shell.startup_failed.store(true, Ordering::SeqCst);
                    show_startup_error(app.handle(), &message);
                }
                Ok(())
            })
            .build(tauri::generate_context!())
    };
    let app = match app {
        Ok(app) => app,
        Err(err) => {
            tracing::error!(erreur = %err, "impossible de créer l'application");
            return ExitCode::FAILURE;
        }
    };

    let handle = app.handle().clone();
    // Ctrl+C / SIGTERM go through the normal exit, so the database is checkpointed.
    tauri::async_runtime::spawn(async move {
        server::shutdown_signal().await;
        handle.exit(0);
    });

    let code = app.run_return(|_, _| {});

    let host = lock(&shell.host).take();
    let stopped_cleanly = match host {
        Some(host) => tauri::async_runtime::block_on(async {
            // A restore under way finishes first: quitting halfway through its
            // copy would leave the data directory without its database.
            let deadline = tokio::time::Instant::now() + RESTART_WAIT;
            while host.restarting.load(Ordering::SeqCst) && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let remote = lock(&host.remote).take();
            if let Some(remote) = remote {
                remote.stop().await;
            }
            host.stop().await
        }),
        None => true,
    };
    let failed = shell.startup_failed.load(Ordering::SeqCst)
        || RESTART_FAILED.load(Ordering::SeqCst)
        || !stopped_cleanly
        || code != 0;
    drop(lock(&shell.data_dir_lock).take());

    if failed {
        tracing::warn!(code_boucle = code, "Liftdesk s'est arrêté avec une erreur");
        ExitCode::FAILURE
    } else {
        tracing::info!("Liftdesk s'est arrêté proprement");
        ExitCode::SUCCESS
    }
}

/// Set when a restart or restore could not start the server again.
static RESTART_FAILED: AtomicBool = AtomicBool::new(false);

/// The core's logging: stderr and daily files in the data directory's
/// `journaux` folder (stderr only when that folder cannot be written).
fn init_logging() {
    let dir = data_dir().ok().map(|dir| logging::default_log_dir(&dir));
    if let Err(err) = logging::init(dir.as_deref()) {
        let _ = logging::init(None);
        tracing::warn!(erreur = %format!("{err:#}"), "journaux sur la sortie d'erreur seulement");
    }
}

/// Takes the data directory, binds the port, opens the store, starts the
/// server, then opens the window.
fn start(app: &mut App, shell: &Shell) -> anyhow::Result<()> {
    // The environment first: a typo must not leave a freshly created database behind.
    let port_override = port::env_override()?;
    let data_dir = data_dir()?;
    tracing::info!(dossier = %data_dir.display(), "dossier de données");
    // Before the database is opened: one Liftdesk (app or server) per directory.
    *lock(&shell.data_dir_lock) = Some(config::lock_data_dir(&data_dir)?);
    let settings = settings::load(&data_dir)?;
    let remote = settings.agency_server.as_deref().and_then(|raw| {
        agency_server::parse(raw)
            .inspect_err(|reason| {
                tracing::warn!(raison = %reason, "serveur de l'agence des réglages ignoré : Liftdesk de cet ordinateur")
            })
            .ok()
    });
    if let Some(server) = remote {
        return start_connected(app, shell, data_dir, port_override, server);
    }
    // Bound before the window opens, so the first page load cannot race the server.
    let (listener, fallback) = tauri::async_runtime::block_on(server::bind_with_fallback(
        listen_addr(&settings, port_override),
    ))?;

    let store = server::open_store(&data_dir)?;
    // A real installation starts empty (the first-run setup); the demo is asked for.
    if demo_requested() {
        liftdesk::demo::seed_if_empty(&store, &data_dir)?;
    } else if liftdesk::demo::is_empty(&store)? {
        tracing::info!(
            "base vide : aucune démonstration installée (LIFTDESK_DEMO=1 pour en installer une)"
        );
    }

    let host = new_host(app, shell, data_dir, port_override);
    let base_url = host.serve(listener, store, settings)?;

    let url: Url = format!("{base_url}/")
        .parse()
        .context("Adresse du serveur invalide")?;
    open_window(app, &host, url)?;

    if let Some(message) = fallback {
        port_changed(app.handle(), message);
    }
    Ok(())
}

/// Start-up connected to the agency's server: no embedded server (it
/// starts when the user comes back to this computer), the window on the
/// "connecting" page until the server answers.
fn start_connected(
    app: &mut App,
    shell: &Shell,
    data_dir: PathBuf,
    port_override: Option<u16>,
    server: Url,
) -> anyhow::Result<()> {
    tracing::info!(serveur = %agency_server::display(&server), "serveur de l'agence");
    let host = new_host(app, shell, data_dir, port_override);
    let page = agency::page("connexion", &agency_server::display(&server), None)
        .context("Adresse de la page de connexion invalide")?;
    open_window(app, &host, page)?;
    host.watch_agency_server(server);
    Ok(())
}

/// The host, its tray, and its handle for the bundled page's commands.
fn new_host(
    app: &mut App,
    shell: &Shell,
    data_dir: PathBuf,
    port_override: Option<u16>,
) -> Arc<Host> {
    let handle = app.handle().clone();
    let host = Arc::new(Host {
        app: handle.clone(),
        data_dir,
        port_override,
        server: Mutex::new(None),
        remote: Mutex::new(None),
        origin: Arc::new(Mutex::new(None)),
        tray: Mutex::new(None),
        restarting: AtomicBool::new(false),
    });
    *lock(&shell.host) = Some(Arc::clone(&host));
    app.manage(HostHandle(Arc::clone(&host)));
    match tray::install(&handle, "…") {
        Ok(tray) => *lock(&host.tray) = Some(tray),
        // The window and the server work without it.
        Err(err) => tracing::warn!(erreur = %err, "zone de notification indisponible"),
    }
    host
}

/// The main window, at `url`.
fn open_window(app: &mut App, host: &Host, url: Url) -> anyhow::Result<()> {
    let origin = Arc::clone(&host.origin);
    let window = WebviewWindowBuilder::new(app, "main", WebviewUrl::External(url))
        .title("Liftdesk")
        .inner_size(1280.0, 800.0)
        .min_inner_size(900.0, 600.0)
        // The window only ever shows the server it is on (the embedded one
        // or the agency's) and the bundled page: links elsewhere are refused.
        .on_navigation(move |target| {
            let allowed = agency::is_bundled_page(target)
                || lock(&origin).as_deref() == Some(target.origin().ascii_serialization().as_str());
            if !allowed {
                tracing::warn!(url = %target, "navigation hors de Liftdesk bloquée");
            }
            allowed
        })
        .build()
        .context("Impossible d'ouvrir la fenêtre Liftdesk")?;
    close_window_with_page(&window)
}

/// The settings' address, with `LIFTDESK_PORT`'s port if set.
fn listen_addr(settings: &Settings, port_override: Option<u16>) -> SocketAddr {
    let mut addr = settings.bind_addr();
    if let Some(port) = port_override {
        addr.set_port(port);
    }
    addr
}

/// The core's fallback message, logged by it, shown as a notification.
fn port_changed(app: &AppHandle, message: String) {
    notices::show(
        app,
        &notices::DesktopNotice {
            title: "Liftdesk : port changé".into(),
            body: message,
            urgent: false,
        },
    );
}

/// The embedded server's host: starts it, stops it, and restarts it for the
/// settings screen (restore, new port or network).
struct Host {
    app: AppHandle,
    data_dir: PathBuf,
    port_override: Option<u16>,
    server: Mutex<Option<Server>>,
    /// Connected to the agency's server: its watcher (no embedded server then).
    remote: Mutex<Option<agency::Remote>>,
    /// The server's origin: the only one the window may show.
    origin: Arc<Mutex<Option<String>>>,
    tray: Mutex<Option<tray::Tray>>,
    /// A restore or restart is under way: another one is refused.
    restarting: AtomicBool,
}

impl Host {
    /// Starts the server on `listener`; its base URL (loopback, for the window).
    fn serve(
        self: &Arc<Self>,
        listener: TcpListener,
        store: Store,
        settings: Settings,
    ) -> anyhow::Result<String> {
        let port = listener
            .local_addr()
            .context("Impossible de lire le port d'écoute")?
            .port();
        let base_url = format!("http://127.0.0.1:{port}");
        tracing::info!(url = %base_url, "serveur embarqué");
        let control: Arc<dyn ServerControl> = Arc::new(Control(Arc::downgrade(self)));
        let state = AppState::new(store, base_url.clone())
            .with_webhook_settings(liftdesk::webhooks::WebhookSettings::from_env())
            .with_listen_settings(settings)
            .with_log_dir(logging::default_log_dir(&self.data_dir))
            .with_control(control);

        let mut companions = vec![tauri::async_runtime::spawn(notices::listen(
            self.app.clone(),
            state.clone(),
        ))];
        if let Some(tray) = lock(&self.tray).clone() {
            tray.set_address(&base_url);
            companions.push(tauri::async_runtime::spawn(tray::refresh(
                tray,
                state.clone(),
            )));
        }

        let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
        let task = tauri::async_runtime::spawn(async move {
            // A dropped sender (the shell going away) also stops the server.
            let shutdown = async {
                let _ = shutdown_rx.await;
            };
            let result = server::serve(listener, state, shutdown).await;
            if let Err(err) = &result {
                // Logged now: the exit code only says it failed, later.
                tracing::error!(erreur = %format!("{err:#}"), "le serveur s'est arrêté en erreur");
            }
            result
        });
        let url: Url = format!("{base_url}/")
            .parse()
            .context("Adresse du serveur invalide")?;
        *lock(&self.origin) = Some(url.origin().ascii_serialization());
        *lock(&self.server) = Some(Server {
            shutdown: shutdown_tx,
            task,
            companions,
            port,
        });
        Ok(base_url)
    }

    /// Stops the server: in-flight requests finish, the WAL is checkpointed
    /// (bounded wait). False when it did not stop cleanly.
    async fn stop(&self) -> bool {
        let Some(server) = lock(&self.server).take() else {
            return true;
        };
        let _ = server.shutdown.send(());
        let finished = tokio::time::timeout(SHUTDOWN_TIMEOUT, server.task).await;
        // They end on the feed's closing; bounded anyway.
        for companion in server.companions {
            let _ = tokio::time::timeout(SHUTDOWN_TIMEOUT, companion).await;
        }
        match finished {
            Ok(Ok(Ok(()))) => true,
            // Already logged by the task.
            Ok(Ok(Err(_))) => false,
            Ok(Err(err)) => {
                tracing::error!(erreur = %err, "la tâche du serveur a échoué");
                false
            }
            Err(_) => {
                tracing::error!(
                    delai_s = SHUTDOWN_TIMEOUT.as_secs(),
                    "le serveur ne s'est pas arrêté à temps"
                );
                false
            }
        }
    }

    /// Stops the server, restores `from` (if given), and serves again: on
    /// the same port after a restore, on the settings' one after a restart.
    async fn restart(self: Arc<Self>, from: Option<PathBuf>) {
        let same_port = lock(&self.server).as_ref().map(|server| server.port);
        // A restore keeps the port the integrations know; a restart takes the
        // settings' one (or `LIFTDESK_PORT`'s).
        let port = if from.is_some() {
            same_port.or(self.port_override)
        } else {
            self.port_override
        };
        if !self.stop().await {
            tracing::warn!("le serveur ne s'est pas arrêté proprement avant le redémarrage");
        }
        if let Some(from) = from {
            let data_dir = self.data_dir.clone();
            let restored = tokio::task::spawn_blocking(move || {
                backup::restore_from(&liftdesk::store::Database::of(&data_dir, None), &from)
            })
            .await
            .map_err(|err| anyhow::anyhow!("La restauration s'est interrompue : {err}"))
            .and_then(|r| r.map_err(anyhow::Error::from));
            match restored {
                Ok(restored) => tracing::info!(
                    schema = restored.schema_version,
                    ancienne_base = ?restored.aside,
                    "sauvegarde restaurée"
                ),
                // restore_from left the previous database in place: serve it again.
                Err(err) => {
                    let reason = format!("{err:#}");
                    tracing::error!(erreur = %reason, "restauration en échec");
                    notices::show(
                        &self.app,
                        &notices::DesktopNotice {
                            title: "La restauration a échoué".into(),
                            body: format!("{reason} Les données d'avant sont conservées."),
                            urgent: false,
                        },
                    );
                }
            }
        }
        match self.start_again(port).await {
            Ok(base_url) => self.show(&base_url),
            Err(err) => self.could_not_serve(&err),
        }
        self.restarting.store(false, Ordering::SeqCst);
    }

    async fn start_again(self: &Arc<Self>, port: Option<u16>) -> anyhow::Result<String> {
        let data_dir = self.data_dir.clone();
        let (store, settings) = tokio::task::spawn_blocking(move || {
            anyhow::Ok((server::open_store(&data_dir)?, settings::load(&data_dir)?))
        })
        .await
        .map_err(|err| anyhow::anyhow!("Le redémarrage s'est interrompu : {err}"))??;
        let (listener, fallback) = server::bind_with_fallback(listen_addr(&settings, port)).await?;
        if let Some(message) = fallback {
            port_changed(&self.app, message);
        }
        self.serve(listener, store, settings)
    }

    /// The window shows the server again (same page, new address if changed).
    fn show(&self, base_url: &str) {
        let Some(window) = self.app.get_webview_window("main") else {
            return;
        };
        let target = window
            .url()
            .ok()
            .and_then(|current| {
                let mut url: Url = base_url.parse().ok()?;
                url.set_path(current.path());
                url.set_query(current.query());
                Some(url)
            })
            .or_else(|| format!("{base_url}/").parse().ok());
        let Some(target) = target else {
            return;
        };
        tracing::info!(url = %target, "fenêtre rechargée");
        navigate_main(&self.app, target);
    }

    /// The embedded server could not start again: the error window replaces
    /// the main one (first: closing the last window would quit), and the
    /// app will exit 1.
    fn could_not_serve(&self, err: &anyhow::Error) {
        let message = format!("{err:#}");
        tracing::error!(erreur = %message, "le serveur n'a pas pu démarrer");
        RESTART_FAILED.store(true, Ordering::SeqCst);
        show_startup_error(&self.app, &message);
        if let Some(window) = self.app.get_webview_window("main") {
            let _ = window.close();
        }
    }

    /// The window shows the agency's server from now on (watched by `agency.rs`).
    fn watch_agency_server(&self, server: Url) {
        *lock(&self.origin) = Some(server.origin().ascii_serialization());
        let tray = lock(&self.tray).clone();
        let remote = agency::Remote::start(self.app.clone(), server, tray);
        *lock(&self.remote) = Some(remote);
    }

    /// Stops the embedded server (its clean stop), then shows the agency's.
    async fn connect(self: Arc<Self>, server: Url) {
        if !self.stop().await {
            tracing::warn!("le serveur ne s'est pas arrêté proprement avant la connexion");
        }
        let previous = lock(&self.remote).take();
        if let Some(previous) = previous {
            previous.stop().await;
        }
        tracing::info!(serveur = %agency_server::display(&server), "connexion au serveur de l'agence");
        if let Some(page) = agency::page("connexion", &agency_server::display(&server), None) {
            navigate_main(&self.app, page);
        }
        self.watch_agency_server(server);
        self.restarting.store(false, Ordering::SeqCst);
    }

    /// Forgets the agency's server and starts the embedded one again.
    async fn come_back(self: Arc<Self>) {
        let remote = lock(&self.remote).take();
        if let Some(remote) = remote {
            remote.stop().await;
        }
        let data_dir = self.data_dir.clone();
        let saved = tokio::task::spawn_blocking(move || {
            let mut current = settings::load(&data_dir)?;
            current.agency_server = None;
            settings::save(&data_dir, &current)
        })
        .await;
        match saved {
            Ok(Ok(())) => {}
            Ok(Err(err)) => {
                tracing::warn!(erreur = %format!("{err:#}"), "réglages non enregistrés : le serveur de l'agence reviendra au prochain lancement")
            }
            Err(err) => tracing::warn!(erreur = %err, "réglages non enregistrés"),
        }
        tracing::info!("retour à Liftdesk sur cet ordinateur");
        match self.start_again(self.port_override).await {
            Ok(base_url) => match format!("{base_url}/").parse::<Url>() {
                Ok(url) => navigate_main(&self.app, url),
                Err(err) => tracing::warn!(erreur = %err, "adresse du serveur invalide"),
            },
            Err(err) => self.could_not_serve(&err),
        }
        self.restarting.store(false, Ordering::SeqCst);
    }

    fn request_connect(self: Arc<Self>, server: Url) -> Result<(), String> {
        if self.restarting.swap(true, Ordering::SeqCst) {
            return Err("Un redémarrage de Liftdesk est déjà en cours.".into());
        }
        // The HTTP answer goes out first: the graceful stop waits for it.
        tauri::async_runtime::spawn(self.connect(server));
        Ok(())
    }

    fn request_come_back(self: Arc<Self>) -> Result<(), String> {
        if lock(&self.remote).is_none() {
            return Err("Liftdesk montre déjà cet ordinateur.".into());
        }
        if self.restarting.swap(true, Ordering::SeqCst) {
            return Err("Un redémarrage de Liftdesk est déjà en cours.".into());
        }
        tauri::async_runtime::spawn(self.come_back());
        Ok(())
    }

    fn retry_now(&self) -> Result<(), String> {
        match lock(&self.remote).as_ref() {
            Some(remote) => {
                remote.retry_now();
                Ok(())
            }
            None => Err("Liftdesk n'est pas connecté au serveur de l'agence.".into()),
        }
    }

    fn request(self: Arc<Self>, from: Option<PathBuf>) -> Result<(), String> {
        if self.restarting.swap(true, Ordering::SeqCst) {
            return Err("Un redémarrage de Liftdesk est déjà en cours.".into());
        }
        tracing::info!(restauration = ?from, "redémarrage du serveur demandé");
        // The HTTP answer goes out first: the graceful stop waits for it.
        tauri::async_runtime::spawn(self.restart(from));
        Ok(())
    }
}

/// The settings screen's hook on the host (`AppState::with_control`).
struct Control(Weak<Host>);

impl Control {
    fn host(&self) -> Result<Arc<Host>, String> {
        self.0
            .upgrade()
            .ok_or_else(|| "Liftdesk est en train de s'arrêter.".to_owned())
    }
}

impl ServerControl for Control {
    fn restore_and_restart(&self, from: PathBuf) -> Result<(), String> {
        self.host()?.request(Some(from))
    }

    fn restart(&self) -> Result<(), String> {
        self.host()?.request(None)
    }

    fn connect_to_agency_server(&self, url: String) -> Result<(), String> {
        let server = agency_server::parse(&url)?;
        self.host()?.request_connect(server)
    }
}

/// The host, for the bundled page's commands and the tray.
struct HostHandle(Arc<Host>);

fn host_of(app: &AppHandle) -> Result<Arc<Host>, String> {
    app.try_state::<HostHandle>()
        .map(|handle| Arc::clone(&handle.0))
        .ok_or_else(|| "Liftdesk est encore en train de démarrer.".to_owned())
}

/// « Revenir à cet ordinateur » (tray, unreachable page).
pub(crate) fn back_to_this_computer(app: &AppHandle) -> Result<(), String> {
    host_of(app)?.request_come_back()
}

/// The unreachable page's « Réessayer maintenant ».
#[tauri::command]
fn reessayer(app: AppHandle) -> Result<(), String> {
    host_of(&app)?.retry_now()
}

/// The unreachable page's « Revenir à cet ordinateur ».
#[tauri::command]
fn revenir_a_cet_ordinateur(app: AppHandle) -> Result<(), String> {
    back_to_this_computer(&app)
}

/// The single-instance lock, per data directory: a second launch on the same
/// database focuses the running window and exits before binding any port;
/// Liftdesk on another data directory (tests, a second agency) runs apart.
fn single_instance() -> tauri::plugin::TauriPlugin<tauri::Wry> {
    let mut builder = tauri_plugin_single_instance::Builder::new().callback(|app, _argv, _cwd| {
        tracing::info!("Liftdesk est déjà ouvert : fenêtre existante mise au premier plan");
        show_main_window(app);
    });
    match data_dir() {
        Ok(dir) => builder = builder.dbus_id(instance_id(&dir)),
        // start() reports the bad directory; the lock falls back to the identifier.
        Err(err) => tracing::debug!(erreur = %err, "dossier de données illisible"),
    }
    builder.build()
}

/// A D-Bus name (Linux) for this data directory: stable across runs and
/// versions (FNV-1a, not the std hasher whose output may change).
fn instance_id(data_dir: &Path) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in data_dir.as_os_str().as_encoded_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fr.liftdesk.app.d{hash:016x}")
}

/// The main window shows `url` (a failure only logged: the window stays).
pub(crate) fn navigate_main(app: &AppHandle, url: Url) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    if let Err(err) = window.navigate(url) {
        tracing::warn!(erreur = %err, "fenêtre non rechargée");
    }
}

/// Brings the window forward (the error window when start-up failed).
pub(crate) fn show_main_window(app: &AppHandle) -> Option<tauri::WebviewWindow> {
    let window = app
        .get_webview_window("main")
        .or_else(|| app.get_webview_window("erreur"))?;
    // Best effort: a window manager may refuse focus; the window is still shown.
    let _ = window.unminimize();
    let _ = window.show();
    let _ = window.set_focus();
    Some(window)
}

/// The calls screen's « Nouvel appel » form (see the script's comment).
const NEW_CALL_SCRIPT: &str = include_str!("new_call.js");

pub(crate) fn open_new_call(app: &AppHandle) {
    let Some(window) = app.get_webview_window("main") else {
        show_main_window(app);
        return;
    };
    show_main_window(app);
    if let Err(err) = window.eval(NEW_CALL_SCRIPT) {
        tracing::warn!(erreur = %err, "formulaire « Nouvel appel » non ouvert");
    }
}

/// `LIFTDESK_DEMO=1` (or true/oui): install the demo on an empty database.
fn demo_requested() -> bool {
    std::env::var("LIFTDESK_DEMO").is_ok_and(|value| {
        matches!(
            value.trim().to_lowercase().as_str(),
            "1" | "true" | "oui" | "yes"
        )
    })
}

/// On WebKitGTK, wry answers a page's close request (`window.close()`, or
/// WebDriver's "Close Window") by destroying the webview only, leaving an
/// empty window and a running app: close the window too, which quits cleanly.
/// wry's "close" handler destroys the webview, which disconnects any later
/// "close" handler, so this listens to "destroy" (emitted before that).
#[cfg(target_os = "linux")]
fn close_window_with_page(window: &tauri::WebviewWindow) -> anyhow::Result<()> {
    use webkit2gtk::glib::{self, prelude::ObjectExt as _};

    let target = window.clone();
    window
        .with_webview(move |webview| {
            webview.inner().connect_local("destroy", false, move |_| {
                let target = target.clone();
                // Deferred: closing synchronously would re-enter Tauri's window
                // bookkeeping while it may be destroying this very window.
                glib::idle_add_local_once(move || {
                    // Already gone when the window itself was closed first.
                    let _ = target.close();
                });
                None
            });
        })
        .context("Impossible de configurer la fenêtre Liftdesk")
}

#[cfg(not(target_os = "linux"))]
fn close_window_with_page(_window: &tauri::WebviewWindow) -> anyhow::Result<()> {
    Ok(())
}

/// `$LIFTDESK_DATA_DIR` if set, else the same OS data directory as the
/// `liftdesk` CLI, so the admin commands and the desktop app share one
/// database (WebKit keeps its own files in Tauri's app directory, apart).
fn data_dir() -> anyhow::Result<PathBuf> {
    let explicit = std::env::var_os("LIFTDESK_DATA_DIR")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from);
    liftdesk::config::resolve_data_dir(explicit)
}

/// Shows the error on the bundled page (no dialog plugin needed); the app
/// exits non-zero once the user closes it.
fn show_startup_error(app: &AppHandle, message: &str) {
    let script = format!("window.__LIFTDESK_ERREUR__ = {};", js_string(message));
    let window = WebviewWindowBuilder::new(app, "erreur", WebviewUrl::App("index.html".into()))
        .title("Liftdesk — erreur au démarrage")
        .inner_size(640.0, 360.0)
        .initialization_script(script)
        .build()
        .context("Impossible d'ouvrir la fenêtre d'erreur")
        .and_then(|window| close_window_with_page(&window));
    if let Err(err) = window {
        // Nothing to show the message in: quit right away (the error is logged).
        tracing::error!(erreur = %format!("{err:#}"), "impossible d'afficher l'erreur");
        app.exit(1);
    }
}

/// A JavaScript string literal (JSON-compatible) for the initialisation script.
fn js_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // `<` keeps `</script>` inert; U+2028/2029 end lines in older JS.
            '<' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::{instance_id, js_string};

    #[test]
    fn the_instance_id_is_a_stable_dbus_name_per_data_directory() {
        let a = instance_id(std::path::Path::new("/home/agence/.local/share/liftdesk"));
        assert_eq!(
            a,
            instance_id(std::path::Path::new("/home/agence/.local/share/liftdesk"))
        );
        assert_ne!(a, instance_id(std::path::Path::new("/tmp/autre")));
        assert!(a.starts_with("fr.liftdesk.app.d") && a.len() == "fr.liftdesk.app.d".len() + 16);
    }

    #[test]
    fn js_string_escapes_quotes_newlines_and_script_ends() {
        assert_eq!(
            js_string("a \"b\"\n\\ </script>\u{2028}"),
            r#""a \"b\"\n\\ \u003c/script>\u2028""#
        );
    }
}
