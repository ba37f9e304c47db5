//! `/app/api/invoices/{id}/pdf`, `/app/api/invoices/{id}/facturx.xml` and
//! `/app/api/quotes/{id}/pdf`: the documents for the web application
//! (viewed in the browser, downloaded), in the session's agency, through
//! the same functions as the REST API v2 (`GET /api/v2/invoices/{id}/pdf`,
//! `…/facturx.xml`, `GET /api/v2/quotes/{id}/pdf`).

use axum::Router;
use axum::extract::State;
use axum::routing::get;

use crate::api::extract::ApiPath;
use crate::api::pdf::{PdfResponse, XmlResponse};
use crate::api::wire::{invoices, quotes};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::InvoiceId;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/invoices/{id}/pdf", get(invoice_pdf))
        .route("/invoices/{id}/facturx.xml", get(invoice_facturx))
        .route("/quotes/{id}/pdf", get(quote_pdf))
}

async fn invoice_pdf(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<PdfResponse> {
    session.require_agency()?;
    invoices::invoice_pdf_file(&state, &session.principal(), &id)
        .await
        .map(PdfResponse)
}

async fn invoice_facturx(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<XmlResponse> {
    session.require_agency()?;
    invoices::invoice_facturx_file(&state, &session.principal(), &id)
        .await
        .map(XmlResponse)
}

async fn quote_pdf(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<PdfResponse> {
    session.require_agency()?;
    quotes::quote_pdf_file(&state, &session.principal(), &id)
        .await
        .map(PdfResponse)
}
