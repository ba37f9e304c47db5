//! The demo generator's own tests: rows of the bulk writer read back with
//! SQL (counts, formats, coherence, reproducibility).

use super::*;
use rusqlite::Connection;
use rusqlite::params;
use rusqlite::types::Value;

/// A Wednesday morning.
fn fixed_now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 11, 10, 30, 0)
        .single()
        .expect("valid instant")
}

fn test_agencies() -> Vec<DemoAgency> {
    vec![
        DemoAgency {
            id: "0190a000-0000-7000-8000-000000000001".into(),
            name: "Agence Paris Ouest".into(),
            invoice_series: Some("PO".into()),
        },
        DemoAgency {
            id: "0190a000-0000-7000-8000-000000000002".into(),
            name: "Agence Paris Est".into(),
            invoice_series: Some("PE".into()),
        },
    ]
}

const ORG: &str = "0190a000-0000-7000-8000-0000000000aa";

/// The rows the caller creates before seeding.
fn caller_rows(conn: &Connection, agencies: &[DemoAgency]) {
    let at = "2025-01-06T09:00:00.000Z";
    conn.execute(
        "INSERT INTO organizations (id, name, kind, created_at) VALUES (?1, 'Ascenseurs Démo', 'client', ?2)",
        params![ORG, at],
    )
    .expect("organization");
    for agency in agencies {
        conn.execute(
            "INSERT INTO agencies (id, organization_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![agency.id, ORG, agency.name, at],
        )
        .expect("agency");
    }
    for (id, email, role, surveys) in [
        (
            "0190a000-0000-7000-8000-0000000000b1",
            "admin@demo.fr",
            "org_admin",
            0,
        ),
        (
            "0190a000-0000-7000-8000-0000000000b2",
            "membre@demo.fr",
            "member",
            1,
        ),
    ] {
        conn.execute(
            "INSERT INTO accounts (id, organization_id, name, email, role, performs_surveys,
                                   password_hash, password_changed_at, created_at)
             VALUES (?1, ?2, ?3, ?3, ?4, ?5, 'hash', ?6, ?6)",
            params![id, ORG, email, role, surveys, at],
        )
        .expect("account");
    }
    conn.execute(
        "INSERT INTO account_agencies (account_id, agency_id) VALUES ('0190a000-0000-7000-8000-0000000000b2', ?1)",
        [&agencies[0].id],
    )
    .expect("membership");
    for (index, name) in ["Centre d'appels Nuit", "Centre d'appels Jour"]
        .iter()
        .enumerate()
    {
        let center = format!("0190a000-0000-7000-8000-0000000000c{index}");
        conn.execute(
            "INSERT INTO call_centers (id, agency_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![center, agencies[0].id, name, at],
        )
        .expect("call center");
        conn.execute(
            "INSERT INTO credentials (id, kind, name, fingerprint, agency_id, call_center_id, created_at)
             VALUES (?1, 'call_center_key', ?2, ?3, ?4, ?5, ?6)",
            params![
                format!("0190a000-0000-7000-8000-0000000000d{index}"),
                name,
                format!("fingerprint-{index}"),
                agencies[0].id,
                center,
                at
            ],
        )
        .expect("key");
    }
}

/// The Rust sort gives exactly SQLite's ORDER BY with the French
/// collation, on the demo's weeks (unassigned visits, technicians with
/// accented names, visits in progress, completed ones).
#[test]
fn the_planning_order_is_the_sql_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = crate::Store::open(&dir.path().join("t.db")).expect("store");
    let agencies = test_agencies();
    store
        .write_blocking(|tx| -> crate::StoreResult<()> {
            caller_rows(tx.sqlite().expect("SQLite"), &agencies);
            let scope = DemoScope {
                organization_id: &OrganizationId::new(ORG),
                agencies: &agencies,
                now: fixed_now(),
            };
            seed_domain_data(tx, &scope, DemoSize::Small, 7)
                .map_err(|err| crate::StoreError::Encoding(err.to_string()))?;
            Ok(())
        })
        .expect("demo");
    let today = fixed_now().date_naive();
    store
        .read_blocking(|conn| -> crate::StoreResult<()> {
            let sql = format!(
                "{} ORDER BY v.day, t.name IS NULL, t.name COLLATE FRANCAIS,
                 v.technician_id, v.arrived_at IS NULL, v.arrived_at, e.number, v.id",
                crate::visits::PLANNING_SQL
            );
            let mut compared = 0;
            for agency in &agencies {
                for week in -6..3_i64 {
                    let from = today + chrono::Duration::days(7 * week);
                    let to = from + chrono::Duration::days(6);
                    let (from, to) = (from.to_string(), to.to_string());
                    let expected: Vec<String> = conn
                        .prepare(&sql)?
                        .query_map([agency.id.as_str(), &from, &to], |r| r.get(0))?
                        .collect::<Result<_, _>>()?;
                    let got: Vec<String> = crate::visits::planning(
                        conn,
                        &liftdesk_domain::id::AgencyId::new(agency.id.as_str()),
                        &from,
                        &to,
                    )?
                    .into_iter()
                    .map(|row| row.id.into_string())
                    .collect();
                    assert_eq!(got, expected, "{} {from}", agency.name);
                    compared += got.len();
                }
            }
            assert!(compared > 500, "{compared} visits compared");
            Ok(())
        })
        .expect("compare");
}

