//! PDF documents: quotes, invoices, credit notes and visit reports, rendered
//! from the data
//! the services read (`services::documents` builds the documents below).
//!
//! Rendering is pure: a document in, the bytes of a PDF out. The text is set
//! in DejaVu Sans (embedded, subset), so that accents and the euro sign print
//! and that `pdftotext` extracts them. An invoice carries the mentions French
//! law asks of it (Code de commerce L441-9 and R123-237, CGI 242 nonies A):
//! seller and buyer identity with their SIREN, number, issue and due dates,
//! lines with their VAT rate, VAT per rate, totals, payment terms, late
//! payment penalties and, for a professional buyer, the 40 € recovery
//! indemnity; the seller's legal form and capital, RCS, VAT number, bank
//! details, professional insurance and VAT-on-debits option when recorded.
//! The agency's logo, checked here when it is uploaded ([`check_logo`]),
//! heads every page's seller block.

mod facturx;
mod pdfa;
mod render;

use chrono::NaiveDate;

use crate::domain::invoice::{Totals, line_total_excl};
use crate::domain::money::Cents;

pub use facturx::{FACTURX_FILE_NAME, cii_xml};
pub use render::{
    annual_report_pdf, check_logo, contract_pdf, invoice_pdf, quote_pdf, visit_report_pdf,
};

use crate::domain::contract::{
    BillingFrequency, BillingTiming, ContractType, IndexValue, PriceBasis, Terms,
};
use crate::domain::einvoice::{Treatment, VatExemption};
use crate::domain::identity::SellerIdentity;

/// The seller of a document: the agency, with its legal identity.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seller {
    /// The legal name, else the organization's name.
    pub name: String,
    /// A second line under the name (« Agence : Agence de Lyon »).
    pub subtitle: Option<String>,
    pub identity: SellerIdentity,
    pub logo: Option<Logo>,
}

/// A logo as uploaded: PNG or JPEG bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    pub format: LogoFormat,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogoFormat {
    Png,
    Jpeg,
}

impl LogoFormat {
    /// From the file's first bytes (never from its name).
    pub fn sniff(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Self::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Self::Jpeg)
        } else {
            None
        }
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
        }
    }

    pub fn from_media_type(media_type: &str) -> Option<Self> {
        match media_type {
            "image/png" => Some(Self::Png),
            "image/jpeg" => Some(Self::Jpeg),
            _ => None,
        }
    }
}

/// Largest logo file: 1 Mio.
pub const LOGO_MAX_BYTES: usize = 1024 * 1024;
/// Largest logo side, in pixels.
pub const LOGO_MAX_PIXELS: u32 = 4000;
/// Smallest logo side, in pixels.
pub const LOGO_MIN_PIXELS: u32 = 16;

/// A party of a document: the seller (the agency) or the buyer (the client).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Party {
    /// Company name (for the seller: the organization).
    pub name: String,
    /// A second line under the name (for the seller: « Agence de Lyon »).
    pub subtitle: Option<String>,
    pub address: Option<String>,
    pub siren: Option<String>,
    pub siret: Option<String>,
    /// Intra-community VAT number.
    pub vat_number: Option<String>,
    /// Electronic invoicing address (the French directory's).
    pub electronic_address: Option<String>,
}

impl Party {
    /// The SIREN printed: the one recorded, or the first nine digits of the
    /// SIRET.
    pub fn effective_siren(&self) -> Option<String> {
        self.siren
            .clone()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| siren_of_siret(self.siret.as_deref()?))
    }
}

/// A line of a quote, an invoice or a credit note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLine {
    pub label: String,
    pub quantity_milli: i64,
    pub unit_price_cents: i64,
    pub vat_rate_bp: u32,
    /// Why a 0 % line charges no VAT (none on documents issued before it
    /// was asked).
    pub vat_exemption: Option<VatExemption>,
}

impl DocumentLine {
    pub fn total_excl_cents(&self) -> i64 {
        line_total_excl(self.quantity_milli, Cents::new(self.unit_price_cents)).get()
    }
}

/// Invoice or credit note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceKind {
    Facture,
    Avoir,
}

