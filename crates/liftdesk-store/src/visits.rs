//! Maintenance visits: one visit, its recorded changes, and the weekly planning.

use crate::Conn;
use crate::Tx;
use crate::code;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AgencyId, BuildingId, EquipmentId, TechnicianId, VisitId};
use liftdesk_domain::visit::VisitStatus;

use super::StoreResult;

/// A visit as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitRow {
    pub id: VisitId,
    pub agency_id: String,
    pub equipment_id: EquipmentId,
    pub technician_id: Option<TechnicianId>,
    /// `YYYY-MM-DD`.
    pub planned_for: String,
    /// `YYYY-MM-DD`: limit date from the maintenance plan.
    pub deadline: Option<String>,
    pub status: VisitStatus,
    /// UTC timestamps.
    pub arrived_at: Option<String>,
    pub left_at: Option<String>,
    /// `YYYY-MM-DD`: the day it was done.
    pub done_on: Option<String>,
    pub signed_by: Option<String>,
    pub observations: Option<String>,
}

/// The visit `id` if it belongs to `agency_id`.
pub fn get_in_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &VisitId,
) -> StoreResult<Option<VisitRow>> {
    conn.query_row_cached(
        "SELECT id, agency_id, equipment_id, technician_id, planned_for, deadline, status,
                    arrived_at, left_at, done_on, signed_by, observations
             FROM visits WHERE id = ?1 AND agency_id = ?2",
        params![id, agency_id],
        |r| {
            Ok(VisitRow {
                id: r.get(0)?,
                agency_id: r.get(1)?,
                equipment_id: r.get(2)?,
                technician_id: r.get(3)?,
                planned_for: r.get(4)?,
                deadline: r.get(5)?,
                status: code(r, 6)?,
                arrived_at: r.get(7)?,
                left_at: r.get(8)?,
                done_on: r.get(9)?,
                signed_by: r.get(10)?,
                observations: r.get(11)?,
            })
        },
    )
    .optional()
}

/// The technician arrived: `en_cours`, with the arrival time.
pub fn record_start(tx: &Tx, id: &VisitId, arrived_at: &str, now: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE visits SET status = 'en_cours', arrived_at = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, arrived_at, now],
    )?;
    Ok(())
}

pub struct Completion<'a> {
    pub arrived_at: &'a str,
    pub left_at: &'a str,
    pub done_on: &'a str,
    pub signed_by: &'a str,
    pub observations: Option<&'a str>,
}

/// The visit is done and signed: `faite`.
pub fn record_completion(
    tx: &Tx,
    id: &VisitId,
    completion: &Completion<'_>,
    now: &str,
) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE visits SET status = 'faite', arrived_at = ?2, left_at = ?3, done_on = ?4,
                           signed_by = ?5, observations = ?6, updated_at = ?7
         WHERE id = ?1",
        params![
            id,
            completion.arrived_at,
            completion.left_at,
            completion.done_on,
            completion.signed_by,
            completion.observations,
            now
        ],
    )?;
    Ok(())
}

/// A visit not begun moves to another day, possibly to another technician.
pub fn record_reschedule(
    tx: &Tx,
    id: &VisitId,
    planned_for: &str,
    technician_id: Option<&TechnicianId>,
    now: &str,
) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE visits SET planned_for = ?2, technician_id = ?3, updated_at = ?4 WHERE id = ?1",
        params![id, planned_for, technician_id, now],
    )?;
    Ok(())
}

