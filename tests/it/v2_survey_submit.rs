//! The survey submission: `POST /api/v2/surveys/{id}/submit` and
//! `POST /app/api/surveys/{id}/submit` — over HTTP on the real router, with
//! fixtures written through the operations, and the surveys to submit from
//! the agency's history (`World::survey_from_history`). The survey becomes
//! `termine`, its data reach the equipment and exactly one
//! `releve.termine` is queued, or nothing at all is written.

use crate::common;

use std::path::Path;

use chrono::{DateTime, NaiveDate, Utc};
use common::world::{PastSurvey, World as Fixtures};
use common::*;
use liftdesk::domain::survey::SurveyStatus;
use liftdesk::services::surveys::SubmitInput;
use liftdesk::store::sql::OptionalExtension;
use serde_json::{Value, json};

const UNAUTHORIZED: &str = "Authentification requise : jeton d'API manquant, inconnu ou révoqué.";
/// When the fixtures' records were created (surveys are asked for then).
const CREATED: &str = "2026-03-02T09:00:00.000Z";
const ALREADY_DONE: &str =
    "Le relevé est déjà terminé : il a déjà été soumis, ses données sont celles de l'équipement.";
const CANCELLED: &str = "Action refusée : impossible de soumettre ce relevé au statut « Annulé » : un relevé annulé ne se soumet plus ; si l'équipement doit être relevé, demandez un nouveau relevé.";
const NOT_A_SURVEYOR: &str = "Soumettre un relevé est réservé aux comptes qui réalisent des relevés et aux administrateurs : ce compte ne réalise pas de relevés.";

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected, got {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn error_of(body: &Value) -> &str {
    assert_eq!(keys(body), ["error"], "error body expected: {body}");
    body["error"].as_str().expect("error text")
}

/// A request with an optional token, agency header, content type and raw
/// body; the status and the raw text of the answer.
async fn send_raw(
    server: &TestServer,
    path: &str,
    token: Option<&str>,
    agency: Option<&str>,
    content_type: Option<&str>,
    body: Option<String>,
) -> (u16, String) {
    let mut request = server.client.post(server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(agency) = agency {
        request = request.header("X-Service-Agency", agency);
    }
    if let Some(content_type) = content_type {
        request = request.header("Content-Type", content_type);
    }
    if let Some(body) = body {
        request = request.body(body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.text().await.expect("body"))
}

fn json_of(status: u16, text: &str) -> Value {
    serde_json::from_str(text)
        .unwrap_or_else(|_| panic!("JSON body expected, got {status} {text:?}"))
}

/// `POST /api/v2/surveys/{id}/submit` with a JSON body (None: no body at all).
async fn submit(
    server: &TestServer,
    token: &str,
    survey: &str,
    body: Option<Value>,
) -> (u16, Value) {
    submit_in(server, token, None, survey, body).await
}

async fn submit_in(
    server: &TestServer,
    token: &str,
    agency: Option<&str>,
    survey: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (content_type, body) = match body {
        Some(body) => (Some("application/json"), Some(body.to_string())),
        None => (None, None),
    };
    let (status, text) = send_raw(
        server,
        &format!("/api/v2/surveys/{survey}/submit"),
        Some(token),
        agency,
        content_type,
        body,
    )
    .await;
    (status, json_of(status, &text))
}

async fn get(server: &TestServer, path: &str, token: &str) -> (u16, Value) {
    server.get_with(path, Some(token), None).await
}

/// What a survey looks like in the database, to check that a refusal
/// changed nothing.
#[derive(Debug, Clone, PartialEq)]
struct SurveyState {
    status: String,
    surveyed_on: Option<String>,
    submitted_at: Option<String>,
    surveyor: Option<String>,
    updated_at: String,
    values: Vec<(String, String)>,
    equipment_values: Vec<(String, String, Option<String>, String)>,
    events: i64,
    audit: i64,
}

fn survey_state(dir: &Path, survey: &str) -> SurveyState {
    let db = open_db(dir);
    let (status, surveyed_on, submitted_at, surveyor, updated_at, equipment): (
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
        String,
    ) = db
        .query_row(
            "SELECT status, surveyed_on, submitted_at, surveyor_account_id, updated_at, equipment_id
             FROM surveys WHERE id = ?1",
            [survey],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .expect("survey");
    let mut stmt = db
        .prepare(
            "SELECT field_code, value FROM survey_values WHERE survey_id = ?1 ORDER BY field_code",
        )
        .expect("prepare");
    let values = stmt
        .query_map([survey], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let mut stmt = db
        .prepare(
            "SELECT field_code, value, survey_id, surveyed_at FROM equipment_values
             WHERE equipment_id = ?1 ORDER BY field_code",
        )
        .expect("prepare");
    let equipment_values = stmt
        .query_map([&equipment], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let events = db
        .query_row(
            "SELECT COUNT(*) FROM outbox_events WHERE object_id = ?1",
            [survey],
            |r| r.get(0),
        )
        .expect("events");
    let audit = db
        .query_row(
            "SELECT COUNT(*) FROM audit_log WHERE object_id = ?1",
            [survey],
            |r| r.get(0),
        )
        .expect("audit");
    SurveyState {
        status,
        surveyed_on,
        submitted_at,
        surveyor,
        updated_at,
        values,
        equipment_values,
        events,
        audit,
    }
}

/// The event rows of a survey: (event, status, equipment, occurred_at, body).
fn events_of(dir: &Path, survey: &str) -> Vec<(String, String, String, String, String)> {
    let db = open_db(dir);
    let mut stmt = db
        .prepare(
            "SELECT event, status, equipment_id, occurred_at, body FROM outbox_events
             WHERE object_id = ?1 ORDER BY occurred_at, id",
        )
        .expect("prepare");
    stmt.query_map([survey], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })
    .expect("query")
    .collect::<Result<_, _>>()
    .expect("rows")
}

/// (action, actor kind, actor id, detail) of the survey's audit entries.
fn audit_of(dir: &Path, survey: &str) -> Vec<(String, String, Option<String>, Value)> {
    let db = open_db(dir);
    let mut stmt = db
        .prepare(
            "SELECT action, actor_kind, actor_id, coalesce(detail, 'null') FROM audit_log
             WHERE object_id = ?1 AND object_type = 'survey' ORDER BY seq",
        )
        .expect("prepare");
    stmt.query_map([survey], |r| {
        let detail: String = r.get(3)?;
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            serde_json::from_str(&detail).expect("json"),
        ))
    })
    .expect("query")
    .collect::<Result<_, _>>()
    .expect("rows")
}

fn credential_of(dir: &Path, token_name: &str, account: &str) -> String {
    open_db(dir)
        .query_row(
            "SELECT id FROM credentials WHERE kind = 'api_token' AND name = ?1 AND account_id = ?2",
            [token_name, account],
            |r| r.get(0),
        )
        .expect("credential")
}

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

fn created() -> DateTime<Utc> {
    liftdesk::clock::parse_timestamp(CREATED).expect("instant")
}

/// An `ascenseur` under contract of the agency, without building.
async fn equipment(server: &TestServer, agency: &str, number: &str) -> String {
    Fixtures::in_agency(server, agency).lift(number, None).await
}

/// Technical data of the equipment entered outside any survey at CREATED.
async fn equipment_values(server: &TestServer, agency: &str, equipment: &str, values: Value) {
    let fixtures = Fixtures::in_agency(server, agency);
    fixtures
        .at(created(), || fixtures.technical_values(equipment, values))
        .await;
}

/// A mobile account (performs surveys) of the agency.
async fn surveyor_in(server: &TestServer, agency: &str, email: &str) {
    Fixtures::in_agency(server, agency)
        .staff_account(email, true)
        .await;
}

/// The survey of the equipment `number` opened in the app by the mobile
/// account `email` (a new one `a_realiser` when none is open).
async fn opened(server: &TestServer, agency: &str, number: &str, email: &str) -> String {
    Fixtures::in_agency(server, agency)
        .opened_survey(number, email)
        .await
}

/// A survey from the agency's history (`World::survey_from_history`), as
/// the operations would not leave it: with a number given by hand, photos
/// while still `a_realiser`, and no audit entry of its own (the tests count
/// the submission's one entry). `en_cours` with data the technician
/// entered, `annule`, or `a_realiser`. Asked for at CREATED, « Prise en
/// main du parc », due 2026-04-01, three photos.
async fn survey_in_state(
    server: &TestServer,
    agency: &str,
    equipment: &str,
    number: &str,
    status: SurveyStatus,
    surveyor: Option<&str>,
    values: &[(&str, Value)],
) -> String {
    Fixtures::in_agency(server, agency)
        .survey_from_history(PastSurvey {
            equipment: equipment.to_owned(),
            number: Some(number.to_owned()),
            status,
            reason: Some("Prise en main du parc".to_owned()),
            surveyor: surveyor.map(str::to_owned),
            due_on: NaiveDate::from_ymd_opt(2026, 4, 1),
            surveyed_on: None,
            photo_count: 3,
            created: created(),
            values: values
                .iter()
                .map(|(code, value)| ((*code).to_owned(), value.clone()))
                .collect(),
        })
        .await
}

/// Two organizations (`org`, the caller, with a second agency; `other`), a
/// surveyor member and a plain member of `org`'s first agency.
struct World {
    server: TestServer,
    org: Org,
    other: Org,
    second_agency: String,
    surveyor_id: String,
    surveyor_token: String,
    member_token: String,
}

impl World {
    fn dir(&self) -> &Path {
        self.server.data_dir.path()
    }
}

fn user(dir: &Path, email: &str, agency: &str, performs_surveys: bool) -> (String, String) {
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
    let created = cli_json(dir, &args);
    let token = cli_json(dir, &["token", "create", "--email", email, "--name", "app"]);
    (
        str_of(&created, "id").to_owned(),
        str_of(&token, "token").to_owned(),
    )
}

async fn world() -> World {
    let data_dir = tempfile::tempdir().expect("dir");
    let dir = data_dir.path();
    let org = init_org(dir, "Durand", "claire@durand.fr");
    let other = init_org(dir, "Concurrent", "admin@concurrent.fr");
    let second = cli_json(
        dir,
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Durand Est",
        ],
    );
    let (surveyor_id, surveyor_token) = user(dir, "releveur@durand.fr", &org.agency_id, true);
    let (_, member_token) = user(dir, "membre@durand.fr", &org.agency_id, false);
    let server = TestServer::start_in(data_dir).await;
    World {
        server,
        second_agency: str_of(&second, "id").to_owned(),
        surveyor_id,
        surveyor_token,
        member_token,
        org,
        other,
    }
}

// ---------------------------------------------------------------------------
// Submission
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_survey_to_do_is_submitted_with_its_data_and_one_event() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let eq = equipment(&w.server, agency, "ASC-1").await;
    // Data entered outside any survey: one replaced, one kept.
    equipment_values(
        &w.server,
        agency,
        &eq,
        json!({"vitesse": 1, "marque": "Otis"}),
    )
    .await;
    let id = survey_in_state(
        &w.server,
        agency,
        &eq,
        "REL-2026-00001",
        SurveyStatus::ARealiser,
        None,
        &[],
    )
    .await;

    let body = json!({
        "surveyedOn": "2026-03-09",
        "values": {
            "charge_utile": 630.0,
            "vitesse": 1.6,
            "type_entrainement": "Electrique",
            "gaine_largeur_cuvette": 1500,
            "porte_cabine_cellule": true,
        },
    });
    let (status, text) = send_raw(
        &w.server,
        &format!("/api/v2/surveys/{id}/submit"),
        Some(token),
        None,
        Some("application/json"),
        Some(body.to_string()),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    // Exactly these keys, in this order.
    assert_eq!(
        text,
        format!(
            r#"{{"id":"{id}","ok":true,"status":"termine","link":"/releves/{id}","url":"{}/releves/{id}"}}"#,
            w.server.base_url
        )
    );

    // The survey reads finished.
    let (status, read) = get(&w.server, &format!("/api/v2/surveys/{id}"), token).await;
    assert_eq!(status, 200);
    assert_eq!(
        read["fields"],
        json!({
            "number": "REL-2026-00001",
            "status": "Terminé",
            "type": null,
            "surveyedOn": "09/03/2026",
            "dueOn": "01/04/2026",
            "fieldCount": "5",
            "photoCount": "3",
        })
    );
    let (status, data) = get(&w.server, &format!("/api/v2/surveys/{id}/data"), token).await;
    assert_eq!(status, 200);
    assert_eq!(data["status"], json!("Terminé"));
    assert_eq!(data["surveyedOn"], json!("2026-03-09"));
    assert_eq!(
        keys(&data["components"]),
        ["car_door", "equipment", "shaft"]
    );
    let equipment_codes: Vec<&Value> = data["components"]["equipment"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| &d["code"])
        .collect();
    assert_eq!(
        equipment_codes,
        [
            &json!("charge_utile"),
            &json!("vitesse"),
            &json!("type_entrainement")
        ]
    );
    assert_eq!(data["components"]["equipment"][0]["valeur"], json!(630));

    // In the database.
    let state = survey_state(dir, &id);
    let submitted_at = state.submitted_at.clone().expect("submitted_at");
    assert_eq!(state.status, "termine");
    assert_eq!(state.surveyed_on.as_deref(), Some("2026-03-09"));
    assert_eq!(state.surveyor.as_deref(), Some(w.org.admin_id.as_str()));
    assert_eq!(state.updated_at, submitted_at);
    assert_eq!(submitted_at.len(), "2026-11-21T07:23:00.000Z".len());
    assert!(submitted_at.ends_with('Z'), "{submitted_at}");
    assert!(liftdesk::clock::parse_timestamp(&submitted_at).is_some());
    assert_eq!(
        state.values,
        [
            ("charge_utile".to_owned(), "630".to_owned()),
            ("gaine_largeur_cuvette".to_owned(), "1500".to_owned()),
            ("porte_cabine_cellule".to_owned(), "true".to_owned()),
            ("type_entrainement".to_owned(), "\"Electrique\"".to_owned()),
            ("vitesse".to_owned(), "1.6".to_owned()),
        ]
    );
    let by_survey = |code: &str, value: &str| {
        (
            code.to_owned(),
            value.to_owned(),
            Some(id.clone()),
            submitted_at.clone(),
        )
    };
    assert_eq!(
        state.equipment_values,
        [
            by_survey("charge_utile", "630"),
            by_survey("gaine_largeur_cuvette", "1500"),
            // Not surveyed this time: kept, still from outside any survey.
            (
                "marque".to_owned(),
                "\"Otis\"".to_owned(),
                None,
                CREATED.to_owned()
            ),
            by_survey("porte_cabine_cellule", "true"),
            by_survey("type_entrainement", "\"Electrique\""),
            by_survey("vitesse", "1.6"),
        ]
    );

    // Exactly one event, with the spec's body, fixed at commit time.
    let events = events_of(dir, &id);
    assert_eq!(events.len(), 1, "{events:?}");
    let (event, event_status, event_equipment, occurred_at, body) = &events[0];
    assert_eq!(
        (
            event.as_str(),
            event_status.as_str(),
            event_equipment.as_str()
        ),
        ("releve.termine", "termine", eq.as_str())
    );
    assert_eq!(occurred_at, &submitted_at);
    assert_eq!(
        body,
        &format!(
            r#"{{"event":"releve.termine","id":"{id}","agency":"{agency}","equipment":"{eq}","status":"termine","occurredAt":"{submitted_at}"}}"#
        )
    );
    let parsed: Value = serde_json::from_str(body).expect("event body is JSON");
    assert_eq!(
        parsed,
        json!({
            "event": "releve.termine",
            "id": id,
            "agency": agency,
            "equipment": eq,
            "status": "termine",
            "occurredAt": submitted_at,
        })
    );

    // One audit entry, by the token.
    let audit = audit_of(dir, &id);
    assert_eq!(audit.len(), 1, "{audit:?}");
    let (action, actor_kind, actor_id, detail) = &audit[0];
    assert_eq!(
        (action.as_str(), actor_kind.as_str()),
        ("soumission", "api_token")
    );
    assert_eq!(
        actor_id.as_deref(),
        Some(credential_of(dir, "tests", &w.org.admin_id).as_str())
    );
    assert_eq!(detail["from"], json!("a_realiser"));
    assert_eq!(detail["to"], json!("termine"));
    assert_eq!(detail["surveyedOn"], json!("2026-03-09"));
    assert_eq!(detail["copiedToEquipment"], json!(5));
    assert_eq!(
        detail["equipmentChanges"]["vitesse"],
        json!({"before": 1, "after": 1.6})
    );
    assert_eq!(
        detail["equipmentChanges"]["charge_utile"],
        json!({"before": null, "after": 630})
    );

    // Submitting again is refused, and nothing more is written.
    let before = survey_state(dir, &id);
    for body in [
        None,
        Some(json!({})),
        Some(json!({"values": {"marque": "Kone"}})),
    ] {
        let (status, answer) = submit(&w.server, token, &id, body).await;
        assert_eq!((status, error_of(&answer)), (422, ALREADY_DONE));
    }
    assert_eq!(survey_state(dir, &id), before);
    assert_eq!(events_of(dir, &id).len(), 1);
    w.server.stop().await;
}

#[tokio::test]
async fn a_survey_in_progress_keeps_its_data_and_its_surveyor() {
    let w = world().await;
    let dir = w.dir();
    let agency = &w.org.agency_id;
    let eq = equipment(&w.server, agency, "ASC-2").await;
    equipment_values(&w.server, agency, &eq, json!({"marque": "Otis"})).await;
    // Entered earlier in the mobile app.
    let id = survey_in_state(
        &w.server,
        agency,
        &eq,
        "REL-2026-00002",
        SurveyStatus::EnCours,
        Some(&w.surveyor_id),
        &[
            ("marque", json!("Schindler")),
            ("machine_type", json!("Gearless")),
            ("armoire_variateur", json!(false)),
        ],
    )
    .await;

    // The surveyor submits without a body: today in Paris; `null` removes a
    // datum from the survey (the equipment keeps its own).
    let (status, answer) = submit(
        &w.server,
        &w.surveyor_token,
        &id,
        Some(json!({"values": {"marque": null, "nombre_niveaux": 7.0}})),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["status"], json!("termine"));
    let state = survey_state(dir, &id);
    let submitted_at = state.submitted_at.clone().expect("submitted");
    assert_eq!(state.status, "termine");
    assert_eq!(
        state.surveyed_on,
        Some(
            liftdesk::clock::paris_today()
                .format("%Y-%m-%d")
                .to_string()
        )
    );
    assert_eq!(state.surveyor.as_deref(), Some(w.surveyor_id.as_str()));
    assert_eq!(
        state.values,
        [
            ("armoire_variateur".to_owned(), "false".to_owned()),
            ("machine_type".to_owned(), "\"Gearless\"".to_owned()),
            ("nombre_niveaux".to_owned(), "7".to_owned()),
        ]
    );
    let from_survey = |code: &str, value: &str| {
        (
            code.to_owned(),
            value.to_owned(),
            Some(id.clone()),
            submitted_at.clone(),
        )
    };
    assert_eq!(
        state.equipment_values,
        [
            from_survey("armoire_variateur", "false"),
            from_survey("machine_type", "\"Gearless\""),
            (
                "marque".to_owned(),
                "\"Otis\"".to_owned(),
                None,
                CREATED.to_owned()
            ),
            from_survey("nombre_niveaux", "7"),
        ]
    );
    assert_eq!(state.events, 1);
    let audit = audit_of(dir, &id);
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].3["from"], json!("en_cours"));
    assert_eq!(
        audit[0].3["values"],
        json!({"marque": null, "nombre_niveaux": 7})
    );
    assert_eq!(audit[0].3["account"], json!(w.surveyor_id));

    // An empty body, `{}` or `null` are the same as no body.
    for (content_type, raw) in [
        (None, None),
        (Some("application/json"), Some("")),
        (Some("application/json"), Some("null")),
        (Some("application/json"), Some("{}")),
    ] {
        let other = opened(&w.server, agency, "ASC-2", "releveur@durand.fr").await;
        let (status, text) = send_raw(
            &w.server,
            &format!("/api/v2/surveys/{other}/submit"),
            Some(&w.surveyor_token),
            None,
            content_type,
            raw.map(str::to_owned),
        )
        .await;
        assert_eq!(status, 200, "{raw:?}: {text}");
        let state = survey_state(dir, &other);
        assert_eq!((state.status.as_str(), state.events), ("termine", 1));
        // Nothing surveyed: the equipment's data are unchanged.
        assert!(state.values.is_empty());
        // The submitting surveyor becomes the survey's surveyor.
        assert_eq!(state.surveyor.as_deref(), Some(w.surveyor_id.as_str()));
    }
    w.server.stop().await;
}

