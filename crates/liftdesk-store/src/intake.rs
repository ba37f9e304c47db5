//! Call-center calls opened together on PostgreSQL: the store's group
//! commit for the calls that arrive at once.
//!
//! On PostgreSQL a transaction costs far more than the call it writes (its
//! BEGIN, its locks, its COMMIT and the commit's flush of the WAL, each a
//! message to a backend on the same core). The calls that arrive while
//! others are being written wait in a queue; a thread of the store (one of
//! [`OPENERS`]) takes them all (at most [`TOGETHER_AT_MOST`]) and opens
//! them in one transaction of one statement (`calls::open_from_centers`),
//! under the locks of their agencies, as `Store::write_for_agency` would
//! take them. A call's answer leaves once that transaction committed, as
//! a call written alone: every answered call is on disk. Nothing waits for
//! company: a call alone is opened at once, and the next ones gather while
//! it is written.
//!
//! Should the calls taken together fail (a value PostgreSQL refuses, a
//! deadlock with another server's calls), each is opened again alone, so
//! that one call's failure is its own.
//!
//! SQLite, whose one writer already gathers the commits' flushes
//! (`durability`), opens each call in a write of its own.

use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex, Weak};

use crate::calls::{self, CenterCallOpening, NewCenterCall};
use crate::{EngineStore, Inner, PgWrote, Store, StoreError, StoreResult, Tx};

/// The most calls opened in one transaction.
const TOGETHER_AT_MOST: usize = 64;

/// The threads that open the queued calls: while one waits for its
/// transaction, another takes the calls arrived meanwhile (two calls at
/// once are opened side by side, as two writes of different agencies
/// are, rather than one after the other).
const OPENERS: usize = 2;

/// A call waiting to be opened, and where its opening goes.
pub(crate) struct Waiting {
    call: NewCenterCall,
    answer: tokio::sync::oneshot::Sender<StoreResult<CenterCallOpening>>,
}

impl Store {
    /// Opens a call-center call and its journal entry (see
    /// [`calls::open_from_centers`]), on disk when this answers: on
    /// PostgreSQL together with the calls arriving meanwhile, on SQLite in
    /// a write confined to its agency.
    pub async fn open_center_call(&self, call: NewCenterCall) -> StoreResult<CenterCallOpening> {
        if let EngineStore::Sqlite { .. } = self.inner.engine {
            let agency = call.agency_id.clone();
            return self
                .write_for_agency(agency, move |tx| calls::open_from_center(tx, &call))
                .await;
        }
        let (answer, answered) = tokio::sync::oneshot::channel();
        let queue = self
            .inner
            .intake
            .get_or_init(|| start(Arc::downgrade(&self.inner)));
        let stopped = || StoreError::Join("la file des appels ouverts ensemble est arrêtée".into());
        queue
            .send(Waiting { call, answer })
            .map_err(|_| stopped())?;
        answered.await.map_err(|_| stopped())?
    }

    /// Opens `calls` in one transaction under their agencies' locks.
    fn open_together_blocking(
        &self,
        calls: &[NewCenterCall],
    ) -> StoreResult<Vec<CenterCallOpening>> {
        let _wrote = PgWrote(&self.inner.cache);
        let conn = self.pg_lease()?;
        let mut agencies: Vec<&str> = calls.iter().map(|c| c.agency_id.as_str()).collect();
        agencies.sort_unstable();
        agencies.dedup();
        let tx = Tx::begin_for_agencies(&conn, self.now(), &agencies)?;
        let openings = calls::open_from_centers(&tx, calls)?;
        tx.commit()?;
        Ok(openings)
    }
}

/// Starts the threads that open the queued calls of the store `inner`;
/// they end with the store (the queue's sender is the store's).
fn start(inner: Weak<Inner>) -> Sender<Waiting> {
    let (queue, waiting) = std::sync::mpsc::channel();
    let waiting = Arc::new(Mutex::new(waiting));
    for _ in 0..OPENERS {
        let (inner, waiting) = (inner.clone(), waiting.clone());
        let started = std::thread::Builder::new()
            .name("liftdesk-intake".into())
            .spawn(move || run(&inner, &waiting));
        if let Err(err) = started {
            // Without any, the receiver is gone with the closures: every
            // call is answered that the queue is stopped.
            tracing::error!(error = %err, "file des appels ouverts ensemble impossible à démarrer");
        }
    }
    queue
}

/// An opener: the calls queued, taken at once, opened together.
fn run(inner: &Weak<Inner>, waiting: &Mutex<Receiver<Waiting>>) {
    loop {
        let batch = {
            let waiting = crate::lock(waiting);
            let Ok(first) = waiting.recv() else {
                return;
            };
            let mut batch = vec![first];
            batch.extend(waiting.try_iter().take(TOGETHER_AT_MOST - 1));
            batch
        };
        let Some(inner) = inner.upgrade() else {
            return;
        };
        open(&Store { inner }, batch);
    }
}

/// Opens the calls of `batch` together and answers each; alone each, if
/// together they failed.
fn open(store: &Store, batch: Vec<Waiting>) {
    let calls: Vec<NewCenterCall> = batch.iter().map(|w| w.call.clone()).collect();
    match store.open_together_blocking(&calls) {
        Ok(openings) => {
            for (waiting, opening) in batch.into_iter().zip(openings) {
                let _ = waiting.answer.send(Ok(opening));
            }
        }
        Err(err) if batch.len() > 1 => {
            tracing::warn!(error = %err, calls = batch.len(), "appels ouverts ensemble refusés : chacun est ouvert seul");
            for waiting in batch {
                let opened = store
                    .open_together_blocking(std::slice::from_ref(&waiting.call))
                    .and_then(|mut one| one.pop().ok_or(StoreError::NotFound));
                let _ = waiting.answer.send(opened);
            }
        }
        Err(err) => {
            if let Some(waiting) = batch.into_iter().next() {
                let _ = waiting.answer.send(Err(err));
            }
        }
    }
}
