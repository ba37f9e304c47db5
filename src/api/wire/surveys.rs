//! The JSON of `surveys` shared by the REST API v2 (`api::v2::surveys`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use crate::domain::id::SurveyId;
use rmcp::schemars;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value, json};
use ts_rs::TS;
use utoipa::openapi::schema::{AdditionalProperties, Object, ObjectBuilder, SchemaType, Type};
use utoipa::{IntoParams, ToSchema};

use crate::api::wire::{Page, PageQuery, Paging, RecordKind, RecordRef};
use crate::domain::day;
use crate::domain::survey::SurveyStatus;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::surveys::{self as survey_service, SubmitInput};
use crate::services::technical_data;
use crate::state::AppState;
use crate::store::surveys::DealRow;
use crate::store::technical_fields::CatalogField;

/// The singular type of a survey in the read envelope.
pub const SURVEY_TYPE: &str = "releve";
/// The component key of the equipment itself in `components`.
pub const EQUIPMENT_COMPONENT: &str = "equipment";
/// Recherche et pagination.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SurveyListQuery {
    /// Recherche sur le numéro du relevé (contient, casse ignorée).
    #[param(max_length = 100)]
    pub q: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// Une ligne de la liste des relevés.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SurveyListEntry {
    /// Identifiant du relevé.
    pub id: String,
    /// Numéro du relevé.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Chemin du relevé dans le service.
    pub link: String,
    /// Adresse complète du relevé.
    pub url: String,
}

/// One page of the acting agency's surveys: `GET /surveys` and the MCP tool
/// `releves`.
pub async fn survey_list(
    state: &AppState,
    caller: &Principal,
    query: SurveyListQuery,
) -> AppResult<Page<SurveyListEntry>> {
    let paging = Paging::from_query(&PageQuery {
        limit: query.limit,
        page: query.page,
    })?;
    let (total, rows) = survey_service::list_page(
        &state.store,
        caller,
        query.q.as_deref(),
        paging.limit,
        paging.offset(),
    )
    .await?;
    let base_url = &state.base_url;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows
            .into_iter()
            .map(|row| SurveyListEntry {
                link: RecordKind::Survey.link(row.id.as_str()),
                url: RecordKind::Survey.url(base_url, row.id.as_str()),
                id: row.id.into_string(),
                number: row.number,
            })
            .collect(),
    })
}

/// Les champs d'un relevé, tels qu'ils se lisent : toujours présents, texte ou `null`.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SurveyFields {
    /// Numéro.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Statut en clair : « À réaliser », « En cours », « Terminé » ou « Annulé ».
    #[schema(required = true)]
    pub status: Option<String>,
    /// Type : la nature des affaires qui ont demandé le relevé (type d'affaire, ou « État des lieux : … »).
    #[serde(rename = "type")]
    #[schema(required = true)]
    pub survey_type: Option<String>,
    /// Relevé le, JJ/MM/AAAA.
    #[schema(required = true)]
    pub surveyed_on: Option<String>,
    /// À réaliser avant le, JJ/MM/AAAA.
    #[schema(required = true)]
    pub due_on: Option<String>,
    /// Nombre de données relevées, en texte.
    #[schema(required = true)]
    pub field_count: Option<String>,
    /// Nombre de photos prises, en texte.
    #[schema(required = true)]
    pub photo_count: Option<String>,
}

/// Un relevé : son type (`releve`), son identifiant, son lien et ses champs.
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct SurveyRead {
    /// Type de l'objet, au singulier : toujours `releve`.
    #[serde(rename = "type")]
    pub object_type: String,
    /// Identifiant du relevé.
    pub id: String,
    /// Chemin du relevé dans le service.
    pub link: String,
    /// Adresse complète du relevé.
    pub url: String,
    /// Les champs du relevé.
    pub fields: SurveyFields,
}

/// What a deal is, in words: its `type_affaire`, else its inventory types.
pub(crate) fn deal_label(deal: &DealRow) -> Option<String> {
    deal.type_affaire.clone().or_else(|| {
        (!deal.inventory_types.is_empty())
            .then(|| format!("État des lieux : {}", deal.inventory_types.join(", ")))
    })
}

