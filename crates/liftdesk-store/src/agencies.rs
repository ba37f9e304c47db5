//! Organizations and agencies.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AccountId, AgencyId, OrganizationId};

use super::new_id;

use super::StoreResult;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgencyRow {
    pub id: AgencyId,
    pub name: String,
    pub organization_id: OrganizationId,
    pub organization_name: String,
    pub v1_id: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrganizationKind {
    Client,
    Operator,
}

impl OrganizationKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Client => "client",
            Self::Operator => "operator",
        }
    }
}

pub fn create_organization(
    tx: &Tx,
    name: &str,
    kind: OrganizationKind,
) -> StoreResult<OrganizationId> {
    let id = OrganizationId::new(new_id());
    tx.execute_cached(
        "INSERT INTO organizations (id, name, kind, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, name, kind.as_str(), tx.now_text()],
    )?;
    Ok(id)
}

/// The service operator's organization, created on first use.
pub fn operator_organization(tx: &Tx) -> StoreResult<OrganizationId> {
    let existing: Option<OrganizationId> = tx
        .query_row_cached(
            "SELECT id FROM organizations WHERE kind = 'operator'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    match existing {
        Some(id) => Ok(id),
        None => create_organization(tx, "Opérateur du service", OrganizationKind::Operator),
    }
}

pub fn organization_exists(conn: &Conn, id: &OrganizationId) -> StoreResult<bool> {
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM organizations WHERE id = ?1 AND kind = 'client')",
        [id],
        |r| r.get(0),
    )
}

/// Creates the agency; a V1 identifier already given to another agency is a
/// conflict on [`constraint::AGENCY_V1_ID`](super::constraint::AGENCY_V1_ID).
pub fn create_agency(
    tx: &Tx,
    organization_id: &OrganizationId,
    name: &str,
    v1_id: Option<&str>,
) -> StoreResult<String> {
    let id = new_id();
    tx.execute_cached(
        "INSERT INTO agencies (id, organization_id, name, v1_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, organization_id, name, v1_id, tx.now_text()],
    )?;
    Ok(id)
}

pub(crate) const AGENCY_COLUMNS: &str = "a.id, a.name, a.organization_id, o.name, a.v1_id";

pub(crate) fn agency_from_row(row: &crate::sql::Row<'_>) -> crate::StoreResult<AgencyRow> {
    Ok(AgencyRow {
        id: AgencyId::new(row.get::<String>(0)?),
        name: row.get(1)?,
        organization_id: row.get(2)?,
        organization_name: row.get(3)?,
        v1_id: row.get(4)?,
    })
}

/// The agency `id`, archived or not (its documents keep naming it).
pub fn get_agency(conn: &Conn, id: &str) -> StoreResult<Option<AgencyRow>> {
    conn
        .query_row_cached(
            &format!("SELECT {AGENCY_COLUMNS} FROM agencies a JOIN organizations o ON o.id = a.organization_id WHERE a.id = ?1"),
            [id],
            agency_from_row,
        )
        .optional()
}

/// The organization's working agencies (an archived one is in no scope).
pub fn agencies_of_organization(
    conn: &Conn,
    organization_id: &OrganizationId,
) -> StoreResult<Vec<AgencyRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {AGENCY_COLUMNS} FROM agencies a JOIN organizations o ON o.id = a.organization_id
         WHERE a.organization_id = ?1 AND a.archived_at IS NULL
         ORDER BY a.name COLLATE FRANCAIS, a.id"
    ))?;
    let rows = stmt.query_map([organization_id], agency_from_row)?;
    rows.collect::<Result<_, _>>()
}

/// Every working agency of every client organization (the service
/// operator's view).
pub fn all_agencies(conn: &Conn) -> StoreResult<Vec<AgencyRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {AGENCY_COLUMNS} FROM agencies a JOIN organizations o ON o.id = a.organization_id
         WHERE o.kind = 'client' AND a.archived_at IS NULL
         ORDER BY o.name COLLATE FRANCAIS, a.name COLLATE FRANCAIS, a.id"
    ))?;
    let rows = stmt.query_map([], agency_from_row)?;
    rows.collect::<Result<_, _>>()
}

/// The working agencies given to an account that is neither org admin nor
/// operator.
pub fn agencies_of_account(conn: &Conn, account_id: &AccountId) -> StoreResult<Vec<AgencyRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {AGENCY_COLUMNS} FROM account_agencies aa
         JOIN agencies a ON a.id = aa.agency_id JOIN organizations o ON o.id = a.organization_id
         WHERE aa.account_id = ?1 AND a.archived_at IS NULL ORDER BY a.name COLLATE FRANCAIS, a.id"
    ))?;
    let rows = stmt.query_map([account_id], agency_from_row)?;
    rows.collect::<Result<_, _>>()
}

