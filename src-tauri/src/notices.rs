//! Desktop notifications: what the server reports (new breakdown calls from a
//! call center today; the core's notices later) becomes a system notification.
//!
//! Each source is one `Source` variant: adding one means a `select!` branch in
//! [`listen`] and a match arm in [`describe`].

use liftdesk::services::call_feed::{CallChange, CallEvent};
use liftdesk::state::AppState;
use tauri::AppHandle;
use tauri_plugin_notification::NotificationExt as _;
use tokio::sync::broadcast::error::RecvError;

/// Something the server reported.
#[derive(Debug, Clone)]
pub enum Source {
    /// A change of a breakdown call, and whether a call center opened it.
    Call {
        event: CallEvent,
        from_call_center: bool,
    },
    // The core's notices (abandoned webhook deliveries, failed backups) go here:
    // Notice(liftdesk::notices::Notice),
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
        Source::Call {
            event,
            from_call_center,
        } => {
            // Calls taken at the agency are already on the screen of whoever typed them.
            if event.change != CallChange::Ouvert || !from_call_center {
                return None;
            }
            Some(if event.urgence {
                DesktopNotice {
                    title: "URGENT : personne bloquée".into(),
                    body: format!(
                        "Appel {} reçu du centre d'appels : une personne est bloquée dans la cabine. Intervention immédiate.",
                        event.reference
                    ),
                    urgent: true,
                }
            } else {
                DesktopNotice {
                    title: "Nouvel appel de panne".into(),
                    body: format!("Appel {} reçu du centre d'appels.", event.reference),
                    urgent: false,
                }
            })
        }
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

/// Listens to the server's feeds until they close (server stopped).
pub async fn listen(app: AppHandle, state: AppState) {
    let mut calls = state.call_feed.subscribe();
    let mut closing = state.call_feed.closing();
    loop {
        let source = tokio::select! {
            received = calls.recv() => match received {
                Ok(event) => {
                    let from_call_center = opened_by_call_center(&state, &event).await;
                    Source::Call { event, from_call_center }
                }
                // Missed events are not replayed: the board shows them anyway.
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(manques = missed, "notifications d'appels manquées");
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

/// Whether the call came from a call center (only new calls are looked up).
async fn opened_by_call_center(state: &AppState, event: &CallEvent) -> bool {
    if event.change != CallChange::Ouvert {
        return false;
    }
    let id = event.id.clone();
    let found = state
        .store
        .read(move |conn| -> Result<bool, liftdesk::error::AppError> {
            let mut stmt =
                conn.prepare("SELECT call_center_id IS NOT NULL FROM calls WHERE id = ?1")?;
            let mut rows = stmt.query([&id])?;
            Ok(match rows.next()? {
                Some(row) => row.get(0)?,
                None => false,
            })
        })
        .await;
    found.unwrap_or_else(|err| {
        tracing::warn!(erreur = %err, "origine de l'appel illisible");
        // When in doubt, notify: a missed trapped person is worse than a duplicate.
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(change: CallChange, urgence: bool) -> CallEvent {
        CallEvent {
            agency_id: "a".into(),
            change,
            id: "c1".into(),
            reference: "CC-42".into(),
            statut: "ouverte".into(),
            call_type: "panne".into(),
            urgence,
        }
    }

    #[test]
    fn a_trapped_person_from_a_call_center_is_urgent() {
        let notice = describe(&Source::Call {
            event: call(CallChange::Ouvert, true),
            from_call_center: true,
        })
        .unwrap();
        assert!(notice.urgent);
        assert!(notice.title.starts_with("URGENT"), "{notice:?}");
        assert!(notice.body.contains("CC-42"), "{notice:?}");
    }

    #[test]
    fn an_ordinary_call_center_call_is_notified_plainly() {
        let notice = describe(&Source::Call {
            event: call(CallChange::Ouvert, false),
            from_call_center: true,
        })
        .unwrap();
        assert!(!notice.urgent);
        assert_eq!(notice.title, "Nouvel appel de panne");
    }

    #[test]
    fn agency_calls_and_later_changes_are_not_notified() {
        for (change, from_call_center) in [
            (CallChange::Ouvert, false),
            (CallChange::Affecte, true),
            (CallChange::Statut, true),
        ] {
            let source = Source::Call {
                event: call(change, true),
                from_call_center,
            };
            assert_eq!(describe(&source), None, "{source:?}");
        }
    }
}
