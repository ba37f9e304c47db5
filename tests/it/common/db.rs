//! A test's direct look at its database, on either engine (`open_db`):
//! the few calls the tests make (`query_row`, `execute`, `execute_batch`,
//! `prepare(…).query_map`), with the names rusqlite gave them, run through
//! a store opened on the same database (`Store::inspect_rows`,
//! `Store::inspect_execute`), so that the SQL is rewritten for PostgreSQL
//! as the product's is. Parameters are the store's (`[a, b]`, `params![…]`),
//! columns are read by index.
//!
//! The tests of the SQLite file itself (crash safety, migrations of an
//! older file, backups) open it with rusqlite (`sqlite_file`).

use std::path::Path;

use liftdesk::store::sql::{Params, Row};
use liftdesk::store::{Store, StoreResult};

/// The database of a test's data directory.
pub struct TestDb {
    store: Store,
}

impl TestDb {
    pub fn open(data_dir: &Path) -> TestDb {
        let store = liftdesk::server::open_database(&super::engine::database(data_dir))
            .expect("open database");
        TestDb { store }
    }

    /// The first row of `sql`, read by `read` (`StoreError::NotFound` if
    /// none).
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let mut read = Some(read);
        let mut rows = self
            .store
            .inspect_rows(sql, params, |row| match read.take() {
                Some(read) => read(row).map(Some),
                None => Ok(None),
            })?;
        match rows.first_mut().and_then(Option::take) {
            Some(value) => Ok(value),
            None => Err(liftdesk::store::StoreError::NotFound),
        }
    }

    /// Runs `sql` in a transaction of its own; how many rows it changed.
    pub fn execute(&self, sql: &str, params: impl Params) -> StoreResult<usize> {
        self.store.inspect_execute(sql, params)
    }

    /// Runs statements without parameters, in one transaction.
    pub fn execute_batch(&self, sql: &str) -> StoreResult<()> {
        for statement in sql.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            self.store.inspect_execute(statement, [])?;
        }
        Ok(())
    }

    /// A statement to read rows with (`query_map`).
    pub fn prepare(&self, sql: &str) -> StoreResult<TestStatement<'_>> {
        Ok(TestStatement {
            db: self,
            sql: sql.to_owned(),
        })
    }

    /// The store opened on the test's database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Whether the database is the run's PostgreSQL one.
    pub fn on_postgres(&self) -> bool {
        super::engine::on_postgres()
    }

    /// The schema's tables, by name (the engine's own bookkeeping tables
    /// left out; the migrations' `refinery_schema_history` kept).
    pub fn tables(&self) -> Vec<String> {
        let sql = if self.on_postgres() {
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables
              WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
              ORDER BY 1"
        } else {
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
              ORDER BY 1"
        };
        self.texts(sql, [])
    }

    /// The columns of `table`, in their order.
    pub fn columns(&self, table: &str) -> Vec<String> {
        if self.on_postgres() {
            self.texts(
                "SELECT CAST(column_name AS TEXT) FROM information_schema.columns
                  WHERE table_schema = current_schema() AND table_name = ?1
                  ORDER BY ordinal_position",
                [table],
            )
        } else {
            self.texts(
                "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
                [table],
            )
        }
    }

    /// The type of `table.column` as PostgreSQL names it (`text`,
    /// `bigint`, `bytea`…).
    pub fn column_type(&self, table: &str, column: &str) -> String {
        self.texts(
            "SELECT CAST(data_type AS TEXT) FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = ?1 AND column_name = ?2",
            [table, column],
        )
        .into_iter()
        .next()
        .expect("column type")
    }

    /// A number that moves whenever a transaction writing to the database
    /// commits (SQLite's `data_version`; on PostgreSQL the next
    /// transaction id, which a writing transaction takes: it moves with
    /// any writer of the cluster, which only makes a watcher look more
    /// often).
    pub fn data_version(&self) -> i64 {
        if self.on_postgres() {
            let next: String = self
                .query_row(
                    "SELECT CAST(pg_snapshot_xmax(pg_current_snapshot()) AS TEXT)",
                    [],
                    |r| r.get(0),
                )
                .expect("next transaction id");
            next.parse().expect("transaction id")
        } else {
            self.query_row("PRAGMA data_version", [], |r| r.get(0))
                .expect("data_version")
        }
    }

    /// How many rows break a foreign key: PostgreSQL refuses them as they
    /// are written; SQLite's `foreign_key_check` finds them afterwards.
    pub fn foreign_key_violations(&self) -> i64 {
        if self.on_postgres() {
            0
        } else {
            self.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .expect("foreign_key_check")
        }
    }

    /// The SQL of the text of `key` in the JSON object `expression`
    /// (`json_extract` on SQLite; `->>` on PostgreSQL, which gives `true`
    /// where SQLite gives 1).
    pub fn json_text(&self, expression: &str, key: &str) -> String {
        if self.on_postgres() {
            format!("(CAST({expression} AS jsonb) ->> '{key}')")
        } else {
            format!("json_extract({expression}, '$.{key}')")
        }
    }

    /// A table of the values of the JSON array at `key` of the object
    /// `expression`, one per row in its column `value` (SQLite's
    /// `json_each`), to put in a FROM clause.
    pub fn json_values(&self, expression: &str, key: &str) -> String {
        if self.on_postgres() {
            format!("jsonb_array_elements_text(CAST({expression} AS jsonb) -> '{key}')")
        } else {
            format!("json_each({expression}, '$.{key}')")
        }
    }

    /// The first column of every row of `sql`, as text.
    fn texts(&self, sql: &str, params: impl Params) -> Vec<String> {
        self.store
            .inspect_rows(sql, params, |r| r.get::<String>(0))
            .expect("names")
    }
}

/// A statement of [`TestDb::prepare`].
pub struct TestStatement<'a> {
    db: &'a TestDb,
    sql: String,
}

impl TestStatement<'_> {
    /// Every row, each read by `read`.
    pub fn query_map<T>(
        &mut self,
        params: impl Params,
        read: impl FnMut(&Row<'_>) -> StoreResult<T>,
    ) -> StoreResult<std::vec::IntoIter<StoreResult<T>>> {
        let rows = self.db.store.inspect_rows(&self.sql, params, read)?;
        Ok(rows.into_iter().map(Ok).collect::<Vec<_>>().into_iter())
    }
}
