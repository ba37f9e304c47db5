//! `POST /api/v2/discrepancies`: records a discrepancy found by a survey.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::json::ApiJson;
use crate::api::wire::Created;
use crate::api::wire::discrepancies::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create_discrepancy))
}

/// Enregistrer un écart.
///
/// L'équipement doit être dans l'agence, et le relevé parmi les relevés de
/// cet équipement : sinon 422, comme toute donnée de création refusée.
#[utoipa::path(
    post,
    path = "/discrepancies",
    tag = "Relevés",
    request_body(content = DiscrepancyBody, description = "L'écart constaté"),
    responses(
        (status = 201, description = "Écart enregistré", body = Created),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ manquant ou refusé, composant inconnu, équipement absent de l'agence, ou relevé qui n'est pas un relevé de cet équipement", body = ErrorBody),
    )
)]
async fn create_discrepancy(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<DiscrepancyBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    Ok((
        StatusCode::CREATED,
        Json(discrepancy_creation(&state, &caller, body).await?),
    ))
}
