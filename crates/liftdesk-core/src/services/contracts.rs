//! Maintenance contracts: the draft (its client, its lifts, its terms,
//! price, billing and commitments, checked here), its life by
//! `domain::contract::transition` (activate, terminate, expire), its read
//! model with the dates its terms give, and the price indexes' values the
//! yearly revision reads. Every write records its journal entry in the same
//! transaction.

use chrono::{Datelike, NaiveDate};
use serde_json::json;

use crate::clock;
use crate::domain::contract::{
    self, BillingFrequency, BillingTiming, ContractAction, ContractStatus, ContractType,
    IndexValue, PriceBasis, Terms,
};
use crate::domain::day::{self, DayError};
use crate::domain::id::{AgencyId, ClientId, ContractId, EquipmentId};
use crate::domain::lines::{DEFAULT_VAT_RATE_BP, VAT_RATES_BP};
use crate::domain::money::Cents;
use crate::domain::time;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::store::contracts::{
    self as store, ContractFields, ContractFilter, ContractLiftRow, ContractRow, IndexValueRow,
};
use crate::store::{Conn, Store, Tx, clients};

/// Lifts of one contract, at most (a landlord's whole park).
pub const MAX_LIFTS: usize = 1000;
/// Characters of the notes and of a termination's reason, at most.
pub const MAX_NOTES_CHARS: usize = 2000;
pub const MAX_REASON_CHARS: usize = 300;
/// A year's price, at most: one million euros (a year billed at once stays
/// within an invoice line's unit price).
pub const MAX_ANNUAL_PRICE_CENTS: i64 = 100_000_000;
/// A penalty per hour late, at most: ten thousand euros.
pub const MAX_PENALTY_CENTS: i64 = 1_000_000;

/// The defaults of a new contract: a year renewed tacitly by years, three
/// months' notice, billed each quarter in advance at 20 %, a visit every six
/// weeks, arrival in four hours (one for a trapped person), back in service
/// within two days.
pub const DEFAULT_DURATION_MONTHS: u32 = 12;
pub const DEFAULT_NOTICE_MONTHS: u32 = 3;
pub const DEFAULT_ARRIVAL_MINUTES: u32 = 240;
pub const DEFAULT_TRAPPED_MINUTES: u32 = 60;
pub const DEFAULT_RESTORE_MINUTES: u32 = 2880;

/// A contract as received (creation, or a draft's edit: every field is
/// given again; an absent optional field takes its default).
#[derive(Debug, Clone, Default)]
pub struct ContractInput {
    pub client_id: String,
    pub lift_ids: Vec<String>,
    pub contract_type: String,
    pub start_on: String,
    pub duration_months: Option<i64>,
    pub tacit_renewal: Option<bool>,
    pub renewal_months: Option<i64>,
    pub notice_months: Option<i64>,
    pub price_basis: Option<String>,
    /// Euros excluding tax, a year.
    pub annual_price: f64,
    pub billing_frequency: Option<String>,
    pub billing_timing: Option<String>,
    /// Per cent: 20, 10, 5.5, 2.1 or 0.
    pub vat_rate: Option<f64>,
    pub price_index: Option<String>,
    pub base_index_value: Option<f64>,
    /// `YYYY-MM`: the month I0 is of.
    pub base_index_month: Option<String>,
    pub visit_interval_days: Option<i64>,
    pub arrival_minutes: Option<i64>,
    pub arrival_out_of_hours_minutes: Option<i64>,
    pub trapped_person_minutes: Option<i64>,
    pub return_to_service_minutes: Option<i64>,
    pub weekend_coverage: Option<bool>,
    pub on_call_coverage: Option<bool>,
    /// Euros per hour late (started).
    pub penalty_per_late_hour: Option<f64>,
    pub notes: Option<String>,
}

/// A termination as received.
#[derive(Debug, Clone, Default)]
pub struct TerminationInput {
    /// The day the notice was given (today when absent).
    pub notice_on: Option<String>,
    /// An earlier last day agreed with the client (the notice's end when
    /// absent).
    pub ends_on: Option<String>,
    pub reason: String,
}

/// A contract read: its row, its lifts, and what its terms give today.
#[derive(Debug, Clone)]
pub struct ContractDetail {
    pub row: ContractRow,
    pub lifts: Vec<ContractLiftRow>,
    pub dates: ContractDates,
    /// The actions its status and dates allow today.
    pub actions: Vec<ContractAction>,
}

/// The dates a contract's terms give on a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractDates {
    pub first_end: NaiveDate,
    /// The term running (or the first, before the start).
    pub term: (NaiveDate, NaiveDate),
    /// The last day a notice ends the contract at the end of that term;
    /// none once the contract has ended or without tacit renewal.
    pub notice_deadline: Option<NaiveDate>,
    /// The last day covered, when known.
    pub last_day: Option<NaiveDate>,
    /// Whether it covers its lifts today.
    pub covering: bool,
    /// The year's price excluding tax (the price of a lift times the lifts).
    pub annual_total: Cents,
}

fn not_found() -> AppError {
    AppError::not_found("Contrat introuvable dans cette agence.")
}

/// A contract's terms, from its stored fields.
pub fn terms_of(fields: &ContractFields) -> Terms {
    Terms {
        start: day::read(&fields.start_on).unwrap_or(NaiveDate::MIN),
        duration_months: u32::try_from(fields.duration_months).unwrap_or(12),
        tacit_renewal: fields.tacit_renewal,
        renewal_months: u32::try_from(fields.renewal_months).unwrap_or(12),
        notice_months: u32::try_from(fields.notice_months).unwrap_or(0),
    }
}

