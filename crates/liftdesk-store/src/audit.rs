//! The audit log: who changed what, written in the same transaction as the change.

use crate::sql::{OptionalExtension, ValueRef, params};
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
    /// Its kind and id as the journal keeps them.
    pub(crate) fn parts(&self) -> (&'static str, Option<&str>) {
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
    let detail = entry.detail.map(|d| d.to_string());
    record_text(
        tx,
        &tx.now_text(),
        entry.agency_id,
        entry.actor,
        (entry.action, entry.object_type),
        entry.object_id,
        detail.as_deref(),
    )
}

/// [`record`] of many entries, in their order, in a few statements (a
/// billing run's thousands of invoices).
pub fn record_all(tx: &Tx, entries: &[AuditEntry<'_>]) -> StoreResult<()> {
    let at = tx.now_text();
    let details: Vec<Option<String>> = entries
        .iter()
        .map(|entry| entry.detail.as_ref().map(Value::to_string))
        .collect();
    let mut values = Vec::with_capacity(entries.len() * 8);
    for (entry, detail) in entries.iter().zip(&details) {
        let (actor_kind, actor_id) = entry.actor.parts();
        values.extend([
            ValueRef::Text(&at),
            entry.agency_id.map_or(ValueRef::Null, ValueRef::Text),
            ValueRef::Text(actor_kind),
            actor_id.map_or(ValueRef::Null, ValueRef::Text),
            ValueRef::Text(entry.action),
            ValueRef::Text(entry.object_type),
            entry.object_id.map_or(ValueRef::Null, ValueRef::Text),
            detail.as_deref().map_or(ValueRef::Null, ValueRef::Text),
        ]);
    }
    tx.insert_rows(
        "INSERT INTO audit_log (at, agency_id, actor_kind, actor_id, action, object_type, object_id, detail)",
        8,
        &values,
        true,
    )
}

/// [`record`] of an entry made `at`, its `(action, object type)` and its
/// detail already written as JSON text.
pub(crate) fn record_text(
    tx: &Tx,
    at: &str,
    agency_id: Option<&str>,
    actor: &Actor,
    (action, object_type): (&str, &str),
    object_id: Option<&str>,
    detail: Option<&str>,
) -> StoreResult<()> {
    let (actor_kind, actor_id) = actor.parts();
    tx.prepare_cached(
        "INSERT INTO audit_log (at, agency_id, actor_kind, actor_id, action, object_type, object_id, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute_deferred(params![
        at,
        agency_id,
        actor_kind,
        actor_id,
        action,
        object_type,
        object_id,
        detail,
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

/// What the journal keeps: each given condition narrows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JournalFilter {
    pub object_type: Option<String>,
    pub object_id: Option<String>,
    /// Entries made by this staff account.
    pub account_id: Option<AccountId>,
    /// Stored timestamps: `at >= from` and `at < until`.
    pub from: Option<String>,
    pub until: Option<String>,
}

/// A journal entry: who did what to which object, when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalRow {
    pub seq: i64,
    pub at: String,
    pub actor_kind: String,
    pub actor_id: Option<String>,
    /// As in [`AuditRow`].
    pub actor_name: Option<String>,
    pub actor_owner: Option<String>,
    pub action: String,
    pub object_type: String,
    pub object_id: Option<String>,
    /// The object in words where the journal knows it (an equipment's
    /// number, a client's name, a document's number…).
    pub object_label: Option<String>,
    pub detail: Option<String>,
}

/// The object of an entry in words, by its type (one indexed look-up each).
const OBJECT_LABEL: &str = "CASE l.object_type
    WHEN 'equipment' THEN (SELECT number FROM equipment WHERE id = l.object_id)
    WHEN 'client' THEN (SELECT nom FROM clients WHERE id = l.object_id)
    WHEN 'contact' THEN (SELECT nom FROM contacts WHERE id = l.object_id)
    WHEN 'invoice' THEN (SELECT coalesce(number, 'brouillon') FROM invoices WHERE id = l.object_id)
    WHEN 'quote' THEN (SELECT coalesce(number, object) FROM quotes WHERE id = l.object_id)
    WHEN 'call' THEN (SELECT reference FROM calls WHERE id = l.object_id)
    WHEN 'account' THEN (SELECT coalesce(name, email) FROM accounts WHERE id = l.object_id)
    WHEN 'agency' THEN (SELECT name FROM agencies WHERE id = l.object_id)
    WHEN 'technician' THEN (SELECT name FROM technicians WHERE id = l.object_id)
    WHEN 'building' THEN (SELECT coalesce(name, address) FROM buildings WHERE id = l.object_id)
    WHEN 'visit' THEN (SELECT e.number FROM visits v JOIN equipment e ON e.id = v.equipment_id WHERE v.id = l.object_id)
    WHEN 'survey' THEN (SELECT number FROM surveys WHERE id = l.object_id)
    WHEN 'discrepancy' THEN (SELECT e.number FROM discrepancies d JOIN equipment e ON e.id = d.equipment_id WHERE d.id = l.object_id)
    WHEN 'webhook_subscription' THEN (SELECT url FROM webhook_subscriptions WHERE id = l.object_id)
    ELSE (SELECT name FROM credentials WHERE id = l.object_id)
END";

/// A record named by an id in an entry's detail (a visit's technician, an
/// equipment's client…), in words: its label, and for a client the
/// `client_ref` its page is opened by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedRecord {
    pub label: String,
    pub client_ref: Option<String>,
}

