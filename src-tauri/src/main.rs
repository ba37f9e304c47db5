//! Liftdesk desktop shell: starts the Liftdesk server in-process on
//! 127.0.0.1 and shows the staff UI it serves in a native window.

// No console window next to the app in Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod notices;
mod port;
mod tray;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use tauri::async_runtime::JoinHandle;
use tauri::{App, AppHandle, Manager as _, Url, WebviewUrl, WebviewWindowBuilder};
use tokio::sync::oneshot;

/// How long the exit waits for in-flight requests and the WAL checkpoint.
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(5);

/// The running embedded server, stopped once the event loop has ended.
struct Server {
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
}

/// Filled by `setup()`; read after the event loop returns.
#[derive(Default)]
struct Shell {
    server: Mutex<Option<Server>>,
    /// Held while the app runs: see [`lock_data_dir`].
    data_dir_lock: Mutex<Option<std::fs::File>>,
    startup_failed: AtomicBool,
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
            .setup(move |app| {
                // Tauri panics when setup() returns an error: handle it here so a
                // refused database is shown to the user instead.
                if let Err(err) = start(app, &shell) {
                    let message = format!("{err:#}");
                    tracing::error!(erreur = %message, "échec du démarrage");
                    shell.startup_failed.store(true, Ordering::SeqCst);
                    show_startup_error(app, &message);
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
        liftdesk::server::shutdown_signal().await;
        handle.exit(0);
    });

    let code = app.run_return(|_, _| {});

    let server = shell
        .server
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    let stopped_cleanly = server.is_none_or(stop_server);

    if shell.startup_failed.load(Ordering::SeqCst) || !stopped_cleanly || code != 0 {
        tracing::warn!(code_boucle = code, "Liftdesk s'est arrêté avec une erreur");
        ExitCode::FAILURE
    } else {
        tracing::info!("Liftdesk s'est arrêté proprement");
        ExitCode::SUCCESS
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("LIFTDESK_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rmcp=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// Binds the port, opens the store, starts the server, then opens the window.
fn start(app: &mut App, shell: &Shell) -> anyhow::Result<()> {
    // Port first: a typo must not leave a freshly created database behind.
    let wanted = port::configured()?;
    let data_dir = data_dir()?;
    tracing::info!(dossier = %data_dir.display(), "dossier de données");
    *shell
        .data_dir_lock
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(lock_data_dir(&data_dir)?);
    // Bound before the window opens, so the first page load cannot race the server.
    let port::Bound {
        listener,
        port,
        busy,
    } = port::bind(wanted)?;

    let store = liftdesk::server::open_store(&data_dir)?;
    // A real installation starts empty (the first-run setup); the demo is asked for.
    if demo_requested() {
        liftdesk::demo::seed_if_empty(&store, &data_dir)?;
    } else if liftdesk::demo::is_empty(&store)? {
        tracing::info!(
            "base vide : aucune démonstration installée (LIFTDESK_DEMO=1 pour en installer une)"
        );
    }

    let base_url = format!("http://127.0.0.1:{port}");
    tracing::info!(url = %base_url, "serveur embarqué");
    let fallback = busy.map(|busy| port::fallback_message(busy, &base_url));
    if let Some(message) = &fallback {
        tracing::warn!(message = %message, "port de repli");
    }

    let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
    let state = liftdesk::state::AppState::new(store, base_url.clone())
        .with_webhook_settings(liftdesk::webhooks::WebhookSettings::from_env());
    let (tray_state, notices_state) = (state.clone(), state.clone());
    let task = tauri::async_runtime::spawn(async move {
        let listener =
            tokio::net::TcpListener::from_std(listener).context("Port d'écoute inutilisable")?;
        // A dropped sender (the shell going away) also stops the server.
        let shutdown = async {
            let _ = shutdown_rx.await;
        };
        let result = liftdesk::server::serve(listener, state, shutdown).await;
        if let Err(err) = &result {
            // Logged now: the exit code only says it failed, later.
            tracing::error!(erreur = %format!("{err:#}"), "le serveur s'est arrêté en erreur");
        }
        result
    });
    *shell
        .server
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Server {
        shutdown: shutdown_tx,
        task,
    });

    let url: Url = format!("{base_url}/")
        .parse()
        .context("Adresse du serveur invalide")?;
    let origin = url.origin();
    let window = WebviewWindowBuilder::new(app, "main", WebviewUrl::External(url))
        .title("Liftdesk")
        .inner_size(1280.0, 800.0)
        .min_inner_size(900.0, 600.0)
        // The window only ever shows the embedded server: links elsewhere are refused.
        .on_navigation(move |target| {
            let allowed = target.origin() == origin;
            if !allowed {
                tracing::warn!(url = %target, "navigation hors de Liftdesk bloquée");
            }
            allowed
        })
        .build()
        .context("Impossible d'ouvrir la fenêtre Liftdesk")?;
    close_window_with_page(&window)?;

    let handle = app.handle().clone();
    tauri::async_runtime::spawn(notices::listen(handle.clone(), notices_state));
    if let Some(message) = fallback {
        notices::show(
            &handle,
            &notices::DesktopNotice {
                title: "Liftdesk : port changé".into(),
                body: message,
                urgent: false,
            },
        );
    }
    match tray::install(&handle, &base_url) {
        Ok(tray) => {
            tauri::async_runtime::spawn(tray::refresh(tray, tray_state));
        }
        // The window and the server work without it.
        Err(err) => tracing::warn!(erreur = %err, "zone de notification indisponible"),
    }
    Ok(())
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

/// An exclusive lock on the data directory, for when the single-instance
/// plugin cannot tell (no D-Bus session bus): two servers never share a
/// database. The OS releases it when the process ends, even on a crash.
fn lock_data_dir(data_dir: &std::path::Path) -> anyhow::Result<std::fs::File> {
    liftdesk::config::ensure_data_dir(data_dir)?;
    let path = data_dir.join("liftdesk-desktop.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("Impossible de créer {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(anyhow::anyhow!(
            "Liftdesk est déjà ouvert sur ce poste avec le dossier de données {} : utilisez la fenêtre déjà ouverte.",
            data_dir.display()
        )),
        Err(std::fs::TryLockError::Error(err)) => {
            Err(err).with_context(|| format!("Impossible de verrouiller {}", path.display()))
        }
    }
}

/// A D-Bus name (Linux) for this data directory: stable across runs and
/// versions (FNV-1a, not the std hasher whose output may change).
fn instance_id(data_dir: &std::path::Path) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in data_dir.as_os_str().as_encoded_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fr.liftdesk.app.d{hash:016x}")
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
fn show_startup_error(app: &App, message: &str) {
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
        app.handle().exit(1);
    }
}

/// Signals the server to stop and waits (bounded) for the WAL checkpoint.
fn stop_server(server: Server) -> bool {
    let _ = server.shutdown.send(());
    let finished = tauri::async_runtime::block_on(async {
        tokio::time::timeout(SHUTDOWN_TIMEOUT, server.task).await
    });
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
