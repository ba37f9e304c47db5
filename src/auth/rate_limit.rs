//! Too many calls: a per-credential token bucket (GCRA). Past it, 429 with
//! `Retry-After` in seconds.

use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::domain::id::CredentialId;
use crate::error::AppError;

/// Sustained calls per minute allowed to one token or key by default.
pub const DEFAULT_PER_MINUTE: u32 = 600;
/// Calls one token or key may make at once before being paced.
pub const DEFAULT_BURST: u32 = 100;

/// Thresholds, configurable (`serve --rate-limit`, `LIFTDESK_RATE_LIMIT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub per_minute: NonZeroU32,
    pub burst: NonZeroU32,
}

impl Default for RateLimit {
    fn default() -> Self {
        Self {
            per_minute: NonZeroU32::new(DEFAULT_PER_MINUTE).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(DEFAULT_BURST).unwrap_or(NonZeroU32::MIN),
        }
    }
}

impl RateLimit {
    /// `PER_MINUTE` or `PER_MINUTE/BURST`, e.g. `600` or `600/100`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let number = |part: &str| {
            part.trim()
                .parse::<u32>()
                .ok()
                .and_then(NonZeroU32::new)
                .ok_or_else(|| {
                    format!("« {text} » n'est pas une limite valide (exemple : 600 ou 600/100)")
                })
        };
        match text.split_once('/') {
            Some((per_minute, burst)) => Ok(Self {
                per_minute: number(per_minute)?,
                burst: number(burst)?,
            }),
            None => {
                let per_minute = number(text)?;
                Ok(Self {
                    per_minute,
                    burst: per_minute.min(Self::default().burst),
                })
            }
        }
    }
}

pub struct RateLimiter {
    limiter: DefaultKeyedRateLimiter<CredentialId>,
    clock: DefaultClock,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> Self {
        let quota = Quota::per_minute(limit.per_minute).allow_burst(limit.burst);
        Self {
            limiter: DefaultKeyedRateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        }
    }

    /// Counts one call of the credential; refused with 429 once over the threshold.
    pub fn check(&self, credential_id: &CredentialId) -> Result<(), AppError> {
        match self.limiter.check_key(credential_id) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                Err(AppError::TooManyRequests {
                    retry_after_secs: wait.as_secs() + 1,
                })
            }
        }
    }

    /// Forgets keys that are back to a full bucket (keeps memory bounded).
    pub fn prune(&self) {
        self.limiter.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_thresholds() {
        let limit = RateLimit::parse("120/10").expect("valid");
        assert_eq!((limit.per_minute.get(), limit.burst.get()), (120, 10));
        assert_eq!(RateLimit::parse("30").expect("valid").burst.get(), 30);
        assert!(RateLimit::parse("0").is_err());
        assert!(RateLimit::parse("abc").is_err());
    }

    #[test]
    fn refuses_past_the_burst_with_a_retry_delay() {
        let limiter = RateLimiter::new(RateLimit::parse("60/3").expect("valid"));
        let (a, b) = (CredentialId::new("a"), CredentialId::new("b"));
        for _ in 0..3 {
            assert!(limiter.check(&a).is_ok());
        }
        match limiter.check(&a) {
            Err(AppError::TooManyRequests { retry_after_secs }) => {
                assert!((1..=2).contains(&retry_after_secs))
            }
            other => panic!("expected 429, got {other:?}"),
        }
        assert!(limiter.check(&b).is_ok(), "each key has its own bucket");
    }
}
