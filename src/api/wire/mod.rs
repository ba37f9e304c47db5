//! Wire shapes shared by the JSON front doors (the REST API v2, the web
//! application's API, the MCP tools): records' `link` and `url`, creation
//! answers, paged lists and their parameters.

pub mod agencies;
pub mod buildings;
pub mod calls;
pub mod clients;
pub mod contacts;
pub mod contract_billing;
pub mod contracts;
pub mod discrepancies;
pub mod equipment;
pub mod external;
pub mod identity;
pub mod imports;
pub mod invoices;
pub mod mail;
pub mod me;
pub mod people;
pub mod planning;
pub mod quotes;
pub mod surveys;
pub mod technical_fields;
pub mod technicians;
pub mod visits;
pub mod webhooks;

use std::fmt::Write as _;
use ts_rs::TS;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;

/// Where a record is shown in the service: the UI route of its screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    Equipment,
    Survey,
    Visit,
    Quote,
    Invoice,
    Call,
    Discrepancy,
    Deal,
    /// A client, by its partner identifier `client_id` (the only client
    /// identifier the interface shows).
    Client,
    /// A contact of a client, by its id.
    Contact,
    /// A maintenance contract.
    Contract,
}

impl RecordKind {
    fn route(self) -> &'static str {
        match self {
            Self::Equipment => "/equipements",
            Self::Survey => "/releves",
            Self::Visit => "/visites",
            Self::Quote => "/devis",
            Self::Invoice => "/factures",
            Self::Call => "/appels",
            Self::Discrepancy => "/ecarts",
            Self::Deal => "/affaires",
            Self::Client => "/clients",
            Self::Contact => "/contacts",
            Self::Contract => "/contrats",
        }
    }

    /// `link`: path of the record in the service. The id is one path
    /// segment: anything but letters, digits and `-._~` is percent-encoded
    /// (UUIDs are unchanged; a client's partner identifier may hold spaces
    /// or slashes).
    pub fn link(self, id: &str) -> String {
        self.address("", id)
    }

    /// `url`: full address of the record, to open in a browser.
    pub fn url(self, base_url: &str, id: &str) -> String {
        self.address(base_url, id)
    }

    /// `base` + route + `/` + segment, in one allocation of the right size
    /// (every row of a list has two of them).
    fn address(self, base: &str, id: &str) -> String {
        let route = self.route();
        let mut out = String::with_capacity(base.len() + route.len() + 1 + id.len());
        out.push_str(base);
        out.push_str(route);
        out.push('/');
        encode_segment(id, &mut out);
        out
    }
}

/// Percent-encodes a path segment (RFC 3986: only unreserved characters
/// are kept).
fn encode_segment(id: &str, out: &mut String) {
    let unreserved =
        |byte: u8| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~');
    if id.bytes().all(unreserved) {
        out.push_str(id);
        return;
    }
    for byte in id.bytes() {
        if unreserved(byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
}

/// `{"id", "link", "url"}` of a referenced record.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct RecordRef {
    pub id: String,
    pub link: String,
    pub url: String,
}

impl RecordRef {
    pub fn new(kind: RecordKind, base_url: &str, id: &str) -> Self {
        Self {
            id: id.to_owned(),
            link: kind.link(id),
            url: kind.url(base_url, id),
        }
    }
}

/// The answer of every creation (201): `ok` is always true; a refusal is an
/// error status with its French reason, never `ok: false`.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct Created {
    pub id: String,
    /// Always true.
    pub ok: bool,
    pub link: String,
    pub url: String,
}

impl Created {
    pub fn new(kind: RecordKind, base_url: &str, id: &str) -> Self {
        Self {
            id: id.to_owned(),
            ok: true,
            link: kind.link(id),
            url: kind.url(base_url, id),
        }
    }
}

pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 200;

/// `limit` and `page` as sent; checked by `Paging::from_query`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub limit: u32,
    pub page: u32,
}

impl Paging {
    pub fn offset(self) -> u64 {
        u64::from(self.page - 1) * u64::from(self.limit)
    }

    /// Not an integer: 400; out of range: 422.
    pub fn from_query(query: &PageQuery) -> Result<Self, ApiError> {
        let parse = |name: &str,
                     raw: &Option<String>,
                     default: u32,
                     max: Option<u32>|
         -> Result<u32, ApiError> {
            let Some(raw) = raw.as_deref() else {
                return Ok(default);
            };
            let value: i64 = raw.trim().parse().map_err(|_| {
                ApiError::bad_request(format!(
                    "Le paramètre « {name} » doit être un nombre entier."
                ))
            })?;
            let upper = i64::from(max.unwrap_or(u32::MAX));
            if value < 1 || value > upper {
                return Err(ApiError::unprocessable(match max {
                    Some(max) => {
                        format!("Le paramètre « {name} » doit être compris entre 1 et {max}.")
                    }
                    None if value < 1 => {
                        format!("Le paramètre « {name} » doit être supérieur ou égal à 1.")
                    }
                    None => format!(
                        "Le paramètre « {name} » est trop grand (au plus {}).",
                        u32::MAX
                    ),
                }));
            }
            u32::try_from(value).map_err(|_| {
                ApiError::unprocessable(format!("Le paramètre « {name} » est trop grand."))
            })
        };
        Ok(Self {
            limit: parse("limit", &query.limit, DEFAULT_LIMIT, Some(MAX_LIMIT))?,
            page: parse("page", &query.page, 1, None)?,
        })
    }
}

