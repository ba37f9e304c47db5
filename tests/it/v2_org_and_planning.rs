//! REST API v2, organization and planning: GET /agencies, /users,
//! /technicians, /planning, /visits/{id} and the visit's transitions,
//! /calls/{id}. Fixtures are written with SQL; every call goes over HTTP to
//! the real router.

use crate::common;

use std::time::Instant;

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use common::*;
use liftdesk::clock;
use rusqlite::{Connection, params};
use serde_json::{Value, json};

const UNAUTHORIZED: &str = "Authentification requise : jeton d'API manquant, inconnu ou révoqué.";

fn object_keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected, got {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn id() -> String {
    uuid::Uuid::now_v7().to_string()
}

fn ts(at: DateTime<Utc>) -> String {
    clock::format_timestamp(at)
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("day")
}

fn day_text(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

// -- HTTP helpers -----------------------------------------------------------

async fn post(
    server: &TestServer,
    path: &str,
    token: Option<&str>,
    agency: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = server.client.post(server.url(path));
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    if let Some(agency) = agency {
        request = request.header("X-Service-Agency", agency);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (
        status,
        response.json::<Value>().await.unwrap_or(Value::Null),
    )
}

async fn post_raw(
    server: &TestServer,
    path: &str,
    token: &str,
    content_type: &str,
    body: &str,
) -> (u16, Value) {
    let response = server
        .client
        .post(server.url(path))
        .header("Authorization", format!("Bearer {token}"))
        .header("Content-Type", content_type)
        .body(body.to_owned())
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (
        status,
        response.json::<Value>().await.unwrap_or(Value::Null),
    )
}

fn token_for(server: &TestServer, email: &str) -> String {
    str_of(
        &server.cli_json(&["token", "create", "--email", email, "--name", "tests"]),
        "token",
    )
    .to_owned()
}

fn create_user(
    server: &TestServer,
    email: &str,
    name: &str,
    agencies: &[&str],
    extra: &[&str],
) -> String {
    let mut args = vec![
        "user",
        "create",
        "--email",
        email,
        "--name",
        name,
        "--password",
        "motdepasse1",
    ];
    for agency in agencies {
        args.push("--agency");
        args.push(agency);
    }
    args.extend_from_slice(extra);
    str_of(&server.cli_json(&args), "id").to_owned()
}

fn operator_token(server: &TestServer) -> String {
    create_operator(server.data_dir.path(), "ops@service.fr", "motdepasse1");
    token_for(server, "ops@service.fr")
}

// -- SQL fixtures -----------------------------------------------------------

struct Db(Connection);

impl Db {
    fn open(server: &TestServer) -> Db {
        let conn = open_db(server.data_dir.path());
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .expect("busy timeout");
        Db(conn)
    }

    fn technician(&self, agency: &str, name: &str, sectors: Option<&str>) -> String {
        let tech = id();
        self.0
            .execute(
                "INSERT INTO technicians (id, agency_id, name, sectors, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![tech, agency, name, sectors, clock::now_text()],
            )
            .expect("technician");
        tech
    }

    fn building(
        &self,
        agency: &str,
        name: Option<&str>,
        address: &str,
        postal: Option<&str>,
        city: Option<&str>,
    ) -> String {
        let building = id();
        let now = clock::now_text();
        self.0
            .execute(
                "INSERT INTO buildings (id, agency_id, name, address, postal_code, city, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
                params![building, agency, name, address, postal, city, now],
            )
            .expect("building");
        building
    }

    fn equipment(&self, agency: &str, building: Option<&str>, number: &str) -> String {
        let equipment = id();
        let now = clock::now_text();
        self.0
            .execute(
                "INSERT INTO equipment (id, agency_id, building_id, number, type, maintenance_contract, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, 'ascenseur', 'parc', ?5, ?5)",
                params![equipment, agency, building, number, now],
            )
            .expect("equipment");
        equipment
    }

    /// A visit; `done` = (arrived_at, left_at, done_on, signed_by, observations).
    #[allow(clippy::too_many_arguments)]
    fn visit(
        &self,
        agency: &str,
        equipment: &str,
        technician: Option<&str>,
        planned_for: &str,
        deadline: Option<&str>,
        status: &str,
        arrived_at: Option<&str>,
        done: Option<(&str, &str, &str, Option<&str>)>,
    ) -> String {
        let visit = id();
        let now = clock::now_text();
        let (left, done_on, signed, observations) = match done {
            Some((left, done_on, signed, observations)) => {
                (Some(left), Some(done_on), Some(signed), observations)
            }
            None => (None, None, None, None),
        };
        self.0
            .execute(
                "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for, deadline, status,
                                     arrived_at, left_at, done_on, signed_by, observations, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)",
                params![
                    visit, agency, equipment, technician, planned_for, deadline, status, arrived_at,
                    left, done_on, signed, observations, now
                ],
            )
            .expect("visit");
        visit
    }

    fn on_call(&self, technician: &str, starts: DateTime<Utc>, ends: DateTime<Utc>) {
        self.0
            .execute(
                "INSERT INTO technician_on_call (id, technician_id, starts_at, ends_at) VALUES (?1, ?2, ?3, ?4)",
                params![id(), technician, ts(starts), ts(ends)],
            )
            .expect("on call");
    }

    fn absence(&self, technician: &str, starts: NaiveDate, ends: NaiveDate) {
        self.0
            .execute(
                "INSERT INTO technician_absences (id, technician_id, starts_on, ends_on, reason)
                 VALUES (?1, ?2, ?3, ?4, 'Congés payés')",
                params![id(), technician, day_text(starts), day_text(ends)],
            )
            .expect("absence");
    }

    fn call_center(&self, agency: &str, name: &str) -> String {
        let center = id();
        self.0
            .execute(
                "INSERT INTO call_centers (id, agency_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![center, agency, name, clock::now_text()],
            )
            .expect("call center");
        center
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        agency: &str,
        center: Option<&str>,
        equipment: &str,
        reference: &str,
        call_type: &str,
        status: &str,
        technician: Option<&str>,
        caller: Option<&str>,
        received: &str,
        arrived: Option<&str>,
        resolved: Option<&str>,
    ) -> String {
        let call = id();
        self.0
            .execute(
                "INSERT INTO calls (id, agency_id, call_center_id, reference, equipment_id, type, description,
                                    caller, received_at, status, technician_id, arrived_at, resolved_at,
                                    created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'Cabine bloquée entre deux étages', ?7, ?8, ?9, ?10, ?11, ?12, ?8, ?8)",
                params![
                    call, agency, center, reference, equipment, call_type, caller, received, status,
                    technician, arrived, resolved
                ],
            )
            .expect("call");
        call
    }

    fn visit_row(&self, visit: &str) -> Value {
        self.0
            .query_row(
                "SELECT status, arrived_at, left_at, done_on, signed_by, observations, planned_for, technician_id
                 FROM visits WHERE id = ?1",
                [visit],
                |r| {
                    Ok(json!({
                        "status": r.get::<_, String>(0)?,
                        "arrivedAt": r.get::<_, Option<String>>(1)?,
                        "leftAt": r.get::<_, Option<String>>(2)?,
                        "doneOn": r.get::<_, Option<String>>(3)?,
                        "signedBy": r.get::<_, Option<String>>(4)?,
                        "observations": r.get::<_, Option<String>>(5)?,
                        "plannedFor": r.get::<_, String>(6)?,
                        "technicianId": r.get::<_, Option<String>>(7)?,
                    }))
                },
            )
            .expect("visit row")
    }

    /// (action, actor kind, actor id) of the visit's audit entries, oldest first.
    fn audit_of(&self, object: &str) -> Vec<(String, String, Option<String>)> {
        let mut stmt = self
            .0
            .prepare(
                "SELECT action, actor_kind, actor_id FROM audit_log WHERE object_id = ?1 ORDER BY seq",
            )
            .expect("audit");
        stmt.query_map([object], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    }

    fn api_token_id(&self, account_email: &str) -> String {
        self.0
            .query_row(
                "SELECT c.id FROM credentials c JOIN accounts a ON a.id = c.account_id
                 WHERE a.email = ?1 AND c.kind = 'api_token' ORDER BY c.created_at DESC LIMIT 1",
                [account_email],
                |r| r.get(0),
            )
            .expect("token id")
    }
}

// -- GET /agencies ----------------------------------------------------------

#[tokio::test]
async fn agencies_list_the_scope_with_organization_and_v1_identifier() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let east = server.cli_json(&[
        "agency",
        "create",
        "--organization",
        &org.organization_id,
        "--name",
        "Durand Est",
        "--v1-id",
        "V1-EST-7",
    ]);
    let east_id = str_of(&east, "id").to_owned();

    let (status, body) = server
        .get_with("/api/v2/agencies", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(object_keys(&body), ["agencies"]);
    let organization = json!({ "id": org.organization_id, "name": "Durand" });
    assert_eq!(
        body["agencies"],
        json!([
            { "id": org.agency_id, "name": "Durand Centre", "organization": organization, "v1Id": null },
            { "id": east_id, "name": "Durand Est", "organization": organization, "v1Id": "V1-EST-7" },
        ])
    );
    for agency in body["agencies"].as_array().expect("array") {
        assert_eq!(object_keys(agency), ["id", "name", "organization", "v1Id"]);
        assert_eq!(object_keys(&agency["organization"]), ["id", "name"]);
    }
    // The acting agency does not narrow an account's own list.
    let (_, same) = server
        .get_with("/api/v2/agencies", Some(&org.admin_token), Some(&east_id))
        .await;
    assert_eq!(same, body);

    // A member reads the agencies it works in.
    create_user(&server, "membre@durand.fr", "Membre", &[&east_id], &[]);
    let member = token_for(&server, "membre@durand.fr");
    let (status, body) = server
        .get_with("/api/v2/agencies", Some(&member), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        body["agencies"],
        json!([{ "id": east_id, "name": "Durand Est", "organization": organization, "v1Id": "V1-EST-7" }])
    );

    // The operator: every client organization without an agency; with one, its organization.
    let operator = operator_token(&server);
    let (status, body) = server
        .get_with("/api/v2/agencies", Some(&operator), None)
        .await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = body["agencies"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|a| a["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        [
            other.agency_id.as_str(),
            org.agency_id.as_str(),
            east_id.as_str()
        ]
    );
    let (status, body) = server
        .get_with("/api/v2/agencies", Some(&operator), Some(&east_id))
        .await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = body["agencies"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|a| a["id"].as_str())
        .collect();
    assert_eq!(ids, [org.agency_id.as_str(), east_id.as_str()]);

    // Refusals.
    let (status, body) = server.get_with("/api/v2/agencies", None, None).await;
    assert_eq!((status, body), (401, json!({ "error": UNAUTHORIZED })));
    let (status, _) = server
        .get_with(
            "/api/v2/agencies",
            Some(&org.admin_token),
            Some("pas-un-uuid"),
        )
        .await;
    assert_eq!(status, 400);
    let (status, body) = server
        .get_with(
            "/api/v2/agencies",
            Some(&org.admin_token),
            Some(&other.agency_id),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Cette agence est hors du périmètre de ce compte." })
        )
    );
    server.stop().await;
}

// -- GET /users ---------------------------------------------------------------

#[tokio::test]
async fn users_list_the_accounts_of_the_readable_agencies_without_secrets() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let east = server.cli_json(&[
        "agency",
        "create",
        "--organization",
        &org.organization_id,
        "--name",
        "Durand Est",
    ]);
    let east_id = str_of(&east, "id").to_owned();
    let member = create_user(
        &server,
        "bruno@durand.fr",
        "Bruno Membre",
        &[&org.agency_id],
        &["--performs-surveys"],
    );
    let chief = create_user(
        &server,
        "chef@durand.fr",
        "Chef Est",
        &[&east_id],
        &["--admin"],
    );
    let both = create_user(
        &server,
        "ines@durand.fr",
        "Inès Deux",
        &[&east_id, &org.agency_id],
        &[],
    );
    create_user(&server, "loin@autre.fr", "Loin", &[&other.agency_id], &[]);
    let _operator = operator_token(&server);
    let db = Db::open(&server);
    db.0.execute(
        "UPDATE accounts SET position = 'Responsable technique', active = 0 WHERE id = ?1",
        [&chief],
    )
    .expect("update");

    let (status, body) = server
        .get_with("/api/v2/users", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(object_keys(&body), ["users"]);
    let centre = json!({ "id": org.agency_id, "name": "Durand Centre" });
    let est = json!({ "id": east_id, "name": "Durand Est" });
    assert_eq!(
        body["users"],
        json!([
            { "id": org.admin_id, "name": "Admin Durand", "email": "admin@durand.fr", "position": null,
              "active": true, "performsSurveys": false, "role": "org_admin", "agencies": [centre, est] },
            { "id": member, "name": "Bruno Membre", "email": "bruno@durand.fr", "position": null,
              "active": true, "performsSurveys": true, "role": "member", "agencies": [centre] },
            { "id": chief, "name": "Chef Est", "email": "chef@durand.fr", "position": "Responsable technique",
              "active": false, "performsSurveys": false, "role": "agency_admin", "agencies": [est] },
            { "id": both, "name": "Inès Deux", "email": "ines@durand.fr", "position": null,
              "active": true, "performsSurveys": false, "role": "member", "agencies": [centre, est] },
        ])
    );
    for user in body["users"].as_array().expect("array") {
        assert_eq!(
            object_keys(user),
            [
                "active",
                "agencies",
                "email",
                "id",
                "name",
                "performsSurveys",
                "position",
                "role"
            ]
        );
    }
    let text = body.to_string();
    assert!(
        !text.contains("argon2") && !text.contains("svc_agent_"),
        "{text}"
    );

    // A member of the first agency: the accounts working there, with that agency only.
    let member_token = token_for(&server, "bruno@durand.fr");
    let (status, body) = server
        .get_with("/api/v2/users", Some(&member_token), None)
        .await;
    assert_eq!(status, 200);
    let listed: Vec<(&str, &Value)> = body["users"]
        .as_array()
        .expect("array")
        .iter()
        .map(|u| (u["email"].as_str().unwrap_or_default(), &u["agencies"]))
        .collect();
    assert_eq!(
        listed,
        [
            ("admin@durand.fr", &json!([centre])),
            ("bruno@durand.fr", &json!([centre])),
            ("ines@durand.fr", &json!([centre])),
        ]
    );

    // The operator acting in the other organization reads its accounts only.
    let operator = token_for(&server, "ops@service.fr");
    let (status, body) = server
        .get_with("/api/v2/users", Some(&operator), Some(&other.agency_id))
        .await;
    assert_eq!(status, 200);
    let emails: Vec<&str> = body["users"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|u| u["email"].as_str())
        .collect();
    assert_eq!(emails, ["admin@autre.fr", "loin@autre.fr"]);
    // Without an agency: every client organization, never the operator's own account.
    let (_, body) = server
        .get_with("/api/v2/users", Some(&operator), None)
        .await;
    let emails: Vec<&str> = body["users"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|u| u["email"].as_str())
        .collect();
    assert_eq!(emails.len(), 6, "{emails:?}");
    assert!(!emails.contains(&"ops@service.fr"));

    let (status, body) = server.get_with("/api/v2/users", None, None).await;
    assert_eq!((status, body), (401, json!({ "error": UNAUTHORIZED })));
    let (status, _) = server
        .get_with(
            "/api/v2/users",
            Some(&org.admin_token),
            Some(&other.agency_id),
        )
        .await;
    assert_eq!(status, 403);
    server.stop().await;
}

// -- GET /technicians ---------------------------------------------------------

#[tokio::test]
async fn technicians_show_calls_in_progress_standby_absence_and_rest() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let now = Utc::now();
    let today = clock::paris_today();

    let busy = db.technician(agency, "Alice Astreinte", Some("Paris 15e,Paris 16e"));
    let resting = db.technician(agency, "Bruno Repos", Some("Paris 7e"));
    let rested = db.technician(agency, "Chloé Reposée", None);
    let gone = db.technician(agency, "Denis Parti", Some("Paris 1er"));
    db.0.execute("UPDATE technicians SET active = 0 WHERE id = ?1", [&gone])
        .expect("inactive");
    let elsewhere = db.technician(&other.agency_id, "Xavier Ailleurs", None);

    // Alice: on standby now, two calls in progress, one resolved.
    db.on_call(&busy, now - Duration::days(2), now + Duration::days(5));
    let building = db.building(agency, None, "1 rue de la Paix", None, None);
    let equipment = db.equipment(agency, Some(&building), "ASC-1");
    let received = ts(now - Duration::hours(3));
    for (reference, status, resolved) in [
        ("R1", "ouverte", None),
        ("R2", "a_l_arret", None),
        ("R3", "resolue", Some(received.as_str())),
    ] {
        db.call(
            agency,
            None,
            &equipment,
            reference,
            "panne",
            status,
            Some(&busy),
            None,
            &received,
            None,
            resolved,
        );
    }
    // A call of another technician is not Alice's.
    db.call(
        agency,
        None,
        &equipment,
        "R4",
        "panne",
        "sur_place",
        Some(&resting),
        None,
        &received,
        Some(&received),
        None,
    );
    // Bruno: standby ended 3 hours ago (rest 11 h by default); absent since
    // yesterday, then on leave right after.
    let ended = (now - Duration::hours(3)).with_nanosecond_rounded();
    db.on_call(&resting, ended - Duration::days(7), ended);
    db.absence(
        &resting,
        today - Duration::days(1),
        today + Duration::days(2),
    );
    db.absence(
        &resting,
        today + Duration::days(3),
        today + Duration::days(5),
    );
    db.absence(
        &resting,
        today + Duration::days(9),
        today + Duration::days(12),
    );
    // Chloé: standby over 12 hours ago, a leave to come.
    db.on_call(&rested, now - Duration::days(8), now - Duration::hours(12));
    db.absence(
        &rested,
        today + Duration::days(1),
        today + Duration::days(4),
    );
    db.on_call(&elsewhere, now - Duration::days(1), now + Duration::days(1));

    let (status, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!([
            { "id": busy, "name": "Alice Astreinte", "sectors": "Paris 15e,Paris 16e", "openCalls": 2,
              "onCall": true, "absentUntil": null, "offUntil": null },
            { "id": resting, "name": "Bruno Repos", "sectors": "Paris 7e", "openCalls": 1,
              "onCall": false, "absentUntil": day_text(today + Duration::days(5)),
              "offUntil": ts(ended + Duration::hours(11)) },
            { "id": rested, "name": "Chloé Reposée", "sectors": null, "openCalls": 0,
              "onCall": false, "absentUntil": null, "offUntil": null },
        ])
    );
    for technician in body.as_array().expect("array") {
        assert_eq!(
            object_keys(technician),
            [
                "absentUntil",
                "id",
                "name",
                "offUntil",
                "onCall",
                "openCalls",
                "sectors"
            ]
        );
    }
    // The rest lasts the technician's own rest_hours.
    db.0.execute(
        "UPDATE technicians SET rest_hours = 2 WHERE id = ?1",
        [&resting],
    )
    .expect("rest");
    let (_, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(body[1]["offUntil"], Value::Null);

    // The other organization sees its own only; nobody else's.
    let (status, body) = server
        .get_with("/api/v2/technicians", Some(&other.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(body.as_array().map(Vec::len), Some(1));
    assert_eq!(body[0]["id"], json!(elsewhere));

    let (status, body) = server.get_with("/api/v2/technicians", None, None).await;
    assert_eq!((status, body), (401, json!({ "error": UNAUTHORIZED })));
    let (status, _) = server
        .get_with(
            "/api/v2/technicians",
            Some(&org.admin_token),
            Some(&other.agency_id),
        )
        .await;
    assert_eq!(status, 403);
    // The operator must say where it acts.
    let operator = operator_token(&server);
    let (status, body) = server
        .get_with("/api/v2/technicians", Some(&operator), None)
        .await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({ "error": "Indiquez l'agence où agir dans l'en-tête X-Service-Agency." })
        )
    );
    let (status, body) = server
        .get_with(
            "/api/v2/technicians",
            Some(&operator),
            Some(&other.agency_id),
        )
        .await;
    assert_eq!((status, body.as_array().map(Vec::len)), (200, Some(1)));
    server.stop().await;
}

trait RoundToMillis {
    fn with_nanosecond_rounded(self) -> Self;
}

impl RoundToMillis for DateTime<Utc> {
    /// Stored timestamps keep milliseconds.
    fn with_nanosecond_rounded(self) -> Self {
        clock::parse_timestamp(&ts(self)).expect("timestamp")
    }
}

// -- GET /planning --------------------------------------------------------------

#[tokio::test]
async fn planning_returns_the_iso_week_sorted_with_deadlines() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let albert = db.technician(agency, "Albert", None);
    let zoe = db.technician(agency, "Zoé", None);
    let glycines = db.building(
        agency,
        Some("Résidence Les Glycines"),
        "12 rue de Vaugirard",
        Some("75015"),
        Some("Paris"),
    );
    let lone = db.building(agency, None, "3 impasse Sans Nom", None, None);
    let asc1 = db.equipment(agency, Some(&glycines), "ASC-1");
    let asc2 = db.equipment(agency, Some(&lone), "ASC-2");
    let bare = db.equipment(agency, None, "ASC-3");

    // Week of Monday 10 June 2030.
    let wed_zoe = db.visit(
        agency,
        &asc1,
        Some(&zoe),
        "2030-06-12",
        Some("2030-06-11"),
        "planifiee",
        None,
        None,
    );
    let wed_albert = db.visit(
        agency,
        &asc2,
        Some(&albert),
        "2030-06-12",
        Some("2030-06-20"),
        "planifiee",
        None,
        None,
    );
    let wed_nobody = db.visit(
        agency,
        &bare,
        None,
        "2030-06-12",
        None,
        "planifiee",
        None,
        None,
    );
    // Planned the Friday before, done on Monday: shown on Monday.
    let done_monday = db.visit(
        agency,
        &asc1,
        Some(&zoe),
        "2030-06-07",
        Some("2030-06-09"),
        "faite",
        Some("2030-06-10T07:30:00.000Z"),
        Some((
            "2030-06-10T08:10:00.000Z",
            "2030-06-10",
            "M. Petit",
            Some("RAS"),
        )),
    );
    // Planned this week, done next week: not in this week.
    db.visit(
        agency,
        &asc2,
        Some(&albert),
        "2030-06-14",
        Some("2030-06-20"),
        "faite",
        Some("2030-06-17T07:30:00.000Z"),
        Some(("2030-06-17T08:00:00.000Z", "2030-06-17", "M. Petit", None)),
    );
    let sunday = db.visit(
        agency,
        &asc2,
        Some(&albert),
        "2030-06-16",
        Some("2030-06-16"),
        "planifiee",
        None,
        None,
    );
    db.visit(
        agency,
        &asc2,
        Some(&albert),
        "2030-06-09",
        None,
        "planifiee",
        None,
        None,
    );
    db.visit(
        agency,
        &asc2,
        Some(&albert),
        "2030-06-17",
        None,
        "planifiee",
        None,
        None,
    );
    // Another agency's visit in the same week.
    let far_equipment = db.equipment(&other.agency_id, None, "ASC-1");
    db.visit(
        &other.agency_id,
        &far_equipment,
        None,
        "2030-06-12",
        None,
        "planifiee",
        None,
        None,
    );

    let expected = json!([
        { "id": done_monday, "technicianId": zoe, "day": "2030-06-10", "status": "faite",
          "equipmentId": asc1, "number": "ASC-1", "building": "Résidence Les Glycines",
          "address": "12 rue de Vaugirard, 75015 Paris", "deadline": "2030-06-09", "overdue": true },
        { "id": wed_albert, "technicianId": albert, "day": "2030-06-12", "status": "planifiee",
          "equipmentId": asc2, "number": "ASC-2", "building": null,
          "address": "3 impasse Sans Nom", "deadline": "2030-06-20", "overdue": false },
        { "id": wed_zoe, "technicianId": zoe, "day": "2030-06-12", "status": "planifiee",
          "equipmentId": asc1, "number": "ASC-1", "building": "Résidence Les Glycines",
          "address": "12 rue de Vaugirard, 75015 Paris", "deadline": "2030-06-11", "overdue": true },
        { "id": wed_nobody, "technicianId": null, "day": "2030-06-12", "status": "planifiee",
          "equipmentId": bare, "number": "ASC-3", "building": null,
          "address": null, "deadline": null, "overdue": null },
        { "id": sunday, "technicianId": albert, "day": "2030-06-16", "status": "planifiee",
          "equipmentId": asc2, "number": "ASC-2", "building": null,
          "address": "3 impasse Sans Nom", "deadline": "2030-06-16", "overdue": false },
    ]);
    for wanted in ["2030-06-10", "2030-06-13", "2030-06-16"] {
        let (status, body) = server
            .get_with(
                &format!("/api/v2/planning?day={wanted}"),
                Some(&org.admin_token),
                None,
            )
            .await;
        assert_eq!(status, 200, "{wanted}");
        assert_eq!(body, expected, "{wanted}");
    }
    let (_, body) = server
        .get_with(
            "/api/v2/planning?day=2030-06-12",
            Some(&org.admin_token),
            None,
        )
        .await;
    for entry in body.as_array().expect("array") {
        assert_eq!(
            object_keys(entry),
            [
                "address",
                "building",
                "day",
                "deadline",
                "equipmentId",
                "id",
                "number",
                "overdue",
                "status",
                "technicianId"
            ]
        );
    }
    // The other organization sees its own visit only.
    let (_, body) = server
        .get_with(
            "/api/v2/planning?day=2030-06-12",
            Some(&other.admin_token),
            None,
        )
        .await;
    assert_eq!(body.as_array().map(Vec::len), Some(1));
    assert_eq!(body[0]["equipmentId"], json!(far_equipment));

    // Without a day: the current week (Paris).
    let today = clock::paris_today();
    let this_week = db.visit(
        agency,
        &asc1,
        None,
        &day_text(today),
        None,
        "planifiee",
        None,
        None,
    );
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    db.visit(
        agency,
        &asc1,
        None,
        &day_text(monday - Duration::days(1)),
        None,
        "planifiee",
        None,
        None,
    );
    let (status, body) = server
        .get_with("/api/v2/planning", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = body
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|e| e["id"].as_str())
        .collect();
    assert_eq!(ids, [this_week.as_str()]);

    // Refusals.
    for malformed in ["abc", "2030-6-12", "12/06/2030", "", "2030-06-12T00:00:00Z"] {
        let (status, body) = server
            .get_with(
                &format!("/api/v2/planning?day={malformed}"),
                Some(&org.admin_token),
                None,
            )
            .await;
        assert_eq!(
            (status, body),
            (
                400,
                json!({ "error": "Le paramètre « day » doit être un jour au format AAAA-MM-JJ." })
            ),
            "{malformed}"
        );
    }
    let (status, body) = server
        .get_with(
            "/api/v2/planning?day=2030-02-30",
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le paramètre « day » n'est pas un jour du calendrier : « 2030-02-30 »." })
        )
    );
    let (status, body) = server
        .get_with("/api/v2/planning?day=2030-06-12", None, None)
        .await;
    assert_eq!((status, body), (401, json!({ "error": UNAUTHORIZED })));
    let (status, _) = server
        .get_with(
            "/api/v2/planning",
            Some(&org.admin_token),
            Some(&other.agency_id),
        )
        .await;
    assert_eq!(status, 403);
    server.stop().await;
}

