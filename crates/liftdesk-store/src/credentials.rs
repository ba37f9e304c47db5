//! API tokens, call-center keys and partner keys. Only SHA-256 fingerprints
//! of the secrets are stored.

use crate::Conn;
use crate::Tx;
use liftdesk_domain::id::{AccountId, AgencyId, CredentialId};
use std::sync::LazyLock;

use crate::sql::{OptionalExtension, params};

use crate::agencies::{AGENCY_COLUMNS, AgencyRow, agency_from_row};
use crate::{Code, code};

use super::new_id;

use super::StoreResult;

pub use liftdesk_domain::credential::CredentialKind;

pub struct NewCredential<'a> {
    pub kind: CredentialKind,
    pub name: &'a str,
    pub fingerprint: &'a str,
    pub account_id: Option<&'a AccountId>,
    pub agency_id: Option<&'a str>,
    pub call_center_id: Option<&'a str>,
    pub created_by: Option<&'a AccountId>,
}

pub fn insert(tx: &Tx, credential: &NewCredential<'_>) -> StoreResult<CredentialId> {
    let id = CredentialId::new(new_id());
    tx.execute_cached(
        "INSERT INTO credentials (id, kind, name, fingerprint, account_id, agency_id, call_center_id, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            id,
            Code(credential.kind),
            credential.name,
            credential.fingerprint,
            credential.account_id,
            credential.agency_id,
            credential.call_center_id,
            credential.created_by,
            tx.now_text(),
        ],
    )?;
    Ok(id)
}

/// A live API token: its id, its owner (active account), when last used.
#[derive(Debug, Clone)]
pub struct ApiTokenMatch {
    pub credential_id: CredentialId,
    pub account_id: AccountId,
    pub last_used_at: Option<String>,
}

pub fn find_live_api_token(conn: &Conn, fingerprint: &str) -> StoreResult<Option<ApiTokenMatch>> {
    conn
        .query_row_cached(
            "SELECT c.id, c.account_id, c.last_used_at FROM credentials c
             JOIN accounts a ON a.id = c.account_id
             WHERE c.fingerprint = ?1 AND c.kind = 'api_token' AND c.revoked_at IS NULL AND a.active = 1",
            [fingerprint],
            |row| {
                Ok(ApiTokenMatch {
                    credential_id: row.get(0)?,
                    account_id: row.get(1)?,
                    last_used_at: row.get(2)?,
                })
            },
        )
        .optional()
}

/// Revokes a credential; false when it does not exist or was already revoked.
pub fn revoke(tx: &Tx, id: &CredentialId) -> StoreResult<bool> {
    let changed = tx.execute_cached(
        "UPDATE credentials SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, tx.now_text()],
    )?;
    Ok(changed == 1)
}

pub fn exists(conn: &Conn, id: &CredentialId) -> StoreResult<bool> {
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM credentials WHERE id = ?1)",
        [id],
        |r| r.get(0),
    )
}

/// Revokes every live API token of an account (a password change does this).
pub fn revoke_api_tokens_of_account(tx: &Tx, account_id: &AccountId) -> StoreResult<usize> {
    tx.execute_cached(
        "UPDATE credentials SET revoked_at = ?2
         WHERE account_id = ?1 AND kind = 'api_token' AND revoked_at IS NULL",
        params![account_id, tx.now_text()],
    )
}

pub fn touch(tx: &Tx, id: &CredentialId, at: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE credentials SET last_used_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, at],
    )?;
    Ok(())
}

/// Whether the credential `id` is still live (not revoked): the check a
/// write makes, in its transaction, of a key it was given on the strength
/// of an earlier read (`services::calls`, « Key hints »).
pub fn is_live(conn: &Conn, id: &CredentialId) -> StoreResult<bool> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM credentials WHERE id = ?1 AND revoked_at IS NULL",
            [id],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The agency's call center of that name, created if new.
