//! `GET /api/v2/users`: every account working in an agency the token can
//! read. Never a password hash, never a token.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::wire::me::AgencyRef;
use crate::auth::api_token::ApiCaller;
use crate::error::AppResult;
use crate::services::directory::{self, UserEntry};
use crate::state::AppState;
use crate::store::accounts::Role;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_users))
}

/// Les comptes qui travaillent dans les agences que le jeton peut lire.
#[derive(Serialize, ToSchema)]
pub struct UserList {
    /// Triés par nom, puis par adresse e-mail.
    pub users: Vec<UserView>,
}

/// Rôle d'un compte.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum UserRole {
    /// Administrateur de l'organisation : travaille dans toutes ses agences.
    OrgAdmin,
    /// Administrateur des agences où il travaille.
    AgencyAdmin,
    /// Membre : les opérations courantes de ses agences.
    Member,
}

/// Un compte du personnel. Aucun mot de passe ni jeton n'y figure.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    /// Identifiant du compte.
    #[schema(format = Uuid)]
    pub id: String,
    /// Nom.
    #[schema(required = true)]
    pub name: Option<String>,
    /// Adresse e-mail (identifiant de connexion).
    pub email: String,
    /// Fonction dans l'entreprise.
    #[schema(required = true)]
    pub position: Option<String>,
    /// Compte actif (un compte désactivé ne se connecte plus).
    pub active: bool,
    /// Réalise des relevés d'équipements.
    pub performs_surveys: bool,
    /// Rôle du compte.
    pub role: UserRole,
    /// Agences où il travaille, parmi celles que le jeton peut lire.
    pub agencies: Vec<AgencyRef>,
}

impl UserView {
    fn from_entry(entry: UserEntry) -> Option<Self> {
        let role = match entry.account.role {
            Role::OrgAdmin => UserRole::OrgAdmin,
            Role::AgencyAdmin => UserRole::AgencyAdmin,
            Role::Member => UserRole::Member,
            // The service operator's account is never listed (see the store).
            Role::Operator => return None,
        };
        Some(Self {
            id: entry.account.id.into_string(),
            name: entry.account.name,
            email: entry.account.email,
            position: entry.account.position,
            active: entry.account.active,
            performs_surveys: entry.account.performs_surveys,
            role,
            agencies: entry
                .agencies
                .into_iter()
                .map(|(id, name)| AgencyRef { id, name })
                .collect(),
        })
    }
}

/// Les comptes qui travaillent dans une agence que le jeton peut lire.
///
/// Les agences lues sont celles de `GET /agencies`. Un administrateur de l'organisation
/// travaille dans toutes les agences de son organisation. Le compte de service de
/// l'opérateur n'est jamais listé.
#[utoipa::path(
    get,
    path = "/users",
    tag = "Organisation",
    responses((status = 200, description = "Les comptes", body = UserList))
)]
async fn list_users(State(state): State<AppState>, caller: ApiCaller) -> AppResult<Json<UserList>> {
    let entries = directory::users_for(&state.store, &caller).await?;
    Ok(Json(UserList {
        users: entries
            .into_iter()
            .filter_map(UserView::from_entry)
            .collect(),
    }))
}
