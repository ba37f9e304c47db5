//! The maintenance plan: deadlines, the interval of one equipment, the
//! proposal of next week's visits (`domain::planning` decides, this module
//! reads the facts) and its saving in one transaction, re-validated.

use crate::domain::id::{AgencyId, EquipmentId, TechnicianId, VisitId};
use std::collections::{BTreeSet, HashMap, HashSet};

use chrono::{DateTime, Datelike, Days, Duration, NaiveDate, Utc};
use serde_json::json;

use crate::clock;
use crate::domain::day;
use crate::domain::planning::{self as plan, DueEquipment, PlanTechnician, Proposal};
use crate::domain::visit;
use crate::domain::visit::VisitStatus;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::visits::{DutyMark, building_address, duties_due, duty_deadlines};
use crate::store::Conn;
use crate::store::audit::{self, AuditEntry};
use crate::store::duties;
use crate::store::equipment::{self, PlanRow};
use crate::store::technicians::{self, TechnicianRow};
use crate::store::visits::{self, NewVisit};
use crate::store::{Store, Tx};

/// Working hours used for the safety rest: a rest that overlaps 08:00–18:00
/// (Paris) of a day takes the technician off the planning that day.
const WORKDAY_START_HOUR: i64 = 8;
const WORKDAY_END_HOUR: i64 = 18;
/// Longest interval accepted, in days (one year).
pub const MAX_INTERVAL_DAYS: i64 = 365;
/// A lift: at most six weeks between two visits.
pub const LIFT_MAX_INTERVAL_DAYS: i64 = visit::DEFAULT_INTERVAL_DAYS as i64;
/// Most visits saved at once.
pub const MAX_SAVED_VISITS: usize = 5000;

pub const EQUIPMENT_NOT_FOUND: &str = "Équipement introuvable.";

// -- Deadlines --------------------------------------------------------------

/// Deadline of the next visit of an equipment under contract (`parc`): its
/// last done visit plus its interval or, never visited, the start of its
/// plan (its creation day when none was recorded) plus its interval. None
/// for equipment outside the plan.
pub fn deadline_of(row: &PlanRow) -> Option<NaiveDate> {
    if row.maintenance_contract.as_deref() != Some("parc") {
        return None;
    }
    let start = day::parse(&row.plan_start_on).ok()?;
    let last = row.last_done_on.as_deref().and_then(|d| day::parse(d).ok());
    let interval = u32::try_from(row.visit_interval_days).unwrap_or(visit::DEFAULT_INTERVAL_DAYS);
    Some(visit::deadline(last, start, interval))
}

// -- Interval ----------------------------------------------------------------

/// Sets the days between two visits of one equipment of the agency: 1 to
/// 365, at most 42 for a lift. Administrators only.
pub fn set_interval_in(
    tx: &Tx,
    p: &Principal,
    equipment_id: &EquipmentId,
    days: i64,
    now: DateTime<Utc>,
) -> AppResult<PlanRow> {
    p.require(Capability::Administer(
        "Modifier l'intervalle d'entretien d'un équipement",
    ))?;
    let row = equipment::plan_of(tx, p.agency_id()?, equipment_id)?
        .ok_or_else(|| AppError::not_found(EQUIPMENT_NOT_FOUND))?;
    if !(1..=MAX_INTERVAL_DAYS).contains(&days) {
        return Err(AppError::unprocessable(format!(
            "L'intervalle entre deux visites doit être un nombre de jours entre 1 et {MAX_INTERVAL_DAYS}."
        )));
    }
    if row.equipment_type.as_deref() == Some("ascenseur") && days > LIFT_MAX_INTERVAL_DAYS {
        return Err(AppError::unprocessable(format!(
            "Un ascenseur doit être visité au moins toutes les six semaines : {LIFT_MAX_INTERVAL_DAYS} jours au plus."
        )));
    }
    equipment::set_visit_interval(tx, equipment_id, days, &clock::format_timestamp(now))?;
    p.record(
        tx,
        "equipment",
        equipment_id.as_str(),
        "intervalle_visites",
        json!({ "from": row.visit_interval_days, "to": days }),
    )?;
    Ok(PlanRow {
        visit_interval_days: days,
        ..row
    })
}

