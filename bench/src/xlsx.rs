//! A park spreadsheet as an agency moving to Liftdesk exports it from its
//! old software: one row per equipment, identity, building and a few
//! technical data, headers as people write them.

use std::path::PathBuf;

use rust_xlsxwriter::Workbook;

#[derive(clap::Args)]
pub struct Args {
    /// Rows of equipment.
    #[arg(long, default_value_t = 50_000)]
    rows: u32,
    /// File to write.
    #[arg(long)]
    out: PathBuf,
}

const HEADERS: [&str; 9] = [
    "N° appareil",
    "Type",
    "Adresse",
    "Code postal",
    "Ville",
    "Emplacement",
    "Contrat d'entretien",
    "Charge utile (kg)",
    "Vitesse (m/s)",
];

const STREETS: [&str; 6] = [
    "rue de la Paix",
    "avenue Foch",
    "boulevard Voltaire",
    "rue Lecourbe",
    "quai de Jemmapes",
    "rue de Rivoli",
];
const CITIES: [(&str, &str); 4] = [
    ("75015", "Paris"),
    ("92100", "Boulogne-Billancourt"),
    ("93100", "Montreuil"),
    ("94300", "Vincennes"),
];
const LOADS: [f64; 5] = [320.0, 450.0, 630.0, 1000.0, 1600.0];
const SPEEDS: [f64; 4] = [0.63, 1.0, 1.6, 2.5];

pub fn write(args: Args) -> anyhow::Result<()> {
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    for (c, header) in (0u16..).zip(HEADERS) {
        sheet.write_string(0, c, header)?;
    }
    for n in 1..=args.rows {
        let i = n as usize;
        // About four equipment per building, as in a real park.
        let building = i / 4;
        let (postcode, city) = CITIES[building % CITIES.len()];
        sheet.write_string(n, 0, format!("IMP-{n:06}"))?;
        sheet.write_string(
            n,
            1,
            if i.is_multiple_of(10) {
                "Monte-charge"
            } else {
                "Ascenseur"
            },
        )?;
        sheet.write_string(
            n,
            2,
            format!(
                "{} {}",
                1 + building % 180,
                STREETS[building % STREETS.len()]
            ),
        )?;
        sheet.write_string(n, 3, postcode)?;
        sheet.write_string(n, 4, city)?;
        sheet.write_string(n, 5, format!("Escalier {}", (b'A' + (i % 4) as u8) as char))?;
        sheet.write_string(
            n,
            6,
            if i.is_multiple_of(7) {
                "hors_parc"
            } else {
                "parc"
            },
        )?;
        sheet.write_number(n, 7, LOADS[i % LOADS.len()])?;
        sheet.write_number(n, 8, SPEEDS[i % SPEEDS.len()])?;
    }
    workbook.save(&args.out)?;
    Ok(())
}
