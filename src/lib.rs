//! Liftdesk: the back-office of a lift-maintenance agency, run on its own
//! desktop. This library holds the API families, the services and the admin
//! CLI over the store (crate `liftdesk-store`) and the domain rules (crate
//! `liftdesk-domain`); the `liftdesk` binary and the desktop shell use it.

pub mod api;
pub mod auth;
pub mod cli;
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
pub mod webhooks;

/// The pure rules (crate `liftdesk-domain`), under their historical path.
pub use liftdesk_domain as domain;
/// The store (crate `liftdesk-store`) and its clock, backups and French
/// text in SQL, under their historical paths.
pub use liftdesk_store::{self as store, backup, clock, text};
