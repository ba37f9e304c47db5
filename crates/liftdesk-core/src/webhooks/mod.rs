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
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            insecure_loopback: false,
            retry_schedule: RetrySchedule::default(),
            probe: Probe::Route,
        }
    }
}

impl WebhookSettings {
    /// The settings given by the environment (the desktop shell has no
    /// command line): `LIFTDESK_INSECURE_WEBHOOKS`,
    /// `LIFTDESK_WEBHOOK_RETRY_SCHEDULE`, `LIFTDESK_CONNECTIVITY_PROBE`. A
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
