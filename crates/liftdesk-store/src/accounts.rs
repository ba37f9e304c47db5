//! Staff accounts and the agencies they work in.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AccountId, AgencyId, OrganizationId};

use super::new_id;

use super::StoreResult;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Administrator of the organization: works in every agency of it.
    OrgAdmin,
    /// Administrator of the agencies the account works in.
    AgencyAdmin,
    Member,
    /// The service operator's service account: reads every organization.
    Operator,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OrgAdmin => "org_admin",
            Self::AgencyAdmin => "agency_admin",
            Self::Member => "member",
            Self::Operator => "operator",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "org_admin" => Some(Self::OrgAdmin),
            "agency_admin" => Some(Self::AgencyAdmin),
            "member" => Some(Self::Member),
            "operator" => Some(Self::Operator),
            _ => None,
        }
    }

    pub fn is_admin(self) -> bool {
        matches!(self, Self::OrgAdmin | Self::AgencyAdmin)
    }
}

#[derive(Debug, Clone)]
pub struct AccountRow {
    pub id: AccountId,
    pub organization_id: OrganizationId,
    pub name: Option<String>,
    pub email: String,
    pub position: Option<String>,
    pub active: bool,
    pub performs_surveys: bool,
    pub default_agency_id: Option<String>,
    pub role: Role,
    /// Signed in with a password an administrator gave: must choose its own
    /// before anything else.
    pub must_change_password: bool,
}

pub struct NewAccount<'a> {
    pub organization_id: &'a OrganizationId,
    pub name: Option<&'a str>,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub role: Role,
    pub performs_surveys: bool,
    pub default_agency_id: Option<&'a str>,
    /// The password was given by an administrator (shown once): the
    /// account chooses its own at its first sign-in.
    pub temporary_password: bool,
}

const ACCOUNT_COLUMNS: &str = "id, organization_id, name, email, position, active, performs_surveys, default_agency_id, role, must_change_password";

fn account_from_row(row: &crate::sql::Row<'_>) -> crate::StoreResult<AccountRow> {
    let role_text: String = row.get(8)?;
    let role = Role::parse(&role_text)
        .ok_or_else(|| crate::StoreError::Encoding(format!("rôle inconnu {role_text}")))?;
    Ok(AccountRow {
        id: row.get(0)?,
        organization_id: row.get(1)?,
        name: row.get(2)?,
        email: row.get(3)?,
        position: row.get(4)?,
        active: row.get(5)?,
        performs_surveys: row.get(6)?,
        default_agency_id: row.get(7)?,
        role,
        must_change_password: row.get(9)?,
    })
}

pub fn email_in_use(conn: &Conn, email: &str) -> StoreResult<bool> {
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM accounts WHERE email = ?1)",
        [email],
        |r| r.get(0),
    )
}

/// Creates the account; an e-mail address already used (in any case) is a
/// conflict on [`constraint::ACCOUNT_EMAIL`](super::constraint::ACCOUNT_EMAIL).
pub fn create(tx: &Tx, account: &NewAccount<'_>) -> StoreResult<AccountId> {
    let id = AccountId::new(new_id());
    let now = tx.now_text();
    tx.execute_cached(
        "INSERT INTO accounts (id, organization_id, name, email, password_hash, role, performs_surveys,
                               default_agency_id, password_changed_at, created_at, must_change_password)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10)",
        params![
            id,
            account.organization_id,
            account.name,
            account.email,
            account.password_hash,
            account.role.as_str(),
            account.performs_surveys,
            account.default_agency_id,
            now,
            account.temporary_password,
        ],
    )?;
    Ok(id)
}

pub fn add_agency(tx: &Tx, account_id: &AccountId, agency_id: &AgencyId) -> StoreResult<()> {
    let agency_id = agency_id.as_str();
    tx.execute_cached(
        "INSERT OR IGNORE INTO account_agencies (account_id, agency_id) VALUES (?1, ?2)",
        params![account_id, agency_id],
    )?;
    Ok(())
}

