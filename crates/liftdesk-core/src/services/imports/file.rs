//! Reading an uploaded spreadsheet into a table of texts, as a person sees
//! it in a spreadsheet program: the first sheet of an `.xlsx` workbook
//! (calamine), or a `.csv` file (the `csv` crate) in UTF-8 (with or without
//! BOM), UTF-16 with BOM or Windows-1252, delimited by `;`, `,` or a tab
//! (detected on the header line), with quoted fields that may hold line
//! breaks.
//!
//! The header is the first row that holds anything; the rows below are the
//! data rows, numbered as the spreadsheet numbers them (header of a file
//! starting at the top = row 1), blank rows skipped. Every refusal is a 422
//! with a French reason, except a file past `MAX_FILE_BYTES` and a workbook
//! past `MAX_XLSX_EXPANDED_BYTES` once decompressed (413).

use std::borrow::Cow;
use std::io::{Cursor, Read as _};

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use calamine::{DataRef, Reader, Xlsx};
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult};
use crate::text::fold;

/// Largest file accepted, once decoded from base64: 32 Mio (a park of
/// 50 000 equipment with twenty columns is about 8 Mio in CSV, 4 Mio in xlsx).
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;
/// Most data rows read from one file.
pub const MAX_DATA_ROWS: usize = 100_000;
/// Most columns of one file.
pub const MAX_COLUMNS: usize = 200;
/// Longest file name.
pub const MAX_NAME_CHARS: usize = 255;
/// Most bytes the parts of an `.xlsx` workbook may hold once decompressed:
/// 256 Mio, eight times the file limit (the workbook of 50 000 equipment
/// expands to about 60 Mio). The xlsx reader keeps some parts whole in
/// memory: a few Mio compressed to a thousandth of their size (a « zip
/// bomb ») would otherwise take gigabytes of the desktop's memory.
pub const MAX_XLSX_EXPANDED_BYTES: u64 = 256 * 1024 * 1024;
/// Most parts of an `.xlsx` workbook (a workbook has a dozen, plus one per
/// sheet, image or comment).
const MAX_XLSX_PARTS: usize = 10_000;

/// The kinds of file read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Csv,
    Xlsx,
}

/// One data row: its number in the spreadsheet and one text per column
/// (trimmed; empty when the cell is).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRow {
    #[serde(rename = "n")]
    pub number: u32,
    #[serde(rename = "c")]
    pub cells: Vec<String>,
}

/// A file as read: its header and its data rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub columns: Vec<String>,
    /// Spreadsheet letter of each column (`A`, `B`… `AA`), for messages.
    pub letters: Vec<String>,
    pub rows: Vec<TableRow>,
}

/// The letter(s) a spreadsheet shows for a 0-based column index.
pub fn column_letter(index: usize) -> String {
    let mut n = index + 1;
    let mut letters = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        letters.push(char::from(b'A' + rem as u8));
        n = (n - 1) / 26;
    }
    letters.iter().rev().collect()
}

fn too_large() -> AppError {
    AppError::PayloadTooLarge(format!(
        "Le fichier dépasse la taille maximale acceptée ({} Mio).",
        MAX_FILE_BYTES / (1024 * 1024)
    ))
}

/// The kind of file its name says (`.csv` or `.xlsx`, any case), after
/// checking the name itself.
pub fn kind_of(name: &str) -> AppResult<FileKind> {
    let Some(name) = crate::domain::text::field("name", Some(name), MAX_NAME_CHARS)
        .map_err(AppError::unprocessable)?
    else {
        return Err(AppError::unprocessable(
            "Le champ « name » est obligatoire : le nom du fichier, avec son extension .csv ou .xlsx.",
        ));
    };
    let lower = name.to_lowercase();
    if lower.ends_with(".csv") && lower.len() > 4 {
        Ok(FileKind::Csv)
    } else if lower.ends_with(".xlsx") && lower.len() > 5 {
        Ok(FileKind::Xlsx)
    } else {
        Err(AppError::unprocessable(format!(
            "Le fichier « {name} » n'est pas accepté : seuls les fichiers .csv et .xlsx peuvent être importés."
        )))
    }
}

