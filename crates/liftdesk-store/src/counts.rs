//! What the triggers keep, counted as rows are written: the invoices per
//! agency, status and creation day, and per client (the invoice list's
//! total and its far pages), and each lift's number of technical fields
//! filled (`equipment.surveyed_fields`). Here: the recount that checks
//! them (`wrong`: `migrate --to` refuses a copy whose counts are wrong,
//! the tests check them after a bulk load), and, on PostgreSQL, a bulk
//! load with the triggers off and the counts rebuilt once at its end
//! (`counted_at_the_end`): in one transaction the triggers made such a
//! load quadratic (every invoice updates the same few counter rows again,
//! each update stepping over every earlier version of the row). And, on
//! both engines, a write of many new invoices whose counts are added once,
//! grouped (`invoices_counted_once`: « Facturer les contrats »).

use std::collections::BTreeMap;

use crate::sql::params;
use crate::{Conn, StoreResult, Tx};

/// The counts, each with the query that recounts it: how many of its
/// counts differ from the recount (missing or extra included; counts of 0
/// left out: a count back to 0 may stay as a row).
const RECOUNTS: [(&str, &str); 5] = [
    (
        "invoice_day_counts",
        "SELECT count(*) FROM (SELECT agency_id, status, created_on, n FROM invoice_day_counts WHERE n <> 0) AS kept
           FULL JOIN (SELECT agency_id, status, created_on, count(*) AS n FROM invoices
                       GROUP BY agency_id, status, created_on) AS recounted
             ON recounted.agency_id = kept.agency_id AND recounted.status = kept.status AND recounted.created_on = kept.created_on
          WHERE kept.n IS NOT recounted.n",
    ),
    (
        "invoice_client_day_counts",
        "SELECT count(*) FROM (SELECT agency_id, client_id, status, created_on, n FROM invoice_client_day_counts WHERE n <> 0) AS kept
           FULL JOIN (SELECT agency_id, client_id, status, created_on, count(*) AS n FROM invoices WHERE client_id IS NOT NULL
                       GROUP BY agency_id, client_id, status, created_on) AS recounted
             ON recounted.agency_id = kept.agency_id AND recounted.client_id = kept.client_id AND recounted.status = kept.status AND recounted.created_on = kept.created_on
          WHERE kept.n IS NOT recounted.n",
    ),
    (
        "invoice_status_counts",
        "SELECT count(*) FROM (SELECT agency_id, status, n FROM invoice_status_counts WHERE n <> 0) AS kept
           FULL JOIN (SELECT agency_id, status, count(*) AS n FROM invoices
                       GROUP BY agency_id, status) AS recounted
             ON recounted.agency_id = kept.agency_id AND recounted.status = kept.status
          WHERE kept.n IS NOT recounted.n",
    ),
    (
        "invoice_client_status_counts",
        "SELECT count(*) FROM (SELECT agency_id, client_id, status, n FROM invoice_client_status_counts WHERE n <> 0) AS kept
           FULL JOIN (SELECT agency_id, client_id, status, count(*) AS n FROM invoices WHERE client_id IS NOT NULL
                       GROUP BY agency_id, client_id, status) AS recounted
             ON recounted.agency_id = kept.agency_id AND recounted.client_id = kept.client_id AND recounted.status = kept.status
          WHERE kept.n IS NOT recounted.n",
    ),
    (
        "equipment",
        "SELECT count(*) FROM equipment WHERE surveyed_fields <> liftdesk_surveyed_count(id)",
    ),
];

