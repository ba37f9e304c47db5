//! Webhook subscriptions and their deliveries. A delivery is one event for
//! one subscription; its row carries the schedule (`next_attempt_at`), so a
//! restart resumes exactly where the process stopped.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};
use crate::{Code, code};
use liftdesk_domain::id::{AccountId, AgencyId};

use super::StoreResult;
use super::new_id;

pub use liftdesk_domain::event::DeliveryStatus;

#[derive(Debug, Clone)]
pub struct SubscriptionRow {
    pub id: String,
    pub agency_id: String,
    pub url: String,
    pub events: Vec<String>,
    pub secret_enc: Vec<u8>,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

pub struct NewSubscription<'a> {
    pub id: &'a str,
    pub agency_id: &'a str,
    pub url: &'a str,
    pub events: &'a [String],
    pub secret_enc: &'a [u8],
    pub created_by: Option<&'a AccountId>,
    pub created_at: &'a str,
}

fn subscription_from(row: &crate::sql::Row<'_>) -> crate::StoreResult<SubscriptionRow> {
    let events: String = row.get(3)?;
    Ok(SubscriptionRow {
        id: row.get(0)?,
        agency_id: row.get(1)?,
        url: row.get(2)?,
        events: serde_json::from_str(&events).unwrap_or_default(),
        secret_enc: row.get(4)?,
        created_at: row.get(5)?,
        revoked_at: row.get(6)?,
    })
}

const SUBSCRIPTION_COLUMNS: &str = "id, agency_id, url, events, secret_enc, created_at, revoked_at";

pub fn insert_subscription(tx: &Tx, sub: &NewSubscription<'_>) -> StoreResult<()> {
    let events = serde_json::to_string(sub.events)?;
    tx.execute_cached(
        "INSERT INTO webhook_subscriptions (id, agency_id, url, events, secret_enc, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            sub.id,
            sub.agency_id,
            sub.url,
            events,
            sub.secret_enc,
            sub.created_by,
            sub.created_at
        ],
    )?;
    Ok(())
}

/// A subscription of the agency, revoked or not.
pub fn get_subscription(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &str,
) -> StoreResult<Option<SubscriptionRow>> {
    let agency_id = agency_id.as_str();
    conn
        .query_row_cached(
            &format!(
                "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ?1 AND agency_id = ?2"
            ),
            params![id, agency_id],
            subscription_from,
        )
        .optional()
}

/// The agency's live subscriptions, oldest first.
pub fn live_subscriptions(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<SubscriptionRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions
          WHERE agency_id = ?1 AND revoked_at IS NULL ORDER BY created_at, id"
    ))?;
    let rows = stmt
        .query_map(params![agency_id], subscription_from)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Marks the subscription revoked and abandons its pending deliveries;
