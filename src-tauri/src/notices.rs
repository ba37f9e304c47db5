//! Desktop notifications: the core's notices (a breakdown call sent by a
//! call center, an abandoned webhook delivery, a failed backup) become
//! system notifications. The wording is the core's (`Notice::title/body`).
//!
//! Each source is one `Source` variant: adding one means a `select!` branch in
//! [`listen`] and a match arm in [`describe`].

use liftdesk::notices::Notice;
use liftdesk::state::AppState;
use tauri::AppHandle;
use tauri_plugin_notification::NotificationExt as _;
use tokio::sync::broadcast::error::RecvError;

/// Something the server reported.
#[derive(Debug, Clone)]
pub enum Source {
    /// A notice of the core (`AppState::notices`).
    Notice(Notice),
}

/// A notification to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesktopNotice {
    pub title: String,
    pub body: String,
    /// A trapped person: urgent wording (and logged as a warning).
    pub urgent: bool,
}

/// The notification for a source, or none.
pub fn describe(source: &Source) -> Option<DesktopNotice> {
    match source {
        Source::Notice(notice) => Some(DesktopNotice {
            title: notice.title(),
            body: notice.body(),
            urgent: notice.urgent(),
        }),
    }
}

/// Shows a notification; a desktop without a notification service only logs it.
pub fn show(app: &AppHandle, notice: &DesktopNotice) {
    if notice.urgent {
        tracing::warn!(titre = %notice.title, texte = %notice.body, "notification");
    } else {
        tracing::info!(titre = %notice.title, texte = %notice.body, "notification");
    }
    if let Err(err) = app
        .notification()
        .builder()
        .title(&notice.title)
        .body(&notice.body)
        .show()
    {
        tracing::warn!(erreur = %err, "notification non affichée");
    }
}

/// Listens to the server's notices until it stops.
pub async fn listen(app: AppHandle, state: AppState) {
    let mut notices = state.notices.subscribe();
    let mut closing = state.call_feed.closing();
    drop(state);
    loop {
        let source = tokio::select! {
            received = notices.recv() => match received {
                Ok(notice) => Source::Notice(notice),
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(manques = missed, "notifications manquées");
                    continue;
                }
                Err(RecvError::Closed) => break,
            },
            _ = closing.changed() => break,
        };
        if let Some(notice) = describe(&source) {
            show(&app, &notice);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(urgent: bool) -> Notice {
        Notice::CallReceived {
            agency_id: "a".into(),
            id: "c1".into(),
            reference: "CC-42".into(),
            equipment: "ASC-42 — Résidence Les Tilleuls".into(),
            urgent,
        }
    }

    #[test]
    fn a_trapped_person_from_a_call_center_is_urgent() {
        let notice = describe(&Source::Notice(call(true))).unwrap();
        assert!(notice.urgent);
        assert!(notice.title.starts_with("Urgence"), "{notice:?}");
        assert!(notice.body.contains("CC-42"), "{notice:?}");
        assert!(notice.body.contains("ASC-42"), "{notice:?}");
    }

    #[test]
    fn an_ordinary_call_center_call_is_notified_plainly() {
        let notice = describe(&Source::Notice(call(false))).unwrap();
        assert!(!notice.urgent);
        assert_eq!(notice.title, "Nouvel appel de panne");
    }

    #[test]
    fn a_failed_backup_is_notified() {
        let notice = describe(&Source::Notice(Notice::BackupFailed {
            reason: "Disque plein.".into(),
        }))
        .unwrap();
        assert_eq!(notice.title, "La sauvegarde a échoué");
        assert!(notice.body.contains("Disque plein."), "{notice:?}");
    }
}
