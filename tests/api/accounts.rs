use reqwest::Method;
use serde_json::json;

use crate::api::helpers::spawn_app;

#[tokio::test]
async fn register_login_and_me() {
    let app = spawn_app().await;
    let body = json!({"email": "Ada@Example.test", "password": "analytical engine", "display_name": "Ada"});
    let reg = app
        .request(Method::POST, "/v1/auth/register", None, Some(&body), &[])
        .await
        .expect(201);
    assert_eq!(reg["user"]["display_name"], "Ada");
    assert!(
        reg["token"]
            .as_str()
            .is_some_and(|t| t.split('.').count() == 3)
    );

    // The same address in another case is the same account.
    let again = json!({"email": "ada@example.TEST", "password": "another password", "display_name": "Ada 2"});
    app.request(Method::POST, "/v1/auth/register", None, Some(&again), &[])
        .await
        .expect_problem(409, "email-taken");

    let login = app
        .request(
            Method::POST,
            "/v1/auth/login",
            None,
            Some(&json!({"email": "ada@example.test", "password": "analytical engine"})),
            &[],
        )
        .await
        .expect(200);
    let token = login["token"].as_str().unwrap();
    assert!(login["expires_at"].is_string());
    let me = app
        .request(Method::GET, "/v1/me", Some(token), None, &[])
        .await
        .expect(200);
    assert_eq!(me["email"], "Ada@Example.test");
    assert_eq!(me["id"], reg["user"]["id"]);

    app.request(
        Method::POST,
        "/v1/auth/login",
        None,
        Some(&json!({"email": "ada@example.test", "password": "difference engine"})),
        &[],
    )
    .await
    .expect_problem(401, "invalid-credentials");
    app.request(
        Method::POST,
        "/v1/auth/login",
        None,
        Some(&json!({"email": "nobody@example.test", "password": "difference engine"})),
        &[],
    )
    .await
    .expect_problem(401, "invalid-credentials");
    // Found by schemathesis: a NUL in the address was a 500 (PostgreSQL text refuses it).
    app.request(
        Method::POST,
        "/v1/auth/login",
        None,
        Some(&json!({"email": "ada\0@example.test", "password": "analytical"})),
        &[],
    )
    .await
    .expect_problem(401, "invalid-credentials");
}

#[tokio::test]
async fn passwords_are_stored_as_argon2id_hashes() {
    let app = spawn_app().await;
    app.register("Hash").await;
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        password_hash: String,
    }
    use diesel_async::{AsyncConnection, RunQueryDsl};
    let mut conn = diesel_async::AsyncPgConnection::establish(&app.database_url)
        .await
        .unwrap();
    let rows: Vec<Row> = diesel::sql_query("SELECT password_hash FROM users")
        .load(&mut conn)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert!(rows[0].password_hash.starts_with("$argon2id$"));
    assert!(!rows[0].password_hash.contains("correct horse"));
}

#[tokio::test]
async fn invalid_registrations_are_refused_and_write_nothing() {
    let app = spawn_app().await;
    for (body, why) in [
        (
            json!({"email": "not-an-email", "password": "long enough", "display_name": "X"}),
            "email",
        ),
        (
            json!({"email": "x@example.test", "password": "short", "display_name": "X"}),
            "password",
        ),
        (
            json!({"email": "x@example.test", "password": "long enough", "display_name": "  "}),
            "name",
        ),
        // Issue 43: a right-to-left override, a byte-order mark, an address.
        (
            json!({"email": "x@example.test", "password": "long enough", "display_name": "\u{202E}RTL"}),
            "direction-changing",
        ),
        (
            json!({"email": "x@example.test", "password": "long enough", "display_name": "\u{FEFF}Ann"}),
            "invisible",
        ),
        (
            json!({"email": "x@example.test", "password": "long enough", "display_name": "a@b"}),
            "address",
        ),
    ] {
        let problem = app
            .request(Method::POST, "/v1/auth/register", None, Some(&body), &[])
            .await
            .expect_problem(422, "invalid-request");
        assert!(
            problem["detail"].as_str().unwrap().contains(why),
            "{problem}"
        );
    }
    assert_eq!(app.count("users").await, 0);
}

/// A password of 8 to 1024 characters (the document's `minLength`/`maxLength`, which count
/// characters, not bytes), at registration, at login and when changing it. Found by
/// schemathesis: the server counted the upper bound in bytes, so a schema-valid password of
/// 1024 two-byte characters was refused.
#[tokio::test]
async fn password_length_is_counted_in_characters_as_the_document_says() {
    let app = spawn_app().await;
    let doc = turnpost::http::document();
    let password = &doc["components"]["schemas"]["RegisterRequest"]["properties"]["password"];
    assert_eq!(password["minLength"], 8, "{password}");
    assert_eq!(password["maxLength"], 1024, "{password}");
    let new = &doc["components"]["schemas"]["ChangePassword"]["properties"]["new_password"];
    assert_eq!(new["minLength"], 8, "{new}");
    assert_eq!(new["maxLength"], 1024, "{new}");

    // 1024 characters of two and three bytes each, no pattern a guesser knows.
    let alphabet: Vec<char> = "äöüßéèñçøåæœжзийклмнпрстуфхцчшщыэюяαβγδεζηθλμξπσφψω中文字漢語"
        .chars()
        .collect();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut long = String::new();
    for _ in 0..1024 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        long.push(alphabet[(x % alphabet.len() as u64) as usize]);
    }
    assert!(long.len() > 2048);
    let reg = app
        .request(
            Method::POST,
            "/v1/auth/register",
            None,
            Some(&json!({"email": "uni@example.test", "password": long, "display_name": "Uni"})),
            &[],
        )
        .await
        .expect(201);
    let token = reg["token"].as_str().unwrap().to_owned();
    app.request(
        Method::POST,
        "/v1/auth/login",
        None,
        Some(&json!({"email": "uni@example.test", "password": long})),
        &[],
    )
    .await
    .expect(200);
    // One character more is too long, everywhere.
    let longer = format!("{long}ä");
    app.request(
        Method::POST,
        "/v1/auth/register",
        None,
        Some(&json!({"email": "uni2@example.test", "password": longer, "display_name": "Uni"})),
        &[],
    )
    .await
    .expect_problem(422, "invalid-request");
    app.request(
        Method::POST,
        "/v1/me/password",
        Some(&token),
        Some(&json!({"current_password": long, "new_password": longer})),
        &[],
    )
    .await
    .expect_problem(422, "invalid-request");
    // Seven characters of any width are too short.
    app.request(
        Method::POST,
        "/v1/me/password",
        Some(&token),
        Some(&json!({"current_password": long, "new_password": "中文字漢語ωψ"})),
        &[],
    )
    .await
    .expect_problem(422, "invalid-request");
    let changed = app
        .request(
            Method::POST,
            "/v1/me/password",
            Some(&token),
            Some(&json!({"current_password": long, "new_password": long.chars().rev().collect::<String>()})),
            &[],
        )
        .await
        .expect(200);
    assert!(changed["token"].is_string());
}
