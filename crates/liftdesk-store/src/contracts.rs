//! Maintenance contracts, the lifts they cover and the values of the price
//! indexes (`contracts`, `contract_equipment`, `price_index_values`).

use std::collections::HashMap;

use liftdesk_domain::call::{CallStatus, CallType};
use liftdesk_domain::contract::{
    BillingFrequency, BillingTiming, ContractStatus, ContractType, PriceBasis,
};
use liftdesk_domain::id::{AgencyId, CallId, ClientId, ContractId, EquipmentId};

use super::{StoreResult, new_id};
use crate::sql::{OptionalExtension, Row, ToValue, params};
use crate::{Code, Conn, Tx, code};

/// Prefix of contract numbers: `CT-2026-00012`.
pub const NUMBER_PREFIX: &str = "CT";

/// What a contract says, as stored: everything a draft's edit replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractFields {
    pub client_id: ClientId,
    pub contract_type: ContractType,
    /// `YYYY-MM-DD`.
    pub start_on: String,
    pub duration_months: i64,
    pub tacit_renewal: bool,
    pub renewal_months: i64,
    pub notice_months: i64,
    pub price_basis: PriceBasis,
    pub annual_price_cents: i64,
    pub billing_frequency: BillingFrequency,
    pub billing_timing: BillingTiming,
    pub vat_rate_bp: i64,
    pub price_index: Option<String>,
    /// I0, in ten-thousandths.
    pub base_index_value: Option<i64>,
    /// The month I0 is of, `YYYY-MM`.
    pub base_index_month: Option<String>,
    pub visit_interval_days: i64,
    pub arrival_minutes: i64,
    pub arrival_out_of_hours_minutes: Option<i64>,
    pub trapped_minutes: i64,
    pub restore_minutes: i64,
    pub weekend_coverage: bool,
    pub on_call_coverage: bool,
    pub penalty_per_hour_cents: i64,
    pub notes: Option<String>,
}

/// A contract as stored, with its client's name and reference.
#[derive(Debug, Clone)]
pub struct ContractRow {
    pub id: ContractId,
    pub agency_id: String,
    pub number: String,
    pub status: ContractStatus,
    pub fields: ContractFields,
    pub client_name: String,
    pub client_ref: String,
    pub activated_at: Option<String>,
    pub notice_on: Option<String>,
    pub ends_on: Option<String>,
    pub termination_reason: Option<String>,
    pub ended_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// How many lifts it covers.
    pub lifts: i64,
    /// Whether its client is archived.
    pub client_archived: bool,
}

const COLUMNS: &str = "k.id, k.agency_id, k.number, k.status, k.client_id, k.type, k.start_on,
    k.duration_months, k.tacit_renewal, k.renewal_months, k.notice_months, k.price_basis,
    k.annual_price_cents, k.billing_frequency, k.billing_timing, k.vat_rate_bp, k.price_index,
    k.base_index_value, k.visit_interval_days, k.arrival_minutes,
    k.arrival_out_of_hours_minutes, k.trapped_minutes, k.restore_minutes, k.weekend_coverage,
    k.on_call_coverage, k.penalty_per_hour_cents, k.notes, c.nom, c.client_ref,
    k.activated_at, k.notice_on, k.ends_on, k.termination_reason, k.ended_at, k.created_at,
    k.updated_at,
    (SELECT COUNT(*) FROM contract_equipment ce WHERE ce.contract_id = k.id), c.supprime,
    k.base_index_month";

/// How many columns [`COLUMNS`] holds: what follows them starts there.
const CONTRACT_COLUMN_COUNT: usize = 39;

