//! The agency's own records written through the application layer, called
//! directly (the screens' doors are tested in `app_technicians` and
//! `agency_people`): adding and editing a technician, taking him off the
//! roster (`services::technicians::create`, `edit`, `set_active`), adding a
//! building and an equipment (`services::equipment::create_building`,
//! `create`, no door of their own yet), editing and deactivating a staff
//! account (`services::people::edit`, `deactivate`), saving, cancelling and
//! dating a survey, moving a deal to another category
//! (`services::surveys::save_for`, `cancel_for`, `set_due_on_for`,
//! `services::workflow::set_deal_category`). Who may, what they refuse
//! (French, naming the field), the agency's scope, the audit entry, and
//! what the APIs then show.

use crate::common;
use liftdesk::domain::id::AccountId;

use common::world::World;
use common::*;
use liftdesk::domain::building::BuildingInput;
use liftdesk::domain::id::AgencyId;
use liftdesk::domain::id::TechnicianId;
use liftdesk::domain::technician::TechnicianInput;
use liftdesk::domain::technician::TechnicianPatch;
use liftdesk::services::equipment::{self, NewEquipment};
use liftdesk::services::people::{self, AccountEdit};
use liftdesk::services::technicians::{self, TechnicianEdit};
use liftdesk::store::equipment::IdentityRow;
use serde_json::{Value, json};

fn refusal<T: std::fmt::Debug>(result: Result<T, liftdesk::error::AppError>) -> (u16, String) {
    let err = result.expect_err("refus attendu");
    (err.status().as_u16(), err.to_string())
}

fn audit(server: &TestServer, object_id: &str) -> Vec<(String, String, Value)> {
    let conn = open_db(server.data_dir.path());
    let mut stmt = conn
        .prepare(
            "SELECT actor_kind, action, detail FROM audit_log WHERE object_id = ?1 ORDER BY seq",
        )
        .expect("prepare");
    stmt.query_map([object_id], |r| {
        let detail: String = r.get(2)?;
        Ok((
            r.get(0)?,
            r.get(1)?,
            serde_json::from_str(&detail).expect("json"),
        ))
    })
    .expect("query")
    .collect::<Result<_, _>>()
    .expect("rows")
}

fn technician(name: &str) -> TechnicianInput {
    TechnicianInput {
        name: Some(name.to_owned()),
        ..TechnicianInput::default()
    }
}

