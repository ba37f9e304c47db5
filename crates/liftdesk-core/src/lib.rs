//! `liftdesk-core`: the application layer. One module per aggregate under
//! `services` holds its operations (input checks, the domain's rules, the
//! writes with their audit entry and outbox rows in one transaction of the
//! store); `documents` renders quotes and invoices as PDF, `webhooks` signs
//! and sends the queued deliveries, `notices` tells the desktop shell what
//! happened. It returns its refusals as `AppError`, which each front door
//! (the root crate `liftdesk`) turns into its own wire form. It names no
//! HTTP server crate and no database engine.

pub mod auth;
pub mod documents;
pub mod error;
pub mod exports;
pub mod mail;
pub mod notices;
pub mod principal;
pub mod services;
pub mod webhooks;

/// The pure rules (crate `liftdesk-domain`).
pub use liftdesk_domain as domain;
/// The store (crate `liftdesk-store`), its clock and French text in SQL.
pub use liftdesk_store::{self as store, clock, text};
