//! The JSON of `me` shared by the REST API v2 (`api::v2::me`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::AppResult;
use crate::principal::Principal;
use crate::store::agencies::AgencyRow;

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
#[derive(Serialize, Clone, ToSchema, TS)]
pub struct AgencyRef {
    #[schema(format = Uuid)]
    pub id: String,
    pub name: String,
}

impl From<&AgencyRow> for AgencyRef {
    fn from(row: &AgencyRow) -> Self {
        Self {
            id: row.id.clone().into_string(),
            name: row.name.clone(),
        }
    }
}

/// The account of the caller (shared with the MCP tool `compte`).
pub fn account_view(caller: &Principal) -> AppResult<AccountView> {
    let account = caller.account()?;
    Ok(AccountView {
        id: account.id.to_string(),
        name: account.name.clone(),
        email: Some(account.email.clone()),
        agency: caller.agency.as_ref().map(AgencyRef::from),
        agencies: caller.scope.iter().map(AgencyRef::from).collect(),
    })
}
