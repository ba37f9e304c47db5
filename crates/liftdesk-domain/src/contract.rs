//! Maintenance contracts (« contrats d'entretien », Code de la construction
//! et de l'habitation, R134-1 and following): what a contract is (its type,
//! its terms, its price and how it is billed and revised, its response-time
//! commitments), its life (`brouillon` → `actif` → `resilie` / `echu`) as a
//! state machine, and the pure arithmetic of its terms, its notice, its
//! billing periods, their proration and the yearly price revision
//! P = P0 × (I / I0).
//!
//! Every date is a calendar day of Paris; a term, a period or a coverage is
//! given by its first and last days, both included.

use chrono::{DateTime, Datelike, Months, NaiveDate, NaiveDateTime, Timelike, Utc};

use crate::day;
use crate::error::TransitionError;
use crate::money::Cents;

/// The law asks for a contract of at least one year.
pub const MIN_DURATION_MONTHS: u32 = 12;
/// A first term of ten years at most (a longer one is a typing error).
pub const MAX_DURATION_MONTHS: u32 = 120;
/// A tacit renewal's term: one month to five years.
pub const MIN_RENEWAL_MONTHS: u32 = 1;
pub const MAX_RENEWAL_MONTHS: u32 = 60;
/// The notice (« préavis ») of a termination: none to one year.
pub const MAX_NOTICE_MONTHS: u32 = 12;
/// The law asks for a visit at least every six weeks.
pub const MAX_VISIT_INTERVAL_DAYS: u32 = 42;
/// A visit every week at most often.
pub const MIN_VISIT_INTERVAL_DAYS: u32 = 7;
/// Response times: from 5 minutes to 7 days (in minutes).
pub const MIN_RESPONSE_MINUTES: u32 = 5;
pub const MAX_RESPONSE_MINUTES: u32 = 7 * 24 * 60;
/// The index values are read to four decimals (INSEE publishes one).
pub const INDEX_DECIMALS: usize = 4;
/// An index code: 1 to 30 letters, digits, `-`, `_` or `.` (`BT48`,
/// `ICHT-IME`).
pub const MAX_INDEX_CODE_CHARS: usize = 30;

wire_enum! {
    /// The periodic duties the law puts on every contract, beside the
    /// visits (Code de la construction, R134-2): each with its own
    /// deadline, done at a visit.
    pub enum Duty {
        Cables => "cables", "Contrôle des câbles";
        Parachute => "parachute", "Essai du parachute";
        Nettoyage => "nettoyage",
            "Nettoyage de la cuvette, du toit de cabine et du local des machines";
    }
}

/// The periodic duties of every contract.
pub const DUTIES: &[Duty] = Duty::ALL;

impl Duty {
    /// Months between two: the cables every six months, the safety gear
    /// and the cleaning every year.
    pub fn months(self) -> u32 {
        match self {
            Duty::Cables => 6,
            Duty::Parachute | Duty::Nettoyage => 12,
        }
    }

    /// The day it falls due on a lift: its period after it was last done
    /// there or, never done, after the start of the lift's plan.
    pub fn deadline(self, last_done_on: Option<NaiveDate>, plan_start: NaiveDate) -> NaiveDate {
        add_months(last_done_on.unwrap_or(plan_start), self.months())
    }
}

/// Whether a visit on `day` carries a duty due on `deadline`: it falls due
/// before the lift's next visit would (`interval_days` later), so leaving
/// it to that one would make it late. A visit after the deadline carries
/// it too (late: [`crate::visit::is_overdue`]).
pub fn duty_due_at(deadline: NaiveDate, day: NaiveDate, interval_days: u32) -> bool {
    day.checked_add_days(chrono::Days::new(interval_days.into()))
        .is_none_or(|next| deadline < next)
}

/// A working day's hours, Paris time: Monday to Friday, from 08:00 to
/// 18:00 (outside: nights; Saturday and Sunday: the week-end).
pub const WORKING_HOURS: (u32, u32) = (8, 18);

/// What a contract commits to after a call (its article 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseTerms {
    /// Arrival after a breakdown call in working hours.
    pub arrival_minutes: u32,
    /// Arrival out of working hours, when the contract covers them.
    pub out_of_hours_minutes: Option<u32>,
    /// Arrival for a trapped person, at any hour of any day.
    pub trapped_minutes: u32,
    /// Back in service after the call.
    pub restore_minutes: u32,
    /// The week-ends are covered (at `out_of_hours_minutes`).
    pub weekend: bool,
    /// The nights are covered by the on-call technician.
    pub on_call: bool,
}

/// When a call's commitments run out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallDeadlines {
    /// The technician on site.
    pub arrival: DateTime<Utc>,
    /// The lift back in service.
    pub restore: DateTime<Utc>,
}

/// Whether a Paris time is in working hours, a night, or a week-end.
fn working_hours_at(local: NaiveDateTime) -> Option<bool> {
    if local.weekday().number_from_monday() >= 6 {
        return None;
    }
    let hour = local.hour();
    Some(hour >= WORKING_HOURS.0 && hour < WORKING_HOURS.1)
}

/// The next opening of working hours at or after `local` (Paris time).
pub fn next_opening(local: NaiveDateTime) -> NaiveDateTime {
    if working_hours_at(local) == Some(true) {
        return local;
    }
    let mut day = local.date();
    for _ in 0..8 {
        if let Some(opening) = day.and_hms_opt(WORKING_HOURS.0, 0, 0)
            && day.weekday().number_from_monday() <= 5
            && opening >= local
        {
            return opening;
        }
        match day.succ_opt() {
            Some(next) => day = next,
            None => break,
        }
    }
    local
}

/// The arrival minutes the contract commits to for a breakdown call at the
/// Paris time `local`: in working hours, its arrival; at night with its
/// on-call, or at the week-end when covered, its out-of-hours delay; None
/// when it does not cover that time.
fn covered_at(terms: &ResponseTerms, local: NaiveDateTime) -> Option<u32> {
    match working_hours_at(local) {
        Some(true) => Some(terms.arrival_minutes),
        Some(false) if terms.on_call => terms.out_of_hours_minutes,
        None if terms.weekend => terms.out_of_hours_minutes,
        _ => None,
    }
}

/// The first Paris time at or after `local` the contract covers a
/// breakdown call, with its arrival minutes then (the coverage changes only
/// at 00:00, 08:00 and 18:00).
fn next_covered(terms: &ResponseTerms, local: NaiveDateTime) -> (NaiveDateTime, u32) {
    if let Some(minutes) = covered_at(terms, local) {
        return (local, minutes);
    }
    let mut day = local.date();
    for _ in 0..8 {
        for hour in [0, WORKING_HOURS.0, WORKING_HOURS.1] {
            if let Some(at) = day.and_hms_opt(hour, 0, 0)
                && at > local
                && let Some(minutes) = covered_at(terms, at)
            {
                return (at, minutes);
            }
        }
        match day.succ_opt() {
            Some(next) => day = next,
            None => break,
        }
    }
    (next_opening(local), terms.arrival_minutes)
}

