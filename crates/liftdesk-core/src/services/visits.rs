//! Maintenance visits: the weekly planning and the visit's life
//! (`planifiee` → `en_cours` → `faite`, rescheduling, undoing a start), each
//! change in one transaction with its audit entry. The rules are those of
//! `domain::visit`.

use crate::domain::id::{AgencyId, BuildingId, EquipmentId, TechnicianId, VisitId};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde_json::json;
use std::collections::HashMap;

use crate::clock;
use crate::domain::contract::{self, Duty};
use crate::domain::day::{self, DayError};
use crate::domain::visit::{self, VisitAction, VisitStatus};
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::store::Conn;
use crate::store::duties::{self, DutyLift};
use crate::store::technicians;
use crate::store::visits::{self, Completion, PlanningRow, VisitRow};
use crate::store::{Store, Tx};

pub const NOT_FOUND: &str = "Visite introuvable.";
/// Times in the future are refused beyond this tolerance (clock drift of a
/// phone or a tablet).
const FUTURE_TOLERANCE_MINUTES: i64 = 5;
const MAX_SIGNED_BY_CHARS: usize = 200;
const MAX_OBSERVATIONS_CHARS: usize = 4000;

// -- Days -------------------------------------------------------------------

/// The `?day=` parameter of the planning's reads (REST, web app, MCP): absent
/// is `None`; not `YYYY-MM-DD` is 400, no such day 422.
pub fn day_parameter(text: Option<&str>) -> AppResult<Option<NaiveDate>> {
    text.map(|text| {
        day::parse(text).map_err(|error| match error {
            DayError::Malformed => AppError::bad_request(
                "Le paramètre « day » doit être un jour au format AAAA-MM-JJ.",
            ),
            DayError::Impossible => AppError::unprocessable(format!(
                "Le paramètre « day » n'est pas un jour du calendrier : « {text} »."
            )),
        })
    })
    .transpose()
}

// -- Planning ---------------------------------------------------------------

/// One entry of the planning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanningItem {
    pub id: String,
    pub technician_id: Option<String>,
    pub day: String,
    pub status: VisitStatus,
    pub equipment_id: String,
    pub number: Option<String>,
    /// The equipment's building (the app's planning links to its page).
    pub building_id: Option<String>,
    pub building: Option<String>,
    /// Street address, then postal code and city.
    pub address: Option<String>,
    pub deadline: Option<String>,
    /// The entry's day is after the deadline; None without a deadline.
    pub overdue: Option<bool>,
}

/// A periodic duty of a contract on a visit: due at it, with its own
/// deadline (late when the visit's day is after it), or done at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DutyMark {
    pub duty: Duty,
    /// `YYYY-MM-DD`; None for a duty done.
    pub deadline: Option<String>,
    pub overdue: bool,
    pub done: bool,
}

/// The duties a visit of `lift` (under a contract in force) on `day`
/// carries: those due before its next visit would be (see
/// [`contract::duty_due_at`]), each with its deadline.
pub fn duties_due(lift: &DutyLift, day: NaiveDate) -> Vec<DutyMark> {
    let interval = u32::try_from(lift.visit_interval_days).unwrap_or(visit::DEFAULT_INTERVAL_DAYS);
    duty_deadlines(lift)
        .into_iter()
        .filter(|(_, deadline)| contract::duty_due_at(*deadline, day, interval))
        .map(|(duty, deadline)| DutyMark {
            duty,
            deadline: Some(day::iso(deadline)),
            overdue: visit::is_overdue(day, deadline),
            done: false,
        })
        .collect()
}

/// Each duty of `lift` with its deadline, in the duties' order; none
/// without a readable start. A duty never done counts from the later of the
/// lift's plan start and its contract's start: a lift taken over by a new
/// contract is not late on the day it begins.
pub fn duty_deadlines(lift: &DutyLift) -> Vec<(Duty, NaiveDate)> {
    let Some(start) = [&lift.plan_start_on, &lift.contract_start_on]
        .into_iter()
        .filter_map(|text| day::read(text))
        .max()
    else {
        return Vec::new();
    };
    contract::DUTIES
        .iter()
        .map(|duty| {
            let last = lift
                .last_done
                .iter()
                .find(|(done, _)| done == duty)
                .and_then(|(_, on)| day::read(on));
            (*duty, duty.deadline(last, start))
        })
        .collect()
}

