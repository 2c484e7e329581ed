//! Who really sent a reply (docs/SECURITY.md, "What authorises a reply by mail"). The `From:`
//! header is only what the sender wrote; a reply plays only if the message also shows it came
//! from that address:
//!
//! - its `From:` names exactly one address;
//! - the configured relay's `Authentication-Results` (`TURNPOST_INBOUND_RELAY_ID`, trusted only
//!   on mail that came from the relay: over SMTP from `TURNPOST_INBOUND_RELAY_ADDRS`, or over
//!   HTTP with the inbound secret) say `dmarc=pass` for the `From:` domain: genuine; `dmarc=fail`:
//!   refused; no DMARC verdict: the checks below;
//! - otherwise the envelope sender (SMTP `MAIL FROM`, or the relay's `Return-Path` over HTTP)
//!   is the `From:` address, and every message that carries a DKIM signature has one that
//!   verifies (`mail-auth`; the signer's key is looked up in DNS, unless the settings name it:
//!   `inbound.dkim_keys`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, OnceLock};

use mail_auth::common::parse::TxtRecordParser;
use mail_auth::common::verify::DomainKey;
use mail_auth::{
    AuthenticatedMessage, DkimResult, MessageAuthenticator, Parameters, ResolverCache, Txt,
};
use mail_parser::{Address, Message};

/// Which relay's verdicts are trusted (`InboundConfig`).
#[derive(Clone, Debug, Default)]
pub struct RelayTrust {
    /// The relay's authserv-id: the first word of the `Authentication-Results` it adds.
    pub id: Option<String>,
    /// The addresses the relay connects to the SMTP listener from.
    pub addrs: Vec<IpAddr>,
    /// DKIM keys known without DNS.
    pub keys: KnownKeys,
}

/// DKIM key records known without a DNS lookup, by name (`<selector>._domainkey.<domain>`):
/// the setting `inbound.dkim_keys` (a closed network, or tests). Every other key is looked up
/// in DNS. Given to `mail-auth` as its TXT cache, which is never written to.
#[derive(Clone, Default)]
pub struct KnownKeys(Arc<HashMap<Box<str>, Txt>>);

impl KnownKeys {
    /// The records of `keys` (name, TXT record text); an error names a record that does not
    /// parse as a DKIM key.
    pub fn new(keys: &[(String, String)]) -> anyhow::Result<KnownKeys> {
        let mut map = HashMap::new();
        for (name, record) in keys {
            let key = DomainKey::parse(record.as_bytes()).map_err(|e| {
                anyhow::anyhow!("the DKIM key record of {name} does not parse: {e}")
            })?;
            map.insert(fqdn(name), Txt::from(key));
        }
        Ok(KnownKeys(Arc::new(map)))
    }
}

/// `name` as `mail-auth` looks it up: lower case, with the final dot.
fn fqdn(name: &str) -> Box<str> {
    let name = name.trim().to_lowercase();
    if name.ends_with('.') {
        name.into()
    } else {
        format!("{name}.").into()
    }
}

impl std::fmt::Debug for KnownKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl ResolverCache<Box<str>, Txt> for KnownKeys {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        self.0.get(name).cloned()
    }

    fn remove<Q>(&self, _: &Q) -> Option<Txt>
    where
        Box<str>: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        None
    }

    /// Looked-up keys are not kept: DNS has the last word on them.
    fn insert(&self, _: Box<str>, _: Txt, _: std::time::Instant) {}
}

/// How a message arrived.
#[derive(Clone, Copy, Debug)]
pub enum Arrival<'a> {
    /// By SMTP: the reverse path (`MAIL FROM`) and the client's address.
    Smtp { from: &'a str, peer: Option<IpAddr> },
    /// Over HTTP, from a relay that holds the inbound secret.
    Http,
}

/// Why a reply whose `From:` is the player's is not shown to be theirs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Doubt {
    /// `From:` names several addresses (or is given twice).
    SeveralFrom,
    /// The envelope sender is another address.
    Envelope(String),
    /// A DKIM signature is present and none verifies.
    Dkim,
    /// The relay's DMARC check failed.
    RelayDmarc,
}

