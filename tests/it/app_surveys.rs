//! The Relevés screen's API (`/app/api/surveys…`, `/app/api/discrepancies`):
//! the REST API v2's rules with the staff session as the caller. The paged
//! list and its search, a survey and its data equal to the REST answers, a
//! discrepancy reported then listed, the submission queuing `releve.termine`,
//! refusals with their French reason and nothing written, another agency's
//! survey 404.

use crate::common;

use std::path::Path;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use common::app::StaffClient;
use common::world::{PastSurvey, World as Fixtures};
use common::*;
use liftdesk::domain::survey::SurveyStatus;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";
const CREATED: &str = "2026-03-02T09:00:00.000Z";
const NOT_FOUND: &str = "Relevé introuvable.";
const NOT_A_SURVEYOR: &str = "Soumettre un relevé est réservé aux comptes qui réalisent des relevés et aux administrateurs : ce compte ne réalise pas de relevés.";
const ALREADY_DONE: &str =
    "Le relevé est déjà terminé : il a déjà été soumis, ses données sont celles de l'équipement.";

/// CREATED plus `minutes`.
fn created(minutes: i64) -> DateTime<Utc> {
    liftdesk::clock::parse_timestamp(CREATED).expect("instant") + Duration::minutes(minutes)
}

/// A survey of the equipment `number` opened in the app by the mobile account
/// `email` `minutes` after CREATED (the list is newest first).
async fn opened(
    server: &TestServer,
    agency: &str,
    number: &str,
    email: &str,
    minutes: i64,
) -> String {
    let fixtures = Fixtures::in_agency(server, agency);
    fixtures
        .at(created(minutes), || fixtures.opened_survey(number, email))
        .await
}

/// A survey created `minutes` after CREATED (the list is newest first),
/// « Prise en main du parc », due 2026-04-01, three photos, from the
/// agency's history (`World::survey_from_history`): it is one of several
/// open surveys of an equipment, holds data entered before its submission,
/// or has a due day and photos while still `a_realiser`, as the operations
/// do not leave it (a survey is asked for only when its equipment has none
/// open, and the technician's first save makes it `en_cours`).
async fn survey(
    server: &TestServer,
    agency: &str,
    equipment: &str,
    number: &str,
    status: SurveyStatus,
    minutes: i64,
    values: &[(&str, Value)],
) -> String {
    Fixtures::in_agency(server, agency)
        .survey_from_history(PastSurvey {
            equipment: equipment.to_owned(),
            number: Some(number.to_owned()),
            status,
            reason: Some("Prise en main du parc".to_owned()),
            surveyor: None,
            due_on: NaiveDate::from_ymd_opt(2026, 4, 1),
            surveyed_on: None,
            photo_count: 3,
            created: created(minutes),
            values: values
                .iter()
                .map(|(code, value)| ((*code).to_owned(), value.clone()))
                .collect(),
        })
        .await
}

/// Everything a submission or a report writes about a survey.
#[derive(Debug, PartialEq)]
struct Written {
    status: String,
    updated_at: String,
    values: Vec<(String, String)>,
    equipment_values: i64,
    events: Vec<String>,
    audit: i64,
    discrepancies: i64,
}