#[tokio::test]
async fn planning_stays_fast_with_two_thousand_visits_a_week() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let mut db = Db::open(&server);
    let agency = org.agency_id.clone();
    {
        let tx = db.0.transaction().expect("tx");
        let now = clock::now_text();
        let mut technicians = Vec::new();
        for i in 0..40 {
            let tech = id();
            tx.execute(
                "INSERT INTO technicians (id, agency_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![tech, agency, format!("Technicien {i:02}"), now],
            )
            .expect("technician");
            technicians.push(tech);
        }
        let mut equipment = Vec::new();
        for i in 0..2_000 {
            let building = id();
            tx.execute(
                "INSERT INTO buildings (id, agency_id, name, address, postal_code, city, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, '75015', 'Paris', ?5, ?5)",
                params![building, agency, format!("Immeuble {i}"), format!("{i} rue de Vaugirard"), now],
            )
            .expect("building");
            let eq = id();
            tx.execute(
                "INSERT INTO equipment (id, agency_id, building_id, number, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
                params![eq, agency, building, format!("ASC-{i:05}"), now],
            )
            .expect("equipment");
            equipment.push(eq);
        }
        // 2,000 visits in the wanted week, 40,000 in the twenty weeks around it.
        let monday = day("2030-06-10");
        let mut insert = tx
            .prepare(
                "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for, deadline, status,
                                     created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'planifiee', ?7, ?7)",
            )
            .expect("prepare");
        for week in -10i64..=10 {
            for (i, eq) in equipment.iter().enumerate() {
                let planned = monday + Duration::days(week * 7 + (i % 5) as i64);
                insert
                    .execute(params![
                        id(),
                        agency,
                        eq,
                        technicians[i % technicians.len()],
                        day_text(planned),
                        day_text(planned + Duration::days((i % 3) as i64 - 1)),
                        now
                    ])
                    .expect("visit");
            }
        }
        drop(insert);
        tx.commit().expect("commit");
    }
    let started = Instant::now();
    let (status, body) = server
        .get_with(
            "/api/v2/planning?day=2030-06-12",
            Some(&org.admin_token),
            None,
        )
        .await;
    let elapsed = started.elapsed();
    assert_eq!(status, 200);
    let entries = body.as_array().expect("array");
    assert_eq!(entries.len(), 2_000);
    assert!(
        entries
            .windows(2)
            .all(|w| w[0]["day"].as_str() <= w[1]["day"].as_str())
    );
    assert_eq!(
        entries
            .iter()
            .filter(|e| e["overdue"] == json!(true))
            .count(),
        667,
        "planned one day after the deadline for every third visit"
    );
    // A debug build on a loaded CI machine: generous, but a scan of the
    // 42,000 visits with per-row lookups would not pass.
    assert!(elapsed < std::time::Duration::from_secs(2), "{elapsed:?}");
    server.stop().await;
}

