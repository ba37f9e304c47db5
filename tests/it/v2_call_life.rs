//! A breakdown call's life in the agency: POST /api/v2/calls/{id}/assign and
//! /status, checked against `domain::call::transition`, with the effects the
//! call center and the webhook outbox see. Calls are opened through the
//! call-center API; fixtures are written by the operations.

use crate::common;

use std::num::NonZeroU32;

use common::world::World as Fixtures;
use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::clock;
use liftdesk::domain::call::{self, CallStatus};
use serde_json::{Value, json};

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

struct World {
    server: TestServer,
    org: Org,
    center_key: String,
    equipment: String,
    alice: String,
    bruno: String,
    /// A technician of another organization.
    stranger: String,
    other: Org,
    counter: std::cell::Cell<u32>,
}

async fn technician(server: &TestServer, agency: &str, name: &str) -> String {
    Fixtures::in_agency(server, agency)
        .technician(name, None)
        .await
}

async fn world() -> World {
    // The whole transition table is a few hundred calls in a second.
    let limit = RateLimit {
        per_minute: NonZeroU32::new(100_000).expect("limit"),
        burst: NonZeroU32::new(10_000).expect("burst"),
    };
    let server = TestServer::start_with(tempfile::tempdir().expect("dir"), limit).await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let center_key = str_of(
        &server.cli_json(&[
            "call-center-key",
            "create",
            "--agency",
            &org.agency_id,
            "--name",
            "Astreinte Plus",
        ]),
        "key",
    )
    .to_owned();
    let equipment = Fixtures::in_agency(&server, &org.agency_id)
        .lift("ASC 7", None)
        .await;
    let alice = technician(&server, &org.agency_id, "Alice Martin").await;
    let bruno = technician(&server, &org.agency_id, "Bruno Petit").await;
    let stranger = technician(&server, &other.agency_id, "Xavier Ailleurs").await;
    World {
        server,
        org,
        center_key,
        equipment,
        alice,
        bruno,
        stranger,
        other,
        counter: std::cell::Cell::new(0),
    }
}

