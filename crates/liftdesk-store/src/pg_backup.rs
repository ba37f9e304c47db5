//! Backups of a PostgreSQL database, made and restored by PostgreSQL's own
//! programs: `pg_dump` (custom format, the store's schema only, one
//! consistent snapshot while the servers keep writing) and `pg_restore`
//! (in one transaction, after the schema in place was set aside under
//! another name). The password of the address never reaches a command
//! line (`PGPASSWORD`), where `ps` would show it.
//!
//! The programs are looked up in `PATH` (Debian's `postgresql-client`);
//! `pg_dump` must be at least as recent as the server.

use std::path::Path;
use std::process::Command;

use crate::Conn;
use crate::backup::{self, BackupCheck, Restored};
use crate::error::{StoreError, StoreResult};
use crate::pg::{self, PgConn};

/// The first bytes of a `pg_dump --format=custom` archive.
pub(crate) const ARCHIVE_MAGIC: &[u8] = b"PGDMP";

/// A PostgreSQL program run on `url`: the address without its password on
/// the command line, the password in the environment.
fn program(name: &str, url: &str) -> (Command, String) {
    let mut command = Command::new(name);
    let mut address = url.to_owned();
    // The password as the driver reads the address (percent-decoded).
    let password = url
        .parse::<tokio_postgres::Config>()
        .ok()
        .and_then(|config| config.get_password().map(<[u8]>::to_vec));
    if let (Some(password), Ok(mut parsed)) = (password, url::Url::parse(url))
        && parsed.set_password(None).is_ok()
    {
        command.env("PGPASSWORD", String::from_utf8_lossy(&password).as_ref());
        address = parsed.to_string();
    }
    (command, address)
}

/// Runs `command`; its standard output, or a French error naming `what`.
fn run(mut command: Command, what: &str) -> StoreResult<Vec<u8>> {
    let program = command.get_program().to_string_lossy().into_owned();
    let out = command.output().map_err(|err| {
        StoreError::File(format!(
            "{what} : le programme {program} de PostgreSQL n'a pas pu être lancé ({err}). Installez le client PostgreSQL (paquet postgresql-client)."
        ))
    })?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let said = said
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ; ");
    Err(StoreError::File(format!(
        "{what} : {program} a échoué ({said})."
    )))
}

/// The schema the store uses (the first of the search path that exists;
/// `None` when none does).
fn current_schema(conn: &Conn) -> StoreResult<Option<String>> {
    conn.query_row("SELECT CAST(current_schema() AS TEXT)", [], |r| r.get(0))
}

fn connect(url: &str) -> StoreResult<Conn> {
    Ok(Conn::postgres_conn(PgConn::connect(url)?))
}

/// Whether the database has a schema named `name`.
fn schema_exists(conn: &Conn, name: &str) -> StoreResult<bool> {
    let found: i64 = conn.query_row(
        "SELECT COUNT(*) FROM pg_namespace WHERE nspname = ?1",
        [name],
        |r| r.get(0),
    )?;
    Ok(found > 0)
}

/// `"name"`, as `pg_dump --schema` takes a name literally.
fn quoted(schema: &str) -> String {
    format!("\"{}\"", schema.replace('"', "\"\""))
}

