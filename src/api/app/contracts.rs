//! `/app/api/contracts…`, `/app/api/price-indexes` and
//! `/app/api/contract-billing/…`: the maintenance contracts' screens — the
//! list, a contract with what may be done next, its form (creation and a
//! draft's edit), its PDF, its life, the index values, and « Facturer les
//! contrats » (preview, drafts, issue batches). Every handler calls the
//! operations shared with the REST API v2 (`api::wire::contracts`,
//! `api::wire::contract_billing`) for the session's principal (the audit
//! names the staff member).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::pdf::PdfResponse;
use crate::api::wire::contract_billing::{
    self as billing, BillingPreview, BillingWindowBody, DraftsView, IssueBatchBody, IssueBatchView,
    PreviewQuery,
};
use crate::api::wire::contracts::{
    self as wire, ContractBody, ContractListEntry, ContractView, IndexValueBody, IndexValueView,
    TerminationBody,
};
use crate::api::wire::{Created, Page, PageQuery};
use crate::auth::staff_session::StaffSession;
use crate::domain::contract::ContractAction;
use crate::error::AppResult;
use crate::services::contracts::ListInput;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/contracts", get(list).post(create))
        .route("/contracts/{id}", get(detail).put(replace).delete(remove))
        .route("/contracts/{id}/pdf", get(pdf))
        .route("/contracts/{id}/response-times", get(response_times))
        .route("/contracts/{id}/annual-report", get(annual_report))
        .route("/contracts/{id}/activate", post(activate))
        .route("/contracts/{id}/terminate", post(terminate))
        .route("/contracts/{id}/expire", post(expire))
        .route("/price-indexes", get(index_values).post(record_index_value))
        .route("/contract-billing/preview", get(preview))
        .route("/contract-billing/drafts", post(drafts))
        .route("/contract-billing/issue", post(issue))
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListQuery {
    status: Option<String>,
    client_id: Option<String>,
    equipment_id: Option<String>,
    q: Option<String>,
    limit: Option<String>,
    page: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> AppResult<Page<ContractListEntry>> {
    let filter = ListInput {
        status: query.status,
        client_id: query.client_id,
        equipment_id: query.equipment_id,
        q: query.q,
    };
    let paging = PageQuery {
        limit: query.limit,
        page: query.page,
    };
    wire::contract_list(&state, &session.principal(), filter, paging).await
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<ContractBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::contract_create(&state, &session.principal(), body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

async fn detail(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<ContractView>> {
    wire::contract_read(&state, &session.principal(), &id)
        .await
        .map(Json)
}

async fn replace(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<ContractBody>,
) -> AppResult<Json<ContractView>> {
    wire::contract_replace(&state, &session.principal(), &id, body)
        .await
        .map(Json)
}

async fn remove(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<StatusCode> {
    wire::contract_delete(&state, &session.principal(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn response_times(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<wire::ResponseQuery>,
) -> AppResult<Json<wire::ResponseReportOut>> {
    wire::response_report(&state, &session.principal(), &id, query)
        .await
        .map(Json)
}

async fn annual_report(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<wire::AnnualReportQuery>,
) -> AppResult<PdfResponse> {
    wire::annual_report_file(&state, &session.principal(), &id, query)
        .await
        .map(PdfResponse)
}

async fn pdf(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<PdfResponse> {
    wire::contract_pdf_file(&state, &session.principal(), &id)
        .await
        .map(PdfResponse)
}

async fn act(
    state: &AppState,
    session: &StaffSession,
    id: &str,
    action: ContractAction,
    termination: Option<TerminationBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::contract_act(state, &session.principal(), id, action, termination)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

async fn activate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    act(&state, &session, &id, ContractAction::Activate, None).await
}

async fn terminate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<TerminationBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    act(&state, &session, &id, ContractAction::Terminate, Some(body)).await
}

async fn expire(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    act(&state, &session, &id, ContractAction::Expire, None).await
}

#[derive(Debug, Clone, Default, Deserialize)]
struct IndexQuery {
    index: Option<String>,
}

async fn index_values(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<IndexQuery>,
) -> AppResult<Json<Vec<IndexValueView>>> {
    wire::index_value_list(&state, &session.principal(), query.index)
        .await
        .map(Json)
}

async fn record_index_value(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<IndexValueBody>,
) -> AppResult<(StatusCode, Json<IndexValueView>)> {
    wire::index_value_record(&state, &session.principal(), body)
        .await
        .map(|v| (StatusCode::CREATED, Json(v)))
}

#[derive(Debug, Clone, Default, Deserialize)]
struct PreviewParams {
    from: Option<String>,
    to: Option<String>,
    state: Option<String>,
    limit: Option<String>,
    page: Option<String>,
}

async fn preview(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<PreviewParams>,
) -> AppResult<Json<BillingPreview>> {
    billing::billing_preview(
        &state,
        &session.principal(),
        PreviewQuery {
            from: query.from.unwrap_or_default(),
            to: query.to.unwrap_or_default(),
            state: query.state,
            paging: PageQuery {
                limit: query.limit,
                page: query.page,
            },
        },
    )
    .await
    .map(Json)
}

async fn drafts(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<BillingWindowBody>,
) -> AppResult<(StatusCode, Json<DraftsView>)> {
    billing::billing_drafts(&state, &session.principal(), body)
        .await
        .map(|d| (StatusCode::CREATED, Json(d)))
}

async fn issue(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<IssueBatchBody>,
) -> AppResult<Json<IssueBatchView>> {
    billing::billing_issue(&state, &session.principal(), body)
        .await
        .map(Json)
}
