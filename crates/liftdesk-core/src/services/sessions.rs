//! The staff sessions of the web application and the first run's setup, as
//! operations: signing in (the account and its scope), opening a session
//! (its row and audit line), choosing the session's agency, signing out,
//! and creating the organization with its administrator. The cookie, its
//! secret and the sign-in throttle belong to the front door.

use crate::domain::id::{AgencyId, SessionId};
use chrono::{DateTime, Utc};

use crate::auth::password;
use crate::error::{AppError, AppResult};
use crate::principal::{Door, Principal};
use crate::services::accounts::{
    self, InitInput, agencies_in_scope, authenticate, is_installation_admin,
};
use crate::store::Store;
use crate::store::accounts::{self as account_store, AccountRow};
use crate::store::agencies::{self, AgencyRow};
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::sessions::{self, NewSession};

/// The account of `email` if `password` is its password, with its scope.
pub async fn sign_in(
    store: &Store,
    email: &str,
    password_text: String,
) -> AppResult<Option<(AccountRow, Vec<AgencyRow>)>> {
    let email = email.to_owned();
    store
        .read(move |conn| -> AppResult<_> {
            let Some(account) = authenticate(conn, &email, &password_text)? else {
                return Ok(None);
            };
            let scope = agencies_in_scope(conn, &account)?;
            Ok(Some((account, scope)))
        })
        .await
}

/// A session just opened.
#[derive(Debug, Clone)]
pub struct OpenedSession {
    /// Where it acts: the account's default agency, else the first of its scope.
    pub agency: Option<AgencyRow>,
    /// The account administers the installation.
    pub installation_admin: bool,
}

/// Records a new session of `account` (its secret's `fingerprint`, valid
/// until `expires_at`) and its audit line `connexion`.
pub async fn open(
    store: &Store,
    account: &AccountRow,
    scope: &[AgencyRow],
    fingerprint: String,
    expires_at: impl FnOnce(DateTime<Utc>) -> String,
) -> AppResult<OpenedSession> {
    let agency = crate::principal::default_agency(account, scope, None, Door::App);
    let now = store.now();
    let expires_at = expires_at(now);
    let account = account.clone();
    let agency_id = agency.as_ref().map(|a| a.id.clone());
    let installation_admin = store
        .write(move |tx| -> AppResult<bool> {
            let session_id = sessions::create(
                tx,
                &NewSession {
                    account_id: &account.id,
                    fingerprint: &fingerprint,
                    agency_id: agency_id.as_ref().map(AgencyId::as_str),
                    now: &crate::clock::format_timestamp(now),
                    expires_at: &expires_at,
                },
            )?;
            audit::record(
                tx,
                AuditEntry {
                    agency_id: agency_id.as_ref().map(AgencyId::as_str),
                    actor: &Actor::Account(account.id.clone()),
                    action: "connexion",
                    object_type: "session",
                    object_id: Some(session_id.as_str()),
                    detail: None,
                },
            )?;
            is_installation_admin(tx, &account)
        })
        .await?;
    Ok(OpenedSession {
        agency,
        installation_admin,
    })
}

/// Whether the principal's account administers the installation.
pub async fn installation_admin(store: &Store, p: &Principal) -> AppResult<bool> {
    let account = p.account()?.clone();
    store
        .read(move |conn| is_installation_admin(conn, &account))
        .await
}

/// 403 unless the principal's account administers the installation.
pub async fn require_installation_admin(
    store: &Store,
    p: &Principal,
    what: &'static str,
) -> AppResult<()> {
    let account = p.account()?.clone();
    store
        .read(move |conn| accounts::require_installation_admin(conn, &account, what))
        .await
}

/// Ends the session `session_id`.
pub async fn sign_out(store: &Store, session_id: &SessionId) -> AppResult<()> {
    let id = session_id.to_owned();
    Ok(store
        .write(move |tx| sessions::revoke(tx, &id, &tx.now_text()))
        .await?)
}

/// The session `session_id` of the principal acts in `agency_id` from now
/// on: 403 outside the account's scope. Answers the agency.
pub async fn choose_agency(
    store: &Store,
    p: &Principal,
    session_id: &SessionId,
    agency_id: &AgencyId,
) -> AppResult<AgencyRow> {
    let agency = crate::principal::scope_agency(&p.scope, agency_id.as_str(), Door::App)?;
    let (id, agency_id) = (session_id.to_owned(), agency.id.clone());
    store
        .write(move |tx| sessions::set_agency(tx, &id, &agency_id))
        .await?;
    Ok(agency)
}

/// Whether Liftdesk still needs its first run's setup (no organization yet).
pub async fn setup_needed(store: &Store) -> AppResult<bool> {
    Ok(!store.read(agencies::any_client_organization).await?)
}

fn already_set_up() -> AppError {
    AppError::conflict(
        "Liftdesk est déjà installé : une organisation existe. Connectez-vous avec votre compte.",
    )
}

/// What the first run's setup creates.
#[derive(Debug, Clone)]
pub struct SetupInput {
    pub organization: String,
    pub agency: String,
    pub email: String,
    pub admin_name: Option<String>,
    pub password: String,
}

/// The first run: the organization, its agency and its administrator, once
/// (409 when an organization exists, also when two setups race). Answers
/// the administrator and its scope.
pub async fn set_up(store: &Store, input: SetupInput) -> AppResult<(AccountRow, Vec<AgencyRow>)> {
    if !setup_needed(store).await? {
        return Err(already_set_up());
    }
    password::check_strength(&input.password)?;
    let password_text = input.password.clone();
    let hash = tokio::task::spawn_blocking(move || password::hash(&password_text))
        .await
        .map_err(|err| AppError::Internal(anyhow::anyhow!(err.to_string())))??;
    store
        .write(move |tx| -> AppResult<_> {
            // Checked again in the one writer transaction: two setups at
            // once make one organization.
            if agencies::any_client_organization(tx)? {
                return Err(already_set_up());
            }
            let out = accounts::init_organization(
                tx,
                &InitInput {
                    organization: &input.organization,
                    agency: &input.agency,
                    admin_email: &input.email,
                    admin_name: input
                        .admin_name
                        .as_deref()
                        .map(str::trim)
                        .filter(|n| !n.is_empty()),
                    admin_password_hash: &hash,
                },
                &Actor::System,
            )?;
            let account = account_store::get(tx, &out.account_id)?.ok_or_else(|| {
                AppError::Internal(anyhow::anyhow!(
                    "administrateur introuvable après sa création"
                ))
            })?;
            let scope = accounts::agencies_in_scope(tx, &account)?;
            Ok((account, scope))
        })
        .await
}

/// What the support report reads of the database, in one transaction: the
/// schema version, the rows per table and the deliveries per status.
#[derive(Debug, Clone)]
pub struct DatabaseFigures {
    pub schema_version: Option<i64>,
    pub counts: Vec<(&'static str, i64)>,
    pub deliveries: Vec<(String, i64)>,
}

/// The support report's figures (administrators of the installation only).
pub async fn database_figures(store: &Store, p: &Principal) -> AppResult<DatabaseFigures> {
    require_installation_admin(store, p, "Le diagnostic").await?;
    store
        .read(|conn| -> AppResult<_> {
            Ok(DatabaseFigures {
                schema_version: crate::store::applied_schema_version(conn)?,
                counts: crate::store::diagnostics::counts(conn)?,
                deliveries: crate::store::diagnostics::deliveries_by_status(conn)?,
            })
        })
        .await
}