/// An invoice or a credit note as printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceDocument {
    pub kind: InvoiceKind,
    /// None while the document is a draft: no number is ever printed then.
    pub number: Option<String>,
    /// For a credit note: the number of the invoice it credits, and its
    /// issue day.
    pub credited_number: Option<String>,
    pub credited_issued_on: Option<NaiveDate>,
    /// The quote the invoice bills, if any.
    pub quote_number: Option<String>,
    /// The lifts it is about, each on one line (« N° ASC-0042 — Résidence
    /// Les Tilleuls, 12 rue … »).
    pub equipment: Vec<String>,
    pub created_on: NaiveDate,
    pub issued_on: Option<NaiveDate>,
    pub due_on: Option<NaiveDate>,
    pub paid_on: Option<NaiveDate>,
    /// Days between issue and due date (for the terms of a draft).
    pub payment_term_days: i64,
    pub seller: Seller,
    pub buyer: Party,
    pub lines: Vec<DocumentLine>,
    pub totals: Totals,
    /// How the buyer's documents travel (e-invoicing, Chorus Pro,
    /// e-reporting).
    pub treatment: Treatment,
    /// A public buyer's Chorus Pro service code.
    pub buyer_service_code: Option<String>,
    /// Where the work was done: the building of its lifts, when they are
    /// all in one.
    pub place: Option<Place>,
}

/// A place of service: a building's name and address parts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    pub name: Option<String>,
    pub street: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
}

impl InvoiceDocument {
    pub fn is_draft(&self) -> bool {
        self.number.is_none()
    }

    /// Whether it is an electronic invoice (Factur-X): issued, and by a
    /// seller with a SIRET (a document issued before the agency recorded
    /// its SIRET has no structured invoice: its seller has no SIREN).
    pub fn has_facturx(&self) -> bool {
        self.number.is_some() && self.issued_on.is_some() && self.seller.identity.siren().is_some()
    }

    /// The buyer is a business (identified by a SIREN): the 40 € recovery
    /// indemnity applies (Code de commerce L441-10).
    pub fn professional_buyer(&self) -> bool {
        self.buyer.effective_siren().is_some()
    }

    /// The payment terms (BT-20): the sentence the page prints under
    /// « Conditions de paiement » and the XML carries.
    pub fn payment_terms(&self) -> String {
        match (self.kind, self.due_on) {
            (InvoiceKind::Facture, Some(due)) => format!(
                "Paiement à réception, au plus tard le {} ({} jours après la date d'émission).",
                day(due),
                self.payment_term_days
            ),
            (InvoiceKind::Facture, None) => format!(
                "Paiement à {} jours après la date d'émission.",
                self.payment_term_days
            ),
            (InvoiceKind::Avoir, _) => {
                "Montant à déduire de la facture créditée, ou à rembourser si elle est déjà réglée."
                    .to_owned()
            }
        }
    }
}

/// A quote as printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteDocument {
    pub number: Option<String>,
    pub object: String,
    pub equipment_number: Option<String>,
    pub created_on: NaiveDate,
    /// The last day it may be accepted.
    pub valid_until: Option<NaiveDate>,
    pub seller: Seller,
    /// The client of the equipment, when it has one.
    pub buyer: Option<Party>,
    pub lines: Vec<DocumentLine>,
    pub totals: Totals,
}

/// A maintenance contract as printed, with its French clauses
/// ([`contract_clauses`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractDocument {
    pub number: String,
    /// A draft prints « Projet de contrat ».
    pub draft: bool,
    pub created_on: NaiveDate,
    pub seller: Seller,
    pub buyer: Party,
    /// Each lift on one line (« ASC-001 — Hall principal, Résidence … »).
    pub lifts: Vec<String>,
    pub contract_type: ContractType,
    pub terms: Terms,
    pub price_basis: PriceBasis,
    pub annual_price: Cents,
    pub annual_total: Cents,
    pub frequency: BillingFrequency,
    pub timing: BillingTiming,
    pub vat_rate_bp: u32,
    /// The revision's index, its base value I0 and I0's month.
    pub indexation: Option<(String, IndexValue, NaiveDate)>,
    pub visit_interval_days: i64,
    pub arrival_minutes: i64,
    pub out_of_hours_minutes: Option<i64>,
    pub trapped_minutes: i64,
    pub restore_minutes: i64,
    pub weekend_coverage: bool,
    pub on_call_coverage: bool,
    pub penalty_per_hour: Cents,
    pub notes: Option<String>,
}

