//! `Day`: a calendar day of the agency (a visit's, an absence's, an
//! invoice's due date…), read and written one way everywhere: read strictly
//! `YYYY-MM-DD` ([`Day::parse`], which says whether the text is malformed or
//! names no day), stored and exchanged `YYYY-MM-DD` ([`Day::iso`]), shown in
//! French `23/11/2026` ([`Day::french`]), and its ISO week
//! ([`Day::iso_week`]). The free functions are the same rules for a
//! `NaiveDate` at hand.

use std::fmt;

use chrono::{Datelike, Days, NaiveDate};

/// Why a text is not a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayError {
    /// Not `YYYY-MM-DD`.
    Malformed,
    /// `YYYY-MM-DD` but no such day (2026-02-30).
    Impossible,
}

/// A calendar day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(NaiveDate);

impl Day {
    /// Reads a day written exactly `YYYY-MM-DD` (no spaces, two-digit month
    /// and day).
    pub fn parse(text: &str) -> Result<Self, DayError> {
        let bytes = text.as_bytes();
        let shaped = bytes.len() == 10
            && bytes.iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                _ => b.is_ascii_digit(),
            });
        if !shaped {
            return Err(DayError::Malformed);
        }
        let number = |range: std::ops::Range<usize>| text[range].parse::<u32>().unwrap_or(0);
        let year = i32::try_from(number(0..4)).map_err(|_| DayError::Malformed)?;
        NaiveDate::from_ymd_opt(year, number(5..7), number(8..10))
            .map(Self)
            .ok_or(DayError::Impossible)
    }

    pub const fn new(date: NaiveDate) -> Self {
        Self(date)
    }

    pub const fn date(self) -> NaiveDate {
        self.0
    }

    /// `YYYY-MM-DD`, for days of years 0 to 9999 (clamped outside).
    pub fn iso(self) -> String {
        let min = NaiveDate::from_ymd_opt(0, 1, 1).unwrap_or(NaiveDate::MIN);
        let max = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap_or(NaiveDate::MAX);
        self.0.clamp(min, max).format("%Y-%m-%d").to_string()
    }

    /// `23/11/2026`.
    pub fn french(self) -> String {
        self.0.format("%d/%m/%Y").to_string()
    }

    /// Monday and Sunday of the ISO week of the day.
    pub fn iso_week(self) -> (Self, Self) {
        let day = self.0;
        let back = u64::from(day.weekday().num_days_from_monday());
        let monday = day.checked_sub_days(Days::new(back)).unwrap_or(day);
        let sunday = monday
            .checked_add_days(Days::new(6))
            .unwrap_or(NaiveDate::MAX);
        (Self(monday), Self(sunday))
    }
}

impl From<NaiveDate> for Day {
    fn from(date: NaiveDate) -> Self {
        Self(date)
    }
}

impl From<Day> for NaiveDate {
    fn from(day: Day) -> Self {
        day.0
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.iso())
    }
}

/// The months' French names, January first: « mars 2027 » is how a
/// month is written in words, and how a spreadsheet or an INSEE table may
/// give one.
pub const MONTH_NAMES: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];

/// [`Day::parse`], as a `NaiveDate`.
pub fn parse(text: &str) -> Result<NaiveDate, DayError> {
    Day::parse(text).map(Day::date)
}

/// [`Day::parse`], `None` for anything that is not a day.
pub fn read(text: &str) -> Option<NaiveDate> {
    parse(text).ok()
}

/// [`Day::iso`] of a date.
pub fn iso(date: NaiveDate) -> String {
    Day(date).iso()
}

/// [`Day::french`] of a date.
pub fn french(date: NaiveDate) -> String {
    Day(date).french()
}

/// [`Day::iso_week`] of a date.
pub fn iso_week(date: NaiveDate) -> (NaiveDate, NaiveDate) {
    let (monday, sunday) = Day(date).iso_week();
    (monday.0, sunday.0)
}

