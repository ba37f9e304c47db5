//! Technicians, their standby rota and their absences.

use crate::sql::{OptionalExtension, params};
use crate::{Conn, Tx};
use liftdesk_domain::id::{AccountId, AgencyId, TechnicianId};

use super::StoreResult;

/// A technician with what is counted for the roster at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterRow {
    pub id: TechnicianId,
    pub name: String,
    pub sectors: Option<String>,
    /// Safety rest after a standby period, in hours.
    pub rest_hours: i64,
    /// Calls assigned to the technician and not resolved.
    pub open_calls: i64,
    /// A standby period covers the instant.
    pub on_call: bool,
    /// End (UTC timestamp) of the latest standby period over by the instant.
    pub last_standby_end: Option<String>,
}

/// The agency's active technicians at instant `now` (UTC timestamp text),
/// sorted by name.
pub fn roster(conn: &Conn, agency_id: &AgencyId, now: &str) -> StoreResult<Vec<RosterRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT t.id, t.name, t.sectors, t.rest_hours,
                (SELECT count(*) FROM calls c
                 WHERE c.technician_id = t.id
                   AND c.status IN ('ouverte', 'en_route', 'sur_place', 'a_l_arret')),
                EXISTS (SELECT 1 FROM technician_on_call o
                        WHERE o.technician_id = t.id AND o.ends_at > ?2 AND o.starts_at <= ?2),
                (SELECT max(o.ends_at) FROM technician_on_call o
                 WHERE o.technician_id = t.id AND o.ends_at <= ?2)
         FROM technicians t
         WHERE t.agency_id = ?1 AND t.active = 1
         ORDER BY t.name COLLATE FRANCAIS, t.id",
    )?;
    let rows = stmt.query_map([agency_id, now], |r| {
        Ok(RosterRow {
            id: r.get(0)?,
            name: r.get(1)?,
            sectors: r.get(2)?,
            rest_hours: r.get(3)?,
            open_calls: r.get(4)?,
            on_call: r.get(5)?,
            last_standby_end: r.get(6)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The first instant after `now` at which a standby period of the agency's
/// technicians starts or ends: until then, who is on standby and when each
/// one's last standby ended stay as they are at `now`.
pub fn next_standby_boundary(
    conn: &Conn,
    agency_id: &AgencyId,
    now: &str,
) -> StoreResult<Option<String>> {
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT min(at) FROM (
             SELECT min(o.starts_at) AS at FROM technician_on_call o
             JOIN technicians t ON t.id = o.technician_id
             WHERE t.agency_id = ?1 AND o.starts_at > ?2
             UNION ALL
             SELECT min(o.ends_at) FROM technician_on_call o
             JOIN technicians t ON t.id = o.technician_id
             WHERE t.agency_id = ?1 AND o.ends_at > ?2)",
        [agency_id, now],
        |r| r.get(0),
    )
}

/// An absence, days `YYYY-MM-DD` inclusive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsenceRow {
    pub technician_id: TechnicianId,
    pub starts_on: String,
    pub ends_on: String,
}

/// Absences of the agency's technicians not over before `day`, by
/// technician and start.
pub fn absences_not_over(
    conn: &Conn,
    agency_id: &AgencyId,
    day: &str,
) -> StoreResult<Vec<AbsenceRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT a.technician_id, a.starts_on, a.ends_on
         FROM technicians t JOIN technician_absences a ON a.technician_id = t.id
         WHERE t.agency_id = ?1 AND a.ends_on >= ?2
         ORDER BY a.technician_id, a.starts_on, a.ends_on",
    )?;
    let rows = stmt.query_map([agency_id, day], |r| {
        Ok(AbsenceRow {
            technician_id: r.get(0)?,
            starts_on: r.get(1)?,
            ends_on: r.get(2)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// Name of an active technician of the agency.
pub fn active_name_in_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &TechnicianId,
) -> StoreResult<Option<String>> {
    let id = id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT name FROM technicians WHERE id = ?1 AND agency_id = ?2 AND active = 1",
        [id, agency_id],
        |r| r.get(0),
    )
    .optional()
}

/// Name of a technician of the agency, active or not (a technician who left
/// keeps his past visits).
pub fn name_in_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &TechnicianId,
) -> StoreResult<Option<String>> {
    let id = id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT name FROM technicians WHERE id = ?1 AND agency_id = ?2",
        [id, agency_id],
        |r| r.get(0),
    )
    .optional()
}

/// Whether the technician is absent on `day`.
pub fn is_absent_on(conn: &Conn, technician_id: &TechnicianId, day: &str) -> StoreResult<bool> {
    let technician_id = technician_id.as_str();
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM technician_absences
                        WHERE technician_id = ?1 AND ends_on >= ?2 AND starts_on <= ?2)",
        [technician_id, day],
        |r| r.get(0),
    )
}

