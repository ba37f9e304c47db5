//! The statements of the store's modules, in the store's own terms: what
//! an aggregate's file (`calls.rs`, `invoices.rs`…) uses to run its SQL,
//! bind its parameters and read its rows. None of these names the engine:
//! a module binds any [`ToValue`] (through [`params!`], an array, or
//! [`params_from_iter`]), reads any [`FromValue`] from a [`Row`], and gets
//! [`StoreError`]s. The engine is reached here and only here (and in the
//! engine's own files: connections, migrations, backups, the cache's change
//! counter, group commit), so a second engine is a second arm of the
//! matches below, not a change to the modules or to the operations above.
//!
//! The values are the five every SQL engine has: null, 64-bit integer,
//! double, text, bytes. Booleans are integers 0/1; days and instants are
//! text (`YYYY-MM-DD`, `…T…Z`); the domain's closed sets are their codes
//! (`Code<T>`). Reading follows the rules rusqlite had: an integer column
//! reads as a float, a text column never as a number, NULL only into an
//! `Option`.

use rusqlite::types::{ToSqlOutput, ValueRef as SqliteValue};

use crate::pg::PgConn;
use crate::{StoreError, StoreResult};

/// A value as bound to a statement or read from a row, borrowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// An owned value: parameters gathered at run time (a search's words, a
/// list's filters), or a column read whatever its type.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What can be bound to a statement's parameter.
pub trait ToValue {
    fn to_value(&self) -> StoreResult<ValueRef<'_>>;
}

/// What a column can be read as. The error says why the stored value is
/// not one (the row's reader adds which column).
pub trait FromValue: Sized {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String>;
}

/// The parameters of one statement: `params![a, b]`, an array of values of
/// one type (`[agency_id, id]`, `[]`), or `params_from_iter(values)`.
pub trait Params {
    /// Gives each value to `bind`, in order.
    fn each(self, bind: &mut dyn FnMut(ValueRef<'_>) -> StoreResult<()>) -> StoreResult<()>;
}

/// `params![a, b, c]`: parameters of different types.
#[macro_export]
macro_rules! params {
    () => {
        &[] as &[&dyn $crate::sql::ToValue]
    };
    ($($param:expr),+ $(,)?) => {
        &[$(&$param as &dyn $crate::sql::ToValue),+] as &[&dyn $crate::sql::ToValue]
    };
}
pub use crate::params;

/// Parameters from an iterator of values (a list built at run time).
pub struct ParamsFromIter<I>(I);

pub fn params_from_iter<I>(values: I) -> ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToValue,
{
    ParamsFromIter(values)
}

impl<I> Params for ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToValue,
{
    fn each(self, bind: &mut dyn FnMut(ValueRef<'_>) -> StoreResult<()>) -> StoreResult<()> {
        for value in self.0 {
            bind(value.to_value()?)?;
        }
        Ok(())
    }
}

impl Params for &[&dyn ToValue] {
    fn each(self, bind: &mut dyn FnMut(ValueRef<'_>) -> StoreResult<()>) -> StoreResult<()> {
        for value in self {
            bind(value.to_value()?)?;
        }
        Ok(())
    }
}

impl Params for [&dyn ToValue; 0] {
    fn each(self, _: &mut dyn FnMut(ValueRef<'_>) -> StoreResult<()>) -> StoreResult<()> {
        Ok(())
    }
}

macro_rules! array_params {
    ($($n:literal)+) => {$(
        impl<T: ToValue> Params for [T; $n] {
            fn each(
                self,
                bind: &mut dyn FnMut(ValueRef<'_>) -> StoreResult<()>,
            ) -> StoreResult<()> {
                for value in &self {
                    bind(value.to_value()?)?;
                }
                Ok(())
            }
        }
    )+};
}
array_params!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);

/// "No row" as `None` rather than [`StoreError::NotFound`], for a statement
/// that reads at most one row.
pub trait OptionalExtension<T> {
    fn optional(self) -> StoreResult<Option<T>>;
}

impl<T> OptionalExtension<T> for StoreResult<T> {
    fn optional(self) -> StoreResult<Option<T>> {
        match self {
            Ok(value) => Ok(Some(value)),
            Err(StoreError::NotFound) => Ok(None),
            Err(err) => Err(err),
        }
    }
}

// ---- values ----------------------------------------------------------------

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        match self {
            Some(value) => value.to_value(),
            None => Ok(ValueRef::Null),
        }
    }
}

impl ToValue for str {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(ValueRef::Text(self))
    }
}

impl ToValue for String {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(ValueRef::Text(self))
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(ValueRef::Blob(self))
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(ValueRef::Blob(self))
    }
}

impl ToValue for bool {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(ValueRef::Integer(i64::from(*self)))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(ValueRef::Real(*self))
    }
}

