//! Backups of the database: SQLite's online backup (consistent while the
//! server keeps writing), or `pg_dump` on PostgreSQL (`pg_backup.rs`);
//! dated files in a folder keeping the newest 14, the check of a backup
//! before it is restored, and the restore itself (server stopped: the data
//! directory's lock says so).

use crate::error::{StoreError, StoreResult};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Local, NaiveDateTime, Utc};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use crate::data_dir as config;
use crate::{Database, Store, latest_schema_version, pg_backup};

/// Dated backups kept in a folder; older ones of the same pattern go.
pub const KEEP_BACKUPS: usize = 14;
const PREFIX: &str = "liftdesk-";
const SUFFIX: &str = ".sqlite3";
/// A PostgreSQL backup's name ends so (`pg_dump --format=custom`).
const PG_SUFFIX: &str = ".pgdump";
const STAMP_FORMAT: &str = "%Y%m%d-%H%M%S";
/// Where the automatic backup taken before a schema update goes (data dir).
pub const MIGRATION_BACKUP_DIR: &str = "sauvegardes-migration";

/// A backup written to disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupFile {
    /// File name (`liftdesk-AAAAMMJJ-HHMMSS.sqlite3` in a backup folder,
    /// `….pgdump` on PostgreSQL).
    pub name: String,
    pub path: PathBuf,
    pub bytes: u64,
    /// Local date and time read from the name, when it follows the pattern.
    pub taken_at: Option<NaiveDateTime>,
}

/// Copies the live database of `store` into `dest`, as a consistent
/// snapshot while writes go on, into a temporary file renamed once
/// complete: SQLite's online backup in one step (one read transaction), or
/// `pg_dump` of the store's schema. Blocking.
pub fn backup_to(store: &Store, dest: &Path) -> StoreResult<BackupFile> {
    match store.postgres_url() {
        Some(url) => pg_backup::dump(url, dest)?,
        None => store
            .read_blocking(|conn| -> StoreResult<()> { copy_connection(conn.sqlite()?, dest) })?,
    }
    describe_file(dest)
}

/// Backs up `database` into `dest` without opening it as a store (no
/// migration): the SQLite file as it is ([`backup_database_file`]), or
/// `pg_dump` of the PostgreSQL schema; a newer schema is refused. For
/// `liftdesk backup`. Blocking.
pub fn backup_database(database: &Database, dest: &Path) -> StoreResult<BackupFile> {
    match database {
        Database::Sqlite(path) => backup_database_file(path, dest),
        Database::Postgres { url, .. } => {
            pg_backup::dump(url, dest)?;
            if let Err(err) = pg_backup::check(dest) {
                let _ = std::fs::remove_file(dest);
                return Err(err);
            }
            describe_file(dest)
        }
    }
}

/// Backs up the database file `db_path` into `dest` without opening it as
/// a store: an older database is copied as it is (not migrated), a newer
/// one is refused untouched. Consistent while a server writes to it (the
/// same online backup). For `liftdesk backup`. Blocking.
pub fn backup_database_file(db_path: &Path, dest: &Path) -> StoreResult<BackupFile> {
    if !db_path.is_file() {
        return Err(StoreError::File(format!(
            "Aucune base de données {} : rien à sauvegarder.",
            db_path.display()
        )));
    }
    let conn = Connection::open_with_flags(
        db_path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|err| {
        StoreError::File(format!(
            "Impossible d'ouvrir la base de données {} : {err}",
            db_path.display()
        ))
    })?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let version = crate::migrate::applied_version(&conn).map_err(|_| {
        StoreError::File(format!(
            "{} n'est pas une base de données Liftdesk.",
            db_path.display()
        ))
    })?;
    if let Some(version) = version {
        refuse_newer_database(&db_path.display().to_string(), version)?;
    }
    copy_connection(&conn, dest)?;
    describe_file(dest)
}

/// Where a backup to `dest` is written until complete (`.NAME.partiel`
/// beside it, renamed then), none left from an earlier attempt.
pub(crate) fn partial_file(dest: &Path) -> StoreResult<PathBuf> {
    let file_name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| {
            StoreError::File(format!(
                "Le chemin de sauvegarde {} n'est pas un fichier.",
                dest.display()
            ))
        })?;
    let tmp = dest.with_file_name(format!(".{file_name}.partiel"));
    let _ = std::fs::remove_file(&tmp);
    Ok(tmp)
}

