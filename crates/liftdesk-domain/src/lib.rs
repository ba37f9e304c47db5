//! Pure business rules of Liftdesk: state machines, numbering, money,
//! identifiers. No I/O and no database here, so every rule can be tested
//! alone and shared by every entry point (web screens, REST API, MCP, CLI).

/// A closed set of values written as a code (in the database, on the
/// wire): what `wire_enum!` declares. The store reads and writes any of them
/// through it (`liftdesk_store::Code`).
pub trait WireCode: Copy + Send + Sync + 'static {
    /// Every code.
    const CODES: &'static [&'static str];
    /// The value's code.
    fn code(self) -> &'static str;
    /// The value of a code; `None` for anything else.
    fn from_code(code: &str) -> Option<Self>;
    /// Every value, in declaration order.
    fn all() -> &'static [Self];
    /// The French wording shown to people.
    fn french(self) -> &'static str;
}

/// Declares a closed set of values exchanged as text (the "wire code") and
/// shown to people in French (the label). Generates `ALL`, `as_str`,
/// `parse`, `label`, and serde impls that read and write the wire code, so
/// the code is spelled in exactly one place.
macro_rules! wire_enum {
    (
        $(#[$enum_meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident => $code:literal, $label:literal;
            )+
        }
    ) => {
        $(#[$enum_meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                $(#[$variant_meta])*
                $variant,
            )+
        }

        impl $name {
            /// Every value, in declaration order (tests iterate it so that a
            /// new value cannot be forgotten in a rule table).
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Wire codes, in the order of `ALL`.
            pub const CODES: &'static [&'static str] = &[$($code),+];

            /// The code stored in the database and exchanged by the APIs.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)+
                }
            }

            /// Reads a wire code; `None` for anything else (exact match, no
            /// trimming or case folding: codes are machine-written).
            pub fn parse(code: &str) -> Option<Self> {
                match code {
                    $($code => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// French wording shown to users.
            pub fn label(self) -> &'static str {
                match self {
                    $($name::$variant => $label,)+
                }
            }
        }

        impl $crate::WireCode for $name {
            const CODES: &'static [&'static str] = $name::CODES;

            fn code(self) -> &'static str {
                self.as_str()
            }

            fn from_code(code: &str) -> Option<Self> {
                $name::parse(code)
            }

            fn all() -> &'static [Self] {
                $name::ALL
            }

            fn french(self) -> &'static str {
                self.label()
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let code = <String as serde::Deserialize>::deserialize(deserializer)?;
                $name::parse(&code)
                    .ok_or_else(|| serde::de::Error::unknown_variant(&code, $name::CODES))
            }
        }
    };
}

pub mod address;
pub mod building;
pub mod call;
pub mod client;
pub mod contract;
pub mod credential;
pub mod day;
pub mod deal;
pub mod downtime;
pub mod einvoice;
pub mod error;
pub mod event;
pub mod id;
pub mod identity;
pub mod invoice;
pub mod knowledge;
pub mod lines;
pub mod mail;
pub mod money;
pub mod planning;
pub mod quote;
pub mod rota;
pub mod siren;
pub mod survey;
pub mod technician;
pub mod text;
pub mod time;
pub mod visit;

pub use error::{DomainError, TransitionError};
