//! Identifiers as types: an agency's id is an `AgencyId`, not a `&str`, so
//! that a call passing an equipment's id where the agency's is expected
//! (or the two swapped) does not compile. The value is the UUID text the
//! database and the APIs hold; nothing here checks its form (the store
//! reads what it wrote, the front doors answer 404 for an unknown id).

use std::fmt;

/// Declares an identifier type over the id's text.
macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }

        /// Any text: a front door reads the id from a path or a body as
        /// given, and the operation answers 404 for an unknown one.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map(Self)
            }
        }
    };
}

id_type! {
    /// An agency: the scope every operation acts in.
    AgencyId
}

id_type! {
    /// A piece of equipment (a lift, a door…) of an agency's park: what
    /// calls, visits, surveys and quotes are about.
    EquipmentId
}

id_type! {
    /// A technician of an agency: who visits, answers calls and stands by.
    TechnicianId
}

id_type! {
    /// A survey of an equipment's technical data (« relevé »).
    SurveyId
}

id_type! {
    /// A quote (« devis ») of an agency.
    QuoteId
}

id_type! {
    /// A breakdown call of an agency.
    CallId
}

id_type! {
    /// A maintenance visit of an equipment.
    VisitId
}

id_type! {
    /// An invoice or a credit note (« facture », « avoir ») of an agency:
    /// both are rows of the same table, and a credit note names the
    /// invoice it credits by this id.
    InvoiceId
}

id_type! {
    /// A maintenance contract (« contrat d'entretien ») of an agency.
    ContractId
}

id_type! {
    /// A client of an agency, by its internal id (`clients.id`), not the
    /// partner's identifier (`client_ref`, `client_id` on the wire), which
    /// stays text.
    ClientId
}

id_type! {
    /// A staff account (`accounts.id`): who signs in, owns API tokens,
    /// surveys and may be a technician.
    AccountId
}

id_type! {
    /// A client organization (the company an installation's agencies belong
    /// to) or the service operator's (`organizations.id`).
    OrganizationId
}

id_type! {
    /// A contact of a client (« contact » : a caretaker, a property manager…).
    ContactId
}

id_type! {
    /// A building (« bâtiment ») of an agency: where its equipment stand,
    /// with their address and access.
    BuildingId
}

id_type! {
    /// A deal (« affaire ») of the partner workflow API: what asks for
    /// surveys of an agency's equipment.
    DealId
}

id_type! {
    /// A spreadsheet uploaded for import (« fichier d'import »,
    /// `import_files.id`), kept in its agency until it expires.
    ImportId
}

id_type! {
    /// A credential (`credentials.id`): an API token, a call-center key or a
    /// partner key, never its secret (only the secret's fingerprint is kept).
    CredentialId
}

id_type! {
    /// A staff member's web session (`sessions.id`), not its cookie's secret
    /// (the session is found by the secret's fingerprint).
    SessionId
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_its_text() {
        let id = AgencyId::new("0190a1b2-0000-7000-8000-000000000001");
        assert_eq!(id.as_str(), "0190a1b2-0000-7000-8000-000000000001");
        assert_eq!(id.to_string(), id.as_str());
        assert!(id == "0190a1b2-0000-7000-8000-000000000001");
        assert_eq!(
            serde_json::to_string(&id).expect("json"),
            "\"0190a1b2-0000-7000-8000-000000000001\""
        );
    }
}
