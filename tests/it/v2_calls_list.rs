//! GET /api/v2/calls: the agency's breakdown calls, filtered (`status`,
//! `equipment`), searched (`q`, accents and case ignored) and paged, trapped
//! persons not yet freed first, never another agency's. Fixtures are
//! written by the operations (one stopped call without technician by the
//! store's bulk writer: see `World::stopped_call_without_technician`).

use crate::common;

use chrono::Duration;
use common::world::World as Fixtures;
use common::*;
use liftdesk::clock;
use liftdesk::services::calls::CenterCallInput;
use serde_json::{Value, json};

fn id() -> String {
    uuid::Uuid::now_v7().to_string()
}

fn keys_of(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected, got {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

async fn building(
    fixtures: &Fixtures,
    name: &str,
    street: &str,
    postal: &str,
    city: &str,
) -> String {
    fixtures
        .building(Some(name), street, Some(postal), Some(city))
        .await
}

struct NewCall<'a> {
    reference: &'a str,
    /// The equipment's number, as the call center gives it.
    equipment: &'a str,
    call_type: &'a str,
    status: &'a str,
    caller: Option<&'a str>,
    received_at: &'a str,
    technician: Option<&'a str>,
}

/// A call the center (`key`) sent at `received_at`, given to its technician
/// a minute later, then moved to its status a minute apart each step.
async fn call(fixtures: &Fixtures, key: &str, c: NewCall<'_>) -> String {
    let received = clock::parse_timestamp(c.received_at).expect("received_at");
    let call = fixtures
        .call_at(
            key,
            CenterCallInput {
                reference: c.reference.to_owned(),
                equipment: c.equipment.to_owned(),
                call_type: c.call_type.to_owned(),
                description: "Appareil arrêté.".to_owned(),
                caller: c.caller.map(str::to_owned),
                received_at: None,
            },
            received,
        )
        .await;
    let minute = |n: i64| received + Duration::minutes(n);
    if let Some(technician) = c.technician {
        fixtures.assign_call_at(&call, technician, minute(1)).await;
    }
    let steps: &[&str] = match c.status {
        "ouverte" => &[],
        "a_l_arret" => &["sur_place", "a_l_arret"],
        status => &[status],
    };
    for (n, status) in (2..).zip(steps) {
        fixtures.move_call_at(&call, status, minute(n)).await;
    }
    call
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    second_agency: String,
    karim: String,
    tilleuls_lift: String,
    /// c1: open breakdown at the Tilleuls, caller Mme Benali, 2026-11-20.
    c1: String,
    /// c2: trapped person at the Acacias, en route (Karim), 2026-11-19.
    c2: String,
    /// c3: trapped person at the Tilleuls, resolved, 2026-11-21 09:00 (newest).
    c3: String,
    /// c4: noise on an equipment without building, on site (Alice), 2026-11-18.
    c4: String,
    /// c5: vandalism at the Acacias, stopped, 2026-11-21 06:00.
    c5: String,
    /// The other organization's call at its own « Résidence Les Tilleuls ».
    foreign: String,
    /// The call of the second agency of the same organization.
    neighbour: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let second_agency = str_of(
        &server.cli_json(&[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Durand Est",
        ]),
        "id",
    )
    .to_owned();
    let here = Fixtures::in_agency(&server, &org.agency_id);
    let tilleuls = building(
        &here,
        "Résidence Les Tilleuls",
        "12 avenue Charles de Gaulle",
        "92200",
        "Neuilly-sur-Seine",
    )
    .await;
    let acacias = building(
        &here,
        "Résidence Les Acacias",
        "3 rue Émile Zola",
        "92300",
        "Levallois-Perret",
    )
    .await;
    let tilleuls_lift = here.lift("ASC 10174", Some(&tilleuls)).await;
    let acacias_lift = here.lift("ASC-20001", Some(&acacias)).await;
    here.lift("MC 3", None).await;
    let karim = here.technician("Karim Legrand", None).await;
    let alice = here.technician("Alice Martin", None).await;
    let center = here.call_center_key("Centre d'appels").await;
    let c1 = call(
        &here,
        &center,
        NewCall {
            reference: "CC-001",
            equipment: "ASC 10174",
            call_type: "panne",
            status: "ouverte",
            caller: Some("Mme Benali (résidente)"),
            received_at: "2026-11-20T08:00:00.000Z",
            technician: None,
        },
    )
    .await;
    let c2 = call(
        &here,
        &center,
        NewCall {
            reference: "CC-002",
            equipment: "ASC-20001",
            call_type: "personne_bloquee",
            status: "en_route",
            caller: Some("Gardien"),
            received_at: "2026-11-19T10:00:00.000Z",
            technician: Some(&karim),
        },
    )
    .await;
    let c3 = call(
        &here,
        &center,
        NewCall {
            reference: "CC-003",
            equipment: "ASC 10174",
            call_type: "personne_bloquee",
            status: "resolue",
            caller: None,
            received_at: "2026-11-21T09:00:00.000Z",
            technician: Some(&karim),
        },
    )
    .await;
    let c4 = call(
        &here,
        &center,
        NewCall {
            reference: "AG-004",
            equipment: "MC 3",
            call_type: "bruit",
            status: "sur_place",
            caller: None,
            received_at: "2026-11-18T07:00:00.000Z",
            technician: Some(&alice),
        },
    )
    .await;
    let c5 = Fixtures::in_agency(&server, &org.agency_id)
        .stopped_call_without_technician(
            &acacias_lift,
            "CC-005",
            "vandalisme",
            clock::parse_timestamp("2026-11-21T06:00:00.000Z").expect("instant"),
        )
        .await;
    let there = Fixtures::in_agency(&server, &other.agency_id);
    let foreign_building = building(
        &there,
        "Résidence Les Tilleuls",
        "1 rue des Tilleuls",
        "69000",
        "Lyon",
    )
    .await;
    there.lift("ASC 10174", Some(&foreign_building)).await;
    let foreign = call(
        &there,
        &there.call_center_key("Centre d'appels").await,
        NewCall {
            reference: "CC-001",
            equipment: "ASC 10174",
            call_type: "personne_bloquee",
            status: "ouverte",
            caller: Some("Mme Benali"),
            received_at: "2026-11-22T08:00:00.000Z",
            technician: None,
        },
    )
    .await;
    let neighbours = Fixtures::in_agency(&server, &second_agency);
    let neighbour_building = building(
        &neighbours,
        "Résidence Les Tilleuls",
        "5 allée des Tilleuls",
        "77000",
        "Melun",
    )
    .await;
    neighbours.lift("ASC 1", Some(&neighbour_building)).await;
    let neighbour = call(
        &neighbours,
        &neighbours.call_center_key("Centre d'appels").await,
        NewCall {
            reference: "CC-900",
            equipment: "ASC 1",
            call_type: "panne",
            status: "ouverte",
            caller: None,
            received_at: "2026-11-22T09:00:00.000Z",
            technician: None,
        },
    )
    .await;
    World {
        server,
        org,
        other,
        second_agency,
        karim,
        tilleuls_lift,
        c1,
        c2,
        c3,
        c4,
        c5,
        foreign,
        neighbour,
    }
}

impl World {
    async fn list(&self, query: &str) -> (u16, Value) {
        self.server
            .get_with(
                &format!("/api/v2/calls{query}"),
                Some(&self.org.admin_token),
                None,
            )
            .await
    }

    /// The ids of a page, in order, and its total.
    async fn ids(&self, query: &str) -> (Vec<String>, i64) {
        let (status, body) = self.list(query).await;
        assert_eq!(status, 200, "{query}: {body}");
        let ids = body["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|row| str_of(row, "id").to_owned())
            .collect();
        (ids, body["total"].as_i64().expect("total"))
    }
}

#[tokio::test]
async fn a_page_lists_the_agency_calls_trapped_persons_first_then_newest() {
    let w = world().await;
    let (status, page) = w.list("").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(keys_of(&page), ["limit", "page", "results", "total"]);
    assert_eq!(page["total"], json!(5));
    assert_eq!(page["page"], json!(1));
    assert_eq!(page["limit"], json!(50));
    let ids: Vec<&str> = page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| str_of(r, "id"))
        .collect();
    // c2 (trapped, not freed) first; c3 is trapped but resolved: by date.
    assert_eq!(ids, [&w.c2, &w.c3, &w.c5, &w.c1, &w.c4]);

    // The row, exactly.
    let row = &page["results"][0];
    assert_eq!(
        keys_of(row),
        [
            "address",
            "appelant",
            "building",
            "buildingId",
            "equipment",
            "id",
            "libelle",
            "link",
            "recuLe",
            "reference",
            "statut",
            "technician",
            "type",
            "urgence",
            "url"
        ]
    );
    let acacias_lift = str_of(&row["equipment"], "id").to_owned();
    let acacias = str_of(row, "buildingId").to_owned();
    assert_eq!(
        row,
        &json!({
            "id": w.c2,
            "reference": "CC-002",
            "statut": "en_route",
            "libelle": "Technicien en route",
            "type": "personne_bloquee",
            "urgence": true,
            "recuLe": "2026-11-19T10:00:00.000Z",
            "appelant": "Gardien",
            "equipment": {
                "id": acacias_lift,
                "number": "ASC-20001",
                "link": format!("/equipements/{acacias_lift}"),
                "url": format!("{}/equipements/{acacias_lift}", w.server.base_url),
            },
            "building": "Résidence Les Acacias",
            "buildingId": acacias,
            "address": "3 rue Émile Zola, 92300 Levallois-Perret",
            "technician": { "id": w.karim, "name": "Karim Legrand" },
            "link": format!("/appels/{}", w.c2),
            "url": format!("{}/appels/{}", w.server.base_url, w.c2),
        })
    );
    // Null, not absent: no caller, no technician, no building.
    let loose = &page["results"][4];
    assert_eq!(loose["appelant"], Value::Null);
    assert_eq!(loose["building"], Value::Null);
    assert_eq!(loose["buildingId"], Value::Null);
    assert_eq!(loose["address"], Value::Null);
    assert_eq!(loose["technician"]["name"], json!("Alice Martin"));
    let stopped = &page["results"][2];
    assert_eq!(stopped["technician"], Value::Null);
    assert_eq!(stopped["libelle"], json!("Appareil à l'arrêt"));
    assert_eq!(stopped["urgence"], json!(false));

    // Every row says what GET /calls/{id} says of the fields they share.
    for row in page["results"].as_array().expect("results") {
        let (status, read) = w
            .server
            .get_with(
                &format!("/api/v2/calls/{}", str_of(row, "id")),
                Some(&w.org.admin_token),
                None,
            )
            .await;
        assert_eq!(status, 200);
        for key in [
            "id",
            "reference",
            "statut",
            "libelle",
            "type",
            "urgence",
            "recuLe",
            "appelant",
            "equipment",
            "technician",
            "link",
            "url",
        ] {
            assert_eq!(row[key], read[key], "{key}");
        }
    }
    w.server.stop().await;
}

#[tokio::test]
async fn status_filters_open_calls_or_one_status() {
    let w = world().await;
    assert_eq!(
        w.ids("?status=ouverts").await,
        (
            vec![w.c2.clone(), w.c5.clone(), w.c1.clone(), w.c4.clone()],
            4
        )
    );
    assert_eq!(w.ids("?status=resolue").await, (vec![w.c3.clone()], 1));
    assert_eq!(w.ids("?status=ouverte").await, (vec![w.c1.clone()], 1));
    assert_eq!(w.ids("?status=en_route").await, (vec![w.c2.clone()], 1));
    assert_eq!(w.ids("?status=sur_place").await, (vec![w.c4.clone()], 1));
    assert_eq!(w.ids("?status=a_l_arret").await, (vec![w.c5.clone()], 1));

    for wrong in ["fermee", "", "OUVERTS", "ouvert"] {
        let (status, body) = w.list(&format!("?status={wrong}")).await;
        assert_eq!(status, 422, "{wrong}: {body}");
        assert_eq!(
            body,
            json!({"error": format!(
                "Statut d'appel inconnu : « {wrong} ». Valeurs possibles : ouverte, en_route, sur_place, a_l_arret, resolue, ou ouverts (tous sauf resolue)."
            )})
        );
    }
    w.server.stop().await;
}

#[tokio::test]
async fn search_ignores_accents_and_case_and_every_word_must_match() {
    let w = world().await;
    let tilleuls = (vec![w.c3.clone(), w.c1.clone()], 2);
    for q in [
        "tilleuls",
        "TILLEULS",
        "R%C3%A9sidence%20Les%20Tilleuls",
        "residence%20les%20tilleuls",
        "neuilly",
        "92200",
        "charles%20de%20gaulle",
        "ASC%2010174",
        "asc10174",
        "10174",
    ] {
        assert_eq!(w.ids(&format!("?q={q}")).await, tilleuls, "{q}");
    }
    let acacias = (vec![w.c2.clone(), w.c5.clone()], 2);
    for q in ["%C3%A9mile", "EMILE%20zola", "levallois", "asc-20001"] {
        assert_eq!(w.ids(&format!("?q={q}")).await, acacias, "{q}");
    }
    // Reference and caller.
    assert_eq!(w.ids("?q=cc-002").await, (vec![w.c2.clone()], 1));
    assert_eq!(w.ids("?q=ag-004").await, (vec![w.c4.clone()], 1));
    assert_eq!(w.ids("?q=B%C3%A9nali").await, (vec![w.c1.clone()], 1));
    assert_eq!(w.ids("?q=benali%20tilleuls").await, (vec![w.c1.clone()], 1));
    // Every word must be found.
    assert_eq!(w.ids("?q=tilleuls%20acacias").await, (vec![], 0));
    assert_eq!(w.ids("?q=introuvable").await, (vec![], 0));
    // A blank search searches nothing.
    assert_eq!(w.ids("?q=%20%20").await.1, 5);
    assert_eq!(w.ids("?q=").await.1, 5);
    // With the status filter: the open call at the Tilleuls.
    assert_eq!(
        w.ids("?q=Tilleuls&status=ouverts").await,
        (vec![w.c1.clone()], 1)
    );
    // The description is not searched.
    assert_eq!(w.ids("?q=arr%C3%AAt%C3%A9").await, (vec![], 0));

    let long = "a".repeat(101);
    let (status, body) = w.list(&format!("?q={long}")).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body,
        json!({"error": "Le paramètre « q » ne doit pas dépasser 100 caractères."})
    );
    assert_eq!(w.ids(&format!("?q={}", "a".repeat(100))).await.1, 0);
    w.server.stop().await;
}

