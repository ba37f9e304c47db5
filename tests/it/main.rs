//! The integration tests, as one program: one module per area (the real
//! server on port 0, the real binary where the process matters), sharing the
//! harness in `common`, the workflow API's helpers in `wf` and the property
//! tests' generators in `fuzz`. One binary links the crate once, instead of
//! once per file.

mod common;
mod fuzz;
mod wf;

mod addresses;
mod agency_agencies;
mod agency_identity;
mod agency_operations;
mod agency_people;
mod api_auth;
mod app_billing;
mod app_buildings;
mod app_calls;
mod app_clients;
mod app_clients_by_hand;
mod app_dashboard;
mod app_equipment;
mod app_exports;
mod app_imports;
mod app_journal;
mod app_keys;
mod app_mail;
mod app_planning;
mod app_search;
mod app_session;
mod app_settings;
mod app_setup;
mod app_surveys;
mod app_technicians;
mod app_webhooks;
mod backup;
mod billing_choices;
mod call_center;
mod cli;
mod crash_safety;
mod credential_kinds;
mod demo;
mod desktop_core;
mod documents_pdf;
mod french_order;
mod fuzz_bodies;
mod fuzz_imports;
mod idempotence_load;
mod isolation_matrix;
mod mcp;
mod mcp_billing;
mod mcp_calls;
mod mcp_contacts;
mod mcp_equipment;
mod migrations;
mod secrets;
mod serve;
mod v2_call_life;
mod v2_calls_list;
mod v2_clients_list;
mod v2_contacts;
mod v2_equipment_and_surveys;
mod v2_imports;
mod v2_isolation;
mod v2_openapi;
mod v2_org_and_planning;
mod v2_organization_admin;
mod v2_quotes_and_invoices;
mod v2_quotes_and_invoices_life;
mod v2_survey_submit;
mod webhooks;
mod webhooks_restart;
mod wf_clients;
mod wf_equipment_data;
mod wf_sheet;
mod wf_stats;
mod wf_surveys;
