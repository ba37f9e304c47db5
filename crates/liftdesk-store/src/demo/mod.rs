//! Demo data of a lift-maintenance agency, in French: technicians and their
//! on-call rota, clients and contacts, buildings, equipment and their
//! technical data, deals and surveys, maintenance visits, breakdown calls,
//! quotes, invoices and credit notes.
//!
//! Everything is derived from the seed and `now`: ids are v7-shaped UUIDs
//! built from the record's creation instant and bytes drawn from seeded
//! generators, so two runs of the bulk writer with the same inputs write
//! byte-identical rows (the operations' writer makes its own ids).
//! Each agency and each step has its own generator, so changing one step
//! does not reshuffle the data of the others.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fmt::Write as _;

use crate::sql::params;
use crate::sql::{ToValue, ValueRef};
use anyhow::{Context, Result, bail};
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};
use liftdesk_domain::client::BillingCategory;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use uuid::Uuid;

use crate::Tx;
use liftdesk_domain::WireCode as _;

mod bulk;
pub mod seeds;

pub use bulk::Bulk;
use liftdesk_domain::call::{CallStatus, CallType};
use liftdesk_domain::contract::{BillingFrequency, BillingTiming, ContractType};
use liftdesk_domain::deal::{DEAL_CATEGORIES, DEAL_TYPES};
use liftdesk_domain::id::OrganizationId;
use liftdesk_domain::invoice::{
    self, InvoiceNature, InvoiceStatus, LineAmounts, PAYMENT_TERM_DAYS, Totals,
};
use liftdesk_domain::money::Cents;
use liftdesk_domain::quote::QuoteStatus;
use liftdesk_domain::survey::SurveyStatus;
use seeds::{
    AbsenceSeed, BuildingSeed, CallSeed, ClientSeed, ContactSeed, ContractSeed, DealSeed,
    DiscrepancySeed, EquipmentSeed, Id, IndexValueSeed, InvoiceSeed, LineSeed, OnCallSeed,
    QuoteSeed, SurveySeed, TechnicalValueSeed, TechnicianSeed, VisitSeed, Writer,
};

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/// What the caller already created and the demo data hangs on.
pub struct DemoScope<'a> {
    pub organization_id: &'a OrganizationId,
    /// Agencies created by the caller; the first one owns the call centers.
    pub agencies: &'a [DemoAgency],
    /// "Now" for every relative date (tests pass a fixed instant).
    pub now: DateTime<Utc>,
}

#[derive(Clone, Debug)]
pub struct DemoAgency {
    pub id: String,
    pub name: String,
    /// Its series of invoice numbers (`FA-PO-2026-000001`), as its identity says.
    pub invoice_series: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DemoSize {
    /// What a real small agency has; seeds in a few seconds.
    Small,
    /// Benchmark volumes: 50,000 equipment and 1,000,000 invoices.
    Large,
}

/// Rows written, summed over the agencies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DemoCounts {
    pub technicians: usize,
    pub clients: usize,
    pub contacts: usize,
    pub buildings: usize,
    pub equipment: usize,
    pub visits: usize,
    pub calls: usize,
    pub quotes: usize,
    /// Rows of nature 'facture' (drafts included).
    pub invoices: usize,
    /// Rows of nature 'avoir' (drafts included).
    pub credit_notes: usize,
    pub surveys: usize,
    pub deals: usize,
    pub equipment_values: usize,
}

impl DemoCounts {
    fn add(&mut self, other: &DemoCounts) {
        self.technicians += other.technicians;
        self.clients += other.clients;
        self.contacts += other.contacts;
        self.buildings += other.buildings;
        self.equipment += other.equipment;
        self.visits += other.visits;
        self.calls += other.calls;
        self.quotes += other.quotes;
        self.invoices += other.invoices;
        self.credit_notes += other.credit_notes;
        self.surveys += other.surveys;
        self.deals += other.deals;
        self.equipment_values += other.equipment_values;
    }
}

/// Seeds the domain data of every agency of `scope` inside `tx`.
///
/// The caller has created the organization, the agencies, the accounts and
/// the call centers (with their keys); everything else is created here, with
/// the same rows for the same `seed` and `scope.now`. Statements are prepared
/// once and reused; `DemoSize::Large` writes about 3.3 million rows.
pub fn seed_domain_data(
    tx: &Tx,
    scope: &DemoScope,
    size: DemoSize,
    seed: u64,
) -> Result<DemoCounts> {
    // On PostgreSQL the counts are made once at the end, the triggers off
    // meanwhile: kept row by row, a million invoices in one transaction
    // would take hours (`counts`).
    crate::counts::counted_at_the_end(tx, || {
        seed_domain_data_with(tx, &mut Bulk::new(tx), scope, size, seed)
    })
}

/// `seed_domain_data`, every seed of the plan handed to `writer` (the
/// operations, for the small demo); `tx`, the writer's transaction, is
/// only read (the catalog, the staff, the call centers).
pub fn seed_domain_data_with(
    tx: &Tx,
    writer: &mut dyn Writer,
    scope: &DemoScope,
    size: DemoSize,
    seed: u64,
) -> Result<DemoCounts> {
    if scope.agencies.is_empty() {
        bail!("demo data needs at least one agency");
    }
    let catalog = load_catalog(tx)?;
    if catalog.is_empty() {
        bail!("the technical-field catalog is empty: run the migrations first");
    }
    let mut total = DemoCounts::default();
    for (index, agency) in scope.agencies.iter().enumerate() {
        let staff = load_staff(tx, scope.organization_id, &agency.id)?;
        let call_centers = load_call_centers(tx, &agency.id)?;
        writer.agency(agency)?;
        let mut seeder = AgencySeeder {
            writer: &mut *writer,
            seed,
            index,
            agency,
            clock: Clock::new(scope.now),
            targets: Targets::new(size, index),
            pool: SECTOR_POOLS[index % SECTOR_POOLS.len()],
            catalog: &catalog,
            staff,
            call_centers,
            technicians: Vec::new(),
            sector_techs: Vec::new(),
            on_call: Vec::new(),
            clients: Vec::new(),
            equipment: Vec::new(),
            accepted_quotes: Vec::new(),
            counts: DemoCounts::default(),
        };
        seeder
            .run()
            .with_context(|| format!("données de démonstration de l'agence {}", agency.name))?;
        total.add(&seeder.counts);
        writer
            .end_of_agency()
            .with_context(|| format!("relevés de démonstration de l'agence {}", agency.name))?;
    }
    Ok(total)
}

// ---------------------------------------------------------------------------
// Volumes
// ---------------------------------------------------------------------------

/// Volumes of one agency for a size.
struct Targets {
    technicians: (usize, usize),
    clients: usize,
    equipment: usize,
    deals: usize,
    surveys: usize,
    resolved_calls: usize,
    /// Calls still in progress: ouverte, en_route, sur_place, a_l_arret.
    live_calls: [usize; 4],
    quotes: usize,
    /// Issued invoices and credit notes (drafts excluded).
    issued_invoices: usize,
    draft_invoices: usize,
    max_invoice_lines: usize,
    /// Per mille of issued documents that are credit notes.
    credit_note_per_mille: u32,
    invoice_span_days: i64,
    /// Days of past visits and calls.
    history_days: i64,
    /// Days of planned visits.
    horizon_days: i64,
    rota_weeks_past: i64,
    rota_weeks_ahead: i64,
    large: bool,
}

impl Targets {
    fn new(size: DemoSize, agency_index: usize) -> Targets {
        let first = agency_index == 0;
        match size {
            DemoSize::Small => Targets {
                technicians: if first { (8, 10) } else { (6, 8) },
                clients: if first { 60 } else { 40 },
                equipment: if first { 300 } else { 150 },
                deals: if first { 16 } else { 10 },
                surveys: if first { 32 } else { 18 },
                resolved_calls: if first { 45 } else { 24 },
                live_calls: if first { [3, 2, 2, 3] } else { [2, 1, 1, 2] },
                quotes: if first { 40 } else { 24 },
                issued_invoices: 195,
                draft_invoices: 6,
                max_invoice_lines: 4,
                credit_note_per_mille: 40,
                invoice_span_days: 450,
                history_days: 63,
                horizon_days: 28,
                rota_weeks_past: 8,
                rota_weeks_ahead: 8,
                large: false,
            },
            // One agency holds most rows, as in a real network.
            DemoSize::Large => Targets {
                technicians: if first { (300, 300) } else { (80, 80) },
                clients: if first { 4_000 } else { 1_000 },
                equipment: if first { 40_000 } else { 10_000 },
                deals: if first { 2_000 } else { 500 },
                surveys: if first { 4_000 } else { 1_000 },
                resolved_calls: if first { 16_000 } else { 4_000 },
                live_calls: if first {
                    [40, 30, 30, 60]
                } else {
                    [10, 8, 8, 15]
                },
                quotes: if first { 8_000 } else { 2_000 },
                issued_invoices: if first { 899_000 } else { 99_800 },
                draft_invoices: if first { 1_000 } else { 200 },
                max_invoice_lines: 1,
                credit_note_per_mille: 15,
                invoice_span_days: 4 * 365,
                // Past the longest gap (42 + 20 days), so every deadline has its visit.
                history_days: 63,
                horizon_days: 7,
                rota_weeks_past: 26,
                rota_weeks_ahead: 12,
                large: true,
            },
        }
    }
}

// ---------------------------------------------------------------------------
// SQL text values bound without allocating
// ---------------------------------------------------------------------------

impl Id {
    fn from_uuid(uuid: Uuid) -> Id {
        let mut text = [0u8; 36];
        uuid.hyphenated().encode_lower(&mut text);
        Id(text)
    }
}

impl ToValue for Id {
    fn to_value(&self) -> crate::StoreResult<ValueRef<'_>> {
        ascii(&self.0)
    }
}

/// A text the demo wrote in ASCII (ids, days, instants) as a value.
fn ascii(bytes: &[u8]) -> crate::StoreResult<ValueRef<'_>> {
    std::str::from_utf8(bytes)
        .map(ValueRef::Text)
        .map_err(crate::StoreError::encoding)
}

/// A UTC timestamp as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
#[derive(Clone, Copy)]
struct Ts([u8; 24]);

impl ToValue for Ts {
    fn to_value(&self) -> crate::StoreResult<ValueRef<'_>> {
        ascii(&self.0)
    }
}

/// A day as `YYYY-MM-DD`.
#[derive(Clone, Copy)]
struct Day([u8; 10]);

impl ToValue for Day {
    fn to_value(&self) -> crate::StoreResult<ValueRef<'_>> {
        ascii(&self.0)
    }
}

fn put_digits(out: &mut [u8], mut value: u32) {
    for slot in out.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

fn ts(at: DateTime<Utc>) -> Ts {
    let mut text = *b"0000-00-00T00:00:00.000Z";
    put_digits(&mut text[0..4], at.year().clamp(0, 9999) as u32);
    put_digits(&mut text[5..7], at.month());
    put_digits(&mut text[8..10], at.day());
    put_digits(&mut text[11..13], chrono::Timelike::hour(&at));
    put_digits(&mut text[14..16], chrono::Timelike::minute(&at));
    put_digits(&mut text[17..19], chrono::Timelike::second(&at));
    put_digits(&mut text[20..23], at.timestamp_subsec_millis().min(999));
    Ts(text)
}

fn day(date: NaiveDate) -> Day {
    let mut text = *b"0000-00-00";
    put_digits(&mut text[0..4], date.year().clamp(0, 9999) as u32);
    put_digits(&mut text[5..7], date.month());
    put_digits(&mut text[8..10], date.day());
    Day(text)
}

/// A v7-shaped id: the record's creation instant, then seeded bytes, so ids
/// are reproducible and roughly follow creation order (insert locality).
fn new_id(rng: &mut StdRng, created: DateTime<Utc>) -> Id {
    let millis = u64::try_from(created.timestamp_millis()).unwrap_or(0);
    let tail: [u8; 10] = rng.random();
    Id::from_uuid(uuid::Builder::from_unix_timestamp_millis(millis, &tail).into_uuid())
}

// ---------------------------------------------------------------------------
// Randomness and time helpers
// ---------------------------------------------------------------------------

/// SplitMix64 finalizer: spreads nearby seeds over the whole space.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn chance(rng: &mut StdRng, probability: f64) -> bool {
    rng.random_bool(probability.clamp(0.0, 1.0))
}

/// Uniform in `lo..=hi`, or `lo` when the range is empty.
fn between(rng: &mut StdRng, lo: i64, hi: i64) -> i64 {
    if hi <= lo {
        lo
    } else {
        rng.random_range(lo..=hi)
    }
}

/// One element of a non-empty list.
fn pick<T: Copy>(rng: &mut StdRng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

/// A reference to one element of a non-empty list.
fn pick_ref<'x, T>(rng: &mut StdRng, items: &'x [T]) -> &'x T {
    &items[rng.random_range(0..items.len())]
}

fn pick_weighted(rng: &mut StdRng, weights: &[u32]) -> usize {
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return 0;
    }
    let mut ticket = rng.random_range(0..total);
    for (index, weight) in weights.iter().enumerate() {
        if ticket < *weight {
            return index;
        }
        ticket -= weight;
    }
    weights.len() - 1
}

#[derive(Clone, Copy)]
struct Clock {
    now: DateTime<Utc>,
    today: NaiveDate,
}

impl Clock {
    fn new(now: DateTime<Utc>) -> Clock {
        Clock {
            now,
            today: now.date_naive(),
        }
    }

    fn midnight(date: NaiveDate) -> DateTime<Utc> {
        Utc.from_utc_datetime(&date.and_time(NaiveTime::MIN))
    }

    /// An instant of working hours (06:30–16:30 UTC) on `date`; today, one
    /// that is already past.
    fn work_time(&self, rng: &mut StdRng, date: NaiveDate) -> DateTime<Utc> {
        let midnight = Self::midnight(date);
        let start = midnight + Duration::minutes(6 * 60 + 30);
        let end = (midnight + Duration::minutes(16 * 60 + 30)).min(self.now);
        if end > start {
            instant_between(rng, start, end)
        } else {
            instant_between(rng, midnight.min(self.now), self.now)
        }
    }

    /// An instant of working hours on a weekday between `from` and `to`
    /// (people create records at the office; breakdowns happen at any hour).
    fn office_between(
        &self,
        rng: &mut StdRng,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> DateTime<Utc> {
        let to = to.max(from);
        let days = (to.date_naive() - from.date_naive()).num_days();
        let date = weekday_on_or_before(from.date_naive() + Duration::days(between(rng, 0, days)));
        self.work_time(rng, date).max(from).min(to)
    }

    /// An instant of working hours on a weekday `min_days` to `max_days`
    /// days before today, never after now.
    fn ago(&self, rng: &mut StdRng, min_days: i64, max_days: i64) -> DateTime<Utc> {
        let date =
            weekday_on_or_before(self.today - Duration::days(between(rng, min_days, max_days)));
        self.work_time(rng, date)
    }

    /// An instant `min_minutes` to `max_minutes` after `from`, cut short at now.
    fn later(
        &self,
        rng: &mut StdRng,
        from: DateTime<Utc>,
        min_minutes: i64,
        max_minutes: i64,
    ) -> DateTime<Utc> {
        let low = from + Duration::minutes(min_minutes);
        if low >= self.now {
            return self.now.max(from);
        }
        instant_between(
            rng,
            low,
            (from + Duration::minutes(max_minutes)).min(self.now),
        )
    }
}

fn is_weekday(date: NaiveDate) -> bool {
    !matches!(date.weekday(), Weekday::Sat | Weekday::Sun)
}

/// The date itself on a weekday, else the Friday before.
fn weekday_on_or_before(date: NaiveDate) -> NaiveDate {
    match date.weekday() {
        Weekday::Sat => date - Duration::days(1),
        Weekday::Sun => date - Duration::days(2),
        _ => date,
    }
}

/// The date itself on a weekday, else the Monday after.
fn weekday_on_or_after(date: NaiveDate) -> NaiveDate {
    match date.weekday() {
        Weekday::Sat => date + Duration::days(2),
        Weekday::Sun => date + Duration::days(1),
        _ => date,
    }
}

/// A Monday, origin of the working-day numbers.
fn workday_origin() -> NaiveDate {
    NaiveDate::from_ymd_opt(2000, 1, 3).unwrap_or_default()
}

/// Number of the weekday on or after `date`, counting weekdays only: plans
/// stepped in working days spread evenly over Monday–Friday.
fn workday_number(date: NaiveDate) -> i64 {
    let days = (weekday_on_or_after(date) - workday_origin()).num_days();
    days.div_euclid(7) * 5 + days.rem_euclid(7)
}

fn workday_date(number: i64) -> NaiveDate {
    workday_origin() + Duration::days(number.div_euclid(5) * 7 + number.rem_euclid(5))
}

// ---------------------------------------------------------------------------
// Identifiers and French text helpers
// ---------------------------------------------------------------------------

/// Appends the Luhn check digit to a string of digits.
fn luhn_complete(prefix: &str) -> String {
    // Digits at even distance from the check digit's right neighbour are doubled.
    let mut sum = 0u32;
    for (position, ch) in prefix.chars().rev().enumerate() {
        let mut digit = ch.to_digit(10).unwrap_or(0);
        if position % 2 == 0 {
            digit *= 2;
            if digit > 9 {
                digit -= 9;
            }
        }
        sum += digit;
    }
    let check = (10 - sum % 10) % 10;
    let mut out = String::with_capacity(prefix.len() + 1);
    out.push_str(prefix);
    out.push(char::from(b'0' + check as u8));
    out
}

fn random_digits(rng: &mut StdRng, count: usize, out: &mut String) {
    for _ in 0..count {
        out.push(char::from(b'0' + rng.random_range(0..10u8)));
    }
}

/// Lower-case ASCII words joined by `separator` ("Hôtel Lutèce" -> "hotel-lutece").
fn ascii_slug(text: &str, separator: char, max_len: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let word = ascii_word(word);
        if word.is_empty() {
            continue;
        }
        // Whole words only, and at least one.
        if !out.is_empty() && out.len() + 1 + word.len() > max_len {
            break;
        }
        if !out.is_empty() {
            out.push(separator);
        }
        out.push_str(&word);
    }
    out
}

/// Lower-case ASCII spelling of one word ("Hôtel" -> "hotel").
fn ascii_word(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for ch in word.chars().flat_map(char::to_lowercase) {
        let mapped: &str = match ch {
            'à' | 'â' | 'ä' | 'á' => "a",
            'é' | 'è' | 'ê' | 'ë' => "e",
            'î' | 'ï' | 'í' => "i",
            'ô' | 'ö' | 'ó' => "o",
            'ù' | 'û' | 'ü' | 'ú' => "u",
            'ç' => "c",
            'œ' => "oe",
            'æ' => "ae",
            'ÿ' => "y",
            _ => "",
        };
        if !mapped.is_empty() {
            out.push_str(mapped);
        } else if ch.is_ascii_alphanumeric() {
            out.push(ch);
        }
    }
    out
}

/// "de Montreuil", "d'Issy-les-Moulineaux".
fn of_place(place: &str) -> String {
    let elided = place
        .chars()
        .next()
        .is_some_and(|c| "AEIOUYÉÈÊÎÔaeiouyéèêîô".contains(c));
    if elided {
        format!("d'{place}")
    } else {
        format!("de {place}")
    }
}

/// A plausible e-mail domain for a client.
fn client_domain(kind: ClientKind, name: &str, sector: &Sector) -> String {
    if kind == ClientKind::Mairie {
        return if sector.city == "Paris" {
            "paris.fr".to_owned()
        } else {
            format!("ville-{}.fr", ascii_slug(sector.city, '-', 40))
        };
    }
    if name.starts_with("Office public") {
        return format!("oph-{}.fr", ascii_slug(sector.city, '-', 40));
    }
    // Without the little words: "Résidence seniors Les Camélias" -> residence-seniors-camelias.fr
    let words: Vec<&str> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| {
            !matches!(
                *w,
                "Les" | "Le" | "La" | "de" | "du" | "des" | "et" | "d" | "l" | ""
            )
        })
        .collect();
    format!("{}.fr", ascii_slug(&words.join(" "), '-', 30))
}

fn push_json_str(out: &mut String, text: &str) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn landline(rng: &mut StdRng) -> String {
    format!(
        "01 {:02} {:02} {:02} {:02}",
        rng.random_range(40..80),
        rng.random_range(0..100),
        rng.random_range(0..100),
        rng.random_range(0..100)
    )
}

