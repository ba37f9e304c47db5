//! The organization's people as their administrators manage them (the
//! « Agence › Personnes » screen, `/app/api/people…`): the accounts working
//! in the agency, a new colleague with a temporary password shown once, a
//! change of name, position, role, agencies or surveys, deactivating and
//! reactivating an account, a password reset. Who may manage whom is here
//! ([`managed_account`], [`check_standing`]): an agency administrator manages
//! the members and agency administrators of its own agencies, an
//! organization administrator everyone of the organization; nobody removes
//! the organization's last active administrator, nor changes their own role.

use serde_json::json;

use crate::auth::{password, secret};
use crate::domain::id::{AccountId, AgencyId};
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::accounts::{agencies_in_scope, normalize_email, required_name};
use crate::store::accounts::{self, AccountRow, NewAccount, Role};
use crate::store::agencies::AgencyRow;
use crate::store::audit::{self, Actor};
use crate::store::{Conn, Store, Tx, constraint, credentials, sessions};

/// Longest position (« Responsable technique »).
pub const MAX_POSITION_CHARS: usize = 100;

/// A person of the organization as the screen lists them: the account and
/// the agencies of the viewer's scope it works in.
#[derive(Debug, Clone)]
pub struct Person {
    pub account: AccountRow,
    pub agencies: Vec<AgencyRow>,
    /// It also has a technician record (the planning's and the rota's).
    pub technician: bool,
}

/// The role an administrator gives, by its code (`org_admin`,
/// `agency_admin`, `member`); the service operator's is not given here.
pub fn role_of(code: &str) -> AppResult<Role> {
    match Role::parse(code) {
        Some(role @ (Role::OrgAdmin | Role::AgencyAdmin | Role::Member)) => Ok(role),
        _ => Err(AppError::unprocessable(format!(
            "Rôle inconnu : « {code} ». Valeurs possibles : org_admin (administrateur de l'organisation), agency_admin (administrateur d'agence), member (membre)."
        ))),
    }
}

/// The people working in the principal's scope (administrators): for an
/// organization administrator every account of the organization, for an
/// agency administrator those of its agencies, each with the agencies of
/// that scope it works in; active ones first, then by name.
pub async fn list(store: &Store, p: &Principal) -> AppResult<Vec<Person>> {
    p.agency()?;
    p.require(Capability::Administer("Consulter les comptes du personnel"))?;
    let p = p.clone();
    store
        .read(move |conn| {
            let scope = managed_scope(conn, &p)?;
            let ids: Vec<String> = scope.iter().map(|a| a.id.to_string()).collect();
            let technicians = crate::store::technicians::account_ids_in(conn, &ids)?;
            let mut people: Vec<Person> = Vec::new();
            for row in accounts::working_in(conn, &ids)? {
                let agency = scope.iter().find(|a| a.id == row.agency_id).cloned();
                match people.last_mut() {
                    Some(last) if last.account.id == row.account.id => {
                        last.agencies.extend(agency);
                    }
                    _ => people.push(Person {
                        technician: technicians.contains(&row.account.id),
                        agencies: agency.into_iter().collect(),
                        account: row.account,
                    }),
                }
            }
            people.sort_by_key(|person| !person.account.active);
            Ok(people)
        })
        .await
}

/// The agencies whose people the principal manages: every agency of the
/// organization for its administrator, else the agencies of its account.
fn managed_scope(conn: &Conn, p: &Principal) -> AppResult<Vec<AgencyRow>> {
    match &p.account {
        Some(account) => agencies_in_scope(conn, account),
        // The command line acts in its agency's organization.
        None => Ok(crate::store::agencies::agencies_of_organization(
            conn,
            &p.agency()?.organization_id,
        )?),
    }
}

/// Whether the principal manages the whole organization (and names its
/// administrators): an organization administrator, or the command line.
pub fn acting_org_admin(p: &Principal) -> bool {
    p.account.as_ref().is_none_or(|a| a.role == Role::OrgAdmin)
}

