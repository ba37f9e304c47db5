//! `liftdesk-store`: the storage interface and its SQLite implementation.
//! It owns every SQL statement, the schema and its migrations
//! (`migrations/`), transactions (`Tx`, carrying the injected clock's
//! time), the read cache, group commit, the outbox and audit rows written in
//! the operation's transaction, backups and the data directory. It knows
//! nothing of HTTP (no axum): its errors are `StoreError`, which the front
//! doors map to a status.
//!
//! One writer connection takes writes in IMMEDIATE transactions (`write`),
//! a small pool serves reads (`read`); both run on tokio's blocking threads
//! so database work never blocks the runtime. Every connection is set up
//! the same way: WAL, foreign keys, busy timeout.

pub mod accounts;
pub mod agencies;
pub mod audit;
pub mod backup;
mod cache;
pub mod calls;
pub mod clients;
pub mod clock;
mod code;
pub mod contacts;
pub mod credentials;
pub mod dashboard;
pub mod data_dir;
pub mod deals;
pub mod demo;
pub mod diagnostics;
pub mod discrepancies;
mod durability;
pub mod equipment;
mod error;
pub mod identities;
pub mod imports;
pub mod invoices;
pub mod mail;
mod migrate;
pub mod outbox;
pub mod payments;
pub mod quotes;
pub mod search;
pub mod sessions;
pub mod sheets;
pub(crate) mod sql;
pub mod surveys;
pub mod technical_fields;
pub mod technicians;
pub mod text;
mod tx;
pub mod visits;
pub mod webhooks;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::hooks::Action;
use rusqlite::{Connection, OpenFlags};

use crate::clock::Clock;

pub use code::Code;
pub(crate) use code::code;
pub use error::{EngineError, StoreError, StoreResult, constraint};
pub use tx::{Conn, Tx};

pub use migrate::{
    SchemaStatus, applied_schema_version, latest_schema_version, migrate_to_version,
};

/// How many read connections are kept open between requests.
const READ_POOL_SIZE: usize = 4;
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// The tables whose changes give the webhook sync task work to do.
/// (An event queues one delivery per subscriber in its transaction.)
const WEBHOOK_TABLES: [&str; 2] = ["webhook_deliveries", "webhook_subscriptions"];

#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Vec<Connection>>,
    cache: cache::ReadCache,
    /// Set when the writer commits with `synchronous=NORMAL` and its commits
    /// are flushed by a group commit after the lock (see `durability`).
    group_commit: Option<durability::GroupCommit>,
    /// Set by the writer's update hook when the transaction under way
    /// touches the webhook tables; read and cleared under the writer's lock.
    webhook_rows_changed: Arc<AtomicBool>,
    /// Signalled after a commit that queued, retried or rescheduled webhook
    /// deliveries (see `Store::webhook_work`).
    webhook_work: tokio::sync::Notify,
    /// The time as the store sees it: the system's, except where a test or
    /// the instruction-count gate fixes it. Every write transaction reads it
    /// once (`Tx::now`), and the server's handlers read it through the store.
    clock: RwLock<Clock>,
}