/// What a contract's terms give on `today`.
pub fn dates_of(row: &ContractRow, today: NaiveDate) -> ContractDates {
    let terms = terms_of(&row.fields);
    let ends_on = row.ends_on.as_deref().and_then(day::read);
    let last_day = contract::last_day(row.status, &terms, ends_on);
    let term = terms.term_on(today);
    let running = matches!(
        row.status,
        ContractStatus::Brouillon | ContractStatus::Actif
    );
    let units = match row.fields.price_basis {
        PriceBasis::ParAppareil => row.lifts,
        PriceBasis::Global => 1,
    };
    ContractDates {
        first_end: terms.first_end(),
        term,
        notice_deadline: (running && terms.tacit_renewal).then(|| terms.notice_deadline(term.1)),
        last_day,
        covering: contract::covers_on(row.status, &terms, ends_on, today),
        annual_total: Cents::new(row.fields.annual_price_cents.saturating_mul(units)),
    }
}

/// The actions a contract's status and dates allow on `today`.
pub fn actions_of(row: &ContractRow, today: NaiveDate) -> Vec<ContractAction> {
    ContractAction::ALL
        .iter()
        .copied()
        .filter(|&action| contract::transition(row.status, action).is_ok())
        .filter(|&action| match action {
            ContractAction::Expire => terms_of(&row.fields).check_expiry(today).is_ok(),
            ContractAction::Terminate => terms_of(&row.fields).termination_end(today, None).is_ok(),
            ContractAction::Activate => true,
        })
        .collect()
}

fn today_of(tx_now: chrono::DateTime<chrono::Utc>) -> NaiveDate {
    time::paris_local(tx_now).date()
}

// ---------------------------------------------------------------------------
// Input checks
// ---------------------------------------------------------------------------

/// A day `YYYY-MM-DD` of the field `field`, refused in French (422).
pub(crate) fn parse_day(field: &str, raw: &str) -> AppResult<NaiveDate> {
    day::parse(raw).map_err(|error| {
        AppError::unprocessable(match error {
            DayError::Malformed => format!(
                "Le champ « {field} » doit être une date AAAA-MM-JJ, par exemple 2027-01-01 (reçu : « {raw} »)."
            ),
            DayError::Impossible => {
                format!("Le champ « {field} » n'est pas une date qui existe : « {raw} ».")
            }
        })
    })
}

/// A code of the closed set `T` (its default when absent), refused in
/// French naming the field and the codes (422).
pub(crate) fn code_of<T: crate::domain::WireCode>(
    field: &str,
    raw: Option<&str>,
    default: T,
) -> AppResult<T> {
    match raw {
        None => Ok(default),
        Some(raw) => T::from_code(raw).ok_or_else(|| {
            AppError::unprocessable(format!(
                "Valeur inconnue pour « {field} » : « {raw} ». Valeurs possibles : {}.",
                T::CODES.join(", ")
            ))
        }),
    }
}

/// How a contract's (or an index value's) refusals name its fields: the
/// REST API, MCP and the web application by their JSON names
/// ([`json_name`]: `durationMonths`), an import by its fields' French names
/// (« Durée »). The rules and their
/// sentences are the same whoever calls.
pub type FieldNames<'a> = &'a dyn Fn(&'static str) -> String;

/// A field named by its JSON name (`ContractBody`'s).
pub fn json_name(field: &'static str) -> String {
    field.to_owned()
}

/// A refusal of a contract's input (or of an index value's), and the field
/// it is about (its JSON name) when it is about one: an import names the
/// column.
#[derive(Debug)]
pub struct InputRefusal {
    pub field: Option<&'static str>,
    pub error: AppError,
}

impl InputRefusal {
    fn of(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field: Some(field),
            error: AppError::unprocessable(message),
        }
    }

    /// The refusal `error`, about `field`.
    fn at(field: &'static str) -> impl FnOnce(AppError) -> Self {
        move |error| Self {
            field: Some(field),
            error,
        }
    }
}

impl From<AppError> for InputRefusal {
    fn from(error: AppError) -> Self {
        Self { field: None, error }
    }
}

impl From<crate::store::StoreError> for InputRefusal {
    fn from(err: crate::store::StoreError) -> Self {
        Self {
            field: None,
            error: err.into(),
        }
    }
}

impl From<InputRefusal> for AppError {
    fn from(refusal: InputRefusal) -> Self {
        refusal.error
    }
}

fn bounded(
    names: FieldNames<'_>,
    field: &'static str,
    value: Option<i64>,
    default: u32,
    min: u32,
    max: u32,
    unit: &str,
) -> Result<i64, InputRefusal> {
    let value = value.unwrap_or(i64::from(default));
    if value < i64::from(min) || value > i64::from(max) {
        return Err(InputRefusal::of(
            field,
            format!(
                "Le champ « {} » doit être compris entre {min} et {max} {unit} (reçu : {value}).",
                names(field)
            ),
        ));
    }
    Ok(value)
}

fn euros(field: &str, value: f64, max: i64) -> AppResult<Cents> {
    Cents::from_euros(value)
        .filter(|c| c.get() >= 0 && c.get() <= max)
        .ok_or_else(|| {
            AppError::unprocessable(format!(
                "Le champ « {field} » doit être un montant en euros, positif, d'au plus deux décimales et d'au plus {} (reçu : {value}).",
                Cents::new(max).french()
            ))
        })
}