fn contract_row(r: &Row<'_>) -> StoreResult<ContractRow> {
    Ok(ContractRow {
        id: r.get(0)?,
        agency_id: r.get(1)?,
        number: r.get(2)?,
        status: code(r, 3)?,
        fields: ContractFields {
            client_id: r.get(4)?,
            contract_type: code(r, 5)?,
            start_on: r.get(6)?,
            duration_months: r.get(7)?,
            tacit_renewal: r.get(8)?,
            renewal_months: r.get(9)?,
            notice_months: r.get(10)?,
            price_basis: code(r, 11)?,
            annual_price_cents: r.get(12)?,
            billing_frequency: code(r, 13)?,
            billing_timing: code(r, 14)?,
            vat_rate_bp: r.get(15)?,
            price_index: r.get(16)?,
            base_index_value: r.get(17)?,
            base_index_month: r.get(38)?,
            visit_interval_days: r.get(18)?,
            arrival_minutes: r.get(19)?,
            arrival_out_of_hours_minutes: r.get(20)?,
            trapped_minutes: r.get(21)?,
            restore_minutes: r.get(22)?,
            weekend_coverage: r.get(23)?,
            on_call_coverage: r.get(24)?,
            penalty_per_hour_cents: r.get(25)?,
            notes: r.get(26)?,
        },
        client_name: r.get(27)?,
        client_ref: r.get(28)?,
        activated_at: r.get(29)?,
        notice_on: r.get(30)?,
        ends_on: r.get(31)?,
        termination_reason: r.get(32)?,
        ended_at: r.get(33)?,
        created_at: r.get(34)?,
        updated_at: r.get(35)?,
        lifts: r.get(36)?,
        client_archived: r.get(37)?,
    })
}

/// The contract `id` of the agency (None for an unknown id or another
/// agency's).
pub fn get(conn: &Conn, agency_id: &AgencyId, id: &ContractId) -> StoreResult<Option<ContractRow>> {
    conn.query_row_cached(
        &format!(
            "SELECT {COLUMNS} FROM contracts k JOIN clients c ON c.id = k.client_id
             WHERE k.id = ?1 AND k.agency_id = ?2"
        ),
        params![id, agency_id],
        contract_row,
    )
    .optional()
}

/// The agency's contracts a billing run from `from` (`YYYY-MM-DD`) reads:
/// in force, or ended on `from` or later (a period before their end may
/// still be unbilled), by number.
pub fn billable(conn: &Conn, agency_id: &AgencyId, from: &str) -> StoreResult<Vec<ContractRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM contracts k JOIN clients c ON c.id = k.client_id
         WHERE k.agency_id = ?1 AND k.status IN ('actif', 'resilie', 'echu')
           AND (k.ends_on IS NULL OR k.ends_on >= ?2)
         ORDER BY k.number"
    ))?;
    let rows = stmt.query_map(params![agency_id, from], contract_row)?;
    rows.collect()
}

/// The lifts of the agency's contracts `ids`, each contract's in its
/// order: what a run of invoices names on its invoices, and no more.
pub fn lifts_of_contracts(
    conn: &Conn,
    agency_id: &AgencyId,
    ids: &[&ContractId],
) -> StoreResult<HashMap<ContractId, Vec<EquipmentId>>> {
    let mut lifts: HashMap<ContractId, Vec<EquipmentId>> = HashMap::new();
    if ids.is_empty() {
        return Ok(lifts);
    }
    let list = serde_json::to_string(&ids.iter().map(|id| id.as_str()).collect::<Vec<_>>())?;
    let mut stmt = conn.prepare_cached(
        "SELECT ce.contract_id, ce.equipment_id FROM contract_equipment ce
         JOIN contracts k ON k.id = ce.contract_id
         WHERE k.agency_id = ?1 AND ce.contract_id IN (SELECT value FROM json_each(?2))
         ORDER BY ce.contract_id, ce.position",
    )?;
    let rows = stmt.query_map(params![agency_id, list], |r| {
        Ok((r.get::<ContractId>(0)?, r.get::<EquipmentId>(1)?))
    })?;
    for row in rows {
        let (contract, lift) = row?;
        lifts.entry(contract).or_default().push(lift);
    }
    Ok(lifts)
}

