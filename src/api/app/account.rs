//! `/app/api/account/password`: the signed-in account changes its password,
//! which revokes every API token of the account.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::json::ApiJson;
use crate::auth::staff_session::StaffSession;
use crate::error::AppResult;
use crate::services::accounts::change_own_password;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/account/password", post(set_password))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PasswordBody {
    current_password: String,
    new_password: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PasswordChanged {
    revoked_tokens: usize,
}

async fn set_password(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<PasswordBody>,
) -> AppResult<Json<PasswordChanged>> {
    let revoked_tokens = change_own_password(
        &state.store,
        &session.principal(),
        &session.session_id,
        body.current_password,
        body.new_password,
    )
    .await?;
    Ok(Json(PasswordChanged { revoked_tokens }))
}
