//! What the screens need to link records instead of showing codes (issue
//! 22, points 7 and 9): a client's quotes in one request
//! (`GET /app/api/quotes?client=`), the building of a planned visit
//! (`buildingId` on the week's entries and on a visit), the technical-data
//! catalogue by label (`GET /app/api/technical-fields`), and the records a
//! journal entry names by their id, in words and with their page
//! (`references` of `GET /app/api/journal`), scoped to the agency.

use crate::common;

use common::app::StaffClient;
use common::*;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

fn reference<'a>(page: &'a Value, id: &str) -> Option<&'a Value> {
    page["references"]
        .as_array()
        .expect("references")
        .iter()
        .find(|r| r["id"] == json!(id))
}

#[tokio::test]
async fn records_named_by_id_come_with_their_names_and_pages() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "admin@autre.fr", PASSWORD).await;

    // Two clients, a building of the first, a lift each and a quote each.
    for (id, name) in [("CLI-7", "Syndic Chardon"), ("CLI-8", "Foncière Martin")] {
        let (status, body) = admin
            .post("/clients", json!({ "name": name, "id": id }))
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, building) = admin
        .post(
            "/buildings",
            json!({ "name": "Résidence Les Tilleuls", "address": "4 rue des Tilleuls", "postalCode": "75015", "city": "Paris", "clientId": "CLI-7" }),
        )
        .await;
    assert_eq!(status, 201, "{building}");
    let building_id = str_of(&building, "id").to_owned();
    let mut lifts = Vec::new();
    for (number, client, building) in [
        ("ASC-7", "CLI-7", Some(building_id.as_str())),
        ("ASC-8", "CLI-8", None),
    ] {
        let (status, lift) = admin
            .post(
                "/equipment",
                json!({ "number": number, "type": "ascenseur", "clientId": client, "buildingId": building }),
            )
            .await;
        assert_eq!(status, 201, "{lift}");
        lifts.push(str_of(&lift, "id").to_owned());
    }
    let mut quotes = Vec::new();
    for lift in &lifts {
        let (status, quote) = admin
            .post(
                "/quotes",
                json!({ "equipmentId": lift, "origin": "panne", "object": "Remise en état", "rows": [{ "label": "Contacteur", "quantity": 1, "unitPrice": 100 }] }),
            )
            .await;
        assert_eq!(status, 201, "{quote}");
        quotes.push(str_of(&quote, "id").to_owned());
    }

    // The client's quotes, in one request.
    let ids = |page: &Value| -> Vec<String> {
        page["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|q| q["id"].as_str().expect("id").to_owned())
            .collect()
    };
    let (status, page) = staff.get("/quotes?client=CLI-7").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        (ids(&page), &page["total"]),
        (vec![quotes[0].clone()], &json!(1))
    );
    let (_, page) = staff.get("/quotes?client=CLI-8&status=brouillon").await;
    assert_eq!(ids(&page), vec![quotes[1].clone()]);
    let (_, page) = staff.get("/quotes?client=CLI-404").await;
    assert_eq!(
        (ids(&page), &page["total"]),
        (Vec::<String>::new(), &json!(0))
    );
    let (_, page) = other.get("/quotes?client=CLI-7").await;
    assert_eq!(page["total"], json!(0));
    let (status, refused) = staff
        .get(&format!("/quotes?client={}", "C".repeat(101)))
        .await;
    assert_eq!(
        (status, refused),
        (
            400,
            json!({ "error": "L'identifiant du client ne doit pas dépasser 100 caractères." })
        )
    );

    // A planned visit carries its building, on the week and on its own.
    let day = liftdesk::clock::paris_today() + chrono::Duration::days(7);
    let (status, visit) = staff
        .post(
            "/visits",
            json!({ "equipmentId": lifts[0], "plannedFor": day.to_string() }),
        )
        .await;
    assert_eq!(status, 201, "{visit}");
    let visit_id = str_of(&visit, "id").to_owned();
    let (status, week) = staff.get(&format!("/planning?day={day}")).await;
    assert_eq!(status, 200, "{week}");
    let entry = week["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["id"] == json!(visit_id))
        .expect("the visit in its week");
    assert_eq!(
        (&entry["buildingId"], &entry["building"], &entry["number"]),
        (
            &json!(building_id),
            &json!("Résidence Les Tilleuls"),
            &json!("ASC-7")
        )
    );
    let (status, detail) = staff.get(&format!("/visits/{visit_id}")).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(detail["buildingId"], json!(building_id));

    // The technical catalogue, by label, for every staff member.
    let (status, catalog) = staff.get("/technical-fields").await;
    assert_eq!(status, 200, "{catalog}");
    let load = catalog["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|f| f["code"] == json!("charge_utile"))
        .expect("charge_utile");
    assert_eq!(
        load,
        &json!({ "code": "charge_utile", "label": "Charge utile", "unit": "kg", "valueType": "number", "choices": [], "component": null })
    );
    let drive = catalog["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|f| f["code"] == json!("type_entrainement"))
        .expect("type_entrainement");
    assert_eq!(
        (&drive["valueType"], &drive["choices"]),
        (&json!("choice"), &json!(["Electrique", "Hydraulique"]))
    );

    // The journal names the records its details hold by id.
    let (status, journal) = admin.get("/journal?objectType=equipment").await;
    assert_eq!(status, 200, "{journal}");
    let client = reference(
        &journal,
        &one(
            server.data_dir.path(),
            "SELECT id FROM clients WHERE client_ref = ?1",
            &["CLI-7"],
        ),
    )
    .expect("the client named");
    assert_eq!(
        (&client["objectType"], &client["label"], &client["path"]),
        (
            &json!("client"),
            &json!("Syndic Chardon"),
            &json!("/clients/CLI-7")
        )
    );
    assert_eq!(
        reference(&journal, &building_id),
        Some(&json!({
            "id": building_id,
            "objectType": "building",
            "label": "Résidence Les Tilleuls",
            "path": format!("/immeubles/{building_id}"),
        }))
    );
    let (_, visits) = admin.get("/journal?objectType=visit").await;
    let lift = reference(&visits, &lifts[0]).expect("the visit's lift named");
    assert_eq!(
        (&lift["label"], &lift["path"]),
        (
            &json!("ASC-7"),
            &json!(format!("/equipements/{}", lifts[0]))
        )
    );
    // Every referenced id is one the page's details hold, once.
    let details = journal["entries"].to_string();
    let refs = journal["references"].as_array().expect("references");
    assert!(
        refs.iter()
            .all(|r| details.contains(r["id"].as_str().expect("id")))
    );
    let mut seen: Vec<&Value> = refs.iter().map(|r| &r["id"]).collect();
    seen.dedup();
    assert_eq!(seen.len(), refs.len());
    // Another organization reads no journal of ours and names nothing of ours.
    let (_, theirs) = other.get("/journal").await;
    assert!(!theirs.to_string().contains("Syndic Chardon"), "{theirs}");
}

fn one(dir: &std::path::Path, sql: &str, params: &[&str]) -> String {
    open_db(dir)
        .query_row(sql, liftdesk::store::sql::params_from_iter(params), |r| {
            r.get(0)
        })
        .expect("one value")
}
