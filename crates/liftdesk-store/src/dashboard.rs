//! The dashboard's figures (`GET /app/api/dashboard`): aggregate queries of
//! one agency, each reading a slice of an index (migration V5) so that they
//! stay fast on a million invoices and fifty thousand equipment.

use crate::Conn;
use crate::sql::params;
use liftdesk_domain::id::AgencyId;
use liftdesk_domain::invoice::UNPAID_BUCKETS as UNPAID_AGES;

use super::StoreResult;

/// Open calls (every status but `resolue`) by status code.
pub fn open_calls_by_status(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<(String, i64)>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT status, COUNT(*) FROM calls
         WHERE agency_id = ?1 AND status <> 'resolue'
         GROUP BY status",
    )?;
    let rows = stmt
        .query_map([agency_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Visits planned from `monday` to `sunday` (`YYYY-MM-DD`): how many, and how
/// many of them are done.
pub fn week_visits(
    conn: &Conn,
    agency_id: &AgencyId,
    monday: &str,
    sunday: &str,
) -> StoreResult<(i64, i64)> {
    let agency_id = agency_id.as_str();
    let counts = conn.query_row_cached(
        "SELECT COUNT(*), COALESCE(SUM(status = 'faite'), 0) FROM visits
         WHERE agency_id = ?1 AND planned_for >= ?2 AND planned_for <= ?3",
        params![agency_id, monday, sunday],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(counts)
}

/// Visits not done whose planned day, or whose limit date from the
/// maintenance plan, is before `today`.
pub fn overdue_visits(conn: &Conn, agency_id: &AgencyId, today: &str) -> StoreResult<i64> {
    let agency_id = agency_id.as_str();
    let n = conn.query_row_cached(
        "SELECT COUNT(*) FROM visits
         WHERE agency_id = ?1 AND status <> 'faite'
           AND (planned_for < ?2 OR (deadline IS NOT NULL AND deadline < ?2))",
        params![agency_id, today],
        |r| r.get(0),
    )?;
    Ok(n)
}

/// One month's invoices: `YYYY-MM`, how many, their amount incl. tax in cents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthFigure {
    pub month: String,
    pub count: i64,
    pub cents: i64,
}

fn month_figures(
    conn: &Conn,
    sql: &str,
    agency_id: &str,
    from: &str,
    to: &str,
) -> StoreResult<Vec<MonthFigure>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt
        .query_map(params![agency_id, from, to], |r| {
            Ok(MonthFigure {
                month: r.get(0)?,
                count: r.get(1)?,
                cents: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Invoices (not credit notes) issued from `from` to `to` (days), by month.
pub fn invoices_issued_by_month(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<MonthFigure>> {
    let agency_id = agency_id.as_str();
    month_figures(
        conn,
        "SELECT substr(issued_on, 1, 7), COUNT(*), COALESCE(SUM(total_incl_cents), 0)
         FROM invoices INDEXED BY invoices_issued_by_day
         WHERE agency_id = ?1 AND nature = 'facture' AND issued_on IS NOT NULL
           AND issued_on >= ?2 AND issued_on <= ?3
         GROUP BY 1",
        agency_id,
        from,
        to,
    )
}

/// Payments received on invoices (not refunds of credit notes) from `from`
/// to `to` (days), by month: how many invoices received one, and how much.
pub fn invoices_paid_by_month(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<MonthFigure>> {
    let agency_id = agency_id.as_str();
    month_figures(
        conn,
        "SELECT substr(p.paid_on, 1, 7), COUNT(DISTINCT p.invoice_id),
                COALESCE(SUM(p.amount_cents), 0)
         FROM invoice_payments p INDEXED BY invoice_payments_by_day
         JOIN invoices i ON i.id = p.invoice_id
         WHERE p.agency_id = ?1 AND i.nature = 'facture'
           AND p.paid_on >= ?2 AND p.paid_on <= ?3
         GROUP BY 1",
        agency_id,
        from,
        to,
    )
}

/// The codes of the unpaid invoices' age buckets, in order
/// (`domain::invoice::UNPAID_BUCKETS`).
pub const UNPAID_BUCKETS: [&str; 5] = {
    let mut codes = [""; 5];
    let mut i = 0;
    while i < 5 {
        codes[i] = UNPAID_AGES[i].0;
        i += 1;
    }
    codes
};

/// The bucket of an invoice due on `due` (a column), seen on `?2` (today),
/// as SQL: written from `domain::invoice::UNPAID_BUCKETS`, the one
/// definition the invoice list's filter reads too.
fn bucket_sql(due: &str) -> String {
    let mut sql = String::from("CASE");
    for (code, days) in UNPAID_AGES {
        match days {
            None => sql.push_str(&format!(" WHEN {due} IS NULL OR {due} > ?2 THEN '{code}'")),
            Some((_, Some(last))) => sql.push_str(&format!(
                " WHEN julianday(?2) - julianday({due}) <= {last} THEN '{code}'"
            )),
            Some((_, None)) => sql.push_str(&format!(" ELSE '{code}'")),
        }
    }
    sql.push_str(" END");
    sql
}

/// Unpaid invoices (issued or sent, not paid) by age bucket: bucket, how
/// many, what is still owed in cents (the amount incl. tax less the credit
/// notes issued against them and the payments received).
pub fn unpaid_by_age(
    conn: &Conn,
    agency_id: &AgencyId,
    today: &str,
) -> StoreResult<Vec<(String, i64, i64)>> {
    let agency_id = agency_id.as_str();
    let invoices_sql = format!(
        "SELECT {}, COUNT(*), COALESCE(SUM(total_incl_cents), 0)
         FROM invoices INDEXED BY invoices_unpaid_by_due
         WHERE agency_id = ?1 AND nature = 'facture' AND status IN ('emise', 'envoyee')
         GROUP BY 1",
        bucket_sql("due_on")
    );
    let mut stmt = conn.prepare_cached(&invoices_sql)?;
    let mut rows: Vec<(String, i64, i64)> = stmt
        .query_map(params![agency_id, today], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let credits_sql = format!(
        "SELECT {}, COALESCE(SUM(a.total_incl_cents), 0)
         FROM invoices a INDEXED BY invoices_credits_by_agency
         JOIN invoices i ON i.id = a.credited_invoice_id
         WHERE a.credited_invoice_id IS NOT NULL AND a.agency_id = ?1
           AND a.nature = 'avoir' AND a.status IN ('emise', 'envoyee', 'payee')
           AND i.nature = 'facture' AND i.status IN ('emise', 'envoyee')
         GROUP BY 1",
        bucket_sql("i.due_on")
    );
    let mut stmt = conn.prepare_cached(&credits_sql)?;
    let credits = stmt
        .query_map(params![agency_id, today], |r| {
            Ok((r.get::<String>(0)?, r.get::<i64>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let payments_sql = format!(
        "SELECT {}, COALESCE(SUM(p.amount_cents), 0)
         FROM invoices i INDEXED BY invoices_unpaid_by_due
         JOIN invoice_payments p ON p.invoice_id = i.id
         WHERE i.agency_id = ?1 AND i.nature = 'facture' AND i.status IN ('emise', 'envoyee')
         GROUP BY 1",
        bucket_sql("i.due_on")
    );
    let mut stmt = conn.prepare_cached(&payments_sql)?;
    let payments = stmt
        .query_map(params![agency_id, today], |r| {
            Ok((r.get::<String>(0)?, r.get::<i64>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    for (bucket, received) in credits.into_iter().chain(payments) {
        if let Some(row) = rows.iter_mut().find(|row| row.0 == bucket) {
            row.2 = (row.2 - received).max(0);
        }
    }
    Ok(rows)
}

/// The agency's equipment in the park (not archived) by type and number of surveyed catalog fields that
/// apply to that type (`equipment.surveyed_fields`, kept by triggers of
/// migration V5): (type, surveyed, equipment count, catalog size of the type).
pub fn equipment_by_surveyed(
    conn: &Conn,
    agency_id: &AgencyId,
) -> StoreResult<Vec<(String, i64, i64, i64)>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "WITH g AS (
             SELECT COALESCE(type, '') AS type, surveyed_fields AS surveyed, COUNT(*) AS n
             FROM equipment INDEXED BY equipment_by_surveyed
             WHERE agency_id = ?1 AND archived_at IS NULL
             GROUP BY type, surveyed_fields
         )
         SELECT g.type, g.surveyed, SUM(g.n),
                (SELECT COUNT(*) FROM technical_fields f
                  WHERE f.applies_to IS NULL
                     OR (',' || f.applies_to || ',') LIKE ('%,' || g.type || ',%'))
         FROM g GROUP BY g.type, g.surveyed",
    )?;
    let rows = stmt
        .query_map([agency_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// A call the « À traiter » panel names: id, reference, type, status,
/// received at (UTC timestamp), equipment id and number, whether assigned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TodoCall {
    pub id: String,
    pub reference: String,
    pub call_type: String,
    pub status: String,
    pub received_at: String,
    pub equipment_id: String,
    pub number: Option<String>,
    pub assigned: bool,
}

/// Calls not resolved matching `filter` (SQL on `c`), oldest first: the
/// first `limit` and how many in all.
fn todo_calls(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &str,
    received_before: &str,
    limit: u32,
) -> StoreResult<(i64, Vec<TodoCall>)> {
    let agency_id = agency_id.as_str();
    let count = conn.query_row_cached(
        &format!(
            "SELECT COUNT(*) FROM calls c
             WHERE c.agency_id = ?1 AND c.status <> 'resolue' AND c.received_at <= ?2 AND {filter}"
        ),
        params![agency_id, received_before],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT c.id, c.reference, c.type, c.status, c.received_at, c.equipment_id, e.number,
                c.technician_id IS NOT NULL
         FROM calls c JOIN equipment e ON e.id = c.equipment_id
         WHERE c.agency_id = ?1 AND c.status <> 'resolue' AND c.received_at <= ?2 AND {filter}
         ORDER BY c.received_at, c.id LIMIT ?3"
    ))?;
    let rows = stmt
        .query_map(params![agency_id, received_before, limit], |r| {
            Ok(TodoCall {
                id: r.get(0)?,
                reference: r.get(1)?,
                call_type: r.get(2)?,
                status: r.get(3)?,
                received_at: r.get(4)?,
                equipment_id: r.get(5)?,
                number: r.get(6)?,
                assigned: r.get(7)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((count, rows))
}

/// Trapped-person calls not resolved, however recent (`now`: the current
/// UTC timestamp).
pub fn trapped_calls(
    conn: &Conn,
    agency_id: &AgencyId,
    now: &str,
    limit: u32,
) -> StoreResult<(i64, Vec<TodoCall>)> {
    todo_calls(conn, agency_id, "c.type = 'personne_bloquee'", now, limit)
}

/// Open calls with no technician, received at `received_before` or earlier.
pub fn unassigned_calls(
    conn: &Conn,
    agency_id: &AgencyId,
    received_before: &str,
    limit: u32,
) -> StoreResult<(i64, Vec<TodoCall>)> {
    todo_calls(
        conn,
        agency_id,
        "c.status = 'ouverte' AND c.technician_id IS NULL",
        received_before,
        limit,
    )
}

/// A quote sent and still waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TodoQuote {
    pub id: String,
    pub number: Option<String>,
    pub object: String,
    /// UTC timestamp.
    pub sent_at: String,
    pub equipment_id: String,
    pub equipment_number: Option<String>,
}

/// Quotes sent at `sent_before` or earlier and neither accepted nor
/// refused, oldest first: the first `limit` and how many in all.
pub fn waiting_quotes(
    conn: &Conn,
    agency_id: &AgencyId,
    sent_before: &str,
    limit: u32,
) -> StoreResult<(i64, Vec<TodoQuote>)> {
    let agency_id = agency_id.as_str();
    let count = conn.query_row_cached(
        "SELECT COUNT(*) FROM quotes
         WHERE agency_id = ?1 AND status = 'envoye' AND sent_at <= ?2",
        params![agency_id, sent_before],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(
        "SELECT q.id, q.number, q.object, q.sent_at, q.equipment_id, e.number
         FROM quotes q JOIN equipment e ON e.id = q.equipment_id
         WHERE q.agency_id = ?1 AND q.status = 'envoye' AND q.sent_at <= ?2
         ORDER BY q.sent_at, q.id LIMIT ?3",
    )?;
    let rows = stmt
        .query_map(params![agency_id, sent_before, limit], |r| {
            Ok(TodoQuote {
                id: r.get(0)?,
                number: r.get(1)?,
                object: r.get(2)?,
                sent_at: r.get(3)?,
                equipment_id: r.get(4)?,
                equipment_number: r.get(5)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((count, rows))
}

#[cfg(test)]
mod bucket_tests {
    /// The buckets as SQL, as they were written by hand before being read
    /// from the domain's one definition.
    #[test]
    fn the_buckets_read_as_sql() {
        assert_eq!(
            super::bucket_sql("due_on"),
            "CASE WHEN due_on IS NULL OR due_on > ?2 THEN 'a_echoir' \
             WHEN julianday(?2) - julianday(due_on) <= 30 THEN '0_30' \
             WHEN julianday(?2) - julianday(due_on) <= 60 THEN '31_60' \
             WHEN julianday(?2) - julianday(due_on) <= 90 THEN '61_90' \
             ELSE 'plus_90' END"
        );
        assert_eq!(
            super::UNPAID_BUCKETS,
            ["a_echoir", "0_30", "31_60", "61_90", "plus_90"]
        );
    }
}