/// The agency's visits of the ISO week (Monday to Sunday) of `day`.
pub fn planning_week(
    conn: &Conn,
    agency_id: &AgencyId,
    day: NaiveDate,
) -> AppResult<Vec<PlanningItem>> {
    let (monday, sunday) = day::iso_week(day);
    let rows = visits::planning(conn, agency_id, &day::iso(monday), &day::iso(sunday))?;
    Ok(rows.into_iter().map(planning_item).collect())
}

/// The periodic duties of the agency's visits of the ISO week of `day`, by
/// visit: those due at a visit not done of a lift under a contract in
/// force (see [`duties_due`]), those done at a visit done. Visits with
/// none are left out. (The planning screen's; the REST planning entry has
/// no such field.)
pub fn week_duties(
    conn: &Conn,
    agency_id: &AgencyId,
    day: NaiveDate,
) -> AppResult<HashMap<String, Vec<DutyMark>>> {
    let (monday, sunday) = day::iso_week(day);
    let (from, to) = (day::iso(monday), day::iso(sunday));
    let mut marks: HashMap<String, Vec<DutyMark>> = HashMap::new();
    for (visit, (on, lift)) in duties::planned_between(conn, agency_id, &from, &to)? {
        let due = day::read(&on)
            .map(|on| duties_due(&lift, on))
            .unwrap_or_default();
        if !due.is_empty() {
            marks.insert(visit.into_string(), due);
        }
    }
    for (visit, done) in duties::done_between(conn, agency_id, &from, &to)? {
        marks.insert(
            visit.into_string(),
            done.into_iter()
                .map(|duty| DutyMark {
                    duty,
                    deadline: None,
                    overdue: false,
                    done: true,
                })
                .collect(),
        );
    }
    Ok(marks)
}

/// [`planning_week`] of the agency, kept in memory until the database
/// changes (`store::cache`): a week of a large agency is thousands of rows
/// joined to their equipment, building and technician.
pub async fn planning_week_cached(
    store: &crate::store::Store,
    agency_id: &AgencyId,
    day: NaiveDate,
) -> AppResult<std::sync::Arc<Vec<PlanningItem>>> {
    let (monday, _) = day::iso_week(day);
    let agency = agency_id.to_owned();
    store
        .read_cached(format!("planning:{agency_id}:{monday}"), move |conn| {
            planning_week(conn, &agency, monday)
        })
        .await
}

/// [`week_duties`] of the acting agency's week of `day`.
pub async fn duties_of_week(
    store: &Store,
    p: &Principal,
    day: NaiveDate,
) -> AppResult<HashMap<String, Vec<DutyMark>>> {
    let agency_id = p.agency_id()?.to_owned();
    store
        .read(move |conn| week_duties(conn, &agency_id, day))
        .await
}

/// A building's address in one line: the street, then postal code and city
/// (`40 rue Camille Desmoulins, 92130 Issy-les-Moulineaux`); None when all
/// three are blank.
pub fn building_address(
    street: Option<&str>,
    postal_code: Option<&str>,
    city: Option<&str>,
) -> Option<String> {
    crate::domain::address::one_line(street, None, postal_code, city)
}

// -- Late and due-soon visits -------------------------------------------------

/// Days ahead a visit counts as due soon, by default and at most.
pub const DUE_SOON_DAYS: i64 = 14;
pub const MAX_DUE_SOON_DAYS: i64 = 90;

/// Filters of the list of late and due-soon visits; each optional.
#[derive(Debug, Clone, Default)]
pub struct PendingFilter {
    /// A technician of the agency (`unassigned` for visits without one).
    pub technician: Option<String>,
    /// A sector as technicians write theirs (« 75015 », « Paris 15e »,
    /// « Issy-les-Moulineaux »): the building's postal code or city.
    pub sector: Option<String>,
    /// The client's partner identifier (`CLI-…`).
    pub client: Option<String>,
    /// Due within this many days (default [`DUE_SOON_DAYS`]).
    pub days: Option<i64>,
}

/// A visit of the list, and how late it is.
#[derive(Debug, Clone)]
pub struct PendingVisit {
    pub row: visits::PendingVisitRow,
    /// Planned on a past day and not done, or past its deadline.
    pub late: bool,
    /// Days since the deadline (or the planned day, when earlier), for a
    /// late visit; 0 otherwise.
    pub days_late: i64,
    /// Planned after its deadline.
    pub planned_after_deadline: bool,
}

