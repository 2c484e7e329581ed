//! The web pages (issue 15), in a real browser (Chromium over WebDriver) and over plain HTTP:
//! players sign in only through the links in their mail, play by clicking, watchers see the
//! page follow the game without a reload; forged forms and links are refused with pages.

use std::time::Duration;

use chrono::Utc;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, COOKIE, LOCATION, SET_COOKIE};
use serde_json::{Value, json};
use turnpost::auth::Jwt;
use turnpost::auth::jwt::Purpose;
use uuid::Uuid;

use mail_parser::MimeHeaders;

use crate::system_tests::browser::Driver;
use crate::system_tests::helpers::{Picker, Player, TestApp};
use crate::system_tests::mailbox::{
    mail_to, settle, spawn_mail_app, text_of, verified_players, wait_for_mail_where,
};
use crate::system_tests::smtp::SmtpServer;

/// The mail's sign-in link, pointed at the test server (mail says the public address,
/// `http://turnpost.test`).
fn sign_in_link(app: &TestApp, mail_text: &str) -> String {
    let line = mail_text
        .lines()
        .find(|l| l.contains("signin="))
        .unwrap_or_else(|| panic!("no sign-in link in the mail:\n{mail_text}"));
    let path = line
        .trim()
        .strip_prefix("http://turnpost.test")
        .unwrap_or_else(|| panic!("a link to the public address: {line}"));
    format!("{}{path}", app.base)
}

async fn version(app: &TestApp, game: Uuid, who: &Player) -> (i64, String, Vec<i64>) {
    let g = app.get(&format!("/v1/games/{game}"), who).await.expect(200);
    (
        g["version"].as_i64().expect("version"),
        g["status"].as_str().expect("status").to_owned(),
        g["to_act"]
            .as_array()
            .expect("to_act")
            .iter()
            .filter_map(Value::as_i64)
            .collect(),
    )
}

