//! `liftdesk migrate --to postgresql://…`: the demonstration on a desktop's
//! SQLite database, served and read through every list of the REST API
//! (each agency, every invoice's detail), then copied into an empty
//! PostgreSQL database and served from there by a server with the desktop's
//! key files: every answer is the same, byte for byte. Afterwards the
//! numbering goes on without a gap, a call center's reference still finds
//! its call, the audit log's numbering goes on; a copy of counts SQLite
//! kept wrong, a second copy into the same database, and a copy from
//! PostgreSQL, are refused in French.
//!
//! On SQLite alone (no PostgreSQL server in the run) the test returns at
//! once.

use crate::common;

use std::path::Path;

use common::app::StaffClient;
use common::served::Served;
use common::*;
use liftdesk::auth::shared_keys::SHARED_KEY_FILES;
use serde_json::{Value, json};

/// The lists compared, per agency (`X-Service-Agency`).
const LISTS: [&str; 19] = [
    "/me",
    "/agencies",
    "/agencies/managed",
    "/agency/identity",
    "/buildings",
    "/calls?limit=200",
    "/clients?limit=200",
    "/equipment?limit=200",
    "/equipment?limit=200&page=2",
    "/external/equipment",
    "/invoices?limit=200",
    "/invoices?limit=200&page=2",
    "/people",
    "/quotes?limit=200",
    "/surveys?limit=200",
    "/technicians",
    "/technicians/records",
    "/users",
    "/webhooks",
];