macro_rules! integer_values {
    ($($t:ty)+) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> StoreResult<ValueRef<'_>> {
                i64::try_from(*self)
                    .map(ValueRef::Integer)
                    .map_err(|_| StoreError::Encoding(format!("{self} : entier hors limites")))
            }
        }

        impl FromValue for $t {
            fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
                match value {
                    ValueRef::Integer(i) => {
                        <$t>::try_from(i).map_err(|_| format!("{i} hors limites"))
                    }
                    other => Err(mismatch("un entier", other)),
                }
            }
        }
    )+};
}
integer_values!(i8 i16 i32 i64 u8 u16 u32 u64 usize);

impl ToValue for Value {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(match self {
            Value::Null => ValueRef::Null,
            Value::Integer(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(text) => ValueRef::Text(text),
            Value::Blob(bytes) => ValueRef::Blob(bytes),
        })
    }
}

impl ToValue for ValueRef<'_> {
    fn to_value(&self) -> StoreResult<ValueRef<'_>> {
        Ok(*self)
    }
}

macro_rules! id_values {
    ($($t:ty)+) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> StoreResult<ValueRef<'_>> {
                Ok(ValueRef::Text(self.as_str()))
            }
        }

        impl FromValue for $t {
            fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
                String::from_value(value).map(<$t>::new)
            }
        }
    )+};
}
id_values!(
    liftdesk_domain::id::AgencyId
    liftdesk_domain::id::EquipmentId
    liftdesk_domain::id::ContractId
    liftdesk_domain::id::TechnicianId
    liftdesk_domain::id::SurveyId
    liftdesk_domain::id::QuoteId
    liftdesk_domain::id::CallId
    liftdesk_domain::id::VisitId
    liftdesk_domain::id::InvoiceId
    liftdesk_domain::id::ClientId
    liftdesk_domain::id::AccountId
    liftdesk_domain::id::OrganizationId
    liftdesk_domain::id::ContactId
    liftdesk_domain::id::BuildingId
    liftdesk_domain::id::DealId
    liftdesk_domain::id::ImportId
    liftdesk_domain::id::CredentialId
    liftdesk_domain::id::SessionId
);

/// What a stored value is, for a reading that refuses it.
pub(crate) fn mismatch(wanted: &str, value: ValueRef<'_>) -> String {
    let found = match value {
        ValueRef::Null => "NULL",
        ValueRef::Integer(_) => "un entier",
        ValueRef::Real(_) => "un nombre décimal",
        ValueRef::Text(_) => "un texte",
        ValueRef::Blob(_) => "des octets",
    };
    format!("{wanted} attendu, {found} trouvé")
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

impl FromValue for String {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Text(text) => Ok(text.to_owned()),
            other => Err(mismatch("un texte", other)),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Blob(bytes) => Ok(bytes.to_vec()),
            ValueRef::Text(text) => Ok(text.as_bytes().to_vec()),
            other => Err(mismatch("des octets", other)),
        }
    }
}

impl FromValue for bool {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Integer(i) => Ok(i != 0),
            other => Err(mismatch("un booléen (entier)", other)),
        }
    }
}

impl FromValue for f64 {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Real(f) => Ok(f),
            // An integer column reads as a float, as SQLite's own REAL
            // affinity would give it.
            ValueRef::Integer(i) => Ok(i as f64),
            other => Err(mismatch("un nombre", other)),
        }
    }
}

