//! What every request handler shares.

use std::sync::Arc;

use crate::auth::throttle::LoginThrottle;
use crate::store::Store;

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// Public base URL (`http://127.0.0.1:8080`), used to build records' `url`.
    pub base_url: Arc<str>,
    pub login_throttle: Arc<LoginThrottle>,
}

impl AppState {
    pub fn new(store: Store, base_url: impl Into<Arc<str>>) -> Self {
        Self {
            store,
            base_url: base_url.into(),
            login_throttle: Arc::new(LoginThrottle::default()),
        }
    }
}
