//! REST API v2: `GET /contacts/creation` (the contact creation descriptor)
//! and `POST /contacts` (the creation it describes): the exact descriptor,
//! each refusal with its French reason naming the field, nothing written on
//! a refusal, and a created contact visible in the database, in the audit
//! log and through the partner workflow API's `/get_client`.

use crate::common;

use common::db::TestDb as Connection;
use common::world::World as Fixtures;
use common::*;
use liftdesk::services::clients::{ClientInput, ContactInput};
use serde_json::{Value, json};

fn count(db: &Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).expect("count")
}

/// A client of the agency, archived or not; returns its internal id.
async fn insert_client(
    server: &TestServer,
    agency: &str,
    client_ref: &str,
    name: &str,
    archived: bool,
) -> String {
    Fixtures::in_agency(server, agency)
        .client(ClientInput {
            client_id: Some(client_ref.to_owned()),
            nom: Some(name.to_owned()),
            supprime: Some(archived),
            ..ClientInput::default()
        })
        .await
}

/// A contact with its name only, of the client `client_ref` of the agency.
async fn insert_contact(server: &TestServer, agency: &str, client_ref: &str, nom: &str) {
    Fixtures::in_agency(server, agency)
        .contact(
            client_ref,
            ContactInput {
                nom: Some(nom.to_owned()),
                ..ContactInput::default()
            },
        )
        .await;
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    /// The credential id of `org.admin_token`.
    credential: String,
    /// A member (not an administrator) working in the first agency and in
    /// `second_agency`.
    member_token: String,
    second_agency: String,
    /// Internal ids of the clients.
    dupont: String,
    theirs: String,
    /// A partner key of the first agency, to read clients through `/get_client`.
    partner_key: String,
}

async fn world() -> World {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(dir.path(), "Martin", "paul@martin.fr");
    let tokens = open_db(dir.path())
        .query_row(
            "SELECT id FROM credentials WHERE kind = 'api_token' AND account_id = ?1",
            [&org.admin_id],
            |r| r.get::<String>(0),
        )
        .expect("credential");
    let second = cli_json(
        dir.path(),
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Durand Sud",
        ],
    );
    let second_agency = str_of(&second, "id").to_owned();
    cli_json(
        dir.path(),
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
            "--agency",
            &second_agency,
        ],
    );
    let member = cli_json(
        dir.path(),
        &[
            "token",
            "create",
            "--email",
            "membre@durand.fr",
            "--name",
            "t",
        ],
    );
    let partner = cli_json(
        dir.path(),
        &[
            "partner-key",
            "create",
            "--name",
            "Partenaire",
            "--agency",
            &org.agency_id,
        ],
    );
    let server = TestServer::start_in(dir).await;
    let dupont = insert_client(
        &server,
        &org.agency_id,
        "CLI-000001",
        "Syndic Dupont",
        false,
    )
    .await;
    insert_client(
        &server,
        &org.agency_id,
        "CLI-000002",
        "Résidence Lebrun",
        true,
    )
    .await;
    insert_contact(&server, &org.agency_id, "CLI-000001", "Paul Lefèvre").await;
    insert_client(
        &server,
        &second_agency,
        "CLI-SUD-1",
        "Foncière du Sud",
        false,
    )
    .await;
    // Same partner identifier in another organization.
    let theirs = insert_client(
        &server,
        &other.agency_id,
        "CLI-000001",
        "Syndic Dupont",
        false,
    )
    .await;
    insert_client(
        &server,
        &other.agency_id,
        "CLI-MARTIN",
        "Martin Immobilier",
        false,
    )
    .await;
    World {
        server,
        credential: tokens,
        org,
        other,
        member_token: str_of(&member, "token").to_owned(),
        second_agency,
        dupont,
        theirs,
        partner_key: str_of(&partner, "key").to_owned(),
    }
}

