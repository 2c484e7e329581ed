//! Issue 43: a reply plays only if it shows who sent it, not just a `From:` line. Over real
//! SMTP into Turnpost's listener: an envelope sender that is not the `From:` address, a
//! `From:` with several addresses and a DKIM signature that does not verify are refused, play
//! nothing, and are answered at the player's verified address only; the configured relay's
//! DMARC verdict is believed from the relay and from nobody else; a genuine reply plays once.

use data_encoding::BASE64;
use mail_auth::common::crypto::Ed25519Key;
use mail_auth::common::headers::HeaderWriter;
use mail_auth::dkim::DkimSigner;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::{Player, TestApp, spawn_app_with};
use crate::system_tests::mailbox::{
    INBOUND_SECRET, choice_numbers, mail_to, reply_address, reply_message, send_smtp, settle,
    spawn_mail_app, text_of, verdict, verdicts, verified_players,
};
use crate::system_tests::smtp::{Received, SmtpServer};

const ATTACKER: &str = "attacker@evil.example";

struct Table {
    app: TestApp,
    smtp: SmtpServer,
    game: Uuid,
    players: Vec<Player>,
}

impl Table {
    async fn new(app: TestApp, smtp: SmtpServer) -> Table {
        let players = verified_players(&app, &["Ann", "Bob"]).await;
        let game = app.start_game("bag-of-fate", &players, json!({})).await;
        Table {
            app,
            smtp,
            game,
            players,
        }
    }

    async fn record(&self) -> Value {
        self.app
            .get(&format!("/v1/games/{}", self.game), &self.players[0])
            .await
            .expect(200)
    }

    async fn version(&self) -> i64 {
        self.record().await["version"].as_i64().unwrap()
    }

    /// The seat that must act and its latest mail with choices and a reply address.
    async fn turn(&self) -> (usize, Received) {
        let seat = self.record().await["to_act"][0].as_u64().unwrap() as usize;
        for _ in 0..800 {
            if let Some(m) = mail_to(&self.smtp, &self.players[seat])
                .into_iter()
                .rev()
                .find(|m| reply_address(m).is_some() && !choice_numbers(&text_of(m)).is_empty())
            {
                return (seat, m);
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!("no turn mail for seat {seat}");
    }

    /// Every message sent so far to anyone at `domain`.
    fn mail_to_domain(&self, domain: &str) -> usize {
        self.smtp
            .received()
            .iter()
            .filter(|m| m.to.iter().any(|a| a.ends_with(domain)))
            .count()
    }
}

/// `raw` with an Ed25519 DKIM signature of `domain` over its From, To and Subject.
fn dkim_signed(raw: &[u8], domain: &str) -> Vec<u8> {
    // RFC 8463's example key.
    let seed = BASE64
        .decode(b"nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=")
        .unwrap();
    let public = BASE64
        .decode(b"11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=")
        .unwrap();
    let key = Ed25519Key::from_seed_and_public_key(&seed, &public).unwrap();
    let signature = DkimSigner::from_key(key)
        .domain(domain)
        .selector("brisbane")
        .headers(["From", "To", "Subject"])
        .sign(raw)
        .unwrap();
    let mut out = signature.to_header().into_bytes();
    out.extend_from_slice(raw);
    out
}

#[tokio::test]
async fn a_reply_that_does_not_show_its_sender_plays_nothing_and_a_genuine_one_plays_once() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let t = Table::new(app, smtp).await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    let other = &t.players[1 - seat];
    let to = reply_address(&mail).unwrap();
    let version = t.version().await;
    settle(&t.app).await;
    let mine_before = mail_to(&t.smtp, me).len();
    let theirs_before = mail_to(&t.smtp, other).len();

    // 1. The envelope sender is the attacker; `From:` says the player.
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    send_smtp(&t.app, Some(ATTACKER), &to, &raw).await;
    assert_eq!(
        verdict(&t.app, &id).await.as_deref(),
        Some("unauthenticated")
    );

    // 2. `From:` names the player and the attacker (the envelope is the player's).
    let (id, raw) = reply_message(&format!("{}, {ATTACKER}", me.email), &to, &mail, "1", "");
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    assert_eq!(
        verdict(&t.app, &id).await.as_deref(),
        Some("unauthenticated")
    );

    // 3. A DKIM signature that does not verify: signed, then its body changed on the way.
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    let signed = String::from_utf8(dkim_signed(&raw, "example.com")).unwrap();
    let tampered = signed.replacen("\r\n\r\n1\r\n", "\r\n\r\n2\r\n", 1);
    assert_ne!(signed, tampered);
    send_smtp(&t.app, Some(&me.email), &to, tampered.as_bytes()).await;
    assert_eq!(
        verdict(&t.app, &id).await.as_deref(),
        Some("unauthenticated")
    );

    // Nothing was played; each refusal went to the player's verified address, none to the
    // attacker or the other player.
    assert_eq!(t.version().await, version);
    settle(&t.app).await;
    let mine = mail_to(&t.smtp, me);
    assert_eq!(mine.len(), mine_before + 3, "one refusal for each");
    for refusal in &mine[mine_before..] {
        assert!(
            refusal.subject().contains("not shown to be yours"),
            "{}",
            refusal.subject()
        );
    }
    let texts: Vec<String> = mine[mine_before..].iter().map(text_of).collect();
    assert!(texts.iter().any(|t| t.contains(ATTACKER)), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("more than one address")));
    assert!(texts.iter().any(|t| t.contains("DKIM")));
    assert_eq!(t.mail_to_domain("evil.example"), 0);
    assert_eq!(mail_to(&t.smtp, other).len(), theirs_before);

