//! Schema migrations at start-up: empty, up to date, older, and newer (refused).

use crate::common;

use common::*;
use liftdesk::store::{Store, StoreError, latest_schema_version, migrate_to_version};
use sha2::{Digest, Sha256};

fn history(dir: &std::path::Path) -> Vec<(i64, String)> {
    let conn = sqlite_file(dir);
    let mut stmt = conn
        .prepare("SELECT version, name FROM refinery_schema_history ORDER BY version")
        .expect("history");
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows")
}

/// The organization « Durand » (`o`) and its agency « Lyon » (`a`) that
/// most fixtures below start from.
const DURAND_LYON: &str = "INSERT INTO organizations (id, name, kind, created_at) VALUES ('o', 'Durand', 'client', '2025-01-01T00:00:00Z');
     INSERT INTO agencies (id, organization_id, name, created_at) VALUES ('a', 'o', 'Lyon', '2025-01-01T00:00:00Z');";

/// A database left at schema `version` by an older release, holding `seed`
/// (SQL), then opened by this binary, which brings it up to date: its
/// directory, to read the result.
fn migrated_from(version: i32, seed: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("dir");
    let path = db_path(dir.path());
    migrate_to_version(&path, version).expect("older version");
    rusqlite::Connection::open(&path)
        .expect("create")
        .execute_batch(seed)
        .expect("older data");
    drop(Store::open(&path).expect("migrate"));
    dir
}

fn file_digest(path: &std::path::Path) -> Vec<u8> {
    Sha256::digest(std::fs::read(path).expect("read")).to_vec()
}

#[test]
fn an_empty_database_gets_the_whole_schema_and_the_catalog() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(&db_path(dir.path())).expect("open");
    drop(store);
    let versions: Vec<i64> = history(dir.path()).into_iter().map(|(v, _)| v).collect();
    assert_eq!(versions.last().copied(), Some(latest_schema_version()));
    let conn = sqlite_file(dir.path());
    for table in [
        "organizations",
        "agencies",
        "accounts",
        "account_agencies",
        "technicians",
        "technician_on_call",
        "technician_absences",
        "clients",
        "contacts",
        "buildings",
        "equipment",
        "technical_fields",
        "equipment_values",
        "deals",
        "surveys",
        "survey_values",
        "discrepancies",
        "visits",
        "calls",
        "call_centers",
        "quotes",
        "quote_rows",
        "invoices",
        "invoice_lines",
        "invoice_counters",
        "import_files",
        "webhook_subscriptions",
        "outbox_events",
        "webhook_deliveries",
        "credentials",
        "partner_key_agencies",
        "sessions",
        "sheet_tokens",
        "audit_log",
    ] {
        let exists: bool = conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1)",
                [table],
                |r| r.get(0),
            )
            .expect("query");
        assert!(exists, "table {table} missing");
    }
    // The catalog ships the partner API's technical fields, with French labels and V1 names.
    for key in [
        "charge_utile",
        "course",
        "implantation_machinerie",
        "marque",
        "modele",
        "nombre_faces_de_service",
        "nombre_niveaux",
        "nombre_personnes",
        "type_entrainement",
        "vitesse",
    ] {
        let (label, v1_table, v1_field): (String, String, String) = conn
            .query_row(
                "SELECT label, v1_table, v1_field FROM technical_fields WHERE partner_key = ?1",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap_or_else(|_| panic!("technical field {key} missing"));
        assert!(!label.is_empty() && !v1_table.is_empty() && !v1_field.is_empty());
    }
    let shaft: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM technical_fields WHERE component = 'shaft'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert!(shaft >= 4, "pit, car roof and landing dimensions");
    for component in ["car_door", "machine", "controller"] {
        let n: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM technical_fields WHERE component = ?1",
                [component],
                |r| r.get(0),
            )
            .expect("count");
        assert!(n > 0, "{component} fields missing");
    }
    let journal: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .expect("pragma");
    assert_eq!(journal, "wal");
}

