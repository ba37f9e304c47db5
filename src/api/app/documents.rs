//! `/app/api/invoices/{id}/pdf` and `/app/api/quotes/{id}/pdf`: the PDF
//! documents for the web application (viewed in the browser, downloaded),
//! in the session's agency, through the same functions as the REST API v2
//! (`GET /api/v2/invoices/{id}/pdf`, `GET /api/v2/quotes/{id}/pdf`).

use axum::Router;
use axum::extract::State;
use axum::routing::get;

use crate::api::extract::ApiPath;
use crate::api::pdf::PdfResponse;
use crate::api::wire::{invoices, quotes};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::InvoiceId;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/invoices/{id}/pdf", get(invoice_pdf))
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