/// A contract's VAT rate: one of the invoices' rates but 0 (a maintenance
/// contract is not exempt; a 0 % line would need an exemption reason on
/// every invoice).
fn vat_rate_bp(field: &str, value: Option<f64>) -> AppResult<i64> {
    let Some(rate) = value else {
        return Ok(i64::from(DEFAULT_VAT_RATE_BP));
    };
    let bp = (rate * 100.0).round();
    VAT_RATES_BP
        .iter()
        .filter(|&&allowed| allowed > 0)
        .find(|&&allowed| f64::from(allowed) == bp && (rate * 100.0 - bp).abs() < 1e-6)
        .map(|&allowed| i64::from(allowed))
        .ok_or_else(|| {
            AppError::unprocessable(format!(
                "Taux de TVA refusé pour « {field} » : {rate}. Un contrat d'entretien se facture à 20, 10, 5,5 ou 2,1 %."
            ))
        })
}

fn optional_text(field: &str, raw: Option<&str>, max: usize) -> AppResult<Option<String>> {
    let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > max {
        return Err(AppError::unprocessable(format!(
            "Le champ « {field} » compte au plus {max} caractères (reçu : {}).",
            text.chars().count()
        )));
    }
    Ok(Some(text.to_owned()))
}

/// A contract's input checked, apart from what needs the database.
struct Checked {
    /// The client's reference (`client_id` on the wire), resolved to its
    /// id in `fields` by [`check_records`].
    client_ref: String,
    fields: ContractFields,
    lifts: Vec<EquipmentId>,
}

