//! The periodic duties of the lifts under a contract in force (V29): which
//! ones a completed visit did (`visit_duties`), the last day each was done
//! on a lift (`equipment_duties`, kept in the completion's transaction),
//! and what the planning and its proposal read to give each duty its
//! deadline (`domain::contract::Duty::deadline`).

use std::collections::HashMap;

use crate::code::{Code, code};
use crate::sql::params;
use crate::{Conn, StoreResult, Tx};
use liftdesk_domain::contract::Duty;
use liftdesk_domain::id::{AgencyId, EquipmentId, VisitId};

/// Records the duties done at the visit `visit_id` of `equipment_id`,
/// completed on `done_on` (`YYYY-MM-DD`): each its row of the visit, and
/// the lift's last day for it (a later day already recorded stays).
pub fn record_done(
    tx: &Tx,
    visit_id: &VisitId,
    equipment_id: &EquipmentId,
    done_on: &str,
    duties: &[Duty],
) -> StoreResult<()> {
    for duty in duties {
        tx.execute_cached(
            "INSERT INTO visit_duties (visit_id, duty) VALUES (?1, ?2)",
            params![visit_id, Code(*duty)],
        )?;
        tx.execute_cached(
            "INSERT INTO equipment_duties (equipment_id, duty, last_done_on, visit_id)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (equipment_id, duty) DO UPDATE
                SET last_done_on = excluded.last_done_on, visit_id = excluded.visit_id
              WHERE excluded.last_done_on >= equipment_duties.last_done_on",
            params![equipment_id, Code(*duty), done_on, visit_id],
        )?;
    }
    Ok(())
}

fn ordered(mut duties: Vec<Duty>) -> Vec<Duty> {
    duties.sort_by_key(|d| Duty::ALL.iter().position(|x| x == d));
    duties
}

/// A lift under a contract in force, as its duties' deadlines need it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DutyLift {
    /// `YYYY-MM-DD`: the start of its plan (its creation day when none).
    pub plan_start_on: String,
    /// `YYYY-MM-DD`: the start of the contract in force.
    pub contract_start_on: String,
    pub visit_interval_days: i64,
    /// The last day each duty was done, for those ever done.
    pub last_done: Vec<(Duty, String)>,
}

/// What a query of lifts under a contract in force selects after its key:
/// the lift's plan start, its interval, its contract's start, then one of
/// its duties done and its last day (none: NULLs), read by [`gather`]. The
/// query names the lift `e`, its contract `k` and its duties `ed`.
const LIFT_COLUMNS: &str = "coalesce(e.plan_start_on, substr(e.created_at, 1, 10)), \
     e.visit_interval_days, k.start_on, ed.duty, ed.last_done_on";

/// The lifts of `sql`'s rows (its key in the first `keys` columns, read by
/// `key`, then [`LIFT_COLUMNS`]), one per key with every duty done.
fn gather<K: std::hash::Hash + Eq>(
    conn: &Conn,
    sql: &str,
    params: &[&dyn crate::sql::ToValue],
    keys: usize,
    key: impl Fn(&crate::sql::Row<'_>) -> StoreResult<K>,
) -> StoreResult<HashMap<K, DutyLift>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, |r| {
        Ok((
            key(r)?,
            DutyLift {
                plan_start_on: r.get(keys)?,
                visit_interval_days: r.get(keys + 1)?,
                contract_start_on: r.get(keys + 2)?,
                last_done: Vec::new(),
            },
            r.get::<Option<Code<Duty>>>(keys + 3)?,
            r.get::<Option<String>>(keys + 4)?,
        ))
    })?;
    let mut lifts: HashMap<K, DutyLift> = HashMap::new();
    for row in rows {
        let (key, fresh, duty, last) = row?;
        let lift = lifts.entry(key).or_insert(fresh);
        if let (Some(Code(duty)), Some(last)) = (duty, last) {
            lift.last_done.push((duty, last));
        }
    }
    Ok(lifts)
}

/// The agency's lifts under a contract in force (the weekly proposal).
pub fn lifts_in_force(
    conn: &Conn,
    agency_id: &AgencyId,
) -> StoreResult<HashMap<EquipmentId, DutyLift>> {
    gather(
        conn,
        &format!(
            "SELECT e.id, {LIFT_COLUMNS}
               FROM equipment e
               JOIN contract_equipment ce ON ce.equipment_id = e.id AND ce.in_force = 1
               JOIN contracts k ON k.id = ce.contract_id
               LEFT JOIN equipment_duties ed ON ed.equipment_id = e.id
              WHERE e.agency_id = ?1"
        ),
        params![agency_id],
        1,
        |r| r.get(0),
    )
}

