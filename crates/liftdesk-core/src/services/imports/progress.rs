//! Where the checks and imports of each uploaded file stand, in memory, for
//! `GET /api/v2/imports/{fileId}` to follow while they run: rows processed
//! out of the total, counts so far, status. One current-or-last check and
//! one current-or-last import per file; a server restart forgets them (the
//! file and what an import wrote stay).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

use crate::clock::{self, Clock};
use crate::domain::id::ImportId;
use crate::error::{AppError, AppResult};

/// A check (`verification`) or an import (`import`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunKind {
    Verification,
    Import,
}

/// `en_cours`, `terminee` (the check answered; the import committed) or
/// `echouee` (stopped by an error: an import then wrote nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    Running,
    Done,
    Failed,
}

impl RunStatus {
    pub fn code(self) -> &'static str {
        match self {
            Self::Running => "en_cours",
            Self::Done => "terminee",
            Self::Failed => "echouee",
        }
    }

    fn from_u8(value: u8) -> Self {
        match value {
            1 => Self::Done,
            2 => Self::Failed,
            _ => Self::Running,
        }
    }

    fn as_u8(self) -> u8 {
        match self {
            Self::Running => 0,
            Self::Done => 1,
            Self::Failed => 2,
        }
    }
}

/// One run, updated by the thread doing it.
#[derive(Debug)]
pub struct Run {
    pub target: &'static str,
    pub rows_total: u64,
    pub started_at: String,
    rows_processed: AtomicU64,
    created: AtomicU64,
    updated: AtomicU64,
    refused: AtomicU64,
    status: AtomicU8,
    finished_at: Mutex<Option<String>>,
}

/// What a run looks like at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSnapshot {
    pub target: &'static str,
    pub status: RunStatus,
    pub rows_processed: u64,
    pub rows_total: u64,
    pub created: u64,
    pub updated: u64,
    pub refused: u64,
    pub started_at: String,
    pub finished_at: Option<String>,
}

/// How a row ended, for the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tally {
    Created,
    Updated,
    Refused,
}

impl Run {
    /// One more row processed.
    pub fn row_done(&self, tally: Tally) {
        let counter = match tally {
            Tally::Created => &self.created,
            Tally::Updated => &self.updated,
            Tally::Refused => &self.refused,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        self.rows_processed.fetch_add(1, Ordering::Release);
    }

    /// The run is over (`Done` or `Failed`).
    pub fn finish(&self, status: RunStatus, at: DateTime<Utc>) {
        if let Ok(mut finished) = self.finished_at.lock() {
            *finished = Some(clock::format_timestamp(at));
        }
        self.status.store(status.as_u8(), Ordering::Release);
    }

    pub fn status(&self) -> RunStatus {
        RunStatus::from_u8(self.status.load(Ordering::Acquire))
    }

    pub fn snapshot(&self) -> RunSnapshot {
        RunSnapshot {
            target: self.target,
            status: self.status(),
            rows_processed: self.rows_processed.load(Ordering::Acquire),
            rows_total: self.rows_total,
            created: self.created.load(Ordering::Relaxed),
            updated: self.updated.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
            started_at: self.started_at.clone(),
            finished_at: self.finished_at.lock().ok().and_then(|f| f.clone()),
        }
    }
}

/// Marks its run failed when dropped before `done` (an error or a panic in
/// the middle of the work).
pub struct RunGuard {
    run: Arc<Run>,
    finished: bool,
    clock: Clock,
}

impl RunGuard {
    pub fn run(&self) -> &Run {
        &self.run
    }

    pub fn done(mut self, status: RunStatus) {
        self.run.finish(status, (self.clock)());
        self.finished = true;
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        if !self.finished {
            self.run.finish(RunStatus::Failed, (self.clock)());
        }
    }
}

/// A run and the expiry of its file, under (file id, kind).
type Runs = HashMap<(ImportId, RunKind), (Arc<Run>, DateTime<Utc>)>;

/// The runs of every file: the last check and the last import of each.
pub struct ImportRuns {
    runs: Mutex<Runs>,
    /// The server's clock: a run's start and end.
    clock: Clock,
}

impl std::fmt::Debug for ImportRuns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImportRuns")
            .field("runs", &self.runs)
            .finish()
    }
}

