//! The organization's agencies (`/app/api/agencies…`, `services::agencies`,
//! `liftdesk agency rename|archive|restore`): a new agency with its
//! identity, a new name, archiving (the agency leaves every scope; its
//! call-center keys, partner keys and webhook subscriptions stop at once)
//! and restoring. Who may do it (member, agency administrator, organization
//! administrator, another organization), each refusal's French reason, and
//! the audit.

use crate::common;

use common::app::StaffClient;
use common::world::World;
use common::*;
use liftdesk::services::calls::CenterCallInput;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

fn names(list: &Value) -> Vec<(String, bool)> {
    list["agencies"]
        .as_array()
        .expect("agencies")
        .iter()
        .map(|a| {
            (
                a["name"].as_str().expect("name").to_owned(),
                a["archivedAt"].is_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn an_organization_administrator_creates_an_agency_with_its_identity_and_renames_it() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;

    let (status, body) = admin.get("/agencies").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["canCreate"], true);
    assert_eq!(
        body["agencies"],
        json!([{
            "id": org.agency_id, "name": "Durand Centre", "createdAt": body["agencies"][0]["createdAt"],
            "archivedAt": null, "missingToIssue": [], "current": true, "canRename": true, "canArchive": true
        }])
    );

    // Bad input: a French 422 naming the field, nothing created.
    for (body, error) in [
        (
            json!({ "name": "  " }),
            "Le nom de l'agence est obligatoire.",
        ),
        (
            json!({ "name": "Nord", "identity": { "siret": "73282932000075" } }),
            "Champ « siret » : Le SIRET n'est pas valide (clé de contrôle incorrecte).",
        ),
    ] {
        let (status, answer) = admin.post("/agencies", body).await;
        assert_eq!((status, answer), (422, json!({ "error": error })));
    }
    let (status, answer) = admin.post("/agencies", json!({ "nom": "Nord" })).await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(names(&admin.get("/agencies").await.1).len(), 1);

    let (status, created) = admin
        .post(
            "/agencies",
            json!({ "name": " Durand Nord ", "identity": { "siret": TEST_SIRET, "vatNumber": TEST_VAT_NUMBER, "address": "3 rue Nationale, 59000 Lille", "legalName": "Durand Ascenseurs" } }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let nord = str_of(&created, "id").to_owned();
    assert_eq!(created["name"], "Durand Nord");
    // Two agencies now: each needs its own series of numbers to issue.
    assert_eq!(created["missingToIssue"], json!(["invoiceSeries"]));
    assert_eq!(created["current"], false);
    // The same name, case and accents aside, is another agency's.
    let (status, answer) = admin
        .post("/agencies", json!({ "name": "DURAND NÔRD" }))
        .await;
    assert_eq!(
        (status, answer),
        (
            409,
            json!({ "error": "Une agence de l'organisation s'appelle déjà « DURAND NÔRD » : choisissez un autre nom." })
        )
    );
    let (_, without) = admin.post("/agencies", json!({ "name": "Sud" })).await;
    assert_eq!(
        without["missingToIssue"],
        json!([
            "siret",
            "address",
            "postalCode",
            "city",
            "vatNumber",
            "invoiceSeries"
        ])
    );

    // The new agency is in the administrator's scope at once: the session
    // lists it, the REST API acts there, and its identity is recorded.
    let (_, session) = admin.get("/session").await;
    let listed: Vec<&str> = session["agencies"]
        .as_array()
        .expect("agencies")
        .iter()
        .map(|a| a["name"].as_str().expect("name"))
        .collect();
    assert_eq!(listed, ["Durand Centre", "Durand Nord", "Sud"]);
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": nord }))
        .await;
    assert_eq!(status, 200);
    let (_, identity) = admin.get("/agency/identity").await;
    assert_eq!(identity["identity"]["legalName"], "Durand Ascenseurs");
    assert_eq!(identity["agencyName"], "Durand Nord");
    let (status, _) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), Some(&nord))
        .await;
    assert_eq!(status, 200);

    // Renamed (same name again: nothing recorded), audited.
    let (status, body) = admin
        .patch(
            &format!("/agencies/{nord}"),
            json!({ "name": "Durand Lille" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["name"], &body["current"]),
        (&json!("Durand Lille"), &json!(true))
    );
    let (status, _) = admin
        .patch(
            &format!("/agencies/{nord}"),
            json!({ "name": "Durand Lille" }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, answer) = admin
        .patch(&format!("/agencies/{nord}"), json!({ "name": "sud" }))
        .await;
    assert_eq!(status, 409, "{answer}");
    let audit = audit_of(&server, "agency", &nord);
    let actions: Vec<&str> = audit.iter().map(|(a, _)| a.as_str()).collect();
    assert_eq!(actions, ["creation", "identite", "renommage"]);
    assert_eq!(
        audit[2].1,
        json!({ "before": "Durand Nord", "after": "Durand Lille" })
    );
}

#[tokio::test]
async fn who_may_create_rename_and_archive_an_agency() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let nord = new_agency(&server, &org, "Nord");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    member(&server, &org.agency_id, "chef@durand.fr", &["--admin"]);
    let member = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let chef = StaffClient::sign_in(&server, "chef@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "admin@autre.fr", PASSWORD).await;

    let (status, body) = member.get("/agencies").await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Consulter les agences est réservé à un administrateur de l'agence." })
        )
    );
    let (status, body) = member
        .patch(
            &format!("/agencies/{}", org.agency_id),
            json!({ "name": "X" }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Renommer l'agence est réservé à un administrateur de l'agence." })
        )
    );

    // An agency administrator sees and renames its own agency only.
    let (status, body) = chef.get("/agencies").await;
    assert_eq!(status, 200);
    assert_eq!(body["canCreate"], false);
    assert_eq!(names(&body), [("Durand Centre".to_owned(), false)]);
    assert_eq!(body["agencies"][0]["canArchive"], false);
    let (status, body) = chef
        .patch(
            &format!("/agencies/{}", org.agency_id),
            json!({ "name": "Durand Lyon" }),
        )
        .await;
    assert_eq!((status, &body["name"]), (200, &json!("Durand Lyon")));
    let not_found = json!({ "error": "Agence introuvable." });
    let (status, body) = chef
        .patch(&format!("/agencies/{nord}"), json!({ "name": "X" }))
        .await;
    assert_eq!((status, body), (404, not_found.clone()));
    for (status_body, what) in [
        (
            chef.post("/agencies", json!({ "name": "Est" })).await,
            "Créer une agence",
        ),
        (
            chef.post(&format!("/agencies/{nord}/archive"), json!({}))
                .await,
            "Archiver ou réactiver une agence",
        ),
        (
            chef.post(&format!("/agencies/{}/restore", org.agency_id), json!({}))
                .await,
            "Archiver ou réactiver une agence",
        ),
    ] {
        assert_eq!(
            status_body,
            (
                403,
                json!({ "error": format!("{what} est réservé à un administrateur de l'organisation.") })
            )
        );
    }

    // Another organization's administrator: 404, as for an unknown id.
    for path in [
        format!("/agencies/{nord}/archive"),
        format!("/agencies/{nord}/restore"),
        "/agencies/inconnue/archive".to_owned(),
    ] {
        assert_eq!(
            other.post(&path, json!({})).await,
            (404, not_found.clone()),
            "{path}"
        );
    }
    let (status, body) = other
        .patch(&format!("/agencies/{nord}"), json!({ "name": "X" }))
        .await;
    assert_eq!((status, body), (404, not_found));
    let (_, body) = other.get("/agencies").await;
    assert_eq!(names(&body), [("Autre Centre".to_owned(), false)]);
    assert_eq!(
        audit_of(&server, "agency", &nord).len(),
        1,
        "only its creation is recorded"
    );
}

#[tokio::test]
async fn an_archived_agency_leaves_every_scope_and_its_keys_and_subscriptions_stop() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let nord = new_agency(&server, &org, "Nord");
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;

    // The organization keeps one working agency.
    let (status, body) = admin
        .post(&format!("/agencies/{nord}/archive"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = admin
        .post(&format!("/agencies/{}/archive", org.agency_id), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "L'organisation garde au moins une agence en activité : créez-en une autre avant d'archiver celle-ci." })
        )
    );
    let (status, body) = admin
        .post(&format!("/agencies/{nord}/archive"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            409,
            json!({ "error": "L'agence « Nord » est déjà archivée." })
        )
    );
    let (status, body) = admin
        .patch(&format!("/agencies/{nord}"), json!({ "name": "X" }))
        .await;
    assert_eq!(
        (status, body),
        (
            409,
            json!({ "error": "L'agence « Nord » est archivée : réactivez-la d'abord." })
        )
    );
    let (status, body) = admin
        .post(&format!("/agencies/{nord}/restore"), json!({}))
        .await;
    assert_eq!((status, &body["archivedAt"]), (200, &Value::Null), "{body}");
    let (status, body) = admin
        .post(&format!("/agencies/{nord}/restore"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            409,
            json!({ "error": "L'agence « Nord » n'est pas archivée." })
        )
    );

    // What reaches « Nord »: a colleague working only there, an open call,
    // a call-center key, a partner key for it alone and one shared with the
    // first agency, a webhook subscription, a token acting there.
    member(&server, &nord, "seul@durand.fr", &[]);
    member(
        &server,
        &nord,
        "deux@durand.fr",
        &["--agency", &org.agency_id],
    );
    let world = World::in_agency(&server, &nord);
    world.lift("asc-nord", None).await;
    let center_key = world.call_center_key("Centre Nord").await;
    let call = world
        .call_from(
            &center_key,
            CenterCallInput {
                reference: "CC-1".to_owned(),
                equipment: "asc-nord".to_owned(),
                call_type: "panne".to_owned(),
                description: "Cabine immobilisée.".to_owned(),
                caller: None,
                received_at: None,
            },
        )
        .await;
    let alone = server.cli_json(&["partner-key", "create", "--name", "Seul", "--agency", &nord]);
    let shared = server.cli_json(&[
        "partner-key",
        "create",
        "--name",
        "Partagé",
        "--agency",
        &nord,
        "--agency",
        &org.agency_id,
    ]);
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": nord }))
        .await;
    assert_eq!(status, 200);
    let (status, subscription) = admin
        .post(
            "/webhooks",
            json!({ "url": "https://hooks.example.org/nord", "events": ["appel.clos"] }),
        )
        .await;
    assert_eq!(status, 201, "{subscription}");

    let (status, body) = admin
        .post(&format!("/agencies/{nord}/archive"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "L'agence « Nord » a encore 1 appel en cours : résolvez-le avant de l'archiver." })
        )
    );
    world.move_call(&call, "resolue").await;
    let (status, body) = admin
        .post(&format!("/agencies/{nord}/archive"), json!({}))
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Ces comptes ne travaillent que dans l'agence « Nord » : Marc Membre. Donnez-leur une autre agence ou désactivez-les avant de l'archiver." })
        )
    );
    let people = admin.get("/people").await.1;
    let seul = people["people"]
        .as_array()
        .expect("people")
        .iter()
        .find(|p| p["email"] == "seul@durand.fr")
        .expect("seul")["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let (status, _) = admin
        .post(&format!("/people/{seul}/deactivate"), json!({}))
        .await;
    assert_eq!(status, 200);

    let (status, body) = admin
        .post(&format!("/agencies/{nord}/archive"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["stopped"],
        json!({ "callCenterKeys": 1, "partnerKeys": 2, "webhookSubscriptions": 1 })
    );
    assert!(body["agency"]["archivedAt"].is_string());
    assert_eq!(body["agency"]["canRename"], false);

    // The session falls back to a working agency; the list shows « Nord »
    // archived, after the working ones.
    let (_, session) = admin.get("/session").await;
    assert_eq!(session["agency"]["id"], json!(org.agency_id));
    assert_eq!(session["agencies"].as_array().map(Vec::len), Some(1));
    let (_, list) = admin.get("/agencies").await;
    assert_eq!(
        names(&list),
        [
            ("Durand Centre".to_owned(), false),
            ("Nord".to_owned(), true)
        ]
    );
    let (status, _) = admin
        .put("/session/agency", json!({ "agencyId": nord }))
        .await;
    assert_eq!(status, 403);
    // The REST API no longer acts there.
    let (status, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), Some(&nord))
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Cette agence est hors du périmètre de ce compte." })
        )
    );
    // The call-center key is revoked: 401.
    let response = server
        .client
        .post(server.url("/api/partners/calls"))
        .header("Authorization", format!("Bearer {center_key}"))
        .json(&json!({}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
    // The partner key of « Nord » alone is revoked; the shared one serves
    // the first agency only.
    let conn = open_db(server.data_dir.path());
    let revoked: Vec<(String, bool)> = conn
        .prepare("SELECT name, revoked_at IS NOT NULL FROM credentials WHERE kind = 'partner_key' ORDER BY name")
        .expect("prepare")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        revoked,
        [("Partagé".to_owned(), false), ("Seul".to_owned(), true)]
    );
    let shared_key = str_of(&shared, "key");
    for (agency, expected) in [(&nord, 403), (&org.agency_id, 200)] {
        let (status, body) = crate::wf::post(
            &server,
            shared_key,
            "/get_client",
            &json!({ "agency_id": agency, "client_id": "inconnu" }),
        )
        .await;
        assert_eq!(status, expected, "{agency}: {body}");
    }
    let (status, _) = crate::wf::post(
        &server,
        str_of(&alone, "key"),
        "/get_client",
        &json!({ "agency_id": nord, "client_id": "inconnu" }),
    )
    .await;
    assert_eq!(status, 401);
    // The subscription is revoked.
    let subscription_revoked: bool = conn
        .query_row(
            "SELECT revoked_at IS NOT NULL FROM webhook_subscriptions WHERE id = ?1",
            [str_of(&subscription, "id")],
            |r| r.get(0),
        )
        .expect("subscription");
    assert!(subscription_revoked);
    // No new account, key or attribution names an archived agency.
    let out = server.cli(&[
        "user",
        "create",
        "--email",
        "neuf@durand.fr",
        "--name",
        "Neuf",
        "--password",
        PASSWORD,
        "--agency",
        &nord,
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("Agence introuvable : {nord}.")),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // « deux » still works in the first agency.
    let deux = StaffClient::sign_in(&server, "deux@durand.fr", PASSWORD).await;
    assert_eq!(deux.session["agency"]["id"], json!(org.agency_id));

    // Restored from the command line: back in the scopes; the keys and the
    // subscription stay revoked.
    let restored = server.cli_json(&["agency", "restore", "--agency", &nord]);
    assert_eq!(restored["archivedAt"], Value::Null);
    let (status, _) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), Some(&nord))
        .await;
    assert_eq!(status, 200);
    let response = server
        .client
        .post(server.url("/api/partners/calls"))
        .header("Authorization", format!("Bearer {center_key}"))
        .json(&json!({}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
    let renamed = server.cli_json(&["agency", "rename", "--agency", &nord, "--name", "Lille"]);
    assert_eq!(renamed["name"], "Lille");
    let archived = server.cli_json(&["agency", "archive", "--agency", &nord]);
    assert_eq!(
        archived["stopped"],
        json!({ "callCenterKeys": 0, "partnerKeys": 0, "webhookSubscriptions": 0 })
    );

    let actions: Vec<String> = audit_of(&server, "agency", &nord)
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(
        actions,
        [
            "creation",
            "archivage",
            "reactivation",
            "archivage",
            "reactivation",
            "renommage",
            "archivage"
        ]
    );
}
