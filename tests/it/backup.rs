//! Backups and restores: `liftdesk backup` while a real server takes calls,
//! `liftdesk restore` (refused while the server runs), the check of a backup,
//! the folder keeping 14, the automatic backup before a schema update, and
//! log files free of secrets.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::*;
use liftdesk::backup;
use liftdesk::store::{Store, latest_schema_version, migrate_to_version};
use serde_json::{Value, json};

struct Served {
    child: Child,
    base_url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path, extra: &[&str]) -> Served {
    let mut child = crate::common::cli_command(dir)
        .args(["serve", "--bind", "127.0.0.1:0", "--demo"])
        .args(extra)
        .env("LIFTDESK_LOG", "debug,rmcp=warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start server");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("first line");
    Served {
        child,
        base_url: line.trim().to_owned(),
    }
}

/// Stops the server as the desktop or systemd would (SIGTERM) and waits.
fn stop(mut served: Served) {
    let pid = served.child.id().to_string();
    Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    let status = served.child.wait().expect("wait");
    assert!(status.success(), "clean stop: {status:?}");
}

fn demo_credentials(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("demo-credentials.json")).expect("creds"))
        .expect("json")
}

fn equipment_number(dir: &Path, agency: &str) -> String {
    open_db(dir)
        .query_row(
            "SELECT number FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL LIMIT 1",
            [agency],
            |r| r.get(0),
        )
        .expect("an equipment")
}

