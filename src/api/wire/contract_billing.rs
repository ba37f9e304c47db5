//! The JSON of « Facturer les contrats » shared by the REST API v2
//! (`/api/v2/contract-billing/*`), the MCP tools and the web application:
//! the window, the preview with its entries and their amounts and
//! formulas, what the drafts' creation and an issue batch answer. The rules
//! are `services::contract_billing` and `domain::contract`.

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::wire::{PageQuery, Paging, RecordKind};
use crate::domain::contract::Segment;
use crate::domain::day;
use crate::domain::invoice::line_total_excl;
use crate::domain::money::{Cents, milli_to_quantity};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::contract_billing::{
    self as service, BillingEntry, Drafted, Issued, Summary, WindowInput,
};
use crate::state::AppState;

/// État d'une période dans une facturation : `a_creer`, `deja_facture`,
/// `indice_manquant`, `terme_non_echu`, `client_archive`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum BillingStateCode {
    a_creer,
    deja_facture,
    indice_manquant,
    terme_non_echu,
    client_archive,
}

/// Les jours à facturer : chaque période d'un contrat facturée à partir
/// d'un de ces jours (son premier jour, ou le début du contrat) en fait
/// partie.
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BillingWindowBody {
    /// Premier jour (AAAA-MM-JJ).
    #[schema(format = Date)]
    pub from: String,
    /// Dernier jour (AAAA-MM-JJ), au plus 366 jours après le premier.
    #[schema(format = Date)]
    pub to: String,
}

/// Un lot d'émissions.
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IssueBatchBody {
    /// Premier jour de la facturation (AAAA-MM-JJ).
    #[schema(format = Date)]
    pub from: String,
    /// Dernier jour de la facturation (AAAA-MM-JJ).
    #[schema(format = Date)]
    pub to: String,
    /// Brouillons émis par ce lot, de 1 à 200 (50 par défaut).
    #[schema(minimum = 1, maximum = 200)]
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<u32>,
    /// Où reprendre : le `next` du lot précédent de la même facturation
    /// (`CT-2027-00012/2027-01-01`) ; absent : depuis le premier brouillon.
    /// Les lots qui se suivent ainsi voient chaque brouillon une fois : les
    /// refusés ne retiennent pas ceux d'après.
    #[schema(max_length = 100)]
    #[schemars(length(max = 100))]
    pub after: Option<String>,
}

/// Les comptes d'une facturation, sur toutes ses lignes.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct BillingSummary {
    /// Contrats ayant au moins une période dans la facturation.
    pub contracts: usize,
    /// Périodes (une ligne chacune).
    pub entries: usize,
    pub to_create: usize,
    pub already_invoiced: usize,
    /// Parmi les périodes déjà facturées, les brouillons restant à émettre.
    pub drafts: usize,
    pub missing_index: usize,
    pub not_yet_due: usize,
    pub client_archived: usize,
    /// Total HT des factures à créer, en euros.
    pub total_excl_tax: f64,
    /// Total TTC des factures à créer, en euros.
    pub total_incl_tax: f64,
}

impl From<&Summary> for BillingSummary {
    fn from(s: &Summary) -> Self {
        BillingSummary {
            contracts: s.contracts,
            entries: s.entries,
            to_create: s.to_create,
            already_invoiced: s.already_invoiced,
            drafts: s.drafts,
            missing_index: s.missing_index,
            not_yet_due: s.not_yet_due,
            client_archived: s.client_archived,
            total_excl_tax: s.total_excl.euros(),
            total_incl_tax: s.total_incl.euros(),
        }
    }
}

/// La révision d'un prix : P = P0 × (I / I0).
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct RevisionView {
    /// L'anniversaire du contrat où le prix est révisé.
    #[schema(format = Date)]
    pub anniversary: String,
    pub index: String,
    /// Le mois de la valeur I (la dernière connue à l'anniversaire), AAAA-MM.
    pub month: String,
    /// I.
    pub value: f64,
    /// I0.
    pub base_value: f64,
    /// P0 : le prix annuel HT du contrat, en euros.
    pub base_price: f64,
    /// P : le prix annuel HT révisé, en euros (au centime).
    pub price: f64,
    /// La formule telle qu'imprimée sur la facture.
    pub formula: String,
}

/// Une part d'une période à un même prix.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SegmentView {
    #[schema(format = Date)]
    pub from: String,
    #[schema(format = Date)]
    pub to: String,
    pub days: i64,
    /// Jours de la période entière.
    pub period_days: i64,
    /// Le prix annuel HT en vigueur (d'un appareil ou du tout), en euros.
    pub annual_price: f64,
    /// Montant HT de la part pour un appareil (ou le tout) : prix annuel ×
    /// mois de la période / 12 × jours / jours de la période, au centime.
    pub amount: f64,
    /// Vrai pour une première ou une dernière période incomplète.
    pub prorated: bool,
    #[schema(required = true)]
    pub revision: Option<RevisionView>,
}

