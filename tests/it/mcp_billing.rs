//! MCP tools of quotes, invoices and clients, through a real MCP client
//! session: each answer compared to the REST API's for the same input, the
//! creations and transitions visible through REST with their audit entries,
//! refusals as tool errors with the REST status and French reason, and
//! another organization seeing nothing.

use crate::common;

use chrono::NaiveDate;
use common::db::TestDb as Connection;
use common::mcp::*;
use common::world::World as Fixtures;
use common::*;
use liftdesk::domain::invoice::InvoiceStatus;
use liftdesk::services::clients::ClientInput;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use serde_json::{Value, json};

fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

fn count(db: &Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).expect("count")
}

fn today() -> String {
    liftdesk::clock::paris_today()
        .format("%Y-%m-%d")
        .to_string()
}

async fn post(server: &TestServer, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = server
        .client
        .post(server.url(path))
        .header("Authorization", format!("Bearer {token}"));
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    /// A token of the admin made for the assistant, and its credential id.
    token: String,
    credential: String,
    member_token: String,
    equipment: String,
    other_equipment: String,
    /// Invoice ids of client CLI-000001, by status.
    dupont: Vec<(String, &'static str)>,
    other_invoice: String,
}

/// A client with its address, SIREN and e-mail.
async fn client(agency: &Fixtures, client_ref: &str, name: &str) {
    agency
        .client(ClientInput {
            client_id: Some(client_ref.to_owned()),
            nom: Some(name.to_owned()),
            adresse: Some(Some("12 rue de la Paix, 75002 Paris".to_owned())),
            siren: Some(Some("732829320".to_owned())),
            email: Some(Some("contact@dupont.fr".to_owned())),
            ..ClientInput::default()
        })
        .await;
}

/// An invoice of 100 € excl. of the client, brought to `status` on `day`.
async fn invoice(
    agency: &Fixtures,
    client_ref: &str,
    status: InvoiceStatus,
    day: NaiveDate,
) -> String {
    agency
        .invoice_on(
            day,
            client_ref,
            status,
            vec![Fixtures::line("Maintenance", 1.0, 100.0, None)],
        )
        .await
}

async fn world() -> World {
    let server = TestServer::start().await;
    let dir = server.data_dir.path().to_owned();
    let org = init_org(&dir, "Durand", "claire@durand.fr");
    let other = init_org(&dir, "Martin", "paul@martin.fr");
    let assistant = cli_json(
        &dir,
        &[
            "token",
            "create",
            "--email",
            "claire@durand.fr",
            "--name",
            "assistant",
        ],
    );
    cli_json(
        &dir,
        &[
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
        ],
    );
    let member = cli_json(
        &dir,
        &[
            "token",
            "create",
            "--email",
            "membre@durand.fr",
            "--name",
            "t",
        ],
    );
    let ours = Fixtures::in_agency(&server, &org.agency_id);
    let theirs = Fixtures::in_agency(&server, &other.agency_id);
    let mut equipment_ids = Vec::new();
    for agency in [&ours, &theirs] {
        let id = agency
            .equipment_with(NewEquipment {
                identity: IdentityRow {
                    number: Some("ASC 0042".to_owned()),
                    equipment_type: Some("ascenseur".to_owned()),
                    ..IdentityRow::default()
                },
                ..NewEquipment::default()
            })
            .await;
        equipment_ids.push(id);
    }
    client(&ours, "CLI-000001", "Syndic Dupont").await;
    client(&ours, "CLI-000002", "Résidence Lebrun").await;
    client(&theirs, "CLI-000001", "Syndic Dupont").await;
    let statuses = [
        InvoiceStatus::Brouillon,
        InvoiceStatus::Emise,
        InvoiceStatus::Envoyee,
        InvoiceStatus::Payee,
        InvoiceStatus::Emise,
        InvoiceStatus::Envoyee,
        InvoiceStatus::Payee,
    ];
    let mut dupont_invoices = Vec::new();
    for (i, status) in statuses.into_iter().enumerate() {
        let day = NaiveDate::from_ymd_opt(2026, 3, 2 + i as u32).expect("day");
        let id = invoice(&ours, "CLI-000001", status, day).await;
        dupont_invoices.push((id, status.as_str()));
        invoice(&ours, "CLI-000002", status, day).await;
    }
    let day = NaiveDate::from_ymd_opt(2026, 3, 2).expect("day");
    let other_invoice = invoice(&theirs, "CLI-000001", InvoiceStatus::Emise, day).await;
    World {
        server,
        org,
        other,
        token: str_of(&assistant, "token").to_owned(),
        credential: str_of(&assistant, "id").to_owned(),
        member_token: str_of(&member, "token").to_owned(),
        equipment: equipment_ids[0].clone(),
        other_equipment: equipment_ids[1].clone(),
        dupont: dupont_invoices,
        other_invoice,
    }
}

impl World {
    async fn rest(&self, path: &str) -> (u16, Value) {
        self.server
            .get_with(&format!("/api/v2{path}"), Some(&self.token), None)
            .await
    }
}

/// A tool's answer that must succeed.
async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(!error, "{tool} {arguments}: {value}");
    value
}

