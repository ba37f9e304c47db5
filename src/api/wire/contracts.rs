//! The JSON of maintenance contracts and price indexes shared by the REST
//! API v2 (`/api/v2/contracts`, `/api/v2/price-indexes`), the MCP tools and
//! the web application: the bodies they accept, the records they answer
//! with, and each operation of `services::contracts` called for a
//! `Principal` and mapped to that JSON. No rule lives here.

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::wire::{Created, Page, PageQuery, Paging, RecordKind};
use crate::domain::contract::{self, ContractAction, IndexValue};
use crate::domain::day;
use crate::domain::id::ContractId;
use crate::domain::money::Cents;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::contracts::{
    self as service, ContractDates, ContractDetail, ContractInput, IndexValueInput,
    TerminationInput,
};
use crate::services::documents::PdfFile;
use crate::state::AppState;
use crate::store::contracts::{ContractRow, IndexValueRow};

/// Statut d'un contrat : `brouillon`, `actif`, `resilie`, `echu`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum ContractStatusCode {
    brouillon,
    actif,
    resilie,
    echu,
}

/// Type d'un contrat : `minimal`, `normal`, `etendu`, `complet`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum ContractTypeCode {
    minimal,
    normal,
    etendu,
    complet,
}

/// Base du prix annuel : `par_appareil` ou `global`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum PriceBasisCode {
    par_appareil,
    global,
}

/// Fréquence de facturation : `mensuelle`, `trimestrielle`, `semestrielle`,
/// `annuelle`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum BillingFrequencyCode {
    mensuelle,
    trimestrielle,
    semestrielle,
    annuelle,
}

/// Moment de la facturation : `terme_a_echoir` (en début de période) ou
/// `terme_echu` (une fois la période écoulée).
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum BillingTimingCode {
    terme_a_echoir,
    terme_echu,
}

/// Action sur un contrat : `activate`, `terminate`, `expire`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum ContractActionCode {
    activate,
    terminate,
    expire,
}

