//! Client options, validated once when a client is made, so a bad base URL or a
//! malformed API key fails before any request.

use std::net::{Ipv4Addr, Ipv6Addr};

use serde::Deserialize;

use crate::cache::Strategy;
use crate::error::{Error, Result};
use crate::jsobject::JsObject;

/// Default per-attempt timeout.
pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;
/// Default number of retries after the first attempt (retryable requests only).
pub const DEFAULT_RETRIES: u32 = 2;
/// Upper bound for `retries` (each retry waits longer; more makes no sense).
pub const MAX_RETRIES: u32 = 10;

/// Options of `new CirrusClient(options)`, as the caller gives them: checked once by
/// [`ClientOptions::validate`], so a bad base URL or key fails before any request.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClientOptions {
    /// The API's base URL, ending with `/api/v1` (https, unless the host is loopback).
    pub base_url: String,
    /// The storefront API key: `ak_` followed by 48 hexadecimal characters.
    pub api_key: String,
    /// Milliseconds each attempt may take (default 10000).
    #[serde(default)]
    pub timeout_ms: Option<u32>,
    /// Retries of a retryable request after the first attempt, 0..=10 (default 2).
    #[serde(default)]
    pub retries: Option<u32>,
    /// Time to live of the per-client GET cache (`cache: { maxAgeMs: cacheTtlMs }`); absent or 0
    /// disables it.
    #[serde(default)]
    pub cache_ttl_ms: Option<u32>,
    /// The client's cache strategy (`CacheShort()`, `{ maxAgeMs, staleWhileRevalidateMs,
    /// staleIfErrorMs }`, `"no-store"`); not with `cacheTtlMs`, which is `{ maxAgeMs: cacheTtlMs }`.
    #[serde(default)]
    pub cache: JsObject,
    /// A `fetch` implementation (SSR, tests); default `globalThis.fetch`.
    #[serde(default)]
    pub fetch: JsObject,
}

/// Options of `allProducts()`: the page size and the minimal flag.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AllProductsOptions {
    /// Products per request, 1..=500 (default 100).
    #[serde(default)]
    pub page_size: Option<u32>,
    /// `MinimalProduct`s instead of `Product`s.
    #[serde(default)]
    pub minimal: bool,
}

/// The last argument of every call (`CirrusClient`'s fetchers), when it is not an
/// `AbortSignal`. `fetchOptions` go to `fetch` as its second argument (Next's `{ next: {
/// revalidate, tags } }`, Workers' `cf`, `cache: "force-cache"` …); `method`, `headers`,
/// `body` and `signal` are the client's and are refused. Identical GETs in flight share one
/// request, sent with the first caller's `fetchOptions`. Every member is checked when the call
/// is made, before any request.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallOptions {
    /// Aborts this call (a GET others share goes on for them).
    #[serde(default)]
    pub signal: JsObject,
    /// This call's cache strategy, instead of the client's (GETs; POSTs are never cached).
    #[serde(default)]
    pub cache: JsObject,
    /// `fetch`'s second argument for this call's request.
    #[serde(default)]
    pub fetch_options: JsObject,
    /// Told (before the promise resolves) when this call is answered with a stale answer.
    #[serde(default)]
    pub on_stale: JsObject,
}

/// Validated options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Ends with `/api/v1`, no trailing slash.
    pub base_url: String,
    pub api_key: String,
    pub timeout_ms: u32,
    pub retries: u32,
    /// 0 = no cache.
    pub cache_ttl_ms: u32,
}

impl Config {
    /// The `Authorization` header value.
    #[must_use]
    pub fn authorization(&self) -> String {
        format!("Bearer {}", self.api_key)
    }
}

/// Checks an API key: `ak_` followed by 48 hexadecimal characters.
///
/// # Errors
/// `invalid_argument`; the message shows at most the key's first 7 characters.
pub fn check_api_key(key: &str) -> Result<()> {
    let hex = key.strip_prefix("ak_").unwrap_or("");
    if key.len() == 51 && hex.len() == 48 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(());
    }
    let shown: String = key.chars().take(7).collect();
    let count = key.chars().count();
    Err(Error::invalid_argument(format!("apiKey must be \"ak_\" followed by 48 hex characters, got \"{shown}{}\" ({count} characters)", if count > 7 { "…" } else { "" })))
}

