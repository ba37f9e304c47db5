//! Partner workflow API: `/update_equipment_data`, `/get_equipment_data`
//! and the envelope's refusals (401, 400, 403 changing nothing, 422, 404).

use crate::common;
use crate::wf;

use common::*;
use serde_json::{Value, json};
use wf::*;

fn keys(value: &Value) -> Vec<String> {
    let mut keys: Vec<String> = value.as_object().expect("object").keys().cloned().collect();
    keys.sort();
    keys
}

#[tokio::test]
async fn get_equipment_data_answers_the_available_fields_and_the_knowledge_rate() {
    let s = setup().await;
    lift(&s.server, &s.agency, "ASC 001").await;
    let data = success(
        post(
            &s.server,
            &s.key,
            "/get_equipment_data",
            &json!({ "agency_id": s.agency, "equipment_number": "asc001" }),
        )
        .await,
    );
    // Nothing surveyed, no building: the contract and the rate only.
    assert_eq!(
        data,
        json!({ "contrat_entretien": "Parc", "taux_connaissance": 0.0 })
    );
}

#[tokio::test]
async fn update_equipment_data_writes_every_kind_of_field_and_moves_the_knowledge_rate() {
    let s = setup().await;
    lift(&s.server, &s.agency, "ASC-7").await;
    let get_body = json!({ "agency_id": s.agency, "equipment_number": "ASC-7" });
    let get = || post(&s.server, &s.key, "/get_equipment_data", &get_body);
    let before = success(get().await);
    let rate_before = before["taux_connaissance"].as_f64().expect("rate");
    let answer = success(
        post(
            &s.server,
            &s.key,
            "/update_equipment_data",
            &json!({
                "agency_id": s.agency,
                "equipment_number": "ASC-7",
                "adresse": "12 rue de la Paix, 75002 Paris",
                "complement_adresse": "Bâtiment B",
                "nom_immeuble": "Résidence Opéra",
                "charge_utile": 630,
                "course": 18.5,
                "implantation_machinerie": "Sans (MRL)",
                "marque": "Otis",
                "modele": "Gen2",
                "nombre_faces_de_service": 1,
                "nombre_niveaux": 7,
                "nombre_personnes": 8,
                "type_entrainement": "Electrique",
                "vitesse": 1.0,
                "contrat_entretien": "Hors parc"
            }),
        )
        .await,
    );
    assert_eq!(answer, json!({}));
    let after = success(get().await);
    assert_eq!(
        keys(&after),
        [
            "adresse",
            "charge_utile",
            "complement_adresse",
            "contrat_entretien",
            "course",
            "implantation_machinerie",
            "marque",
            "modele",
            "nom_immeuble",
            "nombre_faces_de_service",
            "nombre_niveaux",
            "nombre_personnes",
            "taux_connaissance",
            "type_entrainement",
            "vitesse"
        ]
    );
    assert_eq!(after["implantation_machinerie"], "Sans (MRL)");
    assert_eq!(after["type_entrainement"], "Electrique");
    assert_eq!(after["contrat_entretien"], "Hors parc");
    assert_eq!(after["adresse"], "12 rue de la Paix, 75002 Paris");
    assert_eq!(after["charge_utile"].as_f64(), Some(630.0));
    let rate_after = after["taux_connaissance"].as_f64().expect("rate");
    assert!(rate_after > rate_before, "{rate_before} → {rate_after}");
    // The write is audited as the partner key's.
    let conn = open_db(s.server.data_dir.path());
    let audited: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM audit_log WHERE actor_kind = 'partner_key'",
            [],
            |r| r.get(0),
        )
        .expect("audit");
    assert!(audited >= 1);
}

