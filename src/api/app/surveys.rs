//! `/app/api/surveys…` and `/app/api/discrepancies`: the Relevés screen. The
//! paged list searched on the number, a survey (its REST read, equipment,
//! surveyor and what its submission form needs), its data by component, the
//! discrepancies it found, reporting one, and the technician's submission.
//!
//! Every rule is the REST API v2's: the list, the read, the data, the
//! discrepancy and the submission call `api::wire::surveys::*` and
//! `api::wire::discrepancies::discrepancy_creation` for the session's
//! principal (the audit names the staff member). What this module adds is
//! read-only: the columns of the list, the surveyor's name, the catalog of
//! the submission form, and whether the submission would be accepted
//! (`services::surveys::check_submittable`, the server's own checks).

use crate::domain::id::SurveyId;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::api::app::equipment::value_type_code;
use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::wire::discrepancies::{DiscrepancyBody, discrepancy_creation};
use crate::api::wire::surveys::{
    self as wire, SubmitBody, SurveyData, SurveyListQuery, SurveyRead, SurveySubmitted,
};
use crate::api::wire::{Created, PageQuery, Paging, RecordKind};
use crate::auth::staff_session::StaffSession;
use crate::clock;
use crate::domain::day;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::sheet::{component_label, equipment_type_label};
use crate::services::surveys::{self as survey_service};
use crate::state::AppState;
use crate::store::discrepancies::DiscrepancyRow;
use crate::store::surveys::SurveySummaryRow;
use crate::store::technical_fields::CatalogField;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/surveys", get(list))
        .route("/surveys/{id}", get(detail))
        .route("/surveys/{id}/data", get(data))
        .route("/surveys/{id}/discrepancies", get(discrepancies))
        .route("/surveys/{id}/submit", post(submit_survey))
        .route("/discrepancies", post(report_discrepancy))
}

/// The session's principal, once it is known to act in an agency.
fn caller_of(session: &StaffSession) -> AppResult<Principal> {
    session.require_agency()?;
    Ok(session.principal())
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Paged<T> {
    total: i64,
    page: u32,
    limit: u32,
    results: Vec<T>,
}

/// The surveyed equipment, with its page on the equipment screen.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct EquipmentRef {
    id: String,
    number: Option<String>,
    type_label: Option<String>,
    /// `/equipements/<id>`.
    link: String,
}

impl EquipmentRef {
    fn of(row: &SurveySummaryRow) -> Self {
        Self {
            id: row.equipment_id.to_string(),
            number: row.equipment_number.clone(),
            type_label: row
                .equipment_type
                .as_deref()
                .map(|t| equipment_type_label(t).to_owned()),
            link: RecordKind::Equipment.link(row.equipment_id.as_str()),
        }
    }
}

// -- The list -------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    q: Option<String>,
    limit: Option<String>,
    page: Option<String>,
}

/// A row of the list: the REST row (`id`, `number`, `link`, `url`) and what
/// the screen shows besides.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListRow {
    id: String,
    number: Option<String>,
    link: String,
    url: String,
    #[ts(type = "SurveyStatus")]
    status: String,
    status_label: String,
    equipment: Option<EquipmentRef>,
    surveyor_name: Option<String>,
    due_on: Option<String>,
    surveyed_on: Option<String>,
    created_at: Option<String>,
}

/// `GET /app/api/surveys?q=&page=&limit=`: the REST `GET /surveys` page
/// (same search, order, paging and refusals), each row completed.
async fn list(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> AppResult<Json<Paged<ListRow>>> {
    let caller = caller_of(&session)?;
    let page = wire::survey_list(
        &state,
        &caller,
        SurveyListQuery {
            q: query.q,
            limit: query.limit,
            page: query.page,
        },
    )
    .await?;
    let ids: Vec<String> = page.results.iter().map(|r| r.id.clone()).collect();
    let summaries = survey_service::summaries(&state.store, &caller, ids).await?;
    let results = page
        .results
        .into_iter()
        .map(|row| {
            let summary = summaries.iter().find(|s| s.id == row.id);
            ListRow {
                status: summary
                    .map(|s| s.status.as_str().to_owned())
                    .unwrap_or_default(),
                status_label: summary
                    .map(|s| s.status.label().to_owned())
                    .unwrap_or_default(),
                equipment: summary.map(EquipmentRef::of),
                surveyor_name: summary.and_then(|s| s.surveyor_name.clone()),
                due_on: summary.and_then(|s| s.due_on.clone()),
                surveyed_on: summary.and_then(|s| s.surveyed_on.clone()),
                created_at: summary.map(|s| s.created_at.clone()),
                id: row.id,
                number: row.number,
                link: row.link,
                url: row.url,
            }
        })
        .collect();
    Ok(Json(Paged {
        total: page.total,
        page: page.page,
        limit: page.limit,
        results,
    }))
}

// -- The survey -------------------------------------------------------------------

/// A component of the catalog and its French name.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ComponentName {
    /// `equipment` for the equipment itself, else the key (`car_door`…), as
    /// in the `components` of the data.
    component: String,
    label: String,
}