#[test]
fn an_up_to_date_database_is_opened_as_is() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "a@org.fr");
    let before = history(dir.path());
    let store = Store::open(&db_path(dir.path())).expect("reopen");
    drop(store);
    assert_eq!(history(dir.path()), before);
    let conn = sqlite_file(dir.path());
    let still: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM organizations WHERE id = ?1",
            [&org.organization_id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(still, 1);
}

#[test]
fn an_older_database_is_brought_up_to_date_keeping_its_data() {
    let dir = tempfile::tempdir().expect("dir");
    let path = db_path(dir.path());
    // A database made by the first release: schema version 1 only.
    {
        migrate_to_version(&path, 1).expect("version 1");
        let conn = rusqlite::Connection::open(&path).expect("create");
        conn.execute(
            "INSERT INTO organizations (id, name, kind, created_at) VALUES ('org-ancienne', 'Ancienne', 'client', '2025-01-01T00:00:00.000Z')",
            [],
        )
        .expect("old data");
    }
    assert_eq!(history(dir.path()).last().map(|(v, _)| *v), Some(1));
    let store = Store::open(&path).expect("migrate");
    drop(store);
    let versions: Vec<i64> = history(dir.path()).into_iter().map(|(v, _)| v).collect();
    assert_eq!(versions.last().copied(), Some(latest_schema_version()));
    assert_eq!(
        versions,
        (1..=latest_schema_version()).collect::<Vec<_>>(),
        "every migration applied once, in order"
    );
    let conn = sqlite_file(dir.path());
    let fields: i64 = conn
        .query_row("SELECT COUNT(*) FROM technical_fields", [], |r| r.get(0))
        .expect("count");
    assert!(fields > 10, "the catalog migration ran");
    let still: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM organizations WHERE id = 'org-ancienne'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(still, 1, "the data of the older database is kept");
}