/// The next contract number of the agency for `year`, one after the
/// highest of that year (taken in the writing transaction, which holds the
/// agency's lock).
pub fn next_number(tx: &Tx, agency_id: &AgencyId, year: i32) -> StoreResult<String> {
    let pattern = format!("{NUMBER_PREFIX}-{year:04}-[0-9]*");
    let highest: i64 = tx.query_row_cached(
        "SELECT COALESCE(MAX(CAST(substr(number, 9) AS INTEGER)), 0) FROM contracts
         WHERE agency_id = ?1 AND number GLOB ?2",
        params![agency_id, pattern],
        |r| r.get(0),
    )?;
    Ok(format!("{NUMBER_PREFIX}-{year:04}-{:05}", highest + 1))
}

/// The columns of what a contract says ([`ContractFields`]), in the order
/// [`write_fields`] binds them.
const FIELD_COLUMNS: [&str; 25] = [
    "client_id",
    "type",
    "start_on",
    "duration_months",
    "tacit_renewal",
    "renewal_months",
    "notice_months",
    "price_basis",
    "annual_price_cents",
    "billing_frequency",
    "billing_timing",
    "vat_rate_bp",
    "price_index",
    "base_index_value",
    "base_index_month",
    "visit_interval_days",
    "arrival_minutes",
    "arrival_out_of_hours_minutes",
    "trapped_minutes",
    "restore_minutes",
    "weekend_coverage",
    "on_call_coverage",
    "penalty_per_hour_cents",
    "notes",
    "updated_at",
];

/// Runs `sql` with `head`, then the fields in the order of
/// [`FIELD_COLUMNS`] (the last, `updated_at`, being `at`).
fn write_fields(
    tx: &Tx,
    sql: &str,
    head: &[&dyn ToValue],
    fields: &ContractFields,
    at: &str,
) -> StoreResult<()> {
    let codes = (
        Code(fields.contract_type),
        Code(fields.price_basis),
        Code(fields.billing_frequency),
        Code(fields.billing_timing),
    );
    let values: [&dyn ToValue; FIELD_COLUMNS.len()] = [
        &fields.client_id,
        &codes.0,
        &fields.start_on,
        &fields.duration_months,
        &fields.tacit_renewal,
        &fields.renewal_months,
        &fields.notice_months,
        &codes.1,
        &fields.annual_price_cents,
        &codes.2,
        &codes.3,
        &fields.vat_rate_bp,
        &fields.price_index,
        &fields.base_index_value,
        &fields.base_index_month,
        &fields.visit_interval_days,
        &fields.arrival_minutes,
        &fields.arrival_out_of_hours_minutes,
        &fields.trapped_minutes,
        &fields.restore_minutes,
        &fields.weekend_coverage,
        &fields.on_call_coverage,
        &fields.penalty_per_hour_cents,
        &fields.notes,
        &at,
    ];
    let all: Vec<&dyn ToValue> = head.iter().copied().chain(values).collect();
    tx.execute_cached(sql, all.as_slice())?;
    Ok(())
}

/// Inserts a draft contract; returns its id.
pub fn insert(
    tx: &Tx,
    agency_id: &AgencyId,
    number: &str,
    fields: &ContractFields,
    at: &str,
) -> StoreResult<ContractId> {
    let id = ContractId::new(new_id());
    let placeholders: Vec<String> = (4..4 + FIELD_COLUMNS.len())
        .map(|n| format!("?{n}"))
        .collect();
    let sql = format!(
        "INSERT INTO contracts (id, agency_id, number, status, created_at, {})
         VALUES (?1, ?2, ?3, 'brouillon', ?{}, {})",
        FIELD_COLUMNS.join(", "),
        3 + FIELD_COLUMNS.len(),
        placeholders.join(", ")
    );
    write_fields(tx, &sql, params![id, agency_id, number], fields, at)?;
    Ok(id)
}

