//! REST API v2: `GET /clients`, the agency's clients searched and paged,
//! whose `id` is what `GET /invoices?client=` and `POST /invoices` take.

use crate::common;

use common::world::World as Fixtures;
use common::*;
use liftdesk::services::clients::ClientInput;
use serde_json::{Value, json};

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

/// A client row as the partner API writes it.
struct Client<'a> {
    client_ref: &'a str,
    nom: &'a str,
    statut: &'a str,
    email: Option<&'a str>,
    telephone: Option<&'a str>,
    siren: Option<&'a str>,
    siret: Option<&'a str>,
    archived: bool,
}

impl<'a> Client<'a> {
    fn named(client_ref: &'a str, nom: &'a str) -> Self {
        Client {
            client_ref,
            nom,
            statut: "Client",
            email: None,
            telephone: None,
            siren: None,
            siret: None,
            archived: false,
        }
    }
}

/// Writes the client through the partner API's operation (`/update_client`).
async fn insert_client(server: &TestServer, agency: &str, c: &Client<'_>) -> String {
    let text = |value: Option<&str>| value.map(|v| Some(v.to_owned()));
    Fixtures::in_agency(server, agency)
        .client(ClientInput {
            client_id: Some(c.client_ref.to_owned()),
            nom: Some(c.nom.to_owned()),
            statut: Some(c.statut.to_owned()),
            email: text(c.email),
            telephone: text(c.telephone),
            siren: text(c.siren),
            siret: text(c.siret),
            supprime: Some(c.archived),
            ..ClientInput::default()
        })
        .await
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    /// A member working in the first agency and in a second one.
    member_token: String,
    second_agency: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let dir = server.data_dir.path().to_owned();
    let org = init_org(&dir, "Durand", "claire@durand.fr");
    let other = init_org(&dir, "Martin", "paul@martin.fr");
    let second = cli_json(
        &dir,
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
            "--agency",
            &second_agency,
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
    let a = &org.agency_id;
    insert_client(
        &server,
        a,
        &Client {
            email: Some("contact@syndic-dupont.fr"),
            telephone: Some("01 42 00 00 01"),
            siren: Some("732829320"),
            siret: Some("73282932000074"),
            ..Client::named("CLI-000001", "Syndic Dupont")
        },
    )
    .await;
    insert_client(
        &server,
        a,
        &Client {
            statut: "Prospect",
            email: Some("gestion@etoile-habitat.fr"),
            ..Client::named("CLI-000002", "Résidence L'Étoile")
        },
    )
    .await;
    insert_client(
        &server,
        a,
        &Client {
            archived: true,
            ..Client::named("CLI-000003", "Ancien syndic Zéphyr")
        },
    )
    .await;
    insert_client(
        &server,
        a,
        &Client::named("CLI-000004", "Bailleur Œuvre Sociale"),
    )
    .await;
    insert_client(&server, a, &Client::named("Réf 5/B", "école Jules Ferry")).await;
    // Same names elsewhere: never listed from the first agency.
    insert_client(
        &server,
        &other.agency_id,
        &Client {
            siren: Some("732829320"),
            ..Client::named("CLI-000001", "Syndic Dupont")
        },
    )
    .await;
    insert_client(
        &server,
        &second_agency,
        &Client::named("CLI-900001", "Syndic Dupont Sud"),
    )
    .await;
    World {
        server,
        org,
        other,
        member_token: str_of(&member, "token").to_owned(),
        second_agency,
    }
}

async fn list(w: &World, query: &str) -> (u16, Value) {
    w.server
        .get_with(
            &format!("/api/v2/clients{query}"),
            Some(&w.org.admin_token),
            None,
        )
        .await
}

fn ids(page: &Value) -> Vec<&str> {
    page["results"]
        .as_array()
        .unwrap_or_else(|| panic!("results in {page}"))
        .iter()
        .map(|r| str_of(r, "id"))
        .collect()
}

#[tokio::test]
async fn the_client_list_is_paged_in_french_order_with_its_exact_rows() {
    let w = world().await;
    let (status, page) = list(&w, "").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(keys(&page), ["limit", "page", "results", "total"]);
    assert_eq!(page["total"], json!(5));
    assert_eq!(page["page"], json!(1));
    assert_eq!(page["limit"], json!(50));
    // French order of names: accents, ligatures and case ignored.
    assert_eq!(
        ids(&page),
        [
            "CLI-000003", // Ancien syndic Zéphyr
            "CLI-000004", // Bailleur Œuvre Sociale
            "Réf 5/B",    // école Jules Ferry
            "CLI-000002", // Résidence L'Étoile
            "CLI-000001", // Syndic Dupont
        ]
    );
    let base = &w.server.base_url;
    assert_eq!(
        page["results"][4],
        json!({
            "id": "CLI-000001",
            "name": "Syndic Dupont",
            "status": "Client",
            "siren": "732829320",
            "email": "contact@syndic-dupont.fr",
            "phone": "01 42 00 00 01",
            "fullAddress": null,
            "archived": false,
            "link": "/clients/CLI-000001",
            "url": format!("{base}/clients/CLI-000001"),
        })
    );
    // Absent values are null, never missing; archived clients are listed.
    assert_eq!(
        page["results"][0],
        json!({
            "id": "CLI-000003",
            "name": "Ancien syndic Zéphyr",
            "status": "Client",
            "siren": null,
            "email": null,
            "phone": null,
            "fullAddress": null,
            "archived": true,
            "link": "/clients/CLI-000003",
            "url": format!("{base}/clients/CLI-000003"),
        })
    );
    assert_eq!(page["results"][3]["status"], json!("Prospect"));
    // An identifier that is not URL-safe is one encoded path segment.
    assert_eq!(
        page["results"][2]["link"],
        json!("/clients/R%C3%A9f%205%2FB")
    );

    // Pages.
    let (status, second) = list(&w, "?limit=2&page=2").await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["total"], json!(5));
    assert_eq!(second["page"], json!(2));
    assert_eq!(second["limit"], json!(2));
    assert_eq!(ids(&second), ["Réf 5/B", "CLI-000002"]);
    let (status, last) = list(&w, "?limit=2&page=3").await;
    assert_eq!((status, ids(&last)), (200, vec!["CLI-000001"]));
    let (status, beyond) = list(&w, "?limit=2&page=9").await;
    assert_eq!(status, 200);
    assert_eq!(beyond["total"], json!(5));
    assert_eq!(beyond["results"], json!([]));
    w.server.stop().await;
}

