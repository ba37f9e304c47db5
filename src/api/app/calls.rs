//! `/app/api/calls…`: the breakdown calls screen. The board (calls by status,
//! newest first, paged per column, resolved ones of the last 24 hours), a
//! call with its timeline and what may be done next, assignment and status
//! changes (the operations shared with the REST API v2, `api::wire::calls`), a call taken by hand at the
//! agency, the equipment search of its dialog, and the live feed
//! (Server-Sent Events) that makes new calls appear without a reload.

use crate::domain::id::CallId;
use std::convert::Infallible;
use std::time::Duration as StdDuration;
use ts_rs::TS;

use crate::api::wire::contracts::CommitmentOut;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Duration;
use futures_util::stream::{self, Stream};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::calls::{self as wire, AssignBody, CallListEntry, CallRead, StatusBody};
use crate::api::wire::{Created, Page, PageQuery, Paging, RecordKind};
use crate::auth::staff_session::StaffSession;
use crate::clock;
use crate::domain::call::{self, CallStatus, ReportInput};
use crate::error::{ApiError, AppResult};
use crate::principal::Principal;
use crate::services::call_feed::CallEvent;
use crate::services::calls::{
    self as service, AgencyCallInput, CallQuery, Closing, HistoryEntry, Step, TechnicianChoices,
};
use crate::services::visits::building_address;
use crate::state::AppState;
use crate::store::calls::{ListFilter, StatusFilter};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/calls", get(column_page).post(create_call))
        .route("/calls/board", get(board))
        .route("/calls/events", get(events))
        .route("/calls/equipment", get(equipment_search))
        .route("/calls/{id}", get(detail))
        .route("/calls/{id}/assign", post(assign))
        .route("/calls/{id}/status", post(change_status))
        .route("/calls/{id}/acknowledge", post(acknowledge))
        .route("/calls/alerts", get(alerts))
        .route("/calls/notices", get(notices))
}

/// Resolved calls stay on the board this long after their resolution.
pub const RESOLVED_HOURS: i64 = 24;
/// Rows per column: 20 by default, 50 at most.
const DEFAULT_COLUMN_ROWS: u32 = 20;
const MAX_COLUMN_ROWS: u32 = 50;
/// Equipment offered by the search of the "new call" dialog.
const EQUIPMENT_CHOICES: u32 = 10;
/// A live stream ends after this long; the browser reconnects at once (and
/// the session is checked again, so a signed-out session stops receiving).
const STREAM_LIFETIME: StdDuration = StdDuration::from_secs(300);

// -- Board ------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
struct BoardQuery {
    limit: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ColumnQuery {
    statut: Option<String>,
    limit: Option<String>,
    page: Option<String>,
}

/// One column of the board: one page of the calls of a status.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct Column {
    #[ts(type = "CallStatus")]
    statut: &'static str,
    libelle: &'static str,
    total: i64,
    page: u32,
    limit: u32,
    results: Vec<BoardCard>,
}

/// A call of the board: the list's entry, and the commitments of the
/// contract that covered its lift (none without contract).
#[derive(Serialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BoardCard {
    #[serde(flatten)]
    entry: CallListEntry,
    /// Deadlines, time late and penalty (`services::contract_response`).
    commitment: Option<CommitmentOut>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Board {
    /// Resolved calls shown: those resolved in the last this many hours.
    resolved_since_hours: i64,
    columns: Vec<Column>,
}

fn column_paging(limit: Option<String>, page: Option<String>) -> AppResult<Paging> {
    let paging = Paging::from_query(&PageQuery { limit, page })?;
    if paging.limit > MAX_COLUMN_ROWS {
        return Err(ApiError::unprocessable(format!(
            "Le paramètre « limit » doit être compris entre 1 et {MAX_COLUMN_ROWS}."
        )));
    }
    Ok(paging)
}

