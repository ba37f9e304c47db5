//! Breakdown calls ("appels de panne"): what a call can go through, from the
//! call center's report to the return to service.
//!
//! Assigning a technician does not change the status: a call is assigned
//! while the technician is still busy elsewhere, and the call center must not
//! read "en route" before someone actually sets off. Setting off does
//! (`ouverte` → `en_route`).

use super::error::TransitionError;

/// Event sent to webhook subscribers when a call becomes resolved.
pub const CLOSED_EVENT: &str = crate::event::WebhookEvent::CallClosed.code();

wire_enum! {
    /// Where a breakdown call stands, as the call center reads it (`statut`
    /// and `libelle` of the call-center API).
    pub enum CallStatus {
        /// Received, nobody has set off yet.
        Ouverte => "ouverte", "Ouverte";
        /// The assigned technician is travelling to the equipment.
        EnRoute => "en_route", "Technicien en route";
        /// The technician is at the equipment.
        SurPlace => "sur_place", "Technicien sur place";
        /// The technician left the equipment stopped, awaiting parts or a
        /// heavier repair.
        ALArret => "a_l_arret", "Appareil à l'arrêt";
        /// Back in service. Final.
        Resolue => "resolue", "Résolue";
    }
}

wire_enum! {
    /// What the caller reported (`type` of POST /calls).
    pub enum CallType {
        /// Someone is trapped in the car.
        PersonneBloquee => "personne_bloquee", "Personne bloquée";
        /// The equipment does not work.
        Panne => "panne", "Panne";
        /// Damage caused on purpose.
        Vandalisme => "vandalisme", "Vandalisme";
        /// Abnormal noise while the equipment still runs.
        Bruit => "bruit", "Bruit anormal";
    }
}

impl CallType {
    /// A trapped person is the only case that must be answered at once,
    /// before every other call (it takes a technician off his current job).
    pub fn is_emergency(self) -> bool {
        matches!(self, CallType::PersonneBloquee)
    }
}

impl CallStatus {
    /// A technician is needed in this state: he is travelling, on site, or
    /// has been on site and left the equipment stopped.
    pub fn needs_technician(self) -> bool {
        matches!(
            self,
            CallStatus::EnRoute | CallStatus::SurPlace | CallStatus::ALArret
        )
    }
}

/// An accepted status change and what the store must do with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTransition {
    pub from: CallStatus,
    pub to: CallStatus,
    /// Set `arriveLe` to now: the technician's first arrival on site.
    /// Returning after leaving the equipment stopped keeps the first arrival,
    /// which is what response times are measured on.
    pub sets_arrived_at: bool,
    /// Set `resoluLe` to now: the return to service.
    pub sets_resolved_at: bool,
    /// Send the event [`CLOSED_EVENT`] (`appel.clos`).
    pub emits_closed_event: bool,
}

impl CallTransition {
    /// Refuses the change when the target state needs a technician and the
    /// call has none assigned (nobody can be "en route" or "sur place").
    pub fn check_technician(&self, technician_assigned: bool) -> Result<(), TransitionError> {
        if self.to.needs_technician() && !technician_assigned {
            return Err(TransitionError::new(
                self.from.as_str(),
                self.to.as_str(),
                format!(
                    "Transition refusée : un appel ne peut pas passer de « {} » à « {} » sans technicien affecté.",
                    self.from.label(),
                    self.to.label()
                ),
            ));
        }
        Ok(())
    }
}

