//! REST API v2: equipment identity and technical data, the partner's
//! external reads, technical fields, surveys and discrepancies — over HTTP on
//! the real router, with fixtures written through the operations (SQL only
//! for the survey states no operation writes).

use crate::common;

use std::path::Path;

use chrono::NaiveDate;
use common::world::{PastSurvey, World as Fixtures};
use common::*;
use liftdesk::domain::WireCode as _;
use liftdesk::domain::building::BuildingInput;
use liftdesk::domain::survey::SurveyStatus;
use liftdesk::services::equipment::{IdentityPatch, NewEquipment};
use liftdesk::services::surveys::SubmitInput;
use liftdesk::services::wf_surveys::{CreateSurveyInput, SurveyEquipmentInput};
use liftdesk::store::equipment::IdentityRow;
use liftdesk::store::new_id;
use serde_json::{Value, json};

const UNAUTHORIZED: &str = "Authentification requise : jeton d'API manquant, inconnu ou révoqué.";
const NOW: &str = "2026-03-02T09:00:00.000Z";

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

/// A request with an optional token, agency header and raw body.
async fn send(
    server: &TestServer,
    method: &str,
    path: &str,
    token: Option<&str>,
    agency: Option<&str>,
    body: Option<&str>,
) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let mut request = server.client.request(method, server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(agency) = agency {
        request = request.header("X-Service-Agency", agency);
    }
    if let Some(body) = body {
        request = request
            .header("Content-Type", "application/json")
            .body(body.to_owned());
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    let value = serde_json::from_str(&text)
        .unwrap_or_else(|_| panic!("JSON body expected, got {status} {text:?}"));
    (status, value)
}

async fn get(server: &TestServer, path: &str, token: &str) -> (u16, Value) {
    send(server, "GET", path, Some(token), None, None).await
}

async fn patch(server: &TestServer, path: &str, token: &str, body: Value) -> (u16, Value) {
    send(
        server,
        "PATCH",
        path,
        Some(token),
        None,
        Some(&body.to_string()),
    )
    .await
}

async fn post(server: &TestServer, path: &str, token: &str, body: Value) -> (u16, Value) {
    send(
        server,
        "POST",
        path,
        Some(token),
        None,
        Some(&body.to_string()),
    )
    .await
}

fn count(dir: &Path, sql: &str, id: &str) -> i64 {
    open_db(dir)
        .query_row(sql, [id], |r| r.get(0))
        .expect("count")
}

/// The audit entries of an object written by the calls under test: the
/// fixtures, written through the operations by the command line
/// (`actor_kind` `cli`), are left out.
fn audit_entries(dir: &Path, object_id: &str) -> Vec<(String, Value)> {
    let db = open_db(dir);
    let mut stmt = db
        .prepare("SELECT action, coalesce(detail, 'null') FROM audit_log WHERE object_id = ?1 AND actor_kind <> 'cli' ORDER BY seq")
        .expect("prepare");
    stmt.query_map([object_id], |r| {
        let detail: String = r.get(1)?;
        Ok((r.get(0)?, serde_json::from_str(&detail).expect("json")))
    })
    .expect("query")
    .collect::<Result<_, _>>()
    .expect("rows")
}

// ---------------------------------------------------------------------------
// Fixtures, written through the operations (SQL only for the survey states
// no operation writes)
// ---------------------------------------------------------------------------

/// A building in 75015 Paris; returns its id.
async fn building(server: &TestServer, agency: &str, name: Option<&str>, address: &str) -> String {
    Fixtures::in_agency(server, agency)
        .building(name, address, Some("75015"), Some("Paris"))
        .await
}

struct Equip<'a> {
    agency: &'a str,
    building: Option<&'a str>,
    number: Option<&'a str>,
    kind: Option<&'a str>,
    contract: Option<&'a str>,
    external_id: Option<&'a str>,
}

impl<'a> Equip<'a> {
    fn new(agency: &'a str, number: &'a str) -> Self {
        Self {
            agency,
            building: None,
            number: Some(number),
            kind: Some("ascenseur"),
            contract: Some("parc"),
            external_id: None,
        }
    }

    /// Serial number SN-1, subtype Traction, in Hall A, contract CT-9. An
    /// equipment is added numbered: one without number is added under a
    /// provisional number, then its number is erased.
    async fn insert(&self, server: &TestServer) -> String {
        let fixtures = Fixtures::in_agency(server, self.agency);
        let number = match self.number {
            Some(number) => number.to_owned(),
            None => format!("PROVISOIRE-{}", new_id()),
        };
        let id = fixtures
            .equipment_with(NewEquipment {
                identity: IdentityRow {
                    number: Some(number),
                    serial_number: Some("SN-1".to_owned()),
                    equipment_type: self.kind.map(str::to_owned),
                    subtype: Some("Traction".to_owned()),
                    location: Some("Hall A".to_owned()),
                    maintenance_contract: self.contract.map(str::to_owned),
                    contract_number: Some("CT-9".to_owned()),
                    external_id: self.external_id.map(str::to_owned),
                },
                building_id: self.building.map(str::to_owned),
                client_ref: None,
            })
            .await;
        if self.number.is_none() {
            fixtures
                .identity_corrected(
                    &id,
                    IdentityPatch {
                        number: Some(None),
                        ..IdentityPatch::default()
                    },
                )
                .await;
        }
        id
    }
}

async fn equipment(server: &TestServer, agency: &str, number: &str) -> String {
    Equip::new(agency, number).insert(server).await
}

/// Technical data of an equipment, by catalog code, entered outside any
/// survey.
async fn equipment_values(server: &TestServer, agency: &str, equipment: &str, values: Value) {
    Fixtures::in_agency(server, agency)
        .technical_values(equipment, values)
        .await;
}

/// A mobile account (performs surveys) of the agency; returns its id.
async fn surveyor(server: &TestServer, agency: &str, email: &str) -> String {
    Fixtures::in_agency(server, agency)
        .staff_account(email, true)
        .await
}

/// The survey of the equipment `number` opened in the app by the mobile
/// account `email`: a new one `a_realiser` when none is open.
async fn opened(server: &TestServer, agency: &str, number: &str, email: &str) -> String {
    Fixtures::in_agency(server, agency)
        .opened_survey(number, email)
        .await
}

/// A survey from the agency's history, as the operations would not leave
/// it: without number or with one given by hand, a reason of its own, a
/// survey day while not submitted, several open surveys of one equipment
/// (surveys are asked for `a_realiser`, numbered REL-YYYY-NNNNN, by the
/// partner's deal or the app, and only their submission sets their day).
struct Sv<'a> {
    agency: &'a str,
    equipment: &'a str,
    number: Option<&'a str>,
    status: &'a str,
    due_on: Option<&'a str>,
    surveyed_on: Option<&'a str>,
    photos: i64,
    reason: Option<&'a str>,
    created_at: &'a str,
    /// Data entered on it, by catalog code.
    values: Vec<(&'a str, Value)>,
}

impl<'a> Sv<'a> {
    fn new(agency: &'a str, equipment: &'a str, number: &'a str, created_at: &'a str) -> Self {
        Self {
            agency,
            equipment,
            number: Some(number),
            status: "a_realiser",
            due_on: None,
            surveyed_on: None,
            photos: 0,
            reason: None,
            created_at,
            values: Vec::new(),
        }
    }

    /// The survey, from the agency's history (`World::survey_from_history`).
    async fn insert(&self, server: &TestServer) -> String {
        let day = |text: &str| NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("jour");
        Fixtures::in_agency(server, self.agency)
            .survey_from_history(PastSurvey {
                equipment: self.equipment.to_owned(),
                number: self.number.map(str::to_owned),
                status: SurveyStatus::from_code(self.status).expect("statut"),
                reason: self.reason.map(str::to_owned),
                surveyor: None,
                due_on: self.due_on.map(day),
                surveyed_on: self.surveyed_on.map(day),
                photo_count: self.photos,
                created: liftdesk::clock::parse_timestamp(self.created_at).expect("instant"),
                values: self
                    .values
                    .iter()
                    .map(|(code, value)| ((*code).to_owned(), value.clone()))
                    .collect(),
            })
            .await
    }
}

/// Two organizations: `org` (the caller, with a second agency carrying a V1
/// identifier) and `other`, plus a member of `org`'s first agency.
struct World {
    server: TestServer,
    org: Org,
    other: Org,
    second_agency: String,
    member_token: String,
}

impl World {
    fn dir(&self) -> &Path {
        self.server.data_dir.path()
    }
}