/// The call-center references of the calls in the backup `path`: the
/// SQLite file opened read-only, or the `pg_dump` archive's rows of
/// `calls` read by `pg_restore`.
fn references_in(path: &Path) -> Vec<String> {
    if common::engine::on_postgres() {
        let out = Command::new("pg_restore")
            .args(["--data-only", "--table=calls", "--file=-"])
            .arg(path)
            .output()
            .expect("pg_restore");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return String::from_utf8_lossy(&out.stdout)
            .lines()
            .flat_map(|line| line.split('\t'))
            .filter(|cell| cell.starts_with("SAV-"))
            .map(str::to_owned)
            .collect();
    }
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open backup");
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity");
    assert_eq!(integrity, "ok");
    let mut stmt = conn
        .prepare("SELECT reference FROM calls WHERE reference LIKE 'SAV-%'")
        .expect("prepare");
    stmt.query_map([], |r| r.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_calls_arrive_restores_every_committed_record() {
    let dir = tempfile::tempdir().expect("dir");
    let served = serve(dir.path(), &[]);
    let creds = demo_credentials(dir.path());
    let key = creds["callCenterKeys"][0].as_str().expect("key").to_owned();
    let agency = creds["agencies"][0]["id"]
        .as_str()
        .expect("agency")
        .to_owned();
    let number = equipment_number(dir.path(), &agency);
    let client = crate::common::http_client();
    let url = format!("{}/api/partners/calls", served.base_url);
    let post = {
        let client = client.clone();
        move |reference: String| {
            let client = client.clone();
            let url = url.clone();
            let key = key.clone();
            let number = number.clone();
            async move {
                let response = client
                    .post(url)
                    .bearer_auth(key)
                    .json(&json!({
                        "reference": reference,
                        "equipement": number,
                        "type": "panne",
                        "description": "Ascenseur à l'arrêt.",
                    }))
                    .send()
                    .await
                    .expect("call");
                assert_eq!(response.status().as_u16(), 201, "{reference}");
            }
        }
    };
    // Committed before the backup starts.
    let mut committed = Vec::new();
    for n in 0..20 {
        let reference = format!("SAV-AVANT-{n}");
        post(reference.clone()).await;
        committed.push(reference);
    }
    // Calls keep arriving while the backup runs.
    let writer = tokio::spawn({
        let post = post.clone();
        async move {
            for n in 0..60 {
                post(format!("SAV-PENDANT-{n}")).await;
            }
        }
    });
    let target = dir.path().join(if common::engine::on_postgres() {
        "copie.pgdump"
    } else {
        "copie.sqlite3"
    });
    let data_dir = dir.path().to_owned();
    let target_for_cli = target.clone();
    let out = tokio::task::spawn_blocking(move || {
        cli_json(
            &data_dir,
            &["backup", "--to", target_for_cli.to_str().expect("utf-8")],
        )
    })
    .await
    .expect("backup");
    writer.await.expect("writer");
    assert_eq!(out["path"], json!(target));
    assert_eq!(out["schemaVersion"], json!(latest_schema_version()));
    assert!(out["bytes"].as_u64().unwrap_or(0) > 0);
    let in_backup = references_in(&target);
    for reference in &committed {
        assert!(in_backup.contains(reference), "{reference} missing");
    }

    // Restoring is refused while the server runs, and nothing changes.
    let refused = run_cli(
        dir.path(),
        &["restore", "--from", target.to_str().expect("utf-8")],
    );
    assert!(!refused.status.success());
    assert!(refused.stdout.is_empty());
    let err = stderr_of(&refused);
    assert!(err.contains("en cours d'exécution"), "{err}");
    stop(served);

    let restored = cli_json(
        dir.path(),
        &["restore", "--from", target.to_str().expect("utf-8")],
    );
    let aside = restored["aside"].as_str().expect("aside").to_owned();
    // The replaced database is kept aside, with every call it had: the
    // file in a folder, or the schema under another name.
    let calls_aside = if common::engine::on_postgres() {
        let schema = aside.strip_prefix("schéma ").expect("a schema");
        assert!(schema.contains("_avant_"), "{aside}");
        format!("\"{schema}\".calls")
    } else {
        assert!(aside.contains("avant-restauration-"), "{aside}");
        let file = Path::new(&aside).join("liftdesk.db");
        assert_eq!(references_in(&file).len(), 80);
        "calls".to_owned()
    };
    let db = open_db(dir.path());
    if common::engine::on_postgres() {
        let before: i64 = db
            .query_row(
                &format!("SELECT COUNT(*) FROM {calls_aside} WHERE reference LIKE 'SAV-%'"),
                [],
                |r| r.get(0),
            )
            .expect("calls aside");
        assert_eq!(before, 80);
    }
    let now: Vec<String> = db
        .prepare("SELECT reference FROM calls WHERE reference LIKE 'SAV-%'")
        .and_then(|mut stmt| {
            stmt.query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()
        })
        .expect("calls now");
    drop(db);
    assert_eq!(now.len(), in_backup.len());
    for reference in &committed {
        assert!(now.contains(reference), "{reference} missing after restore");
    }
    // The restored database opens as usual.
    let served = serve(dir.path(), &[]);
    let me = client
        .get(format!("{}/api/v2/me", served.base_url))
        .bearer_auth(creds["admin"]["apiToken"].as_str().expect("token"))
        .send()
        .await
        .expect("me");
    assert_eq!(me.status().as_u16(), 200);
}

#[test]
fn backup_and_restore_refuse_in_french() {
    let dir = tempfile::tempdir().expect("dir");
    let out = run_cli(dir.path(), &["backup", "--to", "/tmp/nulle-part.sqlite3"]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("Aucune base de données"),
        "{}",
        stderr_of(&out)
    );

    let not_db = dir.path().join("texte.sqlite3");
    std::fs::write(&not_db, "bonjour").expect("write");
    let out = run_cli(
        dir.path(),
        &["restore", "--from", not_db.to_str().expect("utf-8")],
    );
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert!(
        err.contains("n'est pas une base de données Liftdesk"),
        "{err}"
    );
    let missing = dir.path().join("absent.sqlite3");
    let out = run_cli(
        dir.path(),
        &["restore", "--from", missing.to_str().expect("utf-8")],
    );
    assert!(
        stderr_of(&out).contains("introuvable"),
        "{}",
        stderr_of(&out)
    );
    assert!(!db_path(dir.path()).exists(), "nothing created");
}

#[test]
fn a_backup_of_a_newer_version_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(&db_path(dir.path())).expect("open");
    let copy = dir.path().join("copie.sqlite3");
    backup::backup_to(&store, &copy).expect("backup");
    let check = backup::check_backup(&copy).expect("check");
    assert_eq!(check.schema_version, latest_schema_version());
    assert!(!check.older_schema);
    let conn = rusqlite::Connection::open(&copy).expect("open copy");
    conn.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (?1, 'futur', '2030-01-01', '0')",
        [latest_schema_version() + 1],
    )
    .expect("bump");
    drop(conn);
    let err = backup::check_backup(&copy).expect_err("newer").to_string();
    assert!(err.contains("version plus récente"), "{err}");
    let other = dir.path().join("autre");
    let err = backup::restore_from(&liftdesk::store::Database::of(&other, None), &copy)
        .expect_err("refused")
        .to_string();
    assert!(err.contains("version plus récente"), "{err}");
    assert!(!db_path(&other).exists());
}

#[test]
fn a_backup_folder_keeps_the_newest_fourteen_of_its_own_files() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(&db_path(dir.path())).expect("open");
    let folder = dir.path().join("sauvegardes");
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::write(folder.join("notes.txt"), "à garder").expect("other file");
    std::fs::write(folder.join("liftdesk-personnel.sqlite3"), "à garder").expect("other file");
    let start = chrono::DateTime::parse_from_rfc3339("2026-11-01T10:00:00Z")
        .expect("date")
        .to_utc();
    let mut last = None;
    for day in 0..16 {
        last = Some(
            backup::backup_into_folder(&store, &folder, start + chrono::Duration::days(day))
                .expect("backup"),
        );
    }
    let list = backup::list_backups(&folder).expect("list");
    assert_eq!(list.len(), 14);
    assert_eq!(list[0], last.expect("last"));
    assert!(list.iter().all(|b| b.name.starts_with("liftdesk-2026")));
    assert!(folder.join("notes.txt").exists());
    assert!(folder.join("liftdesk-personnel.sqlite3").exists());
    // The two oldest went.
    let oldest = list.last().and_then(|b| b.taken_at).expect("date");
    assert!(oldest.date() >= chrono::NaiveDate::from_ymd_opt(2026, 11, 2).expect("date"));
    backup::check_backup(&list[0].path).expect("sound");
}

