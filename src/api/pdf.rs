//! The answer carrying a PDF document (quote, invoice, credit note), shared
//! by the REST API v2 and the web application's API.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa::ToSchema;

use crate::services::documents::PdfFile;

/// Document PDF (octets bruts, `application/pdf`).
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)]
pub struct PdfBinary(Vec<u8>);

/// `200 application/pdf`, shown in the browser (`inline`) under its file
/// name; never cached (the document of a draft changes).
pub struct PdfResponse(pub PdfFile);

impl IntoResponse for PdfResponse {
    fn into_response(self) -> Response {
        let PdfFile { file_name, bytes } = self.0;
        let disposition = HeaderValue::from_str(&format!("inline; filename=\"{file_name}\""))
            .unwrap_or_else(|_| HeaderValue::from_static("inline"));
        (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/pdf"),
                ),
                (header::CONTENT_DISPOSITION, disposition),
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("private, no-store"),
                ),
                (
                    header::X_CONTENT_TYPE_OPTIONS,
                    HeaderValue::from_static("nosniff"),
                ),
            ],
            bytes,
        )
            .into_response()
    }
}
