//! Single-use equipment sheet tokens (`sheet_tokens`) and what a sheet shows.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AgencyId, CredentialId, EquipmentId};

use super::StoreResult;

pub struct SheetTokenRow {
    pub id: String,
    pub agency_id: AgencyId,
    pub equipment_id: EquipmentId,
    pub expires_at: String,
    pub used_at: Option<String>,
}

pub fn insert(
    tx: &Tx,
    id: &str,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    credential_id: &CredentialId,
    created_at: &str,
    expires_at: &str,
) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    tx.execute_cached(
        "INSERT INTO sheet_tokens (id, agency_id, equipment_id, credential_id, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, agency_id, equipment_id, credential_id, created_at, expires_at],
    )?;
    Ok(())
}

pub fn get(conn: &Conn, id: &str) -> StoreResult<Option<SheetTokenRow>> {
    conn.query_row_cached(
        "SELECT id, agency_id, equipment_id, expires_at, used_at FROM sheet_tokens WHERE id = ?1",
        [id],
        |r| {
            Ok(SheetTokenRow {
                id: r.get(0)?,
                agency_id: AgencyId::new(r.get::<String>(1)?),
                equipment_id: r.get(2)?,
                expires_at: r.get(3)?,
                used_at: r.get(4)?,
            })
        },
    )
    .optional()
}

/// Marks the token used if it was not: false when it already was.
pub fn mark_used(tx: &Tx, id: &str, at: &str) -> StoreResult<bool> {
    Ok(tx.execute_cached(
        "UPDATE sheet_tokens SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL",
        params![id, at],
    )? == 1)
}

/// Rows of text columns of a query, for the sheet's sections.
fn rows(
    conn: &Conn,
    sql: &str,
    equipment_id: &str,
    columns: usize,
) -> StoreResult<Vec<Vec<Option<String>>>> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt
        .query_map([equipment_id], |r| {
            (0..columns)
                .map(|i| r.get::<Option<String>>(i))
                .collect::<Result<Vec<_>, _>>()
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The client of an equipment: nom, telephone, email, adresse (street
/// line), statut, complement_adresse, code_postal, ville.
pub fn client_of(
    conn: &Conn,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<Vec<Option<String>>>> {
    let equipment_id = equipment_id.as_str();
    Ok(rows(
        conn,
        "SELECT c.nom, c.telephone, c.email, c.adresse, c.statut, c.complement_adresse,
                c.code_postal, c.ville FROM equipment e
         JOIN clients c ON c.id = e.client_id WHERE e.id = ?1",
        equipment_id,
        8,
    )?
    .into_iter()
    .next())
}

/// Access instructions of the equipment's building: JSON array, other, digicode, key box, postal code, city.
pub fn building_access(
    conn: &Conn,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<Vec<Option<String>>>> {
    let equipment_id = equipment_id.as_str();
    Ok(rows(
        conn,
        "SELECT b.access_instructions, b.access_other, b.digicode, b.key_box, b.postal_code, b.city
         FROM equipment e JOIN buildings b ON b.id = e.building_id WHERE e.id = ?1",
        equipment_id,
        6,
    )?
    .into_iter()
    .next())
}

/// The last 5 visits: planned_for, status, done_on, observations.
pub fn last_visits(
    conn: &Conn,
    equipment_id: &EquipmentId,
) -> StoreResult<Vec<Vec<Option<String>>>> {
    let equipment_id = equipment_id.as_str();
    rows(
        conn,
        "SELECT planned_for, status, done_on, observations FROM visits
         WHERE equipment_id = ?1 ORDER BY planned_for DESC, id DESC LIMIT 5",
        equipment_id,
        4,
    )
}

/// Open calls (not `resolue`): received_at, type, status, description.
pub fn open_calls(
    conn: &Conn,
    equipment_id: &EquipmentId,
) -> StoreResult<Vec<Vec<Option<String>>>> {
    let equipment_id = equipment_id.as_str();
    rows(
        conn,
        "SELECT received_at, type, status, description FROM calls
         WHERE equipment_id = ?1 AND status <> 'resolue' ORDER BY received_at DESC, id DESC",
        equipment_id,
        4,
    )
}

/// The last survey: number, status, surveyed_on, created_at.
pub fn last_survey(
    conn: &Conn,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<Vec<Option<String>>>> {
    let equipment_id = equipment_id.as_str();
    Ok(rows(
        conn,
        "SELECT number, status, surveyed_on, substr(created_at, 1, 10) FROM surveys
         WHERE equipment_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 1",
        equipment_id,
        4,
    )?
    .into_iter()
    .next())
}
