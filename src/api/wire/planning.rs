//! The JSON of `planning` shared by the REST API v2 (`api::v2::planning`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use crate::domain::id::TechnicianId;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::visits::{self, DutyMark, PlanningItem};
use crate::state::AppState;

/// La semaine demandée.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlanningQuery {
    /// Un jour de la semaine voulue, AAAA-MM-JJ ; par défaut la semaine en cours
    /// (jour de Paris). Mal formé : 400 ; jour qui n'existe pas (2026-02-30) : 422.
    #[param(value_type = Option<String>, format = Date)]
    pub day: Option<String>,
}

// Exactly the spec's Planning entry table.
/// Une visite du planning.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanningEntry {
    /// Identifiant de la visite.
    pub id: String,
    /// Technicien affecté.
    #[schema(required = true)]
    pub technician_id: Option<String>,
    /// AAAA-MM-JJ : le jour prévu ; pour une visite faite, le jour où elle a été faite.
    #[schema(required = true, format = Date)]
    pub day: Option<String>,
    /// `planifiee`, `en_cours` ou `faite`.
    #[schema(required = true)]
    #[ts(type = "VisitStatus | null")]
    pub status: Option<String>,
    /// Équipement visité.
    #[schema(required = true)]
    pub equipment_id: Option<String>,
    /// Numéro de l'équipement.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Nom de l'immeuble.
    #[schema(required = true)]
    pub building: Option<String>,
    /// Adresse de l'immeuble (rue, puis code postal et ville).
    #[schema(required = true)]
    pub address: Option<String>,
    /// AAAA-MM-JJ : date limite du plan de maintenance.
    #[schema(required = true, format = Date)]
    pub deadline: Option<String>,
    /// Le jour de la visite (`day`) est après sa date limite ; null sans date limite.
    #[schema(required = true)]
    pub overdue: Option<bool>,
}

/// Une obligation périodique du contrat sur une visite : à faire (avec sa
/// date limite ; en retard si la visite est après), ou faite.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct DutyOut {
    /// `cables`, `parachute` ou `nettoyage`.
    pub code: String,
    pub label: String,
    /// AAAA-MM-JJ ; null pour une obligation faite.
    #[schema(format = Date)]
    pub deadline: Option<String>,
    pub overdue: bool,
    pub done: bool,
}

impl From<&DutyMark> for DutyOut {
    fn from(mark: &DutyMark) -> Self {
        Self {
            code: mark.duty.as_str().to_owned(),
            label: mark.duty.label().to_owned(),
            deadline: mark.deadline.clone(),
            overdue: mark.overdue,
            done: mark.done,
        }
    }
}

impl From<&PlanningItem> for PlanningEntry {
    fn from(item: &PlanningItem) -> Self {
        Self {
            id: item.id.clone(),
            technician_id: item.technician_id.clone(),
            day: Some(item.day.clone()),
            status: Some(item.status.as_str().to_owned()),
            equipment_id: Some(item.equipment_id.clone()),
            number: item.number.clone(),
            building: item.building.clone(),
            address: item.address.clone(),
            deadline: item.deadline.clone(),
            overdue: item.overdue,
        }
    }
}

/// The acting agency's week of `query.day`; with `technician_id` (the MCP
/// tool's filter), that technician's entries only, the same entries
/// otherwise: an id that is no technician of the agency is 422.
pub async fn planning_entries(
    state: &AppState,
    caller: &Principal,
    query: PlanningQuery,
    technician_id: Option<String>,
) -> AppResult<Vec<PlanningEntry>> {
    let items = visits::planning_for(
        &state.store,
        caller,
        query.day.as_deref(),
        technician_id.map(TechnicianId::new),
    )
    .await?;
    Ok(items.iter().map(PlanningEntry::from).collect())
}
