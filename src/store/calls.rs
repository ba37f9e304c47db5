//! Breakdown calls as the agency reads them.

use rusqlite::{Connection, OptionalExtension};

use crate::error::AppResult;

/// A call with its equipment, technician and call center.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallRow {
    pub id: String,
    pub reference: String,
    /// Wire code of `domain::call::CallStatus`.
    pub status: String,
    /// Wire code of `domain::call::CallType`.
    pub call_type: String,
    pub description: String,
    pub caller: Option<String>,
    /// UTC timestamps.
    pub received_at: String,
    pub arrived_at: Option<String>,
    pub resolved_at: Option<String>,
    pub equipment_id: String,
    pub equipment_number: Option<String>,
    pub technician_id: Option<String>,
    pub technician_name: Option<String>,
    /// None for a call taken at the agency.
    pub center_id: Option<String>,
    pub center_name: Option<String>,
}

/// The call `id` if it belongs to `agency_id`.
pub fn get_in_agency(conn: &Connection, agency_id: &str, id: &str) -> AppResult<Option<CallRow>> {
    Ok(conn
        .query_row(
            "SELECT c.id, c.reference, c.status, c.type, c.description, c.caller, c.received_at,
                    c.arrived_at, c.resolved_at, c.equipment_id, e.number, c.technician_id, t.name,
                    c.call_center_id, cc.name
             FROM calls c
             JOIN equipment e ON e.id = c.equipment_id
             LEFT JOIN technicians t ON t.id = c.technician_id
             LEFT JOIN call_centers cc ON cc.id = c.call_center_id
             WHERE c.id = ?1 AND c.agency_id = ?2",
            [id, agency_id],
            |r| {
                Ok(CallRow {
                    id: r.get(0)?,
                    reference: r.get(1)?,
                    status: r.get(2)?,
                    call_type: r.get(3)?,
                    description: r.get(4)?,
                    caller: r.get(5)?,
                    received_at: r.get(6)?,
                    arrived_at: r.get(7)?,
                    resolved_at: r.get(8)?,
                    equipment_id: r.get(9)?,
                    equipment_number: r.get(10)?,
                    technician_id: r.get(11)?,
                    technician_name: r.get(12)?,
                    center_id: r.get(13)?,
                    center_name: r.get(14)?,
                })
            },
        )
        .optional()?)
}
