//! Who and where: the agencies a caller can read, and the accounts working
//! in them.

use crate::error::AppResult;
use crate::principal::Principal;
use crate::store::Conn;
use crate::store::Store;
use crate::store::accounts::{self, AccountRow, Role};
use crate::store::agencies::AgencyRow;

/// The agencies listed to an account (`GET /agencies`, and where `GET /users`
/// looks): its scope, except for the service operator acting in an agency,
/// who reads that agency's organization only. Without an agency requested
/// the operator reads every client organization (its scope).
pub fn readable_agencies(
    role: Role,
    acting: Option<&AgencyRow>,
    scope: &[AgencyRow],
) -> Vec<AgencyRow> {
    match (role, acting) {
        (Role::Operator, Some(agency)) => scope
            .iter()
            .filter(|a| a.organization_id == agency.organization_id)
            .cloned()
            .collect(),
        _ => scope.to_vec(),
    }
}

/// A staff account and the agencies (among those read) where it works.
#[derive(Debug, Clone)]
pub struct UserEntry {
    pub account: AccountRow,
    /// `(id, name)`, sorted by name.
    pub agencies: Vec<(String, String)>,
}

/// Every account working in one of `agencies`; each with the agencies of
/// that list where it works (never an agency the caller cannot read).
pub fn users(conn: &Conn, agencies: &[AgencyRow]) -> AppResult<Vec<UserEntry>> {
    let ids: Vec<String> = agencies.iter().map(|a| a.id.to_string()).collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut entries: Vec<UserEntry> = Vec::new();
    for row in accounts::working_in(conn, &ids)? {
        match entries.last_mut() {
            Some(last) if last.account.id == row.account.id => {
                last.agencies.push((row.agency_id, row.agency_name));
            }
            _ => entries.push(UserEntry {
                account: row.account,
                agencies: vec![(row.agency_id, row.agency_name)],
            }),
        }
    }
    Ok(entries)
}

/// The accounts the principal may read: those of the agencies it reads (see
/// [`readable_agencies`]); the operator's service account is never listed.
pub async fn users_for(store: &Store, p: &Principal) -> AppResult<Vec<UserEntry>> {
    let agencies = readable_agencies(p.account()?.role, p.agency.as_ref(), &p.scope);
    store.read(move |conn| users(conn, &agencies)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agency(id: &str, org: &str) -> AgencyRow {
        AgencyRow {
            id: crate::domain::id::AgencyId::new(id),
            name: id.to_uppercase(),
            organization_id: crate::domain::id::OrganizationId::new(org),
            organization_name: org.to_uppercase(),
            v1_id: None,
        }
    }

    #[test]
    fn the_operator_acting_in_an_agency_reads_its_organization_only() {
        let scope = vec![agency("a1", "o1"), agency("a2", "o1"), agency("b1", "o2")];
        let ids = |list: Vec<AgencyRow>| list.into_iter().map(|a| a.id).collect::<Vec<_>>();
        assert_eq!(
            ids(readable_agencies(Role::Operator, None, &scope)),
            ["a1", "a2", "b1"]
        );
        assert_eq!(
            ids(readable_agencies(Role::Operator, Some(&scope[2]), &scope)),
            ["b1"]
        );
        assert_eq!(
            ids(readable_agencies(
                Role::OrgAdmin,
                Some(&scope[0]),
                &scope[..2]
            )),
            ["a1", "a2"]
        );
        assert_eq!(
            ids(readable_agencies(
                Role::Member,
                Some(&scope[0]),
                &scope[..1]
            )),
            ["a1"]
        );
    }
}
