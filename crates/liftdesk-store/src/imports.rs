//! Uploaded spreadsheets waiting for verification and import
//! (`import_files`): each belongs to an agency and expires.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AccountId, AgencyId, ImportId};

use super::StoreResult;

/// An uploaded file, without its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportFileRow {
    pub id: ImportId,
    pub agency_id: String,
    pub name: String,
    /// The header row as read.
    pub columns: Vec<String>,
    /// Data rows.
    pub row_count: i64,
    pub created_by: Option<AccountId>,
    pub created_at: String,
    pub expires_at: String,
}

fn file_from_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<ImportFileRow> {
    let columns: String = r.get(3)?;
    Ok(ImportFileRow {
        id: r.get(0)?,
        agency_id: r.get(1)?,
        name: r.get(2)?,
        // The column is written by `insert` only, always a JSON array.
        columns: serde_json::from_str(&columns).unwrap_or_default(),
        row_count: r.get(4)?,
        created_by: r.get(5)?,
        created_at: r.get(6)?,
        expires_at: r.get(7)?,
    })
}

/// Stores a file read from an upload; `content` is the table as read.
pub fn insert(tx: &Tx, file: &ImportFileRow, content: &[u8]) -> StoreResult<()> {
    tx.execute_cached(
        "INSERT INTO import_files (id, agency_id, name, content, columns, row_count, created_by,
             created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            file.id,
            file.agency_id,
            file.name,
            content,
            serde_json::Value::from(file.columns.clone()).to_string(),
            file.row_count,
            file.created_by,
            file.created_at,
            file.expires_at,
        ],
    )?;
    Ok(())
}

/// The agency's file with that id, unless it has expired at `now`.
pub fn get(
    conn: &Conn,
    agency_id: &AgencyId,
    file_id: &ImportId,
    now: &str,
) -> StoreResult<Option<ImportFileRow>> {
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT id, agency_id, name, columns, row_count, created_by, created_at, expires_at
             FROM import_files WHERE id = ?1 AND agency_id = ?2 AND expires_at > ?3",
        params![file_id, agency_id, now],
        file_from_row,
    )
    .optional()
}

/// The stored content of the agency's file, unless it has expired at `now`.
pub fn content(
    conn: &Conn,
    agency_id: &AgencyId,
    file_id: &ImportId,
    now: &str,
) -> StoreResult<Option<Vec<u8>>> {
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT content FROM import_files WHERE id = ?1 AND agency_id = ?2 AND expires_at > ?3",
        params![file_id, agency_id, now],
        |r| r.get(0),
    )
    .optional()
}

/// Deletes every file expired at `now`; how many.
pub fn delete_expired(tx: &Tx, now: &str) -> StoreResult<usize> {
    tx.execute_cached("DELETE FROM import_files WHERE expires_at <= ?1", [now])
}
