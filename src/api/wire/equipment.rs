//! The JSON of `equipment` shared by the REST API v2 (`api::v2::equipment`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use crate::domain::id::EquipmentId;
use rmcp::schemars;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use ts_rs::TS;
use utoipa::openapi::schema::{Object, ObjectBuilder, SchemaType, Type};
use utoipa::{IntoParams, ToSchema};

use crate::api::wire::external::ExternalBuilding;
use crate::api::wire::{Page, PageQuery, Paging, RecordKind};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::equipment::{self as equipment_service, IdentityPatch};
use crate::services::technical_data;
use crate::state::AppState;
use crate::store::equipment::EquipmentRow;

/// Recherche et pagination.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EquipmentListQuery {
    /// Mots cherchés (accents et casse ignorés) dans le numéro de l'équipement, le nom de l'immeuble, son adresse, son complément d'adresse, son code postal et sa ville : chaque mot doit s'y trouver.
    #[param(max_length = 100)]
    pub q: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// Une ligne de la liste des équipements.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct EquipmentListEntry {
    /// Identifiant de l'équipement.
    pub id: String,
    /// Numéro de l'équipement.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Type (`ascenseur`, `monte_charge`, `monte_voiture`, `elevateur`, `porte_fermeture`).
    #[serde(rename = "type")]
    #[schema(required = true)]
    pub equipment_type: Option<String>,
    /// Emplacement dans l'immeuble.
    #[schema(required = true)]
    pub location: Option<String>,
    /// `parc` (sous contrat) ou `hors_parc`.
    #[schema(required = true)]
    pub maintenance_contract: Option<String>,
    /// L'immeuble, ou `null` si l'équipement n'est rattaché à aucun.
    #[schema(required = true)]
    pub building: Option<ExternalBuilding>,
    /// Chemin de la fiche de l'équipement dans le service.
    pub link: String,
    /// Adresse complète de la fiche de l'équipement.
    pub url: String,
}

impl EquipmentListEntry {
    fn new(row: EquipmentRow, base_url: &str) -> Self {
        Self {
            link: RecordKind::Equipment.link(row.id.as_str()),
            url: RecordKind::Equipment.url(base_url, row.id.as_str()),
            id: row.id.into_string(),
            number: row.identity.number,
            equipment_type: row.identity.equipment_type,
            location: row.identity.location,
            maintenance_contract: row.identity.maintenance_contract,
            building: row.building.map(ExternalBuilding::from),
        }
    }
}

/// One page of the acting agency's equipment matching the search: `GET
/// /equipment` and the MCP tool `equipements`.
pub async fn equipment_list(
    state: &AppState,
    caller: &Principal,
    query: EquipmentListQuery,
) -> AppResult<Page<EquipmentListEntry>> {
    let paging = Paging::from_query(&PageQuery {
        limit: query.limit,
        page: query.page,
    })?;
    let (total, rows) = equipment_service::search_page(
        &state.store,
        caller,
        query.q.as_deref(),
        paging.limit,
        paging.offset(),
    )
    .await?;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows
            .into_iter()
            .map(|row| EquipmentListEntry::new(row, &state.base_url))
            .collect(),
    })
}

/// A field that may be absent (None), null (`Some(None)`) or a text.
pub(crate) fn present<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

pub(crate) fn nullable_text(max: usize) -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .max_length(Some(max))
        .build()
}

/// An identity text: no control character.
pub(crate) fn identity_string(max: usize) -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .max_length(Some(max))
        .pattern(Some(r"^[^\x00-\x1F\x7F-\x9F]*$"))
        .build()
}

pub(crate) fn nullable_choice(values: &[&str], empty_allowed: bool) -> Object {
    let mut allowed: Vec<Value> = values.iter().map(|v| json!(v)).collect();
    if empty_allowed {
        allowed.push(json!(""));
    }
    allowed.push(Value::Null);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(allowed))
        .build()
}

pub(crate) fn number_text() -> Object {
    identity_string(equipment_service::MAX_NUMBER_CHARS)
}

pub(crate) fn identity_text() -> Object {
    identity_string(equipment_service::MAX_IDENTITY_CHARS)
}

pub(crate) fn equipment_type_choice() -> Object {
    nullable_choice(&equipment_service::EQUIPMENT_TYPES, true)
}

pub(crate) fn contract_choice() -> Object {
    nullable_choice(&equipment_service::MAINTENANCE_CONTRACTS, true)
}

