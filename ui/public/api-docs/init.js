// Starts Swagger UI on the REST API v2 description (a file, not an inline
// script, so the page needs no 'unsafe-inline').
window.addEventListener('load', () => {
  window.ui = window.SwaggerUIBundle({
    url: '/api/v2/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: false,
  });
});