/// The survey's type: the distinct natures of its deals, or None without deal.
pub(crate) fn survey_type(deals: &[DealRow]) -> Option<String> {
    let mut labels: Vec<String> = Vec::new();
    for label in deals.iter().filter_map(deal_label) {
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    (!labels.is_empty()).then(|| labels.join(" ; "))
}

/// A survey of the acting agency as it reads: `GET /surveys/{id}` and the
/// MCP tool `releve`.
pub async fn survey_record(
    state: &AppState,
    caller: &Principal,
    id: String,
) -> AppResult<SurveyRead> {
    let (survey, deals) =
        survey_service::read(&state.store, caller, &SurveyId::new(id.as_str())).await?;
    Ok(SurveyRead {
        object_type: SURVEY_TYPE.to_owned(),
        link: RecordKind::Survey.link(survey.id.as_str()),
        url: RecordKind::Survey.url(&state.base_url, survey.id.as_str()),
        fields: SurveyFields {
            number: survey.number,
            status: survey.status.map(|s| s.label().to_owned()),
            survey_type: survey_type(&deals),
            surveyed_on: survey.surveyed_on.as_deref().map(day::french_from_stored),
            due_on: survey.due_on.as_deref().map(day::french_from_stored),
            field_count: Some(survey.field_count.to_string()),
            photo_count: Some(survey.photo_count.to_string()),
        },
        id: survey.id.into_string(),
    })
}

/// Une affaire qui a demandé le relevé.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SurveyDeal {
    /// Identifiant de l'affaire.
    pub id: String,
    /// Nature de l'affaire (son type d'affaire, par exemple `Modernisation pour devis`), `null` pour un état des lieux.
    #[schema(required = true)]
    pub nature: Option<String>,
    /// Nature en clair (type d'affaire, ou « État des lieux : … »), `null` si inconnue.
    #[schema(required = true)]
    pub nature_label: Option<String>,
    /// Chemin de l'affaire dans le service.
    pub link: String,
    /// Adresse complète de l'affaire.
    pub url: String,
}

/// Noms V1 d'une donnée.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct ChampV1 {
    /// Table V1.
    pub table: String,
    /// Champ V1.
    pub champ: String,
}

/// Une donnée relevée.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct SurveyDatum {
    /// Code de la donnée dans le catalogue.
    pub code: String,
    /// Libellé de la donnée.
    pub libelle: String,
    /// Valeur relevée (texte, nombre, booléen ou liste).
    #[schema(value_type = Value)]
    pub valeur: Value,
    /// Unité, `null` s'il n'y en a pas.
    #[schema(required = true)]
    pub unite: Option<String>,
    /// Noms V1 de la donnée.
    #[serde(rename = "champV1")]
    pub champ_v1: ChampV1,
}

/// Data grouped by component key, serialized as a JSON object in this order.
#[derive(Debug, Default)]
pub struct Components(pub Vec<(String, Vec<SurveyDatum>)>);

impl Serialize for Components {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, data) in &self.0 {
            map.serialize_entry(key, data)?;
        }
        map.end()
    }
}

/// Groups the survey's data by component (`equipment` first, then the
/// components in catalog order); a component with no datum is absent.
pub(crate) fn group_components(
    catalog: &[CatalogField],
    values: Vec<(String, String)>,
) -> Components {
    let mut groups: Vec<(String, Vec<SurveyDatum>)> = Vec::new();
    for (code, text) in values {
        let Some(field) = catalog.iter().find(|f| f.code == code) else {
            continue;
        };
        let key = field
            .component
            .clone()
            .unwrap_or_else(|| EQUIPMENT_COMPONENT.to_owned());
        let datum = SurveyDatum {
            code: field.code.clone(),
            libelle: field.label.clone(),
            // The table's CHECK (json_valid) guarantees valid JSON.
            valeur: serde_json::from_str(&text).unwrap_or(Value::Null),
            unite: field.unit.clone(),
            champ_v1: ChampV1 {
                table: field.v1_table.clone(),
                champ: field.v1_field.clone(),
            },
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, data)) => data.push(datum),
            None => groups.push((key, vec![datum])),
        }
    }
    // The equipment itself first; the others keep the catalog's order.
    groups.sort_by_key(|(key, _)| key != EQUIPMENT_COMPONENT);
    Components(groups)
}

