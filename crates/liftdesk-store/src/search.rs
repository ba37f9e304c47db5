//! The header search's look-ups by number: invoices and credit notes, quotes
//! and calls of the agency whose number (reference) starts with what is
//! typed, or is one of the exact numbers a bare sequence stands for. Each
//! is a range or an `IN` list on an index (`invoices_number_per_agency`,
//! `quotes_by_number`, `calls_agency_reference`, `calls_reference_per_center`),
//! so a million invoices answer as fast as ten. Clients and equipment are found by `store::clients` and
//! `store::equipment`.

use crate::Conn;
use crate::sql::{Value, params_from_iter};
use liftdesk_domain::id::AgencyId;

use super::StoreResult;

/// A document or a call found by its number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberHit {
    pub id: String,
    pub number: String,
    /// The invoice's buyer, the quote's object, the call's equipment number.
    pub detail: Option<String>,
    /// The status code.
    pub status: String,
}

/// What is looked for: numbers starting with `prefix` (upper case), or
/// exactly one of `exact`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NumberQuery {
    pub prefix: Option<String>,
    pub exact: Vec<String>,
}

/// The rows of `select` (whose first `?` is `owner`: the agency, or a call
/// center) whose `column` the query keeps.
fn hits(
    conn: &Conn,
    select: &str,
    column: &str,
    owner: &str,
    query: &NumberQuery,
    limit: u32,
) -> StoreResult<Vec<NumberHit>> {
    let mut values = vec![Value::Text(owner.to_owned())];
    let condition = match (&query.prefix, query.exact.is_empty()) {
        (Some(prefix), _) => {
            values.push(Value::Text(prefix.clone()));
            values.push(Value::Text(format!("{prefix}\u{10FFFF}")));
            format!("{column} >= ? AND {column} < ?")
        }
        (None, false) => {
            values.extend(query.exact.iter().cloned().map(Value::Text));
            format!("{column} IN ({})", vec!["?"; query.exact.len()].join(", "))
        }
        (None, true) => return Ok(Vec::new()),
    };
    values.push(Value::Integer(i64::from(limit)));
    let mut stmt = conn.prepare_cached(&format!(
        "{select} AND {condition} ORDER BY {column} DESC LIMIT ?"
    ))?;
    let rows = stmt
        .query_map(params_from_iter(values.iter()), |r| {
            Ok(NumberHit {
                id: r.get(0)?,
                number: r.get(1)?,
                detail: r.get(2)?,
                status: r.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Issued invoices and credit notes (drafts have no number).
pub fn invoices(
    conn: &Conn,
    agency_id: &AgencyId,
    query: &NumberQuery,
    limit: u32,
) -> StoreResult<Vec<NumberHit>> {
    hits(
        conn,
        "SELECT i.id, i.number, i.buyer_name, i.status FROM invoices i
          WHERE i.agency_id = ?",
        "i.number",
        agency_id.as_str(),
        query,
        limit,
    )
}

/// Numbered quotes.
pub fn quotes(
    conn: &Conn,
    agency_id: &AgencyId,
    query: &NumberQuery,
    limit: u32,
) -> StoreResult<Vec<NumberHit>> {
    hits(
        conn,
        "SELECT q.id, q.number, q.object, q.status FROM quotes q
          WHERE q.agency_id = ?",
        "q.number",
        agency_id.as_str(),
        query,
        limit,
    )
}

/// Calls by reference (a center's or the agency's own `AG-…`): the
/// centers' calls through `calls_reference_per_center`, one range per
/// center of the agency, the agency's own through `calls_agency_reference`.
pub fn calls(
    conn: &Conn,
    agency_id: &AgencyId,
    query: &NumberQuery,
    limit: u32,
) -> StoreResult<Vec<NumberHit>> {
    let mut found = hits(
        conn,
        "SELECT c.id, c.reference, (SELECT e.number FROM equipment e WHERE e.id = c.equipment_id), c.status
           FROM calls c INDEXED BY calls_agency_reference
          WHERE c.agency_id = ? AND c.call_center_id IS NULL",
        "c.reference",
        agency_id.as_str(),
        query,
        limit,
    )?;
    let centers: Vec<String> = conn
        .prepare_cached("SELECT id FROM call_centers WHERE agency_id = ?1 ORDER BY id")?
        .query_map([agency_id.as_str()], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for center in centers {
        found.extend(hits(
            conn,
            "SELECT c.id, c.reference, (SELECT e.number FROM equipment e WHERE e.id = c.equipment_id), c.status
               FROM calls c INDEXED BY calls_reference_per_center
              WHERE c.call_center_id = ?",
            "c.reference",
            &center,
            query,
            limit,
        )?);
    }
    found.sort_by(|a, b| b.number.cmp(&a.number));
    found.truncate(limit as usize);
    Ok(found)
}
