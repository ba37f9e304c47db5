//! What the demo's plan hands to a writer: one seed per record it decides
//! (a technician, an absence, a standby week, a client, a contact, a
//! building, an equipment, a visit, a call, a quote, an invoice, a deal, a
//! survey, a technical datum, a discrepancy), and the `Writer` that turns
//! each into stored records. Two writers exist: the store's bulk statements
//! (`demo::bulk`, every size; the large demo's only path) and the
//! application layer's operations (`liftdesk-core`'s `services::demo`, the
//! small demo), which write each seed as the agency's staff would have, at
//! the seed's own instant.
//!
//! A seed carries the id the plan proposes; the writer answers the id the
//! record was stored under (the bulk writer keeps the proposed one; the
//! operations make their own), and the plan refers to records by the
//! answered id from then on. A writer that keeps seeds back until the
//! agency's end (`Writer::end_of_agency`: the operations keep the deals and
//! surveys until their data are handed over) answers an id it knows them
//! by, and is named it again.

use anyhow::{Result, bail};
use chrono::{DateTime, NaiveDate, Utc};

use liftdesk_domain::client::BillingCategory;
use liftdesk_domain::contract::{BillingFrequency, BillingTiming, ContractType};
use liftdesk_domain::invoice::{InvoiceNature, InvoiceStatus};
use liftdesk_domain::survey::SurveyStatus;

use super::DemoAgency;

/// A UUID in its 36-character text form, held without allocating.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Id(pub(super) [u8; 36]);

impl Id {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Built from a UUID's hyphenated form or from checked ASCII text.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// An id a writer stored a record under (36 ASCII characters).
    pub fn of_text(text: &str) -> Result<Id> {
        let bytes: [u8; 36] = match text.as_bytes().try_into() {
            Ok(bytes) if text.is_ascii() => bytes,
            _ => bail!("not a 36-character id: {text:?}"),
        };
        Ok(Id(bytes))
    }
}

impl std::fmt::Debug for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A technician of the agency, with the day it joined.
pub struct TechnicianSeed<'a> {
    pub id: Id,
    pub name: &'a str,
    /// Comma-separated sector names.
    pub sectors: &'a str,
    pub phone: &'a str,
    pub daily_capacity: u8,
    /// False for the one who left the company: kept for history.
    pub active: bool,
    pub created: DateTime<Utc>,
    /// When the one who left was taken off the roster.
    pub left: Option<DateTime<Utc>>,
}

/// A technician's absence (leave, sickness, training), both days included.
pub struct AbsenceSeed<'a> {
    pub id: Id,
    pub technician: Id,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub reason: &'a str,
    /// When it was recorded.
    pub created: DateTime<Utc>,
}

/// A standby week of the rota (Monday 08:00 to Monday 08:00, Paris time).
pub struct OnCallSeed {
    pub id: Id,
    pub technician: Id,
    pub starts: DateTime<Utc>,
    pub ends: DateTime<Utc>,
    /// When the week was put on the rota.
    pub created: DateTime<Utc>,
}

/// A client (or a prospect) of the agency.
pub struct ClientSeed<'a> {
    pub id: Id,
    /// The partner's identifier (`CLI-000100`).
    pub client_ref: &'a str,
    pub name: &'a str,
    pub prospect: bool,
    /// The categories, as a JSON array of text.
    pub types: &'a str,
    pub email: Option<&'a str>,
    pub phone: &'a str,
    pub address: &'a str,
    pub address_complement: Option<&'a str>,
    pub siren: Option<&'a str>,
    pub siret: Option<&'a str>,
    /// Archived (« supprimé »): kept for history.
    pub archived: bool,
    /// How it is invoiced.
    pub billing: Option<BillingCategory>,
    pub created: DateTime<Utc>,
    /// When its record last changed.
    pub updated: DateTime<Utc>,
}

/// A contact person of a client.
pub struct ContactSeed<'a> {
    pub id: Id,
    pub client: Id,
    pub name: &'a str,
    pub email: Option<&'a str>,
    pub phone: &'a str,
    /// The position (« Gardien », « Gestionnaire »…).
    pub role: &'a str,
    pub created: DateTime<Utc>,
}

