//! Lists exported to CSV and XLSX (`POST /app/api/exports`,
//! `services::exports`, `liftdesk_core::exports`): the file holds what the
//! list shows with its filters (the list's own query string), CSV as French
//! Excel opens it (BOM, `;`, `1234,56`, `28/11/2026`), XLSX read back with
//! calamine (numbers and dates as such); progress followed to the end; the
//! accountant's export of a period (HT per VAT rate, credit notes negative);
//! bad inputs refused in French; another person's export not found.

use crate::common;

use calamine::{Data, Reader, Xlsx};
use common::app::StaffClient;
use common::*;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

/// Starts an export and follows it until it is ready; its file's bytes.
async fn export(client: &StaffClient, body: Value) -> (Value, Vec<u8>) {
    let (status, job) = client.post("/exports", body.clone()).await;
    assert_eq!(status, 202, "{body} → {job}");
    assert!(job["total"].is_i64(), "{job}");
    let id = str_of(&job, "id").to_owned();
    let mut last = job;
    for _ in 0..200 {
        if last["status"] != "en_cours" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        let (status, view) = client.get(&format!("/exports/{id}")).await;
        assert_eq!(status, 200, "{view}");
        last = view;
    }
    assert_eq!(last["status"], "pret", "{last}");
    assert_eq!(last["done"], last["total"]);
    let response = client
        .http
        .get(format!("{}/app/api/exports/{id}/file", client.base))
        .send()
        .await
        .expect("file");
    assert_eq!(response.status(), 200);
    let disposition = response
        .headers()
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"")
            && disposition.contains(last["fileName"].as_str().expect("name")),
        "{disposition}"
    );
    (last, response.bytes().await.expect("bytes").to_vec())
}

fn csv_lines(bytes: &[u8]) -> Vec<String> {
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "BOM");
    String::from_utf8(bytes[3..].to_vec())
        .expect("utf-8")
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

fn sheet(bytes: Vec<u8>, name: &str) -> calamine::Range<Data> {
    let mut book = Xlsx::new(std::io::Cursor::new(bytes)).expect("workbook");
    book.worksheet_range(name).expect("sheet")
}

