//! What the route annotations cannot say about a value's shape, said once for the whole
//! document, so that a client (or a fuzzer) that sends what the document allows is not refused:
//! the form of a list cursor, an `Idempotency-Key`, an event id; the bounds of `after`; the
//! statuses a filter names; the ruleset ids; and the events of the two event streams, each an
//! object whose `data` is JSON of a documented schema (`contentMediaType`/`contentSchema`).

use serde_json::json;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::path::{Operation, Parameter};
use utoipa::openapi::schema::{Object, ObjectBuilder, OneOfBuilder, Type};
use utoipa::openapi::{OpenApi, RefOr, Schema};

/// `<microseconds>_<32 hex digits>`, as `service::cursor::encode` writes (16 digits of
/// microseconds reach past the year 2200; `decode` takes every value of this form).
pub const CURSOR_PATTERN: &str = "^-?[0-9]{1,16}_[0-9a-fA-F]{32}$";
/// 1 to 255 visible ASCII characters.
pub const IDEMPOTENCY_KEY_PATTERN: &str = "^[!-~]{1,255}$";
/// An account stream's event id: `<microseconds>.<game>.<version>`.
pub const ACCOUNT_EVENT_ID_PATTERN: &str = "^[0-9]{1,16}(\\.[0-9a-fA-F-]{36}\\.[0-9]{1,18})?$";
/// The statuses `GET /v1/me/games?status=` may name, comma-separated.
pub const STATUS_LIST_PATTERN: &str = "^(open|active|finished|abandoned)(,(open|active|finished|abandoned))*$";

/// Applies every refinement to the document.
pub fn refine(api: &mut OpenApi, ruleset_ids: &[&str]) {
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
    if let Some(RefOr::T(Schema::Object(create))) = api
        .components
        .as_mut()
        .and_then(|c| c.schemas.get_mut("CreateGame"))
        && let Some(RefOr::T(Schema::Object(ruleset))) = create.properties.get_mut("ruleset")
    {
        ruleset.enum_values = Some(ruleset_ids.iter().map(|id| json!(id)).collect());
    }
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
            "cursor" => o.pattern = Some(CURSOR_PATTERN.to_owned()),
            "Idempotency-Key" => {
                o.pattern = Some(IDEMPOTENCY_KEY_PATTERN.to_owned());
                o.min_length = Some(1);
                o.max_length = Some(255);
            }
            "after" => o.minimum = Some(0.into()),
            "status" if id == "listMyGames" => o.pattern = Some(STATUS_LIST_PATTERN.to_owned()),
            "Last-Event-ID" if id == "streamGameEvents" => o.minimum = Some(0.into()),
            "Last-Event-ID" if id == "streamMyEvents" => {
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
            event("entry", Some("EventView"), "One log entry (`id`: its `seq`)"),
            event("end", None, "The game is over and its last entry sent; the stream closes"),
        ],
        Some("streamMyEvents") => vec![
            event("your-turn", Some("TurnNotice"), "A game waits on the account"),
            event("game-over", Some("GameOverNotice"), "A game of the account ended"),
            event("invitation", Some("InvitationNotice"), "An invitation to the account"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::cursor;

    #[test]
    fn a_cursor_the_service_writes_has_the_documented_form() {
        // CURSOR_PATTERN by hand: 1-16 digits (maybe negative), `_`, 32 hex digits.
        let of_the_form = |c: &str| {
            c.split_once('_').is_some_and(|(micros, id)| {
                let digits = micros.strip_prefix('-').unwrap_or(micros);
                (1..=16).contains(&digits.len())
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && id.len() == 32
                    && id.bytes().all(|b| b.is_ascii_hexdigit())
            })
        };
        assert_eq!(CURSOR_PATTERN, "^-?[0-9]{1,16}_[0-9a-fA-F]{32}$");
        let at = chrono::DateTime::from_timestamp_micros(1_764_000_000_123_456).expect("time");
        let written = cursor::encode(at, uuid::Uuid::new_v4());
        assert!(of_the_form(&written), "{written}");
        // Every value of the form decodes: the largest and smallest microseconds included.
        for micros in ["9999999999999999", "-9999999999999999", "0"] {
            for id in ["0123456789abcdef0123456789ABCDEF", "ffffffffffffffffffffffffffffffff"] {
                let c = format!("{micros}_{id}");
                assert!(of_the_form(&c));
                assert!(cursor::decode(&c).is_ok(), "{c}");
            }
        }
    }
}
