//! The Technicians screen's API (`/app/api/technicians…`): the roster, the
//! standby rota (set a week, swap two weeks, replace over a stretch), the
//! absences, the role rules, and what `GET /api/v2/technicians` says after
//! the edits.

use crate::common;

use chrono::{DateTime, Duration, NaiveDate, Timelike, Utc};
use common::app::StaffClient;
use common::db::TestDb as Connection;
use common::world::World;
use common::*;
use liftdesk::clock;
use liftdesk::domain::rota;
use serde_json::{Value, json};

const ADMIN_ONLY: &str = "Modifier les astreintes et les absences des techniciens est réservé à un administrateur de l'agence.";

fn ts(at: DateTime<Utc>) -> String {
    clock::format_timestamp(at)
}

fn day_text(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

fn fr(day: NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

struct Db(Connection);

impl Db {
    fn open(server: &TestServer) -> Db {
        let conn = open_db(server.data_dir.path());
        Db(conn)
    }

    /// The agency's periods, `(technician, starts, ends)` by start.
    fn periods(&self, agency: &str) -> Vec<(String, String, String)> {
        let mut stmt = self
            .0
            .prepare(
                "SELECT o.technician_id, o.starts_at, o.ends_at FROM technician_on_call o
                 JOIN technicians t ON t.id = o.technician_id WHERE t.agency_id = ?1
                 ORDER BY o.starts_at",
            )
            .expect("prepare");
        stmt.query_map([agency], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    }
}

fn member(server: &TestServer, agency: &str, email: &str) {
    server.cli_json(&[
        "user",
        "create",
        "--email",
        email,
        "--name",
        "Marc Membre",
        "--password",
        "motdepasse-solide",
        "--agency",
        agency,
    ]);
}

fn week(offset: i64) -> NaiveDate {
    rota::week_of(Utc::now()) + Duration::weeks(offset)
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected, got {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn the_rota_is_read_by_everyone_and_changed_by_an_administrator() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let agency = org.agency_id.as_str();
    member(&server, agency, "marc@durand.fr");
    let db = Db::open(&server);
    let world = World::in_agency(&server, agency);
    let alice = world
        .technician("Alice Martin", Some("Paris 15e,Paris 16e"))
        .await;
    let bruno = world.technician("Bruno Petit", Some("Paris 7e")).await;
    let chloe = world.technician("Chloé Roux", None).await;
    let xavier = World::in_agency(&server, &other.agency_id)
        .technician("Xavier Ailleurs", None)
        .await;

    let admin = StaffClient::sign_in(&server, "admin@durand.fr", "motdepasse-solide").await;
    let marc = StaffClient::sign_in(&server, "marc@durand.fr", "motdepasse-solide").await;

    // The list: the REST roster's rows, and whether the session may edit.
    let (status, body) = admin.get("/technicians").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(keys(&body), ["canEdit", "technicians"]);
    assert_eq!(body["canEdit"], json!(true));
    let rows = body["technicians"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[0],
        json!({ "id": alice, "name": "Alice Martin", "sectors": "Paris 15e,Paris 16e", "openCalls": 0,
                "onCall": false, "absentUntil": null, "offUntil": null })
    );
    let (status, body) = marc.get("/technicians").await;
    assert_eq!(status, 200);
    assert_eq!(body["canEdit"], json!(false));

    // An empty rota, 8 weeks from the current one by default.
    let (status, body) = marc.get("/technicians/rota").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["currentWeek"], json!(day_text(week(0))));
    let weeks = body["weeks"].as_array().expect("weeks");
    assert_eq!(weeks.len(), 8);
    assert_eq!(
        keys(&weeks[0]),
        [
            "complete",
            "endsAt",
            "monday",
            "past",
            "shifts",
            "started",
            "startsAt",
            "technicianId",
            "technicianName"
        ]
    );
    assert_eq!(weeks[0]["started"], json!(true));
    assert_eq!(weeks[1]["started"], json!(false));
    assert_eq!(weeks[1]["technicianId"], Value::Null);
    // A week starts on Monday at 08:00, Paris time.
    let starts = clock::parse_timestamp(weeks[1]["startsAt"].as_str().expect("startsAt"))
        .expect("timestamp");
    assert_eq!(clock::paris_local(starts).date(), week(1));
    assert_eq!(clock::paris_local(starts).hour(), 8);

    // A member reads but does not change.
    let (status, body) = marc
        .put(
            &format!("/technicians/rota/{}", week(2)),
            json!({ "technicianId": alice }),
        )
        .await;
    assert_eq!((status, body), (403, json!({ "error": ADMIN_ONLY })));
    let (status, body) = marc
        .post(
            "/technicians/rota/swap",
            json!({ "first": day_text(week(2)), "second": day_text(week(3)) }),
        )
        .await;
    assert_eq!((status, body), (403, json!({ "error": ADMIN_ONLY })));

    // Weeks 2 and 3 given to Alice and Bruno.
    let (status, body) = admin
        .put(
            &format!("/technicians/rota/{}", week(2)),
            json!({ "technicianId": alice }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["monday"], json!(day_text(week(2))));
    assert_eq!(body["technicianId"], json!(alice));
    assert_eq!(body["technicianName"], json!("Alice Martin"));
    assert_eq!(body["complete"], json!(true));
    let (status, _) = admin
        .put(
            &format!("/technicians/rota/{}", week(3)),
            json!({ "technicianId": bruno }),
        )
        .await;
    assert_eq!(status, 200);
    // Giving the week again to someone else replaces, never overlaps.
    let (status, _) = admin
        .put(
            &format!("/technicians/rota/{}", week(3)),
            json!({ "technicianId": chloe }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = admin
        .put(
            &format!("/technicians/rota/{}", week(3)),
            json!({ "technicianId": bruno }),
        )
        .await;
    assert_eq!(status, 200);
    let (w2s, w2e) = rota::week_bounds(week(2));
    let (w3s, w3e) = rota::week_bounds(week(3));
    assert_eq!(
        db.periods(agency),
        vec![
            (alice.clone(), ts(w2s), ts(w2e)),
            (bruno.clone(), ts(w3s), ts(w3e)),
        ]
    );

    // Swap: Bruno takes week 2, Alice week 3, in one change.
    let (status, body) = admin
        .post(
            "/technicians/rota/swap",
            json!({ "first": day_text(week(2)), "second": day_text(week(3)) }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["weeks"][0]["technicianId"], json!(bruno));
    assert_eq!(body["weeks"][1]["technicianId"], json!(alice));
    let (_, body) = marc
        .get(&format!("/technicians/rota?from={}&weeks=2", week(2)))
        .await;
    assert_eq!(body["weeks"][0]["technicianName"], json!("Bruno Petit"));
    assert_eq!(body["weeks"][1]["technicianName"], json!("Alice Martin"));
    // Alice's week 3 and her own week 4 join into one period.
    let (status, _) = admin
        .put(
            &format!("/technicians/rota/{}", week(4)),
            json!({ "technicianId": alice }),
        )
        .await;
    assert_eq!(status, 200);
    let w4e = rota::week_bounds(week(4)).1;
    assert_eq!(
        db.periods(agency),
        vec![
            (bruno.clone(), ts(w2s), ts(w2e)),
            (alice.clone(), ts(w3s), ts(w4e)),
        ]
    );

    // Refusals, in French.
    let (status, body) = admin
        .post(
            "/technicians/rota/swap",
            json!({ "first": day_text(week(2)), "second": day_text(week(6)) }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": format!("La semaine du {} n'a pas un seul technicien d'astreinte du lundi au lundi : affectez-la plutôt que de l'échanger.", fr(week(6))) })
        )
    );
    let (status, body) = admin
        .post(
            "/technicians/rota/swap",
            json!({ "first": day_text(week(3)), "second": day_text(week(4)) }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le même technicien est d'astreinte les deux semaines : il n'y a rien à échanger." })
        )
    );
    let (status, body) = admin
        .post(
            "/technicians/rota/swap",
            json!({ "first": day_text(week(0)), "second": day_text(week(2)) }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": format!("La semaine du {} a commencé : seules des semaines à venir s'échangent ; remplacez plutôt le technicien à partir de maintenant.", fr(week(0))) })
        )
    );
    let tuesday = week(2) + Duration::days(1);
    let (status, body) = admin
        .put(
            &format!("/technicians/rota/{tuesday}"),
            json!({ "technicianId": alice }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": format!("Le {} n'est pas un lundi : une semaine d'astreinte commence le lundi à 08:00.", fr(tuesday)) })
        )
    );
    let (status, body) = admin
        .put(
            &format!("/technicians/rota/{}", week(-2)),
            json!({ "technicianId": alice }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": format!("La semaine du {} est passée : les astreintes passées ne se modifient pas.", fr(week(-2))) })
        )
    );
    // Another agency's technician is not found.
    let (status, body) = admin
        .put(
            &format!("/technicians/rota/{}", week(5)),
            json!({ "technicianId": xavier }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            404,
            json!({ "error": format!("Technicien introuvable dans cette agence : « {xavier} ».") })
        )
    );
    // Not on standby while absent (the last Monday morning counts).
    world
        .absence(&chloe, week(6), week(6), "Congés payés")
        .await;
    let (status, body) = admin
        .put(
            &format!("/technicians/rota/{}", week(5)),
            json!({ "technicianId": chloe }),
        )
        .await;
    let (w5s, w5e) = rota::week_bounds(week(5));
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": format!(
                "Chloé Roux est absent du {} au {} (Congés payés) : il ne peut pas être d'astreinte du {} à 08:00 au {} à 08:00.",
                fr(week(6)), fr(week(6)), fr(week(5)), fr(week(6))
            ) })
        )
    );
    assert_eq!(
        clock::paris_local(w5s).hour(),
        8,
        "{w5s} {w5e}: the message says 08:00"
    );

    // Chloé replaces Bruno from Tuesday to Wednesday 08:00 of week 2.
    let (status, body) = admin
        .post(
            "/technicians/rota/replace",
            json!({ "technicianId": chloe, "from": format!("{tuesday}T08:00"), "to": format!("{}T08:00", tuesday + Duration::days(1)) }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let tue = rota::parse_local(&format!("{tuesday}T08:00")).expect("tuesday");
    let wed = tue + Duration::days(1);
    assert_eq!(
        body,
        json!({ "technicianId": chloe, "startsAt": ts(tue), "endsAt": ts(wed) })
    );
    let (_, body) = admin
        .get(&format!("/technicians/rota?from={}&weeks=1", week(2)))
        .await;
    let w = &body["weeks"][0];
    assert_eq!(w["technicianId"], json!(bruno));
    assert_eq!(w["complete"], json!(false));
    let shifts: Vec<(&str, &str, &str)> = w["shifts"]
        .as_array()
        .expect("shifts")
        .iter()
        .map(|s| {
            (
                s["technicianName"].as_str().unwrap_or(""),
                s["startsAt"].as_str().unwrap_or(""),
                s["endsAt"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        shifts,
        vec![
            ("Bruno Petit", ts(w2s).as_str(), ts(tue).as_str()),
            ("Chloé Roux", ts(tue).as_str(), ts(wed).as_str()),
            ("Bruno Petit", ts(wed).as_str(), ts(w2e).as_str()),
        ]
    );
    // Four hours off would cut Bruno's 11 hours of safety rest: refused, nothing changed.
    let before = db.periods(agency);
    let thursday = tuesday + Duration::days(2);
    let (status, body) = admin
        .post(
            "/technicians/rota/replace",
            json!({ "technicianId": chloe, "from": format!("{thursday}T08:00"), "to": format!("{thursday}T12:00") }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": format!(
                "Bruno Petit finirait une astreinte le {} à 08:00 et en reprendrait une le {} à 12:00 : il lui faut 11 h de repos de sécurité entre les deux.",
                fr(thursday), fr(thursday)
            ) })
        )
    );
    assert_eq!(db.periods(agency), before);
    let (status, body) = admin
        .post(
            "/technicians/rota/replace",
            json!({ "technicianId": chloe, "from": "demain", "to": "2026-11-24T08:00" }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Début invalide : attendu AAAA-MM-JJTHH:MM (heure de Paris)." })
        )
    );
    let (status, body) = admin
        .post(
            "/technicians/rota/replace",
            json!({ "technicianId": chloe, "from": format!("{thursday}T12:00"), "to": format!("{thursday}T08:00") }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "La fin de l'astreinte doit suivre son début." })
        )
    );
    let (status, body) = admin.get("/technicians/rota?weeks=27").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({ "error": "Le nombre de semaines va de 1 à 26." })
        )
    );

    // The other agency's admin sees none of it.
    let autre = StaffClient::sign_in(&server, "admin@autre.fr", "motdepasse-solide").await;
    let (_, body) = autre
        .get(&format!("/technicians/rota?from={}&weeks=3", week(2)))
        .await;
    for w in body["weeks"].as_array().expect("weeks") {
        assert_eq!(w["shifts"], json!([]));
    }
    server.stop().await;
}

