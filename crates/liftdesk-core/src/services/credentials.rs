//! Issuing and revoking API tokens, call-center keys and partner keys.
//! A secret is returned once, here; only its fingerprint is stored.

use crate::domain::id::{AccountId, AgencyId, CredentialId, SessionId};
use serde_json::json;

use crate::auth::secret;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::accounts::required_name;
use crate::store::accounts::AccountRow;
use crate::store::agencies::AgencyRow;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::credentials::{self, CredentialKind, NewCredential};
use crate::store::credentials::{
    ApiTokenMatch, CallCenterKeyMatch, ListedCredential, PartnerKeyMatch,
};
use crate::store::sessions::{self, SessionRow};
use crate::store::{Store, Tx};
use crate::store::{accounts, agencies};

/// A freshly issued credential: the only time its secret is known.
#[derive(Debug, Clone)]
pub struct Issued {
    pub id: CredentialId,
    pub secret: String,
}

fn issue(tx: &Tx, prefix: &str, new: NewCredential<'_>) -> AppResult<Issued> {
    let secret_text = secret::generate(prefix)?;
    let fingerprint = secret::fingerprint(&secret_text);
    let id = credentials::insert(
        tx,
        &NewCredential {
            fingerprint: &fingerprint,
            ..new
        },
    )?;
    Ok(Issued {
        id,
        secret: secret_text,
    })
}

/// An API token named after the tool that will receive it.
pub fn create_api_token(
    tx: &Tx,
    account_id: &AccountId,
    tool_name: &str,
    actor: &Actor,
) -> AppResult<Issued> {
    let name = required_name(tool_name, "Le nom de l'outil")?;
    let account =
        accounts::get(tx, account_id)?.ok_or_else(|| AppError::not_found("Compte introuvable."))?;
    if !account.active {
        return Err(AppError::unprocessable(
            "Ce compte est désactivé : il ne peut pas recevoir de jeton.",
        ));
    }
    let issued = issue(
        tx,
        secret::API_TOKEN_PREFIX,
        NewCredential {
            kind: CredentialKind::ApiToken,
            name: &name,
            fingerprint: "",
            account_id: Some(account_id),
            agency_id: None,
            call_center_id: None,
            created_by: actor_account(actor),
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: account.default_agency_id.as_deref(),
            actor,
            action: "creation",
            object_type: CredentialKind::ApiToken.as_str(),
            object_id: Some(issued.id.as_str()),
            detail: Some(json!({ "name": name, "account": account_id })),
        },
    )?;
    Ok(issued)
}

pub fn revoke(tx: &Tx, credential_id: &CredentialId, actor: &Actor) -> AppResult<()> {
    if !credentials::exists(tx, credential_id)? {
        return Err(AppError::not_found(format!(
            "Jeton ou clé introuvable : {credential_id}."
        )));
    }
    if !credentials::revoke(tx, credential_id)? {
        return Err(AppError::conflict(
            "Ce jeton ou cette clé est déjà révoqué.",
        ));
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: None,
            actor,
            action: "revocation",
            object_type: "credential",
            object_id: Some(credential_id.as_str()),
            detail: None,
        },
    )?;
    Ok(())
}

/// 404 of a token that is not one of the account's own.
pub const TOKEN_NOT_FOUND: &str = "Jeton d'API introuvable parmi ceux de votre compte.";
/// 404 of a key that is not the agency's.
pub const KEY_NOT_FOUND: &str = "Clé introuvable dans cette agence.";

/// Revokes one of the account's own API tokens; anyone else's answers 404,
/// like an unknown id.
pub fn revoke_own_api_token(
    tx: &Tx,
    account_id: &AccountId,
    credential_id: &CredentialId,
    actor: &Actor,
) -> AppResult<()> {
    let row = credentials::get(tx, credential_id)?
        .filter(|row| {
            row.kind == CredentialKind::ApiToken && row.account_id.as_ref() == Some(account_id)
        })
        .ok_or_else(|| AppError::not_found(TOKEN_NOT_FOUND))?;
    if row.revoked_at.is_some() || !credentials::revoke(tx, &row.id)? {
        return Err(AppError::conflict("Ce jeton est déjà révoqué."));
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: None,
            actor,
            action: "revocation",
            object_type: CredentialKind::ApiToken.as_str(),
            object_id: Some(row.id.as_str()),
            detail: Some(json!({ "name": row.name, "account": account_id })),
        },
    )?;
    Ok(())
}