impl Store {
    /// Opens (creating if needed) the database and brings its schema up to
    /// date. A database made by a newer Liftdesk is refused untouched.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut writer = open_connection(path)?;
        migrate::check_and_run(&mut writer, path)?;
        // WAL is recorded in the file itself: set it only once the schema check
        // has accepted the database, so a refused file is never modified.
        let mode: String =
            writer.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        // In WAL mode the writer's commits are flushed after its lock, one
        // flush for all the writers that committed meanwhile; otherwise
        // (a file system without WAL support) SQLite's FULL stays.
        let group_commit = if mode.eq_ignore_ascii_case("wal") {
            writer.pragma_update(None, "synchronous", "NORMAL")?;
            Some(durability::GroupCommit::new(path))
        } else {
            None
        };
        let webhook_rows_changed = Arc::new(AtomicBool::new(false));
        let changed = webhook_rows_changed.clone();
        writer.update_hook(Some(move |_: Action, _: &str, table: &str, _: i64| {
            if WEBHOOK_TABLES.contains(&table) {
                changed.store(true, Ordering::Relaxed);
            }
        }))?;
        Ok(Store {
            inner: Arc::new(Inner {
                path: path.to_owned(),
                writer: Mutex::new(writer),
                readers: Mutex::new(Vec::new()),
                cache: cache::ReadCache::default(),
                group_commit,
                webhook_rows_changed,
                webhook_work: tokio::sync::Notify::new(),
                clock: RwLock::new(clock::system()),
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Now, by the store's clock.
    pub fn now(&self) -> DateTime<Utc> {
        let clock = self
            .inner
            .clock
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        clock()
    }

    /// The store's clock as a value, for what keeps time outside a write
    /// (the imports' progress): it follows `set_clock`.
    pub fn clock(&self) -> Clock {
        let store = self.clone();
        Arc::new(move || store.now())
    }

    /// Replaces the clock of this store and of every clone of it (the whole
    /// server's time): tests and the instruction-count gate fix it.
    pub fn set_clock(&self, clock: Clock) {
        self.replace_clock(clock);
    }

    /// [`Store::set_clock`], answering the clock it replaced (to put it
    /// back: test fixtures write the past with the clock set back).
    pub fn replace_clock(&self, clock: Clock) -> Clock {
        std::mem::replace(
            &mut *self
                .inner
                .clock
                .write()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
            clock,
        )
    }

    /// Runs `work` in one IMMEDIATE transaction on the writer: committed if it
    /// returns Ok, rolled back otherwise. Returns once the commit is on disk.
    /// Blocking: for the CLI and sync code.
    pub fn write_blocking<T, E>(&self, work: impl FnOnce(&Tx) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let group = self.inner.group_commit.as_ref();
        let (value, commit) = {
            // Declared before the lock, so dropped after it is released.
            let _writing = group.map(durability::GroupCommit::enter);
            // A panic while holding the lock leaves no open transaction (the
            // Transaction drop rolls back), so a poisoned lock is still usable.
            let mut conn = self
                .inner
                .writer
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let changed = &self.inner.webhook_rows_changed;
            changed.store(false, Ordering::Relaxed);
            let changes_before = conn.total_changes();
            let tx = Tx::begin(&mut conn, self.now())?;
            let value = work(&tx)?;
            tx.commit()?;
            // A transaction that changed no row (a repeated call-center
            // reference) wrote nothing to the WAL: nothing to flush. The
            // store's writes are all INSERT, UPDATE or DELETE, which count.
            let commit = if conn.total_changes() == changes_before {
                None
            } else {
                group.map(durability::GroupCommit::committed)
            };
            if changed.swap(false, Ordering::Relaxed) {
                self.inner.webhook_work.notify_one();
            }
            (value, commit)
        };
        // The flush happens outside the lock: the next writer's transaction
        // runs meanwhile, and one flush covers both commits.
        if let (Some(group), Some(commit)) = (group, commit) {
            group
                .flush_through(commit)
                .map_err(|err| StoreError::from(flush_error(err)))?;
        }
        Ok(value)
    }

    /// Resolves after a commit of this process that queued, retried or
    /// rescheduled webhook deliveries, or created or revoked a subscription
    /// (at once if one happened since the last call): the webhook sync task
    /// waits on it between rounds. Commits of other processes are seen at
    /// its next poll.
    pub async fn webhook_work(&self) {
        self.inner.webhook_work.notified().await;
    }

    /// Runs `work` in one IMMEDIATE transaction on the writer and rolls it
    /// back whatever it returns: a rehearsal (the import's check) sees
    /// exactly what the same work would write, and nothing stays. Blocking.
    pub fn rehearse_blocking<T, E>(&self, work: impl FnOnce(&Tx) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let mut conn = self
            .inner
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let tx = Tx::begin(&mut conn, self.now())?;
        let value = work(&tx);
        tx.rollback()?;
        value
    }

    /// Runs `work` on a pooled read connection. Blocking: for sync code.
    pub fn read_blocking<T, E>(&self, work: impl FnOnce(&Conn) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let pooled = self
            .inner
            .readers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop();
        let conn = match pooled {
            Some(conn) => conn,
            None => open_connection(&self.inner.path)?,
        };
        let result = work(Conn::of(&conn));
        let mut readers = self
            .inner
            .readers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if readers.len() < READ_POOL_SIZE {
            readers.push(conn);
        }
        result
    }

    /// `write_blocking` on a blocking thread.
    pub async fn write<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&Tx) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.write_blocking(work))
            .await
            .map_err(|err| E::from(StoreError::Join(err.to_string())))?
    }

    /// `read_blocking` on a blocking thread.
    pub async fn read<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&Conn) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.read_blocking(work))
            .await
            .map_err(|err| E::from(StoreError::Join(err.to_string())))?
    }

    /// `read`, answered from memory while the database has not changed since
    /// `work` last ran under the same `key` (see `store::cache`): the key
    /// names the query and every parameter it depends on.
    pub async fn read_cached<T, E, F>(&self, key: String, work: F) -> Result<Arc<T>, E>
    where
        F: FnOnce(&Conn) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.read_cached_while(key, |_| true, work).await
    }

    /// [`Store::read_cached`] for an answer that also depends on the time:
    /// a kept answer is used only while `still_valid` says so.
    pub async fn read_cached_while<T, E, F>(
        &self,
        key: String,
        still_valid: impl FnOnce(&T) -> bool,
        work: F,
    ) -> Result<Arc<T>, E>
    where
        F: FnOnce(&Conn) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: From<StoreError> + Send + 'static,
    {
        match self.kept(&key, still_valid)? {
            Ok(kept) => Ok(kept),
            Err(version) => Ok(self.keep(key, version, self.read(work).await?)),
        }
    }

    /// [`Store::read_cached`] run on the calling thread, for point lookups
    /// of a row or two (a credential at every request): they take a few
    /// microseconds, less than handing them to a blocking thread and back,
    /// which every commit would otherwise cost them (it makes the kept
    /// answer stale). Never for a list or anything that scans.
    pub fn read_cached_inline<T, E, F>(&self, key: String, work: F) -> Result<Arc<T>, E>
    where
        F: FnOnce(&Conn) -> Result<T, E>,
        T: Send + Sync + 'static,
        E: From<StoreError>,
    {
        match self.kept(&key, |_| true)? {
            Ok(kept) => Ok(kept),
            Err(version) => Ok(self.keep(key, version, self.read_blocking(work)?)),
        }
    }

    /// The answer kept under `key` if the database has not changed since and
    /// `still_valid` accepts it; otherwise the version a fresh answer is to
    /// be kept under (`None`: the cache is off, keep nothing).
    fn kept<T: Send + Sync + 'static>(
        &self,
        key: &str,
        still_valid: impl FnOnce(&T) -> bool,
    ) -> Result<Result<Arc<T>, Option<i64>>, StoreError> {
        if !self.inner.cache.enabled() {
            return Ok(Err(None));
        }
        // Read before the work: a commit between the two makes the kept
        // answer newer than its version, never older.
        let version = self.inner.cache.version(&self.inner.path)?;
        match self.inner.cache.get::<T>(key, version) {
            Some(kept) if still_valid(&kept) => Ok(Ok(kept)),
            _ => Ok(Err(Some(version))),
        }
    }

    /// Keeps `value` under `key` at `version` (from [`Store::kept`]).
    fn keep<T: Send + Sync + 'static>(
        &self,
        key: String,
        version: Option<i64>,
        value: T,
    ) -> Arc<T> {
        let value = Arc::new(value);
        if let Some(version) = version {
            self.inner.cache.put(key, version, value.clone());
        }
        value
    }

    /// Reads every time, keeping nothing (`read_cached` becomes `read`): the
    /// instruction counts measure the database work this way.
    pub fn disable_read_cache(&self) {
        self.inner.cache.disable();
    }

    /// Folds the WAL back into the database file (on clean shutdown). A
    /// reader still holding the WAL (a request cut short by the shutdown)
    /// makes SQLite answer busy or locked: the WAL is then left as it is,
    /// with a warning, and folded in when the database is next opened;
    /// nothing is lost and the shutdown stays clean.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        let conn = self
            .inner
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match Conn::of(&conn).query_row_cached("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
            Ok(()) => Ok(()),
            Err(StoreError::Busy(cause)) => {
                tracing::warn!(error = %cause, "journal WAL laissé en place à l'arrêt : une lecture le tenait encore");
                Ok(())
            }
            Err(other) => Err(other),
        }
    }
}

