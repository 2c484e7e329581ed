//! Who is asking, for the rate limits of the pages and of the API (`http`): the connection's
//! peer address, or, behind a reverse proxy, the address it puts in the header named by
//! `TURNPOST_CLIENT_IP_HEADER`.

use std::net::IpAddr;

use actix_web::HttpRequest;

use crate::service::Services;
use crate::service::limits::ClientKey;

/// The client of `req` as the rate limits count it (`None` only if the server cannot tell,
/// which no real connection does).
pub fn client_of(req: &HttpRequest, svc: &Services) -> Option<ClientKey> {
    let header = svc.limits.settings.client_ip_header.as_deref();
    client_address(req, header).map(ClientKey::new)
}

/// The address in `header` when it is set and holds one (the last of a list: the one the
/// nearest proxy added, which the client cannot choose), else the peer's.
fn client_address(req: &HttpRequest, header: Option<&str>) -> Option<IpAddr> {
    let forwarded = header.and_then(|name| {
        let value = req.headers().get(name.trim())?.to_str().ok()?;
        value.rsplit(',').next()?.trim().parse::<IpAddr>().ok()
    });
    forwarded.or_else(|| req.peer_addr().map(|a| a.ip()))
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn the_peer_unless_a_configured_proxy_header_names_the_client() {
        let peer = "203.0.113.9:4000".parse().unwrap();
        let req = TestRequest::default()
            .peer_addr(peer)
            .insert_header(("X-Forwarded-For", "198.51.100.1, 192.0.2.7"))
            .to_http_request();
        // Not configured: a client's own header is ignored.
        assert_eq!(client_address(&req, None), Some(peer.ip()));
        // Configured: the address the proxy appended, not the one the client wrote.
        assert_eq!(
            client_address(&req, Some("x-forwarded-for")),
            Some("192.0.2.7".parse().unwrap())
        );
        // Configured but absent or garbled: the peer.
        assert_eq!(client_address(&req, Some("X-Real-IP")), Some(peer.ip()));
        let garbled = TestRequest::default()
            .peer_addr(peer)
            .insert_header(("X-Real-IP", "somewhere"))
            .to_http_request();
        assert_eq!(client_address(&garbled, Some("X-Real-IP")), Some(peer.ip()));
    }
}
