//! The store's own handles on the database, the only ones the operations
//! above name (never the engine's types):
//! - `Conn`, what a read gets (`Store::read(|conn| …)`) and what every
//!   reading function of the store takes;
//! - `Tx`, the write transaction, as every write sees it (`Store::write`).
//!   It carries the time of the transaction, read once from the store's
//!   injected clock when the transaction begins, so that every row a write
//!   stamps carries the same instant and tests (and the instruction-count
//!   gate) can fix it. A `Tx` is also a `Conn`: a write reads what it has
//!   written.

use std::cell::Cell;
use std::ops::Deref;

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::{StoreError, StoreResult};
use crate::clock;
use crate::pg::PgConn;
use crate::sql::{Params, Row, Statement, ToValue, params_from_iter};

/// A connection of the store (a pooled reader, or the writer inside a
/// transaction), on either engine.
pub struct Conn {
    engine: EngineConn,
}

pub(crate) enum EngineConn {
    Sqlite(Connection),
    Postgres(PgConn),
}

impl Conn {
    /// The store's handle on a SQLite connection.
    pub(crate) fn sqlite_conn(conn: Connection) -> Conn {
        Conn {
            engine: EngineConn::Sqlite(conn),
        }
    }

    /// The SQLite connection back from its handle (tests).
    #[cfg(test)]
    pub(crate) fn into_sqlite(self) -> Option<Connection> {
        match self.engine {
            EngineConn::Sqlite(conn) => Some(conn),
            EngineConn::Postgres(_) => None,
        }
    }

    /// The store's handle on a PostgreSQL connection.
    pub(crate) fn postgres_conn(conn: PgConn) -> Conn {
        Conn {
            engine: EngineConn::Postgres(conn),
        }
    }

    /// `sqlite` on SQLite, `postgres` on PostgreSQL: for the few statements
    /// that `dialect.rs` cannot rewrite word by word (a SQLite function
    /// without a twin, `rowid`), written for each engine by their module.
    pub(crate) fn dialect<'s>(&self, sqlite: &'s str, postgres: &'s str) -> &'s str {
        match self.engine {
            EngineConn::Sqlite(_) => sqlite,
            EngineConn::Postgres(_) => postgres,
        }
    }

    /// The engine's connection, for the engine's own files (backups,
    /// migrations, the cache's change counter); the aggregates' modules go
    /// through `sql.rs`. Nothing outside this crate can reach it, so no code
    /// above the store names the engine. A SQLite-only operation asked of
    /// PostgreSQL is refused.
    pub(crate) fn sqlite(&self) -> StoreResult<&Connection> {
        match &self.engine {
            EngineConn::Sqlite(conn) => Ok(conn),
            EngineConn::Postgres(_) => Err(StoreError::Encoding(
                "opération propre à SQLite demandée sur PostgreSQL".to_owned(),
            )),
        }
    }

    /// The PostgreSQL connection, for that engine's own files.
    pub(crate) fn postgres(&self) -> Option<&PgConn> {
        match &self.engine {
            EngineConn::Postgres(conn) => Some(conn),
            EngineConn::Sqlite(_) => None,
        }
    }

    /// Whether the connection can go back to its pool.
    pub(crate) fn is_usable(&self) -> bool {
        match &self.engine {
            EngineConn::Sqlite(_) => true,
            EngineConn::Postgres(conn) => conn.is_usable(),
        }
    }

