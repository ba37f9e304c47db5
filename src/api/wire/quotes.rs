//! The JSON of quotes shared by the REST API v2 (`/api/v2/quotes`), the MCP
//! tools and the web application: the bodies they accept, the records they
//! answer with, and each operation of `services::quotes` called for a
//! `Principal` and mapped to that JSON. No rule lives here.

use crate::domain::id::{InvoiceId, QuoteId};
use chrono::NaiveDate;
use rmcp::schemars;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::invoices::{LineBody, VatView, rate_percent};
use crate::api::wire::{Created, Page, PageQuery, Paging, RecordKind};
use crate::domain::invoice::line_total_excl;
use crate::domain::money::{Cents, milli_to_quantity};
use crate::domain::quote::QuoteAction;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::documents::{self as documents, PdfFile};
use crate::services::quotes::{self as service, NewQuoteInput, QuoteDetail};
use crate::state::AppState;

/// Statut d'un devis : `brouillon`, `envoye`, `accepte`, `refuse`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum QuoteStatusCode {
    brouillon,
    envoye,
    accepte,
    refuse,
}

/// Origine d'un devis : `reserve` (réserve de contrôle technique), `panne`,
/// `technicien` (demande du technicien), `client` (demande du client).
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum QuoteOriginCode {
    reserve,
    panne,
    technicien,
    client,
}

/// Un nouveau devis, créé au statut `brouillon`.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuoteBody {
    /// Identifiant d'un équipement de l'agence (sinon 422).
    #[schema(min_length = 1)]
    #[schemars(length(min = 1))]
    pub equipment_id: String,
    /// Origine du devis : `reserve` (réserve de contrôle technique), `panne`,
    /// `technicien` (demande du technicien) ou `client` (demande du client) ;
    /// une valeur inconnue est refusée (422).
    #[schema(value_type = QuoteOriginCode)]
    #[schemars(extend("enum" = ["reserve", "panne", "technicien", "client"]))]
    pub origin: String,
    /// Objet du devis, en une phrase : 3 à 300 caractères, sans retour à la ligne.
    #[schema(
        min_length = 3,
        max_length = 300,
        pattern = "^[^\\r\\n]*\\S[^\\r\\n]*$"
    )]
    #[schemars(length(min = 3, max = 300))]
    pub object: String,
    /// Lignes du devis : au moins une, au plus 200.
    #[schema(min_items = 1, max_items = 200)]
    #[schemars(length(min = 1, max = 200))]
    pub rows: Vec<LineBody>,
}

/// L'équipement du devis.
#[derive(Serialize, ToSchema, TS)]
pub struct QuoteEquipment {
    pub id: String,
    /// Numéro de l'équipement.
    #[schema(required = true)]
    pub number: Option<String>,
    pub link: String,
    pub url: String,
}

/// Une ligne de devis.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct QuoteRowView {
    /// Libellé.
    pub label: String,
    /// Quantité (jusqu'à trois décimales).
    pub quantity: f64,
    /// Prix unitaire HT, en euros.
    pub unit_price: f64,
    /// Taux de TVA, en pour cent (20, 10, 5.5, 2.1 ou 0).
    pub vat_rate: f64,
    /// Motif d'exonération d'une ligne à 0 % (`autoliquidation`,
    /// `franchise`) ; absent sinon.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "VatExemption")]
    #[schema(value_type = Option<String>)]
    pub vat_exemption: Option<String>,
    /// Total HT de la ligne, en euros (quantité × prix unitaire, arrondi au centime).
    pub total_excl_tax: f64,
}

/// Un devis, tel que `GET /quotes/{id}` le lit.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct QuoteView {
    /// Identifiant du devis.
    pub id: String,
    /// Numéro du devis (`DV-2026-00012`), donné à la création.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Statut.
    #[schema(value_type = QuoteStatusCode)]
    #[ts(type = "QuoteStatus")]
    #[ts(type = "QuoteStatus")]
    pub status: String,
    /// Statut en toutes lettres.
    pub status_label: String,
    /// Origine.
    #[schema(value_type = QuoteOriginCode)]
    #[ts(type = "QuoteOrigin")]
    #[ts(type = "QuoteOrigin")]
    pub origin: String,
    /// Origine en toutes lettres.
    pub origin_label: String,
    /// Objet du devis.
    pub object: String,
    /// Équipement concerné.
    pub equipment: QuoteEquipment,
    /// Lignes, dans leur ordre.
    pub rows: Vec<QuoteRowView>,
    /// Total HT, en euros.
    pub total_excl_tax: f64,
    /// TVA par taux, par taux croissant.
    pub vat_by_rate: Vec<VatView>,
    /// Total TTC, en euros.
    pub total_incl_tax: f64,
    /// Création (UTC, ISO 8601).
    pub created_at: String,
    /// Premier envoi au client (UTC, ISO 8601) ; null tant qu'il n'est pas envoyé.
    #[schema(required = true)]
    pub sent_at: Option<String>,
    /// Acceptation (UTC, ISO 8601) ; null sauf au statut `accepte`.
    #[schema(required = true)]
    pub accepted_at: Option<String>,
    /// Refus (UTC, ISO 8601) ; null sauf au statut `refuse`.
    #[schema(required = true)]
    pub refused_at: Option<String>,
    /// Dernier jour de validité (AAAA-MM-JJ) : 30 jours après la création ou
    /// le dernier renouvellement. Passé ce jour, le devis doit être renouvelé
    /// (`POST /quotes/{id}/renew`) avant d'être accepté.
    #[schema(required = true, format = Date)]
    pub valid_until: Option<String>,
    /// Vrai quand le devis attend encore sa réponse (brouillon ou envoyé) et
    /// que son dernier jour de validité est passé (jour de Paris).
    pub expired: bool,
    pub link: String,
    pub url: String,
}

