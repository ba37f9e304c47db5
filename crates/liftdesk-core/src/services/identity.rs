//! The agency's identity as a seller: read it (anyone of the agency), change
//! it and its logo (administrators of the agency: organization and agency
//! administrators), what is printed on its documents, and the check the
//! issue of an invoice or a credit note makes before taking a number
//! ([`seller_for_issue`]). The rules of each field are the domain's
//! (`domain::identity`); each change is a new version with its audit entry,
//! so an issued document keeps the seller it was issued by.

use serde_json::{Map, Value, json};

use crate::documents::{self, LOGO_MAX_BYTES, Logo, LogoFormat, Seller};
use crate::domain::id::AgencyId;
use crate::domain::identity::{self, IdentityField, IdentityInput, SellerIdentity};
use crate::domain::invoice::InvoiceNature;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::imports::file::decode_base64_within;
use crate::store::agencies::{self, SellerNames};
use crate::store::audit::Actor;
use crate::store::identities::{self, IdentityRow};
use crate::store::{Conn, Store, Tx, audit};

/// What the administrators may do, as the refusal names it.
const EDIT: Capability<'static> = Capability::Administer("Modifier l'identité de l'agence");

/// The identity checked and normalized by the domain's rules; 422 naming
/// the first field refused.
pub fn checked(input: &IdentityInput) -> AppResult<SellerIdentity> {
    identity::check(input).map_err(AppError::unprocessable)
}

/// The logo's description (its bytes are served by [`logo`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogoInfo {
    pub media_type: String,
    pub width: u32,
    pub height: u32,
}

/// The agency's identity as the screen shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct IdentityView {
    pub agency_id: AgencyId,
    pub agency_name: String,
    pub organization_name: String,
    pub identity: SellerIdentity,
    /// When the current version was recorded; `None` before the first.
    pub updated_at: Option<String>,
    pub logo: Option<LogoInfo>,
    /// What an invoice cannot be issued without (SIRET, address).
    pub missing_to_issue: Vec<IdentityField>,
    /// The other mentions not filled in (legal form, capital, RCS…).
    pub missing_mentions: Vec<IdentityField>,
    /// The caller may change it.
    pub can_edit: bool,
}

fn agency_not_found() -> AppError {
    AppError::not_found("Agence introuvable.")
}

/// The identity of the agency `agency_id` as `p` sees it, in `conn`.
pub fn view_in(conn: &Conn, p: &Principal, agency_id: &AgencyId) -> AppResult<IdentityView> {
    let names = agencies::seller_names(conn, agency_id)?.ok_or_else(agency_not_found)?;
    let current = identities::current(conn, agency_id)?;
    let logo = match current.as_ref().and_then(|c| c.logo_id.as_deref()) {
        Some(logo_id) => identities::logo(conn, agency_id, logo_id)?.map(|l| LogoInfo {
            media_type: l.media_type,
            width: l.width,
            height: l.height,
        }),
        None => None,
    };
    let (identity, updated_at) = match current {
        Some(row) => (row.identity, Some(row.created_at)),
        None => (SellerIdentity::default(), None),
    };
    Ok(IdentityView {
        agency_id: agency_id.clone(),
        agency_name: names.agency_name,
        organization_name: names.organization_name,
        missing_to_issue: missing_to_issue_in(conn, agency_id, &identity)?,
        missing_mentions: identity.missing_mentions(),
        identity,
        updated_at,
        logo,
        can_edit: p.can(EDIT),
    })
}

/// The identity of the principal's agency.
pub async fn get(store: &Store, p: &Principal) -> AppResult<IdentityView> {
    let agency_id = p.agency_id()?.to_owned();
    let p = p.clone();
    store.read(move |conn| view_in(conn, &p, &agency_id)).await
}

/// Replaces the identity of the principal's agency with `form` (a blank
/// field erases it), keeping its logo: a new version and one audit entry
/// `identite` naming the fields changed, before and after. Unchanged: no
/// version, no entry.
pub async fn update(store: &Store, p: &Principal, form: IdentityInput) -> AppResult<IdentityView> {
    p.agency_id()?;
    p.require(EDIT)?;
    let identity = checked(&form)?;
    let p = p.clone();
    store
        .write(move |tx| {
            let agency_id = p.agency_id()?.to_owned();
            record_in(tx, &agency_id, &identity, &p.actor)?;
            view_in(tx, &p, &agency_id)
        })
        .await
}