/// The account `account_id` as the principal may manage it: an account of
/// its organization that works in one of the agencies it manages (every
/// agency of the organization for its administrator, its own agencies for
/// an agency administrator: the people it lists); 404 « Compte
/// introuvable. » otherwise. An agency administrator does not manage an
/// organization administrator (403).
fn managed_account(conn: &Conn, p: &Principal, account_id: &AccountId) -> AppResult<AccountRow> {
    let agency = p.agency()?;
    let not_found = || AppError::not_found("Compte introuvable.");
    let account = accounts::get(conn, account_id)?.ok_or_else(not_found)?;
    let scope = managed_scope(conn, p)?;
    if account.organization_id != agency.organization_id
        || !agencies_in_scope(conn, &account)?
            .iter()
            .any(|a| scope.iter().any(|s| s.id == a.id))
    {
        return Err(not_found());
    }
    if account.role == Role::OrgAdmin && !acting_org_admin(p) {
        return Err(AppError::forbidden(
            "Seul un administrateur de l'organisation gère le compte d'un administrateur de l'organisation.",
        ));
    }
    Ok(account)
}

/// The agencies named, checked for the principal: each an agency it
/// manages (404 « Agence introuvable : <id>. » otherwise, another
/// organization's included), at least one unless the role is organization
/// administrator; only an organization administrator names that role.
fn check_standing(
    conn: &Conn,
    p: &Principal,
    role: Role,
    agency_ids: &[String],
) -> AppResult<Vec<AgencyRow>> {
    check_role_given(p, role)?;
    let scope = managed_scope(conn, p)?;
    let mut agencies: Vec<AgencyRow> = Vec::new();
    for id in agency_ids {
        let agency = scope
            .iter()
            .find(|a| a.id == id.trim())
            .ok_or_else(|| AppError::not_found(format!("Agence introuvable : {}.", id.trim())))?;
        if !agencies.iter().any(|a| a.id == agency.id) {
            agencies.push(agency.clone());
        }
    }
    if agencies.is_empty() && role != Role::OrgAdmin {
        return Err(AppError::unprocessable(
            "Indiquez au moins une agence où travaille ce compte (champ « agencyIds »).",
        ));
    }
    Ok(agencies)
}

/// Only an organization administrator names one (403).
fn check_role_given(p: &Principal, role: Role) -> AppResult<()> {
    if role == Role::OrgAdmin && !acting_org_admin(p) {
        return Err(AppError::forbidden(
            "Seul un administrateur de l'organisation nomme un administrateur de l'organisation.",
        ));
    }
    Ok(())
}

/// What holds for the account everywhere (its role, its password, whether
/// it signs in, whether it performs surveys) is changed by an agency
/// administrator only for an account that works in its agencies alone:
/// one that also works elsewhere is its organization administrators' (403).
fn require_within_reach(
    conn: &Conn,
    p: &Principal,
    account: &AccountRow,
    what: &str,
) -> AppResult<()> {
    if acting_org_admin(p) {
        return Ok(());
    }
    let scope = managed_scope(conn, p)?;
    let elsewhere = agencies_in_scope(conn, account)?
        .iter()
        .any(|a| !scope.iter().any(|s| s.id == a.id));
    if elsewhere {
        return Err(AppError::forbidden(format!(
            "Ce compte travaille aussi dans des agences hors des vôtres : seul un administrateur de l'organisation peut {what}."
        )));
    }
    Ok(())
}

/// A new colleague as an administrator enters them.
#[derive(Debug, Clone, Default)]
pub struct NewPerson {
    pub name: String,
    pub email: String,
    pub position: Option<String>,
    pub role: String,
    /// The agencies it works in; the first is its default one (an
    /// organization administrator works in all of them).
    pub agency_ids: Vec<String>,
    pub performs_surveys: bool,
    /// Also a technician of its first agency.
    pub technician: bool,
}

