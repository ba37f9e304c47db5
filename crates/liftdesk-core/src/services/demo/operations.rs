//! The small demo's writer: each seed of the demo's plan
//! (`store::demo::seeds`) written through the operation a member of the
//! agency would have used, at the seed's own instant (`Tx::at`), inside the
//! demo's one transaction: technicians, their absences and standby weeks,
//! clients and contacts, buildings and equipment, visits, calls, quotes,
//! invoices and credit notes. So the demo holds what the operations write,
//! their audit entries included, and a rule the demo's plan breaks fails
//! its installation. The deals, surveys, their data and the equipment's
//! technical data are kept back until the agency's seeds are all handed
//! over, then written by `surveys`.

use anyhow::{Context, Result, bail};

use crate::clock;
use crate::domain::building::{AccessInput, BuildingInput};
use crate::domain::call::CallStatus;
use crate::domain::client::BillingCategory;
use crate::domain::contract::ContractAction;
use crate::domain::id::{
    AccountId, CallId, ClientId, CredentialId, EquipmentId, InvoiceId, QuoteId, TechnicianId,
};
use crate::domain::identity;
use crate::domain::invoice::{InvoiceNature, InvoiceStatus, PaymentMethod};
use crate::domain::lines::LineInput;
use crate::domain::quote::QuoteAction;
use crate::domain::technician::TechnicianInput;
use crate::error::AppError;
use crate::principal::Principal;
use crate::services::clients::{self, ClientInput, ContactInput};
use crate::services::contracts::{self, ContractInput, IndexValueInput, TerminationInput};
use crate::services::equipment::{self, NewEquipment};
use crate::services::{calls, invoices, planning, quotes, technicians, visits};
use crate::store::Tx;
use crate::store::agencies;
use crate::store::demo::seeds::{
    AbsenceSeed, BuildingSeed, CallSeed, ClientSeed, ContactSeed, ContractSeed, DealSeed,
    DiscrepancySeed, EquipmentSeed, Id, IndexValueSeed, InvoiceSeed, LineSeed, OnCallSeed,
    QuoteSeed, SurveySeed, TechnicalValueSeed, TechnicianSeed, VisitSeed, Writer,
};
use crate::store::demo::{Bulk, DemoAgency};
use crate::store::equipment::IdentityRow;

mod surveys;

pub struct Operations<'a, 'c> {
    tx: &'a Tx<'c>,
    /// Liftdesk itself in the agency being written.
    principal: Option<Principal>,
    /// The organization's administrator, who dispatches the calls.
    administrator: AccountId,
    /// The administrator acting in the agency being written.
    dispatcher: Option<Principal>,
    /// The partner's key, which asks for the surveys.
    partner_key: CredentialId,
    /// The agency's surveys and their data, until they are all handed over.
    pending: surveys::Pending,
    /// Writes the partner's commercial deals without survey, which no
    /// operation makes (imported history).
    bulk: Bulk<'a, 'c>,
}

impl<'a, 'c> Operations<'a, 'c> {
    pub fn new(tx: &'a Tx<'c>, administrator: AccountId, partner_key: CredentialId) -> Self {
        Self {
            tx,
            administrator,
            partner_key,
            pending: surveys::Pending::default(),
            principal: None,
            dispatcher: None,
            bulk: Bulk::new(tx),
        }
    }

