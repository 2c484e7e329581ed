//! Issue 36: a turn per reply. Notation in the API and the log, several choices in one reply
//! (over real SMTP into the listener), forced choices played by the service, the preview, and
//! standing orders.

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::{Picker, Player, TestApp};
use crate::system_tests::mailbox::{
    mail_to, reply_address, reply_message, send_smtp, spawn_mail_app, text_of, verified_players,
    wait_for_mail_where,
};
use crate::system_tests::smtp::{Received, SmtpServer};

async fn state(app: &TestApp, game: Uuid, who: &Player) -> Value {
    app.get(&format!("/v1/games/{game}/state"), who)
        .await
        .expect(200)
}

async fn entries(app: &TestApp, game: Uuid, who: &Player, after: i64) -> Vec<Value> {
    let page = app
        .get(
            &format!("/v1/games/{game}/events?after={after}&limit=1000"),
            who,
        )
        .await
        .expect(200);
    page["entries"].as_array().cloned().unwrap_or_default()
}

/// The seat to act and its player.
async fn to_act<'a>(app: &TestApp, game: Uuid, players: &'a [Player]) -> (usize, &'a Player) {
    let s = state(app, game, &players[0]).await;
    let seat = s["to_act"][0].as_u64().expect("someone acts") as usize;
    (seat, &players[seat])
}

/// The preview of `notations` played by `who` (200 expected).
async fn preview(app: &TestApp, game: Uuid, who: &Player, notations: &[String]) -> Value {
    let actions: Vec<Value> = notations.iter().map(|n| json!({"notation": n})).collect();
    app.post(
        &format!("/v1/games/{game}/actions/preview"),
        who,
        &json!({"actions": actions}),
    )
    .await
    .expect(200)
}

