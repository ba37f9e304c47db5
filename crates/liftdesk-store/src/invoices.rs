//! Invoices and credit notes, their lines, their numbering, and the clients
//! they are made out to.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, Row, params, params_from_iter};
use crate::sql::{ToValue, Value, ValueRef};
use crate::{Code, code};
use liftdesk_domain::client::BillingCategory;
use liftdesk_domain::einvoice::VatExemption;
use liftdesk_domain::id::{AgencyId, ClientId, ContractId, EquipmentId, InvoiceId, QuoteId};
use liftdesk_domain::invoice::{InvoiceNature, InvoiceStatus};

use super::new_id;
use super::{StoreError, StoreResult};

/// An invoice or credit note as stored, with its client's identifier.
#[derive(Debug, Clone)]
pub struct InvoiceRow {
    pub id: InvoiceId,
    pub agency_id: AgencyId,
    pub nature: InvoiceNature,
    pub status: InvoiceStatus,
    pub number: Option<String>,
    pub client_id: Option<ClientId>,
    /// The partner's client identifier (`clients.client_ref`).
    pub client_ref: Option<String>,
    pub credited_invoice_id: Option<InvoiceId>,
    pub quote_id: Option<QuoteId>,
    pub buyer_name: Option<String>,
    pub buyer_address: Option<String>,
    pub buyer_siren: Option<String>,
    pub issued_on: Option<String>,
    pub due_on: Option<String>,
    pub paid_on: Option<String>,
    pub total_excl_cents: i64,
    pub total_incl_cents: i64,
    pub created_on: String,
}

const INVOICE_COLUMNS: &str =
    "i.id, i.agency_id, i.nature, i.status, i.number, i.client_id, c.client_ref,
     i.credited_invoice_id, i.quote_id, i.buyer_name, i.buyer_address, i.buyer_siren, i.issued_on,
     i.due_on, i.paid_on, i.total_excl_cents, i.total_incl_cents, i.created_on";

fn invoice_from_row(r: &Row<'_>) -> crate::StoreResult<InvoiceRow> {
    Ok(InvoiceRow {
        id: r.get(0)?,
        agency_id: AgencyId::new(r.get::<String>(1)?),
        nature: code(r, 2)?,
        status: code(r, 3)?,
        number: r.get(4)?,
        client_id: r.get(5)?,
        client_ref: r.get(6)?,
        credited_invoice_id: r.get(7)?,
        quote_id: r.get(8)?,
        buyer_name: r.get(9)?,
        buyer_address: r.get(10)?,
        buyer_siren: r.get(11)?,
        issued_on: r.get(12)?,
        due_on: r.get(13)?,
        paid_on: r.get(14)?,
        total_excl_cents: r.get(15)?,
        total_incl_cents: r.get(16)?,
        created_on: r.get(17)?,
    })
}

/// What the structured invoice carries of its buyer beyond the printed
/// name, address and SIREN, frozen at the issue (none on a draft nor on a
/// document issued before V24): read apart from [`InvoiceRow`], whose lists
/// do not need it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuyerEInvoicing {
    pub category: Option<BillingCategory>,
    pub vat_number: Option<String>,
    pub siret: Option<String>,
    pub service_code: Option<String>,
    pub electronic_address: Option<String>,
    /// Issued under a version of the agency's identity (with its SIRET):
    /// the document has its Factur-X. False for a draft and for a document
    /// issued before the agency recorded its identity.
    pub under_identity: bool,
}

/// The buyer's e-invoicing data of the invoice `id`.
pub fn buyer_einvoicing(conn: &Conn, id: &InvoiceId) -> StoreResult<BuyerEInvoicing> {
    conn.query_row_cached(
        "SELECT buyer_category, buyer_vat_number, buyer_siret, buyer_service_code,
                buyer_electronic_address, seller_identity_id IS NOT NULL
         FROM invoices WHERE id = ?1",
        [id],
        |r| {
            Ok(BuyerEInvoicing {
                category: r.get::<Option<Code<BillingCategory>>>(0)?.map(|c| c.0),
                vat_number: r.get(1)?,
                siret: r.get(2)?,
                service_code: r.get(3)?,
                electronic_address: r.get(4)?,
                under_identity: r.get(5)?,
            })
        },
    )
    .optional()
    .map(Option::unwrap_or_default)
}

/// One line of an invoice or credit note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceLineRow {
    pub label: String,
    pub quantity_milli: i64,
    pub unit_price_cents: i64,
    pub vat_rate_bp: u32,
    /// Why a 0 % line charges no VAT.
    pub vat_exemption: Option<VatExemption>,
}

/// Filters of the invoice list; every one is optional.
#[derive(Debug, Clone, Default)]
pub struct InvoiceFilter {
    /// The partner's client identifier (`clients.client_ref`).
    pub client_ref: Option<String>,
    /// Any of these statuses; empty: any status.
    pub statuses: Vec<String>,
    /// Created on or after this day (`YYYY-MM-DD`).
    pub since: Option<String>,
    /// Created on or before this day (`YYYY-MM-DD`).
    pub until: Option<String>,
    /// Past due: invoices (not credit notes) issued or sent, not settled,
    /// due before this day (`YYYY-MM-DD`, today).
    pub due_before: Option<String>,
    /// The dashboard's figures, read the way it counts them (see
    /// [`DashboardFilter`]).
    pub dashboard: DashboardFilter,
}