fn seeded(seed: u64) -> (Connection, DemoCounts) {
    let mut conn = Connection::open_in_memory().expect("open");
    conn.execute_batch("PRAGMA foreign_keys=ON;")
        .expect("pragma");
    crate::migrate::run_all(&mut conn).expect("schema");
    let agencies = test_agencies();
    caller_rows(&conn, &agencies);
    let conn = crate::Conn::sqlite_conn(conn);
    let tx = crate::Tx::begin(&conn, fixed_now()).expect("transaction");
    let scope = DemoScope {
        organization_id: &OrganizationId::new(ORG),
        agencies: &agencies,
        now: fixed_now(),
    };
    let counts = seed_domain_data(&tx, &scope, DemoSize::Small, seed).expect("seed");
    tx.commit().expect("commit");
    (conn.into_sqlite().expect("SQLite"), counts)
}

fn count(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |row| row.get(0)).expect(sql)
}

fn strings(conn: &Connection, sql: &str) -> Vec<String> {
    let mut stmt = conn.prepare(sql).expect(sql);
    stmt.query_map([], |row| row.get::<_, String>(0))
        .expect(sql)
        .collect::<rusqlite::Result<Vec<_>>>()
        .expect(sql)
}

/// Every row of every table, as text.
fn dump(conn: &Connection) -> Vec<String> {
    let tables = strings(
        conn,
        // The migrations' own history holds when they ran.
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND name <> 'refinery_schema_history' ORDER BY name",
    );
    let mut out = Vec::new();
    for table in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{table}\""))
            .expect("select");
        let columns = stmt.column_count();
        let mut rows = stmt.query([]).expect("query");
        while let Some(row) = rows.next().expect("row") {
            let mut line = table.clone();
            for i in 0..columns {
                let value: Value = row.get(i).expect("value");
                line.push_str(&format!("|{value:?}"));
            }
            out.push(line);
        }
    }
    out
}

fn luhn_valid(digits: &str) -> bool {
    let mut sum = 0;
    for (position, ch) in digits.chars().rev().enumerate() {
        let Some(mut digit) = ch.to_digit(10) else {
            return false;
        };
        if position % 2 == 1 {
            digit *= 2;
            if digit > 9 {
                digit -= 9;
            }
        }
        sum += digit;
    }
    sum % 10 == 0
}

#[test]
fn luhn_helper_completes_numbers() {
    assert_eq!(luhn_complete("7992739871"), "79927398713");
    assert_eq!(luhn_complete("73282932"), "732829320");
    assert!(luhn_valid(&luhn_complete("4420")));
    assert!(!luhn_valid("732829321"));
}

#[test]
fn text_formats_match_the_schema_conventions() {
    let at = Utc
        .with_ymd_and_hms(2026, 11, 21, 7, 23, 5)
        .single()
        .expect("instant")
        + Duration::milliseconds(42);
    assert_eq!(&ts(at).0, b"2026-11-21T07:23:05.042Z");
    assert_eq!(
        std::str::from_utf8(&ts(at).0).expect("utf8"),
        at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
    );
    assert_eq!(&day(at.date_naive()).0, b"2026-11-21");
    assert_eq!(of_place("Issy-les-Moulineaux"), "d'Issy-les-Moulineaux");
    assert_eq!(of_place("Montreuil"), "de Montreuil");
    assert_eq!(
        ascii_slug("Hôtel Lutèce & Cœur", '-', 40),
        "hotel-lutece-coeur"
    );
    for date in [
        fixed_now().date_naive(),
        NaiveDate::from_ymd_opt(2026, 3, 14).expect("date"),
    ] {
        let number = workday_number(date);
        assert_eq!(workday_date(number), weekday_on_or_after(date));
        assert_eq!(workday_number(workday_date(number + 1)), number + 1);
    }
}

