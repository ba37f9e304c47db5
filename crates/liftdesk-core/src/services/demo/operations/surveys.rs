//! The small demo's surveys, written through the operations. The plan hands
//! over its deals, then its surveys, then their data, the equipment's
//! technical data and the discrepancies; a survey's life needs its data, so
//! they are kept back (`Pending`) until the agency's seeds are all handed
//! over, then written, each step at its own instant:
//! - the equipment's technical data noted outside any survey, by the
//!   Equipment screen's correction (`technical_data::update_by_code`);
//! - each survey, in the plan's order (so the agency's numbering gives the
//!   plan's numbers): asked for by the partner's key (`/create_survey`, a
//!   deal's later surveys added to it by its opportunity id) or opened in
//!   the app (`/open_app`), by the surveyor's e-mail; its due day, set by
//!   the agency; then saved `en_cours` by the surveyor with its data and
//!   photos, or saved with its photos and submitted with its data and its
//!   day, or cancelled by the agency with why; the discrepancies the
//!   surveyor found;
//! - each deal's category, once its last survey changed.
//!
//! What the operations answer is checked against the plan: each survey's
//! number and reason, one deal per deal of the plan.
//!
//! The partner's commercial deals without any survey are the one thing no
//! operation makes (`/create_survey` wants at least one equipment): the
//! demo brings them along as imported history, through the bulk writer.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::{Map, Value};

use super::Operations;
use crate::domain::id::{AccountId, DealId, EquipmentId};
use crate::domain::survey::SurveyStatus;
use crate::services::discrepancies::{self, NewDiscrepancyInput};
use crate::services::surveys::{self, SaveInput, SubmitInput};
use crate::services::wf_surveys::{self, CreateSurveyInput, SurveyEquipmentInput};
use crate::services::{technical_data, workflow};
use crate::store::audit::Actor;
use crate::store::demo::seeds::{
    DealSeed, DiscrepancySeed, Id, SurveySeed, TechnicalValueSeed, Writer as _,
};
use crate::store::{equipment as equipment_store, sheets, surveys as survey_store};

/// What the plan handed over of an agency's surveys, not written yet.
#[derive(Default)]
pub(super) struct Pending {
    deals: Vec<PendingDeal>,
    deal_index: BTreeMap<Id, usize>,
    surveys: Vec<PendingSurvey>,
    survey_index: BTreeMap<Id, usize>,
    /// Technical data noted outside any survey, by equipment: when, and
    /// the values by catalog code.
    values: BTreeMap<Id, (DateTime<Utc>, Map<String, Value>)>,
}

struct PendingDeal {
    id: Id,
    type_affaire: Option<String>,
    /// The inventory types, as a JSON array of text.
    types: String,
    category: String,
    external: Option<String>,
    requester: String,
    surveyor: Option<String>,
    client: Option<Id>,
    created: DateTime<Utc>,
    updated: DateTime<Utc>,
    /// Whether a survey of the plan asks for it.
    has_surveys: bool,
}

struct PendingSurvey {
    equipment: Id,
    number: Option<String>,
    status: SurveyStatus,
    reason: Option<String>,
    cancel_reason: Option<String>,
    surveyor: Option<String>,
    due_on: Option<NaiveDate>,
    surveyed_on: Option<NaiveDate>,
    photo_count: i64,
    submitted_at: Option<DateTime<Utc>>,
    created: DateTime<Utc>,
    updated: DateTime<Utc>,
    deal: Option<usize>,
    values: Map<String, Value>,
    discrepancies: Vec<PendingDiscrepancy>,
}

struct PendingDiscrepancy {
    component: Option<String>,
    finding: String,
    created_by: Option<String>,
    created: DateTime<Utc>,
}

fn json_of(text: &str) -> Result<Value> {
    serde_json::from_str(text).with_context(|| format!("valeur JSON attendue : {text}"))
}

