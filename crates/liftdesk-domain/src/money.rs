//! Money: an amount in euro cents (`Cents`), the one place where amounts are
//! read from the euros the APIs exchange, turned back into euros, rounded
//! and written the French way (`1 234,56 €`). Quantities in thousandths
//! (`quantity_to_milli`) are read by the same exact-decimal rule.
//!
//! Amounts are integers so that totals never depend on floating-point
//! rounding; a float only exists at the JSON edge.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub};

/// An amount in euro cents (may be negative: a discount line, a balance).
/// Arithmetic saturates at the bounds of `i64`, which no real amount reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cents(i64);

impl Cents {
    pub const ZERO: Cents = Cents(0);

    pub const fn new(cents: i64) -> Self {
        Cents(cents)
    }

    /// The amount in cents, as stored.
    pub const fn get(self) -> i64 {
        self.0
    }

    /// Reads an amount in euros received as a JSON number. Refuses NaN,
    /// infinity, amounts out of range and amounts with more than two
    /// decimals (12.345 is an input error, not something to round silently).
    pub fn from_euros(euros: f64) -> Option<Self> {
        scale_exact_decimal(euros, 2).map(Cents)
    }

    /// The amount in euros, for JSON output (`totalExclTax`, `unitPrice`…).
    pub fn euros(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// French display: `1 234,56 €`, with a narrow no-break space between
    /// thousands and a no-break space before the sign, as
    /// `Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" })`.
    pub fn french(self) -> String {
        self.to_string()
    }

    pub fn is_positive(self) -> bool {
        self.0 > 0
    }

    /// `self − other`, never below zero.
    pub fn remaining_after(self, other: Cents) -> Cents {
        (self - other).max(Cents::ZERO)
    }
}

impl fmt::Display for Cents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let magnitude = self.0.unsigned_abs();
        let whole = (magnitude / 100).to_string();
        if self.0 < 0 {
            f.write_str("-")?;
        }
        for (index, digit) in whole.chars().enumerate() {
            if index > 0 && (whole.len() - index).is_multiple_of(3) {
                f.write_str("\u{202f}")?;
            }
            write!(f, "{digit}")?;
        }
        write!(f, ",{:02}\u{a0}€", magnitude % 100)
    }
}

impl Add for Cents {
    type Output = Cents;
    fn add(self, other: Cents) -> Cents {
        Cents(self.0.saturating_add(other.0))
    }
}

impl AddAssign for Cents {
    fn add_assign(&mut self, other: Cents) {
        *self = *self + other;
    }
}

impl Sub for Cents {
    type Output = Cents;
    fn sub(self, other: Cents) -> Cents {
        Cents(self.0.saturating_sub(other.0))
    }
}

impl Neg for Cents {
    type Output = Cents;
    fn neg(self) -> Cents {
        Cents(self.0.saturating_neg())
    }
}

impl Sum for Cents {
    fn sum<I: Iterator<Item = Cents>>(iter: I) -> Cents {
        iter.fold(Cents::ZERO, Add::add)
    }
}

/// Reads a quantity received as a JSON number into thousandths (1.5 h =
/// 1500). Refuses what [`Cents::from_euros`] refuses, and more than three
/// decimals.
pub fn quantity_to_milli(quantity: f64) -> Option<i64> {
    scale_exact_decimal(quantity, 3)
}

/// A quantity in thousandths as a JSON number (1500 → 1.5).
pub fn milli_to_quantity(milli: i64) -> f64 {
    milli as f64 / 1000.0
}

/// `numerator / denominator` rounded half away from zero; `denominator > 0`.
pub(crate) fn divide_rounding_half_away(numerator: i128, denominator: i128) -> i128 {
    let quotient = numerator / denominator;
    let remainder = numerator % denominator;
    if 2 * remainder.abs() >= denominator {
        quotient + numerator.signum()
    } else {
        quotient
    }
}

pub(crate) fn saturate(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}

