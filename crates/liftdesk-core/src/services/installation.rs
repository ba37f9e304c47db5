//! The installation's administration from the command line (`liftdesk
//! init`, `agency create`, `user create`, `operator create`, `token`,
//! `call-center-key`, `partner-key`): each operation opens its own
//! transaction, blocking (the command line runs no async runtime), and the
//! audit names `Actor::Cli`. Whoever runs the command line on the data
//! directory administers the installation: there is no principal to check.

use crate::auth::password;
use crate::error::{AppError, AppResult};
use crate::services::accounts::{self, InitInput, InitOutput, NewUserInput};
use crate::services::credentials::{self, Issued};
use crate::store::Store;
use crate::store::accounts as account_store;
use crate::store::audit::Actor;

/// A password checked for strength, then hashed (argon2).
fn hashed(password_text: &str) -> AppResult<String> {
    password::check_strength(password_text)?;
    Ok(password::hash(password_text)?)
}

/// The first client organization, its agency and its administrator.
pub fn init_organization(
    store: &Store,
    organization: &str,
    agency: &str,
    admin_email: &str,
    admin_name: Option<&str>,
    admin_password: &str,
) -> AppResult<InitOutput> {
    let hash = hashed(admin_password)?;
    store.write_blocking(|tx| {
        accounts::init_organization(
            tx,
            &InitInput {
                organization,
                agency,
                admin_email,
                admin_name,
                admin_password_hash: &hash,
            },
            &Actor::Cli,
        )
    })
}

/// A new agency of an organization; returns its id.
pub fn create_agency(
    store: &Store,
    organization_id: &str,
    name: &str,
    v1_id: Option<&str>,
) -> AppResult<String> {
    store
        .write_blocking(|tx| accounts::create_agency(tx, organization_id, name, v1_id, &Actor::Cli))
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
pub fn create_user(store: &Store, user: &NewUser<'_>) -> AppResult<String> {
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
            &Actor::Cli,
        )
    })
}

/// The service operator's account; returns its id.
pub fn create_operator(
    store: &Store,
    email: &str,
    name: &str,
    password: &str,
) -> AppResult<String> {
    let hash = hashed(password)?;
    store.write_blocking(|tx| accounts::create_operator(tx, email, name, &hash, &Actor::Cli))
}

/// A new API token of the account of `email`; its secret is in the answer only.
pub fn issue_api_token(store: &Store, email: &str, name: &str) -> AppResult<Issued> {
    store.write_blocking(|tx| {
        let email = accounts::normalize_email(email)?;
        let account = account_store::find_by_email(tx, &email)?.ok_or_else(|| {
            AppError::not_found(format!("Aucun compte n'a l'adresse e-mail « {email} »."))
        })?;
        credentials::create_api_token(tx, &account.id, name, &Actor::Cli)
    })
}

/// Revokes any credential (API token, call-center or partner key).
pub fn revoke_credential(store: &Store, id: &str) -> AppResult<()> {
    store.write_blocking(|tx| credentials::revoke(tx, id, &Actor::Cli))
}

/// A new call-center key of an agency.
pub fn issue_call_center_key(store: &Store, agency_id: &str, name: &str) -> AppResult<Issued> {
    store.write_blocking(|tx| credentials::create_call_center_key(tx, agency_id, name, &Actor::Cli))
}

/// A new partner key attributed to agencies.
pub fn issue_partner_key(store: &Store, name: &str, agency_ids: &[String]) -> AppResult<Issued> {
    store.write_blocking(|tx| credentials::create_partner_key(tx, name, agency_ids, &Actor::Cli))
}
