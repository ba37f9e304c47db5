//! Discrepancies (écarts): what a survey found wrong on an equipment.

use rusqlite::{Transaction, params};

use super::new_id;
use crate::clock;
use crate::error::AppResult;

pub struct NewDiscrepancy<'a> {
    pub agency_id: &'a str,
    pub equipment_id: &'a str,
    pub survey_id: &'a str,
    /// None for the whole equipment.
    pub component: Option<&'a str>,
    pub finding: &'a str,
    pub created_by: Option<&'a str>,
}

/// Inserts the discrepancy and returns its id.
pub fn insert(tx: &Transaction, new: &NewDiscrepancy<'_>) -> AppResult<String> {
    let id = new_id();
    tx.execute(
        "INSERT INTO discrepancies (id, agency_id, equipment_id, survey_id, component, finding, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            id,
            new.agency_id,
            new.equipment_id,
            new.survey_id,
            new.component,
            new.finding,
            new.created_by,
            clock::now_text()
        ],
    )?;
    Ok(id)
}