// -- GET /visits/{id} -----------------------------------------------------------

#[tokio::test]
async fn visit_read_is_the_spec_envelope_with_french_formats() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let tech = db.technician(agency, "Albert", None);
    let equipment = db.equipment(agency, None, "ASC-1");
    // Winter (UTC+1) arrival, summer (UTC+2) departure: Paris times.
    let done = db.visit(
        agency,
        &equipment,
        Some(&tech),
        "2026-03-11",
        Some("2026-03-20"),
        "faite",
        Some("2026-03-11T08:30:00.000Z"),
        Some((
            "2026-07-01T07:05:00.000Z",
            "2026-07-01",
            "Mme Garcia (gardienne)",
            Some("Galets usés."),
        )),
    );
    let planned = db.visit(
        agency,
        &equipment,
        None,
        "2026-03-12",
        None,
        "planifiee",
        None,
        None,
    );

    let (status, body) = server
        .get_with(
            &format!("/api/v2/visits/{done}"),
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({
            "type": "visite",
            "id": done,
            "link": format!("/visites/{done}"),
            "url": format!("{}/visites/{done}", server.base_url),
            "fields": {
                "plannedFor": "11/03/2026",
                "status": "faite",
                "arrivedAt": "11/03/2026 09:30",
                "leftAt": "01/07/2026 09:05",
                "signedBy": "Mme Garcia (gardienne)",
                "observations": "Galets usés.",
            },
        })
    );
    let (status, body) = server
        .get_with(
            &format!("/api/v2/visits/{planned}"),
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(object_keys(&body), ["fields", "id", "link", "type", "url"]);
    assert_eq!(
        body["fields"],
        json!({ "plannedFor": "12/03/2026", "status": "planifiee", "arrivedAt": null,
                "leftAt": null, "signedBy": null, "observations": null })
    );

    // Another organization, or an unknown id: 404, the same answer.
    for token in [&other.admin_token] {
        let (status, body) = server
            .get_with(&format!("/api/v2/visits/{done}"), Some(token), None)
            .await;
        assert_eq!(
            (status, body),
            (404, json!({ "error": "Visite introuvable." }))
        );
    }
    let (status, body) = server
        .get_with(
            "/api/v2/visits/0190a0a0-0000-7000-8000-000000000000",
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(
        (status, body),
        (404, json!({ "error": "Visite introuvable." }))
    );
    let (status, body) = server
        .get_with(&format!("/api/v2/visits/{done}"), None, None)
        .await;
    assert_eq!((status, body), (401, json!({ "error": UNAUTHORIZED })));
    server.stop().await;
}

// -- Visit transitions ------------------------------------------------------------

fn created(server: &TestServer, visit: &str) -> Value {
    json!({
        "id": visit,
        "ok": true,
        "link": format!("/visites/{visit}"),
        "url": format!("{}/visites/{visit}", server.base_url),
    })
}

#[tokio::test]
async fn a_visit_starts_is_cancelled_starts_again_and_is_completed() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let equipment = db.equipment(agency, None, "ASC-1");
    let today = day_text(clock::paris_today());
    let visit = db.visit(
        agency,
        &equipment,
        None,
        &today,
        None,
        "planifiee",
        None,
        None,
    );
    let path = |action: &str| format!("/api/v2/visits/{visit}/{action}");
    let token = Some(org.admin_token.as_str());
    let token_id = db.api_token_id("admin@durand.fr");

    // Start without a body: arrival now.
    let before = Utc::now() - Duration::seconds(1);
    let (status, body) = post(&server, &path("start"), token, None, None).await;
    assert_eq!((status, &body), (201, &created(&server, &visit)));
    let row = db.visit_row(&visit);
    assert_eq!(row["status"], "en_cours");
    let arrived =
        clock::parse_timestamp(row["arrivedAt"].as_str().expect("arrival")).expect("timestamp");
    assert!(arrived >= before && arrived <= Utc::now(), "{arrived}");

    // Refused: started twice, rescheduled while begun.
    let (status, body) = post(&server, &path("start"), token, None, None).await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Action refusée : impossible de commencer cette visite au statut « En cours » : elle a déjà commencé." })
        )
    );
    let (status, body) = post(
        &server,
        &path("reschedule"),
        token,
        None,
        Some(json!({ "plannedFor": today })),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Action refusée : impossible de replanifier cette visite au statut « En cours » : elle a commencé ; si elle ne peut pas se faire, annulez d'abord son début, puis replanifiez-la."
    );

    // Undo the start: planned again, without arrival.
    let (status, body) = post(&server, &path("cancel-start"), token, None, None).await;
    assert_eq!((status, body), (201, created(&server, &visit)));
    let row = db.visit_row(&visit);
    assert_eq!(
        (row["status"].clone(), row["arrivedAt"].clone()),
        (json!("planifiee"), Value::Null)
    );
    let (status, body) = post(&server, &path("cancel-start"), token, None, None).await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Action refusée : impossible d'annuler le début de cette visite au statut « Planifiée » : elle n'a pas commencé." })
        )
    );

    // Start with an arrival time given with its offset: stored in UTC.
    let arrival = (Utc::now() - Duration::minutes(50)).with_nanosecond_rounded();
    let local = arrival.with_timezone(&chrono::FixedOffset::east_opt(3600).expect("offset"));
    let (status, _) = post(
        &server,
        &path("start"),
        token,
        None,
        Some(json!({ "arrivedAt": local.to_rfc3339() })),
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(db.visit_row(&visit)["arrivedAt"], json!(ts(arrival)));

    // Completion refusals: nothing changes.
    let refusals = [
        (
            json!({ "leftAt": ts(arrival - Duration::minutes(1)), "signedBy": "M. Petit" }),
            "L'heure de départ ne peut pas précéder l'heure d'arrivée.",
        ),
        (
            json!({ "observations": "RAS" }),
            "Le champ « signedBy » est obligatoire.",
        ),
        (
            json!({ "signedBy": "   " }),
            "Le champ « signedBy » est obligatoire : indiquez qui a signé le bon de visite.",
        ),
        (
            json!({ "signedBy": "M. Petit", "arrivedAt": ts(arrival) }),
            "La visite a déjà commencé : son heure d'arrivée est enregistrée, n'envoyez pas « arrivedAt ».",
        ),
        (
            json!({ "signedBy": "M. Petit", "leftAt": "demain matin" }),
            "Le champ « leftAt » doit être une date et heure ISO 8601 avec son fuseau, par exemple 2026-03-11T09:30:00+01:00 ou 2026-03-11T08:30:00Z.",
        ),
        (
            json!({ "signedBy": "M. Petit", "leftAt": "2026-03-11T09:30:00" }),
            "Le champ « leftAt » doit être une date et heure ISO 8601 avec son fuseau, par exemple 2026-03-11T09:30:00+01:00 ou 2026-03-11T08:30:00Z.",
        ),
        (
            json!({ "signedBy": "M. Petit", "leftAt": ts(Utc::now() + Duration::hours(2)) }),
            "Le champ « leftAt » ne peut pas être dans le futur.",
        ),
        (
            json!({ "signedBy": 42 }),
            "Le champ « signedBy » n'a pas le type attendu.",
        ),
        (
            json!({ "signedBy": "M. Petit", "signature": "x" }),
            "Le champ « signature » n'est pas reconnu.",
        ),
        (
            json!({ "signedBy": "x".repeat(201) }),
            "Le champ « signedBy » ne doit pas dépasser 200 caractères.",
        ),
    ];
    for (body, reason) in refusals {
        let (status, answer) =
            post(&server, &path("complete"), token, None, Some(body.clone())).await;
        assert_eq!(
            (status, answer),
            (422, json!({ "error": reason })),
            "{body}"
        );
    }
    assert_eq!(db.visit_row(&visit)["status"], "en_cours");

    // Malformed bodies.
    let (status, body) = post_raw(
        &server,
        &path("complete"),
        &org.admin_token,
        "text/plain",
        "{}",
    )
    .await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({ "error": "Le corps de la requête doit être du JSON, avec l'en-tête Content-Type: application/json." })
        )
    );
    let (status, _) = post_raw(
        &server,
        &path("complete"),
        &org.admin_token,
        "application/json",
        "{\"signedBy\": ",
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = post_raw(
        &server,
        &path("start"),
        &org.admin_token,
        "text/plain",
        "arrivée",
    )
    .await;
    assert_eq!(status, 400);

    // Completed: departure now by default, the day it was done is the departure's day.
    let (status, body) = post(
        &server,
        &path("complete"),
        token,
        None,
        Some(json!({ "signedBy": "  Mme Garcia (gardienne) ", "observations": "Galets de porte usés." })),
    )
    .await;
    assert_eq!((status, body), (201, created(&server, &visit)));
    let row = db.visit_row(&visit);
    assert_eq!(row["status"], "faite");
    assert_eq!(row["arrivedAt"], json!(ts(arrival)));
    assert_eq!(row["signedBy"], "Mme Garcia (gardienne)");
    assert_eq!(row["observations"], "Galets de porte usés.");
    let left =
        clock::parse_timestamp(row["leftAt"].as_str().expect("departure")).expect("timestamp");
    assert_eq!(
        row["doneOn"],
        json!(day_text(clock::paris_local(left).date()))
    );

    // A done visit never changes.
    for (action, body) in [
        ("start", None),
        ("complete", Some(json!({ "signedBy": "M. Petit" }))),
        ("reschedule", Some(json!({ "plannedFor": today }))),
        ("cancel-start", None),
    ] {
        let (status, answer) = post(&server, &path(action), token, None, body).await;
        assert_eq!(status, 422, "{action}");
        let reason = answer["error"].as_str().unwrap_or_default();
        assert!(
            reason.starts_with("Action refusée : impossible ")
                && reason.ends_with("au statut « Faite » : une visite faite est inscrite au carnet d'entretien et ne change plus."),
            "{action}: {reason}"
        );
    }
    assert_eq!(db.visit_row(&visit), row);

    // Every accepted change is in the audit log, in the token's name.
    let audit = db.audit_of(&visit);
    let actions: Vec<&str> = audit.iter().map(|(a, _, _)| a.as_str()).collect();
    assert_eq!(
        actions,
        ["demarrage", "annulation_demarrage", "demarrage", "cloture"]
    );
    assert!(
        audit
            .iter()
            .all(|(_, kind, actor)| kind == "api_token"
                && actor.as_deref() == Some(token_id.as_str()))
    );
    server.stop().await;
}

