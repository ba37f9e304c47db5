//! Surveys (relevés), the deals that asked for them and the data they collected.

use crate::Conn;
use crate::Tx;
use crate::code;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AccountId, AgencyId, DealId, EquipmentId, SurveyId};

use super::StoreResult;

/// Survey statuses: the domain's (see `domain::survey`).
pub use liftdesk_domain::survey::SurveyStatus;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurveyListRow {
    pub id: SurveyId,
    pub number: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurveyRow {
    pub id: SurveyId,
    pub agency_id: String,
    pub equipment_id: EquipmentId,
    pub number: Option<String>,
    /// None only if the stored code is unknown (the table's CHECK forbids it).
    pub status: Option<SurveyStatus>,
    pub reason: Option<String>,
    pub due_on: Option<String>,
    pub surveyed_on: Option<String>,
    pub photo_count: i64,
    /// Number of data the survey recorded (`survey_values`).
    pub field_count: i64,
    pub surveyor_account_id: Option<AccountId>,
    pub created_at: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealRow {
    pub id: DealId,
    pub type_affaire: Option<String>,
    /// `types_etat_des_lieux`, decoded.
    pub inventory_types: Vec<String>,
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
fn like_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One page of the agency's surveys, newest first (created_at desc, id desc),
/// with the number of rows matching across all pages. `number_search` keeps
/// the surveys whose number contains it, case ignored.
pub fn list(
    conn: &Conn,
    agency_id: &AgencyId,
    number_search: Option<&str>,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<SurveyListRow>)> {
    let agency_id = agency_id.as_str();
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let map = |r: &crate::sql::Row<'_>| {
        Ok(SurveyListRow {
            id: r.get(0)?,
            number: r.get(1)?,
        })
    };
    match number_search {
        None => {
            let total: i64 = conn.query_row_cached(
                "SELECT COUNT(*) FROM surveys WHERE agency_id = ?1",
                [agency_id],
                |r| r.get(0),
            )?;
            // The page's ids are found in the (agency_id, created_at, id)
            // index alone, so a deep page does not read the skipped rows.
            let mut stmt = conn.prepare_cached(
                "SELECT s.id, s.number FROM surveys s
                 WHERE s.id IN (SELECT id FROM surveys WHERE agency_id = ?1
                                ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3)
                 ORDER BY s.created_at DESC, s.id DESC",
            )?;
            let rows = stmt.query_map(params![agency_id, limit, offset], map)?;
            Ok((total, rows.collect::<Result<_, _>>()?))
        }
        Some(search) => {
            let pattern = format!("%{}%", like_escape(search));
            let total: i64 = conn.query_row_cached(
                "SELECT COUNT(*) FROM surveys WHERE agency_id = ?1 AND number LIKE ?2 ESCAPE '\\'",
                params![agency_id, pattern],
                |r| r.get(0),
            )?;
            let mut stmt = conn.prepare_cached(
                "SELECT id, number FROM surveys WHERE agency_id = ?1 AND number LIKE ?2 ESCAPE '\\'
                 ORDER BY created_at DESC, id DESC LIMIT ?3 OFFSET ?4",
            )?;
            let rows = stmt.query_map(params![agency_id, pattern, limit, offset], map)?;
            Ok((total, rows.collect::<Result<_, _>>()?))
        }
    }
}

/// A survey of the agency (None when unknown or in another agency).
pub fn get(
    conn: &Conn,
    agency_id: &AgencyId,
    survey_id: &SurveyId,
) -> StoreResult<Option<SurveyRow>> {
    let survey_id = survey_id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT s.id, s.agency_id, s.equipment_id, s.number, s.status, s.reason, s.due_on,
                    s.surveyed_on, s.photo_count,
                    (SELECT COUNT(*) FROM survey_values v WHERE v.survey_id = s.id),
                    s.surveyor_account_id, s.created_at
             FROM surveys s WHERE s.id = ?1 AND s.agency_id = ?2",
        [survey_id, agency_id],
        |r| {
            let status: String = r.get(4)?;
            Ok(SurveyRow {
                id: r.get(0)?,
                agency_id: r.get(1)?,
                equipment_id: r.get(2)?,
                number: r.get(3)?,
                status: SurveyStatus::parse(&status),
                reason: r.get(5)?,
                due_on: r.get(6)?,
                surveyed_on: r.get(7)?,
                photo_count: r.get(8)?,
                field_count: r.get(9)?,
                surveyor_account_id: r.get(10)?,
                created_at: r.get(11)?,
            })
        },
    )
    .optional()
}

/// The deals that asked for the survey, oldest first.
pub fn deals_of(conn: &Conn, survey_id: &SurveyId) -> StoreResult<Vec<DealRow>> {
    let survey_id = survey_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT d.id, d.type_affaire, d.types_etat_des_lieux FROM survey_deals sd
         JOIN deals d ON d.id = sd.deal_id
         WHERE sd.survey_id = ?1 ORDER BY d.created_at, d.id",
    )?;
    let rows = stmt.query_map([survey_id], |r| {
        let types: String = r.get(2)?;
        Ok(DealRow {
            id: r.get(0)?,
            type_affaire: r.get(1)?,
            inventory_types: serde_json::from_str(&types).unwrap_or_default(),
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The data recorded by the survey: (field code, JSON text), in catalog order.
pub fn values(conn: &Conn, survey_id: &SurveyId) -> StoreResult<Vec<(String, String)>> {
    let survey_id = survey_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT v.field_code, v.value FROM survey_values v
         JOIN technical_fields f ON f.code = v.field_code
         WHERE v.survey_id = ?1 ORDER BY f.position, f.code",
    )?;
    let rows = stmt.query_map([survey_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect::<Result<_, _>>()
}

/// Records (or replaces) one datum collected by the survey (JSON text).
pub fn set_value(
    tx: &Tx,
    survey_id: &SurveyId,
    field_code: &str,
    json_value: &str,
) -> StoreResult<()> {
    let survey_id = survey_id.as_str();
    tx.execute_cached(
        "INSERT INTO survey_values (survey_id, field_code, value) VALUES (?1, ?2, ?3)
         ON CONFLICT (survey_id, field_code) DO UPDATE SET value = excluded.value",
        params![survey_id, field_code, json_value],
    )?;
    Ok(())
}

/// Removes one datum from what the survey collected.
pub fn delete_value(tx: &Tx, survey_id: &SurveyId, field_code: &str) -> StoreResult<()> {
    let survey_id = survey_id.as_str();
    tx.execute_cached(
        "DELETE FROM survey_values WHERE survey_id = ?1 AND field_code = ?2",
        params![survey_id, field_code],
    )?;
    Ok(())
}

/// A submission, as `domain::survey::submit` accepted it.
pub struct Submission<'a> {
    pub id: &'a SurveyId,
    /// The status the survey was read in: the update applies only if it is
    /// still that one.
    pub from: &'a str,
    pub to: &'a str,
    /// `YYYY-MM-DD`.
    pub surveyed_on: &'a str,
    /// UTC timestamp: `submitted_at` and `updated_at`.
    pub submitted_at: &'a str,
    /// Becomes the surveyor when the survey has none.
    pub surveyor_account_id: &'a AccountId,
}

/// Marks the survey submitted; false when its status changed meanwhile.
pub fn mark_submitted(tx: &Tx, submission: &Submission<'_>) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE surveys SET status = ?3, surveyed_on = ?4, submitted_at = ?5,
                surveyor_account_id = coalesce(surveyor_account_id, ?6), updated_at = ?5
         WHERE id = ?1 AND status = ?2",
        params![
            submission.id,
            submission.from,
            submission.to,
            submission.surveyed_on,
            submission.submitted_at,
            submission.surveyor_account_id
        ],
    )?;
    Ok(changed == 1)
}

/// Moves the survey from `from` to `to` (saved `en_cours`, or cancelled);
/// false when its status changed meanwhile. The surveyor, when given,
/// becomes the survey's if it has none.
pub fn mark_status(
    tx: &Tx,
    id: &SurveyId,
    from: &str,
    to: &str,
    surveyor_account_id: Option<&AccountId>,
) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE surveys SET status = ?3, surveyor_account_id = coalesce(surveyor_account_id, ?4),
                updated_at = ?5
         WHERE id = ?1 AND status = ?2",
        params![id, from, to, surveyor_account_id, tx.now_text()],
    )?;
    Ok(changed == 1)
}

/// How many photos the survey holds, as the technician's app counts them.
pub fn set_photo_count(tx: &Tx, id: &SurveyId, photo_count: i64) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE surveys SET photo_count = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, photo_count, tx.now_text()],
    )?;
    Ok(())
}

