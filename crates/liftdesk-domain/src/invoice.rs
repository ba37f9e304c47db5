//! Invoices and credit notes: life cycle, legal numbering, and the money
//! arithmetic shared with quotes.
//!
//! Money is held in integer cents (`money::Cents`), quantities in
//! thousandths ("milli", 1.5 h = 1500) and VAT rates in basis points
//! (2000 = 20 %), so that totals never depend on floating-point rounding.

use super::error::{DomainError, TransitionError};
use super::money::{Cents, divide_rounding_half_away, saturate};

wire_enum! {
    /// An invoice proper, or a credit note cancelling all or part of one.
    pub enum InvoiceNature {
        Facture => "facture", "Facture";
        Avoir => "avoir", "Avoir";
    }
}

impl InvoiceNature {
    /// Prefix of the document number; each nature has its own series.
    pub fn number_prefix(self) -> &'static str {
        match self {
            InvoiceNature::Facture => "FA",
            InvoiceNature::Avoir => "AV",
        }
    }

    /// « Cette facture ne peut pas être émise » / « Cet avoir ne peut pas
    /// être émis »: how every refusal of an issue begins.
    pub fn cannot_be_issued(self) -> &'static str {
        match self {
            InvoiceNature::Facture => "Cette facture ne peut pas être émise",
            InvoiceNature::Avoir => "Cet avoir ne peut pas être émis",
        }
    }

    /// "cette facture" / "cet avoir", for messages.
    fn this_document(self) -> &'static str {
        match self {
            InvoiceNature::Facture => "cette facture",
            InvoiceNature::Avoir => "cet avoir",
        }
    }
}

wire_enum! {
    /// Where an invoice or a credit note stands. The number is null while
    /// `brouillon` and given, for good, by the issue.
    pub enum InvoiceStatus {
        /// Being prepared: no number, freely edited or deleted.
        Brouillon => "brouillon", "Brouillon";
        /// Numbered and dated: a legal document, never edited nor deleted.
        Emise => "emise", "Émise";
        /// Sent to the client.
        Envoyee => "envoyee", "Envoyée";
        /// Settled in full: paid by the client, or for a credit note
        /// refunded or set off against another invoice.
        Payee => "payee", "Payée";
    }
}

impl InvoiceStatus {
    /// The label agreeing with the document: "avoir" is masculine, and a
    /// settled credit note is "Soldé" rather than "Payé".
    pub fn label_for(self, nature: InvoiceNature) -> &'static str {
        match (nature, self) {
            (InvoiceNature::Facture, _) | (InvoiceNature::Avoir, InvoiceStatus::Brouillon) => {
                self.label()
            }
            (InvoiceNature::Avoir, InvoiceStatus::Emise) => "Émis",
            (InvoiceNature::Avoir, InvoiceStatus::Envoyee) => "Envoyé",
            (InvoiceNature::Avoir, InvoiceStatus::Payee) => "Soldé",
        }
    }
}

wire_enum! {
    /// What can be done to an invoice or a credit note.
    pub enum InvoiceAction {
        /// Gives the number and the issue date: `brouillon` → `emise`.
        Issue => "issue", "Émettre";
        /// Sends to the client (again, as a reminder, once sent).
        Send => "send", "Envoyer";
        /// Records a payment (a refund, for a credit note), in full or in
        /// part; the document is settled when nothing is left due.
        RecordPayment => "record_payment", "Enregistrer un règlement";
    }
}

impl InvoiceAction {
    /// "d'émettre", "d'envoyer"… to follow "impossible" in messages.
    fn after_impossible(self) -> &'static str {
        match self {
            InvoiceAction::Issue => "d'émettre",
            InvoiceAction::Send => "d'envoyer",
            InvoiceAction::RecordPayment => "d'enregistrer le règlement de",
        }
    }
}

/// An accepted action and what the store must do with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvoiceTransition {
    pub status: InvoiceStatus,
    /// Take the next number of the series (agency, year of issue, nature),
    /// see [`format_number`], and set `issuedOn` to today, in the same
    /// database transaction so that the series has no gap and follows dates.
    pub assigns_number: bool,
    /// A payment: the status given is the one reached when the payment
    /// settles the document ([`settles`]); a partial payment leaves the
    /// status as it is.
    pub records_payment: bool,
}

