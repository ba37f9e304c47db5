//! Agency isolation across the REST API v2: with two organizations and two
//! agencies, no operation reveals or changes another scope's object.
//!
//! The demo organization has agencies A and B. Objects of A are attacked by:
//! - the admin of another organization (its token cannot see A at all);
//! - the demo admin acting in agency B (`X-Service-Agency: B`);
//! - the demo member (agency A only) asking to act in B: 403 before anything.
//!
//! Reads answer 404 and reveal nothing; writes answer 404 and change nothing
//! (a digest of every table is compared before and after).

use crate::common;

use common::*;
use serde_json::{Value, json};

/// Every table's rows as text (sessions, credentials and the audit log
/// excepted: using a token touches them), to prove nothing changed.
fn snapshot(dir: &std::path::Path) -> Vec<(String, Vec<String>)> {
    let conn = open_db(dir);
    let skipped = [
        "audit_log",
        "refinery_schema_history",
        "sessions",
        "credentials",
    ];
    let tables: Vec<String> = conn
        .tables()
        .into_iter()
        .filter(|table| !skipped.contains(&table.as_str()))
        .collect();
    tables
        .into_iter()
        .map(|table| {
            let mut stmt = conn
                .prepare(&format!("SELECT * FROM \"{table}\" ORDER BY 1"))
                .expect("select");
            let rows: Vec<String> = stmt
                .query_map([], |row| {
                    let mut text = String::new();
                    for i in 0..row.column_count() {
                        text.push_str(&format!(
                            "{:?}|",
                            row.get::<liftdesk::store::sql::Value>(i)?
                        ));
                    }
                    Ok(text)
                })
                .expect("rows")
                .collect::<Result<_, _>>()
                .expect("rows");
            (table, rows)
        })
        .collect()
}

struct Scene {
    server: TestServer,
    creds: Value,
    agency_a: String,
    agency_b: String,
    outsider_token: String,
}

async fn scene() -> Scene {
    let dir = tempfile::tempdir().expect("dir");
    let creds = cli_json(dir.path(), &["demo", "--seed", "11"]);
    let outsider = init_org(dir.path(), "Concurrent", "admin@concurrent.fr");
    let agency_a = creds["agencies"][0]["id"].as_str().expect("a").to_owned();
    let agency_b = creds["agencies"][1]["id"].as_str().expect("b").to_owned();
    let server = TestServer::start_in(dir).await;
    Scene {
        server,
        creds,
        agency_a,
        agency_b,
        outsider_token: outsider.admin_token,
    }
}

