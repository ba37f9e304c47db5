//! The operations of every front door (REST API v2, web app API, MCP, the
//! call-center and partner APIs, the command line), one module per
//! aggregate. An operation takes the store and the `Principal` that acts,
//! checks the agency and the capability it needs, opens its own transaction,
//! and returns a read model; inside, it validates its input, applies the
//! domain's rules and writes with its audit entry and outbox rows. The
//! functions taking a `Tx` or a `Conn` are its steps.

pub mod accounts;
pub mod agencies;
pub mod buildings;
pub mod call_feed;
pub mod calls;
pub mod clients;
pub mod contacts;
pub mod contract_billing;
pub mod contract_response;
pub mod contracts;
pub mod credentials;
pub mod dashboard;
pub mod demo;
pub mod directory;
pub mod discrepancies;
pub mod documents;
pub mod equipment;
pub mod exports;
pub mod identity;
pub mod imports;
pub mod installation;
pub mod invoices;
pub mod journal;
pub mod mailing;
pub mod people;
pub mod planning;
pub mod quotes;
pub mod search;
pub mod sessions;
pub mod sheet;
pub mod surveys;
pub mod technical_data;
pub mod technicians;
pub mod visits;
pub mod webhooks;
pub mod wf_surveys;
pub mod workflow;