/// Checks an action on an invoice or a credit note; both follow the same
/// life: `brouillon` → `emise` (issue) → `envoyee` (send, repeatable as a
/// reminder) → `payee` (settlement, also straight from `emise` when paid on
/// the spot). `payee` is final. A mistake on an issued document is corrected
/// by a credit note, never by editing it.
pub fn transition(
    nature: InvoiceNature,
    status: InvoiceStatus,
    action: InvoiceAction,
) -> Result<InvoiceTransition, TransitionError> {
    use InvoiceAction::*;
    use InvoiceStatus::*;

    let accepted = |status: InvoiceStatus| InvoiceTransition {
        status,
        assigns_number: action == Issue,
        records_payment: action == RecordPayment,
    };
    let refused = |reason: &str| {
        Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            format!(
                "Action refusée : impossible {} {} au statut « {} » : {reason}.",
                action.after_impossible(),
                nature.this_document(),
                status.label_for(nature)
            ),
        ))
    };

    match (status, action) {
        (Brouillon, Issue) => Ok(accepted(Emise)),
        (Emise | Envoyee, Send) => Ok(accepted(Envoyee)),
        (Emise | Envoyee, RecordPayment) => Ok(accepted(Payee)),
        (Brouillon, Send) => refused("l'émission, qui attribue le numéro, doit précéder l'envoi"),
        (Brouillon, RecordPayment) => refused("l'émission doit précéder le règlement"),
        (Emise | Envoyee, Issue) => refused("l'émission a déjà eu lieu et le numéro est définitif"),
        (Payee, _) => refused("le règlement est déjà enregistré et la pièce est close"),
    }
}

/// Only a draft may be edited or deleted: once issued, a document is part of
/// the accounts and is corrected by a credit note.
pub fn is_editable(status: InvoiceStatus) -> bool {
    status == InvoiceStatus::Brouillon
}

/// Why a document may not be edited (its buyer or lines changed), or `None`
/// when it may: only an invoice in `brouillon`. An issued document is frozen
/// (its number, lines and amounts are part of the accounts) and is corrected
/// by a credit note; a credit note takes its amounts from the invoice it
/// credits and is issued at once.
pub fn edit_refusal(nature: InvoiceNature, status: InvoiceStatus) -> Option<String> {
    let reason = match (nature, status) {
        (InvoiceNature::Facture, InvoiceStatus::Brouillon) => return None,
        (InvoiceNature::Facture, _) => {
            "une facture émise est figée : son numéro, ses lignes et ses montants ne changent plus ; corrigez-la par un avoir"
        }
        (InvoiceNature::Avoir, _) => {
            "un avoir reprend les montants de la facture qu'il crédite et ne se modifie pas"
        }
    };
    Some(format!(
        "Modification refusée : impossible de modifier {} au statut « {} » : {reason}.",
        nature.this_document(),
        status.label_for(nature)
    ))
}

/// A credit note cancels an issued invoice: a draft is simply edited, and a
/// credit note is not itself credited.
pub fn check_creditable(nature: InvoiceNature, status: InvoiceStatus) -> Result<(), DomainError> {
    match (nature, status) {
        (InvoiceNature::Avoir, _) => Err(DomainError::CreditOfCreditNote),
        (InvoiceNature::Facture, InvoiceStatus::Brouillon) => Err(DomainError::CreditOfDraft),
        (InvoiceNature::Facture, _) => Ok(()),
    }
}

/// What an issued invoice still carries to credit: its total including tax
/// less its issued credit notes' (never below zero).
pub fn remaining_to_credit(invoice_total_incl: Cents, already_credited_incl: Cents) -> Cents {
    invoice_total_incl.remaining_after(already_credited_incl)
}