/// Une ligne de la facture à créer.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct BillingLineView {
    pub label: String,
    pub quantity: f64,
    pub unit_price: f64,
    pub vat_rate: f64,
    pub total_excl_tax: f64,
}

/// Une référence à un contrat ou une facture.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct BillingRef {
    pub id: String,
    #[schema(required = true)]
    pub number: Option<String>,
    pub link: String,
    pub url: String,
}

/// La facture qui facture déjà la période.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct BilledInvoiceView {
    pub id: String,
    /// Null pour un brouillon.
    #[schema(required = true)]
    pub number: Option<String>,
    pub status: String,
    pub link: String,
    pub url: String,
}

/// Une période d'un contrat dans une facturation.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct BillingEntryView {
    pub contract: BillingRef,
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub contract_type: String,
    pub type_label: String,
    pub client: BillingRef,
    pub client_name: String,
    #[schema(format = Date)]
    pub period_start: String,
    #[schema(format = Date)]
    pub period_end: String,
    /// Le jour d'où la période est facturée (son premier jour, ou le début
    /// du contrat).
    #[schema(format = Date)]
    pub billed_from: String,
    /// Appareils facturés (1 pour un prix global).
    pub units: i64,
    pub per_lift: bool,
    #[schema(value_type = BillingStateCode)]
    #[ts(type = "BillingState")]
    pub state: String,
    pub state_label: String,
    /// Pourquoi la période n'est pas facturée (indice manquant, terme non
    /// échu, client archivé).
    #[schema(required = true)]
    pub reason: Option<String>,
    /// Les parts de la période à un même prix (deux quand un anniversaire
    /// révise le prix en son milieu) ; vide quand un indice manque.
    pub segments: Vec<SegmentView>,
    pub lines: Vec<BillingLineView>,
    pub total_excl_tax: f64,
    pub total_incl_tax: f64,
    #[schema(required = true)]
    pub invoice: Option<BilledInvoiceView>,
}

/// L'aperçu d'une facturation : ses comptes et une page de ses lignes.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct BillingPreview {
    #[schema(format = Date)]
    pub from: String,
    #[schema(format = Date)]
    pub to: String,
    /// Le jour de l'aperçu (Paris) : une période à terme échu n'est à
    /// facturer qu'une fois finie.
    #[schema(format = Date)]
    pub today: String,
    pub summary: BillingSummary,
    /// Lignes répondant au filtre `state`.
    pub total: usize,
    pub page: u32,
    pub limit: u32,
    pub results: Vec<BillingEntryView>,
}

/// Ce que la création des brouillons a fait.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftsView {
    /// Factures créées (en brouillon) : les lignes `a_creer` de l'aperçu ;
    /// 0 quand tout est déjà facturé.
    pub created: usize,
    /// Les comptes de la facturation avant la création.
    pub summary: BillingSummary,
}

/// Une facture émise par le lot.
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct IssuedView {
    pub id: String,
    pub number: String,
    pub link: String,
    pub url: String,
}

/// Un brouillon que le lot n'a pas pu émettre.
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct RefusedView {
    pub id: String,
    /// La raison, en français.
    pub error: String,
    pub link: String,
    pub url: String,
}

/// Ce qu'un lot d'émissions a fait.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct IssueBatchView {
    pub issued: Vec<IssuedView>,
    pub refused: Vec<RefusedView>,
    /// Brouillons de la facturation restant à émettre (les refusés compris).
    pub remaining: i64,
    /// Où le lot suivant reprend (à renvoyer dans `after`) ; null quand
    /// tous les brouillons de la facturation ont été vus.
    pub next: Option<String>,
}

fn segment_view(segment: &Segment, period_days: i64) -> SegmentView {
    SegmentView {
        from: day::iso(segment.from),
        to: day::iso(segment.to),
        days: segment.days(),
        period_days,
        annual_price: segment.annual.euros(),
        amount: segment.amount.euros(),
        prorated: segment.prorated,
        revision: segment.revision.as_ref().map(|r| RevisionView {
            anniversary: day::iso(r.anniversary),
            index: r.index.clone(),
            month: crate::domain::contract::month_text(r.month),
            value: r.value.number(),
            base_value: r.base.number(),
            base_price: r.base_price.euros(),
            price: r.price.euros(),
            formula: r.formula(),
        }),
    }
}

