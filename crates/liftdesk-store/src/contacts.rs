//! Contacts of a client (`contacts`): every SQL statement on them. A contact
//! has no agency of its own: it is in its client's agency.

use crate::Conn;
use crate::sql::{OptionalExtension, params};
use liftdesk_domain::id::{AgencyId, ClientId, ContactId};

use super::StoreResult;
use crate::Tx;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactRow {
    pub id: ContactId,
    pub nom: String,
    pub email: Option<String>,
    pub telephone: Option<String>,
    pub fonction: Option<String>,
}

/// The client's contacts (by the client's internal id), oldest first.
pub fn for_client(conn: &Conn, client_id: &ClientId) -> StoreResult<Vec<ContactRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, nom, email, telephone, fonction FROM contacts
         WHERE client_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = stmt
        .query_map([client_id], |r| {
            Ok(ContactRow {
                id: r.get(0)?,
                nom: r.get(1)?,
                email: r.get(2)?,
                telephone: r.get(3)?,
                fonction: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Adds the contact to the client (internal id).
pub fn insert(tx: &Tx, client_id: &ClientId, contact: &ContactRow) -> StoreResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO contacts (id, client_id, nom, email, telephone, fonction, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
    )?
    .execute(params![
        contact.id,
        client_id,
        contact.nom,
        contact.email,
        contact.telephone,
        contact.fonction,
        now
    ])?;
    Ok(())
}

pub fn update(tx: &Tx, contact: &ContactRow) -> StoreResult<()> {
    tx.prepare_cached(
        "UPDATE contacts SET nom = ?2, email = ?3, telephone = ?4, fonction = ?5, updated_at = ?6
         WHERE id = ?1",
    )?
    .execute(params![
        contact.id,
        contact.nom,
        contact.email,
        contact.telephone,
        contact.fonction,
        tx.now_text()
    ])?;
    Ok(())
}

/// The contact `id` of a client of the agency, with its client's internal
/// id; `None` for another agency's or an unknown one.
pub fn get_in_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &ContactId,
) -> StoreResult<Option<(ClientId, ContactRow)>> {
    conn.query_row_cached(
        "SELECT c.client_id, c.id, c.nom, c.email, c.telephone, c.fonction
           FROM contacts c JOIN clients k ON k.id = c.client_id
          WHERE c.id = ?1 AND k.agency_id = ?2",
        params![id, agency_id.as_str()],
        |r| {
            Ok((
                r.get(0)?,
                ContactRow {
                    id: r.get(1)?,
                    nom: r.get(2)?,
                    email: r.get(3)?,
                    telephone: r.get(4)?,
                    fonction: r.get(5)?,
                },
            ))
        },
    )
    .optional()
}

pub fn delete(tx: &Tx, id: &ContactId) -> StoreResult<()> {
    tx.execute_cached("DELETE FROM contacts WHERE id = ?1", params![id])?;
    Ok(())
}
