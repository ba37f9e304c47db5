//! `/app/api/clients…` and `/app/api/contacts…`: the Clients screen. The
//! paged list (the REST `GET /clients` search, narrowed to the active or the
//! archived clients), a client with its contacts, archive and restore, and
//! contact creation from the REST descriptor.
//!
//! The list goes through `api::wire::clients::client_page` (the REST list's
//! function), archive and restore through `services::clients::set_archived`
//! (the partner workflow API's `update_client` with `supprime`), the contact
//! descriptor and creation through `api::wire::contacts` (`GET
//! /contacts/creation`, `POST /contacts`). Rights follow the REST API: every
//! staff member reads clients and adds contacts; archiving and restoring are
//! an administrator's (as importing clients is).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::clients::{ClientListEntry, ClientListQuery, client_page};
use crate::api::wire::contacts::{
    ContactBody, CreationDescriptor, contact_creation, contact_descriptor,
};
use crate::api::wire::{Created, Page, RecordKind};
use crate::auth::staff_session::StaffSession;
use crate::error::{ApiError, AppResult};
use crate::services::clients::{self as service};
use crate::state::AppState;
use crate::store::clients::ClientRow;
use crate::store::contacts::ContactRow;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/clients", get(list))
        .route("/clients/{id}", get(detail))
        .route("/clients/{id}/archive", post(archive))
        .route("/clients/{id}/restore", post(restore))
        .route("/contacts/creation", get(descriptor))
        .route("/contacts", post(create_contact))
}

// -- The list -----------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    q: Option<String>,
    /// `active`, `archived` or `all` (the default, as the REST list).
    archived: Option<String>,
    limit: Option<String>,
    page: Option<String>,
}

/// The archived filter: `None` keeps every client.
fn archived_filter(value: Option<&str>) -> AppResult<Option<bool>> {
    match value.map(str::trim).unwrap_or_default() {
        "" | "all" => Ok(None),
        "active" => Ok(Some(false)),
        "archived" => Ok(Some(true)),
        _ => Err(ApiError::unprocessable(
            "Le filtre « archived » doit valoir « active », « archived » ou « all ».",
        )),
    }
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> AppResult<Page<ClientListEntry>> {
    let archived = archived_filter(query.archived.as_deref())?;
    let search = ClientListQuery {
        q: query.q,
        limit: query.limit,
        page: query.page,
    };
    client_page(&state, &session.principal(), search, archived).await
}

// -- A client -----------------------------------------------------------------

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ClientView {
    /// The partner identifier: the `id` of the list, the `parentId` of a contact.
    id: String,
    name: String,
    /// `Prospect` or `Client`.
    #[ts(type = "ClientStatus")]
    status: String,
    /// `Propriétaire/exploitant`, `Gestionnaire`.
    categories: Vec<String>,
    email: Option<String>,
    phone: Option<String>,
    address: Option<String>,
    address_complement: Option<String>,
    siren: Option<String>,
    siret: Option<String>,
    archived: bool,
    /// The full address of the client's page in the web application (the
    /// `url` of the REST list's row).
    url: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct ContactView {
    id: String,
    name: String,
    email: Option<String>,
    phone: Option<String>,
    /// `fonction`.
    role: Option<String>,
}

/// A client, its contacts, and what the session may do with it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClientDetail {
    client: ClientView,
    contacts: Vec<ContactView>,
    /// `contact` (an active client receives contacts), and for an
    /// administrator `archive` (active client) or `restore` (archived one).
    actions: Vec<&'static str>,
}

fn client_detail(
    state: &AppState,
    session: &StaffSession,
    client: ClientRow,
    contacts: Vec<ContactRow>,
) -> ClientDetail {
    let actions = service::actions(&session.principal(), &client);
    ClientDetail {
        client: ClientView {
            url: RecordKind::Client.url(&state.base_url, &client.client_ref),
            categories: service::categories(&client),
            id: client.client_ref,
            name: client.nom,
            status: client.statut.as_str().to_owned(),
            email: client.email,
            phone: client.telephone,
            address: client.adresse,
            address_complement: client.complement_adresse,
            siren: client.siren,
            siret: client.siret,
            archived: client.supprime,
        },
        contacts: contacts
            .into_iter()
            .map(|c| ContactView {
                id: c.id.into_string(),
                name: c.nom,
                email: c.email,
                phone: c.telephone,
                role: c.fonction,
            })
            .collect(),
        actions,
    }
}

/// Reads the client of the session's agency; another agency's is not found.
async fn read_detail(
    state: &AppState,
    session: &StaffSession,
    id: String,
) -> AppResult<ClientDetail> {
    let (client, contacts) = service::detail(&state.store, &session.principal(), &id).await?;
    Ok(client_detail(state, session, client, contacts))
}

async fn detail(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<ClientDetail>> {
    read_detail(&state, &session, id).await.map(Json)
}

/// Archives or restores in one transaction (`set_archived`, audited), then
/// answers the client as it now is.
async fn set_archived(
    state: &AppState,
    session: &StaffSession,
    id: String,
    archived: bool,
) -> AppResult<Json<ClientDetail>> {
    service::archive_for(&state.store, &session.principal(), &id, archived).await?;
    read_detail(state, session, id).await.map(Json)
}

async fn archive(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<ClientDetail>> {
    set_archived(&state, &session, id, true).await
}

async fn restore(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<ClientDetail>> {
    set_archived(&state, &session, id, false).await
}

// -- Contacts -----------------------------------------------------------------

/// Exactly `GET /api/v2/contacts/creation`.
async fn descriptor(_session: StaffSession) -> Json<CreationDescriptor> {
    Json(contact_descriptor())
}

/// Exactly `POST /api/v2/contacts` (`parentId` and `champs`), the staff
/// member named in the audit.
async fn create_contact(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<ContactBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    contact_creation(&state, &session.principal(), body)
        .await
        .map(|created| (StatusCode::CREATED, Json(created)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_archived_filter_reads_three_values_and_refuses_others_in_french() {
        assert_eq!(archived_filter(None).ok(), Some(None));
        assert_eq!(archived_filter(Some(" ")).ok(), Some(None));
        assert_eq!(archived_filter(Some("all")).ok(), Some(None));
        assert_eq!(archived_filter(Some("active")).ok(), Some(Some(false)));
        assert_eq!(archived_filter(Some("archived")).ok(), Some(Some(true)));
        let refusal = archived_filter(Some("oui"))
            .err()
            .map(|e| e.public_message());
        assert_eq!(
            refusal.as_deref(),
            Some("Le filtre « archived » doit valoir « active », « archived » ou « all ».")
        );
    }
}