/// The bytes of `content` (standard base64, padding optional, line breaks
/// and spaces ignored): 413 past `MAX_FILE_BYTES`, 422 when not base64 or
/// empty.
pub fn decode_content(content: &str) -> AppResult<Vec<u8>> {
    let bytes = decode_base64_within(content, MAX_FILE_BYTES, too_large)?;
    if bytes.is_empty() {
        return Err(AppError::unprocessable("Le fichier est vide."));
    }
    Ok(bytes)
}

/// The bytes of the base64 field `content` of an upload (standard alphabet,
/// padding optional, line breaks and spaces ignored): `too_large` past
/// `max_bytes` (checked before decoding too), 422 when not base64.
pub fn decode_base64_within(
    content: &str,
    max_bytes: usize,
    too_large: impl Fn() -> AppError,
) -> AppResult<Vec<u8>> {
    // Four characters of base64 hold three bytes: refuse before decoding.
    if content.len() / 4 * 3 > max_bytes + 3 * 1024 {
        return Err(too_large());
    }
    let compact: String = content
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let engine = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let bytes = engine.decode(compact.as_bytes()).map_err(|_| {
        AppError::unprocessable(
            "Le champ « content » n'est pas du base64 valide : envoyez le contenu du fichier encodé en base64 (alphabet standard).",
        )
    })?;
    if bytes.len() > max_bytes {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Reads a file of that kind into its table.
pub fn read(kind: FileKind, name: &str, bytes: &[u8]) -> AppResult<Table> {
    let grid = match kind {
        FileKind::Csv => read_csv(name, bytes)?,
        FileKind::Xlsx => read_xlsx(name, bytes)?,
    };
    build_table(grid)
}

/// Non-blank rows as read, before the header is taken apart: (row number,
/// (0-based column, text) for each non-empty cell, in column order).
struct Grid {
    rows: Vec<(u32, Vec<(usize, String)>)>,
}

impl Grid {
    /// Adds a row if it holds anything; refuses a file past the row limit.
    fn push(&mut self, number: u32, cells: Vec<(usize, String)>) -> AppResult<()> {
        if cells.is_empty() {
            return Ok(());
        }
        // The header plus MAX_DATA_ROWS data rows.
        if self.rows.len() > MAX_DATA_ROWS {
            return Err(AppError::unprocessable(format!(
                "Le fichier compte plus de {} lignes de données : découpez-le en plusieurs fichiers.",
                thousands(MAX_DATA_ROWS)
            )));
        }
        self.rows.push((number, cells));
        Ok(())
    }
}

/// `100 000`: a count written the French way.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

fn build_table(grid: Grid) -> AppResult<Table> {
    let mut rows = grid.rows.into_iter();
    let Some((header_number, header)) = rows.next() else {
        return Err(AppError::unprocessable(
            "Le fichier ne contient aucune ligne : il faut une ligne d'en-tête (les noms des colonnes) puis une ligne par élément à importer.",
        ));
    };
    let data: Vec<(u32, Vec<(usize, String)>)> = rows.collect();
    if data.is_empty() {
        return Err(AppError::unprocessable(format!(
            "Le fichier ne contient que sa ligne d'en-tête (ligne {header_number}) : aucune ligne de données à importer."
        )));
    }
    // The header's span: from its first to its last named column.
    let first = header.first().map_or(0, |(col, _)| *col);
    let last = header.last().map_or(0, |(col, _)| *col);
    if last - first + 1 > MAX_COLUMNS {
        return Err(AppError::unprocessable(format!(
            "Le fichier compte plus de {MAX_COLUMNS} colonnes."
        )));
    }
    // A data cell outside the header's span has no column name.
    for (number, cells) in &data {
        if let Some((col, _)) = cells.iter().find(|(col, _)| *col < first || *col > last) {
            return Err(AppError::unprocessable(format!(
                "Ligne {number}, colonne {} : une valeur se trouve hors des colonnes nommées par l'en-tête (ligne {header_number}). Nommez cette colonne ou supprimez la valeur.",
                column_letter(*col)
            )));
        }
    }
    // Columns kept: the named ones, and unnamed ones only if they hold data.
    let mut kept: Vec<(usize, String)> = Vec::new();
    for col in first..=last {
        let name = header
            .iter()
            .find(|(c, _)| *c == col)
            .map(|(_, text)| text.clone());
        let used = data
            .iter()
            .any(|(_, cells)| cells.iter().any(|(c, _)| *c == col));
        match name {
            Some(name) => kept.push((col, name)),
            None if used => {
                return Err(AppError::unprocessable(format!(
                    "La colonne {} n'a pas de nom dans la ligne d'en-tête (ligne {header_number}) alors qu'elle contient des valeurs : nommez-la ou supprimez-la.",
                    column_letter(col)
                )));
            }
            None => {}
        }
    }
    for (i, (col, name)) in kept.iter().enumerate() {
        if let Some((other_col, other)) = kept[..i]
            .iter()
            .find(|(_, other)| fold(other) == fold(name))
        {
            return Err(AppError::unprocessable(format!(
                "Les colonnes {} (« {other} ») et {} (« {name} ») portent le même nom : chaque colonne doit avoir un nom distinct.",
                column_letter(*other_col),
                column_letter(*col)
            )));
        }
    }
    let rows = data
        .into_iter()
        .map(|(number, cells)| TableRow {
            number,
            cells: kept
                .iter()
                .map(|(col, _)| {
                    cells
                        .iter()
                        .find(|(c, _)| c == col)
                        .map(|(_, text)| text.clone())
                        .unwrap_or_default()
                })
                .collect(),
        })
        .collect();
    Ok(Table {
        letters: kept.iter().map(|(col, _)| column_letter(*col)).collect(),
        columns: kept.into_iter().map(|(_, name)| name).collect(),
        rows,
    })
}

// -- CSV -----------------------------------------------------------------------

/// The text of a CSV file: UTF-8 (a BOM is dropped), UTF-16 with its BOM,
/// else Windows-1252 (what Excel writes as « CSV (séparateur : point-virgule) »
/// on a French Windows).
fn decode_text<'a>(name: &str, bytes: &'a [u8]) -> AppResult<Cow<'a, str>> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return std::str::from_utf8(rest).map(Cow::Borrowed).map_err(|_| {
            AppError::unprocessable(format!(
                "Le fichier « {name} » s'annonce en UTF-8 mais contient des caractères qui n'en sont pas : enregistrez-le de nouveau en « CSV UTF-8 »."
            ))
        });
    }
    if let Some((encoding, _)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, had_errors) = encoding.decode_with_bom_removal(bytes);
        if had_errors {
            return Err(AppError::unprocessable(format!(
                "Le fichier « {name} » s'annonce en {} mais ne l'est pas entièrement.",
                encoding.name()
            )));
        }
        return Ok(text);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Cow::Borrowed(text)),
        Err(_) => Ok(encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0),
    }
}

