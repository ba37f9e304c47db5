//! The retry schedule: the delays after each failed attempt, then the
//! delivery is abandoned. The spec's is 1 min, 5 min, 30 min, 2 h, 12 h.

use std::fmt;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrySchedule(Vec<Duration>);

impl Default for RetrySchedule {
    fn default() -> Self {
        Self(vec![
            Duration::from_secs(60),
            Duration::from_secs(5 * 60),
            Duration::from_secs(30 * 60),
            Duration::from_secs(2 * 3600),
            Duration::from_secs(12 * 3600),
        ])
    }
}

impl RetrySchedule {
    /// `1m,5m,30m,2h,12h`; units `s`, `m`, `h`, `d`; at most 20 delays, each
    /// from 1 s to 7 days.
    pub fn parse(text: &str) -> Result<Self, String> {
        let delays = text
            .split(',')
            .map(|part| parse_delay(part.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        if delays.len() > 20 {
            return Err("au plus 20 délais de nouvel essai".to_owned());
        }
        Ok(Self(delays))
    }

    /// The delay before the next attempt once `attempts` attempts have
    /// failed, or None: the delivery is abandoned.
    pub fn delay_after(&self, attempts: i64) -> Option<Duration> {
        let index = usize::try_from(attempts).ok()?.checked_sub(1)?;
        self.0.get(index).copied()
    }

    pub fn delays(&self) -> &[Duration] {
        &self.0
    }
}

pub(crate) fn parse_delay(part: &str) -> Result<Duration, String> {
    let refused = || {
        format!(
            "délai « {part} » illisible : un nombre suivi de s, m, h ou d (par exemple 1m,5m,30m,2h,12h)"
        )
    };
    let split = part
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(refused)?;
    let (number, unit) = part.split_at(split);
    let number: u64 = number.parse().map_err(|_| refused())?;
    let seconds = match unit {
        "s" => Some(number),
        "m" | "min" => number.checked_mul(60),
        "h" => number.checked_mul(3600),
        "d" | "j" => number.checked_mul(86_400),
        _ => None,
    }
    .ok_or_else(refused)?;
    if !(1..=7 * 86_400).contains(&seconds) {
        return Err(format!("délai « {part} » hors limites (de 1 s à 7 jours)"));
    }
    Ok(Duration::from_secs(seconds))
}

impl fmt::Display for RetrySchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|d| {
                let s = d.as_secs();
                if s % 3600 == 0 {
                    format!("{}h", s / 3600)
                } else if s % 60 == 0 {
                    format!("{}m", s / 60)
                } else {
                    format!("{s}s")
                }
            })
            .collect();
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_spec_schedule() {
        let schedule = RetrySchedule::default();
        assert_eq!(schedule.to_string(), "1m,5m,30m,2h,12h");
        assert_eq!(
            RetrySchedule::parse("1m,5m,30m,2h,12h"),
            Ok(schedule.clone())
        );
        assert_eq!(schedule.delay_after(0), None);
        assert_eq!(schedule.delay_after(1), Some(Duration::from_secs(60)));
        assert_eq!(
            schedule.delay_after(5),
            Some(Duration::from_secs(12 * 3600))
        );
        assert_eq!(
            schedule.delay_after(6),
            None,
            "abandoned after the 6th attempt"
        );
    }

    #[test]
    fn seconds_and_bad_delays() {
        let schedule = RetrySchedule::parse("1s, 2s").expect("seconds");
        assert_eq!(
            schedule.delays(),
            [Duration::from_secs(1), Duration::from_secs(2)]
        );
        for bad in ["", "1", "1x", "m", "0s", "8d", "-1s", "1s,,2s"] {
            assert!(RetrySchedule::parse(bad).is_err(), "{bad:?}");
        }
    }
}
