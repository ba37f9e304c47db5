//! A technician's record as the agency writes it: name, phone, sectors and
//! daily capacity, checked once for every door (screens, API, CLI).

use crate::text::{field, required_field};

/// Longest name.
pub const MAX_NAME_CHARS: usize = 100;
/// Longest phone number, as typed (spaces, dots, a leading `+`).
pub use crate::text::MAX_PHONE_CHARS;
/// Longest sector name.
pub const MAX_SECTOR_CHARS: usize = 60;
/// Most sectors of one technician.
pub const MAX_SECTORS: usize = 20;
/// Visits a day the planning may give a technician: from 1 to this.
pub const MAX_DAILY_CAPACITY: i64 = 20;
/// The daily capacity when none is given (the schema's default).
pub const DEFAULT_DAILY_CAPACITY: i64 = 6;

/// The safety rest after a standby period, in hours: French law's daily
/// rest (11 consecutive hours) unless the agency's collective agreement
/// says otherwise.
pub const DEFAULT_REST_HOURS: i64 = 11;
/// Longest safety rest the rota can hold.
pub const MAX_REST_HOURS: i64 = 48;

/// Checks the safety rest after a standby period: from 0 to
/// [`MAX_REST_HOURS`] hours (`restHours` in the refusal).
pub fn check_rest_hours(hours: i64) -> Result<i64, String> {
    if (0..=MAX_REST_HOURS).contains(&hours) {
        Ok(hours)
    } else {
        Err(format!(
            "Le champ « restHours » doit être compris entre 0 et {MAX_REST_HOURS} heures."
        ))
    }
}

/// A technician's record as given (wire names in the refusals).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TechnicianInput {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub sectors: Vec<String>,
    pub daily_capacity: Option<i64>,
}

/// A checked record: what is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TechnicianRecord {
    pub name: String,
    pub phone: Option<String>,
    /// Comma-separated without spaces, as the technicians' list shows them
    /// (`planning::split_sectors` reads them); `None` without.
    pub sectors: Option<String>,
    pub daily_capacity: i64,
}

/// Checks a technician's record: a name; a phone of digits, spaces, dots,
/// dashes and a leading `+`; sectors without commas (they are stored
/// comma-separated), duplicates (case ignored) dropped; a daily capacity
/// from 1 to [`MAX_DAILY_CAPACITY`]. The French reason names the field.
pub fn check(input: &TechnicianInput) -> Result<TechnicianRecord, String> {
    Ok(TechnicianRecord {
        name: check_name(input.name.as_deref())?,
        phone: check_phone(input.phone.as_deref())?,
        sectors: check_sectors(&input.sectors)?,
        daily_capacity: check_daily_capacity(
            input.daily_capacity.unwrap_or(DEFAULT_DAILY_CAPACITY),
        )?,
    })
}

/// A change of a technician's record: only the given fields change (a
/// phone given empty is erased; sectors given replace his sectors).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TechnicianPatch {
    pub name: Option<String>,
    pub phone: Option<Option<String>>,
    pub sectors: Option<Vec<String>>,
    pub daily_capacity: Option<i64>,
}

/// The record `before` with the given fields of `patch`, each checked as
/// [`check`] checks it; the fields not given are kept as they are.
pub fn apply(
    before: &TechnicianRecord,
    patch: &TechnicianPatch,
) -> Result<TechnicianRecord, String> {
    Ok(TechnicianRecord {
        name: match &patch.name {
            Some(name) => check_name(Some(name))?,
            None => before.name.clone(),
        },
        phone: match &patch.phone {
            Some(phone) => check_phone(phone.as_deref())?,
            None => before.phone.clone(),
        },
        sectors: match &patch.sectors {
            Some(sectors) => check_sectors(sectors)?,
            None => before.sectors.clone(),
        },
        daily_capacity: match patch.daily_capacity {
            Some(capacity) => check_daily_capacity(capacity)?,
            None => before.daily_capacity,
        },
    })
}

fn check_name(name: Option<&str>) -> Result<String, String> {
    required_field("name", name, MAX_NAME_CHARS)
}

fn check_phone(phone: Option<&str>) -> Result<Option<String>, String> {
    crate::text::phone("phone", phone)
}

