//! `/app/api/imports…`: the imports wizard. The same four steps as the REST
//! API v2, through the operations shared with it (`api::wire::imports`) for
//! the session's principal: upload (same body limit and French 413), the file
//! with its targets and suggested mappings and the progress of its check or
//! import, the check, and the import (administrators only).

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::imports::{
    self as wire, ImportFileView, ImportReport, RunBody, UPLOAD_BODY_MAX_BYTES, UploadJson,
    UploadedFile,
};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::ImportId;
use crate::error::AppResult;
use crate::services::imports::progress::RunKind;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    let upload = Router::new()
        .route("/imports/files", post(upload))
        .layer(DefaultBodyLimit::max(UPLOAD_BODY_MAX_BYTES));
    Router::new()
        .merge(upload)
        .route("/imports/{file_id}", get(file))
        .route("/imports/{file_id}/check", post(check))
        .route("/imports/{file_id}/import", post(import))
}

async fn upload(
    State(state): State<AppState>,
    session: StaffSession,
    UploadJson(body): UploadJson,
) -> AppResult<(StatusCode, Json<UploadedFile>)> {
    let file = wire::file_upload(&state, &session.principal(), body).await?;
    Ok((StatusCode::CREATED, Json(file)))
}

async fn file(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(file_id): ApiPath<ImportId>,
) -> AppResult<Json<ImportFileView>> {
    Ok(Json(
        wire::import_file_view(&state, &session.principal(), file_id).await?,
    ))
}

async fn check(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(file_id): ApiPath<ImportId>,
    ApiJson(body): ApiJson<RunBody>,
) -> AppResult<Json<ImportReport>> {
    Ok(Json(
        wire::import_pass(
            &state,
            &session.principal(),
            file_id,
            body,
            RunKind::Verification,
        )
        .await?,
    ))
}

async fn import(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(file_id): ApiPath<ImportId>,
    ApiJson(body): ApiJson<RunBody>,
) -> AppResult<Json<ImportReport>> {
    Ok(Json(
        wire::import_pass(&state, &session.principal(), file_id, body, RunKind::Import).await?,
    ))
}