/// returns how many were abandoned, or None if it was not live.
pub fn revoke_subscription(
    tx: &Tx,
    agency_id: &AgencyId,
    id: &str,
    now: &str,
) -> StoreResult<Option<usize>> {
    let agency_id = agency_id.as_str();
    let changed = tx.execute_cached(
        "UPDATE webhook_subscriptions SET revoked_at = ?3
          WHERE id = ?1 AND agency_id = ?2 AND revoked_at IS NULL",
        params![id, agency_id, now],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    let abandoned = tx.execute_cached(
        "UPDATE webhook_deliveries
            SET status = 'abandonnee', next_attempt_at = NULL, updated_at = ?2,
                last_error = 'Abonnement révoqué : envoi abandonné.'
          WHERE subscription_id = ?1 AND status IN ('en_attente', 'echec')",
        params![id, now],
    )?;
    Ok(Some(abandoned))
}

/// Queues one delivery of `event_id` for every live subscription of the
/// agency that subscribed to `event`; returns their ids.
pub fn fan_out(
    tx: &Tx,
    agency_id: &AgencyId,
    event: &str,
    event_id: &str,
    now: &str,
) -> StoreResult<Vec<String>> {
    let agency_id = agency_id.as_str();
    let subscribers: Vec<String> = {
        let mut stmt = tx.prepare_cached(
            "SELECT s.id FROM webhook_subscriptions s
              WHERE s.agency_id = ?1 AND s.revoked_at IS NULL
                AND EXISTS (SELECT 1 FROM json_each(s.events) e WHERE e.value = ?2)
              ORDER BY s.created_at, s.id",
        )?;
        stmt.query_map(params![agency_id, event], |r| r.get(0))?
            .collect::<Result<_, _>>()?
    };
    subscribers
        .iter()
        .map(|subscription_id| insert_delivery(tx, event_id, subscription_id, now))
        .collect()
}

/// Queues a delivery, due at once.
pub fn insert_delivery(
    tx: &Tx,
    event_id: &str,
    subscription_id: &str,
    now: &str,
) -> StoreResult<String> {
    let id = new_id();
    tx.execute_cached(
        "INSERT INTO webhook_deliveries (id, event_id, subscription_id, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, 'en_attente', 0, ?4, ?4, ?4)",
        params![id, event_id, subscription_id, now],
    )?;
    Ok(id)
}

/// A delivery as listed.
#[derive(Debug, Clone)]
pub struct DeliveryRow {
    pub id: String,
    pub subscription_id: String,
    pub event: String,
    pub object_id: String,
    pub occurred_at: String,
    pub status: DeliveryStatus,
    pub attempts: i64,
    pub last_http_status: Option<i64>,
    pub last_error: Option<String>,
    pub next_attempt_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub delivered_at: Option<String>,
}

const DELIVERY_COLUMNS: &str = "d.id, d.subscription_id, e.event, e.object_id, e.occurred_at, d.status, d.attempts,
     d.last_http_status, d.last_error, d.next_attempt_at, d.created_at, d.updated_at, d.delivered_at";

fn delivery_from(row: &crate::sql::Row<'_>) -> crate::StoreResult<DeliveryRow> {
    Ok(DeliveryRow {
        id: row.get(0)?,
        subscription_id: row.get(1)?,
        event: row.get(2)?,
        object_id: row.get(3)?,
        occurred_at: row.get(4)?,
        status: code(row, 5)?,
        attempts: row.get(6)?,
        last_http_status: row.get(7)?,
        last_error: row.get(8)?,
        next_attempt_at: row.get(9)?,
        created_at: row.get(10)?,
        updated_at: row.get(11)?,
        delivered_at: row.get(12)?,
    })
}

/// The subscription's deliveries, newest first, and how many there are.
pub fn list_deliveries(
    conn: &Conn,
    subscription_id: &str,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<DeliveryRow>)> {
    let total: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM webhook_deliveries WHERE subscription_id = ?1",
        params![subscription_id],
        |r| r.get(0),
    )?;
    let insertion = insertion_order(conn);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {DELIVERY_COLUMNS}
           FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
          WHERE d.subscription_id = ?1
          ORDER BY d.created_at DESC, {insertion} DESC
          LIMIT ?2 OFFSET ?3"
    ))?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = stmt
        .query_map(params![subscription_id, limit, offset], delivery_from)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((total, rows))
}

pub fn get_delivery(conn: &Conn, id: &str) -> StoreResult<Option<DeliveryRow>> {
    conn.query_row_cached(
        &format!(
            "SELECT {DELIVERY_COLUMNS}
                   FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
                  WHERE d.id = ?1"
        ),
        params![id],
        delivery_from,
    )
    .optional()
}

/// What a send needs: the exact body, where to, and the signing key.
#[derive(Debug, Clone)]
pub struct DueDelivery {
    pub id: String,
    pub subscription_id: String,
    pub url: String,
    pub secret_enc: Vec<u8>,
    pub body: String,
    pub attempts: i64,
}

fn due_from(row: &crate::sql::Row<'_>) -> crate::StoreResult<DueDelivery> {
    Ok(DueDelivery {
        id: row.get(0)?,
        subscription_id: row.get(1)?,
        url: row.get(2)?,
        secret_enc: row.get(3)?,
        body: row.get(4)?,
        attempts: row.get(5)?,
    })
}

const DUE_COLUMNS: &str = "d.id, d.subscription_id, s.url, s.secret_enc, e.body, d.attempts";

