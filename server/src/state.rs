//! The running app's shared state: the configuration, the database connection
//! behind its lock, the limiters, the armed test faults, the rendered-product
//! cache and one lock per payment session.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use crate::error::{ApiError, ApiResult};
use crate::{middleware, stripe, Config};

/// Shared state of the running app.
pub struct AppState {
    pub config: Config,
    /// `http://host:port` the server answers on; prefixes image URLs.
    pub origin: String,
    /// The `Host` values this server answers (DNS rebinding).
    pub hosts: middleware::host::HostCheck,
    conn: Mutex<Connection>,
    /// SHA-256 of every accepted API key.
    pub key_hashes: HashSet<[u8; 32]>,
    pub limiter: middleware::limit::RateLimiter,
    /// Card testing: initiates and failed payment attempts per client address.
    pub payment_limiter: middleware::payment_limit::PaymentLimiter,
    pub faults: Mutex<Vec<middleware::faults::Fault>>,
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
    /// The state of a server answering on `origin` (port `port`) with database `conn`
    /// accepting the keys of `key_hashes`.
    #[must_use]
    pub fn new(config: Config, origin: String, port: u16, conn: Connection, key_hashes: HashSet<[u8; 32]>, stripe: stripe::Stripe) -> Self {
        Self {
            limiter: middleware::limit::RateLimiter::new(config.rate_limit),
            payment_limiter: middleware::payment_limit::PaymentLimiter::new(config.payment_limit),
            hosts: middleware::host::HostCheck::new(port, &config.allowed_hosts),
            config,
            origin,
            conn: Mutex::new(conn),
            key_hashes,
            faults: Mutex::new(Vec::new()),
            product_json: Mutex::new(HashMap::new()),
            stripe,
            session_locks: Mutex::new(HashMap::new()),
        }
    }

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
