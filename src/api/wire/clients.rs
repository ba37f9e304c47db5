//! The JSON of `clients` shared by the REST API v2 (`api::v2::clients`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::api::wire::{Page, PageQuery, Paging, RecordKind};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::state::AppState;
use crate::store::clients::ClientRow;

/// Recherche et pagination.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClientListQuery {
    /// Recherche : chaque mot doit figurer (accents et casse ignorés) dans le
    /// nom, l'e-mail, l'identifiant, le SIREN ou le SIRET du client.
    #[param(max_length = 100)]
    pub q: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// Statut d'un client : `Prospect` ou `Client` (valeurs de l'API partenaire).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum ClientStatusCode {
    Prospect,
    Client,
}

/// Une ligne de la liste des clients.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ClientListEntry {
    /// Identifiant du client : son `client_id` de l'API partenaire, celui que
    /// portent les factures (`client`) et que prennent `GET /invoices?client=`,
    /// `POST /invoices` (`clientId`) et `POST /contacts` (`parentId`).
    pub id: String,
    /// Nom de la société ou du client.
    pub name: String,
    /// `Prospect` ou `Client`.
    #[schema(value_type = ClientStatusCode)]
    #[ts(type = "ClientStatus")]
    pub status: String,
    /// SIREN (9 chiffres).
    #[schema(required = true)]
    pub siren: Option<String>,
    /// E-mail principal.
    #[schema(required = true)]
    pub email: Option<String>,
    /// Téléphone du standard.
    #[schema(required = true)]
    pub phone: Option<String>,
    /// Adresse postale sur une ligne (rue, complément, code postal et ville),
    /// telle que les factures l'impriment.
    #[schema(required = true)]
    pub full_address: Option<String>,
    /// Client archivé : il reste listé (ses factures aussi) mais ne peut plus
    /// être facturé.
    pub archived: bool,
    pub link: String,
    pub url: String,
}

pub(crate) fn entry(row: ClientRow, base_url: &str) -> ClientListEntry {
    ClientListEntry {
        full_address: crate::services::clients::one_line_address(&row),
        link: RecordKind::Client.link(&row.client_ref),
        url: RecordKind::Client.url(base_url, &row.client_ref),
        id: row.client_ref,
        name: row.nom,
        status: row.statut.as_str().to_owned(),
        siren: row.siren,
        email: row.email,
        phone: row.telephone,
        archived: row.supprime,
    }
}

/// The agency's clients matching `q`, one page: shared by the REST handler
/// and the MCP tool `clients`.
pub async fn client_list(
    state: &AppState,
    caller: &Principal,
    query: ClientListQuery,
) -> AppResult<Page<ClientListEntry>> {
    client_page(state, caller, query, None).await
}

/// `client_list` narrowed to the archived (`Some(true)`) or the active
/// (`Some(false)`) clients: the web application's Clients screen filters
/// with it, under the same search, paging and refusals as the REST list.
pub async fn client_page(
    state: &AppState,
    caller: &Principal,
    query: ClientListQuery,
    archived: Option<bool>,
) -> AppResult<Page<ClientListEntry>> {
    let paging = Paging::from_query(&PageQuery {
        limit: query.limit,
        page: query.page,
    })?;
    let (total, rows) = crate::services::clients::search_page(
        &state.store,
        caller,
        query.q.as_deref(),
        archived,
        paging.limit,
        paging.offset(),
    )
    .await?;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows
            .into_iter()
            .map(|row| entry(row, &state.base_url))
            .collect(),
    })
}