#[test]
fn same_seed_same_rows_other_seed_other_rows() {
    let (first, first_counts) = seeded(1);
    let (second, second_counts) = seeded(1);
    let (other, _) = seeded(2);
    assert_eq!(first_counts, second_counts);
    let dump_first = dump(&first);
    assert!(dump_first.len() > 5_000);
    assert!(dump_first == dump(&second), "same seed, different rows");
    assert!(dump_first != dump(&other), "different seeds, same rows");
}

#[test]
fn small_counts_are_those_of_a_small_agency() {
    let (conn, counts) = seeded(1);
    let agencies = test_agencies();
    for (index, agency) in agencies.iter().enumerate() {
        let per = |table: &str| {
            conn.query_row(
                &format!("SELECT count(*) FROM {table} WHERE agency_id = ?1"),
                [&agency.id],
                |row| row.get::<_, i64>(0),
            )
            .expect("count")
        };
        let technicians = per("technicians");
        assert!((6..=10).contains(&technicians), "{technicians} technicians");
        let clients = per("clients");
        assert!((35..=70).contains(&clients), "{clients} clients");
        let equipment = per("equipment");
        let expected = if index == 0 { 270..=330 } else { 130..=170 };
        assert!(expected.contains(&equipment), "{equipment} equipment");
        let invoices = per("invoices");
        assert!((180..=230).contains(&invoices), "{invoices} invoices");
        for table in [
            "buildings",
            "visits",
            "calls",
            "quotes",
            "surveys",
            "deals",
            "discrepancies",
        ] {
            assert!(per(table) > 0, "no {table}");
        }
    }
    let contacts_per_client = counts.contacts as f64 / counts.clients as f64;
    assert!((1.0..=3.0).contains(&contacts_per_client));
    assert_eq!(
        counts.technicians as i64,
        count(&conn, "SELECT count(*) FROM technicians")
    );
    assert_eq!(
        counts.clients as i64,
        count(&conn, "SELECT count(*) FROM clients")
    );
    assert_eq!(
        counts.contacts as i64,
        count(&conn, "SELECT count(*) FROM contacts")
    );
    assert_eq!(
        counts.buildings as i64,
        count(&conn, "SELECT count(*) FROM buildings")
    );
    assert_eq!(
        counts.equipment as i64,
        count(&conn, "SELECT count(*) FROM equipment")
    );
    assert_eq!(
        counts.visits as i64,
        count(&conn, "SELECT count(*) FROM visits")
    );
    assert_eq!(
        counts.calls as i64,
        count(&conn, "SELECT count(*) FROM calls")
    );
    assert_eq!(
        counts.quotes as i64,
        count(&conn, "SELECT count(*) FROM quotes")
    );
    assert_eq!(
        counts.invoices as i64,
        count(
            &conn,
            "SELECT count(*) FROM invoices WHERE nature = 'facture'"
        )
    );
    assert_eq!(
        counts.credit_notes as i64,
        count(
            &conn,
            "SELECT count(*) FROM invoices WHERE nature = 'avoir'"
        )
    );
    assert_eq!(
        counts.surveys as i64,
        count(&conn, "SELECT count(*) FROM surveys")
    );
    assert_eq!(
        counts.deals as i64,
        count(&conn, "SELECT count(*) FROM deals")
    );
    assert_eq!(
        counts.equipment_values as i64,
        count(&conn, "SELECT count(*) FROM equipment_values")
    );
    assert_eq!(count(&conn, "SELECT count(*) FROM outbox_events"), 0);
    // Every knowledge level: almost nothing, partial, complete.
    let per_equipment = strings(
        &conn,
        "SELECT CAST(count(v.field_code) AS TEXT) FROM equipment e
         LEFT JOIN equipment_values v ON v.equipment_id = e.id GROUP BY e.id",
    );
    let known: Vec<i64> = per_equipment
        .iter()
        .map(|n| n.parse().expect("number"))
        .collect();
    assert!(known.iter().any(|n| *n <= 2));
    assert!(known.iter().any(|n| (8..=20).contains(n)));
    assert!(known.iter().any(|n| *n >= 30));
}

