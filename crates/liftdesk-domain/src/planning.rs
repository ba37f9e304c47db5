//! The maintenance plan's weekly proposal: which equipment gets a visit next
//! week, with which technician, on which day. Pure: the service reads the
//! facts (equipment due, technicians, absences, rest, visits already planned)
//! and this module decides, so every rule is tested here.
//!
//! Rules:
//! - the days are the working days (Monday to Friday) given by the caller;
//! - equipment with a late visit is taken first, then by earliest deadline
//!   (then number, then id);
//! - a visit goes to a technician whose sectors cover the building (see
//!   [`building_sector_keys`]), never on a day of absence or of safety rest,
//!   never beyond the technician's daily capacity, counting the visits
//!   already on the planning that day;
//! - among the days up to the deadline, the least loaded (technician, day)
//!   is chosen (ties: earliest day, then the technicians' order); when no day
//!   up to the deadline is free, the least loaded later day (the visit is then
//!   overdue);
//! - equipment that cannot be placed is listed with a French reason.

use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDate;

/// A technician who may receive visits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanTechnician {
    pub id: String,
    pub name: String,
    /// Sectors as entered (`"Paris 15e, Issy-les-Moulineaux"`), split.
    pub sectors: Vec<String>,
    /// Visits a day at most (`technicians.daily_capacity`).
    pub daily_capacity: u32,
    /// Days of absence.
    pub absent: BTreeSet<NaiveDate>,
    /// Days touched by a safety rest after standby duty.
    pub resting: BTreeSet<NaiveDate>,
}

/// Equipment due for a visit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueEquipment {
    pub equipment_id: String,
    pub number: Option<String>,
    /// Keys of the building's sector (see [`building_sector_keys`]).
    pub sector_keys: Vec<String>,
    /// How the building's place reads in a message (`92130 Issy-les-Moulineaux`).
    pub place: Option<String>,
    pub deadline: NaiveDate,
    /// A visit of it is late (planned on a past day and not done, or planned
    /// after its deadline): it is placed before every other.
    pub late: bool,
}

/// A proposed visit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedVisit {
    pub equipment_id: String,
    pub technician_id: String,
    pub day: NaiveDate,
    pub deadline: NaiveDate,
}

/// Equipment left out, and why (French).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplaced {
    pub equipment_id: String,
    pub deadline: NaiveDate,
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proposal {
    pub visits: Vec<ProposedVisit>,
    pub unplaced: Vec<Unplaced>,
}