#[test]
fn an_older_database_is_backed_up_before_its_update_and_a_fresh_one_is_not() {
    let dir = tempfile::tempdir().expect("dir");
    let path = db_path(dir.path());
    {
        migrate_to_version(&path, 1).expect("version 1");
    }
    drop(Store::open(&path).expect("migrate"));
    let folder = dir.path().join(backup::MIGRATION_BACKUP_DIR);
    let copies: Vec<_> = std::fs::read_dir(&folder)
        .expect("migration backups")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    let name = copies[0]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with("liftdesk-avant-schema-1-"), "{name}");
    let conn = rusqlite::Connection::open(&copies[0]).expect("copy");
    let version: i64 = conn
        .query_row(
            "SELECT MAX(version) FROM refinery_schema_history",
            [],
            |r| r.get(0),
        )
        .expect("version");
    assert_eq!(version, 1, "the copy is the database as it was");
    // Reopening an up-to-date database takes no further copy.
    drop(Store::open(&path).expect("reopen"));
    assert_eq!(std::fs::read_dir(&folder).expect("folder").count(), 1);

    let fresh = tempfile::tempdir().expect("dir");
    drop(Store::open(&db_path(fresh.path())).expect("fresh"));
    assert!(!fresh.path().join(backup::MIGRATION_BACKUP_DIR).exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_files_hold_no_secret() {
    let dir = tempfile::tempdir().expect("dir");
    let logs = dir.path().join("journaux");
    let served = serve(dir.path(), &["--log-dir", logs.to_str().expect("utf-8")]);
    let creds = demo_credentials(dir.path());
    let token = creds["admin"]["apiToken"]
        .as_str()
        .expect("token")
        .to_owned();
    let key = creds["callCenterKeys"][0].as_str().expect("key").to_owned();
    let email = creds["admin"]["email"].as_str().expect("email").to_owned();
    let password = creds["admin"]["password"]
        .as_str()
        .expect("password")
        .to_owned();
    let agency = creds["agencies"][0]["id"]
        .as_str()
        .expect("agency")
        .to_owned();
    let number = equipment_number(dir.path(), &agency);
    let base = served.base_url.clone();
    let client = crate::common::http_client_builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let me = client
        .get(format!("{base}/api/v2/me?token={token}"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("me");
    assert_eq!(me.status().as_u16(), 200);
    let call = client
        .post(format!("{base}/api/partners/calls"))
        .bearer_auth(&key)
        .json(&json!({"reference": "SAV-LOG-1", "equipement": number, "type": "personne_bloquee", "description": "Personne bloquée."}))
        .send()
        .await
        .expect("call");
    assert_eq!(call.status().as_u16(), 201);
    let session: Value = client
        .post(format!("{base}/app/api/session"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .expect("sign in")
        .json()
        .await
        .expect("session");
    let csrf = session["csrfToken"].as_str().expect("csrf").to_owned();
    let created: Value = client
        .post(format!("{base}/app/api/webhooks"))
        .header("X-CSRF-Token", &csrf)
        .json(&json!({ "url": "https://exemple.invalid/crochet", "events": ["appel.clos"] }))
        .send()
        .await
        .expect("webhook")
        .json()
        .await
        .expect("created");
    let webhook_secret = created["secret"].as_str().expect("secret").to_owned();
    stop(served);

    let mut text = String::new();
    for entry in std::fs::read_dir(&logs).expect("log dir").flatten() {
        text.push_str(&std::fs::read_to_string(entry.path()).expect("log"));
    }
    assert!(text.contains("requête"), "requests are logged: {text}");
    assert!(text.contains("/app/api/webhooks"));
    for secret in [&token, &key, &password, &csrf, &webhook_secret] {
        assert!(
            !text.contains(secret.as_str()),
            "secret in the logs: {secret}"
        );
    }
}

#[test]
fn the_backup_command_copies_an_older_database_as_it_is() {
    let dir = tempfile::tempdir().expect("dir");
    {
        migrate_to_version(&db_path(dir.path()), 1).expect("version 1");
    }
    let target = dir.path().join("ancienne.sqlite3");
    let out = cli_json(
        dir.path(),
        &["backup", "--to", target.to_str().expect("utf-8")],
    );
    assert_eq!(out["schemaVersion"], json!(1));
    // Neither migrated nor copied for a migration.
    assert!(!dir.path().join(backup::MIGRATION_BACKUP_DIR).exists());
    let version: i64 = sqlite_file(dir.path())
        .query_row(
            "SELECT MAX(version) FROM refinery_schema_history",
            [],
            |r| r.get(0),
        )
        .expect("version");
    assert_eq!(version, 1);
    assert!(backup::check_backup(&target).expect("check").older_schema);
}
