//! Fixtures: surveys and the partner's deals.
//!
//! A survey is asked for as the product asks for it: by the partner's deal
//! (`/create_survey`, [`World::requested_survey`]) or by a mobile user
//! opening the app on an equipment (`/open_app`, [`World::opened_survey`]);
//! it ends when an account submits it ([`World::submitted_survey`]). Both
//! reuse the equipment's open survey, so an equipment has at most one open
//! survey written this way.

use liftdesk::domain::id::{DealId, SurveyId};
use liftdesk::services::surveys::{self, SaveInput, SubmitInput};
use liftdesk::services::wf_surveys::{self, CreateSurveyInput, SurveyEquipmentInput};
use liftdesk::services::workflow;
use liftdesk::store::StoreError;
use liftdesk::store::{equipment as equipment_store, surveys as survey_store};

use super::World;

/// Where `/create_survey` puts the building of an equipment that has none.
const SURVEY_ADDRESS: &str = "5 rue Victor Hugo, 75015 Paris";

impl World {
    // -- Deals and surveys --------------------------------------------------

    /// The partner asks for surveys (`/create_survey`); returns the deal's id.
    pub async fn survey_deal(&self, input: CreateSurveyInput) -> String {
        Box::pin(wf_surveys::create_survey_for(
            &self.store,
            &self.principal,
            input,
        ))
        .await
        .expect("affaire")
        .into_string()
    }

    /// A deal of `type_affaire` (else of the inventory types) asking for the
    /// survey of the equipment `number` (added to the park if unknown, given
    /// a building when it has none) by the mobile account `surveyor_email`;
    /// the equipment's open survey is reused. Returns (deal, survey).
    pub async fn requested_survey(
        &self,
        number: &str,
        surveyor_email: &str,
        type_affaire: Option<&str>,
        inventory: &[&str],
    ) -> (String, String) {
        let deal = self
            .survey_deal(CreateSurveyInput {
                type_affaire: type_affaire.map(str::to_owned),
                type_etat_des_lieux: Some(inventory.iter().map(|t| (*t).to_owned()).collect()),
                solliciteur_email: "commercial@partenaire.fr".to_owned(),
                releveur_email: surveyor_email.to_owned(),
                equipments: vec![SurveyEquipmentInput {
                    equipment_number: Some(number.to_owned()),
                    adresse: Some(SURVEY_ADDRESS.to_owned()),
                    ..SurveyEquipmentInput::default()
                }],
                external_opportunity_id: None,
            })
            .await;
        (deal, self.open_survey_of(number).await)
    }

    /// The mobile account `user_email` opens the app on the equipment
    /// `number` (`/open_app`): its open survey, else a new one without deal.
    /// Returns the survey's id.
    pub async fn opened_survey(&self, number: &str, user_email: &str) -> String {
        Box::pin(wf_surveys::open_app_for(
            &self.store,
            &self.principal,
            number,
            user_email,
        ))
        .await
        .expect("ouverture de l'application");
        self.open_survey_of(number).await
    }

    /// The account `account_id` submits the survey.
    pub async fn submitted_survey(&self, account_id: &str, survey_id: &str, input: SubmitInput) {
        let principal = self.staff_by_id(account_id).await.principal;
        Box::pin(surveys::submit_for(
            &self.store,
            &principal,
            &SurveyId::new(survey_id),
            input,
        ))
        .await
        .expect("soumission");
    }

    /// The deal moves to `category` (« Gagnée »…).
    pub async fn deal_category(&self, deal_id: &str, category: &str) {
        Box::pin(workflow::set_deal_category(
            &self.store,
            &self.principal,
            &DealId::new(deal_id),
            category,
        ))
        .await
        .expect("catégorie de l'affaire");
    }

    /// The account `account_id` saves data on the survey without
    /// submitting it: the survey is `en_cours`.
    pub async fn saved_survey(&self, account_id: &str, survey_id: &str, input: SaveInput) {
        let principal = self.staff_by_id(account_id).await.principal;
        Box::pin(surveys::save_for(
            &self.store,
            &principal,
            &SurveyId::new(survey_id),
            input,
        ))
        .await
        .expect("enregistrement du relevé");
    }

    /// The survey is cancelled (`annule`).
    pub async fn cancelled_survey(&self, survey_id: &str) {
        Box::pin(surveys::cancel_for(
            &self.store,
            &self.principal,
            &SurveyId::new(survey_id),
            None,
        ))
        .await
        .expect("annulation du relevé");
    }

    /// The survey is wanted by `due_on`.
    pub async fn survey_due(&self, survey_id: &str, due_on: chrono::NaiveDate) {
        Box::pin(surveys::set_due_on_for(
            &self.store,
            &self.principal,
            &SurveyId::new(survey_id),
            Some(due_on),
        ))
        .await
        .expect("échéance du relevé");
    }

    /// The open survey of the equipment `number`.
    async fn open_survey_of(&self, number: &str) -> String {
        let (agency_id, number) = (self.agency_id(), number.to_owned());
        self.store
            .read(move |conn| -> Result<_, StoreError> {
                let equipment = equipment_store::find_by_number(conn, &agency_id, &number)?
                    .expect("équipement");
                Ok(
                    survey_store::open_for_equipment(conn, &agency_id, &equipment.id)?
                        .expect("relevé ouvert")
                        .0,
                )
            })
            .await
            .expect("relevé")
            .into_string()
    }
}
