//! `/app/api/keys/…`: the keys-and-tokens screen. The signed-in account's
//! API tokens (everyone: list, create, revoke its own); the call-center keys
//! and partner keys of the session's agency (everyone lists them, only an
//! administrator creates or revokes). A secret is answered once, at creation;
//! lists show a fingerprint prefix, never the secret. The rules live in
//! `services::credentials`, shared with the admin CLI.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::{Page, PageQuery, Paging};
use crate::auth::secret;
use crate::auth::staff_session::StaffSession;
use crate::domain::id::CredentialId;
use crate::error::AppResult;
use crate::services::credentials::{self as service, Issued, KeyKind};
use crate::state::AppState;
use crate::store::credentials::ListedCredential;

/// Hex characters of the SHA-256 fingerprint shown to tell secrets apart.
pub const FINGERPRINT_PREFIX_CHARS: usize = 8;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/keys/tokens", get(list_tokens).post(create_token))
        .route("/keys/tokens/{id}/revoke", post(revoke_token))
        .route(
            "/keys/call-center-keys",
            get(list_call_center_keys).post(create_call_center_key),
        )
        .route(
            "/keys/call-center-keys/{id}/revoke",
            post(revoke_call_center_key),
        )
        .route(
            "/keys/partner-keys",
            get(list_partner_keys).post(create_partner_key),
        )
        .route("/keys/partner-keys/{id}/revoke", post(revoke_partner_key))
}

fn fingerprint_prefix(fingerprint: &str) -> String {
    fingerprint.chars().take(FINGERPRINT_PREFIX_CHARS).collect()
}

/// A live token or key as listed: never its secret.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeyView {
    pub id: String,
    /// The tool (API token), the call center, or the partner.
    pub name: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    /// The first 8 hex characters of the secret's SHA-256 fingerprint.
    pub fingerprint_prefix: String,
    /// Partner keys only: other agencies the key also serves.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub other_agencies: Option<i64>,
}

impl KeyView {
    fn from_listed(row: ListedCredential, partner: bool) -> Self {
        Self {
            fingerprint_prefix: fingerprint_prefix(&row.fingerprint),
            id: row.id.into_string(),
            name: row.name,
            created_at: row.created_at,
            last_used_at: row.last_used_at,
            other_agencies: partner.then_some(row.other_agencies),
        }
    }
}

fn page_of(
    paging: Paging,
    (total, rows): (i64, Vec<ListedCredential>),
    partner: bool,
) -> Page<KeyView> {
    Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows
            .into_iter()
            .map(|row| KeyView::from_listed(row, partner))
            .collect(),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NameBody {
    name: String,
}

/// The token just created: the only answer that carries its secret.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TokenCreated {
    id: String,
    name: String,
    fingerprint_prefix: String,
    token: String,
    ok: bool,
}

/// A key just created: the only answer that carries its secret.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KeyCreated {
    id: String,
    name: String,
    fingerprint_prefix: String,
    key: String,
    ok: bool,
}

impl KeyCreated {
    fn new(issued: Issued, name: &str) -> Self {
        Self {
            fingerprint_prefix: fingerprint_prefix(&secret::fingerprint(&issued.secret)),
            id: issued.id.into_string(),
            name: name.trim().to_owned(),
            key: issued.secret,
            ok: true,
        }
    }
}

#[derive(Debug, Serialize, TS)]
#[ts(rename = "KeyRevoked")]
pub(crate) struct Revoked {
    id: String,
    ok: bool,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PartnerKeyRevoked {
    id: String,
    ok: bool,
    /// True when the key itself is revoked (no agency remained).
    revoked: bool,
    /// Agencies the key still serves.
    remaining_agencies: i64,
}

// ---- API tokens of the signed-in account -------------------------------

async fn list_tokens(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> AppResult<Page<KeyView>> {
    list(&state, &session, KeyKind::OwnApiTokens, &query).await
}

/// One page of keys: the paging checked, then the operation.
async fn list(
    state: &AppState,
    session: &StaffSession,
    kind: KeyKind,
    query: &PageQuery,
) -> AppResult<Page<KeyView>> {
    let principal = session.principal();
    if kind != KeyKind::OwnApiTokens {
        principal.agency()?;
    }
    let paging = Paging::from_query(query)?;
    let listed = service::list_keys(
        &state.store,
        &principal,
        kind,
        paging.limit,
        paging.offset(),
    )
    .await?;
    Ok(page_of(paging, listed, kind == KeyKind::Partner))
}

async fn create_token(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NameBody>,
) -> AppResult<(StatusCode, Json<TokenCreated>)> {
    let issued =
        service::issue_own_api_token(&state.store, &session.principal(), &body.name).await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenCreated {
            fingerprint_prefix: fingerprint_prefix(&secret::fingerprint(&issued.secret)),
            id: issued.id.into_string(),
            name: body.name.trim().to_owned(),
            token: issued.secret,
            ok: true,
        }),
    ))
}

async fn revoke_token(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<CredentialId>,
) -> AppResult<Json<Revoked>> {
    service::revoke_own_token(&state.store, &session.principal(), &id).await?;
    Ok(Json(Revoked {
        id: id.into_string(),
        ok: true,
    }))
}

// ---- Call-center keys of the agency ------------------------------------

async fn list_call_center_keys(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> AppResult<Page<KeyView>> {
    list(&state, &session, KeyKind::CallCenter, &query).await
}

async fn create_call_center_key(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NameBody>,
) -> AppResult<(StatusCode, Json<KeyCreated>)> {
    let issued =
        service::issue_call_center_key(&state.store, &session.principal(), &body.name).await?;
    Ok((
        StatusCode::CREATED,
        Json(KeyCreated::new(issued, &body.name)),
    ))
}

async fn revoke_call_center_key(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<CredentialId>,
) -> AppResult<Json<Revoked>> {
    service::withdraw_call_center_key(&state.store, &session.principal(), &id).await?;
    Ok(Json(Revoked {
        id: id.into_string(),
        ok: true,
    }))
}

// ---- Partner keys attributed to the agency -----------------------------

async fn list_partner_keys(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> AppResult<Page<KeyView>> {
    list(&state, &session, KeyKind::Partner, &query).await
}

async fn create_partner_key(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NameBody>,
) -> AppResult<(StatusCode, Json<KeyCreated>)> {
    let issued = service::issue_partner_key(&state.store, &session.principal(), &body.name).await?;
    Ok((
        StatusCode::CREATED,
        Json(KeyCreated::new(issued, &body.name)),
    ))
}

async fn revoke_partner_key(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<CredentialId>,
) -> AppResult<Json<PartnerKeyRevoked>> {
    let outcome = service::withdraw_partner_key(&state.store, &session.principal(), &id).await?;
    Ok(Json(PartnerKeyRevoked {
        id: id.into_string(),
        ok: true,
        revoked: outcome.revoked,
        remaining_agencies: outcome.remaining_agencies,
    }))
}