/// A password given by an administrator, shown once: its holder signs in
/// with it only to choose their own.
#[derive(Debug, Clone)]
pub struct TemporaryPassword(pub String);

/// 16 random letters and digits in four groups (`Xk4m-…`), about 95 bits.
pub(crate) fn temporary_password() -> AppResult<TemporaryPassword> {
    let random = secret::random_alphanumeric(16)
        .map_err(|err| anyhow::anyhow!("générateur aléatoire du système indisponible : {err}"))?;
    let groups: Vec<&str> = (0..4).map(|i| &random[i * 4..i * 4 + 4]).collect();
    Ok(TemporaryPassword(groups.join("-")))
}

/// Creates a colleague's account (administrators): name and e-mail
/// required, the role and agencies checked for the principal, a temporary
/// password to hand over, shown once (the account chooses its own at its
/// first sign-in). One audit entry `creation`. Answers the person and the
/// password.
pub async fn create(
    store: &Store,
    p: &Principal,
    input: NewPerson,
) -> AppResult<(Person, TemporaryPassword)> {
    p.agency()?;
    p.require(Capability::Administer("Créer un compte"))?;
    let name = required_name(&input.name, "Le nom")?;
    let email = normalize_email(&input.email)?;
    let position = position_field(input.position.as_deref())?;
    let role = role_of(input.role.trim())?;
    let temporary = temporary_password()?;
    let hash = {
        let text = temporary.0.clone();
        tokio::task::spawn_blocking(move || password::hash(&text))
            .await
            .map_err(|err| anyhow::anyhow!(err))??
    };
    let p = p.clone();
    let person = store
        .write(move |tx| {
            let agencies = check_standing(tx, &p, role, &input.agency_ids)?;
            let organization_id = p.agency()?.organization_id.clone();
            let default_agency = agencies
                .first()
                .map(|a| a.id.to_string())
                .unwrap_or_else(|| p.agency().map(|a| a.id.to_string()).unwrap_or_default());
            let id = accounts::create(
                tx,
                &NewAccount {
                    organization_id: &organization_id,
                    name: Some(&name),
                    email: &email,
                    password_hash: &hash,
                    role,
                    performs_surveys: input.performs_surveys,
                    default_agency_id: Some(&default_agency),
                    temporary_password: true,
                },
            )
            .map_err(|err| {
                err.on_constraint(constraint::ACCOUNT_EMAIL, || {
                    AppError::conflict(format!(
                        "L'adresse e-mail « {email} » est déjà utilisée par un autre compte."
                    ))
                })
            })?;
            if role != Role::OrgAdmin {
                for agency in &agencies {
                    accounts::add_agency(tx, &id, &agency.id)?;
                }
            }
            if position.is_some() {
                accounts::set_profile(tx, &id, Some(&name), position.as_deref())?;
            }
            if input.technician {
                crate::store::technicians::insert_for_account(
                    tx,
                    &AgencyId::new(default_agency.as_str()),
                    &id,
                    &name,
                )?;
            }
            p.record(
                tx,
                "account",
                id.as_str(),
                "creation",
                json!({
                    "email": email, "name": name, "position": position, "role": role.as_str(),
                    "agencies": agencies.iter().map(|a| a.id.to_string()).collect::<Vec<_>>(),
                    "performsSurveys": input.performs_surveys, "technician": input.technician,
                }),
            )?;
            person_in(tx, &p, &id)
        })
        .await?;
    Ok((person, temporary))
}

fn position_field(position: Option<&str>) -> AppResult<Option<String>> {
    crate::domain::text::field("position", position, MAX_POSITION_CHARS)
        .map_err(AppError::unprocessable)
}

