//! `/v1/rulesets`: the games Turnpost hosts, and the JSON Schemas of their content.

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::auth::AuthUser;
use super::problem::{ApiError, Problem};
use crate::service::views::RulesetView;
use crate::service::{Services, games};

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetList {
    pub rulesets: Vec<RulesetView>,
}

/// A ruleset and the JSON Schemas (2020-12) of its game content.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetDetail {
    #[serde(flatten)]
    pub ruleset: RulesetView,
    pub schemas: RulesetSchemas,
}

/// The JSON Schemas of a ruleset's content, each a complete document (named parts under
/// `$defs`). The OpenAPI document has the same schemas as components named after the ruleset:
/// `<Prefix>Options`, `<Prefix>Action` and `<Prefix>View` (e.g. `WizWarAction`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetSchemas {
    /// The `options` a game of this ruleset is created with (`createGame`).
    #[schema(value_type = Object)]
    pub options: Value,
    /// One action: what `submitActions` takes, and what `legal_actions[].action` and the log
    /// entries' `action` are.
    #[schema(value_type = Object)]
    pub action: Value,
    /// The `view` of a game's state (`getGameState`), as any seat or a spectator sees it.
    #[schema(value_type = Object)]
    pub view: Value,
}

/// The rulesets, their seat ranges and options.
#[utoipa::path(
    tag = "games",
    operation_id = "listRulesets",
    responses((status = 200, description = "The rulesets", body = RulesetList)),
    security(("bearer" = []))
)]
#[get("/rulesets")]
pub async fn list(svc: web::Data<Services>, _user: AuthUser) -> web::Json<RulesetList> {
    web::Json(RulesetList {
        rulesets: games::rulesets(&svc),
    })
}

/// One ruleset: its seat range and options, and the JSON Schemas of its options, actions and
/// view.
#[utoipa::path(
    tag = "games",
    operation_id = "getRuleset",
    params(("id" = String, Path, description = "Ruleset id, e.g. `wiz-war`")),
    responses(
        (status = 200, description = "The ruleset and its schemas", body = RulesetDetail),
        (status = 404, description = "`not-found`: no such ruleset", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/rulesets/{id}")]
pub async fn get(
    svc: web::Data<Services>,
    _user: AuthUser,
    id: web::Path<String>,
) -> Result<web::Json<RulesetDetail>, ApiError> {
    let (ruleset, schemas) = games::ruleset_with_schemas(&svc, &id)
        .ok_or_else(|| ApiError::not_found(format!("no ruleset {:?}", id.as_str())))?;
    Ok(web::Json(RulesetDetail {
        ruleset,
        schemas: RulesetSchemas {
            options: schemas.options,
            action: schemas.action,
            view: schemas.view,
        },
    }))
}
