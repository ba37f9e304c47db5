//! The two migration trees describe one schema: a new SQLite file and a new
//! PostgreSQL schema, each migrated to the latest version, have the same
//! tables, columns (type, NOT NULL), primary keys, foreign keys, unique
//! and plain indexes (their columns, whether partial), CHECK constraints
//! (how many per table) and triggers. Runs in the test command's
//! PostgreSQL pass (it needs both engines); on the SQLite pass there is
//! nothing to compare with.

use std::collections::{BTreeMap, BTreeSet};

use crate::common;
use common::db::TestDb;

/// A schema as both engines can say it.
#[derive(Debug, Default, PartialEq, Eq)]
struct Shape {
    /// table → column → (type, NOT NULL).
    columns: BTreeMap<String, BTreeMap<String, (String, bool)>>,
    /// table → its primary key's columns.
    primary_keys: BTreeMap<String, Vec<String>>,
    /// (table, column, referenced table, referenced column).
    foreign_keys: BTreeSet<(String, String, String, String)>,
    /// (table, unique, partial, columns — an expression as `(expr)`).
    indexes: BTreeSet<(String, bool, bool, String)>,
    /// The indexes made by `CREATE INDEX`, by name.
    index_names: BTreeSet<String>,
    /// table → how many CHECK constraints.
    checks: BTreeMap<String, usize>,
    triggers: BTreeSet<String>,
}

/// SQLite's declared type as one of the five classes both engines share.
fn sqlite_class(declared: &str) -> String {
    let declared = declared.to_ascii_uppercase();
    if declared.contains("INT") {
        "integer"
    } else if declared.contains("CHAR") || declared.contains("TEXT") || declared.contains("CLOB") {
        "text"
    } else if declared.contains("BLOB") {
        "blob"
    } else if declared.contains("REAL") || declared.contains("FLOA") || declared.contains("DOUB") {
        "real"
    } else {
        "numeric"
    }
    .to_owned()
}

/// PostgreSQL's type name as one of the same classes.
fn postgres_class(data_type: &str) -> String {
    match data_type {
        "bigint" | "integer" | "smallint" => "integer",
        "text" | "character varying" | "character" => "text",
        "bytea" => "blob",
        "double precision" | "real" => "real",
        _ => "numeric",
    }
    .to_owned()
}