/// The filters behind the dashboard's figures, so that a bar opens exactly
/// the invoices it counts (`store::dashboard`): invoices (not credit notes)
/// issued in a period, invoices that received a payment in a period, and
/// unpaid invoices (issued or sent) by their due day. Days are
/// `YYYY-MM-DD`, bounds included.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DashboardFilter {
    pub issued_since: Option<String>,
    pub issued_until: Option<String>,
    pub paid_since: Option<String>,
    pub paid_until: Option<String>,
    /// Unpaid invoices only (issued or sent).
    pub unpaid: bool,
    /// Due on or after this day.
    pub due_from: Option<String>,
    /// Due on or before this day.
    pub due_to: Option<String>,
    /// Not yet due: no due day, or due after this day.
    pub due_after: Option<String>,
}

impl DashboardFilter {
    fn is_set(&self) -> bool {
        *self != Self::default()
    }

    /// Its conditions on `invoices i`, and their values.
    fn conditions(&self, conditions: &mut Vec<String>, values: &mut Vec<Value>) {
        let mut day = |sql: &str, value: &Option<String>| {
            if let Some(value) = value {
                conditions.push(sql.to_owned());
                values.push(Value::Text(value.clone()));
            }
        };
        day("i.issued_on >= ?", &self.issued_since);
        day("i.issued_on <= ?", &self.issued_until);
        day("i.due_on >= ?", &self.due_from);
        day("i.due_on <= ?", &self.due_to);
        day("(i.due_on IS NULL OR i.due_on > ?)", &self.due_after);
        if self.issued_since.is_some() || self.issued_until.is_some() || self.unpaid {
            conditions.push("i.nature = 'facture' AND i.issued_on IS NOT NULL".to_owned());
        }
        if self.unpaid {
            conditions.push("i.status IN ('emise', 'envoyee')".to_owned());
        }
        if self.paid_since.is_some() || self.paid_until.is_some() {
            conditions.push(
                "i.nature = 'facture' AND EXISTS (SELECT 1 FROM invoice_payments p
                    WHERE p.invoice_id = i.id AND p.paid_on >= ? AND p.paid_on <= ?)"
                    .to_owned(),
            );
            values.push(Value::Text(
                self.paid_since
                    .clone()
                    .unwrap_or_else(|| "0000-01-01".to_owned()),
            ));
            values.push(Value::Text(
                self.paid_until
                    .clone()
                    .unwrap_or_else(|| "9999-12-31".to_owned()),
            ));
        }
    }
}

/// Offsets below this are read by the index directly: skipping a few
/// thousand index entries costs less than walking the day counters.
const SEEK_FROM_OFFSET: u64 = 2_000;

/// One page of the agency's invoices and credit notes matching `filter`,
/// newest first (`created_on DESC, id DESC`, a stable order), and how many
/// match in all.
///
/// The total comes from counters that triggers keep in every write's
/// transaction, exact at every moment, without counting the rows: one row
/// per status (`invoice_status_counts`, `invoice_client_status_counts`,
/// migration V8), or with `since`/`until` a sum over the range's day
/// counters (`invoice_day_counts`, `invoice_client_day_counts`, V4). A far
/// page is sought the same way: the counters, read from the newest day,
/// say on which day the page starts and how many of that day's rows come
/// before it; the page is then read from that day on with that small
/// offset. The rows are exactly those `LIMIT … OFFSET …` would return (a
/// test compares both). Each filter is an equality or range on a column of
/// the indexes `invoices_by_client`, `invoices_by_status` and
/// `invoices_by_created` (agency first, then created_on, id). Several
/// statuses (the MCP tool's "unpaid": `emise` or `envoyee`) are one `IN`.
pub fn list(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &InvoiceFilter,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<InvoiceRow>)> {
    // Invoices past due are few (unpaid ones): read plainly, through
    // `invoices_unpaid_by_due`, not through the day counters; so are the
    // dashboard's figures (a month, an age bucket).
    if filter.due_before.is_some() || filter.dashboard.is_set() {
        return list_by_offset(
            conn,
            &AgencyId::new(agency_id.as_str()),
            filter,
            limit,
            offset,
        );
    }
    let agency_id = agency_id.as_str();
    list_seeking_from(conn, agency_id, filter, limit, offset, SEEK_FROM_OFFSET)
}

