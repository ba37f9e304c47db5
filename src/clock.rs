//! The current time, read in one place: `now` (UTC). Everything else about
//! time (the stored text form, Paris wall-clock time) is pure and lives in
//! `liftdesk_domain::time`, re-exported here.

use chrono::{DateTime, Utc};

pub use liftdesk_domain::time::{
    format_timestamp, paris_local, paris_offset_hours, paris_to_utc, parse_timestamp,
};

pub fn now() -> DateTime<Utc> {
    Utc::now()
}

pub fn now_text() -> String {
    format_timestamp(now())
}

/// Today's date in Paris.
pub fn paris_today() -> chrono::NaiveDate {
    paris_local(now()).date()
}
