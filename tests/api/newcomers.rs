//! Issue 35's first acceptance: "Three people who have never used Turnpost: one creates a
//! 3-seat game on the web and invites the two others by address; one joins by replying `JOIN`
//! to the invitation mail, the other by the invitation link in a real browser (Chromium) with
//! no password set beforehand; both then play to the end by mail replies only. No step of
//! theirs uses the API." Over real SMTP both ways, and a real browser.

use uuid::Uuid;

use crate::system_tests::browser::Driver;
use crate::system_tests::helpers::Player;
use crate::system_tests::invitations::{page_link, wait_for_text};
use crate::system_tests::mailbox::{reply_message, send_smtp, spawn_mail_app, verdict};
use crate::system_tests::play_by_mail::{check_the_end, play_by_mail};
use crate::system_tests::smtp::SmtpServer;
use crate::system_tests::web::{fill_and_submit, register_on_page};

/// A player the test knows only by address: the account was made by Turnpost, not by the test.
fn by_address(email: &str) -> Player {
    Player {
        id: Uuid::nil(),
        token: String::new(),
        email: email.to_owned(),
    }
}

#[tokio::test]
async fn three_newcomers_meet_by_web_and_mail_and_play_a_whole_game_by_mail() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let driver = Driver::start().await;
    let suffix = Uuid::new_v4().simple().to_string();
    let dora_mail = format!("dora-{suffix}@example.test");
    let (alma_mail, nina_mail) = (
        format!("alma-{suffix}@example.test"),
        format!("nina-{suffix}@example.test"),
    );

    // Dora registers on the page, confirms it by the link mailed to her, starts a 3-seat
    // bag-of-fate game and invites Alma and Nina by address, all in her browser.
    let dora = driver.browser().await;
    register_on_page(
        &dora,
        &app,
        &smtp,
        "Dora",
        &dora_mail,
        "a long enough password",
    )
    .await;
    dora.goto(&format!("{}/games/new", app.base)).await;
    // Open the ruleset's part of the form (it may be open already: a click would close it).
    dora.wait_for("details.ruleset:has(input[value='bag-of-fate']) summary")
        .await;
    dora.script(
        "document.querySelector(\"details.ruleset:has(input[value='bag-of-fate'])\").open = true; return 1",
    )
    .await;
    fill_and_submit(
        &dora,
        "details.ruleset form:has(input[name='ruleset'][value='bag-of-fate'])",
        &[("seats", "3")],
    )
    .await;
    dora.wait_for("#game").await;
    let url = dora.url().await;
    let game: Uuid = url
        .rsplit('/')
        .next()
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("the new game's page, not {url}"));
    for invitee in [&alma_mail, &nina_mail] {
        fill_and_submit(&dora, "form.invite", &[("email", invitee.as_str())]).await;
        dora.wait_for("#invited-title").await;
    }
    let page = dora.text_of_page().await;
    assert!(
        page.contains(&alma_mail) && page.contains(&nina_mail),
        "{page}"
    );

    // Alma answers the invitation mail with JOIN: she has an account now, named from her mail.
    let invitation = wait_for_text(&smtp, &alma_mail, 0, "invites you").await;
    let to = crate::system_tests::mailbox::reply_address(&invitation).expect("a Reply-To");
    let (id, raw) = reply_message(
        &format!("Alma Ruiz <{alma_mail}>"),
        &to,
        &invitation,
        "Join",
        "",
    );
    send_smtp(&app, Some(&alma_mail), &to, &raw).await;
    wait_for_text(&smtp, &alma_mail, 1, "You joined").await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("joined"));

    // Nina opens the invitation's link in her browser, with no account and no password, and
    // accepts: the game starts, and she is on its page.
    let invitation = wait_for_text(&smtp, &nina_mail, 0, "invites you").await;
    let nina = driver.browser().await;
    nina.goto(&page_link(&app, &invitation)).await;
    let accept = nina.wait_for("button[value='accept']").await;
    nina.click(&accept).await;
    nina.wait_for(&format!("#game[data-game='{game}']")).await;
    for (address, name) in [(&alma_mail, "Alma Ruiz"), (&nina_mail, "nina")] {
        assert_eq!(
            app.count_where(
                "users",
                &format!(
                    "email = '{address}' AND display_name LIKE '{name}%' \
                     AND email_verified_at IS NOT NULL AND password_hash = ''"
                ),
            )
            .await,
            1,
            "{address}: an account named from the mail, confirmed, without a password"
        );
    }

    // All three play to the end by mail replies alone (the test reads the record as a watcher).
    let watcher = app.register("Watcher").await;
    let players = [
        by_address(&dora_mail),
        by_address(&alma_mail),
        by_address(&nina_mail),
    ];
    let played = play_by_mail(&app, &smtp, game, &players, &watcher, 11, None).await;
    let record = app
        .get(&format!("/v1/games/{game}"), &watcher)
        .await
        .expect(200);
    assert_eq!(record["status"], "finished");
    let events = app
        .get(
            &format!("/v1/games/{game}/events?after=0&limit=1000"),
            &watcher,
        )
        .await
        .expect(200);
    let by_players = events["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["actor"]["type"] == "seat" && e["kind"] == "action")
        .count();
    assert_eq!(by_players, played, "every move came from a mail");
    check_the_end(&app, &smtp, &players).await;
    // Nobody but the watcher ever had an API token.
    assert_eq!(
        app.count_where(
            "api_tokens",
            &format!(
                "user_id IN (SELECT id FROM users WHERE email IN ('{dora_mail}', '{alma_mail}', '{nina_mail}'))"
            ),
        )
        .await,
        0
    );

    // Nina wants the web after all: she sets her first password on the settings page (no
    // current one to give), and signs in with it in a fresh browser.
    nina.goto(&format!("{}/settings", app.base)).await;
    nina.wait_for("#password-title").await;
    assert!(nina.find("#current_password").await.is_none());
    fill_and_submit(
        &nina,
        "form[action='/settings/password']",
        &[("new_password", "tangerine orbit lantern")],
    )
    .await;
    nina.wait_for("#password-title").await;
    assert!(
        nina.text_of_page().await.contains("Your password is set"),
        "{}",
        nina.text_of_page().await
    );
    let fresh = driver.browser().await;
    fresh.goto(&format!("{}/signin", app.base)).await;
    fill_and_submit(
        &fresh,
        "form[action='/signin']",
        &[
            ("email", &nina_mail),
            ("password", "tangerine orbit lantern"),
        ],
    )
    .await;
    fresh.wait_for("a[href='/games/new']").await;
    assert!(fresh.text_of_page().await.contains("Signed in as nina"));
    for b in [dora, nina, fresh] {
        b.close().await;
    }
}
