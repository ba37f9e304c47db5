//! Fixtures: calls: opened, assigned, on their way, resolved.
//!
//! A call is opened as a call center opens it (`calls::open_from_call_center`,
//! acting as the center's key), then assigned and moved by the command line
//! in the agency (`calls::assign`, `calls::change_status`): what a call
//! holds (its reference, its center, its times, its technician, its audit
//! entries and `appel.clos`) is what those operations write. A call of the
//! past is written with the store's clock set back to each of its steps.

use chrono::{DateTime, Utc};
use liftdesk::auth::secret;
use liftdesk::domain::id::CallId;
use liftdesk::notices::Notices;
use liftdesk::principal::Principal;
use liftdesk::services::call_feed::CallFeed;
use liftdesk::services::calls::{self, AgencyCallInput, AssignInput, CenterCallInput};
use liftdesk::services::credentials;

use super::World;

impl World {
    // -- Call centers -------------------------------------------------------

    /// A new key of the call center `name` of the agency (the center is
    /// created if new); returns its secret, what the center sends with.
    pub async fn call_center_key(&self, name: &str) -> String {
        Box::pin(credentials::issue_call_center_key(
            &self.store,
            &self.principal,
            name,
        ))
        .await
        .expect("clé de centre d'appels")
        .secret
    }

    /// The key `key` acting in its agency, and its center's id.
    fn call_center_of(&self, key: &str) -> (Principal, String) {
        let matched = credentials::call_center_key_holder(&self.store, &secret::fingerprint(key))
            .expect("lecture de la clé")
            .expect("clé de centre d'appels en service");
        (
            Principal::call_center_key(matched.credential_id, matched.agency),
            matched.call_center_id,
        )
    }

    // -- Calls --------------------------------------------------------------

    /// A call the center whose key is `key` sends now (`POST
    /// /api/partners/calls`); returns its id.
    pub async fn call_from(&self, key: &str, input: CenterCallInput) -> String {
        let (center, center_id) = self.call_center_of(key);
        Box::pin(calls::open_from_call_center(
            &self.store,
            &CallFeed::default(),
            &Notices::default(),
            &center,
            &center_id,
            input,
            calls::KeyCheck::Read,
        ))
        .await
        .expect("appel")
        .call
        .id
        .into_string()
    }

    /// A call the center whose key is `key` sent at `received` (the
    /// store's clock set then); returns its id.
    pub async fn call_at(
        &self,
        key: &str,
        input: CenterCallInput,
        received: DateTime<Utc>,
    ) -> String {
        self.at(received, || self.call_from(key, input)).await
    }

    /// The technician assigned to the call at `at`.
    pub async fn assign_call_at(&self, call_id: &str, technician_id: &str, at: DateTime<Utc>) {
        self.at(at, || self.assign_call(call_id, technician_id))
            .await;
    }

    /// The call moved to `status` at `at`.
    pub async fn move_call_at(&self, call_id: &str, status: &str, at: DateTime<Utc>) {
        self.at(at, || self.move_call(call_id, status)).await;
    }

    /// Assigns the technician to the call.
    pub async fn assign_call(&self, call_id: &str, technician_id: &str) {
        Box::pin(calls::assign(
            &self.store,
            &CallFeed::default(),
            &self.principal,
            &CallId::new(call_id),
            AssignInput {
                technician_id: technician_id.to_owned(),
                technician_name: None,
            },
        ))
        .await
        .expect("affectation de l'appel");
    }

    /// Moves the call to `status`.
    pub async fn move_call(&self, call_id: &str, status: &str) {
        Box::pin(calls::change_status(
            &self.store,
            &CallFeed::default(),
            &self.principal,
            &CallId::new(call_id),
            status,
            calls::Closing::External,
        ))
        .await
        .unwrap_or_else(|err| panic!("appel passé à « {status} » : {err:?}"));
    }

    /// A call taken by phone at the agency by the staff member this world
    /// acts as ([`World::staff`]), received now (`AG-<year>-<n>`); returns
    /// its id.
    pub async fn call_taken_at_agency(&self, input: AgencyCallInput) -> String {
        Box::pin(calls::open_at_agency(
            &self.store,
            &CallFeed::default(),
            &self.principal,
            input,
        ))
        .await
        .expect("appel pris à l'agence")
        .id
    }
}
