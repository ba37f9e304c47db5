//! REST API v2: the life of invoices and credit notes — draft, issue with the
//! gapless number, send, payment, credit notes — end to end over HTTP.

use crate::common;

use chrono::{Datelike, Duration, NaiveDate};
use common::db::TestDb as Connection;
use common::world::World as Fixtures;
use common::*;
use liftdesk::domain::invoice::{self, InvoiceAction, InvoiceNature, InvoiceStatus};
use liftdesk::services::clients::ClientInput;
use liftdesk::store::params;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Helpers and fixtures
// ---------------------------------------------------------------------------

async fn post(
    server: &TestServer,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = server.client.post(server.url(path));
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn today() -> String {
    liftdesk::clock::paris_today()
        .format("%Y-%m-%d")
        .to_string()
}

fn year() -> i32 {
    liftdesk::clock::paris_today().year()
}

fn count(db: &Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).expect("count")
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    member_token: String,
    equipment: String,
    other_client: String,
}

const CLIENT: &str = "CLI-000042";

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    server.cli_json(&[
        "user",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "Membre",
        "--password",
        "motdepasse1",
        "--agency",
        &org.agency_id,
    ]);
    let member = server.cli_json(&[
        "token",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "t",
    ]);
    let equipment = Fixtures::in_agency(&server, &org.agency_id)
        .numbered("ASC 7")
        .await;
    for (agency, client_ref, name, archived) in [
        (&org.agency_id, CLIENT, "Syndic Dupont", false),
        (&org.agency_id, "CLI-000099", "Ancien client", true),
        (&other.agency_id, "CLI-000050", "Client de Martin", false),
    ] {
        Fixtures::in_agency(&server, agency)
            .client(ClientInput {
                client_id: Some(client_ref.to_owned()),
                nom: Some(name.to_owned()),
                adresse: Some(Some("12 rue de la Paix, 75002 Paris".to_owned())),
                complement_adresse: Some(Some("Bâtiment B".to_owned())),
                siren: Some(Some("732829320".to_owned())),
                supprime: Some(archived),
                ..ClientInput::default()
            })
            .await;
    }
    World {
        server,
        org,
        other,
        member_token: str_of(&member, "token").to_owned(),
        equipment,
        other_client: "CLI-000050".to_owned(),
    }
}

fn lines() -> Value {
    json!([
        { "label": "Maintenance du 1er trimestre", "quantity": 1, "unitPrice": 450 },
        { "label": "Remplacement du bouton palier", "quantity": 2, "unitPrice": 37.5, "vatRate": 10 }
    ])
}

