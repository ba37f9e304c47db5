//! « Facturer les contrats »: the recurring invoicing of the maintenance
//! contracts for a window of days. The preview says, for every contract in
//! force (or ended within the window), each billing period billed from a
//! day of the window, its amount (prorated first and last periods, revised
//! prices with their formula) and what the run does with it; the drafts are
//! created in one transaction, one invoice per contract and period, never
//! twice (`invoices_contract_period`); they are then issued in batches, the
//! screen showing the progress. The arithmetic is `domain::contract`.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::NaiveDate;
use serde_json::json;

use crate::clock;
use crate::domain::contract::{
    self, BillingState, Charge, ContractType, IndexValue, Indexation, Period, Pricing,
};
use crate::domain::day;
use crate::domain::id::{AgencyId, ClientId, ContractId, EquipmentId, InvoiceId};
use crate::domain::invoice::{InvoiceNature, InvoiceStatus, Totals};
use crate::domain::money::Cents;
use crate::domain::time;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::contracts::{code_of, parse_day, terms_of};
use crate::services::invoices::{self, buyer_of, totals_of};
use crate::store::contracts::{self as contract_store, ContractRow};
use crate::store::invoices::{self as invoice_store, InvoiceLineRow, NewInvoice};
use crate::store::{Conn, Store, Tx, clients};

/// A window of a year and a day at most (a run bills a month, a quarter, a
/// half or a year).
pub const MAX_WINDOW_DAYS: i64 = 366;
/// Drafts issued per call, by default and at most.
pub const DEFAULT_ISSUE_BATCH: u32 = 50;
pub const MAX_ISSUE_BATCH: u32 = 200;

/// A billing run's window as received: its first and last days.
#[derive(Debug, Clone, Default)]
pub struct WindowInput {
    pub from: String,
    pub to: String,
}

/// A window checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

/// Checks a window: two days, the first not after the last, a year and a
/// day at most.
pub fn check_window(input: &WindowInput) -> AppResult<Window> {
    for (field, raw, what) in [
        ("from", &input.from, "le premier jour à facturer"),
        ("to", &input.to, "le dernier jour à facturer"),
    ] {
        if raw.trim().is_empty() {
            return Err(AppError::unprocessable(format!(
                "Le champ « {field} » est obligatoire : {what} (AAAA-MM-JJ)."
            )));
        }
    }
    let from = parse_day("from", &input.from)?;
    let to = parse_day("to", &input.to)?;
    if to < from {
        return Err(AppError::unprocessable(format!(
            "La période à facturer finit (« to », {}) avant de commencer (« from », {}).",
            day::french(to),
            day::french(from)
        )));
    }
    if (to - from).num_days() + 1 > MAX_WINDOW_DAYS {
        return Err(AppError::unprocessable(format!(
            "La période à facturer compte au plus {MAX_WINDOW_DAYS} jours (reçu : du {} au {}).",
            day::french(from),
            day::french(to)
        )));
    }
    Ok(Window { from, to })
}

/// The invoice that already bills a contract's period.
#[derive(Debug, Clone)]
pub struct BilledBy {
    pub id: InvoiceId,
    pub number: Option<String>,
    pub status: InvoiceStatus,
}

/// One contract's period in a run.
#[derive(Debug, Clone)]
pub struct BillingEntry {
    pub contract_id: ContractId,
    pub number: String,
    pub contract_type: ContractType,
    pub client_id: ClientId,
    pub client_ref: String,
    pub client_name: String,
    pub period: Period,
    pub billed_from: NaiveDate,
    /// Lifts billed (the lifts of a contract priced per lift, else 1).
    pub units: i64,
    pub per_lift: bool,
    pub state: BillingState,
    /// Why it is not billed, in French (a missing index, a period not
    /// ended).
    pub reason: Option<String>,
    /// The period's charge for one unit; none when an index is missing.
    pub charge: Option<Charge>,
    pub lines: Vec<InvoiceLineRow>,
    pub totals: Totals,
    pub invoice: Option<BilledBy>,
}

