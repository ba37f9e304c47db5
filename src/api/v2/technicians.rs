//! `GET /api/v2/technicians`: the acting agency's technicians, with their
//! calls in progress, standby duty, absence and safety rest; and their
//! records as the administrators manage them (`/technicians/records`,
//! create, read, edit, deactivate, reactivate).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::Rows;
use crate::api::wire::technicians::*;
use crate::auth::api_token::ApiCaller;
use crate::domain::id::TechnicianId;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_technicians, create_technician))
        .routes(routes!(list_technician_records))
        .routes(routes!(get_technician, edit_technician))
        .routes(routes!(deactivate_technician))
        .routes(routes!(reactivate_technician))
}

/// Les techniciens actifs de l'agence, triés par nom.
///
/// `openCalls` compte les appels affectés non résolus ; `onCall` dit si une période
/// d'astreinte couvre l'instant présent ; `absentUntil` est le dernier jour de l'absence
/// en cours (les absences qui se suivent jour après jour comptent pour une) ; `offUntil`
/// est la fin du repos de sécurité (11 heures par défaut) quand une astreinte s'est
/// terminée il y a moins longtemps que ce repos.
#[utoipa::path(
    get,
    path = "/technicians",
    tag = "Planning",
    responses((status = 200, description = "Les techniciens de l'agence", body = Vec<TechnicianView>))
)]
async fn list_technicians(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Rows<TechnicianView>> {
    technician_list(&state, &caller).await.map(Rows)
}

/// Les fiches des techniciens de l'agence, actifs ou non (nom, téléphone, secteurs,
/// capacité par jour, repos de sécurité, compte lié), et si l'appelant peut les modifier.
#[utoipa::path(
    get,
    path = "/technicians/records",
    tag = "Planning",
    responses((status = 200, description = "Les fiches des techniciens", body = TechnicianRecords))
)]
async fn list_technician_records(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Json<TechnicianRecords>> {
    technician_records(&state, &caller).await.map(Json)
}

/// Ajoute un technicien à l'agence (administrateurs) : nom obligatoire, téléphone,
/// secteurs, visites par jour au plus. Il entre au planning et aux astreintes.
#[utoipa::path(
    post,
    path = "/technicians",
    tag = "Planning",
    request_body = NewTechnicianBody,
    responses(
        (status = 201, description = "Technicien créé", body = TechnicianRecordWire),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 403, description = "Réservé à un administrateur de l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ manquant ou invalide", body = ErrorBody),
    )
)]
async fn create_technician(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<NewTechnicianBody>,
) -> AppResult<(StatusCode, Json<TechnicianRecordWire>)> {
    technician_create(&state, &caller, body)
        .await
        .map(|row| (StatusCode::CREATED, Json(row)))
}

/// La fiche d'un technicien de l'agence, actif ou non.
#[utoipa::path(
    get,
    path = "/technicians/{id}",
    tag = "Planning",
    params(("id" = String, Path, description = "Identifiant du technicien")),
    responses(
        (status = 200, description = "La fiche", body = TechnicianRecordWire),
        (status = 404, description = "Technicien introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_technician(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<TechnicianId>,
) -> AppResult<Json<TechnicianRecordWire>> {
    technician_record(&state, &caller, &id).await.map(Json)
}

/// Change les champs donnés d'un technicien (administrateurs) ; `phone` vide l'efface.
#[utoipa::path(
    patch,
    path = "/technicians/{id}",
    tag = "Planning",
    params(("id" = String, Path, description = "Identifiant du technicien")),
    request_body = EditTechnicianBody,
    responses(
        (status = 200, description = "La fiche", body = TechnicianRecordWire),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 403, description = "Réservé à un administrateur de l'agence", body = ErrorBody),
        (status = 404, description = "Technicien introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ invalide", body = ErrorBody),
    )
)]
async fn edit_technician(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<TechnicianId>,
    ApiJson(body): ApiJson<EditTechnicianBody>,
) -> AppResult<Json<TechnicianRecordWire>> {
    technician_edit(&state, &caller, &id, body).await.map(Json)
}

/// Retire un technicien du planning, des propositions et des astreintes
/// (administrateurs) ; ses visites passées restent.
#[utoipa::path(
    post,
    path = "/technicians/{id}/deactivate",
    tag = "Planning",
    params(("id" = String, Path, description = "Identifiant du technicien")),
    responses(
        (status = 200, description = "La fiche", body = TechnicianRecordWire),
        (status = 403, description = "Réservé à un administrateur de l'agence", body = ErrorBody),
        (status = 404, description = "Technicien introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Refusé (appels en cours, astreinte à venir…)", body = ErrorBody),
    )
)]
async fn deactivate_technician(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<TechnicianId>,
) -> AppResult<Json<TechnicianRecordWire>> {
    technician_set_active(&state, &caller, &id, false)
        .await
        .map(Json)
}

/// Remet un technicien au planning (administrateurs).
#[utoipa::path(
    post,
    path = "/technicians/{id}/reactivate",
    tag = "Planning",
    params(("id" = String, Path, description = "Identifiant du technicien")),
    responses(
        (status = 200, description = "La fiche", body = TechnicianRecordWire),
        (status = 403, description = "Réservé à un administrateur de l'agence", body = ErrorBody),
        (status = 404, description = "Technicien introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn reactivate_technician(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<TechnicianId>,
) -> AppResult<Json<TechnicianRecordWire>> {
    technician_set_active(&state, &caller, &id, true)
        .await
        .map(Json)
}
