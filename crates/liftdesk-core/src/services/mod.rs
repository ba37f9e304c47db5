//! Operations shared by every entry point (CLI, web UI API, REST API v2):
//! each validates its input, applies the domain rules and writes through the
//! store in the caller's transaction, with its audit entry.

pub mod accounts;
pub mod call_feed;
pub mod calls;
pub mod clients;
pub mod contacts;
pub mod credentials;
pub mod directory;
pub mod discrepancies;
pub mod documents;
pub mod equipment;
pub mod imports;
pub mod invoices;
pub mod planning;
pub mod quotes;
pub mod sheet;
pub mod surveys;
pub mod technical_data;
pub mod technicians;
pub mod visits;
pub mod webhooks;
pub mod wf_surveys;
pub mod workflow;
