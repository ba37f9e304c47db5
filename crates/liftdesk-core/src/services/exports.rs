//! Exports of the lists to CSV or XLSX, followed while they run.
//!
//! An export reads its list page by page, exactly as the list answers it
//! (the front door hands over a `Fetch` calling the list's own function with
//! the list's filters), fills a `crate::exports::Table` and writes the file
//! off the async workers; `GET /app/api/exports/{id}` follows rows done out
//! of the total (the progress bar), then the file is downloaded. The first
//! page is read before the export is accepted, so a bad filter is refused
//! at once (with the list's own French error). Runs live in memory, each
//! visible to the person who started it in its agency only, and are
//! forgotten 15 minutes after they end.
//!
//! Two exports read the store themselves: the visits of a period (the
//! planning) and the accountant's export of the invoices and credit notes
//! issued in a period (FEC-like columns: day, number, nature, client,
//! SIREN, excluding tax by VAT rate, VAT, including tax, status, payment
//! day; credit notes negative).

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde_json::{Map, Value, json};

use crate::clock::{self, Clock};
use crate::domain::day;
use crate::domain::id::{AgencyId, InvoiceId, TechnicianId};
use crate::domain::invoice::InvoiceNature;
use crate::error::{AppError, AppResult};
use crate::exports::{self, Column, Kind, Table};
use crate::principal::Principal;
use crate::services::documents;
use crate::services::invoices::totals_of;
use crate::store::{Conn, Store, invoices as invoice_store, visits as visit_store};

/// Rows asked of a list per page (the lists' maximum).
pub const PAGE_ROWS: u32 = 200;
/// The most rows one export holds.
pub const MAX_ROWS: i64 = 200_000;
/// Exports one person may run at once.
const RUNNING_PER_PERSON: usize = 3;
/// How long a finished export stays downloadable.
const KEPT_FOR_MINUTES: i64 = 15;
/// The longest period of the visits' and the accountant's exports.
const MAX_PERIOD_DAYS: i64 = 366;

/// A page of a list: its total, and its rows as the list answers them.
pub type PageFuture = Pin<Box<dyn Future<Output = AppResult<(i64, Vec<Value>)>> + Send>>;
/// Reads page `n` (from 1) of the list, `PAGE_ROWS` rows.
pub type Fetch = Box<dyn FnMut(u32) -> PageFuture + Send>;

/// `csv` or `xlsx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Xlsx,
    /// A zip of documents (the e-invoices of a period).
    Zip,
}

impl ExportFormat {
    pub fn parse(text: &str) -> AppResult<Self> {
        match text.trim() {
            "csv" => Ok(Self::Csv),
            "xlsx" => Ok(Self::Xlsx),
            "zip" => Ok(Self::Zip),
            other => Err(AppError::unprocessable(format!(
                "Champ « format » : « {other} » inconnu ; attendu : csv, xlsx ou zip."
            ))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
            Self::Zip => "zip",
        }
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Self::Csv => "text/csv; charset=utf-8",
            Self::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Self::Zip => "application/zip",
        }
    }
}

/// What to export: the list's code, the sheet's title, the file's stem,
/// the columns, and how to read the list.
pub struct ExportSource {
    pub list: &'static str,
    pub title: String,
    /// The file's name without its extension; the day of the export is
    /// added unless the stem names its period already (`dated`).
    pub file_stem: String,
    pub dated: bool,
    pub content: ExportContent,
    pub fetch: Fetch,
}

/// What an export writes of each row.
pub enum ExportContent {
    /// A list: these columns, in a csv or xlsx table.
    Table(Vec<Column>),
    /// Documents: each row's files (the e-invoices), in a zip.
    Files(FileMaker),
}

/// How an export is written, its content and format checked together.
enum Plan {
    Table(Vec<Column>, ExportFormat),
    Zip(FileMaker),
}

