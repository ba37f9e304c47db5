//! The agency's people and their week, and the visits' life.

use crate::domain::id::VisitId;
use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::model::JsonObject;
use rmcp::schemars;
use rmcp::{tool, tool_router};
use serde::Deserialize;

use super::{args, caller_of};
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::planning::{self, PlanningQuery};
use crate::api::wire::technicians;
use crate::api::wire::visits::{self, CompleteBody, RescheduleBody, StartBody};

/// Arguments of `planning`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct PlanningArgs {
    /// Un jour de la semaine voulue, AAAA-MM-JJ (par exemple 2026-03-11) ; absent : la
    /// semaine en cours (jour de Paris).
    #[serde(default)]
    pub day: Option<String>,
    /// Identifiant (UUID) d'un technicien de l'agence, donné par l'outil `techniciens` :
    /// seulement ses visites. Absent : toutes les visites de l'agence.
    #[serde(default)]
    pub technician_id: Option<String>,
}

/// A visit named by its id.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VisitArg {
    /// Identifiant (UUID) de la visite : le champ `id` d'une entrée de l'outil `planning`.
    pub id: String,
}

/// Arguments of `commencer_visite`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct StartArgs {
    /// Identifiant (UUID) de la visite : le champ `id` d'une entrée de l'outil `planning`.
    pub id: String,
    /// Heure d'arrivée, ISO 8601 avec fuseau (2026-03-11T09:30:00+01:00) ; absent :
    /// maintenant. Pas dans le futur.
    #[serde(default)]
    pub arrived_at: Option<String>,
}

/// Arguments of `terminer_visite`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CompleteArgs {
    /// Identifiant (UUID) de la visite : le champ `id` d'une entrée de l'outil `planning`.
    pub id: String,
    /// Heure d'arrivée, ISO 8601 avec fuseau : obligatoire si la visite n'a pas été
    /// commencée (bon saisi après coup), refusée si elle l'a été.
    #[serde(default)]
    pub arrived_at: Option<String>,
    /// Heure de départ, ISO 8601 avec fuseau ; absent : maintenant. Pas avant
    /// l'arrivée, pas dans le futur.
    #[serde(default)]
    pub left_at: Option<String>,
    /// Nom de la personne qui a signé le bon de visite (1 à 200 caractères).
    pub signed_by: String,
    /// Observations du technicien (4000 caractères au plus).
    #[serde(default)]
    pub observations: Option<String>,
    /// Obligations périodiques du contrat faites à cette visite : `cables`,
    /// `parachute`, `nettoyage` ; chacune repart de ce jour.
    #[serde(default)]
    pub duties: Vec<String>,
}

/// Arguments of `replanifier_visite`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RescheduleArgs {
    /// Identifiant (UUID) de la visite : le champ `id` d'une entrée de l'outil `planning`.
    pub id: String,
    /// Nouveau jour, AAAA-MM-JJ, aujourd'hui (jour de Paris) ou plus tard.
    pub planned_for: String,
    /// Identifiant (UUID) d'un technicien actif de l'agence (outil `techniciens`) qui fera
    /// la visite ; absent : le technicien ne change pas.
    #[serde(default)]
    pub technician_id: Option<String>,
}

