//! Quotes: the draft, its number, and its life (send, accept, refuse) by
//! `domain::quote::transition`. Acceptance writes `devis.accepte` to the
//! outbox in the same transaction as the status change and its audit entry.

use crate::domain::id::{AgencyId, EquipmentId, InvoiceId, QuoteId};
use chrono::{DateTime, Datelike, Duration, Utc};
use serde_json::json;

use crate::clock;
use crate::domain::day::Day;
use crate::domain::downtime;
use crate::domain::invoice::{self, LineAmounts, Totals};
use crate::domain::lines::{LineInput, check_lines};
use crate::domain::money::Cents;
use crate::domain::quote::{self, QuoteAction, QuoteOrigin, QuoteStatus};
use crate::domain::time;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::invoices::Author;
use crate::store::audit::{self, AuditEntry};
use crate::store::quotes::{self as store, NewQuote, QuoteLineRow, QuoteRow, Stamp};
use crate::store::{Conn, Store, Tx, outbox};

/// `object`: one sentence, 3 to 300 characters, no line break.
pub const MIN_OBJECT_CHARS: usize = 3;
pub const MAX_OBJECT_CHARS: usize = 300;

/// A new quote as received.
#[derive(Debug, Clone, Default)]
pub struct NewQuoteInput {
    pub equipment_id: String,
    pub origin: String,
    pub object: String,
    pub rows: Vec<LineInput>,
}

/// The bounds apply to the text as sent; it is stored trimmed.
fn check_object(raw: &str) -> AppResult<String> {
    let object = raw.trim();
    if object.is_empty() {
        return Err(AppError::unprocessable(
            "L'objet du devis (« object ») est obligatoire.",
        ));
    }
    let chars = raw.chars().count();
    if !(MIN_OBJECT_CHARS..=MAX_OBJECT_CHARS).contains(&chars) || raw.contains(['\n', '\r']) {
        return Err(AppError::unprocessable(format!(
            "L'objet du devis doit tenir en une phrase : de {MIN_OBJECT_CHARS} à {MAX_OBJECT_CHARS} caractères, sans retour à la ligne (reçu : {chars} caractères)."
        )));
    }
    Ok(object.to_owned())
}

fn check_origin(raw: &str) -> AppResult<QuoteOrigin> {
    QuoteOrigin::parse(raw).ok_or_else(|| {
        AppError::unprocessable(format!(
            "Origine de devis inconnue : « {raw} ». Valeurs possibles : {}.",
            QuoteOrigin::CODES.join(", ")
        ))
    })
}

/// A new quote's input, checked: what [`insert_draft`] writes.
struct CheckedQuote {
    equipment_id: EquipmentId,
    origin: QuoteOrigin,
    object: String,
    rows: Vec<QuoteLineRow>,
}

/// Checks a new quote's input (422 naming the field or the line).
fn check_new(input: NewQuoteInput) -> AppResult<CheckedQuote> {
    if input.equipment_id.is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « equipmentId » est obligatoire.",
        ));
    }
    let origin = check_origin(&input.origin)?;
    let object = check_object(&input.object)?;
    let lines = check_lines(&input.rows, "Le devis")?;
    let rows = lines
        .iter()
        .map(|l| QuoteLineRow {
            label: l.label.clone(),
            quantity_milli: l.quantity_milli,
            unit_price_cents: l.unit_price.get(),
            vat_rate_bp: l.vat_rate_bp,
            vat_exemption: l.vat_exemption,
        })
        .collect();
    Ok(CheckedQuote {
        equipment_id: EquipmentId::new(input.equipment_id),
        origin,
        object,
        rows,
    })
}

/// Writes a checked draft quote with the agency's next number, and its audit
/// entry, in the transaction `tx`; returns its id.
fn insert_draft(
    tx: &Tx,
    agency_id: &AgencyId,
    quote: &CheckedQuote,
    author: &Author,
) -> AppResult<String> {
    let CheckedQuote {
        equipment_id,
        origin,
        object,
        rows,
    } = quote;
    let equipment = store::find_equipment(tx, agency_id, equipment_id)?.ok_or_else(|| {
        AppError::unprocessable(format!(
            "Équipement introuvable dans cette agence : « {equipment_id} »."
        ))
    })?;
    let now = tx.now();
    let number = store::next_number(tx, agency_id, time::paris_local(now).year())?;
    let id = store::insert(
        tx,
        &NewQuote {
            agency_id: agency_id.as_str(),
            equipment_id: &equipment.id,
            number: &number,
            origin: *origin,
            object,
            created_by: author.account_id.as_ref(),
            created_at: &clock::format_timestamp(now),
            valid_until: &Day::new(quote::valid_until(time::paris_local(now).date())).iso(),
            lines: rows,
        },
    )?;
    let totals = totals_of(rows);
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &author.actor,
            action: "creation",
            object_type: "quote",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "number": number,
                "equipment": equipment.id,
                "origin": origin.as_str(),
                "rows": rows.len(),
                "totalInclCents": totals.incl_tax.get(),
            })),
        },
    )?;
    Ok(id.into_string())
}