/// The deadlines of a call received at `received` on a lift under a
/// contract of `terms`: a trapped person at any time, from the call; a
/// breakdown from the call when the contract covers that time (working
/// hours; nights by its on-call; week-ends), otherwise from the next time
/// it does (the next opening of working hours, or the start of a covered
/// night or week-end), at that time's delay. Back in service
/// `restore_minutes` after the same start.
pub fn call_deadlines(
    terms: &ResponseTerms,
    trapped: bool,
    received: DateTime<Utc>,
) -> CallDeadlines {
    let (start, arrival) = if trapped {
        (received, terms.trapped_minutes)
    } else {
        let local = crate::time::paris_local(received);
        let (at, minutes) = next_covered(terms, local);
        let start = if at == local {
            received
        } else {
            crate::time::paris_to_utc(at)
        };
        (start, minutes)
    };
    let after = |minutes: u32| start + chrono::Duration::minutes(i64::from(minutes));
    CallDeadlines {
        arrival: after(arrival),
        restore: after(terms.restore_minutes),
    }
}

/// Minutes past `due` at `done` (or, not done yet, at `now`); 0 in time.
pub fn minutes_late(due: DateTime<Utc>, done: Option<DateTime<Utc>>, now: DateTime<Utc>) -> i64 {
    (done.unwrap_or(now) - due).num_minutes().max(0)
}

/// The penalty of `minutes` late: `per_hour` for each hour begun.
pub fn late_penalty(per_hour: Cents, minutes: i64) -> Cents {
    let hours = (minutes.max(0) + 59) / 60;
    Cents::new(per_hour.get().saturating_mul(hours))
}

wire_enum! {
    /// Where a contract stands.
    pub enum ContractStatus {
        /// Being written: every field may change, nothing is covered or billed.
        Brouillon => "brouillon", "Brouillon";
        /// In force: its lifts are covered, it is billed and renewed.
        Actif => "actif", "Actif";
        /// Ended by a notice (or by agreement): covered and billed up to its
        /// last day (`endsOn`). Final.
        Resilie => "resilie", "Résilié";
        /// Reached the end of its term without tacit renewal. Final.
        Echu => "echu", "Échu";
    }
}

wire_enum! {
    /// What a contract includes, as the trade names its levels.
    pub enum ContractType {
        /// The law's duties only: visits, checks, cleaning. Breakdowns and
        /// parts are billed.
        Minimal => "minimal", "Minimal";
        /// The law's duties and the breakdown calls in working hours; parts
        /// are billed.
        Normal => "normal", "Normal";
        /// As `normal`, with the small wear parts (contacts, lamps, fuses,
        /// rollers, door shoes).
        Etendu => "etendu", "Étendu";
        /// Every breakdown and every part, big ones included, except
        /// vandalism and modernisation.
        Complet => "complet", "Complet";
    }
}

impl ContractType {
    /// What the type covers, in the words printed on the contract.
    pub fn coverage(self) -> &'static str {
        match self {
            ContractType::Minimal => {
                "Les obligations d'entretien de l'article R134-2 du Code de la construction et de l'habitation : visites périodiques, contrôles, essais et nettoyages. Les dépannages et les pièces remplacées sont facturés en sus."
            }
            ContractType::Normal => {
                "Les obligations d'entretien du contrat minimal, et les dépannages aux heures ouvrées. Les pièces remplacées sont facturées en sus."
            }
            ContractType::Etendu => {
                "Les prestations du contrat normal, et le remplacement des petites pièces d'usure (contacts, éclairage, fusibles, galets, patins de porte)."
            }
            ContractType::Complet => {
                "Tous les dépannages et le remplacement de toutes les pièces, y compris les pièces importantes (moteur, câbles, armoire de commande), hors vandalisme et modernisation."
            }
        }
    }
}

wire_enum! {
    /// What the annual price is of.
    pub enum PriceBasis {
        /// A price per lift: the contract's price is this times its lifts.
        ParAppareil => "par_appareil", "Par appareil";
        /// One price for the whole contract.
        Global => "global", "Global";
    }
}

wire_enum! {
    /// How often a contract is billed.
    pub enum BillingFrequency {
        Mensuelle => "mensuelle", "Mensuelle";
        Trimestrielle => "trimestrielle", "Trimestrielle";
        Semestrielle => "semestrielle", "Semestrielle";
        Annuelle => "annuelle", "Annuelle";
    }
}

impl BillingFrequency {
    /// Months of one billing period.
    pub fn months(self) -> u32 {
        match self {
            BillingFrequency::Mensuelle => 1,
            BillingFrequency::Trimestrielle => 3,
            BillingFrequency::Semestrielle => 6,
            BillingFrequency::Annuelle => 12,
        }
    }
}

wire_enum! {
    /// When a period is billed.
    pub enum BillingTiming {
        /// In advance, at the period's start (« terme à échoir »).
        TermeAEchoir => "terme_a_echoir", "Terme à échoir";
        /// In arrears, once the period has ended (« terme échu »).
        TermeEchu => "terme_echu", "Terme échu";
    }
}

wire_enum! {
    /// What can be done to a contract.
    pub enum ContractAction {
        /// Puts a draft in force.
        Activate => "activate", "Activer";
        /// Records a notice: the contract ends on the day it gives.
        Terminate => "terminate", "Résilier";
        /// Records that a contract without tacit renewal reached its end.
        Expire => "expire", "Constater l'échéance";
    }
}

impl ContractAction {
    fn after_impossible(self) -> &'static str {
        match self {
            ContractAction::Activate => "d'activer",
            ContractAction::Terminate => "de résilier",
            ContractAction::Expire => "de constater l'échéance de",
        }
    }
}

/// Checks an action against a contract's status; returns the new status.
/// The dates' part of an action (a term not yet ended, a notice) is
/// [`Terms::check_expiry`] and [`Terms::termination_end`].
///
/// Only a draft is put in force; only a contract in force ends, by a notice
/// (`resilie`) or at the end of a term it does not renew (`echu`). Both ends
/// are final: a client coming back signs a new contract.
pub fn transition(
    status: ContractStatus,
    action: ContractAction,
) -> Result<ContractStatus, TransitionError> {
    use ContractAction::*;
    use ContractStatus::*;
    let refused = |reason: &str| {
        Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            format!(
                "Action refusée : impossible {} ce contrat au statut « {} » : {reason}.",
                action.after_impossible(),
                status.label()
            ),
        ))
    };
    match (status, action) {
        (Brouillon, Activate) => Ok(Actif),
        (Brouillon, Terminate | Expire) => refused(
            "un contrat en brouillon n'est pas en vigueur ; supprimez-le s'il n'a pas été signé",
        ),
        (Actif, Activate) => refused("il est déjà en vigueur"),
        (Actif, Terminate) => Ok(Resilie),
        (Actif, Expire) => Ok(Echu),
        (Resilie, _) => refused(
            "un contrat résilié est définitif ; si le client revient, établissez un nouveau contrat",
        ),
        (Echu, _) => refused(
            "un contrat échu est définitif ; pour continuer l'entretien, établissez un nouveau contrat",
        ),
    }
}

/// Only a draft is edited (or deleted): what the client signed stays as it
/// was.
pub fn is_editable(status: ContractStatus) -> bool {
    status == ContractStatus::Brouillon
}

/// `day` plus `months` (the end of a shorter month when the day is missing:
/// 31 January plus one month is 28 or 29 February).
pub fn add_months(day: NaiveDate, months: u32) -> NaiveDate {
    day.checked_add_months(Months::new(months))
        .unwrap_or(NaiveDate::MAX)
}

fn day_before(day: NaiveDate) -> NaiveDate {
    day.pred_opt().unwrap_or(day)
}

