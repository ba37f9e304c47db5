//! The PDF documents of quotes, invoices, credit notes, visit reports and
//! maintenance contracts:
//! the service data (`services::invoices::get_in`, `services::quotes::get_in`,
//! a done visit) and the seller's identity (`services::identity::seller_in`:
//! an issued invoice's as it was at its issue) made into a
//! `documents::*Document` on a connection (a read, or the transaction that
//! sends the document by e-mail), then rendered off the async runtime.
//! Another agency's document is not found (404), like its reads.

use crate::domain::id::{AgencyId, InvoiceId, QuoteId, VisitId};
use chrono::NaiveDate;

use crate::clock;
use crate::documents::{
    self, DocumentLine, InvoiceDocument, InvoiceKind, Party, Place, QuoteDocument,
    VisitReportDocument,
};
use crate::domain::day;
use crate::domain::einvoice;
use crate::domain::invoice::InvoiceNature;
use crate::domain::visit::VisitStatus;
use crate::error::{AppError, AppResult};
use crate::principal::Principal;
use crate::services::identity;
use crate::services::invoices::{self as invoice_service, PAYMENT_TERM_DAYS};
use crate::services::quotes as quote_service;
use crate::services::visits as visit_service;
use crate::store::{
    Conn, Store, equipment as equipment_store, invoices as invoice_store, quotes as quote_store,
    technicians as technician_store,
};

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
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let (document, file_name) = store
        .read(move |conn| invoice_document(conn, &agency_id, &id))
        .await?;
    let bytes = render(move || documents::invoice_pdf(&document)).await?;
    Ok(PdfFile { file_name, bytes })
}

/// A structured invoice: its file name and its XML.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct XmlFile {
    pub file_name: String,
    pub xml: String,
}

/// The structured invoice (Factur-X CII XML, EN 16931) of the issued
/// invoice or credit note `id` of the agency: the one its PDF carries. A
/// draft has none (409: no number yet).
pub async fn invoice_facturx(store: &Store, p: &Principal, id: &InvoiceId) -> AppResult<XmlFile> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let (document, _) = store
        .read(move |conn| invoice_document(conn, &agency_id, &id))
        .await?;
    let Some(number) = document.number.as_deref() else {
        let what = match document.kind {
            InvoiceKind::Facture => "Cette facture est un brouillon",
            InvoiceKind::Avoir => "Cet avoir est un brouillon",
        };
        return Err(AppError::conflict(format!(
            "{what} : sa facture électronique (Factur-X) n'existe qu'une fois la pièce émise, avec son numéro."
        )));
    };
    if !document.has_facturx() {
        return Err(AppError::conflict(format!(
            "La pièce {number} a été émise avant que le SIRET de l'agence soit renseigné : elle n'a pas de facture électronique (Factur-X)."
        )));
    }
    let file_name = documents::facturx_file_name(number);
    let xml = documents::cii_xml(&document)?;
    Ok(XmlFile { file_name, xml })
}

/// The invoice or credit note `id` of the agency as printed, and its file
/// name (a read, or the transaction that sends it).
pub fn invoice_document(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &InvoiceId,
) -> AppResult<(InvoiceDocument, String)> {
    let detail = invoice_service::get_in(conn, agency_id, id)?;
    // An issued document prints the seller it was issued by.
    let issued_under = invoice_store::seller_identity_of(conn, id)?;
    let seller = identity::seller_in(conn, agency_id, issued_under)?;
    let row = &detail.invoice;
    let kind = if row.nature == InvoiceNature::Avoir {
        InvoiceKind::Avoir
    } else {
        InvoiceKind::Facture
    };
    let created_on = day::read(&row.created_on)
        .ok_or_else(|| anyhow::anyhow!("jour de création illisible : {}", row.created_on))?;
    // The electronic address frozen at the issue; a document issued before
    // it was recorded gets the default of its buyer's SIREN, or the
    // e-reporting one of the agency.
    let frozen = &detail.einvoicing;
    let buyer_address = frozen.electronic_address.clone().or_else(|| {
        let default = einvoice::default_address(
            frozen.category,
            row.buyer_siren.as_deref(),
            frozen.siret.as_deref(),
            frozen.service_code.as_deref(),
        );
        default.or_else(|| {
            let client_ref = row.client_ref.as_deref().unwrap_or(row.id.as_str());
            seller
                .identity
                .siren()
                .map(|siren| einvoice::reporting_address(siren, client_ref))
        })
    });
    let document = InvoiceDocument {
        kind,
        number: row.number.clone(),
        credited_number: detail
            .credited_invoice
            .as_ref()
            .and_then(|c| c.number.clone()),
        credited_issued_on: credited_issued_on(conn, agency_id, row)?,
        quote_number: detail.quote.as_ref().and_then(|q| q.number.clone()),
        equipment: detail.equipment.iter().map(equipment_line).collect(),
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
            siret: frozen.siret.clone(),
            vat_number: frozen.vat_number.clone(),
            electronic_address: buyer_address,
        },
        lines: detail
            .lines
            .iter()
            .map(|l| DocumentLine {
                label: l.label.clone(),
                quantity_milli: l.quantity_milli,
                unit_price_cents: l.unit_price_cents,
                vat_rate_bp: l.vat_rate_bp,
                vat_exemption: l.vat_exemption,
            })
            .collect(),
        totals: detail.totals.clone(),
        treatment: einvoice::Treatment::of(frozen.category, row.buyer_siren.as_deref()),
        buyer_service_code: frozen.service_code.clone(),
        place: place_of(&detail.equipment),
    };
    let file_name = documents::invoice_file_name(row.number.as_deref(), row.id.as_str());
    Ok((document, file_name))
}

