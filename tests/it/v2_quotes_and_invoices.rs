//! REST API v2: quotes (`/quotes`) and the invoice list and read
//! (`/invoices`), end to end over HTTP, with fixtures written through the
//! operations (`common::world`). The
//! invoice life (draft, issue, send, payment, credit notes, numbering) is in
//! `v2_quotes_and_invoices_life.rs`.

use crate::common;

use chrono::{Datelike, NaiveDate};
use common::db::TestDb as Connection;
use common::world::{World as Fixtures, morning};
use common::*;
use liftdesk::domain::invoice::InvoiceStatus;
use liftdesk::domain::quote::{self, QuoteAction, QuoteStatus};
use liftdesk::services::clients::ClientInput;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::services::invoices::NewInvoiceInput;
use liftdesk::store::equipment::IdentityRow;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Helpers and fixtures
// ---------------------------------------------------------------------------

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected, got {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

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

async fn post_raw(
    server: &TestServer,
    path: &str,
    token: &str,
    content_type: &str,
    body: &str,
) -> (u16, Value) {
    let response = server
        .client
        .post(server.url(path))
        .header("Authorization", format!("Bearer {token}"))
        .header("Content-Type", content_type)
        .body(body.to_owned())
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A lift of the agency with only its number and type; returns its id.
async fn lift(server: &TestServer, agency: &str, number: &str) -> String {
    Fixtures::in_agency(server, agency)
        .equipment_with(NewEquipment {
            identity: IdentityRow {
                number: Some(number.to_owned()),
                equipment_type: Some("ascenseur".to_owned()),
                ..IdentityRow::default()
            },
            ..NewEquipment::default()
        })
        .await
}

fn count(db: &Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).expect("count")
}

fn year() -> i32 {
    liftdesk::clock::paris_today().year()
}

fn is_timestamp(value: &Value) -> bool {
    value.as_str().is_some_and(|text| {
        text.len() == 24
            && text.ends_with('Z')
            && chrono::DateTime::parse_from_rfc3339(text).is_ok()
    })
}

struct World {
    server: TestServer,
    org: Org,
    equipment: String,
    other: Org,
    other_equipment: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let equipment = lift(&server, &org.agency_id, "ASC 0042").await;
    let other_equipment = lift(&server, &other.agency_id, "ASC 0042").await;
    World {
        server,
        org,
        equipment,
        other,
        other_equipment,
    }
}

fn quote_body(equipment: &str) -> Value {
    json!({
        "equipmentId": equipment,
        "origin": "panne",
        "object": "  Remplacement du câble de traction suite à panne  ",
        "rows": [
            { "label": "Câble de traction", "quantity": 2, "unitPrice": 120.5 },
            { "label": "Main d'œuvre", "quantity": 1.5, "unitPrice": 65, "vatRate": 10 },
            { "label": "Déplacement", "quantity": 1, "unitPrice": 0.05, "vatRate": 5.5 }
        ]
    })
}

async fn create_quote(w: &World) -> String {
    let (status, body) = post(
        &w.server,
        "/api/v2/quotes",
        Some(&w.org.admin_token),
        Some(quote_body(&w.equipment)),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    str_of(&body, "id").to_owned()
}

// ---------------------------------------------------------------------------
// Quotes
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_quote_is_created_as_a_numbered_draft_and_read_back_exactly() {
    let w = world().await;
    let (status, created) = post(
        &w.server,
        "/api/v2/quotes",
        Some(&w.org.admin_token),
        Some(quote_body(&w.equipment)),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(keys(&created), ["id", "link", "ok", "url"]);
    let id = str_of(&created, "id").to_owned();
    assert!(uuid::Uuid::parse_str(&id).is_ok());
    assert_eq!(created["ok"], json!(true));
    assert_eq!(created["link"], json!(format!("/devis/{id}")));
    assert_eq!(
        created["url"],
        json!(format!("{}/devis/{id}", w.server.base_url))
    );

    let (status, quote) = w
        .server
        .get_with(
            &format!("/api/v2/quotes/{id}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{quote}");
    assert_eq!(
        keys(&quote),
        [
            "acceptedAt",
            "createdAt",
            "equipment",
            "expired",
            "id",
            "link",
            "number",
            "object",
            "origin",
            "originLabel",
            "refusedAt",
            "rows",
            "sentAt",
            "status",
            "statusLabel",
            "totalExclTax",
            "totalInclTax",
            "url",
            "validUntil",
            "vatByRate"
        ]
    );
    assert_eq!(quote["id"], json!(id));
    assert_eq!(quote["expired"], json!(false));
    assert_eq!(quote["number"], json!(format!("DV-{}-00001", year())));
    assert_eq!(quote["status"], json!("brouillon"));
    assert_eq!(quote["statusLabel"], json!("Brouillon"));
    assert_eq!(quote["origin"], json!("panne"));
    assert_eq!(quote["originLabel"], json!("Panne"));
    // Stored trimmed.
    assert_eq!(
        quote["object"],
        json!("Remplacement du câble de traction suite à panne")
    );
    assert_eq!(
        quote["equipment"],
        json!({
            "id": w.equipment,
            "number": "ASC 0042",
            "link": format!("/equipements/{}", w.equipment),
            "url": format!("{}/equipements/{}", w.server.base_url, w.equipment),
        })
    );
    assert_eq!(
        quote["rows"],
        json!([
            { "label": "Câble de traction", "quantity": 2.0, "unitPrice": 120.5, "vatRate": 20.0, "totalExclTax": 241.0 },
            { "label": "Main d'œuvre", "quantity": 1.5, "unitPrice": 65.0, "vatRate": 10.0, "totalExclTax": 97.5 },
            { "label": "Déplacement", "quantity": 1.0, "unitPrice": 0.05, "vatRate": 5.5, "totalExclTax": 0.05 }
        ])
    );
    // VAT once per rate, by increasing rate: 0.05 × 5.5 % = 0.00275 → 0.00;
    // 97.50 × 10 % = 9.75; 241.00 × 20 % = 48.20.
    assert_eq!(
        quote["vatByRate"],
        json!([
            { "rate": 5.5, "base": 0.05, "vat": 0.0 },
            { "rate": 10.0, "base": 97.5, "vat": 9.75 },
            { "rate": 20.0, "base": 241.0, "vat": 48.2 }
        ])
    );
    assert_eq!(quote["totalExclTax"], json!(338.55));
    assert_eq!(quote["totalInclTax"], json!(396.5));
    assert!(is_timestamp(&quote["createdAt"]), "{}", quote["createdAt"]);
    for field in ["sentAt", "acceptedAt", "refusedAt"] {
        assert_eq!(quote[field], Value::Null, "{field} is present with null");
    }
    assert_eq!(quote["link"], created["link"]);
    assert_eq!(quote["url"], created["url"]);

    // One transaction with its audit entry, by the token, in the agency.
    let db = open_db(w.server.data_dir.path());
    let (actor_kind, agency, action, created_by): (String, String, String, String) = db
        .query_row(
            "SELECT a.actor_kind, a.agency_id, a.action, q.created_by FROM audit_log a
             JOIN quotes q ON q.id = a.object_id WHERE a.object_type = 'quote' AND a.object_id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("audit entry");
    assert_eq!(
        (actor_kind.as_str(), agency.as_str(), action.as_str()),
        ("api_token", w.org.agency_id.as_str(), "creation")
    );
    assert_eq!(created_by, w.org.admin_id);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM quote_rows"), 3);
    w.server.stop().await;
}

#[tokio::test]
async fn quote_numbers_follow_each_other_per_agency_and_year() {
    let w = world().await;
    let db = open_db(w.server.data_dir.path());
    // A quote already numbered this year (imported, or demo data) without a
    // counter: the series continues after it.
    let y = year();
    Fixtures::in_agency(&w.server, &w.org.agency_id)
        .imported_quote(
            &w.equipment,
            &format!("DV-{y}-00041"),
            "Ancien devis",
            liftdesk::clock::parse_timestamp(&format!("{y}-01-01T00:00:00.000Z")).expect("instant"),
        )
        .await;
    let mut numbers = Vec::new();
    for _ in 0..3 {
        let id = create_quote(&w).await;
        let (_, quote) = w
            .server
            .get_with(
                &format!("/api/v2/quotes/{id}"),
                Some(&w.org.admin_token),
                None,
            )
            .await;
        numbers.push(quote["number"].as_str().expect("number").to_owned());
    }
    assert_eq!(
        numbers,
        [
            format!("DV-{y}-00042"),
            format!("DV-{y}-00043"),
            format!("DV-{y}-00044")
        ]
    );
    // Ten creations at once: ten distinct numbers that follow on.
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let client = w.server.client.clone();
        let url = w.server.url("/api/v2/quotes");
        let token = w.org.admin_token.clone();
        let body = quote_body(&w.equipment);
        tasks.push(tokio::spawn(async move {
            let response = client
                .post(url)
                .header("Authorization", format!("Bearer {token}"))
                .json(&body)
                .send()
                .await
                .expect("request");
            response.status().as_u16()
        }));
    }
    for task in tasks {
        assert_eq!(task.await.expect("task"), 201);
    }
    let mut all: Vec<String> = db
        .prepare("SELECT number FROM quotes WHERE agency_id = ?1 ORDER BY number")
        .expect("prepare")
        .query_map([&w.org.agency_id], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    all.dedup();
    let expected: Vec<String> = (41..=54).map(|n| format!("DV-{y}-{n:05}")).collect();
    assert_eq!(all, expected);

    // Another agency has its own series.
    let (status, created) = post(
        &w.server,
        "/api/v2/quotes",
        Some(&w.other.admin_token),
        Some(quote_body(&w.other_equipment)),
    )
    .await;
    assert_eq!(status, 201);
    let (_, quote) = w
        .server
        .get_with(
            &format!("/api/v2/quotes/{}", str_of(&created, "id")),
            Some(&w.other.admin_token),
            None,
        )
        .await;
    assert_eq!(quote["number"], json!(format!("DV-{y}-00001")));
    w.server.stop().await;
}

#[tokio::test]
async fn quote_creation_refusals_are_french_and_create_nothing() {
    let w = world().await;
    let token = w.org.admin_token.clone();
    let with = |change: &dyn Fn(&mut Value)| {
        let mut body = quote_body(&w.equipment);
        change(&mut body);
        body
    };
    let rows = |rows: Value| with(&move |b: &mut Value| b["rows"] = rows.clone());
    let other_equipment_message = format!(
        "Équipement introuvable dans cette agence : « {} ».",
        w.other_equipment
    );
    let cases: Vec<(Value, &str)> = vec![
        (
            with(&|b| {
                b.as_object_mut().map(|o| o.remove("equipmentId"));
            }),
            "Le champ « equipmentId » est obligatoire.",
        ),
        (
            with(&|b| {
                b.as_object_mut().map(|o| o.remove("origin"));
            }),
            "Le champ « origin » est obligatoire.",
        ),
        (
            with(&|b| {
                b.as_object_mut().map(|o| o.remove("object"));
            }),
            "Le champ « object » est obligatoire.",
        ),
        (
            with(&|b| {
                b.as_object_mut().map(|o| o.remove("rows"));
            }),
            "Le champ « rows » est obligatoire.",
        ),
        (
            with(&|b| b["origin"] = json!("garantie")),
            "Origine de devis inconnue : « garantie ». Valeurs possibles : reserve, panne, technicien, client.",
        ),
        (
            with(&|b| b["equipmentId"] = json!("0190a0a0-0000-7000-8000-000000000000")),
            "Équipement introuvable dans cette agence : « 0190a0a0-0000-7000-8000-000000000000 ».",
        ),
        (
            with(&|b| b["equipmentId"] = json!(w.other_equipment)),
            &other_equipment_message,
        ),
        (
            with(&|b| b["object"] = json!("   ")),
            "L'objet du devis (« object ») est obligatoire.",
        ),
        (
            with(&|b| b["object"] = json!("Première phrase.\nDeuxième phrase.")),
            "L'objet du devis doit tenir en une phrase : de 3 à 300 caractères, sans retour à la ligne (reçu : 33 caractères).",
        ),
        (
            with(&|b| b["object"] = json!("x".repeat(301))),
            "L'objet du devis doit tenir en une phrase : de 3 à 300 caractères, sans retour à la ligne (reçu : 301 caractères).",
        ),
        (
            rows(json!([])),
            "Le devis doit comporter au moins une ligne.",
        ),
        (
            rows(json!([
                { "label": "Pièce", "quantity": 1, "unitPrice": 10 },
                { "label": "Pièce", "quantity": -2, "unitPrice": 10 }
            ])),
            "Ligne 2 : la quantité doit être supérieure à zéro (reçu : -2).",
        ),
        (
            rows(json!([{ "label": "Pièce", "quantity": 0, "unitPrice": 10 }])),
            "Ligne 1 : la quantité doit être supérieure à zéro (reçu : 0).",
        ),
        (
            rows(json!([{ "label": "Pièce", "quantity": 1.0005, "unitPrice": 10 }])),
            "Ligne 1 : la quantité doit avoir au plus trois décimales (reçu : 1,0005).",
        ),
        (
            rows(json!([
                { "label": "Pièce", "quantity": 1, "unitPrice": 10 },
                { "label": "Pièce", "quantity": 1, "unitPrice": 12.345 }
            ])),
            "Ligne 2 : le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : 12,345).",
        ),
        (
            rows(json!([{ "label": "Pièce", "quantity": 1, "unitPrice": -5 }])),
            "Ligne 1 : le prix unitaire HT ne peut pas être négatif (reçu : -5).",
        ),
        (
            rows(json!([
                { "label": "Pièce", "quantity": 1, "unitPrice": 1 },
                { "label": "Pièce", "quantity": 1, "unitPrice": 1 },
                { "label": " ", "quantity": 1, "unitPrice": 1 }
            ])),
            "Ligne 3 : le libellé est obligatoire.",
        ),
        (
            rows(json!([{ "quantity": 1, "unitPrice": 1 }])),
            "Ligne 1 : le libellé est obligatoire.",
        ),
        (
            rows(json!([{ "label": "Pièce", "unitPrice": 1 }])),
            "Ligne 1 : la quantité est obligatoire.",
        ),
        (
            rows(json!([{ "label": "Pièce", "quantity": 1 }])),
            "Ligne 1 : le prix unitaire HT est obligatoire.",
        ),
        (
            rows(json!([{ "label": "Pièce", "quantity": 1, "unitPrice": 1, "vatRate": 19.6 }])),
            "Ligne 1 : le taux de TVA 19,6 % n'est pas autorisé (taux possibles : 20, 10, 5,5, 2,1 ou 0).",
        ),
        (
            rows(json!([{ "label": "Pièce", "quantity": "2", "unitPrice": 1 }])),
            "Le champ « rows[0].quantity » n'a pas le type attendu.",
        ),
        (
            rows(json!([{ "label": "Pièce", "quantity": 1, "unitPrice": 1, "tva": 20 }])),
            "Le champ « rows[0].tva » n'est pas reconnu.",
        ),
        (
            with(&|b| b["remise"] = json!(10)),
            "Le champ « remise » n'est pas reconnu.",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = post(&w.server, "/api/v2/quotes", Some(&token), Some(body)).await;
        assert_eq!(status, 422, "{message}");
        assert_eq!(answer, json!({ "error": message }));
    }
    // Malformed JSON and a wrong Content-Type: 400; no token: 401.
    let (status, answer) = post_raw(
        &w.server,
        "/api/v2/quotes",
        &token,
        "application/json",
        "{\"origin\": ",
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer,
        json!({ "error": "Le corps de la requête n'est pas un JSON valide." })
    );
    let (status, _) = post_raw(
        &w.server,
        "/api/v2/quotes",
        &token,
        "text/plain",
        &quote_body(&w.equipment).to_string(),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = post(
        &w.server,
        "/api/v2/quotes",
        None,
        Some(quote_body(&w.equipment)),
    )
    .await;
    assert_eq!(status, 401);

    let db = open_db(w.server.data_dir.path());
    assert_eq!(count(&db, "SELECT COUNT(*) FROM quotes"), 0);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM quote_rows"), 0);
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM audit_log WHERE object_type = 'quote'"
        ),
        0
    );
    w.server.stop().await;
}

fn outbox(db: &Connection) -> Vec<(String, String, String, String, String, String, String)> {
    let mut stmt = db
        .prepare(
            "SELECT event, agency_id, object_id, equipment_id, status, occurred_at, body
             FROM outbox_events ORDER BY occurred_at, id",
        )
        .expect("prepare");
    stmt.query_map([], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
        ))
    })
    .expect("query")
    .collect::<Result<_, _>>()
    .expect("rows")
}

async fn act(w: &World, id: &str, action: &str) -> (u16, Value) {
    post(
        &w.server,
        &format!("/api/v2/quotes/{id}/{action}"),
        Some(&w.org.admin_token),
        None,
    )
    .await
}

async fn read_quote(w: &World, id: &str) -> Value {
    let (status, quote) = w
        .server
        .get_with(
            &format!("/api/v2/quotes/{id}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    quote
}

#[tokio::test]
async fn every_quote_transition_allowed_and_refused() {
    let w = world().await;
    let db = open_db(w.server.data_dir.path());

    // brouillon → envoye, then a reminder (envoye → envoye, sentAt kept).
    let sent = create_quote(&w).await;
    let (status, answer) = act(&w, &sent, "send").await;
    assert_eq!(status, 201);
    // Without contacts: sent by other means, no message.
    assert_eq!(
        answer,
        json!({
            "id": sent,
            "ok": true,
            "link": format!("/devis/{sent}"),
            "url": format!("{}/devis/{sent}", w.server.base_url),
            "mail": null,
        })
    );
    let quote = read_quote(&w, &sent).await;
    assert_eq!(
        (quote["status"].clone(), quote["statusLabel"].clone()),
        (json!("envoye"), json!("Envoyé"))
    );
    assert!(is_timestamp(&quote["sentAt"]));
    let first_sent_at = quote["sentAt"].clone();
    assert_eq!(act(&w, &sent, "send").await.0, 201);
    let quote = read_quote(&w, &sent).await;
    assert_eq!(quote["status"], json!("envoye"));
    assert_eq!(quote["sentAt"], first_sent_at, "a reminder keeps sentAt");

    // envoye → refuse.
    assert_eq!(act(&w, &sent, "refuse").await.0, 201);
    let quote = read_quote(&w, &sent).await;
    assert_eq!(
        (quote["status"].clone(), quote["statusLabel"].clone()),
        (json!("refuse"), json!("Refusé"))
    );
    assert!(is_timestamp(&quote["refusedAt"]));
    assert_eq!(quote["acceptedAt"], Value::Null);

    // brouillon → refuse.
    let refused_draft = create_quote(&w).await;
    assert_eq!(act(&w, &refused_draft, "refuse").await.0, 201);
    let quote = read_quote(&w, &refused_draft).await;
    assert_eq!(quote["status"], json!("refuse"));
    assert_eq!(quote["sentAt"], Value::Null);
    assert!(outbox(&db).is_empty(), "no event but on acceptance");

    // brouillon → accepte (signed on site): devis.accepte.
    let accepted_draft = create_quote(&w).await;
    assert_eq!(act(&w, &accepted_draft, "accept").await.0, 201);
    // envoye → accepte: devis.accepte.
    let accepted_sent = create_quote(&w).await;
    assert_eq!(act(&w, &accepted_sent, "send").await.0, 201);
    assert_eq!(act(&w, &accepted_sent, "accept").await.0, 201);

    for id in [&accepted_draft, &accepted_sent] {
        let quote = read_quote(&w, id).await;
        assert_eq!(
            (quote["status"].clone(), quote["statusLabel"].clone()),
            (json!("accepte"), json!("Accepté"))
        );
        assert!(is_timestamp(&quote["acceptedAt"]));
        assert_eq!(quote["refusedAt"], Value::Null);
    }

    // Final states refuse every action, with the domain's French reason.
    for (id, status) in [
        (&accepted_draft, QuoteStatus::Accepte),
        (&sent, QuoteStatus::Refuse),
    ] {
        for (action, code) in [
            (QuoteAction::Send, "send"),
            (QuoteAction::Accept, "accept"),
            (QuoteAction::Refuse, "refuse"),
        ] {
            let expected = quote::transition(status, action)
                .expect_err("refused")
                .to_string();
            let (code_status, answer) = act(&w, id, code).await;
            assert_eq!(code_status, 422, "{status:?} {code}");
            assert_eq!(answer, json!({ "error": expected }));
        }
    }
    let (_, answer) = act(&w, &sent, "accept").await;
    assert_eq!(
        answer["error"],
        json!(
            "Action refusée : impossible d'accepter ce devis au statut « Refusé » : un devis refusé \
             est définitif ; si le client revient sur sa décision, établissez un nouveau devis."
        )
    );

    // devis.accepte: exactly once per acceptance, with the spec's body,
    // written with the status change (same instant as acceptedAt).
    let events = outbox(&db);
    assert_eq!(events.len(), 2, "{events:?}");
    for (event, id) in events.iter().zip([&accepted_draft, &accepted_sent]) {
        let (name, agency, object, equipment, status, occurred_at, body) = event;
        assert_eq!(name, "devis.accepte");
        assert_eq!(agency, &w.org.agency_id);
        assert_eq!(object, id);
        assert_eq!(equipment, &w.equipment);
        assert_eq!(status, "accepte");
        let quote = read_quote(&w, id).await;
        assert_eq!(json!(occurred_at), quote["acceptedAt"]);
        assert_eq!(
            body,
            &format!(
                r#"{{"event":"devis.accepte","id":"{id}","agency":"{}","equipment":"{}","status":"accepte","occurredAt":"{occurred_at}"}}"#,
                w.org.agency_id, w.equipment
            )
        );
    }

    // Each accepted change has its audit entry.
    let actions: Vec<String> = db
        .prepare(
            "SELECT action FROM audit_log WHERE object_type = 'quote' AND object_id = ?1 ORDER BY seq",
        )
        .expect("prepare")
        .query_map([&sent], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(actions, ["creation", "envoi", "relance", "refus"]);
    w.server.stop().await;
}

#[tokio::test]
async fn another_agencys_quote_is_404_for_every_operation_and_stays_untouched() {
    let w = world().await;
    let (status, created) = post(
        &w.server,
        "/api/v2/quotes",
        Some(&w.other.admin_token),
        Some(quote_body(&w.other_equipment)),
    )
    .await;
    assert_eq!(status, 201);
    let theirs = str_of(&created, "id").to_owned();
    let unknown = "0190a0a0-0000-7000-8000-000000000000";
    for id in [theirs.as_str(), unknown, "pas-un-uuid"] {
        let (status, answer) = w
            .server
            .get_with(
                &format!("/api/v2/quotes/{id}"),
                Some(&w.org.admin_token),
                None,
            )
            .await;
        assert_eq!(status, 404);
        assert_eq!(answer, json!({ "error": "Devis introuvable." }));
        for action in ["send", "accept", "refuse"] {
            let (status, answer) = act(&w, id, action).await;
            assert_eq!(status, 404, "{action}");
            assert_eq!(answer, json!({ "error": "Devis introuvable." }));
        }
    }
    let db = open_db(w.server.data_dir.path());
    let status: String = db
        .query_row("SELECT status FROM quotes WHERE id = ?1", [&theirs], |r| {
            r.get(0)
        })
        .expect("quote");
    assert_eq!(status, "brouillon");
    assert!(outbox(&db).is_empty());
    // Its owner still reads it; without a token: 401.
    let (status, _) = w
        .server
        .get_with(
            &format!("/api/v2/quotes/{theirs}"),
            Some(&w.other.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = w
        .server
        .get_with(&format!("/api/v2/quotes/{theirs}"), None, None)
        .await;
    assert_eq!(status, 401);
    for action in ["send", "accept", "refuse"] {
        let (status, _) = post(
            &w.server,
            &format!("/api/v2/quotes/{theirs}/{action}"),
            None,
            None,
        )
        .await;
        assert_eq!(status, 401);
    }
    w.server.stop().await;
}

#[tokio::test]
async fn a_member_can_make_and_move_quotes() {
    let w = world().await;
    w.server.cli_json(&[
        "user",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "Membre",
        "--password",
        "motdepasse1",
        "--agency",
        &w.org.agency_id,
    ]);
    let token = w.server.cli_json(&[
        "token",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "t",
    ]);
    let token = str_of(&token, "token");
    let (status, created) = post(
        &w.server,
        "/api/v2/quotes",
        Some(token),
        Some(quote_body(&w.equipment)),
    )
    .await;
    assert_eq!(status, 201);
    let id = str_of(&created, "id");
    for action in ["send", "accept"] {
        let (status, _) = post(
            &w.server,
            &format!("/api/v2/quotes/{id}/{action}"),
            Some(token),
            None,
        )
        .await;
        assert_eq!(status, 201, "{action}");
    }
    w.server.stop().await;
}

// ---------------------------------------------------------------------------
// Invoice list and read
// ---------------------------------------------------------------------------

/// A client with its billing address and SIREN.
fn billed(client_ref: &str, name: &str, address: &str) -> ClientInput {
    ClientInput {
        client_id: Some(client_ref.to_owned()),
        nom: Some(name.to_owned()),
        adresse: Some(Some(address.to_owned())),
        siren: Some(Some("732829320".to_owned())),
        ..ClientInput::default()
    }
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("day")
}

/// (id, client ref, status, created_on) of a listed invoice.
type ListedRow = (String, String, String, String);

struct Listing {
    w: World,
    /// Ids in the expected list order (created_on DESC, id DESC).
    ordered: Vec<String>,
    /// (id, client ref, status, created_on) of every invoice of the agency.
    rows: Vec<ListedRow>,
}

async fn listing() -> Listing {
    let w = world().await;
    let ours = Fixtures::in_agency(&w.server, &w.org.agency_id);
    let theirs = Fixtures::in_agency(&w.server, &w.other.agency_id);
    let address = "1 place du Marché";
    ours.client(billed("CLI-000001", "Syndic Dupont", address))
        .await;
    ours.client(billed("CLI-000002", "Résidence Lebrun", address))
        .await;
    theirs
        .client(billed("CLI-000001", "Syndic Dupont", address))
        .await;
    let statuses = [
        InvoiceStatus::Brouillon,
        InvoiceStatus::Emise,
        InvoiceStatus::Envoyee,
        InvoiceStatus::Payee,
    ];
    let mut rows = Vec::new();
    // 24 invoices over 8 days (three on the same day: ties ordered by id),
    // each created, then issued, sent or paid, on its day.
    for i in 0..24usize {
        let created_on = format!("2026-03-{:02}", 2 + i / 3);
        let status = statuses[i % 4];
        let client_ref = if i % 3 == 0 {
            "CLI-000002"
        } else {
            "CLI-000001"
        };
        let price = (10_000 + i) as f64 / 100.0;
        let id = ours
            .invoice_on(
                day(&created_on),
                client_ref,
                status,
                vec![Fixtures::line("Ligne 1", 1.0, price, None)],
            )
            .await;
        rows.push((
            id,
            client_ref.to_owned(),
            status.as_str().to_owned(),
            created_on,
        ));
    }
    // Another organization's invoices are never listed.
    for i in 0..3 {
        theirs
            .invoice_on(
                day(&format!("2026-03-0{}", 2 + i)),
                "CLI-000001",
                InvoiceStatus::Brouillon,
                vec![Fixtures::line("Ligne 1", 1.0, 1.0, None)],
            )
            .await;
    }
    let mut sorted = rows.clone();
    sorted.sort_by(|a, b| b.3.cmp(&a.3).then(b.0.cmp(&a.0)));
    Listing {
        w,
        ordered: sorted.into_iter().map(|r| r.0).collect(),
        rows,
    }
}

fn ids(page: &Value) -> Vec<String> {
    page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| str_of(r, "id").to_owned())
        .collect()
}

async fn list(l: &Listing, query: &str) -> (u16, Value) {
    l.w.server
        .get_with(
            &format!("/api/v2/invoices{query}"),
            Some(&l.w.org.admin_token),
            None,
        )
        .await
}

#[tokio::test]
async fn the_invoice_list_is_paged_newest_first_with_exactly_the_spec_rows() {
    let l = listing().await;
    let (status, page) = list(&l, "").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(keys(&page), ["limit", "page", "results", "total"]);
    assert_eq!(page["total"], json!(24));
    assert_eq!(page["page"], json!(1));
    assert_eq!(page["limit"], json!(50));
    assert_eq!(ids(&page), l.ordered);

    // The exact row of the spec, draft and issued.
    for row in page["results"].as_array().expect("results") {
        assert_eq!(
            keys(row),
            [
                "buyer",
                "client",
                "dueOn",
                "id",
                "issuedOn",
                "link",
                "nature",
                "number",
                "paidOn",
                "status",
                "totalExclTax",
                "totalInclTax",
                "url"
            ]
        );
    }
    let find = |status: &str| {
        page["results"]
            .as_array()
            .expect("results")
            .iter()
            .find(|r| r["status"] == json!(status))
            .cloned()
            .expect("row")
    };
    let draft = find("brouillon");
    let draft_id = str_of(&draft, "id").to_owned();
    let (_, client, _, _) = l.rows.iter().find(|r| r.0 == draft_id).expect("fixture");
    assert_eq!(
        draft,
        json!({
            "id": draft_id,
            "number": null,
            "nature": "facture",
            "status": "brouillon",
            "client": client,
            "buyer": if client == "CLI-000002" { "Résidence Lebrun" } else { "Syndic Dupont" },
            "issuedOn": null,
            "dueOn": null,
            "paidOn": null,
            "totalExclTax": draft["totalExclTax"],
            "totalInclTax": draft["totalInclTax"],
            "link": format!("/factures/{draft_id}"),
            "url": format!("{}/factures/{draft_id}", l.w.server.base_url),
        })
    );
    let paid = find("payee");
    assert!(
        paid["number"]
            .as_str()
            .is_some_and(|n| n.starts_with("FA-2026-"))
    );
    assert!(paid["paidOn"].is_string() && paid["issuedOn"].is_string());
    assert!(paid["totalExclTax"].is_f64() && paid["totalInclTax"].is_f64());
    let excl = paid["totalExclTax"].as_f64().expect("number");
    let incl = paid["totalInclTax"].as_f64().expect("number");
    assert!((incl - excl * 1.2).abs() < 0.006, "{excl} {incl}");

    // limit and page walk the same order; total counts every match.
    let mut walked = Vec::new();
    for p in 1..=3 {
        let (status, page) = list(&l, &format!("?limit=10&page={p}")).await;
        assert_eq!(status, 200);
        assert_eq!(
            (
                page["total"].clone(),
                page["page"].clone(),
                page["limit"].clone()
            ),
            (json!(24), json!(p), json!(10))
        );
        walked.extend(ids(&page));
    }
    assert_eq!(walked, l.ordered);
    let (_, beyond) = list(&l, "?limit=10&page=9").await;
    assert_eq!(beyond["total"], json!(24));
    assert_eq!(beyond["results"], json!([]));
    let (_, max) = list(&l, "?limit=200").await;
    assert_eq!(max["limit"], json!(200));

    // Bounds: 422 out of range, 400 not an integer, French reasons.
    for (query, status, message) in [
        (
            "?limit=0",
            422,
            "Le paramètre « limit » doit être compris entre 1 et 200.",
        ),
        (
            "?limit=201",
            422,
            "Le paramètre « limit » doit être compris entre 1 et 200.",
        ),
        (
            "?page=0",
            422,
            "Le paramètre « page » doit être supérieur ou égal à 1.",
        ),
        (
            "?page=-1",
            422,
            "Le paramètre « page » doit être supérieur ou égal à 1.",
        ),
        (
            "?limit=abc",
            400,
            "Le paramètre « limit » doit être un nombre entier.",
        ),
        (
            "?page=1.5",
            400,
            "Le paramètre « page » doit être un nombre entier.",
        ),
    ] {
        let (got, answer) = list(&l, query).await;
        assert_eq!(got, status, "{query}");
        assert_eq!(answer, json!({ "error": message }), "{query}");
    }
    let (status, _) = l.w.server.get_with("/api/v2/invoices", None, None).await;
    assert_eq!(status, 401);
    l.w.server.stop().await;
}

#[tokio::test]
async fn every_invoice_filter_and_its_refusals() {
    let l = listing().await;
    let expect = |keep: &dyn Fn(&ListedRow) -> bool| -> Vec<String> {
        l.ordered
            .iter()
            .filter(|id| keep(l.rows.iter().find(|r| &r.0 == *id).expect("row")))
            .cloned()
            .collect()
    };
    let lr = &l;
    let check = |query: &str, expected: Vec<String>| {
        let query = query.to_owned();
        async move {
            let (status, page) = list(lr, &query).await;
            assert_eq!(status, 200, "{query}: {page}");
            assert_eq!(page["total"], json!(expected.len()), "{query}");
            assert_eq!(ids(&page), expected, "{query}");
        }
    };
    check("?client=CLI-000002", expect(&|r| r.1 == "CLI-000002")).await;
    check("?client=CLI-000001", expect(&|r| r.1 == "CLI-000001")).await;
    check("?client=CLI-999999", vec![]).await;
    for status in ["brouillon", "emise", "envoyee", "payee"] {
        check(&format!("?status={status}"), expect(&|r| r.2 == status)).await;
    }
    // since and until are inclusive days of creation.
    check(
        "?since=2026-03-08",
        expect(&|r| r.3.as_str() >= "2026-03-08"),
    )
    .await;
    check(
        "?until=2026-03-03",
        expect(&|r| r.3.as_str() <= "2026-03-03"),
    )
    .await;
    check(
        "?since=2026-03-04&until=2026-03-04",
        expect(&|r| r.3 == "2026-03-04"),
    )
    .await;
    check(
        "?client=CLI-000001&status=emise&since=2026-03-03&until=2026-03-07",
        expect(&|r| {
            r.1 == "CLI-000001"
                && r.2 == "emise"
                && r.3.as_str() >= "2026-03-03"
                && r.3.as_str() <= "2026-03-07"
        }),
    )
    .await;
    // The other organization's client with the same identifier is not ours.
    let (_, page) = list(&l, "?client=CLI-000001&limit=200").await;
    assert!(
        ids(&page)
            .iter()
            .all(|id| l.rows.iter().any(|r| &r.0 == id))
    );
    // Paging applies after filtering.
    let (_, page) = list(&l, "?status=emise&limit=2&page=2").await;
    assert_eq!(page["total"], json!(6));
    assert_eq!(ids(&page), expect(&|r| r.2 == "emise")[2..4].to_vec());

    for (query, status, message) in [
        (
            "?status=annulee",
            422,
            "Statut de facture inconnu : « annulee ». Valeurs possibles : brouillon, emise, envoyee, payee.",
        ),
        (
            "?since=2026-3-1",
            400,
            "Le paramètre « since » doit être une date au format AAAA-MM-JJ (reçu : « 2026-3-1 »).",
        ),
        (
            "?until=2026-02-30",
            400,
            "Le paramètre « until » doit être une date au format AAAA-MM-JJ (reçu : « 2026-02-30 »).",
        ),
        (
            "?since=2026-03-05&until=2026-03-04",
            422,
            "La période est vide : « since » (2026-03-05) est postérieur à « until » (2026-03-04).",
        ),
    ] {
        let (got, answer) = list(&l, query).await;
        assert_eq!(got, status, "{query}");
        assert_eq!(answer, json!({ "error": message }), "{query}");
    }
    l.w.server.stop().await;
}

#[tokio::test]
async fn an_invoice_and_a_credit_note_read_with_their_links() {
    let w = world().await;
    let ours = Fixtures::in_agency(&w.server, &w.org.agency_id);
    ours.client(billed("CLI-000007", "Syndic Dupont", "1 place du Marché"))
        .await;
    // An accepted quote, invoiced, then partly credited.
    let (_, created) = post(
        &w.server,
        "/api/v2/quotes",
        Some(&w.org.admin_token),
        Some(quote_body(&w.equipment)),
    )
    .await;
    let quote_id = str_of(&created, "id").to_owned();
    ours.quote_act(&quote_id, QuoteAction::Accept).await;
    // Eleven invoices and two credit notes issued before this year's 12th
    // invoice and 3rd credit note.
    let earlier = day("2026-03-01");
    let mut issued = Vec::new();
    for _ in 0..11 {
        let id = ours
            .invoice_on(
                earlier,
                "CLI-000007",
                InvoiceStatus::Emise,
                vec![Fixtures::line("Maintenance", 1.0, 100.0, None)],
            )
            .await;
        issued.push(id);
    }
    ours.at(morning(earlier), || async {
        for id in &issued[..2] {
            ours.credit_note(id, Some(vec![Fixtures::line("Geste", 1.0, 10.0, None)]))
                .await;
        }
    })
    .await;
    let invoice = ours
        .at(morning(day("2026-03-10")), || async {
            let id = ours
                .draft_invoice_with(NewInvoiceInput {
                    client_id: "CLI-000007".to_owned(),
                    lines: Some(vec![
                        Fixtures::line("Ligne 1", 2.0, 65.0, None),
                        Fixtures::line("Ligne 2", 1.5, 33.33, Some(10.0)),
                    ]),
                    quote_id: Some(quote_id.clone()),
                    equipment_ids: Vec::new(),
                })
                .await;
            ours.issue_invoice(&id).await;
            id
        })
        .await;
    let credit = ours
        .at(morning(day("2026-03-12")), || {
            ours.credit_note(
                &invoice,
                Some(vec![Fixtures::line("Ligne 1", 1.0, 20.0, None)]),
            )
        })
        .await;

    let (status, body) = w
        .server
        .get_with(
            &format!("/api/v2/invoices/{invoice}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        keys(&body),
        [
            "balance",
            "buyer",
            "buyerAddress",
            "buyerElectronicAddress",
            "buyerSiren",
            "buyerVatNumber",
            "client",
            "createdOn",
            "creditNotes",
            "creditedInvoice",
            "creditedTotal",
            "dueOn",
            "einvoicing",
            "einvoicingExplanation",
            "equipment",
            "facturx",
            "id",
            "issuedOn",
            "lines",
            "link",
            "nature",
            "natureLabel",
            "number",
            "paidOn",
            "paidTotal",
            "payments",
            "quote",
            "status",
            "statusLabel",
            "totalExclTax",
            "totalInclTax",
            "url",
            "vatByRate"
        ]
    );
    let base = &w.server.base_url;
    assert_eq!(
        body,
        json!({
            "id": invoice,
            "number": "FA-2026-000012",
            "nature": "facture",
            "natureLabel": "Facture",
            "status": "emise",
            "statusLabel": "Émise",
            "client": "CLI-000007",
            "buyer": "Syndic Dupont",
            "buyerAddress": "1 place du Marché",
            "buyerSiren": "732829320",
            // Frozen at the issue: a company with a SIREN, by e-invoicing
            // at its SIREN.
            "buyerVatNumber": null,
            "buyerElectronicAddress": "732829320",
            "einvoicing": "facturation_electronique",
            "einvoicingExplanation": "Facture électronique : à transmettre par la plateforme agréée de l'agence à celle du client (adresse électronique du client).",
            "facturx": true,
            "createdOn": "2026-03-10",
            "issuedOn": "2026-03-10",
            "dueOn": "2026-04-09",
            "paidOn": null,
            "lines": [
                { "label": "Ligne 1", "quantity": 2.0, "unitPrice": 65.0, "vatRate": 20.0, "totalExclTax": 130.0 },
                { "label": "Ligne 2", "quantity": 1.5, "unitPrice": 33.33, "vatRate": 10.0, "totalExclTax": 50.0 }
            ],
            "vatByRate": [
                { "rate": 10.0, "base": 50.0, "vat": 5.0 },
                { "rate": 20.0, "base": 130.0, "vat": 26.0 }
            ],
            "totalExclTax": 180.0,
            "totalInclTax": 211.0,
            "creditedInvoice": null,
            "creditNotes": [{
                "id": credit,
                "number": "AV-2026-000003",
                "status": "emise",
                "totalInclTax": 24.0,
                "link": format!("/factures/{credit}"),
                "url": format!("{base}/factures/{credit}"),
            }],
            "quote": {
                "id": quote_id,
                "number": format!("DV-{}-00001", year()),
                "link": format!("/devis/{quote_id}"),
                "url": format!("{base}/devis/{quote_id}"),
            },
            "creditedTotal": 24.0,
            "paidTotal": 0.0,
            "balance": 187.0,
            "payments": [],
            // The quote's lift, with no building.
            "equipment": [{
                "id": w.equipment,
                "number": "ASC 0042",
                "buildingId": null,
                "building": null,
                "address": null,
                "link": format!("/equipements/{}", w.equipment),
                "url": format!("{base}/equipements/{}", w.equipment),
            }],
            "link": format!("/factures/{invoice}"),
            "url": format!("{base}/factures/{invoice}"),
        })
    );

    let (status, body) = w
        .server
        .get_with(
            &format!("/api/v2/invoices/{credit}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["nature"], json!("avoir"));
    assert_eq!(body["natureLabel"], json!("Avoir"));
    assert_eq!(body["statusLabel"], json!("Émis"));
    assert_eq!(body["creditNotes"], json!([]));
    assert_eq!(body["quote"], Value::Null);
    assert_eq!(
        body["creditedInvoice"],
        json!({
            "id": invoice,
            "number": "FA-2026-000012",
            "link": format!("/factures/{invoice}"),
            "url": format!("{base}/factures/{invoice}"),
        })
    );

    // Another organization's invoice, an unknown id: 404; no token: 401.
    let martin = Fixtures::in_agency(&w.server, &w.other.agency_id);
    martin.client_named("CLI-000007", "Autre").await;
    let theirs = martin
        .at(morning(day("2026-03-10")), || {
            martin.draft_invoice(
                "CLI-000007",
                vec![Fixtures::line("Ligne 1", 1.0, 1.0, None)],
            )
        })
        .await;
    for id in [theirs.as_str(), "0190a0a0-0000-7000-8000-000000000000"] {
        let (status, body) = w
            .server
            .get_with(
                &format!("/api/v2/invoices/{id}"),
                Some(&w.org.admin_token),
                None,
            )
            .await;
        assert_eq!(status, 404);
        assert_eq!(body, json!({ "error": "Facture introuvable." }));
    }
    let (status, _) = w
        .server
        .get_with(&format!("/api/v2/invoices/{invoice}"), None, None)
        .await;
    assert_eq!(status, 401);
    w.server.stop().await;
}