/// Copies what `conn` sees into `dest` (temporary file, then rename); the
/// copy is in rollback-journal mode so it opens read-only on its own.
pub(crate) fn copy_connection(conn: &Connection, dest: &Path) -> StoreResult<()> {
    let tmp = partial_file(dest)?;
    let result = (|| -> StoreResult<()> {
        let mut out = Connection::open(&tmp).map_err(|err| {
            StoreError::File(format!(
                "Impossible d'écrire la sauvegarde {} : {err}",
                dest.display()
            ))
        })?;
        {
            let backup = Backup::new(conn, &mut out)?;
            // -1: every page in one step, under one read transaction.
            loop {
                match backup.step(-1)? {
                    StepResult::Done => break,
                    StepResult::More | StepResult::Busy | StepResult::Locked => {
                        std::thread::sleep(std::time::Duration::from_millis(50));
                    }
                    _ => std::thread::sleep(std::time::Duration::from_millis(50)),
                }
            }
        }
        out.pragma_update(None, "journal_mode", "DELETE")?;
        drop(out);
        std::fs::File::open(&tmp)?.sync_all()?;
        std::fs::rename(&tmp, dest)?;
        Ok(())
    })();
    if let Err(err) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(StoreError::File(format!(
            "La sauvegarde vers {} a échoué : {err}",
            dest.display()
        )));
    }
    Ok(())
}

fn describe_file(path: &Path) -> StoreResult<BackupFile> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = std::fs::metadata(path)?.len();
    Ok(BackupFile {
        taken_at: stamp_of(&name),
        name,
        path: path.to_owned(),
        bytes,
    })
}

/// The date in a backup file's name, if the name follows the pattern.
fn stamp_of(name: &str) -> Option<NaiveDateTime> {
    let stamp = name.strip_prefix(PREFIX)?;
    let stamp = stamp
        .strip_suffix(SUFFIX)
        .or_else(|| stamp.strip_suffix(PG_SUFFIX))?;
    if stamp.len() != 15 {
        return None;
    }
    NaiveDateTime::parse_from_str(stamp, STAMP_FORMAT).ok()
}

/// The file name of a backup of `store` taken at `now` (local time).
pub fn backup_file_name(store: &Store, now: DateTime<Utc>) -> String {
    let suffix = if store.postgres_url().is_some() {
        PG_SUFFIX
    } else {
        SUFFIX
    };
    format!(
        "{PREFIX}{}{suffix}",
        now.with_timezone(&Local).format(STAMP_FORMAT)
    )
}

/// Backs up into `folder` (created if needed) as
/// `liftdesk-AAAAMMJJ-HHMMSS.sqlite3` (`.pgdump` on PostgreSQL), then
/// deletes the backups of that pattern past the newest 14 (other files are
/// never touched). Blocking.
pub fn backup_into_folder(
    store: &Store,
    folder: &Path,
    now: DateTime<Utc>,
) -> StoreResult<BackupFile> {
    std::fs::create_dir_all(folder).map_err(|err| {
        StoreError::File(format!(
            "Impossible de créer le dossier de sauvegarde {} : {err}",
            folder.display()
        ))
    })?;
    let written = backup_to(store, &folder.join(backup_file_name(store, now)))?;
    for old in list_backups(folder)?.into_iter().skip(KEEP_BACKUPS) {
        if let Err(err) = std::fs::remove_file(&old.path) {
            tracing::warn!(error = %err, file = %old.path.display(), "ancienne sauvegarde non supprimée");
        }
    }
    tracing::info!(file = %written.path.display(), bytes = written.bytes, "sauvegarde écrite");
    Ok(written)
}

/// The backups of `folder` (pattern `liftdesk-AAAAMMJJ-HHMMSS.sqlite3` or
/// `.pgdump` only), newest first; a missing folder has none.
pub fn list_backups(folder: &Path) -> StoreResult<Vec<BackupFile>> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => {
            return Err(StoreError::File(format!(
                "Impossible de lire le dossier de sauvegarde {} : {err}",
                folder.display()
            )));
        }
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(taken_at) = stamp_of(&name) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        found.push(BackupFile {
            name,
            path: entry.path(),
            bytes: meta.len(),
            taken_at: Some(taken_at),
        });
    }
    found.sort_by(|a, b| b.name.cmp(&a.name));
    Ok(found)
}

