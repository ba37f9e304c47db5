//! `GET /api/v2/external/equipment` and `GET /api/v2/external/equipment/data`:
//! what a partner's maintenance software reads to link its records to the
//! agency's equipment.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiQuery;
use crate::api::wire::RecordKind;
use crate::api::wire::external::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::services::equipment::{self as equipment_service};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(equipment_to_link))
        .routes(routes!(equipment_data))
}

/// Équipements à rattacher au logiciel du partenaire.
///
/// Les équipements sous contrat de l'agence (`maintenanceContract` = `parc`),
/// numérotés et sans identifiant externe, triés par numéro.
#[utoipa::path(
    get,
    path = "/external/equipment",
    tag = "Partenaires",
    params(AgencyQuery),
    responses(
        (status = 200, description = "Les équipements à rattacher", body = ExternalEquipmentList,
            links(
                ("donneesEquipement" = (
                    operation_id = "equipment_data",
                    parameters(
                        ("number" = "$response.body#/equipment/0/number"),
                        ("agency" = "$response.body#/agency/id")
                    ),
                    description = "Les données du premier équipement de la liste"
                )),
                ("corrigerIdentite" = (
                    operation_id = "correct_identity",
                    parameters(("id" = "$response.body#/equipment/0/id")),
                    description = "Corriger l'identité du premier équipement de la liste"
                )),
                ("corrigerDonneesTechniques" = (
                    operation_id = "update_technical_data",
                    parameters(("id" = "$response.body#/equipment/0/id")),
                    description = "Corriger les données techniques du premier équipement de la liste"
                )),
                ("chercherDonneesTechniques" = (
                    operation_id = "technical_fields",
                    parameters(("equipment" = "$response.body#/equipment/0/id")),
                    description = "Chercher les données techniques du premier équipement de la liste"
                ))
            )
        ),
    )
)]
async fn equipment_to_link(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<AgencyQuery>,
) -> AppResult<Json<ExternalEquipmentList>> {
    let (rows, agency) =
        equipment_service::without_external_id_for(&state.store, &caller, query.agency.as_deref())
            .await?;
    let base_url = &state.base_url;
    Ok(Json(ExternalEquipmentList {
        agency: ExternalAgency::from(&agency),
        equipment: rows
            .into_iter()
            .map(|row| ExternalEquipmentRow {
                link: RecordKind::Equipment.link(row.id.as_str()),
                url: RecordKind::Equipment.url(base_url, row.id.as_str()),
                id: row.id.into_string(),
                number: row.identity.number.unwrap_or_default(),
                equipment_type: row.identity.equipment_type,
                location: row.identity.location,
                contract_number: row.identity.contract_number,
                building: row.building.map(ExternalBuilding::from),
            })
            .collect(),
    }))
}

/// Données d'un équipement pour le logiciel du partenaire.
///
/// L'équipement est cherché dans l'agence par `number` (espaces et casse
/// ignorés) ; `externalId` est l'alternative, utilisée sans numéro ou quand
/// le numéro ne désigne aucun équipement. Rien trouvé, ou ni l'un ni
/// l'autre : 404.
#[utoipa::path(
    get,
    path = "/external/equipment/data",
    tag = "Partenaires",
    params(EquipmentDataQuery),
    responses(
        (status = 200, description = "L'équipement et ses données", body = ExternalEquipmentData,
            links(
                ("chercherDonneesTechniques" = (
                    operation_id = "technical_fields",
                    parameters(("equipment" = "$response.body#/id")),
                    description = "Chercher les données techniques de cet équipement"
                ))
            )
        ),
        (status = 404, description = "Aucun équipement de l'agence ne correspond (ou aucun n'est désigné)", body = ErrorBody),
    )
)]
async fn equipment_data(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<EquipmentDataQuery>,
) -> AppResult<Json<ExternalEquipmentData>> {
    Ok(Json(equipment_data_view(&state, &caller, query).await?))
}
