//! E-mail: the organization's outgoing server (`mail_settings`) and the
//! outbox of documents sent by e-mail (`mails`). A message is written in the
//! transaction that moves its document to "sent", with its PDF; its row
//! carries the schedule (`next_attempt_at`), so a restart resumes where the
//! process stopped.

use crate::sql::{OptionalExtension, params};
use crate::{Code, Conn, StoreResult, Tx, code};
use liftdesk_domain::id::{AccountId, AgencyId, OrganizationId};
use liftdesk_domain::mail::{MailStatus, SmtpSecurity};
use serde::{Deserialize, Serialize};

/// The outgoing server of an organization, its password still sealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsRow {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    pub username: Option<String>,
    pub password_enc: Option<Vec<u8>>,
    pub updated_at: String,
}

pub fn settings(conn: &Conn, organization_id: &OrganizationId) -> StoreResult<Option<SettingsRow>> {
    conn.query_row_cached(
        "SELECT host, port, security, username, password_enc, updated_at
           FROM mail_settings WHERE organization_id = ?1",
        params![organization_id.as_str()],
        |r| {
            Ok(SettingsRow {
                host: r.get(0)?,
                port: r.get(1)?,
                security: code(r, 2)?,
                username: r.get(3)?,
                password_enc: r.get(4)?,
                updated_at: r.get(5)?,
            })
        },
    )
    .optional()
}

/// Writes the organization's outgoing server (created or replaced whole).
pub fn save_settings(
    tx: &Tx,
    organization_id: &OrganizationId,
    row: &SettingsRow,
    by: Option<&AccountId>,
) -> StoreResult<()> {
    tx.execute_cached(
        "INSERT INTO mail_settings (organization_id, host, port, security, username, password_enc, updated_at, updated_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (organization_id) DO UPDATE SET
            host = excluded.host, port = excluded.port, security = excluded.security,
            username = excluded.username, password_enc = excluded.password_enc,
            updated_at = excluded.updated_at, updated_by = excluded.updated_by",
        params![
            organization_id.as_str(),
            row.host,
            row.port,
            Code(row.security),
            row.username,
            row.password_enc,
            row.updated_at,
            by.map(AccountId::as_str),
        ],
    )?;
    Ok(())
}

/// One recipient of a message, as stored (JSON) and shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recipient {
    pub name: String,
    pub email: String,
    pub contact_id: Option<String>,
}

/// A message to write in the outbox.
pub struct NewMail<'a> {
    pub id: &'a str,
    pub agency_id: &'a AgencyId,
    pub object_type: &'a str,
    pub object_id: &'a str,
    pub sender_name: &'a str,
    pub sender_email: &'a str,
    pub recipients: &'a [Recipient],
    pub subject: &'a str,
    pub body: &'a str,
    pub attachment_name: &'a str,
    pub attachment: &'a [u8],
    pub created_by: Option<&'a AccountId>,
    pub now: &'a str,
}

pub fn insert(tx: &Tx, mail: &NewMail<'_>) -> StoreResult<()> {
    let recipients = serde_json::to_string(mail.recipients)?;
    tx.execute_cached(
        "INSERT INTO mails (id, agency_id, object_type, object_id, sender_name, sender_email,
                            recipients, subject, body, attachment_name, attachment, status,
                            attempts, next_attempt_at, created_by, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'en_attente', 0, ?12, ?13, ?12, ?12)",
        params![
            mail.id,
            mail.agency_id.as_str(),
            mail.object_type,
            mail.object_id,
            mail.sender_name,
            mail.sender_email,
            recipients,
            mail.subject,
            mail.body,
            mail.attachment_name,
            mail.attachment,
            mail.now,
            mail.created_by.map(AccountId::as_str),
        ],
    )?;
    Ok(())
}

/// A message as its document shows it (without the attachment's bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailRow {
    pub id: String,
    pub object_type: String,
    pub object_id: String,
    pub sender_name: String,
    pub sender_email: String,
    pub recipients: Vec<Recipient>,
    pub subject: String,
    pub attachment_name: String,
    pub attachment_bytes: i64,
    pub status: MailStatus,
    pub attempts: i64,
    pub next_attempt_at: Option<String>,
    pub last_error: Option<String>,
    pub created_by_name: Option<String>,
    pub created_at: String,
    pub sent_at: Option<String>,
}

