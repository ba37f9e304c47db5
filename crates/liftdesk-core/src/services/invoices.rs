//! Invoices and credit notes: drafts, issue with the gapless legal number,
//! sending, payment, credit notes; and the line rules shared with quotes.
//!
//! Every write is one IMMEDIATE transaction (`Store::write`) with its audit
//! entry. The life cycle is `domain::invoice::transition`; an issued document
//! is never edited nor deleted: nothing here changes the lines or amounts of
//! an invoice once it has left `brouillon`.

use crate::domain::id::AgencyId;
use crate::domain::id::{AccountId, EquipmentId, InvoiceId, QuoteId};
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::json;

use crate::clock;
use crate::domain::day;
use crate::domain::einvoice::{self, VatExemption};
use crate::domain::invoice::{
    self, InvoiceAction, InvoiceNature, InvoiceStatus, LineAmounts, PaymentMethod, Totals,
};
use crate::domain::lines;
pub use crate::domain::lines::{Line, LineInput, check_lines, french_rate};
use crate::domain::money::Cents;
use crate::domain::quote::QuoteStatus;
use crate::domain::{DomainError, TransitionError};
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::identity;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::clients::{self as client_store, ClientRow};
use crate::store::dashboard as store_dashboard;
use crate::store::invoices::{
    self as store, Buyer, CreditNoteRow, InvoiceFilter, InvoiceLineRow, InvoiceRow, NewInvoice,
};
use crate::store::payments::{self as payment_store, PaymentRow};
use crate::store::quotes::QuoteRow;
use crate::store::{Conn, Tx};
use crate::store::{Store, quotes as quote_store};

pub use liftdesk_domain::invoice::PAYMENT_TERM_DAYS;
/// Who makes a change, as the writes need it inside their transaction: the
/// audit's actor and the account (for `created_by`).
#[derive(Debug, Clone)]
pub(crate) struct Author {
    pub actor: Actor,
    pub account_id: Option<AccountId>,
}

impl Author {
    pub(crate) fn of(principal: &Principal) -> Self {
        Self {
            actor: principal.actor.clone(),
            account_id: principal.account.as_ref().map(|a| a.id.clone()),
        }
    }
}

/// Totals of stored lines.
pub fn totals_of(lines: &[InvoiceLineRow]) -> Totals {
    let amounts: Vec<LineAmounts> = lines.iter().map(line_amounts).collect();
    invoice::totals(&amounts)
}

fn line_amounts(line: &InvoiceLineRow) -> LineAmounts {
    LineAmounts {
        quantity_milli: line.quantity_milli,
        unit_price: Cents::new(line.unit_price_cents),
        vat_rate_bp: line.vat_rate_bp,
    }
}

fn to_rows(lines: &[Line]) -> Vec<InvoiceLineRow> {
    lines
        .iter()
        .map(|l| InvoiceLineRow {
            label: l.label.clone(),
            quantity_milli: l.quantity_milli,
            unit_price_cents: l.unit_price.get(),
            vat_rate_bp: l.vat_rate_bp,
            vat_exemption: l.vat_exemption,
        })
        .collect()
}

fn refused(err: TransitionError) -> AppError {
    AppError::unprocessable(err.to_string())
}

fn domain_refused(err: DomainError) -> AppError {
    AppError::unprocessable(err.to_string())
}

fn not_found() -> AppError {
    AppError::not_found("Facture introuvable.")
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/// The list's filters as received (query parameters).
#[derive(Debug, Clone, Default)]
pub struct ListInput {
    pub client: Option<String>,
    /// Documents at any of these statuses; empty: any status. The REST API
    /// sends at most one (its `status` parameter); the MCP tool `factures`
    /// may send several ("unpaid" is `emise` or `envoyee`).
    pub statuses: Vec<String>,
    pub since: Option<String>,
    pub until: Option<String>,
    /// Only invoices past due (issued or sent, not settled, due before
    /// today).
    pub overdue: bool,
    /// The dashboard's figures (the screens' list only): invoices issued
    /// from / to a day, invoices paid (a payment received) from / to a day.
    pub issued_since: Option<String>,
    pub issued_until: Option<String>,
    pub paid_since: Option<String>,
    pub paid_until: Option<String>,
    /// An age bucket of the unpaid amount (`store::dashboard::UNPAID_BUCKETS`:
    /// `a_echoir`, `0_30`, `31_60`, `61_90`, `plus_90`), or `tout`: every
    /// unpaid invoice.
    pub unpaid: Option<String>,
}

/// The `unpaid` filter's value for every unpaid invoice, due or not.
pub const ALL_UNPAID: &str = "tout";

/// The list's filters checked: the store's, and what depends on today
/// (the store's, taken by [`list`]): only the invoices past due, or an age
/// bucket of the unpaid ones.
#[derive(Debug, Clone)]
pub struct ListFilter {
    filter: InvoiceFilter,
    overdue: bool,
    unpaid: Option<UnpaidBucket>,
}

/// An age bucket of the unpaid invoices, as the dashboard counts them
/// (`store::dashboard::unpaid_by_age`): not yet due, or due 0–30, 31–60,
/// 61–90 or more than 90 days ago.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UnpaidBucket {
    /// Every unpaid invoice, due or not (the dashboard's unpaid total).
    All,
    NotDue,
    Days(u64, Option<u64>),
}

impl UnpaidBucket {
    /// `tout`, or a bucket of `domain::invoice::UNPAID_BUCKETS` (the one
    /// definition the dashboard counts by).
    fn parse(code: &str) -> Option<Self> {
        if code == ALL_UNPAID {
            return Some(Self::All);
        }
        let (_, days) = crate::domain::invoice::UNPAID_BUCKETS
            .iter()
            .find(|(c, _)| *c == code)?;
        Some(match days {
            None => Self::NotDue,
            Some((first, last)) => Self::Days(*first, *last),
        })
    }

    /// The store's filter of this bucket seen on `today`.
    fn apply(self, today: NaiveDate, filter: &mut store::DashboardFilter) {
        filter.unpaid = true;
        let ago = |days: u64| {
            day::iso(
                today
                    .checked_sub_days(chrono::Days::new(days))
                    .unwrap_or(NaiveDate::MIN),
            )
        };
        match self {
            Self::All => {}
            Self::NotDue => filter.due_after = Some(day::iso(today)),
            Self::Days(least, most) => {
                filter.due_to = Some(ago(least));
                filter.due_from = most.map(ago);
            }
        }
    }
}