/// Dumps the store's schema at `url` into `dest` (written beside it under a
/// temporary name, renamed once complete). A schema with no Liftdesk
/// database, or one of a newer Liftdesk, is refused.
pub(crate) fn dump(url: &str, dest: &Path) -> StoreResult<()> {
    let conn = connect(url)?;
    let schema = current_schema(&conn)?;
    let version = crate::migrate::applied_postgres_version(&conn)?;
    let (Some(schema), Some(version)) = (schema, version) else {
        return Err(StoreError::File(format!(
            "Aucune base de données Liftdesk dans {} : rien à sauvegarder.",
            pg::redacted(url)
        )));
    };
    backup::refuse_newer_database(&pg::redacted(url), version)?;
    let tmp = crate::backup::partial_file(dest)?;
    let (mut command, address) = program("pg_dump", url);
    command
        .args([
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            "--schema",
        ])
        .arg(quoted(&schema))
        .arg("--file")
        .arg(&tmp)
        .arg("--dbname")
        .arg(address);
    let written = run(command, &format!("La sauvegarde vers {}", dest.display())).and_then(|_| {
        std::fs::File::open(&tmp)?.sync_all()?;
        std::fs::rename(&tmp, dest)?;
        Ok(())
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// What a dump holds: its schema, whether it is Liftdesk's, its version.
struct Archive {
    schema: String,
    version: i64,
}

/// Reads the archive `path` with `pg_restore` (its table of contents, then
/// the migrations' history), without restoring anything.
fn read_archive(path: &Path) -> StoreResult<Archive> {
    let shown = path.display();
    let not_liftdesk = || {
        StoreError::File(format!(
            "Le fichier {shown} n'est pas une base de données Liftdesk."
        ))
    };
    let mut list = Command::new("pg_restore");
    list.arg("--list").arg(path);
    let listed =
        run(list, &format!("La lecture de la sauvegarde {shown}")).map_err(|_| not_liftdesk())?;
    let listed = String::from_utf8_lossy(&listed);
    // Lines as `215; 1259 63077 TABLE public organizations postgres`.
    let mut schema = None;
    let mut tables = Vec::new();
    for line in listed.lines().filter(|l| !l.starts_with(';')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [_, _, _, "TABLE", owner_schema, table, ..] = words.as_slice() {
            schema.get_or_insert_with(|| (*owner_schema).to_owned());
            tables.push((*table).to_owned());
        }
    }
    let schema = schema.ok_or_else(not_liftdesk)?;
    if !["organizations", "refinery_schema_history"]
        .iter()
        .all(|needed| tables.iter().any(|t| t == needed))
    {
        return Err(not_liftdesk());
    }
    let mut history = Command::new("pg_restore");
    history
        .args(["--data-only", "--table=refinery_schema_history", "--file=-"])
        .arg(path);
    let history = run(history, &format!("La lecture de la sauvegarde {shown}"))?;
    // The rows of `COPY … FROM stdin;`, tab-separated, the version first.
    let version = String::from_utf8_lossy(&history)
        .lines()
        .skip_while(|l| !l.starts_with("COPY "))
        .skip(1)
        .take_while(|l| *l != "\\.")
        .filter_map(|l| l.split('\t').next()?.parse::<i64>().ok())
        .max()
        .ok_or_else(not_liftdesk)?;
    Ok(Archive { schema, version })
}

/// Checks that `path` is a dump of a Liftdesk database this version can
/// open.
pub(crate) fn check(path: &Path) -> StoreResult<BackupCheck> {
    backup::checked_version(path, read_archive(path)?.version)
}

/// Restores the dump `from` into the store's schema at `url`, every server
/// on it stopped: the schema in place is renamed
/// `<schema>_avant_AAAAMMJJHHMMSS` (kept, as the SQLite
/// restore keeps the replaced file), then `pg_restore` recreates the schema
/// in one transaction; if it fails, the previous schema gets its name back.
pub(crate) fn restore(url: &str, from: &Path) -> StoreResult<Restored> {
    let archive = read_archive(from)?;
    let check = backup::checked_version(from, archive.version)?;
    let conn = connect(url)?;
    // A search path naming a schema not made yet: the dump's own.
    let schema = current_schema(&conn)?.unwrap_or_else(|| archive.schema.clone());
    if archive.schema != schema {
        return Err(StoreError::File(format!(
            "La sauvegarde {} est celle du schéma « {} », la base est dans le schéma « {schema} » : restaurez-la sur une base dont le schéma porte son nom.",
            from.display(),
            archive.schema
        )));
    }
    let aside = if schema_exists(&conn, &schema)? {
        // PostgreSQL's names hold 63 bytes.
        let stamp = crate::clock::local_now().format("%Y%m%d%H%M%S");
        let mut name = format!("{schema}_avant_{stamp}");
        let mut n = 1;
        while schema_exists(&conn, &name)? {
            n += 1;
            name = format!("{schema}_avant_{stamp}_{n}");
        }
        conn.batch(&format!(
            "ALTER SCHEMA {} RENAME TO {}",
            quoted(&schema),
            quoted(&name)
        ))?;
        Some(name)
    } else {
        None
    };
    let (mut command, address) = program("pg_restore", url);
    command
        .args([
            "--single-transaction",
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            "--dbname",
        ])
        .arg(address)
        .arg(from);
    if let Err(err) = run(command, &format!("La restauration de {}", from.display())) {
        if let Some(name) = &aside {
            conn.batch(&format!(
                "ALTER SCHEMA {} RENAME TO {}",
                quoted(name),
                quoted(&schema)
            ))?;
        }
        return Err(StoreError::File(format!(
            "{err} La base actuelle est inchangée."
        )));
    }
    tracing::info!(from = %from.display(), aside = ?aside, "sauvegarde restaurée");
    Ok(Restored {
        aside: aside.map(|name| format!("schéma {name}")),
        schema_version: check.schema_version,
    })
}