/// A datum the submission form offers.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct FormField {
    code: String,
    label: String,
    unit: Option<String>,
    value_type: &'static str,
    choices: Vec<String>,
    /// What the survey recorded so far; None when nothing.
    value: Option<Value>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct FormComponent {
    component: String,
    label: String,
    fields: Vec<FormField>,
}

/// What the submission form needs, and whether the server would accept it.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct SubmissionView {
    /// This account may submit this survey now.
    allowed: bool,
    /// Otherwise the server's French reason.
    refusal: Option<String>,
    /// Today in Paris, `YYYY-MM-DD`: `surveyedOn` may not be later.
    today: String,
    /// The Paris day the survey was asked for: `surveyedOn` may not be earlier.
    requested_on: Option<String>,
    /// The data of the catalog that apply to the equipment's type, plus any
    /// other the survey recorded, by component in catalog order.
    components: Vec<FormComponent>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SurveyDetail {
    /// The REST read (`GET /surveys/{id}`), as is.
    survey: SurveyRead,
    /// The status code (`a_realiser`, `en_cours`, `termine`, `annule`).
    #[ts(type = "SurveyStatus")]
    status: String,
    equipment: EquipmentRef,
    surveyor_name: Option<String>,
    created_at: String,
    submitted_at: Option<String>,
    /// Every component's French name, in catalog order.
    components: Vec<ComponentName>,
    submission: SubmissionView,
}

const EQUIPMENT_KEY: &str = wire::EQUIPMENT_COMPONENT;

fn component_key(field: &CatalogField) -> String {
    field
        .component
        .clone()
        .unwrap_or_else(|| EQUIPMENT_KEY.to_owned())
}

/// The catalog's components, in order of first appearance.
fn component_names(catalog: &[CatalogField]) -> Vec<ComponentName> {
    let mut names: Vec<ComponentName> = Vec::new();
    for field in catalog {
        let key = component_key(field);
        if !names.iter().any(|n| n.component == key) {
            names.push(ComponentName {
                label: component_label(field.component.as_deref()),
                component: key,
            });
        }
    }
    names
}

/// The submission form: the data that apply to the equipment's type, plus
/// any other the survey recorded, grouped by component.
fn form_components(
    catalog: &[CatalogField],
    equipment_type: Option<&str>,
    values: &[(String, String)],
) -> Vec<FormComponent> {
    let mut components: Vec<FormComponent> = Vec::new();
    for field in catalog {
        let recorded = values.iter().find(|(code, _)| *code == field.code);
        if !field.applies_to_type(equipment_type) && recorded.is_none() {
            continue;
        }
        let key = component_key(field);
        let view = FormField {
            code: field.code.clone(),
            label: field.label.clone(),
            unit: field.unit.clone(),
            value_type: value_type_code(field.value_type),
            choices: field.choices.clone(),
            value: recorded.and_then(|(_, text)| serde_json::from_str(text).ok()),
        };
        match components.iter_mut().find(|c| c.component == key) {
            Some(component) => component.fields.push(view),
            None => components.push(FormComponent {
                label: component_label(field.component.as_deref()),
                component: key,
                fields: vec![view],
            }),
        }
    }
    components
}

