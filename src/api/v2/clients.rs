//! `GET /api/v2/clients`: the agency's clients, searched by name, e-mail,
//! identifier, SIREN or SIRET and paged. It turns "client X" into the
//! identifier that `GET /invoices?client=` and `POST /invoices` take.

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiQuery;
use crate::api::wire::Page;
use crate::api::wire::clients::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_clients))
}

/// Clients de l'agence (archivés compris), par ordre alphabétique du nom.
///
/// `q` garde les clients dont le nom, l'e-mail, l'identifiant, le SIREN ou le
/// SIRET contient chacun des mots cherchés, accents et casse ignorés
/// (« dupont syndic » trouve « Syndic Dupont »). L'`id` d'une ligne est
/// l'identifiant que prennent `GET /invoices?client=` et `POST /invoices`,
/// et le `parentId` de `POST /contacts`.
#[utoipa::path(
    get,
    path = "/clients",
    tag = "Clients",
    params(ClientListQuery),
    responses(
        (status = 200, description = "Une page de clients", body = Page<ClientListEntry>,
            links(
                ("facturesDuClient" = (
                    operation_id = "list_invoices",
                    parameters(("client" = "$response.body#/results/0/id")),
                    description = "Les factures du premier client de la page"
                )),
                ("facturerLeClient" = (
                    operation_id = "create_invoice",
                    request_body = json!({"clientId": "$response.body#/results/0/id"}),
                    description = "Une facture brouillon pour le premier client de la page"
                )),
                ("ajouterUnContact" = (
                    operation_id = "create_contact",
                    request_body = json!({"parentId": "$response.body#/results/0/id"}),
                    description = "Un contact pour le premier client de la page"
                ))
            )
        ),
        (status = 422, description = "`limit` ou `page` hors des bornes", body = ErrorBody),
    )
)]
async fn list_clients(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<ClientListQuery>,
) -> AppResult<Page<ClientListEntry>> {
    client_list(&state, &caller, query).await
}
