//! Lists exported as files: a table (French headers, typed cells) written to
//! CSV as French Excel opens it (UTF-8 with a byte-order mark, `;` between
//! fields, CRLF, `1234,56` for amounts, `28/11/2026` for days) or to XLSX
//! (rust_xlsxwriter: real numbers and dates with French formats, the header
//! row bold, frozen and filterable).
//!
//! A documents' export (the e-invoices of a period) is a zip of files
//! ([`zip`]).
//!
//! A table is made from the rows a list answers (JSON objects, as the web
//! application receives them): each column names its field by path
//! (`client.name`) and says how to read it, so an export shows what its list
//! shows.

use chrono::{NaiveDate, NaiveDateTime};
use serde_json::Value;

use crate::domain::time;

/// How a field is read and written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// `YYYY-MM-DD`.
    Date,
    /// A UTC timestamp, written in Paris time.
    Timestamp,
    /// Euros (a JSON number), written with two decimals.
    Money,
    /// A decimal number.
    Number,
    /// `true` / `false` → « Oui » / « Non ».
    YesNo,
}

/// One column: its French header, the field it reads, how, and its width
/// in the spreadsheet (characters).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub header: String,
    /// Dotted path in the row (`client.name`); an array is joined with
    /// « , » (its objects by their `name` or `label`).
    pub path: String,
    pub kind: Kind,
    pub width: f64,
}

impl Column {
    pub fn new(header: &str, path: &str, kind: Kind, width: f64) -> Self {
        Self {
            header: header.to_owned(),
            path: path.to_owned(),
            kind,
            width,
        }
    }
}

/// A value as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    Text(String),
    Date(NaiveDate),
    DateTime(NaiveDateTime),
    /// Cents.
    Money(i64),
    Number(f64),
}

/// The file's content: a title (the sheet's name), columns and rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub title: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn new(title: &str, columns: Vec<Column>) -> Self {
        Self {
            title: title.to_owned(),
            columns,
            rows: Vec::new(),
        }
    }

    /// Appends a row read from a list's JSON row.
    pub fn push_json(&mut self, row: &Value) {
        let cells = self.columns.iter().map(|c| cell_of(row, c)).collect();
        self.rows.push(cells);
    }
}

/// The field at `path` of `row`.
fn field<'a>(row: &'a Value, path: &str) -> &'a Value {
    path.split('.')
        .try_fold(row, |value, key| value.get(key))
        .unwrap_or(&Value::Null)
}

fn text_of(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Bool(true) => Some("Oui".to_owned()),
        Value::Bool(false) => Some("Non".to_owned()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(items) => {
            let parts: Vec<String> = items
                .iter()
                .filter_map(|item| match item {
                    Value::Object(_) => text_of(
                        item.get("name")
                            .or_else(|| item.get("label"))
                            .unwrap_or(&Value::Null),
                    ),
                    other => text_of(other),
                })
                .collect();
            (!parts.is_empty()).then(|| parts.join(", "))
        }
        Value::Object(_) => text_of(
            value
                .get("name")
                .or_else(|| value.get("label"))
                .unwrap_or(&Value::Null),
        ),
    }
}

/// The cell of `column` in `row`: a value that does not read as its kind
/// is written as text (never dropped).
pub fn cell_of(row: &Value, column: &Column) -> Cell {
    let value = field(row, &column.path);
    if value.is_null() {
        return Cell::Empty;
    }
    let read = match column.kind {
        Kind::Text | Kind::YesNo => None,
        Kind::Date => value
            .as_str()
            .and_then(|s| NaiveDate::parse_from_str(s.get(..10)?, "%Y-%m-%d").ok())
            .map(Cell::Date),
        Kind::Timestamp => value
            .as_str()
            .and_then(time::parse_timestamp)
            .map(|at| Cell::DateTime(time::paris_local(at))),
        Kind::Money => value
            .as_f64()
            .map(|euros| Cell::Money((euros * 100.0).round() as i64)),
        Kind::Number => value.as_f64().map(Cell::Number),
    };
    read.unwrap_or_else(|| text_of(value).map_or(Cell::Empty, Cell::Text))
}

// -- CSV ------------------------------------------------------------------------

/// `1234,56` (no thousands separator: Excel reads it as a number).
fn french_decimal(value: f64, decimals: usize) -> String {
    format!("{value:.decimals$}").replace('.', ",")
}

