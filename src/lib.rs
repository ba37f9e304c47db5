//! Liftdesk: the back-office of a lift-maintenance agency, run on its own
//! desktop. This library holds the front doors (the API families, the web
//! UI, the admin CLI) and the server over the application layer (crate
//! `liftdesk-core`), the store (crate `liftdesk-store`) and the domain rules
//! (crate `liftdesk-domain`); the `liftdesk` binary and the desktop shell
//! use it.

pub mod agency_server;
pub mod api;
pub mod auth;
pub mod cli;
pub mod config;
pub mod error;
pub mod logging;
pub mod network;
pub mod server;
pub mod settings;
pub mod state;

/// Installing the demo (`services::demo`).
pub use liftdesk_core::services::demo;
/// The application layer (crate `liftdesk-core`), under its historical paths.
pub use liftdesk_core::{documents, exports, mail, notices, principal, services, webhooks};
/// The pure rules (crate `liftdesk-domain`), under their historical path.
pub use liftdesk_domain as domain;
/// The store (crate `liftdesk-store`) and its clock, backups and French
/// text in SQL, under their historical paths.
pub use liftdesk_store::{self as store, backup, clock, text};
