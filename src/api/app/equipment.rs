//! `/app/api/equipment…`: the Equipment screen. The park (paged, searched and
//! filtered in SQL), an equipment's page (identity, technical data by
//! component with units, knowledge rate and what is missing to raise it,
//! recent visits, calls, surveys and quotes, downtime over 12 months and
//! repeat breakdowns), its corrections and its maintenance logbook.
//!
//! Identity corrections go through `api::wire::equipment::identity_correction`
//! (the REST `PATCH /equipment/{id}/identity`), technical data through
//! `services::technical_data` (the rules of `PATCH /equipment/{id}`), the
//! repair quote through `services::quotes::repair_quote`.
//! Like the REST API, every staff member of the agency reads and corrects.
//! A new equipment (`POST /equipment`, `services::equipment::create`, the
//! operation the imports and the demo use) and a move to another client
//! (`POST /equipment/{id}/client`) are every staff member's too.

use crate::domain::id::EquipmentId;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::clients::{ClientListQuery, client_list};
use crate::api::wire::equipment::{IdentityBody, IdentityView, identity_correction};
use crate::api::wire::external::ExternalBuilding;
use crate::api::wire::{PageQuery, Paging};
use crate::auth::staff_session::StaffSession;
use crate::clock;
use crate::domain::call::{CallStatus, CallType};
use crate::domain::downtime::{self, CallSpan};
use crate::domain::knowledge::{self, KnowledgeBand};
use crate::domain::visit::VisitStatus;
use crate::error::{ApiError, AppResult};
use crate::principal::Principal;
use crate::services::equipment::NewEquipment;
use crate::services::equipment::{
    self as equipment_service, EQUIPMENT_TYPES, EquipmentPageData, LogbookData,
    MAINTENANCE_CONTRACTS,
};
use crate::services::search::search_term;
use crate::services::sheet::{component_label, equipment_type_label};
use crate::services::{quotes, technical_data};
use crate::state::AppState;
use crate::store::calls::EquipmentCallRow;
use crate::store::equipment::IdentityRow;
use crate::store::equipment::ParkFilter;
use crate::store::quotes::EquipmentQuoteRow;
use crate::store::surveys::EquipmentSurveyRow;
use crate::store::technical_fields::ValueType;
use crate::store::visits::EquipmentVisitRow;
use crate::text::fold;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/equipment", get(park).post(create))
        .route("/equipment/clients", get(clients))
        .route("/equipment/{id}", get(page))
        .route("/equipment/{id}/identity", patch(correct_identity))
        .route("/equipment/{id}/client", post(move_to_client))
        .route("/equipment/{id}/archive", post(archive))
        .route("/equipment/{id}/restore", post(restore))
        .route("/equipment/{id}/technical", patch(update_technical))
        .route("/equipment/{id}/repair-quote", post(repair_quote))
        .route("/equipment/{id}/logbook", get(logbook))
}

fn type_label(code: Option<&str>) -> Option<String> {
    code.map(|c| equipment_type_label(c).to_owned())
}

// -- The park -----------------------------------------------------------------

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ParkQuery {
    q: Option<String>,
    #[serde(rename = "type")]
    equipment_type: Option<String>,
    client: Option<String>,
    /// A building's id: its equipment (the building's page).
    building: Option<String>,
    contract: Option<String>,
    knowledge: Option<String>,
    /// `active` (the default: the park), `archived` or `all`.
    archived: Option<String>,
    pub(crate) limit: Option<String>,
    pub(crate) page: Option<String>,
}

