//! `/app/api/exports…`: every list of the screens exported to CSV or XLSX
//! with the filters it shows, followed by a progress bar.
//!
//! `POST /exports` `{list, format, query}`: `query` is the list's own query
//! string (`q=…&type=…`, as the screen sends it to the list), read by the
//! list's own parameters and answered page by page by the list's own
//! function, so the file holds what the list shows. `list`: `equipment`
//! (`GET /equipment`), `clients` (`GET /clients`), `calls` (the REST list
//! `GET /api/v2/calls`: `status`, `q`, `equipment`), `quotes`
//! (`GET /quotes`), `invoices` (`GET /invoices`), `technicians`
//! (`GET /technicians`), `visits` (the planning: `from`, `to`,
//! `technician`), `accounting` (the accountant's export of the invoices
//! and credit notes issued from `from` to `to`) and `facturx` (format
//! `zip`: the Factur-X PDF and XML of each invoice and credit note issued
//! from `from` to `to`, the progress counting documents). Then `GET /exports/{id}`
//! (rows done out of the total) and `GET /exports/{id}/file`.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::auth::staff_session::StaffSession;
use crate::domain::call::{CallStatus, CallType};
use crate::domain::id::TechnicianId;
use crate::domain::invoice::{InvoiceNature, InvoiceStatus};
use crate::error::{ApiError, AppError, AppResult};
use crate::exports::{Column, Kind};
use crate::principal::Principal;
use crate::services::exports::{
    self as service, ExportContent, ExportFormat, ExportSource, ExportView, Fetch, PAGE_ROWS,
};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/exports", post(start))
        .route("/exports/{id}", get(read))
        .route("/exports/{id}/file", get(file))
}

/// Ce qu'il faut exporter.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ExportBody {
    /// `equipment`, `clients`, `calls`, `quotes`, `invoices`, `technicians`,
    /// `visits`, `accounting` ou `facturx` (factures électroniques, en zip).
    list: String,
    /// `csv` ou `xlsx` ; `zip` pour `facturx`.
    format: String,
    /// La chaîne de requête de la liste, ses filtres (sans `?`).
    #[ts(optional)]
    query: Option<String>,
}

/// Où en est un export.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExportJob {
    id: String,
    list: String,
    format: String,
    /// `en_cours`, `pret` ou `echec`.
    status: String,
    /// Lignes écrites (documents faits, pour `facturx`).
    done: i64,
    /// Lignes à écrire (documents à faire, pour `facturx`).
    total: i64,
    file_name: String,
    /// La raison d'un échec, en français.
    error: Option<String>,
    started_at: String,
}

impl From<ExportView> for ExportJob {
    fn from(v: ExportView) -> Self {
        Self {
            id: v.id,
            list: v.list.to_owned(),
            format: v.format.as_str().to_owned(),
            status: v.status.to_owned(),
            done: v.done,
            total: v.total,
            file_name: v.file_name,
            error: v.error,
            started_at: crate::clock::format_timestamp(v.started_at),
        }
    }
}

/// The list's parameters read from `query` as the list reads its own.
fn parameters<Q: DeserializeOwned>(query: Option<&str>) -> AppResult<Q> {
    let query = query.unwrap_or_default().trim_start_matches('?');
    let uri: Uri = format!("/?{query}").parse().map_err(|_| {
        ApiError::from(AppError::bad_request(
            "Champ « query » : chaîne de requête illisible.",
        ))
    })?;
    Query::<Q>::try_from_uri(&uri)
        .map(|Query(q)| q)
        .map_err(|err| {
            AppError::bad_request(format!(
                "Champ « query » : paramètres de la liste illisibles ({}).",
                err.body_text()
            ))
            .into()
        })
}

/// A list answered as JSON: its total and its rows.
fn rows_of<T: Serialize>(page: &T) -> AppResult<(i64, Vec<Value>)> {
    let value = serde_json::to_value(page).map_err(|e| AppError::Internal(e.into()))?;
    let total = value["total"].as_i64().unwrap_or_default();
    let rows = match value.get("results") {
        Some(Value::Array(rows)) => rows.clone(),
        _ => Vec::new(),
    };
    Ok((total, rows))
}

/// A list's parameters whose page and size the export sets.
trait PagedQuery: Clone + Send + Sync + 'static {
    fn at_page(&mut self, n: u32);
}