/// Checks the filters: an unknown status is 422, a day that is not
/// `YYYY-MM-DD` is 400, `since` after `until` is 422.
pub fn check_filter(input: ListInput) -> AppResult<ListFilter> {
    let mut statuses: Vec<String> = Vec::with_capacity(input.statuses.len());
    for status in input.statuses {
        if InvoiceStatus::parse(&status).is_none() {
            return Err(AppError::unprocessable(format!(
                "Statut de facture inconnu : « {status} ». Valeurs possibles : {}.",
                InvoiceStatus::CODES.join(", ")
            )));
        }
        if !statuses.contains(&status) {
            statuses.push(status);
        }
    }
    let day = |name: &str, value: &Option<String>| -> AppResult<Option<NaiveDate>> {
        value
            .as_deref()
            .map(|text| {
                day::read(text).ok_or_else(|| {
                    AppError::bad_request(format!(
                        "Le paramètre « {name} » doit être une date au format AAAA-MM-JJ (reçu : « {text} »)."
                    ))
                })
            })
            .transpose()
    };
    let since = day("since", &input.since)?;
    let until = day("until", &input.until)?;
    let issued_since = day("issuedSince", &input.issued_since)?;
    let issued_until = day("issuedUntil", &input.issued_until)?;
    let paid_since = day("paidSince", &input.paid_since)?;
    let paid_until = day("paidUntil", &input.paid_until)?;
    let unpaid = match input.unpaid.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(code) => Some(UnpaidBucket::parse(code).ok_or_else(|| {
            AppError::bad_request(format!(
                "Le paramètre « unpaid » vaut {}, ou {ALL_UNPAID} (reçu : « {code} »).",
                store_dashboard::UNPAID_BUCKETS.join(", ")
            ))
        })?),
    };
    if let (Some(since), Some(until)) = (since, until)
        && since > until
    {
        return Err(AppError::unprocessable(format!(
            "La période est vide : « since » ({}) est postérieur à « until » ({}).",
            day::iso(since),
            day::iso(until)
        )));
    }
    Ok(ListFilter {
        filter: InvoiceFilter {
            client_ref: input.client,
            statuses,
            since: since.map(day::iso),
            until: until.map(day::iso),
            due_before: None,
            dashboard: store::DashboardFilter {
                issued_since: issued_since.map(day::iso),
                issued_until: issued_until.map(day::iso),
                paid_since: paid_since.map(day::iso),
                paid_until: paid_until.map(day::iso),
                ..store::DashboardFilter::default()
            },
        },
        overdue: input.overdue,
        unpaid,
    })
}

/// One page of the agency's invoices and credit notes, and the total.
pub async fn list(
    store: &Store,
    p: &Principal,
    filter: ListFilter,
    limit: u32,
    offset: u64,
) -> AppResult<std::sync::Arc<(i64, Vec<InvoiceRow>)>> {
    let agency_id = p.agency_id()?;
    let ListFilter {
        mut filter,
        overdue,
        unpaid,
    } = filter;
    // Today, in Paris.
    let today = clock::paris_local(store.now()).date();
    if overdue {
        filter.due_before = Some(day::iso(today));
    }
    if let Some(bucket) = unpaid {
        bucket.apply(today, &mut filter.dashboard);
    }
    // Kept in memory until the database changes (`store::cache`): the key
    // holds every parameter of the page.
    let key = format!("invoices:{agency_id}:{filter:?}:{limit}:{offset}");
    let agency_id = agency_id.to_owned();
    Ok(store
        .read_cached(key, move |conn| {
            store::list(conn, &agency_id, &filter, limit, offset)
        })
        .await?)
}

/// A referenced document: id and number.
#[derive(Debug, Clone)]
pub struct DocumentRef {
    pub id: String,
    pub number: Option<String>,
}

/// An invoice or credit note with everything its page shows.
#[derive(Debug, Clone)]
pub struct InvoiceDetail {
    pub invoice: InvoiceRow,
    pub lines: Vec<InvoiceLineRow>,
    pub totals: Totals,
    /// For a credit note: the invoice it credits.
    pub credited_invoice: Option<DocumentRef>,
    /// For an invoice: its credit notes, drafts included.
    pub credit_notes: Vec<CreditNoteRow>,
    pub quote: Option<DocumentRef>,
    /// For an issued invoice: what is left to credit, including tax
    /// (`domain::invoice::remaining_to_credit`); `None` for a draft or a
    /// credit note.
    pub remaining_to_credit: Option<Cents>,
    /// For an invoice: the total of its issued credit notes.
    pub credited: Cents,
    /// Its payments (a credit note's refunds), in the order they were made.
    pub payments: Vec<PaymentRow>,
    /// What is still due (`domain::invoice::balance`); `None` for a draft.
    pub balance: Option<Cents>,
    /// The lifts it is about, with their buildings.
    pub equipment: Vec<store::InvoiceEquipmentRow>,
    /// The buyer's e-invoicing data frozen at the issue.
    pub einvoicing: store::BuyerEInvoicing,
}

pub async fn get(store: &Store, p: &Principal, id: &InvoiceId) -> AppResult<InvoiceDetail> {
    let agency_id = p.agency_id()?;
    let (agency_id, id) = (agency_id.to_owned(), id.to_owned());
    store.read(move |conn| get_in(conn, &agency_id, &id)).await
}