#[tokio::test]
async fn two_players_play_a_game_in_their_browsers_and_a_watcher_sees_it_live() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob", "Cat"]).await;
    let (ann, bob, cat) = (&players[0], &players[1], &players[2]);
    let game = app
        .start_game("bag-of-fate", &[ann.clone(), bob.clone()], json!({}))
        .await;
    let driver = Driver::start().await;

    // Each player opens the link in their own mail, in their own browser.
    let mut browsers = vec![];
    for p in [ann, bob] {
        // The latest mail with the game's link (the verification mail may come after it).
        let mail = smtp
            .wait_for("a game mail", |got| {
                got.iter()
                    .any(|m| m.to.iter().any(|t| t == &p.email) && text_of(m).contains("signin="))
            })
            .await;
        let mail = mail
            .iter()
            .rev()
            .find(|m| m.to.iter().any(|t| t == &p.email) && text_of(m).contains("signin="))
            .expect("a game mail");
        let link = sign_in_link(&app, &text_of(mail));
        assert!(link.contains("/games/"), "{link}");
        let b = driver.browser().await;
        b.goto(&link).await;
        b.wait_for("#game").await;
        assert_eq!(
            b.url().await,
            format!("{}/games/{game}", app.base),
            "the sign-in link leads to the game page, without its token in the address"
        );
        browsers.push(b);
    }

    // Cat is no player: she signs in with her password and watches.
    let watcher = driver.browser().await;
    watcher
        .goto(&format!("{}/signin?next=/games/{game}", app.base))
        .await;
    let email = watcher.wait_for("#email").await;
    watcher.type_into(&email, &cat.email).await;
    let password = watcher.wait_for("#password").await;
    watcher.type_into(&password, "correct horse battery").await;
    let submit = watcher.wait_for("form[action='/signin'] button").await;
    watcher.click(&submit).await;
    watcher.wait_for("#game").await;
    assert!(
        watcher
            .text_of_page()
            .await
            .contains("You are watching this game"),
        "a watcher is told so"
    );
    assert!(
        watcher.find("button.choice").await.is_none(),
        "a watcher has no choices"
    );
    watcher
        .script("window.__stayed = 'no reload'; return 1")
        .await;

    // Play to the end by clicking: whoever must act clicks one of their buttons.
    let mut pick = Picker::new(7);
    let mut clicks = 0;
    let mut watcher_saw = 0;
    for _ in 0..600 {
        let (v, status, to_act) = version(&app, game, ann).await;
        if status == "finished" {
            break;
        }
        let seat = *to_act.first().expect("somebody must act") as usize;
        let b = &browsers[seat];
        // The page shows this version (it followed the game by itself if another moved).
        b.wait_for(&format!("#game[data-version='{v}'] button.choice"))
            .await;
        let buttons = b.find_all("button.choice").await;
        let button = &buttons[pick.below(buttons.len())];
        b.click(button).await;
        clicks += 1;
        // The move is made (bounded wait).
        let mut moved = false;
        for _ in 0..200 {
            if version(&app, game, ann).await.0 > v {
                moved = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(moved, "a click on a choice made no move at version {v}");
        if clicks % 10 == 0 {
            // The watcher's page follows without a reload.
            let now = version(&app, game, ann).await.0;
            let seen = watcher
                .wait_for(&format!(
                    "#game[data-version='{now}'], #game[data-version='{}']",
                    now + 1
                ))
                .await;
            assert!(!seen.is_empty());
            watcher_saw += 1;
        }
    }
    let (_, status, _) = version(&app, game, ann).await;
    assert_eq!(status, "finished", "the game ended within 600 clicks");
    assert!(clicks > 4, "a whole game takes some clicks ({clicks})");
    assert!(watcher_saw > 0 || clicks < 10);

    // Everybody's page shows the end; the watcher's never reloaded.
    for b in browsers.iter().chain(std::iter::once(&watcher)) {
        b.wait_for(".outcome").await;
    }
    assert_eq!(
        watcher.script("return window.__stayed || null").await,
        json!("no reload"),
        "the watcher's page was reloaded instead of updated"
    );
    let log_link = watcher.wait_for("a[href$='/log']").await;
    watcher.click(&log_link).await;
    watcher.wait_for("code.seed").await;
    let page = watcher.text_of_page().await;
    assert!(
        page.contains("sha256sum"),
        "the log page says how to check the seed"
    );

    for b in browsers {
        b.close().await;
    }
    watcher.close().await;
}

/// A client that keeps cookies by hand and does not follow redirects.
pub fn plain_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

pub fn cookie_value(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers().get_all(SET_COOKIE).iter().find_map(|v| {
        let v = v.to_str().ok()?;
        let (pair, _) = v.split_once(';').unwrap_or((v, ""));
        let (k, val) = pair.split_once('=')?;
        (k == name && !val.is_empty()).then(|| val.to_owned())
    })
}

/// A urlencoded form body.
pub fn form(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(k, v)| {
            let enc = |t: &str| {
                t.bytes()
                    .map(|b| match b {
                        b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                            (b as char).to_string()
                        }
                        _ => format!("%{b:02X}"),
                    })
                    .collect::<String>()
            };
            format!("{}={}", enc(k), enc(v))
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn is_page(res: &reqwest::Response) -> bool {
    res.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"))
}

/// The server's signer (its secret).
fn server_jwt(app: &TestApp) -> Jwt {
    app.jwt()
}

/// A sign-in link to `path` for `who`, as the server would mail it.
fn link_for(app: &TestApp, who: &Player, path: &str, issued: chrono::DateTime<Utc>) -> String {
    let (token, _) = server_jwt(app)
        .sign(Purpose::SignIn, who.id, None, issued, 3600)
        .expect("sign");
    format!("{}{path}?signin={token}", app.base)
}

pub(crate) async fn session_of(app: &TestApp, who: &Player, game: Uuid) -> String {
    let res = plain_client()
        .get(link_for(app, who, &format!("/games/{game}"), Utc::now()))
        .send()
        .await
        .expect("get");
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        res.headers().get(LOCATION).and_then(|v| v.to_str().ok()),
        Some(format!("/games/{game}").as_str())
    );
    cookie_value(&res, "turnpost_session").expect("a session cookie")
}

/// The page's CSRF cookie and the token its form carries.
pub(crate) async fn form_token(app: &TestApp, session: &str, game: Uuid) -> (String, String) {
    let res = plain_client()
        .get(format!("{}/games/{game}", app.base))
        .header(COOKIE, format!("turnpost_session={session}"))
        .send()
        .await
        .expect("get");
    assert_eq!(res.status(), StatusCode::OK);
    let seed = cookie_value(&res, "turnpost_csrf").expect("a csrf cookie");
    let body = res.text().await.expect("body");
    let at = body.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    (seed, body[at..at + 32].to_owned())
}

#[tokio::test]
async fn forged_forms_bad_links_and_other_peoples_games_get_error_pages_and_change_nothing() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob", "Cat"]).await;
    let (ann, bob, cat) = (&players[0], &players[1], &players[2]);
    let game = app
        .start_game("bag-of-fate", &[ann.clone(), bob.clone()], json!({}))
        .await;
    let (before, _, to_act) = version(&app, game, ann).await;
    let mover = if to_act.contains(&0) { ann } else { bob };
    let client = plain_client();

    // A form without a valid CSRF token.
    let session = session_of(&app, mover, game).await;
    let (seed, token) = form_token(&app, &session, game).await;
    for (cookie, field) in [
        (format!("turnpost_session={session}"), String::new()),
        (
            format!("turnpost_session={session}; turnpost_csrf={seed}"),
            "0".repeat(32),
        ),
        // The right token without its cookie (another site cannot send it).
        (format!("turnpost_session={session}"), token.clone()),
    ] {
        let res = client
            .post(format!("{}/games/{game}/act", app.base))
            .header(COOKIE, cookie)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form(&[
                ("csrf", field.as_str()),
                ("version", &before.to_string()),
                ("choice", "1"),
            ]))
            .send()
            .await
            .expect("post");
        assert_eq!(res.status(), StatusCode::FORBIDDEN);
        assert!(is_page(&res), "an error page, not JSON");
        assert!(res.text().await.unwrap().contains("This form has expired"));
    }
    assert_eq!(
        version(&app, game, ann).await.0,
        before,
        "a forged form moved"
    );

    // With the token it works (so the refusals above were for the token alone).
    let res = client
        .post(format!("{}/games/{game}/act", app.base))
        .header(
            COOKIE,
            format!("turnpost_session={session}; turnpost_csrf={seed}"),
        )
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(form(&[
            ("csrf", token.as_str()),
            ("version", &before.to_string()),
            ("choice", "1"),
        ]))
        .send()
        .await
        .expect("post");
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let after = version(&app, game, ann).await.0;
    assert!(after > before, "a valid form makes the move");

    // Cat holds no seat: her page is a watcher's, and her choice is refused with a page.
    let cat_session = session_of(&app, cat, game).await;
    let (cat_seed, cat_token) = form_token(&app, &cat_session, game).await;
    let res = client
        .post(format!("{}/games/{game}/act", app.base))
        .header(
            COOKIE,
            format!("turnpost_session={cat_session}; turnpost_csrf={cat_seed}"),
        )
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(form(&[
            ("csrf", cat_token.as_str()),
            ("version", &after.to_string()),
            ("choice", "1"),
        ]))
        .send()
        .await
        .expect("post");
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(is_page(&res));
    assert!(res.text().await.unwrap().contains("Not your game"));
    assert_eq!(version(&app, game, ann).await.0, after, "a watcher moved");

    // An altered link and an expired one: pages, and no session.
    let good = link_for(&app, ann, &format!("/games/{game}"), Utc::now());
    let altered = good[..good.len() - 4].to_owned();
    let res = client.get(&altered).send().await.expect("get");
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(is_page(&res));
    assert!(cookie_value(&res, "turnpost_session").is_none());
    assert!(res.text().await.unwrap().contains("This link is not valid"));
    let old = link_for(
        &app,
        ann,
        &format!("/games/{game}"),
        Utc::now() - chrono::Duration::hours(2),
    );
    let res = client.get(&old).send().await.expect("get");
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert!(is_page(&res));
    assert!(cookie_value(&res, "turnpost_session").is_none());
    assert!(res.text().await.unwrap().contains("This link has expired"));
    // A link signed with another key.
    let forged = Jwt::new(b"not the server's key, not at all!!", 3600)
        .sign(Purpose::SignIn, ann.id, None, Utc::now(), 3600)
        .expect("sign")
        .0;
    let res = client
        .get(format!("{}/games/{game}?signin={forged}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(cookie_value(&res, "turnpost_session").is_none());
    // An API token is no web session.
    let res = client
        .get(format!("{}/games/{game}", app.base))
        .header(COOKIE, format!("turnpost_session={}", ann.token))
        .send()
        .await
        .expect("get");
    assert_eq!(
        res.status(),
        StatusCode::SEE_OTHER,
        "an API token opened a page"
    );

    // Unknown pages are pages; unknown API routes stay problems.
    let res = client
        .get(format!("{}/no/such/page", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(is_page(&res));
    let res = client
        .get(format!("{}/games/{}", app.base, Uuid::new_v4()))
        .header(COOKIE, format!("turnpost_session={session}"))
        .send()
        .await
        .expect("get");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(is_page(&res));
    let res = client
        .get(format!("{}/v1/nothing-here", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(
        res.headers()[CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/problem+json")
    );
    // Mail links sign in; the verification and unsubscribe links were not touched.
    assert!(!mail_to(&smtp, ann).is_empty());
}

/// Plays `steps` random actions of `game` over the API (fewer if it ends); also used by
/// `upgrade.rs`.
pub async fn play_some(app: &TestApp, game: Uuid, players: &[Player], steps: usize, seed: u64) {
    let mut pick = Picker::new(seed);
    for _ in 0..steps {
        let (_, status, to_act) = version(app, game, &players[0]).await;
        if status != "active" || to_act.is_empty() {
            return;
        }
        let seat = to_act[pick.below(to_act.len())] as usize;
        let state = app
            .get(&format!("/v1/games/{game}/state"), &players[seat])
            .await
            .expect(200);
        let legal = state["legal_actions"].as_array().expect("legal actions");
        if legal.is_empty() {
            return;
        }
        let choice = &legal[pick.below(legal.len())];
        let body = json!({"expected_version": state["version"], "actions": [choice["action"]]});
        app.post(&format!("/v1/games/{game}/actions"), &players[seat], &body)
            .await
            .expect(200);
    }
}

/// Writes `docs/screenshots/<ruleset>.png`: a game of each ruleset, a little way in, on the
/// page of the seat that must act. Run it with
/// `cargo test --test api screenshots -- --ignored` (README, "Play in a browser").
#[tokio::test]
#[ignore = "writes docs/screenshots/; run by hand"]
async fn screenshots() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let driver = Driver::start().await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshots dir");
    for (ruleset, seats, steps) in [
        ("bag-of-fate", 3, 12),
        ("garden-gnomes", 3, 40),
        ("wiz-war", 2, 30),
        ("monsters-and-magic", 2, 40),
        ("gnomes-and-wizards", 2, 30),
    ] {
        let names = ["Ann", "Bob", "Cat", "Dan"];
        let players = verified_players(&app, &names[..seats]).await;
        let game = app.start_game(ruleset, &players, json!({})).await;
        play_some(&app, game, &players, steps, 11).await;
        let (_, _, to_act) = version(&app, game, &players[0]).await;
        let seat = to_act.first().copied().unwrap_or(0) as usize;
        let b = driver.browser().await;
        b.goto(&link_for(
            &app,
            &players[seat],
            &format!("/games/{game}"),
            Utc::now(),
        ))
        .await;
        b.wait_for("#game").await;
        let png = b.screenshot().await;
        std::fs::write(dir.join(format!("{ruleset}.png")), png).expect("write screenshot");
        b.close().await;
    }
}

/// Registers `name` with `email` on the registration page, follows the link of the
/// confirmation mail (its page has a button: a link alone creates nothing), and waits until
/// signed in.
pub(crate) async fn register_on_page(
    b: &crate::system_tests::browser::Browser,
    app: &crate::system_tests::helpers::TestApp,
    smtp: &SmtpServer,
    name: &str,
    email: &str,
    password: &str,
) {
    b.goto(&format!("{}/register", app.base)).await;
    fill_and_submit(
        b,
        "form[action='/register']",
        &[
            ("display_name", name),
            ("email", email),
            ("password", password),
        ],
    )
    .await;
    b.wait_for("#message-title").await;
    assert!(b.text_of_page().await.contains("Check your mail"));
    let mail =
        crate::system_tests::invitations::wait_for_text(smtp, email, 0, "/confirm?token=").await;
    let link = text_of(&mail)
        .lines()
        .find_map(|l| l.trim().strip_prefix("http://turnpost.test/confirm?token="))
        .map(|token| format!("{}/confirm?token={token}", app.base))
        .expect("a confirmation link");
    b.goto(&link).await;
    fill_and_submit(b, "form[action='/confirm']", &[]).await;
    b.wait_for("a[href='/games/new']").await;
}

/// Fills the inputs named in `fields` of the page's form `form` and submits it.
pub(crate) async fn fill_and_submit(
    b: &crate::system_tests::browser::Browser,
    form: &str,
    fields: &[(&str, &str)],
) {
    for (name, value) in fields {
        let input = b.wait_for(&format!("{form} [name='{name}']")).await;
        b.script(&format!(
            "document.querySelector(\"{form} [name='{name}']\").value = ''; return 1"
        ))
        .await;
        b.type_into(&input, value).await;
    }
    let button = b.wait_for(&format!("{form} button[type='submit']")).await;
    b.click(&button).await;
}

#[tokio::test]
async fn newcomers_register_start_a_game_join_it_and_rename_themselves_on_the_pages() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let driver = Driver::start().await;
    let suffix = Uuid::new_v4().simple().to_string();

    // Dora registers on the page and starts a 2-seat garden-gnomes game with an open seat.
    let dora = driver.browser().await;
    let dora_mail = format!("dora-{suffix}@example.test");
    register_on_page(
        &dora,
        &app,
        &smtp,
        "Dora",
        &dora_mail,
        "a long enough password",
    )
    .await;
    dora.wait_for("a[href='/games/new']").await;
    assert!(dora.text_of_page().await.contains("Signed in as Dora"));
    dora.goto(&format!("{}/games/new", app.base)).await;
    let gg = "details.ruleset form:has(input[name='ruleset'][value='garden-gnomes'])";
    let summary = dora
        .wait_for("details.ruleset:has(input[value='garden-gnomes']) summary")
        .await;
    dora.click(&summary).await;
    fill_and_submit(&dora, gg, &[("seats", "2")]).await;
    dora.wait_for("#game").await;
    let url = dora.url().await;
    let game: Uuid = url
        .rsplit('/')
        .next()
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("the new game's page, not {url}"));
    assert!(dora.text_of_page().await.contains("open seat"));

    // Emil, signed in from a registration of his own, finds it among the open games and joins.
    let emil = driver.browser().await;
    let emil_mail = format!("emil-{suffix}@example.test");
    register_on_page(
        &emil,
        &app,
        &smtp,
        "Emil",
        &emil_mail,
        "another long password",
    )
    .await;
    let join = emil
        .wait_for(&format!("form[action='/games/{game}/join'] button"))
        .await;
    emil.click(&join).await;
    emil.wait_for(&format!("#game[data-game='{game}']")).await;
    // The game started: both seats are taken and somebody must act.
    let page = emil.text_of_page().await;
    assert!(
        page.contains("Dora") && page.contains("Emil (you)"),
        "{page}"
    );

    // Emil renames himself; Dora's page says the new name.
    emil.goto(&format!("{}/settings", app.base)).await;
    fill_and_submit(
        &emil,
        "form[action='/settings']",
        &[("display_name", "Emil the Bold")],
    )
    .await;
    emil.wait_for("p.notice").await;
    dora.goto(&format!("{}/games/{game}", app.base)).await;
    dora.wait_for("#game").await;
    assert!(dora.text_of_page().await.contains("Emil the Bold"));

    dora.close().await;
    emil.close().await;
}

#[tokio::test]
async fn a_turn_mail_shows_the_board_as_an_inline_png_and_stays_small() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob"]).await;
    for p in &players {
        app.request(
            reqwest::Method::PUT,
            "/v1/me/preferences",
            Some(&p.token),
            Some(&json!({"pictures": true})),
            &[],
        )
        .await
        .expect(200);
    }
    let game = app
        .start_game("monsters-and-magic", &players, json!({}))
        .await;
    let (_, _, to_act) = version(&app, game, &players[0]).await;
    let mover = &players[*to_act.first().expect("a mover") as usize];
    let mails = smtp
        .wait_for("a turn mail with a reply address", |got| {
            got.iter()
                .any(|m| m.to.iter().any(|t| t == &mover.email) && m.header("Reply-To").is_some())
        })
        .await;
    let mail = mails
        .iter()
        .find(|m| m.to.iter().any(|t| t == &mover.email) && m.header("Reply-To").is_some())
        .expect("a turn mail");
    let parsed = mail_parser::MessageParser::default()
        .parse(mail.raw.as_bytes())
        .expect("a message");
    let html = parsed.body_html(0).expect("an HTML part");
    assert!(html.contains("src=\"cid:board\""), "{html}");
    let png = parsed
        .attachments()
        .find(|a| a.content_id() == Some("board"))
        .expect("the board's PNG, inline");
    assert_eq!(
        png.content_type().map(|c| (c.ctype(), c.subtype())),
        Some(("image", Some("png")))
    );
    assert_eq!(&png.contents()[1..4], b"PNG");
    assert!(
        mail.raw.len() < 100_000,
        "a turn mail with its picture takes {} bytes",
        mail.raw.len()
    );
    // The text part says the same in words and has no picture.
    assert!(text_of(mail).contains("== Your choices =="));
}

#[tokio::test]
async fn the_board_is_in_words_unless_a_player_turns_pictures_on() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob"]).await;
    let (ann, bob) = (&players[0], &players[1]);
    let set = async |who: &Player, body: Value| {
        app.request(
            reqwest::Method::PUT,
            "/v1/me/preferences",
            Some(&who.token),
            Some(&body),
            &[],
        )
        .await
    };
    // Neither setting named: nothing to do, said clearly.
    set(ann, json!({}))
        .await
        .expect_problem(422, "invalid-request");
    assert_eq!(
        app.get("/v1/me/preferences", ann).await.expect(200)["pictures"],
        false,
        "pictures are off by default"
    );
    let prefs = set(bob, json!({"pictures": true})).await.expect(200);
    assert_eq!(prefs["pictures"], true);
    assert_eq!(prefs["mail"], "all", "the other setting is left as it was");

    app.start_game("bag-of-fate", &players, json!({})).await;
    let started = |who: &Player| {
        let email = who.email.clone();
        move |m: &crate::system_tests::smtp::Received| {
            m.to.iter().any(|t| t == &email) && m.subject().contains("started")
        }
    };
    let mails = smtp
        .wait_for("both start mails", |got| {
            got.iter().any(started(ann)) && got.iter().any(started(bob))
        })
        .await;
    let of = |who| {
        mails
            .iter()
            .find(|m| started(who)(m))
            .expect("a start mail")
    };
    let parse = |m: &crate::system_tests::smtp::Received| {
        mail_parser::MessageParser::default()
            .parse(m.raw.as_bytes())
            .map(|p| {
                (
                    p.body_html(0).map(|h| h.to_string()).unwrap_or_default(),
                    p.attachments().any(|a| a.content_id() == Some("board")),
                )
            })
            .expect("a message")
    };
    let (ann_html, ann_png) = parse(of(ann));
    let (bob_html, bob_png) = parse(of(bob));
    assert!(!ann_png && !ann_html.contains("cid:board"), "{ann_html}");
    assert!(bob_png && bob_html.contains("cid:board"), "{bob_html}");
    // Ann's mail still has the table in words.
    assert!(text_of(of(ann)).contains("== The table =="));
    assert!(
        of(ann).raw.len() * 3 < of(bob).raw.len() * 2,
        "without the picture a mail is much smaller: {} against {} bytes",
        of(ann).raw.len(),
        of(bob).raw.len()
    );
}

/// The `signin` token of a link.
fn token_of(link: &str) -> &str {
    link.split("signin=").nth(1).expect("a token")
}

#[tokio::test]
async fn a_player_has_a_sign_in_link_mailed_and_it_signs_them_in_nobody_else() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann"]).await;
    let ann = &players[0];
    let unverified = app.register("Uma").await;
    // (An account from before registrations were confirmed by mail, or made by
    // `turnpost account create`.)
    app.sql(&format!(
        "UPDATE users SET email_verified_at = NULL WHERE id = '{}'",
        unverified.id
    ))
    .await;
    settle(&app).await;
    let seen = mail_to(&smtp, ann).len();
    let driver = Driver::start().await;

    // Ann asks on the sign-in page.
    let b = driver.browser().await;
    b.goto(&format!("{}/signin", app.base)).await;
    fill_and_submit(&b, "form[action='/signin/mail']", &[("email", &ann.email)]).await;
    b.wait_for("#message-title").await;
    let answer = b.text_of_page().await;
    assert!(answer.contains("a sign-in link is on its way"), "{answer}");
    let mail = wait_for_mail_where(&smtp, ann, seen, |m| m.subject() == "Your sign-in link").await;
    assert!(mail.has_text_and_html());
    let link = sign_in_link(&app, &text_of(&mail));
    assert_eq!(link, format!("{}/?signin={}", app.base, token_of(&link)));
    // Bound to Ann, good for an hour.
    let claims = server_jwt(&app)
        .check(Purpose::SignIn, token_of(&link))
        .expect("a sign-in token");
    assert_eq!(claims.sub, ann.id);
    assert_eq!(claims.exp - claims.iat, 3600);

    // An altered link: an error page, and no session.
    let other = driver.browser().await;
    other.goto(&link[..link.len() - 3]).await;
    other.wait_for("#error-title").await;
    assert!(
        other
            .text_of_page()
            .await
            .contains("This link is not valid")
    );
    other.goto(&format!("{}/", app.base)).await;
    other.wait_for("form[action='/signin/mail']").await;
    assert!(!other.text_of_page().await.contains("Signed in as"));

    // The link signs Ann in, on the home page, without the token in the address.
    b.goto(&link).await;
    b.wait_for("a[href='/games/new']").await;
    assert_eq!(b.url().await, format!("{}/", app.base));
    assert!(b.text_of_page().await.contains("Signed in as Ann"));

    // Asking again at once, for an address with no account, for an unconfirmed one: the same
    // page each time, and no mail (one a minute; none to strangers).
    let stranger = format!("nobody-{}@example.test", Uuid::new_v4().simple());
    for address in [
        ann.email.as_str(),
        stranger.as_str(),
        unverified.email.as_str(),
    ] {
        other.goto(&format!("{}/signin", app.base)).await;
        fill_and_submit(&other, "form[action='/signin/mail']", &[("email", address)]).await;
        other.wait_for("#message-title").await;
        assert_eq!(
            other.text_of_page().await.replace(address, "ADDRESS"),
            answer.replace(&ann.email, "ADDRESS"),
            "the answer tells whether {address} has an account"
        );
    }
    settle(&app).await;
    assert_eq!(
        app.count_where("outbox", "kind = 'sign_in'").await,
        1,
        "one sign-in mail in all"
    );
    let got = smtp.received();
    assert_eq!(
        got.iter()
            .filter(|m| m.subject() == "Your sign-in link")
            .count(),
        1
    );
    assert!(!got.iter().any(|m| m.to.iter().any(|t| t == &stranger)));

    b.close().await;
    other.close().await;
}

