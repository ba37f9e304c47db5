//! What every request handler shares.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::auth::rate_limit::{RateLimit, RateLimiter};
use crate::auth::sheet_token::{self, SheetSecret};
use crate::auth::throttle::LoginThrottle;
use crate::mail::MailSync;
use crate::notices::Notices;
use crate::services::call_feed::CallFeed;
use crate::services::imports::progress::ImportRuns;
use crate::store::Store;
use crate::webhooks::{WebhookSettings, WebhookSync};

pub use crate::clock::Clock;

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// Public base URL (`http://127.0.0.1:8080`), used to build records' `url`.
    pub base_url: Arc<str>,
    pub login_throttle: Arc<LoginThrottle>,
    /// Calls per token or key (429 past it).
    pub rate_limiter: Arc<RateLimiter>,
    /// The call-center keys this server found live (new calls open on
    /// them, confirmed in their transaction).
    pub call_center_keys: Arc<crate::auth::call_center_key::KeyHints>,
    /// The key of the single-use equipment sheet tokens (data directory's
    /// `sheet-secret.key`).
    pub sheet_secret: Arc<SheetSecret>,
    /// The webhooks' sync task and its settings (retry schedule, probe…).
    pub webhooks: Arc<WebhookSync>,
    /// The mail task: documents sent by e-mail (same retry schedule and
    /// probe as the webhooks).
    pub mail: Arc<MailSync>,
    /// The lists' exports under way or ready (in memory).
    pub exports: Arc<crate::services::exports::ExportRuns>,
    /// Where the checks and imports of uploaded files stand (in memory).
    pub imports: Arc<ImportRuns>,
    /// The live feed of breakdown calls (the board's Server-Sent Events).
    pub call_feed: CallFeed,
    /// Notices for the desktop shell (calls from a call center, abandoned
    /// webhook deliveries, failed backups).
    pub notices: Notices,
    /// The host's control of the server (the desktop shell): restarts and
    /// restores; None under `liftdesk serve`.
    pub control: Option<Arc<dyn ServerControl>>,
    /// The folder of the log files, shown in the diagnostics.
    pub log_dir: Option<Arc<Path>>,
    /// The backup folder given on the command line (`serve --backup-dir`),
    /// which wins over the settings' one.
    pub backup_dir_override: Option<Arc<Path>>,
    /// The settings the listener was bound from (the desktop shell binds
    /// from `settings.json`); None when the address came from elsewhere
    /// (`serve --bind`): then the port and network settings do not apply.
    pub listen_settings: Option<crate::settings::Settings>,
    /// HTTPS or not, and the TLS proxies in front (`serve --tls-cert`,
    /// `--behind-proxy`).
    pub network: Arc<crate::network::Network>,
}

/// What the host of the server (the desktop shell) does on request of the
/// settings screen. Both return once the request is taken; the server is
/// then stopped and started again by the host.
pub trait ServerControl: Send + Sync {
    /// Stops the server, restores the backup `from` with
    /// `backup::restore_from`, and starts again on the restored database.
    fn restore_and_restart(&self, from: PathBuf) -> Result<(), String>;
    /// Starts the server again (new port or network setting).
    fn restart(&self) -> Result<(), String>;
    /// Stops the embedded server and shows the agency's server at `url`
    /// instead (saved in the settings' `agencyServer` by the caller).
    fn connect_to_agency_server(&self, url: String) -> Result<(), String>;
}

impl AppState {
    pub fn new(store: Store, base_url: impl Into<Arc<str>>) -> Self {
        Self::with_rate_limit(store, base_url, RateLimit::default())
    }

    pub fn with_rate_limit(store: Store, base_url: impl Into<Arc<str>>, limit: RateLimit) -> Self {
        let sheet_secret = Self::load_sheet_secret(&store);
        let notices = Notices::default();
        Self {
            base_url: base_url.into(),
            login_throttle: Arc::new(LoginThrottle::default()),
            rate_limiter: Arc::new(RateLimiter::new(limit)),
            call_center_keys: Arc::default(),
            sheet_secret: Arc::new(sheet_secret),
            webhooks: Arc::new(
                WebhookSync::new(store.clone(), WebhookSettings::default())
                    .with_notices(notices.clone()),
            ),
            mail: Arc::new(MailSync::new(store.clone(), &WebhookSettings::default())),
            exports: Arc::new(crate::services::exports::ExportRuns::new(store.clock())),
            imports: Arc::new(ImportRuns::new(store.clock())),
            call_feed: CallFeed::default(),
            notices,
            control: None,
            log_dir: None,
            backup_dir_override: None,
            listen_settings: None,
            network: Arc::default(),
            store,
        }
    }

    /// The same state delivering webhooks (and e-mails) with these settings.
    pub fn with_webhook_settings(mut self, settings: WebhookSettings) -> Self {
        self.mail = Arc::new(MailSync::new(self.store.clone(), &settings));
        self.webhooks = Arc::new(
            WebhookSync::new(self.store.clone(), settings).with_notices(self.notices.clone()),
        );
        self
    }

    /// The same state reached this way (HTTPS, TLS proxies).
    pub fn with_network(mut self, network: crate::network::Network) -> Self {
        self.network = Arc::new(network);
        self
    }

    /// The same state whose host can restart the server and restore.
    pub fn with_control(mut self, control: Arc<dyn ServerControl>) -> Self {
        self.control = Some(control);
        self
    }

    /// The same state knowing where the logs are written.
    pub fn with_log_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.log_dir = Some(Arc::from(dir.into()));
        self
    }

    /// The same state backing up into this folder whatever the settings say.
    pub fn with_backup_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.backup_dir_override = Some(Arc::from(dir.into()));
        self
    }

    /// The same state bound from these settings (port, network): the
    /// settings screen then says when a saved change needs a restart.
    pub fn with_listen_settings(mut self, settings: crate::settings::Settings) -> Self {
        self.listen_settings = Some(settings);
        self
    }

    /// The data directory (the database's folder).
    pub fn data_dir(&self) -> PathBuf {
        self.store.data_dir().to_path_buf()
    }

    /// The same state with another clock: the store's, so the whole server
    /// (every clone of the store) reads it (tests, the instruction-count gate).
    pub fn with_clock(self, clock: Clock) -> Self {
        self.store.set_clock(clock);
        self
    }

    /// Now, by the server's clock (the store's).
    pub fn now(&self) -> DateTime<Utc> {
        self.store.now()
    }

    /// The secret of the database's directory; should it be unreadable or
    /// unwritable, a random one for this run (sheet links then do not
    /// survive a restart), with an error logged.
    fn load_sheet_secret(store: &Store) -> SheetSecret {
        let dir = store.data_dir().to_path_buf();
        match sheet_token::load_or_create_secret(&dir) {
            Ok(secret) => secret,
            Err(err) => {
                tracing::error!(error = %err, "secret des fiches illisible : secret temporaire");
                sheet_token::random_secret().unwrap_or_else(|_| rand::random())
            }
        }
    }
}
