//! Issue 35, item 1: invitations a person can accept, by mail alone or on the invitation's
//! page, over real SMTP both ways (lettre into Turnpost's listener; Turnpost's mail to a real
//! SMTP server on loopback) and, for the page, in a real browser.

use reqwest::Method;
use serde_json::{Value, json};

use crate::system_tests::browser::Driver;
use crate::system_tests::helpers::{Player, TestApp};
use crate::system_tests::mailbox::{
    reply_address, reply_message, send_smtp, spawn_mail_app, text_of, verdict, verified_players,
};
use crate::system_tests::smtp::{Received, SmtpServer};

/// The mail `address` received, in order.
pub(crate) fn mails_to(smtp: &SmtpServer, address: &str) -> Vec<Received> {
    smtp.received()
        .into_iter()
        .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(address)))
        .collect()
}

/// Waits (bounded) for a mail to `address`, after the first `seen`, whose text contains `what`.
pub(crate) async fn wait_for_text(
    smtp: &SmtpServer,
    address: &str,
    seen: usize,
    what: &str,
) -> Received {
    for _ in 0..2400 {
        if let Some(m) = mails_to(smtp, address)
            .into_iter()
            .skip(seen)
            .find(|m| text_of(m).contains(what))
        {
            return m;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!(
        "{address} got no mail saying {what:?}: {:#?}",
        mails_to(smtp, address)
            .iter()
            .map(text_of)
            .collect::<Vec<_>>()
    );
}

/// Bea's open garden-gnomes game of 3 seats (no clock), with `invited` invited by address.
async fn invited_game(app: &TestApp, bea: &Player, invited: &[&str]) -> String {
    let game = app
        .post(
            "/v1/games",
            bea,
            &json!({"ruleset": "garden-gnomes", "seats": 3}),
        )
        .await
        .expect(201);
    let id = game["id"].as_str().expect("id").to_owned();
    for address in invited {
        app.post(
            &format!("/v1/games/{id}/invitations"),
            bea,
            &json!({"email": address}),
        )
        .await
        .expect(201);
    }
    id
}

async fn seats(app: &TestApp, game: &str, who: &Player) -> Vec<Value> {
    let g = app.get(&format!("/v1/games/{game}"), who).await.expect(200);
    g["seats"].as_array().cloned().unwrap_or_default()
}

/// The invitation page's link in an invitation mail, on the test server.
pub(crate) fn page_link(app: &TestApp, mail: &Received) -> String {
    let text = text_of(mail);
    let line = text
        .lines()
        .find(|l| l.contains("/invitation?token="))
        .unwrap_or_else(|| panic!("no invitation link:\n{text}"));
    let path = line
        .trim()
        .strip_prefix("http://turnpost.test")
        .unwrap_or_else(|| panic!("a link to the public address: {line}"));
    format!("{}{path}", app.base)
}

// "The invitation mail has a signed Reply-To bound to the invitation. A reply whose first
// line is JOIN (or yes, accept, in any case) from the invited address joins the seat;
// DECLINE (no) declines it and tells the inviter. The reply is answered, like a move. A
// person without an account gets one (display name from the mail's From name or the
// address ...), with the address confirmed by the reply itself."
#[tokio::test]
async fn a_reply_to_the_invitation_joins_or_declines_and_strangers_cannot_take_the_seats() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Bea", "Eve"]).await;
    let (bea, eve) = (&players[0], &players[1]);
    let (alma, cyril) = ("alma@example.test", "cyril@example.test");
    let game = invited_game(&app, bea, &[alma, cyril]).await;

    // The mail says what the game is and how to answer, in words: no curl, no token to copy.
    let invitation = wait_for_text(&smtp, alma, 0, "invites you").await;
    let text = text_of(&invitation);
    for words in [
        "Clans of gnomes fight over the key places",
        "3 seats",
        "Seated so far: Bea",
        "Clock: No clock",
        "short game: no",
        "reply to this mail with JOIN",
        "DECLINE",
    ] {
        assert!(text.contains(words), "{words:?} missing:\n{text}");
    }
    for never in ["curl", "$TOKEN", "Bearer", "/v1/"] {
        assert!(!text.contains(never), "{never:?} in:\n{text}");
    }
    let to_alma = reply_address(&invitation).expect("the invitation has a Reply-To");
    assert!(to_alma.starts_with("play+"), "{to_alma}");

    // Both free seats wait for Alma and Cyril: a stranger cannot take one, also by the API.
    let refused = app
        .post(&format!("/v1/games/{game}/join"), eve, &json!({}))
        .await
        .expect_problem(409, "seat-unavailable");
    assert!(
        refused["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("held for an invited player"),
        "{refused}"
    );
    app.post(&format!("/v1/games/{game}/join"), eve, &json!({"seat": 2}))
        .await
        .expect_problem(409, "seat-unavailable");

    // A forged token (a character of its MAC changed) changes nothing and is not answered.
    let (local, domain) = to_alma.split_once('@').unwrap();
    let mut forged: Vec<char> = local.chars().collect();
    let at = forged.len() - 5;
    forged[at] = if forged[at] == 'a' { 'b' } else { 'a' };
    let forged = format!("{}@{domain}", forged.into_iter().collect::<String>());
    let users_before = app.count("users").await;
    let (id, raw) = reply_message(&format!("Alma <{alma}>"), &forged, &invitation, "JOIN", "");
    send_smtp(&app, Some(alma), &forged, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("bad_token"));
    assert_eq!(app.count("users").await, users_before);
    assert_eq!(
        app.count_where("invitations", "accepted_by IS NOT NULL")
            .await,
        0
    );

    // Another address's reply does nothing; the answer goes to the invited address.
    let seen = mails_to(&smtp, alma).len();
    let (id, raw) = reply_message(&eve.email, &to_alma, &invitation, "JOIN", "");
    send_smtp(&app, Some(&eve.email), &to_alma, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("wrong_sender"));
    wait_for_text(&smtp, alma, seen, "not from alma@example.test").await;
    assert_eq!(app.count("users").await, users_before);

    // Alma answers as people do, and has an account at once, named as her mail says.
    let seen = mails_to(&smtp, alma).len();
    let (id, raw) = reply_message(
        &format!("Alma Ruiz <{alma}>"),
        &to_alma,
        &invitation,
        "Yes, count me in!",
        "",
    );
    send_smtp(&app, Some(alma), &to_alma, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("joined"));
    let answer = wait_for_text(&smtp, alma, seen, "You joined Garden Gnomes").await;
    let answer = text_of(&answer);
    assert!(answer.contains("You hold seat 2, with Bea"), "{answer}");
    assert!(
        answer.contains("made an account for alma@example.test named Alma Ruiz"),
        "{answer}"
    );
    assert_eq!(
        app.count_where(
            "users",
            "email = 'alma@example.test' AND display_name = 'Alma Ruiz' \
             AND email_verified_at IS NOT NULL"
        )
        .await,
        1
    );
    let now = seats(&app, &game, bea).await;
    assert_eq!(now[1]["display_name"], "Alma Ruiz");

    // Cyril says no: the inviter is told, and the seat is free for anybody again.
    let to_cyril = mails_to(&smtp, cyril)
        .into_iter()
        .find_map(|m| reply_address(&m).map(|a| (m, a)))
        .expect("Cyril's invitation");
    let seen_bea = mails_to(&smtp, &bea.email).len();
    let (id, raw) = reply_message(cyril, &to_cyril.1, &to_cyril.0, "no, sorry", "");
    send_smtp(&app, Some(cyril), &to_cyril.1, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("declined"));
    wait_for_text(&smtp, cyril, 1, "You declined the invitation").await;
    let told = wait_for_text(
        &smtp,
        &bea.email,
        seen_bea,
        "cyril@example.test will not play",
    )
    .await;
    assert!(
        told.subject().contains("declined your invitation"),
        "{}",
        told.subject()
    );
    assert!(
        text_of(&told).contains("Invite someone else"),
        "{}",
        text_of(&told)
    );
    assert_eq!(
        app.count_where("users", "email = 'cyril@example.test'")
            .await,
        0
    );
    let joined = app
        .post(&format!("/v1/games/{game}/join"), eve, &json!({}))
        .await
        .expect(200);
    assert_eq!(joined["status"], "active");
    // A late JOIN from Cyril is answered, and changes nothing.
    let (id, raw) = reply_message(cyril, &to_cyril.1, &to_cyril.0, "JOIN", "");
    send_smtp(&app, Some(cyril), &to_cyril.1, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("refused"));
    wait_for_text(&smtp, cyril, 2, "You declined this invitation").await;
}

// "an expired or forged invitation token changes nothing"
#[tokio::test]
async fn an_expired_invitation_holds_no_seat_and_its_answers_change_nothing() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Bea", "Eve"]).await;
    let (bea, eve) = (&players[0], &players[1]);
    let dan = "dan@example.test";
    let game = invited_game(&app, bea, &[dan, "fay@example.test"]).await;
    let invitation = wait_for_text(&smtp, dan, 0, "invites you").await;
    let link = page_link(&app, &invitation);
    app.sql("UPDATE invitations SET expires_at = now() - interval '1 minute'")
        .await;
    let users_before = app.count("users").await;
    let to = reply_address(&invitation).expect("a Reply-To");
    let (id, raw) = reply_message(dan, &to, &invitation, "JOIN", "");
    send_smtp(&app, Some(dan), &to, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("refused"));
    wait_for_text(&smtp, dan, 1, "This invitation expired").await;
    assert_eq!(app.count("users").await, users_before);
    // Its page says so and offers nothing to press.
    let page = app
        .client
        .get(&link)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("This invitation has expired"), "{page}");
    assert!(!page.contains("value=\"accept\""), "{page}");
    // The seats are no longer held: anybody may take them.
    app.post(&format!("/v1/games/{game}/join"), eve, &json!({}))
        .await
        .expect(200);
}