#[test]
fn every_status_and_type_is_present() {
    let (conn, _) = seeded(1);
    let present = |sql: &str| strings(&conn, sql);
    let expect_all = |sql: &str, wanted: &[&str]| {
        let got = present(sql);
        for value in wanted {
            assert!(
                got.iter().any(|g| g == value),
                "{value} missing from {sql}: {got:?}"
            );
        }
    };
    for agency in test_agencies() {
        let id = &agency.id;
        expect_all(
            &format!("SELECT DISTINCT type FROM equipment WHERE agency_id = '{id}'"),
            &[
                "ascenseur",
                "monte_charge",
                "monte_voiture",
                "elevateur",
                "porte_fermeture",
            ],
        );
        expect_all(
            &format!("SELECT DISTINCT status FROM calls WHERE agency_id = '{id}'"),
            &["ouverte", "en_route", "sur_place", "a_l_arret", "resolue"],
        );
        expect_all(
            &format!("SELECT DISTINCT status FROM quotes WHERE agency_id = '{id}'"),
            &["brouillon", "envoye", "accepte", "refuse"],
        );
        expect_all(
            &format!(
                "SELECT DISTINCT status FROM invoices WHERE agency_id = '{id}' AND nature = 'facture'"
            ),
            &["brouillon", "emise", "envoyee", "payee"],
        );
        expect_all(
            &format!("SELECT DISTINCT nature FROM invoices WHERE agency_id = '{id}'"),
            &["facture", "avoir"],
        );
        expect_all(
            &format!("SELECT DISTINCT status FROM surveys WHERE agency_id = '{id}'"),
            &["a_realiser", "en_cours", "termine", "annule"],
        );
        expect_all(
            &format!("SELECT DISTINCT status FROM visits WHERE agency_id = '{id}'"),
            &["planifiee", "en_cours", "faite"],
        );
        expect_all(
            &format!("SELECT DISTINCT category FROM deals WHERE agency_id = '{id}'"),
            &[
                "Ouverte",
                "En attente",
                "En retard",
                "Gagnée",
                "Perdue",
                "Annulée",
                "Fermée",
            ],
        );
        expect_all(
            &format!("SELECT DISTINCT statut FROM clients WHERE agency_id = '{id}'"),
            &["Client", "Prospect"],
        );
    }
    expect_all(
        "SELECT DISTINCT type FROM calls",
        &["personne_bloquee", "panne", "vandalisme", "bruit"],
    );
    expect_all(
        "SELECT DISTINCT maintenance_contract FROM equipment WHERE maintenance_contract IS NOT NULL",
        &["parc", "hors_parc"],
    );
    expect_all(
        "SELECT DISTINCT origin FROM quotes",
        &["reserve", "panne", "technicien", "client"],
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM equipment WHERE maintenance_contract IS NULL"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM equipment WHERE external_id IS NOT NULL"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM equipment WHERE visit_interval_days = 30"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM deals WHERE external_opportunity_id IS NOT NULL"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM deals WHERE type_affaire IS NOT NULL"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM deals WHERE types_etat_des_lieux <> '[]'"
        ) > 0
    );
    assert!(count(&conn, "SELECT count(*) FROM survey_deals") > 0);
    assert!(count(&conn, "SELECT count(*) FROM survey_values") > 0);
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM calls WHERE call_center_id IS NULL"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM invoices WHERE quote_id IS NOT NULL"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM quote_rows WHERE vat_rate_bp = 1000"
        ) > 0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM quote_rows WHERE vat_rate_bp = 2000"
        ) > 0
    );
    // Survey data exists only where a survey started.
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM survey_values v JOIN surveys s ON s.id = v.survey_id
             WHERE s.status NOT IN ('termine', 'en_cours')"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM discrepancies
             WHERE component IS NOT NULL AND component NOT IN ('car_door', 'machine')"
        ),
        0
    );
}

#[test]
fn siren_and_siret_are_valid() {
    let (conn, _) = seeded(1);
    let mut stmt = conn
        .prepare("SELECT siren, siret FROM clients")
        .expect("select");
    let rows: Vec<(Option<String>, Option<String>)> = stmt
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    let mut with_siren = 0;
    for (siren, siret) in rows {
        match (siren, siret) {
            (Some(siren), Some(siret)) => {
                with_siren += 1;
                assert_eq!(siren.len(), 9);
                assert_eq!(siret.len(), 14);
                assert!(luhn_valid(&siren), "SIREN {siren}");
                assert!(luhn_valid(&siret), "SIRET {siret}");
                assert!(
                    siret.starts_with(&siren),
                    "{siret} does not start with {siren}"
                );
            }
            (None, None) => {}
            other => panic!("SIREN without SIRET or the reverse: {other:?}"),
        }
    }
    assert!(with_siren > 50);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM (SELECT agency_id, siren FROM clients WHERE siren IS NOT NULL
             GROUP BY 1, 2 HAVING count(*) > 1)"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM clients WHERE client_ref NOT GLOB 'CLI-[0-9][0-9][0-9][0-9][0-9][0-9]'"
        ),
        0
    );
}

