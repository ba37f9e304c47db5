//! The technicians' roster: who has calls in progress, who is on standby,
//! who is absent, who is resting after standby duty.

use crate::domain::id::{AgencyId, TechnicianId};
use chrono::{DateTime, Duration, NaiveDate, SubsecRound, Utc};
use serde_json::json;

use crate::clock;
use crate::domain::day;
use crate::domain::rota::{self, Edit, Period, french_instant};
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::store::Conn;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::new_id;
use crate::store::technicians::{
    self, AbsenceDetail, AbsenceRow, OnCallRow, RosterRow, TechnicianRow,
};
use crate::store::{Store, Tx};

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
    conn: &Conn,
    agency_id: &AgencyId,
    now: DateTime<Utc>,
    today: NaiveDate,
) -> AppResult<Vec<TechnicianStatus>> {
    let today_text = day::iso(today);
    let rows = technicians::roster(conn, agency_id, &clock::format_timestamp(now))?;
    let absences = technicians::absences_not_over(conn, agency_id, &today_text)?;
    roster_from(rows, &absences, now, today)
}

/// What the roster at an instant is computed from, read at `read_at`: the
/// same until the database changes, a standby period starts or ends
/// (`valid_until`), or the day changes.
pub struct RosterInputs {
    rows: Vec<RosterRow>,
    absences: Vec<AbsenceRow>,
    read_at: DateTime<Utc>,
    valid_until: Option<DateTime<Utc>>,
    today: NaiveDate,
}

/// [`roster`], its inputs kept in memory until the database changes or
/// time moves past a standby boundary or into another day
/// (`store::cache`): the counts of open calls and the standby periods of a
/// few hundred technicians are read once, the roster computed at `now`.
pub async fn roster_cached(
    store: &crate::store::Store,
    agency_id: &AgencyId,
    now: DateTime<Utc>,
    today: NaiveDate,
) -> AppResult<Vec<TechnicianStatus>> {
    let agency = agency_id.to_owned();
    let inputs = store
        .read_cached_while(
            format!("roster:{agency_id}"),
            move |kept: &RosterInputs| {
                kept.today == today
                    && kept.read_at <= now
                    && kept.valid_until.is_none_or(|until| now < until)
            },
            move |conn| -> AppResult<RosterInputs> {
                let now_text = clock::format_timestamp(now);
                let next = technicians::next_standby_boundary(conn, &agency, &now_text)?;
                Ok(RosterInputs {
                    rows: technicians::roster(conn, &agency, &now_text)?,
                    absences: technicians::absences_not_over(conn, &agency, &day::iso(today))?,
                    read_at: now,
                    valid_until: match next {
                        Some(text) => Some(clock::parse_timestamp(&text).ok_or_else(|| {
                            AppError::Internal(anyhow::anyhow!(
                                "horaire d'astreinte illisible : {text}"
                            ))
                        })?),
                        None => None,
                    },
                    today,
                })
            },
        )
        .await?;
    roster_from(inputs.rows.clone(), &inputs.absences, now, today)
}

/// The roster at `now` from its rows (open calls and standby at `now`) and
/// the absences not over by `today`.
fn roster_from(
    rows: Vec<RosterRow>,
    absences: &[AbsenceRow],
    now: DateTime<Utc>,
    today: NaiveDate,
) -> AppResult<Vec<TechnicianStatus>> {
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
                id: row.id.into_string(),
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
        day::parse(text)
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

// -- The standby rota and the absences ----------------------------------------

fn technician_not_found(id: &TechnicianId) -> AppError {
    AppError::not_found(format!(
        "Technicien introuvable dans cette agence : « {id} »."
    ))
}

/// An active technician of the agency, else 404.
pub fn active_technician(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &TechnicianId,
) -> AppResult<TechnicianRow> {
    technicians::active_in_agency(conn, agency_id, id)?.ok_or_else(|| technician_not_found(id))
}

fn stored_instant(text: &str) -> AppResult<DateTime<Utc>> {
    clock::parse_timestamp(text).ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!("horodatage d'astreinte illisible : {text}"))
    })
}

fn period_of(row: &OnCallRow) -> AppResult<Period> {
    Ok(Period {
        id: row.id.clone(),
        technician_id: row.technician_id.clone(),
        starts: stored_instant(&row.starts_at)?,
        ends: stored_instant(&row.ends_at)?,
    })
}

/// A part of a rota week held by a technician.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RotaShift {
    pub technician_id: String,
    pub technician_name: String,
    pub starts: DateTime<Utc>,
    pub ends: DateTime<Utc>,
}