    // The genuine reply plays, once, though sent twice.
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("played"));
    assert_eq!(verdicts(&t.app, "played").await, 1);
    assert!(t.version().await > version);
}

#[tokio::test]
async fn the_relays_dmarc_verdict_counts_only_from_the_configured_relay() {
    let smtp = SmtpServer::start();
    let url = smtp.url();
    let app = spawn_app_with(move |s| {
        s.mail.smtp_url = Some(url);
        s.mail.from = "Turnpost <play@turnpost.test>".into();
        s.inbound.smtp_addr = Some("127.0.0.1:0".parse().unwrap());
        s.inbound.secret = Some(INBOUND_SECRET.into());
        s.inbound.relay_id = Some("mx.turnpost.test".into());
        s.inbound.relay_addrs = vec!["127.0.0.1".parse().unwrap()];
        s.mail.poll_ms = 20;
    })
    .await;
    let t = Table::new(app, smtp).await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    let to = reply_address(&mail).unwrap();
    let version = t.version().await;
    let domain = me.email.rsplit_once('@').unwrap().1.to_owned();
    let results = |id: &str, verdict: &str| {
        format!(
            "Authentication-Results: {id}; spf=pass smtp.mailfrom={domain};\r\n \
             dmarc={verdict} (p=reject) header.from={domain}\r\n"
        )
    };

    // The relay found DMARC failing: refused, whatever the envelope says.
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    let raw = [results("mx.turnpost.test", "fail").into_bytes(), raw].concat();
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    assert_eq!(
        verdict(&t.app, &id).await.as_deref(),
        Some("unauthenticated")
    );

    // A pass written by another server is not the relay's: the envelope still counts.
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    let raw = [results("mx.evil.example", "pass").into_bytes(), raw].concat();
    send_smtp(&t.app, Some(ATTACKER), &to, &raw).await;
    assert_eq!(
        verdict(&t.app, &id).await.as_deref(),
        Some("unauthenticated")
    );
    assert_eq!(t.version().await, version);

    // The relay's pass: played, though the relay rewrote the envelope sender (a forwarder's
    // SRS address).
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    let raw = [results("mx.turnpost.test", "pass").into_bytes(), raw].concat();
    send_smtp(&t.app, Some("SRS0=x=yy=a.test=ann@fwd.test"), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("played"));
    assert!(t.version().await > version);
    assert_eq!(t.mail_to_domain("evil.example"), 0);
}

#[tokio::test]
async fn a_relay_verdict_from_an_address_that_is_not_the_relay_is_not_believed() {
    let smtp = SmtpServer::start();
    let url = smtp.url();
    let app = spawn_app_with(move |s| {
        s.mail.smtp_url = Some(url);
        s.mail.from = "Turnpost <play@turnpost.test>".into();
        s.inbound.smtp_addr = Some("127.0.0.1:0".parse().unwrap());
        s.inbound.relay_id = Some("mx.turnpost.test".into());
        // The relay is elsewhere: the test's connections from loopback are not it.
        s.inbound.relay_addrs = vec!["192.0.2.25".parse().unwrap()];
        s.mail.poll_ms = 20;
    })
    .await;
    let t = Table::new(app, smtp).await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    let to = reply_address(&mail).unwrap();
    let version = t.version().await;
    let domain = me.email.rsplit_once('@').unwrap().1.to_owned();
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    let forged =
        format!("Authentication-Results: mx.turnpost.test; dmarc=pass header.from={domain}\r\n");
    let raw = [forged.into_bytes(), raw].concat();
    send_smtp(&t.app, Some(ATTACKER), &to, &raw).await;
    assert_eq!(
        verdict(&t.app, &id).await.as_deref(),
        Some("unauthenticated")
    );
    assert_eq!(t.version().await, version);
}

/// Issue 43: "no test shows a reply with a valid DKIM signature playing". The signer's key is
/// known to the server without DNS (`inbound.dkim_keys`: the TXT record a domain would
/// publish), so the signature is really checked: altered, it is refused; intact, it plays.
#[tokio::test]
async fn a_reply_with_a_valid_dkim_signature_plays() {
    let smtp = SmtpServer::start();
    let url = smtp.url();
    let app = spawn_app_with(move |s| {
        s.mail.smtp_url = Some(url);
        s.mail.from = "Turnpost <play@turnpost.test>".into();
        s.inbound.smtp_addr = Some("127.0.0.1:0".parse().unwrap());
        s.inbound.secret = Some(INBOUND_SECRET.into());
        s.mail.poll_ms = 20;
        // RFC 8463's example public key, published for the players' domain.
        s.inbound.dkim_keys = vec![(
            "brisbane._domainkey.example.test".into(),
            "v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=".into(),
        )];
    })
    .await;
    let t = Table::new(app, smtp).await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    assert!(me.email.ends_with("@example.test"), "{}", me.email);
    let to = reply_address(&mail).unwrap();
    let version = t.version().await;

    // Signed with the published key, then altered on the way: the signature fails.
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    let signed = String::from_utf8(dkim_signed(&raw, "example.test")).unwrap();
    let tampered = signed.replacen("\r\n\r\n1\r\n", "\r\n\r\n2\r\n", 1);
    assert_ne!(signed, tampered);
    send_smtp(&t.app, Some(&me.email), &to, tampered.as_bytes()).await;
    assert_eq!(
        verdict(&t.app, &id).await.as_deref(),
        Some("unauthenticated")
    );
    assert_eq!(t.version().await, version);

    // Signed and intact: it verifies with the published key, and plays.
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    let signed = dkim_signed(&raw, "example.test");
    assert!(String::from_utf8_lossy(&signed).starts_with("DKIM-Signature:"));
    send_smtp(&t.app, Some(&me.email), &to, &signed).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("played"));
    assert!(t.version().await > version);
}