/// Refuses a credit note that is not positive or that would credit more than
/// what the invoice still carries (all amounts including tax, positive).
pub fn check_credit(
    invoice_total_incl: Cents,
    already_credited_incl: Cents,
    requested_incl: Cents,
) -> Result<(), DomainError> {
    if !requested_incl.is_positive() {
        return Err(DomainError::CreditNotPositive { requested_incl });
    }
    let remaining = remaining_to_credit(invoice_total_incl, already_credited_incl);
    if !remaining.is_positive() {
        return Err(DomainError::InvoiceFullyCredited { invoice_total_incl });
    }
    if requested_incl > remaining {
        return Err(DomainError::CreditExceedsRemaining {
            remaining_incl: remaining,
            requested_incl,
        });
    }
    Ok(())
}

wire_enum! {
    /// How a payment was made.
    pub enum PaymentMethod {
        Virement => "virement", "Virement";
        Cheque => "cheque", "Chèque";
        Prelevement => "prelevement", "Prélèvement";
        Especes => "especes", "Espèces";
        Carte => "carte", "Carte bancaire";
    }
}

/// What is still due on an issued document: for an invoice, its total
/// including tax less its issued credit notes and its payments; for a
/// credit note, its total less its refunds. Negative when more was paid than
/// is now owed (an invoice credited after its payment): that overpayment is
/// returned through the credit note's refund.
pub fn balance(
    nature: InvoiceNature,
    total_incl: Cents,
    credited_incl: Cents,
    paid: Cents,
) -> Cents {
    match nature {
        InvoiceNature::Facture => total_incl - credited_incl - paid,
        InvoiceNature::Avoir => total_incl - paid,
    }
}

/// The amount of a payment on a document whose balance is `balance`: the
/// amount asked for, or the whole balance when none is given. Refused when
/// nothing is due, when not positive, or beyond the balance (the message
/// names the balance).
pub fn payment_amount(
    nature: InvoiceNature,
    balance: Cents,
    requested: Option<Cents>,
) -> Result<Cents, DomainError> {
    if !balance.is_positive() {
        return Err(DomainError::NothingDue { nature });
    }
    let amount = requested.unwrap_or(balance);
    if !amount.is_positive() {
        return Err(DomainError::PaymentNotPositive);
    }
    if amount > balance {
        return Err(DomainError::PaymentExceedsBalance {
            nature,
            balance,
            requested: amount,
        });
    }
    Ok(amount)
}

/// Whether an issued document (`emise` or `envoyee`) is settled, and so
/// moves to `payee`, once its balance is `balance_after`: when nothing is
/// left due, whether by payments or by credit notes.
pub fn settles(status: InvoiceStatus, balance_after: Cents) -> bool {
    matches!(status, InvoiceStatus::Emise | InvoiceStatus::Envoyee) && !balance_after.is_positive()
}

/// Days between the issue and the due date (French default of 30 days
/// after the invoice date; the demo data follow the same rule).
pub const PAYMENT_TERM_DAYS: i64 = 30;

/// Days past due: the first and the last included (no last: no end).
pub type DaysPastDue = (u64, Option<u64>);

/// The age buckets of unpaid invoices, as the dashboard counts them and the
/// invoice list filters them: the code, and the days past due it holds (the
/// first and the last included, no last for the oldest); `None` for an
/// invoice not due yet (or without a due date). Read in this order, the
/// first whose last day is not passed holds the invoice.
pub const UNPAID_BUCKETS: [(&str, Option<DaysPastDue>); 5] = [
    ("a_echoir", None),
    ("0_30", Some((0, Some(30)))),
    ("31_60", Some((31, Some(60)))),
    ("61_90", Some((61, Some(90)))),
    ("plus_90", Some((91, None))),
];

/// The document number: `FA-2026-000042`, `AV-2026-000007`, with the
/// agency's series when it has one (`FA-PO-2026-000042`). Numbers are
/// gapless per agency, year and nature; the sequence is padded to six digits
/// and simply grows longer past 999 999.
pub fn format_number(nature: InvoiceNature, series: Option<&str>, year: i32, seq: u32) -> String {
    match series {
        Some(series) => format!("{}-{series}-{year:04}-{seq:06}", nature.number_prefix()),
        None => format!("{}-{year:04}-{seq:06}", nature.number_prefix()),
    }
}
/// One line of an invoice or a quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineAmounts {
    /// Thousandths of a unit: 1.5 hours = 1500.
    pub quantity_milli: i64,
    /// Unit price excluding tax.
    pub unit_price: Cents,
    /// VAT rate in basis points: 2000 = 20 %, 1000 = 10 %, 550 = 5.5 %.
    pub vat_rate_bp: u32,
}