#[tokio::test]
async fn absences_are_added_listed_refused_and_deleted() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let agency = org.agency_id.as_str();
    member(&server, agency, "marc@durand.fr");
    let world = World::in_agency(&server, agency);
    let alice = world.technician("Alice Martin", None).await;
    let xavier = World::in_agency(&server, &other.agency_id)
        .technician("Xavier Ailleurs", None)
        .await;
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", "motdepasse-solide").await;
    let marc = StaffClient::sign_in(&server, "marc@durand.fr", "motdepasse-solide").await;
    let today = clock::paris_today();
    let path = format!("/technicians/{alice}/absences");

    let (status, body) = admin.get(&path).await;
    assert_eq!((status, body), (200, json!({ "absences": [] })));

    let start = today + Duration::days(40);
    let end = today + Duration::days(44);
    let (status, body) = admin
        .post(
            &path,
            json!({ "startsOn": day_text(start), "endsOn": day_text(end), "reason": "  Congés payés " }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let absence = body["id"].as_str().expect("id").to_owned();
    assert_eq!(
        body,
        json!({ "id": absence, "startsOn": day_text(start), "endsOn": day_text(end), "reason": "Congés payés" })
    );
    // Everyone reads it; an old one (over four months ago) is not listed.
    world
        .absence(
            &alice,
            today - Duration::days(130),
            today - Duration::days(128),
            "Congés payés",
        )
        .await;
    let (status, body) = marc.get(&path).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({ "absences": [{ "id": absence, "startsOn": day_text(start), "endsOn": day_text(end), "reason": "Congés payés" }] })
    );

    // Refusals.
    let post = |starts: NaiveDate, ends: NaiveDate, reason: &str| json!({ "startsOn": day_text(starts), "endsOn": day_text(ends), "reason": reason });
    let (status, body) = admin
        .post(&path, post(end, end + Duration::days(2), "RTT"))
        .await;
    assert_eq!(
        (status, body),
        (
            409,
            json!({ "error": format!("Alice Martin est déjà absent du {} au {} (Congés payés) : cette absence chevauche la nouvelle.", fr(start), fr(end)) })
        )
    );
    let (status, body) = admin.post(&path, post(end, start, "RTT")).await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "La fin de l'absence ne peut pas précéder son début." })
        )
    );
    let (status, body) = admin
        .post(
            &path,
            post(today + Duration::days(60), today + Duration::days(60), " "),
        )
        .await;
    assert_eq!(
        (status, body),
        (422, json!({ "error": "Indiquez le motif de l'absence." }))
    );
    let (status, body) = admin
        .post(
            &path,
            json!({ "startsOn": "25/12/2026", "endsOn": "2026-12-26", "reason": "RTT" }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Date de début invalide : attendu AAAA-MM-JJ." })
        )
    );
    // Not absent while on standby.
    let (w3s, w3e) = rota::week_bounds(week(3));
    world.on_call(&alice, w3s, w3e).await;
    let (status, body) = admin
        .post(
            &path,
            post(
                week(3) + Duration::days(7),
                week(3) + Duration::days(8),
                "RTT",
            ),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": format!("Alice Martin est d'astreinte du {} à 08:00 au {} à 08:00 : confiez d'abord cette astreinte à un autre technicien.", fr(week(3)), fr(week(4))) })
        )
    );
    // Members do not change absences.
    let (status, body) = marc
        .post(
            &path,
            post(
                today + Duration::days(70),
                today + Duration::days(71),
                "RTT",
            ),
        )
        .await;
    assert_eq!((status, body), (403, json!({ "error": ADMIN_ONLY })));
    let (status, body) = marc.delete(&format!("{path}/{absence}")).await;
    assert_eq!((status, body), (403, json!({ "error": ADMIN_ONLY })));

    // Another agency's technician: 404 everywhere.
    let not_found =
        json!({ "error": format!("Technicien introuvable dans cette agence : « {xavier} ».") });
    let xpath = format!("/technicians/{xavier}/absences");
    assert_eq!(admin.get(&xpath).await, (404, not_found.clone()));
    assert_eq!(
        admin
            .post(
                &xpath,
                post(
                    today + Duration::days(70),
                    today + Duration::days(71),
                    "RTT"
                )
            )
            .await,
        (404, not_found.clone())
    );
    assert_eq!(
        admin.delete(&format!("{xpath}/{absence}")).await,
        (404, not_found)
    );

    // Deleted once; the second time it is not found.
    let (status, body) = admin.delete(&format!("{path}/{absence}")).await;
    assert_eq!((status, body), (204, Value::Null));
    let (status, body) = admin.delete(&format!("{path}/{absence}")).await;
    assert_eq!(
        (status, body),
        (
            404,
            json!({ "error": format!("Absence introuvable pour ce technicien : « {absence} ».") })
        )
    );
    let (_, body) = admin.get(&path).await;
    assert_eq!(body, json!({ "absences": [] }));
    server.stop().await;
}