/// What the check of a backup found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupCheck {
    pub schema_version: i64,
    /// An older schema: it is updated when the restored database opens.
    pub older_schema: bool,
}

/// Checks that `path` is a sound Liftdesk backup this version can open:
/// a SQLite file opened read-only (`integrity_check`, the schema history,
/// no newer schema), or a `pg_dump` archive read by `pg_restore`.
pub fn check_backup(path: &Path) -> StoreResult<BackupCheck> {
    let shown = path.display();
    if !path.is_file() {
        return Err(StoreError::File(format!(
            "Le fichier de sauvegarde {shown} est introuvable."
        )));
    }
    if is_pg_archive(path) {
        return pg_backup::check(path);
    }
    let not_liftdesk = || {
        StoreError::File(format!(
            "Le fichier {shown} n'est pas une base de données Liftdesk."
        ))
    };
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|_| not_liftdesk())?;
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .map_err(|_| not_liftdesk())?;
    if integrity != "ok" {
        return Err(StoreError::File(format!(
            "La sauvegarde {shown} est endommagée (contrôle d'intégrité : {integrity}) : elle ne peut pas être restaurée."
        )));
    }
    let version = crate::migrate::applied_version(&conn)
        .map_err(|_| not_liftdesk())?
        .ok_or_else(not_liftdesk)?;
    let has_organizations: bool = conn
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'organizations')",
            [],
            |row| row.get(0),
        )
        .map_err(|_| not_liftdesk())?;
    if !has_organizations {
        return Err(not_liftdesk());
    }
    checked_version(path, version)
}

/// A database of schema `version` (named `shown`) to back up: refused when
/// a newer Liftdesk made it.
pub(crate) fn refuse_newer_database(shown: &str, version: i64) -> StoreResult<()> {
    let known = latest_schema_version();
    if version > known {
        return Err(StoreError::File(format!(
            "La base de données {shown} a été créée par une version plus récente de Liftdesk (schéma {version}, cette version connaît jusqu'au schéma {known}) : sauvegardez-la avec cette version-là."
        )));
    }
    Ok(())
}

/// The check of the backup `path`, whose schema is `version`: refused when
/// a newer Liftdesk made it.
pub(crate) fn checked_version(path: &Path, version: i64) -> StoreResult<BackupCheck> {
    let known = latest_schema_version();
    if version > known {
        return Err(StoreError::File(format!(
            "La sauvegarde {} a été faite par une version plus récente de Liftdesk (schéma {version}, cette version connaît jusqu'au schéma {known}) : installez une version à jour de Liftdesk pour la restaurer.",
            path.display()
        )));
    }
    Ok(BackupCheck {
        schema_version: version,
        older_schema: version < known,
    })
}

/// Whether `path` starts as a `pg_dump` archive does.
fn is_pg_archive(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 5];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut head))
        .is_ok_and(|()| head == pg_backup::ARCHIVE_MAGIC)
}

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Restored {
    /// Where the replaced database now is: the folder of the SQLite file
    /// (and its -wal/-shm), or the PostgreSQL schema renamed.
    pub aside: Option<String>,
    pub schema_version: i64,
}

/// Restores the backup `from` into `database`, whose servers must be
/// stopped (the caller holds the data directory's lock): on PostgreSQL with
/// `pg_restore` (`pg_backup::restore`); on SQLite [`restore_file`]. A
/// SQLite backup is not restored onto PostgreSQL, nor the other way.
/// Blocking.
pub fn restore_from(database: &Database, from: &Path) -> StoreResult<Restored> {
    let archive = is_pg_archive(from);
    match database {
        Database::Postgres { url, .. } if archive => return pg_backup::restore(url, from),
        Database::Sqlite(path) if !archive => {
            return restore_file(path.parent().unwrap_or(Path::new(".")), from);
        }
        _ => {}
    }
    // Missing, not a backup, too new: said before the engines' mismatch.
    check_backup(from)?;
    match database {
        Database::Postgres { .. } => Err(StoreError::File(format!(
            "La sauvegarde {} est celle d'une base SQLite (un ordinateur seul) : elle ne se restaure pas sur PostgreSQL.",
            from.display()
        ))),
        Database::Sqlite(_) => Err(StoreError::File(format!(
            "La sauvegarde {} est celle d'une base PostgreSQL : elle se restaure sur PostgreSQL (liftdesk --database postgresql://… restore), pas sur ce fichier SQLite.",
            from.display()
        ))),
    }
}

