//! The demo organization: credentials that work, realistic counts, every
//! status present, valid SIREN/SIRET, gapless invoice numbers.

use crate::common;

use std::collections::BTreeSet;

use common::*;
use liftdesk::domain::siren::{siret_matches_siren, validate_siren, validate_siret};
use serde_json::Value;

fn count(conn: &common::db::TestDb, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

fn distinct(conn: &common::db::TestDb, sql: &str) -> BTreeSet<String> {
    let mut stmt = conn.prepare(sql).expect("prepare");
    stmt.query_map([], |r| r.get::<String>(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
}

fn set(values: &[&str]) -> BTreeSet<String> {
    values.iter().map(|v| (*v).to_owned()).collect()
}

#[tokio::test]
async fn demo_prints_working_credentials_and_seeds_a_realistic_agency() {
    let dir = tempfile::tempdir().expect("dir");
    let creds = cli_json(dir.path(), &["demo", "--size", "small", "--seed", "7"]);

    // The credentials JSON, exactly.
    let mut keys: Vec<&str> = creds
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "admin",
            "agencies",
            "callCenterKeys",
            "member",
            "organizationId",
            "partnerKey"
        ]
    );
    assert_eq!(creds["agencies"].as_array().map(Vec::len), Some(2));
    for who in ["admin", "member"] {
        let mut login: Vec<&str> = creds[who]
            .as_object()
            .expect("login")
            .keys()
            .map(String::as_str)
            .collect();
        login.sort_unstable();
        assert_eq!(login, ["apiToken", "email", "password"]);
        assert!(str_of(&creds[who], "apiToken").starts_with("svc_agent_"));
    }
    let keys = creds["callCenterKeys"].as_array().expect("keys");
    assert_eq!(keys.len(), 2);
    assert!(keys.iter().all(|k| {
        k.as_str()
            .is_some_and(|k| k.starts_with("svc_") && k.len() == 36)
    }));
    assert!(str_of(&creds, "partnerKey").starts_with("svc_partner_"));

    // The tokens work, with the documented scopes.
    let server = TestServer::start_in(dir).await;
    let first_agency = creds["agencies"][0].clone();
    let (status, admin) = server
        .get_with(
            "/api/v2/me",
            Some(str_of(&creds["admin"], "apiToken")),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(admin["agencies"].as_array().map(Vec::len), Some(2));
    let (status, member) = server
        .get_with(
            "/api/v2/me",
            Some(str_of(&creds["member"], "apiToken")),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(member["agencies"], Value::Array(vec![first_agency.clone()]));
    assert_eq!(member["agency"], first_agency);

    let conn = open_db(server.data_dir.path());
    // Two call centers on the first agency; a partner key on both agencies.
    assert_eq!(
        count(
            &conn,
            &format!(
                "SELECT COUNT(*) FROM call_centers WHERE agency_id = '{}'",
                first_agency["id"].as_str().unwrap_or_default()
            )
        ),
        2
    );
    assert_eq!(count(&conn, "SELECT COUNT(*) FROM partner_key_agencies"), 2);

    // What a real small agency has.
    let equipment = count(&conn, "SELECT COUNT(*) FROM equipment");
    assert!((200..=1000).contains(&equipment), "equipment: {equipment}");
    assert!(count(&conn, "SELECT COUNT(*) FROM technicians") >= 6);
    assert!(count(&conn, "SELECT COUNT(*) FROM clients") >= 40);
    assert!(count(&conn, "SELECT COUNT(*) FROM contacts") >= 40);
    assert!(count(&conn, "SELECT COUNT(*) FROM buildings") >= 40);
    assert!(count(&conn, "SELECT COUNT(*) FROM technician_on_call") > 0);
    assert!(count(&conn, "SELECT COUNT(*) FROM technician_absences") > 0);
    assert!(count(&conn, "SELECT COUNT(*) FROM equipment_values") > 0);
    assert!(count(&conn, "SELECT COUNT(*) FROM discrepancies") > 0);

    // Every status and type is present.
    assert_eq!(
        distinct(&conn, "SELECT DISTINCT status FROM calls"),
        set(&["a_l_arret", "en_route", "ouverte", "resolue", "sur_place"])
    );
    assert_eq!(
        distinct(&conn, "SELECT DISTINCT type FROM calls"),
        set(&["bruit", "panne", "personne_bloquee", "vandalisme"])
    );
    assert_eq!(
        distinct(&conn, "SELECT DISTINCT status FROM quotes"),
        set(&["accepte", "brouillon", "envoye", "refuse"])
    );
    assert_eq!(
        distinct(
            &conn,
            "SELECT DISTINCT status FROM invoices WHERE nature = 'facture'"
        ),
        set(&["brouillon", "emise", "envoyee", "payee"])
    );
    assert!(
        count(
            &conn,
            "SELECT COUNT(*) FROM invoices WHERE nature = 'avoir' AND credited_invoice_id IS NOT NULL"
        ) > 0
    );
    // Visits done and planned (one in progress only on a working day: none on a weekend).
    let visit_statuses = distinct(&conn, "SELECT DISTINCT status FROM visits");
    assert!(
        visit_statuses.is_superset(&set(&["faite", "planifiee"])),
        "{visit_statuses:?}"
    );
    assert_eq!(
        distinct(&conn, "SELECT DISTINCT status FROM surveys"),
        set(&["a_realiser", "annule", "en_cours", "termine"])
    );
    let types = distinct(&conn, "SELECT DISTINCT type FROM equipment");
    for t in [
        "ascenseur",
        "monte_charge",
        "monte_voiture",
        "elevateur",
        "porte_fermeture",
    ] {
        assert!(types.contains(t), "equipment type {t} missing");
    }
    // Some planned visits are overdue (planned after their deadline).
    assert!(
        count(
            &conn,
            "SELECT COUNT(*) FROM visits WHERE status = 'planifiee' AND planned_for > deadline"
        ) > 0
    );
    // Knowledge rates vary: some equipment has none surveyed, some many.
    let per_equipment = count(
        &conn,
        "SELECT COUNT(DISTINCT n) FROM (SELECT COUNT(v.field_code) AS n FROM equipment e LEFT JOIN equipment_values v ON v.equipment_id = e.id GROUP BY e.id)",
    );
    assert!(per_equipment >= 5, "knowledge rates should vary");

    // SIREN/SIRET valid (9/14 digits and Luhn), the SIRET within its SIREN.
    let mut sirens = conn
        .prepare("SELECT siren, siret FROM clients WHERE siren IS NOT NULL")
        .expect("prepare");
    let pairs: Vec<(String, Option<String>)> = sirens
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert!(pairs.len() >= 40);
    for (siren, siret) in &pairs {
        validate_siren(siren).unwrap_or_else(|e| panic!("{siren}: {e}"));
        if let Some(siret) = siret {
            validate_siret(siret).unwrap_or_else(|e| panic!("{siret}: {e}"));
            assert!(
                siret_matches_siren(siret, siren),
                "{siret} is not an establishment of {siren}"
            );
        }
    }

    // The agencies' legal identity (the seller on the PDF documents): a valid
    // SIRET each, establishments of one company, and an address; every
    // mention an invoice should carry is filled in.
    let sellers: Vec<(Option<String>, Option<String>)> = conn
        .prepare(
            "SELECT i.siret, i.postal_code || ' ' || i.city FROM agencies a JOIN agency_identities i ON i.id = a.identity_id
             ORDER BY a.created_at, a.id",
        )
        .expect("prepare")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(sellers.len(), 2);
    for (siret, address) in &sellers {
        let siret = siret.as_deref().expect("agency SIRET");
        validate_siret(siret).unwrap_or_else(|e| panic!("{siret}: {e}"));
        assert!(siret_matches_siren(siret, &siret[..9]));
        // In its parts: « 75017 Paris ».
        assert!(
            address
                .as_deref()
                .is_some_and(|a| a.len() == 11 && a.ends_with(" Paris")),
            "{address:?}"
        );
    }
    assert_eq!(
        sellers[0].0.as_deref().map(|s| &s[..9]),
        sellers[1].0.as_deref().map(|s| &s[..9])
    );
    let incomplete: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM agencies a JOIN agency_identities i ON i.id = a.identity_id
             WHERE i.legal_form IS NULL OR i.share_capital_cents IS NULL OR i.rcs_city IS NULL
                OR i.vat_number IS NULL OR i.iban IS NULL OR i.insurer IS NULL
                OR i.insurance_policy IS NULL",
            [],
            |r| r.get(0),
        )
        .expect("mentions");
    assert_eq!(incomplete, 0);

    // Invoice numbers gapless per agency, nature and year; counters agree.
    let mut stmt = conn
        .prepare(
            "SELECT agency_id, nature, number_year, COUNT(*), MIN(number_seq), MAX(number_seq)
             FROM invoices WHERE number IS NOT NULL GROUP BY agency_id, nature, number_year",
        )
        .expect("prepare");
    let groups: Vec<(String, String, i64, i64, i64, i64)> = stmt
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
        .collect::<Result<_, _>>()
        .expect("rows");
    assert!(!groups.is_empty());
    for (agency, nature, year, n, min, max) in groups {
        assert_eq!(
            (min, max),
            (1, n),
            "gap in {nature} numbers of {agency} for {year}"
        );
        let last: i64 = conn
            .query_row(
                "SELECT last_seq FROM invoice_counters WHERE agency_id = ?1 AND nature = ?2 AND year = ?3",
                liftdesk::store::params![agency, nature, year],
                |r| r.get(0),
            )
            .expect("counter");
        assert_eq!(last, n);
    }
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM invoices WHERE status = 'brouillon' AND number IS NOT NULL"
        ),
        0
    );
    // Totals equal the sum of their lines (excluding tax).
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM invoices i WHERE total_excl_cents <> (SELECT COALESCE(SUM((quantity_milli * unit_price_cents + 500) / 1000), 0) FROM invoice_lines l WHERE l.invoice_id = i.id) AND NOT EXISTS (SELECT 1 FROM invoice_lines l WHERE l.invoice_id = i.id AND l.quantity_milli * l.unit_price_cents < 0)"
        ),
        0
    );
    assert_eq!(conn.foreign_key_violations(), 0);
    drop(stmt);
    drop(sirens);
    drop(conn);
    server.stop().await;
}

