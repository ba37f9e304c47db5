//! The web application's weekly planning (`/app/api/planning…`,
//! `/app/api/visits…`): the week by technician, creating, moving, starting
//! and closing a visit, the maintenance interval, and the proposal of next
//! week with its saving. Fixtures are written by the operations
//! (`common::world`, the command line acting in the agency); every call goes
//! over HTTP as the UI makes it (session cookie + CSRF token).

use crate::common;

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use common::app::StaffClient;
use common::db::TestDb as Connection;
use common::world::{World, morning};
use common::*;
use liftdesk::clock;
use liftdesk::domain::technician::TechnicianInput;
use serde_json::{Value, json};

/// Writes of the large fixtures run side by side.
const WIDTH: usize = 64;

fn day_text(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

fn french(date: NaiveDate) -> String {
    date.format("%d/%m/%Y").to_string()
}

/// Monday of the week after today's (Paris).
fn next_monday() -> NaiveDate {
    let today = clock::paris_today();
    today - Duration::days(i64::from(today.weekday().num_days_from_monday())) + Duration::days(7)
}

struct Db(Connection);

impl Db {
    fn open(server: &TestServer) -> Db {
        let conn = open_db(server.data_dir.path());
        Db(conn)
    }

    fn count(&self, sql: &str) -> i64 {
        self.0.query_row(sql, [], |r| r.get(0)).expect("count")
    }
}

/// A technician of the agency with his sectors and daily capacity.
async fn new_technician(world: &World, name: &str, sectors: &str, capacity: i64) -> String {
    world
        .technician_with(TechnicianInput {
            name: Some(name.to_owned()),
            sectors: vec![sectors.to_owned()],
            daily_capacity: Some(capacity),
            ..TechnicianInput::default()
        })
        .await
}

/// A building at 12 rue de la Paix.
async fn new_building(world: &World, name: &str, postal_code: &str, city: &str) -> String {
    world
        .building(
            Some(name),
            "12 rue de la Paix",
            Some(postal_code),
            Some(city),
        )
        .await
}

/// A lift under contract (`parc`) in the building, its plan started on
/// `plan_start`.
async fn new_lift(world: &World, building: &str, number: &str, plan_start: NaiveDate) -> String {
    world
        .equipment_since(number, ("ascenseur", "parc"), Some(building), plan_start)
        .await
}

/// A visit of `day` by `tech`, done from 08:00 to 09:00 UTC, signed by
/// Mme Martin.
async fn done_visit(world: &World, equipment: &str, tech: &str, day: NaiveDate) -> String {
    let arrived = day.and_hms_opt(8, 0, 0).expect("8h").and_utc();
    world
        .done_visit(
            equipment,
            Some(tech),
            day,
            (arrived, arrived + Duration::hours(1)),
            "Mme Martin",
            None,
        )
        .await
}

/// Standby for the week ending at `ends`.
async fn on_call_until(world: &World, technician: &str, ends: DateTime<Utc>) {
    world
        .on_call(technician, ends - Duration::days(7), ends)
        .await;
}

fn member(server: &TestServer, agency: &str, email: &str) {
    server.cli_json(&[
        "user",
        "create",
        "--email",
        email,
        "--name",
        "Membre",
        "--password",
        "motdepasse-solide",
        "--agency",
        agency,
    ]);
}

#[tokio::test]
async fn the_week_lists_visits_by_technician_with_absences_and_another_agency_is_404() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let db = Db::open(&server);
    let monday = next_monday();
    let world = World::in_agency(&server, &org.agency_id);
    let far = World::in_agency(&server, &other.agency_id);
    let alice = new_technician(&world, "Alice Durand", "Paris 15e", 6).await;
    let bruno = new_technician(&world, "Bruno Petit", "Paris 15e", 6).await;
    world
        .absence(
            &bruno,
            monday + Duration::days(1),
            monday + Duration::days(2),
            "Congés payés",
        )
        .await;
    let building = new_building(&world, "Résidence Lourmel", "75015", "Paris").await;
    let lift = new_lift(&world, &building, "ASC-001", monday).await;
    // Every two days: the deadline is Wednesday.
    world.visit_interval(&lift, 2).await;
    let visit = world
        .visit(&lift, Some(&alice), monday + Duration::days(3))
        .await;
    let unassigned_lift = new_lift(&world, &building, "ASC-002", monday).await;
    world.visit(&unassigned_lift, None, monday).await;
    // A technician who left keeps his row while he carries a visit of the week;
    // one who left without visits that week has none.
    let gone = new_technician(&world, "Zoé Ancienne", "Paris 15e", 6).await;
    let gone_idle = new_technician(&world, "Yves Parti", "Paris 15e", 6).await;
    let third_lift = new_lift(&world, &building, "ASC-003", monday).await;
    world
        .visit(&third_lift, Some(&gone), monday + Duration::days(5))
        .await;
    world.deactivate_technician(&gone).await;
    world.deactivate_technician(&gone_idle).await;
    let other_tech = new_technician(&far, "Autre Tech", "Paris 15e", 6).await;
    let other_building = new_building(&far, "Ailleurs", "75015", "Paris").await;
    let other_lift = new_lift(&far, &other_building, "ASC-900", monday).await;
    let other_visit = far.visit(&other_lift, Some(&other_tech), monday).await;

    let staff = StaffClient::sign_in(&server, "admin@org.fr", "motdepasse-solide").await;
    let (status, week) = staff
        .get(&format!(
            "/planning?day={}",
            day_text(monday + Duration::days(4))
        ))
        .await;
    assert_eq!(status, 200, "{week}");
    let days: Vec<String> = (0..7)
        .map(|i| day_text(monday + Duration::days(i)))
        .collect();
    assert_eq!(week["days"], json!(days));
    assert_eq!(week["today"], json!(day_text(clock::paris_today())));
    assert_eq!(
        week["technicians"],
        json!([
            { "id": alice, "name": "Alice Durand", "sectors": "Paris 15e", "dailyCapacity": 6,
              "active": true, "absentDays": [], "restDays": [] },
            { "id": bruno, "name": "Bruno Petit", "sectors": "Paris 15e", "dailyCapacity": 6,
              "active": true, "absentDays": [days[1], days[2]], "restDays": [] },
            { "id": gone, "name": "Zoé Ancienne", "sectors": "Paris 15e", "dailyCapacity": 6,
              "active": false, "absentDays": [], "restDays": [] },
        ])
    );
    let entries = week["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 3, "{week}");
    assert_eq!(entries[2]["technicianId"], json!(gone));
    assert_eq!(entries[0]["technicianId"], Value::Null);
    assert_eq!(entries[0]["number"], json!("ASC-002"));
    assert_eq!(
        entries[1],
        json!({
            "id": visit, "technicianId": alice, "day": days[3], "status": "planifiee",
            "equipmentId": lift, "number": "ASC-001", "building": "Résidence Lourmel",
            "buildingId": building,
            "address": "12 rue de la Paix, 75015 Paris", "deadline": days[2], "overdue": true,
            // Under no contract: no periodic duty.
            "duties": [],
        })
    );

    let (status, body) = staff.get("/planning?day=lundi").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({ "error": "Le paramètre « day » doit être un jour au format AAAA-MM-JJ." })
        )
    );
    let (status, body) = staff.get("/planning?day=2026-02-30").await;
    assert_eq!(status, 422, "{body}");

    // Another agency's visit does not exist here.
    let not_found = json!({ "error": "Visite introuvable." });
    let (status, body) = staff.get(&format!("/visits/{other_visit}")).await;
    assert_eq!((status, body), (404, not_found.clone()));
    let (status, body) = staff
        .post(
            &format!("/visits/{other_visit}/move"),
            json!({ "plannedFor": days[4] }),
        )
        .await;
    assert_eq!((status, body), (404, not_found.clone()));
    let (status, body) = staff
        .post(&format!("/visits/{other_visit}/start"), json!({}))
        .await;
    assert_eq!((status, body), (404, not_found));
    let (status, body) = staff
        .get(&format!("/planning/equipment/{other_lift}"))
        .await;
    assert_eq!(
        (status, body),
        (404, json!({ "error": "Équipement introuvable." }))
    );
    assert_eq!(
        db.count(&format!(
            "SELECT count(*) FROM visits WHERE id = '{other_visit}' AND planned_for = '{}'",
            days[0]
        )),
        1
    );

    // Without the session, nothing.
    let response = server
        .client
        .get(server.url("/app/api/planning"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
}

#[tokio::test]
async fn a_visit_is_created_moved_started_and_closed_with_french_refusals() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    member(&server, &org.agency_id, "membre@org.fr");
    let db = Db::open(&server);
    let monday = next_monday();
    let days: Vec<NaiveDate> = (0..7).map(|i| monday + Duration::days(i)).collect();
    let world = World::in_agency(&server, &org.agency_id);
    let alice = new_technician(&world, "Alice Durand", "Paris 15e", 6).await;
    let bruno = new_technician(&world, "Bruno Petit", "Paris 15e", 6).await;
    world
        .absence(&bruno, days[1], days[1], "Congés payés")
        .await;
    let foreign_tech = new_technician(
        &World::in_agency(&server, &other.agency_id),
        "Autre Tech",
        "Paris 15e",
        6,
    )
    .await;
    let building = new_building(&world, "Résidence Lourmel", "75015", "Paris").await;
    let plan_start = clock::paris_today() - Duration::days(100);
    let lift = new_lift(&world, &building, "ASC-001", plan_start).await;
    let last_done = clock::paris_today() - Duration::days(30);
    done_visit(&world, &lift, &alice, last_done).await;

    // Members plan too.
    let staff = StaffClient::sign_in(&server, "membre@org.fr", "motdepasse-solide").await;
    let (status, created) = staff
        .post(
            "/visits",
            json!({ "equipmentId": lift, "technicianId": alice, "plannedFor": day_text(days[0]) }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let visit = str_of(&created, "id").to_owned();
    assert_eq!(created["status"], json!("planifiee"));
    assert_eq!(created["plannedFor"], json!(day_text(days[0])));
    assert_eq!(created["technicianId"], json!(alice));
    assert_eq!(created["number"], json!("ASC-001"));
    assert_eq!(
        created["deadline"],
        json!(day_text(last_done + Duration::days(42)))
    );
    assert_eq!(
        db.count(&format!(
            "SELECT count(*) FROM audit_log WHERE object_id = '{visit}' AND action = 'planification'"
        )),
        1
    );

    // One visit not done per equipment.
    let (status, body) = staff
        .post(
            "/visits",
            json!({ "equipmentId": lift, "plannedFor": day_text(days[2]) }),
        )
        .await;
    assert_eq!(status, 409);
    assert_eq!(
        body["error"],
        json!(format!(
            "Une visite de cet équipement est déjà prévue le {} : déplacez-la plutôt que d'en créer une autre.",
            french(days[0])
        ))
    );
    let second = new_lift(&world, &building, "ASC-002", plan_start).await;
    for (body, message) in [
        (
            json!({ "equipmentId": second, "plannedFor": day_text(clock::paris_today() - Duration::days(1)) }),
            "Une visite ne peut pas être planifiée dans le passé.".to_owned(),
        ),
        (
            json!({ "equipmentId": second, "technicianId": bruno, "plannedFor": day_text(days[1]) }),
            format!(
                "Bruno Petit : absence enregistrée le {} ; choisissez un autre jour ou un autre technicien.",
                french(days[1])
            ),
        ),
        (
            json!({ "equipmentId": second, "technicianId": foreign_tech, "plannedFor": day_text(days[1]) }),
            format!("Technicien introuvable dans cette agence : « {foreign_tech} »."),
        ),
        (
            json!({ "equipmentId": "inconnu", "plannedFor": day_text(days[1]) }),
            "Équipement introuvable dans cette agence : « inconnu ».".to_owned(),
        ),
        (
            json!({ "equipmentId": second, "plannedFor": "31/12/2026" }),
            "Le champ « plannedFor » doit être un jour au format AAAA-MM-JJ.".to_owned(),
        ),
    ] {
        let (status, answer) = staff.post("/visits", body.clone()).await;
        assert_eq!(
            (status, answer),
            (422, json!({ "error": message })),
            "{body}"
        );
    }
    // Unassigned is allowed.
    let (status, unassigned) = staff
        .post(
            "/visits",
            json!({ "equipmentId": second, "technicianId": null, "plannedFor": day_text(days[4]) }),
        )
        .await;
    assert_eq!(status, 201, "{unassigned}");
    assert_eq!(unassigned["technicianId"], Value::Null);

    // Moving: to a day of absence is refused, to another day and technician works.
    let (status, body) = staff
        .post(
            &format!("/visits/{visit}/move"),
            json!({ "plannedFor": day_text(days[1]), "technicianId": bruno }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(format!(
            "Bruno Petit : absence enregistrée le {} ; choisissez un autre jour ou un autre technicien.",
            french(days[1])
        ))
    );
    let (status, moved) = staff
        .post(
            &format!("/visits/{visit}/move"),
            json!({ "plannedFor": day_text(days[2]), "technicianId": bruno }),
        )
        .await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["plannedFor"], json!(day_text(days[2])));
    assert_eq!(moved["technicianId"], json!(bruno));
    // Same technician kept when only the day changes.
    let (status, moved) = staff
        .post(
            &format!("/visits/{visit}/move"),
            json!({ "plannedFor": day_text(days[3]) }),
        )
        .await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["technicianId"], json!(bruno));
    // The unassigned visit given to Alice, then the move undone: unassigned
    // again, on its day (« Annuler le déplacement »).
    let unassigned_id = str_of(&unassigned, "id").to_owned();
    let (status, _) = staff
        .post(
            &format!("/visits/{unassigned_id}/move"),
            json!({ "plannedFor": day_text(days[5]), "technicianId": alice }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = staff
        .post(
            &format!("/visits/{unassigned_id}/move"),
            json!({ "plannedFor": day_text(days[4]), "technicianId": alice, "unassign": true }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Choisissez le technicien de la visite (« technicianId ») ou retirez-le (« unassign »), pas les deux." })
        )
    );
    let (status, undone) = staff
        .post(
            &format!("/visits/{unassigned_id}/move"),
            json!({ "plannedFor": day_text(days[4]), "unassign": true }),
        )
        .await;
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["technicianId"], Value::Null);
    assert_eq!(undone["plannedFor"], json!(day_text(days[4])));

    // Start, then it cannot move; close.
    let (status, started) = staff
        .post(&format!("/visits/{visit}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["status"], json!("en_cours"));
    assert!(started["arrivedAt"].is_string());
    let (status, body) = staff
        .post(
            &format!("/visits/{visit}/move"),
            json!({ "plannedFor": day_text(days[4]) }),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        str_of(&body, "error").starts_with(
            "Action refusée : impossible de replanifier cette visite au statut « En cours »"
        ),
        "{body}"
    );
    let (status, body) = staff
        .post(
            &format!("/visits/{visit}/complete"),
            json!({ "signedBy": "  " }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le champ « signedBy » est obligatoire : indiquez qui a signé le bon de visite." })
        )
    );
    let (status, closed) = staff
        .post(
            &format!("/visits/{visit}/complete"),
            json!({ "signedBy": "M. Bernard (gardien)", "observations": "RAS." }),
        )
        .await;
    assert_eq!(status, 200, "{closed}");
    assert_eq!(closed["status"], json!("faite"));
    assert_eq!(closed["signedBy"], json!("M. Bernard (gardien)"));
    assert_eq!(closed["observations"], json!("RAS."));
    assert_eq!(closed["doneOn"], json!(day_text(clock::paris_today())));

    // A done visit never moves.
    let (status, body) = staff
        .post(
            &format!("/visits/{visit}/move"),
            json!({ "plannedFor": day_text(days[4]) }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Action refusée : impossible de replanifier cette visite au statut « Faite » : une visite faite est inscrite au carnet d'entretien et ne change plus." })
        )
    );
    // Closing a planned visit afterwards needs the arrival.
    let (status, body) = staff
        .post(
            &format!("/visits/{}/complete", str_of(&unassigned, "id")),
            json!({ "signedBy": "Mme Martin" }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(
            "Le champ « arrivedAt » est obligatoire pour terminer une visite qui n'a pas été commencée."
        )
    );
}

#[tokio::test]
async fn the_maintenance_interval_is_an_administrators_and_validated() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    member(&server, &org.agency_id, "membre@org.fr");
    let db = Db::open(&server);
    let start = NaiveDate::from_ymd_opt(2026, 1, 5).expect("day");
    let world = World::in_agency(&server, &org.agency_id);
    let far = World::in_agency(&server, &other.agency_id);
    let building = new_building(&world, "Résidence", "75015", "Paris").await;
    let lift = new_lift(&world, &building, "ASC-001", start).await;
    let door = world
        .equipment_since(
            "PFE-001",
            ("porte_fermeture", "parc"),
            Some(&building),
            start,
        )
        .await;
    let other_building = new_building(&far, "Ailleurs", "75015", "Paris").await;
    let foreign = new_lift(&far, &other_building, "ASC-9", start).await;

    let admin = StaffClient::sign_in(&server, "admin@org.fr", "motdepasse-solide").await;
    let (status, plan) = admin.get(&format!("/planning/equipment/{lift}")).await;
    assert_eq!(status, 200, "{plan}");
    assert_eq!(
        plan,
        json!({
            "id": lift, "number": "ASC-001", "type": "ascenseur", "maintenanceContract": "parc",
            "inPlan": true, "visitIntervalDays": 42, "planStartOn": "2026-01-05",
            "lastDoneOn": null, "deadline": "2026-02-16", "openVisitOn": null,
        })
    );

    let membre = StaffClient::sign_in(&server, "membre@org.fr", "motdepasse-solide").await;
    let (status, body) = membre
        .put(
            &format!("/planning/equipment/{lift}/interval"),
            json!({ "days": 28 }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            403,
            json!({ "error": "Modifier l'intervalle d'entretien d'un équipement est réservé à un administrateur de l'agence." })
        )
    );

    for (equipment, days, message) in [
        (
            &lift,
            0,
            "L'intervalle entre deux visites doit être un nombre de jours entre 1 et 365.",
        ),
        (
            &door,
            366,
            "L'intervalle entre deux visites doit être un nombre de jours entre 1 et 365.",
        ),
        (
            &lift,
            43,
            "Un ascenseur doit être visité au moins toutes les six semaines : 42 jours au plus.",
        ),
    ] {
        let (status, body) = admin
            .put(
                &format!("/planning/equipment/{equipment}/interval"),
                json!({ "days": days }),
            )
            .await;
        assert_eq!((status, body), (422, json!({ "error": message })), "{days}");
    }
    let (status, body) = admin
        .put(
            &format!("/planning/equipment/{lift}/interval"),
            json!({ "days": "28" }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = admin
        .put(
            &format!("/planning/equipment/{foreign}/interval"),
            json!({ "days": 28 }),
        )
        .await;
    assert_eq!(
        (status, body),
        (404, json!({ "error": "Équipement introuvable." }))
    );

    let (status, plan) = admin
        .put(
            &format!("/planning/equipment/{lift}/interval"),
            json!({ "days": 28 }),
        )
        .await;
    assert_eq!(status, 200, "{plan}");
    assert_eq!(plan["visitIntervalDays"], json!(28));
    assert_eq!(plan["deadline"], json!("2026-02-02"));
    let (status, plan) = admin
        .put(
            &format!("/planning/equipment/{door}/interval"),
            json!({ "days": 180 }),
        )
        .await;
    assert_eq!(status, 200, "{plan}");
    assert_eq!(
        db.count(&format!(
            "SELECT visit_interval_days FROM equipment WHERE id = '{door}'"
        )),
        180
    );
    assert_eq!(
        db.count(&format!(
            "SELECT count(*) FROM audit_log WHERE object_id = '{lift}' AND action = 'intervalle_visites'"
        )),
        1
    );
}

#[tokio::test]
async fn next_week_is_proposed_from_the_plan_reviewed_and_saved_in_one_transaction() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    member(&server, &org.agency_id, "membre@org.fr");
    let db = Db::open(&server);
    let monday = next_monday();
    let days: Vec<NaiveDate> = (0..7).map(|i| monday + Duration::days(i)).collect();
    let agency = org.agency_id.as_str();
    let world = World::in_agency(&server, agency);
    // Alice covers Paris 15e, two visits a day, and already has one on Monday.
    let alice = new_technician(&world, "Alice Durand", "Paris 15e", 2).await;
    // Bruno covers it too but is away all week.
    let bruno = new_technician(&world, "Bruno Petit", "75015", 6).await;
    world
        .absence(&bruno, days[0] - Duration::days(3), days[6], "Congés payés")
        .await;
    // Chloé covers Issy and rests on Monday after her standby (ends 08:00 Paris).
    let chloe = new_technician(&world, "Chloé Martin", "Issy-les-Moulineaux", 6).await;
    let offset = clock::paris_offset_hours(days[0].and_hms_opt(12, 0, 0).expect("noon").and_utc());
    on_call_until(
        &world,
        &chloe,
        days[0].and_hms_opt(8, 0, 0).expect("8h").and_utc() - Duration::hours(offset),
    )
    .await;
    let paris = new_building(&world, "Résidence Lourmel", "75015", "Paris").await;
    let issy = new_building(&world, "Les Jardins", "92130", "Issy-les-Moulineaux").await;
    let montreuil = new_building(&world, "Croix de Chavaux", "93100", "Montreuil").await;
    let start = clock::paris_today() - Duration::days(400);
    // Six lifts in Paris 15e, deadlines from Tuesday to Sunday of next week
    // (last visit 42 days before).
    let mut paris_lifts = Vec::new();
    for i in 0..6 {
        let lift = new_lift(&world, &paris, &format!("P-{i}"), start).await;
        done_visit(
            &world,
            &lift,
            &alice,
            days[6 - i as usize] - Duration::days(42),
        )
        .await;
        paris_lifts.push(lift);
    }
    let busy = new_lift(&world, &paris, "P-busy", start).await;
    world.visit(&busy, Some(&alice), days[0]).await;
    // Issy: due, deadline Monday.
    let issy_lift = new_lift(&world, &issy, "I-1", start).await;
    done_visit(&world, &issy_lift, &chloe, days[0] - Duration::days(42)).await;
    // Montreuil: no technician covers it.
    let lost = new_lift(&world, &montreuil, "M-1", start).await;
    // Not due: deadline after next Sunday; outside the plan; already planned later.
    let later = new_lift(&world, &paris, "P-later", start).await;
    done_visit(
        &world,
        &later,
        &alice,
        days[6] + Duration::days(1) - Duration::days(42),
    )
    .await;
    world
        .equipment_since("P-hors", ("ascenseur", "hors_parc"), Some(&paris), start)
        .await;
    // Already planned later, within its deadline (after the week): left
    // where it is (a late one is moved, see the next test).
    let planned_later = new_lift(&world, &paris, "P-planned", start).await;
    done_visit(
        &world,
        &planned_later,
        &alice,
        days[6] + Duration::days(20) - Duration::days(42),
    )
    .await;
    world
        .visit(&planned_later, Some(&alice), days[6] + Duration::days(14))
        .await;
    let far = World::in_agency(&server, &other.agency_id);
    let other_building = new_building(&far, "Ailleurs", "75015", "Paris").await;
    let foreign = new_lift(&far, &other_building, "X-1", start).await;
    let visits_before = db.count("SELECT count(*) FROM visits");

    let staff = StaffClient::sign_in(&server, "membre@org.fr", "motdepasse-solide").await;
    let (status, proposal) = staff.get("/planning/proposal").await;
    assert_eq!(status, 200, "{proposal}");
    assert_eq!(
        db.count("SELECT count(*) FROM visits"),
        visits_before,
        "no write"
    );
    let week: Vec<String> = days.iter().copied().map(day_text).collect();
    assert_eq!(proposal["days"], json!(week));
    let lines = proposal["visits"].as_array().expect("visits").clone();
    let number_of = |line: &Value| str_of(line, "number").to_owned();
    let numbers: Vec<String> = lines.iter().map(number_of).collect();
    // Earliest deadline first: M-1 (never visited: plan start + 42, long
    // past) is left out; I-1 (Monday); then P-5 (Tuesday) … P-0 (Sunday).
    assert_eq!(numbers, ["I-1", "P-5", "P-4", "P-3", "P-2", "P-1", "P-0"]);
    // Chloé rests on Monday: the Issy visit is on Tuesday, late by a day.
    assert_eq!(
        lines[0],
        json!({
            "equipmentId": issy_lift, "number": "I-1", "building": "Les Jardins",
            "address": "12 rue de la Paix, 92130 Issy-les-Moulineaux", "deadline": week[0],
            "technicianId": chloe, "day": week[1], "overdue": true, "duties": [],
        })
    );
    // Paris goes to Alice only, never more than two a day counting Monday's visit.
    let mut per_day = std::collections::HashMap::new();
    per_day.insert(week[0].clone(), 1);
    for line in &lines[1..] {
        assert_eq!(line["technicianId"], json!(alice), "{line}");
        let day = str_of(line, "day").to_owned();
        assert!(
            day.as_str() <= str_of(line, "deadline") || day == week[4],
            "{line}"
        );
        assert!(
            day.as_str() <= week[4].as_str(),
            "working days only: {line}"
        );
        *per_day.entry(day).or_insert(0) += 1;
    }
    assert!(per_day.values().all(|&n| n <= 2), "{per_day:?}");
    assert_eq!(
        proposal["unplaced"],
        json!([{
            "equipmentId": lost, "number": "M-1", "building": "Croix de Chavaux",
            "address": "12 rue de la Paix, 93100 Montreuil",
            "deadline": day_text(start + Duration::days(42)),
            "reason": "Aucun technicien actif ne couvre le secteur de l'immeuble (93100 Montreuil).",
            "duties": [],
        }])
    );
    assert_eq!(
        proposal["existingLoads"],
        json!({ format!("{alice}|{}", week[0]): 1 })
    );
    let (_, again) = staff.get("/planning/proposal").await;
    assert_eq!(again, proposal, "deterministic");

    // A week that has begun is refused.
    let (status, body) = staff
        .get(&format!(
            "/planning/proposal?day={}",
            day_text(clock::paris_today())
        ))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(
            "La proposition porte sur une semaine à venir : choisissez une semaine qui commence après aujourd'hui."
        )
    );

    // Review: drop P-0, move P-1 to Friday. Saving is re-validated.
    let mut kept: Vec<Value> = lines
        .iter()
        .filter(|l| l["number"] != json!("P-0"))
        .map(|l| {
            let day = if l["number"] == json!("P-1") { week[4].clone() } else { str_of(l, "day").to_owned() };
            json!({ "equipmentId": l["equipmentId"], "technicianId": l["technicianId"], "day": day })
        })
        .collect();
    let refusals = [
        (
            json!({ "visits": [] }),
            "Aucune visite à enregistrer.".to_owned(),
        ),
        (
            json!({ "visits": [{ "equipmentId": busy, "technicianId": alice, "day": week[2] }] }),
            format!(
                "Ligne 1 (P-busy) : une visite est déjà prévue le {} pour cet équipement.",
                french(days[0])
            ),
        ),
        (
            json!({ "visits": [{ "equipmentId": foreign, "technicianId": alice, "day": week[2] }] }),
            format!("Ligne 1 : équipement introuvable dans cette agence : « {foreign} »."),
        ),
        (
            json!({ "visits": [{ "equipmentId": lost, "technicianId": bruno, "day": week[2] }] }),
            format!(
                "Ligne 1 (M-1) : Bruno Petit est absent le {}.",
                french(days[2])
            ),
        ),
        (
            json!({ "visits": [{ "equipmentId": lost, "technicianId": chloe, "day": week[0] }] }),
            format!(
                "Ligne 1 (M-1) : Chloé Martin est en repos de sécurité après son astreinte le {}.",
                french(days[0])
            ),
        ),
        (
            json!({ "visits": [
                { "equipmentId": lost, "technicianId": alice, "day": week[0] },
                { "equipmentId": later, "technicianId": alice, "day": week[0] },
            ] }),
            format!(
                "Ligne 2 (P-later) : Alice Durand a déjà 2 visites le {} (charge journalière : 2).",
                french(days[0])
            ),
        ),
        (
            json!({ "visits": [
                { "equipmentId": lost, "technicianId": chloe, "day": week[3] },
                { "equipmentId": lost, "technicianId": chloe, "day": week[4] },
            ] }),
            "Ligne 2 (M-1) : l'équipement figure deux fois dans la liste.".to_owned(),
        ),
        (
            json!({ "visits": [{ "equipmentId": lost, "technicianId": chloe, "day": day_text(clock::paris_today() - Duration::days(1)) }] }),
            "Ligne 1 : une visite ne peut pas être planifiée dans le passé.".to_owned(),
        ),
    ];
    for (body, message) in refusals {
        let (status, answer) = staff.post("/planning/proposal", body.clone()).await;
        assert_eq!(
            (status, answer),
            (422, json!({ "error": message })),
            "{body}"
        );
    }
    // A refused line anywhere writes nothing, not even the lines before it.
    let mut with_bad = kept.clone();
    with_bad.push(json!({ "equipmentId": busy, "technicianId": alice, "day": week[3] }));
    let (status, _) = staff
        .post("/planning/proposal", json!({ "visits": with_bad }))
        .await;
    assert_eq!(status, 422);
    assert_eq!(db.count("SELECT count(*) FROM visits"), visits_before);

    // Staff also place Montreuil by hand with Chloé on Thursday.
    kept.push(json!({ "equipmentId": lost, "technicianId": chloe, "day": week[3] }));
    let (status, saved) = staff
        .post("/planning/proposal", json!({ "visits": kept }))
        .await;
    assert_eq!(status, 201, "{saved}");
    assert_eq!(saved["created"], json!(7));
    assert_eq!(db.count("SELECT count(*) FROM visits"), visits_before + 7);

    let (_, planning) = staff.get(&format!("/planning?day={}", week[0])).await;
    let entries = planning["entries"].as_array().expect("entries");
    let find = |number: &str| {
        entries
            .iter()
            .find(|e| e["number"] == json!(number))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(find("P-1")["day"], json!(week[4]));
    assert_eq!(find("P-0"), Value::Null);
    assert_eq!(find("M-1")["technicianId"], json!(chloe));
    assert_eq!(find("I-1")["deadline"], json!(week[0]));
    assert_eq!(find("I-1")["overdue"], json!(true));
    // Now planned: the next proposal leaves them out.
    let (_, next) = staff.get("/planning/proposal").await;
    let numbers: Vec<String> = next["visits"]
        .as_array()
        .expect("visits")
        .iter()
        .map(number_of)
        .collect();
    assert_eq!(numbers, ["P-0"]);
}

/// The dashboard counted late visits that the proposal never offered: a
/// visit planned on a past day and not done, or planned after its deadline,
/// is proposed first and moved into the week (the same visit, not a second
/// one).
#[tokio::test]
async fn late_visits_are_proposed_first_and_moved_not_duplicated() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    member(&server, &org.agency_id, "membre@org.fr");
    let db = Db::open(&server);
    let monday = next_monday();
    let week: Vec<String> = (0..7)
        .map(|i| day_text(monday + Duration::days(i)))
        .collect();
    let world = World::in_agency(&server, &org.agency_id);
    let alice = new_technician(&world, "Alice Durand", "75015", 1).await;
    let paris = new_building(&world, "Résidence Lourmel", "75015", "Paris").await;
    let start = clock::paris_today() - Duration::days(400);
    // Planned ten days ago, never done.
    let forgotten = new_lift(&world, &paris, "P-oublie", start).await;
    let forgotten_visit = world
        .visit(
            &forgotten,
            Some(&alice),
            clock::paris_today() - Duration::days(10),
        )
        .await;
    // Planned in a month, though its deadline is long past.
    let pushed = new_lift(&world, &paris, "P-repousse", start).await;
    let pushed_visit = world
        .visit(&pushed, Some(&alice), monday + Duration::days(30))
        .await;
    // Due on Wednesday without a visit.
    let due = new_lift(&world, &paris, "P-du", start).await;
    done_visit(
        &world,
        &due,
        &alice,
        monday + Duration::days(2) - Duration::days(42),
    )
    .await;
    // Due in five days, planned in three without a technician (no load on
    // Alice's days): due soon, not late.
    let soon = new_lift(&world, &paris, "P-bientot", start).await;
    done_visit(
        &world,
        &soon,
        &alice,
        clock::paris_today() + Duration::days(5) - Duration::days(42),
    )
    .await;
    let soon_visit = world
        .visit(&soon, None, clock::paris_today() + Duration::days(3))
        .await;
    let visits_before = db.count("SELECT count(*) FROM visits");

    let staff = StaffClient::sign_in(&server, "membre@org.fr", "motdepasse-solide").await;
    let (status, proposal) = staff.get("/planning/proposal").await;
    assert_eq!(status, 200, "{proposal}");
    let lines = proposal["visits"].as_array().expect("visits").clone();
    let numbers: Vec<&str> = lines.iter().map(|l| str_of(l, "number")).collect();
    // The late ones first, the due one after them.
    assert_eq!(numbers, ["P-oublie", "P-repousse", "P-du"]);
    assert_eq!(
        lines[0]["lateVisit"],
        json!({ "id": forgotten_visit, "plannedFor": day_text(clock::paris_today() - Duration::days(10)) })
    );
    assert_eq!(lines[1]["lateVisit"]["id"], json!(pushed_visit));
    assert_eq!(lines[2].get("lateVisit"), None);
    // One a day for Alice: Monday, Tuesday, Wednesday.
    let days: Vec<&str> = lines.iter().map(|l| str_of(l, "day")).collect();
    assert_eq!(days, [&week[0], &week[1], &week[2]]);

    // The list of late and due-soon visits: the late ones first.
    let (status, pending) = staff.get("/visits/late").await;
    assert_eq!(status, 200, "{pending}");
    assert_eq!(
        (&pending["late"], &pending["dueSoon"], &pending["days"]),
        (&json!(2), &json!(1), &json!(14))
    );
    let rows = pending["visits"].as_array().expect("visits");
    let ids: Vec<&str> = rows.iter().map(|r| str_of(r, "id")).collect();
    assert_eq!(
        ids,
        [
            forgotten_visit.as_str(),
            pushed_visit.as_str(),
            soon_visit.as_str()
        ]
    );
    assert_eq!(rows[0]["late"], json!(true));
    assert_eq!(
        rows[0]["equipment"],
        json!({ "id": forgotten, "name": "P-oublie" })
    );
    assert_eq!(rows[0]["building"]["name"], json!("Résidence Lourmel"));
    assert_eq!(rows[0]["address"], json!("12 rue de la Paix, 75015 Paris"));
    assert_eq!(
        rows[0]["technician"],
        json!({ "id": alice, "name": "Alice Durand" })
    );
    assert_eq!(rows[0]["statusLabel"], json!("Planifiée"));
    assert_eq!(rows[1]["plannedAfterDeadline"], json!(true));
    assert_eq!(
        (&rows[2]["late"], &rows[2]["daysLate"], &rows[2]["deadline"]),
        (
            &json!(false),
            &json!(0),
            &json!(day_text(clock::paris_today() + Duration::days(5)))
        )
    );
    let count = |answer: &Value| answer["visits"].as_array().map_or(0, Vec::len);
    for (query, expected) in [
        (format!("technician={alice}"), 2),
        ("technician=unassigned".to_owned(), 1),
        ("sector=75015".to_owned(), 3),
        ("sector=Paris%2015e".to_owned(), 3),
        ("sector=92130".to_owned(), 0),
        ("client=CLI-000001".to_owned(), 0),
        ("days=2".to_owned(), 2),
    ] {
        let (status, answer) = staff.get(&format!("/visits/late?{query}")).await;
        assert_eq!(
            (status, count(&answer)),
            (200, expected),
            "{query}: {answer}"
        );
    }
    for (query, message) in [
        (
            "days=abc",
            "Le paramètre « days » doit être un nombre de jours de 0 à 90 (reçu : « abc »).",
        ),
        (
            "days=91",
            "Le paramètre « days » doit être un nombre de jours de 0 à 90.",
        ),
    ] {
        let (status, answer) = staff.get(&format!("/visits/late?{query}")).await;
        assert_eq!(
            (status, answer),
            (422, json!({ "error": message })),
            "{query}"
        );
    }

    // Saved without naming the late visit: refused, nothing written.
    let (status, answer) = staff
        .post(
            "/planning/proposal",
            json!({ "visits": [{ "equipmentId": forgotten, "technicianId": alice, "day": week[0] }] }),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        str_of(&answer, "error").starts_with("Ligne 1 (P-oublie) : une visite est déjà prévue le "),
        "{answer}"
    );
    // Saved as proposed: the late visits move, one visit is created.
    let kept: Vec<Value> = lines
        .iter()
        .map(|l| {
            let mut line = json!({ "equipmentId": l["equipmentId"], "technicianId": l["technicianId"], "day": l["day"] });
            if let Some(late) = l.get("lateVisit") {
                line["visitId"] = late["id"].clone();
            }
            line
        })
        .collect();
    let (status, saved) = staff
        .post("/planning/proposal", json!({ "visits": kept }))
        .await;
    assert_eq!(status, 201, "{saved}");
    assert_eq!(saved["created"], json!(3));
    assert_eq!(saved["ids"][0], json!(forgotten_visit));
    // Still past their deadline, now planned next week: still late (as the
    // dashboard counts them), on their new day; P-du's new visit is due soon.
    let (_, pending) = staff.get("/visits/late").await;
    assert_eq!(
        (&pending["late"], &pending["dueSoon"]),
        (&json!(2), &json!(2))
    );
    assert_eq!(pending["visits"][0]["plannedFor"], json!(week[0]));
    assert_eq!(saved["ids"][1], json!(pushed_visit));
    assert_eq!(db.count("SELECT count(*) FROM visits"), visits_before + 1);
    let day_of = |id: &str| -> String {
        db.0.query_row("SELECT planned_for FROM visits WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .expect("visit")
    };
    assert_eq!(day_of(&forgotten_visit), week[0]);
    assert_eq!(day_of(&pushed_visit), week[1]);
    let moves = db.count(&format!(
        "SELECT count(*) FROM audit_log WHERE action = 'replanification'
           AND {} = 'proposition'",
        db.0.json_text("detail", "source")
    ));
    assert_eq!(moves, 2);
    // Planned now within the week: the next proposal leaves them out.
    let (_, next) = staff.get("/planning/proposal").await;
    assert_eq!(next["visits"], json!([]));
    // A stale line naming a visit no longer to move is refused.
    let (status, answer) = staff
        .post(
            "/planning/proposal",
            json!({ "visits": [{ "equipmentId": due, "technicianId": alice, "day": week[3], "visitId": forgotten_visit }] }),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    server.stop().await;
}

#[tokio::test]
async fn the_week_and_the_proposal_stay_fast_on_a_large_agency() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let monday = next_monday();
    let world = World::in_agency(&server, agency);
    let jobs = (0..60)
        .map(|t| {
            let world = world.same();
            async move {
                new_technician(
                    &world,
                    &format!("Tech {t:02}"),
                    &format!("750{:02}", 1 + t % 20),
                    8,
                )
                .await
            }
        })
        .collect();
    let technicians = world.side_by_side(WIDTH, jobs).await;
    // 20,000 equipment under contract, each with a done visit; 2,000 planned
    // in the week shown.
    let jobs = (0..20_000)
        .map(|i| {
            let world = world.same();
            async move {
                let building = world
                    .building(
                        Some("Immeuble"),
                        "1 rue X",
                        Some(&format!("750{:02}", 1 + i % 20)),
                        Some("Paris"),
                    )
                    .await;
                world.lift(&format!("ASC-{i:05}"), Some(&building)).await
            }
        })
        .collect();
    let equipment = world.side_by_side(WIDTH, jobs).await;
    // The done visits are planned before their days, then entered afterwards.
    let done_on = |i: usize| clock::paris_today() - Duration::days(1 + (i % 60) as i64);
    let jobs = equipment
        .iter()
        .enumerate()
        .map(|(i, equipment)| {
            let (world, equipment) = (world.same(), equipment.clone());
            let (tech, day) = (technicians[i % 60].clone(), done_on(i));
            async move { world.visit_now(&equipment, Some(&tech), day).await }
        })
        .collect();
    let visits = world
        .at(morning(done_on(59) - Duration::days(1)), || {
            world.side_by_side(WIDTH, jobs)
        })
        .await;
    let jobs = visits
        .into_iter()
        .enumerate()
        .map(|(i, visit)| {
            let world = world.same();
            let arrived = done_on(i).and_hms_opt(8, 0, 0).expect("8h").and_utc();
            async move {
                world
                    .complete_visit(
                        &visit,
                        (arrived, arrived + Duration::hours(1)),
                        "Mme Martin",
                    )
                    .await
            }
        })
        .collect();
    world.side_by_side(WIDTH, jobs).await;
    let planned: Vec<(String, String, NaiveDate)> = equipment
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 10 == 0)
        .map(|(i, equipment)| {
            (
                equipment.clone(),
                technicians[(i / 10) % 60].clone(),
                monday + Duration::days(((i / 600) % 5) as i64),
            )
        })
        .collect();
    world.saved_visits(&planned).await;

    let staff = StaffClient::sign_in(&server, "admin@org.fr", "motdepasse-solide").await;
    let started = std::time::Instant::now();
    let (status, week) = staff
        .get(&format!("/planning?day={}", day_text(monday)))
        .await;
    let week_time = started.elapsed();
    assert_eq!(status, 200);
    assert_eq!(week["entries"].as_array().map(Vec::len), Some(2000));
    let started = std::time::Instant::now();
    let (status, proposal) = staff.get("/planning/proposal").await;
    let proposal_time = started.elapsed();
    assert_eq!(status, 200, "{proposal}");
    let placed = proposal["visits"].as_array().map_or(0, Vec::len);
    let unplaced = proposal["unplaced"].as_array().map_or(0, Vec::len);
    assert!(placed > 0, "{placed}");
    // Capacity: 60 technicians × 8 a day × 5 days, less the 2,000 already planned.
    assert!(placed <= 60 * 8 * 5 - 2000, "{placed}");
    assert!(placed + unplaced > 0);
    let started = std::time::Instant::now();
    let lines: Vec<Value> = proposal["visits"]
        .as_array()
        .expect("visits")
        .iter()
        .map(|l| json!({ "equipmentId": l["equipmentId"], "technicianId": l["technicianId"], "day": l["day"] }))
        .collect();
    let (status, saved) = staff
        .post("/planning/proposal", json!({ "visits": lines }))
        .await;
    let save_time = started.elapsed();
    assert_eq!(status, 201, "{saved}");
    assert_eq!(saved["created"], json!(placed));
    let busiest = db.count(&format!(
        "SELECT max(n) FROM (SELECT count(*) AS n FROM visits
         WHERE agency_id = '{agency}' AND status = 'planifiee' AND planned_for >= '{}' AND planned_for <= '{}'
         GROUP BY technician_id, planned_for)",
        day_text(monday),
        day_text(monday + Duration::days(6))
    ));
    assert_eq!(busiest, 8, "never beyond the daily capacity");
    // Debug build, shared 2-core machine: generous bounds.
    assert!(week_time.as_secs_f64() < 3.0, "week {week_time:?}");
    assert!(
        proposal_time.as_secs_f64() < 5.0,
        "proposal {proposal_time:?}"
    );
    assert!(save_time.as_secs_f64() < 10.0, "save {save_time:?}");
    eprintln!(
        "week {week_time:?}, proposal {proposal_time:?} ({placed} + {unplaced}), save {save_time:?}"
    );
}