/// Sets the first day of the maintenance plan of one equipment of the
/// agency (its contract's first day): its first visit is due an interval
/// after it. Administrators only. One audit entry `debut_plan`.
pub fn set_plan_start_in(
    tx: &Tx,
    p: &Principal,
    equipment_id: &EquipmentId,
    start: NaiveDate,
) -> AppResult<PlanRow> {
    p.require(Capability::Administer(
        "Modifier le début du plan d'entretien d'un équipement",
    ))?;
    let row = equipment::plan_of(tx, p.agency_id()?, equipment_id)?
        .ok_or_else(|| AppError::not_found(EQUIPMENT_NOT_FOUND))?;
    let start_text = day::iso(start);
    equipment::set_plan_start(tx, equipment_id, &start_text)?;
    p.record(
        tx,
        "equipment",
        equipment_id.as_str(),
        "debut_plan",
        json!({ "from": row.plan_start_on, "to": start_text }),
    )?;
    Ok(PlanRow {
        plan_start_on: start_text,
        ..row
    })
}

// -- Availability -------------------------------------------------------------

/// Days among `days` whose working hours (08:00–18:00 Paris) overlap a
/// safety rest of `rest_hours` after a standby period ending at one of `ends`.
pub fn rest_days(
    ends: &[DateTime<Utc>],
    rest_hours: i64,
    days: &[NaiveDate],
) -> BTreeSet<NaiveDate> {
    let mut out = BTreeSet::new();
    if rest_hours <= 0 {
        return out;
    }
    for &day in days {
        let Some(noon) = day.and_hms_opt(12, 0, 0).map(|t| t.and_utc()) else {
            continue;
        };
        let offset = clock::paris_offset_hours(noon);
        let Some(midnight) = day.and_hms_opt(0, 0, 0).map(|t| t.and_utc()) else {
            continue;
        };
        let start = midnight + Duration::hours(WORKDAY_START_HOUR - offset);
        let end = midnight + Duration::hours(WORKDAY_END_HOUR - offset);
        if ends
            .iter()
            .any(|&ended| ended < end && ended + Duration::hours(rest_hours) > start)
        {
            out.insert(day);
        }
    }
    out
}

/// Per technician: (absence days, rest days).
type DaysOff = HashMap<TechnicianId, (BTreeSet<NaiveDate>, BTreeSet<NaiveDate>)>;

/// Absence and rest days of the technicians over `days`.
fn availability(
    conn: &Conn,
    agency_id: &AgencyId,
    rows: &[TechnicianRow],
    days: &[NaiveDate],
) -> AppResult<DaysOff> {
    let (Some(&first), Some(&last)) = (days.first(), days.last()) else {
        return Ok(HashMap::new());
    };
    let absences =
        technicians::absences_between(conn, agency_id, &day::iso(first), &day::iso(last))?;
    let max_rest = rows
        .iter()
        .map(|r| r.rest_hours)
        .max()
        .unwrap_or(0)
        .clamp(0, 24 * 14);
    let from = first
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc() - Duration::hours(max_rest + 2))
        .unwrap_or(DateTime::<Utc>::MIN_UTC);
    let to = last
        .and_hms_opt(23, 59, 59)
        .map(|t| t.and_utc())
        .unwrap_or(DateTime::<Utc>::MAX_UTC);
    let ends = technicians::standby_ends_between(
        conn,
        agency_id,
        &clock::format_timestamp(from),
        &clock::format_timestamp(to),
    )?;
    let mut out = HashMap::new();
    for row in rows {
        let mut absent = BTreeSet::new();
        for a in absences.iter().filter(|a| a.technician_id == row.id) {
            for &day in days {
                let text = day::iso(day);
                if a.starts_on <= text && text <= a.ends_on {
                    absent.insert(day);
                }
            }
        }
        let own: Vec<DateTime<Utc>> = ends
            .iter()
            .filter(|(t, _)| row.id == *t)
            .filter_map(|(_, e)| clock::parse_timestamp(e))
            .collect();
        out.insert(
            row.id.clone(),
            (absent, rest_days(&own, row.rest_hours, days)),
        );
    }
    Ok(out)
}