fn quote_view(detail: QuoteDetail, base_url: &str, today: NaiveDate) -> QuoteView {
    let QuoteDetail {
        quote,
        rows,
        totals,
    } = detail;
    let expired = service::is_expired_on(&quote, today);
    QuoteView {
        expired,
        valid_until: quote.valid_until,
        number: quote.number,
        status_label: quote.status.label().to_owned(),
        status: quote.status.as_str().to_owned(),
        origin_label: quote.origin.label().to_owned(),
        origin: quote.origin.as_str().to_owned(),
        object: quote.object,
        equipment: QuoteEquipment {
            link: RecordKind::Equipment.link(quote.equipment_id.as_str()),
            url: RecordKind::Equipment.url(base_url, quote.equipment_id.as_str()),
            id: quote.equipment_id.into_string(),
            number: quote.equipment_number,
        },
        rows: rows
            .into_iter()
            .map(|r| QuoteRowView {
                total_excl_tax: line_total_excl(r.quantity_milli, Cents::new(r.unit_price_cents))
                    .euros(),
                label: r.label,
                quantity: milli_to_quantity(r.quantity_milli),
                unit_price: Cents::new(r.unit_price_cents).euros(),
                vat_rate: rate_percent(r.vat_rate_bp),
                vat_exemption: r.vat_exemption.map(|e| e.as_str().to_owned()),
            })
            .collect(),
        total_excl_tax: totals.excl_tax.euros(),
        vat_by_rate: totals.vat_by_rate.iter().map(VatView::from).collect(),
        total_incl_tax: totals.incl_tax.euros(),
        created_at: quote.created_at,
        sent_at: quote.sent_at,
        accepted_at: quote.accepted_at,
        refused_at: quote.refused_at,
        link: RecordKind::Quote.link(quote.id.as_str()),
        url: RecordKind::Quote.url(base_url, quote.id.as_str()),
        id: quote.id.into_string(),
    }
}

/// Today in Paris, by the server's clock: the day a quote's validity is
/// read against.
fn paris_today(state: &AppState) -> NaiveDate {
    crate::domain::time::paris_local(state.now()).date()
}

/// A draft quote: `POST /quotes` and the MCP tool `creer_devis`.
pub async fn quote_create(state: &AppState, p: &Principal, body: QuoteBody) -> AppResult<Created> {
    let input = NewQuoteInput {
        equipment_id: body.equipment_id,
        origin: body.origin,
        object: body.object,
        rows: body.rows.into_iter().map(Into::into).collect(),
    };
    let id = service::create(&state.store, p, input).await?;
    Ok(Created::new(RecordKind::Quote, &state.base_url, &id))
}

/// A quote of the agency: `GET /quotes/{id}` and the MCP tool `devis`.
pub async fn quote_read(state: &AppState, p: &Principal, id: &str) -> AppResult<QuoteView> {
    let detail = service::get(&state.store, p, &QuoteId::new(id)).await?;
    Ok(quote_view(detail, &state.base_url, paris_today(state)))
}

/// The PDF of a quote of the caller's agency: `GET /quotes/{id}/pdf` and
/// `GET /app/api/quotes/{id}/pdf`.
pub async fn quote_pdf_file(state: &AppState, p: &Principal, id: &str) -> AppResult<PdfFile> {
    Ok(documents::quote_pdf(&state.store, p, id).await?)
}

/// A quote's transition: `POST /quotes/{id}/send|accept|refuse|renew` and
/// the MCP tools `envoyer_devis`, `accepter_devis`, `refuser_devis`,
/// `renouveler_devis`.
pub async fn quote_act(
    state: &AppState,
    p: &Principal,
    id: &str,
    action: QuoteAction,
) -> AppResult<Created> {
    service::act(&state.store, p, &QuoteId::new(id), action).await?;
    Ok(Created::new(RecordKind::Quote, &state.base_url, id))
}

/// Une pièce liée à un devis : la facture qui en est issue.
#[derive(Serialize, ToSchema, TS)]
pub struct QuoteInvoiceRef {
    pub id: String,
    /// Numéro ; null tant que la facture est un brouillon.
    #[schema(required = true)]
    pub number: Option<String>,
    pub link: String,
    pub url: String,
}

