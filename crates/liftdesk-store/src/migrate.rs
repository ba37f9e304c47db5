//! Schema migrations, embedded from `migrations/sqlite/` and
//! `migrations/postgres/` (the same versions from V24 on) and run at
//! start-up on the store's engine.

use std::path::Path;

use rusqlite::Connection;

use super::{StoreError, StoreResult};

mod embedded {
    refinery::embed_migrations!("migrations/sqlite");
}

/// The PostgreSQL schema: the same versions as SQLite's from V24 on (its
/// first file is the whole schema at V24; every later version is written
/// in both trees, and `tests/it/schemas.rs` compares what they make).
mod embedded_postgres {
    refinery::embed_migrations!("migrations/postgres");
}

/// The newest schema version this binary knows.
pub fn latest_schema_version() -> i64 {
    embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(|m| i64::from(m.version()))
        .max()
        .unwrap_or(0)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaStatus {
    Empty,
    Older(i64),
    Current,
}

/// Version recorded in the schema's history, if the database has one.
pub fn applied_schema_version(conn: &crate::Conn) -> StoreResult<Option<i64>> {
    match conn.postgres() {
        None => applied_version(conn.sqlite()?),
        Some(_) => applied_postgres_version(conn),
    }
}

/// Version recorded in refinery's history table of a PostgreSQL database.
pub(crate) fn applied_postgres_version(conn: &crate::Conn) -> StoreResult<Option<i64>> {
    let has_table: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM information_schema.tables
                         WHERE table_schema = current_schema() AND table_name = 'refinery_schema_history')",
        [],
        |row| row.get(0),
    )?;
    if !has_table {
        return Ok(None);
    }
    conn.query_row(
        "SELECT MAX(version) FROM refinery_schema_history",
        [],
        |row| row.get(0),
    )
}

/// [`check_and_run`] for PostgreSQL: the database named `shown` (its
/// address without password) is brought to the latest schema, a newer one
/// refused untouched. No copy is made before an upgrade: the agency's
/// PostgreSQL is backed up by `pg_dump` (docs/postgresql.md).
pub(super) fn check_and_run_postgres(
    conn: &crate::Conn,
    url: &str,
) -> Result<SchemaStatus, StoreError> {
    let shown = crate::pg::redacted(url);
    let known = latest_schema_version();
    let status = match applied_postgres_version(conn)? {
        None => SchemaStatus::Empty,
        Some(database) if database > known => {
            return Err(StoreError::NewerSchema {
                path: shown,
                database,
                known,
            });
        }
        Some(database) if database < known => SchemaStatus::Older(database),
        Some(_) => SchemaStatus::Current,
    };
    if status != SchemaStatus::Current {
        crate::pg::migrate(url, embedded_postgres::migrations::runner())?;
        tracing::info!(
            ?status,
            version = known,
            "schéma de la base PostgreSQL à jour"
        );
    }
    Ok(status)
}

/// Version recorded in refinery's history table, if the table exists.
pub(crate) fn applied_version(conn: &Connection) -> StoreResult<Option<i64>> {
    let has_table: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refinery_schema_history')",
        [],
        |row| row.get(0),
    )?;
    if !has_table {
        return Ok(None);
    }
    Ok(conn.query_row(
        "SELECT MAX(version) FROM refinery_schema_history",
        [],
        |row| row.get(0),
    )?)
}

pub(super) fn check_and_run(
    conn: &mut Connection,
    path: &Path,
) -> Result<SchemaStatus, StoreError> {
    let known = latest_schema_version();
    let status = match applied_version(conn)? {
        None => SchemaStatus::Empty,
        Some(database) if database > known => {
            return Err(StoreError::NewerSchema {
                path: path.display().to_string(),
                database,
                known,
            });
        }
        Some(database) if database < known => SchemaStatus::Older(database),
        Some(_) => SchemaStatus::Current,
    };
    if let SchemaStatus::Older(version) = status {
        // An older database is copied aside before it changes; without that
        // copy it is not touched.
        let copy = crate::backup::backup_before_migration(conn, path, version).map_err(|err| {
            StoreError::Migration(format!(
                "la sauvegarde automatique avant la mise à jour a échoué, la base n'a pas été modifiée : {err}"
            ))
        })?;
        tracing::info!(
            from = version,
            to = known,
            backup = %copy.display(),
            "base d'une version antérieure : sauvegardée avant sa mise à jour"
        );
    }
    if status != SchemaStatus::Current {
        register_functions(conn)?;
        run_without_foreign_keys(conn, embedded::migrations::runner())?;
        tracing::info!(?status, version = known, "schéma de la base à jour");
    }
    Ok(status)
}

/// Brings a database to exactly `version` and no further: how an older
/// database is made, for tests of the upgrade path.
pub fn migrate_to_version(path: &std::path::Path, version: i32) -> Result<(), StoreError> {
    let mut conn = Connection::open(path).map_err(|source| StoreError::open(path, source))?;
    register_functions(&conn)?;
    run_without_foreign_keys(
        &mut conn,
        embedded::migrations::runner().set_target(refinery::Target::Version(version)),
    )
}

/// Runs migrations with the foreign keys off, as SQLite's procedure for a
/// table rebuilt asks (<https://sqlite.org/lang_altertable.html#otheralter>:
/// dropping the old table would otherwise cascade to its children, the
/// lines of the invoices rebuilt by V23), then checks that every reference
/// still holds before turning them on again.
fn run_without_foreign_keys(
    conn: &mut Connection,
    runner: refinery::Runner,
) -> Result<(), StoreError> {
    conn.pragma_update(None, "foreign_keys", "OFF")?;
    let ran = runner
        .run(conn)
        .map(|_| ())
        .map_err(|err| StoreError::Migration(err.to_string()));
    let broken: i64 = conn.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
        r.get(0)
    })?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    ran?;
    if broken > 0 {
        return Err(StoreError::Migration(format!(
            "{broken} référence(s) entre enregistrements brisée(s) après la mise à jour du schéma"
        )));
    }
    Ok(())
}

/// Brings a fresh connection (an in-memory database of the store's unit
/// tests) to the latest schema, without the backup of `check_and_run`.
#[cfg(test)]
pub(crate) fn run_all(conn: &mut Connection) -> Result<(), StoreError> {
    register_functions(conn)?;
    run_without_foreign_keys(conn, embedded::migrations::runner())
}

/// The domain's rules that migrations apply to stored data, as SQL
/// functions of the migrating connection:
/// `address_part(text, 'street' | 'postal_code' | 'city')` — the part of a
/// one-line address (`domain::address::split_line`), or NULL when the text
/// does not split (V19).
fn register_functions(conn: &Connection) -> Result<(), StoreError> {
    use rusqlite::functions::FunctionFlags;
    conn.create_scalar_function(
        "address_part",
        2,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let text: Option<String> = ctx.get(0)?;
            let part: String = ctx.get(1)?;
            let Some(split) = text
                .as_deref()
                .and_then(liftdesk_domain::address::split_line)
            else {
                return Ok(None);
            };
            Ok(match part.as_str() {
                "street" => Some(split.street),
                "postal_code" => Some(split.postal_code),
                "city" => Some(split.city),
                _ => None,
            })
        },
    )
    .map_err(|err| StoreError::Migration(err.to_string()))
}