fn mobile(rng: &mut StdRng) -> String {
    format!(
        "0{} {:02} {:02} {:02} {:02}",
        if chance(rng, 0.75) { 6 } else { 7 },
        rng.random_range(10..100),
        rng.random_range(0..100),
        rng.random_range(0..100),
        rng.random_range(0..100)
    )
}

/// "rez-de-chaussée", "1er étage", "4e étage".
fn floor_name(floor: i64) -> String {
    match floor {
        0 => "rez-de-chaussée".to_owned(),
        1 => "1er étage".to_owned(),
        n => format!("{n}e étage"),
    }
}

fn ordinal(n: i64) -> String {
    if n == 1 {
        "1er".to_owned()
    } else {
        format!("{n}e")
    }
}

#[derive(Clone, Copy)]
struct Person {
    first: &'static str,
    last: &'static str,
    female: bool,
}

impl Person {
    fn random(rng: &mut StdRng) -> Person {
        let (first, female) = pick(rng, FIRST_NAMES);
        Person {
            first,
            last: pick(rng, LAST_NAMES),
            female,
        }
    }

    fn full_name(&self) -> String {
        format!("{} {}", self.first, self.last)
    }

    fn civil_name(&self) -> String {
        format!("{} {}", if self.female { "Mme" } else { "M." }, self.last)
    }

    /// "s.martin" or "sophie.martin".
    fn email_local(&self, initial_only: bool) -> String {
        let first = ascii_slug(self.first, '-', 40);
        let last = ascii_slug(self.last, '-', 40);
        if initial_only {
            format!("{}.{}", first.chars().next().unwrap_or('x'), last)
        } else {
            format!("{first}.{last}")
        }
    }
}

// ---------------------------------------------------------------------------
// Catalog and caller-made rows
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ValueType {
    Text,
    Number,
    Integer,
    Boolean,
    Choice,
    Multi,
}

struct Field {
    code: String,
    value_type: ValueType,
    choices: Vec<String>,
    /// None: every equipment type.
    applies_to: Option<Vec<String>>,
    /// Fields of the partner API are the best known ones.
    partner: bool,
}

impl Field {
    fn applies(&self, eq_type: EqType) -> bool {
        match &self.applies_to {
            None => true,
            Some(types) => types.iter().any(|t| t == eq_type.code()),
        }
    }
}

fn load_catalog(tx: &Tx) -> Result<Vec<Field>> {
    let mut stmt = tx.prepare(
        "SELECT code, value_type, choices, applies_to, partner_key IS NOT NULL
         FROM technical_fields ORDER BY position, code",
    )?;
    let rows = stmt.query_map([], |row| {
        Ok((
            row.get::<String>(0)?,
            row.get::<String>(1)?,
            row.get::<Option<String>>(2)?,
            row.get::<Option<String>>(3)?,
            row.get::<bool>(4)?,
        ))
    })?;
    let mut fields = Vec::new();
    for row in rows {
        let (code, value_type, choices, applies_to, partner) = row?;
        let value_type = match value_type.as_str() {
            "text" => ValueType::Text,
            "number" => ValueType::Number,
            "integer" => ValueType::Integer,
            "boolean" => ValueType::Boolean,
            "choice" => ValueType::Choice,
            "multi" => ValueType::Multi,
            other => bail!("unknown value type {other} of technical field {code}"),
        };
        let choices: Vec<String> = match choices {
            Some(text) => serde_json::from_str(&text)
                .with_context(|| format!("choices of technical field {code}"))?,
            None => Vec::new(),
        };
        let applies_to = applies_to.map(|list| {
            list.split(',')
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
                .collect()
        });
        fields.push(Field {
            code,
            value_type,
            choices,
            applies_to,
            partner,
        });
    }
    Ok(fields)
}

/// Accounts working in the agency, for "created by" and surveyor columns.
struct Staff {
    accounts: Vec<String>,
    surveyors: Vec<String>,
}

impl Staff {
    fn any(&self, rng: &mut StdRng) -> Option<&str> {
        if self.accounts.is_empty() {
            None
        } else {
            Some(pick_ref(rng, &self.accounts).as_str())
        }
    }

    fn surveyor(&self, rng: &mut StdRng) -> Option<&str> {
        if self.surveyors.is_empty() {
            self.any(rng)
        } else {
            Some(pick_ref(rng, &self.surveyors).as_str())
        }
    }
}

fn load_staff(tx: &Tx, organization_id: &OrganizationId, agency_id: &str) -> Result<Staff> {
    // Ordered by e-mail: the caller's ids may be time-based, e-mails are stable.
    let mut stmt = tx.prepare(
        "SELECT a.id, a.performs_surveys FROM accounts a
         WHERE a.organization_id = ?1 AND a.active = 1 AND a.role <> 'operator'
           AND (a.role = 'org_admin' OR EXISTS (
                SELECT 1 FROM account_agencies aa WHERE aa.account_id = a.id AND aa.agency_id = ?2))
         ORDER BY a.email",
    )?;
    let rows = stmt.query_map(params![organization_id, agency_id], |row| {
        Ok((row.get::<String>(0)?, row.get::<bool>(1)?))
    })?;
    let mut staff = Staff {
        accounts: Vec::new(),
        surveyors: Vec::new(),
    };
    for row in rows {
        let (id, performs_surveys) = row?;
        if performs_surveys {
            staff.surveyors.push(id.clone());
        }
        staff.accounts.push(id);
    }
    Ok(staff)
}

struct CallCenter {
    id: String,
    /// The key that opens its calls, when it has one.
    credential_id: Option<String>,
}

fn load_call_centers(tx: &Tx, agency_id: &str) -> Result<Vec<CallCenter>> {
    let mut stmt = tx.prepare(
        "SELECT c.id,
                (SELECT k.id FROM credentials k
                 WHERE k.call_center_id = c.id AND k.kind = 'call_center_key'
                 ORDER BY k.revoked_at IS NOT NULL, k.created_at, k.name LIMIT 1)
         FROM call_centers c WHERE c.agency_id = ?1 ORDER BY c.name",
    )?;
    let rows = stmt.query_map([agency_id], |row| {
        Ok(CallCenter {
            id: row.get(0)?,
            credential_id: row.get(1)?,
        })
    })?;
    Ok(rows.collect::<crate::StoreResult<Vec<_>>>()?)
}

// ---------------------------------------------------------------------------
// Domain vocabulary
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum EqType {
    Ascenseur,
    MonteCharge,
    MonteVoiture,
    Elevateur,
    PorteFermeture,
}

impl EqType {
    const ALL: [EqType; 5] = [
        EqType::Ascenseur,
        EqType::MonteCharge,
        EqType::MonteVoiture,
        EqType::Elevateur,
        EqType::PorteFermeture,
    ];

