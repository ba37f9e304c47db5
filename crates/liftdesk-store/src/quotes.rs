//! Quotes ("devis") and their rows.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};
use crate::{Code, code};
use liftdesk_domain::einvoice::VatExemption;
use liftdesk_domain::id::{AccountId, AgencyId, ClientId, EquipmentId, InvoiceId, QuoteId};
use liftdesk_domain::quote::{QuoteOrigin, QuoteStatus};

use super::StoreResult;
use super::new_id;

/// Prefix of quote numbers: `DV-2026-00012` (the form the demo data use).
pub const NUMBER_PREFIX: &str = "DV";

/// A quote as stored, with its equipment's number.
#[derive(Debug, Clone)]
pub struct QuoteRow {
    pub id: QuoteId,
    pub agency_id: String,
    pub equipment_id: EquipmentId,
    pub equipment_number: Option<String>,
    pub number: Option<String>,
    pub origin: QuoteOrigin,
    pub object: String,
    pub status: QuoteStatus,
    pub sent_at: Option<String>,
    pub accepted_at: Option<String>,
    pub refused_at: Option<String>,
    pub created_at: String,
    /// The last day the quote may be accepted (YYYY-MM-DD).
    pub valid_until: Option<String>,
}

/// One row of a quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteLineRow {
    pub label: String,
    pub quantity_milli: i64,
    pub unit_price_cents: i64,
    pub vat_rate_bp: u32,
    /// Why a 0 % line charges no VAT.
    pub vat_exemption: Option<VatExemption>,
}

/// An equipment of the agency, as a quote refers to it.
#[derive(Debug, Clone)]
pub struct EquipmentRef {
    pub id: EquipmentId,
    pub number: Option<String>,
}

/// The equipment `id` when it belongs to the agency.
pub fn find_equipment(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &EquipmentId,
) -> StoreResult<Option<EquipmentRef>> {
    conn.query_row_cached(
        "SELECT id, number FROM equipment WHERE id = ?1 AND agency_id = ?2",
        params![id, agency_id],
        |r| {
            Ok(EquipmentRef {
                id: r.get(0)?,
                number: r.get(1)?,
            })
        },
    )
    .optional()
}

/// The quote `id` of the agency (None for an unknown id or another agency's).
pub fn get(conn: &Conn, agency_id: &AgencyId, id: &QuoteId) -> StoreResult<Option<QuoteRow>> {
    let id = id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT q.id, q.agency_id, q.equipment_id, e.number, q.number, q.origin, q.object,
                    q.status, q.sent_at, q.accepted_at, q.refused_at, q.created_at,
                    q.valid_until
             FROM quotes q JOIN equipment e ON e.id = q.equipment_id
             WHERE q.id = ?1 AND q.agency_id = ?2",
        [id, agency_id],
        |r| {
            Ok(QuoteRow {
                id: r.get(0)?,
                agency_id: r.get(1)?,
                equipment_id: r.get(2)?,
                equipment_number: r.get(3)?,
                number: r.get(4)?,
                origin: code(r, 5)?,
                object: r.get(6)?,
                status: code(r, 7)?,
                sent_at: r.get(8)?,
                accepted_at: r.get(9)?,
                refused_at: r.get(10)?,
                created_at: r.get(11)?,
                valid_until: r.get(12)?,
            })
        },
    )
    .optional()
}