/// Notations for `steps` of `who`'s choices in a row that the preview plays without stopping
/// (no chance step, nobody else's decision in between), picked at random from `seed`; `None`
/// if this turn has no such run.
async fn plan_run(
    app: &TestApp,
    game: Uuid,
    who: &Player,
    steps: usize,
    seed: u64,
) -> Option<Vec<String>> {
    let mut picker = Picker::new(seed);
    for _attempt in 0..20 {
        let mut lines: Vec<String> = vec![];
        let mut legal: Vec<Value> = state(app, game, who).await["legal_actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        while lines.len() < steps && !legal.is_empty() {
            let pick = legal.swap_remove(picker.below(legal.len()));
            let notation = pick["notation"].as_str().expect("a notation").to_owned();
            let mut tried = lines.clone();
            tried.push(notation.clone());
            let preview = preview(app, game, who, &tried).await;
            let last = lines.len() + 1 == steps;
            if preview["stopped"].is_null() || (last && preview["applied"] == json!(steps)) {
                lines.push(notation);
                legal = preview["legal_actions"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
        }
        if lines.len() == steps {
            return Some(lines);
        }
    }
    None
}

/// The latest mail to `who` that asks for a decision.
async fn turn_mail(smtp: &SmtpServer, who: &Player) -> Received {
    wait_for_mail_where(smtp, who, 0, |m| {
        reply_address(m).is_some() && text_of(m).contains("== Your choices ==")
    })
    .await;
    // The newest one.
    for _ in 0..400 {
        if let Some(m) = mail_to(smtp, who)
            .into_iter()
            .rev()
            .find(|m| reply_address(m).is_some() && text_of(m).contains("== Your choices =="))
        {
            return m;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("no turn mail for {}", who.email);
}

/// Sends `lines` as one reply to `mail` and returns the answer mail's text (its subject first).
async fn reply_lines(
    app: &TestApp,
    smtp: &SmtpServer,
    who: &Player,
    mail: &Received,
    lines: &[String],
) -> String {
    let seen = mail_to(smtp, who).len();
    let to = reply_address(mail).expect("a reply address");
    let (_, raw) = reply_message(&who.email, &to, mail, &lines.join("\r\n"), "");
    send_smtp(app, Some(&who.email), &to, &raw).await;
    let answer = wait_for_mail_where(smtp, who, seen, |m| {
        m.subject().contains("Played") || m.subject().contains("Refused")
    })
    .await;
    format!("{}\n{}", answer.subject(), text_of(&answer))
}

/// The notations of `seat`'s own actions logged after `after`.
async fn own_notations(
    app: &TestApp,
    game: Uuid,
    who: &Player,
    seat: usize,
    after: i64,
) -> Vec<String> {
    entries(app, game, who, after)
        .await
        .into_iter()
        .filter(|e| e["kind"] == "action" && e["actor"]["seat"] == json!(seat))
        .map(|e| e["notation"].as_str().unwrap_or_default().to_owned())
        .collect()
}

async fn wiz_war_by_mail() -> (SmtpServer, TestApp, Uuid, Vec<Player>) {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob"]).await;
    let game = app.start_game("wiz-war", &players, json!({})).await;
    (smtp, app, game, players)
}

/// "A reply may hold several lines, each a choice … applied in order as one submission."
/// A wiz-war turn of three steps sent as three notation lines is played whole, in one
/// submission, each line logged with its notation; the answer says so.
#[tokio::test]
async fn a_turn_of_notation_lines_in_one_reply_is_played_whole() {
    let (smtp, app, game, players) = wiz_war_by_mail().await;
    let (seat, who) = to_act(&app, game, &players).await;
    let lines = plan_run(&app, game, who, 3, 1)
        .await
        .expect("a turn of three steps");
    let before = state(&app, game, who).await["version"].as_i64().unwrap();
    let mail = turn_mail(&smtp, who).await;
    let answer = reply_lines(&app, &smtp, who, &mail, &lines).await;
    assert!(answer.contains("Played 3 choices"), "{answer}");
    for line in &lines {
        assert!(answer.contains(&format!("[{line}]")), "{line} in {answer}");
    }
    assert_eq!(own_notations(&app, game, who, seat, before).await, lines);
}

/// "The first line that is not a legal choice at that point stops it, nothing after it is
/// played, and the answer says what was played, which line stopped and why."
#[tokio::test]
async fn a_reply_whose_third_line_is_not_a_choice_plays_two_and_says_why() {
    let (smtp, app, game, players) = wiz_war_by_mail().await;
    let (seat, who) = to_act(&app, game, &players).await;
    let mut lines = plan_run(&app, game, who, 2, 2)
        .await
        .expect("a turn of two steps");
    lines.push("dance a jig".into());
    lines.push("end-turn".into());
    let before = state(&app, game, who).await["version"].as_i64().unwrap();
    let mail = turn_mail(&smtp, who).await;
    let answer = reply_lines(&app, &smtp, who, &mail, &lines).await;
    assert!(answer.contains("Played 2 choices"), "{answer}");
    assert!(
        answer.contains("Line 3 (\"dance a jig\") was not played")
            && answer.contains("Nothing after it was played either"),
        "{answer}"
    );
    assert_eq!(
        own_notations(&app, game, who, seat, before).await,
        lines[..2]
    );
}

/// "Lines that follow a chance step or another player's decision are not played (the player
/// could not have seen its result) and the answer says so."
#[tokio::test]
async fn lines_after_a_draw_are_not_played() {
    let (smtp, app, game, players) = wiz_war_by_mail().await;
    let (seat, who) = to_act(&app, game, &players).await;
    // A choice after which chance follows (a card drawn), found with the preview.
    let st = state(&app, game, who).await;
    let before = st["version"].as_i64().unwrap();
    let mut lines = vec![];
    let mut legal = st["legal_actions"].as_array().cloned().unwrap_or_default();
    let mut prefix: Vec<String> = vec![];
    'search: for _ in 0..30 {
        for a in &legal {
            let n = a["notation"].as_str().unwrap().to_owned();
            let mut tried = prefix.clone();
            tried.push(n.clone());
            let preview = preview(&app, game, who, &tried).await;
            if preview["stopped"] == "chance" {
                prefix.push(n);
                lines = prefix.clone();
                break 'search;
            }
        }
        // None of these leads to chance at once: take the last (the ending step, as a rule)
        // and look again from there.
        let step = legal.last().expect("a choice")["notation"]
            .as_str()
            .unwrap()
            .to_owned();
        prefix.push(step);
        let preview = preview(&app, game, who, &prefix).await;
        if !preview["stopped"].is_null() {
            break;
        }
        legal = preview["legal_actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
    }
    assert!(!lines.is_empty(), "no choice of this turn leads to a draw");
    let played = lines.len();
    lines.push("end-turn".into());
    let mail = turn_mail(&smtp, who).await;
    let answer = reply_lines(&app, &smtp, who, &mail, &lines).await;
    assert!(
        answer.contains(&format!("Line {} was not played", played + 1))
            && answer.contains("a roll or a draw"),
        "{answer}"
    );
    assert_eq!(
        own_notations(&app, game, who, seat, before).await,
        lines[..played]
    );
}

/// The API lists a notation with each legal action and takes `{"notation": …}` wherever it
/// takes an action, forgiving case and spacing; an unknown one is refused with the closest.
#[tokio::test]
async fn the_api_takes_a_notation_for_an_action() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let players = vec![app.register("ann").await, app.register("bob").await];
    let game = app.start_game("garden-gnomes", &players, json!({})).await;
    let mut picker = Picker::new(3);
    let (seat, who) = to_act(&app, game, &players).await;
    let st = state(&app, game, who).await;
    let legal = st["legal_actions"].as_array().cloned().unwrap_or_default();
    let notations: Vec<&str> = legal
        .iter()
        .map(|a| a["notation"].as_str().expect("a notation"))
        .collect();
    let mut unique = notations.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), notations.len(), "{notations:?}");
    let pick = &legal[picker.below(legal.len())];
    let shouted = pick["notation"]
        .as_str()
        .unwrap()
        .to_uppercase()
        .replace(' ', "   ");
    let refused = app
        .post(
            &format!("/v1/games/{game}/actions"),
            who,
            &json!({"actions": [{"notation": format!("{shouted}x")}]}),
        )
        .await
        .expect_problem(422, "illegal-action");
    assert!(
        refused["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("closest"),
        "{refused}"
    );
    let done = app
        .post(
            &format!("/v1/games/{game}/actions"),
            who,
            &json!({"actions": [{"notation": shouted}]}),
        )
        .await
        .expect(200);
    let mine: Vec<&Value> = done["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["actor"]["seat"] == json!(seat) && e["kind"] == "action")
        .collect();
    assert_eq!(mine.len(), 1, "{done}");
    assert_eq!(mine[0]["action"], pick["action"]);
    assert_eq!(mine[0]["notation"], pick["notation"]);
}

/// "The preview is an API operation too: the caller's view and choices after the given
/// actions; it stops, without revealing anything, at a chance step or another seat's
/// decision." Nothing is written.
#[tokio::test]
async fn a_preview_shows_the_turn_ahead_and_writes_nothing() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let players = vec![app.register("ann").await, app.register("bob").await];
    let game = app.start_game("wiz-war", &players, json!({})).await;
    let (_, who) = to_act(&app, game, &players).await;
    let other = players.iter().find(|p| p.id != who.id).unwrap();
    let before = state(&app, game, who).await;
    let lines = plan_run(&app, game, who, 2, 4).await.expect("two steps");
    let tried: Vec<Value> = lines.iter().map(|n| json!({"notation": n})).collect();
    let preview = preview(&app, game, who, &lines).await;
    assert_eq!(preview["applied"], 2, "{preview}");
    assert_eq!(preview["version"], before["version"]);
    // Either the caller decides next (and has choices), or the preview says why it stopped
    // (and shows none).
    let choices = preview["legal_actions"].as_array().unwrap().len();
    assert_eq!(preview["stopped"].is_null(), choices > 0, "{preview}");
    let after = state(&app, game, who).await;
    assert_eq!(
        after["version"], before["version"],
        "a preview writes nothing"
    );
    // Only the seat to act may preview; an illegal action is the submission's 422.
    app.post(
        &format!("/v1/games/{game}/actions/preview"),
        other,
        &json!({"actions": tried}),
    )
    .await
    .expect_problem(403, "not-your-decision");
    app.post(
        &format!("/v1/games/{game}/actions/preview"),
        who,
        &json!({"actions": [{"notation": "teleport home"}]}),
    )
    .await
    .expect_problem(422, "illegal-action");
}

/// Standing orders are the seat's own: listed with what the ruleset offers, set and cleared by
/// their player, refused when unknown, never shown to another player.
#[tokio::test]
async fn standing_orders_are_private_and_checked() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let players = vec![app.register("ann").await, app.register("bob").await];
    let game = app.start_game("wiz-war", &players, json!({})).await;
    let path = format!("/v1/games/{game}/orders");
    let mine = app.get(&path, &players[0]).await.expect(200);
    assert_eq!(mine["orders"], json!([]));
    let offered: Vec<String> = mine["available"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        offered.contains(&"play-lone-choices".to_owned()),
        "{offered:?}"
    );
    let set = app
        .request(
            Method::PUT,
            &path,
            Some(&players[0].token),
            Some(&json!({"orders": ["PLAY-LONE-CHOICES"]})),
            &[],
        )
        .await
        .expect(200);
    assert_eq!(set["orders"], json!(["play-lone-choices"]));
    // Bob sees his own (none), never Ann's.
    let bobs = app.get(&path, &players[1]).await.expect(200);
    assert_eq!(bobs["orders"], json!([]));
    let stranger = app.register("cat").await;
    app.get(&path, &stranger)
        .await
        .expect_problem(403, "not-a-player");
    app.request(
        Method::PUT,
        &path,
        Some(&players[0].token),
        Some(&json!({"orders": ["win-at-once"]})),
        &[],
    )
    .await
    .expect_problem(422, "invalid-request");
    let cleared = app
        .request(
            Method::PUT,
            &path,
            Some(&players[0].token),
            Some(&json!({"orders": []})),
            &[],
        )
        .await
        .expect(200);
    assert_eq!(cleared["orders"], json!([]));
}

/// "When a seat's only legal action is one choice and answering it reveals nothing … the
/// service plays it at once (logged as kind `forced`) and no mail asks for it." Over random
/// garden-gnomes play (whose lone choices tell nothing: docs/rules/garden-gnomes.md), no seat
/// to act ever has only one choice, and the lone choices met were logged as `forced`.
#[tokio::test]
async fn no_seat_is_asked_a_lone_choice_the_service_may_play() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let players = vec![
        app.register("ann").await,
        app.register("bob").await,
        app.register("cat").await,
    ];
    let game = app.start_game("garden-gnomes", &players, json!({})).await;
    let mut picker = Picker::new(9);
    for _ in 0..400 {
        let record = app
            .get(&format!("/v1/games/{game}"), &players[0])
            .await
            .expect(200);
        if record["status"] != "active" {
            break;
        }
        let seat = record["to_act"][0].as_u64().unwrap() as usize;
        let st = state(&app, game, &players[seat]).await;
        let legal = st["legal_actions"].as_array().cloned().unwrap_or_default();
        assert!(
            legal.len() > 1,
            "seat {seat} is asked a lone choice: {legal:?}"
        );
        let pick = &legal[picker.below(legal.len())];
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({"actions": [pick["action"]]}),
        )
        .await
        .expect(200);
    }
    let log = entries(&app, game, &players[0], 0).await;
    assert!(
        log.iter().any(|e| e["kind"] == "forced"),
        "no lone choice was met in the game played"
    );
}