/// A building of a client, with how a technician gets in.
pub struct BuildingSeed<'a> {
    pub id: Id,
    pub client: Id,
    pub name: Option<&'a str>,
    pub address: &'a str,
    pub address_complement: Option<&'a str>,
    pub postal_code: &'a str,
    pub city: &'a str,
    /// The access instructions, as a JSON array (`["Digicode"]`).
    pub access: &'a str,
    pub access_other: Option<&'a str>,
    pub digicode: Option<&'a str>,
    pub key_box: Option<&'a str>,
    pub created: DateTime<Utc>,
}

/// An equipment of a building, with its maintenance plan.
pub struct EquipmentSeed<'a> {
    pub id: Id,
    pub building: Id,
    pub client: Id,
    pub number: &'a str,
    pub serial_number: Option<&'a str>,
    /// The type's code (`ascenseur`, `porte_fermeture`…).
    pub eq_type: &'a str,
    pub subtype: &'a str,
    pub location: Option<&'a str>,
    /// `parc`, `hors_parc` or none.
    pub contract: Option<&'a str>,
    pub contract_number: Option<&'a str>,
    pub external_id: Option<&'a str>,
    pub visit_interval_days: i64,
    pub plan_start: Option<NaiveDate>,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

/// A maintenance contract covering one lift of its client: a draft being
/// negotiated, or in force from `activated`, possibly ended since by a
/// notice (`terminated`). Its number is the one `contracts::next_number`
/// gives in the agency at `created` when the contracts are written in the
/// plan's order.
pub struct ContractSeed<'a> {
    pub id: Id,
    pub client: Id,
    pub equipment: Id,
    pub number: &'a str,
    pub contract_type: ContractType,
    pub start_on: NaiveDate,
    pub tacit_renewal: bool,
    /// The annual price excluding tax of the lift, in cents.
    pub annual_price_cents: i64,
    pub frequency: BillingFrequency,
    pub timing: BillingTiming,
    pub vat_rate_bp: u32,
    /// The revision's index, its base value I0 (ten-thousandths) and I0's
    /// month.
    pub index: Option<(&'a str, i64, NaiveDate)>,
    pub visit_interval_days: i64,
    pub arrival_minutes: u32,
    /// With the on-call and weekend coverage, when the contract has it.
    pub out_of_hours_minutes: Option<u32>,
    pub trapped_minutes: u32,
    pub restore_minutes: u32,
    pub penalty_per_hour_cents: i64,
    pub created: DateTime<Utc>,
    pub activated: Option<DateTime<Utc>>,
    pub terminated: Option<TerminationSeed<'a>>,
}

impl ContractSeed<'_> {
    /// The demo's terms: a year, renewed tacitly (or not) by years, three
    /// months' notice.
    pub fn terms(&self) -> liftdesk_domain::contract::Terms {
        liftdesk_domain::contract::Terms {
            start: self.start_on,
            duration_months: 12,
            tacit_renewal: self.tacit_renewal,
            renewal_months: 12,
            notice_months: 3,
        }
    }
}

/// A notice that ended a contract.
pub struct TerminationSeed<'a> {
    /// When staff recorded it.
    pub at: DateTime<Utc>,
    pub notice_on: NaiveDate,
    pub reason: &'a str,
}

/// A monthly value of a price index, recorded once published.
pub struct IndexValueSeed<'a> {
    pub index: &'a str,
    pub month: NaiveDate,
    /// In ten-thousandths.
    pub value: i64,
    pub recorded: DateTime<Utc>,
}

/// A maintenance visit: planned (`planifiee`), under way (`en_cours`,
/// arrived) or done (`faite`, arrived, left, signed).
pub struct VisitSeed<'a> {
    pub id: Id,
    pub equipment: Id,
    pub technician: Id,
    pub planned_for: NaiveDate,
    /// The day its maintenance plan wanted it by.
    pub deadline: NaiveDate,
    /// The equipment's last visit before the demo's history begins, when
    /// this visit is the first of the history: its deadline counts from it
    /// (the operations restart the maintenance plan from that day).
    pub after: Option<NaiveDate>,
    pub arrived: Option<DateTime<Utc>>,
    /// The departure, for a visit done (its day is the visit's).
    pub left: Option<DateTime<Utc>>,
    pub signed_by: Option<&'a str>,
    pub observations: Option<&'a str>,
    /// When it was planned.
    pub created: DateTime<Utc>,
}

