//! Organizations, agencies and staff accounts.

use crate::domain::id::{AccountId, AgencyId, OrganizationId, SessionId};
use crate::principal::Principal;
use crate::store::Conn;
use crate::store::{Store, Tx};
use serde_json::json;

use crate::auth::password;
use crate::error::{AppError, AppResult};
use crate::principal::{self, Capability};
use crate::store::accounts::{self, AccountRow, NewAccount, Role};
use crate::store::agencies::{self, AgencyRow, OrganizationKind};
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::{constraint, credentials, sessions};

/// Whether `email` has the form of an email address: the one rule used for
/// accounts, clients, contacts and partner calls alike.
pub use crate::domain::text::is_email;

/// Trims and lower-cases an email address, refusing what is not one.
pub fn normalize_email(raw: &str) -> AppResult<String> {
    let email = raw.trim().to_lowercase();
    if is_email(&email) {
        Ok(email)
    } else {
        Err(AppError::unprocessable(format!(
            "L'adresse e-mail « {} » n'est pas valide.",
            raw.trim()
        )))
    }
}

/// A non-empty trimmed name, at most 200 characters.
pub fn required_name(raw: &str, what: &str) -> AppResult<String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(AppError::unprocessable(format!("{what} est obligatoire.")));
    }
    if name.chars().count() > 200 {
        return Err(AppError::unprocessable(format!(
            "{what} ne doit pas dépasser 200 caractères."
        )));
    }
    Ok(name.to_owned())
}

pub struct InitInput<'a> {
    pub organization: &'a str,
    pub agency: &'a str,
    pub admin_email: &'a str,
    pub admin_name: Option<&'a str>,
    /// Already hashed: hashing is slow and must not hold the writer.
    pub admin_password_hash: &'a str,
}

#[derive(Debug, Clone)]
pub struct InitOutput {
    pub organization_id: OrganizationId,
    pub agency_id: String,
    pub account_id: AccountId,
}

/// A new client organization with its first agency and its administrator.
pub fn init_organization(tx: &Tx, input: &InitInput<'_>, actor: &Actor) -> AppResult<InitOutput> {
    let organization = required_name(input.organization, "Le nom de l'organisation")?;
    let agency = required_name(input.agency, "Le nom de l'agence")?;
    let email = normalize_email(input.admin_email)?;
    let admin_name = input
        .admin_name
        .map(|n| required_name(n, "Le nom de l'administrateur"))
        .transpose()?;
    let organization_id =
        agencies::create_organization(tx, &organization, OrganizationKind::Client)?;
    // The first client organization sets the installation up (and
    // administers it); later ones only live in it.
    agencies::claim_installation(tx, &organization_id)?;
    let agency_id = agencies::create_agency(tx, &organization_id, &agency, None)?;
    let account_id = create_account(
        tx,
        &NewAccount {
            organization_id: &organization_id,
            name: admin_name.as_deref(),
            email: &email,
            password_hash: input.admin_password_hash,
            role: Role::OrgAdmin,
            performs_surveys: false,
            default_agency_id: Some(&agency_id),
            temporary_password: false,
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(&agency_id),
            actor,
            action: "creation",
            object_type: "organization",
            object_id: Some(organization_id.as_str()),
            detail: Some(json!({ "agency": agency_id, "admin": account_id })),
        },
    )?;
    Ok(InitOutput {
        organization_id,
        agency_id,
        account_id,
    })
}

/// Whether the account administers the installation itself: an
/// organization administrator of the organization that set it up. The
/// installation holds every organization's data, so neither another
/// organization's administrators, nor an agency administrator (whose scope
/// is some agencies), nor the service operator's service account (a reading
/// account for integrations) may back it up, restore or restart it.
pub fn is_installation_admin(conn: &Conn, account: &AccountRow) -> AppResult<bool> {
    if account.role != Role::OrgAdmin {
        return Ok(false);
    }
    Ok(agencies::installation_organization(conn)?.as_ref() == Some(&account.organization_id))
}

/// 403 unless the account administers the installation; a member gets the
/// usual administrators-only refusal.
pub fn require_installation_admin(conn: &Conn, account: &AccountRow, what: &str) -> AppResult<()> {
    if account.role == Role::Member {
        return principal::check(account, Capability::Administer(what));
    }
    if is_installation_admin(conn, account)? {
        Ok(())
    } else {
        Err(AppError::forbidden(format!(
            "{what} est réservé à un administrateur de l'organisation qui a installé Liftdesk."
        )))
    }
}

pub struct NewUserInput<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub password_hash: &'a str,
    /// The first one is the default agency.
    pub agency_ids: &'a [String],
    pub admin: bool,
    pub performs_surveys: bool,
    pub technician: bool,
}

/// A staff account working in the given agencies (all of one organization).
pub fn create_user(tx: &Tx, input: &NewUserInput<'_>, actor: &Actor) -> AppResult<AccountId> {
    let email = normalize_email(input.email)?;
    let name = required_name(input.name, "Le nom")?;
    let Some(first) = input.agency_ids.first() else {
        return Err(AppError::unprocessable("Indiquez au moins une agence."));
    };
    let mut agencies_found: Vec<AgencyRow> = Vec::new();
    for agency_id in input.agency_ids {
        let agency = agencies::get_live_agency(tx, agency_id)?
            .ok_or_else(|| AppError::not_found(format!("Agence introuvable : {agency_id}.")))?;
        agencies_found.push(agency);
    }
    let organization_id = agencies_found[0].organization_id.clone();
    if agencies_found
        .iter()
        .any(|a| a.organization_id != organization_id)
    {
        return Err(AppError::unprocessable(
            "Toutes les agences d'un compte doivent appartenir à la même organisation.",
        ));
    }
    let role = if input.admin {
        Role::AgencyAdmin
    } else {
        Role::Member
    };
    let id = create_account(
        tx,
        &NewAccount {
            organization_id: &organization_id,
            name: Some(&name),
            email: &email,
            password_hash: input.password_hash,
            role,
            performs_surveys: input.performs_surveys,
            default_agency_id: Some(first),
            temporary_password: false,
        },
    )?;
    for agency in &agencies_found {
        accounts::add_agency(tx, &id, &agency.id)?;
    }
    if input.technician {
        crate::store::technicians::insert_for_account(
            tx,
            &AgencyId::new(first.as_str()),
            &id,
            &name,
        )?;
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(first),
            actor,
            action: "creation",
            object_type: "account",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "email": email, "role": role.as_str(), "agencies": input.agency_ids,
                "performsSurveys": input.performs_surveys, "technician": input.technician,
            })),
        },
    )?;
    Ok(id)
}

