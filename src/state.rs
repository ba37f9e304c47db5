//! What every request handler shares.

use std::sync::Arc;

use crate::auth::rate_limit::{RateLimit, RateLimiter};
use crate::auth::throttle::LoginThrottle;
use crate::store::Store;

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// Public base URL (`http://127.0.0.1:8080`), used to build records' `url`.
    pub base_url: Arc<str>,
    pub login_throttle: Arc<LoginThrottle>,
    /// Calls per token or key (429 past it).
    pub rate_limiter: Arc<RateLimiter>,
}

impl AppState {
    pub fn new(store: Store, base_url: impl Into<Arc<str>>) -> Self {
        Self::with_rate_limit(store, base_url, RateLimit::default())
    }

    pub fn with_rate_limit(store: Store, base_url: impl Into<Arc<str>>, limit: RateLimit) -> Self {
        Self {
            store,
            base_url: base_url.into(),
            login_throttle: Arc::new(LoginThrottle::default()),
            rate_limiter: Arc::new(RateLimiter::new(limit)),
        }
    }
}
