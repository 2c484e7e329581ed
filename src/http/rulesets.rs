//! `/v1/rulesets`: the games Turnpost hosts.

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::AuthUser;
use crate::service::views::RulesetView;
use crate::service::{Services, games};

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetList {
    pub rulesets: Vec<RulesetView>,
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
