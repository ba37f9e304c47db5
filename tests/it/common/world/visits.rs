//! Fixtures: visits, planned, started and done.

use chrono::NaiveDate;
use liftdesk::clock;
use liftdesk::services::visits;

use super::{World, morning};

impl World {
    // -- Visits -------------------------------------------------------------

    /// A visit planned for `day` (written that morning when the day is
    /// past); returns its id.
    pub async fn visit(
        &self,
        equipment_id: &str,
        technician_id: Option<&str>,
        day: NaiveDate,
    ) -> String {
        let input = visits::CreateInput {
            equipment_id: equipment_id.to_owned(),
            technician_id: technician_id.map(str::to_owned),
            planned_for: day.format("%Y-%m-%d").to_string(),
        };
        let write = || async {
            Box::pin(visits::create(&self.store, &self.principal, input))
                .await
                .expect("visite")
        };
        if day < clock::paris_local(self.store.now()).date() {
            self.at(morning(day), write).await
        } else {
            write().await
        }
    }
}