/// Visits per (technician, day) over `days`.
fn loads(
    conn: &Conn,
    agency_id: &AgencyId,
    days: &[NaiveDate],
) -> AppResult<HashMap<(String, NaiveDate), u32>> {
    let (Some(&first), Some(&last)) = (days.first(), days.last()) else {
        return Ok(HashMap::new());
    };
    let mut out = HashMap::new();
    for (tech, day, count) in
        visits::technician_loads(conn, agency_id, &day::iso(first), &day::iso(last))?
    {
        if let Ok(day) = day::parse(&day) {
            out.insert((tech, day), u32::try_from(count).unwrap_or(u32::MAX));
        }
    }
    Ok(out)
}

/// The seven days of the ISO week of `day`.
pub fn week_days(day: NaiveDate) -> Vec<NaiveDate> {
    let (monday, _) = day::iso_week(day);
    (0..7)
        .filter_map(|i| monday.checked_add_days(Days::new(i)))
        .collect()
}

/// A technician of the planning with his days off in a week.
#[derive(Debug, Clone)]
pub struct WeekTechnician {
    pub row: TechnicianRow,
    pub absent: BTreeSet<NaiveDate>,
    pub resting: BTreeSet<NaiveDate>,
}

/// The technicians shown as rows of the week of `day`: active ones and
/// those among `also` (inactive but carrying visits), with their absence
/// and rest days that week.
pub fn week_technicians(
    conn: &Conn,
    agency_id: &AgencyId,
    day: NaiveDate,
    also: &[String],
) -> AppResult<Vec<WeekTechnician>> {
    let rows = technicians::for_planning(conn, agency_id, also)?;
    let days = week_days(day);
    let mut off = availability(conn, agency_id, &rows, &days)?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let (absent, resting) = off.remove(&row.id).unwrap_or_default();
            WeekTechnician {
                row,
                absent,
                resting,
            }
        })
        .collect())
}

// -- Proposal ----------------------------------------------------------------

/// A line of the proposal, with what the review screen shows.
#[derive(Debug, Clone)]
pub struct ProposalLine {
    pub equipment_id: String,
    pub number: Option<String>,
    pub building: Option<String>,
    pub address: Option<String>,
    pub deadline: NaiveDate,
    /// None for equipment left out.
    pub technician_id: Option<String>,
    pub day: Option<NaiveDate>,
    /// Why it was left out.
    pub reason: Option<String>,
    /// A late visit of the equipment that the proposal moves into the week
    /// (planned on a past day and not done, or planned after its deadline):
    /// its id and current day. None: a new visit.
    pub late_visit: Option<(String, NaiveDate)>,
    /// The periodic duties of its contract the visit carries.
    pub duties: Vec<DutyMark>,
}

#[derive(Debug, Clone)]
pub struct WeekProposal {
    pub monday: NaiveDate,
    pub sunday: NaiveDate,
    pub visits: Vec<ProposalLine>,
    pub unplaced: Vec<ProposalLine>,
    pub technicians: Vec<WeekTechnician>,
    /// Visits already on the planning per (technician, day) of the whole week.
    pub existing: Vec<(String, NaiveDate, u32)>,
}

/// The week a proposal is for: the ISO week of `day`, or the week after
/// today's; it must start after today.
pub fn proposal_week(day: Option<NaiveDate>, today: NaiveDate) -> AppResult<NaiveDate> {
    let (this_monday, _) = day::iso_week(today);
    let monday = match day {
        Some(day) => day::iso_week(day).0,
        None => this_monday + Duration::days(7),
    };
    if monday <= today {
        return Err(AppError::unprocessable(
            "La proposition porte sur une semaine à venir : choisissez une semaine qui commence après aujourd'hui.",
        ));
    }
    Ok(monday)
}

