//! `cirrus-dev-server`: the Cirrus V1 dev server (configuration by environment,
//! see docs/ARCHITECTURE.md).

use cirrus_dev_server::{start, Config, KeySource};

#[tokio::main]
async fn main() {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cirrus-dev-server: {e}");
            std::process::exit(2);
        }
    };
    let (db, hooks, stripe) = (config.db.clone(), config.test_hooks, config.stripe_api_base.clone());
    let started = match start(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cirrus-dev-server: {e}");
            std::process::exit(1);
        }
    };
    let origin = format!("http://{}", started.addr);
    println!("Cirrus V1 dev server");
    println!("  base URL : {}", started.base_url);
    println!("  API key  : {}", started.api_key);
    match (started.key_source, &started.key_file) {
        (KeySource::Env, _) => println!("             (from CIRRUS_API_KEY)"),
        (KeySource::File, Some(f)) => println!("             (kept in {})", f.display()),
        (KeySource::Generated, Some(f)) => println!("             (generated, saved to {})", f.display()),
        _ => println!("             (generated for this in-memory run)"),
    }
    println!("  database : {db}");
    println!("  images   : {origin}/static/");
    println!("  processor: {stripe}");
    if hooks {
        println!("  test hooks enabled: {origin}/__test/");
    }
    tokio::select! {
        _ = started.handle => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}
