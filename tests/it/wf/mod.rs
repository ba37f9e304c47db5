//! Fixtures shared by the partner workflow API tests (`tests/wf_*.rs`).
#![allow(dead_code)]

use serde_json::Value;

use crate::common::world::World;
use crate::common::*;

pub fn id() -> String {
    uuid::Uuid::now_v7().to_string()
}

pub fn now_text() -> String {
    liftdesk::clock::now_text()
}

/// Two organizations (agency A and agency B) and a partner key attributed
/// to agency A only.
pub struct Setup {
    pub server: TestServer,
    pub agency: String,
    pub other_agency: String,
    pub key: String,
}

pub async fn setup() -> Setup {
    let server = TestServer::start().await;
    let a = init_org(server.data_dir.path(), "Alpha", "admin@alpha.fr");
    let b = init_org(server.data_dir.path(), "Beta", "admin@beta.fr");
    let key = server.cli_json(&[
        "partner-key",
        "create",
        "--name",
        "Partenaire",
        "--agency",
        &a.agency_id,
    ]);
    Setup {
        agency: a.agency_id,
        other_agency: b.agency_id,
        key: str_of(&key, "key").to_owned(),
        server,
    }
}

/// An `ascenseur` of the agency, under contract, without building, added
/// by the operation (`World::lift`); returns its id.
pub async fn lift(server: &TestServer, agency: &str, number: &str) -> String {
    World::in_agency(server, agency).lift(number, None).await
}

pub async fn post(server: &TestServer, key: &str, path: &str, body: &Value) -> (u16, Value) {
    post_raw(server, Some(key), path, &body.to_string()).await
}

pub async fn post_raw(
    server: &TestServer,
    key: Option<&str>,
    path: &str,
    body: &str,
) -> (u16, Value) {
    let mut request = server
        .client
        .post(server.url(&format!("/api/1.1/wf{path}")))
        .header("Content-Type", "application/json")
        .body(body.to_owned());
    if let Some(key) = key {
        request = request.header("x-api-key", key);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The success envelope's `response`, asserting status 200 and the envelope's keys.
pub fn success(answer: (u16, Value)) -> Value {
    let (status, body) = answer;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "success", "{body}");
    let keys: Vec<&String> = body.as_object().expect("object").keys().collect();
    assert_eq!(keys.len(), 2, "{body}");
    body["response"].clone()
}

/// An error envelope with that status; its French message.
pub fn error(answer: (u16, Value), status: u16) -> String {
    let (got, body) = answer;
    assert_eq!(got, status, "{body}");
    assert_eq!(body["status"], "error", "{body}");
    assert_eq!(body.as_object().map(|o| o.len()), Some(2), "{body}");
    body["message"].as_str().expect("message").to_owned()
}

/// Every row of the tables a workflow operation may write, as text: equal
/// before and after means nothing changed.
pub fn snapshot(server: &TestServer) -> String {
    let conn = open_db(server.data_dir.path());
    let mut out = String::new();
    for table in [
        "clients",
        "contacts",
        "deals",
        "surveys",
        "survey_deals",
        "buildings",
        "equipment",
        "equipment_values",
        "sheet_tokens",
        "audit_log",
    ] {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM {table}"))
            .expect("prepare");
        let mut rows = stmt
            .query_map([], |row| {
                let mut line = String::new();
                for i in 0..row.column_count() {
                    let value: liftdesk::store::sql::Value = row.get(i)?;
                    line.push_str(&format!("{value:?}|"));
                }
                Ok(line)
            })
            .expect("query")
            .collect::<Result<Vec<_>, _>>()
            .expect("rows");
        // In a set order whatever the engine's.
        rows.sort();
        out.push_str(&format!("{table}:\n{}\n", rows.join("\n")));
    }
    out
}
