//! The organization's agencies as their administrators manage them (the
//! « Agence › Agences » screen, `/app/api/agencies…`, and `liftdesk agency
//! create`): the list, a new agency (with its identity as a seller when
//! given), a new name, archiving and restoring.
//!
//! An organization administrator creates, archives and restores (the
//! command line too); an agency's own administrator may rename it. An
//! archived agency leaves every scope at once (the store's scope queries
//! skip it: sessions, API tokens and partner keys no longer reach it), its
//! call-center keys and webhook subscriptions are revoked and its partner
//! keys withdrawn from it, in the archive's transaction; its history
//! (documents, journal) stays. The organization keeps at least one working
//! agency, and no active colleague is left with no agency.

use serde_json::json;

use crate::domain::id::{AgencyId, OrganizationId};
use crate::domain::identity::IdentityInput;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::accounts::required_name;
use crate::services::{credentials as key_service, identity};
use crate::store::agencies::{self, AgencyRecord, AgencyRow};
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::{Conn, Store, Tx, accounts, calls, constraint, credentials, webhooks};

/// Longest agency name.
pub const MAX_NAME_CHARS: usize = 200;

const CREATE: Capability<'static> = Capability::AdministerOrganization("Créer une agence");
const ARCHIVE: Capability<'static> =
    Capability::AdministerOrganization("Archiver ou réactiver une agence");

fn agency_not_found() -> AppError {
    AppError::not_found("Agence introuvable.")
}

/// An agency as the screen lists it.
#[derive(Debug, Clone)]
pub struct AgencyEntry {
    pub record: AgencyRecord,
    /// What its identity lacks to issue an invoice (`siret`, `address`).
    pub missing_to_issue: Vec<&'static str>,
    /// The principal may rename it.
    pub can_rename: bool,
    /// The principal may archive or restore it.
    pub can_archive: bool,
}

/// The agencies the principal administers (administrators): every agency
/// of the organization, archived ones included, for its administrator;
/// the agencies of its account for an agency administrator.
pub async fn list(store: &Store, p: &Principal) -> AppResult<Vec<AgencyEntry>> {
    let organization_id = p.agency()?.organization_id.clone();
    p.require(Capability::Administer("Consulter les agences"))?;
    let p = p.clone();
    store
        .read(move |conn| {
            let org_admin = p.can(ARCHIVE);
            let scope: Vec<AgencyId> = p.scope.iter().map(|a| a.id.clone()).collect();
            agencies::records_of_organization(conn, &organization_id)?
                .into_iter()
                .filter(|r| org_admin || scope.contains(&r.agency.id))
                .map(|record| entry(conn, &p, record))
                .collect()
        })
        .await
}

fn entry(conn: &Conn, p: &Principal, record: AgencyRecord) -> AppResult<AgencyEntry> {
    let identity = crate::store::identities::current(conn, &record.agency.id)?
        .map(|c| c.identity)
        .unwrap_or_default();
    let missing_to_issue =
        crate::services::identity::missing_to_issue_in(conn, &record.agency.id, &identity)?
            .into_iter()
            .map(|field| field.as_str())
            .collect();
    let can_archive = p.can(ARCHIVE);
    Ok(AgencyEntry {
        can_rename: record.archived_at.is_none() && (can_archive || p.can(rename_capability())),
        can_archive,
        missing_to_issue,
        record,
    })
}

fn rename_capability() -> Capability<'static> {
    Capability::Administer("Renommer l'agence")
}

/// Whether the principal may create an agency (the screen's button).
pub fn can_create(p: &Principal) -> bool {
    p.can(CREATE)
}

/// A new agency of the principal's organization (its administrators),
/// with its identity when given, in one transaction.
pub async fn create(
    store: &Store,
    p: &Principal,
    name: &str,
    identity_form: Option<IdentityInput>,
) -> AppResult<AgencyEntry> {
    let organization_id = p.agency()?.organization_id.clone();
    p.require(CREATE)?;
    let name = checked_name(name)?;
    let identity_form = identity_form.as_ref().map(identity::checked).transpose()?;
    let p = p.clone();
    store
        .write(move |tx| {
            let id = create_in(tx, &organization_id, &name, None, &p.actor)?;
            if let Some(seller) = &identity_form {
                identity::record_in(tx, &id, seller, &p.actor)?;
            }
            let record = agencies::record(tx, &organization_id, id.as_str())?
                .ok_or_else(agency_not_found)?;
            entry(tx, &p, record)
        })
        .await
}

fn checked_name(raw: &str) -> AppResult<String> {
    let name = required_name(raw, "Le nom de l'agence")?;
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le nom de l'agence ne doit pas dépasser {MAX_NAME_CHARS} caractères."
        )));
    }
    Ok(name)
}

