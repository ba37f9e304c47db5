//! French company identifiers: SIREN (the company, 9 digits) and SIRET (one
//! establishment, 14 digits: the SIREN followed by a 5-digit NIC). Both end
//! with a Luhn check digit, except La Poste's establishments (see
//! [`validate_siret`]).

use std::fmt;

const SIREN_LENGTH: usize = 9;
const SIRET_LENGTH: usize = 14;
/// La Poste has more establishments than a Luhn key leaves room for, so
/// INSEE gives them another key: the sum of the digits is a multiple of 5.
const LA_POSTE_SIREN: &str = "356000000";
/// La Poste's head office kept an ordinary Luhn key.
const LA_POSTE_HEAD_OFFICE_SIRET: &str = "35600000000048";

/// Why an identifier was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdError {
    /// Not exactly 9 ASCII digits (letters, spaces, wrong length).
    SirenFormat,
    SirenChecksum,
    /// Not exactly 14 ASCII digits.
    SiretFormat,
    SiretChecksum,
}

impl fmt::Display for IdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IdError::SirenFormat => "Le SIREN doit comporter exactement 9 chiffres.",
            IdError::SirenChecksum => "Le SIREN n'est pas valide (clé de contrôle incorrecte).",
            IdError::SiretFormat => "Le SIRET doit comporter exactement 14 chiffres.",
            IdError::SiretChecksum => "Le SIRET n'est pas valide (clé de contrôle incorrecte).",
        })
    }
}

impl std::error::Error for IdError {}

/// Exactly 9 digits with a valid Luhn key. Spaces are refused: remove them
/// first with [`remove_spaces`] where a typed "732 829 320" should be read.
pub fn validate_siren(siren: &str) -> Result<(), IdError> {
    if !is_digits(siren, SIREN_LENGTH) {
        return Err(IdError::SirenFormat);
    }
    if !passes_luhn(siren) {
        return Err(IdError::SirenChecksum);
    }
    Ok(())
}

/// Exactly 14 digits with a valid key: Luhn on the whole number, and the
/// SIREN it starts with must itself be valid. La Poste's establishments
/// (SIREN 356000000) use instead a sum of digits multiple of 5, except the
/// head office, 35600000000048, which has a Luhn key.
pub fn validate_siret(siret: &str) -> Result<(), IdError> {
    if !is_digits(siret, SIRET_LENGTH) {
        return Err(IdError::SiretFormat);
    }
    let key_is_valid = if siret.starts_with(LA_POSTE_SIREN) && siret != LA_POSTE_HEAD_OFFICE_SIRET {
        digit_values(siret).sum::<u32>().is_multiple_of(5)
    } else {
        passes_luhn(siret) && passes_luhn(&siret[..SIREN_LENGTH])
    };
    if !key_is_valid {
        return Err(IdError::SiretChecksum);
    }
    Ok(())
}

/// The establishment belongs to the company: the SIRET starts with the
/// SIREN. Checks the shapes (14 and 9 digits), not the keys.
pub fn siret_matches_siren(siret: &str, siren: &str) -> bool {
    is_digits(siret, SIRET_LENGTH) && is_digits(siren, SIREN_LENGTH) && siret.starts_with(siren)
}

/// Appends the Luhn check digit, to make valid numbers (demo data, tests):
/// 8 digits give a SIREN, a SIREN and 4 more digits give a SIRET (not for
/// La Poste, whose establishments use another key). `prefix_digits` must be
/// ASCII digits only.
pub fn luhn_complete(prefix_digits: &str) -> String {
    debug_assert!(
        prefix_digits.bytes().all(|b| b.is_ascii_digit()),
        "luhn_complete takes digits only: {prefix_digits:?}"
    );
    // The check digit will be the rightmost digit, not doubled: compute the
    // sum as if it were 0, then complete to a multiple of 10.
    let with_zero = format!("{prefix_digits}0");
    let check_digit = (10 - luhn_sum(&with_zero) % 10) % 10;
    format!("{prefix_digits}{check_digit}")
}

/// Removes the spaces people type between groups of digits ("732 829 320",
/// also no-break and narrow no-break spaces, as pasted from documents).
pub fn remove_spaces(input: &str) -> String {
    input.chars().filter(|c| !c.is_whitespace()).collect()
}

fn is_digits(value: &str, length: usize) -> bool {
    value.len() == length && value.bytes().all(|b| b.is_ascii_digit())
}

/// Values of the ASCII digits (callers have checked there is nothing else).
fn digit_values(digits: &str) -> impl DoubleEndedIterator<Item = u32> + '_ {
    digits.bytes().map(|b| u32::from(b.wrapping_sub(b'0')))
}

/// Luhn sum: from the right, every second digit is doubled, and 9 taken off
/// when the double exceeds 9.
fn luhn_sum(digits: &str) -> u32 {
    digit_values(digits)
        .rev()
        .enumerate()
        .map(|(position, digit)| {
            if position % 2 == 1 {
                let doubled = digit * 2;
                if doubled > 9 { doubled - 9 } else { doubled }
            } else {
                digit
            }
        })
        .sum()
}

