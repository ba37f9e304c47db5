//! Preventive maintenance visits and the maintenance plan.
//!
//! In France a lift must be serviced at least every six weeks (Code de la
//! construction et de l'habitation), hence [`DEFAULT_INTERVAL_DAYS`].

use chrono::{DateTime, Days, NaiveDate, Utc};

use super::error::{DomainError, TransitionError};

/// Default interval between two visits of the maintenance plan: six weeks.
pub const DEFAULT_INTERVAL_DAYS: u32 = 42;

wire_enum! {
    /// Where a visit stands.
    pub enum VisitStatus {
        /// On the planning, not begun.
        Planifiee => "planifiee", "Planifiée";
        /// The technician arrived (`arrivedAt` is set).
        EnCours => "en_cours", "En cours";
        /// Done and signed. Final: it is the equipment's maintenance record.
        Faite => "faite", "Faite";
    }
}

wire_enum! {
    /// What can be done to a visit. The data each action records (times,
    /// signature, observations) are written by the store once the action is
    /// accepted.
    pub enum VisitAction {
        /// The technician arrives: records `arrivedAt`.
        Start => "start", "Commencer";
        /// The technician leaves: records `leftAt`, `signedBy` and
        /// `observations` (and `arrivedAt` too when the visit is entered
        /// after the fact, straight from `planifiee`).
        Complete => "complete", "Terminer";
        /// Moves a visit that has not begun to another day (`plannedFor`).
        Reschedule => "reschedule", "Replanifier";
        /// Undoes a start (wrong visit tapped, no access to the machine
        /// room): clears `arrivedAt`, the visit is planned again.
        CancelStart => "cancel_start", "Annuler le début";
    }
}

impl VisitAction {
    /// "de commencer", "de terminer"… to follow "impossible" in messages.
    fn after_impossible(self) -> &'static str {
        match self {
            VisitAction::Start => "de commencer",
            VisitAction::Complete => "de terminer",
            VisitAction::Reschedule => "de replanifier",
            VisitAction::CancelStart => "d'annuler le début de",
        }
    }
}

/// Checks an action on a visit and gives the new status.
///
/// `planifiee` → `en_cours` (start) → `faite` (complete); a planned visit may
/// also be completed directly (paper report entered afterwards, or the start
/// forgotten in the app). Rescheduling is only for a visit not begun; a
/// begun visit that cannot be done is first put back with `CancelStart`.
/// `faite` is final: a done visit is a legal record, never reopened; a
/// mistake is corrected by a new visit.
pub fn transition(
    status: VisitStatus,
    action: VisitAction,
) -> Result<VisitStatus, TransitionError> {
    use VisitAction::*;
    use VisitStatus::*;

    let refused = |reason: &str| {
        Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            format!(
                "Action refusée : impossible {} cette visite au statut « {} » : {reason}.",
                action.after_impossible(),
                status.label()
            ),
        ))
    };

    match (status, action) {
        (Planifiee, Start) => Ok(EnCours),
        (Planifiee | EnCours, Complete) => Ok(Faite),
        (Planifiee, Reschedule) => Ok(Planifiee),
        (EnCours, CancelStart) => Ok(Planifiee),
        (Planifiee, CancelStart) => refused("elle n'a pas commencé"),
        (EnCours, Start) => refused("elle a déjà commencé"),
        (EnCours, Reschedule) => refused(
            "elle a commencé ; si elle ne peut pas se faire, annulez d'abord son début, puis replanifiez-la",
        ),
        (Faite, _) => {
            refused("une visite faite est inscrite au carnet d'entretien et ne change plus")
        }
    }
}

/// Refuses a departure before the arrival (same minute is fine).
pub fn check_departure(
    arrived_at: DateTime<Utc>,
    left_at: DateTime<Utc>,
) -> Result<(), DomainError> {
    if left_at < arrived_at {
        return Err(DomainError::DepartureBeforeArrival);
    }
    Ok(())
}

/// Limit date of the next visit in the maintenance plan: `interval_days`
/// after the last completed visit or, when the equipment was never visited,
/// after the start of the plan. Saturates at the last representable date.
pub fn deadline(
    last_done_on: Option<NaiveDate>,
    plan_start: NaiveDate,
    interval_days: u32,
) -> NaiveDate {
    last_done_on
        .unwrap_or(plan_start)
        .checked_add_days(Days::new(interval_days.into()))
        .unwrap_or(NaiveDate::MAX)
}