#[tokio::test]
async fn equipment_keeps_one_equipment_calls() {
    let w = world().await;
    assert_eq!(
        w.ids(&format!("?equipment={}", w.tilleuls_lift)).await,
        (vec![w.c3.clone(), w.c1.clone()], 2)
    );
    assert_eq!(
        w.ids(&format!("?equipment={}&status=ouverts", w.tilleuls_lift))
            .await,
        (vec![w.c1.clone()], 1)
    );
    assert_eq!(
        w.ids(&format!("?equipment={}&q=benali", w.tilleuls_lift))
            .await,
        (vec![w.c1.clone()], 1)
    );
    // Unknown, or another organization's equipment: nothing.
    assert_eq!(w.ids(&format!("?equipment={}", id())).await, (vec![], 0));
    let foreign_lift: String = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT equipment_id FROM calls WHERE id = ?1",
            [&w.foreign],
            |r| r.get(0),
        )
        .expect("foreign equipment");
    assert_eq!(
        w.ids(&format!("?equipment={foreign_lift}")).await,
        (vec![], 0)
    );
    w.server.stop().await;
}

#[tokio::test]
async fn pages_split_the_list_and_bad_paging_is_refused() {
    let w = world().await;
    assert_eq!(
        w.ids("?limit=2").await,
        (vec![w.c2.clone(), w.c3.clone()], 5)
    );
    assert_eq!(
        w.ids("?limit=2&page=2").await,
        (vec![w.c5.clone(), w.c1.clone()], 5)
    );
    assert_eq!(w.ids("?limit=2&page=3").await, (vec![w.c4.clone()], 5));
    assert_eq!(w.ids("?limit=2&page=4").await, (vec![], 5));
    let (_, page) = w.list("?limit=2&page=3").await;
    assert_eq!(
        (page["page"].clone(), page["limit"].clone()),
        (json!(3), json!(2))
    );
    // A search is paged the same way.
    assert_eq!(
        w.ids("?q=tilleuls&limit=1&page=2").await,
        (vec![w.c1.clone()], 2)
    );
    assert_eq!(w.ids("?q=tilleuls&limit=1&page=3").await, (vec![], 2));
    assert_eq!(w.ids("?limit=200").await.1, 5);

    for (query, status, message) in [
        (
            "?limit=0",
            422,
            "Le paramètre « limit » doit être compris entre 1 et 200.",
        ),
        (
            "?limit=201",
            422,
            "Le paramètre « limit » doit être compris entre 1 et 200.",
        ),
        (
            "?page=0",
            422,
            "Le paramètre « page » doit être supérieur ou égal à 1.",
        ),
        (
            "?page=-1",
            422,
            "Le paramètre « page » doit être supérieur ou égal à 1.",
        ),
        (
            "?limit=abc",
            400,
            "Le paramètre « limit » doit être un nombre entier.",
        ),
        (
            "?page=1.5",
            400,
            "Le paramètre « page » doit être un nombre entier.",
        ),
        (
            "?limit=2.0",
            400,
            "Le paramètre « limit » doit être un nombre entier.",
        ),
    ] {
        let (got, body) = w.list(query).await;
        assert_eq!(got, status, "{query}: {body}");
        assert_eq!(body, json!({ "error": message }), "{query}");
    }
    w.server.stop().await;
}