macro_rules! paged_query {
    ($($query:ty),+) => {
        $(impl PagedQuery for $query {
            fn at_page(&mut self, n: u32) {
                self.page = Some(n.to_string());
                self.limit = Some(PAGE_ROWS.to_string());
            }
        })+
    };
}

paged_query!(
    super::equipment::ParkQuery,
    super::clients::ListQuery,
    crate::api::wire::calls::CallListQuery,
    super::quotes::ListQuery,
    super::invoices::ListQuery
);

/// A `Fetch` calling `page` with a clone of the list's parameters at page
/// `n`, each row then `enrich`ed.
fn paged<Q, F, Fut>(
    state: &AppState,
    principal: &Principal,
    query: Q,
    page: F,
    enrich: fn(&mut Value),
) -> Fetch
where
    Q: PagedQuery,
    F: Fn(AppState, Principal, Q) -> Fut + Send + Sync + Copy + 'static,
    Fut: std::future::Future<Output = AppResult<(i64, Vec<Value>)>> + Send + 'static,
{
    let (state, principal) = (state.clone(), principal.clone());
    Box::new(move |n| {
        let mut query = query.clone();
        query.at_page(n);
        let future = page(state.clone(), principal.clone(), query);
        Box::pin(async move {
            let (total, mut rows) = future.await.map_err(|e: ApiError| e.0)?;
            rows.iter_mut().for_each(enrich);
            Ok((total, rows))
        })
    })
}

fn no_enrich(_: &mut Value) {}

/// The maintenance contract's code → its label, as the park shows it.
fn enrich_equipment(row: &mut Value) {
    let label = match row["maintenanceContract"].as_str() {
        Some("parc") => Some("Sous contrat (parc)"),
        Some("hors_parc") => Some("Hors parc"),
        _ => None,
    };
    row["contractLabel"] = label.into();
}

/// `statut` → its French label; `type` too (calls).
fn enrich_call(row: &mut Value) {
    let status = row["statut"]
        .as_str()
        .and_then(CallStatus::parse)
        .map(CallStatus::label);
    let kind = row["type"]
        .as_str()
        .and_then(CallType::parse)
        .map(CallType::label);
    row["statutLabel"] = status.into();
    row["typeLabel"] = kind.into();
}

/// `status` and `nature` → their French labels (invoices).
fn enrich_invoice(row: &mut Value) {
    let nature = row["nature"].as_str().and_then(InvoiceNature::parse);
    let status = row["status"].as_str().and_then(InvoiceStatus::parse);
    row["natureLabel"] = nature.map(InvoiceNature::label).into();
    row["statusLabel"] = match (status, nature) {
        (Some(status), Some(nature)) => Some(status.label_for(nature)),
        (Some(status), None) => Some(status.label()),
        _ => None,
    }
    .into();
}

