//! `GET /api/v2/technicians`: the acting agency's technicians, with their
//! calls in progress, standby duty, absence and safety rest.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::wire::Rows;
use crate::auth::api_token::ApiCaller;
use crate::clock;
use crate::error::AppResult;
use crate::services::technicians::{self, TechnicianStatus};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_technicians))
}

// Exactly the spec's Technician table.
/// Un technicien de l'agence.
#[derive(Serialize, ToSchema)]
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
            absent_until: status
                .absent_until
                .map(|d| d.format("%Y-%m-%d").to_string()),
            off_until: status.off_until.map(clock::format_timestamp),
        }
    }
}

/// Les techniciens actifs de l'agence, triés par nom.
///
/// `openCalls` compte les appels affectés non résolus ; `onCall` dit si une période
/// d'astreinte couvre l'instant présent ; `absentUntil` est le dernier jour de l'absence
/// en cours (les absences qui se suivent jour après jour comptent pour une) ; `offUntil`
/// est la fin du repos de sécurité (11 heures par défaut) quand une astreinte s'est
/// terminée il y a moins longtemps que ce repos.
#[utoipa::path(
    get,
    path = "/technicians",
    tag = "Planning",
    responses((status = 200, description = "Les techniciens de l'agence", body = Vec<TechnicianView>))
)]
async fn list_technicians(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Rows<TechnicianView>> {
    technician_list(&state, &caller).await.map(Rows)
}

/// The acting agency's technicians (shared with the MCP tool `techniciens`).
pub async fn technician_list(
    state: &AppState,
    caller: &ApiCaller,
) -> AppResult<Vec<TechnicianView>> {
    let agency_id = caller.require_agency()?.id.clone();
    let now = state.now();
    let today = clock::paris_local(now).date();
    let roster = technicians::roster_cached(&state.store, &agency_id, now, today).await?;
    Ok(roster.into_iter().map(TechnicianView::from).collect())
}
