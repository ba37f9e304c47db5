//! The tray icon: the webhooks' sync state at a glance (or, connected to
//! the agency's server, whether it answers), and a menu to open the window,
//! take a new call, come back to this computer's Liftdesk, or quit (the
//! same clean stop as closing).

use std::time::Duration;

use liftdesk::state::AppState;
use liftdesk::webhooks::SyncOverview;
use tauri::menu::{Menu, MenuEvent, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder, TrayIconEvent};
use tauri::{AppHandle, Wry};

/// How often the sync state is read again.
const REFRESH: Duration = Duration::from_secs(5);

const OPEN: &str = "ouvrir";
const NEW_CALL: &str = "nouvel-appel";
const THIS_COMPUTER: &str = "cet-ordinateur";
const QUIT: &str = "quitter";

/// One line for the tooltip and the menu.
pub fn describe(sync: &SyncOverview) -> String {
    let mut text = String::from(if sync.online {
        "Webhooks : en ligne"
    } else {
        "Webhooks : hors ligne"
    });
    match sync.pending {
        0 => text.push_str(", aucune livraison en attente"),
        1 => text.push_str(", 1 livraison en attente"),
        n => text.push_str(&format!(", {n} livraisons en attente")),
    }
    if let Some(error) = &sync.last_error {
        // The menu is one line: a long receiver's answer is cut.
        let short: String = error.chars().take(80).collect();
        let cut = if short.len() < error.len() { "…" } else { "" };
        text.push_str(&format!(" — dernière erreur : {short}{cut}"));
    }
    text
}

/// The short text shown beside the icon (Linux) when something needs an eye.
pub fn badge(sync: &SyncOverview) -> String {
    match (sync.online, sync.pending) {
        (true, 0) => String::new(),
        (true, n) => format!("{n} en attente"),
        (false, 0) => "hors ligne".into(),
        (false, n) => format!("hors ligne · {n} en attente"),
    }
}

/// The tray, kept so that each server's refresh task can update it.
#[derive(Clone)]
pub struct Tray {
    icon: TrayIcon,
    status: MenuItem<Wry>,
    address: MenuItem<Wry>,
    this_computer: MenuItem<Wry>,
}

impl Tray {
    /// The embedded server's address shown in the menu (at start, after a
    /// restart on another port, back from the agency's server).
    pub fn set_address(&self, base_url: &str) {
        let updated = self
            .address
            .set_text(format!("Adresse : {base_url}"))
            .and_then(|()| self.this_computer.set_enabled(false));
        if let Err(err) = updated {
            tracing::warn!(erreur = %err, "adresse non mise à jour dans la zone de notification");
        }
    }

    /// Connected to the agency's server: its address, and « Revenir à cet
    /// ordinateur » offered.
    pub fn show_agency_server(&self, server: &str) {
        let updated = self
            .address
            .set_text(format!("Serveur de l'agence : {server}"))
            .and_then(|()| self.this_computer.set_enabled(true));
        if let Err(err) = updated {
            tracing::warn!(erreur = %err, "serveur non affiché dans la zone de notification");
        }
        self.show_connection("Serveur de l'agence : connexion…");
    }

    /// The state line, the tooltip and (Linux) the text beside the icon.
    pub fn show_connection(&self, text: &str) {
        let badge = if text.contains("injoignable") {
            "injoignable"
        } else {
            ""
        };
        let updated = self
            .status
            .set_text(text)
            .and_then(|()| self.icon.set_tooltip(Some(format!("Liftdesk — {text}"))))
            .and_then(|()| self.icon.set_title(Some(badge)));
        if let Err(err) = updated {
            tracing::warn!(erreur = %err, "zone de notification non mise à jour");
        }
    }
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
    let this_computer = MenuItem::with_id(
        app,
        THIS_COMPUTER,
        "Revenir à cet ordinateur",
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
            &this_computer,
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
    Ok(Tray {
        icon,
        status,
        address,
        this_computer,
    })
}

fn on_menu_event(app: &AppHandle, event: MenuEvent) {
    match event.id().as_ref() {
        OPEN => {
            crate::show_main_window(app);
        }
        NEW_CALL => crate::open_new_call(app),
        THIS_COMPUTER => {
            tracing::info!("« Revenir à cet ordinateur » choisi dans la zone de notification");
            if let Err(reason) = crate::back_to_this_computer(app) {
                tracing::warn!(raison = %reason, "retour à cet ordinateur refusé");
            }
        }
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
        let summary = match state.webhooks.overview().await {
            Ok(summary) => summary,
            Err(err) => {
                tracing::warn!(erreur = %err, "état des webhooks illisible");
                continue;
            }
        };
        if shown.as_ref() == Some(&summary) {
            continue;
        }
        let text = describe(&summary);
        let updated = tray
            .status
            .set_text(&text)
            .and_then(|()| tray.icon.set_tooltip(Some(format!("Liftdesk — {text}"))))
            .and_then(|()| tray.icon.set_title(Some(badge(&summary))));
        if let Err(err) = updated {
            tracing::warn!(erreur = %err, "zone de notification non mise à jour");
        }
        shown = Some(summary);
    }
}

#[cfg(test)]
mod tests {
    use super::{SyncOverview, badge, describe};

    #[test]
    fn the_summary_says_online_pending_and_last_error() {
        let calm = SyncOverview {
            online: true,
            pending: 0,
            last_error: None,
        };
        assert_eq!(
            describe(&calm),
            "Webhooks : en ligne, aucune livraison en attente"
        );
        assert_eq!(badge(&calm), "");

        let stuck = SyncOverview {
            online: false,
            pending: 3,
            last_error: Some("HTTP 503".into()),
        };
        assert_eq!(
            describe(&stuck),
            "Webhooks : hors ligne, 3 livraisons en attente — dernière erreur : HTTP 503"
        );
        assert_eq!(badge(&stuck), "hors ligne · 3 en attente");

        let long = SyncOverview {
            online: true,
            pending: 1,
            last_error: Some("é".repeat(200)),
        };
        assert!(describe(&long).ends_with('…'));
        assert!(describe(&long).contains("1 livraison en attente"));
    }
}
