//! Breakdown calls: as the agency reads them, as a call center opens and
//! tracks them, and their assignment and status changes.

use crate::Conn;
use crate::Tx;
use crate::sql::Value;
use crate::sql::{OptionalExtension, params, params_from_iter};
use crate::{Code, code};
use liftdesk_domain::call::{CallStatus, CallType};
use liftdesk_domain::id::{AccountId, AgencyId, CallId, CredentialId, EquipmentId, TechnicianId};

use super::StoreResult;
use crate::StoreError;
use crate::audit::{self, Actor};
use crate::equipment::{
    self, EQUIPMENT_COLUMN_COUNT, EQUIPMENT_COLUMNS, EQUIPMENT_FROM, EquipmentRow,
    equipment_from_row,
};
use serde_json::{Map, Value as Json};
use std::sync::LazyLock;

/// A call with its equipment, technician and call center.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallRow {
    pub id: CallId,
    pub reference: String,
    pub status: CallStatus,
    pub call_type: CallType,
    pub description: String,
    pub caller: Option<String>,
    /// UTC timestamps.
    pub received_at: String,
    pub arrived_at: Option<String>,
    pub resolved_at: Option<String>,
    pub equipment_id: EquipmentId,
    pub equipment_number: Option<String>,
    pub technician_id: Option<TechnicianId>,
    pub technician_name: Option<String>,
    /// None for a call taken at the agency.
    pub center_id: Option<String>,
    pub center_name: Option<String>,
    /// Its closing report, when closed from the screens (migration V20).
    pub report: Option<CallReport>,
    /// UTC timestamp: a trapped-person alert taken into account.
    pub acknowledged_at: Option<String>,
}

/// A closing report as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallReport {
    pub cause: String,
    pub work: String,
    pub parts: Option<String>,
    /// UTC timestamp.
    pub back_in_service_at: Option<String>,
}

/// The report of columns (cause, work, parts, back in service) read at
/// `first`: None without a cause.
fn report_at(r: &crate::sql::Row<'_>, first: usize) -> crate::StoreResult<Option<CallReport>> {
    let cause: Option<String> = r.get(first)?;
    Ok(match cause {
        None => None,
        Some(cause) => Some(CallReport {
            cause,
            work: r.get::<Option<String>>(first + 1)?.unwrap_or_default(),
            parts: r.get(first + 2)?,
            back_in_service_at: r.get(first + 3)?,
        }),
    })
}

/// Writes the closing report of the call `id`.
pub fn set_report(tx: &Tx, id: &CallId, report: &CallReport) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE calls SET report_cause = ?2, report_work = ?3, report_parts = ?4,
                          back_in_service_at = ?5
         WHERE id = ?1",
        params![
            id,
            report.cause,
            report.work,
            report.parts,
            report.back_in_service_at
        ],
    )?;
    Ok(())
}

/// Marks the trapped-person alert of the call `id` taken into account, once:
/// false when it already was.
pub fn acknowledge(tx: &Tx, id: &CallId, account: Option<&str>, at: &str) -> StoreResult<bool> {
    Ok(tx.execute_cached(
        "UPDATE calls SET acknowledged_at = ?3, acknowledged_by = ?2
         WHERE id = ?1 AND acknowledged_at IS NULL",
        params![id, account, at],
    )? == 1)
}

/// A trapped-person alert still to acknowledge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlertRow {
    pub id: CallId,
    pub reference: String,
    pub equipment_id: EquipmentId,
    pub number: Option<String>,
    /// UTC timestamp.
    pub received_at: String,
}

