//! Liftdesk: the back-office of a lift-maintenance agency, run on its own
//! desktop. This library holds the store, the domain rules, the API families
//! and the admin CLI; the `liftdesk` binary and the desktop shell use it.

pub mod api;
pub mod auth;
pub mod backup;
pub mod cli;
pub mod clock;
pub mod config;
pub mod demo;
pub mod documents;
pub mod error;
pub mod logging;
pub mod notices;
pub mod server;
pub mod services;
pub mod settings;
pub mod state;
pub mod store;
pub mod text;
pub mod webhooks;

/// The pure rules (crate `liftdesk-domain`), under their historical path.
pub use liftdesk_domain as domain;
