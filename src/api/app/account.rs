//! `/app/api/account/password`: the signed-in account changes its password,
//! which revokes every API token of the account.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::api::json::ApiJson;
use crate::auth::password;
use crate::auth::staff_session::StaffSession;
use crate::error::{ApiError, AppResult};
use crate::services::accounts::change_password;
use crate::state::AppState;
use crate::store::accounts;
use crate::store::audit::Actor;

pub fn router() -> Router<AppState> {
    Router::new().route("/account/password", post(set_password))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PasswordBody {
    current_password: String,
    new_password: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PasswordChanged {
    revoked_tokens: usize,
}

async fn set_password(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<PasswordBody>,
) -> AppResult<Json<PasswordChanged>> {
    password::check_strength(&body.new_password)?;
    let account_id = session.account.id.clone();
    let stored = state
        .store
        .read(move |conn| accounts::password_hash(conn, &account_id))
        .await?
        .ok_or_else(|| ApiError::not_found("Compte introuvable."))?;
    let current = body.current_password;
    let verified = tokio::task::spawn_blocking(move || password::verify(&current, &stored))
        .await
        .map_err(|err| anyhow::anyhow!(err))?;
    if !verified {
        return Err(ApiError::unprocessable(
            "Le mot de passe actuel est incorrect.",
        ));
    }
    let new_password = body.new_password;
    let new_hash = tokio::task::spawn_blocking(move || password::hash(&new_password))
        .await
        .map_err(|err| anyhow::anyhow!(err))??;
    let account_id = session.account.id.clone();
    let session_id = session.session_id.clone();
    let revoked_tokens = state
        .store
        .write(move |tx| {
            change_password(
                tx,
                &account_id,
                &new_hash,
                Some(&session_id),
                &Actor::Account(account_id.clone()),
            )
        })
        .await?;
    Ok(Json(PasswordChanged { revoked_tokens }))
}
