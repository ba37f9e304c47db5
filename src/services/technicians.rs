//! The technicians' roster: who has calls in progress, who is on standby,
//! who is absent, who is resting after standby duty.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use rusqlite::Connection;

use crate::clock;
use crate::error::{AppError, AppResult};
use crate::store::technicians::{self, AbsenceRow};

/// A technician's situation at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TechnicianStatus {
    pub id: String,
    pub name: String,
    pub sectors: Option<String>,
    pub open_calls: i64,
    pub on_call: bool,
    /// Last day of the absence under way (absences that follow each other
    /// day after day count as one).
    pub absent_until: Option<NaiveDate>,
    /// End of the safety rest after a standby period that ended less than
    /// `rest_hours` ago (None while on standby again).
    pub off_until: Option<DateTime<Utc>>,
}

/// The agency's active technicians at `now`; `today` is the local day.
pub fn roster(
    conn: &Connection,
    agency_id: &str,
    now: DateTime<Utc>,
    today: NaiveDate,
) -> AppResult<Vec<TechnicianStatus>> {
    let today_text = today.format("%Y-%m-%d").to_string();
    let rows = technicians::roster(conn, agency_id, &clock::format_timestamp(now))?;
    let absences = technicians::absences_not_over(conn, agency_id, &today_text)?;
    rows.into_iter()
        .map(|row| {
            let own: Vec<&AbsenceRow> = absences
                .iter()
                .filter(|a| a.technician_id == row.id)
                .collect();
            let off_until = if row.on_call {
                None
            } else {
                match row.last_standby_end.as_deref() {
                    Some(text) => {
                        let ended = clock::parse_timestamp(text).ok_or_else(|| {
                            AppError::Internal(anyhow::anyhow!(
                                "fin d'astreinte illisible pour le technicien {} : {text}",
                                row.id
                            ))
                        })?;
                        rest_until(ended, row.rest_hours, now)
                    }
                    None => None,
                }
            };
            Ok(TechnicianStatus {
                absent_until: absent_until(&own, today)?,
                off_until,
                id: row.id,
                name: row.name,
                sectors: row.sectors,
                open_calls: row.open_calls,
                on_call: row.on_call,
            })
        })
        .collect()
}

/// End of the safety rest after a standby period that ended at `ended`, if
/// it is not over at `now`.
pub fn rest_until(
    ended: DateTime<Utc>,
    rest_hours: i64,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let until = ended.checked_add_signed(Duration::try_hours(rest_hours)?)?;
    (ended <= now && now < until).then_some(until)
}

/// Last day of the absence covering `today`, following absences that start
/// the day after the previous one ends. `absences` are those not over before
/// today, sorted by start.
pub fn absent_until(absences: &[&AbsenceRow], today: NaiveDate) -> AppResult<Option<NaiveDate>> {
    let parse = |text: &str| {
        NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map_err(|_| AppError::Internal(anyhow::anyhow!("jour d'absence illisible : {text}")))
    };
    let mut until: Option<NaiveDate> = None;
    for absence in absences {
        let starts = parse(&absence.starts_on)?;
        let ends = parse(&absence.ends_on)?;
        let reach = match until {
            Some(day) => day.succ_opt().unwrap_or(day),
            None => today,
        };
        if starts > reach {
            break;
        }
        if ends >= today {
            until = Some(until.map_or(ends, |day| day.max(ends)));
        }
    }
    Ok(until)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn absence(starts: &str, ends: &str) -> AbsenceRow {
        AbsenceRow {
            technician_id: "t".into(),
            starts_on: starts.into(),
            ends_on: ends.into(),
        }
    }

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn the_absence_under_way_and_the_ones_right_after_it() {
        let today = day("2026-03-11");
        let under_way = absence("2026-03-09", "2026-03-13");
        let following = absence("2026-03-14", "2026-03-20");
        let later = absence("2026-03-25", "2026-03-27");
        let future = absence("2026-03-12", "2026-03-15");
        assert_eq!(absent_until(&[], today).unwrap(), None);
        assert_eq!(
            absent_until(&[&under_way], today).unwrap(),
            Some(day("2026-03-13"))
        );
        assert_eq!(
            absent_until(&[&under_way, &following, &later], today).unwrap(),
            Some(day("2026-03-20"))
        );
        // Not absent today: a leave starting tomorrow does not count yet.
        assert_eq!(absent_until(&[&future], today).unwrap(), None);
        // One day only, today.
        assert_eq!(
            absent_until(&[&absence("2026-03-11", "2026-03-11")], today).unwrap(),
            Some(today)
        );
    }

    #[test]
    fn rest_after_standby_lasts_rest_hours() {
        let ended = Utc.with_ymd_and_hms(2026, 3, 9, 8, 0, 0).unwrap();
        let until = Utc.with_ymd_and_hms(2026, 3, 9, 19, 0, 0).unwrap();
        assert_eq!(rest_until(ended, 11, ended), Some(until));
        assert_eq!(
            rest_until(ended, 11, until - Duration::minutes(1)),
            Some(until)
        );
        assert_eq!(rest_until(ended, 11, until), None);
        assert_eq!(rest_until(ended, 0, ended), None);
        assert_eq!(rest_until(ended, i64::MAX, ended), None);
    }
}
