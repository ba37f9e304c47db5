//! Discrepancies (écarts): what a survey found wrong on an equipment.

use crate::Conn;
use crate::Tx;
use crate::sql::params;
use liftdesk_domain::id::{AccountId, AgencyId, EquipmentId, SurveyId};

use super::new_id;

use super::StoreResult;

pub struct NewDiscrepancy<'a> {
    pub agency_id: &'a str,
    pub equipment_id: &'a EquipmentId,
    pub survey_id: &'a SurveyId,
    /// None for the whole equipment.
    pub component: Option<&'a str>,
    pub finding: &'a str,
    pub created_by: Option<&'a AccountId>,
}

/// Inserts the discrepancy and returns its id.
pub fn insert(tx: &Tx, new: &NewDiscrepancy<'_>) -> StoreResult<String> {
    let id = new_id();
    tx.execute_cached(
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
            tx.now_text()
        ],
    )?;
    Ok(id)
}

/// A discrepancy as the survey's page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscrepancyRow {
    pub id: String,
    /// None for the whole equipment.
    pub component: Option<String>,
    pub finding: String,
    /// Who reported it: the account's name, else its e-mail.
    pub author: Option<String>,
    pub created_at: String,
}

/// One page of the discrepancies a survey of the agency found, newest first,
/// with how many there are.
pub fn of_survey(
    conn: &Conn,
    agency_id: &AgencyId,
    survey_id: &SurveyId,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<DiscrepancyRow>)> {
    let survey_id = survey_id.as_str();
    let agency_id = agency_id.as_str();
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let total: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM discrepancies WHERE survey_id = ?1 AND agency_id = ?2",
        [survey_id, agency_id],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(
        "SELECT d.id, d.component, d.finding, coalesce(a.name, a.email), d.created_at
         FROM discrepancies d LEFT JOIN accounts a ON a.id = d.created_by
         WHERE d.survey_id = ?1 AND d.agency_id = ?2
         ORDER BY d.created_at DESC, d.id DESC LIMIT ?3 OFFSET ?4",
    )?;
    let rows = stmt.query_map(params![survey_id, agency_id, limit, offset], |r| {
        Ok(DiscrepancyRow {
            id: r.get(0)?,
            component: r.get(1)?,
            finding: r.get(2)?,
            author: r.get(3)?,
            created_at: r.get(4)?,
        })
    })?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}
