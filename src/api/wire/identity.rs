//! The agency's identity on the wire (the seller printed on its quotes,
//! invoices and credit notes): the answer and body shared by the web
//! application (`/app/api/agency/identity`), the REST API v2
//! (`/api/v2/agency/identity`) and the MCP tool `identite_agence`, and the
//! operations they call (`services::identity`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::domain::identity::{IdentityField, IdentityInput};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::identity::{self as service, IdentityView};
use crate::state::AppState;

/// L'identité de l'agence telle que ses documents l'impriment : le corps de
/// `PUT /agency/identity` et le champ `identity` de la réponse. At run time
/// both are the domain's `IdentityInput`; this type only declares it to the
/// web application and the OpenAPI description (a unit test holds the two to the same fields).
#[derive(Serialize, Deserialize, TS, ToSchema, Debug, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IdentityWire {
    pub legal_name: Option<String>,
    pub legal_form: Option<String>,
    /// En euros.
    pub share_capital: Option<f64>,
    pub rcs_city: Option<String>,
    pub siret: Option<String>,
    pub vat_number: Option<String>,
    /// Siège social (s'il n'est pas à l'adresse de l'agence) : rue,
    /// complément, code postal (5 chiffres) et ville.
    pub head_office_address: Option<String>,
    pub head_office_complement: Option<String>,
    pub head_office_postal_code: Option<String>,
    pub head_office_city: Option<String>,
    /// Adresse de l'agence (l'établissement du SIRET) : rue, complément,
    /// code postal (5 chiffres) et ville. Une adresse donnée sur une ligne
    /// (« 12 rue de la Part-Dieu, 69003 Lyon ») sans code postal ni ville est
    /// découpée.
    pub address: Option<String>,
    pub address_complement: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub iban: Option<String>,
    pub bic: Option<String>,
    pub insurer: Option<String>,
    pub insurance_policy: Option<String>,
    pub insurance_area: Option<String>,
    #[serde(default)]
    pub vat_on_debits: bool,
    /// Série de numérotation des factures et avoirs de l'agence (1 à 6
    /// lettres ou chiffres, « PO » : `FA-PO-2026-000001`), propre à l'agence
    /// dans l'organisation, exigée pour émettre quand l'organisation a
    /// plusieurs agences ; figée dès qu'une pièce y est numérotée.
    pub invoice_series: Option<String>,
    /// Adresse de facturation électronique de l'agence dans l'annuaire
    /// (`732829320`, `732829320_LYON` : commence par son SIREN ; lettres,
    /// chiffres, `-`, `_`, `.`, 125 caractères au plus). Sans elle, ses
    /// factures électroniques portent son SIREN.
    #[serde(default)]
    pub electronic_address: Option<String>,
}

/// Un champ de l'identité : son nom dans `identity` et son libellé.
#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct IdentityFieldWire {
    pub field: String,
    pub label: String,
}

impl From<IdentityField> for IdentityFieldWire {
    fn from(field: IdentityField) -> Self {
        Self {
            field: field.as_str().to_owned(),
            label: field.label().to_owned(),
        }
    }
}

#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct LogoWire {
    pub media_type: String,
    pub width: u32,
    pub height: u32,
}

#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct IdentityAnswer {
    pub agency_id: String,
    pub agency_name: String,
    pub organization_name: String,
    #[ts(as = "IdentityWire")]
    #[schema(value_type = IdentityWire)]
    pub identity: IdentityInput,
    /// Les 9 premiers chiffres du SIRET.
    pub siren: Option<String>,
    /// Date et heure (UTC) de la dernière modification.
    pub updated_at: Option<String>,
    pub logo: Option<LogoWire>,
    /// Ce sans quoi une facture ou un avoir ne peut pas être émis.
    pub missing_to_issue: Vec<IdentityFieldWire>,
    /// Les autres mentions des factures non renseignées.
    pub missing_mentions: Vec<IdentityFieldWire>,
    /// La session peut modifier l'identité.
    pub can_edit: bool,
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

/// The acting agency's identity.
pub async fn identity_read(state: &AppState, p: &Principal) -> AppResult<IdentityAnswer> {
    Ok(service::get(&state.store, p).await?.into())
}

/// Replaces the acting agency's identity (its administrators).
pub async fn identity_update(
    state: &AppState,
    p: &Principal,
    body: IdentityInput,
) -> AppResult<IdentityAnswer> {
    Ok(service::update(&state.store, p, body).await?.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The type declared to the web application and in the OpenAPI
    /// description has the domain's fields.
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
