//! The JSON Schemas a ruleset publishes of its content: its options, its actions and its view
//! (`GET /v1/rulesets/{id}` serves them; the OpenAPI document has them as components, e.g.
//! `WizWarAction`). Options and actions are derived with schemars from the Rust types beside
//! their serde derives, so the schema is exactly what serde reads and writes; the view's comes
//! from [`crate::rules::Ruleset::view_schema`]. The conformance suite checks every options set,
//! listed action and view it meets against them.
//!
//! The schemas are JSON Schema 2020-12 (what OpenAPI 3.1 uses), in the plain forms client
//! generators read (see [`for_generators`]).

use std::collections::BTreeMap;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;
use serde_json::{Value, json};

use super::contract::Ruleset;

/// A ruleset's three schemas, each a complete JSON Schema document (its named parts under
/// `$defs`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Schemas {
    pub options: Value,
    pub action: Value,
    pub view: Value,
}

/// The generator every ruleset schema is made with.
pub fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12().into_generator()
}

fn root(generator: SchemaGenerator, schema: schemars::Schema) -> Value {
    let mut generator = generator;
    let mut value = schema.to_value();
    let defs = generator.take_definitions(true);
    // A named type comes as a `$ref` to its definition: the document is that definition (kept
    // under `$defs` too, for a type that refers to itself).
    if let Some(own) = value
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .and_then(|name| defs.get(name))
        && value.as_object().is_some_and(|v| v.len() == 1)
    {
        value = own.clone();
    }
    if let Value::Object(root) = &mut value {
        root.insert(
            "$schema".to_owned(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        if !defs.is_empty() {
            root.insert("$defs".to_owned(), Value::Object(defs));
        }
    }
    for_generators(&mut value);
    value
}

fn root_for<T: JsonSchema>() -> Value {
    let mut value = generator().into_root_schema_for::<T>().to_value();
    for_generators(&mut value);
    value
}

/// The generator of view schemas: a view is only ever written, so its schema describes what
/// serde writes (a field is required unless it is skipped when empty; an `Option` one may be
/// null).
pub fn view_generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
}

/// The schemas of ruleset `R`.
pub fn schemas_of<R: Ruleset>() -> Schemas {
    let mut view_generator = view_generator();
    let view = R::view_schema(&mut view_generator);
    Schemas {
        options: root_for::<R::Options>(),
        action: root_for::<R::Action>(),
        view: root(view_generator, view),
    }
}

/// `wiz-war` → `WizWar`: the prefix of a ruleset's components in the OpenAPI document.
pub fn component_prefix(id: &str) -> String {
    id.split(|c: char| !c.is_ascii_alphanumeric())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The OpenAPI components of a ruleset's schemas: `<Prefix>Options`, `<Prefix>Action` and
/// `<Prefix>View`, and each named part as `<Prefix><Name>`, every `$ref` pointing at
/// `#/components/schemas/`.
pub fn components(id: &str, schemas: &Schemas) -> BTreeMap<String, Value> {
    let prefix = component_prefix(id);
    let mut out = BTreeMap::new();
    for (suffix, schema) in [
        ("Options", &schemas.options),
        ("Action", &schemas.action),
        ("View", &schemas.view),
    ] {
        let mut schema = schema.clone();
        if let Value::Object(root) = &mut schema {
            root.remove("$schema");
            // Generators name models by `title` before the component's name: every ruleset's
            // `Options` would clash.
            root.remove("title");
            if let Some(Value::Object(defs)) = root.remove("$defs") {
                for (name, def) in defs {
                    out.insert(format!("{prefix}{name}"), def);
                }
            }
        }
        out.insert(format!("{prefix}{suffix}"), schema);
    }
    for schema in out.values_mut() {
        rewrite_refs(schema, &prefix);
    }
    hoist_variants(&mut out);
    out
}

/// Makes each variant with data of an enum (`oneOf` member `{"move": {...}}`) a component of
/// its own, `<Enum><Variant>` (e.g. `MonstersAndMagicActionRecruitWith`): openapi-python-client
/// makes models of inline union members twice and refuses the second.
fn hoist_variants(out: &mut BTreeMap<String, Value>) {
    let mut hoisted = Vec::new();
    for (name, schema) in out.iter_mut() {
        let Some(Value::Array(members)) = schema.get_mut("oneOf") else {
            continue;
        };
        for (i, member) in members.iter_mut().enumerate() {
            if member.get("properties").is_none() {
                continue;
            }
            let variant = member
                .pointer("/required/0")
                .and_then(Value::as_str)
                .map_or_else(|| i.to_string(), component_prefix);
            let own = format!("{name}{variant}");
            let body = std::mem::replace(
                member,
                json!({ "$ref": format!("#/components/schemas/{own}") }),
            );
            hoisted.push((own, body));
        }
    }
    out.extend(hoisted);
}

fn rewrite_refs(schema: &mut Value, prefix: &str) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(name) = reference.strip_prefix("#/$defs/")
            {
                *reference = format!("#/components/schemas/{prefix}{name}");
            }
            map.values_mut().for_each(|v| rewrite_refs(v, prefix));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_refs(v, prefix)),
        _ => {}
    }
}

