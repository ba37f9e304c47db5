//! The agency's identity as a seller (`agency_identities`) and its logos
//! (`agency_logos`). A change is a new version, made current on the agency
//! (`agencies.identity_id`); an issued invoice names the version it was
//! issued under (`invoices.seller_identity_id`).

use crate::sql::{OptionalExtension, Row, params};
use crate::{Conn, StoreResult, Tx, new_id};
use liftdesk_domain::id::AgencyId;
use liftdesk_domain::identity::SellerIdentity;
use liftdesk_domain::money::Cents;

/// One version of an agency's identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityRow {
    pub id: String,
    pub identity: SellerIdentity,
    /// The logo printed with it, if any.
    pub logo_id: Option<String>,
    /// When this version was recorded (`YYYY-MM-DDTHH:MM:SSZ`).
    pub created_at: String,
}

const COLUMNS: &str = "i.id, i.legal_name, i.legal_form, i.share_capital_cents, i.rcs_city,
     i.siret, i.vat_number, i.head_office_address, i.address, i.phone, i.email, i.iban, i.bic,
     i.insurer, i.insurance_policy, i.insurance_area, i.vat_on_debits, i.logo_id, i.created_at,
     i.head_office_complement, i.head_office_postal_code, i.head_office_city,
     i.address_complement, i.postal_code, i.city, i.invoice_series, i.electronic_address";

fn identity_row(row: &Row<'_>) -> StoreResult<IdentityRow> {
    Ok(IdentityRow {
        id: row.get(0)?,
        identity: SellerIdentity {
            legal_name: row.get(1)?,
            legal_form: row.get(2)?,
            share_capital: row.get::<Option<i64>>(3)?.map(Cents::new),
            rcs_city: row.get(4)?,
            siret: row.get(5)?,
            vat_number: row.get(6)?,
            head_office_address: row.get(7)?,
            head_office_complement: row.get(19)?,
            head_office_postal_code: row.get(20)?,
            head_office_city: row.get(21)?,
            address: row.get(8)?,
            address_complement: row.get(22)?,
            postal_code: row.get(23)?,
            city: row.get(24)?,
            phone: row.get(9)?,
            email: row.get(10)?,
            iban: row.get(11)?,
            bic: row.get(12)?,
            insurer: row.get(13)?,
            insurance_policy: row.get(14)?,
            insurance_area: row.get(15)?,
            vat_on_debits: row.get(16)?,
            invoice_series: row.get(25)?,
            electronic_address: row.get(26)?,
        },
        logo_id: row.get(17)?,
        created_at: row.get(18)?,
    })
}

/// The agency's current identity; `None` while none was ever recorded.
pub fn current(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Option<IdentityRow>> {
    conn.query_row_cached(
        &format!(
            "SELECT {COLUMNS} FROM agencies a JOIN agency_identities i ON i.id = a.identity_id
             WHERE a.id = ?1"
        ),
        [agency_id.as_str()],
        identity_row,
    )
    .optional()
}

/// The version `id` of the agency's identity (another agency's: `None`).
pub fn version(conn: &Conn, agency_id: &AgencyId, id: &str) -> StoreResult<Option<IdentityRow>> {
    conn.query_row_cached(
        &format!("SELECT {COLUMNS} FROM agency_identities i WHERE i.id = ?1 AND i.agency_id = ?2"),
        params![id, agency_id.as_str()],
        identity_row,
    )
    .optional()
}

/// Records a new version of the agency's identity, with the logo
/// `logo_id`, and makes it current. Returns its id.
pub fn record(
    tx: &Tx,
    agency_id: &AgencyId,
    identity: &SellerIdentity,
    logo_id: Option<&str>,
) -> StoreResult<String> {
    let id = new_id();
    let i = identity;
    tx.execute_cached(
        "INSERT INTO agency_identities (id, agency_id, legal_name, legal_form, share_capital_cents,
             rcs_city, siret, vat_number, head_office_address, address, phone, email, iban, bic,
             insurer, insurance_policy, insurance_area, vat_on_debits, logo_id, created_at,
             head_office_complement, head_office_postal_code, head_office_city,
             address_complement, postal_code, city, invoice_series, electronic_address)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
             ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)",
        params![
            id,
            agency_id.as_str(),
            i.legal_name,
            i.legal_form,
            i.share_capital.map(Cents::get),
            i.rcs_city,
            i.siret,
            i.vat_number,
            i.head_office_address,
            i.address,
            i.phone,
            i.email,
            i.iban,
            i.bic,
            i.insurer,
            i.insurance_policy,
            i.insurance_area,
            i.vat_on_debits,
            logo_id,
            tx.now_text(),
            i.head_office_complement,
            i.head_office_postal_code,
            i.head_office_city,
            i.address_complement,
            i.postal_code,
            i.city,
            i.invoice_series,
            i.electronic_address,
        ],
    )?;
    tx.execute_cached(
        "UPDATE agencies SET identity_id = ?1 WHERE id = ?2",
        params![id, agency_id.as_str()],
    )?;
    Ok(id)
}