/// The agency's visits not done that are late or due soon, matching the
/// filters: the late ones first (most late first), then by deadline.
pub async fn pending(
    store: &Store,
    p: &Principal,
    filter: PendingFilter,
) -> AppResult<Vec<PendingVisit>> {
    let agency_id = p.agency_id()?.to_owned();
    let days = filter.days.unwrap_or(DUE_SOON_DAYS);
    if !(0..=MAX_DUE_SOON_DAYS).contains(&days) {
        return Err(AppError::unprocessable(format!(
            "Le paramètre « days » doit être un nombre de jours de 0 à {MAX_DUE_SOON_DAYS}."
        )));
    }
    let today = clock::paris_local(store.now()).date();
    let until = today + Duration::days(days);
    let rows = store
        .read(move |conn| {
            Ok::<_, AppError>(visits::pending(
                conn,
                &agency_id,
                &day::iso(today),
                &day::iso(until),
            )?)
        })
        .await?;
    let sector = filter
        .sector
        .as_deref()
        .map(crate::domain::planning::normalize_sector)
        .filter(|s| !s.is_empty());
    let mut list: Vec<PendingVisit> = rows
        .into_iter()
        .filter(|row| match filter.technician.as_deref() {
            None | Some("") => true,
            Some("unassigned") => row.technician_id.is_none(),
            Some(id) => row.technician_id.as_ref().is_some_and(|t| t.as_str() == id),
        })
        .filter(|row| match filter.client.as_deref() {
            None | Some("") => true,
            Some(client) => row.client_ref.as_deref() == Some(client),
        })
        .filter(|row| match &sector {
            None => true,
            Some(sector) => crate::domain::planning::building_sector_keys(
                row.postal_code.as_deref(),
                row.city.as_deref(),
            )
            .contains(sector),
        })
        .map(|row| {
            let planned = day::read(&row.planned_for);
            let deadline = row.deadline.as_deref().and_then(day::read);
            let since = [planned, deadline]
                .into_iter()
                .flatten()
                .filter(|d| *d < today)
                .min();
            PendingVisit {
                late: since.is_some(),
                days_late: since.map_or(0, |d| (today - d).num_days()),
                planned_after_deadline: matches!((planned, deadline), (Some(p), Some(d)) if p > d),
                row,
            }
        })
        .collect();
    list.sort_by(|a, b| {
        b.late
            .cmp(&a.late)
            .then_with(|| b.days_late.cmp(&a.days_late))
            .then_with(|| a.row.deadline.cmp(&b.row.deadline))
            .then_with(|| a.row.planned_for.cmp(&b.row.planned_for))
            .then_with(|| a.row.number.cmp(&b.row.number))
    });
    Ok(list)
}

/// The week of `day` for one technician of the agency (active or not): the
/// same entries as [`planning_week`], his only. A technician who is not of
/// the agency is refused (422), never answered with an empty week.
pub fn technician_planning_week(
    conn: &Conn,
    agency_id: &AgencyId,
    day: NaiveDate,
    technician_id: &TechnicianId,
) -> AppResult<Vec<PlanningItem>> {
    if technicians::name_in_agency(conn, agency_id, technician_id)?.is_none() {
        return Err(AppError::unprocessable(format!(
            "Technicien introuvable dans cette agence : « {technician_id} »."
        )));
    }
    let mut items = planning_week(conn, agency_id, day)?;
    items.retain(|item| item.technician_id.as_deref() == Some(technician_id.as_str()));
    Ok(items)
}

fn planning_item(row: PlanningRow) -> PlanningItem {
    let overdue = match (
        day::parse(&row.day).ok(),
        row.deadline.as_deref().and_then(|d| day::parse(d).ok()),
    ) {
        (Some(day), Some(deadline)) => Some(visit::is_overdue(day, deadline)),
        _ => None,
    };
    let address = building_address(
        row.address.as_deref(),
        row.postal_code.as_deref(),
        row.city.as_deref(),
    );
    PlanningItem {
        id: row.id.into_string(),
        technician_id: row.technician_id.map(TechnicianId::into_string),
        day: row.day,
        status: row.status,
        equipment_id: row.equipment_id.into_string(),
        number: row.number,
        building_id: row.building_id.map(BuildingId::into_string),
        building: row.building,
        address,
        deadline: row.deadline,
        overdue,
    }
}

