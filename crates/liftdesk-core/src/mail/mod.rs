//! E-mail: documents sent to clients through the organization's outgoing
//! server (SMTP). A message is written in the outbox (`store::mail`) in the
//! transaction that sends its document (`services::mailing`); the mail task
//! below hands it to the server at once and, should that fail, again on the
//! webhooks' retry schedule, whenever the machine is online. Right before
//! a send the message is claimed in the database for this server (as a
//! webhook delivery is): with several servers on one database, one sends
//! it, and another takes it over once the claim of a server that died
//! mid-send has passed. The server's password is kept encrypted with the
//! data directory's key.

pub mod transport;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use chrono::{SubsecRound, Utc};

use crate::clock;
use crate::domain::id::OrganizationId;
use crate::domain::mail::MailStatus;
use crate::error::{AppError, AppResult};
use crate::store::Store;
use crate::store::mail::{self as store, DueMail, MailAttempt, SettingsRow};
use crate::webhooks::secret_box::SecretBox;
use crate::webhooks::{Probe, RetrySchedule, WebhookSettings, sender};
use transport::{Outgoing, SendError, Server};

/// Messages tried per round.
const BATCH: u32 = 20;
/// Longest sleep between rounds.
const IDLE_POLL: Duration = Duration::from_secs(5);

const OFFLINE_TEXT: &str = "Hors ligne : envoi en attente du retour du réseau.";
const NO_SERVER_TEXT: &str = "Aucun serveur d'envoi n'est réglé : l'envoi partira dès qu'il le sera (Paramètres › E-mail (serveur d'envoi)).";
const BAD_SECRET_TEXT: &str = "Mot de passe du serveur d'envoi illisible : la clé du dossier de données a changé ; saisissez-le à nouveau (Paramètres › E-mail (serveur d'envoi)).";

/// The associated data that binds a sealed password to its organization.
fn password_aad(organization_id: &OrganizationId) -> String {
    format!("smtp:{}", organization_id.as_str())
}

/// The mail task and what the services need of it (sealing the password,
/// trying a message at once).
pub struct MailSync {
    store: Store,
    secrets: Option<SecretBox>,
    retry: RetrySchedule,
    probe: Probe,
    client: reqwest::Client,
    wake: tokio::sync::Notify,
    /// This server's id in the messages' claims (the task, an immediate
    /// attempt and the other servers of the database never send one
    /// twice: `store::mail::claim`).
    server: String,
    /// How long a claim lasts (the webhooks' `--webhook-claim`).
    claim: Duration,
}

impl std::fmt::Debug for MailSync {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailSync")
            .field("retry", &self.retry)
            .field("probe", &self.probe)
            .finish_non_exhaustive()
    }
}

impl MailSync {
    /// The mail task of a store, retrying and probing as the webhooks do
    /// (`LIFTDESK_WEBHOOK_RETRY_SCHEDULE`, `LIFTDESK_CONNECTIVITY_PROBE`).
    pub fn new(store: Store, settings: &WebhookSettings) -> Self {
        let secrets = SecretBox::of_store(&store);
        let client = sender::client_or_default();
        Self {
            secrets,
            retry: settings.retry_schedule.clone(),
            probe: settings.probe.clone(),
            client,
            wake: tokio::sync::Notify::new(),
            server: crate::webhooks::sync::server_id(&store),
            claim: settings.claim,
            store,
        }
    }

