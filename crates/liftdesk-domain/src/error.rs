//! Refusals of the domain rules, each with the French sentence shown to the
//! user (the REST API returns it as `error`).

use std::fmt;

use crate::invoice::InvoiceNature;
use crate::money::Cents;

/// A status change or an action refused by a state machine.
///
/// Carries the wire codes of the current state and of what was attempted (a
/// target status or an action code) so that callers can log or map it, and a
/// French message naming both in plain words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransitionError {
    current: &'static str,
    attempted: &'static str,
    message: String,
}

impl TransitionError {
    pub(crate) fn new(current: &'static str, attempted: &'static str, message: String) -> Self {
        Self {
            current,
            attempted,
            message,
        }
    }

    /// Wire code of the state the object is in.
    pub fn current(&self) -> &'static str {
        self.current
    }

    /// Wire code of the refused target status, or code of the refused action.
    pub fn attempted(&self) -> &'static str {
        self.attempted
    }

    /// The French explanation, for the user.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TransitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TransitionError {}

/// A business rule refused outside of a state machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DomainError {
    /// A credit note must credit a positive amount.
    CreditNotPositive { requested_incl: Cents },
    /// Nothing is left to credit on the invoice.
    InvoiceFullyCredited { invoice_total_incl: Cents },
    /// The credit note would credit more than what the invoice still owes.
    CreditExceedsRemaining {
        remaining_incl: Cents,
        requested_incl: Cents,
    },
    /// A draft is edited, not credited.
    CreditOfDraft,
    /// Only an invoice can be credited, not a credit note.
    CreditOfCreditNote,
    /// A visit cannot end before it began.
    DepartureBeforeArrival,
    /// A payment must be of a positive amount.
    PaymentNotPositive,
    /// Nothing is left to pay (or, for a credit note, to refund).
    NothingDue { nature: InvoiceNature },
    /// The payment is more than what is still due.
    PaymentExceedsBalance {
        nature: InvoiceNature,
        balance: Cents,
        requested: Cents,
    },
}

impl fmt::Display for DomainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DomainError::CreditNotPositive { requested_incl } => write!(
                f,
                "Le montant d'un avoir doit être supérieur à zéro (montant demandé : {}).",
                requested_incl
            ),
            DomainError::InvoiceFullyCredited { invoice_total_incl } => write!(
                f,
                "Cette facture de {} TTC est déjà entièrement créditée : aucun nouvel avoir n'est possible.",
                invoice_total_incl
            ),
            DomainError::CreditExceedsRemaining {
                remaining_incl,
                requested_incl,
            } => write!(
                f,
                "Impossible d'établir un avoir de {} TTC : il ne reste que {} TTC à créditer sur cette facture.",
                requested_incl,
                remaining_incl
            ),
            DomainError::CreditOfDraft => f.write_str(
                "Une facture au statut « Brouillon » ne se corrige pas par un avoir : modifiez-la directement.",
            ),
            DomainError::CreditOfCreditNote => {
                f.write_str("Un avoir ne peut pas être crédité par un autre avoir.")
            }
            DomainError::DepartureBeforeArrival => {
                f.write_str("L'heure de départ ne peut pas précéder l'heure d'arrivée.")
            }
            DomainError::PaymentNotPositive => {
                f.write_str("Le montant d'un règlement doit être supérieur à zéro.")
            }
            DomainError::NothingDue { nature } => match nature {
                InvoiceNature::Facture => f.write_str(
                    "Rien à régler : le reste à payer de cette facture est nul (ses avoirs et ses règlements la soldent).",
                ),
                InvoiceNature::Avoir => {
                    f.write_str("Rien à rembourser : cet avoir est déjà entièrement soldé.")
                }
            },
            DomainError::PaymentExceedsBalance {
                nature,
                balance,
                requested,
            } => match nature {
                InvoiceNature::Facture => write!(
                    f,
                    "Le règlement de {requested} dépasse le reste à payer de la facture : {balance}."
                ),
                InvoiceNature::Avoir => write!(
                    f,
                    "Le remboursement de {requested} dépasse le reste à rembourser de l'avoir : {balance}."
                ),
            },
        }
    }
}

impl std::error::Error for DomainError {}
