//! The OpenAPI document: the routes' annotations, then what every route shares (the statuses
//! that extractors and the database answer, and the catalog of problem types).

use std::collections::BTreeMap;

use actix_web::App;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder, Schema};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use super::problem::{self, PROBLEM_BASE, PROBLEM_TYPES};
use super::routes;

#[derive(OpenApi)]
#[openapi(
    info(title = "Turnpost API", version = "1"),
    components(schemas(
        problem::Problem,
        crate::service::views::TurnNotice,
        crate::service::views::GameOverNotice,
        crate::service::views::InvitationNotice,
        crate::service::webhooks::WebhookPayload,
    )),
    modifiers(&BearerAuth),
    tags(
        (name = "auth", description = "Accounts and tokens"),
        (name = "games", description = "Games, their state, actions and logs"),
        (name = "me", description = "The caller's account and games"),
        (name = "mail", description = "Address verification, mail preferences, unsubscribe"),
        (name = "health", description = "Liveness and readiness"),
    )
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT (a session) or tp_… (a personal API token)")
                    .build(),
            ),
        );
    }
}

const INTRO: &str = "Play-by-email turn service for asynchronous board games. Errors are \
`application/problem+json` (RFC 9457) with a stable `type`; each response names the types it \
may carry.";

/// Routes under `/v1` that never touch the database (so never answer 500 or 503).
const NO_DATABASE: &[&str] = &["listRulesets", "getRuleset", "showUnsubscribePage"];

/// The document's fixed parts (info, security scheme, tags); `routes` adds the paths.
pub fn api_doc() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The routes' part of the OpenAPI document (without the rulesets' components: [`document`]).
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, api) = routes(App::new().into_utoipa_app().openapi(api_doc())).split_for_parts();
    finish(api)
}

/// What the annotations cannot say once per route: the statuses every route of a kind
/// answers (400 from its parameters and body, 401 from the bearer token, 413 and 415 from a
/// JSON body, 408 from its deadline, 500 and 503 from the database), and the catalog of problem types.
pub fn finish(mut api: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    for (path, item) in api.paths.paths.iter_mut() {
        let operations = [
            ("GET", &mut item.get),
            ("PUT", &mut item.put),
            ("POST", &mut item.post),
            ("DELETE", &mut item.delete),
            ("OPTIONS", &mut item.options),
            ("HEAD", &mut item.head),
            ("PATCH", &mut item.patch),
            ("TRACE", &mut item.trace),
        ];
        for (method, op) in operations {
            if let Some(op) = op {
                add_shared_responses(method, path, op);
            }
        }
    }
    let rulesets = crate::rules::Registry::standard();
    let bounds: Vec<super::openapi_refine::RulesetBounds> = rulesets
        .all()
        .filter_map(|g| {
            Some(super::openapi_refine::RulesetBounds {
                id: g.id(),
                seats: g.seats(&serde_json::Value::Null).ok()?,
            })
        })
        .collect();
    super::openapi_refine::refine(&mut api, &bounds);
    let catalog: String = PROBLEM_TYPES
        .iter()
        .map(|(slug, status, meaning)| format!("| `{slug}` | {status} | {meaning} |\n"))
        .collect();
    api.info.description = Some(format!(
        "{INTRO}\n\nProblem types (`{PROBLEM_BASE}<type>`):\n\n| type | status | meaning |\n|---|---|---|\n{catalog}"
    ));
    if let Some(RefOr::T(Schema::Object(problem))) = api
        .components
        .as_mut()
        .and_then(|c| c.schemas.get_mut("Problem"))
        && let Some(RefOr::T(Schema::Object(kind))) = problem.properties.get_mut("type")
    {
        let slugs: Vec<String> = PROBLEM_TYPES
            .iter()
            .map(|(slug, _, _)| format!("`{slug}`"))
            .collect();
        kind.description = Some(format!(
            "Stable identifier of the kind of problem: `{PROBLEM_BASE}` followed by one of {}.",
            slugs.join(", ")
        ));
    }
    api
}

/// Routes whose bearer token is not an account's (so never answer `insufficient-scope`).
const OWN_SECRET: &[&str] = &["receiveInboundMail"];

