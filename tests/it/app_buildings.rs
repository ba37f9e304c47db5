//! Buildings and lifts made from the screens (`/app/api/buildings…`,
//! `POST /app/api/equipment`, `POST /app/api/equipment/{id}/client`): a
//! building with its client and access instructions (digicode, key box,
//! Vigik) in one transaction, found as you type, its access changed; a lift
//! created in it with its contract and visit interval (an administrator's),
//! then moved to another client with its history kept. French refusals
//! naming the field with nothing written, rights, another agency's 404, and
//! the audit.

use crate::common;

use common::app::StaffClient;
use common::*;
use serde_json::json;

const PASSWORD: &str = "motdepasse-solide";

fn count(server: &TestServer, table: &str) -> i64 {
    open_db(server.data_dir.path())
        .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .expect("count")
}

#[tokio::test]
async fn a_building_and_a_lift_are_made_from_the_screens_and_the_lift_changes_client() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "admin@autre.fr", PASSWORD).await;
    for (name, id) in [("Syndic Dupont", "CLI-1"), ("Cabinet Martin", "CLI-2")] {
        let (status, _) = staff
            .post("/clients", json!({ "name": name, "id": id }))
            .await;
        assert_eq!(status, 201);
    }

    // Refusals: French, naming the field; nothing written.
    for (body, error) in [
        (
            json!({ "name": "Résidence" }),
            "Le champ « address » est obligatoire.",
        ),
        (
            json!({ "address": "3 rue Émile Zola", "postalCode": "9230" }),
            "Le champ « postalCode » doit être un code postal français de cinq chiffres : « 9230 » n'en est pas un.",
        ),
        (
            json!({ "address": "3 rue Émile Zola", "clientId": "CLI-9" }),
            "Le champ « clientId » ne désigne aucun client de l'agence : « CLI-9 ».",
        ),
        (
            json!({ "address": "3 rue Émile Zola", "access": { "instructions": ["Autre"] } }),
            "Le champ « accessOther » est obligatoire quand « Autre » est choisi dans « accessInstructions ».",
        ),
    ] {
        let (status, answer) = staff.post("/buildings", body.clone()).await;
        assert_eq!((status, answer), (422, json!({ "error": error })), "{body}");
    }
    let (status, answer) = staff
        .post(
            "/buildings",
            json!({ "address": "3 rue Émile Zola", "access": { "instructions": ["Badge"] } }),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("accessInstructions") && e.contains("Badge")),
        "{answer}"
    );
    assert_eq!(count(&server, "buildings"), 0);

    let (status, building) = staff
        .post(
            "/buildings",
            json!({
                "name": "Résidence Les Tilleuls", "address": "3 rue Émile Zola", "postalCode": "92300",
                "city": "Levallois-Perret", "clientId": "CLI-1",
                "access": { "instructions": ["Digicode", "Vigik"], "digicode": " 4521B " }
            }),
        )
        .await;
    assert_eq!(status, 201, "{building}");
    let building_id = str_of(&building, "id").to_owned();
    assert_eq!(
        building,
        json!({
            "id": building_id, "name": "Résidence Les Tilleuls", "address": "3 rue Émile Zola",
            "addressComplement": null, "postalCode": "92300", "city": "Levallois-Perret",
            "client": { "id": "CLI-1", "name": "Syndic Dupont" },
            "access": { "instructions": ["Digicode", "Vigik"], "other": null, "digicode": "4521B", "keyBox": null },
            "equipmentCount": 0
        })
    );
    // Found as you type, by the client's name too (accents aside).
    let (status, found) = staff.get("/buildings?q=dupont%20levallois").await;
    assert_eq!(status, 200);
    assert_eq!(found["total"], 1);
    assert_eq!(found["results"][0]["id"], json!(building_id));
    assert_eq!(
        found["accessValues"],
        json!(["Sans", "Digicode", "Coffre à clé", "Vigik", "Autre"])
    );
    let (_, none) = staff.get("/buildings?q=tilleuls%20lyon").await;
    assert_eq!((&none["total"], &none["results"]), (&json!(0), &json!([])));

    // Another organization sees nothing of it.
    let not_found = json!({ "error": "Immeuble introuvable." });
    assert_eq!(
        other.get(&format!("/buildings/{building_id}")).await,
        (404, not_found.clone())
    );
    assert_eq!(
        other
            .put(
                &format!("/buildings/{building_id}/access"),
                json!({ "instructions": ["Sans"] })
            )
            .await,
        (404, not_found)
    );
    assert_eq!(other.get("/buildings?q=tilleuls").await.1["total"], 0);

    // Its access changed.
    let (status, changed) = staff
        .put(
            &format!("/buildings/{building_id}/access"),
            json!({ "instructions": ["Digicode", "Coffre à clé"], "digicode": "4521B", "keyBox": "Loge du gardien" }),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(
        changed["access"],
        json!({ "instructions": ["Digicode", "Coffre à clé"], "other": null, "digicode": "4521B", "keyBox": "Loge du gardien" })
    );

    // A lift in it: the number required and free, the interval an
    // administrator's.
    let lift = json!({
        "number": "ASC-101", "type": "ascenseur", "maintenanceContract": "parc", "location": "Hall A",
        "buildingId": building_id, "clientId": "CLI-1", "visitIntervalDays": 30
    });
    let (status, answer) = staff.post("/equipment", lift.clone()).await;
    assert_eq!(
        (status, answer),
        (
            403,
            json!({ "error": "Modifier l'intervalle d'entretien d'un équipement est réservé à un administrateur de l'agence." })
        )
    );
    let (status, answer) = staff
        .post("/equipment", json!({ "type": "ascenseur" }))
        .await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le champ « number » est obligatoire." })
        )
    );
    let (status, answer) = admin
        .post(
            "/equipment",
            json!({ "number": "ASC-101", "visitIntervalDays": 60, "type": "ascenseur" }),
        )
        .await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Un ascenseur doit être visité au moins toutes les six semaines : 42 jours au plus." })
        )
    );
    assert_eq!(count(&server, "equipment"), 0);
    let (status, created) = admin.post("/equipment", lift).await;
    assert_eq!(status, 201, "{created}");
    let equipment_id = str_of(&created, "id").to_owned();
    let (status, answer) = staff
        .post("/equipment", json!({ "number": " asc-101" }))
        .await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le numéro « asc-101 » est déjà utilisé par un autre équipement de l'agence (« ASC-101 ») : les espaces et la casse ne distinguent pas deux numéros." })
        )
    );
    let (_, page) = staff.get(&format!("/equipment/{equipment_id}")).await;
    assert_eq!(page["identity"]["number"], "ASC-101");
    assert_eq!(page["building"]["id"], json!(building_id));
    assert_eq!(page["client"]["id"], "CLI-1");
    let interval: i64 = open_db(server.data_dir.path())
        .query_row(
            "SELECT visit_interval_days FROM equipment WHERE id = ?1",
            [&equipment_id],
            |r| r.get(0),
        )
        .expect("interval");
    assert_eq!(interval, 30);
    let (_, building) = staff.get(&format!("/buildings/{building_id}")).await;
    assert_eq!(building["equipmentCount"], 1);

    // Moved to another client; the same client again records nothing.
    let path = format!("/equipment/{equipment_id}/client");
    for (body, error) in [
        (
            json!({ "clientId": "CLI-9" }),
            "Le champ « clientId » ne désigne aucun client de l'agence : « CLI-9 ».",
        ),
        (
            json!({ "clientId": " " }),
            "Le champ « clientId » est obligatoire.",
        ),
    ] {
        assert_eq!(
            staff.post(&path, body.clone()).await,
            (422, json!({ "error": error })),
            "{body}"
        );
    }
    assert_eq!(
        other.post(&path, json!({ "clientId": "CLI-2" })).await,
        (404, json!({ "error": "Équipement introuvable." }))
    );
    let (status, page) = staff.post(&path, json!({ "clientId": "CLI-2" })).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["client"]["id"], "CLI-2");
    let (status, _) = staff.post(&path, json!({ "clientId": "CLI-2" })).await;
    assert_eq!(status, 200);
    let equipment_audit = audit_of(&server, "equipment", &equipment_id);
    let actions: Vec<&str> = equipment_audit.iter().map(|(a, _)| a.as_str()).collect();
    assert_eq!(
        actions,
        [
            "equipement.creation",
            "intervalle_visites",
            "equipement.client"
        ]
    );
    assert_eq!(
        equipment_audit[2].1,
        json!({ "before": "CLI-1", "after": "CLI-2" })
    );
    let building_actions: Vec<String> = audit_of(&server, "building", &building_id)
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(
        building_actions,
        ["immeuble.creation", "immeuble.acces", "immeuble.acces"]
    );
    // An archived client takes no equipment.
    let (status, _) = admin.post("/clients/CLI-1/archive", json!({})).await;
    assert_eq!(status, 200);
    let (status, answer) = staff.post(&path, json!({ "clientId": "CLI-1" })).await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le client « Syndic Dupont » est archivé : on ne lui rattache plus d'immeuble ni d'équipement." })
        )
    );
}