fn quoted(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| format!("« {v} »"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A filter value: blank is no filter; otherwise one of `allowed`.
fn choice(name: &str, value: Option<String>, allowed: &[&str]) -> AppResult<Option<String>> {
    let Some(value) = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if allowed.contains(&value.as_str()) {
        Ok(Some(value))
    } else {
        Err(ApiError::unprocessable(format!(
            "Le filtre « {name} » doit valoir {}.",
            quoted(allowed)
        )))
    }
}

fn park_filter(query: &mut ParkQuery) -> AppResult<ParkFilter> {
    let search = search_term(query.q.take().as_deref())?;
    let mut contracts: Vec<&str> = MAINTENANCE_CONTRACTS.to_vec();
    contracts.push("aucun");
    Ok(ParkFilter {
        words: search
            .map(|s| fold(&s).split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default(),
        equipment_type: choice("type", query.equipment_type.take(), &EQUIPMENT_TYPES)?,
        client_ref: query
            .client
            .take()
            .map(|c| c.trim().to_owned())
            .filter(|c| !c.is_empty()),
        building_id: query
            .building
            .take()
            .map(|b| b.trim().to_owned())
            .filter(|b| !b.is_empty()),
        contract: choice("contract", query.contract.take(), &contracts)?,
        // The park's three bands, or the dashboard's five.
        knowledge_tenths: choice(
            "knowledge",
            query.knowledge.take(),
            &knowledge::filter_codes(),
        )?
        .and_then(|code| knowledge::filter_tenths(&code)),
        archived: match choice(
            "archived",
            query.archived.take(),
            &["active", "archived", "all"],
        )?
        .as_deref()
        {
            None | Some("active") => Some(false),
            Some("archived") => Some(true),
            _ => None,
        },
    })
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ClientRef {
    id: String,
    name: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ParkEntry {
    id: String,
    number: Option<String>,
    #[serde(rename = "type")]
    equipment_type: Option<String>,
    type_label: Option<String>,
    location: Option<String>,
    maintenance_contract: Option<String>,
    building: Option<ExternalBuilding>,
    client: Option<ClientRef>,
    knowledge_rate: f64,
    knowledge_band: &'static str,
    /// Date et heure (UTC) de son archivage ; absente tant qu'il est au parc.
    archived_at: Option<String>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ParkPage {
    total: i64,
    page: u32,
    limit: u32,
    results: Vec<ParkEntry>,
}

async fn park(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ParkQuery>,
) -> AppResult<Json<ParkPage>> {
    park_page(&state, &session.principal(), query)
        .await
        .map(Json)
}

/// One page of the park, as `GET /equipment` answers it (the export reads
/// it page by page).
pub(crate) async fn park_page(
    state: &AppState,
    principal: &crate::principal::Principal,
    mut query: ParkQuery,
) -> AppResult<ParkPage> {
    principal.agency()?;
    let paging = Paging::from_query(&PageQuery {
        limit: query.limit.take(),
        page: query.page.take(),
    })?;
    let filter = park_filter(&mut query)?;
    let (total, rows) = equipment_service::park(
        &state.store,
        principal,
        filter,
        paging.limit,
        paging.offset(),
    )
    .await?;
    let results = rows
        .into_iter()
        .map(|row| {
            let rate = row.knowledge_tenths as f64 / 10.0;
            let e = row.equipment;
            ParkEntry {
                type_label: type_label(e.identity.equipment_type.as_deref()),
                id: e.id.into_string(),
                number: e.identity.number,
                equipment_type: e.identity.equipment_type,
                location: e.identity.location,
                maintenance_contract: e.identity.maintenance_contract,
                building: e.building.map(ExternalBuilding::from),
                client: row.client.map(|(id, name)| ClientRef { id, name }),
                knowledge_rate: rate,
                knowledge_band: KnowledgeBand::of(rate).as_str(),
                archived_at: e.archived_at,
            }
        })
        .collect();
    Ok(ParkPage {
        total,
        page: paging.page,
        limit: paging.limit,
        results,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClientsQuery {
    q: Option<String>,
}

#[derive(Serialize, TS)]
pub(crate) struct ClientsAnswer {
    results: Vec<ClientRef>,
}

/// The clients offered by the park's client filter: the first 20 matching
/// the search (the REST `GET /clients` search).
async fn clients(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ClientsQuery>,
) -> AppResult<Json<ClientsAnswer>> {
    let page = client_list(
        &state,
        &session.principal(),
        ClientListQuery {
            q: query.q,
            limit: Some("20".to_owned()),
            page: None,
        },
    )
    .await?;
    Ok(Json(ClientsAnswer {
        results: page
            .results
            .into_iter()
            .map(|c| ClientRef {
                id: c.id,
                name: c.name,
            })
            .collect(),
    }))
}

// -- The equipment's page -----------------------------------------------------

#[derive(Serialize, TS)]
#[ts(rename = "EquipmentFieldView")]
#[serde(rename_all = "camelCase")]
struct FieldView {
    code: String,
    label: String,
    unit: Option<String>,
    value_type: &'static str,
    choices: Vec<String>,
    /// None when never surveyed.
    value: Option<Value>,
    surveyed_at: Option<String>,
    survey_number: Option<String>,
    /// The field counts in the knowledge rate of this type of equipment.
    counts: bool,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ComponentView {
    /// `equipment` for the equipment itself, else the component key.
    component: String,
    label: String,
    fields: Vec<FieldView>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct MissingField {
    code: String,
    label: String,
    component_label: String,
    unit: Option<String>,
    /// Percentage points the field adds to the rate once surveyed.
    gain: f64,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct KnowledgeView {
    rate: f64,
    band: &'static str,
    /// Fields of the catalog that count for this type.
    catalog: usize,
    /// Of them, how many are known.
    known: usize,
    /// What each field weighs, in percentage points.
    field_weight: f64,
    /// The fields not known yet, heaviest first (every field weighs the
    /// same today), then in catalog order.
    missing: Vec<MissingField>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct Listed<T> {
    total: i64,
    results: Vec<T>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct VisitView {
    id: String,
    planned_for: String,
    #[ts(type = "VisitStatus")]
    status: String,
    status_label: String,
    arrived_at: Option<String>,
    left_at: Option<String>,
    done_on: Option<String>,
    signed_by: Option<String>,
    observations: Option<String>,
    technician_name: Option<String>,
}

impl From<EquipmentVisitRow> for VisitView {
    fn from(v: EquipmentVisitRow) -> Self {
        Self {
            status_label: v.status.label().to_owned(),
            id: v.id.into_string(),
            planned_for: v.planned_for,
            status: v.status.as_str().to_owned(),
            arrived_at: v.arrived_at,
            left_at: v.left_at,
            done_on: v.done_on,
            signed_by: v.signed_by,
            observations: v.observations,
            technician_name: v.technician_name,
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct CallView {
    id: String,
    reference: String,
    #[serde(rename = "type")]
    #[ts(type = "CallType")]
    call_type: CallType,
    type_label: String,
    #[ts(type = "CallStatus")]
    status: CallStatus,
    status_label: String,
    description: String,
    caller: Option<String>,
    received_at: String,
    arrived_at: Option<String>,
    stopped_at: Option<String>,
    resolved_at: Option<String>,
    technician_name: Option<String>,
    /// The call on the calls screen.
    link: String,
}

impl From<EquipmentCallRow> for CallView {
    fn from(c: EquipmentCallRow) -> Self {
        Self {
            type_label: c.call_type.label().to_owned(),
            status_label: c.status.label().to_owned(),
            link: format!("/appels/{}", c.id),
            id: c.id.into_string(),
            reference: c.reference,
            call_type: c.call_type,
            status: c.status,
            description: c.description,
            caller: c.caller,
            received_at: c.received_at,
            arrived_at: c.arrived_at,
            stopped_at: c.stopped_at,
            resolved_at: c.resolved_at,
            technician_name: c.technician_name,
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct SurveyView {
    id: String,
    number: Option<String>,
    #[ts(type = "SurveyStatus")]
    status: String,
    status_label: String,
    due_on: Option<String>,
    surveyed_on: Option<String>,
    created_at: String,
}

impl From<EquipmentSurveyRow> for SurveyView {
    fn from(s: EquipmentSurveyRow) -> Self {
        Self {
            status_label: s.status.label().to_owned(),
            id: s.id.into_string(),
            number: s.number,
            status: s.status.as_str().to_owned(),
            due_on: s.due_on,
            surveyed_on: s.surveyed_on,
            created_at: s.created_at,
        }
    }
}

#[derive(Serialize, TS)]
#[ts(rename = "EquipmentQuoteView")]
#[serde(rename_all = "camelCase")]
struct QuoteView {
    id: String,
    number: Option<String>,
    #[ts(type = "QuoteOrigin")]
    origin: String,
    origin_label: String,
    object: String,
    #[ts(type = "QuoteStatus")]
    status: String,
    status_label: String,
    created_at: String,
    /// The quote on the quotes screen.
    link: String,
}

impl From<EquipmentQuoteRow> for QuoteView {
    fn from(q: EquipmentQuoteRow) -> Self {
        Self {
            origin_label: q.origin.label().to_owned(),
            status_label: q.status.label().to_owned(),
            link: format!("/devis/{}", q.id),
            id: q.id.into_string(),
            number: q.number,
            origin: q.origin.as_str().to_owned(),
            object: q.object,
            status: q.status.as_str().to_owned(),
            created_at: q.created_at,
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct DowntimeView {
    from: String,
    to: String,
    /// Minutes unavailable: from each call's reception to its resolution
    /// (or now), noise calls left out, overlaps counted once.
    total_minutes: i64,
    /// Part of it with the equipment left stopped (`a_l_arret` → resolution).
    stopped_minutes: i64,
    /// Calls that counted.
    calls: usize,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct RecentCall {
    id: String,
    reference: String,
    received_at: String,
    type_label: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct RepeatView {
    /// Three calls or more in the last 90 days.
    flagged: bool,
    window_days: i64,
    threshold: usize,
    /// The calls received in the window, newest first.
    calls: Vec<RecentCall>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EquipmentPage {
    id: String,
    /// Date et heure (UTC) de son archivage ; absente tant qu'il est au parc.
    archived_at: Option<String>,
    identity: IdentityView,
    type_label: Option<String>,
    building: Option<ExternalBuilding>,
    client: Option<ClientRef>,
    technical: Vec<ComponentView>,
    knowledge: KnowledgeView,
    downtime: DowntimeView,
    repeat_breakdowns: RepeatView,
    visits: Listed<VisitView>,
    calls: Listed<CallView>,
    surveys: Listed<SurveyView>,
    quotes: Listed<QuoteView>,
}

pub(crate) fn value_type_code(value_type: ValueType) -> &'static str {
    match value_type {
        ValueType::Text => "text",
        ValueType::Number => "number",
        ValueType::Integer => "integer",
        ValueType::Boolean => "boolean",
        ValueType::Choice => "choice",
        ValueType::Multi => "multi",
    }
}

fn span_of(call: &EquipmentCallRow) -> Option<CallSpan> {
    Some(CallSpan {
        call_type: call.call_type,
        received_at: clock::parse_timestamp(&call.received_at)?,
        stopped_at: call.stopped_at.as_deref().and_then(clock::parse_timestamp),
        resolved_at: call.resolved_at.as_deref().and_then(clock::parse_timestamp),
    })
}

/// Downtime over the last 12 months and the calls of the last 90 days.
fn breakdowns(calls: &[EquipmentCallRow], now: DateTime<Utc>) -> (DowntimeView, RepeatView) {
    let from = now - Duration::days(downtime::DOWNTIME_WINDOW_DAYS);
    let spans: Vec<CallSpan> = calls.iter().filter_map(span_of).collect();
    let d = downtime::downtime(&spans, from, now);
    let received: Vec<DateTime<Utc>> = calls
        .iter()
        .map(|c| clock::parse_timestamp(&c.received_at).unwrap_or(DateTime::<Utc>::MIN_UTC))
        .collect();
    let recent = downtime::recent_calls(&received, now);
    let repeat = RepeatView {
        flagged: downtime::is_repeated(recent.len()),
        window_days: downtime::REPEAT_WINDOW_DAYS,
        threshold: downtime::REPEAT_THRESHOLD,
        calls: recent
            .into_iter()
            .map(|i| {
                let c = &calls[i];
                RecentCall {
                    id: c.id.to_string(),
                    reference: c.reference.clone(),
                    received_at: c.received_at.clone(),
                    type_label: c.call_type.label().to_owned(),
                }
            })
            .collect(),
    };
    (
        DowntimeView {
            from: clock::format_timestamp(from),
            to: clock::format_timestamp(now),
            total_minutes: d.total.num_minutes(),
            stopped_minutes: d.stopped.num_minutes(),
            calls: d.calls,
        },
        repeat,
    )
}

/// The page, as the screen reads it, from what `services::equipment::page_data` read.
fn build_page(data: EquipmentPageData, base_url: &str) -> EquipmentPage {
    let EquipmentPageData {
        equipment,
        client,
        catalog,
        values,
        knowledge_rate: rate,
        year_calls,
        visits: (visits_total, visits),
        calls: (calls_total, calls),
        surveys: (surveys_total, surveys),
        quotes: (quotes_total, quotes),
        now,
    } = data;
    let client = client.map(|(id, name)| ClientRef { id, name });
    let equipment_type = equipment.identity.equipment_type.as_deref();

    let mut technical: Vec<ComponentView> = Vec::new();
    let mut missing = Vec::new();
    let mut counted = 0;
    for field in &catalog {
        let counts = field.applies_to_type(equipment_type);
        let stored = values.iter().find(|v| v.field_code == field.code);
        if counts {
            counted += 1;
            if stored.is_none() {
                missing.push(field);
            }
        }
        if !counts && stored.is_none() {
            continue;
        }
        let key = field
            .component
            .clone()
            .unwrap_or_else(|| "equipment".to_owned());
        let view = FieldView {
            code: field.code.clone(),
            label: field.label.clone(),
            unit: field.unit.clone(),
            value_type: value_type_code(field.value_type),
            choices: field.choices.clone(),
            value: stored.and_then(|v| serde_json::from_str(&v.value).ok()),
            surveyed_at: stored.map(|v| v.surveyed_at.clone()),
            survey_number: stored.and_then(|v| v.survey_number.clone()),
            counts,
        };
        match technical.iter_mut().find(|c| c.component == key) {
            Some(component) => component.fields.push(view),
            None => technical.push(ComponentView {
                label: component_label(field.component.as_deref()),
                component: key,
                fields: vec![view],
            }),
        }
    }
    let weight = knowledge::field_weight(counted);
    let knowledge = KnowledgeView {
        rate,
        band: KnowledgeBand::of(rate).as_str(),
        catalog: counted,
        known: counted - missing.len(),
        field_weight: weight,
        missing: missing
            .into_iter()
            .map(|f| MissingField {
                code: f.code.clone(),
                label: f.label.clone(),
                component_label: component_label(f.component.as_deref()),
                unit: f.unit.clone(),
                gain: weight,
            })
            .collect(),
    };

    let (downtime, repeat_breakdowns) = breakdowns(&year_calls, now);

    EquipmentPage {
        id: equipment.id.to_string(),
        archived_at: equipment.archived_at.clone(),
        type_label: type_label(equipment_type),
        building: equipment.building.clone().map(ExternalBuilding::from),
        identity: IdentityView::new(equipment, base_url),
        client,
        technical,
        knowledge,
        downtime,
        repeat_breakdowns,
        visits: Listed {
            total: visits_total,
            results: visits.into_iter().map(Into::into).collect(),
        },
        calls: Listed {
            total: calls_total,
            results: calls.into_iter().map(Into::into).collect(),
        },
        surveys: Listed {
            total: surveys_total,
            results: surveys.into_iter().map(Into::into).collect(),
        },
        quotes: Listed {
            total: quotes_total,
            results: quotes.into_iter().map(Into::into).collect(),
        },
    }
}

async fn read_page(state: &AppState, principal: &Principal, id: &str) -> AppResult<EquipmentPage> {
    let data = equipment_service::page_data(&state.store, principal, &EquipmentId::new(id)).await?;
    Ok(build_page(data, &state.base_url))
}

async fn page(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<EquipmentPage>> {
    Ok(Json(read_page(&state, &session.principal(), &id).await?))
}

/// `PATCH /equipment/{id}/identity` of the REST API, answered with the page.
/// Un nouvel équipement : son identité (les noms de `PATCH
/// /equipment/{id}/identity`, `number` obligatoire), son immeuble et son
/// client (identifiant partenaire), et l'intervalle de ses visites.
#[derive(Deserialize, TS, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct NewEquipmentBody {
    number: Option<String>,
    #[ts(optional)]
    serial_number: Option<String>,
    /// `ascenseur`, `monte_charge`, `monte_voiture`, `elevateur`, `porte_fermeture`.
    #[serde(rename = "type")]
    #[ts(optional, rename = "type")]
    equipment_type: Option<String>,
    #[ts(optional)]
    subtype: Option<String>,
    #[ts(optional)]
    location: Option<String>,
    /// `parc` (sous contrat) ou `hors_parc`.
    #[ts(optional)]
    maintenance_contract: Option<String>,
    #[ts(optional)]
    contract_number: Option<String>,
    #[ts(optional)]
    building_id: Option<String>,
    #[ts(optional)]
    client_id: Option<String>,
    /// Jours entre deux visites d'entretien (42 par défaut).
    #[ts(optional)]
    visit_interval_days: Option<i64>,
}

/// L'équipement créé : son identifiant (sa page est `/equipements/<id>`).
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CreatedEquipment {
    id: String,
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewEquipmentBody>,
) -> AppResult<(StatusCode, Json<CreatedEquipment>)> {
    session.require_agency()?;
    let input = NewEquipment {
        identity: IdentityRow {
            number: body.number,
            serial_number: body.serial_number,
            equipment_type: body.equipment_type,
            subtype: body.subtype,
            location: body.location,
            maintenance_contract: body.maintenance_contract,
            contract_number: body.contract_number,
            external_id: None,
        },
        building_id: body.building_id,
        client_ref: body.client_id,
    };
    let row = crate::services::equipment::create_with_interval(
        &state.store,
        &session.principal(),
        input,
        body.visit_interval_days,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedEquipment {
            id: row.id.into_string(),
        }),
    ))
}

/// Le nouveau client de l'équipement (identifiant partenaire).
#[derive(Deserialize, TS, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct MoveBody {
    client_id: String,
}

async fn move_to_client(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<MoveBody>,
) -> AppResult<Json<EquipmentPage>> {
    let principal = session.principal();
    principal.agency()?;
    crate::services::equipment::move_to_client(
        &state.store,
        &principal,
        EquipmentId::new(id.as_str()),
        body.client_id,
    )
    .await?;
    Ok(Json(read_page(&state, &principal, &id).await?))
}

async fn archive(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<EquipmentPage>> {
    let principal = session.principal();
    principal.agency()?;
    crate::services::equipment::archive(&state.store, &principal, EquipmentId::new(id.as_str()))
        .await?;
    Ok(Json(read_page(&state, &principal, &id).await?))
}

async fn restore(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<EquipmentPage>> {
    let principal = session.principal();
    principal.agency()?;
    crate::services::equipment::restore(&state.store, &principal, EquipmentId::new(id.as_str()))
        .await?;
    Ok(Json(read_page(&state, &principal, &id).await?))
}

async fn correct_identity(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<IdentityBody>,
) -> AppResult<Json<EquipmentPage>> {
    let principal = session.principal();
    principal.agency()?;
    identity_correction(&state, &principal, id.clone(), body).await?;
    Ok(Json(read_page(&state, &principal, &id).await?))
}

/// The rules of `PATCH /equipment/{id}`, every catalog datum named by its
/// code (the partner names are the codes of their data), answered with the page.
async fn update_technical(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<Map<String, Value>>,
) -> AppResult<Json<EquipmentPage>> {
    let principal = session.principal();
    technical_data::update_for(
        &state.store,
        &principal,
        &EquipmentId::new(id.as_str()),
        body,
        technical_data::FieldNames::Code,
    )
    .await?;
    Ok(Json(read_page(&state, &principal, &id).await?))
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RepairQuote {
    id: String,
    /// The draft on the quotes screen.
    link: String,
}

/// A draft quote « Réparation suite à pannes répétées » (origin `panne`, one
/// row to complete): `services::quotes::repair_quote`, refused (409) when
/// the equipment has no repeat breakdowns.
async fn repair_quote(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<RepairQuote>)> {
    let id = quotes::repair_quote(
        &state.store,
        &session.principal(),
        &EquipmentId::new(id.as_str()),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(RepairQuote {
            link: format!("/devis/{id}"),
            id,
        }),
    ))
}

// -- The maintenance logbook --------------------------------------------------

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct LogbookEntry {
    /// `visite` or `panne`.
    kind: &'static str,
    id: String,
    /// Sort key: arrival (visit) or reception (call), UTC; a day for a visit
    /// done without recorded times.
    at: String,
    title: String,
    /// For a visit: arrival and departure; for a call: reception and resolution.
    started_at: Option<String>,
    ended_at: Option<String>,
    /// The day of a visit (`YYYY-MM-DD`).
    day: Option<String>,
    technician_name: Option<String>,
    /// Observations of the visit; for a call, its closing report (cause,
    /// work done, parts replaced) when there is one, else the caller's words.
    work: Option<String>,
    /// What came of it: the visit's signature, or the call's status and stops.
    outcome: String,
    reference: Option<String>,
    /// A call's closing report, as written at its closing.
    report: Option<super::calls::ReportOut>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Logbook {
    equipment: LogbookEquipment,
    generated_at: String,
    entries: Vec<LogbookEntry>,
    /// More than the bound: only the latest visits or calls are listed.
    truncated: bool,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct LogbookEquipment {
    id: String,
    number: Option<String>,
    type_label: Option<String>,
    serial_number: Option<String>,
    location: Option<String>,
    building: Option<ExternalBuilding>,
    client: Option<ClientRef>,
}

fn visit_entry(v: EquipmentVisitRow) -> LogbookEntry {
    let status = Some(v.status);
    let outcome = match (status, &v.signed_by) {
        (Some(VisitStatus::Faite), Some(by)) => format!("Visite faite, bon signé par {by}"),
        (Some(VisitStatus::Faite), None) => "Visite faite".to_owned(),
        _ => "Visite en cours".to_owned(),
    };
    LogbookEntry {
        kind: "visite",
        at: v
            .arrived_at
            .clone()
            .or_else(|| v.done_on.clone())
            .unwrap_or_else(|| v.planned_for.clone()),
        id: v.id.into_string(),
        title: "Visite d'entretien".to_owned(),
        started_at: v.arrived_at,
        ended_at: v.left_at,
        day: Some(v.done_on.unwrap_or(v.planned_for)),
        technician_name: v.technician_name,
        work: v.observations,
        outcome,
        reference: None,
        report: None,
    }
}

fn call_entry(c: EquipmentCallRow) -> LogbookEntry {
    let type_label = c.call_type.label().to_owned();
    let status_label = c.status.label().to_owned();
    let mut outcome = status_label;
    if c.stopped_at.is_some() {
        outcome.push_str(" (appareil laissé à l'arrêt en attente de réparation)");
    }
    if let Some(back) = c
        .report
        .as_ref()
        .and_then(|r| r.back_in_service_at.as_deref())
        .and_then(crate::domain::time::parse_timestamp)
    {
        let local = clock::paris_local(back);
        outcome.push_str(&format!(
            ", remis en service le {}",
            local.format("%d/%m/%Y à %H:%M")
        ));
    }
    let work = match &c.report {
        Some(report) => {
            let mut text = format!("Cause : {}. Travaux : {}.", report.cause, report.work);
            if let Some(parts) = &report.parts {
                text.push_str(&format!(" Pièces remplacées : {parts}."));
            }
            text
        }
        None => c.description,
    };
    LogbookEntry {
        kind: "panne",
        at: c.received_at.clone(),
        id: c.id.into_string(),
        title: format!("Panne : {type_label}"),
        started_at: Some(c.received_at),
        ended_at: c.resolved_at,
        day: None,
        technician_name: c.technician_name,
        work: Some(work),
        outcome,
        reference: Some(c.reference),
        report: c.report.map(super::calls::ReportOut::from),
    }
}

async fn logbook(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<Logbook>> {
    let LogbookData {
        equipment,
        client,
        visits,
        calls,
        now,
    } = equipment_service::logbook_data(
        &state.store,
        &session.principal(),
        &EquipmentId::new(id.as_str()),
    )
    .await?;
    let client = client.map(|(id, name)| ClientRef { id, name });
    let generated_at = clock::format_timestamp(now);
    let book = {
        let truncated = visits.len() >= equipment_service::MAX_LOGBOOK_ROWS as usize
            || calls.len() >= equipment_service::MAX_LOGBOOK_ROWS as usize;
        let mut entries: Vec<LogbookEntry> = visits
            .into_iter()
            .map(visit_entry)
            .chain(calls.into_iter().map(call_entry))
            .collect();
        entries.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)));
        Logbook {
            equipment: LogbookEquipment {
                type_label: type_label(equipment.identity.equipment_type.as_deref()),
                id: equipment.id.into_string(),
                number: equipment.identity.number,
                serial_number: equipment.identity.serial_number,
                location: equipment.identity.location,
                building: equipment.building.map(ExternalBuilding::from),
                client,
            },
            generated_at,
            entries,
            truncated,
        }
    };
    Ok(Json(book))
}