/// [`get`] on a connection (a read, or the transaction that sends it).
pub fn get_in(conn: &Conn, agency_id: &AgencyId, id: &InvoiceId) -> AppResult<InvoiceDetail> {
    let invoice = store::get(conn, agency_id, id)?.ok_or_else(not_found)?;
    let lines = store::lines(conn, &invoice.id)?;
    let totals = totals_of(&lines);
    let credited_invoice = match &invoice.credited_invoice_id {
        Some(credited) => store::get(conn, agency_id, credited)?.map(|c| DocumentRef {
            id: c.id.into_string(),
            number: c.number,
        }),
        None => None,
    };
    let credit_notes = if invoice.nature == InvoiceNature::Facture {
        store::credit_notes(conn, &invoice.id)?
    } else {
        Vec::new()
    };
    let quote = match &invoice.quote_id {
        Some(quote_id) => quote_store::get(conn, agency_id, quote_id)?.map(|q| DocumentRef {
            id: q.id.into_string(),
            number: q.number,
        }),
        None => None,
    };
    let credited = credited_of(conn, &invoice)?;
    let creditable = invoice::check_creditable(invoice.nature, invoice.status).is_ok();
    let remaining_to_credit = creditable
        .then(|| invoice::remaining_to_credit(Cents::new(invoice.total_incl_cents), credited));
    let payments = payment_store::of_invoice(conn, &invoice.id)?;
    let equipment = store::equipment_of(conn, &invoice.id)?;
    let einvoicing = store::buyer_einvoicing(conn, &invoice.id)?;
    let paid = Cents::new(payments.iter().map(|p| p.amount_cents).sum());
    let balance =
        (invoice.status != InvoiceStatus::Brouillon).then(|| balance_of(&invoice, credited, paid));
    Ok(InvoiceDetail {
        invoice,
        lines,
        totals,
        credited_invoice,
        credit_notes,
        quote,
        remaining_to_credit,
        credited,
        payments,
        balance,
        equipment,
        einvoicing,
    })
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/// A new draft invoice as received.
#[derive(Debug, Clone, Default)]
pub struct NewInvoiceInput {
    /// The partner's client identifier (`client_id`, `clients.client_ref`).
    pub client_id: String,
    /// Absent: the rows of the quote `quote_id` are copied.
    pub lines: Option<Vec<LineInput>>,
    /// An accepted quote of the agency that this invoice bills.
    pub quote_id: Option<String>,
    /// The lifts the invoice is about (ids of the agency's equipment); a
    /// quote's lift is added first.
    pub equipment_ids: Vec<String>,
}

/// The most lifts one invoice names.
pub const MAX_INVOICE_EQUIPMENT: usize = 50;

/// The lifts named by an invoice, checked: at most
/// [`MAX_INVOICE_EQUIPMENT`], each an equipment of the agency (422 naming
/// the unknown one); duplicates and blanks dropped, `first` (a quote's
/// lift) ahead of the others.
fn invoice_equipment(
    tx: &Tx,
    agency_id: &AgencyId,
    first: Option<&EquipmentId>,
    given: &[String],
) -> AppResult<Vec<EquipmentId>> {
    if given.len() > MAX_INVOICE_EQUIPMENT {
        return Err(AppError::unprocessable(format!(
            "Une facture nomme au plus {MAX_INVOICE_EQUIPMENT} appareils (reçu : {}).",
            given.len()
        )));
    }
    let mut ids: Vec<EquipmentId> = first.into_iter().cloned().collect();
    for raw in given.iter().map(|id| id.trim()).filter(|id| !id.is_empty()) {
        let id = EquipmentId::new(raw);
        if ids.contains(&id) {
            continue;
        }
        quote_store::find_equipment(tx, agency_id, &id)?.ok_or_else(|| {
            AppError::unprocessable(format!(
                "Équipement introuvable dans cette agence : « {raw} »."
            ))
        })?;
        ids.push(id);
    }
    Ok(ids)
}

/// The client as an invoice's buyer: its name, address and SIREN, and
/// what the structured invoice carries (category, VAT number, SIRET,
/// service code, and the electronic address: the one recorded, else the
/// SIREN's default; none without SIREN, the issue then gives the
/// e-reporting one).
pub(crate) fn buyer_of(client: &ClientRow) -> Buyer {
    let (_, electronic_address) = crate::services::clients::einvoicing_of(client);
    Buyer {
        name: Some(client.nom.clone()),
        address: crate::services::clients::one_line_address(client),
        siren: client.siren.clone(),
        category: client.billing_category,
        vat_number: client.vat_number.clone(),
        siret: client.siret.clone(),
        service_code: client.service_code.clone(),
        electronic_address,
    }
}

/// The client `client_ref` of the agency, when it may be invoiced.
fn invoiceable_client(tx: &Tx, agency_id: &AgencyId, client_ref: &str) -> AppResult<ClientRow> {
    let client = client_store::find_by_ref(tx, agency_id, client_ref)?.ok_or_else(|| {
        AppError::unprocessable(format!(
            "Client introuvable dans cette agence : « {client_ref} »."
        ))
    })?;
    check_not_archived(&client)?;
    Ok(client)
}

fn check_not_archived(client: &ClientRow) -> AppResult<()> {
    if client.supprime {
        return Err(AppError::unprocessable(format!(
            "Le client « {} » est archivé : il ne peut plus être facturé.",
            client.nom
        )));
    }
    Ok(())
}

/// Only an accepted quote is invoiced.
fn check_quote_invoiceable(quote: &QuoteRow) -> AppResult<()> {
    if quote.status != QuoteStatus::Accepte {
        let label = quote.status.label();
        return Err(AppError::unprocessable(format!(
            "Seul un devis accepté peut être facturé : le devis {} est au statut « {label} ».",
            quote.number.as_deref().unwrap_or(quote.id.as_str())
        )));
    }
    Ok(())
}

/// A quote is turned into one invoice only (409 once it has one).
fn check_not_invoiced(tx: &Tx, quote: &QuoteRow) -> AppResult<()> {
    if let Some((_, number)) = store::invoice_of_quote(tx, &quote.id)? {
        let invoice = match number {
            Some(number) => format!("facture {number}"),
            None => "facture en brouillon".to_owned(),
        };
        return Err(AppError::conflict(format!(
            "Le devis {} est déjà facturé ({invoice}) : un devis ne devient qu'une seule facture.",
            quote.number.as_deref().unwrap_or(quote.id.as_str())
        )));
    }
    Ok(())
}

fn quote_rows_as_lines(tx: &Tx, quote_id: &QuoteId) -> AppResult<Vec<InvoiceLineRow>> {
    Ok(quote_store::lines(tx, quote_id)?
        .into_iter()
        .map(|l| InvoiceLineRow {
            label: l.label,
            quantity_milli: l.quantity_milli,
            unit_price_cents: l.unit_price_cents,
            vat_rate_bp: l.vat_rate_bp,
            vat_exemption: l.vat_exemption,
        })
        .collect())
}

/// Creates a draft invoice (`brouillon`, no number); returns its id.
pub async fn create_draft(
    store: &Store,
    p: &Principal,
    input: NewInvoiceInput,
) -> AppResult<InvoiceId> {
    check_draft(p, &input)?;
    let p = p.clone();
    store.write(move |tx| create_draft_in(tx, &p, &input)).await
}

/// A new draft's input checked: its lines, when given.
fn check_draft(p: &Principal, input: &NewInvoiceInput) -> AppResult<Option<Vec<Line>>> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    if input.client_id.is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « clientId » est obligatoire.",
        ));
    }
    let given_lines = input
        .lines
        .as_deref()
        .map(|rows| check_lines(rows, "La facture"))
        .transpose()?;
    if given_lines.is_none() && input.quote_id.is_none() {
        return Err(AppError::unprocessable(
            "Indiquez les lignes de la facture (« lines ») ou le devis accepté à facturer (« quoteId »).",
        ));
    }
    Ok(given_lines)
}

/// [`create_draft`]'s step in `tx`, at its time.
pub fn create_draft_in(tx: &Tx, p: &Principal, input: &NewInvoiceInput) -> AppResult<InvoiceId> {
    let given_lines = check_draft(p, input)?;
    let agency_id = p.agency_id()?;
    let author = Author::of(p);
    let client_ref = &input.client_id;
    let quote_id = input.quote_id.clone().map(QuoteId::new);
    let client = invoiceable_client(tx, agency_id, client_ref)?;
    let quote = match &quote_id {
        Some(quote_id) => {
            let quote = quote_store::get(tx, agency_id, quote_id)?.ok_or_else(|| {
                AppError::unprocessable(format!(
                    "Devis introuvable dans cette agence : « {quote_id} »."
                ))
            })?;
            check_quote_invoiceable(&quote)?;
            // Copying the quote is turning it into its invoice: once.
            if given_lines.is_none() {
                check_not_invoiced(tx, &quote)?;
            }
            Some(quote)
        }
        None => None,
    };
    let rows = match (given_lines, &quote) {
        (Some(lines), _) => to_rows(&lines),
        (None, Some(quote)) => quote_rows_as_lines(tx, &quote.id)?,
        (None, None) => Vec::new(),
    };
    if rows.is_empty() {
        return Err(AppError::unprocessable(
            "La facture doit comporter au moins une ligne.",
        ));
    }
    let equipment_ids = invoice_equipment(
        tx,
        agency_id,
        quote.as_ref().map(|q| &q.equipment_id),
        &input.equipment_ids,
    )?;
    let totals = totals_of(&rows);
    let now = tx.now();
    let buyer = buyer_of(&client);
    let id = store::insert_draft(
        tx,
        &NewInvoice {
            agency_id: agency_id.as_str(),
            nature: InvoiceNature::Facture.as_str(),
            client_id: Some(&client.id),
            credited_invoice_id: None,
            quote_id: quote.as_ref().map(|q| &q.id),
            buyer: &buyer,
            total_excl_cents: totals.excl_tax.get(),
            total_incl_cents: totals.incl_tax.get(),
            created_on: &day::iso(clock::paris_local(now).date()),
            created_at: &clock::format_timestamp(now),
            lines: &rows,
            equipment_ids: &equipment_ids,
            contract: None,
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "creation",
            object_type: "invoice",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "nature": "facture",
                "client": client.client_ref,
                "quote": quote.as_ref().map(|q| q.id.clone()),
                "equipment": equipment_ids.len(),
                "lines": rows.len(),
                "totalInclCents": totals.incl_tax.get(),
            })),
        },
    )?;
    Ok(id)
}