impl Value {
    /// The owned value of `value`.
    pub fn from_ref(value: ValueRef<'_>) -> Value {
        match value {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(text) => Value::Text(text.to_owned()),
            ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
        }
    }
}

impl FromValue for Value {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        Ok(match value {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(text) => Value::Text(text.to_owned()),
            ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
        })
    }
}

// ---- statements and rows ---------------------------------------------------

/// A prepared statement of one of the store's connections.
pub struct Statement<'c> {
    inner: Prepared<'c>,
}

/// The engine's statement: kept in the connection's cache, or not; on
/// PostgreSQL, with the values bound to it until it runs.
enum Prepared<'c> {
    SqliteCached(rusqlite::CachedStatement<'c>),
    Sqlite(rusqlite::Statement<'c>),
    Postgres {
        conn: &'c PgConn,
        statement: tokio_postgres::Statement,
        bound: Vec<Value>,
    },
}

impl<'c> Statement<'c> {
    pub(crate) fn sqlite_cached(statement: rusqlite::CachedStatement<'c>) -> Self {
        Statement {
            inner: Prepared::SqliteCached(statement),
        }
    }

    pub(crate) fn sqlite(statement: rusqlite::Statement<'c>) -> Self {
        Statement {
            inner: Prepared::Sqlite(statement),
        }
    }

    pub(crate) fn postgres(conn: &'c PgConn, statement: tokio_postgres::Statement) -> Self {
        Statement {
            inner: Prepared::Postgres {
                conn,
                statement,
                bound: Vec::new(),
            },
        }
    }

    /// Binds `params` to the statement's parameters, all of them.
    fn bind(&mut self, params: impl Params) -> StoreResult<()> {
        let (expected, mut bound) = match &mut self.inner {
            Prepared::SqliteCached(statement) => (statement.parameter_count(), 0),
            Prepared::Sqlite(statement) => (statement.parameter_count(), 0),
            Prepared::Postgres {
                statement, bound, ..
            } => {
                bound.clear();
                (statement.params().len(), 0)
            }
        };
        let inner = &mut self.inner;
        params.each(&mut |value| {
            bound += 1;
            if bound > expected {
                return Err(parameter_count(expected, bound));
            }
            match inner {
                Prepared::SqliteCached(statement) => {
                    statement.raw_bind_parameter(bound, SqliteBind(value))?
                }
                Prepared::Sqlite(statement) => {
                    statement.raw_bind_parameter(bound, SqliteBind(value))?
                }
                Prepared::Postgres { bound: values, .. } => {
                    values.push(Value::from_ref(value));
                }
            }
            Ok(())
        })?;
        if bound != expected {
            return Err(parameter_count(expected, bound));
        }
        Ok(())
    }

    /// Runs the statement; how many rows it changed.
    pub fn execute(&mut self, params: impl Params) -> StoreResult<usize> {
        self.bind(params)?;
        match &mut self.inner {
            Prepared::SqliteCached(statement) => Ok(statement.raw_execute()?),
            Prepared::Sqlite(statement) => Ok(statement.raw_execute()?),
            Prepared::Postgres {
                conn,
                statement,
                bound,
            } => conn.execute(statement, bound),
        }
    }

    /// Runs the statement, a write whose answer nobody reads (a journal
    /// entry): on PostgreSQL sent without waiting, its answer brought by
    /// the next statement's round trip, its failure told there, the
    /// COMMIT's at the latest (`PgConn::execute_deferred`); on SQLite run.
    pub fn execute_deferred(&mut self, params: impl Params) -> StoreResult<()> {
        self.bind(params)?;
        match &mut self.inner {
            Prepared::SqliteCached(statement) => statement.raw_execute().map(drop)?,
            Prepared::Sqlite(statement) => statement.raw_execute().map(drop)?,
            Prepared::Postgres {
                conn,
                statement,
                bound,
            } => conn.execute_deferred(statement, std::mem::take(bound)),
        }
        Ok(())
    }

    /// The rows the statement gives.
    pub fn query(&mut self, params: impl Params) -> StoreResult<Rows<'_>> {
        self.bind(params)?;
        Ok(Rows {
            inner: match &mut self.inner {
                Prepared::SqliteCached(statement) => EngineRows::Sqlite(statement.raw_query()),
                Prepared::Sqlite(statement) => EngineRows::Sqlite(statement.raw_query()),
                Prepared::Postgres {
                    conn,
                    statement,
                    bound,
                } => EngineRows::Postgres {
                    rows: conn.query(statement, bound)?,
                    next: 0,
                },
            },
        })
    }

    /// The first row, read by `read`; [`StoreError::NotFound`] if none.
    pub fn query_row<T>(
        &mut self,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let mut rows = self.query(params)?;
        match rows.next()? {
            Some(row) => read(&row),
            None => Err(StoreError::NotFound),
        }
    }

    /// Every row, each read by `read`.
    pub fn query_map<T, F>(
        &mut self,
        params: impl Params,
        read: F,
    ) -> StoreResult<MappedRows<'_, F>>
    where
        F: FnMut(&Row<'_>) -> StoreResult<T>,
    {
        Ok(MappedRows {
            rows: self.query(params)?,
            read,
        })
    }
}

fn parameter_count(expected: usize, given: usize) -> StoreError {
    StoreError::Encoding(format!(
        "{given} paramètres donnés à une requête qui en attend {expected}"
    ))
}

/// A value bound to a SQLite statement, as rusqlite takes it.
struct SqliteBind<'a>(ValueRef<'a>);