/// Un contrat d'entretien, tel qu'envoyé à la création ou à la modification
/// d'un brouillon (tous les champs sont redonnés ; un champ facultatif
/// absent prend sa valeur par défaut).
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContractBody {
    /// Le client (`client_id`, l'`id` d'une ligne de `GET /clients`) :
    /// de l'agence et non archivé.
    #[schema(min_length = 1)]
    #[schemars(length(min = 1))]
    pub client_id: String,
    /// Les appareils couverts, dans leur ordre : de 1 à 1 000, de l'agence,
    /// non archivés, sans client ou du client du contrat, chacun une fois.
    #[schema(min_items = 1, max_items = 1000)]
    #[schemars(length(min = 1, max = 1000))]
    pub lift_ids: Vec<String>,
    /// Type : `minimal` (obligations légales seules), `normal` (et
    /// dépannages aux heures ouvrées), `etendu` (et petites pièces d'usure),
    /// `complet` (tous dépannages et toutes pièces).
    #[serde(rename = "type")]
    #[schema(value_type = ContractTypeCode)]
    #[schemars(extend("enum" = ["minimal", "normal", "etendu", "complet"]))]
    pub contract_type: String,
    /// Premier jour en vigueur (AAAA-MM-JJ).
    #[schema(format = Date)]
    pub start_on: String,
    /// Durée de la première période, en mois : de 12 (un an au moins, par
    /// la loi) à 120 ; 12 par défaut.
    #[schema(minimum = 12, maximum = 120)]
    #[schemars(range(min = 12, max = 120))]
    pub duration_months: Option<i64>,
    /// Reconduction tacite à chaque échéance (vrai par défaut).
    pub tacit_renewal: Option<bool>,
    /// Durée de chaque reconduction, en mois : de 1 à 60 ; 12 par défaut.
    #[schema(minimum = 1, maximum = 60)]
    #[schemars(range(min = 1, max = 60))]
    pub renewal_months: Option<i64>,
    /// Préavis de résiliation avant l'échéance, en mois : de 0 à 12 ; 3 par
    /// défaut.
    #[schema(minimum = 0, maximum = 12)]
    #[schemars(range(min = 0, max = 12))]
    pub notice_months: Option<i64>,
    /// Base du prix : `par_appareil` (par défaut : le prix d'un appareil) ou
    /// `global` (le prix du contrat entier).
    #[schema(value_type = Option<PriceBasisCode>)]
    #[schemars(extend("enum" = ["par_appareil", "global", null]))]
    pub price_basis: Option<String>,
    /// Prix annuel HT en euros (d'un appareil ou du tout), positif ou nul,
    /// deux décimales au plus, un million au plus.
    #[schema(minimum = 0, maximum = 1000000)]
    #[schemars(range(min = 0, max = 1000000))]
    pub annual_price: f64,
    /// Fréquence de facturation ; `trimestrielle` par défaut.
    #[schema(value_type = Option<BillingFrequencyCode>)]
    #[schemars(extend("enum" = ["mensuelle", "trimestrielle", "semestrielle", "annuelle", null]))]
    pub billing_frequency: Option<String>,
    /// Facturation à terme à échoir (par défaut) ou à terme échu.
    #[schema(value_type = Option<BillingTimingCode>)]
    #[schemars(extend("enum" = ["terme_a_echoir", "terme_echu", null]))]
    pub billing_timing: Option<String>,
    /// Taux de TVA en pour cent : 20 (par défaut), 10, 5.5 ou 2.1.
    #[schema(schema_with = contract_vat_rate_schema)]
    #[schemars(extend("enum" = [20, 10, 5.5, 2.1, null]))]
    pub vat_rate: Option<f64>,
    /// Indice de révision du prix (`BT48`, `ICHT-IME`…) ; absent : prix non
    /// révisé.
    #[schema(max_length = 30)]
    #[schemars(length(max = 30))]
    pub price_index: Option<String>,
    /// Valeur de base I0 de l'indice (quatre décimales au plus) ; avec
    /// `priceIndex` seulement, et alors obligatoire.
    #[schema(exclusive_minimum = 0)]
    pub base_index_value: Option<f64>,
    /// Le mois dont I0 est la valeur (`AAAA-MM`) ; avec `priceIndex`
    /// seulement, et alors obligatoire. La révision de chaque anniversaire
    /// lit la valeur du même mois, autant d'années plus tard.
    #[schema(pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$")]
    pub base_index_month: Option<String>,
    /// Jours entre deux visites d'entretien : de 7 à 42 (six semaines, le
    /// maximum légal) ; 42 par défaut.
    #[schema(minimum = 7, maximum = 42)]
    #[schemars(range(min = 7, max = 42))]
    pub visit_interval_days: Option<i64>,
    /// Délai d'arrivée sur panne aux heures ouvrées, en minutes (5 à
    /// 10 080) ; 240 par défaut.
    #[schema(minimum = 5, maximum = 10080)]
    #[schemars(range(min = 5, max = 10080))]
    pub arrival_minutes: Option<i64>,
    /// Délai d'arrivée hors heures ouvrées, en minutes : obligatoire avec
    /// l'astreinte ou le week-end couverts, refusé sans eux.
    #[schema(minimum = 5, maximum = 10080)]
    #[schemars(range(min = 5, max = 10080))]
    pub arrival_out_of_hours_minutes: Option<i64>,
    /// Délai d'arrivée pour une personne bloquée, en minutes : au plus les
    /// autres délais d'arrivée ; 60 par défaut.
    #[schema(minimum = 5, maximum = 10080)]
    #[schemars(range(min = 5, max = 10080))]
    pub trapped_person_minutes: Option<i64>,
    /// Délai de remise en service, en minutes ; 2 880 (deux jours) par
    /// défaut.
    #[schema(minimum = 5, maximum = 10080)]
    #[schemars(range(min = 5, max = 10080))]
    pub return_to_service_minutes: Option<i64>,
    /// Week-ends couverts (faux par défaut).
    pub weekend_coverage: Option<bool>,
    /// Nuits couvertes par l'astreinte (faux par défaut).
    pub on_call_coverage: Option<bool>,
    /// Pénalité due par heure de retard commencée, en euros (0 par défaut,
    /// 10 000 au plus).
    #[schema(minimum = 0, maximum = 10000)]
    #[schemars(range(min = 0, max = 10000))]
    pub penalty_per_late_hour: Option<f64>,
    /// Notes libres (2 000 caractères au plus).
    #[schema(max_length = 2000)]
    #[schemars(length(max = 2000))]
    pub notes: Option<String>,
}