fn check_input(input: &ContractInput, names: FieldNames<'_>) -> Result<Checked, InputRefusal> {
    if input.client_id.trim().is_empty() {
        return Err(InputRefusal::of(
            "clientId",
            format!("Le champ « {} » est obligatoire.", names("clientId")),
        ));
    }
    if input.lift_ids.is_empty() {
        return Err(InputRefusal::of(
            "liftIds",
            format!(
                "Un contrat couvre au moins un appareil : « {} » ne peut être vide.",
                names("liftIds")
            ),
        ));
    }
    if input.lift_ids.len() > MAX_LIFTS {
        return Err(InputRefusal::of(
            "liftIds",
            format!(
                "Un contrat couvre au plus {MAX_LIFTS} appareils (reçu : {}).",
                input.lift_ids.len()
            ),
        ));
    }
    let mut lifts: Vec<EquipmentId> = Vec::with_capacity(input.lift_ids.len());
    for raw in &input.lift_ids {
        let id = EquipmentId::new(raw.trim().to_owned());
        if id.as_str().is_empty() {
            return Err(InputRefusal::of(
                "liftIds",
                format!(
                    "Un identifiant d'appareil de « {} » est vide.",
                    names("liftIds")
                ),
            ));
        }
        if lifts.contains(&id) {
            return Err(InputRefusal::of(
                "liftIds",
                format!(
                    "L'appareil « {id} » figure deux fois dans « {} ».",
                    names("liftIds")
                ),
            ));
        }
        lifts.push(id);
    }
    let contract_type = ContractType::parse(&input.contract_type).ok_or_else(|| {
        InputRefusal::of(
            "type",
            format!(
                "Type de contrat inconnu : « {} ». Valeurs possibles : {}.",
                input.contract_type,
                ContractType::CODES.join(", ")
            ),
        )
    })?;
    let start =
        parse_day(&names("startOn"), &input.start_on).map_err(InputRefusal::at("startOn"))?;
    let duration_months = bounded(
        names,
        "durationMonths",
        input.duration_months,
        DEFAULT_DURATION_MONTHS,
        contract::MIN_DURATION_MONTHS,
        contract::MAX_DURATION_MONTHS,
        "mois (la loi demande un contrat d'un an au moins)",
    )?;
    let renewal_months = bounded(
        names,
        "renewalMonths",
        input.renewal_months,
        12,
        contract::MIN_RENEWAL_MONTHS,
        contract::MAX_RENEWAL_MONTHS,
        "mois",
    )?;
    let notice_months = bounded(
        names,
        "noticeMonths",
        input.notice_months,
        DEFAULT_NOTICE_MONTHS,
        0,
        contract::MAX_NOTICE_MONTHS,
        "mois",
    )?;
    let price_basis = code_of(
        &names("priceBasis"),
        input.price_basis.as_deref(),
        PriceBasis::ParAppareil,
    )
    .map_err(InputRefusal::at("priceBasis"))?;
    let annual = euros(
        &names("annualPrice"),
        input.annual_price,
        MAX_ANNUAL_PRICE_CENTS,
    )
    .map_err(InputRefusal::at("annualPrice"))?;
    let billing_frequency = code_of(
        &names("billingFrequency"),
        input.billing_frequency.as_deref(),
        BillingFrequency::Trimestrielle,
    )
    .map_err(InputRefusal::at("billingFrequency"))?;
    let billing_timing = code_of(
        &names("billingTiming"),
        input.billing_timing.as_deref(),
        BillingTiming::TermeAEchoir,
    )
    .map_err(InputRefusal::at("billingTiming"))?;
    let vat_rate_bp =
        vat_rate_bp(&names("vatRate"), input.vat_rate).map_err(InputRefusal::at("vatRate"))?;
    let price_index = match input
        .price_index
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        None => None,
        Some(raw) => Some(
            contract::check_index_code(raw)
                .map_err(|message| InputRefusal::of("priceIndex", message))?,
        ),
    };
    let base_index_value = match (&price_index, input.base_index_value) {
        (None, None) => None,
        (Some(_), Some(value)) => Some(
            IndexValue::from_number(value)
                .ok_or_else(|| {
                    InputRefusal::of(
                        "baseIndexValue",
                        format!(
                            "La valeur de base de l'indice (« {} ») doit être un nombre positif d'au plus {} décimales (reçu : {value}).",
                            names("baseIndexValue"),
                            contract::INDEX_DECIMALS
                        ),
                    )
                })?
                .ten_thousandths(),
        ),
        (Some(index), None) => {
            return Err(InputRefusal::of(
                "baseIndexValue",
                format!(
                    "La révision par l'indice {index} demande sa valeur de base I0 (« {} »).",
                    names("baseIndexValue")
                ),
            ));
        }
        (None, Some(_)) => {
            return Err(InputRefusal::of(
                "baseIndexValue",
                format!(
                    "Une valeur de base (« {} ») demande l'indice qu'elle mesure (« {} »).",
                    names("baseIndexValue"),
                    names("priceIndex")
                ),
            ));
        }
    };
    let base_index_month = match (
        &price_index,
        input.base_index_month.as_deref().map(str::trim),
    ) {
        (None, None | Some("")) => None,
        (Some(_), Some(raw)) if !raw.is_empty() => {
            let month = contract::parse_month(raw).ok_or_else(|| {
                InputRefusal::of(
                    "baseIndexMonth",
                    format!(
                        "Le mois de la valeur de base (« {} ») s'écrit AAAA-MM, par exemple 2026-12 (reçu : « {raw} »).",
                        names("baseIndexMonth")
                    ),
                )
            })?;
            Some(contract::month_text(month))
        }
        (Some(index), _) => {
            return Err(InputRefusal::of(
                "baseIndexMonth",
                format!(
                    "La révision par l'indice {index} demande le mois de sa valeur de base I0 (« {} », AAAA-MM) : chaque révision lit la valeur du même mois, les années suivantes.",
                    names("baseIndexMonth")
                ),
            ));
        }
        (None, Some(_)) => {
            return Err(InputRefusal::of(
                "baseIndexMonth",
                format!(
                    "Un mois de valeur de base (« {} ») demande l'indice qu'il date (« {} »).",
                    names("baseIndexMonth"),
                    names("priceIndex")
                ),
            ));
        }
    };
    let visit_interval_days = bounded(
        names,
        "visitIntervalDays",
        input.visit_interval_days,
        contract::MAX_VISIT_INTERVAL_DAYS,
        contract::MIN_VISIT_INTERVAL_DAYS,
        contract::MAX_VISIT_INTERVAL_DAYS,
        "jours (la loi demande une visite toutes les six semaines au moins)",
    )?;
    let minutes = |field: &'static str, value: Option<i64>, default: u32| {
        bounded(
            names,
            field,
            value,
            default,
            contract::MIN_RESPONSE_MINUTES,
            contract::MAX_RESPONSE_MINUTES,
            "minutes",
        )
    };
    let arrival_minutes = minutes(
        "arrivalMinutes",
        input.arrival_minutes,
        DEFAULT_ARRIVAL_MINUTES,
    )?;
    let trapped_minutes = minutes(
        "trappedPersonMinutes",
        input.trapped_person_minutes,
        DEFAULT_TRAPPED_MINUTES,
    )?;
    let restore_minutes = minutes(
        "returnToServiceMinutes",
        input.return_to_service_minutes,
        DEFAULT_RESTORE_MINUTES,
    )?;
    let weekend_coverage = input.weekend_coverage.unwrap_or(false);
    let on_call_coverage = input.on_call_coverage.unwrap_or(false);
    let arrival_out_of_hours_minutes = match input.arrival_out_of_hours_minutes {
        None if weekend_coverage || on_call_coverage => {
            return Err(InputRefusal::of(
                "arrivalOutOfHoursMinutes",
                format!(
                    "Un contrat couvrant les nuits (astreinte) ou le week-end précise le délai d'arrivée hors heures ouvrées (« {} »).",
                    names("arrivalOutOfHoursMinutes")
                ),
            ));
        }
        None => None,
        Some(_) if !(weekend_coverage || on_call_coverage) => {
            return Err(InputRefusal::of(
                "arrivalOutOfHoursMinutes",
                format!(
                    "Sans astreinte ni week-end couverts (« {} », « {} »), le contrat ne prend aucun engagement hors heures ouvrées : retirez « {} ».",
                    names("onCallCoverage"),
                    names("weekendCoverage"),
                    names("arrivalOutOfHoursMinutes")
                ),
            ));
        }
        Some(value) => Some(minutes("arrivalOutOfHoursMinutes", Some(value), 0)?),
    };
    if trapped_minutes > arrival_minutes
        || arrival_out_of_hours_minutes.is_some_and(|out| trapped_minutes > out)
    {
        return Err(InputRefusal::of(
            "trappedPersonMinutes",
            format!(
                "Une personne bloquée passe avant tout : son délai (« {} », {trapped_minutes} minutes) ne peut dépasser celui d'une arrivée sur panne.",
                names("trappedPersonMinutes")
            ),
        ));
    }
    let penalty = match input.penalty_per_late_hour {
        None => Cents::ZERO,
        Some(value) => euros(&names("penaltyPerLateHour"), value, MAX_PENALTY_CENTS)
            .map_err(InputRefusal::at("penaltyPerLateHour"))?,
    };
    let notes = optional_text(&names("notes"), input.notes.as_deref(), MAX_NOTES_CHARS)
        .map_err(InputRefusal::at("notes"))?;
    Ok(Checked {
        client_ref: input.client_id.trim().to_owned(),
        fields: ContractFields {
            client_id: ClientId::new(String::new()),
            contract_type,
            start_on: day::iso(start),
            duration_months,
            tacit_renewal: input.tacit_renewal.unwrap_or(true),
            renewal_months,
            notice_months,
            price_basis,
            annual_price_cents: annual.get(),
            billing_frequency,
            billing_timing,
            vat_rate_bp,
            price_index,
            base_index_value,
            base_index_month,
            visit_interval_days,
            arrival_minutes,
            arrival_out_of_hours_minutes,
            trapped_minutes,
            restore_minutes,
            weekend_coverage,
            on_call_coverage,
            penalty_per_hour_cents: penalty.get(),
            notes,
        },
        lifts,
    })
}