/// The delimiter of the header line (up to the first line break outside
/// quotes): the most frequent of `;`, `,` and tab outside quotes; `;` when
/// tied or when there is none (a single column).
fn detect_delimiter(text: &str) -> u8 {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            '\n' | '\r' if !quoted => break,
            ';' if !quoted => counts[0] += 1,
            ',' if !quoted => counts[1] += 1,
            '\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let delimiters = [b';', b',', b'\t'];
    let mut best = 0;
    for i in 1..3 {
        if counts[i] > counts[best] {
            best = i;
        }
    }
    delimiters[best]
}

/// The spreadsheet row of each record of a CSV text (the records the `csv`
/// crate reads: every line but the empty ones), a line break inside a
/// quoted field staying in its record; and whether a quoted field is left
/// open at the end. A quote opens a quoted field only at the start of a
/// field, `""` inside one is a quote, as the `csv` crate reads them.
fn record_rows(text: &str, delimiter: u8) -> (Vec<u32>, bool) {
    let delimiter = char::from(delimiter);
    let mut rows = Vec::new();
    let mut row: u32 = 1;
    let mut quoted = false;
    let mut at_field_start = true;
    let mut line_is_empty = true;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                } else {
                    quoted = false;
                }
            }
            continue;
        }
        match c {
            '\n' | '\r' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                if !line_is_empty {
                    rows.push(row);
                }
                row = row.saturating_add(1);
                line_is_empty = true;
                at_field_start = true;
            }
            '"' if at_field_start => {
                quoted = true;
                line_is_empty = false;
                at_field_start = false;
            }
            c => {
                line_is_empty = false;
                at_field_start = c == delimiter;
            }
        }
    }
    if !line_is_empty {
        rows.push(row);
    }
    (rows, quoted)
}

