//! `/update_client` and `/get_client`: the agency's clients and their
//! contacts. The rules are in `services::clients`.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

use super::{WfJson, WfResult, success};
use crate::auth::partner_key::PartnerCaller;
use crate::services::clients::{self as service, ClientInput, ContactInput, Edit};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/update_client", post(update_client))
        .route("/get_client", post(get_client))
}

/// A present field (even null) is `Some`, an absent one `None` (with `default`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Edit, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContactBody {
    #[serde(default)]
    nom: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    telephone: Option<String>,
    #[serde(default)]
    fonction: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateBody {
    agency_id: String,
    #[serde(default)]
    client_id: Option<String>,
    #[serde(default)]
    nom: Option<String>,
    #[serde(default)]
    statut: Option<String>,
    #[serde(default, rename = "type")]
    types: Option<Vec<String>>,
    #[serde(default, deserialize_with = "present")]
    email: Edit,
    #[serde(default, deserialize_with = "present")]
    telephone: Edit,
    #[serde(default, deserialize_with = "present")]
    adresse: Edit,
    #[serde(default, deserialize_with = "present")]
    complement_adresse: Edit,
    #[serde(default, deserialize_with = "present")]
    siren: Edit,
    #[serde(default, deserialize_with = "present")]
    siret: Edit,
    #[serde(default)]
    supprime: Option<bool>,
    #[serde(default)]
    contact: Option<Vec<ContactBody>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GetBody {
    agency_id: String,
    #[serde(default)]
    client_id: Option<String>,
    #[serde(default)]
    nom: Option<String>,
}

async fn update_client(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(body): WfJson<UpdateBody>,
) -> WfResult {
    let principal = caller.in_agency(&body.agency_id)?;
    let input = ClientInput {
        client_id: body.client_id,
        nom: body.nom,
        statut: body.statut,
        types: body.types,
        email: body.email,
        telephone: body.telephone,
        adresse: body.adresse,
        complement_adresse: body.complement_adresse,
        // The partner API gives the whole address in `adresse`: it is split.
        code_postal: None,
        ville: None,
        siren: body.siren,
        siret: body.siret,
        supprime: body.supprime,
        contacts: body.contact.map(|contacts| {
            contacts
                .into_iter()
                .map(|c| ContactInput {
                    nom: c.nom,
                    email: c.email,
                    telephone: c.telephone,
                    fonction: c.fonction,
                })
                .collect()
        }),
        // Not fields of the partner API: the client's screen sets them.
        billing_category: None,
        vat_number: None,
        electronic_address: None,
        service_code: None,
    };
    service::update_client_for(&state.store, &principal, input).await?;
    Ok(success(json!({})))
}

async fn get_client(
    State(state): State<AppState>,
    caller: PartnerCaller,
    WfJson(body): WfJson<GetBody>,
) -> WfResult {
    let principal = caller.in_agency(&body.agency_id)?;
    let records =
        service::find_clients_for(&state.store, &principal, body.client_id, body.nom).await?;
    Ok(success(Value::Array(records)))
}