/// `archived` → « Archivé » / « Actif » (clients).
fn enrich_client(row: &mut Value) {
    let archived = row["archived"].as_bool().unwrap_or(false);
    row["state"] = if archived { "Archivé" } else { "Actif" }.into();
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PeriodQuery {
    from: Option<String>,
    to: Option<String>,
    technician: Option<String>,
}

async fn source_of(
    state: &AppState,
    principal: &Principal,
    list: &str,
    query: Option<&str>,
) -> AppResult<ExportSource> {
    let col = Column::new;
    Ok(match list {
        "equipment" => {
            let q: super::equipment::ParkQuery = parameters(query)?;
            ExportSource {
                list: "equipment",
                title: "Parc".to_owned(),
                file_stem: "parc".to_owned(),
                dated: false,
                content: ExportContent::Table(vec![
                    col("Numéro", "number", Kind::Text, 14.0),
                    col("Type", "typeLabel", Kind::Text, 16.0),
                    col("Emplacement", "location", Kind::Text, 16.0),
                    col("Immeuble", "building.name", Kind::Text, 24.0),
                    col("Adresse", "building.address", Kind::Text, 30.0),
                    col("Code postal", "building.postalCode", Kind::Text, 11.0),
                    col("Ville", "building.city", Kind::Text, 18.0),
                    col("Client", "client.name", Kind::Text, 28.0),
                    col("Contrat", "contractLabel", Kind::Text, 18.0),
                    col("Connaissance (%)", "knowledgeRate", Kind::Number, 16.0),
                    col("Archivé le", "archivedAt", Kind::Timestamp, 17.0),
                ]),
                fetch: paged(
                    state,
                    principal,
                    q,
                    |state, p, q| async move {
                        rows_of(&super::equipment::park_page(&state, &p, q).await?)
                    },
                    enrich_equipment,
                ),
            }
        }
        "clients" => {
            let q: super::clients::ListQuery = parameters(query)?;
            ExportSource {
                list: "clients",
                title: "Clients".to_owned(),
                file_stem: "clients".to_owned(),
                dated: false,
                content: ExportContent::Table(vec![
                    col("Identifiant", "id", Kind::Text, 14.0),
                    col("Nom", "name", Kind::Text, 32.0),
                    col("Statut", "status", Kind::Text, 10.0),
                    col("SIREN", "siren", Kind::Text, 12.0),
                    col("E-mail", "email", Kind::Text, 28.0),
                    col("Téléphone", "phone", Kind::Text, 16.0),
                    col("État", "state", Kind::Text, 10.0),
                ]),
                fetch: paged(
                    state,
                    principal,
                    q,
                    |state, p, q| async move {
                        rows_of(&super::clients::list_page(&state, &p, q).await?)
                    },
                    enrich_client,
                ),
            }
        }
        "calls" => {
            let q: crate::api::wire::calls::CallListQuery = parameters(query)?;
            ExportSource {
                list: "calls",
                title: "Appels".to_owned(),
                file_stem: "appels".to_owned(),
                dated: false,
                content: ExportContent::Table(vec![
                    col("Référence", "reference", Kind::Text, 16.0),
                    col("Reçu le", "recuLe", Kind::Timestamp, 17.0),
                    col("Statut", "statutLabel", Kind::Text, 14.0),
                    col("Type", "typeLabel", Kind::Text, 16.0),
                    col("Urgence", "urgence", Kind::YesNo, 9.0),
                    col("Équipement", "equipment.number", Kind::Text, 14.0),
                    col("Immeuble", "building", Kind::Text, 24.0),
                    col("Adresse", "address", Kind::Text, 30.0),
                    col("Appelant", "appelant", Kind::Text, 22.0),
                    col("Technicien", "technician.name", Kind::Text, 20.0),
                ]),
                fetch: paged(
                    state,
                    principal,
                    q,
                    |state, p, q| async move {
                        rows_of(&crate::api::wire::calls::call_list(&state, &p, q).await?)
                    },
                    enrich_call,
                ),
            }
        }
        "quotes" => {
            let q: super::quotes::ListQuery = parameters(query)?;
            ExportSource {
                list: "quotes",
                title: "Devis".to_owned(),
                file_stem: "devis".to_owned(),
                dated: false,
                content: ExportContent::Table(vec![
                    col("Numéro", "number", Kind::Text, 16.0),
                    col("Créé le", "createdAt", Kind::Timestamp, 17.0),
                    col("Statut", "statusLabel", Kind::Text, 12.0),
                    col("Origine", "originLabel", Kind::Text, 22.0),
                    col("Objet", "object", Kind::Text, 40.0),
                    col("Équipement", "equipment.number", Kind::Text, 14.0),
                    col("Total HT", "totalExclTax", Kind::Money, 14.0),
                    col("Total TTC", "totalInclTax", Kind::Money, 14.0),
                    col("Facture", "invoice.number", Kind::Text, 16.0),
                ]),
                fetch: paged(
                    state,
                    principal,
                    q,
                    |state, p, q| async move {
                        rows_of(&super::quotes::list_page(&state, &p, q).await?)
                    },
                    no_enrich,
                ),
            }
        }
        "invoices" => {
            let q: super::invoices::ListQuery = parameters(query)?;
            ExportSource {
                list: "invoices",
                title: "Factures et avoirs".to_owned(),
                file_stem: "factures".to_owned(),
                dated: false,
                content: ExportContent::Table(vec![
                    col("Numéro", "number", Kind::Text, 16.0),
                    col("Nature", "natureLabel", Kind::Text, 10.0),
                    col("Statut", "statusLabel", Kind::Text, 12.0),
                    col("Client", "buyer", Kind::Text, 30.0),
                    col("Identifiant client", "client", Kind::Text, 16.0),
                    col("Émise le", "issuedOn", Kind::Date, 12.0),
                    col("Échéance", "dueOn", Kind::Date, 12.0),
                    col("Réglée le", "paidOn", Kind::Date, 12.0),
                    col("Total HT", "totalExclTax", Kind::Money, 14.0),
                    col("Total TTC", "totalInclTax", Kind::Money, 14.0),
                ]),
                fetch: paged(
                    state,
                    principal,
                    q,
                    |state, p, q| async move {
                        rows_of(&super::invoices::list_page(&state, &p, q).await?)
                    },
                    enrich_invoice,
                ),
            }
        }
        "technicians" => {
            let _: EmptyQuery = parameters(query)?;
            let (state, principal) = (state.clone(), principal.clone());
            ExportSource {
                list: "technicians",
                title: "Techniciens".to_owned(),
                file_stem: "techniciens".to_owned(),
                dated: false,
                content: ExportContent::Table(vec![
                    col("Nom", "name", Kind::Text, 24.0),
                    col("Secteurs", "sectors", Kind::Text, 30.0),
                    col("Appels en cours", "openCalls", Kind::Number, 14.0),
                    col("D'astreinte", "onCall", Kind::YesNo, 12.0),
                    col("Absent jusqu'au", "absentUntil", Kind::Date, 15.0),
                    col("Indisponible jusqu'à", "offUntil", Kind::Timestamp, 18.0),
                ]),
                fetch: Box::new(move |n| {
                    let (state, principal) = (state.clone(), principal.clone());
                    Box::pin(async move {
                        if n > 1 {
                            return Ok((0, Vec::new()));
                        }
                        let list =
                            crate::api::wire::technicians::technician_list(&state, &principal)
                                .await
                                .map_err(|e| e.0)?;
                        let rows: Vec<Value> = serde_json::to_value(list)
                            .map_err(|e| AppError::Internal(e.into()))?
                            .as_array()
                            .cloned()
                            .unwrap_or_default();
                        Ok((rows.len() as i64, rows))
                    })
                }),
            }
        }
        "visits" => {
            let q: PeriodQuery = parameters(query)?;
            let period = service::period(q.from.as_deref(), q.to.as_deref())?;
            let technician = q
                .technician
                .filter(|t| !t.trim().is_empty())
                .map(|t| TechnicianId::new(t.trim()));
            service::visits_source(&state.store, principal, period, technician)?
        }
        "accounting" => {
            let q: PeriodQuery = parameters(query)?;
            if q.technician.is_some() {
                return Err(AppError::bad_request(
                    "Champ « query » : l'export comptable ne prend que « from » et « to ».",
                )
                .into());
            }
            let period = service::period(q.from.as_deref(), q.to.as_deref())?;
            service::accounting_source(&state.store, principal, period).await?
        }
        "facturx" => {
            let q: PeriodQuery = parameters(query)?;
            if q.technician.is_some() {
                return Err(AppError::bad_request(
                    "Champ « query » : l'export des factures électroniques ne prend que « from » et « to ».",
                )
                .into());
            }
            let period = service::period(q.from.as_deref(), q.to.as_deref())?;
            service::facturx_source(&state.store, principal, period).await?
        }
        other => {
            return Err(AppError::unprocessable(format!(
                "Champ « list » : « {other} » inconnue ; attendu : equipment, clients, calls, quotes, invoices, technicians, visits, accounting ou facturx."
            ))
            .into());
        }
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct EmptyQuery {}

async fn start(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<ExportBody>,
) -> AppResult<(StatusCode, Json<ExportJob>)> {
    session.require_agency()?;
    let principal = session.principal();
    let format = ExportFormat::parse(&body.format)?;
    let source = source_of(&state, &principal, body.list.trim(), body.query.as_deref()).await?;
    let runs: &Arc<service::ExportRuns> = &state.exports;
    let view = runs.start(&principal, source, format).await?;
    Ok((StatusCode::ACCEPTED, Json(view.into())))
}

async fn read(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<ExportJob>> {
    session.require_agency()?;
    Ok(Json(state.exports.view(&session.principal(), &id)?.into()))
}

async fn file(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Response> {
    session.require_agency()?;
    let (name, media_type, bytes) = state.exports.file(&session.principal(), &id)?;
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(media_type)),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-store"),
            ),
        ],
        bytes.as_ref().clone(),
    )
        .into_response())
}