/// A rota week (Monday 08:00 to Monday 08:00, Paris time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RotaWeek {
    pub monday: NaiveDate,
    pub starts: DateTime<Utc>,
    pub ends: DateTime<Utc>,
    /// The technician holding the longest part of the week.
    pub holder: Option<(String, String)>,
    /// The holder covers the whole week alone.
    pub complete: bool,
    /// Who is on standby in the week, clipped to it, by start.
    pub shifts: Vec<RotaShift>,
}

/// `weeks` rota weeks from the one starting on `first_monday`.
pub fn rota(
    conn: &Conn,
    agency_id: &AgencyId,
    first_monday: NaiveDate,
    weeks: u32,
) -> AppResult<Vec<RotaWeek>> {
    let from = rota::week_bounds(first_monday).0;
    let last_monday = first_monday + Duration::weeks(i64::from(weeks.max(1)) - 1);
    let to = rota::week_bounds(last_monday).1;
    let rows = technicians::on_call_overlapping(
        conn,
        agency_id,
        &clock::format_timestamp(from),
        &clock::format_timestamp(to),
    )?;
    let periods = rows.iter().map(period_of).collect::<AppResult<Vec<_>>>()?;
    let mut result = Vec::new();
    for index in 0..weeks {
        let monday = first_monday + Duration::weeks(i64::from(index));
        let (starts, ends) = rota::week_bounds(monday);
        let mut shifts = Vec::new();
        let mut inside = Vec::new();
        for (row, period) in rows.iter().zip(&periods) {
            if period.ends <= starts || ends <= period.starts {
                continue;
            }
            inside.push(period.clone());
            shifts.push(RotaShift {
                technician_id: row.technician_id.to_string(),
                technician_name: row.technician_name.clone(),
                starts: period.starts.max(starts),
                ends: period.ends.min(ends),
            });
        }
        let (holder_id, complete) = rota::week_holder(&inside, starts, ends);
        let holder = holder_id.and_then(|id| {
            rows.iter()
                .find(|row| row.technician_id == id)
                .map(|row| (id.into_string(), row.technician_name.clone()))
        });
        result.push(RotaWeek {
            monday,
            starts,
            ends,
            holder,
            complete,
            shifts,
        });
    }
    Ok(result)
}

/// Reads the Monday that names a rota week.
pub fn parse_monday(text: &str) -> AppResult<NaiveDate> {
    let day = day::read(text.trim()).ok_or_else(|| {
        AppError::unprocessable("Semaine invalide : attendu la date de son lundi, AAAA-MM-JJ.")
    })?;
    if rota::monday_of(day) != day {
        return Err(AppError::unprocessable(format!(
            "Le {} n'est pas un lundi : une semaine d'astreinte commence le lundi à 08:00.",
            day::french(day)
        )));
    }
    Ok(day)
}

/// Gives `[starts, ends)` to the technician: the stretch is cut out of the
/// agency's periods that covered it, then the technician's period is joined
/// with his periods right before and after. Returns the technicians whose
/// periods changed (for the rest check).
fn give(
    tx: &Tx,
    agency_id: &AgencyId,
    technician: &TechnicianRow,
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
) -> AppResult<Vec<TechnicianId>> {
    let (first_day, last_day) = rota::period_days(starts, ends);
    if let Some(absence) = technicians::absences_overlapping(
        tx,
        &technician.id,
        &day::iso(first_day),
        &day::iso(last_day),
    )?
    .first()
    {
        return Err(AppError::unprocessable(format!(
            "{} est absent du {} au {}{} : il ne peut pas être d'astreinte du {} au {}.",
            technician.name,
            day::french_from_stored(&absence.starts_on),
            day::french_from_stored(&absence.ends_on),
            absence
                .reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default(),
            french_instant(starts),
            french_instant(ends)
        )));
    }
    let starts_text = clock::format_timestamp(starts);
    let ends_text = clock::format_timestamp(ends);
    let rows = technicians::on_call_overlapping(tx, agency_id, &starts_text, &ends_text)?;
    let mut touched: Vec<TechnicianId> = vec![technician.id.clone()];
    let periods = rows.iter().map(period_of).collect::<AppResult<Vec<_>>>()?;
    for period in &periods {
        if !touched.contains(&period.technician_id) {
            touched.push(period.technician_id.clone());
        }
    }
    for edit in rota::carve(&periods, starts, ends) {
        match edit {
            Edit::Delete { id } => technicians::delete_on_call(tx, &id)?,
            Edit::Resize { id, starts, ends } => technicians::resize_on_call(
                tx,
                &id,
                &clock::format_timestamp(starts),
                &clock::format_timestamp(ends),
            )?,
            Edit::Insert {
                technician_id,
                starts,
                ends,
            } => technicians::insert_on_call(
                tx,
                &new_id(),
                &technician_id,
                &clock::format_timestamp(starts),
                &clock::format_timestamp(ends),
            )?,
        }
    }
    // Joined with the technician's periods that touch the new one.
    let around = technicians::on_call_of_technician(
        tx,
        &technician.id,
        &clock::format_timestamp(starts - Duration::milliseconds(1)),
        &clock::format_timestamp(ends + Duration::milliseconds(1)),
    )?;
    let mut joined_starts = starts_text;
    let mut joined_ends = ends_text;
    for row in &around {
        if row.starts_at < joined_starts {
            joined_starts = row.starts_at.clone();
        }
        if row.ends_at > joined_ends {
            joined_ends = row.ends_at.clone();
        }
        technicians::delete_on_call(tx, &row.id)?;
    }
    technicians::insert_on_call(tx, &new_id(), &technician.id, &joined_starts, &joined_ends)?;
    Ok(touched)
}

