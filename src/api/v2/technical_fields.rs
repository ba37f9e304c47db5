//! `GET /api/v2/technical-fields?equipment=…&q=…`: the catalog's data that
//! apply to an equipment and match a term, with the value surveyed on it.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiQuery;
use crate::api::wire::technical_fields::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(technical_fields))
}

/// Chercher les données techniques d'un équipement.
///
/// Les données du catalogue qui s'appliquent au type de l'équipement et dont
/// le libellé, le code ou les synonymes contiennent un mot commençant par
/// chaque mot du terme (accents et casse ignorés) : les correspondances sur
/// le libellé d'abord, puis les autres, dans l'ordre du catalogue.
#[utoipa::path(
    get,
    path = "/technical-fields",
    tag = "Données techniques",
    params(TechnicalFieldsQuery),
    responses(
        (status = 200, description = "Les données trouvées (liste vide si aucune)", body = Vec<TechnicalFieldEntry>),
        (status = 404, description = "Équipement introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn technical_fields(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<TechnicalFieldsQuery>,
) -> AppResult<Json<Vec<TechnicalFieldEntry>>> {
    Ok(Json(technical_field_list(&state, &caller, query).await?))
}