impl Plan {
    fn of(content: ExportContent, format: ExportFormat) -> AppResult<Plan> {
        match (content, format) {
            (ExportContent::Table(columns), ExportFormat::Csv | ExportFormat::Xlsx) => {
                Ok(Plan::Table(columns, format))
            }
            (ExportContent::Files(files), ExportFormat::Zip) => Ok(Plan::Zip(files)),
            (ExportContent::Files(_), _) => Err(AppError::unprocessable(
                "Champ « format » : les factures électroniques s'exportent en zip.",
            )),
            (ExportContent::Table(_), _) => Err(AppError::unprocessable(
                "Champ « format » : une liste s'exporte en csv ou xlsx ; le zip est pour les factures électroniques.",
            )),
        }
    }
}

/// A file of a zip export: its path in the archive and its bytes.
pub type ZipEntry = (String, Vec<u8>);
/// The files of a row of a documents' export.
pub type FilesFuture = Pin<Box<dyn Future<Output = AppResult<Vec<ZipEntry>>> + Send>>;
/// Makes the files of one row (as the source's `fetch` answers it).
pub type FileMaker = Box<dyn FnMut(Value) -> FilesFuture + Send>;

/// Where an export stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportView {
    pub id: String,
    pub list: &'static str,
    pub format: ExportFormat,
    /// `en_cours`, `pret` or `echec`.
    pub status: &'static str,
    pub done: i64,
    pub total: i64,
    pub file_name: String,
    pub error: Option<String>,
    pub started_at: DateTime<Utc>,
}

struct Run {
    owner: String,
    agency_id: String,
    view: ExportView,
    bytes: Option<Arc<Vec<u8>>>,
    ended_at: Option<DateTime<Utc>>,
}

/// The exports of the server, in memory.
pub struct ExportRuns {
    clock: Clock,
    runs: Mutex<HashMap<String, Arc<Mutex<Run>>>>,
}

impl std::fmt::Debug for ExportRuns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExportRuns").finish_non_exhaustive()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn owner_of(p: &Principal) -> String {
    match &p.account {
        Some(account) => format!("account:{}", account.id.as_str()),
        None => format!("{:?}", p.actor),
    }
}

fn not_found() -> AppError {
    AppError::not_found("Export introuvable.")
}

impl ExportRuns {
    pub fn new(clock: Clock) -> Self {
        Self {
            clock,
            runs: Mutex::new(HashMap::new()),
        }
    }

    fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    /// Starts exporting `source` for `p`: reads its first page now (a bad
    /// filter is refused at once), then the rest in a task of its own.
    pub async fn start(
        self: &Arc<Self>,
        p: &Principal,
        source: ExportSource,
        format: ExportFormat,
    ) -> AppResult<ExportView> {
        let agency_id = p.agency_id()?.as_str().to_owned();
        let ExportSource {
            list,
            title,
            file_stem,
            dated,
            content,
            mut fetch,
        } = source;
        let plan = Plan::of(content, format)?;
        let owner = owner_of(p);
        self.forget_old();
        let running = lock(&self.runs)
            .values()
            .filter(|run| {
                let run = lock(run);
                run.owner == owner && run.view.status == "en_cours"
            })
            .count();
        if running >= RUNNING_PER_PERSON {
            return Err(AppError::conflict(format!(
                "{RUNNING_PER_PERSON} exports sont déjà en cours : attendez que l'un d'eux se termine."
            )));
        }
        let (total, first) = fetch(1).await?;
        if total > MAX_ROWS {
            return Err(AppError::unprocessable(format!(
                "L'export compterait {total} lignes, plus que les {MAX_ROWS} permises : filtrez la liste."
            )));
        }
        let now = self.now();
        let stamp = clock::paris_local(now).format("%Y-%m-%d").to_string();
        let view = ExportView {
            id: crate::store::new_id(),
            list,
            format,
            status: "en_cours",
            done: 0,
            total,
            file_name: if dated {
                format!("{file_stem}.{}", format.as_str())
            } else {
                format!("{file_stem}-{stamp}.{}", format.as_str())
            },
            error: None,
            started_at: now,
        };
        let run = Arc::new(Mutex::new(Run {
            owner,
            agency_id,
            view: view.clone(),
            bytes: None,
            ended_at: None,
        }));
        lock(&self.runs).insert(view.id.clone(), run.clone());
        let runs = self.clone();
        tokio::spawn(async move {
            let outcome = match plan {
                Plan::Table(columns, format) => {
                    let table = Table::new(&title, columns);
                    fill_table(&run, &mut fetch, table, total, first, format).await
                }
                Plan::Zip(mut files) => fill_zip(&run, &mut fetch, &mut files, total, first).await,
            };
            let mut run = lock(&run);
            run.ended_at = Some(runs.now());
            match outcome {
                Ok(bytes) => {
                    run.view.status = "pret";
                    run.view.done = run.view.total;
                    run.bytes = Some(Arc::new(bytes));
                }
                Err(err) => {
                    tracing::warn!(export = %run.view.id, error = %err.public_message(), "export en échec");
                    run.view.status = "echec";
                    run.view.error = Some(err.public_message());
                }
            }
        });
        Ok(view)
    }