/// The rows of a quote, in their order.
pub fn lines(conn: &Conn, quote_id: &QuoteId) -> StoreResult<Vec<QuoteLineRow>> {
    let quote_id = quote_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT label, quantity_milli, unit_price_cents, vat_rate_bp, vat_exemption FROM quote_rows
         WHERE quote_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([quote_id], |r| {
        Ok(QuoteLineRow {
            label: r.get(0)?,
            quantity_milli: r.get(1)?,
            unit_price_cents: r.get(2)?,
            vat_rate_bp: r.get(3)?,
            vat_exemption: r.get::<Option<Code<VatExemption>>>(4)?.map(|c| c.0),
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The next quote number of the agency for `year`: `DV-2026-00012`, one
/// after the highest of that year in the agency. Taken in the caller's
/// IMMEDIATE transaction, which holds the database's write lock from its
/// start: two creations (even from two processes) are serialised, so a
/// number is never given twice. Quote numbers carry no legal constraint of
/// continuity (unlike invoice numbers); quotes are never deleted anyway.
pub fn next_number(tx: &Tx, agency_id: &AgencyId, year: i32) -> StoreResult<String> {
    let agency_id = agency_id.as_str();
    let pattern = format!("{NUMBER_PREFIX}-{year:04}-[0-9]*");
    let highest: i64 = tx.query_row_cached(
        "SELECT COALESCE(MAX(CAST(substr(number, 9) AS INTEGER)), 0) FROM quotes
         WHERE agency_id = ?1 AND number GLOB ?2",
        params![agency_id, pattern],
        |r| r.get(0),
    )?;
    Ok(format!("{NUMBER_PREFIX}-{year:04}-{:05}", highest + 1))
}

pub struct NewQuote<'a> {
    pub agency_id: &'a str,
    pub equipment_id: &'a EquipmentId,
    pub number: &'a str,
    pub origin: QuoteOrigin,
    pub object: &'a str,
    pub created_by: Option<&'a AccountId>,
    pub created_at: &'a str,
    /// The last day it may be accepted (YYYY-MM-DD).
    pub valid_until: &'a str,
    pub lines: &'a [QuoteLineRow],
}

/// Inserts a draft quote and its rows; returns its id.
pub fn insert(tx: &Tx, quote: &NewQuote<'_>) -> StoreResult<QuoteId> {
    let id = QuoteId::new(new_id());
    tx.execute_cached(
        "INSERT INTO quotes (id, agency_id, equipment_id, number, origin, object, status,
                             created_by, created_at, updated_at, valid_until)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'brouillon', ?7, ?8, ?8, ?9)",
        params![
            id,
            quote.agency_id,
            quote.equipment_id,
            quote.number,
            Code(quote.origin),
            quote.object,
            quote.created_by,
            quote.created_at,
            quote.valid_until,
        ],
    )?;
    let mut insert_row = tx.prepare_cached(
        "INSERT INTO quote_rows (id, quote_id, position, label, quantity_milli, unit_price_cents,
                                 vat_rate_bp, vat_exemption)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (index, line) in quote.lines.iter().enumerate() {
        insert_row.execute(params![
            new_id(),
            id,
            i64::try_from(index + 1).unwrap_or(i64::MAX),
            line.label,
            line.quantity_milli,
            line.unit_price_cents,
            line.vat_rate_bp,
            line.vat_exemption.map(Code),
        ])?;
    }
    Ok(id)
}

/// Which timestamp a status change sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamp {
    /// `sent_at`, kept at the first sending (a reminder leaves it).
    Sent,
    Accepted,
    Refused,
}

/// Moves the quote from `from` to `to` at `at`; false when its status was no
/// longer `from` (nothing changed).
pub fn set_status(
    tx: &Tx,
    id: &QuoteId,
    from: &str,
    to: &str,
    stamp: Stamp,
    at: &str,
) -> StoreResult<bool> {
    let id = id.as_str();
    let sql = match stamp {
        Stamp::Sent => {
            "UPDATE quotes SET status = ?3, sent_at = COALESCE(sent_at, ?4), updated_at = ?4
             WHERE id = ?1 AND status = ?2"
        }
        Stamp::Accepted => {
            "UPDATE quotes SET status = ?3, accepted_at = ?4, updated_at = ?4
             WHERE id = ?1 AND status = ?2"
        }
        Stamp::Refused => {
            "UPDATE quotes SET status = ?3, refused_at = ?4, updated_at = ?4
             WHERE id = ?1 AND status = ?2"
        }
    };
    Ok(tx.execute_cached(sql, params![id, from, to, at])? == 1)
}

/// Moves the last valid day of a quote still in `statuses` to `until`;
/// false when its status was no longer one of them (nothing changed).
pub fn set_valid_until(
    tx: &Tx,
    id: &QuoteId,
    status: &str,
    until: &str,
    at: &str,
) -> StoreResult<bool> {
    Ok(tx.execute_cached(
        "UPDATE quotes SET valid_until = ?3, updated_at = ?4 WHERE id = ?1 AND status = ?2",
        params![id.as_str(), status, until, at],
    )? == 1)
}

/// A quote as the Equipment screen lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquipmentQuoteRow {
    pub id: QuoteId,
    pub number: Option<String>,
    pub origin: QuoteOrigin,
    pub object: String,
    pub status: QuoteStatus,
    pub created_at: String,
}

