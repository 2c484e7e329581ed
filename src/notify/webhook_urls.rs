//! Where a webhook may point: `http` or `https`, no user name or password in the URL, and
//! never (unless `TURNPOST_WEBHOOK_ALLOW_PRIVATE`) a host that is the service's own or that
//! resolves to a loopback, private, link-local, unspecified or otherwise non-public address.
//! `service::webhooks` checks a URL when it is registered; the delivery worker (`webhooks`)
//! checks it again, and the addresses its name resolves to, at every delivery.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The longest URL.
pub const MAX_URL: usize = 2_000;

/// Checks the form of a hook's URL: `http` or `https`, a host, no user name or password, not
/// too long, and (unless `allow_private`) not an address literal that is not public, nor the
/// service's own host. The URL as it will be stored, or why it will not do.
pub fn check_url(
    url: &str,
    allow_private: bool,
    own_host: Option<&str>,
) -> std::result::Result<reqwest::Url, String> {
    let url = url.trim();
    if url.len() > MAX_URL {
        return Err(format!("the webhook URL is over {MAX_URL} characters"));
    }
    let parsed =
        reqwest::Url::parse(url).map_err(|e| format!("the webhook URL is not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("the webhook URL must be http or https".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(
            "the webhook URL must not carry a user name or password: check the signature instead"
                .into(),
        );
    }
    if parsed.fragment().is_some() {
        return Err("the webhook URL must not have a fragment (#...)".into());
    }
    let Some(host) = parsed.host_str().map(str::to_owned) else {
        return Err("the webhook URL has no host".into());
    };
    if allow_private {
        return Ok(parsed);
    }
    // The parser writes an address in its usual form (`http://2130706433/` is 127.0.0.1).
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let ip = bare.parse::<IpAddr>().ok();
    if ip.is_none() {
        let name = bare.trim_end_matches('.').to_ascii_lowercase();
        if name == "localhost" || name.ends_with(".localhost") {
            return Err("the webhook URL points at this machine (localhost)".into());
        }
        if own_host.is_some_and(|own| own.eq_ignore_ascii_case(&name)) {
            return Err("the webhook URL points at this service itself".into());
        }
    }
    if let Some(ip) = ip
        && let Some(why) = forbidden(ip)
    {
        return Err(format!("the webhook URL points at {why} address {ip}"));
    }
    Ok(parsed)
}

/// The addresses `url`'s host resolves to, or why a delivery may not go there: a name that
/// does not resolve, or (unless `allow_private`) one of whose addresses is not public.
pub async fn resolve(
    url: &reqwest::Url,
    allow_private: bool,
) -> std::result::Result<Vec<SocketAddr>, String> {
    let host = url.host_str().ok_or("has no host")?;
    let port = url.port_or_known_default().unwrap_or(443);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| format!("host {host:?} does not resolve ({e})"))?
        .collect();
    allowed(host, addrs, allow_private)
}

/// `addrs` if every one may be delivered to.
pub fn allowed(
    host: &str,
    addrs: Vec<SocketAddr>,
    allow_private: bool,
) -> std::result::Result<Vec<SocketAddr>, String> {
    if addrs.is_empty() {
        return Err(format!("host {host:?} has no address"));
    }
    if !allow_private
        && let Some((addr, why)) = addrs.iter().find_map(|a| Some((a, forbidden(a.ip())?)))
    {
        return Err(format!(
            "host {host:?} resolves to {why} address {}",
            addr.ip()
        ));
    }
    Ok(addrs)
}