impl Doubt {
    /// The sentence of the refusal mail.
    pub fn explain(&self) -> String {
        let why = match self {
            Doubt::SeveralFrom => "its From: line named more than one address".to_owned(),
            Doubt::Envelope(sender) if sender.is_empty() => {
                "it was sent without an envelope sender".to_owned()
            }
            Doubt::Envelope(sender) => format!("it was sent by {sender} (the envelope sender)"),
            Doubt::Dkim => {
                "its DKIM signature (the seal your mail provider puts on your mail) did not \
                 verify"
                    .to_owned()
            }
            Doubt::RelayDmarc => {
                "our mail server found that it did not come from your mail provider (DMARC)"
                    .to_owned()
            }
        };
        format!(
            "A reply to your game mail carried your address, but {why}, so nothing was done. \
             If that was you, answer again straight from your own mailbox."
        )
    }
}

/// The single address of `From:`, or `Err(SeveralFrom)` when it names more than one (or none).
pub fn single_from(msg: &Message<'_>) -> Result<String, Doubt> {
    let headers = msg
        .headers()
        .iter()
        .filter(|h| h.name.as_str().eq_ignore_ascii_case("From"))
        .count();
    let addresses: Vec<&str> = match msg.from() {
        Some(Address::List(list)) => list.iter().filter_map(|a| a.address()).collect(),
        Some(Address::Group(groups)) => groups
            .iter()
            .flat_map(|g| g.addresses.iter())
            .filter_map(|a| a.address())
            .collect(),
        None => vec![],
    };
    match addresses.as_slice() {
        [one] if headers <= 1 => Ok((*one).to_owned()),
        [] if headers <= 1 => Ok(String::new()),
        _ => Err(Doubt::SeveralFrom),
    }
}

fn domain_of(address: &str) -> &str {
    address.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
}

/// What the trusted relay's topmost `Authentication-Results` says of DMARC for `from_domain`:
/// `Some(true)` pass, `Some(false)` fail, `None` no verdict (or not from the relay).
pub fn relay_dmarc(
    msg: &Message<'_>,
    trust: &RelayTrust,
    arrival: Arrival<'_>,
    from_domain: &str,
) -> Option<bool> {
    let id = trust.id.as_deref()?;
    let from_relay = match arrival {
        Arrival::Http => true,
        Arrival::Smtp { peer, .. } => peer.is_some_and(|p| trust.addrs.contains(&p)),
    };
    if !from_relay {
        return None;
    }
    // The relay adds its header on top and deletes any that claim its id (RFC 8601 §5), so
    // the first one with its id is its own.
    let results = msg
        .headers()
        .iter()
        .filter(|h| {
            h.name
                .as_str()
                .eq_ignore_ascii_case("Authentication-Results")
        })
        .filter_map(|h| {
            msg.raw_message()
                .get(h.offset_start as usize..h.offset_end as usize)
        })
        .map(|raw| String::from_utf8_lossy(raw).into_owned())
        .find(|value| authserv_id(value).eq_ignore_ascii_case(id))?;
    dmarc_in(&results, from_domain)
}

/// `text` without RFC 5322 comments (`(…)`, nested).
fn without_comments(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .filter(|&c| match c {
            '(' => {
                depth += 1;
                false
            }
            ')' => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0,
        })
        .collect()
}

/// The authserv-id of an `Authentication-Results` value.
fn authserv_id(value: &str) -> String {
    let value = without_comments(value);
    value
        .split(';')
        .next()
        .and_then(|head| head.split_whitespace().next())
        .unwrap_or("")
        .to_owned()
}

/// The `dmarc=` result of an `Authentication-Results` value for `from_domain`.
fn dmarc_in(value: &str, from_domain: &str) -> Option<bool> {
    let value = without_comments(value);
    value.split(';').skip(1).find_map(|resinfo| {
        let mut words = resinfo.split_whitespace();
        let (method, result) = words.next()?.split_once('=')?;
        if !method.eq_ignore_ascii_case("dmarc") {
            return None;
        }
        let about = words.find_map(|w| {
            let (k, v) = w.split_once('=')?;
            k.eq_ignore_ascii_case("header.from")
                .then(|| v.trim_matches('"'))
        });
        if about.is_some_and(|d| !d.eq_ignore_ascii_case(from_domain)) {
            return Some(false);
        }
        Some(result.eq_ignore_ascii_case("pass"))
    })
}

