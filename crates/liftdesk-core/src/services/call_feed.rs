//! The live feed of breakdown calls: every call service publishes here once
//! its transaction is committed (a call opened by a call center or by hand,
//! an assignment, a status change, an alert taken into account), and the
//! web application's board and alert banner listen
//! (`GET /app/api/calls/events`, Server-Sent Events). An event names the call
//! and its agency and carries nothing secret; each listener keeps its own
//! agency's events only.

use serde::Serialize;

use crate::domain::call::{CallStatus, CallType};
use tokio::sync::{broadcast, watch};

/// Events kept for a listener that reads late; past that it is told to
/// reload (`Lagged`).
const CAPACITY: usize = 256;

/// What happened to a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallChange {
    /// A new call (call-center API or taken at the agency).
    Ouvert,
    /// A technician was assigned.
    Affecte,
    /// The status changed.
    Statut,
    /// A trapped-person alert was taken into account: every screen drops
    /// its banner.
    PriseEnCompte,
}

/// One change of a call, as the board receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallEvent {
    /// The call's agency: listeners filter on it; not sent.
    #[serde(skip)]
    pub agency_id: String,
    pub change: CallChange,
    /// The call's id.
    pub id: String,
    pub reference: String,
    /// The status after the change (its wire code).
    pub statut: CallStatus,
    /// The call's type (its wire code).
    #[serde(rename = "type")]
    pub call_type: CallType,
    /// A trapped person (`personne_bloquee`).
    pub urgence: bool,
}

/// The feed: a broadcast channel, and a flag raised when the server stops so
/// that open streams end and the graceful shutdown does not wait for them.
#[derive(Clone)]
pub struct CallFeed {
    sender: broadcast::Sender<CallEvent>,
    closing: watch::Sender<bool>,
}

impl Default for CallFeed {
    fn default() -> Self {
        let (sender, _) = broadcast::channel(CAPACITY);
        let (closing, _) = watch::channel(false);
        Self { sender, closing }
    }
}

impl CallFeed {
    /// Sends the event to whoever listens now (nobody listening is fine).
    pub fn publish(&self, event: CallEvent) {
        let _ = self.sender.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<CallEvent> {
        self.sender.subscribe()
    }

    /// Resolves to true once the server stops.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Ends every open stream (server shutdown).
    pub fn close(&self) {
        let _ = self.closing.send(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn listeners_receive_what_is_published_after_they_subscribe() {
        let feed = CallFeed::default();
        feed.publish(event("avant"));
        let mut rx = feed.subscribe();
        feed.publish(event("apres"));
        assert_eq!(rx.recv().await.unwrap().id, "apres");
        let json = serde_json::to_value(event("x")).unwrap();
        assert!(json.get("agencyId").is_none(), "{json}");
        assert_eq!(json["change"], "ouvert");
        assert_eq!(json["type"], "panne");
        let mut closing = feed.closing();
        feed.close();
        closing.changed().await.unwrap();
        assert!(*closing.borrow());
    }

    fn event(id: &str) -> CallEvent {
        CallEvent {
            agency_id: "a".into(),
            change: CallChange::Ouvert,
            id: id.into(),
            reference: "R".into(),
            statut: CallStatus::Ouverte,
            call_type: CallType::Panne,
            urgence: false,
        }
    }
}