    /// Prepares `sql` once per connection and keeps it: parsing and
    /// planning a statement costs more than running most of them (a call's
    /// creation spent half its instructions in SQLite's parser), so the
    /// store runs every statement it runs often through this.
    pub(crate) fn prepare_cached(&self, sql: &str) -> StoreResult<Statement<'_>> {
        match &self.engine {
            EngineConn::Sqlite(conn) => Ok(Statement::sqlite_cached(conn.prepare_cached(sql)?)),
            EngineConn::Postgres(conn) => Ok(Statement::postgres(conn, conn.prepare(sql)?)),
        }
    }

    /// Prepares `sql` for this use only (a text built for one request).
    pub(crate) fn prepare(&self, sql: &str) -> StoreResult<Statement<'_>> {
        match &self.engine {
            EngineConn::Sqlite(conn) => Ok(Statement::sqlite(conn.prepare(sql)?)),
            EngineConn::Postgres(conn) => Ok(Statement::postgres(conn, conn.prepare(sql)?)),
        }
    }

    /// Runs statements without parameters nor rows (transaction control).
    pub(crate) fn batch(&self, sql: &str) -> StoreResult<()> {
        match &self.engine {
            EngineConn::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            EngineConn::Postgres(conn) => conn.batch(sql),
        }
    }

    /// [`Conn::batch`] for transaction control whose failure the next
    /// statement shows (`PgConn::send`): on PostgreSQL sent without
    /// waiting, sharing the next statement's round trip; on SQLite run.
    pub(crate) fn send(&self, sql: &str) -> StoreResult<()> {
        match &self.engine {
            EngineConn::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            EngineConn::Postgres(conn) => {
                conn.send(sql);
                Ok(())
            }
        }
    }

    /// Waits for the statements sent without waiting
    /// ([`Statement::execute_deferred`]): the first one's failure. On
    /// SQLite, which runs them at once, nothing.
    pub(crate) fn settle(&self) -> StoreResult<()> {
        match &self.engine {
            EngineConn::Sqlite(_) => Ok(()),
            EngineConn::Postgres(conn) => conn.settle(),
        }
    }

    /// The first row of `sql`, read by `read` ([`StoreError::NotFound`]
    /// if none).
    pub(crate) fn query_row<T>(
        &self,
        sql: &str,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        self.prepare(sql)?.query_row(params, read)
    }

    /// [`Conn::query_row`] through the statement cache.
    pub(crate) fn query_row_cached<T>(
        &self,
        sql: &str,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        self.prepare_cached(sql)?.query_row(params, read)
    }

    /// Runs `sql`; how many rows it changed.
    pub(crate) fn execute(&self, sql: &str, params: impl Params) -> StoreResult<usize> {
        self.prepare(sql)?.execute(params)
    }

    /// [`Conn::execute`] through the statement cache.
    pub(crate) fn execute_cached(&self, sql: &str, params: impl Params) -> StoreResult<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    /// Inserts rows with `head` (`INSERT INTO t (a, b, …)`): `values` holds
    /// them one after the other, `width` values each. Many rows per
    /// statement (at most [`ROWS_PER_INSERT`], and
    /// [`PARAMS_PER_INSERT`] values), each statement sent without waiting
    /// when `deferred` ([`Statement::execute_deferred`]). One statement
    /// instead of one per row: a bulk write's thousands of rows in tens of
    /// statements.
    pub(crate) fn insert_rows<V: ToValue>(
        &self,
        head: &str,
        width: usize,
        values: &[V],
        deferred: bool,
    ) -> StoreResult<()> {
        let width = width.max(1);
        let per_insert = ROWS_PER_INSERT.min(PARAMS_PER_INSERT / width).max(1);
        for chunk in values.chunks(per_insert * width) {
            let rows = chunk.len().div_ceil(width);
            let mut sql = String::with_capacity(head.len() + rows * width * 6);
            sql.push_str(head);
            sql.push_str(" VALUES ");
            for r in 0..rows {
                sql.push_str(if r == 0 { "(" } else { ", (" });
                for c in 1..=width {
                    if c > 1 {
                        sql.push_str(", ");
                    }
                    sql.push_str(&format!("?{}", r * width + c));
                }
                sql.push(')');
            }
            let mut statement = self.prepare_cached(&sql)?;
            if deferred {
                statement.execute_deferred(params_from_iter(chunk))?;
            } else {
                statement.execute(params_from_iter(chunk))?;
            }
        }
        Ok(())
    }
}

/// Rows written per statement by [`Conn::insert_rows`], at most; fewer for
/// a wide table (at most [`PARAMS_PER_INSERT`] values).
pub(crate) const ROWS_PER_INSERT: usize = 200;
pub(crate) const PARAMS_PER_INSERT: usize = 4000;

/// How a write transaction begins on PostgreSQL: the store's write lock
/// first (an advisory lock every Liftdesk server sharing the database
/// takes, one per schema: the tests give each their own), so that writes
/// follow one another as they do on SQLite: what a write reads is what the
/// previous write left, on every server.
const PG_WRITE_BEGIN: &str = "BEGIN ISOLATION LEVEL READ COMMITTED; \
     SELECT pg_advisory_xact_lock(7146907365028371 # hashtext(current_schema())::bigint);";

