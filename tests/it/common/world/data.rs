//! Fixtures: equipment data: technical values, as surveyed or corrected.

use liftdesk::domain::id::EquipmentId;
use liftdesk::services::technical_data::{self, FieldNames};
use serde_json::Value;

use super::World;

impl World {
    // -- Technical data -----------------------------------------------------

    /// Technical data of the equipment, corrected as the REST API and the
    /// Equipment screen correct them (`technical_data::update_for`), named
    /// as the partner API names them: `json!({"charge_utile": 630})`. Each
    /// value is stored as surveyed now (at the store's clock).
    pub async fn technical_data(&self, equipment_id: &str, values: Value) {
        self.technical_data_named(equipment_id, values, FieldNames::Api)
            .await;
    }

    /// Technical data of an equipment, by catalog code
    /// (`json!({"charge_utile": "630"})` as the Equipment screen names them):
    /// outside any survey, dated now.
    pub async fn technical_values(&self, equipment_id: &str, values: Value) {
        self.technical_data_named(equipment_id, values, FieldNames::Code)
            .await;
    }

    async fn technical_data_named(&self, equipment_id: &str, values: Value, names: FieldNames) {
        let Value::Object(body) = values else {
            panic!("données techniques : un objet JSON attendu, reçu {values}");
        };
        Box::pin(technical_data::update_for(
            &self.store,
            &self.principal,
            &EquipmentId::new(equipment_id),
            body,
            names,
        ))
        .await
        .expect("données techniques");
    }
}