/// Replaces what a draft says (its caller checked it is a draft).
pub fn update(tx: &Tx, id: &ContractId, fields: &ContractFields, at: &str) -> StoreResult<()> {
    let assignments: Vec<String> = FIELD_COLUMNS
        .iter()
        .enumerate()
        .map(|(n, column)| format!("{column} = ?{}", n + 2))
        .collect();
    let sql = format!(
        "UPDATE contracts SET {} WHERE id = ?1",
        assignments.join(", ")
    );
    write_fields(tx, &sql, params![id], fields, at)
}

/// Deletes a draft and its lifts.
pub fn delete(tx: &Tx, id: &ContractId) -> StoreResult<()> {
    tx.execute_cached(
        "DELETE FROM contract_equipment WHERE contract_id = ?1",
        params![id],
    )?;
    tx.execute_cached("DELETE FROM contracts WHERE id = ?1", params![id])?;
    Ok(())
}

/// Replaces the lifts of a draft, in the order given.
pub fn set_lifts(tx: &Tx, id: &ContractId, lifts: &[EquipmentId]) -> StoreResult<()> {
    tx.execute_cached(
        "DELETE FROM contract_equipment WHERE contract_id = ?1",
        params![id],
    )?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO contract_equipment (contract_id, equipment_id, position, in_force)
         VALUES (?1, ?2, ?3, 0)",
    )?;
    for (position, lift) in lifts.iter().enumerate() {
        insert.execute(params![
            id,
            lift,
            i64::try_from(position).unwrap_or(i64::MAX)
        ])?;
    }
    Ok(())
}

/// A lift of a contract.
#[derive(Debug, Clone)]
pub struct ContractLiftRow {
    pub equipment_id: EquipmentId,
    pub number: Option<String>,
    pub location: Option<String>,
    pub building_name: Option<String>,
    pub archived: bool,
}

/// The lifts of a contract, in their order.
pub fn lifts(conn: &Conn, id: &ContractId) -> StoreResult<Vec<ContractLiftRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT e.id, e.number, e.location, b.name, e.archived_at IS NOT NULL
         FROM contract_equipment ce JOIN equipment e ON e.id = ce.equipment_id
         LEFT JOIN buildings b ON b.id = e.building_id
         WHERE ce.contract_id = ?1 ORDER BY ce.position",
    )?;
    let rows = stmt.query_map(params![id], |r| {
        Ok(ContractLiftRow {
            equipment_id: r.get(0)?,
            number: r.get(1)?,
            location: r.get(2)?,
            building_name: r.get(3)?,
            archived: r.get(4)?,
        })
    })?;
    rows.collect()
}

/// A lift of the agency as a contract names it: its client and whether it
/// is archived.
#[derive(Debug, Clone)]
pub struct LiftRef {
    pub id: EquipmentId,
    pub number: Option<String>,
    pub client_id: Option<ClientId>,
    pub archived: bool,
}

/// The equipment `id` when it belongs to the agency.
pub fn find_lift(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &EquipmentId,
) -> StoreResult<Option<LiftRef>> {
    conn.query_row_cached(
        "SELECT id, number, client_id, archived_at IS NOT NULL FROM equipment
         WHERE id = ?1 AND agency_id = ?2",
        params![id, agency_id],
        |r| {
            Ok(LiftRef {
                id: r.get(0)?,
                number: r.get(1)?,
                client_id: r.get(2)?,
                archived: r.get(3)?,
            })
        },
    )
    .optional()
}

/// Another contract covering a lift at a time that meets a new coverage.
#[derive(Debug, Clone)]
pub struct Overlap {
    pub equipment_number: Option<String>,
    pub contract_number: String,
    pub status: ContractStatus,
    pub ends_on: Option<String>,
}

