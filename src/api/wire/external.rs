//! The JSON of `external` shared by the REST API v2 (`api::v2::external`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use std::collections::BTreeMap;
use ts_rs::TS;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::api::wire::RecordKind;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::equipment::{self as equipment_service, ExternalData};
use crate::services::technical_data::contract_label;
use crate::state::AppState;
use crate::store::agencies::AgencyRow;
use crate::store::equipment::{BuildingRow, EquipmentRow};

/// L'agence concernée.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExternalAgency {
    /// Identifiant (UUID) de l'agence dans le service.
    #[schema(format = Uuid)]
    pub id: String,
    /// Nom de l'agence.
    pub name: String,
    /// Identifiant V1 de l'agence (identifiant dans le logiciel du partenaire), s'il existe.
    #[schema(required = true)]
    pub v1_id: Option<String>,
}

impl From<&AgencyRow> for ExternalAgency {
    fn from(row: &AgencyRow) -> Self {
        Self {
            id: row.id.clone().into_string(),
            name: row.name.clone(),
            v1_id: row.v1_id.clone(),
        }
    }
}

/// L'immeuble où se trouve l'équipement.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExternalBuilding {
    /// Identifiant de l'immeuble.
    pub id: String,
    /// Nom de l'immeuble.
    #[schema(required = true)]
    pub name: Option<String>,
    /// Adresse (voie).
    pub address: String,
    /// Complément d'adresse (bâtiment, escalier).
    #[schema(required = true)]
    pub address_complement: Option<String>,
    /// Code postal.
    #[schema(required = true)]
    pub postal_code: Option<String>,
    /// Commune.
    #[schema(required = true)]
    pub city: Option<String>,
}

impl From<BuildingRow> for ExternalBuilding {
    fn from(row: BuildingRow) -> Self {
        Self {
            id: row.id.into_string(),
            name: row.name,
            address: row.address,
            address_complement: row.address_complement,
            postal_code: row.postal_code,
            city: row.city,
        }
    }
}

/// Un équipement sous contrat, numéroté, sans identifiant externe.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExternalEquipmentRow {
    /// Identifiant de l'équipement.
    pub id: String,
    /// Numéro de l'équipement.
    pub number: String,
    /// Type (`ascenseur`, `monte_charge`…).
    #[serde(rename = "type")]
    #[schema(required = true)]
    pub equipment_type: Option<String>,
    /// Emplacement dans l'immeuble.
    #[schema(required = true)]
    pub location: Option<String>,
    /// Numéro du contrat d'entretien.
    #[schema(required = true)]
    pub contract_number: Option<String>,
    /// L'immeuble, ou `null` si l'équipement n'est rattaché à aucun.
    #[schema(required = true)]
    pub building: Option<ExternalBuilding>,
    /// Chemin de la fiche de l'équipement dans le service.
    pub link: String,
    /// Adresse complète de la fiche de l'équipement.
    pub url: String,
}

/// Les équipements de l'agence à rattacher au logiciel du partenaire.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExternalEquipmentList {
    /// L'agence concernée.
    pub agency: ExternalAgency,
    /// Équipements sous contrat (`parc`), numérotés, sans identifiant externe, par numéro.
    pub equipment: Vec<ExternalEquipmentRow>,
}

/// L'agence : son identifiant (UUID) dans le service ou son identifiant dans
/// le logiciel du partenaire (identifiant V1) ; absente, l'agence de
/// `X-Service-Agency`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AgencyQuery {
    /// Agence : UUID du service ou identifiant V1 ; à défaut, l'agence où agit l'appel. Hors du périmètre : 403.
    pub agency: Option<String>,
}

/// L'agence et l'équipement cherché : par son numéro, sinon par son
/// identifiant externe.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EquipmentDataQuery {
    /// Agence : UUID du service ou identifiant V1 ; à défaut, l'agence où agit l'appel. Hors du périmètre : 403.
    pub agency: Option<String>,
    /// Numéro de l'équipement (espaces et casse ignorés).
    pub number: Option<String>,
    /// Identifiant de l'équipement dans le logiciel du partenaire (alternative au numéro).
    pub external_id: Option<String>,
}

/// Le contrat d'entretien de l'équipement.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExternalContract {
    /// `parc` (sous contrat) ou `hors_parc`, `null` si inconnu.
    #[schema(required = true)]
    pub maintenance_contract: Option<String>,
    /// Le même, en clair : `Parc` ou `Hors parc`.
    #[schema(required = true)]
    pub label: Option<String>,
    /// Numéro du contrat d'entretien.
    #[schema(required = true)]
    pub contract_number: Option<String>,
}

