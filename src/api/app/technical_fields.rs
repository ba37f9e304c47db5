//! `/app/api/technical-fields`: the technical-data catalogue as the screens
//! read it (code, French label, unit, kind of value, choices, component),
//! so that a datum stored by its code (`charge_utile`) is shown by its label
//! (« Charge utile ») wherever it appears, the journal first.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use ts_rs::TS;

use crate::auth::staff_session::StaffSession;
use crate::error::AppResult;
use crate::services::technical_data;
use crate::state::AppState;
use crate::store::technical_fields::CatalogField;

pub fn router() -> Router<AppState> {
    Router::new().route("/technical-fields", get(catalog))
}

/// Une donnée technique du catalogue.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TechnicalField {
    /// Code de la donnée (`charge_utile`).
    code: String,
    /// Son nom (« Charge utile »).
    label: String,
    unit: Option<String>,
    /// `text`, `number`, `integer`, `boolean`, `choice` ou `multi`.
    value_type: String,
    /// Les valeurs possibles d'un choix.
    choices: Vec<String>,
    /// Le composant décrit (`car_door`, `machine`…), absent pour l'appareil.
    component: Option<String>,
}

impl From<CatalogField> for TechnicalField {
    fn from(field: CatalogField) -> Self {
        Self {
            value_type: field.value_type.as_str().to_owned(),
            code: field.code,
            label: field.label,
            unit: field.unit,
            choices: field.choices,
            component: field.component,
        }
    }
}

#[derive(Serialize, TS, Debug)]
pub(crate) struct TechnicalFieldsAnswer {
    results: Vec<TechnicalField>,
}

async fn catalog(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<TechnicalFieldsAnswer>> {
    let fields = technical_data::catalog_for(&state.store, &session.principal()).await?;
    Ok(Json(TechnicalFieldsAnswer {
        results: fields.into_iter().map(TechnicalField::from).collect(),
    }))
}