/// Counts and amounts of a run, over every entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub contracts: usize,
    pub entries: usize,
    pub to_create: usize,
    pub already_invoiced: usize,
    /// Of those already invoiced, the drafts left to issue.
    pub drafts: usize,
    pub missing_index: usize,
    pub not_yet_due: usize,
    pub client_archived: usize,
    /// Of the invoices to create.
    pub total_excl: Cents,
    pub total_incl: Cents,
}

/// A run planned: its entries, by contract number then period.
#[derive(Debug, Clone)]
pub struct Plan {
    pub window: Window,
    pub today: NaiveDate,
    pub entries: Vec<BillingEntry>,
    pub summary: Summary,
}

/// The agency's values of each index, by month.
struct IndexBook(HashMap<String, Vec<(NaiveDate, IndexValue)>>);

impl IndexBook {
    fn of(conn: &Conn, agency_id: &AgencyId) -> AppResult<IndexBook> {
        let mut book: HashMap<String, Vec<(NaiveDate, IndexValue)>> = HashMap::new();
        for row in contract_store::index_values(conn, agency_id, None)? {
            if let Some(month) = contract::parse_month(&row.month) {
                book.entry(row.index_code)
                    .or_default()
                    .push((month, IndexValue::from_ten_thousandths(row.value)));
            }
        }
        for values in book.values_mut() {
            values.sort_by_key(|(month, _)| *month);
        }
        Ok(IndexBook(book))
    }

    /// The value of `index` for `month`.
    fn at(&self, index: &str, month: NaiveDate) -> Option<IndexValue> {
        let values = self.0.get(index)?;
        let month = contract::month_of(month);
        values
            .binary_search_by_key(&month, |(m, _)| *m)
            .ok()
            .map(|i| values[i].1)
    }
}

/// What a contract's billing needs of its row.
fn pricing_of(row: &ContractRow) -> Pricing {
    let terms = terms_of(&row.fields);
    let ends_on = row.ends_on.as_deref().and_then(day::read);
    Pricing {
        last_day: contract::last_day(row.status, &terms, ends_on),
        terms,
        annual: Cents::new(row.fields.annual_price_cents),
        frequency: row.fields.billing_frequency,
        indexation: match (
            &row.fields.price_index,
            row.fields.base_index_value,
            row.fields
                .base_index_month
                .as_deref()
                .and_then(contract::parse_month),
        ) {
            (Some(index), Some(base), Some(base_month)) => Some(Indexation {
                index: index.clone(),
                base: IndexValue::from_ten_thousandths(base),
                base_month,
            }),
            _ => None,
        },
    }
}

