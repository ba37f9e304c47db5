//! French text in SQL: the collation and the `FOLD` function registered on
//! every connection, the same rules as `liftdesk_domain::text` (re-exported
//! here, where the store's callers have always found them).

pub use liftdesk_domain::text::{fold, french_order};

/// Name of the SQLite collation registered on every connection.
pub const FRENCH_COLLATION: &str = "FRANCAIS";

/// Name of the SQLite function registered on every connection: `FOLD(text)`
/// is [`fold`] (NULL stays NULL), so that a search compares folded texts in
/// SQL and pages there.
pub const FOLD_FUNCTION: &str = "FOLD";

/// Registers [`FOLD_FUNCTION`] on a connection.
pub(crate) fn register_fold(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    use rusqlite::functions::FunctionFlags;
    conn.create_scalar_function(
        FOLD_FUNCTION,
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            use rusqlite::types::ValueRef;
            Ok(match ctx.get_raw(0) {
                ValueRef::Text(bytes) => Some(fold(&String::from_utf8_lossy(bytes))),
                ValueRef::Integer(number) => Some(number.to_string()),
                ValueRef::Real(number) => Some(number.to_string()),
                ValueRef::Null | ValueRef::Blob(_) => None,
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql_fold_is_the_same_folding() -> rusqlite::Result<()> {
        let conn = rusqlite::Connection::open_in_memory()?;
        register_fold(&conn)?;
        let (text, null, number): (String, Option<String>, String) = conn.query_row(
            "SELECT FOLD('Syndic ÉTOILE Cœur'), FOLD(NULL), FOLD(42)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        assert_eq!(text, "syndic etoile coeur");
        assert_eq!(null, None);
        assert_eq!(number, "42");
        Ok(())
    }
}
