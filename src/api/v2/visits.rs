//! `GET /api/v2/visits/{id}` and the visit's transitions:
//! `POST /visits/{id}/start`, `/complete`, `/reschedule`, `/cancel-start`.
//! Each operation is one `pub async fn` shared by the axum handler and the
//! MCP tool.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::wire::{Created, RecordKind};
use crate::auth::api_token::ApiCaller;
use crate::clock;
use crate::error::{AppResult, ErrorBody};
use crate::services::visits::{self, Acting, CompleteInput, RescheduleInput, StartInput};
use crate::state::AppState;
use crate::store::visits::VisitRow;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(read_visit))
        .routes(routes!(start_visit))
        .routes(routes!(complete_visit))
        .routes(routes!(reschedule_visit))
        .routes(routes!(cancel_visit_start))
}

// -- Read -------------------------------------------------------------------

/// Type de l'objet : toujours `visite`.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum VisitType {
    Visite,
}

// Exactly the spec's Visit read.
/// Une visite d'entretien, telle que l'écran la montre.
#[derive(Serialize, ToSchema)]
pub struct VisitRead {
    /// Type de l'objet, au singulier : `visite`.
    #[serde(rename = "type")]
    pub kind: VisitType,
    /// Identifiant de la visite.
    pub id: String,
    /// Chemin de la visite dans le service.
    pub link: String,
    /// Adresse complète de la visite, à ouvrir dans un navigateur.
    pub url: String,
    /// Les champs de la visite, toujours tous présents.
    pub fields: VisitFields,
}

/// Champs d'une visite : chacun est un texte ou null. Les heures sont l'heure de Paris.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VisitFields {
    /// Prévue le (JJ/MM/AAAA).
    #[schema(required = true, example = "11/03/2026")]
    pub planned_for: Option<String>,
    /// Statut : `planifiee`, `en_cours` ou `faite`.
    #[schema(required = true, example = "planifiee")]
    pub status: Option<String>,
    /// Arrivée (JJ/MM/AAAA HH:MM, heure de Paris).
    #[schema(required = true, example = "11/03/2026 09:30")]
    pub arrived_at: Option<String>,
    /// Départ (JJ/MM/AAAA HH:MM, heure de Paris).
    #[schema(required = true, example = "11/03/2026 10:15")]
    pub left_at: Option<String>,
    /// Signé par.
    #[schema(required = true)]
    pub signed_by: Option<String>,
    /// Observations du technicien.
    #[schema(required = true)]
    pub observations: Option<String>,
}

/// `JJ/MM/AAAA HH:MM` in Paris time, from a stored UTC timestamp.
fn local_minute(stored: Option<&str>) -> Option<String> {
    stored
        .and_then(clock::parse_timestamp)
        .map(|at| clock::paris_local(at).format("%d/%m/%Y %H:%M").to_string())
}

/// `JJ/MM/AAAA` from a stored `YYYY-MM-DD`.
fn french_day(stored: &str) -> Option<String> {
    NaiveDate::parse_from_str(stored, "%Y-%m-%d")
        .ok()
        .map(|d| d.format("%d/%m/%Y").to_string())
}

impl VisitRead {
    fn new(row: VisitRow, base_url: &str) -> Self {
        let kind = RecordKind::Visit;
        Self {
            kind: VisitType::Visite,
            link: kind.link(&row.id),
            url: kind.url(base_url, &row.id),
            fields: VisitFields {
                planned_for: french_day(&row.planned_for),
                status: Some(row.status),
                arrived_at: local_minute(row.arrived_at.as_deref()),
                left_at: local_minute(row.left_at.as_deref()),
                signed_by: row.signed_by,
                observations: row.observations,
            },
            id: row.id,
        }
    }
}

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
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<VisitRead>> {
    visit_read(&state, &caller, id).await.map(Json)
}

/// The visit `id` of the acting agency (404 otherwise).
pub async fn visit_read(state: &AppState, caller: &ApiCaller, id: String) -> AppResult<VisitRead> {
    let agency_id = caller.require_agency()?.id.clone();
    let row = state
        .store
        .read(move |conn| visits::get(conn, &agency_id, &id))
        .await?;
    Ok(VisitRead::new(row, &state.base_url))
}

// -- Transitions ------------------------------------------------------------

