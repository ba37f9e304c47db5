//! The MCP tools of planning, visits and breakdown calls, through a real MCP
//! client session: each answers what the REST API answers for the same input,
//! transitions change what REST then reads (with their audit entry), refusals
//! are tool errors with the REST status and French reason, and another
//! organization's token finds nothing of this one.

use crate::common;

use chrono::{Days, Duration, Utc};
use common::db::TestDb as Connection;
use common::mcp::*;
use common::world::World as Fixtures;
use common::*;
use liftdesk::clock;
use liftdesk::services::calls::CenterCallInput;
use serde_json::{Value, json};

fn id() -> String {
    uuid::Uuid::now_v7().to_string()
}

async fn building(fixtures: &Fixtures, name: &str, street: &str) -> String {
    fixtures
        .building(Some(name), street, Some("92200"), Some("Neuilly-sur-Seine"))
        .await
}

async fn technician(fixtures: &Fixtures, name: &str) -> String {
    fixtures.technician(name, Some("Neuilly-sur-Seine")).await
}

/// A breakdown the call center received half an hour ago, still open.
async fn open_call(
    fixtures: &Fixtures,
    center_key: &str,
    reference: &str,
    equipment_number: &str,
) -> String {
    fixtures
        .call_at(
            center_key,
            CenterCallInput {
                reference: reference.to_owned(),
                equipment: equipment_number.to_owned(),
                call_type: "panne".to_owned(),
                description: "Cabine arrêtée au 3e étage.".to_owned(),
                caller: Some("Gardienne".to_owned()),
                received_at: None,
            },
            Utc::now() - Duration::minutes(30),
        )
        .await
}

/// A visit planned today.
async fn visit(fixtures: &Fixtures, equipment: &str, technician: &str) -> String {
    fixtures
        .visit(equipment, Some(technician), clock::paris_today())
        .await
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    karim: String,
    alice: String,
    /// The open call at the Résidence Les Tilleuls.
    open_call: String,
    /// A resolved call at the same residence.
    resolved_call: String,
    /// An open call at the Résidence Les Acacias.
    acacias_call: String,
    /// Karim's visits this week, and Alice's.
    karim_visits: [String; 2],
    alice_visit: String,
    /// The other organization's technician, call and visit.
    stranger: String,
    foreign_call: String,
    foreign_visit: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let here = Fixtures::in_agency(&server, &org.agency_id);
    let tilleuls = building(
        &here,
        "Résidence Les Tilleuls",
        "12 avenue Charles de Gaulle",
    )
    .await;
    let acacias = building(&here, "Résidence Les Acacias", "3 rue Émile Zola").await;
    let tilleuls_lift = here.lift("ASC 10174", Some(&tilleuls)).await;
    let acacias_lift = here.lift("ASC 20001", Some(&acacias)).await;
    // An equipment has one visit to come at most: Alice's is of the
    // Acacias' second lift.
    let acacias_second_lift = here.lift("ASC 20002", Some(&acacias)).await;
    let karim = technician(&here, "Karim Legrand").await;
    let alice = technician(&here, "Alice Martin").await;
    // Karim is on call now.
    here.on_call(
        &karim,
        Utc::now() - Duration::hours(2),
        Utc::now() + Duration::hours(10),
    )
    .await;
    let center = here.call_center_key("Centre d'appels").await;
    let open_call_id = open_call(&here, &center, "CC-1", "ASC 10174").await;
    let resolved_call = open_call(&here, &center, "CC-2", "ASC 10174").await;
    here.move_call(&resolved_call, "resolue").await;
    let acacias_call = open_call(&here, &center, "CC-3", "ASC 20001").await;
    let karim_visits = [
        visit(&here, &tilleuls_lift, &karim).await,
        visit(&here, &acacias_lift, &karim).await,
    ];
    let alice_visit = visit(&here, &acacias_second_lift, &alice).await;

    let there = Fixtures::in_agency(&server, &other.agency_id);
    let foreign_building = building(&there, "Résidence Les Tilleuls", "1 rue des Tilleuls").await;
    let foreign_lift = there.lift("ASC 10174", Some(&foreign_building)).await;
    let stranger = technician(&there, "Xavier Ailleurs").await;
    let foreign_center = there.call_center_key("Centre d'appels").await;
    let foreign_call = open_call(&there, &foreign_center, "CC-1", "ASC 10174").await;
    let foreign_visit = visit(&there, &foreign_lift, &stranger).await;
    World {
        server,
        org,
        other,
        karim,
        alice,
        open_call: open_call_id,
        resolved_call,
        acacias_call,
        karim_visits,
        alice_visit,
        stranger,
        foreign_call,
        foreign_visit,
    }
}