/// Correction de l'identité d'un équipement : seuls les champs envoyés
/// changent ; une valeur vide (`""`) ou `null` efface le champ ; un champ
/// inconnu est refusé (422).
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct IdentityBody {
    /// Numéro de l'équipement, unique dans l'agence (espaces et casse ignorés).
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = number_text)]
    pub number: Option<Option<String>>,
    /// Numéro de série.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = identity_text)]
    pub serial_number: Option<Option<String>>,
    /// Type : `ascenseur`, `monte_charge`, `monte_voiture`, `elevateur` ou `porte_fermeture`.
    #[serde(default, rename = "type", deserialize_with = "present")]
    #[schema(schema_with = equipment_type_choice)]
    pub equipment_type: Option<Option<String>>,
    /// Sous-type.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = identity_text)]
    pub subtype: Option<Option<String>>,
    /// Emplacement dans l'immeuble.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = identity_text)]
    pub location: Option<Option<String>>,
    /// Contrat d'entretien : `parc` (sous contrat) ou `hors_parc`.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = contract_choice)]
    pub maintenance_contract: Option<Option<String>>,
    /// Numéro du contrat d'entretien.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = identity_text)]
    pub contract_number: Option<Option<String>>,
    /// Identifiant de l'équipement dans le logiciel de maintenance du partenaire.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = identity_text)]
    pub external_id: Option<Option<String>>,
}

impl From<IdentityBody> for IdentityPatch {
    fn from(body: IdentityBody) -> Self {
        Self {
            number: body.number,
            serial_number: body.serial_number,
            equipment_type: body.equipment_type,
            subtype: body.subtype,
            location: body.location,
            maintenance_contract: body.maintenance_contract,
            contract_number: body.contract_number,
            external_id: body.external_id,
        }
    }
}

/// L'identité d'un équipement après correction ; un champ sans valeur vaut `null`.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct IdentityView {
    /// Identifiant de l'équipement.
    pub id: String,
    /// Numéro de l'équipement.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Numéro de série.
    #[schema(required = true)]
    pub serial_number: Option<String>,
    /// Type (`ascenseur`, `monte_charge`, `monte_voiture`, `elevateur`, `porte_fermeture`).
    #[serde(rename = "type")]
    #[schema(required = true)]
    pub equipment_type: Option<String>,
    /// Sous-type.
    #[schema(required = true)]
    pub subtype: Option<String>,
    /// Emplacement dans l'immeuble.
    #[schema(required = true)]
    pub location: Option<String>,
    /// `parc` ou `hors_parc`.
    #[schema(required = true)]
    pub maintenance_contract: Option<String>,
    /// Numéro du contrat d'entretien.
    #[schema(required = true)]
    pub contract_number: Option<String>,
    /// Identifiant dans le logiciel de maintenance du partenaire.
    #[schema(required = true)]
    pub external_id: Option<String>,
    /// Chemin de la fiche de l'équipement dans le service.
    pub link: String,
    /// Adresse complète de la fiche de l'équipement.
    pub url: String,
}

impl IdentityView {
    pub fn new(row: EquipmentRow, base_url: &str) -> Self {
        let identity = row.identity;
        Self {
            link: RecordKind::Equipment.link(row.id.as_str()),
            url: RecordKind::Equipment.url(base_url, row.id.as_str()),
            id: row.id.into_string(),
            number: identity.number,
            serial_number: identity.serial_number,
            equipment_type: identity.equipment_type,
            subtype: identity.subtype,
            location: identity.location,
            maintenance_contract: identity.maintenance_contract,
            contract_number: identity.contract_number,
            external_id: identity.external_id,
        }
    }
}

/// Corrects the identity of an equipment of the acting agency: `PATCH
/// /equipment/{id}/identity` and the MCP tool `modifier_identite_equipement`.
pub async fn identity_correction(
    state: &AppState,
    caller: &Principal,
    id: String,
    body: IdentityBody,
) -> AppResult<IdentityView> {
    let patch = IdentityPatch::from(body);
    let row = equipment_service::correct_identity_for(
        &state.store,
        caller,
        &EquipmentId::new(id.as_str()),
        patch,
    )
    .await?;
    Ok(IdentityView::new(row, &state.base_url))
}

pub(crate) fn non_negative_number() -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Number, Type::Null]))
        .minimum(Some(0))
        .build()
}

pub(crate) fn non_negative_integer() -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
        .minimum(Some(0))
        .maximum(Some(technical_data::MAX_INTEGER))
        .build()
}

