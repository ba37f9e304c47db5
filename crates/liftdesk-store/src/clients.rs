//! Clients (the partner workflow API's client records); their contacts
//! are in `store::contacts`.

use crate::Code;
use crate::Conn;
use crate::Tx;
use crate::sql::Value;
use crate::sql::{OptionalExtension, params, params_from_iter};
use liftdesk_domain::client::{BillingCategory, ClientStatus};
use liftdesk_domain::id::{AgencyId, ClientId};

use super::StoreResult;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRow {
    pub id: ClientId,
    /// The partner's identifier (`client_id` on the wire).
    pub client_ref: String,
    pub nom: String,
    pub statut: ClientStatus,
    /// JSON array text of the categories.
    pub types: String,
    pub email: Option<String>,
    pub telephone: Option<String>,
    /// The street line.
    pub adresse: Option<String>,
    pub complement_adresse: Option<String>,
    /// Five digits (migration V19).
    pub code_postal: Option<String>,
    pub ville: Option<String>,
    pub siren: Option<String>,
    pub siret: Option<String>,
    pub supprime: bool,
    /// How it is invoiced (chosen on its screen; none from the partner API).
    pub billing_category: Option<BillingCategory>,
    /// Intra-community VAT number (`FR44732829320`).
    pub vat_number: Option<String>,
    /// Electronic invoicing address (the French directory's); the SIREN's
    /// default when none.
    pub electronic_address: Option<String>,
    /// Chorus Pro service code of a public body.
    pub service_code: Option<String>,
}

const COLUMNS: &str = "id, client_ref, nom, statut, types, email, telephone, adresse, \
     complement_adresse, siren, siret, supprime, billing_category, code_postal, ville, numero_tva, \
     adresse_facturation_electronique, code_service";

fn client_from_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<ClientRow> {
    Ok(ClientRow {
        id: r.get(0)?,
        client_ref: r.get(1)?,
        nom: r.get(2)?,
        statut: crate::code(r, 3)?,
        types: r.get(4)?,
        email: r.get(5)?,
        telephone: r.get(6)?,
        adresse: r.get(7)?,
        complement_adresse: r.get(8)?,
        siren: r.get(9)?,
        siret: r.get(10)?,
        supprime: r.get::<i64>(11)? != 0,
        billing_category: r.get::<Option<Code<BillingCategory>>>(12)?.map(|c| c.0),
        code_postal: r.get(13)?,
        ville: r.get(14)?,
        vat_number: r.get(15)?,
        electronic_address: r.get(16)?,
        service_code: r.get(17)?,
    })
}

/// The client of the agency with that partner identifier.
pub fn find_by_ref(
    conn: &Conn,
    agency_id: &AgencyId,
    client_ref: &str,
) -> StoreResult<Option<ClientRow>> {
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        &format!("SELECT {COLUMNS} FROM clients WHERE agency_id = ?1 AND client_ref = ?2"),
        [agency_id, client_ref],
        client_from_row,
    )
    .optional()
}

/// The client `id` of the agency.
pub fn find(conn: &Conn, agency_id: &AgencyId, id: &ClientId) -> StoreResult<Option<ClientRow>> {
    conn.query_row_cached(
        &format!("SELECT {COLUMNS} FROM clients WHERE id = ?1 AND agency_id = ?2"),
        params![id, agency_id],
        client_from_row,
    )
    .optional()
}