fn list_seeking_from(
    conn: &Conn,
    agency_id: &str,
    filter: &InvoiceFilter,
    limit: u32,
    offset: u64,
    seek_from: u64,
) -> StoreResult<(i64, Vec<InvoiceRow>)> {
    let client_id = match &filter.client_ref {
        // The partner's identifier is unique per agency: resolve it first so
        // that the invoices are read through `invoices_by_client`.
        Some(client_ref) => {
            let found: Option<String> = conn
                .query_row_cached(
                    "SELECT id FROM clients WHERE agency_id = ?1 AND client_ref = ?2",
                    [agency_id, client_ref.as_str()],
                    |r| r.get(0),
                )
                .optional()?;
            match found {
                Some(id) => Some(id),
                None => return Ok((0, Vec::new())),
            }
        }
        None => None,
    };
    let mut conditions = vec!["agency_id = ?".to_owned()];
    let mut values: Vec<Value> = vec![Value::Text(agency_id.to_owned())];
    if let Some(client_id) = &client_id {
        conditions.push("client_id = ?".to_owned());
        values.push(Value::Text(client_id.clone()));
    }
    match filter.statuses.len() {
        0 => {}
        1 => conditions.push("status = ?".to_owned()),
        n => conditions.push(format!("status IN ({})", vec!["?"; n].join(", "))),
    }
    values.extend(filter.statuses.iter().cloned().map(Value::Text));
    if let Some(since) = &filter.since {
        conditions.push("created_on >= ?".to_owned());
        values.push(Value::Text(since.clone()));
    }
    if let Some(until) = &filter.until {
        conditions.push("created_on <= ?".to_owned());
        values.push(Value::Text(until.clone()));
    }
    let where_clause = conditions.join(" AND ");
    let counts_table = if client_id.is_some() {
        "invoice_client_day_counts"
    } else {
        "invoice_day_counts"
    };

    // Without a date filter, the per-status counters (one row per status)
    // give the total; with one, the day counters of the range do.
    let dated = filter.since.is_some() || filter.until.is_some();
    let total_table = match (dated, client_id.is_some()) {
        (true, _) => counts_table,
        (false, true) => "invoice_client_status_counts",
        (false, false) => "invoice_status_counts",
    };
    let total: i64 = conn
        .prepare_cached(&format!(
            "SELECT COALESCE(SUM(n), 0) FROM {total_table} WHERE {where_clause}"
        ))?
        .query_row(params_from_iter(values.iter()), |r| r.get(0))?;
    if total <= 0 || offset >= u64::try_from(total).unwrap_or(0) {
        return Ok((total.max(0), Vec::new()));
    }

    // Where the page starts: from the first row, or `skip` rows into the
    // rows created on `from_day` or before.
    let (from_day, skip) = if offset < seek_from {
        (None, offset)
    } else {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT created_on, SUM(n) FROM {counts_table} WHERE {where_clause}
             GROUP BY created_on ORDER BY created_on DESC"
        ))?;
        let mut days = stmt.query(params_from_iter(values.iter()))?;
        let mut before: u64 = 0;
        let mut start = None;
        while let Some(day) = days.next()? {
            let created_on: String = day.get(0)?;
            let n = u64::try_from(day.get::<i64>(1)?).unwrap_or(0);
            if before + n > offset {
                start = Some((Some(created_on), offset - before));
                break;
            }
            before += n;
        }
        match start {
            Some(start) => start,
            // The counters say fewer rows than `total` (cannot happen, they
            // are read in the same snapshot): fall back to the plain offset.
            None => (None, offset),
        }
    };

    let mut page_values = values;
    let mut page_where = where_clause;
    if let Some(day) = from_day {
        page_where.push_str(" AND created_on <= ?");
        page_values.push(Value::Text(day));
    }
    page_values.push(Value::Integer(i64::from(limit)));
    page_values.push(Value::Integer(i64::try_from(skip).unwrap_or(i64::MAX)));
    // The conditions name `invoices` columns unqualified; the join's client
    // columns are read by a correlated lookup so no name is ambiguous.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {INVOICE_COLUMNS} FROM (SELECT * FROM invoices WHERE {page_where}
             ORDER BY created_on DESC, id DESC LIMIT ? OFFSET ?) i
         LEFT JOIN clients c ON c.id = i.client_id
         ORDER BY i.created_on DESC, i.id DESC"
    ))?;
    let rows = stmt.query_map(params_from_iter(page_values.iter()), invoice_from_row)?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// The same page read with a plain `LIMIT … OFFSET …` and the total with
