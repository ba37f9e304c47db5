//! `POST /api/v2/discrepancies`: records a discrepancy found by a survey.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use rmcp::schemars;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa::openapi::schema::{Object, ObjectBuilder, SchemaType, Type};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::json::ApiJson;
use crate::api::wire::{Created, RecordKind};
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::services::discrepancies::{self as discrepancy_service, NewDiscrepancyInput};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create_discrepancy))
}

fn component_choice() -> Object {
    let mut allowed: Vec<Value> = discrepancy_service::CATALOG_COMPONENTS
        .iter()
        .map(|c| json!(c))
        .collect();
    allowed.push(json!(discrepancy_service::WHOLE_EQUIPMENT));
    allowed.push(Value::Null);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(allowed))
        .build()
}

fn finding_text() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(discrepancy_service::FINDING_MIN_CHARS))
        .max_length(Some(discrepancy_service::FINDING_MAX_CHARS))
        // At least three characters once the surrounding spaces are removed.
        .pattern(Some(r"\S[\s\S]+\S"))
        .build()
}

/// Un écart constaté sur un équipement lors d'un relevé.
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DiscrepancyBody {
    /// Identifiant de l'équipement (de l'agence où agit l'appel).
    pub equipment_id: String,
    /// Identifiant d'un relevé de cet équipement.
    pub survey_id: String,
    /// Composant concerné (`car_door`, `landing_door`, `machine`, `controller`, `shaft`) ; absent, `null` ou `equipment` : l'équipement entier.
    #[serde(default)]
    #[schema(schema_with = component_choice)]
    pub component: Option<String>,
    /// Ce qui a été constaté, en une ou deux phrases (3 à 2000 caractères, espaces autour retirés).
    #[schema(schema_with = finding_text)]
    pub finding: String,
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

/// Records the discrepancy in the acting agency: `POST /discrepancies` and
/// the MCP tool `signaler_ecart`.
pub async fn discrepancy_creation(
    state: &AppState,
    caller: &ApiCaller,
    body: DiscrepancyBody,
) -> AppResult<Created> {
    let agency_id = caller.require_agency()?.id.clone();
    let account_id = caller.account.id.clone();
    let actor = caller.actor.clone();
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
    Ok(Created::new(RecordKind::Discrepancy, &state.base_url, &id))
}
