//! The store owns every SQL statement. One writer connection takes writes in
//! IMMEDIATE transactions (`write`), a small pool serves reads (`read`); both
//! run on tokio's blocking threads so database work never blocks the runtime.
//! Every connection is set up the same way: WAL, foreign keys, busy timeout.

pub mod accounts;
pub mod agencies;
pub mod audit;
mod cache;
pub mod calls;
pub mod clients;
pub mod contacts;
pub mod credentials;
pub mod dashboard;
pub mod deals;
pub mod diagnostics;
pub mod discrepancies;
pub mod equipment;
pub mod imports;
pub mod invoices;
mod migrate;
pub mod outbox;
pub mod quotes;
pub mod sessions;
pub mod sheets;
pub mod surveys;
pub mod technical_fields;
pub mod technicians;
pub mod visits;
pub mod webhooks;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

pub use migrate::{
    SchemaStatus, applied_version as applied_schema_version, latest_schema_version,
    migrate_to_version,
};

/// How many read connections are kept open between requests.
const READ_POOL_SIZE: usize = 4;
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "La base de données {path} a été créée par une version plus récente de Liftdesk (schéma {database}, cette version connaît jusqu'au schéma {known}). Elle n'a pas été modifiée : installez une version à jour de Liftdesk."
    )]
    NewerSchema {
        path: String,
        database: i64,
        known: i64,
    },
    #[error("Impossible d'ouvrir la base de données {path} : {source}")]
    Open {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("La mise à jour du schéma de la base de données a échoué : {0}")]
    Migration(String),
    #[error("Erreur de la base de données : {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("Une tâche de la base de données s'est interrompue : {0}")]
    Join(String),
}

#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Vec<Connection>>,
    cache: cache::ReadCache,
}

impl Store {
    /// Opens (creating if needed) the database and brings its schema up to
    /// date. A database made by a newer Liftdesk is refused untouched.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut writer = open_connection(path)?;
        migrate::check_and_run(&mut writer, path)?;
        // WAL is recorded in the file itself: set it only once the schema check
        // has accepted the database, so a refused file is never modified.
        writer.pragma_update(None, "journal_mode", "WAL")?;
        Ok(Store {
            inner: Arc::new(Inner {
                path: path.to_owned(),
                writer: Mutex::new(writer),
                readers: Mutex::new(Vec::new()),
                cache: cache::ReadCache::default(),
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `work` in one IMMEDIATE transaction on the writer: committed if it
    /// returns Ok, rolled back otherwise. Blocking: for the CLI and sync code.
    pub fn write_blocking<T, E>(
        &self,
        work: impl FnOnce(&Transaction) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        // A panic while holding the lock leaves no open transaction (the
        // Transaction drop rolls back), so a poisoned lock is still usable.
        let mut conn = self
            .inner
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = work(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs `work` in one IMMEDIATE transaction on the writer and rolls it
    /// back whatever it returns: a rehearsal (the import's check) sees
    /// exactly what the same work would write, and nothing stays. Blocking.
    pub fn rehearse_blocking<T, E>(
        &self,
        work: impl FnOnce(&Transaction) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let mut conn = self
            .inner
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = work(&tx);
        tx.rollback()?;
        value
    }

    /// Runs `work` on a pooled read connection. Blocking: for sync code.
    pub fn read_blocking<T, E>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let pooled = self
            .inner
            .readers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop();
        let conn = match pooled {
            Some(conn) => conn,
            None => open_connection(&self.inner.path).map_err(|err| match err {
                StoreError::Open { source, .. } | StoreError::Sqlite(source) => E::from(source),
                _ => E::from(rusqlite::Error::InvalidQuery),
            })?,
        };
        let result = work(&conn);
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
        F: FnOnce(&Transaction) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<rusqlite::Error> + From<StoreError> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.write_blocking(work))
            .await
            .map_err(|err| E::from(StoreError::Join(err.to_string())))?
    }

    /// `read_blocking` on a blocking thread.
    pub async fn read<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<rusqlite::Error> + From<StoreError> + Send + 'static,
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
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: From<rusqlite::Error> + From<StoreError> + Send + 'static,
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
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: From<rusqlite::Error> + From<StoreError> + Send + 'static,
    {
        if !self.inner.cache.enabled() {
            return Ok(Arc::new(self.read(work).await?));
        }
        // Read before the work: a commit between the two makes the kept
        // answer newer than its version, never older.
        let version = self.inner.cache.version(&self.inner.path)?;
        if let Some(kept) = self.inner.cache.get::<T>(&key, version)
            && still_valid(&kept)
        {
            return Ok(kept);
        }
        let value = Arc::new(self.read(work).await?);
        self.inner.cache.put(key, version, value.clone());
        Ok(value)
    }

    /// Reads every time, keeping nothing (`read_cached` becomes `read`): the
    /// instruction counts measure the database work this way.
    pub fn disable_read_cache(&self) {
        self.inner.cache.disable();
    }

    /// Folds the WAL back into the database file (on clean shutdown).
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        let conn = self
            .inner
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        conn.query_row_cached("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(|source| StoreError::Open {
        path: path.display().to_string(),
        source,
    })?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // FULL: a commit is on disk before the answer leaves, even on power loss.
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
    // (see `CachedStatements`): a few hundred distinct texts.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE_CAPACITY);
    Ok(conn)
}

/// A fresh UUID v7 (time-ordered: inserts stay local in the indexes).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Maps "no row" to `None`, as rusqlite's `OptionalExtension` does.
pub use rusqlite::OptionalExtension;

/// Prepared statements kept per connection: more than the store's distinct
/// statement texts, so a hot path never parses its SQL again.
const STATEMENT_CACHE_CAPACITY: usize = 512;

/// `execute` and `query_row` through the connection's statement cache.
/// Parsing and planning a statement costs more than running most of them
/// (a call's creation spent half its instructions in SQLite's parser), so
/// the store runs every statement through these.
pub trait CachedStatements {
    fn execute_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize>;

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>;
}

impl CachedStatements for Connection {
    fn execute_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, f)
    }
}