/// `vatRate` of a contract: a rate of the invoices but 0, or null (20).
fn contract_vat_rate_schema() -> utoipa::openapi::schema::Object {
    super::invoices::rate_schema(
        &[20.0, 10.0, 5.5, 2.1],
        "Taux de TVA en pour cent : 20 (par défaut), 10, 5.5 ou 2.1.",
    )
}

impl From<ContractBody> for ContractInput {
    fn from(body: ContractBody) -> Self {
        ContractInput {
            client_id: body.client_id,
            lift_ids: body.lift_ids,
            contract_type: body.contract_type,
            start_on: body.start_on,
            duration_months: body.duration_months,
            tacit_renewal: body.tacit_renewal,
            renewal_months: body.renewal_months,
            notice_months: body.notice_months,
            price_basis: body.price_basis,
            annual_price: body.annual_price,
            billing_frequency: body.billing_frequency,
            billing_timing: body.billing_timing,
            vat_rate: body.vat_rate,
            price_index: body.price_index,
            base_index_value: body.base_index_value,
            base_index_month: body.base_index_month,
            visit_interval_days: body.visit_interval_days,
            arrival_minutes: body.arrival_minutes,
            arrival_out_of_hours_minutes: body.arrival_out_of_hours_minutes,
            trapped_person_minutes: body.trapped_person_minutes,
            return_to_service_minutes: body.return_to_service_minutes,
            weekend_coverage: body.weekend_coverage,
            on_call_coverage: body.on_call_coverage,
            penalty_per_late_hour: body.penalty_per_late_hour,
            notes: body.notes,
        }
    }
}

/// Une résiliation.
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TerminationBody {
    /// Motif (obligatoire, 300 caractères au plus).
    #[schema(min_length = 1, max_length = 300, pattern = "\\S")]
    #[schemars(length(min = 1, max = 300))]
    pub reason: String,
    /// Jour où le préavis a été donné (AAAA-MM-JJ, pas dans le futur) ;
    /// aujourd'hui par défaut.
    #[schema(format = Date)]
    pub notice_on: Option<String>,
    /// Dernier jour couvert, convenu avec le client : entre le préavis et
    /// la fin que le préavis donne ; absent : la fin que le préavis donne
    /// (l'échéance en cours si le préavis est dans les temps, la suivante
    /// sinon).
    #[schema(format = Date)]
    pub ends_on: Option<String>,
}

/// Le client d'un contrat.
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct ContractClient {
    /// `client_id` du client.
    pub id: String,
    pub name: String,
    pub link: String,
    pub url: String,
}

/// Un appareil couvert.
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct ContractLift {
    pub id: String,
    #[schema(required = true)]
    pub number: Option<String>,
    /// Emplacement de l'appareil.
    #[schema(required = true)]
    pub location: Option<String>,
    /// Nom de son immeuble.
    #[schema(required = true)]
    pub building: Option<String>,
    /// Vrai pour un appareil archivé depuis.
    pub archived: bool,
    pub link: String,
    pub url: String,
}

/// Une obligation périodique du contrat, outre les visites.
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct ContractDuty {
    /// `cables`, `parachute` ou `nettoyage`.
    pub code: String,
    pub label: String,
    /// Mois entre deux.
    pub months: u32,
}

/// La période en cours d'un contrat.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContractTerm {
    #[schema(format = Date)]
    pub start_on: String,
    #[schema(format = Date)]
    pub ends_on: String,
}

