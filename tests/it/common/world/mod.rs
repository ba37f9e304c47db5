//! Fixtures built through the application layer: what a test needs in an
//! agency (technicians, buildings, equipment, clients, standby periods,
//! absences, visits, calls) written by the operations the product itself
//! runs, so a schema change touches the store and not the tests. The
//! command line acts in the agency (`Principal::command_line_in`, which the
//! audit names); what happened in the past is written with the store's
//! clock set back to when it happened ([`World::at`]). One file per area
//! (`people`, `park`, `visits`…), each adding its `impl World`.

use std::future::Future;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use liftdesk::clock;
use liftdesk::domain::id::AgencyId;
use liftdesk::principal::Principal;
use liftdesk::services::installation;
use liftdesk::store::Store;

use super::TestServer;

mod accounts;
mod billing;
mod calls;
mod data;
mod history;
mod park;
mod people;
mod surveys;
mod visits;

pub use history::{PastInvoice, PastSurvey, PastVisit};

/// One agency's fixtures, written through the operations.
pub struct World {
    pub store: Store,
    pub principal: Principal,
}

impl World {
    /// The fixtures of the agency `agency_id` of the server's store.
    pub fn in_agency(server: &TestServer, agency_id: &str) -> World {
        World::of_store(&server.store, agency_id)
    }

    /// The fixtures of the agency `agency_id` of `store`.
    pub fn of_store(store: &Store, agency_id: &str) -> World {
        let principal = installation::command_line_in_agency(store, &AgencyId::new(agency_id))
            .expect("agence des données de test");
        World {
            store: store.clone(),
            principal,
        }
    }

    /// Runs `work` with the store's clock reading `at` (frozen), then gives
    /// the store its clock back: what the operations write then is dated
    /// `at`, as if it had been done at that moment.
    pub async fn at<T, Fut: Future<Output = T>>(
        &self,
        at: DateTime<Utc>,
        work: impl FnOnce() -> Fut,
    ) -> T {
        let kept = self.store.replace_clock(Arc::new(move || at));
        let out = work().await;
        self.store.set_clock(kept);
        out
    }
}

/// 07:00 in Paris on `day`.
pub fn morning(day: NaiveDate) -> DateTime<Utc> {
    clock::paris_to_utc(day.and_hms_opt(7, 0, 0).expect("07:00"))
}

pub(super) fn split(sectors: Option<&str>) -> Vec<String> {
    sectors
        .map(|s| s.split(',').map(str::to_owned).collect())
        .unwrap_or_default()
}
