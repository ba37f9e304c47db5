//! `GET /api/v2/planning?day=YYYY-MM-DD`: the visits of the acting agency
//! for the ISO week (Monday to Sunday) of that day; `planning_entries` is
//! shared with the MCP tool `planning` (which may keep one technician's).

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiQuery;
use crate::api::wire::Rows;
use crate::api::wire::planning::*;
use crate::auth::api_token::ApiCaller;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(planning))
}

/// Le planning d'une semaine de l'agence.
///
/// La semaine ISO (du lundi au dimanche) du jour `day`. Une visite non faite est placée
/// à son jour prévu ; une visite faite, au jour où elle a été faite. Tri par jour, par
/// technicien (nom ; visites non affectées en dernier), par heure d'arrivée, puis par
/// numéro d'équipement.
#[utoipa::path(
    get,
    path = "/planning",
    tag = "Planning",
    params(PlanningQuery),
    responses(
        (status = 200, description = "Les visites de la semaine", body = Vec<PlanningEntry>,
            links(
                ("lireVisite" = (operation_id = "read_visit", parameters(("id" = "$response.body#/0/id")), description = "La première visite de la semaine")),
                ("commencerVisite" = (operation_id = "start_visit", parameters(("id" = "$response.body#/0/id")))),
                ("terminerVisite" = (operation_id = "complete_visit", parameters(("id" = "$response.body#/0/id")))),
                ("replanifierVisite" = (operation_id = "reschedule_visit", parameters(("id" = "$response.body#/0/id")))),
                ("annulerDebutVisite" = (operation_id = "cancel_visit_start", parameters(("id" = "$response.body#/0/id")))),
            )
        ),
        (status = 422, description = "Le jour demandé n'existe pas (par exemple 2026-02-30)", body = crate::error::ErrorBody),
    )
)]
async fn planning(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<PlanningQuery>,
) -> AppResult<Rows<PlanningEntry>> {
    planning_entries(&state, &caller, query, None)
        .await
        .map(Rows)
}