fn add_shared_responses(method: &str, path: &str, op: &mut Operation) {
    let id = op.operation_id.clone().unwrap_or_default();
    let secured = op.security.as_ref().is_some_and(|s| !s.is_empty());
    let json_body = matches!(&op.request_body, Some(RefOr::T(b))
        if b.content.contains_key("application/json"));
    let params = op.parameters.as_ref().is_some_and(|p| !p.is_empty());
    let database = path.starts_with("/v1/") && !NO_DATABASE.contains(&id.as_str());
    if secured && !OWN_SECRET.contains(&id.as_str()) {
        let scope = crate::service::api_tokens::Scope::needed(method, path).as_str();
        let insufficient =
            format!("`insufficient-scope`: the caller is an API token without the scope `{scope}`");
        match op.responses.responses.get_mut("403") {
            Some(RefOr::T(r)) if !r.description.contains("insufficient-scope") => {
                r.description = format!("{}; {insufficient}", r.description);
            }
            Some(_) => {}
            None => {
                op.responses
                    .responses
                    .insert("403".to_owned(), problem_response(&insufficient));
            }
        }
    }
    let mut add = |status: u16, description: &str| {
        op.responses
            .responses
            .entry(status.to_string())
            .or_insert_with(|| problem_response(description));
    };
    if params || json_body {
        add(
            400,
            "`malformed-request`: a parameter, header or the body could not be read",
        );
    }
    if secured {
        add(
            401,
            "`unauthorized`: no bearer token, a bad or expired one, one whose account does not exist, or one revoked by a logout or a new password",
        );
    }
    if json_body {
        add(
            413,
            "`payload-too-large`: the body is over `TURNPOST_BODY_LIMIT`",
        );
        add(
            415,
            "`unsupported-media-type`: the body is not `application/json`",
        );
        add(
            408,
            "`request-timeout`: the body did not arrive within `TURNPOST_BODY_TIMEOUT_SECS`",
        );
    }
    if database {
        add(
            500,
            "`internal`: a fault on the server's side; it has been logged",
        );
        op.responses
            .responses
            .entry("503".to_owned())
            .or_insert_with(unavailable_response);
    }
}

/// 503 `unavailable`, with the `Retry-After` header it carries.
fn unavailable_response() -> RefOr<utoipa::openapi::Response> {
    let seconds = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)));
    RefOr::T(
        problem_builder(
            "`unavailable`: the database is not reachable (or the connection to it was lost \
             during the request), or it did not answer within `TURNPOST_DB_WAIT_SECS`, \
             `TURNPOST_DB_STATEMENT_TIMEOUT_SECS` or `TURNPOST_REQUEST_TIMEOUT_SECS`; try again \
             after `Retry-After` seconds",
        )
        .header(
            "Retry-After",
            HeaderBuilder::new()
                .schema(Some(seconds))
                .description(Some("Seconds to wait before trying again"))
                .build(),
        )
        .build(),
    )
}

fn problem_response(description: &str) -> RefOr<utoipa::openapi::Response> {
    RefOr::T(problem_builder(description).build())
}

fn problem_builder(description: &str) -> ResponseBuilder {
    ResponseBuilder::new().description(description).content(
        "application/problem+json",
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("Problem")))
            .build(),
    )
}

/// Each hosted ruleset's content schemas as components (`<Prefix>Options`, `<Prefix>Action`,
/// `<Prefix>View` and their named parts, e.g. `WizWarAction`, `WizWarDir`): the schemas
/// `GET /v1/rulesets/{id}` serves, so that generated clients get typed models of them.
pub fn ruleset_components() -> BTreeMap<String, serde_json::Value> {
    let registry = crate::rules::Registry::standard();
    registry
        .all()
        .flat_map(|game| crate::rules::schema::components(game.id(), &game.schemas()))
        .collect()
}

/// The whole OpenAPI document: `api` (the routes' part) with the rulesets' components.
pub fn with_rulesets(api: utoipa::openapi::OpenApi) -> serde_json::Value {
    let mut doc = serde_json::to_value(api).unwrap_or_default();
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(serde_json::Value::as_object_mut)
    {
        schemas.extend(ruleset_components());
    }
    doc
}

/// The OpenAPI document, as served at `/openapi.json` and checked in as `openapi/openapi.yaml`.
pub fn document() -> serde_json::Value {
    with_rulesets(openapi())
}

/// The OpenAPI document as YAML (the routes' part in the order utoipa writes it, the
/// components sorted by name).
pub fn openapi_yaml() -> anyhow::Result<String> {
    let mut doc = yaml_serde::to_value(openapi())?;
    if let Some(yaml_serde::Value::Mapping(schemas)) =
        doc.get_mut("components").and_then(|c| c.get_mut("schemas"))
    {
        let mut sorted: BTreeMap<String, yaml_serde::Value> = BTreeMap::new();
        for (name, schema) in std::mem::take(schemas) {
            sorted.insert(name.as_str().unwrap_or_default().to_owned(), schema);
        }
        for (name, schema) in ruleset_components() {
            sorted.insert(name, yaml_serde::to_value(schema)?);
        }
        *schemas = sorted
            .into_iter()
            .map(|(name, schema)| (yaml_serde::Value::String(name), schema))
            .collect();
    }
    Ok(yaml_serde::to_string(&doc)?)
}

/// Swagger UI at `/docs/`, reading the document at `/openapi.json`.
pub fn swagger_ui(api: utoipa::openapi::OpenApi) -> SwaggerUi {
    SwaggerUi::new("/docs/{_:.*}")
        .external_url_unchecked("/openapi.json", with_rulesets(finish(api)))
}