impl rusqlite::ToSql for SqliteBind<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self.0 {
            ValueRef::Null => SqliteValue::Null,
            ValueRef::Integer(i) => SqliteValue::Integer(i),
            ValueRef::Real(f) => SqliteValue::Real(f),
            ValueRef::Text(text) => SqliteValue::Text(text.as_bytes()),
            ValueRef::Blob(bytes) => SqliteValue::Blob(bytes),
        }))
    }
}

/// The rows of a statement, read one after the other.
pub struct Rows<'s> {
    inner: EngineRows<'s>,
}

enum EngineRows<'s> {
    Sqlite(rusqlite::Rows<'s>),
    /// PostgreSQL answers every row at once.
    Postgres {
        rows: Vec<tokio_postgres::Row>,
        next: usize,
    },
}

impl Rows<'_> {
    /// The next row. Not an `Iterator`: each row borrows the statement
    /// until the next one is read (as rusqlite's own rows do).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> StoreResult<Option<Row<'_>>> {
        match &mut self.inner {
            EngineRows::Sqlite(rows) => Ok(rows.next()?.map(|row| Row {
                inner: EngineRow::Sqlite(row),
            })),
            EngineRows::Postgres { rows, next } => {
                let row = rows.get(*next);
                *next += 1;
                Ok(row.map(|row| Row {
                    inner: EngineRow::Postgres(row),
                }))
            }
        }
    }
}

/// The rows of a statement, each read by a function.
pub struct MappedRows<'s, F> {
    rows: Rows<'s>,
    read: F,
}

impl<T, F> Iterator for MappedRows<'_, F>
where
    F: FnMut(&Row<'_>) -> StoreResult<T>,
{
    type Item = StoreResult<T>;

    fn next(&mut self) -> Option<StoreResult<T>> {
        match self.rows.next() {
            Ok(Some(row)) => Some((self.read)(&row)),
            Ok(None) => None,
            Err(err) => Some(Err(err)),
        }
    }
}

/// One row of a result.
pub struct Row<'r> {
    inner: EngineRow<'r>,
}

enum EngineRow<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    Postgres(&'r tokio_postgres::Row),
}

