//! The desktop as a client of the agency's server (« Serveur de l'agence »
//! in the settings): the window shows that server's pages, and a watcher
//! asks the server every few seconds for the calls call centers opened
//! (`GET /app/api/calls/notices`, with the window's session cookie). That
//! one request is also the connection's probe:
//! - no answer (or a proxy's 502/503/504): the bundled page says in French
//!   that the server is unreachable, and the watcher keeps trying; as soon
//!   as the server answers, the window goes back to the page it was on;
//! - each call opened since the previous read becomes a system
//!   notification (the server's wording: `Notice::title/body`);
//! - the tray says which server is shown and whether it answers.

use std::sync::Arc;
use std::time::Duration;

use liftdesk::agency_server;
use serde::Deserialize;
use tauri::async_runtime::JoinHandle;
use tauri::{AppHandle, Manager as _, Url};
use tokio::sync::{Notify, watch};

use crate::notices::{self, DesktopNotice};
use crate::tray::Tray;

/// How often the server is asked (and, when unreachable, tried again).
pub const PROBE_EVERY: Duration = Duration::from_secs(3);
/// Failed reads in a row before the window says the server is unreachable
/// (at once while connecting: nothing of the server is shown yet).
const FAILURES_SHOWN: u32 = 2;

/// The watcher of the server the window shows.
pub struct Remote {
    stop: watch::Sender<bool>,
    retry: Arc<Notify>,
    task: JoinHandle<()>,
}

impl Remote {
    /// Shows the "connecting" page, then the server as soon as it answers.
    pub fn start(app: AppHandle, url: Url, tray: Option<Tray>) -> Remote {
        let (stop, stopped) = watch::channel(false);
        let retry = Arc::new(Notify::new());
        let task = tauri::async_runtime::spawn(watch(app, url, tray, stopped, Arc::clone(&retry)));
        Remote { stop, retry, task }
    }

    /// « Réessayer maintenant »: the next try at once.
    pub fn retry_now(&self) {
        self.retry.notify_one();
    }

    /// Ends the watcher (bounded wait; then cut, so that a read still
    /// waiting for the server can never change the window afterwards).
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let mut task = self.task;
        if tokio::time::timeout(Duration::from_secs(5), &mut task)
            .await
            .is_err()
        {
            task.abort();
        }
    }
}

/// Where Tauri serves the bundled page: a custom scheme on Linux and
/// macOS, a local host name on Windows.
const BUNDLED_PAGE: &str = if cfg!(windows) {
    "http://tauri.localhost/index.html"
} else {
    "tauri://localhost/index.html"
};

/// The bundled page in one of its states (`splash/splash.js`):
/// `connexion` or `injoignable`, naming the server and the reason.
pub fn page(state: &str, server: &str, reason: Option<&str>) -> Option<Url> {
    let mut url = Url::parse(BUNDLED_PAGE).ok()?;
    {
        let mut query = url.query_pairs_mut();
        query.append_pair("etat", state);
        query.append_pair("serveur", server);
        if let Some(reason) = reason {
            query.append_pair("raison", reason);
        }
    }
    Some(url)
}

/// Whether `url` is the bundled page (the window may show it whichever
/// server it shows): this platform's address of it, any query.
pub fn is_bundled_page(url: &Url) -> bool {
    let Ok(page) = Url::parse(BUNDLED_PAGE) else {
        return false;
    };
    url.scheme() == page.scheme()
        && url.host_str() == page.host_str()
        && url.port() == page.port()
        && url.path() == page.path()
}

/// What the window shows now, as far as the watcher knows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    Connecting,
    Unreachable,
    Server,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NoticesAnswer {
    cursor: i64,
    notices: Vec<NoticeAnswer>,
}

#[derive(Deserialize)]
struct NoticeAnswer {
    title: String,
    body: String,
    urgent: bool,
}

/// One read: `Err` (the reason) when the server cannot be reached; the
/// next cursor and the notices when the session could read them; `None`
/// when the server answered otherwise (no session yet: the sign-in page).
async fn ask(
    app: &AppHandle,
    client: &reqwest::Client,
    server: &Url,
    cursor: Option<i64>,
) -> Result<Option<NoticesAnswer>, String> {
    let mut target = server
        .join("app/api/calls/notices")
        .map_err(|err| err.to_string())?;
    if let Some(cursor) = cursor {
        target
            .query_pairs_mut()
            .append_pair("after", &cursor.to_string());
    }
    let mut request = client.get(target);
    if let Some(cookie) = session_cookie(app, server).await {
        request = request.header(reqwest::header::COOKIE, cookie);
    }
    let answer = request
        .send()
        .await
        .map_err(|err| agency_server::reason(&err))?;
    let status = answer.status();
    if matches!(status.as_u16(), 502..=504) {
        return Err(format!("réponse {status} du serveur intermédiaire"));
    }
    if !status.is_success() {
        return Ok(None);
    }
    Ok(answer.json::<NoticesAnswer>().await.ok())
}

