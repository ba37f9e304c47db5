//! Notices for the desktop shell to show as system notifications: a
//! breakdown call sent by a call center (a trapped person is urgent), a
//! webhook delivery abandoned, a backup that failed. A broadcast channel in
//! `AppState`; each notice has its French title and body ready to show and
//! carries no secret.

use serde::Serialize;
use tokio::sync::broadcast;

const CAPACITY: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Notice {
    /// A new call opened by the call-center API.
    CallReceived {
        agency_id: String,
        /// The call's id.
        id: String,
        reference: String,
        /// The equipment as the call center named it, and its building.
        equipment: String,
        /// A trapped person.
        urgent: bool,
    },
    /// A webhook delivery given up after its last retry.
    DeliveryAbandoned {
        /// The event (`appel.clos`…).
        event: String,
        /// The receiver's host name (never its full address).
        receiver_host: String,
    },
    /// The daily (or requested) backup failed.
    BackupFailed { reason: String },
}

impl Notice {
    pub fn title(&self) -> String {
        match self {
            Notice::CallReceived { urgent: true, .. } => {
                "Urgence : personne bloquée dans un ascenseur".to_owned()
            }
            Notice::CallReceived { .. } => "Nouvel appel de panne".to_owned(),
            Notice::DeliveryAbandoned { .. } => "Webhook abandonné".to_owned(),
            Notice::BackupFailed { .. } => "La sauvegarde a échoué".to_owned(),
        }
    }

    pub fn body(&self) -> String {
        match self {
            Notice::CallReceived {
                reference,
                equipment,
                ..
            } => format!("Appel {reference} reçu du centre d'appels : {equipment}."),
            Notice::DeliveryAbandoned {
                event,
                receiver_host,
            } => format!(
                "L'événement « {event} » n'a pas pu être livré à {receiver_host} après tous les essais : il est abandonné."
            ),
            Notice::BackupFailed { reason } => {
                format!("{reason} Vérifiez le dossier de sauvegarde dans les paramètres.")
            }
        }
    }

    /// Whether the shell should insist (a trapped person).
    pub fn urgent(&self) -> bool {
        matches!(self, Notice::CallReceived { urgent: true, .. })
    }
}

/// The channel: publishing with nobody listening is fine.
#[derive(Clone)]
pub struct Notices {
    sender: broadcast::Sender<Notice>,
}

impl Default for Notices {
    fn default() -> Self {
        let (sender, _) = broadcast::channel(CAPACITY);
        Self { sender }
    }
}

impl std::fmt::Debug for Notices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Notices").finish_non_exhaustive()
    }
}

impl Notices {
    pub fn publish(&self, notice: Notice) {
        tracing::info!(title = %notice.title(), "notification");
        let _ = self.sender.send(notice);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Notice> {
        self.sender.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn subscribers_get_french_texts() {
        let notices = Notices::default();
        let mut rx = notices.subscribe();
        notices.publish(Notice::CallReceived {
            agency_id: "a".into(),
            id: "c".into(),
            reference: "CC-1".into(),
            equipment: "ASC-001".into(),
            urgent: true,
        });
        let got = rx.recv().await.unwrap();
        assert!(got.urgent());
        assert!(got.title().contains("personne bloquée"));
        assert!(got.body().contains("CC-1"));
        let json = serde_json::to_value(&got).unwrap();
        assert_eq!(json["kind"], "callReceived");
        assert_eq!(json["agencyId"], "a");
    }
}
