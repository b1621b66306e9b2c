//! `cirrus-dev-server`: the Cirrus V1 dev server (configuration by environment,
//! see docs/ARCHITECTURE.md).

use cirrus_dev_server::{start, Config, KeySource};

#[tokio::main]
async fn main() {
    if std::env::var_os("CIRRUS_TEST_HOOKS").is_some() {
        eprintln!("cirrus-dev-server: CIRRUS_TEST_HOOKS in the environment is ignored; a test runner passes --test-hooks");
    }
    let config = match Config::from_args_and_env(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cirrus-dev-server: {e}");
            std::process::exit(2);
        }
    };
    let (db, hooks, stripe) = (config.db.clone(), config.test_hooks, config.stripe_api_base.clone());
    let cors = config.cors_origins.join(", ");
    let frontend = config.frontend_domain.clone();
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
    // Never the full key (CONTRACT.md "Transport"): masked, plus the file that holds it.
    let from = match started.key_source {
        KeySource::Env => "from CIRRUS_API_KEY",
        KeySource::File => "kept in the key file",
        KeySource::Generated => "generated",
    };
    println!("  API key  : {} ({from})", cirrus_dev_server::util::mask_key(&started.api_key));
    if let Some(f) = &started.key_file {
        println!("  key file : {} (mode 0600; the full key, your frontend's apiKey)", f.display());
    }
    println!("  CORS     : {cors} (CIRRUS_CORS_ORIGINS)");
    println!("  frontend : {frontend} (CIRRUS_FRONTEND_DOMAIN: the store's frontendDomain, for canonical URLs and JSON-LD)");
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