/// `accounts::create`, an address already in use refused in French.
fn create_account(tx: &Tx, account: &NewAccount<'_>) -> AppResult<AccountId> {
    accounts::create(tx, account).map_err(|err| {
        err.on_constraint(constraint::ACCOUNT_EMAIL, || {
            AppError::conflict(format!(
                "L'adresse e-mail « {} » est déjà utilisée par un autre compte.",
                account.email
            ))
        })
    })
}

/// The service operator's service account.
pub fn create_operator(
    tx: &Tx,
    email: &str,
    name: &str,
    password_hash: &str,
    actor: &Actor,
) -> AppResult<AccountId> {
    let email = normalize_email(email)?;
    let name = required_name(name, "Le nom")?;
    let organization_id = agencies::operator_organization(tx)?;
    let id = create_account(
        tx,
        &NewAccount {
            organization_id: &organization_id,
            name: Some(&name),
            email: &email,
            password_hash,
            role: Role::Operator,
            performs_surveys: false,
            default_agency_id: None,
            temporary_password: false,
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: None,
            actor,
            action: "creation",
            object_type: "account",
            object_id: Some(id.as_str()),
            detail: Some(json!({ "email": email, "role": "operator" })),
        },
    )?;
    Ok(id)
}

/// The agencies an account works in: every agency of its organization for an
/// organization admin (present and future), every client agency for the
/// service operator, else the agencies it was given.
pub fn agencies_in_scope(conn: &Conn, account: &AccountRow) -> AppResult<Vec<AgencyRow>> {
    Ok(match account.role {
        Role::OrgAdmin => agencies::agencies_of_organization(conn, &account.organization_id)?,
        Role::Operator => agencies::all_agencies(conn)?,
        Role::AgencyAdmin | Role::Member => agencies::agencies_of_account(conn, &account.id)?,
    })
}

/// Checks the email and password; None for either wrong (the caller cannot
/// tell which, and the time spent is the same).
pub fn authenticate(
    conn: &Conn,
    email: &str,
    password_text: &str,
) -> AppResult<Option<AccountRow>> {
    let email = email.trim().to_lowercase();
    match accounts::find_credentials_by_email(conn, &email)? {
        Some((account, hash)) => {
            let ok = password::verify(password_text, &hash);
            Ok((ok && account.active).then_some(account))
        }
        None => {
            password::verify(password_text, password::decoy_hash());
            Ok(None)
        }
    }
}

/// Sets a new password: every API token of the account is revoked, and so is
/// every other session; the session that made the change stays open.
pub fn change_password(
    tx: &Tx,
    account_id: &AccountId,
    new_password_hash: &str,
    keep_session_id: Option<&SessionId>,
    actor: &Actor,
) -> AppResult<usize> {
    accounts::set_password_hash(tx, account_id, new_password_hash)?;
    let revoked = credentials::revoke_api_tokens_of_account(tx, account_id)?;
    sessions::revoke_others(tx, account_id, keep_session_id, &tx.now_text())?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: None,
            actor,
            action: "changement_mot_de_passe",
            object_type: "account",
            object_id: Some(account_id.as_str()),
            detail: Some(json!({ "revokedTokens": revoked })),
        },
    )?;
    Ok(revoked)
}

/// The principal changes its own password: the current one verified (422
/// when wrong), the new one strong enough; every API token of the account
/// and every other session are revoked. Answers how many tokens were.
pub async fn change_own_password(
    store: &Store,
    p: &Principal,
    keep_session_id: &SessionId,
    current_password: String,
    new_password: String,
) -> AppResult<usize> {
    password::check_strength(&new_password)?;
    if new_password == current_password {
        // A temporary password kept as one's own stays known to the
        // administrator who handed it over.
        return Err(AppError::unprocessable(
            "Le nouveau mot de passe doit être différent de l'actuel.",
        ));
    }
    let account_id = p.account()?.id.clone();
    let stored = store
        .read(move |conn| accounts::password_hash(conn, &account_id))
        .await?
        .ok_or_else(|| AppError::not_found("Compte introuvable."))?;
    let verified =
        tokio::task::spawn_blocking(move || password::verify(&current_password, &stored))
            .await
            .map_err(|err| anyhow::anyhow!(err))?;
    if !verified {
        return Err(AppError::unprocessable(
            "Le mot de passe actuel est incorrect.",
        ));
    }
    let new_hash = tokio::task::spawn_blocking(move || password::hash(&new_password))
        .await
        .map_err(|err| anyhow::anyhow!(err))??;
    let (account_id, session_id, actor) = (
        p.account()?.id.clone(),
        keep_session_id.to_owned(),
        p.actor.clone(),
    );
    store
        .write(move |tx| change_password(tx, &account_id, &new_hash, Some(&session_id), &actor))
        .await
}
