//! `Tx`: the store's write transaction, as every write sees it. It carries
//! the time of the transaction, read once from the store's injected clock
//! when the transaction begins, so that every row a write stamps carries the
//! same instant and tests (and the instruction-count gate) can fix it. It is
//! the store's own type: the operations above name it, never the engine's
//! transaction behind it.

use std::ops::Deref;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, Transaction, TransactionBehavior};

use super::StoreResult;
use crate::clock;

pub struct Tx<'c> {
    inner: Transaction<'c>,
    now: DateTime<Utc>,
}

impl<'c> Tx<'c> {
    /// Begins an IMMEDIATE transaction (the writer's lock taken at once)
    /// whose time is `now`.
    pub fn begin(conn: &'c mut Connection, now: DateTime<Utc>) -> StoreResult<Tx<'c>> {
        Ok(Tx {
            inner: conn.transaction_with_behavior(TransactionBehavior::Immediate)?,
            now,
        })
    }

    /// The time of this transaction.
    pub fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// The time of this transaction as stored (`2026-11-21T07:23:00.000Z`).
    pub fn now_text(&self) -> String {
        clock::format_timestamp(self.now)
    }

    pub fn commit(self) -> StoreResult<()> {
        Ok(self.inner.commit()?)
    }

    pub fn rollback(self) -> StoreResult<()> {
        Ok(self.inner.rollback()?)
    }
}

impl<'c> Deref for Tx<'c> {
    type Target = Transaction<'c>;

    fn deref(&self) -> &Transaction<'c> {
        &self.inner
    }
}
