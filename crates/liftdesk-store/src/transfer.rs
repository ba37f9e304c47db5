//! `liftdesk migrate --to postgresql://…`: a desktop's SQLite database
//! copied as it is into an empty PostgreSQL database (the agency server's),
//! in one transaction: every row of every table with its ids, the series
//! counters, the outbox and its deliveries, the audit log (its `seq`, and
//! the identity that numbers the next entries after it). Both databases are
//! at this version's schema (each is brought up to date when opened); the
//! two schemas are the same (`tests/it/schemas.rs`), so each table's
//! columns are PostgreSQL's own list, read from SQLite by name.
//!
//! What the triggers keep (the invoice counts by day and status, the
//! equipment's count of surveyed fields) is copied as SQLite's triggers
//! kept it, PostgreSQL's triggers off during the copy (on, they made the
//! copy quadratic in the invoices); then every table of both databases is
//! read again and compared row by row, the derived ones included, and the
//! counts are recounted on the copy from what they count (`counts::wrong`): the
//! copy commits only if both hold.

use std::collections::BTreeSet;

use crate::sql::{Value, params, params_from_iter};
use crate::{Conn, Store, StoreError, StoreResult, Tx};

/// What was copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    /// Rows per table, in the order the tables were written.
    pub tables: Vec<(String, u64)>,
    pub rows: u64,
}

/// Tables the triggers fill as the invoices are written: copied as they
/// are, the triggers off during the copy; a count back to 0 may stay as a
/// row on either side, so rows of 0 are left out of the comparison.
const KEPT_BY_TRIGGERS: [&str; 4] = [
    "invoice_day_counts",
    "invoice_client_day_counts",
    "invoice_status_counts",
    "invoice_client_status_counts",
];

/// A table of the target: its columns (written ones; generated ones are
/// computed again) and the columns that refer to the table itself.
#[derive(Debug)]
struct Table {
    name: String,
    columns: Vec<String>,
    /// (column, referenced column) of a foreign key to the same table.
    self_references: Vec<(String, String)>,
    /// Identity columns (numbered by a sequence the copy moves on).
    identities: Vec<String>,
    /// Nullable references to a table written later (the tables refer to
    /// each other: an agency and its current identity): written empty,
    /// then set once every table is written.
    deferred: Vec<String>,
    /// The primary key's columns (what a deferred reference is set by).
    key: Vec<String>,
}