fn first_id(dir: &std::path::Path, sql: &str, agency: &str) -> String {
    open_db(dir)
        .query_row(sql, [agency], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn call(
    server: &TestServer,
    method: &str,
    path: &str,
    token: &str,
    agency: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let url = server.url(path);
    let mut request = match method {
        "GET" => server.client.get(url),
        "POST" => server.client.post(url),
        "PATCH" => server.client.patch(url),
        other => panic!("method {other}"),
    };
    request = request.bearer_auth(token);
    if let Some(agency) = agency {
        request = request.header("X-Service-Agency", agency);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn no_operation_reveals_or_changes_another_scopes_object() {
    let s = scene().await;
    let dir = s.server.data_dir.path().to_owned();
    let admin = s.creds["admin"]["apiToken"]
        .as_str()
        .expect("token")
        .to_owned();
    let member = s.creds["member"]["apiToken"]
        .as_str()
        .expect("token")
        .to_owned();

    let equipment = first_id(
        &dir,
        "SELECT id FROM equipment WHERE agency_id = ?1 ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let survey = first_id(
        &dir,
        "SELECT id FROM surveys WHERE agency_id = ?1 ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let survey_equipment = first_id(
        &dir,
        "SELECT equipment_id FROM surveys WHERE agency_id = ?1 ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let open_survey = first_id(
        &dir,
        "SELECT id FROM surveys WHERE agency_id = ?1 AND status = 'a_realiser' ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let visit = first_id(
        &dir,
        "SELECT id FROM visits WHERE agency_id = ?1 AND status = 'planifiee' ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let quote = first_id(
        &dir,
        "SELECT id FROM quotes WHERE agency_id = ?1 AND status = 'brouillon' ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let invoice = first_id(
        &dir,
        "SELECT id FROM invoices WHERE agency_id = ?1 AND status = 'brouillon' ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let issued = first_id(
        &dir,
        "SELECT id FROM invoices WHERE agency_id = ?1 AND nature = 'facture' AND status = 'emise' ORDER BY id LIMIT 1",
        &s.agency_a,
    );
    let call_id = first_id(
        &dir,
        "SELECT id FROM calls WHERE agency_id = ?1 ORDER BY id LIMIT 1",
        &s.agency_a,
    );

    // Every operation on an object of agency A (filled in with the real paths).
    let operations: Vec<(&str, String, Option<Value>)> = vec![
        ("GET", format!("/api/v2/surveys/{survey}"), None),
        ("GET", format!("/api/v2/surveys/{survey}/data"), None),
        ("GET", format!("/api/v2/visits/{visit}"), None),
        ("GET", format!("/api/v2/quotes/{quote}"), None),
        ("GET", format!("/api/v2/invoices/{invoice}"), None),
        ("GET", format!("/api/v2/calls/{call_id}"), None),
        (
            "GET",
            format!("/api/v2/technical-fields?equipment={equipment}&q=charge"),
            None,
        ),
        (
            "PATCH",
            format!("/api/v2/equipment/{equipment}/identity"),
            Some(json!({ "location": "Piratée" })),
        ),
        (
            "PATCH",
            format!("/api/v2/equipment/{equipment}"),
            Some(json!({ "marque": "Piratée" })),
        ),
        (
            "POST",
            format!("/api/v2/quotes/{quote}/send"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/quotes/{quote}/accept"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/quotes/{quote}/refuse"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/invoices/{invoice}/issue"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/invoices/{issued}/send"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/invoices/{issued}/payment"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/invoices/{issued}/credit-notes"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/visits/{visit}/start"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/v2/surveys/{open_survey}/submit"),
            Some(json!({ "values": { "marque": "Piratée" } })),
        ),
    ];
    // Creations that name an object of agency A: refused without creating anything.
    let creations: Vec<(&str, Value)> = vec![
        (
            "/api/v2/quotes",
            json!({ "equipmentId": equipment, "origin": "client", "object": "Essai", "rows": [{ "label": "x", "quantity": 1, "unitPrice": 10 }] }),
        ),
        (
            "/api/v2/discrepancies",
            json!({ "equipmentId": survey_equipment, "surveyId": survey, "finding": "Constat d'essai sur la porte." }),
        ),
    ];

    let before = snapshot(&dir);
    let secrets = [
        s.creds["organizationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        equipment.clone(),
    ];
    for (method, path, body) in &operations {
        for (who, token, agency) in [
            ("another organization", s.outsider_token.as_str(), None),
            (
                "the same organization acting in agency B",
                admin.as_str(),
                Some(s.agency_b.as_str()),
            ),
        ] {
            let (status, answer) =
                call(&s.server, method, path, token, agency, body.as_ref()).await;
            assert_eq!(status, 404, "{method} {path} by {who}: {answer}");
            assert!(
                answer["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{method} {path}: French reason expected"
            );
            let text = answer.to_string();
            assert!(
                !secrets.iter().any(|secret| text.contains(secret.as_str())),
                "{method} {path} reveals an id: {text}"
            );
        }
        let (status, _) = call(
            &s.server,
            method,
            path,
            &member,
            Some(&s.agency_b),
            body.as_ref(),
        )
        .await;
        assert_eq!(
            status, 403,
            "{method} {path}: the member may not act in agency B"
        );
    }
    for (path, body) in &creations {
        for (who, token, agency) in [
            ("another organization", s.outsider_token.as_str(), None),
            (
                "the same organization acting in agency B",
                admin.as_str(),
                Some(s.agency_b.as_str()),
            ),
        ] {
            let (status, answer) = call(&s.server, "POST", path, token, agency, Some(body)).await;
            assert!(
                status == 404 || status == 422,
                "POST {path} by {who}: {status} {answer}"
            );
        }
    }
    // Lists never show agency A's rows to agency B or to another organization.
    for path in [
        "/api/v2/surveys?limit=200",
        "/api/v2/invoices?limit=200",
        "/api/v2/planning",
        "/api/v2/technicians",
        "/api/v2/external/equipment",
    ] {
        for (token, agency) in [
            (s.outsider_token.as_str(), None),
            (admin.as_str(), Some(s.agency_b.as_str())),
        ] {
            let (status, answer) = call(&s.server, "GET", path, token, agency, None).await;
            assert_eq!(status, 200, "GET {path}: {answer}");
            let text = answer.to_string();
            for id in [&survey, &invoice, &visit, &equipment] {
                assert!(
                    !text.contains(id.as_str()),
                    "GET {path} reveals an object of agency A"
                );
            }
        }
    }
    assert_eq!(snapshot(&dir), before, "a refused call changed the store");

    // Control: every operation above exists and is reached by the rightful
    // caller (the demo admin acting in agency A): not one answers 404, so the
    // 404s above come from the scope, not from a wrong path.
    for (method, path, body) in &operations {
        let (status, answer) = call(
            &s.server,
            method,
            path,
            &admin,
            Some(&s.agency_a),
            body.as_ref(),
        )
        .await;
        assert!(
            matches!(status, 200 | 201 | 422),
            "{method} {path} by its agency: {status} {answer}"
        );
    }
    for (path, body) in &creations {
        let (status, answer) = call(
            &s.server,
            "POST",
            path,
            &admin,
            Some(&s.agency_a),
            Some(body),
        )
        .await;
        assert_eq!(status, 201, "POST {path} by its agency: {answer}");
    }
    s.server.stop().await;
}
