//! REST API v2, organization and planning: GET /agencies, /users,
//! /technicians, /planning, /visits/{id} and the visit's transitions,
//! /calls/{id}. Fixtures are written by the operations (`common::world`,
//! the command line acting in the agency); every call goes over HTTP to the
//! real router.

use crate::common;

use std::time::Instant;

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use common::db::TestDb as Connection;
use common::world::{World, morning};
use common::*;
use liftdesk::clock;
use liftdesk::services::calls::{AgencyCallInput, CenterCallInput};
use liftdesk::services::people::AccountEdit;
use liftdesk::services::technicians::TechnicianEdit;
use serde_json::{Value, json};

/// Writes of the large fixtures run side by side.
const WIDTH: usize = 64;

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

fn ts(at: DateTime<Utc>) -> String {
    clock::format_timestamp(at)
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("day")
}

fn instant(text: &str) -> DateTime<Utc> {
    clock::parse_timestamp(text).expect("instant")
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

// -- The database itself --------------------------------------------------------

struct Db(Connection);

impl Db {
    fn open(server: &TestServer) -> Db {
        let conn = open_db(server.data_dir.path());
        Db(conn)
    }

    fn visit_row(&self, visit: &str) -> Value {
        self.0
            .query_row(
                "SELECT status, arrived_at, left_at, done_on, signed_by, observations, planned_for, technician_id
                 FROM visits WHERE id = ?1",
                [visit],
                |r| {
                    Ok(json!({
                        "status": r.get::<String>(0)?,
                        "arrivedAt": r.get::<Option<String>>(1)?,
                        "leftAt": r.get::<Option<String>>(2)?,
                        "doneOn": r.get::<Option<String>>(3)?,
                        "signedBy": r.get::<Option<String>>(4)?,
                        "observations": r.get::<Option<String>>(5)?,
                        "plannedFor": r.get::<String>(6)?,
                        "technicianId": r.get::<Option<String>>(7)?,
                    }))
                },
            )
            .expect("visit row")
    }

    /// (action, actor kind, actor id) of the visit's audit entries, oldest
    /// first, but those of the fixtures (the command line's).
    fn audit_of(&self, object: &str) -> Vec<(String, String, Option<String>)> {
        let mut stmt = self
            .0
            .prepare(
                "SELECT action, actor_kind, actor_id FROM audit_log
                 WHERE object_id = ?1 AND actor_kind <> 'cli' ORDER BY seq",
            )
            .expect("audit");
        stmt.query_map([object], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    }

    /// The call center that sent the call.
    fn call_center_of(&self, call: &str) -> String {
        self.0
            .query_row(
                "SELECT call_center_id FROM calls WHERE id = ?1",
                [call],
                |r| r.get(0),
            )
            .expect("call center")
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
    let world = World::in_agency(&server, &east_id);
    world
        .edit_account(
            &chief,
            AccountEdit {
                position: Some(Some("Responsable technique".to_owned())),
                ..AccountEdit::default()
            },
        )
        .await;
    world.deactivate_account(&chief).await;

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
    let agency = org.agency_id.as_str();
    let now = Utc::now();
    let today = clock::paris_today();

    let world = World::in_agency(&server, agency);
    let far = World::in_agency(&server, &other.agency_id);

    let busy = world
        .technician("Alice Astreinte", Some("Paris 15e,Paris 16e"))
        .await;
    let resting = world.technician("Bruno Repos", Some("Paris 7e")).await;
    let rested = world.technician("Chloé Reposée", None).await;
    let gone = world.technician("Denis Parti", Some("Paris 1er")).await;
    world.deactivate_technician(&gone).await;
    let elsewhere = far.technician("Xavier Ailleurs", None).await;

    // Alice: two calls in progress, one resolved.
    let building = world.building(None, "1 rue de la Paix", None, None).await;
    world.lift("ASC-1", Some(&building)).await;
    let center = world.call_center_key("Télésecours").await;
    let call = |reference: &str| CenterCallInput {
        reference: reference.to_owned(),
        equipment: "ASC-1".to_owned(),
        call_type: "panne".to_owned(),
        description: "Cabine bloquée entre deux étages".to_owned(),
        ..CenterCallInput::default()
    };
    for (reference, statuses) in [
        ("R1", &[][..]),
        ("R2", &["sur_place", "a_l_arret"][..]),
        ("R3", &["resolue"][..]),
    ] {
        let id = world.call_from(&center, call(reference)).await;
        world.assign_call(&id, &busy).await;
        for status in statuses {
            world.move_call(&id, status).await;
        }
    }
    // A call of another technician is not Alice's.
    let id = world.call_from(&center, call("R4")).await;
    world.assign_call(&id, &resting).await;
    world.move_call(&id, "sur_place").await;
    // One technician on standby at a time: Chloé's ended over 12 hours ago,
    // then Bruno's 3 hours ago (rest 11 h by default); Alice's began then.
    let relieved = (now - Duration::hours(12)).with_nanosecond_rounded();
    let ended = (now - Duration::hours(3)).with_nanosecond_rounded();
    world
        .on_call(&rested, now - Duration::days(8), relieved)
        .await;
    world.on_call(&resting, relieved, ended).await;
    world.on_call(&busy, ended, now + Duration::days(5)).await;
    // Bruno: absent since yesterday, then on leave right after; Chloé: a
    // leave to come.
    for (technician, from, to) in [
        (&resting, -1, 2),
        (&resting, 3, 5),
        (&resting, 9, 12),
        (&rested, 1, 4),
    ] {
        world
            .absence(
                technician,
                today + Duration::days(from),
                today + Duration::days(to),
                "Congés payés",
            )
            .await;
    }
    far.on_call(&elsewhere, now - Duration::days(1), now + Duration::days(1))
        .await;

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
    world
        .edit_technician(
            &resting,
            TechnicianEdit {
                rest_hours: Some(2),
                ..TechnicianEdit::default()
            },
        )
        .await;
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
    let agency = org.agency_id.as_str();
    let world = World::in_agency(&server, agency);
    let albert = world.technician("Albert", None).await;
    let zoe = world.technician("Zoé", None).await;
    let glycines = world
        .building(
            Some("Résidence Les Glycines"),
            "12 rue de Vaugirard",
            Some("75015"),
            Some("Paris"),
        )
        .await;
    let lone = world.building(None, "3 impasse Sans Nom", None, None).await;
    // Lifts under contract, every 42 days: ASC-1's plan starts on 28 April
    // 2030 (first deadline 9 June), ASC-2's on 9 May (20 June). ASC-3 is
    // outside the plan: its visits have no deadline.
    let asc1 = world
        .equipment_since(
            "ASC-1",
            ("ascenseur", "parc"),
            Some(&glycines),
            day("2030-04-28"),
        )
        .await;
    let asc2 = world
        .equipment_since(
            "ASC-2",
            ("ascenseur", "parc"),
            Some(&lone),
            day("2030-05-09"),
        )
        .await;
    let bare = world.numbered("ASC-3").await;

    // Week of Monday 10 June 2030.
    // Planned the Friday before (deadline 9 June), done on Monday: shown on Monday.
    let done_monday = world
        .done_visit(
            &asc1,
            Some(&zoe),
            day("2030-06-07"),
            (
                instant("2030-06-10T07:30:00.000Z"),
                instant("2030-06-10T08:10:00.000Z"),
            ),
            "M. Petit",
            Some("RAS"),
        )
        .await;
    // Next visit one day after the last one: deadline 11 June.
    world.visit_interval(&asc1, 1).await;
    let wed_zoe = world.visit(&asc1, Some(&zoe), day("2030-06-12")).await;
    // Planned this week (deadline 20 June), done next week: not in this week.
    world
        .done_visit(
            &asc2,
            Some(&albert),
            day("2030-06-14"),
            (
                instant("2030-06-17T07:30:00.000Z"),
                instant("2030-06-17T08:00:00.000Z"),
            ),
            "M. Petit",
            None,
        )
        .await;
    // Next visit three days after the last one: deadline 20 June.
    world.visit_interval(&asc2, 3).await;
    let wed_albert = world.visit(&asc2, Some(&albert), day("2030-06-12")).await;
    let wed_nobody = world.visit(&bare, None, day("2030-06-12")).await;
    // A second visit not done of ASC-2, from the agency's history.
    let sunday = world
        .open_visit_from_history(&asc2, &albert, day("2030-06-16"), day("2030-06-16"))
        .await;
    // The Sunday before and the Monday after are other weeks.
    let asc4 = world.numbered("ASC-4").await;
    world.visit(&asc4, Some(&albert), day("2030-06-09")).await;
    let asc5 = world.numbered("ASC-5").await;
    world.visit(&asc5, Some(&albert), day("2030-06-17")).await;
    // Another agency's visit in the same week.
    let far_equipment = World::in_agency(&server, &other.agency_id)
        .numbered("ASC-1")
        .await;
    World::in_agency(&server, &other.agency_id)
        .visit(&far_equipment, None, day("2030-06-12"))
        .await;

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
    let asc6 = world.numbered("ASC-6").await;
    let this_week = world.visit(&asc6, None, today).await;
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    let asc7 = world.numbered("ASC-7").await;
    world.visit(&asc7, None, monday - Duration::days(1)).await;
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
    let world = World::in_agency(&server, &org.agency_id);
    let jobs = (0..40)
        .map(|i| {
            let world = world.same();
            async move { world.technician(&format!("Technicien {i:02}"), None).await }
        })
        .collect();
    let technicians = world.side_by_side(WIDTH, jobs).await;
    let jobs = (0..2_000)
        .map(|i| {
            let world = world.same();
            async move {
                let building = world
                    .building(
                        Some(&format!("Immeuble {i}")),
                        &format!("{i} rue de Vaugirard"),
                        Some("75015"),
                        Some("Paris"),
                    )
                    .await;
                world.lift(&format!("ASC-{i:05}"), Some(&building)).await
            }
        })
        .collect();
    let equipment = world.side_by_side(WIDTH, jobs).await;
    // 2,000 visits in the wanted week, each planned one day before, on or
    // after its deadline (the last visit 42 days before it); 40,000 done in
    // the twenty weeks before, a week apart. One visit not done per
    // equipment: each old one is planned, then done, in turn.
    let monday = day("2030-06-10");
    let planned = |i: usize| monday + Duration::days((i % 5) as i64);
    let last_done = |i: usize| planned(i) + Duration::days((i % 3) as i64 - 1 - 42);
    for week in (0..20i64).rev() {
        let done_on = |i: usize| last_done(i) - Duration::weeks(week);
        let jobs = equipment
            .iter()
            .enumerate()
            .map(|(i, eq)| {
                let (world, eq, tech) = (
                    world.same(),
                    eq.clone(),
                    technicians[i % technicians.len()].clone(),
                );
                let day = done_on(i);
                async move { world.visit_now(&eq, Some(&tech), day).await }
            })
            .collect();
        let visits = world.side_by_side(WIDTH, jobs).await;
        let jobs = visits
            .into_iter()
            .enumerate()
            .map(|(i, visit)| {
                let world = world.same();
                let arrived = morning(done_on(i));
                async move {
                    world
                        .complete_visit(&visit, (arrived, arrived + Duration::hours(1)), "M. Petit")
                        .await
                }
            })
            .collect();
        world
            .at(morning(monday), || world.side_by_side(WIDTH, jobs))
            .await;
    }
    let jobs = equipment
        .iter()
        .enumerate()
        .map(|(i, eq)| {
            let (world, eq, tech) = (
                world.same(),
                eq.clone(),
                technicians[i % technicians.len()].clone(),
            );
            let day = planned(i);
            async move { world.visit_now(&eq, Some(&tech), day).await }
        })
        .collect();
    world.side_by_side(WIDTH, jobs).await;
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
    let agency = org.agency_id.as_str();
    let world = World::in_agency(&server, agency);
    let tech = world.technician("Albert", None).await;
    let equipment = world.lift("ASC-1", None).await;
    // Winter (UTC+1) arrival, summer (UTC+2) departure: Paris times.
    let done = world
        .done_visit(
            &equipment,
            Some(&tech),
            day("2026-03-11"),
            (
                instant("2026-03-11T08:30:00.000Z"),
                instant("2026-07-01T07:05:00.000Z"),
            ),
            "Mme Garcia (gardienne)",
            Some("Galets usés."),
        )
        .await;
    let planned = world.visit(&equipment, None, day("2026-03-12")).await;

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
    let world = World::in_agency(&server, agency);
    let equipment = world.lift("ASC-1", None).await;
    let today = day_text(clock::paris_today());
    let visit = world.visit(&equipment, None, clock::paris_today()).await;
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
    let world = World::in_agency(&server, agency);
    let equipment = world.lift("ASC-1", None).await;
    let visit = world.visit(&equipment, None, day("2026-03-10")).await;
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
    let world = World::in_agency(&server, agency);
    let albert = world.technician("Albert", None).await;
    let zoe = world.technician("Zoé", None).await;
    let gone = world.technician("Parti", None).await;
    world.deactivate_technician(&gone).await;
    let foreign = World::in_agency(&server, &other.agency_id)
        .technician("Ailleurs", None)
        .await;
    let equipment = world.lift("ASC-1", None).await;
    let today = clock::paris_today();
    let next_week = today + Duration::days(7);
    let visit = world.visit(&equipment, Some(&albert), today).await;
    world
        .absence(
            &zoe,
            next_week,
            next_week + Duration::days(2),
            "Congés payés",
        )
        .await;
    world
        .absence(
            &albert,
            today + Duration::days(3),
            today + Duration::days(3),
            "Congés payés",
        )
        .await;
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
    let far = World::in_agency(&server, &other.agency_id);
    let far_equipment = far.lift("ASC-9", None).await;
    let today = day_text(clock::paris_today());
    let planned = far.visit(&far_equipment, None, clock::paris_today()).await;
    // One visit not done per equipment: the one begun is another's.
    let far_second = far.lift("ASC-10", None).await;
    let started = far
        .started_visit(
            &far_second,
            None,
            clock::paris_today(),
            instant("2026-03-11T08:00:00.000Z"),
        )
        .await;
    // A visit of the organization's second agency, read from the first one.
    let east = World::in_agency(&server, &east_id);
    let east_equipment = east.lift("ASC-1", None).await;
    let east_visit = east
        .visit(&east_equipment, None, clock::paris_today())
        .await;
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
        (403, json!({ "error": OPERATOR_CHANGES_NOTHING }))
    );
    assert_eq!(snapshot(&db), before);
    server.stop().await;
}

#[tokio::test]
async fn an_optional_body_may_be_empty_or_null() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let world = World::in_agency(&server, &org.agency_id);
    let today = clock::paris_today();
    // One visit not done per equipment: two visits, two lifts.
    let equipment = world.lift("ASC-1", None).await;
    let first = world.visit(&equipment, None, today).await;
    let equipment = world.lift("ASC-2", None).await;
    let second = world.visit(&equipment, None, today).await;
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
    let world = World::in_agency(&server, agency);
    let tech = world.technician("Karim Legrand", None).await;
    let equipment = world.lift("ASC 10567", None).await;
    let call_center = world.call_center_key("Télésecours Île-de-France").await;
    let trapped = world
        .call_at(
            &call_center,
            CenterCallInput {
                reference: "CC-2026-000404".to_owned(),
                equipment: "ASC 10567".to_owned(),
                call_type: "personne_bloquee".to_owned(),
                description: "Cabine bloquée entre deux étages".to_owned(),
                caller: Some("Mme Benali (résidente)".to_owned()),
                received_at: None,
            },
            instant("2026-03-11T07:12:14.221Z"),
        )
        .await;
    world
        .assign_call_at(&trapped, &tech, instant("2026-03-11T07:20:00.000Z"))
        .await;
    world
        .move_call_at(&trapped, "sur_place", instant("2026-03-11T07:40:00.000Z"))
        .await;
    // Taken by phone at the agency, resolved without a technician.
    let staff = world.staff("admin@durand.fr").await;
    let at_agency = staff
        .at(instant("2026-03-10T09:00:00.000Z"), || {
            staff.call_taken_at_agency(AgencyCallInput {
                equipment: "ASC 10567".to_owned(),
                call_type: "bruit".to_owned(),
                description: "Cabine bloquée entre deux étages".to_owned(),
                ..AgencyCallInput::default()
            })
        })
        .await;
    world
        .move_call_at(&at_agency, "resolue", instant("2026-03-10T11:30:00.000Z"))
        .await;
    let center = db.call_center_of(&trapped);
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
