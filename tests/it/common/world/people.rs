//! Fixtures: technicians, their standby periods and absences.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use liftdesk::domain::id::TechnicianId;
use liftdesk::domain::technician::TechnicianInput;
use liftdesk::services::technicians::{self, TechnicianEdit};

use super::{World, split};

impl World {
    // -- Technicians --------------------------------------------------------

    /// A technician with his sectors as the list shows them
    /// (comma-separated); returns his id.
    pub async fn technician(&self, name: &str, sectors: Option<&str>) -> String {
        self.technician_with(TechnicianInput {
            name: Some(name.to_owned()),
            sectors: split(sectors),
            ..TechnicianInput::default()
        })
        .await
    }

    /// A technician as given; returns his id.
    pub async fn technician_with(&self, input: TechnicianInput) -> String {
        Box::pin(technicians::create(&self.store, &self.principal, input))
            .await
            .expect("technicien")
            .into_string()
    }

    /// The technician on standby over `[starts, ends)`, in place of whoever
    /// was; a stretch in the past is written at its start.
    pub async fn on_call(&self, technician: &str, starts: DateTime<Utc>, ends: DateTime<Utc>) {
        let now = self.store.now();
        let write = || async {
            Box::pin(technicians::replace_between(
                &self.store,
                &self.principal,
                &TechnicianId::new(technician),
                starts,
                ends,
            ))
            .await
            .expect("astreinte")
        };
        if starts < now {
            self.at(starts - Duration::seconds(1), write).await;
        } else {
            write().await;
        }
    }

    /// An absence of the technician, days inclusive (past ones too);
    /// returns its id.
    pub async fn absence(
        &self,
        technician: &str,
        starts: NaiveDate,
        ends: NaiveDate,
        reason: &str,
    ) -> String {
        Box::pin(technicians::record_absence(
            &self.store,
            &self.principal,
            &TechnicianId::new(technician),
            &starts.format("%Y-%m-%d").to_string(),
            &ends.format("%Y-%m-%d").to_string(),
            reason,
        ))
        .await
        .expect("absence")
        .id
    }

    /// Changes a technician's record (`technicians::edit`).
    pub async fn edit_technician(&self, technician: &str, edit: TechnicianEdit) {
        Box::pin(technicians::edit(
            &self.store,
            &self.principal,
            &TechnicianId::new(technician),
            edit,
        ))
        .await
        .expect("modification du technicien");
    }

    /// Takes a technician off the roster (`technicians::set_active`).
    pub async fn deactivate_technician(&self, technician: &str) {
        Box::pin(technicians::set_active(
            &self.store,
            &self.principal,
            &TechnicianId::new(technician),
            false,
        ))
        .await
        .expect("désactivation du technicien");
    }
}