fn written(dir: &Path, survey: &str) -> Written {
    let db = open_db(dir);
    let (status, updated_at, equipment): (String, String, String) = db
        .query_row(
            "SELECT status, updated_at, equipment_id FROM surveys WHERE id = ?1",
            [survey],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("survey");
    let mut stmt = db
        .prepare("SELECT field_code, value FROM survey_values WHERE survey_id = ?1 ORDER BY 1")
        .expect("prepare");
    let values = stmt
        .query_map([survey], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let mut stmt = db
        .prepare("SELECT event FROM outbox_events WHERE object_id = ?1 ORDER BY occurred_at")
        .expect("prepare");
    let events = stmt
        .query_map([survey], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let count =
        |sql: &str, id: &str| -> i64 { db.query_row(sql, [id], |r| r.get(0)).expect("count") };
    Written {
        status,
        updated_at,
        values,
        equipment_values: count(
            "SELECT COUNT(*) FROM equipment_values WHERE equipment_id = ?1",
            &equipment,
        ),
        events,
        audit: count(
            "SELECT COUNT(*) FROM audit_log WHERE object_id = ?1",
            survey,
        ),
        discrepancies: count(
            "SELECT COUNT(*) FROM discrepancies WHERE survey_id = ?1",
            survey,
        ),
    }
}

fn user(dir: &Path, email: &str, agency: &str, performs_surveys: bool) {
    let mut args = vec![
        "user",
        "create",
        "--email",
        email,
        "--name",
        "Technicien",
        "--password",
        "motdepasse1",
        "--agency",
        agency,
    ];
    if performs_surveys {
        args.push("--performs-surveys");
    }
    cli_json(dir, &args);
}

struct World {
    server: TestServer,
    org: Org,
    admin: StaffClient,
    member: StaffClient,
    surveyor: StaffClient,
    outsider: StaffClient,
    /// ASC-1, surveyed by the surveys of `org` below but the third and the
    /// fifth (ASC-2 and ASC-3: an equipment has one open survey at a time).
    equipment: String,
    /// REL-2026-00001 … 00005 (00004 `termine`), oldest first.
    surveys: Vec<String>,
    /// A survey of the other organization.
    foreign: String,
}

impl World {
    fn dir(&self) -> &Path {
        self.server.data_dir.path()
    }

    async fn rest(&self, path: &str) -> (u16, Value) {
        self.server
            .get_with(&format!("/api/v2{path}"), Some(&self.org.admin_token), None)
            .await
    }
}

async fn world() -> World {
    let data_dir = tempfile::tempdir().expect("dir");
    let dir = data_dir.path();
    let org = init_org(dir, "Durand", "claire@durand.fr");
    let other = init_org(dir, "Martin", "paul@martin.fr");
    user(dir, "membre@durand.fr", &org.agency_id, false);
    user(dir, "releveur@durand.fr", &org.agency_id, true);
    let server = TestServer::start_in(data_dir).await;
    let fixtures = Fixtures::in_agency(&server, &org.agency_id);
    let eq = fixtures.lift("ASC-1", None).await;
    fixtures.lift("ASC-2", None).await;
    fixtures.lift("ASC-3", None).await;
    let mut surveys = Vec::new();
    for n in 1..=5 {
        let survey = match n {
            3 => opened(&server, &org.agency_id, "ASC-2", "releveur@durand.fr", n).await,
            5 => opened(&server, &org.agency_id, "ASC-3", "releveur@durand.fr", n).await,
            _ => {
                let status = if n == 4 {
                    SurveyStatus::Termine
                } else {
                    SurveyStatus::ARealiser
                };
                let values = if n == 1 {
                    vec![
                        ("charge_utile", json!(630)),
                        ("porte_cabine_type", json!("Battante")),
                    ]
                } else {
                    Vec::new()
                };
                survey(
                    &server,
                    &org.agency_id,
                    &eq,
                    &format!("REL-2026-0000{n}"),
                    status,
                    n,
                    &values,
                )
                .await
            }
        };
        surveys.push(survey);
    }
    let theirs = Fixtures::in_agency(&server, &other.agency_id);
    theirs.lift("AUTRE-1", None).await;
    theirs.staff_account("releveur@martin.fr", true).await;
    let foreign = opened(
        &server,
        &other.agency_id,
        "AUTRE-1",
        "releveur@martin.fr",
        0,
    )
    .await;
    let admin = StaffClient::sign_in(&server, "claire@durand.fr", PASSWORD).await;
    let member = StaffClient::sign_in(&server, "membre@durand.fr", "motdepasse1").await;
    let surveyor = StaffClient::sign_in(&server, "releveur@durand.fr", "motdepasse1").await;
    let outsider = StaffClient::sign_in(&server, "paul@martin.fr", PASSWORD).await;
    World {
        server,
        org,
        admin,
        member,
        surveyor,
        outsider,
        equipment: eq,
        surveys,
        foreign,
    }
}

fn numbers(page: &Value) -> Vec<&str> {
    page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["number"].as_str().expect("number"))
        .collect()
}

#[tokio::test]
async fn the_list_is_the_rest_page_searched_and_paged_with_its_columns() {
    let w = world().await;
    let (status, page) = w.admin.get("/surveys").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], json!(5));
    assert_eq!(
        (page["page"].clone(), page["limit"].clone()),
        (json!(1), json!(50))
    );
    assert_eq!(
        numbers(&page),
        [
            "REL-2026-00005",
            "REL-2026-00004",
            "REL-2026-00003",
            "REL-2026-00002",
            "REL-2026-00001"
        ]
    );
    let row = &page["results"][1];
    assert_eq!(row["id"], json!(w.surveys[3]));
    assert_eq!(row["link"], json!(format!("/releves/{}", w.surveys[3])));
    assert_eq!(row["status"], json!("termine"));
    assert_eq!(row["statusLabel"], json!("Terminé"));
    assert_eq!(row["dueOn"], json!("2026-04-01"));
    assert_eq!(
        row["equipment"],
        json!({"id": w.equipment, "number": "ASC-1", "typeLabel": "Ascenseur",
               "link": format!("/equipements/{}", w.equipment)})
    );

    // The REST rows are the same, in the same order.
    let (status, rest) = w.rest("/surveys").await;
    assert_eq!(status, 200);
    for (app, rest) in page["results"]
        .as_array()
        .expect("rows")
        .iter()
        .zip(rest["results"].as_array().expect("rows"))
    {
        for key in ["id", "number", "link", "url"] {
            assert_eq!(app[key], rest[key], "{key}");
        }
    }

    // Search on the number, paging, and the REST refusals.
    let (_, found) = w.admin.get("/surveys?q=00003").await;
    assert_eq!(found["total"], json!(1));
    assert_eq!(numbers(&found), ["REL-2026-00003"]);
    let (_, second) = w.admin.get("/surveys?q=rel-2026&limit=2&page=2").await;
    assert_eq!(second["total"], json!(5));
    assert_eq!(numbers(&second), ["REL-2026-00003", "REL-2026-00002"]);
    let (_, none) = w.admin.get("/surveys?q=ZZZ").await;
    assert_eq!(
        (none["total"].clone(), none["results"].clone()),
        (json!(0), json!([]))
    );
    let (status, body) = w
        .admin
        .get(&format!("/surveys?q={}", "x".repeat(101)))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"error": "Le paramètre « q » ne doit pas dépasser 100 caractères."})
    );
    let (status, body) = w.admin.get("/surveys?limit=0").await;
    assert_eq!(status, 422, "{body}");
    assert!(body["error"].as_str().expect("error").contains("limit"));

    // Another organization sees its own survey only.
    let (_, theirs) = w.outsider.get("/surveys").await;
    assert_eq!(theirs["total"], json!(1));
    assert_eq!(theirs["results"][0]["id"], json!(w.foreign));
    w.server.stop().await;
}

