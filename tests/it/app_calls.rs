//! The breakdown calls screen's API (`/app/api/calls…`): the board, a call's
//! detail with its timeline and technician choices, assignment (absent and
//! resting technicians refused, also over the REST API v2), status changes,
//! a call taken by hand, the equipment search, and the live feed (Server-Sent
//! Events) receiving a call opened through the call-center API.

use crate::common;

use std::time::Duration;

use chrono::Utc;
use common::app::StaffClient;
use common::world::World as Fixtures;
use common::*;
use liftdesk::clock;
use liftdesk::services::calls::CenterCallInput;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

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
    other: Org,
    other_key: String,
    /// On standby now.
    olivier: String,
    /// Available, not on standby.
    alice: String,
    /// Absent today.
    bruno: String,
    /// In his safety rest after a standby that ended an hour ago.
    remi: String,
    counter: std::cell::Cell<u32>,
}

/// A lift of the Résidence Les Tilleuls (a building of its own).
async fn tilleuls_lift(fixtures: &Fixtures, number: &str) -> String {
    let building = fixtures
        .building(
            Some("Résidence Les Tilleuls"),
            "3 rue Émile Zola",
            Some("92300"),
            Some("Levallois-Perret"),
        )
        .await;
    fixtures.lift(number, Some(&building)).await
}

fn new_center_key(server: &TestServer, agency: &str, name: &str) -> String {
    str_of(
        &server.cli_json(&[
            "call-center-key",
            "create",
            "--agency",
            agency,
            "--name",
            name,
        ]),
        "key",
    )
    .to_owned()
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let center_key = new_center_key(&server, &org.agency_id, "Astreinte Plus");
    let other_key = new_center_key(&server, &other.agency_id, "Ailleurs Secours");
    let fixtures = Fixtures::in_agency(&server, &org.agency_id);
    tilleuls_lift(&fixtures, "ASC 7").await;
    tilleuls_lift(&fixtures, "ASC 8").await;
    tilleuls_lift(&Fixtures::in_agency(&server, &other.agency_id), "ASC 7").await;
    let olivier = fixtures
        .technician("Olivier Garde", Some("Levallois"))
        .await;
    let alice = fixtures.technician("Alice Martin", Some("Levallois")).await;
    let bruno = fixtures.technician("Bruno Petit", Some("Levallois")).await;
    let remi = fixtures.technician("Rémi Repos", Some("Levallois")).await;
    let now = Utc::now();
    let hours = |hours: i64| now + chrono::Duration::hours(hours);
    // Olivier is on standby now; Rémi's standby ended an hour ago (written
    // after Olivier's, it takes the hour before from him).
    fixtures.on_call(&olivier, hours(-2), hours(10)).await;
    fixtures.on_call(&remi, hours(-20), hours(-1)).await;
    let day = |days: i64| (now + chrono::Duration::days(days)).date_naive();
    fixtures.absence(&bruno, day(-1), day(3), "Congés").await;
    World {
        server,
        org,
        center_key,
        other,
        other_key,
        olivier,
        alice,
        bruno,
        remi,
        counter: std::cell::Cell::new(0),
    }
}

impl World {
    async fn staff(&self) -> StaffClient {
        StaffClient::sign_in(&self.server, &self.org.admin_email, PASSWORD).await
    }

    /// Opens a call through the call-center API with `key`; returns its id.
    async fn open_with(&self, key: &str, call_type: &str) -> String {
        self.counter.set(self.counter.get() + 1);
        let response = self
            .server
            .client
            .post(self.server.url("/api/partners/calls"))
            .header("Authorization", format!("Bearer {key}"))
            .json(&json!({
                "reference": format!("CC-{}", self.counter.get()),
                "equipement": "asc7",
                "type": call_type,
                "description": "Cabine bloquée entre deux étages.",
                "appelant": "Mme Benali",
            }))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 201);
        let body: Value = response.json().await.expect("json");
        str_of(&body, "id").to_owned()
    }

    async fn open(&self, call_type: &str) -> String {
        self.open_with(&self.center_key, call_type).await
    }
}

fn column<'a>(board: &'a Value, status: &str) -> &'a Value {
    board["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .find(|c| c["statut"] == status)
        .unwrap_or_else(|| panic!("column {status} missing in {board}"))
}

