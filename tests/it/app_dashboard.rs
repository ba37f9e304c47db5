//! The web application's dashboard (`GET /app/api/dashboard`): exact figures
//! on crafted data — open calls by status, this week's visits and the overdue
//! ones, invoices issued and paid per month over twelve months, the unpaid
//! amount by age, the equipment by knowledge rate — and another agency's
//! data never counted. Calls, equipment and their technical data are
//! written by the operations; the visits and invoices come from the
//! agency's history (`World::visit_from_history`, `invoice_from_history`):
//! the figures are checked on what the operations do not write (one lift
//! carrying several visits not done, invoices issued, due and paid on
//! chosen days). The counts kept by the store's triggers are checked
//! against a recount after data change under them.

use crate::common;

use chrono::{Datelike, Duration, Months, NaiveDate};
use common::app::StaffClient;
use common::world::{PastInvoice, PastVisit, World, morning};
use common::*;
use liftdesk::clock;
use liftdesk::domain::invoice::{InvoiceNature, InvoiceStatus};
use liftdesk::domain::quote::QuoteAction;
use liftdesk::services::calls::CenterCallInput;
use liftdesk::services::equipment::IdentityPatch;
use liftdesk::store::technical_fields::{self, ValueType};
use serde_json::{Map, Value, json};

fn id() -> String {
    uuid::Uuid::now_v7().to_string()
}

