//! The response-time commitments of a maintenance contract, measured: a
//! trapped-person call a call center opens on a covered lift
//! (`POST /api/partners/calls`) gets the contract's deadline, the board
//! shows it in time then late (minutes late, the penalty per hour begun),
//! the technician's arrival fixes the delay, and the contract's report
//! (`GET /api/v2/contracts/{id}/response-times`) lists the call with its
//! delays and totals, not a call on a lift the contract does not cover.
//! The clock is set: Tuesday 7 March 2028.

use crate::common;

use chrono::{DateTime, NaiveDateTime, Utc};
use common::app::StaffClient;
use common::world::World;
use common::*;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Arc;

/// A Paris time of the test's days.
fn paris(text: &str) -> DateTime<Utc> {
    liftdesk::domain::time::paris_to_utc(
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").expect("instant"),
    )
}

async fn lift(world: &World, number: &str) -> String {
    world
        .equipment_with(NewEquipment {
            identity: IdentityRow {
                number: Some(number.to_owned()),
                equipment_type: Some("ascenseur".to_owned()),
                maintenance_contract: Some("parc".to_owned()),
                ..IdentityRow::default()
            },
            building_id: None,
            client_ref: Some("CLI-1".to_owned()),
        })
        .await
}

fn set_clock(server: &TestServer, at: DateTime<Utc>) {
    server.store.set_clock(Arc::new(move || at));
}

