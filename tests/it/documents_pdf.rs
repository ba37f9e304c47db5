//! The PDF documents of quotes, invoices and credit notes, over HTTP (REST
//! API v2 and the web application's API): the answer's headers, then the
//! text `pdftotext -layout` extracts — the legal mentions of a French
//! invoice, numbers, amounts, VAT per rate, accents, pagination.

use crate::common;

use chrono::{Datelike, Duration};
use common::app::StaffClient;
use common::world::World as Fixtures;
use common::*;
use liftdesk::clock;
use liftdesk::domain::identity::IdentityInput;
use liftdesk::services::clients::ClientInput;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";
const CLIENT: &str = "CLI-000042";
const SELLER_SIRET: &str = "55210055400013";

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    equipment: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(
        server.data_dir.path(),
        "Durand Ascenseurs",
        "claire@durand.fr",
    );
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let ours = Fixtures::in_agency(&server, &org.agency_id);
    ours.seller_identity(IdentityInput {
        legal_form: Some("SAS".to_owned()),
        share_capital: Some(50_000.0),
        rcs_city: Some("Lyon".to_owned()),
        siret: Some(SELLER_SIRET.to_owned()),
        vat_number: Some("FR96552100554".to_owned()),
        address: Some("3 quai Saint-Étienne, 69005 Lyon".to_owned()),
        iban: Some("FR76 3000 6000 0112 3456 7890 189".to_owned()),
        bic: Some("BNPAFRPP".to_owned()),
        insurer: Some("SMABTP, 8 rue Louis-Armand, 75015 Paris".to_owned()),
        insurance_policy: Some("123456/RC".to_owned()),
        insurance_area: Some("France métropolitaine".to_owned()),
        ..IdentityInput::default()
    })
    .await;
    ours.client(ClientInput {
        client_id: Some(CLIENT.to_owned()),
        nom: Some("Syndic Dupont & Fils".to_owned()),
        adresse: Some(Some("12 rue de la Paix, 75002 Paris".to_owned())),
        complement_adresse: Some(Some("Bâtiment B".to_owned())),
        siren: Some(Some("732829320".to_owned())),
        ..ClientInput::default()
    })
    .await;
    let equipment = ours
        .equipment_with(NewEquipment {
            identity: IdentityRow {
                number: Some("ASC 7".to_owned()),
                ..IdentityRow::default()
            },
            building_id: None,
            client_ref: Some(CLIENT.to_owned()),
        })
        .await;
    World {
        server,
        org,
        other,
        equipment,
    }
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

fn lines() -> Value {
    json!([
        { "label": "Maintenance du 1er trimestre", "quantity": 1, "unitPrice": 450 },
        { "label": "Remplacement du bouton palier", "quantity": 2, "unitPrice": 37.5, "vatRate": 10 },
        { "label": "Modernisation de la cabine (décoration, éclairage)", "quantity": 1, "unitPrice": 12345.67 }
    ])
}

