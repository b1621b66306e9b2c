//! The demo page's serving (`server/src/www.rs`): store paths answered with the page,
//! compression, cache lifetimes and revalidation.

mod common;

use std::io::Read;

use common::spawn_with;

struct Site {
    dir: std::path::PathBuf,
    s: common::Server,
}

const WASM_NAME: &str = "assets/sdk_bg-0123456789ab.wasm";

async fn site() -> Site {
    let dir = std::env::temp_dir().join(format!("cirrus-www-{}", common::random_key()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    let page = format!("<!doctype html><html><head><title>t</title></head><body>{}</body></html>", "<p>the page</p>".repeat(80));
    std::fs::write(dir.join("index.html"), page).unwrap();
    std::fs::write(dir.join("assets/app-ABCDEFGH.js"), "console.log('app');\n".repeat(100)).unwrap();
    // wasm-like bytes: compressible, like the real one
    std::fs::write(dir.join(WASM_NAME), (0..20_000u32).map(|i| (i % 7) as u8).collect::<Vec<u8>>()).unwrap();
    let d = dir.clone();
    let s = spawn_with(move |c| c.www_dir = Some(d)).await;
    Site { dir, s }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn get(s: &common::Server, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut r = s.http.get(format!("{}{path}", s.origin));
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    r.send().await.unwrap()
}

fn unbrotli(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(b, 4096).read_to_end(&mut out).unwrap();
    out
}

fn gunzip(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b).read_to_end(&mut out).unwrap();
    out
}

#[tokio::test]
async fn store_paths_are_answered_with_the_page_and_unknown_ones_are_404() {
    let site = site().await;
    let s = &site.s;
    let products = s.all_products().await;
    let slug = products[0]["slug"].as_str().unwrap().to_string();
    let collections = s.get_json("/collections").await;
    let coll = collections["collections"][0]["slug"].as_str().unwrap().to_string();
    let page = s.get_json("/pages").await["pages"][0]["slug"].as_str().unwrap().to_string();
    let index = std::fs::read_to_string(site.dir.join("index.html")).unwrap();
    let body_of = |html: &str| html[html.find("<body>").unwrap()..].to_string();
    for path in ["/".to_string(), format!("/products/{slug}"), format!("/collections/{coll}"), format!("/pages/{page}"), "/checkout".into(), "/order".into()] {
        let r = get(s, &path, &[]).await;
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        let html = r.text().await.unwrap();
        assert_eq!(body_of(&html), body_of(&index), "{path} is the page");
        // The view's head, rendered by the SDK core: one title, a canonical URL, JSON-LD.
        if !path.starts_with("/checkout") && !path.starts_with("/order") {
            assert_eq!(html.matches("<title>").count(), 1, "{path}: {html}");
            assert!(html.contains(&format!("<link rel=\"canonical\" href=\"http://127.0.0.1:8787{path}\">")), "{path}: {html}");
            assert!(html.contains("<script type=\"application/ld+json\">"), "{path}");
        }
    }
    // The product's JSON-LD: a Product with its offers.
    let html = get(s, &format!("/products/{slug}"), &[]).await.text().await.unwrap();
    let at = html.find("<script type=\"application/ld+json\">").unwrap() + "<script type=\"application/ld+json\">".len();
    let ld: serde_json::Value = serde_json::from_str(&html[at..at + html[at..].find("</script>").unwrap()]).unwrap();
    assert_eq!(ld["@type"], "Product", "{ld}");
    assert_eq!(ld["name"], products[0]["name"]);
    assert!(html.contains(&format!("<title>{}", products[0]["name"].as_str().unwrap())), "{html}");
    // Unknown views: the page (it says "not found") with status 404.
    for path in ["/products/no-such-product", "/collections/nope", "/pages/nope", "/nowhere", "/products/a/b"] {
        let r = get(s, path, &[]).await;
        assert_eq!(r.status(), 404, "{path}");
        assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        assert_eq!(r.text().await.unwrap(), index, "{path} is the page");
    }
    // A missing file, the API and other methods keep the JSON 404.
    for (method, path) in [("GET", "/missing.js"), ("GET", "/api/v1/nope"), ("POST", "/products/x"), ("GET", "/assets/nope.wasm")] {
        let r = s.http.request(method.parse().unwrap(), format!("{}{path}", s.origin)).send().await.unwrap();
        assert_eq!(r.status(), 404, "{method} {path}");
        assert!(r.headers()["content-type"].to_str().unwrap().starts_with("application/json"), "{method} {path}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["code"], "not_found", "{method} {path}: {body}");
    }
}

#[tokio::test]
async fn files_are_compressed_cached_by_hash_and_revalidated() {
    let site = site().await;
    let s = &site.s;
    let wasm = std::fs::read(site.dir.join(WASM_NAME)).unwrap();
    let path = format!("/{WASM_NAME}");
    let r = get(s, &path, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-encoding"], "br");
    assert_eq!(r.headers()["content-type"], "application/wasm");
    assert_eq!(r.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert!(r.headers()["vary"].to_str().unwrap().contains("Accept-Encoding"));
    let body = r.bytes().await.unwrap();
    assert!(body.len() < wasm.len() / 4, "compressed: {} of {}", body.len(), wasm.len());
    assert_eq!(unbrotli(&body), wasm);
    let r = get(s, &path, &[("accept-encoding", "gzip")]).await;
    assert_eq!(r.headers()["content-encoding"], "gzip");
    assert_eq!(gunzip(&r.bytes().await.unwrap()), wasm);
    let r = get(s, &path, &[("accept-encoding", "br;q=0, identity")]).await;
    assert!(r.headers().get("content-encoding").is_none());
    assert_eq!(r.bytes().await.unwrap(), wasm);

    // The page: revalidated every time, 304 while unchanged.
    let r = get(s, "/products/anything", &[]).await;
    assert_eq!(r.headers()["cache-control"], "no-cache");
    let r = get(s, "/", &[("accept-encoding", "br")]).await;
    assert_eq!(r.headers()["cache-control"], "no-cache");
    assert_eq!(r.headers()["content-encoding"], "br");
    let etag = r.headers()["etag"].to_str().unwrap().to_string();
    let r = get(s, "/", &[("if-none-match", &etag)]).await;
    assert_eq!(r.status(), 304);
    assert!(r.bytes().await.unwrap().is_empty());
    let r = get(s, "/", &[("if-none-match", "\"other\"")]).await;
    assert_eq!(r.status(), 200);
    // The app's JSON, compressed on the fly.
    let r = s.http.get(format!("{}/products?limit=50", s.base)).bearer_auth(&s.key).header("accept-encoding", "br").send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-encoding"], "br");
    let json: serde_json::Value = serde_json::from_slice(&unbrotli(&r.bytes().await.unwrap())).unwrap();
    assert_eq!(json["products"].as_array().unwrap().len(), 50);
    let r = s.http.get(format!("{}/store", s.base)).bearer_auth(&s.key).send().await.unwrap();
    assert!(r.headers().get("content-encoding").is_none(), "nothing compressed unasked");
}