/// The board's card of the call `reference`.
async fn card(staff: &StaffClient, reference: &str) -> Value {
    let (status, board) = staff.get("/calls/board").await;
    assert_eq!(status, 200, "{board}");
    board["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .flat_map(|c| c["results"].as_array().cloned().unwrap_or_default())
        .find(|card| card["reference"] == reference)
        .unwrap_or_else(|| panic!("{reference} absent du tableau : {board}"))
}

#[tokio::test]
async fn a_trapped_person_call_gets_its_contracts_deadline_and_is_marked_late_past_it() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let world = World::in_agency(&server, &org.agency_id);
    set_clock(&server, paris("2028-03-01 09:00"));
    world.client_named("CLI-1", "Résidence Les Tilleuls").await;
    let covered = lift(&world, "ASC-1").await;
    lift(&world, "ASC-2").await;
    let (status, created) = server
        .v2(
            Method::POST,
            "/contracts",
            &org.admin_token,
            Some(json!({
                "clientId": "CLI-1",
                "liftIds": [&covered],
                "type": "complet",
                "startOn": "2028-01-01",
                "annualPrice": 2400,
                "arrivalMinutes": 240,
                "trappedPersonMinutes": 45,
                "returnToServiceMinutes": 1440,
                "penaltyPerLateHour": 50,
            })),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let contract = created["id"].as_str().expect("id").to_owned();
    let (status, _) = server
        .v2(
            Method::POST,
            &format!("/contracts/{contract}/activate"),
            &org.admin_token,
            None,
        )
        .await;
    assert_eq!(status, 201);
    let key = world.call_center_key("Centre Atlas").await;
    let open = |reference: &str, number: &str, kind: &str| {
        let body = json!({
            "reference": reference, "equipement": number, "type": kind,
            "description": "Deux personnes bloquées entre deux étages",
        });
        let request = server
            .client
            .post(server.url("/api/partners/calls"))
            .header("Authorization", format!("Bearer {key}"))
            .json(&body);
        async move {
            let response = request.send().await.expect("request");
            let status = response.status().as_u16();
            let body: Value = response.json().await.expect("json");
            assert_eq!(status, 201, "{body}");
            body["id"].as_str().expect("id").to_owned()
        }
    };

    // Tuesday 09:00: a trapped person on the covered lift, a breakdown on
    // the other.
    set_clock(&server, paris("2028-03-07 09:00"));
    let trapped = open("ATL-1", "ASC-1", "personne_bloquee").await;
    open("ATL-2", "ASC-2", "panne").await;
    let staff = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;

    // 09:30: in time, 45 minutes from the call.
    set_clock(&server, paris("2028-03-07 09:30"));
    let due = json!({
        "contractId": contract, "contractNumber": created_number(&server, &org, &contract).await,
        "arrivalDueAt": "2028-03-07T08:45:00.000Z", "restoreDueAt": "2028-03-08T08:00:00.000Z",
        "arrived": false, "restored": false,
    });
    let commitment = card(&staff, "ATL-1").await["commitment"].clone();
    assert_eq!(
        with(
            &due,
            json!({"arrivalLateMinutes": 0, "restoreLateMinutes": 0, "late": false, "penalty": 0.0})
        ),
        commitment
    );
    assert_eq!(card(&staff, "ATL-2").await["commitment"], Value::Null);

    // 10:10: 25 minutes late, one hour begun.
    set_clock(&server, paris("2028-03-07 10:10"));
    assert_eq!(
        card(&staff, "ATL-1").await["commitment"],
        with(
            &due,
            json!({"arrivalLateMinutes": 25, "restoreLateMinutes": 0, "late": true, "penalty": 50.0})
        )
    );

    // The technician on site at 10:20 (35 minutes late), the lift back in
    // service at 11:00 (in time).
    let tech = world.technician("Alice Durand", None).await;
    world
        .assign_call_at(&trapped, &tech, paris("2028-03-07 10:12"))
        .await;
    world
        .move_call_at(&trapped, "sur_place", paris("2028-03-07 10:20"))
        .await;
    world
        .move_call_at(&trapped, "resolue", paris("2028-03-07 11:00"))
        .await;
    // Wednesday 09:00, a breakdown resolved by phone at 10:00, no one sent:
    // no arrival owed after its resolution.
    set_clock(&server, paris("2028-03-08 09:00"));
    let by_phone = open("ATL-3", "ASC-1", "panne").await;
    world
        .move_call_at(&by_phone, "resolue", paris("2028-03-08 10:00"))
        .await;
    set_clock(&server, paris("2028-03-09 08:00"));
    let staff = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;
    let phone_card = card(&staff, "ATL-3").await["commitment"].clone();
    assert_eq!(
        (
            phone_card["arrivalDueAt"].clone(),
            phone_card["arrivalLateMinutes"].clone(),
            phone_card["late"].clone()
        ),
        (json!("2028-03-08T12:00:00.000Z"), json!(0), json!(false))
    );
    let (status, report) = server
        .v2(
            Method::GET,
            &format!("/contracts/{contract}/response-times?from=2028-03-01&to=2028-03-31"),
            &org.admin_token,
            None,
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["late"], 1);
    assert_eq!(report["trapped"], 1);
    assert_eq!(report["penalties"], 50.0);
    let calls = report["calls"].as_array().expect("calls");
    assert_eq!(calls.len(), 2, "only the covered lift's: {report}");
    assert_eq!(calls[1]["reference"], "ATL-3");
    assert_eq!(calls[0]["reference"], "ATL-1");
    assert_eq!(calls[0]["type"], "personne_bloquee");
    assert_eq!(calls[0]["arrivedAt"], "2028-03-07T09:20:00.000Z");
    assert_eq!(calls[0]["restoredAt"], "2028-03-07T10:00:00.000Z");
    assert_eq!(
        calls[0]["commitment"],
        with(
            &due,
            json!({"arrived": true, "restored": true, "arrivalLateMinutes": 35,
                   "restoreLateMinutes": 0, "late": true, "penalty": 50.0})
        )
    );
    // Ended by agreement on 31/03: its report still tells March; a call on
    // the lift in April has no commitment.
    let (status, ended) = server
        .v2(
            Method::POST,
            &format!("/contracts/{contract}/terminate"),
            &org.admin_token,
            Some(json!({"reason": "Vente de l'immeuble", "endsOn": "2028-03-31"})),
        )
        .await;
    assert_eq!(status, 201, "{ended}");
    set_clock(&server, paris("2028-04-03 09:00"));
    open("ATL-4", "ASC-1", "panne").await;
    let staff = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;
    assert_eq!(card(&staff, "ATL-4").await["commitment"], Value::Null);
    let (_, after) = server
        .v2(
            Method::GET,
            &format!("/contracts/{contract}/response-times?from=2028-03-01&to=2028-04-30"),
            &org.admin_token,
            None,
        )
        .await;
    let references: Vec<&str> = after["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .map(|c| c["reference"].as_str().expect("reference"))
        .collect();
    assert_eq!(references, ["ATL-1", "ATL-3"], "{after}");
    // The year's report the contract owes the owner, from the logbook:
    // covered from 01/01 to 31/03/2028; two breakdowns (2 h and 1 h).
    let fetch = |query: &'static str, token: String| {
        let request = server
            .client
            .get(server.url(&format!(
                "/api/v2/contracts/{contract}/annual-report{query}"
            )))
            .header("Authorization", format!("Bearer {token}"));
        async move { request.send().await.expect("request") }
    };
    let response = fetch("?year=2028", org.admin_token.clone()).await;
    assert_eq!(response.status().as_u16(), 200);
    let number = created_number(&server, &org, &contract).await;
    assert_eq!(
        response
            .headers()
            .get("content-disposition")
            .and_then(|v| v.to_str().ok()),
        Some(format!("inline; filename=\"rapport-{number}-2028.pdf\"").as_str())
    );
    let bytes = response.bytes().await.expect("pdf");
    let text = pdftotext(&bytes).replace(['\u{202f}', '\u{a0}'], " ");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Agence : Durand Centre".to_owned(),
        "Rapport annuel Agence".to_owned(),
        format!("Rapport annuel 2028 — contrat {number}"),
        "Période couverte : du 01/01/2028 au 31/03/2028. Appareils : 1. Visites d'entretien faites : 0. Pannes : 2.".to_owned(),
        "Appareil ASC-1".to_owned(),
        "Visites d'entretien : aucune sur la période.".to_owned(),
        "Contrôle des câbles : non fait sur la période.".to_owned(),
        "Pannes (2) :".to_owned(),
        "— 07/03/2028 à 09:00 : Personne bloquée ; cause : non renseignée ; arrêt de 2 h 00.".to_owned(),
        "— 08/03/2028 à 09:00 : Panne ; cause : non renseignée ; arrêt de 1 h 00.".to_owned(),
        "Taux de disponibilité : 99,9 % (arrêts : 3 h 00).".to_owned(),
    ] {
        assert!(flat.contains(&expected), "« {expected} » absent : {flat}");
    }
    for (query, status) in [
        ("?year=1999", 422),
        ("?year=2027", 422),
        ("?year=deux", 422),
        ("?annee=2028", 400),
    ] {
        let response = fetch(query, org.admin_token.clone()).await;
        assert_eq!(response.status().as_u16(), status, "{query}");
    }
    let response = fetch("?year=2027", org.admin_token.clone()).await;
    let refused: Value = response.json().await.expect("json");
    assert_eq!(
        refused["error"],
        format!(
            "Le contrat {number} ne couvrait pas ses appareils en 2027 : pas de rapport annuel pour cette année."
        )
    );
    // Before the contract's lifts' calls: none.
    let (_, february) = server
        .v2(
            Method::GET,
            &format!("/contracts/{contract}/response-times?from=2028-02-01&to=2028-02-29"),
            &org.admin_token,
            None,
        )
        .await;
    assert_eq!(
        (february["calls"].clone(), february["penalties"].clone()),
        (json!([]), json!(0.0))
    );

    // Refusals.
    for (query, status, error) in [
        (
            "from=2028-03-31&to=2028-03-01",
            422,
            "La période du rapport finit avant de commencer : « to » doit suivre « from ».",
        ),
        (
            "from=2028-01-01&to=2029-01-31",
            422,
            "La période du rapport ne doit pas dépasser 366 jours.",
        ),
        (
            "from=2028-02-30&to=2028-03-31",
            422,
            "Le paramètre « from » doit être un jour AAAA-MM-JJ (reçu : « 2028-02-30 »).",
        ),
    ] {
        let (got, answer) = server
            .v2(
                Method::GET,
                &format!("/contracts/{contract}/response-times?{query}"),
                &org.admin_token,
                None,
            )
            .await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(error)),
            "{query}"
        );
    }
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let (status, _) = server
        .v2(
            Method::GET,
            &format!("/contracts/{contract}/response-times?from=2028-03-01&to=2028-03-31"),
            &other.admin_token,
            None,
        )
        .await;
    assert_eq!(status, 404, "another agency's contract");
}

async fn created_number(server: &TestServer, org: &Org, contract: &str) -> String {
    let (_, read) = server
        .v2(
            Method::GET,
            &format!("/contracts/{contract}"),
            &org.admin_token,
            None,
        )
        .await;
    read["number"].as_str().expect("number").to_owned()
}

fn with(base: &Value, more: Value) -> Value {
    let mut merged = base.clone();
    for (key, value) in more.as_object().expect("object") {
        merged[key] = value.clone();
    }
    merged
}
