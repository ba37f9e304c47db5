//! Partner workflow API: `/create_survey` and `/open_app`.

use crate::common;
use crate::wf;

use common::world::World;
use common::*;
use liftdesk::services::surveys::SubmitInput;
use serde_json::{Value, json};
use wf::*;

/// An account of the agency (member, « Technicien »), surveying or not,
/// created through the installation's operation.
async fn account(s: &Setup, agency: &str, email: &str, surveys: bool) -> String {
    World::in_agency(&s.server, agency)
        .staff_account(email, surveys)
        .await
}

/// An inactive account of the agency that performs surveys: created, then
/// deactivated by the agency.
async fn inactive_account(s: &Setup, agency: &str, email: &str) -> String {
    let world = World::in_agency(&s.server, agency);
    let account = world.staff_account(email, true).await;
    world.deactivate_account(&account).await;
    account
}

type BodyChange = Box<dyn Fn(&mut Value)>;

fn base_body(s: &Setup) -> Value {
    json!({
        "agency_id": s.agency,
        "type_affaire": "Contrat",
        "solliciteur_email": "commercial@partenaire.fr",
        "releveur_email": "releveur@alpha.fr",
        "external_opportunity_id": "OPP-1",
        "equipments": [
            {
                "equipment_number": "ASC-1",
                "adresse": "5 rue Victor Hugo, 69002 Lyon",
                "consignes_acces": ["Digicode", "Autre"],
                "consignes_acces_autre": "Sonner chez la gardienne",
                "digicode": "1234A",
                "client_id": "SYN-1",
                "client_nom": "Syndic Rhône",
                "client_telephone": "04 00 00 00 00"
            },
            { "equipment_number": "NOUVEAU 9", "adresse": "8 quai Saint-Antoine, 69002 Lyon" }
        ]
    })
}

fn count(s: &Setup, sql: &str) -> i64 {
    open_db(s.server.data_dir.path())
        .query_row(sql, [], |r| r.get(0))
        .expect("count")
}