pub fn call_center_id(tx: &Tx, agency_id: &AgencyId, name: &str) -> StoreResult<String> {
    let agency_id = agency_id.as_str();
    let existing: Option<String> = tx
        .query_row_cached(
            "SELECT id FROM call_centers WHERE agency_id = ?1 AND name = ?2",
            params![agency_id, name],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(id) = existing {
        return Ok(id);
    }
    let id = new_id();
    tx.execute_cached(
        "INSERT INTO call_centers (id, agency_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, agency_id, name, tx.now_text()],
    )?;
    Ok(id)
}

pub fn attribute_partner_agency(
    tx: &Tx,
    credential_id: &CredentialId,
    agency_id: &AgencyId,
) -> StoreResult<()> {
    let agency_id = agency_id.as_str();
    tx.execute_cached(
        "INSERT OR IGNORE INTO partner_key_agencies (credential_id, agency_id) VALUES (?1, ?2)",
        params![credential_id, agency_id],
    )?;
    Ok(())
}

/// A live call-center key: its agency and its call center.
#[derive(Debug, Clone)]
pub struct CallCenterKeyMatch {
    pub credential_id: CredentialId,
    pub agency: AgencyRow,
    pub call_center_id: String,
    pub call_center_name: String,
    pub last_used_at: Option<String>,
}

pub fn find_live_call_center_key(
    conn: &Conn,
    fingerprint: &str,
) -> StoreResult<Option<CallCenterKeyMatch>> {
    // Read on every call-center request: the agency comes in the same query.
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT {AGENCY_COLUMNS}, c.id, c.call_center_id, cc.name, c.last_used_at
             FROM credentials c
             JOIN call_centers cc ON cc.id = c.call_center_id
             JOIN agencies a ON a.id = c.agency_id
             JOIN organizations o ON o.id = a.organization_id
             WHERE c.fingerprint = ?1 AND c.kind = 'call_center_key' AND c.revoked_at IS NULL"
        )
    });
    conn.query_row_cached(&SQL, [fingerprint], |row| {
        Ok(CallCenterKeyMatch {
            agency: agency_from_row(row)?,
            credential_id: row.get(5)?,
            call_center_id: row.get(6)?,
            call_center_name: row.get(7)?,
            last_used_at: row.get(8)?,
        })
    })
    .optional()
}

/// A live partner key and the agencies attributed to it.
#[derive(Debug, Clone)]
pub struct PartnerKeyMatch {
    pub credential_id: CredentialId,
    pub partner_name: String,
    pub agency_ids: Vec<String>,
    pub last_used_at: Option<String>,
}