/// `COUNT(*)`: what `list` must always equal (tests compare them).
pub fn list_by_offset(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &InvoiceFilter,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<InvoiceRow>)> {
    let agency_id = agency_id.as_str();
    let mut conditions = vec!["i.agency_id = ?".to_owned()];
    let mut values: Vec<Value> = vec![Value::Text(agency_id.to_owned())];
    if let Some(client_ref) = &filter.client_ref {
        conditions.push(
            "i.client_id = (SELECT id FROM clients WHERE agency_id = i.agency_id AND client_ref = ?)"
                .to_owned(),
        );
        values.push(Value::Text(client_ref.clone()));
    }
    if !filter.statuses.is_empty() {
        conditions.push(format!(
            "i.status IN ({})",
            vec!["?"; filter.statuses.len()].join(", ")
        ));
        values.extend(filter.statuses.iter().cloned().map(Value::Text));
    }
    if let Some(since) = &filter.since {
        conditions.push("i.created_on >= ?".to_owned());
        values.push(Value::Text(since.clone()));
    }
    if let Some(until) = &filter.until {
        conditions.push("i.created_on <= ?".to_owned());
        values.push(Value::Text(until.clone()));
    }
    if let Some(day) = &filter.due_before {
        conditions.push(
            "i.nature = 'facture' AND i.status IN ('emise', 'envoyee') AND i.due_on < ?".to_owned(),
        );
        values.push(Value::Text(day.clone()));
    }
    filter.dashboard.conditions(&mut conditions, &mut values);
    let where_clause = conditions.join(" AND ");
    let total: i64 = conn.query_row_cached(
        &format!("SELECT COUNT(*) FROM invoices i WHERE {where_clause}"),
        params_from_iter(values.iter()),
        |r| r.get(0),
    )?;
    values.push(Value::Integer(i64::from(limit)));
    values.push(Value::Integer(i64::try_from(offset).unwrap_or(i64::MAX)));
    let mut stmt = conn.prepare(&format!(
        "SELECT {INVOICE_COLUMNS} FROM invoices i LEFT JOIN clients c ON c.id = i.client_id
         WHERE {where_clause}
         ORDER BY i.created_on DESC, i.id DESC
         LIMIT ? OFFSET ?"
    ))?;
    let rows = stmt.query_map(params_from_iter(values.iter()), invoice_from_row)?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// The invoice or credit note `id` of the agency.
pub fn get(conn: &Conn, agency_id: &AgencyId, id: &InvoiceId) -> StoreResult<Option<InvoiceRow>> {
    conn.query_row_cached(
        &format!(
            "SELECT {INVOICE_COLUMNS} FROM invoices i LEFT JOIN clients c ON c.id = i.client_id
                 WHERE i.id = ?1 AND i.agency_id = ?2"
        ),
        params![id, agency_id],
        invoice_from_row,
    )
    .optional()
}

/// The lines of an invoice or credit note, in their order.
pub fn lines(conn: &Conn, invoice_id: &InvoiceId) -> StoreResult<Vec<InvoiceLineRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT label, quantity_milli, unit_price_cents, vat_rate_bp, vat_exemption FROM invoice_lines
         WHERE invoice_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([invoice_id], |r| {
        Ok(InvoiceLineRow {
            label: r.get(0)?,
            quantity_milli: r.get(1)?,
            unit_price_cents: r.get(2)?,
            vat_rate_bp: r.get(3)?,
            vat_exemption: r.get::<Option<Code<VatExemption>>>(4)?.map(|c| c.0),
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// A credit note of an invoice, as the invoice lists it.
#[derive(Debug, Clone)]
pub struct CreditNoteRow {
    pub id: InvoiceId,
    pub number: Option<String>,
    pub status: InvoiceStatus,
    pub total_incl_cents: i64,
}

/// Every credit note (drafts included) made against `invoice_id`, oldest first.
pub fn credit_notes(conn: &Conn, invoice_id: &InvoiceId) -> StoreResult<Vec<CreditNoteRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, number, status, total_incl_cents FROM invoices
         WHERE credited_invoice_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map([invoice_id], |r| {
        Ok(CreditNoteRow {
            id: r.get(0)?,
            number: r.get(1)?,
            status: code(r, 2)?,
            total_incl_cents: r.get(3)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The lines of every issued credit note (not the drafts) of `invoice_id`.
pub fn issued_credit_lines(
    conn: &Conn,
    invoice_id: &InvoiceId,
) -> StoreResult<Vec<InvoiceLineRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT l.label, l.quantity_milli, l.unit_price_cents, l.vat_rate_bp, l.vat_exemption
         FROM invoices a JOIN invoice_lines l ON l.invoice_id = a.id
         WHERE a.credited_invoice_id = ?1 AND a.status <> 'brouillon'
         ORDER BY a.created_at, a.id, l.position",
    )?;
    let rows = stmt.query_map([invoice_id], |r| {
        Ok(InvoiceLineRow {
            label: r.get(0)?,
            quantity_milli: r.get(1)?,
            unit_price_cents: r.get(2)?,
            vat_rate_bp: r.get(3)?,
            vat_exemption: r.get::<Option<Code<VatExemption>>>(4)?.map(|c| c.0),
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// Total including tax of the issued credit notes (not the drafts) of `invoice_id`.
pub fn issued_credit_total(conn: &Conn, invoice_id: &InvoiceId) -> StoreResult<i64> {
    conn.query_row_cached(
        "SELECT COALESCE(SUM(total_incl_cents), 0) FROM invoices
         WHERE credited_invoice_id = ?1 AND status <> 'brouillon'",
        [invoice_id],
        |r| r.get(0),
    )
}

/// The invoice (not a credit note) made from the quote `quote_id`, the
/// first one if several (an invoice with its own lines, such as a deposit,
/// may also name the quote): its id and number (None while a draft).
pub fn invoice_of_quote(
    conn: &Conn,
    quote_id: &QuoteId,
) -> StoreResult<Option<(InvoiceId, Option<String>)>> {
    conn.query_row_cached(
        "SELECT id, number FROM invoices WHERE quote_id = ?1 AND nature = 'facture'
             ORDER BY created_at, id LIMIT 1",
        [quote_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// What a draft's edition writes.
pub struct DraftContent<'a> {
    pub client_id: Option<&'a ClientId>,
    pub buyer: &'a Buyer,
    pub total_excl_cents: i64,
    pub total_incl_cents: i64,
    pub lines: &'a [InvoiceLineRow],
    pub at: &'a str,
}

/// Replaces a draft's client, buyer, totals and lines. False when it was no
/// longer a draft (nothing changed): an issued document is never edited.
pub fn replace_draft(tx: &Tx, id: &InvoiceId, draft: &DraftContent<'_>) -> StoreResult<bool> {
    let DraftContent {
        client_id,
        buyer,
        total_excl_cents,
        total_incl_cents,
        lines,
        at,
    } = *draft;
    let changed = tx.execute_cached(
        "UPDATE invoices SET client_id = ?2, buyer_name = ?3, buyer_address = ?4, buyer_siren = ?5,
                total_excl_cents = ?6, total_incl_cents = ?7, updated_at = ?8
         WHERE id = ?1 AND status = 'brouillon'",
        params![
            id,
            client_id,
            buyer.name,
            buyer.address,
            buyer.siren,
            total_excl_cents,
            total_incl_cents,
            at
        ],
    )? == 1;
    if !changed {
        return Ok(false);
    }
    tx.execute_cached("DELETE FROM invoice_lines WHERE invoice_id = ?1", [id])?;
    let mut insert_line = tx.prepare_cached(
        "INSERT INTO invoice_lines (id, invoice_id, position, label, quantity_milli,
                                    unit_price_cents, vat_rate_bp, vat_exemption)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (index, line) in lines.iter().enumerate() {
        insert_line.execute(params![
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
    Ok(true)
}

/// The buyer as printed on an invoice: a draft keeps its name, address
/// and SIREN; the issue freezes the rest, what the structured invoice
/// carries (category, VAT number, SIRET, service code, electronic address).
#[derive(Debug, Clone, Default)]
pub struct Buyer {
    pub name: Option<String>,
    pub address: Option<String>,
    pub siren: Option<String>,
    pub category: Option<BillingCategory>,
    pub vat_number: Option<String>,
    pub siret: Option<String>,
    pub service_code: Option<String>,
    pub electronic_address: Option<String>,
}

pub struct NewInvoice<'a> {
    pub agency_id: &'a str,
    pub nature: &'a str,
    pub client_id: Option<&'a ClientId>,
    pub credited_invoice_id: Option<&'a InvoiceId>,
    pub quote_id: Option<&'a QuoteId>,
    pub buyer: &'a Buyer,
    pub total_excl_cents: i64,
    pub total_incl_cents: i64,
    pub created_on: &'a str,
    pub created_at: &'a str,
    pub lines: &'a [InvoiceLineRow],
    /// The lifts it is about, in their order.
    pub equipment_ids: &'a [EquipmentId],
    /// The maintenance contract and the first day of the period it bills.
    pub contract: Option<(&'a ContractId, &'a str)>,
}

/// An invoice of a maintenance contract's recurring billing.
#[derive(Debug, Clone)]
pub struct ContractInvoiceRow {
    pub contract_id: ContractId,
    /// `YYYY-MM-DD`: the day of its period it bills from.
    pub billed_from: String,
    pub id: InvoiceId,
    pub number: Option<String>,
    pub status: InvoiceStatus,
}

/// The agency's contract invoices billing from a day between `from` and
/// `to` (`YYYY-MM-DD`, included).
pub fn contract_invoices(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<ContractInvoiceRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT contract_id, contract_billed_from, id, number, status FROM invoices
         WHERE agency_id = ?1 AND contract_id IS NOT NULL
           AND contract_billed_from BETWEEN ?2 AND ?3",
    )?;
    let rows = stmt.query_map(params![agency_id, from, to], |r| {
        Ok(ContractInvoiceRow {
            contract_id: r.get(0)?,
            billed_from: r.get(1)?,
            id: r.get(2)?,
            number: r.get(3)?,
            status: code(r, 4)?,
        })
    })?;
    rows.collect()
}

/// A draft of a billing run, where it stands in the run's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractDraft {
    pub id: InvoiceId,
    /// Its contract's number, then its `contract_billed_from`: the order.
    pub contract_number: String,
    pub billed_from: String,
}

/// The drafts of the agency's contract invoices billed from `from` to `to`
/// (`YYYY-MM-DD`), by contract number then day, those after `after` (a
/// contract number and a day) when given.
pub fn contract_drafts(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
    after: Option<(&str, &str)>,
) -> StoreResult<Vec<ContractDraft>> {
    let (after_number, after_day) = after.unzip();
    let mut stmt = conn.prepare_cached(
        "SELECT i.id, k.number, i.contract_billed_from
           FROM invoices i JOIN contracts k ON k.id = i.contract_id
         WHERE i.agency_id = ?1 AND i.contract_id IS NOT NULL AND i.status = 'brouillon'
           AND i.contract_billed_from BETWEEN ?2 AND ?3
           AND (?4 IS NULL OR k.number > ?4 OR (k.number = ?4 AND i.contract_billed_from > ?5))
         ORDER BY k.number, i.contract_billed_from",
    )?;
    let rows = stmt.query_map(params![agency_id, from, to, after_number, after_day], |r| {
        Ok(ContractDraft {
            id: r.get(0)?,
            contract_number: r.get(1)?,
            billed_from: r.get(2)?,
        })
    })?;
    rows.collect()
}

/// How many drafts [`contract_drafts`] has left.
pub fn count_contract_drafts(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<i64> {
    conn.query_row_cached(
        "SELECT COUNT(*) FROM invoices
         WHERE agency_id = ?1 AND contract_id IS NOT NULL AND status = 'brouillon'
           AND contract_billed_from BETWEEN ?2 AND ?3",
        params![agency_id, from, to],
        |r| r.get(0),
    )
}

/// Inserts a draft (no number), its lines and its lifts; returns its id.
pub fn insert_draft(tx: &Tx, invoice: &NewInvoice<'_>) -> StoreResult<InvoiceId> {
    let id = InvoiceId::new(new_id());
    write_draft(tx, &id, invoice)?;
    Ok(id)
}

/// Inserts many drafts, each as [`insert_draft`] does; on PostgreSQL their
/// statements are sent without waiting for each answer (a refusal is told
/// by the transaction's next statement or its COMMIT at the latest): a
/// billing run's thousands of invoices in a few round trips; their counts
/// are added once, grouped ([`crate::counts::invoices_counted_once`]).
/// Returns their ids, in order.
pub fn insert_drafts(tx: &Tx, invoices: &[NewInvoice<'_>]) -> StoreResult<Vec<InvoiceId>> {
    let ids: Vec<InvoiceId> = invoices.iter().map(|_| InvoiceId::new(new_id())).collect();
    let line_ids: Vec<Vec<String>> = invoices
        .iter()
        .map(|invoice| invoice.lines.iter().map(|_| new_id()).collect())
        .collect();
    let mut heads = Vec::with_capacity(invoices.len() * 17);
    let mut lines = Vec::new();
    let mut equipment = Vec::new();
    for ((id, invoice), line_ids) in ids.iter().zip(invoices).zip(&line_ids) {
        let (contract_id, billed_from) = match invoice.contract {
            Some((contract_id, billed_from)) => (contract_id.to_value()?, billed_from.to_value()?),
            None => (ValueRef::Null, ValueRef::Null),
        };
        heads.extend([
            id.to_value()?,
            invoice.agency_id.to_value()?,
            invoice.client_id.to_value()?,
            invoice.nature.to_value()?,
            ValueRef::Text("brouillon"),
            invoice.credited_invoice_id.to_value()?,
            invoice.quote_id.to_value()?,
            invoice.buyer.name.to_value()?,
            invoice.buyer.address.to_value()?,
            invoice.buyer.siren.to_value()?,
            ValueRef::Integer(invoice.total_excl_cents),
            ValueRef::Integer(invoice.total_incl_cents),
            invoice.created_on.to_value()?,
            invoice.created_at.to_value()?,
            invoice.created_at.to_value()?,
            contract_id,
            billed_from,
        ]);
        for (position, (line, line_id)) in (1..).zip(invoice.lines.iter().zip(line_ids)) {
            lines.extend([
                line_id.to_value()?,
                id.to_value()?,
                ValueRef::Integer(position),
                line.label.to_value()?,
                ValueRef::Integer(line.quantity_milli),
                ValueRef::Integer(line.unit_price_cents),
                ValueRef::Integer(i64::from(line.vat_rate_bp)),
                match line.vat_exemption {
                    Some(reason) => ValueRef::Text(reason.as_str()),
                    None => ValueRef::Null,
                },
            ]);
        }
        for (position, equipment_id) in (0..).zip(invoice.equipment_ids) {
            equipment.extend([
                id.to_value()?,
                equipment_id.to_value()?,
                ValueRef::Integer(position),
            ]);
        }
    }
    let counted: Vec<crate::counts::Counted<'_>> = invoices
        .iter()
        .map(|invoice| crate::counts::Counted {
            agency_id: invoice.agency_id,
            client_id: invoice.client_id.map(ClientId::as_str),
            status: "brouillon",
            created_on: invoice.created_on,
        })
        .collect();
    crate::counts::invoices_counted_once(tx, &counted, || {
        tx.insert_rows(
            "INSERT INTO invoices (id, agency_id, client_id, nature, status, credited_invoice_id,
                                   quote_id, buyer_name, buyer_address, buyer_siren, total_excl_cents,
                                   total_incl_cents, created_on, created_at, updated_at, contract_id,
                                   contract_billed_from)",
            17,
            &heads,
            true,
        )?;
        tx.insert_rows(
            "INSERT INTO invoice_lines (id, invoice_id, position, label, quantity_milli,
                                        unit_price_cents, vat_rate_bp, vat_exemption)",
            8,
            &lines,
            true,
        )?;
        tx.insert_rows(
            "INSERT OR IGNORE INTO invoice_equipment (invoice_id, equipment_id, position)",
            3,
            &equipment,
            true,
        )
    })?;
    Ok(ids)
}

fn write_draft(tx: &Tx, id: &InvoiceId, invoice: &NewInvoice<'_>) -> StoreResult<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO invoices (id, agency_id, client_id, nature, status, credited_invoice_id,
                               quote_id, buyer_name, buyer_address, buyer_siren, total_excl_cents,
                               total_incl_cents, created_on, created_at, updated_at, contract_id,
                               contract_billed_from)
         VALUES (?1, ?2, ?3, ?4, 'brouillon', ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?14, ?15)",
    )?;
    let row = params![
        id,
        invoice.agency_id,
        invoice.client_id,
        invoice.nature,
        invoice.credited_invoice_id,
        invoice.quote_id,
        invoice.buyer.name,
        invoice.buyer.address,
        invoice.buyer.siren,
        invoice.total_excl_cents,
        invoice.total_incl_cents,
        invoice.created_on,
        invoice.created_at,
        invoice.contract.map(|(id, _)| id),
        invoice.contract.map(|(_, start)| start),
    ];
    insert.execute(row)?;
    let mut insert_line = tx.prepare_cached(
        "INSERT INTO invoice_lines (id, invoice_id, position, label, quantity_milli,
                                    unit_price_cents, vat_rate_bp, vat_exemption)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (index, line) in invoice.lines.iter().enumerate() {
        let row = params![
            new_id(),
            id,
            i64::try_from(index + 1).unwrap_or(i64::MAX),
            line.label,
            line.quantity_milli,
            line.unit_price_cents,
            line.vat_rate_bp,
            line.vat_exemption.map(Code),
        ];
        insert_line.execute(row)?;
    }
    insert_equipment(tx, id, invoice.equipment_ids)
}

fn insert_equipment(tx: &Tx, id: &InvoiceId, equipment_ids: &[EquipmentId]) -> StoreResult<()> {
    if equipment_ids.is_empty() {
        return Ok(());
    }
    let mut insert = tx.prepare_cached(
        "INSERT OR IGNORE INTO invoice_equipment (invoice_id, equipment_id, position)
         VALUES (?1, ?2, ?3)",
    )?;
    for (index, equipment_id) in equipment_ids.iter().enumerate() {
        insert.execute(params![
            id,
            equipment_id,
            i64::try_from(index).unwrap_or(i64::MAX)
        ])?;
    }
    Ok(())
}

/// Replaces the lifts a draft is about.
pub fn set_equipment(tx: &Tx, id: &InvoiceId, equipment_ids: &[EquipmentId]) -> StoreResult<()> {
    tx.execute_cached(
        "DELETE FROM invoice_equipment WHERE invoice_id = ?1",
        [id.as_str()],
    )?;
    insert_equipment(tx, id, equipment_ids)
}

/// A lift an invoice is about, with its building.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceEquipmentRow {
    pub id: EquipmentId,
    pub number: Option<String>,
    pub building_id: Option<String>,
    pub building_name: Option<String>,
    pub street: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
}

/// The lifts the invoice `id` is about, in their order.
pub fn equipment_of(conn: &Conn, id: &InvoiceId) -> StoreResult<Vec<InvoiceEquipmentRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT e.id, e.number, b.id, b.name, b.address, b.postal_code, b.city
           FROM invoice_equipment ie
           JOIN equipment e ON e.id = ie.equipment_id
           LEFT JOIN buildings b ON b.id = e.building_id
          WHERE ie.invoice_id = ?1
          ORDER BY ie.position, e.number",
    )?;
    let rows = stmt.query_map([id.as_str()], |r| {
        Ok(InvoiceEquipmentRow {
            id: r.get(0)?,
            number: r.get(1)?,
            building_id: r.get(2)?,
            building_name: r.get(3)?,
            street: r.get(4)?,
            postal_code: r.get(5)?,
            city: r.get(6)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The ids of the lifts the invoice `id` is about, in their order.
pub fn equipment_ids_of(conn: &Conn, id: &InvoiceId) -> StoreResult<Vec<EquipmentId>> {
    let mut stmt = conn.prepare_cached(
        "SELECT equipment_id FROM invoice_equipment WHERE invoice_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([id.as_str()], |r| r.get(0))?;
    rows.collect::<Result<_, _>>()
}

/// Takes the next number of the series (agency, nature, year) for good, in
/// the caller's IMMEDIATE transaction: the counter row is written by this
/// transaction only, so concurrent issues are serialised and a rolled-back
/// issue gives its number back. Without a counter row yet, the series
/// continues after the highest number already given (UNIQUE index on
/// agency, nature, year, sequence).
pub fn next_number_seq(tx: &Tx, agency_id: &AgencyId, nature: &str, year: i32) -> StoreResult<u32> {
    let agency_id = agency_id.as_str();
    let taken: Option<i64> = tx
        .query_row_cached(
            "UPDATE invoice_counters SET last_seq = last_seq + 1
             WHERE agency_id = ?1 AND nature = ?2 AND year = ?3 RETURNING last_seq",
            params![agency_id, nature, year],
            |r| r.get(0),
        )
        .optional()?;
    let seq = match taken {
        Some(seq) => seq,
        None => {
            let highest: i64 = tx.query_row_cached(
                "SELECT COALESCE(MAX(number_seq), 0) FROM invoices
                 WHERE agency_id = ?1 AND nature = ?2 AND number_year = ?3",
                params![agency_id, nature, year],
                |r| r.get(0),
            )?;
            let seq = highest + 1;
            tx.execute_cached(
                "INSERT INTO invoice_counters (agency_id, nature, year, last_seq) VALUES (?1, ?2, ?3, ?4)",
                params![agency_id, nature, year, seq],
            )?;
            seq
        }
    };
    u32::try_from(seq)
        .map_err(|_| StoreError::encoding(format!("numéro de facture hors limites : {seq}")))
}

pub struct Issue<'a> {
    pub number: &'a str,
    /// The agency's series the number is given in (`PO`), if it has one.
    pub series: Option<&'a str>,
    pub year: i32,
    pub seq: u32,
    pub issued_on: &'a str,
    pub due_on: &'a str,
    pub buyer: &'a Buyer,
    /// The version of the seller's identity the document is issued under.
    pub seller_identity_id: &'a str,
    pub at: &'a str,
}

/// Gives a draft its number, dates and frozen buyer: `brouillon` → `emise`.
/// False when it was no longer a draft (nothing changed).
pub fn issue(tx: &Tx, id: &InvoiceId, issue: &Issue<'_>) -> StoreResult<bool> {
    Ok(tx.execute_cached(
        "UPDATE invoices SET status = 'emise', number = ?2, number_year = ?3, number_seq = ?4,
                issued_on = ?5, due_on = ?6, buyer_name = ?7, buyer_address = ?8,
                buyer_siren = ?9, updated_at = ?10, seller_identity_id = ?11, number_series = ?12,
                buyer_category = ?13, buyer_vat_number = ?14, buyer_siret = ?15,
                buyer_service_code = ?16, buyer_electronic_address = ?17
         WHERE id = ?1 AND status = 'brouillon'",
        params![
            id,
            issue.number,
            issue.year,
            issue.seq,
            issue.issued_on,
            issue.due_on,
            issue.buyer.name,
            issue.buyer.address,
            issue.buyer.siren,
            issue.at,
            issue.seller_identity_id,
            issue.series,
            issue.buyer.category.map(Code),
            issue.buyer.vat_number,
            issue.buyer.siret,
            issue.buyer.service_code,
            issue.buyer.electronic_address,
        ],
    )? == 1)
}

/// The version of the seller's identity an issued document was issued
/// under; `None` for a draft, or a document issued before identities were
/// versioned (imported history): it prints the current one.
pub fn seller_identity_of(conn: &Conn, id: &InvoiceId) -> StoreResult<Option<String>> {
    Ok(conn
        .query_row_cached(
            "SELECT seller_identity_id FROM invoices WHERE id = ?1",
            [id],
            |r| r.get::<Option<String>>(0),
        )
        .optional()?
        .flatten())
}

/// Changes the status of an issued document (send, payment) and, for a
/// payment, `paid_on`. Lines, amounts and number are never touched here.
/// False when its status was no longer `from`.
pub fn set_status(
    tx: &Tx,
    id: &InvoiceId,
    from: &str,
    to: &str,
    paid_on: Option<&str>,
    at: &str,
) -> StoreResult<bool> {
    Ok(tx.execute_cached(
        "UPDATE invoices SET status = ?3, paid_on = COALESCE(?4, paid_on), updated_at = ?5
         WHERE id = ?1 AND status = ?2",
        params![id, from, to, paid_on, at],
    )? == 1)
}

/// The agency's invoices and credit notes issued from `from` to `to`
/// (`YYYY-MM-DD`, both included), by issue day then number, one page of
/// them and their count: the accountant's export.
pub fn issued_between(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<InvoiceRow>)> {
    let agency_id = agency_id.as_str();
    let total: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM invoices i
          WHERE i.agency_id = ?1 AND i.number IS NOT NULL AND i.issued_on BETWEEN ?2 AND ?3",
        params![agency_id, from, to],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {INVOICE_COLUMNS} FROM invoices i LEFT JOIN clients c ON c.id = i.client_id
          WHERE i.agency_id = ?1 AND i.number IS NOT NULL AND i.issued_on BETWEEN ?2 AND ?3
          ORDER BY i.issued_on, i.number
          LIMIT ?4 OFFSET ?5"
    ))?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = stmt
        .query_map(
            params![agency_id, from, to, limit, offset],
            invoice_from_row,
        )?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((total, rows))
}

/// The VAT rates (basis points) of the lines of the agency's invoices and
/// credit notes issued from `from` to `to`.
pub fn rates_issued_between(
    conn: &Conn,
    agency_id: &AgencyId,
    from: &str,
    to: &str,
) -> StoreResult<Vec<u32>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT l.vat_rate_bp FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id
          WHERE i.agency_id = ?1 AND i.number IS NOT NULL AND i.issued_on BETWEEN ?2 AND ?3
          ORDER BY 1",
    )?;
    let rows = stmt
        .query_map(params![agency_id.as_str(), from, to], |r| r.get(0))?
        .collect::<Result<Vec<u32>, _>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(tx: &Tx, invoices: usize) -> StoreResult<()> {
        let now = "2026-01-01T00:00:00.000Z";
        tx.execute(
            "INSERT INTO organizations (id, name, created_at) VALUES ('o', 'O', ?1)",
            [now],
        )?;
        for agency in ["a", "b"] {
            tx.execute(
                "INSERT INTO agencies (id, organization_id, name, created_at) VALUES (?1, 'o', ?1, ?2)",
                [agency, now],
            )?;
        }
        for (id, agency, client_ref) in [("c1", "a", "C1"), ("c2", "a", "C2"), ("c3", "b", "C1")] {
            tx.execute(
                "INSERT INTO clients (id, agency_id, client_ref, nom, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?3, ?4, ?4)",
                [id, agency, client_ref, now],
            )?;
        }
        // A deterministic spread: several rows a day, several days, both
        // agencies, with and without client, every status but draft numbers.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |modulo: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % modulo
        };
        for i in 0..invoices {
            let agency = if next(5) == 0 { "b" } else { "a" };
            let client = match (agency, next(3)) {
                ("a", 0) => Some("c1"),
                ("a", 1) => Some("c2"),
                ("b", 0) => Some("c3"),
                _ => None,
            };
            let day = format!("2026-{:02}-{:02}", 1 + next(3), 1 + next(28));
            tx.execute(
                "INSERT INTO invoices (id, agency_id, client_id, nature, status, created_on, created_at, updated_at)
                 VALUES (?1, ?2, ?3, 'facture', 'brouillon', ?4, ?5, ?5)",
                params![format!("inv-{i:05}"), agency, client, day, now],
            )?;
        }
        // Move some through statuses (the update trigger), the way issuing
        // and payment do.
        tx.execute(
            "UPDATE invoices SET status = 'emise', number_year = 2026,
                 number_seq = CAST(substr(id, 5) AS INTEGER) + 1,
                 number = 'FA-2026-' || printf('%06d', CAST(substr(id, 5) AS INTEGER) + 1)
             WHERE CAST(substr(id, 5) AS INTEGER) % 3 <> 0",
            [],
        )?;
        tx.execute(
            "UPDATE invoices SET status = 'payee' WHERE CAST(substr(id, 5) AS INTEGER) % 3 = 1",
            [],
        )?;
        tx.execute(
            "UPDATE invoices SET client_id = 'c2' WHERE id IN ('inv-00004', 'inv-00010')
                 AND agency_id = 'a'",
            [],
        )?;
        // Deleted drafts (the delete triggers).
        tx.execute(
            "DELETE FROM invoices WHERE status = 'brouillon' AND CAST(substr(id, 5) AS INTEGER) % 7 = 0",
            [],
        )?;
        Ok(())
    }

    #[test]
    fn totals_and_far_pages_equal_count_and_offset() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::Store::open(&dir.path().join("t.db")).expect("store");
        store.write_blocking(|tx| seed(tx, 6_000)).expect("seed");
        let filters = [
            InvoiceFilter::default(),
            InvoiceFilter {
                statuses: vec!["payee".into()],
                ..Default::default()
            },
            InvoiceFilter {
                statuses: vec!["emise".into(), "envoyee".into(), "brouillon".into()],
                since: Some("2026-02-03".into()),
                ..Default::default()
            },
            InvoiceFilter {
                client_ref: Some("C2".into()),
                statuses: vec!["payee".into()],
                ..Default::default()
            },
            InvoiceFilter {
                client_ref: Some("C1".into()),
                until: Some("2026-02-14".into()),
                ..Default::default()
            },
            InvoiceFilter {
                client_ref: Some("inconnu".into()),
                ..Default::default()
            },
        ];
        store
            .read_blocking(|conn| -> StoreResult<()> {
                for agency in ["a", "b", "z"] {
                    for filter in &filters {
                        for (limit, offset) in [
                            (50, 0),
                            (50, 13),
                            (3, 149),
                            (50, 1_950),
                            (50, 2_000),
                            (7, 2_345),
                            (200, 3_000),
                            (50, 4_790),
                            (50, 4_799),
                            (50, 5_999),
                            (50, 7_000),
                        ] {
                            let (expected_total, expected) = list_by_offset(
                                conn,
                                &AgencyId::new(agency),
                                filter,
                                limit,
                                offset,
                            )?;
                            // The counters' walk from the first page on, and the default.
                            for seek_from in [0, SEEK_FROM_OFFSET] {
                                let (total, rows) = list_seeking_from(
                                    conn, agency, filter, limit, offset, seek_from,
                                )?;
                                assert_eq!(total, expected_total, "{agency} {filter:?}");
                                let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
                                let expected_ids: Vec<&str> =
                                    expected.iter().map(|r| r.id.as_str()).collect();
                                assert_eq!(
                                    ids, expected_ids,
                                    "{agency} {filter:?} {limit} {offset}"
                                );
                                assert_eq!(
                                    rows.iter().map(|r| &r.client_ref).collect::<Vec<_>>(),
                                    expected.iter().map(|r| &r.client_ref).collect::<Vec<_>>()
                                );
                            }
                        }
                    }
                }
                Ok(())
            })
            .expect("compare");
    }
}