/// Plans the run over `window` on `today`: every billable contract of the
/// agency, each period billed from a day of the window.
pub fn plan_in(
    conn: &Conn,
    agency_id: &AgencyId,
    window: Window,
    today: NaiveDate,
) -> AppResult<Plan> {
    let began = std::time::Instant::now();
    let rows = contract_store::billable(conn, agency_id, &day::iso(window.from))?;
    let read_contracts = began.elapsed();
    let book = IndexBook::of(conn, agency_id)?;
    let billed: HashMap<(ContractId, String), BilledBy> = invoice_store::contract_invoices(
        conn,
        agency_id,
        &day::iso(window.from),
        &day::iso(window.to),
    )?
    .into_iter()
    .map(|row| {
        (
            (row.contract_id, row.billed_from),
            BilledBy {
                id: row.id,
                number: row.number,
                status: row.status,
            },
        )
    })
    .collect();
    let read_all = began.elapsed();
    let mut entries = Vec::new();
    let mut summary = Summary::default();
    for row in &rows {
        let pricing = pricing_of(row);
        let periods = contract::periods_billed_between(&pricing, window.from, window.to);
        let mut counted = false;
        for period in periods {
            let charge = contract::charge(&pricing, period, |index, day| book.at(index, day));
            let (charge, reason) = match charge {
                Ok(Some(charge)) => (Some(charge), None),
                Ok(None) => continue,
                Err(missing) => (None, Some(missing.message())),
            };
            if charge.as_ref().is_some_and(|c| c.amount() == Cents::ZERO) {
                continue;
            }
            let billed_from = contract::billed_from(&pricing.terms, period);
            let invoice = billed
                .get(&(row.id.clone(), day::iso(billed_from)))
                .cloned();
            let state = if invoice.is_some() {
                BillingState::DejaFacture
            } else if charge.is_none() {
                BillingState::IndiceManquant
            } else if row.client_archived {
                BillingState::ClientArchive
            } else if !contract::is_billable(row.fields.billing_timing, period, today) {
                BillingState::TermeNonEchu
            } else {
                BillingState::ACreer
            };
            let reason = match state {
                BillingState::TermeNonEchu => Some(format!(
                    "Facturé à terme échu : la période se termine le {}.",
                    day::french(period.end)
                )),
                BillingState::ClientArchive => Some(format!(
                    "Le client « {} » est archivé : il n'est plus facturé.",
                    row.client_name
                )),
                _ => reason,
            };
            let per_lift = row.fields.price_basis == contract::PriceBasis::ParAppareil;
            let units = if per_lift { row.lifts.max(1) } else { 1 };
            let lines = charge
                .as_ref()
                .map(|charge| lines_of(row, per_lift, units, charge))
                .unwrap_or_default();
            let totals = totals_of(&lines);
            match state {
                BillingState::ACreer => {
                    summary.to_create += 1;
                    summary.total_excl += totals.excl_tax;
                    summary.total_incl += totals.incl_tax;
                }
                BillingState::DejaFacture => {
                    summary.already_invoiced += 1;
                    if invoice
                        .as_ref()
                        .is_some_and(|i| i.status == InvoiceStatus::Brouillon)
                    {
                        summary.drafts += 1;
                    }
                }
                BillingState::IndiceManquant => summary.missing_index += 1,
                BillingState::TermeNonEchu => summary.not_yet_due += 1,
                BillingState::ClientArchive => summary.client_archived += 1,
            }
            if !counted {
                summary.contracts += 1;
                counted = true;
            }
            entries.push(BillingEntry {
                contract_id: row.id.clone(),
                number: row.number.clone(),
                contract_type: row.fields.contract_type,
                client_id: row.fields.client_id.clone(),
                client_ref: row.client_ref.clone(),
                client_name: row.client_name.clone(),
                period,
                billed_from,
                units,
                per_lift,
                state,
                reason,
                charge,
                lines,
                totals,
                invoice,
            });
        }
    }
    summary.entries = entries.len();
    entries.sort_by(|a, b| (&a.number, a.period.start).cmp(&(&b.number, b.period.start)));
    tracing::debug!(
        contracts = rows.len(),
        read_contracts_ms = read_contracts.as_millis() as u64,
        read_rest_ms = (read_all - read_contracts).as_millis() as u64,
        compute_ms = (began.elapsed() - read_all).as_millis() as u64,
        "facturation des contrats : étapes du plan"
    );
    Ok(Plan {
        window,
        today,
        entries,
        summary,
    })
}

/// The invoice lines of a period: one per segment (a period cut by a
/// revision has two), each `units` × the segment's amount for one unit.
fn lines_of(row: &ContractRow, per_lift: bool, units: i64, charge: &Charge) -> Vec<InvoiceLineRow> {
    charge
        .segments
        .iter()
        .map(|segment| InvoiceLineRow {
            label: contract::invoice_label(
                &row.number,
                row.fields.contract_type,
                per_lift,
                charge.period,
                segment,
            ),
            quantity_milli: units * 1000,
            unit_price_cents: segment.amount.get(),
            vat_rate_bp: u32::try_from(row.fields.vat_rate_bp).unwrap_or(0),
            vat_exemption: None,
        })
        .collect()
}

