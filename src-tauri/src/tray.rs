//! The tray icon: the webhooks' sync state at a glance, and a menu to open
//! the window, take a new call or quit (the same clean stop as closing).

use std::time::Duration;

use liftdesk::state::AppState;
use liftdesk::store::webhooks as webhook_store;
use tauri::menu::{Menu, MenuEvent, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder, TrayIconEvent};
use tauri::{AppHandle, Wry};

/// How often the sync state is read again.
const REFRESH: Duration = Duration::from_secs(5);

const OPEN: &str = "ouvrir";
const NEW_CALL: &str = "nouvel-appel";
const QUIT: &str = "quitter";

/// What the tray shows about the webhooks' sync.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncSummary {
    pub online: bool,
    pub pending: i64,
    pub last_error: Option<String>,
}

impl SyncSummary {
    /// One line for the tooltip and the menu.
    pub fn describe(&self) -> String {
        let mut text = String::from(if self.online {
            "Webhooks : en ligne"
        } else {
            "Webhooks : hors ligne"
        });
        match self.pending {
            0 => text.push_str(", aucune livraison en attente"),
            1 => text.push_str(", 1 livraison en attente"),
            n => text.push_str(&format!(", {n} livraisons en attente")),
        }
        if let Some(error) = &self.last_error {
            // The menu is one line: a long receiver's answer is cut.
            let short: String = error.chars().take(80).collect();
            let cut = if short.len() < error.len() { "…" } else { "" };
            text.push_str(&format!(" — dernière erreur : {short}{cut}"));
        }
        text
    }

    /// The short text shown beside the icon (Linux) when something needs an eye.
    pub fn badge(&self) -> String {
        match (self.online, self.pending) {
            (true, 0) => String::new(),
            (true, n) => format!("{n} en attente"),
            (false, 0) => "hors ligne".into(),
            (false, n) => format!("hors ligne · {n} en attente"),
        }
    }
}

/// The tray, kept so that the refresh task can update it.
pub struct Tray {
    icon: TrayIcon,
    status: MenuItem<Wry>,
}

/// Builds the tray. Without a tray host (Xvfb, some desktops) the icon is
/// simply not seen; an error only loses the tray, never the app.
pub fn install(app: &AppHandle, base_url: &str) -> tauri::Result<Tray> {
    let status = MenuItem::with_id(app, "etat", "Webhooks : …", false, None::<&str>)?;
    let address = MenuItem::with_id(
        app,
        "adresse",
        format!("Adresse : {base_url}"),
        false,
        None::<&str>,
    )?;
    let menu = Menu::with_items(
        app,
        &[
            &status,
            &address,
            &PredefinedMenuItem::separator(app)?,
            &MenuItem::with_id(app, OPEN, "Ouvrir Liftdesk", true, None::<&str>)?,
            &MenuItem::with_id(app, NEW_CALL, "Nouvel appel", true, None::<&str>)?,
            &PredefinedMenuItem::separator(app)?,
            &MenuItem::with_id(app, QUIT, "Quitter", true, None::<&str>)?,
        ],
    )?;
    let mut builder = TrayIconBuilder::with_id("liftdesk")
        .tooltip("Liftdesk")
        .menu(&menu)
        .on_menu_event(on_menu_event)
        .on_tray_icon_event(|tray, event| {
            // A left click (Windows, macOS) brings the window back.
            if let TrayIconEvent::DoubleClick { .. } = event {
                crate::show_main_window(tray.app_handle());
            }
        });
    if let Some(icon) = app.default_window_icon() {
        builder = builder.icon(icon.clone());
    }
    let icon = builder.build(app)?;
    Ok(Tray { icon, status })
}

fn on_menu_event(app: &AppHandle, event: MenuEvent) {
    match event.id().as_ref() {
        OPEN => {
            crate::show_main_window(app);
        }
        NEW_CALL => crate::open_new_call(app),
        // The event loop ends, then main() stops the server (in-flight writes, WAL).
        QUIT => {
            tracing::info!("« Quitter » choisi dans la zone de notification");
            app.exit(0);
        }
        _ => {}
    }
}

/// Reads the sync state every few seconds and shows it, until the server stops.
pub async fn refresh(tray: Tray, state: AppState) {
    let mut closing = state.call_feed.closing();
    let mut tick = tokio::time::interval(REFRESH);
    let mut shown = None;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = closing.changed() => break,
        }
        let summary = match read_summary(&state).await {
            Ok(summary) => summary,
            Err(err) => {
                tracing::warn!(erreur = %err, "état des webhooks illisible");
                continue;
            }
        };
        if shown.as_ref() == Some(&summary) {
            continue;
        }
        let text = summary.describe();
        let updated = tray
            .status
            .set_text(&text)
            .and_then(|()| tray.icon.set_tooltip(Some(format!("Liftdesk — {text}"))))
            .and_then(|()| tray.icon.set_title(Some(summary.badge())));
        if let Err(err) = updated {
            tracing::warn!(erreur = %err, "zone de notification non mise à jour");
        }
        shown = Some(summary);
    }
}

async fn read_summary(state: &AppState) -> Result<SyncSummary, liftdesk::error::AppError> {
    let online = state.webhooks.status().online;
    let (pending, last_error) = state
        .store
        .read(|conn| -> Result<_, liftdesk::error::AppError> {
            let (pending, _next) = webhook_store::pending_summary(conn, None)?;
            // The latest reason a delivery still waits (receiver's answer, offline…).
            let mut stmt = conn.prepare(
                "SELECT d.last_error
                   FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
                  WHERE d.status IN ('en_attente', 'echec') AND s.revoked_at IS NULL
                    AND d.last_error IS NOT NULL
                  ORDER BY d.updated_at DESC LIMIT 1",
            )?;
            let mut rows = stmt.query([])?;
            let last_error: Option<String> = match rows.next()? {
                Some(row) => row.get(0)?,
                None => None,
            };
            Ok((pending, last_error))
        })
        .await?;
    Ok(SyncSummary {
        online,
        pending,
        last_error,
    })
}

#[cfg(test)]
mod tests {
    use super::SyncSummary;

    #[test]
    fn the_summary_says_online_pending_and_last_error() {
        let calm = SyncSummary {
            online: true,
            pending: 0,
            last_error: None,
        };
        assert_eq!(
            calm.describe(),
            "Webhooks : en ligne, aucune livraison en attente"
        );
        assert_eq!(calm.badge(), "");

        let stuck = SyncSummary {
            online: false,
            pending: 3,
            last_error: Some("HTTP 503".into()),
        };
        assert_eq!(
            stuck.describe(),
            "Webhooks : hors ligne, 3 livraisons en attente — dernière erreur : HTTP 503"
        );
        assert_eq!(stuck.badge(), "hors ligne · 3 en attente");

        let long = SyncSummary {
            online: true,
            pending: 1,
            last_error: Some("é".repeat(200)),
        };
        assert!(long.describe().ends_with('…'));
        assert!(long.describe().contains("1 livraison en attente"));
    }
}