/// Computes (writes nothing) the visits of the week starting `monday`.
/// Equipment due by the week's Sunday without a visit is proposed, and so
/// is equipment whose visit is late, first (see [`ProposalLine::late_visit`]).
pub fn propose(
    conn: &Conn,
    agency_id: &AgencyId,
    monday: NaiveDate,
    today: NaiveDate,
) -> AppResult<WeekProposal> {
    let days = week_days(monday);
    let sunday = days.last().copied().unwrap_or(monday);
    let working: Vec<NaiveDate> = days[..5.min(days.len())].to_vec();
    let technicians = week_technicians(conn, agency_id, monday, &[])?;
    let plan_technicians: Vec<PlanTechnician> = technicians
        .iter()
        .map(|t| PlanTechnician {
            id: t.row.id.to_string(),
            name: t.row.name.clone(),
            sectors: plan::split_sectors(t.row.sectors.as_deref()),
            daily_capacity: u32::try_from(t.row.daily_capacity).unwrap_or(0),
            absent: t.absent.clone(),
            resting: t.resting.clone(),
        })
        .collect();
    let week_load = loads(conn, agency_id, &days)?;
    let load: HashMap<(String, NaiveDate), u32> = week_load
        .iter()
        .filter(|((_, day), _)| working.contains(day))
        .map(|(key, count)| (key.clone(), *count))
        .collect();
    let mut existing: Vec<(String, NaiveDate, u32)> = week_load
        .into_iter()
        .map(|((tech, day), count)| (tech, day, count))
        .collect();
    existing.sort();
    let mut info: HashMap<String, PlanRow> = HashMap::new();
    let mut late_visits: HashMap<String, (String, NaiveDate)> = HashMap::new();
    let mut due = Vec::new();
    // A lift under a contract in force is due by its next visit's deadline
    // or its first periodic duty's, whichever comes first.
    let duty_lifts = duties::lifts_in_force(conn, agency_id)?;
    for row in equipment::in_plan(conn, agency_id, &day::iso(sunday))? {
        let Some(visit_deadline) = deadline_of(&row) else {
            continue;
        };
        let deadline = duty_lifts
            .get(&row.id)
            .map(duty_deadlines)
            .into_iter()
            .flatten()
            .map(|(_, deadline)| deadline)
            .fold(visit_deadline, NaiveDate::min);
        if deadline > sunday {
            continue;
        }
        // A visit already planned is left where it is, unless it is late:
        // planned on a past day and not begun, or planned after the week
        // while its deadline falls in it or before. That one moves into the
        // week, before any other.
        let mut late = false;
        if let Some(open_on) = row.open_visit_on.as_deref().and_then(day::read) {
            if (today..=sunday).contains(&open_on) {
                continue;
            }
            match visits::open_of_equipment(conn, &row.id)? {
                Some((visit_id, _, VisitStatus::Planifiee)) => {
                    late_visits.insert(row.id.to_string(), (visit_id.into_string(), open_on));
                    late = true;
                }
                _ => continue,
            }
        }
        let place = [row.postal_code.as_deref(), row.city.as_deref()]
            .into_iter()
            .flatten()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        due.push(DueEquipment {
            equipment_id: row.id.to_string(),
            number: row.number.clone(),
            sector_keys: plan::building_sector_keys(
                row.postal_code.as_deref(),
                row.city.as_deref(),
            ),
            place: (!place.is_empty()).then_some(place),
            deadline,
            late,
        });
        info.insert(row.id.to_string(), row);
    }
    let Proposal { visits, unplaced } = plan::propose(&working, &plan_technicians, &load, due);
    let line = |id: &str, deadline: NaiveDate| {
        let row = info.get(id);
        ProposalLine {
            equipment_id: id.to_owned(),
            number: row.and_then(|r| r.number.clone()),
            building: row.and_then(|r| r.building.clone()),
            address: row.and_then(|r| {
                building_address(
                    r.address.as_deref(),
                    r.postal_code.as_deref(),
                    r.city.as_deref(),
                )
            }),
            deadline,
            technician_id: None,
            day: None,
            reason: None,
            late_visit: late_visits.get(id).cloned(),
            duties: Vec::new(),
        }
    };
    let duties_at = |id: &str, day: NaiveDate| {
        duty_lifts
            .get(&EquipmentId::new(id))
            .map(|lift| duties_due(lift, day))
            .unwrap_or_default()
    };
    Ok(WeekProposal {
        monday,
        sunday,
        visits: visits
            .iter()
            .map(|v| ProposalLine {
                technician_id: Some(v.technician_id.clone()),
                day: Some(v.day),
                duties: duties_at(&v.equipment_id, v.day),
                ..line(&v.equipment_id, v.deadline)
            })
            .collect(),
        unplaced: unplaced
            .iter()
            .map(|u| ProposalLine {
                reason: Some(u.reason.clone()),
                duties: duties_at(&u.equipment_id, u.deadline),
                ..line(&u.equipment_id, u.deadline)
            })
            .collect(),
        technicians,
        existing,
    })
}