/// The record `id` of `object_type` in words, when it belongs to the agency
/// (an account or an agency: to its organization); None otherwise.
pub fn named_record(
    conn: &crate::Conn,
    agency_id: &AgencyId,
    object_type: &str,
    id: &str,
) -> StoreResult<Option<NamedRecord>> {
    let sql = match object_type {
        "equipment" => {
            "SELECT coalesce(number, 'sans numéro'), NULL FROM equipment WHERE id = ?1 AND agency_id = ?2"
        }
        "client" => "SELECT nom, client_ref FROM clients WHERE id = ?1 AND agency_id = ?2",
        "building" => {
            "SELECT coalesce(name, address), NULL FROM buildings WHERE id = ?1 AND agency_id = ?2"
        }
        "technician" => "SELECT name, NULL FROM technicians WHERE id = ?1 AND agency_id = ?2",
        "quote" => {
            "SELECT coalesce(number, object), NULL FROM quotes WHERE id = ?1 AND agency_id = ?2"
        }
        "invoice" => {
            "SELECT coalesce(number, 'brouillon'), NULL FROM invoices WHERE id = ?1 AND agency_id = ?2"
        }
        "call" => "SELECT reference, NULL FROM calls WHERE id = ?1 AND agency_id = ?2",
        "survey" => {
            "SELECT coalesce(number, 'sans numéro'), NULL FROM surveys WHERE id = ?1 AND agency_id = ?2"
        }
        "account" => {
            "SELECT coalesce(name, email), NULL FROM accounts WHERE id = ?1
             AND organization_id = (SELECT organization_id FROM agencies WHERE id = ?2)"
        }
        "agency" => {
            "SELECT name, NULL FROM agencies WHERE id = ?1
             AND organization_id = (SELECT organization_id FROM agencies WHERE id = ?2)"
        }
        _ => return Ok(None),
    };
    conn.query_row_cached(sql, [id, agency_id.as_str()], |r| {
        Ok(NamedRecord {
            label: r.get(0)?,
            client_ref: r.get(1)?,
        })
    })
    .optional()
}

