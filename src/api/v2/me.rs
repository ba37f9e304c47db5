//! `GET /api/v2/me`: the account that owns the token.

use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::wire::me::*;
use crate::auth::api_token::ApiCaller;
use crate::error::AppResult;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(me))
}

/// Le compte qui possède le jeton.
#[utoipa::path(
    get,
    path = "/me",
    tag = "Compte",
    responses((status = 200, description = "Le compte du jeton", body = AccountView))
)]
async fn me(caller: ApiCaller) -> AppResult<Json<AccountView>> {
    account_view(&caller).map(Json)
}