/// The focusable things of the page (links, buttons, form controls, summaries, anything with a
/// tab stop) and its form controls whose label, found the way the page's markup says (a
/// `<label for>` or a wrapping label, `aria-label`, `aria-labelledby`, a button's text), is
/// empty: as HTML descriptions.
const UNLABELLED: &str = r#"
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
    var text = function (ids) {
      return ids.split(/\s+/).map(function (id) {
        var t = document.getElementById(id); return t ? t.textContent : '';
      }).join(' ');
    };
    var out = [];
    document.querySelectorAll('input, select, textarea, button').forEach(function (el) {
      if (el.type === 'hidden') { return; }
      var name = el.getAttribute('aria-label') || '';
      if (!name && el.getAttribute('aria-labelledby')) { name = text(el.getAttribute('aria-labelledby')); }
      if (!name && el.labels) { name = Array.from(el.labels).map(function (l) { return l.textContent; }).join(' '); }
      if (!name && el.tagName === 'BUTTON') { name = el.textContent; }
      if (!name.trim()) { out.push(el.outerHTML.slice(0, 160)); }
    });
    return out;
"#;

const FOCUSABLE: &str = "a[href], button, input:not([type='hidden']), select, textarea, summary, \
                         [tabindex]:not([tabindex='-1'])";

