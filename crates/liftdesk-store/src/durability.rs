//! Group commit: every write is on disk before its answer leaves, with one
//! flush for all the writes that committed meanwhile.
//!
//! SQLite's `synchronous=FULL` flushes the WAL inside COMMIT, while the
//! writer's lock is held: concurrent writers queue behind each flush and
//! each pays its own. The writer runs with `synchronous=NORMAL` instead
//! (commits are written to the WAL, not flushed; checkpoints still flush
//! and WAL restarts still sync its header, so the database is never
//! corrupted), and `Store::write_blocking` calls [`GroupCommit::flush_through`]
//! after releasing the lock. A write's answer thus still waits for its
//! commit to be on disk, as with FULL: a power cut loses no answered write.
//!
//! The flush covers every commit written so far. A writer whose commit is
//! not yet covered first waits, briefly, for the writers already inside a
//! transaction: their commits are a few dozen microseconds away, and one
//! flush then covers them all (a flush costs this machine's core more than
//! a small transaction). A writer alone flushes at once.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The longest a writer waits for others' commits before flushing: far
/// above a call's transaction, far below what a user would notice.
const GATHER_AT_MOST: Duration = Duration::from_millis(2);

pub(super) struct GroupCommit {
    /// The database's `-wal` file.
    wal: PathBuf,
    /// Commits written to the WAL, counted under the writer's lock: commit
    /// number n is in the file once the counter reads n.
    committed: AtomicU64,
    /// Writers between the start of `write_blocking` and the release of the
    /// writer's lock (waiting for it, or inside their transaction).
    writing: AtomicUsize,
    flushed: Mutex<Flushed>,
    /// Signalled when a writer leaves the lock and when a flush ends.
    changed: Condvar,
}

#[derive(Default)]
struct Flushed {
    /// Commits 1..=through are on disk.
    through: u64,
    /// A writer is flushing (without holding the lock).
    flushing: bool,
    /// The WAL file, opened at the first flush (it exists once the database
    /// is in WAL mode and stays while the writer's connection is open).
    file: Option<Arc<File>>,
    /// How many flushes were made (for the tests).
    flushes: u64,
}

impl GroupCommit {
    pub(super) fn new(database: &Path) -> GroupCommit {
        let mut wal = database.as_os_str().to_owned();
        wal.push("-wal");
        GroupCommit {
            wal: PathBuf::from(wal),
            committed: AtomicU64::new(0),
            writing: AtomicUsize::new(0),
            flushed: Mutex::new(Flushed::default()),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Flushed> {
        self.flushed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A writer starts (before taking the writer's lock).
    pub(super) fn enter(&self) -> Writing<'_> {
        self.writing.fetch_add(1, Ordering::AcqRel);
        Writing { group: self }
    }

    /// Counts a commit just made; call it under the writer's lock, so the
    /// numbers follow the order of the commits in the WAL.
    pub(super) fn committed(&self) -> u64 {
        self.committed.fetch_add(1, Ordering::AcqRel) + 1
    }

    /// Returns once `commit` is on disk, flushing the WAL if no other
    /// writer's flush has covered it yet.
    pub(super) fn flush_through(&self, commit: u64) -> io::Result<()> {
        let deadline = Instant::now() + GATHER_AT_MOST;
        let mut flushed = self.lock();
        loop {
            if flushed.through >= commit {
                return Ok(());
            }
            let now = Instant::now();
            // A flush under way may have started before this commit: wait
            // for its end, then see.
            let wait = if flushed.flushing {
                Some(Duration::MAX)
            } else if now >= deadline {
                None
            } else if self.writing.load(Ordering::Acquire) > 0 {
                // Another writer's commit is close: wait for it (or for
                // its flush, which then covers this commit too).
                Some(deadline - now)
            } else {
                None
            };
            let Some(wait) = wait else { break };
            flushed = if wait == Duration::MAX {
                self.changed
                    .wait(flushed)
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
            } else {
                self.changed
                    .wait_timeout(flushed, wait)
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .0
            };
        }
        // Every commit counted so far is written to the file: this flush
        // covers them all. The lock is released during the flush, so the
        // writers committing meanwhile can queue for the next one.
        let target = self.committed.load(Ordering::Acquire);
        let file = match &flushed.file {
            Some(file) => Ok(file.clone()),
            None => open_wal(&self.wal).map(Arc::new),
        };
        let file = match file {
            Ok(file) => file,
            Err(err) => {
                drop(flushed);
                return Err(err);
            }
        };
        flushed.file = Some(file.clone());
        flushed.flushing = true;
        drop(flushed);
        let result = file.sync_data();
        let mut flushed = self.lock();
        flushed.flushing = false;
        if result.is_ok() {
            flushed.through = flushed.through.max(target);
            flushed.flushes += 1;
        }
        drop(flushed);
        self.changed.notify_all();
        result
    }

    #[cfg(test)]
    pub(super) fn counts(&self) -> (u64, u64, u64) {
        let flushed = self.lock();
        (
            self.committed.load(Ordering::Acquire),
            flushed.through,
            flushed.flushes,
        )
    }
}

impl Drop for GroupCommit {
    fn drop(&mut self) {
        let flushed = self.lock();
        tracing::debug!(
            commits = self.committed.load(Ordering::Acquire),
            flushes = flushed.flushes,
            "validations groupées du journal WAL"
        );
    }
}

/// A writer between the start of its write and the release of the writer's
/// lock; dropped after the lock is released (even on error or panic).
pub(super) struct Writing<'a> {
    group: &'a GroupCommit,
}

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        self.group.writing.fetch_sub(1, Ordering::AcqRel);
        // Taken and released so a writer deciding to wait either sees the
        // count already lowered or is waiting when the signal comes.
        drop(self.group.lock());
        self.group.changed.notify_all();
    }
}

