//! `liftdesk-store`: the storage interface and its two engines, SQLite (the
//! desktop's file) and PostgreSQL (the agency server's shared database,
//! `pg.rs`, `dialect.rs`, docs/postgresql.md).
//! It owns every SQL statement, the schema and its migrations
//! (`migrations/sqlite/`, `migrations/postgres/`), transactions (`Tx`, carrying the injected clock's
//! time), the read cache, group commit, the outbox and audit rows written in
//! the operation's transaction, backups and the data directory. It knows
//! nothing of HTTP (no axum): its errors are `StoreError`, which the front
//! doors map to a status.
//!
//! On SQLite, one writer connection takes writes in IMMEDIATE transactions
//! (`write`), a small pool serves reads (`read`); both run on tokio's
//! blocking threads so database work never blocks the runtime. Every
//! connection is set up the same way: WAL, foreign keys, busy timeout. On
//! PostgreSQL, one pool of connections serves both, a write taking the
//! database's write lock first (`tx.rs`).

pub mod accounts;
pub mod agencies;
pub mod audit;
pub mod backup;
mod cache;
pub use cache::as_one_request;
pub mod calls;
pub mod clients;
pub mod clock;
mod code;
pub mod contacts;
pub mod contracts;
pub mod counts;
pub mod credentials;
pub mod dashboard;
pub mod data_dir;
pub mod deals;
pub mod demo;
pub mod diagnostics;
mod dialect;
pub mod discrepancies;
mod durability;
pub mod duties;
pub mod equipment;
mod error;
pub mod identities;
pub mod imports;
mod intake;
pub mod invoices;
pub mod mail;
mod migrate;
pub mod outbox;
pub mod payments;
mod pg;
mod pg_backup;
pub mod quotes;
pub mod search;
pub mod server_keys;
pub mod sessions;
pub mod sheets;
pub mod sql;
pub mod surveys;
pub mod technical_fields;
pub mod technicians;
pub mod text;
pub mod transfer;
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
/// How many PostgreSQL connections a store opens at most (reads and
/// writes); work beyond waits for one to be given back.
const PG_MAX_CONNECTIONS: usize = 12;
/// How many writes confined to an agency one process runs at once on
/// PostgreSQL: with the one write of the whole store, half the pool, the
/// other half left to the reads.
const PG_AGENCY_WRITERS: usize = 5;

/// A store's PostgreSQL connections.
struct PgPool {
    idle: Vec<Conn>,
    /// Open connections, idle or in use.
    open: usize,
}

/// A place among a process's writes confined to an agency on PostgreSQL
/// (at most [`PG_AGENCY_WRITERS`]), given back when dropped.
struct AgencyWriterPlace<'a> {
    running: &'a Mutex<usize>,
    done: &'a std::sync::Condvar,
}

impl<'a> AgencyWriterPlace<'a> {
    fn take(running: &'a Mutex<usize>, done: &'a std::sync::Condvar) -> Self {
        let mut count = lock(running);
        while *count >= PG_AGENCY_WRITERS {
            count = done
                .wait(count)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        *count += 1;
        AgencyWriterPlace { running, done }
    }
}

impl Drop for AgencyWriterPlace<'_> {
    fn drop(&mut self) {
        *lock(self.running) -= 1;
        self.done.notify_one();
    }
}

/// Whether the statements run on `conn` (PostgreSQL) since the last call
/// named the webhooks' tables: a commit that wrote their rows wakes the
/// webhook task, as SQLite's update hook does (`WEBHOOK_TABLES`); the
/// others' commits are found by its poll.
fn webhook_rows_written(conn: &Conn) -> bool {
    conn.postgres().is_some_and(pg::PgConn::take_webhook_rows)
}

/// Held by a write on PostgreSQL: when it ends (committed, refused or
/// failed), the snapshots seen before may miss it (`cache::PgSeen`).
struct PgWrote<'s>(&'s cache::ReadCache);

impl Drop for PgWrote<'_> {
    fn drop(&mut self) {
        self.0.pg_wrote();
    }
}

/// A PostgreSQL connection taken from the pool (`Store::pg_lease`), given
/// back when dropped (closed if broken).
struct PgLease<'s> {
    conn: Option<Conn>,
    pool: &'s Mutex<PgPool>,
    returned: &'s std::sync::Condvar,
}

