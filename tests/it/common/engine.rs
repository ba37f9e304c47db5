//! Which engine the integration tests run on, and each test's own database.
//!
//! Without `LIFTDESK_TEST_POSTGRES`, every test's data directory holds its
//! SQLite file, as the desktop has it. With it (the test command's second
//! pass, `scripts/test.sh`), the variable is the address of a PostgreSQL
//! database the test command made for the run (`scripts/postgres.sh`), and
//! every data directory gets a schema of its own in it, made at the
//! directory's first use and named in the address the server and the
//! command line are given (`options=-c search_path=…`): each test starts
//! on an empty, migrated schema, as it does on a new SQLite file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use liftdesk::store::Database;

/// The run's PostgreSQL database (`postgresql://…/liftdesk_tests`), when
/// the tests run on PostgreSQL.
pub fn postgres() -> Option<&'static str> {
    static URL: OnceLock<Option<String>> = OnceLock::new();
    URL.get_or_init(|| {
        std::env::var("LIFTDESK_TEST_POSTGRES")
            .ok()
            .map(|url| url.trim().to_owned())
            .filter(|url| !url.is_empty())
    })
    .as_deref()
}

/// Whether the tests run on PostgreSQL.
pub fn on_postgres() -> bool {
    postgres().is_some()
}

/// The schemas made so far, by data directory.
fn schemas() -> &'static Mutex<HashMap<PathBuf, String>> {
    static SCHEMAS: OnceLock<Mutex<HashMap<PathBuf, String>>> = OnceLock::new();
    SCHEMAS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The PostgreSQL address for `data_dir` (a schema of its own, made at its
/// first use); `None` on SQLite.
pub fn database_url(data_dir: &Path) -> Option<String> {
    let base = postgres()?;
    let key = data_dir.to_path_buf();
    let mut schemas = schemas().lock().unwrap_or_else(|p| p.into_inner());
    let schema = match schemas.get(&key) {
        Some(schema) if schema.is_empty() => return None,
        Some(schema) => schema.clone(),
        None => {
            let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
            psql(base, &format!("CREATE SCHEMA {schema}"));
            schemas.insert(key, schema.clone());
            schema
        }
    };
    let separator = if base.contains('?') { '&' } else { '?' };
    Some(format!(
        "{base}{separator}options=-c%20search_path%3D{schema}"
    ))
}

/// Keeps `data_dir` on SQLite, even in the PostgreSQL pass (a desktop's
/// database moved to the agency server: `liftdesk migrate`).
pub fn keep_on_sqlite(data_dir: &Path) {
    schemas()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(data_dir.to_path_buf(), String::new());
}

/// Gives `other` (another server's data directory) the database of
/// `data_dir`: on PostgreSQL, several servers on one schema. Panics on
/// SQLite (a file is one server's).
pub fn share_database(data_dir: &Path, other: &Path) {
    let url = database_url(data_dir).expect("une base partagée : PostgreSQL");
    let schema = url
        .rsplit("search_path%3D")
        .next()
        .expect("schema")
        .to_owned();
    schemas()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(other.to_path_buf(), schema);
}

/// The database of `data_dir` on the engine of the run.
pub fn database(data_dir: &Path) -> Database {
    Database::of(data_dir, database_url(data_dir).as_deref())
}

/// Runs `sql` on the run's database with `psql`; panics if it fails.
pub fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .arg(url)
        .args(["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .output()
        .expect("psql (postgresql-client)");
    assert!(
        out.status.success(),
        "psql {sql:?} : {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Everything the database of `data_dir` holds, as bytes to search: the
/// SQLite file and its WAL, or a `pg_dump` of the directory's schema.
pub fn raw_bytes(data_dir: &Path) -> Vec<u8> {
    let Some(base) = postgres() else {
        let mut raw = std::fs::read(data_dir.join("liftdesk.db")).expect("db bytes");
        if let Ok(wal) = std::fs::read(data_dir.join("liftdesk.db-wal")) {
            raw.extend(wal);
        }
        return raw;
    };
    let schema = schemas()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(data_dir)
        .cloned()
        .expect("the directory's schema");
    let out = Command::new("pg_dump")
        .args(["--no-owner", "--schema", &schema, "--dbname", base])
        .output()
        .expect("pg_dump (postgresql-client)");
    assert!(
        out.status.success(),
        "pg_dump : {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