#[tokio::test]
async fn the_search_ignores_accents_and_case_and_looks_at_name_email_ids_and_siren() {
    let w = world().await;
    for (q, expected) in [
        // Every word, in any order, accents and case ignored.
        ("dupont%20SYNDIC", vec!["CLI-000001"]),
        ("syndic", vec!["CLI-000003", "CLI-000001"]),
        ("zephyr", vec!["CLI-000003"]),
        ("%C3%A9toile", vec!["CLI-000002"]), // « étoile »
        ("ETOILE", vec!["CLI-000002"]),
        ("oeuvre", vec!["CLI-000004"]),
        ("%C5%93uvre", vec!["CLI-000004"]), // « œuvre »
        ("ECOLE", vec!["Réf 5/B"]),
        // E-mail, identifier, SIREN (also as typed with spaces), SIRET.
        ("etoile-habitat", vec!["CLI-000002"]),
        ("@syndic-dupont.fr", vec!["CLI-000001"]),
        ("cli-000004", vec!["CLI-000004"]),
        ("732829320", vec!["CLI-000001"]),
        ("732%20829%20320", vec!["CLI-000001"]),
        ("73282932000074", vec!["CLI-000001"]),
        // A blank search is no search; a term found nowhere: an empty page.
        (
            "%20%20",
            vec![
                "CLI-000003",
                "CLI-000004",
                "Réf 5/B",
                "CLI-000002",
                "CLI-000001",
            ],
        ),
        ("introuvable", vec![]),
        // LIKE wildcards are plain characters.
        ("%25", vec![]),
        ("_", vec![]),
    ] {
        let (status, page) = list(&w, &format!("?q={q}")).await;
        assert_eq!(status, 200, "{q}: {page}");
        assert_eq!(ids(&page), expected, "q={q}");
        assert_eq!(page["total"], json!(expected.len()), "q={q}");
    }
    w.server.stop().await;
}

