//! The small demo's writer: each seed of the demo's plan
//! (`store::demo::seeds`) written through the operation a member of the
//! agency would have used, at the seed's own instant (`Tx::at`), inside the
//! demo's one transaction: technicians added, their absences recorded,
//! their standby weeks put on the rota, clients and their contacts entered.
//! So the demo holds what the operations write, their audit entries
//! included, and a rule the demo's plan breaks fails its installation.
//! The seeds the operations cannot write yet (buildings and equipment with
//! their access instructions and maintenance plan) go to the bulk writer.

use anyhow::{Context, Result};

use crate::clock;
use crate::domain::id::{AgencyId, ClientId, TechnicianId};
use crate::domain::technician::TechnicianInput;
use crate::principal::Principal;
use crate::services::clients::{self, ClientInput, ContactInput};
use crate::services::technicians;
use crate::store::Tx;
use crate::store::agencies;
use crate::store::demo::seeds::{
    AbsenceSeed, BuildingSeed, ClientSeed, ContactSeed, EquipmentSeed, Id, OnCallSeed,
    TechnicianSeed, Writer,
};
use crate::store::demo::{Bulk, DemoAgency};

pub struct Operations<'a, 'c> {
    tx: &'a Tx<'c>,
    bulk: Bulk<'a, 'c>,
    /// Liftdesk itself in the agency being written.
    principal: Option<Principal>,
}

impl<'a, 'c> Operations<'a, 'c> {
    pub fn new(tx: &'a Tx<'c>) -> Self {
        Self {
            tx,
            bulk: Bulk::new(tx),
            principal: None,
        }
    }

    fn principal(&self) -> Result<&Principal> {
        self.principal
            .as_ref()
            .context("the demo writes a seed before naming its agency")
    }
}

fn some(text: Option<&str>) -> Option<Option<String>> {
    Some(text.map(str::to_owned))
}

impl Writer for Operations<'_, '_> {
    fn agency(&mut self, agency: &DemoAgency) -> Result<()> {
        let row = agencies::get_agency(self.tx, &agency.id)?
            .with_context(|| format!("agence de démonstration absente : {}", agency.id))?;
        self.principal = Some(Principal::system_in(row));
        self.bulk.agency(agency)
    }

    fn technician(&mut self, seed: &TechnicianSeed) -> Result<Id> {
        let p = self.principal()?;
        let input = TechnicianInput {
            name: Some(seed.name.to_owned()),
            phone: Some(seed.phone.to_owned()),
            sectors: seed.sectors.split(',').map(str::to_owned).collect(),
            daily_capacity: Some(i64::from(seed.daily_capacity)),
        };
        let id = self
            .tx
            .at(seed.created, |tx| technicians::create_in(tx, p, &input))
            .with_context(|| format!("technicien « {} »", seed.name))?;
        if !seed.active {
            // He left the company halfway between his arrival and today.
            let left = seed.created + (self.tx.now() - seed.created) / 2;
            self.tx
                .at(left, |tx| technicians::set_active_in(tx, p, &id, false))
                .with_context(|| format!("départ du technicien « {} »", seed.name))?;
        }
        Id::of_text(id.as_str())
    }

    fn absence(&mut self, seed: &AbsenceSeed) -> Result<()> {
        let p = self.principal()?;
        let technician = TechnicianId::new(seed.technician.as_str());
        self.tx
            .at(seed.created, |tx| {
                technicians::record_absence_in(
                    tx,
                    p,
                    &technician,
                    &seed.from.to_string(),
                    &seed.to.to_string(),
                    seed.reason,
                )
            })
            .with_context(|| format!("absence du {} au {}", seed.from, seed.to))?;
        Ok(())
    }

    fn on_call(&mut self, seed: &OnCallSeed) -> Result<()> {
        let p = self.principal()?;
        let technician = TechnicianId::new(seed.technician.as_str());
        let monday = clock::paris_local(seed.starts).date();
        self.tx
            .at(seed.created, |tx| {
                technicians::assign_week_in(tx, p, monday, &technician)
            })
            .with_context(|| format!("astreinte de la semaine du {monday}"))?;
        Ok(())
    }

    fn client(&mut self, seed: &ClientSeed) -> Result<Id> {
        let p = self.principal()?;
        let types: Vec<String> = serde_json::from_str(seed.types)?;
        let input = ClientInput {
            client_id: Some(seed.client_ref.to_owned()),
            nom: Some(seed.name.to_owned()),
            statut: Some(if seed.prospect { "Prospect" } else { "Client" }.to_owned()),
            types: Some(types),
            email: some(seed.email),
            telephone: some(Some(seed.phone)),
            adresse: some(Some(seed.address)),
            complement_adresse: some(seed.address_complement),
            siren: some(seed.siren),
            siret: some(seed.siret),
            supprime: None,
            contacts: None,
        };
        let id = self
            .tx
            .at(seed.created, |tx| clients::update_client_in(tx, p, input))
            .with_context(|| format!("client « {} »", seed.name))?;
        if seed.archived {
            let archive = ClientInput {
                client_id: Some(seed.client_ref.to_owned()),
                supprime: Some(true),
                ..ClientInput::default()
            };
            self.tx
                .at(seed.updated, |tx| clients::update_client_in(tx, p, archive))
                .with_context(|| format!("archivage du client « {} »", seed.name))?;
        }
        Id::of_text(id.as_str())
    }

    fn contact(&mut self, seed: &ContactSeed) -> Result<()> {
        let p = self.principal()?;
        let agency_id: &AgencyId = p.agency_id()?;
        let client =
            crate::store::clients::find(self.tx, agency_id, &ClientId::new(seed.client.as_str()))?
                .context("le contact d'un client absent")?;
        let input = ClientInput {
            client_id: Some(client.client_ref),
            contacts: Some(vec![ContactInput {
                nom: Some(seed.name.to_owned()),
                email: seed.email.map(str::to_owned),
                telephone: Some(seed.phone.to_owned()),
                fonction: Some(seed.role.to_owned()),
            }]),
            ..ClientInput::default()
        };
        self.tx
            .at(seed.created, |tx| clients::update_client_in(tx, p, input))
            .with_context(|| format!("contact « {} »", seed.name))?;
        Ok(())
    }

    fn building(&mut self, seed: &BuildingSeed) -> Result<Id> {
        self.bulk.building(seed)
    }

    fn equipment(&mut self, seed: &EquipmentSeed) -> Result<Id> {
        self.bulk.equipment(seed)
    }
}