/// [`update`]'s step for a checked identity, in `tx`, with no rights
/// checked (the operations' and the demo's): records it as the agency's
/// new version unless it is the current one.
pub fn record_in(
    tx: &Tx,
    agency_id: &AgencyId,
    identity: &SellerIdentity,
    actor: &Actor,
) -> AppResult<()> {
    agencies::seller_names(tx, agency_id)?.ok_or_else(agency_not_found)?;
    let current = identities::current(tx, agency_id)?;
    let before = current
        .as_ref()
        .map(|c| c.identity.clone())
        .unwrap_or_default();
    // Nothing new: the current version again, or an empty identity where
    // none was ever recorded.
    if before == *identity {
        return Ok(());
    }
    check_series(tx, agency_id, before.invoice_series.as_deref(), identity)?;
    let logo_id = current.as_ref().and_then(|c| c.logo_id.clone());
    let version = identities::record(tx, agency_id, identity, logo_id.as_deref())?;
    audit::record(
        tx,
        audit::AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "identite",
            object_type: "agency",
            object_id: Some(agency_id.as_str()),
            detail: Some(json!({ "version": version, "changed": changes(&before, identity) })),
        },
    )?;
    Ok(())
}

/// The series of invoice numbers may change only while no document is
/// numbered in the current one (numbers are chronological in their
/// series), and belongs to one agency of the organization.
fn check_series(
    tx: &Tx,
    agency_id: &AgencyId,
    before: Option<&str>,
    identity: &SellerIdentity,
) -> AppResult<()> {
    let after = identity.invoice_series.as_deref();
    if after == before {
        return Ok(());
    }
    if let Some(used) = before
        && identities::series_used(tx, agency_id, used)?
    {
        return Err(AppError::unprocessable(format!(
            "Champ « invoiceSeries » : des factures ou avoirs sont déjà numérotés dans la série « {used} » : elle ne change plus (les numéros se suivent dans leur série)."
        )));
    }
    if let Some(series) = after
        && let Some(other) = identities::series_taken_by(tx, agency_id, series)?
    {
        return Err(AppError::unprocessable(format!(
            "Champ « invoiceSeries » : la série « {series} » est déjà celle de l'agence « {other} » : chaque agence de l'organisation numérote ses pièces dans sa propre série."
        )));
    }
    Ok(())
}

/// The fields that differ, `{field: {"before": …, "after": …}}`.
fn changes(before: &SellerIdentity, after: &SellerIdentity) -> Value {
    let (before, after) = (fields(before), fields(after));
    let changed: Map<String, Value> = after
        .iter()
        .filter(|(name, value)| before.get(*name) != Some(*value))
        .map(|(name, value)| {
            (
                name.clone(),
                json!({ "before": before.get(name).cloned().unwrap_or(Value::Null), "after": value }),
            )
        })
        .collect();
    Value::Object(changed)
}

/// An identity as `{wire name: value}`, for the audit log.
fn fields(i: &SellerIdentity) -> Map<String, Value> {
    use IdentityField as F;
    let mut map = Map::new();
    let mut put = |field: IdentityField, value: Value| {
        map.insert(field.as_str().to_owned(), value);
    };
    put(F::LegalName, json!(i.legal_name));
    put(F::LegalForm, json!(i.legal_form));
    put(F::ShareCapital, json!(i.share_capital.map(|c| c.euros())));
    put(F::RcsCity, json!(i.rcs_city));
    put(F::Siret, json!(i.siret));
    put(F::VatNumber, json!(i.vat_number));
    put(F::HeadOfficeAddress, json!(i.head_office_address));
    put(F::HeadOfficeComplement, json!(i.head_office_complement));
    put(F::HeadOfficePostalCode, json!(i.head_office_postal_code));
    put(F::HeadOfficeCity, json!(i.head_office_city));
    put(F::Address, json!(i.address));
    put(F::AddressComplement, json!(i.address_complement));
    put(F::PostalCode, json!(i.postal_code));
    put(F::City, json!(i.city));
    put(F::Phone, json!(i.phone));
    put(F::Email, json!(i.email));
    put(F::Iban, json!(i.iban));
    put(F::Bic, json!(i.bic));
    put(F::Insurer, json!(i.insurer));
    put(F::InsurancePolicy, json!(i.insurance_policy));
    put(F::InsuranceArea, json!(i.insurance_area));
    put(F::InvoiceSeries, json!(i.invoice_series));
    put(F::ElectronicAddress, json!(i.electronic_address));
    map.insert("vatOnDebits".to_owned(), json!(i.vat_on_debits));
    map
}