/// A delay in minutes as the clauses write it: `45 minutes`, `4 heures`,
/// `1 h 30`, `2 jours`.
pub fn delay(minutes: i64) -> String {
    let plural = |n: i64, one: &str, many: &str| format!("{n} {}", if n > 1 { many } else { one });
    if minutes < 60 {
        return plural(minutes, "minute", "minutes");
    }
    if minutes % (24 * 60) == 0 {
        return plural(minutes / (24 * 60), "jour", "jours");
    }
    if minutes % 60 == 0 {
        return plural(minutes / 60, "heure", "heures");
    }
    format!("{} h {:02}", minutes / 60, minutes % 60)
}

/// The clauses of a maintenance contract, article by article: its title
/// and its paragraphs, in French, from what the contract says. The law's
/// mandatory content (Code de la construction et de l'habitation, R134-2
/// and R134-3; Code de la consommation, L215-1) is always there.
pub fn contract_clauses(c: &ContractDocument) -> Vec<(String, Vec<String>)> {
    let terms = &c.terms;
    let lifts = if c.lifts.len() > 1 {
        "des appareils désignés ci-dessus"
    } else {
        "de l'appareil désigné ci-dessus"
    };
    let mut clauses = vec![(
        "Article 1 — Objet".to_owned(),
        vec![format!(
            "Le présent contrat a pour objet l'entretien {lifts}, conformément aux articles R134-1 à R134-6 du Code de la construction et de l'habitation, par le prestataire, au client propriétaire ou à son représentant."
        )],
    )];
    clauses.push((
        "Article 2 — Prestations d'entretien obligatoires".to_owned(),
        vec![
            format!(
                "Une visite d'entretien tous les {} jours au plus (six semaines au plus, article R134-2), pour surveiller le fonctionnement de l'installation, effectuer les réglages nécessaires, nettoyer et lubrifier les organes mobiles.",
                c.visit_interval_days
            ),
            "Un examen semestriel du bon état des câbles et un essai annuel du parachute (dispositif de sécurité contre la chute de la cabine).".to_owned(),
            "Un nettoyage annuel de la cuvette, du toit de cabine et du local des machines.".to_owned(),
            "Le remplacement des pièces usées dans la mesure prévue par l'article 3, et la réparation des dysfonctionnements.".to_owned(),
            "La tenue du carnet d'entretien de chaque appareil et la remise au propriétaire d'un rapport annuel d'activité : visites et contrôles effectués avec leurs dates, pannes avec leur cause et leur durée, taux de disponibilité.".to_owned(),
        ],
    ));
    clauses.push((
        format!(
            "Article 3 — Étendue du contrat : {}",
            c.contract_type.label().to_lowercase()
        ),
        vec![c.contract_type.coverage().to_owned()],
    ));
    let mut delays = vec![
        format!(
            "Arrivée sur place après un appel pour panne aux heures ouvrées : {} au plus.",
            delay(c.arrival_minutes)
        ),
        format!(
            "Dégagement d'une personne bloquée dans une cabine, à toute heure, tous les jours : arrivée en {} au plus.",
            delay(c.trapped_minutes)
        ),
        format!(
            "Remise en service après une panne : {} au plus, hors pièces à commander, dont le client est informé.",
            delay(c.restore_minutes)
        ),
    ];
    match (c.out_of_hours_minutes, c.on_call_coverage, c.weekend_coverage) {
        (Some(minutes), on_call, weekend) => delays.push(format!(
            "Hors heures ouvrées ({}) : arrivée en {} au plus.",
            match (on_call, weekend) {
                (true, true) => "nuits, par l'astreinte, et week-ends",
                (true, false) => "nuits, par l'astreinte",
                _ => "week-ends",
            },
            delay(minutes)
        )),
        _ => delays.push(
            "Hors heures ouvrées, un appel pour panne (sauf personne bloquée) est traité à la reprise des heures ouvrées.".to_owned(),
        ),
    }
    clauses.push(("Article 4 — Délais d'intervention".to_owned(), delays));
    clauses.push((
        "Article 5 — Pénalités".to_owned(),
        vec![if c.penalty_per_hour.is_positive() {
            format!(
                "Tout dépassement d'un délai de l'article 4 ouvre droit pour le client à une pénalité de {} HT par heure de retard commencée, déduite de la facture suivante.",
                c.penalty_per_hour.french()
            )
        } else {
            "Le contrat ne prévoit pas de pénalité de retard ; les délais de l'article 4 sont suivis appel par appel et figurent au rapport annuel.".to_owned()
        }],
    ));
    let mut duration = vec![format!(
        "Le contrat prend effet le {} pour une première période de {} mois, jusqu'au {} inclus (un an au moins, article R134-3 du Code de la construction et de l'habitation).",
        day(terms.start),
        terms.duration_months,
        day(terms.first_end())
    )];
    if terms.tacit_renewal {
        duration.push(if terms.notice_months == 0 {
            format!(
                "Il est reconduit tacitement par périodes de {} mois, sauf résiliation par l'une des parties, par lettre recommandée avec accusé de réception, au plus tard le dernier jour de la période en cours.",
                terms.renewal_months
            )
        } else {
            format!(
                "Il est reconduit tacitement par périodes de {} mois, sauf résiliation par l'une des parties, par lettre recommandée avec accusé de réception, au moins {} mois avant l'échéance de la période en cours.",
                terms.renewal_months, terms.notice_months
            )
        });
        duration.push("Lorsque le client est un consommateur ou un non-professionnel, le prestataire l'informe par écrit, au plus tôt trois mois et au plus tard un mois avant le terme de la période autorisant le rejet de la reconduction, de la possibilité de ne pas reconduire le contrat (article L215-1 du Code de la consommation).".to_owned());
    } else {
        duration.push(format!(
            "Il n'est pas reconduit tacitement : il prend fin le {}.",
            day(terms.first_end())
        ));
    }
    duration.push("Chaque partie peut résilier le contrat en cas de manquement grave de l'autre à ses obligations, un mois après une mise en demeure restée sans effet.".to_owned());
    clauses.push((
        "Article 6 — Durée, reconduction et résiliation".to_owned(),
        duration,
    ));
    let mut price = vec![match c.price_basis {
        PriceBasis::ParAppareil => format!(
            "Prix annuel : {} HT par appareil, soit {} HT pour l'ensemble des appareils, TVA en sus au taux de {}.",
            c.annual_price.french(),
            c.annual_total.french(),
            rate(c.vat_rate_bp)
        ),
        PriceBasis::Global => format!(
            "Prix annuel : {} HT pour l'ensemble des appareils, TVA en sus au taux de {}.",
            c.annual_total.french(),
            rate(c.vat_rate_bp)
        ),
    }];
    price.push(format!(
        "Facturation {} ({}), chaque période étant facturée au prorata de ses jours couverts quand le contrat commence ou finit en son cours ; paiement à {} jours.",
        c.frequency.label().to_lowercase(),
        match c.timing {
            BillingTiming::TermeAEchoir => "à terme à échoir, en début de période",
            BillingTiming::TermeEchu => "à terme échu, la période écoulée",
        },
        crate::domain::invoice::PAYMENT_TERM_DAYS
    ));
    match &c.indexation {
        Some((index, base, month)) => price.push(format!(
            "Le prix est révisé à chaque date anniversaire du contrat selon la formule P = P0 × (I / I0), où P0 est le prix ci-dessus, I0 = {} la valeur de l'indice {} publiée par l'INSEE pour le mois de {}, et I la valeur du même indice pour le même mois de l'année de la révision.",
            base.french(),
            index,
            french_month(*month)
        )),
        None => price.push("Le prix n'est pas indexé : il n'est modifié que par avenant signé des deux parties.".to_owned()),
    }
    clauses.push((
        "Article 7 — Prix, facturation et révision".to_owned(),
        price,
    ));
    clauses.push((
        "Article 8 — Obligations du client".to_owned(),
        vec!["Le client donne au prestataire un libre accès aux appareils, au local des machines et aux dispositifs de commande ; il signale sans délai toute anomalie et fait exécuter les travaux de mise en conformité qui lui incombent.".to_owned()],
    ));
    if let Some(notes) = c.notes.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        clauses.push((
            "Article 9 — Conditions particulières".to_owned(),
            notes.lines().map(str::to_owned).collect(),
        ));
    }
    clauses
}

