//! The outbox: an event is written in the same transaction as the change
//! that causes it, with the exact body every subscriber will receive, and
//! one delivery per subscription of the agency to that event. An event
//! exists if and only if its change was committed.

use crate::Tx;
use crate::sql::params;
use chrono::{DateTime, Utc};
use liftdesk_domain::id::{AgencyId, EquipmentId};
use serde::Serialize;

use super::StoreResult;
use super::{new_id, webhooks};
use crate::clock;

/// The spec's event body, in the spec's field order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EventBody<'a> {
    event: &'a str,
    /// The object concerned (call, survey, quote), not the event row.
    id: &'a str,
    agency: &'a str,
    /// Null only for `ping`, which concerns no equipment.
    equipment: Option<&'a str>,
    status: &'a str,
    occurred_at: &'a str,
}

/// Records `event` about `object_id`, occurring now, and returns the outbox
/// row's id (None for a step that writes history, see `record_event_at`). The body is serialised once, here, and stored as the exact bytes
/// to send: `{"event","id","agency","equipment","status","occurredAt"}`.
pub fn record_event(
    tx: &Tx,
    agency_id: &AgencyId,
    event: &str,
    object_id: &str,
    equipment_id: &EquipmentId,
    status: &str,
) -> StoreResult<Option<String>> {
    record_event_at(
        tx,
        agency_id,
        event,
        object_id,
        equipment_id,
        status,
        tx.now(),
    )
}

/// [`record_event`] at a given instant (the change's own timestamp). An
/// event of a step that writes history (`Tx::writes_history`: the demo's
/// past) is not queued: no subscription was there to receive it.
pub fn record_event_at(
    tx: &Tx,
    agency_id: &AgencyId,
    event: &str,
    object_id: &str,
    equipment_id: &EquipmentId,
    status: &str,
    at: DateTime<Utc>,
) -> StoreResult<Option<String>> {
    if tx.writes_history() {
        return Ok(None);
    }
    let equipment_id = equipment_id.as_str();
    let id = insert_event(
        tx,
        agency_id.as_str(),
        event,
        object_id,
        Some(equipment_id),
        status,
        at,
    )?;
    webhooks::fan_out(tx, agency_id, event, &id, &clock::format_timestamp(at))?;
    Ok(Some(id))
}

/// The event `ping` of `POST /webhooks/{id}/test`: the subscription as `id`,
/// `equipment` null, `status` `actif`; queued for that subscription only.
/// Returns the delivery's id.
pub fn record_ping(
    tx: &Tx,
    agency_id: &AgencyId,
    subscription_id: &str,
    at: DateTime<Utc>,
) -> StoreResult<String> {
    let agency_id = agency_id.as_str();
    let event_id = insert_event(
        tx,
        agency_id,
        PING_EVENT,
        subscription_id,
        None,
        PING_STATUS,
        at,
    )?;
    webhooks::insert_delivery(tx, &event_id, subscription_id, &clock::format_timestamp(at))
}

pub const PING_EVENT: &str = "ping";
/// The subscription's status carried by `ping`.
pub const PING_STATUS: &str = "actif";

fn insert_event(
    tx: &Tx,
    agency_id: &str,
    event: &str,
    object_id: &str,
    equipment_id: Option<&str>,
    status: &str,
    at: DateTime<Utc>,
) -> StoreResult<String> {
    let id = new_id();
    let occurred_at = clock::format_timestamp(at);
    let body = serde_json::to_string(&EventBody {
        event,
        id: object_id,
        agency: agency_id,
        equipment: equipment_id,
        status,
        occurred_at: &occurred_at,
    })?;
    tx.execute_cached(
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