/// The person `id` as the principal sees it (its agencies within the
/// principal's scope).
fn person_in(conn: &Conn, p: &Principal, id: &AccountId) -> AppResult<Person> {
    let account =
        accounts::get(conn, id)?.ok_or_else(|| AppError::not_found("Compte introuvable."))?;
    let scope = managed_scope(conn, p)?;
    let works_in = agencies_in_scope(conn, &account)?;
    let agencies = scope
        .into_iter()
        .filter(|a| works_in.iter().any(|w| w.id == a.id))
        .collect();
    let technician = crate::store::technicians::has_account(conn, &account.id)?;
    Ok(Person {
        account,
        agencies,
        technician,
    })
}

/// A change of an account by an administrator: only the given fields
/// change; a position given empty is erased; `agency_ids` replaces the
/// agencies of the principal's scope (those outside it are kept).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountEdit {
    pub name: Option<String>,
    pub position: Option<Option<String>>,
    pub role: Option<String>,
    pub agency_ids: Option<Vec<String>>,
    pub performs_surveys: Option<bool>,
}

/// Changes an account of the agency (administrators): name and position
/// checked as at creation, a role and agencies as [`check_standing`] allows;
/// an account does not change its own role, nor does anyone demote the
/// organization's last active administrator (422). One audit entry
/// `modification` with what changed, before and after; nothing written when
/// nothing changes. Answers the person.
pub async fn edit(
    store: &Store,
    p: &Principal,
    account_id: &AccountId,
    edit: AccountEdit,
) -> AppResult<Person> {
    p.agency()?;
    p.require(Capability::Administer("Modifier un compte"))?;
    let name = match &edit.name {
        None => None,
        // The rule an account's name was created with.
        Some(name) => Some(required_name(name, "Le nom")?),
    };
    let position = match &edit.position {
        None => None,
        Some(position) => Some(position_field(position.as_deref())?),
    };
    let role = edit
        .role
        .as_deref()
        .map(|r| role_of(r.trim()))
        .transpose()?;
    let (p, account_id) = (p.clone(), account_id.to_owned());
    store
        .write(move |tx| {
            let before = managed_account(tx, &p, &account_id)?;
            edit_in(tx, &p, before, name, position, role, &edit)?;
            person_in(tx, &p, &account_id)
        })
        .await
}