/// The locks of a write confined to agencies on PostgreSQL
/// (`Store::write_for_agency`, the calls opened together of
/// `Store::open_center_call`): the store's write lock shared (a write of
/// the whole store, which takes it alone, waits for these and they for
/// it), then each agency's own, the agencies (?1) a JSON array of their
/// ids, sorted: every write takes them in the same order. Writes of one
/// agency follow one another, writes of different agencies run side by
/// side. The store's lock is the condition of each row, taken again for
/// each (a lock already held costs nothing), so that it comes before the
/// agencies'. A statement prepared once per connection, sent after the
/// BEGIN without waiting.
const PG_AGENCY_LOCKS: &str = "SELECT \
     count(pg_advisory_xact_lock(5903412741153893 # hashtext(current_schema() || '/' || a)::bigint)) \
     FROM json_array_elements_text(CAST(?1 AS JSON)) AS a \
     WHERE pg_advisory_xact_lock_shared(7146907365028371 # hashtext(current_schema())::bigint) IS NOT NULL";

/// A write transaction, as every write sees it (`Store::write`).
pub struct Tx<'c> {
    conn: &'c Conn,
    /// Still open: rolled back when dropped (a panic, an early return).
    open: Cell<bool>,
    now: Cell<DateTime<Utc>>,
    /// When the transaction began: its time outside `Tx::at`.
    began: DateTime<Utc>,
}

impl<'c> Tx<'c> {
    /// Begins a write transaction whose time is `now`: IMMEDIATE on SQLite
    /// (the writer's lock taken at once), the store's write lock taken at
    /// once on PostgreSQL.
    pub(crate) fn begin(conn: &'c Conn, now: DateTime<Utc>) -> StoreResult<Tx<'c>> {
        // On PostgreSQL the lock is waited for by the first statement.
        match conn.engine {
            EngineConn::Sqlite(_) => conn.batch("BEGIN IMMEDIATE")?,
            EngineConn::Postgres(_) => conn.send(PG_WRITE_BEGIN)?,
        }
        Ok(Tx {
            conn,
            open: Cell::new(true),
            now: Cell::new(now),
            began: now,
        })
    }

    /// Begins a write transaction confined to `agencies`, sorted and
    /// without repeats (see [`PG_AGENCY_LOCKS`]); on SQLite, which has one
    /// writer, as [`Tx::begin`].
    pub(crate) fn begin_for_agencies(
        conn: &'c Conn,
        now: DateTime<Utc>,
        agencies: &[&str],
    ) -> StoreResult<Tx<'c>> {
        if let EngineConn::Sqlite(_) = conn.engine {
            return Tx::begin(conn, now);
        }
        // The locks are waited for by the first statement, which tells
        // their failure (`PgConn::execute_deferred`).
        conn.send("BEGIN ISOLATION LEVEL READ COMMITTED")?;
        let agencies = serde_json::Value::from(agencies).to_string();
        conn.prepare_cached(PG_AGENCY_LOCKS)?
            .execute_deferred([agencies.as_str()])?;
        Ok(Tx {
            conn,
            open: Cell::new(true),
            now: Cell::new(now),
            began: now,
        })
    }

    /// The time of this transaction.
    pub fn now(&self) -> DateTime<Utc> {
        self.now.get()
    }

    /// The time of this transaction as stored (`2026-11-21T07:23:00.000Z`).
    pub fn now_text(&self) -> String {
        clock::format_timestamp(self.now())
    }

    /// Runs `step` as if the transaction began at `instant`: every row it
    /// stamps and every rule it checks against "now" sees `instant`; the
    /// transaction's own time comes back afterwards. The demo writes its
    /// past through the operations this way, each step at its own date, in
    /// one transaction. A step run before the transaction began writes
    /// history ([`Tx::writes_history`]): the outbox queues no webhook event
    /// for it.
    pub fn at<T>(&self, instant: DateTime<Utc>, step: impl FnOnce(&Self) -> T) -> T {
        let own = self.now.replace(instant);
        let result = step(self);
        self.now.set(own);
        result
    }

    /// Whether the step running writes history: it runs `at` an instant
    /// before the transaction began (the demo's past). What happened then
    /// reached no one: the outbox queues no event for it.
    pub fn writes_history(&self) -> bool {
        self.now.get() < self.began
    }

