//! Partner workflow API: `/update_client` and `/get_client`.

use crate::common;
use crate::wf;

use liftdesk::domain::siren::luhn_complete;
use serde_json::{Value, json};
use wf::*;

fn valid_siren() -> String {
    luhn_complete("73282932")
}

fn valid_siret() -> String {
    luhn_complete(&format!("{}0007", valid_siren()))
}

async fn get_client(s: &Setup, body: Value) -> Value {
    let mut body = body;
    body["agency_id"] = json!(s.agency);
    success(post(&s.server, &s.key, "/get_client", &body).await)
}

async fn update(s: &Setup, body: Value) -> (u16, Value) {
    let mut body = body;
    body["agency_id"] = json!(s.agency);
    post(&s.server, &s.key, "/update_client", &body).await
}

#[tokio::test]
async fn creates_then_updates_a_client_with_contacts_and_reads_the_full_record() {
    let s = setup().await;
    let answer = success(
        update(
            &s,
            json!({
                "client_id": "CLI-42",
                "nom": "Syndic Étoile",
                "statut": "Prospect",
                "type": ["Gestionnaire"],
                "email": "contact@etoile.fr",
                "telephone": "01 02 03 04 05",
                "adresse": "3 avenue Foch, 75016 Paris",
                "complement_adresse": "CS 123",
                "siren": valid_siren(),
                "siret": valid_siret(),
                "contact": [
                    { "nom": "Jeanne Martin", "email": "jeanne@etoile.fr", "fonction": "Gardienne" },
                    { "nom": "Paul Durand", "telephone": "06 00 00 00 00" }
                ]
            }),
        )
        .await,
    );
    assert_eq!(answer, json!({}));
    let records = get_client(&s, json!({ "client_id": "CLI-42" })).await;
    assert_eq!(
        records,
        json!([{
            "client_id": "CLI-42",
            "nom": "Syndic Étoile",
            "statut": "Prospect",
            "type": ["Gestionnaire"],
            "email": "contact@etoile.fr",
            "telephone": "01 02 03 04 05",
            "adresse": "3 avenue Foch, 75016 Paris",
            "complement_adresse": "CS 123",
            "siren": valid_siren(),
            "siret": valid_siret(),
            "supprime": false,
            "contact": [
                { "nom": "Jeanne Martin", "email": "jeanne@etoile.fr", "telephone": null, "fonction": "Gardienne" },
                { "nom": "Paul Durand", "email": null, "telephone": "06 00 00 00 00", "fonction": null }
            ]
        }])
    );
    // By name (no client_id): the same client is updated, its contact matched
    // by name, a new contact added, a field erased.
    success(
        update(
            &s,
            json!({
                "nom": "SYNDIC ETOILE",
                "statut": "Client",
                "complement_adresse": null,
                "contact": [
                    { "nom": "jeanne martin", "telephone": "07 11 11 11 11" },
                    { "nom": "Luc Petit" }
                ]
            }),
        )
        .await,
    );
    let records = get_client(&s, json!({ "nom": "étoi" })).await;
    let records = records.as_array().expect("array");
    assert_eq!(records.len(), 1);
    let client = &records[0];
    assert_eq!(client["nom"], "SYNDIC ETOILE");
    assert_eq!(client["statut"], "Client");
    assert_eq!(client["complement_adresse"], Value::Null);
    assert_eq!(client["siren"], json!(valid_siren()));
    let contacts = client["contact"].as_array().expect("contacts");
    assert_eq!(contacts.len(), 3);
    assert_eq!(contacts[0]["telephone"], "07 11 11 11 11");
    assert_eq!(contacts[0]["email"], "jeanne@etoile.fr");
    assert_eq!(contacts[2]["nom"], "Luc Petit");
    // A client without client_id gets one.
    success(update(&s, json!({ "nom": "Foncière Lumière" })).await);
    let found = get_client(&s, json!({ "nom": "lumiere" })).await;
    assert!(
        found[0]["client_id"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );
    assert_eq!(found[0]["contact"], json!([]));
    assert_eq!(
        get_client(&s, json!({ "nom": "introuvable" })).await,
        json!([])
    );
    assert_eq!(
        get_client(&s, json!({ "client_id": "NOPE" })).await,
        json!([])
    );
}

#[tokio::test]
async fn archives_and_restores() {
    let s = setup().await;
    success(update(&s, json!({ "client_id": "C1", "nom": "Gérance Azur" })).await);
    success(update(&s, json!({ "client_id": "C1", "supprime": true })).await);
    let found = get_client(&s, json!({ "nom": "azur" })).await;
    assert_eq!(found[0]["supprime"], true);
    assert_eq!(found[0]["nom"], "Gérance Azur");
    success(update(&s, json!({ "client_id": "C1", "supprime": false })).await);
    let found = get_client(&s, json!({ "client_id": "C1" })).await;
    assert_eq!(found[0]["supprime"], false);
    let conn = common::open_db(s.server.data_dir.path());
    let actions: Vec<String> = conn
        .prepare("SELECT action FROM audit_log WHERE object_type = 'client' ORDER BY seq")
        .and_then(|mut stmt| {
            stmt.query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()
        })
        .expect("audit");
    assert_eq!(
        actions,
        ["client.create", "client.archive", "client.restore"]
    );
}

#[tokio::test]
async fn refuses_bad_identifiers_values_and_missing_names_changing_nothing() {
    let s = setup().await;
    let before = snapshot(&s.server);
    let mut bad_siren = valid_siren();
    bad_siren.replace_range(8..9, if bad_siren.ends_with('0') { "1" } else { "0" });
    let other_siret = luhn_complete("5520146400012");
    for (body, field) in [
        (json!({ "statut": "Client" }), "client_id"),
        (json!({ "client_id": "NEW" }), "nom"),
        (json!({ "nom": "X", "siren": "12345678" }), "siren"),
        (json!({ "nom": "X", "siren": "73282932A" }), "siren"),
        (json!({ "nom": "X", "siren": bad_siren }), "siren"),
        (json!({ "nom": "X", "siret": "1234567890123" }), "siret"),
        (json!({ "nom": "X", "siret": "73282932000075" }), "siret"),
        (
            json!({ "nom": "X", "siren": valid_siren(), "siret": other_siret }),
            "siret",
        ),
        (json!({ "nom": "X", "statut": "Ancien" }), "statut"),
        (json!({ "nom": "X", "type": ["Locataire"] }), "type"),
        (json!({ "nom": "X", "type": "Gestionnaire" }), "type"),
        (json!({ "nom": "X", "email": "pas-un-email" }), "email"),
        (json!({ "nom": "X", "supprime": "oui" }), "supprime"),
        (
            json!({ "nom": "X", "contact": [{ "email": "a@b.fr" }] }),
            "contact[0].nom",
        ),
        (
            json!({ "nom": "X", "contact": [{ "nom": "  " }] }),
            "contact[0].nom",
        ),
        (
            json!({ "nom": "X", "contact": [{ "nom": "A", "age": 3 }] }),
            "age",
        ),
    ] {
        let message = error(update(&s, body.clone()).await, 422);
        assert!(message.contains(field), "{body}: {message}");
    }
    let message = error(
        post(
            &s.server,
            &s.key,
            "/get_client",
            &json!({ "agency_id": s.agency }),
        )
        .await,
        422,
    );
    assert!(
        message.contains("client_id") && message.contains("nom"),
        "{message}"
    );
    // Another agency: refused, nothing changes.
    let message = error(
        post(
            &s.server,
            &s.key,
            "/update_client",
            &json!({ "agency_id": s.other_agency, "nom": "Intrus" }),
        )
        .await,
        403,
    );
    assert!(message.contains("agence"), "{message}");
    error(
        post(
            &s.server,
            &s.key,
            "/get_client",
            &json!({ "agency_id": s.other_agency, "nom": "a" }),
        )
        .await,
        403,
    );
    error(
        post_raw(&s.server, Some(&s.key), "/update_client", "{nom").await,
        400,
    );
    error(post_raw(&s.server, None, "/get_client", "{}").await, 401);
    assert_eq!(before, snapshot(&s.server));
    // Both allowed lists pass.
    for statut in ["Prospect", "Client"] {
        success(update(&s, json!({ "nom": "Y", "statut": statut })).await);
    }
    success(
        update(
            &s,
            json!({ "nom": "Y", "type": ["Propriétaire/exploitant", "Gestionnaire"] }),
        )
        .await,
    );
    let found = get_client(&s, json!({ "nom": "y" })).await;
    assert_eq!(
        found[0]["type"],
        json!(["Propriétaire/exploitant", "Gestionnaire"])
    );
}