fn check_sectors(given: &[String]) -> Result<Option<String>, String> {
    if given.len() > MAX_SECTORS {
        return Err(format!(
            "Le champ « sectors » compte au plus {MAX_SECTORS} secteurs."
        ));
    }
    let mut sectors: Vec<String> = Vec::new();
    for sector in given {
        let Some(sector) = field("sectors", Some(sector), MAX_SECTOR_CHARS)? else {
            continue;
        };
        if sector.contains(',') {
            return Err(format!(
                "Le champ « sectors » : le secteur « {sector} » ne doit pas contenir de virgule (donnez chaque secteur à part)."
            ));
        }
        let key = crate::planning::normalize_sector(&sector);
        if !sectors
            .iter()
            .any(|s| crate::planning::normalize_sector(s) == key)
        {
            sectors.push(sector);
        }
    }
    Ok((!sectors.is_empty()).then(|| sectors.join(",")))
}

fn check_daily_capacity(capacity: i64) -> Result<i64, String> {
    if (1..=MAX_DAILY_CAPACITY).contains(&capacity) {
        Ok(capacity)
    } else {
        Err(format!(
            "Le champ « dailyCapacity » doit être compris entre 1 et {MAX_DAILY_CAPACITY} visites par jour."
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str) -> TechnicianInput {
        TechnicianInput {
            name: Some(name.to_owned()),
            ..TechnicianInput::default()
        }
    }

    #[test]
    fn a_record_is_checked_and_normalized() {
        let record = check(&TechnicianInput {
            name: Some("  Rémi Caron ".to_owned()),
            phone: Some("+33 6 12 34 56 78".to_owned()),
            sectors: vec![
                "Levallois".to_owned(),
                " levallois ".to_owned(),
                "Neuilly".to_owned(),
                " ".to_owned(),
            ],
            daily_capacity: Some(8),
        })
        .expect("valid");
        assert_eq!(
            record,
            TechnicianRecord {
                name: "Rémi Caron".to_owned(),
                phone: Some("+33 6 12 34 56 78".to_owned()),
                sectors: Some("Levallois,Neuilly".to_owned()),
                daily_capacity: 8,
            }
        );
        let plain = check(&input("Bruno")).expect("valid");
        assert_eq!(plain.daily_capacity, DEFAULT_DAILY_CAPACITY);
        assert_eq!(plain.sectors, None);
    }

    #[test]
    fn bad_records_are_refused_naming_the_field() {
        assert_eq!(
            check(&input("  ")),
            Err("Le champ « name » est obligatoire.".to_owned())
        );
        for phone in [
            "06 12 a4",
            "12",
            "0612+345678",
            "+33 6 12 34 56 78 90 12 34",
        ] {
            let err = check(&TechnicianInput {
                phone: Some(phone.to_owned()),
                ..input("Rémi")
            })
            .expect_err(phone);
            assert!(err.starts_with("Le champ « phone »"), "{err}");
        }
        assert!(
            check(&TechnicianInput {
                sectors: vec!["Paris, Neuilly".to_owned()],
                ..input("Rémi")
            })
            .expect_err("comma")
            .contains("virgule")
        );
        assert_eq!(check_rest_hours(11), Ok(11));
        assert_eq!(check_rest_hours(0), Ok(0));
        assert_eq!(
            check_rest_hours(49),
            Err("Le champ « restHours » doit être compris entre 0 et 48 heures.".to_owned())
        );
        for capacity in [0, -1, MAX_DAILY_CAPACITY + 1] {
            assert_eq!(
                check(&TechnicianInput {
                    daily_capacity: Some(capacity),
                    ..input("Rémi")
                }),
                Err(
                    "Le champ « dailyCapacity » doit être compris entre 1 et 20 visites par jour."
                        .to_owned()
                )
            );
        }
    }

    #[test]
    fn an_edit_checks_only_the_fields_it_gives() {
        let before = TechnicianRecord {
            // Written before the rules (by the account that is him): kept.
            name: "N".repeat(150),
            phone: None,
            sectors: Some("A, B".to_owned()),
            daily_capacity: 6,
        };
        let after = apply(
            &before,
            &TechnicianPatch {
                daily_capacity: Some(8),
                ..TechnicianPatch::default()
            },
        )
        .expect("capacity only");
        assert_eq!(
            after,
            TechnicianRecord {
                daily_capacity: 8,
                ..before.clone()
            }
        );
        assert_eq!(
            apply(
                &before,
                &TechnicianPatch {
                    name: Some(" ".to_owned()),
                    ..TechnicianPatch::default()
                }
            ),
            Err("Le champ « name » est obligatoire.".to_owned())
        );
        assert_eq!(
            apply(
                &before,
                &TechnicianPatch {
                    phone: Some(None),
                    sectors: Some(vec!["Neuilly".to_owned()]),
                    ..TechnicianPatch::default()
                }
            )
            .map(|r| (r.phone, r.sectors)),
            Ok((None, Some("Neuilly".to_owned())))
        );
    }
}