/// The checks that read the agency's records: the client (of the agency,
/// not deleted) and each lift (of the agency, not archived, of no other
/// client).
fn check_records(
    conn: &Conn,
    agency_id: &AgencyId,
    checked: &mut Checked,
) -> Result<(), InputRefusal> {
    let client = clients::find_by_ref(conn, agency_id, &checked.client_ref)?.ok_or_else(|| {
        InputRefusal::of(
            "clientId",
            format!(
                "Client introuvable dans cette agence : « {} ».",
                checked.client_ref
            ),
        )
    })?;
    if client.supprime {
        return Err(InputRefusal::of(
            "clientId",
            format!(
                "Le client « {} » est archivé : il ne peut prendre de contrat.",
                client.nom
            ),
        ));
    }
    checked.fields.client_id = client.id.clone();
    for id in &checked.lifts {
        let lift = store::find_lift(conn, agency_id, id)?.ok_or_else(|| {
            InputRefusal::of(
                "liftIds",
                format!("Appareil introuvable dans cette agence : « {id} »."),
            )
        })?;
        let name = lift.number.clone().unwrap_or_else(|| id.to_string());
        if lift.archived {
            return Err(InputRefusal::of(
                "liftIds",
                format!("L'appareil {name} est archivé : il ne peut entrer dans un contrat."),
            ));
        }
        if let Some(owner) = &lift.client_id
            && owner != &client.id
        {
            return Err(InputRefusal::of(
                "liftIds",
                format!(
                    "L'appareil {name} appartient à un autre client que « {} » : un contrat ne couvre que les appareils de son client.",
                    client.nom
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses (409) a contract whose lifts another contract covers from
/// `start_on`: one in force, or one terminated whose last day comes later.
fn check_coverage_free(conn: &Conn, id: &ContractId, start_on: &str) -> AppResult<()> {
    let Some(overlap) = store::overlaps(conn, id, start_on)?.into_iter().next() else {
        return Ok(());
    };
    let lift = overlap.equipment_number.as_deref().unwrap_or("?");
    Err(AppError::conflict(
        match (&overlap.status, &overlap.ends_on) {
            (ContractStatus::Resilie, Some(ends_on)) => format!(
                "L'appareil {lift} reste couvert par le contrat {} jusqu'au {} inclus : ce contrat ne peut commencer avant le lendemain.",
                overlap.contract_number,
                day::french_from_stored(ends_on)
            ),
            _ => format!(
                "L'appareil {lift} est déjà couvert par le contrat actif {} : un appareil est sous un seul contrat en vigueur (s'il a pris fin, constatez son échéance ou résiliez-le d'abord).",
                overlap.contract_number
            ),
        },
    ))
}

/// Refuses (409) a draft sharing a lift with another draft: what an import
/// brings is each lift's one contract.
fn check_no_other_draft(conn: &Conn, id: &ContractId) -> AppResult<()> {
    let Some(other) = store::draft_overlaps(conn, id)?.into_iter().next() else {
        return Ok(());
    };
    Err(AppError::conflict(format!(
        "L'appareil {} figure déjà dans le contrat {}, un brouillon : un appareil est sous un seul contrat (modifiez, activez ou supprimez ce brouillon plutôt que d'en créer un autre).",
        other.equipment_number.as_deref().unwrap_or("?"),
        other.contract_number
    )))
}

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

/// Creates a draft contract numbered `CT-AAAA-NNNNN`; returns its id.
pub async fn create(store: &Store, p: &Principal, input: ContractInput) -> AppResult<ContractId> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let p = p.clone();
    store.write(move |tx| create_in(tx, &p, &input)).await
}

/// [`create`]'s step in `tx`.
pub fn create_in(tx: &Tx, p: &Principal, input: &ContractInput) -> AppResult<ContractId> {
    Ok(draft_in(tx, p, input, &json_name, false)?)
}

/// A draft brought by an import (`services::imports`), in `tx`: the checks,
/// sentences and journal entry of [`create_in`], its refusals naming the
/// fields by `names` and saying which field they are about; and each of its
/// lifts under no other contract from its start, not even a draft (an
/// import brings each lift's one contract: the same file imported again
/// is refused, not duplicated).
pub fn import_in(
    tx: &Tx,
    p: &Principal,
    input: &ContractInput,
    names: FieldNames<'_>,
) -> Result<ContractId, InputRefusal> {
    draft_in(tx, p, input, names, true)
}

fn draft_in(
    tx: &Tx,
    p: &Principal,
    input: &ContractInput,
    names: FieldNames<'_>,
    sole: bool,
) -> Result<ContractId, InputRefusal> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let mut checked = check_input(input, names)?;
    check_records(tx, agency_id, &mut checked)?;
    let now = tx.now();
    let at = clock::format_timestamp(now);
    let number = store::next_number(tx, agency_id, time::paris_local(now).year())?;
    let id = store::insert(tx, agency_id, &number, &checked.fields, &at)?;
    store::set_lifts(tx, &id, &checked.lifts)?;
    if sole {
        check_coverage_free(tx, &id, &checked.fields.start_on)
            .and_then(|()| check_no_other_draft(tx, &id))
            .map_err(InputRefusal::at("liftIds"))?;
    }
    p.record(
        tx,
        "contract",
        id.as_str(),
        "creation",
        json!({
            "number": number,
            "client": checked.client_ref,
            "type": checked.fields.contract_type.as_str(),
            "lifts": checked.lifts.len(),
            "annualPriceCents": checked.fields.annual_price_cents,
        }),
    )?;
    Ok(id)
}

/// Replaces what a draft says (422 once it is in force).
pub async fn update(
    store: &Store,
    p: &Principal,
    id: &ContractId,
    input: ContractInput,
) -> AppResult<ContractId> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.to_owned();
    let p = p.clone();
    let id = id.clone();
    store
        .write(move |tx| {
            let row = store::get(tx, &agency_id, &id)?.ok_or_else(not_found)?;
            if !contract::is_editable(row.status) {
                return Err(AppError::unprocessable(format!(
                    "Le contrat {} est au statut « {} » : seul un brouillon se modifie ; ce que le client a signé reste tel quel.",
                    row.number,
                    row.status.label()
                )));
            }
            let mut checked = check_input(&input, &json_name)?;
            check_records(tx, &agency_id, &mut checked)?;
            let at = clock::format_timestamp(tx.now());
            store::update(tx, &id, &checked.fields, &at)?;
            store::set_lifts(tx, &id, &checked.lifts)?;
            p.record(
                tx,
                "contract",
                id.as_str(),
                "modification",
                json!({ "number": row.number, "lifts": checked.lifts.len() }),
            )?;
            Ok(id)
        })
        .await
}

/// Deletes a draft (422 once it is in force: it stays, ended).
pub async fn delete(store: &Store, p: &Principal, id: &ContractId) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.to_owned();
    let p = p.clone();
    let id = id.clone();
    store
        .write(move |tx| {
            let row = store::get(tx, &agency_id, &id)?.ok_or_else(not_found)?;
            if !contract::is_editable(row.status) {
                return Err(AppError::unprocessable(format!(
                    "Le contrat {} est au statut « {} » : seul un brouillon se supprime ; un contrat signé se résilie.",
                    row.number,
                    row.status.label()
                )));
            }
            store::delete(tx, &id)?;
            p.record(
                tx,
                "contract",
                id.as_str(),
                "suppression",
                json!({ "number": row.number }),
            )
        })
        .await
}

/// Puts a draft in force: each lift of the agency, not archived, under no
/// other contract from its start; the lifts get its number and its visit
/// interval (the maintenance plan's).
pub async fn activate(store: &Store, p: &Principal, id: &ContractId) -> AppResult<ContractId> {
    act(store, p, id, ContractAction::Activate, None).await
}

/// Records a notice: the contract ends on the day the notice gives, or
/// earlier by agreement.
pub async fn terminate(
    store: &Store,
    p: &Principal,
    id: &ContractId,
    input: TerminationInput,
) -> AppResult<ContractId> {
    act(store, p, id, ContractAction::Terminate, Some(input)).await
}

/// Records that a contract without tacit renewal reached the end of its
/// term.
pub async fn expire(store: &Store, p: &Principal, id: &ContractId) -> AppResult<ContractId> {
    act(store, p, id, ContractAction::Expire, None).await
}

async fn act(
    store: &Store,
    p: &Principal,
    id: &ContractId,
    action: ContractAction,
    termination: Option<TerminationInput>,
) -> AppResult<ContractId> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let p = p.clone();
    let id = id.clone();
    store
        .write(move |tx| act_in(tx, &p, &id, action, termination.as_ref()))
        .await
}

/// [`activate`], [`terminate`] and [`expire`]'s step in `tx`.
pub fn act_in(
    tx: &Tx,
    p: &Principal,
    id: &ContractId,
    action: ContractAction,
    termination: Option<&TerminationInput>,
) -> AppResult<ContractId> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let row = store::get(tx, agency_id, id)?.ok_or_else(not_found)?;
    let next = contract::transition(row.status, action)
        .map_err(|err| AppError::unprocessable(err.to_string()))?;
    let now = tx.now();
    let at = clock::format_timestamp(now);
    let today = today_of(now);
    let terms = terms_of(&row.fields);
    let detail = match action {
        ContractAction::Activate => {
            let lifts = store::lifts(tx, id)?;
            if let Some(lift) = lifts.iter().find(|l| l.archived) {
                return Err(AppError::unprocessable(format!(
                    "L'appareil {} est archivé : retirez-le du contrat avant de l'activer.",
                    lift.number.as_deref().unwrap_or(lift.equipment_id.as_str())
                )));
            }
            check_coverage_free(tx, id, &row.fields.start_on)?;
            store::activate(tx, &row, &at).map_err(|err| {
                err.on_constraint("contract_equipment.equipment_id", || {
                    AppError::conflict(
                        "Un appareil de ce contrat est déjà couvert par un autre contrat actif.",
                    )
                })
            })?;
            json!({ "number": row.number, "lifts": lifts.len(), "startOn": row.fields.start_on })
        }
        ContractAction::Terminate => {
            let input = termination.cloned().unwrap_or_default();
            let reason = optional_text("reason", Some(&input.reason), MAX_REASON_CHARS)?
                .ok_or_else(|| {
                    AppError::unprocessable(
                        "Le motif de la résiliation (« reason ») est obligatoire.",
                    )
                })?;
            let notice_on = match input.notice_on.as_deref() {
                None => today,
                Some(raw) => parse_day("noticeOn", raw)?,
            };
            if notice_on > today {
                return Err(AppError::unprocessable(format!(
                    "Le préavis (« noticeOn ») ne peut être daté du futur (aujourd'hui : {}).",
                    day::french(today)
                )));
            }
            let requested = input
                .ends_on
                .as_deref()
                .map(|raw| parse_day("endsOn", raw))
                .transpose()?;
            let ends_on = terms
                .termination_end(notice_on, requested)
                .map_err(|refusal| AppError::unprocessable(refusal.0))?;
            store::end(
                tx,
                id,
                next,
                Some(&day::iso(notice_on)),
                &day::iso(ends_on),
                Some(&reason),
                &at,
            )?;
            json!({
                "number": row.number,
                "noticeOn": day::iso(notice_on),
                "endsOn": day::iso(ends_on),
                "reason": reason,
            })
        }
        ContractAction::Expire => {
            let end = terms
                .check_expiry(today)
                .map_err(|refusal| AppError::unprocessable(refusal.0))?;
            store::end(tx, id, next, None, &day::iso(end), None, &at)?;
            json!({ "number": row.number, "endsOn": day::iso(end) })
        }
    };
    let journal_action = match action {
        ContractAction::Activate => "activation",
        ContractAction::Terminate => "resiliation",
        ContractAction::Expire => "echeance",
    };
    p.record(tx, "contract", id.as_str(), journal_action, detail)?;
    if action != ContractAction::Activate {
        // Ended before today: its lifts leave the park at once.
        release_ended_in(tx, Some(agency_id))?;
    }
    Ok(id.clone())
}