fn day_text(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// First day of the month `back` months before today's.
fn month_start(today: NaiveDate, back: u32) -> NaiveDate {
    today
        .with_day(1)
        .and_then(|d| d.checked_sub_months(Months::new(back)))
        .expect("month")
}

/// A valid value of every catalog field that applies to a lift
/// (`ascenseur`), in catalog order.
async fn lift_values(world: &World) -> Vec<(String, Value)> {
    let catalog = world
        .store
        .read(technical_fields::all)
        .await
        .expect("catalogue");
    catalog
        .into_iter()
        .filter(|f| {
            f.applies_to
                .as_ref()
                .is_none_or(|types| types.iter().any(|t| t == "ascenseur"))
        })
        .map(|f| {
            let first = f.choices.first().cloned().unwrap_or_default();
            let value = match f.value_type {
                ValueType::Text => json!("relevé"),
                ValueType::Number | ValueType::Integer => json!(1),
                ValueType::Boolean => json!(true),
                ValueType::Choice => json!(first),
                ValueType::Multi => json!([first]),
            };
            (f.code, value)
        })
        .collect()
}

fn values_of(values: &[(String, Value)]) -> Value {
    Value::Object(values.iter().cloned().collect::<Map<_, _>>())
}

/// The lifts whose knowledge the test changes afterwards.
struct Surveyed {
    partly: String,
    complete: String,
    fields: Vec<(String, Value)>,
}

/// Every kind of figure of an agency, with `scale` copies (another agency
/// gets other amounts so that a leak would show).
async fn fixtures(world: &World, today: NaiveDate, scale: i64) -> Surveyed {
    let number = format!("ASC-{}", id());
    let lift = world.lift(&number, None).await;
    let key = world.call_center_key("Centre d'appels").await;
    let technician = world.technician("Albert", None).await;
    // Calls: 2 open, 1 on the way, 1 stopped, 3 resolved.
    let call = |steps: &'static [&'static str]| {
        let (key, number, technician) = (key.clone(), number.clone(), technician.clone());
        async move {
            let call = world
                .call_from(
                    &key,
                    CenterCallInput {
                        reference: id(),
                        equipment: number,
                        call_type: "panne".to_owned(),
                        description: "Cabine bloquée".to_owned(),
                        caller: None,
                        received_at: None,
                    },
                )
                .await;
            if !steps.is_empty() {
                world.assign_call(&call, &technician).await;
            }
            for step in steps {
                world.move_call(&call, step).await;
            }
        }
    };
    let paths: [&'static [&'static str]; 4] =
        [&[], &[], &["en_route"], &["sur_place", "a_l_arret"]];
    for steps in paths {
        for _ in 0..scale {
            call(steps).await;
        }
    }
    for _ in 0..3 {
        call(&["resolue"]).await;
    }
    // Visits of this week (today): one done, one planned, one begun.
    let visit = |planned_for: NaiveDate, status: &str, deadline: Option<NaiveDate>| PastVisit {
        equipment: lift.clone(),
        technician: technician.clone(),
        planned_for,
        // None: a limit far enough not to make it overdue.
        deadline: deadline.unwrap_or(planned_for + Duration::days(30)),
        arrived: (status != "planifiee").then(|| morning(planned_for)),
        left: (status == "faite").then(|| morning(planned_for) + Duration::hours(1)),
    };
    world.visit_from_history(visit(today, "faite", None)).await;
    world
        .visit_from_history(visit(today, "planifiee", None))
        .await;
    for _ in 0..scale {
        world
            .visit_from_history(visit(today, "en_cours", None))
            .await;
    }
    // Overdue: a planned visit whose day has passed, one whose limit date
    // has passed; not overdue: a done visit of the past, a visit to come.
    world
        .visit_from_history(visit(today - Duration::days(10), "planifiee", None))
        .await;
    world
        .visit_from_history(visit(
            today + Duration::days(10),
            "planifiee",
            Some(today - Duration::days(1)),
        ))
        .await;
    world
        .visit_from_history(visit(today - Duration::days(20), "faite", None))
        .await;
    world
        .visit_from_history(visit(today + Duration::days(10), "planifiee", None))
        .await;
    // Invoices, numbered in one series as they come.
    let client = world
        .client_named(&format!("CLI-{}", id()), "Syndic Dupont")
        .await;
    let m = |back| month_start(today, back) + Duration::days(1);
    let s = scale;
    let mut seq = 0;
    let mut invoice = |nature: InvoiceNature,
                       status: InvoiceStatus,
                       issued: Option<NaiveDate>,
                       due: Option<NaiveDate>,
                       paid: Option<NaiveDate>,
                       cents: i64,
                       credited: Option<&str>| {
        let number = (status != InvoiceStatus::Brouillon).then(|| {
            seq += 1;
            (issued.unwrap_or(today).year(), seq)
        });
        world.invoice_from_history(PastInvoice {
            client: client.clone(),
            nature,
            status,
            number,
            credited: credited.map(str::to_owned),
            issued_on: issued,
            due_on: due,
            paid_on: paid,
            total_incl_cents: cents,
        })
    };
    use InvoiceNature::{Avoir, Facture};
    use InvoiceStatus::{Brouillon, Emise, Envoyee, Payee};
    invoice(
        Facture,
        Emise,
        Some(today),
        Some(today + Duration::days(30)),
        None,
        120_000 * s,
        None,
    )
    .await;
    invoice(
        Facture,
        Payee,
        Some(today),
        Some(today + Duration::days(30)),
        Some(today),
        50_000 * s,
        None,
    )
    .await;
    let c = invoice(
        Facture,
        Envoyee,
        Some(m(3)),
        Some(today - Duration::days(31)),
        None,
        30_000 * s,
        None,
    )
    .await;
    invoice(Avoir, Emise, Some(today), None, None, 10_000 * s, Some(&c)).await;
    invoice(Avoir, Brouillon, None, None, None, 5_000 * s, Some(&c)).await;
    invoice(
        Facture,
        Emise,
        Some(month_start(today, 13)),
        Some(today - Duration::days(91)),
        None,
        70_000 * s,
        None,
    )
    .await;
    invoice(
        Facture,
        Emise,
        Some(m(1)),
        Some(today - Duration::days(30)),
        None,
        5_000 * s,
        None,
    )
    .await;
    invoice(Facture, Brouillon, None, None, None, 99_000 * s, None).await;
    invoice(
        Facture,
        Envoyee,
        Some(m(2)),
        Some(today - Duration::days(90)),
        None,
        8_000 * s,
        None,
    )
    .await;
    invoice(
        Facture,
        Payee,
        Some(m(4)),
        Some(m(4) + Duration::days(30)),
        Some(m(2) + Duration::days(4)),
        25_000 * s,
        None,
    )
    .await;
    // Knowledge: besides `lift` (nothing surveyed), one with nothing, one
    // with 60 % of its catalog, one complete.
    let fields = lift_values(world).await;
    assert!(fields.len() >= 10, "catalog of a lift: {fields:?}");
    world.lift(&format!("ASC-{}", id()), None).await;
    let partly = world.lift(&format!("ASC-{}", id()), None).await;
    world
        .technical_values(&partly, values_of(&fields[..fields.len() * 6 / 10]))
        .await;
    let complete = world.lift(&format!("ASC-{}", id()), None).await;
    world.technical_values(&complete, values_of(&fields)).await;
    Surveyed {
        partly,
        complete,
        fields,
    }
}