/// The day the survey is wanted by (`YYYY-MM-DD`), or none.
pub fn set_due_on(tx: &Tx, id: &SurveyId, due_on: Option<&str>) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE surveys SET due_on = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, due_on, tx.now_text()],
    )?;
    Ok(())
}

// -- Partner workflow API ----------------------------------------------------

/// The open survey (`a_realiser` or `en_cours`) of an equipment, the most
/// recent first: its id and surveyor.
pub fn open_for_equipment(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<(SurveyId, Option<AccountId>)>> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT id, surveyor_account_id FROM surveys
             WHERE agency_id = ?1 AND equipment_id = ?2 AND status IN ('a_realiser', 'en_cours')
             ORDER BY created_at DESC, id DESC LIMIT 1",
        [agency_id, equipment_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// The next number of the agency for that year: `REL-YYYY-NNNNN`.
pub fn next_number(conn: &Conn, agency_id: &AgencyId, year: i32) -> StoreResult<String> {
    let agency_id = agency_id.as_str();
    let prefix = format!("REL-{year}-");
    let highest: Option<i64> = conn.query_row_cached(
        "SELECT MAX(CAST(substr(number, length(?2) + 1) AS INTEGER)) FROM surveys
         WHERE agency_id = ?1 AND number LIKE ?2 || '%'",
        crate::sql::params![agency_id, prefix],
        |r| r.get(0),
    )?;
    Ok(format!("{prefix}{:05}", highest.unwrap_or(0) + 1))
}

/// A new survey `a_realiser` of an equipment; its id.
pub fn insert_to_do(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    number: &str,
    surveyor_account_id: Option<&AccountId>,
    reason: Option<&str>,
) -> StoreResult<SurveyId> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let id = SurveyId::new(crate::new_id());
    let now = tx.now_text();
    tx.execute_cached(
        "INSERT INTO surveys (id, agency_id, equipment_id, number, status, reason, surveyor_account_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, 'a_realiser', ?5, ?6, ?7, ?7)",
        crate::sql::params![id, agency_id, equipment_id, number, reason, surveyor_account_id, now],
    )?;
    Ok(id)
}

pub fn set_surveyor(
    tx: &Tx,
    survey_id: &SurveyId,
    surveyor_account_id: &AccountId,
) -> StoreResult<()> {
    let survey_id = survey_id.as_str();
    tx.execute_cached(
        "UPDATE surveys SET surveyor_account_id = ?2, updated_at = ?3 WHERE id = ?1",
        crate::sql::params![survey_id, surveyor_account_id, tx.now_text()],
    )?;
    Ok(())
}

pub fn link_deal(tx: &Tx, survey_id: &SurveyId, deal_id: &DealId) -> StoreResult<()> {
    tx.execute_cached(
        "INSERT OR IGNORE INTO survey_deals (survey_id, deal_id) VALUES (?1, ?2)",
        crate::sql::params![survey_id, deal_id],
    )?;
    Ok(())
}

/// A survey as the Equipment screen lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquipmentSurveyRow {
    pub id: SurveyId,
    pub number: Option<String>,
    pub status: SurveyStatus,
    pub due_on: Option<String>,
    pub surveyed_on: Option<String>,
    pub created_at: String,
}

