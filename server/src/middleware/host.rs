//! The dev server answers its own host only (CONTRACT.md "Payments": DNS
//! rebinding). A page elsewhere can point a name it controls at 127.0.0.1 and
//! call this server as its own origin; the browser then sends that name as
//! `Host`. So a request is served only when its `Host` is `localhost` or an IP
//! address (an address is never rebound, only a name is) at the port this
//! server listens on, or a name configured in `CIRRUS_ALLOWED_HOSTS`.

use axum::extract::{Request, State as AxState};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::State;

/// Which `Host` values are this server's.
#[derive(Debug, Clone)]
pub struct HostCheck {
    port: u16,
    /// `CIRRUS_ALLOWED_HOSTS`, lower case: `name` (any port), `name:port`, or `*` (any host).
    extra: Vec<String>,
}

impl HostCheck {
    #[must_use]
    pub fn new(port: u16, extra: &[String]) -> Self {
        Self { port, extra: extra.iter().map(|e| e.to_ascii_lowercase()).collect() }
    }

    /// Whether `host` (the `Host` header, or the authority of an absolute-form
    /// request target) names this server.
    #[must_use]
    pub fn allows(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        let Some((name, port)) = split(&host) else { return false };
        let configured = |e: &String| match split(e) {
            _ if e == "*" => true,
            Some((n, None)) => n == name,
            Some((n, Some(p))) => n == name && Some(p) == port,
            None => false,
        };
        if self.extra.iter().any(configured) {
            return true;
        }
        // A request without a port went to the scheme's default one (http: 80).
        port.unwrap_or(80) == self.port && (name == "localhost" || ip_literal(name))
    }

    /// What a refused request is told: the names this server answers.
    #[must_use]
    pub fn refusal(&self, host: &str) -> String {
        let mut names = format!("localhost:{p}, 127.0.0.1:{p}, [::1]:{p} or another IP address at port {p}", p = self.port);
        if !self.extra.is_empty() {
            names.push_str(&format!(", or {}", self.extra.join(", ")));
        }
        format!("Host: {host:?} is not this server's address (it answers {names}); to serve another name, add it to CIRRUS_ALLOWED_HOSTS")
    }
}

/// `name[:port]` or `[v6][:port]`; `None` when malformed (an empty name, a
/// port that is not a number).
fn split(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (&host[..v6.len() + 2], port)
    } else {
        match host.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse().ok()?),
        Some(_) => return None,
    };
    (!name.is_empty()).then_some((name, port))
}

/// An IPv4 address in dotted form or an IPv6 one in brackets.
fn ip_literal(name: &str) -> bool {
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => name.parse::<std::net::Ipv4Addr>().is_ok(),
    }
}

/// Checks one `CIRRUS_ALLOWED_HOSTS` entry: `*`, a host name or IP address,
/// optionally with `:port`; never a URL.
///
/// # Errors
/// A message naming the entry and what is wrong with it.
pub fn check_entry(entry: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("CIRRUS_ALLOWED_HOSTS: {entry:?} {why} (give host names like shop.test or shop.test:8787, or *)"));
    if entry == "*" {
        return Ok(());
    }
    if entry.contains("://") || entry.contains('/') {
        return bad("is a URL, not a host name");
    }
    let Some((name, _)) = split(entry) else { return bad("is not a host name with an optional numeric port") };
    let name_ok = ip_literal(name) || name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    if !name_ok {
        return bad("has characters a host name cannot have");
    }
    Ok(())
}

/// The layer: refuses a request whose `Host` is not this server's with 400
/// `invalid_request` naming the header. The authority of an absolute-form
/// request target stands for the header (RFC 9112 3.2.2).
pub async fn host(AxState(state): AxState<State>, req: Request, next: Next) -> Response {
    let host = match req.uri().authority() {
        Some(a) => a.as_str(),
        None => match req.headers().get(header::HOST) {
            None => return ApiError::bad_request("Host: missing header").into_response(),
            Some(h) => h.to_str().unwrap_or("\u{fffd}"),
        },
    };
    if state.hosts.allows(host) {
        next.run(req).await
    } else {
        ApiError::bad_request(state.hosts.refusal(host)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::{check_entry, HostCheck};

    #[test]
    fn own_addresses_at_the_served_port_only() {
        let h = HostCheck::new(8787, &[]);
        for ok in ["127.0.0.1:8787", "localhost:8787", "LOCALHOST:8787", "[::1]:8787", "10.0.0.5:8787", "[2001:db8::1]:8787"] {
            assert!(h.allows(ok), "{ok}");
        }
        for no in [
            "evil.example:8787", "evil.example", "localhost", "127.0.0.1", "localhost:8788", "127.0.0.1:80", "localhost.:8787",
            "127.0.0.1.nip.io:8787", "localhost.evil.example:8787", "[::1]", "[::1]x:8787", "[::1:8787", "127.0.0.1:", "127.0.0.1:8787x", ":8787", "",
            "127.0.0.1:99999",
        ] {
            assert!(!h.allows(no), "{no:?}");
        }
        assert!(HostCheck::new(80, &[]).allows("localhost"), "no port is port 80");
    }

    #[test]
    fn configured_names() {
        let h = HostCheck::new(8787, &["Shop.test".into(), "dev.example:3000".into()]);
        assert!(h.allows("shop.test") && h.allows("SHOP.TEST:443") && h.allows("dev.example:3000"));
        assert!(!h.allows("dev.example:3001") && !h.allows("dev.example") && !h.allows("shop.test.evil:8787"));
        assert!(h.refusal("evil:1").contains("shop.test, dev.example:3000"), "{}", h.refusal("evil:1"));
        assert!(HostCheck::new(8787, &["*".into()]).allows("anything.example:1"));
        for ok in ["*", "shop.test", "shop.test:8787", "[::1]:3000", "10.0.0.5"] {
            assert_eq!(check_entry(ok), Ok(()), "{ok}");
        }
        for bad in ["http://shop.test", "shop.test/", "shop test", "shop.test:", "shop.test:x", ":80", "sh_op.test"] {
            assert!(check_entry(bad).unwrap_err().contains(&format!("{bad:?}")), "{bad}");
        }
    }
}
