//! The web application's internal API (`/app/api`), opened by the staff
//! session cookie only. Its handlers call the same services as the REST API.

pub mod account;
pub mod planning;
pub mod session;
pub mod surveys;

use axum::Router;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(session::router())
        .merge(account::router())
        .merge(surveys::router())
        .merge(planning::router())
}