/// Refuses the change if a technician whose periods changed would start a
/// standby duty before the end of his safety rest after the previous one.
fn check_rest(
    tx: &Tx,
    agency_id: &AgencyId,
    touched: &[TechnicianId],
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> AppResult<()> {
    let window_from = clock::format_timestamp(from - Duration::days(8));
    let window_to = clock::format_timestamp(to + Duration::days(8));
    for id in touched {
        let Some(technician) = technicians::in_agency(tx, agency_id, id)? else {
            continue;
        };
        let rows = technicians::on_call_of_technician(tx, id, &window_from, &window_to)?;
        let spans = rows
            .iter()
            .map(|row| {
                Ok((
                    stored_instant(&row.starts_at)?,
                    stored_instant(&row.ends_at)?,
                ))
            })
            .collect::<AppResult<Vec<_>>>()?;
        if let Some((ended, resumes)) = rota::rest_too_short(&spans, technician.rest_hours) {
            return Err(AppError::unprocessable(format!(
                "{} finirait une astreinte le {} et en reprendrait une le {} : il lui faut {} h de repos de sécurité entre les deux.",
                technician.name,
                french_instant(ended),
                french_instant(resumes),
                technician.rest_hours
            )));
        }
    }
    Ok(())
}

fn record_change(
    tx: &Tx,
    agency_id: &AgencyId,
    actor: &Actor,
    action: &str,
    technician_id: &TechnicianId,
    detail: serde_json::Value,
) -> AppResult<()> {
    Ok(audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action,
            object_type: "technician",
            object_id: Some(technician_id.as_str()),
            detail: Some(detail),
        },
    )?)
}

/// The technician is on standby over `[starts, ends)` in place of whoever was.
/// The past is not rewritten: a stretch already begun is given from `now`.
/// Returns the stretch actually given.
pub fn replace_on_call(
    tx: &Tx,
    agency_id: &AgencyId,
    technician_id: &TechnicianId,
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
    now: DateTime<Utc>,
    actor: &Actor,
) -> AppResult<(DateTime<Utc>, DateTime<Utc>)> {
    let technician = active_technician(tx, agency_id, technician_id)?;
    // Instants are stored to the millisecond: compared finer, a stretch
    // would leave a remainder shorter than what can be stored.
    let (starts, ends, now) = (
        starts.trunc_subsecs(3),
        ends.trunc_subsecs(3),
        now.trunc_subsecs(3),
    );
    if ends <= starts {
        return Err(AppError::unprocessable(
            "La fin de l'astreinte doit suivre son début.",
        ));
    }
    if ends <= now {
        return Err(AppError::unprocessable(
            "Cette période est passée : les astreintes passées ne se modifient pas.",
        ));
    }
    let starts = starts.max(now);
    let touched = give(tx, agency_id, &technician, starts, ends)?;
    check_rest(tx, agency_id, &touched, starts, ends)?;
    record_change(
        tx,
        agency_id,
        actor,
        "astreinte.affectation",
        &technician.id,
        json!({
            "startsAt": clock::format_timestamp(starts),
            "endsAt": clock::format_timestamp(ends),
        }),
    )?;
    Ok((starts, ends))
}