pub fn get(conn: &Conn, id: &AccountId) -> StoreResult<Option<AccountRow>> {
    conn.query_row_cached(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?1"),
        [id],
        account_from_row,
    )
    .optional()
}

pub fn find_by_email(conn: &Conn, email: &str) -> StoreResult<Option<AccountRow>> {
    conn.query_row_cached(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE email = ?1"),
        [email],
        account_from_row,
    )
    .optional()
}

/// The account and its password hash, for sign-in.
pub fn find_credentials_by_email(
    conn: &Conn,
    email: &str,
) -> StoreResult<Option<(AccountRow, String)>> {
    conn.query_row_cached(
        &format!("SELECT {ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE email = ?1"),
        [email],
        |row| Ok((account_from_row(row)?, row.get::<String>(10)?)),
    )
    .optional()
}

pub fn password_hash(conn: &Conn, account_id: &AccountId) -> StoreResult<Option<String>> {
    conn.query_row_cached(
        "SELECT password_hash FROM accounts WHERE id = ?1",
        [account_id],
        |r| r.get(0),
    )
    .optional()
}

/// Replaces the password hash with the account's own choice (a temporary
/// password is then behind it). The caller revokes what a password change
/// revokes.
pub fn set_password_hash(tx: &Tx, account_id: &AccountId, hash: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE accounts SET password_hash = ?2, password_changed_at = ?3, must_change_password = 0
         WHERE id = ?1",
        params![account_id, hash, tx.now_text()],
    )?;
    Ok(())
}

/// Gives the account a temporary password (an administrator's reset): it
/// must choose its own at its next sign-in.
pub fn set_temporary_password(tx: &Tx, account_id: &AccountId, hash: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE accounts SET password_hash = ?2, password_changed_at = ?3, must_change_password = 1
         WHERE id = ?1",
        params![account_id, hash, tx.now_text()],
    )?;
    Ok(())
}

/// What an administrator changes of an account's place in the
/// organization: its role, whether it performs surveys, its default agency.
pub fn set_standing(
    tx: &Tx,
    account_id: &AccountId,
    role: Role,
    performs_surveys: bool,
    default_agency_id: Option<&str>,
) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE accounts SET role = ?2, performs_surveys = ?3, default_agency_id = ?4 WHERE id = ?1",
        params![account_id, role.as_str(), performs_surveys, default_agency_id],
    )?;
    Ok(())
}

/// The agencies the account was given (an organization administrator's
/// list is empty: it works in every agency).
pub fn agency_ids(conn: &Conn, account_id: &AccountId) -> StoreResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT agency_id FROM account_agencies WHERE account_id = ?1 ORDER BY agency_id",
    )?;
    let rows = stmt.query_map([account_id], |r| r.get(0))?;
    rows.collect::<Result<_, _>>()
}

/// Takes the account out of the agency `agency_id`.
/// The active accounts (agency administrators and members) that work in
/// `agency_id` and in no other working agency: archiving it would leave
/// them nowhere. Sorted by name, then email.
pub fn only_in_agency(conn: &Conn, agency_id: &str) -> StoreResult<Vec<AccountRow>> {
    let columns = ACCOUNT_COLUMNS
        .split(", ")
        .map(|c| format!("ac.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {columns} FROM accounts ac JOIN account_agencies aa ON aa.account_id = ac.id
          WHERE aa.agency_id = ?1 AND ac.active = 1 AND ac.role IN ('agency_admin', 'member')
            AND NOT EXISTS (SELECT 1 FROM account_agencies o JOIN agencies a ON a.id = o.agency_id
                             WHERE o.account_id = ac.id AND o.agency_id <> ?1
                               AND a.archived_at IS NULL)
          ORDER BY ac.name COLLATE FRANCAIS, ac.email"
    ))?;
    let rows = stmt.query_map([agency_id], account_from_row)?;
    rows.collect::<Result<_, _>>()
}

