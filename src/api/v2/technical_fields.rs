//! `GET /api/v2/technical-fields?equipment=…&q=…`: the catalog's data that
//! apply to an equipment and match a term, with the value surveyed on it.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiQuery;
use crate::auth::api_token::ApiCaller;
use crate::error::{ApiError, AppResult, ErrorBody};
use crate::services::technical_data::{self, FieldMatch};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(technical_fields))
}

/// Longest term searched.
const MAX_QUERY_CHARS: usize = 200;

/// L'équipement et le terme cherché, tous deux obligatoires.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TechnicalFieldsQuery {
    /// Identifiant de l'équipement.
    #[param(required = true, value_type = String, pattern = r"\S")]
    pub equipment: Option<String>,
    /// Terme cherché dans le libellé, le code et les synonymes de la donnée (accents et casse ignorés), par exemple « charge », « vitesse » ou « course ».
    #[param(required = true, value_type = String, min_length = 1, max_length = 200, pattern = r"\S")]
    pub q: Option<String>,
}

/// Une donnée technique du catalogue et sa valeur relevée sur l'équipement.
#[derive(Debug, Serialize, ToSchema)]
pub struct TechnicalFieldEntry {
    /// Code de la donnée dans le catalogue.
    pub code: String,
    /// Nom de la donnée tel qu'il se lit dans le service.
    pub field: String,
    /// Composant décrit (`car_door`, `machine`, `shaft`…), `null` pour l'équipement lui-même.
    #[schema(required = true)]
    pub component: Option<String>,
    /// Valeur relevée sur l'équipement (texte, nombre, booléen ou liste), `null` si jamais relevée.
    #[schema(required = true, value_type = Value)]
    pub value: Option<Value>,
    /// Unité, s'il y en a une.
    #[schema(required = true)]
    pub unit: Option<String>,
}

impl From<FieldMatch> for TechnicalFieldEntry {
    fn from(found: FieldMatch) -> Self {
        Self {
            code: found.field.code,
            field: found.field.label,
            component: found.field.component,
            value: found.value,
            unit: found.field.unit,
        }
    }
}

fn required_param(value: Option<String>, name: &str) -> AppResult<String> {
    value
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| ApiError::bad_request(format!("Le paramètre « {name} » est obligatoire.")))
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

/// The catalog's data of an equipment of the acting agency that match the
/// term: `GET /technical-fields` and the MCP tool `champs_techniques`.
pub async fn technical_field_list(
    state: &AppState,
    caller: &ApiCaller,
    query: TechnicalFieldsQuery,
) -> AppResult<Vec<TechnicalFieldEntry>> {
    let equipment_id = required_param(query.equipment, "equipment")?;
    let term = required_param(query.q, "q")?;
    if term.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::bad_request(format!(
            "Le paramètre « q » ne doit pas dépasser {MAX_QUERY_CHARS} caractères."
        )));
    }
    let agency_id = caller.require_agency()?.id.clone();
    let found = state
        .store
        .read(move |conn| technical_data::search_fields(conn, &agency_id, &equipment_id, &term))
        .await?
        .ok_or_else(|| ApiError::not_found("Équipement introuvable."))?;
    Ok(found.into_iter().map(TechnicalFieldEntry::from).collect())
}