/// A month in words: `décembre 2026`.
pub fn french_month(month: NaiveDate) -> String {
    use chrono::Datelike;
    format!(
        "{} {}",
        crate::domain::day::MONTH_NAMES[month.month0() as usize],
        month.year()
    )
}

/// The yearly report a maintenance contract owes the owner (R134-2):
/// for each lift, its visits done, its periodic duties done, its breakdowns
/// with their cause and duration, and its availability over the period.
#[derive(Debug, Clone)]
pub struct AnnualReportDocument {
    pub number: String,
    pub year: i32,
    /// The part of the year the contract covered.
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub seller: Seller,
    pub buyer: Party,
    pub lifts: Vec<LiftYear>,
}

/// One lift's year.
#[derive(Debug, Clone, Default)]
pub struct LiftYear {
    /// « ASC-001 — Hall principal, Résidence … ».
    pub label: String,
    pub visits: Vec<NaiveDate>,
    /// Each duty done, with its day.
    pub duties: Vec<(crate::domain::contract::Duty, NaiveDate)>,
    pub breakdowns: Vec<Breakdown>,
    /// Minutes stopped by a breakdown within the period.
    pub downtime_minutes: i64,
    pub period_minutes: i64,
}

/// A breakdown call of the year.
#[derive(Debug, Clone)]
pub struct Breakdown {
    /// Paris time of the call.
    pub received: chrono::NaiveDateTime,
    pub kind: &'static str,
    pub cause: Option<String>,
    /// From the call to the return to service; None while not back.
    pub minutes: Option<i64>,
}

