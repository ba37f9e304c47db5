//! `/app/api/invoices…`: the invoices and credit notes screen. The paged
//! list with the filters of `GET /api/v2/invoices`, a document with what may
//! be done next, draft editing, issue, sending, payment and credit notes.
//! Every handler calls the operations shared with the REST API v2
//! (`api::wire::invoices`) for the session's principal.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::wire::invoices::{
    self as wire, CreditNoteBody, InvoiceBody, InvoiceDraftBody, InvoiceRowView, InvoiceView,
    PaymentBody,
};
use crate::api::wire::mail::{SendBody, SentDocument};
use crate::api::wire::{Created, Page, PageQuery};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::InvoiceId;
use crate::error::AppResult;
use crate::services::invoices::{self as invoices, ListInput};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/invoices", get(list).post(create))
        .route("/invoices/{id}", get(detail).patch(update))
        .route("/invoices/{id}/issue", post(issue))
        .route("/invoices/{id}/send", post(send))
        .route("/invoices/{id}/payment", post(payment))
        .route("/invoices/{id}/credit-notes", post(credit_note))
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct ListQuery {
    client: Option<String>,
    status: Option<String>,
    since: Option<String>,
    until: Option<String>,
    /// `1` or `true`: only the invoices past due.
    overdue: Option<String>,
    /// The dashboard's figures: invoices issued, or paid, in a period; the
    /// unpaid ones of an age bucket.
    #[serde(rename = "issuedSince")]
    issued_since: Option<String>,
    #[serde(rename = "issuedUntil")]
    issued_until: Option<String>,
    #[serde(rename = "paidSince")]
    paid_since: Option<String>,
    #[serde(rename = "paidUntil")]
    paid_until: Option<String>,
    unpaid: Option<String>,
    pub(crate) limit: Option<String>,
    pub(crate) page: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> AppResult<Page<InvoiceRowView>> {
    list_page(&state, &session.principal(), query).await
}

/// One page of the list, as `GET /invoices` answers it (the export reads it
/// page by page).
pub(crate) async fn list_page(
    state: &AppState,
    principal: &crate::principal::Principal,
    query: ListQuery,
) -> AppResult<Page<InvoiceRowView>> {
    let blank = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
    let filter = ListInput {
        client: blank(query.client).map(|c| c.trim().to_owned()),
        statuses: blank(query.status).into_iter().collect(),
        since: blank(query.since),
        until: blank(query.until),
        overdue: overdue_flag(query.overdue.as_deref())?,
        issued_since: blank(query.issued_since),
        issued_until: blank(query.issued_until),
        paid_since: blank(query.paid_since),
        paid_until: blank(query.paid_until),
        unpaid: blank(query.unpaid),
    };
    let paging = PageQuery {
        limit: query.limit,
        page: query.page,
    };
    wire::invoice_list(state, principal, filter, paging).await
}

/// `overdue`: absent, blank, `0` or `false` is no filter; `1` or `true`
/// keeps the invoices past due; anything else is a French 400.
fn overdue_flag(text: Option<&str>) -> AppResult<bool> {
    match text.map(str::trim) {
        None | Some("" | "0" | "false") => Ok(false),
        Some("1" | "true") => Ok(true),
        Some(other) => Err(crate::error::AppError::bad_request(format!(
            "Le paramètre « overdue » vaut 1 (factures échues) ou 0 (reçu : « {other} »)."
        ))
        .into()),
    }
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<InvoiceBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::invoice_create(&state, &session.principal(), body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

/// A document, the actions its nature, status and the account's role allow,
/// and what remains to credit.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(super) struct InvoiceDetail {
    invoice: InvoiceView,
    /// `edit`, `issue`, `send`, `record_payment`, `credit_note`.
    #[ts(type = "Array<'edit' | InvoiceActionCode | 'credit_note'>")]
    actions: Vec<&'static str>,
    /// For an issued invoice: its total incl. tax less its issued credit
    /// notes, in euros; null otherwise.
    remaining_to_credit: Option<f64>,
}

async fn detail(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<Json<InvoiceDetail>> {
    let principal = session.principal();
    let detail = invoices::get(&state.store, &principal, &id).await?;
    let actions = invoices::actions(&principal, &detail);
    let remaining_to_credit = detail.remaining_to_credit.map(|r| r.euros());
    let invoice = wire::invoice_view(detail, &state.base_url);
    Ok(Json(InvoiceDetail {
        invoice,
        actions,
        remaining_to_credit,
    }))
}

/// PATCH: only the given fields change; an issued document answers 409.
async fn update(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
    ApiJson(body): ApiJson<InvoiceDraftBody>,
) -> AppResult<Json<Created>> {
    wire::invoice_update(&state, &session.principal(), &id, body)
        .await
        .map(Json)
}

async fn issue(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::invoice_issue(&state, &session.principal(), &id)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

/// « Envoyer » : by e-mail to the chosen contacts (the body's `contactIds`),
/// or recorded as sent by other means (no contacts).
async fn send(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
    OptionalJson(body): OptionalJson<SendBody>,
) -> AppResult<(StatusCode, Json<SentDocument>)> {
    crate::api::wire::mail::invoice_send(&state, &session.principal(), &id, body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

async fn payment(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
    OptionalJson(body): OptionalJson<PaymentBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::invoice_payment(&state, &session.principal(), &id, body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}

/// Administrators only (the service refuses members, 403); the answer names
/// the credit note.
async fn credit_note(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
    OptionalJson(body): OptionalJson<CreditNoteBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    wire::credit_note_create(&state, &session.principal(), &id, body)
        .await
        .map(|c| (StatusCode::CREATED, Json(c)))
}
