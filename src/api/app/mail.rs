//! `/app/api/…` of documents sent by e-mail and of the outgoing server:
//! the send dialog's starting point (`GET /quotes|invoices|visits/{id}/send-options`),
//! the messages of a document (`GET /quotes|invoices|visits/{id}/mails`),
//! a visit's report (`GET /visits/{id}/report.pdf`, `POST /visits/{id}/send-report`),
//! a failed message asked again (`POST /mails/{id}/retry`), and the
//! organization's outgoing server on the settings screen
//! (`GET|PUT /mail-settings`, `POST /mail-settings/test`). « Envoyer » on a
//! quote or an invoice is `POST /quotes/{id}/send` and
//! `POST /invoices/{id}/send` (their own modules), with the same body.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::api::extract::ApiPath;
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::pdf::PdfResponse;
use crate::api::wire::mail::{
    self as wire, MailSettingsBody, MailSettingsWire, MailTestBody, MailTestSent, MailWire,
    SendBody, SendOptionsWire,
};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::{InvoiceId, QuoteId, VisitId};
use crate::error::AppResult;
use crate::services::documents;
use crate::services::mailing::MailObject;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/quotes/{id}/send-options", get(quote_options))
        .route("/invoices/{id}/send-options", get(invoice_options))
        .route("/visits/{id}/send-options", get(visit_options))
        .route("/quotes/{id}/mails", get(quote_mails))
        .route("/invoices/{id}/mails", get(invoice_mails))
        .route("/visits/{id}/mails", get(visit_mails))
        .route("/visits/{id}/report.pdf", get(visit_report))
        .route("/visits/{id}/send-report", post(send_report))
        .route("/mails/{id}/retry", post(retry))
        .route("/mail-settings", get(settings_read).put(settings_save))
        .route("/mail-settings/test", post(settings_test))
}

async fn options(
    state: &AppState,
    session: &StaffSession,
    object: MailObject,
) -> AppResult<Json<SendOptionsWire>> {
    session.require_agency()?;
    wire::send_options(state, &session.principal(), object)
        .await
        .map(Json)
}

async fn quote_options(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<QuoteId>,
) -> AppResult<Json<SendOptionsWire>> {
    options(&state, &session, MailObject::Quote(id)).await
}

async fn invoice_options(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<Json<SendOptionsWire>> {
    options(&state, &session, MailObject::Invoice(id)).await
}

async fn visit_options(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<Json<SendOptionsWire>> {
    options(&state, &session, MailObject::Visit(id)).await
}

async fn mails(
    state: &AppState,
    session: &StaffSession,
    object: MailObject,
) -> AppResult<Json<Vec<MailWire>>> {
    session.require_agency()?;
    wire::mails(state, &session.principal(), object)
        .await
        .map(Json)
}

async fn quote_mails(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<QuoteId>,
) -> AppResult<Json<Vec<MailWire>>> {
    mails(&state, &session, MailObject::Quote(id)).await
}

async fn invoice_mails(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<Json<Vec<MailWire>>> {
    mails(&state, &session, MailObject::Invoice(id)).await
}

async fn visit_mails(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<Json<Vec<MailWire>>> {
    mails(&state, &session, MailObject::Visit(id)).await
}

async fn visit_report(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<PdfResponse> {
    session.require_agency()?;
    documents::visit_report_pdf(&state.store, &session.principal(), &id)
        .await
        .map(PdfResponse)
        .map_err(Into::into)
}

async fn send_report(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<SendBody>,
) -> AppResult<(StatusCode, Json<MailWire>)> {
    session.require_agency()?;
    wire::visit_report_send(&state, &session.principal(), &id, body)
        .await
        .map(|m| (StatusCode::CREATED, Json(m)))
}

async fn retry(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<MailWire>> {
    session.require_agency()?;
    wire::retry(&state, &session.principal(), &id)
        .await
        .map(Json)
}

async fn settings_read(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<MailSettingsWire>> {
    session.require_agency()?;
    wire::settings_read(&state, &session.principal())
        .await
        .map(Json)
}

async fn settings_save(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<MailSettingsBody>,
) -> AppResult<Json<MailSettingsWire>> {
    session.require_agency()?;
    wire::settings_save(&state, &session.principal(), body)
        .await
        .map(Json)
}

async fn settings_test(
    State(state): State<AppState>,
    session: StaffSession,
    OptionalJson(body): OptionalJson<MailTestBody>,
) -> AppResult<Json<MailTestSent>> {
    session.require_agency()?;
    wire::settings_test(&state, &session.principal(), body)
        .await
        .map(Json)
}
