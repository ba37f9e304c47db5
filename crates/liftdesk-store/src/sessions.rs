//! Staff web-UI sessions. The cookie's secret is kept as a SHA-256
//! fingerprint only.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AccountId, AgencyId, SessionId};

use super::StoreResult;
use super::new_id;

#[derive(Debug, Clone)]
pub struct SessionRow {
    pub id: SessionId,
    pub account_id: AccountId,
    pub agency_id: Option<String>,
    pub last_seen_at: String,
    pub expires_at: String,
}

pub struct NewSession<'a> {
    pub account_id: &'a AccountId,
    pub fingerprint: &'a str,
    pub agency_id: Option<&'a str>,
    pub now: &'a str,
    pub expires_at: &'a str,
}

pub fn create(tx: &Tx, session: &NewSession<'_>) -> StoreResult<SessionId> {
    let id = SessionId::new(new_id());
    tx.execute_cached(
        "INSERT INTO sessions (id, account_id, fingerprint, agency_id, created_at, last_seen_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)",
        params![
            id,
            session.account_id,
            session.fingerprint,
            session.agency_id,
            session.now,
            session.expires_at
        ],
    )?;
    Ok(id)
}

/// A session that is neither revoked nor expired at `now`, of an active account.
pub fn find_live(conn: &Conn, fingerprint: &str, now: &str) -> StoreResult<Option<SessionRow>> {
    conn
        .query_row_cached(
            "SELECT s.id, s.account_id, s.agency_id, s.last_seen_at, s.expires_at
             FROM sessions s JOIN accounts a ON a.id = s.account_id
             WHERE s.fingerprint = ?1 AND s.revoked_at IS NULL AND s.expires_at > ?2 AND a.active = 1",
            params![fingerprint, now],
            |row| {
                Ok(SessionRow {
                    id: row.get(0)?,
                    account_id: row.get(1)?,
                    agency_id: row.get(2)?,
                    last_seen_at: row.get(3)?,
                    expires_at: row.get(4)?,
                })
            },
        )
        .optional()
}

pub fn extend(tx: &Tx, id: &SessionId, now: &str, expires_at: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE sessions SET last_seen_at = ?2, expires_at = ?3 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, now, expires_at],
    )?;
    Ok(())
}

pub fn revoke(tx: &Tx, id: &SessionId, now: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, now],
    )?;
    Ok(())
}

/// Revokes the account's other sessions (after a password change).
pub fn revoke_others(
    tx: &Tx,
    account_id: &AccountId,
    keep_session_id: Option<&SessionId>,
    now: &str,
) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE sessions SET revoked_at = ?3
         WHERE account_id = ?1 AND revoked_at IS NULL AND (?2 IS NULL OR id <> ?2)",
        params![account_id, keep_session_id, now],
    )?;
    Ok(())
}

/// Revokes every live session of the account (it was deactivated); how many.
pub fn revoke_all(tx: &Tx, account_id: &AccountId, now: &str) -> StoreResult<usize> {
    tx.execute_cached(
        "UPDATE sessions SET revoked_at = ?2 WHERE account_id = ?1 AND revoked_at IS NULL",
        params![account_id, now],
    )
}

/// The agency a session acts in (the web application's agency switcher).
pub fn set_agency(tx: &Tx, id: &SessionId, agency_id: &AgencyId) -> StoreResult<()> {
    let agency_id = agency_id.as_str();
    tx.execute_cached(
        "UPDATE sessions SET agency_id = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, agency_id],
    )?;
    Ok(())
}