fn read_csv(name: &str, bytes: &[u8]) -> AppResult<Grid> {
    let text = decode_text(name, bytes)?;
    if text.contains('\0') {
        return Err(AppError::unprocessable(format!(
            "Le fichier « {name} » n'est pas un fichier texte CSV (il contient des données binaires)."
        )));
    }
    let delimiter = detect_delimiter(&text);
    let (rows, left_open) = record_rows(&text, delimiter);
    if left_open {
        return Err(AppError::unprocessable(format!(
            "Le fichier « {name} » n'a pas pu être lu : un guillemet (\") ouvre une valeur qui n'est jamais refermée."
        )));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut grid = Grid { rows: Vec::new() };
    let mut record = csv::StringRecord::new();
    let mut index = 0usize;
    loop {
        let more = reader.read_record(&mut record).map_err(|err| {
            let line = err.position().map_or(0, csv::Position::line);
            AppError::unprocessable(format!(
                "Le fichier « {name} » n'a pas pu être lu (ligne {line})."
            ))
        })?;
        if !more {
            break;
        }
        let number = rows
            .get(index)
            .copied()
            .unwrap_or_else(|| u32::try_from(index + 1).unwrap_or(u32::MAX));
        index += 1;
        let cells = record
            .iter()
            .enumerate()
            .filter_map(|(col, field)| {
                let text = field.trim();
                (!text.is_empty()).then(|| (col, text.to_owned()))
            })
            .collect();
        grid.push(number, cells)?;
    }
    Ok(grid)
}

// -- XLSX ----------------------------------------------------------------------

/// Reads the first sheet. calamine panics on some malformed files (an
/// arithmetic overflow on a cell reference such as `ZZZZZZZZ1` or a
/// dimension `B2:A1`, in builds with overflow checks): such a file is
/// unreadable, a 422 like any other, never a failed request.
fn read_xlsx(name: &str, bytes: &[u8]) -> AppResult<Grid> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        read_xlsx_cells(name, bytes)
    }))
    .unwrap_or_else(|_| {
        tracing::debug!("classeur illisible : le lecteur xlsx a paniqué");
        Err(AppError::unprocessable(format!(
            "Le fichier « {name} » n'est pas un classeur Excel (.xlsx) lisible."
        )))
    })
}

fn read_xlsx_cells(name: &str, bytes: &[u8]) -> AppResult<Grid> {
    let unreadable = || {
        AppError::unprocessable(format!(
            "Le fichier « {name} » n'est pas un classeur Excel (.xlsx) lisible."
        ))
    };
    check_expansion(name, bytes, MAX_XLSX_EXPANDED_BYTES)?;
    let mut workbook: Xlsx<_> =
        calamine::open_workbook_from_rs(Cursor::new(bytes)).map_err(|_| unreadable())?;
    let Some(sheet) = workbook.sheet_names().first().cloned() else {
        return Err(AppError::unprocessable(format!(
            "Le classeur « {name} » ne contient aucune feuille."
        )));
    };
    let mut cells = workbook
        .worksheet_cells_reader(&sheet)
        .map_err(|_| unreadable())?;
    let mut grid = Grid { rows: Vec::new() };
    let mut current: Option<(u32, Vec<(usize, String)>)> = None;
    while let Some(cell) = cells.next_cell().map_err(|_| unreadable())? {
        let (row, col) = cell.get_position();
        let text = cell_text(cell.get_value());
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let number = row.saturating_add(1);
        let col = usize::try_from(col).unwrap_or(usize::MAX);
        match &mut current {
            Some((n, row_cells)) if *n == number => row_cells.push((col, text.to_owned())),
            _ => {
                if let Some((n, row_cells)) = current.take() {
                    grid.push(n, row_cells)?;
                }
                current = Some((number, vec![(col, text.to_owned())]));
            }
        }
    }
    if let Some((n, row_cells)) = current {
        grid.push(n, row_cells)?;
    }
    for (_, row_cells) in &mut grid.rows {
        row_cells.sort_by_key(|(col, _)| *col);
    }
    Ok(grid)
}

