//! Shared helpers: an in-process server on an ephemeral loopback port with an
//! in-memory database, and a small HTTP client around it.
#![allow(dead_code)]

pub mod pay;

use cirrus_dev_server::{start, Config};
use reqwest::{Client, Method, Response};
use serde_json::Value;

#[derive(Clone)]
pub struct Server {
    pub base: String,
    pub origin: String,
    pub key: String,
    pub http: Client,
}

pub fn random_key() -> String {
    let mut b = [0u8; 24];
    getrandom::getrandom(&mut b).unwrap();
    format!("ak_{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
}

/// localstripe's base URL from `LOCALSTRIPE_URL`; payment tests cannot run without it.
pub fn localstripe() -> String {
    std::env::var("LOCALSTRIPE_URL").expect(
        "LOCALSTRIPE_URL is not set: payment tests need a real localstripe. \
         Run scripts/test.d/20-server.sh (it starts one), or start_localstripe 18420 from scripts/lib.sh",
    )
}

pub async fn spawn_with(f: impl FnOnce(&mut Config)) -> Server {
    let mut c = Config {
        addr: "127.0.0.1:0".into(),
        db: ":memory:".into(),
        api_key: Some(random_key()),
        rate_limit: 0,
        cors_origins: vec!["http://allowed.example".into()],
        stripe_api_base: std::env::var("LOCALSTRIPE_URL").unwrap_or_else(|_| "http://127.0.0.1:9".into()),
        ..Config::default()
    };
    f(&mut c);
    let s = start(c).await.expect("server starts");
    Server {
        base: s.base_url.clone(),
        origin: format!("http://{}", s.addr),
        key: s.api_key,
        http: Client::builder().build().unwrap(),
    }
}

pub async fn spawn() -> Server {
    spawn_with(|_| {}).await
}

impl Server {
    pub fn req(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("{}{path}", self.base)).bearer_auth(&self.key)
    }
    pub async fn get(&self, path: &str) -> Response {
        self.req(Method::GET, path).send().await.unwrap()
    }
    pub async fn get_json(&self, path: &str) -> Value {
        let r = self.get(path).await;
        assert_eq!(r.status(), 200, "GET {path}");
        r.json().await.unwrap()
    }
    pub async fn post(&self, path: &str, body: &Value) -> Response {
        self.req(Method::POST, path).json(body).send().await.unwrap()
    }
    pub async fn post_json(&self, path: &str, body: &Value) -> Value {
        let r = self.post(path, body).await;
        let status = r.status();
        let v: Value = r.json().await.unwrap();
        assert_eq!(status, 200, "POST {path}: {v}");
        v
    }
    /// Every ACTIVE product, in list order.
    pub async fn all_products(&self) -> Vec<Value> {
        self.get_json("/products?limit=500").await["products"].as_array().unwrap().clone()
    }
}

/// Asserts a contract error: status, code, and that the message mentions `needle`.
pub async fn assert_error(r: Response, status: u16, code: &str, needle: &str) -> Value {
    assert_eq!(r.status().as_u16(), status, "status");
    assert!(r.headers().contains_key("x-request-id"), "x-request-id on errors");
    let ct = r.headers().get("content-type").unwrap().to_str().unwrap().to_string();
    assert!(ct.starts_with("application/json"), "{ct}");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], code, "{v}");
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains(needle), "message {msg:?} should mention {needle:?}");
    assert_eq!(v.as_object().unwrap().len(), 2, "only error and code: {v}");
    v
}

/// Decimal string "12.34" to cents, exactly.
pub fn cents(s: &str) -> i64 {
    let (whole, frac) = s.split_once('.').unwrap();
    assert_eq!(frac.len(), 2, "{s}");
    whole.parse::<i64>().unwrap() * 100 + frac.parse::<i64>().unwrap()
}

/// Runs the built binary with only `CIRRUS_ADDR`, `CIRRUS_DB` (in memory) and
/// `var=value` in its environment; it must stop with exit code 2 (a
/// configuration error). Returns its stderr.
pub fn binary_refuses(var: &str, value: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cirrus-dev-server"))
        .env_clear()
        .env("CIRRUS_ADDR", "127.0.0.1:0")
        .env("CIRRUS_DB", ":memory:")
        .env(var, value)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{var}={value}: {err}");
    err
}
