//! The JSON of `contacts` shared by the REST API v2 (`api::v2::contacts`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use std::borrow::Cow;
use ts_rs::TS;

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::api::wire::{Created, RecordKind};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::contacts::{self as service, FieldSpec, FieldType, MAX_TEXT_CHARS};
use crate::state::AppState;

/// Type d'un champ : `text`, `number`, `choice` (une valeur de `values`),
/// `multi` (une liste de valeurs de `values`), `email` ou `date` (AAAA-MM-JJ).
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum FieldTypeCode {
    Text,
    Number,
    Choice,
    Multi,
    Email,
    Date,
}

/// L'objet auquel rattacher le contact (`parentId` à la création).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct DescriptorParent {
    /// Nom du champ parent.
    pub label: String,
    /// Type de l'objet parent.
    pub object: String,
    /// Toujours vrai : sans parent, la création est refusée.
    pub required: bool,
}

/// Un champ à remplir.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct DescriptorField {
    /// Clé à envoyer dans `champs`.
    pub id: String,
    /// Nom du champ, en français ; les refus nomment le champ ainsi.
    pub label: String,
    /// Sans ce champ, la création est refusée (422).
    pub required: bool,
    #[serde(rename = "type")]
    #[schema(value_type = FieldTypeCode)]
    pub field_type: String,
    /// Valeurs autorisées d'un champ `choice` ou `multi`, sinon null.
    #[schema(required = true)]
    pub values: Option<Vec<String>>,
}

/// Le descripteur de création d'un contact : exactement ces trois champs.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct CreationDescriptor {
    /// Type de l'objet créé, au singulier.
    #[serde(rename = "type")]
    pub object_type: String,
    /// L'objet auquel rattacher le contact (`parentId` à la création).
    #[schema(required = true)]
    pub parent: Option<DescriptorParent>,
    /// Les champs à remplir, dans l'ordre du formulaire.
    pub fields: Vec<DescriptorField>,
}

pub(crate) fn descriptor_field(field: &FieldSpec) -> DescriptorField {
    DescriptorField {
        id: field.id.to_owned(),
        label: field.label.to_owned(),
        required: field.required,
        field_type: field.kind.code().to_owned(),
        values: field
            .kind
            .has_values()
            .then(|| field.values.iter().map(|v| (*v).to_owned()).collect()),
    }
}

/// The descriptor, written from `services::contacts::{OBJECT_TYPE, PARENT,
/// FIELDS}`: `GET /contacts/creation` and the MCP tool `descripteur_contact`.
pub fn contact_descriptor() -> CreationDescriptor {
    CreationDescriptor {
        object_type: service::OBJECT_TYPE.to_owned(),
        parent: Some(DescriptorParent {
            label: service::PARENT.label.to_owned(),
            object: service::PARENT.object.to_owned(),
            required: true,
        }),
        fields: service::FIELDS.iter().map(descriptor_field).collect(),
    }
}

/// Un contact à créer : `parentId` et `champs`, comme le décrit
/// `GET /contacts/creation`. Its published schemas (OpenAPI and MCP) are
/// written from `services::contacts::FIELDS` by `body_schema`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContactBody {
    /// Read as any JSON value so that an absent, null or mistyped parent is
    /// refused by the service with the parent's French label.
    #[serde(default)]
    pub parent_id: Option<Value>,
    #[serde(default)]
    pub champs: Option<Map<String, Value>>,
}

/// The JSON Schema of one field's value in `champs`, from its spec.
pub(crate) fn field_schema(field: &FieldSpec) -> Value {
    let kind = match field.kind {
        FieldType::Text | FieldType::Choice | FieldType::Email | FieldType::Date => "string",
        FieldType::Number => "number",
        FieldType::Multi => "array",
    };
    let mut schema = Map::new();
    schema.insert(
        "type".into(),
        if field.required {
            json!(kind)
        } else {
            json!([kind, "null"])
        },
    );
    let what = match field.kind {
        FieldType::Text => "texte",
        FieldType::Number => "nombre",
        FieldType::Choice => "une des valeurs autorisées",
        FieldType::Multi => "liste de valeurs autorisées",
        FieldType::Email => "adresse e-mail",
        FieldType::Date => "date AAAA-MM-JJ",
    };
    let presence = if field.required {
        "obligatoire"
    } else {
        "facultatif ; null ou vide : sans valeur"
    };
    schema.insert(
        "description".into(),
        json!(format!("{} ({what}, {presence}).", field.label)),
    );
    match field.kind {
        FieldType::Text | FieldType::Email => {
            schema.insert("maxLength".into(), json!(MAX_TEXT_CHARS));
            if field.required {
                schema.insert("minLength".into(), json!(1));
            }
            if field.kind == FieldType::Email {
                schema.insert("format".into(), json!("email"));
            }
        }
        FieldType::Choice => {
            let mut values: Vec<Value> = field.values.iter().map(|v| json!(v)).collect();
            if !field.required {
                values.push(Value::Null);
            }
            schema.insert("enum".into(), Value::Array(values));
        }
        FieldType::Multi => {
            schema.insert(
                "items".into(),
                json!({ "type": "string", "enum": field.values }),
            );
            if field.required {
                schema.insert("minItems".into(), json!(1));
            }
        }
        FieldType::Date => {
            schema.insert("format".into(), json!("date"));
        }
        FieldType::Number => {}
    }
    Value::Object(schema)
}

