//! The standby ("astreinte") rota of an agency and the technicians' absences.
//!
//! Rules (pure, shared by every entry point):
//! - a rota week runs from Monday 08:00 to the next Monday 08:00, Paris local
//!   time (so 07:00 UTC in winter, 06:00 UTC in summer);
//! - one technician at a time is on standby in an agency: giving a stretch of
//!   time to a technician cuts it out of the periods that covered it;
//! - a technician is not on standby on a day of absence;
//! - after a standby period a technician rests `rest_hours` (11 h, the French
//!   daily safety rest) before another one, unless the next one follows
//!   without a gap (it is then the same duty going on);
//! - an absence is a span of days, both ends included.

use crate::id::TechnicianId;
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, Utc};

use crate::time as clock;

/// Hour (Paris local time) at which a rota week starts, on Monday.
pub const WEEK_START_HOUR: u32 = 8;
/// Weeks the rota view reads at most.
pub const MAX_WEEKS: u32 = 26;
/// Longest absence accepted, in days.
pub const MAX_ABSENCE_DAYS: i64 = 366;
/// Longest absence reason, in characters.
pub const MAX_REASON_CHARS: usize = 200;

/// The Monday of the week (Monday to Sunday) of `day`.
pub fn monday_of(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

/// Start and end (UTC) of the rota week that starts on `monday`.
pub fn week_bounds(monday: NaiveDate) -> (DateTime<Utc>, DateTime<Utc>) {
    let at = |day: NaiveDate| {
        clock::paris_to_utc(
            day.and_time(NaiveTime::from_hms_opt(WEEK_START_HOUR, 0, 0).unwrap_or(NaiveTime::MIN)),
        )
    };
    (at(monday), at(monday + Duration::days(7)))
}

/// The Monday of the rota week that contains `at`.
pub fn week_of(at: DateTime<Utc>) -> NaiveDate {
    let monday = monday_of(clock::paris_local(at).date());
    if at < week_bounds(monday).0 {
        monday - Duration::days(7)
    } else {
        monday
    }
}

/// First and last local day touched by a period `[starts, ends)`.
pub fn period_days(starts: DateTime<Utc>, ends: DateTime<Utc>) -> (NaiveDate, NaiveDate) {
    let last = ends - Duration::milliseconds(1);
    (
        clock::paris_local(starts).date(),
        clock::paris_local(last.max(starts)).date(),
    )
}

/// Whether two spans of days (both ends included) share a day.
pub fn days_overlap(a: (NaiveDate, NaiveDate), b: (NaiveDate, NaiveDate)) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

/// A stored standby period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    pub id: String,
    pub technician_id: TechnicianId,
    pub starts: DateTime<Utc>,
    pub ends: DateTime<Utc>,
}

/// A change to the stored periods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    Delete {
        id: String,
    },
    Resize {
        id: String,
        starts: DateTime<Utc>,
        ends: DateTime<Utc>,
    },
    Insert {
        technician_id: TechnicianId,
        starts: DateTime<Utc>,
        ends: DateTime<Utc>,
    },
}

/// The edits that free `[starts, ends)` in `existing`: a period inside is
/// deleted, one that sticks out keeps its parts outside (a period covering
/// the whole stretch is split in two).
pub fn carve(existing: &[Period], starts: DateTime<Utc>, ends: DateTime<Utc>) -> Vec<Edit> {
    let mut edits = Vec::new();
    for period in existing {
        if period.ends <= starts || ends <= period.starts {
            continue;
        }
        let before = (period.starts < starts).then_some((period.starts, starts));
        let after = (ends < period.ends).then_some((ends, period.ends));
        match (before, after) {
            (None, None) => edits.push(Edit::Delete {
                id: period.id.clone(),
            }),
            (Some((s, e)), None) | (None, Some((s, e))) => edits.push(Edit::Resize {
                id: period.id.clone(),
                starts: s,
                ends: e,
            }),
            (Some((s1, e1)), Some((s2, e2))) => {
                edits.push(Edit::Resize {
                    id: period.id.clone(),
                    starts: s1,
                    ends: e1,
                });
                edits.push(Edit::Insert {
                    technician_id: period.technician_id.clone(),
                    starts: s2,
                    ends: e2,
                });
            }
        }
    }
    edits
}

/// The first pair of a technician's periods (sorted by start) between which
/// the rest is shorter than `rest_hours`: (end of the first, start of the
/// next). Periods that follow each other without a gap are one duty.
pub fn rest_too_short(
    periods: &[(DateTime<Utc>, DateTime<Utc>)],
    rest_hours: i64,
) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let rest = Duration::try_hours(rest_hours)?;
    periods.windows(2).find_map(|pair| {
        let (ended, resumes) = (pair[0].1, pair[1].0);
        (ended < resumes && resumes - ended < rest).then_some((ended, resumes))
    })
}

