//! The sync task: delivers due deliveries whenever the machine is online.
//!
//! Each round reads the due deliveries (oldest event first), groups them by
//! subscription and sends each group in order, one at a time (a receiver is
//! never flooded), several receivers at once (bounded). A receiver that looks
//! down (no connection, timeout, 5xx, 408, 429) pauses its other deliveries
//! until its failed one's next attempt, so a backlog spends attempts only on
//! its head. Offline (the probe fails, or names stop resolving), nothing is
//! sent and no attempt is spent. Every outcome is written before the next
//! send, so a restart resumes from the stored times; a delivery in flight when
//! the process died is sent again (receivers dedupe by `X-Service-Livraison`).
//!
//! Several servers may share one database (PostgreSQL): before sending, a
//! server claims the delivery in the database for a while (the `claim`
//! setting, one conditional update: of two servers, one gets it), so no two
//! send it at once; the claim ends with the attempt's record, or, should
//! the server die mid-send, when it runs out, and another server then takes
//! the delivery over. The receivers paused after a failure are this
//! server's own bookkeeping: another server may try them sooner (the
//! deliveries' schedule itself is stored).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, SubsecRound, Utc};
use reqwest::Url;
use tokio::sync::Semaphore;

use super::probe::Probe;
use super::secret_box::SecretBox;
use super::sender::{self, SendOutcome};
use super::{RetrySchedule, WebhookSettings};
use crate::clock;
use crate::error::{AppError, AppResult};
use crate::store::Store;
use crate::store::webhooks::{self as store, AttemptRecord, DeliveryStatus, DueDelivery};

/// Receivers served at once.
const PARALLEL_RECEIVERS: usize = 4;
/// Due deliveries of one receiver sent per round (then the next round
/// goes on, after the other receivers had their turn).
const BATCH_PER_RECEIVER: u32 = 50;
/// Longest sleep between rounds (other processes may queue events).
const IDLE_POLL: Duration = Duration::from_secs(2);
/// How long a probe result is trusted.
const PROBE_TTL: Duration = Duration::from_secs(2);

const OFFLINE_TEXT: &str = "Hors ligne : envoi en attente du retour du réseau.";
const BAD_SECRET_TEXT: &str =
    "Secret de signature illisible : la clé du dossier de données a changé.";

/// The state shown by `GET /webhooks/status` and the desktop tray.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncStatus {
    pub online: bool,
    pub checked_at: Option<DateTime<Utc>>,
}

/// The sync at a glance, every agency together (the desktop tray).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncOverview {
    pub online: bool,
    /// Deliveries waiting (queued or failed, to be retried).
    pub pending: i64,
    /// The latest reason one of them still waits.
    pub last_error: Option<String>,
}

/// Shared by the sync task and the API (the immediate test send).
pub struct WebhookSync {
    store: Store,
    settings: WebhookSettings,
    secrets: Option<SecretBox>,
    client: reqwest::Client,
    status: Mutex<SyncStatus>,
    /// This process's id in the deliveries' claims.
    server: String,
    /// Receivers that look down: their deliveries wait until then.
    paused: Mutex<HashMap<String, DateTime<Utc>>>,
    /// Where an abandoned delivery is announced.
    notices: Option<crate::notices::Notices>,
}

impl std::fmt::Debug for WebhookSync {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookSync")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What happened to one delivery in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sent {
    Delivered,
    /// A failed attempt; `receiver_down` pauses the receiver's other ones.
    Failed {
        receiver_down: bool,
    },
    /// Offline: nothing spent.
    Held,
    /// Someone else holds it, or it changed meanwhile.
    Skipped,
}

impl WebhookSync {
    /// The sync of a store, with the secrets key of the store's directory
    /// (unreadable: subscriptions cannot be created nor signed, and the
    /// cause is logged).
    /// The same sync announcing abandoned deliveries on `notices`.
    pub fn with_notices(mut self, notices: crate::notices::Notices) -> Self {
        self.notices = Some(notices);
        self
    }

    pub fn new(store: Store, settings: WebhookSettings) -> Self {
        let secrets = SecretBox::of_store(&store);
        let server = server_id(&store);
        let client = sender::client_or_default();
        Self {
            store,
            settings,
            secrets,
            client,
            status: Mutex::new(SyncStatus {
                online: true,
                checked_at: None,
            }),
            server,
            paused: Mutex::new(HashMap::new()),
            notices: None,
        }
    }

    pub fn settings(&self) -> &WebhookSettings {
        &self.settings
    }