/// Copies `source` (a SQLite store, no server on it) into `target` (a
/// PostgreSQL store whose Liftdesk tables are empty).
pub fn sqlite_to_postgres(source: &Store, target: &Store) -> StoreResult<Transfer> {
    if source.shared() || !target.shared() {
        return Err(StoreError::File(
            "La copie va d'une base SQLite vers une base PostgreSQL.".to_owned(),
        ));
    }
    let tables = target.read_blocking(tables_of_target)?;
    let triggered = target.read_blocking(crate::counts::tables_with_triggers)?;
    target.write_blocking(|tx| {
        refuse_unless_empty(tx, &tables)?;
        // The counts the triggers keep are copied with the rest, the
        // triggers off meanwhile (in this transaction only: ALTER TABLE is
        // transactional; the tables' owner, who migrated them, may): kept
        // on, each invoice written would update the same few counter rows
        // again, each update stepping over every earlier version of the
        // row in this one transaction (quadratic: a million invoices did
        // not finish in 7 minutes).
        for table in &triggered {
            tx.batch(&format!("ALTER TABLE \"{table}\" DISABLE TRIGGER USER"))?;
        }
        let mut copied = Vec::new();
        let mut rows = 0;
        let mut deferred_rows = Vec::new();
        for table in &tables {
            if count(tx, &table.name)? > 0 {
                // The technical fields' catalogue, which the migrations
                // write: the same on both, compared below with the rest.
                continue;
            }
            let source_rows = source.read_blocking(|conn| read_rows(conn, table))?;
            if !table.deferred.is_empty() {
                deferred_rows.push((table, source_rows.clone()));
            }
            let written = write_rows(tx, table, source_rows)?;
            rows += written;
            copied.push((table.name.clone(), written));
            for column in &table.identities {
                move_identity_on(tx, &table.name, column)?;
            }
        }
        for (table, source_rows) in deferred_rows {
            set_deferred(tx, table, &source_rows)?;
        }
        for table in &triggered {
            tx.batch(&format!("ALTER TABLE \"{table}\" ENABLE TRIGGER USER"))?;
        }
        for table in &tables {
            let (ours, theirs) = (
                counted(table, source.read_blocking(|conn| read_rows(conn, table))?),
                counted(table, read_rows(tx, table)?),
            );
            if ours != theirs {
                let column = ours
                    .iter()
                    .zip(&theirs)
                    .find_map(|(a, b)| (0..a.len()).find(|i| a.get(*i) != b.get(*i)))
                    .and_then(|i| table.columns.get(i))
                    .map_or_else(String::new, |c| format!(", colonne {c}"));
                return Err(StoreError::File(format!(
                    "La table {} diffère après la copie ({} lignes dans SQLite, {} dans PostgreSQL{column}) : rien n'a été gardé.",
                    table.name,
                    ours.len(),
                    theirs.len()
                )));
            }
        }
        // Equal to SQLite's, the counts must also be true: a count SQLite
        // kept wrong (a file damaged, or edited by hand) would make every
        // total of the agency server's lists wrong from now on.
        if let Some((table, wrong)) = crate::counts::wrong(tx)?.first() {
            return Err(StoreError::File(format!(
                "Les compteurs de la base SQLite ne correspondent pas à ce qu'ils comptent (table {table}, {wrong} ligne(s) fausse(s)) : rien n'a été gardé."
            )));
        }
        Ok(Transfer {
            tables: copied,
            rows,
        })
    })
}

