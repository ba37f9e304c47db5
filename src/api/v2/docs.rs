//! `GET /api/v2/docs`: a reading page of the OpenAPI description that works
//! offline. Swagger UI's files come from the `swagger-ui-dist` npm package,
//! copied into `ui/dist/api-docs/` by the UI build and embedded with it.

use axum::http::header;
use axum::response::{Html, IntoResponse};

const PAGE: &str = r#"<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<title>Liftdesk — documentation de l'API REST v2</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api-docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api-docs/swagger-ui-bundle.js"></script>
<script src="/api-docs/init.js"></script>
</body>
</html>
"#;

pub async fn page() -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-cache")], Html(PAGE))
}