#[tokio::test]
async fn a_planned_visit_is_completed_afterwards_with_both_times() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let equipment = db.equipment(agency, None, "ASC-1");
    let visit = db.visit(
        agency,
        &equipment,
        None,
        "2026-03-10",
        None,
        "planifiee",
        None,
        None,
    );
    let path = format!("/api/v2/visits/{visit}/complete");
    let token = Some(org.admin_token.as_str());

    let (status, body) = post(
        &server,
        &path,
        token,
        None,
        Some(json!({ "signedBy": "M. Petit" })),
    )
    .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le champ « arrivedAt » est obligatoire pour terminer une visite qui n'a pas été commencée." })
        )
    );
    // Late in the evening in UTC is already the next day in Paris.
    let (status, body) = post(
        &server,
        &path,
        token,
        None,
        Some(json!({
            "arrivedAt": "2026-03-10T22:10:00Z",
            "leftAt": "2026-03-10T23:20:00+00:00",
            "signedBy": "M. Petit",
            "observations": "   ",
        })),
    )
    .await;
    assert_eq!((status, body), (201, created(&server, &visit)));
    assert_eq!(
        db.visit_row(&visit),
        json!({ "status": "faite", "arrivedAt": "2026-03-10T22:10:00.000Z", "leftAt": "2026-03-10T23:20:00.000Z",
                "doneOn": "2026-03-11", "signedBy": "M. Petit", "observations": null,
                "plannedFor": "2026-03-10", "technicianId": null })
    );
    let (_, read) = server
        .get_with(&format!("/api/v2/visits/{visit}"), token, None)
        .await;
    assert_eq!(read["fields"]["arrivedAt"], "10/03/2026 23:10");
    assert_eq!(read["fields"]["leftAt"], "11/03/2026 00:20");
    server.stop().await;
}

