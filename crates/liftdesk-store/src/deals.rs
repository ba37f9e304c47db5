//! Deals ("affaires") of the partner workflow API.

use crate::Conn;
use crate::Tx;
use liftdesk_domain::id::{AccountId, AgencyId, ClientId, DealId};

use super::StoreResult;

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
pub fn count(conn: &Conn, agency_id: &AgencyId, filter: &DealFilter) -> StoreResult<i64> {
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT COUNT(*) FROM deals
         WHERE agency_id = ?1
           AND (?2 IS NULL OR substr(created_at, 1, 10) >= ?2)
           AND (?3 IS NULL OR substr(created_at, 1, 10) <= ?3)
           AND (?4 IS NULL OR type_affaire = ?4)
           AND (?5 IS NULL OR category = ?5)",
        crate::sql::params![
            agency_id,
            filter.from,
            filter.to,
            filter.type_affaire,
            filter.category
        ],
        |r| r.get(0),
    )
}

/// The deal of the agency with that external opportunity id.
pub fn find_by_external_id(
    conn: &Conn,
    agency_id: &AgencyId,
    external_id: &str,
) -> StoreResult<Option<DealId>> {
    let agency_id = agency_id.as_str();
    use crate::sql::OptionalExtension;
    conn.query_row_cached(
        "SELECT id FROM deals WHERE agency_id = ?1 AND external_opportunity_id = ?2",
        [agency_id, external_id],
        |r| r.get(0),
    )
    .optional()
}

/// A new deal (`Ouverte`); its id.
pub struct NewDeal<'a> {
    pub agency_id: &'a str,
    pub type_affaire: Option<&'a str>,
    /// JSON array text.
    pub types_etat_des_lieux: &'a str,
    pub external_opportunity_id: Option<&'a str>,
    pub requester_email: &'a str,
    pub surveyor_account_id: &'a AccountId,
    pub client_id: Option<&'a ClientId>,
}

pub fn insert(tx: &Tx, deal: &NewDeal<'_>) -> StoreResult<DealId> {
    let id = DealId::new(crate::new_id());
    let now = tx.now_text();
    tx.execute_cached(
        "INSERT INTO deals (id, agency_id, type_affaire, types_etat_des_lieux, external_opportunity_id,
             requester_email, surveyor_account_id, client_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
        crate::sql::params![
            id,
            deal.agency_id,
            deal.type_affaire,
            deal.types_etat_des_lieux,
            deal.external_opportunity_id,
            deal.requester_email,
            deal.surveyor_account_id,
            deal.client_id,
            now
        ],
    )?;
    Ok(id)
}

/// Moves the deal of the agency to `category`; false when the agency has
/// no such deal.
pub fn set_category(
    tx: &Tx,
    agency_id: &AgencyId,
    id: &DealId,
    category: &str,
) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE deals SET category = ?3, updated_at = ?4 WHERE agency_id = ?1 AND id = ?2",
        crate::sql::params![agency_id, id, category, tx.now_text()],
    )?;
    Ok(changed == 1)
}
