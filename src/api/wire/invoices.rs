//! The JSON of invoices and credit notes shared by the REST API v2
//! (`/api/v2/invoices`), the MCP tools and the web application: the bodies
//! they accept, the records they answer with, and each operation of
//! `services::invoices` called for a `Principal` and mapped to that JSON.
//! No rule lives here: the checks are the operations'.

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::wire::{Created, Page, PageQuery, Paging, RecordKind};
use crate::domain::einvoice;
use crate::domain::id::InvoiceId;
use crate::domain::invoice::{VatSubtotal, line_total_excl};
use crate::domain::money::{Cents, milli_to_quantity};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::documents::{self as documents, PdfFile, XmlFile};
use crate::services::invoices::{
    self as service, InvoiceDetail, LineInput, ListInput, NewInvoiceInput, PaymentInput,
};
use crate::state::AppState;
use crate::store::invoices::InvoiceRow;
use crate::store::payments::PaymentRow;

/// Who acts: the token (audit), its account, and whether it is an administrator.
/// A VAT rate in basis points as the percentage sent on the wire (5.5).
pub(crate) fn rate_percent(rate_bp: u32) -> f64 {
    f64::from(rate_bp) / 100.0
}

// Its JSON Schema for the MCP tools (schemars) leaves out `multipleOf`: a
// client validating 120.5 against 0.01 in floating point could refuse it;
// the server checks the decimals and names the line.
/// Une ligne de devis ou de facture, telle qu'envoyée.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LineBody {
    /// Libellé (obligatoire, non vide, 300 caractères au plus).
    #[schema(required = true, value_type = String, min_length = 1, max_length = 300, pattern = "\\S")]
    #[schemars(required, with = "String", length(min = 1, max = 300))]
    pub label: Option<String>,
    /// Quantité, supérieure à zéro, trois décimales au plus, 100 000 au plus.
    #[schema(required = true, value_type = f64, exclusive_minimum = 0, maximum = 100000, multiple_of = 0.001)]
    #[schemars(required, with = "f64", extend("exclusiveMinimum" = 0, "maximum" = 100000))]
    pub quantity: Option<f64>,
    /// Prix unitaire HT en euros, positif ou nul, deux décimales au plus, 1 000 000 au plus.
    #[schema(required = true, value_type = f64, minimum = 0, maximum = 1000000, multiple_of = 0.01)]
    #[schemars(required, with = "f64", range(min = 0, max = 1000000))]
    pub unit_price: Option<f64>,
    /// Taux de TVA en pour cent : 20 (par défaut), 10, 5.5, 2.1 ou 0.
    #[schema(schema_with = vat_rate_schema)]
    #[schemars(extend("enum" = [20, 10, 5.5, 2.1, 0, null]))]
    pub vat_rate: Option<f64>,
    /// Motif d'exonération d'une ligne à 0 % (exigé pour émettre la pièce) :
    /// `autoliquidation` (article 283-2 nonies du CGI, la TVA est due par le
    /// preneur) ou `franchise` (TVA non applicable, article 293 B du CGI).
    /// Seulement avec `vatRate` 0.
    #[schema(schema_with = vat_exemption_schema)]
    #[schemars(extend("enum" = ["autoliquidation", "franchise", null]))]
    pub vat_exemption: Option<String>,
}

/// `vatExemption`: one of the exemption codes, or null.
fn vat_exemption_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let mut values: Vec<serde_json::Value> = crate::domain::einvoice::VatExemption::CODES
        .iter()
        .map(|code| serde_json::json!(code))
        .collect();
    values.push(serde_json::Value::Null);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(values))
        .description(Some(
            "Motif d'exonération d'une ligne à 0 % : `autoliquidation` (article 283-2 nonies du CGI) ou `franchise` (article 293 B du CGI). Exigé pour émettre une pièce qui a une ligne à 0 %.",
        ))
        .build()
}