/// Restores the SQLite backup `from` into `data_dir`: checks the backup,
/// moves the current database and its -wal/-shm into a dated folder
/// `avant-restauration-AAAAMMJJ-HHMMSS` of the data directory, then copies
/// the backup in place.
fn restore_file(data_dir: &Path, from: &Path) -> StoreResult<Restored> {
    let check = check_backup(from)?;
    config::ensure_data_dir(data_dir)?;
    let db = config::database_path(data_dir);
    let companions = [
        db.clone(),
        PathBuf::from(format!("{}-wal", db.display())),
        PathBuf::from(format!("{}-shm", db.display())),
    ];
    let present: Vec<&PathBuf> = companions.iter().filter(|p| p.exists()).collect();
    let aside = if present.is_empty() {
        None
    } else {
        let stamp = crate::clock::local_now().format(STAMP_FORMAT);
        let mut folder = data_dir.join(format!("avant-restauration-{stamp}"));
        let mut n = 1;
        while folder.exists() {
            n += 1;
            folder = data_dir.join(format!("avant-restauration-{stamp}-{n}"));
        }
        std::fs::create_dir_all(&folder).map_err(|err| {
            StoreError::File(format!("Impossible de créer {} : {err}", folder.display()))
        })?;
        for file in &present {
            let target = folder.join(file.file_name().unwrap_or_default());
            std::fs::rename(file, &target).map_err(|err| {
                StoreError::File(format!(
                    "Impossible de mettre de côté {} : {err}",
                    file.display()
                ))
            })?;
        }
        Some(folder)
    };
    let tmp = data_dir.join(".liftdesk.db.restauration");
    let copied = std::fs::copy(from, &tmp)
        .and_then(|_| std::fs::File::open(&tmp)?.sync_all())
        .and_then(|()| std::fs::rename(&tmp, &db));
    if let Err(err) = copied {
        let _ = std::fs::remove_file(&tmp);
        // Put the previous database back where it was.
        if let Some(folder) = &aside {
            for file in &present {
                let _ = std::fs::rename(folder.join(file.file_name().unwrap_or_default()), file);
            }
        }
        return Err(StoreError::File(format!(
            "La restauration de {} a échoué, la base actuelle est inchangée : {err}",
            from.display()
        )));
    }
    tracing::info!(from = %from.display(), aside = ?aside, "sauvegarde restaurée");
    Ok(Restored {
        aside: aside.map(|folder| folder.display().to_string()),
        schema_version: check.schema_version,
    })
}

/// The automatic backup taken before an older database is migrated:
/// `<data dir>/sauvegardes-migration/liftdesk-avant-schema-N-AAAAMMJJ-HHMMSS.sqlite3`.
pub(crate) fn backup_before_migration(
    conn: &Connection,
    db_path: &Path,
    version: i64,
) -> StoreResult<PathBuf> {
    let dir = db_path
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join(MIGRATION_BACKUP_DIR);
    std::fs::create_dir_all(&dir).map_err(|err| {
        StoreError::File(format!("Impossible de créer {} : {err}", dir.display()))
    })?;
    let dest = dir.join(format!(
        "liftdesk-avant-schema-{version}-{}{SUFFIX}",
        crate::clock::local_now().format(STAMP_FORMAT)
    ));
    copy_connection(conn, &dest)?;
    Ok(dest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_pattern() {
        assert!(stamp_of("liftdesk-20261125-093000.sqlite3").is_some());
        assert!(stamp_of("liftdesk-2026112-093000.sqlite3").is_none());
        assert!(stamp_of("autre-20261125-093000.sqlite3").is_none());
        assert!(stamp_of("liftdesk-20261125-093000.sqlite3.partiel").is_none());
        assert!(stamp_of("liftdesk-20261125-093000.pgdump").is_some());
    }
}