/// Checks the page `b` shows: every form control labelled in its markup, and everything
/// focusable named in Chromium's accessibility tree. Returns how many it checked.
async fn check_names(b: &crate::system_tests::browser::Browser, page: &str) -> usize {
    let unlabelled = b.script(UNLABELLED).await;
    assert_eq!(
        unlabelled,
        json!([]),
        "{page}: form controls without a label"
    );
    let focusable = b.find_all(FOCUSABLE).await;
    for e in &focusable {
        let name = b.accessible_name(e).await;
        assert!(
            !name.trim().is_empty(),
            "{page}: no accessible name for {}",
            b.outer_html(e).await
        );
    }
    focusable.len()
}

/// A table to look at in a browser: Ann and Bob at a 2-seat bag-of-fate game (their addresses
/// unconfirmed, so their settings offer the confirmation again), and a game of Cat's with an
/// open seat on their home pages.
struct Table {
    app: TestApp,
    game: Uuid,
    /// The game's version, and the player who must act at it.
    version: i64,
    mover: Player,
    driver: Driver,
}

async fn a_table_to_look_at() -> Table {
    let app = crate::system_tests::helpers::spawn_app().await;
    let (players, game) = two_players_and_an_open_game(&app).await;
    let (version, _, to_act) = version(&app, game, &players[0]).await;
    let mover = players[*to_act.first().expect("a mover") as usize].clone();
    Table {
        app,
        game,
        version,
        mover,
        driver: Driver::start().await,
    }
}