    pub fn status(&self) -> SyncStatus {
        *lock(&self.status)
    }

    /// Online or not, the deliveries waiting and the latest reason why.
    pub async fn overview(&self) -> AppResult<SyncOverview> {
        let online = self.status().online;
        let (pending, last_error) = self
            .store
            .read(|conn| -> AppResult<_> {
                let (pending, _next) = store::pending_summary(conn, None)?;
                Ok((pending, store::latest_pending_error(conn)?))
            })
            .await?;
        Ok(SyncOverview {
            online,
            pending,
            last_error,
        })
    }

    /// Seals a new subscription's secret for storage.
    pub fn seal_secret(&self, subscription_id: &str, secret: &str) -> AppResult<Vec<u8>> {
        let secrets = self.secrets.as_ref().ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!("clé des secrets de webhooks illisible"))
        })?;
        Ok(secrets.seal(subscription_id, secret)?)
    }

    /// Runs until the task is aborted.
    pub async fn run(self: Arc<Self>) {
        tracing::info!(
            schedule = %self.settings.retry_schedule,
            probe = %self.settings.probe,
            "envoi des webhooks démarré"
        );
        if self.settings.insecure_loopback {
            tracing::warn!(
                "--insecure-webhooks : des destinataires de webhooks en http:// local sont acceptés (à réserver aux intégrations locales et aux tests)"
            );
        }
        // Claims of this server's previous run (it stopped mid-send): due
        // again now, not after their lease.
        let server = self.server.clone();
        match self
            .store
            .write(move |tx| store::release_claims_of(tx, &server))
            .await
        {
            Ok(0) => {}
            Ok(released) => {
                tracing::info!(released, "envois interrompus à l'arrêt précédent repris");
            }
            Err(err) => tracing::error!(error = ?err, "reprise des envois interrompus en échec"),
        }
        loop {
            let busy = match self.round().await {
                Ok(busy) => busy,
                Err(err) => {
                    tracing::error!(error = ?err, "tour d'envoi des webhooks en échec");
                    false
                }
            };
            if busy {
                continue;
            }
            let wait = self.idle_wait().await;
            tokio::select! {
                () = self.store.webhook_work() => {},
                () = tokio::time::sleep(wait) => {},
            }
        }
    }

    /// How long to sleep: until the next scheduled attempt, at most
    /// `IDLE_POLL`.
    async fn idle_wait(&self) -> Duration {
        let now = self.store.now();
        let stamp = clock::format_timestamp(now);
        let next = self
            .store
            .read(move |conn| store::next_attempt_after(conn, &stamp))
            .await
            .ok()
            .flatten()
            .and_then(|text| clock::parse_timestamp(&text));
        // A paused receiver resumes at its own time too.
        let resume = lock(&self.paused)
            .values()
            .filter(|until| **until > now)
            .min()
            .copied();
        [next, resume]
            .into_iter()
            .flatten()
            .map(|at| (at - now).to_std().unwrap_or_default())
            .fold(IDLE_POLL, Duration::min)
    }

    /// Probes if the last result is stale (or `force`), and records it.
    async fn online(&self, force: bool) -> bool {
        let now = self.store.now();
        let last = self.status();
        let fresh = last
            .checked_at
            .is_some_and(|at| (now - at).to_std().unwrap_or_default() < PROBE_TTL);
        if fresh && !force {
            return last.online;
        }
        let online = self.settings.probe.is_online(&self.client).await;
        if online != last.online {
            if online {
                tracing::info!("réseau de retour : envoi des webhooks repris");
            } else {
                tracing::warn!("hors ligne : webhooks en attente");
            }
        }
        *lock(&self.status) = SyncStatus {
            online,
            checked_at: Some(self.store.now()),
        };
        online
    }

    /// Whether the probe applies to this receiver.
    fn probe_applies(&self, url: &str) -> bool {
        self.settings.probe.holds_loopback()
            || Url::parse(url).map_or(true, |url| !sender::is_loopback(&url))
    }

    /// One round; true if it sent something (more may be due).
    async fn round(self: &Arc<Self>) -> AppResult<bool> {
        let now = self.store.now();
        let stamp = clock::format_timestamp(now);
        let due = self
            .store
            .read(move |conn| store::due_subscriptions(conn, &stamp))
            .await?;
        if due.is_empty() {
            // Keep the shown state fresh even when there is nothing to send.
            if !matches!(self.settings.probe, Probe::Off) {
                self.online(false).await;
            }
            return Ok(false);
        }
        let online = self.online(false).await;
        let ready: Vec<String> = {
            let paused = lock(&self.paused);
            due.into_iter()
                .filter(|(id, _)| paused.get(id).is_none_or(|until| *until <= now))
                .filter(|(_, url)| online || !self.probe_applies(url))
                .map(|(id, _)| id)
                .collect()
        };
        let limit = Arc::new(Semaphore::new(PARALLEL_RECEIVERS));
        let mut tasks = tokio::task::JoinSet::new();
        for subscription_id in ready {
            let sync = self.clone();
            let limit = limit.clone();
            tasks.spawn(async move {
                let Ok(_permit) = limit.acquire_owned().await else {
                    return false;
                };
                sync.drain(subscription_id).await.unwrap_or_else(|err| {
                    tracing::error!(error = ?err, "envoi de webhooks en échec");
                    false
                })
            });
        }
        let mut busy = false;
        while let Some(result) = tasks.join_next().await {
            busy |= result.unwrap_or(false);
        }
        Ok(busy)
    }

    /// Sends a subscription's due deliveries in order, one at a time, until
    /// the batch is done or the receiver looks down; true if it sent any.
    async fn drain(self: &Arc<Self>, subscription_id: String) -> AppResult<bool> {
        let stamp = clock::format_timestamp(self.store.now());
        let batch = self
            .store
            .read(move |conn| {
                store::due_for_subscription(conn, &subscription_id, &stamp, BATCH_PER_RECEIVER)
            })
            .await?;
        let mut sent_any = false;
        for delivery in batch {
            match self.attempt(delivery).await? {
                Sent::Delivered => sent_any = true,
                Sent::Failed { receiver_down } => {
                    sent_any = true;
                    if receiver_down {
                        break;
                    }
                }
                // Another server (or a test send) is sending to this
                // receiver: it goes on in order, this round leaves it.
                Sent::Held | Sent::Skipped => break,
            }
        }
        Ok(sent_any)
    }

    /// Sends a queued delivery now, whatever its scheduled time (the test
    /// send of `POST /webhooks/{id}/test`), unless it was attempted already;
    /// should the sync task be sending it, waits for that send instead.
    /// Offline, it stays queued.
    pub async fn deliver_now(self: &Arc<Self>, delivery_id: &str) -> AppResult<()> {
        // The longest a send takes (10 s) and some margin.
        for _ in 0..300 {
            let id = delivery_id.to_owned();
            let due = self
                .store
                .read(move |conn| store::pending_delivery(conn, &id))
                .await?;
            let Some(due) = due.filter(|due| due.attempts == 0) else {
                return Ok(());
            };
            if self.attempt(due).await? != Sent::Skipped {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(())
    }

    /// Claims a due delivery in the database for this server, for the
    /// claim's length; false if another server (or this one's other task)
    /// has it, or it changed since it was read.
    async fn claim(&self, due: &DueDelivery) -> AppResult<bool> {
        let now = self.store.now();
        let until = now + chrono::Duration::from_std(self.settings.claim).unwrap_or_default();
        let (id, attempts_before, server) = (due.id.clone(), due.attempts, self.server.clone());
        let (now, until) = (clock::format_timestamp(now), clock::format_timestamp(until));
        Ok(self
            .store
            .write(move |tx| {
                store::claim_delivery(
                    tx,
                    &store::ClaimRequest {
                        id: &id,
                        attempts_before,
                        server: &server,
                        now: &now,
                        until: &until,
                    },
                )
            })
            .await?)
    }

    /// One attempt of one delivery, recorded before returning.
    async fn attempt(self: &Arc<Self>, due: DueDelivery) -> AppResult<Sent> {
        let probed = self.probe_applies(&due.url);
        if probed && !self.online(false).await {
            return Ok(Sent::Held);
        }
        if !self.claim(&due).await? {
            return Ok(Sent::Skipped);
        }
        let secret = self
            .secrets
            .as_ref()
            .and_then(|secrets| secrets.open(&due.subscription_id, &due.secret_enc));
        let outcome = match &secret {
            Some(secret) => {
                let timestamp = self.store.now().timestamp();
                Some(
                    sender::send(
                        &self.client,
                        &due.url,
                        &due.id,
                        secret,
                        timestamp,
                        &due.body,
                    )
                    .await,
                )
            }
            None => None,
        };
        // A failed connection while the network went away spends nothing.
        let offline = match &outcome {
            Some(SendOutcome::NameNotResolved) => true,
            Some(SendOutcome::Unreachable | SendOutcome::TimedOut) if probed => {
                !self.online(true).await
            }
            _ => false,
        };
        // At the stored precision (ms): the pause below then ends exactly when
        // the stored next attempt is due, not a fraction of a millisecond later.
        let now = self.store.now().trunc_subsecs(3);
        let stamp = clock::format_timestamp(now);
        if offline {
            let reason = match &outcome {
                Some(SendOutcome::NameNotResolved) => outcome
                    .as_ref()
                    .and_then(SendOutcome::error_text)
                    .unwrap_or_default(),
                _ => OFFLINE_TEXT.to_owned(),
            };
            let (id, server) = (due.id.clone(), self.server.clone());
            self.store
                .write(move |tx| store::note_waiting(tx, &id, &server, &reason, &stamp))
                .await?;
            // Do not spin on a name that does not resolve.
            self.pause(&due.subscription_id, now + chrono::Duration::seconds(30));
            return Ok(Sent::Held);
        }
        let (status, error, http_status, receiver_down) = match &outcome {
            Some(SendOutcome::Delivered { http_status }) => {
                (DeliveryStatus::Livree, None, Some(*http_status), false)
            }
            Some(failure) => (
                DeliveryStatus::Echec,
                failure.error_text(),
                failure.http_status(),
                failure.receiver_down(),
            ),
            None => (
                DeliveryStatus::Echec,
                Some(BAD_SECRET_TEXT.to_owned()),
                None,
                false,
            ),
        };
        let attempts_after = due.attempts + 1;
        let (status, next_at) = match status {
            DeliveryStatus::Livree => (status, None),
            _ => match next_attempt(&self.settings.retry_schedule, attempts_after, now) {
                Some(at) => (DeliveryStatus::Echec, Some(at)),
                None => (DeliveryStatus::Abandonnee, None),
            },
        };
        let next_stamp = next_at.map(clock::format_timestamp);
        let id = due.id.clone();
        let attempts_before = due.attempts;
        let recorded = {
            let error = error.clone();
            let next_stamp = next_stamp.clone();
            self.store
                .write(move |tx| {
                    store::record_attempt(
                        tx,
                        &AttemptRecord {
                            id: &id,
                            attempts_before,
                            status,
                            http_status,
                            error: error.as_deref(),
                            next_attempt_at: next_stamp.as_deref(),
                            now: &stamp,
                        },
                    )
                })
                .await?
        };
        if !recorded {
            return Ok(Sent::Skipped);
        }
        if status == DeliveryStatus::Livree {
            lock(&self.paused).remove(&due.subscription_id);
            tracing::debug!(delivery = %due.id, "webhook livré");
            return Ok(Sent::Delivered);
        }
        tracing::info!(
            delivery = %due.id,
            attempt = attempts_after,
            status = status.as_str(),
            "envoi de webhook en échec"
        );
        if status == DeliveryStatus::Abandonnee
            && let Some(notices) = &self.notices
        {
            notices.publish(crate::notices::Notice::DeliveryAbandoned {
                event: event_of(&due.body),
                receiver_host: Url::parse(&due.url)
                    .ok()
                    .and_then(|u| u.host_str().map(str::to_owned))
                    .unwrap_or_default(),
            });
        }
        if receiver_down && let Some(at) = next_at {
            self.pause(&due.subscription_id, at);
        }
        Ok(Sent::Failed { receiver_down })
    }

    fn pause(&self, subscription_id: &str, until: DateTime<Utc>) {
        lock(&self.paused).insert(subscription_id.to_owned(), until);
    }
}

/// The data directory's server id (`store::data_dir::server_id`); should
/// it be unreadable, one for this run (claims left by a crash then wait for
/// their lease), and the cause logged.
pub(crate) fn server_id(store: &Store) -> String {
    crate::store::data_dir::server_id(store.data_dir()).unwrap_or_else(|err| {
        tracing::error!(error = %err, "identifiant du serveur illisible");
        crate::store::new_id()
    })
}

/// The `event` of a delivery's body (`appel.clos`…).
fn event_of(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("event").and_then(|e| e.as_str()).map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// When the next attempt is due once `attempts` have failed; None: abandon.
pub fn next_attempt(
    schedule: &RetrySchedule,
    attempts: i64,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let delay = schedule.delay_after(attempts)?;
    Some(now + chrono::Duration::from_std(delay).ok()?)
}
