//! The agency's identity as a seller (`/app/api/agency/identity…`,
//! `liftdesk agency identity`, `liftdesk init --siret --address`): who
//! reads and who changes it, each field's French refusal, the logo, what
//! the documents print, the issue of an invoice or a credit note refused
//! (422, no number taken) while the SIRET or the address is missing, an
//! issued invoice reprinted with the seller it was issued by, and the audit.

use crate::common;

use chrono::Datelike;
use common::app::StaffClient;
use common::world::World;
use common::*;
use liftdesk::services::clients::ClientInput;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";
const LOGO_PNG: &[u8] = include_bytes!("../../icons/64x64.png");
/// A 16 × 16 JPEG (CPython's test image `python.jpg`, PSF licence).
const LOGO_JPEG: &[u8] = include_bytes!("fixtures/logo-16.jpg");
/// A valid PNG of 8 × 8 pixels: too small for a logo.
const TINY_PNG: &[u8] = include_bytes!("fixtures/tiny-8.png");
const SIRET: &str = "55210055400013";

fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn full_identity() -> Value {
    json!({
        "legalName": "Ascenseurs Durand",
        "legalForm": "SAS",
        "shareCapital": 50000,
        "rcsCity": "Lyon",
        "siret": "552 100 554 00013",
        "vatNumber": "FR 96 552 100 554",
        "headOfficeAddress": "3 quai Saint-Antoine\n69002 Lyon",
        "address": "12 rue de la Part-Dieu, 69003 Lyon",
        "phone": "04 72 00 00 00",
        "email": "Lyon@Durand.fr",
        "iban": "fr76 3000 6000 0112 3456 7890 189",
        "bic": "bnpafrpp",
        "insurer": "SMABTP, 8 rue Louis-Armand, 75015 Paris",
        "insurancePolicy": "123456/RC",
        "insuranceArea": "France métropolitaine",
        "vatOnDebits": true
    })
}

async fn pdf_of(staff: &StaffClient, path: &str) -> Vec<u8> {
    let response = staff
        .http
        .get(format!("{}/app/api{path}", staff.base))
        .send()
        .await
        .expect("pdf");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.bytes().await.expect("bytes").to_vec()
}

/// One line of `text` holds `piece` (whitespace squeezed).
fn has_line(text: &str, piece: &str) -> bool {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .any(|line| line.contains(piece))
}