/// The issue day of the invoice a credit note credits.
fn credited_issued_on(
    conn: &Conn,
    agency_id: &AgencyId,
    row: &invoice_store::InvoiceRow,
) -> AppResult<Option<NaiveDate>> {
    let Some(credited_id) = row.credited_invoice_id.as_ref() else {
        return Ok(None);
    };
    Ok(invoice_store::get(conn, agency_id, credited_id)?
        .and_then(|credited| stored_day(credited.issued_on.as_deref())))
}

/// Where the work was done: the building of the invoice's lifts when they
/// are all in one (none when they are in several, or none is named).
fn place_of(equipment: &[invoice_store::InvoiceEquipmentRow]) -> Option<Place> {
    let first = equipment.first()?;
    first.building_id.as_ref()?;
    if equipment.iter().any(|e| e.building_id != first.building_id) {
        return None;
    }
    Some(Place {
        name: first.building_name.clone(),
        street: first.street.clone(),
        postal_code: first.postal_code.clone(),
        city: first.city.clone(),
    })
}

/// A lift as an invoice names it: « N° ASC-0042 — Résidence Les Tilleuls,
/// 12 rue des Lilas, 75011 Paris ».
fn equipment_line(row: &invoice_store::InvoiceEquipmentRow) -> String {
    let number = match &row.number {
        Some(number) => format!("N° {number}"),
        None => "Appareil sans numéro".to_owned(),
    };
    let address = visit_service::building_address(
        row.street.as_deref(),
        row.postal_code.as_deref(),
        row.city.as_deref(),
    );
    let place: Vec<&str> = [row.building_name.as_deref(), address.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if place.is_empty() {
        number
    } else {
        format!("{number} — {}", place.join(", "))
    }
}

/// The quote `id` of the agency, as a PDF.
pub async fn quote_pdf(store: &Store, p: &Principal, id: &str) -> AppResult<PdfFile> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), QuoteId::new(id));
    let (document, file_name) = store
        .read(move |conn| quote_document(conn, &agency_id, &id))
        .await?;
    let bytes = render(move || documents::quote_pdf(&document)).await?;
    Ok(PdfFile { file_name, bytes })
}

/// The quote `id` of the agency as printed, and its file name.
pub fn quote_document(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &QuoteId,
) -> AppResult<(QuoteDocument, String)> {
    let detail = quote_service::get_in(conn, agency_id, id)?;
    let seller = identity::seller_in(conn, agency_id, None)?;
    let quote = &detail.quote;
    let buyer = quote_store::equipment_client(conn, agency_id, &quote.equipment_id)?;
    let created_on = clock::parse_timestamp(&quote.created_at)
        .map(|at| clock::paris_local(at).date())
        .ok_or_else(|| anyhow::anyhow!("date de devis illisible : {}", quote.created_at))?;
    let document = QuoteDocument {
        number: quote.number.clone(),
        object: quote.object.clone(),
        equipment_number: quote.equipment_number.clone(),
        created_on,
        valid_until: quote_service::valid_until_of(quote),
        seller,
        buyer: buyer.map(|client| party_of(&client)),
        lines: detail
            .rows
            .iter()
            .map(|l| DocumentLine {
                label: l.label.clone(),
                quantity_milli: l.quantity_milli,
                unit_price_cents: l.unit_price_cents,
                vat_rate_bp: l.vat_rate_bp,
                vat_exemption: l.vat_exemption,
            })
            .collect(),
        totals: detail.totals.clone(),
    };
    let file_name = documents::quote_file_name(quote.number.as_deref(), quote.id.as_str());
    Ok((document, file_name))
}