    fn run_of(&self, p: &Principal, id: &str) -> AppResult<Arc<Mutex<Run>>> {
        let agency_id = p.agency_id()?.as_str();
        let owner = owner_of(p);
        let run = lock(&self.runs).get(id).cloned().ok_or_else(not_found)?;
        {
            let held = lock(&run);
            if held.owner != owner || held.agency_id != agency_id {
                return Err(not_found());
            }
        }
        Ok(run)
    }

    /// Where the export `id` of `p` stands.
    pub fn view(&self, p: &Principal, id: &str) -> AppResult<ExportView> {
        let run = self.run_of(p, id)?;
        let view = lock(&run).view.clone();
        Ok(view)
    }

    /// The file of a finished export: its name, media type and bytes.
    pub fn file(&self, p: &Principal, id: &str) -> AppResult<(String, &'static str, Arc<Vec<u8>>)> {
        let run = self.run_of(p, id)?;
        let run = lock(&run);
        match (&run.bytes, run.view.status) {
            (Some(bytes), _) => Ok((
                run.view.file_name.clone(),
                run.view.format.media_type(),
                bytes.clone(),
            )),
            (None, "echec") => Err(AppError::conflict(format!(
                "Cet export a échoué : {}",
                run.view.error.clone().unwrap_or_default()
            ))),
            (None, _) => Err(AppError::conflict(
                "Cet export n'est pas encore prêt : suivez sa progression.",
            )),
        }
    }

    fn forget_old(&self) {
        let limit = self.now() - Duration::minutes(KEPT_FOR_MINUTES);
        lock(&self.runs).retain(|_, run| lock(run).ended_at.is_none_or(|ended| ended > limit));
    }
}

/// Reads the remaining pages into the table, then writes the file.
async fn fill_table(
    run: &Arc<Mutex<Run>>,
    fetch: &mut Fetch,
    mut table: Table,
    total: i64,
    first: Vec<Value>,
    format: ExportFormat,
) -> AppResult<Vec<u8>> {
    let mut rows = first;
    let mut page = 1;
    loop {
        let count = rows.len();
        for row in &rows {
            table.push_json(row);
        }
        lock(run).view.done = table.rows.len() as i64;
        if count < PAGE_ROWS as usize || table.rows.len() as i64 >= total {
            break;
        }
        page += 1;
        let (_, next) = fetch(page).await?;
        rows = next;
    }
    let bytes = tokio::task::spawn_blocking(move || {
        if format == ExportFormat::Xlsx {
            exports::xlsx(&table)
        } else {
            exports::csv(&table)
        }
    })
    .await
    .map_err(|err| anyhow::anyhow!("écriture de l'export interrompue : {err}"))??;
    Ok(bytes)
}