#[tool_router(router = planning_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Les techniciens actifs de l'agence : `id`, `name`, `sectors`, `openCalls` (appels
    /// affectés non résolus), `onCall` (true : d'astreinte en ce moment), `absentUntil`
    /// (absent aujourd'hui, jusqu'à ce jour AAAA-MM-JJ) et `offUntil` (repos de sécurité après
    /// une astreinte, jusqu'à cet instant UTC). Pour trouver un technicien par son nom
    /// (« Karim ») ou le technicien d'astreinte, avant de regarder son planning (`planning`)
    /// ou de lui affecter un appel (`affecter_appel`).
    #[tool(name = "techniciens", annotations(read_only_hint = true))]
    async fn technicians(&self, Extension(parts): Extension<Parts>) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                technicians::technician_list(&self.state, &caller).await
            }
            .await,
        )
    }

    /// Le planning d'une semaine de l'agence : les visites d'entretien de la semaine ISO
    /// (lundi au dimanche) du jour `day` (AAAA-MM-JJ ; absent : la semaine en cours).
    /// Pour « qu'est-ce qui est prévu pour Karim cette semaine ? » : trouver l'identifiant de
    /// Karim avec `techniciens`, puis appeler `planning` avec `technicianId`.
    /// Chaque entrée : `id` de la visite (pour `visite`, `commencer_visite`,
    /// `terminer_visite`, `replanifier_visite`), `technicianId`, `day` (jour prévu, ou jour
    /// où la visite a été faite), `status` (`planifiee`, `en_cours`, `faite`), `equipmentId`,
    /// `number` (numéro de l'appareil), `building`, `address`, `deadline` (date limite du
    /// plan d'entretien) et `overdue` (visite après sa date limite). Tri par jour puis par
    /// technicien. Refus : `day` mal écrit (400) ; jour qui n'existe pas, ou `technicianId`
    /// qui n'est pas un technicien de l'agence (422).
    #[tool(name = "planning", input_schema = args::schema::<PlanningArgs>(), annotations(read_only_hint = true))]
    async fn planning_week(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: PlanningArgs = args::parse(arguments)?;
                let query = PlanningQuery { day: args.day };
                planning::planning_entries(&self.state, &caller, query, args.technician_id).await
            }
            .await,
        )
    }

    /// Une visite d'entretien : jour prévu (JJ/MM/AAAA), statut (`planifiee`, `en_cours`,
    /// `faite`), arrivée et départ (JJ/MM/AAAA HH:MM, heure de Paris), signataire et
    /// observations du technicien. L'`id` vient de l'outil `planning`. Refus : 404 si la
    /// visite n'est pas de l'agence.
    #[tool(name = "visite", input_schema = args::schema::<VisitArg>(), annotations(read_only_hint = true))]
    async fn visit_read(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: VisitArg = args::parse(arguments)?;
                visits::visit_read(&self.state, &caller, VisitId::new(args.id)).await
            }
            .await,
        )
    }

    /// Commence une visite planifiée (`planifiee` → `en_cours`) : le technicien est arrivé.
    /// `arrivedAt` (ISO 8601 avec fuseau) : l'heure d'arrivée, par défaut maintenant.
    /// Réponse : `{id, ok, link, url}` de la visite. Refus 422 : visite déjà commencée ou
    /// faite, heure invalide ou future ; 404 : visite introuvable dans l'agence.
    #[tool(name = "commencer_visite", input_schema = args::schema::<StartArgs>(), annotations(read_only_hint = false, destructive_hint = false))]
    async fn visit_start(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: StartArgs = args::parse(arguments)?;
                let body = StartBody {
                    arrived_at: args.arrived_at,
                };
                visits::start(&self.state, &caller, VisitId::new(args.id), Some(body)).await
            }
            .await,
        )
    }

    /// Termine une visite (`planifiee` ou `en_cours` → `faite`) : le bon de visite, avec
    /// `signedBy` (qui a signé, obligatoire), `observations`, `leftAt` (départ, par défaut
    /// maintenant) et, pour une visite jamais commencée (bon saisi après coup), `arrivedAt`
    /// obligatoire. Heures ISO 8601 avec fuseau (2026-03-11T10:15:00+01:00). Réponse :
    /// `{id, ok, link, url}`. Refus 422 : visite déjà faite, champ manquant ou invalide,
    /// départ avant l'arrivée ; 404 : visite introuvable dans l'agence.
    #[tool(name = "terminer_visite", input_schema = args::schema::<CompleteArgs>(), annotations(read_only_hint = false, destructive_hint = false))]
    async fn visit_complete(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: CompleteArgs = args::parse(arguments)?;
                let body = CompleteBody {
                    arrived_at: args.arrived_at,
                    left_at: args.left_at,
                    signed_by: args.signed_by,
                    observations: args.observations,
                    duties: args.duties,
                };
                visits::complete(&self.state, &caller, VisitId::new(args.id), body).await
            }
            .await,
        )
    }

    /// Replanifie une visite qui n'a pas commencé : nouveau jour `plannedFor` (AAAA-MM-JJ,
    /// aujourd'hui ou plus tard) et, au besoin, un autre technicien `technicianId` (outil
    /// `techniciens`). Réponse : `{id, ok, link, url}`. Refus 422 : visite commencée (annuler
    /// d'abord son début avec `annuler_debut_visite`) ou faite, jour passé ou invalide,
    /// technicien inconnu ou absent ce jour-là ; 404 : visite introuvable dans l'agence.
    #[tool(name = "replanifier_visite", input_schema = args::schema::<RescheduleArgs>(), annotations(read_only_hint = false, destructive_hint = false))]
    async fn visit_reschedule(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: RescheduleArgs = args::parse(arguments)?;
                let body = RescheduleBody {
                    planned_for: args.planned_for,
                    technician_id: args.technician_id,
                    unassign: false,
                };
                visits::reschedule(&self.state, &caller, VisitId::new(args.id), body).await
            }
            .await,
        )
    }

    /// Annule le début d'une visite commencée par erreur ou impossible à faire (accès
    /// refusé) : `en_cours` → `planifiee`, l'heure d'arrivée est effacée ; elle peut ensuite
    /// être replanifiée. Réponse : `{id, ok, link, url}`. Refus 422 : visite qui n'est pas
    /// en cours ; 404 : visite introuvable dans l'agence.
    #[tool(name = "annuler_debut_visite", input_schema = args::schema::<VisitArg>(), annotations(read_only_hint = false, destructive_hint = false))]
    async fn visit_cancel_start(
        &self,
        Extension(parts): Extension<Parts>,
        arguments: JsonObject,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: VisitArg = args::parse(arguments)?;
                visits::cancel_start(&self.state, &caller, VisitId::new(args.id)).await
            }
            .await,
        )
    }
}