/// Un contrat d'entretien, tel que `GET /contracts/{id}` le lit.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContractView {
    pub id: String,
    /// Numéro `CT-AAAA-NNNNN`, donné à la création.
    pub number: String,
    #[schema(value_type = ContractStatusCode)]
    #[ts(type = "ContractStatus")]
    pub status: String,
    pub status_label: String,
    #[serde(rename = "type")]
    #[schema(value_type = ContractTypeCode)]
    #[ts(rename = "type", type = "ContractType")]
    pub contract_type: String,
    pub type_label: String,
    /// Ce que le type couvre, tel qu'imprimé sur le contrat.
    pub type_coverage: String,
    pub client: ContractClient,
    /// Les appareils couverts, dans leur ordre.
    pub lifts: Vec<ContractLift>,
    #[schema(format = Date)]
    pub start_on: String,
    pub duration_months: i64,
    pub tacit_renewal: bool,
    pub renewal_months: i64,
    pub notice_months: i64,
    /// Dernier jour de la première période.
    #[schema(format = Date)]
    pub first_term_ends_on: String,
    /// La période en cours (la première, avant le début).
    pub current_term: ContractTerm,
    /// Dernier jour pour donner un préavis qui mette fin au contrat à la fin
    /// de la période en cours ; null sans reconduction tacite ou une fois
    /// le contrat terminé.
    #[schema(required = true, format = Date)]
    pub notice_deadline: Option<String>,
    /// Dernier jour couvert, s'il est connu (résiliation, ou fin d'un
    /// contrat sans reconduction) ; null pour un contrat reconduit
    /// tacitement.
    #[schema(required = true, format = Date)]
    pub last_day: Option<String>,
    /// Vrai quand le contrat couvre ses appareils aujourd'hui.
    pub covering: bool,
    #[schema(value_type = PriceBasisCode)]
    #[ts(type = "PriceBasis")]
    pub price_basis: String,
    pub price_basis_label: String,
    /// Prix annuel HT en euros, d'un appareil ou du tout (selon `priceBasis`).
    pub annual_price: f64,
    /// Prix annuel HT du contrat entier, en euros, avant révision.
    pub annual_total: f64,
    #[schema(value_type = BillingFrequencyCode)]
    #[ts(type = "BillingFrequency")]
    pub billing_frequency: String,
    pub billing_frequency_label: String,
    #[schema(value_type = BillingTimingCode)]
    #[ts(type = "BillingTiming")]
    pub billing_timing: String,
    pub billing_timing_label: String,
    /// Taux de TVA, en pour cent.
    pub vat_rate: f64,
    #[schema(required = true)]
    pub price_index: Option<String>,
    #[schema(required = true)]
    pub base_index_value: Option<f64>,
    /// Le mois de I0 (`AAAA-MM`).
    #[schema(required = true)]
    pub base_index_month: Option<String>,
    pub visit_interval_days: i64,
    /// Les obligations périodiques, outre les visites.
    pub duties: Vec<ContractDuty>,
    pub arrival_minutes: i64,
    #[schema(required = true)]
    pub arrival_out_of_hours_minutes: Option<i64>,
    pub trapped_person_minutes: i64,
    pub return_to_service_minutes: i64,
    pub weekend_coverage: bool,
    pub on_call_coverage: bool,
    /// Pénalité par heure de retard commencée, en euros.
    pub penalty_per_late_hour: f64,
    #[schema(required = true)]
    pub notes: Option<String>,
    /// Mise en vigueur (UTC, ISO 8601).
    #[schema(required = true)]
    pub activated_at: Option<String>,
    /// Jour du préavis d'une résiliation.
    #[schema(required = true, format = Date)]
    pub notice_on: Option<String>,
    /// Dernier jour d'un contrat résilié ou échu.
    #[schema(required = true, format = Date)]
    pub ends_on: Option<String>,
    #[schema(required = true)]
    pub termination_reason: Option<String>,
    /// Résiliation ou constat d'échéance (UTC, ISO 8601).
    #[schema(required = true)]
    pub ended_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Les actions que le statut et les dates permettent aujourd'hui.
    #[schema(value_type = Vec<ContractActionCode>)]
    #[ts(type = "ContractAction[]")]
    pub actions: Vec<String>,
    pub link: String,
    pub url: String,
}

