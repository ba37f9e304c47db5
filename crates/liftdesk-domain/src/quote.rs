//! Quotes ("devis") for repairs and works on an equipment. A quote is
//! created as a draft; its amounts use the invoice arithmetic
//! ([`super::invoice::totals`]).

use chrono::{Days, NaiveDate};

use super::day::Day;
use super::error::TransitionError;

/// Days a quote stays valid after its creation or its last renewal: past
/// them, the client's agreement is refused until the quote is renewed (the
/// prices and the works quoted may no longer hold).
pub const VALIDITY_DAYS: u64 = 30;

/// The last day a quote written or renewed on `day` may be accepted.
pub fn valid_until(day: NaiveDate) -> NaiveDate {
    day.checked_add_days(Days::new(VALIDITY_DAYS))
        .unwrap_or(NaiveDate::MAX)
}

/// A quote still waiting for its answer whose last valid day is before
/// `today`. A quote answered (accepted, refused) never expires: its
/// validity mattered only until the answer.
pub fn is_expired(status: QuoteStatus, valid_until: Option<NaiveDate>, today: NaiveDate) -> bool {
    matches!(status, QuoteStatus::Brouillon | QuoteStatus::Envoye)
        && valid_until.is_some_and(|last| last < today)
}

/// Event sent to webhook subscribers when a quote is accepted.
pub const ACCEPTED_EVENT: &str = crate::event::WebhookEvent::QuoteAccepted.code();

wire_enum! {
    /// Where a quote stands.
    pub enum QuoteStatus {
        /// Being prepared, freely edited.
        Brouillon => "brouillon", "Brouillon";
        /// Sent to the client, awaiting the answer.
        Envoye => "envoye", "Envoyé";
        /// The client agreed. Final: the works can be ordered.
        Accepte => "accepte", "Accepté";
        /// The client declined. Final.
        Refuse => "refuse", "Refusé";
    }
}

wire_enum! {
    /// Why the quote was made (`origin` of POST /quotes).
    pub enum QuoteOrigin {
        /// A reservation raised by the technical inspection.
        Reserve => "reserve", "Réserve de contrôle technique";
        /// A breakdown needing a repair outside the contract.
        Panne => "panne", "Panne";
        /// The technician's request.
        Technicien => "technicien", "Demande du technicien";
        /// The client's request.
        Client => "client", "Demande du client";
    }
}

wire_enum! {
    /// What can be done to a quote.
    pub enum QuoteAction {
        /// Sends to the client (again, as a reminder, once sent).
        Send => "send", "Envoyer";
        /// Records the client's agreement.
        Accept => "accept", "Accepter";
        /// Records the client's refusal.
        Refuse => "refuse", "Refuser";
        /// Gives the quote a new validity period, from today.
        Renew => "renew", "Renouveler";
    }
}

impl QuoteAction {
    /// "d'envoyer", "d'accepter"… to follow "impossible" in messages.
    fn after_impossible(self) -> &'static str {
        match self {
            QuoteAction::Send => "d'envoyer",
            QuoteAction::Accept => "d'accepter",
            QuoteAction::Refuse => "de refuser",
            QuoteAction::Renew => "de renouveler",
        }
    }
}

/// An accepted action and what the store must do with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuoteTransition {
    pub status: QuoteStatus,
    /// Send the event [`ACCEPTED_EVENT`] (`devis.accepte`).
    pub emits_accepted_event: bool,
}

/// Checks an action on a quote.
///
/// A draft may be accepted or refused directly: a quote is often shown on a
/// tablet and signed (or declined) on site by the building manager, without
/// being sent first. A sent quote may be sent again (reminder). Accepted and
/// refused are final: a change of mind is a new quote, so that the signed
/// version stays as it was.
pub fn transition(
    status: QuoteStatus,
    action: QuoteAction,
) -> Result<QuoteTransition, TransitionError> {
    use QuoteAction::*;
    use QuoteStatus::*;

    let accepted = |status: QuoteStatus| QuoteTransition {
        status,
        emits_accepted_event: status == Accepte,
    };
    let refused = |reason: &str| {
        Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            format!(
                "Action refusée : impossible {} ce devis au statut « {} » : {reason}.",
                action.after_impossible(),
                status.label()
            ),
        ))
    };

    match (status, action) {
        (Brouillon | Envoye, Send) => Ok(accepted(Envoye)),
        (Brouillon | Envoye, Accept) => Ok(accepted(Accepte)),
        (Brouillon | Envoye, QuoteAction::Refuse) => Ok(accepted(QuoteStatus::Refuse)),
        // A renewal changes the validity, not the status.
        (Brouillon | Envoye, Renew) => Ok(accepted(status)),
        (Accepte, _) => refused(
            "un devis accepté est définitif ; pour changer les travaux, établissez un nouveau devis",
        ),
        (QuoteStatus::Refuse, _) => refused(
            "un devis refusé est définitif ; si le client revient sur sa décision, établissez un nouveau devis",
        ),
    }
}