/// Une ligne de la liste des devis.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct QuoteListEntry {
    pub id: String,
    #[schema(required = true)]
    pub number: Option<String>,
    #[schema(value_type = QuoteStatusCode)]
    #[ts(type = "QuoteStatus")]
    pub status: String,
    pub status_label: String,
    #[schema(value_type = QuoteOriginCode)]
    #[ts(type = "QuoteOrigin")]
    pub origin: String,
    pub origin_label: String,
    pub object: String,
    pub equipment: QuoteEquipment,
    /// Total HT, en euros.
    pub total_excl_tax: f64,
    /// Total TTC, en euros.
    pub total_incl_tax: f64,
    pub created_at: String,
    /// Dernier jour de validité (AAAA-MM-JJ) : 30 jours après la création ou
    /// le dernier renouvellement. Passé ce jour, le devis doit être renouvelé
    /// (`POST /quotes/{id}/renew`) avant d'être accepté.
    #[schema(required = true, format = Date)]
    pub valid_until: Option<String>,
    /// Vrai quand le devis attend encore sa réponse (brouillon ou envoyé) et
    /// que son dernier jour de validité est passé (jour de Paris).
    pub expired: bool,
    /// La facture issue du devis ; null tant qu'il n'est pas facturé.
    #[schema(required = true)]
    pub invoice: Option<QuoteInvoiceRef>,
    pub link: String,
    pub url: String,
}

fn invoice_ref(base_url: &str, id: InvoiceId, number: Option<String>) -> QuoteInvoiceRef {
    QuoteInvoiceRef {
        link: RecordKind::Invoice.link(id.as_str()),
        url: RecordKind::Invoice.url(base_url, id.as_str()),
        id: id.into_string(),
        number,
    }
}

/// One page of the agency's quotes, newest first.
pub async fn quote_list(
    state: &AppState,
    p: &Principal,
    filter: service::ListInput,
    paging: PageQuery,
) -> AppResult<Page<QuoteListEntry>> {
    p.agency()?;
    let paging = Paging::from_query(&paging)?;
    let filter = service::check_filter(filter)?;
    let (total, items) =
        service::list(&state.store, p, filter, paging.limit, paging.offset()).await?;
    let base_url = &state.base_url;
    let today = paris_today(state);
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: items
            .into_iter()
            .map(|item| {
                let service::QuoteListItem { row, totals } = item;
                let quote = row.quote;
                QuoteListEntry {
                    expired: service::is_expired_on(&quote, today),
                    valid_until: quote.valid_until,
                    number: quote.number,
                    status_label: quote.status.label().to_owned(),
                    status: quote.status.as_str().to_owned(),
                    origin_label: quote.origin.label().to_owned(),
                    origin: quote.origin.as_str().to_owned(),
                    object: quote.object,
                    equipment: QuoteEquipment {
                        link: RecordKind::Equipment.link(quote.equipment_id.as_str()),
                        url: RecordKind::Equipment.url(base_url, quote.equipment_id.as_str()),
                        id: quote.equipment_id.into_string(),
                        number: quote.equipment_number,
                    },
                    total_excl_tax: totals.excl_tax.euros(),
                    total_incl_tax: totals.incl_tax.euros(),
                    created_at: quote.created_at,
                    invoice: row
                        .invoice_id
                        .map(|id| invoice_ref(base_url, id, row.invoice_number)),
                    link: RecordKind::Quote.link(quote.id.as_str()),
                    url: RecordKind::Quote.url(base_url, quote.id.as_str()),
                    id: quote.id.into_string(),
                }
            })
            .collect(),
    })
}

/// The invoice made from the quote `id` (the quote must be the agency's).
pub async fn quote_invoice_read(
    state: &AppState,
    p: &Principal,
    id: &str,
) -> AppResult<Option<QuoteInvoiceRef>> {
    Ok(service::invoice_of(&state.store, p, &QuoteId::new(id))
        .await?
        .map(|(id, number)| invoice_ref(&state.base_url, id, number)))
}

/// Le client à facturer quand un devis accepté devient sa facture.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuoteInvoiceBody {
    /// Client facturé (`client_id` de l'API partenaire) ; absent : le client
    /// de l'équipement du devis (ou de son immeuble).
    pub client_id: Option<String>,
}

/// Turns an accepted quote into its draft invoice (once); the answer names
/// the invoice.
pub async fn quote_invoice(
    state: &AppState,
    p: &Principal,
    id: &str,
    body: Option<QuoteInvoiceBody>,
) -> AppResult<Created> {
    let client = body.and_then(|b| b.client_id);
    let invoice_id =
        crate::services::invoices::invoice_quote(&state.store, p, &QuoteId::new(id), client)
            .await?;
    Ok(Created::new(
        RecordKind::Invoice,
        &state.base_url,
        invoice_id.as_str(),
    ))
}
