//! The PostgreSQL engine's own file: its connections (set up the same way
//! each time: UTC, the store's statements prepared once per connection and
//! kept), its values (the five of `sql.rs` bound to and read from
//! PostgreSQL's types), and its failures as `StoreError`s. The store's
//! statements reach it through `sql.rs` and `tx.rs`, rewritten by
//! `dialect.rs`; nothing above the store names it.
//!
//! The client is tokio-postgres. Its connections (the sockets) are driven
//! by a small runtime of the store's own, started once for the process and
//! never dropped; the store's work waits for their answers on whatever
//! thread runs it (`futures_executor::block_on`: a blocking thread of the
//! server, the command line's main thread, a request's inline read), as it
//! waits for SQLite.

use std::cell::RefCell;
use std::collections::HashMap;
use std::error::Error;
use std::future::Future;
use std::sync::OnceLock;

use tokio_postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

use crate::dialect;
use crate::sql::{Value, ValueRef};
use crate::{EngineError, StoreError, StoreResult};

/// Prepared statements kept per connection (as `STATEMENT_CACHE_CAPACITY`
/// for SQLite): past it the connection forgets them all and prepares again.
const PREPARED_CAPACITY: usize = 1024;

/// The runtime that drives every PostgreSQL connection of the process.
fn runtime() -> StoreResult<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("liftdesk-pg")
                .enable_all()
                .build()
                .map_err(|err| err.to_string())
        })
        .as_ref()
        .map_err(|err| StoreError::Engine(EngineError::new(std::io::Error::other(err.clone()))))
}

/// Runs `work` on the PostgreSQL runtime and waits for it here.
pub(crate) fn run<T: Send + 'static>(
    work: impl Future<Output = T> + Send + 'static,
) -> StoreResult<T> {
    let handle = runtime()?.spawn(work);
    futures_executor::block_on(handle).map_err(|err| StoreError::Join(err.to_string()))
}

/// A statement sent whose answer is awaited later: how many rows it changed.
type Pending = std::pin::Pin<Box<dyn Future<Output = Result<u64, tokio_postgres::Error>> + Send>>;

/// A connection to the PostgreSQL database, with its prepared statements
/// (keyed by the store's SQLite text).
pub(crate) struct PgConn {
    client: std::sync::Arc<tokio_postgres::Client>,
    /// Statements sent and not yet answered ([`PgConn::execute_deferred`]):
    /// their answers are waited for with the next statement's.
    pending: RefCell<Vec<Pending>>,
    prepared: RefCell<HashMap<String, tokio_postgres::Statement>>,
    /// Inside a transaction (BEGIN run, COMMIT or ROLLBACK not yet): a
    /// statement prepared for the first time then is tried under a
    /// savepoint, since a refused one would abort the transaction.
    in_transaction: std::cell::Cell<bool>,
    /// A statement naming the webhooks' tables was prepared or run since
    /// [`PgConn::take_webhook_rows`]: SQLite's update hook, as PostgreSQL
    /// gives none (`Store::write_blocking` wakes the webhook task).
    webhook_rows: std::cell::Cell<bool>,
}

impl PgConn {
    /// Connects to `url` and sets the session up.
    pub(crate) fn connect(url: &str) -> StoreResult<PgConn> {
        let shown = redacted(url);
        let url = url.to_owned();
        let client = run(async move {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
            tokio::spawn(async move {
                if let Err(err) = connection.await {
                    tracing::warn!(error = %err, "connexion PostgreSQL interrompue");
                }
            });
            // Instants are stored as text, but `julianday` reads them in UTC.
            client
                .batch_execute("SET TIME ZONE 'UTC'; SET client_min_messages = WARNING")
                .await?;
            Ok::<_, tokio_postgres::Error>(client)
        })?
        .map_err(|source| StoreError::Open {
            path: shown,
            source: EngineError::new(source),
        })?;
        Ok(PgConn {
            client: std::sync::Arc::new(client),
            pending: RefCell::new(Vec::new()),
            prepared: RefCell::new(HashMap::new()),
            in_transaction: std::cell::Cell::new(false),
            webhook_rows: std::cell::Cell::new(false),
        })
    }

