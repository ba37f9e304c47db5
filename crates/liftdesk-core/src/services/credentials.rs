//! Issuing and revoking API tokens, call-center keys and partner keys.
//! A secret is returned once, here; only its fingerprint is stored.

use serde_json::json;

use crate::auth::secret;
use crate::error::{AppError, AppResult};
use crate::services::accounts::required_name;
use crate::store::Tx;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::credentials::{self, CredentialKind, NewCredential};
use crate::store::{accounts, agencies};

/// A freshly issued credential: the only time its secret is known.
#[derive(Debug, Clone)]
pub struct Issued {
    pub id: String,
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
    account_id: &str,
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
            object_type: "api_token",
            object_id: Some(&issued.id),
            detail: Some(json!({ "name": name, "account": account_id })),
        },
    )?;
    Ok(issued)
}

pub fn revoke(tx: &Tx, credential_id: &str, actor: &Actor) -> AppResult<()> {
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
            object_id: Some(credential_id),
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
    account_id: &str,
    credential_id: &str,
    actor: &Actor,
) -> AppResult<()> {
    let row = credentials::get(tx, credential_id)?
        .filter(|row| {
            row.kind == CredentialKind::ApiToken.as_str()
                && row.account_id.as_deref() == Some(account_id)
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
            object_type: "api_token",
            object_id: Some(&row.id),
            detail: Some(json!({ "name": row.name, "account": account_id })),
        },
    )?;
    Ok(())
}

/// Revokes a call-center key of the agency; a key of another agency
/// answers 404.
pub fn revoke_call_center_key(
    tx: &Tx,
    agency_id: &str,
    credential_id: &str,
    actor: &Actor,
) -> AppResult<()> {
    let row = credentials::get(tx, credential_id)?
        .filter(|row| {
            row.kind == CredentialKind::CallCenterKey.as_str()
                && row.agency_id.as_deref() == Some(agency_id)
        })
        .ok_or_else(|| AppError::not_found(KEY_NOT_FOUND))?;
    if row.revoked_at.is_some() || !credentials::revoke(tx, &row.id)? {
        return Err(AppError::conflict("Cette clé est déjà révoquée."));
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id),
            actor,
            action: "revocation",
            object_type: "call_center_key",
            object_id: Some(&row.id),
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
    agency_id: &str,
    credential_id: &str,
    actor: &Actor,
) -> AppResult<PartnerKeyWithdrawal> {
    let row = credentials::get(tx, credential_id)?
        .filter(|row| row.kind == CredentialKind::PartnerKey.as_str() && row.revoked_at.is_none())
        .ok_or_else(|| AppError::not_found(KEY_NOT_FOUND))?;
    if !credentials::is_attributed_to(tx, &row.id, agency_id)? {
        return Err(AppError::not_found(KEY_NOT_FOUND));
    }
    let remaining_agencies = credentials::withdraw_partner_agency(tx, &row.id, agency_id)?;
    let revoked = remaining_agencies == 0 && credentials::revoke(tx, &row.id)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id),
            actor,
            action: if revoked {
                "revocation"
            } else {
                "retrait_agence"
            },
            object_type: "partner_key",
            object_id: Some(&row.id),
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
    agency_id: &str,
    center_name: &str,
    actor: &Actor,
) -> AppResult<Issued> {
    let name = required_name(center_name, "Le nom du centre d'appels")?;
    if agencies::get_agency(tx, agency_id)?.is_none() {
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
            agency_id: Some(agency_id),
            call_center_id: Some(&center_id),
            created_by: actor_account(actor),
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id),
            actor,
            action: "creation",
            object_type: "call_center_key",
            object_id: Some(&issued.id),
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
        if agencies::get_agency(tx, agency_id)?.is_none() {
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
        credentials::attribute_partner_agency(tx, &issued.id, agency_id)?;
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: agency_ids.first().map(String::as_str),
            actor,
            action: "creation",
            object_type: "partner_key",
            object_id: Some(&issued.id),
            detail: Some(json!({ "partner": name, "agencies": agency_ids })),
        },
    )?;
    Ok(issued)
}

fn actor_account(actor: &Actor) -> Option<&str> {
    match actor {
        Actor::Account(id) => Some(id),
        _ => None,
    }
}
