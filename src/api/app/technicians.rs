//! `/app/api/technicians…`: the Technicians screen. The list is the REST API
//! v2 roster (`api::wire::technicians::technician_list`); the standby rota and
//! the absences go through `services::technicians`. Every staff member
//! reads; only an administrator of the agency changes the rota or absences.
//! The technicians' records (`/technicians/records`, create, edit, take off
//! or put back on the roster) go through `services::technicians` too:
//! administrators change them.

use crate::domain::id::TechnicianId;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{delete, get, patch, post, put};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::technicians::{
    self as wire, EditTechnicianBody, NewTechnicianBody, TechnicianRecordWire, TechnicianRecords,
    TechnicianView, technician_list,
};
use crate::auth::staff_session::StaffSession;
use crate::clock;
use crate::domain::day;
use crate::error::AppResult;
use crate::principal::{self, Capability};
use crate::services::technicians::{self as service, RotaPage, RotaWeek};
use crate::state::AppState;
use crate::store::technicians::AbsenceDetail;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/technicians", get(list).post(create))
        .route("/technicians/records", get(records))
        .route("/technicians/{id}", patch(edit))
        .route("/technicians/{id}/deactivate", post(deactivate))
        .route("/technicians/{id}/reactivate", post(reactivate))
        .route("/technicians/rota", get(read_rota))
        .route("/technicians/rota/swap", post(swap_weeks))
        .route("/technicians/rota/replace", post(replace))
        .route("/technicians/rota/{monday}", put(set_week))
        .route(
            "/technicians/{id}/absences",
            get(list_absences).post(add_absence),
        )
        .route(
            "/technicians/{id}/absences/{absence_id}",
            delete(delete_absence),
        )
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TechniciansAnswer {
    technicians: Vec<TechnicianView>,
    /// The session may change the rota and the absences.
    can_edit: bool,
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<TechniciansAnswer>> {
    let technicians = technician_list(&state, &session.principal()).await?;
    Ok(Json(TechniciansAnswer {
        technicians,
        can_edit: principal::check(&session.account, Capability::EditRota).is_ok(),
    }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RotaQuery {
    from: Option<String>,
    weeks: Option<u32>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ShiftView {
    technician_id: String,
    technician_name: String,
    starts_at: String,
    ends_at: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WeekView {
    monday: String,
    starts_at: String,
    ends_at: String,
    technician_id: Option<String>,
    technician_name: Option<String>,
    complete: bool,
    /// The week has begun (it can no longer be swapped).
    started: bool,
    /// The week is over (it can no longer be changed).
    past: bool,
    shifts: Vec<ShiftView>,
}

impl WeekView {
    fn new(week: RotaWeek, now: DateTime<Utc>) -> Self {
        let (technician_id, technician_name) = week.holder.unzip();
        Self {
            monday: day::iso(week.monday),
            starts_at: clock::format_timestamp(week.starts),
            ends_at: clock::format_timestamp(week.ends),
            technician_id,
            technician_name,
            complete: week.complete,
            started: week.starts <= now,
            past: week.ends <= now,
            shifts: week
                .shifts
                .into_iter()
                .map(|shift| ShiftView {
                    technician_id: shift.technician_id,
                    technician_name: shift.technician_name,
                    starts_at: clock::format_timestamp(shift.starts),
                    ends_at: clock::format_timestamp(shift.ends),
                })
                .collect(),
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RotaAnswer {
    /// The Monday of the current rota week.
    current_week: String,
    weeks: Vec<WeekView>,
}

fn rota_answer(page: RotaPage, now: DateTime<Utc>) -> RotaAnswer {
    RotaAnswer {
        current_week: day::iso(page.current_week),
        weeks: page
            .weeks
            .into_iter()
            .map(|week| WeekView::new(week, now))
            .collect(),
    }
}

async fn read_rota(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<RotaQuery>,
) -> AppResult<Json<RotaAnswer>> {
    let page = service::read_rota(
        &state.store,
        &session.principal(),
        query.from.as_deref(),
        query.weeks,
    )
    .await?;
    Ok(Json(rota_answer(page, state.now())))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SetWeekBody {
    technician_id: String,
}

async fn set_week(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(monday): ApiPath<String>,
    ApiJson(body): ApiJson<SetWeekBody>,
) -> AppResult<Json<WeekView>> {
    let week = service::assign_week(
        &state.store,
        &session.principal(),
        &monday,
        &TechnicianId::new(body.technician_id.as_str()),
    )
    .await?;
    Ok(Json(WeekView::new(week, state.now())))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SwapBody {
    first: String,
    second: String,
}

async fn swap_weeks(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<SwapBody>,
) -> AppResult<Json<RotaAnswer>> {
    let page = service::swap(
        &state.store,
        &session.principal(),
        &body.first,
        &body.second,
    )
    .await?;
    Ok(Json(rota_answer(page, state.now())))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReplaceBody {
    technician_id: String,
    /// Paris local time, `YYYY-MM-DDTHH:MM`.
    from: String,
    to: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReplacedAnswer {
    technician_id: String,
    starts_at: String,
    ends_at: String,
}

async fn replace(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<ReplaceBody>,
) -> AppResult<Json<ReplacedAnswer>> {
    let (starts, ends) = service::replace(
        &state.store,
        &session.principal(),
        &TechnicianId::new(body.technician_id.as_str()),
        &body.from,
        &body.to,
    )
    .await?;
    Ok(Json(ReplacedAnswer {
        technician_id: body.technician_id,
        starts_at: clock::format_timestamp(starts),
        ends_at: clock::format_timestamp(ends),
    }))
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AbsenceView {
    id: String,
    starts_on: String,
    ends_on: String,
    reason: Option<String>,
}

impl From<AbsenceDetail> for AbsenceView {
    fn from(row: AbsenceDetail) -> Self {
        Self {
            id: row.id,
            starts_on: row.starts_on,
            ends_on: row.ends_on,
            reason: row.reason,
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AbsencesAnswer {
    /// Absences not over, and those of the last three months, by start.
    absences: Vec<AbsenceView>,
}

async fn list_absences(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<AbsencesAnswer>> {
    let rows = service::list_absences(
        &state.store,
        &session.principal(),
        &TechnicianId::new(id.as_str()),
    )
    .await?;
    Ok(Json(AbsencesAnswer {
        absences: rows.into_iter().map(AbsenceView::from).collect(),
    }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AbsenceBody {
    starts_on: String,
    ends_on: String,
    #[serde(default)]
    reason: String,
}

async fn add_absence(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<AbsenceBody>,
) -> AppResult<(StatusCode, Json<AbsenceView>)> {
    let row = service::record_absence(
        &state.store,
        &session.principal(),
        &TechnicianId::new(id.as_str()),
        &body.starts_on,
        &body.ends_on,
        &body.reason,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(AbsenceView::from(row))))
}

async fn delete_absence(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath((id, absence_id)): ApiPath<(String, String)>,
) -> AppResult<StatusCode> {
    service::remove_absence(
        &state.store,
        &session.principal(),
        &TechnicianId::new(id.as_str()),
        &absence_id,
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn records(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<TechnicianRecords>> {
    wire::technician_records(&state, &session.principal())
        .await
        .map(Json)
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewTechnicianBody>,
) -> AppResult<(StatusCode, Json<TechnicianRecordWire>)> {
    wire::technician_create(&state, &session.principal(), body)
        .await
        .map(|row| (StatusCode::CREATED, Json(row)))
}

async fn edit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<TechnicianId>,
    ApiJson(body): ApiJson<EditTechnicianBody>,
) -> AppResult<Json<TechnicianRecordWire>> {
    wire::technician_edit(&state, &session.principal(), &id, body)
        .await
        .map(Json)
}

async fn deactivate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<TechnicianId>,
) -> AppResult<Json<TechnicianRecordWire>> {
    wire::technician_set_active(&state, &session.principal(), &id, false)
        .await
        .map(Json)
}

async fn reactivate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<TechnicianId>,
) -> AppResult<Json<TechnicianRecordWire>> {
    wire::technician_set_active(&state, &session.principal(), &id, true)
        .await
        .map(Json)
}