/// The report of the done visit `id` of the agency, as a PDF.
pub async fn visit_report_pdf(store: &Store, p: &Principal, id: &VisitId) -> AppResult<PdfFile> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let (document, file_name) = store
        .read(move |conn| visit_report_document(conn, &agency_id, &id))
        .await?;
    let bytes = render(move || documents::visit_report_pdf(&document)).await?;
    Ok(PdfFile { file_name, bytes })
}

/// The report of the visit `id` as printed, and its file name; a visit not
/// done has no report (422).
pub fn visit_report_document(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &VisitId,
) -> AppResult<(VisitReportDocument, String)> {
    let visit = visit_service::get(conn, agency_id, id)?;
    if visit.status != VisitStatus::Faite {
        return Err(AppError::unprocessable(format!(
            "Cette visite n'a pas encore de rapport : elle est « {} » ; le rapport existe une fois la visite faite.",
            visit.status.label()
        )));
    }
    let done_on = visit
        .done_on
        .as_deref()
        .and_then(day::read)
        .ok_or_else(|| anyhow::anyhow!("jour de la visite {id} illisible"))?;
    let equipment = equipment_store::plan_of(conn, agency_id, &visit.equipment_id)?;
    let place = equipment.as_ref().and_then(|e| {
        let address = visit_service::building_address(
            e.address.as_deref(),
            e.postal_code.as_deref(),
            e.city.as_deref(),
        );
        match (&e.building, address) {
            (Some(building), Some(address)) => Some(format!("{building}, {address}")),
            (Some(building), None) => Some(building.clone()),
            (None, address) => address,
        }
    });
    let equipment_number = equipment
        .as_ref()
        .and_then(|e| e.number.clone())
        .unwrap_or_else(|| visit.equipment_id.as_str().to_owned());
    let technician = match &visit.technician_id {
        Some(tech) => technician_store::name_in_agency(conn, agency_id, tech)?,
        None => None,
    };
    let time = |at: Option<&str>| {
        at.and_then(clock::parse_timestamp)
            .map(|at| clock::paris_local(at).format("%H:%M").to_string())
    };
    let buyer = quote_store::equipment_client(conn, agency_id, &visit.equipment_id)?;
    let document = VisitReportDocument {
        equipment_number,
        equipment_type: equipment.as_ref().and_then(|e| e.equipment_type.clone()),
        place,
        done_on,
        arrived_at: time(visit.arrived_at.as_deref()),
        left_at: time(visit.left_at.as_deref()),
        technician,
        signed_by: visit.signed_by.clone(),
        observations: visit.observations.clone(),
        seller: identity::seller_in(conn, agency_id, None)?,
        buyer: buyer.map(|client| party_of(&client)),
    };
    let file_name = documents::visit_report_file_name(&document.equipment_number, done_on);
    Ok((document, file_name))
}

fn party_of(client: &crate::store::clients::ClientRow) -> Party {
    let buyer = invoice_service::buyer_of(client);
    Party {
        name: buyer.name.unwrap_or_default(),
        subtitle: None,
        address: buyer.address,
        siren: buyer.siren,
        siret: None,
        vat_number: buyer.vat_number,
        electronic_address: buyer.electronic_address,
    }
}

/// The contract `id` of the agency as a PDF: its parties, lifts and
/// clauses (« Projet de contrat » while it is a draft).
pub async fn contract_pdf(
    store: &Store,
    p: &Principal,
    id: &crate::domain::id::ContractId,
) -> AppResult<PdfFile> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let today = clock::paris_local(store.now()).date();
    let document = store
        .read(move |conn| contract_document(conn, &agency_id, &id, today))
        .await?;
    let file_name = documents::contract_file_name(&document.number);
    let bytes = render(move || documents::contract_pdf(&document)).await?;
    Ok(PdfFile { file_name, bytes })
}