#[tokio::test]
async fn a_planned_visit_is_rescheduled_to_an_available_technician_of_the_agency() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    create_user(
        &server,
        "membre@durand.fr",
        "Membre",
        &[&org.agency_id],
        &[],
    );
    let member = token_for(&server, "membre@durand.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let albert = db.technician(agency, "Albert", None);
    let zoe = db.technician(agency, "Zoé", None);
    let gone = db.technician(agency, "Parti", None);
    db.0.execute("UPDATE technicians SET active = 0 WHERE id = ?1", [&gone])
        .expect("inactive");
    let foreign = db.technician(&other.agency_id, "Ailleurs", None);
    let equipment = db.equipment(agency, None, "ASC-1");
    let today = clock::paris_today();
    let next_week = today + Duration::days(7);
    let visit = db.visit(
        agency,
        &equipment,
        Some(&albert),
        &day_text(today),
        None,
        "planifiee",
        None,
        None,
    );
    db.absence(&zoe, next_week, next_week + Duration::days(2));
    db.absence(
        &albert,
        today + Duration::days(3),
        today + Duration::days(3),
    );
    let path = format!("/api/v2/visits/{visit}/reschedule");
    let token = Some(member.as_str());
    let unchanged = db.visit_row(&visit);

    let refusals = [
        (
            json!({ "plannedFor": day_text(today - Duration::days(1)) }),
            "Une visite ne peut pas être replanifiée dans le passé.".to_owned(),
        ),
        (
            json!({ "plannedFor": "31/12/2030" }),
            "Le champ « plannedFor » doit être un jour au format AAAA-MM-JJ.".to_owned(),
        ),
        (
            json!({ "plannedFor": "2030-02-30" }),
            "Le champ « plannedFor » n'est pas un jour du calendrier : « 2030-02-30 ».".to_owned(),
        ),
        (
            json!({ "plannedFor": day_text(next_week), "technicianId": foreign }),
            format!("Technicien introuvable dans cette agence : « {foreign} »."),
        ),
        (
            json!({ "plannedFor": day_text(next_week), "technicianId": gone }),
            format!("Technicien introuvable dans cette agence : « {gone} »."),
        ),
        (
            json!({ "plannedFor": day_text(next_week), "technicianId": zoe }),
            format!(
                "Zoé : absence enregistrée le {} ; choisissez un autre jour ou un autre technicien.",
                next_week.format("%d/%m/%Y")
            ),
        ),
        (
            json!({ "plannedFor": day_text(today + Duration::days(3)) }),
            format!(
                "Albert : absence enregistrée le {} ; choisissez un autre jour ou un autre technicien.",
                (today + Duration::days(3)).format("%d/%m/%Y")
            ),
        ),
        (
            json!({ "technicianId": zoe }),
            "Le champ « plannedFor » est obligatoire.".to_owned(),
        ),
    ];
    for (body, reason) in refusals {
        let (status, answer) = post(&server, &path, token, None, Some(body.clone())).await;
        assert_eq!(
            (status, answer),
            (422, json!({ "error": reason })),
            "{body}"
        );
    }
    assert_eq!(db.visit_row(&visit), unchanged);

    // A member may reschedule (a daily operation), keeping the technician…
    let (status, body) = post(
        &server,
        &path,
        token,
        None,
        Some(json!({ "plannedFor": day_text(next_week) })),
    )
    .await;
    assert_eq!((status, body), (201, created(&server, &visit)));
    assert_eq!(
        db.visit_row(&visit)["plannedFor"],
        json!(day_text(next_week))
    );
    assert_eq!(db.visit_row(&visit)["technicianId"], json!(albert));
    // …or handing it to another one.
    let later = today + Duration::days(14);
    let (status, _) = post(
        &server,
        &path,
        token,
        None,
        Some(json!({ "plannedFor": day_text(later), "technicianId": zoe })),
    )
    .await;
    assert_eq!(status, 201);
    let row = db.visit_row(&visit);
    assert_eq!(
        (row["plannedFor"].clone(), row["technicianId"].clone()),
        (json!(day_text(later)), json!(zoe))
    );
    assert_eq!(row["status"], "planifiee");
    let actions: Vec<String> = db.audit_of(&visit).into_iter().map(|(a, _, _)| a).collect();
    assert_eq!(actions, ["replanification", "replanification"]);
    server.stop().await;
}