#[tokio::test]
async fn lists_leave_as_french_csv_and_real_xlsx_with_their_filters() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let admin = StaffClient::sign_in(&server, "claire@durand.fr", PASSWORD).await;
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "paul@martin.fr", PASSWORD).await;

    for (id, name) in [
        ("CLI-1", "Syndic « Dupont »; et fils"),
        ("CLI-2", "Résidence des Lilas"),
    ] {
        let (status, body) = admin
            .post(
                "/clients",
                json!({ "id": id, "name": name, "siren": "732829320" }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let mut lifts = Vec::new();
    for (number, kind, client) in [
        ("ASC-1", "ascenseur", "CLI-1"),
        ("ASC-2", "ascenseur", "CLI-2"),
        ("MC-1", "monte_charge", "CLI-1"),
    ] {
        let (status, body) = admin
            .post(
                "/equipment",
                json!({ "number": number, "type": kind, "clientId": client }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        lifts.push(str_of(&body, "id").to_owned());
    }

    // The park, filtered as the screen filters it: CSV for French Excel.
    let (job, bytes) = export(
        &staff,
        json!({ "list": "equipment", "format": "csv", "query": "type=ascenseur&archived=active" }),
    )
    .await;
    assert_eq!(job["total"], 2);
    assert!(job["fileName"].as_str().expect("name").starts_with("parc-"));
    let lines = csv_lines(&bytes);
    assert_eq!(
        lines[0],
        "Numéro;Type;Emplacement;Immeuble;Adresse;Code postal;Ville;Client;Contrat;Connaissance (%);Archivé le"
    );
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[1].starts_with("ASC-1;Ascenseur;"), "{}", lines[1]);
    assert!(
        lines[1].contains(";\"Syndic « Dupont »; et fils\";"),
        "{}",
        lines[1]
    );
    assert!(lines.iter().all(|l| !l.starts_with("MC-1")));

    // Invoices: two rates, one credit note; the list's filter applies.
    let year = liftdesk::clock::paris_today().format("%Y").to_string();
    let lines = json!([
        { "label": "Maintenance du trimestre", "quantity": 1, "unitPrice": 450 },
        { "label": "Main-d'œuvre", "quantity": 1.5, "unitPrice": 50, "vatRate": 10 }
    ]);
    let (status, body) = admin
        .post("/invoices", json!({ "clientId": "CLI-1", "lines": lines }))
        .await;
    assert_eq!(status, 201, "{body}");
    let invoice = str_of(&body, "id").to_owned();
    assert_eq!(
        admin
            .post(&format!("/invoices/{invoice}/issue"), json!({}))
            .await
            .0,
        201
    );
    let (status, body) = admin
        .post(
            &format!("/invoices/{invoice}/credit-notes"),
            json!({ "lines": [{ "label": "Geste commercial", "quantity": 1, "unitPrice": 100 }] }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = admin
        .post(
            "/invoices",
            json!({ "clientId": "CLI-2", "lines": [{ "label": "Dépannage", "quantity": 1, "unitPrice": 80 }] }),
        )
        .await;
    assert_eq!(status, 201, "{body}");

    let (job, bytes) = export(
        &staff,
        json!({ "list": "invoices", "format": "xlsx", "query": "client=CLI-1" }),
    )
    .await;
    assert_eq!(job["total"], 2);
    let range = sheet(bytes, "Factures et avoirs");
    assert_eq!(range.get((0, 0)), Some(&Data::String("Numéro".into())));
    assert_eq!(range.height(), 3);
    let rows: Vec<Vec<Data>> = range.rows().skip(1).map(<[Data]>::to_vec).collect();
    let facture = rows
        .iter()
        .find(|r| r[1] == Data::String("Facture".into()))
        .expect("invoice row");
    assert_eq!(facture[0], Data::String(format!("FA-{year}-000001")));
    assert_eq!(facture[2], Data::String("Émise".into()));
    // 450 + 75 HT; 90 + 7.50 VAT.
    assert_eq!(facture[8], Data::Float(525.0));
    assert_eq!(facture[9], Data::Float(622.5));
    assert!(matches!(facture[5], Data::DateTime(_)), "{:?}", facture[5]);
    let avoir = rows
        .iter()
        .find(|r| r[1] == Data::String("Avoir".into()))
        .expect("credit note row");
    assert_eq!(avoir[0], Data::String(format!("AV-{year}-000001")));

    // The accountant's export of the period: HT per rate, credit notes
    // negative, the draft left out.
    let today = liftdesk::clock::paris_today();
    let (job, bytes) = export(
        &admin,
        json!({ "list": "accounting", "format": "csv", "query": format!("from={today}&to={today}") }),
    )
    .await;
    assert_eq!(job["total"], 2);
    let lines = csv_lines(&bytes);
    assert_eq!(
        lines[0],
        "Date;Numéro;Nature;Client;SIREN;HT 20 %;HT 10 %;Total HT;TVA;Total TTC;Statut;Date de règlement"
    );
    let day = today.format("%d/%m/%Y");
    // By day, then number.
    assert_eq!(
        lines[2],
        format!(
            "{day};FA-{year}-000001;Facture;\"Syndic « Dupont »; et fils\";732829320;450,00;75,00;525,00;97,50;622,50;Émise;"
        )
    );
    assert_eq!(
        lines[1],
        format!(
            "{day};AV-{year}-000001;Avoir;\"Syndic « Dupont »; et fils\";732829320;-100,00;;-100,00;-20,00;-120,00;Émis;"
        )
    );
    assert_eq!(lines.len(), 3);

    // The e-invoices of the period, for the agency's platform: each issued
    // document's Factur-X PDF and its XML, in a zip; the progress counts
    // documents.
    let (job, bytes) = export(
        &admin,
        json!({ "list": "facturx", "format": "zip", "query": format!("from={today}&to={today}") }),
    )
    .await;
    assert_eq!((&job["total"], &job["done"]), (&json!(2), &json!(2)));
    assert_eq!(
        job["fileName"],
        format!("factures-electroniques-{today}-au-{today}.zip")
    );
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("zip");
    let mut names: Vec<String> = archive
        .file_names()
        .map(|name| name.expect("name").into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            format!("AV-{year}-000001.pdf"),
            format!("FA-{year}-000001.pdf"),
            format!("xml/AV-{year}-000001.xml"),
            format!("xml/FA-{year}-000001.xml"),
        ]
    );
    let mut xml = String::new();
    std::io::Read::read_to_string(
        &mut archive
            .by_name(&format!("xml/FA-{year}-000001.xml"))
            .expect("xml"),
        &mut xml,
    )
    .expect("read");
    assert!(
        xml.contains("<ram:GrandTotalAmount>622.50</ram:GrandTotalAmount>"),
        "{xml}"
    );
    let mut pdf = Vec::new();
    std::io::Read::read_to_end(
        &mut archive
            .by_name(&format!("FA-{year}-000001.pdf"))
            .expect("pdf"),
        &mut pdf,
    )
    .expect("read");
    assert!(String::from_utf8_lossy(&pdf).contains("factur-x.xml"));

    // Visits of the week, and the technicians. Visits are planned on
    // Paris days (invoices are dated by the UTC day: both differ from 23:00
    // or 22:00 UTC to midnight).
    let paris_day = liftdesk::clock::paris_today();
    let (status, body) = staff
        .post(
            "/visits",
            json!({ "equipmentId": lifts[0], "plannedFor": paris_day.to_string() }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (job, bytes) = export(
        &staff,
        json!({ "list": "visits", "format": "xlsx", "query": format!("from={paris_day}&to={paris_day}") }),
    )
    .await;
    assert_eq!(job["total"], 1);
    let range = sheet(bytes, "Visites");
    assert_eq!(range.get((1, 2)), Some(&Data::String("Planifiée".into())));
    assert_eq!(range.get((1, 3)), Some(&Data::String("ASC-1".into())));
    assert_eq!(
        range.get((1, 6)),
        Some(&Data::String("Syndic « Dupont »; et fils".into()))
    );
    let (job, bytes) = export(&staff, json!({ "list": "technicians", "format": "csv" })).await;
    assert_eq!(job["list"], "technicians");
    assert_eq!(
        csv_lines(&bytes)[0],
        "Nom;Secteurs;Appels en cours;D'astreinte;Absent jusqu'au;Indisponible jusqu'à"
    );

    // Bad inputs, in French; nothing started.
    for (body, status, error) in [
        (
            json!({ "list": "contrats", "format": "csv" }),
            422,
            "Champ « list » : « contrats » inconnue ; attendu : equipment, clients, calls, quotes, invoices, technicians, visits, accounting ou facturx.",
        ),
        (
            json!({ "list": "equipment", "format": "pdf" }),
            422,
            "Champ « format » : « pdf » inconnu ; attendu : csv, xlsx ou zip.",
        ),
        (
            json!({ "list": "equipment", "format": "zip" }),
            422,
            "Champ « format » : une liste s'exporte en csv ou xlsx ; le zip est pour les factures électroniques.",
        ),
        (
            json!({ "list": "facturx", "format": "xlsx", "query": format!("from={today}&to={today}") }),
            422,
            "Champ « format » : les factures électroniques s'exportent en zip.",
        ),
        (
            json!({ "list": "accounting", "format": "csv", "query": format!("from={today}") }),
            422,
            "Le paramètre « to » (AAAA-MM-JJ) est requis.",
        ),
        (
            json!({ "list": "visits", "format": "csv", "query": "from=2026-03-01&to=2026-02-01" }),
            422,
            "La période est inversée : « from » doit précéder ou égaler « to ».",
        ),
    ] {
        assert_eq!(
            staff.post("/exports", body.clone()).await,
            (status, json!({ "error": error })),
            "{body}"
        );
    }
    // The list's own refusal of a bad filter.
    let (status, body) = staff
        .post(
            "/exports",
            json!({ "list": "invoices", "format": "csv", "query": "status=perdue" }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = staff
        .post(
            "/exports",
            json!({ "list": "equipment", "format": "csv", "query": "couleur=rouge" }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .expect("error")
            .starts_with("Champ « query » : paramètres de la liste illisibles"),
        "{body}"
    );

    // Someone else's export: not found, even in the same agency.
    let (status, job) = staff
        .post("/exports", json!({ "list": "clients", "format": "csv" }))
        .await;
    assert_eq!(status, 202, "{job}");
    let id = str_of(&job, "id");
    let not_found = json!({ "error": "Export introuvable." });
    assert_eq!(
        admin.get(&format!("/exports/{id}")).await,
        (404, not_found.clone())
    );
    assert_eq!(
        other.get(&format!("/exports/{id}/file")).await,
        (404, not_found)
    );
    // Another organization's export of its own list holds none of ours.
    let (_, bytes) = export(&other, json!({ "list": "clients", "format": "csv" })).await;
    assert_eq!(csv_lines(&bytes).len(), 1);
    server.stop().await;
}
