//! Issue 42: "connections to a server that became read-only or went away are dropped from the
//! pool, requests meanwhile get 503 with `Retry-After`". A failover can leave a server's
//! connections open on a node that now refuses writes (SQLSTATE 25006); here the database
//! itself is made read-only for new sessions, then writable again, while the server runs.

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use serde_json::json;
use uuid::Uuid;

use crate::system_tests::helpers::spawn_app;

/// Runs `sql` on the test database in a session that may write.
async fn admin(database_url: &str, sql: &str) {
    let mut conn = AsyncPgConnection::establish(database_url)
        .await
        .expect("connect");
    // On its own: a batch is one transaction, read-only from its start.
    conn.batch_execute("SET default_transaction_read_only = off")
        .await
        .expect("sql");
    conn.batch_execute(sql).await.expect("sql");
}

async fn register(app: &crate::system_tests::helpers::TestApp) -> (u16, Option<String>, String) {
    let res = app
        .client
        .post(format!("{}/v1/auth/register", app.base))
        .json(&json!({
            "email": format!("ro-{}@example.test", Uuid::new_v4().simple()),
            "password": "correct horse battery",
            "display_name": "Ro",
        }))
        .send()
        .await
        .expect("an answer");
    let status = res.status().as_u16();
    let retry = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (status, retry, res.text().await.unwrap_or_default())
}

#[tokio::test]
async fn ha_a_read_only_server_is_503_and_its_connections_are_not_reused() {
    let app = spawn_app().await;
    assert_eq!(register(&app).await.0, 202);
    let db = app
        .database_url
        .rsplit('/')
        .next()
        .expect("a database name");
    let db = db.split('?').next().expect("a database name").to_owned();

    // New sessions are read-only from now on; the server's sessions are ended, so that it
    // opens new ones, as after a failover to a node that is not (yet) the primary.
    admin(
        &app.database_url,
        &format!(
            "ALTER DATABASE {db} SET default_transaction_read_only = on; \
             SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid();"
        ),
    )
    .await;
    for _ in 0..3 {
        let (status, retry, body) = register(&app).await;
        assert_eq!(status, 503, "a write refused by a read-only server: {body}");
        assert!(
            retry.is_some_and(|r| r.parse::<u64>().is_ok_and(|s| s > 0)),
            "503 without Retry-After"
        );
        assert!(body.contains("/problems/unavailable"), "{body}");
    }

    // Writable again: the read-only sessions the server opened meanwhile are not reused
    // (each stays read-only for its life); the next ones write.
    admin(
        &app.database_url,
        &format!("ALTER DATABASE {db} RESET default_transaction_read_only"),
    )
    .await;
    let mut answers = vec![];
    for _ in 0..4 {
        let (status, _, _) = register(&app).await;
        answers.push(status);
        if status == 202 {
            break;
        }
    }
    // A background worker may have opened one more read-only session meanwhile: it costs
    // one more 503, never more.
    assert!(
        answers.last() == Some(&202) && answers.len() <= 2,
        "after the server became writable again: {answers:?}"
    );
}