#[tokio::test]
async fn administrators_add_technicians_and_the_roster_shows_them() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    server.cli_json(&[
        "user",
        "create",
        "--email",
        "marc@durand.fr",
        "--name",
        "Marc Membre",
        "--password",
        "motdepasse-solide",
        "--agency",
        &org.agency_id,
    ]);
    let store = &server.store;
    let world = World::in_agency(&server, &org.agency_id);
    let admin = world.staff("admin@durand.fr").await.principal;
    let member = world.staff("marc@durand.fr").await.principal;

    let id = technicians::create(
        store,
        &admin,
        TechnicianInput {
            name: Some(" Rémi Caron ".to_owned()),
            phone: Some("06 12 34 56 78".to_owned()),
            sectors: vec!["Levallois".to_owned(), "Neuilly".to_owned()],
            daily_capacity: Some(7),
        },
    )
    .await
    .expect("technicien");
    let (status, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!([{ "id": id.as_str(), "name": "Rémi Caron", "sectors": "Levallois,Neuilly",
                 "openCalls": 0, "onCall": false, "absentUntil": null, "offUntil": null }])
    );
    assert_eq!(
        audit(&server, id.as_str()),
        [(
            "account".to_owned(),
            "technicien.creation".to_owned(),
            json!({ "name": "Rémi Caron", "phone": "06 12 34 56 78",
                    "sectors": "Levallois,Neuilly", "dailyCapacity": 7 })
        )]
    );

    // A member may not; a bad record is refused naming the field; nothing
    // is written.
    assert_eq!(
        refusal(technicians::create(store, &member, technician("Bruno")).await),
        (
            403,
            "Ajouter un technicien est réservé à un administrateur de l'agence.".to_owned()
        )
    );
    assert_eq!(
        refusal(technicians::create(store, &admin, technician("  ")).await),
        (422, "Le champ « name » est obligatoire.".to_owned())
    );
    assert_eq!(
        refusal(
            technicians::create(
                store,
                &admin,
                TechnicianInput {
                    daily_capacity: Some(0),
                    ..technician("Bruno")
                }
            )
            .await
        ),
        (
            422,
            "Le champ « dailyCapacity » doit être compris entre 1 et 20 visites par jour."
                .to_owned()
        )
    );
    // Another organization's agency is outside the account's scope.
    assert_eq!(
        refusal(admin.in_agency(&AgencyId::new(other.agency_id.as_str()))),
        (
            403,
            "Cette agence n'est pas dans le périmètre de votre compte.".to_owned()
        )
    );
    let (_, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(body.as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn buildings_and_equipment_are_added_in_the_agency_only() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let store = &server.store;
    let admin = World::in_agency(&server, &org.agency_id)
        .staff("admin@durand.fr")
        .await
        .principal;
    let theirs = World::in_agency(&server, &other.agency_id);
    let their_building = theirs
        .building(None, "1 rue Ailleurs", Some("69001"), Some("Lyon"))
        .await;
    theirs.client_named("C-9", "Syndic Ailleurs").await;

    let building = equipment::create_building(
        store,
        &admin,
        BuildingInput {
            name: Some("Résidence Les Tilleuls".to_owned()),
            address: Some("3 rue Émile Zola".to_owned()),
            address_complement: None,
            postal_code: Some("92300".to_owned()),
            city: Some("Levallois-Perret".to_owned()),
        },
        None,
    )
    .await
    .expect("immeuble");
    let lift = |number: &str, building: &str| NewEquipment {
        identity: IdentityRow {
            number: Some(number.to_owned()),
            equipment_type: Some("ascenseur".to_owned()),
            maintenance_contract: Some("parc".to_owned()),
            ..IdentityRow::default()
        },
        building_id: Some(building.to_owned()),
        client_ref: None,
    };
    let created = equipment::create(store, &admin, lift("ASC 7", building.id.as_str()))
        .await
        .expect("équipement");
    let (status, body) = server
        .get_with(
            "/api/v2/external/equipment/data?number=ASC%207",
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], created.id.as_str());
    assert_eq!(body["number"], "ASC 7");
    assert_eq!(body["type"], "ascenseur");
    assert_eq!(body["contract"]["maintenanceContract"], "parc");
    assert_eq!(
        body["building"],
        json!({ "id": building.id, "name": "Résidence Les Tilleuls", "address": "3 rue Émile Zola",
                "addressComplement": null, "postalCode": "92300", "city": "Levallois-Perret" })
    );
    assert_eq!(
        audit(&server, created.id.as_str())
            .into_iter()
            .map(|(kind, action, _)| (kind, action))
            .collect::<Vec<_>>(),
        [("account".to_owned(), "equipement.creation".to_owned())]
    );

    // The same number (spaces and case ignored), another agency's building
    // or client, an unknown type, no number: refused, naming the field.
    assert_eq!(
        refusal(equipment::create(store, &admin, lift("asc7", building.id.as_str())).await),
        (
            422,
            "Le numéro « asc7 » est déjà utilisé par un autre équipement de l'agence (« ASC 7 ») : les espaces et la casse ne distinguent pas deux numéros.".to_owned()
        )
    );
    assert_eq!(
        refusal(equipment::create(store, &admin, lift("ASC 8", &their_building)).await),
        (
            422,
            format!(
                "Le champ « buildingId » ne désigne aucun immeuble de l'agence : « {their_building} »."
            )
        )
    );
    World::in_agency(&server, &org.agency_id)
        .client(liftdesk::services::clients::ClientInput {
            client_id: Some("C-0".to_owned()),
            nom: Some("Ancien Syndic".to_owned()),
            supprime: Some(true),
            ..liftdesk::services::clients::ClientInput::default()
        })
        .await;
    for (client_ref, message) in [
        (
            "C-9",
            "Le champ « clientId » ne désigne aucun client de l'agence : « C-9 ».",
        ),
        (
            "C-0",
            "Le client « Ancien Syndic » est archivé : on ne lui rattache plus d'immeuble ni d'équipement.",
        ),
    ] {
        let with_client = NewEquipment {
            client_ref: Some(client_ref.to_owned()),
            ..lift("ASC 8", building.id.as_str())
        };
        assert_eq!(
            refusal(equipment::create(store, &admin, with_client).await),
            (422, message.to_owned())
        );
    }
    let mut unknown_type = lift("ASC 8", building.id.as_str());
    unknown_type.identity.equipment_type = Some("escalator".to_owned());
    assert_eq!(
        refusal(equipment::create(store, &admin, unknown_type).await).0,
        422
    );
    let mut unnumbered = lift(" ", building.id.as_str());
    unnumbered.identity.number = Some(" ".to_owned());
    assert_eq!(
        refusal(equipment::create(store, &admin, unnumbered).await),
        (422, "Le champ « number » est obligatoire.".to_owned())
    );
    assert_eq!(
        refusal(
            equipment::create_building(
                store,
                &admin,
                BuildingInput {
                    address: Some("1 rue Haute".to_owned()),
                    postal_code: Some("9230".to_owned()),
                    ..BuildingInput::default()
                },
                None
            )
            .await
        ),
        (
            422,
            "Le champ « postalCode » doit être un code postal français de cinq chiffres : « 9230 » n'en est pas un.".to_owned()
        )
    );
    // Nothing was written by the refusals.
    let conn = open_db(server.data_dir.path());
    let count: i64 = conn
        .query_row(
            "SELECT count(*) FROM equipment WHERE agency_id = ?1",
            [&org.agency_id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(count, 1);
}

#[tokio::test]
async fn administrators_edit_a_technician_and_take_him_off_the_roster() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    member(&server, &org.agency_id, "marc@durand.fr", &[]);
    let world = World::in_agency(&server, &org.agency_id);
    let admin = world.staff("admin@durand.fr").await.principal;
    let marc = world.staff("marc@durand.fr").await.principal;
    let store = &server.store;
    let remi = TechnicianId::new(world.technician("Rémi Caron", Some("Levallois")).await);

    technicians::edit(
        store,
        &admin,
        &remi,
        TechnicianEdit {
            record: TechnicianPatch {
                phone: Some(Some("01 47 00 00 00".to_owned())),
                sectors: Some(vec!["Neuilly".to_owned(), "Levallois".to_owned()]),
                ..TechnicianPatch::default()
            },
            rest_hours: Some(9),
        },
    )
    .await
    .expect("modification");
    let (_, roster) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(roster[0]["sectors"], "Neuilly,Levallois");
    assert_eq!(roster[0]["name"], "Rémi Caron");
    let changes = audit(&server, remi.as_str());
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert_eq!(changes[1].1, "technicien.modification");
    assert_eq!(
        changes[1].2["after"],
        json!({ "name": "Rémi Caron", "phone": "01 47 00 00 00", "sectors": "Neuilly,Levallois",
                "dailyCapacity": 6, "restHours": 9 })
    );

    // Refusals: a member, a bad value, a technician of no agency of his.
    assert_eq!(
        refusal(technicians::edit(store, &marc, &remi, TechnicianEdit::default()).await),
        (
            403,
            "Modifier un technicien est réservé à un administrateur de l'agence.".to_owned()
        )
    );
    assert_eq!(
        refusal(
            technicians::edit(
                store,
                &admin,
                &remi,
                TechnicianEdit {
                    rest_hours: Some(72),
                    ..TechnicianEdit::default()
                }
            )
            .await
        ),
        (
            422,
            "Le champ « restHours » doit être compris entre 0 et 48 heures.".to_owned()
        )
    );
    assert_eq!(
        refusal(
            technicians::edit(
                store,
                &admin,
                &remi,
                TechnicianEdit {
                    record: TechnicianPatch {
                        name: Some(String::new()),
                        ..TechnicianPatch::default()
                    },
                    ..TechnicianEdit::default()
                }
            )
            .await
        ),
        (422, "Le champ « name » est obligatoire.".to_owned())
    );
    let unknown = TechnicianId::new("inconnu");
    assert_eq!(
        refusal(technicians::set_active(store, &admin, &unknown, false).await),
        (
            404,
            "Technicien introuvable dans cette agence : « inconnu ».".to_owned()
        )
    );

    // On standby next week: he keeps his duty until someone else takes it.
    let starts = chrono::Utc::now() + chrono::Duration::days(7);
    world
        .on_call(remi.as_str(), starts, starts + chrono::Duration::days(7))
        .await;
    let (status, message) = refusal(technicians::set_active(store, &admin, &remi, false).await);
    assert_eq!(status, 422);
    assert!(
        message.starts_with("Rémi Caron est d'astreinte du ")
            && message.ends_with(" : confiez d'abord cette astreinte à un autre technicien."),
        "{message}"
    );
    let bruno = world.technician("Bruno Petit", None).await;
    world
        .on_call(&bruno, starts, starts + chrono::Duration::days(7))
        .await;
    technicians::set_active(store, &admin, &remi, false)
        .await
        .expect("désactivation");
    let (_, roster) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(
        roster
            .as_array()
            .map(|rows| rows.iter().map(|r| r["name"].clone()).collect::<Vec<_>>()),
        Some(vec![json!("Bruno Petit")])
    );
    technicians::set_active(store, &admin, &remi, true)
        .await
        .expect("réactivation");
    let actions: Vec<String> = audit(&server, remi.as_str())
        .into_iter()
        .map(|(_, action, _)| action)
        .collect();
    assert_eq!(
        &actions[actions.len() - 2..],
        ["technicien.desactivation", "technicien.reactivation"]
    );
}

#[tokio::test]
async fn administrators_deactivate_accounts_whose_sessions_and_tokens_end() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let marc = member(&server, &org.agency_id, "marc@durand.fr", &[]);
    let lea = member(&server, &org.agency_id, "lea@durand.fr", &["--admin"]);
    let marc_token = str_of(
        &server.cli_json(&[
            "token",
            "create",
            "--email",
            "marc@durand.fr",
            "--name",
            "t",
        ]),
        "token",
    )
    .to_owned();
    let world = World::in_agency(&server, &org.agency_id);
    let admin = world.staff("admin@durand.fr").await.principal;
    let agency_admin = world.staff("lea@durand.fr").await.principal;
    let as_marc = world.staff("marc@durand.fr").await.principal;
    let store = &server.store;
    let (marc_id, lea_id) = (AccountId::new(marc.as_str()), AccountId::new(lea.as_str()));
    let org_admin_id = AccountId::new(org.admin_id.as_str());
    let other_admin_id = AccountId::new(other.admin_id.as_str());
    let (status, _) = server
        .get_with("/api/v2/technicians", Some(&marc_token), None)
        .await;
    assert_eq!(status, 200);

    // A member may not; nobody deactivates himself nor the last
    // organization administrator; an agency administrator does not manage an
    // organization administrator; another organization's account is unknown.
    assert_eq!(
        refusal(people::deactivate(store, &as_marc, &lea_id).await),
        (
            403,
            "Désactiver un compte est réservé à un administrateur de l'agence.".to_owned()
        )
    );
    assert_eq!(
        refusal(people::deactivate(store, &agency_admin, &lea_id).await),
        (
            422,
            "Vous ne pouvez pas désactiver votre propre compte : demandez-le à un autre administrateur.".to_owned()
        )
    );
    assert_eq!(
        refusal(people::deactivate(store, &agency_admin, &org_admin_id).await),
        (
            403,
            "Seul un administrateur de l'organisation gère le compte d'un administrateur de l'organisation.".to_owned()
        )
    );
    assert_eq!(
        refusal(people::deactivate(store, &world.principal, &org_admin_id).await),
        (
            422,
            "C'est le dernier administrateur de l'organisation : nommez-en un autre avant de désactiver ce compte.".to_owned()
        )
    );
    assert_eq!(
        refusal(people::deactivate(store, &admin, &other_admin_id).await),
        (404, "Compte introuvable.".to_owned())
    );
    assert_eq!(
        refusal(
            people::edit(
                store,
                &admin,
                &marc_id,
                AccountEdit {
                    position: Some(Some("x".repeat(101))),
                    ..AccountEdit::default()
                }
            )
            .await
        ),
        (
            422,
            "Le champ « position » ne doit pas dépasser 100 caractères.".to_owned()
        )
    );

    let edited = people::edit(
        store,
        &agency_admin,
        &marc_id,
        AccountEdit {
            position: Some(Some("Chargé d'affaires".to_owned())),
            ..AccountEdit::default()
        },
    )
    .await
    .expect("modification");
    assert_eq!(
        edited.account.position.as_deref(),
        Some("Chargé d'affaires")
    );
    let gone = people::deactivate(store, &agency_admin, &marc_id)
        .await
        .expect("désactivation");
    assert!(!gone.account.active);
    let (status, body) = server
        .get_with("/api/v2/technicians", Some(&marc_token), None)
        .await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({ "error": "Authentification requise : jeton d'API manquant, inconnu ou révoqué." })
        )
    );
    let signed_in = server
        .client
        .post(server.url("/app/api/session"))
        .json(&json!({ "email": "marc@durand.fr", "password": "motdepasse-solide" }))
        .send()
        .await
        .expect("request");
    assert_eq!(signed_in.status().as_u16(), 401);
    assert_eq!(
        audit(&server, &marc)
            .into_iter()
            .skip(1)
            .collect::<Vec<_>>(),
        [
            (
                "account".to_owned(),
                "modification".to_owned(),
                json!({ "position": { "before": null, "after": "Chargé d'affaires" } })
            ),
            (
                "account".to_owned(),
                "desactivation".to_owned(),
                json!({ "revokedSessions": 0, "revokedTokens": 1 })
            )
        ]
    );
}