/// Turns an accepted quote into its draft invoice: the quote's rows copied,
/// made out to `client_ref` when given, else to the client of the quote's
/// equipment (or of its building). Once per quote (409 after). Returns the
/// invoice's id.
pub async fn invoice_quote(
    store: &Store,
    p: &Principal,
    quote_id: &QuoteId,
    client_ref: Option<String>,
) -> AppResult<InvoiceId> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let (p, quote_id) = (p.clone(), quote_id.to_owned());
    store
        .write(move |tx| invoice_quote_in(tx, &p, &quote_id, client_ref))
        .await
}

/// [`invoice_quote`]'s step in `tx`, at its time.
pub fn invoice_quote_in(
    tx: &Tx,
    p: &Principal,
    quote_id: &QuoteId,
    client_ref: Option<String>,
) -> AppResult<InvoiceId> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let author = Author::of(p);
    let quote = quote_store::get(tx, agency_id, quote_id)?
        .ok_or_else(|| AppError::not_found("Devis introuvable."))?;
    check_quote_invoiceable(&quote)?;
    check_not_invoiced(tx, &quote)?;
    let client = match client_ref.as_deref().map(str::trim) {
        Some(client_ref) if !client_ref.is_empty() => {
            invoiceable_client(tx, agency_id, client_ref)?
        }
        _ => {
            let number = quote.number.as_deref().unwrap_or(quote.id.as_str());
            let no_client = || {
                AppError::unprocessable(format!(
                    "L'équipement du devis {number} n'est rattaché à aucun client : indiquez le client à facturer (« clientId »)."
                ))
            };
            let client_id =
                quote_store::equipment_client_id(tx, &quote.equipment_id)?.ok_or_else(no_client)?;
            let client = client_store::find(tx, agency_id, &client_id)?.ok_or_else(no_client)?;
            check_not_archived(&client)?;
            client
        }
    };
    let rows = quote_rows_as_lines(tx, &quote.id)?;
    if rows.is_empty() {
        return Err(AppError::unprocessable(
            "La facture doit comporter au moins une ligne.",
        ));
    }
    let totals = totals_of(&rows);
    let now = tx.now();
    let buyer = buyer_of(&client);
    let id = store::insert_draft(
        tx,
        &NewInvoice {
            agency_id: agency_id.as_str(),
            nature: InvoiceNature::Facture.as_str(),
            client_id: Some(&client.id),
            credited_invoice_id: None,
            quote_id: Some(&quote.id),
            buyer: &buyer,
            total_excl_cents: totals.excl_tax.get(),
            total_incl_cents: totals.incl_tax.get(),
            created_on: &day::iso(clock::paris_local(now).date()),
            created_at: &clock::format_timestamp(now),
            lines: &rows,
            equipment_ids: std::slice::from_ref(&quote.equipment_id),
            contract: None,
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "creation",
            object_type: "invoice",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "nature": "facture",
                "client": client.client_ref,
                "quote": quote.id,
                "quoteNumber": quote.number,
                "lines": rows.len(),
                "totalInclCents": totals.incl_tax.get(),
            })),
        },
    )?;
    Ok(id)
}

/// What a draft's edition changes; absent fields stay as they are.
#[derive(Debug, Clone, Default)]
pub struct DraftChange {
    /// The invoiced client (`client_ref`): the buyer follows it.
    pub client_id: Option<String>,
    /// Every line, replacing the draft's (same rules as at creation).
    pub lines: Option<Vec<LineInput>>,
    /// Every lift it is about, replacing the draft's (an empty list: none).
    pub equipment_ids: Option<Vec<String>>,
}

/// Edits a draft invoice (`PATCH` semantics: only what is given changes).
/// An issued document is frozen: 409 with the reason; a credit note is
/// never edited (409 too).
pub async fn update_draft(
    store: &Store,
    p: &Principal,
    id: &InvoiceId,
    change: DraftChange,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let author = Author::of(p);
    if change.client_id.is_none() && change.lines.is_none() && change.equipment_ids.is_none() {
        return Err(AppError::unprocessable(
            "Rien à modifier : indiquez le client (« clientId »), les lignes (« lines ») ou les appareils (« equipmentIds »).",
        ));
    }
    let given_lines = change
        .lines
        .as_deref()
        .map(|rows| check_lines(rows, "La facture"))
        .transpose()?;
    let (agency_id, id) = (agency_id.to_owned(), id.to_owned());
    let client_ref = change.client_id;
    let given_equipment = change.equipment_ids;
    store
        .write(move |tx| {
            let row = store::get(tx, &agency_id, &id)?.ok_or_else(not_found)?;
            let (nature, status) = (row.nature, row.status);
            if let Some(reason) = invoice::edit_refusal(nature, status) {
                return Err(AppError::conflict(reason));
            }
            let (client_id, buyer) = match client_ref.as_deref() {
                Some(client_ref) => {
                    let client = invoiceable_client(tx, &agency_id, client_ref)?;
                    let buyer = buyer_of(&client);
                    (Some(client.id), buyer)
                }
                None => (row.client_id.clone(), stored_buyer(tx, &row)?),
            };
            let rows = match &given_lines {
                Some(lines) => to_rows(lines),
                None => store::lines(tx, &row.id)?,
            };
            let totals = totals_of(&rows);
            let changed = store::replace_draft(
                tx,
                &id,
                &store::DraftContent {
                    client_id: client_id.as_ref(),
                    buyer: &buyer,
                    total_excl_cents: totals.excl_tax.get(),
                    total_incl_cents: totals.incl_tax.get(),
                    lines: &rows,
                    at: &tx.now_text(),
                },
            )?;
            if !changed {
                return Err(anyhow::anyhow!("la facture {id} n'était plus un brouillon").into());
            }
            let equipment = match &given_equipment {
                Some(given) => {
                    let ids = invoice_equipment(tx, &agency_id, None, given)?;
                    store::set_equipment(tx, &id, &ids)?;
                    Some(ids.len())
                }
                None => None,
            };
            audit::record(
                tx,
                AuditEntry {
                    agency_id: Some(agency_id.as_str()),
                    actor: &author.actor,
                    action: "modification",
                    object_type: "invoice",
                    object_id: Some(id.as_str()),
                    detail: Some(json!({
                        "client": client_ref,
                        "lines": given_lines.as_ref().map(Vec::len),
                        "equipment": equipment,
                        "totalInclCents": totals.incl_tax.get(),
                    })),
                },
            )?;
            Ok(())
        })
        .await
}

