//! French text: comparison that ignores accents, ligatures and case, for
//! searches and for sorting names as a French reader expects.

use std::cmp::Ordering;

/// Lower-cases and removes French accents and ligatures, so that « vitésse »,
/// « VITESSE » and « vitesse » compare equal.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => out.push('a'),
            'ç' => out.push('c'),
            'è' | 'é' | 'ê' | 'ë' => out.push('e'),
            'ì' | 'í' | 'î' | 'ï' => out.push('i'),
            'ñ' => out.push('n'),
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => out.push('o'),
            'ù' | 'ú' | 'û' | 'ü' => out.push('u'),
            'ý' | 'ÿ' => out.push('y'),
            'œ' => out.push_str("oe"),
            'æ' => out.push_str("ae"),
            other => out.push(other),
        }
    }
    out
}

/// Name of the SQLite collation registered on every connection.
pub const FRENCH_COLLATION: &str = "FRANCAIS";

/// French order: accents, ligatures and case ignored first (« Éric » between
/// « Denis » and « Fanny », not after « Zoé »), then the exact text, so that
/// the order is total and stable.
pub fn french_order(a: &str, b: &str) -> Ordering {
    fold(a).cmp(&fold(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_accents_ligatures_and_case() {
        assert_eq!(fold("VITÉSSE Cœur"), "vitesse coeur");
    }

    #[test]
    fn names_sort_as_a_french_reader_expects() {
        let mut names = vec!["Zoé", "Éric", "Céline", "Christophe", "denis", "Ça va"];
        names.sort_by(|a, b| french_order(a, b));
        assert_eq!(
            names,
            ["Ça va", "Céline", "Christophe", "denis", "Éric", "Zoé"]
        );
    }
}