fn ids(page: &Value) -> Vec<&str> {
    page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect()
}

#[tokio::test]
async fn the_board_has_five_columns_longest_wait_first_and_recent_resolved_calls_only() {
    let w = world().await;
    let staff = w.staff().await;
    let first = w.open("panne").await;
    let second = w.open("bruit").await;
    let trapped = w.open("personne_bloquee").await;
    let third = w.open("panne").await;
    // An old resolved call (resolved two days ago) stays off the board.
    w.counter.set(w.counter.get() + 1);
    let fixtures = Fixtures::in_agency(&w.server, &w.org.agency_id);
    let two_days_ago = Utc::now() - chrono::Duration::hours(48);
    let old = fixtures
        .call_at(
            &w.center_key,
            CenterCallInput {
                reference: format!("CC-{}", w.counter.get()),
                equipment: "asc7".to_owned(),
                call_type: "panne".to_owned(),
                description: "Cabine bloquée entre deux étages.".to_owned(),
                caller: Some("Mme Benali".to_owned()),
                received_at: None,
            },
            two_days_ago - chrono::Duration::hours(1),
        )
        .await;
    fixtures.move_call_at(&old, "resolue", two_days_ago).await;
    let (status, _) = staff
        .post(
            &format!("/calls/{first}/status"),
            json!({"statut": "resolue", "report": {"cause": "Fusible", "work": "Fusible remplacé"}}),
        )
        .await;
    assert_eq!(status, 201);

    let (status, board) = staff.get("/calls/board").await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(keys_of(&board), ["columns", "resolvedSinceHours"]);
    assert_eq!(board["resolvedSinceHours"], 24);
    let statuses: Vec<&str> = board["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["statut"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["ouverte", "en_route", "sur_place", "a_l_arret", "resolue"]
    );
    let open = column(&board, "ouverte");
    assert_eq!(
        keys_of(open),
        ["libelle", "limit", "page", "results", "statut", "total"]
    );
    assert_eq!(open["libelle"], "Ouverte");
    assert_eq!(open["total"], 3);
    assert_eq!(open["limit"], 20);
    // The trapped person first, then the longest wait.
    assert_eq!(
        ids(open),
        [trapped.as_str(), second.as_str(), third.as_str()]
    );
    assert_eq!(open["results"][0]["urgence"], true);
    assert_eq!(open["results"][0]["type"], "personne_bloquee");
    assert_eq!(open["results"][0]["building"], "Résidence Les Tilleuls");
    assert_eq!(
        open["results"][0]["address"],
        "3 rue Émile Zola, 92300 Levallois-Perret"
    );
    let resolved = column(&board, "resolue");
    assert_eq!(resolved["total"], 1);
    assert_eq!(ids(resolved), [first.as_str()]);

    // One column, paged: the order holds across pages (the oldest call
    // waiting is on the first page, not at the end of the last).
    let (status, page) = staff.get("/calls?statut=ouverte&limit=1&page=2").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        (page["total"].clone(), page["page"].clone()),
        (json!(3), json!(2))
    );
    assert_eq!(ids(&page), [second.as_str()]);
    let (_, page) = staff.get("/calls?statut=ouverte&limit=1&page=3").await;
    assert_eq!(ids(&page), [third.as_str()]);
    let (status, body) = staff.get("/calls?statut=fermee").await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le paramètre « statut » doit valoir ouverte, en_route, sur_place, a_l_arret, resolue (reçu : « fermee »)."
    );
    let (status, body) = staff.get("/calls/board?limit=51").await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le paramètre « limit » doit être compris entre 1 et 50."
    );
}