    /// Seals the outgoing server's password for storage.
    pub fn seal_password(
        &self,
        organization_id: &OrganizationId,
        plain: &str,
    ) -> AppResult<Vec<u8>> {
        let secrets = self.secrets.as_ref().ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!(
                "clé des secrets du dossier de données illisible"
            ))
        })?;
        Ok(secrets.seal(&password_aad(organization_id), plain)?)
    }

    /// The server to connect to, password opened; Err(reason) when the
    /// stored password cannot be read.
    pub fn server_of(
        &self,
        organization_id: &OrganizationId,
        row: &SettingsRow,
    ) -> Result<Server, String> {
        let password = match &row.password_enc {
            Some(sealed) => Some(
                self.secrets
                    .as_ref()
                    .and_then(|s| s.open(&password_aad(organization_id), sealed))
                    .ok_or_else(|| BAD_SECRET_TEXT.to_owned())?,
            ),
            None => None,
        };
        Ok(Server {
            host: row.host.clone(),
            port: row.port,
            security: row.security,
            username: row.username.clone(),
            password,
        })
    }

    /// Is the server reachable as far as the connectivity probe can tell?
    /// A server on this machine or the local network is always tried.
    pub async fn reachable(&self, host: &str) -> bool {
        if is_local(host) {
            return true;
        }
        self.probe.is_online(&self.client).await
    }

    /// Asks the task to look for messages now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Runs until the task is aborted.
    pub async fn run(self: Arc<Self>) {
        tracing::info!(schedule = %self.retry, "envoi des e-mails démarré");
        // Claims of this server's previous run (it stopped mid-send): due
        // again now, not after their claim.
        let server = self.server.clone();
        if let Err(err) = self
            .store
            .write(move |tx| store::release_claims_of(tx, &server))
            .await
        {
            tracing::error!(error = ?err, "reprise des e-mails interrompus en échec");
        }
        loop {
            let busy = match self.round().await {
                Ok(busy) => busy,
                Err(err) => {
                    tracing::error!(error = ?err, "tour d'envoi des e-mails en échec");
                    false
                }
            };
            if busy {
                continue;
            }
            tokio::select! {
                () = self.wake.notified() => {},
                () = tokio::time::sleep(IDLE_POLL) => {},
            }
        }
    }

    /// Tries the messages due now; true if a full batch was sent (more may
    /// be due).
    async fn round(&self) -> AppResult<bool> {
        let now = clock::format_timestamp(self.store.now());
        let due = self
            .store
            .read(move |conn| store::due(conn, &now, BATCH))
            .await?;
        let mut sent = 0;
        for id in &due {
            if self.attempt(id).await? == Some(MailStatus::Envoye) {
                sent += 1;
            }
        }
        Ok(sent == BATCH as usize)
    }

    /// One attempt at the message `id` if it is still to send: its new
    /// status, or None when nothing was tried (someone else holds it, it
    /// is no longer pending, or it waits for the network or a server).
    pub async fn attempt(&self, id: &str) -> AppResult<Option<MailStatus>> {
        let key = id.to_owned();
        let Some(due) = self
            .store
            .read(move |conn| store::pending(conn, &key))
            .await?
        else {
            return Ok(None);
        };
        let organization_id = due.organization_id.clone();
        let settings = self
            .store
            .read(move |conn| store::settings(conn, &organization_id))
            .await?;
        let Some(settings) = settings else {
            self.wait(&due, NO_SERVER_TEXT).await?;
            return Ok(None);
        };
        let server = match self.server_of(&due.organization_id, &settings) {
            Ok(server) => server,
            Err(reason) => {
                self.wait(&due, &reason).await?;
                return Ok(None);
            }
        };
        if !self.reachable(&server.host).await {
            self.wait(&due, OFFLINE_TEXT).await?;
            return Ok(None);
        }
        if !self.claim(&due).await? {
            return Ok(None);
        }
        let outcome = transport::send(&server, &outgoing_of(&due)).await;
        let status = self.record(&due, outcome).await?;
        Ok(Some(status))
    }

    /// Claims the message in the database for this server, for the
    /// claim's length; false if another server (or this one's other task)
    /// sends it, or it changed since it was read.
    async fn claim(&self, due: &DueMail) -> AppResult<bool> {
        let now = self.store.now();
        let until = now + chrono::Duration::from_std(self.claim).unwrap_or_default();
        let (id, attempts_before, server) = (due.id.clone(), due.attempts, self.server.clone());
        let (now, until) = (clock::format_timestamp(now), clock::format_timestamp(until));
        Ok(self
            .store
            .write(move |tx| store::claim(tx, &id, attempts_before, &server, &now, &until))
            .await?)
    }

    /// Notes why the message waits; nothing is written when it already
    /// says so (a message waiting for the network is looked at every few
    /// seconds).
    async fn wait(&self, due: &DueMail, reason: &str) -> AppResult<()> {
        if due.last_error.as_deref() == Some(reason) {
            return Ok(());
        }
        let (id, reason) = (due.id.clone(), reason.to_owned());
        self.store
            .write(move |tx| -> AppResult<()> {
                let now = tx.now_text();
                store::note_waiting(tx, &id, &reason, &now)?;
                Ok(())
            })
            .await
    }

    async fn record(&self, due: &DueMail, outcome: Result<(), SendError>) -> AppResult<MailStatus> {
        let attempts_after = due.attempts + 1;
        let now = self.store.now().trunc_subsecs(3);
        let (status, error, next) = match outcome {
            Ok(()) => {
                tracing::info!(mail = %due.id, "e-mail envoyé");
                (MailStatus::Envoye, None, None)
            }
            Err(err) if err.permanent => {
                tracing::warn!(mail = %due.id, reason = %err.reason, "e-mail refusé");
                (MailStatus::Abandonne, Some(err.reason), None)
            }
            Err(err) => match self.retry.delay_after(attempts_after) {
                Some(delay) => {
                    let next = now + chrono::Duration::from_std(delay).unwrap_or_default();
                    tracing::warn!(mail = %due.id, reason = %err.reason, "e-mail en échec, nouvel essai prévu");
                    (
                        MailStatus::Echec,
                        Some(err.reason),
                        Some(clock::format_timestamp(next)),
                    )
                }
                None => (
                    MailStatus::Abandonne,
                    Some(format!(
                        "{} Abandonné après {attempts_after} essais.",
                        err.reason
                    )),
                    None,
                ),
            },
        };
        let (id, attempts_before) = (due.id.clone(), due.attempts);
        let stamp = clock::format_timestamp(now.with_timezone(&Utc));
        self.store
            .write(move |tx| -> AppResult<()> {
                store::record_attempt(
                    tx,
                    &MailAttempt {
                        id: &id,
                        attempts_before,
                        status,
                        error: error.as_deref(),
                        next_attempt_at: next.as_deref(),
                        now: &stamp,
                    },
                )?;
                Ok(())
            })
            .await?;
        Ok(status)
    }
}

fn outgoing_of(due: &DueMail) -> Outgoing<'_> {
    Outgoing {
        from_name: &due.sender_name,
        from_email: &due.sender_email,
        to: due
            .recipients
            .iter()
            .map(|r| (r.name.as_str(), r.email.as_str()))
            .collect(),
        subject: &due.subject,
        body: &due.body,
        attachment: Some((&due.attachment_name, &due.attachment)),
    }
}

/// `localhost`, a loopback or private address: on this machine or the
/// agency's network, reachable offline.
fn is_local(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match host
        .trim_matches(|c| c == '[' || c == ']')
        .parse::<IpAddr>()
    {
        Ok(IpAddr::V4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
        Ok(IpAddr::V6(ip)) => ip.is_loopback() || ip.is_unique_local(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_servers_are_tried_offline() {
        assert!(is_local("127.0.0.1"));
        assert!(is_local("localhost"));
        assert!(is_local("192.168.1.10"));
        assert!(is_local("[::1]"));
        assert!(!is_local("smtp.exemple.fr"));
        assert!(!is_local("8.8.8.8"));
    }
}