#[test]
fn a_database_newer_than_the_binary_is_refused_untouched() {
    let dir = tempfile::tempdir().expect("dir");
    init_org(dir.path(), "Org", "a@org.fr");
    let newer = latest_schema_version() + 1;
    {
        let conn = sqlite_file(dir.path());
        conn.execute(
            "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (?1, 'future', '2030-01-01', '0')",
            [newer],
        )
        .expect("future migration");
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .expect("checkpoint");
    }
    let path = db_path(dir.path());
    let before = file_digest(&path);

    match Store::open(&path) {
        Err(err @ StoreError::NewerSchema { .. }) => {
            let text = err.to_string();
            assert!(text.contains("version plus récente de Liftdesk"), "{text}");
            assert!(text.contains(&format!("schéma {newer}")), "{text}");
            assert!(text.contains("n'a pas été modifiée"), "{text}");
        }
        Err(other) => panic!("wrong error: {other}"),
        Ok(_) => panic!("a newer database must be refused"),
    }
    assert_eq!(
        file_digest(&path),
        before,
        "the refused file is not modified"
    );

    // The CLI says so in French and exits non-zero.
    let out = run_cli(
        dir.path(),
        &["token", "create", "--email", "a@org.fr", "--name", "x"],
    );
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("version plus récente de Liftdesk"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(file_digest(&path), before, "still untouched");
}

fn installation_owner(dir: &std::path::Path) -> Option<String> {
    sqlite_file(dir)
        .query_row("SELECT organization_id FROM installation", [], |r| r.get(0))
        .ok()
}

#[test]
fn an_older_database_records_its_oldest_client_organization_as_the_installations() {
    // Schema version 6: the service operator's organization came first, two
    // client organizations were made at the same instant (the id decides),
    // and one later with a smaller id.
    let dir = migrated_from(
        6,
        "INSERT INTO organizations (id, name, kind, created_at) VALUES
               ('org-0', 'Opérateur du service', 'operator', '2024-01-01T00:00:00.000Z'),
               ('org-c', 'Ex aequo', 'client', '2025-01-01T00:00:00.000Z'),
               ('org-a', 'Tardive', 'client', '2025-03-01T00:00:00.000Z'),
               ('org-b', 'Première', 'client', '2025-01-01T00:00:00.000Z');",
    );
    assert_eq!(installation_owner(dir.path()).as_deref(), Some("org-b"));
    // A later organization does not take it over.
    init_org(dir.path(), "Nouvelle", "admin@nouvelle.fr");
    assert_eq!(installation_owner(dir.path()).as_deref(), Some("org-b"));
}

#[test]
fn the_first_client_organization_made_sets_the_installation_up() {
    let dir = tempfile::tempdir().expect("dir");
    drop(Store::open(&db_path(dir.path())).expect("open"));
    assert_eq!(installation_owner(dir.path()), None);
    // The service operator's account (and organization) is not a client.
    create_operator(dir.path(), "operateur@service.fr", "motdepasse-solide");
    assert_eq!(installation_owner(dir.path()), None);
    let first = init_org(dir.path(), "Durand", "admin@durand.fr");
    init_org(dir.path(), "Concurrent", "admin@concurrent.fr");
    assert_eq!(installation_owner(dir.path()), Some(first.organization_id));
}

#[test]
fn the_audit_log_keeps_its_entries_and_numbers_without_the_sequence_table() {
    // Schema version 8: audit_log numbered by AUTOINCREMENT.
    let dir = migrated_from(
        8,
        "INSERT INTO audit_log (at, actor_kind, action, object_type, object_id, detail) VALUES
               ('2025-01-01T00:00:00.000Z', 'cli', 'création', 'organization', 'org-1', '{\"nom\":\"Durand\"}'),
               ('2025-01-02T00:00:00.000Z', 'system', 'ouverture', 'call', 'c-1', NULL),
               ('2025-01-03T00:00:00.000Z', 'cli', 'révocation', 'credential', 'k-1', NULL);",
    );
    let conn = sqlite_file(dir.path());
    let schema: String = conn
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'audit_log'",
            [],
            |r| r.get(0),
        )
        .expect("schema");
    assert!(!schema.contains("AUTOINCREMENT"), "{schema}");
    let indexes: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name")
        .expect("indexes")
        .query_map([], |r| r.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(indexes, ["audit_log_by_agency", "audit_log_by_object"]);
    let kept: Vec<(i64, String, String, Option<String>)> = conn
        .prepare("SELECT seq, action, object_id, detail FROM audit_log ORDER BY seq")
        .expect("entries")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        kept,
        [
            (
                1,
                "création".into(),
                "org-1".into(),
                Some("{\"nom\":\"Durand\"}".into())
            ),
            (2, "ouverture".into(), "c-1".into(), None),
            (3, "révocation".into(), "k-1".into(), None),
        ]
    );
    drop(conn);
    // A new audited write numbers after the kept entries, and no longer
    // writes a counter of its own.
    init_org(dir.path(), "Durand", "admin@durand.fr");
    let conn = sqlite_file(dir.path());
    let (count, min_new): (i64, i64) = conn
        .query_row(
            "SELECT COUNT(*), MIN(seq) FROM audit_log WHERE seq > 3",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("new entries");
    assert!(count >= 1, "the organization's creation is audited");
    assert_eq!(min_new, 4);
    let counters: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_sequence WHERE name = 'audit_log'",
            [],
            |r| r.get(0),
        )
        .expect("sequence");
    assert_eq!(counters, 0);
}

