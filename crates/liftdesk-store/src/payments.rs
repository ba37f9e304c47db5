//! Payments of invoices and refunds of credit notes (`invoice_payments`,
//! migration V18): what each document received, when, how, and how much.

use crate::code::Code;
use crate::sql::params;
use crate::{Conn, StoreResult, Tx};
use liftdesk_domain::id::{AgencyId, InvoiceId};
use liftdesk_domain::invoice::PaymentMethod;

use super::new_id;

/// One payment as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentRow {
    pub id: String,
    pub paid_on: String,
    pub amount_cents: i64,
    pub method: Option<PaymentMethod>,
    pub reference: Option<String>,
    pub created_at: String,
}

/// A payment to record.
#[derive(Debug, Clone)]
pub struct NewPayment<'a> {
    pub agency_id: &'a AgencyId,
    pub invoice_id: &'a InvoiceId,
    pub paid_on: &'a str,
    pub amount_cents: i64,
    pub method: Option<PaymentMethod>,
    pub reference: Option<&'a str>,
    /// The account that recorded it, when there is one.
    pub created_by: Option<&'a str>,
    pub created_at: &'a str,
}

/// Writes a payment; returns its id.
pub fn insert(tx: &Tx, payment: &NewPayment<'_>) -> StoreResult<String> {
    let id = new_id();
    tx.execute_cached(
        "INSERT INTO invoice_payments
             (id, agency_id, invoice_id, paid_on, amount_cents, method, reference, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            id,
            payment.agency_id,
            payment.invoice_id,
            payment.paid_on,
            payment.amount_cents,
            payment.method.map(Code),
            payment.reference,
            payment.created_by,
            payment.created_at,
        ],
    )?;
    Ok(id)
}

/// The payments of `invoice_id`, in the order they were made.
pub fn of_invoice(conn: &Conn, invoice_id: &InvoiceId) -> StoreResult<Vec<PaymentRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, paid_on, amount_cents, method, reference, created_at
         FROM invoice_payments WHERE invoice_id = ?1
         ORDER BY paid_on, created_at, id",
    )?;
    let rows = stmt.query_map([invoice_id], |r| {
        Ok(PaymentRow {
            id: r.get(0)?,
            paid_on: r.get(1)?,
            amount_cents: r.get(2)?,
            method: r.get::<Option<Code<PaymentMethod>>>(3)?.map(|c| c.0),
            reference: r.get(4)?,
            created_at: r.get(5)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// What `invoice_id` received in all, in cents.
pub fn total_of(conn: &Conn, invoice_id: &InvoiceId) -> StoreResult<i64> {
    conn.query_row_cached(
        "SELECT COALESCE(SUM(amount_cents), 0) FROM invoice_payments WHERE invoice_id = ?1",
        [invoice_id],
        |r| r.get(0),
    )
}

/// The latest day `invoice_id` received a payment, if any.
pub fn last_day(conn: &Conn, invoice_id: &InvoiceId) -> StoreResult<Option<String>> {
    conn.query_row_cached(
        "SELECT MAX(paid_on) FROM invoice_payments WHERE invoice_id = ?1",
        [invoice_id],
        |r| r.get(0),
    )
}
