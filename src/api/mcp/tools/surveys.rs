//! Surveys (relevés): the list, one survey, its data, its submission, and
//! the discrepancies (écarts) noted on it.

use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;
use rmcp::{tool, tool_router};
use serde::Deserialize;

use super::caller_of;
use super::checked::Checked;
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::discrepancies::{self, DiscrepancyBody};
use crate::api::wire::surveys::{self, SubmitBody, SurveyListQuery};

/// Recherche et pagination des relevés.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct SurveyListArgs {
    /// Texte cherché dans le numéro du relevé (contient, casse ignorée), par exemple « 2026-0042 ».
    #[serde(default)]
    pub q: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[serde(default)]
    pub limit: Option<i64>,
    /// Page demandée, à partir de 1.
    #[serde(default)]
    pub page: Option<i64>,
}

impl From<SurveyListArgs> for SurveyListQuery {
    fn from(args: SurveyListArgs) -> Self {
        Self {
            q: args.q,
            limit: args.limit.map(|n| n.to_string()),
            page: args.page.map(|n| n.to_string()),
        }
    }
}

/// Un relevé.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SurveyArgs {
    /// Identifiant (UUID) du relevé, donné par l'outil `releves`.
    pub id: String,
}

/// Le relevé à soumettre et ce que le technicien remet.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SubmitArgs {
    /// Identifiant (UUID) du relevé, donné par l'outil `releves`.
    pub id: String,
    #[serde(flatten)]
    pub body: Checked<SubmitBody>,
}

#[tool_router(router = survey_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Les relevés de l'agence (un relevé est l'inventaire technique d'un équipement fait sur
    /// place par un technicien), du plus récent au plus ancien : liste paginée (`total`, `page`,
    /// `limit`, `results`), chaque ligne avec l'`id` (UUID) du relevé — pour `releve`,
    /// `donnees_releve`, `soumettre_releve` et `signaler_ecart` — et son `number`. `q` cherche
    /// dans le numéro. `limit` de 1 à 200 (50 par défaut), `page` à partir de 1 ; hors bornes :
    /// refus 422.
    #[tool(name = "releves", annotations(read_only_hint = true))]
    async fn survey_list(
        &self,
        Parameters(args): Parameters<SurveyListArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                surveys::survey_list(&self.state, &caller, args.into()).await
            }
            .await,
        )
    }

    /// Un relevé tel qu'il se lit dans le service : `fields` donne son numéro, son statut en
    /// clair (« À réaliser », « En cours », « Terminé », « Annulé »), son type (la nature des
    /// affaires qui l'ont demandé), le jour du relevé et la date limite (JJ/MM/AAAA), le nombre
    /// de données relevées et de photos. Pour son équipement et ses données : `donnees_releve`.
    /// Relevé hors de l'agence : refus 404.
    #[tool(name = "releve", annotations(read_only_hint = true))]
    async fn survey_read(
        &self,
        Parameters(args): Parameters<SurveyArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                surveys::survey_record(&self.state, &caller, args.id).await
            }
            .await,
        )
    }

    /// Les données d'un relevé : son équipement (`equipment.id`, l'`equipmentId` à donner à
    /// `signaler_ecart`), son agence, son motif, son statut, son jour (AAAA-MM-JJ), les affaires
    /// qui l'ont demandé, et les données qu'il a recueillies groupées par composant (`equipment`
    /// pour l'appareil lui-même, `car_door` porte de cabine, `landing_door` portes palières,
    /// `machine` machinerie, `controller` armoire de commande, `shaft` gaine), chacune avec
    /// `code`, `libelle`, `valeur`, `unite`. Une donnée jamais relevée est absente. Relevé hors
    /// de l'agence : refus 404.
    #[tool(name = "donnees_releve", annotations(read_only_hint = true))]
    async fn survey_data(
        &self,
        Parameters(args): Parameters<SurveyArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                surveys::survey_data_read(&self.state, &caller, args.id).await
            }
            .await,
        )
    }

    /// Soumettre un relevé au nom du technicien, à faire seulement sur demande explicite (le
    /// relevé est alors terminé). Le relevé `a_realiser` ou `en_cours` passe à `termine` ; les
    /// données de `values`, par code du catalogue (le `code` de `champs_techniques`, par exemple
    /// {"charge_utile": 630, "vitesse": 1.0, "porte_cabine_type": "Automatique centrale"}),
    /// s'ajoutent à celles déjà saisies puis deviennent les données de l'équipement ; les
    /// abonnés reçoivent l'événement `releve.termine`. `surveyedOn` : jour du relevé
    /// (AAAA-MM-JJ, aujourd'hui par défaut ; ni futur, ni avant la demande). Réservé aux comptes
    /// qui réalisent des relevés et aux administrateurs (refus 403). Refus 422 avec la raison :
    /// relevé déjà terminé ou annulé, date refusée, donnée inconnue ou valeur refusée ; rien
    /// n'est alors changé. Répond `id`, `ok`, `status` (`termine`), `link`, `url`.
    #[tool(name = "soumettre_releve")]
    async fn survey_submit(
        &self,
        Parameters(args): Parameters<SubmitArgs>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body = args.body.into_result()?;
                surveys::survey_submission(&self.state, &caller, args.id, body).await
            }
            .await,
        )
    }

    /// Noter un écart (une anomalie constatée) sur un équipement lors d'un relevé, par exemple
    /// « noter un écart sur la porte cabine de ce relevé ». `surveyId` : l'UUID du relevé
    /// (`releves`) ; `equipmentId` : l'UUID de son équipement (le `equipment.id` de
    /// `donnees_releve`). `component` : la partie concernée, en code — porte de cabine
    /// = `car_door` ; portes palières = `landing_door` ; machinerie, moteur, treuil, frein =
    /// `machine` ; armoire de commande, manœuvre, variateur = `controller` ; gaine, cuvette =
    /// `shaft` ; absent ou `equipment` pour l'appareil entier. `finding` : ce qui a été constaté,
    /// en une ou deux phrases (3 à 2000 caractères). Répond `id`, `ok` (toujours vrai), `link`
    /// et `url` de l'écart. Refus 422 avec la raison (équipement ou relevé introuvable dans
    /// l'agence, relevé d'un autre équipement, composant inconnu, constat trop court, champ
    /// manquant) : rien n'est alors enregistré.
    #[tool(name = "signaler_ecart")]
    async fn discrepancy_create(
        &self,
        Parameters(body): Parameters<Checked<DiscrepancyBody>>,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body = body.into_result()?;
                discrepancies::discrepancy_creation(&self.state, &caller, body).await
            }
            .await,
        )
    }
}
