//! The audit log: who changed what, written in the same transaction as the change.

use rusqlite::{Transaction, params};
use serde_json::Value;

use crate::clock;
use crate::error::AppResult;

/// Who made a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    /// A staff member in the web UI (account id).
    Account(String),
    /// An API token (credential id).
    ApiToken(String),
    CallCenterKey(String),
    PartnerKey(String),
    /// The admin command line.
    Cli,
    /// Liftdesk itself (demo seeding, background tasks).
    System,
}

impl Actor {
    fn parts(&self) -> (&'static str, Option<&str>) {
        match self {
            Self::Account(id) => ("account", Some(id)),
            Self::ApiToken(id) => ("api_token", Some(id)),
            Self::CallCenterKey(id) => ("call_center_key", Some(id)),
            Self::PartnerKey(id) => ("partner_key", Some(id)),
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

pub fn record(tx: &Transaction, entry: AuditEntry<'_>) -> AppResult<()> {
    let (actor_kind, actor_id) = entry.actor.parts();
    tx.prepare_cached(
        "INSERT INTO audit_log (at, agency_id, actor_kind, actor_id, action, object_type, object_id, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
            clock::now_text(),
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