/// « 3 h 20 », « 45 min », « 2 j 04 h ».
pub fn duration_text(minutes: i64) -> String {
    let m = minutes.max(0);
    match (m / 60, m % 60) {
        (0, m) => format!("{m} min"),
        (h, m) if h < 24 => format!("{h} h {m:02}"),
        (h, _) => format!("{} j {:02} h", h / 24, h % 24),
    }
}

/// The availability over a period, in percent with one decimal (« 99,6 % »).
pub fn availability_text(downtime_minutes: i64, period_minutes: i64) -> String {
    if period_minutes <= 0 {
        return "—".to_owned();
    }
    let kept = (period_minutes - downtime_minutes.clamp(0, period_minutes)) as f64;
    let permille = (kept * 1000.0 / period_minutes as f64).round() as i64;
    format!("{},{} %", permille / 10, permille % 10)
}

/// The report's sections, each a heading and its paragraphs (the PDF
/// prints them; tests read them).
pub fn annual_report_sections(r: &AnnualReportDocument) -> Vec<(String, Vec<String>)> {
    let mut sections = vec![(
        format!("Rapport annuel {} — contrat {}", r.year, r.number),
        vec![format!(
            "Période couverte : du {} au {}. Appareils : {}. Visites d'entretien faites : {}. Pannes : {}.",
            day(r.from),
            day(r.to),
            r.lifts.len(),
            r.lifts.iter().map(|l| l.visits.len()).sum::<usize>(),
            r.lifts.iter().map(|l| l.breakdowns.len()).sum::<usize>(),
        )],
    )];
    for lift in &r.lifts {
        let mut lines = Vec::new();
        lines.push(if lift.visits.is_empty() {
            "Visites d'entretien : aucune sur la période.".to_owned()
        } else {
            format!(
                "Visites d'entretien ({}) : {}.",
                lift.visits.len(),
                lift.visits
                    .iter()
                    .map(|d| day(*d))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
        for duty in crate::domain::contract::DUTIES {
            let done: Vec<String> = lift
                .duties
                .iter()
                .filter(|(d, _)| d == duty)
                .map(|(_, on)| day(*on))
                .collect();
            lines.push(if done.is_empty() {
                format!("{} : non fait sur la période.", duty.label())
            } else {
                format!("{} : le {}.", duty.label(), done.join(", le "))
            });
        }
        if lift.breakdowns.is_empty() {
            lines.push("Pannes : aucune.".to_owned());
        } else {
            lines.push(format!("Pannes ({}) :", lift.breakdowns.len()));
            for b in &lift.breakdowns {
                lines.push(format!(
                    "— {} à {} : {} ; cause : {} ; {}.",
                    day(b.received.date()),
                    b.received.format("%H:%M"),
                    b.kind,
                    b.cause.as_deref().unwrap_or("non renseignée"),
                    b.minutes.map_or_else(
                        || "pas encore remis en service".to_owned(),
                        |m| format!("arrêt de {}", duration_text(m))
                    ),
                ));
            }
        }
        lines.push(format!(
            "Taux de disponibilité : {} (arrêts : {}).",
            availability_text(lift.downtime_minutes, lift.period_minutes),
            duration_text(lift.downtime_minutes)
        ));
        sections.push((lift.label.clone(), lines));
    }
    sections
}

/// The report's file name (« rapport-CT-2027-00001-2027.pdf »).
pub fn annual_report_file_name(number: &str, year: i32) -> String {
    format!(
        "rapport-{}-{year}.pdf",
        contract_file_name(number).trim_end_matches(".pdf")
    )
}

/// The file name of a contract's PDF: its number.
pub fn contract_file_name(number: &str) -> String {
    let safe: String = number
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    format!("{safe}.pdf")
}

/// The report of a done maintenance visit, as printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitReportDocument {
    pub equipment_number: String,
    pub equipment_type: Option<String>,
    /// The building and its address.
    pub place: Option<String>,
    pub done_on: NaiveDate,
    /// Paris local times, `HH:MM`.
    pub arrived_at: Option<String>,
    pub left_at: Option<String>,
    pub technician: Option<String>,
    /// Who signed on site.
    pub signed_by: Option<String>,
    pub observations: Option<String>,
    pub seller: Seller,
    /// The client of the equipment, when it has one.
    pub buyer: Option<Party>,
}

// ---------------------------------------------------------------------------
// French formatting
// ---------------------------------------------------------------------------

/// Narrow no-break space: the French thousands separator (as `Cents::french`).
const THOUSANDS: char = '\u{202f}';

/// An amount as a French reader writes it: `1 234,56 €`.
pub fn amount(cents: i64) -> String {
    Cents::new(cents).french()
}

/// Digits grouped by three from the right with a narrow no-break space.
fn group_thousands(digits: &str) -> String {
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3 * 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(THOUSANDS);
        }
        grouped.push(digit);
    }
    grouped
}

