//! The connection pool hands out connections without a check query (`RecyclingMethod::Fast`),
//! so it must still never hand out one that PostgreSQL has closed.

use std::time::Duration;

use futures::future::join_all;
use serde_json::json;

use crate::system_tests::helpers::spawn_app;

#[tokio::test]
async fn requests_succeed_after_postgres_drops_every_pooled_connection() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let game = app
        .start_game("bag-of-fate", &[ann.clone(), bob.clone()], json!({}))
        .await;
    let path = format!("/v1/games/{game}/state");
    // Open several pooled connections at once.
    for reply in join_all((0..8).map(|_| app.get(&path, &ann))).await {
        reply.expect(200);
    }

    // An administrator (or a failover) ends every connection of the service.
    app.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Each closed connection is dropped on its way out of the pool and a new one is opened.
    for reply in join_all((0..8).map(|_| app.get(&path, &ann))).await {
        reply.expect(200);
    }
    for _ in 0..8 {
        app.get(&path, &bob).await.expect(200);
    }
}