#[tokio::test]
async fn paging_and_search_refusals() {
    let w = world().await;
    for (query, status, message) in [
        (
            "?limit=abc",
            400,
            "Le paramètre « limit » doit être un nombre entier.",
        ),
        (
            "?limit=1.5",
            400,
            "Le paramètre « limit » doit être un nombre entier.",
        ),
        (
            "?page=x",
            400,
            "Le paramètre « page » doit être un nombre entier.",
        ),
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
            "?page=-3",
            422,
            "Le paramètre « page » doit être supérieur ou égal à 1.",
        ),
    ] {
        let (code, body) = list(&w, query).await;
        assert_eq!(
            (code, body),
            (status, json!({ "error": message })),
            "{query}"
        );
    }
    let long = "a".repeat(101);
    let (code, body) = list(&w, &format!("?q={long}")).await;
    assert_eq!(
        (code, body),
        (
            400,
            json!({ "error": "Le paramètre « q » ne doit pas dépasser 100 caractères." })
        )
    );
    let (code, _) = list(&w, &format!("?q={}", "a".repeat(100))).await;
    assert_eq!(code, 200);
    let (code, _) = w.server.get_with("/api/v2/clients", None, None).await;
    assert_eq!(code, 401);
    w.server.stop().await;
}

#[tokio::test]
async fn another_agencys_clients_are_never_listed() {
    let w = world().await;
    // The other organization sees its own client only.
    let (status, page) = w
        .server
        .get_with("/api/v2/clients?q=dupont", Some(&w.other.admin_token), None)
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(ids(&page), ["CLI-000001"]);
    assert_eq!(page["results"][0]["email"], Value::Null);
    assert_eq!(page["total"], json!(1));

    // From the first agency, the same names elsewhere are not there.
    let (_, page) = list(&w, "?q=dupont").await;
    assert_eq!(ids(&page), ["CLI-000001"]);
    assert_eq!(
        page["results"][0]["email"],
        json!("contact@syndic-dupont.fr")
    );

    // A member of two agencies: each agency lists its own clients.
    let (status, page) = w
        .server
        .get_with(
            "/api/v2/clients?q=dupont",
            Some(&w.member_token),
            Some(&w.second_agency),
        )
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(ids(&page), ["CLI-900001"]);
    let (_, page) = w
        .server
        .get_with("/api/v2/clients", Some(&w.member_token), None)
        .await;
    assert_eq!(page["total"], json!(5));
    assert!(!ids(&page).contains(&"CLI-900001"));

    // Another organization's agency is outside the scope: 403.
    let (status, body) = w
        .server
        .get_with(
            "/api/v2/clients",
            Some(&w.org.admin_token),
            Some(&w.other.agency_id),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    w.server.stop().await;
}

#[tokio::test]
async fn a_listed_id_finds_the_clients_invoices() {
    let w = world().await;
    let invoice = Fixtures::in_agency(&w.server, &w.org.agency_id)
        .invoice_on(
            chrono::NaiveDate::from_ymd_opt(2026, 3, 2).expect("day"),
            "CLI-000001",
            liftdesk::domain::invoice::InvoiceStatus::Brouillon,
            vec![Fixtures::line("Maintenance", 1.0, 100.0, None)],
        )
        .await;
    let (_, clients) = list(&w, "?q=syndic%20dupont").await;
    let id = str_of(&clients["results"][0], "id").to_owned();
    let (status, invoices) = w
        .server
        .get_with(
            &format!("/api/v2/invoices?client={id}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{invoices}");
    assert_eq!(invoices["total"], json!(1));
    assert_eq!(invoices["results"][0]["id"], json!(invoice));
    assert_eq!(invoices["results"][0]["client"], json!(id));
    w.server.stop().await;
}

#[tokio::test]
async fn the_openapi_description_documents_the_client_list() {
    let server = TestServer::start().await;
    let (status, doc) = server.get_with("/api/v2/openapi.json", None, None).await;
    assert_eq!(status, 200);
    let operation = &doc["paths"]["/clients"]["get"];
    assert_eq!(operation["tags"], json!(["Clients"]));
    let mut codes: Vec<&str> = operation["responses"]
        .as_object()
        .expect("responses")
        .keys()
        .map(String::as_str)
        .collect();
    codes.sort_unstable();
    assert_eq!(codes, ["200", "400", "401", "403", "422", "429"]);
    let names: Vec<&str> = operation["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .map(|p| p["name"].as_str().expect("name"))
        .collect();
    for name in ["q", "limit", "page", "X-Service-Agency"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let row = &doc["components"]["schemas"]["ClientListEntry"];
    let mut required: Vec<&str> = row["required"]
        .as_array()
        .expect("required")
        .iter()
        .map(|v| v.as_str().expect("name"))
        .collect();
    required.sort_unstable();
    assert_eq!(
        required,
        [
            "archived",
            "email",
            "fullAddress",
            "id",
            "link",
            "name",
            "phone",
            "siren",
            "status",
            "url"
        ]
    );
    server.stop().await;
}
