//! The `q` parameter of the lists (calls and the equipment choices of a
//! call, clients, equipment, surveys, the park screen): trimmed, blank is no
//! search, and one length limit with one French refusal (400).

use crate::error::{AppError, AppResult};

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

#[cfg(test)]
mod tests {
    use super::*;

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