/// 127.0.0.0/8, `[::1]` (any spelling) or `localhost`.
fn is_loopback(host: &str) -> bool {
    if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return v6.parse::<Ipv6Addr>().is_ok_and(|a| a.is_loopback());
    }
    host.eq_ignore_ascii_case("localhost") || host.parse::<Ipv4Addr>().is_ok_and(|a| a.is_loopback())
}

/// A host the URL parsers of browsers read as written: `[` IPv6 `]`, a
/// dotted-quad IPv4 address, or dot-separated labels of ASCII letters,
/// digits and `-` (no empty label) whose last label is not a number.
/// (Anything else, such as `128[.0.0.1` or `.shop.example`, found by the
/// fuzz test against the WHATWG parser, is refused; IDNs are given in
/// punycode.)
fn valid_host(host: &str) -> bool {
    if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return v6.parse::<Ipv6Addr>().is_ok();
    }
    let labels_ok = !host.is_empty() && host.split('.').all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    // WHATWG reads a host whose last label is a number as IPv4 (`1.2.3` and
    // `0x7f.1` included): only a plain dotted quad is taken as one.
    let last = host.rsplit('.').next().unwrap_or("");
    let numeric = !last.is_empty() && (last.bytes().all(|b| b.is_ascii_digit()) || last.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x")));
    labels_ok && (!numeric || host.parse::<Ipv4Addr>().is_ok())
}

/// Checks a base URL and returns it without a trailing slash.
///
/// # Errors
/// `invalid_argument` unless the URL is `https://host[:port]/…/api/v1` (or
/// `http://` for a loopback host: 127.0.0.0/8, `[::1]`, `localhost`), with no
/// user info, query or fragment.
pub fn check_base_url(url: &str) -> Result<String> {
    let bad = |why: &str| Error::invalid_argument(format!("baseUrl {why}, got \"{url}\""));
    let trimmed = url.strip_suffix('/').unwrap_or(url);
    let (scheme, rest) = trimmed
        .split_once("://")
        .ok_or_else(|| bad("must be an absolute http(s) URL"))?;
    if rest.contains(['?', '#']) {
        return Err(bad("must not have a query or fragment"));
    }
    if rest.bytes().any(|b| b.is_ascii_whitespace() || b.is_ascii_control()) {
        return Err(bad("must not contain whitespace"));
    }
    // (`_checked` keeps str slicing's panic path out of the wasm.)
    let (authority, path) = rest.find('/').and_then(|i| rest.split_at_checked(i)).unwrap_or((rest, ""));
    if authority.contains('@') {
        return Err(bad("must not contain user info"));
    }
    let host = if authority.starts_with('[') {
        authority.find(']').and_then(|i| authority.get(..=i)).ok_or_else(|| bad("has a malformed IPv6 host"))?
    } else {
        authority.split(':').next().unwrap_or("")
    };
    let port = authority.get(host.len()..).unwrap_or("");
    if !valid_host(host) || !(port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.parse::<u16>().is_ok())) {
        return Err(bad("has no valid host[:port]"));
    }
    match scheme {
        "https" => {}
        "http" if is_loopback(host) => {}
        "http" => return Err(bad("must use https (http is allowed only for loopback hosts)")),
        _ => return Err(bad("must use https")),
    }
    if !path.ends_with("/api/v1") {
        return Err(bad("must end with /api/v1"));
    }
    Ok(trimmed.to_owned())
}

/// Checks `baseUrl` and `apiKey` (in that order); returns the base URL
/// without a trailing slash.
///
/// # Errors
/// As [`check_base_url`] and [`check_api_key`].
pub fn check_endpoint(base_url: &str, api_key: &str) -> Result<String> {
    let base_url = check_base_url(base_url)?;
    check_api_key(api_key)?;
    Ok(base_url)
}

