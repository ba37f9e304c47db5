//! French electronic invoicing (issue 23): an issued invoice or credit note
//! has its structured invoice (Factur-X CII XML), served alone by both doors
//! and carried by its PDF/A-3; a draft has none (409); a 0 % line is issued
//! only with its exemption reason; the client's e-invoicing data (VAT
//! number, electronic address, Chorus Pro service code) are checked and
//! frozen on the document at its issue; a buyer without SIREN goes to
//! e-reporting with the agency's own address. The third-party verdicts
//! (XSD, EN 16931 and BR-FR schematrons, PDF/A structure) are the
//! test command's Factur-X phase (`tests/facturx/`).

use crate::common;

use common::app::StaffClient;
use common::world::World;
use common::*;
use liftdesk::domain::lines::LineInput;
use liftdesk::services::clients::ClientInput;
use liftdesk::services::invoices::NewInvoiceInput;
use serde_json::json;

const PASSWORD: &str = "motdepasse-solide";
/// A client company's SIREN and VAT number.
const BUYER_SIREN: &str = "552100554";
const BUYER_VAT: &str = "FR96552100554";

/// A GET answered as text: status, content type, disposition, body.
async fn raw(staff: &StaffClient, path: &str) -> (u16, String, String, Vec<u8>) {
    let response = staff
        .http
        .get(format!("{}/app/api{path}", staff.base))
        .send()
        .await
        .expect("get");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let (status, kind, disposition) = (
        response.status().as_u16(),
        header("content-type"),
        header("content-disposition"),
    );
    let body = response.bytes().await.expect("body").to_vec();
    (status, kind, disposition, body)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

#[tokio::test]
async fn an_issued_invoice_has_its_structured_invoice_and_a_draft_none() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let world = World::in_agency(&server, &org.agency_id);
    world
        .client(ClientInput {
            client_id: Some("C-1".into()),
            nom: Some("Syndic Dupont".into()),
            adresse: Some(Some("1 place du Marché, 75002 Paris".into())),
            siren: Some(Some(BUYER_SIREN.into())),
            vat_number: Some(Some(BUYER_VAT.into())),
            ..ClientInput::default()
        })
        .await;
    let building = world
        .building_of(
            Some("C-1"),
            Some("Résidence Les Tilleuls"),
            "12 rue des Lilas",
            Some("75011"),
            Some("Paris"),
        )
        .await;
    let lift = world.lift("ASC 42", Some(&building)).await;
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;

    // A 0 % line without its reason: refused to issue, naming the line,
    // no number taken.
    let unexplained = world
        .draft_invoice_with(NewInvoiceInput {
            client_id: "C-1".into(),
            lines: Some(vec![
                World::line("Maintenance", 1.0, 450.0, None),
                LineInput {
                    vat_exemption: None,
                    ..World::line("Sous-traitance", 1.0, 100.0, Some(0.0))
                },
            ]),
            quote_id: None,
            equipment_ids: vec![lift],
        })
        .await;
    let (status, body) = admin
        .post(&format!("/invoices/{unexplained}/issue"), json!({}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        "Cette facture ne peut pas être émise : la ligne 2 est à 0 % de TVA sans motif d'exonération. Choisissez-en un (« Autoliquidation (article 283-2 nonies du CGI) » ou « TVA non applicable (article 293 B du CGI) ») en modifiant la pièce. Aucun numéro n'a été attribué."
    );
    // A draft has no electronic invoice, and its read says so.
    let (_, detail) = admin.get(&format!("/invoices/{unexplained}")).await;
    assert_eq!(detail["invoice"]["facturx"], false);
    let (status, _, _, body) = raw(&admin, &format!("/invoices/{unexplained}/facturx.xml")).await;
    assert_eq!(status, 409);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&body).expect("json")["error"],
        "Cette facture est un brouillon : sa facture électronique (Factur-X) n'existe qu'une fois la pièce émise, avec son numéro."
    );
    // A reason on a line that charges VAT is refused when written.
    let (status, body) = admin
        .patch(
            &format!("/invoices/{unexplained}"),
            json!({ "lines": [{ "label": "A", "quantity": 1, "unitPrice": 1, "vatRate": 20, "vatExemption": "franchise" }] }),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (
            422,
            Some(
                "Ligne 1 : un motif d'exonération de TVA ne se donne qu'à une ligne à 0 % (taux de la ligne : 20 %)."
            )
        )
    );
    // Given on the screen, the reason lets it go.
    let (status, body) = admin
        .patch(
            &format!("/invoices/{unexplained}"),
            json!({ "lines": [
                { "label": "Maintenance", "quantity": 1.5, "unitPrice": 300, "vatRate": 20 },
                { "label": "Sous-traitance", "quantity": 1, "unitPrice": 100, "vatRate": 0, "vatExemption": "autoliquidation" }
            ] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin
        .post(&format!("/invoices/{unexplained}/issue"), json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, detail) = admin.get(&format!("/invoices/{unexplained}")).await;
    let view = &detail["invoice"];
    let number = view["number"].as_str().expect("number").to_owned();
    assert_eq!(view["lines"][1]["vatExemption"], "autoliquidation");
    assert_eq!(view["buyerVatNumber"], BUYER_VAT);
    assert_eq!(view["buyerElectronicAddress"], BUYER_SIREN);
    assert_eq!(view["einvoicing"], "facturation_electronique");
    assert_eq!(view["facturx"], true);

    // Its XML, downloaded, and the same through the REST API.
    let (status, kind, disposition, body) =
        raw(&admin, &format!("/invoices/{unexplained}/facturx.xml")).await;
    assert_eq!(status, 200);
    assert_eq!(kind, "application/xml; charset=utf-8");
    assert_eq!(
        disposition,
        format!("attachment; filename=\"{number}.xml\"")
    );
    let xml = text(&body);
    let rest = http_client()
        .get(server.url(&format!("/api/v2/invoices/{unexplained}/facturx.xml")))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("rest");
    assert_eq!(rest.status().as_u16(), 200);
    let rest = rest.bytes().await.expect("bytes").to_vec();
    assert_eq!(rest, body, "REST and app give the same XML");
    for expected in [
        "<ram:ID>S1</ram:ID>".to_owned(),
        "<ram:ID>urn:cen.eu:en16931:2017</ram:ID>".to_owned(),
        format!("<ram:ID>{number}</ram:ID>"),
        "<ram:TypeCode>380</ram:TypeCode>".to_owned(),
        "<ram:SubjectCode>PMT</ram:SubjectCode>".to_owned(),
        "<ram:SubjectCode>PMD</ram:SubjectCode>".to_owned(),
        "<ram:SubjectCode>AAB</ram:SubjectCode>".to_owned(),
        "<ram:Content>B2B</ram:Content>".to_owned(),
        // Seller and buyer: SIREN (0002), address in the directory (0225),
        // VAT numbers.
        "<ram:ID schemeID=\"0002\">732829320</ram:ID>".to_owned(),
        "<ram:URIID schemeID=\"0225\">732829320</ram:URIID>".to_owned(),
        format!("<ram:ID schemeID=\"0002\">{BUYER_SIREN}</ram:ID>"),
        format!("<ram:URIID schemeID=\"0225\">{BUYER_SIREN}</ram:URIID>"),
        format!("<ram:ID schemeID=\"VA\">{TEST_VAT_NUMBER}</ram:ID>"),
        format!("<ram:ID schemeID=\"VA\">{BUYER_VAT}</ram:ID>"),
        // The place of service: the lift's building.
        "<ram:Name>Résidence Les Tilleuls</ram:Name>".to_owned(),
        // One breakdown per category and rate: 20 % on 450, reverse charge.
        "<ram:CalculatedAmount>90.00</ram:CalculatedAmount>".to_owned(),
        "<ram:BasisAmount>450.00</ram:BasisAmount>".to_owned(),
        "<ram:CategoryCode>AE</ram:CategoryCode>".to_owned(),
        "<ram:ExemptionReasonCode>VATEX-FR-AE</ram:ExemptionReasonCode>".to_owned(),
        "<ram:BilledQuantity unitCode=\"C62\">1.5</ram:BilledQuantity>".to_owned(),
        "<ram:GrandTotalAmount>640.00</ram:GrandTotalAmount>".to_owned(),
        "<ram:DuePayableAmount>640.00</ram:DuePayableAmount>".to_owned(),
    ] {
        assert!(xml.contains(&expected), "{expected} missing in\n{xml}");
    }

    // Its PDF is a PDF/A-3 carrying it; the page prints the new mentions.
    let (status, kind, _, pdf) = raw(&admin, &format!("/invoices/{unexplained}/pdf")).await;
    assert_eq!((status, kind.as_str()), (200, "application/pdf"));
    let bytes = String::from_utf8_lossy(&pdf);
    for expected in [
        "factur-x.xml",
        "/AFRelationship/Alternative",
        "<pdfaid:part>3</pdfaid:part>",
        "<fx:DocumentType>INVOICE</fx:DocumentType>",
        "<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>",
    ] {
        assert!(bytes.contains(expected), "{expected} missing in the PDF");
    }
    let page = pdftotext(&pdf);
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Catégorie de l'opération : prestation de services",
        "Autoliquidation : TVA due par le preneur (article 283-2 nonies du CGI).",
        "N° TVA : FR 96 552 100 554",
    ] {
        assert!(page.contains(expected), "{expected} missing in {page}");
    }

    // A credit note: type 381, the credited invoice referenced (BT-25).
    let credit = world.credit_note(&unexplained, None).await;
    let (status, _, _, body) = raw(&admin, &format!("/invoices/{credit}/facturx.xml")).await;
    assert_eq!(status, 200);
    let xml = text(&body);
    assert!(xml.contains("<ram:TypeCode>381</ram:TypeCode>"), "{xml}");
    assert!(
        xml.contains(&format!(
            "<ram:InvoiceReferencedDocument>\n        <ram:IssuerAssignedID>{number}</ram:IssuerAssignedID>"
        )),
        "{xml}"
    );
    // The credited 0 % line keeps its reason.
    assert!(
        xml.contains("<ram:CategoryCode>AE</ram:CategoryCode>"),
        "{xml}"
    );
}

#[tokio::test]
async fn the_clients_einvoicing_data_are_checked_and_a_buyer_without_siren_is_reported() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let world = World::in_agency(&server, &org.agency_id);
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (status, created) = admin
        .post(
            "/clients",
            json!({ "name": "Mairie de Vienne", "billingCategory": "organisme_public", "siren": BUYER_SIREN }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["client"]["id"].as_str().expect("id").to_owned();
    for (body, error) in [
        (
            json!({ "electronicAddress": "compta@vienne.fr" }),
            "L'adresse de facturation électronique « compta@vienne.fr » contient « @ » : seuls les lettres sans accent, les chiffres et les signes - _ . sont permis (par exemple 732829320 ou 732829320_FACTURES).",
        ),
        (
            json!({ "electronicAddress": "732829320_X" }),
            "L'adresse de facturation électronique « 732829320_X » doit commencer par le SIREN 552100554 (annuaire de la facturation électronique).",
        ),
        (
            json!({ "vatNumber": TEST_VAT_NUMBER }),
            "Le numéro de TVA FR44732829320 n'est pas celui du SIREN du client (552100554).",
        ),
        (
            json!({ "serviceCode": "service comptable" }),
            "Le code service Chorus Pro « service comptable » n'est pas valable : 100 caractères au plus, lettres sans accent, chiffres et signes - _ . seulement.",
        ),
    ] {
        let (status, answer) = admin.patch(&format!("/clients/{id}"), body.clone()).await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (422, Some(error)),
            "{body}"
        );
    }
    // A public body: Chorus Pro, at SIREN_SIRET_SERVICE once both are known.
    let (status, answer) = admin
        .patch(
            &format!("/clients/{id}"),
            json!({ "siret": "55210055400013", "serviceCode": "SERV-01", "vatNumber": "fr 96 552 100 554" }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let client = &answer["client"];
    assert_eq!(client["vatNumber"], BUYER_VAT);
    assert_eq!(client["einvoicing"], "chorus_pro");
    assert_eq!(
        client["effectiveElectronicAddress"],
        "552100554_55210055400013_SERV-01"
    );
    let invoice = world
        .draft_invoice(&id, vec![World::line("Maintenance", 1.0, 100.0, None)])
        .await;
    world.issue_invoice(&invoice).await;
    let (_, _, _, body) = raw(&admin, &format!("/invoices/{invoice}/facturx.xml")).await;
    let xml = text(&body);
    for expected in [
        "<ram:BuyerReference>SERV-01</ram:BuyerReference>",
        "<ram:URIID schemeID=\"0225\">552100554_55210055400013_SERV-01</ram:URIID>",
    ] {
        assert!(xml.contains(expected), "{expected} missing in\n{xml}");
    }

    // A private person: e-reporting, at the agency's own address.
    let (status, created) = admin
        .post("/clients", json!({ "name": "Mme Martin", "id": "CLI-9" }))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["client"]["einvoicing"], "e_reporting");
    assert_eq!(created["client"]["effectiveElectronicAddress"], json!(null));
    // Reverse charge is between companies: refused for her, no number.
    let reversed = world
        .draft_invoice(
            "CLI-9",
            vec![LineInput {
                vat_exemption: Some("autoliquidation".into()),
                ..World::line("Travaux sous-traités", 1.0, 90.0, Some(0.0))
            }],
        )
        .await;
    let (status, body) = admin
        .post(&format!("/invoices/{reversed}/issue"), json!({}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        "Cette facture ne peut pas être émise : la ligne 1 est en autoliquidation, qui ne vaut qu'entre professionnels : renseignez le SIREN ou le numéro de TVA intracommunautaire du client sur sa fiche. Aucun numéro n'a été attribué."
    );
    let invoice = world
        .draft_invoice("CLI-9", vec![World::line("Dépannage", 1.0, 90.0, None)])
        .await;
    world.issue_invoice(&invoice).await;
    let (_, detail) = admin.get(&format!("/invoices/{invoice}")).await;
    let view = &detail["invoice"];
    assert_eq!(view["einvoicing"], "e_reporting");
    assert_eq!(view["buyerElectronicAddress"], "732829320_CLI-9");
    let (_, _, _, body) = raw(&admin, &format!("/invoices/{invoice}/facturx.xml")).await;
    let xml = text(&body);
    for expected in [
        "<ram:Content>B2C</ram:Content>",
        "<ram:URIID schemeID=\"0225\">732829320_CLI-9</ram:URIID>",
        "frais de recouvrement : sans objet (client non professionnel).",
    ] {
        assert!(xml.contains(expected), "{expected} missing in\n{xml}");
    }

    // The agency's own address: its SIREN's, checked.
    let (status, answer) = admin
        .put(
            "/agency/identity",
            json!({ "siret": TEST_SIRET, "vatNumber": TEST_VAT_NUMBER, "address": TEST_ADDRESS, "electronicAddress": "552100554" }),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(
        answer["error"],
        "Champ « electronicAddress » : L'adresse de facturation électronique « 552100554 » doit commencer par le SIREN 732829320 (annuaire de la facturation électronique)."
    );
    let (status, answer) = admin
        .put(
            "/agency/identity",
            json!({ "siret": TEST_SIRET, "vatNumber": TEST_VAT_NUMBER, "address": TEST_ADDRESS, "electronicAddress": "732829320_LYON" }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["identity"]["electronicAddress"], "732829320_LYON");
}