async fn column(
    state: &AppState,
    p: &Principal,
    status: CallStatus,
    paging: Paging,
) -> AppResult<Column> {
    let since = clock::format_timestamp(state.now() - Duration::hours(RESOLVED_HOURS));
    let query = CallQuery {
        filter: ListFilter {
            status: StatusFilter::Is(status.as_str().to_owned()),
            equipment_id: None,
            resolved_since: (status == CallStatus::Resolue).then_some(since),
            // The calls still waiting: the longest wait on top, across the
            // column's pages; the resolved ones: the latest first.
            oldest_first: status != CallStatus::Resolue,
        },
        words: Vec::new(),
    };
    let (total, items) =
        service::list(&state.store, p, query, paging.limit, paging.offset()).await?;
    let mut commitments = crate::services::contract_response::of_calls(
        &state.store,
        p,
        items.iter().map(|item| item.row.id.clone()).collect(),
    )
    .await?;
    Ok(Column {
        statut: status.as_str(),
        libelle: status.label(),
        total,
        page: paging.page,
        limit: paging.limit,
        results: items
            .into_iter()
            .map(|item| {
                let commitment = commitments
                    .remove(&item.row.id)
                    .as_ref()
                    .map(CommitmentOut::from);
                BoardCard {
                    entry: CallListEntry::new(item, &state.base_url),
                    commitment,
                }
            })
            .collect(),
    })
}

async fn board(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<BoardQuery>,
) -> AppResult<Json<Board>> {
    let principal = session.principal();
    principal.agency()?;
    let limit = Some(
        query
            .limit
            .unwrap_or_else(|| DEFAULT_COLUMN_ROWS.to_string()),
    );
    let paging = column_paging(limit, None)?;
    let mut columns = Vec::with_capacity(CallStatus::ALL.len());
    for &status in CallStatus::ALL {
        columns.push(column(&state, &principal, status, paging).await?);
    }
    Ok(Json(Board {
        resolved_since_hours: RESOLVED_HOURS,
        columns,
    }))
}

async fn column_page(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ColumnQuery>,
) -> AppResult<Page<BoardCard>> {
    let principal = session.principal();
    principal.agency()?;
    let raw = query.statut.unwrap_or_default();
    let status = CallStatus::parse(&raw).ok_or_else(|| {
        ApiError::unprocessable(format!(
            "Le paramètre « statut » doit valoir {} (reçu : « {raw} »).",
            CallStatus::CODES.join(", ")
        ))
    })?;
    let limit = Some(
        query
            .limit
            .unwrap_or_else(|| DEFAULT_COLUMN_ROWS.to_string()),
    );
    let paging = column_paging(limit, query.page)?;
    let column = column(&state, &principal, status, paging).await?;
    Ok(Page {
        total: column.total,
        page: column.page,
        limit: column.limit,
        results: column.results,
    })
}

