//! The technical-field catalog (`technical_fields`): every datum a survey can
//! record, with its label, unit, component, value type, allowed values,
//! search words, V1 names and partner-API name. Small (a few dozen rows):
//! read whole, searched and validated in Rust.

use crate::Conn;

use super::StoreResult;

/// How a datum's JSON value is typed (`value_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    Text,
    Number,
    Integer,
    Boolean,
    /// One of `choices`.
    Choice,
    /// Several of `choices` (a JSON array).
    Multi,
}

impl ValueType {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "text" => Some(Self::Text),
            "number" => Some(Self::Number),
            "integer" => Some(Self::Integer),
            "boolean" => Some(Self::Boolean),
            "choice" => Some(Self::Choice),
            "multi" => Some(Self::Multi),
            _ => None,
        }
    }

    /// The stored code, as [`ValueType::parse`] reads it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Number => "number",
            Self::Integer => "integer",
            Self::Boolean => "boolean",
            Self::Choice => "choice",
            Self::Multi => "multi",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CatalogField {
    pub code: String,
    /// French label, as read in the service.
    pub label: String,
    pub unit: Option<String>,
    /// None for the equipment itself, else a component key (`car_door`, `machine`…).
    pub component: Option<String>,
    pub value_type: ValueType,
    /// Allowed values of a choice or multi field.
    pub choices: Vec<String>,
    /// Space-separated search words.
    pub synonyms: String,
    pub v1_table: String,
    pub v1_field: String,
    /// Name of the field in the partner workflow API, when it has one.
    pub partner_key: Option<String>,
    /// Equipment types the field applies to; None = every type.
    pub applies_to: Option<Vec<String>>,
    pub position: i64,
}

impl CatalogField {
    /// Whether the field applies to an equipment of that type (a field
    /// restricted to some types never applies to an equipment without type).
    pub fn applies_to_type(&self, equipment_type: Option<&str>) -> bool {
        match &self.applies_to {
            None => true,
            Some(types) => equipment_type.is_some_and(|t| types.iter().any(|x| x == t)),
        }
    }
}

/// The whole catalog, in its display order.
pub fn all(conn: &Conn) -> StoreResult<Vec<CatalogField>> {
    let mut stmt = conn.prepare_cached(
        "SELECT code, label, unit, component, value_type, choices, synonyms, v1_table, v1_field,
                partner_key, applies_to, position
         FROM technical_fields ORDER BY position, code",
    )?;
    let rows = stmt.query_map([], |r| {
        let value_type: String = r.get(4)?;
        let choices: Option<String> = r.get(5)?;
        let applies_to: Option<String> = r.get(10)?;
        Ok(CatalogField {
            code: r.get(0)?,
            label: r.get(1)?,
            unit: r.get(2)?,
            component: r.get(3)?,
            // The table's CHECK constraint allows only the six known types.
            value_type: ValueType::parse(&value_type).unwrap_or(ValueType::Text),
            // json_valid and json_type = 'array' are checked by the table.
            choices: choices
                .and_then(|c| serde_json::from_str::<Vec<String>>(&c).ok())
                .unwrap_or_default(),
            synonyms: r.get(6)?,
            v1_table: r.get(7)?,
            v1_field: r.get(8)?,
            partner_key: r.get(9)?,
            applies_to: applies_to.map(|list| {
                list.split(',')
                    .map(|t| t.trim().to_owned())
                    .filter(|t| !t.is_empty())
                    .collect()
            }),
            position: r.get(11)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}
