//! The Clients screen's API (`/app/api/clients…`, `/app/api/contacts…`): the
//! list (the REST search, the archived filter, paging), a client with its
//! contacts, archive and restore through the partner API's service (audited,
//! an archived client refusing contacts), contact creation from the REST
//! descriptor (refusals in French, nothing written), a member's rights and
//! agency isolation.

use crate::common;

use common::app::StaffClient;
use common::db::TestDb as Connection;
use common::world::World as Fixtures;
use common::*;
use liftdesk::services::clients::{ClientInput, ContactInput};
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

struct ClientSpec<'a> {
    reference: &'a str,
    name: &'a str,
    siren: Option<&'a str>,
    siret: Option<&'a str>,
    email: Option<&'a str>,
    archived: bool,
}

impl<'a> ClientSpec<'a> {
    fn named(reference: &'a str, name: &'a str) -> Self {
        ClientSpec {
            reference,
            name,
            siren: None,
            siret: None,
            email: None,
            archived: false,
        }
    }
}

async fn client(server: &TestServer, agency: &str, spec: ClientSpec<'_>) -> String {
    let text = |value: &str| Some(Some(value.to_owned()));
    Fixtures::in_agency(server, agency)
        .client(ClientInput {
            client_id: Some(spec.reference.to_owned()),
            nom: Some(spec.name.to_owned()),
            statut: Some("Client".to_owned()),
            types: Some(vec!["Gestionnaire".to_owned()]),
            email: spec.email.map(|e| Some(e.to_owned())),
            telephone: text("01 47 00 00 00"),
            adresse: text("3 rue Émile Zola, 92300 Levallois-Perret"),
            complement_adresse: text("Bâtiment B"),
            siren: spec.siren.map(|v| Some(v.to_owned())),
            siret: spec.siret.map(|v| Some(v.to_owned())),
            supprime: Some(spec.archived),
            ..ClientInput::default()
        })
        .await
}

async fn contact(server: &TestServer, agency: &str, client_ref: &str, name: &str, role: &str) {
    Fixtures::in_agency(server, agency)
        .contact(
            client_ref,
            ContactInput {
                nom: Some(name.to_owned()),
                email: Some("gardien@dupont.fr".to_owned()),
                telephone: Some("06 12 34 56 78".to_owned()),
                fonction: Some(role.to_owned()),
            },
        )
        .await;
}

fn member(server: &TestServer, agency: &str, email: &str) {
    server.cli_json(&[
        "user",
        "create",
        "--email",
        email,
        "--name",
        "Marc Membre",
        "--password",
        PASSWORD,
        "--agency",
        agency,
    ]);
}

fn count(db: &Connection, sql: &str, value: &str) -> i64 {
    db.query_row(sql, [value], |r| r.get(0)).expect("count")
}

fn names(page: &Value) -> Vec<&str> {
    page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect()
}

fn contact_names(detail: &Value) -> Vec<&str> {
    detail["contacts"]
        .as_array()
        .expect("contacts")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect()
}

struct World {
    server: TestServer,
    org: Org,
    /// Internal id of « Syndic Dupont » (`CLI-1`).
    dupont: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let dupont = client(
        &server,
        &org.agency_id,
        ClientSpec {
            siren: Some("732829320"),
            siret: Some("73282932000074"),
            email: Some("contact@dupont.fr"),
            ..ClientSpec::named("CLI-1", "Syndic Dupont")
        },
    )
    .await;
    contact(&server, &org.agency_id, "CLI-1", "Jean Gardien", "Gardien").await;
    client(
        &server,
        &org.agency_id,
        ClientSpec {
            archived: true,
            ..ClientSpec::named("CLI-2", "Gestion Horizon")
        },
    )
    .await;
    client(
        &server,
        &org.agency_id,
        ClientSpec::named("CLI-3", "Régie Étoile"),
    )
    .await;
    // Another agency: one client under the same reference, one of its own.
    client(
        &server,
        &other.agency_id,
        ClientSpec::named("CLI-1", "Syndic Ailleurs"),
    )
    .await;
    client(
        &server,
        &other.agency_id,
        ClientSpec::named("CLI-9", "Syndic Lointain"),
    )
    .await;
    World {
        server,
        org,
        dupont,
    }
}

impl World {
    async fn staff(&self) -> StaffClient {
        StaffClient::sign_in(&self.server, &self.org.admin_email, PASSWORD).await
    }
}