/// A quantity in thousandths as written in French: `2`, `1,5`, `0,125`,
/// `1 000`.
pub fn quantity(milli: i64) -> String {
    let sign = if milli < 0 { "-" } else { "" };
    let magnitude = milli.unsigned_abs();
    let whole = group_thousands(&(magnitude / 1000).to_string());
    let fraction = magnitude % 1000;
    if fraction == 0 {
        format!("{sign}{whole}")
    } else {
        let decimals = format!("{fraction:03}");
        format!("{sign}{whole},{}", decimals.trim_end_matches('0'))
    }
}

/// A VAT rate in basis points: `20 %`, `5,5 %`, `2,1 %`.
pub fn rate(rate_bp: u32) -> String {
    crate::services::invoices::french_rate(rate_bp)
}

/// A day as French documents print it: `21/11/2026`.
pub fn day(date: NaiveDate) -> String {
    crate::domain::day::french(date)
}

/// The SIREN of a SIRET (its first nine digits), spaces ignored.
pub fn siren_of_siret(siret: &str) -> Option<String> {
    let digits: String = siret.chars().filter(|c| !c.is_whitespace()).collect();
    (digits.len() == 14 && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| digits[..9].to_owned())
}

/// A SIREN (`732 829 320`) or a SIRET (`732 829 320 00074`) grouped as
/// printed; any other text unchanged.
pub fn company_id(id: &str) -> String {
    let digits: String = id.chars().filter(|c| !c.is_whitespace()).collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return id.to_owned();
    }
    match digits.len() {
        9 => format!("{} {} {}", &digits[..3], &digits[3..6], &digits[6..]),
        14 => format!(
            "{} {} {} {}",
            &digits[..3],
            &digits[3..6],
            &digits[6..9],
            &digits[9..]
        ),
        _ => id.to_owned(),
    }
}

/// The file name a document is served under: its number, or for a draft
/// `brouillon-<id>.pdf`; a quote its number too (`devis-<id>.pdf` for one
/// without). Only characters safe in a `Content-Disposition` header are kept.
pub fn invoice_file_name(number: Option<&str>, id: &str) -> String {
    match number {
        Some(number) => format!("{}.pdf", safe_file_part(number)),
        None => format!("brouillon-{}.pdf", safe_file_part(id)),
    }
}

/// The structured invoice's file: `FA-PO-2026-000012.xml`.
pub fn facturx_file_name(number: &str) -> String {
    format!("{}.xml", safe_file_part(number))
}