fn name_taken(name: &str) -> AppError {
    AppError::conflict(format!(
        "Une agence de l'organisation s'appelle déjà « {name} » : choisissez un autre nom."
    ))
}

/// Creates the agency in the caller's transaction, with its audit entry: a
/// name another agency of the organization has is refused (409), and a V1
/// identifier already given too.
pub fn create_in(
    tx: &Tx,
    organization_id: &OrganizationId,
    name: &str,
    v1_id: Option<&str>,
    actor: &Actor,
) -> AppResult<AgencyId> {
    let name = checked_name(name)?;
    if !agencies::organization_exists(tx, organization_id)? {
        return Err(AppError::not_found(format!(
            "Organisation introuvable : {organization_id}."
        )));
    }
    if agencies::name_taken(tx, organization_id, &name, None)? {
        return Err(name_taken(&name));
    }
    let v1_id = v1_id.map(str::trim).filter(|v| !v.is_empty());
    let id = agencies::create_agency(tx, organization_id, &name, v1_id).map_err(|err| {
        err.on_constraint(constraint::AGENCY_V1_ID, || {
            AppError::conflict(format!(
                "L'identifiant V1 « {} » est déjà attribué à une autre agence.",
                v1_id.unwrap_or_default()
            ))
        })
    })?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(&id),
            actor,
            action: "creation",
            object_type: "agency",
            object_id: Some(&id),
            detail: Some(json!({ "name": name, "v1Id": v1_id })),
        },
    )?;
    Ok(AgencyId::new(id))
}

/// The agency `id` of the principal's organization as it may manage it:
/// 404 for another organization's, or (for an agency administrator) one
/// outside its agencies.
fn managed(conn: &Conn, p: &Principal, id: &AgencyId) -> AppResult<AgencyRecord> {
    let organization_id = &p.agency()?.organization_id;
    let record =
        agencies::record(conn, organization_id, id.as_str())?.ok_or_else(agency_not_found)?;
    if p.can(ARCHIVE) || p.scope.iter().any(|a| a.id == record.agency.id) {
        Ok(record)
    } else {
        Err(agency_not_found())
    }
}

/// Renames the agency `id` (its organization's administrators, or its own);
/// an archived agency is not renamed.
pub async fn rename(
    store: &Store,
    p: &Principal,
    id: AgencyId,
    name: &str,
) -> AppResult<AgencyEntry> {
    p.agency()?;
    p.require(rename_capability())?;
    let name = checked_name(name)?;
    let p = p.clone();
    store.write(move |tx| rename_in(tx, &p, &id, &name)).await
}

/// [`rename`] in the caller's transaction.
pub fn rename_in(tx: &Tx, p: &Principal, id: &AgencyId, name: &str) -> AppResult<AgencyEntry> {
    p.require(rename_capability())?;
    let name = checked_name(name)?;
    let name = name.as_str();
    let record = managed(tx, p, id)?;
    if record.archived_at.is_some() {
        return Err(archived(&record.agency));
    }
    let organization_id = &record.agency.organization_id;
    if record.agency.name != name {
        if agencies::name_taken(tx, organization_id, name, Some(id.as_str()))? {
            return Err(name_taken(name));
        }
        agencies::rename(tx, id, name)?;
        audit::record(
            tx,
            AuditEntry {
                agency_id: Some(id.as_str()),
                actor: &p.actor,
                action: "renommage",
                object_type: "agency",
                object_id: Some(id.as_str()),
                detail: Some(json!({ "before": record.agency.name, "after": name })),
            },
        )?;
    }
    let record =
        agencies::record(tx, organization_id, id.as_str())?.ok_or_else(agency_not_found)?;
    entry(tx, p, record)
}

fn archived(agency: &AgencyRow) -> AppError {
    AppError::conflict(format!(
        "L'agence « {} » est archivée : réactivez-la d'abord.",
        agency.name
    ))
}

/// What archiving an agency stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stopped {
    pub call_center_keys: usize,
    pub partner_keys: usize,
    pub webhook_subscriptions: usize,
}

/// Archives the agency `id` (organization administrators): it leaves every
/// scope, its call-center keys and webhook subscriptions are revoked (their
/// pending deliveries abandoned), its partner keys withdrawn from it (a key
/// serving no other agency is revoked). Refused (422) for the
/// organization's last working agency, while calls are not resolved, and
/// while active colleagues work there only.
pub async fn archive(
    store: &Store,
    p: &Principal,
    id: AgencyId,
) -> AppResult<(AgencyEntry, Stopped)> {
    p.agency()?;
    p.require(ARCHIVE)?;
    let p = p.clone();
    store.write(move |tx| archive_in(tx, &p, &id)).await
}