/// Gives a draft its number (next of the series agency × nature × year of
/// issue, in this transaction), `issued_on` = today (in Paris, the agency's day), `due_on` = issue +
/// 30 days, and the buyer frozen. Returns the number.
fn number_in(
    tx: &Tx,
    invoice: &InvoiceRow,
    nature: InvoiceNature,
    buyer: &Buyer,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<String> {
    // The seller's SIRET and address (and its VAT number when the document
    // charges VAT) first: refused, no number is taken.
    let lines = store::lines(tx, &invoice.id)?;
    if let Some(line) =
        lines::first_unexplained_exemption(lines.iter().map(|l| (l.vat_rate_bp, l.vat_exemption)))
    {
        let document = nature.cannot_be_issued();
        return Err(AppError::unprocessable(format!(
            "{document} : la ligne {line} est à 0 % de TVA sans motif d'exonération. Choisissez-en un ({}) en modifiant la pièce. Aucun numéro n'a été attribué.",
            VatExemption::ALL
                .iter()
                .map(|e| format!("« {} »", e.label()))
                .collect::<Vec<_>>()
                .join(" ou ")
        )));
    }
    if let Some(line) = einvoice::unidentified_reverse_charge(
        lines.iter().map(|l| l.vat_exemption),
        buyer.siren.is_some() || buyer.vat_number.is_some(),
    ) {
        let document = nature.cannot_be_issued();
        return Err(AppError::unprocessable(format!(
            "{document} : la ligne {line} est en autoliquidation, qui ne vaut qu'entre professionnels : renseignez le SIREN ou le numéro de TVA intracommunautaire du client sur sa fiche. Aucun numéro n'a été attribué."
        )));
    }
    let seller = identity::seller_for_issue(tx, &invoice.agency_id, nature)?;
    // A buyer without SIREN has no address in the directory: its
    // document carries the agency's e-reporting one.
    let mut buyer = buyer.clone();
    if buyer.electronic_address.is_none()
        && let Some(siren) = seller.siren.as_deref()
    {
        let client_ref = invoice.client_ref.as_deref().unwrap_or(invoice.id.as_str());
        buyer.electronic_address = Some(einvoice::reporting_address(siren, client_ref));
    }
    let buyer = &buyer;
    let today = clock::paris_local(now).date();
    let year = today.year();
    let seq = store::next_number_seq(tx, &invoice.agency_id, nature.as_str(), year)?;
    let number = invoice::format_number(nature, seller.invoice_series.as_deref(), year, seq);
    let issued = store::issue(
        tx,
        &invoice.id,
        &store::Issue {
            number: &number,
            series: seller.invoice_series.as_deref(),
            year,
            seq,
            issued_on: &day::iso(today),
            due_on: &day::iso(today + Duration::days(PAYMENT_TERM_DAYS)),
            buyer,
            seller_identity_id: &seller.identity_id,
            at: &clock::format_timestamp(now),
        },
    )?;
    if !issued {
        return Err(anyhow::anyhow!("la facture {} n'était plus un brouillon", invoice.id).into());
    }
    Ok(number)
}

/// The credited invoice of a credit note, and the check that this credit
/// note still fits in what remains to credit.
fn check_credit_note_fits(tx: &Tx, credit_note: &InvoiceRow) -> AppResult<InvoiceRow> {
    let credited_id = credit_note
        .credited_invoice_id
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("avoir {} sans facture créditée", credit_note.id))?;
    let credited = store::get(tx, &credit_note.agency_id, credited_id)?
        .ok_or_else(|| anyhow::anyhow!("facture créditée {credited_id} introuvable"))?;
    let (nature, status) = (credited.nature, credited.status);
    invoice::check_creditable(nature, status).map_err(domain_refused)?;
    let already = store::issued_credit_total(tx, &credited.id)?;
    invoice::check_credit(
        Cents::new(credited.total_incl_cents),
        Cents::new(already),
        Cents::new(credit_note.total_incl_cents),
    )
    .map_err(domain_refused)?;
    Ok(credited)
}

/// What an action on an invoice of this nature asks of the principal:
/// issuing a credit note (one prepared as a draft) is crediting, the same
/// right as creating one; the rest is a change of the agency's records.
fn capability_for(nature: InvoiceNature, action: InvoiceAction) -> Capability<'static> {
    match (nature, action) {
        (InvoiceNature::Avoir, InvoiceAction::Issue) => Capability::CreditInvoice,
        _ => Capability::Change,
    }
}

/// What the principal may do to the document now, as the screens offer it
/// (`edit`, the actions of `domain::invoice` its status accepts and its
/// rights allow, `credit_note` while something remains to credit).
pub fn actions(p: &Principal, detail: &InvoiceDetail) -> Vec<&'static str> {
    let (nature, status) = (detail.invoice.nature, detail.invoice.status);
    let mut actions = Vec::new();
    if invoice::edit_refusal(nature, status).is_none() && p.can(Capability::Change) {
        actions.push("edit");
    }
    actions.extend(
        InvoiceAction::ALL
            .iter()
            .filter(|&&action| invoice::transition(nature, status, action).is_ok())
            .filter(|&&action| {
                action != InvoiceAction::RecordPayment
                    || detail.balance.is_some_and(|b| b.is_positive())
            })
            .filter(|&&action| p.can(capability_for(nature, action)))
            .map(|action| action.as_str()),
    );
    if detail.remaining_to_credit.is_some_and(|r| r.is_positive())
        && p.can(Capability::CreditInvoice)
    {
        actions.push("credit_note");
    }
    actions
}

/// `brouillon` → `emise`: the number is given here, never before.
pub async fn issue(store: &Store, p: &Principal, id: &InvoiceId) -> AppResult<()> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let (p, id) = (p.clone(), id.to_owned());
    store.write(move |tx| issue_in(tx, &p, &id)).await
}

/// [`issue`]'s step in `tx`, at its time.
pub fn issue_in(tx: &Tx, p: &Principal, id: &InvoiceId) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let author = Author::of(p);
    let row = store::get(tx, agency_id, id)?.ok_or_else(not_found)?;
    let (nature, status) = (row.nature, row.status);
    p.require(capability_for(nature, InvoiceAction::Issue))?;
    invoice::transition(nature, status, InvoiceAction::Issue).map_err(refused)?;
    let buyer = match nature {
        // A credit note is made out to the buyer of the invoice it credits.
        InvoiceNature::Avoir => {
            let credited = check_credit_note_fits(tx, &row)?;
            stored_buyer(tx, &credited)?
        }
        // An invoice is made out to the client as it is at the issue.
        InvoiceNature::Facture => match &row.client_id {
            Some(client_id) => match client_store::find(tx, agency_id, client_id)? {
                Some(client) => buyer_of(&client),
                None => stored_buyer(tx, &row)?,
            },
            None => stored_buyer(tx, &row)?,
        },
    };
    let number = number_in(tx, &row, nature, &buyer, tx.now())?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "emission",
            object_type: "invoice",
            object_id: Some(id.as_str()),
            detail: Some(json!({ "nature": nature.as_str(), "number": number })),
        },
    )?;
    if let Some(credited_id) = row.credited_invoice_id.as_ref()
        && nature == InvoiceNature::Avoir
    {
        settle_credited_in(tx, agency_id, &author, credited_id, &number)?;
    }
    Ok(())
}

/// The buyer a document holds (a credit note's is its invoice's).
fn stored_buyer(conn: &Conn, row: &InvoiceRow) -> AppResult<Buyer> {
    let einvoicing = store::buyer_einvoicing(conn, &row.id)?;
    Ok(Buyer {
        name: row.buyer_name.clone(),
        address: row.buyer_address.clone(),
        siren: row.buyer_siren.clone(),
        category: einvoicing.category,
        vat_number: einvoicing.vat_number,
        siret: einvoicing.siret,
        service_code: einvoicing.service_code,
        electronic_address: einvoicing.electronic_address,
    })
}

/// `emise` → `envoyee`, or a reminder of an `envoyee` document.
pub async fn send(store: &Store, p: &Principal, id: &InvoiceId) -> AppResult<()> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let (p, id) = (p.clone(), id.to_owned());
    store.write(move |tx| send_in(tx, &p, &id)).await
}