// -- Reading ----------------------------------------------------------------

/// The visit `id` of the agency, or 404.
pub fn get(conn: &Conn, agency_id: &AgencyId, id: &VisitId) -> AppResult<VisitRow> {
    visits::get_in_agency(conn, agency_id, id)?.ok_or_else(|| AppError::not_found(NOT_FOUND))
}

// -- Changes ----------------------------------------------------------------

/// Input of `start`.
#[derive(Debug, Clone, Default)]
pub struct StartInput {
    /// ISO 8601 with an offset; default now.
    pub arrived_at: Option<String>,
}

/// Input of `complete`.
#[derive(Debug, Clone, Default)]
pub struct CompleteInput {
    /// Required when the visit was not started; refused when it was.
    pub arrived_at: Option<String>,
    /// Default now.
    pub left_at: Option<String>,
    pub signed_by: String,
    pub observations: Option<String>,
    /// The periodic duties done at the visit (`cables`, `parachute`,
    /// `nettoyage`): each moves its lift's next deadline.
    pub duties: Vec<String>,
}

/// The duties of a completion, as received: each a duty's code, once.
pub fn check_duties(raw: &[String]) -> AppResult<Vec<Duty>> {
    let mut duties = Vec::new();
    for code in raw {
        let duty = Duty::parse(code.trim()).ok_or_else(|| {
            AppError::unprocessable(format!(
                "Le champ « duties » : « {code} » n'est pas une obligation périodique ; valeurs possibles : {}.",
                Duty::CODES.join(", ")
            ))
        })?;
        if !duties.contains(&duty) {
            duties.push(duty);
        }
    }
    duties.sort_by_key(|d| Duty::ALL.iter().position(|x| x == d));
    Ok(duties)
}

/// Input of `reschedule`.
#[derive(Debug, Clone, Default)]
pub struct RescheduleInput {
    /// `YYYY-MM-DD`.
    pub planned_for: String,
    /// Another active technician of the agency; None keeps the current one.
    pub technician_id: Option<String>,
    /// No technician any more: the visit is unassigned again (the planning's
    /// undo of a move that assigned it). Not with `technician_id`.
    pub unassign: bool,
}

/// Loads the visit of the agency and checks the action on its status.
fn load_for(
    tx: &Tx,
    p: &Principal,
    id: &VisitId,
    action: VisitAction,
) -> AppResult<(VisitRow, VisitStatus, VisitStatus)> {
    p.require(Capability::Change)?;
    let row = get(tx, p.agency_id()?, id)?;
    let status = row.status;
    let next = visit::transition(status, action)
        .map_err(|refusal| AppError::unprocessable(refusal.message()))?;
    Ok((row, status, next))
}

fn record(
    tx: &Tx,
    p: &Principal,
    id: &VisitId,
    action: &str,
    detail: serde_json::Value,
) -> AppResult<()> {
    p.record(tx, "visit", id.as_str(), action, detail)
}

/// Reads an instant of the body: ISO 8601 with an offset, not in the future.
fn instant(field: &str, raw: Option<&str>, now: DateTime<Utc>) -> AppResult<DateTime<Utc>> {
    let Some(raw) = raw else {
        return Ok(now);
    };
    let at = clock::parse_timestamp(raw.trim()).ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « {field} » doit être une date et heure ISO 8601 avec son fuseau, par exemple 2026-03-11T09:30:00+01:00 ou 2026-03-11T08:30:00Z."
        ))
    })?;
    if at > now + Duration::minutes(FUTURE_TOLERANCE_MINUTES) {
        return Err(AppError::unprocessable(format!(
            "Le champ « {field} » ne peut pas être dans le futur."
        )));
    }
    Ok(at)
}

fn stored_instant(text: Option<&str>, what: &str) -> AppResult<DateTime<Utc>> {
    text.and_then(clock::parse_timestamp).ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!(
            "{what} de visite absente ou illisible en base"
        ))
    })
}

/// The technician arrives: `planifiee` → `en_cours`.
pub fn start_in(
    tx: &Tx,
    p: &Principal,
    id: &VisitId,
    input: &StartInput,
    now: DateTime<Utc>,
) -> AppResult<()> {
    let (_, from, to) = load_for(tx, p, id, VisitAction::Start)?;
    let arrived = clock::format_timestamp(instant("arrivedAt", input.arrived_at.as_deref(), now)?);
    visits::record_start(tx, id, &arrived, &clock::format_timestamp(now))?;
    record(
        tx,
        p,
        id,
        "demarrage",
        json!({ "from": from.as_str(), "to": to.as_str(), "arrivedAt": arrived }),
    )
}