/// The target's tables, each after the ones it refers to.
fn tables_of_target(conn: &Conn) -> StoreResult<Vec<Table>> {
    let names: Vec<String> = conn
        .prepare(
            "SELECT table_name FROM information_schema.tables
              WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                AND table_name <> 'refinery_schema_history'
              ORDER BY table_name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<StoreResult<_>>()?;
    // (table, referenced table, column, referenced column)
    let references: Vec<(String, String, String, String)> = conn
        .prepare(
            "SELECT kcu.table_name, ccu.table_name, kcu.column_name, ccu.column_name
               FROM information_schema.table_constraints tc
               JOIN information_schema.key_column_usage kcu
                 ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
               JOIN information_schema.constraint_column_usage ccu
                 ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
              WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<StoreResult<_>>()?;
    let nullable: BTreeSet<(String, String)> = conn
        .prepare(
            "SELECT table_name, column_name FROM information_schema.columns
              WHERE table_schema = current_schema() AND is_nullable = 'YES'",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<StoreResult<_>>()?;
    // The references to another table not yet placed, by table.
    let blocking = |name: &str, placed: &BTreeSet<String>| -> Vec<(String, bool)> {
        references
            .iter()
            .filter(|(table, referenced, ..)| {
                table == name && referenced != name && !placed.contains(referenced)
            })
            .map(|(table, _, column, _)| {
                (
                    column.clone(),
                    nullable.contains(&(table.clone(), column.clone())),
                )
            })
            .collect()
    };
    let mut ordered: Vec<(String, Vec<String>)> = Vec::new();
    let mut placed: BTreeSet<String> = BTreeSet::new();
    while ordered.len() < names.len() {
        let before = ordered.len();
        for name in &names {
            if !placed.contains(name) && blocking(name, &placed).is_empty() {
                placed.insert(name.clone());
                ordered.push((name.clone(), Vec::new()));
            }
        }
        if ordered.len() == before {
            // A cycle: a table whose references still unmet may be empty
            // at first goes now, those references set at the end.
            let breaking = names.iter().find_map(|name| {
                let blocked = blocking(name, &placed);
                (!placed.contains(name) && blocked.iter().all(|(_, nullable)| *nullable))
                    .then(|| (name.clone(), blocked.into_iter().map(|(c, _)| c).collect()))
            });
            let Some((name, deferred)) = breaking else {
                return Err(StoreError::File(
                    "Les clés étrangères des tables forment un cycle sans colonne facultative : copie impossible.".to_owned(),
                ));
            };
            placed.insert(name.clone());
            ordered.push((name, deferred));
        }
    }
    ordered
        .into_iter()
        .map(|(name, deferred)| {
            let key: Vec<String> = conn
                .prepare(
                    "SELECT kcu.column_name
                       FROM information_schema.table_constraints tc
                       JOIN information_schema.key_column_usage kcu
                         ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
                      WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = current_schema()
                        AND tc.table_name = ?1
                      ORDER BY kcu.ordinal_position",
                )?
                .query_map(params![name], |r| r.get(0))?
                .collect::<StoreResult<_>>()?;
            let columns: Vec<(String, bool)> = conn
                .prepare(
                    "SELECT column_name, is_identity FROM information_schema.columns
                      WHERE table_schema = current_schema() AND table_name = ?1
                        AND is_generated = 'NEVER'
                      ORDER BY ordinal_position",
                )?
                .query_map(params![name], |r| {
                    let identity: String = r.get(1)?;
                    Ok((r.get(0)?, identity == "YES"))
                })?
                .collect::<StoreResult<_>>()?;
            let self_references = references
                .iter()
                .filter(|(table, referenced, ..)| *table == name && *referenced == name)
                .map(|(_, _, column, to)| (column.clone(), to.clone()))
                .collect();
            Ok(Table {
                identities: columns
                    .iter()
                    .filter(|(_, identity)| *identity)
                    .map(|(column, _)| column.clone())
                    .collect(),
                columns: columns.into_iter().map(|(column, _)| column).collect(),
                self_references,
                deferred,
                key,
                name,
            })
        })
        .collect()
}

/// Refuses a target that already holds an installation.
fn refuse_unless_empty(tx: &Tx, tables: &[Table]) -> StoreResult<()> {
    for table in [
        "organizations",
        "agencies",
        "accounts",
        "audit_log",
        "outbox_events",
    ] {
        if tables.iter().any(|t| t.name == table) && count(tx, table)? > 0 {
            return Err(StoreError::File(format!(
                "La base PostgreSQL n'est pas vide (table {table}) : la copie se fait dans une base neuve, rien n'a été écrit."
            )));
        }
    }
    Ok(())
}

fn count(conn: &Conn, table: &str) -> StoreResult<i64> {
    conn.query_row(&format!("SELECT COUNT(*) FROM \"{table}\""), [], |r| {
        r.get(0)
    })
}

fn column_list(table: &Table) -> String {
    table
        .columns
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every row of the table, its columns in the target's order.
fn read_rows(conn: &Conn, table: &Table) -> StoreResult<Vec<Vec<Value>>> {
    let width = table.columns.len();
    conn.prepare(&format!(
        "SELECT {} FROM \"{}\"",
        column_list(table),
        table.name
    ))?
    .query_map([], |row| (0..width).map(|i| row.get::<Value>(i)).collect())?
    .collect()
}

/// The rows in one order, whatever the engine's, to compare; of a count
/// kept by triggers, those that count something (a count back to 0 stays
/// as a row on the source, the copy writes none).
fn counted(table: &Table, mut rows: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    if KEPT_BY_TRIGGERS.contains(&table.name.as_str())
        && let Some(n) = table.columns.iter().position(|c| c == "n")
    {
        rows.retain(|row| row[n] != Value::Integer(0));
    }
    rows.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    rows
}

/// Writes the rows, those a row of the same table refers to first.
fn write_rows(tx: &Tx, table: &Table, rows: Vec<Vec<Value>>) -> StoreResult<u64> {
    let total = rows.len();
    let mut rows = referenced_first(table, rows)?;
    let deferred: Vec<usize> = table
        .deferred
        .iter()
        .filter_map(|column| table.columns.iter().position(|c| c == column))
        .collect();
    for row in &mut rows {
        for index in &deferred {
            row[*index] = Value::Null;
        }
    }
    let values: Vec<Value> = rows.into_iter().flatten().collect();
    tx.insert_rows(
        &format!("INSERT INTO \"{}\" ({})", table.name, column_list(table)),
        table.columns.len(),
        &values,
        false,
    )?;
    Ok(u64::try_from(total).unwrap_or(u64::MAX))
}

/// The rows ordered so that a row comes after the row of the same table
/// it refers to (an agency's parent, a credit note's invoice).
fn referenced_first(table: &Table, rows: Vec<Vec<Value>>) -> StoreResult<Vec<Vec<Value>>> {
    if table.self_references.is_empty() {
        return Ok(rows);
    }
    let index_of = |column: &str| table.columns.iter().position(|c| c == column);
    let links: Vec<(usize, usize)> = table
        .self_references
        .iter()
        .filter_map(|(column, to)| Some((index_of(column)?, index_of(to)?)))
        .collect();
    let mut written: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut left = rows;
    let mut ordered = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let (ready, waiting): (Vec<_>, Vec<_>) = left.into_iter().partition(|row| {
            links.iter().all(|(column, to)| match &row[*column] {
                Value::Null => true,
                value => written.contains(&(*to, format!("{value:?}"))),
            })
        });
        if ready.is_empty() {
            return Err(StoreError::Encoding(format!(
                "des lignes de la table {} se désignent en boucle",
                table.name
            )));
        }
        for row in &ready {
            for (_, to) in &links {
                written.insert((*to, format!("{:?}", row[*to])));
            }
        }
        ordered.extend(ready);
        left = waiting;
    }
    Ok(ordered)
}

/// Sets the references written empty (`Table::deferred`) to their values,
/// row by row, by primary key.
fn set_deferred(tx: &Tx, table: &Table, rows: &[Vec<Value>]) -> StoreResult<()> {
    let index_of = |column: &str| {
        table
            .columns
            .iter()
            .position(|c| c == column)
            .ok_or_else(|| {
                StoreError::File(format!(
                    "Colonne {column} absente de la table {}.",
                    table.name
                ))
            })
    };
    let key = table
        .key
        .iter()
        .map(|c| index_of(c))
        .collect::<StoreResult<Vec<_>>>()?;
    if key.is_empty() {
        return Err(StoreError::File(format!(
            "La table {} n'a pas de clé primaire : copie impossible.",
            table.name
        )));
    }
    for column in &table.deferred {
        let at = index_of(column)?;
        let condition: Vec<String> = table
            .key
            .iter()
            .enumerate()
            .map(|(i, c)| format!("\"{c}\" = ?{}", i + 2))
            .collect();
        let sql = format!(
            "UPDATE \"{}\" SET \"{column}\" = ?1 WHERE {}",
            table.name,
            condition.join(" AND ")
        );
        for row in rows.iter().filter(|row| row[at] != Value::Null) {
            let values: Vec<&Value> = std::iter::once(&row[at])
                .chain(key.iter().map(|i| &row[*i]))
                .collect();
            tx.execute_cached(&sql, params_from_iter(values))?;
        }
    }
    Ok(())
}

/// The identity's sequence set past the highest value copied.
fn move_identity_on(tx: &Tx, table: &str, column: &str) -> StoreResult<()> {
    tx.query_row(
        &format!(
            "SELECT setval(pg_get_serial_sequence(?1, ?2), COALESCE(MAX(\"{column}\"), 0) + 1, false) FROM \"{table}\""
        ),
        params![format!("\"{table}\""), column],
        |r| r.get::<i64>(0),
    )?;
    Ok(())
}