fn sqlite_shape(path: &std::path::Path) -> Shape {
    let conn = rusqlite::Connection::open(path).expect("open");
    let texts = |sql: &str, param: &str| -> Vec<Vec<Option<String>>> {
        let mut stmt = conn.prepare(sql).expect("prepare");
        let width = stmt.column_count();
        stmt.query_map([param], |row| {
            (0..width)
                .map(|i| {
                    row.get::<_, rusqlite::types::Value>(i).map(|v| match v {
                        rusqlite::types::Value::Null => None,
                        rusqlite::types::Value::Integer(n) => Some(n.to_string()),
                        rusqlite::types::Value::Text(t) => Some(t),
                        other => Some(format!("{other:?}")),
                    })
                })
                .collect()
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
    };
    let text = |cell: &Option<String>| cell.clone().unwrap_or_default();
    let mut shape = Shape::default();
    let tables = texts(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND name <> ?1",
        "refinery_schema_history",
    );
    for table in &tables {
        let name = text(&table[0]);
        let sql = text(&table[1]).to_ascii_uppercase();
        shape
            .checks
            .insert(name.clone(), sql.matches("CHECK").count());
        let mut primary = Vec::new();
        // cid, name, type, notnull, dflt_value, pk, hidden (generated)
        for column in texts("SELECT * FROM pragma_table_xinfo(?1)", &name) {
            let column_name = text(&column[1]);
            let primary_position: i64 = text(&column[5]).parse().unwrap_or(0);
            if primary_position > 0 {
                primary.push((primary_position, column_name.clone()));
            }
            // A primary key column is NOT NULL on PostgreSQL whatever SQLite
            // declares (its rowid key cannot be NULL either).
            let not_null = text(&column[3]) == "1" || primary_position > 0;
            shape
                .columns
                .entry(name.clone())
                .or_default()
                .insert(column_name, (sqlite_class(&text(&column[2])), not_null));
        }
        primary.sort();
        if !primary.is_empty() {
            shape
                .primary_keys
                .insert(name.clone(), primary.into_iter().map(|(_, c)| c).collect());
        }
        // id, seq, table, from, to, …
        for key in texts("SELECT * FROM pragma_foreign_key_list(?1)", &name) {
            let referenced = text(&key[2]);
            let to = match &key[4] {
                Some(to) => to.clone(),
                None => shape
                    .primary_keys
                    .get(&referenced)
                    .and_then(|k| k.first().cloned())
                    .unwrap_or_else(|| "id".to_owned()),
            };
            shape
                .foreign_keys
                .insert((name.clone(), text(&key[3]), referenced, to));
        }
        // seq, name, unique, origin, partial
        for index in texts("SELECT * FROM pragma_index_list(?1)", &name) {
            if text(&index[3]) == "pk" {
                continue;
            }
            let index_name = text(&index[1]);
            let columns: Vec<String> = texts(
                "SELECT name FROM pragma_index_info(?1) ORDER BY seqno",
                &index_name,
            )
            .into_iter()
            .map(|c| c[0].clone().unwrap_or_else(|| "(expr)".to_owned()))
            .collect();
            shape.indexes.insert((
                name.clone(),
                text(&index[2]) == "1",
                text(&index[4]) == "1",
                columns.join(", "),
            ));
            if text(&index[3]) == "c" {
                shape.index_names.insert(index_name);
            }
        }
    }
    for trigger in texts(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name <> ?1",
        "",
    ) {
        shape.triggers.insert(text(&trigger[0]));
    }
    shape
}

fn postgres_shape(db: &TestDb) -> Shape {
    let rows = |sql: &str| -> Vec<Vec<String>> {
        db.store()
            .inspect_rows(sql, [], |row| {
                (0..row.column_count())
                    .map(|i| row.get::<Option<String>>(i).map(Option::unwrap_or_default))
                    .collect()
            })
            .expect("catalog")
    };
    let mut shape = Shape::default();
    let schema_tables = "SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                          WHERE n.nspname = current_schema() AND c.relkind = 'r'
                            AND c.relname <> 'refinery_schema_history'";
    for row in rows(
        "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT), CAST(data_type AS TEXT),
                CAST(is_nullable AS TEXT)
           FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name <> 'refinery_schema_history'",
    ) {
        shape
            .columns
            .entry(row[0].clone())
            .or_default()
            .insert(row[1].clone(), (postgres_class(&row[2]), row[3] == "NO"));
        shape.checks.entry(row[0].clone()).or_insert(0);
    }
    for row in rows(&format!(
        "SELECT CAST(c.relname AS TEXT), CAST(a.attname AS TEXT), CAST(k.contype AS TEXT),
                CAST(r.relname AS TEXT), CAST(ra.attname AS TEXT), CAST(u.position AS TEXT)
           FROM pg_constraint k
           JOIN pg_class c ON c.oid = k.conrelid
           JOIN unnest(k.conkey, k.confkey) WITH ORDINALITY AS u(col, refcol, position) ON TRUE
           JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.col
           LEFT JOIN pg_class r ON r.oid = k.confrelid
           LEFT JOIN pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = u.refcol
          WHERE k.conrelid IN ({schema_tables}) AND k.contype IN ('p', 'f')
          ORDER BY 1, 3, 6"
    )) {
        match row[2].as_str() {
            "p" => shape
                .primary_keys
                .entry(row[0].clone())
                .or_default()
                .push(row[1].clone()),
            _ => {
                shape.foreign_keys.insert((
                    row[0].clone(),
                    row[1].clone(),
                    row[3].clone(),
                    row[4].clone(),
                ));
            }
        }
    }
    for row in rows(&format!(
        "SELECT CAST(c.relname AS TEXT), CAST(COUNT(*) AS TEXT) FROM pg_constraint k
           JOIN pg_class c ON c.oid = k.conrelid
          WHERE k.conrelid IN ({schema_tables}) AND k.contype = 'c'
          GROUP BY c.relname"
    )) {
        shape
            .checks
            .insert(row[0].clone(), row[1].parse().unwrap_or(0));
    }
    for row in rows(&format!(
        "SELECT CAST(t.relname AS TEXT), CAST(ic.relname AS TEXT),
                CASE WHEN i.indisunique THEN '1' ELSE '0' END,
                CASE WHEN i.indpred IS NULL THEN '0' ELSE '1' END,
                pg_get_indexdef(i.indexrelid),
                CASE WHEN EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
                     THEN '1' ELSE '0' END
           FROM pg_index i
           JOIN pg_class ic ON ic.oid = i.indexrelid
           JOIN pg_class t ON t.oid = i.indrelid
          WHERE i.indrelid IN ({schema_tables}) AND NOT i.indisprimary"
    )) {
        shape.indexes.insert((
            row[0].clone(),
            row[2] == "1",
            row[3] == "1",
            index_columns(&row[4]),
        ));
        if row[5] == "0" {
            shape.index_names.insert(row[1].clone());
        }
    }
    for row in rows(&format!(
        "SELECT DISTINCT CAST(tgname AS TEXT) FROM pg_trigger
          WHERE NOT tgisinternal AND tgrelid IN ({schema_tables})"
    )) {
        shape.triggers.insert(row[0].clone());
    }
    shape
}

/// The columns of `CREATE [UNIQUE] INDEX … USING btree (a NULLS FIRST,
/// lower(b)) [WHERE …]` as SQLite names them: `a, (expr)`.
fn index_columns(definition: &str) -> String {
    let Some(start) = definition.find(" USING ") else {
        return definition.to_owned();
    };
    let after = &definition[start..];
    let Some(open) = after.find('(') else {
        return definition.to_owned();
    };
    let mut depth = 0;
    let mut columns = Vec::new();
    let mut current = String::new();
    for c in after[open + 1..].chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' if depth == 0 => break,
            ')' => {
                depth -= 1;
                current.push(c);
            }
            ',' if depth == 0 => columns.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    columns.push(current);
    columns
        .iter()
        .map(|column| {
            let column = column
                .trim()
                .trim_end_matches(" NULLS FIRST")
                .trim_end_matches(" NULLS LAST")
                .trim_end_matches(" DESC")
                .trim();
            let column = column.split(" COLLATE ").next().unwrap_or(column).trim();
            if column.contains('(') || column.contains(' ') {
                "(expr)".to_owned()
            } else {
                column.trim_matches('"').to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What differs between two sets, each side named.
fn differences<T: Ord + std::fmt::Debug + Clone>(
    what: &str,
    sqlite: &BTreeSet<T>,
    postgres: &BTreeSet<T>,
) -> Vec<String> {
    let mut out = Vec::new();
    for only in sqlite.difference(postgres) {
        out.push(format!("{what} on SQLite only: {only:?}"));
    }
    for only in postgres.difference(sqlite) {
        out.push(format!("{what} on PostgreSQL only: {only:?}"));
    }
    out
}

fn flat<K: Ord + Clone, V: Ord + Clone>(map: &BTreeMap<K, V>) -> BTreeSet<(K, V)> {
    map.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

fn flat_columns(shape: &Shape) -> BTreeSet<(String, String, String, bool)> {
    shape
        .columns
        .iter()
        .flat_map(|(table, columns)| {
            columns.iter().map(move |(column, (class, not_null))| {
                (table.clone(), column.clone(), class.clone(), *not_null)
            })
        })
        .collect()
}

#[test]
fn both_migration_trees_give_the_same_schema() {
    if !common::engine::on_postgres() {
        // The SQLite pass has no PostgreSQL to compare with.
        return;
    }
    let sqlite_dir = tempfile::tempdir().expect("dir");
    drop(liftdesk::server::open_store(sqlite_dir.path()).expect("SQLite migrated"));
    let sqlite = sqlite_shape(&sqlite_dir.path().join("liftdesk.db"));
    let postgres_dir = tempfile::tempdir().expect("dir");
    let db = TestDb::open(postgres_dir.path());
    let postgres = postgres_shape(&db);

    // Each part is read, on both sides.
    for shape in [&sqlite, &postgres] {
        assert!(shape.columns.len() > 40, "{:?}", shape.columns.keys());
        assert!(shape.primary_keys.len() > 40);
        assert!(shape.foreign_keys.len() > 40);
        assert!(shape.indexes.len() > 40);
        assert!(shape.index_names.len() > 30);
        assert!(shape.checks.values().sum::<usize>() > 40);
        assert!(shape.triggers.len() > 5, "{:?}", shape.triggers);
    }
    assert!(
        compared(&sqlite, &postgres).is_empty(),
        "the two schemas differ:\n{}",
        compared(&sqlite, &postgres).join("\n")
    );

    // And a difference is found: an index, a NOT NULL and a CHECK fewer.
    db.execute_batch(
        "DROP INDEX calls_by_status;
         ALTER TABLE calls ALTER COLUMN description DROP NOT NULL;
         ALTER TABLE calls DROP CONSTRAINT IF EXISTS calls_status_check",
    )
    .expect("changed");
    let found = compared(&sqlite, &postgres_shape(&db));
    assert!(
        found.iter().any(|d| d.starts_with("index on SQLite only"))
            && found.iter().any(|d| d.contains("\"description\"")),
        "{found:?}"
    );
}

/// Every difference between the two shapes, one line each.
fn compared(sqlite: &Shape, postgres: &Shape) -> Vec<String> {
    let mut found = Vec::new();
    found.extend(differences(
        "column",
        &flat_columns(sqlite),
        &flat_columns(postgres),
    ));
    found.extend(differences(
        "primary key",
        &flat(&sqlite.primary_keys),
        &flat(&postgres.primary_keys),
    ));
    found.extend(differences(
        "foreign key",
        &sqlite.foreign_keys,
        &postgres.foreign_keys,
    ));
    found.extend(differences("index", &sqlite.indexes, &postgres.indexes));
    found.extend(differences(
        "index name",
        &sqlite.index_names,
        &postgres.index_names,
    ));
    found.extend(differences(
        "CHECK constraints",
        &flat(&sqlite.checks),
        &flat(&postgres.checks),
    ));
    found.extend(differences("trigger", &sqlite.triggers, &postgres.triggers));
    found
}

#[test]
fn index_columns_are_read_from_postgresql_definitions() {
    assert_eq!(
        index_columns(
            "CREATE UNIQUE INDEX x ON t_1.equipment USING btree (agency_id NULLS FIRST, number_key) WHERE (number_key IS NOT NULL)"
        ),
        "agency_id, number_key"
    );
    assert_eq!(
        index_columns(
            "CREATE INDEX y ON s.clients USING btree (agency_id, fold(name) COLLATE \"C\" DESC)"
        ),
        "agency_id, (expr)"
    );
    assert_eq!(sqlite_class("TEXT"), "text");
    assert_eq!(postgres_class("bigint"), "integer");
}
