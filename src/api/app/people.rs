//! `/app/api/people…`: the « Agence › Personnes » screen, the accounts of
//! the organization as their administrators manage them, through
//! `services::people` (who may manage whom, the last administrator, the
//! temporary passwords shown once).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::me::AgencyRef;
use crate::auth::staff_session::StaffSession;
use crate::domain::id::AccountId;
use crate::error::AppResult;
use crate::services::people::{self as service, AccountEdit, NewPerson, Person, TemporaryPassword};
use crate::state::AppState;
use crate::store::accounts::Role;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/people", get(list).post(create))
        .route("/people/{id}", patch(edit))
        .route("/people/{id}/deactivate", post(deactivate))
        .route("/people/{id}/reactivate", post(reactivate))
        .route("/people/{id}/password-reset", post(reset_password))
}

/// Une personne de l'organisation.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PersonWire {
    id: String,
    name: Option<String>,
    email: String,
    position: Option<String>,
    /// `org_admin`, `agency_admin` ou `member`.
    role: String,
    role_label: String,
    active: bool,
    performs_surveys: bool,
    /// A aussi une fiche technicien.
    technician: bool,
    /// N'a pas encore choisi son mot de passe (provisoire).
    must_change_password: bool,
    /// Les agences où elle travaille, parmi celles de l'administrateur.
    agencies: Vec<AgencyRef>,
}

fn role_label(role: Role) -> &'static str {
    match role {
        Role::OrgAdmin => "Administrateur de l'organisation",
        Role::AgencyAdmin => "Administrateur d'agence",
        Role::Member => "Membre",
        Role::Operator => "Opérateur du service",
    }
}

impl From<Person> for PersonWire {
    fn from(person: Person) -> Self {
        let a = person.account;
        Self {
            id: a.id.to_string(),
            name: a.name,
            email: a.email,
            position: a.position,
            role: a.role.as_str().to_owned(),
            role_label: role_label(a.role).to_owned(),
            active: a.active,
            performs_surveys: a.performs_surveys,
            technician: person.technician,
            must_change_password: a.must_change_password,
            agencies: person.agencies.iter().map(AgencyRef::from).collect(),
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PeopleAnswer {
    people: Vec<PersonWire>,
    /// Les agences que l'administrateur peut donner.
    agencies: Vec<AgencyRef>,
    /// L'administrateur peut nommer des administrateurs de l'organisation.
    can_name_org_admins: bool,
    /// Le compte de la session (pas de rôle ni de mot de passe à changer ici).
    me: String,
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<PeopleAnswer>> {
    session.require_agency()?;
    let p = session.principal();
    let people = service::list(&state.store, &p).await?;
    Ok(Json(PeopleAnswer {
        people: people.into_iter().map(Into::into).collect(),
        agencies: session.scope.iter().map(AgencyRef::from).collect(),
        can_name_org_admins: service::acting_org_admin(&p),
        me: session.account.id.to_string(),
    }))
}

/// Un nouveau compte.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NewPersonBody {
    name: String,
    email: String,
    position: Option<String>,
    role: String,
    #[serde(default)]
    agency_ids: Vec<String>,
    #[serde(default)]
    performs_surveys: bool,
    #[serde(default)]
    technician: bool,
}

/// Le compte, et le mot de passe provisoire à transmettre, montré une fois.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PersonWithPassword {
    person: PersonWire,
    temporary_password: String,
}

fn with_password((person, password): (Person, TemporaryPassword)) -> PersonWithPassword {
    PersonWithPassword {
        person: person.into(),
        temporary_password: password.0,
    }
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewPersonBody>,
) -> AppResult<(StatusCode, Json<PersonWithPassword>)> {
    session.require_agency()?;
    let input = NewPerson {
        name: body.name,
        email: body.email,
        position: body.position,
        role: body.role,
        agency_ids: body.agency_ids,
        performs_surveys: body.performs_surveys,
        technician: body.technician,
    };
    let created = service::create(&state.store, &session.principal(), input).await?;
    Ok((StatusCode::CREATED, Json(with_password(created))))
}

/// Ce qui change d'un compte : seuls les champs donnés ; `position` vide
/// l'efface ; `agencyIds` remplace ses agences parmi celles de
/// l'administrateur.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EditBody {
    name: Option<String>,
    position: Option<String>,
    role: Option<String>,
    agency_ids: Option<Vec<String>>,
    performs_surveys: Option<bool>,
}

async fn edit(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
    ApiJson(body): ApiJson<EditBody>,
) -> AppResult<Json<PersonWire>> {
    session.require_agency()?;
    let change = AccountEdit {
        name: body.name,
        position: body
            .position
            .map(|p| Some(p).filter(|p| !p.trim().is_empty())),
        role: body.role,
        agency_ids: body.agency_ids,
        performs_surveys: body.performs_surveys,
    };
    let person = service::edit(&state.store, &session.principal(), &id, change).await?;
    Ok(Json(person.into()))
}

async fn deactivate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWire>> {
    session.require_agency()?;
    let person = service::deactivate(&state.store, &session.principal(), &id).await?;
    Ok(Json(person.into()))
}

async fn reactivate(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWire>> {
    session.require_agency()?;
    let person = service::reactivate(&state.store, &session.principal(), &id).await?;
    Ok(Json(person.into()))
}

async fn reset_password(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWithPassword>> {
    session.require_agency()?;
    let reset = service::reset_password(&state.store, &session.principal(), &id).await?;
    Ok(Json(with_password(reset)))
}