    /// Whether the connection can still be used (kept in the pool).
    /// Whether a statement naming the webhooks' tables was prepared or run
    /// since the last call.
    pub(crate) fn take_webhook_rows(&self) -> bool {
        self.webhook_rows.replace(false)
    }

    pub(crate) fn is_usable(&self) -> bool {
        !self.client.is_closed()
    }

    /// `sql` (SQLite's dialect) prepared on this connection, once.
    pub(crate) fn prepare(&self, sql: &str) -> StoreResult<tokio_postgres::Statement> {
        if crate::WEBHOOK_TABLES
            .iter()
            .any(|table| sql.contains(table))
        {
            self.webhook_rows.set(true);
        }
        if let Some(statement) = self.prepared.borrow().get(sql) {
            return Ok(statement.clone());
        }
        // Preparing waits for its answer: the deferred statements' first.
        self.settle()?;
        let text = dialect::to_postgres(sql).map_err(StoreError::Encoding)?;
        let guarded = self.in_transaction.get();
        if guarded {
            self.batch("SAVEPOINT liftdesk_prepare")?;
        }
        let statement = self.prepare_inferring(&text, guarded);
        if guarded {
            match &statement {
                Ok(_) => self.batch("RELEASE SAVEPOINT liftdesk_prepare")?,
                Err(_) => self.batch(
                    "ROLLBACK TO SAVEPOINT liftdesk_prepare; RELEASE SAVEPOINT liftdesk_prepare",
                )?,
            }
        }
        let statement = statement.map_err(|err| traced(err, "préparation", &text))?;
        let mut prepared = self.prepared.borrow_mut();
        if prepared.len() >= PREPARED_CAPACITY {
            prepared.clear();
        }
        prepared.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    /// Prepares `text`, giving a type to each parameter PostgreSQL cannot
    /// infer: SQLite's `(?2 IS NULL OR status = ?2)` (an optional filter)
    /// uses `?2` first where any type would do. Such a parameter is tried
    /// as a text, then an integer, then a float, until PostgreSQL accepts
    /// the statement; the statement is then kept, so this happens once per
    /// connection.
    /// Under a savepoint (`guarded`), each refusal is rolled back to it
    /// before the next try.
    fn prepare_inferring(
        &self,
        text: &str,
        guarded: bool,
    ) -> Result<tokio_postgres::Statement, tokio_postgres::Error> {
        use tokio_postgres::error::SqlState;
        const CANDIDATES: [Type; 3] = [Type::TEXT, Type::INT8, Type::FLOAT8];
        let mut types: Vec<Type> = Vec::new();
        // The parameters given a type, with the candidate tried.
        let mut guessed: Vec<(usize, usize)> = Vec::new();
        loop {
            let err = match futures_executor::block_on(self.client.prepare_typed(text, &types)) {
                Ok(statement) => return Ok(statement),
                Err(err) => err,
            };
            if guarded
                && futures_executor::block_on(
                    self.client
                        .batch_execute("ROLLBACK TO SAVEPOINT liftdesk_prepare"),
                )
                .is_err()
            {
                return Err(err);
            }
            let Some(db) = err.as_db_error() else {
                return Err(err);
            };
            // 42P08 (PostgreSQL 15 says so of a parameter it cannot type),
            // 42P18.
            if *db.code() == SqlState::AMBIGUOUS_PARAMETER
                || *db.code() == SqlState::INDETERMINATE_DATATYPE
            {
                let Some(n) = db
                    .message()
                    .rsplit('$')
                    .next()
                    .and_then(|n| n.trim().parse::<usize>().ok())
                    .filter(|n| *n >= 1 && !guessed.iter().any(|(g, _)| g + 1 == *n))
                else {
                    return Err(err);
                };
                if types.len() < n {
                    types.resize(n, Type::UNKNOWN);
                }
                types[n - 1] = CANDIDATES[0].clone();
                guessed.push((n - 1, 0));
                continue;
            }
            // The last guess did not suit the statement: its next type.
            let wrong_type = *db.code() == SqlState::UNDEFINED_FUNCTION
                || *db.code() == SqlState::DATATYPE_MISMATCH;
            match guessed.last_mut() {
                Some((index, tried)) if wrong_type && *tried + 1 < CANDIDATES.len() => {
                    *tried += 1;
                    types[*index] = CANDIDATES[*tried].clone();
                }
                _ => return Err(err),
            }
        }
    }

    /// Runs `statement` with `params`; how many rows it changed.
    pub(crate) fn execute(
        &self,
        statement: &tokio_postgres::Statement,
        params: &[Value],
    ) -> StoreResult<usize> {
        let params: Vec<PgParam<'_>> = params.iter().map(PgParam).collect();
        let refs: Vec<&(dyn ToSql + Sync)> =
            params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
        let changed = self
            .after_pending(self.client.execute(statement, &refs))?
            .map_err(|err| traced(err, "exécution", &format!("{:?}", statement.params())))?;
        usize::try_from(changed).map_err(StoreError::encoding)
    }

    /// Sends `statement` with `params` and goes on without waiting for its
    /// answer, which the next statement's round trip brings
    /// ([`PgConn::after_pending`]): for a write whose result nobody reads
    /// (a journal entry). Its failure is told by the next statement, the
    /// COMMIT at the latest, and PostgreSQL refuses every statement of the
    /// transaction after it, so nothing is committed without it.
    pub(crate) fn execute_deferred(
        &self,
        statement: &tokio_postgres::Statement,
        params: Vec<Value>,
    ) {
        let client = std::sync::Arc::clone(&self.client);
        let statement = statement.clone();
        let mut request: Pending = Box::pin(async move {
            let params: Vec<PgParam<'_>> = params.iter().map(PgParam).collect();
            let refs: Vec<&(dyn ToSql + Sync)> =
                params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
            client.execute(&statement, &refs).await
        });
        // The first poll sends the request; it cannot be answered yet.
        let polled = request
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        if let std::task::Poll::Ready(answer) = polled {
            request = Box::pin(std::future::ready(answer));
        }
        self.pending.borrow_mut().push(request);
    }

    /// Waits for `request`, sent first, and for the deferred statements
    /// sent before it, answered before it: one round trip for all. A
    /// deferred statement's failure is the error (the request then failed
    /// too, its transaction being aborted).
    fn after_pending<T>(&self, request: impl Future<Output = T>) -> StoreResult<T> {
        let pending = std::mem::take(&mut *self.pending.borrow_mut());
        if pending.is_empty() {
            return Ok(futures_executor::block_on(request));
        }
        let mut request = std::pin::pin!(request);
        let polled = request
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        for earlier in pending {
            futures_executor::block_on(earlier)
                .map_err(|err| traced(err, "exécution", "écriture différée"))?;
        }
        Ok(match polled {
            std::task::Poll::Ready(answer) => answer,
            std::task::Poll::Pending => futures_executor::block_on(request),
        })
    }

    /// Waits for the deferred statements' answers: the first failure.
    pub(crate) fn settle(&self) -> StoreResult<()> {
        self.after_pending(std::future::ready(()))
    }

    /// The rows `statement` gives with `params`.
    pub(crate) fn query(
        &self,
        statement: &tokio_postgres::Statement,
        params: &[Value],
    ) -> StoreResult<Vec<tokio_postgres::Row>> {
        let params: Vec<PgParam<'_>> = params.iter().map(PgParam).collect();
        let refs: Vec<&(dyn ToSql + Sync)> =
            params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
        Ok(self.after_pending(self.client.query(statement, &refs))??)
    }

    /// Runs statements without parameters (transaction control).
    pub(crate) fn batch(&self, sql: &str) -> StoreResult<()> {
        let result = self.after_pending(self.client.batch_execute(sql));
        let ok = matches!(result, Ok(Ok(())));
        self.follow_transaction(sql, ok);
        Ok(result??)
    }

    /// Sends statements without parameters (a transaction's BEGIN and
    /// locks, a read's ROLLBACK) and goes on without waiting for their
    /// answer: the connection runs its requests in order, so they run
    /// before the next one, whose round trip they share. Their failure
    /// shows there: after a failed BEGIN's lock, PostgreSQL refuses every
    /// statement of the transaction (`25P02`), so nothing is written
    /// outside it; a failed ROLLBACK is a lost connection, which the next
    /// request finds. (The answer, sent after the request's future is
    /// dropped, is read and dropped by the connection.)
    pub(crate) fn send(&self, sql: &str) {
        let mut request = std::pin::pin!(self.client.batch_execute(sql));
        // The first poll queues the request on the connection; it cannot
        // be answered yet.
        let _ = request
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        self.follow_transaction(sql, true);
    }

    /// Whether the connection is in a transaction after `sql` ran (`ok`).
    fn follow_transaction(&self, sql: &str, ok: bool) {
        let head = sql
            .trim_start()
            .get(..11)
            .unwrap_or(sql)
            .to_ascii_uppercase();
        if head.starts_with("BEGIN") {
            self.in_transaction.set(ok);
        } else if head.starts_with("COMMIT")
            || (head.starts_with("ROLLBACK") && !head.starts_with("ROLLBACK TO"))
        {
            self.in_transaction.set(false);
        }
    }
}

impl PgConn {
    /// The snapshot a statement run now would see (`pg_current_snapshot()`,
    /// as text): inside a write transaction, under the store's write lock
    /// and before its first write, it changes with every write committed
    /// since, on any server (`Store::write_with_kept`).
    pub(crate) fn current_snapshot(&self) -> StoreResult<String> {
        let answer = futures_executor::block_on(
            self.client
                .simple_query("SELECT pg_current_snapshot()::text"),
        )?;
        answer
            .into_iter()
            .find_map(|message| match message {
                tokio_postgres::SimpleQueryMessage::Row(row) => row.get(0).map(str::to_owned),
                _ => None,
            })
            .ok_or_else(|| {
                StoreError::Encoding("instantané PostgreSQL absent de la réponse".to_owned())
            })
    }