#[test]
fn invoice_numbering_is_gapless_and_counters_match() {
    let (conn, _) = seeded(1);
    let mut stmt = conn
        .prepare(
            "SELECT agency_id, nature, status, number, number_year, number_seq, issued_on, due_on, paid_on
             FROM invoices ORDER BY agency_id, nature, number_year, number_seq",
        )
        .expect("select");
    type Row = (
        String,
        String,
        String,
        Option<String>,
        Option<i64>,
        Option<i64>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
            ))
        })
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    let mut last: BTreeMap<(String, String, i64), (i64, String)> = BTreeMap::new();
    let parse = |text: &str| NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("day");
    for (agency, nature, status, number, year, seq, issued, due, paid) in rows {
        let Some(number) = number else {
            assert_eq!(status, "brouillon");
            assert!(issued.is_none() && year.is_none() && seq.is_none());
            continue;
        };
        assert_ne!(status, "brouillon");
        let (year, seq) = (year.expect("year"), seq.expect("seq"));
        let issued = issued.expect("issued_on");
        let prefix = if nature == "facture" { "FA" } else { "AV" };
        let series = test_agencies()
            .into_iter()
            .find(|a| a.id == agency)
            .and_then(|a| a.invoice_series)
            .expect("each demo agency numbers in its series");
        assert_eq!(number, format!("{prefix}-{series}-{year}-{seq:06}"));
        assert_eq!(issued[..4].parse::<i64>().expect("year"), year);
        let key = (agency.clone(), nature.clone(), year);
        let (previous_seq, previous_issued) = last.get(&key).cloned().unwrap_or((0, String::new()));
        assert_eq!(seq, previous_seq + 1, "gap before {number} of {agency}");
        assert!(
            issued >= previous_issued,
            "{number} issued before its predecessor"
        );
        assert_eq!(
            parse(&due.expect("due_on")),
            parse(&issued) + Duration::days(30)
        );
        match (status.as_str(), paid) {
            ("payee", Some(paid)) => {
                assert!(paid >= issued && parse(&paid) <= fixed_now().date_naive())
            }
            ("payee", None) => panic!("{number} paid without date"),
            (_, Some(_)) => panic!("{number} has a payment date but is {status}"),
            _ => {}
        }
        last.insert(key, (seq, issued));
    }
    let mut counters = conn
        .prepare("SELECT agency_id, nature, year, last_seq FROM invoice_counters")
        .expect("select");
    let counters: BTreeMap<(String, String, i64), i64> = counters
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get(3)?)))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    let expected: BTreeMap<(String, String, i64), i64> =
        last.into_iter().map(|(key, (seq, _))| (key, seq)).collect();
    assert_eq!(counters, expected);
    assert!(counters.keys().any(|(_, nature, _)| nature == "avoir"));
    assert!(
        counters
            .keys()
            .map(|(_, _, year)| *year)
            .collect::<HashSet<_>>()
            .len()
            >= 2
    );
}

#[test]
fn invoice_totals_equal_their_lines() {
    let (conn, _) = seeded(1);
    let mut stmt = conn
        .prepare(
            "SELECT i.id, i.total_excl_cents, i.total_incl_cents, l.quantity_milli, l.unit_price_cents, l.vat_rate_bp
             FROM invoices i JOIN invoice_lines l ON l.invoice_id = i.id ORDER BY i.id, l.position",
        )
        .expect("select");
    let rows: Vec<(String, i64, i64, i64, i64, i64)> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    // Independent computation in floating point, rounded half away from zero.
    let mut per_invoice: BTreeMap<String, (i64, i64, BTreeMap<i64, i64>)> = BTreeMap::new();
    for (id, excl, incl, quantity, price, rate) in rows {
        let entry = per_invoice
            .entry(id)
            .or_insert((excl, incl, BTreeMap::new()));
        let line = (quantity as f64 * price as f64 / 1000.0).round() as i64;
        *entry.2.entry(rate).or_insert(0) += line;
    }
    assert_eq!(
        per_invoice.len() as i64,
        count(&conn, "SELECT count(*) FROM invoices"),
        "an invoice without lines"
    );
    let mut mixed_rates = 0;
    for (id, (excl, incl, bases)) in per_invoice {
        let sum: i64 = bases.values().sum();
        let vat: i64 = bases
            .iter()
            .map(|(rate, base)| (*base as f64 * *rate as f64 / 10_000.0).round() as i64)
            .sum();
        assert_eq!(excl, sum, "excl of {id}");
        assert_eq!(incl, sum + vat, "incl of {id}");
        if bases.len() > 1 {
            mixed_rates += 1;
        }
    }
    assert!(mixed_rates > 0, "no invoice mixes VAT rates");
}

