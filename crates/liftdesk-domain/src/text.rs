//! French text: comparison that ignores accents, ligatures and case, for
//! searches and for sorting names as a French reader expects.

use std::cmp::Ordering;

/// Lower-cases and removes French accents and ligatures, so that « vitésse »,
/// « VITESSE » and « vitesse » compare equal.
pub fn fold(text: &str) -> String {
    folded_chars(text).collect()
}

/// The characters of [`fold`]`(text)`, without building the string: sorting
/// compares names this way, a few thousand times per list.
fn folded_chars(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(char::to_lowercase).flat_map(|c| {
        let (first, second) = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => ('a', None),
            'ç' => ('c', None),
            'è' | 'é' | 'ê' | 'ë' => ('e', None),
            'ì' | 'í' | 'î' | 'ï' => ('i', None),
            'ñ' => ('n', None),
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => ('o', None),
            'ù' | 'ú' | 'û' | 'ü' => ('u', None),
            'ý' | 'ÿ' => ('y', None),
            'œ' => ('o', Some('e')),
            'æ' => ('a', Some('e')),
            other => (other, None),
        };
        std::iter::once(first).chain(second)
    })
}

/// French order: accents, ligatures and case ignored first (« Éric » between
/// « Denis » and « Fanny », not after « Zoé »), then the exact text, so that
/// the order is total and stable.
pub fn french_order(a: &str, b: &str) -> Ordering {
    // Char order is the UTF-8 byte order of the folded strings.
    folded_chars(a).cmp(folded_chars(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_accents_ligatures_and_case() {
        assert_eq!(fold("VITÉSSE Cœur"), "vitesse coeur");
    }

    #[test]
    fn the_order_compares_the_folded_texts_without_building_them() {
        let words = [
            "",
            "a",
            "A",
            "à",
            "æ",
            "ae",
            "aé",
            "Æsop",
            "œuvre",
            "OEUVRE",
            "oe",
            "ob",
            "oz",
            "ß",
            "ss",
            "İstanbul",
            "istanbul",
            "Zoé",
            "zoe",
            "Ça",
            "ca",
            "c",
            "日本",
            "Émile",
            "emile",
            "E",
            "é",
        ];
        for a in words {
            for b in words {
                let by_strings = fold(a).cmp(&fold(b)).then_with(|| a.cmp(b));
                assert_eq!(french_order(a, b), by_strings, "{a} / {b}");
            }
        }
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

/// An e-mail address as Liftdesk accepts it: no whitespace, a non-empty
/// local part, a domain with a dot not at either end, 254 bytes at most.
pub fn is_email(email: &str) -> bool {
    email.len() <= 254
        && !email.contains(char::is_whitespace)
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        })
}

/// One free-text field as a person typed it: trimmed; blank → `None`; more
/// than `max` characters or a control character → the French reason,
/// naming the field by `name`.
pub fn field(name: &str, value: Option<&str>, max: usize) -> Result<Option<String>, String> {
    let Some(text) = value.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > max {
        return Err(format!(
            "Le champ « {name} » ne doit pas dépasser {max} caractères."
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(format!(
            "Le champ « {name} » ne doit pas contenir de caractère de contrôle."
        ));
    }
    Ok(Some(text.to_owned()))
}

/// Longest phone number as typed.
pub const MAX_PHONE_CHARS: usize = 30;

/// A phone number as typed ([`field`] `name`): digits, spaces, dots,
/// dashes and a leading `+`, 4 to 15 digits (E.164's most); blank → `None`.
/// The one rule of every phone (technicians, the agency's identity).
pub fn phone(name: &str, value: Option<&str>) -> Result<Option<String>, String> {
    let phone = field(name, value, MAX_PHONE_CHARS)?;
    if let Some(phone) = &phone {
        let digits = phone.chars().filter(char::is_ascii_digit).count();
        let shaped = phone.chars().enumerate().all(|(i, c)| {
            c.is_ascii_digit() || matches!(c, ' ' | '.' | '-') || (c == '+' && i == 0)
        });
        if !shaped || !(4..=15).contains(&digits) {
            return Err(format!(
                "Le champ « {name} » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « {phone} » n'en est pas un."
            ));
        }
    }
    Ok(phone)
}

/// [`field`] that must be given: blank → « Le champ « name » est obligatoire. ».
pub fn required_field(name: &str, value: Option<&str>, max: usize) -> Result<String, String> {
    field(name, value, max)?.ok_or_else(|| format!("Le champ « {name} » est obligatoire."))
}

/// The refusal of `value`, none of the `allowed` values of the field
/// `name`: the one wording of every door.
pub fn not_allowed<T: AsRef<str>>(name: &str, value: &str, allowed: &[T]) -> String {
    format!(
        "La valeur « {value} » du champ « {name} » n'est pas autorisée : valeurs possibles : {}.",
        quoted_list(allowed)
    )
}

/// `« a », « b », « c »`.
pub fn quoted_list<T: AsRef<str>>(values: &[T]) -> String {
    values
        .iter()
        .map(|v| format!("« {} »", v.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod field_tests {
    use super::*;

    #[test]
    fn a_field_is_trimmed_bounded_and_printable() {
        assert_eq!(
            field("nom", Some("  Rémi  "), 10),
            Ok(Some("Rémi".to_owned()))
        );
        assert_eq!(field("nom", Some("   "), 10), Ok(None));
        assert_eq!(field("nom", None, 10), Ok(None));
        assert_eq!(
            field("nom", Some("éééééééééé"), 10),
            Ok(Some("éééééééééé".to_owned()))
        );
        assert_eq!(
            field("nom", Some("ééééééééééé"), 10),
            Err("Le champ « nom » ne doit pas dépasser 10 caractères.".to_owned())
        );
        assert_eq!(
            field("nom", Some("a\u{7}b"), 10),
            Err("Le champ « nom » ne doit pas contenir de caractère de contrôle.".to_owned())
        );
        assert_eq!(
            required_field("nom", Some(" "), 10),
            Err("Le champ « nom » est obligatoire.".to_owned())
        );
    }
}