impl Pending {
    pub(super) fn deal(&mut self, seed: &DealSeed) -> Id {
        self.deal_index.insert(seed.id, self.deals.len());
        self.deals.push(PendingDeal {
            id: seed.id,
            type_affaire: seed.type_affaire.map(str::to_owned),
            types: seed.types.to_owned(),
            category: seed.category.to_owned(),
            external: seed.external_opportunity.map(str::to_owned),
            requester: seed.requester_email.to_owned(),
            surveyor: seed.surveyor.map(str::to_owned),
            client: seed.client,
            created: seed.created,
            updated: seed.updated,
            has_surveys: false,
        });
        seed.id
    }

    pub(super) fn survey(&mut self, seed: &SurveySeed) -> Id {
        self.survey_index.insert(seed.id, self.surveys.len());
        self.surveys.push(PendingSurvey {
            equipment: seed.equipment,
            number: seed.number.map(str::to_owned),
            status: seed.status,
            reason: seed.reason.map(str::to_owned),
            cancel_reason: seed.cancel_reason.map(str::to_owned),
            surveyor: seed.surveyor.map(str::to_owned),
            due_on: seed.due_on,
            surveyed_on: seed.surveyed_on,
            photo_count: seed.photo_count,
            submitted_at: seed.submitted_at,
            created: seed.created,
            updated: seed.updated,
            deal: None,
            values: Map::new(),
            discrepancies: Vec::new(),
        });
        seed.id
    }

    fn survey_mut(&mut self, id: Id) -> Result<&mut PendingSurvey> {
        let index = *self
            .survey_index
            .get(&id)
            .with_context(|| format!("relevé inconnu du plan : {}", id.as_str()))?;
        Ok(&mut self.surveys[index])
    }

    pub(super) fn survey_of_deal(&mut self, survey: Id, deal: Id) -> Result<()> {
        let index = *self
            .deal_index
            .get(&deal)
            .with_context(|| format!("affaire inconnue du plan : {}", deal.as_str()))?;
        self.deals[index].has_surveys = true;
        let survey = self.survey_mut(survey)?;
        if survey.deal.is_some() {
            bail!("un relevé demandé par deux affaires : /create_survey n'en fait qu'une");
        }
        survey.deal = Some(index);
        Ok(())
    }

    /// A datum copied from a survey is written by its submission (the
    /// plan hands it over again as the survey's); one noted outside any
    /// survey is kept for its equipment.
    pub(super) fn technical_value(&mut self, seed: &TechnicalValueSeed) -> Result<()> {
        if let Some(survey) = seed.survey {
            let survey = self.survey_mut(survey)?;
            if survey.status != SurveyStatus::Termine || survey.submitted_at != Some(seed.surveyed)
            {
                bail!("une donnée copiée d'un relevé qui n'a pas été soumis à cet instant");
            }
            return Ok(());
        }
        let (at, values) = self
            .values
            .entry(seed.equipment)
            .or_insert_with(|| (seed.surveyed, Map::new()));
        if *at != seed.surveyed {
            bail!(
                "données d'un équipement notées à deux instants : {}",
                seed.equipment.as_str()
            );
        }
        values.insert(seed.code.to_owned(), json_of(seed.value)?);
        Ok(())
    }

    pub(super) fn survey_value(&mut self, survey: Id, code: &str, value: &str) -> Result<()> {
        let value = json_of(value)?;
        self.survey_mut(survey)?
            .values
            .insert(code.to_owned(), value);
        Ok(())
    }

    pub(super) fn discrepancy(&mut self, seed: &DiscrepancySeed) -> Result<()> {
        let survey = self.survey_mut(seed.survey)?;
        if survey.equipment != seed.equipment {
            bail!("écart d'un autre équipement que celui de son relevé");
        }
        survey.discrepancies.push(PendingDiscrepancy {
            component: seed.component.map(str::to_owned),
            finding: seed.finding.to_owned(),
            created_by: seed.created_by.map(str::to_owned),
            created: seed.created,
        });
        Ok(())
    }
}