fn month_row(body: &Value, today: NaiveDate, back: u32) -> Value {
    let month = month_start(today, back).format("%Y-%m").to_string();
    let row = body["invoices"]
        .as_array()
        .expect("invoices")
        .iter()
        .find(|m| m["month"] == json!(month))
        .cloned()
        .unwrap_or_else(|| panic!("month {month} in {body}"));
    json!([
        row["issued"],
        row["issuedCents"],
        row["paid"],
        row["paidCents"]
    ])
}

#[tokio::test]
async fn the_dashboard_counts_exactly_the_agency_s_calls_visits_invoices_and_park() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let today = clock::paris_today();
    let ours = World::in_agency(&server, &org.agency_id);
    let surveyed = fixtures(&ours, today, 1).await;
    fixtures(&World::in_agency(&server, &other.agency_id), today, 3).await;

    let admin = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;
    let (status, body) = admin.get("/dashboard").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["today"], json!(day_text(today)));
    assert_eq!(
        body["calls"],
        json!({
            "total": 4,
            "byStatus": [
                {"statut": "ouverte", "libelle": "Ouverte", "count": 2},
                {"statut": "en_route", "libelle": "Technicien en route", "count": 1},
                {"statut": "sur_place", "libelle": "Technicien sur place", "count": 0},
                {"statut": "a_l_arret", "libelle": "Appareil à l'arrêt", "count": 1},
            ]
        })
    );
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    assert_eq!(
        body["visits"],
        json!({
            "weekStart": day_text(monday),
            "weekEnd": day_text(monday + Duration::days(6)),
            "planned": 3,
            "done": 1,
            "remaining": 2,
            "overdue": 2,
        })
    );
    let months = body["invoices"].as_array().expect("invoices");
    assert_eq!(months.len(), 12);
    assert_eq!(
        months[0]["month"],
        json!(month_start(today, 11).format("%Y-%m").to_string())
    );
    assert_eq!(
        months[11]["month"],
        json!(today.format("%Y-%m").to_string())
    );
    let names = [
        "janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
        "déc.",
    ];
    assert_eq!(
        months[11]["label"],
        json!(format!(
            "{} {}",
            names[today.month0() as usize],
            today.year()
        ))
    );
    assert_eq!(month_row(&body, today, 0), json!([2, 170_000, 1, 50_000]));
    assert_eq!(month_row(&body, today, 1), json!([1, 5_000, 0, 0]));
    assert_eq!(month_row(&body, today, 2), json!([1, 8_000, 1, 25_000]));
    assert_eq!(month_row(&body, today, 3), json!([1, 30_000, 0, 0]));
    assert_eq!(month_row(&body, today, 4), json!([1, 25_000, 0, 0]));
    for back in 5..12 {
        assert_eq!(
            month_row(&body, today, back),
            json!([0, 0, 0, 0]),
            "month -{back}"
        );
    }
    assert_eq!(
        body["unpaid"],
        json!({
            "totalCents": 223_000,
            "count": 5,
            "buckets": [
                {"bucket": "a_echoir", "label": "Non échues", "count": 1, "amountCents": 120_000},
                {"bucket": "0_30", "label": "0 à 30 jours", "count": 1, "amountCents": 5_000},
                {"bucket": "31_60", "label": "31 à 60 jours", "count": 1, "amountCents": 20_000},
                {"bucket": "61_90", "label": "61 à 90 jours", "count": 1, "amountCents": 8_000},
                {"bucket": "plus_90", "label": "Plus de 90 jours", "count": 1, "amountCents": 70_000},
            ]
        })
    );
    assert_eq!(
        body["knowledge"],
        json!({
            "total": 4,
            "bands": [
                {"band": "0_24", "label": "Moins de 25 %", "count": 2},
                {"band": "25_49", "label": "25 à 49 %", "count": 0},
                {"band": "50_74", "label": "50 à 74 %", "count": 1},
                {"band": "75_99", "label": "75 à 99 %", "count": 0},
                {"band": "100", "label": "100 %", "count": 1},
            ]
        })
    );

    // Every figure opens exactly the list behind it: the invoices issued
    // and paid in each month, the unpaid ones of each age bucket, the
    // equipment of each knowledge band.
    for month in months {
        let first =
            NaiveDate::parse_from_str(&format!("{}-01", str_of(month, "month")), "%Y-%m-%d")
                .expect("month");
        let last = (first + Duration::days(32))
            .with_day(1)
            .expect("next month")
            - Duration::days(1);
        let (first, last) = (day_text(first), day_text(last));
        for (parameter, figure) in [("issued", "issued"), ("paid", "paid")] {
            let (status, page) = admin
                .get(&format!(
                    "/invoices?{parameter}Since={first}&{parameter}Until={last}&limit=200"
                ))
                .await;
            assert_eq!(status, 200, "{page}");
            assert_eq!(page["total"], month[figure], "{parameter} {first}: {page}");
        }
    }
    for bucket in body["unpaid"]["buckets"].as_array().expect("buckets") {
        let code = str_of(bucket, "bucket");
        let (status, page) = admin.get(&format!("/invoices?unpaid={code}")).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["total"], bucket["count"], "{code}: {page}");
    }
    let (status, refused) = admin.get("/invoices?unpaid=45_jours").await;
    assert_eq!(
        (status, refused),
        (
            400,
            json!({ "error": "Le paramètre « unpaid » vaut a_echoir, 0_30, 31_60, 61_90, plus_90, ou tout (reçu : « 45_jours »)." })
        )
    );
    // The unpaid total: every unpaid invoice, due or not.
    let (_, page) = admin.get("/invoices?unpaid=tout").await;
    assert_eq!(page["total"], body["unpaid"]["count"], "{page}");
    for band in body["knowledge"]["bands"].as_array().expect("bands") {
        let code = str_of(band, "band");
        let (status, page) = admin.get(&format!("/equipment?knowledge={code}")).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["total"], band["count"], "{code}: {page}");
    }

    // The surveyed-field counts follow the data: the complete lift loses its
    // data, the partly surveyed one changes type; every count is then what a
    // recount from the data gives.
    let erased: Vec<(String, Value)> = surveyed
        .fields
        .iter()
        .map(|(code, _)| (code.clone(), Value::Null))
        .collect();
    ours.technical_values(&surveyed.complete, values_of(&erased))
        .await;
    ours.identity_corrected(
        &surveyed.partly,
        IdentityPatch {
            equipment_type: Some(Some("monte_charge".to_owned())),
            ..IdentityPatch::default()
        },
    )
    .await;
    let db = open_db(server.data_dir.path());
    let drift: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM equipment e WHERE e.surveyed_fields <> (
                 SELECT COUNT(*) FROM equipment_values v JOIN technical_fields f ON f.code = v.field_code
                 WHERE v.equipment_id = e.id
                   AND (f.applies_to IS NULL
                        OR (',' || f.applies_to || ',') LIKE ('%,' || COALESCE(e.type, '') || ',%')))",
            [],
            |r| r.get(0),
        )
        .expect("recount");
    assert_eq!(drift, 0);
    let (_, body) = admin.get("/dashboard").await;
    let bands: Vec<&Value> = body["knowledge"]["bands"]
        .as_array()
        .expect("bands")
        .iter()
        .map(|b| &b["count"])
        .collect();
    assert_eq!(body["knowledge"]["total"], json!(4));
    assert_eq!(bands[0], &json!(3), "{body}");
    assert_eq!(bands[4], &json!(0), "{body}");

    // The other agency reads its own figures only.
    let martin = StaffClient::sign_in(&server, "paul@martin.fr", "motdepasse-solide").await;
    let (status, theirs) = martin.get("/dashboard").await;
    assert_eq!(status, 200, "{theirs}");
    assert_eq!(theirs["calls"]["total"], json!(12));
    assert_eq!(theirs["visits"]["planned"], json!(5));
    assert_eq!(theirs["unpaid"]["totalCents"], json!(669_000));
    assert_eq!(theirs["knowledge"]["total"], json!(4));
    assert_eq!(
        month_row(&theirs, today, 0),
        json!([2, 510_000, 1, 150_000])
    );
}