    /// Commits; on failure the transaction is rolled back when dropped.
    pub fn commit(self) -> StoreResult<()> {
        self.conn.batch("COMMIT")?;
        self.open.set(false);
        Ok(())
    }

    pub fn rollback(self) -> StoreResult<()> {
        self.open.set(false);
        self.conn.batch("ROLLBACK")
    }

    /// Runs `work` inside a savepoint of this transaction: what it wrote is
    /// kept if it returns `Ok`, undone if it returns `Err` (the transaction
    /// goes on either way). An import applies each row this way, so that a
    /// refused row leaves nothing behind.
    pub fn savepoint<T, E: From<StoreError>>(
        &self,
        work: impl FnOnce(&Tx<'c>) -> Result<T, E>,
    ) -> Result<T, E> {
        let run = |sql: &str| self.conn.batch(sql);
        run("SAVEPOINT liftdesk_savepoint")?;
        // A deferred write's failure is the work's: undone with it.
        let result = work(self).and_then(|value| {
            self.conn.settle()?;
            Ok(value)
        });
        if result.is_err() {
            run("ROLLBACK TO liftdesk_savepoint")?;
        }
        run("RELEASE liftdesk_savepoint")?;
        result
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open.get()
            && let Err(err) = self.conn.batch("ROLLBACK")
        {
            tracing::warn!(error = %err, "annulation d'une transaction inachevée impossible");
        }
    }
}

impl Deref for Tx<'_> {
    type Target = Conn;

    fn deref(&self) -> &Conn {
        self.conn
    }
}

#[cfg(test)]
mod tests {
    use crate::{Store, StoreError};

    fn organizations(store: &Store) -> Result<Vec<String>, StoreError> {
        store.read_blocking(|conn| {
            let mut stmt = conn.prepare("SELECT name FROM organizations ORDER BY name")?;
            let names = stmt.query_map([], |r| r.get(0))?;
            names.collect::<Result<_, _>>()
        })
    }

    /// A savepoint keeps what its work wrote when the work succeeds and
    /// undoes it when it fails, while the transaction goes on.
    #[test]
    fn a_failed_savepoint_undoes_only_its_own_writes() -> Result<(), StoreError> {
        let dir = tempfile::tempdir().map_err(|e| StoreError::Migration(e.to_string()))?;
        let store = Store::open(&dir.path().join("t.db"))?;
        let insert = |tx: &super::Tx, name: &str| -> Result<(), StoreError> {
            tx.execute(
                "INSERT INTO organizations (id, name, created_at) VALUES (?1, ?1, '2026-01-01T00:00:00Z')",
                [name],
            )?;
            Ok(())
        };
        store.write_blocking(|tx| -> Result<(), StoreError> {
            insert(tx, "A")?;
            tx.savepoint(|tx| insert(tx, "B"))?;
            let refused: Result<(), StoreError> = tx.savepoint(|tx| {
                insert(tx, "C")?;
                Err(StoreError::NotFound)
            });
            assert!(matches!(refused, Err(StoreError::NotFound)));
            insert(tx, "D")
        })?;
        assert_eq!(organizations(&store)?, ["A", "B", "D"]);
        Ok(())
    }

    /// A step run `at` an instant sees that instant as the transaction's
    /// time; the transaction's own time comes back after it.
    #[test]
    fn a_step_at_an_instant_sees_that_instant() -> Result<(), StoreError> {
        use chrono::{TimeZone, Utc};
        let dir = tempfile::tempdir().map_err(|e| StoreError::Migration(e.to_string()))?;
        let store = Store::open(&dir.path().join("t.db"))?;
        let past = Utc
            .with_ymd_and_hms(2024, 5, 6, 7, 8, 9)
            .single()
            .ok_or(StoreError::NotFound)?;
        store.write_blocking(|tx| -> Result<(), StoreError> {
            let own = tx.now();
            assert_ne!(own, past);
            assert!(!tx.writes_history());
            let seen = tx.at(past, |tx| (tx.now(), tx.now_text(), tx.writes_history()));
            assert_eq!(seen, (past, "2024-05-06T07:08:09.000Z".to_owned(), true));
            assert_eq!(tx.now(), own);
            assert!(!tx.writes_history());
            Ok(())
        })
    }
}