/// Une ligne de la liste des contrats.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContractListEntry {
    pub id: String,
    pub number: String,
    #[schema(value_type = ContractStatusCode)]
    #[ts(type = "ContractStatus")]
    pub status: String,
    pub status_label: String,
    #[serde(rename = "type")]
    #[schema(value_type = ContractTypeCode)]
    #[ts(rename = "type", type = "ContractType")]
    pub contract_type: String,
    pub type_label: String,
    pub client: ContractClient,
    /// Nombre d'appareils couverts.
    pub lifts: i64,
    #[schema(format = Date)]
    pub start_on: String,
    pub current_term: ContractTerm,
    #[schema(required = true, format = Date)]
    pub notice_deadline: Option<String>,
    #[schema(required = true, format = Date)]
    pub last_day: Option<String>,
    pub covering: bool,
    /// Prix annuel HT du contrat entier, en euros, avant révision.
    pub annual_total: f64,
    #[schema(value_type = BillingFrequencyCode)]
    #[ts(type = "BillingFrequency")]
    pub billing_frequency: String,
    pub link: String,
    pub url: String,
}

fn client_of(row: &ContractRow, base_url: &str) -> ContractClient {
    ContractClient {
        id: row.client_ref.clone(),
        name: row.client_name.clone(),
        link: RecordKind::Client.link(&row.client_ref),
        url: RecordKind::Client.url(base_url, &row.client_ref),
    }
}

fn term_of(dates: &ContractDates) -> ContractTerm {
    ContractTerm {
        start_on: day::iso(dates.term.0),
        ends_on: day::iso(dates.term.1),
    }
}

fn contract_view(detail: ContractDetail, base_url: &str) -> ContractView {
    let ContractDetail {
        row,
        lifts,
        dates,
        actions,
    } = detail;
    let f = &row.fields;
    ContractView {
        client: client_of(&row, base_url),
        lifts: lifts
            .into_iter()
            .map(|l| ContractLift {
                link: RecordKind::Equipment.link(l.equipment_id.as_str()),
                url: RecordKind::Equipment.url(base_url, l.equipment_id.as_str()),
                id: l.equipment_id.into_string(),
                number: l.number,
                location: l.location,
                building: l.building_name,
                archived: l.archived,
            })
            .collect(),
        status: row.status.as_str().to_owned(),
        status_label: row.status.label().to_owned(),
        contract_type: f.contract_type.as_str().to_owned(),
        type_label: f.contract_type.label().to_owned(),
        type_coverage: f.contract_type.coverage().to_owned(),
        start_on: f.start_on.clone(),
        duration_months: f.duration_months,
        tacit_renewal: f.tacit_renewal,
        renewal_months: f.renewal_months,
        notice_months: f.notice_months,
        first_term_ends_on: day::iso(dates.first_end),
        current_term: term_of(&dates),
        notice_deadline: dates.notice_deadline.map(day::iso),
        last_day: dates.last_day.map(day::iso),
        covering: dates.covering,
        price_basis: f.price_basis.as_str().to_owned(),
        price_basis_label: f.price_basis.label().to_owned(),
        annual_price: Cents::new(f.annual_price_cents).euros(),
        annual_total: dates.annual_total.euros(),
        billing_frequency: f.billing_frequency.as_str().to_owned(),
        billing_frequency_label: f.billing_frequency.label().to_owned(),
        billing_timing: f.billing_timing.as_str().to_owned(),
        billing_timing_label: f.billing_timing.label().to_owned(),
        vat_rate: super::invoices::rate_percent(u32::try_from(f.vat_rate_bp).unwrap_or(0)),
        price_index: f.price_index.clone(),
        base_index_value: f
            .base_index_value
            .map(|v| IndexValue::from_ten_thousandths(v).number()),
        base_index_month: f.base_index_month.clone(),
        visit_interval_days: f.visit_interval_days,
        duties: contract::DUTIES
            .iter()
            .map(|d| ContractDuty {
                code: d.as_str().to_owned(),
                label: d.label().to_owned(),
                months: d.months(),
            })
            .collect(),
        arrival_minutes: f.arrival_minutes,
        arrival_out_of_hours_minutes: f.arrival_out_of_hours_minutes,
        trapped_person_minutes: f.trapped_minutes,
        return_to_service_minutes: f.restore_minutes,
        weekend_coverage: f.weekend_coverage,
        on_call_coverage: f.on_call_coverage,
        penalty_per_late_hour: Cents::new(f.penalty_per_hour_cents).euros(),
        notes: f.notes.clone(),
        activated_at: row.activated_at.clone(),
        notice_on: row.notice_on.clone(),
        ends_on: row.ends_on.clone(),
        termination_reason: row.termination_reason.clone(),
        ended_at: row.ended_at.clone(),
        created_at: row.created_at.clone(),
        updated_at: row.updated_at.clone(),
        actions: actions.iter().map(|a| a.as_str().to_owned()).collect(),
        link: RecordKind::Contract.link(row.id.as_str()),
        url: RecordKind::Contract.url(base_url, row.id.as_str()),
        number: row.number.clone(),
        id: row.id.into_string(),
    }
}