/// The agency's trapped-person calls not resolved and not acknowledged,
/// oldest first.
pub fn alerts(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<AlertRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.reference, c.equipment_id, e.number, c.received_at
         FROM calls c JOIN equipment e ON e.id = c.equipment_id
         WHERE c.agency_id = ?1 AND c.type = 'personne_bloquee' AND c.status <> 'resolue'
           AND c.acknowledged_at IS NULL
         ORDER BY c.received_at, c.id",
    )?;
    let rows = stmt.query_map([agency_id.as_str()], |r| {
        Ok(AlertRow {
            id: r.get(0)?,
            reference: r.get(1)?,
            equipment_id: r.get(2)?,
            number: r.get(3)?,
            received_at: r.get(4)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The call `id` if it belongs to `agency_id`.
/// How many calls of the agency are not resolved yet.
pub fn open_count(conn: &Conn, agency_id: &AgencyId) -> StoreResult<i64> {
    conn.query_row_cached(
        "SELECT COUNT(*) FROM calls WHERE agency_id = ?1 AND status <> 'resolue'",
        [agency_id.as_str()],
        |r| r.get(0),
    )
}

pub fn get_in_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &CallId,
) -> StoreResult<Option<CallRow>> {
    let id = id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT c.id, c.reference, c.status, c.type, c.description, c.caller, c.received_at,
                    c.arrived_at, c.resolved_at, c.equipment_id, e.number, c.technician_id, t.name,
                    c.call_center_id, cc.name, c.report_cause, c.report_work, c.report_parts,
                    c.back_in_service_at, c.acknowledged_at
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
                status: code(r, 2)?,
                call_type: code(r, 3)?,
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
                report: report_at(r, 15)?,
                acknowledged_at: r.get(19)?,
            })
        },
    )
    .optional()
}

/// A call as its call center tracks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CenterCallRow {
    pub id: CallId,
    pub reference: String,
    pub status: CallStatus,
    pub arrived_at: Option<String>,
    pub resolved_at: Option<String>,
}

/// The call `reference` opened in `agency_id` by the call center
/// `call_center_id`.
pub fn get_by_center_reference(
    conn: &Conn,
    agency_id: &AgencyId,
    call_center_id: &str,
    reference: &str,
) -> StoreResult<Option<CenterCallRow>> {
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT id, reference, status, arrived_at, resolved_at FROM calls
             WHERE call_center_id = ?1 AND reference = ?2 AND agency_id = ?3",
        [call_center_id, reference, agency_id],
        center_call_row,
    )
    .optional()
}

/// A [`CenterCallRow`] from `id, reference, status, arrived_at, resolved_at`.
fn center_call_row(r: &crate::sql::Row<'_>) -> StoreResult<CenterCallRow> {
    center_call_row_at(r, 0)
}

/// A [`CenterCallRow`] from the columns [`center_call_row`] reads, from
/// column `at` on.
fn center_call_row_at(r: &crate::sql::Row<'_>, at: usize) -> StoreResult<CenterCallRow> {
    Ok(CenterCallRow {
        id: r.get(at)?,
        reference: r.get(at + 1)?,
        status: code(r, at + 2)?,
        arrived_at: r.get(at + 3)?,
        resolved_at: r.get(at + 4)?,
    })
}

/// A call sent by a call center, status `ouverte`, with the journal entry
/// of its opening. Owned: calls opened together on PostgreSQL are handed
/// to the store's intake thread (`Store::open_center_call`).
#[derive(Debug, Clone)]
pub struct NewCenterCall {
    pub id: CallId,
    pub agency_id: String,
    pub call_center_id: String,
    pub credential_id: CredentialId,
    pub reference: String,
    /// The equipment's number as the center gives it: the agency's
    /// equipment of that `number_key`.
    pub equipment_number: String,
    /// Wire code of `domain::call::CallType`.
    pub call_type: CallType,
    pub description: String,
    pub caller: Option<String>,
    pub received_at: String,
    pub now: String,
    /// Who opens it, as the journal names them.
    pub actor: Actor,
    /// The journal entry's detail, to which the store adds `equipment`:
    /// the id of the equipment found.
    pub journal_detail: Map<String, Json>,
}

