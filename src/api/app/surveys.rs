//! `/app/api/surveys/{id}/submit`: the web application submits a survey for
//! the signed-in account, in the session's agency, through the same service
//! as the REST API v2 (`services::surveys::submit`); same body, same answer.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};

use crate::api::extract::ApiPath;
use crate::api::json::OptionalJson;
use crate::api::v2::surveys::{SubmitBody, SurveySubmitted};
use crate::auth::staff_session::StaffSession;
use crate::error::{AppError, AppResult};
use crate::services::surveys::{self as survey_service, SubmitInput};
use crate::state::AppState;
use crate::store::audit::Actor;

pub fn router() -> Router<AppState> {
    Router::new().route("/surveys/{id}/submit", post(submit_survey))
}

async fn submit_survey(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<SubmitBody>,
) -> AppResult<Json<SurveySubmitted>> {
    let agency_id = session
        .agency
        .as_ref()
        .map(|agency| agency.id.clone())
        .ok_or_else(|| {
            AppError::bad_request("Ce compte n'agit dans aucune agence : choisissez-en une.")
        })?;
    let input = SubmitInput::from(body.unwrap_or_default());
    let actor = Actor::Account(session.account.id.clone());
    let account = session.account.clone();
    let submitted = state
        .store
        .write(move |tx| survey_service::submit(tx, &agency_id, &id, &account, &input, &actor))
        .await?;
    Ok(Json(SurveySubmitted::new(&state.base_url, &submitted)))
}