/// The other contracts holding one of the lifts of `id` that `which`
/// keeps (an SQL condition on their row `k`; `?2` is `from`, when given),
/// the first ones by lift order.
fn overlapping(
    conn: &Conn,
    id: &ContractId,
    which: &str,
    from: Option<&str>,
) -> StoreResult<Vec<Overlap>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT e.number, k.number, k.status, k.ends_on
         FROM contract_equipment mine
         JOIN contract_equipment other ON other.equipment_id = mine.equipment_id
              AND other.contract_id <> mine.contract_id
         JOIN contracts k ON k.id = other.contract_id
         JOIN equipment e ON e.id = mine.equipment_id
         WHERE mine.contract_id = ?1 AND ({which})
         ORDER BY mine.position, k.number LIMIT 20"
    ))?;
    let args: Vec<&dyn ToValue> = match &from {
        Some(day) => vec![id, day],
        None => vec![id],
    };
    let rows = stmt.query_map(args.as_slice(), |r| {
        Ok(Overlap {
            equipment_number: r.get(0)?,
            contract_number: r.get(1)?,
            status: code(r, 2)?,
            ends_on: r.get(3)?,
        })
    })?;
    rows.collect()
}

/// The other contracts covering one of the lifts of `id` on or after
/// `from` (`YYYY-MM-DD`): those in force, and those terminated whose last
/// day is not before `from`. The first ones, by lift order.
pub fn overlaps(conn: &Conn, id: &ContractId, from: &str) -> StoreResult<Vec<Overlap>> {
    overlapping(
        conn,
        id,
        "k.status = 'actif' OR (k.status = 'resilie' AND k.ends_on >= ?2)",
        Some(from),
    )
}

/// The other drafts that hold a lift of the contract `id` (an import
/// brings each lift's one contract), in the order of its lifts.
pub fn draft_overlaps(conn: &Conn, id: &ContractId) -> StoreResult<Vec<Overlap>> {
    overlapping(conn, id, "k.status = 'brouillon'", None)
}

/// Puts a draft in force: its status, and its lifts marked in force, given
/// its number and their visit interval (the maintenance plan's), their plan
/// starting on its start when it had no start yet.
pub fn activate(tx: &Tx, row: &ContractRow, at: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE contracts SET status = 'actif', activated_at = ?2, updated_at = ?2 WHERE id = ?1",
        params![row.id, at],
    )?;
    tx.execute_cached(
        "UPDATE contract_equipment SET in_force = 1 WHERE contract_id = ?1",
        params![row.id],
    )?;
    tx.execute_cached(
        "UPDATE equipment SET contract_number = ?2, maintenance_contract = 'parc',
             visit_interval_days = ?3, plan_start_on = COALESCE(plan_start_on, ?5),
             updated_at = ?4
         WHERE id IN (SELECT equipment_id FROM contract_equipment WHERE contract_id = ?1)",
        params![
            row.id,
            row.number,
            row.fields.visit_interval_days,
            at,
            row.fields.start_on
        ],
    )?;
    Ok(())
}

/// Ends a contract in force: `resilie` with its notice, last day and
/// reason, or `echu` on its last day. Its lifts are no longer in force (a
/// terminated contract still covers them up to its last day:
/// [`overlaps`] sees it).
pub fn end(
    tx: &Tx,
    id: &ContractId,
    status: ContractStatus,
    notice_on: Option<&str>,
    ends_on: &str,
    reason: Option<&str>,
    at: &str,
) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE contracts SET status = ?2, notice_on = ?3, ends_on = ?4, termination_reason = ?5,
             ended_at = ?6, updated_at = ?6
         WHERE id = ?1",
        params![id, Code(status), notice_on, ends_on, reason, at],
    )?;
    tx.execute_cached(
        "UPDATE contract_equipment SET in_force = 0 WHERE contract_id = ?1",
        params![id],
    )?;
    Ok(())
}

/// A contract ended before a day, and the lifts it leaves in the park
/// (`parc`, under its number, in force under no other contract).
#[derive(Debug, Clone)]
pub struct EndedCoverage {
    pub agency_id: AgencyId,
    pub contract_id: ContractId,
    pub number: String,
    pub ends_on: String,
    pub lifts: Vec<EquipmentId>,
}

