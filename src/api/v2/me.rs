//! `GET /api/v2/me`: the account that owns the token.

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::api_token::ApiCaller;
use crate::state::AppState;
use crate::store::agencies::AgencyRow;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(me))
}

// Exactly the spec's Account table: these five fields, always present.
/// Le compte qui possède le jeton : ces cinq champs, toujours présents.
#[derive(Serialize, ToSchema)]
pub struct AccountView {
    /// Identifiant du compte.
    #[schema(format = Uuid)]
    pub id: String,
    /// Nom du compte qui possède le jeton.
    #[schema(required = true)]
    pub name: Option<String>,
    /// Adresse e-mail du compte.
    #[schema(required = true)]
    pub email: Option<String>,
    /// Agence où le compte agit (`X-Service-Agency`, sinon l'agence par défaut).
    #[schema(required = true)]
    pub agency: Option<AgencyRef>,
    /// Agences où le compte travaille.
    pub agencies: Vec<AgencyRef>,
}

/// Une agence : identifiant et nom.
#[derive(Serialize, Clone, ToSchema)]
pub struct AgencyRef {
    #[schema(format = Uuid)]
    pub id: String,
    pub name: String,
}

impl From<&AgencyRow> for AgencyRef {
    fn from(row: &AgencyRow) -> Self {
        Self {
            id: row.id.clone(),
            name: row.name.clone(),
        }
    }
}

/// Le compte qui possède le jeton.
#[utoipa::path(
    get,
    path = "/me",
    tag = "Compte",
    responses((status = 200, description = "Le compte du jeton", body = AccountView))
)]
async fn me(caller: ApiCaller) -> Json<AccountView> {
    Json(account_view(&caller))
}

/// The account of the caller (shared with the MCP tool `compte`).
pub fn account_view(caller: &ApiCaller) -> AccountView {
    AccountView {
        id: caller.account.id.clone(),
        name: caller.account.name.clone(),
        email: Some(caller.account.email.clone()),
        agency: caller.agency.as_ref().map(AgencyRef::from),
        agencies: caller.scope.iter().map(AgencyRef::from).collect(),
    }
}