/// A logo as stored: its media type (`image/png`, `image/jpeg`), its
/// bytes and its size in pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogoRow {
    pub id: String,
    pub media_type: String,
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Stores a logo of the agency; returns its id.
pub fn insert_logo(
    tx: &Tx,
    agency_id: &AgencyId,
    media_type: &str,
    bytes: &[u8],
    (width, height): (u32, u32),
) -> StoreResult<String> {
    let id = new_id();
    tx.execute_cached(
        "INSERT INTO agency_logos (id, agency_id, media_type, bytes, width, height, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            id,
            agency_id.as_str(),
            media_type,
            bytes,
            width,
            height,
            tx.now_text()
        ],
    )?;
    Ok(id)
}

/// The logo `id` of the agency (another agency's: `None`).
pub fn logo(conn: &Conn, agency_id: &AgencyId, id: &str) -> StoreResult<Option<LogoRow>> {
    conn.query_row_cached(
        "SELECT id, media_type, bytes, width, height FROM agency_logos
         WHERE id = ?1 AND agency_id = ?2",
        params![id, agency_id.as_str()],
        |r| {
            Ok(LogoRow {
                id: r.get(0)?,
                media_type: r.get(1)?,
                bytes: r.get(2)?,
                width: r.get(3)?,
                height: r.get(4)?,
            })
        },
    )
    .optional()
}

/// The other agency of the organization of `agency_id` whose current
/// identity numbers its documents in `series`, by its name.
pub fn series_taken_by(
    conn: &Conn,
    agency_id: &AgencyId,
    series: &str,
) -> StoreResult<Option<String>> {
    conn.query_row_cached(
        "SELECT a.name FROM agencies a JOIN agency_identities i ON i.id = a.identity_id
         WHERE i.invoice_series = ?2 AND a.id <> ?1
           AND a.organization_id = (SELECT organization_id FROM agencies WHERE id = ?1)
         ORDER BY a.name LIMIT 1",
        params![agency_id.as_str(), series],
        |r| r.get(0),
    )
    .optional()
}

/// How many agencies the organization of `agency_id` has (archived ones
/// too: their numbers stand).
pub fn agencies_in_organization(conn: &Conn, agency_id: &AgencyId) -> StoreResult<i64> {
    conn.query_row_cached(
        "SELECT COUNT(*) FROM agencies
         WHERE organization_id = (SELECT organization_id FROM agencies WHERE id = ?1)",
        [agency_id.as_str()],
        |r| r.get(0),
    )
}

/// Whether the agency has numbered a document in `series` (its numbers
/// read `FA-<series>-…` or `AV-<series>-…`, `invoices.number_series`).
pub fn series_used(conn: &Conn, agency_id: &AgencyId, series: &str) -> StoreResult<bool> {
    conn.query_row_cached(
        "SELECT EXISTS (SELECT 1 FROM invoices WHERE agency_id = ?1 AND number_series = ?2)",
        params![agency_id.as_str(), series],
        |r| r.get(0),
    )
}