/// A stored `YYYY-MM-DD` in French; a stored text that is not a day is
/// shown as it is.
pub fn french_from_stored(stored: &str) -> String {
    read(stored).map_or_else(|| stored.to_owned(), french)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Day {
        Day::parse(text).expect("a day")
    }

    #[test]
    fn reads_only_the_exact_shape() {
        assert_eq!(day("2026-03-11").iso(), "2026-03-11");
        assert_eq!(day("2028-02-29").iso(), "2028-02-29");
        assert_eq!(day("0000-01-01").iso(), "0000-01-01");
        for malformed in [
            "",
            "2026-3-11",
            "2026-03-1",
            " 2026-03-11",
            "2026-03-11 ",
            "2026/03/11",
            "11/03/2026",
            "2026-03-11T08:00",
            "+2026-03-1",
            "２０２６-03-11",
        ] {
            assert_eq!(
                Day::parse(malformed),
                Err(DayError::Malformed),
                "{malformed:?}"
            );
        }
        for impossible in ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31"] {
            assert_eq!(
                Day::parse(impossible),
                Err(DayError::Impossible),
                "{impossible}"
            );
        }
    }

    #[test]
    fn writes_french_and_finds_the_iso_week() {
        assert_eq!(day("2026-11-23").french(), "23/11/2026");
        assert_eq!(french_from_stored("2026-01-05"), "05/01/2026");
        assert_eq!(french_from_stored("bientôt"), "bientôt");
        let (monday, sunday) = day("2026-11-26").iso_week();
        assert_eq!(
            (monday.iso(), sunday.iso()),
            ("2026-11-23".into(), "2026-11-29".into())
        );
        let (monday, sunday) = day("2026-11-23").iso_week();
        assert_eq!(
            (monday.iso(), sunday.iso()),
            ("2026-11-23".into(), "2026-11-29".into())
        );
        assert_eq!(day("2027-01-03").iso_week().0.iso(), "2026-12-28");
        assert_eq!(day("2026-11-23").to_string(), "2026-11-23");
    }

    #[test]
    fn days_are_exactly_yyyy_mm_dd() {
        assert_eq!(parse("2026-03-11").map(iso), Ok("2026-03-11".into()));
        assert_eq!(parse("2028-02-29").map(iso), Ok("2028-02-29".into()));
        for malformed in [
            "",
            "2026-3-11",
            "11/03/2026",
            "2026-03-11T00:00",
            "２０２６-03-11",
            "+026-03-11",
            "2026/03/11",
        ] {
            assert_eq!(parse(malformed), Err(DayError::Malformed), "{malformed}");
        }
        for impossible in [
            "2026-02-30",
            "2026-13-01",
            "2026-00-10",
            "2026-04-31",
            "2027-02-29",
        ] {
            assert_eq!(parse(impossible), Err(DayError::Impossible), "{impossible}");
        }
        assert_eq!(parse("0000-01-01").map(iso), Ok("0000-01-01".into()));
    }

    #[test]
    fn the_iso_week_runs_from_monday_to_sunday() {
        let week = |text: &str| {
            let (monday, sunday) = iso_week(parse(text).unwrap());
            (iso(monday), iso(sunday))
        };
        let expected = ("2026-03-09".to_owned(), "2026-03-15".to_owned());
        for day in ["2026-03-09", "2026-03-11", "2026-03-15"] {
            assert_eq!(week(day), expected, "{day}");
        }
        assert_eq!(week("2026-03-16").0, "2026-03-16");
        // Across a year end.
        assert_eq!(
            week("2027-01-01"),
            ("2026-12-28".into(), "2027-01-03".into())
        );
        // At the edges of the four-digit years, clamped.
        assert_eq!(
            week("9999-12-31"),
            ("9999-12-27".into(), "9999-12-31".into())
        );
        assert_eq!(
            week("0000-01-01"),
            ("0000-01-01".into(), "0000-01-02".into())
        );
    }
}