/// Who holds a rota week: the technician covering the longest part of it,
/// and whether that technician covers all of it alone.
pub fn week_holder(
    periods: &[Period],
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
) -> (Option<TechnicianId>, bool) {
    let mut covered: Vec<(TechnicianId, Duration)> = Vec::new();
    for period in periods {
        let from = period.starts.max(starts);
        let to = period.ends.min(ends);
        if from >= to {
            continue;
        }
        match covered
            .iter_mut()
            .find(|(id, _)| *id == period.technician_id)
        {
            Some((_, length)) => *length += to - from,
            None => covered.push((period.technician_id.clone(), to - from)),
        }
    }
    let best = covered
        .iter()
        .max_by_key(|(_, length)| *length)
        .map(|(id, length)| (id.clone(), *length));
    match best {
        Some((id, length)) => (Some(id), length >= ends - starts),
        None => (None, false),
    }
}

/// Reads a Paris local date-time `YYYY-MM-DDTHH:MM` (seconds accepted).
pub fn parse_local(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M")
        .or_else(|_| chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S"))
        .ok()
        .map(clock::paris_to_utc)
}

/// `23/11/2026 à 08:00`, Paris local time.
pub fn french_instant(at: DateTime<Utc>) -> String {
    clock::paris_local(at)
        .format("%d/%m/%Y à %H:%M")
        .to_string()
}

/// Checks an absence's days and reason; returns the days and the trimmed reason.
pub fn check_absence(
    starts_on: &str,
    ends_on: &str,
    reason: &str,
) -> Result<(NaiveDate, NaiveDate, String), String> {
    let starts =
        crate::day::read(starts_on.trim()).ok_or("Date de début invalide : attendu AAAA-MM-JJ.")?;
    let ends =
        crate::day::read(ends_on.trim()).ok_or("Date de fin invalide : attendu AAAA-MM-JJ.")?;
    if ends < starts {
        return Err("La fin de l'absence ne peut pas précéder son début.".into());
    }
    if (ends - starts).num_days() + 1 > MAX_ABSENCE_DAYS {
        return Err(format!(
            "Une absence dure au plus {MAX_ABSENCE_DAYS} jours : saisissez-la en plusieurs fois."
        ));
    }
    let reason = reason.trim();
    if reason.is_empty() {
        return Err("Indiquez le motif de l'absence.".into());
    }
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(format!(
            "Le motif ne peut pas dépasser {MAX_REASON_CHARS} caractères."
        ));
    }
    Ok((starts, ends, reason.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn utc(y: i32, mo: u32, d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, 0, 0).unwrap()
    }

    fn day(text: &str) -> NaiveDate {
        crate::day::read(text).unwrap()
    }

    fn period(id: &str, tech: &str, starts: DateTime<Utc>, ends: DateTime<Utc>) -> Period {
        Period {
            id: id.into(),
            technician_id: TechnicianId::new(tech),
            starts,
            ends,
        }
    }

    #[test]
    fn a_week_runs_from_monday_8_local_time() {
        assert_eq!(monday_of(day("2026-11-21")), day("2026-11-16"));
        assert_eq!(monday_of(day("2026-11-23")), day("2026-11-23"));
        assert_eq!(
            week_bounds(day("2026-11-23")),
            (utc(2026, 11, 23, 7), utc(2026, 11, 30, 7))
        );
        // The week of the spring change is an hour shorter.
        let (s, e) = week_bounds(day("2026-03-23"));
        assert_eq!((s, e), (utc(2026, 3, 23, 7), utc(2026, 3, 30, 6)));
        // Monday 07:59 local still belongs to the previous week.
        assert_eq!(week_of(utc(2026, 11, 23, 6)), day("2026-11-16"));
        assert_eq!(week_of(utc(2026, 11, 23, 7)), day("2026-11-23"));
        assert_eq!(week_of(utc(2026, 11, 29, 22)), day("2026-11-23"));
    }

    #[test]
    fn days_of_a_period_and_overlaps() {
        let (s, e) = week_bounds(day("2026-11-23"));
        assert_eq!(period_days(s, e), (day("2026-11-23"), day("2026-11-30")));
        assert!(days_overlap(
            (day("2026-11-30"), day("2026-12-02")),
            period_days(s, e)
        ));
        assert!(!days_overlap(
            (day("2026-12-01"), day("2026-12-02")),
            period_days(s, e)
        ));
    }

    #[test]
    fn carving_deletes_resizes_and_splits() {
        let a = period("a", "t1", utc(2026, 11, 16, 7), utc(2026, 11, 23, 7));
        let b = period("b", "t2", utc(2026, 11, 23, 7), utc(2026, 11, 30, 7));
        let c = period("c", "t3", utc(2026, 11, 30, 7), utc(2026, 12, 7, 7));
        // The whole week of b.
        assert_eq!(
            carve(
                &[a.clone(), b.clone(), c.clone()],
                utc(2026, 11, 23, 7),
                utc(2026, 11, 30, 7)
            ),
            vec![Edit::Delete { id: "b".into() }]
        );
        // Tuesday to Wednesday inside b: b split in two.
        assert_eq!(
            carve(
                std::slice::from_ref(&b),
                utc(2026, 11, 24, 7),
                utc(2026, 11, 25, 7)
            ),
            vec![
                Edit::Resize {
                    id: "b".into(),
                    starts: utc(2026, 11, 23, 7),
                    ends: utc(2026, 11, 24, 7)
                },
                Edit::Insert {
                    technician_id: TechnicianId::new("t2"),
                    starts: utc(2026, 11, 25, 7),
                    ends: utc(2026, 11, 30, 7)
                }
            ]
        );
        // Across the end of a and the start of b.
        assert_eq!(
            carve(&[a, b], utc(2026, 11, 22, 7), utc(2026, 11, 24, 7)),
            vec![
                Edit::Resize {
                    id: "a".into(),
                    starts: utc(2026, 11, 16, 7),
                    ends: utc(2026, 11, 22, 7)
                },
                Edit::Resize {
                    id: "b".into(),
                    starts: utc(2026, 11, 24, 7),
                    ends: utc(2026, 11, 30, 7)
                }
            ]
        );
    }

    #[test]
    fn rest_between_two_duties() {
        let first = (utc(2026, 11, 23, 7), utc(2026, 11, 24, 7));
        let contiguous = (utc(2026, 11, 24, 7), utc(2026, 11, 25, 7));
        let eleven_later = (utc(2026, 11, 24, 18), utc(2026, 11, 25, 7));
        let too_soon = (utc(2026, 11, 24, 17), utc(2026, 11, 25, 7));
        assert_eq!(rest_too_short(&[first, contiguous], 11), None);
        assert_eq!(rest_too_short(&[first, eleven_later], 11), None);
        assert_eq!(
            rest_too_short(&[first, too_soon], 11),
            Some((utc(2026, 11, 24, 7), utc(2026, 11, 24, 17)))
        );
        assert_eq!(rest_too_short(&[first, too_soon], 0), None);
    }

    #[test]
    fn the_holder_of_a_week() {
        let (s, e) = week_bounds(day("2026-11-23"));
        let whole = period("b", "t2", s, e);
        assert_eq!(
            week_holder(&[whole], s, e),
            (Some(TechnicianId::new("t2")), true)
        );
        let most = period("b", "t2", s, utc(2026, 11, 28, 7));
        let rest = period("c", "t3", utc(2026, 11, 28, 7), e);
        assert_eq!(
            week_holder(&[most, rest], s, e),
            (Some(TechnicianId::new("t2")), false)
        );
        assert_eq!(week_holder(&[], s, e), (None, false));
    }

    #[test]
    fn absences_are_checked() {
        assert_eq!(
            check_absence("2026-12-01", "2026-12-03", "  Congés payés "),
            Ok((day("2026-12-01"), day("2026-12-03"), "Congés payés".into()))
        );
        assert_eq!(
            check_absence("2026-12-03", "2026-12-01", "RTT"),
            Err("La fin de l'absence ne peut pas précéder son début.".into())
        );
        assert_eq!(
            check_absence("01/12/2026", "2026-12-01", "RTT"),
            Err("Date de début invalide : attendu AAAA-MM-JJ.".into())
        );
        assert_eq!(
            check_absence("2026-12-01", "2026-12-01", " "),
            Err("Indiquez le motif de l'absence.".into())
        );
        assert!(check_absence("2026-01-01", "2027-01-02", "Congé sabbatique").is_err());
        assert_eq!(parse_local("2026-11-24T08:00"), Some(utc(2026, 11, 24, 7)));
        assert_eq!(parse_local("24/11/2026 08:00"), None);
        assert_eq!(french_instant(utc(2026, 11, 24, 7)), "24/11/2026 à 08:00");
    }
}