/// What [`open_from_centers`] found and did for one call.
#[derive(Debug, Clone)]
pub struct CenterCallOpening {
    /// The agency's equipment of that number, archived or not (`None`:
    /// no such equipment).
    pub equipment: Option<EquipmentRow>,
    /// Whether the call was inserted.
    pub created: bool,
    /// The call inserted, as [`get_by_center_reference`] reads it; else the
    /// call this center already opened under that reference, when seen (on
    /// PostgreSQL, one committed while the statement ran is not).
    pub call: Option<CenterCallRow>,
    /// Whether the key was live (always, when the call was inserted).
    pub key_live: bool,
}

/// Opens each call, on the agency's equipment of that number (not
/// archived), unless its center already sent that reference or its key
/// (`credential_id`) is revoked: so that a key revoked since the request's
/// caller read it opens nothing. The UNIQUE index
/// `calls_reference_per_center` decides, so two requests racing on one
/// reference open one call. Each call opened gets its journal entry, in
/// the calls' order. One [`CenterCallOpening`] per call, in their order.
pub fn open_from_centers(tx: &Tx, calls: &[NewCenterCall]) -> StoreResult<Vec<CenterCallOpening>> {
    if tx.postgres().is_some() {
        return open_from_centers_postgres(tx, calls);
    }
    calls
        .iter()
        .map(|call| open_from_center_sqlite(tx, call))
        .collect()
}

/// [`open_from_centers`] of one call.
pub fn open_from_center(tx: &Tx, call: &NewCenterCall) -> StoreResult<CenterCallOpening> {
    open_from_centers(tx, std::slice::from_ref(call))?
        .pop()
        .ok_or(StoreError::NotFound)
}

/// [`open_from_centers`] of one call on SQLite: the equipment read, the
/// call inserted and read again, its journal entry.
fn open_from_center_sqlite(tx: &Tx, call: &NewCenterCall) -> StoreResult<CenterCallOpening> {
    let agency = AgencyId::new(call.agency_id.as_str());
    let equipment = equipment::find_by_number(tx, &agency, &call.equipment_number)?;
    let Some(usable) = equipment.as_ref().filter(|e| e.archived_at.is_none()) else {
        return Ok(CenterCallOpening {
            equipment,
            created: false,
            call: None,
            key_live: crate::credentials::is_live(tx, &call.credential_id)?,
        });
    };
    let inserted = tx.execute_cached(
        "INSERT INTO calls (id, agency_id, call_center_id, credential_id, reference, equipment_id,
                            type, description, caller, received_at, status, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'ouverte', ?11, ?11
         WHERE EXISTS (SELECT 1 FROM credentials WHERE id = ?4 AND revoked_at IS NULL)
         ON CONFLICT (call_center_id, reference) WHERE call_center_id IS NOT NULL DO NOTHING",
        params![
            call.id,
            call.agency_id,
            call.call_center_id,
            call.credential_id,
            call.reference,
            usable.id,
            Code(call.call_type),
            call.description,
            call.caller,
            call.received_at,
            call.now,
        ],
    )?;
    if inserted == 0 {
        return Ok(CenterCallOpening {
            created: false,
            call: get_by_center_reference(tx, &agency, &call.call_center_id, &call.reference)?,
            key_live: crate::credentials::is_live(tx, &call.credential_id)?,
            equipment,
        });
    }
    let (before, after) = journal_detail_around_equipment(call)?;
    let detail = format!("{before}{}{after}", Json::from(usable.id.as_str()));
    audit::record_text(
        tx,
        &call.now,
        Some(&call.agency_id),
        &call.actor,
        OPENING,
        Some(call.id.as_str()),
        Some(&detail),
    )?;
    // SQLite's RETURNING costs more than reading the row again (the
    // instruction-count gate: +6.5% per call).
    let call = get_by_center_reference(tx, &agency, &call.call_center_id, &call.reference)?;
    Ok(CenterCallOpening {
        equipment,
        created: true,
        call,
        key_live: true,
    })
}

/// The journal's action and object type of a call's opening.
const OPENING: (&str, &str) = ("ouverture", "call");