/// The counts written again from what they count, in this order: each
/// table emptied then filled by a `GROUP BY`; the lifts' counts recounted.
const REBUILD: [&str; 9] = [
    "DELETE FROM invoice_day_counts",
    "INSERT INTO invoice_day_counts (agency_id, status, created_on, n)
     SELECT agency_id, status, created_on, count(*) FROM invoices
      GROUP BY agency_id, status, created_on",
    "DELETE FROM invoice_client_day_counts",
    "INSERT INTO invoice_client_day_counts (agency_id, client_id, status, created_on, n)
     SELECT agency_id, client_id, status, created_on, count(*) FROM invoices
      WHERE client_id IS NOT NULL GROUP BY agency_id, client_id, status, created_on",
    "DELETE FROM invoice_status_counts",
    "INSERT INTO invoice_status_counts (agency_id, status, n)
     SELECT agency_id, status, count(*) FROM invoices GROUP BY agency_id, status",
    "DELETE FROM invoice_client_status_counts",
    "INSERT INTO invoice_client_status_counts (agency_id, client_id, status, n)
     SELECT agency_id, client_id, status, count(*) FROM invoices
      WHERE client_id IS NOT NULL GROUP BY agency_id, client_id, status",
    "UPDATE equipment SET surveyed_fields = recount.n
       FROM (SELECT id, liftdesk_surveyed_count(id) AS n FROM equipment) AS recount
      WHERE recount.id = equipment.id AND equipment.surveyed_fields <> recount.n",
];

/// The counts that differ from a recount: (table, how many), the tables
/// with none left out.
pub fn wrong(conn: &Conn) -> StoreResult<Vec<(&'static str, i64)>> {
    let mut found = Vec::new();
    for (table, differing) in RECOUNTS {
        // `liftdesk_surveyed_count` is PostgreSQL's; SQLite's equivalent
        // is its own triggers' expression.
        let differing = if table == "equipment" {
            conn.dialect(SQLITE_SURVEYED_WRONG, differing)
        } else {
            differing
        };
        let n: i64 = conn.query_row(differing, [], |r| r.get(0))?;
        if n > 0 {
            found.push((table, n));
        }
    }
    Ok(found)
}

/// SQLite's recount of the lifts' technical fields filled (as its
/// triggers count them: the catalogue's fields that apply to the lift's
/// type).
const SQLITE_SURVEYED_WRONG: &str = "SELECT count(*) FROM equipment e
  WHERE e.surveyed_fields <> (SELECT count(*) FROM equipment_values v
          JOIN technical_fields f ON f.code = v.field_code
         WHERE v.equipment_id = e.id
           AND (f.applies_to IS NULL
                OR (',' || f.applies_to || ',') LIKE ('%,' || COALESCE(e.type, '') || ',%')))";

/// The tables of the PostgreSQL schema that have triggers of their own
/// (not the foreign keys' internal ones).
pub(crate) fn tables_with_triggers(conn: &Conn) -> StoreResult<Vec<String>> {
    conn.prepare(
        "SELECT DISTINCT c.relname FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND NOT t.tgisinternal
          ORDER BY c.relname",
    )?
    .query_map([], |r| r.get(0))?
    .collect()
}

/// Runs `load` (a bulk write of invoices and lifts, in `tx`) with the
/// counts kept once at its end on PostgreSQL: the triggers off during it
/// (`ALTER TABLE … DISABLE TRIGGER USER`, transactional: for this
/// transaction only, the tables locked meanwhile; the tables' owner, who
/// migrated them, may), then every count rebuilt from what it counts and
/// the triggers on again. On SQLite, whose triggers cost little, `load`
/// as is.
pub fn counted_at_the_end<T, E>(tx: &Tx, load: impl FnOnce() -> Result<T, E>) -> Result<T, E>
where
    E: From<crate::StoreError>,
{
    if tx.postgres().is_none() {
        return load();
    }
    let triggered = tables_with_triggers(tx)?;
    for table in &triggered {
        tx.batch(&format!("ALTER TABLE \"{table}\" DISABLE TRIGGER USER"))?;
    }
    let loaded = load()?;
    for statement in REBUILD {
        tx.execute(statement, [])?;
    }
    for table in &triggered {
        tx.batch(&format!("ALTER TABLE \"{table}\" ENABLE TRIGGER USER"))?;
    }
    Ok(loaded)
}

/// A new invoice as the counts see it.
#[derive(Debug, Clone, Copy)]
pub struct Counted<'a> {
    pub agency_id: &'a str,
    pub client_id: Option<&'a str>,
    pub status: &'a str,
    /// `YYYY-MM-DD`.
    pub created_on: &'a str,
}

/// The triggers that count each new invoice, passed over by
/// [`invoices_counted_once`].
const INSERT_COUNTERS: [&str; 2] = ["invoice_counts_insert", "invoice_status_counts_insert"];