/// Refuses a workbook whose parts hold more than `limit` bytes once
/// decompressed (413, like a file past `MAX_FILE_BYTES`). The parts are
/// decompressed and counted, never kept, and the count stops at the limit:
/// the sizes an archive declares for its parts can lie.
fn check_expansion(name: &str, bytes: &[u8], limit: u64) -> AppResult<()> {
    let unreadable = || {
        AppError::unprocessable(format!(
            "Le fichier « {name} » n'est pas un classeur Excel (.xlsx) lisible."
        ))
    };
    let too_big = || {
        AppError::PayloadTooLarge(format!(
            "Le classeur « {name} » dépasse {} Mio une fois décompressé (taille maximale acceptée) : répartissez ses lignes entre plusieurs fichiers.",
            limit / (1024 * 1024)
        ))
    };
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|_| unreadable())?;
    if archive.len() > MAX_XLSX_PARTS {
        return Err(unreadable());
    }
    let mut left = limit;
    for index in 0..archive.len() {
        let mut part = archive.by_index(index).map_err(|_| unreadable())?;
        let read = std::io::copy(&mut (&mut part).take(left + 1), &mut std::io::sink())
            .map_err(|_| unreadable())?;
        if read > left {
            return Err(too_big());
        }
        left -= read;
    }
    Ok(())
}

/// A cell as a spreadsheet shows it: whole numbers without decimals
/// (`630`, not `630.0`), others with a dot and at most 15 significant digits
/// (`0.3`, not `0.30000000000000004`), dates `AAAA-MM-JJ` (with ` HH:MM`
/// when there is a time), booleans `VRAI`/`FAUX`, errors as shown (`#N/A`).
pub fn cell_text(value: &DataRef<'_>) -> String {
    match value {
        DataRef::Int(n) => n.to_string(),
        DataRef::Float(f) => number_text(*f),
        DataRef::String(s) => s.clone(),
        DataRef::SharedString(s) => (*s).to_owned(),
        DataRef::Bool(true) => "VRAI".to_owned(),
        DataRef::Bool(false) => "FAUX".to_owned(),
        DataRef::DateTime(dt) if dt.is_duration() => {
            let seconds = (dt.as_f64() * 86_400.0).round() as i64;
            format!(
                "{:02}:{:02}:{:02}",
                seconds / 3600,
                (seconds % 3600) / 60,
                seconds % 60
            )
        }
        DataRef::DateTime(dt) => {
            let (y, mo, d, h, mi, s, _) = dt.to_ymd_hms_milli();
            let time = if s == 0 {
                format!("{h:02}:{mi:02}")
            } else {
                format!("{h:02}:{mi:02}:{s:02}")
            };
            if dt.as_f64() < 1.0 {
                time
            } else if (h, mi, s) == (0, 0, 0) {
                format!("{y:04}-{mo:02}-{d:02}")
            } else {
                format!("{y:04}-{mo:02}-{d:02} {time}")
            }
        }
        DataRef::DateTimeIso(s) => s
            .strip_suffix("T00:00:00")
            .map_or_else(|| s.replacen('T', " ", 1), str::to_owned),
        DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(e) => e.to_string(),
        DataRef::Empty => String::new(),
    }
}