#[tokio::test]
async fn visits_of_another_scope_answer_404_and_never_change() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let east = server.cli_json(&[
        "agency",
        "create",
        "--organization",
        &org.organization_id,
        "--name",
        "Durand Est",
    ]);
    let east_id = str_of(&east, "id").to_owned();
    let db = Db::open(&server);
    let far_equipment = db.equipment(&other.agency_id, None, "ASC-9");
    let today = day_text(clock::paris_today());
    let planned = db.visit(
        &other.agency_id,
        &far_equipment,
        None,
        &today,
        None,
        "planifiee",
        None,
        None,
    );
    let started = db.visit(
        &other.agency_id,
        &far_equipment,
        None,
        &today,
        None,
        "en_cours",
        Some("2026-03-11T08:00:00.000Z"),
        None,
    );
    // A visit of the organization's second agency, read from the first one.
    let east_equipment = db.equipment(&east_id, None, "ASC-1");
    let east_visit = db.visit(
        &east_id,
        &east_equipment,
        None,
        &today,
        None,
        "planifiee",
        None,
        None,
    );
    let snapshot = |db: &Db| {
        [
            db.visit_row(&planned),
            db.visit_row(&started),
            db.visit_row(&east_visit),
        ]
    };
    let before = snapshot(&db);
    let not_found = json!({ "error": "Visite introuvable." });
    for (visit, action, body) in [
        (&planned, "start", None),
        (
            &planned,
            "complete",
            Some(json!({ "signedBy": "X", "arrivedAt": "2026-03-11T08:00:00Z" })),
        ),
        (&planned, "reschedule", Some(json!({ "plannedFor": today }))),
        (&started, "cancel-start", None),
        (&started, "complete", Some(json!({ "signedBy": "X" }))),
        (&east_visit, "start", None),
    ] {
        let (status, answer) = post(
            &server,
            &format!("/api/v2/visits/{visit}/{action}"),
            Some(&org.admin_token),
            None,
            body,
        )
        .await;
        assert_eq!((status, &answer), (404, &not_found), "{action}");
    }
    let (status, answer) = server
        .get_with(
            &format!("/api/v2/visits/{east_visit}"),
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!((status, answer), (404, not_found.clone()));
    let (status, _) = server
        .get_with(
            &format!("/api/v2/visits/{east_visit}"),
            Some(&org.admin_token),
            Some(&east_id),
        )
        .await;
    assert_eq!(status, 200, "readable when acting in its agency");
    assert_eq!(snapshot(&db), before);
    assert!(db.audit_of(&planned).is_empty() && db.audit_of(&started).is_empty());

    // No token: 401 before anything else. Unknown id: 404.
    let (status, body) = post(
        &server,
        &format!("/api/v2/visits/{planned}/start"),
        None,
        None,
        None,
    )
    .await;
    assert_eq!((status, body), (401, json!({ "error": UNAUTHORIZED })));
    let (status, body) = post(
        &server,
        "/api/v2/visits/inconnue/start",
        Some(&org.admin_token),
        None,
        None,
    )
    .await;
    assert_eq!((status, body), (404, not_found));

    // The service operator reads client agencies but changes nothing.
    let operator = operator_token(&server);
    let (status, _) = server
        .get_with(
            &format!("/api/v2/visits/{planned}"),
            Some(&operator),
            Some(&other.agency_id),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = post(
        &server,
        &format!("/api/v2/visits/{planned}/start"),
        Some(&operator),
        Some(&other.agency_id),
        None,
    )
    .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Le compte de service de l'opérateur consulte les agences mais n'y modifie rien." })
        )
    );
    assert_eq!(snapshot(&db), before);
    server.stop().await;
}