/// The text of a call's journal detail on either side of its equipment's
/// id, which the store writes (PostgreSQL finds the equipment in the
/// statement that writes the entry). The detail as serde_json writes it
/// with a mark for the equipment, cut at the mark: a key followed by `":"`
/// cannot occur inside a JSON string, where every quote is escaped.
fn journal_detail_around_equipment(call: &NewCenterCall) -> StoreResult<(String, String)> {
    const MARK: &str = "\"equipment\":\"\\u0000\"";
    let mut detail = call.journal_detail.clone();
    detail.insert("equipment".to_owned(), Json::from("\u{0}"));
    let text = Json::Object(detail).to_string();
    let (before, after) = text
        .split_once(MARK)
        .ok_or_else(|| StoreError::Encoding(format!("détail du journal sans appareil : {text}")))?;
    Ok((format!("{before}\"equipment\":"), after.to_owned()))
}

/// [`open_from_centers`] on PostgreSQL: every call in one statement (one
/// round trip, whatever their number). The calls are given as one JSON
/// array; each is looked up with its equipment, inserted (a data-modifying
/// `WITH`, which SQLite has not), its row returned and its journal entry
/// written, the equipment's id set into the entry's detail by PostgreSQL
/// (`to_json`, which writes an id as serde_json does).
fn open_from_centers_postgres(
    tx: &Tx,
    calls: &[NewCenterCall],
) -> StoreResult<Vec<CenterCallOpening>> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "WITH n AS MATERIALIZED (
                SELECT * FROM json_to_recordset(CAST(?1 AS JSON)) AS n(
                    ord BIGINT, id TEXT, agency_id TEXT, call_center_id TEXT, credential_id TEXT,
                    reference TEXT, number_key TEXT, type TEXT, description TEXT, caller TEXT,
                    received_at TEXT, now TEXT, actor_kind TEXT, actor_id TEXT,
                    detail_before TEXT, detail_after TEXT)
             ),
             c AS (
                INSERT INTO calls (id, agency_id, call_center_id, credential_id, reference,
                                   equipment_id, type, description, caller, received_at, status,
                                   created_at, updated_at)
                SELECT n.id, n.agency_id, n.call_center_id, n.credential_id, n.reference, q.id,
                       n.type, n.description, n.caller, n.received_at, 'ouverte', n.now, n.now
                FROM n JOIN equipment q
                  ON q.agency_id = n.agency_id AND q.number_key = n.number_key
                WHERE q.archived_at IS NULL
                  AND EXISTS (SELECT 1 FROM credentials k
                              WHERE k.id = n.credential_id AND k.revoked_at IS NULL)
                ORDER BY n.ord
                ON CONFLICT (call_center_id, reference) WHERE call_center_id IS NOT NULL DO NOTHING
                RETURNING id, reference, status, arrived_at, resolved_at, equipment_id
             ),
             j AS (
                INSERT INTO audit_log (at, agency_id, actor_kind, actor_id, action, object_type,
                                       object_id, detail)
                SELECT n.now, n.agency_id, n.actor_kind, n.actor_id, '{action}', '{object}', c.id,
                       n.detail_before || CAST(to_json(c.equipment_id) AS TEXT) || n.detail_after
                FROM c JOIN n ON n.id = c.id
                ORDER BY n.ord
             )
             SELECT {EQUIPMENT_COLUMNS}, coalesce(c.id, x.id), coalesce(c.reference, x.reference),
                    coalesce(c.status, x.status), coalesce(c.arrived_at, x.arrived_at),
                    coalesce(c.resolved_at, x.resolved_at), c.id IS NOT NULL,
                    EXISTS (SELECT 1 FROM credentials k
                            WHERE k.id = n.credential_id AND k.revoked_at IS NULL)
             FROM n
             LEFT JOIN ({EQUIPMENT_FROM})
               ON e.agency_id = n.agency_id AND e.number_key = n.number_key
             LEFT JOIN c ON c.id = n.id
             LEFT JOIN calls x
               ON c.id IS NULL AND x.call_center_id = n.call_center_id
              AND x.reference = n.reference AND x.agency_id = n.agency_id
             ORDER BY n.ord",
            action = OPENING.0,
            object = OPENING.1,
        )
    });
    let mut given = Vec::with_capacity(calls.len());
    for (ord, call) in calls.iter().enumerate() {
        let (actor_kind, actor_id) = call.actor.parts();
        let (detail_before, detail_after) = journal_detail_around_equipment(call)?;
        given.push(serde_json::json!({
            "ord": ord,
            "id": call.id.as_str(),
            "agency_id": call.agency_id,
            "call_center_id": call.call_center_id,
            "credential_id": call.credential_id.as_str(),
            "reference": call.reference,
            "number_key": equipment::number_key(&call.equipment_number),
            "type": call.call_type.as_str(),
            "description": call.description,
            "caller": call.caller,
            "received_at": call.received_at,
            "now": call.now,
            "actor_kind": actor_kind,
            "actor_id": actor_id,
            "detail_before": detail_before,
            "detail_after": detail_after,
        }));
    }
    let mut given = Json::Array(given);
    crate::pg::without_nul_in(&mut given);
    let given = given.to_string();
    let mut statement = tx.prepare_cached(&SQL)?;
    let rows = statement.query_map([given.as_str()], |r| {
        let at = EQUIPMENT_COLUMN_COUNT;
        let equipment_id: Option<EquipmentId> = r.get(0)?;
        let equipment = match equipment_id {
            Some(_) => Some(equipment_from_row(r)?),
            None => None,
        };
        let id: Option<CallId> = r.get(at)?;
        let call = match id {
            Some(_) => Some(center_call_row_at(r, at)?),
            None => None,
        };
        Ok(CenterCallOpening {
            equipment,
            created: r.get(at + 5)?,
            call,
            key_live: r.get(at + 6)?,
        })
    })?;
    let openings = rows.collect::<StoreResult<Vec<_>>>()?;
    if openings.len() != calls.len() {
        return Err(StoreError::Encoding(format!(
            "{} appels ouverts ensemble, {} réponses",
            calls.len(),
            openings.len()
        )));
    }
    Ok(openings)
}