/// The agency's visits not done planned from `from` to `to` (`YYYY-MM-DD`,
/// inclusive) of lifts under a contract in force: each with its day and
/// its lift (the planning screen's duties).
pub fn planned_between(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<HashMap<VisitId, (String, DutyLift)>> {
    let visits = gather(
        conn,
        &format!(
            "SELECT v.id, v.planned_for, {LIFT_COLUMNS}
               FROM visits v
               JOIN contract_equipment ce ON ce.equipment_id = v.equipment_id AND ce.in_force = 1
               JOIN contracts k ON k.id = ce.contract_id
               JOIN equipment e ON e.id = v.equipment_id
               LEFT JOIN equipment_duties ed ON ed.equipment_id = v.equipment_id
              WHERE v.agency_id = ?1 AND v.planned_for >= ?2 AND v.planned_for <= ?3
                AND v.done_on IS NULL"
        ),
        params![agency_id, from, to],
        2,
        |r| Ok((r.get::<VisitId>(0)?, r.get::<String>(1)?)),
    )?;
    Ok(visits
        .into_iter()
        .map(|((id, day), lift)| (id, (day, lift)))
        .collect())
}

/// The duties done at the agency's visits completed from `from` to `to`
/// (`YYYY-MM-DD`, inclusive), by visit.
pub fn done_between(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<HashMap<VisitId, Vec<Duty>>> {
    let mut stmt = conn.prepare_cached(
        "SELECT vd.visit_id, vd.duty FROM visit_duties vd JOIN visits v ON v.id = vd.visit_id
          WHERE v.agency_id = ?1 AND v.done_on >= ?2 AND v.done_on <= ?3",
    )?;
    let mut done: HashMap<VisitId, Vec<Duty>> = HashMap::new();
    let rows = stmt.query_map([agency_id.as_str(), from, to], |r| {
        Ok((r.get::<VisitId>(0)?, code::<Duty>(r, 1)?))
    })?;
    for row in rows {
        let (visit, duty) = row?;
        done.entry(visit).or_default().push(duty);
    }
    for duties in done.values_mut() {
        *duties = ordered(std::mem::take(duties));
    }
    Ok(done)
}

/// The agency's visits done on lifts under a contract in force, by lift
/// then day: (visit, lift, `YYYY-MM-DD` done on).
pub fn done_visits_in_force(
    conn: &Conn,
    agency_id: &AgencyId,
) -> StoreResult<Vec<(VisitId, EquipmentId, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT v.id, v.equipment_id, v.done_on FROM visits v
           JOIN contract_equipment ce ON ce.equipment_id = v.equipment_id AND ce.in_force = 1
          WHERE v.agency_id = ?1 AND v.done_on IS NOT NULL
          ORDER BY v.equipment_id, v.done_on, v.id",
    )?;
    stmt.query_map([agency_id.as_str()], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?
    .collect()
}

/// Records the duties done at many visits at once (a demo's history):
/// each (visit, lift, `YYYY-MM-DD` done on, duty), a lift's in the order
/// done; each lift's last day per duty is the latest given. On lifts with
/// no duty recorded yet.
pub fn record_history(tx: &Tx, done: &[(VisitId, EquipmentId, String, Duty)]) -> StoreResult<()> {
    let mut visits = Vec::with_capacity(done.len() * 2);
    let mut last: HashMap<(&EquipmentId, &'static str), (&str, &VisitId)> = HashMap::new();
    for (visit, lift, on, duty) in done {
        visits.extend([visit.as_str(), duty.as_str()]);
        let entry = last
            .entry((lift, duty.as_str()))
            .or_insert((on.as_str(), visit));
        if on.as_str() >= entry.0 {
            *entry = (on.as_str(), visit);
        }
    }
    tx.insert_rows(
        "INSERT INTO visit_duties (visit_id, duty)",
        2,
        &visits,
        false,
    )?;
    let mut lifts: Vec<_> = last.into_iter().collect();
    lifts.sort();
    let mut rows = Vec::with_capacity(lifts.len() * 4);
    for ((lift, duty), (on, visit)) in &lifts {
        rows.extend([lift.as_str(), duty, on, visit.as_str()]);
    }
    tx.insert_rows(
        "INSERT INTO equipment_duties (equipment_id, duty, last_done_on, visit_id)",
        4,
        &rows,
        false,
    )
}

/// The lift `equipment_id` of the agency under a contract in force, as its
/// duties' deadlines need it; None when no contract covers it now.
pub fn lift_of(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<DutyLift>> {
    Ok(gather(
        conn,
        &format!(
            "SELECT e.id, {LIFT_COLUMNS}
               FROM equipment e
               JOIN contract_equipment ce ON ce.equipment_id = e.id AND ce.in_force = 1
               JOIN contracts k ON k.id = ce.contract_id
               LEFT JOIN equipment_duties ed ON ed.equipment_id = e.id
              WHERE e.agency_id = ?1 AND e.id = ?2"
        ),
        params![agency_id, equipment_id],
        1,
        |r| r.get::<EquipmentId>(0),
    )?
    .into_values()
    .next())
}

/// The duties done at the agency's visit `id`, in the duties' order.
pub fn done_at(conn: &Conn, agency_id: &AgencyId, id: &VisitId) -> StoreResult<Vec<Duty>> {
    let mut stmt = conn.prepare_cached(
        "SELECT vd.duty FROM visit_duties vd JOIN visits v ON v.id = vd.visit_id
          WHERE v.agency_id = ?1 AND vd.visit_id = ?2",
    )?;
    let done: Vec<Duty> = stmt
        .query_map(params![agency_id, id], |r| code(r, 0))?
        .collect::<StoreResult<_>>()?;
    Ok(ordered(done))
}
