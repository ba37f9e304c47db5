//! Fixtures: clients, buildings and equipment.

use liftdesk::domain::building::BuildingInput;
use liftdesk::domain::id::EquipmentId;
use liftdesk::services::clients::{self, ClientInput, ContactInput};
use liftdesk::services::contacts;
use liftdesk::services::equipment::{self, IdentityPatch, NewEquipment};
use liftdesk::store::equipment::IdentityRow;

use super::World;

impl World {
    // -- Buildings and equipment --------------------------------------------

    /// A building; returns its id.
    pub async fn building(
        &self,
        name: Option<&str>,
        address: &str,
        postal_code: Option<&str>,
        city: Option<&str>,
    ) -> String {
        self.building_of(None, name, address, postal_code, city)
            .await
    }

    /// A building of the client whose reference is `client_ref`; returns its id.
    pub async fn building_of(
        &self,
        client_ref: Option<&str>,
        name: Option<&str>,
        address: &str,
        postal_code: Option<&str>,
        city: Option<&str>,
    ) -> String {
        self.building_from(
            BuildingInput {
                name: name.map(str::to_owned),
                address: Some(address.to_owned()),
                address_complement: None,
                postal_code: postal_code.map(str::to_owned),
                city: city.map(str::to_owned),
            },
            client_ref,
        )
        .await
    }

    /// A building as given, of the client whose reference is `client_ref` if
    /// any; returns its id.
    pub async fn building_from(&self, input: BuildingInput, client_ref: Option<&str>) -> String {
        Box::pin(equipment::create_building(
            &self.store,
            &self.principal,
            input,
            client_ref.map(str::to_owned),
        ))
        .await
        .expect("immeuble")
        .id
        .into_string()
    }

    /// Corrects the identity of an equipment (`PATCH /equipment/{id}/identity`).
    pub async fn identity_corrected(&self, equipment_id: &str, patch: IdentityPatch) {
        Box::pin(equipment::correct_identity_for(
            &self.store,
            &self.principal,
            &EquipmentId::new(equipment_id),
            patch,
        ))
        .await
        .expect("identité");
    }

    /// A lift under contract (`ascenseur`, `parc`), in the building if
    /// given; returns its id.
    pub async fn lift(&self, number: &str, building_id: Option<&str>) -> String {
        self.equipment_with(NewEquipment {
            identity: IdentityRow {
                number: Some(number.to_owned()),
                equipment_type: Some("ascenseur".to_owned()),
                maintenance_contract: Some("parc".to_owned()),
                ..IdentityRow::default()
            },
            building_id: building_id.map(str::to_owned),
            client_ref: None,
        })
        .await
    }

    /// An equipment with only its number (no type, no contract); returns
    /// its id.
    pub async fn numbered(&self, number: &str) -> String {
        self.equipment_with(NewEquipment {
            identity: IdentityRow {
                number: Some(number.to_owned()),
                ..IdentityRow::default()
            },
            ..NewEquipment::default()
        })
        .await
    }

    /// An equipment as given; returns its id.
    pub async fn equipment_with(&self, input: NewEquipment) -> String {
        Box::pin(equipment::create(&self.store, &self.principal, input))
            .await
            .expect("équipement")
            .id
            .into_string()
    }

    // -- Clients ------------------------------------------------------------

    /// A client as the partner API's `/update_client` creates it; returns
    /// its internal id.
    pub async fn client(&self, input: ClientInput) -> String {
        Box::pin(clients::update_client_for(
            &self.store,
            &self.principal,
            input,
        ))
        .await
        .expect("client")
        .into_string()
    }

    /// A client with its reference and name only; returns its internal id.
    pub async fn client_named(&self, client_ref: &str, name: &str) -> String {
        self.client(ClientInput {
            client_id: Some(client_ref.to_owned()),
            nom: Some(name.to_owned()),
            ..ClientInput::default()
        })
        .await
    }

    /// A contact of the client `client_ref`, as the contact form creates it
    /// (`nom` required, `fonction` from its list); returns its id.
    pub async fn contact(&self, client_ref: &str, contact: ContactInput) -> String {
        let champs = [
            ("nom", contact.nom),
            ("email", contact.email),
            ("telephone", contact.telephone),
            ("fonction", contact.fonction),
        ]
        .into_iter()
        .filter_map(|(field, value)| Some((field.to_owned(), value?.into())))
        .collect();
        Box::pin(contacts::create_for(
            &self.store,
            &self.principal,
            Some(client_ref.into()),
            champs,
        ))
        .await
        .expect("contact")
        .into_string()
    }
}
