//! The web application's dashboard (`GET /app/api/dashboard`): exact figures
//! on crafted data — open calls by status, this week's visits and the overdue
//! ones, invoices issued and paid per month over twelve months, the unpaid
//! amount by age, the equipment by knowledge rate — and another agency's
//! data never counted. Fixtures are written with SQL: the figures are
//! checked on crafted rows the operations do not produce (one lift carrying
//! several visits not done, invoices due on chosen days, values surveyed
//! outside any survey), and the counts kept by the store's triggers are
//! checked against a recount after rows change under them.

use crate::common;

use chrono::{Datelike, Duration, Months, NaiveDate};
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

/// First day of the month `back` months before today's.
fn month_start(today: NaiveDate, back: u32) -> NaiveDate {
    today
        .with_day(1)
        .and_then(|d| d.checked_sub_months(Months::new(back)))
        .expect("month")
}

struct Db {
    conn: Connection,
    seq: std::cell::Cell<i64>,
}

impl Db {
    fn open(server: &TestServer) -> Db {
        let conn = open_db(server.data_dir.path());
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .expect("busy timeout");
        Db {
            conn,
            seq: std::cell::Cell::new(0),
        }
    }

    fn equipment(&self, agency: &str, number: &str) -> String {
        let equipment = id();
        let now = clock::now_text();
        self.conn
            .execute(
                "INSERT INTO equipment (id, agency_id, number, type, created_at, updated_at)
                 VALUES (?1, ?2, ?3, 'ascenseur', ?4, ?4)",
                params![equipment, agency, number, now],
            )
            .expect("equipment");
        equipment
    }

    /// The catalog fields that apply to a lift (`ascenseur`).
    fn lift_fields(&self) -> Vec<String> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT code FROM technical_fields
                 WHERE applies_to IS NULL OR (',' || applies_to || ',') LIKE '%,ascenseur,%'
                 ORDER BY position",
            )
            .expect("prepare");
        stmt.query_map([], |r| r.get(0))
            .expect("fields")
            .collect::<Result<Vec<_>, _>>()
            .expect("fields")
    }

    fn surveyed(&self, equipment: &str, fields: &[String]) {
        for field in fields {
            self.conn
                .execute(
                    "INSERT INTO equipment_values (equipment_id, field_code, value, surveyed_at)
                     VALUES (?1, ?2, '\"relevé\"', ?3)",
                    params![equipment, field, clock::now_text()],
                )
                .expect("value");
        }
    }

    fn call(&self, agency: &str, equipment: &str, status: &str) {
        let now = clock::now_text();
        self.conn
            .execute(
                "INSERT INTO calls (id, agency_id, reference, equipment_id, type, description,
                                    received_at, status, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, 'panne', 'Cabine bloquée', ?5, ?6, ?5, ?5)",
                params![id(), agency, id(), equipment, now, status],
            )
            .expect("call");
    }

    fn visit(
        &self,
        agency: &str,
        equipment: &str,
        day: NaiveDate,
        status: &str,
        deadline: Option<NaiveDate>,
    ) {
        let now = clock::now_text();
        let done_on = (status == "faite").then(|| day_text(day));
        self.conn
            .execute(
                "INSERT INTO visits (id, agency_id, equipment_id, planned_for, deadline, status,
                                     done_on, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
                params![
                    id(),
                    agency,
                    equipment,
                    day_text(day),
                    deadline.map(day_text),
                    status,
                    done_on,
                    now
                ],
            )
            .expect("visit");
    }

    /// An invoice (`facture`) or credit note (`avoir`); a number unless draft.
    #[allow(clippy::too_many_arguments)]
    fn invoice(
        &self,
        agency: &str,
        nature: &str,
        status: &str,
        issued: Option<NaiveDate>,
        due: Option<NaiveDate>,
        paid: Option<NaiveDate>,
        cents: i64,
        credited: Option<&str>,
    ) -> String {
        let invoice = id();
        let now = clock::now_text();
        let created = issued.unwrap_or_else(clock::paris_today);
        let (number, year, seq) = if status == "brouillon" {
            (None, None, None)
        } else {
            let seq = self.seq.get() + 1;
            self.seq.set(seq);
            let prefix = if nature == "facture" { "FA" } else { "AV" };
            let year = created.year();
            (
                Some(format!("{prefix}-{year}-{seq:06}")),
                Some(year),
                Some(seq),
            )
        };
        self.conn
            .execute(
                "INSERT INTO invoices (id, agency_id, nature, status, number, number_year, number_seq,
                                       credited_invoice_id, issued_on, due_on, paid_on,
                                       total_excl_cents, total_incl_cents, created_on, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
                params![
                    invoice,
                    agency,
                    nature,
                    status,
                    number,
                    year,
                    seq,
                    credited,
                    issued.map(day_text),
                    due.map(day_text),
                    paid.map(day_text),
                    cents * 5 / 6,
                    cents,
                    day_text(created),
                    now
                ],
            )
            .expect("invoice");
        invoice
    }
}