/// Sets the logo of the principal's agency (administrators): PNG or JPEG,
/// checked by [`documents::check_logo`]; a new version of the identity.
pub async fn set_logo(store: &Store, p: &Principal, bytes: Vec<u8>) -> AppResult<IdentityView> {
    p.agency_id()?;
    p.require(EDIT)?;
    let checked = tokio::task::spawn_blocking({
        let bytes = bytes.clone();
        move || documents::check_logo(&bytes)
    })
    .await
    .map_err(|e| anyhow::anyhow!("vérification du logo interrompue : {e}"))?;
    let (format, size) = checked.map_err(AppError::unprocessable)?;
    let p = p.clone();
    store
        .write(move |tx| {
            let agency_id = p.agency_id()?.to_owned();
            let logo_id =
                identities::insert_logo(tx, &agency_id, format.media_type(), &bytes, size)?;
            change_logo_in(tx, &p, &agency_id, Some(&logo_id))?;
            view_in(tx, &p, &agency_id)
        })
        .await
}

/// [`set_logo`] for the base64 `content` of an upload body: 413 past
/// 1 Mio, 422 when not base64 or empty.
pub async fn set_logo_base64(
    store: &Store,
    p: &Principal,
    content: &str,
) -> AppResult<IdentityView> {
    p.agency_id()?;
    p.require(EDIT)?;
    let bytes = decode_base64_within(content, LOGO_MAX_BYTES, logo_too_large)?;
    if bytes.is_empty() {
        return Err(AppError::unprocessable(
            "Le logo est vide : choisissez une image PNG ou JPEG.",
        ));
    }
    set_logo(store, p, bytes).await
}

/// 413 for a logo over 1 Mio.
pub fn logo_too_large() -> AppError {
    AppError::PayloadTooLarge(format!(
        "Le logo dépasse la taille maximale acceptée ({} Kio) : enregistrez-le plus petit (PNG ou JPEG).",
        LOGO_MAX_BYTES / 1024
    ))
}

/// Removes the logo of the principal's agency (administrators).
pub async fn remove_logo(store: &Store, p: &Principal) -> AppResult<IdentityView> {
    p.agency_id()?;
    p.require(EDIT)?;
    let p = p.clone();
    store
        .write(move |tx| {
            let agency_id = p.agency_id()?.to_owned();
            change_logo_in(tx, &p, &agency_id, None)?;
            view_in(tx, &p, &agency_id)
        })
        .await
}

fn change_logo_in(
    tx: &Tx,
    p: &Principal,
    agency_id: &AgencyId,
    logo_id: Option<&str>,
) -> AppResult<()> {
    let current = identities::current(tx, agency_id)?;
    if current.as_ref().and_then(|c| c.logo_id.as_deref()) == logo_id {
        return Ok(());
    }
    let identity = current.map(|c| c.identity).unwrap_or_default();
    let version = identities::record(tx, agency_id, &identity, logo_id)?;
    let logo = match logo_id {
        Some(id) => identities::logo(tx, agency_id, id)?
            .map(|l| json!({ "mediaType": l.media_type, "width": l.width, "height": l.height })),
        None => None,
    };
    p.record(
        tx,
        "agency",
        agency_id.as_str(),
        "logo",
        json!({ "version": version, "logo": logo }),
    )
}

/// The logo of the principal's agency: its media type and bytes; 404
/// when it has none.
pub async fn logo(store: &Store, p: &Principal) -> AppResult<(String, Vec<u8>)> {
    let agency_id = p.agency_id()?.to_owned();
    store
        .read(move |conn| {
            let logo = identities::current(conn, &agency_id)?
                .and_then(|c| c.logo_id)
                .map(|id| identities::logo(conn, &agency_id, &id))
                .transpose()?
                .flatten()
                .ok_or_else(|| AppError::not_found("Cette agence n'a pas de logo."))?;
            Ok((logo.media_type, logo.bytes))
        })
        .await
}

/// What the agency cannot issue any document without, whatever it charges:
/// the identity's own requirements (SIRET, address), and its series of
/// numbers when the organization has other agencies (a number is unique for
/// the seller). The screens show it; the issue adds the VAT number when the
/// document charges VAT.
pub fn missing_to_issue_in(
    conn: &Conn,
    agency_id: &AgencyId,
    identity: &SellerIdentity,
) -> AppResult<Vec<IdentityField>> {
    let mut missing = identity.missing_to_issue();
    if identity.invoice_series.is_none()
        && identities::agencies_in_organization(conn, agency_id)? > 1
    {
        missing.push(IdentityField::InvoiceSeries);
    }
    Ok(missing)
}