#[test]
fn an_agencys_siret_and_address_become_its_first_identity_version() {
    // Schema version 9: the seller's SIRET and address on the agency's row.
    let dir = migrated_from(
        9,
        "INSERT INTO organizations (id, name, kind, created_at) VALUES ('o', 'Durand', 'client', '2025-01-01T00:00:00Z');
             INSERT INTO agencies (id, organization_id, name, v1_id, siret, address, created_at) VALUES
               ('a1', 'o', 'Lyon', 'V1-LY', '55210055400013', '3 quai Saint-Étienne, 69005 Lyon', '2025-01-01T00:00:00Z'),
               ('a2', 'o', 'Vienne', NULL, NULL, NULL, '2025-01-02T00:00:00Z');
             INSERT INTO invoices (id, agency_id, nature, status, number, number_year, number_seq,
                                   issued_on, created_on, created_at, updated_at) VALUES
               ('i1', 'a1', 'facture', 'emise', 'FA-2025-000001', 2025, 1, '2025-03-01', '2025-03-01',
                '2025-03-01T09:00:00Z', '2025-03-01T09:00:00Z'),
               ('i2', 'a1', 'facture', 'brouillon', NULL, NULL, NULL, NULL, '2025-03-02',
                '2025-03-02T09:00:00Z', '2025-03-02T09:00:00Z');",
    );
    let conn = sqlite_file(dir.path());
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('agencies') ORDER BY cid")
        .expect("columns")
        .query_map([], |r| r.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        columns,
        [
            "id",
            "organization_id",
            "name",
            "v1_id",
            "created_at",
            "identity_id",
            // V13: an archived agency.
            "archived_at"
        ]
    );
    type Identity = (String, Option<String>, Option<String>, Option<String>);
    let identities: Vec<Identity> = conn
        .prepare(
            "SELECT a.id, i.siret, i.address, i.legal_form FROM agencies a
             LEFT JOIN agency_identities i ON i.id = a.identity_id ORDER BY a.id",
        )
        .expect("identities")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        identities,
        [
            (
                "a1".to_owned(),
                Some("55210055400013".to_owned()),
                // V22: the street, its postal code and city apart (below).
                Some("3 quai Saint-Étienne".to_owned()),
                None
            ),
            ("a2".to_owned(), None, None, None),
        ]
    );
    let town: (Option<String>, Option<String>) = conn
        .query_row(
            "SELECT i.postal_code, i.city FROM agencies a
             JOIN agency_identities i ON i.id = a.identity_id WHERE a.id = 'a1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("town");
    assert_eq!(town, (Some("69005".to_owned()), Some("Lyon".to_owned())));
    // The invoice issued before keeps the seller it was issued by (V12);
    // a draft prints the current one.
    let issued_under: Vec<(String, Option<String>)> = conn
        .prepare("SELECT id, seller_identity_id FROM invoices ORDER BY id")
        .expect("invoices")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        issued_under,
        [
            ("i1".to_owned(), Some("identite-a1".to_owned())),
            ("i2".to_owned(), None)
        ]
    );
}