#[tokio::test]
async fn the_detail_offers_available_technicians_and_the_next_statuses() {
    let w = world().await;
    let staff = w.staff().await;
    let call = w.open("personne_bloquee").await;
    let (status, detail) = staff.get(&format!("/calls/{call}")).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(
        keys_of(&detail),
        [
            "acknowledgedAt",
            "address",
            "building",
            "buildingId",
            "call",
            "nextStatuses",
            "report",
            "technicians",
            "timeline",
            "typeLabel"
        ]
    );
    assert!(detail["buildingId"].is_string(), "{detail}");
    assert_eq!(detail["report"], Value::Null);
    assert_eq!(detail["acknowledgedAt"], Value::Null);
    assert_eq!(detail["typeLabel"], "Personne bloquée");
    assert_eq!(detail["call"]["id"], call.as_str());
    assert_eq!(detail["call"]["statut"], "ouverte");
    assert_eq!(detail["call"]["center"]["name"], "Astreinte Plus");
    assert_eq!(detail["building"], "Résidence Les Tilleuls");
    // Without a technician, only « résolue » (the client called back).
    assert_eq!(
        detail["nextStatuses"],
        json!([{"statut": "resolue", "libelle": "Résolue"}])
    );
    let choices = detail["technicians"]["choices"].as_array().unwrap();
    let names: Vec<&str> = choices
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Olivier Garde", "Alice Martin"]);
    assert_eq!(choices[0]["suggested"], true);
    assert_eq!(choices[0]["onCall"], true);
    assert_eq!(choices[0]["id"], w.olivier.as_str());
    assert_eq!(choices[1]["suggested"], false);
    assert_eq!(
        keys_of(&choices[0]),
        ["id", "name", "onCall", "openCalls", "sectors", "suggested"]
    );
    let unavailable = detail["technicians"]["unavailable"].as_array().unwrap();
    let names: Vec<&str> = unavailable
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bruno Petit", "Rémi Repos"]);
    let reason = unavailable[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("Bruno Petit est absent jusqu'au ")
            && reason.ends_with(" inclus : choisissez un autre technicien."),
        "{reason}"
    );
    let reason = unavailable[1]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("Rémi Repos est en repos de sécurité après son astreinte jusqu'au "),
        "{reason}"
    );

    let timeline = detail["timeline"].as_array().unwrap();
    assert_eq!(timeline.len(), 1);
    assert_eq!(
        keys_of(&timeline[0]),
        ["at", "by", "label", "step", "technician"]
    );
    assert_eq!(timeline[0]["step"], "recu");
    assert_eq!(timeline[0]["label"], "Appel reçu");
    assert_eq!(
        timeline[0]["by"],
        json!({"kind": "centre", "name": "Astreinte Plus"})
    );
}