/// Les données d'un relevé.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SurveyData {
    /// Identifiant du relevé.
    pub id: String,
    /// Numéro du relevé.
    #[schema(required = true)]
    pub number: Option<String>,
    /// L'équipement relevé.
    pub equipment: RecordRef,
    /// Agence du relevé : son identifiant (UUID).
    #[schema(format = Uuid)]
    pub agency: String,
    /// Motif du relevé, tel qu'il se lit.
    #[schema(required = true)]
    pub reason: Option<String>,
    /// Statut en clair : « À réaliser », « En cours », « Terminé » ou « Annulé ».
    #[schema(required = true)]
    pub status: Option<String>,
    /// Relevé le, AAAA-MM-JJ.
    #[schema(required = true)]
    pub surveyed_on: Option<String>,
    /// Chemin du relevé dans le service.
    pub link: String,
    /// Adresse complète du relevé.
    pub url: String,
    /// Les affaires qui ont demandé le relevé.
    pub deals: Vec<SurveyDeal>,
    /// Données relevées par ce relevé, groupées par composant : `equipment` pour l'équipement lui-même, puis `shaft`, `car_door`, `landing_door`, `machine`, `controller`… Une donnée jamais relevée est absente, un composant sans donnée aussi.
    #[schema(value_type = std::collections::HashMap<String, Vec<SurveyDatum>>)]
    #[ts(as = "std::collections::HashMap<String, Vec<SurveyDatum>>")]
    pub components: Components,
}

/// The data a survey of the acting agency collected: `GET /surveys/{id}/data`
/// and the MCP tool `donnees_releve`.
pub async fn survey_data_read(
    state: &AppState,
    caller: &Principal,
    id: String,
) -> AppResult<SurveyData> {
    let survey_service::SurveyDataRead {
        survey,
        deals,
        catalog,
        values,
    } = survey_service::data(&state.store, caller, &SurveyId::new(id.as_str())).await?;
    let base_url = &state.base_url;
    Ok(SurveyData {
        number: survey.number,
        equipment: RecordRef::new(
            RecordKind::Equipment,
            base_url,
            survey.equipment_id.as_str(),
        ),
        agency: survey.agency_id,
        reason: survey.reason,
        status: survey.status.map(|s| s.label().to_owned()),
        surveyed_on: survey.surveyed_on,
        link: RecordKind::Survey.link(survey.id.as_str()),
        url: RecordKind::Survey.url(base_url, survey.id.as_str()),
        deals: deals
            .iter()
            .map(|deal| SurveyDeal {
                id: deal.id.to_string(),
                nature: deal.type_affaire.clone(),
                nature_label: deal_label(deal),
                link: RecordKind::Deal.link(deal.id.as_str()),
                url: RecordKind::Deal.url(base_url, deal.id.as_str()),
            })
            .collect(),
        components: group_components(&catalog, values),
        id: survey.id.into_string(),
    })
}

/// How a datum of the catalog is typed in the published schema of `values`.
#[derive(Debug, Clone, Copy)]
pub enum ValueKind {
    Number,
    Integer,
    Text,
    Boolean,
    Choice(&'static [&'static str]),
}

