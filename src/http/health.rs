//! Liveness and readiness.

use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::Services;
use crate::store;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    pub status: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Readiness {
    /// `ok` or `unavailable`.
    pub status: String,
    pub database: bool,
    /// Mail waiting to be sent.
    pub outbox_pending: Option<i64>,
    /// Mail parked after too many failed attempts.
    pub outbox_failed: Option<i64>,
}

/// The process is up.
#[utoipa::path(
    tag = "health",
    operation_id = "getHealth",
    responses((status = 200, description = "Up", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: "ok".into(),
    })
}

/// How long `/readyz` waits for the database.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_millis(500);

/// The process can serve: the database answers (within half a second).
#[utoipa::path(
    tag = "health",
    operation_id = "getReadiness",
    responses(
        (status = 200, description = "Ready: the database answers", body = Readiness),
        (status = 503, description = "Not ready: the database does not answer (`status` is \
            `unavailable`, `database` false)", body = Readiness,
            headers(("Retry-After" = i64, description = "Seconds to wait before asking again"))),
    )
)]
#[get("/readyz")]
pub async fn readyz(svc: web::Data<Services>) -> HttpResponse {
    // Within a second either way: a database that does not answer in half of it is not
    // ready (a frozen server would otherwise hold the probe as long as it stays frozen).
    let look = async {
        let mut conn = svc.conn().await.ok()?;
        store::outbox::counts(&mut conn).await.ok()
    };
    let counts = tokio::time::timeout(READY_WITHIN, look)
        .await
        .ok()
        .flatten();
    let ready = Readiness {
        status: if counts.is_some() {
            "ok"
        } else {
            "unavailable"
        }
        .into(),
        database: counts.is_some(),
        outbox_pending: counts.map(|c| c.0),
        outbox_failed: counts.map(|c| c.1),
    };
    if counts.is_some() {
        HttpResponse::Ok().json(ready)
    } else {
        HttpResponse::ServiceUnavailable()
            .insert_header((
                actix_web::http::header::RETRY_AFTER,
                crate::service::RETRY_AFTER_UNAVAILABLE_SECS,
            ))
            .json(ready)
    }
}