#[tokio::test]
async fn assigning_and_moving_a_call_fills_its_timeline_with_who_did_it() {
    let w = world().await;
    let staff = w.staff().await;
    let call = w.open("panne").await;

    // Absent and resting technicians are refused, here and over REST.
    let (status, body) = staff
        .post(
            &format!("/calls/{call}/assign"),
            json!({"technicianId": w.bruno}),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("Bruno Petit est absent jusqu'au "),
        "{error}"
    );
    let response = w
        .server
        .client
        .post(w.server.url(&format!("/api/v2/calls/{call}/assign")))
        .header("Authorization", format!("Bearer {}", w.org.admin_token))
        .json(&json!({"technicianId": w.remi}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 422);
    let body: Value = response.json().await.expect("json");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("Rémi Repos est en repos de sécurité après son astreinte jusqu'au ")
            && error.ends_with(" : choisissez un autre technicien."),
        "{error}"
    );
    let (_, detail) = staff.get(&format!("/calls/{call}")).await;
    assert_eq!(detail["call"]["technician"], Value::Null);

    // Assigned by the staff member, then by the REST token, then moved.
    let (status, body) = staff
        .post(
            &format!("/calls/{call}/assign"),
            json!({"technicianId": w.alice}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["ok"], true);
    assert_eq!(body["link"], format!("/appels/{call}"));
    let response = w
        .server
        .client
        .post(w.server.url(&format!("/api/v2/calls/{call}/assign")))
        .header("Authorization", format!("Bearer {}", w.org.admin_token))
        .json(&json!({"technicianId": w.olivier}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 201);
    let (_, detail) = staff.get(&format!("/calls/{call}")).await;
    assert_eq!(
        detail["nextStatuses"],
        json!([
            {"statut": "en_route", "libelle": "Technicien en route"},
            {"statut": "sur_place", "libelle": "Technicien sur place"},
            {"statut": "resolue", "libelle": "Résolue"},
        ])
    );
    for (target, next) in [
        ("en_route", vec!["ouverte", "sur_place", "resolue"]),
        ("sur_place", vec!["a_l_arret", "resolue"]),
        ("a_l_arret", vec!["sur_place", "resolue"]),
        ("sur_place", vec!["a_l_arret", "resolue"]),
        ("resolue", vec![]),
    ] {
        let body = if target == "resolue" {
            json!({"statut": target, "report": {"cause": "Contacteur", "work": "Contacteur changé"}})
        } else {
            json!({"statut": target})
        };
        let (status, body) = staff.post(&format!("/calls/{call}/status"), body).await;
        assert_eq!(status, 201, "{target}: {body}");
        let (_, detail) = staff.get(&format!("/calls/{call}")).await;
        assert_eq!(detail["call"]["statut"], target);
        let offered: Vec<&str> = detail["nextStatuses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["statut"].as_str().unwrap())
            .collect();
        assert_eq!(offered, next, "after {target}");
    }
    // A refused move: the domain's French reason.
    let (status, body) = staff
        .post(
            &format!("/calls/{call}/status"),
            json!({"statut": "ouverte"}),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Transition refusée : un appel ne peut pas passer de « Résolue » à « Ouverte » : un appel résolu ne peut plus changer de statut ; si la panne revient, ouvrez un nouvel appel."
    );

    let (_, detail) = staff.get(&format!("/calls/{call}")).await;
    let steps: Vec<(&str, &str, &str)> = detail["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["step"].as_str().unwrap(),
                e["label"].as_str().unwrap(),
                e["by"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            ("recu", "Appel reçu", "Astreinte Plus"),
            ("affecte", "Affecté à Alice Martin", "Admin Durand"),
            (
                "affecte",
                "Affecté à Olivier Garde",
                "Jeton d'API « tests » de Admin Durand"
            ),
            ("en_route", "Technicien en route", "Admin Durand"),
            ("sur_place", "Technicien sur place", "Admin Durand"),
            ("a_l_arret", "Appareil laissé à l'arrêt", "Admin Durand"),
            ("sur_place", "Technicien sur place", "Admin Durand"),
            ("resolue", "Résolu : remis en service", "Admin Durand"),
        ]
    );
    assert_eq!(detail["timeline"][1]["by"]["kind"], "personnel");
    assert_eq!(detail["timeline"][2]["by"]["kind"], "jeton");
    // `appel.clos` queued once.
    let events: i64 = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT count(*) FROM outbox_events WHERE object_id = ?1 AND event = 'appel.clos'",
            [&call],
            |r| r.get(0),
        )
        .expect("outbox");
    assert_eq!(events, 1);
}

#[tokio::test]
async fn a_call_taken_by_hand_is_numbered_by_the_agency_and_checked_like_the_call_centers() {
    let w = world().await;
    let staff = w.staff().await;
    let year = clock::paris_local(Utc::now()).format("%Y").to_string();
    let body = json!({
        "equipement": " asc 8 ",
        "type": "personne_bloquee",
        "description": "  Deux personnes bloquées au 4e.  ",
        "appelant": "Gardien",
    });
    let (status, created) = staff.post("/calls", body.clone()).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        keys_of(&created),
        ["id", "libelle", "link", "reference", "statut"]
    );
    assert_eq!(created["reference"], format!("AG-{year}-00001"));
    assert_eq!(created["statut"], "ouverte");
    assert_eq!(created["libelle"], "Ouverte");
    let call = str_of(&created, "id").to_owned();
    assert_eq!(created["link"], format!("/appels/{call}"));
    let (status, again) = staff.post("/calls", body).await;
    assert_eq!(status, 201);
    assert_eq!(again["reference"], format!("AG-{year}-00002"));

    let (_, detail) = staff.get(&format!("/calls/{call}")).await;
    assert_eq!(detail["call"]["center"], Value::Null);
    assert_eq!(detail["call"]["equipment"]["number"], "ASC 8");
    assert_eq!(
        detail["call"]["description"],
        "Deux personnes bloquées au 4e."
    );
    assert_eq!(detail["call"]["appelant"], "Gardien");
    assert_eq!(detail["call"]["urgence"], true);
    assert_eq!(
        detail["timeline"][0]["by"],
        json!({"kind": "personnel", "name": "Admin Durand"})
    );
    let center: Option<String> = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT call_center_id FROM calls WHERE id = ?1",
            [&call],
            |r| r.get(0),
        )
        .expect("call");
    assert_eq!(center, None);

    for (body, message) in [
        (
            json!({"equipement": "", "type": "panne", "description": "Bloqué"}),
            "Indiquez l'appareil de l'appel : choisissez-le (« equipmentId ») ou donnez son numéro dans le parc (« equipement »).",
        ),
        (
            json!({"equipement": "ASC 99", "type": "panne", "description": "Bloqué"}),
            "Le champ « equipement » ne correspond à aucun appareil du parc de l'agence : « ASC 99 ».",
        ),
        (
            json!({"equipement": "ASC 7", "type": "incendie", "description": "Bloqué"}),
            "Le champ « type » doit valoir personne_bloquee, panne, vandalisme, bruit (reçu : « incendie »).",
        ),
        (
            json!({"equipement": "ASC 7", "type": "panne", "description": "ok"}),
            "Le champ « description » doit compter de 3 à 1000 caractères (reçu : 2 caractères).",
        ),
        (
            json!({"equipement": "ASC 7", "type": "panne", "description": "Bloqué", "appelant": "x".repeat(121)}),
            "Le champ « appelant » doit compter au plus 120 caractères (reçu : 121 caractères).",
        ),
    ] {
        let (status, answer) = staff.post("/calls", body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(answer["error"], message, "{body}");
    }
    let (status, answer) = staff
        .post("/calls", json!({"type": "panne", "description": "Bloqué"}))
        .await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("equipement"),
        "{answer}"
    );
    // The other organization's equipment of the same number is not ours.
    let count: i64 = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT count(*) FROM calls WHERE agency_id = ?1",
            [&w.other.agency_id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(count, 0);

    // Without the CSRF header: refused.
    let response = staff
        .http
        .post(format!("{}/app/api/calls", staff.base))
        .json(&json!({"equipement": "ASC 7", "type": "panne", "description": "Bloqué"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);

    // The equipment search of the dialog.
    let (status, found) = staff.get("/calls/equipment?q=asc").await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["total"], 2);
    let numbers: Vec<&str> = found["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["number"].as_str().unwrap())
        .collect();
    assert_eq!(numbers, ["ASC 7", "ASC 8"]);
    assert_eq!(
        keys_of(&found["results"][0]),
        ["address", "building", "id", "number"]
    );
    let (status, found) = staff.get("/calls/equipment?q=tilleuls%208").await;
    assert_eq!(status, 200);
    assert_eq!(found["total"], 1);
    assert_eq!(found["results"][0]["number"], "ASC 8");
    // By number, spaces and case ignored; empty: the first ones by number.
    let (_, found) = staff.get("/calls/equipment?q=asc%207").await;
    assert_eq!(found["total"], 1);
    assert_eq!(found["results"][0]["number"], "ASC 7");
    assert_eq!(found["results"][0]["building"], "Résidence Les Tilleuls");
    let (_, found) = staff.get("/calls/equipment?q=").await;
    assert_eq!(found["total"], 2);
    let (_, found) = staff.get("/calls/equipment?q=zola").await;
    assert_eq!(found["total"], 2);
    let (_, found) = staff.get("/calls/equipment?q=xyz").await;
    assert_eq!(found["total"], 0);
}

#[tokio::test]
async fn another_agencys_call_is_not_found_and_a_session_is_needed() {
    let w = world().await;
    let staff = w.staff().await;
    let foreign = w.open_with(&w.other_key, "panne").await;
    for (status, body) in [
        staff.get(&format!("/calls/{foreign}")).await,
        staff
            .post(
                &format!("/calls/{foreign}/assign"),
                json!({"technicianId": w.alice}),
            )
            .await,
        staff
            .post(
                &format!("/calls/{foreign}/status"),
                json!({"statut": "resolue"}),
            )
            .await,
    ] {
        assert_eq!(status, 404, "{body}");
        assert_eq!(body["error"], "Appel introuvable.");
    }
    let (_, board) = staff.get("/calls/board").await;
    assert_eq!(column(&board, "ouverte")["total"], 0);

    // An API token does not open the web application's API.
    for path in ["/app/api/calls/board", "/app/api/calls/events"] {
        let response = w
            .server
            .client
            .get(w.server.url(path))
            .header("Authorization", format!("Bearer {}", w.org.admin_token))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 401, "{path}");
    }
}

/// Reads the stream until an event named `name`; returns its data.
async fn next_event(response: &mut reqwest::Response, buffer: &mut String, name: &str) -> Value {
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let mut event = "message";
            let mut data = String::new();
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("event:") {
                    event = value.trim();
                } else if let Some(value) = line.strip_prefix("data:") {
                    data.push_str(value.trim_start());
                }
            }
            if event == name {
                return serde_json::from_str(&data).expect("event json");
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .unwrap_or_else(|_| panic!("no event « {name} » within 10 s; read: {buffer}"))
            .expect("stream")
            .unwrap_or_else(|| panic!("stream ended before « {name} »"));
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[tokio::test]
async fn the_live_feed_receives_a_call_from_the_call_center_api_of_its_own_agency_only() {
    let w = world().await;
    let staff = w.staff().await;
    let mut response = staff
        .http
        .get(format!("{}/app/api/calls/events", staff.base))
        .send()
        .await
        .expect("events");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let mut buffer = String::new();
    assert_eq!(
        next_event(&mut response, &mut buffer, "pret").await,
        json!({})
    );

    // Another organization's call first: not received.
    w.open_with(&w.other_key, "personne_bloquee").await;
    let call = w.open("personne_bloquee").await;
    let event = next_event(&mut response, &mut buffer, "appel").await;
    assert_eq!(
        event,
        json!({
            "change": "ouvert",
            "id": call,
            "reference": format!("CC-{}", w.counter.get()),
            "statut": "ouverte",
            "type": "personne_bloquee",
            "urgence": true,
        })
    );
    // Its alert taken into account on one workstation: every other one
    // hears it at once and drops its banner.
    let (status, _) = staff
        .post(&format!("/calls/{call}/acknowledge"), json!({}))
        .await;
    assert_eq!(status, 200);
    let event = next_event(&mut response, &mut buffer, "appel").await;
    assert_eq!(
        (
            event["change"].clone(),
            event["id"].clone(),
            event["urgence"].clone()
        ),
        (json!("prise_en_compte"), json!(call), json!(true))
    );
    // An assignment and a status change follow.
    let (status, _) = staff
        .post(
            &format!("/calls/{call}/assign"),
            json!({"technicianId": w.olivier}),
        )
        .await;
    assert_eq!(status, 201);
    let event = next_event(&mut response, &mut buffer, "appel").await;
    assert_eq!(
        (event["change"].clone(), event["id"].clone()),
        (json!("affecte"), json!(call))
    );
    let (status, _) = staff
        .post(
            &format!("/calls/{call}/status"),
            json!({"statut": "en_route"}),
        )
        .await;
    assert_eq!(status, 201);
    let event = next_event(&mut response, &mut buffer, "appel").await;
    assert_eq!(event["change"], "statut");
    assert_eq!(event["statut"], "en_route");
    // A call taken by hand too.
    let (status, created) = staff
        .post(
            "/calls",
            json!({"equipement": "ASC 8", "type": "bruit", "description": "Grincement"}),
        )
        .await;
    assert_eq!(status, 201);
    let event = next_event(&mut response, &mut buffer, "appel").await;
    assert_eq!(event["id"], created["id"]);
    assert_eq!(event["urgence"], false);
    assert!(!buffer.contains(&w.other.agency_id));

    // The server stops promptly even with a stream open, and the stream ends.
    tokio::time::timeout(Duration::from_secs(10), w.server.stop())
        .await
        .expect("graceful shutdown waited for the live stream");
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        while let Ok(Some(_)) = response.chunk().await {}
    })
    .await;
    assert!(end.is_ok(), "the stream stayed open after the shutdown");
}

/// Closing a call from the screens asks for its report (cause, work done,
/// parts replaced, back in service), which the lift's logbook prints instead
/// of the caller's words; a trapped-person alert stays until someone takes
/// it into account.
#[tokio::test]
async fn closing_writes_a_report_and_an_alert_waits_for_its_acknowledgement() {
    let w = world().await;
    let staff = w.staff().await;
    let trapped = w.open("personne_bloquee").await;
    let breakdown = w.open("panne").await;

    // The alert: listed until taken into account, and survives any reload.
    let (status, alerts) = staff.get("/calls/alerts").await;
    assert_eq!(status, 200, "{alerts}");
    let listed: Vec<&str> = alerts
        .as_array()
        .expect("alerts")
        .iter()
        .map(|a| str_of(a, "id"))
        .collect();
    assert_eq!(listed, [trapped.as_str()]);
    assert_eq!(alerts[0]["number"], json!("ASC 7"));
    let (status, answer) = staff
        .post(&format!("/calls/{breakdown}/acknowledge"), json!({}))
        .await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Seule l'alerte d'une personne bloquée se prend en compte." })
        )
    );
    let (status, _) = staff
        .post(&format!("/calls/{trapped}/acknowledge"), json!({}))
        .await;
    assert_eq!(status, 200);
    let (status, _) = staff
        .post(&format!("/calls/{trapped}/acknowledge"), json!({}))
        .await;
    assert_eq!(status, 200, "once is enough, twice changes nothing");
    let (_, alerts) = staff.get("/calls/alerts").await;
    assert_eq!(alerts, json!([]));
    let (_, detail) = staff.get(&format!("/calls/{trapped}")).await;
    assert!(detail["acknowledgedAt"].is_string(), "{detail}");
    let acknowledgements: i64 = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT COUNT(*) FROM audit_log WHERE action = 'prise_en_compte' AND object_id = ?1",
            [&trapped],
            |r| r.get(0),
        )
        .expect("audit");
    assert_eq!(acknowledgements, 1);

    // Closing without the report is refused, nothing changes.
    let assign = staff
        .post(
            &format!("/calls/{breakdown}/assign"),
            json!({"technicianId": w.alice}),
        )
        .await;
    assert_eq!(assign.0, 201, "{}", assign.1);
    let path = format!("/calls/{breakdown}/status");
    let received = Utc::now() - chrono::Duration::minutes(1);
    let future = clock::paris_local(Utc::now() + chrono::Duration::hours(2))
        .format("%Y-%m-%dT%H:%M")
        .to_string();
    let before = clock::paris_local(received - chrono::Duration::hours(3))
        .format("%Y-%m-%dT%H:%M")
        .to_string();
    for (body, message) in [
        (
            json!({"statut": "resolue"}),
            "Pour clore l'appel, indiquez la cause de la panne.",
        ),
        (
            json!({"statut": "resolue", "report": {"cause": "Câble", "work": " "}}),
            "Pour clore l'appel, indiquez les travaux effectués.",
        ),
        (
            json!({"statut": "resolue", "report": {"cause": "Câble", "work": "Changé", "backInServiceAt": future}}),
            "La remise en service ne peut pas être dans le futur.",
        ),
        (
            json!({"statut": "resolue", "report": {"cause": "Câble", "work": "Changé", "backInServiceAt": before}}),
            "La remise en service ne peut pas précéder l'appel.",
        ),
        (
            json!({"statut": "en_route", "report": {"cause": "Câble", "work": "Changé"}}),
            "Un rapport d'intervention ne s'écrit qu'à la clôture de l'appel (statut « Résolu »).",
        ),
    ] {
        let (status, answer) = staff.post(&path, body.clone()).await;
        assert_eq!(
            (status, answer),
            (422, json!({ "error": message })),
            "{body}"
        );
    }
    let (_, detail) = staff.get(&format!("/calls/{breakdown}")).await;
    assert_eq!(detail["call"]["statut"], json!("ouverte"), "{detail}");
    assert_eq!(detail["report"], Value::Null);

    // With the report: closed, the report kept and printed in the logbook.
    let (status, answer) = staff
        .post(
            &path,
            json!({"statut": "resolue", "report": {
                "cause": "Câble de porte usé", "work": "Câble remplacé, porte réglée",
                "parts": "Câble de porte palière"
            }}),
        )
        .await;
    assert_eq!(status, 201, "{answer}");
    let (_, detail) = staff.get(&format!("/calls/{breakdown}")).await;
    assert_eq!(detail["call"]["statut"], json!("resolue"));
    assert_eq!(detail["report"]["cause"], json!("Câble de porte usé"));
    assert_eq!(detail["report"]["parts"], json!("Câble de porte palière"));
    assert!(detail["report"]["backInServiceAt"].is_string(), "{detail}");
    let lift: String = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT equipment_id FROM calls WHERE id = ?1",
            [&breakdown],
            |r| r.get(0),
        )
        .expect("lift");
    let (status, logbook) = staff.get(&format!("/equipment/{lift}/logbook")).await;
    assert_eq!(status, 200, "{logbook}");
    let entry = logbook["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["id"] == json!(breakdown))
        .expect("logbook entry")
        .clone();
    assert_eq!(
        entry["work"],
        json!(
            "Cause : Câble de porte usé. Travaux : Câble remplacé, porte réglée. Pièces remplacées : Câble de porte palière."
        )
    );
    assert!(
        str_of(&entry, "outcome").contains(", remis en service le "),
        "{entry}"
    );
    assert!(
        !entry
            .to_string()
            .contains("Cabine bloquée entre deux étages."),
        "{entry}"
    );
    // A resolved call's alert is closed.
    let (status, _) = staff
        .post(&format!("/calls/{breakdown}/acknowledge"), json!({}))
        .await;
    assert_eq!(status, 422);
    w.server.stop().await;
}

