//! The rows of a quote and the lines of an invoice or a credit note: their
//! bounds, the allowed VAT rates and the check of what a client sends, with
//! a refusal that names the line (« Ligne 2 : … »). The one place these
//! rules live: the services call `check_lines`, the REST API's OpenAPI
//! bounds are tested against the constants, and the web app reads them
//! from its generated contract (`ui/src/lib/generated/contract.ts`).

use std::fmt;

use crate::einvoice::VatExemption;
use crate::invoice::LineAmounts;
use crate::money::{Cents, quantity_to_milli};

/// Allowed VAT rates, in basis points: 20 %, 10 %, 5.5 %, 2.1 % and 0 %
/// (French rates; 0 for exempt work or reverse charge).
pub const VAT_RATES_BP: [u32; 5] = [2000, 1000, 550, 210, 0];
pub const DEFAULT_VAT_RATE_BP: u32 = 2000;
/// At most this many rows on a quote or lines on an invoice.
pub const MAX_LINES: usize = 200;
/// Bounds of a row: a label of at most 300 characters, a quantity up to
/// 100 000 units and a unit price up to 1 000 000 € excl. tax, so that every
/// total stays exact in euros.
pub const MAX_LABEL_CHARS: usize = 300;
pub const MAX_QUANTITY_MILLI: i64 = 100_000_000;
pub const MAX_UNIT_PRICE_CENTS: i64 = 100_000_000;

/// A refused row, with the French sentence shown to the user (422).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError(String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LineError {}

/// A row of a quote or a line of an invoice, as received: every field is
/// checked here, so that a refusal names the line (« Ligne 2 : … »).
#[derive(Debug, Clone, Default)]
pub struct LineInput {
    pub label: Option<String>,
    pub quantity: Option<f64>,
    /// Euros excluding tax.
    pub unit_price: Option<f64>,
    /// Percent; 20 when absent.
    pub vat_rate: Option<f64>,
    /// Why a 0 % line charges no VAT (`einvoice::VatExemption`'s code);
    /// only with a 0 % rate.
    pub vat_exemption: Option<String>,
}

/// A checked line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub label: String,
    pub quantity_milli: i64,
    /// Excluding tax.
    pub unit_price: Cents,
    pub vat_rate_bp: u32,
    /// Why the line charges no VAT, for a 0 % line (required to issue).
    pub vat_exemption: Option<VatExemption>,
}

impl Line {
    pub fn amounts(&self) -> LineAmounts {
        LineAmounts {
            quantity_milli: self.quantity_milli,
            unit_price: self.unit_price,
            vat_rate_bp: self.vat_rate_bp,
        }
    }
}

/// A number as a French reader writes it (`1,5`).
pub fn french_number(value: f64) -> String {
    value.to_string().replace('.', ",")
}

/// A VAT rate in basis points as a French percentage: `5,5 %`.
pub fn french_rate(rate_bp: u32) -> String {
    let (whole, fraction) = (rate_bp / 100, rate_bp % 100);
    if fraction == 0 {
        format!("{whole} %")
    } else if fraction % 10 == 0 {
        format!("{whole},{} %", fraction / 10)
    } else {
        format!("{whole},{fraction:02} %")
    }
}

/// Checks the rows of a quote or the lines of an invoice. `document` names
/// it in messages (« Le devis », « La facture », « L'avoir »).
pub fn check_lines(rows: &[LineInput], document: &str) -> Result<Vec<Line>, LineError> {
    if rows.is_empty() {
        return Err(LineError(format!(
            "{document} doit comporter au moins une ligne."
        )));
    }
    if rows.len() > MAX_LINES {
        return Err(LineError(format!(
            "{document} ne peut pas comporter plus de {MAX_LINES} lignes (reçu : {}).",
            rows.len()
        )));
    }
    rows.iter()
        .enumerate()
        .map(|(index, row)| check_line(index + 1, row))
        .collect()
}

