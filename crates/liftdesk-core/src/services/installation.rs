//! The installation's administration from the command line (`liftdesk
//! init`, `agency create`, `user create`, `operator create`, `token`,
//! `call-center-key`, `partner-key`): each operation opens its own
//! transaction, blocking (the command line runs no async runtime). Each
//! takes the command line's principal (`Principal::command_line`, which the
//! audit names `Actor::Cli`) and asks `Capability::Install`: whoever runs the
//! command line on the data directory administers the installation, and no
//! account or key does these through an API.

use crate::auth::password;
use crate::domain::id::{AccountId, AgencyId, CredentialId, OrganizationId};
use crate::domain::identity::{IdentityField, IdentityInput};
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::accounts::{self, InitInput, InitOutput, NewUserInput};
use crate::services::agencies::{self, AgencyEntry, Stopped};
use crate::services::credentials::{self, Issued};
use crate::services::identity::{self, IdentityView};
use crate::services::people;
use crate::store::Store;
use crate::store::accounts as account_store;

/// A password checked for strength, then hashed (argon2).
fn hashed(password_text: &str) -> AppResult<String> {
    password::check_strength(password_text)?;
    Ok(password::hash(password_text)?)
}

/// The command line acting in the agency `agency_id`
/// ([`Principal::command_line_in`]); 404 « Agence inconnue. » otherwise.
pub fn command_line_in_agency(store: &Store, agency_id: &AgencyId) -> AppResult<Principal> {
    let agency =
        store.read_blocking(|conn| crate::store::agencies::get_agency(conn, agency_id.as_str()))?;
    agency
        .map(Principal::command_line_in)
        .ok_or_else(|| AppError::not_found("Agence inconnue."))
}

/// What `liftdesk init` is given.
pub struct Init<'a> {
    pub organization: &'a str,
    pub agency: &'a str,
    pub admin_email: &'a str,
    pub admin_name: Option<&'a str>,
    pub admin_password: &'a str,
    /// The first agency's identity as a seller (its SIRET and address).
    pub seller: Option<&'a IdentityInput>,
}

/// The first client organization, its agency and its administrator, with
/// the agency's identity when given, in one transaction.
pub fn init_organization(store: &Store, p: &Principal, init: &Init<'_>) -> AppResult<InitOutput> {
    p.require(Capability::Install)?;
    let hash = hashed(init.admin_password)?;
    let seller = init.seller.map(identity::checked).transpose()?;
    store.write_blocking(|tx| {
        let out = accounts::init_organization(
            tx,
            &InitInput {
                organization: init.organization,
                agency: init.agency,
                admin_email: init.admin_email,
                admin_name: init.admin_name,
                admin_password_hash: &hash,
            },
            &p.actor,
        )?;
        if let Some(seller) = &seller {
            identity::record_in(tx, &AgencyId::new(out.agency_id.as_str()), seller, &p.actor)?;
        }
        Ok(out)
    })
}

/// A change of the agency's identity from the command line: each field
/// given replaces the recorded one (an empty text erases it), the others
/// are kept.
#[derive(Debug, Clone, Default)]
pub struct IdentityPatch {
    pub fields: Vec<(IdentityField, String)>,
    pub vat_on_debits: Option<bool>,
}

/// Changes the identity of the agency `agency_id` by `patch` (nothing
/// given: reads it); returns it as recorded.
pub fn agency_identity(
    store: &Store,
    p: &Principal,
    agency_id: &AgencyId,
    patch: IdentityPatch,
) -> AppResult<IdentityView> {
    p.require(Capability::Install)?;
    let p = command_line_in_agency(store, agency_id)?;
    if patch.fields.is_empty() && patch.vat_on_debits.is_none() {
        // Shown as recorded, not checked again by today's rules.
        return store.read_blocking(|conn| identity::view_in(conn, &p, agency_id));
    }
    store.write_blocking(|tx| {
        let current = identity::view_in(tx, &p, agency_id)?;
        let mut form = IdentityInput::of(&current.identity);
        for (field, text) in patch.fields {
            form.set(field, text).map_err(AppError::unprocessable)?;
        }
        if let Some(on) = patch.vat_on_debits {
            form.vat_on_debits = on;
        }
        identity::record_in(tx, agency_id, &identity::checked(&form)?, &p.actor)?;
        identity::view_in(tx, &p, agency_id)
    })
}

/// A new agency of an organization; returns its id.
pub fn create_agency(
    store: &Store,
    p: &Principal,
    organization_id: &OrganizationId,
    name: &str,
    v1_id: Option<&str>,
) -> AppResult<String> {
    p.require(Capability::Install)?;
    store.write_blocking(|tx| {
        agencies::create_in(tx, organization_id, name, v1_id, &p.actor).map(|id| id.to_string())
    })
}

/// Renames the agency `agency_id`.
pub fn rename_agency(
    store: &Store,
    p: &Principal,
    agency_id: &AgencyId,
    name: &str,
) -> AppResult<AgencyEntry> {
    p.require(Capability::Install)?;
    let p = command_line_in_agency(store, agency_id)?;
    store.write_blocking(|tx| agencies::rename_in(tx, &p, agency_id, name))
}

