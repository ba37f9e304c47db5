//! `POST /api/v2/discrepancies`: records a discrepancy found by a survey.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::json::ApiJson;
use crate::api::v2::wire::{Created, RecordKind};
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::services::discrepancies::{self as discrepancy_service, NewDiscrepancyInput};
use crate::state::AppState;
use crate::store::audit::Actor;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create_discrepancy))
}

/// Un écart constaté sur un équipement lors d'un relevé.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DiscrepancyBody {
    /// Identifiant de l'équipement (de l'agence où agit l'appel).
    pub equipment_id: String,
    /// Identifiant d'un relevé de cet équipement (non annulé).
    pub survey_id: String,
    /// Composant concerné (`car_door`, `landing_door`, `machine`, `controller`, `shaft`) ; absent, `null` ou `equipment` : l'équipement entier.
    #[schema(nullable)]
    pub component: Option<String>,
    /// Ce qui a été constaté, en une ou deux phrases (3 à 2000 caractères).
    #[schema(min_length = 3, max_length = 2000)]
    pub finding: String,
}

/// Enregistrer un écart.
///
/// L'équipement et le relevé sont des données de création : inconnus dans
/// l'agence, ou un relevé d'un autre équipement (ou annulé), sont refusés
/// avec 422.
#[utoipa::path(
    post,
    path = "/discrepancies",
    tag = "Relevés",
    request_body(content = DiscrepancyBody, description = "L'écart constaté"),
    responses(
        (status = 201, description = "Écart enregistré", body = Created),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ manquant ou refusé, équipement ou relevé inconnu, relevé d'un autre équipement", body = ErrorBody),
    )
)]
async fn create_discrepancy(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<DiscrepancyBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let agency_id = caller.require_agency()?.id.clone();
    let account_id = caller.account.id.clone();
    let actor = Actor::ApiToken(caller.credential_id.clone());
    let input = NewDiscrepancyInput {
        equipment_id: body.equipment_id,
        survey_id: body.survey_id,
        component: body.component,
        finding: body.finding,
    };
    let id = state
        .store
        .write(move |tx| {
            discrepancy_service::create(tx, &agency_id, Some(&account_id), &input, &actor)
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(Created::new(RecordKind::Discrepancy, &state.base_url, &id)),
    ))
}
