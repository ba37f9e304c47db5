//! Documents sent by e-mail: the outgoing server's security modes, where a
//! message stands in the outbox, the default French subject and text of each
//! kind of document, and the checks on what the person sending typed.

use crate::money::Cents;
use crate::text;

wire_enum! {
    /// How the connection to the outgoing server (SMTP) is protected.
    pub enum SmtpSecurity {
        /// A plain connection upgraded by STARTTLS (usually port 587).
        Starttls => "starttls", "STARTTLS (port 587 en général)";
        /// TLS from the first byte (usually port 465).
        Tls => "tls", "TLS implicite (port 465 en général)";
        /// No encryption: a relay on the agency's own network only.
        Aucune => "aucune", "Aucun chiffrement (relais du réseau local)";
    }
}

impl SmtpSecurity {
    /// The port a server of this kind usually listens on.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpSecurity::Starttls => 587,
            SmtpSecurity::Tls => 465,
            SmtpSecurity::Aucune => 25,
        }
    }
}

wire_enum! {
    /// Where a message of the outbox stands.
    pub enum MailStatus {
        /// Written, not tried yet (or waiting for the network).
        EnAttente => "en_attente", "En attente d'envoi";
        /// Accepted by the outgoing server.
        Envoye => "envoye", "Envoyé";
        /// The last attempt failed; another one is planned.
        Echec => "echec", "Échec, nouvel essai prévu";
        /// Refused for good (or out of attempts): nothing more is tried
        /// unless someone asks for it again.
        Abandonne => "abandonne", "Abandonné";
    }
}

impl MailStatus {
    /// Still to be sent by the mail task.
    pub fn is_pending(self) -> bool {
        matches!(self, MailStatus::EnAttente | MailStatus::Echec)
    }
}

wire_enum! {
    /// What a message carries, for its wording.
    pub enum MailDocument {
        Devis => "devis", "devis";
        Facture => "facture", "facture";
        Avoir => "avoir", "avoir";
        RapportVisite => "rapport_visite", "rapport de visite";
    }
}

/// What the default subject and text say of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailFacts<'a> {
    pub document: MailDocument,
    /// The document's number (a visit report: the equipment's number).
    pub number: Option<&'a str>,
    /// The seller's name (the agency's legal name).
    pub seller: &'a str,
    /// Total including tax (quotes, invoices, credit notes).
    pub total_incl: Option<Cents>,
    /// An invoice's due day, `JJ/MM/AAAA`.
    pub due_on: Option<&'a str>,
    /// A visit report: the day of the visit, `JJ/MM/AAAA`.
    pub visit_day: Option<&'a str>,
    /// Signature lines under the name (phone, e-mail).
    pub signature: &'a [String],
}

/// `Facture F-2026-000012 — Ascenseurs Durand`.
pub fn default_subject(facts: &MailFacts<'_>) -> String {
    let what = match facts.document {
        MailDocument::Devis => "Devis",
        MailDocument::Facture => "Facture",
        MailDocument::Avoir => "Avoir",
        MailDocument::RapportVisite => "Rapport de visite",
    };
    match (facts.document, facts.number) {
        (MailDocument::RapportVisite, Some(equipment)) => {
            format!("{what} — appareil {equipment} — {}", facts.seller)
        }
        (_, Some(number)) => format!("{what} {number} — {}", facts.seller),
        (_, None) => format!("{what} — {}", facts.seller),
    }
}

/// The text of the message, in French, signed by the agency.
pub fn default_body(facts: &MailFacts<'_>) -> String {
    let number = facts.number.map(|n| format!(" n° {n}")).unwrap_or_default();
    let amount = facts
        .total_incl
        .map(|t| format!(", d'un montant de {} TTC", t.french()))
        .unwrap_or_default();
    let mut lines = vec!["Bonjour,".to_owned(), String::new()];
    match facts.document {
        MailDocument::Devis => {
            lines.push(format!(
                "Veuillez trouver ci-joint notre devis{number}{amount}."
            ));
            lines.push(
                "Pour l'accepter, il vous suffit de nous le retourner signé avec la mention « Bon pour accord »."
                    .to_owned(),
            );
        }
        MailDocument::Facture => {
            let due = facts
                .due_on
                .map(|d| format!(", à régler au plus tard le {d}"))
                .unwrap_or_default();
            lines.push(format!(
                "Veuillez trouver ci-joint notre facture{number}{amount}{due}."
            ));
        }
        MailDocument::Avoir => {
            lines.push(format!(
                "Veuillez trouver ci-joint notre avoir{number}{amount}."
            ));
        }
        MailDocument::RapportVisite => {
            let equipment = facts
                .number
                .map(|n| format!(" de l'appareil {n}"))
                .unwrap_or_default();
            let day = facts
                .visit_day
                .map(|d| format!(" du {d}"))
                .unwrap_or_default();
            lines.push(format!(
                "Veuillez trouver ci-joint le rapport de la visite d'entretien{equipment}{day}."
            ));
        }
    }
    lines.push("Nous restons à votre disposition pour toute question.".to_owned());
    lines.push(String::new());
    lines.push("Cordialement,".to_owned());
    lines.push(facts.seller.to_owned());
    lines.extend(facts.signature.iter().cloned());
    lines.join("\n")
}

