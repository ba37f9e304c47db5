//! The outbox: an event is written in the same transaction as the change
//! that causes it, with the exact body every subscriber will receive. The
//! webhooks' sender fans each event out to its deliveries.

use chrono::{DateTime, Utc};
use rusqlite::{Transaction, params};
use serde::Serialize;

use super::new_id;
use crate::clock;
use crate::error::AppResult;

/// The spec's event body, in the spec's field order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EventBody<'a> {
    event: &'a str,
    /// The object concerned (call, survey, quote), not the event row.
    id: &'a str,
    agency: &'a str,
    equipment: &'a str,
    status: &'a str,
    occurred_at: &'a str,
}

/// Records `event` about `object_id`, occurring now, and returns the outbox
/// row's id. The body is serialised once, here, and stored as the exact bytes
/// to send: `{"event","id","agency","equipment","status","occurredAt"}`.
pub fn record_event(
    tx: &Transaction,
    agency_id: &str,
    event: &str,
    object_id: &str,
    equipment_id: &str,
    status: &str,
) -> AppResult<String> {
    record_event_at(
        tx,
        agency_id,
        event,
        object_id,
        equipment_id,
        status,
        clock::now(),
    )
}

/// [`record_event`] at a given instant (the change's own timestamp).
pub fn record_event_at(
    tx: &Transaction,
    agency_id: &str,
    event: &str,
    object_id: &str,
    equipment_id: &str,
    status: &str,
    at: DateTime<Utc>,
) -> AppResult<String> {
    let id = new_id();
    let occurred_at = clock::format_timestamp(at);
    let body = serde_json::to_string(&EventBody {
        event,
        id: object_id,
        agency: agency_id,
        equipment: equipment_id,
        status,
        occurred_at: &occurred_at,
    })
    .map_err(anyhow::Error::from)?;
    tx.execute(
        "INSERT INTO outbox_events (id, agency_id, event, object_id, equipment_id, status, occurred_at, body)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            id,
            agency_id,
            event,
            object_id,
            equipment_id,
            status,
            occurred_at,
            body
        ],
    )?;
    Ok(id)
}