/// Lower case, trimmed, inner spaces collapsed, accents kept (sector names
/// are typed by the agency and compared as typed).
pub fn normalize_sector(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Splits `technicians.sectors` (comma-separated) into normalized names.
pub fn split_sectors(text: Option<&str>) -> Vec<String> {
    text.unwrap_or("")
        .split(',')
        .map(normalize_sector)
        .filter(|s| !s.is_empty())
        .collect()
}

/// The names under which a building's sector can be written in a
/// technician's sectors: its postal code (`92130`), its city
/// (`issy-les-moulineaux`), and in Paris its arrondissement (`paris 15e`,
/// `paris 1er` or `paris 1e`; 75116 is the 16th).
pub fn building_sector_keys(postal_code: Option<&str>, city: Option<&str>) -> Vec<String> {
    let mut keys = Vec::new();
    let code = postal_code.map(str::trim).unwrap_or("");
    if !code.is_empty() {
        keys.push(normalize_sector(code));
        if code.len() == 5 && code.starts_with("75") && code.bytes().all(|b| b.is_ascii_digit()) {
            let arrondissement = match &code[2..] {
                "116" => Some(16),
                rest if rest.starts_with('0') => rest.parse::<u32>().ok(),
                _ => None,
            };
            if let Some(n @ 1..=20) = arrondissement {
                if n == 1 {
                    keys.push("paris 1er".to_owned());
                }
                keys.push(format!("paris {n}e"));
            }
        }
    }
    let city = city.map(normalize_sector).unwrap_or_default();
    if !city.is_empty() && !keys.contains(&city) {
        keys.push(city);
    }
    keys
}

/// Whether a technician's sectors cover the building.
pub fn covers(technician: &PlanTechnician, sector_keys: &[String]) -> bool {
    technician
        .sectors
        .iter()
        .any(|sector| sector_keys.contains(&normalize_sector(sector)))
}

/// Sorts the equipment: late ones first, then earliest deadline, then
/// number, then id.
fn by_deadline(due: &mut [DueEquipment]) {
    due.sort_by(|a, b| {
        b.late
            .cmp(&a.late)
            .then_with(|| a.deadline.cmp(&b.deadline))
            .then_with(|| a.number.cmp(&b.number))
            .then_with(|| a.equipment_id.cmp(&b.equipment_id))
    });
}

/// The proposal for `days` (working days, in order). `load` counts the
/// visits already on the planning per (technician, day); `technicians` are
/// in their display order (by name), which breaks ties.
pub fn propose(
    days: &[NaiveDate],
    technicians: &[PlanTechnician],
    load: &HashMap<(String, NaiveDate), u32>,
    mut due: Vec<DueEquipment>,
) -> Proposal {
    by_deadline(&mut due);
    // Load and availability per (technician, day) as flat tables, indexed
    // by position: no string keys in the loop.
    let width = days.len();
    let mut count: Vec<u32> = Vec::with_capacity(technicians.len() * width);
    let mut open: Vec<bool> = Vec::with_capacity(technicians.len() * width);
    for technician in technicians {
        for &day in days {
            count.push(
                load.get(&(technician.id.clone(), day))
                    .copied()
                    .unwrap_or(0),
            );
            open.push(!technician.absent.contains(&day) && !technician.resting.contains(&day));
        }
    }
    let sectors: Vec<Vec<String>> = technicians
        .iter()
        .map(|t| t.sectors.iter().map(|s| normalize_sector(s)).collect())
        .collect();
    let mut proposal = Proposal::default();
    for equipment in due {
        let team: Vec<usize> = (0..technicians.len())
            .filter(|&t| sectors[t].iter().any(|s| equipment.sector_keys.contains(s)))
            .collect();
        if equipment.sector_keys.is_empty() {
            proposal.unplaced.push(Unplaced {
                equipment_id: equipment.equipment_id,
                deadline: equipment.deadline,
                reason: "Aucun secteur : l'immeuble de l'équipement n'a ni code postal ni ville."
                    .to_owned(),
            });
            continue;
        }
        if team.is_empty() {
            let place = equipment
                .place
                .clone()
                .unwrap_or_else(|| equipment.sector_keys.join(", "));
            proposal.unplaced.push(Unplaced {
                equipment_id: equipment.equipment_id,
                deadline: equipment.deadline,
                reason: format!(
                    "Aucun technicien actif ne couvre le secteur de l'immeuble ({place})."
                ),
            });
            continue;
        }
        // (load, day index, position in the team) of the best slot, up to
        // the deadline first, then after it.
        let mut best_in_time: Option<(u32, usize, usize)> = None;
        let mut best_late: Option<(u32, usize, usize)> = None;
        for (d, &day) in days.iter().enumerate() {
            for (position, &t) in team.iter().enumerate() {
                let cell = t * width + d;
                let capacity = technicians[t].daily_capacity;
                if !open[cell] || count[cell] >= capacity {
                    continue;
                }
                let slot = (count[cell], d, position);
                let best = if day <= equipment.deadline {
                    &mut best_in_time
                } else {
                    &mut best_late
                };
                if best.is_none_or(|b| slot < b) {
                    *best = Some(slot);
                }
            }
        }
        match best_in_time.or(best_late) {
            Some((_, d, position)) => {
                let t = team[position];
                let technician = &technicians[t];
                let day = days[d];
                count[t * width + d] += 1;
                proposal.visits.push(ProposedVisit {
                    equipment_id: equipment.equipment_id,
                    technician_id: technician.id.clone(),
                    day,
                    deadline: equipment.deadline,
                });
            }
            None => {
                let names = team
                    .iter()
                    .map(|&t| technicians[t].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                let ever_free = team
                    .iter()
                    .any(|&t| open[t * width..(t + 1) * width].iter().any(|&o| o));
                let reason = if ever_free {
                    format!(
                        "Les techniciens du secteur ont atteint leur charge journalière tous les jours de la semaine : {names}."
                    )
                } else {
                    format!(
                        "Les techniciens du secteur sont absents ou en repos de sécurité toute la semaine : {names}."
                    )
                };
                proposal.unplaced.push(Unplaced {
                    equipment_id: equipment.equipment_id,
                    deadline: equipment.deadline,
                    reason,
                });
            }
        }
    }
    proposal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        // Monday 2026-11-30 is d = 30; the week runs to Friday 4 December.
        if d >= 30 {
            NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
        } else {
            NaiveDate::from_ymd_opt(2026, 12, d).unwrap()
        }
    }

    fn week() -> Vec<NaiveDate> {
        vec![day(30), day(1), day(2), day(3), day(4)]
    }

    fn tech(id: &str, sectors: &str, capacity: u32) -> PlanTechnician {
        PlanTechnician {
            id: id.to_owned(),
            name: format!("Tech {id}"),
            sectors: split_sectors(Some(sectors)),
            daily_capacity: capacity,
            absent: BTreeSet::new(),
            resting: BTreeSet::new(),
        }
    }

    fn due(id: &str, postal: &str, city: &str, deadline: NaiveDate) -> DueEquipment {
        DueEquipment {
            equipment_id: id.to_owned(),
            number: Some(format!("N-{id}")),
            sector_keys: building_sector_keys(Some(postal), Some(city)),
            place: Some(format!("{postal} {city}")),
            deadline,
            late: false,
        }
    }

    fn count(proposal: &Proposal, tech: &str, d: NaiveDate) -> usize {
        proposal
            .visits
            .iter()
            .filter(|v| v.technician_id == tech && v.day == d)
            .count()
    }

    #[test]
    fn sector_keys_cover_postal_code_city_and_paris_arrondissements() {
        assert_eq!(
            building_sector_keys(Some("75015"), Some("Paris")),
            vec!["75015", "paris 15e", "paris"]
        );
        assert_eq!(
            building_sector_keys(Some("75001"), Some("Paris")),
            vec!["75001", "paris 1er", "paris 1e", "paris"]
        );
        assert_eq!(
            building_sector_keys(Some("75116"), Some("PARIS")),
            vec!["75116", "paris 16e", "paris"]
        );
        assert_eq!(
            building_sector_keys(Some(" 92130 "), Some("Issy-les-Moulineaux")),
            vec!["92130", "issy-les-moulineaux"]
        );
        assert_eq!(building_sector_keys(None, Some("  ")), Vec::<String>::new());
        assert_eq!(building_sector_keys(Some("75099"), None), vec!["75099"]);
        assert_eq!(
            split_sectors(Some("Paris 15e,  Issy-les-Moulineaux ,,")),
            vec!["paris 15e", "issy-les-moulineaux"]
        );
        let t = tech("a", "Paris  15E", 6);
        assert!(covers(
            &t,
            &building_sector_keys(Some("75015"), Some("Paris"))
        ));
        assert!(!covers(
            &t,
            &building_sector_keys(Some("75016"), Some("Paris"))
        ));
    }

    #[test]
    fn earliest_deadlines_first_and_never_beyond_capacity() {
        let techs = vec![tech("a", "Paris 15e", 2)];
        // Capacity 2 a day over 5 days: 10 visits; 12 are due.
        let mut list: Vec<DueEquipment> = (0..12)
            .map(|i| due(&format!("e{i:02}"), "75015", "Paris", day(20 - (i % 6))))
            .collect();
        list.reverse();
        let proposal = propose(&week(), &techs, &HashMap::new(), list);
        assert_eq!(proposal.visits.len(), 10);
        for d in week() {
            assert_eq!(count(&proposal, "a", d), 2);
        }
        // The two left out have the latest deadline (day 20: i = 0 and 6).
        let mut left: Vec<_> = proposal
            .unplaced
            .iter()
            .map(|u| u.equipment_id.as_str())
            .collect();
        left.sort_unstable();
        assert_eq!(left, ["e00", "e06"]);
        assert_eq!(
            proposal.unplaced[0].reason,
            "Les techniciens du secteur ont atteint leur charge journalière tous les jours de la semaine : Tech a."
        );
    }

    #[test]
    fn visits_already_planned_count_in_the_daily_load() {
        let techs = vec![tech("a", "75015", 1)];
        let mut load = HashMap::new();
        for d in [day(30), day(1), day(2), day(3)] {
            load.insert(("a".to_owned(), d), 1);
        }
        let list = vec![
            due("x", "75015", "Paris", day(30)),
            due("y", "75015", "Paris", day(30)),
        ];
        let proposal = propose(&week(), &techs, &load, list);
        assert_eq!(proposal.visits.len(), 1);
        // Only Friday is free: late, but placed.
        assert_eq!(proposal.visits[0].day, day(4));
        assert_eq!(proposal.visits[0].equipment_id, "x");
        assert_eq!(proposal.unplaced.len(), 1);
        assert_eq!(proposal.unplaced[0].equipment_id, "y");
    }

    #[test]
    fn absence_and_safety_rest_days_are_skipped() {
        let mut a = tech("a", "Paris 15e", 6);
        a.absent = [day(30), day(1), day(2)].into_iter().collect();
        a.resting = [day(3)].into_iter().collect();
        let proposal = propose(
            &week(),
            &[a.clone()],
            &HashMap::new(),
            vec![due("x", "75015", "Paris", day(30))],
        );
        assert_eq!(proposal.visits.len(), 1);
        assert_eq!(proposal.visits[0].day, day(4));

        a.absent.insert(day(4));
        let proposal = propose(
            &week(),
            &[a],
            &HashMap::new(),
            vec![due("x", "75015", "Paris", day(30))],
        );
        assert!(proposal.visits.is_empty());
        assert_eq!(
            proposal.unplaced[0].reason,
            "Les techniciens du secteur sont absents ou en repos de sécurité toute la semaine : Tech a."
        );
    }

    #[test]
    fn only_technicians_of_the_sector_receive_the_visit() {
        let techs = vec![
            tech("a", "Paris 16e", 6),
            tech("b", "Issy-les-Moulineaux", 6),
        ];
        let proposal = propose(
            &week(),
            &techs,
            &HashMap::new(),
            vec![
                due("x", "92130", "Issy-les-Moulineaux", day(20)),
                due("y", "93100", "Montreuil", day(20)),
                DueEquipment {
                    equipment_id: "z".into(),
                    number: None,
                    sector_keys: vec![],
                    place: None,
                    deadline: day(20),
                    late: false,
                },
            ],
        );
        assert_eq!(proposal.visits.len(), 1);
        assert_eq!(proposal.visits[0].technician_id, "b");
        assert_eq!(
            proposal.unplaced,
            vec![
                Unplaced {
                    equipment_id: "z".into(),
                    deadline: day(20),
                    reason: "Aucun secteur : l'immeuble de l'équipement n'a ni code postal ni ville.".into(),
                },
                Unplaced {
                    equipment_id: "y".into(),
                    deadline: day(20),
                    reason: "Aucun technicien actif ne couvre le secteur de l'immeuble (93100 Montreuil).".into(),
                },
            ]
        );
        // (equipment without a number sorts first among equal deadlines)
    }

    #[test]
    fn the_load_is_spread_and_deadlines_are_kept_when_possible() {
        let techs = vec![tech("a", "75015", 6), tech("b", "75015", 6)];
        let list: Vec<_> = (0..10)
            .map(|i| due(&format!("e{i}"), "75015", "Paris", day(20)))
            .collect();
        let proposal = propose(&week(), &techs, &HashMap::new(), list);
        assert_eq!(proposal.visits.len(), 10);
        for d in week() {
            assert_eq!(count(&proposal, "a", d), 1, "{d}");
            assert_eq!(count(&proposal, "b", d), 1, "{d}");
        }
        // A deadline on Tuesday keeps the visit on Monday or Tuesday even
        // when later days are emptier.
        let mut load = HashMap::new();
        load.insert(("a".to_owned(), day(30)), 3);
        load.insert(("a".to_owned(), day(1)), 3);
        let proposal = propose(
            &week(),
            &techs[..1],
            &load,
            vec![due("t", "75015", "Paris", day(1))],
        );
        assert_eq!(proposal.visits[0].day, day(30));
    }

    #[test]
    fn the_proposal_is_deterministic_whatever_the_input_order() {
        let techs = vec![tech("a", "75015", 3), tech("b", "75015,75016", 2)];
        let list: Vec<_> = (0..30)
            .map(|i| {
                due(
                    &format!("e{i:02}"),
                    if i % 3 == 0 { "75016" } else { "75015" },
                    "Paris",
                    week()[i % 5],
                )
            })
            .collect();
        let first = propose(&week(), &techs, &HashMap::new(), list.clone());
        let mut shuffled = list;
        shuffled.reverse();
        shuffled.swap(3, 17);
        let second = propose(&week(), &techs, &HashMap::new(), shuffled);
        assert_eq!(first, second);
        assert_eq!(first.visits.len() + first.unplaced.len(), 30);
        for d in week() {
            assert!(count(&first, "a", d) <= 3);
            assert!(count(&first, "b", d) <= 2);
        }
    }

    #[test]
    fn a_late_visit_is_placed_before_earlier_deadlines() {
        // One slot for the week: the late one takes it, though its deadline
        // is later than the other's.
        let techs = vec![tech("t", "92130", 1)];
        let mut late = due("late", "92130", "Issy-les-Moulineaux", day(25));
        late.late = true;
        let early = due("early", "92130", "Issy-les-Moulineaux", day(5));
        let mut one_day = week();
        one_day.truncate(1);
        let proposal = propose(&one_day, &techs, &HashMap::new(), vec![early, late]);
        assert_eq!(
            proposal
                .visits
                .iter()
                .map(|v| v.equipment_id.as_str())
                .collect::<Vec<_>>(),
            ["late"]
        );
        assert_eq!(proposal.unplaced.len(), 1);
        assert_eq!(proposal.unplaced[0].equipment_id, "early");
    }
}