async fn draft(w: &World) -> String {
    let (status, body) = post(
        &w.server,
        "/api/v2/invoices",
        Some(&w.org.admin_token),
        Some(json!({ "clientId": CLIENT, "lines": lines() })),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    str_of(&body, "id").to_owned()
}

async fn act(w: &World, id: &str, action: &str, body: Option<Value>) -> (u16, Value) {
    post(
        &w.server,
        &format!("/api/v2/invoices/{id}/{action}"),
        Some(&w.org.admin_token),
        body,
    )
    .await
}

async fn read(w: &World, id: &str) -> Value {
    let (status, body) = w
        .server
        .get_with(
            &format!("/api/v2/invoices/{id}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

fn refusal(nature: InvoiceNature, status: InvoiceStatus, action: InvoiceAction) -> Value {
    json!({
        "error": invoice::transition(nature, status, action)
            .expect_err("refused")
            .to_string()
    })
}

async fn issued(w: &World) -> (String, Value) {
    let id = draft(w).await;
    assert_eq!(act(w, &id, "issue", None).await.0, 201);
    let body = read(w, &id).await;
    (id, body)
}

// ---------------------------------------------------------------------------
// Drafts
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_draft_invoice_has_no_number_and_its_totals() {
    let w = world().await;
    let (status, created) = post(
        &w.server,
        "/api/v2/invoices",
        Some(&w.member_token),
        Some(json!({ "clientId": CLIENT, "lines": lines() })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = str_of(&created, "id").to_owned();
    assert_eq!(
        created,
        json!({
            "id": id,
            "ok": true,
            "link": format!("/factures/{id}"),
            "url": format!("{}/factures/{id}", w.server.base_url),
        })
    );
    let body = read(&w, &id).await;
    assert_eq!(body["number"], Value::Null);
    assert_eq!(body["status"], json!("brouillon"));
    assert_eq!(body["statusLabel"], json!("Brouillon"));
    assert_eq!(body["nature"], json!("facture"));
    assert_eq!(body["client"], json!(CLIENT));
    assert_eq!(body["buyer"], json!("Syndic Dupont"));
    assert_eq!(
        body["buyerAddress"],
        json!("12 rue de la Paix, Bâtiment B, 75002 Paris")
    );
    assert_eq!(body["buyerSiren"], json!("732829320"));
    assert_eq!(body["createdOn"], json!(today()));
    for field in ["issuedOn", "dueOn", "paidOn", "quote", "creditedInvoice"] {
        assert_eq!(body[field], Value::Null, "{field}");
    }
    assert_eq!(body["creditNotes"], json!([]));
    assert_eq!(
        body["lines"],
        json!([
            { "label": "Maintenance du 1er trimestre", "quantity": 1.0, "unitPrice": 450.0, "vatRate": 20.0, "totalExclTax": 450.0 },
            { "label": "Remplacement du bouton palier", "quantity": 2.0, "unitPrice": 37.5, "vatRate": 10.0, "totalExclTax": 75.0 }
        ])
    );
    assert_eq!(
        body["vatByRate"],
        json!([
            { "rate": 10.0, "base": 75.0, "vat": 7.5 },
            { "rate": 20.0, "base": 450.0, "vat": 90.0 }
        ])
    );
    assert_eq!(body["totalExclTax"], json!(525.0));
    assert_eq!(body["totalInclTax"], json!(622.5));
    // The list shows it too, with a null number.
    let (_, page) = w
        .server
        .get_with(
            "/api/v2/invoices?status=brouillon",
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["number"], Value::Null);
    assert_eq!(page["results"][0]["totalInclTax"], json!(622.5));
    let db = open_db(w.server.data_dir.path());
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM audit_log WHERE object_type = 'invoice' AND action = 'creation'"
        ),
        1
    );
    w.server.stop().await;
}

#[tokio::test]
async fn a_draft_from_an_accepted_quote_copies_its_rows() {
    let w = world().await;
    let (status, quote) = post(
        &w.server,
        "/api/v2/quotes",
        Some(&w.org.admin_token),
        Some(json!({
            "equipmentId": w.equipment,
            "origin": "reserve",
            "object": "Levée de réserve : éclairage de la cabine",
            "rows": [
                { "label": "Plafonnier LED", "quantity": 1, "unitPrice": 189.9 },
                { "label": "Pose", "quantity": 0.75, "unitPrice": 65, "vatRate": 10 }
            ]
        })),
    )
    .await;
    assert_eq!(status, 201);
    let quote_id = str_of(&quote, "id").to_owned();
    let body = json!({ "clientId": CLIENT, "quoteId": quote_id });

    // Not accepted yet: refused.
    let (status, answer) = post(
        &w.server,
        "/api/v2/invoices",
        Some(&w.org.admin_token),
        Some(body.clone()),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        answer,
        json!({ "error": format!("Seul un devis accepté peut être facturé : le devis DV-{}-00001 est au statut « Brouillon ».", year()) })
    );
    let (status, _) = post(
        &w.server,
        &format!("/api/v2/quotes/{quote_id}/accept"),
        Some(&w.org.admin_token),
        None,
    )
    .await;
    assert_eq!(status, 201);
    let (status, created) = post(
        &w.server,
        "/api/v2/invoices",
        Some(&w.org.admin_token),
        Some(body),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let invoice = read(&w, str_of(&created, "id")).await;
    assert_eq!(
        invoice["lines"],
        json!([
            { "label": "Plafonnier LED", "quantity": 1.0, "unitPrice": 189.9, "vatRate": 20.0, "totalExclTax": 189.9 },
            { "label": "Pose", "quantity": 0.75, "unitPrice": 65.0, "vatRate": 10.0, "totalExclTax": 48.75 }
        ])
    );
    assert_eq!(invoice["quote"]["id"], json!(quote_id));
    assert_eq!(
        invoice["quote"]["number"],
        json!(format!("DV-{}-00001", year()))
    );
    // Lines given with a quote: the lines are used, the quote is linked.
    let (status, created) = post(
        &w.server,
        "/api/v2/invoices",
        Some(&w.org.admin_token),
        Some(json!({ "clientId": CLIENT, "quoteId": quote_id, "lines": [{ "label": "Acompte de 30 %", "quantity": 1, "unitPrice": 71.59 }] })),
    )
    .await;
    assert_eq!(status, 201);
    let invoice = read(&w, str_of(&created, "id")).await;
    assert_eq!(invoice["lines"].as_array().map(Vec::len), Some(1));
    assert_eq!(invoice["quote"]["id"], json!(quote_id));
    w.server.stop().await;
}

#[tokio::test]
async fn draft_refusals_are_french() {
    let w = world().await;
    // Another organization's accepted quote is not found here.
    let martin = Fixtures::in_agency(&w.server, &w.other.agency_id);
    let other_equipment = martin.numbered("X").await;
    let theirs = martin
        .accepted_quote(
            &other_equipment,
            "Devis",
            vec![Fixtures::line("Travaux", 1.0, 100.0, None)],
        )
        .await;
    let cases = [
        (json!({ "lines": lines() }), "Le champ « clientId » est obligatoire.".to_owned()),
        (
            json!({ "clientId": CLIENT }),
            "Indiquez les lignes de la facture (« lines ») ou le devis accepté à facturer (« quoteId »).".to_owned(),
        ),
        (
            json!({ "clientId": CLIENT, "lines": [] }),
            "La facture doit comporter au moins une ligne.".to_owned(),
        ),
        (
            json!({ "clientId": "CLI-404", "lines": lines() }),
            "Client introuvable dans cette agence : « CLI-404 ».".to_owned(),
        ),
        (
            json!({ "clientId": w.other_client, "lines": lines() }),
            format!("Client introuvable dans cette agence : « {} ».", w.other_client),
        ),
        (
            json!({ "clientId": "CLI-000099", "lines": lines() }),
            "Le client « Ancien client » est archivé : il ne peut plus être facturé.".to_owned(),
        ),
        (
            json!({ "clientId": CLIENT, "quoteId": theirs }),
            format!("Devis introuvable dans cette agence : « {theirs} »."),
        ),
        (
            json!({ "clientId": CLIENT, "lines": [
                { "label": "A", "quantity": 1, "unitPrice": 1 },
                { "label": "B", "quantity": -1, "unitPrice": 1 }
            ] }),
            "Ligne 2 : la quantité doit être supérieure à zéro (reçu : -1).".to_owned(),
        ),
        (
            json!({ "clientId": CLIENT, "lines": [{ "label": "A", "quantity": 1, "unitPrice": 0.001 }] }),
            "Ligne 1 : le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : 0,001).".to_owned(),
        ),
        (
            json!({ "clientId": CLIENT, "lines": [{ "label": "", "quantity": 1, "unitPrice": 1 }] }),
            "Ligne 1 : le libellé est obligatoire.".to_owned(),
        ),
        (
            json!({ "clientId": CLIENT, "lines": lines(), "number": "FA-2026-000001" }),
            "Le champ « number » n'est pas reconnu.".to_owned(),
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = post(
            &w.server,
            "/api/v2/invoices",
            Some(&w.org.admin_token),
            Some(body),
        )
        .await;
        assert_eq!(status, 422, "{message}");
        assert_eq!(answer, json!({ "error": message }));
    }
    let (status, _) = post(
        &w.server,
        "/api/v2/invoices",
        None,
        Some(json!({ "clientId": CLIENT, "lines": lines() })),
    )
    .await;
    assert_eq!(status, 401);
    let db = open_db(w.server.data_dir.path());
    assert_eq!(count(&db, "SELECT COUNT(*) FROM invoices"), 0);
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// Issue, send, payment
// ---------------------------------------------------------------------------

#[tokio::test]
async fn every_invoice_transition_allowed_and_refused() {
    use InvoiceAction::*;
    use InvoiceNature::Facture;
    use InvoiceStatus::*;
    let w = world().await;
    let id = draft(&w).await;

    // brouillon: send and payment are refused.
    assert_eq!(
        act(&w, &id, "send", None).await,
        (422, refusal(Facture, Brouillon, Send))
    );
    assert_eq!(
        act(&w, &id, "payment", None).await,
        (422, refusal(Facture, Brouillon, RecordPayment))
    );
    assert_eq!(
        act(&w, &id, "send", None).await.1,
        json!({ "error": "Action refusée : impossible d'envoyer cette facture au statut « Brouillon » : l'émission, qui attribue le numéro, doit précéder l'envoi." })
    );

    // The client changes its name before the issue: the buyer is frozen at issue.
    let db = open_db(w.server.data_dir.path());
    let ours = Fixtures::in_agency(&w.server, &w.org.agency_id);
    ours.client(ClientInput {
        client_id: Some(CLIENT.to_owned()),
        nom: Some("Syndic Dupont & Fils".to_owned()),
        siren: Some(Some("552100554".to_owned())),
        ..ClientInput::default()
    })
    .await;

    // brouillon → emise: number, dates, buyer.
    let (status, answer) = act(&w, &id, "issue", None).await;
    assert_eq!(status, 201);
    assert_eq!(
        answer,
        json!({
            "id": id,
            "ok": true,
            "link": format!("/factures/{id}"),
            "url": format!("{}/factures/{id}", w.server.base_url),
        })
    );
    let body = read(&w, &id).await;
    let number = format!("FA-{}-000001", year());
    assert_eq!(body["number"], json!(number));
    assert_eq!(body["status"], json!("emise"));
    assert_eq!(body["statusLabel"], json!("Émise"));
    assert_eq!(body["issuedOn"], json!(today()));
    let due = (liftdesk::clock::paris_today() + Duration::days(30))
        .format("%Y-%m-%d")
        .to_string();
    assert_eq!(body["dueOn"], json!(due));
    assert_eq!(body["paidOn"], Value::Null);
    assert_eq!(body["buyer"], json!("Syndic Dupont & Fils"));
    assert_eq!(body["buyerSiren"], json!("552100554"));
    let amounts = (
        body["lines"].clone(),
        body["totalExclTax"].clone(),
        body["totalInclTax"].clone(),
    );

    // After the issue the client changes again: the issued invoice does not.
    ours.client(ClientInput {
        client_id: Some(CLIENT.to_owned()),
        nom: Some("Nouveau nom".to_owned()),
        ..ClientInput::default()
    })
    .await;
    assert_eq!(read(&w, &id).await["buyer"], json!("Syndic Dupont & Fils"));

    // emise: issue again refused (the number is final).
    assert_eq!(
        act(&w, &id, "issue", None).await,
        (422, refusal(Facture, Emise, Issue))
    );
    // emise → envoyee, then a reminder.
    assert_eq!(act(&w, &id, "send", None).await.0, 201);
    assert_eq!(read(&w, &id).await["status"], json!("envoyee"));
    assert_eq!(act(&w, &id, "send", None).await.0, 201);
    assert_eq!(read(&w, &id).await["statusLabel"], json!("Envoyée"));
    assert_eq!(
        act(&w, &id, "issue", None).await,
        (422, refusal(Facture, Envoyee, Issue))
    );

    // Payment dates: malformed, before the issue, in the future.
    let yesterday = (liftdesk::clock::paris_today() - Duration::days(1))
        .format("%Y-%m-%d")
        .to_string();
    let tomorrow = (liftdesk::clock::paris_today() + Duration::days(1))
        .format("%Y-%m-%d")
        .to_string();
    for (paid_on, message) in [
        (
            "12/03/2026".to_owned(),
            "Le champ « paidOn » doit être une date au format AAAA-MM-JJ (reçu : « 12/03/2026 »)."
                .to_owned(),
        ),
        (
            yesterday.clone(),
            format!(
                "La date de règlement ({yesterday}) ne peut pas précéder la date d'émission ({}).",
                today()
            ),
        ),
        (
            tomorrow.clone(),
            format!("La date de règlement ({tomorrow}) ne peut pas être dans le futur."),
        ),
    ] {
        let (status, answer) = act(&w, &id, "payment", Some(json!({ "paidOn": paid_on }))).await;
        assert_eq!(status, 422, "{paid_on}");
        assert_eq!(answer, json!({ "error": message }));
    }
    let (status, answer) = act(&w, &id, "payment", Some(json!({ "payé": true }))).await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le champ « payé » n'est pas reconnu." })
        )
    );
    // envoyee → payee, on the day given.
    let (status, answer) = act(&w, &id, "payment", Some(json!({ "paidOn": today() }))).await;
    assert_eq!(status, 201, "{answer}");
    let body = read(&w, &id).await;
    assert_eq!(body["status"], json!("payee"));
    assert_eq!(body["statusLabel"], json!("Payée"));
    assert_eq!(body["paidOn"], json!(today()));
    // payee is final.
    assert_eq!(
        act(&w, &id, "payment", None).await,
        (422, refusal(Facture, Payee, RecordPayment))
    );
    assert_eq!(
        act(&w, &id, "send", None).await,
        (422, refusal(Facture, Payee, Send))
    );
    assert_eq!(
        act(&w, &id, "issue", None).await,
        (422, refusal(Facture, Payee, Issue))
    );

    // emise → payee directly, with no body at all (paid today).
    let (second, _) = issued(&w).await;
    let (status, _) = act(&w, &second, "payment", None).await;
    assert_eq!(status, 201);
    let body = read(&w, &second).await;
    assert_eq!(
        (body["status"].clone(), body["paidOn"].clone()),
        (json!("payee"), json!(today()))
    );
    assert_eq!(body["number"], json!(format!("FA-{}-000002", year())));

    // Through all of it, the first invoice's lines and amounts never changed.
    let body = read(&w, &id).await;
    assert_eq!(
        (
            body["lines"].clone(),
            body["totalExclTax"].clone(),
            body["totalInclTax"].clone()
        ),
        amounts
    );
    let actions: Vec<String> = db
        .prepare("SELECT action FROM audit_log WHERE object_type = 'invoice' AND object_id = ?1 ORDER BY seq")
        .expect("prepare")
        .query_map([&id], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        actions,
        ["creation", "emission", "envoi", "relance", "reglement"]
    );
    w.server.stop().await;
}

async fn payments_of(w: &World, id: &str) -> i64 {
    let db = open_db(w.server.data_dir.path());
    db.query_row(
        "SELECT COUNT(*) FROM invoice_payments WHERE invoice_id = ?1",
        [id],
        |r| r.get(0),
    )
    .expect("count")
}

/// The agency's case: after a credit note, « Enregistrer le règlement »
/// offered the invoice's whole total. What is due is the total less the
/// issued credit notes and the payments; payments may be partial, each with
/// a day, a method and a reference; the invoice is `payee` only at zero.
#[tokio::test]
async fn payments_and_credit_notes_mixed_leave_the_right_balance() {
    let w = world().await;
    let (id, invoice) = issued(&w).await;
    let number = invoice["number"].as_str().expect("number").to_owned();
    assert_eq!(invoice["totalInclTax"], json!(622.5));
    assert_eq!(invoice["balance"], json!(622.5));
    assert_eq!(invoice["paidTotal"], json!(0.0));
    assert_eq!(invoice["creditedTotal"], json!(0.0));
    assert_eq!(invoice["payments"], json!([]));
    assert_eq!(read(&w, &draft(&w).await).await["balance"], Value::Null);

    // A 37,40 € credit note (31,17 € HT at 20 %).
    let geste =
        json!({ "lines": [{ "label": "Geste commercial", "quantity": 1, "unitPrice": 31.17 }] });
    let (status, created) = act(&w, &id, "credit-notes", Some(geste)).await;
    assert_eq!(status, 201, "{created}");
    let body = read(&w, &id).await;
    assert_eq!(body["creditedTotal"], json!(37.4));
    assert_eq!(body["balance"], json!(585.1));
    assert_eq!(body["status"], json!("emise"));

    // More than the balance: refused, naming the balance; nothing written.
    let (status, answer) = act(&w, &id, "payment", Some(json!({ "amount": 622.5 }))).await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le règlement de 622,50\u{a0}€ dépasse le reste à payer de la facture : 585,10\u{a0}€." })
        )
    );
    // Other refusals, each French and naming its field.
    let long = "R".repeat(101);
    for (body, message) in [
        (
            json!({ "amount": 0 }),
            "Le champ « amount » doit être un montant en euros supérieur à zéro, avec deux décimales au plus (reçu : 0).",
        ),
        (
            json!({ "amount": -5 }),
            "Le champ « amount » doit être un montant en euros supérieur à zéro, avec deux décimales au plus (reçu : -5).",
        ),
        (
            json!({ "amount": 12.345 }),
            "Le champ « amount » doit être un montant en euros supérieur à zéro, avec deux décimales au plus (reçu : 12.345).",
        ),
        (
            json!({ "method": "bitcoin" }),
            "Le champ « method » doit valoir « virement », « cheque », « prelevement », « especes », « carte » (reçu : « bitcoin »).",
        ),
        (
            json!({ "reference": long }),
            "Le champ « reference » ne doit pas dépasser 100 caractères.",
        ),
    ] {
        let (status, answer) = act(&w, &id, "payment", Some(body.clone())).await;
        assert_eq!(
            (status, answer),
            (422, json!({ "error": message })),
            "{body}"
        );
    }
    assert_eq!(payments_of(&w, &id).await, 0);

    // A partial payment by cheque: the status stays, the balance falls.
    let (status, answer) = act(
        &w,
        &id,
        "payment",
        Some(json!({ "amount": 200, "method": "cheque", "reference": "  CHQ 1234567 ", "paidOn": today() })),
    )
    .await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(answer["id"], json!(id));
    let body = read(&w, &id).await;
    assert_eq!(body["status"], json!("emise"));
    assert_eq!(body["paidOn"], Value::Null);
    assert_eq!(body["paidTotal"], json!(200.0));
    assert_eq!(body["balance"], json!(385.1));
    let payments = body["payments"].as_array().expect("payments");
    assert_eq!(payments.len(), 1);
    let first_id = str_of(&payments[0], "id").to_owned();
    assert_eq!(
        payments[0],
        json!({
            "id": first_id,
            "paidOn": today(),
            "amount": 200.0,
            "method": "cheque",
            "methodLabel": "Chèque",
            "reference": "CHQ 1234567",
        })
    );

    // The list row agrees: not paid yet.
    let (status, list) = w
        .server
        .get_with(
            &format!("/api/v2/invoices?client={CLIENT}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let row = list["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["id"] == json!(id))
        .expect("row")
        .clone();
    assert_eq!(
        (row["status"].clone(), row["paidOn"].clone()),
        (json!("emise"), Value::Null)
    );

    // A second credit note, then a payment with no amount: the rest.
    let (status, _) = act(
        &w,
        &id,
        "credit-notes",
        Some(json!({ "lines": [{ "label": "Remise", "quantity": 1, "unitPrice": 70.92 }] })),
    )
    .await;
    assert_eq!(status, 201);
    let body = read(&w, &id).await;
    assert_eq!(body["creditedTotal"], json!(122.5));
    assert_eq!(body["balance"], json!(300.0));
    assert_eq!(body["status"], json!("emise"));
    let over = act(&w, &id, "payment", Some(json!({ "amount": 300.01 }))).await;
    assert_eq!(
        over,
        (
            422,
            json!({ "error": "Le règlement de 300,01\u{a0}€ dépasse le reste à payer de la facture : 300,00\u{a0}€." })
        )
    );
    let (status, _) = act(&w, &id, "payment", Some(json!({ "method": "virement" }))).await;
    assert_eq!(status, 201);
    let body = read(&w, &id).await;
    assert_eq!(body["status"], json!("payee"));
    assert_eq!(body["paidOn"], json!(today()));
    assert_eq!(body["balance"], json!(0.0));
    assert_eq!(body["paidTotal"], json!(500.0));
    let amounts: Vec<(Value, Value)> = body["payments"]
        .as_array()
        .expect("payments")
        .iter()
        .map(|p| (p["amount"].clone(), p["method"].clone()))
        .collect();
    assert_eq!(
        amounts,
        [
            (json!(200.0), json!("cheque")),
            (json!(300.0), json!("virement"))
        ]
    );
    // Settled: nothing more is taken.
    assert_eq!(
        act(&w, &id, "payment", Some(json!({ "amount": 1 }))).await,
        (
            422,
            refusal(
                InvoiceNature::Facture,
                InvoiceStatus::Payee,
                InvoiceAction::RecordPayment
            )
        )
    );
    assert_eq!(payments_of(&w, &id).await, 2);

    // Each payment is in the journal with its amount, method and balance.
    let db = open_db(w.server.data_dir.path());
    let details: Vec<Value> = db
        .prepare("SELECT detail FROM audit_log WHERE object_type = 'invoice' AND object_id = ?1 AND action = 'reglement' ORDER BY seq")
        .expect("prepare")
        .query_map([&id], |r| r.get::<String>(0))
        .expect("query")
        .map(|d| serde_json::from_str(&d.expect("row")).expect("json"))
        .collect();
    assert_eq!(
        details,
        [
            json!({ "number": number, "paidOn": today(), "amountCents": 20000, "method": "cheque", "reference": "CHQ 1234567", "balanceCents": 38510, "settled": false }),
            json!({ "number": number, "paidOn": today(), "amountCents": 30000, "method": "virement", "reference": null, "balanceCents": 0, "settled": true }),
        ]
    );
    w.server.stop().await;
}

/// A credit note that leaves nothing due settles the invoice; one issued
/// after the payment leaves an overpayment, refunded through the credit
/// note, whose refunds follow the same rules.
#[tokio::test]
async fn credit_notes_settle_and_refunds_follow_the_same_rules() {
    let w = world().await;
    let (id, _) = issued(&w).await;
    assert_eq!(
        act(&w, &id, "payment", Some(json!({ "amount": 500 })))
            .await
            .0,
        201
    );
    assert_eq!(read(&w, &id).await["balance"], json!(122.5));
    // The rest is credited: the invoice is settled by the credit note.
    let (status, created) = act(
        &w,
        &id,
        "credit-notes",
        Some(json!({ "lines": [{ "label": "Remise", "quantity": 1, "unitPrice": 102.08 }] })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let note_id = str_of(&created, "id").to_owned();
    let body = read(&w, &id).await;
    assert_eq!(body["creditedTotal"], json!(122.5));
    assert_eq!(
        (
            body["status"].clone(),
            body["paidOn"].clone(),
            body["balance"].clone()
        ),
        (json!("payee"), json!(today()), json!(0.0))
    );
    let db = open_db(w.server.data_dir.path());
    let last: (String, String) = db
        .query_row(
            "SELECT action, detail FROM audit_log WHERE object_type = 'invoice' AND object_id = ?1 ORDER BY seq DESC LIMIT 1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!(last.0, "solde");

    // The credit note's own balance: its refunds, at most its total.
    let note = read(&w, &note_id).await;
    assert_eq!(note["balance"], json!(122.5));
    assert_eq!(note["creditedTotal"], json!(0.0));
    assert_eq!(
        act(&w, &note_id, "payment", Some(json!({ "amount": 130 }))).await,
        (
            422,
            json!({ "error": "Le remboursement de 130,00\u{a0}€ dépasse le reste à rembourser de l'avoir : 122,50\u{a0}€." })
        )
    );
    assert_eq!(
        act(
            &w,
            &note_id,
            "payment",
            Some(json!({ "amount": 22.5, "method": "virement" }))
        )
        .await
        .0,
        201
    );
    let note = read(&w, &note_id).await;
    assert_eq!(
        (note["status"].clone(), note["balance"].clone()),
        (json!("emise"), json!(100.0))
    );
    assert_eq!(act(&w, &note_id, "payment", None).await.0, 201);
    let note = read(&w, &note_id).await;
    assert_eq!(
        (note["statusLabel"].clone(), note["balance"].clone()),
        (json!("Soldé"), json!(0.0))
    );

    // Paid in full, then credited: the invoice owes less than it received.
    let (paid, _) = issued(&w).await;
    assert_eq!(act(&w, &paid, "payment", None).await.0, 201);
    let (status, _) = act(
        &w,
        &paid,
        "credit-notes",
        Some(
            json!({ "lines": [{ "label": "Erreur de quantité", "quantity": 1, "unitPrice": 25 }] }),
        ),
    )
    .await;
    assert_eq!(status, 201);
    let body = read(&w, &paid).await;
    assert_eq!(
        (body["status"].clone(), body["balance"].clone()),
        (json!("payee"), json!(-30.0))
    );
    w.server.stop().await;
}

#[tokio::test]
async fn an_issued_invoice_is_never_edited_nor_deleted() {
    let w = world().await;
    let (id, before) = issued(&w).await;
    // No route replaces or removes an invoice; PATCH edits drafts only.
    let response = w
        .server
        .client
        .patch(w.server.url(&format!("/api/v2/invoices/{id}")))
        .header("Authorization", format!("Bearer {}", w.org.admin_token))
        .json(&json!({ "lines": [{ "label": "x", "quantity": 1, "unitPrice": 1 }] }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 409);
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({ "error": "Modification refusée : impossible de modifier cette facture au statut « Émise » : une facture émise est figée : son numéro, ses lignes et ses montants ne changent plus ; corrigez-la par un avoir." })
    );
    for method in [reqwest::Method::PUT, reqwest::Method::DELETE] {
        let response = w
            .server
            .client
            .request(
                method.clone(),
                w.server.url(&format!("/api/v2/invoices/{id}")),
            )
            .header("Authorization", format!("Bearer {}", w.org.admin_token))
            .json(&json!({ "lines": [] }))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 405, "{method}");
    }
    // Issuing, sending and paying leave lines and amounts as issued.
    assert_eq!(act(&w, &id, "issue", None).await.0, 422);
    assert_eq!(act(&w, &id, "send", None).await.0, 201);
    assert_eq!(act(&w, &id, "payment", None).await.0, 201);
    let after = read(&w, &id).await;
    for field in [
        "number",
        "lines",
        "vatByRate",
        "totalExclTax",
        "totalInclTax",
        "issuedOn",
        "dueOn",
        "buyer",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    let db = open_db(w.server.data_dir.path());
    assert_eq!(count(&db, "SELECT COUNT(*) FROM invoices"), 1);
    w.server.stop().await;
}

#[tokio::test]
async fn thirty_issues_some_in_parallel_give_numbers_1_to_30_without_gap() {
    let w = world().await;
    let mut drafts = Vec::new();
    for _ in 0..30 {
        drafts.push(draft(&w).await);
    }
    // Ten one after the other…
    for id in &drafts[..10] {
        assert_eq!(act(&w, id, "issue", None).await.0, 201);
    }
    // …and twenty at once, each issued twice concurrently (only one wins).
    let mut tasks = Vec::new();
    for id in drafts[10..].iter().chain(drafts[10..].iter()) {
        let client = w.server.client.clone();
        let url = w.server.url(&format!("/api/v2/invoices/{id}/issue"));
        let token = w.org.admin_token.clone();
        tasks.push(tokio::spawn(async move {
            client
                .post(url)
                .header("Authorization", format!("Bearer {token}"))
                .send()
                .await
                .expect("request")
                .status()
                .as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("task"));
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        20,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 422).count(),
        20,
        "{statuses:?}"
    );

    let db = open_db(w.server.data_dir.path());
    let mut seqs: Vec<i64> = db
        .prepare("SELECT number_seq FROM invoices WHERE nature = 'facture' ORDER BY number_seq")
        .expect("prepare")
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    seqs.dedup();
    assert_eq!(seqs, (1..=30).collect::<Vec<i64>>());
    let numbers: Vec<String> = db
        .prepare("SELECT number FROM invoices ORDER BY number_seq")
        .expect("prepare")
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let expected: Vec<String> = (1..=30).map(|n| format!("FA-{}-{n:06}", year())).collect();
    assert_eq!(numbers, expected);
    let last: i64 = db
        .query_row(
            "SELECT last_seq FROM invoice_counters WHERE agency_id = ?1 AND nature = 'facture' AND year = ?2",
            params![w.org.agency_id, year()],
            |r| r.get(0),
        )
        .expect("counter");
    assert_eq!(last, 30);
    // The sequence follows the issue order: the first ten in order.
    for (n, id) in drafts[..10].iter().enumerate() {
        assert_eq!(
            read(&w, id).await["number"],
            json!(format!("FA-{}-{:06}", year(), n + 1))
        );
    }
    // Credit notes have their own series.
    let (status, credit) = act(
        &w,
        &drafts[0],
        "credit-notes",
        Some(json!({ "lines": [{ "label": "Geste", "quantity": 1, "unitPrice": 10 }] })),
    )
    .await;
    assert_eq!(status, 201);
    let note = read(&w, str_of(&credit, "id")).await;
    assert_eq!(note["number"], json!(format!("AV-{}-000001", year())));
    w.server.stop().await;
}

#[tokio::test]
async fn numbering_continues_after_existing_numbers_without_a_counter() {
    let w = world().await;
    // Forty-one invoices issued on 2 January: FA-…-000041 is the last one.
    // (The operations keep the counter: no operation leaves issued invoices
    // without one, as a file of an older version did.)
    let ours = Fixtures::in_agency(&w.server, &w.org.agency_id);
    let day = NaiveDate::from_ymd_opt(year(), 1, 2).expect("2 January");
    for _ in 0..41 {
        ours.invoice_on(
            day,
            CLIENT,
            InvoiceStatus::Emise,
            vec![Fixtures::line("Maintenance", 1.0, 100.0, None)],
        )
        .await;
    }
    let (_, body) = issued(&w).await;
    assert_eq!(body["number"], json!(format!("FA-{}-000042", year())));
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// Credit notes
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_full_credit_note_cancels_the_invoice_and_nothing_more_can_be_credited() {
    let w = world().await;
    let (id, invoice) = issued(&w).await;
    let number = invoice["number"].as_str().expect("number").to_owned();

    // A member may not: 403 with a French reason, nothing written.
    let (status, answer) = post(
        &w.server,
        &format!("/api/v2/invoices/{id}/credit-notes"),
        Some(&w.member_token),
        None,
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(
        answer,
        json!({ "error": "Seul un administrateur peut établir un avoir." })
    );

    // No body: the whole invoice, one line per rate, issued at once.
    let (status, created) = act(&w, &id, "credit-notes", None).await;
    assert_eq!(status, 201, "{created}");
    let note_id = str_of(&created, "id").to_owned();
    assert_ne!(note_id, id);
    assert_eq!(created["link"], json!(format!("/factures/{note_id}")));
    let note = read(&w, &note_id).await;
    assert_eq!(note["nature"], json!("avoir"));
    assert_eq!(note["status"], json!("emise"));
    assert_eq!(note["statusLabel"], json!("Émis"));
    assert_eq!(note["number"], json!(format!("AV-{}-000001", year())));
    assert_eq!(note["issuedOn"], json!(today()));
    assert_eq!(note["client"], json!(CLIENT));
    assert_eq!(note["buyer"], invoice["buyer"]);
    assert_eq!(
        note["creditedInvoice"],
        json!({
            "id": id,
            "number": number,
            "link": format!("/factures/{id}"),
            "url": format!("{}/factures/{id}", w.server.base_url),
        })
    );
    assert_eq!(
        note["lines"],
        json!([
            { "label": format!("Annulation de la facture {number} (TVA 10 %)"), "quantity": 1.0, "unitPrice": 75.0, "vatRate": 10.0, "totalExclTax": 75.0 },
            { "label": format!("Annulation de la facture {number} (TVA 20 %)"), "quantity": 1.0, "unitPrice": 450.0, "vatRate": 20.0, "totalExclTax": 450.0 }
        ])
    );
    // Positive amounts, equal to the invoice's.
    assert_eq!(note["totalExclTax"], invoice["totalExclTax"]);
    assert_eq!(note["totalInclTax"], invoice["totalInclTax"]);
    assert_eq!(note["vatByRate"], invoice["vatByRate"]);

    let invoice_after = read(&w, &id).await;
    assert_eq!(
        invoice_after["creditNotes"],
        json!([{
            "id": note_id,
            "number": format!("AV-{}-000001", year()),
            "status": "emise",
            "totalInclTax": 622.5,
            "link": format!("/factures/{note_id}"),
            "url": format!("{}/factures/{note_id}", w.server.base_url),
        }])
    );
    // The credited invoice's number, lines and amounts are unchanged; with
    // nothing left due, it is settled by its credit note.
    for field in ["number", "lines", "totalExclTax", "totalInclTax"] {
        assert_eq!(invoice_after[field], invoice[field], "{field}");
    }
    assert_eq!(invoice_after["status"], json!("payee"));
    assert_eq!(invoice_after["paidOn"], json!(today()));
    assert_eq!(invoice_after["balance"], json!(0.0));
    assert_eq!(invoice_after["creditedTotal"], json!(622.5));
    assert_eq!(invoice_after["payments"], json!([]));

    // Nothing remains: any further credit note is refused.
    let full = json!({ "error": "Cette facture de 622,50\u{a0}€ TTC est déjà entièrement créditée : aucun nouvel avoir n'est possible." });
    assert_eq!(
        act(&w, &id, "credit-notes", None).await,
        (422, full.clone())
    );
    assert_eq!(
        act(
            &w,
            &id,
            "credit-notes",
            Some(json!({ "lines": [{ "label": "Geste", "quantity": 1, "unitPrice": 1 }] }))
        )
        .await,
        (422, full)
    );
    // A credit note is not credited; it lives its own life (send, payment = « Soldé »).
    assert_eq!(
        act(&w, &note_id, "credit-notes", None).await,
        (
            422,
            json!({ "error": "Un avoir ne peut pas être crédité par un autre avoir." })
        )
    );
    assert_eq!(act(&w, &note_id, "send", None).await.0, 201);
    assert_eq!(act(&w, &note_id, "payment", None).await.0, 201);
    assert_eq!(read(&w, &note_id).await["statusLabel"], json!("Soldé"));

    let db = open_db(w.server.data_dir.path());
    let actions: Vec<String> = db
        .prepare("SELECT action FROM audit_log WHERE object_type = 'invoice' AND object_id = ?1 ORDER BY seq")
        .expect("prepare")
        .query_map([&note_id], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(actions, ["creation", "emission", "envoi", "reglement"]);
    w.server.stop().await;
}

#[tokio::test]
async fn partial_credit_notes_stay_within_what_remains() {
    let w = world().await;
    let (id, invoice) = issued(&w).await;
    let number = invoice["number"].as_str().expect("number").to_owned();
    let credit = |lines: Value| json!({ "lines": lines });

    // A draft invoice is edited, not credited.
    let draft_id = draft(&w).await;
    assert_eq!(
        act(&w, &draft_id, "credit-notes", None).await,
        (
            422,
            json!({ "error": "Une facture au statut « Brouillon » ne se corrige pas par un avoir : modifiez-la directement." })
        )
    );
    // A rate that is not on the invoice, an invalid line, a zero amount.
    assert_eq!(
        act(
            &w,
            &id,
            "credit-notes",
            Some(credit(
                json!([{ "label": "Geste", "quantity": 1, "unitPrice": 5, "vatRate": 5.5 }])
            ))
        )
        .await,
        (
            422,
            json!({ "error": format!("Ligne 1 : le taux de TVA 5,5 % ne figure pas sur la facture {number}.") })
        )
    );
    assert_eq!(
        act(
            &w,
            &id,
            "credit-notes",
            Some(credit(
                json!([{ "label": "Geste", "quantity": -1, "unitPrice": 5 }])
            ))
        )
        .await,
        (
            422,
            json!({ "error": "Ligne 1 : la quantité doit être supérieure à zéro (reçu : -1)." })
        )
    );
    assert_eq!(
        act(
            &w,
            &id,
            "credit-notes",
            Some(credit(
                json!([{ "label": "Geste", "quantity": 1, "unitPrice": 0 }])
            ))
        )
        .await,
        (
            422,
            json!({ "error": "Le montant d'un avoir doit être supérieur à zéro (montant demandé : 0,00\u{a0}€)." })
        )
    );
    assert_eq!(
        act(&w, &id, "credit-notes", Some(credit(json!([])))).await,
        (
            422,
            json!({ "error": "L'avoir doit comporter au moins une ligne." })
        )
    );
    // More than the invoice: refused with the domain's message.
    assert_eq!(
        act(
            &w,
            &id,
            "credit-notes",
            Some(credit(
                json!([{ "label": "Trop", "quantity": 1, "unitPrice": 600 }])
            ))
        )
        .await,
        (
            422,
            json!({ "error": "Impossible d'établir un avoir de 720,00\u{a0}€ TTC : il ne reste que 622,50\u{a0}€ TTC à créditer sur cette facture." })
        )
    );

    // 50 € excl. at 20 % (60 € incl.): accepted.
    let (status, first) = act(
        &w,
        &id,
        "credit-notes",
        Some(credit(
            json!([{ "label": "Geste commercial", "quantity": 1, "unitPrice": 50 }]),
        )),
    )
    .await;
    assert_eq!(status, 201, "{first}");
    let first = read(&w, str_of(&first, "id")).await;
    assert_eq!(first["totalInclTax"], json!(60.0));
    assert_eq!(first["lines"][0]["label"], json!("Geste commercial"));
    // Now 562.50 remain: 563 is refused.
    assert_eq!(
        act(
            &w,
            &id,
            "credit-notes",
            Some(credit(
                json!([{ "label": "Trop", "quantity": 1, "unitPrice": 469.17 }])
            ))
        )
        .await,
        (
            422,
            json!({ "error": "Impossible d'établir un avoir de 563,00\u{a0}€ TTC : il ne reste que 562,50\u{a0}€ TTC à créditer sur cette facture." })
        )
    );
    // No body: the remainder, rate by rate, exactly.
    let (status, rest) = act(&w, &id, "credit-notes", None).await;
    assert_eq!(status, 201, "{rest}");
    let rest = read(&w, str_of(&rest, "id")).await;
    assert_eq!(rest["totalInclTax"], json!(562.5));
    assert_eq!(
        rest["lines"],
        json!([
            { "label": format!("Annulation du solde de la facture {number} (TVA 10 %)"), "quantity": 1.0, "unitPrice": 75.0, "vatRate": 10.0, "totalExclTax": 75.0 },
            { "label": format!("Annulation du solde de la facture {number} (TVA 20 %)"), "quantity": 1.0, "unitPrice": 400.0, "vatRate": 20.0, "totalExclTax": 400.0 }
        ])
    );
    assert_eq!(rest["number"], json!(format!("AV-{}-000002", year())));
    let invoice = read(&w, &id).await;
    assert_eq!(invoice["creditNotes"].as_array().map(Vec::len), Some(2));
    assert_eq!(act(&w, &id, "credit-notes", None).await.0, 422);

    // No body, an empty body, `{}` and `null` all mean "the whole remainder".
    for (content_type, body) in [
        (None, ""),
        (Some("application/json"), "{}"),
        (Some("application/json"), "null"),
    ] {
        let (other, invoice) = issued(&w).await;
        let mut request = w
            .server
            .client
            .post(
                w.server
                    .url(&format!("/api/v2/invoices/{other}/credit-notes")),
            )
            .header("Authorization", format!("Bearer {}", w.org.admin_token))
            .body(body);
        if let Some(content_type) = content_type {
            request = request.header("Content-Type", content_type);
        }
        let response = request.send().await.expect("request");
        assert_eq!(response.status().as_u16(), 201, "{body:?}");
        let created: Value = response.json().await.expect("json");
        let note = read(&w, str_of(&created, "id")).await;
        assert_eq!(note["totalInclTax"], invoice["totalInclTax"], "{body:?}");
    }
    // A malformed body is 400; a body that is not JSON is 400.
    let (third, _) = issued(&w).await;
    for (content_type, body) in [
        ("application/json", "{\"lines\": "),
        ("text/plain", "{}"),
        ("application/json", "[1]"),
    ] {
        let response = w
            .server
            .client
            .post(
                w.server
                    .url(&format!("/api/v2/invoices/{third}/credit-notes")),
            )
            .header("Authorization", format!("Bearer {}", w.org.admin_token))
            .header("Content-Type", content_type)
            .body(body)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 400, "{content_type} {body}");
    }
    w.server.stop().await;
}

#[tokio::test]
async fn issuing_a_draft_credit_note_checks_what_remains() {
    let w = world().await;
    let (id, _) = issued(&w).await;
    // A draft credit note of 300 € excl. (360 € incl.), prepared and not issued yet.
    let note = Fixtures::in_agency(&w.server, &w.org.agency_id)
        .draft_credit_note(&id, vec![Fixtures::line("Reprise", 1.0, 300.0, None)])
        .await;
    // Meanwhile 300 € excl. are credited through the API: 262.50 € remain.
    let (status, _) = act(
        &w,
        &id,
        "credit-notes",
        Some(json!({ "lines": [{ "label": "Geste", "quantity": 1, "unitPrice": 300 }] })),
    )
    .await;
    assert_eq!(status, 201);
    // The draft no longer fits: its issue is refused, and it takes no number.
    assert_eq!(
        act(&w, &note, "issue", None).await,
        (
            422,
            json!({ "error": "Impossible d'établir un avoir de 360,00\u{a0}€ TTC : il ne reste que 262,50\u{a0}€ TTC à créditer sur cette facture." })
        )
    );
    let body = read(&w, &note).await;
    assert_eq!(
        (body["status"].clone(), body["number"].clone()),
        (json!("brouillon"), Value::Null)
    );
    // A credit note's draft is never edited: the refused one stays a draft,
    // and another of 200 € (240 € incl.), which fits, is issued with the
    // next AV number.
    let note = Fixtures::in_agency(&w.server, &w.org.agency_id)
        .draft_credit_note(&id, vec![Fixtures::line("Reprise", 1.0, 200.0, None)])
        .await;
    assert_eq!(act(&w, &note, "issue", None).await.0, 201);
    let body = read(&w, &note).await;
    assert_eq!(body["number"], json!(format!("AV-{}-000002", year())));
    assert_eq!(body["buyer"], json!("Syndic Dupont"));
    w.server.stop().await;
}

#[tokio::test]
async fn another_agencys_invoice_is_404_for_every_operation_and_stays_untouched() {
    let w = world().await;
    let (status, created) = post(
        &w.server,
        "/api/v2/invoices",
        Some(&w.other.admin_token),
        Some(json!({ "clientId": w.other_client, "lines": lines() })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let theirs = str_of(&created, "id").to_owned();
    let (status, _) = post(
        &w.server,
        &format!("/api/v2/invoices/{theirs}/issue"),
        Some(&w.other.admin_token),
        None,
    )
    .await;
    assert_eq!(status, 201);
    let unknown = "0190a0a0-0000-7000-8000-000000000000";
    for id in [theirs.as_str(), unknown] {
        let (status, answer) = w
            .server
            .get_with(
                &format!("/api/v2/invoices/{id}"),
                Some(&w.org.admin_token),
                None,
            )
            .await;
        assert_eq!(
            (status, answer),
            (404, json!({ "error": "Facture introuvable." }))
        );
        for action in ["issue", "send", "payment", "credit-notes"] {
            let (status, answer) = act(&w, id, action, None).await;
            assert_eq!(status, 404, "{action}");
            assert_eq!(answer, json!({ "error": "Facture introuvable." }));
        }
    }
    // Not listed either, and unchanged.
    let (_, page) = w
        .server
        .get_with("/api/v2/invoices", Some(&w.org.admin_token), None)
        .await;
    assert_eq!(page["total"], json!(0));
    let db = open_db(w.server.data_dir.path());
    assert_eq!(count(&db, "SELECT COUNT(*) FROM invoices"), 1);
    let status: String = db
        .query_row(
            "SELECT status FROM invoices WHERE id = ?1",
            [&theirs],
            |r| r.get(0),
        )
        .expect("invoice");
    assert_eq!(status, "emise");
    // Every operation needs the token.
    for action in ["issue", "send", "payment", "credit-notes"] {
        let (status, _) = post(
            &w.server,
            &format!("/api/v2/invoices/{theirs}/{action}"),
            None,
            None,
        )
        .await;
        assert_eq!(status, 401, "{action}");
    }
    w.server.stop().await;
}

/// A document is dated by the agency's day, in Paris: issued at 00:30 on
/// New Year's Day in Paris (23:30 the day before in UTC), an invoice is of
/// the new year (its number, its issue day, its due day), and so is a quote
/// made then.
#[tokio::test]
async fn documents_are_dated_by_the_paris_day() {
    let w = world().await;
    let fixtures = Fixtures::in_agency(&w.server, &w.org.agency_id);
    let id = draft(&w).await;
    let new_year = liftdesk::clock::paris_to_utc(
        NaiveDate::from_ymd_opt(2031, 1, 1)
            .expect("day")
            .and_hms_opt(0, 30, 0)
            .expect("time"),
    );
    assert_eq!(new_year.to_rfc3339(), "2030-12-31T23:30:00+00:00");
    fixtures
        .at(new_year, || async {
            assert_eq!(act(&w, &id, "issue", None).await.0, 201);
        })
        .await;
    let body = read(&w, &id).await;
    assert_eq!(
        (&body["number"], &body["issuedOn"], &body["dueOn"]),
        (
            &json!("FA-2031-000001"),
            &json!("2031-01-01"),
            &json!("2031-01-31")
        )
    );
    let quote = fixtures
        .at(new_year, || {
            fixtures.quote(
                &w.equipment,
                "Remise en état",
                vec![Fixtures::line("Contacteur", 1.0, 100.0, None)],
            )
        })
        .await;
    let number: String = open_db(w.server.data_dir.path())
        .query_row("SELECT number FROM quotes WHERE id = ?1", [&quote], |r| {
            r.get(0)
        })
        .expect("quote number");
    assert_eq!(number, "DV-2031-00001");
}