/// A breakdown call, sent by a call center (with its key) or taken at the
/// agency by a member of its staff, and its life: assigned, on the way,
/// on site, stopped for parts, resolved (each instant when it happened).
pub struct CallSeed<'a> {
    pub id: Id,
    pub equipment: Id,
    /// The call center that sent it and the key it used.
    pub call_center: Option<&'a str>,
    pub credential: Option<&'a str>,
    /// The staff account that took it at the agency.
    pub created_by: Option<&'a str>,
    pub reference: &'a str,
    /// The status it has reached (`CallStatus`'s code).
    pub status: &'a str,
    /// The type's code (`panne`, `personne_bloquee`…).
    pub kind: &'a str,
    pub description: &'a str,
    pub caller: Option<&'a str>,
    pub received: DateTime<Utc>,
    pub technician: Option<Id>,
    pub assigned: Option<DateTime<Utc>>,
    pub en_route: Option<DateTime<Utc>>,
    pub arrived: Option<DateTime<Utc>>,
    pub stopped: Option<DateTime<Utc>>,
    pub resolved: Option<DateTime<Utc>>,
    /// When it reached Liftdesk (a moment after it was received).
    pub created: DateTime<Utc>,
}

/// A line of a quote or an invoice.
pub struct LineSeed<'a> {
    pub id: Id,
    pub label: &'a str,
    /// Thousandths of a unit (1,500 is 1.5 hours).
    pub quantity_milli: i64,
    /// Excluding tax.
    pub unit_price_cents: i64,
    /// Basis points (2,000 is 20 %).
    pub vat_rate_bp: u32,
}

/// A quote (« devis ») for repairs on an equipment, written by a member of
/// the staff, and its life: sent, then accepted or refused.
pub struct QuoteSeed<'a> {
    pub id: Id,
    pub equipment: Id,
    /// `DV-<year>-<n>`, the agency's numbering.
    pub number: &'a str,
    /// `reserve`, `panne`, `technicien` or `client`.
    pub origin: &'a str,
    pub object: &'a str,
    /// The status it has reached (`QuoteStatus`'s code).
    pub status: &'a str,
    pub created_by: Option<&'a str>,
    pub sent: Option<DateTime<Utc>>,
    pub accepted: Option<DateTime<Utc>>,
    pub refused: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
    pub rows: &'a [LineSeed<'a>],
}

/// An invoice or a credit note (« facture », « avoir ») and its life: a
/// draft made out to a client (from an accepted quote, or crediting an
/// issued invoice), issued with its number, sent, paid.
pub struct InvoiceSeed<'a> {
    pub id: Id,
    pub client: Id,
    /// `facture` or `avoir`.
    pub nature: InvoiceNature,
    pub status: InvoiceStatus,
    /// `FA-<year>-<n>` or `AV-<year>-<n>` once issued (with the agency's
    /// series, `FA-PO-<year>-<n>`); its year and rank.
    pub number: Option<(&'a str, i32, u32)>,
    /// The agency's series the number was given in.
    pub number_series: Option<&'a str>,
    /// The invoice a credit note credits.
    pub credited: Option<Id>,
    /// The accepted quote an invoice bills.
    pub quote: Option<Id>,
    pub buyer_name: &'a str,
    pub buyer_address: &'a str,
    pub buyer_siren: Option<&'a str>,
    pub issued_on: Option<NaiveDate>,
    /// When it was issued.
    pub issued_at: Option<DateTime<Utc>>,
    pub due_on: Option<NaiveDate>,
    /// When it was sent (`envoyee`).
    pub sent_at: Option<DateTime<Utc>>,
    /// The day it was paid and when the payment was recorded (`payee`).
    pub paid: Option<(NaiveDate, DateTime<Utc>)>,
    pub total_excl_cents: i64,
    pub total_incl_cents: i64,
    pub created: DateTime<Utc>,
    pub lines: &'a [LineSeed<'a>],
}

/// A deal of the partner (« affaire ») asking for surveys, and the category
/// it has reached.
pub struct DealSeed<'a> {
    pub id: Id,
    pub type_affaire: Option<&'a str>,
    /// The inventory types asked for, as a JSON array of text.
    pub types: &'a str,
    /// « Nouvelle », « Gagnée »…
    pub category: &'a str,
    /// The partner's opportunity (`OPP-1234567`).
    pub external_opportunity: Option<&'a str>,
    /// Who asked, at the partner.
    pub requester_email: &'a str,
    /// The account that performs its surveys.
    pub surveyor: Option<&'a str>,
    pub client: Option<Id>,
    pub created: DateTime<Utc>,
    /// When its record last changed: its category, or its last survey's
    /// change.
    pub updated: DateTime<Utc>,
}