/// Checks a status change and says which effects the store applies.
///
/// Allowed: `ouverte` → `en_route` (sets off), `ouverte` → `sur_place` (was
/// already on site, or forgot to say he set off), `en_route` → `ouverte`
/// (turned back, e.g. diverted to a trapped person), `en_route` →
/// `sur_place`, `sur_place` → `a_l_arret`, `a_l_arret` → `sur_place` (back
/// on site), and every non-final state → `resolue` (including from
/// `ouverte`: the client called back, the equipment restarted). `resolue` is
/// final; staying in the same state is refused so that effects and events
/// are never applied twice.
pub fn transition(from: CallStatus, to: CallStatus) -> Result<CallTransition, TransitionError> {
    use CallStatus::*;

    let accepted = CallTransition {
        from,
        to,
        // The first arrival only: coming back to an equipment left stopped
        // keeps the time of the first one.
        sets_arrived_at: to == SurPlace && from != ALArret,
        sets_resolved_at: to == Resolue,
        emits_closed_event: to == Resolue,
    };
    let refused = |reason: &str| {
        Err(TransitionError::new(
            from.as_str(),
            to.as_str(),
            format!(
                "Transition refusée : un appel ne peut pas passer de « {} » à « {} » : {reason}.",
                from.label(),
                to.label()
            ),
        ))
    };

    match (from, to) {
        (Resolue, Resolue) => Err(TransitionError::new(
            from.as_str(),
            to.as_str(),
            "L'appel est déjà résolu.".to_owned(),
        )),
        (Ouverte, Ouverte) | (EnRoute, EnRoute) | (SurPlace, SurPlace) | (ALArret, ALArret) => {
            Err(TransitionError::new(
                from.as_str(),
                to.as_str(),
                format!("L'appel est déjà au statut « {} ».", from.label()),
            ))
        }
        (Resolue, _) => refused(
            "un appel résolu ne peut plus changer de statut ; si la panne revient, ouvrez un nouvel appel",
        ),
        (Ouverte, EnRoute)
        | (Ouverte | EnRoute | ALArret, SurPlace)
        | (EnRoute, Ouverte)
        | (SurPlace, ALArret)
        | (Ouverte | EnRoute | SurPlace | ALArret, Resolue) => Ok(accepted),
        (Ouverte, ALArret) => refused("aucun technicien n'est encore venu sur place"),
        (EnRoute, ALArret) => refused("le technicien doit d'abord arriver sur place"),
        (SurPlace, Ouverte) => refused(
            "le technicien est déjà venu ; s'il repart sans remettre l'appareil en service, l'appel passe à « Appareil à l'arrêt »",
        ),
        (SurPlace, EnRoute) => refused("le technicien est déjà sur place"),
        (ALArret, Ouverte) => refused(
            "l'appareil a déjà été vu par un technicien ; son retour se note « Technicien sur place »",
        ),
        (ALArret, EnRoute) => {
            refused("le retour du technicien se note directement « Technicien sur place »")
        }
    }
}

/// Assigning (or reassigning) a technician leaves the status unchanged and is
/// possible until the call is resolved: a dispatcher may hand a call over
/// while a technician is on the way, on site, or when the equipment waits
/// for parts.
pub fn can_assign(status: CallStatus) -> Result<(), TransitionError> {
    if status == CallStatus::Resolue {
        return Err(TransitionError::new(
            status.as_str(),
            "assign",
            "Impossible d'affecter un technicien : l'appel est déjà résolu (statut « Résolue »)."
                .to_owned(),
        ));
    }
    Ok(())
}

/// Longest text of a closing report's field, in characters.
pub const MAX_REPORT_CHARS: usize = 2000;

/// A closing report as received (every field optional on the wire).
#[derive(Debug, Clone, Default)]
pub struct ReportInput {
    pub cause: Option<String>,
    pub work: Option<String>,
    pub parts: Option<String>,
    /// `YYYY-MM-DDTHH:MM` (Paris wall-clock, as a `datetime-local` field
    /// gives it) or an RFC 3339 timestamp; now when absent.
    pub back_in_service_at: Option<String>,
}

/// What a technician's closing of a breakdown call records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClosingReport {
    pub cause: String,
    pub work: String,
    pub parts: Option<String>,
    pub back_in_service_at: chrono::DateTime<chrono::Utc>,
}