// "The mail's link opens a web page (not JSON) that shows the game (ruleset, who invited, the
// other players, the options in words) with Accept and Decline buttons; it signs in or
// registers the invitee first where needed, and lands on the game page." And "the invitee's
// home page lists pending invitations; the inviter's game page shows who has not answered
// yet, with 'invite someone else'."
#[tokio::test]
async fn a_newcomer_accepts_on_the_invitation_page_in_a_browser_and_lands_on_the_game() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Bea", "Gus"]).await;
    let (bea, gus) = (&players[0], &players[1]);
    let nina = "nina@example.test";
    let game = invited_game(&app, bea, &[nina, gus.email.as_str()]).await;
    let invitation = wait_for_text(&smtp, nina, 0, "invites you").await;
    let link = page_link(&app, &invitation);

    // Without a browser: a page, in words.
    let res = app.client.get(&link).send().await.unwrap();
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let page = res.text().await.unwrap();
    for words in [
        "Bea invites you to Garden Gnomes",
        "Clans of gnomes",
        "Players</dt><dd>Bea",
        "No clock",
        "short game: no",
        ">Accept<",
        ">Decline<",
    ] {
        assert!(page.contains(words), "{words:?} missing:\n{page}");
    }
    // A forged link opens nothing.
    let forged = app
        .client
        .get(format!("{}/invitation?token=forged", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 400);

    let driver = Driver::start().await;
    // Gus has an account: his home page lists the invitation.
    let gus_browser = driver.browser().await;
    gus_browser.goto(&format!("{}/signin", app.base)).await;
    let email = gus_browser.wait_for("#email").await;
    gus_browser.type_into(&email, &gus.email).await;
    let password = gus_browser.wait_for("#password").await;
    gus_browser
        .type_into(&password, "correct horse battery")
        .await;
    let submit = gus_browser.wait_for("form[action='/signin'] button").await;
    gus_browser.click(&submit).await;
    gus_browser.wait_for("#invited-title").await;
    let home = gus_browser.text_of_page().await;
    assert!(home.contains("Bea invites you"), "{home}");

    // Nina has none: she opens the link, keeps her name, presses Accept, and is at the table.
    let b = driver.browser().await;
    b.goto(&link).await;
    let name = b.wait_for("#display_name").await;
    b.script("document.querySelector('#display_name').value = ''; return 1")
        .await;
    b.type_into(&name, "Nina").await;
    let accept = b.wait_for("button[value='accept']").await;
    assert_eq!(b.accessible_name(&accept).await, "Accept");
    b.click(&accept).await;
    b.wait_for("#game").await;
    assert_eq!(b.url().await, format!("{}/games/{game}", app.base));
    assert_eq!(
        app.count_where("users", "email = 'nina@example.test' AND display_name = 'Nina' AND email_verified_at IS NOT NULL").await,
        1
    );

    // Bea's game page says who has not answered, and lets her invite someone else.
    let bea_browser = driver.browser().await;
    bea_browser
        .goto(&format!("{}/signin?next=/games/{game}", app.base))
        .await;
    let email = bea_browser.wait_for("#email").await;
    bea_browser.type_into(&email, &bea.email).await;
    let password = bea_browser.wait_for("#password").await;
    bea_browser
        .type_into(&password, "correct horse battery")
        .await;
    let submit = bea_browser.wait_for("form[action='/signin'] button").await;
    bea_browser.click(&submit).await;
    bea_browser.wait_for("#invited-title").await;
    let page = bea_browser.text_of_page().await;
    assert!(page.contains(&gus.email), "{page}");
    assert!(!page.contains(nina), "Nina answered: {page}");
    assert!(bea_browser.find("#invite-email").await.is_some(), "{page}");

    // Gus accepts from his home page: the game starts.
    gus_browser.goto(&format!("{}/", app.base)).await;
    let accept = gus_browser.wait_for("form[action$='/accept'] button").await;
    gus_browser.click(&accept).await;
    gus_browser.wait_for("#game").await;
    let g = app.get(&format!("/v1/games/{game}"), bea).await.expect(200);
    assert_eq!(g["status"], "active");
    for b in [b, gus_browser, bea_browser] {
        b.close().await;
    }
    // The old JSON route still reads the same link's token.
    let token = link.split("token=").nth(1).unwrap();
    let shown = app
        .request(
            Method::GET,
            &format!("/v1/invitations/accept?token={token}"),
            None,
            None,
            &[],
        )
        .await
        .expect(200);
    assert_eq!(shown["invitation"]["accepted"], true);
}