/// Revokes a call-center key of the agency; a key of another agency
/// answers 404.
pub fn revoke_call_center_key(
    tx: &Tx,
    agency_id: &AgencyId,
    credential_id: &CredentialId,
    actor: &Actor,
) -> AppResult<()> {
    let row = credentials::get(tx, credential_id)?
        .filter(|row| {
            row.kind == CredentialKind::CallCenterKey
                && row.agency_id.as_deref() == Some(agency_id.as_str())
        })
        .ok_or_else(|| AppError::not_found(KEY_NOT_FOUND))?;
    if row.revoked_at.is_some() || !credentials::revoke(tx, &row.id)? {
        return Err(AppError::conflict("Cette clé est déjà révoquée."));
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "revocation",
            object_type: CredentialKind::CallCenterKey.as_str(),
            object_id: Some(row.id.as_str()),
            detail: Some(json!({ "center": row.name })),
        },
    )?;
    Ok(())
}

/// What revoking a partner key in one agency did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartnerKeyWithdrawal {
    /// Agencies the key still serves (never this one).
    pub remaining_agencies: i64,
    /// True when no agency remained: the key itself is revoked.
    pub revoked: bool,
}

/// Revokes a partner key in one agency: the agency is withdrawn from the key
/// at once (the partner is refused there with 403), and the key itself is
/// revoked when no agency remains. An agency never ends the key for the
/// other agencies it serves. A key not attributed to the agency answers 404.
pub fn revoke_partner_key_in_agency(
    tx: &Tx,
    agency_id: &AgencyId,
    credential_id: &CredentialId,
    actor: &Actor,
) -> AppResult<PartnerKeyWithdrawal> {
    let row = credentials::get(tx, credential_id)?
        .filter(|row| row.kind == CredentialKind::PartnerKey && row.revoked_at.is_none())
        .ok_or_else(|| AppError::not_found(KEY_NOT_FOUND))?;
    if !credentials::is_attributed_to(tx, &row.id, agency_id)? {
        return Err(AppError::not_found(KEY_NOT_FOUND));
    }
    let remaining_agencies = credentials::withdraw_partner_agency(tx, &row.id, agency_id)?;
    let revoked = remaining_agencies == 0 && credentials::revoke(tx, &row.id)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: if revoked {
                "revocation"
            } else {
                "retrait_agence"
            },
            object_type: CredentialKind::PartnerKey.as_str(),
            object_id: Some(row.id.as_str()),
            detail: Some(json!({
                "partner": row.name,
                "agency": agency_id,
                "remainingAgencies": remaining_agencies,
            })),
        },
    )?;
    Ok(PartnerKeyWithdrawal {
        remaining_agencies,
        revoked,
    })
}

/// A key for a call center of the agency (the center is created if new).
pub fn create_call_center_key(
    tx: &Tx,
    agency_id: &AgencyId,
    center_name: &str,
    actor: &Actor,
) -> AppResult<Issued> {
    let name = required_name(center_name, "Le nom du centre d'appels")?;
    if agencies::get_live_agency(tx, agency_id.as_str())?.is_none() {
        return Err(AppError::not_found(format!(
            "Agence introuvable : {agency_id}."
        )));
    }
    let center_id = credentials::call_center_id(tx, agency_id, &name)?;
    let issued = issue(
        tx,
        secret::CALL_CENTER_KEY_PREFIX,
        NewCredential {
            kind: CredentialKind::CallCenterKey,
            name: &name,
            fingerprint: "",
            account_id: None,
            agency_id: Some(agency_id.as_str()),
            call_center_id: Some(&center_id),
            created_by: actor_account(actor),
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "creation",
            object_type: CredentialKind::CallCenterKey.as_str(),
            object_id: Some(issued.id.as_str()),
            detail: Some(json!({ "center": name, "callCenterId": center_id })),
        },
    )?;
    Ok(issued)
}

/// A partner key attributed to the given agencies.
pub fn create_partner_key(
    tx: &Tx,
    partner_name: &str,
    agency_ids: &[String],
    actor: &Actor,
) -> AppResult<Issued> {
    let name = required_name(partner_name, "Le nom du partenaire")?;
    if agency_ids.is_empty() {
        return Err(AppError::unprocessable(
            "Indiquez au moins une agence attribuée à la clé.",
        ));
    }
    for agency_id in agency_ids {
        if agencies::get_live_agency(tx, agency_id)?.is_none() {
            return Err(AppError::not_found(format!(
                "Agence introuvable : {agency_id}."
            )));
        }
    }
    let issued = issue(
        tx,
        secret::PARTNER_KEY_PREFIX,
        NewCredential {
            kind: CredentialKind::PartnerKey,
            name: &name,
            fingerprint: "",
            account_id: None,
            agency_id: None,
            call_center_id: None,
            created_by: actor_account(actor),
        },
    )?;
    for agency_id in agency_ids {
        credentials::attribute_partner_agency(tx, &issued.id, &AgencyId::new(agency_id.as_str()))?;
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: agency_ids.first().map(String::as_str),
            actor,
            action: "creation",
            object_type: CredentialKind::PartnerKey.as_str(),
            object_id: Some(issued.id.as_str()),
            detail: Some(json!({ "partner": name, "agencies": agency_ids })),
        },
    )?;
    Ok(issued)
}

