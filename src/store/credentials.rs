//! API tokens, call-center keys and partner keys. Only SHA-256 fingerprints
//! of the secrets are stored.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::new_id;
use crate::clock;
use crate::error::AppResult;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialKind {
    ApiToken,
    CallCenterKey,
    PartnerKey,
}

impl CredentialKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ApiToken => "api_token",
            Self::CallCenterKey => "call_center_key",
            Self::PartnerKey => "partner_key",
        }
    }
}

pub struct NewCredential<'a> {
    pub kind: CredentialKind,
    pub name: &'a str,
    pub fingerprint: &'a str,
    pub account_id: Option<&'a str>,
    pub agency_id: Option<&'a str>,
    pub call_center_id: Option<&'a str>,
    pub created_by: Option<&'a str>,
}

pub fn insert(tx: &Transaction, credential: &NewCredential<'_>) -> AppResult<String> {
    let id = new_id();
    tx.execute(
        "INSERT INTO credentials (id, kind, name, fingerprint, account_id, agency_id, call_center_id, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            id,
            credential.kind.as_str(),
            credential.name,
            credential.fingerprint,
            credential.account_id,
            credential.agency_id,
            credential.call_center_id,
            credential.created_by,
            clock::now_text(),
        ],
    )?;
    Ok(id)
}

/// A live API token: its id, its owner (active account), when last used.
#[derive(Debug, Clone)]
pub struct ApiTokenMatch {
    pub credential_id: String,
    pub account_id: String,
    pub last_used_at: Option<String>,
}

pub fn find_live_api_token(
    conn: &Connection,
    fingerprint: &str,
) -> AppResult<Option<ApiTokenMatch>> {
    Ok(conn
        .query_row(
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
        .optional()?)
}

/// Revokes a credential; false when it does not exist or was already revoked.
pub fn revoke(tx: &Transaction, id: &str) -> AppResult<bool> {
    let changed = tx.execute(
        "UPDATE credentials SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, clock::now_text()],
    )?;
    Ok(changed == 1)
}

pub fn exists(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM credentials WHERE id = ?1)",
        [id],
        |r| r.get(0),
    )?)
}

/// Revokes every live API token of an account (a password change does this).
pub fn revoke_api_tokens_of_account(tx: &Transaction, account_id: &str) -> AppResult<usize> {
    Ok(tx.execute(
        "UPDATE credentials SET revoked_at = ?2
         WHERE account_id = ?1 AND kind = 'api_token' AND revoked_at IS NULL",
        params![account_id, clock::now_text()],
    )?)
}

pub fn touch(tx: &Transaction, id: &str, at: &str) -> AppResult<()> {
    tx.execute(
        "UPDATE credentials SET last_used_at = ?2 WHERE id = ?1",
        params![id, at],
    )?;
    Ok(())
}

/// The agency's call center of that name, created if new.
pub fn call_center_id(tx: &Transaction, agency_id: &str, name: &str) -> AppResult<String> {
    let existing: Option<String> = tx
        .query_row(
            "SELECT id FROM call_centers WHERE agency_id = ?1 AND name = ?2",
            params![agency_id, name],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(id) = existing {
        return Ok(id);
    }
    let id = new_id();
    tx.execute(
        "INSERT INTO call_centers (id, agency_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, agency_id, name, clock::now_text()],
    )?;
    Ok(id)
}

pub fn attribute_partner_agency(
    tx: &Transaction,
    credential_id: &str,
    agency_id: &str,
) -> AppResult<()> {
    tx.execute(
        "INSERT OR IGNORE INTO partner_key_agencies (credential_id, agency_id) VALUES (?1, ?2)",
        params![credential_id, agency_id],
    )?;
    Ok(())
}

/// A live call-center key: its agency and its call center.
#[derive(Debug, Clone)]
pub struct CallCenterKeyMatch {
    pub credential_id: String,
    pub agency_id: String,
    pub call_center_id: String,
    pub call_center_name: String,
    pub last_used_at: Option<String>,
}

pub fn find_live_call_center_key(
    conn: &Connection,
    fingerprint: &str,
) -> AppResult<Option<CallCenterKeyMatch>> {
    Ok(conn
        .query_row(
            "SELECT c.id, c.agency_id, c.call_center_id, cc.name, c.last_used_at FROM credentials c
             JOIN call_centers cc ON cc.id = c.call_center_id
             WHERE c.fingerprint = ?1 AND c.kind = 'call_center_key' AND c.revoked_at IS NULL",
            [fingerprint],
            |row| {
                Ok(CallCenterKeyMatch {
                    credential_id: row.get(0)?,
                    agency_id: row.get(1)?,
                    call_center_id: row.get(2)?,
                    call_center_name: row.get(3)?,
                    last_used_at: row.get(4)?,
                })
            },
        )
        .optional()?)
}

/// A live partner key and the agencies attributed to it.
#[derive(Debug, Clone)]
pub struct PartnerKeyMatch {
    pub credential_id: String,
    pub partner_name: String,
    pub agency_ids: Vec<String>,
    pub last_used_at: Option<String>,
}

pub fn find_live_partner_key(
    conn: &Connection,
    fingerprint: &str,
) -> AppResult<Option<PartnerKeyMatch>> {
    let found: Option<(String, String, Option<String>)> = conn
        .query_row(
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