/// The contracts terminated or expired whose last day is before `today`
/// (`YYYY-MM-DD`) and that still leave lifts in the park: of one agency, or
/// of every agency (the server's task).
pub fn ended_coverage(
    conn: &Conn,
    today: &str,
    agency_id: Option<&AgencyId>,
) -> StoreResult<Vec<EndedCoverage>> {
    let mut stmt = conn.prepare_cached(
        "SELECT k.agency_id, k.id, k.number, k.ends_on, e.id
         FROM contracts k
         JOIN contract_equipment ce ON ce.contract_id = k.id
         JOIN equipment e ON e.id = ce.equipment_id
         WHERE k.status IN ('resilie', 'echu') AND k.ends_on < ?1
           AND (?2 IS NULL OR k.agency_id = ?2)
           AND e.maintenance_contract = 'parc' AND e.contract_number = k.number
           AND NOT EXISTS (SELECT 1 FROM contract_equipment o
                           WHERE o.equipment_id = e.id AND o.in_force = 1)
         ORDER BY k.agency_id, k.number, ce.position",
    )?;
    let rows = stmt.query_map(params![today, agency_id], |r| {
        Ok((
            r.get::<AgencyId>(0)?,
            r.get::<ContractId>(1)?,
            r.get::<String>(2)?,
            r.get::<String>(3)?,
            r.get::<EquipmentId>(4)?,
        ))
    })?;
    let mut ended: Vec<EndedCoverage> = Vec::new();
    for row in rows {
        let (agency_id, contract_id, number, ends_on, lift) = row?;
        match ended.last_mut() {
            Some(last) if last.contract_id == contract_id => last.lifts.push(lift),
            _ => ended.push(EndedCoverage {
                agency_id,
                contract_id,
                number,
                ends_on,
                lifts: vec![lift],
            }),
        }
    }
    Ok(ended)
}

/// Takes lifts out of the park (`hors_parc`): their contract ended. Their
/// last contract's number stays.
pub fn leave_park(tx: &Tx, lifts: &[EquipmentId], at: &str) -> StoreResult<()> {
    let mut update = tx.prepare_cached(
        "UPDATE equipment SET maintenance_contract = 'hors_parc', updated_at = ?2 WHERE id = ?1",
    )?;
    for lift in lifts {
        update.execute(params![lift, at])?;
    }
    Ok(())
}

/// Filters of the contracts' list.
#[derive(Debug, Clone, Default)]
pub struct ContractFilter {
    pub status: Option<ContractStatus>,
    /// The client's reference (`client_ref`).
    pub client_ref: Option<String>,
    /// A lift the contract covers.
    pub equipment_id: Option<EquipmentId>,
    /// A fragment of the number or the client's name, folded
    /// (`text::fold`: accents and case ignored).
    pub text: Option<String>,
}

/// The agency's contracts, newest number first: the total and one page.
pub fn list(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &ContractFilter,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<ContractRow>)> {
    const WHERE: &str = "k.agency_id = ?1 AND (?2 IS NULL OR k.status = ?2)
         AND (?3 IS NULL OR c.client_ref = ?3)
         AND (?4 IS NULL OR k.id IN (SELECT contract_id FROM contract_equipment WHERE equipment_id = ?4))
         AND (?5 IS NULL OR instr(FOLD(k.number), ?5) > 0 OR instr(FOLD(c.nom), ?5) > 0)";
    let status = filter.status.map(Code);
    let text = filter.text.as_deref().map(crate::text::fold);
    let total: i64 = conn.query_row_cached(
        &format!(
            "SELECT COUNT(*) FROM contracts k JOIN clients c ON c.id = k.client_id WHERE {WHERE}"
        ),
        params![
            agency_id,
            status,
            filter.client_ref,
            filter.equipment_id,
            text
        ],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM contracts k JOIN clients c ON c.id = k.client_id
         WHERE {WHERE} ORDER BY k.number DESC LIMIT ?6 OFFSET ?7"
    ))?;
    let rows = stmt.query_map(
        params![
            agency_id,
            status,
            filter.client_ref,
            filter.equipment_id,
            text,
            i64::from(limit),
            i64::try_from(offset).unwrap_or(i64::MAX)
        ],
        contract_row,
    )?;
    Ok((total, rows.collect::<StoreResult<_>>()?))
}