/// The VAT of one rate, as printed on a French invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VatSubtotal {
    pub rate_bp: u32,
    /// Sum of the lines at this rate, excluding tax.
    pub base: Cents,
    pub vat: Cents,
}

/// Totals of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    pub excl_tax: Cents,
    /// One entry per rate present, by increasing rate.
    pub vat_by_rate: Vec<VatSubtotal>,
    pub incl_tax: Cents,
}

/// Quantity × unit price, rounded to the cent half away from zero.
/// Computed without overflow; saturates at the bounds of `i64`, which no
/// real invoice reaches.
pub fn line_total_excl(quantity_milli: i64, unit_price: Cents) -> Cents {
    let exact_milli_cents = i128::from(quantity_milli) * i128::from(unit_price.get());
    Cents::new(saturate(divide_rounding_half_away(exact_milli_cents, 1000)))
}

/// VAT on a base, rounded to the cent half away from zero.
pub fn vat_on(base: Cents, rate_bp: u32) -> Cents {
    Cents::new(saturate(divide_rounding_half_away(
        i128::from(base.get()) * i128::from(rate_bp),
        10_000,
    )))
}

impl LineAmounts {
    /// Quantity × unit price, rounded to the cent.
    pub fn total_excl(&self) -> Cents {
        line_total_excl(self.quantity_milli, self.unit_price)
    }
}