/// A new draft contract: `POST /contracts` and the MCP tool.
pub async fn contract_create(
    state: &AppState,
    p: &Principal,
    body: ContractBody,
) -> AppResult<Created> {
    let id = service::create(&state.store, p, body.into()).await?;
    Ok(Created::new(
        RecordKind::Contract,
        &state.base_url,
        id.as_str(),
    ))
}

/// A draft's replacement: `PUT /contracts/{id}`; answers the contract.
pub async fn contract_replace(
    state: &AppState,
    p: &Principal,
    id: &str,
    body: ContractBody,
) -> AppResult<ContractView> {
    let id = service::update(&state.store, p, &ContractId::new(id), body.into()).await?;
    contract_read(state, p, id.as_str()).await
}

/// A contract of the agency.
pub async fn contract_read(state: &AppState, p: &Principal, id: &str) -> AppResult<ContractView> {
    let detail = service::get(&state.store, p, &ContractId::new(id)).await?;
    Ok(contract_view(detail, &state.base_url))
}

/// The contract as a PDF: `GET /contracts/{id}/pdf`.
pub async fn contract_pdf_file(state: &AppState, p: &Principal, id: &str) -> AppResult<PdfFile> {
    Ok(crate::services::documents::contract_pdf(&state.store, p, &ContractId::new(id)).await?)
}

/// Deletes a draft.
pub async fn contract_delete(state: &AppState, p: &Principal, id: &str) -> AppResult<()> {
    Ok(service::delete(&state.store, p, &ContractId::new(id)).await?)
}

/// An action on a contract; the answer names it.
pub async fn contract_act(
    state: &AppState,
    p: &Principal,
    id: &str,
    action: ContractAction,
    termination: Option<TerminationBody>,
) -> AppResult<Created> {
    let id = ContractId::new(id);
    let id = match action {
        ContractAction::Activate => service::activate(&state.store, p, &id).await?,
        ContractAction::Expire => service::expire(&state.store, p, &id).await?,
        ContractAction::Terminate => {
            let input = termination
                .map(|b| TerminationInput {
                    notice_on: b.notice_on,
                    ends_on: b.ends_on,
                    reason: b.reason,
                })
                .unwrap_or_default();
            service::terminate(&state.store, p, &id, input).await?
        }
    };
    Ok(Created::new(
        RecordKind::Contract,
        &state.base_url,
        id.as_str(),
    ))
}

/// One page of the agency's contracts.
pub async fn contract_list(
    state: &AppState,
    p: &Principal,
    filter: service::ListInput,
    paging: PageQuery,
) -> AppResult<Page<ContractListEntry>> {
    p.agency()?;
    let paging = Paging::from_query(&paging)?;
    let (total, rows) =
        service::list(&state.store, p, filter, paging.limit, paging.offset()).await?;
    let base_url = &state.base_url;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows
            .into_iter()
            .map(|(row, dates)| ContractListEntry {
                client: client_of(&row, base_url),
                status: row.status.as_str().to_owned(),
                status_label: row.status.label().to_owned(),
                contract_type: row.fields.contract_type.as_str().to_owned(),
                type_label: row.fields.contract_type.label().to_owned(),
                lifts: row.lifts,
                start_on: row.fields.start_on.clone(),
                current_term: term_of(&dates),
                notice_deadline: dates.notice_deadline.map(day::iso),
                last_day: dates.last_day.map(day::iso),
                covering: dates.covering,
                annual_total: dates.annual_total.euros(),
                billing_frequency: row.fields.billing_frequency.as_str().to_owned(),
                link: RecordKind::Contract.link(row.id.as_str()),
                url: RecordKind::Contract.url(base_url, row.id.as_str()),
                number: row.number,
                id: row.id.into_string(),
            })
            .collect(),
    })
}

