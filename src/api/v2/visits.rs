//! `GET /api/v2/visits/{id}` and the visit's transitions:
//! `POST /visits/{id}/start`, `/complete`, `/reschedule`, `/cancel-start`;
//! a done visit's report: `GET /visits/{id}/report` (PDF),
//! `POST /visits/{id}/send-report` (by e-mail), `GET /visits/{id}/mails`.
//! Each operation is one `pub async fn` shared by the axum handler and the
//! MCP tool.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::pdf::{PdfBinary, PdfResponse};
use crate::api::wire::Created;
use crate::api::wire::mail::{self, MailWire, SendBody};
use crate::api::wire::visits::*;
use crate::auth::api_token::ApiCaller;
use crate::domain::id::VisitId;
use crate::error::{AppResult, ErrorBody};
use crate::services::mailing::MailObject;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(read_visit))
        .routes(routes!(start_visit))
        .routes(routes!(complete_visit))
        .routes(routes!(reschedule_visit))
        .routes(routes!(cancel_visit_start))
        .routes(routes!(get_visit_report))
        .routes(routes!(send_visit_report))
        .routes(routes!(list_visit_mails))
}

// -- The report ---------------------------------------------------------------

/// Le rapport PDF d'une visite faite (l'appareil et son lieu, le jour et
/// les heures, le technicien, le signataire sur place, les observations).
#[utoipa::path(
    get,
    path = "/visits/{id}/report",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    responses(
        (status = 200, description = "Le rapport", body = PdfBinary, content_type = "application/pdf"),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Visite pas encore faite : pas de rapport", body = ErrorBody),
    )
)]
async fn get_visit_report(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<PdfResponse> {
    crate::services::documents::visit_report_pdf(&state.store, &caller, &id)
        .await
        .map(PdfResponse)
        .map_err(Into::into)
}

/// Envoie le rapport d'une visite faite par e-mail, son PDF joint, aux
/// contacts choisis du client de l'appareil (`contactIds`, au moins un),
/// depuis l'adresse de l'agence. Le message est essayé aussitôt, puis de
/// nouveau en cas d'échec.
#[utoipa::path(
    post,
    path = "/visits/{id}/send-report",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    request_body = SendBody,
    responses(
        (status = 201, description = "Message écrit, après son premier essai", body = MailWire),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Visite pas encore faite ; aucun contact, contact d'un autre client ou sans adresse ; adresse e-mail de l'agence ou serveur d'envoi non réglés", body = ErrorBody),
    )
)]
async fn send_visit_report(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<SendBody>,
) -> AppResult<(StatusCode, Json<MailWire>)> {
    mail::visit_report_send(&state, &caller, &id, body)
        .await
        .map(|m| (StatusCode::CREATED, Json(m)))
}