pub fn find_live_partner_key(
    conn: &Conn,
    fingerprint: &str,
) -> StoreResult<Option<PartnerKeyMatch>> {
    let found: Option<(CredentialId, String, Option<String>)> = conn
        .query_row_cached(
            "SELECT id, name, last_used_at FROM credentials
             WHERE fingerprint = ?1 AND kind = 'partner_key' AND revoked_at IS NULL",
            [fingerprint],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
    let Some((credential_id, partner_name, last_used_at)) = found else {
        return Ok(None);
    };
    let mut stmt = conn.prepare_cached(
        "SELECT agency_id FROM partner_key_agencies WHERE credential_id = ?1 ORDER BY agency_id",
    )?;
    let agency_ids = stmt
        .query_map([&credential_id], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(Some(PartnerKeyMatch {
        credential_id,
        partner_name,
        agency_ids,
        last_used_at,
    }))
}

/// One credential as stored (never its secret: only the fingerprint).
#[derive(Debug, Clone)]
pub struct CredentialRow {
    pub id: CredentialId,
    pub kind: CredentialKind,
    pub name: String,
    pub account_id: Option<AccountId>,
    pub agency_id: Option<String>,
    pub revoked_at: Option<String>,
}

pub fn get(conn: &Conn, id: &CredentialId) -> StoreResult<Option<CredentialRow>> {
    conn.query_row_cached(
        "SELECT id, kind, name, account_id, agency_id, revoked_at FROM credentials WHERE id = ?1",
        [id],
        |row| {
            Ok(CredentialRow {
                id: row.get(0)?,
                kind: code(row, 1)?,
                name: row.get(2)?,
                account_id: row.get(3)?,
                agency_id: row.get(4)?,
                revoked_at: row.get(5)?,
            })
        },
    )
    .optional()
}

/// A live credential as the keys-and-tokens screen lists it.
#[derive(Debug, Clone)]
pub struct ListedCredential {
    pub id: CredentialId,
    /// The tool (API token), the call center, or the partner.
    pub name: String,
    pub fingerprint: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    /// Partner keys: how many other agencies the key is attributed to.
    pub other_agencies: i64,
}

fn listed_from(row: &crate::sql::Row<'_>) -> crate::StoreResult<ListedCredential> {
    Ok(ListedCredential {
        id: row.get(0)?,
        name: row.get(1)?,
        fingerprint: row.get(2)?,
        created_at: row.get(3)?,
        last_used_at: row.get(4)?,
        other_agencies: row.get(5)?,
    })
}

fn listed_page(
    conn: &Conn,
    count_sql: &str,
    rows_sql: &str,
    owner: &str,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<ListedCredential>)> {
    let total: i64 = conn.query_row_cached(count_sql, [owner], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(rows_sql)?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = stmt
        .query_map(params![owner, limit, offset], listed_from)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((total, rows))
}

/// The live API tokens of an account, newest first.
pub fn list_api_tokens(
    conn: &Conn,
    account_id: &AccountId,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<ListedCredential>)> {
    listed_page(
        conn,
        "SELECT COUNT(*) FROM credentials
          WHERE account_id = ?1 AND kind = 'api_token' AND revoked_at IS NULL",
        "SELECT id, name, fingerprint, created_at, last_used_at, 0 FROM credentials
          WHERE account_id = ?1 AND kind = 'api_token' AND revoked_at IS NULL
          ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3",
        account_id.as_str(),
        limit,
        offset,
    )
}

/// The live call-center keys of an agency, newest first; `name` is the
/// center's.
pub fn list_call_center_keys(
    conn: &Conn,
    agency_id: &AgencyId,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<ListedCredential>)> {
    let agency_id = agency_id.as_str();
    listed_page(
        conn,
        "SELECT COUNT(*) FROM credentials
          WHERE agency_id = ?1 AND kind = 'call_center_key' AND revoked_at IS NULL",
        "SELECT c.id, cc.name, c.fingerprint, c.created_at, c.last_used_at, 0
           FROM credentials c JOIN call_centers cc ON cc.id = c.call_center_id
          WHERE c.agency_id = ?1 AND c.kind = 'call_center_key' AND c.revoked_at IS NULL
          ORDER BY c.created_at DESC, c.id DESC LIMIT ?2 OFFSET ?3",
        agency_id,
        limit,
        offset,
    )
}

/// The live partner keys attributed to an agency, newest first, with how
/// many other agencies each one serves.
pub fn list_partner_keys(
    conn: &Conn,
    agency_id: &AgencyId,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<ListedCredential>)> {
    let agency_id = agency_id.as_str();
    listed_page(
        conn,
        "SELECT COUNT(*) FROM partner_key_agencies p JOIN credentials c ON c.id = p.credential_id
          WHERE p.agency_id = ?1 AND c.kind = 'partner_key' AND c.revoked_at IS NULL",
        "SELECT c.id, c.name, c.fingerprint, c.created_at, c.last_used_at,
                (SELECT COUNT(*) FROM partner_key_agencies o
                  WHERE o.credential_id = c.id AND o.agency_id <> ?1)
           FROM partner_key_agencies p JOIN credentials c ON c.id = p.credential_id
          WHERE p.agency_id = ?1 AND c.kind = 'partner_key' AND c.revoked_at IS NULL
          ORDER BY c.created_at DESC, c.id DESC LIMIT ?2 OFFSET ?3",
        agency_id,
        limit,
        offset,
    )
}

/// The live keys that reach an agency: its call-center keys, and the
/// partner keys attributed to it (what archiving the agency stops).
pub fn live_keys_of_agency(
    conn: &Conn,
    agency_id: &AgencyId,
) -> StoreResult<(Vec<CredentialId>, Vec<CredentialId>)> {
    let agency_id = agency_id.as_str();
    let mut centers = conn.prepare_cached(
        "SELECT id FROM credentials
          WHERE agency_id = ?1 AND kind = 'call_center_key' AND revoked_at IS NULL ORDER BY id",
    )?;
    let call_center = centers
        .query_map([agency_id], |r| r.get(0))?
        .collect::<Result<Vec<_>, _>>()?;
    let mut partners = conn.prepare_cached(
        "SELECT c.id FROM partner_key_agencies p JOIN credentials c ON c.id = p.credential_id
          WHERE p.agency_id = ?1 AND c.kind = 'partner_key' AND c.revoked_at IS NULL ORDER BY c.id",
    )?;
    let partner = partners
        .query_map([agency_id], |r| r.get(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((call_center, partner))
}

pub fn is_attributed_to(
    conn: &Conn,
    credential_id: &CredentialId,
    agency_id: &AgencyId,
) -> StoreResult<bool> {
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM partner_key_agencies WHERE credential_id = ?1 AND agency_id = ?2)",
        params![credential_id, agency_id],
        |r| r.get(0),
    )
}

/// Withdraws one agency from a partner key; returns how many agencies it
/// still serves.
pub fn withdraw_partner_agency(
    tx: &Tx,
    credential_id: &CredentialId,
    agency_id: &AgencyId,
) -> StoreResult<i64> {
    let agency_id = agency_id.as_str();
    tx.execute_cached(
        "DELETE FROM partner_key_agencies WHERE credential_id = ?1 AND agency_id = ?2",
        params![credential_id, agency_id],
    )?;
    tx.query_row_cached(
        "SELECT COUNT(*) FROM partner_key_agencies WHERE credential_id = ?1",
        [credential_id],
        |r| r.get(0),
    )
}