#[test]
fn credit_notes_cancel_an_issued_invoice_of_the_same_client() {
    let (conn, _) = seeded(1);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM invoices a LEFT JOIN invoices f ON f.id = a.credited_invoice_id
             WHERE a.nature = 'avoir' AND (f.id IS NULL OR f.nature <> 'facture' OR f.number IS NULL
                OR f.agency_id <> a.agency_id OR f.client_id <> a.client_id
                OR a.total_excl_cents > f.total_excl_cents OR a.total_incl_cents > f.total_incl_cents
                OR a.total_excl_cents <= 0
                OR (a.issued_on IS NOT NULL AND a.issued_on < f.issued_on))"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM invoices WHERE nature = 'facture' AND credited_invoice_id IS NOT NULL"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM invoices i JOIN clients c ON c.id = i.client_id
             WHERE i.buyer_name IS NOT c.nom OR i.buyer_siren IS NOT c.siren OR c.statut <> 'Client'
                OR i.created_on <> substr(i.created_at, 1, 10) OR i.updated_at < i.created_at
                OR (i.issued_on IS NOT NULL AND i.created_on > i.issued_on)"
        ),
        0
    );
}

#[test]
fn the_maintenance_plan_is_coherent_and_has_overdue_visits() {
    let (conn, _) = seeded(1);
    let today = fixed_now().date_naive();
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM visits WHERE status = 'planifiee' AND planned_for > deadline"
        ) > 0,
        "no overdue visit"
    );
    // Weekdays only.
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM visits WHERE strftime('%w', planned_for) IN ('0', '6')"
        ),
        0
    );
    let day_text = day(today);
    let today_text = std::str::from_utf8(&day_text.0).expect("utf8");
    let statuses_by_day = count(
        &conn,
        &format!(
            "SELECT count(*) FROM visits WHERE
               (status = 'faite' AND (planned_for >= '{today_text}' OR done_on IS NOT planned_for OR arrived_at IS NULL
                    OR left_at <= arrived_at OR signed_by IS NULL OR observations IS NULL OR technician_id IS NULL))
            OR (status = 'en_cours' AND (planned_for <> '{today_text}' OR arrived_at IS NULL OR left_at IS NOT NULL
                    OR done_on IS NOT NULL OR arrived_at > '2026-03-11T10:30:00.000Z'))
            OR (status = 'planifiee' AND (planned_for < '{today_text}' OR arrived_at IS NOT NULL OR done_on IS NOT NULL))
            OR planned_for > '2026-04-10' OR planned_for < '2026-01-01' OR deadline IS NULL"
        ),
    );
    assert_eq!(statuses_by_day, 0);
    // Deadline of a visit = previous done visit + interval.
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM visits v JOIN equipment e ON e.id = v.equipment_id
             JOIN visits p ON p.equipment_id = v.equipment_id AND p.status = 'faite'
               AND p.planned_for = (SELECT max(planned_for) FROM visits q
                                    WHERE q.equipment_id = v.equipment_id AND q.planned_for < v.planned_for)
             WHERE date(p.done_on, '+' || e.visit_interval_days || ' days') <> v.deadline"
        ),
        0
    );
    // Only equipment under contract is in the plan, nobody works while on leave.
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM visits v JOIN equipment e ON e.id = v.equipment_id
             WHERE e.maintenance_contract IS NOT 'parc' OR e.plan_start_on > v.planned_for"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM visits v JOIN technician_absences a ON a.technician_id = v.technician_id
             WHERE v.planned_for BETWEEN a.starts_on AND a.ends_on AND v.status <> 'faite'"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM visits v JOIN technicians t ON t.id = v.technician_id
             WHERE t.agency_id <> v.agency_id OR t.active = 0"
        ),
        0
    );
}