#[tokio::test]
async fn the_list_is_the_rest_search_filtered_by_archive_state_and_paged() {
    let w = world().await;
    let staff = w.staff().await;

    let (status, all) = staff.get("/clients").await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(all["total"], 3);
    assert_eq!(
        names(&all),
        ["Gestion Horizon", "Régie Étoile", "Syndic Dupont"]
    );
    // The same rows as the REST list, field for field.
    let (status, rest) = w
        .server
        .get_with("/api/v2/clients", Some(&w.org.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(all["results"], rest["results"]);
    let dupont = &all["results"][2];
    assert_eq!(dupont["id"], "CLI-1");
    assert_eq!(dupont["siren"], "732829320");
    assert_eq!(dupont["archived"], false);

    let (_, active) = staff.get("/clients?archived=active").await;
    assert_eq!(names(&active), ["Régie Étoile", "Syndic Dupont"]);
    let (_, archived) = staff.get("/clients?archived=archived").await;
    assert_eq!(names(&archived), ["Gestion Horizon"]);
    assert_eq!(archived["results"][0]["archived"], true);
    let (_, every) = staff.get("/clients?archived=all").await;
    assert_eq!(every["total"], 3);

    // Search: accents and case ignored, SIREN and SIRET found, combined with the filter.
    let (_, found) = staff.get("/clients?q=ETOILE").await;
    assert_eq!(names(&found), ["Régie Étoile"]);
    let (_, found) = staff.get("/clients?q=73282932000074").await;
    assert_eq!(names(&found), ["Syndic Dupont"]);
    let (_, found) = staff.get("/clients?q=horizon&archived=active").await;
    assert_eq!(found["total"], 0);

    // Paging.
    let (_, second) = staff.get("/clients?limit=2&page=2").await;
    assert_eq!(second["total"], 3);
    assert_eq!(second["page"], 2);
    assert_eq!(names(&second), ["Syndic Dupont"]);

    // Refusals in French, the REST ones for the REST parameters.
    let (status, body) = staff.get("/clients?archived=oui").await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le filtre « archived » doit valoir « active », « archived » ou « all »."
    );
    let (status, body) = staff.get("/clients?limit=0").await;
    assert_eq!(status, 422, "{body}");
    let (rest_status, rest_body) = w
        .server
        .get_with("/api/v2/clients?limit=0", Some(&w.org.admin_token), None)
        .await;
    assert_eq!((status, &body), (rest_status, &rest_body));
    let (status, body) = staff.get(&format!("/clients?q={}", "x".repeat(101))).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"],
        "Le paramètre « q » ne doit pas dépasser 100 caractères."
    );
}