#[tokio::test]
async fn the_rest_api_follows_the_edited_rota_and_absences() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let agency = org.agency_id.as_str();
    let db = Db::open(&server);
    let world = World::in_agency(&server, agency);
    let alice = world.technician("Alice Martin", None).await;
    let bruno = world.technician("Bruno Petit", None).await;
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", "motdepasse-solide").await;
    let today = clock::paris_today();
    // Bruno holds the current week.
    let (w0s, w0e) = rota::week_bounds(week(0));
    world.on_call(&bruno, w0s, w0e).await;

    let rest = |body: &Value, name: &str| -> Value {
        body.as_array()
            .expect("rows")
            .iter()
            .find(|row| row["name"] == json!(name))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let (_, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(rest(&body, "Bruno Petit")["onCall"], json!(true));
    assert_eq!(rest(&body, "Alice Martin")["onCall"], json!(false));

    // Alice takes over the current week from now: Bruno rests 11 hours from now.
    let before = Utc::now();
    let (status, body) = admin
        .put(
            &format!("/technicians/rota/{}", week(0)),
            json!({ "technicianId": alice }),
        )
        .await;
    let after = Utc::now();
    assert_eq!(status, 200, "{body}");
    let (_, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(rest(&body, "Alice Martin")["onCall"], json!(true));
    assert_eq!(rest(&body, "Alice Martin")["offUntil"], Value::Null);
    let bruno_row = rest(&body, "Bruno Petit");
    assert_eq!(bruno_row["onCall"], json!(false));
    let off_until = clock::parse_timestamp(bruno_row["offUntil"].as_str().expect("offUntil"))
        .expect("timestamp");
    assert!(
        off_until >= before - Duration::milliseconds(1) + Duration::hours(11)
            && off_until <= after + Duration::hours(11),
        "{off_until}"
    );
    // The past stays: Bruno's part of the week ends now, Alice's starts now.
    let periods = db.periods(agency);
    assert_eq!(periods.len(), 2, "{periods:?}");
    assert_eq!(periods[0].0, bruno);
    assert_eq!(periods[0].1, ts(w0s));
    assert_eq!(periods[1], (alice.clone(), periods[0].2.clone(), ts(w0e)));

    // An absence from today: absentUntil.
    let (status, body) = admin
        .post(
            &format!("/technicians/{bruno}/absences"),
            json!({ "startsOn": day_text(today), "endsOn": day_text(today + Duration::days(2)), "reason": "Arrêt maladie" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let absence = body["id"].as_str().expect("id").to_owned();
    let (_, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(
        rest(&body, "Bruno Petit")["absentUntil"],
        json!(day_text(today + Duration::days(2)))
    );
    let (status, _) = admin
        .delete(&format!("/technicians/{bruno}/absences/{absence}"))
        .await;
    assert_eq!(status, 204);
    let (_, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(rest(&body, "Bruno Petit")["absentUntil"], Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn administrators_add_edit_and_take_technicians_off_the_roster_from_the_screen() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    member(&server, &org.agency_id, "marc@durand.fr");
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", "motdepasse-solide").await;

    let (status, body) = admin
        .post(
            "/technicians",
            json!({ "name": " Hugo Lefèvre ", "phone": "06 12 34 56 78", "sectors": ["Lyon 3", "Villeurbanne", "lyon 3"], "dailyCapacity": 5 }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let id = str_of(&body, "id").to_owned();
    assert_eq!(
        body,
        json!({ "id": id, "name": "Hugo Lefèvre", "phone": "06 12 34 56 78", "sectors": ["Lyon 3", "Villeurbanne"],
                "dailyCapacity": 5, "restHours": 11, "active": true, "accountId": null })
    );
    // On the roster at once, and on the REST API.
    let (_, roster) = admin.get("/technicians").await;
    assert!(roster.to_string().contains("Hugo Lefèvre"), "{roster}");
    let (_, v2) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert!(v2.to_string().contains("Hugo Lefèvre"), "{v2}");

    let (status, body) = admin
        .patch(
            &format!("/technicians/{id}"),
            json!({ "phone": "", "restHours": 12, "sectors": ["Bron"] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (
            body["phone"].clone(),
            body["restHours"].clone(),
            body["sectors"].clone()
        ),
        (Value::Null, json!(12), json!(["Bron"]))
    );
    assert_eq!(body["name"], "Hugo Lefèvre", "kept");

    let (status, body) = admin
        .post(&format!("/technicians/{id}/deactivate"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["active"], false);
    let (_, roster) = admin.get("/technicians").await;
    assert!(!roster.to_string().contains("Hugo Lefèvre"), "{roster}");
    let (_, records) = admin.get("/technicians/records").await;
    assert_eq!(records["canEdit"], true);
    assert_eq!(
        records["technicians"]
            .as_array()
            .and_then(|t| t.last())
            .map(|t| t["name"].clone()),
        Some(json!("Hugo Lefèvre"))
    );
    let (status, body) = admin
        .post(&format!("/technicians/{id}/reactivate"), json!({}))
        .await;
    assert_eq!((status, body["active"].clone()), (200, json!(true)));

    // Bad inputs, named.
    for (body, expected) in [
        (json!({ "name": "" }), "Le champ « name » est obligatoire."),
        (
            json!({ "name": "Léa", "dailyCapacity": 0 }),
            "Le champ « dailyCapacity » doit être compris entre 1 et 20 visites par jour.",
        ),
        (
            json!({ "name": "Léa", "phone": "appelez" }),
            "Le champ « phone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « appelez » n'en est pas un.",
        ),
    ] {
        let (status, answer) = admin.post("/technicians", body.clone()).await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (422, Some(expected)),
            "{body}"
        );
    }
    let (status, answer) = admin
        .patch(&format!("/technicians/{id}"), json!({ "restHours": 49 }))
        .await;
    assert_eq!(
        (status, answer["error"].clone()),
        (
            422,
            json!("Le champ « restHours » doit être compris entre 0 et 48 heures.")
        )
    );

    // A member reads, and changes nothing.
    let marc = StaffClient::sign_in(&server, "marc@durand.fr", "motdepasse-solide").await;
    let (status, records) = marc.get("/technicians/records").await;
    assert_eq!((status, records["canEdit"].clone()), (200, json!(false)));
    for (status, body, what) in [
        {
            let (s, b) = marc.post("/technicians", json!({ "name": "Intrus" })).await;
            (s, b, "Ajouter un technicien")
        },
        {
            let (s, b) = marc
                .patch(&format!("/technicians/{id}"), json!({ "name": "Intrus" }))
                .await;
            (s, b, "Modifier un technicien")
        },
        {
            let (s, b) = marc
                .post(&format!("/technicians/{id}/deactivate"), json!({}))
                .await;
            (s, b, "Désactiver un technicien")
        },
        {
            let (s, b) = marc
                .post(&format!("/technicians/{id}/reactivate"), json!({}))
                .await;
            (s, b, "Réactiver un technicien")
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
    // Another organization does not find him.
    let paul = StaffClient::sign_in(&server, "paul@martin.fr", "motdepasse-solide").await;
    let (status, body) = paul
        .patch(&format!("/technicians/{id}"), json!({ "name": "Pirate" }))
        .await;
    assert_eq!(
        (status, body),
        (
            404,
            json!({ "error": format!("Technicien introuvable dans cette agence : « {id} ».") })
        )
    );
    let (_, records) = paul.get("/technicians/records").await;
    assert!(!records.to_string().contains("Hugo"), "{records}");
}