#[test]
fn the_same_seed_gives_the_same_park() {
    let a = tempfile::tempdir().expect("dir");
    let b = tempfile::tempdir().expect("dir");
    cli_json(a.path(), &["demo", "--seed", "3"]);
    cli_json(b.path(), &["demo", "--seed", "3"]);
    let numbers = |dir: &std::path::Path| -> Vec<(String, Option<String>)> {
        let conn = open_db(dir);
        let mut stmt = conn
            .prepare("SELECT e.number, e.type FROM equipment e ORDER BY e.number")
            .expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    assert_eq!(numbers(a.path()), numbers(b.path()));
    let again = run_cli(a.path(), &["demo"]);
    assert!(!again.status.success());
    assert!(stderr_of(&again).contains("déjà installée"));
}

/// The small demo's technicians, absences, standby weeks, clients,
/// contacts, buildings, equipment, calls, quotes, invoices and credit notes
/// are written through the operations, each at its own date: every
/// one has the audit entry its operation writes, at the instant the record
/// bears, in the name of Liftdesk itself.
#[test]
fn the_small_demo_is_written_through_the_operations() {
    let dir = tempfile::tempdir().expect("dir");
    cli_json(dir.path(), &["demo", "--seed", "5"]);
    let conn = open_db(dir.path());
    let entries = |action: &str| {
        count(
            &conn,
            &format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = '{action}' AND actor_kind = 'system'"
            ),
        )
    };
    let technicians = count(&conn, "SELECT COUNT(*) FROM technicians");
    assert!(technicians >= 12, "technicians: {technicians}");
    assert_eq!(entries("technicien.creation"), technicians);
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM technicians t JOIN audit_log a
               ON a.object_id = t.id AND a.action = 'technicien.creation' AND a.at = t.created_at"
        ),
        technicians
    );
    // The one who left each agency was taken off the roster after he came.
    let left = count(&conn, "SELECT COUNT(*) FROM technicians WHERE active = 0");
    assert_eq!(left, 2);
    assert_eq!(entries("technicien.desactivation"), left);
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM technicians t JOIN audit_log a
               ON a.object_id = t.id AND a.action = 'technicien.desactivation'
             WHERE t.active = 0 AND a.at > t.created_at"
        ),
        left
    );
    assert_eq!(
        entries("absence.creation"),
        count(&conn, "SELECT COUNT(*) FROM technician_absences")
    );
    let weeks = count(&conn, "SELECT COUNT(*) FROM technician_on_call");
    assert_eq!(weeks, 32);
    assert_eq!(entries("astreinte.affectation"), weeks);
    // A week was put on the rota before it began.
    assert_eq!(
        count(
            &conn,
            &format!(
                "SELECT COUNT(*) FROM technician_on_call o JOIN audit_log a
               ON a.action = 'astreinte.affectation' AND a.object_id = o.technician_id
              AND {} = o.starts_at
             WHERE a.at < o.starts_at",
                conn.json_text("a.detail", "startsAt")
            )
        ),
        weeks
    );
    let clients = count(&conn, "SELECT COUNT(*) FROM clients");
    assert_eq!(entries("client.create"), clients);
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM clients c JOIN audit_log a
               ON a.object_id = c.id AND a.action = 'client.create' AND a.at = c.created_at"
        ),
        clients
    );
    assert_eq!(
        entries("client.archive"),
        count(&conn, "SELECT COUNT(*) FROM clients WHERE supprime = 1")
    );
    // Each contact was added to its client by an update of the client.
    assert_eq!(
        entries("client.update"),
        count(&conn, "SELECT COUNT(*) FROM contacts")
    );
    // Buildings with their access instructions, equipment with their plan.
    let buildings = count(&conn, "SELECT COUNT(*) FROM buildings");
    assert!(buildings >= 40, "buildings: {buildings}");
    assert_eq!(entries("immeuble.creation"), buildings);
    assert_eq!(entries("immeuble.acces"), buildings);
    assert!(
        count(
            &conn,
            "SELECT COUNT(*) FROM buildings WHERE digicode IS NOT NULL"
        ) > 0
    );
    let equipment = count(&conn, "SELECT COUNT(*) FROM equipment");
    assert_eq!(entries("equipement.creation"), equipment);
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM equipment e JOIN audit_log a
               ON a.object_id = e.id AND a.action = 'equipement.creation' AND a.at = e.created_at"
        ),
        equipment
    );
    // The plan's first day is the last one set (the contract's start, then
    // the last visit before the demo's history).
    assert_eq!(
        count(
            &conn,
            &format!(
                "SELECT COUNT(*) FROM equipment e
             WHERE e.plan_start_on = (SELECT {} FROM audit_log a
                                      WHERE a.object_id = e.id AND a.action = 'debut_plan'
                                      ORDER BY a.seq DESC LIMIT 1)",
                conn.json_text("a.detail", "to")
            )
        ),
        count(
            &conn,
            "SELECT COUNT(*) FROM equipment WHERE plan_start_on IS NOT NULL"
        )
    );
    // Calls opened by their center's key or by the member who took them,
    // assigned and moved by the dispatcher at the instants they bear.
    let calls = count(&conn, "SELECT COUNT(*) FROM calls");
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM calls c JOIN audit_log a
               ON a.object_id = c.id AND a.action = 'ouverture' AND a.at = c.created_at
              AND a.actor_kind = CASE WHEN c.call_center_id IS NULL THEN 'account'
                                      ELSE 'call_center_key' END"
        ),
        calls
    );
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM calls c JOIN audit_log a
               ON a.object_id = c.id AND a.action = 'affectation' AND a.at = c.assigned_at"
        ),
        count(
            &conn,
            "SELECT COUNT(*) FROM calls WHERE assigned_at IS NOT NULL"
        )
    );
    let resolved = count(&conn, "SELECT COUNT(*) FROM calls WHERE status = 'resolue'");
    assert!(resolved > 40, "resolved calls: {resolved}");
    assert_eq!(
        count(
            &conn,
            &format!(
                "SELECT COUNT(*) FROM calls c JOIN audit_log a
               ON a.object_id = c.id AND a.action = 'changement_statut' AND a.at = c.resolved_at
              AND {} = 'resolue'",
                conn.json_text("a.detail", "to")
            )
        ),
        resolved
    );
    // Quotes written by their author, sent and answered at their dates.
    let quotes = count(&conn, "SELECT COUNT(*) FROM quotes");
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM quotes q JOIN audit_log a
               ON a.object_id = q.id AND a.object_type = 'quote' AND a.action = 'creation'
              AND a.at = q.created_at"
        ),
        quotes
    );
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM quotes q JOIN audit_log a
               ON a.object_id = q.id AND a.action = 'acceptation' AND a.at = q.accepted_at"
        ),
        count(
            &conn,
            "SELECT COUNT(*) FROM quotes WHERE status = 'accepte'"
        )
    );
    // Invoices and credit notes drafted, issued with their number, sent
    // and paid by their operations.
    let document_entries = |action: &str| {
        count(
            &conn,
            &format!(
                "SELECT COUNT(*) FROM audit_log WHERE object_type = 'invoice' AND action = '{action}'"
            ),
        )
    };
    assert_eq!(
        document_entries("creation"),
        count(&conn, "SELECT COUNT(*) FROM invoices")
    );
    assert_eq!(
        document_entries("emission"),
        count(
            &conn,
            "SELECT COUNT(*) FROM invoices WHERE number IS NOT NULL"
        )
    );
    assert_eq!(
        count(
            &conn,
            &format!(
                "SELECT COUNT(*) FROM invoices i JOIN audit_log a
               ON a.object_id = i.id AND a.action IN ('reglement', 'solde')
              AND {} = i.paid_on
              AND COALESCE(CAST({} AS TEXT), '1') IN ('1', 'true')",
                conn.json_text("a.detail", "paidOn"),
                conn.json_text("a.detail", "settled")
            )
        ),
        count(
            &conn,
            "SELECT COUNT(*) FROM invoices WHERE status = 'payee'"
        )
    );
    // What happened in the demo's past reached no one: no event is queued.
    assert_eq!(count(&conn, "SELECT COUNT(*) FROM outbox_events"), 0);
    let monthly = count(
        &conn,
        "SELECT COUNT(*) FROM equipment WHERE visit_interval_days = 30",
    );
    assert!(monthly > 0);
    assert_eq!(entries("intervalle_visites"), monthly);

    // Surveys: each asked for by the partner's key at its creation, through
    // a deal or the app, by the demo's surveyor.
    let by = |sql: &str| count(&conn, sql);
    let surveys = by("SELECT COUNT(*) FROM surveys");
    assert!(surveys >= 20, "surveys: {surveys}");
    assert_eq!(
        by("SELECT COUNT(*) FROM surveys s JOIN audit_log a
              ON a.action = 'survey.create' AND a.object_id = s.id AND a.at = s.created_at
             AND a.actor_kind = 'partner_key'")
            + by(&format!(
                "SELECT COUNT(*) FROM surveys s WHERE EXISTS (
                    SELECT 1 FROM audit_log a, {} j
                    WHERE a.action IN ('deal.create', 'deal.add_surveys')
                      AND a.actor_kind = 'partner_key' AND j.value = s.id AND a.at = s.created_at)",
                conn.json_values("a.detail", "surveys")
            )),
        surveys
    );
    assert_eq!(
        by(
            "SELECT COUNT(*) FROM surveys s JOIN accounts a ON a.id = s.surveyor_account_id
             WHERE a.performs_surveys = 1"
        ),
        surveys
    );
    // Each one submitted was submitted by its surveyor at its submission
    // instant, its data copied to its equipment then.
    let submitted = by("SELECT COUNT(*) FROM surveys WHERE status = 'termine'");
    assert!(submitted > 0);
    assert_eq!(
        by("SELECT COUNT(*) FROM surveys s JOIN audit_log a
              ON a.action = 'soumission' AND a.object_id = s.id AND a.at = s.submitted_at
             AND a.actor_kind = 'account' AND a.actor_id = s.surveyor_account_id"),
        submitted
    );
    assert_eq!(
        by(
            "SELECT COUNT(*) FROM equipment_values v JOIN surveys s ON s.id = v.survey_id
             WHERE v.surveyed_at <> s.submitted_at OR s.status <> 'termine'"
        ),
        0
    );
    // Each cancelled one says why; each discrepancy was reported by its
    // survey's surveyor.
    assert_eq!(
        by(&format!(
            "SELECT COUNT(*) FROM surveys s JOIN audit_log a
              ON a.action = 'annulation' AND a.object_id = s.id AND a.at = s.updated_at
             WHERE {} LIKE 'Annulé : %'",
            conn.json_text("a.detail", "reason")
        )),
        by("SELECT COUNT(*) FROM surveys WHERE status = 'annule'")
    );
    assert_eq!(
        by("SELECT COUNT(*) FROM discrepancies d JOIN audit_log a
              ON a.object_type = 'discrepancy' AND a.object_id = d.id AND a.at = d.created_at
             JOIN surveys s ON s.id = d.survey_id AND s.surveyor_account_id = d.created_by"),
        by("SELECT COUNT(*) FROM discrepancies")
    );
    // A deal asked for surveys, then moved to its category once its last
    // survey changed; only the commercial deals without survey were
    // brought along (no audit entry).
    assert_eq!(
        by("SELECT COUNT(*) FROM deals d JOIN audit_log a
              ON a.action = 'deal.category' AND a.object_id = d.id AND a.at = d.updated_at
             WHERE a.at >= (SELECT MAX(s.updated_at) FROM survey_deals sd
                            JOIN surveys s ON s.id = sd.survey_id WHERE sd.deal_id = d.id)"),
        by("SELECT COUNT(*) FROM deals d WHERE EXISTS (
              SELECT 1 FROM survey_deals sd WHERE sd.deal_id = d.id)")
    );
}

/// On a working morning, the demo has visits under way: each started by
/// its operation (`demarrage`) at the arrival it bears, after it was
/// planned; visits done were closed (`cloture`) at their departure, their
/// deadline the one their plan gives.
#[test]
fn on_a_monday_morning_the_demo_has_visits_under_way() {
    use chrono::TimeZone;
    let dir = tempfile::tempdir().expect("dir");
    let store = crate::common::open_store(dir.path());
    let monday = chrono::Utc
        .with_ymd_and_hms(2026, 3, 2, 9, 0, 0)
        .single()
        .expect("instant");
    liftdesk::demo::install(&store, liftdesk::demo::DemoSize::Small, 2, monday).expect("demo");
    drop(store);
    let conn = open_db(dir.path());
    let under_way = count(
        &conn,
        "SELECT COUNT(*) FROM visits WHERE status = 'en_cours'",
    );
    assert!(under_way >= 2, "visits under way: {under_way}");
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM visits v JOIN audit_log a
               ON a.object_id = v.id AND a.action = 'demarrage' AND a.at = v.arrived_at
             WHERE v.status = 'en_cours' AND v.arrived_at > v.created_at
               AND v.arrived_at <= '2026-03-02T09:00:00.000Z'"
        ),
        under_way
    );
    let done = count(&conn, "SELECT COUNT(*) FROM visits WHERE status = 'faite'");
    assert!(done > 100, "visits done: {done}");
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM visits v JOIN audit_log a
               ON a.object_id = v.id AND a.action = 'cloture' AND a.at = v.left_at
             WHERE v.status = 'faite' AND v.done_on = v.planned_for"
        ),
        done
    );
    assert_eq!(
        count(
            &conn,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'planification'"
        ),
        count(&conn, "SELECT COUNT(*) FROM visits")
    );
}

