//! `Code<T>`: a value of the domain's closed sets (`liftdesk_domain::WireCode`:
//! statuses, natures, types) stored as its code and read back as the value.
//! Rows hold the domain's enums, never their text: a code the domain does
//! not know is an error where the row is read (the store's `Corrupt`
//! failure), not a string re-parsed further up.

use std::fmt;

use liftdesk_domain::WireCode;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

/// `T` as stored: its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code<T>(pub T);

/// A stored code that is none of `T`'s.
#[derive(Debug)]
struct UnknownCode {
    code: String,
    known: &'static [&'static str],
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "code inconnu en base : « {} » (attendu : {})",
            self.code,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownCode {}

impl<T: WireCode> FromSql for Code<T> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let text = value.as_str()?;
        T::from_code(text).map(Code).ok_or_else(|| {
            FromSqlError::Other(Box::new(UnknownCode {
                code: text.to_owned(),
                known: T::CODES,
            }))
        })
    }
}

impl<T: WireCode> ToSql for Code<T> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.code()))
    }
}

/// The value of column `index`, stored as a code.
pub(crate) fn code<T: WireCode>(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<T> {
    row.get::<_, Code<T>>(index).map(|code| code.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use liftdesk_domain::call::CallStatus;

    #[test]
    fn reads_and_writes_the_code_and_refuses_an_unknown_one() {
        let conn = rusqlite::Connection::open_in_memory().expect("memory");
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