// -- Saving -------------------------------------------------------------------

/// A kept line of the reviewed proposal.
#[derive(Debug, Clone)]
pub struct SaveLine {
    pub equipment_id: String,
    pub technician_id: String,
    /// `YYYY-MM-DD`.
    pub day: String,
    /// The equipment's late visit that this line moves (the proposal's
    /// `lateVisit`); None: a new visit.
    pub visit_id: Option<String>,
}

/// Creates every kept visit in one transaction, or none: each line is
/// checked again (equipment of the agency with no visit planned, listed
/// once; day from today on; active technician of the agency, not absent
/// nor resting that day, within his daily capacity counting the visits
/// already planned and the lines before). Returns the new visits' ids.
fn save_in(
    tx: &Tx,
    p: &Principal,
    lines: &[SaveLine],
    today: NaiveDate,
    now: DateTime<Utc>,
) -> AppResult<Vec<VisitId>> {
    p.require(Capability::Change)?;
    if lines.is_empty() {
        return Err(AppError::unprocessable("Aucune visite à enregistrer."));
    }
    if lines.len() > MAX_SAVED_VISITS {
        return Err(AppError::unprocessable(format!(
            "Au plus {MAX_SAVED_VISITS} visites peuvent être enregistrées à la fois."
        )));
    }
    let agency = p.agency_id()?;
    // Parse the days first, to read availability and loads once.
    let mut parsed = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let day = day::parse(line.day.trim()).map_err(|_| {
            AppError::unprocessable(format!(
                "Ligne {n} : le jour doit être au format AAAA-MM-JJ et exister au calendrier."
            ))
        })?;
        if day < today {
            return Err(AppError::unprocessable(format!(
                "Ligne {n} : une visite ne peut pas être planifiée dans le passé."
            )));
        }
        parsed.push(day);
    }
    let days: Vec<NaiveDate> = parsed
        .iter()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let technician_rows = technicians::for_planning(tx, agency, &[])?;
    let by_id: HashMap<&str, &TechnicianRow> =
        technician_rows.iter().map(|t| (t.id.as_str(), t)).collect();
    // Availability per distinct week is simplest read over the whole span.
    let span: Vec<NaiveDate> = match (days.first(), days.last()) {
        (Some(&first), Some(&last)) => first
            .iter_days()
            .take_while(|d| *d <= last)
            .take(400)
            .collect(),
        _ => Vec::new(),
    };
    let off = availability(tx, agency, &technician_rows, &span)?;
    let mut load = loads(tx, agency, &span)?;
    let mut seen: HashSet<EquipmentId> = HashSet::new();
    let mut ids = Vec::with_capacity(lines.len());
    let now_text = clock::format_timestamp(now);
    for (i, (line, &day)) in lines.iter().zip(&parsed).enumerate() {
        let n = i + 1;
        let equipment_id = &EquipmentId::new(line.equipment_id.trim());
        let row = equipment::plan_of(tx, agency, equipment_id)?.ok_or_else(|| {
            AppError::unprocessable(format!(
                "Ligne {n} : équipement introuvable dans cette agence : « {equipment_id} »."
            ))
        })?;
        let label = row.number.clone().map_or_else(
            || format!("Ligne {n}"),
            |number| format!("Ligne {n} ({number})"),
        );
        if row.archived {
            return Err(AppError::unprocessable(format!(
                "{label} : {}",
                crate::services::equipment::archived_refusal(row.number.as_deref())
                    .public_message()
            )));
        }
        if !seen.insert(equipment_id.clone()) {
            return Err(AppError::unprocessable(format!(
                "{label} : l'équipement figure deux fois dans la liste."
            )));
        }
        // A line moving the equipment's late visit names it; any other
        // visit not done refuses the line.
        let open = visits::open_of_equipment(tx, equipment_id)?;
        let moved = match (open, line.visit_id.as_deref().map(str::trim)) {
            (None, None) => None,
            (Some((open_id, _, VisitStatus::Planifiee)), Some(given))
                if open_id.as_str() == given =>
            {
                Some(open_id)
            }
            (Some((_, open_on, _)), _) => {
                return Err(AppError::unprocessable(format!(
                    "{label} : une visite est déjà prévue le {} pour cet équipement.",
                    french(&open_on)
                )));
            }
            (None, Some(_)) => {
                return Err(AppError::unprocessable(format!(
                    "{label} : la visite à déplacer n'est plus à faire (faite ou retirée entre-temps)."
                )));
            }
        };
        let technician_id = &TechnicianId::new(line.technician_id.trim());
        let technician = by_id.get(technician_id.as_str()).ok_or_else(|| {
            AppError::unprocessable(format!(
                "{label} : technicien introuvable dans cette agence : « {technician_id} »."
            ))
        })?;
        let (absent, resting) = off.get(technician_id).cloned().unwrap_or_default();
        let when = day::french(day);
        if absent.contains(&day) {
            return Err(AppError::unprocessable(format!(
                "{label} : {} est absent le {when}.",
                technician.name
            )));
        }
        if resting.contains(&day) {
            return Err(AppError::unprocessable(format!(
                "{label} : {} est en repos de sécurité après son astreinte le {when}.",
                technician.name
            )));
        }
        let count = load
            .entry((technician_id.to_owned().into_string(), day))
            .or_insert(0);
        if i64::from(*count) >= technician.daily_capacity {
            return Err(AppError::unprocessable(format!(
                "{label} : {} a déjà {} visites le {when} (charge journalière : {}).",
                technician.name, count, technician.daily_capacity
            )));
        }
        *count += 1;
        if let Some(visit_id) = moved {
            let before = visits::get_in_agency(tx, agency, &visit_id)?.ok_or_else(|| {
                anyhow::anyhow!("visite {visit_id} introuvable juste après sa lecture")
            })?;
            visits::record_reschedule(
                tx,
                &visit_id,
                &day::iso(day),
                Some(technician_id),
                &now_text,
            )?;
            audit::record(
                tx,
                AuditEntry {
                    agency_id: Some(agency.as_str()),
                    actor: &p.actor,
                    action: "replanification",
                    object_type: "visit",
                    object_id: Some(visit_id.as_str()),
                    detail: Some(json!({
                        "plannedFor": { "before": before.planned_for, "after": day::iso(day) },
                        "technicianId": { "before": before.technician_id, "after": technician_id },
                        "source": "proposition",
                    })),
                },
            )?;
            ids.push(visit_id);
            continue;
        }
        let id = VisitId::new(crate::store::new_id());
        let deadline = deadline_of(&row).map(day::iso);
        visits::insert(
            tx,
            &NewVisit {
                id: &id,
                agency_id: agency.as_str(),
                equipment_id,
                technician_id: Some(technician_id),
                planned_for: &day::iso(day),
                deadline: deadline.as_deref(),
                now: &now_text,
            },
        )?;
        audit::record(
            tx,
            AuditEntry {
                agency_id: Some(agency.as_str()),
                actor: &p.actor,
                action: "planification",
                object_type: "visit",
                object_id: Some(id.as_str()),
                detail: Some(json!({
                    "equipmentId": equipment_id, "technicianId": technician_id,
                    "plannedFor": day::iso(day), "deadline": deadline, "source": "proposition",
                })),
            },
        )?;
        ids.push(id);
    }
    Ok(ids)
}