/// The seller a document is issued by: the version of its identity, and
/// the series its number is given in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuingSeller {
    pub identity_id: String,
    pub invoice_series: Option<String>,
    /// The SIREN of its SIRET.
    pub siren: Option<String>,
}

/// The version of the identity an invoice or a credit note of `nature` is
/// issued under: the agency's current one, which must carry the SIRET and
/// the address, and its VAT number (every electronic invoice names it,
/// `SellerIdentity::missing_to_issue`), and its series of numbers when the organization has
/// other agencies (a number is unique for the seller); else 422 naming what
/// to fill and where, before any number is taken.
pub fn seller_for_issue(
    conn: &Conn,
    agency_id: &AgencyId,
    nature: InvoiceNature,
) -> AppResult<IssuingSeller> {
    let current = identities::current(conn, agency_id)?;
    let missing = missing_to_issue_in(
        conn,
        agency_id,
        &current
            .as_ref()
            .map(|c| c.identity.clone())
            .unwrap_or_default(),
    )?;
    match current {
        Some(row) if missing.is_empty() => Ok(IssuingSeller {
            siren: row.identity.siren().map(str::to_owned),
            identity_id: row.id,
            invoice_series: row.identity.invoice_series,
        }),
        _ => {
            // The address wholly missing is « l'adresse »; else its parts.
            let address = [
                IdentityField::Address,
                IdentityField::PostalCode,
                IdentityField::City,
            ];
            let whole_address = address.iter().all(|f| missing.contains(f));
            let mut what: Vec<&str> = Vec::new();
            for field in &missing {
                let words = match field {
                    IdentityField::Siret => "le SIRET",
                    f if whole_address && address.contains(f) => {
                        if *f != IdentityField::Address {
                            continue;
                        }
                        "l'adresse"
                    }
                    IdentityField::Address => "la rue de l'adresse",
                    IdentityField::PostalCode => "le code postal",
                    IdentityField::City => "la ville",
                    IdentityField::VatNumber => "le numéro de TVA intracommunautaire",
                    IdentityField::InvoiceSeries => {
                        "la série de numérotation des factures (l'organisation a plusieurs agences : chacune numérote dans la sienne)"
                    }
                    other => other.label(),
                };
                what.push(words);
            }
            let document = nature.cannot_be_issued();
            Err(AppError::unprocessable(format!(
                "{document} : renseignez d'abord {} de l'agence, sur l'écran « Agence », rubrique « Identité » (réservé aux administrateurs). Aucun numéro n'a été attribué.",
                french_list(&what)
            )))
        }
    }
}

/// « a », « a et b », « a, b et c ».
fn french_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} et {last}", rest.join(", ")),
    }
}

/// The seller printed on a document of the agency: the version
/// `identity_id` (an issued document's), else the current one.
pub async fn seller(
    store: &Store,
    agency_id: &AgencyId,
    identity_id: Option<String>,
) -> AppResult<Seller> {
    let agency_id = agency_id.clone();
    store
        .read(move |conn| seller_in(conn, &agency_id, identity_id))
        .await
}

/// [`seller`] on a connection (a read, or the transaction that sends a
/// document).
pub fn seller_in(
    conn: &Conn,
    agency_id: &AgencyId,
    identity_id: Option<String>,
) -> AppResult<Seller> {
    let SellerNames {
        organization_name,
        agency_name,
    } = agencies::seller_names(conn, agency_id)?.ok_or_else(agency_not_found)?;
    let row: Option<IdentityRow> = match identity_id {
        Some(id) => identities::version(conn, agency_id, &id)?,
        None => identities::current(conn, agency_id)?,
    };
    let (identity, logo_id) = match row {
        Some(row) => (row.identity, row.logo_id),
        None => (SellerIdentity::default(), None),
    };
    let logo = match logo_id {
        Some(id) => identities::logo(conn, agency_id, &id)?.and_then(|l| {
            LogoFormat::from_media_type(&l.media_type).map(|format| Logo {
                format,
                bytes: l.bytes,
            })
        }),
        None => None,
    };
    let name = identity
        .legal_name
        .clone()
        .unwrap_or_else(|| organization_name.clone());
    let subtitle = (agency_name.trim() != name.trim()
        && agency_name.trim() != organization_name.trim())
    .then(|| format!("Agence : {agency_name}"));
    Ok(Seller {
        name,
        subtitle,
        identity,
        logo,
    })
}