#[tokio::test]
async fn an_empty_agency_has_zeroes_and_a_member_reads_it_too_but_not_signed_out() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    server.cli_json(&[
        "user",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "Membre",
        "--password",
        "motdepasse-solide",
        "--agency",
        &org.agency_id,
    ]);
    let member = StaffClient::sign_in(&server, "membre@durand.fr", "motdepasse-solide").await;
    let (status, body) = member.get("/dashboard").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["calls"]["total"], json!(0));
    assert_eq!(body["visits"]["planned"], json!(0));
    assert_eq!(body["visits"]["overdue"], json!(0));
    assert_eq!(body["unpaid"]["totalCents"], json!(0));
    assert_eq!(body["unpaid"]["buckets"].as_array().map(Vec::len), Some(5));
    assert_eq!(body["knowledge"]["total"], json!(0));
    assert!(
        body["invoices"]
            .as_array()
            .expect("months")
            .iter()
            .all(|m| m["issued"] == json!(0) && m["paid"] == json!(0))
    );

    let response = server
        .client
        .get(server.url("/app/api/dashboard"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
}

/// « À traiter »: the trapped-person calls not resolved, the calls left
/// without a technician for more than 15 minutes, the late visits, the
/// quotes waiting for an answer for more than 30 days, the invoices past
/// due — and the invoice list's `overdue` filter behind that last figure.
#[tokio::test]
async fn the_todo_panel_names_what_needs_someone_now() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let today = clock::paris_today();
    let now = chrono::Utc::now();
    let world = World::in_agency(&server, &org.agency_id);
    let lift = world.lift("ASC-1", None).await;
    let key = world.call_center_key("Centre d'appels").await;
    let technician = world.technician("Albert", None).await;
    let call = |reference: &str, call_type: &str| CenterCallInput {
        reference: reference.to_owned(),
        equipment: "ASC-1".to_owned(),
        call_type: call_type.to_owned(),
        description: "Cabine arrêtée".to_owned(),
        caller: None,
        received_at: None,
    };
    // A trapped person, just now; a breakdown left alone for 20 minutes; one
    // of 20 minutes assigned; one of 5 minutes.
    let trapped = world.call_from(&key, call("R-1", "personne_bloquee")).await;
    let left_alone = world
        .call_at(&key, call("R-2", "panne"), now - Duration::minutes(20))
        .await;
    let assigned = world
        .call_at(&key, call("R-3", "panne"), now - Duration::minutes(20))
        .await;
    world.assign_call(&assigned, &technician).await;
    world
        .call_at(&key, call("R-4", "panne"), now - Duration::minutes(5))
        .await;
    // A quote sent 31 days ago, another 5 days ago.
    let rows = || vec![World::line("Remplacement", 1.0, 100.0, None)];
    let old_quote = world
        .at(now - Duration::days(31), || {
            world.quote(&lift, "Porte palière", rows())
        })
        .await;
    world
        .at(now - Duration::days(31), || {
            world.quote_act(&old_quote, QuoteAction::Send)
        })
        .await;
    let recent = world.quote(&lift, "Bouton", rows()).await;
    world
        .at(now - Duration::days(5), || {
            world.quote_act(&recent, QuoteAction::Send)
        })
        .await;
    // A visit planned yesterday and not done.
    world
        .visit_from_history(PastVisit {
            equipment: lift.clone(),
            technician: technician.clone(),
            planned_for: today - Duration::days(1),
            deadline: today + Duration::days(20),
            arrived: None,
            left: None,
        })
        .await;
    // An invoice due ten days ago, another due in ten days.
    let client = world.client_named("CLI-000001", "Syndic Dupont").await;
    let invoice = |seq: u32, issued: NaiveDate| PastInvoice {
        client: client.clone(),
        nature: InvoiceNature::Facture,
        status: InvoiceStatus::Envoyee,
        number: Some((issued.year(), seq)),
        credited: None,
        issued_on: Some(issued),
        due_on: Some(issued + Duration::days(30)),
        paid_on: None,
        total_incl_cents: 12_000,
    };
    let overdue = world
        .invoice_from_history(invoice(1, today - Duration::days(40)))
        .await;
    world
        .invoice_from_history(invoice(2, today - Duration::days(20)))
        .await;
    // Another agency's are never counted.
    let theirs = World::in_agency(&server, &other.agency_id);
    theirs.lift("ASC-1", None).await;
    let their_key = theirs.call_center_key("Centre").await;
    theirs
        .call_from(&their_key, call("X-1", "personne_bloquee"))
        .await;

    let admin = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;
    let (status, body) = admin.get("/dashboard").await;
    assert_eq!(status, 200, "{body}");
    let todo = &body["todo"];
    assert_eq!(todo["trappedCount"], json!(1));
    assert_eq!(todo["trapped"][0]["id"], json!(trapped));
    assert_eq!(todo["trapped"][0]["reference"], json!("R-1"));
    assert_eq!(todo["trapped"][0]["number"], json!("ASC-1"));
    assert_eq!(todo["trapped"][0]["statusLabel"], json!("Ouverte"));
    assert_eq!(todo["unassignedCount"], json!(1));
    assert_eq!(todo["unassigned"][0]["id"], json!(left_alone));
    assert_eq!(todo["unassignedAfterMinutes"], json!(15));
    assert_eq!(todo["lateVisits"], json!(1));
    assert_eq!(todo["waitingQuotesCount"], json!(1));
    assert_eq!(todo["waitingQuotes"][0]["id"], json!(old_quote));
    assert_eq!(todo["waitingQuotes"][0]["object"], json!("Porte palière"));
    assert_eq!(todo["quoteWaitingDays"], json!(30));
    assert_eq!(
        (&todo["overdueInvoices"], &todo["overdueCents"]),
        (&json!(1), &json!(12_000))
    );

    // The list behind the figure.
    let (status, page) = admin.get("/invoices?overdue=1").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["id"], json!(overdue));
    let (_, all) = admin.get("/invoices?overdue=0").await;
    assert_eq!(all["total"], json!(2));
    let (status, refused) = admin.get("/invoices?overdue=peut-etre").await;
    assert_eq!(
        (status, refused),
        (
            400,
            json!({ "error": "Le paramètre « overdue » vaut 1 (factures échues) ou 0 (reçu : « peut-etre »)." })
        )
    );
    server.stop().await;
}