/// The technician is on standby for the week starting on `monday` (from now
/// if it has begun).
pub fn set_week(
    tx: &Tx,
    agency_id: &AgencyId,
    monday: NaiveDate,
    technician_id: &TechnicianId,
    now: DateTime<Utc>,
    actor: &Actor,
) -> AppResult<()> {
    let (starts, ends) = rota::week_bounds(monday);
    active_technician(tx, agency_id, technician_id)?;
    if ends <= now {
        return Err(AppError::unprocessable(format!(
            "La semaine du {} est passée : les astreintes passées ne se modifient pas.",
            day::french(monday)
        )));
    }
    replace_on_call(tx, agency_id, technician_id, starts, ends, now, actor)?;
    Ok(())
}

/// Exchanges the technicians of two whole weeks that have not begun, each
/// held by one technician.
pub fn swap_weeks(
    tx: &Tx,
    agency_id: &AgencyId,
    first: NaiveDate,
    second: NaiveDate,
    now: DateTime<Utc>,
    actor: &Actor,
) -> AppResult<()> {
    if first == second {
        return Err(AppError::unprocessable(
            "Choisissez deux semaines différentes à échanger.",
        ));
    }
    let mut holders = Vec::new();
    for monday in [first, second] {
        let (starts, ends) = rota::week_bounds(monday);
        if starts <= now {
            return Err(AppError::unprocessable(format!(
                "La semaine du {} a commencé : seules des semaines à venir s'échangent ; remplacez plutôt le technicien à partir de maintenant.",
                day::french(monday)
            )));
        }
        let rows = technicians::on_call_overlapping(
            tx,
            agency_id,
            &clock::format_timestamp(starts),
            &clock::format_timestamp(ends),
        )?;
        let periods = rows.iter().map(period_of).collect::<AppResult<Vec<_>>>()?;
        match rota::week_holder(&periods, starts, ends) {
            (Some(id), true) => holders.push(id),
            _ => {
                return Err(AppError::unprocessable(format!(
                    "La semaine du {} n'a pas un seul technicien d'astreinte du lundi au lundi : affectez-la plutôt que de l'échanger.",
                    day::french(monday)
                )));
            }
        }
    }
    if holders[0] == holders[1] {
        return Err(AppError::unprocessable(
            "Le même technicien est d'astreinte les deux semaines : il n'y a rien à échanger.",
        ));
    }
    let first_tech = active_technician(tx, agency_id, &holders[0])?;
    let second_tech = active_technician(tx, agency_id, &holders[1])?;
    let (first_starts, first_ends) = rota::week_bounds(first);
    let (second_starts, second_ends) = rota::week_bounds(second);
    let mut touched = give(tx, agency_id, &second_tech, first_starts, first_ends)?;
    touched.extend(give(
        tx,
        agency_id,
        &first_tech,
        second_starts,
        second_ends,
    )?);
    check_rest(
        tx,
        agency_id,
        &touched,
        first_starts.min(second_starts),
        first_ends.max(second_ends),
    )?;
    record_change(
        tx,
        agency_id,
        actor,
        "astreinte.echange",
        &first_tech.id,
        json!({
            "weeks": [day::iso(first), day::iso(second)],
            "technicians": [first_tech.id, second_tech.id],
        }),
    )?;
    Ok(())
}

/// How far back a technician's absence list goes, in days.
pub const ABSENCES_LOOKBACK_DAYS: i64 = 92;
/// Absences listed at most per technician.
pub const ABSENCES_LIMIT: i64 = 200;

/// A technician's absences: those under way or to come, and those of the
/// last three months.
pub fn absences(
    conn: &Conn,
    agency_id: &AgencyId,
    technician_id: &TechnicianId,
    today: NaiveDate,
) -> AppResult<Vec<AbsenceDetail>> {
    technicians::in_agency(conn, agency_id, technician_id)?
        .ok_or_else(|| technician_not_found(technician_id))?;
    let since = today - Duration::days(ABSENCES_LOOKBACK_DAYS);
    Ok(technicians::absences_of(
        conn,
        technician_id,
        &day::iso(since),
        ABSENCES_LIMIT,
    )?)
}