impl Operations<'_, '_> {
    /// Writes what the plan handed over of the agency's surveys (see the
    /// module's documentation).
    pub(super) fn write_surveys(&mut self) -> Result<()> {
        let pending = std::mem::take(&mut self.pending);
        let system = self.principal()?.clone();
        let agency_id = system.agency_id()?.clone();
        for (equipment, (at, values)) in &pending.values {
            let equipment = EquipmentId::new(equipment.as_str());
            self.tx
                .at(*at, |tx| {
                    technical_data::update_by_code(
                        tx,
                        &agency_id,
                        &equipment,
                        values,
                        &system.actor,
                    )
                })
                .with_context(|| format!("données techniques de l'équipement {equipment}"))?;
        }
        let mut deal_ids: Vec<Option<DealId>> = vec![None; pending.deals.len()];
        for survey in &pending.surveys {
            let number = survey.number.as_deref().unwrap_or("sans numéro");
            self.write_survey(&pending, survey, &mut deal_ids)
                .with_context(|| format!("relevé {number}"))?;
        }
        for (deal, stored) in pending.deals.iter().zip(deal_ids) {
            match stored {
                Some(id) => {
                    self.tx
                        .at(deal.updated, |tx| {
                            workflow::set_deal_category_in(tx, &system, &id, &deal.category)
                        })
                        .with_context(|| format!("catégorie de l'affaire {id}"))?;
                }
                None if !deal.has_surveys => {
                    self.bulk.deal(&DealSeed {
                        id: deal.id,
                        type_affaire: deal.type_affaire.as_deref(),
                        types: &deal.types,
                        category: &deal.category,
                        external_opportunity: deal.external.as_deref(),
                        requester_email: &deal.requester,
                        surveyor: deal.surveyor.as_deref(),
                        client: deal.client,
                        created: deal.created,
                        updated: deal.updated,
                    })?;
                }
                None => bail!("affaire {} jamais demandée", deal.id.as_str()),
            }
        }
        Ok(())
    }