/// Totals with the VAT computed once per rate on the sum of that rate's
/// lines (not line by line, which would add rounding errors), as French
/// invoices show it.
pub fn totals(lines: &[LineAmounts]) -> Totals {
    let mut bases: Vec<(u32, i128)> = Vec::new();
    for line in lines {
        let line_total = i128::from(line.total_excl().get());
        match bases.iter_mut().find(|(rate, _)| *rate == line.vat_rate_bp) {
            Some((_, base)) => *base += line_total,
            None => bases.push((line.vat_rate_bp, line_total)),
        }
    }
    bases.sort_by_key(|(rate, _)| *rate);

    let vat_by_rate: Vec<VatSubtotal> = bases
        .into_iter()
        .map(|(rate_bp, base)| {
            let base = Cents::new(saturate(base));
            VatSubtotal {
                rate_bp,
                base,
                vat: vat_on(base, rate_bp),
            }
        })
        .collect();
    let excl: i128 = vat_by_rate.iter().map(|v| i128::from(v.base.get())).sum();
    let vat: i128 = vat_by_rate.iter().map(|v| i128::from(v.vat.get())).sum();
    Totals {
        excl_tax: Cents::new(saturate(excl)),
        vat_by_rate,
        incl_tax: Cents::new(saturate(excl + vat)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use InvoiceAction::*;
    use InvoiceStatus::*;

    fn line_total_excl_cents(quantity_milli: i64, unit_price_cents: i64) -> i64 {
        line_total_excl(quantity_milli, Cents::new(unit_price_cents)).get()
    }

    fn vat_cents(base_cents: i64, rate_bp: u32) -> i64 {
        vat_on(Cents::new(base_cents), rate_bp).get()
    }

    fn check_credit(total: i64, credited: i64, requested: i64) -> Result<(), DomainError> {
        super::check_credit(
            Cents::new(total),
            Cents::new(credited),
            Cents::new(requested),
        )
    }

    /// (new status, assigns_number, records_payment), or `None` when refused.
    type Expected = Option<(InvoiceStatus, bool, bool)>;

    /// Every (status, action) pair; the same for invoices and credit notes.
    const TABLE: &[(InvoiceStatus, InvoiceAction, Expected)] = &[
        (Brouillon, Issue, Some((Emise, true, false))),
        (Brouillon, Send, None),
        (Brouillon, RecordPayment, None),
        (Emise, Issue, None),
        (Emise, Send, Some((Envoyee, false, false))),
        (Emise, RecordPayment, Some((Payee, false, true))),
        (Envoyee, Issue, None),
        (Envoyee, Send, Some((Envoyee, false, false))),
        (Envoyee, RecordPayment, Some((Payee, false, true))),
        (Payee, Issue, None),
        (Payee, Send, None),
        (Payee, RecordPayment, None),
    ];

    fn expected(status: InvoiceStatus, action: InvoiceAction) -> Expected {
        let rows: Vec<_> = TABLE
            .iter()
            .filter(|(s, a, _)| *s == status && *a == action)
            .collect();
        assert_eq!(
            rows.len(),
            1,
            "exactly one row expected for {status:?} + {action:?}"
        );
        rows[0].2
    }

    #[test]
    fn every_status_and_action_follows_the_table() {
        assert_eq!(
            TABLE.len(),
            InvoiceStatus::ALL.len() * InvoiceAction::ALL.len()
        );
        for &nature in InvoiceNature::ALL {
            for &status in InvoiceStatus::ALL {
                for &action in InvoiceAction::ALL {
                    match (expected(status, action), transition(nature, status, action)) {
                        (Some((next, numbers, paid)), Ok(effects)) => assert_eq!(
                            effects,
                            InvoiceTransition {
                                status: next,
                                assigns_number: numbers,
                                records_payment: paid
                            },
                            "{nature:?} {status:?} + {action:?}"
                        ),
                        (None, Err(error)) => {
                            assert_eq!(error.current(), status.as_str());
                            assert_eq!(error.attempted(), action.as_str());
                        }
                        (expected, outcome) => panic!(
                            "{nature:?} {status:?} + {action:?}: expected {expected:?}, got {outcome:?}"
                        ),
                    }
                }
            }
        }
    }

    #[test]
    fn refusals_name_the_status_and_the_action_in_french() {
        for &nature in InvoiceNature::ALL {
            for &status in InvoiceStatus::ALL {
                for &action in InvoiceAction::ALL {
                    let Err(error) = transition(nature, status, action) else {
                        continue;
                    };
                    let message = error.to_string();
                    assert!(
                        message.starts_with("Action refusée : impossible "),
                        "{message}"
                    );
                    assert!(message.contains(action.after_impossible()), "{message}");
                    assert!(message.contains(nature.this_document()), "{message}");
                    assert!(
                        message.contains(&format!("« {} »", status.label_for(nature))),
                        "{message}"
                    );
                }
            }
        }
        assert_eq!(
            transition(InvoiceNature::Facture, Brouillon, Send)
                .unwrap_err()
                .to_string(),
            "Action refusée : impossible d'envoyer cette facture au statut « Brouillon » : \
             l'émission, qui attribue le numéro, doit précéder l'envoi."
        );
        assert_eq!(
            transition(InvoiceNature::Avoir, Payee, RecordPayment)
                .unwrap_err()
                .to_string(),
            "Action refusée : impossible d'enregistrer le règlement de cet avoir au statut « Soldé » : \
             le règlement est déjà enregistré et la pièce est close."
        );
    }

    #[test]
    fn only_drafts_are_editable() {
        for &status in InvoiceStatus::ALL {
            assert_eq!(is_editable(status), status == Brouillon, "{status:?}");
            assert_eq!(
                edit_refusal(InvoiceNature::Facture, status).is_none(),
                status == Brouillon
            );
            assert!(edit_refusal(InvoiceNature::Avoir, status).is_some());
        }
        assert_eq!(
            edit_refusal(InvoiceNature::Facture, Emise).as_deref(),
            Some(
                "Modification refusée : impossible de modifier cette facture au statut « Émise » : \
                 une facture émise est figée : son numéro, ses lignes et ses montants ne changent plus ; \
                 corrigez-la par un avoir."
            )
        );
    }

    #[test]
    fn wire_codes_and_labels() {
        let codes: Vec<_> = InvoiceStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(codes, ["brouillon", "emise", "envoyee", "payee"]);
        let natures: Vec<_> = InvoiceNature::ALL.iter().map(|n| n.as_str()).collect();
        assert_eq!(natures, ["facture", "avoir"]);
        for &status in InvoiceStatus::ALL {
            assert_eq!(InvoiceStatus::parse(status.as_str()), Some(status));
            assert_eq!(status.label_for(InvoiceNature::Facture), status.label());
        }
        assert_eq!(InvoiceStatus::parse("émise"), None);
        assert_eq!(Emise.label(), "Émise");
        let credit_note_labels: Vec<_> = InvoiceStatus::ALL
            .iter()
            .map(|s| s.label_for(InvoiceNature::Avoir))
            .collect();
        assert_eq!(credit_note_labels, ["Brouillon", "Émis", "Envoyé", "Soldé"]);
        for &action in InvoiceAction::ALL {
            assert_eq!(InvoiceAction::parse(action.as_str()), Some(action));
        }
    }

    #[test]
    fn numbers_have_one_series_per_nature() {
        assert_eq!(
            format_number(InvoiceNature::Facture, None, 2026, 42),
            "FA-2026-000042"
        );
        assert_eq!(
            format_number(InvoiceNature::Avoir, None, 2026, 7),
            "AV-2026-000007"
        );
        assert_eq!(
            format_number(InvoiceNature::Facture, None, 2027, 1),
            "FA-2027-000001"
        );
        assert_eq!(
            format_number(InvoiceNature::Facture, None, 2026, 999_999),
            "FA-2026-999999"
        );
        assert_eq!(
            format_number(InvoiceNature::Facture, None, 2026, 1_000_000),
            "FA-2026-1000000"
        );
        // An agency's series: unique for the seller, and within the French
        // rules of the reform (BR-FR-01/02: 35 characters at most, of
        // `A-Z a-z 0-9 + - _ /`), even at its longest.
        assert_eq!(
            format_number(InvoiceNature::Facture, Some("PO"), 2026, 1),
            "FA-PO-2026-000001"
        );
        let longest = format_number(InvoiceNature::Avoir, Some("ABCDEF"), 2026, 99_999_999);
        assert_eq!(longest, "AV-ABCDEF-2026-99999999");
        assert!(longest.len() <= 35);
        assert!(
            longest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-_/".contains(c))
        );
    }

    #[test]
    fn line_totals_round_half_away_from_zero() {
        // 1.5 h at 33.33 € = 49.995 €
        assert_eq!(line_total_excl_cents(1500, 3333), 5000);
        assert_eq!(line_total_excl_cents(-1500, 3333), -5000);
        assert_eq!(line_total_excl_cents(1500, -3333), -5000);
        assert_eq!(line_total_excl_cents(500, 1), 1);
        assert_eq!(line_total_excl_cents(499, 1), 0);
        assert_eq!(line_total_excl_cents(-500, 1), -1);
        assert_eq!(line_total_excl_cents(-499, 1), 0);
        assert_eq!(line_total_excl_cents(1000, 12_345), 12_345);
        assert_eq!(line_total_excl_cents(2000, 6500), 13_000);
        assert_eq!(line_total_excl_cents(333, 100), 33);
        assert_eq!(line_total_excl_cents(0, 99_999), 0);
        // No overflow on absurd inputs: the product is taken in i128.
        assert_eq!(line_total_excl_cents(i64::MAX, i64::MAX), i64::MAX);
        assert_eq!(line_total_excl_cents(i64::MAX, 1000), i64::MAX);
        assert_eq!(line_total_excl_cents(i64::MIN, 1000), i64::MIN);
    }

    #[test]
    fn vat_rounds_half_away_from_zero() {
        assert_eq!(vat_cents(10_000, 2000), 2000);
        assert_eq!(vat_cents(5, 1000), 1); // 0.5 cent
        assert_eq!(vat_cents(4, 1000), 0); // 0.4 cent
        assert_eq!(vat_cents(-5, 1000), -1);
        assert_eq!(vat_cents(9999, 550), 550); // 549.945
        assert_eq!(vat_cents(100_005, 1000), 10_001); // 10 000.5
        assert_eq!(vat_cents(12_345, 0), 0);
    }

    #[test]
    fn totals_give_vat_per_rate_by_increasing_rate() {
        let lines = [
            // Labour, 2 h at 65.00 €, 20 %
            LineAmounts {
                quantity_milli: 2000,
                unit_price: Cents::new(6500),
                vat_rate_bp: 2000,
            },
            // Works in a dwelling, 10 %
            LineAmounts {
                quantity_milli: 1000,
                unit_price: Cents::new(100_005),
                vat_rate_bp: 1000,
            },
            // Door operator part, 20 %
            LineAmounts {
                quantity_milli: 1000,
                unit_price: Cents::new(123_456),
                vat_rate_bp: 2000,
            },
            // Accessibility works, 5.5 %
            LineAmounts {
                quantity_milli: 3000,
                unit_price: Cents::new(3333),
                vat_rate_bp: 550,
            },
        ];
        let totals = totals(&lines);
        assert_eq!(
            totals.vat_by_rate,
            vec![
                VatSubtotal {
                    rate_bp: 550,
                    base: Cents::new(9999),
                    vat: Cents::new(550)
                },
                VatSubtotal {
                    rate_bp: 1000,
                    base: Cents::new(100_005),
                    vat: Cents::new(10_001)
                },
                VatSubtotal {
                    rate_bp: 2000,
                    base: Cents::new(136_456),
                    vat: Cents::new(27_291)
                },
            ]
        );
        assert_eq!(totals.excl_tax.get(), 246_460);
        assert_eq!(totals.incl_tax.get(), 246_460 + 550 + 10_001 + 27_291);
    }

    #[test]
    fn vat_is_computed_on_the_rate_base_not_line_by_line() {
        // Three lines of 0.05 € at 10 %: 0.5 cent each would round to 3
        // cents line by line; on the 0.15 € base it is 1.5 → 2 cents.
        let line = LineAmounts {
            quantity_milli: 1000,
            unit_price: Cents::new(5),
            vat_rate_bp: 1000,
        };
        let totals = totals(&[line, line, line]);
        assert_eq!(
            totals.vat_by_rate,
            vec![VatSubtotal {
                rate_bp: 1000,
                base: Cents::new(15),
                vat: Cents::new(2)
            }]
        );
        assert_eq!(totals.incl_tax.get(), 17);
    }

    #[test]
    fn totals_accept_discount_lines_zero_rates_and_no_line() {
        let totals_with_discount = totals(&[
            LineAmounts {
                quantity_milli: 1000,
                unit_price: Cents::new(10_000),
                vat_rate_bp: 2000,
            },
            LineAmounts {
                quantity_milli: -1000,
                unit_price: Cents::new(2000),
                vat_rate_bp: 2000,
            },
            LineAmounts {
                quantity_milli: 1000,
                unit_price: Cents::new(700),
                vat_rate_bp: 0,
            },
        ]);
        assert_eq!(
            totals_with_discount,
            Totals {
                excl_tax: Cents::new(8700),
                vat_by_rate: vec![
                    VatSubtotal {
                        rate_bp: 0,
                        base: Cents::new(700),
                        vat: Cents::new(0)
                    },
                    VatSubtotal {
                        rate_bp: 2000,
                        base: Cents::new(8000),
                        vat: Cents::new(1600)
                    },
                ],
                incl_tax: Cents::new(10_300),
            }
        );
        assert_eq!(
            totals(&[]),
            Totals {
                excl_tax: Cents::new(0),
                vat_by_rate: vec![],
                incl_tax: Cents::new(0)
            }
        );
    }

    #[test]
    fn credit_notes_cannot_exceed_what_remains() {
        assert_eq!(check_credit(12_000, 0, 12_000), Ok(()));
        assert_eq!(check_credit(12_000, 2000, 10_000), Ok(()));
        assert_eq!(check_credit(12_000, 2000, 1), Ok(()));
        assert_eq!(
            check_credit(12_000, 2000, 10_001),
            Err(DomainError::CreditExceedsRemaining {
                remaining_incl: Cents::new(10_000),
                requested_incl: Cents::new(10_001)
            })
        );
        assert_eq!(
            check_credit(12_000, 12_000, 1),
            Err(DomainError::InvoiceFullyCredited {
                invoice_total_incl: Cents::new(12_000)
            })
        );
        assert_eq!(
            check_credit(12_000, 0, 0),
            Err(DomainError::CreditNotPositive {
                requested_incl: Cents::new(0)
            })
        );
        assert!(check_credit(12_000, 0, -500).is_err());
        assert_eq!(
            check_credit(123_456, 23_456, 150_000)
                .unwrap_err()
                .to_string(),
            "Impossible d'établir un avoir de 1\u{202f}500,00\u{a0}€ TTC : \
             il ne reste que 1\u{202f}000,00\u{a0}€ TTC à créditer sur cette facture."
        );
        assert_eq!(
            check_credit(12_000, 12_000, 1).unwrap_err().to_string(),
            "Cette facture de 120,00\u{a0}€ TTC est déjà entièrement créditée : \
             aucun nouvel avoir n'est possible."
        );
    }

    #[test]
    fn only_issued_invoices_can_be_credited() {
        for &status in InvoiceStatus::ALL {
            assert_eq!(
                check_creditable(InvoiceNature::Facture, status).is_ok(),
                status != Brouillon
            );
            assert_eq!(
                check_creditable(InvoiceNature::Avoir, status),
                Err(DomainError::CreditOfCreditNote)
            );
        }
        assert_eq!(
            DomainError::CreditOfDraft.to_string(),
            "Une facture au statut « Brouillon » ne se corrige pas par un avoir : modifiez-la directement."
        );
    }

    #[test]
    fn the_balance_is_the_total_less_credit_notes_and_payments() {
        let c = Cents::new;
        // The agency's case: 539,55 € less a 37,40 € credit note.
        assert_eq!(
            balance(InvoiceNature::Facture, c(53955), c(3740), c(0)),
            c(50215)
        );
        assert_eq!(
            balance(InvoiceNature::Facture, c(53955), c(3740), c(20000)),
            c(30215)
        );
        // Credited after payment: overpaid.
        assert_eq!(
            balance(InvoiceNature::Facture, c(10000), c(3000), c(10000)),
            c(-3000)
        );
        // A credit note's own credit notes do not exist: only its refunds count.
        assert_eq!(
            balance(InvoiceNature::Avoir, c(3740), c(999), c(1000)),
            c(2740)
        );
    }

    #[test]
    fn a_payment_is_the_balance_or_less() {
        let c = Cents::new;
        let facture = InvoiceNature::Facture;
        assert_eq!(payment_amount(facture, c(50215), None), Ok(c(50215)));
        assert_eq!(
            payment_amount(facture, c(50215), Some(c(20000))),
            Ok(c(20000))
        );
        assert_eq!(
            payment_amount(facture, c(50215), Some(c(50215))),
            Ok(c(50215))
        );
        let over = payment_amount(facture, c(50215), Some(c(53955))).unwrap_err();
        assert_eq!(
            over.to_string(),
            "Le règlement de 539,55\u{a0}€ dépasse le reste à payer de la facture : 502,15\u{a0}€."
        );
        assert_eq!(
            payment_amount(facture, c(50215), Some(c(0))),
            Err(DomainError::PaymentNotPositive)
        );
        for settled in [c(0), c(-100)] {
            assert_eq!(
                payment_amount(facture, settled, None),
                Err(DomainError::NothingDue { nature: facture })
            );
        }
        let refund = payment_amount(InvoiceNature::Avoir, c(3740), Some(c(4000))).unwrap_err();
        assert!(
            refund
                .to_string()
                .contains("reste à rembourser de l'avoir : 37,40"),
            "{refund}"
        );
    }

    #[test]
    fn a_document_is_settled_when_nothing_is_due() {
        let c = Cents::new;
        assert!(settles(Emise, c(0)));
        assert!(settles(Envoyee, c(-1)));
        assert!(!settles(Envoyee, c(1)));
        assert!(!settles(Brouillon, c(0)));
        assert!(!settles(Payee, c(0)));
        assert_eq!(
            PaymentMethod::CODES,
            ["virement", "cheque", "prelevement", "especes", "carte"]
        );
    }
}