impl World {
    async fn rest(&self, path: &str) -> Value {
        let (status, body) = self
            .server
            .get_with(path, Some(&self.org.admin_token), None)
            .await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    async fn rest_post(&self, path: &str, body: Value) -> (u16, Value) {
        let response = self
            .server
            .client
            .post(self.server.url(path))
            .header("Authorization", format!("Bearer {}", self.org.admin_token))
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    fn db(&self) -> Connection {
        open_db(self.server.data_dir.path())
    }

    fn token_id(&self) -> String {
        self.db()
            .query_row(
                "SELECT id FROM credentials WHERE kind = 'api_token' AND account_id = ?1",
                [&self.org.admin_id],
                |r| r.get(0),
            )
            .expect("token")
    }

    /// The last audit entry of an object: action, actor kind, actor id.
    fn last_audit(&self, object_type: &str, object: &str) -> (String, String, Option<String>) {
        self.db()
            .query_row(
                "SELECT action, actor_kind, actor_id FROM audit_log
                 WHERE object_type = ?1 AND object_id = ?2 ORDER BY seq DESC LIMIT 1",
                [object_type, object],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .expect("audit entry")
    }
}

/// A successful tool answer.
async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(!error, "{tool} {arguments}: {value}");
    value
}

/// A refused tool answer: `{"error", "status"}`.
async fn refused(client: &Client, tool: &str, arguments: Value) -> Value {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(error, "{tool} {arguments} should be refused: {value}");
    value
}

fn refusal(status: u16, message: &str) -> Value {
    json!({ "error": message, "status": status })
}

fn ids_of(list: &Value) -> Vec<&str> {
    list.as_array()
        .expect("array")
        .iter()
        .map(|entry| entry["id"].as_str().expect("id"))
        .collect()
}

#[tokio::test]
async fn the_tools_are_listed_with_french_descriptions_and_object_schemas() {
    let w = world().await;
    let client = connect(&w.server, &w.org.admin_token, None).await;
    let tools = client.list_all_tools().await.expect("tools");
    let find = |name: &str| {
        tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} not listed"))
    };
    let expected: [(&str, &[&str], &[&str]); 10] = [
        ("planning", &["day", "technicianId"], &[]),
        ("visite", &["id"], &["id"]),
        ("commencer_visite", &["arrivedAt", "id"], &["id"]),
        (
            "terminer_visite",
            &[
                "arrivedAt",
                "duties",
                "id",
                "leftAt",
                "observations",
                "signedBy",
            ],
            &["id", "signedBy"],
        ),
        (
            "replanifier_visite",
            &["id", "plannedFor", "technicianId"],
            &["id", "plannedFor"],
        ),
        ("annuler_debut_visite", &["id"], &["id"]),
        (
            "appels",
            &["equipment", "limit", "page", "q", "status"],
            &[],
        ),
        ("appel", &["id"], &["id"]),
        (
            "affecter_appel",
            &["id", "technician", "technicianId"],
            &["id", "technicianId"],
        ),
        ("statut_appel", &["id", "statut"], &["id", "statut"]),
    ];
    for (name, properties, required) in expected {
        let tool = find(name);
        let schema = Value::Object((*tool.input_schema).clone());
        assert_eq!(schema["type"], json!("object"), "{name}");
        let mut keys: Vec<&str> = schema["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        keys.sort_unstable();
        assert_eq!(keys, properties, "{name}: {schema}");
        let mut needed: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        needed.sort_unstable();
        assert_eq!(needed, required, "{name}");
        assert_eq!(schema["additionalProperties"], json!(false), "{name}");
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.len() > 80, "{name}: {description}");
        let read_only = tool
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint)
            .unwrap_or(false);
        assert_eq!(
            read_only,
            ["planning", "visite", "appels", "appel"].contains(&name),
            "{name}"
        );
    }
    // The planning tells where a technician's id comes from.
    assert!(
        find("planning")
            .description
            .as_deref()
            .unwrap_or_default()
            .contains("techniciens")
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

/// « Qu'est-ce qui est prévu pour Karim cette semaine ? »
#[tokio::test]
async fn what_is_planned_for_karim_this_week() {
    let w = world().await;
    let client = connect(&w.server, &w.org.admin_token, None).await;

    // Karim's id, by his name.
    let technicians = ok(&client, "techniciens", json!({})).await;
    let karim = technicians
        .as_array()
        .expect("technicians")
        .iter()
        .find(|t| t["name"].as_str().is_some_and(|n| n.starts_with("Karim")))
        .expect("Karim");
    assert_eq!(karim["id"], json!(w.karim));

    // The whole week: exactly REST's.
    let week = ok(&client, "planning", json!({})).await;
    assert_eq!(week, w.rest("/api/v2/planning").await);
    assert_eq!(week.as_array().map(Vec::len), Some(3));
    assert!(ids_of(&week).contains(&w.alice_visit.as_str()));

    // Karim's week: REST's entries that are his, the same shape.
    let his = ok(&client, "planning", json!({ "technicianId": w.karim })).await;
    let rest_week = w.rest("/api/v2/planning").await;
    let expected: Vec<Value> = rest_week
        .as_array()
        .expect("week")
        .iter()
        .filter(|e| e["technicianId"] == json!(w.karim))
        .cloned()
        .collect();
    assert_eq!(his, Value::Array(expected));
    let mut got = ids_of(&his);
    got.sort_unstable();
    let mut wanted = vec![w.karim_visits[0].as_str(), w.karim_visits[1].as_str()];
    wanted.sort_unstable();
    assert_eq!(got, wanted);

    // Another week, by one of its days.
    let next = (clock::paris_today() + Days::new(7))
        .format("%Y-%m-%d")
        .to_string();
    let later = ok(
        &client,
        "planning",
        json!({ "day": next, "technicianId": w.alice }),
    )
    .await;
    assert_eq!(later, json!([]));
    assert_eq!(
        ok(&client, "planning", json!({ "day": next })).await,
        w.rest(&format!("/api/v2/planning?day={next}")).await
    );

    // Refusals: REST's statuses and reasons.
    let (status, rest) = w
        .server
        .get_with(
            "/api/v2/planning?day=2026-02-30",
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused(&client, "planning", json!({ "day": "2026-02-30" })).await,
        refusal(422, rest["error"].as_str().expect("error"))
    );
    assert_eq!(
        refused(&client, "planning", json!({ "day": "11/03/2026" })).await,
        refusal(
            400,
            "Le paramètre « day » doit être un jour au format AAAA-MM-JJ."
        )
    );
    // An id that is no technician of the agency (a name, another
    // organization's technician) is refused, never an empty week.
    for wrong in ["Karim", w.stranger.as_str()] {
        assert_eq!(
            refused(&client, "planning", json!({ "technicianId": wrong })).await,
            refusal(
                422,
                &format!("Technicien introuvable dans cette agence : « {wrong} ».")
            )
        );
    }
    assert_eq!(
        refused(&client, "planning", json!({ "technician": "Karim" })).await,
        refusal(422, "Le champ « technician » n'est pas reconnu.")
    );
    assert_eq!(
        refused(&client, "planning", json!({ "day": 20260311 })).await,
        refusal(422, "Le champ « day » n'a pas le type attendu.")
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn a_visit_is_read_started_cancelled_rescheduled_and_completed() {
    let w = world().await;
    let client = connect(&w.server, &w.org.admin_token, None).await;
    let visit = w.karim_visits[0].as_str();
    let read_path = format!("/api/v2/visits/{visit}");

    assert_eq!(
        ok(&client, "visite", json!({ "id": visit })).await,
        w.rest(&read_path).await
    );

    // Start: the answer is REST's 201 body; REST then reads `en_cours`.
    let started = ok(&client, "commencer_visite", json!({ "id": visit })).await;
    assert_eq!(
        started,
        json!({
            "id": visit,
            "ok": true,
            "link": format!("/visites/{visit}"),
            "url": format!("{}/visites/{visit}", w.server.base_url),
        })
    );
    let read = w.rest(&read_path).await;
    assert_eq!(read["fields"]["status"], json!("en_cours"));
    assert!(read["fields"]["arrivedAt"].is_string());
    let token = w.token_id();
    assert_eq!(
        w.last_audit("visit", visit),
        (
            "demarrage".to_owned(),
            "api_token".to_owned(),
            Some(token.clone())
        )
    );

    // Starting again is refused with the domain's reason, as REST refuses it.
    let again = refused(&client, "commencer_visite", json!({ "id": visit })).await;
    let (status, rest) = w
        .rest_post(&format!("/api/v2/visits/{visit}/start"), json!({}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(again, refusal(422, rest["error"].as_str().expect("error")));
    // A started visit cannot be rescheduled.
    let tomorrow = (clock::paris_today() + Days::new(1))
        .format("%Y-%m-%d")
        .to_string();
    let refusal_body = refused(
        &client,
        "replanifier_visite",
        json!({ "id": visit, "plannedFor": tomorrow }),
    )
    .await;
    assert_eq!(refusal_body["status"], json!(422));

    // Cancel the start, then reschedule to Alice next week.
    ok(&client, "annuler_debut_visite", json!({ "id": visit })).await;
    assert_eq!(
        w.rest(&read_path).await["fields"],
        json!({
            "plannedFor": clock::paris_today().format("%d/%m/%Y").to_string(),
            "status": "planifiee",
            "arrivedAt": null,
            "leftAt": null,
            "signedBy": null,
            "observations": null,
        })
    );
    let next = clock::paris_today() + Days::new(7);
    let next_text = next.format("%Y-%m-%d").to_string();
    let moved = ok(
        &client,
        "replanifier_visite",
        json!({ "id": visit, "plannedFor": next_text, "technicianId": w.alice }),
    )
    .await;
    assert_eq!(moved["id"], json!(visit));
    assert_eq!(
        w.rest(&read_path).await["fields"]["plannedFor"],
        json!(next.format("%d/%m/%Y").to_string())
    );
    let next_week = w.rest(&format!("/api/v2/planning?day={next_text}")).await;
    let entry = next_week
        .as_array()
        .expect("week")
        .iter()
        .find(|e| e["id"] == json!(visit))
        .expect("moved visit");
    assert_eq!(entry["technicianId"], json!(w.alice));
    assert_eq!(w.last_audit("visit", visit).0, "replanification".to_owned());
    // A day in the past is refused like REST refuses it.
    let (status, rest) = w
        .rest_post(
            &format!("/api/v2/visits/{visit}/reschedule"),
            json!({ "plannedFor": "2020-01-01" }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused(
            &client,
            "replanifier_visite",
            json!({ "id": visit, "plannedFor": "2020-01-01" })
        )
        .await,
        refusal(422, rest["error"].as_str().expect("error"))
    );

    // Complete: a missing signature is REST's 422, naming the field.
    let other_visit = w.karim_visits[1].as_str();
    let (status, rest) = w
        .rest_post(&format!("/api/v2/visits/{other_visit}/complete"), json!({}))
        .await;
    assert_eq!(status, 422);
    let missing = refused(&client, "terminer_visite", json!({ "id": other_visit })).await;
    assert_eq!(
        missing,
        refusal(422, rest["error"].as_str().expect("error"))
    );
    assert_eq!(
        missing,
        refusal(422, "Le champ « signedBy » est obligatoire.")
    );
    // Not started and no arrival given: refused, as REST refuses it.
    let (status, rest) = w
        .rest_post(
            &format!("/api/v2/visits/{other_visit}/complete"),
            json!({ "signedBy": "Mme Garcia" }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused(
            &client,
            "terminer_visite",
            json!({ "id": other_visit, "signedBy": "Mme Garcia" })
        )
        .await,
        refusal(422, rest["error"].as_str().expect("error"))
    );
    // Started an hour ago, completed now.
    let an_hour_ago = clock::format_timestamp(Utc::now() - Duration::hours(1));
    ok(
        &client,
        "commencer_visite",
        json!({ "id": other_visit, "arrivedAt": an_hour_ago }),
    )
    .await;
    let done = ok(
        &client,
        "terminer_visite",
        json!({
            "id": other_visit,
            "signedBy": "Mme Garcia (gardienne)",
            "observations": "Galets de porte cabine usés."
        }),
    )
    .await;
    assert_eq!(done["ok"], json!(true));
    let fields = &w.rest(&format!("/api/v2/visits/{other_visit}")).await["fields"];
    assert_eq!(fields["status"], json!("faite"));
    assert_eq!(fields["signedBy"], json!("Mme Garcia (gardienne)"));
    assert_eq!(
        fields["observations"],
        json!("Galets de porte cabine usés.")
    );
    assert_eq!(
        w.last_audit("visit", other_visit),
        ("cloture".to_owned(), "api_token".to_owned(), Some(token))
    );
    // Done is final.
    assert_eq!(
        refused(
            &client,
            "annuler_debut_visite",
            json!({ "id": other_visit })
        )
        .await["status"],
        json!(422)
    );
    // A missing id is named like a missing body field.
    assert_eq!(
        refused(&client, "visite", json!({})).await,
        refusal(422, "Le champ « id » est obligatoire.")
    );
    assert_eq!(
        refused(&client, "visite", json!({ "id": id() })).await,
        refusal(404, "Visite introuvable.")
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

/// « Affecte l'appel ouvert de la Résidence Les Tilleuls au technicien d'astreinte. »
#[tokio::test]
async fn the_open_call_at_les_tilleuls_goes_to_the_on_call_technician() {
    let w = world().await;
    let client = connect(&w.server, &w.org.admin_token, None).await;

    // Every call, then the one asked for: exactly REST's pages.
    let all = ok(&client, "appels", json!({})).await;
    assert_eq!(all, w.rest("/api/v2/calls").await);
    assert_eq!(all["total"], json!(3));
    let found = ok(
        &client,
        "appels",
        json!({ "q": "résidence les tilleuls", "status": "ouverts" }),
    )
    .await;
    assert_eq!(
        found,
        w.rest("/api/v2/calls?q=r%C3%A9sidence%20les%20tilleuls&status=ouverts")
            .await
    );
    assert_eq!(found["total"], json!(1));
    let call_id = found["results"][0]["id"].as_str().expect("id").to_owned();
    assert_eq!(call_id, w.open_call);
    assert_eq!(
        found["results"][0]["building"],
        json!("Résidence Les Tilleuls")
    );
    assert_eq!(
        ok(&client, "appels", json!({ "limit": 1, "page": 2 })).await,
        w.rest("/api/v2/calls?limit=1&page=2").await
    );

    // The on-call technician.
    let technicians = ok(&client, "techniciens", json!({})).await;
    let on_call: Vec<&Value> = technicians
        .as_array()
        .expect("technicians")
        .iter()
        .filter(|t| t["onCall"] == json!(true))
        .collect();
    assert_eq!(on_call.len(), 1);
    let (tech_id, tech_name) = (
        on_call[0]["id"].as_str().expect("id"),
        on_call[0]["name"].as_str().expect("name"),
    );
    assert_eq!(tech_id, w.karim);

    // Assigning: REST's 201 body; REST then reads the technician.
    let assigned = ok(
        &client,
        "affecter_appel",
        json!({ "id": call_id, "technicianId": tech_id, "technician": tech_name }),
    )
    .await;
    assert_eq!(
        assigned,
        json!({
            "id": call_id,
            "ok": true,
            "link": format!("/appels/{call_id}"),
            "url": format!("{}/appels/{call_id}", w.server.base_url),
        })
    );
    let read = w.rest(&format!("/api/v2/calls/{call_id}")).await;
    assert_eq!(
        read["technician"],
        json!({ "id": w.karim, "name": "Karim Legrand" })
    );
    assert_eq!(read["statut"], json!("ouverte"));
    assert_eq!(ok(&client, "appel", json!({ "id": call_id })).await, read);
    let token = w.token_id();
    assert_eq!(
        w.last_audit("call", &call_id),
        (
            "affectation".to_owned(),
            "api_token".to_owned(),
            Some(token.clone())
        )
    );
    assert_eq!(
        w.rest("/api/v2/technicians")
            .await
            .as_array()
            .expect("list")
            .iter()
            .find(|t| t["id"] == json!(w.karim))
            .expect("Karim")["openCalls"],
        json!(1)
    );

    // He sets off: `en_route`, seen by REST.
    let moved = ok(
        &client,
        "statut_appel",
        json!({ "id": call_id, "statut": "en_route" }),
    )
    .await;
    assert_eq!(moved["id"], json!(call_id));
    assert_eq!(
        w.rest(&format!("/api/v2/calls/{call_id}")).await["statut"],
        json!("en_route")
    );
    assert_eq!(
        w.last_audit("call", &call_id),
        (
            "changement_statut".to_owned(),
            "api_token".to_owned(),
            Some(token)
        )
    );
    // A transition the domain refuses: REST's 422 and reason.
    let (status, rest) = w
        .rest_post(
            &format!("/api/v2/calls/{call_id}/status"),
            json!({ "statut": "a_l_arret" }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused(
            &client,
            "statut_appel",
            json!({ "id": call_id, "statut": "a_l_arret" })
        )
        .await,
        refusal(422, rest["error"].as_str().expect("error"))
    );
    // A name that is not the designated technician's.
    assert_eq!(
        refused(
            &client,
            "affecter_appel",
            json!({ "id": w.acacias_call, "technicianId": w.karim, "technician": "Alice Martin" })
        )
        .await,
        refusal(
            422,
            "Le champ « technician » (« Alice Martin ») ne correspond pas au technicien désigné par « technicianId » : « Karim Legrand »."
        )
    );
    // A resolved call is not assigned any more.
    let (status, rest) = w
        .rest_post(
            &format!("/api/v2/calls/{}/assign", w.resolved_call),
            json!({ "technicianId": w.alice }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused(
            &client,
            "affecter_appel",
            json!({ "id": w.resolved_call, "technicianId": w.alice })
        )
        .await,
        refusal(422, rest["error"].as_str().expect("error"))
    );
    // Nobody on the Acacias call: it cannot be `en_route`.
    assert_eq!(
        refused(
            &client,
            "statut_appel",
            json!({ "id": w.acacias_call, "statut": "en_route" })
        )
        .await["status"],
        json!(422)
    );
    assert_eq!(
        w.rest(&format!("/api/v2/calls/{}", w.acacias_call)).await["technician"],
        Value::Null
    );
    // The list's own refusals.
    assert_eq!(
        refused(&client, "appels", json!({ "limit": 0 })).await,
        refusal(
            422,
            "Le paramètre « limit » doit être compris entre 1 et 200."
        )
    );
    assert_eq!(
        refused(&client, "appels", json!({ "status": "fermee" })).await,
        refusal(
            422,
            "Statut d'appel inconnu : « fermee ». Valeurs possibles : ouverte, en_route, sur_place, a_l_arret, resolue, ou ouverts (tous sauf resolue)."
        )
    );
    assert_eq!(
        refused(&client, "appels", json!({ "limit": "dix" })).await,
        refusal(422, "Le champ « limit » n'a pas le type attendu.")
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn another_organization_finds_nothing_of_this_one() {
    let w = world().await;
    let client = connect(&w.server, &w.other.admin_token, None).await;
    let nothing_changed = |w: &World| -> (String, Option<String>, String) {
        w.db()
            .query_row(
                "SELECT c.status, c.technician_id, v.status FROM calls c, visits v
                 WHERE c.id = ?1 AND v.id = ?2",
                [&w.open_call, &w.karim_visits[0]],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .expect("state")
    };
    let before = nothing_changed(&w);

    // Its lists hold its own records only.
    let calls = ok(&client, "appels", json!({ "q": "Tilleuls" })).await;
    assert_eq!(calls["total"], json!(1));
    assert_eq!(calls["results"][0]["id"], json!(w.foreign_call));
    let week = ok(&client, "planning", json!({})).await;
    assert_eq!(ids_of(&week), [w.foreign_visit.as_str()]);

    // This organization's records are unknown: 404 with REST's reason.
    let call_missing = refusal(404, "Appel introuvable.");
    let visit_missing = refusal(404, "Visite introuvable.");
    assert_eq!(
        refused(&client, "appel", json!({ "id": w.open_call })).await,
        call_missing
    );
    assert_eq!(
        refused(
            &client,
            "affecter_appel",
            json!({ "id": w.open_call, "technicianId": w.stranger })
        )
        .await,
        call_missing
    );
    assert_eq!(
        refused(
            &client,
            "statut_appel",
            json!({ "id": w.open_call, "statut": "resolue" })
        )
        .await,
        call_missing
    );
    let visit = w.karim_visits[0].as_str();
    assert_eq!(
        refused(&client, "visite", json!({ "id": visit })).await,
        visit_missing
    );
    assert_eq!(
        refused(&client, "commencer_visite", json!({ "id": visit })).await,
        visit_missing
    );
    assert_eq!(
        refused(
            &client,
            "terminer_visite",
            json!({ "id": visit, "signedBy": "X", "arrivedAt": clock::now_text() })
        )
        .await,
        visit_missing
    );
    assert_eq!(
        refused(
            &client,
            "replanifier_visite",
            json!({ "id": visit, "plannedFor": clock::paris_today().format("%Y-%m-%d").to_string() })
        )
        .await,
        visit_missing
    );
    assert_eq!(
        refused(&client, "annuler_debut_visite", json!({ "id": visit })).await,
        visit_missing
    );
    assert_eq!(
        refused(&client, "planning", json!({ "technicianId": w.karim })).await,
        refusal(
            422,
            &format!(
                "Technicien introuvable dans cette agence : « {} ».",
                w.karim
            )
        )
    );
    // This organization's technician cannot be given its call either.
    assert_eq!(
        refused(
            &client,
            "affecter_appel",
            json!({ "id": w.foreign_call, "technicianId": w.karim })
        )
        .await,
        refusal(
            422,
            &format!(
                "Technicien introuvable dans cette agence : « {} ».",
                w.karim
            )
        )
    );
    assert_eq!(nothing_changed(&w), before);
    client.cancel().await.expect("close");

    // Acting in an agency outside the token's scope: 403 before any tool.
    let response = w
        .server
        .client
        .post(w.server.url("/api/mcp"))
        .header("Authorization", format!("Bearer {}", w.other.admin_token))
        .header("X-Service-Agency", &w.org.agency_id)
        .header("Accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    w.server.stop().await;
}
