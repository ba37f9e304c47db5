//! `Code<T>`: a value of the domain's closed sets (`liftdesk_domain::WireCode`:
//! statuses, natures, types) stored as its code and read back as the value.
//! Rows hold the domain's enums, never their text: a code the domain does
//! not know is an error where the row is read (the store's `Corrupt`
//! failure), not a string re-parsed further up.

use crate::StoreResult;
use crate::sql::{FromValue, Row, ToValue, ValueRef};
use liftdesk_domain::WireCode;

/// `T` as stored: its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code<T>(pub T);

impl<T: WireCode> FromValue for Code<T> {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        // Read in place: a code is matched, never kept as text.
        let ValueRef::Text(text) = value else {
            return Err(crate::sql::mismatch("un code (texte)", value));
        };
        T::from_code(text).map(Code).ok_or_else(|| {
            format!(
                "code inconnu en base : « {text} » (attendu : {})",
                T::CODES.join(", ")
            )
        })
    }
}

impl<T: WireCode> ToValue for Code<T> {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(ValueRef::Text(self.0.code()))
    }
}

/// The value of column `index`, stored as a code.
pub(crate) fn code<T: WireCode>(row: &Row<'_>, index: usize) -> StoreResult<T> {
    row.get::<Code<T>>(index).map(|code| code.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use liftdesk_domain::call::CallStatus;

    #[test]
    fn reads_and_writes_the_code_and_refuses_an_unknown_one() {
        let conn =
            crate::Conn::sqlite_conn(rusqlite::Connection::open_in_memory().expect("memory"));
        let back: String = conn
            .query_row("SELECT ?1", [Code(CallStatus::Resolue)], |r| r.get(0))
            .expect("written");
        assert_eq!(back, "resolue");
        let read: CallStatus = conn
            .query_row("SELECT 'resolue'", [], |r| code(r, 0))
            .expect("read");
        assert_eq!(read, CallStatus::Resolue);
        let err = conn
            .query_row("SELECT 'fermee'", [], |r| code::<CallStatus>(r, 0))
            .expect_err("unknown");
        assert!(
            err.to_string()
                .contains("code inconnu en base : « fermee »"),
            "{err}"
        );
    }
}
