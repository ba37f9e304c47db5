//! The fingerprints of the key files the servers of one database share
//! (`server_keys`): the first server records its own, the others compare.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};

use super::StoreResult;

/// The fingerprint recorded for the key file `name`, if any.
pub fn recorded(conn: &Conn, name: &str) -> StoreResult<Option<String>> {
    conn.query_row_cached(
        "SELECT fingerprint FROM server_keys WHERE name = ?1",
        params![name],
        |r| r.get(0),
    )
    .optional()
}

/// Records `fingerprint` for the key file `name` unless one is recorded
/// already; returns the one recorded (this one, or the first server's).
pub fn record_first(tx: &Tx, name: &str, fingerprint: &str, now: &str) -> StoreResult<String> {
    tx.execute_cached(
        "INSERT INTO server_keys (name, fingerprint, recorded_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (name) DO NOTHING",
        params![name, fingerprint, now],
    )?;
    tx.query_row_cached(
        "SELECT fingerprint FROM server_keys WHERE name = ?1",
        params![name],
        |r| r.get(0),
    )
}
