//! Equipment: finding one (by number, building, address), its data, its
//! technical fields, its identity; and its sheet as an MCP resource.

use crate::domain::id::EquipmentId;
use axum::http::request::Parts;
use rmcp::ErrorData;
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ReadResourceResult, ResourceContents, ResourceTemplate};
use rmcp::schemars;
use rmcp::{tool, tool_router};
use serde::Deserialize;

use super::caller_of;
use super::checked::Checked;
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::equipment::{self as equipment_api, EquipmentListQuery, IdentityBody};
use crate::api::wire::external::{self, EquipmentDataQuery};
use crate::api::wire::technical_fields::{self, TechnicalFieldsQuery};
use crate::error::{ApiError, AppError, AppResult};
use crate::principal::Principal;
use crate::services::sheet;

/// Recherche d'équipements.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct EquipmentSearchArgs {
    /// Mots cherchés (accents et casse ignorés) dans le numéro de l'équipement, le nom de
    /// l'immeuble, son adresse, son complément d'adresse, son code postal et sa ville ; chaque
    /// mot doit s'y trouver. Par exemple « Tilleuls », « ASC-10012 », « rue Danton Lyon ».
    /// Absent : tous les équipements de l'agence.
    #[serde(default)]
    pub q: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[serde(default)]
    pub limit: Option<i64>,
    /// Page demandée, à partir de 1.
    #[serde(default)]
    pub page: Option<i64>,
}

impl From<EquipmentSearchArgs> for EquipmentListQuery {
    fn from(args: EquipmentSearchArgs) -> Self {
        Self {
            q: args.q,
            limit: args.limit.map(|n| n.to_string()),
            page: args.page.map(|n| n.to_string()),
        }
    }
}

/// Un équipement désigné par son numéro ou son identifiant externe.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EquipmentDataArgs {
    /// Numéro de l'équipement (espaces et casse ignorés), par exemple « ASC-10012 » ou « 12345 ».
    #[serde(default)]
    pub number: Option<String>,
    /// À défaut de numéro : identifiant de l'équipement dans le logiciel de maintenance du partenaire.
    #[serde(default)]
    pub external_id: Option<String>,
    /// Autre agence du compte où chercher (UUID de l'outil `agences`, ou identifiant V1) ;
    /// absent : l'agence où agissent les outils. Hors du périmètre : refus 403.
    #[serde(default)]
    pub agency: Option<String>,
}

impl From<EquipmentDataArgs> for EquipmentDataQuery {
    fn from(args: EquipmentDataArgs) -> Self {
        Self {
            agency: args.agency,
            number: args.number,
            external_id: args.external_id,
        }
    }
}

/// Un équipement et un mot de la donnée technique cherchée.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct TechnicalFieldArgs {
    /// Identifiant (UUID) de l'équipement, donné par `equipements`, `equipement` ou `donnees_releve`.
    pub equipment: String,
    /// Mot cherché dans le nom, le code et les synonymes des données (accents et casse ignorés),
    /// par exemple « charge », « vitesse », « course », « porte », « câbles », « marque ».
    pub q: String,
}

impl From<TechnicalFieldArgs> for TechnicalFieldsQuery {
    fn from(args: TechnicalFieldArgs) -> Self {
        Self {
            equipment: Some(args.equipment),
            q: Some(args.q),
        }
    }
}

/// L'équipement à corriger et les champs d'identité à changer.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct IdentityArgs {
    /// Identifiant (UUID) de l'équipement, donné par `equipements` ou `equipement`.
    pub id: String,
    #[serde(flatten)]
    pub body: Checked<IdentityBody>,
}