fn entry_view(entry: &BillingEntry, base_url: &str) -> BillingEntryView {
    let period_days = entry.period.days();
    BillingEntryView {
        contract: BillingRef {
            id: entry.contract_id.to_string(),
            number: Some(entry.number.clone()),
            link: RecordKind::Contract.link(entry.contract_id.as_str()),
            url: RecordKind::Contract.url(base_url, entry.contract_id.as_str()),
        },
        contract_type: entry.contract_type.as_str().to_owned(),
        type_label: entry.contract_type.label().to_owned(),
        client: BillingRef {
            id: entry.client_ref.clone(),
            number: None,
            link: RecordKind::Client.link(&entry.client_ref),
            url: RecordKind::Client.url(base_url, &entry.client_ref),
        },
        client_name: entry.client_name.clone(),
        period_start: day::iso(entry.period.start),
        period_end: day::iso(entry.period.end),
        billed_from: day::iso(entry.billed_from),
        units: entry.units,
        per_lift: entry.per_lift,
        state: entry.state.as_str().to_owned(),
        state_label: entry.state.label().to_owned(),
        reason: entry.reason.clone(),
        segments: entry
            .charge
            .as_ref()
            .map(|c| {
                c.segments
                    .iter()
                    .map(|s| segment_view(s, period_days))
                    .collect()
            })
            .unwrap_or_default(),
        lines: entry
            .lines
            .iter()
            .map(|l| BillingLineView {
                label: l.label.clone(),
                quantity: milli_to_quantity(l.quantity_milli),
                unit_price: Cents::new(l.unit_price_cents).euros(),
                vat_rate: super::invoices::rate_percent(l.vat_rate_bp),
                total_excl_tax: line_total_excl(l.quantity_milli, Cents::new(l.unit_price_cents))
                    .euros(),
            })
            .collect(),
        total_excl_tax: entry.totals.excl_tax.euros(),
        total_incl_tax: entry.totals.incl_tax.euros(),
        invoice: entry.invoice.as_ref().map(|i| BilledInvoiceView {
            id: i.id.to_string(),
            number: i.number.clone(),
            status: i.status.as_str().to_owned(),
            link: RecordKind::Invoice.link(i.id.as_str()),
            url: RecordKind::Invoice.url(base_url, i.id.as_str()),
        }),
    }
}

/// The preview's filters as received.
#[derive(Debug, Default)]
pub struct PreviewQuery {
    pub from: String,
    pub to: String,
    pub state: Option<String>,
    pub paging: PageQuery,
}

/// The preview of a run: its summary and one page of its entries.
pub async fn billing_preview(
    state: &AppState,
    p: &Principal,
    query: PreviewQuery,
) -> AppResult<BillingPreview> {
    p.agency()?;
    let paging = Paging::from_query(&query.paging)?;
    let filter = service::check_state(query.state.as_deref())?;
    let plan = service::preview(
        &state.store,
        p,
        WindowInput {
            from: query.from,
            to: query.to,
        },
    )
    .await?;
    let matching: Vec<&BillingEntry> = plan
        .entries
        .iter()
        .filter(|e| filter.is_none_or(|f| e.state == f))
        .collect();
    let offset = usize::try_from(paging.offset()).unwrap_or(usize::MAX);
    Ok(BillingPreview {
        from: day::iso(plan.window.from),
        to: day::iso(plan.window.to),
        today: day::iso(plan.today),
        summary: BillingSummary::from(&plan.summary),
        total: matching.len(),
        page: paging.page,
        limit: paging.limit,
        results: matching
            .into_iter()
            .skip(offset)
            .take(paging.limit as usize)
            .map(|e| entry_view(e, &state.base_url))
            .collect(),
    })
}

/// The drafts of a run, created in one transaction.
pub async fn billing_drafts(
    state: &AppState,
    p: &Principal,
    body: BillingWindowBody,
) -> AppResult<DraftsView> {
    let Drafted { created, summary } = service::create_drafts(
        &state.store,
        p,
        WindowInput {
            from: body.from,
            to: body.to,
        },
    )
    .await?;
    Ok(DraftsView {
        created,
        summary: BillingSummary::from(&summary),
    })
}

/// One batch of issues.
pub async fn billing_issue(
    state: &AppState,
    p: &Principal,
    body: IssueBatchBody,
) -> AppResult<IssueBatchView> {
    let Issued {
        issued,
        refused,
        remaining,
        next,
    } = service::issue_batch(
        &state.store,
        p,
        WindowInput {
            from: body.from,
            to: body.to,
        },
        body.limit,
        body.after,
    )
    .await?;
    let base_url = &state.base_url;
    Ok(IssueBatchView {
        issued: issued
            .into_iter()
            .map(|(id, number)| IssuedView {
                link: RecordKind::Invoice.link(id.as_str()),
                url: RecordKind::Invoice.url(base_url, id.as_str()),
                id: id.into_string(),
                number,
            })
            .collect(),
        refused: refused
            .into_iter()
            .map(|(id, error)| RefusedView {
                link: RecordKind::Invoice.link(id.as_str()),
                url: RecordKind::Invoice.url(base_url, id.as_str()),
                id: id.into_string(),
                error,
            })
            .collect(),
        remaining,
        next,
    })
}