/// `vatRate`: one of the allowed rates, or null (the default, 20).
fn vat_rate_schema() -> utoipa::openapi::schema::Object {
    rate_schema(
        &[20.0, 10.0, 5.5, 2.1, 0.0],
        "Taux de TVA en pour cent : 20 (par défaut), 10, 5.5, 2.1 ou 0.",
    )
}

/// A VAT rate in per cent among `rates`, or null, with its description.
pub(crate) fn rate_schema(rates: &[f64], description: &str) -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let mut values: Vec<serde_json::Value> = rates
        .iter()
        .map(|rate| {
            if rate.fract() == 0.0 {
                serde_json::json!(*rate as i64)
            } else {
                serde_json::json!(rate)
            }
        })
        .collect();
    values.push(serde_json::Value::Null);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Number, Type::Null]))
        .enum_values(Some(values))
        .description(Some(description))
        .build()
}

impl From<LineBody> for LineInput {
    fn from(body: LineBody) -> Self {
        LineInput {
            label: body.label,
            quantity: body.quantity,
            unit_price: body.unit_price,
            vat_rate: body.vat_rate,
            vat_exemption: body.vat_exemption,
        }
    }
}

/// TVA d'un taux : base HT et montant de TVA, en euros.
#[derive(Serialize, ToSchema, TS)]
pub struct VatView {
    /// Taux, en pour cent.
    pub rate: f64,
    /// Base HT des lignes à ce taux.
    pub base: f64,
    /// TVA à ce taux (calculée une fois sur la base, arrondie au centime).
    pub vat: f64,
}

impl From<&VatSubtotal> for VatView {
    fn from(v: &VatSubtotal) -> Self {
        VatView {
            rate: rate_percent(v.rate_bp),
            base: v.base.euros(),
            vat: v.vat.euros(),
        }
    }
}

/// Nature d'une pièce : `facture` ou `avoir`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum InvoiceNatureCode {
    facture,
    avoir,
}

/// Statut d'une facture ou d'un avoir : `brouillon`, `emise`, `envoyee`, `payee`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum InvoiceStatusCode {
    brouillon,
    emise,
    envoyee,
    payee,
}

/// Une ligne de la liste des factures (exactement les champs de la spécification).
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceRowView {
    pub id: String,
    /// Numéro (`FA-2026-000042`, `AV-2026-000007`, ou dans la série de l'agence `FA-PO-2026-000042`) ; null tant que la pièce est un brouillon.
    #[schema(required = true)]
    pub number: Option<String>,
    /// `facture` ou `avoir`.
    #[schema(value_type = InvoiceNatureCode)]
    #[ts(type = "InvoiceNature")]
    pub nature: String,
    /// Statut.
    #[schema(value_type = InvoiceStatusCode)]
    #[ts(type = "InvoiceStatus")]
    pub status: String,
    /// Client facturé : son identifiant `client_id` (API partenaire).
    #[schema(required = true)]
    pub client: Option<String>,
    /// Nom de l'acheteur tel qu'il figure sur la facture.
    #[schema(required = true)]
    pub buyer: Option<String>,
    /// Date d'émission (AAAA-MM-JJ).
    #[schema(required = true, format = Date)]
    pub issued_on: Option<String>,
    /// Date d'échéance (AAAA-MM-JJ).
    #[schema(required = true, format = Date)]
    pub due_on: Option<String>,
    /// Date de règlement (AAAA-MM-JJ).
    #[schema(required = true, format = Date)]
    pub paid_on: Option<String>,
    /// Total HT, en euros.
    #[schema(required = true)]
    pub total_excl_tax: Option<f64>,
    /// Total TTC, en euros.
    #[schema(required = true)]
    pub total_incl_tax: Option<f64>,
    pub link: String,
    pub url: String,
}