/// A call taken at the agency by a staff member, status `ouverte`.
pub struct NewAgencyCall<'a> {
    pub id: &'a CallId,
    pub agency_id: &'a str,
    /// The staff member's account.
    pub created_by: &'a AccountId,
    pub reference: &'a str,
    pub equipment_id: &'a EquipmentId,
    /// Wire code of `domain::call::CallType`.
    pub call_type: CallType,
    pub description: &'a str,
    pub caller: Option<&'a str>,
    pub received_at: &'a str,
    pub now: &'a str,
}

/// Inserts a call taken at the agency (no call center, no key).
pub fn insert_at_agency(tx: &Tx, call: &NewAgencyCall<'_>) -> StoreResult<()> {
    tx.execute_cached(
        "INSERT INTO calls (id, agency_id, reference, equipment_id, type, description, caller,
                            received_at, status, created_by, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'ouverte', ?9, ?10, ?10)",
        params![
            call.id,
            call.agency_id,
            call.reference,
            call.equipment_id,
            Code(call.call_type),
            call.description,
            call.caller,
            call.received_at,
            call.created_by,
            call.now,
        ],
    )?;
    Ok(())
}

/// The next reference of a call taken at the agency in `year`:
/// `AG-<year>-<n>`, n on five digits, one more than the highest of the year.
pub fn next_agency_reference(tx: &Tx, agency_id: &AgencyId, year: &str) -> StoreResult<String> {
    let agency_id = agency_id.as_str();
    let prefix = format!("AG-{year}-");
    let highest: Option<i64> = tx.query_row_cached(
        "SELECT max(CAST(substr(reference, ?3) AS INTEGER)) FROM calls
         WHERE agency_id = ?1 AND call_center_id IS NULL AND reference LIKE ?2 || '%'
           AND substr(reference, ?3) GLOB '[0-9]*'",
        params![
            agency_id,
            prefix,
            i64::try_from(prefix.len() + 1).unwrap_or(i64::MAX)
        ],
        |r| r.get(0),
    )?;
    Ok(format!("{prefix}{:05}", highest.unwrap_or(0) + 1))
}