/// A POST with a raw body and Content-Type.
async fn post_raw(
    w: &World,
    path: &str,
    token: Option<&str>,
    agency: Option<&str>,
    content_type: &str,
    body: &str,
) -> (u16, Value) {
    let mut request = w
        .server
        .client
        .post(w.server.url(path))
        .header("Content-Type", content_type)
        .body(body.to_owned());
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    if let Some(agency) = agency {
        request = request.header("X-Service-Agency", agency);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

impl World {
    async fn create_as(&self, token: &str, agency: Option<&str>, body: &Value) -> (u16, Value) {
        post_raw(
            self,
            "/api/v2/contacts",
            Some(token),
            agency,
            "application/json",
            &body.to_string(),
        )
        .await
    }

    async fn create(&self, body: &Value) -> (u16, Value) {
        self.create_as(&self.org.admin_token, None, body).await
    }

    fn db(&self) -> Connection {
        open_db(self.server.data_dir.path())
    }

    /// Every contact and every audit entry, as text.
    fn snapshot(&self) -> String {
        let db = self.db();
        let mut out = String::new();
        for sql in [
            "SELECT id, client_id, nom, email, telephone, fonction FROM contacts ORDER BY id",
            "SELECT seq, action, object_type, object_id FROM audit_log ORDER BY seq",
        ] {
            let mut stmt = db.prepare(sql).expect("prepare");
            let rows = stmt
                .query_map([], |r| {
                    let mut line = String::new();
                    for i in 0..r.column_count() {
                        let v: liftdesk::store::sql::Value = r.get(i)?;
                        line.push_str(&format!("{v:?}|"));
                    }
                    Ok(line)
                })
                .expect("query")
                .collect::<Result<Vec<_>, _>>()
                .expect("rows");
            out.push_str(&rows.join("\n"));
            out.push('\n');
        }
        out
    }

    /// `/get_client` of the partner workflow API, for the first agency.
    async fn partner_client(&self, client_ref: &str) -> Value {
        let response = self
            .server
            .client
            .post(self.server.url("/api/1.1/wf/get_client"))
            .header("x-api-key", &self.partner_key)
            .json(&json!({ "agency_id": self.org.agency_id, "client_id": client_ref }))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 200);
        let body: Value = response.json().await.expect("json");
        body["response"][0].clone()
    }

    /// A refusal: that status, that French reason, and nothing written.
    async fn refused(&self, body: Value, status: u16, reason: &str) {
        let before = self.snapshot();
        let (got, answer) = self.create(&body).await;
        assert_eq!(got, status, "{body} → {answer}");
        assert_eq!(answer, json!({ "error": reason }), "{body}");
        assert_eq!(self.snapshot(), before, "nothing written for {body}");
    }
}

const FONCTIONS: &str = "« Gardien », « Référent sur site », « Gestionnaire », « Syndic », « Conseil syndical », « Propriétaire », « Direction », « Services techniques », « Comptabilité », « Autre »";

#[tokio::test]
async fn the_descriptor_is_exactly_the_spec_table() {
    let w = world().await;
    let (status, body) = w
        .server
        .get_with("/api/v2/contacts/creation", Some(&w.member_token), None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "type": "contact",
            "parent": { "label": "Client", "object": "client", "required": true },
            "fields": [
                { "id": "nom", "label": "Nom", "required": true, "type": "text", "values": null },
                { "id": "email", "label": "E-mail", "required": false, "type": "email", "values": null },
                { "id": "telephone", "label": "Téléphone", "required": false, "type": "text", "values": null },
                {
                    "id": "fonction", "label": "Fonction", "required": false, "type": "choice",
                    "values": [
                        "Gardien", "Référent sur site", "Gestionnaire", "Syndic", "Conseil syndical",
                        "Propriétaire", "Direction", "Services techniques", "Comptabilité", "Autre"
                    ]
                }
            ]
        })
    );
    // The same for every agency and organization: it describes the form.
    let (status, theirs) = w
        .server
        .get_with(
            "/api/v2/contacts/creation",
            Some(&w.other.admin_token),
            None,
        )
        .await;
    assert_eq!((status, &theirs), (200, &body));
    let (status, _) = w
        .server
        .get_with("/api/v2/contacts/creation", None, None)
        .await;
    assert_eq!(status, 401);
    w.server.stop().await;
}