#[tokio::test]
async fn update_equipment_data_refuses_values_outside_each_allowed_list_and_the_rate() {
    let s = setup().await;
    lift(&s.server, &s.agency, "E1").await;
    let before = snapshot(&s.server);
    for (field, value) in [
        ("implantation_machinerie", json!("Au sous-sol")),
        ("type_entrainement", json!("Diesel")),
        ("contrat_entretien", json!("Parcs")),
        ("charge_utile", json!("lourde")),
        ("nombre_niveaux", json!(true)),
        ("marque", json!(12)),
        ("taux_connaissance", json!(50)),
        ("couleur", json!("rouge")),
    ] {
        let mut body = json!({ "agency_id": s.agency, "equipment_number": "E1" });
        body[field] = value;
        let message = error(
            post(&s.server, &s.key, "/update_equipment_data", &body).await,
            422,
        );
        assert!(message.contains(field), "{field}: {message}");
    }
    for allowed in ["Haute", "Basse", "Latérale", "Sans (MRL)"] {
        let body = json!({ "agency_id": s.agency, "equipment_number": "E1", "implantation_machinerie": allowed });
        success(post(&s.server, &s.key, "/update_equipment_data", &body).await);
    }
    for allowed in ["Electrique", "Hydraulique"] {
        let body = json!({ "agency_id": s.agency, "equipment_number": "E1", "type_entrainement": allowed });
        success(post(&s.server, &s.key, "/update_equipment_data", &body).await);
    }
    for allowed in ["Parc", "Hors parc"] {
        let body = json!({ "agency_id": s.agency, "equipment_number": "E1", "contrat_entretien": allowed });
        success(post(&s.server, &s.key, "/update_equipment_data", &body).await);
    }
    assert_ne!(before, snapshot(&s.server));
}

#[tokio::test]
async fn required_fields_unknown_equipment_malformed_body_and_bad_key() {
    let s = setup().await;
    lift(&s.server, &s.agency, "E1").await;
    let other = lift(&s.server, &s.other_agency, "E2").await;
    for path in ["/update_equipment_data", "/get_equipment_data"] {
        let message = error(
            post(
                &s.server,
                &s.key,
                path,
                &json!({ "equipment_number": "E1" }),
            )
            .await,
            422,
        );
        assert!(message.contains("agency_id"), "{message}");
        let message = error(
            post(&s.server, &s.key, path, &json!({ "agency_id": s.agency })).await,
            422,
        );
        assert!(message.contains("equipment_number"), "{message}");
        let message = error(
            post(
                &s.server,
                &s.key,
                path,
                &json!({ "agency_id": s.agency, "equipment_number": "INCONNU" }),
            )
            .await,
            404,
        );
        assert_eq!(message, "Équipement introuvable dans cette agence.");
        error(
            post_raw(&s.server, Some(&s.key), path, "{\"agency_id\": ").await,
            400,
        );
        error(post_raw(&s.server, Some(&s.key), path, "[]").await, 400);
        let message = error(
            post_raw(
                &s.server,
                Some("svc_partner_00000000000000000000000000000000"),
                path,
                &json!({ "agency_id": s.agency, "equipment_number": "E1" }).to_string(),
            )
            .await,
            401,
        );
        assert!(message.contains("Clé"), "{message}");
        error(
            post_raw(
                &s.server,
                None,
                path,
                &json!({ "agency_id": s.agency, "equipment_number": "E1" }).to_string(),
            )
            .await,
            401,
        );
    }
    // The other agency's equipment is out of reach even by its number.
    assert!(!other.is_empty());
}

#[tokio::test]
async fn an_agency_not_attributed_to_the_key_is_refused_and_nothing_changes() {
    let s = setup().await;
    lift(&s.server, &s.other_agency, "E2").await;
    let before = snapshot(&s.server);
    let message = error(
        post(
            &s.server,
            &s.key,
            "/update_equipment_data",
            &json!({ "agency_id": s.other_agency, "equipment_number": "E2", "marque": "Kone" }),
        )
        .await,
        403,
    );
    assert_eq!(
        message,
        "Cette agence n'est pas attribuée à cette clé partenaire."
    );
    error(
        post(
            &s.server,
            &s.key,
            "/get_equipment_data",
            &json!({ "agency_id": s.other_agency, "equipment_number": "E2" }),
        )
        .await,
        403,
    );
    error(
        post(
            &s.server,
            &s.key,
            "/get_opportunities_stats",
            &json!({ "agency_id": s.other_agency }),
        )
        .await,
        403,
    );
    assert_eq!(before, snapshot(&s.server));
}
