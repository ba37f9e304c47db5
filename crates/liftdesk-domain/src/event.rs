//! The events a webhook subscription receives: one list, with each event's
//! code (as sent on the wire and stored in the outbox) and its French label.
//! The REST API's schema, the subscription's check and the web application's
//! choices are all read from it. And the statuses of a delivery.

wire_enum! {
    /// Where the delivery of one event to one subscription stands.
    pub enum DeliveryStatus {
        /// Queued, never attempted yet.
        EnAttente => "en_attente", "En attente";
        /// Delivered: the receiver answered 2xx.
        Livree => "livree", "Livrée";
        /// Last attempt failed; another one is scheduled.
        Echec => "echec", "Échec, nouvel essai prévu";
        /// Given up: retries exhausted, or the subscription was revoked.
        Abandonnee => "abandonnee", "Abandonnée";
    }
}

/// An event of the agency a receiver may subscribe to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WebhookEvent {
    /// A breakdown call becomes `resolue`.
    CallClosed,
    /// A technician submits a survey.
    SurveyFinished,
    /// A quote is accepted.
    QuoteAccepted,
}

impl WebhookEvent {
    /// Every event, in the order the API lists them.
    pub const ALL: [Self; 3] = [Self::CallClosed, Self::SurveyFinished, Self::QuoteAccepted];

    /// The event's code: `appel.clos`, `releve.termine`, `devis.accepte`.
    pub const fn code(self) -> &'static str {
        match self {
            Self::CallClosed => "appel.clos",
            Self::SurveyFinished => "releve.termine",
            Self::QuoteAccepted => "devis.accepte",
        }
    }

    /// What the event says, in French.
    pub const fn label(self) -> &'static str {
        match self {
            Self::CallClosed => "Appel de panne résolu",
            Self::SurveyFinished => "Relevé soumis par le technicien",
            Self::QuoteAccepted => "Devis accepté",
        }
    }

    /// The event of a code, if it is one.
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|event| event.code() == code)
    }

    /// Every code, in the order of [`Self::ALL`].
    pub const CODES: [&'static str; 3] = [
        Self::ALL[0].code(),
        Self::ALL[1].code(),
        Self::ALL[2].code(),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_back_and_are_listed_in_order() {
        for event in WebhookEvent::ALL {
            assert_eq!(WebhookEvent::parse(event.code()), Some(event));
        }
        assert_eq!(
            WebhookEvent::CODES,
            ["appel.clos", "releve.termine", "devis.accepte"]
        );
        assert_eq!(WebhookEvent::parse("ping"), None);
    }
}