fn day_after(day: NaiveDate) -> NaiveDate {
    day.succ_opt().unwrap_or(day)
}

/// A contract's duration and renewal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    /// First day in force.
    pub start: NaiveDate,
    /// Months of the first term.
    pub duration_months: u32,
    /// Renewed for `renewal_months` at each term's end unless a notice ends it.
    pub tacit_renewal: bool,
    pub renewal_months: u32,
    /// Months before a term's end a notice must be given to end it then.
    pub notice_months: u32,
}

/// Why a termination's day is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateRefusal(pub String);

impl Terms {
    /// The first term's last day.
    pub fn first_end(&self) -> NaiveDate {
        day_before(add_months(self.start, self.duration_months))
    }

    /// The term running on `day`: its first and last days. Before the start,
    /// the first term; after the end of a contract without tacit renewal,
    /// its only term.
    pub fn term_on(&self, day: NaiveDate) -> (NaiveDate, NaiveDate) {
        let mut start = self.start;
        let mut end = self.first_end();
        if !self.tacit_renewal {
            return (start, end);
        }
        let renewal = self.renewal_months.max(MIN_RENEWAL_MONTHS);
        // Months from the start to each term's end: a term is computed from
        // the start (never from the previous end), so no day drifts at the
        // end of a short month.
        let mut months = self.duration_months;
        while end < day {
            start = day_after(end);
            months += renewal;
            end = day_before(add_months(self.start, months));
        }
        (start, end)
    }

    /// The last day a notice ends the contract at the end of the term
    /// ending on `term_end`: `notice_months` before the day after it.
    pub fn notice_deadline(&self, term_end: NaiveDate) -> NaiveDate {
        day_after(term_end)
            .checked_sub_months(Months::new(self.notice_months))
            .unwrap_or(NaiveDate::MIN)
    }

    /// The day a notice given on `notice_on` ends the contract: the end of
    /// the term running then when the notice is in time, else the end of the
    /// next one. A contract without tacit renewal ends at its term whatever
    /// the notice.
    pub fn end_after_notice(&self, notice_on: NaiveDate) -> NaiveDate {
        let (_, end) = self.term_on(notice_on);
        if !self.tacit_renewal || notice_on <= self.notice_deadline(end) {
            end
        } else {
            self.term_on(day_after(end)).1
        }
    }

    /// The last day of a termination given on `notice_on`: `requested`
    /// (an earlier end agreed with the client) or, without it, the end the
    /// notice gives. Refused: a day before the start or the notice, or
    /// after the end the notice gives.
    pub fn termination_end(
        &self,
        notice_on: NaiveDate,
        requested: Option<NaiveDate>,
    ) -> Result<NaiveDate, DateRefusal> {
        if !self.tacit_renewal && notice_on > self.first_end() {
            return Err(DateRefusal(format!(
                "Ce contrat a pris fin le {} sans reconduction : constatez son échéance plutôt que de le résilier.",
                day::french(self.first_end())
            )));
        }
        let latest = self.end_after_notice(notice_on);
        let Some(end) = requested else {
            return Ok(latest);
        };
        if end < self.start {
            return Err(DateRefusal(format!(
                "La fin du contrat (« endsOn », {}) ne peut précéder son début ({}).",
                day::french(end),
                day::french(self.start)
            )));
        }
        if end < notice_on {
            return Err(DateRefusal(format!(
                "La fin du contrat (« endsOn », {}) ne peut précéder la date du préavis ({}).",
                day::french(end),
                day::french(notice_on)
            )));
        }
        if end > latest {
            return Err(DateRefusal(format!(
                "Un préavis donné le {} met fin au contrat le {} au plus tard (« endsOn » reçu : {}).",
                day::french(notice_on),
                day::french(latest),
                day::french(end)
            )));
        }
        Ok(end)
    }

    /// A contract without tacit renewal is found ended once its term has
    /// passed (`today` after its last day); one renewed tacitly never ends
    /// by itself (a notice ends it).
    pub fn check_expiry(&self, today: NaiveDate) -> Result<NaiveDate, DateRefusal> {
        let end = self.first_end();
        if self.tacit_renewal {
            return Err(DateRefusal(
                "Ce contrat est reconduit tacitement : il ne prend fin que par une résiliation."
                    .to_owned(),
            ));
        }
        if today <= end {
            return Err(DateRefusal(format!(
                "Ce contrat court jusqu'au {} inclus : son échéance ne peut être constatée qu'après.",
                day::french(end)
            )));
        }
        Ok(end)
    }

    /// The `k`-th anniversary (k ≥ 1): the day the price is revised.
    pub fn anniversary(&self, k: u32) -> NaiveDate {
        add_months(self.start, 12 * k)
    }

    /// How many anniversaries have passed on `day` (0 in the first year).
    pub fn years_on(&self, day: NaiveDate) -> u32 {
        let mut k = 0;
        while self.anniversary(k + 1) <= day {
            k += 1;
        }
        k
    }
}

/// The last day a contract covers its lifts: its termination's end, the
/// end of a term it does not renew, or none (in force until a notice).
pub fn last_day(
    status: ContractStatus,
    terms: &Terms,
    ends_on: Option<NaiveDate>,
) -> Option<NaiveDate> {
    match status {
        ContractStatus::Resilie => ends_on.or(Some(terms.first_end())),
        ContractStatus::Actif | ContractStatus::Echu if !terms.tacit_renewal => {
            Some(terms.first_end())
        }
        ContractStatus::Actif | ContractStatus::Echu => ends_on,
        ContractStatus::Brouillon => None,
    }
}

/// Whether a contract covers its lifts on `day`.
pub fn covers_on(
    status: ContractStatus,
    terms: &Terms,
    ends_on: Option<NaiveDate>,
    day: NaiveDate,
) -> bool {
    match status {
        ContractStatus::Brouillon | ContractStatus::Echu => false,
        ContractStatus::Actif | ContractStatus::Resilie => {
            day >= terms.start && last_day(status, terms, ends_on).is_none_or(|last| day <= last)
        }
    }
}

/// Whether a contract covered its lifts on `day`, whatever it became since:
/// put in force (a draft never covers), `day` from its start to its last
/// day. What a call's commitments are read from ([`covers_on`] says whether
/// it covers them still).
pub fn covered_on(
    status: ContractStatus,
    terms: &Terms,
    ends_on: Option<NaiveDate>,
    day: NaiveDate,
) -> bool {
    status != ContractStatus::Brouillon
        && day >= terms.start
        && last_day(status, terms, ends_on).is_none_or(|last| day <= last)
}

// ---------------------------------------------------------------------------
// Price index
// ---------------------------------------------------------------------------

/// An index value, in ten-thousandths (`132.4` is 1 324 000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IndexValue(i64);

impl IndexValue {
    pub const fn from_ten_thousandths(value: i64) -> Self {
        IndexValue(value)
    }

    pub const fn ten_thousandths(self) -> i64 {
        self.0
    }

    /// Reads a value received as a JSON number: positive, four decimals at
    /// most, below one million.
    pub fn from_number(value: f64) -> Option<Self> {
        crate::money::scale_exact_decimal(value, INDEX_DECIMALS)
            .filter(|v| *v > 0 && *v < 1_000_000 * 10_000)
            .map(IndexValue)
    }

    /// The value as a number, for JSON.
    pub fn number(self) -> f64 {
        self.0 as f64 / 10_000.0
    }