/// The equipment's latest quotes (at most `limit`, newest first) and how many it has.
pub fn recent_of_equipment(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    limit: u32,
) -> StoreResult<(i64, Vec<EquipmentQuoteRow>)> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let total: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM quotes WHERE equipment_id = ?1 AND agency_id = ?2",
        [equipment_id, agency_id],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(
        "SELECT id, number, origin, object, status, created_at FROM quotes
         WHERE equipment_id = ?1 AND agency_id = ?2
         ORDER BY created_at DESC, id DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map(params![equipment_id, agency_id, limit], |r| {
        Ok(EquipmentQuoteRow {
            id: r.get(0)?,
            number: r.get(1)?,
            origin: code(r, 2)?,
            object: r.get(3)?,
            status: code(r, 4)?,
            created_at: r.get(5)?,
        })
    })?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// The client of the agency's equipment `equipment_id`, if it has one: the
/// buyer printed on the quote.
pub fn equipment_client(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<super::clients::ClientRow>> {
    let equipment_id = equipment_id.as_str();
    let client_id: Option<ClientId> = conn
        .query_row_cached(
            "SELECT e.client_id FROM equipment e
             JOIN clients c ON c.id = e.client_id AND c.agency_id = e.agency_id
             WHERE e.id = ?1 AND e.agency_id = ?2",
            [equipment_id, agency_id.as_str()],
            |r| r.get(0),
        )
        .optional()?;
    match client_id {
        Some(id) => super::clients::find(conn, agency_id, &id),
        None => Ok(None),
    }
}

/// Filters of the agency's quote list; every one is optional.
#[derive(Debug, Clone, Default)]
pub struct QuoteFilter {
    /// One status (`brouillon`, `envoye`, `accepte`, `refuse`).
    pub status: Option<String>,
    /// A fragment of the equipment number, lowercased (case-insensitive match).
    pub equipment_number: Option<String>,
    /// The client's `client_ref` (`CLI-…`): the quotes on its equipment.
    pub client_ref: Option<String>,
}

/// A quote of the list, with the invoice made from it if any.
#[derive(Debug, Clone)]
pub struct QuoteListRow {
    pub quote: QuoteRow,
    pub invoice_id: Option<InvoiceId>,
    pub invoice_number: Option<String>,
}

/// One page of the agency's quotes matching `filter`, newest first
/// (`created_at DESC, id DESC`), and how many match in all. The status
/// filter reads `quotes_by_status`; the number fragment is matched on the
/// equipment joined (an agency holds thousands of quotes, not millions).
pub fn list(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &QuoteFilter,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<QuoteListRow>)> {
    let agency_id = agency_id.as_str();
    const WHERE: &str = "q.agency_id = ?1 AND (?2 IS NULL OR q.status = ?2)
         AND (?3 IS NULL OR instr(lower(COALESCE(e.number, '')), ?3) > 0)
         AND (?4 IS NULL OR e.client_id IN
              (SELECT c.id FROM clients c WHERE c.agency_id = ?1 AND c.client_ref = ?4))";
    let total: i64 = conn
        .prepare_cached(&format!(
            "SELECT COUNT(*) FROM quotes q JOIN equipment e ON e.id = q.equipment_id WHERE {WHERE}"
        ))?
        .query_row(
            params![
                agency_id,
                filter.status,
                filter.equipment_number,
                filter.client_ref
            ],
            |r| r.get(0),
        )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT q.id, q.agency_id, q.equipment_id, e.number, q.number, q.origin, q.object,
                q.status, q.sent_at, q.accepted_at, q.refused_at, q.created_at, q.valid_until,
                (SELECT i.id FROM invoices i WHERE i.quote_id = q.id AND i.nature = 'facture'
                 ORDER BY i.created_at, i.id LIMIT 1),
                (SELECT i.number FROM invoices i WHERE i.quote_id = q.id AND i.nature = 'facture'
                 ORDER BY i.created_at, i.id LIMIT 1)
         FROM quotes q JOIN equipment e ON e.id = q.equipment_id
         WHERE {WHERE}
         ORDER BY q.created_at DESC, q.id DESC LIMIT ?5 OFFSET ?6"
    ))?;
    let rows = stmt.query_map(
        params![
            agency_id,
            filter.status,
            filter.equipment_number,
            filter.client_ref,
            i64::from(limit),
            i64::try_from(offset).unwrap_or(i64::MAX)
        ],
        |r| {
            Ok(QuoteListRow {
                quote: QuoteRow {
                    id: r.get(0)?,
                    agency_id: r.get(1)?,
                    equipment_id: r.get(2)?,
                    equipment_number: r.get(3)?,
                    number: r.get(4)?,
                    origin: code(r, 5)?,
                    object: r.get(6)?,
                    status: code(r, 7)?,
                    sent_at: r.get(8)?,
                    accepted_at: r.get(9)?,
                    refused_at: r.get(10)?,
                    created_at: r.get(11)?,
                    valid_until: r.get(12)?,
                },
                invoice_id: r.get(13)?,
                invoice_number: r.get(14)?,
            })
        },
    )?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// The client of a quote's equipment: the equipment's own, else its
/// building's (the buyer of the invoice made from the quote).
pub fn equipment_client_id(
    conn: &Conn,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<ClientId>> {
    let equipment_id = equipment_id.as_str();
    Ok(conn
        .query_row_cached(
            "SELECT COALESCE(e.client_id, b.client_id) FROM equipment e
             LEFT JOIN buildings b ON b.id = e.building_id WHERE e.id = ?1",
            [equipment_id],
            |r| r.get::<Option<ClientId>>(0),
        )
        .optional()?
        .flatten())
}