    fn principal(&self) -> Result<&Principal> {
        self.principal
            .as_ref()
            .context("la démonstration écrit une donnée avant de nommer son agence")
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
        self.dispatcher = None;
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
        if let Some(left) = seed.left {
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
            code_postal: None,
            ville: None,
            siren: some(seed.siren),
            siret: some(seed.siret),
            supprime: None,
            contacts: None,
            billing_category: Some(seed.billing),
            // A company subject to VAT has its VAT number (its SIREN's).
            vat_number: Some(
                seed.siren
                    .filter(|_| seed.billing == Some(BillingCategory::Entreprise))
                    .map(|siren| format!("FR{:02}{siren}", identity::vat_key(siren))),
            ),
            electronic_address: None,
            service_code: None,
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
        Id::of_text(building.id.as_str())
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
                if seed.visit_interval_days
                    != i64::from(crate::domain::visit::DEFAULT_INTERVAL_DAYS)
                {
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

    fn contract(&mut self, seed: &ContractSeed) -> Result<()> {
        let p = self.principal()?;
        let input = ContractInput {
            client_id: self.client_ref(seed.client)?,
            lift_ids: vec![seed.equipment.as_str().to_owned()],
            contract_type: seed.contract_type.as_str().to_owned(),
            start_on: crate::domain::day::iso(seed.start_on),
            duration_months: Some(12),
            tacit_renewal: Some(seed.tacit_renewal),
            renewal_months: Some(12),
            notice_months: Some(3),
            price_basis: Some("par_appareil".to_owned()),
            annual_price: seed.annual_price_cents as f64 / 100.0,
            billing_frequency: Some(seed.frequency.as_str().to_owned()),
            billing_timing: Some(seed.timing.as_str().to_owned()),
            vat_rate: Some(f64::from(seed.vat_rate_bp) / 100.0),
            price_index: seed.index.map(|(code, _, _)| code.to_owned()),
            base_index_value: seed.index.map(|(_, base, _)| base as f64 / 10_000.0),
            base_index_month: seed
                .index
                .map(|(_, _, month)| crate::domain::contract::month_text(month)),
            visit_interval_days: Some(seed.visit_interval_days),
            arrival_minutes: Some(i64::from(seed.arrival_minutes)),
            arrival_out_of_hours_minutes: seed.out_of_hours_minutes.map(i64::from),
            trapped_person_minutes: Some(i64::from(seed.trapped_minutes)),
            return_to_service_minutes: Some(i64::from(seed.restore_minutes)),
            weekend_coverage: Some(seed.out_of_hours_minutes.is_some()),
            on_call_coverage: Some(seed.out_of_hours_minutes.is_some()),
            penalty_per_late_hour: Some(seed.penalty_per_hour_cents as f64 / 100.0),
            notes: None,
        };
        let id = self
            .tx
            .at(seed.created, |tx| contracts::create_in(tx, p, &input))
            .with_context(|| format!("contrat {}", seed.number))?;
        let number = crate::store::contracts::get(self.tx, p.agency_id()?, &id)?
            .map(|row| row.number)
            .unwrap_or_default();
        if number != seed.number {
            bail!("le contrat prévu {} a reçu le numéro {number}", seed.number);
        }
        if let Some(at) = seed.activated {
            self.tx
                .at(at, |tx| {
                    contracts::act_in(tx, p, &id, ContractAction::Activate, None)
                })
                .with_context(|| format!("mise en vigueur du contrat {number}"))?;
        }
        if let Some(termination) = &seed.terminated {
            let input = TerminationInput {
                notice_on: Some(crate::domain::day::iso(termination.notice_on)),
                ends_on: None,
                reason: termination.reason.to_owned(),
            };
            self.tx
                .at(termination.at, |tx| {
                    contracts::act_in(tx, p, &id, ContractAction::Terminate, Some(&input))
                })
                .with_context(|| format!("résiliation du contrat {number}"))?;
        }
        Ok(())
    }

    fn index_value(&mut self, seed: &IndexValueSeed) -> Result<()> {
        let p = self.principal()?;
        let input = IndexValueInput {
            index: seed.index.to_owned(),
            month: crate::domain::contract::month_text(seed.month),
            value: seed.value as f64 / 10_000.0,
        };
        self.tx
            .at(seed.recorded, |tx| {
                contracts::record_index_value_in(tx, p, &input)
            })
            .with_context(|| format!("indice {} de {}", seed.index, input.month))?;
        Ok(())
    }

    fn visit(&mut self, seed: &VisitSeed) -> Result<()> {
        self.write_visit(seed)
    }

    fn quote(&mut self, seed: &QuoteSeed) -> Result<Id> {
        self.write_quote(seed)
            .with_context(|| format!("devis {}", seed.number))
    }

    fn invoice(&mut self, seed: &InvoiceSeed) -> Result<Id> {
        self.write_invoice(seed).with_context(|| match seed.number {
            Some((number, _, _)) => format!("pièce {number}"),
            None => format!("brouillon du {}", seed.created),
        })
    }

    /// The operations keep the series' counters as they number: each
    /// number was checked against the plan's as it was given.
    fn invoice_series(&mut self, _nature: &str, _year: i32, _last_seq: u32) -> Result<()> {
        Ok(())
    }

    fn call(&mut self, seed: &CallSeed) -> Result<()> {
        self.write_call(seed)
            .with_context(|| format!("appel {}", seed.reference))
    }

    /// Kept back with the agency's surveys: answers the plan's id, by
    /// which the plan names the deal to this writer again.
    fn deal(&mut self, seed: &DealSeed) -> Result<Id> {
        Ok(self.pending.deal(seed))
    }

    /// Kept back (see `deal`).
    fn survey(&mut self, seed: &SurveySeed) -> Result<Id> {
        Ok(self.pending.survey(seed))
    }

    fn survey_of_deal(&mut self, survey: Id, deal: Id) -> Result<()> {
        self.pending.survey_of_deal(survey, deal)
    }

    fn technical_value(&mut self, seed: &TechnicalValueSeed) -> Result<()> {
        self.pending.technical_value(seed)
    }

    fn survey_value(&mut self, survey: Id, code: &str, value: &str) -> Result<()> {
        self.pending.survey_value(survey, code, value)
    }

    fn discrepancy(&mut self, seed: &DiscrepancySeed) -> Result<()> {
        self.pending.discrepancy(seed)
    }

    fn end_of_agency(&mut self) -> Result<()> {
        self.write_surveys()
    }
}

impl Operations<'_, '_> {
    /// Opens a call as it came (the call center's key, or the member of the
    /// staff who took it), then the dispatcher assigns it and moves it
    /// through its statuses, each at its instant.
    fn write_call(&mut self, seed: &CallSeed) -> Result<()> {
        let p = self.principal()?.clone();
        let agency = p.agency()?.clone();
        let number = crate::store::equipment::get(
            self.tx,
            &agency.id,
            &EquipmentId::new(seed.equipment.as_str()),
        )?
        .and_then(|row| row.identity.number)
        .context("l'équipement d'un appel sans numéro")?;
        let received_at = Some(clock::format_timestamp(seed.received));
        let id = match (seed.call_center, seed.credential, seed.created_by) {
            (Some(center), Some(credential), _) => {
                let key = Principal::call_center_key(CredentialId::new(credential), agency.clone());
                let input = calls::CenterCallInput {
                    reference: seed.reference.to_owned(),
                    equipment: number,
                    call_type: seed.kind.to_owned(),
                    description: seed.description.to_owned(),
                    caller: seed.caller.map(str::to_owned),
                    received_at,
                };
                let (opened, _) = self.tx.at(seed.created, |tx| {
                    calls::open_from_call_center_in(tx, &key, center, &input, calls::KeyCheck::Read)
                })?;
                opened.call.id
            }
            (None, _, Some(account)) => {
                let staff = self.staff(account)?;
                let input = calls::AgencyCallInput {
                    equipment: number,
                    equipment_id: None,
                    call_type: seed.kind.to_owned(),
                    description: seed.description.to_owned(),
                    caller: seed.caller.map(str::to_owned),
                    received_at,
                };
                let opened = self.tx.at(seed.created, |tx| {
                    calls::open_at_agency_in(tx, &staff, &input)
                })?;
                if opened.reference != seed.reference {
                    bail!(
                        "référence {} donnée par l'agence, {} prévue",
                        opened.reference,
                        seed.reference
                    );
                }
                CallId::new(opened.id)
            }
            _ => bail!("un appel ni d'un centre avec sa clé ni pris à l'agence"),
        };
        let dispatcher = self.dispatcher()?;
        if let (Some(technician), Some(assigned)) = (seed.technician, seed.assigned) {
            let input = calls::AssignInput {
                technician_id: technician.as_str().to_owned(),
                technician_name: None,
            };
            self.tx
                .at(assigned, |tx| {
                    calls::assign_in(tx, &dispatcher, &id, &input)
                })
                .context("affectation")?;
        }
        for (status, at) in [
            (CallStatus::EnRoute, seed.en_route),
            (CallStatus::SurPlace, seed.arrived),
            (CallStatus::ALArret, seed.stopped),
            (CallStatus::Resolue, seed.resolved),
        ] {
            if let Some(at) = at {
                self.tx
                    .at(at, |tx| {
                        calls::change_status_in(tx, &dispatcher, &id, status)
                    })
                    .with_context(|| format!("passage au statut {}", status.as_str()))?;
            }
        }
        Ok(())
    }

    /// A quote written by its author, then sent and answered (the
    /// client's answer recorded by the same member of the staff).
    fn write_quote(&mut self, seed: &QuoteSeed) -> Result<Id> {
        let author = match seed.created_by {
            Some(account) => self.staff(account)?,
            None => self.principal()?.clone(),
        };
        let input = quotes::NewQuoteInput {
            equipment_id: seed.equipment.as_str().to_owned(),
            origin: seed.origin.to_owned(),
            object: seed.object.to_owned(),
            rows: seed.rows.iter().map(line_input).collect(),
        };
        let id = QuoteId::new(
            self.tx
                .at(seed.created, |tx| quotes::create_in(tx, &author, input))?,
        );
        let number = crate::store::quotes::get(self.tx, author.agency_id()?, &id)?
            .context("devis absent juste après sa création")?
            .number;
        if number.as_deref() != Some(seed.number) {
            bail!("numéro {number:?} donné, {} prévu", seed.number);
        }
        for (action, at) in [
            (QuoteAction::Send, seed.sent),
            (QuoteAction::Accept, seed.accepted),
            (QuoteAction::Refuse, seed.refused),
        ] {
            if let Some(at) = at {
                self.tx
                    .at(at, |tx| {
                        // A quote answered past its validity was renewed
                        // first, as the agency does before the client signs.
                        if action == QuoteAction::Accept
                            && let Some(row) =
                                crate::store::quotes::get(tx, author.agency_id()?, &id)?
                            && quotes::is_expired_on(
                                &row,
                                crate::domain::time::paris_local(tx.now()).date(),
                            )
                        {
                            quotes::act_in(tx, &author, &id, QuoteAction::Renew)?;
                        }
                        quotes::act_in(tx, &author, &id, action)
                    })
                    .with_context(|| format!("{action:?}"))?;
            }
        }
        Id::of_text(id.as_str())
    }

    /// A document as the agency's administrator makes it: a draft (from
    /// the accepted quote, with its lines, or crediting an invoice), issued
    /// at its date (a credit note is created issued), then sent or paid.
    fn write_invoice(&mut self, seed: &InvoiceSeed) -> Result<Id> {
        let clerk = self.dispatcher()?;
        let lines: Vec<LineInput> = seed.lines.iter().map(line_input).collect();
        let issued_credit_note =
            seed.nature == InvoiceNature::Avoir && seed.status != InvoiceStatus::Brouillon;
        let id = match (seed.credited, seed.quote) {
            (Some(credited), _) => {
                let credited = InvoiceId::new(credited.as_str());
                self.tx.at(seed.created, |tx| {
                    if issued_credit_note {
                        invoices::create_credit_note_in(tx, &clerk, &credited, Some(&lines))
                    } else {
                        invoices::prepare_credit_note_in(tx, &clerk, &credited, Some(&lines))
                    }
                })?
            }
            (None, Some(quote)) => {
                let client_ref = Some(self.client_ref(seed.client)?);
                let quote = QuoteId::new(quote.as_str());
                self.tx.at(seed.created, |tx| {
                    invoices::invoice_quote_in(tx, &clerk, &quote, client_ref)
                })?
            }
            (None, None) => {
                let input = invoices::NewInvoiceInput {
                    client_id: self.client_ref(seed.client)?,
                    lines: Some(lines),
                    quote_id: None,
                    equipment_ids: Vec::new(),
                };
                self.tx.at(seed.created, |tx| {
                    invoices::create_draft_in(tx, &clerk, &input)
                })?
            }
        };
        if let Some(at) = seed.issued_at
            && !issued_credit_note
        {
            self.tx
                .at(at, |tx| invoices::issue_in(tx, &clerk, &id))
                .context("émission")?;
        }
        let row = crate::store::invoices::get(self.tx, clerk.agency_id()?, &id)?
            .context("pièce absente juste après son écriture")?;
        if row.number.as_deref() != seed.number.map(|(number, _, _)| number)
            || row.total_incl_cents != seed.total_incl_cents
        {
            bail!(
                "{:?} pour {} centimes données, {:?} pour {} prévus",
                row.number,
                row.total_incl_cents,
                seed.number,
                seed.total_incl_cents
            );
        }
        if let Some(at) = seed.sent_at {
            self.tx
                .at(at, |tx| invoices::send_in(tx, &clerk, &id))
                .context("envoi")?;
        }
        if let Some((paid_on, at)) = seed.paid {
            self.tx
                .at(at, |tx| {
                    let payment = invoices::Payment {
                        paid_on: Some(paid_on),
                        method: Some(PaymentMethod::Virement),
                        ..invoices::Payment::default()
                    };
                    invoices::record_payment_in(tx, &clerk, &id, &payment)
                })
                .context("règlement")?;
        }
        Id::of_text(id.as_str())
    }

    /// The staff member `account` acting in the agency being written.
    fn staff(&self, account: &str) -> Result<Principal> {
        let agency = self.principal()?.agency()?.clone();
        let row = crate::store::accounts::get(self.tx, &AccountId::new(account))?
            .with_context(|| format!("compte absent : {account}"))?;
        Ok(Principal::staff_in(row, agency))
    }

    /// Who dispatches the agency's calls: the organization's administrator.
    fn dispatcher(&mut self) -> Result<Principal> {
        if self.dispatcher.is_none() {
            self.dispatcher = Some(self.staff(self.administrator.as_str())?);
        }
        self.dispatcher.clone().context("dispatcher")
    }

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
                    // Recorded afterwards, once the contracts exist
                    // (`demo::duties_history`).
                    duties: Vec::new(),
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

/// A line as a person types it: quantity and prices in units and euros.
fn line_input(line: &LineSeed) -> LineInput {
    LineInput {
        label: Some(line.label.to_owned()),
        quantity: Some(line.quantity_milli as f64 / 1000.0),
        unit_price: Some(line.unit_price_cents as f64 / 100.0),
        vat_rate: Some(f64::from(line.vat_rate_bp) / 100.0),
        vat_exemption: None,
    }
}
