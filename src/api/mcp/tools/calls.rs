//! Breakdown calls: finding them, reading them, assigning a technician and
//! moving them through their statuses.

use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::model::JsonObject;
use rmcp::schemars;
use rmcp::{tool, tool_router};
use serde::Deserialize;

use super::{args, caller_of};
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::calls::{self, AssignBody, CallListQuery, StatusBody};
use crate::services::calls::Closing;

/// Arguments of `appels`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CallsArgs {
    /// Statut : `ouverts` (tous les appels non résolus), ou un statut précis : `ouverte`,
    /// `en_route`, `sur_place`, `a_l_arret`, `resolue`. Absent : tous les appels.
    #[serde(default)]
    pub status: Option<String>,
    /// Recherche, accents et casse ignorés : chaque mot doit se trouver dans la référence de
    /// l'appel, le numéro de l'appareil, le nom de l'immeuble, son adresse ou l'appelant
    /// (par exemple « Tilleuls » ; 100 caractères au plus).
    #[serde(default)]
    pub q: Option<String>,
    /// Identifiant (UUID) d'un équipement : ses appels seulement.
    #[serde(default)]
    pub equipment: Option<String>,
    /// Appels par page, de 1 à 200 (50 par défaut).
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<i64>,
    /// Page demandée, à partir de 1.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub page: Option<i64>,
}

/// A call named by its id.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CallId {
    /// Identifiant (UUID) de l'appel : le champ `id` d'une ligne de l'outil `appels`.
    pub id: String,
}

/// Arguments of `affecter_appel`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct AssignArgs {
    /// Identifiant (UUID) de l'appel : le champ `id` d'une ligne de l'outil `appels`.
    pub id: String,
    /// Identifiant (UUID) d'un technicien actif de l'agence, donné par l'outil `techniciens`.
    pub technician_id: String,
    /// Nom du technicien, pour confirmation (conseillé) : s'il ne correspond pas au
    /// technicien désigné par `technicianId` (casse ignorée), l'affectation est refusée.
    #[serde(default)]
    pub technician: Option<String>,
}

/// Arguments of `statut_appel`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StatusArgs {
    /// Identifiant (UUID) de l'appel : le champ `id` d'une ligne de l'outil `appels`.
    pub id: String,
    /// Statut visé : `en_route`, `sur_place`, `a_l_arret`, `resolue` ou `ouverte`.
    pub statut: String,
}

#[tool_router(router = calls_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Les appels de panne de l'agence, par pages (`total`, `page`, `limit`, `results`) :
    /// d'abord les « personne bloquée » non résolus, puis du plus récent au plus ancien.
    /// Pour retrouver un appel par son immeuble, son adresse, le numéro de l'appareil, sa
    /// référence ou l'appelant : `q` (par exemple, pour « l'appel ouvert à la Résidence Les
    /// Tilleuls » : `q` = « Tilleuls » et `status` = « ouverts »). `status` : `ouverts` (tous
    /// sauf résolus) ou un statut ; `equipment` : l'identifiant d'un équipement.
    /// Chaque ligne : `id` (pour `appel`, `affecter_appel`, `statut_appel`), `reference`,
    /// `statut` et `libelle`, `type` et `urgence` (personne bloquée), `recuLe` (heure de
    /// l'appel, UTC), `appelant`, `equipment` (id et numéro), `building`, `address`,
    /// `technician` (affecté, ou null). Refus : statut inconnu, `limit` ou `page` hors bornes
    /// (422) ; `q` trop long (400).
    #[tool(name = "appels", input_schema = args::schema::<CallsArgs>(), annotations(read_only_hint = true))]
    async fn call_list(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: CallsArgs = args::parse(arguments)?;
                let query = CallListQuery {
                    status: args.status,
                    q: args.q,
                    equipment: args.equipment,
                    limit: args.limit.map(|limit| limit.to_string()),
                    page: args.page.map(|page| page.to_string()),
                };
                calls::call_list(&self.state, &caller, query).await
            }
            .await,
        )
    }

    /// Un appel de panne en détail : `reference`, `statut` et `libelle`, `type`, `urgence`,
    /// `description` (ce que l'appelant a rapporté), `appelant`, heures `recuLe`, `arriveLe`
    /// (arrivée du technicien) et `resoluLe` (UTC, null tant qu'elles n'ont pas eu lieu),
    /// `equipment`, `technician` affecté et `center` (centre d'appels). L'`id` vient de
    /// l'outil `appels`. Refus : 404 si l'appel n'est pas de l'agence.
    #[tool(name = "appel", input_schema = args::schema::<CallId>(), annotations(read_only_hint = true))]
    async fn call_read(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: CallId = args::parse(arguments)?;
                calls::call_read(&self.state, &caller, args.id).await
            }
            .await,
        )
    }

    /// Affecte (ou réaffecte) un technicien à un appel de panne. `id` : l'appel (outil
    /// `appels`) ; `technicianId` : un technicien actif de l'agence (outil `techniciens` ; le
    /// technicien d'astreinte y a `onCall` = true) ; `technician` : son nom, pour
    /// confirmation. Le statut ne change pas : l'appel passe « en route » quand le
    /// technicien part (`statut_appel`). Réponse : `{id, ok, link, url}` de l'appel. Refus
    /// 422 : appel déjà résolu, technicien inconnu ou d'une autre agence, absent aujourd'hui
    /// (`absentUntil`) ou en repos de sécurité après son astreinte (`offUntil`), nom qui ne
    /// correspond pas ; 404 : appel introuvable dans l'agence.
    #[tool(name = "affecter_appel", input_schema = args::schema::<AssignArgs>(), annotations(read_only_hint = false, destructive_hint = false))]
    async fn call_assign(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: AssignArgs = args::parse(arguments)?;
                let body = AssignBody {
                    technician_id: args.technician_id,
                    technician: args.technician,
                };
                calls::assign(&self.state, &caller, args.id, body).await
            }
            .await,
        )
    }

    /// Fait avancer un appel de panne dans ses statuts (`statut`) : `ouverte` → `en_route`
    /// (le technicien part), `sur_place` (il arrive : fixe `arriveLe`) ou `resolue` ;
    /// `en_route` → `ouverte` (demi-tour), `sur_place` ou `resolue` ; `sur_place` →
    /// `a_l_arret` (appareil laissé à l'arrêt) ou `resolue` ; `a_l_arret` → `sur_place` ou
    /// `resolue`. `resolue` (remis en service) est définitif, fixe `resoluLe` et prévient
    /// les abonnés (`appel.clos`). `en_route`, `sur_place` et `a_l_arret` demandent un
    /// technicien affecté (`affecter_appel`). Réponse : `{id, ok, link, url}`. Refus 422 :
    /// transition non permise ou sans technicien ; 404 : appel introuvable dans l'agence.
    #[tool(name = "statut_appel", input_schema = args::schema::<StatusArgs>(), annotations(read_only_hint = false, destructive_hint = false))]
    async fn call_status(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: StatusArgs = args::parse(arguments)?;
                let body = StatusBody {
                    statut: args.statut,
                };
                calls::change_status(&self.state, &caller, args.id, body, Closing::External).await
            }
            .await,
        )
    }
}