/// When a call was assigned, set off and left stopped (the latest time of
/// each), and who took it at the agency: the stamps the call row keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallStamps {
    pub assigned_at: Option<String>,
    pub en_route_at: Option<String>,
    pub stopped_at: Option<String>,
    /// Name (else email) of the staff member who took the call at the agency.
    pub created_by: Option<String>,
}

pub fn stamps(conn: &Conn, id: &CallId) -> StoreResult<CallStamps> {
    let id = id.as_str();
    Ok(conn
        .query_row_cached(
            "SELECT c.assigned_at, c.en_route_at, c.stopped_at, coalesce(a.name, a.email)
             FROM calls c LEFT JOIN accounts a ON a.id = c.created_by
             WHERE c.id = ?1",
            [id],
            |r| {
                Ok(CallStamps {
                    assigned_at: r.get(0)?,
                    en_route_at: r.get(1)?,
                    stopped_at: r.get(2)?,
                    created_by: r.get(3)?,
                })
            },
        )
        .optional()?
        .unwrap_or_default())
}

/// Assigns the technician. `assigned_at` moves only when the technician
/// changes.
pub fn set_technician(
    tx: &Tx,
    id: &CallId,
    technician_id: &TechnicianId,
    now: &str,
) -> StoreResult<()> {
    let id = id.as_str();
    let technician_id = technician_id.as_str();
    tx.execute_cached(
        "UPDATE calls SET
             assigned_at = CASE WHEN technician_id IS ?2 AND assigned_at IS NOT NULL
                                THEN assigned_at ELSE ?3 END,
             technician_id = ?2,
             updated_at = ?3
         WHERE id = ?1",
        params![id, technician_id, now],
    )?;
    Ok(())
}

/// A status change accepted by `domain::call::transition`, with its stamps.
pub struct StatusChange<'a> {
    pub id: &'a CallId,
    pub from: CallStatus,
    pub to: CallStatus,
    /// Sets `arrived_at` if it is still null (never moved once set).
    pub arrived: bool,
    /// Sets `resolved_at` if it is still null (never moved once set).
    pub resolved: bool,
    pub en_route: bool,
    pub stopped: bool,
    pub now: &'a str,
}

/// Applies the change if the call is still at `from`; true when applied.
pub fn set_status(tx: &Tx, change: &StatusChange<'_>) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE calls SET
             status = ?3,
             arrived_at = CASE WHEN ?4 THEN coalesce(arrived_at, ?8) ELSE arrived_at END,
             resolved_at = CASE WHEN ?5 THEN coalesce(resolved_at, ?8) ELSE resolved_at END,
             en_route_at = CASE WHEN ?6 THEN ?8 ELSE en_route_at END,
             stopped_at = CASE WHEN ?7 THEN ?8 ELSE stopped_at END,
             updated_at = ?8
         WHERE id = ?1 AND status = ?2",
        params![
            change.id,
            Code(change.from),
            Code(change.to),
            change.arrived,
            change.resolved,
            change.en_route,
            change.stopped,
            change.now,
        ],
    )?;
    Ok(changed == 1)
}

/// Which statuses a list keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusFilter {
    /// Every status.
    Any,
    /// Every status but `resolue`.
    NotResolved,
    /// One status (wire code of `domain::call::CallStatus`).
    Is(String),
}

/// What a list of calls keeps, besides the agency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListFilter {
    pub status: StatusFilter,
    /// Calls of this equipment only.
    pub equipment_id: Option<EquipmentId>,
    /// Resolved calls only if resolved at or after this UTC timestamp
    /// (unresolved calls are kept): the board's recent resolved calls.
    pub resolved_since: Option<String>,
    /// The oldest call first, after the trapped persons (the board's
    /// columns of calls still waiting: the longest wait on top, across
    /// pages); else the newest first.
    pub oldest_first: bool,
}

