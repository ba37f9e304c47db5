//! The JSON of `discrepancies` shared by the REST API v2 (`api::v2::discrepancies`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use rmcp::schemars;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa::openapi::schema::{Object, ObjectBuilder, SchemaType, Type};

use crate::api::wire::{Created, RecordKind};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::discrepancies::{self as discrepancy_service, NewDiscrepancyInput};
use crate::state::AppState;

pub(crate) fn component_choice() -> Object {
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

pub(crate) fn finding_text() -> Object {
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

/// Records the discrepancy in the acting agency: `POST /discrepancies` and
/// the MCP tool `signaler_ecart`.
pub async fn discrepancy_creation(
    state: &AppState,
    caller: &Principal,
    body: DiscrepancyBody,
) -> AppResult<Created> {
    let input = NewDiscrepancyInput {
        equipment_id: body.equipment_id,
        survey_id: body.survey_id,
        component: body.component,
        finding: body.finding,
    };
    let id = discrepancy_service::report(&state.store, caller, input).await?;
    Ok(Created::new(RecordKind::Discrepancy, &state.base_url, &id))
}
