//! Webhooks: the signing scheme, secrets kept encrypted at rest, the retry
//! schedule, the connectivity probe, and the sync task that delivers queued
//! events whenever the machine is online. Subscriptions and deliveries are
//! stored by `store::webhooks`; the events come from `store::outbox`.

pub mod probe;
pub mod schedule;
pub mod secret_box;
pub mod sender;
pub mod signing;
pub mod sync;

pub use probe::Probe;
pub use schedule::RetrySchedule;
pub use sync::{SyncOverview, SyncStatus, WebhookSync};

use std::time::Duration;

/// Events an administrator can subscribe to (`ping` is sent on demand).
pub const EVENTS: [&str; 3] = crate::domain::event::WebhookEvent::CODES;

/// How the sync task delivers: from `serve`'s options (or the environment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookSettings {
    /// Accept `http://` receivers on loopback addresses (local integrations
    /// and tests); `https://` is required otherwise.
    pub insecure_loopback: bool,
    pub retry_schedule: RetrySchedule,
    pub probe: Probe,
    /// How long a server's claim on a delivery it sends lasts: past it,
    /// another server of the same database takes the delivery over (its
    /// sender died mid-send).
    pub claim: Duration,
}

/// A claim's default length: a send waits 10 s for its answer at most.
pub const DEFAULT_CLAIM: Duration = Duration::from_secs(60);

/// A claim's length, `30s`, `2m`…: from 15 s (longer than a send's 10 s
/// wait, its record included) to 1 h.
pub fn parse_claim(text: &str) -> Result<Duration, String> {
    let claim = schedule::parse_delay(text.trim())?;
    if !(15..=3600).contains(&claim.as_secs()) {
        return Err(format!(
            "réservation « {} » hors limites : de 15 s (un envoi attend sa réponse 10 s) à 1 h",
            text.trim()
        ));
    }
    Ok(claim)
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            insecure_loopback: false,
            retry_schedule: RetrySchedule::default(),
            probe: Probe::Route,
            claim: DEFAULT_CLAIM,
        }
    }
}

impl WebhookSettings {
    /// The settings given by the environment (the desktop shell has no
    /// command line): `LIFTDESK_INSECURE_WEBHOOKS`,
    /// `LIFTDESK_WEBHOOK_RETRY_SCHEDULE`, `LIFTDESK_CONNECTIVITY_PROBE`,
    /// `LIFTDESK_WEBHOOK_CLAIM`. A
    /// value that does not parse is reported and the default kept.
    pub fn from_env() -> Self {
        let mut settings = Self::default();
        if let Ok(value) = std::env::var("LIFTDESK_INSECURE_WEBHOOKS") {
            settings.insecure_loopback = is_true(&value);
        }
        if let Ok(value) = std::env::var("LIFTDESK_WEBHOOK_RETRY_SCHEDULE") {
            match RetrySchedule::parse(&value) {
                Ok(schedule) => settings.retry_schedule = schedule,
                Err(err) => tracing::error!("LIFTDESK_WEBHOOK_RETRY_SCHEDULE ignoré : {err}"),
            }
        }
        if let Ok(value) = std::env::var("LIFTDESK_CONNECTIVITY_PROBE") {
            match Probe::parse(&value) {
                Ok(probe) => settings.probe = probe,
                Err(err) => tracing::error!("LIFTDESK_CONNECTIVITY_PROBE ignoré : {err}"),
            }
        }
        if let Ok(value) = std::env::var("LIFTDESK_WEBHOOK_CLAIM") {
            match parse_claim(&value) {
                Ok(claim) => settings.claim = claim,
                Err(err) => tracing::error!("LIFTDESK_WEBHOOK_CLAIM ignoré : {err}"),
            }
        }
        settings
    }
}

/// `1`, `true`, `yes`, `oui`, `on` (any case) are true.
pub fn is_true(value: &str) -> bool {
    matches!(
        value.trim().to_lowercase().as_str(),
        "1" | "true" | "yes" | "oui" | "on"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_lasts_from_15_seconds_to_an_hour() {
        assert_eq!(parse_claim("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_claim(" 15s "), Ok(Duration::from_secs(15)));
        assert_eq!(parse_claim("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(
            parse_claim("10s"),
            Err(
                "réservation « 10s » hors limites : de 15 s (un envoi attend sa réponse 10 s) à 1 h"
                    .to_owned()
            )
        );
        for bad in ["", "2h", "1x", "0s"] {
            assert!(parse_claim(bad).is_err(), "{bad:?}");
        }
    }
}
