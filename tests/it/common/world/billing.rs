//! Fixtures: quotes, invoices, payments and credit notes.

use chrono::NaiveDate;
use liftdesk::domain::id::{InvoiceId, QuoteId};
use liftdesk::domain::invoice::InvoiceStatus;
use liftdesk::domain::quote::QuoteAction;
use liftdesk::services::invoices::{self, LineInput, NewInvoiceInput};
use liftdesk::services::quotes::{self, NewQuoteInput};

use super::{World, morning};

impl World {
    /// A line of a quote or an invoice: its label, quantity, unit price
    /// excluding tax in euros and VAT rate in percent (20 when `None`); a
    /// 0 % line says why (`franchise`), as issuing asks.
    pub fn line(label: &str, quantity: f64, unit_price: f64, vat_rate: Option<f64>) -> LineInput {
        LineInput {
            label: Some(label.to_owned()),
            quantity: Some(quantity),
            unit_price: Some(unit_price),
            vat_rate,
            vat_exemption: (vat_rate == Some(0.0)).then(|| "franchise".to_owned()),
        }
    }

    // -- Quotes -------------------------------------------------------------

    /// A draft quote of the equipment (origin `client`); returns its id.
    pub async fn quote(&self, equipment_id: &str, object: &str, rows: Vec<LineInput>) -> String {
        Box::pin(quotes::create(
            &self.store,
            &self.principal,
            NewQuoteInput {
                equipment_id: equipment_id.to_owned(),
                origin: "client".to_owned(),
                object: object.to_owned(),
                rows,
            },
        ))
        .await
        .expect("devis")
    }

    /// Sends, accepts or refuses the quote.
    pub async fn quote_act(&self, quote_id: &str, action: QuoteAction) {
        Box::pin(quotes::act(
            &self.store,
            &self.principal,
            &QuoteId::new(quote_id),
            action,
        ))
        .await
        .expect("action sur le devis");
    }

    /// A quote of the equipment, accepted; returns its id.
    pub async fn accepted_quote(
        &self,
        equipment_id: &str,
        object: &str,
        rows: Vec<LineInput>,
    ) -> String {
        let id = self.quote(equipment_id, object, rows).await;
        self.quote_act(&id, QuoteAction::Accept).await;
        id
    }

    // -- Invoices -----------------------------------------------------------

    /// A draft invoice as given; returns its id.
    pub async fn draft_invoice_with(&self, input: NewInvoiceInput) -> String {
        Box::pin(invoices::create_draft(&self.store, &self.principal, input))
            .await
            .expect("facture en brouillon")
            .into_string()
    }

    /// A draft invoice of the client (`client_ref`) with its lines; returns
    /// its id.
    pub async fn draft_invoice(&self, client_ref: &str, lines: Vec<LineInput>) -> String {
        self.draft_invoice_with(NewInvoiceInput {
            client_id: client_ref.to_owned(),
            lines: Some(lines),
            quote_id: None,
            equipment_ids: Vec::new(),
        })
        .await
    }

    /// Issues the draft (invoice or credit note): its number, today.
    pub async fn issue_invoice(&self, id: &str) {
        Box::pin(invoices::issue(
            &self.store,
            &self.principal,
            &InvoiceId::new(id),
        ))
        .await
        .expect("émission");
    }

    /// Sends the issued document.
    pub async fn send_invoice(&self, id: &str) {
        Box::pin(invoices::send(
            &self.store,
            &self.principal,
            &InvoiceId::new(id),
        ))
        .await
        .expect("envoi");
    }

    /// Records the settlement of the document (its whole balance), paid on
    /// `paid_on` (today when `None`).
    pub async fn record_payment(&self, id: &str, paid_on: Option<NaiveDate>) {
        Box::pin(invoices::record_payment(
            &self.store,
            &self.principal,
            &InvoiceId::new(id),
            invoices::PaymentInput {
                paid_on: paid_on.map(|day| day.format("%Y-%m-%d").to_string()),
                ..invoices::PaymentInput::default()
            },
        ))
        .await
        .expect("règlement");
    }

    /// A credit note of the issued invoice, issued at once (`lines` absent:
    /// what remains to credit); returns its id.
    pub async fn credit_note(&self, invoice_id: &str, lines: Option<Vec<LineInput>>) -> String {
        Box::pin(invoices::create_credit_note(
            &self.store,
            &self.principal,
            &InvoiceId::new(invoice_id),
            lines,
        ))
        .await
        .expect("avoir")
        .into_string()
    }

    /// A draft credit note of the issued invoice, to issue later; returns
    /// its id.
    pub async fn draft_credit_note(&self, invoice_id: &str, lines: Vec<LineInput>) -> String {
        Box::pin(invoices::prepare_credit_note(
            &self.store,
            &self.principal,
            &InvoiceId::new(invoice_id),
            Some(lines),
        ))
        .await
        .expect("avoir en brouillon")
        .into_string()
    }

    /// An invoice of the client (`client_ref`) brought to `status` on `day`,
    /// as it would have been that day: created, then issued, sent or paid
    /// that same day. Returns its id.
    pub async fn invoice_on(
        &self,
        day: NaiveDate,
        client_ref: &str,
        status: InvoiceStatus,
        lines: Vec<LineInput>,
    ) -> String {
        self.at(morning(day), || async {
            let id = self.draft_invoice(client_ref, lines).await;
            if status != InvoiceStatus::Brouillon {
                self.issue_invoice(&id).await;
            }
            match status {
                InvoiceStatus::Envoyee => self.send_invoice(&id).await,
                InvoiceStatus::Payee => self.record_payment(&id, None).await,
                _ => {}
            }
            id
        })
        .await
    }
}