async fn world() -> World {
    let data_dir = tempfile::tempdir().expect("dir");
    let org = init_org(data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(data_dir.path(), "Concurrent", "admin@concurrent.fr");
    let second = cli_json(
        data_dir.path(),
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Durand Est",
            "--v1-id",
            "V1-EST-7",
        ],
    );
    cli_json(
        data_dir.path(),
        &[
            "user",
            "create",
            "--email",
            "membre@durand.fr",
            "--name",
            "Membre",
            "--password",
            "motdepasse1",
            "--agency",
            &org.agency_id,
        ],
    );
    let member = cli_json(
        data_dir.path(),
        &[
            "token",
            "create",
            "--email",
            "membre@durand.fr",
            "--name",
            "t",
        ],
    );
    let server = TestServer::start_in(data_dir).await;
    World {
        server,
        second_agency: str_of(&second, "id").to_owned(),
        member_token: str_of(&member, "token").to_owned(),
        org,
        other,
    }
}

// ---------------------------------------------------------------------------
// GET /equipment
// ---------------------------------------------------------------------------

/// A building « Bâtiment B » in 75015 `city`.
async fn building_in(
    server: &TestServer,
    agency: &str,
    name: &str,
    address: &str,
    city: &str,
) -> String {
    Fixtures::in_agency(server, agency)
        .building_from(
            BuildingInput {
                name: Some(name.to_owned()),
                address: Some(address.to_owned()),
                address_complement: Some("Bâtiment B".to_owned()),
                postal_code: Some("75015".to_owned()),
                city: Some(city.to_owned()),
            },
            None,
        )
        .await
}