    fn code(self) -> &'static str {
        match self {
            EqType::Ascenseur => "ascenseur",
            EqType::MonteCharge => "monte_charge",
            EqType::MonteVoiture => "monte_voiture",
            EqType::Elevateur => "elevateur",
            EqType::PorteFermeture => "porte_fermeture",
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            EqType::Ascenseur => "ASC",
            EqType::MonteCharge => "MCH",
            EqType::MonteVoiture => "MVT",
            EqType::Elevateur => "ELV",
            EqType::PorteFermeture => "PFE",
        }
    }

    fn index(self) -> usize {
        match self {
            EqType::Ascenseur => 0,
            EqType::MonteCharge => 1,
            EqType::MonteVoiture => 2,
            EqType::Elevateur => 3,
            EqType::PorteFermeture => 4,
        }
    }

    fn has_cabin(self) -> bool {
        matches!(
            self,
            EqType::Ascenseur | EqType::MonteCharge | EqType::MonteVoiture
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ClientKind {
    Syndic,
    Bailleur,
    Copropriete,
    Clinique,
    Hotel,
    Bureaux,
    Ehpad,
    Mairie,
    Commerce,
}

impl ClientKind {
    /// (kind, share of the clients, weight in the equipment park)
    const TABLE: [(ClientKind, u32, u32); 9] = [
        (ClientKind::Syndic, 14, 90),
        (ClientKind::Bailleur, 5, 140),
        (ClientKind::Copropriete, 36, 15),
        (ClientKind::Clinique, 4, 70),
        (ClientKind::Hotel, 8, 25),
        (ClientKind::Bureaux, 12, 40),
        (ClientKind::Ehpad, 6, 20),
        (ClientKind::Mairie, 4, 50),
        (ClientKind::Commerce, 5, 35),
    ];

    /// Housing: 10 % VAT on works, managed by syndics or social landlords.
    fn residential(self) -> bool {
        matches!(
            self,
            ClientKind::Syndic | ClientKind::Bailleur | ClientKind::Copropriete
        )
    }

    /// How such a client is invoiced: a co-ownership is not subject to
    /// VAT, a town hall and a public housing office are public bodies.
    fn billing(self, name: &str) -> Option<BillingCategory> {
        Some(match self {
            ClientKind::Copropriete => BillingCategory::Copropriete,
            ClientKind::Mairie => BillingCategory::OrganismePublic,
            ClientKind::Bailleur if name.starts_with("Office public") => {
                BillingCategory::OrganismePublic
            }
            _ => BillingCategory::Entreprise,
        })
    }

    fn types_json(self) -> &'static str {
        match self {
            ClientKind::Syndic => r#"["Gestionnaire"]"#,
            ClientKind::Bailleur => r#"["Propriétaire/exploitant","Gestionnaire"]"#,
            _ => r#"["Propriétaire/exploitant"]"#,
        }
    }

    /// Weights of ascenseur, monte_charge, monte_voiture, elevateur, porte_fermeture.
    fn equipment_mix(self) -> [u32; 5] {
        match self {
            ClientKind::Syndic | ClientKind::Copropriete => [84, 1, 3, 3, 9],
            ClientKind::Bailleur => [86, 0, 1, 4, 9],
            ClientKind::Clinique => [60, 25, 0, 10, 5],
            ClientKind::Hotel => [80, 15, 0, 3, 2],
            ClientKind::Bureaux => [74, 5, 5, 5, 11],
            ClientKind::Ehpad => [80, 5, 0, 15, 0],
            ClientKind::Mairie => [50, 5, 0, 40, 5],
            ClientKind::Commerce => [40, 25, 15, 10, 10],
        }
    }

    /// Largest number of equipment in one building.
    fn max_per_building(self) -> i64 {
        match self {
            ClientKind::Clinique | ClientKind::Bureaux | ClientKind::Commerce => 6,
            ClientKind::Bailleur | ClientKind::Mairie => 4,
            ClientKind::Syndic | ClientKind::Hotel => 3,
            ClientKind::Copropriete | ClientKind::Ehpad => 2,
        }
    }

    fn contact_roles(self) -> &'static [&'static str] {
        match self {
            ClientKind::Syndic => &[
                "Gestionnaire de copropriété",
                "Assistante de gestion",
                "Responsable technique",
            ],
            ClientKind::Bailleur => &["Responsable patrimoine", "Chargé de maintenance", "Gardien"],
            ClientKind::Copropriete => &[
                "Président du conseil syndical",
                "Gardien",
                "Membre du conseil syndical",
            ],
            ClientKind::Clinique => &[
                "Responsable des services techniques",
                "Directeur d'établissement",
                "Référent sur site",
            ],
            ClientKind::Hotel => &[
                "Directeur de l'hôtel",
                "Responsable maintenance",
                "Référent sur site",
            ],
            ClientKind::Bureaux => &[
                "Responsable des services généraux",
                "Property manager",
                "Référent sur site",
            ],
            ClientKind::Ehpad => &[
                "Directeur d'établissement",
                "Agent d'entretien",
                "Référent sur site",
            ],
            ClientKind::Mairie => &[
                "Responsable du patrimoine bâti",
                "Technicien bâtiments",
                "Référent sur site",
            ],
            ClientKind::Commerce => &[
                "Directeur du centre",
                "Responsable technique",
                "Référent sur site",
            ],
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Contract {
    Parc,
    HorsParc,
    None,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Knowledge {
    /// Almost nothing known (a brand, a year).
    Scarce,
    /// Part of the data.
    Partial,
    /// Every applicable datum.
    Complete,
}

struct Sector {
    name: &'static str,
    postal_code: &'static str,
    city: &'static str,
    streets: &'static [&'static str],
}

#[rustfmt::skip]
const WEST_SECTORS: &[Sector] = &[
    Sector { name: "Paris 15e", postal_code: "75015", city: "Paris", streets: &[
        "rue de Vaugirard", "rue de la Convention", "rue Lecourbe", "rue du Commerce",
        "rue Saint-Charles", "boulevard de Grenelle", "rue de Javel", "avenue Émile Zola",
        "rue Cambronne", "rue Blomet", "avenue Félix Faure", "rue de l'Abbé Groult",
    ] },
    Sector { name: "Paris 16e", postal_code: "75016", city: "Paris", streets: &[
        "avenue de Versailles", "rue de Passy", "avenue Mozart", "rue de la Pompe",
        "avenue Paul Doumer", "rue d'Auteuil", "boulevard Exelmans", "rue Chardon-Lagache",
        "avenue Théophile Gautier", "rue La Fontaine",
    ] },
    Sector { name: "Paris 17e", postal_code: "75017", city: "Paris", streets: &[
        "rue de Courcelles", "avenue de Wagram", "rue de Lévis", "boulevard Pereire",
        "rue Legendre", "avenue de Villiers", "rue des Dames", "rue Cardinet", "avenue de Clichy",
        "rue Guy Môquet",
    ] },
    Sector { name: "Paris 7e", postal_code: "75007", city: "Paris", streets: &[
        "rue de Grenelle", "rue Cler", "avenue Bosquet", "rue de Varenne", "rue du Bac",
        "rue Saint-Dominique", "avenue de La Motte-Picquet",
    ] },
    Sector { name: "Paris 14e", postal_code: "75014", city: "Paris", streets: &[
        "avenue du Général Leclerc", "rue d'Alésia", "rue Raymond Losserand", "avenue du Maine",
        "rue de la Tombe-Issoire", "boulevard Brune", "rue Didot",
    ] },
    Sector { name: "Boulogne-Billancourt", postal_code: "92100", city: "Boulogne-Billancourt", streets: &[
        "avenue Jean-Baptiste Clément", "rue de Silly", "boulevard Jean Jaurès",
        "avenue du Général Leclerc", "rue du Point du Jour", "route de la Reine",
        "avenue Édouard Vaillant", "rue de Paris", "rue Gallieni",
    ] },
    Sector { name: "Issy-les-Moulineaux", postal_code: "92130", city: "Issy-les-Moulineaux", streets: &[
        "rue du Général Leclerc", "avenue Victor Cresson", "rue Ernest Renan", "boulevard Gallieni",
        "rue Camille Desmoulins", "avenue de la République",
    ] },
    Sector { name: "Neuilly-sur-Seine", postal_code: "92200", city: "Neuilly-sur-Seine", streets: &[
        "avenue Charles de Gaulle", "boulevard Bineau", "rue de Chézy", "avenue du Roule",
        "boulevard Victor Hugo", "rue Madeleine Michelis",
    ] },
    Sector { name: "Levallois-Perret", postal_code: "92300", city: "Levallois-Perret", streets: &[
        "rue Anatole France", "rue Louis Rouquier", "rue Aristide Briand", "rue Voltaire",
        "rue Chaptal", "rue Paul Vaillant-Couturier",
    ] },
];

#[rustfmt::skip]
const EAST_SECTORS: &[Sector] = &[
    Sector { name: "Paris 11e", postal_code: "75011", city: "Paris", streets: &[
        "boulevard Voltaire", "rue de la Roquette", "rue Oberkampf", "avenue Parmentier",
        "rue de Charonne", "avenue de la République", "rue Saint-Maur", "rue du Chemin Vert",
    ] },
    Sector { name: "Paris 12e", postal_code: "75012", city: "Paris", streets: &[
        "avenue Daumesnil", "rue de Charenton", "boulevard Diderot", "rue de Picpus",
        "avenue du Général Michel Bizot", "rue de Reuilly", "boulevard de Reuilly",
        "rue du Faubourg Saint-Antoine",
    ] },
    Sector { name: "Paris 20e", postal_code: "75020", city: "Paris", streets: &[
        "rue des Pyrénées", "rue de Belleville", "avenue Gambetta", "rue de Bagnolet",
        "rue d'Avron", "boulevard de Ménilmontant", "rue de Ménilmontant",
    ] },
    Sector { name: "Paris 19e", postal_code: "75019", city: "Paris", streets: &[
        "avenue Jean Jaurès", "rue de Crimée", "avenue Secrétan", "rue Manin",
        "boulevard de la Villette", "rue de Meaux",
    ] },
    Sector { name: "Montreuil", postal_code: "93100", city: "Montreuil", streets: &[
        "rue de Paris", "boulevard Rouget de Lisle", "rue Marceau", "avenue de la Résistance",
        "boulevard Paul Vaillant-Couturier", "rue de Romainville",
    ] },
    Sector { name: "Vincennes", postal_code: "94300", city: "Vincennes", streets: &[
        "rue de Fontenay", "avenue de Paris", "rue du Midi", "rue Defrance", "avenue du Château",
        "rue de la Jarry",
    ] },
    Sector { name: "Saint-Mandé", postal_code: "94160", city: "Saint-Mandé", streets: &[
        "avenue du Général de Gaulle", "chaussée de l'Étang", "avenue Victor Hugo",
        "rue de la République",
    ] },
    Sector { name: "Fontenay-sous-Bois", postal_code: "94120", city: "Fontenay-sous-Bois", streets: &[
        "rue Roublot", "boulevard de Verdun", "avenue du Maréchal Joffre", "rue Dalayrac",
    ] },
    Sector { name: "Bagnolet", postal_code: "93170", city: "Bagnolet", streets: &[
        "avenue Gambetta", "rue Sadi Carnot", "avenue de la République", "rue Robespierre",
    ] },
];

const SECTOR_POOLS: [&[Sector]; 2] = [WEST_SECTORS, EAST_SECTORS];

#[rustfmt::skip]
const FIRST_NAMES: &[(&str, bool)] = &[
    ("Jean", false), ("Marie", true), ("Pierre", false), ("Sophie", true), ("Nicolas", false),
    ("Isabelle", true), ("Thomas", false), ("Nathalie", true), ("Julien", false), ("Céline", true),
    ("Laurent", false), ("Sandrine", true), ("Mehdi", false), ("Fatima", true), ("Karim", false),
    ("Amina", true), ("David", false), ("Stéphanie", true), ("Sébastien", false), ("Aurélie", true),
    ("Mathieu", false), ("Camille", true), ("Antoine", false), ("Émilie", true), ("Olivier", false),
    ("Valérie", true), ("Yannick", false), ("Hélène", true), ("Rachid", false), ("Nadia", true),
    ("François", false), ("Claire", true), ("Christophe", false), ("Julie", true),
    ("Frédéric", false), ("Laetitia", true), ("Alexandre", false), ("Inès", true), ("Kevin", false),
    ("Sarah", true), ("Moussa", false), ("Aïcha", true), ("Bruno", false), ("Patricia", true),
    ("Hugo", false), ("Léa", true), ("Vincent", false), ("Manon", true),
];

#[rustfmt::skip]
const LAST_NAMES: &[&str] = &[
    "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy",
    "Moreau", "Simon", "Laurent", "Lefèvre", "Michel", "Garcia", "David", "Bertrand", "Roux",
    "Vincent", "Fournier", "Morel", "Girard", "André", "Mercier", "Dupont", "Lambert", "Bonnet",
    "François", "Martinez", "Legrand", "Garnier", "Faure", "Rousseau", "Blanc", "Guérin", "Muller",
    "Henry", "Roussel", "Perrin", "Morin", "Mathieu", "Clément", "Gauthier", "Dumont", "Lopez",
    "Fontaine", "Chevalier", "Robin", "Masson", "Benali", "Haddad", "Diallo", "Traoré", "Nguyen",
    "Da Silva", "Ferreira", "Benoît", "Lemaire", "Barbier", "Caron",
];

#[rustfmt::skip]
const RESIDENCE_NAMES: &[&str] = &[
    "Résidence Les Tilleuls", "Résidence du Parc", "Résidence Les Acacias",
    "Résidence Le Clos Fleuri", "Les Terrasses de la Seine", "Le Belvédère", "Résidence Beauséjour",
    "Résidence Les Marronniers", "Le Hameau des Lilas", "Résidence Bellevue", "Le Panoramique",
    "Résidence Les Cèdres", "Résidence Saint-Exupéry", "Le Carré Vert", "Résidence Les Érables",
    "Résidence Les Glycines", "Villa des Arts", "Résidence Victor Hugo", "Résidence Jean Moulin",
    "Les Jardins du Square", "Résidence Le Montaigne", "Les Hauts du Parc",
    "Résidence Les Peupliers", "Le Mail Fleuri", "Résidence Les Sophoras", "Le Domaine des Oiseaux",
];

#[rustfmt::skip]
const BUSINESS_WORDS: &[&str] = &[
    "Horizon", "Lumière", "Quai Ouest", "Les Collines", "Seine Avenue", "Atlantis", "Le Ponant",
    "Carré Haussmann", "Les Miroirs", "Étoile", "Cœur Défense", "Le Lumen", "Arcadie", "Le Trident",
    "Rives de Seine", "Cristal",
];

#[rustfmt::skip]
const SAINTS: &[&str] = &[
    "Saint-Jean", "Sainte-Marie", "Saint-Joseph", "Saint-Louis", "Sainte-Thérèse", "Pasteur",
    "Ambroise Paré", "des Peupliers", "du Parc", "Jeanne d'Arc", "Saint-Vincent", "Marcel Sembat",
];

#[rustfmt::skip]
const HOTEL_WORDS: &[&str] = &[
    "Le Régent", "des Voyageurs", "Lutèce", "du Parc", "Beauséjour", "Saint-Germain", "Le Marais",
    "des Arts", "Le Littré", "Victoria", "Odéon Palace", "Les Jardins",
];

#[rustfmt::skip]
const FLOWERS: &[&str] = &[
    "Glycines", "Lilas", "Hortensias", "Myosotis", "Tilleuls", "Camélias", "Magnolias", "Capucines",
];

#[rustfmt::skip]
const BAILLEUR_WORDS: &[&str] = &[
    "Francilien", "Parisien", "Solidaire", "Familial", "de la Seine", "Social",
];

// ---------------------------------------------------------------------------
// Equipment profiles and technical values
// ---------------------------------------------------------------------------

struct Brand {
    name: &'static str,
    serial_prefix: &'static str,
    models: &'static [&'static str],
}

#[rustfmt::skip]
const LIFT_BRANDS_MODERN: &[Brand] = &[
    Brand { name: "Otis", serial_prefix: "OT", models: &["Gen2", "Gen2 Life", "Gen360", "2000 R"] },
    Brand { name: "Schindler", serial_prefix: "SC", models: &["3300", "5500", "S001", "Smart MRL"] },
    Brand { name: "Kone", serial_prefix: "KN", models: &["MonoSpace", "MiniSpace", "EcoSpace"] },
    Brand { name: "TK Elevator", serial_prefix: "TK", models: &["Synergy", "Evolution", "Citylift"] },
    Brand { name: "Orona", serial_prefix: "OR", models: &["3G 1010", "3G 2010"] },
    Brand { name: "Sodimas", serial_prefix: "SD", models: &["Tradition", "Hydro Confort"] },
];

#[rustfmt::skip]
const LIFT_BRANDS_OLD: &[Brand] = &[
    Brand { name: "Roux-Combaluzier", serial_prefix: "RC", models: &[] },
    Brand { name: "CFA", serial_prefix: "CF", models: &[] },
    Brand { name: "Soretex", serial_prefix: "SX", models: &[] },
    Brand { name: "Otis", serial_prefix: "OT", models: &["Otis 1970"] },
    Brand { name: "Schindler", serial_prefix: "SC", models: &[] },
];

#[rustfmt::skip]
const PLATFORM_BRANDS: &[Brand] = &[
    Brand { name: "Aritco", serial_prefix: "AR", models: &["PublicLift Access", "HomeLift"] },
    Brand { name: "ERMHES", serial_prefix: "EH", models: &["Gulliver"] },
    Brand { name: "Hiro Lift", serial_prefix: "HL", models: &["Hiro 450"] },
];

#[rustfmt::skip]
const DOOR_BRANDS: &[Brand] = &[
    Brand { name: "Hörmann", serial_prefix: "HO", models: &["SupraMatic", "ProMatic"] },
    Brand { name: "Came", serial_prefix: "CA", models: &["BX-243", "Ver"] },
    Brand { name: "Faac", serial_prefix: "FA", models: &["740", "844"] },
    Brand { name: "Novoferm", serial_prefix: "NF", models: &["Novomatic"] },
    Brand { name: "Nice", serial_prefix: "NI", models: &["Robus", "Hyppo"] },
];

/// The physical make-up of an equipment, from which its subtype, serial
/// number and every technical value follow consistently.
struct Profile {
    brand: &'static Brand,
    model: Option<&'static str>,
    hydraulic: bool,
    machine_room_less: bool,
    year: i64,
    controller_year: i64,
    levels: i64,
    load_kg: i64,
    speed: f64,
    faces: i64,
    cabin_width: i64,
    cabin_depth: i64,
    car_door: &'static str,
    subtype: &'static str,
}

impl Profile {
    fn derive(eq_type: EqType, seed: u64) -> Profile {
        let mut rng = StdRng::seed_from_u64(seed);
        let rng = &mut rng;
        let year = match eq_type {
            EqType::Ascenseur => between(rng, 1962, 2023),
            EqType::MonteCharge => between(rng, 1970, 2021),
            EqType::MonteVoiture => between(rng, 1985, 2022),
            EqType::Elevateur => between(rng, 2002, 2024),
            EqType::PorteFermeture => between(rng, 1995, 2024),
        };
        let brand = match eq_type {
            EqType::Elevateur => pick_ref(rng, PLATFORM_BRANDS),
            EqType::PorteFermeture => pick_ref(rng, DOOR_BRANDS),
            _ if year < 1985 => pick_ref(rng, LIFT_BRANDS_OLD),
            _ => pick_ref(rng, LIFT_BRANDS_MODERN),
        };
        let model = if brand.models.is_empty() || chance(rng, 0.15) {
            None
        } else {
            Some(pick(rng, brand.models))
        };
        let levels = match eq_type {
            EqType::Ascenseur => between(rng, 3, 12),
            EqType::MonteCharge => between(rng, 2, 5),
            EqType::MonteVoiture => between(rng, 2, 4),
            EqType::Elevateur => {
                if chance(rng, 0.85) {
                    2
                } else {
                    3
                }
            }
            EqType::PorteFermeture => 1,
        };
        let hydraulic = match eq_type {
            EqType::Ascenseur => levels <= 6 && chance(rng, 0.2),
            EqType::MonteCharge => chance(rng, 0.3),
            EqType::MonteVoiture => chance(rng, 0.9),
            EqType::Elevateur => chance(rng, 0.4),
            EqType::PorteFermeture => false,
        };
        let machine_room_less = match eq_type {
            EqType::Ascenseur => !hydraulic && year >= 2000 && chance(rng, 0.6),
            EqType::Elevateur => true,
            _ => false,
        };
        let load_kg = match eq_type {
            EqType::Ascenseur => pick(rng, &[320, 450, 630, 630, 630, 800, 1000, 1275]),
            EqType::MonteCharge => pick(rng, &[1000, 1500, 2000, 2500]),
            EqType::MonteVoiture => pick(rng, &[2500, 3000]),
            EqType::Elevateur => pick(rng, &[250, 315, 400]),
            EqType::PorteFermeture => 0,
        };
        let speed = match eq_type {
            EqType::Ascenseur if hydraulic => 0.63,
            EqType::Ascenseur if levels > 8 => 1.6,
            EqType::Ascenseur if year < 1985 => 0.63,
            EqType::Ascenseur => 1.0,
            EqType::MonteCharge => pick(rng, &[0.3, 0.4, 0.5]),
            EqType::MonteVoiture => 0.25,
            EqType::Elevateur => 0.15,
            EqType::PorteFermeture => 0.0,
        };
        let (cabin_width, cabin_depth) = match load_kg {
            0..=320 => (800, 1000),
            321..=450 => (1000, 1250),
            451..=630 => (1100, 1400),
            631..=800 => (1350, 1400),
            801..=1000 => (1100, 2100),
            1001..=1275 => (2000, 1400),
            1276..=1600 => (1400, 2400),
            1601..=2000 => (1500, 2700),
            _ if eq_type == EqType::MonteVoiture => (2400, 5400),
            _ => (1800, 2700),
        };
        let car_door = match eq_type {
            EqType::Ascenseur if year < 1980 => pick(rng, &["Battante", "Pliante"]),
            EqType::Ascenseur if load_kg >= 630 => "Automatique centrale",
            EqType::Ascenseur => "Automatique latérale",
            EqType::MonteCharge if year < 1985 => pick(rng, &["Sans porte", "Pliante"]),
            _ => "Automatique latérale",
        };
        let controller_year = if year >= 2005 || chance(rng, 0.3) {
            year
        } else {
            between(rng, (year + 15).min(2023), 2023)
        };
        let subtype = match eq_type {
            EqType::Ascenseur if hydraulic => "Hydraulique",
            EqType::Ascenseur if machine_room_less => "Électrique sans local machine",
            EqType::Ascenseur => "Électrique à traction",
            EqType::MonteCharge => pick(
                rng,
                &["Monte-charge accompagné", "Monte-charge non accompagné"],
            ),
            EqType::MonteVoiture => "Monte-voiture",
            EqType::Elevateur => pick(rng, &["Plateforme élévatrice PMR", "Élévateur vertical"]),
            EqType::PorteFermeture => pick(
                rng,
                &[
                    "Porte de parking basculante",
                    "Porte sectionnelle",
                    "Rideau métallique",
                    "Portail coulissant",
                ],
            ),
        };
        Profile {
            brand,
            model,
            hydraulic,
            machine_room_less,
            year,
            controller_year,
            levels,
            load_kg,
            speed,
            faces: if chance(rng, 0.85) { 1 } else { 2 },
            cabin_width,
            cabin_depth,
            car_door,
            subtype,
        }
    }
}

/// A value suggested for a field, before checking it against the catalog.
enum Hint {
    Num(f64),
    Text(&'static str),
    Bool(bool),
    Choice(&'static str),
}

fn round_to(value: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    (value * factor).round() / factor
}

/// What a technician would note for `code` on this equipment; None when the
/// datum makes no sense for it (a garage door has no landing doors) or the
/// field is unknown to this generator.
fn hint(code: &str, eq_type: EqType, profile: &Profile, rng: &mut StdRng) -> Option<Hint> {
    let door = eq_type == EqType::PorteFermeture;
    let automatic_car_door = profile.car_door.starts_with("Automatique");
    let value = match code {
        "charge_utile" if !door => Hint::Num(profile.load_kg as f64),
        "course" if !door => {
            let travel = if eq_type == EqType::Elevateur {
                rng.random_range(0.6..3.2)
            } else {
                (profile.levels - 1) as f64 * rng.random_range(2.7..3.1)
            };
            Hint::Num(round_to(travel, 2))
        }
        "vitesse" if !door => Hint::Num(profile.speed),
        "nombre_niveaux" if !door => Hint::Num(profile.levels as f64),
        "nombre_faces_de_service" if !door => Hint::Num(profile.faces as f64),
        "nombre_personnes" if eq_type == EqType::Ascenseur => {
            Hint::Num((profile.load_kg / 75) as f64)
        }
        "marque" => Hint::Text(profile.brand.name),
        "modele" => Hint::Text(profile.model?),
        "type_entrainement" => Hint::Choice(if profile.hydraulic {
            "Hydraulique"
        } else {
            "Electrique"
        }),
        "implantation_machinerie" if !door => Hint::Choice(if profile.machine_room_less {
            "Sans (MRL)"
        } else if profile.hydraulic {
            pick(rng, &["Basse", "Latérale"])
        } else if chance(rng, 0.85) {
            "Haute"
        } else {
            "Basse"
        }),
        "annee_mise_en_service" => Hint::Num(profile.year as f64),
        "dimensions_cabine_largeur" if eq_type.has_cabin() => Hint::Num(profile.cabin_width as f64),
        "dimensions_cabine_profondeur" if eq_type.has_cabin() => {
            Hint::Num(profile.cabin_depth as f64)
        }
        "gaine_profondeur_cuvette" if eq_type.has_cabin() => {
            Hint::Num((between(rng, 90, 160) * 10) as f64)
        }
        "gaine_largeur_cuvette" | "gaine_largeur_toit_cabine" | "gaine_largeur_paliers"
            if eq_type.has_cabin() =>
        {
            Hint::Num((profile.cabin_width + between(rng, 45, 70) * 10) as f64)
        }
        "gaine_reserve_tete" if eq_type.has_cabin() => {
            Hint::Num((between(rng, 320, 390) * 10) as f64)
        }
        "porte_cabine_type" if eq_type.has_cabin() => Hint::Choice(profile.car_door),
        "porte_cabine_passage" if eq_type.has_cabin() => Hint::Num(match eq_type {
            EqType::MonteVoiture => 2500.0,
            EqType::MonteCharge => 1400.0,
            _ if profile.load_kg >= 1000 => 1100.0,
            _ if profile.load_kg >= 630 => 900.0,
            _ => 800.0,
        }),
        "porte_cabine_operateur" if eq_type.has_cabin() && automatic_car_door => Hint::Text(pick(
            rng,
            &[
                "Fermator VVVF4+",
                "Sematic SDS",
                "Wittur Midi Supra",
                "Selcom Evolution",
                "Otis OVF10",
            ],
        )),
        "porte_cabine_cellule" if eq_type.has_cabin() => {
            Hint::Bool(automatic_car_door && (profile.year > 1995 || chance(rng, 0.4)))
        }
        "portes_palieres_type" if !door => Hint::Choice(if automatic_car_door {
            "Automatiques"
        } else if profile.car_door == "Battante" {
            "Battantes"
        } else {
            "Semi-automatiques"
        }),
        "machine_type" if !door => Hint::Choice(if profile.hydraulic {
            "Centrale hydraulique"
        } else if eq_type == EqType::MonteCharge && profile.year < 1975 {
            "Tambour"
        } else if profile.year >= 2000 && eq_type != EqType::Elevateur {
            "Gearless"
        } else {
            "Treuil à vis sans fin"
        }),
        "machine_marque" => Hint::Text(if door {
            profile.brand.name
        } else if profile.hydraulic {
            pick(rng, &["GMV", "Bucher Hydraulics", "Blain"])
        } else if profile.year >= 2000 {
            pick(rng, &["Ziehl-Abegg", "Montanari", "Sicor", "Leroy-Somer"])
        } else {
            pick(rng, &["Sassi", "Montanari", "Leroy-Somer", "Haushahn"])
        }),
        "machine_puissance" => Hint::Num(if door {
            pick(rng, &[0.37, 0.55, 0.75, 1.1])
        } else {
            let base = 2.0 + profile.load_kg as f64 * 0.006;
            round_to(if profile.hydraulic { base * 1.6 } else { base }, 1)
        }),
        "machine_nombre_cables" if eq_type.has_cabin() => Hint::Num(if profile.hydraulic {
            2.0
        } else {
            between(rng, 3, 7) as f64
        }),
        "machine_diametre_cables" if eq_type.has_cabin() => {
            Hint::Num(pick(rng, &[6.5, 8.0, 10.0, 11.0, 13.0]))
        }
        "machine_frein" if !door && !profile.hydraulic => Hint::Text(pick(
            rng,
            &[
                "Frein électromagnétique à mâchoires",
                "Frein à disque",
                "Frein à tambour",
            ],
        )),
        "armoire_marque" => Hint::Text(if door {
            pick(rng, &["Came", "Faac", "Nice", "Hörmann"])
        } else if profile.controller_year >= 2005 && chance(rng, 0.5) {
            profile.brand.name
        } else {
            pick(
                rng,
                &[
                    "Arkel",
                    "Cemelec",
                    "Sodimas",
                    "Microbasic",
                    "Schneider Electric",
                ],
            )
        }),
        "armoire_type_manoeuvre" if eq_type.has_cabin() => Hint::Choice(
            if eq_type != EqType::Ascenseur || profile.controller_year < 1985 {
                pick(rng, &["Blocage", "Collective descente"])
            } else {
                pick(
                    rng,
                    &[
                        "Collective descente",
                        "Collective descente",
                        "Collective montée-descente",
                        "Duplex",
                    ],
                )
            },
        ),
        "armoire_variateur" => Hint::Bool(profile.controller_year >= 2000 || chance(rng, 0.1)),
        "armoire_teleassistance" if eq_type == EqType::Ascenseur => Hint::Text(pick(
            rng,
            &[
                "Transmetteur GSM 4G",
                "Ligne téléphonique RTC",
                "Transmetteur IP",
                "Module 2G à remplacer",
            ],
        )),
        "armoire_annee" => Hint::Num(profile.controller_year as f64),
        _ => return None,
    };
    Some(value)
}

/// Renders the JSON value of `field` into `out`, honouring its value type
/// and choices; false when nothing sensible can be written.
fn render_value(field: &Field, hint: Option<Hint>, rng: &mut StdRng, out: &mut String) -> bool {
    out.clear();
    let Some(hint) = hint else {
        return false;
    };
    match field.value_type {
        ValueType::Number => match hint {
            Hint::Num(x) if x.is_finite() => {
                let _ = write!(out, "{x}");
            }
            _ => return false,
        },
        ValueType::Integer => match hint {
            Hint::Num(x) if x.is_finite() => {
                let _ = write!(out, "{}", x.round() as i64);
            }
            _ => return false,
        },
        ValueType::Boolean => match hint {
            Hint::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            _ => return false,
        },
        ValueType::Text => match hint {
            Hint::Text(text) | Hint::Choice(text) => push_json_str(out, text),
            _ => return false,
        },
        ValueType::Choice => {
            if field.choices.is_empty() {
                return false;
            }
            match hint {
                Hint::Choice(choice) if field.choices.iter().any(|c| c == choice) => {
                    push_json_str(out, choice)
                }
                // The catalog changed: stay valid with one of its choices.
                _ => {
                    let choice: &String = pick_ref(rng, &field.choices);
                    push_json_str(out, choice)
                }
            }
        }
        ValueType::Multi => {
            if field.choices.is_empty() {
                return false;
            }
            out.push('[');
            let mut first = true;
            for (index, choice) in field.choices.iter().enumerate() {
                if index == 0 || chance(rng, 0.3) {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    push_json_str(out, choice);
                }
            }
            out.push(']');
        }
    }
    true
}

// ---------------------------------------------------------------------------
// Per-agency generation
// ---------------------------------------------------------------------------

/// Stage numbers: each step draws from its own generator.
mod stage {
    pub const TECHNICIANS: u64 = 1;
    pub const ABSENCES: u64 = 2;
    pub const ON_CALL: u64 = 3;
    pub const CLIENTS: u64 = 4;
    pub const SURVEYS: u64 = 5;
    pub const VALUES: u64 = 6;
    pub const VISITS: u64 = 7;
    pub const CALLS: u64 = 8;
    pub const QUOTES: u64 = 9;
    pub const INVOICES: u64 = 10;
    pub const PROFILES: u64 = 11;
    pub const CONTRACTS: u64 = 12;
}

struct Tech {
    id: Id,
    active: bool,
    capacity: u8,
    absences: Vec<(NaiveDate, NaiveDate)>,
}

impl Tech {
    fn absent_on(&self, date: NaiveDate) -> bool {
        self.absences
            .iter()
            .any(|(from, to)| *from <= date && date <= *to)
    }

    fn absent_between(&self, from: NaiveDate, to: NaiveDate) -> bool {
        self.absences.iter().any(|(a, b)| *a <= to && from <= *b)
    }
}

struct ClientRec {
    id: Id,
    kind: ClientKind,
    prospect: bool,
    name: String,
    address: String,
    siren: Option<String>,
    equipment: Vec<u32>,
}

struct EquipRec {
    id: Id,
    eq_type: EqType,
    client: u32,
    sector: u8,
    home_tech: u32,
    contract: Contract,
    interval: i64,
    plan_start: Option<NaiveDate>,
    created: DateTime<Utc>,
    number: u32,
    knowledge: Knowledge,
    profile_seed: u64,
}

impl EquipRec {
    fn number_text(&self) -> String {
        format!("{}-{}", self.eq_type.prefix(), self.number)
    }
}

struct QuoteLine {
    label: String,
    quantity_milli: i64,
    unit_price_cents: i64,
    vat_rate_bp: u32,
}

struct AcceptedQuote {
    id: Id,
    client: u32,
    accepted_on: NaiveDate,
    rows: Vec<QuoteLine>,
}

struct AgencySeeder<'a> {
    writer: &'a mut dyn Writer,
    seed: u64,
    index: usize,
    agency: &'a DemoAgency,
    clock: Clock,
    targets: Targets,
    pool: &'static [Sector],
    catalog: &'a [Field],
    staff: Staff,
    call_centers: Vec<CallCenter>,
    technicians: Vec<Tech>,
    /// Active technicians covering each sector of the pool.
    sector_techs: Vec<Vec<u32>>,
    /// On-call periods: start, end, technician.
    on_call: Vec<(DateTime<Utc>, DateTime<Utc>, u32)>,
    clients: Vec<ClientRec>,
    equipment: Vec<EquipRec>,
    accepted_quotes: Vec<AcceptedQuote>,
    counts: DemoCounts,
}

impl AgencySeeder<'_> {
    fn run(&mut self) -> Result<()> {
        self.seed_technicians()?;
        self.seed_absences()?;
        self.seed_on_call()?;
        self.seed_clients_and_equipment()?;
        self.seed_surveys_and_technical_data()?;
        self.seed_visits()?;
        self.seed_calls()?;
        self.seed_quotes()?;
        self.seed_invoices()?;
        Ok(())
    }

    fn rng(&self, stage: u64) -> StdRng {
        let salt = ((self.index as u64) << 32) | stage;
        StdRng::seed_from_u64(mix(self.seed ^ mix(salt)))
    }

    fn active_techs(&self) -> Vec<u32> {
        (0..self.technicians.len() as u32)
            .filter(|&t| self.technicians[t as usize].active)
            .collect()
    }

    // -- Technicians, absences, on-call rota --------------------------------

    fn seed_technicians(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::TECHNICIANS);
        let (low, high) = self.targets.technicians;
        let count = between(&mut rng, low as i64, high as i64) as usize;
        // The last one left the company: kept for history, never assigned.
        let active_count = if count >= 5 { count - 1 } else { count };
        let sector_count = self.pool.len();
        let per_tech = if active_count * 2 >= sector_count {
            2
        } else {
            3
        };
        let mut names = HashSet::new();
        self.sector_techs = vec![Vec::new(); sector_count];
        let mut sectors_text = String::new();
        for i in 0..count {
            let active = i < active_count;
            let name = loop {
                let candidate = Person::random(&mut rng).full_name();
                if names.insert(candidate.clone()) || names.len() > 2_000 {
                    break candidate;
                }
            };
            // Spread the technicians over the sectors, two or three contiguous ones each.
            let start = i * sector_count / active_count.max(1);
            sectors_text.clear();
            for k in 0..per_tech {
                let sector = (start + k) % sector_count;
                if k > 0 {
                    sectors_text.push(',');
                }
                sectors_text.push_str(self.pool[sector].name);
                if active {
                    self.sector_techs[sector].push(i as u32);
                }
            }
            let capacity = pick(&mut rng, &[5u8, 6, 6, 6, 7]);
            let created = self.clock.ago(&mut rng, 120, 3_000);
            let proposed = new_id(&mut rng, created);
            let phone = mobile(&mut rng);
            let id = self.writer.technician(&TechnicianSeed {
                id: proposed,
                name: &name,
                sectors: &sectors_text,
                phone: &phone,
                daily_capacity: capacity,
                active,
                created,
                // Halfway between his arrival and today.
                left: (!active).then(|| created + (self.clock.now - created) / 2),
            })?;
            self.technicians.push(Tech {
                id,
                active,
                capacity,
                absences: Vec::new(),
            });
        }
        self.counts.technicians += count;
        Ok(())
    }

    fn seed_absences(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::ABSENCES);
        let today = self.clock.today;
        let active = self.active_techs();
        let mut planned: Vec<(u32, NaiveDate, NaiveDate, &str)> = Vec::new();
        for (position, &tech) in active.iter().enumerate() {
            // One technician absent today, one leaving soon, others with past leave.
            if position == 1 {
                let from = today - Duration::days(between(&mut rng, 1, 4));
                let to = today + Duration::days(between(&mut rng, 2, 8));
                let reason = pick(&mut rng, &["Arrêt maladie", "Congés payés"]);
                planned.push((tech, from, to, reason));
            } else if position == 2 {
                let from = today + Duration::days(between(&mut rng, 5, 15));
                let to = from + Duration::days(between(&mut rng, 4, 12));
                planned.push((tech, from, to, "Congés payés"));
            } else if self.targets.large && chance(&mut rng, 0.03) {
                let from = today - Duration::days(between(&mut rng, 0, 3));
                let to = today + Duration::days(between(&mut rng, 1, 6));
                planned.push((tech, from, to, "Congés payés"));
            }
            if chance(&mut rng, 0.35) {
                let from = today - Duration::days(between(&mut rng, 20, 90));
                let (length, reason) = pick(
                    &mut rng,
                    &[
                        (1, "Formation habilitation électrique"),
                        (2, "Formation travail en hauteur"),
                        (0, "RTT"),
                        (4, "Congés payés"),
                        (3, "Arrêt maladie"),
                    ],
                );
                planned.push((tech, from, from + Duration::days(length), reason));
            }
        }
        for (tech, from, to, reason) in planned {
            let created =
                Clock::midnight(from.min(today)) - Duration::days(between(&mut rng, 3, 20));
            let id = new_id(&mut rng, created);
            self.writer.absence(&AbsenceSeed {
                id,
                technician: self.technicians[tech as usize].id,
                from,
                to,
                reason,
                created,
            })?;
            self.technicians[tech as usize].absences.push((from, to));
        }
        Ok(())
    }

    fn seed_on_call(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::ON_CALL);
        let mut order = self.active_techs();
        if order.is_empty() {
            return Ok(());
        }
        // A shuffled rota, each technician in turn, skipping those on leave.
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        let today = self.clock.today;
        let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
        let mut turn = 0usize;
        for week in -self.targets.rota_weeks_past..self.targets.rota_weeks_ahead {
            // A rota week runs from Monday 08:00 to Monday 08:00, Paris time.
            let start_day = monday + Duration::weeks(week);
            let (starts, ends) = liftdesk_domain::rota::week_bounds(start_day);
            let mut chosen = order[turn % order.len()];
            for attempt in 0..order.len() {
                let candidate = order[(turn + attempt) % order.len()];
                if !self.technicians[candidate as usize]
                    .absent_between(start_day, start_day + Duration::days(7))
                {
                    chosen = candidate;
                    turn += attempt;
                    break;
                }
            }
            turn += 1;
            let created = (starts - Duration::days(30)).min(self.clock.now);
            let id = new_id(&mut rng, created);
            self.writer.on_call(&OnCallSeed {
                id,
                technician: self.technicians[chosen as usize].id,
                starts,
                ends,
                created,
            })?;
            self.on_call.push((starts, ends, chosen));
        }
        Ok(())
    }

    fn on_call_at(&self, at: DateTime<Utc>) -> Option<u32> {
        self.on_call
            .iter()
            .find(|(start, end, _)| *start <= at && at < *end)
            .map(|(_, _, tech)| *tech)
    }
}

