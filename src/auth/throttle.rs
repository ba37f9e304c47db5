//! Sign-in throttling: after repeated failures for one email, further
//! attempts are refused for a while (429 with Retry-After).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const MAX_FAILURES: u32 = 5;
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Entries kept at most; older ones are dropped first.
const MAX_TRACKED: usize = 10_000;

#[derive(Default)]
pub struct LoginThrottle {
    failures: Mutex<HashMap<String, (u32, Instant)>>,
}

impl LoginThrottle {
    /// Seconds to wait before trying again, when the email is throttled.
    pub fn retry_after(&self, email: &str) -> Option<u64> {
        let map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let (count, since) = map.get(email)?;
        let elapsed = since.elapsed();
        (*count >= MAX_FAILURES && elapsed < WINDOW).then(|| (WINDOW - elapsed).as_secs().max(1))
    }

    pub fn record_failure(&self, email: &str) {
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= MAX_TRACKED {
            map.retain(|_, (_, since)| since.elapsed() < WINDOW);
        }
        let entry = map.entry(email.to_owned()).or_insert((0, Instant::now()));
        if entry.1.elapsed() >= WINDOW {
            *entry = (0, Instant::now());
        }
        entry.0 += 1;
    }

    pub fn clear(&self, email: &str) {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(email);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttles_after_repeated_failures_only() {
        let throttle = LoginThrottle::default();
        for _ in 0..MAX_FAILURES - 1 {
            throttle.record_failure("a@b.fr");
        }
        assert_eq!(throttle.retry_after("a@b.fr"), None);
        throttle.record_failure("a@b.fr");
        assert!(throttle.retry_after("a@b.fr").is_some_and(|s| s > 0));
        assert_eq!(throttle.retry_after("c@d.fr"), None);
        throttle.clear("a@b.fr");
        assert_eq!(throttle.retry_after("a@b.fr"), None);
    }
}