#[tokio::test]
async fn a_survey_and_its_data_read_as_over_the_rest_api() {
    let w = world().await;
    let id = &w.surveys[0];
    let (status, detail) = w.admin.get(&format!("/surveys/{id}")).await;
    assert_eq!(status, 200, "{detail}");
    let (status, rest) = w.rest(&format!("/surveys/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(detail["survey"], rest);
    assert_eq!(detail["survey"]["fields"]["fieldCount"], json!("2"));
    assert_eq!(detail["status"], json!("a_realiser"));
    assert_eq!(detail["equipment"]["number"], json!("ASC-1"));
    assert_eq!(detail["createdAt"], json!("2026-03-02T09:01:00.000Z"));
    assert_eq!(detail["submittedAt"], Value::Null);
    assert_eq!(detail["surveyorName"], Value::Null);
    assert_eq!(
        detail["components"][0],
        json!({"component": "equipment", "label": "Appareil"})
    );

    // The submission form: offered to the administrator, the days that bound
    // `surveyedOn`, the catalog of an elevator with what the survey recorded.
    let submission = &detail["submission"];
    assert_eq!(submission["allowed"], json!(true));
    assert_eq!(submission["refusal"], Value::Null);
    assert_eq!(submission["requestedOn"], json!("2026-03-02"));
    assert_eq!(
        submission["today"].as_str().map(str::len),
        Some("2026-03-02".len())
    );
    let fields: Vec<&Value> = submission["components"]
        .as_array()
        .expect("components")
        .iter()
        .flat_map(|c| c["fields"].as_array().expect("fields"))
        .collect();
    let load = fields
        .iter()
        .find(|f| f["code"] == json!("charge_utile"))
        .expect("charge_utile");
    assert_eq!(load["value"], json!(630));
    assert_eq!(load["unit"], json!("kg"));
    assert_eq!(load["valueType"], json!("number"));
    let door = fields
        .iter()
        .find(|f| f["code"] == json!("porte_cabine_type"))
        .expect("porte_cabine_type");
    assert_eq!(door["valueType"], json!("choice"));
    assert!(
        door["choices"]
            .as_array()
            .expect("choices")
            .contains(&json!("Battante"))
    );

    // The data: exactly the REST answer.
    let (status, data) = w.admin.get(&format!("/surveys/{id}/data")).await;
    assert_eq!(status, 200, "{data}");
    let (_, rest_data) = w.rest(&format!("/surveys/{id}/data")).await;
    assert_eq!(data, rest_data);
    assert_eq!(
        data["components"]["equipment"][0]["code"],
        json!("charge_utile")
    );
    assert_eq!(
        data["components"]["car_door"][0]["valeur"],
        json!("Battante")
    );

    // Who may not submit is told why; a finished survey says so.
    let (_, seen) = w.member.get(&format!("/surveys/{id}")).await;
    assert_eq!(seen["submission"]["allowed"], json!(false));
    assert_eq!(seen["submission"]["refusal"], json!(NOT_A_SURVEYOR));
    let (_, seen) = w.surveyor.get(&format!("/surveys/{id}")).await;
    assert_eq!(seen["submission"]["allowed"], json!(true));
    let (_, done) = w.admin.get(&format!("/surveys/{}", w.surveys[3])).await;
    assert_eq!(done["submission"]["refusal"], json!(ALREADY_DONE));
    w.server.stop().await;
}

#[tokio::test]
async fn a_discrepancy_is_reported_through_the_rest_rules_then_listed() {
    let w = world().await;
    let id = &w.surveys[1];
    let (status, empty) = w.member.get(&format!("/surveys/{id}/discrepancies")).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(
        empty,
        json!({"total": 0, "page": 1, "limit": 50, "results": []})
    );

    // Refused as over the REST API: nothing written.
    let before = written(w.dir(), id);
    let (status, body) = w
        .member
        .post(
            "/discrepancies",
            json!({"equipmentId": w.equipment, "surveyId": id, "finding": "  ab "}),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body,
        json!({"error": "Le champ « finding » doit contenir au moins 3 caractères : décrivez l'écart constaté."})
    );
    let (status, body) = w
        .member
        .post(
            "/discrepancies",
            json!({"equipmentId": w.equipment, "surveyId": id, "component": "toit", "finding": "Trappe absente"}),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        body["error"]
            .as_str()
            .expect("error")
            .starts_with("Le composant « toit » n'est pas reconnu")
    );
    assert_eq!(written(w.dir(), id), before);

    for (component, finding) in [
        (json!("car_door"), "Galets de porte cabine usés"),
        (Value::Null, "Éclairage de cuvette hors service"),
    ] {
        let (status, created) = w
            .member
            .post(
                "/discrepancies",
                json!({"equipmentId": w.equipment, "surveyId": id, "component": component, "finding": finding}),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["ok"], json!(true));
        assert!(
            created["link"]
                .as_str()
                .expect("link")
                .starts_with("/ecarts/")
        );
    }
    let (status, page) = w
        .admin
        .get(&format!("/surveys/{id}/discrepancies?limit=1"))
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], json!(2));
    let row = &page["results"][0];
    assert_eq!(row["component"], json!("equipment"));
    assert_eq!(row["componentLabel"], json!("Appareil"));
    assert_eq!(row["finding"], json!("Éclairage de cuvette hors service"));
    assert_eq!(row["author"], json!("Technicien"));
    let (_, page) = w
        .admin
        .get(&format!("/surveys/{id}/discrepancies?limit=1&page=2"))
        .await;
    assert_eq!(
        page["results"][0]["componentLabel"],
        json!("Porte de cabine")
    );
    assert_eq!(written(w.dir(), id).discrepancies, 2);
    w.server.stop().await;
}