/// Every client of the agency (archived ones too), oldest first.
pub fn all(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<ClientRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM clients WHERE agency_id = ?1 ORDER BY created_at, id"
    ))?;
    let rows = stmt
        .query_map([agency_id], client_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The agency's clients among `ids` (each once, in no order): what a run
/// of invoices reads of its clients, and no more.
pub fn of_ids(conn: &Conn, agency_id: &AgencyId, ids: &[&ClientId]) -> StoreResult<Vec<ClientRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = serde_json::to_string(&ids.iter().map(|id| id.as_str()).collect::<Vec<_>>())?;
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM clients
          WHERE agency_id = ?1 AND id IN (SELECT value FROM json_each(?2))"
    ))?;
    let rows = stmt
        .query_map(params![agency_id.as_str(), list], client_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// One page of the agency's clients whose name, e-mail, partner identifier,
/// SIREN, SIRET or address (street, postal code, city) contains every word of `words` (accents and case ignored:
/// the words are folded by `text::fold`, the columns by the SQL function
/// `FOLD`, the same folding), in French order of name, then id; and how many
/// match in all. `archived`: `None` keeps every client, `Some(flag)` only
/// the archived (`true`) or the active (`false`) ones.
pub fn search(
    conn: &Conn,
    agency_id: &AgencyId,
    words: &[String],
    archived: Option<bool>,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<ClientRow>)> {
    let agency_id = agency_id.as_str();
    const WORD: &str = "(instr(FOLD(nom), ?) > 0 OR instr(FOLD(coalesce(email, '')), ?) > 0 \
         OR instr(FOLD(client_ref), ?) > 0 OR instr(coalesce(siren, ''), ?) > 0 \
         OR instr(coalesce(siret, ''), ?) > 0 \
         OR instr(FOLD(coalesce(adresse, '') || ' ' || coalesce(code_postal, '') || ' ' \
                       || coalesce(ville, '')), ?) > 0)";
    let mut conditions = vec!["agency_id = ?"];
    let mut values = vec![Value::Text(agency_id.to_owned())];
    for word in words {
        let folded = crate::text::fold(word);
        conditions.push(WORD);
        values.extend(std::iter::repeat_n(Value::Text(folded), 6));
    }
    if let Some(flag) = archived {
        conditions.push("supprime = ?");
        values.push(Value::Integer(i64::from(flag)));
    }
    let where_clause = conditions.join(" AND ");
    let total: i64 = conn.query_row_cached(
        &format!("SELECT COUNT(*) FROM clients WHERE {where_clause}"),
        params_from_iter(values.iter()),
        |r| r.get(0),
    )?;
    if total == 0 {
        return Ok((0, Vec::new()));
    }
    values.push(Value::Integer(i64::from(limit)));
    values.push(Value::Integer(i64::try_from(offset).unwrap_or(i64::MAX)));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM clients WHERE {where_clause}
         ORDER BY nom COLLATE {collation}, id LIMIT ? OFFSET ?",
        collation = crate::text::FRENCH_COLLATION
    ))?;
    let rows = stmt
        .query_map(params_from_iter(values.iter()), client_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((total, rows))
}

/// The next free partner identifier of the agency in the `CLI-000123`
/// form: one past the highest number of that form.
pub fn next_reference(conn: &Conn, agency_id: &AgencyId) -> StoreResult<String> {
    let highest: Option<i64> = conn.query_row_cached(
        "SELECT MAX(CAST(substr(client_ref, 5) AS INTEGER)) FROM clients
          WHERE agency_id = ?1 AND client_ref GLOB 'CLI-[0-9]*'
            AND substr(client_ref, 5) NOT GLOB '*[^0-9]*'",
        [agency_id.as_str()],
        |r| r.get(0),
    )?;
    Ok(format!("CLI-{:06}", highest.unwrap_or(0) + 1))
}

pub fn insert(tx: &Tx, agency_id: &AgencyId, client: &ClientRow) -> StoreResult<()> {
    let agency_id = agency_id.as_str();
    let now = tx.now_text();
    tx.execute_cached(
        "INSERT INTO clients (id, agency_id, client_ref, nom, statut, types, email, telephone,
             adresse, complement_adresse, siren, siret, supprime, billing_category, created_at, updated_at,
             code_postal, ville, numero_tva, adresse_facturation_electronique, code_service)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?15, ?14, ?14, ?16, ?17,
                 ?18, ?19, ?20)",
        params![
            client.id,
            agency_id,
            client.client_ref,
            client.nom,
            Code(client.statut),
            client.types,
            client.email,
            client.telephone,
            client.adresse,
            client.complement_adresse,
            client.siren,
            client.siret,
            i64::from(client.supprime),
            now,
            client.billing_category.map(Code),
            client.code_postal,
            client.ville,
            client.vat_number,
            client.electronic_address,
            client.service_code,
        ],
    )?;
    Ok(())
}

pub fn update(tx: &Tx, client: &ClientRow) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE clients SET nom = ?2, statut = ?3, types = ?4, email = ?5, telephone = ?6,
             adresse = ?7, complement_adresse = ?8, siren = ?9, siret = ?10, supprime = ?11,
             updated_at = ?12, billing_category = ?13, code_postal = ?14, ville = ?15,
             numero_tva = ?16, adresse_facturation_electronique = ?17, code_service = ?18
         WHERE id = ?1",
        params![
            client.id,
            client.nom,
            Code(client.statut),
            client.types,
            client.email,
            client.telephone,
            client.adresse,
            client.complement_adresse,
            client.siren,
            client.siret,
            i64::from(client.supprime),
            tx.now_text(),
            client.billing_category.map(Code),
            client.code_postal,
            client.ville,
            client.vat_number,
            client.electronic_address,
            client.service_code,
        ],
    )?;
    Ok(())
}