/// The validity's part of an action: an expired quote cannot be accepted
/// before it is renewed (the client would agree to prices no longer held);
/// every other action is left to [`transition`].
pub fn check_validity(
    status: QuoteStatus,
    action: QuoteAction,
    valid_until: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<(), TransitionError> {
    match valid_until {
        Some(last) if action == QuoteAction::Accept && is_expired(status, Some(last), today) => {
            Err(TransitionError::new(
                status.as_str(),
                action.as_str(),
                format!(
                    "Ce devis n'est plus valable depuis le {} : renouvelez-le avant de l'accepter.",
                    Day::new(last).french()
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// Only a draft may be edited: the client must find in an accepted quote
/// exactly what he was sent.
pub fn is_editable(status: QuoteStatus) -> bool {
    status == QuoteStatus::Brouillon
}

#[cfg(test)]
mod tests {
    use super::*;

    type Expected = Option<(QuoteStatus, bool)>;

    /// Every (status, action) pair: (new status, emits `devis.accepte`), or
    /// `None` when refused.
    const TABLE: &[(QuoteStatus, QuoteAction, Expected)] = &[
        (
            QuoteStatus::Brouillon,
            QuoteAction::Send,
            Some((QuoteStatus::Envoye, false)),
        ),
        (
            QuoteStatus::Brouillon,
            QuoteAction::Accept,
            Some((QuoteStatus::Accepte, true)),
        ),
        (
            QuoteStatus::Brouillon,
            QuoteAction::Refuse,
            Some((QuoteStatus::Refuse, false)),
        ),
        (
            QuoteStatus::Envoye,
            QuoteAction::Send,
            Some((QuoteStatus::Envoye, false)),
        ),
        (
            QuoteStatus::Envoye,
            QuoteAction::Accept,
            Some((QuoteStatus::Accepte, true)),
        ),
        (
            QuoteStatus::Envoye,
            QuoteAction::Refuse,
            Some((QuoteStatus::Refuse, false)),
        ),
        (
            QuoteStatus::Brouillon,
            QuoteAction::Renew,
            Some((QuoteStatus::Brouillon, false)),
        ),
        (
            QuoteStatus::Envoye,
            QuoteAction::Renew,
            Some((QuoteStatus::Envoye, false)),
        ),
        (QuoteStatus::Accepte, QuoteAction::Renew, None),
        (QuoteStatus::Refuse, QuoteAction::Renew, None),
        (QuoteStatus::Accepte, QuoteAction::Send, None),
        (QuoteStatus::Accepte, QuoteAction::Accept, None),
        (QuoteStatus::Accepte, QuoteAction::Refuse, None),
        (QuoteStatus::Refuse, QuoteAction::Send, None),
        (QuoteStatus::Refuse, QuoteAction::Accept, None),
        (QuoteStatus::Refuse, QuoteAction::Refuse, None),
    ];

    fn expected(status: QuoteStatus, action: QuoteAction) -> Expected {
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
        assert_eq!(TABLE.len(), QuoteStatus::ALL.len() * QuoteAction::ALL.len());
        for &status in QuoteStatus::ALL {
            for &action in QuoteAction::ALL {
                match (expected(status, action), transition(status, action)) {
                    (Some((next, event)), Ok(effects)) => assert_eq!(
                        effects,
                        QuoteTransition {
                            status: next,
                            emits_accepted_event: event
                        },
                        "{status:?} + {action:?}"
                    ),
                    (None, Err(error)) => {
                        assert_eq!(error.current(), status.as_str());
                        assert_eq!(error.attempted(), action.as_str());
                        let message = error.to_string();
                        assert!(
                            message.starts_with("Action refusée : impossible "),
                            "{message}"
                        );
                        assert!(message.contains(action.after_impossible()), "{message}");
                        assert!(
                            message.contains(&format!("« {} »", status.label())),
                            "{message}"
                        );
                    }
                    (expected, outcome) => {
                        panic!("{status:?} + {action:?}: expected {expected:?}, got {outcome:?}")
                    }
                }
            }
        }
    }

    #[test]
    fn the_acceptance_event_is_emitted_only_on_acceptance() {
        for &status in QuoteStatus::ALL {
            for &action in QuoteAction::ALL {
                if let Ok(effects) = transition(status, action) {
                    assert_eq!(effects.emits_accepted_event, action == QuoteAction::Accept);
                }
            }
        }
        assert_eq!(ACCEPTED_EVENT, "devis.accepte");
    }

    #[test]
    fn refusal_message() {
        assert_eq!(
            transition(QuoteStatus::Refuse, QuoteAction::Accept)
                .unwrap_err()
                .to_string(),
            "Action refusée : impossible d'accepter ce devis au statut « Refusé » : un devis refusé \
             est définitif ; si le client revient sur sa décision, établissez un nouveau devis."
        );
    }

    fn day(text: &str) -> NaiveDate {
        Day::parse(text).unwrap().date()
    }

    #[test]
    fn a_quote_is_valid_thirty_days_and_expires_only_while_waiting() {
        assert_eq!(valid_until(day("2026-11-29")), day("2026-12-29"));
        assert_eq!(valid_until(day("2026-02-10")), day("2026-03-12"));
        let last = Some(day("2026-11-29"));
        for &status in QuoteStatus::ALL {
            let waiting = matches!(status, QuoteStatus::Brouillon | QuoteStatus::Envoye);
            assert!(
                !is_expired(status, last, day("2026-11-29")),
                "{status:?}: last day"
            );
            assert_eq!(
                is_expired(status, last, day("2026-11-30")),
                waiting,
                "{status:?}"
            );
            assert!(!is_expired(status, None, day("2099-01-01")));
        }
    }

    #[test]
    fn an_expired_quote_is_renewed_before_it_is_accepted() {
        let last = Some(day("2026-10-12"));
        let today = day("2026-11-29");
        let refused =
            check_validity(QuoteStatus::Envoye, QuoteAction::Accept, last, today).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Ce devis n'est plus valable depuis le 12/10/2026 : renouvelez-le avant de l'accepter."
        );
        assert_eq!(refused.attempted(), "accept");
        for action in [QuoteAction::Send, QuoteAction::Refuse, QuoteAction::Renew] {
            assert!(check_validity(QuoteStatus::Envoye, action, last, today).is_ok());
        }
        assert!(
            check_validity(
                QuoteStatus::Envoye,
                QuoteAction::Accept,
                last,
                day("2026-10-12")
            )
            .is_ok()
        );
        assert!(check_validity(QuoteStatus::Brouillon, QuoteAction::Accept, None, today).is_ok());
    }

    #[test]
    fn only_drafts_are_editable() {
        for &status in QuoteStatus::ALL {
            assert_eq!(is_editable(status), status == QuoteStatus::Brouillon);
        }
    }

    #[test]
    fn wire_codes_and_labels() {
        let codes: Vec<_> = QuoteStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(codes, ["brouillon", "envoye", "accepte", "refuse"]);
        let labels: Vec<_> = QuoteStatus::ALL.iter().map(|s| s.label()).collect();
        assert_eq!(labels, ["Brouillon", "Envoyé", "Accepté", "Refusé"]);
        let origins: Vec<_> = QuoteOrigin::ALL.iter().map(|o| o.as_str()).collect();
        assert_eq!(origins, ["reserve", "panne", "technicien", "client"]);
        let origin_labels: Vec<_> = QuoteOrigin::ALL.iter().map(|o| o.label()).collect();
        assert_eq!(
            origin_labels,
            [
                "Réserve de contrôle technique",
                "Panne",
                "Demande du technicien",
                "Demande du client"
            ]
        );
        for &origin in QuoteOrigin::ALL {
            assert_eq!(QuoteOrigin::parse(origin.as_str()), Some(origin));
        }
        for &status in QuoteStatus::ALL {
            assert_eq!(QuoteStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(QuoteOrigin::parse("réserve"), None);
    }
}