/// The window's cookies for the server (its session, once signed in), as
/// a `Cookie` header. Read off the async workers: WebKit answers on the
/// main thread.
async fn session_cookie(app: &AppHandle, server: &Url) -> Option<String> {
    let window = app.get_webview_window("main")?;
    let server = server.clone();
    let cookies = tauri::async_runtime::spawn_blocking(move || window.cookies_for_url(server))
        .await
        .ok()?
        .ok()?;
    let header: Vec<String> = cookies
        .iter()
        .map(|cookie| format!("{}={}", cookie.name(), cookie.value()))
        .collect();
    (!header.is_empty()).then(|| header.join("; "))
}

/// Shows `url`, unless the watcher was stopped meanwhile (the window is
/// then another's: this computer's server, or another agency server).
fn navigate(app: &AppHandle, stopped: &watch::Receiver<bool>, url: Url) {
    if !*stopped.borrow() {
        crate::navigate_main(app, url);
    }
}

/// The page of the server the window shows now, if it shows one.
fn current_server_page(app: &AppHandle, server: &Url) -> Option<Url> {
    let current = app.get_webview_window("main")?.url().ok()?;
    (current.origin() == server.origin()).then_some(current)
}

async fn watch(
    app: AppHandle,
    server: Url,
    tray: Option<Tray>,
    mut stopped: watch::Receiver<bool>,
    retry: Arc<Notify>,
) {
    let shown_name = agency_server::display(&server);
    let client = match agency_server::client() {
        Ok(client) => client,
        Err(err) => {
            tracing::error!(erreur = %err, "client HTTP du serveur de l'agence impossible");
            return;
        }
    };
    if let Some(tray) = &tray {
        tray.show_agency_server(&shown_name);
    }
    let mut shown = Shown::Connecting;
    // The page to come back to after an outage.
    let mut resume: Option<Url> = None;
    let mut cursor: Option<i64> = None;
    // Failed reads in a row: one alone (a proxy's reload, a slow answer)
    // does not take the page, and what is being typed on it, away.
    let mut failures = 0u32;
    loop {
        match ask(&app, &client, &server, cursor).await {
            Err(reason) => {
                failures += 1;
                let confirmed = failures >= FAILURES_SHOWN || shown == Shown::Connecting;
                if confirmed && shown != Shown::Unreachable {
                    tracing::warn!(serveur = %shown_name, raison = %reason, "serveur de l'agence injoignable");
                    resume = resume.or_else(|| current_server_page(&app, &server));
                    if let Some(page) = page("injoignable", &shown_name, Some(&reason)) {
                        navigate(&app, &stopped, page);
                    }
                    shown = Shown::Unreachable;
                }
                if confirmed && let Some(tray) = &tray {
                    tray.show_connection(&format!(
                        "Serveur de l'agence injoignable ({reason}) : nouvel essai dans {} s",
                        PROBE_EVERY.as_secs()
                    ));
                }
            }
            Ok(answer) => {
                failures = 0;
                if shown != Shown::Server {
                    tracing::info!(serveur = %shown_name, "serveur de l'agence joint");
                    let target = resume.take().unwrap_or_else(|| server.clone());
                    navigate(&app, &stopped, target);
                    shown = Shown::Server;
                    if let Some(tray) = &tray {
                        tray.show_connection("Serveur de l'agence : connecté");
                    }
                }
                match answer {
                    // Signed out (or not yet in): the next session starts
                    // from where the journal is then, not from this one's.
                    None => cursor = None,
                    Some(answer) => {
                        // The first read only sets where the next one starts.
                        if cursor.is_some() {
                            for notice in answer.notices {
                                notices::show(
                                    &app,
                                    &DesktopNotice {
                                        title: notice.title,
                                        body: notice.body,
                                        urgent: notice.urgent,
                                    },
                                );
                            }
                        }
                        cursor = Some(answer.cursor);
                    }
                }
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(PROBE_EVERY) => {}
            _ = retry.notified() => {}
            _ = stopped.changed() => break,
        }
        if *stopped.borrow() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{is_bundled_page, page};

    #[test]
    fn the_unreachable_page_names_the_server_and_the_reason() {
        let url = page(
            "injoignable",
            "https://liftdesk.agence.fr",
            Some("connexion impossible"),
        )
        .unwrap();
        assert!(is_bundled_page(&url));
        let pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
        assert_eq!(
            pairs,
            vec![
                ("etat".to_owned(), "injoignable".to_owned()),
                (
                    "serveur".to_owned(),
                    "https://liftdesk.agence.fr".to_owned()
                ),
                ("raison".to_owned(), "connexion impossible".to_owned()),
            ]
        );
        assert!(!is_bundled_page(
            &"https://liftdesk.agence.fr/".parse().unwrap()
        ));
        assert!(!is_bundled_page(&"tauri://evil/".parse().unwrap()));
        assert!(!is_bundled_page(
            &"tauri://localhost/autre.html".parse().unwrap()
        ));
        if !cfg!(windows) {
            assert!(!is_bundled_page(
                &"https://tauri.localhost/index.html".parse().unwrap()
            ));
        }
    }
}