/// The equipment's visit not done yet (the earliest planned, when several):
/// its id, planned day and status.
pub fn open_of_equipment(
    conn: &Conn,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<(VisitId, String, VisitStatus)>> {
    conn.query_row_cached(
        "SELECT id, planned_for, status FROM visits
         WHERE equipment_id = ?1 AND status IN ('planifiee', 'en_cours')
         ORDER BY planned_for, id LIMIT 1",
        [equipment_id.as_str()],
        |r| Ok((r.get(0)?, r.get(1)?, code(r, 2)?)),
    )
    .optional()
}

/// A start is undone: planned again, without arrival.
pub fn record_cancel_start(tx: &Tx, id: &VisitId, now: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE visits SET status = 'planifiee', arrived_at = NULL, updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

/// One visit of the planning, with what a technician needs to find it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanningRow {
    pub id: VisitId,
    pub technician_id: Option<TechnicianId>,
    /// The planned day, or for a completed visit the day it was done.
    pub day: String,
    pub status: VisitStatus,
    pub equipment_id: EquipmentId,
    pub number: Option<String>,
    pub building_id: Option<BuildingId>,
    pub building: Option<String>,
    pub address: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub deadline: Option<String>,
}

/// Visits of the agency between two days (inclusive): visits not done by
/// their planned day (index `visits_by_day`), completed ones by the day they
/// were done (index `visits_by_done_day`). Sorted by [`planning`], not here:
/// SQLite would sort thousands of rows calling the French collation for
/// every comparison.
pub const PLANNING_SQL: &str = "
    SELECT v.id, v.technician_id, v.day, v.status, v.equipment_id, e.number,
           b.name, b.address, b.postal_code, b.city, v.deadline, t.name, v.arrived_at,
           e.building_id
    FROM (
        SELECT id, technician_id, planned_for AS day, status, equipment_id, deadline, arrived_at
        FROM visits
        WHERE agency_id = ?1 AND planned_for >= ?2 AND planned_for <= ?3 AND done_on IS NULL
        UNION ALL
        SELECT id, technician_id, done_on AS day, status, equipment_id, deadline, arrived_at
        FROM visits
        WHERE agency_id = ?1 AND done_on IS NOT NULL AND done_on >= ?2 AND done_on <= ?3
    ) v
    JOIN equipment e ON e.id = v.equipment_id
    LEFT JOIN buildings b ON b.id = e.building_id
    LEFT JOIN technicians t ON t.id = v.technician_id";

/// The week's visits sorted by day, then technician (by name in French
/// order, unassigned last), arrival time (arrived first, by time), equipment
/// number and id: what `ORDER BY v.day, t.name IS NULL, t.name COLLATE
/// FRANCAIS, v.technician_id, v.arrived_at IS NULL, v.arrived_at, e.number,
/// v.id` gives (a test compares both), with each technician's name compared
/// once instead of at every comparison.
pub fn planning(
    conn: &Conn,
    agency_id: &AgencyId,
    from_day: &str,
    to_day: &str,
) -> StoreResult<Vec<PlanningRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(PLANNING_SQL)?;
    let rows = stmt.query_map([agency_id, from_day, to_day], |r| {
        Ok((
            PlanningRow {
                id: r.get(0)?,
                technician_id: r.get(1)?,
                day: r.get(2)?,
                status: code(r, 3)?,
                equipment_id: r.get(4)?,
                number: r.get(5)?,
                building_id: r.get(13)?,
                building: r.get(6)?,
                address: r.get(7)?,
                postal_code: r.get(8)?,
                city: r.get(9)?,
                deadline: r.get(10)?,
            },
            r.get::<Option<String>>(11)?,
            r.get::<Option<String>>(12)?,
        ))
    })?;
    let rows: Vec<(PlanningRow, Option<String>, Option<String>)> =
        rows.collect::<Result<_, _>>()?;
    Ok(sort_planning(rows))
}

