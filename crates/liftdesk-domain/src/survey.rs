//! Surveys ("relevés"): an equipment's technical data collected on site by a
//! technician, then submitted. Submission is what ends a survey: its data
//! become the equipment's current data and `releve.termine` is sent.
//!
//! The spec leaves the set of statuses open (see docs/foundation.md). A survey
//! is asked for `a_realiser`, is `en_cours` once the technician has begun to
//! enter data, and ends `termine` (submitted) or `annule` (no longer wanted).

use super::error::TransitionError;

/// Event sent to webhook subscribers when a survey is submitted.
pub const FINISHED_EVENT: &str = crate::event::WebhookEvent::SurveyFinished.code();

wire_enum! {
    /// Where a survey stands.
    pub enum SurveyStatus {
        /// Asked for; nothing entered yet.
        ARealiser => "a_realiser", "À réaliser";
        /// The technician has begun to enter data.
        EnCours => "en_cours", "En cours";
        /// Submitted: its data are the equipment's. Final.
        Termine => "termine", "Terminé";
        /// No longer wanted. Final.
        Annule => "annule", "Annulé";
    }
}

wire_enum! {
    /// What can be done to a survey through the service's operations.
    pub enum SurveyAction {
        /// The technician submits the survey: it becomes `termine`, its data
        /// are copied to the equipment and `releve.termine` is sent.
        Submit => "submit", "Soumettre";
        /// The technician saves the data entered so far: the survey is
        /// `en_cours`; nothing reaches the equipment yet.
        Save => "save", "Enregistrer";
        /// The survey is no longer wanted: `annule`, final.
        Cancel => "cancel", "Annuler";
    }
}

/// An accepted action and what the store must do with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurveyTransition {
    pub from: SurveyStatus,
    pub to: SurveyStatus,
    /// Set `submitted_at` and `surveyed_on`, and copy the survey's data to
    /// the equipment's current data.
    pub submits: bool,
    /// Send the event [`FINISHED_EVENT`] (`releve.termine`).
    pub emits_finished_event: bool,
}

/// Checks an action on a survey and says which effects the store applies.
///
/// A survey `a_realiser` or `en_cours` can be submitted (a survey filled in
/// one go, on paper or in the app, never went through `en_cours`), saved
/// (`en_cours`) or cancelled (`annule`). `termine` is final: submitting
/// again is refused so that the data are not copied twice and the event is
/// sent once. `annule` is final too: a survey that is wanted again is asked
/// for anew.
pub fn transition(
    status: SurveyStatus,
    action: SurveyAction,
) -> Result<SurveyTransition, TransitionError> {
    use SurveyAction::*;
    use SurveyStatus::*;

    match (status, action) {
        (ARealiser | EnCours, Submit) => Ok(SurveyTransition {
            from: status,
            to: Termine,
            submits: true,
            emits_finished_event: true,
        }),
        (ARealiser | EnCours, Save) => Ok(SurveyTransition {
            from: status,
            to: EnCours,
            submits: false,
            emits_finished_event: false,
        }),
        (ARealiser | EnCours, Cancel) => Ok(SurveyTransition {
            from: status,
            to: Annule,
            submits: false,
            emits_finished_event: false,
        }),
        (Termine, Save | Cancel) => Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            format!(
                "Action refusée : impossible {} ce relevé au statut « Terminé » : il a été soumis, ses données sont celles de l'équipement.",
                action.after_impossible()
            ),
        )),
        (Annule, Save | Cancel) => Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            format!(
                "Action refusée : impossible {} ce relevé au statut « Annulé » : si l'équipement doit être relevé, demandez un nouveau relevé.",
                action.after_impossible()
            ),
        )),
        (Termine, Submit) => Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            "Le relevé est déjà terminé : il a déjà été soumis, ses données sont celles de l'équipement."
                .to_owned(),
        )),
        (Annule, Submit) => Err(TransitionError::new(
            status.as_str(),
            action.as_str(),
            "Action refusée : impossible de soumettre ce relevé au statut « Annulé » : un relevé annulé ne se soumet plus ; si l'équipement doit être relevé, demandez un nouveau relevé."
                .to_owned(),
        )),
    }
}

impl SurveyAction {
    /// « de soumettre », « d'enregistrer », « d'annuler »: the action in
    /// a refusal.
    pub fn after_impossible(self) -> &'static str {
        match self {
            SurveyAction::Submit => "de soumettre",
            SurveyAction::Save => "d'enregistrer",
            SurveyAction::Cancel => "d'annuler",
        }
    }
}