// ---------------------------------------------------------------------------
// Price index values
// ---------------------------------------------------------------------------

/// A value of a price index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexValueRow {
    pub index_code: String,
    /// `YYYY-MM`.
    pub month: String,
    /// In ten-thousandths.
    pub value: i64,
    pub recorded_at: String,
}

/// Records the value of `index_code` for `month`, replacing the one
/// recorded before; returns the value replaced.
pub fn record_index_value(
    tx: &Tx,
    agency_id: &AgencyId,
    index_code: &str,
    month: &str,
    value: i64,
    at: &str,
) -> StoreResult<Option<i64>> {
    let before: Option<i64> = tx
        .query_row_cached(
            "SELECT value FROM price_index_values
             WHERE agency_id = ?1 AND index_code = ?2 AND month = ?3",
            params![agency_id, index_code, month],
            |r| r.get(0),
        )
        .optional()?;
    if before.is_some() {
        tx.execute_cached(
            "UPDATE price_index_values SET value = ?4, recorded_at = ?5
             WHERE agency_id = ?1 AND index_code = ?2 AND month = ?3",
            params![agency_id, index_code, month, value, at],
        )?;
    } else {
        tx.execute_cached(
            "INSERT INTO price_index_values (agency_id, index_code, month, value, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![agency_id, index_code, month, value, at],
        )?;
    }
    Ok(before)
}

fn index_value_row(r: &Row<'_>) -> StoreResult<IndexValueRow> {
    Ok(IndexValueRow {
        index_code: r.get(0)?,
        month: r.get(1)?,
        value: r.get(2)?,
        recorded_at: r.get(3)?,
    })
}

/// The agency's index values, by index then newest month first (an index
/// alone when `index_code` is given).
pub fn index_values(
    conn: &Conn,
    agency_id: &AgencyId,
    index_code: Option<&str>,
) -> StoreResult<Vec<IndexValueRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT index_code, month, value, recorded_at FROM price_index_values
         WHERE agency_id = ?1 AND (?2 IS NULL OR index_code = ?2)
         ORDER BY index_code, month DESC",
    )?;
    let rows = stmt.query_map(params![agency_id, index_code], index_value_row)?;
    rows.collect()
}

/// A call on a lift of a contract, as its response-time report reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractCallRow {
    pub id: CallId,
    pub reference: String,
    pub call_type: CallType,
    pub status: CallStatus,
    pub equipment_id: EquipmentId,
    pub number: Option<String>,
    /// UTC timestamps.
    pub received_at: String,
    pub arrived_at: Option<String>,
    pub resolved_at: Option<String>,
    pub back_in_service_at: Option<String>,
    /// The closing report's cause.
    pub cause: Option<String>,
}

/// The columns of a [`ContractCallRow`] (`x`: the call, `e`: its lift).
const CALL_COLUMNS: &str = "x.id, x.reference, x.type, x.status, x.equipment_id, e.number,
    x.received_at, x.arrived_at, x.resolved_at, x.back_in_service_at, x.report_cause";

