//! The PDF documents of quotes, invoices and credit notes: the service data
//! (`services::invoices::get`, `services::quotes::get`) and the seller's
//! identity (`services::identity::seller`: an issued invoice's as it was at
//! its issue) made into a `documents::*Document`, then rendered off the async
//! runtime. Another agency's document is not found (404), like its reads.

use crate::domain::id::{InvoiceId, QuoteId};
use chrono::NaiveDate;

use crate::clock;
use crate::documents::{self, DocumentLine, InvoiceDocument, InvoiceKind, Party, QuoteDocument};
use crate::domain::day;
use crate::domain::invoice::InvoiceNature;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::identity;
use crate::services::invoices::{self as invoice_service, PAYMENT_TERM_DAYS};
use crate::services::quotes as quote_service;
use crate::store::{Store, invoices as invoice_store, quotes as quote_store};

/// A rendered document: its file name and its bytes.
#[derive(Debug, Clone)]
pub struct PdfFile {
    pub file_name: String,
    pub bytes: Vec<u8>,
}

fn stored_day(text: Option<&str>) -> Option<NaiveDate> {
    text.and_then(day::read)
}

/// The invoice or credit note `id` of the agency, as a PDF.
pub async fn invoice_pdf(store: &Store, p: &Principal, id: &InvoiceId) -> AppResult<PdfFile> {
    let detail = invoice_service::get(store, p, id).await?;
    let agency_id = p.agency_id()?;
    // An issued document prints the seller it was issued by.
    let issued_under = {
        let id = id.clone();
        store
            .read(move |conn| invoice_store::seller_identity_of(conn, &id))
            .await?
    };
    let seller = identity::seller(store, agency_id, issued_under).await?;
    let row = &detail.invoice;
    let kind = if row.nature == InvoiceNature::Avoir {
        InvoiceKind::Avoir
    } else {
        InvoiceKind::Facture
    };
    let created_on = day::read(&row.created_on)
        .ok_or_else(|| anyhow::anyhow!("jour de création illisible : {}", row.created_on))?;
    let document = InvoiceDocument {
        kind,
        number: row.number.clone(),
        credited_number: detail
            .credited_invoice
            .as_ref()
            .and_then(|c| c.number.clone()),
        quote_number: detail.quote.as_ref().and_then(|q| q.number.clone()),
        created_on,
        issued_on: stored_day(row.issued_on.as_deref()),
        due_on: stored_day(row.due_on.as_deref()),
        paid_on: stored_day(row.paid_on.as_deref()),
        payment_term_days: PAYMENT_TERM_DAYS,
        seller,
        buyer: Party {
            name: row.buyer_name.clone().unwrap_or_default(),
            subtitle: None,
            address: row.buyer_address.clone(),
            siren: row.buyer_siren.clone(),
            siret: None,
        },
        lines: detail
            .lines
            .iter()
            .map(|l| DocumentLine {
                label: l.label.clone(),
                quantity_milli: l.quantity_milli,
                unit_price_cents: l.unit_price_cents,
                vat_rate_bp: l.vat_rate_bp,
            })
            .collect(),
        totals: detail.totals.clone(),
    };
    let file_name = documents::invoice_file_name(row.number.as_deref(), row.id.as_str());
    let bytes = render(move || documents::invoice_pdf(&document)).await?;
    Ok(PdfFile { file_name, bytes })
}

/// The quote `id` of the agency, as a PDF.
pub async fn quote_pdf(store: &Store, p: &Principal, id: &str) -> AppResult<PdfFile> {
    let detail = quote_service::get(store, p, &QuoteId::new(id)).await?;
    let agency_id = p.agency_id()?;
    let seller = identity::seller(store, agency_id, None).await?;
    let quote = &detail.quote;
    let buyer = {
        let (agency_id, equipment_id) = (agency_id.to_owned(), quote.equipment_id.clone());
        store
            .read(move |conn| quote_store::equipment_client(conn, &agency_id, &equipment_id))
            .await?
    };
    let created_on = clock::parse_timestamp(&quote.created_at)
        .map(|at| clock::paris_local(at).date())
        .ok_or_else(|| anyhow::anyhow!("date de devis illisible : {}", quote.created_at))?;
    let document = QuoteDocument {
        number: quote.number.clone(),
        object: quote.object.clone(),
        equipment_number: quote.equipment_number.clone(),
        created_on,
        seller,
        buyer: buyer.map(|client| {
            let buyer = invoice_service::buyer_of(&client);
            Party {
                name: buyer.name.unwrap_or_default(),
                subtitle: None,
                address: buyer.address,
                siren: buyer.siren,
                siret: None,
            }
        }),
        lines: detail
            .rows
            .iter()
            .map(|l| DocumentLine {
                label: l.label.clone(),
                quantity_milli: l.quantity_milli,
                unit_price_cents: l.unit_price_cents,
                vat_rate_bp: l.vat_rate_bp,
            })
            .collect(),
        totals: detail.totals.clone(),
    };
    let file_name = documents::quote_file_name(quote.number.as_deref(), quote.id.as_str());
    let bytes = render(move || documents::quote_pdf(&document)).await?;
    Ok(PdfFile { file_name, bytes })
}

/// Rendering is CPU work (layout, font subsetting): off the async workers.
async fn render<F>(job: F) -> AppResult<Vec<u8>>
where
    F: FnOnce() -> anyhow::Result<Vec<u8>> + Send + 'static,
{
    let bytes = tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| anyhow::anyhow!("rendu PDF interrompu : {e}"))??;
    Ok(bytes)
}
