//! `GET /api/v2/agencies`: the agencies the token can read, with their
//! organization and, for an agency carried over from V1, its V1 identifier;
//! and the organization's agencies as their administrators manage them
//! (`/agencies/managed`, create, rename, archive, restore).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::agencies::*;
use crate::auth::api_token::ApiCaller;
use crate::domain::id::AgencyId;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_agencies, create_agency))
        .routes(routes!(list_managed_agencies))
        .routes(routes!(rename_agency))
        .routes(routes!(archive_agency))
        .routes(routes!(restore_agency))
}

/// Les agences que le jeton peut lire, avec leur organisation et leur identifiant V1.
///
/// Pour le compte de service de l'opérateur sans agence demandée : les agences de toutes
/// les organisations clientes ; avec `X-Service-Agency` : celles de l'organisation de
/// cette agence. Pour tout autre compte : les agences où il travaille (toutes celles de
/// son organisation pour un administrateur de l'organisation).
#[utoipa::path(
    get,
    path = "/agencies",
    tag = "Organisation",
    responses((status = 200, description = "Les agences lisibles", body = AgencyList))
)]
async fn list_agencies(caller: ApiCaller) -> AppResult<Json<AgencyList>> {
    agency_list(&caller).map(Json)
}

/// Les agences de l'organisation telles que ses administrateurs les gèrent : en activité
/// d'abord, puis archivées, avec ce qui manque à leur identité pour facturer.
#[utoipa::path(
    get,
    path = "/agencies/managed",
    tag = "Organisation",
    responses(
        (status = 200, description = "Les agences", body = AgenciesAnswer),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
    )
)]
async fn list_managed_agencies(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Json<AgenciesAnswer>> {
    agencies_managed(&state, &caller).await.map(Json)
}

/// Crée une agence de l'organisation (administrateurs de l'organisation), avec son identité
/// si elle est connue.
#[utoipa::path(
    post,
    path = "/agencies",
    tag = "Organisation",
    request_body = NewAgencyBody,
    responses(
        (status = 201, description = "Agence créée", body = AgencyEntryWire),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 403, description = "Réservé à un administrateur de l'organisation", body = ErrorBody),
        (status = 409, description = "Nom déjà pris dans l'organisation", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Nom manquant ou identité invalide", body = ErrorBody),
    )
)]
async fn create_agency(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<NewAgencyBody>,
) -> AppResult<(StatusCode, Json<AgencyEntryWire>)> {
    agency_create(&state, &caller, body)
        .await
        .map(|entry| (StatusCode::CREATED, Json(entry)))
}

/// Renomme une agence (ses administrateurs).
#[utoipa::path(
    patch,
    path = "/agencies/{id}",
    tag = "Organisation",
    params(("id" = String, Path, description = "Identifiant de l'agence")),
    request_body = RenameBody,
    responses(
        (status = 200, description = "L'agence renommée", body = AgencyEntryWire),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 403, description = "Réservé à un administrateur de l'agence", body = ErrorBody),
        (status = 404, description = "Agence introuvable", body = ErrorBody),
        (status = 409, description = "Nom déjà pris dans l'organisation", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Nom manquant", body = ErrorBody),
    )
)]
async fn rename_agency(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<AgencyId>,
    ApiJson(body): ApiJson<RenameBody>,
) -> AppResult<Json<AgencyEntryWire>> {
    agency_rename(&state, &caller, id, body).await.map(Json)
}

/// Archive une agence (administrateurs de l'organisation) : ses clés de centre d'appels et
/// ses abonnements webhook sont révoqués, ses clés partenaires retirées. Refusé pour la
/// dernière agence, avec des appels ouverts, ou quand des comptes actifs n'y travaillent
/// que là.
#[utoipa::path(
    post,
    path = "/agencies/{id}/archive",
    tag = "Organisation",
    params(("id" = String, Path, description = "Identifiant de l'agence")),
    responses(
        (status = 200, description = "L'agence archivée et ce qui a été arrêté", body = ArchiveAnswer),
        (status = 403, description = "Réservé à un administrateur de l'organisation", body = ErrorBody),
        (status = 404, description = "Agence introuvable", body = ErrorBody),
        (status = 409, description = "Agence déjà archivée", body = ErrorBody),
        (status = 422, description = "Archivage refusé, avec la raison", body = ErrorBody),
    )
)]
async fn archive_agency(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<AgencyId>,
) -> AppResult<Json<ArchiveAnswer>> {
    agency_archive(&state, &caller, id).await.map(Json)
}

/// Remet au travail une agence archivée (administrateurs de l'organisation).
#[utoipa::path(
    post,
    path = "/agencies/{id}/restore",
    tag = "Organisation",
    params(("id" = String, Path, description = "Identifiant de l'agence")),
    responses(
        (status = 200, description = "L'agence réactivée", body = AgencyEntryWire),
        (status = 403, description = "Réservé à un administrateur de l'organisation", body = ErrorBody),
        (status = 404, description = "Agence introuvable", body = ErrorBody),
        (status = 409, description = "Agence pas archivée", body = ErrorBody),
        (status = 422, description = "Refusé", body = ErrorBody),
    )
)]
async fn restore_agency(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<AgencyId>,
) -> AppResult<Json<AgencyEntryWire>> {
    agency_restore(&state, &caller, id).await.map(Json)
}