/// A call as listed: with its equipment's building and the technician.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallListRow {
    pub id: CallId,
    pub reference: String,
    pub status: CallStatus,
    pub call_type: CallType,
    pub caller: Option<String>,
    /// UTC timestamp.
    pub received_at: String,
    pub equipment_id: EquipmentId,
    pub equipment_number: Option<String>,
    pub building_id: Option<String>,
    pub building_name: Option<String>,
    /// Street address of the building.
    pub address: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub technician_id: Option<TechnicianId>,
    pub technician_name: Option<String>,
}

/// The first key of both orders below: a trapped person not yet freed
/// before every other call.
macro_rules! trapped_first {
    () => {
        "(c.status <> 'resolue' AND c.type = 'personne_bloquee') DESC"
    };
}

/// The listing order: a trapped person not yet freed first, then the
/// newest call first (`received_at`, then id, descending).
const LIST_ORDER: &str = concat!(trapped_first!(), ", c.received_at DESC, c.id DESC");
/// The board's order of waiting calls: a trapped person not yet freed
/// first, then the oldest call first.
const WAIT_ORDER: &str = concat!(trapped_first!(), ", c.received_at, c.id");

fn order_of(filter: &ListFilter) -> &'static str {
    if filter.oldest_first {
        WAIT_ORDER
    } else {
        LIST_ORDER
    }
}

const LIST_COLUMNS: &str =
    "c.id, c.reference, c.status, c.type, c.caller, c.received_at, c.equipment_id,
    e.number, b.name, b.address, b.postal_code, b.city, c.technician_id, t.name, e.building_id";

const LIST_JOINS: &str = "JOIN equipment e ON e.id = c.equipment_id
    LEFT JOIN buildings b ON b.id = e.building_id
    LEFT JOIN technicians t ON t.id = c.technician_id";

fn list_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<CallListRow> {
    Ok(CallListRow {
        id: r.get(0)?,
        reference: r.get(1)?,
        status: code(r, 2)?,
        call_type: code(r, 3)?,
        caller: r.get(4)?,
        received_at: r.get(5)?,
        equipment_id: r.get(6)?,
        equipment_number: r.get(7)?,
        building_name: r.get(8)?,
        address: r.get(9)?,
        postal_code: r.get(10)?,
        city: r.get(11)?,
        technician_id: r.get(12)?,
        technician_name: r.get(13)?,
        building_id: r.get(14)?,
    })
}

/// The WHERE clause on `calls c` and its values.
fn list_conditions(agency_id: &str, filter: &ListFilter) -> (String, Vec<Value>) {
    let mut conditions = vec!["c.agency_id = ?"];
    let mut values = vec![Value::Text(agency_id.to_owned())];
    match &filter.status {
        StatusFilter::Any => {}
        StatusFilter::NotResolved => conditions.push("c.status <> 'resolue'"),
        StatusFilter::Is(status) => {
            conditions.push("c.status = ?");
            values.push(Value::Text(status.clone()));
        }
    }
    if let Some(equipment_id) = &filter.equipment_id {
        conditions.push("c.equipment_id = ?");
        values.push(Value::Text(equipment_id.as_str().to_owned()));
    }
    if let Some(since) = &filter.resolved_since {
        conditions.push("(c.status <> 'resolue' OR c.resolved_at >= ?)");
        values.push(Value::Text(since.clone()));
    }
    (conditions.join(" AND "), values)
}

/// One page of the agency's calls kept by `filter`, in the listing order,
/// and how many calls it keeps in all. The page is chosen on `calls` alone,
/// then joined to its equipment, building and technician.
pub fn list_page(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &ListFilter,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<CallListRow>)> {
    let agency_id = agency_id.as_str();
    let (where_clause, values) = list_conditions(agency_id, filter);
    let total: i64 = conn.query_row_cached(
        &format!("SELECT COUNT(*) FROM calls c WHERE {where_clause}"),
        params_from_iter(values.iter()),
        |r| r.get(0),
    )?;
    if total == 0 {
        return Ok((0, Vec::new()));
    }
    let mut page_values = values;
    page_values.push(Value::Integer(i64::from(limit)));
    page_values.push(Value::Integer(i64::try_from(offset).unwrap_or(i64::MAX)));
    let order = order_of(filter);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {LIST_COLUMNS} FROM calls c {LIST_JOINS}
         WHERE c.id IN (SELECT c.id FROM calls c WHERE {where_clause}
                        ORDER BY {order} LIMIT ? OFFSET ?)
         ORDER BY {order}"
    ))?;
    let rows = stmt.query_map(params_from_iter(page_values.iter()), list_row)?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// Every call of the agency kept by `filter`, in the listing order (for a