/// The technical-field catalog (`migrations/sqlite/V2__technical_catalog.sql`) as the
/// published schema of `values` describes it: code, French description
/// (label and unit), type. The server validates against the catalog table
/// itself; `tests/v2_survey_submit.rs` checks that this list agrees with it.
pub const SURVEY_VALUE_FIELDS: &[(&str, &str, ValueKind)] = &[
    ("charge_utile", "Charge utile (kg)", ValueKind::Number),
    ("course", "Course (m)", ValueKind::Number),
    ("vitesse", "Vitesse nominale (m/s)", ValueKind::Number),
    (
        "nombre_niveaux",
        "Nombre de niveaux desservis",
        ValueKind::Integer,
    ),
    (
        "nombre_faces_de_service",
        "Nombre de faces de service",
        ValueKind::Integer,
    ),
    (
        "nombre_personnes",
        "Nombre de personnes",
        ValueKind::Integer,
    ),
    ("marque", "Marque", ValueKind::Text),
    ("modele", "Modèle", ValueKind::Text),
    (
        "type_entrainement",
        "Type d'entraînement",
        ValueKind::Choice(&["Electrique", "Hydraulique"]),
    ),
    (
        "implantation_machinerie",
        "Implantation de la machinerie",
        ValueKind::Choice(&["Haute", "Basse", "Latérale", "Sans (MRL)"]),
    ),
    (
        "annee_mise_en_service",
        "Année de mise en service",
        ValueKind::Integer,
    ),
    (
        "dimensions_cabine_largeur",
        "Largeur de cabine (mm)",
        ValueKind::Number,
    ),
    (
        "dimensions_cabine_profondeur",
        "Profondeur de cabine (mm)",
        ValueKind::Number,
    ),
    (
        "gaine_profondeur_cuvette",
        "Profondeur de cuvette (mm)",
        ValueKind::Number,
    ),
    (
        "gaine_largeur_cuvette",
        "Largeur de gaine en cuvette (mm)",
        ValueKind::Number,
    ),
    (
        "gaine_largeur_toit_cabine",
        "Largeur de gaine au toit de cabine (mm)",
        ValueKind::Number,
    ),
    (
        "gaine_largeur_paliers",
        "Largeur de gaine aux paliers (mm)",
        ValueKind::Number,
    ),
    (
        "gaine_reserve_tete",
        "Réserve en tête (hauteur libre au-dessus du toit de cabine) (mm)",
        ValueKind::Number,
    ),
    (
        "porte_cabine_type",
        "Type de porte cabine",
        ValueKind::Choice(&[
            "Automatique centrale",
            "Automatique latérale",
            "Battante",
            "Pliante",
            "Sans porte",
        ]),
    ),
    (
        "porte_cabine_passage",
        "Passage libre de porte cabine (mm)",
        ValueKind::Number,
    ),
    (
        "porte_cabine_operateur",
        "Opérateur de porte",
        ValueKind::Text,
    ),
    (
        "porte_cabine_cellule",
        "Barrière immatérielle",
        ValueKind::Boolean,
    ),
    (
        "portes_palieres_type",
        "Type de portes palières",
        ValueKind::Choice(&["Automatiques", "Battantes", "Semi-automatiques"]),
    ),
    (
        "machine_type",
        "Type de machine",
        ValueKind::Choice(&[
            "Treuil à vis sans fin",
            "Gearless",
            "Centrale hydraulique",
            "Tambour",
        ]),
    ),
    ("machine_marque", "Marque de la machine", ValueKind::Text),
    (
        "machine_puissance",
        "Puissance moteur (kW)",
        ValueKind::Number,
    ),
    (
        "machine_nombre_cables",
        "Nombre de câbles de traction",
        ValueKind::Integer,
    ),
    (
        "machine_diametre_cables",
        "Diamètre des câbles (mm)",
        ValueKind::Number,
    ),
    ("machine_frein", "Type de frein", ValueKind::Text),
    (
        "armoire_marque",
        "Marque de l'armoire de commande",
        ValueKind::Text,
    ),
    (
        "armoire_type_manoeuvre",
        "Type de manœuvre",
        ValueKind::Choice(&[
            "Blocage",
            "Collective descente",
            "Collective montée-descente",
            "Duplex",
            "Triplex",
        ]),
    ),
    (
        "armoire_variateur",
        "Variateur de fréquence",
        ValueKind::Boolean,
    ),
    (
        "armoire_teleassistance",
        "Téléalarme / téléassistance",
        ValueKind::Text,
    ),
    ("armoire_annee", "Année de l'armoire", ValueKind::Integer),
];

/// One datum's schema: its type or null (null removes it from the survey).
pub(crate) fn value_schema(description: &str, kind: ValueKind) -> Object {
    let builder = ObjectBuilder::new().description(Some(description));
    match kind {
        ValueKind::Number => builder
            .schema_type(SchemaType::from_iter([Type::Number, Type::Null]))
            .minimum(Some(0)),
        ValueKind::Integer => builder
            .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
            .minimum(Some(0))
            .maximum(Some(technical_data::MAX_INTEGER)),
        ValueKind::Text => builder
            .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
            .max_length(Some(technical_data::MAX_TEXT_CHARS)),
        ValueKind::Boolean => {
            builder.schema_type(SchemaType::from_iter([Type::Boolean, Type::Null]))
        }
        ValueKind::Choice(choices) => {
            let mut allowed: Vec<Value> = choices.iter().map(|c| json!(c)).collect();
            allowed.push(json!(""));
            allowed.push(Value::Null);
            builder
                .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                .enum_values(Some(allowed))
        }
    }
    .build()
}