/// Records an absence (days inclusive). Refused if it overlaps another
/// absence of the technician (409) or a standby duty of his that is not over
/// at `now` (422: a technician relieved of his standby this morning may be
/// recorded sick from today).
#[allow(clippy::too_many_arguments)]
pub fn add_absence(
    tx: &Tx,
    agency_id: &AgencyId,
    technician_id: &TechnicianId,
    starts_on: &str,
    ends_on: &str,
    reason: &str,
    now: DateTime<Utc>,
    actor: &Actor,
) -> AppResult<AbsenceDetail> {
    let technician = active_technician(tx, agency_id, technician_id)?;
    let (starts, ends, reason) =
        rota::check_absence(starts_on, ends_on, reason).map_err(AppError::unprocessable)?;
    let starts_text = day::iso(starts);
    let ends_text = day::iso(ends);
    if let Some(other) =
        technicians::absences_overlapping(tx, &technician.id, &starts_text, &ends_text)?.first()
    {
        return Err(AppError::conflict(format!(
            "{} est déjà absent du {} au {}{} : cette absence chevauche la nouvelle.",
            technician.name,
            day::french_from_stored(&other.starts_on),
            day::french_from_stored(&other.ends_on),
            other
                .reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        )));
    }
    let midnight = |day: NaiveDate| clock::paris_to_utc(day.and_time(chrono::NaiveTime::MIN));
    let duties = technicians::on_call_of_technician(
        tx,
        &technician.id,
        &clock::format_timestamp(midnight(starts).max(now)),
        &clock::format_timestamp(midnight(ends + Duration::days(1))),
    )?;
    if let Some(duty) = duties.first() {
        return Err(AppError::unprocessable(format!(
            "{} est d'astreinte du {} au {} : confiez d'abord cette astreinte à un autre technicien.",
            technician.name,
            french_instant(stored_instant(&duty.starts_at)?),
            french_instant(stored_instant(&duty.ends_at)?)
        )));
    }
    let id = new_id();
    technicians::insert_absence(tx, &id, &technician.id, &starts_text, &ends_text, &reason)?;
    record_change(
        tx,
        agency_id,
        actor,
        "absence.creation",
        &technician.id,
        json!({ "absence": id, "startsOn": starts_text, "endsOn": ends_text, "reason": reason }),
    )?;
    Ok(AbsenceDetail {
        id,
        starts_on: starts_text,
        ends_on: ends_text,
        reason: Some(reason),
    })
}

/// Deletes an absence of the technician (404 if he has no such absence).
pub fn delete_absence(
    tx: &Tx,
    agency_id: &AgencyId,
    technician_id: &TechnicianId,
    absence_id: &str,
    actor: &Actor,
) -> AppResult<()> {
    let technician = technicians::in_agency(tx, agency_id, technician_id)?
        .ok_or_else(|| technician_not_found(technician_id))?;
    if !technicians::delete_absence(tx, &technician.id, absence_id)? {
        return Err(AppError::not_found(format!(
            "Absence introuvable pour ce technicien : « {absence_id} »."
        )));
    }
    record_change(
        tx,
        agency_id,
        actor,
        "absence.suppression",
        &technician.id,
        json!({ "absence": absence_id }),
    )
}

// -- The rota and the absences, as operations for a principal ---------------
//
// Every staff member reads; only an administrator of the agency changes the
// rota or the absences (`Capability::EditRota`). Each operation opens its
// own transaction; the functions above are its steps.

/// Weeks of the rota read when none is asked for.
pub const DEFAULT_ROTA_WEEKS: u32 = 8;

/// Weeks of the rota from a Monday, and the week of now.
#[derive(Debug, Clone)]
pub struct RotaPage {
    pub current_week: NaiveDate,
    pub weeks: Vec<RotaWeek>,
}

/// Checks a rota request: `weeks` from 1 to `rota::MAX_WEEKS` (8 when
/// absent), `from` a day (its week; this week when absent). 400 otherwise.
pub fn rota_request(
    from: Option<&str>,
    weeks: Option<u32>,
    now: DateTime<Utc>,
) -> AppResult<(NaiveDate, u32)> {
    let weeks = weeks.unwrap_or(DEFAULT_ROTA_WEEKS);
    if !(1..=rota::MAX_WEEKS).contains(&weeks) {
        return Err(AppError::bad_request(format!(
            "Le nombre de semaines va de 1 à {}.",
            rota::MAX_WEEKS
        )));
    }
    let first = match from {
        Some(text) => rota::monday_of(day::read(text.trim()).ok_or_else(|| {
            AppError::bad_request("Paramètre « from » invalide : attendu AAAA-MM-JJ.")
        })?),
        None => rota::week_of(now),
    };
    Ok((first, weeks))
}

/// The rota of the principal's agency: `weeks` weeks from the Monday of
/// `from` (see [`rota_request`]).
pub async fn read_rota(
    store: &Store,
    p: &Principal,
    from: Option<&str>,
    weeks: Option<u32>,
) -> AppResult<RotaPage> {
    let agency_id = p.agency_id()?.to_owned();
    let (first, weeks) = rota_request(from, weeks, store.now())?;
    rota_page(store, agency_id, &[(first, weeks)]).await
}