#[test]
fn settled_documents_get_their_payment_and_fully_credited_invoices_are_settled() {
    // Schema version 17: a settlement is a status and a day, no payment rows.
    let dir = migrated_from(
        17,
        &format!(
            "{DURAND_LYON}
             INSERT INTO invoices (id, agency_id, nature, status, number, number_year, number_seq, credited_invoice_id,
                                   issued_on, paid_on, total_incl_cents, created_on, created_at, updated_at) VALUES
               -- Paid in full after a 20 € credit note: it received 100 €.
               ('paid', 'a', 'facture', 'payee', 'FA-2025-000001', 2025, 1, NULL, '2025-03-01', '2025-03-20', 12000,
                '2025-03-01', '2025-03-01T09:00:00Z', '2025-03-20T09:00:00Z'),
               ('av1', 'a', 'avoir', 'emise', 'AV-2025-000001', 2025, 1, 'paid', '2025-03-05', NULL, 2000,
                '2025-03-05', '2025-03-05T09:00:00Z', '2025-03-05T09:00:00Z'),
               -- Cancelled in full by two credit notes, still « sent ».
               ('cancelled', 'a', 'facture', 'envoyee', 'FA-2025-000002', 2025, 2, NULL, '2025-03-02', NULL, 5000,
                '2025-03-02', '2025-03-02T09:00:00Z', '2025-03-02T09:00:00Z'),
               ('av2', 'a', 'avoir', 'emise', 'AV-2025-000002', 2025, 2, 'cancelled', '2025-03-06', NULL, 3000,
                '2025-03-06', '2025-03-06T09:00:00Z', '2025-03-06T09:00:00Z'),
               ('av3', 'a', 'avoir', 'payee', 'AV-2025-000003', 2025, 3, 'cancelled', '2025-03-09', '2025-03-10', 2000,
                '2025-03-09', '2025-03-09T09:00:00Z', '2025-03-10T09:00:00Z'),
               -- Partly credited and unpaid: left as it was.
               ('open', 'a', 'facture', 'emise', 'FA-2025-000003', 2025, 3, NULL, '2025-03-03', NULL, 9000,
                '2025-03-03', '2025-03-03T09:00:00Z', '2025-03-03T09:00:00Z'),
               ('av4', 'a', 'avoir', 'emise', 'AV-2025-000004', 2025, 4, 'open', '2025-03-07', NULL, 1000,
                '2025-03-07', '2025-03-07T09:00:00Z', '2025-03-07T09:00:00Z');"
        ),
    );
    let conn = sqlite_file(dir.path());
    let payments: Vec<(String, String, i64, Option<String>)> = conn
        .prepare("SELECT invoice_id, paid_on, amount_cents, method FROM invoice_payments ORDER BY invoice_id")
        .expect("payments")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        payments,
        [
            ("av3".to_owned(), "2025-03-10".to_owned(), 2000, None),
            ("paid".to_owned(), "2025-03-20".to_owned(), 10000, None),
        ]
    );
    let statuses: Vec<(String, String, Option<String>)> = conn
        .prepare("SELECT id, status, paid_on FROM invoices WHERE nature = 'facture' ORDER BY id")
        .expect("statuses")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        statuses,
        [
            (
                "cancelled".to_owned(),
                "payee".to_owned(),
                Some("2025-03-09".to_owned())
            ),
            ("open".to_owned(), "emise".to_owned(), None),
            (
                "paid".to_owned(),
                "payee".to_owned(),
                Some("2025-03-20".to_owned())
            ),
        ]
    );
}