/// The visit is done and signed: `planifiee` or `en_cours` → `faite`.
/// `done_on` is the local (Paris) day of the departure.
pub fn complete_in(
    tx: &Tx,
    p: &Principal,
    id: &VisitId,
    input: &CompleteInput,
    now: DateTime<Utc>,
) -> AppResult<()> {
    let (row, from, to) = load_for(tx, p, id, VisitAction::Complete)?;
    let arrived = match (from, input.arrived_at.as_deref()) {
        (VisitStatus::EnCours, None) => stored_instant(row.arrived_at.as_deref(), "arrivée")?,
        (VisitStatus::EnCours, Some(_)) => {
            return Err(AppError::unprocessable(
                "La visite a déjà commencé : son heure d'arrivée est enregistrée, n'envoyez pas « arrivedAt ».",
            ));
        }
        (_, Some(raw)) => instant("arrivedAt", Some(raw), now)?,
        (_, None) => {
            return Err(AppError::unprocessable(
                "Le champ « arrivedAt » est obligatoire pour terminer une visite qui n'a pas été commencée.",
            ));
        }
    };
    let left = instant("leftAt", input.left_at.as_deref(), now)?;
    visit::check_departure(arrived, left).map_err(|e| AppError::unprocessable(e.to_string()))?;
    let signed_by = input.signed_by.trim();
    if signed_by.is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « signedBy » est obligatoire : indiquez qui a signé le bon de visite.",
        ));
    }
    if signed_by.chars().count() > MAX_SIGNED_BY_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « signedBy » ne doit pas dépasser {MAX_SIGNED_BY_CHARS} caractères."
        )));
    }
    let observations = input
        .observations
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty());
    if observations.is_some_and(|o| o.chars().count() > MAX_OBSERVATIONS_CHARS) {
        return Err(AppError::unprocessable(format!(
            "Le champ « observations » ne doit pas dépasser {MAX_OBSERVATIONS_CHARS} caractères."
        )));
    }
    let duties = check_duties(&input.duties)?;
    let arrived_text = clock::format_timestamp(arrived);
    let left_text = clock::format_timestamp(left);
    let done_on = day::iso(clock::paris_local(left).date());
    duties::record_done(tx, id, &row.equipment_id, &done_on, &duties)?;
    visits::record_completion(
        tx,
        id,
        &Completion {
            arrived_at: &arrived_text,
            left_at: &left_text,
            done_on: &done_on,
            signed_by,
            observations,
        },
        &clock::format_timestamp(now),
    )?;
    record(
        tx,
        p,
        id,
        "cloture",
        json!({
            "from": from.as_str(), "to": to.as_str(), "arrivedAt": arrived_text,
            "leftAt": left_text, "doneOn": done_on, "signedBy": signed_by,
            "duties": duties.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
        }),
    )
}

