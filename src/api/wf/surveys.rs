//! `/create_survey` and `/open_app`. The rules are in `services::wf_surveys`.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::Deserialize;
use serde_json::json;

use super::{WfJson, WfResult, success};
use crate::auth::partner_key::PartnerCaller;
use crate::services::wf_surveys::{self as service, CreateSurveyInput, SurveyEquipmentInput};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/create_survey", post(create_survey))
        .route("/open_app", post(open_app))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EquipmentBody {
    #[serde(default)]
    equipment_number: Option<String>,
    #[serde(default)]
    adresse: Option<String>,
    #[serde(default)]
    complement_adresse: Option<String>,
    #[serde(default)]
    consignes_acces: Option<Vec<String>>,
    #[serde(default)]
    consignes_acces_autre: Option<String>,
    #[serde(default)]
    digicode: Option<String>,
    #[serde(default)]
    coffre_a_cles: Option<String>,
    #[serde(default)]
    client_id: Option<String>,
    #[serde(default)]
    client_nom: Option<String>,
    #[serde(default)]
    client_telephone: Option<String>,
    #[serde(default)]
    client_adresse: Option<String>,
    #[serde(default)]
    client_siret: Option<String>,
    #[serde(default)]
    client_siren: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateBody {
    agency_id: String,
    #[serde(default)]
    type_affaire: Option<String>,
    #[serde(default)]
    type_etat_des_lieux: Option<Vec<String>>,
    solliciteur_email: String,
    releveur_email: String,
    equipments: Vec<EquipmentBody>,
    #[serde(default)]
    external_opportunity_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenAppBody {
    agency_id: String,
    equipment_number: String,
    user_email: String,
}

async fn create_survey(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(body): WfJson<CreateBody>,
) -> WfResult {
    let principal = caller.in_agency(&body.agency_id)?;
    let input = CreateSurveyInput {
        type_affaire: body.type_affaire,
        type_etat_des_lieux: body.type_etat_des_lieux,
        solliciteur_email: body.solliciteur_email,
        releveur_email: body.releveur_email,
        external_opportunity_id: body.external_opportunity_id,
        equipments: body
            .equipments
            .into_iter()
            .map(|e| SurveyEquipmentInput {
                equipment_number: e.equipment_number,
                adresse: e.adresse,
                complement_adresse: e.complement_adresse,
                consignes_acces: e.consignes_acces,
                consignes_acces_autre: e.consignes_acces_autre,
                digicode: e.digicode,
                coffre_a_cles: e.coffre_a_cles,
                client_id: e.client_id,
                client_nom: e.client_nom,
                client_telephone: e.client_telephone,
                client_adresse: e.client_adresse,
                client_siret: e.client_siret,
                client_siren: e.client_siren,
            })
            .collect(),
    };
    let deal_id = service::create_survey_for(&state.store, &principal, input).await?;
    Ok(success(json!({ "id_affaire": deal_id })))
}

async fn open_app(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(body): WfJson<OpenAppBody>,
) -> WfResult {
    let principal = caller.in_agency(&body.agency_id)?;
    service::open_app_for(
        &state.store,
        &principal,
        &body.equipment_number,
        &body.user_email,
    )
    .await?;
    Ok(success(json!({})))
}