    /// Begins a read-only REPEATABLE READ transaction and answers its
    /// snapshot (`pg_current_snapshot()`, as text), in one round trip: the
    /// two statements go as one simple query, the snapshot being taken by
    /// the transaction's first statement and kept to its end.
    pub(crate) fn begin_read_with_snapshot(&self) -> StoreResult<String> {
        let result = futures_executor::block_on(self.client.simple_query(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT pg_current_snapshot()::text",
        ));
        // Whatever the answer, the BEGIN may have run: ROLLBACK follows.
        self.in_transaction.set(true);
        let snapshot = result?.into_iter().find_map(|message| match message {
            tokio_postgres::SimpleQueryMessage::Row(row) => row.get(0).map(str::to_owned),
            _ => None,
        });
        snapshot.ok_or_else(|| {
            StoreError::Encoding("instantané PostgreSQL absent de la réponse".to_owned())
        })
    }
}

/// Runs `runner`'s migrations on the database at `url`, on a connection of
/// their own. Two servers starting together on a new database: one
/// migrates, the other waits for it (an advisory lock), then finds nothing
/// left to run.
pub(crate) fn migrate(url: &str, runner: refinery::Runner) -> StoreResult<()> {
    const MIGRATION_LOCK: i64 = 7_146_907_365_028_372;
    let url = url.to_owned();
    run(async move {
        let (mut client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .map_err(StoreError::from)?;
        tokio::spawn(connection);
        client
            .execute(
                "SELECT pg_advisory_lock($1 # hashtext(current_schema())::bigint)",
                &[&MIGRATION_LOCK],
            )
            .await?;
        let ran = runner
            .run_async(&mut client)
            .await
            .map(|_| ())
            .map_err(|err| StoreError::Migration(err.to_string()));
        client
            .execute(
                "SELECT pg_advisory_unlock($1 # hashtext(current_schema())::bigint)",
                &[&MIGRATION_LOCK],
            )
            .await?;
        ran
    })?
}

/// `err` as a store error, logged at debug level with what failed (`step`)
/// and on what (`what`: the statement, or its parameters' types); under
/// `LIFTDESK_PG_TRACE`, also on standard error (a development aid).
fn traced(err: tokio_postgres::Error, step: &str, what: &str) -> StoreError {
    let err = StoreError::from(err);
    tracing::debug!(%step, %what, error = %err, "requête refusée par PostgreSQL");
    if std::env::var_os("LIFTDESK_PG_TRACE").is_some() {
        eprintln!("PGTRACE {step} : {err}\n  {what}");
    }
    err
}

/// `url` without its password, for messages and logs.
pub(crate) fn redacted(url: &str) -> String {
    match url.parse::<tokio_postgres::Config>() {
        Ok(config) => {
            let host = config
                .get_hosts()
                .first()
                .map(|h| match h {
                    tokio_postgres::config::Host::Tcp(name) => name.clone(),
                    tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
                })
                .unwrap_or_default();
            let port = config.get_ports().first().copied().unwrap_or(5432);
            format!(
                "postgresql://{}@{host}:{port}/{}",
                config.get_user().unwrap_or(""),
                config.get_dbname().unwrap_or("")
            )
        }
        Err(_) => "postgresql://…".to_owned(),
    }
}

/// Column `index` of `row` as one of the store's values.
pub(crate) fn cell(row: &tokio_postgres::Row, index: usize) -> StoreResult<ValueRef<'_>> {
    row.try_get::<_, PgCell<'_>>(index)
        .map(|cell| cell.0)
        .map_err(|err| StoreError::Encoding(format!("colonne {index} : {err}")))
}

/// A value bound to a PostgreSQL parameter: converted to the parameter's
/// type as PostgreSQL inferred it (an integer bound where PostgreSQL wants
/// an `int4`, a boolean, a float or a text).
#[derive(Debug)]
struct PgParam<'a>(&'a Value);

