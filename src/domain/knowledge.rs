//! Knowledge rate of an equipment (`taux_connaissance`): how much of the
//! technical-data catalog has been surveyed on it.

/// Percentage of the catalog's fields surveyed, rounded to one decimal (half
/// up); 0 when the catalog is empty. Capped at 100: values surveyed for
/// fields since removed from the catalog must not push it beyond.
pub fn knowledge_rate(surveyed: usize, catalog: usize) -> f64 {
    if catalog == 0 {
        return 0.0;
    }
    // Integer arithmetic in tenths of a percent, so that 1/16 = 6.25 % gives
    // 6.3 and not whatever the float product happens to round to.
    let surveyed = surveyed.min(catalog) as u128;
    let catalog = catalog as u128;
    let tenths = (surveyed * 2000 + catalog) / (2 * catalog);
    tenths as f64 / 10.0
}

/// Bands of the knowledge rate shown on the dashboard: code and French label.
pub const BANDS: [(&str, &str); 5] = [
    ("0_24", "Moins de 25 %"),
    ("25_49", "25 à 49 %"),
    ("50_74", "50 à 74 %"),
    ("75_99", "75 à 99 %"),
    ("100", "100 %"),
];

/// Index in `BANDS` of a rate (in percent, as `knowledge_rate` gives it).
pub fn band(rate: f64) -> usize {
    if rate >= 100.0 {
        4
    } else if rate >= 75.0 {
        3
    } else if rate >= 50.0 {
        2
    } else if rate >= 25.0 {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_split_at_25_50_75_and_100() {
        assert_eq!(band(0.0), 0);
        assert_eq!(band(24.9), 0);
        assert_eq!(band(25.0), 1);
        assert_eq!(band(49.9), 1);
        assert_eq!(band(50.0), 2);
        assert_eq!(band(74.9), 2);
        assert_eq!(band(75.0), 3);
        assert_eq!(band(99.9), 3);
        assert_eq!(band(100.0), 4);
    }

    #[test]
    fn rate_is_a_percentage_with_one_decimal() {
        assert_eq!(knowledge_rate(0, 0), 0.0);
        assert_eq!(knowledge_rate(5, 0), 0.0);
        assert_eq!(knowledge_rate(0, 10), 0.0);
        assert_eq!(knowledge_rate(10, 10), 100.0);
        assert_eq!(knowledge_rate(1, 3), 33.3);
        assert_eq!(knowledge_rate(2, 3), 66.7);
        assert_eq!(knowledge_rate(1, 8), 12.5);
        assert_eq!(knowledge_rate(1, 16), 6.3);
        assert_eq!(knowledge_rate(1, 2000), 0.1);
        assert_eq!(knowledge_rate(1, 2001), 0.0);
        assert_eq!(knowledge_rate(47, 120), 39.2);
        assert_eq!(knowledge_rate(15, 10), 100.0);
        assert_eq!(knowledge_rate(usize::MAX, usize::MAX), 100.0);
        assert_eq!(knowledge_rate(usize::MAX / 2, usize::MAX), 50.0);
    }
}