#[tool_router(router = equipment_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Chercher des équipements de l'agence (ascenseurs, monte-charges, élévateurs, portes…)
    /// par leur numéro ou leur immeuble : `q` est un ou plusieurs mots cherchés dans le numéro,
    /// le nom de l'immeuble, l'adresse, le code postal et la ville (accents et casse ignorés ;
    /// chaque mot doit se trouver). Pour « l'ascenseur de la Résidence Les Tilleuls » :
    /// q = « Tilleuls ». Liste paginée (`total`, `page`, `limit`, `results`) triée par numéro ;
    /// chaque ligne donne l'`id` (UUID) de l'équipement — pour `champs_techniques`,
    /// `modifier_identite_equipement`, `signaler_ecart` et la fiche
    /// `liftdesk://equipements/{id}/fiche` — et son `number` pour l'outil `equipement`, avec
    /// type, emplacement, contrat (`parc` sous contrat, `hors_parc`) et immeuble. `limit` de 1 à
    /// 200 (50 par défaut), `page` à partir de 1 ; hors bornes : refus 422.
    #[tool(name = "equipements", annotations(read_only_hint = true))]
    async fn equipment_search(
        &self,
        Parameters(args): Parameters<EquipmentSearchArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                equipment_api::equipment_list(&self.state, &caller, args.into()).await
            }
            .await,
        )
    }

    /// Un équipement de l'agence par son numéro (`number`, espaces et casse ignorés) ou, à
    /// défaut, par son identifiant dans le logiciel du partenaire (`externalId`) : identité,
    /// immeuble, contrat d'entretien, taux de connaissance (`knowledgeRate`, en %), plus petite
    /// largeur de gaine mesurée, et toutes les données techniques relevées dans `data`, par code :
    /// `charge_utile` (charge utile, kg), `vitesse` (m/s), `course` (m), `nombre_niveaux`,
    /// `nombre_personnes`, `marque`, `modele`, `type_entrainement`… Une donnée jamais relevée est
    /// absente. Pour « quelle est la charge utile de l'équipement 12345 ? ». Sans numéro connu,
    /// chercher d'abord avec `equipements` ; pour le nom en clair et l'unité d'une donnée,
    /// `champs_techniques`. Aucun équipement de ce numéro dans l'agence : refus 404.
    #[tool(name = "equipement", annotations(read_only_hint = true))]
    async fn equipment_data(
        &self,
        Parameters(args): Parameters<EquipmentDataArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                external::equipment_data_view(&self.state, &caller, args.into()).await
            }
            .await,
        )
    }

    /// Chercher une donnée technique d'un équipement par un mot (« charge », « vitesse »,
    /// « course », « porte », « câbles », « armoire »…) : pour chaque donnée du catalogue qui
    /// s'applique à l'équipement et correspond, son `code`, son nom en clair (`field`), le
    /// composant décrit (`component` : `car_door` porte de cabine, `landing_door` portes
    /// palières, `machine` machinerie, `controller` armoire de commande, `shaft` gaine ; `null`
    /// pour l'appareil lui-même), la valeur relevée sur l'équipement (`value`, `null` si jamais
    /// relevée) et son unité (`unit`, par exemple kg, m/s, mm). Répond une liste, vide si rien
    /// ne correspond. `equipment` est l'UUID de l'équipement (outils `equipements`,
    /// `equipement` ou `donnees_releve`) ; hors de l'agence : refus 404.
    #[tool(name = "champs_techniques", annotations(read_only_hint = true))]
    async fn technical_fields(
        &self,
        Parameters(args): Parameters<TechnicalFieldArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                technical_fields::technical_field_list(&self.state, &caller, args.into()).await
            }
            .await,
        )
    }

    /// Corriger l'identité d'un équipement : `number`, `serialNumber`, `type` (`ascenseur`,
    /// `monte_charge`, `monte_voiture`, `elevateur`, `porte_fermeture`), `subtype`, `location`
    /// (emplacement dans l'immeuble), `maintenanceContract` (`parc` sous contrat ou `hors_parc`),
    /// `contractNumber`, `externalId` (identifiant dans le logiciel du partenaire). Seuls les
    /// champs donnés changent ; "" ou null efface le champ. `id` est l'UUID de l'équipement
    /// (outils `equipements` ou `equipement`). Répond l'identité après correction. Refus 422
    /// avec la raison (valeur hors liste, champ inconnu, numéro déjà porté par un autre
    /// équipement de l'agence) et 404 (équipement hors de l'agence) : rien n'est alors changé.
    /// Les données techniques ne se corrigent pas ici.
    #[tool(name = "modifier_identite_equipement")]
    async fn correct_identity(
        &self,
        Parameters(args): Parameters<IdentityArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body = args.body.into_result()?;
                equipment_api::identity_correction(&self.state, &caller, args.id, body).await
            }
            .await,
        )
    }
}