/// Every kind of figure of an agency, with `scale` copies (another agency
/// gets other amounts so that a leak would show).
fn fixtures(db: &Db, agency: &str, today: NaiveDate, scale: i64) {
    let lift = db.equipment(agency, &format!("ASC-{}", id()));
    // Calls: 2 open, 1 on the way, 1 stopped, 3 resolved.
    for status in ["ouverte", "ouverte", "en_route", "a_l_arret"] {
        for _ in 0..scale {
            db.call(agency, &lift, status);
        }
    }
    for _ in 0..3 {
        db.call(agency, &lift, "resolue");
    }
    // Visits of this week (today): one done, one planned, one begun.
    db.visit(agency, &lift, today, "faite", None);
    db.visit(agency, &lift, today, "planifiee", None);
    for _ in 0..scale {
        db.visit(agency, &lift, today, "en_cours", None);
    }
    // Overdue: a planned visit whose day has passed, one whose limit date
    // has passed; not overdue: a done visit of the past, a visit to come.
    db.visit(agency, &lift, today - Duration::days(10), "planifiee", None);
    db.visit(
        agency,
        &lift,
        today + Duration::days(10),
        "planifiee",
        Some(today - Duration::days(1)),
    );
    db.visit(agency, &lift, today - Duration::days(20), "faite", None);
    db.visit(agency, &lift, today + Duration::days(10), "planifiee", None);
    // Invoices.
    let m = |back| month_start(today, back) + Duration::days(1);
    let s = scale;
    db.invoice(
        agency,
        "facture",
        "emise",
        Some(today),
        Some(today + Duration::days(30)),
        None,
        120_000 * s,
        None,
    );
    db.invoice(
        agency,
        "facture",
        "payee",
        Some(today),
        Some(today + Duration::days(30)),
        Some(today),
        50_000 * s,
        None,
    );
    let c = db.invoice(
        agency,
        "facture",
        "envoyee",
        Some(m(3)),
        Some(today - Duration::days(31)),
        None,
        30_000 * s,
        None,
    );
    db.invoice(
        agency,
        "avoir",
        "emise",
        Some(today),
        None,
        None,
        10_000 * s,
        Some(&c),
    );
    db.invoice(
        agency,
        "avoir",
        "brouillon",
        None,
        None,
        None,
        5_000 * s,
        Some(&c),
    );
    db.invoice(
        agency,
        "facture",
        "emise",
        Some(month_start(today, 13)),
        Some(today - Duration::days(91)),
        None,
        70_000 * s,
        None,
    );
    db.invoice(
        agency,
        "facture",
        "emise",
        Some(m(1)),
        Some(today - Duration::days(30)),
        None,
        5_000 * s,
        None,
    );
    db.invoice(
        agency,
        "facture",
        "brouillon",
        None,
        None,
        None,
        99_000 * s,
        None,
    );
    db.invoice(
        agency,
        "facture",
        "envoyee",
        Some(m(2)),
        Some(today - Duration::days(90)),
        None,
        8_000 * s,
        None,
    );
    db.invoice(
        agency,
        "facture",
        "payee",
        Some(m(4)),
        Some(m(4) + Duration::days(30)),
        Some(m(2) + Duration::days(4)),
        25_000 * s,
        None,
    );
    // Knowledge: besides `lift` (nothing surveyed), one with nothing, one
    // with 60 % of its catalog, one complete.
    let fields = db.lift_fields();
    assert!(fields.len() >= 10, "catalog of a lift: {fields:?}");
    db.equipment(agency, &format!("ASC-{}", id()));
    let partly = db.equipment(agency, &format!("ASC-{}", id()));
    db.surveyed(&partly, &fields[..fields.len() * 6 / 10]);
    let complete = db.equipment(agency, &format!("ASC-{}", id()));
    db.surveyed(&complete, &fields);
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
    let db = Db::open(&server);
    let today = clock::paris_today();
    fixtures(&db, &org.agency_id, today, 1);
    fixtures(&db, &other.agency_id, today, 3);

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

    // The surveyed-field counts follow the data: the complete lift loses its
    // data, the partly surveyed one changes type; every count is then what a
    // recount from the data gives.
    db.conn
        .execute(
            "DELETE FROM equipment_values WHERE equipment_id =
               (SELECT id FROM equipment WHERE agency_id = ?1 ORDER BY surveyed_fields DESC LIMIT 1)",
            [&org.agency_id],
        )
        .expect("delete values");
    db.conn
        .execute(
            "UPDATE equipment SET type = 'monte_charge' WHERE agency_id = ?1 AND surveyed_fields > 0",
            [&org.agency_id],
        )
        .expect("change type");
    let drift: i64 = db
        .conn
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
