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
//! On PostgreSQL, where other servers commit too, the version is a
//! snapshot (`pg_current_snapshot()`: the transactions running and the
//! next to come, as one text): two reads with the same snapshot see the
//! same commits, and any commit since, of any server, changes it. An
//! answer is read in a transaction whose own snapshot it is kept under, so
//! it is kept under exactly what it saw (`Store::pg_read_cached_blocking`).
//!
//! Asking PostgreSQL for the current snapshot is a round trip; a request
//! need not make its own. A request may answer as of any moment between
//! its arrival and its answer, so any snapshot taken since it began will
//! do ([`PgSeen`]): the freshest one this process has seen, if it was asked
//! for after the request began and after this process's last commit (a
//! request sees its own writes), else the one being asked for if that is
//! recent enough, else a new one. A revocation committed by another server
//! before a request arrives is in every snapshot that request can use.

use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

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
    /// PostgreSQL: the snapshots seen, and the one being asked for.
    seen: Mutex<PgSeen>,
    /// Signalled when an asked-for snapshot arrives (or fails).
    seen_arrived: Condvar,
}

/// The snapshots this process has seen on PostgreSQL (module docs).
#[derive(Default)]
struct PgSeen {
    /// The freshest: when it was asked for, and its version.
    latest: Option<(Instant, i64)>,
    /// When the snapshot now being asked for was asked for.
    asked: Option<Instant>,
    /// When this process's last write on the database ended: an older
    /// snapshot may miss it.
    last_write: Option<Instant>,
}

impl PgSeen {
    /// How recent a snapshot must be for a read of a request begun at
    /// `began`: asked for since then and since this process's last write.
    fn floor(&self, began: Instant) -> Instant {
        self.last_write.map_or(began, |write| write.max(began))
    }
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

    /// PostgreSQL: the version of a snapshot fresh enough for a read of a
    /// request begun at `began`, if one was seen; never waits.
    pub(super) fn pg_seen_version(&self, began: Instant) -> Option<i64> {
        let seen = lock(&self.seen);
        let floor = seen.floor(began);
        seen.latest
            .filter(|(asked, _)| *asked >= floor)
            .map(|(_, version)| version)
    }

    /// PostgreSQL: [`ReadCache::pg_seen_version`], or, if a snapshot is
    /// being asked for since `began` and this process's last write, its
    /// version once it arrives (waiting for it here). `None`: the read must
    /// ask for its own ([`ReadCache::pg_asking`]).
    pub(super) fn pg_awaited_version(&self, began: Instant) -> Option<i64> {
        let mut seen = lock(&self.seen);
        loop {
            let floor = seen.floor(began);
            if let Some((_, version)) = seen.latest.filter(|(asked, _)| *asked >= floor) {
                return Some(version);
            }
            match seen.asked {
                Some(asked) if asked >= floor => {
                    seen = self
                        .seen_arrived
                        .wait(seen)
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                }
                _ => return None,
            }
        }
    }

    /// PostgreSQL: a read asks for a snapshot now (its own transaction's):
    /// the reads begun before wait for it rather than ask for theirs. The
    /// instant to give back to [`ReadCache::pg_answered`].
    pub(super) fn pg_asking(&self) -> Instant {
        let now = Instant::now();
        let mut seen = lock(&self.seen);
        if seen.asked.is_none_or(|asked| asked < now) {
            seen.asked = Some(now);
        }
        now
    }

    /// PostgreSQL: the snapshot asked for at `asked` is `version` (`None`:
    /// the ask failed); the reads waiting for it go on.
    pub(super) fn pg_answered(&self, asked: Instant, version: Option<i64>) {
        let mut seen = lock(&self.seen);
        if seen.asked == Some(asked) {
            seen.asked = None;
        }
        if let Some(version) = version
            && seen.latest.is_none_or(|(latest, _)| latest < asked)
        {
            seen.latest = Some((asked, version));
        }
        drop(seen);
        self.seen_arrived.notify_all();
    }

    /// PostgreSQL: this process's write has just ended (committed or not):
    /// the snapshots seen before may miss it.
    pub(super) fn pg_wrote(&self) {
        lock(&self.seen).last_write = Some(Instant::now());
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

/// The version of a snapshot (`xmin:xmax:running…`): its text, hashed.
pub(super) fn pg_version_of(snapshot: &str) -> i64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    snapshot.hash(&mut hasher);
    i64::from_ne_bytes(hasher.finish().to_ne_bytes())
}

tokio::task_local! {
    /// When the request being answered began (`as_one_request`).
    static REQUEST_BEGAN: Instant;
}

/// Runs `work` (a request's answer) as one request begun now: the store's
/// kept answers on PostgreSQL may then be those of any snapshot taken
/// since (module docs). Outside it, each read is its own request.
pub async fn as_one_request<F: std::future::Future>(work: F) -> F::Output {
    REQUEST_BEGAN.scope(Instant::now(), work).await
}

/// When the request being answered on this task began, or now.
pub(super) fn request_began() -> Instant {
    REQUEST_BEGAN
        .try_with(|began| *began)
        .unwrap_or_else(|_| Instant::now())
}

#[cfg(test)]
mod tests {
    use super::super::Store;
    use super::*;

    /// A snapshot asked for before a request began, or before this
    /// process's last write, is not that request's; one asked for since is.
    #[test]
    fn a_snapshot_serves_the_requests_begun_before_it_was_asked_for() {
        let cache = ReadCache::default();
        let early = Instant::now();
        assert_eq!(cache.pg_awaited_version(early), None, "nothing seen");
        let asked = cache.pg_asking();
        cache.pg_answered(asked, Some(1));
        assert_eq!(cache.pg_seen_version(early), Some(1));
        assert_eq!(cache.pg_awaited_version(early), Some(1));
        // A request begun after it was asked for needs a newer one.
        let late = Instant::now();
        assert_eq!(cache.pg_seen_version(late), None);
        assert_eq!(cache.pg_awaited_version(late), None);
        let newer = cache.pg_asking();
        cache.pg_answered(newer, Some(3));
        assert_eq!(cache.pg_seen_version(late), Some(3));
        // An older answer arriving late does not replace the freshest.
        cache.pg_answered(asked, Some(2));
        assert_eq!(cache.pg_seen_version(early), Some(3));
        // This process's write: no snapshot seen before it will do.
        cache.pg_wrote();
        assert_eq!(cache.pg_seen_version(early), None);
        assert_eq!(cache.pg_awaited_version(early), None);
        // A failed ask leaves nothing seen, and no one waiting for it.
        let failed = cache.pg_asking();
        cache.pg_answered(failed, None);
        assert_eq!(cache.pg_awaited_version(early), None);
    }

    /// Reads that began before a snapshot was asked for wait for it instead
    /// of asking for their own; a read begun after it was asked for does
    /// not wait.
    #[test]
    fn readers_wait_for_the_snapshot_being_asked_for() -> Result<(), String> {
        let cache = Arc::new(ReadCache::default());
        let began = Instant::now();
        let asked = cache.pg_asking();
        let after = Instant::now();
        assert_eq!(cache.pg_awaited_version(after), None, "asked for too early");
        let waiting = {
            let cache = cache.clone();
            std::thread::spawn(move || cache.pg_awaited_version(began))
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!waiting.is_finished(), "waits for the answer");
        cache.pg_answered(asked, Some(7));
        let got = waiting.join().map_err(|_| "fil interrompu".to_owned())?;
        assert_eq!(got, Some(7));
        Ok(())
    }

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