    /// French writing, without useless zeros: `132,4`.
    pub fn french(self) -> String {
        let whole = self.0 / 10_000;
        let fraction = format!("{:04}", self.0 % 10_000);
        let fraction = fraction.trim_end_matches('0');
        if fraction.is_empty() {
            whole.to_string()
        } else {
            format!("{whole},{fraction}")
        }
    }
}

/// Checks an index code: `BT48`, `ICHT-IME`.
pub fn check_index_code(raw: &str) -> Result<String, String> {
    let code = raw.trim();
    if code.is_empty()
        || code.chars().count() > MAX_INDEX_CODE_CHARS
        || !code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "Code d'indice invalide : « {raw} » (1 à {MAX_INDEX_CODE_CHARS} lettres, chiffres, « - », « _ » ou « . », comme « BT48 » ou « ICHT-IME »)."
        ));
    }
    Ok(code.to_ascii_uppercase())
}

/// The month an index value is of: its first day.
pub fn month_of(day: NaiveDate) -> NaiveDate {
    day.with_day(1).unwrap_or(day)
}

/// Reads a month `YYYY-MM`.
pub fn parse_month(text: &str) -> Option<NaiveDate> {
    let (year, month) = text.split_once('-')?;
    if year.len() != 4
        || month.len() != 2
        || !year
            .chars()
            .chain(month.chars())
            .all(|c| c.is_ascii_digit())
    {
        return None;
    }
    NaiveDate::from_ymd_opt(year.parse().ok()?, month.parse().ok()?, 1)
}

/// Writes a month `YYYY-MM`.
pub fn month_text(month: NaiveDate) -> String {
    format!("{:04}-{:02}", month.year(), month.month())
}

/// `P = P0 × (I / I0)`, rounded to the cent (half away from zero).
pub fn revised_price(base: Cents, base_index: IndexValue, index: IndexValue) -> Cents {
    Cents::new(divide_rounded(
        i128::from(base.get()) * i128::from(index.0),
        i128::from(base_index.0.max(1)),
    ))
}

/// `numerator / denominator`, rounded half away from zero (the denominator
/// positive).
fn divide_rounded(numerator: i128, denominator: i128) -> i64 {
    let half = denominator / 2;
    let rounded = if numerator >= 0 {
        (numerator + half) / denominator
    } else {
        (numerator - half) / denominator
    };
    i64::try_from(rounded).unwrap_or(if rounded > 0 { i64::MAX } else { i64::MIN })
}

/// A contract's price indexation: its index, its base value I0 and the
/// month I0 is the value of. The `k`-th revision reads the value of the
/// same month `k` years later ([`Indexation::month_of_revision`]): one
/// value for the whole contract year, whenever the billing runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Indexation {
    pub index: String,
    pub base: IndexValue,
    /// The first day of I0's month.
    pub base_month: NaiveDate,
}

impl Indexation {
    /// The month whose value is I at the `k`-th anniversary.
    pub fn month_of_revision(&self, k: u32) -> NaiveDate {
        add_months(self.base_month, 12 * k)
    }
}

/// A revision applied: the anniversary, the value I of the index then and
/// the price it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    pub anniversary: NaiveDate,
    pub index: String,
    /// The month of the value used: I0's month, so many years later.
    pub month: NaiveDate,
    pub value: IndexValue,
    pub base: IndexValue,
    pub base_price: Cents,
    pub price: Cents,
}

impl Revision {
    /// The formula as printed: `P = P0 × (I / I0) = 1 200,00 € × (134,2 /
    /// 128,5) = 1 253,23 €`, with the index and the month of I.
    pub fn formula(&self) -> String {
        format!(
            "P = P0 × (I / I0) = {} × ({} / {}) = {} (indice {} de {}, révision du {})",
            self.base_price.french(),
            self.value.french(),
            self.base.french(),
            self.price.french(),
            self.index,
            month_text(self.month),
            day::french(self.anniversary)
        )
    }
}

/// The index value a revision needs is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingIndex {
    pub index: String,
    pub month: NaiveDate,
    pub anniversary: NaiveDate,
}

impl MissingIndex {
    pub fn message(&self) -> String {
        format!(
            "La révision du {} demande la valeur de l'indice {} de {}, pas encore saisie : saisissez-la (Contrats › Indices).",
            day::french(self.anniversary),
            self.index,
            month_text(self.month)
        )
    }
}

// ---------------------------------------------------------------------------
// Billing periods
// ---------------------------------------------------------------------------

/// A billing period, aligned on the calendar (a quarter starts in January,
/// April, July or October): its first and last days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Period {
    pub start: NaiveDate,
    pub end: NaiveDate,
}

impl Period {
    /// The period of `frequency` containing `day`.
    pub fn containing(frequency: BillingFrequency, day: NaiveDate) -> Period {
        let months = frequency.months();
        let first_month = (day.month0() / months) * months + 1;
        let start = NaiveDate::from_ymd_opt(day.year(), first_month, 1).unwrap_or(day);
        Period {
            start,
            end: day_before(add_months(start, months)),
        }
    }

    /// Days in the period.
    pub fn days(self) -> i64 {
        (self.end - self.start).num_days() + 1
    }

    /// The periods of `frequency` starting from `from` to `to` included.
    pub fn starting_between(
        frequency: BillingFrequency,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Vec<Period> {
        let mut periods = Vec::new();
        let mut period = Period::containing(frequency, from);
        if period.start < from {
            period = Period::containing(frequency, day_after(period.end));
        }
        while period.start <= to && period.start < NaiveDate::MAX {
            periods.push(period);
            period = Period::containing(frequency, day_after(period.end));
        }
        periods
    }

    /// Words for an invoice line: `du 01/01/2027 au 31/03/2027`.
    pub fn french(self) -> String {
        format!(
            "du {} au {}",
            day::french(self.start),
            day::french(self.end)
        )
    }
}

/// A period is billed in advance at any time, in arrears once it has ended.
pub fn is_billable(timing: BillingTiming, period: Period, today: NaiveDate) -> bool {
    match timing {
        BillingTiming::TermeAEchoir => true,
        BillingTiming::TermeEchu => period.end < today,
    }
}

/// What a contract's billing needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pricing {
    pub terms: Terms,
    /// The last day covered, when known ([`last_day`]).
    pub last_day: Option<NaiveDate>,
    /// The annual price excluding tax of one unit (a lift, or the whole).
    pub annual: Cents,
    pub frequency: BillingFrequency,
    pub indexation: Option<Indexation>,
}

/// Part of a period at one price: the days it covers, the annual price in
/// force (revised or not) and its amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub annual: Cents,
    pub revision: Option<Revision>,
    /// `annual × months / 12 × days / days of the period`, to the cent.
    pub amount: Cents,
    /// Whether the days are fewer than the period's (a first or last period).
    pub prorated: bool,
}

impl Segment {
    pub fn days(&self) -> i64 {
        (self.to - self.from).num_days() + 1
    }
}

/// What one unit of a contract costs for a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    pub period: Period,
    pub segments: Vec<Segment>,
}

impl Charge {
    /// The period's amount for one unit.
    pub fn amount(&self) -> Cents {
        self.segments.iter().map(|s| s.amount).sum()
    }

    pub fn is_prorated(&self) -> bool {
        self.segments.iter().any(|s| s.prorated)
    }
}