#[tokio::test]
async fn final_states_and_other_agencies_refuse_and_change_nothing() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let eq = equipment(&w.server, agency, "ASC-3").await;

    // An annule survey: 422 with the domain's reason.
    let cancelled = survey_in_state(
        &w.server,
        agency,
        &eq,
        "REL-A",
        SurveyStatus::Annule,
        None,
        &[],
    )
    .await;
    let before = survey_state(dir, &cancelled);
    let (status, body) = submit(&w.server, token, &cancelled, None).await;
    assert_eq!((status, error_of(&body)), (422, CANCELLED));
    assert_eq!(survey_state(dir, &cancelled), before);

    // A termine survey: 422.
    let done = opened(&w.server, agency, "ASC-3", "releveur@durand.fr").await;
    Fixtures::in_agency(&w.server, agency)
        .submitted_survey(&w.surveyor_id, &done, SubmitInput::default())
        .await;
    let before = survey_state(dir, &done);
    let (status, body) = submit(&w.server, token, &done, None).await;
    assert_eq!((status, error_of(&body)), (422, ALREADY_DONE));
    assert_eq!(survey_state(dir, &done), before);

    // Another organization's survey, a survey of another agency of the same
    // organization (not the acting one), an unknown id: 404, nothing changed.
    let other_agency = &w.other.agency_id;
    equipment(&w.server, other_agency, "AUTRE-1").await;
    surveyor_in(&w.server, other_agency, "releveur@concurrent.fr").await;
    let foreign = opened(&w.server, other_agency, "AUTRE-1", "releveur@concurrent.fr").await;
    equipment(&w.server, &w.second_agency, "EST-1").await;
    surveyor_in(&w.server, &w.second_agency, "releveur-est@durand.fr").await;
    let east = opened(
        &w.server,
        &w.second_agency,
        "EST-1",
        "releveur-est@durand.fr",
    )
    .await;
    for id in [foreign.as_str(), east.as_str()] {
        let before = survey_state(dir, id);
        let (status, body) = submit(
            &w.server,
            token,
            id,
            Some(json!({"values": {"charge_utile": 630}})),
        )
        .await;
        assert_eq!((status, error_of(&body)), (404, "Relevé introuvable."));
        assert_eq!(survey_state(dir, id), before);
    }
    let (status, body) = submit(&w.server, token, "inconnu", None).await;
    assert_eq!((status, error_of(&body)), (404, "Relevé introuvable."));
    // The other organization's admin cannot reach ours either.
    let mine = opened(&w.server, agency, "ASC-3", "releveur@durand.fr").await;
    let (status, _) = submit(&w.server, &w.other.admin_token, &mine, None).await;
    assert_eq!(status, 404);
    // Acting in the second agency (org admin), its survey is found.
    let (status, body) = submit_in(&w.server, token, Some(&w.second_agency), &east, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(survey_state(dir, &east).events, 1);
    // An agency outside the scope: 403.
    let (status, _) = submit_in(&w.server, token, Some(&w.other.agency_id), &foreign, None).await;
    assert_eq!(status, 403);
    assert_eq!(survey_state(dir, &foreign).events, 0);
    w.server.stop().await;
}