// ---------------------------------------------------------------------------
// Clients, contacts, buildings, equipment
// ---------------------------------------------------------------------------

/// `value` ± `percent` %.
fn jitter(rng: &mut StdRng, value: usize, percent: i64) -> usize {
    let spread = value as i64 * percent / 100;
    (value as i64 + between(rng, -spread, spread)).max(1) as usize
}

fn shuffle<T>(rng: &mut StdRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// Uniform instant in `from..=to` (or `from` when empty).
fn instant_between(rng: &mut StdRng, from: DateTime<Utc>, to: DateTime<Utc>) -> DateTime<Utc> {
    let span = (to - from).num_milliseconds();
    from + Duration::milliseconds(between(rng, 0, span))
}

struct ClientPlan {
    kind: ClientKind,
    prospect: bool,
    deleted: bool,
    quota: i64,
}

impl AgencySeeder<'_> {
    /// A street address of the sector not used yet in this agency.
    fn new_address(
        &self,
        rng: &mut StdRng,
        sector: usize,
        used: &mut HashSet<(usize, usize, i64, bool)>,
    ) -> String {
        let streets = self.pool[sector].streets;
        for attempt in 0..200 {
            let street = rng.random_range(0..streets.len());
            // Small numbers are more frequent, as on real streets.
            let number = if attempt < 100 && chance(rng, 0.7) {
                between(rng, 1, 60)
            } else {
                between(rng, 1, 240)
            };
            let bis = chance(rng, 0.05);
            if used.insert((sector, street, number, bis)) {
                return format!(
                    "{number}{} {}",
                    if bis { " bis" } else { "" },
                    streets[street]
                );
            }
        }
        // Crowded pool (large size): an address may serve twice.
        format!("{} {}", between(rng, 1, 300), pick(rng, streets))
    }

    fn plan_clients(
        &self,
        rng: &mut StdRng,
        count: usize,
        equipment_target: usize,
    ) -> Vec<ClientPlan> {
        let shares: Vec<u32> = ClientKind::TABLE.iter().map(|k| k.1).collect();
        let mut plans = Vec::with_capacity(count);
        let mut weights = Vec::with_capacity(count);
        for i in 0..count {
            let (kind, _, equipment_weight) = ClientKind::TABLE[pick_weighted(rng, &shares)];
            let prospect = i % 8 == 5;
            plans.push(ClientPlan {
                kind,
                prospect,
                deleted: false,
                quota: 0,
            });
            weights.push(if prospect {
                0.0
            } else {
                f64::from(equipment_weight) * rng.random_range(0.4..1.6)
            });
        }
        // The last prospect was deleted: it keeps its row, nothing else.
        if let Some(last) = plans.iter_mut().rev().find(|p| p.prospect) {
            last.deleted = true;
        }
        let mut prospect_equipment = 0;
        for plan in plans.iter_mut().filter(|p| p.prospect && !p.deleted) {
            plan.quota = between(rng, 1, 2);
            prospect_equipment += plan.quota;
        }
        let rest = (equipment_target as i64 - prospect_equipment).max(0) as f64;
        let total_weight: f64 = weights.iter().sum();
        for (plan, weight) in plans.iter_mut().zip(&weights) {
            if !plan.prospect && total_weight > 0.0 {
                plan.quota = ((rest * weight / total_weight).round() as i64).max(1);
            }
        }
        // Rounding drift goes to the biggest account, so the total is exact.
        let drift = equipment_target as i64 - plans.iter().map(|p| p.quota).sum::<i64>();
        if let Some(biggest) = plans
            .iter_mut()
            .filter(|p| !p.prospect)
            .max_by_key(|p| p.quota)
        {
            biggest.quota = (biggest.quota + drift).max(1);
        }
        plans
    }

    fn client_name(
        &self,
        rng: &mut StdRng,
        kind: &mut ClientKind,
        sector: usize,
        address: &str,
        used_mairies: &mut HashSet<usize>,
    ) -> String {
        let last = pick(rng, LAST_NAMES);
        let other = pick(rng, LAST_NAMES);
        match *kind {
            ClientKind::Syndic => match rng.random_range(0..6) {
                0 => format!("Cabinet {last}"),
                1 => format!("Cabinet {last} & Associés"),
                2 => format!("{last} Gestion Immobilière"),
                3 => format!("Administration de biens {last}-{other}"),
                4 => format!("Syndic {last} & Fils"),
                _ => format!("Agence {last} Syndic"),
            },
            ClientKind::Bailleur => {
                let city = self.pool[sector].city;
                match rng.random_range(0..4) {
                    0 => format!("{city} Habitat"),
                    1 => format!("Logis {}", pick(rng, BAILLEUR_WORDS)),
                    2 => format!("SA HLM Le Foyer {}", pick(rng, BAILLEUR_WORDS)),
                    _ => format!("Office public de l'habitat {}", of_place(city)),
                }
            }
            ClientKind::Copropriete => format!("Syndicat des copropriétaires du {address}"),
            ClientKind::Clinique => match rng.random_range(0..3) {
                0 => format!("Clinique {}", pick(rng, SAINTS)),
                1 => format!("Hôpital privé {}", pick(rng, SAINTS)),
                _ => format!("Centre de rééducation {}", pick(rng, SAINTS)),
            },
            ClientKind::Hotel => format!("Hôtel {}", pick(rng, HOTEL_WORDS)),
            ClientKind::Bureaux => match rng.random_range(0..3) {
                0 => format!("SCI {}", pick(rng, BUSINESS_WORDS)),
                1 => format!("Foncière {}", pick(rng, BUSINESS_WORDS)),
                _ => format!("{} Bureaux", pick(rng, BUSINESS_WORDS)),
            },
            ClientKind::Ehpad => match rng.random_range(0..2) {
                0 => format!("EHPAD Les {}", pick(rng, FLOWERS)),
                _ => format!("Résidence seniors Les {}", pick(rng, FLOWERS)),
            },
            ClientKind::Mairie => {
                // One town hall per sector; once all are taken, an office owner instead.
                if used_mairies.insert(sector) {
                    let sector_info = &self.pool[sector];
                    match sector_info.name.strip_prefix("Paris ") {
                        Some(arrondissement) => {
                            format!("Ville de Paris — Mairie du {arrondissement}")
                        }
                        None => format!("Ville {}", of_place(sector_info.city)),
                    }
                } else {
                    *kind = ClientKind::Bureaux;
                    format!("Foncière {}", pick(rng, BUSINESS_WORDS))
                }
            }
            ClientKind::Commerce => match rng.random_range(0..3) {
                0 => format!(
                    "Centre commercial Les Portes {}",
                    of_place(self.pool[sector].city)
                ),
                1 => format!("Galerie marchande {}", pick(rng, BUSINESS_WORDS)),
                _ => format!("Supermarché {} {}", last, self.pool[sector].city),
            },
        }
    }

    fn building_name(
        &self,
        rng: &mut StdRng,
        client: &ClientRec,
        position: usize,
    ) -> Option<String> {
        match client.kind {
            ClientKind::Syndic | ClientKind::Copropriete => {
                chance(rng, 0.7).then(|| pick(rng, RESIDENCE_NAMES).to_owned())
            }
            ClientKind::Bailleur => Some(format!(
                "{} — Bâtiment {}",
                pick(rng, RESIDENCE_NAMES),
                char::from(b'A' + (rng.random_range(0..5u8)))
            )),
            ClientKind::Clinique => Some(
                (*[
                    "Bâtiment principal",
                    "Pavillon Pasteur",
                    "Pavillon Laennec",
                    "Bâtiment B — Consultations",
                    "Aile Est",
                    "Bâtiment C — Logistique",
                ]
                .get(position)
                .unwrap_or(&"Annexe"))
                .to_owned(),
            ),
            ClientKind::Hotel | ClientKind::Ehpad => Some(client.name.clone()),
            ClientKind::Bureaux => Some(format!("Immeuble {}", pick(rng, BUSINESS_WORDS))),
            ClientKind::Mairie => Some(
                pick(
                    rng,
                    &[
                        "Hôtel de ville",
                        "Groupe scolaire Jules Ferry",
                        "Médiathèque municipale",
                        "Gymnase Jean Moulin",
                        "Centre administratif",
                        "Conservatoire municipal",
                        "Crèche municipale Les Petits Loups",
                    ],
                )
                .to_owned(),
            ),
            ClientKind::Commerce => Some(if position == 0 {
                client.name.clone()
            } else {
                "Parking du centre".to_owned()
            }),
        }
    }

    fn seed_clients_and_equipment(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::CLIENTS);
        let mut profile_rng = self.rng(stage::PROFILES);
        let clock = self.clock;
        let today = clock.today;
        // Benchmarks want round volumes; small agencies differ a little.
        let (client_spread, equipment_spread) = if self.targets.large { (0, 0) } else { (10, 5) };
        let client_count = jitter(&mut rng, self.targets.clients, client_spread);
        let equipment_target = jitter(&mut rng, self.targets.equipment, equipment_spread);
        let plans = self.plan_clients(&mut rng, client_count, equipment_target);
        let total_equipment: i64 = plans.iter().map(|p| p.quota).sum();

        let mut used_addresses = HashSet::new();
        let mut used_names = HashSet::new();
        let mut used_sirens = HashSet::new();
        let mut used_mairies = HashSet::new();
        let all_active = self.active_techs();
        // Equipment numbers are unique per agency; each agency has its own range.
        let mut next_number: u32 = 10_000 + 70_000 * (self.index as u32 % 2);
        let mut contract_seq = between(&mut rng, 100, 900);
        // The maintenance contracts have their own generator (the clients'
        // and equipment's draws stay as they were) and are numbered as
        // `contracts::next_number` numbers them in the order they are
        // written: per year of their creation.
        let mut contract_rng = self.rng(stage::CONTRACTS);
        let mut contract_numbers: BTreeMap<i32, u32> = BTreeMap::new();
        let mut external_seq = between(&mut rng, 40_000_000, 41_000_000);
        let mut types_seen = [false; 5];
        let mut equipment_made = 0i64;

        for (position, plan) in plans.iter().enumerate() {
            let mut kind = plan.kind;
            let sector = rng.random_range(0..self.pool.len());
            let address = self.new_address(&mut rng, sector, &mut used_addresses);
            let mut name =
                self.client_name(&mut rng, &mut kind, sector, &address, &mut used_mairies);
            if !used_names.insert(name.clone()) {
                // Same brand in two towns: told apart by the town, then by a number.
                name = format!("{name} ({})", self.pool[sector].city);
                let mut suffix = 2;
                while !used_names.insert(name.clone()) {
                    name = format!("{name} {suffix}");
                    suffix += 1;
                }
            }
            let sector_info = &self.pool[sector];
            let full_address = format!(
                "{address}, {} {}",
                sector_info.postal_code, sector_info.city
            );
            let siren = if (kind == ClientKind::Copropriete && chance(&mut rng, 0.3))
                || (plan.prospect && chance(&mut rng, 0.3))
            {
                None
            } else {
                loop {
                    let mut prefix = String::with_capacity(9);
                    if kind == ClientKind::Mairie {
                        prefix.push_str("21");
                        random_digits(&mut rng, 6, &mut prefix);
                    } else {
                        prefix.push(char::from(b'0' + rng.random_range(3..10u8)));
                        random_digits(&mut rng, 7, &mut prefix);
                    }
                    let candidate = luhn_complete(&prefix);
                    if used_sirens.insert(candidate.clone()) {
                        break Some(candidate);
                    }
                }
            };
            let siret = siren
                .as_ref()
                .map(|siren| luhn_complete(&format!("{siren}{:04}", between(&mut rng, 1, 60))));
            let domain = client_domain(kind, &name, &self.pool[sector]);
            let email = match kind {
                ClientKind::Copropriete => None,
                ClientKind::Mairie => Some(format!("services.techniques@{domain}")),
                _ => Some(format!(
                    "{}@{domain}",
                    pick(&mut rng, &["contact", "accueil", "technique", "gestion"])
                )),
            };
            let complement = chance(&mut rng, 0.15).then(|| {
                pick(
                    &mut rng,
                    &[
                        "Bâtiment B",
                        "2e étage",
                        "Service technique",
                        "Entrée par la cour",
                        "Escalier C",
                    ],
                )
            });
            let created = if plan.prospect {
                clock.ago(&mut rng, 40, 300)
            } else {
                clock.ago(&mut rng, 400, 2_900)
            };
            let updated = clock.office_between(&mut rng, created, clock.now);
            let proposed = new_id(&mut rng, created);
            let types = if plan.prospect && chance(&mut rng, 0.3) {
                "[]"
            } else {
                kind.types_json()
            };
            let phone = landline(&mut rng);
            let id = self.writer.client(&ClientSeed {
                id: proposed,
                client_ref: &format!("CLI-{:06}", 100 + position),
                name: &name,
                prospect: plan.prospect,
                types,
                email: email.as_deref(),
                phone: &phone,
                address: &full_address,
                address_complement: complement,
                siren: siren.as_deref(),
                siret: siret.as_deref(),
                archived: plan.deleted,
                billing: kind.billing(&name),
                created,
                updated,
            })?;
            self.counts.clients += 1;

            // Contacts: the main one first, then one or two more.
            let roles = kind.contact_roles();
            let contact_count = 1 + pick_weighted(&mut rng, &[35, 45, 20]);
            for c in 0..contact_count {
                let role = if c == 0 {
                    roles[0]
                } else {
                    pick(&mut rng, roles)
                };
                let person = Person::random(&mut rng);
                let email = match role {
                    "Gardien" => chance(&mut rng, 0.4).then(|| {
                        format!(
                            "{}@{}",
                            person.email_local(false),
                            pick(&mut rng, &["gmail.com", "orange.fr"])
                        )
                    }),
                    "Président du conseil syndical" | "Membre du conseil syndical" => {
                        Some(format!(
                            "{}@{}",
                            person.email_local(false),
                            pick(
                                &mut rng,
                                &["gmail.com", "orange.fr", "free.fr", "laposte.net", "sfr.fr"]
                            )
                        ))
                    }
                    _ => Some(format!("{}@{domain}", person.email_local(true))),
                };
                let phone = if role == "Gardien" || chance(&mut rng, 0.4) {
                    landline(&mut rng)
                } else {
                    mobile(&mut rng)
                };
                let contact_created = clock.office_between(
                    &mut rng,
                    created,
                    (created + Duration::days(200)).min(clock.now),
                );
                let contact_id = new_id(&mut rng, contact_created);
                self.writer.contact(&ContactSeed {
                    id: contact_id,
                    client: id,
                    name: &person.full_name(),
                    email: email.as_deref(),
                    phone: &phone,
                    role,
                    created: contact_created,
                })?;
                self.counts.contacts += 1;
            }

            let client_index = self.clients.len() as u32;
            self.clients.push(ClientRec {
                id,
                kind,
                prospect: plan.prospect,
                name,
                address: full_address,
                siren,
                equipment: Vec::new(),
            });

            // Buildings and their equipment.
            let single_site = matches!(
                kind,
                ClientKind::Copropriete | ClientKind::Hotel | ClientKind::Ehpad
            );
            let mut remaining = plan.quota;
            let mut building_position = 0usize;
            while remaining > 0 {
                let size = if single_site {
                    remaining
                } else {
                    between(&mut rng, 1, kind.max_per_building().min(remaining))
                };
                remaining -= size;
                // The owner's own site first; a syndic's or landlord's buildings are elsewhere.
                let on_client_site = !matches!(kind, ClientKind::Syndic | ClientKind::Bailleur)
                    && (building_position == 0 || kind == ClientKind::Clinique);
                let (building_sector, building_address) = if on_client_site {
                    (sector, address.clone())
                } else {
                    let other = rng.random_range(0..self.pool.len());
                    (
                        other,
                        self.new_address(&mut rng, other, &mut used_addresses),
                    )
                };
                let building_name = self.building_name(
                    &mut rng,
                    &self.clients[client_index as usize],
                    building_position,
                );
                let residential = kind.residential();
                let access = if residential {
                    pick(
                        &mut rng,
                        &[
                            r#"["Digicode"]"#,
                            r#"["Digicode"]"#,
                            r#"["Vigik"]"#,
                            r#"["Digicode","Vigik"]"#,
                            r#"["Coffre à clé"]"#,
                            r#"["Autre"]"#,
                        ],
                    )
                } else {
                    pick(
                        &mut rng,
                        &[
                            r#"["Sans"]"#,
                            r#"["Sans"]"#,
                            r#"["Autre"]"#,
                            r#"["Coffre à clé"]"#,
                        ],
                    )
                };
                let digicode = access.contains("Digicode").then(|| {
                    format!(
                        "{}{:04}",
                        pick(&mut rng, &["A", "B", ""]),
                        rng.random_range(0..10_000)
                    )
                });
                let key_box = access.contains("Coffre").then(|| {
                    format!(
                        "Boîte à clé à gauche de l'entrée, code {:04}",
                        rng.random_range(0..10_000)
                    )
                });
                let access_other = access.contains("Autre").then(|| {
                    pick(
                        &mut rng,
                        &[
                            "Badge à récupérer auprès du gardien (loge au rez-de-chaussée)",
                            "Se présenter à l'accueil, clé au PC sécurité",
                            "Appeler le référent sur site 15 minutes avant l'arrivée",
                        ],
                    )
                });
                let complement = (building_position > 0 && on_client_site)
                    .then(|| {
                        format!(
                            "Bâtiment {}",
                            char::from(b'A' + (building_position % 26) as u8)
                        )
                    })
                    .or_else(|| chance(&mut rng, 0.1).then(|| "Entrée par le parking".to_owned()));
                let building_created = clock.office_between(
                    &mut rng,
                    created,
                    (created + Duration::days(60)).min(clock.now),
                );
                let proposed_building = new_id(&mut rng, building_created);
                let building_sector_info = &self.pool[building_sector];
                let building_id = self.writer.building(&BuildingSeed {
                    id: proposed_building,
                    client: id,
                    name: building_name.as_deref(),
                    address: &building_address,
                    address_complement: complement.as_deref(),
                    postal_code: building_sector_info.postal_code,
                    city: building_sector_info.city,
                    access,
                    access_other,
                    digicode: digicode.as_deref(),
                    key_box: key_box.as_deref(),
                    created: building_created,
                })?;
                self.counts.buildings += 1;
                building_position += 1;

                for slot in 0..size {
                    // Make sure every equipment type exists in the agency.
                    let missing = types_seen.iter().filter(|seen| !**seen).count() as i64;
                    let first_missing = EqType::ALL.into_iter().find(|t| !types_seen[t.index()]);
                    let eq_type = match first_missing {
                        Some(forced) if total_equipment - equipment_made <= missing => forced,
                        _ => EqType::ALL[pick_weighted(&mut rng, &kind.equipment_mix())],
                    };
                    types_seen[eq_type.index()] = true;
                    equipment_made += 1;

                    let profile_seed: u64 = profile_rng.random();
                    let profile = Profile::derive(eq_type, profile_seed);
                    next_number += rng.random_range(1..=3u32);
                    let serial = chance(&mut rng, 0.9).then(|| {
                        format!(
                            "{}{:02}-{:06}",
                            profile.brand.serial_prefix,
                            profile.year % 100,
                            rng.random_range(0..1_000_000)
                        )
                    });
                    let location = match eq_type {
                        EqType::Ascenseur if size > 1 => {
                            Some(format!("Escalier {}", char::from(b'A' + (slot % 26) as u8)))
                        }
                        EqType::Ascenseur => chance(&mut rng, 0.8).then(|| {
                            pick(
                                &mut rng,
                                &["Hall principal", "Hall d'entrée", "Cage d'escalier"],
                            )
                            .to_owned()
                        }),
                        EqType::MonteCharge => Some(
                            pick(
                                &mut rng,
                                &["Quai de livraison", "Cuisines", "Réserve", "Office"],
                            )
                            .to_owned(),
                        ),
                        EqType::MonteVoiture => Some("Parking niveau -1".to_owned()),
                        EqType::Elevateur => Some(
                            pick(
                                &mut rng,
                                &[
                                    "Entrée principale (accès PMR)",
                                    "Mezzanine",
                                    "Salle polyvalente",
                                ],
                            )
                            .to_owned(),
                        ),
                        EqType::PorteFermeture => Some(
                            pick(
                                &mut rng,
                                &["Entrée parking", "Sortie parking", "Accès livraisons"],
                            )
                            .to_owned(),
                        ),
                    };
                    let contract = if plan.prospect {
                        if chance(&mut rng, 0.4) {
                            Contract::HorsParc
                        } else {
                            Contract::None
                        }
                    } else {
                        [Contract::Parc, Contract::HorsParc, Contract::None]
                            [pick_weighted(&mut rng, &[82, 11, 7])]
                    };
                    let equipment_created = clock.office_between(
                        &mut rng,
                        building_created,
                        (building_created + Duration::days(20)).min(clock.now),
                    );
                    let plan_start = (contract == Contract::Parc).then(|| {
                        equipment_created.date_naive() + Duration::days(between(&mut rng, 0, 45))
                    });
                    // The lift's contract record: in force for a lift of the
                    // park, or a draft being negotiated for one without contract.
                    let record_created = match contract {
                        _ if plan.deleted || plan.prospect => None,
                        Contract::Parc => Some(clock.office_between(
                            &mut contract_rng,
                            equipment_created,
                            (equipment_created + Duration::days(3)).min(clock.now),
                        )),
                        Contract::None if chance(&mut contract_rng, 0.5) => {
                            Some(clock.office_between(
                                &mut contract_rng,
                                equipment_created.max(clock.now - Duration::days(30)),
                                clock.now,
                            ))
                        }
                        _ => None,
                    };
                    let record_number = record_created.map(|created| {
                        let year = liftdesk_domain::time::paris_local(created).year();
                        let seq = contract_numbers.entry(year).or_insert(0);
                        *seq += 1;
                        format!("CT-{year}-{:05}", *seq)
                    });
                    let contract_number = match (contract, plan_start) {
                        (Contract::Parc, _) if record_number.is_some() => record_number.clone(),
                        (Contract::Parc, Some(start)) => {
                            contract_seq += 1;
                            Some(format!("CT-{}-{:05}", start.year(), contract_seq))
                        }
                        (Contract::HorsParc, _) if chance(&mut rng, 0.4) => {
                            contract_seq += 1;
                            Some(format!(
                                "CT-{}-{:05}",
                                equipment_created.year().min(today.year()) - 3,
                                contract_seq
                            ))
                        }
                        _ => None,
                    };
                    let external_id = chance(&mut rng, 0.3).then(|| {
                        external_seq += between(&mut rng, 1, 40);
                        format!("SAP-{external_seq:08}")
                    });
                    let interval = if contract == Contract::Parc && chance(&mut rng, 0.15) {
                        30
                    } else {
                        i64::from(liftdesk_domain::visit::DEFAULT_INTERVAL_DAYS)
                    };
                    let knowledge = if plan.prospect {
                        [Knowledge::Scarce, Knowledge::Partial][pick_weighted(&mut rng, &[60, 40])]
                    } else {
                        [Knowledge::Scarce, Knowledge::Partial, Knowledge::Complete]
                            [pick_weighted(&mut rng, &[15, 55, 30])]
                    };
                    let candidates = &self.sector_techs[building_sector];
                    let home_tech = if !candidates.is_empty() {
                        pick(&mut rng, candidates)
                    } else if !all_active.is_empty() {
                        pick(&mut rng, &all_active)
                    } else {
                        0
                    };
                    let proposed_equipment = new_id(&mut rng, equipment_created);
                    let mut record = EquipRec {
                        id: proposed_equipment,
                        eq_type,
                        client: client_index,
                        sector: building_sector as u8,
                        home_tech,
                        contract,
                        interval,
                        plan_start,
                        created: equipment_created,
                        number: next_number,
                        knowledge,
                        profile_seed,
                    };
                    let updated = clock.office_between(&mut rng, equipment_created, clock.now);
                    record.id = self.writer.equipment(&EquipmentSeed {
                        id: proposed_equipment,
                        building: building_id,
                        client: id,
                        number: &record.number_text(),
                        serial_number: serial.as_deref(),
                        eq_type: eq_type.code(),
                        subtype: profile.subtype,
                        location: location.as_deref(),
                        contract: match contract {
                            Contract::Parc => Some("parc"),
                            Contract::HorsParc => Some("hors_parc"),
                            Contract::None => None,
                        },
                        contract_number: contract_number.as_deref(),
                        external_id: external_id.as_deref(),
                        visit_interval_days: interval,
                        plan_start,
                        created: equipment_created,
                        updated,
                    })?;
                    if let (Some(created), Some(number)) = (record_created, &record_number) {
                        let start = plan_start.unwrap_or_else(|| {
                            let day = liftdesk_domain::time::paris_local(created).date();
                            liftdesk_domain::contract::add_months(
                                liftdesk_domain::contract::month_of(day),
                                1,
                            )
                        });
                        let copropriete = kind == ClientKind::Copropriete;
                        self.seed_contract(
                            &mut contract_rng,
                            ContractPlan {
                                client: id,
                                equipment: record.id,
                                number,
                                eq_type,
                                copropriete,
                                start,
                                interval,
                                created,
                                in_force: contract == Contract::Parc,
                            },
                        )?;
                    }
                    self.clients[client_index as usize]
                        .equipment
                        .push(self.equipment.len() as u32);
                    self.equipment.push(record);
                    self.counts.equipment += 1;
                }
            }
        }
        self.seed_index_values()
    }

    /// The demo's BT48 values, each recorded once published.
    fn seed_index_values(&mut self) -> Result<()> {
        let mut month = NaiveDate::from_ymd_opt(INDEX_FROM.0, INDEX_FROM.1, 1).unwrap_or_default();
        while let Some(recorded) = index_recorded(month).filter(|at| *at <= self.clock.now) {
            self.writer.index_value(&IndexValueSeed {
                index: DEMO_INDEX,
                month,
                value: demo_index_value(month),
                recorded,
            })?;
            month = liftdesk_domain::contract::add_months(month, 1);
        }
        Ok(())
    }

    /// A lift's maintenance contract: its type, price, billing and
    /// commitments drawn, in force (sometimes ended since by a notice) or a
    /// draft.
    fn seed_contract(&mut self, rng: &mut StdRng, plan: ContractPlan<'_>) -> Result<()> {
        let clock = self.clock;
        let contract_type = [
            ContractType::Minimal,
            ContractType::Normal,
            ContractType::Etendu,
            ContractType::Complet,
        ][pick_weighted(rng, &[10, 30, 25, 35])];
        let (low, high) = match contract_type {
            ContractType::Minimal => (90, 130),
            ContractType::Normal => (140, 190),
            ContractType::Etendu => (190, 260),
            ContractType::Complet => (260, 380),
        };
        let factor = match plan.eq_type {
            EqType::PorteFermeture => 5,
            EqType::Elevateur => 7,
            _ => 10,
        };
        // Tens of euros, then cents.
        let annual_price_cents = between(rng, low, high) * factor * 100;
        let frequency = [
            BillingFrequency::Trimestrielle,
            BillingFrequency::Annuelle,
            BillingFrequency::Semestrielle,
            BillingFrequency::Mensuelle,
        ][pick_weighted(rng, &[70, 15, 10, 5])];
        let timing =
            [BillingTiming::TermeAEchoir, BillingTiming::TermeEchu][pick_weighted(rng, &[80, 20])];
        let created_on = liftdesk_domain::time::paris_local(plan.created).date();
        let indexed = chance(rng, 0.85);
        let base = latest_index_known(created_on, plan.start);
        let recent = plan.start > clock.today - Duration::days(300);
        let tacit_renewal = !(recent && chance(rng, 0.08));
        let (arrival, trapped, restore, out_of_hours, penalty) = match contract_type {
            ContractType::Complet => (120, 45, 1440, Some(240), 5_000),
            ContractType::Etendu => (240, 60, 2880, Some(360), 0),
            ContractType::Normal => (240, 60, 2880, None, 0),
            ContractType::Minimal => (480, 60, 4320, None, 0),
        };
        let activated = plan
            .in_force
            .then(|| clock.later(rng, plan.created, 5, 2 * 24 * 60));
        let terminated = match activated {
            Some(activated)
                if tacit_renewal
                    && activated < clock.now - Duration::days(60)
                    && chance(rng, 0.04) =>
            {
                let at = clock.office_between(rng, clock.now - Duration::days(60), clock.now);
                Some(seeds::TerminationSeed {
                    at,
                    notice_on: liftdesk_domain::time::paris_local(at).date(),
                    reason: pick(
                        rng,
                        &[
                            "Changement de prestataire après appel d'offres",
                            "Vente de l'immeuble",
                            "Remplacement de l'appareil décidé en assemblée générale",
                            "Regroupement des contrats chez un autre mainteneur",
                        ],
                    ),
                })
            }
            _ => None,
        };
        let id = new_id(rng, plan.created);
        self.writer.contract(&ContractSeed {
            id,
            client: plan.client,
            equipment: plan.equipment,
            number: plan.number,
            contract_type,
            start_on: plan.start,
            tacit_renewal,
            annual_price_cents,
            frequency,
            timing,
            vat_rate_bp: if plan.copropriete { 1000 } else { 2000 },
            index: match base {
                Some((month, value)) if indexed => Some((DEMO_INDEX, value, month)),
                _ => None,
            },
            visit_interval_days: plan.interval,
            arrival_minutes: arrival,
            out_of_hours_minutes: out_of_hours,
            trapped_minutes: trapped,
            restore_minutes: restore,
            penalty_per_hour_cents: penalty,
            created: plan.created,
            activated,
            terminated,
        })
    }
}

