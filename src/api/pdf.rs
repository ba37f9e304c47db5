//! The answers carrying a document file, shared by the REST API v2 and the
//! web application's API: a PDF (quote, invoice, credit note) and the
//! structured invoice (Factur-X XML).

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa::ToSchema;

use crate::services::documents::{PdfFile, XmlFile};

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

/// Facture structurée Factur-X (CII XML, profil EN 16931).
#[derive(ToSchema)]
#[schema(value_type = String)]
#[allow(dead_code)]
pub struct XmlText(String);

/// `200 application/xml`, downloaded (`attachment`) under its file name.
pub struct XmlResponse(pub XmlFile);

impl IntoResponse for XmlResponse {
    fn into_response(self) -> Response {
        let XmlFile { file_name, xml } = self.0;
        let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
            .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
        (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/xml; charset=utf-8"),
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
            xml,
        )
            .into_response()
    }
}