#[tokio::test]
async fn refused_input_writes_nothing() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let eq = equipment(&w.server, agency, "ASC-4").await;
    equipment_values(&w.server, agency, &eq, json!({"vitesse": 1})).await;
    let id = survey_in_state(
        &w.server,
        agency,
        &eq,
        "REL-4",
        SurveyStatus::EnCours,
        None,
        &[("marque", json!("Otis"))],
    )
    .await;
    let before = survey_state(dir, &id);
    let path = format!("/api/v2/surveys/{id}/submit");

    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"values": {"charge_utile": 630, "inconnu": 1}}),
            "Le champ « inconnu » n'est pas une donnée technique du catalogue : codes possibles : charge_utile, course, vitesse,",
        ),
        (
            json!({"values": {"charge_utile": 630, "vitesse": "rapide"}}),
            "Le champ « vitesse » doit être un nombre positif ou nul.",
        ),
        (
            json!({"values": {"nombre_niveaux": 7.5}}),
            "Le champ « nombre_niveaux » doit être un nombre entier compris entre 0 et 1000000.",
        ),
        (
            json!({"values": {"type_entrainement": "electrique"}}),
            "La valeur « electrique » du champ « type_entrainement » n'est pas autorisée : valeurs possibles : « Electrique », « Hydraulique ».",
        ),
        (
            json!({"values": {"porte_cabine_cellule": "oui"}}),
            "Le champ « porte_cabine_cellule » doit être vrai ou faux (true ou false).",
        ),
        (
            json!({"values": {"adresse": "3 rue X"}}),
            "Le champ « adresse » n'est pas une donnée relevée : il se corrige sur l'équipement (PATCH /equipment/{id}).",
        ),
        (
            json!({"values": {"taux_connaissance": 50}}),
            "Le champ « taux_connaissance » est en lecture seule : il est calculé à partir des données relevées.",
        ),
        (
            json!({"values": ["charge_utile"]}),
            "Le champ « values » n'a pas le type attendu.",
        ),
        (
            json!({"surveyedOn": "2999-01-01"}),
            "Le champ « surveyedOn » ne peut pas être dans le futur (aujourd'hui : ",
        ),
        (
            json!({"surveyedOn": "09/03/2026"}),
            "Le champ « surveyedOn » doit être une date AAAA-MM-JJ, par exemple 2026-03-09 (reçu : « 09/03/2026 »).",
        ),
        (
            json!({"surveyedOn": "2026-02-30"}),
            "Le champ « surveyedOn » n'est pas une date qui existe : « 2026-02-30 ».",
        ),
        (
            json!({"surveyedOn": "2026-03-01"}),
            "Le champ « surveyedOn » ne peut pas précéder la demande du relevé, faite le 02/03/2026.",
        ),
        (
            json!({"surveyedOn": 20260309}),
            "Le champ « surveyedOn » n'a pas le type attendu.",
        ),
        (
            json!({"statut": "termine"}),
            "Le champ « statut » n'est pas reconnu.",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = submit(&w.server, token, &id, Some(body.clone())).await;
        assert_eq!(status, 422, "{body}: {answer}");
        let message = error_of(&answer);
        assert!(message.starts_with(expected), "{body}: {message}");
        assert_eq!(survey_state(dir, &id), before, "{body}");
    }

    // Malformed requests: 400; too large: 413; no token: 401.
    let malformed: [(Option<&str>, String); 4] = [
        (Some("application/json"), "{\"values\": ".to_owned()),
        (Some("application/json"), "[1]".to_owned()),
        (Some("text/plain"), "{}".to_owned()),
        (None, "{\"surveyedOn\": \"2026-03-09\"}".to_owned()),
    ];
    for (content_type, raw) in malformed {
        let (status, text) = send_raw(
            &w.server,
            &path,
            Some(token),
            None,
            content_type,
            Some(raw.clone()),
        )
        .await;
        assert_eq!(status, 400, "{raw}: {text}");
        error_of(&json_of(status, &text));
    }
    let huge = format!(
        "{{\"values\": {{\"marque\": \"{}\"}}}}",
        "x".repeat(1024 * 1024 + 1)
    );
    let (status, text) = send_raw(
        &w.server,
        &path,
        Some(token),
        None,
        Some("application/json"),
        Some(huge),
    )
    .await;
    assert_eq!(status, 413, "{text}");
    let (status, text) = send_raw(&w.server, &path, None, None, None, None).await;
    assert_eq!(
        (status, json_of(status, &text)),
        (401, json!({"error": UNAUTHORIZED}))
    );
    assert_eq!(survey_state(dir, &id), before);
    w.server.stop().await;
}

