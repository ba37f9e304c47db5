//! Time as Liftdesk writes and reads it: UTC instants as ISO 8601 text with
//! milliseconds, and Europe/Paris wall-clock time (French screens and
//! `fields`). Pure calendar arithmetic: reading the current time is the
//! clock's job (the root crate's `clock`, injected into the server).

use chrono::{DateTime, SecondsFormat, Utc};

/// `2026-11-21T07:23:00.000Z`: sortable as text, as stored and sent.
pub fn format_timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub fn parse_timestamp(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

// -- Europe/Paris local time, without a time-zone database ------------------
//
// French screens and `fields` show local times. Since 1996 the EU rule is
// fixed: summer time (UTC+2) from the last Sunday of March, 01:00 UTC, to the
// last Sunday of October, 01:00 UTC; UTC+1 the rest of the year. Older
// instants are shown with the same rule.

/// The last Sunday of a month (`month` 1–12).
fn last_sunday(year: i32, month: u32) -> Option<chrono::NaiveDate> {
    use chrono::Datelike;
    let (next_year, next_month) = if month == 12 {
        (year.checked_add(1)?, 1)
    } else {
        (year, month + 1)
    };
    let last_day = chrono::NaiveDate::from_ymd_opt(next_year, next_month, 1)?.pred_opt()?;
    let back = u64::from(last_day.weekday().num_days_from_sunday());
    last_day.checked_sub_days(chrono::Days::new(back))
}

/// Offset of Europe/Paris from UTC at `at`, in hours (1 or 2).
pub fn paris_offset_hours(at: DateTime<Utc>) -> i64 {
    use chrono::Datelike;
    let year = at.year();
    let switch = |month| last_sunday(year, month).and_then(|day| day.and_hms_opt(1, 0, 0));
    match (switch(3), switch(10)) {
        (Some(start), Some(end)) if at.naive_utc() >= start && at.naive_utc() < end => 2,
        _ => 1,
    }
}

/// The wall-clock time in Paris at `at`.
pub fn paris_local(at: DateTime<Utc>) -> chrono::NaiveDateTime {
    let utc = at.naive_utc();
    utc.checked_add_signed(chrono::Duration::hours(paris_offset_hours(at)))
        .unwrap_or(utc)
}

/// The instant of a Paris wall-clock time. A time skipped by the spring
/// change (02:00–03:00) is read as winter time; a time met twice in autumn is
/// the first one.
pub fn paris_to_utc(local: chrono::NaiveDateTime) -> DateTime<Utc> {
    for offset in [2, 1] {
        if let Some(utc) = local.checked_sub_signed(chrono::Duration::hours(offset)) {
            let at = utc.and_utc();
            if paris_offset_hours(at) == offset {
                return at;
            }
        }
    }
    local
        .checked_sub_signed(chrono::Duration::hours(1))
        .unwrap_or(local)
        .and_utc()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
    }

    #[test]
    fn paris_switches_to_summer_time_on_the_last_sundays_of_march_and_october() {
        // 2026: summer time from Sunday 29 March to Sunday 25 October, 01:00 UTC.
        assert_eq!(paris_offset_hours(utc(2026, 1, 15, 12, 0)), 1);
        assert_eq!(paris_offset_hours(utc(2026, 3, 29, 0, 59)), 1);
        assert_eq!(paris_offset_hours(utc(2026, 3, 29, 1, 0)), 2);
        assert_eq!(paris_offset_hours(utc(2026, 7, 14, 12, 0)), 2);
        assert_eq!(paris_offset_hours(utc(2026, 10, 25, 0, 59)), 2);
        assert_eq!(paris_offset_hours(utc(2026, 10, 25, 1, 0)), 1);
        // 2027: 28 March and 31 October.
        assert_eq!(paris_offset_hours(utc(2027, 3, 28, 1, 0)), 2);
        assert_eq!(paris_offset_hours(utc(2027, 10, 31, 0, 30)), 2);
        assert_eq!(paris_offset_hours(utc(2027, 10, 31, 1, 30)), 1);
    }

    #[test]
    fn paris_local_time_and_day() {
        let winter = paris_local(utc(2026, 3, 11, 23, 30));
        assert_eq!(winter.to_string(), "2026-03-12 00:30:00");
        let summer = paris_local(utc(2026, 6, 1, 7, 5));
        assert_eq!(summer.to_string(), "2026-06-01 09:05:00");
        assert_eq!(
            last_sunday(2026, 12).map(|d| d.to_string()),
            Some("2026-12-27".into())
        );
        // Back from local time, in winter and in summer.
        let at = |y, mo, d, h, mi| {
            chrono::NaiveDate::from_ymd_opt(y, mo, d)
                .unwrap()
                .and_hms_opt(h, mi, 0)
                .unwrap()
        };
        assert_eq!(
            paris_to_utc(at(2026, 11, 23, 8, 0)),
            utc(2026, 11, 23, 7, 0)
        );
        assert_eq!(paris_to_utc(at(2026, 6, 1, 8, 0)), utc(2026, 6, 1, 6, 0));
        assert_eq!(
            paris_to_utc(at(2026, 3, 29, 2, 30)),
            utc(2026, 3, 29, 1, 30)
        );
        assert_eq!(
            paris_to_utc(at(2026, 10, 25, 2, 30)),
            utc(2026, 10, 25, 0, 30)
        );
        // Far instants do not panic.
        let _ = paris_local(DateTime::<Utc>::MAX_UTC);
        let _ = paris_local(DateTime::<Utc>::MIN_UTC);
    }
}