/// A contract of the agency, with its lifts and dates.
pub async fn get(store: &Store, p: &Principal, id: &ContractId) -> AppResult<ContractDetail> {
    let agency_id = p.agency_id()?.to_owned();
    let id = id.clone();
    let today = today_of(store.now());
    store
        .read(move |conn| detail_in(conn, &agency_id, &id, today))
        .await
}

/// [`get`]'s step on `conn`.
pub fn detail_in(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &ContractId,
    today: NaiveDate,
) -> AppResult<ContractDetail> {
    let row = store::get(conn, agency_id, id)?.ok_or_else(not_found)?;
    let lifts = store::lifts(conn, id)?;
    Ok(ContractDetail {
        dates: dates_of(&row, today),
        actions: actions_of(&row, today),
        row,
        lifts,
    })
}

/// The list's filters as received.
#[derive(Debug, Clone, Default)]
pub struct ListInput {
    pub status: Option<String>,
    pub client_id: Option<String>,
    pub equipment_id: Option<String>,
    pub q: Option<String>,
}

/// Characters of a list's text search, at most.
pub const MAX_SEARCH_CHARS: usize = 100;

/// A page of the agency's contracts, newest number first, with the dates
/// their terms give today.
pub async fn list(
    store: &Store,
    p: &Principal,
    input: ListInput,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<(ContractRow, ContractDates)>)> {
    let agency_id = p.agency_id()?.to_owned();
    let status = input
        .status
        .as_deref()
        .map(|raw| code_of("status", Some(raw), ContractStatus::Brouillon))
        .transpose()?;
    let text = match input.q.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(q) if q.chars().count() > MAX_SEARCH_CHARS => {
            return Err(AppError::bad_request(format!(
                "La recherche « q » compte au plus {MAX_SEARCH_CHARS} caractères."
            )));
        }
        other => other.map(str::to_owned),
    };
    let filter = ContractFilter {
        status,
        client_ref: input.client_id.filter(|c| !c.is_empty()),
        equipment_id: input
            .equipment_id
            .filter(|e| !e.is_empty())
            .map(EquipmentId::new),
        text,
    };
    let today = today_of(store.now());
    store
        .read(move |conn| {
            let (total, rows) = store::list(conn, &agency_id, &filter, limit, offset)?;
            let rows = rows
                .into_iter()
                .map(|row| {
                    let dates = dates_of(&row, today);
                    (row, dates)
                })
                .collect();
            Ok((total, rows))
        })
        .await
}