fn row_view(row: InvoiceRow, base_url: &str) -> InvoiceRowView {
    InvoiceRowView {
        link: RecordKind::Invoice.link(row.id.as_str()),
        url: RecordKind::Invoice.url(base_url, row.id.as_str()),
        id: row.id.into_string(),
        number: row.number,
        nature: row.nature.as_str().to_owned(),
        status: row.status.as_str().to_owned(),
        client: row.client_ref,
        buyer: row.buyer_name,
        issued_on: row.issued_on,
        due_on: row.due_on,
        paid_on: row.paid_on,
        total_excl_tax: Some(Cents::new(row.total_excl_cents).euros()),
        total_incl_tax: Some(Cents::new(row.total_incl_cents).euros()),
    }
}

/// One page of the agency's invoices: shared by `GET /invoices` and the MCP
/// tool `factures` (which may ask for several statuses at once).
pub async fn invoice_list(
    state: &AppState,
    p: &Principal,
    filter: ListInput,
    paging: PageQuery,
) -> AppResult<Page<InvoiceRowView>> {
    p.agency()?;
    let paging = Paging::from_query(&paging)?;
    let filter = service::check_filter(filter)?;
    let page = service::list(&state.store, p, filter, paging.limit, paging.offset()).await?;
    Ok(Page {
        total: page.0,
        page: paging.page,
        limit: paging.limit,
        results: page
            .1
            .iter()
            .map(|r| row_view(r.clone(), &state.base_url))
            .collect(),
    })
}

/// Une ligne de facture ou d'avoir.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceLineView {
    pub label: String,
    /// Quantité (jusqu'à trois décimales).
    pub quantity: f64,
    /// Prix unitaire HT, en euros.
    pub unit_price: f64,
    /// Taux de TVA, en pour cent.
    pub vat_rate: f64,
    /// Motif d'exonération d'une ligne à 0 % (`autoliquidation`,
    /// `franchise`) ; absent sinon ou s'il n'est pas encore donné.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "VatExemption")]
    #[schema(value_type = Option<String>)]
    pub vat_exemption: Option<String>,
    /// Total HT de la ligne, en euros.
    pub total_excl_tax: f64,
}

/// Une pièce liée : identifiant et numéro.
#[derive(Serialize, ToSchema, TS)]
pub struct LinkedDocument {
    pub id: String,
    /// Numéro ; null pour un brouillon.
    #[schema(required = true)]
    pub number: Option<String>,
    pub link: String,
    pub url: String,
}

/// Un avoir établi sur une facture.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreditNoteRef {
    pub id: String,
    /// Numéro (`AV-…`) ; null pour un brouillon.
    #[schema(required = true)]
    pub number: Option<String>,
    #[schema(value_type = InvoiceStatusCode)]
    #[ts(type = "InvoiceStatus")]
    pub status: String,
    /// Total TTC de l'avoir, en euros.
    pub total_incl_tax: f64,
    pub link: String,
    pub url: String,
}