/// Sends `text` as a reply to `mail` and returns the answer whose subject has `subject`.
async fn reply_for(
    app: &TestApp,
    smtp: &SmtpServer,
    who: &Player,
    mail: &Received,
    text: &str,
    subject: &str,
) -> String {
    let seen = mail_to(smtp, who).len();
    let to = reply_address(mail).expect("a reply address");
    let (_, raw) = reply_message(&who.email, &to, mail, text, "");
    send_smtp(app, Some(&who.email), &to, &raw).await;
    let answer = wait_for_mail_where(smtp, who, seen, |m| m.subject().contains(subject)).await;
    format!("{}\n{}", answer.subject(), text_of(&answer))
}

/// Bag-of-fate's parameterized standing order (issue 36; docs/rules/bag-of-fate.md, "Standing
/// orders"): `ORDERS characters hunter farmer` by mail over real SMTP chooses the character the
/// seat faces now and, in the next round, the next one, without a mail or a choice of
/// character put to the player; each is logged as the player's own action. An unknown name is
/// refused with the characters named; the other player sees neither the order nor its list.
#[tokio::test]
async fn a_characters_order_by_mail_chooses_the_next_character_unasked() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob"]).await;
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, who) = to_act(&app, game, &players).await;
    let other = &players[1 - seat];
    let mail = turn_mail(&smtp, who).await;
    assert!(text_of(&mail).contains("choose "), "{}", text_of(&mail));

    let refused = reply_for(
        &app,
        &smtp,
        who,
        &mail,
        "ORDERS characters hunter thief",
        "Refused",
    )
    .await;
    assert!(
        refused.contains("\"thief\"") && refused.contains("queen, oracle, trader"),
        "{refused}"
    );
    let set = reply_for(
        &app,
        &smtp,
        who,
        &mail,
        "ORDERS Characters Hunter, farmer",
        "Standing orders set",
    )
    .await;
    assert!(set.contains("characters hunter farmer"), "{set}");
    let asked_before = mail_to(&smtp, who).len();

    // The order chose at once, as the player's own action.
    let chosen = |log: &[Value]| -> Vec<String> {
        log.iter()
            .filter(|e| e["actor"]["seat"] == json!(seat))
            .filter_map(|e| e["notation"].as_str())
            .filter(|n| n.starts_with("choose "))
            .map(str::to_owned)
            .collect()
    };
    let log = entries(&app, game, who, 0).await;
    assert_eq!(chosen(&log), vec!["choose hunter"], "{log:?}");
    assert!(
        log.iter()
            .filter(|e| e["notation"] == "choose hunter")
            .all(|e| e["kind"] == "action"),
        "{log:?}"
    );

    // Nobody else sees the order: not in the other player's orders, view or log.
    let theirs = app
        .get(&format!("/v1/games/{game}/orders"), other)
        .await
        .expect(200);
    assert_eq!(theirs["orders"], json!([]));
    let mine = app
        .get(&format!("/v1/games/{game}/orders"), who)
        .await
        .expect(200);
    assert_eq!(mine["orders"], json!(["characters hunter farmer"]));
    let described = mine["available"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == "characters")
        .cloned()
        .unwrap_or_default();
    assert!(described["argument"].is_string(), "{mine}");
    let seen_by_other = format!(
        "{}{:?}",
        state(&app, game, other).await,
        entries(&app, game, other, 0).await
    );
    assert!(!seen_by_other.contains("hunter farmer"), "{seen_by_other}");

    // Play on by the API until the seat's next character is chosen: the seat is never offered
    // a character to choose.
    let mut picker = Picker::new(36);
    for _ in 0..400 {
        if chosen(&entries(&app, game, who, 0).await).len() >= 2 {
            break;
        }
        let record = app.get(&format!("/v1/games/{game}"), who).await.expect(200);
        if record["status"] != "active" {
            break;
        }
        let acting = record["to_act"][0].as_u64().unwrap() as usize;
        let st = state(&app, game, &players[acting]).await;
        let legal = st["legal_actions"].as_array().cloned().unwrap_or_default();
        if acting == seat {
            assert!(
                legal
                    .iter()
                    .all(|a| !a["notation"].as_str().unwrap_or("").starts_with("choose ")),
                "the seat with the order is asked to choose a character: {legal:?}"
            );
        }
        // Not a step taken back (a set or trade cancelled), which could go round in circles.
        let onward: Vec<&Value> = legal
            .iter()
            .filter(|a| !a["notation"].as_str().unwrap_or("").starts_with("cancel-"))
            .collect();
        let pick = onward[picker.below(onward.len())];
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[acting],
            &json!({"actions": [pick["action"]]}),
        )
        .await
        .expect(200);
    }
    let choices = chosen(&entries(&app, game, who, 0).await);
    assert!(
        choices.len() >= 2
            && choices
                .iter()
                .all(|c| c == "choose hunter" || c == "choose farmer"),
        "{choices:?}"
    );
    // No mail since the order asked the seat to choose a character.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    for m in mail_to(&smtp, who).into_iter().skip(asked_before) {
        let text = text_of(&m);
        assert!(!text.contains("[choose "), "{text}");
    }
}