/// Sorts planning rows given with their technician's name and arrival time.
fn sort_planning(rows: Vec<(PlanningRow, Option<String>, Option<String>)>) -> Vec<PlanningRow> {
    // Each named technician's place in the French order of (name, id),
    // found once per technician.
    let ranks: Vec<Option<usize>> = {
        let distinct: std::collections::HashSet<(&str, &str)> = rows
            .iter()
            .filter_map(|(row, name, _)| {
                Some((name.as_deref()?, row.technician_id.as_ref()?.as_str()))
            })
            .collect();
        let mut named: Vec<(&str, &str)> = distinct.into_iter().collect();
        named.sort_unstable_by(|a, b| {
            crate::text::french_order(a.0, b.0).then_with(|| a.1.cmp(b.1))
        });
        let rank_of: std::collections::HashMap<(&str, &str), usize> = named
            .iter()
            .enumerate()
            .map(|(rank, key)| (*key, rank))
            .collect();
        rows.iter()
            .map(|(row, name, _)| {
                let key = (name.as_deref()?, row.technician_id.as_ref()?.as_str());
                rank_of.get(&key).copied()
            })
            .collect()
    };
    // Sorted as positions: the rows themselves are large to move.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&i, &j| {
        let ((a, name_a, arrived_a), (b, name_b, arrived_b)) = (&rows[i], &rows[j]);
        a.day
            .cmp(&b.day)
            .then_with(|| name_a.is_none().cmp(&name_b.is_none()))
            .then_with(|| ranks[i].cmp(&ranks[j]))
            .then_with(|| a.technician_id.cmp(&b.technician_id))
            .then_with(|| arrived_a.is_none().cmp(&arrived_b.is_none()))
            .then_with(|| arrived_a.cmp(arrived_b))
            .then_with(|| a.number.cmp(&b.number))
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut rows: Vec<Option<PlanningRow>> =
        rows.into_iter().map(|(row, _, _)| Some(row)).collect();
    order.into_iter().filter_map(|i| rows[i].take()).collect()
}

/// A new planned visit.
pub struct NewVisit<'a> {
    pub id: &'a VisitId,
    pub agency_id: &'a str,
    pub equipment_id: &'a EquipmentId,
    pub technician_id: Option<&'a TechnicianId>,
    pub planned_for: &'a str,
    pub deadline: Option<&'a str>,
    pub now: &'a str,
}

pub fn insert(tx: &Tx, visit: &NewVisit<'_>) -> StoreResult<()> {
    tx.execute_cached(
        "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for, deadline,
                             status, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'planifiee', ?7, ?7)",
        params![
            visit.id,
            visit.agency_id,
            visit.equipment_id,
            visit.technician_id,
            visit.planned_for,
            visit.deadline,
            visit.now
        ],
    )?;
    Ok(())
}

/// Visits per (technician, day) of the agency between two days: not done
/// ones by their planned day, done ones by the day they were done.
pub fn technician_loads(
    conn: &Conn,
    agency_id: &AgencyId,
    from_day: &str,
    to_day: &str,
) -> StoreResult<Vec<(String, String, i64)>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT technician_id, day, count(*) FROM (
             SELECT technician_id, planned_for AS day FROM visits
             WHERE agency_id = ?1 AND planned_for >= ?2 AND planned_for <= ?3 AND done_on IS NULL
             UNION ALL
             SELECT technician_id, done_on AS day FROM visits
             WHERE agency_id = ?1 AND done_on IS NOT NULL AND done_on >= ?2 AND done_on <= ?3
         ) WHERE technician_id IS NOT NULL GROUP BY technician_id, day",
    )?;
    let rows = stmt.query_map([agency_id, from_day, to_day], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?;
    rows.collect::<Result<_, _>>()
}

/// A visit as the export of the planning lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodVisitRow {
    pub id: VisitId,
    pub planned_for: String,
    pub status: VisitStatus,
    pub done_on: Option<String>,
    pub arrived_at: Option<String>,
    pub left_at: Option<String>,
    pub signed_by: Option<String>,
    pub observations: Option<String>,
    pub equipment_number: Option<String>,
    pub building: Option<String>,
    pub address: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub technician: Option<String>,
    pub client: Option<String>,
}