/// A [`ContractCallRow`] read from [`CALL_COLUMNS`] at `at`.
fn call_row(r: &Row<'_>, at: usize) -> StoreResult<ContractCallRow> {
    Ok(ContractCallRow {
        id: r.get(at)?,
        reference: r.get(at + 1)?,
        call_type: code(r, at + 2)?,
        status: code(r, at + 3)?,
        equipment_id: r.get(at + 4)?,
        number: r.get(at + 5)?,
        received_at: r.get(at + 6)?,
        arrived_at: r.get(at + 7)?,
        resolved_at: r.get(at + 8)?,
        back_in_service_at: r.get(at + 9)?,
        cause: r.get(at + 10)?,
    })
}

/// The calls on the lifts of the contract `id` received from `from` to
/// before `until` (UTC timestamps), oldest first.
pub fn calls_of(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &ContractId,
    from: &str,
    until: &str,
) -> StoreResult<Vec<ContractCallRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {CALL_COLUMNS}
           FROM calls x
           JOIN contract_equipment ce ON ce.equipment_id = x.equipment_id AND ce.contract_id = ?2
           JOIN equipment e ON e.id = x.equipment_id
          WHERE x.agency_id = ?1 AND x.received_at >= ?3 AND x.received_at < ?4
          ORDER BY x.received_at, x.id"
    ))?;
    stmt.query_map(params![agency_id, id, from, until], |r| call_row(r, 0))?
        .collect()
}

/// The calls `ids` of the agency, each with every contract that ever took
/// its lift in (`actif`, `resilie`, `echu`; the most recent start first;
/// whether one covered the call's day is the caller's): the board's
/// commitments in one query. A call
/// on a lift no contract took in is left out; so is an id of no call of
/// the agency.
pub fn calls_with_contracts(
    conn: &Conn,
    agency_id: &AgencyId,
    ids: &[CallId],
) -> StoreResult<Vec<(ContractCallRow, ContractRow)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = serde_json::to_string(&ids.iter().map(CallId::as_str).collect::<Vec<_>>())?;
    // The contract's columns first: `contract_row` reads them from 0.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS}, {CALL_COLUMNS}
           FROM calls x
           JOIN equipment e ON e.id = x.equipment_id
           JOIN contract_equipment ce ON ce.equipment_id = x.equipment_id
           JOIN contracts k ON k.id = ce.contract_id
           JOIN clients c ON c.id = k.client_id
          WHERE x.agency_id = ?1 AND k.agency_id = ?1
            AND x.id IN (SELECT value FROM json_each(?2))
            AND k.status IN ('actif', 'resilie', 'echu')
          ORDER BY x.id, k.start_on DESC, k.id"
    ))?;
    stmt.query_map(params![agency_id, list], |r| {
        Ok((call_row(r, CONTRACT_COLUMN_COUNT)?, contract_row(r)?))
    })?
    .collect()
}

/// A visit done on a lift of a contract, with one duty done at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoneVisitRow {
    pub equipment_id: EquipmentId,
    /// `YYYY-MM-DD`.
    pub done_on: String,
    pub visit_id: String,
    pub duty: Option<liftdesk_domain::contract::Duty>,
}

/// The visits done on the lifts of the contract `id` from `from` to `to`
/// (`YYYY-MM-DD`, inclusive), oldest first: once per duty done at it (with
/// it), or once without.
pub fn visits_done_of(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &ContractId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<DoneVisitRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT v.equipment_id, v.done_on, v.id, vd.duty FROM visits v
           JOIN contract_equipment ce ON ce.equipment_id = v.equipment_id AND ce.contract_id = ?2
           LEFT JOIN visit_duties vd ON vd.visit_id = v.id
          WHERE v.agency_id = ?1 AND v.done_on >= ?3 AND v.done_on <= ?4
          ORDER BY v.done_on, v.id",
    )?;
    stmt.query_map(params![agency_id, id, from, to], |r| {
        Ok(DoneVisitRow {
            equipment_id: r.get(0)?,
            done_on: r.get(1)?,
            visit_id: r.get(2)?,
            duty: r
                .get::<Option<Code<liftdesk_domain::contract::Duty>>>(3)?
                .map(|Code(duty)| duty),
        })
    })?
    .collect()
}