#[test]
fn client_addresses_are_split_where_they_can_be() {
    // Schema version 18: a client's address on one line.
    let dir = migrated_from(
        18,
        &format!(
            "{DURAND_LYON}
             INSERT INTO clients (id, agency_id, client_ref, nom, adresse, complement_adresse, created_at, updated_at) VALUES
               ('c1', 'a', 'CLI-1', 'Un', '12 rue de la Paix, 75002 Paris', 'Bâtiment B', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
               ('c2', 'a', 'CLI-2', 'Deux', '3 quai Saint-Étienne 69005 Lyon', NULL, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
               ('c3', 'a', 'CLI-3', 'Trois', 'Place Bellecour, Lyon', NULL, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
               ('c4', 'a', 'CLI-4', 'Quatre', NULL, NULL, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');"
        ),
    );
    let conn = sqlite_file(dir.path());
    type Row = (String, Option<String>, Option<String>, Option<String>);
    let rows: Vec<Row> = conn
        .prepare("SELECT id, adresse, code_postal, ville FROM clients ORDER BY id")
        .expect("clients")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    let s = |t: &str| Some(t.to_owned());
    assert_eq!(
        rows,
        [
            (
                "c1".to_owned(),
                s("12 rue de la Paix"),
                s("75002"),
                s("Paris")
            ),
            (
                "c2".to_owned(),
                s("3 quai Saint-Étienne"),
                s("69005"),
                s("Lyon")
            ),
            ("c3".to_owned(), s("Place Bellecour, Lyon"), None, None),
            ("c4".to_owned(), None, None, None),
        ]
    );
}

#[test]
fn quotes_get_thirty_days_of_validity_and_invoices_name_their_quotes_lift() {
    // Schema version 20: no validity, no lifts on invoices.
    let dir = migrated_from(
        20,
        &format!(
            "{DURAND_LYON}
             INSERT INTO equipment (id, agency_id, number, created_at, updated_at) VALUES
               ('e1', 'a', 'ASC 1', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
             INSERT INTO quotes (id, agency_id, equipment_id, number, origin, object, status, created_at, updated_at) VALUES
               ('q1', 'a', 'e1', 'DV-2026-00001', 'panne', 'Câble', 'accepte', '2026-01-31T23:30:00.000Z', '2026-02-01T00:00:00Z');
             INSERT INTO invoices (id, agency_id, nature, status, quote_id, created_on, created_at, updated_at) VALUES
               ('i1', 'a', 'facture', 'brouillon', 'q1', '2026-02-02', '2026-02-02T08:00:00Z', '2026-02-02T08:00:00Z'),
               ('i2', 'a', 'facture', 'brouillon', NULL, '2026-02-02', '2026-02-02T08:00:00Z', '2026-02-02T08:00:00Z');"
        ),
    );
    let conn = sqlite_file(dir.path());
    let valid_until: String = conn
        .query_row("SELECT valid_until FROM quotes WHERE id = 'q1'", [], |r| {
            r.get(0)
        })
        .expect("quote");
    // 30 days from its creation day as stored (UTC).
    assert_eq!(valid_until, "2026-03-02");
    let named: Vec<(String, String)> = conn
        .prepare("SELECT invoice_id, equipment_id FROM invoice_equipment ORDER BY invoice_id")
        .expect("invoice_equipment")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(named, [("i1".to_owned(), "e1".to_owned())]);
}

#[test]
fn agency_addresses_are_split_where_they_can_be() {
    // Schema version 21: the identity's addresses as typed, on one line or several.
    let dir = migrated_from(
        21,
        &format!(
            "{DURAND_LYON}
             INSERT INTO agency_identities (id, agency_id, address, head_office_address, created_at) VALUES
               ('v1', 'a', '12 rue de la Part-Dieu' || char(13) || char(10) || '69003 Lyon', '3 quai Saint-Antoine, 69002 Lyon', '2025-01-01T00:00:00Z'),
               ('v2', 'a', 'Lieu-dit Les Granges', NULL, '2025-01-02T00:00:00Z');"
        ),
    );
    let conn = sqlite_file(dir.path());
    type Row = (
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = conn
        .prepare(
            "SELECT id, address, postal_code, city, head_office_address, head_office_postal_code,
                    head_office_city
             FROM agency_identities ORDER BY id",
        )
        .expect("identities")
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    let s = |t: &str| Some(t.to_owned());
    assert_eq!(
        rows,
        [
            (
                "v1".to_owned(),
                s("12 rue de la Part-Dieu"),
                s("69003"),
                s("Lyon"),
                s("3 quai Saint-Antoine"),
                s("69002"),
                s("Lyon")
            ),
            (
                "v2".to_owned(),
                s("Lieu-dit Les Granges"),
                None,
                None,
                None,
                None,
                None
            ),
        ]
    );
}

/// V23 rebuilds the invoices (their number may hold a series): every
/// document, line, payment, lift and count is kept, no reference is
/// broken, the numbers given never change, and a number with a series
/// that does not match it is still refused.
#[test]
fn invoices_keep_everything_when_their_numbers_may_take_a_series() {
    let dir = migrated_from(
        22,
        &format!(
            "{DURAND_LYON}
             INSERT INTO clients (id, agency_id, client_ref, nom, created_at, updated_at) VALUES
               ('c', 'a', 'CLI-1', 'Un', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
             INSERT INTO equipment (id, agency_id, number, created_at, updated_at) VALUES
               ('e', 'a', 'ASC 1', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
             INSERT INTO invoices (id, agency_id, client_id, nature, status, number, number_year, number_seq,
                                   credited_invoice_id, issued_on, total_excl_cents, total_incl_cents,
                                   created_on, created_at, updated_at) VALUES
               ('i1', 'a', 'c', 'facture', 'emise', 'FA-2026-000001', 2026, 1, NULL, '2026-03-01', 10000, 12000,
                '2026-03-01', '2026-03-01T09:00:00Z', '2026-03-01T09:00:00Z'),
               ('a1', 'a', 'c', 'avoir', 'emise', 'AV-2026-000001', 2026, 1, 'i1', '2026-03-02', 1000, 1200,
                '2026-03-02', '2026-03-02T09:00:00Z', '2026-03-02T09:00:00Z'),
               ('d1', 'a', 'c', 'facture', 'brouillon', NULL, NULL, NULL, NULL, NULL, 0, 0,
                '2026-03-03', '2026-03-03T09:00:00Z', '2026-03-03T09:00:00Z');
             INSERT INTO invoice_lines (id, invoice_id, position, label, quantity_milli, unit_price_cents) VALUES
               ('l1', 'i1', 0, 'Maintenance', 1000, 10000), ('l2', 'a1', 0, 'Geste', 1000, 1000);
             INSERT INTO invoice_payments (id, agency_id, invoice_id, paid_on, amount_cents, created_at) VALUES
               ('p1', 'a', 'i1', '2026-03-05', 5000, '2026-03-05T09:00:00Z');
             INSERT INTO invoice_equipment (invoice_id, equipment_id, position) VALUES ('i1', 'e', 0);"
        ),
    );
    let conn = sqlite_file(dir.path());
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).expect(sql) };
    assert_eq!(count("SELECT COUNT(*) FROM invoices"), 3);
    assert_eq!(count("SELECT COUNT(*) FROM invoice_lines"), 2);
    assert_eq!(count("SELECT COUNT(*) FROM invoice_payments"), 1);
    assert_eq!(count("SELECT COUNT(*) FROM invoice_equipment"), 1);
    assert_eq!(count("SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);
    assert_eq!(
        count("SELECT COUNT(*) FROM invoices WHERE number_series IS NOT NULL"),
        0
    );
    let numbers: Vec<String> = conn
        .prepare("SELECT number FROM invoices WHERE number IS NOT NULL ORDER BY number")
        .expect("numbers")
        .query_map([], |r| r.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(numbers, ["AV-2026-000001", "FA-2026-000001"]);
    // The counts the lists read are those of the three documents.
    assert_eq!(
        count("SELECT COALESCE(SUM(n), 0) FROM invoice_status_counts WHERE agency_id = 'a'"),
        3
    );
    // The triggers are back: a new document is counted.
    conn.execute(
        "INSERT INTO invoices (id, agency_id, client_id, nature, status, created_on, created_at, updated_at)
         VALUES ('d2', 'a', 'c', 'facture', 'brouillon', '2026-03-04', '2026-03-04T09:00:00Z', '2026-03-04T09:00:00Z')",
        [],
    )
    .expect("new draft");
    assert_eq!(
        count("SELECT n FROM invoice_status_counts WHERE agency_id = 'a' AND status = 'brouillon'"),
        2
    );
    // A series in the number only with its column, and the same one.
    let issue = |number: &str, series: Option<&str>| {
        conn.execute(
            "UPDATE invoices SET status = 'emise', number = ?1, number_year = 2026, number_seq = 2,
                 number_series = ?2 WHERE id = 'd1'",
            rusqlite::params![number, series],
        )
    };
    assert!(issue("FA-PO-2026-000002", None).is_err());
    assert!(issue("FA-PO-2026-000002", Some("PE")).is_err());
    assert!(issue("FA-PO-2026-000002", Some("PO")).is_ok());
}
