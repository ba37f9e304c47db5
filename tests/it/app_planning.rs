//! The web application's weekly planning (`/app/api/planning…`,
//! `/app/api/visits…`): the week by technician, creating, moving, starting
//! and closing a visit, the maintenance interval, and the proposal of next
//! week with its saving. Fixtures are written with SQL; every call goes over
//! HTTP as the UI makes it (session cookie + CSRF token).

use crate::common;

use chrono::{Datelike, Duration, NaiveDate, Utc};
use common::app::StaffClient;
use common::*;
use liftdesk::clock;
use rusqlite::{Connection, params};
use serde_json::{Value, json};

fn id() -> String {
    uuid::Uuid::now_v7().to_string()
}

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
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .expect("busy timeout");
        Db(conn)
    }

    fn technician(&self, agency: &str, name: &str, sectors: &str, capacity: i64) -> String {
        let tech = id();
        self.0
            .execute(
                "INSERT INTO technicians (id, agency_id, name, sectors, daily_capacity, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![tech, agency, name, sectors, capacity, clock::now_text()],
            )
            .expect("technician");
        tech
    }

    fn building(&self, agency: &str, name: &str, postal_code: &str, city: &str) -> String {
        let building = id();
        let now = clock::now_text();
        self.0
            .execute(
                "INSERT INTO buildings (id, agency_id, name, address, postal_code, city, created_at, updated_at)
                 VALUES (?1, ?2, ?3, '12 rue de la Paix', ?4, ?5, ?6, ?6)",
                params![building, agency, name, postal_code, city, now],
            )
            .expect("building");
        building
    }

    fn equipment(
        &self,
        agency: &str,
        building: &str,
        number: &str,
        kind: &str,
        contract: &str,
        plan_start: NaiveDate,
    ) -> String {
        let equipment = id();
        let now = clock::now_text();
        self.0
            .execute(
                "INSERT INTO equipment (id, agency_id, building_id, number, type, maintenance_contract,
                                        plan_start_on, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
                params![equipment, agency, building, number, kind, contract, day_text(plan_start), now],
            )
            .expect("equipment");
        equipment
    }

    fn planned(&self, agency: &str, equipment: &str, tech: Option<&str>, day: NaiveDate) -> String {
        let visit = id();
        let now = clock::now_text();
        self.0
            .execute(
                "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for, status, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'planifiee', ?6, ?6)",
                params![visit, agency, equipment, tech, day_text(day), now],
            )
            .expect("visit");
        visit
    }

    fn done(&self, agency: &str, equipment: &str, tech: &str, day: NaiveDate) -> String {
        let visit = id();
        let now = clock::now_text();
        let arrived = format!("{}T08:00:00.000Z", day_text(day));
        let left = format!("{}T09:00:00.000Z", day_text(day));
        self.0
            .execute(
                "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for, status,
                                     arrived_at, left_at, done_on, signed_by, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'faite', ?6, ?7, ?5, 'Mme Martin', ?8, ?8)",
                params![visit, agency, equipment, tech, day_text(day), arrived, left, now],
            )
            .expect("done visit");
        visit
    }

    fn absence(&self, technician: &str, starts: NaiveDate, ends: NaiveDate) {
        self.0
            .execute(
                "INSERT INTO technician_absences (id, technician_id, starts_on, ends_on, reason)
                 VALUES (?1, ?2, ?3, ?4, 'Congés payés')",
                params![id(), technician, day_text(starts), day_text(ends)],
            )
            .expect("absence");
    }

    fn on_call_until(&self, technician: &str, ends: chrono::DateTime<Utc>) {
        self.0
            .execute(
                "INSERT INTO technician_on_call (id, technician_id, starts_at, ends_at) VALUES (?1, ?2, ?3, ?4)",
                params![
                    id(),
                    technician,
                    clock::format_timestamp(ends - Duration::days(7)),
                    clock::format_timestamp(ends)
                ],
            )
            .expect("on call");
    }

    fn count(&self, sql: &str) -> i64 {
        self.0.query_row(sql, [], |r| r.get(0)).expect("count")
    }
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
    let alice = db.technician(&org.agency_id, "Alice Durand", "Paris 15e", 6);
    let bruno = db.technician(&org.agency_id, "Bruno Petit", "Paris 15e", 6);
    db.absence(
        &bruno,
        monday + Duration::days(1),
        monday + Duration::days(2),
    );
    let building = db.building(&org.agency_id, "Résidence Lourmel", "75015", "Paris");
    let lift = db.equipment(
        &org.agency_id,
        &building,
        "ASC-001",
        "ascenseur",
        "parc",
        monday,
    );
    let visit = db.planned(
        &org.agency_id,
        &lift,
        Some(&alice),
        monday + Duration::days(3),
    );
    db.0.execute(
        "UPDATE visits SET deadline = ?2 WHERE id = ?1",
        params![visit, day_text(monday + Duration::days(2))],
    )
    .expect("deadline");
    let unassigned_lift = db.equipment(
        &org.agency_id,
        &building,
        "ASC-002",
        "ascenseur",
        "parc",
        monday,
    );
    db.planned(&org.agency_id, &unassigned_lift, None, monday);
    // A technician who left keeps his row while he carries a visit of the week;
    // one who left without visits that week has none.
    let gone = db.technician(&org.agency_id, "Zoé Ancienne", "Paris 15e", 6);
    let gone_idle = db.technician(&org.agency_id, "Yves Parti", "Paris 15e", 6);
    db.0.execute(
        "UPDATE technicians SET active = 0 WHERE id IN (?1, ?2)",
        params![gone, gone_idle],
    )
    .expect("inactive");
    let third_lift = db.equipment(
        &org.agency_id,
        &building,
        "ASC-003",
        "ascenseur",
        "parc",
        monday,
    );
    db.planned(
        &org.agency_id,
        &third_lift,
        Some(&gone),
        monday + Duration::days(5),
    );
    let other_tech = db.technician(&other.agency_id, "Autre Tech", "Paris 15e", 6);
    let other_building = db.building(&other.agency_id, "Ailleurs", "75015", "Paris");
    let other_lift = db.equipment(
        &other.agency_id,
        &other_building,
        "ASC-900",
        "ascenseur",
        "parc",
        monday,
    );
    let other_visit = db.planned(&other.agency_id, &other_lift, Some(&other_tech), monday);

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
            "address": "12 rue de la Paix, 75015 Paris", "deadline": days[2], "overdue": true,
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
    let alice = db.technician(&org.agency_id, "Alice Durand", "Paris 15e", 6);
    let bruno = db.technician(&org.agency_id, "Bruno Petit", "Paris 15e", 6);
    db.absence(&bruno, days[1], days[1]);
    let foreign_tech = db.technician(&other.agency_id, "Autre Tech", "Paris 15e", 6);
    let building = db.building(&org.agency_id, "Résidence Lourmel", "75015", "Paris");
    let plan_start = clock::paris_today() - Duration::days(100);
    let lift = db.equipment(
        &org.agency_id,
        &building,
        "ASC-001",
        "ascenseur",
        "parc",
        plan_start,
    );
    let last_done = clock::paris_today() - Duration::days(30);
    db.done(&org.agency_id, &lift, &alice, last_done);

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
    let second = db.equipment(
        &org.agency_id,
        &building,
        "ASC-002",
        "ascenseur",
        "parc",
        plan_start,
    );
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
    let building = db.building(&org.agency_id, "Résidence", "75015", "Paris");
    let lift = db.equipment(
        &org.agency_id,
        &building,
        "ASC-001",
        "ascenseur",
        "parc",
        start,
    );
    let door = db.equipment(
        &org.agency_id,
        &building,
        "PFE-001",
        "porte_fermeture",
        "parc",
        start,
    );
    let other_building = db.building(&other.agency_id, "Ailleurs", "75015", "Paris");
    let foreign = db.equipment(
        &other.agency_id,
        &other_building,
        "ASC-9",
        "ascenseur",
        "parc",
        start,
    );

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
    // Alice covers Paris 15e, two visits a day, and already has one on Monday.
    let alice = db.technician(agency, "Alice Durand", "Paris 15e", 2);
    // Bruno covers it too but is away all week.
    let bruno = db.technician(agency, "Bruno Petit", "75015", 6);
    db.absence(&bruno, days[0] - Duration::days(3), days[6]);
    // Chloé covers Issy and rests on Monday after her standby (ends 08:00 Paris).
    let chloe = db.technician(agency, "Chloé Martin", "Issy-les-Moulineaux", 6);
    let offset = clock::paris_offset_hours(days[0].and_hms_opt(12, 0, 0).expect("noon").and_utc());
    db.on_call_until(
        &chloe,
        days[0].and_hms_opt(8, 0, 0).expect("8h").and_utc() - Duration::hours(offset),
    );
    let paris = db.building(agency, "Résidence Lourmel", "75015", "Paris");
    let issy = db.building(agency, "Les Jardins", "92130", "Issy-les-Moulineaux");
    let montreuil = db.building(agency, "Croix de Chavaux", "93100", "Montreuil");
    let start = clock::paris_today() - Duration::days(400);
    // Six lifts in Paris 15e, deadlines from Tuesday to Sunday of next week
    // (last visit 42 days before).
    let mut paris_lifts = Vec::new();
    for i in 0..6 {
        let lift = db.equipment(
            agency,
            &paris,
            &format!("P-{i}"),
            "ascenseur",
            "parc",
            start,
        );
        db.done(
            agency,
            &lift,
            &alice,
            days[6 - i as usize] - Duration::days(42),
        );
        paris_lifts.push(lift);
    }
    let busy = db.equipment(agency, &paris, "P-busy", "ascenseur", "parc", start);
    db.planned(agency, &busy, Some(&alice), days[0]);
    // Issy: due, deadline Monday.
    let issy_lift = db.equipment(agency, &issy, "I-1", "ascenseur", "parc", start);
    db.done(agency, &issy_lift, &chloe, days[0] - Duration::days(42));
    // Montreuil: no technician covers it.
    let lost = db.equipment(agency, &montreuil, "M-1", "ascenseur", "parc", start);
    // Not due: deadline after next Sunday; outside the plan; already planned later.
    let later = db.equipment(agency, &paris, "P-later", "ascenseur", "parc", start);
    db.done(
        agency,
        &later,
        &alice,
        days[6] + Duration::days(1) - Duration::days(42),
    );
    db.equipment(agency, &paris, "P-hors", "ascenseur", "hors_parc", start);
    let planned_later = db.equipment(agency, &paris, "P-planned", "ascenseur", "parc", start);
    db.planned(
        agency,
        &planned_later,
        Some(&alice),
        days[6] + Duration::days(14),
    );
    let other_building = db.building(&other.agency_id, "Ailleurs", "75015", "Paris");
    let foreign = db.equipment(
        &other.agency_id,
        &other_building,
        "X-1",
        "ascenseur",
        "parc",
        start,
    );
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
            "technicianId": chloe, "day": week[1], "overdue": true,
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