impl ImportRuns {
    pub fn new(clock: Clock) -> Self {
        Self {
            runs: Mutex::new(HashMap::new()),
            clock,
        }
    }

    /// Starts a run on a file: 409 while a check or an import of that file
    /// is running.
    pub fn start(
        &self,
        file_id: &ImportId,
        kind: RunKind,
        target: &'static str,
        rows_total: u64,
        expires_at: DateTime<Utc>,
    ) -> AppResult<RunGuard> {
        let mut runs = self
            .runs
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let busy = [RunKind::Verification, RunKind::Import]
            .iter()
            .filter_map(|k| runs.get(&(file_id.to_owned(), *k)))
            .any(|(run, _)| run.status() == RunStatus::Running);
        if busy {
            return Err(AppError::conflict(
                "Une vérification ou un import de ce fichier est déjà en cours : suivez-le avec GET /imports/{fileId} et réessayez quand il est terminé.",
            ));
        }
        let run = Arc::new(Run {
            target,
            rows_total,
            started_at: clock::format_timestamp((self.clock)()),
            rows_processed: AtomicU64::new(0),
            created: AtomicU64::new(0),
            updated: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            status: AtomicU8::new(RunStatus::Running.as_u8()),
            finished_at: Mutex::new(None),
        });
        runs.insert((file_id.to_owned(), kind), (run.clone(), expires_at));
        Ok(RunGuard {
            run,
            finished: false,
            clock: self.clock.clone(),
        })
    }

    /// The current or last run of that kind on the file.
    pub fn get(&self, file_id: &ImportId, kind: RunKind) -> Option<RunSnapshot> {
        let runs = self
            .runs
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        runs.get(&(file_id.to_owned(), kind))
            .map(|(run, _)| run.snapshot())
    }

    /// Forgets the runs of files expired at `now`.
    pub fn prune(&self, now: DateTime<Utc>) {
        let mut runs = self
            .runs
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        runs.retain(|_, (run, expires_at)| *expires_at > now || run.status() == RunStatus::Running);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_followed_and_a_second_one_waits() {
        let runs = ImportRuns::new(clock::system());
        let f = ImportId::new("f");
        let later = clock::now() + chrono::Duration::hours(1);
        let guard = runs
            .start(&f, RunKind::Import, "equipment", 3, later)
            .expect("start");
        guard.run().row_done(Tally::Created);
        guard.run().row_done(Tally::Refused);
        let seen = runs.get(&f, RunKind::Import).expect("run");
        assert_eq!(seen.status, RunStatus::Running);
        assert_eq!((seen.rows_processed, seen.rows_total), (2, 3));
        assert_eq!((seen.created, seen.updated, seen.refused), (1, 0, 1));
        assert_eq!(
            runs.start(&f, RunKind::Verification, "equipment", 3, later)
                .err()
                .map(|e| e.status().as_u16()),
            Some(409)
        );
        assert!(runs.get(&f, RunKind::Verification).is_none());
        drop(guard);
        let seen = runs.get(&f, RunKind::Import).expect("run");
        assert_eq!(seen.status, RunStatus::Failed);
        assert!(seen.finished_at.is_some());
        let guard = runs
            .start(&f, RunKind::Verification, "clients", 1, later)
            .expect("free again");
        guard.done(RunStatus::Done);
        assert_eq!(
            runs.get(&f, RunKind::Verification).map(|s| s.status),
            Some(RunStatus::Done)
        );
        runs.prune(later + chrono::Duration::seconds(1));
        assert!(runs.get(&f, RunKind::Import).is_none());
    }
}