fn french(day: &str) -> String {
    day::french_from_stored(day)
}

/// Monday of the ISO week, for callers that only need it.
pub fn monday_of(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

// -- Operations for a principal ---------------------------------------------

/// Saves the kept lines of a reviewed proposal as planned visits of the
/// principal's agency; returns their ids.
pub async fn save(store: &Store, p: &Principal, lines: Vec<SaveLine>) -> AppResult<Vec<VisitId>> {
    p.require(Capability::Change)?;
    p.agency()?;
    let p = p.clone();
    store
        .write(move |tx| {
            let now = tx.now();
            save_in(tx, &p, &lines, clock::paris_local(now).date(), now)
        })
        .await
}

/// Changes the maintenance interval of an equipment of the principal's
/// agency (administrators only); answers its new place in the plan.
pub async fn set_interval(
    store: &Store,
    p: &Principal,
    equipment_id: &EquipmentId,
    days: i64,
) -> AppResult<PlanRow> {
    p.agency()?;
    p.require(Capability::Administer(
        "Modifier l'intervalle d'entretien d'un équipement",
    ))?;
    let (p, id) = (p.clone(), equipment_id.to_owned());
    store
        .write(move |tx| set_interval_in(tx, &p, &id, days, tx.now()))
        .await
}

/// The proposal of visits for the week of `day` (`?day=`; next week when
/// absent) in the principal's agency. Reading it is a planner's act: the
/// service operator's account is refused, as for saving it.
pub async fn proposal(store: &Store, p: &Principal, day: Option<&str>) -> AppResult<WeekProposal> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Change)?;
    let today = clock::paris_local(store.now()).date();
    let monday = proposal_week(crate::services::visits::day_parameter(day)?, today)?;
    store
        .read(move |conn| propose(conn, &agency_id, monday, today))
        .await
}

