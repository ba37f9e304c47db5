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

/// The rates of a band of `BANDS` (its code), in tenths of a percent: from
/// the first included to the last excluded (none for 100 %), as the park's
/// filter reads the stored rate; `None` for another code.
pub fn band_tenths(code: &str) -> Option<(i64, Option<i64>)> {
    Some(match code {
        "0_24" => (0, Some(250)),
        "25_49" => (250, Some(500)),
        "50_74" => (500, Some(750)),
        "75_99" => (750, Some(1000)),
        "100" => (1000, None),
        _ => return None,
    })
}

/// The codes the park's `knowledge` filter takes: its own three bands
/// ([`KnowledgeBand`]: `faible`, `moyen`, `bon`) and the dashboard's five
/// ([`BANDS`]: `0_24` … `100`), so that a dashboard bar opens its exact list.
pub fn filter_codes() -> Vec<&'static str> {
    KnowledgeBand::CODES
        .into_iter()
        .chain(BANDS.iter().map(|(code, _)| *code))
        .collect()
}

/// The rates one of [`filter_codes`] keeps, in tenths of a percent
/// (`[low, high)`, no high for 100 %); `None` for another code.
pub fn filter_tenths(code: &str) -> Option<(i64, Option<i64>)> {
    KnowledgeBand::parse(code)
        .map(KnowledgeBand::tenths)
        .or_else(|| band_tenths(code))
}

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
    fn the_park_filter_reads_its_bands_and_the_dashboards() {
        assert_eq!(
            filter_codes(),
            [
                "faible", "moyen", "bon", "0_24", "25_49", "50_74", "75_99", "100"
            ]
        );
        assert_eq!(filter_tenths("moyen"), Some((400, Some(700))));
        assert_eq!(filter_tenths("25_49"), Some((250, Some(500))));
        assert_eq!(filter_tenths("100"), Some((1000, None)));
        assert_eq!(filter_tenths("tout"), None);
    }

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

/// Bands of knowledge rate the park can be filtered by, on the rate as
/// shown (rounded to one decimal): `faible` below 40 %, `moyen` from 40 %
/// to below 70 %, `bon` from 70 %.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnowledgeBand {
    Faible,
    Moyen,
    Bon,
}

impl KnowledgeBand {
    pub const CODES: [&'static str; 3] = ["faible", "moyen", "bon"];

    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "faible" => Some(Self::Faible),
            "moyen" => Some(Self::Moyen),
            "bon" => Some(Self::Bon),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Faible => "faible",
            Self::Moyen => "moyen",
            Self::Bon => "bon",
        }
    }

    /// The band's bounds in tenths of a percent: `[low, high)`, high None = no limit.
    pub fn tenths(self) -> (i64, Option<i64>) {
        match self {
            Self::Faible => (0, Some(400)),
            Self::Moyen => (400, Some(700)),
            Self::Bon => (700, None),
        }
    }

    /// The band of a rate as `knowledge_rate` gives it.
    pub fn of(rate: f64) -> Self {
        let tenths = (rate * 10.0).round() as i64;
        [Self::Faible, Self::Moyen, Self::Bon]
            .into_iter()
            .find(|band| {
                let (low, high) = band.tenths();
                tenths >= low && high.is_none_or(|h| tenths < h)
            })
            .unwrap_or(Self::Bon)
    }
}

/// Percentage points one more surveyed field adds to the rate of an
/// equipment whose type has `catalog` applicable fields (each field weighs
/// the same), rounded to one decimal.
pub fn field_weight(catalog: usize) -> f64 {
    knowledge_rate(1, catalog)
}

#[cfg(test)]
mod band_tests {
    use super::*;

    #[test]
    fn bands_split_at_forty_and_seventy_percent() {
        // The dashboard's bands read back as the park's filter ranges.
        for (index, (code, _)) in BANDS.iter().enumerate() {
            let (low, high) = band_tenths(code).expect("bande");
            assert_eq!(band(low as f64 / 10.0), index, "{code}");
            if let Some(high) = high {
                assert_eq!(band((high - 1) as f64 / 10.0), index, "{code}");
            }
        }
        assert_eq!(band_tenths("faible"), None);
        assert_eq!(KnowledgeBand::of(0.0), KnowledgeBand::Faible);
        assert_eq!(KnowledgeBand::of(39.9), KnowledgeBand::Faible);
        assert_eq!(KnowledgeBand::of(40.0), KnowledgeBand::Moyen);
        assert_eq!(KnowledgeBand::of(69.9), KnowledgeBand::Moyen);
        assert_eq!(KnowledgeBand::of(70.0), KnowledgeBand::Bon);
        assert_eq!(KnowledgeBand::of(100.0), KnowledgeBand::Bon);
        assert_eq!(field_weight(30), 3.3);
    }
}