#[tokio::test]
async fn an_optional_body_may_be_empty_or_null() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let db = Db::open(&server);
    let equipment = db.equipment(&org.agency_id, None, "ASC-1");
    let today = day_text(clock::paris_today());
    let first = db.visit(
        &org.agency_id,
        &equipment,
        None,
        &today,
        None,
        "planifiee",
        None,
        None,
    );
    let second = db.visit(
        &org.agency_id,
        &equipment,
        None,
        &today,
        None,
        "planifiee",
        None,
        None,
    );
    let (status, _) = post_raw(
        &server,
        &format!("/api/v2/visits/{first}/start"),
        &org.admin_token,
        "application/json",
        "null",
    )
    .await;
    assert_eq!(status, 201);
    let (status, _) = post_raw(
        &server,
        &format!("/api/v2/visits/{second}/start"),
        &org.admin_token,
        "application/json",
        " {} ",
    )
    .await;
    assert_eq!(status, 201);
    let (status, body) = post_raw(
        &server,
        &format!("/api/v2/visits/{first}/cancel-start"),
        &org.admin_token,
        "application/json",
        "",
    )
    .await;
    assert_eq!((status, body), (201, created(&server, &first)));
    let (status, body) = post_raw(
        &server,
        &format!("/api/v2/visits/{first}/start"),
        &org.admin_token,
        "application/json",
        "[]",
    )
    .await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({ "error": "Le corps de la requête doit être un objet JSON." })
        )
    );
    server.stop().await;
}