/// [`archive`] in the caller's transaction.
pub fn archive_in(tx: &Tx, p: &Principal, id: &AgencyId) -> AppResult<(AgencyEntry, Stopped)> {
    p.require(ARCHIVE)?;
    let record = managed(tx, p, id)?;
    let agency = &record.agency;
    if record.archived_at.is_some() {
        return Err(AppError::conflict(format!(
            "L'agence « {} » est déjà archivée.",
            agency.name
        )));
    }
    if agencies::agencies_of_organization(tx, &agency.organization_id)?.len() <= 1 {
        return Err(AppError::unprocessable(
            "L'organisation garde au moins une agence en activité : créez-en une autre avant d'archiver celle-ci.",
        ));
    }
    let open = calls::open_count(tx, id)?;
    if open > 0 {
        return Err(AppError::unprocessable(format!(
            "L'agence « {} » a encore {open} appel{} en cours : résolvez-{} avant de l'archiver.",
            agency.name,
            if open > 1 { "s" } else { "" },
            if open > 1 { "les" } else { "le" },
        )));
    }
    let alone = accounts::only_in_agency(tx, id.as_str())?;
    if !alone.is_empty() {
        let names: Vec<&str> = alone
            .iter()
            .map(|a| a.name.as_deref().unwrap_or(&a.email))
            .collect();
        return Err(AppError::unprocessable(format!(
            "Ces comptes ne travaillent que dans l'agence « {} » : {}. Donnez-leur une autre agence ou désactivez-les avant de l'archiver.",
            agency.name,
            names.join(", ")
        )));
    }
    let stopped = stop_access(tx, &p.actor, id)?;
    let now = tx.now_text();
    agencies::set_archived(tx, id, Some(&now))?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(id.as_str()),
            actor: &p.actor,
            action: "archivage",
            object_type: "agency",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "callCenterKeysRevoked": stopped.call_center_keys,
                "partnerKeysWithdrawn": stopped.partner_keys,
                "webhookSubscriptionsRevoked": stopped.webhook_subscriptions,
            })),
        },
    )?;
    let record =
        agencies::record(tx, &agency.organization_id, id.as_str())?.ok_or_else(agency_not_found)?;
    Ok((entry(tx, p, record)?, stopped))
}

/// Revokes what reaches the agency from outside: its call-center keys and
/// webhook subscriptions, and its attribution to partner keys (each with
/// its audit entry).
fn stop_access(tx: &Tx, actor: &Actor, id: &AgencyId) -> AppResult<Stopped> {
    let (call_center, partner) = credentials::live_keys_of_agency(tx, id)?;
    for key in &call_center {
        key_service::revoke_call_center_key(tx, id, key, actor)?;
    }
    for key in &partner {
        key_service::revoke_partner_key_in_agency(tx, id, key, actor)?;
    }
    let now = tx.now_text();
    let subscriptions = webhooks::live_subscriptions(tx, id)?;
    for subscription in &subscriptions {
        let abandoned = webhooks::revoke_subscription(tx, id, &subscription.id, &now)?;
        audit::record(
            tx,
            AuditEntry {
                agency_id: Some(id.as_str()),
                actor,
                action: "revocation",
                object_type: "webhook_subscription",
                object_id: Some(&subscription.id),
                detail: Some(
                    json!({ "abandonedDeliveries": abandoned.unwrap_or(0), "reason": "agence archivée" }),
                ),
            },
        )?;
    }
    Ok(Stopped {
        call_center_keys: call_center.len(),
        partner_keys: partner.len(),
        webhook_subscriptions: subscriptions.len(),
    })
}

/// Restores an archived agency (organization administrators): it is back
/// in every scope that includes it; the keys and subscriptions revoked
/// when it was archived stay revoked.
pub async fn restore(store: &Store, p: &Principal, id: AgencyId) -> AppResult<AgencyEntry> {
    p.agency()?;
    p.require(ARCHIVE)?;
    let p = p.clone();
    store.write(move |tx| restore_in(tx, &p, &id)).await
}

/// [`restore`] in the caller's transaction.
pub fn restore_in(tx: &Tx, p: &Principal, id: &AgencyId) -> AppResult<AgencyEntry> {
    p.require(ARCHIVE)?;
    let record = managed(tx, p, id)?;
    if record.archived_at.is_none() {
        return Err(AppError::conflict(format!(
            "L'agence « {} » n'est pas archivée.",
            record.agency.name
        )));
    }
    agencies::set_archived(tx, id, None)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(id.as_str()),
            actor: &p.actor,
            action: "reactivation",
            object_type: "agency",
            object_id: Some(id.as_str()),
            detail: None,
        },
    )?;
    let record = agencies::record(tx, &record.agency.organization_id, id.as_str())?
        .ok_or_else(agency_not_found)?;
    entry(tx, p, record)
}