/// Début de visite : l'arrivée du technicien.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StartBody {
    /// Heure d'arrivée, ISO 8601 avec fuseau (par exemple `2026-03-11T09:30:00+01:00`) ; par défaut maintenant. Pas dans le futur.
    #[schema(format = DateTime)]
    pub arrived_at: Option<String>,
}

/// Fin de visite : départ, signature, observations.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CompleteBody {
    /// Heure d'arrivée, ISO 8601 avec fuseau : obligatoire pour une visite qui n'a pas été commencée (bon saisi après coup), refusée pour une visite commencée.
    #[schema(format = DateTime)]
    pub arrived_at: Option<String>,
    /// Heure de départ, ISO 8601 avec fuseau ; par défaut maintenant. Pas avant l'arrivée, pas dans le futur.
    #[schema(format = DateTime)]
    pub left_at: Option<String>,
    /// Nom de la personne qui a signé le bon de visite.
    #[schema(min_length = 1, max_length = 200)]
    pub signed_by: String,
    /// Observations du technicien (4000 caractères au plus).
    #[schema(max_length = 4000)]
    pub observations: Option<String>,
}

/// Replanification d'une visite qui n'a pas commencé.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RescheduleBody {
    /// Nouveau jour, AAAA-MM-JJ, à partir d'aujourd'hui.
    #[schema(format = Date)]
    pub planned_for: String,
    /// Technicien actif de la même agence qui fera la visite ; absent ou null : inchangé.
    pub technician_id: Option<String>,
}

fn acting(caller: &ApiCaller) -> AppResult<Acting> {
    Ok(Acting {
        agency_id: caller.require_agency()?.id.clone(),
        role: caller.account.role,
        actor: caller.actor.clone(),
    })
}

fn created(state: &AppState, id: &str) -> Created {
    Created::new(RecordKind::Visit, &state.base_url, id)
}

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
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<StartBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = start(&state, &caller, id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Starts the visit `id` of the acting agency (`body` may be left out).
pub async fn start(
    state: &AppState,
    caller: &ApiCaller,
    id: String,
    body: Option<StartBody>,
) -> AppResult<Created> {
    let acting = acting(caller)?;
    let input = StartInput {
        arrived_at: body.and_then(|b| b.arrived_at),
    };
    let visit_id = id.clone();
    state
        .store
        .write(move |tx| visits::start(tx, &acting, &visit_id, &input, tx.now()))
        .await?;
    Ok(created(state, &id))
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
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<CompleteBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = complete(&state, &caller, id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Completes the visit `id` of the acting agency.
pub async fn complete(
    state: &AppState,
    caller: &ApiCaller,
    id: String,
    body: CompleteBody,
) -> AppResult<Created> {
    let acting = acting(caller)?;
    let input = CompleteInput {
        arrived_at: body.arrived_at,
        left_at: body.left_at,
        signed_by: body.signed_by,
        observations: body.observations,
    };
    let visit_id = id.clone();
    state
        .store
        .write(move |tx| visits::complete(tx, &acting, &visit_id, &input, tx.now()))
        .await?;
    Ok(created(state, &id))
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
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<RescheduleBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = reschedule(&state, &caller, id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Reschedules the visit `id` of the acting agency.
pub async fn reschedule(
    state: &AppState,
    caller: &ApiCaller,
    id: String,
    body: RescheduleBody,
) -> AppResult<Created> {
    let acting = acting(caller)?;
    let input = RescheduleInput {
        planned_for: body.planned_for,
        technician_id: body.technician_id,
    };
    let visit_id = id.clone();
    state
        .store
        .write(move |tx| {
            let now = tx.now();
            visits::reschedule(
                tx,
                &acting,
                &visit_id,
                &input,
                clock::paris_local(now).date(),
                now,
            )
        })
        .await?;
    Ok(created(state, &id))
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
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = cancel_start(&state, &caller, id).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Undoes the start of the visit `id` of the acting agency.
pub async fn cancel_start(state: &AppState, caller: &ApiCaller, id: String) -> AppResult<Created> {
    let acting = acting(caller)?;
    let visit_id = id.clone();
    state
        .store
        .write(move |tx| visits::cancel_start(tx, &acting, &visit_id, tx.now()))
        .await?;
    Ok(created(state, &id))
}