/// A contract's lift on one line: its number (its id without one), then
/// its location and building (« ASC-001 — Hall principal, Résidence … »).
fn lift_line(l: &crate::store::contracts::ContractLiftRow) -> String {
    let number = l
        .number
        .clone()
        .unwrap_or_else(|| l.equipment_id.to_string());
    let place: Vec<&str> = [l.location.as_deref(), l.building_name.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if place.is_empty() {
        number
    } else {
        format!("{number} — {}", place.join(", "))
    }
}

/// The contract `id` of the agency as printed.
pub fn contract_document(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &crate::domain::id::ContractId,
    today: NaiveDate,
) -> AppResult<documents::ContractDocument> {
    use crate::domain::contract::IndexValue;
    use crate::domain::money::Cents;
    use crate::services::contracts as contract_service;
    let detail = contract_service::detail_in(conn, agency_id, id, today)?;
    let seller = identity::seller_in(conn, agency_id, None)?;
    let row = &detail.row;
    let client = crate::store::clients::find(conn, agency_id, &row.fields.client_id)?
        .ok_or_else(|| AppError::not_found("Client du contrat introuvable."))?;
    let created_on = clock::parse_timestamp(&row.created_at)
        .map(|at| clock::paris_local(at).date())
        .unwrap_or(today);
    let fields = &row.fields;
    Ok(documents::ContractDocument {
        number: row.number.clone(),
        draft: row.status == crate::domain::contract::ContractStatus::Brouillon,
        created_on,
        seller,
        buyer: party_of(&client),
        lifts: detail.lifts.iter().map(lift_line).collect(),
        contract_type: fields.contract_type,
        terms: contract_service::terms_of(fields),
        price_basis: fields.price_basis,
        annual_price: Cents::new(fields.annual_price_cents),
        annual_total: detail.dates.annual_total,
        frequency: fields.billing_frequency,
        timing: fields.billing_timing,
        vat_rate_bp: u32::try_from(fields.vat_rate_bp).unwrap_or(0),
        indexation: match (
            fields.price_index.clone(),
            fields.base_index_value,
            fields
                .base_index_month
                .as_deref()
                .and_then(crate::domain::contract::parse_month),
        ) {
            (Some(index), Some(base), Some(month)) => {
                Some((index, IndexValue::from_ten_thousandths(base), month))
            }
            _ => None,
        },
        visit_interval_days: fields.visit_interval_days,
        arrival_minutes: fields.arrival_minutes,
        out_of_hours_minutes: fields.arrival_out_of_hours_minutes,
        trapped_minutes: fields.trapped_minutes,
        restore_minutes: fields.restore_minutes,
        weekend_coverage: fields.weekend_coverage,
        on_call_coverage: fields.on_call_coverage,
        penalty_per_hour: Cents::new(fields.penalty_per_hour_cents),
        notes: fields.notes.clone(),
    })
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

/// Years a contract's annual report may be asked for.
pub const REPORT_YEARS: std::ops::RangeInclusive<i32> = 2000..=2100;

/// The yearly report of the contract `id` for `year` (default: last year)
/// as a PDF: [`annual_report_document`], rendered.
pub async fn annual_report_pdf(
    store: &Store,
    p: &Principal,
    id: &crate::domain::id::ContractId,
    year: Option<&str>,
) -> AppResult<PdfFile> {
    use chrono::Datelike;
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let now = store.now();
    let year = match year.map(str::trim).filter(|y| !y.is_empty()) {
        None => clock::paris_local(now).date().year() - 1,
        Some(raw) => raw
            .parse::<i32>()
            .ok()
            .filter(|y| REPORT_YEARS.contains(y))
            .ok_or_else(|| {
                AppError::unprocessable(format!(
                    "Le paramètre « year » doit être une année de {} à {} (reçu : « {raw} »).",
                    REPORT_YEARS.start(),
                    REPORT_YEARS.end()
                ))
            })?,
    };
    let document = store
        .read(move |conn| annual_report_document(conn, &agency_id, &id, year, now))
        .await?;
    let file_name = documents::annual_report_file_name(&document.number, year);
    let bytes = render(move || documents::annual_report_pdf(&document)).await?;
    Ok(PdfFile { file_name, bytes })
}

/// The yearly report of the contract `id` of the agency for `year`, from
/// the logbook: the part of the year it covered its lifts, each lift's
/// visits done and duties done then, its breakdown calls (all but noise
/// complaints) with cause and duration from the call to the return to
/// service, and the time stopped within the period. 422 when it covered
/// nothing that year.
pub fn annual_report_document(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &crate::domain::id::ContractId,
    year: i32,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<documents::AnnualReportDocument> {
    use crate::domain::call::CallType;
    use crate::domain::contract;
    use crate::services::contracts as contract_service;
    use crate::store::contracts as contract_store;
    let today = clock::paris_local(now).date();
    let detail = contract_service::detail_in(conn, agency_id, id, today)?;
    let row = &detail.row;
    let terms = contract_service::terms_of(&row.fields);
    let january = NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or(NaiveDate::MIN);
    let december = NaiveDate::from_ymd_opt(year, 12, 31).unwrap_or(NaiveDate::MAX);
    let last = contract::last_day(
        row.status,
        &terms,
        row.ends_on.as_deref().and_then(day::read),
    );
    let from = january.max(terms.start);
    let to = [Some(december), last, Some(today)]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(december);
    if row.status == contract::ContractStatus::Brouillon || from > to {
        return Err(AppError::unprocessable(format!(
            "Le contrat {} ne couvrait pas ses appareils en {year} : pas de rapport annuel pour cette année.",
            row.number
        )));
    }
    let seller = identity::seller_in(conn, agency_id, None)?;
    let client = crate::store::clients::find(conn, agency_id, &row.fields.client_id)?
        .ok_or_else(|| AppError::not_found("Client du contrat introuvable."))?;
    let start = clock::paris_to_utc(from.and_time(chrono::NaiveTime::MIN));
    let end =
        clock::paris_to_utc((to + chrono::Duration::days(1)).and_time(chrono::NaiveTime::MIN))
            .min(now.max(start));
    let period_minutes = (end - start).num_minutes().max(0);
    let mut lifts: Vec<(crate::domain::id::EquipmentId, documents::LiftYear)> = detail
        .lifts
        .iter()
        .map(|l| {
            (
                l.equipment_id.clone(),
                documents::LiftYear {
                    label: format!("Appareil {}", lift_line(l)),
                    period_minutes,
                    ..documents::LiftYear::default()
                },
            )
        })
        .collect();
    let mut last_visit: Option<String> = None;
    for contract_store::DoneVisitRow {
        equipment_id: lift,
        done_on,
        visit_id: visit,
        duty,
    } in contract_store::visits_done_of(conn, agency_id, id, &day::iso(from), &day::iso(to))?
    {
        let (Some(entry), Some(on)) = (
            lifts.iter_mut().find(|(l, _)| *l == lift).map(|(_, y)| y),
            day::read(&done_on),
        ) else {
            continue;
        };
        if last_visit.as_deref() != Some(visit.as_str()) {
            entry.visits.push(on);
            last_visit = Some(visit);
        }
        if let Some(duty) = duty {
            entry.duties.push((duty, on));
        }
    }
    let instant = |at: chrono::DateTime<chrono::Utc>| clock::format_timestamp(at);
    for call in contract_store::calls_of(conn, agency_id, id, &instant(start), &instant(end))? {
        if call.call_type == CallType::Bruit {
            continue;
        }
        let Some(received) = clock::parse_timestamp(&call.received_at) else {
            continue;
        };
        let Some(entry) = lifts
            .iter_mut()
            .find(|(l, _)| *l == call.equipment_id)
            .map(|(_, y)| y)
        else {
            continue;
        };
        let restored = call
            .back_in_service_at
            .as_deref()
            .or(call.resolved_at.as_deref())
            .and_then(clock::parse_timestamp);
        let stopped_until = restored.unwrap_or(now).min(end);
        entry.downtime_minutes += (stopped_until - received.max(start)).num_minutes().max(0);
        entry.breakdowns.push(documents::Breakdown {
            received: clock::paris_local(received),
            kind: call.call_type.label(),
            cause: call.cause.clone(),
            minutes: restored.map(|at| (at - received).num_minutes().max(0)),
        });
    }
    Ok(documents::AnnualReportDocument {
        number: row.number.clone(),
        year,
        from,
        to,
        seller,
        buyer: party_of(&client),
        lifts: lifts.into_iter().map(|(_, year)| year).collect(),
    })
}
