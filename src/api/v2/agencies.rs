//! `GET /api/v2/agencies`: the agencies the token can read, with their
//! organization and, for an agency carried over from V1, its V1 identifier.

use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::wire::agencies::*;
use crate::auth::api_token::ApiCaller;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_agencies))
}

/// Les agences que le jeton peut lire, avec leur organisation et leur identifiant V1.
///
/// Pour le compte de service de l'opérateur sans agence demandée : les agences de toutes
/// les organisations clientes ; avec `X-Service-Agency` : celles de l'organisation de
/// cette agence. Pour tout autre compte : les agences où il travaille (toutes celles de
/// son organisation pour un administrateur de l'organisation).
#[utoipa::path(
    get,
    path = "/agencies",
    tag = "Organisation",
    responses((status = 200, description = "Les agences lisibles", body = AgencyList))
)]
async fn list_agencies(caller: ApiCaller) -> AppResult<Json<AgencyList>> {
    agency_list(&caller).map(Json)
}