#[tokio::test]
async fn only_surveyors_and_administrators_submit() {
    let w = world().await;
    let dir = w.dir();
    let agency = &w.org.agency_id;
    equipment(&w.server, agency, "ASC-5").await;
    let id = opened(&w.server, agency, "ASC-5", "releveur@durand.fr").await;
    let before = survey_state(dir, &id);

    // A member who does not perform surveys: 403, nothing written.
    let (status, body) = submit(
        &w.server,
        &w.member_token,
        &id,
        Some(json!({"values": {"charge_utile": 630}})),
    )
    .await;
    assert_eq!((status, error_of(&body)), (403, NOT_A_SURVEYOR));
    assert_eq!(survey_state(dir, &id), before);

    // The service operator reads client agencies and submits nothing.
    create_operator(w.server.data_dir.path(), "ops@service.fr", "motdepasse1");
    let operator = w.server.cli_json(&[
        "token",
        "create",
        "--email",
        "ops@service.fr",
        "--name",
        "supervision",
    ]);
    let (status, body) = submit_in(
        &w.server,
        str_of(&operator, "token"),
        Some(agency),
        &id,
        None,
    )
    .await;
    assert_eq!(
        (status, error_of(&body)),
        (
            403,
            "Le compte de service de l'opérateur consulte les agences mais n'y soumet pas de relevé."
        )
    );
    assert_eq!(survey_state(dir, &id), before);

    // A surveyor may.
    let (status, body) = submit(&w.server, &w.surveyor_token, &id, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(survey_state(dir, &id).events, 1);
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// The web application's API
// ---------------------------------------------------------------------------

#[tokio::test]
async fn the_web_application_submits_with_its_session_and_csrf_token() {
    let w = world().await;
    let dir = w.dir();
    let agency = &w.org.agency_id;
    equipment(&w.server, agency, "ASC-6").await;
    // Asked for at CREATED by the partner's deal.
    let fixtures = Fixtures::in_agency(&w.server, agency);
    let (_, id) = fixtures
        .at(created(), || {
            fixtures.requested_survey("ASC-6", "releveur@durand.fr", Some("Contrat"), &[])
        })
        .await;
    let path = format!("/app/api/surveys/{id}/submit");
    let browser = crate::common::http_client_builder()
        .cookie_store(true)
        .build()
        .expect("client");

    // Signed out: 401.
    let response = browser
        .post(w.server.url(&path))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);

    let signed_in: Value = browser
        .post(w.server.url("/app/api/session"))
        .json(&json!({"email": "claire@durand.fr", "password": "motdepasse-solide"}))
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    let csrf = signed_in["csrfToken"].as_str().expect("csrf").to_owned();

    // Without the CSRF header (or with a wrong one): 403, nothing written.
    let before = survey_state(dir, &id);
    for header in [None, Some("faux")] {
        let mut request = browser
            .post(w.server.url(&path))
            .json(&json!({"values": {"charge_utile": 630}}));
        if let Some(header) = header {
            request = request.header("X-CSRF-Token", header);
        }
        let response = request.send().await.expect("request");
        assert_eq!(response.status().as_u16(), 403);
        let body: Value = response.json().await.expect("json");
        assert_eq!(
            body,
            json!({"error": "Jeton anti-CSRF manquant ou invalide : rechargez la page."})
        );
        assert_eq!(survey_state(dir, &id), before);
    }
    // An API token does not open the web API.
    let (status, _) = send_raw(&w.server, &path, Some(&w.org.admin_token), None, None, None).await;
    assert_eq!(status, 401);
    assert_eq!(survey_state(dir, &id), before);

    // With it: the same service, the same answer.
    let response = browser
        .post(w.server.url(&path))
        .header("X-CSRF-Token", &csrf)
        .json(&json!({"surveyedOn": "2026-03-10", "values": {"charge_utile": 630}}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    let text = response.text().await.expect("text");
    assert_eq!(
        text,
        format!(
            r#"{{"id":"{id}","ok":true,"status":"termine","link":"/releves/{id}","url":"{}/releves/{id}"}}"#,
            w.server.base_url
        )
    );
    let state = survey_state(dir, &id);
    assert_eq!(state.status, "termine");
    assert_eq!(state.surveyed_on.as_deref(), Some("2026-03-10"));
    assert_eq!(state.events, 1);
    assert_eq!(events_of(dir, &id)[0].0, "releve.termine");
    let audit = audit_of(dir, &id);
    assert_eq!(audit.len(), 1);
    assert_eq!(
        (audit[0].1.as_str(), audit[0].2.as_deref()),
        ("account", Some(w.org.admin_id.as_str()))
    );

    // The session's agency bounds it too: another organization's survey is 404;
    // a second submission is 422.
    let other_agency = &w.other.agency_id;
    equipment(&w.server, other_agency, "AUTRE-2").await;
    surveyor_in(&w.server, other_agency, "releveur@concurrent.fr").await;
    let foreign = opened(&w.server, other_agency, "AUTRE-2", "releveur@concurrent.fr").await;
    for (survey_id, expected) in [(foreign.as_str(), 404), (id.as_str(), 422)] {
        let response = browser
            .post(
                w.server
                    .url(&format!("/app/api/surveys/{survey_id}/submit")),
            )
            .header("X-CSRF-Token", &csrf)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), expected);
    }
    assert_eq!(survey_state(dir, &foreign).events, 0);
    assert_eq!(survey_state(dir, &id).events, 1);
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// The published description
// ---------------------------------------------------------------------------

/// code, label, unit, value type, choices.
type CatalogRow = (String, String, Option<String>, String, Option<String>);

#[tokio::test]
async fn the_description_documents_the_submission_and_the_catalog() {
    let server = TestServer::start().await;
    let (status, doc) = server.get_with("/api/v2/openapi.json", None, None).await;
    assert_eq!(status, 200);
    let operation = &doc["paths"]["/surveys/{id}/submit"]["post"];
    assert_eq!(operation["operationId"], json!("submit_survey"));
    for status in ["200", "400", "401", "403", "404", "413", "422", "429"] {
        assert!(
            operation["responses"].get(status).is_some(),
            "submit lacks {status}"
        );
    }
    assert!(
        !operation["requestBody"]["required"]
            .as_bool()
            .unwrap_or(false),
        "the body may be left out"
    );
    let schemas = &doc["components"]["schemas"];
    let mut required: Vec<&str> = schemas["SurveySubmitted"]["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    required.sort_unstable();
    assert_eq!(required, ["id", "link", "ok", "status", "url"]);
    assert_eq!(schemas["SubmitBody"]["additionalProperties"], json!(false));

    // `values` publishes exactly the catalog: codes, types, choices, labels.
    let values = &schemas["SubmitBody"]["properties"]["values"];
    assert_eq!(values["additionalProperties"], json!(false));
    let properties = values["properties"].as_object().expect("properties");
    let db = open_db(server.data_dir.path());
    let mut stmt = db
        .prepare(
            "SELECT code, label, unit, value_type, choices FROM technical_fields ORDER BY position",
        )
        .expect("prepare");
    let catalog: Vec<CatalogRow> = stmt
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(properties.len(), catalog.len());
    for (code, label, unit, value_type, choices) in catalog {
        let property = properties
            .get(&code)
            .unwrap_or_else(|| panic!("{code} not published"));
        let description = match unit {
            Some(unit) => format!("{label} ({unit})"),
            None => label,
        };
        assert_eq!(property["description"], json!(description), "{code}");
        let json_type = match value_type.as_str() {
            "number" => "number",
            "integer" => "integer",
            "text" | "choice" => "string",
            "boolean" => "boolean",
            other => panic!("{code}: value type {other} has no published schema"),
        };
        assert_eq!(property["type"], json!([json_type, "null"]), "{code}");
        if value_type == "choice" {
            let mut expected: Vec<Value> =
                serde_json::from_str(&choices.expect("choices")).expect("json");
            expected.push(json!(""));
            expected.push(Value::Null);
            assert_eq!(property["enum"], Value::Array(expected), "{code}");
        }
    }
    let _ = db
        .query_row(
            "SELECT 1 FROM technical_fields WHERE value_type = 'multi'",
            [],
            |_| Ok(()),
        )
        .optional()
        .expect("query")
        .map(|()| panic!("a multi field needs its published schema"));
    server.stop().await;
}