/// Checks the numeric options and fills in the defaults: returns
/// `[timeoutMs, retries, cacheTtlMs]` (`cacheTtlMs` 0: no cache).
///
/// # Errors
/// `invalid_argument` for `timeoutMs` of 0 or `retries` over 10.
pub fn check_numbers(timeout_ms: Option<u32>, retries: Option<u32>, cache_ttl_ms: Option<u32>) -> Result<[u32; 3]> {
    let timeout_ms = timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    if timeout_ms == 0 {
        return Err(Error::invalid_argument("timeoutMs must be at least 1"));
    }
    let retries = retries.unwrap_or(DEFAULT_RETRIES);
    if retries > MAX_RETRIES {
        return Err(Error::invalid_argument(format!("retries must be at most {MAX_RETRIES}, got {retries}")));
    }
    Ok([timeout_ms, retries, cache_ttl_ms.unwrap_or(0)])
}

/// The client's cache strategy: `cache` (already checked by
/// [`crate::cache::Strategy`]) or `cacheTtlMs` (= `{ maxAgeMs: cacheTtlMs }`),
/// never both; neither: no cache.
///
/// # Errors
/// `invalid_argument` when both are given.
pub fn client_cache(cache_ttl_ms: u32, cache: Option<Strategy>) -> Result<Strategy> {
    match cache {
        Some(_) if cache_ttl_ms > 0 => Err(Error::invalid_argument("give options.cache or options.cacheTtlMs, not both")),
        Some(s) => Ok(s),
        None => Ok(Strategy::ttl(cache_ttl_ms)),
    }
}