#[test]
fn technicians_have_sectors_a_rota_and_absences() {
    let (conn, _) = seeded(1);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM technicians WHERE sectors IS NULL OR sectors NOT LIKE '%,%'"
        ),
        0
    );
    let now = "2026-03-11T10:30:00.000Z";
    for agency in test_agencies() {
        let periods = strings(
            &conn,
            &format!(
                "SELECT o.starts_at || '/' || o.ends_at FROM technician_on_call o
                 JOIN technicians t ON t.id = o.technician_id
                 WHERE t.agency_id = '{}' ORDER BY o.starts_at",
                agency.id
            ),
        );
        assert!(periods.len() >= 12);
        let mut previous_end: Option<String> = None;
        let mut covers_now = false;
        for period in &periods {
            let (start, end) = period.split_once('/').expect("period");
            let starts = DateTime::parse_from_rfc3339(start).expect("start");
            let ends = DateTime::parse_from_rfc3339(end).expect("end");
            let local = liftdesk_domain::time::paris_local(starts.with_timezone(&Utc));
            assert_eq!(local.weekday(), Weekday::Mon);
            assert_eq!(local.time().to_string(), "08:00:00");
            let length = ends - starts;
            assert!(
                (Duration::weeks(1) - Duration::hours(1)..=Duration::weeks(1) + Duration::hours(1))
                    .contains(&length),
                "{period}"
            );
            if let Some(previous) = &previous_end {
                assert_eq!(previous, start, "rota gap");
            }
            covers_now |= start <= now && now < end;
            previous_end = Some(end.to_owned());
        }
        assert!(covers_now);
        let absences = |condition: &str| {
            conn.query_row(
                &format!(
                    "SELECT count(*) FROM technician_absences a JOIN technicians t ON t.id = a.technician_id
                     WHERE t.agency_id = ?1 AND {condition}"
                ),
                [&agency.id],
                |row| row.get::<_, i64>(0),
            )
            .expect("absences")
        };
        assert!(absences("a.starts_on <= '2026-03-11' AND a.ends_on >= '2026-03-11'") >= 1);
        assert!(absences("a.starts_on > '2026-03-11'") >= 1);
        // Nobody on call while on leave.
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM technician_on_call o JOIN technician_absences a
                   ON a.technician_id = o.technician_id
                 WHERE a.starts_on <= substr(o.ends_at, 1, 10) AND substr(o.starts_at, 1, 10) <= a.ends_on"
            ),
            0
        );
    }
}

#[test]
fn call_timestamps_follow_their_status() {
    let (conn, _) = seeded(1);
    let incoherent = count(
        &conn,
        "SELECT count(*) FROM calls WHERE
            (status = 'ouverte' AND (technician_id IS NOT NULL OR assigned_at IS NOT NULL OR en_route_at IS NOT NULL
                OR arrived_at IS NOT NULL OR stopped_at IS NOT NULL OR resolved_at IS NOT NULL))
         OR (status <> 'ouverte' AND (technician_id IS NULL OR assigned_at IS NULL OR en_route_at IS NULL
                OR assigned_at < received_at OR en_route_at < assigned_at))
         OR (status = 'en_route' AND (arrived_at IS NOT NULL OR stopped_at IS NOT NULL OR resolved_at IS NOT NULL))
         OR (status IN ('sur_place', 'a_l_arret', 'resolue') AND (arrived_at IS NULL OR arrived_at < en_route_at))
         OR (status = 'sur_place' AND (stopped_at IS NOT NULL OR resolved_at IS NOT NULL))
         OR (status = 'a_l_arret' AND (stopped_at IS NULL OR stopped_at < arrived_at OR resolved_at IS NOT NULL))
         OR (status = 'resolue' AND (resolved_at IS NULL OR resolved_at < arrived_at
                OR (stopped_at IS NOT NULL AND resolved_at < stopped_at)))
         OR max(received_at, created_at, updated_at, coalesce(resolved_at, ''), coalesce(stopped_at, ''))
                > '2026-03-11T10:30:00.000Z'",
    );
    assert_eq!(incoherent, 0);
    // Center calls come from a center of the call's agency, with its key.
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM calls c JOIN call_centers cc ON cc.id = c.call_center_id
             LEFT JOIN credentials k ON k.id = c.credential_id
             WHERE cc.agency_id <> c.agency_id OR k.call_center_id IS NOT c.call_center_id
                OR c.reference NOT GLOB 'CC-20[0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]'"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM calls c JOIN agencies a ON a.id = c.agency_id
             WHERE c.call_center_id IS NOT NULL AND a.id <> '0190a000-0000-7000-8000-000000000001'"
        ),
        0
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM calls WHERE call_center_id IS NOT NULL"
        ) > 20
    );
    assert!(
        count(
            &conn,
            "SELECT count(*) FROM calls WHERE type = 'personne_bloquee'"
        ) >= 2
    );
}