#[tokio::test]
async fn the_submission_queues_releve_termine_and_a_refusal_writes_nothing() {
    let w = world().await;
    let id = &w.surveys[0];
    let path = format!("/surveys/{id}/submit");
    let before = written(w.dir(), id);

    // A member who does not survey: 403, the service's reason, nothing written.
    let (status, body) = w
        .member
        .post(&path, json!({"values": {"vitesse": 1.6}}))
        .await;
    assert_eq!((status, body), (403, json!({"error": NOT_A_SURVEYOR})));
    assert_eq!(written(w.dir(), id), before);
    // A refused datum or day: 422 naming it, nothing written.
    let (status, body) = w
        .surveyor
        .post(&path, json!({"values": {"vitesse": -1}}))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({"error": "Le champ « vitesse » doit être un nombre positif ou nul."})
        )
    );
    let (status, body) = w
        .surveyor
        .post(&path, json!({"surveyedOn": "2026-03-01"}))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({"error": "Le champ « surveyedOn » ne peut pas précéder la demande du relevé, faite le 02/03/2026."})
        )
    );
    assert_eq!(written(w.dir(), id), before);

    // The surveyor submits: the REST answer, one `releve.termine` queued.
    let (status, body) = w
        .surveyor
        .post(
            &path,
            json!({"surveyedOn": "2026-03-09", "values": {"vitesse": 1.6, "charge_utile": null}}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"id": id, "ok": true, "status": "termine", "link": format!("/releves/{id}"),
               "url": format!("{}/releves/{id}", w.server.base_url)})
    );
    let after = written(w.dir(), id);
    assert_eq!(after.status, "termine");
    assert_eq!(after.events, ["releve.termine"]);
    assert_eq!(
        after.values,
        [
            ("porte_cabine_type".to_owned(), "\"Battante\"".to_owned()),
            ("vitesse".to_owned(), "1.6".to_owned())
        ]
    );
    assert_eq!(after.equipment_values, 2);
    let (_, detail) = w.surveyor.get(&format!("/surveys/{id}")).await;
    assert_eq!(detail["survey"]["fields"]["status"], json!("Terminé"));
    assert_eq!(
        detail["survey"]["fields"]["surveyedOn"],
        json!("09/03/2026")
    );
    assert_eq!(detail["surveyorName"], json!("Technicien"));
    assert_eq!(detail["submission"]["allowed"], json!(false));

    // Again: 422, still one event.
    let (status, body) = w.admin.post(&path, json!({})).await;
    assert_eq!((status, body), (422, json!({"error": ALREADY_DONE})));
    assert_eq!(written(w.dir(), id).events, ["releve.termine"]);
    w.server.stop().await;
}