async fn two_players_and_an_open_game(app: &TestApp) -> (Vec<Player>, Uuid) {
    let players = vec![
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
    ];
    let game = app
        .start_game("bag-of-fate", &players[..2], json!({}))
        .await;
    app.post(
        "/v1/games",
        &players[2],
        &json!({"ruleset": "wiz-war", "seats": 2}),
    )
    .await
    .expect(201);
    (players, game)
}

#[tokio::test]
async fn every_control_on_every_page_has_a_name_and_the_picture_its_words() {
    let Table {
        app,
        game,
        mover,
        driver,
        ..
    } = a_table_to_look_at().await;
    let mover = &mover;
    let b = driver.browser().await;

    // A visitor's pages.
    for (path, ready) in [
        ("/signin", "form[action='/signin/mail']"),
        ("/register", "form[action='/register']"),
        ("/no/such/page", "#error-title"),
    ] {
        b.goto(&format!("{}{path}", app.base)).await;
        b.wait_for(ready).await;
        check_names(&b, path).await;
    }
    b.goto(&format!("{}/signin", app.base)).await;
    fill_and_submit(
        &b,
        "form[action='/signin/mail']",
        &[("email", &mover.email)],
    )
    .await;
    b.wait_for("#message-title").await;
    check_names(&b, "the answer to a sign-in link").await;

    // A player's pages (the mover's address unconfirmed, so that the settings page shows its
    // confirmation form too).
    app.sql(&format!(
        "UPDATE users SET email_verified_at = NULL WHERE id = '{}'",
        mover.id
    ))
    .await;
    b.goto(&link_for(&app, mover, "/", Utc::now())).await;
    b.wait_for("form[action$='/join'] button").await;
    let mut checked = check_names(&b, "/").await;
    for (path, ready) in [
        ("/games/new".to_owned(), "details.ruleset".to_owned()),
        (
            "/settings".into(),
            "form[action='/settings/verification']".into(),
        ),
        (format!("/games/{game}"), "button.choice".into()),
        (format!("/games/{game}/log"), "ol.log".into()),
    ] {
        b.goto(&format!("{}{path}", app.base)).await;
        b.wait_for(&ready).await;
        checked += check_names(&b, &path).await;
    }
    assert!(checked > 40, "only {checked} controls checked");

    // The picture: an image named by its title, described by the table in words.
    b.goto(&format!("{}/games/{game}", app.base)).await;
    let svg = b.wait_for(".picture svg").await;
    assert!(
        matches!(b.accessible_role(&svg).await.as_str(), "image" | "img"),
        "the picture's role is {}",
        b.accessible_role(&svg).await
    );
    let title = b
        .script("return document.querySelector('.picture svg title').textContent")
        .await;
    assert_eq!(json!(b.accessible_name(&svg).await), title);
    let words = b
        .script(
            "var svg = document.querySelector('.picture svg'); \
             var d = document.getElementById(svg.getAttribute('aria-describedby')); \
             return d ? d.innerText : null",
        )
        .await;
    let words = words.as_str().expect("the picture names its description");
    let headline = b
        .script("return document.querySelector('.headline').textContent")
        .await;
    assert!(
        words.contains("The table") && words.lines().count() > 5,
        "the description is the table in words: {words}"
    );
    assert!(headline.as_str().is_some_and(|h| !h.is_empty()));
    b.close().await;
}