/// `values`: an object whose keys are catalog codes.
pub(crate) fn survey_values_schema() -> Object {
    let mut builder = ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Object, Type::Null]))
        .description(Some(
            "Données relevées, par code du catalogue des données techniques (le `code` de GET /technical-fields ; les noms techniques de l'API partenaire sont ces mêmes codes). `null`, un texte vide ou une liste vide retire la donnée du relevé. Un code inconnu, `taux_connaissance`, `adresse`, `complement_adresse`, `nom_immeuble`, `contrat_entretien` ou une valeur du mauvais type sont refusés (422).",
        ))
        .additional_properties(Some(AdditionalProperties::FreeForm(false)));
    for (code, description, kind) in SURVEY_VALUE_FIELDS {
        builder = builder.property(*code, value_schema(description, *kind));
    }
    builder.build()
}

/// Soumission d'un relevé : tout est facultatif, le corps peut être omis.
#[derive(Debug, Default, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SubmitBody {
    /// Jour du relevé, AAAA-MM-JJ ; par défaut aujourd'hui (heure de Paris). Ni dans le futur, ni avant le jour où le relevé a été demandé.
    #[schema(format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub surveyed_on: Option<String>,
    /// Données relevées, enregistrées sur le relevé puis recopiées sur l'équipement.
    #[schema(schema_with = survey_values_schema)]
    pub values: Option<Map<String, Value>>,
}

impl From<SubmitBody> for SubmitInput {
    fn from(body: SubmitBody) -> Self {
        SubmitInput {
            surveyed_on: body.surveyed_on,
            values: body.values,
        }
    }
}

/// Statut d'un relevé (code).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SurveyStatusCode {
    /// À réaliser.
    ARealiser,
    /// En cours.
    EnCours,
    /// Terminé : soumis.
    Termine,
    /// Annulé.
    Annule,
}

impl From<SurveyStatus> for SurveyStatusCode {
    fn from(status: SurveyStatus) -> Self {
        match status {
            SurveyStatus::ARealiser => Self::ARealiser,
            SurveyStatus::EnCours => Self::EnCours,
            SurveyStatus::Termine => Self::Termine,
            SurveyStatus::Annule => Self::Annule,
        }
    }
}

/// Réponse à la soumission d'un relevé.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct SurveySubmitted {
    /// Identifiant du relevé.
    pub id: String,
    /// Toujours vrai : un refus est un statut d'erreur.
    pub ok: bool,
    /// Statut du relevé après la soumission : `termine`.
    #[ts(type = "SurveyStatus")]
    pub status: SurveyStatusCode,
    /// Chemin du relevé dans le service.
    pub link: String,
    /// Adresse complète du relevé.
    pub url: String,
}

impl SurveySubmitted {
    pub fn new(base_url: &str, submitted: &survey_service::Submitted) -> Self {
        Self {
            id: submitted.id.clone(),
            ok: true,
            status: submitted.status.into(),
            link: RecordKind::Survey.link(&submitted.id),
            url: RecordKind::Survey.url(base_url, &submitted.id),
        }
    }
}

/// The technician submits a survey of the acting agency: `POST
/// /surveys/{id}/submit` and the MCP tool `soumettre_releve`.
pub async fn survey_submission(
    state: &AppState,
    caller: &Principal,
    id: String,
    body: SubmitBody,
) -> AppResult<SurveySubmitted> {
    let input = SubmitInput::from(body);
    let submitted =
        survey_service::submit_for(&state.store, caller, &SurveyId::new(id.as_str()), input)
            .await?;
    Ok(SurveySubmitted::new(&state.base_url, &submitted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(type_affaire: Option<&str>, types: &[&str]) -> DealRow {
        DealRow {
            id: crate::domain::id::DealId::new("d"),
            type_affaire: type_affaire.map(str::to_owned),
            inventory_types: types.iter().map(|t| (*t).to_owned()).collect(),
        }
    }

    #[test]
    fn the_survey_type_reads_its_deals() {
        assert_eq!(survey_type(&[]), None);
        assert_eq!(survey_type(&[deal(None, &[])]), None);
        assert_eq!(
            survey_type(&[
                deal(None, &["Prise en mains", "Essais"]),
                deal(Some("Modernisation pour devis"), &[]),
                deal(Some("Modernisation pour devis"), &[]),
            ]),
            Some("État des lieux : Prise en mains, Essais ; Modernisation pour devis".to_owned())
        );
        assert_eq!(day::french_from_stored("2026-03-09"), "09/03/2026");
    }
}
