//! The JSON of `technical_fields` shared by the REST API v2 (`api::v2::technical_fields`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use crate::domain::id::EquipmentId;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, AppResult};
use crate::principal::Principal;
use crate::services::technical_data::{self, FieldMatch};
use crate::state::AppState;

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

pub(crate) fn required_param(value: Option<String>, name: &str) -> AppResult<String> {
    value
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| ApiError::bad_request(format!("Le paramètre « {name} » est obligatoire.")))
}

/// The catalog's data of an equipment of the acting agency that match the
/// term: `GET /technical-fields` and the MCP tool `champs_techniques`.
pub async fn technical_field_list(
    state: &AppState,
    caller: &Principal,
    query: TechnicalFieldsQuery,
) -> AppResult<Vec<TechnicalFieldEntry>> {
    let equipment_id = required_param(query.equipment, "equipment")?;
    let term = required_param(query.q, "q")?;
    let found = technical_data::search_for(
        &state.store,
        caller,
        &EquipmentId::new(equipment_id.as_str()),
        &term,
    )
    .await?;
    Ok(found.into_iter().map(TechnicalFieldEntry::from).collect())
}
