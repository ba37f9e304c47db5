//! Downtime and repeat breakdowns of an equipment, from its breakdown calls
//! (the Equipment screen).
//!
//! Downtime over a period: the equipment is counted as unavailable from the
//! moment a call is received until the call is resolved (or until now while
//! it is not), for every call except an abnormal noise (`bruit`: the
//! equipment still runs). Overlapping calls are counted once (their spans
//! are merged), and only the part inside the period counts. The stopped
//! time is the part of it during which a technician left the equipment
//! stopped (`a_l_arret`, from `stopped_at` to the resolution).
//!
//! Repeat breakdowns: three calls or more (of any type) received in the last
//! 90 days.

use chrono::{DateTime, Duration, Utc};

use super::call::CallType;

/// Calls received within this many days are compared for repeat breakdowns.
pub const REPEAT_WINDOW_DAYS: i64 = 90;
/// From this many calls in the window, the breakdowns are repeated.
pub const REPEAT_THRESHOLD: usize = 3;
/// Downtime is summed over this many days back from now (12 months).
pub const DOWNTIME_WINDOW_DAYS: i64 = 365;

/// What downtime needs of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSpan {
    pub call_type: CallType,
    pub received_at: DateTime<Utc>,
    /// When the technician left the equipment stopped (`a_l_arret`), if ever.
    pub stopped_at: Option<DateTime<Utc>>,
    pub resolved_at: Option<DateTime<Utc>>,
}

impl CallSpan {
    /// Whether the call makes the equipment unavailable.
    pub fn stops_equipment(&self) -> bool {
        self.call_type != CallType::Bruit
    }
}

/// Downtime over `[from, to]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Downtime {
    /// Unavailable time, from reception to resolution, overlaps counted once.
    pub total: Duration,
    /// Part of it spent stopped (`a_l_arret` to resolution), overlaps counted once.
    pub stopped: Duration,
    /// Calls that counted (they stop the equipment and overlap the period).
    pub calls: usize,
}

/// Total length of the union of the spans, each clipped to `[from, to]`.
fn merged_length(
    mut spans: Vec<(DateTime<Utc>, DateTime<Utc>)>,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Duration {
    spans.retain_mut(|(start, end)| {
        *start = (*start).max(from);
        *end = (*end).min(to);
        start < end
    });
    spans.sort();
    let mut total = Duration::zero();
    let mut current: Option<(DateTime<Utc>, DateTime<Utc>)> = None;
    for (start, end) in spans {
        current = match current {
            Some((s, e)) if start <= e => Some((s, e.max(end))),
            Some((s, e)) => {
                total += e - s;
                Some((start, end))
            }
            None => Some((start, end)),
        };
    }
    if let Some((s, e)) = current {
        total += e - s;
    }
    total
}

/// Downtime of an equipment over `[from, to]` (`to` is also "now" for the
/// calls not resolved yet).
pub fn downtime(calls: &[CallSpan], from: DateTime<Utc>, to: DateTime<Utc>) -> Downtime {
    let stopping: Vec<&CallSpan> = calls.iter().filter(|c| c.stops_equipment()).collect();
    let end_of = |c: &CallSpan| c.resolved_at.unwrap_or(to).max(c.received_at);
    let spans: Vec<_> = stopping
        .iter()
        .map(|c| (c.received_at, end_of(c)))
        .collect();
    let stopped: Vec<_> = stopping
        .iter()
        .filter_map(|c| c.stopped_at.map(|s| (s, end_of(c))))
        .collect();
    Downtime {
        total: merged_length(spans, from, to),
        stopped: merged_length(stopped, from, to),
        calls: stopping
            .iter()
            .filter(|c| c.received_at < to && end_of(c) > from)
            .count(),
    }
}

/// Indexes of the calls received in the last `REPEAT_WINDOW_DAYS` days
/// before `now`, given their reception times.
pub fn recent_calls(received: &[DateTime<Utc>], now: DateTime<Utc>) -> Vec<usize> {
    let since = now - Duration::days(REPEAT_WINDOW_DAYS);
    received
        .iter()
        .enumerate()
        .filter(|(_, at)| **at > since && **at <= now)
        .map(|(i, _)| i)
        .collect()
}

/// Whether that many calls in the window are repeat breakdowns.
pub fn is_repeated(recent: usize) -> bool {
    recent >= REPEAT_THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(day: u32, hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, day, hour, 0, 0)
            .single()
            .expect("date")
    }

    fn span(
        t: CallType,
        from: DateTime<Utc>,
        stop: Option<DateTime<Utc>>,
        to: Option<DateTime<Utc>>,
    ) -> CallSpan {
        CallSpan {
            call_type: t,
            received_at: from,
            stopped_at: stop,
            resolved_at: to,
        }
    }

    #[test]
    fn overlapping_calls_count_once_and_noise_not_at_all() {
        let calls = [
            span(CallType::Panne, at(2, 8), None, Some(at(2, 12))),
            span(CallType::PersonneBloquee, at(2, 10), None, Some(at(2, 14))),
            span(CallType::Bruit, at(5, 8), None, Some(at(6, 8))),
            span(
                CallType::Vandalisme,
                at(10, 8),
                Some(at(10, 9)),
                Some(at(10, 11)),
            ),
        ];
        let d = downtime(&calls, at(1, 0), at(20, 0));
        assert_eq!(d.total, Duration::hours(6 + 3));
        assert_eq!(d.stopped, Duration::hours(2));
        assert_eq!(d.calls, 3);
    }

    #[test]
    fn spans_are_clipped_to_the_period_and_open_calls_run_until_now() {
        let calls = [
            span(CallType::Panne, at(1, 0), None, Some(at(3, 0))),
            span(CallType::Panne, at(19, 0), Some(at(19, 12)), None),
        ];
        let d = downtime(&calls, at(2, 0), at(20, 0));
        assert_eq!(d.total, Duration::hours(24 + 24));
        assert_eq!(d.stopped, Duration::hours(12));
        assert_eq!(d.calls, 2);
        assert_eq!(downtime(&calls, at(4, 0), at(18, 0)), Downtime::default());
    }

    #[test]
    fn three_calls_within_ninety_days_are_repeated() {
        let now = Utc
            .with_ymd_and_hms(2026, 11, 21, 12, 0, 0)
            .single()
            .expect("now");
        let received = [
            now - Duration::days(91),
            now - Duration::days(89),
            now - Duration::days(30),
            now - Duration::hours(1),
        ];
        let recent = recent_calls(&received, now);
        assert_eq!(recent, vec![1, 2, 3]);
        assert!(is_repeated(recent.len()));
        assert!(!is_repeated(recent_calls(&received[..3], now).len()));
    }
}