fn passes_luhn(digits: &str) -> bool {
    luhn_sum(digits).is_multiple_of(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_sirens_are_valid() {
        for siren in ["732829320", "552100554", "356000000", "542051180"] {
            assert_eq!(validate_siren(siren), Ok(()), "{siren}");
        }
    }

    #[test]
    fn malformed_sirens_are_refused_with_the_length_message() {
        for siren in [
            "",
            "73282932",
            "7328293200",
            "73282932A",
            "ABCDEFGHI",
            "732 829 320",
            " 732829320",
            "732829320 ",
            "-73282932",
            "７３２８２９３２０",
        ] {
            assert_eq!(
                validate_siren(siren),
                Err(IdError::SirenFormat),
                "{siren:?}"
            );
        }
        assert_eq!(
            IdError::SirenFormat.to_string(),
            "Le SIREN doit comporter exactement 9 chiffres."
        );
    }

    #[test]
    fn a_wrong_check_digit_is_refused() {
        assert_eq!(validate_siren("732829321"), Err(IdError::SirenChecksum));
        assert_eq!(validate_siren("123456789"), Err(IdError::SirenChecksum));
        // Two swapped neighbours change the key.
        assert_eq!(validate_siren("378229320"), Err(IdError::SirenChecksum));
        assert_eq!(
            IdError::SirenChecksum.to_string(),
            "Le SIREN n'est pas valide (clé de contrôle incorrecte)."
        );
        // Every other last digit than the right one is refused.
        for last in '0'..='9' {
            let candidate = format!("73282932{last}");
            assert_eq!(
                validate_siren(&candidate).is_ok(),
                last == '0',
                "{candidate}"
            );
        }
    }

    #[test]
    fn known_sirets_are_valid() {
        for siret in ["73282932000074", "55210055400013", "35600000000048"] {
            assert_eq!(validate_siret(siret), Ok(()), "{siret}");
        }
    }

    #[test]
    fn la_poste_establishments_use_the_sum_of_digits() {
        // Sum of digits 15: valid although not a Luhn number.
        assert!(!passes_luhn("35600000000001"));
        assert_eq!(validate_siret("35600000000001"), Ok(()));
        assert_eq!(validate_siret("35600000000105"), Ok(()));
        // A Luhn key does not make a La Poste establishment valid...
        assert!(passes_luhn("35600000000014"));
        assert_eq!(
            validate_siret("35600000000014"),
            Err(IdError::SiretChecksum)
        );
        assert_eq!(
            validate_siret("35600000012345"),
            Err(IdError::SiretChecksum)
        );
        // ...except for the head office, which has no other key.
        assert_eq!(digit_values(LA_POSTE_HEAD_OFFICE_SIRET).sum::<u32>() % 5, 1);
        assert_eq!(validate_siret(LA_POSTE_HEAD_OFFICE_SIRET), Ok(()));
    }

    #[test]
    fn malformed_sirets_are_refused_with_the_length_message() {
        for siret in [
            "",
            "7328293200007",
            "732829320000740",
            "7328293200007A",
            "732 829 320 00074",
            "73282932000074\n",
            "732829320",
        ] {
            assert_eq!(
                validate_siret(siret),
                Err(IdError::SiretFormat),
                "{siret:?}"
            );
        }
        assert_eq!(
            IdError::SiretFormat.to_string(),
            "Le SIRET doit comporter exactement 14 chiffres."
        );
    }

    #[test]
    fn sirets_with_a_wrong_key_are_refused() {
        assert_eq!(
            validate_siret("73282932000075"),
            Err(IdError::SiretChecksum)
        );
        assert_eq!(
            validate_siret("12345678901234"),
            Err(IdError::SiretChecksum)
        );
        // A Luhn-valid number whose first nine digits are not a valid SIREN.
        let siret = luhn_complete("7328293210007");
        assert!(passes_luhn(&siret));
        assert_eq!(validate_siret(&siret), Err(IdError::SiretChecksum));
        assert_eq!(
            IdError::SiretChecksum.to_string(),
            "Le SIRET n'est pas valide (clé de contrôle incorrecte)."
        );
    }

    #[test]
    fn ids_are_generated_valid() {
        for n in (0..100_000_000u32).step_by(99_991) {
            let siren = luhn_complete(&format!("{n:08}"));
            assert_eq!(siren.len(), 9);
            assert_eq!(validate_siren(&siren), Ok(()), "{siren}");
            let siret = luhn_complete(&format!("{siren}{:04}", n % 10_000));
            assert_eq!(validate_siret(&siret), Ok(()), "{siret}");
            assert!(siret_matches_siren(&siret, &siren));
        }
        assert_eq!(luhn_complete("73282932"), "732829320");
        assert_eq!(luhn_complete("7328293200007"), "73282932000074");
    }

    #[test]
    fn siret_belongs_to_siren() {
        assert!(siret_matches_siren("73282932000074", "732829320"));
        assert!(!siret_matches_siren("73282932000074", "552100554"));
        assert!(!siret_matches_siren("7328293200007", "732829320"));
        assert!(!siret_matches_siren("73282932000074", "73282932"));
        assert!(!siret_matches_siren("73282932000074", ""));
    }

    #[test]
    fn spaces_typed_between_groups_are_removed() {
        assert_eq!(remove_spaces("732 829 320"), "732829320");
        assert_eq!(
            remove_spaces(" 732\u{a0}829\u{202f}320 00074\t"),
            "73282932000074"
        );
        assert_eq!(validate_siren(&remove_spaces("552 100 554")), Ok(()));
    }
}