    /// A survey asked for, dated, then lived by its surveyor.
    fn write_survey(
        &mut self,
        pending: &Pending,
        survey: &PendingSurvey,
        deal_ids: &mut [Option<DealId>],
    ) -> Result<()> {
        let system = self.principal()?.clone();
        let agency_id = system.agency_id()?.clone();
        let equipment_id = EquipmentId::new(survey.equipment.as_str());
        let equipment = equipment_store::get(self.tx, &agency_id, &equipment_id)?
            .context("équipement absent")?;
        let equipment_number = equipment
            .identity
            .number
            .clone()
            .context("un relevé d'un équipement sans numéro")?;
        let surveyor = self.staff(survey.surveyor.as_deref().context("relevé sans releveur")?)?;
        let account = surveyor.account()?.clone();
        let partner = Actor::PartnerKey(self.partner_key.clone());

        // Asked for: by the partner's deal, or in the app.
        match survey.deal {
            Some(index) => {
                let deal = &pending.deals[index];
                let building = equipment
                    .building
                    .clone()
                    .context("équipement sans immeuble")?;
                let access = sheets::building_access(self.tx, &equipment_id)?.unwrap_or_default();
                let text = |i: usize| access.get(i).cloned().flatten();
                let instructions: Vec<String> = match text(0) {
                    Some(json) => serde_json::from_str(&json)?,
                    None => Vec::new(),
                };
                let types: Vec<String> = serde_json::from_str(&deal.types)?;
                let client_id = deal.client.map(|id| self.client_ref(id)).transpose()?;
                let input = CreateSurveyInput {
                    type_affaire: deal.type_affaire.clone(),
                    type_etat_des_lieux: (!types.is_empty()).then_some(types),
                    solliciteur_email: deal.requester.clone(),
                    releveur_email: account.email.clone(),
                    equipments: vec![SurveyEquipmentInput {
                        equipment_number: Some(equipment_number),
                        adresse: Some(building.address),
                        complement_adresse: building.address_complement,
                        consignes_acces: Some(instructions),
                        consignes_acces_autre: text(1),
                        digicode: text(2),
                        coffre_a_cles: text(3),
                        client_id,
                        ..SurveyEquipmentInput::default()
                    }],
                    external_opportunity_id: deal.external.clone(),
                };
                let deal_id = self
                    .tx
                    .at(survey.created, |tx| {
                        wf_surveys::create_survey(tx, &agency_id, input, &partner)
                    })
                    .context("demande du partenaire")?;
                match &deal_ids[index] {
                    Some(known) if *known != deal_id => {
                        bail!("une deuxième affaire ({deal_id}) pour l'affaire {known} du plan")
                    }
                    _ => deal_ids[index] = Some(deal_id),
                }
            }
            None => {
                self.tx
                    .at(survey.created, |tx| {
                        wf_surveys::open_app(
                            tx,
                            &agency_id,
                            &equipment_number,
                            &account.email,
                            &partner,
                        )
                    })
                    .context("ouverture dans l'application")?;
            }
        }
        let (id, _) = survey_store::open_for_equipment(self.tx, &agency_id, &equipment_id)?
            .context("relevé absent juste après sa demande")?;
        let stored = survey_store::get(self.tx, &agency_id, &id)?
            .context("relevé absent juste après sa demande")?;
        let text = |value: &Option<String>| value.clone().unwrap_or_else(|| "aucun".to_owned());
        if stored.number != survey.number {
            bail!(
                "numéro {} donné, {} prévu",
                text(&stored.number),
                text(&survey.number)
            );
        }
        if stored.reason != survey.reason {
            bail!(
                "motif {} donné, {} prévu",
                text(&stored.reason),
                text(&survey.reason)
            );
        }
        if let Some(due_on) = survey.due_on {
            self.tx
                .at(survey.created, |tx| {
                    surveys::set_due_on_in(tx, &system, &id, Some(due_on))
                })
                .context("échéance")?;
        }

        // Its life, as its surveyor lived it.
        match survey.status {
            SurveyStatus::ARealiser => {}
            SurveyStatus::EnCours => {
                let input = SaveInput {
                    values: Some(survey.values.clone()),
                    photo_count: Some(survey.photo_count),
                };
                self.tx
                    .at(survey.updated, |tx| {
                        surveys::save_in(tx, &surveyor, &id, &input)
                    })
                    .context("enregistrement")?;
            }
            SurveyStatus::Termine => {
                let submitted = survey
                    .submitted_at
                    .context("relevé terminé sans soumission")?;
                if survey.photo_count > 0 {
                    let input = SaveInput {
                        values: None,
                        photo_count: Some(survey.photo_count),
                    };
                    let taken = survey.created + (submitted - survey.created) / 2;
                    self.tx
                        .at(taken, |tx| surveys::save_in(tx, &surveyor, &id, &input))
                        .context("photos")?;
                }
                let input = SubmitInput {
                    surveyed_on: survey.surveyed_on.map(|day| day.to_string()),
                    values: Some(survey.values.clone()),
                };
                self.tx
                    .at(submitted, |tx| {
                        surveys::submit(tx, &agency_id, &id, &account, &input, &surveyor.actor)
                    })
                    .context("soumission")?;
            }
            SurveyStatus::Annule => {
                let reason = survey.cancel_reason.as_deref();
                self.tx
                    .at(survey.updated, |tx| {
                        surveys::cancel_in(tx, &system, &id, reason)
                    })
                    .context("annulation")?;
            }
        }
        for found in &survey.discrepancies {
            let author = found.created_by.as_deref().map(AccountId::new);
            let actor = author.clone().map_or(system.actor.clone(), Actor::Account);
            let input = NewDiscrepancyInput {
                equipment_id: equipment_id.as_str().to_owned(),
                survey_id: id.as_str().to_owned(),
                component: found.component.clone(),
                finding: found.finding.clone(),
            };
            self.tx
                .at(found.created, |tx| {
                    discrepancies::create(tx, &agency_id, author.as_ref(), &input, &actor)
                })
                .with_context(|| format!("écart « {} »", found.finding))?;
        }
        Ok(())
    }
}