fn check_line(number: usize, row: &LineInput) -> Result<Line, LineError> {
    let refuse = |reason: String| LineError(format!("Ligne {number} : {reason}"));
    // The bound applies to the label as sent; it is stored trimmed.
    let raw_label = row.label.as_deref().unwrap_or_default();
    let label = raw_label.trim();
    if label.is_empty() {
        return Err(refuse("le libellé est obligatoire.".to_owned()));
    }
    if raw_label.chars().count() > MAX_LABEL_CHARS {
        return Err(refuse(format!(
            "le libellé ne doit pas dépasser {MAX_LABEL_CHARS} caractères."
        )));
    }
    let Some(quantity) = row.quantity else {
        return Err(refuse("la quantité est obligatoire.".to_owned()));
    };
    if quantity.is_nan() || quantity <= 0.0 {
        return Err(refuse(format!(
            "la quantité doit être supérieure à zéro (reçu : {}).",
            french_number(quantity)
        )));
    }
    let quantity_milli = quantity_to_milli(quantity).ok_or_else(|| {
        refuse(format!(
            "la quantité doit avoir au plus trois décimales (reçu : {}).",
            french_number(quantity)
        ))
    })?;
    if quantity_milli > MAX_QUANTITY_MILLI {
        return Err(refuse(format!(
            "la quantité ne doit pas dépasser {} (reçu : {}).",
            MAX_QUANTITY_MILLI / 1000,
            french_number(quantity)
        )));
    }
    let Some(unit_price) = row.unit_price else {
        return Err(refuse("le prix unitaire HT est obligatoire.".to_owned()));
    };
    if unit_price < 0.0 {
        return Err(refuse(format!(
            "le prix unitaire HT ne peut pas être négatif (reçu : {}).",
            french_number(unit_price)
        )));
    }
    let price = Cents::from_euros(unit_price).ok_or_else(|| {
        refuse(format!(
            "le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : {}).",
            french_number(unit_price)
        ))
    })?;
    if price > Cents::new(MAX_UNIT_PRICE_CENTS) {
        return Err(refuse(format!(
            "le prix unitaire HT ne doit pas dépasser {} HT (reçu : {}).",
            Cents::new(MAX_UNIT_PRICE_CENTS),
            french_number(unit_price)
        )));
    }
    let vat_rate_bp = match row.vat_rate {
        None => DEFAULT_VAT_RATE_BP,
        Some(rate) => {
            // Percent × 100 = basis points, exactly (5.5 → 550).
            Cents::from_euros(rate)
                .and_then(|bp| u32::try_from(bp.get()).ok())
                .filter(|bp| VAT_RATES_BP.contains(bp))
                .ok_or_else(|| {
                    refuse(format!(
                        "le taux de TVA {} % n'est pas autorisé (taux possibles : 20, 10, 5,5, 2,1 ou 0).",
                        french_number(rate)
                    ))
                })?
        }
    };
    let vat_exemption = match row.vat_exemption.as_deref() {
        None => None,
        Some(code) => {
            let exemption = VatExemption::parse(code).ok_or_else(|| {
                refuse(format!(
                    "le motif d'exonération de TVA « {code} » n'existe pas (motifs possibles : {}).",
                    VatExemption::ALL
                        .iter()
                        .map(|e| format!("« {} » : {}", e.as_str(), e.label()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
            if vat_rate_bp != 0 {
                return Err(refuse(format!(
                    "un motif d'exonération de TVA ne se donne qu'à une ligne à 0 % (taux de la ligne : {}).",
                    french_rate(vat_rate_bp)
                )));
            }
            Some(exemption)
        }
    };
    Ok(Line {
        label: label.to_owned(),
        quantity_milli,
        unit_price: price,
        vat_rate_bp,
        vat_exemption,
    })
}

/// The first line (numbered from 1) at 0 % without the reason it charges
/// no VAT: a document is issued only once each says why (an electronic
/// invoice carries the reason of every exempt line, EN 16931 BR-E-10,
/// BR-AE-10).
pub fn first_unexplained_exemption(
    lines: impl IntoIterator<Item = (u32, Option<VatExemption>)>,
) -> Option<usize> {
    lines
        .into_iter()
        .position(|(rate_bp, exemption)| rate_bp == 0 && exemption.is_none())
        .map(|index| index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(label: &str, quantity: f64, price: f64, rate: Option<f64>) -> LineInput {
        LineInput {
            label: Some(label.to_owned()),
            quantity: Some(quantity),
            unit_price: Some(price),
            vat_rate: rate,
            vat_exemption: None,
        }
    }

    fn message(rows: &[LineInput]) -> String {
        check_lines(rows, "Le devis")
            .map(|_| String::new())
            .unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn lines_are_checked_and_refusals_name_the_line() {
        let ok = check_lines(
            &[
                row("Main d'œuvre", 1.5, 65.0, None),
                row("Pièce", 2.0, 19.99, Some(5.5)),
            ],
            "Le devis",
        )
        .expect("valid");
        assert_eq!(
            ok,
            vec![
                Line {
                    label: "Main d'œuvre".into(),
                    quantity_milli: 1500,
                    unit_price: Cents::new(6500),
                    vat_rate_bp: 2000,
                    vat_exemption: None,
                },
                Line {
                    label: "Pièce".into(),
                    quantity_milli: 2000,
                    unit_price: Cents::new(1999),
                    vat_rate_bp: 550,
                    vat_exemption: None,
                },
            ]
        );
        let good = row("A", 1.0, 1.0, None);
        assert_eq!(message(&[]), "Le devis doit comporter au moins une ligne.");
        assert_eq!(
            message(&[good.clone(), row("B", -1.0, 1.0, None)]),
            "Ligne 2 : la quantité doit être supérieure à zéro (reçu : -1)."
        );
        assert_eq!(
            message(&[row("B", 0.0, 1.0, None)]),
            "Ligne 1 : la quantité doit être supérieure à zéro (reçu : 0)."
        );
        assert_eq!(
            message(&[good.clone(), good.clone(), row("B", 1.2345, 1.0, None)]),
            "Ligne 3 : la quantité doit avoir au plus trois décimales (reçu : 1,2345)."
        );
        assert_eq!(
            message(&[row("  ", 1.0, 1.0, None)]),
            "Ligne 1 : le libellé est obligatoire."
        );
        assert_eq!(
            message(&[row("B", 1.0, -2.5, None)]),
            "Ligne 1 : le prix unitaire HT ne peut pas être négatif (reçu : -2,5)."
        );
        assert_eq!(
            message(&[row("B", 1.0, 12.345, None)]),
            "Ligne 1 : le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : 12,345)."
        );
        assert_eq!(
            message(&[row("B", 1.0, 1.0, Some(7.0))]),
            "Ligne 1 : le taux de TVA 7 % n'est pas autorisé (taux possibles : 20, 10, 5,5, 2,1 ou 0)."
        );
        assert_eq!(
            message(&[LineInput {
                label: Some("B".into()),
                quantity: None,
                unit_price: Some(1.0),
                vat_rate: None,
                vat_exemption: None,
            }]),
            "Ligne 1 : la quantité est obligatoire."
        );
        assert_eq!(
            message(&[LineInput {
                label: Some("B".into()),
                quantity: Some(1.0),
                unit_price: None,
                vat_rate: None,
                vat_exemption: None,
            }]),
            "Ligne 1 : le prix unitaire HT est obligatoire."
        );
        assert!(
            message(&[row("B", 100_001.0, 1.0, None)])
                .starts_with("Ligne 1 : la quantité ne doit pas dépasser 100000")
        );
        assert!(
            message(&[row("B", 1.0, 1_000_000.01, None)])
                .starts_with("Ligne 1 : le prix unitaire HT ne doit pas dépasser")
        );
        for rate in [20.0, 10.0, 5.5, 2.1, 0.0] {
            assert_eq!(message(&[row("B", 1.0, 1.0, Some(rate))]), "");
        }
        let exempt = |rate: f64, code: &str| LineInput {
            vat_exemption: Some(code.to_owned()),
            ..row("B", 1.0, 1.0, Some(rate))
        };
        let lines = check_lines(&[exempt(0.0, "autoliquidation")], "Le devis").expect("valid");
        assert_eq!(
            first_unexplained_exemption([
                (2000, None),
                (0, Some(VatExemption::Franchise)),
                (0, None)
            ]),
            Some(3)
        );
        assert_eq!(first_unexplained_exemption([(2000, None)]), None);
        assert_eq!(lines[0].vat_exemption, Some(VatExemption::Autoliquidation));
        assert_eq!(
            message(&[exempt(20.0, "franchise")]),
            "Ligne 1 : un motif d'exonération de TVA ne se donne qu'à une ligne à 0 % (taux de la ligne : 20 %)."
        );
        assert!(
            message(&[exempt(0.0, "exoneree")])
                .starts_with("Ligne 1 : le motif d'exonération de TVA « exoneree » n'existe pas (motifs possibles : « autoliquidation »")
        );
        assert!(message(&vec![good; MAX_LINES + 1]).contains("201"));
    }

    #[test]
    fn french_rates() {
        assert_eq!(french_rate(2000), "20 %");
        assert_eq!(french_rate(550), "5,5 %");
        assert_eq!(french_rate(210), "2,1 %");
        assert_eq!(french_rate(205), "2,05 %");
        assert_eq!(french_rate(0), "0 %");
    }
}
