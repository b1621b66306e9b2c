//! The Cirrus V1 dev server: every endpoint of `shared/design/CONTRACT.md` on
//! SQLite with a seeded demo store, payments through Stripe or localstripe.
//!
//! [`Config::from_env`] reads the environment of `docs/ARCHITECTURE.md`;
//! [`start`] opens the database, resolves the API key, binds, builds the app
//! ([`router::router`]) and serves it in the background (the binary and the
//! integration tests both use it).

pub mod catalog;
pub mod checkout;
pub mod config;
pub mod db;
pub mod error;
pub mod extract;
pub mod hooks;
pub mod keyfile;
pub mod middleware;
pub mod router;
pub mod state;
pub mod static_files;
pub mod stripe;
pub mod util;
pub mod webhook;
pub mod www;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use rusqlite::Connection;

pub use config::{Config, MAX_SWEEP_SECS};
pub use keyfile::KeySource;
pub use router::router;
pub use state::{AppState, RenderedProduct, SessionGuard, State};

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
    let (conn, key, key_source, key_file) = tokio::task::spawn_blocking(move || open_db(&cfg))
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
    let state = Arc::new(AppState::new(config, origin, addr.port(), conn, key_hashes, stripe));
    // Payments settled at the processor while this server was down (webhooks missed),
    // then periodically: a charge whose confirm and webhook never came gets its order.
    let every = std::time::Duration::from_secs(state.config.sweep_secs);
    tokio::spawn(checkout::sweep_every(Arc::clone(&state), every));
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    let handle = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("server error: {e}");
        }
    });
    Ok(Started { addr, base_url: format!("http://{addr}/api/v1"), api_key: key, key_source, key_file, handle })
}

type Opened = (Connection, String, KeySource, Option<PathBuf>);

/// Opens the database, resolves the API key ([`keyfile::resolve`]) and makes it
/// the only key the database accepts.
fn open_db(config: &Config) -> Result<Opened, String> {
    let mut conn = db::open(&config.db, config.seed_products, config.test_hooks)
        .map_err(|e| format!("cannot open database {}: {e}", config.db))?;
    db::set_frontend_domain(&conn, &config.frontend_domain).map_err(|e| format!("cannot set the store's frontendDomain in {}: {e}", config.db))?;
    let (key, source, key_file) = keyfile::resolve(config)?;
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
