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
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::clients::{ClientListEntry, ClientListQuery, client_page};
use crate::api::wire::contacts::{
    ContactBody, CreationDescriptor, contact_creation, contact_descriptor,
};
use crate::api::wire::equipment::present;
use crate::api::wire::{Created, Page, RecordKind};
use crate::auth::staff_session::StaffSession;
use crate::domain::id::ContactId;
use crate::error::{ApiError, AppResult};
use crate::services::clients::{self as service, ClientForm, Edit};
use crate::services::contacts::{self, ContactEdit};
use crate::state::AppState;
use crate::store::clients::ClientRow;
use crate::store::contacts::ContactRow;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/clients", get(list).post(create))
        .route("/clients/{id}", get(detail).patch(edit))
        .route("/clients/{id}/archive", post(archive))
        .route("/clients/{id}/restore", post(restore))
        .route("/contacts/creation", get(descriptor))
        .route("/contacts", post(create_contact))
        .route("/contacts/{id}", patch(edit_contact).delete(remove_contact))
}

// -- The list -----------------------------------------------------------------

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    q: Option<String>,
    /// `active`, `archived` or `all` (the default, as the REST list).
    archived: Option<String>,
    pub(crate) limit: Option<String>,
    pub(crate) page: Option<String>,
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
    list_page(&state, &session.principal(), query).await
}