fn actor_account(actor: &Actor) -> Option<&AccountId> {
    match actor {
        Actor::Account(id) => Some(id),
        _ => None,
    }
}

// -- Operations for a principal (the web application's keys screen) ---------
//
// Each opens its own transaction and checks what it asks of the principal;
// the functions above are their steps (and the command line's).

/// Which keys a page lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// The principal's own API tokens.
    OwnApiTokens,
    /// The call-center keys of the principal's agency.
    CallCenter,
    /// The partner keys attributed to the principal's agency.
    Partner,
}

/// One page of keys of `kind`, newest first, and their total.
pub async fn list_keys(
    store: &Store,
    p: &Principal,
    kind: KeyKind,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<ListedCredential>)> {
    // Whose keys: the account's own tokens, or the agency's keys.
    enum Owner {
        Account(AccountId),
        CallCenters(AgencyId),
        Partners(AgencyId),
    }
    let owner = match kind {
        KeyKind::OwnApiTokens => Owner::Account(p.account()?.id.clone()),
        KeyKind::CallCenter => Owner::CallCenters(p.agency_id()?.to_owned()),
        KeyKind::Partner => Owner::Partners(p.agency_id()?.to_owned()),
    };
    Ok(store
        .read(move |conn| match &owner {
            Owner::Account(id) => credentials::list_api_tokens(conn, id, limit, offset),
            Owner::CallCenters(agency) => {
                credentials::list_call_center_keys(conn, agency, limit, offset)
            }
            Owner::Partners(agency) => credentials::list_partner_keys(conn, agency, limit, offset),
        })
        .await?)
}

/// A new API token of the principal's own account; its secret is in the
/// answer only.
pub async fn issue_own_api_token(store: &Store, p: &Principal, name: &str) -> AppResult<Issued> {
    let (account_id, actor, name) = (p.account()?.id.clone(), p.actor.clone(), name.to_owned());
    store
        .write(move |tx| create_api_token(tx, &account_id, &name, &actor))
        .await
}

/// Revokes one of the principal's own API tokens (404 for anyone else's).
pub async fn revoke_own_token(store: &Store, p: &Principal, id: &CredentialId) -> AppResult<()> {
    let (account_id, actor, id) = (p.account()?.id.clone(), p.actor.clone(), id.to_owned());
    store
        .write(move |tx| revoke_own_api_token(tx, &account_id, &id, &actor))
        .await
}

/// A new call-center key of the principal's agency (administrators only).
pub async fn issue_call_center_key(store: &Store, p: &Principal, name: &str) -> AppResult<Issued> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer("Créer une clé de centre d'appels"))?;
    let (actor, name) = (p.actor.clone(), name.to_owned());
    store
        .write(move |tx| create_call_center_key(tx, &agency_id, &name, &actor))
        .await
}

/// Revokes a call-center key of the principal's agency (administrators only).
pub async fn withdraw_call_center_key(
    store: &Store,
    p: &Principal,
    id: &CredentialId,
) -> AppResult<()> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer(
        "Révoquer une clé de centre d'appels",
    ))?;
    let (actor, id) = (p.actor.clone(), id.to_owned());
    store
        .write(move |tx| revoke_call_center_key(tx, &agency_id, &id, &actor))
        .await
}

/// A new partner key attributed to the principal's agency (administrators only).
pub async fn issue_partner_key(store: &Store, p: &Principal, name: &str) -> AppResult<Issued> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer("Créer une clé partenaire"))?;
    let (actor, name) = (p.actor.clone(), name.to_owned());
    store
        .write(move |tx| create_partner_key(tx, &name, &[agency_id.into_string()], &actor))
        .await
}