#[tokio::test]
async fn a_client_is_read_with_its_contacts_then_archived_and_restored_with_audit() {
    let w = world().await;
    let staff = w.staff().await;

    let (status, detail) = staff.get("/clients/CLI-1").await;
    assert_eq!(status, 200, "{detail}");
    let client = &detail["client"];
    assert_eq!(client["id"], "CLI-1");
    assert_eq!(client["name"], "Syndic Dupont");
    assert_eq!(client["status"], "Client");
    assert_eq!(client["categories"], json!(["Gestionnaire"]));
    assert_eq!(client["siren"], "732829320");
    assert_eq!(client["siret"], "73282932000074");
    assert_eq!(client["email"], "contact@dupont.fr");
    assert_eq!(client["phone"], "01 47 00 00 00");
    assert_eq!(client["address"], "3 rue Émile Zola");
    assert_eq!(client["postalCode"], "92300");
    assert_eq!(client["city"], "Levallois-Perret");
    assert_eq!(client["addressComplement"], "Bâtiment B");
    assert_eq!(
        client["fullAddress"],
        "3 rue Émile Zola, Bâtiment B, 92300 Levallois-Perret"
    );
    assert_eq!(client["archived"], false);
    assert_eq!(contact_names(&detail), ["Jean Gardien"]);
    assert_eq!(detail["contacts"][0]["role"], "Gardien");
    assert_eq!(detail["contacts"][0]["phone"], "06 12 34 56 78");
    assert_eq!(detail["actions"], json!(["contact", "archive"]));

    // Archive: one write through `/update_client`'s service, audited with the staff member.
    let (status, archived) = staff.post("/clients/CLI-1/archive", json!({})).await;
    assert_eq!(status, 200, "{archived}");
    assert_eq!(archived["client"]["archived"], true);
    assert_eq!(archived["actions"], json!(["restore"]));
    assert_eq!(contact_names(&archived), ["Jean Gardien"]);
    let db = open_db(w.server.data_dir.path());
    let audit: (String, String, String) = db
        .query_row(
            "SELECT action, actor_kind, actor_id FROM audit_log
             WHERE object_type = 'client' AND object_id = ?1 ORDER BY seq DESC LIMIT 1",
            [&w.dupont],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("audit");
    assert_eq!(
        audit,
        (
            "client.archive".to_owned(),
            "account".to_owned(),
            w.org.admin_id.clone()
        )
    );
    // The same reference in another agency is untouched.
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM clients WHERE client_ref = ?1 AND supprime = 1",
            "CLI-1"
        ),
        1
    );
    let (_, list) = staff.get("/clients?archived=archived").await;
    assert_eq!(names(&list), ["Gestion Horizon", "Syndic Dupont"]);

    // An archived client receives no contact (the REST rule), nothing written.
    let contacts_before = count(
        &db,
        "SELECT COUNT(*) FROM contacts WHERE client_id = ?1",
        &w.dupont,
    );
    let (status, body) = staff
        .post(
            "/contacts",
            json!({"parentId": "CLI-1", "champs": {"nom": "Anne Nouvelle"}}),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le client « Syndic Dupont » est archivé : il ne reçoit plus de contacts."
    );
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM contacts WHERE client_id = ?1",
            &w.dupont
        ),
        contacts_before
    );

    // Archiving again changes nothing and writes no audit entry.
    let audits = |db: &Connection| {
        count(
            db,
            "SELECT COUNT(*) FROM audit_log WHERE object_id = ?1",
            &w.dupont,
        )
    };
    let before = audits(&db);
    let (status, again) = staff.post("/clients/CLI-1/archive", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(again["client"]["archived"], true);
    assert_eq!(audits(&db), before);

    // Restore.
    let (status, restored) = staff.post("/clients/CLI-1/restore", json!({})).await;
    assert_eq!(status, 200, "{restored}");
    assert_eq!(restored["client"]["archived"], false);
    assert_eq!(restored["actions"], json!(["contact", "archive"]));
    let action: String = db
        .query_row(
            "SELECT action FROM audit_log WHERE object_id = ?1 ORDER BY seq DESC LIMIT 1",
            [&w.dupont],
            |r| r.get(0),
        )
        .expect("audit");
    assert_eq!(action, "client.restore");
    assert_eq!(audits(&db), before + 1);

    // Without the CSRF token: refused, nothing written.
    let response = staff
        .http
        .post(format!("{}/app/api/clients/CLI-1/archive", staff.base))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let (_, detail) = staff.get("/clients/CLI-1").await;
    assert_eq!(detail["client"]["archived"], false);
}

