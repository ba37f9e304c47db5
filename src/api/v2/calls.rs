//! `GET /api/v2/calls` (the agency's calls, filtered, searched and paged),
//! `GET /api/v2/calls/{id}`: a breakdown call as the agency sees it, and its
//! life: `POST /calls/{id}/assign` and `POST /calls/{id}/status` (the rules
//! are in `services::calls`). Each operation is one `pub async fn` shared by
//! the axum handler and the MCP tool. The
//! fields shared with the call-center API keep its French names
//! (`reference`, `statut`, `libelle`, `arriveLe`, `resoluLe`, `recuLe`,
//! `appelant`), so that one integration reads both the same way.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::calls::*;
use crate::api::wire::{Created, Page};
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::services::calls::Closing;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_calls))
        .routes(routes!(read_call))
        .routes(routes!(assign_call))
        .routes(routes!(change_call_status))
}

// -- List -------------------------------------------------------------------

/// Liste des appels de panne de l'agence.
///
/// Les appels « personne bloquée » non résolus d'abord, puis du plus récent au plus
/// ancien (heure de l'appel, puis identifiant, décroissants). `status=ouverts` garde
/// les appels non résolus ; `q` cherche, accents et casse ignorés, chaque mot dans la
/// référence, le numéro de l'équipement, le nom et l'adresse de l'immeuble et
/// l'appelant ; `equipment` garde les appels d'un équipement.
#[utoipa::path(
    get,
    path = "/calls",
    tag = "Appels",
    params(CallListQuery),
    responses(
        (status = 200, description = "Une page d'appels", body = Page<CallListEntry>,
            links(
                ("lireAppel" = (
                    operation_id = "read_call",
                    parameters(("id" = "$response.body#/results/0/id")),
                    description = "Lire le premier appel de la page"
                )),
                ("affecterAppel" = (
                    operation_id = "assign_call",
                    parameters(("id" = "$response.body#/results/0/id")),
                    description = "Affecter un technicien au premier appel de la page"
                )),
                ("statutAppel" = (
                    operation_id = "change_call_status",
                    parameters(("id" = "$response.body#/results/0/id")),
                    description = "Faire avancer le premier appel de la page"
                ))
            )
        ),
        (status = 422, description = "Statut inconnu, `limit` ou `page` hors des bornes", body = ErrorBody),
    )
)]
async fn list_calls(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<CallListQuery>,
) -> AppResult<Page<CallListEntry>> {
    call_list(&state, &caller, query).await
}

// -- Read -------------------------------------------------------------------

/// Un appel de panne de l'agence.
///
/// Les champs communs avec l'API des centres d'appels gardent leurs noms français
/// (`reference`, `statut`, `libelle`, `arriveLe`, `resoluLe`, `recuLe`, `appelant`).
#[utoipa::path(
    get,
    path = "/calls/{id}",
    tag = "Appels",
    params(("id" = String, Path, description = "Identifiant de l'appel")),
    responses(
        (status = 200, description = "L'appel", body = CallRead),
        (status = 404, description = "Appel introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn read_call(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<CallRead>> {
    call_read(&state, &caller, id).await.map(Json)
}

/// Affecte (ou réaffecte) un technicien à l'appel.
///
/// Le statut ne change pas : l'appel passe « en route » quand le technicien
/// part (`POST /calls/{id}/status`). Un appel résolu ne s'affecte plus (422),
/// ni à un technicien absent aujourd'hui ou en repos de sécurité après son
/// astreinte (422).
#[utoipa::path(
    post,
    path = "/calls/{id}/assign",
    tag = "Appels",
    params(("id" = String, Path, description = "Identifiant de l'appel")),
    request_body = AssignBody,
    responses(
        (status = 201, description = "Technicien affecté", body = Created,
            links(("ReadCall" = (operation_id = "read_call", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Appel introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Saisie refusée : technicien inconnu ou d'une autre agence, absent ou en repos de sécurité, nom qui ne correspond pas, appel résolu", body = ErrorBody),
    )
)]
async fn assign_call(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<AssignBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = assign(&state, &caller, id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Fait avancer l'appel dans ses statuts.
///
/// Transitions permises : `ouverte` → `en_route`, `sur_place` ou `resolue` ;
/// `en_route` → `ouverte`, `sur_place` ou `resolue` ; `sur_place` →
/// `a_l_arret` ou `resolue` ; `a_l_arret` → `sur_place` ou `resolue` ;
/// `resolue` est définitif. `en_route`, `sur_place` et `a_l_arret` demandent
/// un technicien affecté. La première arrivée sur place fixe `arriveLe`, le
/// passage à `resolue` fixe `resoluLe` et émet l'événement `appel.clos`.
#[utoipa::path(
    post,
    path = "/calls/{id}/status",
    tag = "Appels",
    params(("id" = String, Path, description = "Identifiant de l'appel")),
    request_body = StatusBody,
    responses(
        (status = 201, description = "Statut changé", body = Created,
            links(("ReadCall" = (operation_id = "read_call", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Appel introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Transition refusée depuis le statut actuel, ou sans technicien affecté", body = ErrorBody),
    )
)]
async fn change_call_status(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<StatusBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let created = change_status(&state, &caller, id, body, Closing::External).await?;
    Ok((StatusCode::CREATED, Json(created)))
}