impl std::ops::Deref for PgLease<'_> {
    type Target = Conn;

    fn deref(&self) -> &Conn {
        // Present until the lease is dropped.
        self.conn
            .as_ref()
            .unwrap_or_else(|| unreachable!("bail rendu"))
    }
}

impl Drop for PgLease<'_> {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        let mut held = lock(self.pool);
        if conn.is_usable() {
            held.idle.push(conn);
        } else {
            held.open -= 1;
        }
        drop(held);
        self.returned.notify_one();
    }
}
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// The tables whose changes give the webhook sync task work to do.
/// (An event queues one delivery per subscriber in its transaction.)
pub(crate) const WEBHOOK_TABLES: [&str; 2] = ["webhook_deliveries", "webhook_subscriptions"];

#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    engine: EngineStore,
    /// The data directory: the SQLite file's folder, or the one given
    /// beside a PostgreSQL address (logs, secrets, backups' destination).
    data_dir: PathBuf,
    cache: cache::ReadCache,
    /// Signalled after a commit that queued, retried or rescheduled webhook
    /// deliveries (see `Store::webhook_work`).
    webhook_work: tokio::sync::Notify,
    /// The time as the store sees it: the system's, except where a test or
    /// the instruction-count gate fixes it. Every write transaction reads it
    /// once (`Tx::now`), and the server's handlers read it through the store.
    clock: RwLock<Clock>,
    /// The queue of the call-center calls opened together on PostgreSQL
    /// (`intake`), started with the first.
    intake: std::sync::OnceLock<std::sync::mpsc::Sender<intake::Waiting>>,
}

/// The engine's side of the store (one per store: its size does not
/// matter).
#[allow(clippy::large_enum_variant)]
enum EngineStore {
    Sqlite {
        path: PathBuf,
        writer: Mutex<Conn>,
        readers: Mutex<Vec<Conn>>,
        /// Set when the writer commits with `synchronous=NORMAL` and its
        /// commits are flushed by a group commit after the lock (see
        /// `durability`).
        group_commit: Option<Box<durability::GroupCommit>>,
        /// Set by the writer's update hook when the transaction under way
        /// touches the webhook tables; read and cleared under the writer's
        /// lock.
        webhook_rows_changed: Arc<AtomicBool>,
    },
    Postgres {
        /// The address, password included: never logged nor shown.
        url: String,
        /// Connections between two pieces of work; writes and reads alike
        /// (the write lock is the database's, see `tx.rs`).
        pool: Mutex<PgPool>,
        /// Signalled when a connection goes back to the pool.
        returned: std::sync::Condvar,
        /// This process's writes, one at a time, as on SQLite: a write
        /// waiting for the database's write lock waits here, not holding a
        /// connection of the pool (writes queued behind a long import
        /// would otherwise take every connection and starve the reads).
        writer: Mutex<()>,
        /// This process's writes confined to an agency running now
        /// (`write_blocking_for_agency`), at most [`PG_AGENCY_WRITERS`]:
        /// the others wait here, not holding a connection, for the same
        /// reason.
        agency_writers: Mutex<usize>,
        /// Signalled when one of them ends.
        agency_writer_done: std::sync::Condvar,
    },
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Where the store's database is: a SQLite file, or a PostgreSQL database
/// (its `postgresql://` address) with the data directory beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    Sqlite(PathBuf),
    Postgres { url: String, data_dir: PathBuf },
}

impl Database {
    /// The database of a data directory: `url` when given (an address
    /// `postgresql://…` or `postgres://…`), else `DIR/liftdesk.db`.
    pub fn of(data_dir: &Path, url: Option<&str>) -> Database {
        match url.map(str::trim).filter(|u| !u.is_empty()) {
            Some(url) => Database::Postgres {
                url: url.to_owned(),
                data_dir: data_dir.to_owned(),
            },
            None => Database::Sqlite(data_dir::database_path(data_dir)),
        }
    }

    /// The database as messages name it: the SQLite file, or the
    /// PostgreSQL address without its password.
    pub fn shown(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres { url, .. } => pg::redacted(url),
        }
    }

    /// The data directory: the SQLite file's folder, or the one given
    /// beside the PostgreSQL address.
    pub fn data_dir(&self) -> &Path {
        match self {
            Database::Sqlite(path) => path.parent().unwrap_or(Path::new(".")),
            Database::Postgres { data_dir, .. } => data_dir,
        }
    }
}