/// A visit not begun moves to another day (from today on), possibly to
/// another active technician of the agency, or to none (`unassign`);
/// whoever carries it must not be absent that day.
pub fn reschedule_in(
    tx: &Tx,
    p: &Principal,
    id: &VisitId,
    input: &RescheduleInput,
    today: NaiveDate,
    now: DateTime<Utc>,
) -> AppResult<()> {
    let (row, from, to) = load_for(tx, p, id, VisitAction::Reschedule)?;
    let day = day::parse(input.planned_for.trim()).map_err(|error| {
        AppError::unprocessable(match error {
            DayError::Malformed => {
                "Le champ « plannedFor » doit être un jour au format AAAA-MM-JJ.".to_owned()
            }
            DayError::Impossible => format!(
                "Le champ « plannedFor » n'est pas un jour du calendrier : « {} ».",
                input.planned_for.trim()
            ),
        })
    })?;
    if day < today {
        return Err(AppError::unprocessable(
            "Une visite ne peut pas être replanifiée dans le passé.",
        ));
    }
    let technician_id = match input.technician_id.as_deref().map(str::trim) {
        Some(_) if input.unassign => {
            return Err(AppError::unprocessable(
                "Choisissez le technicien de la visite (« technicianId ») ou retirez-le (« unassign »), pas les deux.",
            ));
        }
        None if input.unassign => None,
        Some(new_id) => {
            let new_id = TechnicianId::new(new_id);
            if technicians::active_name_in_agency(tx, p.agency_id()?, &new_id)?.is_none() {
                return Err(AppError::unprocessable(format!(
                    "Technicien introuvable dans cette agence : « {new_id} »."
                )));
            }
            Some(new_id)
        }
        None => row.technician_id.clone(),
    };
    let day_text = day::iso(day);
    if let Some(tech) = technician_id.as_ref()
        && technicians::is_absent_on(tx, tech, &day_text)?
    {
        let name = technicians::active_name_in_agency(tx, p.agency_id()?, tech)?
            .unwrap_or_else(|| "Le technicien".to_owned());
        return Err(AppError::unprocessable(format!(
            "{name} : absence enregistrée le {} ; choisissez un autre jour ou un autre technicien.",
            day::french(day)
        )));
    }
    visits::record_reschedule(
        tx,
        id,
        &day_text,
        technician_id.as_ref(),
        &clock::format_timestamp(now),
    )?;
    record(
        tx,
        p,
        id,
        "replanification",
        json!({
            "from": from.as_str(), "to": to.as_str(),
            "plannedFor": { "before": row.planned_for, "after": day_text },
            "technicianId": { "before": row.technician_id, "after": technician_id },
        }),
    )
}

/// Input of `create`.
#[derive(Debug, Clone, Default)]
pub struct CreateInput {
    pub equipment_id: String,
    /// An active technician of the agency; None leaves the visit unassigned.
    pub technician_id: Option<String>,
    /// `YYYY-MM-DD`, from today on.
    pub planned_for: String,
}

/// Plans a visit of an equipment of the agency (`planifiee`), with the
/// deadline of its maintenance plan. Refused when the equipment already has
/// a visit not done (move that one instead), when the day is past, when the
/// technician is not an active one of the agency or is absent that day.
/// Returns the new visit's id.
pub fn create_in(
    tx: &Tx,
    p: &Principal,
    input: &CreateInput,
    today: NaiveDate,
    now: DateTime<Utc>,
) -> AppResult<VisitId> {
    p.require(Capability::Change)?;
    let equipment_id = &EquipmentId::new(input.equipment_id.trim());
    if equipment_id.as_str().is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « equipmentId » est obligatoire : choisissez l'équipement à visiter.",
        ));
    }
    let day = day::parse(input.planned_for.trim()).map_err(|error| {
        AppError::unprocessable(match error {
            DayError::Malformed => {
                "Le champ « plannedFor » doit être un jour au format AAAA-MM-JJ.".to_owned()
            }
            DayError::Impossible => format!(
                "Le champ « plannedFor » n'est pas un jour du calendrier : « {} ».",
                input.planned_for.trim()
            ),
        })
    })?;
    if day < today {
        return Err(AppError::unprocessable(
            "Une visite ne peut pas être planifiée dans le passé.",
        ));
    }
    let plan =
        crate::store::equipment::plan_of(tx, p.agency_id()?, equipment_id)?.ok_or_else(|| {
            AppError::unprocessable(format!(
                "Équipement introuvable dans cette agence : « {equipment_id} »."
            ))
        })?;
    if plan.archived {
        return Err(crate::services::equipment::archived_refusal(
            plan.number.as_deref(),
        ));
    }
    if let Some(open) = plan.open_visit_on.as_deref() {
        let when = day::french_from_stored(open);
        return Err(AppError::conflict(format!(
            "Une visite de cet équipement est déjà prévue le {when} : déplacez-la plutôt que d'en créer une autre."
        )));
    }
    let technician_id = match input.technician_id.as_deref().map(str::trim) {
        Some(tech) if !tech.is_empty() => {
            let tech = TechnicianId::new(tech);
            let Some(name) = technicians::active_name_in_agency(tx, p.agency_id()?, &tech)? else {
                return Err(AppError::unprocessable(format!(
                    "Technicien introuvable dans cette agence : « {tech} »."
                )));
            };
            if technicians::is_absent_on(tx, &tech, &day::iso(day))? {
                return Err(AppError::unprocessable(format!(
                    "{name} : absence enregistrée le {} ; choisissez un autre jour ou un autre technicien.",
                    day::french(day)
                )));
            }
            Some(tech)
        }
        _ => None,
    };
    let deadline = crate::services::planning::deadline_of(&plan).map(day::iso);
    let id = VisitId::new(crate::store::new_id());
    let planned_for = day::iso(day);
    visits::insert(
        tx,
        &visits::NewVisit {
            id: &id,
            agency_id: p.agency_id()?.as_str(),
            equipment_id,
            technician_id: technician_id.as_ref(),
            planned_for: &planned_for,
            deadline: deadline.as_deref(),
            now: &clock::format_timestamp(now),
        },
    )?;
    record(
        tx,
        p,
        &id,
        "planification",
        json!({
            "equipmentId": equipment_id, "technicianId": technician_id,
            "plannedFor": planned_for, "deadline": deadline,
        }),
    )?;
    Ok(id)
}

