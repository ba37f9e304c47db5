//! The audit log: who changed what, written in the same transaction as the change.

use crate::sql::params;
use liftdesk_domain::id::{AccountId, AgencyId, CredentialId};
use serde_json::Value;

use super::StoreResult;
use crate::Tx;

/// Who made a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    /// A staff member in the web UI (account id).
    Account(AccountId),
    /// An API token (credential id).
    ApiToken(CredentialId),
    CallCenterKey(CredentialId),
    PartnerKey(CredentialId),
    /// The admin command line.
    Cli,
    /// Liftdesk itself (demo seeding, background tasks).
    System,
}

impl Actor {
    fn parts(&self) -> (&'static str, Option<&str>) {
        match self {
            Self::Account(id) => ("account", Some(id.as_str())),
            Self::ApiToken(id) => ("api_token", Some(id.as_str())),
            Self::CallCenterKey(id) => ("call_center_key", Some(id.as_str())),
            Self::PartnerKey(id) => ("partner_key", Some(id.as_str())),
            Self::Cli => ("cli", None),
            Self::System => ("system", None),
        }
    }
}

pub struct AuditEntry<'a> {
    pub agency_id: Option<&'a str>,
    pub actor: &'a Actor,
    pub action: &'a str,
    pub object_type: &'a str,
    pub object_id: Option<&'a str>,
    pub detail: Option<Value>,
}

pub fn record(tx: &Tx, entry: AuditEntry<'_>) -> StoreResult<()> {
    let (actor_kind, actor_id) = entry.actor.parts();
    tx.prepare_cached(
        "INSERT INTO audit_log (at, agency_id, actor_kind, actor_id, action, object_type, object_id, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
            tx.now_text(),
            entry.agency_id,
            actor_kind,
            actor_id,
            entry.action,
            entry.object_type,
            entry.object_id,
            entry.detail.map(|d| d.to_string()),
        ])?;
    Ok(())
}

/// An audit entry as read back, with who made it in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRow {
    pub at: String,
    /// `account`, `api_token`, `call_center_key`, `partner_key`, `cli`, `system`.
    pub actor_kind: String,
    /// The staff member's name (account), the token's or key's name (api
    /// token, call-center key, partner key).
    pub actor_name: Option<String>,
    /// The owner's name of an API token; the call center of a call-center key.
    pub actor_owner: Option<String>,
    pub action: String,
    pub detail: Option<String>,
}

/// The agency's audit entries about one object, oldest first.
pub fn of_object(
    conn: &crate::Conn,
    agency_id: &AgencyId,
    object_type: &str,
    object_id: &str,
) -> StoreResult<Vec<AuditRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT l.at, l.actor_kind,
                CASE l.actor_kind WHEN 'account' THEN coalesce(a.name, a.email) ELSE k.name END,
                CASE l.actor_kind WHEN 'api_token' THEN coalesce(o.name, o.email)
                                  WHEN 'call_center_key' THEN cc.name END,
                l.action, l.detail
         FROM audit_log l
         LEFT JOIN accounts a ON l.actor_kind = 'account' AND a.id = l.actor_id
         LEFT JOIN credentials k ON l.actor_kind <> 'account' AND k.id = l.actor_id
         LEFT JOIN accounts o ON o.id = k.account_id
         LEFT JOIN call_centers cc ON cc.id = k.call_center_id
         WHERE l.object_type = ?1 AND l.object_id = ?2 AND l.agency_id = ?3
         ORDER BY l.seq",
    )?;
    let rows = stmt.query_map(
        crate::sql::params![object_type, object_id, agency_id],
        |r| {
            Ok(AuditRow {
                at: r.get(0)?,
                actor_kind: r.get(1)?,
                actor_name: r.get(2)?,
                actor_owner: r.get(3)?,
                action: r.get(4)?,
                detail: r.get(5)?,
            })
        },
    )?;
    rows.collect::<Result<_, _>>()
}