fn french_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let text = format!("{value}");
        text.replace('.', ",")
    }
}

fn csv_text(cell: &Cell) -> String {
    match cell {
        Cell::Empty => String::new(),
        // A text Excel would take for a formula is kept as text.
        Cell::Text(text) if text.starts_with(['=', '+', '-', '@', '\t', '\r']) => {
            format!("'{text}")
        }
        Cell::Text(text) => text.clone(),
        Cell::Date(day) => day.format("%d/%m/%Y").to_string(),
        Cell::DateTime(at) => at.format("%d/%m/%Y %H:%M").to_string(),
        Cell::Money(cents) => french_decimal(*cents as f64 / 100.0, 2),
        Cell::Number(value) => french_number(*value),
    }
}

/// The table as CSV for French Excel.
pub fn csv(table: &Table) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64 * (table.rows.len() + 1));
    out.extend_from_slice("\u{feff}".as_bytes());
    {
        let mut writer = csv::WriterBuilder::new()
            .delimiter(b';')
            .terminator(csv::Terminator::CRLF)
            .from_writer(&mut out);
        writer.write_record(table.columns.iter().map(|c| c.header.as_str()))?;
        for row in &table.rows {
            writer.write_record(row.iter().map(csv_text))?;
        }
        writer.flush()?;
    }
    Ok(out)
}

// -- XLSX -----------------------------------------------------------------------

/// A sheet name Excel accepts: 31 characters, none of `[]:*?/\`.
fn sheet_name(title: &str) -> String {
    let name: String = title
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | ':' | '*' | '?' | '/' | '\\'))
        .take(31)
        .collect();
    if name.trim().is_empty() {
        "Export".to_owned()
    } else {
        name
    }
}

fn excel_date(day: NaiveDate) -> anyhow::Result<rust_xlsxwriter::ExcelDateTime> {
    use chrono::Datelike;
    Ok(rust_xlsxwriter::ExcelDateTime::from_ymd(
        u16::try_from(day.year())?,
        u8::try_from(day.month())?,
        u8::try_from(day.day())?,
    )?)
}

/// Files in a zip archive (deflated), in the given order: `(path, bytes)`.
pub fn zip(entries: &[(String, Vec<u8>)]) -> anyhow::Result<Vec<u8>> {
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    let mut archive = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (path, bytes) in entries {
        archive.start_file(path.as_str(), options)?;
        archive.write_all(bytes)?;
    }
    Ok(archive.finish()?.into_inner())
}

