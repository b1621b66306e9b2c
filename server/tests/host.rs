//! The dev server answers its own host only (CONTRACT.md "Payments"): a page
//! elsewhere that rebinds a name of its own to 127.0.0.1 sends that name as
//! `Host`, and is refused with the contract's JSON error; `localhost`, IP
//! addresses at the served port and the names of `CIRRUS_ALLOWED_HOSTS` are served.

mod common;

use common::{assert_error, binary_refuses, spawn, spawn_with, Server};
use reqwest::{Method, RequestBuilder};

fn port(s: &Server) -> &str {
    s.origin.rsplit(':').next().unwrap()
}

/// `method` `url` with `Host: host` (and the API key).
fn with_host(s: &Server, method: Method, url: &str, host: &str) -> RequestBuilder {
    s.http.request(method, url).bearer_auth(&s.key).header("host", host)
}

#[tokio::test]
async fn a_foreign_host_is_refused_everywhere() {
    let s = spawn_with(|c| c.test_hooks = true).await;
    let p = port(&s).to_string();
    let store = format!("{}/store", s.base);
    for host in [format!("evil.example:{p}"), "evil.example".into(), format!("127.0.0.1.nip.io:{p}"), format!("localhost:{}", p.parse::<u16>().unwrap() ^ 1)] {
        let r = with_host(&s, Method::GET, &store, &host).send().await.unwrap();
        let v = assert_error(r, 400, "invalid_request", "Host").await;
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains(&host) && msg.contains("CIRRUS_ALLOWED_HOSTS"), "names the host and the way to allow it: {msg}");
    }
    // Not only the API: the images, the test hooks, a payment, a CORS preflight.
    let evil = format!("evil.example:{p}");
    for (m, url) in [
        (Method::GET, format!("{}/static/brand/logo.svg", s.origin)),
        (Method::GET, format!("{}/__test/orders", s.origin)),
        (Method::POST, format!("{}/payments/initiate", s.base)),
        (Method::GET, format!("{}/nope", s.origin)),
    ] {
        let r = with_host(&s, m.clone(), &url, &evil).json(&serde_json::json!({})).send().await.unwrap();
        assert_error(r, 400, "invalid_request", "Host").await;
    }
    let r = s
        .http
        .request(Method::OPTIONS, &store)
        .header("host", &evil)
        .header("origin", format!("http://{evil}"))
        .header("access-control-request-method", "GET")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400, "a preflight from the rebound name is refused too");
    assert!(r.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn own_addresses_are_served() {
    let s = spawn().await;
    let p = port(&s).to_string();
    let store = format!("{}/store", s.base);
    for host in [format!("127.0.0.1:{p}"), format!("localhost:{p}"), format!("LocalHost:{p}"), format!("[::1]:{p}"), format!("127.0.0.2:{p}")] {
        let r = with_host(&s, Method::GET, &store, &host).send().await.unwrap();
        assert_eq!(r.status(), 200, "Host {host}");
    }
    // As every client of the repo sends it: the URL's own host.
    assert_eq!(s.get("/store").await.status(), 200);
}

#[tokio::test]
async fn configured_names_are_served() {
    let s = spawn_with(|c| c.allowed_hosts = vec!["shop.test".into(), "dev.example:3000".into()]).await;
    let store = format!("{}/store", s.base);
    for host in ["shop.test", "shop.test:443", "dev.example:3000"] {
        assert_eq!(with_host(&s, Method::GET, &store, host).send().await.unwrap().status(), 200, "Host {host}");
    }
    for host in ["dev.example:3001", "shop.test.evil.example", "evil.example"] {
        let r = with_host(&s, Method::GET, &store, host).send().await.unwrap();
        assert_error(r, 400, "invalid_request", "shop.test, dev.example:3000").await;
    }
    let any = spawn_with(|c| c.allowed_hosts = vec!["*".into()]).await;
    let r = with_host(&any, Method::GET, &format!("{}/store", any.base), "anything.example").send().await.unwrap();
    assert_eq!(r.status(), 200, "* serves any host");
}

#[test]
fn a_bad_allowed_hosts_entry_stops_the_binary_with_its_name() {
    for (value, needle) in [("http://shop.test", "is a URL"), ("shop.test,sh op", "\"sh op\" has characters")] {
        let err = binary_refuses("CIRRUS_ALLOWED_HOSTS", value);
        assert!(err.contains("CIRRUS_ALLOWED_HOSTS") && err.contains(needle), "{err}");
    }
}
