//! The small demo's writer: each seed of the demo's plan
//! (`store::demo::seeds`) written through the operation a member of the
//! agency would have used, at the seed's own instant (`Tx::at`), inside the
//! demo's one transaction: technicians added, their absences recorded,
//! their standby weeks put on the rota, clients and their contacts entered.
//! So the demo holds what the operations write, their audit entries
//! included, and a rule the demo's plan breaks fails its installation.
//! The seeds the operations cannot write yet (buildings and equipment with
//! their access instructions and maintenance plan) go to the bulk writer.

use anyhow::{Context, Result, bail};

use crate::clock;
use crate::domain::building::{AccessInput, BuildingInput};
use crate::domain::id::{ClientId, EquipmentId, TechnicianId};
use crate::domain::technician::TechnicianInput;
use crate::error::AppError;
use crate::principal::Principal;
use crate::services::clients::{self, ClientInput, ContactInput};
use crate::services::equipment::{self, NewEquipment};
use crate::services::{planning, technicians, visits};
use crate::store::Tx;
use crate::store::agencies;
use crate::store::demo::seeds::{
    AbsenceSeed, BuildingSeed, ClientSeed, ContactSeed, EquipmentSeed, Id, OnCallSeed,
    TechnicianSeed, VisitSeed, Writer,
};
use crate::store::demo::{Bulk, DemoAgency};
use crate::store::equipment::IdentityRow;

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
        let input = ClientInput {
            client_id: Some(self.client_ref(seed.client)?),
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
        let p = self.principal()?;
        let client_ref = self.client_ref(seed.client)?;
        let input = BuildingInput {
            name: seed.name.map(str::to_owned),
            address: Some(seed.address.to_owned()),
            address_complement: seed.address_complement.map(str::to_owned),
            postal_code: Some(seed.postal_code.to_owned()),
            city: Some(seed.city.to_owned()),
        };
        let access = AccessInput {
            instructions: serde_json::from_str(seed.access)?,
            other: seed.access_other.map(str::to_owned),
            digicode: seed.digicode.map(str::to_owned),
            key_box: seed.key_box.map(str::to_owned),
        };
        let building = self
            .tx
            .at(seed.created, |tx| {
                let building = equipment::create_building_in(tx, p, &input, Some(&client_ref))?;
                equipment::set_building_access_in(tx, p, &building.id, &access)?;
                Ok::<_, AppError>(building)
            })
            .with_context(|| format!("immeuble « {} »", seed.address))?;
        Id::of_text(&building.id)
    }

    fn equipment(&mut self, seed: &EquipmentSeed) -> Result<Id> {
        let p = self.principal()?;
        let input = NewEquipment {
            identity: IdentityRow {
                number: Some(seed.number.to_owned()),
                serial_number: seed.serial_number.map(str::to_owned),
                equipment_type: Some(seed.eq_type.to_owned()),
                subtype: Some(seed.subtype.to_owned()),
                location: seed.location.map(str::to_owned),
                maintenance_contract: seed.contract.map(str::to_owned),
                contract_number: seed.contract_number.map(str::to_owned),
                external_id: seed.external_id.map(str::to_owned),
            },
            building_id: Some(seed.building.as_str().to_owned()),
            client_ref: Some(self.client_ref(seed.client)?),
        };
        let equipment = self
            .tx
            .at(seed.created, |tx| {
                let equipment = equipment::create_in(tx, p, &input)?;
                if seed.visit_interval_days != DEFAULT_INTERVAL_DAYS {
                    planning::set_interval_in(
                        tx,
                        p,
                        &equipment.id,
                        seed.visit_interval_days,
                        tx.now(),
                    )?;
                }
                if let Some(start) = seed.plan_start {
                    planning::set_plan_start_in(tx, p, &equipment.id, start)?;
                }
                Ok::<_, AppError>(equipment)
            })
            .with_context(|| format!("équipement {}", seed.number))?;
        Id::of_text(equipment.id.as_str())
    }

    fn visit(&mut self, seed: &VisitSeed) -> Result<()> {
        self.write_visit(seed)
    }
}

impl Operations<'_, '_> {
    /// Plans a visit at `seed.created`; then the technician arrives and, for
    /// a visit done, leaves with the signed report.
    fn write_visit(&self, seed: &VisitSeed) -> Result<()> {
        let p = self.principal()?;
        let input = visits::CreateInput {
            equipment_id: seed.equipment.as_str().to_owned(),
            technician_id: Some(seed.technician.as_str().to_owned()),
            planned_for: seed.planned_for.to_string(),
        };
        let equipment = EquipmentId::new(seed.equipment.as_str());
        let id = self
            .tx
            .at(seed.created, |tx| {
                if let Some(last) = seed.after {
                    planning::set_plan_start_in(tx, p, &equipment, last)?;
                }
                let now = tx.now();
                visits::create_in(tx, p, &input, clock::paris_local(now).date(), now)
            })
            .with_context(|| format!("visite du {}", seed.planned_for))?;
        // The plan's deadline is the one the operations computed.
        let planned = visits::get(self.tx, p.agency_id()?, &id)?;
        if planned.deadline.as_deref() != Some(seed.deadline.to_string().as_str()) {
            bail!(
                "visite du {} : échéance {:?} calculée, {} prévue",
                seed.planned_for,
                planned.deadline,
                seed.deadline
            );
        }
        match (seed.arrived, seed.left) {
            (Some(arrived), None) => {
                let start = visits::StartInput {
                    arrived_at: Some(clock::format_timestamp(arrived)),
                };
                self.tx
                    .at(arrived, |tx| visits::start_in(tx, p, &id, &start, tx.now()))
                    .with_context(|| format!("arrivée à la visite du {}", seed.planned_for))?;
            }
            (Some(arrived), Some(left)) => {
                let report = visits::CompleteInput {
                    arrived_at: Some(clock::format_timestamp(arrived)),
                    left_at: Some(clock::format_timestamp(left)),
                    signed_by: seed.signed_by.unwrap_or_default().to_owned(),
                    observations: seed.observations.map(str::to_owned),
                };
                self.tx
                    .at(left, |tx| {
                        visits::complete_in(tx, p, &id, &report, tx.now())
                    })
                    .with_context(|| format!("clôture de la visite du {}", seed.planned_for))?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The reference (« clientId ») of the client the plan stored as `id`.
    fn client_ref(&self, id: Id) -> Result<String> {
        let agency_id = self.principal()?.agency_id()?;
        let client = crate::store::clients::find(self.tx, agency_id, &ClientId::new(id.as_str()))?
            .with_context(|| format!("client absent : {id:?}"))?;
        Ok(client.client_ref)
    }
}

/// The schema's days between two visits.
const DEFAULT_INTERVAL_DAYS: i64 = 42;
