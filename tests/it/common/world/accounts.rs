//! Fixtures: staff accounts, and the same agency's fixtures written by one
//! of them (what only an account does, audited in its name).

use liftdesk::domain::id::{AccountId, AgencyId};
use liftdesk::error::AppError;
use liftdesk::principal::{self, Door, Principal};
use liftdesk::services::accounts;
use liftdesk::services::installation::{self, NewUser};
use liftdesk::services::people::{self, AccountEdit};
use liftdesk::store::accounts as account_store;
use liftdesk::store::audit::Actor;

use super::World;

/// The password of the accounts [`World::staff_account`] creates.
pub const STAFF_PASSWORD: &str = "motdepasse1";

/// Which account: by e-mail or by id.
enum Account<'a> {
    Email(&'a str),
    Id(&'a str),
}

impl World {
    /// The agency this world writes in.
    pub fn agency_id(&self) -> AgencyId {
        self.principal.agency_id().expect("agence").to_owned()
    }

    /// A member account « Technicien » of the agency (password
    /// [`STAFF_PASSWORD`]) that performs surveys (a mobile account) or not,
    /// as `liftdesk user create` makes it; returns its id.
    pub async fn staff_account(&self, email: &str, performs_surveys: bool) -> String {
        let (store, principal) = (self.store.clone(), self.principal.clone());
        let (email, agency_ids) = (email.to_owned(), vec![self.agency_id().into_string()]);
        tokio::task::spawn_blocking(move || {
            installation::create_user(
                &store,
                &principal,
                &NewUser {
                    email: &email,
                    name: "Technicien",
                    password: STAFF_PASSWORD,
                    agency_ids: &agency_ids,
                    admin: false,
                    performs_surveys,
                    technician: false,
                },
            )
        })
        .await
        .expect("tâche")
        .expect("compte")
        .into_string()
    }

    /// The same agency's fixtures written by the staff member of `email` in
    /// the web application, as his session would (his scope, his rights).
    pub async fn staff(&self, email: &str) -> World {
        self.acting_as(Account::Email(email)).await
    }

    /// [`World::staff`] for the account `account_id`.
    pub async fn staff_by_id(&self, account_id: &str) -> World {
        self.acting_as(Account::Id(account_id)).await
    }

    /// Changes an account's name or position (`people::edit`).
    pub async fn edit_account(&self, account_id: &str, edit: AccountEdit) {
        Box::pin(people::edit(
            &self.store,
            &self.principal,
            &AccountId::new(account_id),
            edit,
        ))
        .await
        .expect("modification du compte");
    }

    /// Deactivates an account (`people::deactivate`).
    pub async fn deactivate_account(&self, account_id: &str) {
        Box::pin(people::deactivate(
            &self.store,
            &self.principal,
            &AccountId::new(account_id),
        ))
        .await
        .expect("désactivation du compte");
    }

    /// The agency's identity as a seller (`identity::update`).
    pub async fn seller_identity(&self, form: liftdesk::domain::identity::IdentityInput) {
        Box::pin(liftdesk::services::identity::update(
            &self.store,
            &self.principal,
            form,
        ))
        .await
        .expect("identité de l'agence");
    }

    async fn acting_as(&self, which: Account<'_>) -> World {
        let (by_email, key) = match which {
            Account::Email(email) => (true, email.to_owned()),
            Account::Id(id) => (false, id.to_owned()),
        };
        let (account, scope) = self
            .store
            .read(move |conn| -> Result<_, AppError> {
                let account = if by_email {
                    account_store::find_by_email(conn, &key)?
                } else {
                    account_store::get(conn, &AccountId::new(key.as_str()))?
                }
                .expect("compte");
                let scope = accounts::agencies_in_scope(conn, &account)?;
                Ok((account, scope))
            })
            .await
            .expect("compte du personnel");
        World {
            store: self.store.clone(),
            principal: Principal {
                actor: Actor::Account(account.id.clone()),
                account: Some(account),
                agency: Some(
                    principal::scope_agency(&scope, self.agency_id().as_str(), Door::App)
                        .expect("agence du compte"),
                ),
                scope,
                door: Door::App,
            },
        }
    }
}
