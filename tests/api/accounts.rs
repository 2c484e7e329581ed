use reqwest::Method;
use serde_json::json;

use crate::system_tests::helpers::{Reply, TestApp, spawn_app};

async fn login(app: &TestApp, email: &str, password: &str) -> Reply {
    app.request(
        Method::POST,
        "/v1/auth/login",
        None,
        Some(&json!({"email": email, "password": password})),
        &[],
    )
    .await
}

#[tokio::test]
async fn register_confirm_login_and_me() {
    let app = spawn_app().await;
    let body = json!({"email": "Ada@Example.test", "password": "analytical engine", "display_name": "Ada"});
    let accepted = app
        .request(Method::POST, "/v1/auth/register", None, Some(&body), &[])
        .await
        .expect(202);
    assert_eq!(accepted["status"], "confirmation-sent");
    assert_eq!(
        app.count("users").await,
        0,
        "nothing is made before the link is used"
    );
    let link = app
        .confirmation_token("Ada@Example.test")
        .await
        .expect("a confirmation mail");
    let reg = app.confirm(&link).await.expect(201);
    assert_eq!(reg["user"]["display_name"], "Ada");
    assert_eq!(reg["user"]["email"], "Ada@Example.test");
    assert!(
        reg["token"]
            .as_str()
            .is_some_and(|t| t.split('.').count() == 3)
    );
    assert!(reg["expires_at"].is_string());
    // The link came to the address: it is confirmed.
    let prefs = app
        .request(
            Method::GET,
            "/v1/me/preferences",
            reg["token"].as_str(),
            None,
            &[],
        )
        .await
        .expect(200);
    assert_eq!(prefs["email_verified"], true);

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

/// Issue 43: "Registration says whether an address has an account (409 `email-taken`)". Now
/// registering a taken address and a free one answers the same, byte for byte; the mail says
/// the rest. The taken address's account is unchanged and no second one is made; the free
/// one's account exists only once its link is used, and until then logging in answers
/// exactly as for an address nobody registered. A link is good once.
#[tokio::test]
async fn registering_a_taken_or_a_free_address_answers_the_same_and_the_mail_says_the_rest() {
    let app = spawn_app().await;
    let ada = app.register_as("Ada", "Ada@Example.test").await;

    // The same address in another case is the same account; Bea's is free. Same password,
    // same name: only the owner of the address differs.
    let attempt = |email: &str| json!({"email": email, "password": "another password", "display_name": "Ada 2"});
    let taken = app
        .request(
            Method::POST,
            "/v1/auth/register",
            None,
            Some(&attempt("ada@example.TEST")),
            &[],
        )
        .await;
    let free = app
        .request(
            Method::POST,
            "/v1/auth/register",
            None,
            Some(&attempt("bea@example.test")),
            &[],
        )
        .await;
    assert_eq!(taken.status, 202);
    assert_eq!(free.status, taken.status);
    assert_eq!(free.content_type, taken.content_type);
    assert_eq!(free.text, taken.text, "the answer tells who has an account");
    assert_eq!(taken.body["status"], "confirmation-sent");

    // The mail says the rest: Ada's address is told it has an account, and how to sign in;
    // Bea's gets the link. Nothing else to either.
    let told = app
        .latest_mail("Ada@Example.test", "account_exists")
        .await
        .expect("a mail to the taken address");
    let text = told["text"].as_str().unwrap();
    assert_eq!(told["subject"], "You already have a Turnpost account");
    assert!(text.contains("http://turnpost.test/signin"), "{text}");
    assert!(text.contains("nothing was created"), "{text}");
    assert!(text.contains("sign-in link"), "{text}");
    assert!(!text.contains("/confirm?token="), "{text}");
    assert_eq!(app.confirmation_token("ada@example.TEST").await, None);
    assert_eq!(
        app.latest_mail("bea@example.test", "account_exists").await,
        None
    );
    let link = app
        .confirmation_token("bea@example.test")
        .await
        .expect("a confirmation link to the free address");

    // Ada's account is unchanged: her password still works, the new one does not, her name
    // is hers, and no second account or pending registration has her address.
    login(&app, "ada@example.test", "correct horse battery")
        .await
        .expect(200);
    login(&app, "ada@example.test", "another password")
        .await
        .expect_problem(401, "invalid-credentials");
    let me = app.get("/v1/me", &ada).await.expect(200);
    assert_eq!(me["display_name"], "Ada");
    assert_eq!(
        app.count_where("users", "lower(email) = 'ada@example.test'")
            .await,
        1
    );
    assert_eq!(
        app.count_where("pending_registrations", "lower(email) = 'ada@example.test'")
            .await,
        0
    );

    // Before its link is used, Bea's registration signs nobody in: the same answer as for an
    // address nobody registered.
    let pending = login(&app, "bea@example.test", "another password").await;
    let nobody = login(&app, "nobody@example.test", "another password").await;
    assert_eq!(pending.status, 401);
    assert_eq!(pending.status, nobody.status);
    assert_eq!(pending.text, nobody.text);
    assert_eq!(
        app.count_where("users", "email = 'bea@example.test'").await,
        0
    );

    // The link makes the account, once; the table keeps only the token's hash.
    assert_eq!(
        app.count_where(
            "pending_registrations",
            &format!(
                "email = 'bea@example.test' AND token_sha256 = sha256('{link}'::bytea) \
                 AND password_hash LIKE '$argon2id$%' \
                 AND expires_at BETWEEN now() + interval '23 hours' AND now() + interval '24 hours'"
            )
        )
        .await,
        1
    );
    let bea = app.confirm(&link).await.expect(201);
    assert_eq!(bea["user"]["email"], "bea@example.test");
    login(&app, "bea@example.test", "another password")
        .await
        .expect(200);
    app.confirm(&link).await.expect_problem(404, "invalid-link");
    app.confirm("no-such-link")
        .await
        .expect_problem(404, "invalid-link");
    assert_eq!(app.count("users").await, 2);
    assert_eq!(app.count("pending_registrations").await, 0);
}

/// A link is good for 24 hours; and of two registrations of one address, the second link
/// used finds the address taken by the first, and makes nothing.
#[tokio::test]
async fn an_expired_link_and_a_second_registration_of_one_address_make_nothing() {
    let app = spawn_app().await;
    let register = |email: &'static str, name: &'static str| {
        let app = &app;
        async move {
            app.request(
                Method::POST,
                "/v1/auth/register",
                None,
                Some(&json!({"email": email, "password": "correct horse battery", "display_name": name})),
                &[],
            )
            .await
            .expect(202);
            app.confirmation_token(email).await.expect("a link")
        }
    };

    // Expired (its row made older than 24 hours): refused, and no account.
    let late = register("cid@example.test", "Cid").await;
    app.sql(
        "UPDATE pending_registrations SET created_at = created_at - interval '25 hours', \
         expires_at = expires_at - interval '25 hours' WHERE email = 'cid@example.test'",
    )
    .await;
    app.confirm(&late).await.expect_problem(404, "invalid-link");
    assert_eq!(
        app.count_where("users", "email = 'cid@example.test'").await,
        0
    );

    // Two registrations pending for one address; the second confirmed first wins.
    let first = register("dee@example.test", "Dee").await;
    let second = register("dee@example.test", "Dee Two").await;
    assert_ne!(first, second);
    let made = app.confirm(&second).await.expect(201);
    assert_eq!(made["user"]["display_name"], "Dee Two");
    let problem = app.confirm(&first).await.expect_problem(409, "email-taken");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("sign in"),
        "{problem}"
    );
    assert_eq!(
        app.count_where("users", "email = 'dee@example.test'").await,
        1
    );
    // A registration of an address that has an account sends its mail, and makes no row.
    let rows = app.count("pending_registrations").await;
    app.request(
        Method::POST,
        "/v1/auth/register",
        None,
        Some(&json!({"email": "DEE@example.test", "password": "correct horse battery", "display_name": "Dee"})),
        &[],
    )
    .await
    .expect(202);
    assert_eq!(app.count("pending_registrations").await, rows);
    assert!(
        app.latest_mail("dee@example.test", "account_exists")
            .await
            .is_some()
    );
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
    app.request(
        Method::POST,
        "/v1/auth/register",
        None,
        Some(&json!({"email": "uni@example.test", "password": long, "display_name": "Uni"})),
        &[],
    )
    .await
    .expect(202);
    let link = app
        .confirmation_token("uni@example.test")
        .await
        .expect("a confirmation link");
    let reg = app.confirm(&link).await.expect(201);
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
