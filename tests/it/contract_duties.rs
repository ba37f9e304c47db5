//! The periodic duties of a maintenance contract on the planning: the
//! cables every six months, the safety gear (parachute) and the cleaning
//! every year, each with its own deadline from the lift's plan start or the
//! last visit that did it. A planned visit carries the duties that would be
//! late at the next one (marked late when the visit is after their
//! deadline); a completed visit records those done (REST v2
//! `POST /visits/{id}/complete` with `duties`), which moves their next
//! deadline; the weekly proposal takes a lift whose duty falls due in the
//! week although its visit does not. Over HTTP as the web application and
//! the API make them; dates relative to today.

use crate::common;

use chrono::{Datelike, Duration, Months, NaiveDate};
use common::app::StaffClient;
use common::world::{World, morning};
use common::*;
use liftdesk::clock;
use liftdesk::domain::technician::TechnicianInput;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use reqwest::Method;
use serde_json::{Value, json};

fn iso(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

fn plus_months(day: NaiveDate, months: u32) -> NaiveDate {
    day.checked_add_months(Months::new(months)).expect("day")
}

/// A lift of the client `CLI-1` under maintenance (`parc`) in `building`,
/// its plan started on `plan_start`.
async fn lift(world: &World, building: &str, number: &str, plan_start: NaiveDate) -> String {
    let input = NewEquipment {
        identity: IdentityRow {
            number: Some(number.to_owned()),
            equipment_type: Some("ascenseur".to_owned()),
            maintenance_contract: Some("parc".to_owned()),
            ..IdentityRow::default()
        },
        building_id: Some(building.to_owned()),
        client_ref: Some("CLI-1".to_owned()),
    };
    world
        .at(morning(plan_start), || world.equipment_with(input))
        .await
}

/// The entry of `visit` in the week of `day`, as the planning screen reads it.
async fn entry(staff: &StaffClient, day: NaiveDate, visit: &str) -> Value {
    let (status, week) = staff.get(&format!("/planning?day={}", iso(day))).await;
    assert_eq!(status, 200, "{week}");
    week["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["id"] == visit)
        .cloned()
        .unwrap_or_else(|| panic!("visite {visit} absente de la semaine du {day}"))
}

fn due(code: &str, label: &str, deadline: NaiveDate, overdue: bool) -> Value {
    json!({"code": code, "label": label, "deadline": iso(deadline), "overdue": overdue, "done": false})
}

const CABLES: &str = "Contrôle des câbles";
const PARACHUTE: &str = "Essai du parachute";
const CLEANING: &str = "Nettoyage de la cuvette, du toit de cabine et du local des machines";

#[tokio::test]
async fn the_contracts_duties_are_on_the_planning_with_their_deadlines_and_a_visit_records_them() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let world = World::in_agency(&server, &org.agency_id);
    world.client_named("CLI-1", "Résidence Les Tilleuls").await;
    let alice = world
        .technician_with(TechnicianInput {
            name: Some("Alice Durand".to_owned()),
            sectors: vec!["Paris 15e".to_owned()],
            daily_capacity: Some(8),
            ..TechnicianInput::default()
        })
        .await;
    let building = world
        .building(
            Some("Résidence Lourmel"),
            "12 rue de la Paix",
            Some("75015"),
            Some("Paris"),
        )
        .await;
    let today = clock::paris_today();
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()))
        + Duration::days(7);
    // A and B: their plans began 150 days ago, their cables are due in about
    // a month. C: 340 days ago, its cables are late and its yearly duties
    // due within the month. D: its yearly duties fall due within 5 days.
    let recent = today - Duration::days(150);
    let old = today - Duration::days(340);
    let yearly_soon = (today + Duration::days(5))
        .checked_sub_months(Months::new(12))
        .expect("day");
    let a = lift(&world, &building, "ASC-A", recent).await;
    let b = lift(&world, &building, "ASC-B", recent).await;
    let c = lift(&world, &building, "ASC-C", old).await;
    let d = lift(&world, &building, "ASC-D", yearly_soon).await;
    // E: as D, under no contract.
    let e = lift(&world, &building, "ASC-E", yearly_soon).await;
    for lift in [&d, &e] {
        // Their last visits were ten days ago: the next is not due next week.
        let arrived = (today - Duration::days(10))
            .and_hms_opt(8, 0, 0)
            .expect("8h")
            .and_utc();
        world
            .done_visit(
                lift,
                Some(&alice),
                today - Duration::days(10),
                (arrived, arrived + Duration::hours(1)),
                "Mme Martin",
                None,
            )
            .await;
    }

    // Their contracts, put in force: each lift's plan starts with its
    // contract (none was recorded), and so do its duties.
    let mut contract = String::new();
    for (lifts, start) in [
        (vec![&a, &b], recent),
        (vec![&c], old),
        (vec![&d], yearly_soon),
    ] {
        let (status, created) = server
            .v2(
                Method::POST,
                "/contracts",
                &org.admin_token,
                Some(json!({
                    "clientId": "CLI-1",
                    "liftIds": lifts,
                    "type": "normal",
                    "startOn": iso(start),
                    "annualPrice": 1800,
                })),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        contract = created["id"].as_str().expect("id").to_owned();
        let (status, activated) = server
            .v2(
                Method::POST,
                &format!("/contracts/{contract}/activate"),
                &org.admin_token,
                None,
            )
            .await;
        assert_eq!(status, 201, "{activated}");
    }
    let (_, read) = server
        .v2(
            Method::GET,
            &format!("/contracts/{contract}"),
            &org.admin_token,
            None,
        )
        .await;
    assert_eq!(
        read["duties"],
        json!([
            {"code": "cables", "label": CABLES, "months": 6},
            {"code": "parachute", "label": PARACHUTE, "months": 12},
            {"code": "nettoyage", "label": CLEANING, "months": 12},
        ])
    );

    // A's visit yesterday did the cables: recorded by its completion.
    let yesterday = today - Duration::days(1);
    let a_done = world.visit(&a, Some(&alice), yesterday).await;
    let arrived = yesterday.and_hms_opt(8, 0, 0).expect("8h").and_utc();
    let complete = |duties: Value| {
        json!({
            "arrivedAt": clock::format_timestamp(arrived),
            "leftAt": clock::format_timestamp(arrived + Duration::hours(1)),
            "signedBy": "M. Petit",
            "duties": duties,
        })
    };
    // An unknown duty: 422 in French, the visit still planned.
    let (status, refused) = server
        .v2(
            Method::POST,
            &format!("/visits/{a_done}/complete"),
            &org.admin_token,
            Some(complete(json!(["cables", "graissage"]))),
        )
        .await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(
        refused["error"],
        "Le champ « duties » : « graissage » n'est pas une obligation périodique ; valeurs possibles : cables, parachute, nettoyage."
    );
    let (_, still) = server
        .v2(
            Method::GET,
            &format!("/visits/{a_done}"),
            &org.admin_token,
            None,
        )
        .await;
    assert_eq!(still["fields"]["status"], "planifiee", "{still}");
    let (status, done) = server
        .v2(
            Method::POST,
            &format!("/visits/{a_done}/complete"),
            &org.admin_token,
            Some(complete(json!(["cables", "cables"]))),
        )
        .await;
    assert_eq!(status, 201, "{done}");
    let journal = audit_of(&server, "visit", &a_done);
    assert_eq!(
        journal
            .last()
            .map(|(action, detail)| (action.as_str(), detail["duties"].clone())),
        Some(("cloture", json!(["cables"])))
    );

    // Next week's visits.
    let a_next = world.visit(&a, Some(&alice), monday).await;
    let b_next = world.visit(&b, Some(&alice), monday).await;
    let c_next = world.visit(&c, Some(&alice), monday).await;

    let staff = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;
    // The done visit shows what it did.
    let done_entry = entry(&staff, yesterday, &a_done).await;
    assert_eq!(
        done_entry["duties"],
        json!([{"code": "cables", "label": CABLES, "deadline": null, "overdue": false, "done": true}])
    );
    // A: its cables start again from yesterday: nothing due at Monday's visit.
    assert_eq!(entry(&staff, monday, &a_next).await["duties"], json!([]));
    // B: its cables are due before its next visit would be.
    let b_cables = plus_months(recent, 6);
    assert_eq!(
        entry(&staff, monday, &b_next).await["duties"],
        json!([due("cables", CABLES, b_cables, false)])
    );
    // C: the cables late, the safety gear and the cleaning due in the year.
    let c_entry = entry(&staff, monday, &c_next).await;
    assert_eq!(
        c_entry["duties"],
        json!([
            due("cables", CABLES, plus_months(old, 6), true),
            due("parachute", PARACHUTE, plus_months(old, 12), false),
            due("nettoyage", CLEANING, plus_months(old, 12), false),
        ])
    );
    // The visit's detail lists them too (the close form ticks them).
    let (status, b_visit) = staff.get(&format!("/visits/{b_next}")).await;
    assert_eq!(status, 200, "{b_visit}");
    assert_eq!(
        b_visit["duties"],
        json!([due("cables", CABLES, b_cables, false)])
    );
    let (_, a_visit) = staff.get(&format!("/visits/{a_done}")).await;
    assert_eq!(
        a_visit["duties"],
        json!([{"code": "cables", "label": CABLES, "deadline": null, "overdue": false, "done": true}])
    );
    // B's visit moved after its cables' deadline: marked late.
    let late_day = b_cables + Duration::days(1);
    let (status, moved) = staff
        .post(
            &format!("/visits/{b_next}/move"),
            json!({ "plannedFor": iso(late_day) }),
        )
        .await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(
        entry(&staff, late_day, &b_next).await["duties"],
        json!([due("cables", CABLES, b_cables, true)])
    );

    // The proposal of next week takes D (its yearly duties fall due), not
    // E (no contract, its visit not due), with D's duties on its line.
    let (status, proposal) = staff
        .get(&format!("/planning/proposal?day={}", iso(monday)))
        .await;
    assert_eq!(status, 200, "{proposal}");
    let lines: Vec<Value> = proposal["visits"]
        .as_array()
        .expect("visits")
        .iter()
        .chain(proposal["unplaced"].as_array().expect("unplaced"))
        .cloned()
        .collect();
    assert!(lines.iter().all(|l| l["equipmentId"] != e), "{proposal}");
    let d_line = lines
        .iter()
        .find(|l| l["equipmentId"] == d)
        .unwrap_or_else(|| panic!("D absent : {proposal}"));
    // Its deadline: its first duty's (the cables, late), before its visit's.
    assert_eq!(d_line["deadline"], iso(plus_months(yearly_soon, 6)));
    let codes: Vec<&str> = d_line["duties"]
        .as_array()
        .expect("duties")
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, ["cables", "parachute", "nettoyage"], "{d_line}");
    assert_eq!(
        d_line["duties"][1]["deadline"],
        iso(plus_months(yearly_soon, 12))
    );
}