impl Store {
    /// Opens `database` (the SQLite file created if needed; the PostgreSQL
    /// database must exist) and brings its schema up to date. A database
    /// made by a newer Liftdesk is refused untouched.
    pub fn connect(database: &Database) -> Result<Store, StoreError> {
        match database {
            Database::Sqlite(path) => Store::open(path),
            Database::Postgres { url, data_dir } => Store::open_postgres(url, data_dir),
        }
    }

    /// Opens the PostgreSQL database at `url` (see [`Store::connect`]).
    fn open_postgres(url: &str, data_dir: &Path) -> Result<Store, StoreError> {
        let conn = Conn::postgres_conn(pg::PgConn::connect(url)?);
        migrate::check_and_run_postgres(&conn, url)?;
        // Kept answers are keyed by the reading transaction's snapshot
        // (`cache::pg_version`): any commit of any server changes it.
        let cache = cache::ReadCache::default();
        Ok(Store {
            inner: Arc::new(Inner {
                engine: EngineStore::Postgres {
                    url: url.to_owned(),
                    pool: Mutex::new(PgPool {
                        idle: vec![conn],
                        open: 1,
                    }),
                    returned: std::sync::Condvar::new(),
                    writer: Mutex::new(()),
                    agency_writers: Mutex::new(0),
                    agency_writer_done: std::sync::Condvar::new(),
                },
                data_dir: data_dir.to_owned(),
                cache,
                webhook_work: tokio::sync::Notify::new(),
                clock: RwLock::new(clock::system()),
                intake: std::sync::OnceLock::new(),
            }),
        })
    }