/// The template of the equipment sheet resource.
pub const SHEET_TEMPLATE: &str = "liftdesk://equipements/{id}/fiche";
const SHEET_PREFIX: &str = "liftdesk://equipements/";
const SHEET_SUFFIX: &str = "/fiche";
/// The resources' templates: the equipment sheet.
pub(in crate::api::mcp) fn resource_templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(SHEET_TEMPLATE, "fiche_equipement")
            .with_title("Fiche d'un équipement")
            .with_description(
                "La fiche complète d'un équipement de l'agence, en Markdown et en français : \
identité, immeuble et accès, client, contrat, données techniques par composant avec leurs \
unités, taux de connaissance, dernières visites, appels en cours et dernier relevé. \
{id} est l'UUID de l'équipement (outils `equipements` ou `equipement`).",
            )
            .with_mime_type("text/markdown"),
    ]
}

/// The equipment id of a sheet's address, if it is one.
fn sheet_id(uri: &str) -> Option<&str> {
    let id = uri.strip_prefix(SHEET_PREFIX)?.strip_suffix(SHEET_SUFFIX)?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

impl LiftdeskMcp {
    /// `resources/read`: the sheet of an equipment of the caller's acting
    /// agency; anything else (another agency's equipment, an unknown
    /// address) is "resource not found".
    pub(in crate::api::mcp) async fn read_sheet(
        &self,
        uri: &str,
        parts: Option<&Parts>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let Some(id) = sheet_id(uri) else {
            return Err(ErrorData::resource_not_found(
                format!(
                    "Ressource inconnue : « {uri} ». Les fiches sont à l'adresse {SHEET_TEMPLATE}."
                ),
                None,
            ));
        };
        let caller = parts.map(caller_of).unwrap_or_else(|| {
            Err(ApiError::unauthorized(
                crate::auth::api_token::UNAUTHORIZED_MESSAGE,
            ))
        });
        let outcome = match caller {
            Ok(caller) => self.sheet_markdown(&caller, id).await,
            Err(err) => Err(err),
        };
        match outcome {
            Ok(text) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, uri).with_mime_type("text/markdown"),
            ])),
            Err(ApiError(AppError::NotFound(message))) => {
                Err(ErrorData::resource_not_found(message, None))
            }
            Err(err) => {
                if let AppError::Internal(cause) = err.refusal() {
                    tracing::error!(error = ?cause, "fiche MCP en échec");
                }
                Err(ErrorData::internal_error(err.public_message(), None))
            }
        }
    }

    /// The sheet of an equipment of the acting agency, in Markdown.
    async fn sheet_markdown(&self, caller: &Principal, id: &str) -> AppResult<String> {
        Ok(sheet::markdown_for(&self.state.store, caller, &EquipmentId::new(id)).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_address_names_one_equipment() {
        assert_eq!(sheet_id("liftdesk://equipements/abc/fiche"), Some("abc"));
        assert_eq!(sheet_id("liftdesk://equipements//fiche"), None);
        assert_eq!(sheet_id("liftdesk://equipements/a/b/fiche"), None);
        assert_eq!(sheet_id("liftdesk://releves/abc/fiche"), None);
        assert_eq!(sheet_id("liftdesk://equipements/abc"), None);
    }
}