#[tokio::test]
async fn an_archived_lift_leaves_the_park_and_the_plan_and_takes_no_new_call_or_visit() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let (status, created) = admin
        .post(
            "/equipment",
            json!({ "number": "ASC-301", "type": "ascenseur", "maintenanceContract": "parc" }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let lift = str_of(&created, "id").to_owned();
    let in_a_week = (chrono::Utc::now() + chrono::Duration::days(7))
        .format("%Y-%m-%d")
        .to_string();
    let (status, visit) = admin
        .post(
            "/visits",
            json!({ "equipmentId": lift, "technicianId": null, "plannedFor": in_a_week }),
        )
        .await;
    assert_eq!(status, 201, "{visit}");
    let visit_id = str_of(&visit, "id").to_owned();
    let world = common::world::World::in_agency(&server, &org.agency_id);
    let center_key = world.call_center_key("Centre").await;
    let call = world
        .call_from(
            &center_key,
            liftdesk::services::calls::CenterCallInput {
                reference: "CC-1".to_owned(),
                equipment: "ASC-301".to_owned(),
                call_type: "panne".to_owned(),
                description: "Cabine immobilisée.".to_owned(),
                caller: None,
                received_at: None,
            },
        )
        .await;

    let archive = format!("/equipment/{lift}/archive");
    assert_eq!(
        staff.post(&archive, json!({})).await,
        (
            403,
            json!({ "error": "Archiver un équipement est réservé à un administrateur de l'agence." })
        )
    );
    assert_eq!(
        admin.post(&archive, json!({})).await,
        (
            422,
            json!({ "error": "L'équipement « ASC-301 » a encore 1 appel en cours : résolvez les appels et terminez les visites avant de l'archiver." })
        )
    );
    world.move_call(&call, "resolue").await;
    let (status, page) = admin.post(&archive, json!({})).await;
    assert_eq!(status, 200, "{page}");
    assert!(page["archivedAt"].is_string(), "{page}");
    assert_eq!(
        admin.post(&archive, json!({})).await,
        (
            409,
            json!({ "error": "L'équipement « ASC-301 » est déjà archivé." })
        )
    );
    // Its planned visit is called off, with its audit entry.
    let (status, _) = admin.get(&format!("/visits/{visit_id}")).await;
    assert_eq!(status, 404);
    assert_eq!(audit_of(&server, "visit", &visit_id)[1].0, "annulation");
    let log = audit_of(&server, "equipment", &lift);
    assert_eq!(
        log.last().map(|(a, d)| (a.as_str(), d.clone())),
        Some((
            "equipement.archivage",
            json!({ "number": "ASC-301", "plannedVisitsCalledOff": 1 })
        ))
    );

    // Out of the park list (unless asked for), of the plan.
    let ids = |page: &serde_json::Value| -> Vec<String> {
        page["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| r["id"].as_str().expect("id").to_owned())
            .collect()
    };
    let (_, park) = staff.get("/equipment").await;
    assert!(!ids(&park).contains(&lift), "{park}");
    let (_, archived) = staff.get("/equipment?archived=archived").await;
    assert_eq!(ids(&archived), std::slice::from_ref(&lift));
    let (_, all) = staff.get("/equipment?archived=all").await;
    assert!(ids(&all).contains(&lift));
    let (status, answer) = staff.get("/equipment?archived=oui").await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le filtre « archived » doit valoir « active », « archived », « all »." })
        )
    );
    let (_, proposal) = admin.get("/planning/proposal").await;
    assert!(!proposal.to_string().contains(&lift), "{proposal}");

    // No new call, no new visit.
    let refusal = json!({ "error": "L'équipement « ASC-301 » est archivé : il ne fait plus partie du parc de l'agence (un administrateur peut l'y remettre depuis sa fiche)." });
    let response = server
        .client
        .post(server.url("/api/partners/calls"))
        .header("Authorization", format!("Bearer {center_key}"))
        .json(&json!({ "reference": "CC-2", "equipement": "ASC-301", "type": "panne", "description": "Bloqué." }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 422);
    assert_eq!(
        response.json::<serde_json::Value>().await.expect("json"),
        refusal
    );
    assert_eq!(
        admin
            .post(
                "/visits",
                json!({ "equipmentId": lift, "technicianId": null, "plannedFor": in_a_week })
            )
            .await,
        (422, refusal)
    );

    // Back in the park.
    let restore = format!("/equipment/{lift}/restore");
    assert_eq!(
        staff.post(&restore, json!({})).await,
        (
            403,
            json!({ "error": "Remettre un équipement dans le parc est réservé à un administrateur de l'agence." })
        )
    );
    let (status, page) = admin.post(&restore, json!({})).await;
    assert_eq!(
        (status, &page["archivedAt"]),
        (200, &serde_json::Value::Null)
    );
    assert_eq!(
        admin.post(&restore, json!({})).await,
        (
            409,
            json!({ "error": "L'équipement « ASC-301 » n'est pas archivé." })
        )
    );
    let (_, park) = staff.get("/equipment").await;
    assert!(ids(&park).contains(&lift));
}