// -- GET /calls/{id} --------------------------------------------------------------

#[tokio::test]
async fn a_call_reads_as_the_agency_sees_it() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let tech = db.technician(agency, "Karim Legrand", None);
    let equipment = db.equipment(agency, None, "ASC 10567");
    let center = db.call_center(agency, "Télésecours Île-de-France");
    let trapped = db.call(
        agency,
        Some(&center),
        &equipment,
        "CC-2026-000404",
        "personne_bloquee",
        "sur_place",
        Some(&tech),
        Some("Mme Benali (résidente)"),
        "2026-03-11T07:12:14.221Z",
        Some("2026-03-11T07:40:00.000Z"),
        None,
    );
    let at_agency = db.call(
        agency,
        None,
        &equipment,
        "AG-17",
        "bruit",
        "resolue",
        None,
        None,
        "2026-03-10T09:00:00.000Z",
        None,
        Some("2026-03-10T11:30:00.000Z"),
    );

    let (status, body) = server
        .get_with(
            &format!("/api/v2/calls/{trapped}"),
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({
            "id": trapped,
            "reference": "CC-2026-000404",
            "statut": "sur_place",
            "libelle": "Technicien sur place",
            "arriveLe": "2026-03-11T07:40:00.000Z",
            "resoluLe": null,
            "recuLe": "2026-03-11T07:12:14.221Z",
            "type": "personne_bloquee",
            "urgence": true,
            "description": "Cabine bloquée entre deux étages",
            "appelant": "Mme Benali (résidente)",
            "equipment": {
                "id": equipment,
                "number": "ASC 10567",
                "link": format!("/equipements/{equipment}"),
                "url": format!("{}/equipements/{equipment}", server.base_url),
            },
            "technician": { "id": tech, "name": "Karim Legrand" },
            "center": { "id": center, "name": "Télésecours Île-de-France" },
            "link": format!("/appels/{trapped}"),
            "url": format!("{}/appels/{trapped}", server.base_url),
        })
    );
    let (status, body) = server
        .get_with(
            &format!("/api/v2/calls/{at_agency}"),
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        object_keys(&body),
        [
            "appelant",
            "arriveLe",
            "center",
            "description",
            "equipment",
            "id",
            "libelle",
            "link",
            "recuLe",
            "reference",
            "resoluLe",
            "statut",
            "technician",
            "type",
            "urgence",
            "url"
        ]
    );
    assert_eq!(
        (
            &body["statut"],
            &body["libelle"],
            &body["type"],
            &body["urgence"]
        ),
        (
            &json!("resolue"),
            &json!("Résolue"),
            &json!("bruit"),
            &json!(false)
        )
    );
    assert_eq!(
        (
            &body["arriveLe"],
            &body["resoluLe"],
            &body["appelant"],
            &body["technician"],
            &body["center"]
        ),
        (
            &Value::Null,
            &json!("2026-03-10T11:30:00.000Z"),
            &Value::Null,
            &Value::Null,
            &Value::Null
        )
    );

    // Another organization's token, an unknown id: 404 alike.
    let not_found = json!({ "error": "Appel introuvable." });
    let (status, body) = server
        .get_with(
            &format!("/api/v2/calls/{trapped}"),
            Some(&other.admin_token),
            None,
        )
        .await;
    assert_eq!((status, body), (404, not_found.clone()));
    let (status, body) = server
        .get_with("/api/v2/calls/CC-2026-000404", Some(&org.admin_token), None)
        .await;
    assert_eq!(
        (status, body),
        (404, not_found),
        "the id, not the center's reference"
    );
    let (status, body) = server
        .get_with(&format!("/api/v2/calls/{trapped}"), None, None)
        .await;
    assert_eq!((status, body), (401, json!({ "error": UNAUTHORIZED })));
    let (status, _) = server
        .get_with(
            &format!("/api/v2/calls/{trapped}"),
            Some(&org.admin_token),
            Some(&other.agency_id),
        )
        .await;
    assert_eq!(status, 403);
    server.stop().await;
}

// -- The published description ------------------------------------------------------

#[tokio::test]
async fn the_openapi_description_documents_these_operations() {
    let server = TestServer::start().await;
    let (status, doc) = server.get_with("/api/v2/openapi.json", None, None).await;
    assert_eq!(status, 200);
    let statuses = |path: &str, method: &str| -> Vec<String> {
        let mut codes: Vec<String> = doc["paths"][path][method]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path} missing"))
            .keys()
            .cloned()
            .collect();
        codes.sort();
        codes
    };
    for path in ["/agencies", "/users", "/technicians"] {
        assert_eq!(
            statuses(path, "get"),
            ["200", "400", "401", "403", "429"],
            "{path}"
        );
    }
    assert_eq!(
        statuses("/planning", "get"),
        ["200", "400", "401", "403", "422", "429"]
    );
    for path in ["/visits/{id}", "/calls/{id}"] {
        assert_eq!(
            statuses(path, "get"),
            ["200", "400", "401", "403", "404", "429"],
            "{path}"
        );
    }
    for action in ["start", "complete", "reschedule"] {
        assert_eq!(
            statuses(&format!("/visits/{{id}}/{action}"), "post"),
            ["201", "400", "401", "403", "404", "413", "422", "429"],
            "{action}"
        );
    }
    assert_eq!(
        statuses("/visits/{id}/cancel-start", "post"),
        ["201", "400", "401", "403", "404", "422", "429"]
    );
    let schemas = &doc["components"]["schemas"];
    let required = |name: &str| -> Vec<String> {
        let mut list: Vec<String> =
            serde_json::from_value(schemas[name]["required"].clone()).expect("required");
        list.sort();
        list
    };
    assert_eq!(
        required("PlanningEntry"),
        [
            "address",
            "building",
            "day",
            "deadline",
            "equipmentId",
            "id",
            "number",
            "overdue",
            "status",
            "technicianId"
        ]
    );
    assert_eq!(
        required("TechnicianView"),
        [
            "absentUntil",
            "id",
            "name",
            "offUntil",
            "onCall",
            "openCalls",
            "sectors"
        ]
    );
    assert_eq!(
        required("VisitFields"),
        [
            "arrivedAt",
            "leftAt",
            "observations",
            "plannedFor",
            "signedBy",
            "status"
        ]
    );
    assert_eq!(
        doc["paths"]["/visits/{id}/start"]["post"]["requestBody"]["required"],
        Value::Null
    );
    assert_eq!(
        doc["paths"]["/visits/{id}/complete"]["post"]["requestBody"]["required"],
        json!(true)
    );
    server.stop().await;
}
