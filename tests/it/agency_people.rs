//! The organization's people (`/app/api/people…`, `services::people`): a
//! colleague created with a temporary password shown once, who signs in
//! only to choose their own; a change of role, agencies, position; the
//! last administrator kept; deactivation (sessions and tokens end) and
//! reactivation; a password reset. Who may do it (member, agency
//! administrator, organization administrator, another organization), each
//! bad input's French reason, and the audit.

use crate::common;

use common::app::StaffClient;
use common::*;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";
const MUST_CHANGE: &str = "Choisissez d'abord votre propre mot de passe (écran « Mon compte ») : celui que vous avez reçu est provisoire.";

/// Signs in; the status and body of `POST /app/api/session`.
async fn sign_in(server: &TestServer, email: &str, password: &str) -> u16 {
    server
        .client
        .post(server.url("/app/api/session"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_new_colleague_signs_in_with_a_temporary_password_and_chooses_their_own() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (status, body) = admin
        .post(
            "/people",
            json!({
                "name": "  Paul Colin ", "email": "Paul.Colin@Durand.fr", "position": "Chargé d'affaires",
                "role": "member", "agencyIds": [org.agency_id], "performsSurveys": true, "technician": true
            }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let temporary = body["temporaryPassword"]
        .as_str()
        .expect("password")
        .to_owned();
    assert_eq!(temporary.len(), 19, "{temporary}");
    assert_eq!(temporary.matches('-').count(), 3);
    let person = &body["person"];
    let paul_id = str_of(person, "id").to_owned();
    assert_eq!(
        (
            person["name"].clone(),
            person["email"].clone(),
            person["position"].clone(),
            person["role"].clone(),
            person["roleLabel"].clone()
        ),
        (
            json!("Paul Colin"),
            json!("paul.colin@durand.fr"),
            json!("Chargé d'affaires"),
            json!("member"),
            json!("Membre")
        )
    );
    assert_eq!(person["performsSurveys"], true);
    assert_eq!(person["technician"], true);
    assert_eq!(person["mustChangePassword"], true);
    assert_eq!(
        person["agencies"],
        json!([{ "id": org.agency_id, "name": "Durand Centre" }])
    );
    // The password is nowhere in the audit log.
    let log = audit_of(&server, "account", &paul_id);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].0, "creation");
    assert!(!log[0].1.to_string().contains(&temporary));
    // His technician record is on the Technicians screen.
    let (_, technicians) = admin.get("/technicians").await;
    assert!(
        technicians.to_string().contains("Paul Colin"),
        "{technicians}"
    );

    // Paul signs in: only « Mon compte » opens until he chooses his own.
    let paul = StaffClient::sign_in(&server, "paul.colin@durand.fr", &temporary).await;
    assert_eq!(paul.session["account"]["mustChangePassword"], true);
    for path in ["/dashboard", "/calls", "/agency/identity"] {
        let (status, body) = paul.get(path).await;
        assert_eq!(
            (status, body),
            (403, json!({ "error": MUST_CHANGE })),
            "{path}"
        );
    }
    let (status, body) = paul
        .post(
            "/account/password",
            json!({ "currentPassword": temporary, "newPassword": "mon-secret-2026" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, session) = paul.get("/session").await;
    assert_eq!(status, 200);
    assert_eq!(session["account"]["mustChangePassword"], false);
    let (status, _) = paul.get("/dashboard").await;
    assert_eq!(status, 200);
    assert_eq!(
        sign_in(&server, "paul.colin@durand.fr", &temporary).await,
        401
    );
    assert_eq!(
        sign_in(&server, "paul.colin@durand.fr", "mon-secret-2026").await,
        200
    );

    // The list: the administrator and Paul, with their agencies.
    let (status, list) = admin.get("/people").await;
    assert_eq!(status, 200, "{list}");
    let names: Vec<&str> = list["people"]
        .as_array()
        .expect("people")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["Admin Durand", "Paul Colin"]);
    assert_eq!(list["canNameOrgAdmins"], true);
    assert_eq!(list["me"], org.admin_id);
    assert_eq!(list["people"][1]["mustChangePassword"], false);
}

#[tokio::test]
async fn roles_and_agencies_change_and_the_last_administrator_stays() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let sud = new_agency(&server, &org, "Durand Sud");
    let marc = member(&server, &org.agency_id, "marc@durand.fr", &[]);
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;

    // The only organization administrator: not demoted, not deactivated,
    // not by themself either.
    let (status, body) = admin
        .patch(
            &format!("/people/{}", org.admin_id),
            json!({ "role": "member", "agencyIds": [org.agency_id] }),
        )
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            422,
            json!(
                "Vous ne pouvez pas changer votre propre rôle : demandez-le à un autre administrateur."
            )
        )
    );
    let (status, body) = admin
        .post(&format!("/people/{}/deactivate", org.admin_id), json!({}))
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            422,
            json!(
                "Vous ne pouvez pas désactiver votre propre compte : demandez-le à un autre administrateur."
            )
        )
    );

    // Marc becomes organization administrator: he works everywhere.
    let (status, body) = admin
        .patch(&format!("/people/{marc}"), json!({ "role": "org_admin" }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["role"], "org_admin");
    assert_eq!(body["agencies"].as_array().map(Vec::len), Some(2));
    // Now Marc may demote the first administrator, who is no longer the last…
    let marc_session = StaffClient::sign_in(&server, "marc@durand.fr", PASSWORD).await;
    let (status, body) = marc_session
        .patch(
            &format!("/people/{}", org.admin_id),
            json!({ "role": "agency_admin", "agencyIds": [sud] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["agencies"],
        json!([{ "id": sud, "name": "Durand Sud" }])
    );
    // …but the first one, now an agency administrator, cannot touch Marc,
    // nor name an organization administrator.
    let former = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (status, body) = former.get("/people").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["canNameOrgAdmins"], false);
    assert_eq!(
        body["agencies"],
        json!([{ "id": sud, "name": "Durand Sud" }])
    );
    let (status, body) = former
        .patch(&format!("/people/{marc}"), json!({ "name": "Marc" }))
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            403,
            json!(
                "Seul un administrateur de l'organisation gère le compte d'un administrateur de l'organisation."
            )
        )
    );
    let (status, body) = former
        .post(
            "/people",
            json!({ "name": "Zoé", "email": "zoe@durand.fr", "role": "org_admin" }),
        )
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            403,
            json!(
                "Seul un administrateur de l'organisation nomme un administrateur de l'organisation."
            )
        )
    );
    // An agency outside its scope is unknown to it.
    let (status, body) = former
        .post("/people", json!({ "name": "Zoé", "email": "zoe@durand.fr", "role": "member", "agencyIds": [org.agency_id] }))
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            404,
            json!(format!("Agence introuvable : {}.", org.agency_id))
        )
    );
    // Marc is now the last organization administrator.
    let (status, body) = marc_session
        .patch(
            &format!("/people/{}", org.admin_id),
            json!({ "role": "org_admin" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = former
        .patch(
            &format!("/people/{marc}"),
            json!({ "role": "member", "agencyIds": [org.agency_id] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Marc, a member again, no longer manages anyone: at once.
    let (status, body) = marc_session.get("/people").await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = former
        .patch(
            &format!("/people/{}", org.admin_id),
            json!({ "position": "Gérant" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["position"], "Gérant");

    // The audit names what changed.
    let log = audit_of(&server, "account", &marc);
    let changes: Vec<&Value> = log
        .iter()
        .filter(|(a, _)| a == "modification")
        .map(|(_, d)| d)
        .collect();
    assert_eq!(changes.len(), 2);
    assert_eq!(
        changes[0]["role"],
        json!({ "before": "member", "after": "org_admin" })
    );
    assert_eq!(
        changes[0]["agencies"],
        json!({ "before": [org.agency_id], "after": [] })
    );
    assert_eq!(
        changes[1]["role"],
        json!({ "before": "org_admin", "after": "member" })
    );
}

#[tokio::test]
async fn deactivation_ends_sessions_and_tokens_and_a_reset_gives_a_new_temporary_password() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let marc = member(&server, &org.agency_id, "marc@durand.fr", &[]);
    let token = str_of(
        &server.cli_json(&[
            "token",
            "create",
            "--email",
            "marc@durand.fr",
            "--name",
            "outil",
        ]),
        "token",
    )
    .to_owned();
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let marc_session = StaffClient::sign_in(&server, "marc@durand.fr", PASSWORD).await;

    let (status, body) = admin
        .post(&format!("/people/{marc}/deactivate"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["active"], false);
    let (status, _) = marc_session.get("/session").await;
    assert_eq!(status, 401);
    let (status, _) = server.get_with("/api/v2/me", Some(&token), None).await;
    assert_eq!(status, 401);
    assert_eq!(sign_in(&server, "marc@durand.fr", PASSWORD).await, 401);
    let (status, body) = admin
        .post(&format!("/people/{marc}/password-reset"), json!({}))
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            422,
            json!(
                "Ce compte est désactivé : réactivez-le avant de réinitialiser son mot de passe."
            )
        )
    );

    let (status, body) = admin
        .post(&format!("/people/{marc}/reactivate"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["active"], true);
    assert_eq!(sign_in(&server, "marc@durand.fr", PASSWORD).await, 200);
    let (status, _) = server.get_with("/api/v2/me", Some(&token), None).await;
    assert_eq!(status, 401, "a reactivated account's tokens stay revoked");

    // A reset: his session ends, the old password no longer opens, the
    // temporary one opens only « Mon compte ».
    let marc_session = StaffClient::sign_in(&server, "marc@durand.fr", PASSWORD).await;
    let (status, body) = admin
        .post(&format!("/people/{marc}/password-reset"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let temporary = body["temporaryPassword"]
        .as_str()
        .expect("password")
        .to_owned();
    assert_eq!(body["person"]["mustChangePassword"], true);
    let (status, _) = marc_session.get("/session").await;
    assert_eq!(status, 401);
    assert_eq!(sign_in(&server, "marc@durand.fr", PASSWORD).await, 401);
    let marc_session = StaffClient::sign_in(&server, "marc@durand.fr", &temporary).await;
    let (status, body) = marc_session.get("/calls").await;
    assert_eq!((status, body), (403, json!({ "error": MUST_CHANGE })));
    let (status, body) = admin
        .post(
            &format!("/people/{}/password-reset", org.admin_id),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            422,
            json!("Changez votre propre mot de passe sur l'écran « Mon compte ».")
        )
    );
    let actions: Vec<String> = audit_of(&server, "account", &marc)
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(
        actions,
        [
            "creation",
            "desactivation",
            "reactivation",
            "reinitialisation_mot_de_passe"
        ]
    );
}

#[tokio::test]
async fn members_and_other_organizations_are_refused_and_bad_inputs_named() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let marc = member(&server, &org.agency_id, "marc@durand.fr", &[]);
    let member = StaffClient::sign_in(&server, "marc@durand.fr", PASSWORD).await;
    for (status, body, what) in [
        {
            let (s, b) = member.get("/people").await;
            (s, b, "Consulter les comptes du personnel")
        },
        {
            let (s, b) = member.post("/people", json!({ "name": "X", "email": "x@durand.fr", "role": "member", "agencyIds": [org.agency_id] })).await;
            (s, b, "Créer un compte")
        },
        {
            let (s, b) = member
                .patch(&format!("/people/{}", org.admin_id), json!({ "name": "X" }))
                .await;
            (s, b, "Modifier un compte")
        },
        {
            let (s, b) = member
                .post(&format!("/people/{}/deactivate", org.admin_id), json!({}))
                .await;
            (s, b, "Désactiver un compte")
        },
        {
            let (s, b) = member
                .post(&format!("/people/{}/reactivate", org.admin_id), json!({}))
                .await;
            (s, b, "Réactiver un compte")
        },
        {
            let (s, b) = member
                .post(
                    &format!("/people/{}/password-reset", org.admin_id),
                    json!({}),
                )
                .await;
            (s, b, "Réinitialiser un mot de passe")
        },
    ] {
        assert_eq!(
            (status, body),
            (
                403,
                json!({ "error": format!("{what} est réservé à un administrateur de l'agence.") })
            )
        );
    }

    // Another organization's administrator: Durand's accounts do not exist.
    let outsider = StaffClient::sign_in(&server, "paul@martin.fr", PASSWORD).await;
    let (status, list) = outsider.get("/people").await;
    assert_eq!(status, 200);
    assert!(!list.to_string().contains("durand"), "{list}");
    for (status, body) in [
        outsider
            .patch(&format!("/people/{marc}"), json!({ "name": "Pirate" }))
            .await,
        outsider
            .post(&format!("/people/{marc}/deactivate"), json!({}))
            .await,
        outsider
            .post(&format!("/people/{marc}/password-reset"), json!({}))
            .await,
    ] {
        assert_eq!(
            (status, body),
            (404, json!({ "error": "Compte introuvable." }))
        );
    }
    let (status, body) = outsider
        .post("/people", json!({ "name": "X", "email": "x@martin.fr", "role": "member", "agencyIds": [org.agency_id] }))
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            404,
            json!(format!("Agence introuvable : {}.", org.agency_id))
        )
    );

    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let ok = json!({ "name": "Zoé", "email": "zoe@durand.fr", "role": "member", "agencyIds": [org.agency_id] });
    let with = |key: &str, value: Value| {
        let mut body = ok.clone();
        body[key] = value;
        body
    };
    for (body, status, expected) in [
        (with("name", json!("  ")), 422, "Le nom est obligatoire."),
        (
            with("email", json!("zoe")),
            422,
            "L'adresse e-mail « zoe » n'est pas valide.",
        ),
        (
            with("email", json!("Marc@Durand.fr")),
            409,
            "L'adresse e-mail « marc@durand.fr » est déjà utilisée par un autre compte.",
        ),
        (
            with("role", json!("chef")),
            422,
            "Rôle inconnu : « chef ». Valeurs possibles : org_admin (administrateur de l'organisation), agency_admin (administrateur d'agence), member (membre).",
        ),
        (
            with("role", json!("operator")),
            422,
            "Rôle inconnu : « operator ». Valeurs possibles : org_admin (administrateur de l'organisation), agency_admin (administrateur d'agence), member (membre).",
        ),
        (
            with("agencyIds", json!([])),
            422,
            "Indiquez au moins une agence où travaille ce compte (champ « agencyIds »).",
        ),
        (
            with("position", json!("x".repeat(101))),
            422,
            "Le champ « position » ne doit pas dépasser 100 caractères.",
        ),
    ] {
        let (got, answer) = admin.post("/people", body.clone()).await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(expected)),
            "{body}"
        );
    }
    let (status, answer) = admin.post("/people", with("admin", json!(true))).await;
    assert_eq!(status, 422, "{answer}");
    let (status, answer) = admin
        .patch(&format!("/people/{marc}"), json!({ "name": "" }))
        .await;
    assert_eq!(
        (status, answer["error"].clone()),
        (422, json!("Le nom est obligatoire."))
    );
    let (status, answer) = admin.patch("/people/inconnu", json!({ "name": "X" })).await;
    assert_eq!(
        (status, answer),
        (404, json!({ "error": "Compte introuvable." }))
    );
    // Nothing was created by the refusals.
    let (_, list) = admin.get("/people").await;
    assert_eq!(list["people"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn the_command_line_gives_a_forgotten_administrator_a_temporary_password() {
    let server = TestServer::start().await;
    init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let before = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let out = server.cli_json(&["user", "reset-password", "--email", "Admin@Durand.fr"]);
    let temporary = str_of(&out, "temporaryPassword").to_owned();
    let (status, _) = before.get("/session").await;
    assert_eq!(status, 401, "its sessions ended");
    assert_eq!(sign_in(&server, "admin@durand.fr", PASSWORD).await, 401);
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", &temporary).await;
    let (status, body) = admin.get("/people").await;
    assert_eq!((status, body), (403, json!({ "error": MUST_CHANGE })));
    let out = server.cli(&["user", "reset-password", "--email", "personne@durand.fr"]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("Aucun compte n'a l'adresse e-mail « personne@durand.fr »."),
        "{}",
        stderr_of(&out)
    );
}

#[tokio::test]
async fn an_agency_administrator_leaves_what_holds_elsewhere_to_the_organization() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let sud = new_agency(&server, &org, "Durand Sud");
    member(&server, &org.agency_id, "lea@durand.fr", &["--admin"]);
    // Marc works in both agencies; Léa administers the first only.
    let marc = member(
        &server,
        &org.agency_id,
        "marc@durand.fr",
        &["--agency", &sud],
    );
    let lea = StaffClient::sign_in(&server, "lea@durand.fr", PASSWORD).await;
    let (status, body) = lea
        .patch(
            &format!("/people/{marc}"),
            json!({ "name": "Marc Martin", "position": "Technicien" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["agencies"],
        json!([{ "id": org.agency_id, "name": "Durand Centre" }])
    );
    let beyond = |what: &str| json!({ "error": format!("Ce compte travaille aussi dans des agences hors des vôtres : seul un administrateur de l'organisation peut {what}.") });
    for ((status, body), what) in [
        (
            lea.patch(
                &format!("/people/{marc}"),
                json!({ "role": "agency_admin" }),
            )
            .await,
            "changer son rôle",
        ),
        (
            lea.patch(
                &format!("/people/{marc}"),
                json!({ "performsSurveys": true }),
            )
            .await,
            "changer s'il réalise des relevés",
        ),
        (
            lea.post(&format!("/people/{marc}/password-reset"), json!({}))
                .await,
            "réinitialiser son mot de passe",
        ),
        (
            lea.post(&format!("/people/{marc}/deactivate"), json!({}))
                .await,
            "le désactiver",
        ),
    ] {
        assert_eq!((status, body), (403, beyond(what)));
    }
    // Taking him out of her agency leaves him in the other one.
    let (status, body) = lea
        .patch(&format!("/people/{marc}"), json!({ "agencyIds": [] }))
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (
            422,
            json!("Indiquez au moins une agence où travaille ce compte (champ « agencyIds »).")
        )
    );
    // A reset filed under the administrator's agency.
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (status, _) = admin
        .post(&format!("/people/{marc}/password-reset"), json!({}))
        .await;
    assert_eq!(status, 200);
    let filed: String = open_db(server.data_dir.path())
        .query_row(
            "SELECT agency_id FROM audit_log WHERE action = 'reinitialisation_mot_de_passe' AND object_id = ?1",
            [&marc],
            |r| r.get(0),
        )
        .expect("entry");
    assert_eq!(filed, org.agency_id);
}

#[tokio::test]
async fn a_temporary_password_is_not_kept_as_ones_own() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let (_, body) = admin
        .post("/people", json!({ "name": "Paul", "email": "paul@durand.fr", "role": "member", "agencyIds": [org.agency_id] }))
        .await;
    let temporary = body["temporaryPassword"]
        .as_str()
        .expect("password")
        .to_owned();
    let paul = StaffClient::sign_in(&server, "paul@durand.fr", &temporary).await;
    let (status, body) = paul
        .post(
            "/account/password",
            json!({ "currentPassword": temporary, "newPassword": temporary }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le nouveau mot de passe doit être différent de l'actuel." })
        )
    );
    let (_, session) = paul.get("/session").await;
    assert_eq!(session["account"]["mustChangePassword"], true);
}