/// The weeks `spans` (first Monday, number of weeks) of the agency's rota,
/// read in one transaction.
async fn rota_page(
    store: &Store,
    agency_id: AgencyId,
    spans: &[(NaiveDate, u32)],
) -> AppResult<RotaPage> {
    let now = store.now();
    let spans = spans.to_vec();
    let weeks = store
        .read(move |conn| {
            let mut weeks = Vec::new();
            for (first, count) in spans {
                weeks.extend(rota(conn, &agency_id, first, count)?);
            }
            Ok::<_, AppError>(weeks)
        })
        .await?;
    Ok(RotaPage {
        current_week: rota::week_of(now),
        weeks,
    })
}

/// Puts `technician_id` on call for the week of `monday` (text, a Monday);
/// answers that week.
pub async fn assign_week(
    store: &Store,
    p: &Principal,
    monday: &str,
    technician_id: &TechnicianId,
) -> AppResult<RotaWeek> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::EditRota)?;
    let monday = parse_monday(monday)?;
    let (writer, technician_id) = (p.clone(), technician_id.to_owned());
    store
        .write(move |tx| assign_week_in(tx, &writer, monday, &technician_id))
        .await?;
    rota_page(store, agency_id, &[(monday, 1)])
        .await?
        .weeks
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("semaine d'astreinte absente").into())
}

/// [`assign_week`]'s step in `tx`, at its time: the technician on standby
/// for the week of `monday`.
pub fn assign_week_in(
    tx: &Tx,
    p: &Principal,
    monday: NaiveDate,
    technician_id: &TechnicianId,
) -> AppResult<()> {
    let agency_id = p.agency_id()?;
    p.require(Capability::EditRota)?;
    if rota::monday_of(monday) != monday {
        return Err(AppError::unprocessable(format!(
            "Une semaine d'astreinte commence un lundi : le {} n'en est pas un.",
            day::french(monday)
        )));
    }
    set_week(tx, agency_id, monday, technician_id, tx.now(), &p.actor)
}

/// Swaps the holders of two weeks (texts, Mondays); answers both weeks.
pub async fn swap(store: &Store, p: &Principal, first: &str, second: &str) -> AppResult<RotaPage> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::EditRota)?;
    let first = parse_monday(first)?;
    let second = parse_monday(second)?;
    let (actor, now) = (p.actor.clone(), store.now());
    let write_agency = agency_id.clone();
    store
        .write(move |tx| swap_weeks(tx, &write_agency, first, second, now, &actor))
        .await?;
    rota_page(store, agency_id, &[(first, 1), (second, 1)]).await
}

/// Puts `technician_id` on call from `from` to `to` (Paris local time,
/// `AAAA-MM-JJTHH:MM`), for at most `rota::MAX_WEEKS` weeks; answers the
/// period as recorded.
pub async fn replace(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
    from: &str,
    to: &str,
) -> AppResult<(DateTime<Utc>, DateTime<Utc>)> {
    p.agency_id()?;
    p.require(Capability::EditRota)?;
    let starts = rota::parse_local(from).ok_or_else(|| {
        AppError::unprocessable("Début invalide : attendu AAAA-MM-JJTHH:MM (heure de Paris).")
    })?;
    let ends = rota::parse_local(to).ok_or_else(|| {
        AppError::unprocessable("Fin invalide : attendu AAAA-MM-JJTHH:MM (heure de Paris).")
    })?;
    replace_between(store, p, technician_id, starts, ends).await
}

/// Puts `technician_id` on call over `[starts, ends)`, for at most
/// `rota::MAX_WEEKS` weeks (see [`replace_on_call`]); answers the period as
/// recorded.
pub async fn replace_between(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
) -> AppResult<(DateTime<Utc>, DateTime<Utc>)> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::EditRota)?;
    if ends - starts > Duration::weeks(i64::from(rota::MAX_WEEKS)) {
        return Err(AppError::unprocessable(format!(
            "Un remplacement dure au plus {} semaines.",
            rota::MAX_WEEKS
        )));
    }
    let (actor, id, now) = (p.actor.clone(), technician_id.to_owned(), store.now());
    store
        .write(move |tx| replace_on_call(tx, &agency_id, &id, starts, ends, now, &actor))
        .await
}

