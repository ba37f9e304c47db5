//! REST API v2 (`{base_url}/api/v2`), opened by API tokens. One file per
//! resource, each with its `router()` of annotated handlers; the OpenAPI
//! description is collected from them.

pub mod agencies;
pub mod buildings;
pub mod calls;
pub mod clients;
pub mod contacts;
pub mod contract_billing;
pub mod contracts;
pub mod discrepancies;
pub mod docs;
pub mod equipment;
pub mod external;
pub mod identity;
pub mod imports;
pub mod invoices;
pub mod me;
pub mod openapi;
pub mod people;
pub mod planning;
pub mod quotes;
pub mod surveys;
pub mod technical_fields;
pub mod technicians;
pub mod users;
pub mod visits;
pub mod webhooks;

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

/// Every resource's routes, with their OpenAPI paths.
fn resources() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::base())
        .merge(me::router())
        .merge(agencies::router())
        .merge(users::router())
        .merge(people::router())
        .merge(identity::router())
        .merge(technicians::router())
        .merge(planning::router())
        .merge(visits::router())
        .merge(calls::router())
        .merge(quotes::router())
        .merge(contracts::router())
        .merge(contract_billing::router())
        .merge(invoices::router())
        .merge(clients::router())
        .merge(contacts::router())
        .merge(equipment::router())
        .merge(buildings::router())
        .merge(external::router())
        .merge(technical_fields::router())
        .merge(surveys::router())
        .merge(discrepancies::router())
        .merge(webhooks::router())
        .merge(imports::router())
}

/// The OpenAPI description of the REST API v2.
pub fn openapi_description() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = resources().split_for_parts();
    openapi::finish(&mut doc);
    doc
}

pub fn router() -> Router<AppState> {
    let (router, mut doc) = resources().split_for_parts();
    openapi::finish(&mut doc);
    let json: Arc<str> = doc.to_pretty_json().unwrap_or_default().into();
    router
        .route(
            "/openapi.json",
            get(move || {
                let json = json.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        json.to_string(),
                    )
                        .into_response()
                }
            }),
        )
        .route("/docs", get(docs::page))
}