/// Live subscriptions with a delivery due at `now`, and their addresses;
/// not those with a delivery being sent (claimed, the claim running): one
/// send at a time per receiver, whichever server sends.
pub fn due_subscriptions(conn: &Conn, now: &str) -> StoreResult<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.id, s.url FROM webhook_subscriptions s
          WHERE s.revoked_at IS NULL
            AND s.id IN (SELECT d.subscription_id FROM webhook_deliveries d
                          WHERE d.status IN ('en_attente', 'echec') AND d.next_attempt_at <= ?1)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries c
                             WHERE c.subscription_id = s.id
                               AND c.claimed_until IS NOT NULL AND c.claimed_until > ?1)
          ORDER BY s.created_at, s.id",
    )?;
    let rows = stmt
        .query_map(params![now], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The subscription's deliveries due at `now`, oldest event first (the order
/// they are sent in), at most `limit`; none while one of its deliveries is
/// being sent.
pub fn due_for_subscription(
    conn: &Conn,
    subscription_id: &str,
    now: &str,
    limit: u32,
) -> StoreResult<Vec<DueDelivery>> {
    let insertion = insertion_order(conn);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {DUE_COLUMNS}
           FROM webhook_deliveries d INDEXED BY webhook_deliveries_pending
           JOIN webhook_subscriptions s ON s.id = d.subscription_id
           JOIN outbox_events e ON e.id = d.event_id
          WHERE d.subscription_id = ?1 AND d.status IN ('en_attente', 'echec')
            AND d.next_attempt_at <= ?2 AND s.revoked_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries c
                             WHERE c.subscription_id = s.id
                               AND c.claimed_until IS NOT NULL AND c.claimed_until > ?2)
          ORDER BY d.created_at, {insertion}
          LIMIT ?3"
    ))?;
    let rows = stmt
        .query_map(params![subscription_id, now, limit], due_from)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// One pending delivery, whatever its time (the immediate test send).
pub fn pending_delivery(conn: &Conn, id: &str) -> StoreResult<Option<DueDelivery>> {
    conn.query_row_cached(
        &format!(
            "SELECT {DUE_COLUMNS}
                   FROM webhook_deliveries d
                   JOIN webhook_subscriptions s ON s.id = d.subscription_id
                   JOIN outbox_events e ON e.id = d.event_id
                  WHERE d.id = ?1 AND d.status IN ('en_attente', 'echec') AND s.revoked_at IS NULL"
        ),
        params![id],
        due_from,
    )
    .optional()
}

/// The outcome of one attempt, to record.
pub struct AttemptRecord<'a> {
    pub id: &'a str,
    /// The attempt count the send was made with (guards against a
    /// concurrent record of the same attempt).
    pub attempts_before: i64,
    pub status: DeliveryStatus,
    pub http_status: Option<u16>,
    pub error: Option<&'a str>,
    pub next_attempt_at: Option<&'a str>,
    pub now: &'a str,
}

/// Records an attempt (and ends its claim); false if the delivery was
/// meanwhile revoked, delivered or attempted by someone else.
pub fn record_attempt(tx: &Tx, attempt: &AttemptRecord<'_>) -> StoreResult<bool> {
    let delivered_at = (attempt.status == DeliveryStatus::Livree).then_some(attempt.now);
    let changed = tx.execute_cached(
        "UPDATE webhook_deliveries
            SET status = ?3, attempts = attempts + 1, last_http_status = ?4, last_error = ?5,
                next_attempt_at = ?6, updated_at = ?7, delivered_at = ?8,
                claimed_by = NULL, claimed_until = NULL
          WHERE id = ?1 AND attempts = ?2 AND status IN ('en_attente', 'echec')",
        params![
            attempt.id,
            attempt.attempts_before,
            Code(attempt.status),
            attempt.http_status,
            attempt.error,
            attempt.next_attempt_at,
            attempt.now,
            delivered_at,
        ],
    )?;
    Ok(changed == 1)
}

