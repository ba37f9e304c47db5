//! The `q` parameter of the lists (calls and the equipment choices of a
//! call, clients, equipment, surveys, the park screen): trimmed, blank is no
//! search, and one length limit with one French refusal (400). And the
//! header search ([`header`]): one text finds, in the principal's agency,
//! lifts (number, building, address), clients (name, SIREN, SIRET,
//! identifier), invoices and credit notes, quotes (number) and calls
//! (reference), a few of each, as the text is typed.

use chrono::Datelike;

use crate::domain::id::AgencyId;
use crate::domain::invoice::{self, InvoiceNature};
use crate::error::{AppError, AppResult};
use crate::principal::Principal;
use crate::store::Store;
use crate::store::clients::ClientRow;
use crate::store::equipment::EquipmentRow;
use crate::store::search::{self as numbers, NumberHit, NumberQuery};

/// `q` of the lists: at most this many characters, once trimmed.
pub const MAX_SEARCH_CHARS: usize = 100;

/// `q` trimmed, `None` when absent or blank; 400 beyond
/// [`MAX_SEARCH_CHARS`] characters.
pub fn search_term(raw: Option<&str>) -> AppResult<Option<String>> {
    let Some(term) = raw.map(str::trim).filter(|term| !term.is_empty()) else {
        return Ok(None);
    };
    if term.chars().count() > MAX_SEARCH_CHARS {
        return Err(AppError::bad_request(format!(
            "Le paramètre « q » ne doit pas dépasser {MAX_SEARCH_CHARS} caractères."
        )));
    }
    Ok(Some(term.to_owned()))
}

/// Results of each kind the header search shows, at most.
pub const HEADER_LIMIT: u32 = 5;

/// Fewer characters than this find nothing (every lift would match « a »).
pub const HEADER_MIN_CHARS: usize = 2;

/// Years a bare sequence number (« 123 ») is looked for in, back from this one.
const YEARS_BACK: i32 = 4;

/// What the header search found, by kind.
#[derive(Debug, Clone, Default)]
pub struct HeaderResults {
    pub equipment: Vec<EquipmentRow>,
    pub clients: Vec<ClientRow>,
    pub invoices: Vec<NumberHit>,
    pub quotes: Vec<NumberHit>,
    pub calls: Vec<NumberHit>,
}

/// The numbers `term` stands for: a prefix as typed (upper case, spaces
/// removed, the dashes of `FA-2026-000123` put back when left out), or,
/// for bare digits, the exact numbers of that sequence over the last years
/// (`FA-2026-000123`, `AV-…`, `DV-2026-00123`, `AG-2026-00123`; an
/// agency's documents also in its series, `FA-PO-2026-000123`).
fn number_queries(
    term: &str,
    year: i32,
    series: Option<&str>,
) -> (NumberQuery, NumberQuery, NumberQuery) {
    let compact: String = term
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    if !compact.is_empty()
        && compact.len() <= 9
        && compact.bytes().all(|b| b.is_ascii_digit())
        && let Ok(seq) = compact.parse::<u32>()
        && seq > 0
    {
        let years = (year - YEARS_BACK)..=year;
        let invoices = years
            .clone()
            .flat_map(|y| {
                let mut numbers: Vec<String> = Vec::with_capacity(4);
                for nature in [InvoiceNature::Facture, InvoiceNature::Avoir] {
                    numbers.push(invoice::format_number(nature, None, y, seq));
                    if series.is_some() {
                        numbers.push(invoice::format_number(nature, series, y, seq));
                    }
                }
                numbers
            })
            .collect();
        let quotes = years.clone().map(|y| format!("DV-{y}-{seq:05}")).collect();
        let calls = years.map(|y| format!("AG-{y}-{seq:05}")).collect();
        return (
            NumberQuery {
                prefix: None,
                exact: invoices,
            },
            NumberQuery {
                prefix: None,
                exact: quotes,
            },
            NumberQuery {
                prefix: None,
                exact: calls,
            },
        );
    }
    let prefix = with_dashes(&compact);
    let query = NumberQuery {
        prefix: Some(prefix),
        exact: Vec::new(),
    };
    (query.clone(), query.clone(), query)
}

/// `FA2026000123` → `FA-2026-000123`; anything else as it is.
fn with_dashes(compact: &str) -> String {
    let bytes = compact.as_bytes();
    if bytes.len() < 3 || !bytes[..2].iter().all(u8::is_ascii_uppercase) {
        return compact.to_owned();
    }
    let rest = compact[2..].trim_start_matches('-');
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if rest.is_empty() {
        return compact.to_owned();
    }
    let (year, sequence) = rest.split_at(rest.len().min(4));
    let sequence = sequence.trim_start_matches('-');
    if !digits_only(year) || !digits_only(sequence) {
        return compact.to_owned();
    }
    if sequence.is_empty() {
        format!("{}-{year}", &compact[..2])
    } else {
        format!("{}-{year}-{sequence}", &compact[..2])
    }
}