/// The agency `id` if it works (not archived): what a new account, key or
/// attribution may name.
pub fn get_live_agency(conn: &Conn, id: &str) -> StoreResult<Option<AgencyRow>> {
    conn
        .query_row_cached(
            &format!("SELECT {AGENCY_COLUMNS} FROM agencies a JOIN organizations o ON o.id = a.organization_id WHERE a.id = ?1 AND a.archived_at IS NULL"),
            [id],
            agency_from_row,
        )
        .optional()
}

/// An agency of the organization as its administrators manage it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgencyRecord {
    pub agency: AgencyRow,
    pub created_at: String,
    pub archived_at: Option<String>,
}

/// Every agency of the organization, archived ones included: working ones
/// first, each group by name.
pub fn records_of_organization(
    conn: &Conn,
    organization_id: &OrganizationId,
) -> StoreResult<Vec<AgencyRecord>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {AGENCY_COLUMNS}, a.created_at, a.archived_at
           FROM agencies a JOIN organizations o ON o.id = a.organization_id
          WHERE a.organization_id = ?1
          ORDER BY a.archived_at IS NOT NULL, a.name COLLATE FRANCAIS, a.id"
    ))?;
    let rows = stmt.query_map([organization_id], record_from_row)?;
    rows.collect::<Result<_, _>>()
}

/// One agency of the organization, archived or not.
pub fn record(
    conn: &Conn,
    organization_id: &OrganizationId,
    id: &str,
) -> StoreResult<Option<AgencyRecord>> {
    conn.query_row_cached(
        &format!(
            "SELECT {AGENCY_COLUMNS}, a.created_at, a.archived_at
               FROM agencies a JOIN organizations o ON o.id = a.organization_id
              WHERE a.id = ?1 AND a.organization_id = ?2"
        ),
        params![id, organization_id],
        record_from_row,
    )
    .optional()
}

fn record_from_row(row: &crate::sql::Row<'_>) -> StoreResult<AgencyRecord> {
    Ok(AgencyRecord {
        agency: agency_from_row(row)?,
        created_at: row.get(5)?,
        archived_at: row.get(6)?,
    })
}

/// Whether another agency of the organization already has this name
/// (compared folded: case and accents aside).
pub fn name_taken(
    conn: &Conn,
    organization_id: &OrganizationId,
    name: &str,
    except: Option<&str>,
) -> StoreResult<bool> {
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM agencies WHERE organization_id = ?1
                          AND FOLD(name) = FOLD(?2) AND id IS NOT ?3)",
        params![organization_id, name, except],
        |r| r.get(0),
    )
}

pub fn rename(tx: &Tx, id: &AgencyId, name: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE agencies SET name = ?2 WHERE id = ?1",
        params![id.as_str(), name],
    )?;
    Ok(())
}

/// Archives (`Some(at)`) or restores (`None`) the agency.
pub fn set_archived(tx: &Tx, id: &AgencyId, at: Option<&str>) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE agencies SET archived_at = ?2 WHERE id = ?1",
        params![id.as_str(), at],
    )?;
    Ok(())
}

/// The names printed for the agency as a seller: its organization's and
/// its own (the legal identity is `store::identities`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SellerNames {
    pub organization_name: String,
    pub agency_name: String,
}

pub fn seller_names(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Option<SellerNames>> {
    conn.query_row_cached(
        "SELECT o.name, a.name FROM agencies a JOIN organizations o ON o.id = a.organization_id
             WHERE a.id = ?1",
        [agency_id.as_str()],
        |r| {
            Ok(SellerNames {
                organization_name: r.get(0)?,
                agency_name: r.get(1)?,
            })
        },
    )
    .optional()
}

/// Whether a client organization exists: the installation is set up. The
/// service operator's own organization (made by `liftdesk operator create`,
/// possibly first on an empty data directory) does not count.
pub fn any_client_organization(conn: &Conn) -> StoreResult<bool> {
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM organizations WHERE kind = 'client')",
        [],
        |r| r.get(0),
    )
}

/// Records `organization_id` as the organization that set the installation
/// up, unless one already did (only the first client organization does).
pub fn claim_installation(tx: &Tx, organization_id: &OrganizationId) -> StoreResult<()> {
    tx.execute(
        "INSERT OR IGNORE INTO installation (id, organization_id) VALUES (1, ?1)",
        [organization_id],
    )?;
    Ok(())
}

/// The organization that set the installation up (none before the first run).
pub fn installation_organization(conn: &Conn) -> StoreResult<Option<OrganizationId>> {
    conn.query_row(
        "SELECT organization_id FROM installation WHERE id = 1",
        [],
        |r| r.get(0),
    )
    .optional()
}