/// `GET /app/api/surveys/{id}`: 404 « Relevé introuvable. » outside the agency.
async fn detail(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<SurveyDetail>> {
    let caller = caller_of(&session)?;
    let survey = wire::survey_record(&state, &caller, id.clone()).await?;
    let (summary, catalog, values) =
        survey_service::form(&state.store, &caller, &SurveyId::new(id.as_str())).await?;
    let refusal = survey_service::check_submittable(&session.account, summary.status)
        .err()
        .map(|e| e.public_message());
    let submission = SubmissionView {
        allowed: refusal.is_none(),
        refusal,
        today: day::iso(clock::paris_local(state.now()).date()),
        requested_on: survey_service::requested_on(&summary.created_at).map(day::iso),
        components: form_components(&catalog, summary.equipment_type.as_deref(), &values),
    };
    Ok(Json(SurveyDetail {
        survey,
        equipment: EquipmentRef::of(&summary),
        status: summary.status.as_str().to_owned(),
        surveyor_name: summary.surveyor_name,
        created_at: summary.created_at,
        submitted_at: summary.submitted_at,
        components: component_names(&catalog),
        submission,
    }))
}

/// `GET /app/api/surveys/{id}/data`: exactly the REST `GET /surveys/{id}/data`.
async fn data(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<SurveyData>> {
    let caller = caller_of(&session)?;
    wire::survey_data_read(&state, &caller, id).await.map(Json)
}

// -- Discrepancies ------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PageOnly {
    limit: Option<String>,
    page: Option<String>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DiscrepancyView {
    id: String,
    /// `equipment` for the whole equipment, else the component key.
    component: String,
    component_label: String,
    finding: String,
    author: Option<String>,
    created_at: String,
}

impl From<DiscrepancyRow> for DiscrepancyView {
    fn from(row: DiscrepancyRow) -> Self {
        Self {
            component_label: component_label(row.component.as_deref()),
            component: row.component.unwrap_or_else(|| EQUIPMENT_KEY.to_owned()),
            id: row.id,
            finding: row.finding,
            author: row.author,
            created_at: row.created_at,
        }
    }
}

/// `GET /app/api/surveys/{id}/discrepancies?page=&limit=`: what the survey
/// found, newest first; every staff member of the agency reads them.
async fn discrepancies(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<PageOnly>,
) -> AppResult<Json<Paged<DiscrepancyView>>> {
    let principal = session.principal();
    principal.agency()?;
    let paging = Paging::from_query(&PageQuery {
        limit: query.limit,
        page: query.page,
    })?;
    let (total, rows) = survey_service::discrepancies(
        &state.store,
        &principal,
        &SurveyId::new(id.as_str()),
        paging.limit,
        paging.offset(),
    )
    .await?;
    Ok(Json(Paged {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows.into_iter().map(Into::into).collect(),
    }))
}

/// `POST /app/api/discrepancies`: the body, rules and answer of the REST
/// `POST /discrepancies`.
async fn report_discrepancy(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<DiscrepancyBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let caller = caller_of(&session)?;
    let created = discrepancy_creation(&state, &caller, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

// -- Submission ---------------------------------------------------------------------

/// `POST /app/api/surveys/{id}/submit`: the REST submission (same body, same
/// answer, `releve.termine` queued by `services::surveys::submit`).
async fn submit_survey(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<SubmitBody>,
) -> AppResult<Json<SurveySubmitted>> {
    let caller = caller_of(&session)?;
    wire::survey_submission(&state, &caller, id, body.unwrap_or_default())
        .await
        .map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::technical_fields::ValueType;

    fn field(code: &str, component: Option<&str>, applies_to: Option<&[&str]>) -> CatalogField {
        CatalogField {
            code: code.to_owned(),
            label: code.to_owned(),
            unit: None,
            component: component.map(str::to_owned),
            value_type: ValueType::Number,
            choices: Vec::new(),
            synonyms: String::new(),
            v1_table: "t".to_owned(),
            v1_field: "c".to_owned(),
            partner_key: None,
            applies_to: applies_to.map(|types| types.iter().map(|t| (*t).to_owned()).collect()),
            position: 0,
        }
    }

    #[test]
    fn the_form_offers_the_type_s_data_and_what_the_survey_recorded() {
        let catalog = [
            field("charge_utile", None, None),
            field(
                "porte_cabine_passage",
                Some("car_door"),
                Some(&["ascenseur"]),
            ),
            field("machine_type", Some("machine"), Some(&["ascenseur"])),
        ];
        let values = vec![("machine_type".to_owned(), "\"Gearless\"".to_owned())];
        let form = form_components(&catalog, Some("porte_fermeture"), &values);
        let keys: Vec<(&str, Vec<&str>)> = form
            .iter()
            .map(|c| {
                (
                    c.component.as_str(),
                    c.fields.iter().map(|f| f.code.as_str()).collect(),
                )
            })
            .collect();
        // The car door does not apply to a door; the machine was recorded.
        assert_eq!(
            keys,
            [
                ("equipment", vec!["charge_utile"]),
                ("machine", vec!["machine_type"])
            ]
        );
        assert_eq!(form[1].label, "Machinerie");
        assert_eq!(form[1].fields[0].value, Some(Value::from("Gearless")));
        let names: Vec<String> = component_names(&catalog)
            .into_iter()
            .map(|n| format!("{}={}", n.component, n.label))
            .collect();
        assert_eq!(
            names,
            [
                "equipment=Appareil",
                "car_door=Porte de cabine",
                "machine=Machinerie"
            ]
        );
    }
}
