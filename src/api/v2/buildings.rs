//! `/api/v2/buildings…`: the acting agency's buildings, as the screens see
//! them (`wire::buildings`, `services::buildings`): found by text, created
//! with their client and access instructions, read, and how a technician
//! gets in changed (digicode, key box, Vigik).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::buildings::*;
use crate::auth::api_token::ApiCaller;
use crate::domain::id::BuildingId;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(search_buildings, create_building))
        .routes(routes!(get_building))
        .routes(routes!(set_building_access))
}

/// Recherche d'immeubles.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct BuildingSearchQuery {
    /// Mots cherchés dans le nom, l'adresse, la ville ou le client (accents et casse
    /// ignorés) ; absent : tous les immeubles.
    #[param(max_length = 100)]
    pub q: Option<String>,
}

/// Les immeubles de l'agence qui correspondent, 50 au plus, par adresse, avec leur
/// nombre total et les consignes d'accès possibles.
#[utoipa::path(
    get,
    path = "/buildings",
    tag = "Équipements",
    params(BuildingSearchQuery),
    responses(
        (status = 200, description = "Immeubles trouvés", body = BuildingsAnswer),
        (status = 400, description = "Paramètre illisible", body = ErrorBody),
        (status = 422, description = "Recherche trop longue", body = ErrorBody),
    )
)]
async fn search_buildings(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<BuildingSearchQuery>,
) -> AppResult<Json<BuildingsAnswer>> {
    building_search(&state, &caller, query.q.as_deref())
        .await
        .map(Json)
}

/// Crée un immeuble de l'agence : l'adresse est obligatoire ; le client (son
/// identifiant partenaire) et les consignes d'accès s'ils sont connus.
#[utoipa::path(
    post,
    path = "/buildings",
    tag = "Équipements",
    request_body = NewBuildingBody,
    responses(
        (status = 201, description = "Immeuble créé", body = BuildingView,
            links(("GetBuilding" = (operation_id = "get_building", parameters(("id" = "$response.body#/id")))))),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ manquant ou invalide, client inconnu", body = ErrorBody),
    )
)]
async fn create_building(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<NewBuildingBody>,
) -> AppResult<(StatusCode, Json<BuildingView>)> {
    building_create(&state, &caller, body)
        .await
        .map(|view| (StatusCode::CREATED, Json(view)))
}

/// Un immeuble de l'agence, son client, ses consignes d'accès et son nombre
/// d'équipements.
#[utoipa::path(
    get,
    path = "/buildings/{id}",
    tag = "Équipements",
    params(("id" = String, Path, description = "Identifiant de l'immeuble")),
    responses(
        (status = 200, description = "L'immeuble", body = BuildingView),
        (status = 404, description = "Immeuble introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_building(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<BuildingId>,
) -> AppResult<Json<BuildingView>> {
    building_read(&state, &caller, id).await.map(Json)
}

/// Remplace les consignes d'accès de l'immeuble (« Sans », « Digicode »,
/// « Coffre à clé », « Vigik », « Autre » avec ses précisions ; le digicode et
/// l'emplacement du coffre).
#[utoipa::path(
    put,
    path = "/buildings/{id}/access",
    tag = "Équipements",
    params(("id" = String, Path, description = "Identifiant de l'immeuble")),
    request_body = AccessWire,
    responses(
        (status = 200, description = "L'immeuble, consignes changées", body = BuildingView),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 404, description = "Immeuble introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Consigne inconnue ou précision manquante", body = ErrorBody),
    )
)]
async fn set_building_access(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<BuildingId>,
    ApiJson(body): ApiJson<AccessWire>,
) -> AppResult<Json<BuildingView>> {
    building_access(&state, &caller, id, body).await.map(Json)
}