// -- Detail -----------------------------------------------------------------

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ActorView {
    /// `centre`, `personnel`, `jeton`, `partenaire`, `cli`, `systeme`.
    kind: &'static str,
    name: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct TimelineEntry {
    at: String,
    /// `recu`, `affecte`, or the status reached (`ouverte`, `en_route`,
    /// `sur_place`, `a_l_arret`, `resolue`).
    step: &'static str,
    label: String,
    technician: Option<String>,
    by: Option<ActorView>,
}

impl From<HistoryEntry> for TimelineEntry {
    fn from(entry: HistoryEntry) -> Self {
        let (step, label) = match entry.step {
            Step::Received => ("recu", "Appel reçu".to_owned()),
            Step::Assigned => (
                "affecte",
                match &entry.technician {
                    Some(name) => format!("Affecté à {name}"),
                    None => "Technicien affecté".to_owned(),
                },
            ),
            Step::Status(status) => (
                status.as_str(),
                match status {
                    CallStatus::Ouverte => "Remis en attente (Ouverte)".to_owned(),
                    CallStatus::EnRoute => "Technicien en route".to_owned(),
                    CallStatus::SurPlace => "Technicien sur place".to_owned(),
                    CallStatus::ALArret => "Appareil laissé à l'arrêt".to_owned(),
                    CallStatus::Resolue => "Résolu : remis en service".to_owned(),
                },
            ),
        };
        Self {
            at: entry.at,
            step,
            label,
            technician: entry.technician,
            by: entry.by.map(|by| ActorView {
                kind: by.kind,
                name: by.name,
            }),
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct NextStatus {
    #[ts(type = "CallStatus")]
    statut: &'static str,
    libelle: &'static str,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct TechnicianChoice {
    id: String,
    name: String,
    sectors: Option<String>,
    on_call: bool,
    open_calls: i64,
    /// The one to choose first: on standby now (the first of them).
    suggested: bool,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct UnavailableTechnician {
    id: String,
    name: String,
    reason: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct Technicians {
    /// Who may take the call: on standby first, then by name.
    choices: Vec<TechnicianChoice>,
    /// Absent or resting: not offered, refused by the server.
    unavailable: Vec<UnavailableTechnician>,
}

impl From<TechnicianChoices> for Technicians {
    fn from(choices: TechnicianChoices) -> Self {
        let mut suggested = false;
        Self {
            choices: choices
                .available
                .into_iter()
                .map(|t| {
                    let first_on_call = t.on_call && !suggested;
                    suggested |= first_on_call;
                    TechnicianChoice {
                        id: t.id,
                        name: t.name,
                        sectors: t.sectors,
                        on_call: t.on_call,
                        open_calls: t.open_calls,
                        suggested: first_on_call,
                    }
                })
                .collect(),
            unavailable: choices
                .unavailable
                .into_iter()
                .map(|(t, reason)| UnavailableTechnician {
                    id: t.id,
                    name: t.name,
                    reason,
                })
                .collect(),
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CallDetail {
    call: CallRead,
    /// The type in plain words (« Personne bloquée »).
    type_label: &'static str,
    /// The equipment's building: its id (its page), name, then address in
    /// one line.
    building_id: Option<String>,
    building: Option<String>,
    address: Option<String>,
    timeline: Vec<TimelineEntry>,
    /// The statuses the call may move to now (the state machine, and a
    /// technician assigned where one is needed).
    next_statuses: Vec<NextStatus>,
    technicians: Technicians,
    /// The closing report, once closed from the screens.
    report: Option<ReportOut>,
    /// UTC timestamp: its trapped-person alert taken into account.
    acknowledged_at: Option<String>,
}

/// A closing report as the screens read it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReportOut {
    cause: String,
    work: String,
    parts: Option<String>,
    /// UTC timestamp.
    back_in_service_at: Option<String>,
}

impl From<crate::store::calls::CallReport> for ReportOut {
    fn from(r: crate::store::calls::CallReport) -> Self {
        ReportOut {
            cause: r.cause,
            work: r.work,
            parts: r.parts,
            back_in_service_at: r.back_in_service_at,
        }
    }
}

async fn detail(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<CallDetail>> {
    let service::CallDetail {
        call: row,
        history: timeline,
        choices,
        equipment,
    } = service::detail(
        &state.store,
        &session.principal(),
        &CallId::new(id.as_str()),
    )
    .await?;
    let (status, call_type) = (row.status, row.call_type);
    let assigned = row.technician_id.is_some();
    let next_statuses = CallStatus::ALL
        .iter()
        .copied()
        .filter(|&to| {
            call::transition(status, to)
                .is_ok_and(|change| change.check_technician(assigned).is_ok())
        })
        .map(|to| NextStatus {
            statut: to.as_str(),
            libelle: to.label(),
        })
        .collect();
    let building = equipment.and_then(|e| e.building);
    let (report, acknowledged_at) = (
        row.report.clone().map(ReportOut::from),
        row.acknowledged_at.clone(),
    );
    Ok(Json(CallDetail {
        report,
        acknowledged_at,
        type_label: call_type.label(),
        building_id: building.as_ref().map(|b| b.id.to_string()),
        building: building.as_ref().and_then(|b| b.name.clone()),
        address: building.as_ref().and_then(|b| {
            building_address(
                Some(b.address.as_str()),
                b.postal_code.as_deref(),
                b.city.as_deref(),
            )
        }),
        timeline: timeline.into_iter().map(TimelineEntry::from).collect(),
        next_statuses,
        technicians: Technicians::from(choices),
        call: CallRead::new(row, &state.base_url),
    }))
}

// -- Changes ----------------------------------------------------------------

async fn assign(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<AssignBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = wire::assign(&state, &session.principal(), id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// A closing report as the screen sends it.
#[derive(Deserialize, Default, TS)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ReportBody {
    cause: Option<String>,
    work: Option<String>,
    parts: Option<String>,
    /// `AAAA-MM-JJTHH:MM`, Paris time; now when absent.
    back_in_service_at: Option<String>,
}

/// A status change from the screen: closing (`resolue`) needs the report.
#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub(crate) struct AppStatusBody {
    statut: String,
    #[serde(default)]
    #[ts(optional)]
    report: Option<ReportBody>,
}

async fn change_status(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<AppStatusBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let report = body.report.map(|r| ReportInput {
        cause: r.cause,
        work: r.work,
        parts: r.parts,
        back_in_service_at: r.back_in_service_at,
    });
    let created = wire::change_status(
        &state,
        &session.principal(),
        id,
        StatusBody {
            statut: body.statut,
        },
        Closing::FromScreens(report),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// A trapped-person alert still to take into account.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AlertOut {
    id: String,
    reference: String,
    equipment_id: String,
    number: Option<String>,
    /// UTC timestamp.
    received_at: String,
}

/// The agency's trapped-person alerts not taken into account: every
/// signed-in screen shows them until someone does (they survive a reload).
async fn alerts(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<Vec<AlertOut>>> {
    let rows = service::alerts(&state.store, &session.principal()).await?;
    Ok(Json(
        rows.into_iter()
            .map(|a| AlertOut {
                id: a.id.into_string(),
                reference: a.reference,
                equipment_id: a.equipment_id.into_string(),
                number: a.number,
                received_at: a.received_at,
            })
            .collect(),
    ))
}

async fn acknowledge(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<Created>> {
    service::acknowledge(
        &state.store,
        &state.call_feed,
        &session.principal(),
        &CallId::new(id.as_str()),
    )
    .await?;
    Ok(Json(Created::new(RecordKind::Call, &state.base_url, &id)))
}

/// A call taken by phone at the agency: the call-center API's body without
/// the reference (generated).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewCallBody {
    /// The equipment's number; or `equipmentId`, the equipment chosen.
    #[serde(default)]
    equipement: String,
    #[serde(default, rename = "equipmentId")]
    equipment_id: Option<String>,
    #[serde(rename = "type")]
    call_type: String,
    description: String,
    #[serde(default)]
    appelant: Option<String>,
    #[serde(default, rename = "recuLe")]
    recu_le: Option<String>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NewCall {
    id: String,
    reference: String,
    #[ts(type = "CallStatus")]
    statut: &'static str,
    libelle: &'static str,
    link: String,
}

async fn create_call(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewCallBody>,
) -> AppResult<(StatusCode, Json<NewCall>)> {
    let opened = service::open_at_agency(
        &state.store,
        &state.call_feed,
        &session.principal(),
        AgencyCallInput {
            equipment: body.equipement,
            equipment_id: body.equipment_id,
            call_type: body.call_type,
            description: body.description,
            caller: body.appelant,
            received_at: body.recu_le,
        },
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(NewCall {
            link: RecordKind::Call.link(&opened.id),
            id: opened.id,
            reference: opened.reference,
            statut: CallStatus::Ouverte.as_str(),
            libelle: CallStatus::Ouverte.label(),
        }),
    ))
}

// -- Notices of a desktop connected to this server ---------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct NoticesQuery {
    /// The `cursor` of the previous answer; none on the first read.
    after: Option<i64>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct NoticeOut {
    /// The call opened.
    call_id: String,
    reference: String,
    /// The system notification's title and text, in French.
    title: String,
    body: String,
    /// A trapped person.
    urgent: bool,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct NoticesOut {
    /// Where the next read starts (`?after=`).
    cursor: i64,
    notices: Vec<NoticeOut>,
}

/// `GET /app/api/calls/notices?after=N`: the calls call centers opened in
/// the session's agency since the previous read, as the desktop app shows
/// them as system notifications when it is connected to the agency's
/// server (read from the database: the same on every server of a shared
/// one). Without `after`: no notice, and the cursor to start from.
async fn notices(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<NoticesQuery>,
) -> AppResult<Json<NoticesOut>> {
    if query.after.is_some_and(|after| after < 0) {
        return Err(ApiError::unprocessable(
            "Le paramètre « after » doit être un nombre positif (le « cursor » de la lecture précédente).",
        ));
    }
    let (cursor, notices) =
        service::notices_after(&state.store, &session.principal(), query.after).await?;
    Ok(Json(NoticesOut {
        cursor,
        notices: notices
            .into_iter()
            .filter_map(|notice| {
                let (title, body, urgent) = (notice.title(), notice.body(), notice.urgent());
                match notice {
                    crate::notices::Notice::CallReceived { id, reference, .. } => Some(NoticeOut {
                        call_id: id,
                        reference,
                        title,
                        body,
                        urgent,
                    }),
                    _ => None,
                }
            })
            .collect(),
    }))
}

// -- Equipment search -------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
struct EquipmentQuery {
    q: Option<String>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct EquipmentChoice {
    id: String,
    number: Option<String>,
    building: Option<String>,
    address: Option<String>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EquipmentChoices {
    /// Equipment matching, across the park.
    total: i64,
    /// The first ones, by number.
    results: Vec<EquipmentChoice>,
}

async fn equipment_search(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<EquipmentQuery>,
) -> AppResult<Json<EquipmentChoices>> {
    let (total, rows) = service::equipment_choices(
        &state.store,
        &session.principal(),
        query.q.as_deref(),
        EQUIPMENT_CHOICES,
    )
    .await?;
    Ok(Json(EquipmentChoices {
        total,
        results: rows
            .into_iter()
            .map(|row| EquipmentChoice {
                id: row.id.into_string(),
                number: row.identity.number,
                address: row.building.as_ref().and_then(|b| {
                    building_address(
                        Some(b.address.as_str()),
                        b.postal_code.as_deref(),
                        b.city.as_deref(),
                    )
                }),
                building: row.building.and_then(|b| b.name),
            })
            .collect(),
    }))
}

// -- Live feed --------------------------------------------------------------

/// `GET /calls/events`: Server-Sent Events of the session's agency. Each
/// change of a call is an event `appel` whose data is the JSON of
/// [`CallEvent`] (`change`, `id`, `reference`, `statut`, `type`, `urgence`);
/// `resync` says events were missed (reload the board). The stream ends
/// after [`STREAM_LIFETIME`] or when the server stops; the browser's
/// EventSource reconnects by itself.
async fn events(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let agency_id = session.require_agency()?.id.clone();
    let receiver = state.call_feed.subscribe();
    let closing = state.call_feed.closing();
    let deadline = tokio::time::Instant::now() + STREAM_LIFETIME;
    let greeting = Event::default()
        .event("pret")
        .retry(StdDuration::from_secs(2))
        .data("{}");
    let first = stream::once(async move { Ok(greeting) });
    let rest = stream::unfold(
        (receiver, closing, agency_id),
        move |(mut receiver, mut closing, agency_id)| async move {
            loop {
                if *closing.borrow() {
                    return None;
                }
                let next = tokio::select! {
                    received = receiver.recv() => received,
                    _ = closing.changed() => return None,
                    _ = tokio::time::sleep_until(deadline) => return None,
                };
                let event = match next {
                    Ok(event) if agency_id == event.agency_id => sse_event(&event),
                    Ok(_) => continue,
                    Err(RecvError::Lagged(_)) => Event::default().event("resync").data("{}"),
                    Err(RecvError::Closed) => return None,
                };
                return Some((Ok(event), (receiver, closing, agency_id)));
            }
        },
    );
    Ok(Sse::new(stream::StreamExt::chain(first, rest)).keep_alive(KeepAlive::default()))
}

fn sse_event(event: &CallEvent) -> Event {
    let data = serde_json::to_string(event).unwrap_or_else(|_| "{}".to_owned());
    Event::default().event("appel").data(data)
}