#[tokio::test]
async fn the_week_and_the_proposal_stay_fast_on_a_large_agency() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let db = Db::open(&server);
    let agency = org.agency_id.as_str();
    let monday = next_monday();
    let start = clock::paris_today() - Duration::days(400);
    let now = clock::now_text();
    let tx = db.0.unchecked_transaction().expect("tx");
    let mut technicians = Vec::new();
    for t in 0..60 {
        let tech = id();
        tx.execute(
            "INSERT INTO technicians (id, agency_id, name, sectors, daily_capacity, created_at)
             VALUES (?1, ?2, ?3, ?4, 8, ?5)",
            params![
                tech,
                agency,
                format!("Tech {t:02}"),
                format!("750{:02}", 1 + t % 20),
                now
            ],
        )
        .expect("technician");
        technicians.push(tech);
    }
    // 20,000 equipment under contract, each with a done visit; 2,000 planned
    // in the week shown.
    for i in 0..20_000 {
        let building = id();
        let postal = format!("750{:02}", 1 + i % 20);
        tx.execute(
            "INSERT INTO buildings (id, agency_id, name, address, postal_code, city, created_at, updated_at)
             VALUES (?1, ?2, 'Immeuble', '1 rue X', ?3, 'Paris', ?4, ?4)",
            params![building, agency, postal, now],
        )
        .expect("building");
        let equipment = id();
        tx.execute(
            "INSERT INTO equipment (id, agency_id, building_id, number, type, maintenance_contract,
                                    plan_start_on, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, 'ascenseur', 'parc', ?5, ?6, ?6)",
            params![
                equipment,
                agency,
                building,
                format!("ASC-{i:05}"),
                day_text(start),
                now
            ],
        )
        .expect("equipment");
        let done = clock::paris_today() - Duration::days(1 + i64::from(i % 60));
        tx.execute(
            "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for, status,
                                 done_on, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 'faite', ?5, ?6, ?6)",
            params![
                id(),
                agency,
                equipment,
                technicians[(i % 60) as usize],
                day_text(done),
                now
            ],
        )
        .expect("done");
        if i % 10 == 0 {
            tx.execute(
                "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for, status,
                                     created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'planifiee', ?6, ?6)",
                params![
                    id(),
                    agency,
                    equipment,
                    technicians[((i / 10) % 60) as usize],
                    day_text(monday + Duration::days(i64::from((i / 600) % 5))),
                    now
                ],
            )
            .expect("planned");
        }
    }
    tx.commit().expect("commit");

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