/// A survey of an equipment (« relevé ») and the status it has reached: to
/// do, under way (data entered, photos taken), submitted, or cancelled.
pub struct SurveySeed<'a> {
    pub id: Id,
    pub equipment: Id,
    /// `REL-<year>-<n>`, the agency's numbering (none for a survey brought
    /// from before it).
    pub number: Option<&'a str>,
    pub status: SurveyStatus,
    /// Why it was asked for (the deal's type, « Contrat »…).
    pub reason: Option<&'a str>,
    /// Why it was cancelled, for a survey `annule`: the operations write it
    /// in the cancellation's audit entry; the bulk writer, which writes no
    /// audit entry, keeps none.
    pub cancel_reason: Option<&'a str>,
    /// The account performing it.
    pub surveyor: Option<&'a str>,
    /// The day it is wanted by.
    pub due_on: Option<NaiveDate>,
    /// The day it was done, once submitted.
    pub surveyed_on: Option<NaiveDate>,
    pub photo_count: i64,
    pub submitted_at: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
    /// When it last changed (entered data, cancellation, submission).
    pub updated: DateTime<Utc>,
}

/// A technical datum of an equipment (catalog code, JSON value), surveyed
/// at `surveyed` by a survey or outside any.
pub struct TechnicalValueSeed<'a> {
    pub equipment: Id,
    pub code: &'a str,
    /// The value as JSON text (`630`, `"Otis"`, `true`).
    pub value: &'a str,
    pub survey: Option<Id>,
    pub surveyed: DateTime<Utc>,
}

/// A discrepancy (« écart ») a survey found on its equipment.
pub struct DiscrepancySeed<'a> {
    pub id: Id,
    pub equipment: Id,
    pub survey: Id,
    /// The component's code (`car_door`, `machine`), none for the whole.
    pub component: Option<&'a str>,
    pub finding: &'a str,
    /// The account that noted it.
    pub created_by: Option<&'a str>,
    pub created: DateTime<Utc>,
}

/// Stores the seeds of the demo's plan, agency by agency, inside the
/// demo's one transaction.
pub trait Writer {
    /// The agency whose seeds follow.
    fn agency(&mut self, agency: &DemoAgency) -> Result<()>;
    fn technician(&mut self, seed: &TechnicianSeed) -> Result<Id>;
    fn absence(&mut self, seed: &AbsenceSeed) -> Result<()>;
    fn on_call(&mut self, seed: &OnCallSeed) -> Result<()>;
    fn client(&mut self, seed: &ClientSeed) -> Result<Id>;
    fn contact(&mut self, seed: &ContactSeed) -> Result<()>;
    fn building(&mut self, seed: &BuildingSeed) -> Result<Id>;
    fn equipment(&mut self, seed: &EquipmentSeed) -> Result<Id>;
    fn contract(&mut self, seed: &ContractSeed) -> Result<()>;
    fn index_value(&mut self, seed: &IndexValueSeed) -> Result<()>;
    fn visit(&mut self, seed: &VisitSeed) -> Result<()>;
    fn call(&mut self, seed: &CallSeed) -> Result<()>;
    /// Answers the quote's id.
    fn quote(&mut self, seed: &QuoteSeed) -> Result<Id>;
    /// Answers the document's id.
    fn invoice(&mut self, seed: &InvoiceSeed) -> Result<Id>;
    /// The last number given in a series (nature × year) of the agency,
    /// once all its documents are written.
    fn invoice_series(&mut self, nature: &str, year: i32, last_seq: u32) -> Result<()>;
    /// Answers the deal's id.
    fn deal(&mut self, seed: &DealSeed) -> Result<Id>;
    /// Answers the survey's id.
    fn survey(&mut self, seed: &SurveySeed) -> Result<Id>;
    /// The deal asked for the survey.
    fn survey_of_deal(&mut self, survey: Id, deal: Id) -> Result<()>;
    fn technical_value(&mut self, seed: &TechnicalValueSeed) -> Result<()>;
    /// A datum entered on a survey (catalog code, JSON value).
    fn survey_value(&mut self, survey: Id, code: &str, value: &str) -> Result<()>;
    fn discrepancy(&mut self, seed: &DiscrepancySeed) -> Result<()>;
    /// Every seed of the agency was handed over: a writer that keeps some
    /// back to write them in their own order writes them now.
    fn end_of_agency(&mut self) -> Result<()>;
}
