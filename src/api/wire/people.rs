//! The organization's people on the wire, as their administrators manage
//! them (« Agence › Personnes »): the views and bodies shared by the web
//! application (`/app/api/people…`), the REST API v2 (`/api/v2/people…`)
//! and the operations they call (`services::people`: who may manage whom,
//! the last administrator, temporary passwords shown once).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::wire::me::AgencyRef;
use crate::domain::id::AccountId;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::people::{self as service, AccountEdit, NewPerson, Person, TemporaryPassword};
use crate::state::AppState;
use crate::store::accounts::Role;
use crate::store::agencies::AgencyRow;

/// Une personne de l'organisation.
#[derive(Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonWire {
    pub id: String,
    pub name: Option<String>,
    pub email: String,
    pub position: Option<String>,
    /// `org_admin`, `agency_admin` ou `member`.
    pub role: String,
    pub role_label: String,
    pub active: bool,
    pub performs_surveys: bool,
    /// A aussi une fiche technicien.
    pub technician: bool,
    /// N'a pas encore choisi son mot de passe (provisoire).
    pub must_change_password: bool,
    /// Les agences où elle travaille, parmi celles de l'administrateur.
    pub agencies: Vec<AgencyRef>,
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

#[derive(Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PeopleAnswer {
    pub people: Vec<PersonWire>,
    /// Les agences que l'administrateur peut donner.
    pub agencies: Vec<AgencyRef>,
    /// L'administrateur peut nommer des administrateurs de l'organisation.
    pub can_name_org_admins: bool,
    /// Le compte de la session (pas de rôle ni de mot de passe à changer ici).
    pub me: String,
}

/// Un nouveau compte.
#[derive(Deserialize, Debug, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewPersonBody {
    pub name: String,
    pub email: String,
    pub position: Option<String>,
    pub role: String,
    #[serde(default)]
    pub agency_ids: Vec<String>,
    #[serde(default)]
    pub performs_surveys: bool,
    #[serde(default)]
    pub technician: bool,
}

/// Ce qui change d'un compte : seuls les champs donnés ; `position` vide
/// l'efface ; `agencyIds` remplace ses agences parmi celles de
/// l'administrateur.
#[derive(Deserialize, Debug, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EditPersonBody {
    pub name: Option<String>,
    pub position: Option<String>,
    pub role: Option<String>,
    pub agency_ids: Option<Vec<String>>,
    pub performs_surveys: Option<bool>,
}

/// Le compte, et le mot de passe provisoire à transmettre, montré une fois.
#[derive(Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonWithPassword {
    pub person: PersonWire,
    pub temporary_password: String,
}

pub fn with_password((person, password): (Person, TemporaryPassword)) -> PersonWithPassword {
    PersonWithPassword {
        person: person.into(),
        temporary_password: password.0,
    }
}

/// The organization's people as the administrator manages them.
pub async fn people_managed(
    state: &AppState,
    p: &Principal,
    scope: &[AgencyRow],
    me: &AccountId,
) -> AppResult<PeopleAnswer> {
    let people = service::list(&state.store, p).await?;
    Ok(PeopleAnswer {
        people: people.into_iter().map(Into::into).collect(),
        agencies: scope.iter().map(AgencyRef::from).collect(),
        can_name_org_admins: service::acting_org_admin(p),
        me: me.to_string(),
    })
}

/// A new account, and its temporary password shown once.
pub async fn person_create(
    state: &AppState,
    p: &Principal,
    body: NewPersonBody,
) -> AppResult<PersonWithPassword> {
    let input = NewPerson {
        name: body.name,
        email: body.email,
        position: body.position,
        role: body.role,
        agency_ids: body.agency_ids,
        performs_surveys: body.performs_surveys,
        technician: body.technician,
    };
    Ok(with_password(
        service::create(&state.store, p, input).await?,
    ))
}

/// Changes the fields given of an account.
pub async fn person_edit(
    state: &AppState,
    p: &Principal,
    id: &AccountId,
    body: EditPersonBody,
) -> AppResult<PersonWire> {
    let change = AccountEdit {
        name: body.name,
        position: body
            .position
            .map(|p| Some(p).filter(|p| !p.trim().is_empty())),
        role: body.role,
        agency_ids: body.agency_ids,
        performs_surveys: body.performs_surveys,
    };
    Ok(service::edit(&state.store, p, id, change).await?.into())
}

/// Deactivates an account (its sessions and tokens end at once).
pub async fn person_deactivate(
    state: &AppState,
    p: &Principal,
    id: &AccountId,
) -> AppResult<PersonWire> {
    Ok(service::deactivate(&state.store, p, id).await?.into())
}

/// Reactivates an account.
pub async fn person_reactivate(
    state: &AppState,
    p: &Principal,
    id: &AccountId,
) -> AppResult<PersonWire> {
    Ok(service::reactivate(&state.store, p, id).await?.into())
}

/// A new temporary password for an account, shown once.
pub async fn person_reset_password(
    state: &AppState,
    p: &Principal,
    id: &AccountId,
) -> AppResult<PersonWithPassword> {
    Ok(with_password(
        service::reset_password(&state.store, p, id).await?,
    ))
}