/// Les rapports de la visite envoyés par e-mail, du plus récent au plus ancien.
#[utoipa::path(
    get,
    path = "/visits/{id}/mails",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    responses(
        (status = 200, description = "Messages de la visite", body = Vec<MailWire>),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn list_visit_mails(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<Json<Vec<MailWire>>> {
    mail::mails(&state, &caller, MailObject::Visit(id))
        .await
        .map(Json)
}

// -- Read -------------------------------------------------------------------

/// Une visite d'entretien de l'agence.
#[utoipa::path(
    get,
    path = "/visits/{id}",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    responses(
        (status = 200, description = "La visite", body = VisitRead),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn read_visit(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<Json<VisitRead>> {
    visit_read(&state, &caller, id).await.map(Json)
}

// -- Transitions ------------------------------------------------------------

/// Commence une visite : `planifiee` → `en_cours`, avec l'heure d'arrivée.
///
/// Le corps peut être omis (arrivée maintenant).
#[utoipa::path(
    post,
    path = "/visits/{id}/start",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    request_body = Option<StartBody>,
    responses(
        (status = 201, description = "Visite commencée", body = Created,
            links(
                ("lireVisite" = (operation_id = "read_visit", parameters(("id" = "$response.body#/id")))),
                ("commencerVisite" = (operation_id = "start_visit", parameters(("id" = "$response.body#/id")))),
                ("terminerVisite" = (operation_id = "complete_visit", parameters(("id" = "$response.body#/id")))),
                ("replanifierVisite" = (operation_id = "reschedule_visit", parameters(("id" = "$response.body#/id")))),
                ("annulerDebutVisite" = (operation_id = "cancel_visit_start", parameters(("id" = "$response.body#/id")))),
            )
        ),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Action refusée par l'état de la visite, ou heure invalide", body = ErrorBody),
    )
)]
async fn start_visit(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
    OptionalJson(body): OptionalJson<StartBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = start(&state, &caller, id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Termine une visite : `planifiee` ou `en_cours` → `faite`, avec départ, signature et observations.
///
/// Le jour de la visite faite est le jour (heure de Paris) du départ.
#[utoipa::path(
    post,
    path = "/visits/{id}/complete",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    request_body = CompleteBody,
    responses(
        (status = 201, description = "Visite faite", body = Created,
            links(
                ("lireVisite" = (operation_id = "read_visit", parameters(("id" = "$response.body#/id")))),
                ("commencerVisite" = (operation_id = "start_visit", parameters(("id" = "$response.body#/id")))),
                ("terminerVisite" = (operation_id = "complete_visit", parameters(("id" = "$response.body#/id")))),
                ("replanifierVisite" = (operation_id = "reschedule_visit", parameters(("id" = "$response.body#/id")))),
                ("annulerDebutVisite" = (operation_id = "cancel_visit_start", parameters(("id" = "$response.body#/id")))),
            )
        ),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Action refusée par l'état de la visite, champ manquant ou invalide, départ avant l'arrivée", body = ErrorBody),
    )
)]
async fn complete_visit(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<CompleteBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = complete(&state, &caller, id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Replanifie une visite qui n'a pas commencé, éventuellement pour un autre technicien.
#[utoipa::path(
    post,
    path = "/visits/{id}/reschedule",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    request_body = RescheduleBody,
    responses(
        (status = 201, description = "Visite replanifiée", body = Created,
            links(
                ("lireVisite" = (operation_id = "read_visit", parameters(("id" = "$response.body#/id")))),
                ("commencerVisite" = (operation_id = "start_visit", parameters(("id" = "$response.body#/id")))),
                ("terminerVisite" = (operation_id = "complete_visit", parameters(("id" = "$response.body#/id")))),
                ("replanifierVisite" = (operation_id = "reschedule_visit", parameters(("id" = "$response.body#/id")))),
                ("annulerDebutVisite" = (operation_id = "cancel_visit_start", parameters(("id" = "$response.body#/id")))),
            )
        ),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Action refusée par l'état de la visite, jour invalide ou passé, technicien inconnu ou absent", body = ErrorBody),
    )
)]
async fn reschedule_visit(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<RescheduleBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = reschedule(&state, &caller, id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Annule le début d'une visite : `en_cours` → `planifiee`, l'heure d'arrivée est effacée.
///
/// Pour une visite commencée qui ne peut pas se faire (accès impossible, mauvaise visite),
/// avant de la replanifier.
#[utoipa::path(
    post,
    path = "/visits/{id}/cancel-start",
    tag = "Visites",
    params(("id" = String, Path, description = "Identifiant de la visite")),
    responses(
        (status = 201, description = "Début annulé : la visite est de nouveau planifiée", body = Created,
            links(
                ("lireVisite" = (operation_id = "read_visit", parameters(("id" = "$response.body#/id")))),
                ("commencerVisite" = (operation_id = "start_visit", parameters(("id" = "$response.body#/id")))),
                ("terminerVisite" = (operation_id = "complete_visit", parameters(("id" = "$response.body#/id")))),
                ("replanifierVisite" = (operation_id = "reschedule_visit", parameters(("id" = "$response.body#/id")))),
                ("annulerDebutVisite" = (operation_id = "cancel_visit_start", parameters(("id" = "$response.body#/id")))),
            )
        ),
        (status = 404, description = "Visite introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Action refusée par l'état de la visite", body = ErrorBody),
    )
)]
async fn cancel_visit_start(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<VisitId>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = cancel_start(&state, &caller, id).await?;
    Ok((StatusCode::CREATED, Json(created)))
}