#[tokio::test]
async fn the_game_page_is_played_with_the_keyboard_alone() {
    let Table {
        app,
        game,
        version: before,
        mover,
        driver,
    } = a_table_to_look_at().await;
    let b = driver.browser().await;
    b.goto(&link_for(
        &app,
        &mover,
        &format!("/games/{game}"),
        Utc::now(),
    ))
    .await;
    b.wait_for("button.choice").await;
    let choices = b.find_all("button.choice").await.len();
    let targeted = b.find_all("button.choice[data-target]").await.len();
    assert!(targeted > 0, "the first decision is about the picture");

    // Tab through the whole page: where focus lands, whether it is on screen, and for a
    // choice, whether its square is outlined on the picture.
    const FOCUSED: &str = r#"
        var e = document.activeElement;
        if (!e || e === document.body) { return null; }
        var r = e.getBoundingClientRect();
        var target = e.getAttribute('data-target');
        return {
          tag: e.tagName.toLowerCase(),
          text: (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 80),
          choice: e.matches('button.choice'),
          on_screen: r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0
                     && r.top < window.innerHeight && r.left < window.innerWidth,
          outlined: target ? !!document.querySelector(
              '.picture .picked[data-target="' + CSS.escape(target) + '"]') : null
        };"#;
    let mut walk: Vec<Value> = vec![];
    for _ in 0..200 {
        b.press(&[crate::system_tests::browser::TAB]).await;
        let now = b.script(FOCUSED).await;
        if now.is_null() || walk.first() == Some(&now) {
            break; // out of the page, or round to the start
        }
        walk.push(now);
    }
    let texts: Vec<&str> = walk.iter().filter_map(|f| f["text"].as_str()).collect();
    assert_eq!(
        texts.first().copied(),
        Some("Skip to the content"),
        "the first stop skips to the content: {texts:?}"
    );
    for wanted in ["Your games", "New game", "Settings", "Sign out"] {
        assert!(
            texts.contains(&wanted),
            "Tab never reaches {wanted}: {texts:?}"
        );
    }
    let reached: Vec<&Value> = walk.iter().filter(|f| f["choice"] == json!(true)).collect();
    assert_eq!(
        reached.len(),
        choices,
        "Tab reaches every choice: {texts:?}"
    );
    assert!(
        walk.iter().all(|f| f["on_screen"] == json!(true)),
        "focus went off screen: {walk:?}"
    );
    assert_eq!(
        reached
            .iter()
            .filter(|f| f["outlined"] == json!(true))
            .count(),
        targeted,
        "a choice in focus outlines its square: {walk:?}"
    );

    // From the top again: Tab to the first choice, and Enter plays it.
    b.goto(&format!("{}/games/{game}", app.base)).await;
    b.wait_for("button.choice").await;
    for _ in 0..walk.len() {
        b.press(&[crate::system_tests::browser::TAB]).await;
        if b.script(FOCUSED).await["choice"] == json!(true) {
            break;
        }
    }
    b.press(&[crate::system_tests::browser::ENTER]).await;
    let mut moved = false;
    for _ in 0..200 {
        if version(&app, game, &mover).await.0 > before {
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(moved, "Enter on a choice played nothing");
    b.close().await;
}

#[tokio::test]
async fn one_player_tries_a_game_against_the_bot_with_a_clock_and_resigns_on_the_page() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let driver = Driver::start().await;
    let b = driver.browser().await;
    let solo_mail = format!("solo-{}@example.test", Uuid::new_v4().simple());
    register_on_page(
        &b,
        &app,
        &smtp,
        "Solo",
        &solo_mail,
        "a long enough password",
    )
    .await;
    b.goto(&format!("{}/games/new", app.base)).await;
    let form = "details.ruleset form:has(input[name='ruleset'][value='bag-of-fate'])";
    let summary = b
        .wait_for("details.ruleset:has(input[value='bag-of-fate']) summary")
        .await;
    if b.find(&format!("{form} [name='bots']")).await.is_none() {
        b.click(&summary).await;
    }
    b.wait_for(&format!("{form} select[name='clock_hours']"))
        .await;
    b.script(&format!(
        "document.querySelector(\"{form} select[name='clock_hours']\").value = '72'; return 1"
    ))
    .await;
    // "a bot is a built-in player any game can seat at creation (so one person can try a
    // ruleset alone)": one seat for Solo, one for the bot; the game starts at once.
    fill_and_submit(&b, form, &[("seats", "2"), ("bots", "1")]).await;
    b.wait_for("#game").await;
    let page = b.text_of_page().await;
    assert!(page.contains("Bot 1 — played by the bot"), "{page}");
    assert!(
        page.contains("Solo (you) — to act, by "),
        "a deadline is shown: {page}"
    );
    let summary = b.wait_for("#seat-title ~ details summary").await;
    b.click(&summary).await;
    let id = b
        .script("return document.querySelector('#game').dataset.game")
        .await;
    let resign = b
        .wait_for(&format!(
            "form[action='/games/{}/seat/resign'] button",
            id.as_str().unwrap()
        ))
        .await;
    b.click(&resign).await;
    // Resigning asks first (issue 35): nothing happens until the player says yes.
    b.wait_for("#resign-title").await;
    let page = b.text_of_page().await;
    assert!(page.contains("Do you really want to resign?"), "{page}");
    let sure = b
        .wait_for(&format!(
            "form[action='/games/{}/seat/resign'] button",
            id.as_str().unwrap()
        ))
        .await;
    b.click(&sure).await;
    b.wait_for("p.outcome").await;
    let page = b.text_of_page().await;
    assert!(page.contains("Solo resigned; Bot 1 wins"), "{page}");
    b.close().await;
}

/// Signs `who` in with their password in a new browser and opens `path`.
async fn signed_in_at(
    driver: &Driver,
    app: &TestApp,
    who: &Player,
    path: &str,
) -> crate::system_tests::browser::Browser {
    let b = driver.browser().await;
    b.goto(&format!("{}/signin?next={path}", app.base)).await;
    fill_and_submit(
        &b,
        "form[action='/signin']",
        &[("email", &who.email), ("password", "correct horse battery")],
    )
    .await;
    b.wait_for("#game").await;
    b
}

#[tokio::test]
async fn table_talk_on_the_page_reaches_the_table_live_and_private_words_only_their_reader() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob", "Cat"]).await;
    let (ann, bob, cat) = (&players[0], &players[1], &players[2]);
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let path = format!("/games/{game}");
    let driver = Driver::start().await;
    let a = signed_in_at(&driver, &app, ann, &path).await;
    let b = signed_in_at(&driver, &app, bob, &path).await;
    b.wait_for("#talk-title").await;
    assert!(
        b.text_of_page().await.contains("Nobody has written yet"),
        "an empty table talk says so"
    );
    // Bob starts typing; his page must not lose it when it follows the talk.
    let bob_box = b.wait_for("#say-body").await;
    b.type_into(&bob_box, "half a thought").await;
    b.script("window.__stayed = 'no reload'; return 1").await;

    // Ann writes to the table: Bob's page shows it without a reload.
    fill_and_submit(&a, "form.say", &[("body", "Good luck, all!")]).await;
    a.wait_for("ol.talk li").await;
    let seen = b.wait_for("#talk-messages ol.talk li").await;
    assert!(!seen.is_empty());
    let page = b.text_of_page().await;
    assert!(page.contains("Good luck, all!"), "{page}");
    assert!(page.contains("Ann to the table"), "{page}");
    assert_eq!(
        b.script("return window.__stayed || null").await,
        json!("no reload"),
        "Bob's page reloaded instead of following"
    );
    assert_eq!(
        b.script("return document.getElementById('say-body').value")
            .await,
        json!("half a thought"),
        "what Bob was typing was lost"
    );

    // Ann writes privately to Cat (the select names her): only Cat ever reads it.
    let marker = format!("PRIVATE-{}", Uuid::new_v4().simple());
    let cat_seat = app.get(&format!("/v1/games/{game}"), ann).await.expect(200)["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["display_name"] == "Cat")
        .and_then(|s| s["seat"].as_i64())
        .expect("Cat's seat");
    let option = a
        .wait_for(&format!("#say-to option[value='{cat_seat}']"))
        .await;
    assert!(
        a.text_of_page().await.contains("Cat only (private)"),
        "the private choice names the player"
    );
    a.click(&option).await;
    fill_and_submit(&a, "form.say", &[("body", &marker)]).await;
    a.wait_for("ol.talk li.private").await;
    assert!(
        a.text_of_page().await.contains(&marker),
        "the sender sees it"
    );
    // Bob's page is told to look again, and still shows only the table's message.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let talk = b.wait_for("#talk").await;
    let bob_page = b.outer_html(&talk).await;
    assert!(
        !bob_page.contains(&marker),
        "Bob read Cat's private message"
    );
    // Cat reads it on her page.
    let c = signed_in_at(&driver, &app, cat, &path).await;
    let cat_page = c.text_of_page().await;
    assert!(cat_page.contains(&marker), "Cat does not see her message");
    assert!(cat_page.contains("Ann to you (private)"), "{cat_page}");
    // Bob's page and log, read afresh, never hold it either.
    for page in [path.clone(), format!("{path}/log")] {
        b.goto(&format!("{}{page}", app.base)).await;
        let body = b.wait_for("body").await;
        assert!(!b.outer_html(&body).await.contains(&marker), "{page}");
    }

    // An empty message is refused with a page that says why, and posts nothing.
    let before = app
        .count_where("messages", &format!("game_id = '{game}'"))
        .await;
    a.goto(&format!("{}{path}", app.base)).await;
    a.wait_for("#say-body").await;
    a.script("document.getElementById('say-body').removeAttribute('required'); return 1")
        .await;
    let send = a.wait_for("form.say button[type='submit']").await;
    a.click(&send).await;
    // The refusal is a new page; until it has loaded, the game page (which has an h1 too) is
    // still there, so wait for its words (bounded).
    let mut refused = String::new();
    for _ in 0..100 {
        refused = a.text_of_page().await;
        if refused.contains("empty") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(refused.contains("empty"), "the refusal says why: {refused}");
    assert_eq!(
        app.count_where("messages", &format!("game_id = '{game}'"))
            .await,
        before
    );
    for x in [a, b, c] {
        x.close().await;
    }
}