    /// Opens (creating if needed) the SQLite database at `path` and brings
    /// its schema up to date. A database made by a newer Liftdesk is
    /// refused untouched.
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
        // The writer's page cache holds a large transaction's dirty pages
        // (a billing run writes tens of thousands of rows in one): with
        // SQLite's 2 MB, it spilled them to the WAL as it went, a B-tree
        // leaf written again and again. Memory is taken as pages are used.
        writer.pragma_update(None, "cache_size", WRITER_CACHE_KIB)?;
        let group_commit = if mode.eq_ignore_ascii_case("wal") {
            writer.pragma_update(None, "synchronous", "NORMAL")?;
            Some(Box::new(durability::GroupCommit::new(path)))
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
                engine: EngineStore::Sqlite {
                    path: path.to_owned(),
                    writer: Mutex::new(Conn::sqlite_conn(writer)),
                    readers: Mutex::new(Vec::new()),
                    group_commit,
                    webhook_rows_changed,
                },
                data_dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
                cache: cache::ReadCache::default(),
                webhook_work: tokio::sync::Notify::new(),
                clock: RwLock::new(clock::system()),
                intake: std::sync::OnceLock::new(),
            }),
        })
    }

    /// The SQLite file (none on PostgreSQL).
    pub fn path(&self) -> Option<&Path> {
        match &self.inner.engine {
            EngineStore::Sqlite { path, .. } => Some(path),
            EngineStore::Postgres { .. } => None,
        }
    }

    /// Whether other servers may use this database at once (PostgreSQL);
    /// a SQLite file is one server's (its data directory's lock).
    pub fn shared(&self) -> bool {
        self.postgres_url().is_some()
    }

    /// The PostgreSQL address of the store; `None` on SQLite.
    pub(crate) fn postgres_url(&self) -> Option<&str> {
        match &self.inner.engine {
            EngineStore::Sqlite { .. } => None,
            EngineStore::Postgres { url, .. } => Some(url),
        }
    }

    /// The database as messages name it: the SQLite file, or the
    /// PostgreSQL address without its password.
    pub fn shown(&self) -> String {
        match &self.inner.engine {
            EngineStore::Sqlite { path, .. } => path.display().to_string(),
            EngineStore::Postgres { url, .. } => pg::redacted(url),
        }
    }

    /// The data directory (logs, secrets, backups' destination).
    pub fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }

    /// A PostgreSQL connection from the pool: an idle one, a new one while
    /// fewer than [`PG_MAX_CONNECTIONS`] are open, else the next one given
    /// back (the database's connections are shared by every server). It
    /// goes back to the pool when the lease is dropped, even by a panic.
    fn pg_lease(&self) -> StoreResult<PgLease<'_>> {
        let EngineStore::Postgres {
            url,
            pool,
            returned,
            ..
        } = &self.inner.engine
        else {
            return Err(StoreError::Encoding("PostgreSQL attendu".to_owned()));
        };
        let mut held = lock(pool);
        let conn = loop {
            if let Some(conn) = held.idle.pop() {
                break conn;
            }
            if held.open < PG_MAX_CONNECTIONS {
                held.open += 1;
                drop(held);
                break pg::PgConn::connect(url)
                    .map(Conn::postgres_conn)
                    .inspect_err(|_| lock(pool).open -= 1)?;
            }
            held = returned
                .wait(held)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        };
        Ok(PgLease {
            conn: Some(conn),
            pool,
            returned,
        })
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
        let (writer, group_commit, webhook_rows_changed) = match &self.inner.engine {
            EngineStore::Sqlite {
                writer,
                group_commit,
                webhook_rows_changed,
                ..
            } => (writer, group_commit, webhook_rows_changed),
            EngineStore::Postgres { writer, .. } => {
                let _writing = lock(writer);
                let _wrote = PgWrote(&self.inner.cache);
                let conn = self.pg_lease()?;
                webhook_rows_written(&conn);
                let tx = Tx::begin(&conn, self.now())?;
                let value = work(&tx)?;
                tx.commit()?;
                if webhook_rows_written(&conn) {
                    self.inner.webhook_work.notify_one();
                }
                return Ok(value);
            }
        };
        let group = group_commit.as_deref();
        let (value, commit) = {
            // Declared before the lock, so dropped after it is released.
            let _writing = group.map(durability::GroupCommit::enter);
            // A panic while holding the lock leaves no open transaction (the
            // transaction's drop rolls back), so a poisoned lock is still
            // usable.
            let conn = lock(writer);
            let sqlite = conn.sqlite()?;
            let changed = webhook_rows_changed;
            changed.store(false, Ordering::Relaxed);
            let changes_before = sqlite.total_changes();
            let tx = Tx::begin(&conn, self.now())?;
            let value = work(&tx)?;
            tx.commit()?;
            // A transaction that changed no row (a repeated call-center
            // reference) wrote nothing to the WAL: nothing to flush. The
            // store's writes are all INSERT, UPDATE or DELETE, which count.
            let commit = if sqlite.total_changes() == changes_before {
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
        let rehearse = |conn: &Conn| {
            let tx = Tx::begin(conn, self.now())?;
            let value = work(&tx);
            tx.rollback()?;
            value
        };
        match &self.inner.engine {
            EngineStore::Sqlite { writer, .. } => rehearse(&lock(writer)),
            EngineStore::Postgres { writer, .. } => {
                let _writing = lock(writer);
                rehearse(&*self.pg_lease()?)
            }
        }
    }

    /// Runs `work` on a pooled read connection. Blocking: for sync code.
    pub fn read_blocking<T, E>(&self, work: impl FnOnce(&Conn) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        match &self.inner.engine {
            EngineStore::Sqlite { path, readers, .. } => {
                let pooled = lock(readers).pop();
                let conn = match pooled {
                    Some(conn) => conn,
                    None => Conn::sqlite_conn(open_connection(path)?),
                };
                let result = work(&conn);
                let mut readers = lock(readers);
                if readers.len() < READ_POOL_SIZE {
                    readers.push(conn);
                }
                result
            }
            EngineStore::Postgres { .. } => {
                let conn = self.pg_lease()?;
                // One snapshot for the whole read, as SQLite's reader has;
                // BEGIN and ROLLBACK share the statements' round trips.
                conn.send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
                let result = work(&conn);
                conn.send("ROLLBACK")?;
                result
            }
        }
    }

    /// [`Store::write_blocking`] for a write that touches one agency's
    /// rows only (and appends to the journal): on PostgreSQL it takes that
    /// agency's lock and the store's lock shared (`tx.rs`), so that writes
    /// of different agencies run side by side, from every server; on SQLite
    /// the one writer, as any write. The caller vouches for the scope: a
    /// rule read across agencies, or a counter shared by them, belongs in
    /// [`Store::write`].
    pub fn write_blocking_for_agency<T, E>(
        &self,
        agency: &str,
        work: impl FnOnce(&Tx) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let EngineStore::Postgres {
            agency_writers,
            agency_writer_done,
            ..
        } = &self.inner.engine
        else {
            return self.write_blocking(work);
        };
        // Not the process's one writer: the agency's lock orders these. A
        // place among the agency writers first, then a connection.
        let _place = AgencyWriterPlace::take(agency_writers, agency_writer_done);
        let _wrote = PgWrote(&self.inner.cache);
        let conn = self.pg_lease()?;
        webhook_rows_written(&conn);
        let tx = Tx::begin_for_agencies(&conn, self.now(), &[agency])?;
        let value = work(&tx)?;
        tx.commit()?;
        if webhook_rows_written(&conn) {
            self.inner.webhook_work.notify_one();
        }
        Ok(value)
    }

    /// [`Store::write_blocking_for_agency`] on a blocking thread.
    pub async fn write_for_agency<T, E, F>(&self, agency: String, work: F) -> Result<T, E>
    where
        F: FnOnce(&Tx) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.write_blocking_for_agency(&agency, work))
            .await
            .map_err(|err| E::from(StoreError::Join(err.to_string())))?
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

    /// [`Store::write`] whose `work` also gets the answer kept under `key`
    /// (by [`Store::read_cached`]) when the database has not changed since
    /// it was read: `None` otherwise. Exact, as the kept answers are: on
    /// SQLite the version is read once the writer's lock is held (no commit
    /// can come between), on PostgreSQL it is the snapshot seen under the
    /// store's write lock before any write (every write of every server
    /// takes that lock). What a preview computed is not computed again by
    /// the write it leads to (« Facturer les contrats »).
    pub async fn write_with_kept<K, T, E, F>(&self, key: String, work: F) -> Result<T, E>
    where
        K: Send + Sync + 'static,
        F: FnOnce(&Tx, Option<Arc<K>>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let store = self.clone();
        self.write(move |tx| {
            let kept = store.kept_in_write::<K>(tx, &key)?;
            work(tx, kept)
        })
        .await
    }

    /// The answer kept under `key` for the state a write transaction that
    /// has not written yet sees (`write_with_kept`).
    fn kept_in_write<K: Send + Sync + 'static>(
        &self,
        tx: &Tx,
        key: &str,
    ) -> StoreResult<Option<Arc<K>>> {
        let cache = &self.inner.cache;
        if !cache.enabled() {
            return Ok(None);
        }
        let version = match (&self.inner.engine, tx.postgres()) {
            (EngineStore::Sqlite { path, .. }, _) => cache.version(path)?,
            (EngineStore::Postgres { .. }, Some(pg)) => {
                cache::pg_version_of(&pg.current_snapshot()?)
            }
            (EngineStore::Postgres { .. }, None) => return Ok(None),
        };
        Ok(cache.get::<K>(key, version))
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
        still_valid: impl Fn(&T) -> bool + Send + 'static,
        work: F,
    ) -> Result<Arc<T>, E>
    where
        F: FnOnce(&Conn) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: From<StoreError> + Send + 'static,
    {
        if matches!(self.inner.engine, EngineStore::Postgres { .. }) && self.inner.cache.enabled() {
            return self.read_cached_postgres(key, still_valid, work).await;
        }
        match self.kept(&key, still_valid)? {
            Ok(kept) => Ok(kept),
            Err(version) => Ok(self.keep(key, version, self.read(work).await?)),
        }
    }

    /// [`Store::read_cached_while`] on PostgreSQL: the answer kept under a
    /// snapshot fresh enough for this request, found here when this process
    /// has seen one (no round trip, no thread); else
    /// [`Store::pg_read_cached_blocking`] on a blocking thread.
    async fn read_cached_postgres<T, E, F>(
        &self,
        key: String,
        still_valid: impl Fn(&T) -> bool + Send + 'static,
        work: F,
    ) -> Result<Arc<T>, E>
    where
        F: FnOnce(&Conn) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let began = cache::request_began();
        let cache = &self.inner.cache;
        if let Some(version) = cache.pg_seen_version(began)
            && let Some(kept) = cache.get::<T>(&key, version)
            && still_valid(&kept)
        {
            return Ok(kept);
        }
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            store.pg_read_cached_blocking(began, key, still_valid, work)
        })
        .await
        .map_err(|err| E::from(StoreError::Join(err.to_string())))?
    }

    /// The kept answer under `key` for a read of a request begun at
    /// `began` on PostgreSQL (`store::cache`), if `still_valid` accepts it:
    /// under a snapshot taken since, seen or being asked for by another
    /// read. Else a read transaction of its own, whose snapshot is asked
    /// for with its BEGIN (one round trip, which the reads begun before
    /// wait for): the answer kept under that snapshot, or `work` run on it
    /// and kept under it. Exact: an answer is reused only under a snapshot
    /// that sees the same commits, whichever server made them.
    fn pg_read_cached_blocking<T, E>(
        &self,
        began: std::time::Instant,
        key: String,
        still_valid: impl Fn(&T) -> bool,
        work: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> Result<Arc<T>, E>
    where
        T: Send + Sync + 'static,
        E: From<StoreError>,
    {
        let cache = &self.inner.cache;
        let kept = |version| {
            cache
                .get::<T>(&key, version)
                .filter(|kept| still_valid(kept))
        };
        if let Some(kept) = cache.pg_awaited_version(began).and_then(kept) {
            return Ok(kept);
        }
        let conn = self.pg_lease()?;
        let asked = cache.pg_asking();
        let snapshot = conn
            .postgres()
            .ok_or_else(|| StoreError::Encoding("PostgreSQL attendu".to_owned()))
            .and_then(pg::PgConn::begin_read_with_snapshot)
            .map(|snapshot| cache::pg_version_of(&snapshot));
        cache.pg_answered(asked, snapshot.as_ref().ok().copied());
        let result = snapshot
            .map_err(E::from)
            .and_then(|version| match kept(version) {
                Some(kept) => Ok(kept),
                None => {
                    let value = Arc::new(work(&conn)?);
                    cache.put(key.clone(), version, value.clone());
                    Ok(value)
                }
            });
        conn.send("ROLLBACK")?;
        result
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
        if matches!(self.inner.engine, EngineStore::Postgres { .. }) && self.inner.cache.enabled() {
            return self.pg_read_cached_blocking(cache::request_began(), key, |_| true, work);
        }
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
        // answer newer than its version, never older. (PostgreSQL's kept
        // answers are `pg_read_cached_blocking`'s.)
        let EngineStore::Sqlite { path, .. } = &self.inner.engine else {
            return Ok(Err(None));
        };
        let version = self.inner.cache.version(path)?;
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

    /// The rows of `sql` (SQLite's dialect, rewritten for PostgreSQL as the
    /// store's own statements are), each read by `read`: the integration
    /// tests' and the benchmark's direct look at the database, on either
    /// engine. Never used by the product (`scripts/layers.sh`). Blocking.
    pub fn inspect_rows<T>(
        &self,
        sql: &str,
        params: impl sql::Params,
        read: impl FnMut(&sql::Row<'_>) -> StoreResult<T>,
    ) -> StoreResult<Vec<T>> {
        self.read_blocking(|conn| {
            conn.prepare(sql)?
                .query_map(params, read)?
                .collect::<StoreResult<Vec<T>>>()
        })
    }

    /// Runs `sql` (statements separated by `;`, or one with `params`) in a
    /// write transaction of its own: the tests' direct changes to the
    /// database (an old row, a damaged value). Never used by the product.
    /// Blocking. How many rows the last statement changed.
    pub fn inspect_execute(&self, sql: &str, params: impl sql::Params) -> StoreResult<usize> {
        self.write_blocking(|tx| tx.execute(sql, params))
    }

    /// [`Store::inspect_execute`] in a write confined to `agency`
    /// ([`Store::write_blocking_for_agency`]): the tests hold an agency's
    /// lock this way. Never used by the product. Blocking.
    pub fn inspect_execute_for_agency(
        &self,
        agency: &str,
        sql: &str,
        params: impl sql::Params,
    ) -> StoreResult<usize> {
        self.write_blocking_for_agency(agency, |tx| tx.execute(sql, params))
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
        let EngineStore::Sqlite { writer, .. } = &self.inner.engine else {
            return Ok(());
        };
        let conn = lock(writer);
        match conn.query_row_cached("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
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

/// The writer's page cache, in KiB (SQLite's `cache_size` takes it
/// negative): 64 MiB at most, allocated as used.
const WRITER_CACHE_KIB: i64 = -65_536;

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
            Ok(tx.sqlite()?.execute_batch(
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