/// A technician of an agency: the one row type of the `technicians` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TechnicianRow {
    pub id: TechnicianId,
    pub name: String,
    pub phone: Option<String>,
    /// Comma-separated.
    pub sectors: Option<String>,
    pub daily_capacity: i64,
    /// Safety rest after a standby period, in hours.
    pub rest_hours: i64,
    pub active: bool,
    /// The staff account he is, if any.
    pub account_id: Option<AccountId>,
}

/// The columns [`technician_row`] reads, in its order.
const TECHNICIAN_COLUMNS: &str =
    "id, name, phone, sectors, daily_capacity, rest_hours, active, account_id";

fn technician_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<TechnicianRow> {
    Ok(TechnicianRow {
        id: r.get(0)?,
        name: r.get(1)?,
        phone: r.get(2)?,
        sectors: r.get(3)?,
        daily_capacity: r.get(4)?,
        rest_hours: r.get(5)?,
        active: r.get(6)?,
        account_id: r.get(7)?,
    })
}

/// An active technician of the agency.
pub fn active_in_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &TechnicianId,
) -> StoreResult<Option<TechnicianRow>> {
    conn.query_row_cached(
        &format!(
            "SELECT {TECHNICIAN_COLUMNS} FROM technicians
             WHERE id = ?1 AND agency_id = ?2 AND active = 1"
        ),
        params![id, agency_id],
        technician_row,
    )
    .optional()
}

/// A standby period as stored, with the technician's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnCallRow {
    pub id: String,
    pub technician_id: TechnicianId,
    pub technician_name: String,
    pub starts_at: String,
    pub ends_at: String,
}

fn on_call_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<OnCallRow> {
    Ok(OnCallRow {
        id: r.get(0)?,
        technician_id: r.get(1)?,
        technician_name: r.get(2)?,
        starts_at: r.get(3)?,
        ends_at: r.get(4)?,
    })
}

/// The agency's standby periods that overlap `[from, to)` (UTC timestamp
/// texts), by start.
pub fn on_call_overlapping(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<OnCallRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT o.id, o.technician_id, t.name, o.starts_at, o.ends_at
         FROM technician_on_call o JOIN technicians t ON t.id = o.technician_id
         WHERE t.agency_id = ?1 AND o.ends_at > ?2 AND o.starts_at < ?3
         ORDER BY o.starts_at, o.id",
    )?;
    let rows = stmt.query_map([agency_id, from, to], on_call_row)?;
    rows.collect::<Result<_, _>>()
}

/// One technician's standby periods that overlap `[from, to)`, by start.
pub fn on_call_of_technician(
    conn: &Conn,
    technician_id: &TechnicianId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<OnCallRow>> {
    let technician_id = technician_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT o.id, o.technician_id, t.name, o.starts_at, o.ends_at
         FROM technician_on_call o JOIN technicians t ON t.id = o.technician_id
         WHERE o.technician_id = ?1 AND o.ends_at > ?2 AND o.starts_at < ?3
         ORDER BY o.starts_at, o.id",
    )?;
    let rows = stmt.query_map([technician_id, from, to], on_call_row)?;
    rows.collect::<Result<_, _>>()
}