fn invoice_number(server: &TestServer, id: &str) -> (Option<String>, String) {
    open_db(server.data_dir.path())
        .query_row(
            "SELECT number, status FROM invoices WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("facture")
}

#[tokio::test]
async fn an_invoice_waits_for_the_sellers_siret_address_and_vat_number_and_takes_no_number() {
    let server = TestServer::start().await;
    let org = init_bare_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let world = World::in_agency(&server, &org.agency_id);
    world
        .client(ClientInput {
            client_id: Some("C-1".to_owned()),
            nom: Some("Syndic Dupont".to_owned()),
            adresse: Some(Some("12 rue de la Paix, 75002 Paris".to_owned())),
            ..ClientInput::default()
        })
        .await;
    let invoice = world
        .draft_invoice("C-1", vec![World::line("Maintenance", 1.0, 100.0, None)])
        .await;
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;

    // Nothing filled in: both named, and where to fill them.
    let (status, body) = admin.get("/agency/identity").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["agencyName"], "Durand Centre");
    assert_eq!(body["organizationName"], "Durand");
    assert_eq!(body["updatedAt"], Value::Null);
    assert_eq!(body["canEdit"], true);
    assert_eq!(
        body["missingToIssue"],
        json!([
            { "field": "siret", "label": "SIRET" },
            { "field": "address", "label": "Adresse de l'agence" },
            { "field": "postalCode", "label": "Code postal de l'agence" },
            { "field": "city", "label": "Ville de l'agence" },
            { "field": "vatNumber", "label": "N° de TVA intracommunautaire" }
        ])
    );
    let (status, body) = admin
        .post(&format!("/invoices/{invoice}/issue"), json!({}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        "Cette facture ne peut pas être émise : renseignez d'abord le SIRET, l'adresse et le numéro de TVA intracommunautaire de l'agence, sur l'écran « Agence », rubrique « Identité » (réservé aux administrateurs). Aucun numéro n'a été attribué."
    );
    assert_eq!(
        invoice_number(&server, &invoice),
        (None, "brouillon".to_owned())
    );

    // The SIRET alone is not enough.
    let (status, body) = admin
        .put("/agency/identity", json!({ "siret": SIRET }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["siren"], "552100554");
    let (status, body) = admin
        .post(&format!("/invoices/{invoice}/issue"), json!({}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        "Cette facture ne peut pas être émise : renseignez d'abord l'adresse et le numéro de TVA intracommunautaire de l'agence, sur l'écran « Agence », rubrique « Identité » (réservé aux administrateurs). Aucun numéro n'a été attribué."
    );

    // SIRET and address without VAT number: every electronic invoice names
    // the seller's VAT number, a document without VAT (a 0 % line, exempt)
    // as well as one that charges it (EN 16931 BR-S-02, BR-E-02).
    let mut no_vat = full_identity();
    no_vat["vatNumber"] = json!("");
    let (status, body) = admin.put("/agency/identity", no_vat).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["missingToIssue"],
        json!([{ "field": "vatNumber", "label": "N° de TVA intracommunautaire" }])
    );
    let untaxed = world
        .draft_invoice(
            "C-1",
            vec![World::line("Contrôle hors TVA", 1.0, 80.0, Some(0.0))],
        )
        .await;
    for draft in [&invoice, &untaxed] {
        let (status, body) = admin
            .post(&format!("/invoices/{draft}/issue"), json!({}))
            .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(
            body["error"],
            "Cette facture ne peut pas être émise : renseignez d'abord le numéro de TVA intracommunautaire de l'agence, sur l'écran « Agence », rubrique « Identité » (réservé aux administrateurs). Aucun numéro n'a été attribué."
        );
        assert_eq!(
            invoice_number(&server, draft),
            (None, "brouillon".to_owned())
        );
    }
    let year = liftdesk::clock::paris_today().year();
    let (status, body) = admin.put("/agency/identity", full_identity()).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin
        .post(&format!("/invoices/{untaxed}/issue"), json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        invoice_number(&server, &untaxed),
        (Some(format!("FA-{year}-000001")), "emise".to_owned())
    );

    // Filled in: the next number of the year, none was lost.
    let (status, body) = admin.put("/agency/identity", full_identity()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["missingToIssue"], json!([]));
    assert_eq!(body["missingMentions"], json!([]));
    let (status, body) = admin
        .post(&format!("/invoices/{invoice}/issue"), json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        invoice_number(&server, &invoice),
        (Some(format!("FA-{year}-000002")), "emise".to_owned())
    );

    // A credit note is refused alike once the city is erased, and takes
    // no number either.
    let mut erased = full_identity();
    erased["address"] = json!("12 rue de la Part-Dieu");
    erased["postalCode"] = json!("69003");
    erased["city"] = json!("");
    let (status, body) = admin.put("/agency/identity", erased).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["missingToIssue"],
        json!([{ "field": "city", "label": "Ville de l'agence" }])
    );
    let (status, body) = admin
        .post(&format!("/invoices/{invoice}/credit-notes"), json!({}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        "Cet avoir ne peut pas être émis : renseignez d'abord la ville de l'agence, sur l'écran « Agence », rubrique « Identité » (réservé aux administrateurs). Aucun numéro n'a été attribué."
    );
    let credit_notes: i64 = open_db(server.data_dir.path())
        .query_row(
            "SELECT COUNT(*) FROM invoices WHERE nature = 'avoir'",
            [],
            |r| r.get(0),
        )
        .expect("avoirs");
    assert_eq!(credit_notes, 0, "nothing half-written");
}

#[tokio::test]
async fn the_documents_print_the_identity_an_invoice_was_issued_with() {
    let server = TestServer::start().await;
    let org = init_bare_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let world = World::in_agency(&server, &org.agency_id);
    world
        .client(ClientInput {
            client_id: Some("C-1".to_owned()),
            nom: Some("Syndic Dupont".to_owned()),
            siren: Some(Some("732829320".to_owned())),
            ..ClientInput::default()
        })
        .await;
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (status, body) = admin.put("/agency/identity", full_identity()).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin
        .put(
            "/agency/identity/logo",
            json!({ "content": base64(LOGO_PNG) }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["logo"],
        json!({ "mediaType": "image/png", "width": 64, "height": 64 })
    );
    let invoice = world
        .draft_invoice("C-1", vec![World::line("Maintenance", 1.0, 100.0, None)])
        .await;
    world.issue_invoice(&invoice).await;

    let pdf = pdf_of(&admin, &format!("/invoices/{invoice}/pdf")).await;
    let text = pdftotext(&pdf);
    for piece in [
        "Ascenseurs Durand",
        "SAS au capital de 50 000 €",
        "Agence : Durand Centre",
        "12 rue de la Part-Dieu",
        "69003 Lyon",
        "Siège social : 3 quai Saint-Antoine, 69002 Lyon",
        "SIRET : 552 100 554 00013",
        "RCS Lyon 552 100 554",
        "TVA intracommunautaire : FR 96 552 100 554",
        "Tél. 04 72 00 00 00 — lyon@durand.fr",
        "Règlement par virement : IBAN FR76 3000 6000 0112 3456 7890 189, BIC BNPAFRPP.",
        "Option pour le paiement de la TVA d'après les débits.",
        "Assurance professionnelle : SMABTP, 8 rue Louis-Armand, 75015 Paris, police n° 123456/RC",
    ] {
        assert!(has_line(&text, piece), "« {piece} » missing from:\n{text}");
    }
    // The logo heads the page (and its transparency is a soft mask).
    assert!(
        pdf_images(&pdf).contains(&(64, 64)),
        "{:?}",
        pdf_images(&pdf)
    );

    // The agency moves: a new SIRET and address, no logo.
    let mut moved = full_identity();
    moved["siret"] = json!("55210055400021");
    moved["address"] = json!("8 cours Lafayette, 69006 Lyon");
    let (status, body) = admin.put("/agency/identity", moved).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin.delete("/agency/identity/logo").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["logo"], Value::Null);
    let (status, _) = admin.get("/agency/identity/logo").await;
    assert_eq!(status, 404);

    // The issued invoice is reprinted as it was issued…
    let reprint = pdf_of(&admin, &format!("/invoices/{invoice}/pdf")).await;
    let text = pdftotext(&reprint);
    assert!(has_line(&text, "SIRET : 552 100 554 00013"), "{text}");
    assert!(
        has_line(&text, "12 rue de la Part-Dieu") && has_line(&text, "69003 Lyon"),
        "{text}"
    );
    assert_eq!(pdf_images(&reprint).first(), Some(&(64, 64)));
    // …and a new one carries the new identity.
    let draft = world
        .draft_invoice("C-1", vec![World::line("Dépannage", 1.0, 80.0, None)])
        .await;
    let text = pdftotext(&pdf_of(&admin, &format!("/invoices/{draft}/pdf")).await);
    assert!(has_line(&text, "SIRET : 552 100 554 00021"), "{text}");
    assert!(has_line(&text, "8 cours Lafayette"), "{text}");
    assert!(has_line(&text, "69006 Lyon"), "{text}");
    assert!(!text.contains("Part-Dieu"), "{text}");
}

#[tokio::test]
async fn administrators_change_the_identity_members_read_it_each_agency_its_own() {
    let server = TestServer::start().await;
    let org = init_bare_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_bare_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let second = str_of(
        &server.cli_json(&[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Durand Sud",
        ]),
        "id",
    )
    .to_owned();
    member(&server, &org.agency_id, "marc@durand.fr", &[]);
    member(&server, &second, "lea@durand.fr", &["--admin"]);

    // A member reads, and is refused a change.
    let marc = StaffClient::sign_in(&server, "marc@durand.fr", PASSWORD).await;
    let (status, body) = marc.get("/agency/identity").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["canEdit"], false);
    for (status, body) in [
        marc.put("/agency/identity", full_identity()).await,
        marc.put(
            "/agency/identity/logo",
            json!({ "content": base64(LOGO_PNG) }),
        )
        .await,
        marc.delete("/agency/identity/logo").await,
    ] {
        assert_eq!(status, 403, "{body}");
        assert_eq!(
            body["error"],
            "Modifier l'identité de l'agence est réservé à un administrateur de l'agence."
        );
    }

    // The agency administrator of the second agency changes its own…
    let lea = StaffClient::sign_in(&server, "lea@durand.fr", PASSWORD).await;
    let (status, body) = lea
        .put(
            "/agency/identity",
            json!({ "siret": SIRET, "address": "Marseille" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["agencyName"], "Durand Sud");
    // …and cannot act in the first one, outside its scope.
    let (status, body) = lea
        .put("/session/agency", json!({ "agencyId": org.agency_id }))
        .await;
    assert_eq!(status, 403, "{body}");

    // The organization administrator changes the first agency's; the
    // second keeps its own, the other organization sees nothing of either.
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (status, body) = admin.put("/agency/identity", full_identity()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["identity"]["siret"], SIRET);
    assert_eq!(body["identity"]["vatNumber"], "FR96552100554");
    assert_eq!(body["identity"]["iban"], "FR7630006000011234567890189");
    assert_eq!(body["identity"]["bic"], "BNPAFRPP");
    assert_eq!(body["identity"]["email"], "lyon@durand.fr");
    assert_eq!(body["identity"]["shareCapital"], 50000.0);
    assert_eq!(body["identity"]["vatOnDebits"], true);
    let (status, body) = lea.get("/agency/identity").await;
    assert_eq!(status, 200);
    assert_eq!(body["identity"]["address"], "Marseille");
    assert_eq!(body["identity"]["legalForm"], Value::Null);
    let paul = StaffClient::sign_in(&server, "paul@martin.fr", PASSWORD).await;
    let (status, body) = paul.get("/agency/identity").await;
    assert_eq!(status, 200);
    assert_eq!(body["organizationName"], "Martin");
    assert_eq!(body["identity"]["siret"], Value::Null);
    let (status, _) = paul.get("/agency/identity/logo").await;
    assert_eq!(status, 404);
    let _ = other;

    // Each change is one audit entry naming the fields changed; the same
    // identity again changes nothing.
    let (status, _) = admin.put("/agency/identity", full_identity()).await;
    assert_eq!(status, 200);
    let conn = open_db(server.data_dir.path());
    let entries: Vec<(String, String, String)> = conn
        .prepare(
            "SELECT actor_kind, action, detail FROM audit_log
             WHERE object_type = 'agency' AND object_id = ?1 ORDER BY seq",
        )
        .expect("prepare")
        .query_map([&org.agency_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(entries.len(), 1, "{entries:?}");
    let (actor, action, detail) = &entries[0];
    assert_eq!((actor.as_str(), action.as_str()), ("account", "identite"));
    let detail: Value = serde_json::from_str(detail).expect("json");
    assert_eq!(
        detail["changed"]["siret"],
        json!({ "before": null, "after": SIRET })
    );
    assert_eq!(
        detail["changed"]["vatOnDebits"],
        json!({ "before": false, "after": true })
    );
    // Every field given changed, the address split into street, postal
    // code and city.
    assert_eq!(
        detail["changed"]["postalCode"],
        json!({ "before": null, "after": "69003" })
    );
    assert_eq!(detail["changed"].as_object().map(|o| o.len()), Some(20));
}

#[tokio::test]
async fn each_bad_field_gets_its_french_reason_and_nothing_is_stored() {
    let server = TestServer::start().await;
    init_bare_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let cases = [
        (
            json!({ "siret": "55210055400014" }),
            "Champ « siret » : Le SIRET n'est pas valide (clé de contrôle incorrecte).",
        ),
        (
            json!({ "siret": "5521005540001" }),
            "Champ « siret » : Le SIRET doit comporter exactement 14 chiffres.",
        ),
        (
            json!({ "siret": SIRET, "vatNumber": "FR44732829320" }),
            "Champ « vatNumber » : Le numéro de TVA est celui du SIREN 732 829 320, pas celui du SIRET de l'agence (552 100 554).",
        ),
        (
            json!({ "vatNumber": "FR97552100554" }),
            "Champ « vatNumber » : La clé « 97 » ne correspond pas au SIREN 552 100 554 : le numéro de TVA est FR96552100554.",
        ),
        (
            json!({ "iban": "FR7630006000011234567890188" }),
            "Champ « iban » : L'IBAN « FR76 3000 6000 0112 3456 7890 188 » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.",
        ),
        (
            json!({ "bic": "BNP" }),
            "Champ « bic » : Le BIC « BNP » n'est pas valide : 8 ou 11 caractères, 4 lettres de la banque, 2 du pays, puis 2 (ou 5) lettres ou chiffres, par exemple BNPAFRPPXXX.",
        ),
        (
            json!({ "shareCapital": -5 }),
            "Champ « shareCapital » : Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
        ),
        (
            json!({ "email": "accueil" }),
            "Champ « email » : L'adresse e-mail « accueil » n'est pas valide.",
        ),
        (
            json!({ "phone": "appelez-nous" }),
            "Le champ « phone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « appelez-nous » n'en est pas un.",
        ),
        (
            json!({ "legalName": "x".repeat(121) }),
            "Le champ « legalName » ne doit pas dépasser 120 caractères.",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = admin.put("/agency/identity", body.clone()).await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (422, Some(expected)),
            "{body}"
        );
    }
    // Not the body's shape: 400/422 in the API's one form.
    let (status, answer) = admin
        .put("/agency/identity", json!({ "siren": "552100554" }))
        .await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("siren")),
        "{answer}"
    );
    let (status, answer) = admin
        .put("/agency/identity", json!({ "shareCapital": "beaucoup" }))
        .await;
    assert_eq!(status, 422, "{answer}");

    // Logos: not an image, a GIF, too small, damaged, too big, not base64.
    let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec();
    let mut damaged = LOGO_PNG[..200].to_vec();
    damaged.extend_from_slice(&[0; 64]);
    let big = {
        let mut bytes = LOGO_PNG.to_vec();
        bytes.resize(1024 * 1024 + 1, 0);
        bytes
    };
    for (content, status_expected, expected) in [
        (base64(b"bonjour"), 422, "Le logo doit être une image PNG ou JPEG.".to_owned()),
        (base64(&gif), 422, "Le logo doit être une image PNG ou JPEG.".to_owned()),
        (base64(TINY_PNG), 422, "Le logo mesure 8 × 8 pixels : de 16 à 4000 pixels de côté.".to_owned()),
        (base64(&damaged), 422, "Le fichier du logo est illisible ou endommagé : enregistrez-le de nouveau en PNG ou en JPEG.".to_owned()),
        (base64(&big), 413, "Le logo dépasse la taille maximale acceptée (1024 Kio) : enregistrez-le plus petit (PNG ou JPEG).".to_owned()),
        ("pas du base64 !".to_owned(), 422, "Le champ « content » n'est pas du base64 valide : envoyez le contenu du fichier encodé en base64 (alphabet standard).".to_owned()),
        (String::new(), 422, "Le logo est vide : choisissez une image PNG ou JPEG.".to_owned()),
    ] {
        let (status, answer) = admin
            .put("/agency/identity/logo", json!({ "content": content }))
            .await;
        assert_eq!((status, answer["error"].as_str()), (status_expected, Some(expected.as_str())));
    }
    // A JPEG is a logo too.
    let (status, answer) = admin
        .put(
            "/agency/identity/logo",
            json!({ "content": base64(LOGO_JPEG) }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["logo"],
        json!({ "mediaType": "image/jpeg", "width": 16, "height": 16 })
    );
    let response = admin
        .http
        .get(format!("{}/app/api/agency/identity/logo", admin.base))
        .send()
        .await
        .expect("logo");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("image/jpeg")
    );
    assert_eq!(response.bytes().await.expect("bytes").as_ref(), LOGO_JPEG);

    // Only the logo was stored: no identity field from the refusals.
    let (_, body) = admin.get("/agency/identity").await;
    for value in body["identity"]
        .as_object()
        .expect("identity")
        .iter()
        .filter(|(k, _)| *k != "vatOnDebits")
    {
        assert_eq!(value.1, &Value::Null, "{}", value.0);
    }
}

#[test]
fn the_command_line_sets_the_identity_at_init_and_field_by_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A bad SIRET at init: refused, nothing created.
    let out = run_cli(
        dir.path(),
        &[
            "init",
            "--organization",
            "Durand",
            "--agency",
            "Lyon",
            "--admin-email",
            "a@durand.fr",
            "--admin-password",
            PASSWORD,
            "--siret",
            "123",
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr_of(&out)
            .contains("Champ « siret » : Le SIRET doit comporter exactement 14 chiffres."),
        "{}",
        stderr_of(&out)
    );
    let org = init_org(dir.path(), "Durand", "a@durand.fr");
    let shown = cli_json(
        dir.path(),
        &["agency", "identity", "--agency", &org.agency_id],
    );
    assert_eq!(shown["siret"], TEST_SIRET);
    // Given on one line, the address is kept in its parts.
    assert_eq!(
        [&shown["address"], &shown["postalCode"], &shown["city"]],
        [&json!("1 place Bellecour"), &json!("69002"), &json!("Lyon")]
    );
    assert_eq!(shown["missingToIssue"], json!([]));
    let changed = cli_json(
        dir.path(),
        &[
            "agency",
            "identity",
            "--agency",
            &org.agency_id,
            "--legal-form",
            "SARL",
            "--share-capital",
            "7 500,50",
            "--vat-on-debits",
            "oui",
            "--address",
            "",
        ],
    );
    assert_eq!(changed["legalForm"], "SARL");
    assert_eq!(changed["shareCapital"], 7500.5);
    assert_eq!(changed["vatOnDebits"], true);
    assert_eq!(changed["siret"], TEST_SIRET, "kept");
    assert_eq!(changed["address"], Value::Null, "erased");
    assert_eq!(changed["missingToIssue"], json!(["address"]));
    let out = run_cli(
        dir.path(),
        &[
            "agency",
            "identity",
            "--agency",
            &org.agency_id,
            "--iban",
            "FR00",
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("Champ « iban »"),
        "{}",
        stderr_of(&out)
    );
    let out = run_cli(dir.path(), &["agency", "identity", "--agency", "inconnue"]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("Agence inconnue."),
        "{}",
        stderr_of(&out)
    );
}

/// Each agency numbers its documents in its own series once the
/// organization has several: the series is required to issue then, unique
/// in the organization, fixed once a document is numbered in it, and an
/// agency that numbered without one continues its sequence in it.
#[tokio::test]
async fn each_agency_numbers_in_its_own_series() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let first = World::in_agency(&server, &org.agency_id);
    let client = ClientInput {
        client_id: Some("C-1".to_owned()),
        nom: Some("Syndic Dupont".to_owned()),
        ..ClientInput::default()
    };
    first.client(client.clone()).await;
    let line = || vec![World::line("Maintenance", 1.0, 100.0, None)];
    let year = liftdesk::clock::paris_today().year();
    let number = |id: &str| invoice_number(&server, id).0;

    // One agency: no series needed, numbers as they always were.
    let before = first.draft_invoice("C-1", line()).await;
    first.issue_invoice(&before).await;
    assert_eq!(number(&before), Some(format!("FA-{year}-000001")));

    // A second agency: neither issues without its series.
    let second_id = new_agency(&server, &org, "Durand Nord");
    let identity = |agency: &str, extra: &[&str]| {
        let mut args = vec![
            "agency",
            "identity",
            "--agency",
            agency,
            "--siret",
            TEST_SIRET,
            "--address",
            TEST_ADDRESS,
            "--vat-number",
            TEST_VAT_NUMBER,
        ];
        args.extend_from_slice(extra);
        run_cli(server.data_dir.path(), &args)
    };
    assert!(identity(&second_id, &[]).status.success());
    let second = World::in_agency(&server, &second_id);
    second.client(client).await;
    let waiting = first.draft_invoice("C-1", line()).await;
    let refused = Box::pin(liftdesk::services::invoices::issue(
        &first.store,
        &first.principal,
        &liftdesk::domain::id::InvoiceId::new(&waiting),
    ))
    .await
    .expect_err("no series");
    assert_eq!(
        (refused.status().as_u16(), refused.public_message()),
        (
            422,
            "Cette facture ne peut pas être émise : renseignez d'abord la série de numérotation des factures (l'organisation a plusieurs agences : chacune numérote dans la sienne) de l'agence, sur l'écran « Agence », rubrique « Identité » (réservé aux administrateurs). Aucun numéro n'a été attribué.".to_owned()
        )
    );
    assert_eq!(number(&waiting), None);

    // A malformed series, then « PO » for the first agency: the sequence
    // goes on, with the series.
    let out = identity(&org.agency_id, &["--invoice-series", "P O!"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "Champ « invoiceSeries » : La série de numérotation compte de 1 à 6 lettres sans accent ou chiffres, par exemple « PO » : « P O! » n'en est pas une."
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        identity(&org.agency_id, &["--invoice-series", "po"])
            .status
            .success()
    );
    first.issue_invoice(&waiting).await;
    assert_eq!(number(&waiting), Some(format!("FA-PO-{year}-000002")));

    // The second agency cannot take « PO »; « PN » it can.
    let out = identity(&second_id, &["--invoice-series", "PO"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "Champ « invoiceSeries » : la série « PO » est déjà celle de l'agence « Durand Centre » : chaque agence de l'organisation numérote ses pièces dans sa propre série."
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        identity(&second_id, &["--invoice-series", "PN"])
            .status
            .success()
    );
    let theirs = second.draft_invoice("C-1", line()).await;
    second.issue_invoice(&theirs).await;
    assert_eq!(number(&theirs), Some(format!("FA-PN-{year}-000001")));
    let credit = first.credit_note(&waiting, None).await;
    assert_eq!(number(&credit), Some(format!("AV-PO-{year}-000001")));

    // « PO » numbers documents now: it no longer changes.
    let out = identity(&org.agency_id, &["--invoice-series", "PX"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "Champ « invoiceSeries » : des factures ou avoirs sont déjà numérotés dans la série « PO » : elle ne change plus (les numéros se suivent dans leur série)."
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The number given before the series never changed; the header search
    // finds a bare sequence number in the series and before it.
    assert_eq!(number(&before), Some(format!("FA-{year}-000001")));
    for (typed, expected) in [
        ("02", format!("FA-PO-{year}-000002")),
        ("01", format!("FA-{year}-000001")),
    ] {
        let found = liftdesk::services::search::header(&first.store, &first.principal, Some(typed))
            .await
            .expect("search");
        assert!(
            found.invoices.iter().any(|hit| hit.number == expected),
            "{typed}: {:?}",
            found.invoices
        );
    }
}