/// A tool's refusal: `{"error", "status"}`.
async fn refused(client: &Client, tool: &str, arguments: Value) -> (u64, String) {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(error, "{tool} {arguments} should be refused: {value}");
    let mut keys: Vec<&String> = value.as_object().expect("object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["error", "status"], "{value}");
    (
        value["status"].as_u64().expect("status"),
        value["error"].as_str().expect("error").to_owned(),
    )
}

fn quote_body(equipment: &str) -> Value {
    json!({
        "equipmentId": equipment,
        "origin": "technicien",
        "object": "Remplacement des galets de porte palière",
        "rows": [
            { "label": "Galets de porte (jeu de 4)", "quantity": 2, "unitPrice": 48.9 },
            { "label": "Main d'œuvre", "quantity": 1.5, "unitPrice": 65, "vatRate": 10 }
        ]
    })
}

const TOOLS: [&str; 14] = [
    "clients",
    "factures",
    "facture",
    "facture_electronique",
    "creer_facture",
    "emettre_facture",
    "envoyer_facture",
    "enregistrer_reglement",
    "creer_avoir",
    "devis",
    "creer_devis",
    "envoyer_devis",
    "accepter_devis",
    "refuser_devis",
];

#[tokio::test]
async fn the_billing_tools_are_listed_with_object_schemas_and_french_descriptions() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    let tools = client.list_all_tools().await.expect("tools");
    for name in TOOLS {
        let tool = tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{name}"
        );
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.len() > 80, "{name}: {description}");
    }
    let find = |name: &str| tools.iter().find(|t| t.name == name).expect("tool");
    let factures = find("factures");
    let description = factures.description.as_deref().unwrap_or_default();
    for words in ["impayé", "`emise`", "`envoyee`", "`clients`", "avoir"] {
        assert!(description.contains(words), "{words} in {description}");
    }
    let properties = factures.input_schema["properties"]
        .as_object()
        .expect("properties");
    let mut names: Vec<&String> = properties.keys().collect();
    names.sort();
    assert_eq!(
        names,
        ["client", "limit", "page", "since", "status", "until"]
    );
    assert_eq!(factures.input_schema["additionalProperties"], json!(false));
    let quote = &find("creer_devis").input_schema;
    let mut required: Vec<&str> = quote["required"]
        .as_array()
        .expect("required")
        .iter()
        .map(|v| v.as_str().expect("name"))
        .collect();
    required.sort_unstable();
    assert_eq!(required, ["equipmentId", "object", "origin", "rows"]);
    let text = serde_json::to_string(&**quote).expect("schema");
    eprintln!("creer_devis schema: {text}");
    assert!(
        text.contains("unitPrice") && text.contains("vatRate"),
        "{text}"
    );
    assert_eq!(
        find("clients")
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint),
        Some(true)
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn clients_and_invoices_answer_exactly_what_rest_answers() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;

    // "Which invoices of client Dupont are unpaid?"
    let found = ok(&client, "clients", json!({ "q": "dupont syndic" })).await;
    assert_eq!(found, w.rest("/clients?q=dupont%20syndic").await.1);
    assert_eq!(found["total"], json!(1));
    let id = str_of(&found["results"][0], "id").to_owned();
    assert_eq!(id, "CLI-000001");
    assert_eq!(
        ok(&client, "clients", json!({})).await,
        w.rest("/clients").await.1
    );
    assert_eq!(
        ok(
            &client,
            "clients",
            json!({ "q": "RESIDENCE", "limit": 1, "page": 1 })
        )
        .await,
        w.rest("/clients?q=RESIDENCE&limit=1&page=1").await.1
    );

    // One status: exactly the REST list.
    for (args, query) in [
        (
            json!({ "client": id, "status": "emise" }),
            format!("?client={id}&status=emise"),
        ),
        (json!({ "client": id }), format!("?client={id}")),
        (
            json!({ "status": "payee", "limit": 3, "page": 2 }),
            "?status=payee&limit=3&page=2".to_owned(),
        ),
        (
            json!({ "since": "2026-03-03", "until": "2026-03-05" }),
            "?since=2026-03-03&until=2026-03-05".to_owned(),
        ),
        (json!({ "client": "CLI-404" }), "?client=CLI-404".to_owned()),
        (json!({}), String::new()),
    ] {
        let (status, rest) = w.rest(&format!("/invoices{query}")).await;
        assert_eq!(status, 200, "{query}: {rest}");
        assert_eq!(ok(&client, "factures", args).await, rest, "{query}");
    }

    // Unpaid = emise or envoyee: one list, newest first, exactly the REST
    // rows of those statuses.
    let unpaid = ok(
        &client,
        "factures",
        json!({ "client": id, "status": ["emise", "envoyee"] }),
    )
    .await;
    let (_, all) = w.rest(&format!("/invoices?client={id}")).await;
    let expected: Vec<&Value> = all["results"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["status"] == "emise" || r["status"] == "envoyee")
        .collect();
    assert_eq!(expected.len(), 4);
    assert_eq!(unpaid["total"], json!(4));
    assert_eq!(unpaid["results"], json!(expected));
    let mut ids: Vec<&str> = expected.iter().map(|r| str_of(r, "id")).collect();
    ids.sort_unstable();
    let mut seeded: Vec<&str> = w
        .dupont
        .iter()
        .filter(|(_, s)| *s == "emise" || *s == "envoyee")
        .map(|(id, _)| id.as_str())
        .collect();
    seeded.sort_unstable();
    assert_eq!(ids, seeded);
    // Paged across both statuses; a repeated status counts once; an empty
    // list is no filter.
    let page2 = ok(
        &client,
        "factures",
        json!({ "client": id, "status": ["envoyee", "emise", "emise"], "limit": 3, "page": 2 }),
    )
    .await;
    assert_eq!(page2["total"], json!(4));
    assert_eq!(page2["results"], json!([expected[3]]));
    assert_eq!(
        ok(&client, "factures", json!({ "client": id, "status": [] })).await,
        all
    );

    // One invoice.
    let (invoice, _) = &w.dupont[1];
    let read = ok(&client, "facture", json!({ "id": invoice })).await;
    assert_eq!(read, w.rest(&format!("/invoices/{invoice}")).await.1);
    // Its electronic invoice: the structured XML under its file name; a
    // draft has none (409).
    let number = read["number"].as_str().expect("issued");
    let facturx = ok(&client, "facture_electronique", json!({ "id": invoice })).await;
    assert_eq!(facturx["fileName"], json!(format!("{number}.xml")));
    let xml = facturx["xml"].as_str().expect("xml");
    assert!(xml.contains("<rsm:CrossIndustryInvoice"), "{xml}");
    assert!(xml.contains(&format!("<ram:ID>{number}</ram:ID>")), "{xml}");
    let (draft, _) = &w.dupont[0];
    let (status, error) = refused(&client, "facture_electronique", json!({ "id": draft })).await;
    assert_eq!(
        (status, error.as_str()),
        (
            409,
            "Cette facture est un brouillon : sa facture électronique (Factur-X) n'existe qu'une fois la pièce émise, avec son numéro."
        )
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn list_refusals_are_the_rest_refusals() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    for (args, query) in [
        (json!({ "status": "impayee" }), "/invoices?status=impayee"),
        (
            json!({ "status": "emise,envoyee" }),
            "/invoices?status=emise,envoyee",
        ),
        (json!({ "since": "2026-3-1" }), "/invoices?since=2026-3-1"),
        (
            json!({ "since": "2026-03-05", "until": "2026-03-04" }),
            "/invoices?since=2026-03-05&until=2026-03-04",
        ),
        (json!({ "limit": 0 }), "/invoices?limit=0"),
        (json!({ "limit": 201 }), "/invoices?limit=201"),
        (json!({ "limit": 2.5 }), "/invoices?limit=2.5"),
        (json!({ "page": 0 }), "/invoices?page=0"),
    ] {
        let (status, body) = w.rest(query).await;
        assert!(status == 400 || status == 422, "{query}: {status}");
        let (tool_status, message) = refused(&client, "factures", args).await;
        assert_eq!(
            (tool_status, json!({ "error": message })),
            (u64::from(status), body),
            "{query}"
        );
    }
    // One of several statuses unknown: the same reason.
    assert_eq!(
        refused(&client, "factures", json!({ "status": ["emise", "impayee"] })).await,
        (
            422,
            "Statut de facture inconnu : « impayee ». Valeurs possibles : brouillon, emise, envoyee, payee."
                .to_owned()
        )
    );
    // A misspelt argument is refused rather than ignored (no silent "all
    // statuses" for an assistant that wrote `statut`).
    assert_eq!(
        refused(&client, "factures", json!({ "statut": "emise" })).await,
        (422, "Le champ « statut » n'est pas reconnu.".to_owned())
    );
    assert_eq!(
        refused(&client, "factures", json!({ "limit": "20" })).await,
        (
            422,
            "Le champ « limit » n'a pas le type attendu.".to_owned()
        )
    );
    let (status, body) = w.rest("/clients?limit=0").await;
    assert_eq!(
        refused(&client, "clients", json!({ "limit": 0 })).await,
        (u64::from(status), str_of(&body, "error").to_owned())
    );
    assert_eq!(
        refused(&client, "clients", json!({ "q": "x".repeat(101) })).await,
        (
            400,
            "Le paramètre « q » ne doit pas dépasser 100 caractères.".to_owned()
        )
    );
    assert_eq!(
        refused(&client, "facture", json!({})).await,
        (422, "Le champ « id » est obligatoire.".to_owned())
    );
    assert_eq!(
        refused(&client, "facture", json!({ "id": new_id() })).await,
        (404, "Facture introuvable.".to_owned())
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn a_quote_is_opened_moved_and_read_as_through_rest() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    let db = open_db(w.server.data_dir.path());

    // "Open a quote for the door rollers on that lift."
    let created = ok(&client, "creer_devis", quote_body(&w.equipment)).await;
    let id = str_of(&created, "id").to_owned();
    let base = &w.server.base_url;
    assert_eq!(
        created,
        json!({ "id": id, "ok": true, "link": format!("/devis/{id}"), "url": format!("{base}/devis/{id}") })
    );
    let (status, rest) = w.rest(&format!("/quotes/{id}")).await;
    assert_eq!(status, 200, "{rest}");
    assert_eq!(rest["status"], json!("brouillon"));
    assert_eq!(rest["totalExclTax"], json!(195.3));
    assert_eq!(rest["equipment"]["id"], json!(w.equipment));
    assert_eq!(ok(&client, "devis", json!({ "id": id })).await, rest);
    let (kind, actor): (String, String) = db
        .query_row(
            "SELECT actor_kind, actor_id FROM audit_log WHERE object_type = 'quote' AND object_id = ?1 AND action = 'creation'",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!(
        (kind.as_str(), actor.as_str()),
        ("api_token", w.credential.as_str())
    );

    // send → envoye, accept → accepte with its event; then refused.
    // Without contacts: sent by other means, no message.
    let mut sent = created.clone();
    sent["mail"] = Value::Null;
    assert_eq!(
        ok(&client, "envoyer_devis", json!({ "id": id })).await,
        sent
    );
    assert_eq!(
        w.rest(&format!("/quotes/{id}")).await.1["status"],
        json!("envoye")
    );
    assert_eq!(
        ok(&client, "accepter_devis", json!({ "id": id })).await,
        created
    );
    let accepted = w.rest(&format!("/quotes/{id}")).await.1;
    assert_eq!(accepted["status"], json!("accepte"));
    assert_eq!(
        count(
            &db,
            &format!(
                "SELECT COUNT(*) FROM outbox_events WHERE event = 'devis.accepte' AND object_id = '{id}'"
            )
        ),
        1
    );
    let (status, message) = refused(&client, "refuser_devis", json!({ "id": id })).await;
    let (rest_status, rest_body) = post(
        &w.server,
        &format!("/api/v2/quotes/{id}/refuse"),
        &w.token,
        None,
    )
    .await;
    assert_eq!(
        (status, json!({ "error": message })),
        (u64::from(rest_status), rest_body)
    );
    assert_eq!(status, 422);
    assert!(
        message.starts_with("Action refusée : impossible de refuser ce devis"),
        "{message}"
    );
    assert_eq!(w.rest(&format!("/quotes/{id}")).await.1, accepted);

    // Another draft, refused by the client.
    let second = ok(&client, "creer_devis", quote_body(&w.equipment)).await;
    let second = str_of(&second, "id").to_owned();
    ok(&client, "refuser_devis", json!({ "id": second })).await;
    assert_eq!(
        w.rest(&format!("/quotes/{second}")).await.1["status"],
        json!("refuse")
    );
    assert_eq!(
        refused(&client, "devis", json!({ "id": new_id() })).await,
        (404, "Devis introuvable.".to_owned())
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn a_refused_quote_is_a_tool_error_with_the_rest_reason_and_writes_nothing() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    let db = open_db(w.server.data_dir.path());
    let quotes = "SELECT COUNT(*) FROM quotes";
    let audit = "SELECT COUNT(*) FROM audit_log WHERE object_type = 'quote'";
    let before = (count(&db, quotes), count(&db, audit));

    let mut bad_row = quote_body(&w.equipment);
    bad_row["rows"][1]["quantity"] = json!(-1);
    let mut bad_price = quote_body(&w.equipment);
    bad_price["rows"][0]["unitPrice"] = json!(12.345);
    let mut bad_origin = quote_body(&w.equipment);
    bad_origin["origin"] = json!("garantie");
    let mut missing = quote_body(&w.equipment);
    missing.as_object_mut().expect("object").remove("origin");
    let mut unknown = quote_body(&w.equipment);
    unknown["rows"][0]["discount"] = json!(5);
    let mut no_rows = quote_body(&w.equipment);
    no_rows["rows"] = json!([]);
    for (body, reason) in [
        (
            bad_row,
            "Ligne 2 : la quantité doit être supérieure à zéro (reçu : -1).",
        ),
        (
            bad_price,
            "Ligne 1 : le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : 12,345).",
        ),
        (
            bad_origin,
            "Origine de devis inconnue : « garantie ». Valeurs possibles : reserve, panne, technicien, client.",
        ),
        (missing, "Le champ « origin » est obligatoire."),
        (unknown, "Le champ « rows[0].discount » n'est pas reconnu."),
        (no_rows, "Le devis doit comporter au moins une ligne."),
        // Another organization's equipment is not this agency's.
        (
            quote_body(&w.other_equipment),
            &format!(
                "Équipement introuvable dans cette agence : « {} ».",
                w.other_equipment
            ),
        ),
    ] {
        let (status, message) = refused(&client, "creer_devis", body.clone()).await;
        assert_eq!((status, message.as_str()), (422, reason), "{body}");
        // The REST API answers the same to the same body.
        let (rest_status, rest_body) =
            post(&w.server, "/api/v2/quotes", &w.token, Some(body.clone())).await;
        assert_eq!((rest_status, rest_body), (422, json!({ "error": reason })));
    }
    assert_eq!(
        (count(&db, quotes), count(&db, audit)),
        before,
        "nothing written"
    );
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn an_invoice_is_drafted_issued_sent_and_paid_and_credit_notes_are_for_admins() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    let db = open_db(w.server.data_dir.path());

    // Bill an accepted quote.
    let quote = ok(&client, "creer_devis", quote_body(&w.equipment)).await;
    let quote = str_of(&quote, "id").to_owned();
    ok(&client, "accepter_devis", json!({ "id": quote })).await;
    let created = ok(
        &client,
        "creer_facture",
        json!({ "clientId": "CLI-000001", "quoteId": quote }),
    )
    .await;
    let id = str_of(&created, "id").to_owned();
    assert_eq!(created["link"], json!(format!("/factures/{id}")));
    let draft = w.rest(&format!("/invoices/{id}")).await.1;
    assert_eq!(draft["status"], json!("brouillon"));
    assert_eq!(draft["number"], Value::Null);
    assert_eq!(draft["quote"]["id"], json!(quote));
    assert_eq!(draft["totalExclTax"], json!(195.3));
    assert_eq!(ok(&client, "facture", json!({ "id": id })).await, draft);

    // Refused: not issued yet.
    let (status, message) = refused(&client, "envoyer_facture", json!({ "id": id })).await;
    assert_eq!(status, 422);
    assert!(
        message.contains("l'émission, qui attribue le numéro, doit précéder l'envoi"),
        "{message}"
    );

    assert_eq!(
        ok(&client, "emettre_facture", json!({ "id": id })).await,
        created
    );
    let issued = w.rest(&format!("/invoices/{id}")).await.1;
    assert_eq!(issued["status"], json!("emise"));
    assert!(
        issued["number"]
            .as_str()
            .is_some_and(|n| n.starts_with("FA-")),
        "{issued}"
    );
    assert_eq!(
        refused(&client, "emettre_facture", json!({ "id": id }))
            .await
            .0,
        422
    );
    ok(&client, "envoyer_facture", json!({ "id": id })).await;
    assert_eq!(
        w.rest(&format!("/invoices/{id}")).await.1["status"],
        json!("envoyee")
    );

    // It is unpaid, then paid.
    let unpaid = ok(
        &client,
        "factures",
        json!({ "client": "CLI-000001", "status": ["emise", "envoyee"] }),
    )
    .await;
    assert_eq!(unpaid["total"], json!(5));
    assert_eq!(unpaid["results"][0]["id"], json!(id));
    let (status, message) = refused(
        &client,
        "enregistrer_reglement",
        json!({ "id": id, "paidOn": "2999-01-01" }),
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (
            422,
            "La date de règlement (2999-01-01) ne peut pas être dans le futur."
        )
    );
    // A partial payment by cheque, then the rest: paid when nothing is due.
    let total = w.rest(&format!("/invoices/{id}")).await.1["totalInclTax"]
        .as_f64()
        .expect("total");
    let (status, message) = refused(
        &client,
        "enregistrer_reglement",
        json!({ "id": id, "amount": total + 1.0 }),
    )
    .await;
    assert_eq!(status, 422);
    assert!(
        message.starts_with("Le règlement de ")
            && message.contains("dépasse le reste à payer de la facture"),
        "{message}"
    );
    ok(
        &client,
        "enregistrer_reglement",
        json!({ "id": id, "amount": 10, "method": "cheque", "reference": "CHQ 42" }),
    )
    .await;
    let partly = w.rest(&format!("/invoices/{id}")).await.1;
    assert_eq!(partly["status"], json!("envoyee"));
    assert_eq!(partly["balance"].as_f64(), Some(total - 10.0));
    assert_eq!(partly["payments"][0]["methodLabel"], json!("Chèque"));
    ok(
        &client,
        "enregistrer_reglement",
        json!({ "id": id, "paidOn": today() }),
    )
    .await;
    let paid = w.rest(&format!("/invoices/{id}")).await.1;
    assert_eq!(paid["status"], json!("payee"));
    assert_eq!(paid["paidOn"], json!(today()));
    assert_eq!(paid["balance"], json!(0.0));

    // A credit note on it: administrators only.
    let member = connect(&w.server, &w.member_token, None).await;
    let notes = "SELECT COUNT(*) FROM invoices WHERE nature = 'avoir'";
    assert_eq!(
        refused(&member, "creer_avoir", json!({ "id": id })).await,
        (
            403,
            "Seul un administrateur peut établir un avoir.".to_owned()
        )
    );
    assert_eq!(count(&db, notes), 0);
    let note = ok(
        &client,
        "creer_avoir",
        json!({ "id": id, "lines": [{ "label": "Geste commercial", "quantity": 1, "unitPrice": 10 }] }),
    )
    .await;
    let note = str_of(&note, "id").to_owned();
    let read = w.rest(&format!("/invoices/{note}")).await.1;
    assert_eq!(read["nature"], json!("avoir"));
    assert_eq!(read["status"], json!("emise"));
    assert_eq!(read["creditedInvoice"]["id"], json!(id));
    assert_eq!(read["totalInclTax"], json!(12.0));
    let (kind, actor): (String, String) = db
        .query_row(
            "SELECT actor_kind, actor_id FROM audit_log WHERE object_id = ?1 AND action = 'creation'",
            [&note],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!(
        (kind.as_str(), actor.as_str()),
        ("api_token", w.credential.as_str())
    );
    // The rest of the invoice, credited in full by a member: still refused.
    assert_eq!(
        refused(&member, "creer_avoir", json!({ "id": id })).await.0,
        403
    );
    member.cancel().await.expect("close");

    // An archived client cannot be billed, as through REST.
    Fixtures::in_agency(&w.server, &w.org.agency_id)
        .client(ClientInput {
            client_id: Some("CLI-000002".to_owned()),
            supprime: Some(true),
            ..ClientInput::default()
        })
        .await;
    let body = json!({ "clientId": "CLI-000002", "lines": [{ "label": "Visite", "quantity": 1, "unitPrice": 90 }] });
    let (status, message) = refused(&client, "creer_facture", body.clone()).await;
    let (rest_status, rest_body) = post(&w.server, "/api/v2/invoices", &w.token, Some(body)).await;
    assert_eq!(
        (status, json!({ "error": message })),
        (u64::from(rest_status), rest_body)
    );
    assert_eq!(status, 422);
    client.cancel().await.expect("close");
    w.server.stop().await;
}

#[tokio::test]
async fn another_organizations_token_sees_and_moves_nothing_of_this_one() {
    let w = world().await;
    let db = open_db(w.server.data_dir.path());
    // Something of each kind in the first organization.
    let mine = connect(&w.server, &w.token, None).await;
    let quote = ok(&mine, "creer_devis", quote_body(&w.equipment)).await;
    let quote = str_of(&quote, "id").to_owned();
    mine.cancel().await.expect("close");
    let (draft, _) = &w.dupont[0];
    let (issued, _) = &w.dupont[1];

    let theirs = connect(&w.server, &w.other.admin_token, None).await;
    // Its own client and invoice only.
    let clients = ok(&theirs, "clients", json!({ "q": "dupont" })).await;
    assert_eq!(clients["total"], json!(1));
    assert_eq!(clients["results"][0]["email"], json!("contact@dupont.fr"));
    let invoices = ok(&theirs, "factures", json!({ "client": "CLI-000001" })).await;
    assert_eq!(invoices["total"], json!(1));
    assert_eq!(invoices["results"][0]["id"], json!(w.other_invoice));
    let invoices = ok(&theirs, "factures", json!({ "client": "CLI-000002" })).await;
    assert_eq!(
        (invoices["total"].clone(), invoices["results"].clone()),
        (json!(0), json!([]))
    );

    let snapshot = |db: &Connection| {
        (
            count(db, "SELECT COUNT(*) FROM quotes"),
            count(db, "SELECT COUNT(*) FROM invoices"),
            db.prepare("SELECT status FROM invoices ORDER BY id")
                .and_then(|mut s| {
                    s.query_map([], |r| r.get::<String>(0))?
                        .collect::<Result<Vec<_>, _>>()
                })
                .expect("statuses")
                .join(","),
            db.query_row("SELECT status FROM quotes WHERE id = ?1", [&quote], |r| {
                r.get::<String>(0)
            })
            .expect("quote"),
        )
    };
    let before = snapshot(&db);
    for (tool, args, reason) in [
        ("facture", json!({ "id": issued }), "Facture introuvable."),
        (
            "emettre_facture",
            json!({ "id": draft }),
            "Facture introuvable.",
        ),
        (
            "envoyer_facture",
            json!({ "id": issued }),
            "Facture introuvable.",
        ),
        (
            "enregistrer_reglement",
            json!({ "id": issued }),
            "Facture introuvable.",
        ),
        (
            "creer_avoir",
            json!({ "id": issued }),
            "Facture introuvable.",
        ),
        ("devis", json!({ "id": quote }), "Devis introuvable."),
        (
            "envoyer_devis",
            json!({ "id": quote }),
            "Devis introuvable.",
        ),
        (
            "accepter_devis",
            json!({ "id": quote }),
            "Devis introuvable.",
        ),
        (
            "refuser_devis",
            json!({ "id": quote }),
            "Devis introuvable.",
        ),
    ] {
        assert_eq!(
            refused(&theirs, tool, args).await,
            (404, reason.to_owned()),
            "{tool}"
        );
    }
    // Creations naming this organization's records are refused input.
    let (status, message) = refused(&theirs, "creer_devis", quote_body(&w.equipment)).await;
    assert_eq!(status, 422);
    assert_eq!(
        message,
        format!(
            "Équipement introuvable dans cette agence : « {} ».",
            w.equipment
        )
    );
    let (status, _) = refused(
        &theirs,
        "creer_facture",
        json!({ "clientId": "CLI-000002", "lines": [{ "label": "x", "quantity": 1, "unitPrice": 1 }] }),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(snapshot(&db), before, "nothing changed");
    theirs.cancel().await.expect("close");
    w.server.stop().await;
}
