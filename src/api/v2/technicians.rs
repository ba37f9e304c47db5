//! `GET /api/v2/technicians`: the acting agency's technicians, with their
//! calls in progress, standby duty, absence and safety rest.

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::wire::Rows;
use crate::api::wire::technicians::*;
use crate::auth::api_token::ApiCaller;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_technicians))
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