impl ClientOptions {
    /// Validates the options.
    ///
    /// # Errors
    /// `invalid_argument` naming the option: bad `baseUrl` or `apiKey`,
    /// `timeoutMs` of 0, or `retries` over 10.
    pub fn validate(&self) -> Result<Config> {
        let base_url = check_endpoint(&self.base_url, &self.api_key)?;
        let [timeout_ms, retries, cache_ttl_ms] = check_numbers(self.timeout_ms, self.retries, self.cache_ttl_ms)?;
        Ok(Config { base_url, api_key: self.api_key.clone(), timeout_ms, retries, cache_ttl_ms })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    const KEY: &str = "ak_0123456789abcdef0123456789ABCDEF0123456789abcdef";

    fn opts(base: &str) -> ClientOptions {
        ClientOptions { base_url: base.into(), api_key: KEY.into(), ..Default::default() }
    }

    #[test]
    fn defaults() {
        let c = opts("https://shop.example/api/v1/").validate().unwrap();
        assert_eq!(c.base_url, "https://shop.example/api/v1");
        assert_eq!((c.timeout_ms, c.retries, c.cache_ttl_ms), (10_000, 2, 0));
        assert_eq!(c.authorization(), format!("Bearer {KEY}"));
    }

    #[test]
    fn https_required_except_loopback() {
        for ok in [
            "https://shop.example:8443/api/v1",
            "http://127.0.0.1:8787/api/v1",
            "http://127.9.8.7/api/v1",
            "http://localhost:3000/x/api/v1",
            "http://[::1]:8787/api/v1",
        ] {
            assert!(opts(ok).validate().is_ok(), "{ok}");
        }
        for bad in [
            "http://shop.example/api/v1",
            "http://127.0.0.1.evil.example/api/v1",
            "http://128.0.0.1/api/v1",
            "http://localhost.evil/api/v1",
            "http://127.0.0.1@evil.example/api/v1",
            "ftp://shop.example/api/v1",
            "shop.example/api/v1",
            "https://shop.example/api/v2",
            "https://shop.example/api/v1?x=1",
            "https://shop.example:99999/api/v1",
            "https:///api/v1",
            // Found by tests/sdk/fuzz-base-url.mjs: hosts WHATWG URL refuses.
            "https://128[.0.0.1/api/v1/",
            "https://.128.0.0.1/api/v1",
            "https://shop..example/api/v1",
            "https://[zz]/api/v1",
            "https://127.0.%0.1/x/api/v1",
            "https://12.7.0.0.1/api/v1/",
            "https://1.2.3/api/v1",
            "https://010.0.0.1/api/v1",
            "https://shop.0x7f/api/v1",
            "https://[1:2]/api/v1",
            "https://[::[ffff:127.0.0.1]/api/v1",
        ] {
            let e = opts(bad).validate().unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{bad}");
            assert!(e.message.starts_with("baseUrl "), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn hosts_by_std_address_parsers() {
        for (host, ok) in [
            ("127.0.0.1", true), ("255.255.255.255", true), ("0.0.0.0", true), ("shop.example", true), ("256.0.0.1", false),
            ("01.0.0.1", false), ("1.2.3", false), ("1.2.3.4.5", false), ("1..2.3", false), ("", false), ("shop.0x7f", false),
            ("[::1]", true), ("[::]", true), ("[1::]", true), ("[1:2:3:4:5:6:7:8]", true), ("[1:2:3:4:5:6:7::]", true),
            ("[::ffff:127.0.0.1]", true), ("[1:2:3:4:5:6:1.2.3.4]", true), ("[1:2:3:4:5:6:7:8:9]", false),
            ("[1:2:3:4:5:6:7::8]", false), ("[1::2::3]", false), ("[:1::2]", false), ("[1:2]", false), ("[12345::]", false),
            ("[::1.2.3.4:5]", false), ("[1.2.3.4::]", false), ("[::[ffff:127.0.0.1]", false),
        ] {
            assert_eq!(valid_host(host), ok, "{host}");
        }
        for (host, loopback) in [
            ("127.0.0.1", true), ("127.255.0.9", true), ("128.0.0.1", false), ("localhost", true), ("LocalHost", true),
            ("localhost.evil", false), ("[::1]", true), ("[0:0:0:0:0:0:0:1]", true), ("[::2]", false), ("[::ffff:127.0.0.1]", false),
        ] {
            assert_eq!(is_loopback(host), loopback, "{host}");
        }
    }

    #[test]
    fn api_key_format_without_leaking_it() {
        for bad in ["", "ak_123", "sk_0123456789abcdef0123456789abcdef0123456789abcdef", &format!("{KEY}0"), &KEY.replace('f', "g")] {
            let e = check_api_key(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument);
            assert!(e.message.contains("apiKey"));
            assert!(bad.len() < 10 || !e.message.contains(&bad[7..]), "leaks the key: {}", e.message);
        }
        assert!(check_api_key(KEY).is_ok());
    }

    #[test]
    fn numbers_are_checked() {
        let e = ClientOptions { timeout_ms: Some(0), ..opts("https://a/api/v1") }.validate().unwrap_err();
        assert!(e.message.contains("timeoutMs"));
        let e = ClientOptions { retries: Some(11), ..opts("https://a/api/v1") }.validate().unwrap_err();
        assert!(e.message.contains("retries"));
        let e = serde_json::from_str::<ClientOptions>(r#"{"baseUrl":"x","apiKey":"y","timeout":1}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `timeout`"));
    }

    #[test]
    fn endpoint_then_numbers_with_defaults() {
        assert_eq!(check_endpoint("https://a/api/v1/", KEY).unwrap(), "https://a/api/v1");
        assert!(check_endpoint("https://a/api/v1", "ak_1").unwrap_err().message.contains("apiKey"));
        // baseUrl is checked first, as in validate().
        assert!(check_endpoint("http://a/api/v1", "ak_1").unwrap_err().message.starts_with("baseUrl"));
        assert_eq!(check_numbers(None, None, None).unwrap(), [10_000, 2, 0]);
        assert_eq!(check_numbers(Some(5), Some(0), Some(30_000)).unwrap(), [5, 0, 30_000]);
        assert_eq!(check_numbers(Some(1), Some(10), None).unwrap(), [1, 10, 0]);
        assert!(check_numbers(Some(0), None, None).unwrap_err().message.contains("timeoutMs"));
        assert!(check_numbers(None, Some(11), None).unwrap_err().message.contains("retries"));
    }

    #[test]
    fn cache_or_ttl_not_both() {
        let swr = Strategy { max_age_ms: 1, stale_while_revalidate_ms: 2, stale_if_error_ms: 3 };
        assert_eq!(client_cache(0, None).unwrap(), Strategy::NO_STORE);
        assert_eq!(client_cache(500, None).unwrap(), Strategy::ttl(500));
        assert_eq!(client_cache(0, Some(swr)).unwrap(), swr);
        assert!(client_cache(500, Some(swr)).unwrap_err().message.starts_with("give options.cache or options.cacheTtlMs"));
    }
}