// ---------------------------------------------------------------------------
// Price indexes
// ---------------------------------------------------------------------------

/// La valeur d'un indice pour un mois.
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexValueBody {
    /// Code de l'indice : `BT48`, `ICHT-IME`… (1 à 30 lettres, chiffres,
    /// `-`, `_` ou `.` ; écrit en majuscules).
    #[schema(min_length = 1, max_length = 30, pattern = "^\\s*[A-Za-z0-9._-]+\\s*$")]
    #[schemars(length(min = 1, max = 30))]
    pub index: String,
    /// Le mois de la valeur, `AAAA-MM`.
    #[schema(pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$")]
    pub month: String,
    /// La valeur publiée, positive, quatre décimales au plus.
    #[schema(exclusive_minimum = 0, maximum = 999999)]
    pub value: f64,
}

/// Une valeur d'indice enregistrée.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct IndexValueView {
    pub index: String,
    /// `AAAA-MM`.
    pub month: String,
    pub value: f64,
    /// Saisie ou dernière correction (UTC, ISO 8601).
    pub recorded_at: String,
}

fn index_value_view(row: IndexValueRow) -> IndexValueView {
    IndexValueView {
        index: row.index_code,
        month: row.month,
        value: IndexValue::from_ten_thousandths(row.value).number(),
        recorded_at: row.recorded_at,
    }
}

/// Records a value: `POST /price-indexes`.
pub async fn index_value_record(
    state: &AppState,
    p: &Principal,
    body: IndexValueBody,
) -> AppResult<IndexValueView> {
    let row = service::record_index_value(
        &state.store,
        p,
        IndexValueInput {
            index: body.index,
            month: body.month,
            value: body.value,
        },
    )
    .await?;
    Ok(index_value_view(row))
}

/// The agency's values: `GET /price-indexes`.
pub async fn index_value_list(
    state: &AppState,
    p: &Principal,
    index: Option<String>,
) -> AppResult<Vec<IndexValueView>> {
    Ok(service::index_values(&state.store, p, index)
        .await?
        .into_iter()
        .map(index_value_view)
        .collect())
}

// -- Response times -----------------------------------------------------------

/// La période d'un rapport de délais.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams, schemars::JsonSchema)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ResponseQuery {
    /// Premier jour (AAAA-MM-JJ, heure de Paris).
    #[param(value_type = String, format = Date)]
    pub from: String,
    /// Dernier jour inclus (AAAA-MM-JJ) ; 366 jours au plus.
    #[param(value_type = String, format = Date)]
    pub to: String,
}

/// Les engagements d'un appel au titre du contrat qui couvrait l'appareil.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CommitmentOut {
    pub contract_id: String,
    pub contract_number: String,
    /// Arrivée sur place au plus tard (ISO 8601, UTC).
    #[schema(format = DateTime)]
    pub arrival_due_at: String,
    /// Remise en service au plus tard (ISO 8601, UTC).
    #[schema(format = DateTime)]
    pub restore_due_at: String,
    pub arrived: bool,
    pub restored: bool,
    /// Minutes de retard à l'arrivée (0 : à temps ; comptées jusqu'à maintenant tant que le technicien n'est pas arrivé).
    pub arrival_late_minutes: i64,
    /// Minutes de retard à la remise en service (de même).
    pub restore_late_minutes: i64,
    /// Un délai est dépassé.
    pub late: bool,
    /// Pénalité que le contrat prévoit pour ces retards, en euros HT (par heure de retard commencée).
    pub penalty: f64,
}