#[tokio::test]
async fn only_an_administrator_issues_a_prepared_credit_note() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    member(&server, &org.agency_id, "marc@durand.fr", &[]);
    let world = World::in_agency(&server, &org.agency_id);
    world
        .client(liftdesk::services::clients::ClientInput {
            client_id: Some("C-1".to_owned()),
            nom: Some("Syndic Dupont".to_owned()),
            adresse: Some(Some("12 rue de la Paix, 75002 Paris".to_owned())),
            ..liftdesk::services::clients::ClientInput::default()
        })
        .await;
    let invoice = world
        .draft_invoice("C-1", vec![World::line("Maintenance", 1.0, 100.0, None)])
        .await;
    world.issue_invoice(&invoice).await;
    let note = world
        .draft_credit_note(&invoice, vec![World::line("Reprise", 1.0, 50.0, None)])
        .await;
    // The screen offers « Émettre » to whoever may issue it.
    for (email, actions) in [
        ("marc@durand.fr", json!([])),
        ("admin@durand.fr", json!(["issue"])),
    ] {
        let staff = common::app::StaffClient::sign_in(&server, email, "motdepasse-solide").await;
        let (status, body) = staff.get(&format!("/invoices/{note}")).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["actions"], actions, "{email}");
    }
    let marc = world.staff("marc@durand.fr").await.principal;
    let admin = world.staff("admin@durand.fr").await.principal;
    let note = liftdesk::domain::id::InvoiceId::new(note);
    assert_eq!(
        refusal(liftdesk::services::invoices::issue(&server.store, &marc, &note).await),
        (
            403,
            "Seul un administrateur peut établir un avoir.".to_owned()
        )
    );
    liftdesk::services::invoices::issue(&server.store, &admin, &note)
        .await
        .expect("avoir émis");
}

