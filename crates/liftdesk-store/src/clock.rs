//! The current time, read in one place: the system clock (`system`), which
//! the store holds and tests replace. Everything else about
//! time (the stored text form, Paris wall-clock time) is pure and lives in
//! `liftdesk_domain::time`, re-exported here.

use std::sync::Arc;

use chrono::{DateTime, Utc};

pub use liftdesk_domain::time::{
    format_timestamp, paris_local, paris_offset_hours, paris_to_utc, parse_timestamp,
};

/// A source of the current time. The server's is the store's
/// (`Store::now`); tests and the instruction-count gate replace it.
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// The system's clock: the only place that reads the machine's time.
pub fn system() -> Clock {
    Arc::new(now)
}

/// The machine's time. Product code never calls it (`scripts/layers.sh`
/// refuses it outside this file): it reads the injected clock (`Tx::now`
/// in a write, `Store::now` or `AppState::now` elsewhere). Tests may.
pub fn now() -> DateTime<Utc> {
    Utc::now()
}

/// The machine's local time, for the names of the copies made where no
/// server (and so no injected clock) runs: `restore`'s set-aside folder and
/// the copy before a schema migration, named as the user's clock reads.
pub fn local_now() -> DateTime<chrono::Local> {
    chrono::Local::now()
}

/// [`now`] as stored text (tests).
pub fn now_text() -> String {
    format_timestamp(now())
}

/// Today's date in Paris by the machine's time (tests).
pub fn paris_today() -> chrono::NaiveDate {
    paris_local(now()).date()
}