/// The header search in the principal's agency: nothing for fewer than
/// [`HEADER_MIN_CHARS`] characters; else up to [`HEADER_LIMIT`] of each kind.
pub async fn header(store: &Store, p: &Principal, q: Option<&str>) -> AppResult<HeaderResults> {
    let agency_id: AgencyId = p.agency_id()?.to_owned();
    let Some(term) = search_term(q)? else {
        return Ok(HeaderResults::default());
    };
    if term.chars().count() < HEADER_MIN_CHARS {
        return Ok(HeaderResults::default());
    }
    let year = crate::domain::time::paris_local(store.now()).year();
    store
        .read(move |conn| {
            let series = crate::store::identities::current(conn, &agency_id)?
                .and_then(|c| c.identity.invoice_series);
            let (invoice_q, quote_q, call_q) = number_queries(&term, year, series.as_deref());
            let words: Vec<String> = term.split_whitespace().map(str::to_owned).collect();
            let (_, clients) =
                crate::store::clients::search(conn, &agency_id, &words, None, HEADER_LIMIT, 0)?;
            let (_, equipment) = crate::services::equipment::search(
                conn,
                &agency_id,
                Some(&term),
                false,
                HEADER_LIMIT,
                0,
            )?;
            Ok(HeaderResults {
                equipment,
                clients,
                invoices: numbers::invoices(conn, &agency_id, &invoice_q, HEADER_LIMIT)?,
                quotes: numbers::quotes(conn, &agency_id, &quote_q, HEADER_LIMIT)?,
                calls: numbers::calls(conn, &agency_id, &call_q, HEADER_LIMIT)?,
            })
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_number_becomes_a_prefix_or_the_sequences_of_recent_years() {
        assert_eq!(with_dashes("FA2026000123"), "FA-2026-000123");
        assert_eq!(with_dashes("FA-2026-00"), "FA-2026-00");
        assert_eq!(with_dashes("FA-20"), "FA-20");
        assert_eq!(with_dashes("DV2026"), "DV-2026");
        assert_eq!(with_dashes("CC-X12"), "CC-X12");
        let (invoices, quotes, calls) = number_queries(" 12 ", 2026, None);
        assert_eq!(invoices.prefix, None);
        assert_eq!(invoices.exact.len(), 10);
        assert!(invoices.exact.contains(&"FA-2026-000012".to_owned()));
        assert!(invoices.exact.contains(&"AV-2022-000012".to_owned()));
        assert_eq!(quotes.exact[4], "DV-2026-00012");
        assert_eq!(calls.exact[0], "AG-2022-00012");
        let (invoices, _, _) = number_queries("fa 2026 0001", 2026, None);
        assert_eq!(invoices.prefix.as_deref(), Some("FA-2026-0001"));
        // An agency numbering in its series: its numbers too, and those
        // it gave before choosing one.
        let (invoices, _, _) = number_queries("12", 2026, Some("PO"));
        assert_eq!(invoices.exact.len(), 20);
        assert!(invoices.exact.contains(&"FA-PO-2026-000012".to_owned()));
        assert!(invoices.exact.contains(&"AV-PO-2022-000012".to_owned()));
        assert!(invoices.exact.contains(&"FA-2026-000012".to_owned()));
    }

    #[test]
    fn trims_and_refuses_past_the_limit() {
        assert_eq!(search_term(None).expect("none"), None);
        assert_eq!(search_term(Some("   ")).expect("blank"), None);
        assert_eq!(
            search_term(Some("  Ascenseur B ")).expect("term"),
            Some("Ascenseur B".to_owned())
        );
        let at_limit = format!("  {}  ", "é".repeat(MAX_SEARCH_CHARS));
        assert_eq!(
            search_term(Some(&at_limit))
                .expect("at the limit")
                .map(|t| t.chars().count()),
            Some(MAX_SEARCH_CHARS)
        );
        let err = search_term(Some(&"a".repeat(MAX_SEARCH_CHARS + 1))).expect_err("too long");
        assert_eq!(err.status().as_u16(), 400);
        assert_eq!(
            err.public_message(),
            "Le paramètre « q » ne doit pas dépasser 100 caractères."
        );
    }
}