fn today_of(now: chrono::DateTime<chrono::Utc>) -> NaiveDate {
    time::paris_local(now).date()
}

/// The preview's filter on an entry's state, as received (none: every
/// entry; an unknown state: 422).
pub fn check_state(raw: Option<&str>) -> AppResult<Option<BillingState>> {
    raw.filter(|s| !s.is_empty())
        .map(|raw| code_of("state", Some(raw), BillingState::ACreer))
        .transpose()
}

/// Where a run's plan is kept between its preview and its drafts: the
/// agency, the window and the day (a plan depends on nothing else).
fn plan_key(agency_id: &AgencyId, window: Window, today: NaiveDate) -> String {
    format!(
        "contract-billing:{agency_id}:{}:{}:{}",
        day::iso(window.from),
        day::iso(window.to),
        day::iso(today)
    )
}

/// The preview of a run: nothing is written. The plan is kept until the
/// database changes: the drafts that follow use it instead of planning
/// again (`Store::write_with_kept`).
pub async fn preview(store: &Store, p: &Principal, input: WindowInput) -> AppResult<Arc<Plan>> {
    let agency_id = p.agency_id()?.to_owned();
    let window = check_window(&input)?;
    let today = today_of(store.now());
    store
        .read_cached(plan_key(&agency_id, window, today), move |conn| {
            plan_in(conn, &agency_id, window, today)
        })
        .await
}

/// What a run created.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drafted {
    pub summary: Summary,
    pub created: usize,
}

/// Creates, in one transaction, the draft invoice of every entry to bill
/// (one per contract and period; none a second time): each with its lines,
/// its lifts, its client as buyer, and its journal entry.
pub async fn create_drafts(store: &Store, p: &Principal, input: WindowInput) -> AppResult<Drafted> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let window = check_window(&input)?;
    let key = plan_key(agency_id, window, today_of(store.now()));
    let p = p.clone();
    store
        .write_with_kept(key, move |tx, kept: Option<Arc<Plan>>| {
            let agency_id = p.agency_id()?;
            // The preview's plan when nothing changed since (and still the
            // same day); planned again otherwise.
            let began = std::time::Instant::now();
            let (plan, reused) = match kept {
                Some(plan) if plan.today == today_of(tx.now()) => (plan, true),
                _ => (
                    Arc::new(plan_in(tx, agency_id, window, today_of(tx.now()))?),
                    false,
                ),
            };
            let planned = began.elapsed();
            let drafted = drafts_of_plan(tx, &p, &plan)?;
            tracing::info!(
                created = drafted.created,
                plan_reused = reused,
                plan_ms = planned.as_millis() as u64,
                total_ms = began.elapsed().as_millis() as u64,
                "facturation des contrats : brouillons écrits"
            );
            Ok(drafted)
        })
        .await
}