/// The envelope sender: SMTP's `MAIL FROM`, or over HTTP the relay's `Return-Path` if any.
fn envelope_sender(msg: &Message<'_>, arrival: Arrival<'_>) -> Option<String> {
    match arrival {
        Arrival::Smtp { from, .. } => Some(from.trim().to_owned()),
        Arrival::Http => msg.header_raw("Return-Path").map(|r| {
            let r = r.trim();
            match (r.find('<'), r.rfind('>')) {
                (Some(a), Some(b)) if a < b => r[a + 1..b].trim().to_owned(),
                _ => r.to_owned(),
            }
        }),
    }
}

fn authenticator() -> Option<&'static MessageAuthenticator> {
    static AUTHENTICATOR: OnceLock<Option<MessageAuthenticator>> = OnceLock::new();
    AUTHENTICATOR
        .get_or_init(|| match MessageAuthenticator::new_system_conf() {
            Ok(a) => Some(a),
            Err(e) => {
                tracing::error!(error = %e, "no DNS resolver for DKIM: signed replies are refused");
                None
            }
        })
        .as_ref()
}

/// Whether a message with DKIM signatures has one that verifies; `None` when it has none.
async fn dkim_verifies(raw: &[u8], keys: &KnownKeys) -> Option<bool> {
    let signed = raw_headers(raw).any(|name| name.eq_ignore_ascii_case("DKIM-Signature"));
    if !signed {
        return None;
    }
    let Some(message) = AuthenticatedMessage::parse(raw) else {
        return Some(false);
    };
    let Some(authenticator) = authenticator() else {
        return Some(false);
    };
    let results = authenticator
        .verify_dkim(Parameters::new(&message).with_txt_cache(keys))
        .await;
    Some(results.iter().any(|r| r.result() == &DkimResult::Pass))
}

/// The names of the header fields of `raw`.
fn raw_headers(raw: &[u8]) -> impl Iterator<Item = String> + '_ {
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"))
        .unwrap_or(raw.len());
    raw[..head_end]
        .split(|&b| b == b'\n')
        .filter(|line| !line.first().is_some_and(|b| b.is_ascii_whitespace()))
        .filter_map(|line| {
            let colon = line.iter().position(|&b| b == b':')?;
            Some(String::from_utf8_lossy(&line[..colon]).trim().to_owned())
        })
}

/// What a reply shows of its sender, for a seat or invitation whose address is `expected`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// From `expected`, and shown to be.
    Genuine,
    /// From another address (as written in `From:`, perhaps empty).
    Other(String),
    /// `From:` says `expected` (or names several addresses), but the message does not show it.
    Doubtful(Doubt),
}

/// Judges the sender of `msg` (`raw` as received) against `expected`.
pub async fn judge(
    msg: &Message<'_>,
    raw: &[u8],
    expected: impl Fn(&str) -> bool,
    trust: &RelayTrust,
    arrival: Arrival<'_>,
) -> Judged {
    let from = match single_from(msg) {
        Ok(from) => from,
        Err(doubt) => return Judged::Doubtful(doubt),
    };
    if !expected(&from) {
        return Judged::Other(from);
    }
    match check(msg, raw, &from, trust, arrival).await {
        Ok(()) => Judged::Genuine,
        Err(doubt) => Judged::Doubtful(doubt),
    }
}