/// Opens the WAL file for flushing, and flushes its directory entry once:
/// a freshly created file must still be found after a power cut.
fn open_wal(wal: &Path) -> io::Result<File> {
    let file = OpenOptions::new().write(true).open(wal)?;
    if let Some(dir) = wal.parent().filter(|p| !p.as_os_str().is_empty()) {
        File::open(dir)?.sync_all()?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::{Store, StoreError};
    use rusqlite::Connection;

    fn group(store: &Store) -> &super::GroupCommit {
        match &store.inner.engine {
            crate::EngineStore::Sqlite { group_commit, .. } => group_commit
                .as_ref()
                .expect("a database in WAL mode commits by group"),
            crate::EngineStore::Postgres { .. } => panic!("SQLite attendu"),
        }
    }

    fn insert_organization(tx: &crate::Tx, name: &str) -> Result<(), StoreError> {
        tx.execute(
            "INSERT INTO organizations (id, name, created_at) VALUES (?1, ?2, '2026-01-01T00:00:00Z')",
            [super::super::new_id(), name.to_owned()],
        )?;
        Ok(())
    }

    #[test]
    fn the_writer_commits_without_flushing_and_every_write_returns_flushed()
    -> Result<(), StoreError> {
        let dir = tempfile::tempdir().map_err(|e| StoreError::Migration(e.to_string()))?;
        let store = Store::open(&dir.path().join("t.db"))?;
        {
            let crate::EngineStore::Sqlite { writer, .. } = &store.inner.engine else {
                panic!("SQLite attendu");
            };
            let writer = writer.lock().expect("writer");
            let synchronous: i64 = writer
                .sqlite()?
                .query_row("PRAGMA synchronous", [], |r| r.get(0))?;
            assert_eq!(synchronous, 1, "NORMAL on the writer");
        }
        let group = group(&store);
        for n in 1..=5u64 {
            store.write_blocking(|tx| insert_organization(tx, &format!("Org {n}")))?;
            let (committed, through, flushes) = group.counts();
            assert_eq!(
                (committed, through, flushes),
                (n, n, n),
                "one flush per lone write"
            );
        }
        // A write that changes no row has nothing to flush.
        store.write_blocking(|tx| -> Result<(), StoreError> {
            tx.execute(
                "UPDATE organizations SET name = 'x' WHERE id = 'absent'",
                [],
            )?;
            Ok(())
        })?;
        assert_eq!(group.counts(), (5, 5, 5));
        // A refused write commits nothing and flushes nothing.
        let refused: Result<(), StoreError> = store.write_blocking(|_| Err(StoreError::NotFound));
        assert!(refused.is_err());
        assert_eq!(group.counts(), (5, 5, 5));
        // Another connection sees every acknowledged write.
        let other = Connection::open(dir.path().join("t.db"))?;
        let count: i64 = other.query_row("SELECT count(*) FROM organizations", [], |r| r.get(0))?;
        assert_eq!(count, 5);
        Ok(())
    }

    #[test]
    fn concurrent_writes_share_flushes_and_none_returns_before_its_own() -> Result<(), StoreError> {
        let dir = tempfile::tempdir().map_err(|e| StoreError::Migration(e.to_string()))?;
        let store = Store::open(&dir.path().join("t.db"))?;
        let late = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let store = store.clone();
                let late = late.clone();
                std::thread::spawn(move || -> Result<(), StoreError> {
                    for n in 0..50 {
                        // Under the writer's lock: this write's commit number.
                        let mut mine = 0;
                        store.write_blocking(|tx| {
                            mine = group(&store).counts().0 + 1;
                            insert_organization(tx, &format!("Org {t}-{n}"))
                        })?;
                        if group(&store).counts().1 < mine {
                            late.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        for thread in threads {
            thread.join().expect("writer thread")?;
        }
        assert_eq!(
            late.load(std::sync::atomic::Ordering::Relaxed),
            0,
            "a write returned before its flush"
        );
        let (committed, through, flushes) = group(&store).counts();
        assert_eq!((committed, through), (400, 400));
        // Eight writers at once: flushes are shared (a writer waits for the
        // writers already queued for the lock).
        assert!(
            flushes < committed,
            "{flushes} flushes for {committed} commits"
        );
        Ok(())
    }
}