/// `value × 10^decimals` as an integer, when `value` is written with at most
/// `decimals` decimals. Works on the shortest decimal form of the float
/// (Rust's `Display`, which never uses an exponent), i.e. what the client
/// wrote in its JSON, so 0.1 or 19.99 are exact and no tolerance is needed.
pub(crate) fn scale_exact_decimal(value: f64, decimals: usize) -> Option<i64> {
    if !value.is_finite() {
        return None;
    }
    let written = value.abs().to_string();
    let (whole, fraction) = written.split_once('.').unwrap_or((&written, ""));
    if fraction.len() > decimals {
        return None;
    }
    let mut digits = String::with_capacity(whole.len() + decimals);
    digits.push_str(whole);
    digits.push_str(fraction);
    digits.extend(std::iter::repeat_n('0', decimals - fraction.len()));
    let magnitude: i64 = digits.parse().ok()?;
    Some(if value.is_sign_negative() {
        -magnitude
    } else {
        magnitude
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cents_to_euros(cents: i64) -> f64 {
        Cents::new(cents).euros()
    }

    fn euros_to_cents(euros: f64) -> Option<i64> {
        Cents::from_euros(euros).map(Cents::get)
    }

    fn format_euros(cents: i64) -> String {
        Cents::new(cents).french()
    }

    #[test]
    fn euros_and_cents() {
        assert_eq!(cents_to_euros(12_345), 123.45);
        assert_eq!(cents_to_euros(-5), -0.05);
        assert_eq!(euros_to_cents(123.45), Some(12_345));
        assert_eq!(euros_to_cents(0.1), Some(10));
        assert_eq!(euros_to_cents(0.3), Some(30));
        assert_eq!(euros_to_cents(19.99), Some(1999));
        assert_eq!(euros_to_cents(12.3), Some(1230));
        assert_eq!(euros_to_cents(1e16), Some(1_000_000_000_000_000_000));
        assert_eq!(euros_to_cents(-5.5), Some(-550));
        assert_eq!(euros_to_cents(-0.0), Some(0));
        assert_eq!(euros_to_cents(12.345), None);
        assert_eq!(euros_to_cents(0.1 + 0.2), None);
        assert_eq!(euros_to_cents(1e-7), None);
        assert_eq!(euros_to_cents(1e17), None);
        assert_eq!(euros_to_cents(f64::NAN), None);
        assert_eq!(euros_to_cents(f64::INFINITY), None);
        assert_eq!(euros_to_cents(f64::NEG_INFINITY), None);
        assert_eq!(euros_to_cents(f64::MAX), None);
        for cents in
            (-1_000_000..1_000_000).chain([99_999_999_999, 123_456_789_012, -987_654_321_098])
        {
            assert_eq!(
                euros_to_cents(cents_to_euros(cents)),
                Some(cents),
                "{cents}"
            );
        }
    }

    #[test]
    fn quantities_in_thousandths() {
        assert_eq!(quantity_to_milli(1.5), Some(1500));
        assert_eq!(quantity_to_milli(0.001), Some(1));
        assert_eq!(quantity_to_milli(2.0), Some(2000));
        assert_eq!(quantity_to_milli(-1.0), Some(-1000));
        assert_eq!(quantity_to_milli(0.0005), None);
        assert_eq!(quantity_to_milli(f64::NAN), None);
        assert_eq!(milli_to_quantity(1500), 1.5);
    }

    #[test]
    fn french_display_of_amounts() {
        assert_eq!(
            format_euros(123_456_789),
            "1\u{202f}234\u{202f}567,89\u{a0}€"
        );
        assert_eq!(format_euros(100_000), "1\u{202f}000,00\u{a0}€");
        assert_eq!(format_euros(99_999), "999,99\u{a0}€");
        assert_eq!(format_euros(5), "0,05\u{a0}€");
        assert_eq!(format_euros(0), "0,00\u{a0}€");
        assert_eq!(format_euros(-12_000), "-120,00\u{a0}€");
        assert_eq!(
            format_euros(i64::MIN),
            "-92\u{202f}233\u{202f}720\u{202f}368\u{202f}547\u{202f}758,08\u{a0}€"
        );
    }

    #[test]
    fn arithmetic_saturates_and_the_remainder_is_never_negative() {
        assert_eq!(Cents::new(i64::MAX) + Cents::new(1), Cents::new(i64::MAX));
        assert_eq!(Cents::new(i64::MIN) - Cents::new(1), Cents::new(i64::MIN));
        assert_eq!(
            Cents::new(12_000).remaining_after(Cents::new(2000)),
            Cents::new(10_000)
        );
        assert_eq!(
            Cents::new(12_000).remaining_after(Cents::new(15_000)),
            Cents::ZERO
        );
        assert_eq!(
            [Cents::new(5), Cents::new(-2)].into_iter().sum::<Cents>(),
            Cents::new(3)
        );
    }
}
