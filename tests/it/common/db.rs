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