/// The technicians of the week of `day` in the principal's agency, with
/// those in `carrying` (who hold visits that week) even if now inactive.
pub async fn week_staff(
    store: &Store,
    p: &Principal,
    day: NaiveDate,
    carrying: Vec<String>,
) -> AppResult<Vec<WeekTechnician>> {
    let agency_id = p.agency_id()?.to_owned();
    store
        .read(move |conn| week_technicians(conn, &agency_id, day, &carrying))
        .await
}

/// The place of an equipment of the principal's agency in the maintenance
/// plan (404 outside the agency).
pub async fn equipment_plan(
    store: &Store,
    p: &Principal,
    equipment_id: &EquipmentId,
) -> AppResult<PlanRow> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), equipment_id.to_owned());
    store
        .read(move |conn| equipment::plan_of(conn, &agency_id, &id))
        .await?
        .ok_or_else(|| AppError::not_found(EQUIPMENT_NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_rest_touching_the_working_hours_takes_the_day() {
        // Winter: Paris = UTC+1; working hours 07:00–17:00 UTC.
        let days = week_days(day(2026, 11, 30));
        // Standby ends Monday 08:00 Paris (07:00 UTC), 11 h rest: Monday off.
        let ended = Utc.with_ymd_and_hms(2026, 11, 30, 7, 0, 0).unwrap();
        assert_eq!(
            rest_days(&[ended], 11, &days),
            [day(2026, 11, 30)].into_iter().collect()
        );
        // Ends Monday 22:00 Paris: rest to Tuesday 09:00 Paris: Tuesday off.
        let late = Utc.with_ymd_and_hms(2026, 11, 30, 21, 0, 0).unwrap();
        assert_eq!(
            rest_days(&[late], 11, &days),
            [day(2026, 12, 1)].into_iter().collect()
        );
        // Ends Sunday 20:00 Paris: rest to Monday 07:00 Paris: nothing.
        let sunday = Utc.with_ymd_and_hms(2026, 11, 29, 19, 0, 0).unwrap();
        assert!(rest_days(&[sunday], 11, &days).is_empty());
        assert!(rest_days(&[ended], 0, &days).is_empty());
    }

    #[test]
    fn the_proposal_week_starts_after_today() {
        let saturday = day(2026, 11, 21);
        assert_eq!(proposal_week(None, saturday).unwrap(), day(2026, 11, 23));
        assert_eq!(
            proposal_week(Some(day(2026, 12, 3)), saturday).unwrap(),
            day(2026, 11, 30)
        );
        assert!(proposal_week(Some(saturday), saturday).is_err());
        assert_eq!(monday_of(saturday), day(2026, 11, 16));
    }
}