/// Whether the message shows it came from `from` (the single `From:` address, already found
/// to be the player's): `Ok(())`, or why not.
pub async fn check(
    msg: &Message<'_>,
    raw: &[u8],
    from: &str,
    trust: &RelayTrust,
    arrival: Arrival<'_>,
) -> Result<(), Doubt> {
    match relay_dmarc(msg, trust, arrival, domain_of(from)) {
        Some(true) => return Ok(()),
        Some(false) => return Err(Doubt::RelayDmarc),
        None => {}
    }
    if let Some(sender) = envelope_sender(msg, arrival)
        && !sender.eq_ignore_ascii_case(from)
    {
        return Err(Doubt::Envelope(sender));
    }
    match dkim_verifies(raw, &trust.keys).await {
        Some(false) => Err(Doubt::Dkim),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::MessageParser;

    fn parse(raw: &str) -> Message<'_> {
        MessageParser::default().parse(raw.as_bytes()).unwrap()
    }

    #[test]
    fn from_must_name_one_address() {
        let one = "From: Ann <ann@a.test>\r\nTo: x@y\r\n\r\n1\r\n";
        assert_eq!(single_from(&parse(one)), Ok("ann@a.test".into()));
        let two = "From: ann@a.test, eve@evil.test\r\nTo: x@y\r\n\r\n1\r\n";
        assert_eq!(single_from(&parse(two)), Err(Doubt::SeveralFrom));
        let twice = "From: ann@a.test\r\nFrom: eve@evil.test\r\nTo: x@y\r\n\r\n1\r\n";
        assert_eq!(single_from(&parse(twice)), Err(Doubt::SeveralFrom));
        let group = "From: us: ann@a.test, eve@evil.test;\r\nTo: x@y\r\n\r\n1\r\n";
        assert_eq!(single_from(&parse(group)), Err(Doubt::SeveralFrom));
    }

    fn relayed(results: &str) -> String {
        format!("{results}From: ann@a.test\r\nTo: x@y\r\n\r\n1\r\n")
    }

    #[test]
    fn only_the_configured_relay_is_believed() {
        let trust = RelayTrust {
            id: Some("mx.turnpost.test".into()),
            addrs: vec!["10.0.0.5".parse().unwrap()],
            ..RelayTrust::default()
        };
        let relay = Arrival::Smtp {
            from: "ann@a.test",
            peer: Some("10.0.0.5".parse().unwrap()),
        };
        let stranger = Arrival::Smtp {
            from: "ann@a.test",
            peer: Some("192.0.2.9".parse().unwrap()),
        };
        let pass = relayed(
            "Authentication-Results: mx.turnpost.test; spf=pass smtp.mailfrom=a.test;\r\n \
             dkim=pass header.d=a.test; dmarc=pass (p=reject) header.from=a.test\r\n",
        );
        let m = parse(&pass);
        assert_eq!(relay_dmarc(&m, &trust, relay, "a.test"), Some(true));
        assert_eq!(relay_dmarc(&m, &trust, Arrival::Http, "a.test"), Some(true));
        // The same header from anywhere else is what anyone can write.
        assert_eq!(relay_dmarc(&m, &trust, stranger, "a.test"), None);
        // Another server's verdict, or none configured: not believed.
        let other_raw = pass.replace("mx.turnpost.test", "mx.evil.test");
        let other = parse(&other_raw);
        assert_eq!(relay_dmarc(&other, &trust, relay, "a.test"), None);
        assert_eq!(
            relay_dmarc(&m, &RelayTrust::default(), relay, "a.test"),
            None
        );
        // A fail, or a pass for another domain, is a fail; no dmarc result is no verdict.
        let fail_raw =
            relayed("Authentication-Results: mx.turnpost.test; dmarc=fail header.from=a.test\r\n");
        let fail = parse(&fail_raw);
        assert_eq!(relay_dmarc(&fail, &trust, relay, "a.test"), Some(false));
        assert_eq!(relay_dmarc(&m, &trust, relay, "b.test"), Some(false));
        let none_raw =
            relayed("Authentication-Results: mx.turnpost.test; spf=pass smtp.mailfrom=a.test\r\n");
        let none = parse(&none_raw);
        assert_eq!(relay_dmarc(&none, &trust, relay, "a.test"), None);
        // The relay's own header is the topmost with its id.
        let stacked_raw = relayed(
            "Authentication-Results: mx.turnpost.test; dmarc=fail header.from=a.test\r\n\
             Authentication-Results: mx.turnpost.test; dmarc=pass header.from=a.test\r\n",
        );
        let stacked = parse(&stacked_raw);
        assert_eq!(relay_dmarc(&stacked, &trust, relay, "a.test"), Some(false));
    }

    #[test]
    fn header_names_are_read_from_the_head_only() {
        let raw = b"DKIM-Signature: v=1;\r\n b=abc\r\nFrom: a@b\r\n\r\nDKIM-Signature: no\r\n";
        let names: Vec<String> = raw_headers(raw).collect();
        assert_eq!(names, ["DKIM-Signature", "From"]);
    }
}
