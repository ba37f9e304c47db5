//! `/app/api/planning…` and `/app/api/visits…`: the weekly planning screen.
//! The week's entries, the visit's transitions and its rescheduling go
//! through the functions shared with the REST API v2 (`api::wire::planning`,
//! `api::wire::visits`); creating a visit, the maintenance interval and the
//! proposal of next week through `services::visits` / `services::planning`.
//!
//! Rights: every staff member of the agency plans, moves, starts and closes
//! visits and saves a proposal; changing the maintenance interval of an
//! equipment is an administrator's (a regulatory setting).

use crate::domain::id::VisitId;
use crate::domain::id::{BuildingId, EquipmentId, TechnicianId};
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::wire::Page;
use crate::api::wire::equipment::{EquipmentListEntry, EquipmentListQuery, equipment_list};
use crate::api::wire::planning::{DutyOut, PlanningEntry};
use crate::api::wire::visits::{self as visit_wire, CompleteBody, RescheduleBody, StartBody};
use crate::auth::staff_session::StaffSession;
use crate::clock;
use crate::domain::day;
use crate::error::AppResult;
use crate::services::planning::{self as plan, ProposalLine, SaveLine, WeekTechnician};
use crate::services::visits::{self, CreateInput, VisitDetail, building_address};
use crate::state::AppState;
use crate::store::equipment::PlanRow;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/planning", get(week))
        .route("/planning/proposal", get(proposal).post(save_proposal))
        .route("/planning/equipment", get(search_equipment))
        .route("/planning/equipment/{id}", get(equipment_plan))
        .route("/planning/equipment/{id}/interval", put(set_interval))
        .route("/visits", post(create_visit))
        .route("/visits/late", get(pending_visits))
        .route("/visits/{id}", get(read_visit))
        .route("/visits/{id}/move", post(move_visit))
        .route("/visits/{id}/start", post(start_visit))
        .route("/visits/{id}/complete", post(complete_visit))
        .route("/visits/{id}/cancel-start", post(cancel_start))
}

