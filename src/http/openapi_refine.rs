//! What the route annotations cannot say about a value's shape, said once for the whole
//! document, so that a client (or a fuzzer) that sends what the document allows is not refused:
//! the form of a list cursor, an `Idempotency-Key`, an event id; the bounds of `after`; the
//! statuses a filter names; the ruleset ids; and the events of the two event streams, each an
//! object whose `data` is JSON of a documented schema (`contentMediaType`/`contentSchema`).

use serde_json::json;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::path::{Operation, Parameter};
use utoipa::openapi::schema::{
    KnownFormat, Object, ObjectBuilder, OneOfBuilder, SchemaFormat, SchemaType, Type,
};
use utoipa::openapi::{OpenApi, RefOr, Schema};

use crate::service::cursor;

/// 1 to 255 visible ASCII characters.
pub const IDEMPOTENCY_KEY_PATTERN: &str = "^[!-~]{1,255}$";
/// An account stream's event id: `<microseconds>.<game>.<version>`.
/// Only its time is read (`service::streams::resume_time`): what follows the first dot is free.
pub const ACCOUNT_EVENT_ID_PATTERN: &str = "^[0-9]{1,16}(\\.[!-~]*)?$";
/// An address with a dotted domain (`service::users::valid_email`).
pub const EMAIL_PATTERN: &str = "^[^@\\s]+@[^@\\s.][^@\\s]*\\.[^@\\s]*[^@\\s.]$";
/// A display name (`service::users::valid_name`) or an API token's name: no control character (Unicode `Cc`), and at
/// least one character that is neither a control character nor white space (Unicode
/// `White_Space`, which Rust's `trim` drops).
pub const DISPLAY_NAME_PATTERN: &str = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x1f\\x7f-\\x9f \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$";
/// The statuses `GET /v1/me/games?status=` may name, comma-separated.
pub const STATUS_LIST_PATTERN: &str =
    "^(open|active|finished|abandoned)(,(open|active|finished|abandoned))*$";

/// What the document says of a hosted ruleset in `createGame`.
pub struct RulesetBounds {
    pub id: &'static str,
    /// Seats with the default options (`Game::seats` of `null`); options may narrow it.
    pub seats: std::ops::RangeInclusive<usize>,
}

/// Applies every refinement to the document.
pub fn refine(api: &mut OpenApi, rulesets: &[RulesetBounds]) {
    for item in api.paths.paths.values_mut() {
        for op in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
        {
            refine_parameters(op);
            refine_streams(op);
        }
    }
    // Addresses: `format: email`, with the dotted domain the service also wants.
    for (component, field) in [("RegisterRequest", "email"), ("Invite", "email")] {
        if let Some(email) = property(api, component, field) {
            email.format = Some(SchemaFormat::KnownFormat(KnownFormat::Email));
            email.pattern = Some(EMAIL_PATTERN.to_owned());
            email.max_length = Some(254);
        }
    }
    // Names that are trimmed, then must be non-empty and free of control characters.
    for (component, field) in [
        ("RegisterRequest", "display_name"),
        ("CreateApiToken", "name"),
    ] {
        if let Some(name) = property(api, component, field) {
            name.pattern = Some(DISPLAY_NAME_PATTERN.to_owned());
        }
    }
    if let Some(ruleset) = property(api, "CreateGame", "ruleset") {
        ruleset.enum_values = Some(rulesets.iter().map(|r| json!(r.id)).collect());
    }
    if let Some(create) = component(api, "CreateGame") {
        seat_bounds(create, rulesets);
    }
    // `setMailPreferences` changes something: `mail` or `pictures` given, not `null`
    // (`service::users::set_preferences`).
    if let Some(prefs) = component(api, "SetPreferences") {
        prefs
            .extensions
            .get_or_insert_with(Extensions::default)
            .insert(
                "allOf".to_owned(),
                json!([{"anyOf": [
                    {"required": ["mail"], "properties": {"mail": {"type": "string"}}},
                    {"required": ["pictures"], "properties": {"pictures": {"type": "boolean"}}},
                ]}]),
            );
    }
}

/// The object schema of component `name`.
fn component<'a>(api: &'a mut OpenApi, name: &str) -> Option<&'a mut Object> {
    match api.components.as_mut()?.schemas.get_mut(name)? {
        RefOr::T(Schema::Object(o)) => Some(o),
        _ => None,
    }
}

/// The object schema of property `field` of component `name`.
fn property<'a>(api: &'a mut OpenApi, name: &str, field: &str) -> Option<&'a mut Object> {
    match component(api, name)?.properties.get_mut(field)? {
        RefOr::T(Schema::Object(o)) => Some(o),
        _ => None,
    }
}