pub fn insert_on_call(
    conn: &Conn,
    id: &str,
    technician_id: &TechnicianId,
    starts_at: &str,
    ends_at: &str,
) -> StoreResult<()> {
    let technician_id = technician_id.as_str();
    conn.prepare_cached(
        "INSERT INTO technician_on_call (id, technician_id, starts_at, ends_at)
         VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute([id, technician_id, starts_at, ends_at])?;
    Ok(())
}

pub fn resize_on_call(conn: &Conn, id: &str, starts_at: &str, ends_at: &str) -> StoreResult<()> {
    conn.prepare_cached(
        "UPDATE technician_on_call SET starts_at = ?2, ends_at = ?3 WHERE id = ?1",
    )?
    .execute([id, starts_at, ends_at])?;
    Ok(())
}

pub fn delete_on_call(conn: &Conn, id: &str) -> StoreResult<()> {
    conn.prepare_cached("DELETE FROM technician_on_call WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// An absence with its identifier and reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsenceDetail {
    pub id: String,
    pub starts_on: String,
    pub ends_on: String,
    pub reason: Option<String>,
}

fn absence_detail(r: &crate::sql::Row<'_>) -> crate::StoreResult<AbsenceDetail> {
    Ok(AbsenceDetail {
        id: r.get(0)?,
        starts_on: r.get(1)?,
        ends_on: r.get(2)?,
        reason: r.get(3)?,
    })
}

/// A technician's absences not over before `day`, by start, at most `limit`.
pub fn absences_of(
    conn: &Conn,
    technician_id: &TechnicianId,
    day: &str,
    limit: i64,
) -> StoreResult<Vec<AbsenceDetail>> {
    let technician_id = technician_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT id, starts_on, ends_on, reason FROM technician_absences
         WHERE technician_id = ?1 AND ends_on >= ?2
         ORDER BY starts_on, id LIMIT ?3",
    )?;
    let rows = stmt.query_map(
        crate::sql::params![technician_id, day, limit],
        absence_detail,
    )?;
    rows.collect::<Result<_, _>>()
}

/// A technician's absences sharing a day with `[from, to]` (days inclusive).
pub fn absences_overlapping(
    conn: &Conn,
    technician_id: &TechnicianId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<AbsenceDetail>> {
    let technician_id = technician_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT id, starts_on, ends_on, reason FROM technician_absences
         WHERE technician_id = ?1 AND ends_on >= ?2 AND starts_on <= ?3
         ORDER BY starts_on, id",
    )?;
    let rows = stmt.query_map([technician_id, from, to], absence_detail)?;
    rows.collect::<Result<_, _>>()
}

/// A new technician of the agency (active, the schema's rest hours), from a
/// checked record; returns its id.
pub fn insert(
    tx: &Tx,
    agency_id: &AgencyId,
    record: &liftdesk_domain::technician::TechnicianRecord,
) -> StoreResult<TechnicianId> {
    let id = TechnicianId::new(crate::new_id());
    tx.prepare_cached(
        "INSERT INTO technicians (id, agency_id, name, sectors, phone, daily_capacity, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        id,
        agency_id,
        record.name,
        record.sectors,
        record.phone,
        record.daily_capacity,
        tx.now_text()
    ])?;
    Ok(id)
}

/// Rewrites the technician's record and safety rest.
pub fn update(
    tx: &Tx,
    id: &TechnicianId,
    record: &liftdesk_domain::technician::TechnicianRecord,
    rest_hours: i64,
) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE technicians SET name = ?2, phone = ?3, sectors = ?4, daily_capacity = ?5,
             rest_hours = ?6 WHERE id = ?1",
        params![
            id,
            record.name,
            record.phone,
            record.sectors,
            record.daily_capacity,
            rest_hours
        ],
    )?;
    Ok(())
}

/// Marks the technician active (on the roster, the planning and the rota)
/// or not.
pub fn set_active(tx: &Tx, id: &TechnicianId, active: bool) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE technicians SET active = ?2 WHERE id = ?1",
        params![id, active],
    )?;
    Ok(())
}

/// A technician of the agency who is also the staff account `account_id`
/// (created with the account); returns its id.
/// The accounts that have a technician record in one of `agency_ids`.
pub fn account_ids_in(
    conn: &Conn,
    agency_ids: &[String],
) -> StoreResult<std::collections::HashSet<AccountId>> {
    let ids = serde_json::to_string(agency_ids)?;
    let mut stmt = conn.prepare_cached(
        "SELECT account_id FROM technicians
         WHERE account_id IS NOT NULL AND agency_id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = stmt.query_map([ids], |r| r.get(0))?;
    rows.collect::<Result<_, _>>()
}

/// Whether the account has a technician record.
pub fn has_account(conn: &Conn, account_id: &AccountId) -> StoreResult<bool> {
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM technicians WHERE account_id = ?1)",
        [account_id],
        |r| r.get(0),
    )
}