/// [`send`]'s step in `tx`, at its time.
pub fn send_in(tx: &Tx, p: &Principal, id: &InvoiceId) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let author = Author::of(p);
    let row = store::get(tx, agency_id, id)?.ok_or_else(not_found)?;
    let (nature, status) = (row.nature, row.status);
    let next = invoice::transition(nature, status, InvoiceAction::Send).map_err(refused)?;
    let changed = store::set_status(
        tx,
        id,
        status.as_str(),
        next.status.as_str(),
        None,
        &tx.now_text(),
    )?;
    if !changed {
        return Err(anyhow::anyhow!("statut de la facture {id} changé entre-temps").into());
    }
    let reminder = status == InvoiceStatus::Envoyee;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: if reminder { "relance" } else { "envoi" },
            object_type: "invoice",
            object_id: Some(id.as_str()),
            detail: Some(json!({ "number": row.number })),
        },
    )?;
    Ok(())
}

/// A payment as received (`POST /invoices/{id}/payment`): every field is
/// optional.
#[derive(Debug, Clone, Default)]
pub struct PaymentInput {
    /// `YYYY-MM-DD`; today when absent.
    pub paid_on: Option<String>,
    /// In euros; the whole balance when absent.
    pub amount: Option<f64>,
    /// A code of `PaymentMethod`.
    pub method: Option<String>,
    /// The bank's or the cheque's reference, 100 characters at most.
    pub reference: Option<String>,
}

/// A payment once its fields are read: what [`record_payment_in`] records.
#[derive(Debug, Clone, Default)]
pub struct Payment {
    pub paid_on: Option<NaiveDate>,
    pub amount: Option<Cents>,
    pub method: Option<PaymentMethod>,
    pub reference: Option<String>,
}

/// Longest payment reference kept, in characters.
pub const MAX_PAYMENT_REFERENCE_CHARS: usize = 100;

/// Reads the fields of a payment, each refused in French with its name.
pub fn check_payment(input: PaymentInput) -> AppResult<Payment> {
    let paid_on = input
        .paid_on
        .map(|text| {
            day::read(&text).ok_or_else(|| {
                AppError::unprocessable(format!(
                    "Le champ « paidOn » doit être une date au format AAAA-MM-JJ (reçu : « {text} »)."
                ))
            })
        })
        .transpose()?;
    let amount = input
        .amount
        .map(|euros| {
            Cents::from_euros(euros)
                .filter(|c| c.is_positive())
                .ok_or_else(|| {
                    AppError::unprocessable(format!(
                        "Le champ « amount » doit être un montant en euros supérieur à zéro, avec deux décimales au plus (reçu : {euros})."
                    ))
                })
        })
        .transpose()?;
    let method = input
        .method
        .map(|code| {
            PaymentMethod::parse(&code).ok_or_else(|| {
                AppError::unprocessable(format!(
                    "Le champ « method » doit valoir {} (reçu : « {code} »).",
                    PaymentMethod::CODES
                        .iter()
                        .map(|c| format!("« {c} »"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
        })
        .transpose()?;
    let reference = input
        .reference
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty());
    if let Some(reference) = &reference
        && reference.chars().count() > MAX_PAYMENT_REFERENCE_CHARS
    {
        return Err(AppError::unprocessable(format!(
            "Le champ « reference » ne doit pas dépasser {MAX_PAYMENT_REFERENCE_CHARS} caractères."
        )));
    }
    Ok(Payment {
        paid_on,
        amount,
        method,
        reference,
    })
}

/// Records a payment of an issued invoice (a refund, for a credit note):
/// the whole balance or a part of it, on a day that is neither before the
/// issue nor in the future. The document moves to `payee` when nothing is
/// left due (`domain::invoice::settles`), `paidOn` being the day of its
/// last payment.
pub async fn record_payment(
    store: &Store,
    p: &Principal,
    id: &InvoiceId,
    input: PaymentInput,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let payment = check_payment(input)?;
    let (p, id) = (p.clone(), id.to_owned());
    store
        .write(move |tx| record_payment_in(tx, &p, &id, &payment))
        .await
}

/// What an issued document still expects, in cents: see
/// `domain::invoice::balance`. The same inputs as the page's ([`get_in`]).
pub fn balance_in(conn: &Conn, row: &InvoiceRow) -> AppResult<Cents> {
    let credited = credited_of(conn, row)?;
    let paid = Cents::new(payment_store::total_of(conn, &row.id)?);
    Ok(balance_of(row, credited, paid))
}

/// What the issued credit notes of an invoice take off it (nothing for a
/// credit note).
fn credited_of(conn: &Conn, row: &InvoiceRow) -> AppResult<Cents> {
    Ok(Cents::new(match row.nature {
        InvoiceNature::Facture => store::issued_credit_total(conn, &row.id)?,
        InvoiceNature::Avoir => 0,
    }))
}

/// The balance of a document from what was credited and paid.
fn balance_of(row: &InvoiceRow, credited: Cents, paid: Cents) -> Cents {
    invoice::balance(row.nature, Cents::new(row.total_incl_cents), credited, paid)
}

/// [`record_payment`]'s step in `tx`, at its time.
pub fn record_payment_in(
    tx: &Tx,
    p: &Principal,
    id: &InvoiceId,
    payment: &Payment,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let author = Author::of(p);
    let row = store::get(tx, agency_id, id)?.ok_or_else(not_found)?;
    let (nature, status) = (row.nature, row.status);
    let next =
        invoice::transition(nature, status, InvoiceAction::RecordPayment).map_err(refused)?;
    let now = tx.now();
    let today = clock::paris_local(now).date();
    let paid_on = payment.paid_on.unwrap_or(today);
    if paid_on > today {
        return Err(AppError::unprocessable(format!(
            "La date de règlement ({}) ne peut pas être dans le futur.",
            day::iso(paid_on)
        )));
    }
    if let Some(issued_on) = row.issued_on.as_deref().and_then(day::read)
        && paid_on < issued_on
    {
        return Err(AppError::unprocessable(format!(
            "La date de règlement ({}) ne peut pas précéder la date d'émission ({}).",
            day::iso(paid_on),
            day::iso(issued_on)
        )));
    }
    let balance = balance_in(tx, &row)?;
    let amount =
        invoice::payment_amount(nature, balance, payment.amount).map_err(domain_refused)?;
    let paid_text = day::iso(paid_on);
    let at = clock::format_timestamp(now);
    payment_store::insert(
        tx,
        &payment_store::NewPayment {
            agency_id,
            invoice_id: id,
            paid_on: &paid_text,
            amount_cents: amount.get(),
            method: payment.method,
            reference: payment.reference.as_deref(),
            created_by: author.account_id.as_ref().map(|a| a.as_str()),
            created_at: &at,
        },
    )?;
    let after = balance - amount;
    let settled = next.records_payment && invoice::settles(status, after);
    if settled {
        let last_day = payment_store::last_day(tx, id)?.unwrap_or_else(|| paid_text.clone());
        let changed = store::set_status(
            tx,
            id,
            status.as_str(),
            next.status.as_str(),
            Some(&last_day),
            &at,
        )?;
        if !changed {
            return Err(anyhow::anyhow!("statut de la facture {id} changé entre-temps").into());
        }
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "reglement",
            object_type: "invoice",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "number": row.number,
                "paidOn": paid_text,
                "amountCents": amount.get(),
                "method": payment.method.map(PaymentMethod::as_str),
                "reference": payment.reference,
                "balanceCents": after.get(),
                "settled": settled,
            })),
        },
    )?;
    Ok(())
}

/// After a credit note of `credited_id` is issued (numbered `av_number`):
/// when the invoice's credit notes and payments leave nothing due, the
/// invoice is settled (`payee`), on the later of today and its last
/// payment, with its audit entry.
fn settle_credited_in(
    tx: &Tx,
    agency_id: &AgencyId,
    author: &Author,
    credited_id: &InvoiceId,
    av_number: &str,
) -> AppResult<()> {
    let credited = store::get(tx, agency_id, credited_id)?.ok_or_else(not_found)?;
    let balance = balance_in(tx, &credited)?;
    if !invoice::settles(credited.status, balance) {
        return Ok(());
    }
    let now = tx.now();
    let today = day::iso(clock::paris_local(now).date());
    let last_payment = payment_store::last_day(tx, credited_id)?;
    let paid_on = last_payment.filter(|d| *d > today).unwrap_or(today);
    let changed = store::set_status(
        tx,
        credited_id,
        credited.status.as_str(),
        InvoiceStatus::Payee.as_str(),
        Some(&paid_on),
        &clock::format_timestamp(now),
    )?;
    if !changed {
        return Err(
            anyhow::anyhow!("statut de la facture {credited_id} changé entre-temps").into(),
        );
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "solde",
            object_type: "invoice",
            object_id: Some(credited_id.as_str()),
            detail: Some(json!({
                "number": credited.number,
                "paidOn": paid_on,
                "creditNote": av_number,
            })),
        },
    )?;
    Ok(())
}