/// `CreateGame`: `seats` within the widest range of any ruleset, `bots` from 0; and, for each
/// ruleset (JSON Schema's `if`/`then`, which generators ignore and validators check), `seats`
/// within its range and `bots` below `seats`, as `service::games::create` wants them.
/// (`options` is not tied to `<Prefix>Options` here: schemathesis cannot generate from that
/// `if`/`then`; the description names the component.)
fn seat_bounds(create: &mut Object, rulesets: &[RulesetBounds]) {
    let (Some(lo), Some(hi)) = (
        rulesets.iter().map(|r| *r.seats.start()).min(),
        rulesets.iter().map(|r| *r.seats.end()).max(),
    ) else {
        return;
    };
    if let Some(RefOr::T(Schema::Object(seats))) = create.properties.get_mut("seats") {
        seats.minimum = Some(lo.into());
        seats.maximum = Some(hi.into());
    }
    if let Some(RefOr::T(Schema::Object(bots))) = create.properties.get_mut("bots") {
        bots.minimum = Some(0.into());
        bots.maximum = Some(hi.saturating_sub(1).into());
    }
    // One `if`/`then` a ruleset, under a single `allOf` (one key: the document's key order
    // stays fixed).
    let conditions: Vec<serde_json::Value> = rulesets
        .iter()
        .map(|r| {
            let per_count: Vec<serde_json::Value> = r
                .seats
                .clone()
                .map(|n| {
                    json!({"properties": {
                        "seats": {"const": n},
                        "bots": {"maximum": n.saturating_sub(1)},
                    }})
                })
                .collect();
            json!({
                "if": {"properties": {"ruleset": {"const": r.id}}, "required": ["ruleset"]},
                "then": {"anyOf": per_count},
            })
        })
        .collect();
    create
        .extensions
        .get_or_insert_with(Extensions::default)
        .insert("allOf".to_owned(), json!(conditions));
}

fn object_of(p: &mut Parameter) -> Option<&mut Object> {
    match p.schema.as_mut()? {
        RefOr::T(Schema::Object(o)) => Some(o),
        _ => None,
    }
}

fn refine_parameters(op: &mut Operation) {
    let id = op.operation_id.clone().unwrap_or_default();
    for p in op.parameters.iter_mut().flatten() {
        let RefOr::T(p) = p else { continue };
        let name = p.name.clone();
        let Some(o) = object_of(p) else { continue };
        match name.as_str() {
            "cursor" if matches!(id.as_str(), "listMessages" | "listWebhookDeliveries") => {
                o.pattern = Some(cursor::SEQ_PATTERN.to_owned());
            }
            "cursor" => o.pattern = Some(cursor::PATTERN.to_owned()),
            "Idempotency-Key" => {
                o.pattern = Some(IDEMPOTENCY_KEY_PATTERN.to_owned());
                o.min_length = Some(1);
                o.max_length = Some(255);
            }
            "after" => o.minimum = Some(0.into()),
            "status" if id == "listMyGames" => o.pattern = Some(STATUS_LIST_PATTERN.to_owned()),
            // A header is a string, never `null`: absent is how a client sends none.
            "Last-Event-ID" if id == "streamGameEvents" => {
                o.schema_type = SchemaType::Type(Type::Integer);
                o.minimum = Some(0.into());
            }
            "Last-Event-ID" if id == "streamMyEvents" => {
                o.schema_type = SchemaType::Type(Type::String);
                o.pattern = Some(ACCOUNT_EVENT_ID_PATTERN.to_owned());
            }
            _ => {}
        }
    }
}

/// An event of a stream: `event` is `name`, `data` is JSON of `schema` (a component).
fn event(name: &str, schema: Option<&str>, description: &str) -> RefOr<Schema> {
    let mut data = ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some("JSON of the event's schema (`contentSchema`)"))
        .build();
    data.content_media_type = "application/json".to_owned();
    let mut ext = Extensions::default();
    ext.insert(
        "contentSchema".to_owned(),
        match schema {
            Some(component) => json!({"$ref": format!("#/components/schemas/{component}")}),
            None => json!({"type": "object"}),
        },
    );
    data.extensions = Some(ext);
    RefOr::T(Schema::Object(
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(description))
            .property(
                "event",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some([name])),
            )
            .property(
                "id",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some("The event id, to send back as `Last-Event-ID`")),
            )
            .property("data", data)
            .required("event")
            .required("data")
            .build(),
    ))
}

/// The events of `streamGameEvents` and `streamMyEvents`, as schemas of the event objects a
/// client parses from the `text/event-stream` (`event`, `id`, `data`).
fn refine_streams(op: &mut Operation) {
    let events = match op.operation_id.as_deref() {
        Some("streamGameEvents") => vec![
            event(
                "entry",
                Some("EventView"),
                "One log entry (`id`: its `seq`)",
            ),
            event(
                "end",
                None,
                "The game is over and its last entry sent; the stream closes",
            ),
        ],
        Some("streamMyEvents") => vec![
            event(
                "your-turn",
                Some("TurnNotice"),
                "A game waits on the account",
            ),
            event(
                "game-over",
                Some("GameOverNotice"),
                "A game of the account ended",
            ),
            event(
                "invitation",
                Some("InvitationNotice"),
                "An invitation to the account",
            ),
        ],
        _ => return,
    };
    let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200") else {
        return;
    };
    let Some(RefOr::T(content)) = ok.content.get_mut("text/event-stream") else {
        return;
    };
    let mut one_of = OneOfBuilder::new();
    for e in events {
        one_of = one_of.item(e);
    }
    content.schema = Some(RefOr::T(Schema::OneOf(one_of.build())));
}