impl Row<'_> {
    /// How many columns the row has.
    pub fn column_count(&self) -> usize {
        match &self.inner {
            EngineRow::Sqlite(row) => row.as_ref().column_count(),
            EngineRow::Postgres(row) => row.len(),
        }
    }

    /// Column `index` (from 0), read as `T`.
    pub fn get<T: FromValue>(&self, index: usize) -> StoreResult<T> {
        let value = match &self.inner {
            EngineRow::Sqlite(row) => match row.get_ref(index)? {
                SqliteValue::Null => ValueRef::Null,
                SqliteValue::Integer(i) => ValueRef::Integer(i),
                SqliteValue::Real(f) => ValueRef::Real(f),
                SqliteValue::Text(bytes) => {
                    ValueRef::Text(std::str::from_utf8(bytes).map_err(|err| {
                        StoreError::Encoding(format!("colonne {index} : texte invalide ({err})"))
                    })?)
                }
                SqliteValue::Blob(bytes) => ValueRef::Blob(bytes),
            },
            EngineRow::Postgres(row) => crate::pg::cell(row, index)?,
        };
        T::from_value(value).map_err(|why| StoreError::Encoding(format!("{why} (colonne {index})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Conn;

    fn memory() -> rusqlite::Connection {
        rusqlite::Connection::open_in_memory().expect("memory")
    }

    #[test]
    fn values_go_in_and_come_back_as_they_were() -> StoreResult<()> {
        let conn = Conn::sqlite_conn(memory());
        let back: (String, i64, f64, bool, Option<String>, Vec<u8>) = conn.query_row(
            "SELECT ?1, ?2, ?3, ?4, ?5, ?6",
            params![
                "été",
                42_i64,
                1.5_f64,
                true,
                None::<String>,
                vec![0_u8, 255]
            ],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
        )?;
        assert_eq!(back, ("été".to_owned(), 42, 1.5, true, None, vec![0, 255]));
        let many: Vec<i64> = conn
            .prepare("SELECT value FROM json_each(?1) ORDER BY value")?
            .query_map(["[3, 1, 2]"], |r| r.get(0))?
            .collect::<StoreResult<_>>()?;
        assert_eq!(many, [1, 2, 3]);
        let gathered = [Value::Integer(7), Value::Text("x".into())];
        let echoed: (i64, String) =
            conn.query_row("SELECT ?, ?", params_from_iter(gathered.iter()), |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        assert_eq!(echoed, (7, "x".to_owned()));
        Ok(())
    }

    #[test]
    fn a_value_of_another_type_or_a_missing_row_is_told() {
        let conn = Conn::sqlite_conn(memory());
        let text_as_number = conn.query_row("SELECT 'douze'", [], |r| r.get::<i64>(0));
        assert!(
            matches!(&text_as_number, Err(StoreError::Encoding(why)) if why == "un entier attendu, un texte trouvé (colonne 0)"),
            "{text_as_number:?}"
        );
        let null_as_text = conn.query_row("SELECT NULL", [], |r| r.get::<String>(0));
        assert!(matches!(null_as_text, Err(StoreError::Encoding(_))));
        let too_big = conn.query_row("SELECT 5000000000", [], |r| r.get::<i32>(0));
        assert!(matches!(too_big, Err(StoreError::Encoding(_))));
        let integer_as_float = conn.query_row("SELECT 3", [], |r| r.get::<f64>(0));
        assert_eq!(integer_as_float.ok(), Some(3.0));
        let none = conn
            .query_row("SELECT 1 WHERE 0", [], |r| r.get::<i64>(0))
            .optional();
        assert!(matches!(none, Ok(None)));
        let missing = conn.query_row("SELECT 1 WHERE 0", [], |r| r.get::<i64>(0));
        assert!(matches!(missing, Err(StoreError::NotFound)));
        let wrong_count = conn.query_row("SELECT ?1, ?2", ["seul"], |r| r.get::<String>(0));
        assert!(
            matches!(wrong_count, Err(StoreError::Encoding(_))),
            "{wrong_count:?}"
        );
        let out_of_range = conn.query_row("SELECT ?1", [u64::MAX], |r| r.get::<i64>(0));
        assert!(matches!(out_of_range, Err(StoreError::Encoding(_))));
    }
}