/// Une facture ou un avoir, tel que `GET /invoices/{id}` le lit : les champs
/// de la ligne de liste, puis le détail.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    pub id: String,
    /// Numéro ; null tant que la pièce est un brouillon.
    #[schema(required = true)]
    pub number: Option<String>,
    #[schema(value_type = InvoiceNatureCode)]
    #[ts(type = "InvoiceNature")]
    pub nature: String,
    /// Nature en toutes lettres.
    pub nature_label: String,
    #[schema(value_type = InvoiceStatusCode)]
    #[ts(type = "InvoiceStatus")]
    pub status: String,
    /// Statut en toutes lettres, accordé à la nature (« Émise », « Émis »…).
    pub status_label: String,
    /// Client facturé : son identifiant `client_id` (API partenaire).
    #[schema(required = true)]
    pub client: Option<String>,
    /// Nom de l'acheteur tel qu'il figure sur la pièce (figé à l'émission).
    #[schema(required = true)]
    pub buyer: Option<String>,
    /// Adresse de l'acheteur (figée à l'émission).
    #[schema(required = true)]
    pub buyer_address: Option<String>,
    /// SIREN de l'acheteur (figé à l'émission).
    #[schema(required = true)]
    pub buyer_siren: Option<String>,
    /// N° de TVA intracommunautaire de l'acheteur (figé à l'émission).
    pub buyer_vat_number: Option<String>,
    /// Adresse de facturation électronique de l'acheteur que porte la
    /// facture électronique (figée à l'émission ; null pour un brouillon).
    pub buyer_electronic_address: Option<String>,
    /// Traitement de la pièce dans la réforme (figé à l'émission ; null pour
    /// un brouillon) : `facturation_electronique` (entreprise assujettie),
    /// `chorus_pro` (organisme public) ou `e_reporting` (client sans SIREN
    /// ou non assujetti) ; et la phrase qui l'explique.
    #[ts(type = "\"facturation_electronique\" | \"chorus_pro\" | \"e_reporting\" | null")]
    pub einvoicing: Option<String>,
    pub einvoicing_explanation: Option<String>,
    /// La pièce a sa facture électronique : émise sous l'identité de
    /// l'agence (avec son SIRET), son PDF est un Factur-X et
    /// `…/facturx.xml` répond. Faux pour un brouillon et pour une pièce
    /// émise avant que l'agence ait renseigné son identité.
    pub facturx: bool,
    /// Jour de création (AAAA-MM-JJ), sur lequel filtrent `since` et `until`.
    #[schema(format = Date)]
    pub created_on: String,
    #[schema(required = true, format = Date)]
    pub issued_on: Option<String>,
    #[schema(required = true, format = Date)]
    pub due_on: Option<String>,
    #[schema(required = true, format = Date)]
    pub paid_on: Option<String>,
    /// Lignes, dans leur ordre.
    pub lines: Vec<InvoiceLineView>,
    /// TVA par taux, par taux croissant.
    pub vat_by_rate: Vec<VatView>,
    #[schema(required = true)]
    pub total_excl_tax: Option<f64>,
    #[schema(required = true)]
    pub total_incl_tax: Option<f64>,
    /// Pour un avoir : la facture qu'il crédite ; null pour une facture.
    #[schema(required = true)]
    pub credited_invoice: Option<LinkedDocument>,
    /// Pour une facture : ses avoirs (brouillons compris) ; vide pour un avoir.
    pub credit_notes: Vec<CreditNoteRef>,
    /// Le devis facturé, s'il y en a un.
    #[schema(required = true)]
    pub quote: Option<LinkedDocument>,
    /// Pour une facture : total TTC de ses avoirs émis (0 pour un avoir).
    pub credited_total: f64,
    /// Total des règlements reçus (des remboursements, pour un avoir).
    pub paid_total: f64,
    /// Reste à payer : total TTC − avoirs émis − règlements (pour un avoir,
    /// reste à rembourser) ; négatif pour un trop-perçu ; null pour un brouillon.
    #[schema(required = true)]
    pub balance: Option<f64>,
    /// Règlements reçus, dans l'ordre où ils ont été faits.
    pub payments: Vec<PaymentView>,
    /// Les appareils concernés, avec leur immeuble (imprimés sur la pièce) :
    /// celui du devis facturé, ceux choisis pour une facture écrite
    /// directement, ceux de la facture créditée pour un avoir.
    pub equipment: Vec<InvoiceEquipmentView>,
    pub link: String,
    pub url: String,
}

/// Un appareil concerné par une facture.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceEquipmentView {
    /// Identifiant de l'équipement.
    pub id: String,
    /// Numéro dans le parc.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Identifiant de l'immeuble.
    #[schema(required = true)]
    pub building_id: Option<String>,
    /// Nom de l'immeuble.
    #[schema(required = true)]
    pub building: Option<String>,
    /// Adresse de l'immeuble sur une ligne.
    #[schema(required = true)]
    pub address: Option<String>,
    pub link: String,
    pub url: String,
}