const ROW_COLUMNS: &str = "m.id, m.object_type, m.object_id, m.sender_name, m.sender_email,
    m.recipients, m.subject, m.attachment_name, length(m.attachment), m.status, m.attempts,
    m.next_attempt_at, m.last_error, a.name, m.created_at, m.sent_at";

fn row_from(r: &crate::sql::Row<'_>) -> StoreResult<MailRow> {
    let recipients: String = r.get(5)?;
    Ok(MailRow {
        id: r.get(0)?,
        object_type: r.get(1)?,
        object_id: r.get(2)?,
        sender_name: r.get(3)?,
        sender_email: r.get(4)?,
        recipients: serde_json::from_str(&recipients)?,
        subject: r.get(6)?,
        attachment_name: r.get(7)?,
        attachment_bytes: r.get(8)?,
        status: code(r, 9)?,
        attempts: r.get(10)?,
        next_attempt_at: r.get(11)?,
        last_error: r.get(12)?,
        created_by_name: r.get(13)?,
        created_at: r.get(14)?,
        sent_at: r.get(15)?,
    })
}

/// The messages of one document of the agency, newest first.
pub fn of_object(
    conn: &Conn,
    agency_id: &AgencyId,
    object_type: &str,
    object_id: &str,
) -> StoreResult<Vec<MailRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ROW_COLUMNS} FROM mails m LEFT JOIN accounts a ON a.id = m.created_by
          WHERE m.agency_id = ?1 AND m.object_type = ?2 AND m.object_id = ?3
          ORDER BY m.created_at DESC, m.id DESC"
    ))?;
    let rows = stmt
        .query_map(
            params![agency_id.as_str(), object_type, object_id],
            row_from,
        )?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// One message of the agency.
pub fn get(conn: &Conn, agency_id: &AgencyId, id: &str) -> StoreResult<Option<MailRow>> {
    conn.query_row_cached(
        &format!(
            "SELECT {ROW_COLUMNS} FROM mails m LEFT JOIN accounts a ON a.id = m.created_by
              WHERE m.id = ?1 AND m.agency_id = ?2"
        ),
        params![id, agency_id.as_str()],
        row_from,
    )
    .optional()
}

/// A message the mail task is to send, with what it needs to send it.
#[derive(Debug, Clone)]
pub struct DueMail {
    pub id: String,
    pub organization_id: OrganizationId,
    pub sender_name: String,
    pub sender_email: String,
    pub recipients: Vec<Recipient>,
    pub subject: String,
    pub body: String,
    pub attachment_name: String,
    pub attachment: Vec<u8>,
    pub attempts: i64,
    /// Why it last failed or waited.
    pub last_error: Option<String>,
}

const DUE_COLUMNS: &str = "m.id, g.organization_id, m.sender_name, m.sender_email, m.recipients,
    m.subject, m.body, m.attachment_name, m.attachment, m.attempts, m.last_error";

fn due_from(r: &crate::sql::Row<'_>) -> StoreResult<DueMail> {
    let recipients: String = r.get(4)?;
    Ok(DueMail {
        id: r.get(0)?,
        organization_id: OrganizationId::new(r.get::<String>(1)?),
        sender_name: r.get(2)?,
        sender_email: r.get(3)?,
        recipients: serde_json::from_str(&recipients)?,
        subject: r.get(5)?,
        body: r.get(6)?,
        attachment_name: r.get(7)?,
        attachment: r.get(8)?,
        attempts: r.get(9)?,
        last_error: r.get(10)?,
    })
}

/// The ids of the messages due at `now` and not being sent (claimed, the
/// claim running), oldest first, at most `limit`.
pub fn due(conn: &Conn, now: &str, limit: u32) -> StoreResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM mails INDEXED BY mails_due
          WHERE status IN ('en_attente', 'echec') AND next_attempt_at <= ?1
            AND (claimed_until IS NULL OR claimed_until <= ?1)
          ORDER BY next_attempt_at, id LIMIT ?2",
    )?;
    let rows = stmt
        .query_map(params![now, limit], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(rows)
}

/// One message still to send, whatever its time (the attempt made at once
/// when it is written, or asked for again).
pub fn pending(conn: &Conn, id: &str) -> StoreResult<Option<DueMail>> {
    conn.query_row_cached(
        &format!(
            "SELECT {DUE_COLUMNS} FROM mails m JOIN agencies g ON g.id = m.agency_id
              WHERE m.id = ?1 AND m.status IN ('en_attente', 'echec')"
        ),
        params![id],
        due_from,
    )
    .optional()
}

