//! The header search (`GET /app/api/search?q=`, `services::search::header`):
//! lifts by number, building or address, clients by name or SIREN, invoices
//! and quotes by number (typed with or without dashes, or a bare sequence),
//! calls by reference; each hit with its page; nothing below two
//! characters; another organization's records never found.

use crate::common;

use common::app::StaffClient;
use common::world::World;
use common::*;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

/// (kind, titles) of each group.
fn found(answer: &Value) -> Vec<(String, Vec<String>)> {
    answer["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            (
                g["kind"].as_str().expect("kind").to_owned(),
                g["hits"]
                    .as_array()
                    .expect("hits")
                    .iter()
                    .map(|h| h["title"].as_str().expect("title").to_owned())
                    .collect(),
            )
        })
        .collect()
}

fn group(kind: &str, titles: &[&str]) -> (String, Vec<String>) {
    (
        kind.to_owned(),
        titles.iter().map(|t| (*t).to_owned()).collect(),
    )
}

#[tokio::test]
async fn the_header_search_finds_lifts_clients_documents_and_calls_of_the_agency() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let staff = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "admin@autre.fr", PASSWORD).await;
    let (status, _) = staff
        .post(
            "/clients",
            json!({ "name": "Syndic Dupont", "id": "C-1", "siren": "732829320", "address": "3 rue Émile Zola" }),
        )
        .await;
    assert_eq!(status, 201);
    let (status, building) = staff
        .post(
            "/buildings",
            json!({ "name": "Résidence Les Tilleuls", "address": "12 rue des Lilas", "postalCode": "69003", "city": "Lyon", "clientId": "C-1" }),
        )
        .await;
    assert_eq!(status, 201);
    let (status, lift) = staff
        .post(
            "/equipment",
            json!({ "number": "ASC-0042", "type": "ascenseur", "buildingId": building["id"], "clientId": "C-1" }),
        )
        .await;
    assert_eq!(status, 201);
    let lift_id = str_of(&lift, "id").to_owned();
    let world = World::in_agency(&server, &org.agency_id);
    let invoice = world
        .draft_invoice("C-1", vec![World::line("Maintenance", 1.0, 100.0, None)])
        .await;
    world.issue_invoice(&invoice).await;
    let quote = world
        .quote(
            &lift_id,
            "Remplacement des câbles",
            vec![World::line("Câbles", 1.0, 900.0, None)],
        )
        .await;
    world
        .quote_act(&quote, liftdesk::domain::quote::QuoteAction::Send)
        .await;
    let year = liftdesk::clock::paris_today().format("%Y").to_string();
    let center_key = world.call_center_key("Centre Nord").await;
    let call = world
        .call_from(
            &center_key,
            liftdesk::services::calls::CenterCallInput {
                reference: "CC-2026-000777".to_owned(),
                equipment: "ASC-0042".to_owned(),
                call_type: "panne".to_owned(),
                description: "Cabine immobilisée.".to_owned(),
                caller: None,
                received_at: None,
            },
        )
        .await;

    // By number, building, address; with its page.
    let (status, answer) = staff.get("/search?q=asc-00").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(found(&answer), [group("equipment", &["ASC-0042"])]);
    assert_eq!(
        answer["groups"][0]["hits"][0],
        json!({ "id": lift_id, "title": "ASC-0042", "subtitle": "Résidence Les Tilleuls, 12 rue des Lilas, 69003, Lyon", "link": format!("/equipements/{lift_id}") })
    );
    let (_, answer) = staff.get("/search?q=tilleuls").await;
    assert_eq!(found(&answer), [group("equipment", &["ASC-0042"])]);
    // A client by its name (accents aside) or its SIREN.
    let (_, answer) = staff.get("/search?q=dupont").await;
    assert_eq!(found(&answer), [group("clients", &["Syndic Dupont"])]);
    assert_eq!(answer["groups"][0]["hits"][0]["link"], "/clients/C-1");
    assert_eq!(
        answer["groups"][0]["hits"][0]["subtitle"],
        "C-1 · SIREN 732829320"
    );
    let (_, answer) = staff.get("/search?q=732829").await;
    assert_eq!(found(&answer), [group("clients", &["Syndic Dupont"])]);
    // Documents by number: as written, without dashes, or the bare sequence.
    let invoice_number = format!("FA-{year}-000001");
    let quote_number = format!("DV-{year}-00001");
    for q in [
        format!("FA-{year}-0000"),
        format!("fa{year}00000"),
        "fa-".to_owned(),
    ] {
        let (_, answer) = staff.get(&format!("/search?q={q}")).await;
        assert_eq!(
            found(&answer),
            [group("invoices", &[&invoice_number])],
            "{q}"
        );
    }
    let (_, answer) = staff.get("/search?q=1").await;
    assert_eq!(
        answer,
        json!({ "groups": [] }),
        "one character finds nothing"
    );
    let (_, answer) = staff.get("/search?q=01").await;
    let kinds = found(&answer);
    assert!(
        kinds.contains(&group("invoices", &[&invoice_number])),
        "{answer}"
    );
    assert!(
        kinds.contains(&group("quotes", &[&quote_number])),
        "{answer}"
    );
    let (_, answer) = staff.get(&format!("/search?q=DV-{year}")).await;
    assert_eq!(found(&answer), [group("quotes", &[&quote_number])]);
    assert_eq!(
        answer["groups"][0]["hits"][0]["link"],
        json!(format!("/devis/{quote}"))
    );

    // A call by its reference (a center's, found through that center).
    let (_, answer) = staff.get("/search?q=cc-2026-0007").await;
    assert_eq!(found(&answer), [group("calls", &["CC-2026-000777"])]);
    assert_eq!(
        answer["groups"][0]["hits"][0],
        json!({ "id": call, "title": "CC-2026-000777", "subtitle": "ASC-0042", "link": format!("/appels/{call}") })
    );

    // Refusals and nothing of another organization.
    let (status, answer) = staff.get(&format!("/search?q={}", "a".repeat(101))).await;
    assert_eq!(
        (status, answer),
        (
            400,
            json!({ "error": "Le paramètre « q » ne doit pas dépasser 100 caractères." })
        )
    );
    for q in ["dupont", "asc-00", "fa-", "01", "cc-2026"] {
        let (status, answer) = other.get(&format!("/search?q={q}")).await;
        assert_eq!((status, answer), (200, json!({ "groups": [] })), "{q}");
    }
}