// -- The week ---------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
struct DayQuery {
    day: Option<String>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct TechnicianOut {
    id: String,
    name: String,
    sectors: Option<String>,
    daily_capacity: i64,
    active: bool,
    /// Days of the week the technician is absent.
    absent_days: Vec<String>,
    /// Days of the week touched by a safety rest after standby duty.
    rest_days: Vec<String>,
}

impl From<WeekTechnician> for TechnicianOut {
    fn from(t: WeekTechnician) -> Self {
        Self {
            id: t.row.id.into_string(),
            name: t.row.name,
            sectors: t.row.sectors,
            daily_capacity: t.row.daily_capacity,
            active: t.row.active,
            absent_days: t.absent.into_iter().map(day::iso).collect(),
            rest_days: t.resting.into_iter().map(day::iso).collect(),
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WeekOut {
    /// Monday to Sunday, `YYYY-MM-DD`.
    days: Vec<String>,
    today: String,
    technicians: Vec<TechnicianOut>,
    entries: Vec<WeekEntry>,
}

/// An entry of the week: the REST API's planning entry, and the building
/// the screen links to (the spec's entry has no such field).
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WeekEntry {
    #[serde(flatten)]
    entry: PlanningEntry,
    /// The equipment's building (its page `/immeubles/<id>`).
    building_id: Option<String>,
    /// The periodic duties of its contract due at the visit, or done at it.
    duties: Vec<DutyOut>,
}

impl WeekEntry {
    fn of(item: &visits::PlanningItem, duties: Option<Vec<visits::DutyMark>>) -> Self {
        Self {
            building_id: item.building_id.clone(),
            duties: duties
                .unwrap_or_default()
                .iter()
                .map(DutyOut::from)
                .collect(),
            entry: PlanningEntry::from(item),
        }
    }
}

async fn week(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<DayQuery>,
) -> AppResult<Json<WeekOut>> {
    let today = clock::paris_local(state.now()).date();
    let day = visits::day_parameter(query.day.as_deref())?.unwrap_or(today);
    let mut duties = visits::duties_of_week(&state.store, &session.principal(), day).await?;
    let entries: Vec<WeekEntry> = visits::planning_for(
        &state.store,
        &session.principal(),
        Some(&day::iso(day)),
        None,
    )
    .await?
    .iter()
    .map(|item| WeekEntry::of(item, duties.remove(&item.id)))
    .collect();
    let mut carrying: Vec<String> = entries
        .iter()
        .filter_map(|e| e.entry.technician_id.clone())
        .collect();
    carrying.sort_unstable();
    carrying.dedup();
    let technicians = plan::week_staff(&state.store, &session.principal(), day, carrying).await?;
    Ok(Json(WeekOut {
        days: plan::week_days(day).into_iter().map(day::iso).collect(),
        today: day::iso(today),
        technicians: technicians.into_iter().map(TechnicianOut::from).collect(),
        entries,
    }))
}

// -- Late and due-soon visits -------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PendingQuery {
    technician: Option<String>,
    sector: Option<String>,
    client: Option<String>,
    days: Option<String>,
}

/// A record named in a row: its id (an equipment's, a building's, a client's
/// `CLI-…`, a technician's) and its name.
#[derive(Serialize, TS)]
struct Named {
    id: String,
    name: Option<String>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct PendingVisitOut {
    id: String,
    #[ts(type = "VisitStatus")]
    status: String,
    status_label: String,
    planned_for: String,
    deadline: Option<String>,
    /// Planned on a past day and not done, or past its deadline.
    late: bool,
    /// Days since the deadline or the planned day (the earlier), when late.
    days_late: i64,
    planned_after_deadline: bool,
    /// The equipment: its id and number.
    equipment: Named,
    building: Option<Named>,
    /// The building's address on one line.
    address: Option<String>,
    client: Option<Named>,
    technician: Option<Named>,
}

/// The late and due-soon visits, and how many of each.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PendingVisits {
    today: String,
    /// Due within this many days.
    days: i64,
    late: usize,
    due_soon: usize,
    visits: Vec<PendingVisitOut>,
}

async fn pending_visits(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<PendingQuery>,
) -> AppResult<Json<PendingVisits>> {
    let days = match query.days.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(text.parse::<i64>().map_err(|_| {
            crate::error::AppError::unprocessable(format!(
                "Le paramètre « days » doit être un nombre de jours de 0 à {} (reçu : « {text} »).",
                visits::MAX_DUE_SOON_DAYS
            ))
        })?),
    };
    let filter = visits::PendingFilter {
        technician: query.technician,
        sector: query.sector,
        client: query.client,
        days,
    };
    let list = visits::pending(&state.store, &session.principal(), filter).await?;
    let late = list.iter().filter(|v| v.late).count();
    Ok(Json(PendingVisits {
        today: day::iso(clock::paris_local(state.store.now()).date()),
        days: days.unwrap_or(visits::DUE_SOON_DAYS),
        late,
        due_soon: list.len() - late,
        visits: list
            .into_iter()
            .map(|v| {
                let row = v.row;
                PendingVisitOut {
                    id: row.id.into_string(),
                    status: row.status.as_str().to_owned(),
                    status_label: row.status.label().to_owned(),
                    address: building_address(
                        row.address.as_deref(),
                        row.postal_code.as_deref(),
                        row.city.as_deref(),
                    ),
                    planned_for: row.planned_for,
                    deadline: row.deadline,
                    late: v.late,
                    days_late: v.days_late,
                    planned_after_deadline: v.planned_after_deadline,
                    equipment: Named {
                        id: row.equipment_id.to_string(),
                        name: row.number,
                    },
                    building: row.building_id.map(|id| Named {
                        id,
                        name: row.building,
                    }),
                    client: row.client_ref.map(|id| Named {
                        id,
                        name: row.client,
                    }),
                    technician: row.technician_id.map(|id| Named {
                        id: id.into_string(),
                        name: row.technician,
                    }),
                }
            })
            .collect(),
    }))
}

// -- Proposal ---------------------------------------------------------------

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ProposalLineOut {
    equipment_id: String,
    number: Option<String>,
    building: Option<String>,
    address: Option<String>,
    deadline: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    technician_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    day: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    overdue: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    reason: Option<String>,
    /// The equipment's late visit that this line moves into the week (to
    /// send back as `visitId` when saving), with its current day; absent
    /// for a new visit.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    late_visit: Option<LateVisitOut>,
    /// The periodic duties of its contract the visit carries.
    duties: Vec<DutyOut>,
}

/// A late visit the proposal moves.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct LateVisitOut {
    id: String,
    /// Its current day (`AAAA-MM-JJ`).
    planned_for: String,
}

impl From<ProposalLine> for ProposalLineOut {
    fn from(line: ProposalLine) -> Self {
        Self {
            late_visit: line.late_visit.map(|(id, day)| LateVisitOut {
                id,
                planned_for: day::iso(day),
            }),
            overdue: line.day.map(|day| day > line.deadline),
            duties: line.duties.iter().map(DutyOut::from).collect(),
            equipment_id: line.equipment_id,
            number: line.number,
            building: line.building,
            address: line.address,
            deadline: day::iso(line.deadline),
            technician_id: line.technician_id,
            day: line.day.map(day::iso),
            reason: line.reason,
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProposalOut {
    days: Vec<String>,
    visits: Vec<ProposalLineOut>,
    unplaced: Vec<ProposalLineOut>,
    technicians: Vec<TechnicianOut>,
    /// Visits already planned that week, by `"<technicianId>|<AAAA-MM-JJ>"`.
    existing_loads: std::collections::BTreeMap<String, u32>,
}

async fn proposal(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<DayQuery>,
) -> AppResult<Json<ProposalOut>> {
    let proposal = plan::proposal(&state.store, &session.principal(), query.day.as_deref()).await?;
    Ok(Json(ProposalOut {
        days: plan::week_days(proposal.monday)
            .into_iter()
            .map(day::iso)
            .collect(),
        visits: proposal.visits.into_iter().map(Into::into).collect(),
        unplaced: proposal.unplaced.into_iter().map(Into::into).collect(),
        technicians: proposal.technicians.into_iter().map(Into::into).collect(),
        existing_loads: proposal
            .existing
            .into_iter()
            .map(|(tech, day, count)| (format!("{tech}|{}", day::iso(day)), count))
            .collect(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SaveLineIn {
    equipment_id: String,
    technician_id: String,
    day: String,
    /// The late visit moved by this line (`lateVisit.id` of the proposal).
    #[serde(default)]
    visit_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SaveBody {
    visits: Vec<SaveLineIn>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Saved {
    created: usize,
    ids: Vec<String>,
}

async fn save_proposal(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<SaveBody>,
) -> AppResult<(StatusCode, Json<Saved>)> {
    let lines: Vec<SaveLine> = body
        .visits
        .into_iter()
        .map(|l| SaveLine {
            equipment_id: l.equipment_id,
            technician_id: l.technician_id,
            day: l.day,
            visit_id: l.visit_id,
        })
        .collect();
    let ids = plan::save(&state.store, &session.principal(), lines).await?;
    Ok((
        StatusCode::CREATED,
        Json(Saved {
            created: ids.len(),
            ids: ids.into_iter().map(VisitId::into_string).collect(),
        }),
    ))
}

// -- Equipment ----------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
struct SearchQuery {
    q: Option<String>,
}

/// Ten equipment of the agency matching `q` (the create dialog's picker),
/// through the REST API's search.
async fn search_equipment(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> AppResult<Page<EquipmentListEntry>> {
    let page = equipment_list(
        &state,
        &session.principal(),
        EquipmentListQuery {
            q: query.q,
            limit: Some("10".to_owned()),
            page: None,
        },
    )
    .await?;
    Ok(page)
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EquipmentPlanOut {
    id: String,
    number: Option<String>,
    #[serde(rename = "type")]
    equipment_type: Option<String>,
    maintenance_contract: Option<String>,
    /// The equipment is in the maintenance plan (`parc` contract).
    in_plan: bool,
    visit_interval_days: i64,
    plan_start_on: String,
    last_done_on: Option<String>,
    /// Last done visit (or plan start) plus the interval; null outside the plan.
    deadline: Option<String>,
    /// Day of the visit not done yet, if any.
    open_visit_on: Option<String>,
}

impl From<PlanRow> for EquipmentPlanOut {
    fn from(row: PlanRow) -> Self {
        Self {
            deadline: plan::deadline_of(&row).map(day::iso),
            in_plan: row.maintenance_contract.as_deref() == Some("parc"),
            id: row.id.into_string(),
            number: row.number,
            equipment_type: row.equipment_type,
            maintenance_contract: row.maintenance_contract,
            visit_interval_days: row.visit_interval_days,
            plan_start_on: row.plan_start_on,
            last_done_on: row.last_done_on,
            open_visit_on: row.open_visit_on,
        }
    }
}

async fn equipment_plan(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<EquipmentPlanOut>> {
    let row = plan::equipment_plan(
        &state.store,
        &session.principal(),
        &EquipmentId::new(id.as_str()),
    )
    .await?;
    Ok(Json(row.into()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct IntervalBody {
    days: i64,
}

async fn set_interval(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<IntervalBody>,
) -> AppResult<Json<EquipmentPlanOut>> {
    let row = plan::set_interval(
        &state.store,
        &session.principal(),
        &EquipmentId::new(id.as_str()),
        body.days,
    )
    .await?;
    Ok(Json(row.into()))
}

// -- One visit ------------------------------------------------------------------

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VisitOut {
    id: String,
    #[ts(type = "VisitStatus")]
    status: String,
    planned_for: String,
    deadline: Option<String>,
    overdue: Option<bool>,
    technician_id: Option<String>,
    equipment_id: String,
    number: Option<String>,
    /// The equipment's building (its page `/immeubles/<id>`).
    building_id: Option<String>,
    building: Option<String>,
    address: Option<String>,
    /// UTC timestamps (ISO 8601).
    arrived_at: Option<String>,
    left_at: Option<String>,
    done_on: Option<String>,
    signed_by: Option<String>,
    observations: Option<String>,
    /// The periodic duties of its contract due at the visit (to tick when
    /// closing it), or done at it.
    duties: Vec<DutyOut>,
}

async fn visit_out(state: &AppState, session: &StaffSession, id: VisitId) -> AppResult<VisitOut> {
    let VisitDetail {
        visit: row,
        equipment,
        overdue,
        duties,
    } = visits::detail(&state.store, &session.principal(), &id).await?;
    Ok(VisitOut {
        duties: duties.iter().map(DutyOut::from).collect(),
        number: equipment.as_ref().and_then(|e| e.number.clone()),
        building_id: equipment
            .as_ref()
            .and_then(|e| e.building_id.clone().map(BuildingId::into_string)),
        building: equipment.as_ref().and_then(|e| e.building.clone()),
        address: equipment.as_ref().and_then(|e| {
            building_address(
                e.address.as_deref(),
                e.postal_code.as_deref(),
                e.city.as_deref(),
            )
        }),
        overdue,
        id: row.id.into_string(),
        status: row.status.as_str().to_owned(),
        planned_for: row.planned_for,
        deadline: row.deadline,
        technician_id: row.technician_id.map(TechnicianId::into_string),
        equipment_id: row.equipment_id.into_string(),
        arrived_at: row.arrived_at,
        left_at: row.left_at,
        done_on: row.done_on,
        signed_by: row.signed_by,
        observations: row.observations,
    })
}

async fn read_visit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<Json<VisitOut>> {
    Ok(Json(visit_out(&state, &session, id).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CreateBody {
    equipment_id: String,
    technician_id: Option<String>,
    planned_for: String,
}

async fn create_visit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<CreateBody>,
) -> AppResult<(StatusCode, Json<VisitOut>)> {
    let input = CreateInput {
        equipment_id: body.equipment_id,
        technician_id: body.technician_id,
        planned_for: body.planned_for,
    };
    let id = visits::create(&state.store, &session.principal(), input).await?;
    Ok((
        StatusCode::CREATED,
        Json(visit_out(&state, &session, id).await?),
    ))
}

async fn move_visit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<RescheduleBody>,
) -> AppResult<Json<VisitOut>> {
    visit_wire::reschedule(&state, &session.principal(), id.clone(), body).await?;
    Ok(Json(visit_out(&state, &session, id).await?))
}

async fn start_visit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
    OptionalJson(body): OptionalJson<StartBody>,
) -> AppResult<Json<VisitOut>> {
    visit_wire::start(&state, &session.principal(), id.clone(), body).await?;
    Ok(Json(visit_out(&state, &session, id).await?))
}

async fn complete_visit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<CompleteBody>,
) -> AppResult<Json<VisitOut>> {
    visit_wire::complete(&state, &session.principal(), id.clone(), body).await?;
    Ok(Json(visit_out(&state, &session, id).await?))
}

async fn cancel_start(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<Json<VisitOut>> {
    visit_wire::cancel_start(&state, &session.principal(), id.clone()).await?;
    Ok(Json(visit_out(&state, &session, id).await?))
}