/// The outcome of one attempt.
pub struct MailAttempt<'a> {
    pub id: &'a str,
    /// The attempt count the send was made with (guards against a
    /// concurrent record of the same attempt).
    pub attempts_before: i64,
    pub status: MailStatus,
    pub error: Option<&'a str>,
    pub next_attempt_at: Option<&'a str>,
    pub now: &'a str,
}

/// Claims a message about to be sent for one server until `until`; false
/// if it is no longer to send as read (`attempts_before`), or another
/// server's claim still runs. One statement: of two servers, one gets it.
pub fn claim(
    tx: &Tx,
    id: &str,
    attempts_before: i64,
    server: &str,
    now: &str,
    until: &str,
) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE mails SET claimed_by = ?3, claimed_until = ?5
          WHERE id = ?1 AND attempts = ?2 AND status IN ('en_attente', 'echec')
            AND (claimed_until IS NULL OR claimed_until <= ?4)",
        params![id, attempts_before, server, now, until],
    )?;
    Ok(changed == 1)
}

/// Ends every claim of `server` (it starts again: what it was sending when
/// it stopped is due again at once). Returns how many.
pub fn release_claims_of(tx: &Tx, server: &str) -> StoreResult<usize> {
    tx.execute_cached(
        "UPDATE mails SET claimed_by = NULL, claimed_until = NULL
          WHERE claimed_by = ?1 AND claimed_until IS NOT NULL",
        params![server],
    )
}

/// Records an attempt (and ends its claim); false if someone else
/// meanwhile did.
pub fn record_attempt(tx: &Tx, attempt: &MailAttempt<'_>) -> StoreResult<bool> {
    let sent_at = (attempt.status == MailStatus::Envoye).then_some(attempt.now);
    let changed = tx.execute_cached(
        "UPDATE mails
            SET status = ?3, attempts = attempts + 1, last_error = ?4, next_attempt_at = ?5,
                updated_at = ?6, sent_at = ?7, claimed_by = NULL, claimed_until = NULL
          WHERE id = ?1 AND attempts = ?2 AND status IN ('en_attente', 'echec')",
        params![
            attempt.id,
            attempt.attempts_before,
            Code(attempt.status),
            attempt.error,
            attempt.next_attempt_at,
            attempt.now,
            sent_at,
        ],
    )?;
    Ok(changed == 1)
}

/// Notes why a due message waits without spending an attempt (offline, no
/// outgoing server). The same reason again writes nothing: a message waiting
/// for the network is looked at every few seconds.
pub fn note_waiting(tx: &Tx, id: &str, reason: &str, now: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE mails SET last_error = ?2, updated_at = ?3
          WHERE id = ?1 AND status IN ('en_attente', 'echec') AND last_error IS NOT ?2",
        params![id, reason, now],
    )?;
    Ok(())
}

/// Asks again for a message that failed or was abandoned: due at once,
/// its attempts counted afresh. False if it is sent or already waiting.
pub fn requeue(tx: &Tx, agency_id: &AgencyId, id: &str, now: &str) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE mails SET status = 'en_attente', attempts = 0, next_attempt_at = ?3, updated_at = ?3
          WHERE id = ?1 AND agency_id = ?2 AND status IN ('echec', 'abandonne')",
        params![id, agency_id.as_str(), now],
    )?;
    Ok(changed == 1)
}

/// Messages still to send, and the latest reason one of them waits (the
/// desktop tray and the diagnostics).
pub fn pending_overview(conn: &Conn) -> StoreResult<(i64, Option<String>)> {
    let count: i64 = conn.query_row_cached(
        "SELECT count(*) FROM mails INDEXED BY mails_due WHERE status IN ('en_attente', 'echec')",
        params![],
        |r| r.get(0),
    )?;
    let last: Option<String> = conn
        .query_row_cached(
            "SELECT last_error FROM mails INDEXED BY mails_due
              WHERE status IN ('en_attente', 'echec') AND last_error IS NOT NULL
              ORDER BY updated_at DESC LIMIT 1",
            params![],
            |r| r.get(0),
        )
        .optional()?;
    Ok((count, last))
}
