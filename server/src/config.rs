//! The server's configuration: its defaults and how the command line and the
//! `CIRRUS_*` / `STRIPE_*` variables change them (`docs/ARCHITECTURE.md` "Runtime conventions").

use std::path::PathBuf;

use crate::{db, middleware, util};

/// Server configuration (see `docs/ARCHITECTURE.md` "Runtime conventions").
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: String,
    pub db: String,
    pub api_key: Option<String>,
    pub seed_products: u32,
    /// The storefront's own domain (`[http(s)://]host[:port]`): the store's `frontendDomain`,
    /// which canonical URLs and JSON-LD are made on (CIRRUS_FRONTEND_DOMAIN; default the seed's).
    pub frontend_domain: String,
    /// Allowed CORS origins (`Config::allows_origin`); `["*"]` allows any, `http://host:*` any port of host.
    pub cors_origins: Vec<String>,
    pub www_dir: Option<PathBuf>,
    /// Requests per second per key; 0 disables the limiter.
    pub rate_limit: u32,
    /// Payment sessions one client address may initiate per hour (failed payment
    /// attempts: a 20th of it); 0 disables it (`middleware::PaymentLimiter`).
    pub payment_limit: u32,
    pub test_hooks: bool,
    pub stripe_api_base: String,
    pub stripe_secret_key: String,
    pub stripe_publishable_key: String,
    /// Endpoint secret of `POST /api/v1/webhooks/stripe` (`whsec_…`); unset: every event is refused.
    pub stripe_webhook_secret: Option<String>,
    /// `Host` names served besides `localhost` and IP addresses at the listening
    /// port (`middleware::host::HostCheck`): `name` (any port), `name:port`, `*` (any).
    pub allowed_hosts: Vec<String>,
    /// Seconds between settlement sweeps (1..=60; the first runs at start-up).
    pub sweep_secs: u64,
}

/// Most seconds between two settlement sweeps (CONTRACT.md: within a minute).
pub const MAX_SWEEP_SECS: u64 = 60;

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: "127.0.0.1:8787".into(),
            db: ".cirrus/dev.sqlite".into(),
            api_key: None,
            seed_products: 120,
            frontend_domain: db::DEFAULT_FRONTEND_DOMAIN.into(),
            // Any loopback origin, any port: a storefront's own dev server (Vite, Next.js …) calls
            // the API cross-origin. Other origins only through CIRRUS_CORS_ORIGINS.
            cors_origins: vec!["http://127.0.0.1:*".into(), "http://localhost:*".into(), "http://[::1]:*".into()],
            www_dir: None,
            rate_limit: 50,
            payment_limit: 2000,
            test_hooks: false,
            stripe_api_base: "http://127.0.0.1:8420".into(),
            stripe_secret_key: "sk_test_localstripe".into(),
            stripe_publishable_key: "pk_test_localstripe".into(),
            stripe_webhook_secret: None,
            allowed_hosts: Vec::new(),
            sweep_secs: 30,
        }
    }
}

impl Config {
    /// Whether a browser page of `origin` may call the API: an entry of `cors_origins` equal to
    /// it, `*`, or `scheme://host:*` for that host on any port (or none).
    pub fn allows_origin(&self, origin: &str) -> bool {
        let any_port = |host: &str| {
            origin.strip_prefix(host).is_some_and(|rest| {
                rest.is_empty() || rest.strip_prefix(':').is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            })
        };
        self.cors_origins.iter().any(|a| a == "*" || a == origin || a.strip_suffix(":*").is_some_and(any_port))
    }

    /// Reads the command line (`--test-hooks` is its only flag) and the
    /// `CIRRUS_*` / `STRIPE_*` variables; unset ones keep their defaults.
    ///
    /// Test hooks are on only with `--test-hooks`, never from the environment
    /// (a variable exported in a shell would reach every server started from it).
    ///
    /// # Errors
    /// A message naming the argument or variable whose value is invalid.
    pub fn from_args_and_env(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut c = Self::from_env()?;
        for a in args {
            match a.as_str() {
                "--test-hooks" => c.test_hooks = true,
                _ => return Err(format!("unknown argument {a:?} (the only flag is --test-hooks; configuration is by environment)")),
            }
        }
        Ok(c)
    }

