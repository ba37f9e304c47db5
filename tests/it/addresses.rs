//! Postal addresses in parts (issue 22, point 2): a client's street line,
//! complement, postal code and city, from the partner API (a whole address
//! split), the Clients screen (the parts given), and the client import
//! (« Code postal » and « Ville » columns); a French postal code is five
//! digits; a client created without an identifier gets the next `CLI-…`;
//! invoices print the whole address.

use crate::common;
use crate::wf;

use base64::Engine as _;
use common::app::StaffClient;
use common::*;
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};

type Parts = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn parts_of(server: &TestServer, client_ref: &str) -> Parts {
    open_db(server.data_dir.path())
        .query_row(
            "SELECT adresse, complement_adresse, code_postal, ville FROM clients WHERE client_ref = ?1",
            [client_ref],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("client")
}

fn some(parts: [Option<&str>; 4]) -> Parts {
    let [a, b, c, d] = parts.map(|p| p.map(str::to_owned));
    (a, b, c, d)
}

#[tokio::test]
async fn a_partner_address_is_stored_in_parts_and_read_back_whole() {
    let s = wf::setup().await;
    let update = |body: Value| {
        let mut body = body;
        body["agency_id"] = json!(s.agency);
        body
    };
    let (status, _) = wf::post(
        &s.server,
        &s.key,
        "/update_client",
        &update(json!({
            "client_id": "CLI-42",
            "nom": "Syndic Étoile",
            "adresse": "3 avenue Foch, 75016 Paris",
            "complement_adresse": "CS 123",
        })),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        parts_of(&s.server, "CLI-42"),
        some([
            Some("3 avenue Foch"),
            Some("CS 123"),
            Some("75016"),
            Some("Paris")
        ])
    );
    let read = |body: Value| {
        let (server, key) = (&s.server, &s.key);
        let body = update(body);
        async move { wf::success(wf::post(server, key, "/get_client", &body).await) }
    };
    let records = read(json!({ "client_id": "CLI-42" })).await;
    assert_eq!(records[0]["adresse"], json!("3 avenue Foch, 75016 Paris"));
    assert_eq!(records[0]["complement_adresse"], json!("CS 123"));

    // An address that does not split replaces the three parts.
    wf::success(
        wf::post(
            &s.server,
            &s.key,
            "/update_client",
            &update(json!({ "client_id": "CLI-42", "adresse": "Place Bellecour Lyon" })),
        )
        .await,
    );
    assert_eq!(
        parts_of(&s.server, "CLI-42"),
        some([Some("Place Bellecour Lyon"), Some("CS 123"), None, None])
    );
    assert_eq!(
        read(json!({ "client_id": "CLI-42" })).await[0]["adresse"],
        json!("Place Bellecour Lyon")
    );

    // Created by its name only: the next CLI number, not a technical id.
    wf::success(
        wf::post(
            &s.server,
            &s.key,
            "/update_client",
            &update(json!({ "nom": "Syndic Chardon", "adresse": "4 rue Chardon 69003 Lyon" })),
        )
        .await,
    );
    let records = read(json!({ "nom": "Chardon" })).await;
    assert_eq!(records[0]["client_id"], json!("CLI-000043"));
    assert_eq!(records[0]["adresse"], json!("4 rue Chardon, 69003 Lyon"));
    s.server.stop().await;
}

#[tokio::test]
async fn the_clients_screen_takes_the_parts_and_invoices_print_the_whole_address() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", "motdepasse-solide").await;
    let body = json!({
        "name": "Syndic Dupont",
        "address": "12 rue de la Paix",
        "addressComplement": "Bâtiment B",
        "postalCode": "7500",
        "city": "Paris",
    });
    let (status, answer) = staff.post("/clients", body.clone()).await;
    assert_eq!(
        (status, answer),
        (
            422,
            json!({ "error": "Le champ « Code postal » doit être un code postal français de cinq chiffres : « 7500 » n'en est pas un." })
        )
    );
    let count: i64 = open_db(server.data_dir.path())
        .query_row("SELECT COUNT(*) FROM clients", [], |r| r.get(0))
        .expect("count");
    assert_eq!(count, 0);
    let mut good = body;
    good["postalCode"] = json!(" 75 002 ");
    let (status, created) = staff.post("/clients", good).await;
    assert_eq!(status, 201, "{created}");
    let client = &created["client"];
    assert_eq!(client["id"], json!("CLI-000001"));
    assert_eq!(
        [
            &client["address"],
            &client["addressComplement"],
            &client["postalCode"],
            &client["city"],
            &client["fullAddress"]
        ],
        [
            &json!("12 rue de la Paix"),
            &json!("Bâtiment B"),
            &json!("75002"),
            &json!("Paris"),
            &json!("12 rue de la Paix, Bâtiment B, 75002 Paris")
        ]
    );
    // Only the city changes.
    let (status, changed) = staff
        .patch("/clients/CLI-000001", json!({ "city": "Paris 2e" }))
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(
        parts_of(&server, "CLI-000001"),
        some([
            Some("12 rue de la Paix"),
            Some("Bâtiment B"),
            Some("75002"),
            Some("Paris 2e")
        ])
    );

    // The invoice's buyer: the whole address, in the postal order.
    let (status, invoice) = staff
        .post(
            "/invoices",
            json!({ "clientId": "CLI-000001", "lines": [{ "label": "Visite", "quantity": 1, "unitPrice": 100 }] }),
        )
        .await;
    assert_eq!(status, 201, "{invoice}");
    let id = str_of(&invoice, "id").to_owned();
    let (_, read) = staff.get(&format!("/invoices/{id}")).await;
    assert_eq!(
        read["invoice"]["buyerAddress"],
        json!("12 rue de la Paix, Bâtiment B, 75002 Paris 2e")
    );
    server.stop().await;
}

