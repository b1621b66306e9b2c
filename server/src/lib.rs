//! The Cirrus V1 dev server: every endpoint of `shared/design/CONTRACT.md` on
//! SQLite with a seeded demo store, payments through Stripe or localstripe.
//!
//! [`Config::from_env`] reads the environment of `docs/ARCHITECTURE.md`;
//! [`start`] binds, builds the app and serves it in the background (the
//! binary and the integration tests both use it).

pub mod catalog;
pub mod checkout;
pub mod db;
pub mod error;
pub mod extract;
pub mod hooks;
pub mod middleware;
pub mod static_files;
pub mod stripe;
pub mod util;
pub mod webhook;
pub mod www;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::routing::{get, post};
use axum::Router;
use rusqlite::Connection;

use crate::error::{ApiError, ApiResult};

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
}

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
        Ok(c)
    }
}

/// Shared state of the running app.
pub struct AppState {
    pub config: Config,
    /// `http://host:port` the server answers on; prefixes image URLs.
    pub origin: String,
    conn: Mutex<Connection>,
    /// SHA-256 of every accepted API key.
    pub key_hashes: HashSet<[u8; 32]>,
    pub limiter: middleware::RateLimiter,
    /// Card testing: initiates and failed payment attempts per client address.
    pub payment_limiter: middleware::PaymentLimiter,
    pub faults: Mutex<Vec<hooks::Fault>>,
    /// Rendered product JSON (full, minimal) by product id; entries are dropped
    /// when an order changes the product's stock.
    pub product_json: Mutex<HashMap<String, RenderedProduct>>,
    pub stripe: stripe::Stripe,
    /// One lock per payment session (update / confirm), so a session is charged
    /// and recorded once while other sessions go on.
    session_locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// Holds a session's lock; the map entry goes when nobody else waits for it.
pub struct SessionGuard {
    state: State,
    id: String,
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Drop for SessionGuard {
    fn drop(&mut self) {
        let mut map = self.state.session_locks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // The map and this guard hold the only references: no one is waiting.
        if map.get(&self.id).is_some_and(|m| Arc::strong_count(m) == 2) {
            map.remove(&self.id);
        }
        self.guard.take();
    }
}

pub type State = Arc<AppState>;

/// A product's rendered JSON: (full, minimal).
pub type RenderedProduct = (Arc<str>, Arc<str>);

impl AppState {
    /// Runs `f` on the database connection on the blocking pool.
    ///
    /// # Errors
    /// Whatever `f` returns, or `internal` if the task failed.
    pub async fn db<T, F>(self: &Arc<Self>, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> ApiResult<T> + Send + 'static,
    {
        let state = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut conn = state.conn.lock().map_err(|_| ApiError::internal("database lock poisoned"))?;
            f(&mut conn)
        })
        .await?
    }

    /// Waits for and takes the lock of payment session `id`.
    pub async fn lock_session(self: &Arc<Self>, id: &str) -> SessionGuard {
        let m = {
            let mut map = self.session_locks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            Arc::clone(map.entry(id.to_string()).or_default())
        };
        let guard = m.lock_owned().await;
        SessionGuard { state: Arc::clone(self), id: id.to_string(), guard: Some(guard) }
    }

    /// A stored server path (`/static/…`) as an absolute URL.
    #[must_use]
    pub fn url(&self, path: &str) -> String {
        if path.starts_with('/') {
            format!("{}{path}", self.origin)
        } else {
            path.to_string()
        }
    }
}

/// Where the accepted key came from, for the start banner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    Env,
    File,
    Generated,
}

/// A running server.
pub struct Started {
    pub addr: SocketAddr,
    /// `http://addr/api/v1`
    pub base_url: String,
    pub api_key: String,
    pub key_source: KeySource,
    pub key_file: Option<PathBuf>,
    pub handle: tokio::task::JoinHandle<()>,
}

/// Opens the database, resolves the API key, binds `config.addr` and serves
/// in a background task.
///
/// # Errors
/// A message if the database cannot be opened, the key file is unreadable or
/// the address cannot be bound.
pub async fn start(config: Config) -> Result<Started, String> {
    let listener = tokio::net::TcpListener::bind(&config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    if config.test_hooks && !addr.ip().is_loopback() {
        return Err(format!("test hooks are only served on a loopback address, not on {addr}"));
    }
    let origin = format!("http://{addr}");
    let cfg = config.clone();
    let (conn, key, key_source, key_file) = tokio::task::spawn_blocking(move || open_db(&cfg, addr))
        .await
        .map_err(|e| e.to_string())??;
    let key_hashes = {
        let mut stmt = conn.prepare("SELECT hash FROM api_keys").map_err(|e| e.to_string())?;
        let rows = stmt
            .query_map([], |r| r.get::<_, Vec<u8>>(0))
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .filter_map(|h| <[u8; 32]>::try_from(h).ok())
            .collect::<HashSet<_>>();
        rows
    };
    let stripe = stripe::Stripe::new(&config.stripe_api_base, &config.stripe_secret_key)?;
    let state = Arc::new(AppState {
        limiter: middleware::RateLimiter::new(config.rate_limit),
        payment_limiter: middleware::PaymentLimiter::new(config.payment_limit),
        config,
        origin,
        conn: Mutex::new(conn),
        key_hashes,
        faults: Mutex::new(Vec::new()),
        product_json: Mutex::new(HashMap::new()),
        stripe,
        session_locks: Mutex::new(HashMap::new()),
    });
    // Payments settled at the processor while this server was down (webhooks missed).
    tokio::spawn(checkout::reconcile(Arc::clone(&state)));
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    let handle = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("server error: {e}");
        }
    });
    Ok(Started { addr, base_url: format!("http://{addr}/api/v1"), api_key: key, key_source, key_file, handle })
}

