//! `GET /api/v2/me`: the account that owns the token.

use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use crate::auth::api_token::ApiCaller;
use crate::state::AppState;
use crate::store::agencies::AgencyRow;

pub fn router() -> Router<AppState> {
    Router::new().route("/me", get(me))
}

/// Exactly the spec's Account table: these five fields, always present.
#[derive(Serialize)]
pub struct AccountView {
    pub id: String,
    pub name: Option<String>,
    pub email: Option<String>,
    pub agency: Option<AgencyRef>,
    pub agencies: Vec<AgencyRef>,
}

#[derive(Serialize, Clone)]
pub struct AgencyRef {
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

async fn me(caller: ApiCaller) -> Json<AccountView> {
    Json(AccountView {
        id: caller.account.id.clone(),
        name: caller.account.name.clone(),
        email: Some(caller.account.email.clone()),
        agency: caller.agency.as_ref().map(AgencyRef::from),
        agencies: caller.scope.iter().map(AgencyRef::from).collect(),
    })
}