#[tokio::test]
async fn another_agency_calls_are_never_listed() {
    let w = world().await;
    // Same building name, same reference, same caller in the other
    // organization and in the second agency: not listed.
    let (ids, total) = w.ids("?limit=200").await;
    assert_eq!(total, 5);
    assert!(!ids.contains(&w.foreign) && !ids.contains(&w.neighbour));
    assert_eq!(w.ids("?q=tilleuls").await.1, 2);
    assert_eq!(w.ids("?q=cc-001").await, (vec![w.c1.clone()], 1));
    assert_eq!(w.ids("?q=melun").await, (vec![], 0));
    assert_eq!(w.ids("?q=lyon").await, (vec![], 0));

    // The other organization lists its own call only.
    let (status, page) = w
        .server
        .get_with("/api/v2/calls?q=tilleuls", Some(&w.other.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["id"], json!(w.foreign));
    assert_eq!(
        page["results"][0]["address"],
        json!("1 rue des Tilleuls, 69000 Lyon")
    );

    // The second agency of the organization, through X-Service-Agency.
    let (status, page) = w
        .server
        .get_with(
            "/api/v2/calls",
            Some(&w.org.admin_token),
            Some(&w.second_agency),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["id"], json!(w.neighbour));
    // Another organization's agency is out of scope: 403.
    let (status, _) = w
        .server
        .get_with(
            "/api/v2/calls",
            Some(&w.org.admin_token),
            Some(&w.other.agency_id),
        )
        .await;
    assert_eq!(status, 403);
    // No token: 401.
    let (status, body) = w.server.get_with("/api/v2/calls", None, None).await;
    assert_eq!(status, 401);
    assert_eq!(
        body,
        json!({"error": "Authentification requise : jeton d'API manquant, inconnu ou révoqué."})
    );
    w.server.stop().await;
}

#[tokio::test]
async fn the_list_is_described_in_the_openapi_document() {
    let server = TestServer::start().await;
    let (status, doc) = server.get_with("/api/v2/openapi.json", None, None).await;
    assert_eq!(status, 200);
    let operation = &doc["paths"]["/calls"]["get"];
    assert_eq!(operation["operationId"], json!("list_calls"));
    assert_eq!(operation["tags"], json!(["Appels"]));
    let mut params: Vec<&str> = operation["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .filter(|p| p["in"] == json!("query"))
        .map(|p| p["name"].as_str().expect("name"))
        .collect();
    params.sort_unstable();
    assert_eq!(params, ["equipment", "limit", "page", "q", "status"]);
    let status_param = operation["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .find(|p| p["name"] == json!("status"))
        .expect("status");
    let text = status_param.to_string();
    assert!(
        text.contains("\"ouverts\"") && text.contains("\"a_l_arret\""),
        "{text}"
    );
    let mut statuses: Vec<&str> = operation["responses"]
        .as_object()
        .expect("responses")
        .keys()
        .map(String::as_str)
        .collect();
    statuses.sort_unstable();
    assert_eq!(statuses, ["200", "400", "401", "403", "422", "429"]);
    let row = &doc["components"]["schemas"]["CallListEntry"];
    let mut required: Vec<&str> = row["required"]
        .as_array()
        .expect("required")
        .iter()
        .map(|v| v.as_str().expect("name"))
        .collect();
    required.sort_unstable();
    assert_eq!(
        required,
        [
            "address",
            "appelant",
            "building",
            "buildingId",
            "equipment",
            "id",
            "libelle",
            "link",
            "recuLe",
            "reference",
            "statut",
            "technician",
            "type",
            "urgence",
            "url"
        ]
    );
    server.stop().await;
}
