//! MCP tools of contacts (`descripteur_contact`, `creer_contact`), through a
//! real MCP client session: the descriptor and the refusals compared to the
//! REST API's for the same input, a creation visible in the database with
//! its audit entry (the token's credential) and through the partner
//! workflow API, and another organization reaching nothing.

use crate::common;

use common::db::TestDb as Connection;
use common::mcp::*;
use common::world::World as Fixtures;
use common::*;
use serde_json::{Value, json};

fn count(db: &Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).expect("count")
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    /// A token of the admin made for the assistant, and its credential id.
    token: String,
    credential: String,
    dupont: String,
    partner_key: String,
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
    let partner = cli_json(
        &dir,
        &[
            "partner-key",
            "create",
            "--name",
            "Partenaire",
            "--agency",
            &org.agency_id,
        ],
    );
    let dupont = Fixtures::in_agency(&server, &org.agency_id)
        .client_named("CLI-000001", "Syndic Dupont")
        .await;
    Fixtures::in_agency(&server, &other.agency_id)
        .client_named("CLI-MARTIN", "Martin Immobilier")
        .await;
    World {
        server,
        org,
        other,
        token: str_of(&assistant, "token").to_owned(),
        credential: str_of(&assistant, "id").to_owned(),
        dupont,
        partner_key: str_of(&partner, "key").to_owned(),
    }
}

impl World {
    async fn rest_post(&self, token: &str, body: &Value) -> (u16, Value) {
        let response = self
            .server
            .client
            .post(self.server.url("/api/v2/contacts"))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    fn contacts(&self) -> i64 {
        count(
            &open_db(self.server.data_dir.path()),
            "SELECT COUNT(*) FROM contacts",
        )
    }
}

/// A tool's answer that must succeed.
async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(!error, "{tool} {arguments}: {value}");
    value
}

/// A tool's refusal: `{"error", "status"}`.
async fn refused(client: &Client, tool: &str, arguments: Value) -> (u16, String) {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(error, "{tool} {arguments} should be refused: {value}");
    let mut keys: Vec<&String> = value.as_object().expect("object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["error", "status"], "{value}");
    (
        u16::try_from(value["status"].as_u64().expect("status")).expect("u16"),
        value["error"].as_str().expect("error").to_owned(),
    )
}

#[tokio::test]
async fn the_contact_tools_are_listed_with_the_schema_of_the_field_table() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    let tools = client.list_all_tools().await.expect("tools");
    let find = |name: &str| {
        tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    for name in ["descripteur_contact", "creer_contact"] {
        let tool = find(name);
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{name}"
        );
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.len() > 200, "{name}: {description}");
    }
    let create = find("creer_contact");
    let description = create.description.as_deref().unwrap_or_default();
    for words in ["`clients`", "`parentId`", "`nom`", "« Gardien »", "422"] {
        assert!(description.contains(words), "{words} in {description}");
    }
    let schema = &create.input_schema;
    assert_eq!(schema["required"], json!(["parentId", "champs"]));
    assert_eq!(schema["additionalProperties"], json!(false));
    let champs = &schema["properties"]["champs"];
    assert_eq!(champs["required"], json!(["nom"]));
    assert_eq!(champs["additionalProperties"], json!(false));
    let mut ids: Vec<&String> = champs["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .collect();
    ids.sort();
    assert_eq!(ids, ["email", "fonction", "nom", "telephone"]);
    assert_eq!(
        champs["properties"]["fonction"]["enum"][0],
        json!("Gardien")
    );
    assert_eq!(
        find("descripteur_contact")
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint),
        Some(true)
    );
    assert_eq!(
        create.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(false)
    );
    w.server.stop().await;
}