/// The lines crediting what remains of an invoice: one line per VAT rate,
/// for that rate's base on the invoice less what issued credit notes already
/// credited at that rate. Trimmed by a cent at a time in the rare case where
/// per-rate VAT rounding would take the total past what remains.
fn remaining_lines(
    invoice_row: &InvoiceRow,
    invoice_totals: &Totals,
    credited_lines: &[InvoiceLineRow],
    remaining_incl: Cents,
) -> Vec<Line> {
    let credited = totals_of(credited_lines);
    let number = invoice_row
        .number
        .as_deref()
        .unwrap_or(invoice_row.id.as_str());
    let mut lines: Vec<Line> = invoice_totals
        .vat_by_rate
        .iter()
        .filter_map(|rate| {
            let already = credited
                .vat_by_rate
                .iter()
                .find(|c| c.rate_bp == rate.rate_bp)
                .map_or(Cents::ZERO, |c| c.base);
            let base = rate.base - already;
            base.is_positive().then(|| Line {
                label: String::new(),
                quantity_milli: 1000,
                unit_price: base,
                vat_rate_bp: rate.rate_bp,
                vat_exemption: None,
            })
        })
        .collect();
    let several_rates = lines.len() > 1;
    let what = if credited_lines.is_empty() {
        "Annulation de la facture"
    } else {
        "Annulation du solde de la facture"
    };
    for line in &mut lines {
        line.label = if several_rates {
            format!("{what} {number} (TVA {})", french_rate(line.vat_rate_bp))
        } else {
            format!("{what} {number}")
        };
    }
    loop {
        let amounts: Vec<LineAmounts> = lines.iter().map(Line::amounts).collect();
        if invoice::totals(&amounts).incl_tax <= remaining_incl {
            break;
        }
        let Some(largest) = lines.iter_mut().max_by_key(|l| l.unit_price) else {
            break;
        };
        largest.unit_price = largest.unit_price - Cents::new(1);
        lines.retain(|l| l.unit_price.is_positive());
    }
    lines
}

/// Writes a credit note (`avoir`) of the issued invoice `invoice_id` as a
/// draft, with its audit entry, in the transaction `tx`: `given` lines (at
/// rates of the invoice), or absent for what remains to credit, refused
/// beyond what remains. Returns its id and its buyer (the credited
/// invoice's).
fn draft_credit_note_in(
    tx: &Tx,
    agency_id: &AgencyId,
    author: &Author,
    invoice_id: &InvoiceId,
    given: Option<Vec<Line>>,
) -> AppResult<(InvoiceId, Buyer)> {
    let credited = store::get(tx, agency_id, invoice_id)?.ok_or_else(not_found)?;
    let (nature, status) = (credited.nature, credited.status);
    invoice::check_creditable(nature, status).map_err(domain_refused)?;
    let invoice_lines = store::lines(tx, &credited.id)?;
    let invoice_totals = totals_of(&invoice_lines);
    let already = store::issued_credit_total(tx, &credited.id)?;
    let number = credited.number.clone().unwrap_or_default();
    let lines = match given {
        Some(lines) => {
            for (index, line) in lines.iter().enumerate() {
                let on_invoice = invoice_totals
                    .vat_by_rate
                    .iter()
                    .any(|r| r.rate_bp == line.vat_rate_bp);
                if !on_invoice {
                    return Err(AppError::unprocessable(format!(
                        "Ligne {} : le taux de TVA {} ne figure pas sur la facture {number}.",
                        index + 1,
                        french_rate(line.vat_rate_bp)
                    )));
                }
            }
            lines
        }
        None => {
            let credited_lines = store::issued_credit_lines(tx, &credited.id)?;
            let remaining = invoice::remaining_to_credit(
                Cents::new(credited.total_incl_cents),
                Cents::new(already),
            );
            let lines = remaining_lines(&credited, &invoice_totals, &credited_lines, remaining);
            if lines.is_empty() {
                // Nothing left at any rate: the invoice is fully credited.
                return Err(domain_refused(DomainError::InvoiceFullyCredited {
                    invoice_total_incl: Cents::new(credited.total_incl_cents),
                }));
            }
            lines
        }
    };
    // A 0 % line credits what the invoice's 0 % lines were exempt for.
    let zero_rate_exemption = invoice_lines.iter().find_map(|l| l.vat_exemption);
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|mut line| {
            if line.vat_rate_bp == 0 && line.vat_exemption.is_none() {
                line.vat_exemption = zero_rate_exemption;
            }
            line
        })
        .collect();
    let amounts: Vec<LineAmounts> = lines.iter().map(Line::amounts).collect();
    let totals = invoice::totals(&amounts);
    invoice::check_credit(
        Cents::new(credited.total_incl_cents),
        Cents::new(already),
        totals.incl_tax,
    )
    .map_err(domain_refused)?;
    let rows = to_rows(&lines);
    let now = tx.now();
    let buyer = stored_buyer(tx, &credited)?;
    let equipment_ids = store::equipment_ids_of(tx, &credited.id)?;
    let id = store::insert_draft(
        tx,
        &NewInvoice {
            agency_id: agency_id.as_str(),
            nature: InvoiceNature::Avoir.as_str(),
            client_id: credited.client_id.as_ref(),
            credited_invoice_id: Some(&credited.id),
            quote_id: None,
            buyer: &buyer,
            total_excl_cents: totals.excl_tax.get(),
            total_incl_cents: totals.incl_tax.get(),
            created_on: &day::iso(clock::paris_local(now).date()),
            created_at: &clock::format_timestamp(now),
            lines: &rows,
            equipment_ids: &equipment_ids,
            contract: None,
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "creation",
            object_type: "invoice",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "nature": "avoir",
                "creditedInvoice": credited.id,
                "creditedNumber": credited.number,
                "lines": rows.len(),
                "totalInclCents": totals.incl_tax.get(),
            })),
        },
    )?;
    Ok((id, buyer))
}

/// Credits all or part of an issued invoice: the credit note (`avoir`) is
/// created and issued at once, with its own `AV` number, in one transaction.
/// `lines` absent: the whole remaining amount. Administrators only.
pub async fn create_credit_note(
    store: &Store,
    p: &Principal,
    invoice_id: &InvoiceId,
    lines: Option<Vec<LineInput>>,
) -> AppResult<InvoiceId> {
    p.agency_id()?;
    p.require(Capability::CreditInvoice)?;
    check_credit_lines(lines.as_deref())?;
    let (p, invoice_id) = (p.clone(), invoice_id.to_owned());
    store
        .write(move |tx| create_credit_note_in(tx, &p, &invoice_id, lines.as_deref()))
        .await
}