    /// Reads the `CIRRUS_*` and `STRIPE_*` variables; unset ones keep their
    /// defaults. Never turns the test hooks on.
    ///
    /// # Errors
    /// A message naming the variable whose value is invalid.
    pub fn from_env() -> Result<Self, String> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let mut c = Self::default();
        if let Some(v) = var("CIRRUS_ADDR") {
            c.addr = v;
        }
        if let Some(v) = var("CIRRUS_DB") {
            c.db = v;
        }
        if let Some(v) = var("CIRRUS_API_KEY") {
            if !util::is_api_key(&v) {
                return Err("CIRRUS_API_KEY must be ak_ followed by 48 hex digits".into());
            }
            c.api_key = Some(v);
        }
        if let Some(v) = var("CIRRUS_SEED_PRODUCTS") {
            c.seed_products = v
                .parse()
                .ok()
                .filter(|n| (1..=db::MAX_SEED_PRODUCTS).contains(n))
                .ok_or_else(|| format!("CIRRUS_SEED_PRODUCTS must be an integer 1..={}, got {v:?}", db::MAX_SEED_PRODUCTS))?;
        }
        if let Some(v) = var("CIRRUS_FRONTEND_DOMAIN") {
            let host = v.split_once("://").map_or(v.as_str(), |(scheme, rest)| if scheme == "http" || scheme == "https" { rest } else { "" });
            let host = host.trim_end_matches('/');
            if host.is_empty() || !host.chars().all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c)) {
                return Err(format!("CIRRUS_FRONTEND_DOMAIN must be a host[:port], optionally with http:// or https:// (e.g. localhost:3000), got {v:?}"));
            }
            c.frontend_domain = v;
        }
        if let Some(v) = var("CIRRUS_CORS_ORIGINS") {
            c.cors_origins = v.split(',').map(|s| s.trim().trim_end_matches('/').to_string()).filter(|s| !s.is_empty()).collect();
        }
        c.www_dir = var("CIRRUS_WWW_DIR").map(PathBuf::from);
        if let Some(v) = var("CIRRUS_RATE_LIMIT") {
            c.rate_limit = v.parse().map_err(|_| format!("CIRRUS_RATE_LIMIT must be a non-negative integer, got {v:?}"))?;
        }
        if let Some(v) = var("CIRRUS_PAYMENT_LIMIT") {
            c.payment_limit = v.parse().map_err(|_| format!("CIRRUS_PAYMENT_LIMIT must be a non-negative integer, got {v:?}"))?;
        }
        if let Some(v) = var("STRIPE_API_BASE") {
            c.stripe_api_base = v.trim_end_matches('/').to_string();
        }
        if let Some(v) = var("STRIPE_SECRET_KEY") {
            c.stripe_secret_key = v;
        }
        if let Some(v) = var("STRIPE_PUBLISHABLE_KEY") {
            c.stripe_publishable_key = v;
        }
        if let Some(v) = var("STRIPE_WEBHOOK_SECRET") {
            if !v.starts_with("whsec_") || v.len() < 16 {
                return Err("STRIPE_WEBHOOK_SECRET must be whsec_ followed by at least 10 characters".into());
            }
            c.stripe_webhook_secret = Some(v);
        }
        if let Some(v) = var("CIRRUS_ALLOWED_HOSTS") {
            c.allowed_hosts = v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            c.allowed_hosts.iter().try_for_each(|h| middleware::host::check_entry(h))?;
        }
        if let Some(v) = var("CIRRUS_SWEEP_SECS") {
            c.sweep_secs = v
                .parse()
                .ok()
                .filter(|n| (1..=MAX_SWEEP_SECS).contains(n))
                .ok_or_else(|| format!("CIRRUS_SWEEP_SECS must be an integer 1..={MAX_SWEEP_SECS}, got {v:?}"))?;
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::Config;

    #[test]
    fn default_cors_allows_every_loopback_port_and_nothing_else() {
        let c = Config::default();
        for o in ["http://127.0.0.1:5173", "http://localhost:3000", "http://localhost", "http://[::1]:8787", "http://127.0.0.1:8787"] {
            assert!(c.allows_origin(o), "{o}");
        }
        for o in ["http://127.0.0.1:5173.evil.example", "http://localhost.evil.example", "http://127.0.0.1:", "https://localhost:3000", "http://example.com", "null", "http://127.0.0.1:80x"] {
            assert!(!c.allows_origin(o), "{o}");
        }
        let exact = Config { cors_origins: vec!["https://shop.example".into()], ..Config::default() };
        assert!(exact.allows_origin("https://shop.example") && !exact.allows_origin("http://localhost:5173"));
    }
}