/// The contracts in force whose current term ends within 90 days, nearest
/// first, with the last day for a notice when they renew tacitly; not a
/// draft, not a term further away, not another agency's.
#[tokio::test]
async fn the_dashboard_lists_the_contracts_coming_to_their_term_within_90_days() {
    use liftdesk::services::equipment::NewEquipment;
    use liftdesk::store::equipment::IdentityRow;
    use reqwest::Method;
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let today = clock::paris_today();
    let mut lifts = Vec::new();
    for (org, client) in [(&org, "CLI-1"), (&other, "CLI-9")] {
        let world = World::in_agency(&server, &org.agency_id);
        world.client_named(client, "Résidence Les Tilleuls").await;
        for n in 0..4 {
            lifts.push((
                org,
                client,
                world
                    .equipment_with(NewEquipment {
                        identity: IdentityRow {
                            number: Some(format!("ASC-{n}")),
                            equipment_type: Some("ascenseur".to_owned()),
                            ..IdentityRow::default()
                        },
                        building_id: None,
                        client_ref: Some(client.to_owned()),
                    })
                    .await,
            ));
        }
    }
    // Started so many days short of a year ago: its first term ends then.
    let contract = |index: usize, ends_in: i64, tacit: bool, activate: bool| {
        let (org, client, lift) = lifts[index].clone();
        let start = (today + Duration::days(ends_in + 1))
            .checked_sub_months(Months::new(12))
            .expect("day");
        let server = &server;
        async move {
            let (status, created) = server
                .v2(
                    Method::POST,
                    "/contracts",
                    &org.admin_token,
                    Some(json!({
                        "clientId": client, "liftIds": [lift], "type": "normal",
                        "startOn": day_text(start), "annualPrice": 1200,
                        "tacitRenewal": tacit, "noticeMonths": if tacit { 1 } else { 0 },
                    })),
                )
                .await;
            assert_eq!(status, 201, "{created}");
            let id = created["id"].as_str().expect("id").to_owned();
            if activate {
                let (status, body) = server
                    .v2(
                        Method::POST,
                        &format!("/contracts/{id}/activate"),
                        &org.admin_token,
                        None,
                    )
                    .await;
                assert_eq!(status, 201, "{body}");
            }
            let (_, read) = server
                .v2(
                    Method::GET,
                    &format!("/contracts/{id}"),
                    &org.admin_token,
                    None,
                )
                .await;
            (id, read["number"].as_str().expect("number").to_owned())
        }
    };
    let (soon, soon_number) = contract(0, 20, true, true).await;
    let (later, later_number) = contract(1, 80, false, true).await;
    contract(2, 200, true, true).await;
    contract(3, 10, true, false).await;
    contract(4, 5, true, true).await;

    let admin = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;
    let (status, body) = admin.get("/dashboard").await;
    assert_eq!(status, 200, "{body}");
    let end = |days: i64| day_text(today + Duration::days(days));
    assert_eq!(
        body["renewals"],
        json!({
            "withinDays": 90,
            "count": 2,
            "items": [
                { "id": soon, "number": soon_number, "clientName": "Résidence Les Tilleuls",
                  "termEnd": end(20), "tacitRenewal": true,
                  "noticeDeadline": day_text((today + Duration::days(21)).checked_sub_months(Months::new(1)).expect("day")),
                  "lifts": 1 },
                { "id": later, "number": later_number, "clientName": "Résidence Les Tilleuls",
                  "termEnd": end(80), "tacitRenewal": false, "noticeDeadline": null, "lifts": 1 },
            ],
        })
    );
}