/// The drafts of `plan` (planned in `tx`, or kept from a preview of the
/// same state), written in `tx`.
fn drafts_of_plan(tx: &Tx, p: &Principal, plan: &Plan) -> AppResult<Drafted> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let window = plan.window;
    let now = tx.now();
    let began = std::time::Instant::now();
    let to_create: Vec<&BillingEntry> = plan
        .entries
        .iter()
        .filter(|e| e.state == BillingState::ACreer)
        .collect();
    if to_create.is_empty() {
        return Ok(Drafted {
            summary: plan.summary.clone(),
            created: 0,
        });
    }
    // Only the run's clients and contracts' lifts are read.
    let client_ids: Vec<&ClientId> = {
        let mut ids: Vec<&ClientId> = to_create.iter().map(|e| &e.client_id).collect();
        ids.sort();
        ids.dedup();
        ids
    };
    let clients: HashMap<ClientId, clients::ClientRow> =
        clients::of_ids(tx, agency_id, &client_ids)?
            .into_iter()
            .map(|c| (c.id.clone(), c))
            .collect();
    let contract_ids: Vec<&ContractId> = {
        let mut ids: Vec<&ContractId> = to_create.iter().map(|e| &e.contract_id).collect();
        ids.dedup();
        ids
    };
    let lifts = contract_store::lifts_of_contracts(tx, agency_id, &contract_ids)?;
    let created_on = day::iso(today_of(now));
    let created_at = clock::format_timestamp(now);
    let no_lifts: Vec<EquipmentId> = Vec::new();
    let mut parties = Vec::with_capacity(to_create.len());
    for entry in &to_create {
        let client = clients.get(&entry.client_id).ok_or_else(|| {
            AppError::unprocessable(format!(
                "Client introuvable pour le contrat {}.",
                entry.number
            ))
        })?;
        parties.push((client, buyer_of(client), day::iso(entry.billed_from)));
    }
    let drafts: Vec<NewInvoice<'_>> = to_create
        .iter()
        .zip(&parties)
        .map(|(entry, (client, buyer, billed_from))| NewInvoice {
            agency_id: agency_id.as_str(),
            nature: InvoiceNature::Facture.as_str(),
            client_id: Some(&client.id),
            credited_invoice_id: None,
            quote_id: None,
            buyer,
            total_excl_cents: entry.totals.excl_tax.get(),
            total_incl_cents: entry.totals.incl_tax.get(),
            created_on: &created_on,
            created_at: &created_at,
            lines: &entry.lines,
            equipment_ids: lifts.get(&entry.contract_id).unwrap_or(&no_lifts),
            contract: Some((&entry.contract_id, billed_from)),
        })
        .collect();
    // One invoice per contract and period: the plan, of this transaction's
    // state (planned in it, or kept from a preview of the same state), left
    // out those already billed, and the unique index
    // (`invoices_contract_period`) refuses the transaction otherwise.
    let read = began.elapsed();
    let ids = invoice_store::insert_drafts(tx, &drafts).map_err(|err| {
        err.on_constraint(
            "invoices.contract_id, invoices.contract_billed_from",
            || {
                AppError::conflict(
                    "Une période de contrat a été facturée entre-temps : relancez l'aperçu.",
                )
            },
        )
    })?;
    let journal: Vec<(&str, serde_json::Value)> = ids
        .iter()
        .zip(&to_create)
        .zip(&parties)
        .map(|((id, entry), (client, _, billed_from))| {
            (
                id.as_str(),
                json!({
                    "nature": "facture",
                    "client": client.client_ref,
                    "contract": entry.number,
                    "billedFrom": billed_from,
                    "periodEnd": day::iso(entry.period.end),
                    "lines": entry.lines.len(),
                    "totalInclCents": entry.totals.incl_tax.get(),
                }),
            )
        })
        .collect();
    let inserted = began.elapsed();
    p.record_all(tx, "invoice", "creation", &journal)?;
    p.record(
        tx,
        "contract_billing",
        &format!("{}/{}", day::iso(window.from), day::iso(window.to)),
        "facturation",
        json!({
            "created": to_create.len(),
            "alreadyInvoiced": plan.summary.already_invoiced,
            "missingIndex": plan.summary.missing_index,
            "notYetDue": plan.summary.not_yet_due,
            "totalExclCents": plan.summary.total_excl.get(),
        }),
    )?;
    tracing::debug!(
        read_ms = read.as_millis() as u64,
        insert_ms = (inserted - read).as_millis() as u64,
        journal_ms = (began.elapsed() - inserted).as_millis() as u64,
        "facturation des contrats : étapes de l'écriture"
    );
    Ok(Drafted {
        created: to_create.len(),
        summary: plan.summary.clone(),
    })
}

