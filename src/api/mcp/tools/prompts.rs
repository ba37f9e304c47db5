//! The server's prompts: short French message templates for common agency
//! tasks, which tell the model which tools and resources to use.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{GetPromptResult, PromptMessage, Role};
use rmcp::schemars;
use rmcp::{prompt, prompt_router};
use serde::Deserialize;

use super::equipment::SHEET_TEMPLATE;
use crate::api::mcp::server::LiftdeskMcp;

/// La semaine à préparer.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct WeekArgs {
    /// Nom ou prénom du technicien, par exemple « Karim ».
    pub technicien: String,
    /// Un jour de la semaine voulue, AAAA-MM-JJ ; absent : la semaine en cours.
    #[serde(default)]
    pub jour: Option<String>,
}

/// Le devis de réparation à rédiger.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RepairQuoteArgs {
    /// L'équipement : son numéro (par exemple « ASC-10012 ») ou son immeuble (« Résidence Les Tilleuls »).
    pub equipement: String,
    /// Les travaux à chiffrer, par exemple « remplacement des galets de porte cabine ».
    pub travaux: String,
    /// Origine de la demande : `panne`, `reserve` (réserve de contrôle technique), `technicien` ou `client`.
    #[serde(default)]
    pub origine: Option<String>,
}

fn text_or(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// The text of « préparer la semaine d'un technicien ».
pub fn week_message(args: &WeekArgs) -> String {
    let technician = args.technicien.trim();
    let (week, planning_day) = match text_or(args.jour.as_deref()) {
        Some(day) => (
            format!("la semaine du {day}"),
            format!(" en lui donnant le jour {day}"),
        ),
        None => ("la semaine en cours".to_owned(), String::new()),
    };
    format!(
        "Prépare {week} du technicien « {technician} », dans l'agence où agissent les outils Liftdesk.\n\
\n\
1. Trouve-le avec l'outil `techniciens` : son identifiant, ses secteurs, son astreinte, ses absences \
(`absentUntil`), son repos de sécurité (`offUntil`) et ses appels en cours (`openCalls`).\n\
2. Lis le planning de la semaine avec l'outil `planning`{planning_day} et son identifiant en \
`technicianId` : ses visites, avec jour, équipement, immeuble, adresse, date limite et retard (`overdue`).\n\
3. Pour chaque équipement de sa semaine, lis sa fiche (ressource {SHEET_TEMPLATE}, ou l'outil \
`equipement` avec son numéro) : appels en cours, dernières visites, données utiles à l'intervention.\n\
4. Rédige en français un programme jour par jour (AAAA-MM-JJ) : pour chaque visite l'immeuble, \
l'adresse et l'équipement ; les visites en retard ou proches de leur date limite en premier ; les \
points d'attention (appels ouverts sur ses équipements, absences, astreinte et repos) ; ce qu'il \
faut prévoir (accès, pièces).\n\
\n\
Ne modifie rien dans Liftdesk : c'est une préparation. Si un jour est surchargé ou tombe pendant une \
absence, signale-le et propose un report plutôt que de le faire."
    )
}

/// The text of « rédiger un devis de réparation pour un équipement ».
pub fn repair_quote_message(args: &RepairQuoteArgs) -> String {
    let equipment = args.equipement.trim();
    let works = args.travaux.trim();
    let origin = match text_or(args.origine.as_deref()) {
        Some(origin) => format!("L'origine de la demande est `{origin}`."),
        None => {
            "Demande-moi l'origine de la demande si elle n'est pas claire : `panne`, `reserve` \
(réserve de contrôle technique), `technicien` ou `client`."
                .to_owned()
        }
    };
    format!(
        "Rédige un devis de réparation pour l'équipement « {equipment} » : {works}.\n\
\n\
1. Trouve l'équipement : l'outil `equipements` (q = son numéro ou le nom de son immeuble), puis \
`equipement` avec son numéro. Lis sa fiche (ressource {SHEET_TEMPLATE}) : type, marque, modèle, \
contrat d'entretien, appels en cours, dernières visites.\n\
2. Cherche les données techniques utiles aux travaux avec `champs_techniques` (par exemple « porte », \
« charge », « câbles ») pour choisir les bonnes pièces.\n\
3. Propose un objet en une phrase et des lignes de devis (libellé, quantité, prix unitaire hors taxes \
en euros) : pièces, main-d'œuvre (heures de technicien), déplacement, mise en sécurité s'il le faut.\n\
4. Montre-moi ce projet et attends ma validation avant de créer le devis avec l'outil `creer_devis` : \
il est créé en brouillon.\n\
\n\
{origin}"
    )
}

#[prompt_router(router = "prompt_set", vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Préparer la semaine d'un technicien : ses visites jour par jour, ses équipements, les
    /// appels en cours et les points d'attention (absence, astreinte, retards).
    #[prompt(
        name = "preparer_semaine_technicien",
        title = "Préparer la semaine d'un technicien"
    )]
    async fn week_prompt(&self, Parameters(args): Parameters<WeekArgs>) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            week_message(&args),
        )])
        .with_description(format!("Préparer la semaine de {}", args.technicien.trim()))
    }

    /// Rédiger un devis de réparation pour un équipement : trouver l'équipement et ses données
    /// techniques, proposer les lignes (pièces, main-d'œuvre, déplacement), puis créer le devis
    /// en brouillon après validation.
    #[prompt(
        name = "rediger_devis_reparation",
        title = "Rédiger un devis de réparation"
    )]
    async fn repair_quote_prompt(
        &self,
        Parameters(args): Parameters<RepairQuoteArgs>,
    ) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            repair_quote_message(&args),
        )])
        .with_description(format!(
            "Devis de réparation pour l'équipement {}",
            args.equipement.trim()
        ))
    }
}