/// `GET /app/api/calls/notices`: what a desktop connected to the agency's
/// server shows as system notifications, read from the database: the calls
/// call centers opened in the session's agency since the cursor, oldest
/// first, with the embedded server's French wording; none from another
/// agency, nor a call taken at the agency; a bad cursor refused.
#[tokio::test]
async fn a_connected_desktop_reads_the_calls_call_centers_opened_since_its_cursor() {
    let w = world().await;
    let staff = w.staff().await;
    let (status, first) = staff.get("/calls/notices").await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["notices"], json!([]));
    let start = first["cursor"].as_i64().expect("cursor");

    let trapped = w.open_with(&w.center_key, "personne_bloquee").await;
    w.open_with(&w.other_key, "panne").await;
    let plain = w.open_with(&w.center_key, "panne").await;
    // A call taken at the agency is no notice.
    let (status, body) = staff
        .post(
            "/calls",
            json!({ "equipement": "asc 8", "type": "personne_bloquee", "description": "Porte bloquée." }),
        )
        .await;
    assert_eq!(status, 201, "{body}");

    let (status, read) = staff.get(&format!("/calls/notices?after={start}")).await;
    assert_eq!(status, 200, "{read}");
    let notices = read["notices"].as_array().expect("notices");
    assert_eq!(notices.len(), 2, "{read}");
    assert_eq!(
        keys_of(&notices[0]),
        ["body", "callId", "reference", "title", "urgent"]
    );
    assert_eq!(notices[0]["callId"], json!(trapped));
    assert_eq!(
        notices[0]["title"],
        "Urgence : personne bloquée dans un ascenseur"
    );
    assert_eq!(notices[0]["urgent"], true);
    let reference = notices[0]["reference"].as_str().expect("reference");
    assert_eq!(
        notices[0]["body"],
        format!(
            "Appel {reference} reçu du centre d'appels : ASC 7 — Résidence Les Tilleuls, 3 rue Émile Zola, 92300 Levallois-Perret."
        )
    );
    assert_eq!(notices[1]["callId"], json!(plain));
    assert_eq!(notices[1]["title"], "Nouvel appel de panne");
    assert_eq!(notices[1]["urgent"], false);
    let next = read["cursor"].as_i64().expect("cursor");
    assert!(next > start, "{read}");

    let (_, again) = staff.get(&format!("/calls/notices?after={next}")).await;
    assert_eq!(again, json!({ "cursor": next, "notices": [] }));

    // The other agency reads its own call only.
    let other = StaffClient::sign_in(&w.server, &w.other.admin_email, PASSWORD).await;
    let (_, theirs) = other.get(&format!("/calls/notices?after={start}")).await;
    assert_eq!(
        theirs["notices"].as_array().map(Vec::len),
        Some(1),
        "{theirs}"
    );
    assert_eq!(theirs["notices"][0]["title"], "Nouvel appel de panne");

    let (status, body) = staff.get("/calls/notices?after=-1").await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        "Le paramètre « after » doit être un nombre positif (le « cursor » de la lecture précédente)."
    );
    let (status, _) = staff.get("/calls/notices?apres=3").await;
    assert_eq!(status, 400);
    let anonymous = w
        .server
        .client
        .get(w.server.url("/app/api/calls/notices"))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status().as_u16(), 401);
}