fn edit_in(
    tx: &Tx,
    p: &Principal,
    before: AccountRow,
    name: Option<String>,
    position: Option<Option<String>>,
    role: Option<Role>,
    edit: &AccountEdit,
) -> AppResult<()> {
    let mut changed = serde_json::Map::new();
    let mut note = |field: &str, before: serde_json::Value, after: serde_json::Value| {
        if before != after {
            changed.insert(
                field.to_owned(),
                json!({ "before": before, "after": after }),
            );
        }
    };
    let after_name = name.or_else(|| before.name.clone());
    let after_position = position.unwrap_or_else(|| before.position.clone());
    note("name", json!(before.name), json!(after_name));
    note("position", json!(before.position), json!(after_position));
    let after_role = role.unwrap_or(before.role);
    let after_surveys = edit.performs_surveys.unwrap_or(before.performs_surveys);
    if after_role != before.role {
        if p.account.as_ref().is_some_and(|me| me.id == before.id) {
            return Err(AppError::unprocessable(
                "Vous ne pouvez pas changer votre propre rôle : demandez-le à un autre administrateur.",
            ));
        }
        if before.role == Role::OrgAdmin
            && before.active
            && accounts::active_org_admins(tx, &before.organization_id)? <= 1
        {
            return Err(AppError::unprocessable(
                "C'est le dernier administrateur de l'organisation : nommez-en un autre avant de changer son rôle.",
            ));
        }
    }
    if after_role != before.role {
        require_within_reach(tx, p, &before, "changer son rôle")?;
    }
    if after_surveys != before.performs_surveys {
        require_within_reach(tx, p, &before, "changer s'il réalise des relevés")?;
    }
    note(
        "role",
        json!(before.role.as_str()),
        json!(after_role.as_str()),
    );
    note(
        "performsSurveys",
        json!(before.performs_surveys),
        json!(after_surveys),
    );
    // The agencies: those given replace the ones of the principal's scope.
    let had = accounts::agency_ids(tx, &before.id)?;
    let given = match &edit.agency_ids {
        Some(ids) => Some(check_standing(tx, p, after_role, ids)?),
        None if after_role != Role::OrgAdmin && had.is_empty() => {
            // An organization administrator becoming an agency's: it keeps
            // the agency the principal acts in.
            Some(vec![p.agency()?.clone()])
        }
        None => {
            check_role_given(p, after_role)?;
            None
        }
    };
    let scope = managed_scope(tx, p)?;
    let mut after_agencies: Vec<String> = match &given {
        Some(given) => had
            .iter()
            .filter(|id| !scope.iter().any(|a| a.id == id.as_str()))
            .cloned()
            .chain(given.iter().map(|a| a.id.to_string()))
            .collect(),
        None => had.clone(),
    };
    if after_role == Role::OrgAdmin {
        after_agencies.clear();
    }
    let (mut had_sorted, mut after_sorted) = (had.clone(), after_agencies.clone());
    had_sorted.sort();
    after_sorted.sort();
    note("agencies", json!(had_sorted), json!(after_sorted));
    if changed.is_empty() {
        return Ok(());
    }
    accounts::set_profile(
        tx,
        &before.id,
        after_name.as_deref(),
        after_position.as_deref(),
    )?;
    let default_agency = match &before.default_agency_id {
        Some(id) if after_role == Role::OrgAdmin || after_agencies.contains(id) => Some(id.clone()),
        _ => after_agencies.first().cloned(),
    };
    accounts::set_standing(
        tx,
        &before.id,
        after_role,
        after_surveys,
        default_agency.as_deref(),
    )?;
    for id in had.iter().filter(|id| !after_agencies.contains(id)) {
        accounts::remove_agency(tx, &before.id, id)?;
    }
    for id in after_agencies.iter().filter(|id| !had.contains(id)) {
        accounts::add_agency(tx, &before.id, &AgencyId::new(id.as_str()))?;
    }
    p.record(
        tx,
        "account",
        before.id.as_str(),
        "modification",
        serde_json::Value::Object(changed),
    )
}

/// Deactivates an account of the agency (administrators): it signs in
/// nowhere from now on, its sessions and API tokens end at once, its history
/// stays. Refused for the principal's own account and for the organization's
/// last active administrator (422). Deactivating an inactive account changes
/// nothing. One audit entry `desactivation` with the tokens and sessions
/// ended. Answers the person.
pub async fn deactivate(store: &Store, p: &Principal, account_id: &AccountId) -> AppResult<Person> {
    p.agency()?;
    p.require(Capability::Administer("Désactiver un compte"))?;
    let (p, account_id) = (p.clone(), account_id.to_owned());
    store
        .write(move |tx| {
            let account = managed_account(tx, &p, &account_id)?;
            if account.active {
                require_within_reach(tx, &p, &account, "le désactiver")?;
                if p.account.as_ref().is_some_and(|me| me.id == account.id) {
                    return Err(AppError::unprocessable(
                        "Vous ne pouvez pas désactiver votre propre compte : demandez-le à un autre administrateur.",
                    ));
                }
                if account.role == Role::OrgAdmin
                    && accounts::active_org_admins(tx, &account.organization_id)? <= 1
                {
                    return Err(AppError::unprocessable(
                        "C'est le dernier administrateur de l'organisation : nommez-en un autre avant de désactiver ce compte.",
                    ));
                }
                accounts::set_active(tx, &account.id, false)?;
                let sessions = sessions::revoke_all(tx, &account.id, &tx.now_text())?;
                let tokens = credentials::revoke_api_tokens_of_account(tx, &account.id)?;
                p.record(
                    tx,
                    "account",
                    account.id.as_str(),
                    "desactivation",
                    json!({ "revokedSessions": sessions, "revokedTokens": tokens }),
                )?;
            }
            person_in(tx, &p, &account_id)
        })
        .await
}

