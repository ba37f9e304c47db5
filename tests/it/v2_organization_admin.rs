//! The agency's administration through the REST API v2 and MCP, as on the
//! screens (`wire::{buildings, identity, people, technicians, agencies}`):
//! buildings, the agency's identity, technicians' records, people, the
//! organization's agencies. Each operation's rights (member, agency
//! administrator, organization administrator, another organization) and
//! its bad inputs, refused in French with nothing changed.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{Value, json};

fn count(server: &TestServer, sql: &str) -> i64 {
    open_db(server.data_dir.path())
        .query_row(sql, [], |r| r.get(0))
        .expect("count")
}

fn token_of(server: &TestServer, email: &str) -> String {
    str_of(
        &server.cli_json(&["token", "create", "--email", email, "--name", "essai"]),
        "token",
    )
    .to_owned()
}

#[tokio::test]
async fn buildings_identity_technicians_people_and_agencies_through_rest_and_mcp() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    member(&server, &org.agency_id, "chef@durand.fr", &["--admin"]);
    let admin = org.admin_token.clone();
    let staff = token_of(&server, "membre@durand.fr");
    let chief = token_of(&server, "chef@durand.fr");
    let outsider = other.admin_token.clone();

    // Buildings: any staff member creates one; another organization finds none.
    let (status, body) = server
        .v2(
            Method::POST,
            "/buildings",
            &staff,
            Some(json!({ "city": "Lyon" })),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().expect("error").contains("address"),
        "{body}"
    );
    assert_eq!(count(&server, "SELECT COUNT(*) FROM buildings"), 0);
    let (status, building) = server
        .v2(
            Method::POST,
            "/buildings",
            &staff,
            Some(json!({ "name": "Résidence des Tilleuls", "address": "12 rue des Tilleuls", "postalCode": "69003", "city": "Lyon",
                         "access": { "instructions": ["Digicode"], "digicode": "4521B" } })),
        )
        .await;
    assert_eq!(status, 201, "{building}");
    let building_id = str_of(&building, "id").to_owned();
    assert_eq!(building["access"]["digicode"], "4521B");
    let (status, found) = server
        .v2(Method::GET, "/buildings?q=tilleuls", &staff, None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(found["total"], 1);
    let (status, changed) = server
        .v2(
            Method::PUT,
            &format!("/buildings/{building_id}/access"),
            &staff,
            Some(json!({ "instructions": ["Vigik"] })),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["access"]["instructions"], json!(["Vigik"]));
    assert_eq!(
        server
            .v2(
                Method::GET,
                &format!("/buildings/{building_id}"),
                &outsider,
                None
            )
            .await
            .0,
        404
    );
    assert_eq!(
        server
            .v2(Method::GET, "/buildings?q=tilleuls", &outsider, None)
            .await
            .1["total"],
        0
    );

    // MCP: the same buildings.
    let client = common::mcp::connect(&server, &staff, None).await;
    let (error, listed) = common::mcp::json_of(
        &common::mcp::call(&client, "immeubles", json!({ "q": "tilleuls" })).await,
    );
    assert!(!error, "{listed}");
    assert_eq!(listed["results"][0]["id"], json!(building_id));
    let (error, made) = common::mcp::json_of(
        &common::mcp::call(
            &client,
            "creer_immeuble",
            json!({ "address": "3 place Bellecour", "city": "Lyon" }),
        )
        .await,
    );
    assert!(!error, "{made}");
    let (error, read) = common::mcp::json_of(
        &common::mcp::call(&client, "immeuble", json!({ "id": made["id"] })).await,
    );
    assert!(!error, "{read}");
    assert_eq!(read["address"], "3 place Bellecour");
    let (error, refused) = common::mcp::json_of(
        &common::mcp::call(&client, "creer_immeuble", json!({ "city": "Lyon" })).await,
    );
    assert!(error, "{refused}");
    assert_eq!(refused["status"], 422);

    // The identity: read by all, changed by administrators, checked.
    let (status, identity) = server
        .v2(Method::GET, "/agency/identity", &staff, None)
        .await;
    assert_eq!(status, 200, "{identity}");
    assert_eq!(identity["identity"]["siret"], TEST_SIRET);
    assert_eq!(
        server
            .v2(
                Method::PUT,
                "/agency/identity",
                &staff,
                Some(json!({ "siret": TEST_SIRET, "address": TEST_ADDRESS })),
            )
            .await,
        (
            403,
            json!({ "error": "Modifier l'identité de l'agence est réservé à un administrateur de l'agence." })
        )
    );
    let (status, body) = server
        .v2(
            Method::PUT,
            "/agency/identity",
            &chief,
            Some(json!({ "siret": "73282932000075", "address": TEST_ADDRESS })),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().expect("error").contains("SIRET"),
        "{body}"
    );
    let (status, saved) = server
        .v2(
            Method::PUT,
            "/agency/identity",
            &chief,
            Some(json!({ "siret": TEST_SIRET, "address": TEST_ADDRESS, "email": "contact@durand.fr", "insurer": "SMABTP" })),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["identity"]["email"], "contact@durand.fr");
    assert_eq!(saved["siren"], "732829320");

    // Technicians' records: administrators only.
    assert_eq!(
        server
            .v2(
                Method::POST,
                "/technicians",
                &staff,
                Some(json!({ "name": "Karim" }))
            )
            .await,
        (
            403,
            json!({ "error": "Ajouter un technicien est réservé à un administrateur de l'agence." })
        )
    );
    let (status, body) = server
        .v2(
            Method::POST,
            "/technicians",
            &chief,
            Some(json!({ "phone": "06" })),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, karim) = server
        .v2(
            Method::POST,
            "/technicians",
            &chief,
            Some(json!({ "name": "Karim Benali", "sectors": ["Lyon 3e"], "dailyCapacity": 5 })),
        )
        .await;
    assert_eq!(status, 201, "{karim}");
    let karim_id = str_of(&karim, "id").to_owned();
    let (status, edited) = server
        .v2(
            Method::PATCH,
            &format!("/technicians/{karim_id}"),
            &chief,
            Some(json!({ "phone": "06 12 34 56 78" })),
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["phone"], "06 12 34 56 78");
    let (status, off) = server
        .v2(
            Method::POST,
            &format!("/technicians/{karim_id}/deactivate"),
            &chief,
            None,
        )
        .await;
    assert_eq!((status, &off["active"]), (200, &json!(false)), "{off}");
    let (_, roster) = server.v2(Method::GET, "/technicians", &staff, None).await;
    assert!(
        roster
            .as_array()
            .expect("roster")
            .iter()
            .all(|t| t["id"] != json!(karim_id))
    );
    let (_, records) = server
        .v2(Method::GET, "/technicians/records", &staff, None)
        .await;
    assert_eq!(records["canEdit"], false);
    assert!(
        records["technicians"]
            .as_array()
            .expect("records")
            .iter()
            .any(|t| t["id"] == json!(karim_id))
    );
    assert_eq!(
        server
            .v2(
                Method::GET,
                &format!("/technicians/{karim_id}"),
                &outsider,
                None
            )
            .await
            .0,
        404
    );

    // People: a new account and its temporary password, shown once.
    assert_eq!(
        server
            .v2(
                Method::POST,
                "/people",
                &staff,
                Some(json!({ "name": "Léa Nouvelle", "email": "lea@durand.fr", "role": "member" })),
            )
            .await
            .0,
        403
    );
    let (status, body) = server
        .v2(
            Method::POST,
            "/people",
            &admin,
            Some(json!({ "name": "Léa Nouvelle", "email": "pas-une-adresse", "role": "member" })),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, created) = server
        .v2(
            Method::POST,
            "/people",
            &admin,
            Some(json!({ "name": "Léa Nouvelle", "email": "lea@durand.fr", "role": "member", "agencyIds": [org.agency_id] })),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert!(
        created["temporaryPassword"]
            .as_str()
            .expect("password")
            .len()
            >= 12
    );
    let lea = str_of(&created["person"], "id").to_owned();
    let (status, lea_edit) = server
        .v2(
            Method::PATCH,
            &format!("/people/{lea}"),
            &admin,
            Some(json!({ "position": "Assistante" })),
        )
        .await;
    assert_eq!(status, 200, "{lea_edit}");
    assert_eq!(lea_edit["position"], "Assistante");
    let lea_token = token_of(&server, "lea@durand.fr");
    assert_eq!(server.v2(Method::GET, "/me", &lea_token, None).await.0, 200);
    let (status, off) = server
        .v2(
            Method::POST,
            &format!("/people/{lea}/deactivate"),
            &admin,
            None,
        )
        .await;
    assert_eq!((status, &off["active"]), (200, &json!(false)), "{off}");
    // Her token ends at once.
    assert_eq!(server.v2(Method::GET, "/me", &lea_token, None).await.0, 401);
    let (status, back) = server
        .v2(
            Method::POST,
            &format!("/people/{lea}/reactivate"),
            &admin,
            None,
        )
        .await;
    assert_eq!((status, &back["active"]), (200, &json!(true)), "{back}");
    let (status, reset) = server
        .v2(
            Method::POST,
            &format!("/people/{lea}/password-reset"),
            &admin,
            None,
        )
        .await;
    assert_eq!(status, 200, "{reset}");
    assert_ne!(reset["temporaryPassword"], created["temporaryPassword"]);
    assert_eq!(
        server
            .v2(
                Method::PATCH,
                &format!("/people/{lea}"),
                &outsider,
                Some(json!({ "position": "x" }))
            )
            .await
            .0,
        404
    );
    // The last organization administrator keeps the role.
    let (status, body) = server
        .v2(
            Method::PATCH,
            &format!("/people/{}", org.admin_id),
            &admin,
            Some(json!({ "role": "member" })),
        )
        .await;
    assert_eq!(status, 422, "{body}");

    // Agencies: the organization administrator creates, archives, restores.
    assert_eq!(
        server
            .v2(
                Method::POST,
                "/agencies",
                &chief,
                Some(json!({ "name": "Durand Nord" }))
            )
            .await,
        (
            403,
            json!({ "error": "Créer une agence est réservé à un administrateur de l'organisation." })
        )
    );
    let (status, body) = server
        .v2(
            Method::POST,
            "/agencies",
            &admin,
            Some(json!({ "name": " " })),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, nord) = server
        .v2(
            Method::POST,
            "/agencies",
            &admin,
            Some(json!({ "name": "Durand Nord" })),
        )
        .await;
    assert_eq!(status, 201, "{nord}");
    let nord_id = str_of(&nord, "id").to_owned();
    let (status, renamed) = server
        .v2(
            Method::PATCH,
            &format!("/agencies/{nord_id}"),
            &admin,
            Some(json!({ "name": "Durand Nord-Isère" })),
        )
        .await;
    assert_eq!(
        (status, &renamed["name"]),
        (200, &json!("Durand Nord-Isère"))
    );
    let (status, archived) = server
        .v2(
            Method::POST,
            &format!("/agencies/{nord_id}/archive"),
            &admin,
            None,
        )
        .await;
    assert_eq!(status, 200, "{archived}");
    assert!(archived["agency"]["archivedAt"].is_string());
    let (_, managed) = server
        .v2(Method::GET, "/agencies/managed", &admin, None)
        .await;
    assert_eq!(managed["agencies"].as_array().expect("agencies").len(), 2);
    let (status, restored) = server
        .v2(
            Method::POST,
            &format!("/agencies/{nord_id}/restore"),
            &admin,
            None,
        )
        .await;
    assert_eq!((status, &restored["archivedAt"]), (200, &Value::Null));
    assert_eq!(
        server
            .v2(
                Method::POST,
                &format!("/agencies/{nord_id}/archive"),
                &outsider,
                None
            )
            .await
            .0,
        404
    );
    server.stop().await;
}
