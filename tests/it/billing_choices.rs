//! Billing without technical identifiers (issue 22, point 6): a quote's
//! validity (30 days, printed, an expired quote renewed before it is
//! accepted), an invoice written without a quote naming its lifts and their
//! building (on the page and the PDF; a quote's lift and a credited
//! invoice's lifts followed), a call taken for the lift chosen on the screen
//! (by id, as the picker gives it), its building named by id on the board and
//! its lifts listed by building, and the client search by address.

use crate::common;

use chrono::{Days, NaiveDate};
use common::app::StaffClient;
use common::world::{World, morning};
use common::*;
use liftdesk::domain::quote::QuoteAction;
use liftdesk::services::clients::ClientInput;
use liftdesk::store::clock;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

fn french(day: NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

fn iso(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

fn count(server: &TestServer, sql: &str) -> i64 {
    open_db(server.data_dir.path())
        .query_row(sql, [], |r| r.get(0))
        .expect("count")
}

async fn pdf_text(staff: &StaffClient, path: &str) -> String {
    let response = staff
        .http
        .get(format!("{}/app/api{path}", staff.base))
        .send()
        .await
        .expect("pdf");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    let text = pdftotext(&response.bytes().await.expect("bytes"));
    // Whitespace squeezed, line by line.
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn actions(detail: &Value) -> Vec<&str> {
    detail["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

#[tokio::test]
async fn an_expired_quote_is_renewed_before_it_is_accepted_and_prints_its_validity() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let world = World::in_agency(&server, &org.agency_id);
    let lift = world.numbered("ASC 12").await;
    let today = clock::paris_today();
    let written = today - Days::new(45);
    let quote = world
        .at(morning(written), || async {
            let id = world
                .quote(
                    &lift,
                    "Remplacement du câble",
                    vec![World::line("Câble", 1.0, 420.0, None)],
                )
                .await;
            world.quote_act(&id, QuoteAction::Send).await;
            id
        })
        .await;
    let last_day = written + Days::new(30);
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;

    let (status, detail) = staff.get(&format!("/quotes/{quote}")).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(detail["quote"]["validUntil"], json!(iso(last_day)));
    assert_eq!(detail["quote"]["expired"], json!(true));
    assert_eq!(actions(&detail), ["send", "refuse", "renew"]);
    let (_, list) = staff.get("/quotes").await;
    assert_eq!(list["results"][0]["expired"], json!(true));
    assert_eq!(list["results"][0]["validUntil"], json!(iso(last_day)));

    // Accepting it is refused, through the screens and the REST API alike;
    // nothing changes and no event leaves.
    let refusal = json!({ "error": format!(
        "Ce devis n'est plus valable depuis le {} : renouvelez-le avant de l'accepter.",
        french(last_day)
    ) });
    let (status, answer) = staff
        .post(&format!("/quotes/{quote}/accept"), json!({}))
        .await;
    assert_eq!((status, answer), (422, refusal.clone()));
    let response = server
        .client
        .post(server.url(&format!("/api/v2/quotes/{quote}/accept")))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("accept");
    assert_eq!(response.status().as_u16(), 422);
    assert_eq!(response.json::<Value>().await.expect("json"), refusal);
    assert_eq!(
        count(
            &server,
            "SELECT COUNT(*) FROM quotes WHERE status = 'envoye'"
        ),
        1
    );
    assert_eq!(count(&server, "SELECT COUNT(*) FROM outbox_events"), 0);

    // The printed quote says until when it held.
    let text = pdf_text(&staff, &format!("/quotes/{quote}/pdf")).await;
    assert!(
        text.contains(&format!("Devis valable jusqu'au {}", french(last_day))),
        "{text}"
    );

    // Renewed: 30 days from today, the status kept, then accepted.
    let (status, renewed) = staff
        .post(&format!("/quotes/{quote}/renew"), json!({}))
        .await;
    assert_eq!(status, 201, "{renewed}");
    let (_, detail) = staff.get(&format!("/quotes/{quote}")).await;
    let new_last = today + Days::new(30);
    assert_eq!(detail["quote"]["validUntil"], json!(iso(new_last)));
    assert_eq!(detail["quote"]["expired"], json!(false));
    assert_eq!(detail["quote"]["status"], json!("envoye"));
    assert_eq!(actions(&detail), ["send", "accept", "refuse"]);
    let journal = audit_of(&server, "quote", &quote);
    let (action, entry) = journal.last().expect("renouvellement");
    assert_eq!(action, "renouvellement");
    assert_eq!(entry["validUntilBefore"], json!(iso(last_day)));
    assert_eq!(entry["validUntil"], json!(iso(new_last)));
    let text = pdf_text(&staff, &format!("/quotes/{quote}/pdf")).await;
    assert!(
        text.contains(&format!("Devis valable jusqu'au {}", french(new_last))),
        "{text}"
    );

    let (status, _) = staff
        .post(&format!("/quotes/{quote}/accept"), json!({}))
        .await;
    assert_eq!(status, 201);
    let (_, detail) = staff.get(&format!("/quotes/{quote}")).await;
    assert_eq!(detail["quote"]["expired"], json!(false));
    // Answered: nothing to renew any more.
    let (status, answer) = staff
        .post(&format!("/quotes/{quote}/renew"), json!({}))
        .await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Action refusée : impossible de renouveler ce devis au statut « Accepté » : un devis accepté est définitif ; pour changer les travaux, établissez un nouveau devis." })
        )
    );

    // A quote written today is valid 30 days.
    let fresh = world
        .quote(
            &lift,
            "Graissage des guides",
            vec![World::line("Graissage", 1.0, 90.0, None)],
        )
        .await;
    let response = server
        .client
        .get(server.url(&format!("/api/v2/quotes/{fresh}")))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("quote");
    let read: Value = response.json().await.expect("json");
    assert_eq!(read["validUntil"], json!(iso(new_last)));
    assert_eq!(read["expired"], json!(false));
    server.stop().await;
}

#[tokio::test]
async fn an_invoice_without_a_quote_names_its_lifts_and_their_building() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let world = World::in_agency(&server, &org.agency_id);
    world
        .client(ClientInput {
            client_id: Some("CLI-000007".to_owned()),
            nom: Some("Syndic Chardon".to_owned()),
            adresse: Some(Some("3 avenue Foch, 75016 Paris".to_owned())),
            siren: Some(Some("732829320".to_owned())),
            ..ClientInput::default()
        })
        .await;
    let building = world
        .building(
            Some("Résidence Les Tilleuls"),
            "12 rue des Lilas",
            Some("75011"),
            Some("Paris"),
        )
        .await;
    let first = world.lift("ASC 1", Some(&building)).await;
    let second = world.numbered("ASC 2").await;
    let theirs = World::in_agency(&server, &other.agency_id)
        .numbered("ASC 9")
        .await;
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let line = json!([{ "label": "Dépannage", "quantity": 1, "unitPrice": 180 }]);

    // An unknown lift, or another agency's, is refused and nothing is written.
    for (ghost, shown) in [("inconnu", "inconnu"), (theirs.as_str(), theirs.as_str())] {
        let (status, answer) = staff
            .post(
                "/invoices",
                json!({ "clientId": "CLI-000007", "lines": line, "equipmentIds": [first, ghost] }),
            )
            .await;
        assert_eq!(
            (status, answer),
            (
                422,
                json!({ "error": format!("Équipement introuvable dans cette agence : « {shown} ».") })
            )
        );
    }
    let too_many: Vec<String> = (0..51).map(|i| format!("e{i}")).collect();
    let (status, answer) = staff
        .post(
            "/invoices",
            json!({ "clientId": "CLI-000007", "lines": line, "equipmentIds": too_many }),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(count(&server, "SELECT COUNT(*) FROM invoices"), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM invoice_equipment"), 0);

    // Written directly: the lifts in the order given, once each.
    let (status, created) = staff
        .post(
            "/invoices",
            json!({ "clientId": "CLI-000007", "lines": line, "equipmentIds": [first, second, first] }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let invoice = str_of(&created, "id").to_owned();
    let (_, detail) = staff.get(&format!("/invoices/{invoice}")).await;
    let named: Vec<Value> = detail["invoice"]["equipment"]
        .as_array()
        .expect("equipment")
        .iter()
        .map(|e| {
            json!([
                e["id"],
                e["number"],
                e["buildingId"],
                e["building"],
                e["address"],
                e["link"]
            ])
        })
        .collect();
    assert_eq!(
        named,
        [
            json!([
                first,
                "ASC 1",
                building,
                "Résidence Les Tilleuls",
                "12 rue des Lilas, 75011 Paris",
                format!("/equipements/{first}")
            ]),
            json!([
                second,
                "ASC 2",
                null,
                null,
                null,
                format!("/equipements/{second}")
            ]),
        ]
    );
    let text = pdf_text(&staff, &format!("/invoices/{invoice}/pdf")).await;
    assert!(text.contains("Appareils concernés (2) :"), "{text}");
    assert!(
        text.contains("– N° ASC 1 — Résidence Les Tilleuls, 12 rue des Lilas, 75011 Paris"),
        "{text}"
    );
    assert!(text.contains("– N° ASC 2"), "{text}");

    // The draft's lifts are changed as a whole.
    let (status, _) = staff
        .patch(
            &format!("/invoices/{invoice}"),
            json!({ "equipmentIds": [first] }),
        )
        .await;
    assert_eq!(status, 200);
    let (_, detail) = staff.get(&format!("/invoices/{invoice}")).await;
    assert_eq!(detail["invoice"]["equipment"][0]["id"], json!(first));
    assert_eq!(
        detail["invoice"]["equipment"].as_array().map(Vec::len),
        Some(1)
    );
    let text = pdf_text(&staff, &format!("/invoices/{invoice}/pdf")).await;
    assert!(
        text.contains("Appareil concerné : N° ASC 1 — Résidence Les Tilleuls"),
        "{text}"
    );

    // Issued then credited: the credit note names the same lifts.
    let (status, issued) = staff
        .post(&format!("/invoices/{invoice}/issue"), json!({}))
        .await;
    assert_eq!(status, 201, "{issued}");
    let response = server
        .client
        .post(server.url(&format!("/api/v2/invoices/{invoice}/credit-notes")))
        .bearer_auth(&org.admin_token)
        .json(&json!({}))
        .send()
        .await
        .expect("credit note");
    assert_eq!(response.status().as_u16(), 201);
    let credit: Value = response.json().await.expect("json");
    let (_, credit_detail) = staff
        .get(&format!("/invoices/{}", str_of(&credit, "id")))
        .await;
    assert_eq!(credit_detail["invoice"]["equipment"][0]["id"], json!(first));

    // From a quote: the quote's lift.
    let quote = world
        .accepted_quote(
            &second,
            "Porte palière",
            vec![World::line("Galet", 2.0, 35.0, None)],
        )
        .await;
    let (status, made) = staff
        .post(
            &format!("/quotes/{quote}/invoice"),
            json!({ "clientId": "CLI-000007" }),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let (_, detail) = staff
        .get(&format!("/invoices/{}", str_of(&made, "id")))
        .await;
    assert_eq!(detail["invoice"]["equipment"][0]["id"], json!(second));
    assert_eq!(
        detail["invoice"]["equipment"].as_array().map(Vec::len),
        Some(1)
    );
    server.stop().await;
}

#[tokio::test]
async fn a_call_is_taken_for_the_lift_chosen_and_clients_are_found_by_their_address() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let world = World::in_agency(&server, &org.agency_id);
    let building = world
        .building(
            Some("Le Central"),
            "40 rue Camille Desmoulins",
            Some("92130"),
            Some("Issy-les-Moulineaux"),
        )
        .await;
    let chosen = world.lift("ASC 77", Some(&building)).await;
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;

    let (status, found) = staff.get("/calls/equipment?q=desmoulins%20issy").await;
    assert_eq!(status, 200);
    assert_eq!(found["total"], json!(1));
    assert_eq!(found["results"][0]["id"], json!(chosen));

    let (status, answer) = staff
        .post(
            "/calls",
            json!({ "type": "panne", "description": "Cabine immobilisée" }),
        )
        .await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Indiquez l'appareil de l'appel : choisissez-le (« equipmentId ») ou donnez son numéro dans le parc (« equipement »)." })
        )
    );
    let (status, answer) = staff
        .post(
            "/calls",
            json!({ "equipmentId": "inconnu", "type": "panne", "description": "Cabine immobilisée" }),
        )
        .await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le champ « equipmentId » ne correspond à aucun appareil du parc de l'agence : « inconnu »." })
        )
    );
    assert_eq!(count(&server, "SELECT COUNT(*) FROM calls"), 0);
    let (status, created) = staff
        .post(
            "/calls",
            json!({ "equipmentId": chosen, "type": "panne", "description": "Cabine immobilisée" }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let equipment_of_call: String = open_db(server.data_dir.path())
        .query_row(
            "SELECT equipment_id FROM calls WHERE id = ?1",
            [str_of(&created, "id")],
            |r| r.get(0),
        )
        .expect("call");
    assert_eq!(equipment_of_call, chosen);
    // The board names the call's building by its id too (a link to its page),
    // and the building's page lists its lifts.
    let (_, column) = staff.get("/calls?statut=ouverte").await;
    assert_eq!(column["results"][0]["buildingId"], json!(building));
    assert_eq!(column["results"][0]["building"], json!("Le Central"));
    let other_building = world
        .building(
            Some("Ailleurs"),
            "1 rue Haute",
            Some("75001"),
            Some("Paris"),
        )
        .await;
    world.lift("ASC 78", Some(&other_building)).await;
    let (status, park) = staff.get(&format!("/equipment?building={building}")).await;
    assert_eq!(status, 200, "{park}");
    assert_eq!(park["total"], json!(1));
    assert_eq!(park["results"][0]["id"], json!(chosen));

    // Clients are found by their street, postal code or city too.
    world
        .client(ClientInput {
            client_id: Some("CLI-000003".to_owned()),
            nom: Some("Foncière Lumière".to_owned()),
            adresse: Some(Some(
                "5 quai de la Seine, 92130 Issy-les-Moulineaux".to_owned(),
            )),
            ..ClientInput::default()
        })
        .await;
    world.client_named("CLI-000004", "Syndic Étoile").await;
    for q in ["issy", "92130", "quai%20seine"] {
        let (status, list) = staff.get(&format!("/clients?q={q}")).await;
        assert_eq!(status, 200);
        assert_eq!(list["total"], json!(1), "{q}: {list}");
        assert_eq!(list["results"][0]["id"], json!("CLI-000003"), "{q}");
        assert_eq!(
            list["results"][0]["fullAddress"],
            json!("5 quai de la Seine, 92130 Issy-les-Moulineaux")
        );
    }
    server.stop().await;
}
