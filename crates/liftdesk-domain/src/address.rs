//! Postal addresses as the agency stores them everywhere (clients,
//! buildings, agencies): a street line, a complement (building, CS…), a
//! French postal code and a city. The rules of the postal code, how a
//! one-line address given by a partner or a spreadsheet is split into those
//! parts, and how the parts are printed on one line.

/// Whether `code` is a French postal code: exactly five digits.
pub fn is_french_postal_code(code: &str) -> bool {
    code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit())
}

/// A postal code as typed, checked: spaces removed (« 75 002 »), five
/// digits. The French refusal names the field.
pub fn check_postal_code(field: &str, code: &str) -> Result<String, String> {
    let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if is_french_postal_code(&compact) {
        Ok(compact)
    } else {
        Err(format!(
            "Le champ « {field} » doit être un code postal français de cinq chiffres : « {} » n'en est pas un.",
            code.trim()
        ))
    }
}

/// The parts found in a one-line address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitAddress {
    pub street: String,
    pub postal_code: String,
    pub city: String,
}

/// Splits « 12 rue de la Paix, 75002 Paris » (or without the comma, or
/// « … 75008 Paris Cedex 08 ») into its street, postal code and city: the
/// last five-digit word with words before and after it, the city being
/// what follows and holding no comma. `None` when the text has no such
/// shape: it is then kept whole as the street line.
pub fn split_line(text: &str) -> Option<SplitAddress> {
    let text = text.trim();
    let words: Vec<(usize, &str)> = text
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect();
    let at = words
        .iter()
        .rposition(|(_, w)| is_french_postal_code(w.trim_end_matches(',')))?;
    if at == 0 || at + 1 >= words.len() {
        return None;
    }
    let (start, code) = words[at];
    let street = text[..start].trim().trim_end_matches([',', ';']).trim();
    let city = text[start + code.len()..]
        .trim()
        .trim_start_matches(',')
        .trim();
    if street.is_empty() || city.is_empty() || city.contains(',') {
        return None;
    }
    Some(SplitAddress {
        street: street.to_owned(),
        postal_code: code.trim_end_matches(',').to_owned(),
        city: city.to_owned(),
    })
}

/// The address on one line, as printed on an invoice and read by the
/// partner API: « street, complement, 75002 Paris », leaving out the parts
/// that are absent or blank. `None` when every part is.
pub fn one_line(
    street: Option<&str>,
    complement: Option<&str>,
    postal_code: Option<&str>,
    city: Option<&str>,
) -> Option<String> {
    fn present(s: Option<&str>) -> Option<&str> {
        s.map(str::trim).filter(|s| !s.is_empty())
    }
    let town = match (present(postal_code), present(city)) {
        (Some(code), Some(city)) => Some(format!("{code} {city}")),
        (Some(code), None) => Some(code.to_owned()),
        (None, Some(city)) => Some(city.to_owned()),
        (None, None) => None,
    };
    let parts: Vec<String> = [present(street), present(complement)]
        .into_iter()
        .flatten()
        .map(str::to_owned)
        .chain(town)
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Option<(String, String, String)> {
        split_line(text).map(|s| (s.street, s.postal_code, s.city))
    }

    fn parts(street: &str, code: &str, city: &str) -> Option<(String, String, String)> {
        Some((street.to_owned(), code.to_owned(), city.to_owned()))
    }

    #[test]
    fn one_line_addresses_are_split_where_they_can_be() {
        assert_eq!(
            split("12 rue de la Paix, 75002 Paris"),
            parts("12 rue de la Paix", "75002", "Paris")
        );
        assert_eq!(
            split("  3 quai Saint-Étienne 69005 Lyon "),
            parts("3 quai Saint-Étienne", "69005", "Lyon")
        );
        assert_eq!(
            split("Tour Alpha, 10 avenue de France, 75013, Paris"),
            parts("Tour Alpha, 10 avenue de France", "75013", "Paris")
        );
        assert_eq!(
            split("CS 40012, 8 rue Royale 75008 Paris Cedex 08"),
            parts("CS 40012, 8 rue Royale", "75008", "Paris Cedex 08")
        );
        // The last five-digit word: a street number of five digits first.
        assert_eq!(
            split("12345 route nationale, 13100 Aix-en-Provence"),
            parts("12345 route nationale", "13100", "Aix-en-Provence")
        );
        for unsplittable in [
            "",
            "Place Bellecour, Lyon",
            "75002 Paris",
            "12 rue de la Paix, 75002",
            "12 rue de la Paix 7500 Paris",
            "12 rue de la Paix, 75002 Paris, Bâtiment B",
        ] {
            assert_eq!(split(unsplittable), None, "{unsplittable}");
        }
    }

    #[test]
    fn postal_codes_are_five_digits() {
        assert_eq!(
            check_postal_code("codePostal", " 75 002 "),
            Ok("75002".to_owned())
        );
        assert_eq!(
            check_postal_code("codePostal", "01000"),
            Ok("01000".to_owned())
        );
        for bad in ["7500", "750021", "2A004", "75OO2", ""] {
            let err = check_postal_code("Code postal", bad).expect_err(bad);
            assert!(
                err.starts_with(
                    "Le champ « Code postal » doit être un code postal français de cinq chiffres"
                ),
                "{err}"
            );
        }
    }

    #[test]
    fn the_parts_print_on_one_line() {
        assert_eq!(
            one_line(
                Some("12 rue de la Paix"),
                Some("Bâtiment B"),
                Some("75002"),
                Some("Paris")
            ),
            Some("12 rue de la Paix, Bâtiment B, 75002 Paris".to_owned())
        );
        assert_eq!(
            one_line(Some("12 rue de la Paix"), Some(" "), None, Some("Paris")),
            Some("12 rue de la Paix, Paris".to_owned())
        );
        assert_eq!(one_line(None, None, None, None), None);
    }
}