pub(crate) fn technical_text() -> Object {
    nullable_text(technical_data::MAX_TEXT_CHARS)
}

pub(crate) fn address_text() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(technical_data::MAX_TEXT_CHARS))
        .pattern(Some(r"\S"))
        .build()
}

pub(crate) fn machine_room_choice() -> Object {
    nullable_choice(&["Haute", "Basse", "Latérale", "Sans (MRL)"], true)
}

pub(crate) fn drive_choice() -> Object {
    nullable_choice(&["Electrique", "Hydraulique"], true)
}

pub(crate) fn contract_label_choice() -> Object {
    nullable_choice(&["Parc", "Hors parc"], true)
}

/// Données techniques à corriger, sous les noms de l'API partenaire : seuls
/// les champs envoyés changent ; `null` efface une donnée (elle redevient
/// « jamais relevée »), de même qu'un texte vide. Un champ inconnu, une valeur
/// hors de la liste autorisée ou du mauvais type, et `taux_connaissance`
/// (calculé, en lecture seule) sont refusés (422).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TechnicalDataBody {
    /// Adresse de l'immeuble (ne peut pas être effacée ; crée l'immeuble si l'équipement n'en a pas).
    #[schema(schema_with = address_text)]
    pub adresse: Option<String>,
    /// Complément d'adresse (bâtiment, escalier).
    #[schema(schema_with = technical_text)]
    pub complement_adresse: Option<String>,
    /// Nom de l'immeuble.
    #[schema(schema_with = technical_text)]
    pub nom_immeuble: Option<String>,
    /// Charge utile, en kg.
    #[schema(schema_with = non_negative_number)]
    pub charge_utile: Option<f64>,
    /// Course, en m.
    #[schema(schema_with = non_negative_number)]
    pub course: Option<f64>,
    /// Implantation de la machinerie.
    #[schema(schema_with = machine_room_choice)]
    pub implantation_machinerie: Option<String>,
    /// Marque.
    #[schema(schema_with = technical_text)]
    pub marque: Option<String>,
    /// Modèle.
    #[schema(schema_with = technical_text)]
    pub modele: Option<String>,
    /// Nombre de faces de service.
    #[schema(schema_with = non_negative_integer)]
    pub nombre_faces_de_service: Option<i64>,
    /// Nombre de niveaux desservis.
    #[schema(schema_with = non_negative_integer)]
    pub nombre_niveaux: Option<i64>,
    /// Nombre de personnes (ascenseurs).
    #[schema(schema_with = non_negative_integer)]
    pub nombre_personnes: Option<i64>,
    /// Type d'entraînement.
    #[schema(schema_with = drive_choice)]
    pub type_entrainement: Option<String>,
    /// Vitesse nominale, en m/s.
    #[schema(schema_with = non_negative_number)]
    pub vitesse: Option<f64>,
    /// Contrat d'entretien : `Parc` ou `Hors parc` (le `maintenanceContract` de l'équipement).
    #[schema(schema_with = contract_label_choice)]
    pub contrat_entretien: Option<String>,
}

/// Données techniques d'un équipement, comme les montre l'API partenaire :
/// une donnée jamais relevée est absente ; `taux_connaissance` est toujours présent.
#[derive(Debug, Serialize, ToSchema)]
pub struct TechnicalDataView {
    /// Adresse de l'immeuble.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adresse: Option<String>,
    /// Complément d'adresse.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complement_adresse: Option<String>,
    /// Nom de l'immeuble.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nom_immeuble: Option<String>,
    /// Charge utile, en kg.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charge_utile: Option<f64>,
    /// Course, en m.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub course: Option<f64>,
    /// `Haute`, `Basse`, `Latérale` ou `Sans (MRL)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implantation_machinerie: Option<String>,
    /// Marque.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marque: Option<String>,
    /// Modèle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modele: Option<String>,
    /// Nombre de faces de service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nombre_faces_de_service: Option<i64>,
    /// Nombre de niveaux desservis.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nombre_niveaux: Option<i64>,
    /// Nombre de personnes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nombre_personnes: Option<i64>,
    /// `Electrique` ou `Hydraulique`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_entrainement: Option<String>,
    /// Vitesse nominale, en m/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vitesse: Option<f64>,
    /// `Parc` ou `Hors parc`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contrat_entretien: Option<String>,
    /// Taux de connaissance de l'équipement, en pourcentage (calculé).
    pub taux_connaissance: f64,
}