/// Creates a draft quote with the agency's next number; returns its id.
pub async fn create(store: &Store, p: &Principal, input: NewQuoteInput) -> AppResult<String> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let p = p.clone();
    store.write(move |tx| create_in(tx, &p, input)).await
}

/// [`create`]'s step in `tx`, at its time.
pub fn create_in(tx: &Tx, p: &Principal, input: NewQuoteInput) -> AppResult<String> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let quote = check_new(input)?;
    insert_draft(tx, agency_id, &quote, &Author::of(p))
}

/// Object of the repair quote offered on repeat breakdowns.
pub const REPAIR_QUOTE_OBJECT: &str = "Réparation suite à pannes répétées";
/// Calls read to find repeat breakdowns (a safety bound).
const MAX_CALLS_READ: u32 = 2000;

/// A draft quote « Réparation suite à pannes répétées » (origin `panne`, one
/// row to complete naming the calls) for an equipment of the principal's
/// agency, read and written in one transaction: 404 for an equipment
/// outside the agency, 409 when it has no repeat breakdowns
/// (`domain::downtime`). Returns the quote's id.
pub async fn repair_quote(
    store: &Store,
    p: &Principal,
    equipment_id: &EquipmentId,
) -> AppResult<String> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.to_owned();
    let author = Author::of(p);
    let equipment_id = equipment_id.to_owned();
    store
        .write(move |tx| {
            let now = tx.now();
            crate::store::equipment::get(tx, &agency_id, &equipment_id)?
                .ok_or_else(|| AppError::not_found("Équipement introuvable."))?;
            let since = clock::format_timestamp(now - Duration::days(downtime::REPEAT_WINDOW_DAYS));
            let calls = crate::store::calls::of_equipment_since(
                tx,
                &agency_id,
                &equipment_id,
                &since,
                MAX_CALLS_READ,
            )?;
            let received: Vec<DateTime<Utc>> = calls
                .iter()
                .map(|c| clock::parse_timestamp(&c.received_at).unwrap_or(DateTime::<Utc>::MIN_UTC))
                .collect();
            let recent = downtime::recent_calls(&received, now);
            if !downtime::is_repeated(recent.len()) {
                return Err(AppError::conflict(format!(
                    "Cet équipement n'a pas de pannes répétées : il faut au moins {} appels reçus en {} jours.",
                    downtime::REPEAT_THRESHOLD,
                    downtime::REPEAT_WINDOW_DAYS
                )));
            }
            let references: Vec<&str> = recent
                .iter()
                .take(10)
                .map(|&i| calls[i].reference.as_str())
                .collect();
            let label = format!(
                "À compléter : réparation suite aux appels {}",
                references.join(", ")
            );
            let quote = check_new(NewQuoteInput {
                equipment_id: equipment_id.to_string(),
                origin: QuoteOrigin::Panne.as_str().to_owned(),
                object: REPAIR_QUOTE_OBJECT.to_owned(),
                rows: vec![LineInput {
                    label: Some(label.chars().take(300).collect()),
                    quantity: Some(1.0),
                    unit_price: Some(0.0),
                    vat_rate: None,
                    vat_exemption: None,
                }],
            })?;
            insert_draft(tx, &agency_id, &quote, &author)
        })
        .await
}

/// Totals of a quote's rows (the invoice arithmetic).
pub fn totals_of(rows: &[QuoteLineRow]) -> Totals {
    let amounts: Vec<LineAmounts> = rows
        .iter()
        .map(|r| LineAmounts {
            quantity_milli: r.quantity_milli,
            unit_price: Cents::new(r.unit_price_cents),
            vat_rate_bp: r.vat_rate_bp,
        })
        .collect();
    invoice::totals(&amounts)
}

/// A quote with its rows and totals.
#[derive(Debug, Clone)]
pub struct QuoteDetail {
    pub quote: QuoteRow,
    pub rows: Vec<QuoteLineRow>,
    pub totals: Totals,
}