/// search, which compares folded text outside SQL).
pub fn list_all(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &ListFilter,
) -> StoreResult<Vec<CallListRow>> {
    let agency_id = agency_id.as_str();
    let (where_clause, values) = list_conditions(agency_id, filter);
    let order = order_of(filter);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {LIST_COLUMNS} FROM calls c {LIST_JOINS}
         WHERE {where_clause}
         ORDER BY {order}"
    ))?;
    let rows = stmt.query_map(params_from_iter(values.iter()), list_row)?;
    rows.collect::<Result<_, _>>()
}

/// A call as the Equipment screen shows it (history, downtime, logbook).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquipmentCallRow {
    pub id: CallId,
    pub reference: String,
    pub call_type: CallType,
    pub status: CallStatus,
    pub description: String,
    pub caller: Option<String>,
    /// UTC timestamps.
    pub received_at: String,
    pub arrived_at: Option<String>,
    pub stopped_at: Option<String>,
    pub resolved_at: Option<String>,
    pub technician_name: Option<String>,
    /// Its closing report, when closed from the screens.
    pub report: Option<CallReport>,
}

const EQUIPMENT_CALL_COLUMNS: &str = "c.id, c.reference, c.type, c.status, c.description, c.caller,
     c.received_at, c.arrived_at, c.stopped_at, c.resolved_at, t.name, c.report_cause,
     c.report_work, c.report_parts, c.back_in_service_at";

fn equipment_call_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<EquipmentCallRow> {
    Ok(EquipmentCallRow {
        id: r.get(0)?,
        reference: r.get(1)?,
        call_type: code(r, 2)?,
        status: code(r, 3)?,
        description: r.get(4)?,
        caller: r.get(5)?,
        received_at: r.get(6)?,
        arrived_at: r.get(7)?,
        stopped_at: r.get(8)?,
        resolved_at: r.get(9)?,
        technician_name: r.get(10)?,
        report: report_at(r, 11)?,
    })
}

/// The equipment's calls received since `since` (UTC timestamp text) or
/// still not resolved, newest first, at most `limit`.
pub fn of_equipment_since(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    since: &str,
    limit: u32,
) -> StoreResult<Vec<EquipmentCallRow>> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_CALL_COLUMNS} FROM calls c LEFT JOIN technicians t ON t.id = c.technician_id
         WHERE c.equipment_id = ?1 AND c.agency_id = ?2
           AND (c.received_at >= ?3 OR c.resolved_at IS NULL OR c.resolved_at >= ?3)
         ORDER BY c.received_at DESC, c.id DESC LIMIT ?4"
    ))?;
    let rows = stmt.query_map(
        params![equipment_id, agency_id, since, limit],
        equipment_call_row,
    )?;
    rows.collect::<Result<_, _>>()
}

/// The equipment's latest calls (at most `limit`, newest first) and how many it has.
pub fn recent_of_equipment(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    limit: u32,
) -> StoreResult<(i64, Vec<EquipmentCallRow>)> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let total: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM calls WHERE equipment_id = ?1 AND agency_id = ?2",
        [equipment_id, agency_id],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_CALL_COLUMNS} FROM calls c LEFT JOIN technicians t ON t.id = c.technician_id
         WHERE c.equipment_id = ?1 AND c.agency_id = ?2
         ORDER BY c.received_at DESC, c.id DESC LIMIT ?3"
    ))?;
    let rows = stmt.query_map(params![equipment_id, agency_id, limit], equipment_call_row)?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}