impl InvoiceEquipmentView {
    fn of(row: crate::store::invoices::InvoiceEquipmentRow, base_url: &str) -> Self {
        let address = crate::services::visits::building_address(
            row.street.as_deref(),
            row.postal_code.as_deref(),
            row.city.as_deref(),
        );
        InvoiceEquipmentView {
            link: RecordKind::Equipment.link(row.id.as_str()),
            url: RecordKind::Equipment.url(base_url, row.id.as_str()),
            id: row.id.into_string(),
            number: row.number,
            building_id: row.building_id,
            building: row.building_name,
            address,
        }
    }
}

/// Un règlement reçu (un remboursement, pour un avoir).
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    pub id: String,
    /// Jour du règlement (AAAA-MM-JJ).
    #[schema(format = Date)]
    pub paid_on: String,
    /// Montant, en euros.
    pub amount: f64,
    /// Mode de règlement ; null quand il n'a pas été donné.
    #[schema(required = true, value_type = Option<PaymentMethodCode>)]
    #[ts(type = "PaymentMethod | null")]
    pub method: Option<String>,
    /// Mode en toutes lettres (« Virement », « Chèque »…) ; null sans mode.
    #[schema(required = true)]
    pub method_label: Option<String>,
    /// Référence donnée au règlement.
    #[schema(required = true)]
    pub reference: Option<String>,
}

impl From<PaymentRow> for PaymentView {
    fn from(p: PaymentRow) -> Self {
        PaymentView {
            id: p.id,
            paid_on: p.paid_on,
            amount: Cents::new(p.amount_cents).euros(),
            method: p.method.map(|m| m.as_str().to_owned()),
            method_label: p.method.map(|m| m.label().to_owned()),
            reference: p.reference,
        }
    }
}

fn linked(kind: RecordKind, base_url: &str, id: String, number: Option<String>) -> LinkedDocument {
    LinkedDocument {
        link: kind.link(&id),
        url: kind.url(base_url, &id),
        id,
        number,
    }
}

pub(crate) fn invoice_view(detail: InvoiceDetail, base_url: &str) -> InvoiceView {
    let InvoiceDetail {
        invoice: row,
        lines,
        totals,
        credited_invoice,
        credit_notes,
        quote,
        remaining_to_credit: _,
        credited,
        payments,
        balance,
        equipment,
        einvoicing,
    } = detail;
    let paid_total = Cents::new(payments.iter().map(|p| p.amount_cents).sum());
    let status_label = row.status.label_for(row.nature);
    let treatment = row
        .number
        .is_some()
        .then(|| einvoice::Treatment::of(einvoicing.category, row.buyer_siren.as_deref()));
    InvoiceView {
        link: RecordKind::Invoice.link(row.id.as_str()),
        url: RecordKind::Invoice.url(base_url, row.id.as_str()),
        id: row.id.into_string(),
        number: row.number,
        nature_label: row.nature.label().to_owned(),
        nature: row.nature.as_str().to_owned(),
        status_label: status_label.to_owned(),
        status: row.status.as_str().to_owned(),
        client: row.client_ref,
        buyer: row.buyer_name,
        buyer_address: row.buyer_address,
        einvoicing: treatment.map(|t| t.as_str().to_owned()),
        einvoicing_explanation: treatment.map(|t| t.explanation().to_owned()),
        buyer_siren: row.buyer_siren,
        facturx: treatment.is_some() && einvoicing.under_identity,
        buyer_vat_number: einvoicing.vat_number,
        buyer_electronic_address: einvoicing.electronic_address,
        created_on: row.created_on,
        issued_on: row.issued_on,
        due_on: row.due_on,
        paid_on: row.paid_on,
        lines: lines
            .into_iter()
            .map(|l| InvoiceLineView {
                total_excl_tax: line_total_excl(l.quantity_milli, Cents::new(l.unit_price_cents))
                    .euros(),
                label: l.label,
                quantity: milli_to_quantity(l.quantity_milli),
                unit_price: Cents::new(l.unit_price_cents).euros(),
                vat_rate: rate_percent(l.vat_rate_bp),
                vat_exemption: l.vat_exemption.map(|e| e.as_str().to_owned()),
            })
            .collect(),
        vat_by_rate: totals.vat_by_rate.iter().map(VatView::from).collect(),
        total_excl_tax: Some(Cents::new(row.total_excl_cents).euros()),
        total_incl_tax: Some(Cents::new(row.total_incl_cents).euros()),
        credited_invoice: credited_invoice
            .map(|d| linked(RecordKind::Invoice, base_url, d.id, d.number)),
        credit_notes: credit_notes
            .into_iter()
            .map(|c| CreditNoteRef {
                link: RecordKind::Invoice.link(c.id.as_str()),
                url: RecordKind::Invoice.url(base_url, c.id.as_str()),
                id: c.id.into_string(),
                number: c.number,
                status: c.status.as_str().to_owned(),
                total_incl_tax: Cents::new(c.total_incl_cents).euros(),
            })
            .collect(),
        quote: quote.map(|d| linked(RecordKind::Quote, base_url, d.id, d.number)),
        credited_total: credited.euros(),
        paid_total: paid_total.euros(),
        balance: balance.map(Cents::euros),
        payments: payments.into_iter().map(PaymentView::from).collect(),
        equipment: equipment
            .into_iter()
            .map(|e| InvoiceEquipmentView::of(e, base_url))
            .collect(),
    }
}