/// A visit planned after its deadline is overdue (the planning flags it);
/// on the deadline itself is still in time.
pub fn is_overdue(planned_for: NaiveDate, deadline: NaiveDate) -> bool {
    planned_for > deadline
}

#[cfg(test)]
mod tests {
    use super::*;
    use VisitAction::*;
    use VisitStatus::*;
    use chrono::TimeZone;

    /// Every (status, action) pair: the new status, or `None` when refused.
    const TABLE: &[(VisitStatus, VisitAction, Option<VisitStatus>)] = &[
        (Planifiee, Start, Some(EnCours)),
        (Planifiee, Complete, Some(Faite)),
        (Planifiee, Reschedule, Some(Planifiee)),
        (Planifiee, CancelStart, None),
        (EnCours, Start, None),
        (EnCours, Complete, Some(Faite)),
        (EnCours, Reschedule, None),
        (EnCours, CancelStart, Some(Planifiee)),
        (Faite, Start, None),
        (Faite, Complete, None),
        (Faite, Reschedule, None),
        (Faite, CancelStart, None),
    ];

    fn expected(status: VisitStatus, action: VisitAction) -> Option<VisitStatus> {
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
        assert_eq!(TABLE.len(), VisitStatus::ALL.len() * VisitAction::ALL.len());
        for &status in VisitStatus::ALL {
            for &action in VisitAction::ALL {
                match (expected(status, action), transition(status, action)) {
                    (Some(next), Ok(actual)) => assert_eq!(actual, next, "{status:?} + {action:?}"),
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
    fn refusal_message() {
        assert_eq!(
            transition(Faite, Reschedule).unwrap_err().to_string(),
            "Action refusée : impossible de replanifier cette visite au statut « Faite » : \
             une visite faite est inscrite au carnet d'entretien et ne change plus."
        );
    }

    #[test]
    fn departure_cannot_precede_arrival() {
        let arrival = Utc.with_ymd_and_hms(2026, 3, 2, 8, 30, 0).unwrap();
        let departure = Utc.with_ymd_and_hms(2026, 3, 2, 9, 15, 0).unwrap();
        assert_eq!(check_departure(arrival, departure), Ok(()));
        assert_eq!(check_departure(arrival, arrival), Ok(()));
        let error = check_departure(departure, arrival).unwrap_err();
        assert_eq!(error, DomainError::DepartureBeforeArrival);
        assert_eq!(
            error.to_string(),
            "L'heure de départ ne peut pas précéder l'heure d'arrivée."
        );
    }

    fn day(year: i32, month: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(year, month, day).unwrap()
    }

    #[test]
    fn deadline_follows_the_last_visit_or_the_plan_start() {
        let plan_start = day(2026, 1, 5);
        assert_eq!(
            deadline(None, plan_start, DEFAULT_INTERVAL_DAYS),
            day(2026, 2, 16)
        );
        assert_eq!(
            deadline(Some(day(2026, 3, 10)), plan_start, DEFAULT_INTERVAL_DAYS),
            day(2026, 4, 21)
        );
        // Across a leap day and a year end.
        assert_eq!(
            deadline(Some(day(2028, 2, 1)), plan_start, 42),
            day(2028, 3, 14)
        );
        assert_eq!(
            deadline(Some(day(2026, 12, 1)), plan_start, 42),
            day(2027, 1, 12)
        );
        assert_eq!(deadline(None, plan_start, 0), plan_start);
        assert_eq!(
            deadline(Some(NaiveDate::MAX), plan_start, 42),
            NaiveDate::MAX
        );
        assert_eq!(DEFAULT_INTERVAL_DAYS, 6 * 7);
    }

    #[test]
    fn overdue_means_planned_after_the_deadline() {
        let limit = day(2026, 2, 16);
        assert!(!is_overdue(day(2026, 2, 10), limit));
        assert!(!is_overdue(limit, limit));
        assert!(is_overdue(day(2026, 2, 17), limit));
    }

    #[test]
    fn wire_codes_and_labels() {
        let codes: Vec<_> = VisitStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(codes, ["planifiee", "en_cours", "faite"]);
        let labels: Vec<_> = VisitStatus::ALL.iter().map(|s| s.label()).collect();
        assert_eq!(labels, ["Planifiée", "En cours", "Faite"]);
        for &status in VisitStatus::ALL {
            assert_eq!(VisitStatus::parse(status.as_str()), Some(status));
        }
        for &action in VisitAction::ALL {
            assert_eq!(VisitAction::parse(action.as_str()), Some(action));
        }
    }
}