async fn draft(w: &World, lines: Value) -> String {
    let (status, body) = post(
        &w.server,
        "/api/v2/invoices",
        &w.org.admin_token,
        Some(json!({ "clientId": CLIENT, "lines": lines })),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    str_of(&body, "id").to_owned()
}

async fn issue(w: &World, id: &str) {
    let (status, body) = post(
        &w.server,
        &format!("/api/v2/invoices/{id}/issue"),
        &w.org.admin_token,
        None,
    )
    .await;
    assert_eq!(status, 201, "{body}");
}

/// A PDF answer: its headers checked, its text extracted.
struct Pdf {
    file_name: String,
    text: String,
    pages: usize,
}

async fn fetch(response: reqwest::Response) -> Pdf {
    assert_eq!(response.status().as_u16(), 200);
    let headers = response.headers().clone();
    assert_eq!(
        headers.get("content-type").and_then(|v| v.to_str().ok()),
        Some("application/pdf")
    );
    let disposition = headers
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .expect("content-disposition")
        .to_owned();
    let file_name = disposition
        .strip_prefix("inline; filename=\"")
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or_else(|| panic!("disposition {disposition}"))
        .to_owned();
    let bytes = response.bytes().await.expect("body");
    assert!(bytes.starts_with(b"%PDF-"), "not a PDF");
    // Kept for a look when the CI gives an artifacts directory.
    if let Some(dir) = std::env::var_os("LIFTDESK_ARTIFACTS") {
        let dir = std::path::Path::new(&dir).join("pdf");
        std::fs::create_dir_all(&dir).expect("artifacts dir");
        std::fs::write(dir.join(&file_name), &bytes).expect("artifact");
    }
    let text = pdftotext(&bytes);
    // pdftotext ends every page with a form feed.
    let pages = text.matches('\u{c}').count();
    Pdf {
        file_name,
        text,
        pages,
    }
}

async fn v2_pdf(w: &World, token: &str, path: &str) -> reqwest::Response {
    w.server
        .client
        .get(w.server.url(path))
        .header("Authorization", format!("Bearer {token}"))
        .send()
        .await
        .expect("request")
}

/// Each expected piece of text is on one line of the extracted text (the
/// layout keeps a line's words together; runs of spaces are columns).
fn assert_has(text: &str, expected: &[&str]) {
    let squeezed: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for piece in expected {
        assert!(
            squeezed.iter().any(|line| line.contains(piece)),
            "« {piece} » missing from:\n{text}"
        );
    }
}

/// The issue day (the Paris day, as the number's year: docs/api-v2).
fn today() -> chrono::NaiveDate {
    liftdesk::clock::paris_today()
}

fn french_day(day: chrono::NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

#[tokio::test]
async fn an_issued_invoice_carries_the_legal_mentions_of_a_french_invoice() {
    let w = world().await;
    let id = draft(&w, lines()).await;
    issue(&w, &id).await;
    let year = today().year();
    let number = format!("FA-{year}-000001");
    let pdf = fetch(
        v2_pdf(
            &w,
            &w.org.admin_token,
            &format!("/api/v2/invoices/{id}/pdf"),
        )
        .await,
    )
    .await;
    assert_eq!(pdf.file_name, format!("{number}.pdf"));
    assert_eq!(pdf.pages, 1);
    let issued = today();
    let due = issued + Duration::days(30);
    assert_has(
        &pdf.text,
        &[
            // Title and number, dates.
            "Facture",
            &format!("N° {number}"),
            &format!("Date d'émission : {}", french_day(issued)),
            &format!("Date d'échéance : {}", french_day(due)),
            // Seller: organization, legal form and capital, agency,
            // address, SIRET, RCS, VAT number.
            "Durand Ascenseurs",
            "SAS au capital de 50 000 €",
            "Agence : Durand Ascenseurs Centre",
            // The address in its parts, street then town.
            "3 quai Saint-Étienne",
            "69005 Lyon",
            "SIRET : 552 100 554 00013",
            "RCS Lyon 552 100 554",
            "TVA intracommunautaire : FR 96 552 100 554",
            // Buyer, frozen at the issue.
            "CLIENT",
            "Syndic Dupont & Fils",
            "12 rue de la Paix, Bâtiment B, 75002 Paris",
            "SIREN : 732 829 320",
            // Lines: label, quantity, unit price, rate, total excl. tax.
            "Désignation",
            "Qté",
            "PU HT",
            "Total HT",
            "Maintenance du 1er trimestre 1 450,00 € 20 % 450,00 €",
            "Remplacement du bouton palier 2 37,50 € 10 % 75,00 €",
            // A long label wraps in its column, its amounts on its first line.
            "Modernisation de la cabine",
            "1 12 345,67 € 20 % 12 345,67 €",
            "éclairage)",
            // VAT per rate, on its base; totals.
            "Total HT 12 870,67 €",
            "TVA 10 % sur 75,00 € 7,50 €",
            "TVA 20 % sur 12 795,67 € 2 559,13 €",
            "Total TTC 15 437,30 €",
            // Payment terms.
            "Conditions de paiement",
            &format!(
                "Paiement à réception, au plus tard le {} (30 jours après la date d'émission).",
                french_day(due)
            ),
            "Pas d'escompte pour paiement anticipé.",
            "Pénalités de retard : trois fois le taux d'intérêt légal.",
            "Indemnité forfaitaire pour frais de recouvrement : 40 €",
            "Règlement par virement : IBAN FR76 3000 6000 0112 3456 7890 189, BIC BNPAFRPP.",
            // The professional insurance of the building trades.
            "Assurance professionnelle : SMABTP, 8 rue Louis-Armand, 75015 Paris, police n° 123456/RC, couverture",
            "géographique : France métropolitaine.",
            // Every page's footer.
            "Durand Ascenseurs — SAS — SIRET 552 100 554 00013 — TVA FR 96 552 100 554",
            "Page 1/1",
        ],
    );
    assert!(!pdf.text.contains("Brouillon"), "{}", pdf.text);
    assert!(!pdf.text.contains("TVA d'après les débits"), "{}", pdf.text);
    // VAT rates by increasing rate, as the totals list them.
    let ten = pdf.text.find("TVA 10 %").expect("10 %");
    let twenty = pdf.text.find("TVA 20 %").expect("20 %");
    assert!(ten < twenty);

    // Paid: the invoice says so.
    let (status, body) = post(
        &w.server,
        &format!("/api/v2/invoices/{id}/payment"),
        &w.org.admin_token,
        Some(json!({ "paidOn": issued.format("%Y-%m-%d").to_string() })),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let paid = fetch(
        v2_pdf(
            &w,
            &w.org.admin_token,
            &format!("/api/v2/invoices/{id}/pdf"),
        )
        .await,
    )
    .await;
    assert_has(
        &paid.text,
        &[&format!("Acquittée le {}", french_day(issued))],
    );
    w.server.stop().await;
}

#[tokio::test]
async fn a_draft_has_no_number_and_says_it_is_worthless() {
    let w = world().await;
    let id = draft(&w, lines()).await;
    let pdf = fetch(
        v2_pdf(
            &w,
            &w.org.admin_token,
            &format!("/api/v2/invoices/{id}/pdf"),
        )
        .await,
    )
    .await;
    assert_eq!(pdf.file_name, format!("brouillon-{id}.pdf"));
    assert_has(
        &pdf.text,
        &[
            "Facture",
            "Brouillon — sans valeur de facture",
            &format!("Créé le {} (non émis)", french_day(today())),
            "Paiement à 30 jours après la date d'émission.",
            "Total TTC 15 437,30 €",
        ],
    );
    assert!(
        !pdf.text.contains("FA-"),
        "a draft has no number:\n{}",
        pdf.text
    );
    assert!(!pdf.text.contains("N° "), "{}", pdf.text);
    assert!(!pdf.text.contains("Date d'émission :"), "{}", pdf.text);

    // The web application serves the same document in the session's agency.
    let staff = StaffClient::sign_in(&w.server, &w.org.admin_email, PASSWORD).await;
    let response = staff
        .http
        .get(format!("{}/app/api/invoices/{id}/pdf", staff.base))
        .send()
        .await
        .expect("request");
    let app = fetch(response).await;
    assert_eq!(app.file_name, pdf.file_name);
    assert_eq!(app.text, pdf.text);
    w.server.stop().await;
}

#[tokio::test]
async fn a_credit_note_names_the_invoice_it_credits() {
    let w = world().await;
    let id = draft(&w, lines()).await;
    issue(&w, &id).await;
    let (status, created) = post(
        &w.server,
        &format!("/api/v2/invoices/{id}/credit-notes"),
        &w.org.admin_token,
        Some(json!({ "lines": [{ "label": "Geste commercial sur la modernisation", "quantity": 1, "unitPrice": 1000 }] })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let note = str_of(&created, "id").to_owned();
    let year = today().year();
    let pdf = fetch(
        v2_pdf(
            &w,
            &w.org.admin_token,
            &format!("/api/v2/invoices/{note}/pdf"),
        )
        .await,
    )
    .await;
    assert_eq!(pdf.file_name, format!("AV-{year}-000001.pdf"));
    assert_has(
        &pdf.text,
        &[
            "Avoir",
            &format!("N° AV-{year}-000001"),
            &format!("Avoir sur la facture n° FA-{year}-000001"),
            &format!("Date d'émission : {}", french_day(today())),
            "Syndic Dupont & Fils",
            "SIREN : 732 829 320",
            "Geste commercial sur la modernisation 1 1 000,00 € 20 % 1 000,00 €",
            "TVA 20 % sur 1 000,00 € 200,00 €",
            "Total TTC 1 200,00 €",
            &format!(
                "Montant à déduire de la facture n° FA-{year}-000001, ou à rembourser si elle est déjà réglée."
            ),
        ],
    );
    assert!(!pdf.text.contains("Pénalités de retard"), "{}", pdf.text);
    w.server.stop().await;
}

#[tokio::test]
async fn sixty_lines_run_over_pages_numbered_page_i_of_n() {
    let w = world().await;
    let many: Vec<Value> = (1..=60)
        .map(|i| json!({ "label": format!("Vérification n° {i} du parachute"), "quantity": 1, "unitPrice": 10 }))
        .collect();
    let id = draft(&w, Value::Array(many)).await;
    issue(&w, &id).await;
    let pdf = fetch(
        v2_pdf(
            &w,
            &w.org.admin_token,
            &format!("/api/v2/invoices/{id}/pdf"),
        )
        .await,
    )
    .await;
    assert!(pdf.pages >= 2, "{} page(s)", pdf.pages);
    let pages: Vec<&str> = pdf
        .text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    assert_eq!(pages.len(), pdf.pages);
    for (index, page) in pages.iter().enumerate() {
        assert_has(page, &[&format!("Page {}/{}", index + 1, pdf.pages)]);
        // The table's head is on every page that carries lines.
        if page.contains("Vérification n°") {
            assert_has(page, &["Désignation"]);
        }
    }
    let year = today().year();
    assert_has(pages[1], &[&format!("Facture FA-{year}-000001 (suite)")]);
    for i in 1..=60 {
        assert_has(
            &pdf.text,
            &[&format!(
                "Vérification n° {i} du parachute 1 10,00 € 20 % 10,00 €"
            )],
        );
    }
    // Every line once, the totals once after them, the terms (kept
    // together) on the last page.
    assert_eq!(pdf.text.matches("du parachute").count(), 60);
    assert_eq!(pdf.text.matches("Total TTC").count(), 1);
    assert_has(&pdf.text, &["Total TTC 720,00 €"]);
    assert!(pdf.text.find("Total TTC") > pdf.text.find("n° 60 du parachute"));
    assert_has(
        pages[pages.len() - 1],
        &["Pénalités de retard", "Assurance professionnelle : SMABTP"],
    );
    w.server.stop().await;
}

#[tokio::test]
async fn a_quote_prints_its_buyer_rows_and_totals() {
    let w = world().await;
    let (status, created) = post(
        &w.server,
        "/api/v2/quotes",
        &w.org.admin_token,
        Some(json!({
            "equipmentId": w.equipment,
            "origin": "panne",
            "object": "Remplacement du câble de traction suite à panne",
            "rows": [
                { "label": "Câble de traction", "quantity": 2, "unitPrice": 120.5 },
                { "label": "Main d'œuvre", "quantity": 1.5, "unitPrice": 65, "vatRate": 10 },
                { "label": "Déplacement", "quantity": 1, "unitPrice": 0.05, "vatRate": 5.5 }
            ]
        })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = str_of(&created, "id").to_owned();
    let (status, quote) = w
        .server
        .get_with(
            &format!("/api/v2/quotes/{id}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let number = str_of(&quote, "number").to_owned();
    // A quote is dated by its creation, in Paris.
    let created = clock::parse_timestamp(str_of(&quote, "createdAt")).expect("createdAt");
    let quote_day = clock::paris_local(created).date();
    let pdf =
        fetch(v2_pdf(&w, &w.org.admin_token, &format!("/api/v2/quotes/{id}/pdf")).await).await;
    assert_eq!(pdf.file_name, format!("{number}.pdf"));
    assert_has(
        &pdf.text,
        &[
            "Devis",
            &format!("N° {number}"),
            &format!("Date : {}", french_day(quote_day)),
            "Durand Ascenseurs",
            "SIRET : 552 100 554 00013",
            "RCS Lyon 552 100 554",
            "Assurance professionnelle : SMABTP",
            "Syndic Dupont & Fils",
            "SIREN : 732 829 320",
            "Objet : Remplacement du câble de traction suite à panne",
            "Appareil : ASC 7",
            "Câble de traction 2 120,50 € 20 % 241,00 €",
            "Main d'œuvre 1,5 65,00 € 10 % 97,50 €",
            "Déplacement 1 0,05 € 5,5 % 0,05 €",
            "Total HT 338,55 €",
            "TVA 5,5 % sur 0,05 € 0,00 €",
            "TVA 10 % sur 97,50 € 9,75 €",
            "TVA 20 % sur 241,00 € 48,20 €",
            "Total TTC 396,50 €",
            "Bon pour accord",
            "Page 1/1",
        ],
    );

    // The web application: the same document.
    let staff = StaffClient::sign_in(&w.server, &w.org.admin_email, PASSWORD).await;
    let response = staff
        .http
        .get(format!("{}/app/api/quotes/{id}/pdf", staff.base))
        .send()
        .await
        .expect("request");
    let app = fetch(response).await;
    assert_eq!(app.file_name, pdf.file_name);
    assert_eq!(app.text, pdf.text);
    w.server.stop().await;
}

#[tokio::test]
async fn another_agency_gets_404_and_no_credentials_401() {
    let w = world().await;
    let invoice = draft(&w, lines()).await;
    let (status, created) = post(
        &w.server,
        "/api/v2/quotes",
        &w.org.admin_token,
        Some(
            json!({ "equipmentId": w.equipment, "origin": "client", "object": "Essai",
                     "rows": [{ "label": "x", "quantity": 1, "unitPrice": 10 }] }),
        ),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let quote = str_of(&created, "id").to_owned();
    let cases = [
        (format!("/invoices/{invoice}/pdf"), "Facture introuvable."),
        (format!("/quotes/{quote}/pdf"), "Devis introuvable."),
        ("/invoices/inconnue/pdf".to_owned(), "Facture introuvable."),
        ("/quotes/inconnu/pdf".to_owned(), "Devis introuvable."),
    ];
    let other_staff = StaffClient::sign_in(&w.server, &w.other.admin_email, PASSWORD).await;
    for (path, message) in &cases {
        // REST v2, another agency's token.
        let response = v2_pdf(&w, &w.other.admin_token, &format!("/api/v2{path}")).await;
        assert_eq!(response.status().as_u16(), 404, "{path}");
        let body: Value = response.json().await.expect("json");
        assert_eq!(body, json!({ "error": message }), "{path}");
        // The web application, another agency's staff.
        let (status, body) = other_staff.get(path).await;
        assert_eq!((status, body), (404, json!({ "error": message })), "{path}");
        // No token, no session.
        let response = w
            .server
            .client
            .get(w.server.url(&format!("/api/v2{path}")))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 401, "{path}");
        let body: Value = response.json().await.expect("json");
        assert_eq!(
            body,
            json!({ "error": "Authentification requise : jeton d'API manquant, inconnu ou révoqué." })
        );
        let response = w
            .server
            .client
            .get(w.server.url(&format!("/app/api{path}")))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 401, "{path}");
        let body: Value = response.json().await.expect("json");
        assert_eq!(
            body,
            json!({ "error": "Session absente ou expirée : reconnectez-vous." })
        );
    }
    w.server.stop().await;
}

#[tokio::test]
async fn the_openapi_document_declares_the_pdf_operations() {
    let w = world().await;
    let (status, doc) = w.server.get_with("/api/v2/openapi.json", None, None).await;
    assert_eq!(status, 200);
    for (path, operation) in [
        ("/invoices/{id}/pdf", "get_invoice_pdf"),
        ("/quotes/{id}/pdf", "get_quote_pdf"),
    ] {
        let get = &doc["paths"][path]["get"];
        assert_eq!(get["operationId"], json!(operation), "{path}");
        let ok = &get["responses"]["200"]["content"]["application/pdf"]["schema"];
        let schema = match ok.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                let name = reference.rsplit('/').next().expect("name");
                doc["components"]["schemas"][name].clone()
            }
            None => ok.clone(),
        };
        assert_eq!(schema["type"], json!("string"), "{path}");
        assert_eq!(schema["format"], json!("binary"), "{path}");
        for code in ["401", "403", "404"] {
            assert!(
                get["responses"][code]["content"]["application/json"].is_object(),
                "{path} {code}"
            );
        }
    }
    w.server.stop().await;
}