/// La plus petite largeur de gaine mesurée (cuvette, toit de cabine et paliers confondus).
#[derive(Debug, Serialize, ToSchema)]
pub struct ShaftDimensionView {
    /// Code de la donnée retenue (`gaine_largeur_cuvette`, `gaine_largeur_toit_cabine` ou `gaine_largeur_paliers`).
    pub code: String,
    /// Libellé de la donnée retenue.
    pub field: String,
    /// La dimension, telle que relevée.
    #[schema(value_type = f64)]
    pub value: Value,
    /// Unité (`mm`).
    #[schema(required = true)]
    pub unit: Option<String>,
}

/// Un équipement vu par le logiciel du partenaire : identité, immeuble,
/// contrat, taux de connaissance, plus petite dimension de gaine et données
/// relevées par code (une donnée jamais relevée est absente).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExternalEquipmentData {
    /// Identifiant de l'équipement.
    pub id: String,
    /// Numéro de l'équipement.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Numéro de série.
    #[schema(required = true)]
    pub serial_number: Option<String>,
    /// Type.
    #[serde(rename = "type")]
    #[schema(required = true)]
    pub equipment_type: Option<String>,
    /// Sous-type.
    #[schema(required = true)]
    pub subtype: Option<String>,
    /// Emplacement dans l'immeuble.
    #[schema(required = true)]
    pub location: Option<String>,
    /// Identifiant dans le logiciel du partenaire.
    #[schema(required = true)]
    pub external_id: Option<String>,
    /// L'agence de l'équipement.
    pub agency: ExternalAgency,
    /// L'immeuble, ou `null`.
    #[schema(required = true)]
    pub building: Option<ExternalBuilding>,
    /// Le contrat d'entretien.
    pub contract: ExternalContract,
    /// Taux de connaissance, en pourcentage.
    pub knowledge_rate: f64,
    /// Plus petite largeur de gaine mesurée, `null` si aucune n'a été relevée.
    #[schema(required = true)]
    pub smallest_shaft_dimension: Option<ShaftDimensionView>,
    /// Données relevées, par code du catalogue (valeur JSON : texte, nombre, booléen ou liste).
    #[schema(value_type = Object, additional_properties = true)]
    pub data: BTreeMap<String, Value>,
    /// Chemin de la fiche de l'équipement dans le service.
    pub link: String,
    /// Adresse complète de la fiche de l'équipement.
    pub url: String,
}

impl ExternalEquipmentData {
    fn new(found: ExternalData, agency: &AgencyRow, base_url: &str) -> Self {
        let EquipmentRow {
            id,
            identity,
            building,
            ..
        } = found.equipment;
        Self {
            link: RecordKind::Equipment.link(id.as_str()),
            url: RecordKind::Equipment.url(base_url, id.as_str()),
            id: id.into_string(),
            number: identity.number,
            serial_number: identity.serial_number,
            equipment_type: identity.equipment_type,
            subtype: identity.subtype,
            location: identity.location,
            external_id: identity.external_id,
            agency: ExternalAgency::from(agency),
            building: building.map(ExternalBuilding::from),
            contract: ExternalContract {
                label: identity
                    .maintenance_contract
                    .as_deref()
                    .and_then(contract_label)
                    .map(str::to_owned),
                maintenance_contract: identity.maintenance_contract,
                contract_number: identity.contract_number,
            },
            knowledge_rate: found.knowledge_rate,
            smallest_shaft_dimension: found.smallest_shaft_dimension.map(|d| ShaftDimensionView {
                code: d.code,
                field: d.label,
                value: d.value,
                unit: d.unit,
            }),
            data: found.data.into_iter().collect(),
        }
    }
}

/// The equipment designated by `query` in the agency it names (else the
/// acting agency), with its data: `GET /external/equipment/data` and the MCP
/// tool `equipement`.
pub async fn equipment_data_view(
    state: &AppState,
    caller: &Principal,
    query: EquipmentDataQuery,
) -> AppResult<ExternalEquipmentData> {
    let (found, agency) = equipment_service::external_data_for(
        &state.store,
        caller,
        query.agency.as_deref(),
        query.number,
        query.external_id,
    )
    .await?;
    Ok(ExternalEquipmentData::new(found, &agency, &state.base_url))
}