/// A lift's contract as the equipment's plan decides it.
struct ContractPlan<'a> {
    client: Id,
    equipment: Id,
    number: &'a str,
    eq_type: EqType,
    copropriete: bool,
    start: NaiveDate,
    interval: i64,
    created: DateTime<Utc>,
    /// In force (a lift of the park) or a draft.
    in_force: bool,
}

/// The demo's price index and its first month.
const DEMO_INDEX: &str = "BT48";
const INDEX_FROM: (i32, u32) = (2015, 1);

/// The demo's value of the index for `month` (ten-thousandths): about 0.22 %
/// a month from 103.2, written to one decimal as INSEE writes it.
fn demo_index_value(month: NaiveDate) -> i64 {
    let m = (month.year() - INDEX_FROM.0) * 12 + month.month0() as i32;
    let jitter = f64::from((m * 7).rem_euclid(5) - 2) * 0.1;
    let value = 103.2 * 1.0022f64.powi(m) + jitter;
    (value * 10.0).round() as i64 * 1_000
}

/// When the value of `month` is recorded: on the 15th of the third month
/// after it, at 09:30 UTC.
fn index_recorded(month: NaiveDate) -> Option<DateTime<Utc>> {
    let day = liftdesk_domain::contract::add_months(month, 3).with_day(15)?;
    Some(Utc.from_utc_datetime(&day.and_hms_opt(9, 30, 0)?))
}

/// The latest value known on `known_on` of a month not after `start`'s,
/// with its month: the base value I0 of a contract signed then.
fn latest_index_known(known_on: NaiveDate, start: NaiveDate) -> Option<(NaiveDate, i64)> {
    let mut month = liftdesk_domain::contract::month_of(start);
    let first = NaiveDate::from_ymd_opt(INDEX_FROM.0, INDEX_FROM.1, 1)?;
    while month >= first {
        if index_recorded(month).is_some_and(|at| at.date_naive() <= known_on) {
            return Some((month, demo_index_value(month)));
        }
        month = month.checked_sub_months(chrono::Months::new(1))?;
    }
    None
}

// ---------------------------------------------------------------------------
// Deals, surveys, technical data, discrepancies
// ---------------------------------------------------------------------------

struct SurveyPlan {
    id: Id,
    equipment: u32,
    status: SurveyStatus,
    created: DateTime<Utc>,
    updated: DateTime<Utc>,
    due_on: NaiveDate,
    surveyed_on: Option<NaiveDate>,
    submitted_at: Option<DateTime<Utc>>,
    surveyor: Option<String>,
    reason: &'static str,
    photo_count: i64,
}

struct DealPlan {
    id: Id,
    type_affaire: Option<&'static str>,
    /// The inventory types asked for.
    types: &'static [&'static str],
    category: &'static str,
    client: Option<u32>,
    surveyor: Option<String>,
    created: DateTime<Utc>,
    updated: DateTime<Utc>,
    surveys: Vec<usize>,
}

/// Findings of a survey: (component, text, for equipment with a cabin only).
#[rustfmt::skip]
const FINDINGS: &[(Option<&str>, &str, bool)] = &[
    (None, "Absence de plaque de charge en cabine", true),
    (None, "Éclairage de cuvette hors service", true),
    (None, "Garde-corps du toit de cabine non conforme", true),
    (None, "Défaut d'isonivelage supérieur à 20 mm au 2e étage", true),
    (None, "Téléalarme non fonctionnelle lors de l'essai", true),
    (None, "Cellule photoélectrique mal alignée", false),
    (Some("car_door"), "Absence de barrière immatérielle sur la porte cabine", true),
    (Some("car_door"), "Galets de porte cabine usés, bruit à l'ouverture", true),
    (Some("car_door"), "Contact de porte cabine défaillant, à remplacer", true),
    (Some("machine"), "Fuite d'huile au niveau du réducteur", true),
    (Some("machine"), "Garnitures de frein usées à remplacer", true),
    (Some("machine"), "Câbles de traction présentant des fils cassés", true),
    (Some("machine"), "Moteur bruyant en fin de course", false),
];