/// Takes out of the park the lifts of the contracts whose last day has
/// passed (terminated or expired) and that no other contract covers: they
/// leave the maintenance plan (`hors_parc`, their last contract's number
/// kept), each contract with its journal entry. Run by the server every
/// minute and right after an expiry; answers how many lifts left.
pub async fn release_ended(store: &Store) -> AppResult<usize> {
    let today = day::iso(today_of(store.now()));
    let pending = store
        .read(move |conn| Ok::<_, AppError>(!store::ended_coverage(conn, &today, None)?.is_empty()))
        .await?;
    if !pending {
        return Ok(0);
    }
    store.write(|tx| release_ended_in(tx, None)).await
}

/// [`release_ended`]'s step in `tx`, on its day: of one agency, or of every
/// agency.
pub fn release_ended_in(tx: &Tx, agency_id: Option<&AgencyId>) -> AppResult<usize> {
    let now = tx.now();
    let today = day::iso(today_of(now));
    let at = clock::format_timestamp(now);
    let mut released = 0;
    for ended in store::ended_coverage(tx, &today, agency_id)? {
        store::leave_park(tx, &ended.lifts, &at)?;
        crate::store::audit::record(
            tx,
            crate::store::audit::AuditEntry {
                agency_id: Some(ended.agency_id.as_str()),
                actor: &crate::store::audit::Actor::System,
                action: "fin_couverture",
                object_type: "contract",
                object_id: Some(ended.contract_id.as_str()),
                detail: Some(json!({
                    "number": ended.number,
                    "endsOn": ended.ends_on,
                    "lifts": ended.lifts,
                })),
            },
        )?;
        released += ended.lifts.len();
    }
    Ok(released)
}