/// A failed flush of the WAL as SQLite reports one (the commit may be lost).
fn flush_error(err: std::io::Error) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR_FSYNC),
        Some(format!(
            "écriture sur disque du journal WAL impossible : {err}"
        )),
    )
}

fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(|source| StoreError::open(path, source))?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // FULL: a commit is on disk before the answer leaves, even on power loss
    // (the writer trades it for a group commit with the same promise, see
    // `durability`).
    conn.pragma_update(None, "synchronous", "FULL")?;
    // Plans never depend on bound values: a cached statement is then never
    // re-prepared. Without this, SQLite marks joins with parameters as
    // "re-prepare on a new binding", and rusqlite clears the bindings of a
    // statement returned to its cache: every call re-parsed and re-planned
    // its SQL (half of a call creation's instructions).
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    conn.create_collation(crate::text::FRENCH_COLLATION, crate::text::french_order)?;
    crate::text::register_fold(&conn)?;
    // Every statement of the store is prepared once per connection and kept
    // (see `Conn::prepare_cached`): a few hundred distinct texts.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE_CAPACITY);
    Ok(conn)
}

/// A fresh UUID v7 (time-ordered: inserts stay local in the indexes).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Prepared statements kept per connection: more than the store's distinct
/// statement texts, so a hot path never parses its SQL again.
const STATEMENT_CACHE_CAPACITY: usize = 512;

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    }

    /// Whether `webhook_work` resolves within a moment.
    fn signalled(store: &Store) -> bool {
        runtime().block_on(async {
            tokio::time::timeout(Duration::from_millis(50), store.webhook_work())
                .await
                .is_ok()
        })
    }

    #[test]
    fn a_commit_touching_webhook_rows_signals_the_sync_task_and_nothing_else_does()
    -> Result<(), StoreError> {
        let dir = tempfile::tempdir().map_err(|e| StoreError::Migration(e.to_string()))?;
        let store = Store::open(&dir.path().join("t.db"))?;
        store.write_blocking(|tx| -> Result<(), StoreError> {
            Ok(tx.sqlite().execute_batch(
                "INSERT INTO organizations (id, name, created_at) VALUES ('o', 'Org', '2026-01-01T00:00:00Z');
                 INSERT INTO agencies (id, organization_id, name, created_at) VALUES ('a', 'o', 'Agence', '2026-01-01T00:00:00Z');",
            )?)
        })?;
        assert!(!signalled(&store), "no webhook row changed");
        let subscribe = |id: &str| -> Result<(), StoreError> {
            store.write_blocking(|tx| -> Result<(), StoreError> {
                tx.execute(
                    "INSERT INTO webhook_subscriptions (id, agency_id, url, events, secret_enc, created_at)
                     VALUES (?1, 'a', 'https://exemple.fr/crochet', '[\"appel.clos\"]', x'00', '2026-01-01T00:00:00Z')",
                    [id],
                )?;
                Ok(())
            })
        };
        // Rolled back: the hook saw the row, but nothing was committed.
        let refused: Result<(), StoreError> = store.write_blocking(|tx| {
            tx.execute(
                "INSERT INTO webhook_subscriptions (id, agency_id, url, events, secret_enc, created_at)
                 VALUES ('s0', 'a', 'https://exemple.fr/crochet', '[\"appel.clos\"]', x'00', '2026-01-01T00:00:00Z')",
                [],
            )?;
            Err(StoreError::NotFound)
        });
        assert!(refused.is_err());
        assert!(!signalled(&store), "a rolled-back change signals nothing");
        subscribe("s1")?;
        assert!(signalled(&store), "a committed subscription signals");
        assert!(!signalled(&store), "one signal per commit");
        store.write_blocking(|tx| -> Result<(), StoreError> {
            tx.execute("UPDATE agencies SET name = 'Autre' WHERE id = 'a'", [])?;
            Ok(())
        })?;
        assert!(!signalled(&store), "other tables signal nothing");
        Ok(())
    }
}