/// Undoes a start: `en_cours` → `planifiee`, the arrival is cleared.
pub fn cancel_start_in(tx: &Tx, p: &Principal, id: &VisitId, now: DateTime<Utc>) -> AppResult<()> {
    let (row, from, to) = load_for(tx, p, id, VisitAction::CancelStart)?;
    visits::record_cancel_start(tx, id, &clock::format_timestamp(now))?;
    record(
        tx,
        p,
        id,
        "annulation_demarrage",
        json!({ "from": from.as_str(), "to": to.as_str(), "clearedArrivedAt": row.arrived_at }),
    )
}

// -- Operations for a principal ---------------------------------------------
//
// Each opens its own transaction, at the store's clock; the service
// operator's account is refused (`Capability::Change`) inside.

/// Starts the visit `id` of the principal's agency.
pub async fn start(store: &Store, p: &Principal, id: &VisitId, input: StartInput) -> AppResult<()> {
    p.agency()?;
    let (p, id) = (p.clone(), id.to_owned());
    store
        .write(move |tx| start_in(tx, &p, &id, &input, tx.now()))
        .await
}

/// Completes the visit `id` of the principal's agency.
pub async fn complete(
    store: &Store,
    p: &Principal,
    id: &VisitId,
    input: CompleteInput,
) -> AppResult<()> {
    p.agency()?;
    let (p, id) = (p.clone(), id.to_owned());
    store
        .write(move |tx| complete_in(tx, &p, &id, &input, tx.now()))
        .await
}

/// Moves the visit `id` of the principal's agency to another day (and
/// technician), from today on.
pub async fn reschedule(
    store: &Store,
    p: &Principal,
    id: &VisitId,
    input: RescheduleInput,
) -> AppResult<()> {
    p.agency()?;
    let (p, id) = (p.clone(), id.to_owned());
    store
        .write(move |tx| {
            let now = tx.now();
            reschedule_in(tx, &p, &id, &input, clock::paris_local(now).date(), now)
        })
        .await
}

/// Undoes the start of the visit `id` of the principal's agency.
pub async fn cancel_start(store: &Store, p: &Principal, id: &VisitId) -> AppResult<()> {
    p.agency()?;
    let (p, id) = (p.clone(), id.to_owned());
    store
        .write(move |tx| cancel_start_in(tx, &p, &id, tx.now()))
        .await
}

/// Plans a visit in the principal's agency; returns its id.
pub async fn create(store: &Store, p: &Principal, input: CreateInput) -> AppResult<VisitId> {
    p.agency()?;
    let p = p.clone();
    store
        .write(move |tx| {
            let now = tx.now();
            create_in(tx, &p, &input, clock::paris_local(now).date(), now)
        })
        .await
}

/// A visit with its equipment's place and whether it is (or was) late.
#[derive(Debug, Clone)]
pub struct VisitDetail {
    pub visit: VisitRow,
    pub equipment: Option<crate::store::equipment::PlanRow>,
    /// The day it was done (else planned for) falls after its deadline;
    /// `None` without a deadline.
    pub overdue: Option<bool>,
    /// The periodic duties of its lift's contract due at it, or done at it.
    pub duties: Vec<DutyMark>,
}