/// A survey saved before its submission (`surveys::save_for`): its data on
/// the survey only, its photos counted, `en_cours` with the one who saved
/// it as surveyor; cancelled (`cancel_for`), it is final; its due day
/// (`set_due_on_for`); a deal moved to another category
/// (`workflow::set_deal_category`). The API shows each; refusals in French.
#[tokio::test]
async fn surveys_are_saved_cancelled_and_dated_and_deals_change_category() {
    use liftdesk::domain::id::{DealId, SurveyId};
    use liftdesk::services::surveys::{self, SaveInput};
    use liftdesk::services::workflow;

    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let world = World::in_agency(&server, &org.agency_id);
    let surveyor_id = world.staff_account("releveur@durand.fr", true).await;
    let member_id = world.staff_account("membre@durand.fr", false).await;
    world.lift("ASC-1", None).await;
    world.lift("ASC-2", None).await;
    let (deal, survey) = world
        .requested_survey("ASC-1", "releveur@durand.fr", Some("Contrat"), &[])
        .await;
    let token = &org.admin_token;
    let read = |id: String| {
        let server = &server;
        async move {
            let (status, body) = server
                .get_with(&format!("/api/v2/surveys/{id}"), Some(token), None)
                .await;
            assert_eq!(status, 200, "{body}");
            body["fields"].clone()
        }
    };

    // A member who does not survey may not save; the surveyor may.
    let member = world.staff_by_id(&member_id).await.principal;
    let save = SaveInput {
        values: Some(
            json!({"marque": "Otis", "nombre_niveaux": 6})
                .as_object()
                .expect("object")
                .clone(),
        ),
        photo_count: Some(4),
    };
    assert_eq!(
        refusal(
            surveys::save_for(
                &server.store,
                &member,
                &SurveyId::new(survey.as_str()),
                save.clone()
            )
            .await
        )
        .0,
        403
    );
    world.saved_survey(&surveyor_id, &survey, save).await;
    let fields = read(survey.clone()).await;
    assert_eq!(fields["status"], json!("En cours"));
    assert_eq!(fields["photoCount"], json!("4"));
    let conn = open_db(server.data_dir.path());
    let (values, equipment_values, surveyor): (i64, i64, Option<String>) = conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM survey_values WHERE survey_id = s.id),
                    (SELECT COUNT(*) FROM equipment_values WHERE equipment_id = s.equipment_id),
                    s.surveyor_account_id
             FROM surveys s WHERE s.id = ?1",
            [&survey],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("survey");
    assert_eq!((values, equipment_values), (2, 0));
    assert_eq!(surveyor.as_deref(), Some(surveyor_id.as_str()));
    let surveyor = world.staff_by_id(&surveyor_id).await.principal;
    let bad_photos = SaveInput {
        values: None,
        photo_count: Some(-1),
    };
    assert_eq!(
        refusal(
            surveys::save_for(
                &server.store,
                &surveyor,
                &SurveyId::new(survey.as_str()),
                bad_photos
            )
            .await
        ),
        (
            422,
            "Le champ « photoCount » va de 0 à 500 (reçu : -1).".to_owned()
        )
    );

    // Its due day, then cancelled: final.
    let due = chrono::NaiveDate::from_ymd_opt(2026, 4, 1).expect("day");
    world.survey_due(&survey, due).await;
    assert_eq!(read(survey.clone()).await["dueOn"], json!("01/04/2026"));
    world.cancelled_survey(&survey).await;
    assert_eq!(read(survey.clone()).await["status"], json!("Annulé"));
    assert_eq!(
        refusal(surveys::save_for(&server.store, &surveyor, &SurveyId::new(survey.as_str()), SaveInput::default()).await),
        (
            422,
            "Action refusée : impossible d'enregistrer ce relevé au statut « Annulé » : si l'équipement doit être relevé, demandez un nouveau relevé.".to_owned()
        )
    );
    assert_eq!(
        refusal(
            surveys::set_due_on_for(
                &server.store,
                &world.principal,
                &SurveyId::new(survey.as_str()),
                Some(due)
            )
            .await
        ),
        (
            422,
            "L'échéance d'un relevé terminé ou annulé ne se modifie plus.".to_owned()
        )
    );
    let actions: Vec<String> = audit(&server, &survey)
        .into_iter()
        .map(|(_, action, _)| action)
        .collect();
    assert_eq!(actions, ["enregistrement", "echeance", "annulation"]);

    // The deal: another category, not an unknown one, not another agency's.
    world.deal_category(&deal, "Gagnée").await;
    let category: String = conn
        .query_row("SELECT category FROM deals WHERE id = ?1", [&deal], |r| {
            r.get(0)
        })
        .expect("deal");
    assert_eq!(category, "Gagnée");
    let (status, message) = refusal(
        workflow::set_deal_category(
            &server.store,
            &world.principal,
            &DealId::new(deal.as_str()),
            "Gagné",
        )
        .await,
    );
    assert_eq!(status, 422);
    assert!(
        message.starts_with(
            "La valeur « Gagné » du champ « opportunity_category » n'est pas autorisée"
        ),
        "{message}"
    );
    let theirs = World::in_agency(&server, &other.agency_id);
    assert_eq!(
        refusal(
            workflow::set_deal_category(
                &server.store,
                &theirs.principal,
                &DealId::new(deal.as_str()),
                "Perdue"
            )
            .await
        ),
        (404, "Affaire introuvable.".to_owned())
    );
    server.stop().await;
}