pub fn insert_for_account(
    tx: &Tx,
    agency_id: &AgencyId,
    account_id: &AccountId,
    name: &str,
) -> StoreResult<String> {
    let agency_id = agency_id.as_str();
    let id = crate::new_id();
    tx.prepare_cached(
        "INSERT INTO technicians (id, agency_id, account_id, name, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute([id.as_str(), agency_id, account_id.as_str(), name, &tx.now_text()])?;
    Ok(id)
}

pub fn insert_absence(
    conn: &Conn,
    id: &str,
    technician_id: &TechnicianId,
    starts_on: &str,
    ends_on: &str,
    reason: &str,
) -> StoreResult<()> {
    let technician_id = technician_id.as_str();
    conn.prepare_cached(
        "INSERT INTO technician_absences (id, technician_id, starts_on, ends_on, reason)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute([id, technician_id, starts_on, ends_on, reason])?;
    Ok(())
}

/// Deletes one absence of the technician; false if there is none.
pub fn delete_absence(conn: &Conn, technician_id: &TechnicianId, id: &str) -> StoreResult<bool> {
    let technician_id = technician_id.as_str();
    let deleted = conn
        .prepare_cached("DELETE FROM technician_absences WHERE id = ?1 AND technician_id = ?2")?
        .execute([id, technician_id])?;
    Ok(deleted > 0)
}

/// Every technician of the agency, active or not, by name.
pub fn records_of_agency(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<TechnicianRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {TECHNICIAN_COLUMNS} FROM technicians WHERE agency_id = ?1
         ORDER BY active DESC, name COLLATE FRANCAIS, id"
    ))?;
    let rows = stmt.query_map([agency_id.as_str()], technician_row)?;
    rows.collect::<Result<_, _>>()
}

/// A technician of the agency, active or not.
pub fn in_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &TechnicianId,
) -> StoreResult<Option<TechnicianRow>> {
    conn.query_row_cached(
        &format!("SELECT {TECHNICIAN_COLUMNS} FROM technicians WHERE id = ?1 AND agency_id = ?2"),
        params![id, agency_id],
        technician_row,
    )
    .optional()
}

/// The agency's technicians for the planning, sorted by name: the active
/// ones, and the inactive ones among `also` (who still carry visits).
pub fn for_planning(
    conn: &Conn,
    agency_id: &AgencyId,
    also: &[String],
) -> StoreResult<Vec<TechnicianRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {TECHNICIAN_COLUMNS}
         FROM technicians WHERE agency_id = ?1 AND (active = 1 OR id IN (SELECT value FROM json_each(?2)))
         ORDER BY name COLLATE FRANCAIS, id"
    ))?;
    let also = serde_json::to_string(also)?;
    let rows = stmt.query_map(params![agency_id, also], technician_row)?;
    rows.collect::<Result<_, _>>()
}

/// Absences of the agency's technicians that overlap `from`..=`to`.
pub fn absences_between(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<AbsenceRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT a.technician_id, a.starts_on, a.ends_on
         FROM technicians t JOIN technician_absences a ON a.technician_id = t.id
         WHERE t.agency_id = ?1 AND a.ends_on >= ?2 AND a.starts_on <= ?3
         ORDER BY a.technician_id, a.starts_on",
    )?;
    let rows = stmt.query_map([agency_id, from, to], |r| {
        Ok(AbsenceRow {
            technician_id: r.get(0)?,
            starts_on: r.get(1)?,
            ends_on: r.get(2)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// (technician, end) of the standby periods of the agency's technicians
/// ending between two instants (UTC timestamp texts, inclusive).
pub fn standby_ends_between(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<(String, String)>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT o.technician_id, o.ends_at
         FROM technicians t JOIN technician_on_call o ON o.technician_id = t.id
         WHERE t.agency_id = ?1 AND o.ends_at >= ?2 AND o.ends_at <= ?3
         ORDER BY o.technician_id, o.ends_at",
    )?;
    let rows = stmt.query_map([agency_id, from, to], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect::<Result<_, _>>()
}
