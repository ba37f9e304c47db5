//! A building as the agency writes it (name, address, postal code, city),
//! checked once for every door.

use crate::text::{field, required_field};

/// Longest name, address, address complement or city.
pub const MAX_TEXT_CHARS: usize = 200;

/// A building as given (wire names in the refusals).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildingInput {
    pub name: Option<String>,
    pub address: Option<String>,
    pub address_complement: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
}

/// A checked building: what is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildingRecord {
    pub name: Option<String>,
    pub address: String,
    pub address_complement: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
}

/// Checks a building: a street address; a French postal code (five digits)
/// when given; every text bounded and printable. The French reason names
/// the field.
pub fn check(input: &BuildingInput) -> Result<BuildingRecord, String> {
    let postal_code = field("postalCode", input.postal_code.as_deref(), MAX_TEXT_CHARS)?;
    if let Some(code) = &postal_code
        && !(code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(format!(
            "Le champ « postalCode » doit être un code postal français de cinq chiffres : « {code} » n'en est pas un."
        ));
    }
    Ok(BuildingRecord {
        name: field("name", input.name.as_deref(), MAX_TEXT_CHARS)?,
        address: required_field("address", input.address.as_deref(), MAX_TEXT_CHARS)?,
        address_complement: field(
            "addressComplement",
            input.address_complement.as_deref(),
            MAX_TEXT_CHARS,
        )?,
        postal_code,
        city: field("city", input.city.as_deref(), MAX_TEXT_CHARS)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> BuildingInput {
        BuildingInput {
            name: Some(" Résidence Les Tilleuls ".to_owned()),
            address: Some("3 rue Émile Zola".to_owned()),
            address_complement: Some("".to_owned()),
            postal_code: Some("92300".to_owned()),
            city: Some("Levallois-Perret".to_owned()),
        }
    }

    #[test]
    fn a_building_is_checked_and_trimmed() {
        assert_eq!(
            check(&input()),
            Ok(BuildingRecord {
                name: Some("Résidence Les Tilleuls".to_owned()),
                address: "3 rue Émile Zola".to_owned(),
                address_complement: None,
                postal_code: Some("92300".to_owned()),
                city: Some("Levallois-Perret".to_owned()),
            })
        );
    }

    #[test]
    fn an_address_and_a_french_postal_code_are_required() {
        assert_eq!(
            check(&BuildingInput {
                address: None,
                ..input()
            }),
            Err("Le champ « address » est obligatoire.".to_owned())
        );
        for code in ["9230", "923000", "92 30", "2A004"] {
            let err = check(&BuildingInput {
                postal_code: Some(code.to_owned()),
                ..input()
            })
            .expect_err(code);
            assert!(err.starts_with("Le champ « postalCode »"), "{err}");
        }
    }
}