/// The small demo installs through the operations whatever its seed and
/// its "now": a plan that broke one of their rules (a technician resting
/// after his standby, absent, a deadline, a number) would fail it.
#[test]
fn the_small_demo_installs_on_any_seed_and_day() {
    use chrono::TimeZone;
    let instants = [
        // Monday: a standby week ends at 08:00 Paris.
        (2026, 3, 2, 6, 58),
        (2026, 3, 2, 9, 0),
        (2026, 3, 2, 17, 30),
        // Saturday, and a Sunday night.
        (2026, 11, 28, 12, 0),
        (2026, 5, 31, 23, 30),
        // New Year's Eve, UTC and Paris in different years.
        (2025, 12, 31, 23, 30),
    ];
    for seed in 1..=3u64 {
        for &(year, month, day, hour, minute) in &instants {
            let now = chrono::Utc
                .with_ymd_and_hms(year, month, day, hour, minute, 0)
                .single()
                .expect("instant");
            let dir = tempfile::tempdir().expect("dir");
            let store = crate::common::open_store(dir.path());
            if let Err(err) =
                liftdesk::demo::install(&store, liftdesk::demo::DemoSize::Small, seed, now)
            {
                panic!("seed {seed}, {now}: {err:?}");
            }
        }
    }
}

/// The park written in bulk (the path of `demo --size large`), on either
/// engine: on PostgreSQL the counters' triggers are off during the load and
/// the counts made once at its end (`store::counts`). Every count the
/// triggers keep equals a recount, and a damaged one is found by it.
#[test]
fn a_park_written_in_bulk_keeps_its_counts_exact() {
    let dir = tempfile::tempdir().expect("dir");
    let db = open_db(dir.path());
    let store = db.store();
    liftdesk::demo::install_reproducible(
        store,
        liftdesk::services::demo::DemoSize::Small,
        11,
        store.now(),
    )
    .expect("bulk demo");
    let wrong = || {
        store
            .read_blocking(liftdesk::store::counts::wrong)
            .expect("recount")
    };
    assert!(count(&db, "SELECT count(*) FROM invoices") > 50);
    assert!(
        count(
            &db,
            "SELECT count(*) FROM equipment WHERE surveyed_fields > 0"
        ) > 10
    );
    assert_eq!(wrong(), vec![]);
    // The triggers are on again: an invoice moved to another day is
    // counted there.
    let moved = db
        .execute(
            "UPDATE invoices SET created_on = '2019-01-02' WHERE id = (SELECT MIN(id) FROM invoices)",
            [],
        )
        .expect("update");
    assert_eq!(moved, 1);
    assert_eq!(wrong(), vec![], "kept by the triggers after the load");
    db.execute(
        "UPDATE invoice_status_counts SET n = n + 2 WHERE status = 'emise'",
        [],
    )
    .expect("damage");
    let damaged = count(
        &db,
        "SELECT count(*) FROM invoice_status_counts WHERE status = 'emise'",
    );
    assert_eq!(wrong(), vec![("invoice_status_counts", damaged)]);
}