/// The equipment's latest surveys (at most `limit`, newest first) and how many it has.
pub fn recent_of_equipment(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    limit: u32,
) -> StoreResult<(i64, Vec<EquipmentSurveyRow>)> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let total: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM surveys WHERE equipment_id = ?1 AND agency_id = ?2",
        [equipment_id, agency_id],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(
        "SELECT id, number, status, due_on, surveyed_on, created_at FROM surveys
         WHERE equipment_id = ?1 AND agency_id = ?2
         ORDER BY created_at DESC, id DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map(params![equipment_id, agency_id, limit], |r| {
        Ok(EquipmentSurveyRow {
            id: r.get(0)?,
            number: r.get(1)?,
            status: code(r, 2)?,
            due_on: r.get(3)?,
            surveyed_on: r.get(4)?,
            created_at: r.get(5)?,
        })
    })?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// What the surveys screen shows of a survey beyond the REST list row: its
/// status, equipment, surveyor and days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurveySummaryRow {
    pub id: SurveyId,
    pub status: SurveyStatus,
    pub equipment_id: EquipmentId,
    pub equipment_number: Option<String>,
    /// The equipment's type code (`ascenseur`…).
    pub equipment_type: Option<String>,
    pub surveyor_name: Option<String>,
    pub due_on: Option<String>,
    pub surveyed_on: Option<String>,
    pub submitted_at: Option<String>,
    pub created_at: String,
}

/// The summaries of the given surveys of the agency, in no particular order
/// (the caller keeps its own); ids of another agency are left out.
pub fn summaries(
    conn: &Conn,
    agency_id: &AgencyId,
    ids: &[String],
) -> StoreResult<Vec<SurveySummaryRow>> {
    let agency_id = agency_id.as_str();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // A page is at most 200 rows: one placeholder per id stays far below
    // SQLite's limit on parameters.
    let placeholders = (0..ids.len())
        .map(|i| format!("?{}", i + 2))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT s.id, s.status, s.equipment_id, e.number, e.type,
                coalesce(a.name, a.email), s.due_on, s.surveyed_on, s.submitted_at, s.created_at
         FROM surveys s
         JOIN equipment e ON e.id = s.equipment_id
         LEFT JOIN accounts a ON a.id = s.surveyor_account_id
         WHERE s.agency_id = ?1 AND s.id IN ({placeholders})"
    );
    let mut stmt = conn.prepare(&sql)?;
    let mut values: Vec<&dyn crate::sql::ToValue> = Vec::with_capacity(ids.len() + 1);
    values.push(&agency_id);
    for id in ids {
        values.push(id);
    }
    let rows = stmt.query_map(values.as_slice(), |r| {
        Ok(SurveySummaryRow {
            id: r.get(0)?,
            status: code(r, 1)?,
            equipment_id: r.get(2)?,
            equipment_number: r.get(3)?,
            equipment_type: r.get(4)?,
            surveyor_name: r.get(5)?,
            due_on: r.get(6)?,
            surveyed_on: r.get(7)?,
            submitted_at: r.get(8)?,
            created_at: r.get(9)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}