type Opened = (Connection, String, KeySource, Option<PathBuf>);

fn open_db(config: &Config, addr: SocketAddr) -> Result<Opened, String> {
    let mut conn = db::open(&config.db, config.seed_products, config.test_hooks)
        .map_err(|e| format!("cannot open database {}: {e}", config.db))?;
    db::set_frontend_domain(&conn, &config.frontend_domain).map_err(|e| format!("cannot set the store's frontendDomain in {}: {e}", config.db))?;
    let file_db = config.db != ":memory:";
    let db_key_file = file_db.then(|| PathBuf::from(format!("{}.key", config.db)));
    let (key, source) = if let Some(k) = &config.api_key {
        (k.clone(), KeySource::Env)
    } else if let Some(k) = db_key_file
        .as_ref()
        .and_then(|f| std::fs::read_to_string(f).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| util::is_api_key(s))
    {
        (k, KeySource::File)
    } else {
        (format!("ak_{}", util::random_hex(24)), KeySource::Generated)
    };
    // The key is never printed: it is kept in a file only its owner can read. A file
    // database keeps its key beside it; an in-memory run with a generated key gets a
    // file of its own in the temp directory.
    let key_file = match (&db_key_file, source) {
        (Some(f), _) => Some(f.clone()),
        (None, KeySource::Generated) => Some(std::env::temp_dir().join(format!("cirrus-dev-server-{}.key", addr.port()))),
        (None, _) => None,
    };
    if let Some(f) = &key_file {
        let current = std::fs::read_to_string(f).ok().map(|s| s.trim().to_string());
        if current.as_deref() != Some(key.as_str()) {
            write_private(f, &key).map_err(|e| format!("cannot write key file {}: {e}", f.display()))?;
        }
    }
    // Only this key is accepted: a key configured before (or generated) is revoked.
    let tx = conn.transaction().map_err(|e| e.to_string())?;
    tx.execute("DELETE FROM api_keys", []).map_err(|e| e.to_string())?;
    tx.execute(
        "INSERT INTO api_keys (hash, prefix, created_at) VALUES (?1, ?2, ?3)",
        rusqlite::params![util::sha256(&key).to_vec(), util::mask_key(&key), util::now_iso()],
    )
    .map_err(|e| e.to_string())?;
    tx.commit().map_err(|e| e.to_string())?;
    Ok((conn, key, source, key_file))
}

fn write_private(path: &std::path::Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path)?;
    // `mode` applies to new files only: an existing one is made private too.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    writeln!(f, "{contents}")
}

/// The whole app: API under `/api/v1` (auth + rate limit), `/static`, the test
/// hooks when enabled, the www dir or a JSON 404 for everything else.
pub fn router(state: State) -> Router {
    let api = Router::new()
        .route("/store", get(catalog::store))
        .route("/products", get(catalog::products))
        .route("/products/slug/{slug}", get(catalog::product_by_slug))
        .route("/pages", get(catalog::pages))
        .route("/collections", get(catalog::collections))
        .route("/collections/slug/{slug}", get(catalog::collection_by_slug))
        .route("/collections/{id}", get(catalog::collection_by_id))
        .route("/shipping-rates", post(checkout::shipping_rates))
        .route("/payments/initiate", post(checkout::initiate))
        .route("/payments/update", post(checkout::update))
        .route("/payments/confirm", post(checkout::confirm))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), middleware::auth))
        // The processor's events: signed with the endpoint secret, not a bearer key.
        .route("/webhooks/stripe", post(webhook::stripe));
    let mut app = Router::new()
        .nest("/api/v1", api)
        .route("/static/{*path}", get(static_files::static_file));
    if state.config.test_hooks {
        app = app
            .route("/__test/faults", post(hooks::arm_fault).delete(hooks::disarm_faults))
            .route("/__test/processor-faults", post(hooks::arm_processor_fault).delete(hooks::disarm_processor_faults))
            .route("/__test/processor-processing", post(hooks::arm_processing).delete(hooks::disarm_processing))
            .route("/__test/orders", get(hooks::orders));
    }
    app.fallback(www::fallback(state.config.www_dir.clone()))
        .method_not_allowed_fallback(hooks::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::faults))
        .layer(www::api_compression())
        .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::edge))
        .with_state(state)
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