impl World {
    /// A fresh call opened by the call center; returns (id, reference).
    async fn open(&self) -> (String, String) {
        self.counter.set(self.counter.get() + 1);
        let reference = format!("CC-{}", self.counter.get());
        let response = self
            .server
            .client
            .post(self.server.url("/api/partners/calls"))
            .header("Authorization", format!("Bearer {}", self.center_key))
            .json(&json!({
                "reference": reference,
                "equipement": "asc7",
                "type": "panne",
                "description": "Appareil arrêté.",
            }))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 201);
        let body: Value = response.json().await.expect("json");
        (str_of(&body, "id").to_owned(), reference)
    }

    async fn post(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        let response = self
            .server
            .client
            .post(self.server.url(path))
            .header("Authorization", format!("Bearer {token}"))
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn assign(&self, call: &str, technician: &str) -> (u16, Value) {
        self.post(
            &format!("/api/v2/calls/{call}/assign"),
            &self.org.admin_token,
            json!({ "technicianId": technician }),
        )
        .await
    }

    async fn status(&self, call: &str, statut: &str) -> (u16, Value) {
        self.post(
            &format!("/api/v2/calls/{call}/status"),
            &self.org.admin_token,
            json!({ "statut": statut }),
        )
        .await
    }

    async fn read(&self, call: &str) -> Value {
        let (status, body) = self
            .server
            .get_with(
                &format!("/api/v2/calls/{call}"),
                Some(&self.org.admin_token),
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    async fn tracked(&self, reference: &str) -> Value {
        let response = self
            .server
            .client
            .get(self.server.url(&format!("/api/partners/calls/{reference}")))
            .header("Authorization", format!("Bearer {}", self.center_key))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 200);
        response.json().await.expect("json")
    }

    /// A fresh call, assigned to Alice, brought to `status` through the API.
    async fn call_in(&self, status: CallStatus) -> (String, String) {
        let (call, reference) = self.open().await;
        assert_eq!(self.assign(&call, &self.alice).await.0, 201);
        let path: &[&str] = match status {
            CallStatus::Ouverte => &[],
            CallStatus::EnRoute => &["en_route"],
            CallStatus::SurPlace => &["en_route", "sur_place"],
            CallStatus::ALArret => &["sur_place", "a_l_arret"],
            CallStatus::Resolue => &["resolue"],
        };
        for step in path {
            let (code, body) = self.status(&call, step).await;
            assert_eq!(code, 201, "{step}: {body}");
        }
        assert_eq!(self.read(&call).await["statut"], json!(status.as_str()));
        (call, reference)
    }

    fn db(&self) -> common::db::TestDb {
        open_db(self.server.data_dir.path())
    }

    fn closed_events(&self, call: &str) -> Vec<String> {
        let db = self.db();
        let mut stmt = db
            .prepare("SELECT body FROM outbox_events WHERE object_id = ?1 AND event = 'appel.clos' ORDER BY occurred_at")
            .expect("prepare");
        stmt.query_map([call], |r| r.get(0))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    }
}

#[tokio::test]
async fn every_transition_answers_as_the_domain_decides() {
    let w = world().await;
    for &from in CallStatus::ALL {
        for &to in CallStatus::ALL {
            let (call, reference) = w.call_in(from).await;
            let before = w.read(&call).await;
            let (status, body) = w.status(&call, to.as_str()).await;
            match call::transition(from, to) {
                Ok(change) => {
                    assert_eq!(status, 201, "{from:?} → {to:?}: {body}");
                    assert_eq!(keys_of(&body), ["id", "link", "ok", "url"]);
                    assert_eq!(body["id"], json!(call));
                    assert_eq!(body["ok"], json!(true));
                    assert_eq!(body["link"], json!(format!("/appels/{call}")));
                    assert_eq!(
                        body["url"],
                        json!(format!("{}/appels/{call}", w.server.base_url))
                    );
                    let after = w.read(&call).await;
                    assert_eq!(after["statut"], json!(to.as_str()));
                    assert_eq!(after["libelle"], json!(to.label()));
                    let tracked = w.tracked(&reference).await;
                    assert_eq!(tracked["statut"], json!(to.as_str()));
                    assert_eq!(tracked["libelle"], json!(to.label()));
                    assert_eq!(tracked["arriveLe"], after["arriveLe"]);
                    assert_eq!(tracked["resoluLe"], after["resoluLe"]);
                    if change.sets_arrived_at {
                        assert!(before["arriveLe"].is_null());
                        assert!(after["arriveLe"].is_string());
                    } else {
                        assert_eq!(after["arriveLe"], before["arriveLe"], "{from:?} → {to:?}");
                    }
                    if change.sets_resolved_at {
                        assert!(after["resoluLe"].is_string());
                    } else {
                        assert!(after["resoluLe"].is_null());
                    }
                    assert_eq!(
                        w.closed_events(&call).len(),
                        usize::from(change.emits_closed_event)
                    );
                }
                Err(refusal) => {
                    assert_eq!(status, 422, "{from:?} → {to:?}: {body}");
                    assert_eq!(body, json!({ "error": refusal.to_string() }));
                    assert_eq!(w.read(&call).await, before, "nothing changed");
                    assert_eq!(
                        w.closed_events(&call).len(),
                        usize::from(from == CallStatus::Resolue)
                    );
                }
            }
        }
    }
    w.server.stop().await;
}

#[tokio::test]
async fn a_technician_is_needed_to_set_off_or_be_on_site() {
    let w = world().await;
    let (call, _) = w.open().await;
    for target in ["en_route", "sur_place"] {
        let (status, body) = w.status(&call, target).await;
        assert_eq!(status, 422, "{body}");
        let to = CallStatus::parse(target).expect("status");
        let expected = call::transition(CallStatus::Ouverte, to)
            .expect("allowed")
            .check_technician(false)
            .expect_err("needs a technician")
            .to_string();
        assert_eq!(body, json!({ "error": expected }));
    }
    // Resolving needs nobody (the client called back: it restarted).
    assert_eq!(w.status(&call, "resolue").await.0, 201);
    assert_eq!(w.closed_events(&call).len(), 1);
}

#[tokio::test]
async fn status_body_and_scope_refusals() {
    let w = world().await;
    let (call, _) = w.open().await;
    let path = format!("/api/v2/calls/{call}/status");
    for (sent, expected) in [
        (json!({ "statut": "fermee" }), 422),
        (json!({ "statut": "Ouverte" }), 422),
        (json!({ "statut": 3 }), 422),
        (json!({}), 422),
        (json!({ "statut": "resolue", "x": 1 }), 422),
    ] {
        let (status, body) = w.post(&path, &w.org.admin_token, sent.clone()).await;
        assert_eq!(status, expected, "{sent} → {body}");
        assert!(str_of(&body, "error").contains("statut") || sent.get("x").is_some());
    }
    let response = w
        .server
        .client
        .post(w.server.url(&path))
        .header("Authorization", format!("Bearer {}", w.org.admin_token))
        .header("Content-Type", "application/json")
        .body("{\"statut\": ")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 400);
    let (status, _) = w
        .post(&path, "svc_agent_inconnu", json!({ "statut": "resolue" }))
        .await;
    assert_eq!(status, 401);
    // Another agency's call (and an unknown one): 404, nothing changed.
    let (status, body) = w
        .post(&path, &w.other.admin_token, json!({ "statut": "resolue" }))
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body, json!({ "error": "Appel introuvable." }));
    let (status, _) = w
        .post(
            &format!("/api/v2/calls/{call}/assign"),
            &w.other.admin_token,
            json!({ "technicianId": w.stranger }),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = w.status("inconnu", "resolue").await;
    assert_eq!(status, 404);
    let read = w.read(&call).await;
    assert_eq!(read["statut"], json!("ouverte"));
    assert!(read["technician"].is_null());
    assert!(w.closed_events(&call).is_empty());
}