/// The agency's visits whose day (done, else planned) falls from `from` to
/// `to` (`YYYY-MM-DD`, both included), of one technician if given, by day,
/// one page of them and their count.
pub fn in_period(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
    technician_id: Option<&TechnicianId>,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<PeriodVisitRow>)> {
    let technician = technician_id.map(TechnicianId::as_str);
    let total: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM visits v
          WHERE v.agency_id = ?1 AND coalesce(v.done_on, v.planned_for) BETWEEN ?2 AND ?3
            AND (?4 IS NULL OR v.technician_id = ?4)",
        params![agency_id.as_str(), from, to, technician],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(
        "SELECT v.id, v.planned_for, v.status, v.done_on, v.arrived_at, v.left_at, v.signed_by,
                v.observations, e.number, b.name, b.address, b.postal_code, b.city, t.name, c.nom
           FROM visits v JOIN equipment e ON e.id = v.equipment_id
           LEFT JOIN buildings b ON b.id = e.building_id
           LEFT JOIN technicians t ON t.id = v.technician_id
           LEFT JOIN clients c ON c.id = e.client_id
          WHERE v.agency_id = ?1 AND coalesce(v.done_on, v.planned_for) BETWEEN ?2 AND ?3
            AND (?4 IS NULL OR v.technician_id = ?4)
          ORDER BY coalesce(v.done_on, v.planned_for), t.name, e.number, v.id
          LIMIT ?5 OFFSET ?6",
    )?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = stmt
        .query_map(
            params![agency_id.as_str(), from, to, technician, limit, offset],
            |r| {
                Ok(PeriodVisitRow {
                    id: r.get(0)?,
                    planned_for: r.get(1)?,
                    status: code(r, 2)?,
                    done_on: r.get(3)?,
                    arrived_at: r.get(4)?,
                    left_at: r.get(5)?,
                    signed_by: r.get(6)?,
                    observations: r.get(7)?,
                    equipment_number: r.get(8)?,
                    building: r.get(9)?,
                    address: r.get(10)?,
                    postal_code: r.get(11)?,
                    city: r.get(12)?,
                    technician: r.get(13)?,
                    client: r.get(14)?,
                })
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((total, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planning reads the week through the two day indexes, never by
    /// scanning the agency's visits.
    #[test]
    fn the_planning_uses_the_day_indexes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::Store::open(&dir.path().join("t.db")).expect("store");
        let plan: Vec<String> = store
            .read_blocking(|conn| -> StoreResult<Vec<String>> {
                let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {PLANNING_SQL}"))?;
                let rows =
                    stmt.query_map(["a", "2026-03-09", "2026-03-15"], |r| r.get::<String>(3))?;
                rows.collect::<Result<_, _>>()
            })
            .expect("plan");
        let text = plan.join("\n");
        assert!(text.contains("INDEX visits_by_day"), "{text}");
        assert!(text.contains("INDEX visits_by_done_day"), "{text}");
        assert!(!text.contains("SCAN visits"), "{text}");
        assert!(!text.contains("SCAN e"), "{text}");
    }
}

/// A visit as the Equipment screen shows it, with its technician's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquipmentVisitRow {
    pub id: VisitId,
    /// `YYYY-MM-DD`.
    pub planned_for: String,
    pub status: VisitStatus,
    /// UTC timestamps.
    pub arrived_at: Option<String>,
    pub left_at: Option<String>,
    /// `YYYY-MM-DD`.
    pub done_on: Option<String>,
    pub signed_by: Option<String>,
    pub observations: Option<String>,
    pub technician_name: Option<String>,
}

const EQUIPMENT_VISIT_COLUMNS: &str = "v.id, v.planned_for, v.status, v.arrived_at, v.left_at,
     v.done_on, v.signed_by, v.observations, t.name";

fn equipment_visit_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<EquipmentVisitRow> {
    Ok(EquipmentVisitRow {
        id: r.get(0)?,
        planned_for: r.get(1)?,
        status: code(r, 2)?,
        arrived_at: r.get(3)?,
        left_at: r.get(4)?,
        done_on: r.get(5)?,
        signed_by: r.get(6)?,
        observations: r.get(7)?,
        technician_name: r.get(8)?,
    })
}

/// The equipment's latest visits by planned day (at most `limit`, newest
/// first, planned ones included) and how many it has.
pub fn recent_of_equipment(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    limit: u32,
) -> StoreResult<(i64, Vec<EquipmentVisitRow>)> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let total: i64 = conn.query_row(
        "SELECT COUNT(*) FROM visits WHERE equipment_id = ?1 AND agency_id = ?2",
        [equipment_id, agency_id],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_VISIT_COLUMNS} FROM visits v LEFT JOIN technicians t ON t.id = v.technician_id
         WHERE v.equipment_id = ?1 AND v.agency_id = ?2
         ORDER BY v.planned_for DESC, v.id DESC LIMIT ?3"
    ))?;
    let rows = stmt.query_map(params![equipment_id, agency_id, limit], equipment_visit_row)?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// The equipment's visits that took place (begun or done), oldest first,