/// Makes every row's files, one row after the other (the progress counts
/// the rows done), then writes them in a zip.
async fn fill_zip(
    run: &Arc<Mutex<Run>>,
    fetch: &mut Fetch,
    files: &mut FileMaker,
    total: i64,
    first: Vec<Value>,
) -> AppResult<Vec<u8>> {
    let mut entries: Vec<ZipEntry> = Vec::new();
    let mut rows = first;
    let (mut page, mut done) = (1, 0_i64);
    loop {
        let count = rows.len();
        for row in rows {
            entries.extend(files(row).await?);
            done += 1;
            lock(run).view.done = done;
        }
        if count < PAGE_ROWS as usize || done >= total {
            break;
        }
        page += 1;
        let (_, next) = fetch(page).await?;
        rows = next;
    }
    let bytes = tokio::task::spawn_blocking(move || exports::zip(&entries))
        .await
        .map_err(|err| anyhow::anyhow!("écriture de l'archive interrompue : {err}"))??;
    Ok(bytes)
}

// -- Periods ------------------------------------------------------------------------

/// A period `from`–`to` (`AAAA-MM-JJ`, both required), a year at most.
pub fn period(from: Option<&str>, to: Option<&str>) -> AppResult<(NaiveDate, NaiveDate)> {
    let read = |name: &str, text: Option<&str>| -> AppResult<NaiveDate> {
        let text = text
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                AppError::unprocessable(format!("Le paramètre « {name} » (AAAA-MM-JJ) est requis."))
            })?;
        day::read(text).ok_or_else(|| {
            AppError::unprocessable(format!(
                "Le paramètre « {name} » doit être une date AAAA-MM-JJ (reçu : « {text} »)."
            ))
        })
    };
    let (from, to) = (read("from", from)?, read("to", to)?);
    if from > to {
        return Err(AppError::unprocessable(
            "La période est inversée : « from » doit précéder ou égaler « to ».",
        ));
    }
    if (to - from).num_days() >= MAX_PERIOD_DAYS {
        return Err(AppError::unprocessable(format!(
            "La période dépasse {MAX_PERIOD_DAYS} jours : exportez-la en plusieurs fois."
        )));
    }
    Ok((from, to))
}

// -- Visits of a period -----------------------------------------------------------

/// The visits of the principal's agency from `from` to `to`, of one
/// technician if given (the planning's export).
pub fn visits_source(
    store: &Store,
    p: &Principal,
    (from, to): (NaiveDate, NaiveDate),
    technician: Option<TechnicianId>,
) -> AppResult<ExportSource> {
    let agency_id = p.agency_id()?.clone();
    let store = store.clone();
    let (from_text, to_text) = (from.to_string(), to.to_string());
    let fetch: Fetch = Box::new(move |page| {
        let (store, agency_id, technician) = (store.clone(), agency_id.clone(), technician.clone());
        let (from, to) = (from_text.clone(), to_text.clone());
        Box::pin(async move {
            let offset = u64::from(page.saturating_sub(1)) * u64::from(PAGE_ROWS);
            let (total, rows) = store
                .read(move |conn| {
                    visit_store::in_period(
                        conn,
                        &agency_id,
                        &from,
                        &to,
                        technician.as_ref(),
                        PAGE_ROWS,
                        offset,
                    )
                })
                .await?;
            let rows = rows
                .into_iter()
                .map(|v| {
                    json!({
                        "day": v.done_on.clone().unwrap_or_else(|| v.planned_for.clone()),
                        "plannedFor": v.planned_for,
                        "status": v.status.label(),
                        "equipmentNumber": v.equipment_number,
                        "building": v.building,
                        "address": crate::services::visits::building_address(
                            v.address.as_deref(),
                            v.postal_code.as_deref(),
                            v.city.as_deref(),
                        ),
                        "client": v.client,
                        "technician": v.technician,
                        "arrivedAt": v.arrived_at,
                        "leftAt": v.left_at,
                        "signedBy": v.signed_by,
                        "observations": v.observations,
                    })
                })
                .collect();
            Ok((total, rows))
        })
    });
    Ok(ExportSource {
        list: "visits",
        title: "Visites".to_owned(),
        file_stem: format!("visites-{from}-au-{to}"),
        dated: true,
        content: ExportContent::Table(vec![
            Column::new("Jour", "day", Kind::Date, 12.0),
            Column::new("Prévue le", "plannedFor", Kind::Date, 12.0),
            Column::new("Statut", "status", Kind::Text, 12.0),
            Column::new("Équipement", "equipmentNumber", Kind::Text, 14.0),
            Column::new("Immeuble", "building", Kind::Text, 24.0),
            Column::new("Adresse", "address", Kind::Text, 36.0),
            Column::new("Client", "client", Kind::Text, 28.0),
            Column::new("Technicien", "technician", Kind::Text, 20.0),
            Column::new("Arrivée", "arrivedAt", Kind::Timestamp, 17.0),
            Column::new("Départ", "leftAt", Kind::Timestamp, 17.0),
            Column::new("Signé par", "signedBy", Kind::Text, 20.0),
            Column::new("Observations", "observations", Kind::Text, 48.0),
        ]),
        fetch,
    })
}