fn ids_of(body: &Value) -> Vec<&str> {
    body["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect()
}

#[tokio::test]
async fn equipment_are_searched_by_number_building_and_address() {
    let w = world().await;
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let server = &w.server;
    let tilleuls = building_in(
        server,
        agency,
        "Résidence Les Tilleuls",
        "12 rue Danton",
        "Levallois-Perret",
    )
    .await;
    let oeillets = building_in(
        server,
        agency,
        "Les Œillets",
        "3 avenue de la République",
        "Issy-les-Moulineaux",
    )
    .await;
    let mut a = Equip::new(agency, "ASC-20");
    a.building = Some(&tilleuls);
    let a = a.insert(server).await;
    let mut b = Equip::new(agency, "asc 3");
    b.building = Some(&tilleuls);
    b.contract = None;
    let b = b.insert(server).await;
    let mut c = Equip::new(agency, "PF-1");
    c.building = Some(&oeillets);
    c.kind = Some("porte_fermeture");
    let c = c.insert(server).await;
    let lone = equipment(server, agency, "MC-9").await;
    let mut unnumbered = Equip::new(agency, "x");
    unnumbered.number = None;
    let unnumbered = unnumbered.insert(server).await;
    let east = building_in(
        server,
        &w.second_agency,
        "Résidence Les Tilleuls",
        "1 rue Danton",
        "Paris",
    )
    .await;
    let mut e = Equip::new(&w.second_agency, "ASC-21");
    e.building = Some(&east);
    e.insert(server).await;
    let other = building_in(
        server,
        &w.other.agency_id,
        "Résidence Les Tilleuls",
        "1 rue Danton",
        "Paris",
    )
    .await;
    let mut o = Equip::new(&w.other.agency_id, "ASC-22");
    o.building = Some(&other);
    o.insert(server).await;

    // Every equipment of the acting agency, by number (spaces and case
    // ignored), the unnumbered last; exact rows.
    let (status, body) = get(&w.server, "/api/v2/equipment", token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(keys(&body), ["limit", "page", "results", "total"]);
    assert_eq!(
        (
            body["total"].as_i64(),
            body["page"].as_i64(),
            body["limit"].as_i64()
        ),
        (Some(5), Some(1), Some(50))
    );
    assert_eq!(
        ids_of(&body),
        [
            a.as_str(),
            b.as_str(),
            lone.as_str(),
            c.as_str(),
            unnumbered.as_str()
        ]
    );
    assert_eq!(
        body["results"][1],
        json!({
            "id": b,
            "number": "asc 3",
            "type": "ascenseur",
            "location": "Hall A",
            "maintenanceContract": null,
            "building": {
                "id": tilleuls,
                "name": "Résidence Les Tilleuls",
                "address": "12 rue Danton",
                "addressComplement": "Bâtiment B",
                "postalCode": "75015",
                "city": "Levallois-Perret",
            },
            "link": format!("/equipements/{b}"),
            "url": format!("{}/equipements/{b}", w.server.base_url),
        })
    );
    assert_eq!(body["results"][2]["building"], Value::Null);
    assert_eq!(body["results"][4]["number"], Value::Null);

    // Every word, accents, ligatures and case ignored, in the number, the
    // building's name, address, complement, postal code or city.
    for (q, expected) in [
        ("tilleuls", vec![a.as_str(), b.as_str()]),
        ("RESIDENCE  tilleuls", vec![a.as_str(), b.as_str()]),
        ("tilleuls asc-20", vec![a.as_str()]),
        ("oeillets", vec![c.as_str()]),
        ("république issy", vec![c.as_str()]),
        ("batiment", vec![a.as_str(), b.as_str(), c.as_str()]),
        ("75015", vec![a.as_str(), b.as_str(), c.as_str()]),
        ("mc-9", vec![lone.as_str()]),
        ("danton paris", vec![]),
        (
            "  ",
            vec![
                a.as_str(),
                b.as_str(),
                lone.as_str(),
                c.as_str(),
                unnumbered.as_str(),
            ],
        ),
    ] {
        let encoded: String = url::form_urlencoded::byte_serialize(q.as_bytes()).collect();
        let (status, body) = get(&w.server, &format!("/api/v2/equipment?q={encoded}"), token).await;
        assert_eq!(status, 200, "{q}: {body}");
        assert_eq!(ids_of(&body), expected, "{q}");
        assert_eq!(body["total"].as_u64(), Some(expected.len() as u64), "{q}");
    }

    // Paging.
    let (_, body) = get(&w.server, "/api/v2/equipment?limit=2&page=2", token).await;
    assert_eq!(ids_of(&body), [lone.as_str(), c.as_str()]);
    assert_eq!(
        (
            body["total"].as_i64(),
            body["page"].as_i64(),
            body["limit"].as_i64()
        ),
        (Some(5), Some(2), Some(2))
    );
    let (_, body) = get(&w.server, "/api/v2/equipment?limit=2&page=9", token).await;
    assert_eq!(ids_of(&body), Vec::<&str>::new());
    assert_eq!(body["total"], 5);
    for (query, status, message) in [
        (
            "limit=0",
            422,
            "Le paramètre « limit » doit être compris entre 1 et 200.",
        ),
        (
            "limit=201",
            422,
            "Le paramètre « limit » doit être compris entre 1 et 200.",
        ),
        (
            "page=0",
            422,
            "Le paramètre « page » doit être supérieur ou égal à 1.",
        ),
        (
            "limit=abc",
            400,
            "Le paramètre « limit » doit être un nombre entier.",
        ),
        (
            "page=1.5",
            400,
            "Le paramètre « page » doit être un nombre entier.",
        ),
    ] {
        let (got, body) = get(&w.server, &format!("/api/v2/equipment?{query}"), token).await;
        assert_eq!((got, error_of(&body)), (status, message), "{query}");
    }
    let long = "a".repeat(101);
    let (status, body) = get(&w.server, &format!("/api/v2/equipment?q={long}"), token).await;
    assert_eq!(
        (status, error_of(&body)),
        (
            400,
            "Le paramètre « q » ne doit pas dépasser 100 caractères."
        )
    );

    // The other agency of the organization and another organization: their own only.
    let (_, body) = send(
        &w.server,
        "GET",
        "/api/v2/equipment?q=tilleuls",
        Some(token),
        Some(&w.second_agency),
        None,
    )
    .await;
    assert_eq!(body["total"], 1);
    assert_eq!(body["results"][0]["number"], "ASC-21");
    let (_, body) = get(
        &w.server,
        "/api/v2/equipment?q=tilleuls",
        &w.other.admin_token,
    )
    .await;
    assert_eq!(body["total"], 1);
    assert_eq!(body["results"][0]["number"], "ASC-22");
    // A member reads them too; no token: 401.
    let (status, body) = get(&w.server, "/api/v2/equipment?q=asc-20", &w.member_token).await;
    assert_eq!((status, ids_of(&body)), (200, vec![a.as_str()]));
    let (status, body) = send(&w.server, "GET", "/api/v2/equipment", None, None, None).await;
    assert_eq!((status, error_of(&body)), (401, UNAUTHORIZED));
}

// ---------------------------------------------------------------------------
// PATCH /equipment/{id}/identity
// ---------------------------------------------------------------------------

#[tokio::test]
async fn identity_correction_changes_only_the_given_fields() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let id = equipment(&w.server, agency, "ASC-001").await;
    let _neighbour = equipment(&w.server, agency, "ASC 002").await;
    let path = format!("/api/v2/equipment/{id}/identity");

    // Only the given fields change; "" and null erase; texts are trimmed.
    let (status, body) = patch(
        &w.server,
        &path,
        token,
        json!({"number": "  ASC-001-B ", "serialNumber": "", "location": null, "externalId": "GMAO-1"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "id": id,
            "number": "ASC-001-B",
            "serialNumber": null,
            "type": "ascenseur",
            "subtype": "Traction",
            "location": null,
            "maintenanceContract": "parc",
            "contractNumber": "CT-9",
            "externalId": "GMAO-1",
            "link": format!("/equipements/{id}"),
            "url": format!("{}/equipements/{id}", w.server.base_url),
        })
    );
    let stored: (Option<String>, Option<String>, Option<String>, String) = open_db(dir)
        .query_row(
            "SELECT number, serial_number, location, number_key FROM equipment WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("row");
    assert_eq!(
        stored,
        (Some("ASC-001-B".into()), None, None, "asc-001-b".into())
    );
    // One audit entry, with the changed fields before and after.
    let audit = audit_entries(dir, &id);
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].0, "correction_identite");
    assert_eq!(
        audit[0].1,
        json!({"changes": {
            "number": {"before": "ASC-001", "after": "ASC-001-B"},
            "serialNumber": {"before": "SN-1", "after": null},
            "location": {"before": "Hall A", "after": null},
            "externalId": {"before": null, "after": "GMAO-1"},
        }})
    );

    // Type and contract within their lists; an empty value erases them.
    let (status, body) = patch(
        &w.server,
        &path,
        token,
        json!({"type": "monte_charge", "maintenanceContract": "hors_parc", "subtype": "Accompagné"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["type"], json!("monte_charge"));
    assert_eq!(body["maintenanceContract"], json!("hors_parc"));
    assert_eq!(body["number"], json!("ASC-001-B"), "untouched");
    let (status, body) = patch(&w.server, &path, token, json!({"maintenanceContract": ""})).await;
    assert_eq!(status, 200);
    assert_eq!(body["maintenanceContract"], Value::Null);

    // Nothing changes: 200, and no audit entry.
    let before = audit_entries(dir, &id).len();
    let (status, body) = patch(&w.server, &path, token, json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(body["number"], json!("ASC-001-B"));
    let (status, _) = patch(&w.server, &path, token, json!({"number": "ASC-001-B"})).await;
    assert_eq!(status, 200);
    assert_eq!(audit_entries(dir, &id).len(), before);

    // The member may correct an equipment too (a daily operation).
    let (status, body) = patch(
        &w.server,
        &path,
        &w.member_token,
        json!({"location": "Hall B"}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["location"], json!("Hall B"));
    w.server.stop().await;
}

#[tokio::test]
async fn identity_correction_refusals() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let id = equipment(&w.server, agency, "ASC-001").await;
    let mut other = Equip::new(agency, "ASC 002");
    other.external_id = Some("GMAO-7");
    other.insert(&w.server).await;
    // Same number in another agency of the organization: no conflict.
    equipment(&w.server, &w.second_agency, "ASC-003").await;
    let path = format!("/api/v2/equipment/{id}/identity");

    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"subtype": "A\u{7}B"}),
            "Le champ « subtype » ne doit pas contenir de caractère de contrôle.",
        ),
        (
            json!({"maintenanceContract": "Parc"}),
            "La valeur « Parc » du champ « maintenanceContract » n'est pas autorisée : valeurs possibles : « parc », « hors_parc ».",
        ),
        (
            json!({"type": "escalator"}),
            "La valeur « escalator » du champ « type » n'est pas autorisée : valeurs possibles : « ascenseur », « monte_charge », « monte_voiture », « elevateur », « porte_fermeture ».",
        ),
        (
            json!({"couleur": "rouge"}),
            "Le champ « couleur » n'est pas reconnu.",
        ),
        (
            json!({"number": 12}),
            "Le champ « number » n'a pas le type attendu.",
        ),
        (
            json!({"number": "X".repeat(61)}),
            "Le champ « number » ne doit pas dépasser 60 caractères.",
        ),
        (
            json!({"location": "L".repeat(201)}),
            "Le champ « location » ne doit pas dépasser 200 caractères.",
        ),
        // One refused field and nothing is written, not even the valid one.
        (
            json!({"location": "Ailleurs", "type": "fusée"}),
            "La valeur « fusée » du champ « type » n'est pas autorisée : valeurs possibles : « ascenseur », « monte_charge », « monte_voiture », « elevateur », « porte_fermeture ».",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = patch(&w.server, &path, token, body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(error_of(&answer), message, "{body}");
    }
    let location: String = open_db(dir)
        .query_row("SELECT location FROM equipment WHERE id = ?1", [&id], |r| {
            r.get(0)
        })
        .expect("location");
    assert_eq!(location, "Hall A");
    assert!(audit_entries(dir, &id).is_empty());

    // A number already used in the agency (spaces and case ignored): 422.
    let (status, body) = patch(&w.server, &path, token, json!({"number": "asc002"})).await;
    assert_eq!(
        (status, error_of(&body)),
        (
            422,
            "Le numéro « asc002 » est déjà utilisé par un autre équipement de l'agence (« ASC 002 ») : les espaces et la casse ne distinguent pas deux numéros."
        )
    );
    assert!(audit_entries(dir, &id).is_empty());
    // Another agency's number is free here.
    let (status, _) = patch(&w.server, &path, token, json!({"number": "asc-003"})).await;
    assert_eq!(status, 200);
    // External identifiers are not unique: a shared one is accepted.
    let (status, body) = patch(&w.server, &path, token, json!({"externalId": "GMAO-7"})).await;
    assert_eq!(status, 200);
    assert_eq!(body["externalId"], json!("GMAO-7"));

    // Malformed bodies: 400.
    for (content_type, raw) in [
        ("application/json", "{\"number\": "),
        ("application/json", "[1]"),
        ("text/plain", "{\"number\": \"A\"}"),
    ] {
        let response = w
            .server
            .client
            .patch(w.server.url(&path))
            .bearer_auth(token)
            .header("Content-Type", content_type)
            .body(raw)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 400, "{content_type} {raw}");
        let body: Value = response.json().await.expect("json");
        assert!(!error_of(&body).is_empty());
    }
    // No token: 401.
    let (status, body) = send(&w.server, "PATCH", &path, None, None, Some("{}")).await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    // Unknown equipment: 404.
    let (status, body) = patch(
        &w.server,
        "/api/v2/equipment/0190a0a0-0000-7000-8000-000000000000/identity",
        token,
        json!({"number": "X"}),
    )
    .await;
    assert_eq!((status, error_of(&body)), (404, "Équipement introuvable."));

    // Another organization's equipment: 404, and unchanged.
    let foreign = equipment(&w.server, &w.other.agency_id, "ASC-900").await;
    let (status, body) = patch(
        &w.server,
        &format!("/api/v2/equipment/{foreign}/identity"),
        token,
        json!({"number": "VOLE"}),
    )
    .await;
    assert_eq!((status, error_of(&body)), (404, "Équipement introuvable."));
    // Another agency of the same organization is not the acting agency: 404 too.
    let sibling = equipment(&w.server, &w.second_agency, "ASC-901").await;
    let (status, _) = patch(
        &w.server,
        &format!("/api/v2/equipment/{sibling}/identity"),
        token,
        json!({"number": "X"}),
    )
    .await;
    assert_eq!(status, 404);
    // ...but reachable by acting there.
    let (status, _) = send(
        &w.server,
        "PATCH",
        &format!("/api/v2/equipment/{sibling}/identity"),
        Some(token),
        Some(&w.second_agency),
        Some(r#"{"location": "Sous-sol"}"#),
    )
    .await;
    assert_eq!(status, 200);
    let number: String = open_db(dir)
        .query_row(
            "SELECT number FROM equipment WHERE id = ?1",
            [&foreign],
            |r| r.get(0),
        )
        .expect("number");
    assert_eq!(number, "ASC-900");
    assert!(audit_entries(dir, &foreign).is_empty());
    // An agency outside the token's scope in the header: 403.
    let (status, _) = send(
        &w.server,
        "PATCH",
        &format!("/api/v2/equipment/{foreign}/identity"),
        Some(token),
        Some(&w.other.agency_id),
        Some("{}"),
    )
    .await;
    assert_eq!(status, 403);
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// PATCH /equipment/{id} (technical data)
// ---------------------------------------------------------------------------

#[tokio::test]
async fn technical_data_are_written_as_the_partner_api_names_them() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let b = building(
        &w.server,
        agency,
        Some("Résidence Les Tilleuls"),
        "12 rue Lecourbe",
    )
    .await;
    let mut eq = Equip::new(agency, "ASC-100");
    eq.building = Some(&b);
    let id = eq.insert(&w.server).await;
    equipment_values(
        &w.server,
        agency,
        &id,
        json!({"marque": "Otis", "gaine_largeur_cuvette": 1500}),
    )
    .await;
    let path = format!("/api/v2/equipment/{id}");

    let (status, body) = patch(
        &w.server,
        &path,
        token,
        json!({
            "charge_utile": 630,
            "course": 18.5,
            "vitesse": 1.0,
            "nombre_niveaux": 7.0,
            "nombre_personnes": 8,
            "nombre_faces_de_service": 1,
            "implantation_machinerie": "Sans (MRL)",
            "type_entrainement": "Electrique",
            "modele": " Gen2 ",
            "marque": null,
            "contrat_entretien": "Hors parc",
            "complement_adresse": "Escalier B",
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "adresse": "12 rue Lecourbe",
            "complement_adresse": "Escalier B",
            "nom_immeuble": "Résidence Les Tilleuls",
            "charge_utile": 630,
            "course": 18.5,
            "vitesse": 1,
            "nombre_niveaux": 7,
            "nombre_personnes": 8,
            "nombre_faces_de_service": 1,
            "implantation_machinerie": "Sans (MRL)",
            "type_entrainement": "Electrique",
            "modele": "Gen2",
            "contrat_entretien": "Hors parc",
            // 10 data of the 34 catalog fields that apply to a lift.
            "taux_connaissance": 29.4,
        })
    );
    // Stored as JSON, outside any survey, now; null erased the make.
    let db = open_db(dir);
    let (value, survey, at): (String, Option<String>, String) = db
        .query_row(
            "SELECT value, survey_id, surveyed_at FROM equipment_values WHERE equipment_id = ?1 AND field_code = 'nombre_niveaux'",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("value");
    assert_eq!(value, "7");
    assert_eq!(survey, None);
    assert!(at.ends_with('Z') && at.as_str() > NOW, "{at}");
    assert_eq!(
        count(
            dir,
            "SELECT COUNT(*) FROM equipment_values WHERE equipment_id = ?1 AND field_code = 'marque'",
            &id
        ),
        0
    );
    let contract: String = db
        .query_row(
            "SELECT maintenance_contract FROM equipment WHERE id = ?1",
            [&id],
            |r| r.get(0),
        )
        .expect("contract");
    assert_eq!(contract, "hors_parc");
    let audit = audit_entries(dir, &id);
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].0, "donnees_techniques");
    let changes = &audit[0].1["changes"];
    assert_eq!(changes["marque"], json!({"before": "Otis", "after": null}));
    assert_eq!(
        changes["contrat_entretien"],
        json!({"before": "Parc", "after": "Hors parc"})
    );
    assert_eq!(
        changes["complement_adresse"],
        json!({"before": null, "after": "Escalier B"})
    );

    // The building's address changes; it cannot be erased.
    let (status, body) = patch(
        &w.server,
        &path,
        token,
        json!({"adresse": "14 rue Lecourbe", "nom_immeuble": null}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["adresse"], json!("14 rue Lecourbe"));
    assert!(body.get("nom_immeuble").is_none(), "erased: absent");
    let (status, body) = patch(&w.server, &path, token, json!({"adresse": null})).await;
    assert_eq!(status, 422);
    assert_eq!(
        error_of(&body),
        "Le champ « adresse » ne peut pas être effacé : un immeuble a toujours une adresse."
    );

    // An empty body reads the data and changes nothing.
    let (status, body) = patch(&w.server, &path, token, json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(body["charge_utile"], json!(630));
    assert_eq!(audit_entries(dir, &id).len(), 2);
    w.server.stop().await;
}

#[tokio::test]
async fn technical_data_refusals_name_the_field_and_write_nothing() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let id = equipment(&w.server, agency, "ASC-100").await;
    let mut door = Equip::new(agency, "PFE-1");
    door.kind = Some("porte_fermeture");
    let door = door.insert(&w.server).await;
    let path = format!("/api/v2/equipment/{id}");

    let cases: Vec<(String, Value, String)> = vec![
        (
            path.clone(),
            json!({"taux_connaissance": 80}),
            "Le champ « taux_connaissance » est en lecture seule : il est calculé à partir des données relevées.".into(),
        ),
        (
            path.clone(),
            json!({"couleur": "bleu"}),
            "Le champ « couleur » n'est pas reconnu : champs possibles : charge_utile, course, vitesse, nombre_niveaux, nombre_faces_de_service, nombre_personnes, marque, modele, type_entrainement, implantation_machinerie, adresse, complement_adresse, nom_immeuble, contrat_entretien.".into(),
        ),
        (
            path.clone(),
            json!({"implantation_machinerie": "Au sous-sol"}),
            "La valeur « Au sous-sol » du champ « implantation_machinerie » n'est pas autorisée : valeurs possibles : « Haute », « Basse », « Latérale », « Sans (MRL) ».".into(),
        ),
        (
            path.clone(),
            json!({"type_entrainement": "electrique"}),
            "La valeur « electrique » du champ « type_entrainement » n'est pas autorisée : valeurs possibles : « Electrique », « Hydraulique ».".into(),
        ),
        (
            path.clone(),
            json!({"contrat_entretien": "parc"}),
            "La valeur « parc » du champ « contrat_entretien » n'est pas autorisée : valeurs possibles : « Parc », « Hors parc ».".into(),
        ),
        (
            path.clone(),
            json!({"vitesse": "1,6"}),
            "Le champ « vitesse » doit être un nombre positif ou nul.".into(),
        ),
        (
            path.clone(),
            json!({"charge_utile": -5}),
            "Le champ « charge_utile » doit être un nombre positif ou nul.".into(),
        ),
        (
            path.clone(),
            json!({"nombre_niveaux": 2.5}),
            "Le champ « nombre_niveaux » doit être un nombre entier compris entre 0 et 1000000.".into(),
        ),
        (
            path.clone(),
            json!({"marque": 12}),
            "Le champ « marque » doit être un texte.".into(),
        ),
        (
            path.clone(),
            // The valid datum is not written either.
            json!({"charge_utile": 630, "type_entrainement": "Vapeur"}),
            "La valeur « Vapeur » du champ « type_entrainement » n'est pas autorisée : valeurs possibles : « Electrique », « Hydraulique ».".into(),
        ),
        (
            path.clone(),
            json!({"nombre_personnes": 1_000_001}),
            "Le champ « nombre_personnes » doit être un nombre entier compris entre 0 et 1000000.".into(),
        ),
        (
            path.clone(),
            json!({"complement_adresse": "Bât. B"}),
            "Cet équipement n'est rattaché à aucun immeuble : indiquez aussi « adresse » pour le créer.".into(),
        ),
    ];
    for (path, body, message) in cases {
        let (status, answer) = patch(&w.server, &path, token, body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(error_of(&answer), message, "{body}");
    }
    for eq in [&id, &door] {
        assert_eq!(
            count(
                dir,
                "SELECT COUNT(*) FROM equipment_values WHERE equipment_id = ?1",
                eq
            ),
            0
        );
        assert!(audit_entries(dir, eq).is_empty());
    }

    // The make applies to every type, doors included.
    let (status, body) = patch(
        &w.server,
        &format!("/api/v2/equipment/{door}"),
        token,
        json!({"marque": "Came"}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({"marque": "Came", "contrat_entretien": "Parc", "taux_connaissance": 11.1})
    );
    // A datum the door's type has no use for is kept, but does not count
    // in its knowledge rate (as data kept after a change of type).
    let (status, body) = patch(
        &w.server,
        &format!("/api/v2/equipment/{door}"),
        token,
        json!({"charge_utile": 300}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["charge_utile"], json!(300));
    assert_eq!(body["taux_connaissance"], json!(11.1));

    // An equipment without building gets one with its address.
    let (status, body) = patch(
        &w.server,
        &path,
        token,
        json!({"adresse": "3 place Balard", "nom_immeuble": "Tour Balard"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["adresse"], json!("3 place Balard"));
    assert_eq!(body["nom_immeuble"], json!("Tour Balard"));
    let building: String = open_db(dir)
        .query_row(
            "SELECT b.agency_id FROM equipment e JOIN buildings b ON b.id = e.building_id WHERE e.id = ?1",
            [&id],
            |r| r.get(0),
        )
        .expect("building");
    assert_eq!(&building, agency);

    // 400, 401, 404.
    let (status, body) = send(
        &w.server,
        "PATCH",
        &path,
        Some(token),
        None,
        Some("{\"vitesse\": 1.6,}"),
    )
    .await;
    assert_eq!(
        (status, error_of(&body)),
        (400, "Le corps de la requête n'est pas un JSON valide.")
    );
    let (status, body) = send(&w.server, "PATCH", &path, None, None, Some("{}")).await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    let foreign = equipment(&w.server, &w.other.agency_id, "ASC-900").await;
    let (status, body) = patch(
        &w.server,
        &format!("/api/v2/equipment/{foreign}"),
        token,
        json!({"marque": "Volée"}),
    )
    .await;
    assert_eq!((status, error_of(&body)), (404, "Équipement introuvable."));
    // 404 comes before the body's refusals.
    let (status, _) = patch(
        &w.server,
        &format!("/api/v2/equipment/{foreign}"),
        token,
        json!({"couleur": "x"}),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(
        count(
            dir,
            "SELECT COUNT(*) FROM equipment_values WHERE equipment_id = ?1",
            &foreign
        ),
        0
    );
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// GET /external/equipment and /external/equipment/data
// ---------------------------------------------------------------------------

#[tokio::test]
async fn external_equipment_lists_numbered_contract_equipment_without_external_id() {
    let w = world().await;
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let server = &w.server;
    let b = building(server, agency, None, "8 rue de Vaugirard").await;
    let mut listed = Equip::new(agency, "ASC-2");
    listed.building = Some(&b);
    let listed = listed.insert(server).await;
    let first = equipment(server, agency, "asc-1").await;
    let mut linked = Equip::new(agency, "ASC-3");
    linked.external_id = Some("GMAO-3");
    linked.insert(server).await;
    let mut off_contract = Equip::new(agency, "ASC-4");
    off_contract.contract = Some("hors_parc");
    off_contract.insert(server).await;
    let mut no_contract = Equip::new(agency, "ASC-5");
    no_contract.contract = None;
    no_contract.insert(server).await;
    let mut unnumbered = Equip::new(agency, "x");
    unnumbered.number = None;
    unnumbered.insert(server).await;
    let east = equipment(server, &w.second_agency, "EST-1").await;
    equipment(server, &w.other.agency_id, "AUTRE-1").await;

    let (status, body) = get(&w.server, "/api/v2/external/equipment", token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(keys(&body), ["agency", "equipment"]);
    assert_eq!(
        body["agency"],
        json!({"id": agency, "name": "Durand Centre", "v1Id": null})
    );
    let rows = body["equipment"].as_array().expect("array");
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().expect("id")).collect();
    assert_eq!(ids, [first.as_str(), listed.as_str()], "by number");
    assert_eq!(
        rows[1],
        json!({
            "id": listed,
            "number": "ASC-2",
            "type": "ascenseur",
            "location": "Hall A",
            "contractNumber": "CT-9",
            "building": {
                "id": b,
                "name": null,
                "address": "8 rue de Vaugirard",
                "addressComplement": null,
                "postalCode": "75015",
                "city": "Paris",
            },
            "link": format!("/equipements/{listed}"),
            "url": format!("{}/equipements/{listed}", w.server.base_url),
        })
    );
    assert_eq!(rows[0]["building"], Value::Null);

    // `agency` by service identifier or by V1 identifier; same answer.
    for param in [w.second_agency.as_str(), "V1-EST-7"] {
        let (status, body) = get(
            &w.server,
            &format!("/api/v2/external/equipment?agency={param}"),
            token,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(
            body["agency"],
            json!({"id": w.second_agency, "name": "Durand Est", "v1Id": "V1-EST-7"})
        );
        assert_eq!(body["equipment"][0]["id"], json!(east));
        assert_eq!(body["equipment"].as_array().map(Vec::len), Some(1));
    }
    // Absent: the agency of X-Service-Agency.
    let (status, body) = send(
        &w.server,
        "GET",
        "/api/v2/external/equipment",
        Some(token),
        Some(&w.second_agency),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["agency"]["id"], json!(w.second_agency));

    // Outside the scope (another organization's agency, an unknown one): 403.
    for param in [w.other.agency_id.as_str(), "V1-INCONNU"] {
        let (status, body) = get(
            &w.server,
            &format!("/api/v2/external/equipment?agency={param}"),
            token,
        )
        .await;
        assert_eq!(
            (status, error_of(&body)),
            (403, "Cette agence est hors du périmètre de ce compte.")
        );
    }
    // A member of the first agency only cannot read the second one.
    let (status, _) = get(
        &w.server,
        "/api/v2/external/equipment?agency=V1-EST-7",
        &w.member_token,
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) = send(
        &w.server,
        "GET",
        "/api/v2/external/equipment",
        None,
        None,
        None,
    )
    .await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    w.server.stop().await;
}

#[tokio::test]
async fn external_equipment_data_finds_by_number_or_external_id() {
    let w = world().await;
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let b = building(&w.server, agency, Some("Le Ponant"), "19 rue Leblanc").await;
    let mut eq = Equip::new(agency, "ASC 0042");
    eq.building = Some(&b);
    eq.external_id = Some("GMAO-42");
    let id = eq.insert(&w.server).await;
    equipment_values(
        &w.server,
        agency,
        &id,
        json!({
            "charge_utile": 630,
            "gaine_largeur_cuvette": 1500,
            "gaine_largeur_toit_cabine": 1480.5,
            "gaine_largeur_paliers": 1520,
            // Vertical clearances: not compared with the widths.
            "gaine_profondeur_cuvette": 1200,
            "gaine_reserve_tete": 900,
            "porte_cabine_cellule": true,
        }),
    )
    .await;
    let bare = equipment(&w.server, agency, "ASC-0043").await;

    let (status, body) = get(
        &w.server,
        "/api/v2/external/equipment/data?number=asc0042",
        token,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "id": id,
            "number": "ASC 0042",
            "serialNumber": "SN-1",
            "type": "ascenseur",
            "subtype": "Traction",
            "location": "Hall A",
            "externalId": "GMAO-42",
            "agency": {"id": agency, "name": "Durand Centre", "v1Id": null},
            "building": {
                "id": b,
                "name": "Le Ponant",
                "address": "19 rue Leblanc",
                "addressComplement": null,
                "postalCode": "75015",
                "city": "Paris",
            },
            "contract": {"maintenanceContract": "parc", "label": "Parc", "contractNumber": "CT-9"},
            // 7 of the 34 catalog fields that apply to a lift.
            "knowledgeRate": 20.6,
            "smallestShaftDimension": {
                "code": "gaine_largeur_toit_cabine",
                "field": "Largeur de gaine au toit de cabine",
                "value": 1480.5,
                "unit": "mm",
            },
            "data": {
                "charge_utile": 630,
                "gaine_largeur_cuvette": 1500,
                "gaine_largeur_toit_cabine": 1480.5,
                "gaine_largeur_paliers": 1520,
                "gaine_profondeur_cuvette": 1200,
                "gaine_reserve_tete": 900,
                "porte_cabine_cellule": true,
            },
            "link": format!("/equipements/{id}"),
            "url": format!("{}/equipements/{id}", w.server.base_url),
        })
    );
    // By external identifier; the number first when both are given, the
    // external identifier when the number matches nothing.
    for query in [
        "externalId=GMAO-42",
        "number=ASC%200042&externalId=GMAO-42",
        "number=ASC%200042&externalId=GMAO-43",
        "number=ASC-9999&externalId=GMAO-42",
        "number=%20Asc%200042%20",
    ] {
        let (status, found) = get(
            &w.server,
            &format!("/api/v2/external/equipment/data?{query}"),
            token,
        )
        .await;
        assert_eq!(status, 200, "{query}");
        assert_eq!(found["id"], json!(id), "{query}");
    }
    // Nothing surveyed: empty data, no shaft dimension, rate 0.
    let (status, body) = get(
        &w.server,
        "/api/v2/external/equipment/data?number=ASC-0043",
        token,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["id"], json!(bare));
    assert_eq!(body["data"], json!({}));
    assert_eq!(body["smallestShaftDimension"], Value::Null);
    assert_eq!(body["knowledgeRate"], json!(0.0));
    assert_eq!(body["building"], Value::Null);

    // Neither number nor externalId designates nothing: 404, saying what to send.
    for query in ["", "?agency=V1-EST-7", "?number=%20%20"] {
        let (status, body) = get(
            &w.server,
            &format!("/api/v2/external/equipment/data{query}"),
            token,
        )
        .await;
        assert_eq!(
            (status, error_of(&body)),
            (
                404,
                "Aucun équipement désigné : indiquez son numéro (« number ») ou son identifiant externe (« externalId »)."
            ),
            "{query}"
        );
    }
    for query in [
        "number=ASC-9999",
        "externalId=GMAO-9",
        "number=ASC-9999&externalId=GMAO-9",
        // Another agency of the organization, named explicitly.
        "number=ASC0042&agency=V1-EST-7",
    ] {
        let (status, body) = get(
            &w.server,
            &format!("/api/v2/external/equipment/data?{query}"),
            token,
        )
        .await;
        assert_eq!(
            (status, error_of(&body)),
            (404, "Aucun équipement de l'agence ne correspond."),
            "{query}"
        );
    }
    // Another organization's equipment: 404 in my agency, 403 when its agency is named.
    equipment(&w.server, &w.other.agency_id, "AUTRE-1").await;
    let (status, _) = get(
        &w.server,
        "/api/v2/external/equipment/data?number=AUTRE-1",
        token,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = get(
        &w.server,
        &format!(
            "/api/v2/external/equipment/data?number=AUTRE-1&agency={}",
            w.other.agency_id
        ),
        token,
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) = send(
        &w.server,
        "GET",
        "/api/v2/external/equipment/data?number=ASC0042",
        None,
        None,
        None,
    )
    .await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// GET /technical-fields
// ---------------------------------------------------------------------------

#[tokio::test]
async fn technical_fields_search_label_code_and_synonyms() {
    let w = world().await;
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let lift = equipment(&w.server, agency, "ASC-1").await;
    equipment_values(
        &w.server,
        agency,
        &lift,
        json!({"charge_utile": 630, "porte_cabine_cellule": false}),
    )
    .await;
    let mut door = Equip::new(agency, "PFE-1");
    door.kind = Some("porte_fermeture");
    let door = door.insert(&w.server).await;
    let search = |eq: &str, q: &str| format!("/api/v2/technical-fields?equipment={eq}&q={q}");

    let (status, body) = get(&w.server, &search(&lift, "charge"), token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!([{
            "code": "charge_utile",
            "field": "Charge utile",
            "component": null,
            "value": 630,
            "unit": "kg",
        }])
    );
    let codes = |body: &Value| -> Vec<String> {
        body.as_array()
            .expect("array")
            .iter()
            .map(|e| e["code"].as_str().expect("code").to_owned())
            .collect()
    };
    // Accents and case ignored; label matches first, then code and synonyms.
    for (q, expected) in [
        ("vitesse", vec!["vitesse"]),
        ("VITÉSSE", vec!["vitesse"]),
        ("course", vec!["course"]),
        ("Entrainement", vec!["type_entrainement"]),
        (
            "fosse",
            vec!["gaine_profondeur_cuvette", "gaine_largeur_cuvette"],
        ),
        (
            "largeur%20gaine",
            vec![
                "gaine_largeur_cuvette",
                "gaine_largeur_toit_cabine",
                "gaine_largeur_paliers",
            ],
        ),
        ("barriere", vec!["porte_cabine_cellule"]),
        ("introuvable", vec![]),
    ] {
        let (status, body) = get(&w.server, &search(&lift, q), token).await;
        assert_eq!(status, 200, "{q}");
        assert_eq!(codes(&body), expected, "{q}");
    }
    // A component's datum, never surveyed (value null) or surveyed (false).
    let (_, body) = get(&w.server, &search(&lift, "cellule"), token).await;
    assert_eq!(
        body,
        json!([{
            "code": "porte_cabine_cellule",
            "field": "Barrière immatérielle",
            "component": "car_door",
            "value": false,
            "unit": null,
        }])
    );
    let (_, body) = get(&w.server, &search(&lift, "profondeur%20cuvette"), token).await;
    assert_eq!(body[0]["value"], Value::Null);
    assert_eq!(
        keys(&body[0]),
        ["code", "component", "field", "unit", "value"]
    );
    // Only the fields that apply to the equipment's type.
    let (status, body) = get(&w.server, &search(&door, "charge"), token).await;
    assert_eq!((status, body), (200, json!([])));
    let (_, body) = get(&w.server, &search(&door, "marque"), token).await;
    assert!(codes(&body).contains(&"marque".to_owned()));

    // Both parameters are required: 400.
    for (path, message) in [
        (
            "/api/v2/technical-fields?q=charge".to_owned(),
            "Le paramètre « equipment » est obligatoire.",
        ),
        (
            format!("/api/v2/technical-fields?equipment={lift}"),
            "Le paramètre « q » est obligatoire.",
        ),
        (
            format!("/api/v2/technical-fields?equipment={lift}&q=%20"),
            "Le paramètre « q » est obligatoire.",
        ),
    ] {
        let (status, body) = get(&w.server, &path, token).await;
        assert_eq!((status, error_of(&body)), (400, message));
    }
    // Unknown or another organization's equipment: 404.
    let foreign = equipment(&w.server, &w.other.agency_id, "AUTRE-1").await;
    for eq in [foreign.as_str(), "pas-un-id"] {
        let (status, body) = get(&w.server, &search(eq, "charge"), token).await;
        assert_eq!((status, error_of(&body)), (404, "Équipement introuvable."));
    }
    let (status, body) = send(&w.server, "GET", &search(&lift, "charge"), None, None, None).await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// GET /surveys, /surveys/{id}, /surveys/{id}/data
// ---------------------------------------------------------------------------

#[tokio::test]
async fn surveys_are_paged_newest_first_and_searched_on_number() {
    let w = world().await;
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let server = &w.server;
    let eq = equipment(server, agency, "ASC-1").await;
    let releveur = "releveur@durand.fr";
    let surveyor_id = surveyor(server, agency, releveur).await;
    let fixtures = Fixtures::in_agency(server, agency);
    let mut ids = Vec::new();
    for i in 1..=5 {
        // REL-2026-0000i, asked for on the i-th of January and submitted at
        // once (an equipment has one open survey at a time).
        let created = format!("2026-01-0{i}T10:00:00.000Z");
        let at = liftdesk::clock::parse_timestamp(&created).expect("instant");
        let id = fixtures
            .at(at, || async {
                let id = fixtures.opened_survey("ASC-1", releveur).await;
                fixtures
                    .submitted_survey(&surveyor_id, &id, SubmitInput::default())
                    .await;
                id
            })
            .await;
        ids.push(id);
    }
    let mut unnumbered = Sv::new(agency, &eq, "x", "2025-12-01T10:00:00.000Z");
    unnumbered.number = None;
    let unnumbered = unnumbered.insert(server).await;
    // Another organization's nine surveys, asked for by one deal: the
    // ninth is numbered …-00009.
    surveyor(server, &w.other.agency_id, "releveur@concurrent.fr").await;
    Fixtures::in_agency(server, &w.other.agency_id)
        .survey_deal(CreateSurveyInput {
            type_affaire: Some("Contrat".to_owned()),
            solliciteur_email: "commercial@partenaire.fr".to_owned(),
            releveur_email: "releveur@concurrent.fr".to_owned(),
            equipments: (1..=9)
                .map(|n| SurveyEquipmentInput {
                    equipment_number: Some(format!("AUTRE-{n}")),
                    adresse: Some("1 rue Danton, 75006 Paris".to_owned()),
                    ..SurveyEquipmentInput::default()
                })
                .collect(),
            ..CreateSurveyInput::default()
        })
        .await;

    let (status, body) = get(&w.server, "/api/v2/surveys?limit=2", token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(keys(&body), ["limit", "page", "results", "total"]);
    assert_eq!(
        (
            body["total"].clone(),
            body["page"].clone(),
            body["limit"].clone()
        ),
        (json!(6), json!(1), json!(2))
    );
    assert_eq!(
        body["results"][0],
        json!({
            "id": ids[4],
            "number": "REL-2026-00005",
            "link": format!("/releves/{}", ids[4]),
            "url": format!("{}/releves/{}", w.server.base_url, ids[4]),
        })
    );
    assert_eq!(body["results"][1]["id"], json!(ids[3]));
    let (_, body) = get(&w.server, "/api/v2/surveys?limit=2&page=3", token).await;
    assert_eq!(body["results"][0]["id"], json!(ids[0]));
    assert_eq!(
        body["results"][1],
        json!({
            "id": unnumbered,
            "number": null,
            "link": format!("/releves/{unnumbered}"),
            "url": format!("{}/releves/{unnumbered}", w.server.base_url),
        })
    );
    let (_, body) = get(&w.server, "/api/v2/surveys?limit=2&page=4", token).await;
    assert_eq!(body["results"], json!([]));
    assert_eq!(body["total"], json!(6));
    let (_, body) = get(&w.server, "/api/v2/surveys", token).await;
    assert_eq!(body["limit"], json!(50));
    assert_eq!(body["results"].as_array().map(Vec::len), Some(6));

    // q: substring of the number, case ignored; % and _ are plain characters.
    let (_, body) = get(&w.server, "/api/v2/surveys?q=rel-2026-0000", token).await;
    assert_eq!(body["total"], json!(5));
    let (_, body) = get(&w.server, "/api/v2/surveys?q=0003", token).await;
    assert_eq!(body["total"], json!(1));
    assert_eq!(body["results"][0]["id"], json!(ids[2]));
    for q in ["%25", "_", "00009"] {
        let (_, body) = get(&w.server, &format!("/api/v2/surveys?q={q}"), token).await;
        assert_eq!(body["total"], json!(0), "{q}");
    }
    // Another agency of the organization lists its own.
    let (_, body) = send(
        &w.server,
        "GET",
        "/api/v2/surveys",
        Some(token),
        Some(&w.second_agency),
        None,
    )
    .await;
    assert_eq!(body["total"], json!(0));

    for (query, status) in [
        ("limit=0", 422),
        ("limit=201", 422),
        ("page=0", 422),
        ("limit=abc", 400),
        ("page=1.5", 400),
    ] {
        let (got, body) = get(&w.server, &format!("/api/v2/surveys?{query}"), token).await;
        assert_eq!(got, status, "{query}");
        assert!(!error_of(&body).is_empty());
    }
    let (status, body) = send(&w.server, "GET", "/api/v2/surveys", None, None, None).await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    w.server.stop().await;
}

#[tokio::test]
async fn a_survey_reads_exactly_its_fields() {
    let w = world().await;
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let server = &w.server;
    let eq = equipment(server, agency, "ASC-1").await;
    let releveur = "releveur@durand.fr";
    let surveyor_id = surveyor(server, agency, releveur).await;
    // Due on the 15th, twelve photos: from the history (see `Sv`); then
    // asked for by two deals and submitted.
    let mut done = Sv::new(agency, &eq, "REL-2026-00001", NOW);
    done.due_on = Some("2026-03-15");
    done.photos = 12;
    let done = done.insert(server).await;
    let fixtures = Fixtures::in_agency(server, agency);
    fixtures
        .requested_survey("ASC-1", releveur, None, &["Prise en mains", "Essais"])
        .await;
    fixtures
        .requested_survey("ASC-1", releveur, Some("Modernisation pour devis"), &[])
        .await;
    let values = json!({"charge_utile": 630, "porte_cabine_type": "Battante"});
    fixtures
        .submitted_survey(
            &surveyor_id,
            &done,
            SubmitInput {
                surveyed_on: Some("2026-03-09".to_owned()),
                values: values.as_object().cloned(),
            },
        )
        .await;

    let (status, body) = get(&w.server, &format!("/api/v2/surveys/{done}"), token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "type": "releve",
            "id": done,
            "link": format!("/releves/{done}"),
            "url": format!("{}/releves/{done}", w.server.base_url),
            "fields": {
                "number": "REL-2026-00001",
                "status": "Terminé",
                "type": "État des lieux : Prise en mains, Essais ; Modernisation pour devis",
                "surveyedOn": "09/03/2026",
                "dueOn": "15/03/2026",
                "fieldCount": "2",
                "photoCount": "12",
            },
        })
    );

    // Every status reads in French; what is unknown is null, never absent.
    for (code, label) in [
        ("a_realiser", "À réaliser"),
        ("en_cours", "En cours"),
        ("annule", "Annulé"),
    ] {
        let mut s = Sv::new(agency, &eq, "n", NOW);
        s.number = None;
        s.status = code;
        let id = s.insert(&w.server).await;
        let (status, body) = get(&w.server, &format!("/api/v2/surveys/{id}"), token).await;
        assert_eq!(status, 200);
        assert_eq!(
            body["fields"],
            json!({
                "number": null,
                "status": label,
                "type": null,
                "surveyedOn": null,
                "dueOn": null,
                "fieldCount": "0",
                "photoCount": "0",
            })
        );
    }

    // Another organization's survey, or an unknown one: 404.
    let theirs = &w.other.agency_id;
    equipment(server, theirs, "AUTRE-1").await;
    surveyor(server, theirs, "releveur@concurrent.fr").await;
    let foreign = opened(server, theirs, "AUTRE-1", "releveur@concurrent.fr").await;
    for id in [foreign.as_str(), "inconnu"] {
        for suffix in ["", "/data"] {
            let (status, body) =
                get(&w.server, &format!("/api/v2/surveys/{id}{suffix}"), token).await;
            assert_eq!((status, error_of(&body)), (404, "Relevé introuvable."));
        }
    }
    let (status, body) = send(
        &w.server,
        "GET",
        &format!("/api/v2/surveys/{done}"),
        None,
        None,
        None,
    )
    .await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    w.server.stop().await;
}

#[tokio::test]
async fn survey_data_are_grouped_by_component_with_their_v1_names() {
    let w = world().await;
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let server = &w.server;
    let eq = equipment(server, agency, "ASC-1").await;
    // The equipment's current data are not the survey's.
    equipment_values(server, agency, &eq, json!({"marque": "Otis"})).await;
    let mut s = Sv::new(agency, &eq, "REL-2026-00007", NOW);
    s.status = "en_cours";
    s.reason = Some("Prise en main du parc");
    s.surveyed_on = Some("2026-03-01");
    s.values = vec![
        ("machine_type", json!("Gearless")),
        ("charge_utile", json!(630)),
        ("porte_cabine_cellule", json!(true)),
        ("course", json!(12.5)),
    ];
    let id = s.insert(server).await;
    // Asked for by two deals, which find it open.
    let releveur = "releveur@durand.fr";
    surveyor(server, agency, releveur).await;
    let fixtures = Fixtures::in_agency(server, agency);
    let (contract_deal, _) = fixtures
        .requested_survey("ASC-1", releveur, Some("Contrat"), &[])
        .await;
    let (inventory_deal, _) = fixtures
        .requested_survey("ASC-1", releveur, None, &["Base parc"])
        .await;

    let (status, body) = get(&w.server, &format!("/api/v2/surveys/{id}/data"), token).await;
    assert_eq!(status, 200, "{body}");
    let base = &w.server.base_url;
    assert_eq!(
        body,
        json!({
            "id": id,
            "number": "REL-2026-00007",
            "equipment": {
                "id": eq,
                "link": format!("/equipements/{eq}"),
                "url": format!("{base}/equipements/{eq}"),
            },
            "agency": agency,
            "reason": "Prise en main du parc",
            "status": "En cours",
            "surveyedOn": "2026-03-01",
            "link": format!("/releves/{id}"),
            "url": format!("{base}/releves/{id}"),
            "deals": [
                {
                    "id": contract_deal,
                    "nature": "Contrat",
                    "natureLabel": "Contrat",
                    "link": format!("/affaires/{contract_deal}"),
                    "url": format!("{base}/affaires/{contract_deal}"),
                },
                {
                    "id": inventory_deal,
                    "nature": null,
                    "natureLabel": "État des lieux : Base parc",
                    "link": format!("/affaires/{inventory_deal}"),
                    "url": format!("{base}/affaires/{inventory_deal}"),
                },
            ],
            "components": {
                "equipment": [
                    {
                        "code": "charge_utile",
                        "libelle": "Charge utile",
                        "valeur": 630,
                        "unite": "kg",
                        "champV1": {"table": "appareil", "champ": "charge_nominale"},
                    },
                    {
                        "code": "course",
                        "libelle": "Course",
                        "valeur": 12.5,
                        "unite": "m",
                        "champV1": {"table": "appareil", "champ": "course"},
                    },
                ],
                "car_door": [{
                    "code": "porte_cabine_cellule",
                    "libelle": "Barrière immatérielle",
                    "valeur": true,
                    "unite": null,
                    "champV1": {"table": "porte_cabine", "champ": "barriere"},
                }],
                "machine": [{
                    "code": "machine_type",
                    "libelle": "Type de machine",
                    "valeur": "Gearless",
                    "unite": null,
                    "champV1": {"table": "machine", "champ": "type"},
                }],
            },
        })
    );
    // `equipment` comes first in the object, then the catalog's order.
    let response = w
        .server
        .client
        .get(w.server.url(&format!("/api/v2/surveys/{id}/data")))
        .bearer_auth(token)
        .send()
        .await
        .expect("request");
    let text = response.text().await.expect("text");
    let positions: Vec<usize> = ["\"equipment\":[", "\"car_door\"", "\"machine\""]
        .iter()
        .map(|k| text.find(k).expect("key"))
        .collect();
    assert!(positions.windows(2).all(|p| p[0] < p[1]), "{text}");

    // No datum: an empty object, no deal: an empty list (opened on another
    // equipment, this one's survey being open).
    equipment(server, agency, "ASC-2").await;
    let empty = opened(server, agency, "ASC-2", releveur).await;
    let (_, body) = get(&w.server, &format!("/api/v2/surveys/{empty}/data"), token).await;
    assert_eq!(body["components"], json!({}));
    assert_eq!(body["deals"], json!([]));
    assert_eq!(body["reason"], Value::Null);
    assert_eq!(body["surveyedOn"], Value::Null);
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// POST /discrepancies
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_discrepancy_is_created_on_a_survey_of_that_equipment() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let eq = equipment(&w.server, agency, "ASC-1").await;
    surveyor(&w.server, agency, "releveur@durand.fr").await;
    let s = opened(&w.server, agency, "ASC-1", "releveur@durand.fr").await;

    let (status, body) = post(
        &w.server,
        "/api/v2/discrepancies",
        token,
        json!({
            "equipmentId": eq,
            "surveyId": s,
            "component": "car_door",
            "finding": "  Galets de porte cabine usés, bruit à l'ouverture.  ",
        }),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(keys(&body), ["id", "link", "ok", "url"]);
    let id = str_of(&body, "id").to_owned();
    assert_eq!(body["ok"], json!(true));
    assert_eq!(body["link"], json!(format!("/ecarts/{id}")));
    assert_eq!(
        body["url"],
        json!(format!("{}/ecarts/{id}", w.server.base_url))
    );
    let row: (String, String, String, Option<String>, String, String) = open_db(dir)
        .query_row(
            "SELECT agency_id, equipment_id, survey_id, component, finding, created_by FROM discrepancies WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .expect("row");
    assert_eq!(
        row,
        (
            agency.clone(),
            eq.clone(),
            s.clone(),
            Some("car_door".into()),
            "Galets de porte cabine usés, bruit à l'ouverture.".into(),
            w.org.admin_id.clone()
        )
    );
    let audit = audit_entries(dir, &id);
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].0, "creation");
    assert_eq!(audit[0].1["survey"], json!(s));

    // Without component (or `equipment`): the whole equipment; a member may create.
    for component in [None, Some(json!(null)), Some(json!("equipment"))] {
        let mut body = json!({"equipmentId": eq, "surveyId": s, "finding": "Éclairage de cuvette hors service."});
        if let Some(component) = component {
            body["component"] = component;
        }
        let (status, answer) =
            post(&w.server, "/api/v2/discrepancies", &w.member_token, body).await;
        assert_eq!(status, 201, "{answer}");
        let stored: Option<String> = open_db(dir)
            .query_row(
                "SELECT component FROM discrepancies WHERE id = ?1",
                [str_of(&answer, "id")],
                |r| r.get(0),
            )
            .expect("component");
        assert_eq!(stored, None);
    }
    w.server.stop().await;
}

#[tokio::test]
async fn discrepancy_refusals_create_nothing() {
    let w = world().await;
    let dir = w.dir();
    let token = &w.org.admin_token;
    let agency = &w.org.agency_id;
    let server = &w.server;
    let eq = equipment(server, agency, "ASC-1").await;
    surveyor(server, agency, "releveur@durand.fr").await;
    let s = opened(server, agency, "ASC-1", "releveur@durand.fr").await;
    let other_eq = equipment(server, agency, "ASC-2").await;
    // Its number is in a refusal below: from the history (see `Sv`).
    let other_s = Sv::new(agency, &other_eq, "REL-2", NOW)
        .insert(&w.server)
        .await;
    let theirs = &w.other.agency_id;
    let foreign_eq = equipment(server, theirs, "AUTRE-1").await;
    surveyor(server, theirs, "releveur@concurrent.fr").await;
    let foreign_s = opened(server, theirs, "AUTRE-1", "releveur@concurrent.fr").await;
    let finding = "Contact de porte cabine défaillant.";

    let cases: Vec<(Value, String)> = vec![
        (
            json!({"surveyId": s, "finding": finding}),
            "Le champ « equipmentId » est obligatoire.".into(),
        ),
        (
            json!({"equipmentId": eq, "finding": finding}),
            "Le champ « surveyId » est obligatoire.".into(),
        ),
        (
            json!({"equipmentId": eq, "surveyId": s}),
            "Le champ « finding » est obligatoire.".into(),
        ),
        (
            json!({"equipmentId": eq, "surveyId": s, "finding": 3}),
            "Le champ « finding » n'a pas le type attendu.".into(),
        ),
        (
            json!({"equipmentId": eq, "surveyId": s, "finding": finding, "gravite": "haute"}),
            "Le champ « gravite » n'est pas reconnu.".into(),
        ),
        (
            json!({"equipmentId": eq, "surveyId": s, "component": "toit", "finding": finding}),
            "Le composant « toit » n'est pas reconnu : valeurs possibles : « car_door », « controller », « landing_door », « machine », « shaft », ou « equipment » (ou rien) pour l'équipement entier.".into(),
        ),
        (
            json!({"equipmentId": eq, "surveyId": s, "finding": "  ok "}),
            "Le champ « finding » doit contenir au moins 3 caractères : décrivez l'écart constaté.".into(),
        ),
        (
            json!({"equipmentId": eq, "surveyId": s, "finding": "é".repeat(2001)}),
            "Le champ « finding » ne doit pas dépasser 2000 caractères.".into(),
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = post(&w.server, "/api/v2/discrepancies", token, body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(error_of(&answer), message, "{body}");
    }
    // The equipment must be in the acting agency, the survey among its
    // surveys: 422 otherwise, as any refused creation input (issue 3: « a
    // survey that is not of that equipment » is 422).
    let refused_references: Vec<(Value, String)> = vec![
        (
            json!({"equipmentId": eq, "surveyId": other_s, "finding": finding}),
            "Le relevé « REL-2 » n'est pas un relevé de cet équipement : indiquez un relevé de l'équipement.".into(),
        ),
        (
            json!({"equipmentId": "inconnu", "surveyId": s, "finding": finding}),
            "L'équipement « inconnu » est introuvable dans cette agence.".into(),
        ),
        (
            json!({"equipmentId": foreign_eq, "surveyId": foreign_s, "finding": finding}),
            format!("L'équipement « {foreign_eq} » est introuvable dans cette agence."),
        ),
        (
            json!({"equipmentId": eq, "surveyId": foreign_s, "finding": finding}),
            format!("Le relevé « {foreign_s} » est introuvable dans cette agence."),
        ),
    ];
    for (body, message) in refused_references {
        let (status, answer) = post(&w.server, "/api/v2/discrepancies", token, body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(error_of(&answer), message, "{body}");
    }
    let total: i64 = open_db(dir)
        .query_row("SELECT COUNT(*) FROM discrepancies", [], |r| r.get(0))
        .expect("count");
    assert_eq!(total, 0);

    let (status, _) = send(
        &w.server,
        "POST",
        "/api/v2/discrepancies",
        Some(token),
        None,
        Some("{\"finding\": "),
    )
    .await;
    assert_eq!(status, 400);
    let (status, body) = send(
        &w.server,
        "POST",
        "/api/v2/discrepancies",
        None,
        None,
        Some(&json!({"equipmentId": eq, "surveyId": s, "finding": finding}).to_string()),
    )
    .await;
    assert_eq!((status, body), (401, json!({"error": UNAUTHORIZED})));
    // Exactly 2000 characters pass.
    let (status, _) = post(
        &w.server,
        "/api/v2/discrepancies",
        token,
        json!({"equipmentId": eq, "surveyId": s, "finding": "é".repeat(2000)}),
    )
    .await;
    assert_eq!(status, 201);
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// The description
// ---------------------------------------------------------------------------

#[tokio::test]
async fn the_description_documents_every_operation_and_status() {
    let server = TestServer::start().await;
    let (status, doc) = send(&server, "GET", "/api/v2/openapi.json", None, None, None).await;
    assert_eq!(status, 200);
    let expected: [(&str, &str, &[&str]); 10] = [
        ("/equipment", "get", &["200", "422"]),
        (
            "/equipment/{id}/identity",
            "patch",
            &["200", "404", "413", "422"],
        ),
        ("/equipment/{id}", "patch", &["200", "404", "413", "422"]),
        ("/external/equipment", "get", &["200"]),
        ("/external/equipment/data", "get", &["200", "404"]),
        ("/technical-fields", "get", &["200", "404"]),
        ("/surveys", "get", &["200", "422"]),
        ("/surveys/{id}", "get", &["200", "404"]),
        ("/surveys/{id}/data", "get", &["200", "404"]),
        ("/discrepancies", "post", &["201", "413", "422"]),
    ];
    for (path, method, statuses) in expected {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path}");
        for status in statuses.iter().chain(&["400", "401", "403", "429"]) {
            assert!(
                operation["responses"].get(*status).is_some(),
                "{method} {path} lacks {status}"
            );
        }
    }
    let schemas = &doc["components"]["schemas"];
    let required = |name: &str| -> Vec<String> {
        let mut list: Vec<String> = schemas[name]["required"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}"))
            .iter()
            .map(|v| v.as_str().expect("name").to_owned())
            .collect();
        list.sort_unstable();
        list
    };
    assert_eq!(
        required("SurveyFields"),
        [
            "dueOn",
            "fieldCount",
            "number",
            "photoCount",
            "status",
            "surveyedOn",
            "type"
        ]
    );
    assert_eq!(
        required("TechnicalFieldEntry"),
        ["code", "component", "field", "unit", "value"]
    );
    assert_eq!(
        required("SurveyData"),
        [
            "agency",
            "components",
            "deals",
            "equipment",
            "id",
            "link",
            "number",
            "reason",
            "status",
            "surveyedOn",
            "url"
        ]
    );
    assert_eq!(required("TechnicalDataView"), ["taux_connaissance"]);
    assert_eq!(
        required("EquipmentListEntry"),
        [
            "building",
            "id",
            "link",
            "location",
            "maintenanceContract",
            "number",
            "type",
            "url"
        ]
    );
    // The published component keys are the catalog's.
    let mut published: Vec<Value> = schemas["DiscrepancyBody"]["properties"]["component"]["enum"]
        .as_array()
        .expect("enum")
        .clone();
    let db = open_db(server.data_dir.path());
    let mut stmt = db
        .prepare("SELECT DISTINCT component FROM technical_fields WHERE component IS NOT NULL")
        .expect("prepare");
    let mut catalog: Vec<Value> = stmt
        .query_map([], |r| r.get::<String>(0))
        .expect("query")
        .map(|c| json!(c.expect("component")))
        .collect();
    catalog.push(json!("equipment"));
    catalog.push(Value::Null);
    let sort = |list: &mut Vec<Value>| list.sort_by_key(|v| v.to_string());
    sort(&mut published);
    sort(&mut catalog);
    assert_eq!(published, catalog);
    server.stop().await;
}
