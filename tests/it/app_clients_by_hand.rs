//! Clients and contacts made and changed by hand on the Clients screen
//! (`POST`/`PATCH /app/api/clients…`, `PATCH`/`DELETE /app/api/contacts/{id}`,
//! `services::clients::{create_by_hand, edit_by_hand}`,
//! `services::contacts::{edit_for, remove_for}`): every partner API field and
//! the invoicing category, the SIREN and SIRET checked, names unique in the
//! agency, only the given fields changed, an archived client left alone,
//! French refusals with nothing written, the audit, a member's rights and
//! another agency's 404.

use crate::common;

use common::app::StaffClient;
use common::*;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

fn rows(server: &TestServer, sql: &str) -> i64 {
    open_db(server.data_dir.path())
        .query_row(sql, [], |r| r.get(0))
        .expect("count")
}

#[tokio::test]
async fn a_member_creates_and_edits_a_client_with_every_field_and_its_invoicing_category() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;

    // Refusals: a French 422 (or 409) naming the field, nothing written.
    let cases = [
        (
            json!({ "siren": "732829320" }),
            "Le champ « nom » est obligatoire.",
        ),
        (json!({ "name": "  " }), "Le champ « nom » est obligatoire."),
        (
            json!({ "name": "X", "siren": "732829321" }),
            "Champ « siren » : Le SIREN n'est pas valide (clé de contrôle incorrecte).",
        ),
        (
            json!({ "name": "X", "siren": "552100554", "siret": "73282932000074" }),
            "Le champ « siret » doit commencer par le SIREN du client (champ « siren »).",
        ),
        (
            json!({ "name": "X", "email": "pas-une-adresse" }),
            "Le champ « email » n'est pas une adresse e-mail valide.",
        ),
        (
            json!({ "name": "X", "billingCategory": "association" }),
            "Catégorie de facturation inconnue : « association ». Valeurs possibles : entreprise (Entreprise assujettie à la TVA), copropriete (Copropriété non assujettie à la TVA), organisme_public (Organisme public).",
        ),
    ];
    for (body, error) in cases {
        let (status, answer) = staff.post("/clients", body.clone()).await;
        assert_eq!((status, answer), (422, json!({ "error": error })), "{body}");
    }
    let (status, answer) = staff
        .post("/clients", json!({ "name": "X", "nom": "X" }))
        .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(rows(&server, "SELECT COUNT(*) FROM clients"), 0);
    assert_eq!(
        rows(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE object_type = 'client'"
        ),
        0
    );

    let (status, created) = staff
        .post(
            "/clients",
            json!({
                "name": " Copropriété Les Tilleuls ", "status": "Prospect", "categories": ["Propriétaire/exploitant"],
                "email": "cs@tilleuls.fr", "phone": "01 47 00 00 00", "address": "12 rue des Tilleuls, 69003 Lyon",
                "addressComplement": "Bâtiment A", "siren": "732829320", "siret": "73282932000074",
                "billingCategory": "copropriete"
            }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    // Without an identifier, the agency's next `CLI-` number.
    let reference = str_of(&created["client"], "id").to_owned();
    assert_eq!(reference, "CLI-000001");
    assert_eq!(
        created["client"],
        json!({
            "id": reference, "name": "Copropriété Les Tilleuls", "status": "Prospect",
            "categories": ["Propriétaire/exploitant"], "email": "cs@tilleuls.fr", "phone": "01 47 00 00 00",
            // Given whole, the address is stored in parts.
            "address": "12 rue des Tilleuls", "addressComplement": "Bâtiment A",
            "postalCode": "69003", "city": "Lyon",
            "fullAddress": "12 rue des Tilleuls, Bâtiment A, 69003 Lyon",
            "siren": "732829320", "siret": "73282932000074", "billingCategory": "copropriete",
            "billingCategoryLabel": "Copropriété non assujettie à la TVA", "archived": false,
            // A co-ownership not subject to VAT: e-reporting; its address
            // in the directory is its SIREN until another is recorded.
            "vatNumber": null, "electronicAddress": null, "serviceCode": null,
            "effectiveElectronicAddress": "732829320", "einvoicing": "e_reporting",
            "einvoicingExplanation": "Client sans SIREN ou non assujetti à la TVA : la facture lui est remise comme aujourd'hui, et ses données sont transmises à l'administration par la plateforme de l'agence (e-reporting).",
            "url": created["client"]["url"],
        })
    );
    assert_eq!(created["contacts"], json!([]));
    // The partner workflow API and the REST list see the same client.
    let (_, page) = server
        .get_with("/api/v2/clients?q=tilleuls", Some(&org.admin_token), None)
        .await;
    assert_eq!(page["results"][0]["name"], "Copropriété Les Tilleuls");

    // A name already taken (case and accents aside), an identifier too.
    let (status, answer) = staff
        .post("/clients", json!({ "name": "COPROPRIETE les tilleuls" }))
        .await;
    assert_eq!(
        (status, answer),
        (
            409,
            json!({ "error": "Un client de l'agence s'appelle déjà « Copropriété Les Tilleuls » : choisissez un autre nom ou ouvrez sa fiche." })
        )
    );
    let (status, other) = staff
        .post("/clients", json!({ "name": "Mairie de Vienne", "id": "CLI-77", "billingCategory": "organisme_public" }))
        .await;
    assert_eq!((status, &other["client"]["id"]), (201, &json!("CLI-77")));
    let (_, third) = staff
        .post("/clients", json!({ "name": "Hôtel du Parc" }))
        .await;
    assert_eq!(third["client"]["id"], "CLI-000078");
    let (status, answer) = staff
        .post("/clients", json!({ "name": "Autre", "id": "CLI-77" }))
        .await;
    assert_eq!(
        (status, answer),
        (
            409,
            json!({ "error": "L'identifiant client « CLI-77 » est déjà celui d'un autre client de l'agence." })
        )
    );

    // Edited: only what is given changes; null erases.
    let path = format!("/clients/{reference}");
    let (status, edited) = staff
        .patch(&path, json!({ "phone": "04 78 00 00 00", "addressComplement": null, "status": "Client", "billingCategory": null }))
        .await;
    assert_eq!(status, 200, "{edited}");
    let client = &edited["client"];
    assert_eq!(
        (
            &client["phone"],
            &client["addressComplement"],
            &client["status"],
            &client["billingCategory"],
            &client["email"],
            &client["siret"]
        ),
        (
            &json!("04 78 00 00 00"),
            &Value::Null,
            &json!("Client"),
            &Value::Null,
            &json!("cs@tilleuls.fr"),
            &json!("73282932000074")
        )
    );
    for (body, status, error) in [
        (
            json!({ "name": "mairie de vienne" }),
            409,
            "Un client de l'agence s'appelle déjà « Mairie de Vienne » : choisissez un autre nom ou ouvrez sa fiche.",
        ),
        (
            json!({ "name": "" }),
            422,
            "Le champ « nom » est obligatoire.",
        ),
        (
            json!({ "siren": "552100554" }),
            422,
            "Le champ « siret » doit commencer par le SIREN du client (champ « siren »).",
        ),
        (
            json!({ "id": "CLI-9" }),
            422,
            "L'identifiant client (« id ») ne se change pas : il est donné à la création.",
        ),
    ] {
        let (got, answer) = staff.patch(&path, body.clone()).await;
        assert_eq!((got, answer), (status, json!({ "error": error })), "{body}");
    }
    let (status, answer) = staff
        .patch("/clients/inconnu", json!({ "phone": "01" }))
        .await;
    assert_eq!(
        (status, answer),
        (404, json!({ "error": "Client introuvable." }))
    );

    // An archived client is restored before it is changed.
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (status, _) = admin.post("/clients/CLI-77/archive", json!({})).await;
    assert_eq!(status, 200);
    let (status, answer) = staff
        .patch("/clients/CLI-77", json!({ "phone": "01" }))
        .await;
    assert_eq!(
        (status, answer),
        (
            409,
            json!({ "error": "Le client « Mairie de Vienne » est archivé : restaurez-le avant de le modifier." })
        )
    );

    // The audit names the client by its internal id.
    let internal: String = open_db(server.data_dir.path())
        .query_row(
            "SELECT id FROM clients WHERE client_ref = ?1",
            [&reference],
            |r| r.get(0),
        )
        .expect("client");
    let actions: Vec<String> = audit_of(&server, "client", &internal)
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(actions, ["client.create", "client.update"]);
}

#[tokio::test]
async fn contacts_are_edited_and_removed_in_their_clients_agency_only() {
    let server = TestServer::start().await;
    init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let staff = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "admin@autre.fr", PASSWORD).await;
    let (status, _) = staff
        .post(
            "/clients",
            json!({ "name": "Syndic Dupont", "id": "CLI-1" }),
        )
        .await;
    assert_eq!(status, 201);
    for name in ["Jean Gardien", "Anne Conseil"] {
        let (status, body) = staff
            .post(
                "/contacts",
                json!({ "parentId": "CLI-1", "champs": { "nom": name, "email": "jean@dupont.fr", "fonction": "Gardien" } }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let (_, detail) = staff.get("/clients/CLI-1").await;
    let jean = str_of(&detail["contacts"][0], "id").to_owned();
    let anne = str_of(&detail["contacts"][1], "id").to_owned();
    let path = format!("/contacts/{jean}");

    // Another organization: 404, nothing changed.
    let not_found = json!({ "error": "Contact introuvable." });
    assert_eq!(
        other.patch(&path, json!({ "role": "Pirate" })).await,
        (404, not_found.clone())
    );
    assert_eq!(other.delete(&path).await, (404, not_found.clone()));

    for (body, error) in [
        (json!({ "name": " " }), "Le champ « nom » est obligatoire."),
        (
            json!({ "name": "anne CONSEIL" }),
            "Le client « Syndic Dupont » a déjà un contact nommé « Anne Conseil » (champ « nom »).",
        ),
        (
            json!({ "email": "jean@" }),
            "Le champ « email » n'est pas une adresse e-mail valide.",
        ),
    ] {
        assert_eq!(
            staff.patch(&path, body.clone()).await,
            (422, json!({ "error": error })),
            "{body}"
        );
    }
    let (status, contact) = staff
        .patch(
            &path,
            json!({ "role": "Gardien principal", "phone": "06 12 34 56 78", "email": null }),
        )
        .await;
    assert_eq!(
        (status, contact),
        (
            200,
            json!({ "id": jean, "name": "Jean Gardien", "email": null, "phone": "06 12 34 56 78", "role": "Gardien principal" })
        )
    );
    let log = audit_of(&server, "contact", &jean);
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(
        log[1],
        (
            "modification".to_owned(),
            json!({ "client_id": "CLI-1", "changes": {
                "email": { "before": "jean@dupont.fr", "after": null },
                "telephone": { "before": null, "after": "06 12 34 56 78" },
                "fonction": { "before": "Gardien", "after": "Gardien principal" },
            } })
        )
    );
    // The same values again: nothing recorded.
    let (status, _) = staff
        .patch(&path, json!({ "role": "Gardien principal" }))
        .await;
    assert_eq!(status, 200);
    assert_eq!(audit_of(&server, "contact", &jean).len(), 2);

    let (status, body) = staff.delete(&format!("/contacts/{anne}")).await;
    assert_eq!((status, body), (204, Value::Null));
    assert_eq!(
        staff.delete(&format!("/contacts/{anne}")).await,
        (404, not_found.clone())
    );
    let (_, detail) = staff.get("/clients/CLI-1").await;
    assert_eq!(detail["contacts"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        audit_of(&server, "contact", &anne)[1],
        (
            "suppression".to_owned(),
            json!({ "client_id": "CLI-1", "nom": "Anne Conseil", "email": "jean@dupont.fr", "telephone": null, "fonction": "Gardien" })
        )
    );

    // An archived client's contacts stay as they are.
    let (status, _) = staff.post("/clients/CLI-1/archive", json!({})).await;
    assert_eq!(status, 200);
    let refusal = json!({ "error": "Le client « Syndic Dupont » est archivé : restaurez-le avant de modifier ses contacts." });
    assert_eq!(
        staff.patch(&path, json!({ "role": "X" })).await,
        (409, refusal.clone())
    );
    assert_eq!(staff.delete(&path).await, (409, refusal));
}