/// The table as an Excel workbook of one sheet.
pub fn xlsx(table: &Table) -> anyhow::Result<Vec<u8>> {
    use chrono::Timelike;
    use rust_xlsxwriter::{Color, Format, FormatBorder, Workbook};

    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.set_name(sheet_name(&table.title))?;
    let header = Format::new()
        .set_bold()
        .set_background_color(Color::RGB(0xE8EEF4))
        .set_border_bottom(FormatBorder::Thin);
    let date = Format::new().set_num_format("dd/mm/yyyy");
    let date_time = Format::new().set_num_format("dd/mm/yyyy hh:mm");
    let money = Format::new().set_num_format("#,##0.00 \"€\"");
    for (col, column) in table.columns.iter().enumerate() {
        let col = u16::try_from(col)?;
        sheet.write_string_with_format(0, col, &column.header, &header)?;
        sheet.set_column_width(col, column.width)?;
    }
    for (index, row) in table.rows.iter().enumerate() {
        let r = u32::try_from(index + 1)?;
        for (col, cell) in row.iter().enumerate() {
            let col = u16::try_from(col)?;
            match cell {
                Cell::Empty => {}
                Cell::Text(text) => {
                    sheet.write_string(r, col, text)?;
                }
                Cell::Date(day) => {
                    sheet.write_datetime_with_format(r, col, excel_date(*day)?, &date)?;
                }
                Cell::DateTime(at) => {
                    let value = excel_date(at.date())?.and_hms(
                        u16::try_from(at.hour())?,
                        u8::try_from(at.minute())?,
                        at.second(),
                    )?;
                    sheet.write_datetime_with_format(r, col, value, &date_time)?;
                }
                Cell::Money(cents) => {
                    sheet.write_number_with_format(r, col, *cents as f64 / 100.0, &money)?;
                }
                Cell::Number(value) => {
                    sheet.write_number(r, col, *value)?;
                }
            }
        }
    }
    if !table.columns.is_empty() {
        let last_col = u16::try_from(table.columns.len() - 1)?;
        let last_row = u32::try_from(table.rows.len())?;
        sheet.set_freeze_panes(1, 0)?;
        sheet.autofilter(0, 0, last_row, last_col)?;
    }
    Ok(workbook.save_to_buffer()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn table() -> Table {
        let mut table = Table::new(
            "Factures",
            vec![
                Column::new("Numéro", "number", Kind::Text, 16.0),
                Column::new("Client", "client.name", Kind::Text, 30.0),
                Column::new("Émise le", "issuedOn", Kind::Date, 12.0),
                Column::new("Total TTC", "totalInclTax", Kind::Money, 14.0),
                Column::new("Créée le", "createdAt", Kind::Timestamp, 18.0),
                Column::new("Catégories", "categories", Kind::Text, 20.0),
            ],
        );
        table.push_json(&json!({
            "number": "FA-2026-000012", "client": { "name": "Syndic « Dupont »; et fils" },
            "issuedOn": "2026-11-28", "totalInclTax": 1234.56,
            "createdAt": "2026-11-28T13:05:00.000Z", "categories": ["Gestionnaire", "Syndic"]
        }));
        table
            .push_json(&json!({ "number": "FA-2026-000013", "client": null, "totalInclTax": -80 }));
        table
    }

    #[test]
    fn csv_is_what_french_excel_opens() {
        let bytes = csv(&table()).expect("csv");
        assert!(bytes.starts_with("\u{feff}".as_bytes()));
        let text = String::from_utf8(bytes[3..].to_vec()).expect("utf-8");
        assert_eq!(
            text,
            "Numéro;Client;Émise le;Total TTC;Créée le;Catégories\r\n\
             FA-2026-000012;\"Syndic « Dupont »; et fils\";28/11/2026;1234,56;28/11/2026 14:05;Gestionnaire, Syndic\r\n\
             FA-2026-000013;;;-80,00;;\r\n"
        );
    }

    #[test]
    fn xlsx_is_a_workbook_calamine_reads_back() {
        use calamine::{Data, Reader, Xlsx};
        let bytes = xlsx(&table()).expect("xlsx");
        let mut book = Xlsx::new(std::io::Cursor::new(bytes)).expect("workbook");
        let range = book.worksheet_range("Factures").expect("sheet");
        assert_eq!(range.get((0, 0)), Some(&Data::String("Numéro".into())));
        assert_eq!(
            range.get((1, 1)),
            Some(&Data::String("Syndic « Dupont »; et fils".into()))
        );
        assert_eq!(range.get((1, 3)), Some(&Data::Float(1234.56)));
        assert_eq!(range.get((2, 3)), Some(&Data::Float(-80.0)));
        match range.get((1, 2)) {
            Some(Data::DateTime(day)) => {
                let epoch = NaiveDate::from_ymd_opt(1899, 12, 30).expect("epoch");
                let expected = NaiveDate::from_ymd_opt(2026, 11, 28).expect("day");
                assert_eq!(day.as_f64(), (expected - epoch).num_days() as f64);
            }
            other => panic!("date attendue : {other:?}"),
        }
    }

    #[test]
    fn a_text_excel_would_compute_stays_text() {
        let mut table = Table::new("T", vec![Column::new("Nom", "name", Kind::Text, 10.0)]);
        table.push_json(&json!({ "name": "=HYPERLINK(\"http://x\")" }));
        table.push_json(&json!({ "name": "@SUM(A1)" }));
        let bytes = csv(&table).expect("csv");
        let text = String::from_utf8(bytes[3..].to_vec()).expect("utf-8");
        assert_eq!(
            text,
            "Nom\r\n\"'=HYPERLINK(\"\"http://x\"\")\"\r\n'@SUM(A1)\r\n"
        );
    }

    #[test]
    fn sheet_names_are_those_excel_accepts() {
        assert_eq!(
            sheet_name("Parc : équipements [actifs]"),
            "Parc  équipements actifs"
        );
        assert_eq!(sheet_name("?"), "Export");
        assert_eq!(sheet_name(&"x".repeat(40)).len(), 31);
    }
}