/// The absences of a technician of the agency: those not over, and those of
/// the last three months, by start.
pub async fn list_absences(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
) -> AppResult<Vec<AbsenceDetail>> {
    let agency_id = p.agency_id()?.to_owned();
    let today = clock::paris_local(store.now()).date();
    let id = technician_id.to_owned();
    store
        .read(move |conn| absences(conn, &agency_id, &id, today))
        .await
}

/// Records an absence of a technician of the agency (days `AAAA-MM-JJ`).
pub async fn record_absence(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
    starts_on: &str,
    ends_on: &str,
    reason: &str,
) -> AppResult<AbsenceDetail> {
    p.agency_id()?;
    p.require(Capability::EditRota)?;
    let (p, id, starts_on, ends_on, reason) = (
        p.clone(),
        technician_id.to_owned(),
        starts_on.to_owned(),
        ends_on.to_owned(),
        reason.to_owned(),
    );
    store
        .write(move |tx| record_absence_in(tx, &p, &id, &starts_on, &ends_on, &reason))
        .await
}

/// [`record_absence`]'s step in `tx`, at its time.
pub fn record_absence_in(
    tx: &Tx,
    p: &Principal,
    technician_id: &TechnicianId,
    starts_on: &str,
    ends_on: &str,
    reason: &str,
) -> AppResult<AbsenceDetail> {
    let agency_id = p.agency_id()?;
    p.require(Capability::EditRota)?;
    add_absence(
        tx,
        agency_id,
        technician_id,
        starts_on,
        ends_on,
        reason,
        tx.now(),
        &p.actor,
    )
}

/// Removes an absence of a technician of the agency.
pub async fn remove_absence(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
    absence_id: &str,
) -> AppResult<()> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::EditRota)?;
    let (actor, id, absence_id) = (
        p.actor.clone(),
        technician_id.to_owned(),
        absence_id.to_owned(),
    );
    store
        .write(move |tx| delete_absence(tx, &agency_id, &id, &absence_id, &actor))
        .await
}

/// Every technician of the principal's agency with his record (phone,
/// daily capacity, safety rest, whether on the roster), the ones taken off
/// it last: what the screen edits. Any staff member of the agency reads it.
pub async fn records(store: &Store, p: &Principal) -> AppResult<Vec<TechnicianRow>> {
    let agency_id = p.agency_id()?.to_owned();
    store
        .read(move |conn| Ok(technicians::records_of_agency(conn, &agency_id)?))
        .await
}

/// One technician of the principal's agency with his record; 404 outside it.
pub async fn record(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
) -> AppResult<TechnicianRow> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), technician_id.to_owned());
    store
        .read(move |conn| {
            technicians::in_agency(conn, &agency_id, &id)?.ok_or_else(|| technician_not_found(&id))
        })
        .await
}

/// Adds a technician to the principal's agency (administrators): the record
/// checked by `domain::technician::check` (422 naming the field), active,
/// with the schema's safety rest; the planning and the rota offer him at
/// once. One audit entry `technicien.creation`. Returns his id.
pub async fn create(
    store: &Store,
    p: &Principal,
    input: crate::domain::technician::TechnicianInput,
) -> AppResult<TechnicianId> {
    p.agency_id()?;
    p.require(Capability::Administer("Ajouter un technicien"))?;
    crate::domain::technician::check(&input).map_err(AppError::unprocessable)?;
    let p = p.clone();
    store.write(move |tx| create_in(tx, &p, &input)).await
}

/// [`create`]'s step in `tx`, at its time.
pub fn create_in(
    tx: &Tx,
    p: &Principal,
    input: &crate::domain::technician::TechnicianInput,
) -> AppResult<TechnicianId> {
    let agency_id = p.agency_id()?;
    p.require(Capability::Administer("Ajouter un technicien"))?;
    let checked = crate::domain::technician::check(input).map_err(AppError::unprocessable)?;
    let id = technicians::insert(tx, agency_id, &checked)?;
    record_change(
        tx,
        agency_id,
        &p.actor,
        "technicien.creation",
        &id,
        json!({
            "name": checked.name,
            "phone": checked.phone,
            "sectors": checked.sectors,
            "dailyCapacity": checked.daily_capacity,
        }),
    )?;
    Ok(id)
}

/// A change of a technician: his record (`domain::technician::TechnicianPatch`:
/// only the given fields change) and his safety rest after standby.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TechnicianEdit {
    pub record: crate::domain::technician::TechnicianPatch,
    pub rest_hours: Option<i64>,
}