#[tokio::test]
async fn contacts_are_created_from_the_rest_descriptor_and_refused_in_french() {
    let w = world().await;
    let staff = w.staff().await;

    let (status, descriptor) = staff.get("/contacts/creation").await;
    assert_eq!(status, 200);
    let (status, rest) = w
        .server
        .get_with("/api/v2/contacts/creation", Some(&w.org.admin_token), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(descriptor, rest);
    assert_eq!(descriptor["type"], "contact");
    assert_eq!(descriptor["fields"][0]["id"], "nom");
    assert_eq!(descriptor["fields"][0]["required"], true);

    let db = open_db(w.server.data_dir.path());
    let contacts = || {
        count(
            &db,
            "SELECT COUNT(*) FROM contacts WHERE client_id = ?1",
            &w.dupont,
        )
    };
    let before = contacts();

    // Refusals name the field by its label; nothing written.
    for (champs, reason) in [
        (
            json!({"nom": "Anne Martin", "email": "anne"}),
            "Le champ « E-mail » n'est pas une adresse e-mail valide : « anne ».",
        ),
        (json!({"nom": "  "}), "Le champ « Nom » est obligatoire."),
        (
            json!({"nom": "Anne Martin", "fonction": "Concierge"}),
            "La valeur « Concierge » du champ « Fonction » n'est pas autorisée : valeurs possibles : « Gardien », « Référent sur site », « Gestionnaire », « Syndic », « Conseil syndical », « Propriétaire », « Direction », « Services techniques », « Comptabilité », « Autre ».",
        ),
        (
            json!({"nom": "jean gardien"}),
            "Le client « Syndic Dupont » a déjà un contact nommé « Jean Gardien » (champ « Nom »).",
        ),
    ] {
        let (status, body) = staff
            .post("/contacts", json!({"parentId": "CLI-1", "champs": champs}))
            .await;
        assert_eq!(status, 422, "{champs}");
        assert_eq!(body["error"], reason);
    }
    assert_eq!(contacts(), before);

    // Created: 201 naming the contact, shown on the client.
    let (status, created) = staff
        .post(
            "/contacts",
            json!({"parentId": "CLI-1", "champs": {
                "nom": " Anne Martin ",
                "email": "anne.martin@dupont.fr",
                "telephone": "06 98 76 54 32",
                "fonction": "Syndic"
            }}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["ok"], true);
    let contact_id = created["id"].as_str().expect("id").to_owned();
    assert_eq!(contacts(), before + 1);
    let (_, detail) = staff.get("/clients/CLI-1").await;
    assert_eq!(contact_names(&detail), ["Jean Gardien", "Anne Martin"]);
    let anne = &detail["contacts"][1];
    assert_eq!(anne["id"], contact_id.as_str());
    assert_eq!(anne["email"], "anne.martin@dupont.fr");
    assert_eq!(anne["phone"], "06 98 76 54 32");
    assert_eq!(anne["role"], "Syndic");
    let (actor_kind, actor_id): (String, String) = db
        .query_row(
            "SELECT actor_kind, actor_id FROM audit_log WHERE object_id = ?1",
            [&contact_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!((actor_kind.as_str(), actor_id), ("account", w.org.admin_id));
}

#[tokio::test]
async fn a_member_adds_contacts_but_does_not_archive_and_another_agencys_client_is_not_found() {
    let w = world().await;
    let staff = w.staff().await;

    // Another agency's client, or an unknown one: 404 for reads and archive/restore.
    for reference in ["CLI-9", "CLI-404"] {
        let (status, body) = staff.get(&format!("/clients/{reference}")).await;
        assert_eq!(status, 404, "{reference}");
        assert_eq!(body["error"], "Client introuvable.");
        for action in ["archive", "restore"] {
            let (status, body) = staff
                .post(&format!("/clients/{reference}/{action}"), json!({}))
                .await;
            assert_eq!(status, 404, "{reference} {action}");
            assert_eq!(body["error"], "Client introuvable.");
        }
    }
    // A contact on it is refused as over REST (a reference in the body: 422).
    let (status, body) = staff
        .post(
            "/contacts",
            json!({"parentId": "CLI-9", "champs": {"nom": "Intrus"}}),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Client introuvable dans cette agence : « CLI-9 »."
    );
    let (_, list) = staff.get("/clients?q=ailleurs").await;
    assert_eq!(list["total"], 0);
    let db = open_db(w.server.data_dir.path());
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM contacts WHERE nom = ?1",
            "Intrus"
        ),
        0
    );

    // Signed out: 401.
    let anonymous = w
        .server
        .client
        .get(w.server.url("/app/api/clients"))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status().as_u16(), 401);

    // A member reads and adds contacts, as the REST API lets him; archiving is not offered and refused.
    member(&w.server, &w.org.agency_id, "marc@durand.fr");
    let marc = StaffClient::sign_in(&w.server, "marc@durand.fr", PASSWORD).await;
    let (status, list) = marc.get("/clients").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["total"], 3);
    let (status, detail) = marc.get("/clients/CLI-1").await;
    assert_eq!(status, 200);
    assert_eq!(detail["actions"], json!(["contact"]));
    let (_, archived) = marc.get("/clients/CLI-2").await;
    assert_eq!(archived["actions"], json!([]));
    let (status, created) = marc
        .post(
            "/contacts",
            json!({"parentId": "CLI-1", "champs": {"nom": "Lucie Référente", "fonction": "Référent sur site"}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    for (action, reference, reason) in [
        (
            "archive",
            "CLI-1",
            "Archiver un client est réservé à un administrateur de l'agence.",
        ),
        (
            "restore",
            "CLI-2",
            "Restaurer un client est réservé à un administrateur de l'agence.",
        ),
    ] {
        let (status, body) = marc
            .post(&format!("/clients/{reference}/{action}"), json!({}))
            .await;
        assert_eq!(status, 403, "{action}");
        assert_eq!(body["error"], reason);
    }
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM audit_log WHERE action IN ('client.archive', 'client.restore') AND actor_id = ?1",
            str_of(&marc.session["account"], "id"),
        ),
        0
    );
    let (_, detail) = marc.get("/clients/CLI-1").await;
    assert_eq!(detail["client"]["archived"], false);
    let (_, detail) = marc.get("/clients/CLI-2").await;
    assert_eq!(detail["client"]["archived"], true);
}