/// The clients a user imported had lost their postal code and city, and got
/// a UUID for an identifier.
#[tokio::test]
async fn a_client_import_maps_postal_code_and_city_and_refuses_a_bad_code() {
    let server = TestServer::start().await;
    init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let admin = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    let rows = [
        ["Nom", "Adresse", "Code postal", "Ville"],
        ["Syndic Chardon", "4 rue Chardon", "69003", "Lyon"],
        ["Syndic Faux", "1 rue du Faux", "6900", "Lyon"],
        ["Syndic Ligne", "8 quai Perrache, 69002 Lyon", "", ""],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, text) in row.iter().enumerate() {
            if !text.is_empty() {
                sheet.write_string(r as u32, c as u16, *text).expect("cell");
            }
        }
    }
    let bytes = workbook.save_to_buffer().expect("xlsx");
    let (status, file) = admin
        .post(
            "/imports/files",
            json!({ "name": "clients.xlsx", "content": base64::engine::general_purpose::STANDARD.encode(&bytes) }),
        )
        .await;
    assert_eq!(status, 201, "{file}");
    let file_id = str_of(&file, "fileId").to_owned();
    let (_, view) = admin.get(&format!("/imports/{file_id}")).await;
    let clients = view["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .find(|t| t["target"] == json!("clients"))
        .expect("clients target")
        .clone();
    assert_eq!(
        clients["suggestedMapping"],
        json!({ "Nom": "nom", "Adresse": "adresse", "Code postal": "code_postal", "Ville": "ville" })
    );
    let (status, report) = admin
        .post(
            &format!("/imports/{file_id}/import"),
            json!({ "target": "clients", "mapping": clients["suggestedMapping"] }),
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        (&report["created"], &report["refused"]),
        (&json!(2), &json!(1))
    );
    let refused = report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["action"] == json!("refus"))
        .expect("refused row")
        .clone();
    assert_eq!(refused["row"], json!(3));
    let reason = refused["reasons"][0].as_str().expect("reason");
    // Named by its column, as the other cells' refusals are.
    assert_eq!(
        reason,
        "Colonne « Code postal » (C) : Le champ « Code postal » doit être un code postal français de cinq chiffres : « 6900 » n'en est pas un."
    );
    let db = open_db(server.data_dir.path());
    let stored: Vec<(String, String, Parts)> = db
        .prepare(
            "SELECT client_ref, nom, adresse, code_postal, ville FROM clients ORDER BY client_ref",
        )
        .expect("prepare")
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                (r.get(2)?, None, r.get(3)?, r.get(4)?),
            ))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        stored,
        [
            (
                "CLI-000001".to_owned(),
                "Syndic Chardon".to_owned(),
                some([Some("4 rue Chardon"), None, Some("69003"), Some("Lyon")])
            ),
            (
                "CLI-000002".to_owned(),
                "Syndic Ligne".to_owned(),
                some([Some("8 quai Perrache"), None, Some("69002"), Some("Lyon")])
            ),
        ]
    );
    server.stop().await;
}