/// A paged list: `total` rows match across all pages.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct Page<T> {
    pub total: i64,
    pub page: u32,
    pub limit: u32,
    pub results: Vec<T>,
}

impl<T: ToSchema + Serialize> IntoResponse for Page<T> {
    fn into_response(self) -> Response {
        list_json(&self, self.results.len())
    }
}

/// A list answered as a bare JSON array (the planning's entries, the
/// technicians), sized like a page.
pub struct Rows<T>(pub Vec<T>);

impl<T: Serialize> IntoResponse for Rows<T> {
    fn into_response(self) -> Response {
        list_json(&self.0, self.0.len())
    }
}

/// About what a list row takes in JSON (an invoice row: some 450 bytes).
const ROW_BYTES: usize = 512;

/// A list as JSON, written into a buffer sized from its number of rows:
/// `axum::Json` starts from 128 bytes and grows (and copies) it eight times
/// for 50 invoices, which cost as much as the rest of a cached answer.
/// Public for the benchmarks' in-memory routes, which answer the same way.
pub fn list_json<T: Serialize>(value: &T, rows: usize) -> Response {
    let mut body = Vec::with_capacity(64 + rows.saturating_mul(ROW_BYTES));
    match serde_json::to_writer(&mut body, value) {
        Ok(()) => (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            body,
        )
            .into_response(),
        Err(err) => {
            ApiError::from(anyhow::Error::new(err).context("liste en JSON")).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paging(limit: Option<&str>, page: Option<&str>) -> Result<Paging, u16> {
        Paging::from_query(&PageQuery {
            limit: limit.map(str::to_owned),
            page: page.map(str::to_owned),
        })
        .map_err(|e| e.status().as_u16())
    }

    #[test]
    fn paging_defaults_bounds_and_malformed_values() {
        assert_eq!(paging(None, None), Ok(Paging { limit: 50, page: 1 }));
        assert_eq!(
            paging(Some("200"), Some("3")),
            Ok(Paging {
                limit: 200,
                page: 3
            })
        );
        assert_eq!(paging(Some("201"), None), Err(422));
        assert_eq!(paging(Some("0"), None), Err(422));
        assert_eq!(paging(None, Some("0")), Err(422));
        assert_eq!(paging(None, Some("-2")), Err(422));
        assert_eq!(paging(None, Some("4294967296")), Err(422));
        let message = Paging::from_query(&PageQuery {
            limit: None,
            page: Some("4294967296".into()),
        })
        .map_err(|e| e.public_message());
        assert_eq!(
            message,
            Err("Le paramètre « page » est trop grand (au plus 4294967295).".to_owned())
        );
        assert_eq!(paging(Some("abc"), None), Err(400));
        assert_eq!(paging(Some("1.5"), None), Err(400));
        assert_eq!(Paging { limit: 50, page: 3 }.offset(), 100);
    }

    /// What a sized list answer sends: the same JSON as `axum::Json`, with
    /// its content type, for a page and for a bare array, empty or not.
    #[tokio::test]
    async fn lists_are_answered_as_plain_json() {
        async fn answer(response: Response) -> (String, serde_json::Value) {
            let kind = response
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("body");
            (kind, serde_json::from_slice(&bytes).expect("JSON"))
        }
        let rows: Vec<String> = (0..3).map(|n| format!("ligne « {n} »")).collect();
        let page = Page {
            total: 7,
            page: 2,
            limit: 3,
            results: rows.clone(),
        };
        let (kind, body) = answer(page.into_response()).await;
        assert_eq!(kind, "application/json");
        assert_eq!(
            body,
            serde_json::json!({"total": 7, "page": 2, "limit": 3,
                "results": ["ligne « 0 »", "ligne « 1 »", "ligne « 2 »"]})
        );
        let (kind, body) = answer(Rows(rows).into_response()).await;
        assert_eq!(kind, "application/json");
        assert_eq!(
            body,
            serde_json::json!(["ligne « 0 »", "ligne « 1 »", "ligne « 2 »"])
        );
        let (_, body) = answer(Rows(Vec::<String>::new()).into_response()).await;
        assert_eq!(body, serde_json::json!([]));
    }

    #[test]
    fn links_point_to_the_ui_route() {
        assert_eq!(RecordKind::Survey.link("abc"), "/releves/abc");
        assert_eq!(
            RecordKind::Quote.url("http://127.0.0.1:8080", "q1"),
            "http://127.0.0.1:8080/devis/q1"
        );
        let uuid = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
        assert_eq!(RecordKind::Invoice.link(uuid), format!("/factures/{uuid}"));
        assert_eq!(RecordKind::Client.link("CLI-000105"), "/clients/CLI-000105");
        assert_eq!(
            RecordKind::Client.link("Dupont & fils/2 é"),
            "/clients/Dupont%20%26%20fils%2F2%20%C3%A9"
        );
    }
}
