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
    let postal_code = field("postalCode", input.postal_code.as_deref(), MAX_TEXT_CHARS)?
        .map(|code| crate::address::check_postal_code("postalCode", &code))
        .transpose()?;
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

/// How a technician gets into a building (`consignes_acces`): the values
/// a building's access instructions take.
pub const ACCESS_VALUES: [&str; 5] = ["Sans", "Digicode", "Coffre à clé", "Vigik", "Autre"];

/// A building's access instructions as given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccessInput {
    /// Among [`ACCESS_VALUES`].
    pub instructions: Vec<String>,
    /// The details, required when `Autre` is chosen.
    pub other: Option<String>,
    pub digicode: Option<String>,
    /// Where the key box is.
    pub key_box: Option<String>,
}

/// Checked access instructions: what is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessRecord {
    /// The instructions as a JSON array of text (`["Digicode"]`).
    pub instructions: String,
    pub other: Option<String>,
    pub digicode: Option<String>,
    pub key_box: Option<String>,
}

/// The wire names of the access fields, for the refusals.
pub struct AccessNames<'a> {
    pub instructions: &'a str,
    pub other: &'a str,
}

/// Checks access instructions: each among [`ACCESS_VALUES`], the details
/// given when `Autre` is chosen; blank texts are none. The French reason
/// names the field by the door's name for it.
pub fn check_access(input: &AccessInput, names: &AccessNames) -> Result<AccessRecord, String> {
    for value in &input.instructions {
        if !ACCESS_VALUES.contains(&value.as_str()) {
            return Err(crate::text::not_allowed(
                names.instructions,
                value,
                &ACCESS_VALUES,
            ));
        }
    }
    let non_blank = |text: &Option<String>| {
        text.as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    };
    let other = non_blank(&input.other);
    if input.instructions.iter().any(|v| v == "Autre") && other.is_none() {
        return Err(format!(
            "Le champ « {} » est obligatoire quand « Autre » est choisi dans « {} ».",
            names.other, names.instructions
        ));
    }
    let instructions = input
        .instructions
        .iter()
        .map(|v| format!("\"{v}\""))
        .collect::<Vec<_>>()
        .join(",");
    Ok(AccessRecord {
        instructions: format!("[{instructions}]"),
        other,
        digicode: non_blank(&input.digicode),
        key_box: non_blank(&input.key_box),
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

    #[test]
    fn access_instructions_are_among_the_values_and_autre_has_details() {
        let names = AccessNames {
            instructions: "consignes_acces",
            other: "consignes_acces_autre",
        };
        let given = |values: &[&str], other: Option<&str>| AccessInput {
            instructions: values.iter().map(|v| (*v).to_owned()).collect(),
            other: other.map(str::to_owned),
            digicode: Some(" A1234 ".to_owned()),
            key_box: Some("  ".to_owned()),
        };
        assert_eq!(
            check_access(&given(&["Digicode", "Coffre à clé"], None), &names),
            Ok(AccessRecord {
                instructions: r#"["Digicode","Coffre à clé"]"#.to_owned(),
                other: None,
                digicode: Some("A1234".to_owned()),
                key_box: None,
            })
        );
        assert_eq!(
            check_access(&given(&["Badge"], None), &names),
            Err("La valeur « Badge » du champ « consignes_acces » n'est pas autorisée : valeurs possibles : « Sans », « Digicode », « Coffre à clé », « Vigik », « Autre ».".to_owned())
        );
        assert_eq!(
            check_access(&given(&["Autre"], Some(" ")), &names),
            Err("Le champ « consignes_acces_autre » est obligatoire quand « Autre » est choisi dans « consignes_acces ».".to_owned())
        );
        assert_eq!(
            check_access(&given(&["Autre"], Some("Badge au PC")), &names)
                .map(|record| record.other),
            Ok(Some("Badge au PC".to_owned()))
        );
        assert_eq!(
            check_access(&given(&[], None), &names).map(|record| record.instructions),
            Ok("[]".to_owned())
        );
    }
}