#[tokio::test]
async fn assignment_rules() {
    let w = world().await;
    let (call, _) = w.open().await;
    let path = format!("/api/v2/calls/{call}/assign");
    let inactive = technician(&w.server, &w.org.agency_id, "Denis Parti").await;
    Fixtures::in_agency(&w.server, &w.org.agency_id)
        .deactivate_technician(&inactive)
        .await;
    for (sent, needle) in [
        (
            json!({ "technicianId": "inconnu" }),
            "Technicien introuvable",
        ),
        (
            json!({ "technicianId": w.stranger }),
            "Technicien introuvable",
        ),
        (
            json!({ "technicianId": inactive }),
            "Technicien introuvable",
        ),
        (json!({ "technicianId": "" }), "technicianId"),
        (json!({}), "technicianId"),
        (json!({ "technicianId": 12 }), "technicianId"),
        (
            json!({ "technicianId": w.alice, "technician": "Bruno Petit" }),
            "« technician »",
        ),
    ] {
        let (status, body) = w.post(&path, &w.org.admin_token, sent.clone()).await;
        assert_eq!(status, 422, "{sent} → {body}");
        assert!(str_of(&body, "error").contains(needle), "{sent} → {body}");
    }
    assert!(w.read(&call).await["technician"].is_null());

    // The confirmation name is compared ignoring case and outer spaces.
    let (status, body) = w
        .post(
            &path,
            &w.org.admin_token,
            json!({ "technicianId": w.alice, "technician": "  alice MARTIN " }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        body,
        json!({
            "id": call, "ok": true, "link": format!("/appels/{call}"),
            "url": format!("{}/appels/{call}", w.server.base_url),
        })
    );
    let read = w.read(&call).await;
    assert_eq!(
        read["statut"],
        json!("ouverte"),
        "assigning keeps the status"
    );
    assert_eq!(
        read["technician"],
        json!({ "id": w.alice, "name": "Alice Martin" })
    );
    let assigned_at: Option<String> = w
        .db()
        .query_row(
            "SELECT assigned_at FROM calls WHERE id = ?1",
            [&call],
            |r| r.get(0),
        )
        .expect("assigned_at");
    assert!(assigned_at.is_some());

    // Reassigning on the way, then resolved: no more assignment.
    assert_eq!(w.status(&call, "en_route").await.0, 201);
    assert_eq!(w.assign(&call, &w.bruno).await.0, 201);
    let read = w.read(&call).await;
    assert_eq!(read["statut"], json!("en_route"));
    assert_eq!(read["technician"]["id"], json!(w.bruno));
    assert_eq!(w.status(&call, "resolue").await.0, 201);
    let (status, body) = w.assign(&call, &w.alice).await;
    assert_eq!(status, 422);
    assert_eq!(
        body,
        json!({ "error": call::can_assign(CallStatus::Resolue).expect_err("refused").to_string() })
    );
    assert_eq!(w.read(&call).await["technician"]["id"], json!(w.bruno));

    // Every change is in the audit log, with the token that made it.
    let token_id: String = w
        .db()
        .query_row(
            "SELECT id FROM credentials WHERE kind = 'api_token' AND account_id = ?1",
            [&w.org.admin_id],
            |r| r.get(0),
        )
        .expect("token");
    let db = w.db();
    let mut stmt = db
        .prepare("SELECT action, actor_kind, actor_id FROM audit_log WHERE object_type = 'call' AND object_id = ?1 ORDER BY seq")
        .expect("prepare");
    let entries: Vec<(String, String, Option<String>)> = stmt
        .query_map([&call], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let actions: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        actions,
        [
            "ouverture",
            "affectation",
            "changement_statut",
            "affectation",
            "changement_statut"
        ]
    );
    for entry in &entries[1..] {
        assert_eq!(entry.1, "api_token");
        assert_eq!(entry.2.as_deref(), Some(token_id.as_str()));
    }
    assert_eq!(entries[0].1, "call_center_key");
}

#[tokio::test]
async fn arrival_and_resolution_are_set_once_and_closing_is_queued_once() {
    let w = world().await;
    let (call, reference) = w.open().await;
    assert_eq!(w.assign(&call, &w.alice).await.0, 201);
    assert_eq!(w.status(&call, "en_route").await.0, 201);
    let tracked = w.tracked(&reference).await;
    assert!(tracked["arriveLe"].is_null() && tracked["resoluLe"].is_null());

    assert_eq!(w.status(&call, "sur_place").await.0, 201);
    let arrived = w.tracked(&reference).await["arriveLe"].clone();
    let arrived_text = arrived.as_str().expect("arriveLe set").to_owned();
    assert!(clock::parse_timestamp(&arrived_text).is_some());
    assert!(arrived_text.ends_with('Z'));

    // Left stopped, back on site: the first arrival stays.
    std::thread::sleep(std::time::Duration::from_millis(5));
    assert_eq!(w.status(&call, "a_l_arret").await.0, 201);
    assert_eq!(w.status(&call, "sur_place").await.0, 201);
    assert_eq!(w.tracked(&reference).await["arriveLe"], arrived);
    assert_eq!(w.status(&call, "en_route").await.0, 422);
    assert_eq!(w.status(&call, "ouverte").await.0, 422);

    assert_eq!(w.status(&call, "resolue").await.0, 201);
    let tracked = w.tracked(&reference).await;
    assert_eq!(
        keys_of(&tracked),
        [
            "arriveLe",
            "id",
            "libelle",
            "reference",
            "resoluLe",
            "statut"
        ]
    );
    assert_eq!(tracked["statut"], json!("resolue"));
    assert_eq!(tracked["libelle"], json!("Résolue"));
    assert_eq!(tracked["arriveLe"], arrived);
    let resolved = tracked["resoluLe"].as_str().expect("resoluLe").to_owned();
    assert!(resolved >= arrived_text);

    // Resolved is final: nothing moves, no second event.
    std::thread::sleep(std::time::Duration::from_millis(5));
    for target in ["resolue", "sur_place", "ouverte", "a_l_arret", "en_route"] {
        let (status, body) = w.status(&call, target).await;
        assert_eq!(status, 422, "{target}: {body}");
    }
    let tracked = w.tracked(&reference).await;
    assert_eq!(tracked["resoluLe"], json!(resolved));
    assert_eq!(tracked["arriveLe"], arrived);

    let events = w.closed_events(&call);
    assert_eq!(events.len(), 1);
    assert_eq!(
        events[0],
        format!(
            r#"{{"event":"appel.clos","id":"{call}","agency":"{}","equipment":"{}","status":"resolue","occurredAt":"{resolved}"}}"#,
            w.org.agency_id, w.equipment
        )
    );
    let row: (String, String, Option<String>, Option<String>) = w
        .db()
        .query_row(
            "SELECT agency_id, event, equipment_id, status FROM outbox_events WHERE object_id = ?1",
            [&call],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("outbox row");
    assert_eq!(
        row,
        (
            w.org.agency_id.clone(),
            "appel.clos".to_owned(),
            Some(w.equipment.clone()),
            Some("resolue".to_owned())
        )
    );
}

#[tokio::test]
async fn open_calls_of_a_technician_follow_assignment_and_resolution() {
    let w = world().await;
    let open_calls = |technician: String| {
        let w = &w;
        async move {
            let (status, body) = w
                .server
                .get_with("/api/v2/technicians", Some(&w.org.admin_token), None)
                .await;
            assert_eq!(status, 200, "{body}");
            let rows = body.as_array().expect("array");
            let row = rows
                .iter()
                .find(|r| r["id"] == json!(technician))
                .expect("technician row");
            row["openCalls"].as_i64().expect("openCalls")
        }
    };
    assert_eq!(open_calls(w.alice.clone()).await, 0);
    let (first, _) = w.open().await;
    let (second, _) = w.open().await;
    assert_eq!(w.assign(&first, &w.alice).await.0, 201);
    assert_eq!(open_calls(w.alice.clone()).await, 1);
    assert_eq!(w.assign(&second, &w.alice).await.0, 201);
    assert_eq!(w.status(&second, "sur_place").await.0, 201);
    assert_eq!(w.status(&second, "a_l_arret").await.0, 201);
    assert_eq!(open_calls(w.alice.clone()).await, 2);
    // Handed over to Bruno.
    assert_eq!(w.assign(&first, &w.bruno).await.0, 201);
    assert_eq!(open_calls(w.alice.clone()).await, 1);
    assert_eq!(open_calls(w.bruno.clone()).await, 1);
    assert_eq!(w.status(&second, "resolue").await.0, 201);
    assert_eq!(open_calls(w.alice.clone()).await, 0);
    assert_eq!(w.status(&first, "resolue").await.0, 201);
    assert_eq!(open_calls(w.bruno.clone()).await, 0);
}

#[tokio::test]
async fn the_life_operations_are_described_and_the_call_center_api_is_not() {
    let w = world().await;
    let (status, doc) = w.server.get_with("/api/v2/openapi.json", None, None).await;
    assert_eq!(status, 200);
    for path in ["/calls/{id}/assign", "/calls/{id}/status"] {
        let operation = &doc["paths"][path]["post"];
        assert!(operation.is_object(), "{path} missing");
        let mut statuses: Vec<&str> = operation["responses"]
            .as_object()
            .expect("responses")
            .keys()
            .map(String::as_str)
            .collect();
        statuses.sort_unstable();
        for expected in ["201", "400", "401", "404", "422", "429"] {
            assert!(statuses.contains(&expected), "{path}: {statuses:?}");
        }
        assert!(operation["requestBody"].is_object(), "{path}");
    }
    let paths: Vec<&String> = doc["paths"].as_object().expect("paths").keys().collect();
    assert!(paths.iter().all(|p| !p.contains("partners")), "{paths:?}");
}
