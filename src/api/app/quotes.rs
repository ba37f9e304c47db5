//! `/app/api/quotes…`: the quotes screen. The paged list (status, equipment
//! number, client), a quote with what may be done next, creation from an equipment,
//! send / accept / refuse / renew, and turning an accepted quote into its invoice.
//! Every handler calls the operations shared with the REST API v2
//! (`api::wire::quotes`) for the session's principal (the audit names the
//! staff member).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::wire::mail::{SendBody, SentDocument};
use crate::api::wire::quotes::{
    self as wire, QuoteBody, QuoteInvoiceBody, QuoteInvoiceRef, QuoteListEntry, QuoteView,
};
use crate::api::wire::{Created, Page, PageQuery};
use crate::auth::staff_session::StaffSession;
use crate::domain::quote::{QuoteAction, QuoteStatus};
use crate::error::AppResult;
use crate::services::quotes::ListInput;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/quotes", get(list).post(create))
        .route("/quotes/{id}", get(detail))
        .route("/quotes/{id}/send", post(send))
        .route("/quotes/{id}/accept", post(accept))
        .route("/quotes/{id}/refuse", post(refuse))
        .route("/quotes/{id}/renew", post(renew))
        .route("/quotes/{id}/invoice", post(invoice))
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct ListQuery {
    status: Option<String>,
    equipment: Option<String>,
    /// A client's `client_id` (`CLI-…`): the quotes on its equipment.
    client: Option<String>,
    pub(crate) limit: Option<String>,
    pub(crate) page: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> AppResult<Page<QuoteListEntry>> {
    list_page(&state, &session.principal(), query).await
}

/// One page of the list, as `GET /quotes` answers it (the export reads it
/// page by page).
pub(crate) async fn list_page(
    state: &AppState,
    principal: &crate::principal::Principal,
    query: ListQuery,
) -> AppResult<Page<QuoteListEntry>> {
    let filter = ListInput {
        status: query.status,
        equipment: query.equipment,
        client: query.client,
    };
    let paging = PageQuery {
        limit: query.limit,
        page: query.page,
    };
    wire::quote_list(state, principal, filter, paging).await
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<QuoteBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::quote_create(&state, &session.principal(), body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

/// A quote, the invoice made from it, and the actions its status allows.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(super) struct QuoteDetail {
    quote: QuoteView,
    invoice: Option<QuoteInvoiceRef>,
    /// `send`, `accept` (while valid), `refuse`, `renew` (once expired),
    /// and `invoice` for an accepted quote not invoiced yet.
    #[ts(type = "Array<QuoteActionCode | 'invoice'>")]
    actions: Vec<&'static str>,
}

async fn detail(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<QuoteDetail>> {
    let caller = session.principal();
    let quote = wire::quote_read(&state, &caller, &id).await?;
    let invoice = wire::quote_invoice_read(&state, &caller, &quote.id).await?;
    let actions = match QuoteStatus::parse(&quote.status) {
        Some(status) => {
            crate::services::quotes::actions(&caller, status, invoice.is_some(), quote.expired)
        }
        None => Vec::new(),
    };
    Ok(Json(QuoteDetail {
        quote,
        invoice,
        actions,
    }))
}

async fn act(
    state: &AppState,
    session: &StaffSession,
    id: &str,
    action: QuoteAction,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::quote_act(state, &session.principal(), id, action)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

/// « Envoyer » : by e-mail to the chosen contacts (the body's `contactIds`),
/// or recorded as sent by other means (no contacts).
async fn send(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<SendBody>,
) -> AppResult<(StatusCode, Json<SentDocument>)> {
    crate::api::wire::mail::quote_send(&state, &session.principal(), &id, body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

async fn accept(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    act(&state, &session, &id, QuoteAction::Accept).await
}

async fn refuse(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    act(&state, &session, &id, QuoteAction::Refuse).await
}

/// « Renouveler la validité » of an expired quote.
async fn renew(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    act(&state, &session, &id, QuoteAction::Renew).await
}

/// The invoice draft made from the accepted quote: 201 naming the invoice.
async fn invoice(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<QuoteInvoiceBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::quote_invoice(&state, &session.principal(), &id, body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}