// -- The accountant's export --------------------------------------------------------

/// `20 %`, `5,5 %`.
fn rate_text(rate_bp: u32) -> String {
    let whole = rate_bp / 100;
    let rest = rate_bp % 100;
    if rest == 0 {
        format!("{whole} %")
    } else if rest.is_multiple_of(10) {
        format!("{whole},{} %", rest / 10)
    } else {
        format!("{whole},{rest:02} %")
    }
}

/// The invoices and credit notes of the principal's agency issued from
/// `from` to `to`, one row each: FEC-like columns, one « HT » column per
/// VAT rate met in the period, credit notes negative.
pub async fn accounting_source(
    store: &Store,
    p: &Principal,
    (from, to): (NaiveDate, NaiveDate),
) -> AppResult<ExportSource> {
    let agency_id = p.agency_id()?.clone();
    let (from_text, to_text) = (from.to_string(), to.to_string());
    let rates: BTreeSet<u32> = {
        let (agency_id, from, to) = (agency_id.clone(), from_text.clone(), to_text.clone());
        store
            .read(move |conn| invoice_store::rates_issued_between(conn, &agency_id, &from, &to))
            .await?
            .into_iter()
            .collect()
    };
    let mut columns = vec![
        Column::new("Date", "issuedOn", Kind::Date, 12.0),
        Column::new("Numéro", "number", Kind::Text, 16.0),
        Column::new("Nature", "nature", Kind::Text, 10.0),
        Column::new("Client", "client", Kind::Text, 30.0),
        Column::new("SIREN", "siren", Kind::Text, 12.0),
    ];
    // Highest rate first, as French invoices list them.
    for rate in rates.iter().rev() {
        columns.push(Column {
            header: format!("HT {}", rate_text(*rate)),
            path: format!("excl.r{rate}"),
            kind: Kind::Money,
            width: 14.0,
        });
    }
    columns.extend([
        Column::new("Total HT", "totalExcl", Kind::Money, 14.0),
        Column::new("TVA", "vat", Kind::Money, 12.0),
        Column::new("Total TTC", "totalIncl", Kind::Money, 14.0),
        Column::new("Statut", "status", Kind::Text, 12.0),
        Column::new("Date de règlement", "paidOn", Kind::Date, 14.0),
    ]);
    let fetch = issued_pages(store, agency_id, (from_text, to_text), |conn, rows| {
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let lines = invoice_store::lines(conn, &row.id)?;
            let totals = totals_of(&lines);
            let sign = if row.nature == InvoiceNature::Avoir {
                -1.0
            } else {
                1.0
            };
            let euros = |cents: i64| sign * cents as f64 / 100.0;
            let excl: Map<String, Value> = totals
                .vat_by_rate
                .iter()
                .map(|s| (format!("r{}", s.rate_bp), json!(euros(s.base.get()))))
                .collect();
            let vat: i64 = totals.vat_by_rate.iter().map(|s| s.vat.get()).sum();
            out.push(json!({
                "issuedOn": row.issued_on,
                "number": row.number,
                "nature": row.nature.label(),
                "client": row.buyer_name,
                "siren": row.buyer_siren,
                "excl": excl,
                "totalExcl": euros(totals.excl_tax.get()),
                "vat": euros(vat),
                "totalIncl": euros(totals.incl_tax.get()),
                "status": row.status.label_for(row.nature),
                "paidOn": row.paid_on,
            }));
        }
        Ok(out)
    });
    Ok(ExportSource {
        list: "accounting",
        title: "Écritures de ventes".to_owned(),
        file_stem: format!("ventes-{from}-au-{to}"),
        dated: true,
        content: ExportContent::Table(columns),
        fetch,
    })
}