/// An invoice or credit note of the agency: `GET /invoices/{id}` and the
/// MCP tool `facture`.
pub async fn invoice_read(
    state: &AppState,
    p: &Principal,
    id: &InvoiceId,
) -> AppResult<InvoiceView> {
    let detail = service::get(&state.store, p, id).await?;
    Ok(invoice_view(detail, &state.base_url))
}

/// The PDF of an invoice or credit note of the caller's agency:
/// `GET /invoices/{id}/pdf` and `GET /app/api/invoices/{id}/pdf`.
pub async fn invoice_pdf_file(
    state: &AppState,
    p: &Principal,
    id: &InvoiceId,
) -> AppResult<PdfFile> {
    Ok(documents::invoice_pdf(&state.store, p, id).await?)
}

/// The structured invoice (Factur-X XML) of an issued invoice or credit
/// note; a draft's: 409.
pub async fn invoice_facturx_file(
    state: &AppState,
    p: &Principal,
    id: &InvoiceId,
) -> AppResult<XmlFile> {
    Ok(documents::invoice_facturx(&state.store, p, id).await?)
}

/// Une nouvelle facture, créée au statut `brouillon` (sans numéro).
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InvoiceBody {
    /// Client facturé : son identifiant `client_id` (API partenaire), dans l'agence.
    #[schema(min_length = 1)]
    #[schemars(length(min = 1))]
    pub client_id: String,
    /// Lignes (mêmes règles que les lignes de devis) ; absentes : celles du devis `quoteId`.
    #[schema(min_items = 1, max_items = 200)]
    #[schemars(length(min = 1, max = 200))]
    pub lines: Option<Vec<LineBody>>,
    /// Un devis accepté de l'agence, que cette facture facture.
    pub quote_id: Option<String>,
    /// Les appareils concernés (identifiants d'équipements de l'agence),
    /// imprimés sur la facture ; l'appareil du devis `quoteId` s'y ajoute.
    #[schema(max_items = 50)]
    #[schemars(length(max = 50))]
    #[serde(default)]
    pub equipment_ids: Vec<String>,
}

/// A draft invoice: `POST /invoices` and the MCP tool `creer_facture`.
pub async fn invoice_create(
    state: &AppState,
    p: &Principal,
    body: InvoiceBody,
) -> AppResult<Created> {
    let input = NewInvoiceInput {
        client_id: body.client_id,
        lines: body
            .lines
            .map(|lines| lines.into_iter().map(Into::into).collect()),
        quote_id: body.quote_id,
        equipment_ids: body.equipment_ids,
    };
    let id = service::create_draft(&state.store, p, input).await?;
    Ok(created(state, &id))
}