/// Checks a closing report: the cause and the work done are required, every
/// text bounded; the lift was back in service neither before the call was
/// received nor in the future (five minutes of clock drift allowed). The
/// French reason names the field.
pub fn check_report(
    input: &ReportInput,
    received_at: chrono::DateTime<chrono::Utc>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<ClosingReport, String> {
    let text = |value: &Option<String>, label: &str| -> Result<Option<String>, String> {
        let value = value.as_deref().map(str::trim).filter(|v| !v.is_empty());
        match value {
            Some(v) if v.chars().count() > MAX_REPORT_CHARS => Err(format!(
                "Le champ « {label} » du rapport ne doit pas dépasser {MAX_REPORT_CHARS} caractères."
            )),
            other => Ok(other.map(str::to_owned)),
        }
    };
    let cause =
        text(&input.cause, "Cause")?.ok_or("Pour clore l'appel, indiquez la cause de la panne.")?;
    let work = text(&input.work, "Travaux effectués")?
        .ok_or("Pour clore l'appel, indiquez les travaux effectués.")?;
    let parts = text(&input.parts, "Pièces remplacées")?;
    let back = match input.back_in_service_at.as_deref().map(str::trim) {
        None | Some("") => now,
        Some(text) => crate::time::parse_timestamp(text)
            .or_else(|| {
                chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M")
                    .ok()
                    .map(crate::time::paris_to_utc)
            })
            .ok_or_else(|| {
                format!(
                    "Le champ « Remise en service » doit être une date et une heure (AAAA-MM-JJTHH:MM) : « {text} » n'en est pas une."
                )
            })?,
    };
    if back > now + chrono::Duration::minutes(5) {
        return Err("La remise en service ne peut pas être dans le futur.".to_owned());
    }
    // Minutes: a datetime-local field has no seconds.
    if back < received_at - chrono::Duration::seconds(59) {
        return Err("La remise en service ne peut pas précéder l'appel.".to_owned());
    }
    Ok(ClosingReport {
        cause,
        work,
        parts,
        back_in_service_at: back,
    })
}

/// Only a trapped-person call not resolved raises the alert that someone
/// must acknowledge.
pub fn check_acknowledgeable(call_type: CallType, status: CallStatus) -> Result<(), &'static str> {
    if call_type != CallType::PersonneBloquee {
        return Err("Seule l'alerte d'une personne bloquée se prend en compte.");
    }
    if status == CallStatus::Resolue {
        return Err("Cet appel est déjà résolu : son alerte est close.");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use CallStatus::*;
    use serde::Deserialize;
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error as ValueError, StrDeserializer};

    /// (sets_arrived_at, sets_resolved_at, emits_closed_event), or `None` when refused.
    type Expected = Option<(bool, bool, bool)>;
    const REFUSED: Expected = None;
    const PLAIN: Expected = Some((false, false, false));
    const ARRIVES: Expected = Some((true, false, false));
    const RESOLVES: Expected = Some((false, true, true));

    /// Every (from, to) pair. Iterated over `ALL` × `ALL`, so a new status
    /// fails the test until its row is written here.
    const TABLE: &[(CallStatus, CallStatus, Expected)] = &[
        (Ouverte, Ouverte, REFUSED),
        (Ouverte, EnRoute, PLAIN),
        (Ouverte, SurPlace, ARRIVES),
        (Ouverte, ALArret, REFUSED),
        (Ouverte, Resolue, RESOLVES),
        (EnRoute, Ouverte, PLAIN),
        (EnRoute, EnRoute, REFUSED),
        (EnRoute, SurPlace, ARRIVES),
        (EnRoute, ALArret, REFUSED),
        (EnRoute, Resolue, RESOLVES),
        (SurPlace, Ouverte, REFUSED),
        (SurPlace, EnRoute, REFUSED),
        (SurPlace, SurPlace, REFUSED),
        (SurPlace, ALArret, PLAIN),
        (SurPlace, Resolue, RESOLVES),
        (ALArret, Ouverte, REFUSED),
        (ALArret, EnRoute, REFUSED),
        (ALArret, SurPlace, PLAIN),
        (ALArret, ALArret, REFUSED),
        (ALArret, Resolue, RESOLVES),
        (Resolue, Ouverte, REFUSED),
        (Resolue, EnRoute, REFUSED),
        (Resolue, SurPlace, REFUSED),
        (Resolue, ALArret, REFUSED),
        (Resolue, Resolue, REFUSED),
    ];

    fn expected(from: CallStatus, to: CallStatus) -> Expected {
        let rows: Vec<_> = TABLE
            .iter()
            .filter(|(f, t, _)| *f == from && *t == to)
            .collect();
        assert_eq!(
            rows.len(),
            1,
            "exactly one row expected for {from:?} → {to:?}"
        );
        rows[0].2
    }

    #[test]
    fn every_status_pair_follows_the_table() {
        assert_eq!(TABLE.len(), CallStatus::ALL.len() * CallStatus::ALL.len());
        for &from in CallStatus::ALL {
            for &to in CallStatus::ALL {
                let outcome = transition(from, to);
                match (expected(from, to), outcome) {
                    (Some((arrived, resolved, closed)), Ok(effects)) => {
                        assert_eq!(
                            (
                                effects.sets_arrived_at,
                                effects.sets_resolved_at,
                                effects.emits_closed_event
                            ),
                            (arrived, resolved, closed),
                            "effects of {from:?} → {to:?}"
                        );
                        assert_eq!((effects.from, effects.to), (from, to));
                    }
                    (None, Err(error)) => {
                        assert_eq!(error.current(), from.as_str());
                        assert_eq!(error.attempted(), to.as_str());
                    }
                    (expected, outcome) => {
                        panic!("{from:?} → {to:?}: expected {expected:?}, got {outcome:?}")
                    }
                }
            }
        }
    }

    #[test]
    fn refusals_name_both_states_in_french() {
        for &from in CallStatus::ALL {
            for &to in CallStatus::ALL {
                let Err(error) = transition(from, to) else {
                    continue;
                };
                let message = error.to_string();
                if from == to {
                    assert!(message.contains("déjà"), "{message}");
                } else {
                    assert!(message.starts_with("Transition refusée : "), "{message}");
                    assert!(
                        message.contains(&format!("« {} »", from.label())),
                        "{message}"
                    );
                    assert!(
                        message.contains(&format!("« {} »", to.label())),
                        "{message}"
                    );
                }
            }
        }
        assert_eq!(
            transition(Resolue, Resolue).unwrap_err().to_string(),
            "L'appel est déjà résolu."
        );
        assert_eq!(
            transition(Resolue, Ouverte).unwrap_err().to_string(),
            "Transition refusée : un appel ne peut pas passer de « Résolue » à « Ouverte » : \
             un appel résolu ne peut plus changer de statut ; si la panne revient, ouvrez un nouvel appel."
        );
    }

    /// Walks every path of allowed transitions from `ouverte`: the arrival is
    /// recorded at most once, and `appel.clos` is emitted exactly when the
    /// call ends resolved, once.
    #[test]
    fn along_any_path_arrival_is_set_once_and_closing_happens_once() {
        fn walk(path: &mut Vec<CallTransition>, current: CallStatus, depth: usize) {
            let arrivals = path.iter().filter(|t| t.sets_arrived_at).count();
            let closings = path.iter().filter(|t| t.emits_closed_event).count();
            assert!(arrivals <= 1, "{path:?}");
            assert_eq!(closings, usize::from(current == Resolue), "{path:?}");
            // A technician has arrived exactly in the states that mean it.
            if matches!(current, SurPlace | ALArret) {
                assert_eq!(arrivals, 1, "{path:?}");
            }
            if matches!(current, Ouverte | EnRoute) {
                assert_eq!(arrivals, 0, "{path:?}");
            }
            if depth == 0 {
                return;
            }
            for &next in CallStatus::ALL {
                if let Ok(step) = transition(current, next) {
                    path.push(step);
                    walk(path, next, depth - 1);
                    path.pop();
                }
            }
        }
        walk(&mut Vec::new(), Ouverte, 7);
    }

    #[test]
    fn technician_is_required_to_set_off_or_be_on_site() {
        let setting_off = transition(Ouverte, EnRoute).unwrap();
        assert!(setting_off.check_technician(true).is_ok());
        let error = setting_off.check_technician(false).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Transition refusée : un appel ne peut pas passer de « Ouverte » à « Technicien en route » sans technicien affecté."
        );
        assert!(
            transition(Ouverte, SurPlace)
                .unwrap()
                .check_technician(false)
                .is_err()
        );
        // The client calling back to say it restarted needs nobody.
        assert!(
            transition(Ouverte, Resolue)
                .unwrap()
                .check_technician(false)
                .is_ok()
        );
        assert!(
            transition(EnRoute, Ouverte)
                .unwrap()
                .check_technician(false)
                .is_ok()
        );
    }

    #[test]
    fn assignment_is_possible_until_resolved() {
        for &status in CallStatus::ALL {
            assert_eq!(can_assign(status).is_ok(), status != Resolue, "{status:?}");
        }
        assert_eq!(
            can_assign(Resolue).unwrap_err().to_string(),
            "Impossible d'affecter un technicien : l'appel est déjà résolu (statut « Résolue »)."
        );
    }

    #[test]
    fn wire_codes_and_labels() {
        let codes: Vec<_> = CallStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            codes,
            ["ouverte", "en_route", "sur_place", "a_l_arret", "resolue"]
        );
        assert_eq!(CallStatus::CODES, codes.as_slice());
        for &status in CallStatus::ALL {
            assert_eq!(CallStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(CallStatus::parse("Ouverte"), None);
        assert_eq!(CallStatus::parse(" ouverte"), None);
        assert_eq!(CallStatus::parse("fermee"), None);
        assert_eq!(ALArret.label(), "Appareil à l'arrêt");
        assert_eq!(Resolue.label(), "Résolue");

        let types: Vec<_> = CallType::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(types, ["personne_bloquee", "panne", "vandalisme", "bruit"]);
        for &call_type in CallType::ALL {
            assert_eq!(CallType::parse(call_type.as_str()), Some(call_type));
            assert_eq!(
                call_type.is_emergency(),
                call_type == CallType::PersonneBloquee
            );
        }
        assert_eq!(CallType::PersonneBloquee.label(), "Personne bloquée");
    }

    #[test]
    fn serde_reads_wire_codes() {
        for &status in CallStatus::ALL {
            let reader: StrDeserializer<'_, ValueError> = status.as_str().into_deserializer();
            assert_eq!(CallStatus::deserialize(reader), Ok(status));
        }
        let reader: StrDeserializer<'_, ValueError> = "close".into_deserializer();
        let error = CallStatus::deserialize(reader).unwrap_err().to_string();
        assert!(error.contains("unknown variant `close`"), "{error}");
    }

    #[test]
    fn a_closing_report_needs_the_cause_and_the_work() {
        use chrono::TimeZone;
        let received = chrono::Utc.with_ymd_and_hms(2026, 11, 29, 8, 0, 0).unwrap();
        let now = chrono::Utc
            .with_ymd_and_hms(2026, 11, 29, 11, 0, 0)
            .unwrap();
        let input = |cause: &str, work: &str, back: Option<&str>| ReportInput {
            cause: Some(cause.to_owned()),
            work: Some(work.to_owned()),
            parts: Some(" ".to_owned()),
            back_in_service_at: back.map(str::to_owned),
        };
        let report =
            check_report(&input(" Câble usé ", "Câble remplacé", None), received, now).unwrap();
        assert_eq!(report.cause, "Câble usé");
        assert_eq!(report.parts, None);
        assert_eq!(report.back_in_service_at, now);
        // Paris wall-clock: 10:30 in winter is 09:30 UTC.
        let report =
            check_report(&input("C", "T", Some("2026-11-29T10:30")), received, now).unwrap();
        assert_eq!(
            report.back_in_service_at,
            chrono::Utc
                .with_ymd_and_hms(2026, 11, 29, 9, 30, 0)
                .unwrap()
        );
        for (case, message) in [
            (
                input("", "T", None),
                "Pour clore l'appel, indiquez la cause de la panne.",
            ),
            (
                input("C", " ", None),
                "Pour clore l'appel, indiquez les travaux effectués.",
            ),
            (
                input("C", "T", Some("2026-11-29T13:00")),
                "La remise en service ne peut pas être dans le futur.",
            ),
            (
                input("C", "T", Some("2026-11-29T08:30")),
                "La remise en service ne peut pas précéder l'appel.",
            ),
        ] {
            assert_eq!(check_report(&case, received, now), Err(message.to_owned()));
        }
        let bad = check_report(&input("C", "T", Some("demain")), received, now).unwrap_err();
        assert!(bad.starts_with("Le champ « Remise en service »"), "{bad}");
        assert!(check_acknowledgeable(CallType::PersonneBloquee, CallStatus::Ouverte).is_ok());
        assert!(check_acknowledgeable(CallType::Panne, CallStatus::Ouverte).is_err());
        assert!(check_acknowledgeable(CallType::PersonneBloquee, CallStatus::Resolue).is_err());
    }
}