#[test]
fn technical_values_respect_the_catalog() {
    let (conn, _) = seeded(1);
    let catalog: BTreeMap<String, Field> = {
        let tx_conn = &conn;
        let mut stmt = tx_conn
            .prepare("SELECT code, value_type, choices, applies_to FROM technical_fields")
            .expect("catalog");
        stmt.query_map([], |r| {
            let code: String = r.get(0)?;
            let value_type: String = r.get(1)?;
            let choices: Option<String> = r.get(2)?;
            let applies: Option<String> = r.get(3)?;
            Ok((code, value_type, choices, applies))
        })
        .expect("query")
        .map(|row| {
            let (code, value_type, choices, applies) = row.expect("row");
            let field = Field {
                code: code.clone(),
                value_type: match value_type.as_str() {
                    "text" => ValueType::Text,
                    "number" => ValueType::Number,
                    "integer" => ValueType::Integer,
                    "boolean" => ValueType::Boolean,
                    "choice" => ValueType::Choice,
                    _ => ValueType::Multi,
                },
                choices: choices
                    .map(|c| serde_json::from_str(&c).expect("choices"))
                    .unwrap_or_default(),
                applies_to: applies.map(|a| a.split(',').map(str::to_owned).collect()),
                partner: false,
            };
            (code, field)
        })
        .collect()
    };
    let mut stmt = conn
        .prepare(
            "SELECT v.field_code, v.value, e.type FROM equipment_values v JOIN equipment e ON e.id = v.equipment_id
             UNION ALL
             SELECT v.field_code, v.value, e.type FROM survey_values v
             JOIN surveys s ON s.id = v.survey_id JOIN equipment e ON e.id = s.equipment_id",
        )
        .expect("values");
    let rows: Vec<(String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    assert!(rows.len() > 3_000);
    for (code, text, eq_type) in rows {
        let field = &catalog[&code];
        if let Some(types) = &field.applies_to {
            assert!(
                types.contains(&eq_type),
                "{code} does not apply to {eq_type}"
            );
        }
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON value");
        let valid = match field.value_type {
            ValueType::Text => value.is_string(),
            ValueType::Number => value.is_number(),
            ValueType::Integer => value.is_i64(),
            ValueType::Boolean => value.is_boolean(),
            ValueType::Choice => value
                .as_str()
                .is_some_and(|v| field.choices.iter().any(|c| c == v)),
            ValueType::Multi => value.as_array().is_some_and(|items| {
                items.iter().all(|i| {
                    i.as_str()
                        .is_some_and(|v| field.choices.iter().any(|c| c == v))
                })
            }),
        };
        assert!(valid, "{code} = {text}");
    }
    // A finished survey's data is the equipment's current data.
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM survey_values sv JOIN surveys s ON s.id = sv.survey_id
             LEFT JOIN equipment_values ev ON ev.equipment_id = s.equipment_id AND ev.field_code = sv.field_code
             WHERE s.status = 'termine' AND (ev.value IS NOT sv.value OR ev.survey_id IS NOT s.id)"
        ),
        0
    );
}

#[test]
fn foreign_keys_and_integrity_hold() {
    let (conn, _) = seeded(3);
    assert_eq!(
        count(&conn, "SELECT count(*) FROM pragma_foreign_key_check"),
        0
    );
    assert_eq!(
        strings(&conn, "PRAGMA integrity_check"),
        vec!["ok".to_owned()]
    );
    // Timestamps and days follow the schema's text formats.
    for (table, column) in [
        ("clients", "created_at"),
        ("equipment", "updated_at"),
        ("visits", "created_at"),
        ("calls", "received_at"),
        ("invoices", "updated_at"),
    ] {
        assert_eq!(
            count(
                &conn,
                &format!(
                    "SELECT count(*) FROM {table} WHERE {column} NOT GLOB
                     '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'
                     OR {column} > '2026-03-11T10:30:00.000Z'"
                )
            ),
            0,
            "{table}.{column}"
        );
    }
}