// ---------------------------------------------------------------------------
// Price indexes
// ---------------------------------------------------------------------------

/// An index value as received.
#[derive(Debug, Clone, Default)]
pub struct IndexValueInput {
    pub index: String,
    /// `YYYY-MM`.
    pub month: String,
    pub value: f64,
}

/// Records (or corrects) the value of an index for a month; returns it as
/// stored.
pub async fn record_index_value(
    store: &Store,
    p: &Principal,
    input: IndexValueInput,
) -> AppResult<IndexValueRow> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let p = p.clone();
    store
        .write(move |tx| record_index_value_in(tx, &p, &input))
        .await
}

/// [`record_index_value`]'s step in `tx`.
pub fn record_index_value_in(
    tx: &Tx,
    p: &Principal,
    input: &IndexValueInput,
) -> AppResult<IndexValueRow> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let value = check_index_value(input, &json_name)?;
    Ok(write_index_value_in(tx, p, &value)?.row)
}

/// An index value the rules of `POST /price-indexes` accepted: its code
/// upper case, its month `YYYY-MM` and its value. Only
/// [`check_index_value`] makes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedIndexValue {
    index: String,
    month: String,
    value: IndexValue,
}

impl CheckedIndexValue {
    /// The index's code, upper case (`BT48`).
    pub fn index(&self) -> &str {
        &self.index
    }

    /// The month, `YYYY-MM`.
    pub fn month(&self) -> &str {
        &self.month
    }

    pub fn value(&self) -> IndexValue {
        self.value
    }
}

/// The rules of an index value, whoever records it: the code
/// (`contract::check_index_code`), the month `YYYY-MM`, the value positive
/// with four decimals at most. `names` names the fields in the refusals
/// (`index`, `month`, `value`: the REST API's by their JSON names, an
/// import by its columns' French names); each refusal says which field it
/// is about. The first refusal stops.
pub fn check_index_value(
    input: &IndexValueInput,
    names: FieldNames<'_>,
) -> Result<CheckedIndexValue, InputRefusal> {
    let index = contract::check_index_code(&input.index)
        .map_err(|message| InputRefusal::of("index", message))?;
    let month = contract::parse_month(input.month.trim()).ok_or_else(|| {
        InputRefusal::of(
            "month",
            format!(
                "Le mois (« {} ») s'écrit AAAA-MM, par exemple 2027-01 (reçu : « {} »).",
                names("month"),
                input.month
            ),
        )
    })?;
    let value = IndexValue::from_number(input.value).ok_or_else(|| {
        InputRefusal::of(
            "value",
            format!(
                "La valeur de l'indice (« {} ») doit être un nombre positif d'au plus {} décimales (reçu : {}).",
                names("value"),
                contract::INDEX_DECIMALS,
                input.value
            ),
        )
    })?;
    Ok(CheckedIndexValue {
        index,
        month: contract::month_text(month),
        value,
    })
}

/// What recording an index value did: the value as stored, and the one it
/// replaced when its month had one (a correction).
#[derive(Debug, Clone)]
pub struct RecordedIndexValue {
    pub row: IndexValueRow,
    pub before: Option<IndexValue>,
}

/// Records a checked value in `tx`, for `p` in its agency (or corrects the
/// month's value), with its journal entry (`creation`, or `correction`
/// with the value replaced): what [`record_index_value`] and an import of
/// index values write.
pub fn write_index_value_in(
    tx: &Tx,
    p: &Principal,
    checked: &CheckedIndexValue,
) -> AppResult<RecordedIndexValue> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    let CheckedIndexValue {
        index,
        month,
        value,
    } = checked;
    let at = clock::format_timestamp(tx.now());
    let before =
        store::record_index_value(tx, agency_id, index, month, value.ten_thousandths(), &at)?
            .map(IndexValue::from_ten_thousandths);
    p.record(
        tx,
        "price_index",
        &format!("{index}/{month}"),
        if before.is_some() {
            "correction"
        } else {
            "creation"
        },
        json!({
            "index": index,
            "month": month,
            "value": value.number(),
            "before": before.map(IndexValue::number),
        }),
    )?;
    Ok(RecordedIndexValue {
        row: IndexValueRow {
            index_code: index.clone(),
            month: month.clone(),
            value: value.ten_thousandths(),
            recorded_at: at,
        },
        before,
    })
}

/// The agency's index values, by index, newest month first.
pub async fn index_values(
    store: &Store,
    p: &Principal,
    index: Option<String>,
) -> AppResult<Vec<IndexValueRow>> {
    let agency_id = p.agency_id()?.to_owned();
    let index = match index.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(raw) => Some(contract::check_index_code(raw).map_err(AppError::unprocessable)?),
    };
    store
        .read(move |conn| Ok(store::index_values(conn, &agency_id, index.as_deref())?))
        .await
}