impl From<&crate::services::contract_response::CallCommitment> for CommitmentOut {
    fn from(c: &crate::services::contract_response::CallCommitment) -> Self {
        Self {
            contract_id: c.contract_id.to_string(),
            contract_number: c.contract_number.clone(),
            arrival_due_at: crate::clock::format_timestamp(c.deadlines.arrival),
            restore_due_at: crate::clock::format_timestamp(c.deadlines.restore),
            arrived: c.arrived,
            restored: c.restored,
            arrival_late_minutes: c.arrival_late,
            restore_late_minutes: c.restore_late,
            late: c.late(),
            penalty: c.penalty.euros(),
        }
    }
}

/// Un appel du rapport.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReportedCallOut {
    pub id: String,
    pub reference: String,
    /// `personne_bloquee`, `panne`, `vandalisme` ou `bruit`.
    #[serde(rename = "type")]
    pub call_type: String,
    pub status: String,
    pub equipment_id: String,
    pub number: Option<String>,
    #[schema(format = DateTime)]
    pub received_at: String,
    #[schema(format = DateTime)]
    pub arrived_at: Option<String>,
    /// Remise en service (heure du rapport de clôture, sinon de la résolution).
    #[schema(format = DateTime)]
    pub restored_at: Option<String>,
    /// Cause inscrite au rapport de clôture.
    pub cause: Option<String>,
    pub commitment: CommitmentOut,
}

/// Les délais d'un contrat sur une période : les appels sur ses appareils
/// pendant qu'il les couvrait, leurs délais et les pénalités dues.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ResponseReportOut {
    pub contract_id: String,
    pub number: String,
    #[schema(format = Date)]
    pub from: String,
    #[schema(format = Date)]
    pub to: String,
    pub calls: Vec<ReportedCallOut>,
    /// Appels dont un délai est dépassé.
    pub late: usize,
    /// Appels pour personne bloquée.
    pub trapped: usize,
    /// Total des pénalités, en euros HT.
    pub penalties: f64,
}

/// The response-time report of a contract: `GET /contracts/{id}/response-times`.
pub async fn response_report(
    state: &AppState,
    p: &Principal,
    id: &str,
    query: ResponseQuery,
) -> AppResult<ResponseReportOut> {
    use crate::services::contract_response::{ReportInput, report};
    let r = report(
        &state.store,
        p,
        &ContractId::new(id),
        ReportInput {
            from: query.from,
            to: query.to,
        },
    )
    .await?;
    Ok(ResponseReportOut {
        contract_id: r.contract.id.to_string(),
        number: r.contract.number.clone(),
        from: day::iso(r.from),
        to: day::iso(r.to),
        late: r.late,
        trapped: r.trapped,
        penalties: r.penalties.euros(),
        calls: r
            .calls
            .iter()
            .map(|c| ReportedCallOut {
                id: c.call.id.to_string(),
                reference: c.call.reference.clone(),
                call_type: c.call.call_type.as_str().to_owned(),
                status: c.call.status.as_str().to_owned(),
                equipment_id: c.call.equipment_id.to_string(),
                number: c.call.number.clone(),
                received_at: c.call.received_at.clone(),
                arrived_at: c.call.arrived_at.clone(),
                restored_at: c
                    .call
                    .back_in_service_at
                    .clone()
                    .or_else(|| c.call.resolved_at.clone()),
                cause: c.call.cause.clone(),
                commitment: CommitmentOut::from(&c.commitment),
            })
            .collect(),
    })
}

/// L'année d'un rapport annuel.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AnnualReportQuery {
    /// Année (AAAA), de 2000 à 2100 ; par défaut l'année dernière.
    #[param(value_type = Option<i32>, minimum = 2000, maximum = 2100)]
    pub year: Option<String>,
}

/// The contract's annual report as a PDF: `GET /contracts/{id}/annual-report`.
pub async fn annual_report_file(
    state: &AppState,
    p: &Principal,
    id: &str,
    query: AnnualReportQuery,
) -> AppResult<PdfFile> {
    Ok(crate::services::documents::annual_report_pdf(
        &state.store,
        p,
        &ContractId::new(id),
        query.year.as_deref(),
    )
    .await?)
}