/// The game page's orders form offers the `characters` order as a text field: filled in and
/// saved, it is the seat's order, shown back in the field; a bad name changes nothing; the
/// other player's page shows an empty field, never the list.
#[tokio::test]
async fn the_game_page_sets_a_characters_order_from_its_text_field() {
    use crate::system_tests::web::{form, form_token, plain_client, session_of};
    use reqwest::header::{CONTENT_TYPE, COOKIE};

    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob"]).await;
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    // The seat that does not choose now, so that the order is kept, not played at once.
    let (seat, _) = to_act(&app, game, &players).await;
    let (who, other) = (&players[1 - seat], &players[seat]);
    let page_of = async |p: &Player| -> String {
        let session = session_of(&app, p, game).await;
        plain_client()
            .get(format!("{}/games/{game}", app.base))
            .header(COOKIE, format!("turnpost_session={session}"))
            .send()
            .await
            .expect("get")
            .text()
            .await
            .expect("body")
    };
    let page = page_of(who).await;
    assert!(
        page.contains("name=\"arg:characters\" value=\"\""),
        "{page}"
    );
    let session = session_of(&app, who, game).await;
    let (seed, token) = form_token(&app, &session, game).await;
    let save = async |fields: &[(&str, &str)]| -> u16 {
        let mut all = vec![("csrf", token.as_str())];
        all.extend_from_slice(fields);
        plain_client()
            .post(format!("{}/games/{game}/orders", app.base))
            .header(
                COOKIE,
                format!("turnpost_session={session}; turnpost_csrf={seed}"),
            )
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form(&all))
            .send()
            .await
            .expect("post")
            .status()
            .as_u16()
    };
    assert_eq!(
        save(&[
            ("order", "play-lone-choices"),
            ("arg:characters", "Hunter, farmer")
        ])
        .await,
        303
    );
    let orders_of = async |p: &Player| -> Value {
        app.get(&format!("/v1/games/{game}/orders"), p)
            .await
            .expect(200)["orders"]
            .clone()
    };
    assert_eq!(
        orders_of(who).await,
        json!(["play-lone-choices", "characters hunter farmer"])
    );
    let page = page_of(who).await;
    assert!(
        page.contains("name=\"arg:characters\" value=\"hunter farmer\""),
        "{page}"
    );
    // A name that is no character: refused, nothing changed.
    assert!(save(&[("arg:characters", "hunter thief")]).await >= 400);
    assert_eq!(
        orders_of(who).await,
        json!(["play-lone-choices", "characters hunter farmer"])
    );
    let theirs = page_of(other).await;
    assert!(
        theirs.contains("name=\"arg:characters\" value=\"\"") && !theirs.contains("hunter farmer"),
        "{theirs}"
    );
    assert_eq!(orders_of(other).await, json!([]));
}