impl AgencySeeder<'_> {
    fn seed_surveys_and_technical_data(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::SURVEYS);
        let clock = self.clock;
        let now = clock.now;
        let today = clock.today;

        // Which equipment is surveyed, in which status.
        let total = jitter(&mut rng, self.targets.surveys, 10).max(4);
        let en_cours = (total / 10).max(1);
        let annule = (total * 15 / 100).max(1);
        let a_realiser = (total / 4).max(1);
        let termine = total.saturating_sub(en_cours + annule + a_realiser).max(1);
        let old_enough = now - Duration::days(35);
        let mut complete = Vec::new();
        let mut others = Vec::new();
        for (index, eq) in self.equipment.iter().enumerate() {
            if eq.created > old_enough {
                continue;
            }
            if eq.knowledge == Knowledge::Complete {
                complete.push(index as u32);
            } else {
                others.push(index as u32);
            }
        }
        shuffle(&mut rng, &mut complete);
        shuffle(&mut rng, &mut others);
        let mut wanted: Vec<SurveyStatus> = Vec::with_capacity(total);
        wanted.extend(std::iter::repeat_n(SurveyStatus::Termine, termine));
        wanted.extend(std::iter::repeat_n(SurveyStatus::EnCours, en_cours));
        wanted.extend(std::iter::repeat_n(SurveyStatus::ARealiser, a_realiser));
        wanted.extend(std::iter::repeat_n(SurveyStatus::Annule, annule));

        let mut surveys: Vec<SurveyPlan> = Vec::with_capacity(total);
        for status in wanted {
            // A finished survey is why an equipment is completely known.
            let equipment = if status == SurveyStatus::Termine {
                complete.pop().or_else(|| others.pop())
            } else {
                others.pop().or_else(|| complete.pop())
            };
            let Some(equipment) = equipment else { break };
            let eq_created = self.equipment[equipment as usize].created;
            let (created, updated, surveyed_on, submitted_at, reason, photos) = match status {
                SurveyStatus::Termine => {
                    let created = clock.office_between(
                        &mut rng,
                        eq_created.max(now - Duration::days(300)),
                        now - Duration::days(5),
                    );
                    let surveyed = (created.date_naive()
                        + Duration::days(between(&mut rng, 1, 20)))
                    .min(today - Duration::days(1))
                    .max(created.date_naive());
                    let submitted = (clock.work_time(&mut rng, surveyed) + Duration::hours(2))
                        .max(created + Duration::minutes(30))
                        .min(now);
                    let reason = pick(
                        &mut rng,
                        &[
                            "Prise en main du parc",
                            "Base parc : relevé complet",
                            "Modernisation : relevé pour devis",
                            "Essais avant reprise du contrat",
                        ],
                    );
                    (
                        created,
                        submitted,
                        Some(surveyed),
                        Some(submitted),
                        reason,
                        between(&mut rng, 3, 25),
                    )
                }
                SurveyStatus::EnCours => {
                    let created = clock.office_between(
                        &mut rng,
                        eq_created.max(now - Duration::days(20)),
                        now - Duration::days(1),
                    );
                    let updated = clock.later(&mut rng, created, 60, 3 * 24 * 60);
                    let reason = pick(
                        &mut rng,
                        &[
                            "Prise en main du parc",
                            "Remplacement complet : relevé pour devis",
                        ],
                    );
                    (
                        created,
                        updated,
                        None,
                        None,
                        reason,
                        between(&mut rng, 0, 8),
                    )
                }
                SurveyStatus::ARealiser => {
                    let created = clock.office_between(
                        &mut rng,
                        eq_created.max(now - Duration::days(40)),
                        now - Duration::hours(1),
                    );
                    let reason = pick(
                        &mut rng,
                        &[
                            "Prise en main du parc",
                            "Demande du gestionnaire",
                            "Modernisation : relevé pour devis",
                            "Base parc : relevé complet",
                        ],
                    );
                    (created, created, None, None, reason, 0)
                }
                SurveyStatus::Annule => {
                    let created = clock.office_between(
                        &mut rng,
                        eq_created.max(now - Duration::days(200)),
                        now - Duration::days(2),
                    );
                    let updated = clock.later(&mut rng, created, 24 * 60, 20 * 24 * 60);
                    let reason = pick(
                        &mut rng,
                        &[
                            "Annulé : appareil remplacé",
                            "Annulé : contrat non reconduit",
                            "Annulé : doublon de demande",
                        ],
                    );
                    (created, updated, None, None, reason, 0)
                }
            };
            surveys.push(SurveyPlan {
                id: new_id(&mut rng, created),
                equipment,
                status,
                created,
                updated,
                due_on: created.date_naive() + Duration::days(30),
                surveyed_on,
                submitted_at,
                surveyor: self.staff.surveyor(&mut rng).map(str::to_owned),
                reason,
                photo_count: photos,
            });
        }
        // Numbers follow creation order, per year.
        surveys.sort_by(|a, b| a.created.cmp(&b.created).then(a.id.cmp(&b.id)));

        let deals = self.plan_deals(&mut rng, &surveys);

        let agency_domain = format!("{}.fr", ascii_slug(&self.agency.name, '-', 28));
        let mut opportunity_seq = between(&mut rng, 1_200_000, 1_300_000);
        let mut deals = deals;
        for deal in &mut deals {
            // A deal asking for several surveys is the partner's opportunity
            // (`/create_survey` adds the later ones to it by its id).
            let external = (chance(&mut rng, 0.6) || deal.surveys.len() > 1).then(|| {
                opportunity_seq += between(&mut rng, 1, 50);
                format!("OPP-{opportunity_seq:07}")
            });
            let requester = format!(
                "{}@{agency_domain}",
                Person::random(&mut rng).email_local(false)
            );
            deal.id = self.writer.deal(&DealSeed {
                id: deal.id,
                type_affaire: deal.type_affaire,
                types: &serde_json::to_string(deal.types)?,
                category: deal.category,
                external_opportunity: external.as_deref(),
                requester_email: &requester,
                surveyor: deal.surveyor.as_deref(),
                client: deal.client.map(|c| self.clients[c as usize].id),
                created: deal.created,
                updated: deal.updated,
            })?;
        }
        self.counts.deals += deals.len();

        // A survey a deal asks for has the deal's type (else its first
        // inventory type) as its reason, as `/create_survey` gives it; one
        // opened in the app has none. A cancelled survey's reason is why.
        let mut reason_of: Vec<Option<&'static str>> = vec![None; surveys.len()];
        for deal in &deals {
            for &survey in &deal.surveys {
                reason_of[survey] = deal.type_affaire.or_else(|| deal.types.first().copied());
            }
        }
        let mut year_seq: BTreeMap<i32, u32> = BTreeMap::new();
        for (index, survey) in surveys.iter_mut().enumerate() {
            let year = survey.created.year();
            let seq = year_seq.entry(year).or_insert(0);
            *seq += 1;
            let cancelled = survey.status == SurveyStatus::Annule;
            survey.id = self.writer.survey(&SurveySeed {
                id: survey.id,
                equipment: self.equipment[survey.equipment as usize].id,
                number: Some(&format!("REL-{year}-{:05}", *seq)),
                status: survey.status,
                reason: reason_of[index],
                cancel_reason: cancelled.then_some(survey.reason),
                surveyor: survey.surveyor.as_deref(),
                due_on: Some(survey.due_on),
                surveyed_on: survey.surveyed_on,
                photo_count: survey.photo_count,
                submitted_at: survey.submitted_at,
                created: survey.created,
                updated: survey.updated,
            })?;
        }
        self.counts.surveys += surveys.len();

        for deal in &deals {
            for &survey in &deal.surveys {
                self.writer.survey_of_deal(surveys[survey].id, deal.id)?;
            }
        }

        self.seed_technical_values(&surveys)?;
        self.seed_discrepancies(&mut rng, &surveys)?;
        Ok(())
    }

    fn plan_deals(&self, rng: &mut StdRng, surveys: &[SurveyPlan]) -> Vec<DealPlan> {
        let now = self.clock.now;
        let today = self.clock.today;
        let mut deals: Vec<DealPlan> = Vec::new();
        // Surveys are asked for by deals: several surveys of a client share one.
        let mut open_by_client: BTreeMap<u32, usize> = BTreeMap::new();
        for (index, survey) in surveys.iter().enumerate() {
            if !chance(rng, 0.55) {
                continue;
            }
            let client = self.equipment[survey.equipment as usize].client;
            if let Some(&deal) = open_by_client.get(&client)
                && survey.created - deals[deal].created < Duration::days(30)
            {
                deals[deal].surveys.push(index);
                deals[deal].updated = deals[deal].updated.max(survey.updated);
                continue;
            }
            let category = match survey.status {
                SurveyStatus::Termine => pick(rng, &["Gagnée", "Gagnée", "Fermée"]),
                SurveyStatus::EnCours => pick(rng, &["Ouverte", "En attente"]),
                SurveyStatus::ARealiser if survey.due_on < today => "En retard",
                SurveyStatus::ARealiser => pick(rng, &["Ouverte", "En attente"]),
                SurveyStatus::Annule => pick(rng, &["Annulée", "Annulée", "Perdue"]),
            };
            let (type_affaire, types) = if chance(rng, 0.7) {
                (
                    None,
                    pick::<&'static [&'static str]>(
                        rng,
                        &[
                            &["Prise en mains"],
                            &["Essais"],
                            &["Base parc"],
                            &["Prise en mains", "Essais"],
                            &["Prise en mains", "Base parc"],
                        ],
                    ),
                )
            } else {
                (
                    Some(pick(
                        rng,
                        &[
                            "Modernisation pour devis",
                            "Remplacement complet pour devis",
                        ],
                    )),
                    &[] as &'static [&'static str],
                )
            };
            // Asked for with its first survey (`/create_survey` makes both).
            let created = survey.created;
            let updated = survey.updated;
            open_by_client.insert(client, deals.len());
            deals.push(DealPlan {
                id: new_id(rng, created),
                type_affaire,
                types,
                category,
                client: Some(client),
                surveyor: survey.surveyor.clone(),
                created,
                updated,
                surveys: vec![index],
            });
        }
        // Commercial deals without survey, covering every category.
        let target = jitter(rng, self.targets.deals, 10);
        let standalone = target
            .saturating_sub(deals.len())
            .max(DEAL_CATEGORIES.len());
        let mut missing: Vec<&str> = DEAL_CATEGORIES
            .iter()
            .copied()
            .filter(|c| !deals.iter().any(|d| d.category == *c))
            .collect();
        let live_clients: Vec<u32> = (0..self.clients.len() as u32)
            .filter(|&c| !self.clients[c as usize].equipment.is_empty())
            .collect();
        for _ in 0..standalone {
            let category = match missing.pop() {
                Some(category) => category,
                None => DEAL_CATEGORIES[pick_weighted(rng, &[30, 15, 8, 20, 12, 5, 10])],
            };
            let type_affaire = DEAL_TYPES[pick_weighted(rng, &[30, 30, 12, 8, 12, 8])];
            let client =
                (!live_clients.is_empty() && chance(rng, 0.9)).then(|| pick(rng, &live_clients));
            let created = self.clock.ago(rng, 1, 365);
            let updated = self.clock.office_between(rng, created, now);
            deals.push(DealPlan {
                id: new_id(rng, created),
                type_affaire: Some(type_affaire),
                types: &[],
                category,
                client,
                surveyor: None,
                created,
                updated,
                surveys: Vec::new(),
            });
        }
        deals
    }

    /// Current technical data of every equipment, surveyed to varied extents.
    fn seed_technical_values(&mut self, surveys: &[SurveyPlan]) -> Result<()> {
        let mut rng = self.rng(stage::VALUES);
        let now = self.clock.now;
        let mut finished_survey: Vec<Option<usize>> = vec![None; self.equipment.len()];
        for (index, survey) in surveys.iter().enumerate() {
            if survey.status == SurveyStatus::Termine {
                finished_survey[survey.equipment as usize] = Some(index);
            }
        }
        // In id order, so the WITHOUT ROWID table grows at its end.
        let mut order: Vec<u32> = (0..self.equipment.len() as u32).collect();
        order.sort_by(|a, b| {
            self.equipment[*a as usize]
                .id
                .cmp(&self.equipment[*b as usize].id)
        });
        let mut value = String::new();
        for &e in &order {
            let eq = &self.equipment[e as usize];
            let profile = Profile::derive(eq.eq_type, eq.profile_seed);
            let mut field_rng = StdRng::seed_from_u64(mix(eq.profile_seed));
            let survey = finished_survey[e as usize].map(|s| &surveys[s]);
            let (survey_id, surveyed_at) = match survey {
                Some(s) => (Some(s.id), s.submitted_at.unwrap_or(s.updated)),
                // Imported with the equipment, or noted since by a technician.
                None => (
                    None,
                    instant_between(
                        &mut rng,
                        eq.created,
                        (eq.created + Duration::days(30)).min(now),
                    ),
                ),
            };
            let fraction = rng.random_range(0.3..0.8);
            for field in self.catalog {
                if !field.applies(eq.eq_type) {
                    continue;
                }
                let keep = match eq.knowledge {
                    Knowledge::Scarce => match field.code.as_str() {
                        "marque" => chance(&mut rng, 0.6),
                        "annee_mise_en_service" => chance(&mut rng, 0.4),
                        "charge_utile" => chance(&mut rng, 0.2),
                        _ => false,
                    },
                    Knowledge::Partial => chance(
                        &mut rng,
                        if field.partner {
                            fraction + 0.2
                        } else {
                            fraction
                        },
                    ),
                    Knowledge::Complete => true,
                };
                let suggestion = hint(&field.code, eq.eq_type, &profile, &mut field_rng);
                if !keep || !render_value(field, suggestion, &mut field_rng, &mut value) {
                    continue;
                }
                self.writer.technical_value(&TechnicalValueSeed {
                    equipment: eq.id,
                    code: &field.code,
                    value: &value,
                    survey: survey_id,
                    surveyed: surveyed_at,
                })?;
                self.counts.equipment_values += 1;
                if let Some(survey_id) = survey_id {
                    self.writer.survey_value(survey_id, &field.code, &value)?;
                }
            }
        }
        // Surveys in progress have part of their data already entered.
        for survey in surveys.iter().filter(|s| s.status == SurveyStatus::EnCours) {
            let eq = &self.equipment[survey.equipment as usize];
            let profile = Profile::derive(eq.eq_type, eq.profile_seed);
            let fraction = rng.random_range(0.2..0.6);
            for field in self.catalog {
                if !field.applies(eq.eq_type) || !chance(&mut rng, fraction) {
                    continue;
                }
                let suggestion = hint(&field.code, eq.eq_type, &profile, &mut rng);
                if render_value(field, suggestion, &mut rng, &mut value) {
                    self.writer.survey_value(survey.id, &field.code, &value)?;
                }
            }
        }
        Ok(())
    }

    fn seed_discrepancies(&mut self, rng: &mut StdRng, surveys: &[SurveyPlan]) -> Result<()> {
        for survey in surveys {
            let count = match survey.status {
                SurveyStatus::Termine if chance(rng, 0.45) => between(rng, 1, 3),
                SurveyStatus::EnCours if chance(rng, 0.3) => 1,
                _ => 0,
            };
            let eq = &self.equipment[survey.equipment as usize];
            let suitable: Vec<&(Option<&str>, &str, bool)> = FINDINGS
                .iter()
                .filter(|f| f.2 == eq.eq_type.has_cabin() || (f.0.is_none() && !f.2))
                .collect();
            let mut noted: Vec<&str> = Vec::new();
            for _ in 0..count {
                let (component, finding, _) = *pick(rng, &suitable);
                if noted.contains(&finding) {
                    continue;
                }
                noted.push(finding);
                let created = survey.submitted_at.unwrap_or(survey.updated);
                self.writer.discrepancy(&DiscrepancySeed {
                    id: new_id(rng, created),
                    equipment: eq.id,
                    survey: survey.id,
                    component,
                    finding,
                    created_by: survey.surveyor.as_deref(),
                    created,
                })?;
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Maintenance visits
// ---------------------------------------------------------------------------

#[rustfmt::skip]
const LIFT_OBSERVATIONS: &[&str] = &[
    "RAS, appareil en bon état de fonctionnement.",
    "Graissage des guides et contrôle des câbles effectué.",
    "Nettoyage de la cuvette, contrôle du parachute satisfaisant.",
    "Remplacement d'une ampoule de l'éclairage cabine.", "Réglage de l'isonivelage au 3e étage.",
    "Porte palière du rez-de-chaussée à surveiller : léger frottement.",
    "Contrôle de la téléalarme effectué, essai concluant.",
    "Nettoyage du local machine, contrôle du frein effectué.",
    "Galets de porte cabine usés : devis à prévoir.",
    "Contacts de portes palières nettoyés, essais de sécurité conformes.",
];

#[rustfmt::skip]
const DOOR_OBSERVATIONS: &[&str] = &[
    "Graissage des rails et contrôle des fins de course.", "Réglage de la cellule photoélectrique.",
    "RAS, porte en bon état de fonctionnement.",
    "Contrôle des dispositifs de sécurité (bord palpeur, cellules) conforme.",
];

/// "Mme Martin (gardienne)".
fn signatory(rng: &mut StdRng) -> String {
    let person = Person::random(rng);
    let (male, female) = pick(
        rng,
        &[
            ("gardien", "gardienne"),
            ("gardien", "gardienne"),
            ("gestionnaire", "gestionnaire"),
            ("responsable technique", "responsable technique"),
            ("résident", "résidente"),
            ("accueil", "accueil"),
        ],
    );
    format!(
        "{} ({})",
        person.civil_name(),
        if person.female { female } else { male }
    )
}

impl AgencySeeder<'_> {
    /// A technician for a visit of `eq` on `date`: its own one when free,
    /// else a colleague of the sector, else anyone free; None when the whole
    /// team is away or booked.
    fn book_technician(
        &self,
        load: &mut [u8],
        window_start: NaiveDate,
        window_len: usize,
        eq: &EquipRec,
        date: NaiveDate,
    ) -> Option<u32> {
        let offset = usize::try_from((date - window_start).num_days()).ok()?;
        if offset >= window_len {
            return None;
        }
        let candidates = std::iter::once(eq.home_tech)
            .chain(self.sector_techs[eq.sector as usize].iter().copied())
            .chain(0..self.technicians.len() as u32);
        for tech in candidates {
            let technician = &self.technicians[tech as usize];
            if !technician.active || technician.absent_on(date) {
                continue;
            }
            let slot = &mut load[tech as usize * window_len + offset];
            if *slot < technician.capacity {
                *slot += 1;
                return Some(tech);
            }
        }
        None
    }

    fn seed_visits(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::VISITS);
        let clock = self.clock;
        let today = clock.today;
        let now = clock.now;
        let window_start = today - Duration::days(self.targets.history_days);
        let horizon_end = today + Duration::days(self.targets.horizon_days);
        let window_len = (self.targets.history_days + self.targets.horizon_days + 1) as usize;
        let mut load = vec![0u8; self.technicians.len() * window_len];
        let mut on_site = vec![false; self.technicians.len()];
        let max_on_site = (self.active_techs().len() / 3).max(2);
        let mut on_site_count = 0;
        let mut chain: Vec<NaiveDate> = Vec::new();
        let today_workday = workday_number(today);
        for eq in &self.equipment {
            if eq.contract != Contract::Parc {
                continue;
            }
            let Some(start) = eq.plan_start else { continue };
            if start > today {
                continue;
            }
            let interval = eq.interval;
            // Cycles are counted in working days (42 days = 30 working days).
            let interval_workdays = interval * 5 / 7;
            // Where the equipment is in its cycle; a few are late.
            let since_last = if chance(&mut rng, 0.08) {
                interval_workdays + between(&mut rng, 1, 14)
            } else {
                between(&mut rng, 1, interval_workdays)
            };
            // Past visits, newest first, back to one before the window.
            chain.clear();
            let mut workday = today_workday - since_last;
            let mut date = workday_date(workday);
            while date >= start {
                chain.push(date);
                if date < window_start {
                    break;
                }
                // Usually done a little ahead of the deadline, sometimes after it.
                workday -= if chance(&mut rng, 0.05) {
                    interval_workdays + between(&mut rng, 1, 4)
                } else {
                    interval_workdays - between(&mut rng, 0, 4)
                };
                date = workday_date(workday);
            }
            for i in (0..chain.len()).rev() {
                let done_on = chain[i];
                if done_on < window_start {
                    continue;
                }
                let deadline = match chain.get(i + 1) {
                    Some(previous) => *previous + Duration::days(interval),
                    None => start + Duration::days(interval),
                };
                let tech = self
                    .book_technician(&mut load, window_start, window_len, eq, done_on)
                    // The whole team booked: anyone present that day, over capacity.
                    .or_else(|| {
                        (0..self.technicians.len() as u32).find(|&t| {
                            let technician = &self.technicians[t as usize];
                            technician.active && !technician.absent_on(done_on)
                        })
                    })
                    .unwrap_or(eq.home_tech);
                let arrived = clock.work_time(&mut rng, done_on);
                let left = arrived + Duration::minutes(between(&mut rng, 25, 95));
                let created = (Clock::midnight(done_on - Duration::days(between(&mut rng, 5, 20)))
                    + Duration::minutes(between(&mut rng, 7 * 60, 11 * 60)))
                .max(eq.created);
                let observation = if eq.eq_type == EqType::PorteFermeture {
                    pick(&mut rng, DOOR_OBSERVATIONS)
                } else {
                    pick(&mut rng, LIFT_OBSERVATIONS)
                };
                let id = new_id(&mut rng, created);
                let signed_by = signatory(&mut rng);
                self.writer.visit(&VisitSeed {
                    id,
                    equipment: eq.id,
                    technician: self.technicians[tech as usize].id,
                    planned_for: done_on,
                    deadline,
                    after: chain
                        .get(i + 1)
                        .copied()
                        .filter(|prev| *prev < window_start),
                    arrived: Some(arrived),
                    left: Some(left),
                    signed_by: Some(&signed_by),
                    observations: Some(observation),
                    created,
                })?;
                self.counts.visits += 1;
            }

            // The next visit, planned when it falls within the horizon.
            let deadline = match chain.first() {
                Some(last) => *last + Duration::days(interval),
                None => start + Duration::days(interval),
            };
            let deadline_workday = workday_number(weekday_on_or_before(deadline));
            let mut target = deadline_workday - between(&mut rng, 0, 4);
            if chance(&mut rng, 0.05) {
                // Could not be fitted before the deadline.
                target = deadline_workday + between(&mut rng, 1, 5);
            }
            if target < today_workday {
                // Overdue: caught up in the coming days.
                target = today_workday + between(&mut rng, 0, 4);
            }
            let mut planned = workday_date(target);
            let mut booked = None;
            while planned <= horizon_end && booked.is_none() {
                booked = self.book_technician(&mut load, window_start, window_len, eq, planned);
                if booked.is_none() {
                    planned = weekday_on_or_after(planned + Duration::days(1));
                }
            }
            let Some(tech) = booked else { continue };
            let created = clock.ago(&mut rng, 0, 12).max(eq.created).min(now);
            // The first visit of the day has started, and about a third of the others
            // (visits are on weekdays only: on a weekend "now", none is in progress).
            let starts_now = planned == today
                && !on_site[tech as usize]
                && on_site_count < max_on_site
                && (on_site_count == 0 || chance(&mut rng, 0.35));
            let arrived = if starts_now {
                on_site[tech as usize] = true;
                on_site_count += 1;
                Some(
                    (now - Duration::minutes(between(&mut rng, 10, 100)))
                        .max(Clock::midnight(today))
                        .max(created),
                )
            } else {
                None
            };
            self.writer.visit(&VisitSeed {
                id: new_id(&mut rng, created),
                equipment: eq.id,
                technician: self.technicians[tech as usize].id,
                planned_for: planned,
                deadline,
                after: chain.first().copied().filter(|last| *last < window_start),
                arrived,
                left: None,
                signed_by: None,
                observations: None,
                created,
            })?;
            self.counts.visits += 1;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Breakdown calls
// ---------------------------------------------------------------------------

/// The kinds of call, in the order of the weights the seeder draws them by.
const CALL_TYPES: &[&str] = CallType::CODES;

struct CallPlan {
    equipment: u32,
    received: DateTime<Utc>,
    status: CallStatus,
    kind: &'static str,
    /// Stopped for parts before being resolved.
    via_stop: bool,
}

fn call_description(rng: &mut StdRng, kind: &str, eq_type: EqType) -> String {
    let floor = between(rng, 1, 7);
    let any_floor = floor_name(between(rng, 0, 7));
    match (kind, eq_type) {
        ("personne_bloquee", EqType::PorteFermeture) => {
            "Personne bloquée dans le parking, la porte ne s'ouvre plus".to_owned()
        }
        ("personne_bloquee", EqType::Elevateur) => {
            "Personne en fauteuil bloquée sur la plateforme à mi-course".to_owned()
        }
        ("personne_bloquee", _) => match rng.random_range(0..4) {
            0 => format!(
                "Cabine bloquée entre le {} et le {} étage, une personne à l'intérieur",
                ordinal(floor),
                ordinal(floor + 1)
            ),
            1 => format!("Deux personnes bloquées en cabine au {any_floor}, portes fermées"),
            2 => "Personne âgée bloquée dans la cabine, l'ascenseur ne répond plus".to_owned(),
            _ => format!("Enfant bloqué dans la cabine au {any_floor}, alarme déclenchée"),
        },
        ("panne", EqType::PorteFermeture) => pick(
            rng,
            &[
                "Porte de parking bloquée en position ouverte",
                "Porte de parking ne s'ouvre plus avec les télécommandes",
                "Rideau métallique bloqué à mi-hauteur",
            ],
        )
        .to_owned(),
        ("panne", _) => match rng.random_range(0..6) {
            0 => format!("Ascenseur à l'arrêt au {any_floor}, ne répond plus aux appels"),
            1 => format!("Porte palière du {any_floor} ne se ferme plus"),
            2 => format!(
                "Cabine s'arrête en décalage avec le palier du {any_floor} (marche d'environ 5 cm)"
            ),
            3 => "Voyant de défaut allumé, l'appareil ne démarre plus".to_owned(),
            4 => format!("Bouton d'appel du {any_floor} inopérant"),
            _ => "Portes cabine qui se rouvrent en permanence".to_owned(),
        },
        ("vandalisme", EqType::PorteFermeture) => pick(
            rng,
            &[
                "Cellule photoélectrique arrachée",
                "Tablier de porte enfoncé par un véhicule",
            ],
        )
        .to_owned(),
        ("vandalisme", _) => match rng.random_range(0..4) {
            0 => "Boîte à boutons de la cabine arrachée".to_owned(),
            1 => "Miroir de cabine brisé et tags sur les parois".to_owned(),
            2 => "Porte palière du sous-sol forcée".to_owned(),
            _ => format!("Bouton d'appel du {any_floor} arraché"),
        },
        (_, EqType::PorteFermeture) => "Grincement important à l'ouverture de la porte".to_owned(),
        _ => match rng.random_range(0..4) {
            0 => "Bruit de frottement important pendant la montée".to_owned(),
            1 => "Claquement au démarrage de la cabine".to_owned(),
            2 => "Grincement des portes cabine à chaque ouverture".to_owned(),
            _ => format!(
                "Vibrations importantes entre le {} et le {} étage",
                ordinal(floor),
                ordinal(floor + 1)
            ),
        },
    }
}

fn caller(rng: &mut StdRng, kind: &str) -> Option<String> {
    if kind == "personne_bloquee" && chance(rng, 0.5) {
        return Some("Appel cabine (téléalarme)".to_owned());
    }
    if chance(rng, 0.05) {
        return None;
    }
    let person = Person::random(rng);
    let role = match rng.random_range(0..4) {
        0 => {
            if person.female {
                "gardienne"
            } else {
                "gardien"
            }
        }
        1 => "gestionnaire",
        2 => {
            if person.female {
                "résidente"
            } else {
                "résident"
            }
        }
        _ => "accueil",
    };
    Some(format!("{} ({role})", person.civil_name()))
}

impl AgencySeeder<'_> {
    /// Who takes a call: the on-call technician out of hours, else the
    /// equipment's own technician or a colleague who is not on leave.
    fn call_technician(&self, eq: &EquipRec, at: DateTime<Utc>) -> Option<u32> {
        let date = at.date_naive();
        let hour = chrono::Timelike::hour(&at);
        // Assigned within 20 minutes: someone not resting then either (a
        // standby period may end in between).
        let assigned_by = at + Duration::minutes(20);
        if (!is_weekday(date) || !(7..17).contains(&hour))
            && let Some(tech) = self.on_call_at(at)
            && !self.resting(tech, assigned_by)
        {
            return Some(tech);
        }
        std::iter::once(eq.home_tech)
            .chain(self.sector_techs[eq.sector as usize].iter().copied())
            .chain(0..self.technicians.len() as u32)
            .find(|&t| {
                let technician = &self.technicians[t as usize];
                // Absences are Paris days.
                technician.active
                    && !technician.absent_on(crate::clock::paris_local(at).date())
                    && !technician.absent_on(crate::clock::paris_local(assigned_by).date())
                    && !self.resting(t, at)
                    && !self.resting(t, assigned_by)
            })
    }

    /// Whether `tech` is in his safety rest at `at`: within the 11 hours
    /// after a standby period of his ended, and not on standby again.
    fn resting(&self, tech: u32, at: DateTime<Utc>) -> bool {
        let rest = Duration::hours(liftdesk_domain::technician::DEFAULT_REST_HOURS);
        let mine = || self.on_call.iter().filter(|(_, _, t)| *t == tech);
        mine().any(|(_, end, _)| *end <= at && at < *end + rest)
            && !mine().any(|(start, end, _)| *start <= at && at < *end)
    }

    fn seed_calls(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::CALLS);
        let clock = self.clock;
        let now = clock.now;
        let under_contract: Vec<u32> = (0..self.equipment.len() as u32)
            .filter(|&e| self.equipment[e as usize].contract == Contract::Parc)
            .collect();
        let others: Vec<u32> = (0..self.equipment.len() as u32)
            .filter(|&e| self.equipment[e as usize].contract != Contract::Parc)
            .collect();
        if under_contract.is_empty() && others.is_empty() {
            return Ok(());
        }
        let choose_equipment = |rng: &mut StdRng| {
            if others.is_empty() || (!under_contract.is_empty() && chance(rng, 0.9)) {
                pick(rng, &under_contract)
            } else {
                pick(rng, &others)
            }
        };
        let type_weights = [8, 70, 8, 14];
        let mut plans: Vec<CallPlan> = Vec::new();
        let resolved = jitter(&mut rng, self.targets.resolved_calls, 10);
        let history_start = now - Duration::days(self.targets.history_days);
        for i in 0..resolved {
            let received = instant_between(&mut rng, history_start, now - Duration::hours(4));
            plans.push(CallPlan {
                equipment: choose_equipment(&mut rng),
                received,
                status: CallStatus::Resolue,
                // The first one makes sure trapped passengers appear in the history.
                kind: if i == 0 {
                    "personne_bloquee"
                } else {
                    CALL_TYPES[pick_weighted(&mut rng, &type_weights)]
                },
                via_stop: received < now - Duration::days(7) && chance(&mut rng, 0.15),
            });
        }
        let live = [
            (CallStatus::Ouverte, 2, 60),
            (CallStatus::EnRoute, 15, 90),
            (CallStatus::SurPlace, 40, 240),
            (CallStatus::ALArret, 24 * 60, 10 * 24 * 60),
        ];
        for (slot, (status, min_minutes, max_minutes)) in live.into_iter().enumerate() {
            for i in 0..self.targets.live_calls[slot] {
                let received = now
                    - Duration::milliseconds(between(
                        &mut rng,
                        min_minutes * 60_000,
                        max_minutes * 60_000,
                    ));
                plans.push(CallPlan {
                    equipment: choose_equipment(&mut rng),
                    received,
                    status,
                    kind: if status == CallStatus::SurPlace && i == 0 {
                        "personne_bloquee"
                    } else {
                        CALL_TYPES[pick_weighted(&mut rng, &type_weights)]
                    },
                    via_stop: false,
                });
            }
        }
        // References follow reception order.
        plans.sort_by_key(|plan| plan.received);

        // A center numbers the calls of all its customers: our references have gaps.
        let mut center_seq: BTreeMap<(usize, i32), i64> = BTreeMap::new();
        let mut manual_seq: BTreeMap<i32, i64> = BTreeMap::new();
        let mut reference = String::new();
        for plan in &plans {
            let eq = &self.equipment[plan.equipment as usize];
            // The agency numbers its calls by the Paris year.
            let year = crate::clock::paris_local(plan.received).year();
            let center = if !self.call_centers.is_empty() && chance(&mut rng, 0.88) {
                Some(if self.call_centers.len() > 1 && chance(&mut rng, 0.3) {
                    1
                } else {
                    0
                })
            } else {
                None
            };
            reference.clear();
            match center {
                Some(c) => {
                    let seq = center_seq
                        .entry((c, year))
                        .or_insert_with(|| between(&mut rng, 1, 3_000));
                    *seq += between(&mut rng, 1, 40);
                    let _ = write!(reference, "CC-{year}-{:06}", *seq);
                }
                None => {
                    let seq = manual_seq.entry(year).or_insert(0);
                    *seq += 1;
                    let _ = write!(reference, "AG-{year}-{:05}", *seq);
                }
            }
            let technician = if plan.status == CallStatus::Ouverte {
                None
            } else {
                self.call_technician(eq, plan.received)
            };
            let mut assigned = None;
            let mut en_route = None;
            let mut arrived = None;
            let mut stopped = None;
            let mut resolved_at = None;
            if plan.status != CallStatus::Ouverte {
                let a = clock.later(&mut rng, plan.received, 2, 15);
                let r = clock.later(&mut rng, a, 1, 20);
                assigned = Some(a);
                en_route = Some(r);
                if plan.status != CallStatus::EnRoute {
                    let on_site = clock.later(&mut rng, r, 15, 60);
                    arrived = Some(on_site);
                    if plan.status == CallStatus::ALArret || plan.via_stop {
                        stopped = Some(clock.later(&mut rng, on_site, 10, 60));
                    }
                    if plan.status == CallStatus::Resolue {
                        resolved_at = Some(match stopped {
                            // Parts arrived: fixed on a working day.
                            Some(s) => {
                                let fixed_on = weekday_on_or_after(
                                    s.date_naive() + Duration::days(between(&mut rng, 1, 6)),
                                );
                                clock.work_time(&mut rng, fixed_on).max(s)
                            }
                            None if plan.kind == "personne_bloquee" => {
                                clock.later(&mut rng, on_site, 10, 30)
                            }
                            None => clock.later(&mut rng, on_site, 20, 150),
                        });
                    }
                }
            }
            // The center's request lands a moment after the call was taken.
            let created = (plan.received + Duration::milliseconds(between(&mut rng, 200, 5_000)))
                .min(now)
                .max(plan.received);
            let (center_id, credential_id) = match center {
                Some(c) => (
                    Some(self.call_centers[c].id.as_str()),
                    self.call_centers[c].credential_id.as_deref(),
                ),
                None => (None, None),
            };
            let created_by = if center.is_none() {
                self.staff.any(&mut rng)
            } else {
                None
            };
            let id = new_id(&mut rng, created);
            let description = call_description(&mut rng, plan.kind, eq.eq_type);
            let caller = caller(&mut rng, plan.kind);
            self.writer.call(&CallSeed {
                id,
                equipment: eq.id,
                call_center: center_id,
                credential: credential_id,
                created_by,
                reference: &reference,
                status: plan.status.code(),
                kind: plan.kind,
                description: &description,
                caller: caller.as_deref(),
                received: plan.received,
                technician: technician.map(|t| self.technicians[t as usize].id),
                assigned,
                en_route,
                arrived,
                stopped,
                resolved: resolved_at,
                created,
            })?;
            self.counts.calls += 1;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Quotes
// ---------------------------------------------------------------------------

/// Priced work: label, price range in cents, for garage doors.
#[rustfmt::skip]
const WORK_ITEMS: &[(&str, i64, i64, bool)] = &[
    ("Remplacement des galets de porte cabine", 28_000, 46_000, false),
    ("Remplacement du contact de verrouillage de porte palière", 18_000, 32_000, false),
    ("Fourniture et pose d'une barrière immatérielle", 95_000, 160_000, false),
    ("Remplacement des câbles de traction (jeu complet)", 280_000, 520_000, false),
    ("Remplacement de la boîte à boutons cabine", 120_000, 210_000, false),
    ("Remplacement de l'opérateur de porte cabine", 260_000, 420_000, false),
    ("Mise en place d'un variateur de fréquence", 450_000, 780_000, false),
    ("Remplacement du transmetteur de téléalarme (4G)", 65_000, 110_000, false),
    ("Remplacement des patins de guidage", 35_000, 70_000, false),
    ("Remplacement de l'éclairage cabine par des LED", 30_000, 55_000, false),
    ("Remplacement des garnitures de frein", 80_000, 140_000, false),
    ("Modernisation de l'armoire de commande", 1_200_000, 2_200_000, false),
    ("Remplacement du moteur de porte de parking", 90_000, 180_000, true),
    ("Remplacement de la cellule photoélectrique", 15_000, 30_000, true),
    ("Remplacement des ressorts de compensation", 40_000, 85_000, true),
    ("Remplacement de la carte électronique de commande", 45_000, 90_000, true),
];

const LABOUR_LABEL: &str = "Main d'œuvre technicien (heure)";
const TRAVEL_LABEL: &str = "Déplacement et mise en sécurité";
const BADGES_LABEL: &str = "Fourniture de badges Vigik (lot de 10)";

fn work_item(rng: &mut StdRng, eq_type: EqType) -> (&'static str, i64) {
    let door = eq_type == EqType::PorteFermeture;
    loop {
        let (label, low, high, for_doors) = pick(rng, WORK_ITEMS);
        if for_doors == door {
            // Prices end in round euros, as on real quotes.
            return (label, between(rng, low / 100, high / 100) * 100);
        }
    }
}

/// The rows of a repair: the part, then usually labour and travel.
fn work_rows(
    rng: &mut StdRng,
    eq_type: EqType,
    vat_rate_bp: u32,
    max_rows: usize,
) -> Vec<QuoteLine> {
    let (label, price) = work_item(rng, eq_type);
    let mut rows = vec![QuoteLine {
        label: label.to_owned(),
        quantity_milli: 1000,
        unit_price_cents: price,
        vat_rate_bp,
    }];
    if rows.len() < max_rows && chance(rng, 0.7) {
        rows.push(QuoteLine {
            label: LABOUR_LABEL.to_owned(),
            quantity_milli: between(rng, 3, 16) * 500,
            unit_price_cents: between(rng, 78, 92) * 100,
            vat_rate_bp,
        });
    }
    if rows.len() < max_rows && chance(rng, 0.5) {
        rows.push(QuoteLine {
            label: TRAVEL_LABEL.to_owned(),
            quantity_milli: 1000,
            unit_price_cents: between(rng, 65, 95) * 100,
            vat_rate_bp,
        });
    }
    if rows.len() < max_rows && chance(rng, 0.25) {
        let (label, price) = work_item(rng, eq_type);
        if rows.iter().all(|r| r.label != label) {
            rows.push(QuoteLine {
                label: label.to_owned(),
                quantity_milli: 1000,
                unit_price_cents: price,
                vat_rate_bp,
            });
        }
    }
    // Badges are goods: always at the standard rate.
    if rows.len() < max_rows && vat_rate_bp != 2000 && chance(rng, 0.1) {
        rows.push(QuoteLine {
            label: BADGES_LABEL.to_owned(),
            quantity_milli: 1000,
            unit_price_cents: 8_900,
            vat_rate_bp: 2000,
        });
    }
    rows
}

impl AgencySeeder<'_> {
    fn seed_quotes(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::QUOTES);
        let clock = self.clock;
        let now = clock.now;
        let today = clock.today;
        let candidates: Vec<u32> = (0..self.equipment.len() as u32).collect();
        if candidates.is_empty() {
            return Ok(());
        }
        let count = jitter(&mut rng, self.targets.quotes, 10).max(4);
        let mut created: Vec<DateTime<Utc>> =
            (0..count).map(|_| clock.ago(&mut rng, 0, 300)).collect();
        created.sort();
        let mut statuses: Vec<QuoteStatus> = created
            .iter()
            .map(|c| {
                let age = (now - *c).num_days();
                let weights = match age {
                    0..7 => [50, 50, 0, 0],
                    7..45 => [10, 40, 35, 15],
                    _ => [3, 12, 50, 35],
                };
                QuoteStatus::ALL[pick_weighted(&mut rng, &weights)]
            })
            .collect();
        // Every status present, whatever the draw.
        for &status in QuoteStatus::ALL {
            if statuses.contains(&status) {
                continue;
            }
            // Take the place of a status that occurs more than once.
            let spare = (0..count).rev().find(|&i| {
                let current = statuses[i];
                statuses.iter().filter(|s| **s == current).count() > 1
            });
            if let Some(index) = spare {
                statuses[index] = status;
            }
        }

        let mut year_seq: BTreeMap<i32, u32> = BTreeMap::new();
        for (created, status) in created.into_iter().zip(statuses) {
            let e = pick(&mut rng, &candidates);
            let eq = &self.equipment[e as usize];
            let created = created.max(eq.created);
            let client = &self.clients[eq.client as usize];
            let vat = if client.kind.residential() {
                1000
            } else {
                2000
            };
            let rows = work_rows(&mut rng, eq.eq_type, vat, 5);
            let origin = ["reserve", "panne", "technicien", "client"]
                [pick_weighted(&mut rng, &[25, 30, 30, 15])];
            let main = &rows[0].label;
            let object = match origin {
                _ if chance(&mut rng, 0.5) => main.clone(),
                "reserve" => format!(
                    "Levée de réserve du bureau de contrôle : {}",
                    lowercase_first(main)
                ),
                "panne" => format!("Suite à panne : {}", lowercase_first(main)),
                "technicien" => format!("Préconisation du technicien : {}", lowercase_first(main)),
                _ => format!("Demande du client : {}", lowercase_first(main)),
            };
            // Sent and answered on working days, never after now.
            let office_day_after = |rng: &mut StdRng, from: DateTime<Utc>, max_days: i64| {
                let date = weekday_on_or_after(
                    from.date_naive() + Duration::days(between(rng, 0, max_days)),
                );
                clock.work_time(rng, date.min(today)).max(from).min(now)
            };
            let sent =
                (status != QuoteStatus::Brouillon).then(|| office_day_after(&mut rng, created, 4));
            let answered = sent.map(|s| office_day_after(&mut rng, s, 30));
            let accepted = answered.filter(|_| status == QuoteStatus::Accepte);
            let refused = answered.filter(|_| status == QuoteStatus::Refuse);
            let year = created.year();
            let seq = year_seq.entry(year).or_insert(0);
            *seq += 1;
            let proposed = new_id(&mut rng, created);
            let created_by = self.staff.any(&mut rng);
            let lines: Vec<LineSeed> = rows
                .iter()
                .map(|row| LineSeed {
                    id: new_id(&mut rng, created),
                    label: &row.label,
                    quantity_milli: row.quantity_milli,
                    unit_price_cents: row.unit_price_cents,
                    vat_rate_bp: row.vat_rate_bp,
                })
                .collect();
            let id = self.writer.quote(&QuoteSeed {
                id: proposed,
                equipment: eq.id,
                number: &format!("DV-{year}-{:05}", *seq),
                origin,
                object: &object,
                status: status.code(),
                created_by,
                sent,
                accepted,
                refused,
                created,
                rows: &lines,
            })?;
            drop(lines);
            self.counts.quotes += 1;
            if let Some(accepted) = accepted
                && !client.prospect
            {
                self.accepted_quotes.push(AcceptedQuote {
                    id,
                    client: eq.client,
                    accepted_on: accepted.date_naive(),
                    rows,
                });
            }
        }
        Ok(())
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------------------
// Invoices and credit notes
// ---------------------------------------------------------------------------

/// The status of an issued document by its age: older documents are mostly
/// paid; recent ones still wait.
fn status_by_age(rng: &mut StdRng, age_days: i64, large: bool) -> InvoiceStatus {
    let weights = match age_days {
        61.. if large => [1, 11, 88],
        61.. => [1, 5, 94],
        31..=60 => [3, 27, 70],
        _ => [20, 50, 30],
    };
    [
        InvoiceStatus::Emise,
        InvoiceStatus::Envoyee,
        InvoiceStatus::Payee,
    ][pick_weighted(rng, &weights)]
}

#[derive(Default)]
struct Line {
    label: String,
    amounts: LineAmounts,
}

/// Invoice lines whose label buffers are reused from one invoice to the next.
#[derive(Default)]
struct Lines {
    items: Vec<Line>,
    len: usize,
}

impl Lines {
    fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds a line and returns its (empty) label to write into.
    fn push(
        &mut self,
        quantity_milli: i64,
        unit_price_cents: i64,
        vat_rate_bp: u32,
    ) -> &mut String {
        if self.len == self.items.len() {
            self.items.push(Line::default());
        }
        let line = &mut self.items[self.len];
        self.len += 1;
        line.label.clear();
        line.amounts = LineAmounts {
            quantity_milli,
            unit_price: Cents::new(unit_price_cents),
            vat_rate_bp,
        };
        &mut line.label
    }

    fn as_slice(&self) -> &[Line] {
        &self.items[..self.len]
    }
}

/// Totals of a document, by the invoices' own rule.
fn compute_totals(lines: &[Line]) -> Totals {
    let amounts: Vec<LineAmounts> = lines.iter().map(|l| l.amounts).collect();
    invoice::totals(&amounts)
}

/// An issued invoice that a later credit note may cancel.
struct Issued {
    id: Id,
    client: u32,
    number: String,
    totals: Totals,
    /// The VAT rate of its first line, on which a commercial gesture is made.
    first_rate_bp: u32,
}

struct Document {
    nature: InvoiceNature,
    status: InvoiceStatus,
    client: u32,
    credited: Option<Id>,
    quote: Option<Id>,
    issued_on: Option<NaiveDate>,
    created: DateTime<Utc>,
}

/// What was written: the id, the totals and the (year, seq) when issued.
struct Written {
    id: Id,
    totals: Totals,
    number: Option<String>,
    first_rate_bp: u32,
}

/// Plans documents with gapless numbers per nature and year, and hands
/// them to the writer.
struct InvoiceWriter {
    clock: Clock,
    /// The agency's series of numbers.
    series: Option<String>,
    /// Last sequence given per (nature, year).
    counters: BTreeMap<(&'static str, i32), u32>,
}

impl InvoiceWriter {
    fn write(
        &mut self,
        rng: &mut StdRng,
        sink: &mut dyn Writer,
        client: &ClientRec,
        doc: &Document,
        lines: &[Line],
    ) -> Result<Written> {
        let totals = compute_totals(lines);
        let clock = self.clock;
        let proposed = new_id(rng, doc.created);
        let mut number_parts: Option<(i32, u32, String)> = None;
        let mut due_on = None;
        let mut issued_at = None;
        let mut sent_at = None;
        let mut paid = None;
        if let (Some(issued), true) = (doc.issued_on, doc.status != InvoiceStatus::Brouillon) {
            let year = issued.year();
            let seq = self
                .counters
                .entry((doc.nature.as_str(), year))
                .or_insert(0);
            *seq += 1;
            number_parts = Some((
                year,
                *seq,
                invoice::format_number(doc.nature, self.series.as_deref(), year, *seq),
            ));
            due_on = Some(issued + Duration::days(PAYMENT_TERM_DAYS));
            let at = clock.work_time(rng, issued).max(doc.created);
            issued_at = Some(at);
            match doc.status {
                InvoiceStatus::Envoyee => sent_at = Some(clock.later(rng, at, 5, 24 * 60)),
                InvoiceStatus::Payee => {
                    let age = (clock.today - issued).num_days();
                    let paid_on = issued + Duration::days(between(rng, age.min(5), age.min(60)));
                    paid = Some((paid_on, clock.work_time(rng, paid_on).max(at)));
                }
                _ => {}
            }
        }
        let line_seeds: Vec<LineSeed> = lines
            .iter()
            .map(|line| LineSeed {
                id: new_id(rng, doc.created),
                label: &line.label,
                quantity_milli: line.amounts.quantity_milli,
                unit_price_cents: line.amounts.unit_price.get(),
                vat_rate_bp: line.amounts.vat_rate_bp,
            })
            .collect();
        let id = sink.invoice(&InvoiceSeed {
            id: proposed,
            client: client.id,
            nature: doc.nature,
            status: doc.status,
            number: number_parts
                .as_ref()
                .map(|(year, seq, number)| (number.as_str(), *year, *seq)),
            number_series: self.series.as_deref(),
            credited: doc.credited,
            quote: doc.quote,
            buyer_name: &client.name,
            buyer_address: &client.address,
            buyer_siren: client.siren.as_deref(),
            issued_on: doc.issued_on.filter(|_| number_parts.is_some()),
            issued_at,
            due_on,
            sent_at,
            paid,
            total_excl_cents: totals.excl_tax.get(),
            total_incl_cents: totals.incl_tax.get(),
            created: doc.created,
            lines: &line_seeds,
        })?;
        Ok(Written {
            id,
            totals,
            number: number_parts.map(|(_, _, number)| number),
            first_rate_bp: lines.first().map_or(0, |l| l.amounts.vat_rate_bp),
        })
    }
}

fn quarter_name(date: NaiveDate) -> &'static str {
    match date.month() {
        1..=3 => "1er trimestre",
        4..=6 => "2e trimestre",
        7..=9 => "3e trimestre",
        _ => "4e trimestre",
    }
}

/// Quarterly maintenance price of an equipment: stable for a given equipment.
fn contract_price_cents(eq: &EquipRec) -> i64 {
    let (low, high) = match eq.eq_type {
        EqType::Ascenseur => (320, 680),
        EqType::MonteCharge => (400, 750),
        EqType::MonteVoiture => (350, 600),
        EqType::Elevateur => (150, 300),
        EqType::PorteFermeture => (120, 250),
    };
    let euros = low + (mix(eq.profile_seed) % (high - low + 1) as u64) as i64;
    euros * 100
}

impl AgencySeeder<'_> {
    /// Lines of an ordinary invoice: a maintenance quarter or a repair.
    fn invoice_lines(
        &self,
        rng: &mut StdRng,
        client: &ClientRec,
        issued: NaiveDate,
        lines: &mut Lines,
    ) {
        lines.clear();
        let vat = if client.kind.residential() {
            1000
        } else {
            2000
        };
        let e = pick(rng, &client.equipment);
        let eq = &self.equipment[e as usize];
        let max_lines = self.targets.max_invoice_lines;
        let contract_share = if self.targets.large { 0.85 } else { 0.7 };
        if eq.contract == Contract::Parc && chance(rng, contract_share) {
            let quarter = quarter_name(issued);
            let label = lines.push(1000, contract_price_cents(eq), vat);
            let _ = write!(
                label,
                "Contrat d'entretien {} — {quarter} {}",
                eq.number_text(),
                issued.year()
            );
            // A client with several equipment gets them on one invoice.
            for &other in client.equipment.iter().filter(|&&o| o != e) {
                if lines.len >= max_lines {
                    break;
                }
                let other_eq = &self.equipment[other as usize];
                if other_eq.contract != Contract::Parc || !chance(rng, 0.6) {
                    continue;
                }
                let label = lines.push(1000, contract_price_cents(other_eq), vat);
                let _ = write!(
                    label,
                    "Contrat d'entretien {} — {quarter} {}",
                    other_eq.number_text(),
                    issued.year()
                );
            }
            return;
        }
        let incident = weekday_on_or_before(issued - Duration::days(between(rng, 2, 20)));
        if max_lines == 1 {
            let label = lines.push(1000, between(rng, 150, 900) * 100, vat);
            let _ = write!(
                label,
                "Dépannage {} — intervention du {}",
                eq.number_text(),
                liftdesk_domain::day::french(incident)
            );
            return;
        }
        let label = lines.push(between(rng, 4, 16) * 250, between(rng, 78, 92) * 100, vat);
        let _ = write!(
            label,
            "Dépannage {} du {} — main d'œuvre (heure)",
            eq.number_text(),
            liftdesk_domain::day::french(incident)
        );
        if lines.len < max_lines && chance(rng, 0.6) {
            let (part, price) = work_item(rng, eq.eq_type);
            lines.push(1000, price, vat).push_str(part);
        }
        if lines.len < max_lines && chance(rng, 0.5) {
            lines
                .push(1000, between(rng, 65, 95) * 100, vat)
                .push_str(TRAVEL_LABEL);
        }
        if lines.len < max_lines && vat != 2000 && chance(rng, 0.15) {
            lines.push(2000, 8_900, 2000).push_str(BADGES_LABEL);
        }
    }

    fn seed_invoices(&mut self) -> Result<()> {
        let mut rng = self.rng(stage::INVOICES);
        let clock = self.clock;
        let today = clock.today;
        let large = self.targets.large;
        // Clients billed: customers with equipment, big accounts first.
        let mut billable: Vec<u32> = (0..self.clients.len() as u32)
            .filter(|&c| {
                let client = &self.clients[c as usize];
                !client.prospect && !client.equipment.is_empty()
            })
            .collect();
        if billable.is_empty() {
            return Ok(());
        }
        shuffle(&mut rng, &mut billable);
        let start = today - Duration::days(self.targets.invoice_span_days);
        let issue_days: Vec<NaiveDate> = start
            .iter_days()
            .take_while(|d| *d <= today)
            .filter(|d| is_weekday(*d))
            .collect();
        if issue_days.is_empty() {
            return Ok(());
        }
        // Accepted quotes are invoiced some days after the work.
        let mut quote_invoices: Vec<(NaiveDate, usize)> = self
            .accepted_quotes
            .iter()
            .enumerate()
            .map(|(index, quote)| {
                let on = weekday_on_or_after(
                    quote.accepted_on + Duration::days(between(&mut rng, 5, 40)),
                );
                (on, index)
            })
            .filter(|(on, _)| *on <= today && *on >= start)
            .collect();
        quote_invoices.sort();
        let regular = self
            .targets
            .issued_invoices
            .saturating_sub(quote_invoices.len());
        let credit_per_mille = self.targets.credit_note_per_mille;

        let mut writer = InvoiceWriter {
            clock,
            series: self.agency.invoice_series.clone(),
            counters: BTreeMap::new(),
        };
        let mut lines = Lines::default();
        // Recent issued invoices, among which credit notes pick the one they cancel.
        let mut recent: VecDeque<Issued> = VecDeque::with_capacity(RECENT_ISSUED);
        let mut next_quote = 0usize;
        let mut factures = 0usize;
        let mut avoirs = 0usize;
        let day_count = issue_days.len();
        // Issued statuses seen so far (emise, envoyee, payee): the last
        // invoices of the stream, the most recent, fill any that is missing.
        let mut seen = [false; 3];
        let mut regular_written = 0usize;

        for (k, &issued) in issue_days.iter().enumerate() {
            let age = (today - issued).num_days();
            // Spread the volume evenly over the working days (exact total).
            let todays = regular * (k + 1) / day_count - regular * k / day_count;
            let created_for = |rng: &mut StdRng| {
                let created_on = weekday_on_or_before(issued - Duration::days(between(rng, 0, 3)));
                clock.work_time(rng, created_on)
            };
            while next_quote < quote_invoices.len() && quote_invoices[next_quote].0 <= issued {
                let quote = &self.accepted_quotes[quote_invoices[next_quote].1];
                next_quote += 1;
                lines.clear();
                for row in &quote.rows {
                    lines
                        .push(row.quantity_milli, row.unit_price_cents, row.vat_rate_bp)
                        .push_str(&row.label);
                }
                let doc = Document {
                    nature: InvoiceNature::Facture,
                    status: status_by_age(&mut rng, age, large),
                    client: quote.client,
                    credited: None,
                    quote: Some(quote.id),
                    issued_on: Some(issued),
                    created: created_for(&mut rng),
                };
                let client = &self.clients[doc.client as usize];
                let written =
                    writer.write(&mut rng, &mut *self.writer, client, &doc, lines.as_slice())?;
                factures += 1;
                remember(&mut recent, &written, doc.client);
            }
            for _ in 0..todays {
                let missing = seen.iter().filter(|s| !**s).count();
                let remaining = regular - regular_written;
                regular_written += 1;
                let must_fill = missing > 0 && remaining <= missing;
                if !must_fill && !recent.is_empty() && rng.random_range(0..1000) < credit_per_mille
                {
                    let pick_index = rng.random_range(0..recent.len());
                    let Some(credited) = recent.swap_remove_back(pick_index) else {
                        continue;
                    };
                    credit_lines(&mut rng, &credited, &mut lines);
                    let doc = Document {
                        nature: InvoiceNature::Avoir,
                        status: status_by_age(&mut rng, age, large),
                        client: credited.client,
                        credited: Some(credited.id),
                        quote: None,
                        issued_on: Some(issued),
                        created: clock.work_time(&mut rng, issued),
                    };
                    let client = &self.clients[doc.client as usize];
                    writer.write(&mut rng, &mut *self.writer, client, &doc, lines.as_slice())?;
                    avoirs += 1;
                    continue;
                }
                // Skewed towards the first clients: a few big accounts, a long tail.
                let u: f64 = rng.random();
                let client_index =
                    billable[((u * u) * billable.len() as f64) as usize % billable.len()];
                let client = &self.clients[client_index as usize];
                self.invoice_lines(&mut rng, client, issued, &mut lines);
                let mut status = status_by_age(&mut rng, age, large);
                if must_fill && let Some(first_missing) = seen.iter().position(|s| !*s) {
                    status = [
                        InvoiceStatus::Emise,
                        InvoiceStatus::Envoyee,
                        InvoiceStatus::Payee,
                    ][first_missing];
                }
                seen[match status {
                    InvoiceStatus::Emise => 0,
                    InvoiceStatus::Envoyee => 1,
                    _ => 2,
                }] = true;
                let doc = Document {
                    nature: InvoiceNature::Facture,
                    status,
                    client: client_index,
                    credited: None,
                    quote: None,
                    issued_on: Some(issued),
                    created: created_for(&mut rng),
                };
                let written =
                    writer.write(&mut rng, &mut *self.writer, client, &doc, lines.as_slice())?;
                factures += 1;
                remember(&mut recent, &written, client_index);
            }
        }

        // Drafts of the last days: no number yet; one of them a credit note.
        for d in 0..self.targets.draft_invoices {
            let created = clock.ago(&mut rng, 0, 10);
            if d == 0
                && let Some(credited) = recent.pop_back()
            {
                credit_lines(&mut rng, &credited, &mut lines);
                let doc = Document {
                    nature: InvoiceNature::Avoir,
                    status: InvoiceStatus::Brouillon,
                    client: credited.client,
                    credited: Some(credited.id),
                    quote: None,
                    issued_on: None,
                    created,
                };
                writer.write(
                    &mut rng,
                    &mut *self.writer,
                    &self.clients[doc.client as usize],
                    &doc,
                    lines.as_slice(),
                )?;
                avoirs += 1;
                continue;
            }
            let client_index = pick(&mut rng, &billable);
            let client = &self.clients[client_index as usize];
            self.invoice_lines(&mut rng, client, created.date_naive(), &mut lines);
            let doc = Document {
                nature: InvoiceNature::Facture,
                status: InvoiceStatus::Brouillon,
                client: client_index,
                credited: None,
                quote: None,
                issued_on: None,
                created,
            };
            writer.write(&mut rng, &mut *self.writer, client, &doc, lines.as_slice())?;
            factures += 1;
        }

        for ((nature, year), last) in &writer.counters {
            self.writer.invoice_series(nature, *year, *last)?;
        }
        self.counts.invoices += factures;
        self.counts.credit_notes += avoirs;
        Ok(())
    }
}

/// How many recent invoices credit notes choose from.
const RECENT_ISSUED: usize = 512;

fn remember(recent: &mut VecDeque<Issued>, written: &Written, client: u32) {
    let Some(number) = &written.number else {
        return;
    };
    if recent.len() >= RECENT_ISSUED {
        recent.pop_front();
    }
    recent.push_back(Issued {
        id: written.id,
        client,
        number: number.clone(),
        totals: written.totals.clone(),
        first_rate_bp: written.first_rate_bp,
    });
}

/// A full cancellation (one line per VAT rate, same totals) or a partial
/// commercial gesture on the first rate (never more than the invoice).
fn credit_lines(rng: &mut StdRng, credited: &Issued, lines: &mut Lines) {
    lines.clear();
    let totals = &credited.totals;
    if chance(rng, 0.5) {
        for rate in &totals.vat_by_rate {
            let label = lines.push(1000, rate.base.get(), rate.rate_bp);
            let _ = write!(label, "Annulation de la facture {}", credited.number);
        }
    } else {
        let Some(rate) = totals
            .vat_by_rate
            .iter()
            .find(|r| r.rate_bp == credited.first_rate_bp)
        else {
            return;
        };
        let base = rate.base.get();
        let amount = (base * between(rng, 10, 90) / 100).max(1).min(base);
        let label = lines.push(1000, amount, rate.rate_bp);
        let _ = write!(label, "Geste commercial sur la facture {}", credited.number);
    }
}

#[cfg(test)]
mod tests;