/// The longest subject accepted (a line of an e-mail header).
pub const SUBJECT_MAX: usize = 200;
/// The longest text accepted.
pub const BODY_MAX: usize = 10_000;
/// The most recipients of one message.
pub const RECIPIENTS_MAX: usize = 20;

/// A subject as typed: trimmed, not blank, on one line, 200 characters at
/// most; else the French reason.
pub fn check_subject(subject: &str) -> Result<String, String> {
    let subject = subject.trim();
    if subject.is_empty() {
        return Err("L'objet du message est vide.".to_owned());
    }
    if subject.chars().any(char::is_control) {
        return Err("L'objet du message tient sur une ligne.".to_owned());
    }
    if subject.chars().count() > SUBJECT_MAX {
        return Err(format!(
            "L'objet du message dépasse {SUBJECT_MAX} caractères."
        ));
    }
    Ok(subject.to_owned())
}

/// A text as typed: line breaks kept (`\r\n` made `\n`), not blank, 10 000
/// characters at most, no other control character.
pub fn check_body(body: &str) -> Result<String, String> {
    let body = body.replace("\r\n", "\n");
    let body = body.trim_end();
    if body.trim().is_empty() {
        return Err("Le texte du message est vide.".to_owned());
    }
    if body
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err("Le texte du message contient un caractère de contrôle.".to_owned());
    }
    if body.chars().count() > BODY_MAX {
        return Err(format!(
            "Le texte du message dépasse {BODY_MAX} caractères."
        ));
    }
    Ok(body.to_owned())
}

/// A host name or address of an outgoing server: letters, digits, dots,
/// dashes (an IPv6 address in brackets or bare), 253 characters at most.
pub fn check_host(host: &str) -> Result<String, String> {
    let host = host.trim().trim_end_matches('.');
    let ok = !host.is_empty()
        && host.len() <= 253
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if ok {
        Ok(host.to_ascii_lowercase())
    } else {
        Err(format!(
            "Serveur d'envoi « {host} » illisible : un nom (smtp.exemple.fr) ou une adresse IP."
        ))
    }
}

/// An address a test message or a document goes to.
pub fn check_address(email: &str) -> Result<String, String> {
    let email = email.trim();
    if text::is_email(email) {
        Ok(email.to_owned())
    } else {
        Err(format!("Adresse e-mail « {email} » invalide."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(document: MailDocument) -> MailFacts<'static> {
        MailFacts {
            document,
            number: Some("F-2026-000012"),
            seller: "Ascenseurs Durand",
            total_incl: Some(Cents::new(123_456)),
            due_on: Some("27/12/2026"),
            visit_day: None,
            signature: &[],
        }
    }

    #[test]
    fn subjects_name_the_document_and_the_seller() {
        assert_eq!(
            default_subject(&facts(MailDocument::Facture)),
            "Facture F-2026-000012 — Ascenseurs Durand"
        );
        let mut report = facts(MailDocument::RapportVisite);
        report.number = Some("ASC-0042");
        assert_eq!(
            default_subject(&report),
            "Rapport de visite — appareil ASC-0042 — Ascenseurs Durand"
        );
        let mut draft = facts(MailDocument::Devis);
        draft.number = None;
        assert_eq!(default_subject(&draft), "Devis — Ascenseurs Durand");
    }

    #[test]
    fn an_invoice_text_gives_its_amount_and_due_day() {
        let body = default_body(&facts(MailDocument::Facture));
        assert!(
            body.contains(
                "notre facture n° F-2026-000012, d'un montant de 1\u{202f}234,56\u{a0}€ TTC, à régler au plus tard le 27/12/2026."
            ),
            "{body}"
        );
        assert!(body.starts_with("Bonjour,\n\n"));
        assert!(body.ends_with("Cordialement,\nAscenseurs Durand"));
    }

    #[test]
    fn typed_subject_and_text_are_checked() {
        assert_eq!(check_subject("  Devis  ").as_deref(), Ok("Devis"));
        assert!(check_subject(" ").is_err());
        assert!(check_subject("a\nBcc: x@y.fr").is_err());
        assert!(check_subject(&"x".repeat(201)).is_err());
        assert_eq!(check_body("a\r\nb\n\n").as_deref(), Ok("a\nb"));
        assert!(check_body("\n \n").is_err());
        assert!(check_body("a\u{0007}").is_err());
    }

    #[test]
    fn hosts_and_addresses() {
        assert_eq!(
            check_host(" SMTP.Exemple.fr. ").as_deref(),
            Ok("smtp.exemple.fr")
        );
        assert_eq!(check_host("127.0.0.1").as_deref(), Ok("127.0.0.1"));
        assert!(check_host("smtp exemple").is_err());
        assert!(check_host("").is_err());
        assert!(check_address("compta@client.fr").is_ok());
        assert!(check_address("compta").is_err());
        assert_eq!(SmtpSecurity::Tls.default_port(), 465);
    }
}