/// A number as a spreadsheet's general format shows it, with a dot.
pub fn number_text(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    // 15 significant digits, as a spreadsheet keeps them.
    let rounded: f64 = format!("{value:.14e}").parse().unwrap_or(value);
    if rounded.fract() == 0.0 && rounded.abs() < 1e15 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv_table(bytes: &[u8]) -> Result<Table, (u16, String)> {
        read(FileKind::Csv, "parc.csv", bytes)
            .map_err(|e| (e.status().as_u16(), e.public_message()))
    }

    #[test]
    fn names_give_the_kind() {
        assert_eq!(kind_of("Parc.CSV").ok(), Some(FileKind::Csv));
        assert_eq!(kind_of(" parc 2026.xlsx ").ok(), Some(FileKind::Xlsx));
        for bad in ["parc.xls", "parc.pdf", ".csv", "parc", "", "parc.csv.txt"] {
            assert_eq!(
                kind_of(bad).map_err(|e| e.status().as_u16()),
                Err(422),
                "{bad}"
            );
        }
    }

    #[test]
    fn content_is_base64_with_or_without_padding_and_line_breaks() {
        assert_eq!(decode_content("YWJj").ok(), Some(b"abc".to_vec()));
        assert_eq!(decode_content("YWI=").ok(), Some(b"ab".to_vec()));
        assert_eq!(decode_content("YWI").ok(), Some(b"ab".to_vec()));
        assert_eq!(decode_content("YW\r\nJj").ok(), Some(b"abc".to_vec()));
        let status = |c: &str| decode_content(c).map_err(|e| e.status().as_u16());
        assert_eq!(status("pas du base64 !"), Err(422));
        assert_eq!(status(""), Err(422));
        assert_eq!(status(&"A".repeat(MAX_FILE_BYTES / 3 * 4 + 8192)), Err(413));
    }

    #[test]
    fn letters_are_the_spreadsheet_ones() {
        assert_eq!(column_letter(0), "A");
        assert_eq!(column_letter(25), "Z");
        assert_eq!(column_letter(26), "AA");
        assert_eq!(column_letter(27), "AB");
        assert_eq!(column_letter(701), "ZZ");
        assert_eq!(column_letter(702), "AAA");
    }

    #[test]
    fn numbers_read_as_shown() {
        assert_eq!(number_text(630.0), "630");
        assert_eq!(number_text(1.6), "1.6");
        assert_eq!(number_text(0.1 + 0.2), "0.3");
        assert_eq!(number_text(73282932000074.0), "73282932000074");
        assert_eq!(number_text(-2.5), "-2.5");
    }

    #[test]
    fn csv_delimiters_encodings_and_quoted_line_breaks() {
        let table =
            csv_table(b"Num\xc3\xa9ro;Adresse\nA1;\"3 rue X\nB\xc3\xa2t. B\"\nA2;4 rue Y\n")
                .expect("utf-8");
        assert_eq!(table.columns, ["Numéro", "Adresse"]);
        assert_eq!(table.rows.len(), 2);
        assert_eq!(table.rows[0].cells, ["A1", "3 rue X\nBât. B"]);
        assert_eq!(table.rows[0].number, 2);
        assert_eq!(table.rows[1].number, 3);

        let bom = csv_table(b"\xEF\xBB\xBFNum\xc3\xa9ro,Ville\nA1,\"Lyon, 3e\"\n").expect("bom");
        assert_eq!(bom.columns, ["Numéro", "Ville"]);
        assert_eq!(bom.rows[0].cells, ["A1", "Lyon, 3e"]);

        let cp1252 = csv_table(b"Nom;Ville\nR\xe9sidence \x9cuvre;Besan\xe7on\n").expect("1252");
        assert_eq!(cp1252.rows[0].cells, ["Résidence œuvre", "Besançon"]);

        let utf16: Vec<u8> = std::iter::once([0xFF, 0xFE])
            .chain(
                "Nom\tVille\r\nÉtoile\tNîmes\r\n"
                    .encode_utf16()
                    .map(u16::to_le_bytes),
            )
            .flatten()
            .collect();
        let table = csv_table(&utf16).expect("utf-16");
        assert_eq!(table.rows[0].cells, ["Étoile", "Nîmes"]);
    }

    #[test]
    fn csv_blank_lines_keep_the_row_numbers() {
        let table = csv_table(b"A;B\r\n\r\n1;\"x\r\ny\"\r\n;\r\n2;z\r\n").expect("read");
        let numbers: Vec<u32> = table.rows.iter().map(|r| r.number).collect();
        assert_eq!(numbers, [3, 5]);
        // A quote inside an unquoted field is a character.
        let table =
            csv_table(b"Nom;Taille\n\n\nEcran;12\" pouces\nB;\"a \"\"b\"\"\"\n").expect("read");
        assert_eq!(table.rows[0].cells, ["Ecran", "12\" pouces"]);
        assert_eq!(table.rows[1].cells, ["B", "a \"b\""]);
        let numbers: Vec<u32> = table.rows.iter().map(|r| r.number).collect();
        assert_eq!(numbers, [4, 5]);
    }

    #[test]
    fn refusals() {
        let message = |bytes: &[u8]| csv_table(bytes).map(|_| ()).unwrap_err();
        assert!(message(b"").1.contains("aucune ligne"));
        assert!(message(b"A;B\n").1.contains("que sa ligne d'en-tête"));
        assert!(message(b"A;B\n1;\"2\n").1.contains("guillemet"));
        assert!(message(b"A;a\n1;2\n").1.contains("même nom"));
        assert!(
            message(b"A;;C\n1;2;3\n")
                .1
                .contains("La colonne B n'a pas de nom")
        );
        assert!(message(b"A;B\n1;2;3\n").1.contains("Ligne 2, colonne C"));
        assert!(message(b"A\0;B\n1;2\n").1.contains("binaires"));
        // An unnamed column without data is dropped.
        assert_eq!(
            csv_table(b"A;;C\n1;;3\n").expect("read").columns,
            ["A", "C"]
        );
        let xlsx = read(FileKind::Xlsx, "parc.xlsx", b"Numero;Adresse\n").unwrap_err();
        assert_eq!(xlsx.status().as_u16(), 422);
        assert!(xlsx.public_message().contains("classeur Excel"));
    }

    /// A workbook of `parts` (name, content), deflated as Excel does.
    fn zipped(parts: &[(&str, &[u8])]) -> Vec<u8> {
        use std::io::Write as _;
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, content) in parts {
            out.start_file(*name, options).expect("part");
            out.write_all(content).expect("write");
        }
        out.finish().expect("finish").into_inner()
    }

    #[test]
    fn a_workbook_expanding_past_the_limit_is_refused_before_it_is_read() {
        // 2 Mio of one repeated byte deflate to a few Kio.
        let expanding = vec![b' '; 2 * 1024 * 1024];
        let bomb = zipped(&[
            ("[Content_Types].xml", b"<Types/>"),
            ("xl/sharedStrings.xml", &expanding),
        ]);
        assert!(bomb.len() < 64 * 1024, "{}", bomb.len());
        let refused = check_expansion("parc.xlsx", &bomb, 1024 * 1024).unwrap_err();
        assert_eq!(refused.status().as_u16(), 413);
        assert_eq!(
            refused.public_message(),
            "Le classeur « parc.xlsx » dépasse 1 Mio une fois décompressé (taille maximale acceptée) : répartissez ses lignes entre plusieurs fichiers."
        );
        // The same parts fit a higher limit; the count is of all parts
        // together, not of each one.
        check_expansion("parc.xlsx", &bomb, 3 * 1024 * 1024).expect("within the limit");
        let halves = zipped(&[
            ("xl/a.xml", &expanding[..768 * 1024]),
            ("xl/b.xml", &expanding[..768 * 1024]),
        ]);
        assert_eq!(
            check_expansion("parc.xlsx", &halves, 1024 * 1024)
                .unwrap_err()
                .status()
                .as_u16(),
            413
        );
        // Not an archive at all: unreadable, as before.
        let unreadable = check_expansion("parc.xlsx", b"Numero;Adresse\n", 1024).unwrap_err();
        assert_eq!(unreadable.status().as_u16(), 422);
    }

    #[test]
    fn a_real_workbook_passes_the_expansion_check_and_is_read() {
        let mut workbook = rust_xlsxwriter::Workbook::new();
        let sheet = workbook.add_worksheet();
        sheet.write(0, 0, "Numéro").expect("cell");
        sheet.write(0, 1, "Adresse").expect("cell");
        for row in 1..=200u32 {
            sheet.write(row, 0, format!("ASC-{row}")).expect("cell");
            sheet.write(row, 1, "12 rue des Lilas").expect("cell");
        }
        let bytes = workbook.save_to_buffer().expect("save");
        check_expansion("parc.xlsx", &bytes, MAX_XLSX_EXPANDED_BYTES).expect("ordinary workbook");
        let table = read(FileKind::Xlsx, "parc.xlsx", &bytes).expect("read");
        assert_eq!(table.columns, ["Numéro", "Adresse"]);
        assert_eq!(table.rows.len(), 200);
    }
}