/// One page of the list, as `GET /clients` answers it (the export reads it
/// page by page).
pub(crate) async fn list_page(
    state: &AppState,
    principal: &crate::principal::Principal,
    query: ListQuery,
) -> AppResult<Page<ClientListEntry>> {
    let archived = archived_filter(query.archived.as_deref())?;
    let search = ClientListQuery {
        q: query.q,
        limit: query.limit,
        page: query.page,
    };
    client_page(state, principal, search, archived).await
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
    /// The street line.
    address: Option<String>,
    address_complement: Option<String>,
    /// Five digits.
    postal_code: Option<String>,
    city: Option<String>,
    /// The whole address on one line, as invoices print it.
    full_address: Option<String>,
    siren: Option<String>,
    siret: Option<String>,
    /// How it is invoiced: `entreprise` (assujettie à la TVA),
    /// `copropriete` (non assujettie), `organisme_public`; null until chosen.
    #[ts(type = "BillingCategory | null")]
    billing_category: Option<String>,
    billing_category_label: Option<String>,
    /// Intra-community VAT number.
    vat_number: Option<String>,
    /// The electronic invoicing address recorded (null: the default).
    electronic_address: Option<String>,
    /// The address its electronic invoices are made out to: the one
    /// recorded, else the SIREN's default (`SIREN`, or for a public body
    /// `SIREN_SIRET_CODE`); null without SIREN.
    effective_electronic_address: Option<String>,
    /// A public body's Chorus Pro service code.
    service_code: Option<String>,
    /// How its invoices travel: `facturation_electronique`, `chorus_pro`
    /// or `e_reporting`, and the sentence the screen shows.
    #[ts(type = "\"facturation_electronique\" | \"chorus_pro\" | \"e_reporting\"")]
    einvoicing: String,
    einvoicing_explanation: String,
    archived: bool,
    /// The full address of the client's page in the web application (the
    /// `url` of the REST list's row).
    url: String,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ContactView {
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
    let full_address = service::one_line_address(&client);
    let (treatment, effective_electronic_address) = service::einvoicing_of(&client);
    ClientDetail {
        client: ClientView {
            url: RecordKind::Client.url(&state.base_url, &client.client_ref),
            categories: service::categories(&client),
            id: client.client_ref,
            name: client.nom,
            status: client.statut.as_str().to_owned(),
            email: client.email,
            phone: client.telephone,
            full_address,
            address: client.adresse,
            address_complement: client.complement_adresse,
            postal_code: client.code_postal,
            city: client.ville,
            siren: client.siren,
            siret: client.siret,
            billing_category: client.billing_category.map(|c| c.as_str().to_owned()),
            billing_category_label: client.billing_category.map(|c| c.label().to_owned()),
            vat_number: client.vat_number,
            electronic_address: client.electronic_address,
            effective_electronic_address,
            service_code: client.service_code,
            einvoicing: treatment.as_str().to_owned(),
            einvoicing_explanation: treatment.explanation().to_owned(),
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

// -- Created and changed by hand ----------------------------------------------

/// Un client saisi ou modifié à la main : absent, un champ est gardé ; `null`
/// ou vide, il est effacé. `id` (l'identifiant partenaire) seulement à la
/// création ; `name` obligatoire à la création.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ClientBody {
    #[ts(optional)]
    id: Option<String>,
    #[ts(optional)]
    name: Option<String>,
    #[ts(optional, type = "ClientStatus")]
    status: Option<String>,
    #[ts(optional)]
    categories: Option<Vec<String>>,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    email: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    phone: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    address: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    address_complement: Edit,
    /// Five digits.
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    postal_code: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    city: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    siren: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    siret: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "BillingCategory | null")]
    billing_category: Edit,
    /// Intra-community VAT number (`FR44732829320`), its SIREN's.
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    vat_number: Edit,
    /// Electronic invoicing address (the French directory's); blank: the
    /// SIREN's default.
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    electronic_address: Edit,
    /// A public body's Chorus Pro service code.
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    service_code: Edit,
}

impl From<ClientBody> for ClientForm {
    fn from(body: ClientBody) -> Self {
        ClientForm {
            reference: body.id,
            name: body.name,
            status: body.status,
            categories: body.categories,
            email: body.email,
            phone: body.phone,
            address: body.address,
            address_complement: body.address_complement,
            postal_code: body.postal_code,
            city: body.city,
            siren: body.siren,
            siret: body.siret,
            billing_category: body.billing_category,
            vat_number: body.vat_number,
            electronic_address: body.electronic_address,
            service_code: body.service_code,
        }
    }
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<ClientBody>,
) -> AppResult<(StatusCode, Json<ClientDetail>)> {
    session.require_agency()?;
    let client = service::create_by_hand(&state.store, &session.principal(), body.into()).await?;
    let detail = read_detail(&state, &session, client.client_ref).await?;
    Ok((StatusCode::CREATED, Json(detail)))
}

async fn edit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<ClientBody>,
) -> AppResult<Json<ClientDetail>> {
    session.require_agency()?;
    if body.id.is_some() {
        return Err(ApiError::unprocessable(
            "L'identifiant client (« id ») ne se change pas : il est donné à la création.",
        ));
    }
    let client =
        service::edit_by_hand(&state.store, &session.principal(), &id, body.into()).await?;
    read_detail(&state, &session, client.client_ref)
        .await
        .map(Json)
}

/// Ce qui change d'un contact : absent, gardé ; `email`, `phone`, `role`
/// `null` ou vides, effacés.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ContactEditBody {
    #[ts(optional)]
    name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    email: Edit,
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    phone: Edit,
    /// La fonction.
    #[serde(default, deserialize_with = "present")]
    #[ts(optional, type = "string | null")]
    role: Edit,
}

async fn edit_contact(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<ContactId>,
    ApiJson(body): ApiJson<ContactEditBody>,
) -> AppResult<Json<ContactView>> {
    session.require_agency()?;
    let change = ContactEdit {
        nom: body.name,
        email: body.email,
        telephone: body.phone,
        fonction: body.role,
    };
    let c = contacts::edit_for(&state.store, &session.principal(), id, change).await?;
    Ok(Json(ContactView {
        id: c.id.into_string(),
        name: c.nom,
        email: c.email,
        phone: c.telephone,
        role: c.fonction,
    }))
}

async fn remove_contact(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<ContactId>,
) -> AppResult<StatusCode> {
    session.require_agency()?;
    contacts::remove_for(&state.store, &session.principal(), id).await?;
    Ok(StatusCode::NO_CONTENT)
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
