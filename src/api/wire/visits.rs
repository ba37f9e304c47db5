//! The JSON of `visits` shared by the REST API v2 (`api::v2::visits`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use crate::domain::day;
use crate::domain::id::VisitId;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::wire::{Created, RecordKind};
use crate::clock;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::visits::{self, CompleteInput, RescheduleInput, StartInput};
use crate::state::AppState;
use crate::store::visits::VisitRow;

/// Type de l'objet : toujours `visite`.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum VisitType {
    Visite,
}

// Exactly the spec's Visit read.
/// Une visite d'entretien, telle que l'écran la montre.
#[derive(Serialize, ToSchema)]
pub struct VisitRead {
    /// Type de l'objet, au singulier : `visite`.
    #[serde(rename = "type")]
    pub kind: VisitType,
    /// Identifiant de la visite.
    pub id: String,
    /// Chemin de la visite dans le service.
    pub link: String,
    /// Adresse complète de la visite, à ouvrir dans un navigateur.
    pub url: String,
    /// Les champs de la visite, toujours tous présents.
    pub fields: VisitFields,
}

/// Champs d'une visite : chacun est un texte ou null. Les heures sont l'heure de Paris.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VisitFields {
    /// Prévue le (JJ/MM/AAAA).
    #[schema(required = true, example = "11/03/2026")]
    pub planned_for: Option<String>,
    /// Statut : `planifiee`, `en_cours` ou `faite`.
    #[schema(required = true, example = "planifiee")]
    pub status: Option<String>,
    /// Arrivée (JJ/MM/AAAA HH:MM, heure de Paris).
    #[schema(required = true, example = "11/03/2026 09:30")]
    pub arrived_at: Option<String>,
    /// Départ (JJ/MM/AAAA HH:MM, heure de Paris).
    #[schema(required = true, example = "11/03/2026 10:15")]
    pub left_at: Option<String>,
    /// Signé par.
    #[schema(required = true)]
    pub signed_by: Option<String>,
    /// Observations du technicien.
    #[schema(required = true)]
    pub observations: Option<String>,
}

/// `JJ/MM/AAAA HH:MM` in Paris time, from a stored UTC timestamp.
pub(crate) fn local_minute(stored: Option<&str>) -> Option<String> {
    stored
        .and_then(clock::parse_timestamp)
        .map(|at| clock::paris_local(at).format("%d/%m/%Y %H:%M").to_string())
}

impl VisitRead {
    fn new(row: VisitRow, base_url: &str) -> Self {
        let kind = RecordKind::Visit;
        Self {
            kind: VisitType::Visite,
            link: kind.link(row.id.as_str()),
            url: kind.url(base_url, row.id.as_str()),
            fields: VisitFields {
                planned_for: day::read(&row.planned_for).map(day::french),
                status: Some(row.status.as_str().to_owned()),
                arrived_at: local_minute(row.arrived_at.as_deref()),
                left_at: local_minute(row.left_at.as_deref()),
                signed_by: row.signed_by,
                observations: row.observations,
            },
            id: row.id.into_string(),
        }
    }
}

/// The visit `id` of the acting agency (404 otherwise).
pub async fn visit_read(state: &AppState, caller: &Principal, id: VisitId) -> AppResult<VisitRead> {
    let row = visits::read(&state.store, caller, &id).await?;
    Ok(VisitRead::new(row, &state.base_url))
}

/// Début de visite : l'arrivée du technicien.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StartBody {
    /// Heure d'arrivée, ISO 8601 avec fuseau (par exemple `2026-03-11T09:30:00+01:00`) ; par défaut maintenant. Pas dans le futur.
    #[schema(format = DateTime)]
    pub arrived_at: Option<String>,
}

/// Fin de visite : départ, signature, observations.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CompleteBody {
    /// Heure d'arrivée, ISO 8601 avec fuseau : obligatoire pour une visite qui n'a pas été commencée (bon saisi après coup), refusée pour une visite commencée.
    #[schema(format = DateTime)]
    pub arrived_at: Option<String>,
    /// Heure de départ, ISO 8601 avec fuseau ; par défaut maintenant. Pas avant l'arrivée, pas dans le futur.
    #[schema(format = DateTime)]
    pub left_at: Option<String>,
    /// Nom de la personne qui a signé le bon de visite.
    #[schema(min_length = 1, max_length = 200)]
    pub signed_by: String,
    /// Observations du technicien (4000 caractères au plus).
    #[schema(max_length = 4000)]
    pub observations: Option<String>,
    /// Obligations périodiques du contrat faites à cette visite : `cables`
    /// (contrôle des câbles), `parachute` (essai du parachute), `nettoyage`
    /// (cuvette, toit de cabine, local des machines). Chacune repart de ce jour.
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    pub duties: Vec<String>,
}

/// Replanification d'une visite qui n'a pas commencé.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RescheduleBody {
    /// Nouveau jour, AAAA-MM-JJ, à partir d'aujourd'hui.
    #[schema(format = Date)]
    pub planned_for: String,
    /// Technicien actif de la même agence qui fera la visite ; absent ou null : inchangé.
    pub technician_id: Option<String>,
    /// Vrai : la visite n'a plus de technicien (elle redevient non affectée) ;
    /// pas avec `technicianId`.
    #[serde(default)]
    pub unassign: bool,
}

pub(crate) fn created(state: &AppState, id: &VisitId) -> Created {
    Created::new(RecordKind::Visit, &state.base_url, id.as_str())
}

/// Starts the visit `id` of the acting agency (`body` may be left out).
pub async fn start(
    state: &AppState,
    caller: &Principal,
    id: VisitId,
    body: Option<StartBody>,
) -> AppResult<Created> {
    let input = StartInput {
        arrived_at: body.and_then(|b| b.arrived_at),
    };
    visits::start(&state.store, caller, &id, input).await?;
    Ok(created(state, &id))
}

/// Completes the visit `id` of the acting agency.
pub async fn complete(
    state: &AppState,
    caller: &Principal,
    id: VisitId,
    body: CompleteBody,
) -> AppResult<Created> {
    let input = CompleteInput {
        arrived_at: body.arrived_at,
        left_at: body.left_at,
        signed_by: body.signed_by,
        observations: body.observations,
        duties: body.duties,
    };
    visits::complete(&state.store, caller, &id, input).await?;
    Ok(created(state, &id))
}

/// Reschedules the visit `id` of the acting agency.
pub async fn reschedule(
    state: &AppState,
    caller: &Principal,
    id: VisitId,
    body: RescheduleBody,
) -> AppResult<Created> {
    let input = RescheduleInput {
        planned_for: body.planned_for,
        technician_id: body.technician_id,
        unassign: body.unassign,
    };
    visits::reschedule(&state.store, caller, &id, input).await?;
    Ok(created(state, &id))
}

/// Undoes the start of the visit `id` of the acting agency.
pub async fn cancel_start(state: &AppState, caller: &Principal, id: VisitId) -> AppResult<Created> {
    visits::cancel_start(&state.store, caller, &id).await?;
    Ok(created(state, &id))
}
