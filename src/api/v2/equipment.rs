//! `GET /api/v2/equipment` (search by number, building or address, paged),
//! `PATCH /api/v2/equipment/{id}/identity` (identity correction) and
//! `PATCH /api/v2/equipment/{id}` (technical data, named as in the partner
//! workflow API).

use crate::domain::id::EquipmentId;
use axum::Json;
use axum::extract::State;
use serde_json::{Map, Value};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::Page;
use crate::api::wire::equipment::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::services::technical_data;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_equipment))
        .routes(routes!(correct_identity))
        .routes(routes!(update_technical_data))
}

/// Chercher des équipements de l'agence.
///
/// Par numéro, immeuble ou adresse : `q` garde les équipements dont le
/// numéro, le nom de l'immeuble, l'adresse, le complément d'adresse, le code
/// postal et la ville contiennent chacun de ses mots (accents et casse
/// ignorés). Triés par numéro (espaces et casse ignorés ; les équipements
/// sans numéro à la fin), puis par identifiant.
#[utoipa::path(
    get,
    path = "/equipment",
    tag = "Équipements",
    params(EquipmentListQuery),
    responses(
        (status = 200, description = "Une page d'équipements", body = Page<EquipmentListEntry>,
            links(
                ("donneesEquipement" = (
                    operation_id = "equipment_data",
                    parameters(("number" = "$response.body#/results/0/number")),
                    description = "Les données du premier équipement de la page"
                )),
                ("chercherDonneesTechniques" = (
                    operation_id = "technical_fields",
                    parameters(("equipment" = "$response.body#/results/0/id")),
                    description = "Chercher les données techniques du premier équipement de la page"
                )),
                ("corrigerIdentite" = (
                    operation_id = "correct_identity",
                    parameters(("id" = "$response.body#/results/0/id")),
                    description = "Corriger l'identité du premier équipement de la page"
                ))
            )
        ),
        (status = 422, description = "`limit` ou `page` hors des bornes", body = ErrorBody),
    )
)]
async fn list_equipment(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<EquipmentListQuery>,
) -> AppResult<Page<EquipmentListEntry>> {
    equipment_list(&state, &caller, query).await
}

/// Corriger l'identité d'un équipement.
///
/// Seuls les champs envoyés changent ; `""` ou `null` efface le champ. Un
/// type ou un contrat inconnu, un caractère de contrôle sont refusés (422) ;
/// un numéro déjà porté par un autre équipement de l'agence (espaces et casse
/// ignorés) est refusé (422). Les données techniques se corrigent par
/// `PATCH /equipment/{id}`.
#[utoipa::path(
    patch,
    path = "/equipment/{id}/identity",
    tag = "Équipements",
    params(("id" = String, Path, description = "Identifiant de l'équipement")),
    request_body(content = IdentityBody, description = "Les champs à corriger (tous facultatifs)"),
    responses(
        (status = 200, description = "L'identité de l'équipement après correction", body = IdentityView,
            links(
                ("donneesEquipement" = (
                    operation_id = "equipment_data",
                    parameters(("number" = "$response.body#/number")),
                    description = "Les données de l'équipement corrigé"
                )),
                ("chercherDonneesTechniques" = (
                    operation_id = "technical_fields",
                    parameters(("equipment" = "$response.body#/id")),
                    description = "Chercher les données techniques de l'équipement corrigé"
                ))
            )
        ),
        (status = 404, description = "Équipement introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ inconnu, valeur refusée, ou numéro déjà porté par un autre équipement de l'agence", body = ErrorBody),
    )
)]
async fn correct_identity(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<IdentityBody>,
) -> AppResult<Json<IdentityView>> {
    Ok(Json(identity_correction(&state, &caller, id, body).await?))
}

/// Corriger les données techniques d'un équipement.
///
/// Les noms sont ceux de l'API partenaire (`charge_utile`, `vitesse`,
/// `type_entrainement`…) ; types et valeurs autorisées viennent du catalogue
/// des données techniques. `null` efface une donnée. La réponse est
/// l'ensemble des données techniques de l'équipement.
#[utoipa::path(
    patch,
    path = "/equipment/{id}",
    tag = "Équipements",
    params(("id" = String, Path, description = "Identifiant de l'équipement")),
    request_body(content = TechnicalDataBody, description = "Les données techniques à corriger (toutes facultatives)"),
    responses(
        (status = 200, description = "Les données techniques de l'équipement après correction", body = TechnicalDataView),
        (status = 404, description = "Équipement introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ inconnu ou en lecture seule, valeur du mauvais type ou hors de la liste autorisée", body = ErrorBody),
    )
)]
async fn update_technical_data(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<Map<String, Value>>,
) -> AppResult<Json<Map<String, Value>>> {
    let data = technical_data::update_for(
        &state.store,
        &caller,
        &EquipmentId::new(id.as_str()),
        body,
        technical_data::FieldNames::Api,
    )
    .await?;
    Ok(Json(data))
}
