//! The origins whose web pages may call the API from a browser (`TURNPOST_CORS_ORIGINS`).
//!
//! An origin is what a browser sends in its `Origin` header: `scheme://host[:port]`, nothing
//! more. Browsers send it in lower case and without the scheme's default port, and the
//! comparison is exact, so each origin is checked and written that way once, at start-up; a
//! value that is not an origin (a path, a wildcard, a user name) stops the start with a
//! message that names it.

/// `TURNPOST_CORS_ORIGINS`: origins separated by commas (spaces around them are ignored).
/// Empty: none, as when the variable is unset.
pub fn parse_origins(list: &str) -> anyhow::Result<Vec<String>> {
    let mut origins = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let origin = parse_origin(item)?;
        if !origins.contains(&origin) {
            origins.push(origin);
        }
    }
    Ok(origins)
}

/// One origin, in the form a browser sends it.
pub fn parse_origin(raw: &str) -> anyhow::Result<String> {
    let bad = |why: &str| {
        anyhow::anyhow!(
            "TURNPOST_CORS_ORIGINS: {raw:?} is not an origin ({why}); write each one as \
             scheme://host[:port], e.g. https://app.example.com or http://localhost:3000, \
             separated by commas"
        )
    };
    if raw == "*" || raw.contains('*') {
        return Err(bad(
            "wildcards are not accepted: name every origin that may call the API",
        ));
    }
    let Some((scheme, rest)) = raw.split_once("://") else {
        return Err(bad("it has no scheme"));
    };
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "https" => "443",
        "http" => "80",
        _ => return Err(bad("the scheme must be http or https")),
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.is_empty() {
        return Err(bad("it has no host"));
    }
    if let Some(c) = rest.chars().find(|c| matches!(c, '/' | '?' | '#' | '@')) {
        return Err(bad(&format!(
            "an origin has no path, query, fragment or user name, but this has {c:?}"
        )));
    }
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let Some((inside, after)) = v6.split_once(']') else {
            return Err(bad("an IPv6 address needs its closing ']'"));
        };
        if inside.is_empty() || !inside.chars().all(|c| c.is_ascii_hexdigit() || c == ':') {
            return Err(bad("the IPv6 address is not valid"));
        }
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':').ok_or_else(|| bad("junk after ']'"))?),
        };
        (format!("[{}]", inside.to_ascii_lowercase()), port)
    } else {
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (rest, None),
        };
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        };
        if host.is_empty() || host.len() > 253 || !host.split('.').all(label_ok) {
            return Err(bad("the host is not a valid name or address"));
        }
        (host.to_ascii_lowercase(), port)
    };
    let port = match port {
        None => None,
        Some(p) => {
            let n: u16 = p
                .parse()
                .ok()
                .filter(|n| *n > 0 && p.chars().all(|c| c.is_ascii_digit()))
                .ok_or_else(|| bad("the port must be a number from 1 to 65535"))?;
            // A browser leaves the default port out of the Origin it sends.
            (n.to_string() != default_port).then_some(n)
        }
    };
    Ok(match port {
        Some(p) => format!("{scheme}://{host}:{p}"),
        None => format!("{scheme}://{host}"),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_written_as_browsers_send_them() {
        assert_eq!(
            parse_origins(" https://App.Example.com , http://localhost:3000,").unwrap(),
            ["https://app.example.com", "http://localhost:3000"]
        );
        // The default port is left out, as in the header; a trailing slash is forgiven.
        assert_eq!(
            parse_origin("https://example.com:443/").unwrap(),
            "https://example.com"
        );
        assert_eq!(
            parse_origin("http://example.com:80").unwrap(),
            "http://example.com"
        );
        assert_eq!(
            parse_origin("http://127.0.0.1:8081").unwrap(),
            "http://127.0.0.1:8081"
        );
        assert_eq!(
            parse_origin("http://[::1]:5173").unwrap(),
            "http://[::1]:5173"
        );
        assert_eq!(parse_origins("").unwrap(), Vec::<String>::new());
        assert_eq!(
            parse_origins("https://a.test,https://a.test").unwrap(),
            ["https://a.test"]
        );
    }

    #[test]
    fn what_is_not_an_origin_is_refused_by_name() {
        for bad in [
            "*",
            "https://*.example.com",
            "example.com",
            "ftp://example.com",
            "https://",
            "https://example.com/app",
            "https://example.com?x=1",
            "https://user@example.com",
            "https://example.com:0",
            "https://example.com:99999",
            "https://example.com:http",
            "https://exa mple.com",
            "https://-example.com",
            "http://[::1",
            "null",
        ] {
            let err = parse_origins(&format!("https://ok.test,{bad}"))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("TURNPOST_CORS_ORIGINS") && err.contains(bad),
                "{bad}: {err}"
            );
        }
    }
}