type BoxError = Box<dyn Error + Sync + Send>;

impl ToSql for PgParam<'_> {
    fn to_sql(&self, ty: &Type, out: &mut bytes::BytesMut) -> Result<IsNull, BoxError> {
        match (self.0, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Integer(i), &Type::INT8) => i.to_sql(ty, out),
            (Value::Integer(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (Value::Integer(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (Value::Integer(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (Value::Integer(i), &Type::FLOAT4) => (*i as f32).to_sql(ty, out),
            (Value::Integer(i), &Type::BOOL) => (*i != 0).to_sql(ty, out),
            (Value::Integer(i), &Type::NUMERIC) => numeric(&i.to_string(), out),
            (Value::Integer(i), _) => i.to_string().as_str().to_sql(&Type::TEXT, out),
            (Value::Real(f), &Type::FLOAT8) => f.to_sql(ty, out),
            (Value::Real(f), &Type::FLOAT4) => (*f as f32).to_sql(ty, out),
            (Value::Real(f), &Type::NUMERIC) => numeric(&f.to_string(), out),
            (Value::Real(f), _) => f.to_string().as_str().to_sql(&Type::TEXT, out),
            (Value::Text(text), &Type::INT8) => text.parse::<i64>()?.to_sql(ty, out),
            (Value::Text(text), &Type::INT4) => text.parse::<i32>()?.to_sql(ty, out),
            (Value::Text(text), &Type::FLOAT8) => text.parse::<f64>()?.to_sql(ty, out),
            (Value::Text(text), &Type::BYTEA) => text.as_bytes().to_sql(ty, out),
            (Value::Text(text), _) if text.contains('\0') => {
                without_nul(text).as_str().to_sql(&Type::TEXT, out)
            }
            (Value::Text(text), _) => text.as_str().to_sql(&Type::TEXT, out),
            (Value::Blob(bytes), _) => bytes.as_slice().to_sql(&Type::BYTEA, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// `text` with each U+0000 as U+0001. PostgreSQL's text cannot hold
/// U+0000 (SQLite's can), and refuses a parameter that has one. No stored
/// text has either (every free text the store keeps was checked for control
/// characters, `text::field`), so what reaches here is a lookup or a
/// search with one (`/clients/%00`, a fuzzer's identifier): it finds
/// nothing, as it finds nothing on SQLite, instead of failing.
fn without_nul(text: &str) -> String {
    text.replace('\0', "\u{1}")
}

/// [`without_nul`] of every text of `value`, a statement's values given as
/// one JSON parameter (PostgreSQL's JSON can hold U+0000, not its text).
pub(crate) fn without_nul_in(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(text) if text.contains('\0') => *text = without_nul(text),
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_nul_in),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(without_nul_in),
        _ => {}
    }
}

/// A decimal text as PostgreSQL's binary `numeric`.
fn numeric(text: &str, out: &mut bytes::BytesMut) -> Result<IsNull, BoxError> {
    use bytes::BufMut;
    let negative = text.starts_with('-');
    let digits = text.trim_start_matches('-');
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if !whole
        .chars()
        .chain(fraction.chars())
        .all(|c| c.is_ascii_digit())
    {
        return Err(format!("nombre illisible : {text}").into());
    }
    // Base-10000 groups, aligned on the decimal point.
    let pad_left = (4 - whole.len() % 4) % 4;
    let whole = format!("{}{whole}", "0".repeat(pad_left));
    let pad_right = (4 - fraction.len() % 4) % 4;
    let fraction_padded = format!("{fraction}{}", "0".repeat(pad_right));
    let mut groups: Vec<i16> = Vec::new();
    for chunk in whole
        .as_bytes()
        .chunks(4)
        .chain(fraction_padded.as_bytes().chunks(4))
    {
        groups.push(std::str::from_utf8(chunk)?.parse::<i16>()?);
    }
    let weight = i16::try_from(whole.len() / 4)? - 1;
    out.put_i16(i16::try_from(groups.len())?);
    out.put_i16(weight);
    out.put_u16(if negative { 0x4000 } else { 0 });
    out.put_u16(u16::try_from(fraction.len())?);
    for group in groups {
        out.put_i16(group);
    }
    Ok(IsNull::No)
}

/// A column read from PostgreSQL as one of the store's values: integers of
/// any width and booleans as integers, `numeric` (what `SUM` of integers
/// gives) as an integer when it has no decimals, floats, texts, bytes.
struct PgCell<'a>(ValueRef<'a>);

impl<'a> FromSql<'a> for PgCell<'a> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(PgCell(match *ty {
            Type::INT8 => ValueRef::Integer(i64::from_sql(ty, raw)?),
            Type::INT4 => ValueRef::Integer(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => ValueRef::Integer(i64::from(i16::from_sql(ty, raw)?)),
            Type::OID => ValueRef::Integer(i64::from(u32::from_sql(ty, raw)?)),
            Type::BOOL => ValueRef::Integer(i64::from(bool::from_sql(ty, raw)?)),
            Type::FLOAT8 => ValueRef::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => ValueRef::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::NUMERIC => read_numeric(raw)?,
            Type::BYTEA => ValueRef::Blob(raw),
            _ => ValueRef::Text(<&str>::from_sql(&Type::TEXT, raw)?),
        }))
    }

    fn from_sql_null(_: &Type) -> Result<Self, BoxError> {
        Ok(PgCell(ValueRef::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// PostgreSQL's binary `numeric`: an integer when it has no decimals and
/// fits, a float otherwise.
fn read_numeric(raw: &[u8]) -> Result<ValueRef<'static>, BoxError> {
    let word = |i: usize| -> Result<u16, BoxError> {
        let bytes = raw.get(i..i + 2).ok_or("numeric tronqué")?;
        Ok(u16::from_be_bytes([bytes[0], bytes[1]]))
    };
    let count = usize::from(word(0)?);
    let weight = i32::from(word(2)? as i16);
    let sign = word(4)?;
    let scale = word(6)?;
    if sign == 0xC000 {
        return Err("numeric NaN".into());
    }
    let mut integer: Option<i128> = Some(0);
    let mut float = 0f64;
    for k in 0..count {
        let digit = i128::from(word(8 + 2 * k)?);
        let power = weight - k as i32;
        float += digit as f64 * 10000f64.powi(power);
        integer = match (integer, power) {
            (Some(sum), p) if p >= 0 => 10000i128
                .checked_pow(p as u32)
                .and_then(|m| m.checked_mul(digit))
                .and_then(|v| sum.checked_add(v)),
            (Some(sum), _) if digit == 0 => Some(sum),
            _ => None,
        };
    }
    let negative = sign == 0x4000;
    match integer.and_then(|i| i64::try_from(if negative { -i } else { i }).ok()) {
        Some(i) if scale == 0 => Ok(ValueRef::Integer(i)),
        _ => Ok(ValueRef::Real(if negative { -float } else { float })),
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(err: tokio_postgres::Error) -> Self {
        use tokio_postgres::error::SqlState;
        let Some(db) = err.as_db_error() else {
            return Self::Engine(EngineError::new(err));
        };
        let code = db.code().clone();
        // PostgreSQL's own words (its message, detail, where), kept as the
        // cause: logged, never shown.
        let told = || {
            let mut text = format!("{} ({})", db.message(), db.code().code());
            if let Some(detail) = db.detail() {
                text.push_str(&format!(" ; {detail}"));
            }
            if let Some(place) = db.where_() {
                text.push_str(&format!(" ; {place}"));
            }
            EngineError::new(std::io::Error::other(text))
        };
        if code == SqlState::UNIQUE_VIOLATION {
            return Self::Conflict {
                constraint: unique_name(db.table(), db.detail()),
            };
        }
        if code == SqlState::T_R_SERIALIZATION_FAILURE
            || code == SqlState::T_R_DEADLOCK_DETECTED
            || code == SqlState::LOCK_NOT_AVAILABLE
        {
            return Self::Busy(told());
        }
        if code == SqlState::DATA_CORRUPTED || code == SqlState::INDEX_CORRUPTED {
            return Self::Corrupt(told());
        }
        Self::Engine(told())
    }
}

/// A unique constraint named as SQLite names it (`accounts.email`, columns
/// joined by ", "), from PostgreSQL's table and its detail « Key (email)=(…)
/// already exists. ».
fn unique_name(table: Option<&str>, detail: Option<&str>) -> String {
    let table = table.unwrap_or_default();
    let columns = detail
        .and_then(|d| d.strip_prefix("Key ("))
        .and_then(|d| d.split_once(")="))
        .map(|(columns, _)| columns)
        .unwrap_or_default();
    columns
        .split(", ")
        .filter(|c| !c.is_empty())
        .map(|c| format!("{table}.{}", c.trim_matches('"')))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_constraints_are_named_as_sqlite_names_them() {
        assert_eq!(
            unique_name(
                Some("accounts"),
                Some("Key (email)=(a@b.fr) already exists.")
            ),
            "accounts.email"
        );
        assert_eq!(
            unique_name(
                Some("calls"),
                Some("Key (agency_id, reference)=(a, CC-1) already exists.")
            ),
            "calls.agency_id, calls.reference"
        );
    }

    #[test]
    fn numerics_read_as_integers_or_floats() -> Result<(), BoxError> {
        let mut out = bytes::BytesMut::new();
        numeric("123456789", &mut out)?;
        assert_eq!(read_numeric(&out)?, ValueRef::Integer(123_456_789));
        let mut out = bytes::BytesMut::new();
        numeric("-42", &mut out)?;
        assert_eq!(read_numeric(&out)?, ValueRef::Integer(-42));
        let mut out = bytes::BytesMut::new();
        numeric("12.5", &mut out)?;
        assert_eq!(read_numeric(&out)?, ValueRef::Real(12.5));
        let mut out = bytes::BytesMut::new();
        numeric("0", &mut out)?;
        assert_eq!(read_numeric(&out)?, ValueRef::Integer(0));
        Ok(())
    }
}
