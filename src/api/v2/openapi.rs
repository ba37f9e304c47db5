//! The machine-readable description of the REST API v2 (OpenAPI 3.1),
//! generated from the handlers' annotations: `GET /api/v2/openapi.json`.

use utoipa::openapi::path::{Operation, Parameter, ParameterIn};
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, ObjectBuilder, OpenApi, RefOr, Required, Type,
};
use utoipa::{Modify, OpenApi as _};

use crate::error::ErrorBody;

pub const API_VERSION: &str = "2.0.0-beta";
const SECURITY_SCHEME: &str = "jeton_api";

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Liftdesk — API REST v2",
        version = "2.0.0-beta",
        description = "API REST v2 de Liftdesk, le back-office de maintenance d'ascenseurs. Chaque appel porte `Authorization: Bearer <jeton d'API svc_agent_…>` et agit dans l'agence de l'en-tête `X-Service-Agency` (à défaut, l'agence par défaut du compte). Les erreurs sont `{\"error\": \"<raison en français>\"}`.",
    ),
    servers((url = "/api/v2", description = "Ce serveur")),
    components(schemas(ErrorBody)),
    modifiers(&CommonParts),
)]
struct ApiDoc;

/// The base description the handlers' paths are added to.
pub fn base() -> OpenApi {
    let mut doc = ApiDoc::openapi();
    // Without an explicit value utoipa would publish the crate's license field.
    doc.info.license = None;
    doc
}

/// Applied once every path is known (see `finish`).
struct CommonParts;

impl Modify for CommonParts {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            SECURITY_SCHEME,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("Jeton d'API `svc_agent_` suivi de 32 caractères, créé dans Clés et jetons."))
                    .build(),
            ),
        );
    }
}

fn error_response(description: &str) -> RefOr<Response> {
    RefOr::T(
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                        "ErrorBody",
                    ))))
                    .build(),
            )
            .build(),
    )
}

fn agency_header() -> Parameter {
    let mut parameter = Parameter::new("X-Service-Agency");
    parameter.parameter_in = ParameterIn::Header;
    parameter.required = Required::False;
    parameter.description = Some(
        "Identifiant (UUID) de l'agence où agir ; à défaut, l'agence par défaut du compte. Hors du périmètre : 403.".to_owned(),
    );
    parameter.schema = Some(RefOr::T(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Uuid,
            )))
            .into(),
    ));
    parameter
}

/// Adds what every operation shares: the bearer token, `X-Service-Agency`,
/// and the refusals any call can get (400 for a malformed header, 401, 403,
/// 429 with `Retry-After`).
pub fn finish(openapi: &mut OpenApi) {
    let too_many = RefOr::T(
        ResponseBuilder::new()
            .description("Trop d'appels : réessayer après le délai de `Retry-After` (secondes).")
            .header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(Some(ObjectBuilder::new().schema_type(Type::Integer)))
                    .description(Some("Secondes à attendre"))
                    .build(),
            )
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                        "ErrorBody",
                    ))))
                    .build(),
            )
            .build(),
    );
    for item in openapi.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        for operation in operations.into_iter().flatten() {
            add_common(operation, &too_many);
        }
    }
}

fn add_common(operation: &mut Operation, too_many: &RefOr<Response>) {
    operation
        .security
        .get_or_insert_with(Vec::new)
        .push(SecurityRequirement::new(
            SECURITY_SCHEME,
            Vec::<String>::new(),
        ));
    operation
        .parameters
        .get_or_insert_with(Vec::new)
        .push(RefOr::T(agency_header()));
    let responses = &mut operation.responses.responses;
    responses.entry("400".to_owned()).or_insert_with(|| {
        error_response(
            "Requête mal formée (par exemple un en-tête X-Service-Agency qui n'est pas un UUID).",
        )
    });
    responses
        .entry("401".to_owned())
        .or_insert_with(|| error_response("Jeton manquant, inconnu ou révoqué."));
    responses.entry("403".to_owned()).or_insert_with(|| {
        error_response("Agence hors du périmètre du jeton, ou droit insuffisant.")
    });
    responses
        .entry("429".to_owned())
        .or_insert_with(|| too_many.clone());
}