fn not_found() -> AppError {
    AppError::not_found("Devis introuvable.")
}

pub async fn get(store: &Store, p: &Principal, id: &QuoteId) -> AppResult<QuoteDetail> {
    let agency_id = p.agency_id()?;
    let (agency_id, id) = (agency_id.to_owned(), id.to_owned());
    store.read(move |conn| get_in(conn, &agency_id, &id)).await
}

/// [`get`] on a connection (a read, or the transaction that sends it).
pub fn get_in(conn: &Conn, agency_id: &AgencyId, id: &QuoteId) -> AppResult<QuoteDetail> {
    let quote = store::get(conn, agency_id, id)?.ok_or_else(not_found)?;
    let rows = store::lines(conn, &quote.id)?;
    let totals = totals_of(&rows);
    Ok(QuoteDetail {
        quote,
        rows,
        totals,
    })
}

/// Sends (or reminds), accepts or refuses a quote, as the domain allows.
/// Acceptance records `devis.accepte` (status `accepte`) in the outbox in the
/// same transaction.
pub async fn act(store: &Store, p: &Principal, id: &QuoteId, action: QuoteAction) -> AppResult<()> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let (p, id) = (p.clone(), id.to_owned());
    store.write(move |tx| act_in(tx, &p, &id, action)).await
}

/// [`act`]'s step in `tx`, at its time. An expired quote is not accepted
/// (`domain::quote::check_validity`); a renewal moves its last valid day to
/// today + [`quote::VALIDITY_DAYS`] and leaves its status.
pub fn act_in(tx: &Tx, p: &Principal, id: &QuoteId, action: QuoteAction) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let row = store::get(tx, agency_id, id)?.ok_or_else(not_found)?;
    let status = row.status;
    let next = quote::transition(status, action)
        .map_err(|err| AppError::unprocessable(err.to_string()))?;
    let now = tx.now();
    let today = time::paris_local(now).date();
    let valid_until = valid_until_of(&row);
    quote::check_validity(status, action, valid_until, today)
        .map_err(|err| AppError::unprocessable(err.to_string()))?;
    let at = clock::format_timestamp(now);
    // A renewal's new validity, from today (the other actions keep theirs).
    let mut renewed_until = None;
    let changed = match action {
        QuoteAction::Renew => {
            let until = Day::new(quote::valid_until(today)).iso();
            let changed = store::set_valid_until(tx, id, status.as_str(), &until, &at)?;
            renewed_until = Some(until);
            changed
        }
        QuoteAction::Send | QuoteAction::Accept | QuoteAction::Refuse => {
            let stamp = match action {
                QuoteAction::Accept => Stamp::Accepted,
                QuoteAction::Refuse => Stamp::Refused,
                _ => Stamp::Sent,
            };
            store::set_status(tx, id, status.as_str(), next.status.as_str(), stamp, &at)?
        }
    };
    if !changed {
        return Err(anyhow::anyhow!("statut du devis {id} changé entre-temps").into());
    }
    let event = if next.emits_accepted_event {
        outbox::record_event_at(
            tx,
            agency_id,
            quote::ACCEPTED_EVENT,
            id.as_str(),
            &row.equipment_id,
            next.status.as_str(),
            now,
        )?
    } else {
        None
    };
    let reminder = action == QuoteAction::Send && status == QuoteStatus::Envoye;
    let detail = match action {
        QuoteAction::Renew => json!({
            "number": row.number,
            "validUntilBefore": row.valid_until,
            "validUntil": renewed_until,
        }),
        _ => json!({
            "number": row.number,
            "from": status.as_str(),
            "to": next.status.as_str(),
            "event": event,
        }),
    };
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &p.actor,
            action: match action {
                QuoteAction::Send if reminder => "relance",
                QuoteAction::Send => "envoi",
                QuoteAction::Accept => "acceptation",
                QuoteAction::Refuse => "refus",
                QuoteAction::Renew => "renouvellement",
            },
            object_type: "quote",
            object_id: Some(id.as_str()),
            detail: Some(detail),
        },
    )?;
    Ok(())
}

/// The quote's last valid day, when it has a readable one.
pub fn valid_until_of(row: &QuoteRow) -> Option<chrono::NaiveDate> {
    row.valid_until
        .as_deref()
        .and_then(|d| Day::parse(d).ok())
        .map(Day::date)
}