/// `rapport-ASC-0042-2026-11-27.pdf`.
pub fn visit_report_file_name(equipment_number: &str, done_on: NaiveDate) -> String {
    format!(
        "rapport-{}-{}.pdf",
        safe_file_part(equipment_number),
        done_on.format("%Y-%m-%d")
    )
}

pub fn quote_file_name(number: Option<&str>, id: &str) -> String {
    match number {
        Some(number) => format!("{}.pdf", safe_file_part(number)),
        None => format!("devis-{}.pdf", safe_file_part(id)),
    }
}

fn safe_file_part(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_annual_reports_durations_and_availability_read_in_french() {
        assert_eq!(duration_text(45), "45 min");
        assert_eq!(duration_text(200), "3 h 20");
        assert_eq!(duration_text(60 * 52), "2 j 04 h");
        assert_eq!(availability_text(180, 131_040), "99,9 %");
        assert_eq!(availability_text(0, 1_000), "100,0 %");
        assert_eq!(availability_text(2_000, 1_000), "0,0 %");
        assert_eq!(availability_text(10, 0), "—");
    }

    fn plain(text: &str) -> String {
        text.replace(['\u{202f}', '\u{a0}'], " ")
    }

    #[test]
    fn delays_are_written_in_words() {
        assert_eq!(delay(45), "45 minutes");
        assert_eq!(delay(1), "1 minute");
        assert_eq!(delay(60), "1 heure");
        assert_eq!(delay(240), "4 heures");
        assert_eq!(delay(90), "1 h 30");
        assert_eq!(delay(1440), "1 jour");
        assert_eq!(delay(2880), "2 jours");
        assert_eq!(delay(1500), "25 heures");
    }

    #[test]
    fn amounts_are_french() {
        assert_eq!(plain(&amount(123_456)), "1 234,56 €");
        assert_eq!(plain(&amount(5)), "0,05 €");
        assert_eq!(plain(&amount(10_000_000_000)), "100 000 000,00 €");
        assert_eq!(plain(&amount(-4_000)), "-40,00 €");
        assert_eq!(plain(&amount(0)), "0,00 €");
        // The separators are no-break spaces: an amount never wraps.
        assert_eq!(amount(123_456), "1\u{202f}234,56\u{a0}€");
    }

    #[test]
    fn quantities_are_french() {
        assert_eq!(quantity(1000), "1");
        assert_eq!(quantity(1500), "1,5");
        assert_eq!(quantity(125), "0,125");
        assert_eq!(quantity(2050), "2,05");
        assert_eq!(plain(&quantity(1_000_000)), "1 000");
        assert_eq!(plain(&quantity(100_000_000)), "100 000");
    }

    #[test]
    fn rates_and_days() {
        assert_eq!(rate(2000), "20 %");
        assert_eq!(rate(550), "5,5 %");
        assert_eq!(rate(210), "2,1 %");
        assert_eq!(rate(0), "0 %");
        let date = NaiveDate::from_ymd_opt(2026, 3, 7).expect("date");
        assert_eq!(day(date), "07/03/2026");
    }

    #[test]
    fn company_identifiers() {
        assert_eq!(
            siren_of_siret("73282932000074").as_deref(),
            Some("732829320")
        );
        assert_eq!(
            siren_of_siret("732 829 320 00074").as_deref(),
            Some("732829320")
        );
        assert_eq!(siren_of_siret("7328"), None);
        assert_eq!(company_id("732829320"), "732 829 320");
        assert_eq!(company_id("73282932000074"), "732 829 320 00074");
        assert_eq!(company_id("n/a"), "n/a");
        let seller = Party {
            siret: Some("73282932000074".into()),
            ..Party::default()
        };
        assert_eq!(seller.effective_siren().as_deref(), Some("732829320"));
    }

    #[test]
    fn file_names() {
        assert_eq!(
            invoice_file_name(Some("FA-2026-000012"), "x"),
            "FA-2026-000012.pdf"
        );
        assert_eq!(invoice_file_name(None, "0190-ab"), "brouillon-0190-ab.pdf");
        assert_eq!(quote_file_name(None, "a\"b"), "devis-a_b.pdf");
        assert_eq!(
            quote_file_name(Some("DV-2026-00012"), "x"),
            "DV-2026-00012.pdf"
        );
    }
}