#[tokio::test]
async fn a_contact_is_created_on_the_client_with_its_audit_entry_and_read_by_the_partner_api() {
    let w = world().await;
    let (status, body) = w
        .create(&json!({
            "parentId": "CLI-000001",
            "champs": {
                "nom": "  Jeanne Martin ",
                "email": " jeanne.martin@syndic-dupont.fr ",
                "telephone": "06 12 34 56 78",
                "fonction": "Gardien"
            }
        }))
        .await;
    assert_eq!(status, 201, "{body}");
    let mut keys: Vec<&String> = body.as_object().expect("object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["id", "link", "ok", "url"]);
    let id = body["id"].as_str().expect("id").to_owned();
    assert_eq!(body["ok"], json!(true));
    assert_eq!(body["link"], json!(format!("/contacts/{id}")));
    assert_eq!(
        body["url"],
        json!(format!("{}/contacts/{id}", w.server.base_url))
    );
    let db = w.db();
    let row: (
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
    ) = db
        .query_row(
            "SELECT client_id, nom, email, telephone, fonction FROM contacts WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .expect("contact row");
    assert_eq!(
        row,
        (
            w.dupont.clone(),
            "Jeanne Martin".to_owned(),
            Some("jeanne.martin@syndic-dupont.fr".to_owned()),
            Some("06 12 34 56 78".to_owned()),
            Some("Gardien".to_owned()),
        )
    );
    let audit: (String, String, String, String, Option<String>, String) = db
        .query_row(
            "SELECT actor_kind, actor_id, action, object_type, agency_id, detail FROM audit_log WHERE object_id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .expect("one audit entry");
    assert_eq!(
        (&audit.0[..], &audit.1[..], &audit.2[..], &audit.3[..]),
        ("api_token", &w.credential[..], "creation", "contact")
    );
    assert_eq!(audit.4.as_deref(), Some(&w.org.agency_id[..]));
    let detail: Value = serde_json::from_str(&audit.5).expect("detail");
    assert_eq!(detail["client_id"], json!("CLI-000001"));
    assert_eq!(detail["nom"], json!("Jeanne Martin"));
    // Another organization's client with the same identifier is untouched.
    assert_eq!(
        count(
            &db,
            &format!(
                "SELECT COUNT(*) FROM contacts WHERE client_id = '{}'",
                w.theirs
            )
        ),
        0
    );

    // Only the name, the others null or blank: stored as no value.
    let (status, second) = w
        .create(&json!({
            "parentId": " CLI-000001 ",
            "champs": { "nom": "Luc Petit", "email": null, "telephone": "  ", "fonction": "" }
        }))
        .await;
    assert_eq!(status, 201, "{second}");

    // The partner workflow API reads the client with its contacts, oldest first.
    let client = w.partner_client("CLI-000001").await;
    assert_eq!(
        client["contact"],
        json!([
            { "nom": "Paul Lefèvre", "email": null, "telephone": null, "fonction": null },
            {
                "nom": "Jeanne Martin",
                "email": "jeanne.martin@syndic-dupont.fr",
                "telephone": "06 12 34 56 78",
                "fonction": "Gardien"
            },
            { "nom": "Luc Petit", "email": null, "telephone": null, "fonction": null }
        ])
    );
    w.server.stop().await;
}

#[tokio::test]
async fn a_member_creates_contacts_in_the_agency_where_it_acts() {
    let w = world().await;
    let body = json!({ "parentId": "CLI-SUD-1", "champs": { "nom": "Anne Roux", "fonction": "Direction" } });
    // In the default agency the second agency's client is not found.
    let (status, answer) = w.create_as(&w.member_token, None, &body).await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Client introuvable dans cette agence : « CLI-SUD-1 »." })
        )
    );
    let (status, answer) = w
        .create_as(&w.member_token, Some(&w.second_agency), &body)
        .await;
    assert_eq!(status, 201, "{answer}");
    let agency: Option<String> = w
        .db()
        .query_row(
            "SELECT agency_id FROM audit_log WHERE object_id = ?1",
            [answer["id"].as_str().expect("id")],
            |r| r.get(0),
        )
        .expect("audit");
    assert_eq!(agency.as_deref(), Some(&w.second_agency[..]));
    w.server.stop().await;
}

#[tokio::test]
async fn the_parent_is_required_and_must_be_a_client_of_the_agency() {
    let w = world().await;
    let nom = json!({ "nom": "Jeanne Martin" });
    let missing = "Le champ « Client » (parentId) est obligatoire : l'identifiant `client_id` du client de l'agence auquel rattacher le contact.";
    w.refused(json!({ "champs": nom }), 422, missing).await;
    w.refused(json!({ "parentId": null, "champs": nom }), 422, missing)
        .await;
    w.refused(json!({ "parentId": "  ", "champs": nom }), 422, missing)
        .await;
    w.refused(
        json!({ "parentId": 1, "champs": nom }),
        422,
        "Le champ « Client » (parentId) n'a pas le type attendu : l'identifiant `client_id` du client (texte).",
    )
    .await;
    w.refused(
        json!({ "parentId": "CLI-404", "champs": nom }),
        422,
        "Client introuvable dans cette agence : « CLI-404 ».",
    )
    .await;
    // Another organization's client: refused input like an unknown one (a
    // reference in a body, as POST /discrepancies and POST /invoices do).
    w.refused(
        json!({ "parentId": "CLI-MARTIN", "champs": nom }),
        422,
        "Client introuvable dans cette agence : « CLI-MARTIN ».",
    )
    .await;
    // The internal id is not the client's identifier on this interface.
    w.refused(
        json!({ "parentId": w.dupont, "champs": nom }),
        422,
        &format!("Client introuvable dans cette agence : « {} ».", w.dupont),
    )
    .await;
    w.refused(
        json!({ "parentId": "CLI-000002", "champs": nom }),
        422,
        "Le client « Résidence Lebrun » est archivé : il ne reçoit plus de contacts.",
    )
    .await;
    // And the other organization, acting in its own agency, does not reach ours.
    let before = w.snapshot();
    let (status, answer) = w
        .create_as(
            &w.other.admin_token,
            None,
            &json!({ "parentId": "CLI-SUD-1", "champs": nom }),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(w.snapshot(), before);
    w.server.stop().await;
}

#[tokio::test]
async fn each_refused_field_is_named_by_its_french_label() {
    let w = world().await;
    let with = |champs: Value| json!({ "parentId": "CLI-000001", "champs": champs });
    w.refused(with(json!({})), 422, "Le champ « Nom » est obligatoire.")
        .await;
    w.refused(
        json!({ "parentId": "CLI-000001" }),
        422,
        "Le champ « Nom » est obligatoire.",
    )
    .await;
    w.refused(
        with(json!({ "nom": "   ", "email": "jeanne@etoile.fr" })),
        422,
        "Le champ « Nom » est obligatoire.",
    )
    .await;
    w.refused(
        with(json!({ "nom": null })),
        422,
        "Le champ « Nom » est obligatoire.",
    )
    .await;
    w.refused(
        with(json!({ "nom": "Jeanne Martin", "email": "jeanne.etoile.fr" })),
        422,
        "Le champ « E-mail » n'est pas une adresse e-mail valide : « jeanne.etoile.fr ».",
    )
    .await;
    w.refused(
        with(json!({ "nom": "Jeanne Martin", "fonction": "Gardienne" })),
        422,
        &format!(
            "La valeur « Gardienne » du champ « Fonction » n'est pas autorisée : valeurs possibles : {FONCTIONS}."
        ),
    )
    .await;
    w.refused(
        with(json!({ "nom": "Jeanne Martin", "poste": "Gardien" })),
        422,
        "Le champ « poste » n'est pas reconnu : champs possibles : « nom » (Nom), « email » (E-mail), « telephone » (Téléphone), « fonction » (Fonction).",
    )
    .await;
    w.refused(
        with(json!({ "Nom": "Jeanne Martin" })),
        422,
        "Le champ « Nom » n'est pas reconnu : champs possibles : « nom » (Nom), « email » (E-mail), « telephone » (Téléphone), « fonction » (Fonction).",
    )
    .await;
    w.refused(
        with(json!({ "nom": "Jeanne Martin", "telephone": 612345678 })),
        422,
        "Le champ « Téléphone » n'a pas le type attendu : un texte.",
    )
    .await;
    w.refused(
        with(json!({ "nom": ["Jeanne", "Martin"] })),
        422,
        "Le champ « Nom » n'a pas le type attendu : un texte.",
    )
    .await;
    w.refused(
        with(json!({ "nom": "Jeanne Martin", "fonction": ["Gardien"] })),
        422,
        "Le champ « Fonction » n'a pas le type attendu : un texte parmi les valeurs proposées.",
    )
    .await;
    w.refused(
        with(json!({ "nom": "Jeanne Martin", "email": false })),
        422,
        "Le champ « E-mail » n'a pas le type attendu : une adresse e-mail (texte).",
    )
    .await;
    w.refused(
        with(json!({ "nom": "x".repeat(501) })),
        422,
        "Le champ « Nom » dépasse 500 caractères.",
    )
    .await;
    // A second contact of the same name (accents and case ignored).
    w.refused(
        with(json!({ "nom": "paul lefevre", "fonction": "Syndic" })),
        422,
        "Le client « Syndic Dupont » a déjà un contact nommé « Paul Lefèvre » (champ « Nom »).",
    )
    .await;
    // The body itself.
    w.refused(
        json!({ "parentId": "CLI-000001", "champs": ["nom"] }),
        422,
        "Le champ « champs » n'a pas le type attendu.",
    )
    .await;
    w.refused(
        json!({ "parentId": "CLI-000001", "champs": { "nom": "Jeanne" }, "client": "x" }),
        422,
        "Le champ « client » n'est pas reconnu.",
    )
    .await;
    let before = w.snapshot();
    for (content_type, body) in [
        ("application/json", "{\"parentId\": "),
        ("application/json", "[]"),
        (
            "text/plain",
            "{\"parentId\": \"CLI-000001\", \"champs\": {\"nom\": \"J\"}}",
        ),
    ] {
        let (status, answer) = post_raw(
            &w,
            "/api/v2/contacts",
            Some(&w.org.admin_token),
            None,
            content_type,
            body,
        )
        .await;
        assert_eq!(status, 400, "{body} → {answer}");
        assert!(answer["error"].is_string());
    }
    let (status, _) = post_raw(
        &w,
        "/api/v2/contacts",
        None,
        None,
        "application/json",
        &with(json!({ "nom": "Jeanne" })).to_string(),
    )
    .await;
    assert_eq!(status, 401);
    // An agency outside the token's scope.
    let (status, answer) = w
        .create_as(
            &w.org.admin_token,
            Some(&w.other.agency_id),
            &with(json!({ "nom": "Jeanne" })),
        )
        .await;
    assert_eq!(status, 403, "{answer}");
    assert_eq!(w.snapshot(), before);
    w.server.stop().await;
}

#[tokio::test]
async fn the_published_schema_of_the_body_is_the_descriptor() {
    let w = world().await;
    let (status, doc) = w.server.get_with("/api/v2/openapi.json", None, None).await;
    assert_eq!(status, 200);
    let operation = &doc["paths"]["/contacts"]["post"];
    for code in ["201", "400", "401", "403", "413", "422", "429"] {
        assert!(operation["responses"].get(code).is_some(), "{code}");
    }
    let body = &doc["components"]["schemas"]["ContactBody"];
    assert_eq!(body["required"], json!(["parentId", "champs"]));
    let champs = &body["properties"]["champs"];
    assert_eq!(champs["additionalProperties"], json!(false));
    assert_eq!(champs["required"], json!(["nom"]));
    let (_, descriptor) = w
        .server
        .get_with("/api/v2/contacts/creation", Some(&w.org.admin_token), None)
        .await;
    for field in descriptor["fields"].as_array().expect("fields") {
        let id = field["id"].as_str().expect("id");
        let property = &champs["properties"][id];
        assert!(property.is_object(), "{id} in the schema");
        if let Some(values) = field["values"].as_array() {
            let mut allowed = values.clone();
            allowed.push(Value::Null);
            assert_eq!(property["enum"], Value::Array(allowed), "{id}");
        }
    }
    assert_eq!(
        champs["properties"].as_object().map(|p| p.len()),
        descriptor["fields"].as_array().map(Vec::len)
    );
    w.server.stop().await;
}