/// GET `path` of the REST API v2 with the token, in the agency.
async fn v2(served: &Served, token: &str, agency: &str, path: &str) -> (u16, Value) {
    let response = http_client()
        .get(served.url(&format!("/api/v2{path}")))
        .bearer_auth(token)
        .header("X-Service-Agency", agency)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// What the server answers: every list of every agency, every invoice's
/// and quote's detail, the week's planning; keyed by agency and path.
async fn answers(served: &Served, token: &str, agencies: &[String]) -> Vec<(String, u16, Value)> {
    let mut out = Vec::new();
    for agency in agencies {
        let mut paths: Vec<String> = LISTS.iter().map(|p| (*p).to_owned()).collect();
        paths.push("/planning?day=2026-11-23".to_owned());
        let (_, invoices) = v2(served, token, agency, "/invoices?limit=200").await;
        for row in invoices["results"].as_array().into_iter().flatten() {
            paths.push(format!("/invoices/{}", str_of(row, "id")));
        }
        let (_, quotes) = v2(served, token, agency, "/quotes?limit=200").await;
        for row in quotes["results"].as_array().into_iter().flatten() {
            paths.push(format!("/quotes/{}", str_of(row, "id")));
        }
        for path in paths {
            let (status, body) = v2(served, token, agency, &path).await;
            out.push((format!("{agency} {path}"), status, body));
        }
    }
    out
}

/// The highest number of the series `prefix` (`FA-PO-2026-`) the answers
/// show, 0 if none.
fn highest_number(answers: &[(String, u16, Value)], prefix: &str) -> u32 {
    answers
        .iter()
        .filter(|(key, ..)| key.contains("/invoices/"))
        .filter_map(|(_, _, body)| {
            body["number"]
                .as_str()
                .or(body["invoice"]["number"].as_str())
        })
        .filter_map(|number| number.strip_prefix(prefix)?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

fn serve(data_dir: &Path) -> Served {
    Served::start(
        data_dir,
        data_dir.join("serve.log"),
        &["--rate-limit", "100000/10000"],
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_desktop_database_moved_to_postgresql_answers_the_same() {
    if !common::engine::on_postgres() {
        eprintln!("Sans serveur PostgreSQL dans ce passage : rien à copier.");
        return;
    }
    // The desktop: the demonstration on SQLite.
    let desktop = tempfile::tempdir().expect("temp dir");
    common::engine::keep_on_sqlite(desktop.path());
    let demo = cli_json(desktop.path(), &["demo"]);
    let token = str_of(&demo["admin"], "apiToken").to_owned();
    let agencies: Vec<String> = demo["agencies"]
        .as_array()
        .expect("agencies")
        .iter()
        .map(|a| str_of(a, "id").to_owned())
        .collect();
    let served = serve(desktop.path());
    let before = answers(&served, &token, &agencies).await;
    let before_base = served.base_url.clone();
    drop(served);
    assert!(before.len() > 100, "{} answers", before.len());
    let refused: Vec<_> = before
        .iter()
        .filter(|(_, status, _)| *status != 200)
        .collect();
    assert!(refused.is_empty(), "{refused:?}");

    // The agency server's database: a new schema, and a data directory
    // with the desktop's key files.
    let server_dir = tempfile::tempdir().expect("temp dir");
    let url = common::engine::database_url(server_dir.path()).expect("PostgreSQL");
    for name in SHARED_KEY_FILES {
        std::fs::copy(desktop.path().join(name), server_dir.path().join(name)).expect("key");
    }
    // A count SQLite kept wrong (damaged): the copy recounts, refuses,
    // keeps nothing (the copy below then finds the database empty).
    let desktop_db = open_db(desktop.path());
    for (damage, repair, table) in [
        (
            "UPDATE invoice_status_counts SET n = n + 1 WHERE status = 'emise'",
            "UPDATE invoice_status_counts SET n = n - 1 WHERE status = 'emise'",
            "invoice_status_counts",
        ),
        (
            "UPDATE equipment SET surveyed_fields = surveyed_fields + 3
              WHERE id = (SELECT MIN(id) FROM equipment)",
            "UPDATE equipment SET surveyed_fields = surveyed_fields - 3
              WHERE id = (SELECT MIN(id) FROM equipment)",
            "equipment",
        ),
    ] {
        let damaged = desktop_db.execute(damage, []).expect("damage");
        assert!(damaged > 0, "{damage}");
        let out = run_cli(desktop.path(), &["migrate", "--to", &url]);
        assert!(!out.status.success());
        assert!(
            stderr_of(&out).contains(&format!(
                "Les compteurs de la base SQLite ne correspondent pas à ce qu'ils comptent (table {table}, {damaged} ligne(s) fausse(s)) : rien n'a été gardé."
            )),
            "{}",
            stderr_of(&out)
        );
        desktop_db.execute(repair, []).expect("repair");
    }
    drop(desktop_db);
    let copied = cli_json(desktop.path(), &["migrate", "--to", &url]);
    assert_eq!(copied["from"], json!(desktop.path().join("liftdesk.db")));
    // Every table but the technical fields' catalogue (the migrations
    // write it), the counts the triggers keep included.
    assert_eq!(copied["tables"], json!(51));
    let rows = copied["rows"].as_u64().expect("rows");
    assert!(rows > 5_000, "{copied}");

    // Served from PostgreSQL: the same answers.
    let served = serve(server_dir.path());
    let after = answers(&served, &token, &agencies).await;
    assert_eq!(before.len(), after.len());
    // The same, but for the server's own address in the links.
    let shown = |answers: &[(String, u16, Value)], served: &str| -> Vec<String> {
        answers
            .iter()
            .map(|(key, status, body)| format!("{key} {status} {body}").replace(served, "BASE"))
            .collect()
    };
    let (was, is) = (
        shown(&before, &before_base),
        shown(&after, &served.base_url),
    );
    for (was, is) in was.iter().zip(&is) {
        assert_eq!(was, is, "the same answer after the copy");
    }

    // The numbering goes on without a gap.
    let admin = StaffClient::sign_in_at(
        &served.base_url,
        str_of(&demo["admin"], "email"),
        str_of(&demo["admin"], "password"),
    )
    .await;
    // The list's total comes from the counts the triggers keep: copied, and
    // kept again by the triggers (on after the copy) for the next invoice.
    let (_, issued_before) = admin.get("/invoices?status=emise").await;
    let issued_before = issued_before["total"].as_i64().expect("total");
    let (_, clients) = v2(&served, &token, &agencies[0], "/clients?limit=1").await;
    let client = str_of(&clients["results"][0], "id").to_owned();
    let (status, draft) = admin
        .post(
            "/invoices",
            json!({ "clientId": client, "lines": [{ "label": "Visite", "quantity": 1, "unitPrice": 90 }] }),
        )
        .await;
    assert_eq!(status, 201, "{draft}");
    let invoice = str_of(&draft, "id").to_owned();
    let (status, body) = admin
        .post(&format!("/invoices/{invoice}/issue"), json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, issued_after) = admin.get("/invoices?status=emise").await;
    assert_eq!(
        issued_after["total"],
        json!(issued_before + 1),
        "{issued_after}"
    );
    let (_, detail) = admin.get(&format!("/invoices/{invoice}")).await;
    let number = str_of(&detail["invoice"], "number");
    let (prefix, n) = number.rsplit_once('-').expect("FA-…-NNNNNN");
    let prefix = format!("{prefix}-");
    let highest = highest_number(&before, &prefix);
    assert!(highest > 0, "the demo issued in the series {prefix}");
    assert_eq!(n, format!("{:06}", highest + 1), "{number} after {highest}");

    // The audit log's numbering goes on after the copied entries.
    let copied_seq: i64 = open_db(desktop.path())
        .query_row("SELECT MAX(seq) FROM audit_log", [], |r| r.get(0))
        .expect("audit");
    let issued_seq: i64 = open_db(server_dir.path())
        .query_row(
            "SELECT MIN(seq) FROM audit_log WHERE object_id = ?1",
            liftdesk::store::params![invoice],
            |r| r.get(0),
        )
        .expect("audit");
    assert!(issued_seq > copied_seq, "{issued_seq} after {copied_seq}");

    // A second copy into the same database: refused, nothing written.
    drop(served);
    let out = run_cli(desktop.path(), &["migrate", "--to", &url]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains(
            "La base PostgreSQL n'est pas vide (table organizations) : la copie se fait dans une base neuve, rien n'a été écrit."
        ),
        "{}",
        stderr_of(&out)
    );
    // From PostgreSQL: refused.
    let out = run_cli(server_dir.path(), &["migrate", "--to", &url]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("« migrate » copie la base SQLite du dossier de données"),
        "{}",
        stderr_of(&out)
    );
}