/// Archives the agency `agency_id` (see `services::agencies::archive`).
pub fn archive_agency(
    store: &Store,
    p: &Principal,
    agency_id: &AgencyId,
) -> AppResult<(AgencyEntry, Stopped)> {
    p.require(Capability::Install)?;
    let p = command_line_in_agency(store, agency_id)?;
    store.write_blocking(|tx| agencies::archive_in(tx, &p, agency_id))
}

/// Restores the archived agency `agency_id`.
pub fn restore_agency(
    store: &Store,
    p: &Principal,
    agency_id: &AgencyId,
) -> AppResult<AgencyEntry> {
    p.require(Capability::Install)?;
    let p = command_line_in_agency(store, agency_id)?;
    store.write_blocking(|tx| agencies::restore_in(tx, &p, agency_id))
}

/// A new staff account.
pub struct NewUser<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub password: &'a str,
    /// The first one is the default agency.
    pub agency_ids: &'a [String],
    pub admin: bool,
    pub performs_surveys: bool,
    pub technician: bool,
}

/// A staff account working in its agencies; returns its id.
pub fn create_user(store: &Store, p: &Principal, user: &NewUser<'_>) -> AppResult<AccountId> {
    p.require(Capability::Install)?;
    let hash = hashed(user.password)?;
    store.write_blocking(|tx| {
        accounts::create_user(
            tx,
            &NewUserInput {
                email: user.email,
                name: user.name,
                password_hash: &hash,
                agency_ids: user.agency_ids,
                admin: user.admin,
                performs_surveys: user.performs_surveys,
                technician: user.technician,
            },
            &p.actor,
        )
    })
}

/// The service operator's account; returns its id.
pub fn create_operator(
    store: &Store,
    p: &Principal,
    email: &str,
    name: &str,
    password: &str,
) -> AppResult<AccountId> {
    p.require(Capability::Install)?;
    let hash = hashed(password)?;
    store.write_blocking(|tx| accounts::create_operator(tx, email, name, &hash, &p.actor))
}

/// A new API token of the account of `email`; its secret is in the answer only.
pub fn issue_api_token(store: &Store, p: &Principal, email: &str, name: &str) -> AppResult<Issued> {
    p.require(Capability::Install)?;
    store.write_blocking(|tx| {
        let email = accounts::normalize_email(email)?;
        let account = account_store::find_by_email(tx, &email)?.ok_or_else(|| {
            AppError::not_found(format!("Aucun compte n'a l'adresse e-mail « {email} »."))
        })?;
        credentials::create_api_token(tx, &account.id, name, &p.actor)
    })
}

/// Revokes any credential (API token, call-center or partner key).
pub fn revoke_credential(store: &Store, p: &Principal, id: &CredentialId) -> AppResult<()> {
    p.require(Capability::Install)?;
    store.write_blocking(|tx| credentials::revoke(tx, id, &p.actor))
}

/// A new call-center key of an agency.
pub fn issue_call_center_key(
    store: &Store,
    p: &Principal,
    agency_id: &AgencyId,
    name: &str,
) -> AppResult<Issued> {
    p.require(Capability::Install)?;
    store.write_blocking(|tx| credentials::create_call_center_key(tx, agency_id, name, &p.actor))
}

/// A new partner key attributed to agencies.
pub fn issue_partner_key(
    store: &Store,
    p: &Principal,
    name: &str,
    agency_ids: &[String],
) -> AppResult<Issued> {
    p.require(Capability::Install)?;
    store.write_blocking(|tx| credentials::create_partner_key(tx, name, agency_ids, &p.actor))
}

/// Gives the account `email` a temporary password, shown once (the way back
/// in for an administrator who forgot theirs): it chooses its own at its
/// next sign-in, its sessions and API tokens end. An inactive account is
/// refused (422): its administrators reactivate it first. Audit
/// `reinitialisation_mot_de_passe` by the command line.
pub fn reset_password(
    store: &Store,
    p: &Principal,
    email: &str,
) -> AppResult<(AccountId, people::TemporaryPassword)> {
    p.require(Capability::Install)?;
    let email = accounts::normalize_email(email)?;
    let temporary = people::temporary_password()?;
    let hash = password::hash(&temporary.0)?;
    let id = store.write_blocking(|tx| {
        let account = account_store::find_by_email(tx, &email)?.ok_or_else(|| {
            AppError::not_found(format!("Aucun compte n'a l'adresse e-mail « {email} »."))
        })?;
        if !account.active {
            return Err(AppError::unprocessable(
                "Ce compte est désactivé : réactivez-le avant de réinitialiser son mot de passe.",
            ));
        }
        people::reset_in(
            tx,
            &account,
            &hash,
            account.default_agency_id.as_deref(),
            &p.actor,
        )?;
        Ok(account.id)
    })?;
    Ok((id, temporary))
}