/// Changes the record of a technician of the principal's agency
/// (administrators), checked as a new one is (`domain::technician`), and his
/// safety rest after standby (`restHours`, from 0 to 48 hours). One audit
/// entry `technicien.modification` with what changed; nothing written when
/// nothing changes. 404 for a technician outside the agency.
pub async fn edit(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
    edit: TechnicianEdit,
) -> AppResult<TechnicianId> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer("Modifier un technicien"))?;
    let rest_hours = edit
        .rest_hours
        .map(crate::domain::technician::check_rest_hours)
        .transpose()
        .map_err(AppError::unprocessable)?;
    let (actor, id) = (p.actor.clone(), technician_id.to_owned());
    store
        .write(move |tx| {
            let before = technicians::in_agency(tx, &agency_id, &id)?
                .ok_or_else(|| technician_not_found(&id))?;
            let before_record = crate::domain::technician::TechnicianRecord {
                name: before.name.clone(),
                phone: before.phone.clone(),
                sectors: before.sectors.clone(),
                daily_capacity: before.daily_capacity,
            };
            let record = crate::domain::technician::apply(&before_record, &edit.record)
                .map_err(AppError::unprocessable)?;
            let rest_hours = rest_hours.unwrap_or(before.rest_hours);
            if record == before_record && rest_hours == before.rest_hours {
                return Ok(id);
            }
            technicians::update(tx, &id, &record, rest_hours)?;
            if rest_hours > before.rest_hours {
                // A longer rest may no longer fit between his standby
                // periods to come.
                check_rest(
                    tx,
                    &agency_id,
                    std::slice::from_ref(&id),
                    tx.now(),
                    tx.now() + Duration::days(366 * 10),
                )?;
            }
            record_change(
                tx,
                &agency_id,
                &actor,
                "technicien.modification",
                &id,
                json!({
                    "before": {
                        "name": before_record.name, "phone": before_record.phone,
                        "sectors": before_record.sectors,
                        "dailyCapacity": before_record.daily_capacity,
                        "restHours": before.rest_hours,
                    },
                    "after": {
                        "name": record.name, "phone": record.phone, "sectors": record.sectors,
                        "dailyCapacity": record.daily_capacity, "restHours": rest_hours,
                    },
                }),
            )?;
            Ok(id)
        })
        .await
}

/// Takes a technician of the principal's agency off the roster, the
/// planning's proposals and the rota (`active` false), or puts him back
/// (administrators). Refused while he holds a standby period not over (422:
/// give it to someone else first); his planned visits stay on the planning
/// under his name, to be moved. One audit entry `technicien.desactivation`
/// or `technicien.reactivation`; nothing written when nothing changes.
pub async fn set_active(
    store: &Store,
    p: &Principal,
    technician_id: &TechnicianId,
    active: bool,
) -> AppResult<()> {
    p.agency_id()?;
    let (p, id) = (p.clone(), technician_id.to_owned());
    store
        .write(move |tx| set_active_in(tx, &p, &id, active))
        .await
}

/// [`set_active`]'s step in `tx`, at its time.
pub fn set_active_in(
    tx: &Tx,
    p: &Principal,
    technician_id: &TechnicianId,
    active: bool,
) -> AppResult<()> {
    let agency_id = p.agency_id()?;
    p.require(Capability::Administer(if active {
        "Réactiver un technicien"
    } else {
        "Désactiver un technicien"
    }))?;
    let id = technician_id;
    let technician =
        technicians::in_agency(tx, agency_id, id)?.ok_or_else(|| technician_not_found(id))?;
    if technician.active == active {
        return Ok(());
    }
    if !active {
        let now = clock::format_timestamp(tx.now());
        let far = clock::format_timestamp(tx.now() + Duration::days(366 * 10));
        if let Some(duty) = technicians::on_call_of_technician(tx, id, &now, &far)?.first() {
            return Err(AppError::unprocessable(format!(
                "{} est d'astreinte du {} au {} : confiez d'abord cette astreinte à un autre technicien.",
                technician.name,
                french_instant(stored_instant(&duty.starts_at)?),
                french_instant(stored_instant(&duty.ends_at)?)
            )));
        }
    }
    technicians::set_active(tx, id, active)?;
    record_change(
        tx,
        agency_id,
        &p.actor,
        if active {
            "technicien.reactivation"
        } else {
            "technicien.desactivation"
        },
        id,
        json!({ "name": technician.name }),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn absence(starts: &str, ends: &str) -> AbsenceRow {
        AbsenceRow {
            technician_id: TechnicianId::new("t"),
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
