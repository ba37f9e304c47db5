//! The web application's internal API (`/app/api`), opened by the staff
//! session cookie only. Its handlers call the same services as the REST API.

pub mod account;
pub mod agencies;
pub mod agency;
pub mod buildings;
pub mod calls;
pub mod clients;
#[cfg(test)]
mod contract;
pub mod contracts;
pub mod dashboard;
pub mod desktop;
pub mod documents;
pub mod equipment;
pub mod exports;
pub mod imports;
pub mod invoices;
pub mod journal;
pub mod keys;
pub mod mail;
pub mod people;
pub mod planning;
pub mod quotes;
pub mod search;
pub mod session;
pub mod settings;
pub mod setup;
pub mod surveys;
pub mod technical_fields;
pub mod technicians;
pub mod webhooks;

use axum::Router;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(session::router())
        .merge(account::router())
        .merge(agency::router())
        .merge(agencies::router())
        .merge(people::router())
        .merge(surveys::router())
        .merge(keys::router())
        .merge(webhooks::router())
        .merge(technicians::router())
        .merge(technical_fields::router())
        .merge(calls::router())
        .merge(planning::router())
        .merge(equipment::router())
        .merge(buildings::router())
        .merge(documents::router())
        .merge(quotes::router())
        .merge(contracts::router())
        .merge(invoices::router())
        .merge(dashboard::router())
        .merge(journal::router())
        .merge(exports::router())
        .merge(mail::router())
        .merge(search::router())
        .merge(imports::router())
        .merge(clients::router())
        .merge(setup::router())
        .merge(settings::router())
        .merge(desktop::router())
}

/// A page of the web application for a record: `/clients/CLI-12`,
/// `/equipements/<id>`; the key percent-encoded as one path segment (a
/// client's `client_ref` is free text given by a partner).
pub(crate) fn page_path(base: &str, key: &str) -> String {
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
    const SEGMENT: &percent_encoding::AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~');
    format!("{base}/{}", utf8_percent_encode(key, SEGMENT))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_record_key_is_one_path_segment() {
        assert_eq!(super::page_path("/clients", "CLI-12"), "/clients/CLI-12");
        assert_eq!(
            super::page_path("/clients", "Syndic 8/é?x"),
            "/clients/Syndic%208%2F%C3%A9%3Fx"
        );
    }
}