#[tokio::test]
async fn the_descriptor_tool_answers_the_rest_descriptor() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    let tool = ok(&client, "descripteur_contact", json!({})).await;
    let (status, rest) = w
        .server
        .get_with("/api/v2/contacts/creation", Some(&w.token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(tool, rest);
    assert_eq!(tool["fields"][3]["id"], json!("fonction"));
    w.server.stop().await;
}

#[tokio::test]
async fn creer_contact_creates_what_post_contacts_creates_and_refuses_what_it_refuses() {
    let w = world().await;
    let client = connect(&w.server, &w.token, None).await;
    let created = ok(
        &client,
        "creer_contact",
        json!({
            "parentId": "CLI-000001",
            "champs": {
                "nom": "Jeanne Martin",
                "email": "jeanne@syndic-dupont.fr",
                "telephone": "06 12 34 56 78",
                "fonction": "Référent sur site"
            }
        }),
    )
    .await;
    let id = created["id"].as_str().expect("id").to_owned();
    assert_eq!(
        created,
        json!({
            "id": id,
            "ok": true,
            "link": format!("/contacts/{id}"),
            "url": format!("{}/contacts/{id}", w.server.base_url),
        })
    );
    let db = open_db(w.server.data_dir.path());
    let (client_id, fonction): (String, Option<String>) = db
        .query_row(
            "SELECT client_id, fonction FROM contacts WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("contact");
    assert_eq!(client_id, w.dupont);
    assert_eq!(fonction.as_deref(), Some("Référent sur site"));
    let actor: (String, String) = db
        .query_row(
            "SELECT actor_kind, actor_id FROM audit_log WHERE object_type = 'contact' AND object_id = ?1 AND action = 'creation'",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!(actor, ("api_token".to_owned(), w.credential.clone()));
    // Visible through the partner workflow API.
    let response = w
        .server
        .client
        .post(w.server.url("/api/1.1/wf/get_client"))
        .header("x-api-key", &w.partner_key)
        .json(&json!({ "agency_id": w.org.agency_id, "client_id": "CLI-000001" }))
        .send()
        .await
        .expect("request");
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body["response"][0]["contact"],
        json!([{
            "nom": "Jeanne Martin",
            "email": "jeanne@syndic-dupont.fr",
            "telephone": "06 12 34 56 78",
            "fonction": "Référent sur site"
        }])
    );

    // Each refusal: the REST API's status and reason, nothing created.
    let refusals = [
        json!({ "parentId": "CLI-000001", "champs": { "nom": "jeanne martin" } }),
        json!({ "champs": { "nom": "Luc Petit" } }),
        json!({ "parentId": "CLI-404", "champs": { "nom": "Luc Petit" } }),
        json!({ "parentId": "CLI-MARTIN", "champs": { "nom": "Luc Petit" } }),
        json!({ "parentId": "CLI-000001", "champs": {} }),
        json!({ "parentId": "CLI-000001", "champs": { "nom": "Luc Petit", "email": "luc@" } }),
        json!({ "parentId": "CLI-000001", "champs": { "nom": "Luc Petit", "fonction": "Concierge" } }),
        json!({ "parentId": "CLI-000001", "champs": { "nom": "Luc Petit", "mobile": "06" } }),
        json!({ "parentId": "CLI-000001", "champs": { "nom": 42 } }),
        json!({ "parentId": "CLI-000001", "champs": { "nom": "Luc Petit" }, "client": "x" }),
    ];
    let before = w.contacts();
    for arguments in refusals {
        let (status, reason) = refused(&client, "creer_contact", arguments.clone()).await;
        let (rest_status, rest) = w.rest_post(&w.token, &arguments).await;
        assert_eq!(status, 422, "{arguments}: {reason}");
        assert_eq!(
            (status, json!({ "error": reason })),
            (rest_status, rest),
            "{arguments}"
        );
    }
    assert_eq!(w.contacts(), before, "nothing created by a refusal");
    let (_, reason) = refused(
        &client,
        "creer_contact",
        json!({ "parentId": "CLI-000001", "champs": { "nom": "Luc Petit", "fonction": "Concierge" } }),
    )
    .await;
    assert!(
        reason.starts_with("La valeur « Concierge » du champ « Fonction » n'est pas autorisée"),
        "{reason}"
    );
    w.server.stop().await;
}

#[tokio::test]
async fn another_organization_reaches_no_client_of_ours() {
    let w = world().await;
    let theirs = connect(&w.server, &w.other.admin_token, None).await;
    let before = w.contacts();
    let (status, reason) = refused(
        &theirs,
        "creer_contact",
        json!({ "parentId": "CLI-000001", "champs": { "nom": "Intrus" } }),
    )
    .await;
    assert_eq!(
        (status, reason.as_str()),
        (
            422,
            "Client introuvable dans cette agence : « CLI-000001 »."
        )
    );
    assert_eq!(w.contacts(), before);
    // Their own client: created in their agency.
    let created = ok(
        &theirs,
        "creer_contact",
        json!({ "parentId": "CLI-MARTIN", "champs": { "nom": "Marc Martin", "fonction": "Direction" } }),
    )
    .await;
    assert_eq!(created["ok"], json!(true));
    assert_eq!(w.contacts(), before + 1);
    w.server.stop().await;
}