/// Runs `insert` (a write of the new invoices `added`, in `tx`) with the
/// counts' insert triggers off, then adds the counts of `added` once, one
/// update per (agency, client, status, day) instead of one per invoice.
/// Off for this transaction only: on SQLite dropped and created again from
/// their own text (its DDL is transactional; a trigger's mere call, even
/// when its `WHEN` says no, costs each row more than its updates); on
/// PostgreSQL `ALTER TABLE … DISABLE TRIGGER` (transactional too; the
/// other writers of invoices wait for the commit), where each update of
/// the same counter row in one transaction would step over its earlier
/// versions. `added` must be exactly what `insert` writes; if `insert`
/// fails, the transaction is to be rolled back (the triggers with it).
pub fn invoices_counted_once<T>(
    tx: &Tx,
    added: &[Counted<'_>],
    insert: impl FnOnce() -> StoreResult<T>,
) -> StoreResult<T> {
    let inserted = if tx.postgres().is_some() {
        for trigger in INSERT_COUNTERS {
            tx.batch(&format!("ALTER TABLE invoices DISABLE TRIGGER {trigger}"))?;
        }
        let inserted = insert()?;
        for trigger in INSERT_COUNTERS {
            tx.batch(&format!("ALTER TABLE invoices ENABLE TRIGGER {trigger}"))?;
        }
        inserted
    } else {
        let mut kept = Vec::with_capacity(INSERT_COUNTERS.len());
        for trigger in INSERT_COUNTERS {
            let sql: String = tx.query_row(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?1",
                [trigger],
                |r| r.get(0),
            )?;
            tx.batch(&format!("DROP TRIGGER {trigger}"))?;
            kept.push(sql);
        }
        let inserted = insert()?;
        for sql in kept {
            tx.batch(&sql)?;
        }
        inserted
    };
    let mut by_day: BTreeMap<(&str, &str, &str), i64> = BTreeMap::new();
    let mut by_client_day: BTreeMap<(&str, &str, &str, &str), i64> = BTreeMap::new();
    let mut by_status: BTreeMap<(&str, &str), i64> = BTreeMap::new();
    let mut by_client_status: BTreeMap<(&str, &str, &str), i64> = BTreeMap::new();
    for invoice in added {
        let Counted {
            agency_id,
            status,
            created_on,
            ..
        } = *invoice;
        *by_day.entry((agency_id, status, created_on)).or_default() += 1;
        *by_status.entry((agency_id, status)).or_default() += 1;
        if let Some(client_id) = invoice.client_id {
            *by_client_day
                .entry((agency_id, client_id, status, created_on))
                .or_default() += 1;
            *by_client_status
                .entry((agency_id, client_id, status))
                .or_default() += 1;
        }
    }
    for ((agency_id, status, created_on), n) in by_day {
        tx.execute_cached(
            "INSERT INTO invoice_day_counts (agency_id, status, created_on, n) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (agency_id, status, created_on)
             DO UPDATE SET n = invoice_day_counts.n + excluded.n",
            params![agency_id, status, created_on, n],
        )?;
    }
    for ((agency_id, client_id, status, created_on), n) in by_client_day {
        tx.execute_cached(
            "INSERT INTO invoice_client_day_counts (agency_id, client_id, status, created_on, n)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (agency_id, client_id, status, created_on)
             DO UPDATE SET n = invoice_client_day_counts.n + excluded.n",
            params![agency_id, client_id, status, created_on, n],
        )?;
    }
    for ((agency_id, status), n) in by_status {
        tx.execute_cached(
            "INSERT INTO invoice_status_counts (agency_id, status, n) VALUES (?1, ?2, ?3)
             ON CONFLICT (agency_id, status)
             DO UPDATE SET n = invoice_status_counts.n + excluded.n",
            params![agency_id, status, n],
        )?;
    }
    for ((agency_id, client_id, status), n) in by_client_status {
        tx.execute_cached(
            "INSERT INTO invoice_client_status_counts (agency_id, client_id, status, n)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (agency_id, client_id, status)
             DO UPDATE SET n = invoice_client_status_counts.n + excluded.n",
            params![agency_id, client_id, status, n],
        )?;
    }
    Ok(inserted)
}