fn created(state: &AppState, id: &InvoiceId) -> Created {
    Created::new(RecordKind::Invoice, &state.base_url, id.as_str())
}

/// `brouillon` → `emise`: `POST /invoices/{id}/issue` and the MCP tool
/// `emettre_facture`.
pub async fn invoice_issue(state: &AppState, p: &Principal, id: &InvoiceId) -> AppResult<Created> {
    service::issue(&state.store, p, id).await?;
    Ok(created(state, id))
}

/// Un règlement d'une facture (un remboursement, pour un avoir), complet ou
/// partiel. Tous les champs sont facultatifs.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PaymentBody {
    /// Jour du règlement (AAAA-MM-JJ) ; aujourd'hui par défaut. Ni avant
    /// l'émission, ni dans le futur.
    #[schema(format = Date)]
    #[schemars(extend("format" = "date"))]
    pub paid_on: Option<String>,
    /// Montant réglé en euros (deux décimales au plus), au plus le reste à
    /// payer ; absent : tout le reste à payer.
    #[schema(exclusive_minimum = 0, multiple_of = 0.01)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub amount: Option<f64>,
    /// Mode de règlement : `virement`, `cheque`, `prelevement`, `especes` ou `carte`.
    #[schema(value_type = Option<PaymentMethodCode>)]
    #[schemars(extend("enum" = ["virement", "cheque", "prelevement", "especes", "carte", null]))]
    pub method: Option<String>,
    /// Référence (numéro de chèque, libellé du virement), 100 caractères au plus.
    #[schema(max_length = 100)]
    #[schemars(length(max = 100))]
    pub reference: Option<String>,
}

/// Mode de règlement : `virement`, `cheque` (chèque), `prelevement`
/// (prélèvement), `especes` (espèces), `carte` (carte bancaire).
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum PaymentMethodCode {
    virement,
    cheque,
    prelevement,
    especes,
    carte,
}

/// A payment, partial or whole: `POST /invoices/{id}/payment` and the MCP
/// tool `enregistrer_reglement`.
pub async fn invoice_payment(
    state: &AppState,
    p: &Principal,
    id: &InvoiceId,
    body: Option<PaymentBody>,
) -> AppResult<Created> {
    let input = body
        .map(|b| PaymentInput {
            paid_on: b.paid_on,
            amount: b.amount,
            method: b.method,
            reference: b.reference,
        })
        .unwrap_or_default();
    service::record_payment(&state.store, p, id, input).await?;
    Ok(created(state, id))
}

/// Un avoir sur une facture émise.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreditNoteBody {
    /// Lignes à créditer (avoir partiel), mêmes règles que les lignes de
    /// facture, à des taux de TVA présents sur la facture ; absentes : tout
    /// ce qui reste à créditer.
    #[schema(min_items = 1, max_items = 200)]
    pub lines: Option<Vec<LineBody>>,
}

/// A credit note on an issued invoice, administrators only:
/// `POST /invoices/{id}/credit-notes` and the MCP tool `creer_avoir`. The
/// answer names the credit note.
pub async fn credit_note_create(
    state: &AppState,
    p: &Principal,
    id: &InvoiceId,
    body: Option<CreditNoteBody>,
) -> AppResult<Created> {
    let lines = body
        .and_then(|b| b.lines)
        .map(|lines| lines.into_iter().map(Into::into).collect());
    let credit_note_id = service::create_credit_note(&state.store, p, id, lines).await?;
    Ok(created(state, &credit_note_id))
}

/// Les changements d'un brouillon de facture : seuls les champs donnés
/// changent, et il en faut au moins un.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(min_properties = 1)]
pub struct InvoiceDraftBody {
    /// Client facturé (`client_id` de l'API partenaire) : l'acheteur le suit.
    pub client_id: Option<String>,
    /// Toutes les lignes, qui remplacent celles du brouillon.
    #[schema(min_items = 1, max_items = 200)]
    pub lines: Option<Vec<LineBody>>,
    /// Tous les appareils concernés, qui remplacent ceux du brouillon
    /// (liste vide : aucun).
    #[schema(max_items = 50)]
    pub equipment_ids: Option<Vec<String>>,
}