/// One batch of issues.
#[derive(Debug, Clone, Default)]
pub struct Issued {
    /// The invoices issued, with their numbers, in order.
    pub issued: Vec<(InvoiceId, String)>,
    /// The drafts refused, with the reason.
    pub refused: Vec<(InvoiceId, String)>,
    /// Drafts of the window left to issue after this batch (the refused
    /// ones included).
    pub remaining: i64,
    /// Where the next batch goes on (the last draft this one looked at);
    /// None once the run's drafts have all been looked at.
    pub next: Option<String>,
}

/// A batch's place in a run's drafts, as the answer gives it and the next
/// batch sends it back: a contract number and a day, `CT-2027-00012/2027-01-01`.
fn cursor_text(draft: &invoice_store::ContractDraft) -> String {
    format!("{}/{}", draft.contract_number, draft.billed_from)
}

/// Reads a cursor given back (`after`), or refuses it (422).
fn read_cursor(raw: &str) -> AppResult<(String, String)> {
    raw.trim()
        .rsplit_once('/')
        .filter(|(number, day)| !number.is_empty() && crate::domain::day::parse(day).is_ok())
        .map(|(number, day)| (number.to_owned(), day.to_owned()))
        .ok_or_else(|| {
            AppError::unprocessable(format!(
                "Le champ « after » doit être le « next » d'un lot précédent, par exemple « CT-2027-00012/2027-01-01 » (reçu : « {raw} »)."
            ))
        })
}

/// Issues the next `limit` drafts of the window's contract invoices (by
/// contract number, then period), after `after` (the `next` of the batch
/// before) when given, each alone (a refused one stays a draft, with its
/// reason, and the next ones are issued), in one transaction; answers what
/// is left and where to go on. A run's batches, each sending the `next` of
/// the one before, look at every draft once: the drafts refused never hold
/// back the ones after them.
pub async fn issue_batch(
    store: &Store,
    p: &Principal,
    input: WindowInput,
    limit: Option<u32>,
    after: Option<String>,
) -> AppResult<Issued> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let window = check_window(&input)?;
    let limit = limit.unwrap_or(DEFAULT_ISSUE_BATCH);
    if !(1..=MAX_ISSUE_BATCH).contains(&limit) {
        return Err(AppError::unprocessable(format!(
            "Le champ « limit » doit être compris entre 1 et {MAX_ISSUE_BATCH} (reçu : {limit})."
        )));
    }
    let after = after
        .as_deref()
        .filter(|raw| !raw.trim().is_empty())
        .map(read_cursor)
        .transpose()?;
    let p = p.clone();
    store
        .write(move |tx| {
            let agency_id = p.agency_id()?;
            let from = day::iso(window.from);
            let to = day::iso(window.to);
            // The drafts after the cursor, in order: a refused one is passed
            // over (it stays a draft, with its reason), so the drafts after
            // it are issued; the batch stops at `limit` issued, or at
            // `limit` refused (a refusal every draft meets, such as the
            // agency's identity, is then said once a batch).
            let drafts = invoice_store::contract_drafts(
                tx,
                agency_id,
                &from,
                &to,
                after.as_ref().map(|(n, d)| (n.as_str(), d.as_str())),
            )?;
            let mut done = Issued::default();
            let mut looked = 0;
            for draft in &drafts {
                if done.issued.len() >= limit as usize || done.refused.len() >= limit as usize {
                    break;
                }
                looked += 1;
                let id = draft.id.clone();
                match tx.savepoint(|tx| invoices::issue_in(tx, &p, &id)) {
                    Ok(()) => {
                        let number = invoice_store::get(tx, agency_id, &id)?
                            .and_then(|row| row.number)
                            .unwrap_or_default();
                        done.issued.push((id, number));
                    }
                    Err(refusal) => done.refused.push((id, refusal.public_message())),
                }
            }
            done.next = (looked < drafts.len())
                .then(|| drafts.get(looked.saturating_sub(1)).map(cursor_text))
                .flatten();
            done.remaining = invoice_store::count_contract_drafts(tx, agency_id, &from, &to)?;
            Ok(done)
        })
        .await
}
