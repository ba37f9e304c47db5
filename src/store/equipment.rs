//! Equipment and its surveyed technical data.

use rusqlite::{Connection, OptionalExtension};

use crate::domain::knowledge;
use crate::error::AppResult;

/// Catalog fields that apply to an equipment of type `?1` (NULL `applies_to`: every type).
const APPLIES_TO_TYPE: &str =
    "(f.applies_to IS NULL OR (',' || f.applies_to || ',') LIKE ('%,' || ?1 || ',%'))";

/// The knowledge rate (`taux_connaissance`) of an equipment of the agency:
/// surveyed catalog fields over the catalog fields that apply to its type, in
/// percent. None when the equipment is not in that agency.
pub fn knowledge_rate(
    conn: &Connection,
    agency_id: &str,
    equipment_id: &str,
) -> AppResult<Option<f64>> {
    let equipment_type: Option<Option<String>> = conn
        .query_row(
            "SELECT type FROM equipment WHERE id = ?1 AND agency_id = ?2",
            [equipment_id, agency_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(equipment_type) = equipment_type else {
        return Ok(None);
    };
    let equipment_type = equipment_type.unwrap_or_default();
    let catalog: i64 = conn.query_row(
        &format!("SELECT COUNT(*) FROM technical_fields f WHERE {APPLIES_TO_TYPE}"),
        [&equipment_type],
        |r| r.get(0),
    )?;
    let surveyed: i64 = conn.query_row(
        &format!(
            "SELECT COUNT(*) FROM equipment_values v JOIN technical_fields f ON f.code = v.field_code
             WHERE v.equipment_id = ?2 AND {APPLIES_TO_TYPE}"
        ),
        [&equipment_type, equipment_id],
        |r| r.get(0),
    )?;
    // COUNT(*) is never negative.
    let as_count = |n: i64| usize::try_from(n).unwrap_or(0);
    Ok(Some(knowledge::knowledge_rate(
        as_count(surveyed),
        as_count(catalog),
    )))
}