/// The technician submits the survey (`transition(status, Submit)`).
pub fn submit(status: SurveyStatus) -> Result<SurveyTransition, TransitionError> {
    transition(status, SurveyAction::Submit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use SurveyAction::*;
    use SurveyStatus::*;

    /// Every (status, action) pair: the new status, or `None` when refused.
    /// Iterated over `ALL` × `ALL`, so a new status or action fails the test
    /// until its row is written here.
    const TABLE: &[(SurveyStatus, SurveyAction, Option<SurveyStatus>)] = &[
        (ARealiser, Submit, Some(Termine)),
        (EnCours, Submit, Some(Termine)),
        (Termine, Submit, None),
        (Annule, Submit, None),
        (ARealiser, Save, Some(EnCours)),
        (EnCours, Save, Some(EnCours)),
        (Termine, Save, None),
        (Annule, Save, None),
        (ARealiser, Cancel, Some(Annule)),
        (EnCours, Cancel, Some(Annule)),
        (Termine, Cancel, None),
        (Annule, Cancel, None),
    ];

    #[test]
    fn every_status_and_action_follows_the_table() {
        assert_eq!(
            TABLE.len(),
            SurveyStatus::ALL.len() * SurveyAction::ALL.len()
        );
        for &status in SurveyStatus::ALL {
            for &action in SurveyAction::ALL {
                let rows: Vec<_> = TABLE
                    .iter()
                    .filter(|(s, a, _)| *s == status && *a == action)
                    .collect();
                assert_eq!(
                    rows.len(),
                    1,
                    "one row expected for {status:?} × {action:?}"
                );
                match (rows[0].2, transition(status, action)) {
                    (Some(next), Ok(effects)) => {
                        assert_eq!((effects.from, effects.to), (status, next));
                        // Submitting, and only submitting, submits and sends the event.
                        let submitting = action == Submit;
                        assert_eq!(effects.submits, submitting);
                        assert_eq!(effects.emits_finished_event, submitting);
                    }
                    (None, Err(error)) => {
                        assert_eq!(error.current(), status.as_str());
                        assert_eq!(error.attempted(), action.as_str());
                    }
                    (expected, outcome) => {
                        panic!("{status:?} × {action:?}: expected {expected:?}, got {outcome:?}")
                    }
                }
            }
        }
    }

    #[test]
    fn refusals_are_french_sentences() {
        assert_eq!(
            submit(Termine).unwrap_err().to_string(),
            "Le relevé est déjà terminé : il a déjà été soumis, ses données sont celles de l'équipement."
        );
        assert_eq!(
            submit(Annule).unwrap_err().to_string(),
            "Action refusée : impossible de soumettre ce relevé au statut « Annulé » : un relevé annulé ne se soumet plus ; si l'équipement doit être relevé, demandez un nouveau relevé."
        );
    }

    /// Along any path the event is sent once: after a submission no action
    /// is accepted any more.
    #[test]
    fn a_survey_is_submitted_at_most_once() {
        for &start in SurveyStatus::ALL {
            let mut status = start;
            let mut events = 0;
            for _ in 0..3 {
                for &action in SurveyAction::ALL {
                    if let Ok(step) = transition(status, action) {
                        events += usize::from(step.emits_finished_event);
                        status = step.to;
                    }
                }
            }
            assert!(events <= 1, "{start:?}");
            assert_eq!(
                events,
                usize::from(matches!(start, ARealiser | EnCours)),
                "{start:?}"
            );
        }
    }

    #[test]
    fn saving_and_cancelling_are_refused_once_final() {
        assert_eq!(
            transition(Termine, Cancel).unwrap_err().to_string(),
            "Action refusée : impossible d'annuler ce relevé au statut « Terminé » : il a été soumis, ses données sont celles de l'équipement."
        );
        assert_eq!(
            transition(Annule, Save).unwrap_err().to_string(),
            "Action refusée : impossible d'enregistrer ce relevé au statut « Annulé » : si l'équipement doit être relevé, demandez un nouveau relevé."
        );
    }

    #[test]
    fn wire_codes_and_labels() {
        assert_eq!(
            SurveyStatus::CODES,
            ["a_realiser", "en_cours", "termine", "annule"]
        );
        let labels: Vec<_> = SurveyStatus::ALL.iter().map(|s| s.label()).collect();
        assert_eq!(labels, ["À réaliser", "En cours", "Terminé", "Annulé"]);
        for &status in SurveyStatus::ALL {
            assert_eq!(SurveyStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(SurveyStatus::parse("Terminé"), None);
        assert_eq!(FINISHED_EVENT, "releve.termine");
    }
}