/// Edits a draft invoice (PATCH semantics); an issued document is frozen
/// (409): `PATCH /invoices/{id}` and the web application.
pub async fn invoice_update(
    state: &AppState,
    p: &Principal,
    id: &InvoiceId,
    body: InvoiceDraftBody,
) -> AppResult<Created> {
    let change = service::DraftChange {
        client_id: body.client_id,
        lines: body
            .lines
            .map(|lines| lines.into_iter().map(Into::into).collect()),
        equipment_ids: body.equipment_ids,
    };
    service::update_draft(&state.store, p, id, change).await?;
    Ok(created(state, id))
}

#[cfg(test)]
mod tests {
    //! The line bounds the OpenAPI description and the MCP tools publish are
    //! attribute literals; they must be the domain's (`domain::lines`).

    use serde_json::{Value, json};

    use super::*;
    use crate::domain::lines::{
        MAX_LABEL_CHARS, MAX_LINES, MAX_QUANTITY_MILLI, MAX_UNIT_PRICE_CENTS, VAT_RATES_BP,
    };

    fn check_line_schema(line: &Value) {
        assert_eq!(line["label"]["maxLength"], json!(MAX_LABEL_CHARS));
        assert_eq!(
            line["quantity"]["maximum"].as_f64(),
            Some(MAX_QUANTITY_MILLI as f64 / 1000.0)
        );
        assert_eq!(
            line["unitPrice"]["maximum"].as_f64(),
            Some(Cents::new(MAX_UNIT_PRICE_CENTS).euros())
        );
        let rates: Vec<f64> = line["vatRate"]["enum"]
            .as_array()
            .expect("vatRate enum")
            .iter()
            .filter_map(Value::as_f64)
            .collect();
        let expected: Vec<f64> = VAT_RATES_BP.iter().map(|&bp| rate_percent(bp)).collect();
        assert_eq!(rates, expected);
    }

    /// Every array of lines, wherever it sits, with its `maxItems`.
    fn line_arrays(value: &Value, found: &mut Vec<Value>) {
        match value {
            Value::Object(map) => {
                let items_ref = map
                    .get("items")
                    .and_then(|items| items.get("$ref"))
                    .and_then(Value::as_str);
                if items_ref.is_some_and(|r| r.ends_with("/LineBody")) {
                    found.push(map.get("maxItems").cloned().unwrap_or(Value::Null));
                }
                map.values().for_each(|v| line_arrays(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| line_arrays(v, found)),
            _ => {}
        }
    }

    #[test]
    fn the_published_line_bounds_are_the_domain_rules() {
        let doc = serde_json::to_value(crate::api::v2::openapi_description()).expect("json");
        let schemas = &doc["components"]["schemas"];
        check_line_schema(&schemas["LineBody"]["properties"]);
        let mut arrays = Vec::new();
        line_arrays(schemas, &mut arrays);
        assert_eq!(
            arrays.len(),
            4,
            "quote, invoice, draft and credit-note lines"
        );
        assert!(
            arrays.iter().all(|max| *max == json!(MAX_LINES)),
            "{arrays:?}"
        );

        let mcp = serde_json::to_value(schemars::schema_for!(LineBody)).expect("json");
        assert_eq!(
            mcp["properties"]["label"]["maxLength"],
            json!(MAX_LABEL_CHARS)
        );
        assert_eq!(
            mcp["properties"]["unitPrice"]["maximum"].as_f64(),
            Some(Cents::new(MAX_UNIT_PRICE_CENTS).euros())
        );
        let invoice = serde_json::to_value(schemars::schema_for!(InvoiceBody)).expect("json");
        assert_eq!(invoice["properties"]["lines"]["maxItems"], json!(MAX_LINES));
    }
}
