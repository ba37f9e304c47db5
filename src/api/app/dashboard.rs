//! `GET /app/api/dashboard`: the home screen's figures for the acting agency
//! (`services::dashboard`), as its read model says them.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

use crate::auth::staff_session::StaffSession;
use crate::error::AppResult;
use crate::services::dashboard::{self, DashboardOut};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/dashboard", get(read))
}

async fn read(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<DashboardOut>> {
    Ok(Json(
        dashboard::figures(&state.store, &session.principal()).await?,
    ))
}