/// Withdraws a partner key from the principal's agency, revoking it when it
/// serves no other agency (administrators only).
pub async fn withdraw_partner_key(
    store: &Store,
    p: &Principal,
    id: &CredentialId,
) -> AppResult<PartnerKeyWithdrawal> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer("Révoquer une clé partenaire"))?;
    let (actor, id) = (p.actor.clone(), id.to_owned());
    store
        .write(move |tx| revoke_partner_key_in_agency(tx, &agency_id, &id, &actor))
        .await
}

// -- Who a secret belongs to (the front doors' extractors) ------------------
//
// Each lookup is by the secret's SHA-256 fingerprint, never the secret. The
// API token's and the call-center key's are kept in memory until the
// database changes (`store::cache`): a revocation, a role or scope change is
// a commit, so the next call reads again.

/// The live API token of `fingerprint`, its account and the account's scope.
pub fn api_token_holder(
    store: &Store,
    fingerprint: &str,
) -> AppResult<Option<(ApiTokenMatch, AccountRow, Vec<AgencyRow>)>> {
    let key = format!("api-token:{fingerprint}");
    let fingerprint = fingerprint.to_owned();
    let found = store.read_cached_inline(key, move |conn| -> AppResult<_> {
        let Some(matched) = credentials::find_live_api_token(conn, &fingerprint)? else {
            return Ok(None);
        };
        let Some(account) = accounts::get(conn, &matched.account_id)? else {
            return Ok(None);
        };
        let scope = crate::services::accounts::agencies_in_scope(conn, &account)?;
        Ok(Some((matched, account, scope)))
    })?;
    Ok(found.as_ref().clone())
}

/// The live call-center key of `fingerprint`, with its agency.
pub fn call_center_key_holder(
    store: &Store,
    fingerprint: &str,
) -> AppResult<Option<CallCenterKeyMatch>> {
    let key = format!("call-center-key:{fingerprint}");
    let fingerprint = fingerprint.to_owned();
    let found = store.read_cached_inline(key, move |conn| -> AppResult<_> {
        Ok(credentials::find_live_call_center_key(conn, &fingerprint)?)
    })?;
    Ok(found.as_ref().clone())
}

/// The live partner key of `fingerprint` and the agencies it is attributed to.
pub async fn partner_key_holder(
    store: &Store,
    fingerprint: &str,
) -> AppResult<Option<(PartnerKeyMatch, Vec<AgencyRow>)>> {
    let fingerprint = fingerprint.to_owned();
    store
        .read(move |conn| -> AppResult<_> {
            let Some(matched) = credentials::find_live_partner_key(conn, &fingerprint)? else {
                return Ok(None);
            };
            let mut scope = Vec::with_capacity(matched.agency_ids.len());
            for id in &matched.agency_ids {
                if let Some(agency) = agencies::get_live_agency(conn, id)? {
                    scope.push(agency);
                }
            }
            Ok(Some((matched, scope)))
        })
        .await
}

/// Records the last use of a credential at `at` (stored text). A
/// call-center key is one agency's row: its use is recorded under that
/// agency's lock (`Store::write_for_agency`), so that a key's first call of
/// the minute does not queue a write of the whole store before the other
/// agencies' calls on PostgreSQL.
pub async fn record_use(
    store: &Store,
    credential_id: &CredentialId,
    agency: Option<&str>,
    at: String,
) -> AppResult<()> {
    let id = credential_id.to_owned();
    let touch = move |tx: &crate::store::Tx| credentials::touch(tx, &id, &at);
    match agency {
        Some(agency) => store.write_for_agency(agency.to_owned(), touch).await?,
        None => store.write(touch).await?,
    }
    Ok(())
}

/// The live staff session of `fingerprint` at `now` (stored text), its
/// account and the account's scope.
pub async fn session_holder(
    store: &Store,
    fingerprint: &str,
    now: String,
) -> AppResult<Option<(SessionRow, AccountRow, Vec<AgencyRow>)>> {
    let fingerprint = fingerprint.to_owned();
    store
        .read(move |conn| -> AppResult<_> {
            let Some(row) = sessions::find_live(conn, &fingerprint, &now)? else {
                return Ok(None);
            };
            let Some(account) = accounts::get(conn, &row.account_id)? else {
                return Ok(None);
            };
            let scope = crate::services::accounts::agencies_in_scope(conn, &account)?;
            Ok(Some((row, account, scope)))
        })
        .await
}

/// Pushes a session's idle expiry to `expires_at` (stored texts).
pub async fn extend_session(
    store: &Store,
    session_id: &SessionId,
    now: String,
    expires_at: String,
) -> AppResult<()> {
    let id = session_id.to_owned();
    Ok(store
        .write(move |tx| sessions::extend(tx, &id, &now, &expires_at))
        .await?)
}