/// The agency's journal, newest first, kept by `filter`, from before the
/// entry `before` (its `seq`) when given: at most `limit` entries.
pub fn journal(
    conn: &crate::Conn,
    agency_id: &AgencyId,
    filter: &JournalFilter,
    before: Option<i64>,
    limit: u32,
) -> StoreResult<Vec<JournalRow>> {
    use crate::sql::Value;
    let mut conditions = vec!["l.agency_id = ?"];
    let mut values = vec![Value::Text(agency_id.as_str().to_owned())];
    let mut text = |condition: &'static str, value: &Option<String>| {
        if let Some(value) = value {
            conditions.push(condition);
            values.push(Value::Text(value.clone()));
        }
    };
    text("l.object_type = ?", &filter.object_type);
    text("l.object_id = ?", &filter.object_id);
    text(
        "l.actor_kind = 'account' AND l.actor_id = ?",
        &filter.account_id.as_ref().map(|a| a.as_str().to_owned()),
    );
    text("l.at >= ?", &filter.from);
    text("l.at < ?", &filter.until);
    if let Some(before) = before {
        conditions.push("l.seq < ?");
        values.push(Value::Integer(before));
    }
    values.push(Value::Integer(i64::from(limit)));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT l.seq, l.at, l.actor_kind, l.actor_id,
                CASE l.actor_kind WHEN 'account' THEN coalesce(a.name, a.email) ELSE k.name END,
                CASE l.actor_kind WHEN 'api_token' THEN coalesce(o.name, o.email)
                                  WHEN 'call_center_key' THEN cc.name END,
                l.action, l.object_type, l.object_id, {OBJECT_LABEL}, l.detail
         FROM audit_log l
         LEFT JOIN accounts a ON l.actor_kind = 'account' AND a.id = l.actor_id
         LEFT JOIN credentials k ON l.actor_kind <> 'account' AND k.id = l.actor_id
         LEFT JOIN accounts o ON o.id = k.account_id
         LEFT JOIN call_centers cc ON cc.id = k.call_center_id
         WHERE {}
         ORDER BY l.seq DESC LIMIT ?",
        conditions.join(" AND ")
    ))?;
    let rows = stmt.query_map(crate::sql::params_from_iter(values.iter()), |r| {
        Ok(JournalRow {
            seq: r.get(0)?,
            at: r.get(1)?,
            actor_kind: r.get(2)?,
            actor_id: r.get(3)?,
            actor_name: r.get(4)?,
            actor_owner: r.get(5)?,
            action: r.get(6)?,
            object_type: r.get(7)?,
            object_id: r.get(8)?,
            object_label: r.get(9)?,
            detail: r.get(10)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// A call a call center opened, as the journal recorded it: what a desktop
/// connected to the agency's server notifies (`services::calls::notices_after`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CenterOpening {
    /// The journal's position: the next read starts after it.
    pub seq: i64,
    pub call_id: String,
    pub reference: String,
    /// `personne_bloquee`, `panne`…
    pub call_type: String,
    pub equipment_id: String,
}

/// The calls call centers opened in the agency after the journal's position
/// `after`, oldest first, at most `limit`. Every write of an agency's rows
/// holds its lock or the store's, so the agency's positions are handed out
/// in commit order: a reader that saw its position N has seen every entry
/// of the agency before it. Read from the position on (the journal's key):
/// `agency_id || ''` keeps the planner off the agency's index, which would
/// walk the agency's whole journal at every read (every 3 s per desktop).
pub fn center_openings_after(
    conn: &crate::Conn,
    agency_id: &AgencyId,
    after: i64,
    limit: i64,
) -> StoreResult<Vec<CenterOpening>> {
    let mut stmt = conn.prepare_cached(
        "SELECT l.seq, c.id, c.reference, c.type, c.equipment_id
         FROM audit_log l
         JOIN calls c ON c.id = l.object_id AND c.agency_id = l.agency_id
         WHERE l.seq > ?2 AND l.agency_id || '' = ?1 AND l.actor_kind = 'call_center_key'
           AND l.object_type = 'call' AND l.action = 'ouverture'
         ORDER BY l.seq
         LIMIT ?3",
    )?;
    let rows = stmt.query_map(params![agency_id.as_str(), after, limit], |r| {
        Ok(CenterOpening {
            seq: r.get(0)?,
            call_id: r.get(1)?,
            reference: r.get(2)?,
            call_type: r.get(3)?,
            equipment_id: r.get(4)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The journal's last position (0 when empty): where a new reader starts.
pub fn last_seq(conn: &crate::Conn) -> StoreResult<i64> {
    conn.query_row_cached("SELECT coalesce(max(seq), 0) FROM audit_log", [], |r| {
        r.get(0)
    })
}
