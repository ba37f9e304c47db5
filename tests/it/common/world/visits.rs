//! Fixtures: visits, planned, started and done; the maintenance plan of an
//! equipment (its start, its interval); many writes side by side.

use std::future::Future;

use chrono::{DateTime, NaiveDate, Utc};
use liftdesk::clock;
use liftdesk::domain::id::{EquipmentId, VisitId};
use liftdesk::services::equipment::NewEquipment;
use liftdesk::services::planning::{self, SaveLine};
use liftdesk::services::visits;
use liftdesk::store::equipment::IdentityRow;

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
        if day < clock::paris_local(self.store.now()).date() {
            self.at(morning(day), || {
                self.visit_now(equipment_id, technician_id, day)
            })
            .await
        } else {
            self.visit_now(equipment_id, technician_id, day).await
        }
    }

    /// A visit planned for `day`, written at the store's clock as it reads
    /// (`day` not before its day); returns its id.
    pub async fn visit_now(
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
        Box::pin(visits::create(&self.store, &self.principal, input))
            .await
            .expect("visite")
            .into_string()
    }

    /// A visit planned for `day` (see [`World::visit`]) and done: the
    /// technician arrived at `times.0` and left at `times.1` (the clock then),
    /// the report signed by `signed_by`; returns its id.
    pub async fn done_visit(
        &self,
        equipment_id: &str,
        technician_id: Option<&str>,
        day: NaiveDate,
        times: (DateTime<Utc>, DateTime<Utc>),
        signed_by: &str,
        observations: Option<&str>,
    ) -> String {
        let id = self.visit(equipment_id, technician_id, day).await;
        let input = visits::CompleteInput {
            arrived_at: Some(clock::format_timestamp(times.0)),
            left_at: None,
            signed_by: signed_by.to_owned(),
            observations: observations.map(str::to_owned),
            duties: Vec::new(),
        };
        self.at(times.1, || async {
            Box::pin(visits::complete(
                &self.store,
                &self.principal,
                &VisitId::new(id.as_str()),
                input,
            ))
            .await
            .expect("visite faite")
        })
        .await;
        id
    }

    /// The visit `id` done, entered afterwards at the store's clock as it
    /// reads: arrived at `times.0`, left at `times.1` (neither in the
    /// future), the report signed by `signed_by`.
    pub async fn complete_visit(
        &self,
        id: &str,
        times: (DateTime<Utc>, DateTime<Utc>),
        signed_by: &str,
    ) {
        let input = visits::CompleteInput {
            arrived_at: Some(clock::format_timestamp(times.0)),
            left_at: Some(clock::format_timestamp(times.1)),
            signed_by: signed_by.to_owned(),
            observations: None,
            duties: Vec::new(),
        };
        Box::pin(visits::complete(
            &self.store,
            &self.principal,
            &VisitId::new(id),
            input,
        ))
        .await
        .expect("visite faite");
    }

    /// A visit planned for `day` (see [`World::visit`]) and begun: the
    /// technician arrived at `arrived` (not in the future); returns its id.
    pub async fn started_visit(
        &self,
        equipment_id: &str,
        technician_id: Option<&str>,
        day: NaiveDate,
        arrived: DateTime<Utc>,
    ) -> String {
        let id = self.visit(equipment_id, technician_id, day).await;
        let input = visits::StartInput {
            arrived_at: Some(clock::format_timestamp(arrived)),
        };
        Box::pin(visits::start(
            &self.store,
            &self.principal,
            &VisitId::new(id.as_str()),
            input,
        ))
        .await
        .expect("visite commencée");
        id
    }

    /// Planned visits `(equipment, technician, day)` saved at once, as a
    /// reviewed proposal is (one transaction, every line checked); returns
    /// their ids.
    pub async fn saved_visits(&self, lines: &[(String, String, NaiveDate)]) -> Vec<String> {
        let lines = lines
            .iter()
            .map(|(equipment_id, technician_id, day)| SaveLine {
                equipment_id: equipment_id.clone(),
                technician_id: technician_id.clone(),
                day: day.format("%Y-%m-%d").to_string(),
                visit_id: None,
            })
            .collect();
        Box::pin(planning::save(&self.store, &self.principal, lines))
            .await
            .expect("visites enregistrées")
            .into_iter()
            .map(VisitId::into_string)
            .collect()
    }

    // -- The maintenance plan -----------------------------------------------

    /// An equipment of type `kind` under the contract `contract` (`parc`,
    /// `hors_parc`), in the building if given, whose plan starts on
    /// `plan_start` (it is added that morning); returns its id.
    pub async fn equipment_since(
        &self,
        number: &str,
        (kind, contract): (&str, &str),
        building_id: Option<&str>,
        plan_start: NaiveDate,
    ) -> String {
        let input = NewEquipment {
            identity: IdentityRow {
                number: Some(number.to_owned()),
                equipment_type: Some(kind.to_owned()),
                maintenance_contract: Some(contract.to_owned()),
                ..IdentityRow::default()
            },
            building_id: building_id.map(str::to_owned),
            client_ref: None,
        };
        self.at(morning(plan_start), || self.equipment_with(input))
            .await
    }

    /// The days between two visits of the equipment: its next visits'
    /// deadline is its last done visit (else the start of its plan) plus
    /// these days.
    pub async fn visit_interval(&self, equipment_id: &str, days: i64) {
        Box::pin(planning::set_interval(
            &self.store,
            &self.principal,
            &EquipmentId::new(equipment_id),
            days,
        ))
        .await
        .expect("intervalle entre deux visites");
    }

    // -- Many writes ----------------------------------------------------------

    /// The same agency's fixtures, to move into a write run side by side.
    pub fn same(&self) -> World {
        World {
            store: self.store.clone(),
            principal: self.principal.clone(),
        }
    }

    /// Runs the writes side by side, `width` at a time (the store commits
    /// those that wait together in one flush): a large agency in seconds.
    /// Their answers, in order. The clock is the store's: set it around the
    /// whole run ([`World::at`]), never inside a job.
    pub async fn side_by_side<T, F>(&self, width: usize, jobs: Vec<F>) -> Vec<T>
    where
        T: Send + 'static,
        F: Future<Output = T> + Send + 'static,
    {
        let mut out = Vec::with_capacity(jobs.len());
        let mut jobs = jobs.into_iter().peekable();
        while jobs.peek().is_some() {
            let running: Vec<_> = jobs
                .by_ref()
                .take(width.max(1))
                .map(|job| tokio::spawn(Box::pin(job)))
                .collect();
            for job in running {
                out.push(job.await.expect("écriture"));
            }
        }
        out
    }
}
