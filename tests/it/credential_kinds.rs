//! The call-center key and partner key extractors, each on a probe route of
//! a real server, and the knowledge rate derived from the catalog.

use crate::common;

use axum::Router;
use axum::routing::{get, post};
use common::world::World;
use common::*;
use liftdesk::auth::call_center_key::CallCenterCaller;
use liftdesk::auth::partner_key::{PartnerCaller, WorkflowError};
use liftdesk::services::equipment::NewEquipment;
use liftdesk::state::AppState;
use liftdesk::store::equipment::IdentityRow;
use serde_json::{Value, json};

async fn probe_call_center(caller: CallCenterCaller) -> axum::Json<Value> {
    axum::Json(
        json!({ "agency": caller.principal.agency.as_ref().map(|a| a.id.clone()), "center": caller.call_center_name }),
    )
}

async fn probe_partner(
    caller: PartnerCaller,
    axum::Json(body): axum::Json<Value>,
) -> Result<axum::Json<Value>, WorkflowError> {
    caller.authorize_agency(body["agency_id"].as_str().unwrap_or_default())?;
    Ok(axum::Json(
        json!({ "status": "success", "response": { "partner": caller.partner_name } }),
    ))
}

async fn start_probe(data_dir: &std::path::Path) -> String {
    let store = crate::common::open_store(data_dir);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = liftdesk::server::base_url_of(&listener).expect("addr");
    let router = Router::new()
        .route("/probe/call-center", get(probe_call_center))
        .route("/probe/partner", post(probe_partner))
        .with_state(AppState::new(store, base.clone()));
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

#[tokio::test]
async fn call_center_keys_open_only_their_agency_and_die_on_revocation() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let key = cli_json(
        dir.path(),
        &[
            "call-center-key",
            "create",
            "--agency",
            &org.agency_id,
            "--name",
            "Astreinte Plus",
        ],
    );
    let key_text = str_of(&key, "key").to_owned();
    let base = start_probe(dir.path()).await;
    let client = crate::common::http_client();
    let call = |auth: Option<String>| {
        let mut request = client.get(format!("{base}/probe/call-center"));
        if let Some(auth) = auth {
            request = request.header("Authorization", auth);
        }
        request.send()
    };

    let response = call(Some(format!("bearer {key_text}")))
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.json::<Value>().await.expect("json"),
        json!({ "agency": org.agency_id, "center": "Astreinte Plus" })
    );

    let unauthorized = json!({ "error": "Authentification requise : clé de centre d'appels manquante, inconnue ou révoquée." });
    for auth in [
        None,
        Some(format!("Bearer svc_{}", "x".repeat(32))),
        // An API token is not a call-center key.
        Some(format!("Bearer {}", org.admin_token)),
    ] {
        let response = call(auth.clone()).await.expect("request");
        assert_eq!(response.status().as_u16(), 401, "{auth:?}");
        assert_eq!(response.json::<Value>().await.expect("json"), unauthorized);
    }
    cli_json(dir.path(), &["token", "revoke", "--id", str_of(&key, "id")]);
    let response = call(Some(format!("Bearer {key_text}")))
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401, "revocation is immediate");
}

#[tokio::test]
async fn partner_keys_act_only_on_their_agencies_in_the_workflow_envelope() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let other = cli_json(
        dir.path(),
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Non attribuée",
        ],
    );
    let key = cli_json(
        dir.path(),
        &[
            "partner-key",
            "create",
            "--name",
            "GMAO",
            "--agency",
            &org.agency_id,
        ],
    );
    let key_text = str_of(&key, "key").to_owned();
    let base = start_probe(dir.path()).await;
    let client = crate::common::http_client();
    let call = |key: Option<&str>, agency: &str| {
        let mut request = client
            .post(format!("{base}/probe/partner"))
            .json(&json!({ "agency_id": agency }));
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        request.send()
    };

    let response = call(Some(&key_text), &org.agency_id)
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.json::<Value>().await.expect("json"),
        json!({ "status": "success", "response": { "partner": "GMAO" } })
    );

    let response = call(Some(&key_text), str_of(&other, "id"))
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    assert_eq!(
        response.json::<Value>().await.expect("json"),
        json!({ "status": "error", "message": "Cette agence n'est pas attribuée à cette clé partenaire." })
    );
    for bad in [
        None,
        Some("svc_partner_inconnue"),
        Some(org.admin_token.as_str()),
    ] {
        let response = call(bad, &org.agency_id).await.expect("request");
        assert_eq!(response.status().as_u16(), 401, "{bad:?}");
        assert_eq!(
            response.json::<Value>().await.expect("json"),
            json!({ "status": "error", "message": "Clé d'API partenaire manquante, inconnue ou révoquée." })
        );
    }
    cli_json(dir.path(), &["token", "revoke", "--id", str_of(&key, "id")]);
    assert_eq!(
        call(Some(&key_text), &org.agency_id)
            .await
            .expect("request")
            .status()
            .as_u16(),
        401
    );
}

#[tokio::test]
async fn the_knowledge_rate_counts_surveyed_fields_over_the_fields_of_the_type() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let other = init_org(dir.path(), "Autre", "admin@autre.fr");
    let conn = open_db(dir.path());
    let store = crate::common::open_store(dir.path());
    let world = World::of_store(&store, &org.agency_id);
    // The equipment numbered « eq-lift » and « eq-door », by number.
    let mut ids = std::collections::HashMap::new();
    for (number, kind) in [("eq-lift", "ascenseur"), ("eq-door", "porte_fermeture")] {
        let id = world
            .equipment_with(NewEquipment {
                identity: IdentityRow {
                    number: Some(number.to_owned()),
                    equipment_type: Some(kind.to_owned()),
                    ..IdentityRow::default()
                },
                ..NewEquipment::default()
            })
            .await;
        ids.insert(number, id);
    }
    let applicable = |kind: &str| -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM technical_fields WHERE applies_to IS NULL OR (',' || applies_to || ',') LIKE ('%,' || ?1 || ',%')",
            [kind],
            |r| r.get(0),
        )
        .expect("count")
    };
    let lift_fields = applicable("ascenseur");
    let door_fields = applicable("porte_fermeture");
    assert!(
        door_fields < lift_fields,
        "lift-only fields do not apply to a door"
    );

    let rate = |equipment: &str, agency: &str| {
        store
            .read_blocking(|c| {
                liftdesk::store::equipment::knowledge_rate(
                    c,
                    &liftdesk::domain::id::AgencyId::new(agency),
                    &liftdesk::domain::id::EquipmentId::new(ids[equipment].as_str()),
                )
            })
            .expect("rate")
    };
    assert_eq!(rate("eq-lift", &org.agency_id), Some(0.0));
    for equipment in ["eq-lift", "eq-door"] {
        world
            .technical_data(
                &ids[equipment],
                json!({ "charge_utile": 630, "vitesse": 1.0, "marque": "Otis" }),
            )
            .await;
    }
    let expected = |surveyed: usize, catalog: i64| {
        liftdesk::domain::knowledge::knowledge_rate(surveyed, catalog as usize)
    };
    assert_eq!(
        rate("eq-lift", &org.agency_id),
        Some(expected(3, lift_fields))
    );
    // On a door only the make counts: the load and speed are not door data.
    assert_eq!(
        rate("eq-door", &org.agency_id),
        Some(expected(1, door_fields))
    );
    assert!(rate("eq-lift", &org.agency_id).is_some_and(|r| r > 0.0 && r < 100.0));
    // Another agency's equipment is not found.
    assert_eq!(rate("eq-lift", &other.agency_id), None);
}
