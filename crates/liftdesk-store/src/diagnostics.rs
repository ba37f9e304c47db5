//! Counts for the support diagnostics: how many of each record, and the
//! webhook deliveries by state. Numbers only, nothing personal.

use crate::Conn;

use super::StoreResult;

/// Tables counted, with their French label.
const COUNTED: [(&str, &str); 12] = [
    ("organizations", "organisations"),
    ("agencies", "agences"),
    ("accounts", "comptes"),
    ("technicians", "techniciens"),
    ("clients", "clients"),
    ("buildings", "bâtiments"),
    ("equipment", "appareils"),
    ("calls", "appels"),
    ("visits", "visites"),
    ("quotes", "devis"),
    ("invoices", "factures"),
    ("webhook_subscriptions", "abonnements webhooks"),
];

/// `(label, count)` of every counted table.
pub fn counts(conn: &Conn) -> StoreResult<Vec<(&'static str, i64)>> {
    let mut out = Vec::with_capacity(COUNTED.len());
    for (table, label) in COUNTED {
        let count: i64 =
            conn.query_row_cached(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
        out.push((label, count));
    }
    Ok(out)
}

/// Webhook deliveries by status (`en_attente`, `echec`, `abandonnee`, `livree`).
pub fn deliveries_by_status(conn: &Conn) -> StoreResult<Vec<(String, i64)>> {
    let mut stmt = conn.prepare(
        "SELECT status, count(*) FROM webhook_deliveries GROUP BY status ORDER BY status",
    )?;
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<crate::StoreResult<_>>()
}
