//! Answers read from the database, kept in memory until the database
//! changes.
//!
//! A list fed by thousands of rows (a week of planning, a page of a million
//! invoices with its total, the technicians with their open calls) is read
//! once, then served from memory until any connection commits. The test is
//! SQLite's `PRAGMA data_version` on a connection of its own that never
//! writes: its value changes at every commit of another connection (this
//! server's writer, or another process such as the CLI), so an answer kept
//! under the current value is exactly what reading again would give.
//!
//! On PostgreSQL, where other servers commit too, the version is the read
//! transaction's own snapshot (`pg_current_snapshot()`: the transactions
//! running and the next to come, as one text): two reads with the same
//! snapshot see the same commits, and any commit since, of any server,
//! changes it. The answer is read on that very snapshot, so it is kept
//! under exactly what it saw (`Store::read_cached_postgres`).

use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{Conn, StoreError};

/// Kept answers at most; past it the oldest version's are dropped first
/// (all of them: any commit makes every answer stale anyway).
const MAX_ENTRIES: usize = 64;

#[derive(Default)]
pub(super) struct ReadCache {
    /// Set by `Store::disable_read_cache`.
    disabled: std::sync::atomic::AtomicBool,
    /// The connection that only reads `data_version`, opened at first use.
    watch: Mutex<Option<Conn>>,
    entries: Mutex<HashMap<String, Entry>>,
}

struct Entry {
    version: i64,
    value: Arc<dyn Any + Send + Sync>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ReadCache {
    pub(super) fn enabled(&self) -> bool {
        !self.disabled.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(super) fn disable(&self) {
        self.disabled
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The database's data version as seen now.
    pub(super) fn version(&self, path: &Path) -> Result<i64, StoreError> {
        let mut watch = lock(&self.watch);
        let conn = match watch.as_mut() {
            Some(conn) => conn,
            None => watch.insert(Conn::sqlite_conn(super::open_connection(path)?)),
        };
        conn.query_row_cached("PRAGMA data_version", [], |r| r.get(0))
    }

    /// The answer kept under `key` at `version`, if it is of type `T`.
    /// (On PostgreSQL `version` is [`pg_version`].)
    pub(super) fn get<T: Send + Sync + 'static>(&self, key: &str, version: i64) -> Option<Arc<T>> {
        let entries = lock(&self.entries);
        let entry = entries.get(key).filter(|entry| entry.version == version)?;
        entry.value.clone().downcast::<T>().ok()
    }

    /// Keeps `value` under `key`, read at `version` or later.
    pub(super) fn put<T: Send + Sync + 'static>(&self, key: String, version: i64, value: Arc<T>) {
        let mut entries = lock(&self.entries);
        // Stale answers go first; then, if still full, everything.
        if entries.len() >= MAX_ENTRIES {
            entries.retain(|_, entry| entry.version == version);
        }
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, Entry { version, value });
    }
}

/// The version of what a PostgreSQL read transaction sees: its snapshot
/// (`xmin:xmax:running…`), hashed. Run first in the transaction
/// (`REPEATABLE READ`: the snapshot is taken by its first statement and
/// kept to its end).
pub(super) fn pg_version(conn: &Conn) -> Result<i64, StoreError> {
    use std::hash::{Hash, Hasher};
    let snapshot: String =
        conn.query_row_cached("SELECT pg_current_snapshot()::text", [], |r| r.get(0))?;
    let mut hasher = std::hash::DefaultHasher::new();
    snapshot.hash(&mut hasher);
    Ok(i64::from_ne_bytes(hasher.finish().to_ne_bytes()))
}

#[cfg(test)]
mod tests {
    use super::super::Store;
    use super::*;

    #[test]
    fn an_answer_is_kept_until_a_commit() -> Result<(), StoreError> {
        let dir = tempfile::tempdir().map_err(|e| StoreError::Migration(e.to_string()))?;
        let store = Store::open(&dir.path().join("t.db"))?;
        let count = |store: &Store| -> Result<Arc<i64>, StoreError> {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| StoreError::Migration(e.to_string()))?;
            runtime.block_on(store.read_cached("organisations".to_owned(), |conn| {
                conn.query_row_cached("SELECT count(*) FROM organizations", [], |r| r.get(0))
            }))
        };
        assert_eq!(*count(&store)?, 0);
        let first = count(&store)?;
        assert!(
            Arc::ptr_eq(&first, &count(&store)?),
            "kept while nothing changed"
        );
        store.write_blocking(|tx| -> Result<_, StoreError> {
            tx.execute_cached(
                "INSERT INTO organizations (id, name, created_at) VALUES ('o', 'O', 'now')",
                [],
            )
        })?;
        assert_eq!(*count(&store)?, 1, "read again after a commit");
        // A commit from another connection (another process, the CLI) too.
        let other = rusqlite::Connection::open(dir.path().join("t.db"))?;
        other.execute(
            "INSERT INTO organizations (id, name, created_at) VALUES ('p', 'P', 'now')",
            [],
        )?;
        assert_eq!(
            *count(&store)?,
            2,
            "read again after another process's commit"
        );
        // A rolled-back write changes nothing and keeps the answer.
        let kept = count(&store)?;
        let _ = store.write_blocking(|tx| -> Result<(), StoreError> {
            tx.execute_cached(
                "INSERT INTO organizations (id, name, created_at) VALUES ('q', 'Q', 'now')",
                [],
            )?;
            Err(StoreError::Migration("abandon".into()))
        });
        assert!(Arc::ptr_eq(&kept, &count(&store)?));
        Ok(())
    }
}