/// Rewrites a schema into the forms client generators read, without changing what it accepts:
/// - `const: x` becomes `enum: [x]` (older generators know no `const`);
/// - a tuple (`prefixItems` and nothing for the other items, as schemars writes a Rust tuple
///   struct like `Pos(u8, u8)`) also says `items`: the one schema of its members, or any of them;
/// - an externally tagged enum's variants with data (`{"play": {...}}`) are objects that say
///   `type: object`, and its unit variants (`"end_turn"`) strings that say `type: string`.
pub fn for_generators(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if let Some(constant) = map.remove("const") {
                map.insert("enum".to_owned(), json!([constant]));
            }
            if let Some(Value::Array(members)) = map.get("prefixItems")
                && !matches!(map.get("items"), Some(Value::Object(_)))
            {
                let mut distinct: Vec<Value> = Vec::new();
                for member in members {
                    if !distinct.contains(member) {
                        distinct.push(member.clone());
                    }
                }
                let items = match distinct.len() {
                    1 => distinct.pop().unwrap_or(Value::Bool(true)),
                    _ => json!({ "anyOf": distinct }),
                };
                map.insert("items".to_owned(), items);
            }
            if !map.contains_key("type") && !map.contains_key("$ref") {
                if map.contains_key("properties") || map.contains_key("required") {
                    map.insert("type".to_owned(), json!("object"));
                } else if let Some(Value::Array(values)) = map.get("enum")
                    && values.iter().all(Value::is_string)
                {
                    map.insert("type".to_owned(), json!("string"));
                }
            }
            map.values_mut().for_each(for_generators);
        }
        Value::Array(items) => items.iter_mut().for_each(for_generators),
        _ => {}
    }
}

/// A Wiz-War card is its key in JSON (`"fireball"`), written by hand in `wiz_war::cards`.
impl JsonSchema for super::wiz_war::CardId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CardId".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> schemars::Schema {
        let keys: Vec<String> = (0..=u16::MAX)
            .map(super::wiz_war::CardId)
            .take_while(|card| card.def().is_some())
            .map(|card| card.key())
            .collect();
        schemars::json_schema!({
            "type": "string",
            "description": "A card, by its key (docs/rules/wiz-war.md lists the cards).",
            "enum": keys,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_schema_says_which_fields_are_always_written_and_which_may_be_null() {
        let view = schemas_of::<crate::rules::wiz_war::WizWar>().view;
        let wizard = &view["$defs"]["WizardView"];
        let required = wizard["required"].as_array().cloned().unwrap_or_default();
        // A hidden hand is written as null: the field is always there, and may be null.
        assert!(required.contains(&json!("hand")), "{wizard}");
        let hand = wizard["properties"]["hand"].to_string();
        assert!(hand.contains("null"), "{hand}");
        assert!(!wizard["properties"]["life"].to_string().contains("null"));
        // A line's `colour` is left out unless it is a door's.
        let line = &view["$defs"]["LineView"];
        let required = line["required"].as_array().cloned().unwrap_or_default();
        assert!(!required.contains(&json!("colour")), "{line}");
        assert!(required.contains(&json!("kind")), "{line}");
        assert_eq!(view["properties"]["phase"]["$ref"], "#/$defs/Step");
    }

    #[test]
    fn the_prefix_is_the_id_in_camel_case() {
        assert_eq!(component_prefix("wiz-war"), "WizWar");
        assert_eq!(component_prefix("gnomes-and-wizards"), "GnomesAndWizards");
    }

    #[test]
    fn a_tuple_gets_items_and_a_const_becomes_an_enum() {
        let mut schema = json!({
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "integer"}],
            "minItems": 2, "maxItems": 2,
            "properties": {"x": {"const": "a"}},
        });
        for_generators(&mut schema);
        assert_eq!(schema["items"], json!({"type": "integer"}));
        assert_eq!(
            schema["properties"]["x"],
            json!({"enum": ["a"], "type": "string"})
        );
    }

    #[test]
    fn components_are_prefixed_and_refs_follow() {
        let schemas = Schemas {
            options: json!({"$schema": "x", "type": "object"}),
            action: json!({"oneOf": [{"$ref": "#/$defs/Card"}], "$defs": {"Card": {"type": "string"}}}),
            view: json!({"type": "object"}),
        };
        let components = components("bag-of-fate", &schemas);
        assert_eq!(
            components.keys().collect::<Vec<_>>(),
            [
                "BagOfFateAction",
                "BagOfFateCard",
                "BagOfFateOptions",
                "BagOfFateView"
            ]
        );
        assert_eq!(
            components["BagOfFateAction"]["oneOf"][0]["$ref"],
            "#/components/schemas/BagOfFateCard"
        );
        assert!(components["BagOfFateOptions"].get("$schema").is_none());
    }

    #[test]
    fn variants_with_data_become_components() {
        let schemas = Schemas {
            options: json!({"type": "object", "title": "Options"}),
            action: json!({"oneOf": [
                {"type": "string", "enum": ["pass"]},
                {"type": "object", "properties": {"recruit_with": {"type": "integer"}},
                 "required": ["recruit_with"]},
            ]}),
            view: json!({"type": "object"}),
        };
        let components = components("monsters-and-magic", &schemas);
        assert!(components["MonstersAndMagicOptions"].get("title").is_none());
        assert_eq!(
            components["MonstersAndMagicAction"]["oneOf"][1],
            json!({"$ref": "#/components/schemas/MonstersAndMagicActionRecruitWith"})
        );
        assert_eq!(
            components["MonstersAndMagicActionRecruitWith"]["required"],
            json!(["recruit_with"])
        );
    }
}