/// What kind of non-public address `ip` is (loopback, private, link-local, unspecified,
/// shared, multicast, reserved, documentation), or `None` for a public one. IPv6 addresses that
/// carry an IPv4 one (mapped, compatible, NAT64, 6to4) are judged by it.
pub fn forbidden(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, _, _) => "an unspecified (\"this network\")",
        (127, _, _) => "a loopback",
        (10, _, _) | (192, 168, _) => "a private",
        (172, b, _) if (16..32).contains(&b) => "a private",
        (169, 254, _) => "a link-local",
        (100, b, _) if (64..128).contains(&b) => "a shared (carrier-grade NAT)",
        (192, 0, 0) => "an IETF protocol",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation",
        (198, 18 | 19, _) => "a benchmarking",
        (224..=239, _, _) => "a multicast",
        (240..=255, _, _) => "a reserved or broadcast",
        _ => return None,
    })
}

fn forbidden_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if ip.is_unspecified() {
        return Some("an unspecified");
    }
    if ip.is_loopback() {
        return Some("a loopback");
    }
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let s = ip.segments();
    match s[0] {
        0 if s[1..6] == [0; 5] => forbidden_v4(embedded_v4(s[6], s[7])).or(Some("a reserved")),
        0x0064 if s[1] == 0xff9b => forbidden_v4(embedded_v4(s[6], s[7])),
        0x2002 => forbidden_v4(embedded_v4(s[1], s[2])),
        0x2001 if s[1] == 0x0db8 => Some("a documentation"),
        x if x & 0xfe00 == 0xfc00 => Some("a private (unique local)"),
        x if x & 0xffc0 == 0xfe80 => Some("a link-local"),
        x if x & 0xffc0 == 0xfec0 => Some("a site-local"),
        x if x & 0xff00 == 0xff00 => Some("a multicast"),
        _ => None,
    }
}

fn embedded_v4(hi: u16, lo: u16) -> Ipv4Addr {
    let [a, b] = hi.to_be_bytes();
    let [c, d] = lo.to_be_bytes();
    Ipv4Addr::new(a, b, c, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_public_addresses_are_allowed() {
        for refused in [
            "127.0.0.1",
            "127.5.6.7",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
        ] {
            assert!(forbidden(ip(refused)).is_some(), "{refused} is not public");
        }
        for public in [
            "1.1.1.1",
            "8.8.8.8",
            "172.15.0.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "2002:0808:0808::",
        ] {
            assert_eq!(forbidden(ip(public)), None, "{public} is public");
        }
    }

    #[test]
    fn urls_must_be_web_urls_to_public_hosts_unless_allowed() {
        let own = Some("turnpost.example");
        let refused = [
            ("ftp://example.com/hook", "http or https"),
            ("not a url", "not a URL"),
            ("https://user:pw@example.com/hook", "user name or password"),
            ("http://127.0.0.1:8080/hook", "loopback"),
            ("http://[::1]/hook", "loopback"),
            ("http://10.0.0.5/hook", "private"),
            ("http://169.254.169.254/latest/meta-data", "link-local"),
            ("http://0.0.0.0/", "unspecified"),
            ("http://localhost:9000/", "localhost"),
            ("http://api.localhost/", "localhost"),
            ("https://TurnPost.example/v1/games", "this service itself"),
            ("http://2130706433/", "loopback"),
        ];
        for (url, why) in refused {
            let err = check_url(url, false, own).unwrap_err();
            assert!(err.contains(why), "{url}: {err}");
        }
        assert!(check_url("https://hooks.example.com/turnpost?x=1", false, own).is_ok());
        // Allowed by the configuration: loopback for tests, a private network.
        assert!(check_url("http://127.0.0.1:8080/hook", true, own).is_ok());
        assert!(check_url("ftp://127.0.0.1/", true, own).is_err());
    }

    #[test]
    fn every_resolved_address_must_be_public() {
        let public: SocketAddr = "93.184.216.34:443".parse().unwrap();
        let private: SocketAddr = "10.0.0.1:443".parse().unwrap();
        assert_eq!(allowed("h", vec![public], false).unwrap(), vec![public]);
        let err = allowed("h", vec![public, private], false).unwrap_err();
        assert!(err.contains("private address 10.0.0.1"), "{err}");
        assert!(allowed("h", vec![public, private], true).is_ok());
        assert!(allowed("h", vec![], true).is_err());
    }
}