/// A credit note's lines as given, checked (absent: what remains).
fn check_credit_lines(lines: Option<&[LineInput]>) -> AppResult<Option<Vec<Line>>> {
    Ok(lines.map(|rows| check_lines(rows, "L'avoir")).transpose()?)
}

/// [`create_credit_note`]'s step in `tx`, at its time.
pub fn create_credit_note_in(
    tx: &Tx,
    p: &Principal,
    invoice_id: &InvoiceId,
    lines: Option<&[LineInput]>,
) -> AppResult<InvoiceId> {
    let agency_id = p.agency_id()?;
    let author = Author::of(p);
    p.require(Capability::CreditInvoice)?;
    let given = check_credit_lines(lines)?;
    let (id, buyer) = draft_credit_note_in(tx, agency_id, &author, invoice_id, given)?;
    let draft = store::get(tx, agency_id, &id)?
        .ok_or_else(|| anyhow::anyhow!("avoir {id} introuvable après création"))?;
    let av_number = number_in(tx, &draft, InvoiceNature::Avoir, &buyer, tx.now())?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "emission",
            object_type: "invoice",
            object_id: Some(id.as_str()),
            detail: Some(json!({ "nature": "avoir", "number": av_number })),
        },
    )?;
    settle_credited_in(tx, agency_id, &author, invoice_id, &av_number)?;
    Ok(id)
}

/// Prepares a credit note of an issued invoice without issuing it: the
/// draft (`avoir` at `brouillon`, no number) follows the rules of
/// [`create_credit_note`] (its lines at rates of the invoice, within what
/// remains to credit; `lines` absent: the whole remaining amount), in one
/// transaction with its audit entry `creation`. Its issue ([`issue`])
/// checks again that it fits in what then remains, and gives it its `AV`
/// number. Administrators only. Returns its id.
pub async fn prepare_credit_note(
    store: &Store,
    p: &Principal,
    invoice_id: &InvoiceId,
    lines: Option<Vec<LineInput>>,
) -> AppResult<InvoiceId> {
    p.agency_id()?;
    p.require(Capability::CreditInvoice)?;
    check_credit_lines(lines.as_deref())?;
    let (p, invoice_id) = (p.clone(), invoice_id.to_owned());
    store
        .write(move |tx| prepare_credit_note_in(tx, &p, &invoice_id, lines.as_deref()))
        .await
}

/// [`prepare_credit_note`]'s step in `tx`, at its time.
pub fn prepare_credit_note_in(
    tx: &Tx,
    p: &Principal,
    invoice_id: &InvoiceId,
    lines: Option<&[LineInput]>,
) -> AppResult<InvoiceId> {
    let agency_id = p.agency_id()?;
    p.require(Capability::CreditInvoice)?;
    let given = check_credit_lines(lines)?;
    draft_credit_note_in(tx, agency_id, &Author::of(p), invoice_id, given).map(|(id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_strict() {
        assert_eq!(day::read("2026-03-01"), NaiveDate::from_ymd_opt(2026, 3, 1));
        for bad in [
            "2026-3-01",
            "2026-02-30",
            "26-03-01",
            "2026/03/01",
            "",
            "+2026-03-0",
        ] {
            assert_eq!(day::read(bad), None, "{bad}");
        }
    }

    fn stored(label: &str, quantity_milli: i64, price: i64, rate: u32) -> InvoiceLineRow {
        InvoiceLineRow {
            label: label.into(),
            quantity_milli,
            unit_price_cents: price,
            vat_rate_bp: rate,
            vat_exemption: None,
        }
    }

    fn invoice_row(total_incl: i64) -> InvoiceRow {
        InvoiceRow {
            id: InvoiceId::new("f"),
            agency_id: AgencyId::new("a"),
            nature: InvoiceNature::Facture,
            status: InvoiceStatus::Emise,
            number: Some("FA-2026-000001".into()),
            client_id: None,
            client_ref: None,
            credited_invoice_id: None,
            quote_id: None,
            buyer_name: None,
            buyer_address: None,
            buyer_siren: None,
            issued_on: None,
            due_on: None,
            paid_on: None,
            total_excl_cents: 0,
            total_incl_cents: total_incl,
            created_on: "2026-01-01".into(),
        }
    }

    #[test]
    fn the_remaining_amount_is_credited_rate_by_rate() {
        let lines = [
            stored("Main d'œuvre", 2000, 6500, 2000),
            stored("Pièce", 1000, 10_000, 1000),
        ];
        let totals = totals_of(&lines);
        let row = invoice_row(totals.incl_tax.get());
        // Nothing credited yet: the whole invoice.
        let full = remaining_lines(&row, &totals, &[], totals.incl_tax);
        assert_eq!(
            full,
            vec![
                Line {
                    label: "Annulation de la facture FA-2026-000001 (TVA 10 %)".into(),
                    quantity_milli: 1000,
                    unit_price: Cents::new(10_000),
                    vat_rate_bp: 1000,
                    vat_exemption: None,
                },
                Line {
                    label: "Annulation de la facture FA-2026-000001 (TVA 20 %)".into(),
                    quantity_milli: 1000,
                    unit_price: Cents::new(13_000),
                    vat_rate_bp: 2000,
                    vat_exemption: None,
                },
            ]
        );
        let full_totals = invoice::totals(&full.iter().map(Line::amounts).collect::<Vec<_>>());
        assert_eq!(full_totals, totals);
        // After a credit of 30 € at 20 %: the rest.
        let credited = [stored("Geste", 1000, 3000, 2000)];
        let already = totals_of(&credited).incl_tax;
        let rest = remaining_lines(&row, &totals, &credited, totals.incl_tax - already);
        assert_eq!(rest[1].unit_price, Cents::new(10_000));
        assert!(
            rest[0]
                .label
                .starts_with("Annulation du solde de la facture FA-2026-000001")
        );
        let rest_totals = invoice::totals(&rest.iter().map(Line::amounts).collect::<Vec<_>>());
        assert_eq!(rest_totals.incl_tax + already, totals.incl_tax);
    }

    #[test]
    fn rounding_never_takes_the_remainder_past_what_remains() {
        // 0.05 € at 10 % three times: VAT 2 cents on the invoice (1.5 → 2),
        // credited once for 0.05 € (VAT 0.5 → 1 cent): 0.10 € remains at
        // 10 %, VAT 1 cent, 11 cents; what remains is 17 - 6 = 11 cents.
        let lines = [stored("x", 3000, 5, 1000)];
        let totals = totals_of(&lines);
        let row = invoice_row(totals.incl_tax.get());
        let credited = [stored("y", 1000, 5, 1000)];
        let remaining = totals.incl_tax - totals_of(&credited).incl_tax;
        let rest = remaining_lines(&row, &totals, &credited, remaining);
        let rest_totals = invoice::totals(&rest.iter().map(Line::amounts).collect::<Vec<_>>());
        assert!(rest_totals.incl_tax <= remaining);
        // A remainder forced smaller than the rounded base is trimmed.
        let trimmed = remaining_lines(&row, &totals, &credited, remaining - Cents::new(1));
        let trimmed_totals =
            invoice::totals(&trimmed.iter().map(Line::amounts).collect::<Vec<_>>());
        assert!(trimmed_totals.incl_tax < remaining);
    }
}