/// The visit `id` of the principal's agency, with its equipment's place.
pub async fn detail(store: &Store, p: &Principal, id: &VisitId) -> AppResult<VisitDetail> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store
        .read(move |conn| {
            let visit = get(conn, &agency_id, &id)?;
            let equipment =
                crate::store::equipment::plan_of(conn, &agency_id, &visit.equipment_id)?;
            let day = visit.done_on.as_deref().unwrap_or(&visit.planned_for);
            let overdue = match (
                day::parse(day).ok(),
                visit.deadline.as_deref().and_then(|d| day::parse(d).ok()),
            ) {
                (Some(day), Some(deadline)) => Some(day > deadline),
                _ => None,
            };
            let duties = if visit.status == VisitStatus::Faite {
                duties::done_at(conn, &agency_id, &id)?
                    .into_iter()
                    .map(|duty| DutyMark {
                        duty,
                        deadline: None,
                        overdue: false,
                        done: true,
                    })
                    .collect()
            } else {
                match (
                    duties::lift_of(conn, &agency_id, &visit.equipment_id)?,
                    day::read(&visit.planned_for),
                ) {
                    (Some(lift), Some(on)) => duties_due(&lift, on),
                    _ => Vec::new(),
                }
            };
            Ok(VisitDetail {
                visit,
                equipment,
                overdue,
                duties,
            })
        })
        .await
}

/// The visit `id` of the principal's agency (404 otherwise).
pub async fn read(store: &Store, p: &Principal, id: &VisitId) -> AppResult<VisitRow> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store.read(move |conn| get(conn, &agency_id, &id)).await
}

/// The principal's agency's planning for the week of `day` (`?day=`, this
/// week when absent); with `technician_id`, that technician's entries only
/// (an id that is no technician of the agency is 422). The agency's week is
/// the cached one itself, shared: each front door copies out only what it
/// answers.
pub async fn planning_for(
    store: &Store,
    p: &Principal,
    day: Option<&str>,
    technician_id: Option<TechnicianId>,
) -> AppResult<std::sync::Arc<Vec<PlanningItem>>> {
    let agency_id = p.agency_id()?.to_owned();
    let day = day_parameter(day)?.unwrap_or_else(|| clock::paris_local(store.now()).date());
    let Some(technician) = technician_id else {
        return planning_week_cached(store, &agency_id, day).await;
    };
    store
        .read(move |conn| technician_planning_week(conn, &agency_id, day, &technician))
        .await
        .map(std::sync::Arc::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planning's `?day=`: absent is no day, a bad shape 400, no such
    /// day 422, each refusal naming the parameter in French.
    #[test]
    fn the_day_parameter_refuses_a_bad_shape_and_an_impossible_day() {
        assert_eq!(day_parameter(None).ok(), Some(None));
        assert_eq!(
            day_parameter(Some("2026-03-09"))
                .ok()
                .flatten()
                .map(day::iso),
            Some("2026-03-09".to_owned())
        );
        let refusal = |text: &str| {
            day_parameter(Some(text))
                .err()
                .map(|e| (e.status().as_u16(), e.public_message()))
        };
        assert_eq!(
            refusal("9/3/2026"),
            Some((
                400,
                "Le paramètre « day » doit être un jour au format AAAA-MM-JJ.".to_owned()
            ))
        );
        assert_eq!(
            refusal("2026-02-30"),
            Some((
                422,
                "Le paramètre « day » n'est pas un jour du calendrier : « 2026-02-30 ».".to_owned()
            ))
        );
    }

    #[test]
    fn planning_address_and_overdue() {
        let row = |address: Option<&str>,
                   postal: Option<&str>,
                   city: Option<&str>,
                   deadline: Option<&str>| PlanningRow {
            id: VisitId::new("v"),
            technician_id: None,
            day: "2026-03-11".into(),
            status: VisitStatus::Planifiee,
            equipment_id: EquipmentId::new("e"),
            number: None,
            building_id: None,
            building: None,
            address: address.map(Into::into),
            postal_code: postal.map(Into::into),
            city: city.map(Into::into),
            deadline: deadline.map(Into::into),
        };
        let item = planning_item(row(
            Some("12 rue de Vaugirard"),
            Some("75015"),
            Some("Paris"),
            Some("2026-03-10"),
        ));
        assert_eq!(
            item.address.as_deref(),
            Some("12 rue de Vaugirard, 75015 Paris")
        );
        assert_eq!(item.overdue, Some(true));
        let item = planning_item(row(
            Some("12 rue de Vaugirard"),
            None,
            None,
            Some("2026-03-11"),
        ));
        assert_eq!(item.address.as_deref(), Some("12 rue de Vaugirard"));
        assert_eq!(item.overdue, Some(false));
        let item = planning_item(row(None, None, None, None));
        assert_eq!((item.address, item.overdue), (None, None));
    }
}