pub fn remove_agency(tx: &Tx, account_id: &AccountId, agency_id: &str) -> StoreResult<()> {
    tx.execute_cached(
        "DELETE FROM account_agencies WHERE account_id = ?1 AND agency_id = ?2",
        params![account_id, agency_id],
    )?;
    Ok(())
}

/// One (account, agency) pair of `working_in`.
#[derive(Debug, Clone)]
pub struct WorkingRow {
    pub account: AccountRow,
    pub agency_id: String,
    pub agency_name: String,
}

/// Every staff account working in one of `agency_ids`, one row per account
/// and agency of that list: the agencies it was given, and for an
/// organization admin every agency of its organization. The service
/// operator's account works for the service, not in an agency: not listed.
/// Sorted by account name, email, then agency name.
pub fn working_in(conn: &Conn, agency_ids: &[String]) -> StoreResult<Vec<WorkingRow>> {
    let ids = serde_json::to_string(agency_ids)?;
    let columns = ACCOUNT_COLUMNS
        .split(", ")
        .map(|c| format!("ac.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {columns}, ag.id, ag.name FROM (
             SELECT aa.account_id, aa.agency_id FROM account_agencies aa
             JOIN accounts x ON x.id = aa.account_id
             WHERE x.role IN ('agency_admin', 'member')
               AND aa.agency_id IN (SELECT value FROM json_each(?1))
             UNION
             SELECT x.id, a.id FROM accounts x JOIN agencies a ON a.organization_id = x.organization_id
             WHERE x.role = 'org_admin' AND a.id IN (SELECT value FROM json_each(?1))
         ) w
         JOIN accounts ac ON ac.id = w.account_id
         JOIN agencies ag ON ag.id = w.agency_id
         ORDER BY ac.name IS NULL, ac.name COLLATE FRANCAIS, ac.email, ac.id, ag.name COLLATE FRANCAIS, ag.id"
    ))?;
    let rows = stmt.query_map([ids], |row| {
        Ok(WorkingRow {
            account: account_from_row(row)?,
            agency_id: row.get(10)?,
            agency_name: row.get(11)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The active account with that email that performs surveys in the agency
/// (a member or agency admin of it, or an administrator of its
/// organization): the partner workflow API's "mobile account". Its id.
pub fn active_surveyor_of_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    email: &str,
) -> StoreResult<Option<AccountId>> {
    let agency_id = agency_id.as_str();
    conn
        .query_row_cached(
            "SELECT a.id FROM accounts a
             WHERE a.email = ?2 COLLATE NOCASE AND a.active = 1 AND a.performs_surveys = 1
               AND (EXISTS (SELECT 1 FROM account_agencies aa WHERE aa.account_id = a.id AND aa.agency_id = ?1)
                    OR (a.role = 'org_admin' AND a.organization_id =
                        (SELECT organization_id FROM agencies WHERE id = ?1)))",
            [agency_id, email.trim()],
            |r| r.get(0),
        )
        .optional()
}

/// The account's name and position (its profile as its colleagues see it).
pub fn set_profile(
    tx: &Tx,
    account_id: &AccountId,
    name: Option<&str>,
    position: Option<&str>,
) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE accounts SET name = ?2, position = ?3 WHERE id = ?1",
        params![account_id, name, position],
    )?;
    Ok(())
}

/// Marks the account active or not (an inactive account signs in nowhere).
pub fn set_active(tx: &Tx, account_id: &AccountId, active: bool) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE accounts SET active = ?2 WHERE id = ?1",
        params![account_id, active],
    )?;
    Ok(())
}

/// How many active organization administrators the organization has.
pub fn active_org_admins(conn: &Conn, organization_id: &OrganizationId) -> StoreResult<i64> {
    conn.query_row_cached(
        "SELECT count(*) FROM accounts
         WHERE organization_id = ?1 AND role = 'org_admin' AND active = 1",
        params![organization_id],
        |r| r.get(0),
    )
}