/// The JSON Schema of the creation body, written from the field table:
/// `champs` holds exactly the fields of `FIELDS`.
pub fn body_schema() -> Value {
    let properties: Map<String, Value> = service::FIELDS
        .iter()
        .map(|f| (f.id.to_owned(), field_schema(f)))
        .collect();
    let required: Vec<&str> = service::FIELDS
        .iter()
        .filter(|f| f.required)
        .map(|f| f.id)
        .collect();
    json!({
        "type": "object",
        "description": "Un contact à créer, comme le décrit `GET /contacts/creation`.",
        "properties": {
            "parentId": {
                "type": "string",
                "minLength": 1,
                "description": format!(
                    "{} du contact (obligatoire) : l'identifiant `client_id` d'un client de l'agence, l'`id` d'une ligne de `GET /clients`.",
                    service::PARENT.label
                ),
            },
            "champs": {
                "type": "object",
                "description": "Les champs du contact, par leur `id` du descripteur : seuls ces champs sont acceptés.",
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            },
        },
        "required": ["parentId", "champs"],
        "additionalProperties": false,
    })
}

impl utoipa::PartialSchema for ContactBody {
    fn schema() -> RefOr<Schema> {
        serde_json::from_value::<Schema>(body_schema()).map_or_else(
            |reason| {
                tracing::error!(%reason, "schéma OpenAPI du corps de POST /contacts invalide");
                RefOr::T(Schema::default())
            },
            RefOr::T,
        )
    }
}

impl ToSchema for ContactBody {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ContactBody")
    }
}

impl schemars::JsonSchema for ContactBody {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ContactBody")
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::try_from(body_schema()).unwrap_or_else(|reason| {
            tracing::error!(%reason, "schéma MCP du corps de POST /contacts invalide");
            schemars::json_schema!({ "type": "object" })
        })
    }
}

/// Creates the contact in the acting agency: `POST /contacts` and the MCP
/// tool `creer_contact`.
pub async fn contact_creation(
    state: &AppState,
    caller: &Principal,
    body: ContactBody,
) -> AppResult<Created> {
    let champs = body.champs.unwrap_or_default();
    let id = service::create_for(&state.store, caller, body.parent_id, champs).await?;
    Ok(Created::new(
        RecordKind::Contact,
        &state.base_url,
        id.as_str(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptor is the field table, entry by entry.
    #[test]
    fn the_descriptor_is_the_field_table() {
        let descriptor = contact_descriptor();
        assert_eq!(descriptor.object_type, "contact");
        assert_eq!(descriptor.fields.len(), service::FIELDS.len());
        for (field, spec) in descriptor.fields.iter().zip(service::FIELDS.iter()) {
            assert_eq!(field.id, spec.id);
            assert_eq!(field.label, spec.label);
            assert_eq!(field.required, spec.required);
            assert_eq!(field.field_type, spec.kind.code());
            match &field.values {
                Some(values) => assert_eq!(values, &spec.values.to_vec()),
                None => assert!(!spec.kind.has_values()),
            }
        }
    }

    /// The published schemas are the table too, and are valid schemas.
    #[test]
    fn the_body_schema_is_written_from_the_field_table() {
        let schema = body_schema();
        let champs = &schema["properties"]["champs"];
        let mut ids: Vec<&str> = champs["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .map(String::as_str)
            .collect();
        ids.sort_unstable();
        let mut expected: Vec<&str> = service::FIELDS.iter().map(|f| f.id).collect();
        expected.sort_unstable();
        assert_eq!(ids, expected);
        assert_eq!(champs["required"], json!(["nom"]));
        assert_eq!(champs["additionalProperties"], json!(false));
        assert_eq!(
            champs["properties"]["fonction"]["enum"]
                .as_array()
                .map(Vec::len),
            Some(service::FONCTIONS.len() + 1)
        );
        assert!(serde_json::from_value::<Schema>(schema.clone()).is_ok());
        assert!(schemars::Schema::try_from(schema).is_ok());
    }
}
