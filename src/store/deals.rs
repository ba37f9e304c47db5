//! Deals ("affaires") of the partner workflow API.

use rusqlite::Connection;

use crate::error::AppResult;

/// Filters of `/get_opportunities_stats`: all optional, dates inclusive
/// (`YYYY-MM-DD`, compared with the day of `created_at`, UTC).
#[derive(Debug, Clone, Default)]
pub struct DealFilter {
    pub from: Option<String>,
    pub to: Option<String>,
    pub type_affaire: Option<String>,
    pub category: Option<String>,
}

/// How many deals of that one agency match.
pub fn count(conn: &Connection, agency_id: &str, filter: &DealFilter) -> AppResult<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM deals
         WHERE agency_id = ?1
           AND (?2 IS NULL OR substr(created_at, 1, 10) >= ?2)
           AND (?3 IS NULL OR substr(created_at, 1, 10) <= ?3)
           AND (?4 IS NULL OR type_affaire = ?4)
           AND (?5 IS NULL OR category = ?5)",
        rusqlite::params![
            agency_id,
            filter.from,
            filter.to,
            filter.type_affaire,
            filter.category
        ],
        |r| r.get(0),
    )?)
}