/// Notes why a due delivery waits without spending an attempt (offline),
/// and ends `server`'s claim on it.
pub fn note_waiting(tx: &Tx, id: &str, server: &str, reason: &str, now: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE webhook_deliveries SET last_error = ?2, updated_at = ?3
          WHERE id = ?1 AND status IN ('en_attente', 'echec')",
        params![id, reason, now],
    )?;
    release_claim(tx, id, server)
}

/// A server's claim on a delivery it is about to send.
pub struct ClaimRequest<'a> {
    pub id: &'a str,
    /// The attempt count the delivery was read with: a delivery attempted
    /// meanwhile (by another server) is not claimed again.
    pub attempts_before: i64,
    /// The claiming process's id.
    pub server: &'a str,
    pub now: &'a str,
    /// The lease's end: past it, another server may take the delivery over.
    pub until: &'a str,
}

/// Claims a due delivery for one server until the lease's end; false if it
/// is no longer due as read, or a delivery of the same subscription (this
/// one or another) is claimed and its lease still runs. The one statement
/// is the whole race: of two servers, one changes the row (writes are
/// serialised per database, `tx.rs`).
pub fn claim_delivery(tx: &Tx, claim: &ClaimRequest<'_>) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE webhook_deliveries SET claimed_by = ?3, claimed_until = ?5
          WHERE id = ?1 AND attempts = ?2 AND status IN ('en_attente', 'echec')
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries c
                             WHERE c.subscription_id = webhook_deliveries.subscription_id
                               AND c.claimed_until IS NOT NULL AND c.claimed_until > ?4)",
        params![
            claim.id,
            claim.attempts_before,
            claim.server,
            claim.now,
            claim.until
        ],
    )?;
    Ok(changed == 1)
}

/// Ends every claim of `server` (it starts again: what it was sending
/// when it stopped is due again at once). Returns how many.
pub fn release_claims_of(tx: &Tx, server: &str) -> StoreResult<usize> {
    tx.execute_cached(
        "UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
          WHERE claimed_by = ?1 AND claimed_until IS NOT NULL",
        params![server],
    )
}

/// Ends `server`'s claim on a delivery (another's is left alone).
pub fn release_claim(tx: &Tx, id: &str, server: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
          WHERE id = ?1 AND claimed_by = ?2",
        params![id, server],
    )?;
    Ok(())
}

/// Pending deliveries (queued or to retry) and the earliest next attempt,
/// for one agency or (None) all of them.
pub fn pending_summary(conn: &Conn, agency_id: Option<&str>) -> StoreResult<(i64, Option<String>)> {
    conn.query_row_cached(
        "SELECT COUNT(*), MIN(d.next_attempt_at)
           FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
          WHERE d.status IN ('en_attente', 'echec') AND s.revoked_at IS NULL
            AND (?1 IS NULL OR s.agency_id = ?1)",
        params![agency_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// The latest reason a delivery still waits (the receiver's answer,
/// offline…), over every live subscription: the desktop tray shows it.
pub fn latest_pending_error(conn: &Conn) -> StoreResult<Option<String>> {
    let mut stmt = conn.prepare(
        "SELECT d.last_error
           FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
          WHERE d.status IN ('en_attente', 'echec') AND s.revoked_at IS NULL
            AND d.last_error IS NOT NULL
          ORDER BY d.updated_at DESC LIMIT 1",
    )?;
    let mut rows = stmt.query([])?;
    Ok(match rows.next()? {
        Some(row) => row.get(0)?,
        None => None,
    })
}

/// The earliest scheduled attempt after `now` (the sync task sleeps until it).
pub fn next_attempt_after(conn: &Conn, now: &str) -> StoreResult<Option<String>> {
    conn.query_row_cached(
        "SELECT MIN(d.next_attempt_at)
           FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
          WHERE d.status IN ('en_attente', 'echec') AND d.next_attempt_at > ?1
            AND s.revoked_at IS NULL",
        params![now],
        |r| r.get(0),
    )
}

/// What orders deliveries made at the same instant: the order they were
/// queued in (SQLite's `rowid`; on PostgreSQL their ids, UUID v7 given in
/// increasing order by the process that queued them).
fn insertion_order(conn: &Conn) -> &'static str {
    conn.dialect("d.rowid", "d.id")
}