#[tokio::test]
async fn creates_the_deal_the_surveys_the_client_and_unknown_equipment() {
    let s = setup().await;
    let surveyor = account(&s, &s.agency, "releveur@alpha.fr", true).await;
    lift(&s.server, &s.agency, "ASC-1").await;
    let answer = success(post(&s.server, &s.key, "/create_survey", &base_body(&s)).await);
    let keys: Vec<&String> = answer.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["id_affaire"]);
    let deal = answer["id_affaire"].as_str().expect("id").to_owned();
    let conn = open_db(s.server.data_dir.path());
    let (type_affaire, external, requester, deal_surveyor, client): (
        String,
        String,
        String,
        String,
        String,
    ) = conn
        .query_row(
            "SELECT type_affaire, external_opportunity_id, requester_email, surveyor_account_id, client_id
             FROM deals WHERE id = ?1",
            [&deal],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .expect("deal");
    assert_eq!(type_affaire, "Contrat");
    assert_eq!(external, "OPP-1");
    assert_eq!(requester, "commercial@partenaire.fr");
    assert_eq!(deal_surveyor, surveyor);
    let client_ref: String = conn
        .query_row(
            "SELECT client_ref FROM clients WHERE id = ?1",
            [&client],
            |r| r.get(0),
        )
        .expect("client");
    assert_eq!(client_ref, "SYN-1");
    // The unknown number was added to the park with its building.
    let address: String = conn
        .query_row(
            "SELECT b.address FROM equipment e JOIN buildings b ON b.id = e.building_id WHERE e.number = 'NOUVEAU 9'",
            [],
            |r| r.get(0),
        )
        .expect("new equipment");
    assert_eq!(address, "8 quai Saint-Antoine, 69002 Lyon");
    // The access instructions are on the building of ASC-1.
    let (access, other, digicode): (String, String, String) = conn
        .query_row(
            "SELECT b.access_instructions, b.access_other, b.digicode FROM equipment e JOIN buildings b ON b.id = e.building_id WHERE e.number = 'ASC-1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("building");
    assert_eq!(access, r#"["Digicode","Autre"]"#);
    assert_eq!(other, "Sonner chez la gardienne");
    assert_eq!(digicode, "1234A");
    // A survey per equipment, a_realiser, numbered, linked to the deal.
    let mut stmt = conn
        .prepare(
            "SELECT s.number, s.status, s.surveyor_account_id FROM surveys s
             JOIN survey_deals sd ON sd.survey_id = s.id WHERE sd.deal_id = ?1 ORDER BY s.number",
        )
        .expect("prepare");
    let surveys: Vec<(String, String, String)> = stmt
        .query_map([&deal], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(surveys.len(), 2);
    let year = liftdesk::clock::paris_today().format("%Y").to_string();
    assert_eq!(surveys[0].0, format!("REL-{year}-00001"));
    assert_eq!(surveys[1].0, format!("REL-{year}-00002"));
    for (_, status, who) in &surveys {
        assert_eq!(status, "a_realiser");
        assert_eq!(who, &surveyor);
    }
    // The same external id again: the same deal, no second one; a new
    // equipment gets its survey added to it.
    let mut again = base_body(&s);
    again["equipments"] =
        json!([{ "equipment_number": "ASC-3", "adresse": "1 place Bellecour, 69002 Lyon" }]);
    let answer = success(post(&s.server, &s.key, "/create_survey", &again).await);
    assert_eq!(answer, json!({ "id_affaire": deal }));
    assert_eq!(count(&s, "SELECT COUNT(*) FROM deals"), 1);
    assert_eq!(
        count(
            &s,
            &format!("SELECT COUNT(*) FROM survey_deals WHERE deal_id = '{deal}'")
        ),
        3
    );
    // Without an external id: a new deal, by inventory types only.
    let mut inventory = base_body(&s);
    inventory
        .as_object_mut()
        .expect("object")
        .remove("type_affaire");
    inventory
        .as_object_mut()
        .expect("object")
        .remove("external_opportunity_id");
    inventory["type_etat_des_lieux"] = json!(["Prise en mains", "Essais", "Base parc"]);
    let other = success(post(&s.server, &s.key, "/create_survey", &inventory).await);
    assert_ne!(other["id_affaire"], json!(deal));
    assert_eq!(count(&s, "SELECT COUNT(*) FROM deals"), 2);
    // The open surveys were reused, not doubled.
    assert_eq!(count(&s, "SELECT COUNT(*) FROM surveys"), 3);
    for value in [
        "Contrat",
        "Réparation",
        "Modernisation pour devis",
        "Remplacement complet pour devis",
        "Modernisation pour commande",
        "Remplacement complet pour commande",
    ] {
        let mut body = base_body(&s);
        body["type_affaire"] = json!(value);
        body["external_opportunity_id"] = json!(format!("OPP-{value}"));
        success(post(&s.server, &s.key, "/create_survey", &body).await);
    }
    for value in ["Sans", "Digicode", "Coffre à clé", "Vigik"] {
        let mut body = base_body(&s);
        body["equipments"][0]["consignes_acces"] = json!([value]);
        success(post(&s.server, &s.key, "/create_survey", &body).await);
    }
}

#[tokio::test]
async fn refuses_each_rule_and_changes_nothing() {
    let s = setup().await;
    account(&s, &s.agency, "releveur@alpha.fr", true).await;
    inactive_account(&s, &s.agency, "inactif@alpha.fr").await;
    account(&s, &s.agency, "bureau@alpha.fr", false).await;
    account(&s, &s.other_agency, "ailleurs@beta.fr", true).await;
    lift(&s.server, &s.agency, "ASC-1").await;
    let before = snapshot(&s.server);
    let cases: Vec<(BodyChange, &str)> = vec![
        (
            Box::new(|b| {
                b.as_object_mut().expect("o").remove("type_affaire");
            }),
            "type_etat_des_lieux",
        ),
        (
            Box::new(|b| {
                b["type_affaire"] = json!("");
                b["type_etat_des_lieux"] = json!([]);
            }),
            "type_affaire",
        ),
        (
            Box::new(|b| b["type_affaire"] = json!("Vente")),
            "type_affaire",
        ),
        (
            Box::new(|b| b["type_etat_des_lieux"] = json!(["Inventaire"])),
            "type_etat_des_lieux",
        ),
        (
            Box::new(|b| {
                b.as_object_mut().expect("o").remove("solliciteur_email");
            }),
            "solliciteur_email",
        ),
        (
            Box::new(|b| b["solliciteur_email"] = json!("pas un email")),
            "solliciteur_email",
        ),
        (
            Box::new(|b| {
                b.as_object_mut().expect("o").remove("releveur_email");
            }),
            "releveur_email",
        ),
        (
            Box::new(|b| b["releveur_email"] = json!("inconnu@alpha.fr")),
            "releveur_email",
        ),
        (
            Box::new(|b| b["releveur_email"] = json!("inactif@alpha.fr")),
            "releveur_email",
        ),
        (
            Box::new(|b| b["releveur_email"] = json!("bureau@alpha.fr")),
            "releveur_email",
        ),
        (
            Box::new(|b| b["releveur_email"] = json!("ailleurs@beta.fr")),
            "releveur_email",
        ),
        (
            Box::new(|b| {
                b.as_object_mut().expect("o").remove("equipments");
            }),
            "equipments",
        ),
        (Box::new(|b| b["equipments"] = json!([])), "equipments"),
        (
            Box::new(|b| {
                b["equipments"][1]
                    .as_object_mut()
                    .expect("o")
                    .remove("equipment_number");
            }),
            "equipments[1].equipment_number",
        ),
        (
            Box::new(|b| {
                b["equipments"][1]
                    .as_object_mut()
                    .expect("o")
                    .remove("adresse");
            }),
            "equipments[1].adresse",
        ),
        (
            Box::new(|b| b["equipments"][0]["consignes_acces"] = json!(["Badge"])),
            "equipments[0].consignes_acces",
        ),
        (
            Box::new(|b| {
                b["equipments"][0]
                    .as_object_mut()
                    .expect("o")
                    .remove("consignes_acces_autre");
            }),
            "equipments[0].consignes_acces_autre",
        ),
        (
            Box::new(|b| b["equipments"][0]["client_siren"] = json!("123")),
            "siren",
        ),
        (
            Box::new(|b| b["equipments"][0]["couleur"] = json!("bleu")),
            "couleur",
        ),
    ];
    for (change, field) in cases {
        let mut body = base_body(&s);
        change(&mut body);
        let message = error(post(&s.server, &s.key, "/create_survey", &body).await, 422);
        assert!(message.contains(field), "{field}: {message}");
    }
    let mut body = base_body(&s);
    body["agency_id"] = json!(s.other_agency);
    body["releveur_email"] = json!("ailleurs@beta.fr");
    error(post(&s.server, &s.key, "/create_survey", &body).await, 403);
    error(
        post_raw(&s.server, Some(&s.key), "/create_survey", "{\"agency_id\"").await,
        400,
    );
    error(
        post_raw(
            &s.server,
            Some("svc_partner_x"),
            "/create_survey",
            &base_body(&s).to_string(),
        )
        .await,
        401,
    );
    assert_eq!(before, snapshot(&s.server));
}

#[tokio::test]
async fn open_app_creates_the_survey_if_none_is_open_and_assigns_the_user() {
    let s = setup().await;
    let first = account(&s, &s.agency, "tech1@alpha.fr", true).await;
    let second = account(&s, &s.agency, "tech2@alpha.fr", true).await;
    account(&s, &s.agency, "bureau@alpha.fr", false).await;
    account(&s, &s.other_agency, "ailleurs@beta.fr", true).await;
    let equipment_id = lift(&s.server, &s.agency, "ASC-5").await;
    lift(&s.server, &s.other_agency, "ASC-6").await;
    let open = |email: &str, number: &str| {
        let body =
            json!({ "agency_id": s.agency, "equipment_number": number, "user_email": email });
        let s = &s;
        async move { post(&s.server, &s.key, "/open_app", &body).await }
    };
    assert_eq!(success(open("TECH1@alpha.fr", "asc-5 ").await), json!({}));
    let surveys = || -> Vec<(String, String)> {
        let conn = open_db(s.server.data_dir.path());
        let mut stmt = conn
            .prepare("SELECT status, surveyor_account_id FROM surveys WHERE equipment_id = ?1")
            .expect("prepare");
        stmt.query_map([&equipment_id], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    assert_eq!(surveys(), [("a_realiser".to_owned(), first.clone())]);
    // Already open: no second survey, the new user is associated.
    success(open("tech2@alpha.fr", "ASC-5").await);
    assert_eq!(surveys(), [("a_realiser".to_owned(), second.clone())]);
    // Once it is done (tech1 submits it), a new one is created.
    let to_submit: String = open_db(s.server.data_dir.path())
        .query_row(
            "SELECT id FROM surveys WHERE equipment_id = ?1",
            [&equipment_id],
            |r| r.get(0),
        )
        .expect("survey");
    World::in_agency(&s.server, &s.agency)
        .submitted_survey(&first, &to_submit, SubmitInput::default())
        .await;
    success(open("tech1@alpha.fr", "ASC-5").await);
    assert_eq!(surveys().len(), 2);
    let before = snapshot(&s.server);
    for (email, number, status, field) in [
        ("bureau@alpha.fr", "ASC-5", 422, "user_email"),
        ("inconnu@alpha.fr", "ASC-5", 422, "user_email"),
        ("ailleurs@beta.fr", "ASC-5", 422, "user_email"),
        ("pas-un-email", "ASC-5", 422, "user_email"),
        ("tech1@alpha.fr", "", 422, "equipment_number"),
        ("tech1@alpha.fr", "ASC-6", 404, "Équipement"),
    ] {
        let message = error(open(email, number).await, status);
        assert!(message.contains(field), "{email} {number}: {message}");
    }
    let message = error(
        post(
            &s.server,
            &s.key,
            "/open_app",
            &json!({ "agency_id": s.agency, "equipment_number": "ASC-5" }),
        )
        .await,
        422,
    );
    assert!(message.contains("user_email"), "{message}");
    error(
        post(
            &s.server,
            &s.key,
            "/open_app",
            &json!({ "agency_id": s.other_agency, "equipment_number": "ASC-6", "user_email": "ailleurs@beta.fr" }),
        )
        .await,
        403,
    );
    assert_eq!(before, snapshot(&s.server));
}
