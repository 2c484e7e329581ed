//! Mail templates (minijinja), embedded in the binary: `<kind>.txt` and `<kind>.html` per
//! kind of mail, with shared header and footer parts. HTML templates auto-escape.

use std::sync::OnceLock;

use minijinja::Environment;
use serde::Serialize;

const TEMPLATES: &[(&str, &str)] = &[
    ("_footer.txt", include_str!("templates/_footer.txt")),
    (
        "_layout_top.html",
        include_str!("templates/_layout_top.html"),
    ),
    (
        "_layout_bottom.html",
        include_str!("templates/_layout_bottom.html"),
    ),
    ("game.txt", include_str!("templates/game.txt")),
    ("game.html", include_str!("templates/game.html")),
    ("invitation.txt", include_str!("templates/invitation.txt")),
    ("invitation.html", include_str!("templates/invitation.html")),
    (
        "invitation_note.txt",
        include_str!("templates/invitation_note.txt"),
    ),
    (
        "invitation_note.html",
        include_str!("templates/invitation_note.html"),
    ),
    (
        "verify_email.txt",
        include_str!("templates/verify_email.txt"),
    ),
    (
        "verify_email.html",
        include_str!("templates/verify_email.html"),
    ),
    (
        "confirm_registration.txt",
        include_str!("templates/confirm_registration.txt"),
    ),
    (
        "confirm_registration.html",
        include_str!("templates/confirm_registration.html"),
    ),
    (
        "account_exists.txt",
        include_str!("templates/account_exists.txt"),
    ),
    (
        "account_exists.html",
        include_str!("templates/account_exists.html"),
    ),
    ("sign_in.txt", include_str!("templates/sign_in.txt")),
    ("sign_in.html", include_str!("templates/sign_in.html")),
];

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        // `{{ n|rjust(5) }}`: numbers of choices in a column.
        env.add_filter("rjust", |value: minijinja::Value, width: usize| {
            format!("{:>width$}", value.to_string())
        });
        for (name, source) in TEMPLATES {
            if let Err(e) = env.add_template(name, source) {
                // Templates are compiled into the binary; a broken one is caught by the tests.
                tracing::error!(template = name, error = %e, "bad mail template");
            }
        }
        env
    })
}

/// Renders the text and HTML parts of `kind` with `context`.
pub fn render(kind: &str, context: &impl Serialize) -> anyhow::Result<(String, String)> {
    let env = env();
    let ctx = minijinja::Value::from(minijinja::value::Serde(context));
    let text = env.get_template(&format!("{kind}.txt"))?.render(&ctx)?;
    let html = env.get_template(&format!("{kind}.html"))?.render(&ctx)?;
    Ok((text, html))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn every_template_renders_and_html_escapes() {
        let ctx = json!({
            "recipient": "<Ann & co>", "game_name": "Bag of Fate", "short_id": "abcd1234",
            "game_id": "id", "seat": 1, "view": "{\"x\": 1}", "actions": [{"n": 1, "description": "Choose <Queen>", "json": "{}"}],
            "first_action": "{}", "version": 7, "base_url": "http://h", "game_url": "http://h/g", "log_url": "http://h/l",
            "unsubscribe_url": "http://h/u", "players": [{"seat": 0, "name": "Ann"}], "seed_sha256": "ff",
            "your_turn": true, "summary": "Ann won", "winners": ["Ann"], "seed": "00", "inviter": "Bob",
            "token": "t", "join_url": "http://h/j", "expires_at": "soon", "verify_url": "http://h/v", "sign_in_url": "http://h/?signin=t",
            "subject": "s", "kind": "your_turn", "show": "status", "answer": null,
            "presented": {"headline": "<Ann & co> to play", "sections": [
                {"title": "Board", "lines": ["a <b>"], "diagram": true},
                {"title": "Players", "lines": ["<Ann & co>"]}]},
            "since": ["<Ann & co> moved"], "since_more": 2, "history": null,
            "choices": [{"title": "Cards", "choices": [{"number": 1, "label": "Play <Fire>"}]}],
            "reply": true, "waiting_for": [], "waiting": true, "finished": false,
            "commands": ["HELP", "STATUS"],
        });
        // The invitation's and its answers' own fields (json! alone would nest too deep).
        let extra = json!({
            "game": {"inviter": "<Ann & co>", "game_name": "Bag of Fate", "summary": "s",
                     "seats": 2, "seat": 2, "players": ["<Ann & co>"], "open_seats": 1,
                     "clock": "No clock", "options": ["<Ann & co>"]},
            "page_url": "http://h/invitation?token=t", "email": "b@x.test",
            "verdict": "<Ann & co> joined", "lines": ["<Ann & co>"], "link": "http://h/g",
            "link_text": "The game",
            "confirm_url": "http://h/confirm?token=t", "has_password": true,
        });
        let mut ctx = ctx;
        if let (Some(ctx), Some(extra)) = (ctx.as_object_mut(), extra.as_object()) {
            ctx.extend(extra.clone());
        }
        for kind in [
            "game",
            "invitation",
            "invitation_note",
            "verify_email",
            "sign_in",
            "confirm_registration",
            "account_exists",
        ] {
            let (text, html) = super::render(kind, &ctx).unwrap();
            assert!(text.contains("<Ann & co>"), "{kind}: text is not escaped");
            assert!(!html.contains("<Ann & co>"), "{kind}: html must escape");
            assert!(html.contains("</html>"));
        }
    }

    #[test]
    #[allow(clippy::unwrap_used)]
    fn table_talk_shows_the_message_and_who_wrote_it_with_or_without_a_table() {
        let base = json!({
            "recipient": "Bob", "game_name": "Bag of Fate", "short_id": "abcd1234",
            "base_url": "http://h", "game_url": "http://h/g", "log_url": "http://h/l",
            "unsubscribe_url": "http://h/u", "players": [], "seed_sha256": "ff",
            "subject": "s", "kind": "message", "show": "status", "answer": null,
            "since": [], "since_more": 0, "history": null, "choices": [], "reply": true,
            "waiting_for": [], "waiting": false, "finished": false, "commands": [],
            "presented": null,
            "talk": {"from": "<Ann>", "from_seat": 0, "private": true, "body": "Meet me <at> b2\nok?"},
        });
        let (text, html) = super::render("game", &base).unwrap();
        assert!(text.contains("<Ann> writes to you privately"), "{text}");
        assert!(text.contains("Meet me <at> b2\nok?"), "{text}");
        assert!(text.contains("answer <Ann> privately"), "{text}");
        assert!(!text.contains("== The table =="), "{text}");
        assert!(html.contains("Meet me &lt;at&gt; b2"), "{html}");
        let mut table = base.clone();
        table["talk"]["private"] = json!(false);
        table["presented"] = json!({"headline": "Ann to play", "sections": []});
        let (text, _) = super::render("game", &table).unwrap();
        assert!(text.contains("<Ann> writes to the table"), "{text}");
        assert!(text.contains("answer the whole table"), "{text}");
        assert!(text.contains("== The table ==\nAnn to play"), "{text}");
    }
}