/// at most `limit` (the latest ones when there are more).
pub fn carried_out_of_equipment(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    limit: u32,
) -> StoreResult<Vec<EquipmentVisitRow>> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT * FROM (
             SELECT {EQUIPMENT_VISIT_COLUMNS}, coalesce(v.arrived_at, v.done_on, v.planned_for) AS at
             FROM visits v LEFT JOIN technicians t ON t.id = v.technician_id
             WHERE v.equipment_id = ?1 AND v.agency_id = ?2 AND v.status IN ('en_cours', 'faite')
             ORDER BY at DESC, v.id DESC LIMIT ?3)
         ORDER BY at, id"
    ))?;
    let rows = stmt.query_map(params![equipment_id, agency_id, limit], equipment_visit_row)?;
    rows.collect::<Result<_, _>>()
}

/// A visit not done that is late or due soon, with what its list shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingVisitRow {
    pub id: VisitId,
    pub status: VisitStatus,
    /// `YYYY-MM-DD`.
    pub planned_for: String,
    pub deadline: Option<String>,
    pub equipment_id: EquipmentId,
    pub number: Option<String>,
    pub building_id: Option<String>,
    pub building: Option<String>,
    pub address: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    /// The client's partner identifier (`CLI-…`) and name.
    pub client_ref: Option<String>,
    pub client: Option<String>,
    pub technician_id: Option<TechnicianId>,
    pub technician: Option<String>,
}

/// The agency's visits not done that are late (planned before `today`, or
/// past their deadline) or due by `until` (deadline from `today` to
/// `until`), earliest deadline first (then planned day, number, id).
pub fn pending(
    conn: &Conn,
    agency_id: &AgencyId,
    today: &str,
    until: &str,
) -> StoreResult<Vec<PendingVisitRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT v.id, v.status, v.planned_for, v.deadline, v.equipment_id, e.number,
                b.id, b.name, b.address, b.postal_code, b.city, c.client_ref, c.nom,
                v.technician_id, t.name
         FROM visits v
         JOIN equipment e ON e.id = v.equipment_id
         LEFT JOIN buildings b ON b.id = e.building_id
         LEFT JOIN clients c ON c.id = e.client_id
         LEFT JOIN technicians t ON t.id = v.technician_id
         WHERE v.agency_id = ?1 AND v.status <> 'faite'
           AND (v.planned_for < ?2 OR (v.deadline IS NOT NULL AND v.deadline <= ?3))
         ORDER BY coalesce(v.deadline, v.planned_for), v.planned_for, e.number, v.id",
    )?;
    let rows = stmt.query_map([agency_id.as_str(), today, until], |r| {
        Ok(PendingVisitRow {
            id: r.get(0)?,
            status: code(r, 1)?,
            planned_for: r.get(2)?,
            deadline: r.get(3)?,
            equipment_id: r.get(4)?,
            number: r.get(5)?,
            building_id: r.get(6)?,
            building: r.get(7)?,
            address: r.get(8)?,
            postal_code: r.get(9)?,
            city: r.get(10)?,
            client_ref: r.get(11)?,
            client: r.get(12)?,
            technician_id: r.get(13)?,
            technician: r.get(14)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}