#[tokio::test]
async fn another_agency_s_survey_is_not_found() {
    let w = world().await;
    let foreign = &w.foreign;
    let before = written(w.dir(), foreign);
    for path in [
        format!("/surveys/{foreign}"),
        format!("/surveys/{foreign}/data"),
        format!("/surveys/{foreign}/discrepancies"),
        "/surveys/inconnu".to_owned(),
    ] {
        let (status, body) = w.admin.get(&path).await;
        assert_eq!((status, body), (404, json!({"error": NOT_FOUND})), "{path}");
    }
    let (status, body) = w
        .admin
        .post(&format!("/surveys/{foreign}/submit"), json!({}))
        .await;
    assert_eq!((status, body), (404, json!({"error": NOT_FOUND})));
    // Reporting on it is refused as over the REST API (422: not in the agency).
    let (status, body) = w
        .admin
        .post(
            "/discrepancies",
            json!({"equipmentId": w.equipment, "surveyId": foreign, "finding": "Trappe absente"}),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body,
        json!({"error": format!("Le relevé « {foreign} » est introuvable dans cette agence.")})
    );
    assert_eq!(written(w.dir(), foreign), before);
    // Its own organization reads it.
    let (status, _) = w.outsider.get(&format!("/surveys/{foreign}")).await;
    assert_eq!(status, 200);
    w.server.stop().await;
}