/// Reactivates a deactivated account of the agency (administrators): it
/// signs in again with its password (its API tokens stay revoked). One
/// audit entry `reactivation`; an active account changes nothing.
pub async fn reactivate(store: &Store, p: &Principal, account_id: &AccountId) -> AppResult<Person> {
    p.agency()?;
    p.require(Capability::Administer("Réactiver un compte"))?;
    let (p, account_id) = (p.clone(), account_id.to_owned());
    store
        .write(move |tx| {
            let account = managed_account(tx, &p, &account_id)?;
            if !account.active {
                require_within_reach(tx, &p, &account, "le réactiver")?;
                accounts::set_active(tx, &account.id, true)?;
                p.record(
                    tx,
                    "account",
                    account.id.as_str(),
                    "reactivation",
                    json!({}),
                )?;
            }
            person_in(tx, &p, &account_id)
        })
        .await
}

/// Resets the password of an account of the agency (administrators): a
/// temporary password shown once replaces it, every session and API token
/// of the account ends, and it chooses its own at its next sign-in. Not
/// one's own (« Mon compte » changes it), nor an inactive account's (422).
/// One audit entry `reinitialisation_mot_de_passe` (never the password).
pub async fn reset_password(
    store: &Store,
    p: &Principal,
    account_id: &AccountId,
) -> AppResult<(Person, TemporaryPassword)> {
    p.agency()?;
    p.require(Capability::Administer("Réinitialiser un mot de passe"))?;
    let temporary = temporary_password()?;
    let hash = {
        let text = temporary.0.clone();
        tokio::task::spawn_blocking(move || password::hash(&text))
            .await
            .map_err(|err| anyhow::anyhow!(err))??
    };
    let (p, account_id) = (p.clone(), account_id.to_owned());
    let person = store
        .write(move |tx| {
            let account = managed_account(tx, &p, &account_id)?;
            if p.account.as_ref().is_some_and(|me| me.id == account.id) {
                return Err(AppError::unprocessable(
                    "Changez votre propre mot de passe sur l'écran « Mon compte ».",
                ));
            }
            if !account.active {
                return Err(AppError::unprocessable(
                    "Ce compte est désactivé : réactivez-le avant de réinitialiser son mot de passe.",
                ));
            }
            require_within_reach(tx, &p, &account, "réinitialiser son mot de passe")?;
            reset_in(tx, &account, &hash, Some(p.agency_id()?.as_str()), &p.actor)?;
            person_in(tx, &p, &account_id)
        })
        .await?;
    Ok((person, temporary))
}

/// [`reset_password`]'s step, rights checked by the caller: the temporary
/// password's hash, every session and API token of the account ended, the
/// audit entry (never the password).
/// The entry is filed under `agency_id` (the administrator's agency; the
/// command line's: the account's default one).
pub(crate) fn reset_in(
    tx: &Tx,
    account: &AccountRow,
    hash: &str,
    agency_id: Option<&str>,
    actor: &Actor,
) -> AppResult<()> {
    accounts::set_temporary_password(tx, &account.id, hash)?;
    let sessions = sessions::revoke_all(tx, &account.id, &tx.now_text())?;
    let tokens = credentials::revoke_api_tokens_of_account(tx, &account.id)?;
    audit::record(
        tx,
        audit::AuditEntry {
            agency_id,
            actor,
            action: "reinitialisation_mot_de_passe",
            object_type: "account",
            object_id: Some(account.id.as_str()),
            detail: Some(json!({ "revokedSessions": sessions, "revokedTokens": tokens })),
        },
    )?;
    Ok(())
}
