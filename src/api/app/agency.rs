//! `/app/api/agency/identity…`: the « Agence » screen's identity, the
//! seller printed on the agency's quotes, invoices and credit notes, and
//! its logo, through `services::identity`. Every staff member of the agency
//! reads it; its administrators (organization and agency) change it.

use axum::extract::{FromRequest, Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::json::{ApiJson, json_body_with_limit};
use crate::auth::staff_session::StaffSession;
use crate::documents::LOGO_MAX_BYTES;
use crate::domain::identity::IdentityField;
use crate::domain::identity::IdentityInput;
use crate::error::{ApiError, AppResult};
use crate::services::identity::{self as service, IdentityView};
use crate::state::AppState;

/// Largest body of `PUT /agency/identity/logo`: a logo of 1 Mio in base64,
/// with room for line breaks and the JSON around it.
const LOGO_BODY_MAX_BYTES: usize = LOGO_MAX_BYTES / 3 * 4 + 64 * 1024;

pub fn router() -> Router<AppState> {
    let logo = Router::new()
        .route(
            "/agency/identity/logo",
            get(logo).put(set_logo).delete(remove_logo),
        )
        .layer(axum::extract::DefaultBodyLimit::max(LOGO_BODY_MAX_BYTES));
    Router::new()
        .route("/agency/identity", get(read).put(update))
        .merge(logo)
}

/// L'identité de l'agence telle que ses documents l'impriment : le corps de
/// `PUT /agency/identity` et le champ `identity` de la réponse. At run time
/// both are the domain's `IdentityInput`; this type only declares it to the
/// web application (a unit test holds the two to the same fields).
#[derive(Serialize, TS, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IdentityWire {
    legal_name: Option<String>,
    legal_form: Option<String>,
    /// En euros.
    share_capital: Option<f64>,
    rcs_city: Option<String>,
    siret: Option<String>,
    vat_number: Option<String>,
    head_office_address: Option<String>,
    address: Option<String>,
    phone: Option<String>,
    email: Option<String>,
    iban: Option<String>,
    bic: Option<String>,
    insurer: Option<String>,
    insurance_policy: Option<String>,
    insurance_area: Option<String>,
    vat_on_debits: bool,
}

/// Un champ de l'identité : son nom dans `identity` et son libellé.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IdentityFieldWire {
    field: String,
    label: String,
}

impl From<IdentityField> for IdentityFieldWire {
    fn from(field: IdentityField) -> Self {
        Self {
            field: field.as_str().to_owned(),
            label: field.label().to_owned(),
        }
    }
}

#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LogoWire {
    media_type: String,
    width: u32,
    height: u32,
}

#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IdentityAnswer {
    agency_id: String,
    agency_name: String,
    organization_name: String,
    #[ts(as = "IdentityWire")]
    identity: IdentityInput,
    /// Les 9 premiers chiffres du SIRET.
    siren: Option<String>,
    /// Date et heure (UTC) de la dernière modification.
    updated_at: Option<String>,
    logo: Option<LogoWire>,
    /// Ce sans quoi une facture ou un avoir ne peut pas être émis.
    missing_to_issue: Vec<IdentityFieldWire>,
    /// Les autres mentions des factures non renseignées.
    missing_mentions: Vec<IdentityFieldWire>,
    /// La session peut modifier l'identité.
    can_edit: bool,
}

impl From<IdentityView> for IdentityAnswer {
    fn from(v: IdentityView) -> Self {
        Self {
            agency_id: v.agency_id.as_str().to_owned(),
            agency_name: v.agency_name,
            organization_name: v.organization_name,
            siren: v.identity.siren().map(str::to_owned),
            identity: IdentityInput::of(&v.identity),
            updated_at: v.updated_at,
            logo: v.logo.map(|l| LogoWire {
                media_type: l.media_type,
                width: l.width,
                height: l.height,
            }),
            missing_to_issue: v.missing_to_issue.into_iter().map(Into::into).collect(),
            missing_mentions: v.missing_mentions.into_iter().map(Into::into).collect(),
            can_edit: v.can_edit,
        }
    }
}

async fn read(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    let view = service::get(&state.store, &session.principal()).await?;
    Ok(Json(view.into()))
}

async fn update(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<IdentityInput>,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    let view = service::update(&state.store, &session.principal(), body).await?;
    Ok(Json(view.into()))
}

/// Le logo envoyé : l'image PNG ou JPEG encodée en base64.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LogoBody {
    content: String,
}

/// The logo body, read with the route's own limit and 413 reason.
struct LogoJson(LogoBody);

impl FromRequest<AppState> for LogoJson {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        json_body_with_limit(req, state, || ApiError::from(service::logo_too_large()))
            .await
            .map(LogoJson)
    }
}

async fn set_logo(
    State(state): State<AppState>,
    session: StaffSession,
    LogoJson(body): LogoJson,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    let view = service::set_logo_base64(&state.store, &session.principal(), &body.content).await?;
    Ok(Json(view.into()))
}

async fn remove_logo(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<IdentityAnswer>> {
    session.require_agency()?;
    let view = service::remove_logo(&state.store, &session.principal()).await?;
    Ok(Json(view.into()))
}

async fn logo(State(state): State<AppState>, session: StaffSession) -> AppResult<Response> {
    session.require_agency()?;
    let (media_type, bytes) = service::logo(&state.store, &session.principal()).await?;
    Ok((
        [
            (header::CONTENT_TYPE, media_type),
            (header::CACHE_CONTROL, "private, no-cache".to_owned()),
        ],
        bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The type declared to the web application has the domain's fields.
    #[test]
    fn the_declared_identity_is_the_domains() {
        let declared = serde_json::to_value(IdentityWire::default()).expect("json");
        let domain = serde_json::to_value(IdentityInput::default()).expect("json");
        let keys = |v: &serde_json::Value| {
            v.as_object()
                .map(|o| o.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        };
        assert_eq!(keys(&declared), keys(&domain));
    }
}
