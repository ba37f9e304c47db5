//! The JSON of `technicians` shared by the REST API v2 (`api::v2::technicians`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::clock;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::technicians::{self, TechnicianStatus};
use crate::state::AppState;

// Exactly the spec's Technician table.
/// Un technicien de l'agence.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct TechnicianView {
    /// Identifiant du technicien.
    pub id: String,
    /// Nom.
    #[schema(required = true)]
    pub name: Option<String>,
    /// Secteurs, séparés par des virgules.
    #[schema(required = true)]
    pub sectors: Option<String>,
    /// Appels en cours affectés au technicien (statuts `ouverte`, `en_route`, `sur_place`, `a_l_arret`).
    #[schema(minimum = 0)]
    pub open_calls: i64,
    /// D'astreinte en ce moment.
    pub on_call: bool,
    /// Dernier jour (AAAA-MM-JJ) de l'absence en cours ; null s'il n'est pas absent aujourd'hui.
    #[schema(required = true, format = Date)]
    pub absent_until: Option<String>,
    /// Fin du repos de sécurité après une astreinte (horodatage UTC ISO 8601, par exemple `2026-03-09T19:00:00.000Z`) ; null hors repos.
    #[schema(required = true, format = DateTime)]
    pub off_until: Option<String>,
}

impl From<TechnicianStatus> for TechnicianView {
    fn from(status: TechnicianStatus) -> Self {
        Self {
            id: status.id,
            name: Some(status.name),
            sectors: status.sectors,
            open_calls: status.open_calls,
            on_call: status.on_call,
            absent_until: status.absent_until.map(crate::domain::day::iso),
            off_until: status.off_until.map(clock::format_timestamp),
        }
    }
}

/// The acting agency's technicians (shared with the MCP tool `techniciens`).
pub async fn technician_list(
    state: &AppState,
    caller: &Principal,
) -> AppResult<Vec<TechnicianView>> {
    let agency_id = caller.agency()?.id.clone();
    let now = state.now();
    let today = clock::paris_local(now).date();
    let roster = technicians::roster_cached(&state.store, &agency_id, now, today).await?;
    Ok(roster.into_iter().map(TechnicianView::from).collect())
}