/// The charge of one unit of `pricing` for `period`: the days the contract
/// covers in it, cut at each anniversary whose revision changes the price;
/// `None` when it covers none of them. `index_at(index, month)` gives the
/// value of the contract's index for a month, when entered.
pub fn charge(
    pricing: &Pricing,
    period: Period,
    index_at: impl Fn(&str, NaiveDate) -> Option<IndexValue>,
) -> Result<Option<Charge>, MissingIndex> {
    let from = period.start.max(pricing.terms.start);
    let to = pricing
        .last_day
        .map_or(period.end, |last| period.end.min(last));
    if from > to {
        return Ok(None);
    }
    let period_days = i128::from(period.days());
    let months = i128::from(pricing.frequency.months());
    let mut segments = Vec::new();
    let mut cursor = from;
    while cursor <= to {
        let years = pricing.terms.years_on(cursor);
        let next = pricing.terms.anniversary(years + 1);
        let until = if next <= to { day_before(next) } else { to };
        let revision = match (&pricing.indexation, years) {
            (Some(indexation), k) if k > 0 => {
                let anniversary = pricing.terms.anniversary(k);
                let month = indexation.month_of_revision(k);
                let value = index_at(&indexation.index, month).ok_or_else(|| MissingIndex {
                    index: indexation.index.clone(),
                    month,
                    anniversary,
                })?;
                Some(Revision {
                    anniversary,
                    index: indexation.index.clone(),
                    month,
                    value,
                    base: indexation.base,
                    base_price: pricing.annual,
                    price: revised_price(pricing.annual, indexation.base, value),
                })
            }
            _ => None,
        };
        let annual = revision.as_ref().map_or(pricing.annual, |r| r.price);
        let days = i128::from((until - cursor).num_days() + 1);
        segments.push(Segment {
            from: cursor,
            to: until,
            annual,
            revision,
            amount: Cents::new(divide_rounded(
                i128::from(annual.get()) * months * days,
                12 * period_days,
            )),
            prorated: days < period_days,
        });
        cursor = day_after(until);
        if until == NaiveDate::MAX {
            break;
        }
    }
    // Two segments at the same price (no revision configured) are one.
    let mut merged: Vec<Segment> = Vec::with_capacity(segments.len());
    for segment in segments {
        match merged.last_mut() {
            Some(last) if last.annual == segment.annual && last.revision == segment.revision => {
                let days = i128::from((segment.to - last.from).num_days() + 1);
                last.to = segment.to;
                last.amount = Cents::new(divide_rounded(
                    i128::from(last.annual.get()) * months * days,
                    12 * period_days,
                ));
                last.prorated = days < period_days;
            }
            _ => merged.push(segment),
        }
    }
    Ok(Some(Charge {
        period,
        segments: merged,
    }))
}

wire_enum! {
    /// Where a contract's billing period stands in a billing run.
    pub enum BillingState {
        /// Its invoice is to be drafted.
        ACreer => "a_creer", "À facturer";
        /// An invoice of the contract already bills that period.
        DejaFacture => "deja_facture", "Déjà facturé";
        /// A revision needs an index value not entered yet.
        IndiceManquant => "indice_manquant", "Indice manquant";
        /// Billed in arrears, the period has not ended yet.
        TermeNonEchu => "terme_non_echu", "Terme non échu";
        /// Its client was archived: nothing is billed to it any more.
        ClientArchive => "client_archive", "Client archivé";
    }
}

/// The day a billing period is billed from: its first day, or the
/// contract's start within it. A billing run takes the periods whose day is
/// in its window; it also keys the invoice (one per contract and day).
pub fn billed_from(terms: &Terms, period: Period) -> NaiveDate {
    period.start.max(terms.start)
}

/// The periods of a contract a billing run over `from`–`to` takes: those
/// billed from a day of the window.
pub fn periods_billed_between(pricing: &Pricing, from: NaiveDate, to: NaiveDate) -> Vec<Period> {
    let mut periods = Vec::new();
    let mut period = Period::containing(pricing.frequency, from.max(pricing.terms.start));
    while period.start <= to {
        let first = billed_from(&pricing.terms, period);
        if first > to || pricing.last_day.is_some_and(|last| first > last) {
            break;
        }
        if first >= from {
            periods.push(period);
        }
        if period.end >= NaiveDate::MAX.pred_opt().unwrap_or(NaiveDate::MAX) {
            break;
        }
        period = Period::containing(pricing.frequency, day_after(period.end));
    }
    periods
}