/// The pages of the documents the agency issued in a period, each row
/// made by `rows` (in the page's read).
fn issued_pages(
    store: &Store,
    agency_id: AgencyId,
    (from, to): (String, String),
    rows: fn(&Conn, Vec<invoice_store::InvoiceRow>) -> AppResult<Vec<Value>>,
) -> Fetch {
    let store = store.clone();
    Box::new(move |page| {
        let (store, agency_id) = (store.clone(), agency_id.clone());
        let (from, to) = (from.clone(), to.clone());
        Box::pin(async move {
            let offset = u64::from(page.saturating_sub(1)) * u64::from(PAGE_ROWS);
            store
                .read(move |conn| -> AppResult<(i64, Vec<Value>)> {
                    let (total, page) = invoice_store::issued_between(
                        conn, &agency_id, &from, &to, PAGE_ROWS, offset,
                    )?;
                    Ok((total, rows(conn, page)?))
                })
                .await
        })
    })
}

// -- The e-invoices of a period ---------------------------------------------------------

/// The invoices and credit notes of the principal's agency issued from
/// `from` to `to`, each as its Factur-X PDF (`FA-PO-2026-000042.pdf`) and
/// its structured invoice (`xml/FA-PO-2026-000042.xml`), in a zip: what the
/// agency deposits on its platform. The progress counts the documents.
pub async fn facturx_source(
    store: &Store,
    p: &Principal,
    (from, to): (NaiveDate, NaiveDate),
) -> AppResult<ExportSource> {
    let agency_id = p.agency_id()?.clone();
    let (from_text, to_text) = (from.to_string(), to.to_string());
    let fetch = issued_pages(store, agency_id, (from_text, to_text), |_, rows| {
        Ok(rows
            .into_iter()
            .map(|row| json!({ "id": row.id.as_str() }))
            .collect())
    });
    let files: FileMaker = {
        let (store, p) = (store.clone(), p.clone());
        Box::new(move |row| {
            let (store, p) = (store.clone(), p.clone());
            Box::pin(async move {
                let id = InvoiceId::new(row["id"].as_str().unwrap_or_default());
                let pdf = documents::invoice_pdf(&store, &p, &id).await?;
                let xml = documents::invoice_facturx(&store, &p, &id).await?;
                Ok(vec![
                    (pdf.file_name, pdf.bytes),
                    (format!("xml/{}", xml.file_name), xml.xml.into_bytes()),
                ])
            })
        })
    };
    Ok(ExportSource {
        list: "facturx",
        title: "Factures électroniques".to_owned(),
        file_stem: format!("factures-electroniques-{from}-au-{to}"),
        dated: true,
        content: ExportContent::Files(files),
        fetch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_written_as_french_readers_do() {
        assert_eq!(rate_text(2000), "20 %");
        assert_eq!(rate_text(550), "5,5 %");
        assert_eq!(rate_text(210), "2,1 %");
        assert_eq!(rate_text(0), "0 %");
        assert_eq!(rate_text(1025), "10,25 %");
    }

    #[test]
    fn periods_are_checked_in_french() {
        let refused = |from, to| period(from, to).map_err(|e| e.public_message());
        assert_eq!(
            refused(None, Some("2026-01-01")),
            Err("Le paramètre « from » (AAAA-MM-JJ) est requis.".to_owned())
        );
        assert_eq!(
            refused(Some("2026-02-01"), Some("2026-01-01")),
            Err("La période est inversée : « from » doit précéder ou égaler « to ».".to_owned())
        );
        assert!(refused(Some("2025-01-01"), Some("2026-01-02")).is_err());
        assert!(refused(Some("2025-01-01"), Some("2026-01-01")).is_ok());
        assert!(refused(Some("2026-01-01"), Some("2026-12-31")).is_ok());
        assert!(refused(Some("2026-13-01"), Some("2026-12-31")).is_err());
    }
}