/// Whether the quote waits for an answer past its last valid day on `day`
/// (today in Paris, read from the injected clock).
pub fn is_expired_on(row: &QuoteRow, day: chrono::NaiveDate) -> bool {
    quote::is_expired(row.status, valid_until_of(row), day)
}

/// What the principal may do to a quote now, as the screens offer it:
/// `send`, `accept`, `refuse` as `domain::quote` allows them from its
/// status (`accept` only while valid, `renew` only once expired), and
/// `invoice` for an accepted quote not invoiced yet; nothing for an account
/// that changes nothing.
pub fn actions(
    p: &Principal,
    status: QuoteStatus,
    invoiced: bool,
    expired: bool,
) -> Vec<&'static str> {
    if !p.can(Capability::Change) {
        return Vec::new();
    }
    let mut actions: Vec<&'static str> = QuoteAction::ALL
        .iter()
        .filter(|&&action| quote::transition(status, action).is_ok())
        // An expired quote is renewed before it is accepted; a valid one
        // has nothing to renew.
        .filter(|&&action| match action {
            QuoteAction::Accept => !expired,
            QuoteAction::Renew => expired,
            _ => true,
        })
        .map(|action| action.as_str())
        .collect();
    if status == QuoteStatus::Accepte && !invoiced {
        actions.push("invoice");
    }
    actions
}

/// The quote list's filters as received.
#[derive(Debug, Clone, Default)]
pub struct ListInput {
    /// `brouillon`, `envoye`, `accepte` or `refuse`; unknown: 422.
    pub status: Option<String>,
    /// A fragment of the equipment number (spaces and case ignored).
    pub equipment: Option<String>,
    /// A client's `client_ref` (`CLI-…`): the quotes on its equipment (the
    /// app's client page); an unknown client matches nothing.
    pub client: Option<String>,
}

/// The longest equipment number fragment searched.
pub const MAX_SEARCH_CHARS: usize = 100;

/// Checks the filters: an unknown status is 422, an over-long search 400.
pub fn check_filter(input: ListInput) -> AppResult<store::QuoteFilter> {
    let status = match input.status.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(
            QuoteStatus::parse(raw)
                .ok_or_else(|| {
                    AppError::unprocessable(format!(
                        "Statut de devis inconnu : « {raw} ». Valeurs possibles : {}.",
                        QuoteStatus::CODES.join(", ")
                    ))
                })?
                .as_str()
                .to_owned(),
        ),
    };
    let equipment = match input.equipment.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) if raw.chars().count() > MAX_SEARCH_CHARS => {
            return Err(AppError::bad_request(format!(
                "La recherche d'équipement ne doit pas dépasser {MAX_SEARCH_CHARS} caractères."
            )));
        }
        Some(raw) => Some(raw.to_lowercase()),
    };
    let client = match input.client.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) if raw.chars().count() > MAX_SEARCH_CHARS => {
            return Err(AppError::bad_request(format!(
                "L'identifiant du client ne doit pas dépasser {MAX_SEARCH_CHARS} caractères."
            )));
        }
        Some(raw) => Some(raw.to_owned()),
    };
    Ok(store::QuoteFilter {
        status,
        equipment_number: equipment,
        client_ref: client,
    })
}

/// A quote of the list with its totals and the invoice made from it.
#[derive(Debug, Clone)]
pub struct QuoteListItem {
    pub row: store::QuoteListRow,
    pub totals: Totals,
}

/// One page of the agency's quotes, newest first, and how many match.
pub async fn list(
    store: &Store,
    p: &Principal,
    filter: store::QuoteFilter,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<QuoteListItem>)> {
    let agency_id = p.agency_id()?;
    let agency_id = agency_id.to_owned();
    store
        .read(move |conn| {
            let (total, rows) = store::list(conn, &agency_id, &filter, limit, offset)?;
            let items = rows
                .into_iter()
                .map(|row| {
                    let lines = store::lines(conn, &row.quote.id)?;
                    Ok(QuoteListItem {
                        totals: totals_of(&lines),
                        row,
                    })
                })
                .collect::<AppResult<Vec<_>>>()?;
            Ok((total, items))
        })
        .await
}

/// The invoice made from a quote, if any: its id and number.
pub async fn invoice_of(
    store: &Store,
    p: &Principal,
    quote_id: &QuoteId,
) -> AppResult<Option<(InvoiceId, Option<String>)>> {
    p.agency()?;
    let quote_id = quote_id.to_owned();
    Ok(store
        .read(move |conn| crate::store::invoices::invoice_of_quote(conn, &quote_id))
        .await?)
}