/// The label of the invoice line billing `segment` of a contract's period:
/// the contract, its type, the days, the proration and the revision's
/// formula, as printed on the invoice (300 characters at most).
pub fn invoice_label(
    number: &str,
    contract_type: ContractType,
    per_lift: bool,
    period: Period,
    segment: &Segment,
) -> String {
    let mut label = format!(
        "Contrat d'entretien {number} ({}{}) du {} au {}",
        contract_type.label(),
        if per_lift { ", prix par appareil" } else { "" },
        day::french(segment.from),
        day::french(segment.to)
    );
    if segment.prorated {
        label.push_str(&format!(
            " — prorata {}/{} jours",
            segment.days(),
            period.days()
        ));
    }
    if let Some(revision) = &segment.revision {
        label.push_str(" — prix annuel révisé : ");
        label.push_str(&revision.formula());
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paris(text: &str) -> DateTime<Utc> {
        crate::time::paris_to_utc(
            NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").expect("instant"),
        )
    }

    const TERMS: ResponseTerms = ResponseTerms {
        arrival_minutes: 240,
        out_of_hours_minutes: None,
        trapped_minutes: 60,
        restore_minutes: 1440,
        weekend: false,
        on_call: false,
    };

    #[test]
    fn a_calls_deadlines_start_at_the_call_or_the_next_opening() {
        // Tuesday 10:00: in working hours.
        let tuesday = paris("2028-03-07 10:00");
        assert_eq!(
            call_deadlines(&TERMS, false, tuesday),
            CallDeadlines {
                arrival: paris("2028-03-07 14:00"),
                restore: paris("2028-03-08 10:00"),
            }
        );
        // A trapped person at 23:00 on Saturday: from the call.
        assert_eq!(
            call_deadlines(&TERMS, true, paris("2028-03-11 23:00")).arrival,
            paris("2028-03-12 00:00")
        );
        // A breakdown on Friday at 19:00, nights and week-ends not covered:
        // from Monday 08:00.
        assert_eq!(
            call_deadlines(&TERMS, false, paris("2028-03-10 19:00")),
            CallDeadlines {
                arrival: paris("2028-03-13 12:00"),
                restore: paris("2028-03-14 08:00"),
            }
        );
        // At 06:30 on a Wednesday: from 08:00 the same day.
        assert_eq!(
            call_deadlines(&TERMS, false, paris("2028-03-08 06:30")).arrival,
            paris("2028-03-08 12:00")
        );
        // Nights covered by the on-call, not the week-ends.
        let on_call = ResponseTerms {
            out_of_hours_minutes: Some(120),
            on_call: true,
            ..TERMS
        };
        assert_eq!(
            call_deadlines(&on_call, false, paris("2028-03-07 21:00")).arrival,
            paris("2028-03-07 23:00")
        );
        // Saturday 10:00, the week-end not covered: from Monday 00:00, a
        // night the on-call covers.
        assert_eq!(
            call_deadlines(&on_call, false, paris("2028-03-11 10:00")).arrival,
            paris("2028-03-13 02:00")
        );
        let weekend = ResponseTerms {
            weekend: true,
            ..on_call
        };
        assert_eq!(
            call_deadlines(&weekend, false, paris("2028-03-11 10:00")).arrival,
            paris("2028-03-11 12:00")
        );
        // Week-ends covered, not the nights: Friday 19:00 waits for
        // Saturday 00:00; the on-call alone: Sunday 10:00 waits for Monday
        // 00:00 (a night it covers).
        let weekend_only = ResponseTerms {
            on_call: false,
            ..weekend
        };
        assert_eq!(
            call_deadlines(&weekend_only, false, paris("2028-03-10 19:00")).arrival,
            paris("2028-03-11 02:00")
        );
        assert_eq!(
            call_deadlines(&on_call, false, paris("2028-03-12 10:00")).arrival,
            paris("2028-03-13 02:00")
        );
        // 18:00 sharp is out of working hours; 08:00 sharp is in.
        assert_eq!(
            next_opening(crate::time::paris_local(paris("2028-03-07 18:00"))),
            NaiveDateTime::parse_from_str("2028-03-08 08:00", "%Y-%m-%d %H:%M").expect("t")
        );
        assert_eq!(
            call_deadlines(&TERMS, false, paris("2028-03-07 08:00")).arrival,
            paris("2028-03-07 12:00")
        );
    }

    #[test]
    fn lateness_counts_minutes_and_the_penalty_each_hour_begun() {
        let due = paris("2028-03-07 11:00");
        assert_eq!(minutes_late(due, Some(paris("2028-03-07 10:59")), due), 0);
        assert_eq!(minutes_late(due, Some(paris("2028-03-07 11:01")), due), 1);
        assert_eq!(minutes_late(due, None, paris("2028-03-07 13:30")), 150);
        let per_hour = Cents::new(5_000);
        assert_eq!(late_penalty(per_hour, 0), Cents::ZERO);
        assert_eq!(late_penalty(per_hour, 1), Cents::new(5_000));
        assert_eq!(late_penalty(per_hour, 60), Cents::new(5_000));
        assert_eq!(late_penalty(per_hour, 61), Cents::new(10_000));
    }

    #[test]
    fn a_duty_falls_due_its_months_after_it_was_done_or_the_plan_began() {
        let start = NaiveDate::from_ymd_opt(2027, 8, 31).expect("day");
        assert_eq!(
            Duty::Cables.deadline(None, start),
            NaiveDate::from_ymd_opt(2028, 2, 29).expect("day")
        );
        assert_eq!(
            Duty::Parachute.deadline(None, start),
            NaiveDate::from_ymd_opt(2028, 8, 31).expect("day")
        );
        let done = NaiveDate::from_ymd_opt(2028, 1, 10).expect("day");
        assert_eq!(
            Duty::Cables.deadline(Some(done), start),
            NaiveDate::from_ymd_opt(2028, 7, 10).expect("day")
        );
        assert_eq!(
            Duty::Nettoyage.deadline(Some(done), start),
            NaiveDate::from_ymd_opt(2029, 1, 10).expect("day")
        );
        assert_eq!(
            DUTIES.iter().map(|d| d.months()).collect::<Vec<_>>(),
            [6, 12, 12]
        );
    }

    #[test]
    fn a_visit_carries_a_duty_that_would_be_late_at_the_next_one() {
        let day = NaiveDate::from_ymd_opt(2028, 3, 1).expect("day");
        let on = |d: u32| NaiveDate::from_ymd_opt(2028, 4, d).expect("day");
        // Next visit due 42 days later, on 12/04.
        assert!(duty_due_at(on(11), day, 42));
        assert!(!duty_due_at(on(12), day, 42));
        // Past its deadline: carried (and late).
        assert!(duty_due_at(
            NaiveDate::from_ymd_opt(2028, 2, 1).expect("day"),
            day,
            42
        ));
        assert!(duty_due_at(on(30), NaiveDate::MAX, 42));
    }

    fn d(text: &str) -> NaiveDate {
        day::parse(text).expect("day")
    }

    /// Every (status, action) pair: the new status, or `None` when refused.
    const TABLE: &[(ContractStatus, ContractAction, Option<ContractStatus>)] = {
        use ContractAction::*;
        use ContractStatus::*;
        &[
            (Brouillon, Activate, Some(Actif)),
            (Brouillon, Terminate, None),
            (Brouillon, Expire, None),
            (Actif, Activate, None),
            (Actif, Terminate, Some(Resilie)),
            (Actif, Expire, Some(Echu)),
            (Resilie, Activate, None),
            (Resilie, Terminate, None),
            (Resilie, Expire, None),
            (Echu, Activate, None),
            (Echu, Terminate, None),
            (Echu, Expire, None),
        ]
    };

    #[test]
    fn every_status_and_action_is_in_the_table_once() {
        for status in ContractStatus::ALL {
            for action in ContractAction::ALL {
                let rows = TABLE
                    .iter()
                    .filter(|(s, a, _)| s == status && a == action)
                    .count();
                assert_eq!(rows, 1, "{status:?} × {action:?}");
            }
        }
    }

    #[test]
    fn transitions_follow_the_table_and_refusals_name_status_and_action() {
        for (status, action, expected) in TABLE {
            match (transition(*status, *action), expected) {
                (Ok(next), Some(want)) => assert_eq!(next, *want, "{status:?} × {action:?}"),
                (Err(err), None) => {
                    assert_eq!(err.current(), status.as_str());
                    assert_eq!(err.attempted(), action.as_str());
                    assert!(err.message().starts_with("Action refusée : impossible "));
                    assert!(err.message().contains(status.label()), "{}", err.message());
                }
                (got, want) => panic!("{status:?} × {action:?}: {got:?}, expected {want:?}"),
            }
        }
        assert_eq!(
            transition(ContractStatus::Resilie, ContractAction::Activate)
                .unwrap_err()
                .message(),
            "Action refusée : impossible d'activer ce contrat au statut « Résilié » : un contrat résilié est définitif ; si le client revient, établissez un nouveau contrat."
        );
    }

    #[test]
    fn only_a_draft_is_editable() {
        for status in ContractStatus::ALL {
            assert_eq!(is_editable(*status), *status == ContractStatus::Brouillon);
        }
    }

    fn terms(start: &str, tacit: bool) -> Terms {
        Terms {
            start: d(start),
            duration_months: 12,
            tacit_renewal: tacit,
            renewal_months: 12,
            notice_months: 3,
        }
    }

    #[test]
    fn terms_run_from_the_start_and_renew_tacitly() {
        let t = terms("2026-01-31", true);
        assert_eq!(t.first_end(), d("2027-01-30"));
        assert_eq!(
            t.term_on(d("2026-06-01")),
            (d("2026-01-31"), d("2027-01-30"))
        );
        assert_eq!(
            t.term_on(d("2027-01-31")),
            (d("2027-01-31"), d("2028-01-30"))
        );
        assert_eq!(
            t.term_on(d("2029-03-01")),
            (d("2029-01-31"), d("2030-01-30"))
        );
        let once = terms("2026-01-31", false);
        assert_eq!(
            once.term_on(d("2029-03-01")),
            (d("2026-01-31"), d("2027-01-30"))
        );
        // A short renewal term.
        let monthly = Terms {
            renewal_months: 1,
            ..terms("2026-01-31", true)
        };
        assert_eq!(
            monthly.term_on(d("2027-02-15")),
            (d("2027-01-31"), d("2027-02-27"))
        );
        assert_eq!(
            monthly.term_on(d("2027-02-28")),
            (d("2027-02-28"), d("2027-03-30"))
        );
    }

    #[test]
    fn a_notice_in_time_ends_the_term_a_late_one_the_next() {
        let t = terms("2026-01-01", true);
        assert_eq!(t.notice_deadline(d("2026-12-31")), d("2026-10-01"));
        assert_eq!(t.end_after_notice(d("2026-10-01")), d("2026-12-31"));
        assert_eq!(t.end_after_notice(d("2026-10-02")), d("2027-12-31"));
        assert_eq!(t.end_after_notice(d("2025-06-01")), d("2026-12-31"));
        // Without tacit renewal the term ends the contract anyway.
        assert_eq!(
            terms("2026-01-01", false).end_after_notice(d("2026-12-01")),
            d("2026-12-31")
        );
        assert_eq!(
            t.termination_end(d("2026-10-02"), None),
            Ok(d("2027-12-31"))
        );
        assert_eq!(
            t.termination_end(d("2026-10-02"), Some(d("2026-11-30"))),
            Ok(d("2026-11-30"))
        );
        assert_eq!(
            t.termination_end(d("2026-10-02"), Some(d("2026-10-01"))),
            Err(DateRefusal("La fin du contrat (« endsOn », 01/10/2026) ne peut précéder la date du préavis (02/10/2026).".into()))
        );
        assert_eq!(
            t.termination_end(d("2026-10-02"), Some(d("2028-01-01"))),
            Err(DateRefusal("Un préavis donné le 02/10/2026 met fin au contrat le 31/12/2027 au plus tard (« endsOn » reçu : 01/01/2028).".into()))
        );
        assert!(
            t.termination_end(d("2025-10-02"), Some(d("2025-12-31")))
                .is_err()
        );
    }

    #[test]
    fn only_a_contract_without_renewal_expires_after_its_term() {
        let once = terms("2026-01-01", false);
        assert!(once.check_expiry(d("2026-12-31")).is_err());
        assert_eq!(once.check_expiry(d("2027-01-01")), Ok(d("2026-12-31")));
        assert_eq!(
            terms("2026-01-01", true).check_expiry(d("2030-01-01")),
            Err(DateRefusal(
                "Ce contrat est reconduit tacitement : il ne prend fin que par une résiliation."
                    .into()
            ))
        );
    }

    #[test]
    fn coverage_runs_from_the_start_to_the_last_day() {
        let t = terms("2026-03-01", false);
        use ContractStatus::*;
        assert!(!covers_on(Brouillon, &t, None, d("2026-04-01")));
        assert!(!covers_on(Actif, &t, None, d("2026-02-28")));
        assert!(covers_on(Actif, &t, None, d("2027-02-28")));
        assert!(!covers_on(Actif, &t, None, d("2027-03-01")));
        assert!(covers_on(
            Resilie,
            &t,
            Some(d("2026-06-30")),
            d("2026-06-30")
        ));
        assert!(!covers_on(
            Resilie,
            &t,
            Some(d("2026-06-30")),
            d("2026-07-01")
        ));
        assert!(!covers_on(Echu, &t, None, d("2026-06-01")));
        assert!(covers_on(
            Actif,
            &terms("2026-03-01", true),
            None,
            d("2040-01-01")
        ));
    }

    #[test]
    fn index_values_read_four_decimals_and_write_the_french_way() {
        assert_eq!(IndexValue::from_number(132.4), Some(IndexValue(1_324_000)));
        assert_eq!(
            IndexValue::from_number(101.2345).map(|v| v.french()),
            Some("101,2345".into())
        );
        assert_eq!(
            IndexValue::from_number(128.0).map(|v| v.french()),
            Some("128".into())
        );
        assert_eq!(IndexValue::from_number(1.23456), None);
        assert_eq!(IndexValue::from_number(0.0), None);
        assert_eq!(IndexValue::from_number(-3.0), None);
        assert_eq!(check_index_code(" bt48 "), Ok("BT48".into()));
        assert!(check_index_code("BT 48").is_err());
        assert!(check_index_code("").is_err());
        assert_eq!(parse_month("2027-01"), Some(d("2027-01-01")));
        assert_eq!(parse_month("2027-13"), None);
        assert_eq!(parse_month("2027-1"), None);
    }

    #[test]
    fn the_revision_is_p0_times_i_over_i0_to_the_cent() {
        // 1 200,00 € × 134,2 / 128,5 = 1 253,2296… → 1 253,23 €.
        let price = revised_price(
            Cents::new(120_000),
            IndexValue(1_285_000),
            IndexValue(1_342_000),
        );
        assert_eq!(price, Cents::new(125_323));
        // Half a cent rounds up: 1,00 € × 100,5 / 100 = 1,005 → 1,01 €.
        assert_eq!(
            revised_price(
                Cents::new(100),
                IndexValue(1_000_000),
                IndexValue(1_005_000)
            ),
            Cents::new(101)
        );
    }

    #[test]
    fn periods_are_aligned_on_the_calendar() {
        let q = Period::containing(BillingFrequency::Trimestrielle, d("2027-05-17"));
        assert_eq!(
            (q.start, q.end, q.days()),
            (d("2027-04-01"), d("2027-06-30"), 91)
        );
        let h = Period::containing(BillingFrequency::Semestrielle, d("2027-07-01"));
        assert_eq!((h.start, h.end), (d("2027-07-01"), d("2027-12-31")));
        let m = Period::containing(BillingFrequency::Mensuelle, d("2028-02-10"));
        assert_eq!((m.start, m.end), (d("2028-02-01"), d("2028-02-29")));
        let y = Period::containing(BillingFrequency::Annuelle, d("2027-12-31"));
        assert_eq!((y.start, y.end), (d("2027-01-01"), d("2027-12-31")));
        let months = Period::starting_between(
            BillingFrequency::Mensuelle,
            d("2027-01-01"),
            d("2027-03-31"),
        );
        assert_eq!(months.len(), 3);
        let quarters = Period::starting_between(
            BillingFrequency::Trimestrielle,
            d("2027-01-15"),
            d("2027-12-31"),
        );
        assert_eq!(
            quarters.iter().map(|p| p.start).collect::<Vec<_>>(),
            vec![d("2027-04-01"), d("2027-07-01"), d("2027-10-01")]
        );
        assert!(is_billable(BillingTiming::TermeAEchoir, q, d("2027-01-01")));
        assert!(!is_billable(BillingTiming::TermeEchu, q, d("2027-06-30")));
        assert!(is_billable(BillingTiming::TermeEchu, q, d("2027-07-01")));
    }

    fn pricing(start: &str, last: Option<&str>, indexed: bool) -> Pricing {
        Pricing {
            terms: terms(start, true),
            last_day: last.map(d),
            annual: Cents::new(120_000),
            frequency: BillingFrequency::Trimestrielle,
            indexation: indexed.then(|| Indexation {
                index: "BT48".into(),
                base: IndexValue(1_285_000),
                base_month: d("2026-12-01"),
            }),
        }
    }

    fn no_index(_: &str, _: NaiveDate) -> Option<IndexValue> {
        None
    }

    #[test]
    fn a_whole_quarter_is_a_quarter_of_the_year() {
        let q = Period::containing(BillingFrequency::Trimestrielle, d("2027-04-01"));
        let charge = charge(&pricing("2027-01-01", None, false), q, no_index)
            .expect("charge")
            .expect("covered");
        assert_eq!(charge.amount(), Cents::new(30_000));
        assert!(!charge.is_prorated());
    }

    #[test]
    fn first_and_last_periods_are_prorated_by_their_days() {
        // Started 15/02/2027: 45 days of Q1's 90 → 1 200 € × 3/12 × 45/90 = 150,00 €.
        let q1 = Period::containing(BillingFrequency::Trimestrielle, d("2027-01-01"));
        let first = charge(&pricing("2027-02-15", None, false), q1, no_index)
            .expect("charge")
            .expect("covered");
        assert_eq!(first.amount(), Cents::new(15_000));
        assert!(first.is_prorated());
        // Ends 10/05/2028 (Q2 2028 has 91 days, 40 covered):
        // 1 200 € × 3/12 × 40/91 = 131,868… → 131,87 € (no index set).
        let q2 = Period::containing(BillingFrequency::Trimestrielle, d("2028-04-01"));
        let last = charge(
            &pricing("2027-02-15", Some("2028-05-10"), false),
            q2,
            no_index,
        )
        .expect("charge")
        .expect("covered");
        assert_eq!(last.amount(), Cents::new(13_187));
        // Nothing covered: no charge.
        let q3 = Period::containing(BillingFrequency::Trimestrielle, d("2028-07-01"));
        assert_eq!(
            charge(
                &pricing("2027-02-15", Some("2028-05-10"), false),
                q3,
                no_index
            ),
            Ok(None)
        );
    }

    #[test]
    fn a_period_across_the_anniversary_is_cut_at_the_revision() {
        // Started 15/02/2027, BT48 base 128,5 of 12/2026; on 15/02/2028 the
        // value of 12/2027 is 134,2.
        let index_at = |index: &str, month: NaiveDate| {
            assert_eq!(index, "BT48");
            (month == d("2027-12-01")).then_some(IndexValue(1_342_000))
        };
        let q1 = Period::containing(BillingFrequency::Trimestrielle, d("2028-01-01"));
        let charge = charge(&pricing("2027-02-15", None, true), q1, index_at)
            .expect("charge")
            .expect("covered");
        assert_eq!(charge.segments.len(), 2);
        // 01/01–14/02: 45 days of 91 at 1 200 € → 148,35 €.
        assert_eq!(charge.segments[0].amount, Cents::new(14_835));
        assert_eq!(charge.segments[0].revision, None);
        // 15/02–31/03: 46 days at 1 253,23 € → 1 253,23 × 3/12 × 46/91 = 158,375… → 158,38 €.
        let revised = &charge.segments[1];
        assert_eq!(
            (revised.from, revised.to),
            (d("2028-02-15"), d("2028-03-31"))
        );
        assert_eq!(revised.annual, Cents::new(125_323));
        assert_eq!(revised.amount, Cents::new(15_838));
        assert_eq!(
            revised.revision.as_ref().map(Revision::formula).as_deref(),
            Some(
                "P = P0 × (I / I0) = 1\u{202f}200,00\u{a0}€ × (134,2 / 128,5) = 1\u{202f}253,23\u{a0}€ (indice BT48 de 2027-12, révision du 15/02/2028)"
            )
        );
        // The value missing: the charge says which.
        let missing = super::charge(&pricing("2027-02-15", None, true), q1, no_index).unwrap_err();
        assert_eq!(missing.anniversary, d("2028-02-15"));
        assert_eq!(
            missing.message(),
            "La révision du 15/02/2028 demande la valeur de l'indice BT48 de 2027-12, pas encore saisie : saisissez-la (Contrats › Indices)."
        );
    }

    #[test]
    fn a_run_takes_the_periods_billed_from_a_day_of_its_window() {
        let q1 = (d("2027-01-01"), d("2027-03-31"));
        // Started on 15/02/2027, billed each year: the year is billed from
        // its start, in the first quarter's run, not the second's.
        let yearly = Pricing {
            frequency: BillingFrequency::Annuelle,
            ..pricing("2027-02-15", None, false)
        };
        let taken = periods_billed_between(&yearly, q1.0, q1.1);
        assert_eq!(taken.len(), 1);
        assert_eq!(billed_from(&yearly.terms, taken[0]), d("2027-02-15"));
        assert!(periods_billed_between(&yearly, d("2027-04-01"), d("2027-06-30")).is_empty());
        // Monthly: three periods a quarter.
        let monthly = Pricing {
            frequency: BillingFrequency::Mensuelle,
            ..pricing("2026-06-01", None, false)
        };
        assert_eq!(periods_billed_between(&monthly, q1.0, q1.1).len(), 3);
        // Ended on 10/05/2027: its Q2 is taken, its Q3 not.
        let ended = pricing("2026-06-01", Some("2027-05-10"), false);
        assert_eq!(
            periods_billed_between(&ended, d("2027-04-01"), d("2027-09-30")).len(),
            1
        );
        // Starting after the window: nothing.
        assert!(periods_billed_between(&pricing("2027-04-01", None, false), q1.0, q1.1).is_empty());
    }

    #[test]
    fn a_line_label_names_the_contract_days_proration_and_formula_within_300_characters() {
        let index_at = |_: &str, _: NaiveDate| Some(IndexValue(9_999_999_999));
        let q1 = Period::containing(BillingFrequency::Trimestrielle, d("2028-01-01"));
        let mut long = pricing("2027-02-15", None, true);
        long.annual = Cents::new(99_999_999);
        long.indexation = Some(Indexation {
            index: "A".repeat(MAX_INDEX_CODE_CHARS),
            base: IndexValue(1),
            base_month: d("2026-12-01"),
        });
        let charge = charge(&long, q1, index_at)
            .expect("charge")
            .expect("covered");
        let label = invoice_label(
            "CT-2027-00001",
            ContractType::Complet,
            true,
            q1,
            &charge.segments[1],
        );
        assert!(label.starts_with("Contrat d'entretien CT-2027-00001 (Complet, prix par appareil) du 15/02/2028 au 31/03/2028 — prorata 46/91 jours — prix annuel révisé : P = P0 × (I / I0) = "), "{label}");
        assert!(
            label.chars().count() <= crate::lines::MAX_LABEL_CHARS,
            "{} {label}",
            label.chars().count()
        );
        let whole = Period::containing(BillingFrequency::Trimestrielle, d("2027-04-01"));
        let plain = super::charge(&pricing("2027-01-01", None, false), whole, no_index)
            .expect("charge")
            .expect("covered");
        assert_eq!(
            invoice_label(
                "CT-2027-00002",
                ContractType::Normal,
                false,
                whole,
                &plain.segments[0]
            ),
            "Contrat d'entretien CT-2027-00002 (Normal) du 01/04/2027 au 30/06/2027"
        );
    }

    #[test]
    fn without_indexation_the_anniversary_does_not_cut_the_period() {
        let q1 = Period::containing(BillingFrequency::Trimestrielle, d("2028-01-01"));
        let charge = charge(&pricing("2027-02-15", None, false), q1, no_index)
            .expect("charge")
            .expect("covered");
        assert_eq!(charge.segments.len(), 1);
        assert_eq!(charge.amount(), Cents::new(30_000));
        assert!(!charge.is_prorated());
    }
}
