//! Catalog, transport and error-row tests over real HTTP (CONTRACT.md).

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use common::{assert_error, cents, spawn, spawn_with};
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn the_store_frontend_domain_is_the_configured_one() {
    assert_eq!(spawn().await.get_json("/store").await["store"]["frontendDomain"], "127.0.0.1:8787", "the seed's by default");
    let s = spawn_with(|c| c.frontend_domain = "https://shop.example:3000".into()).await;
    assert_eq!(s.get_json("/store").await["store"]["frontendDomain"], "https://shop.example:3000");
}

#[tokio::test]
async fn store_has_every_field_and_images_are_served() {
    let s = spawn().await;
    let v = s.get_json("/store").await;
    let store = v["store"].as_object().unwrap();
    assert_eq!(store.len(), 28, "all 28 spec fields");
    assert_eq!(store["defaultCurrency"], "USD");
    for (k, val) in store {
        assert!(!val.is_null(), "{k} filled");
        if let Some(s) = val.as_str() {
            assert!(!s.is_empty(), "{k} non-empty");
        }
    }
    let logo = store["logoUrl"].as_str().unwrap();
    assert!(logo.starts_with(&s.origin), "{logo}");
    let r = s.http.get(logo).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(r.text().await.unwrap().starts_with("<svg"));
    let r = s.http.get(format!("{}/static/products/../../etc/passwd", s.origin)).send().await.unwrap();
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn product_list_defaults_and_limits() {
    let s = spawn().await;
    let v = s.get_json("/products").await;
    assert_eq!(v["products"].as_array().unwrap().len(), 50, "default limit 50");
    assert!(v.get("pagination").is_none(), "no pagination unless asked");
    let v = s.get_json("/products?limit=1").await;
    assert_eq!(v["products"].as_array().unwrap().len(), 1);
    let v = s.get_json("/products?limit=500&includePagination=true").await;
    assert_eq!(v["products"].as_array().unwrap().len(), 120, "the seed has 120 active products");
    assert_eq!(v["pagination"], json!({ "total": 120, "limit": 500, "offset": 0, "hasMore": false }));
    for (q, needle) in [
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("limit=abc", "limit"),
        ("limit=1.5", "limit"),
        ("limit=-1", "limit"),
        ("limit=", "limit"),
        ("offset=-3", "offset"),
        ("offset=x", "offset"),
        ("includePagination=yes", "includePagination"),
        ("minimal=1", "minimal"),
        ("limit=5&limit=6", "limit"),
    ] {
        assert_error(s.get(&format!("/products?{q}")).await, 400, "invalid_request", needle).await;
    }
    let v = s.get_json("/products?offset=119&includePagination=true").await;
    assert_eq!(v["products"].as_array().unwrap().len(), 1);
    assert_eq!(v["pagination"]["hasMore"], false);
    let v = s.get_json("/products?offset=5000").await;
    assert_eq!(v["products"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn paging_is_stable_and_complete() {
    let s = spawn().await;
    let all = s.all_products().await;
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let v = s.get_json(&format!("/products?limit=7&offset={offset}&includePagination=true")).await;
        let page = v["products"].as_array().unwrap();
        seen.extend(page.iter().map(|p| p["id"].as_str().unwrap().to_string()));
        offset += 7;
        assert_eq!(v["pagination"]["total"], 120);
        if v["pagination"]["hasMore"] == false {
            break;
        }
        assert_eq!(page.len(), 7);
    }
    let ids: Vec<String> = all.iter().map(|p| p["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(seen, ids, "pages concatenated equal the one-shot list");
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 120, "every product once");
    // Order: createdAt, then id.
    let keys: Vec<(String, String)> = all.iter().map(|p| (p["createdAt"].as_str().unwrap().into(), p["id"].as_str().unwrap().into())).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(keys.windows(2).any(|w| w[0].0 == w[1].0), "the seed has createdAt ties to exercise the id tie-break");
    assert!(all.iter().all(|p| p["status"] == "ACTIVE"));
}

#[tokio::test]
async fn hidden_products_are_never_returned() {
    // The seed is deterministic: open the same seed directly to find the hidden slugs.
    let conn = cirrus_dev_server::db::open(":memory:", 120, false).unwrap();
    let mut stmt = conn.prepare("SELECT slug, status FROM products WHERE status != 'ACTIVE'").unwrap();
    let hidden: Vec<(String, String)> = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    let statuses: HashSet<&str> = hidden.iter().map(|(_, st)| st.as_str()).collect();
    assert!(statuses.contains("DRAFT") && statuses.contains("ARCHIVED"), "{hidden:?}");
    let s = spawn().await;
    let listed: HashSet<String> = s.all_products().await.iter().map(|p| p["slug"].as_str().unwrap().to_string()).collect();
    let cols = s.get_json("/collections").await;
    let in_cols: HashSet<String> = cols["collections"].as_array().unwrap().iter().flat_map(|c| c["products"].as_array().unwrap().iter().map(|p| p["slug"].as_str().unwrap().to_string())).collect();
    for (slug, _) in &hidden {
        assert!(!listed.contains(slug) && !in_cols.contains(slug), "{slug} leaked");
        assert_error(s.get(&format!("/products/slug/{slug}")).await, 404, "not_found", "slug").await;
    }
}

#[tokio::test]
async fn products_are_complete_and_consistent() {
    let s = spawn().await;
    let all = s.all_products().await;
    let (mut out_of_stock, mut compare_at, mut three_options, mut null_meta) = (0, 0, 0, 0);
    for p in &all {
        let options = p["options"].as_array().unwrap();
        assert!((1..=3).contains(&options.len()));
        three_options += usize::from(options.len() == 3);
        null_meta += usize::from(p["metaTitle"].is_null());
        let names: Vec<&str> = options.iter().map(|o| o["name"].as_str().unwrap()).collect();
        let combos: usize = options.iter().map(|o| o["values"].as_array().unwrap().len()).product();
        let variants = p["variants"].as_array().unwrap();
        assert_eq!(variants.len(), combos, "variants are the options' combinations");
        let mut seen = HashSet::new();
        for v in variants {
            let attrs: BTreeMap<String, String> = serde_json::from_value(v["attributes"].clone()).unwrap();
            assert_eq!(attrs.keys().map(String::as_str).collect::<HashSet<_>>(), names.iter().copied().collect());
            assert!(seen.insert(attrs), "distinct combinations");
            let q = v["stockQuantity"].as_u64().unwrap();
            assert_eq!(v["stockStatus"], if q == 0 { "OUT_OF_STOCK" } else { "IN_STOCK" });
            out_of_stock += usize::from(q == 0);
            let price = cents(v["price"].as_str().unwrap());
            if let Some(c) = v["compareAtPrice"].as_str() {
                compare_at += 1;
                assert!(cents(c) > price);
            }
        }
        assert!(!p["images"].as_array().unwrap().is_empty());
        assert!(!p["collections"].as_array().unwrap().is_empty(), "every product is in a collection");
        for o in options {
            assert_eq!(o["displayStyle"], "dropdown");
        }
    }
    assert!(out_of_stock > 0 && compare_at > 0 && three_options > 0 && null_meta > 0);
    // By slug equals the list entry.
    let first = &all[3];
    let one = s.get_json(&format!("/products/slug/{}", first["slug"].as_str().unwrap())).await;
    assert_eq!(&one["product"], first);
    assert_error(s.get("/products/slug/no-such-thing").await, 404, "not_found", "no-such-thing").await;
}

#[tokio::test]
async fn minimal_products_carry_the_lowest_price() {
    let s = spawn().await;
    let full = s.get_json("/products?limit=40").await;
    let min = s.get_json("/products?limit=40&minimal=true&includePagination=true").await;
    assert_eq!(min["pagination"]["total"], 120);
    for (f, m) in full["products"].as_array().unwrap().iter().zip(min["products"].as_array().unwrap()) {
        let keys: HashSet<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "name", "slug", "images", "tags", "price"].into_iter().collect());
        let lowest = f["variants"].as_array().unwrap().iter().map(|v| cents(v["price"].as_str().unwrap())).min().unwrap();
        assert_eq!(cents(m["price"].as_str().unwrap()), lowest);
        assert_eq!(m["id"], f["id"]);
    }
}

#[tokio::test]
async fn pages_are_seeded() {
    let s = spawn().await;
    let v = s.get_json("/pages").await;
    let slugs: Vec<&str> = v["pages"].as_array().unwrap().iter().map(|p| p["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs, ["about", "shipping", "returns", "faq"]);
    for p in v["pages"].as_array().unwrap() {
        assert_eq!(p.as_object().unwrap().len(), 10);
        assert!(p["content"].as_str().unwrap().len() > 50);
    }
}

#[tokio::test]
async fn collections_form_a_three_level_tree() {
    let s = spawn().await;
    let v = s.get_json("/collections").await;
    let cols = v["collections"].as_array().unwrap();
    let by_id: HashMap<&str, &Value> = cols.iter().map(|c| (c["id"].as_str().unwrap(), c)).collect();
    let mut max_depth = 0;
    let all = s.all_products().await;
    let mut member: HashSet<&str> = HashSet::new();
    for c in cols {
        let crumbs = c["breadcrumb"].as_array().unwrap();
        assert_eq!(crumbs.last().unwrap()["id"], c["id"], "breadcrumb ends with itself");
        assert!(by_id[crumbs[0]["id"].as_str().unwrap()]["parent"].is_null(), "breadcrumb starts at a root");
        if crumbs.len() > 1 {
            assert_eq!(c["parent"], crumbs[crumbs.len() - 2]["id"]);
        } else {
            assert!(c["parent"].is_null());
        }
        max_depth = max_depth.max(crumbs.len());
        for p in c["products"].as_array().unwrap() {
            member.insert(p["id"].as_str().unwrap());
            let full = all.iter().find(|f| f["id"] == p["id"]).expect("only active products");
            let lowest = full["variants"].as_array().unwrap().iter().min_by_key(|v| cents(v["price"].as_str().unwrap())).unwrap();
            assert_eq!(p["price"], lowest["price"]);
            assert_eq!(p["compareAtPrice"], lowest["compareAtPrice"]);
        }
        let one = s.get_json(&format!("/collections/{}", c["id"].as_str().unwrap())).await;
        assert_eq!(&one["collection"], c);
        let one = s.get_json(&format!("/collections/slug/{}", c["slug"].as_str().unwrap())).await;
        assert_eq!(&one["collection"], c);
    }
    assert_eq!(max_depth, 3);
    assert_eq!(member.len(), 120, "every active product is in a collection");
    assert_error(s.get("/collections/col_nope").await, 404, "not_found", "col_nope").await;
    assert_error(s.get("/collections/slug/nope").await, 404, "not_found", "nope").await;
}

#[tokio::test]
async fn auth_rejections() {
    let s = spawn().await;
    let url = format!("{}/store", s.base);
    let cases: [(Option<String>, &str); 6] = [
        (None, "missing"),
        (Some(format!("Basic {}", s.key)), "Bearer"),
        (Some(format!("Token {}", s.key)), "Bearer"),
        (Some("Bearer ak_1234".into()), "malformed"),
        (Some(format!("Bearer {}", s.key.replace("ak_", "sk_"))), "malformed"),
        (Some(format!("Bearer ak_{}", "0".repeat(48))), "unknown"),
    ];
    for (header, needle) in cases {
        let mut r = s.http.get(&url);
        if let Some(h) = &header {
            r = r.header("Authorization", h);
        }
        let v = assert_error(r.send().await.unwrap(), 401, "unauthorized", needle).await;
        assert!(!v["error"].as_str().unwrap().contains(&s.key[3..]), "never the key");
    }
    // Every endpoint requires auth.
    for (m, p) in [(Method::GET, "/products"), (Method::GET, "/pages"), (Method::GET, "/collections"), (Method::POST, "/shipping-rates"), (Method::POST, "/payments/initiate"), (Method::POST, "/payments/update"), (Method::POST, "/payments/confirm")] {
        let r = s.http.request(m, format!("{}{p}", s.base)).send().await.unwrap();
        assert_eq!(r.status(), 401, "{p}");
    }
}

#[tokio::test]
async fn transport_error_rows() {
    let s = spawn().await;
    // 404 for unknown routes, JSON.
    assert_error(s.get("/nope").await, 404, "not_found", "/api/v1/nope").await;
    assert_error(s.http.get(format!("{}/elsewhere", s.origin)).send().await.unwrap(), 404, "not_found", "elsewhere").await;
    assert_error(s.req(Method::DELETE, "/store").send().await.unwrap(), 404, "not_found", "DELETE").await;
    // 415: POST without JSON content type.
    let r = s.req(Method::POST, "/shipping-rates").header("Content-Type", "text/plain").body("{}").send().await.unwrap();
    assert_error(r, 415, "unsupported_media_type", "application/json").await;
    let r = s.req(Method::POST, "/payments/initiate").body("{}").send().await.unwrap();
    assert_error(r, 415, "unsupported_media_type", "application/json").await;
    // 413: over 64 KiB.
    let big = json!({ "variantIds": vec!["x".repeat(100); 700], "country": "US" });
    assert_error(s.post("/shipping-rates", &big).await, 413, "payload_too_large", "64 KiB").await;
    // 400: bad JSON, wrong types, missing fields name the field.
    let r = s.req(Method::POST, "/shipping-rates").header("Content-Type", "application/json").body("{not json").send().await.unwrap();
    assert_error(r, 400, "invalid_request", "JSON").await;
    assert_error(s.post("/shipping-rates", &json!({ "variantIds": ["a"] })).await, 400, "invalid_request", "country").await;
    assert_error(s.post("/payments/initiate", &json!({ "items": [{ "variantId": "a", "quantity": -1 }], "currency": "USD" })).await, 400, "invalid_request", "items[0].quantity").await;
    assert_error(s.post("/payments/initiate", &json!({ "items": [{ "variantId": "a", "quantity": 1.5 }], "currency": "USD" })).await, 400, "invalid_request", "items[0].quantity").await;
    // x-request-id on success too, unique.
    let a = s.get("/pages").await.headers()["x-request-id"].to_str().unwrap().to_string();
    let b = s.get("/pages").await.headers()["x-request-id"].to_str().unwrap().to_string();
    assert_ne!(a, b);
}

#[tokio::test]
async fn cors_preflight_and_headers() {
    let s = spawn().await;
    let pre = |origin: &'static str| {
        s.http
            .request(Method::OPTIONS, format!("{}/payments/initiate", s.base))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "authorization, content-type")
            .send()
    };
    let r = pre("http://allowed.example").await.unwrap();
    assert_eq!(r.status(), 204);
    assert_eq!(r.headers()["access-control-allow-origin"], "http://allowed.example");
    let allow = r.headers()["access-control-allow-headers"].to_str().unwrap().to_lowercase();
    assert!(allow.contains("authorization") && allow.contains("content-type"));
    assert!(r.headers()["access-control-allow-methods"].to_str().unwrap().contains("POST"));
    let r = pre("http://evil.example").await.unwrap();
    assert!(r.headers().get("access-control-allow-origin").is_none());
    let r = s.req(Method::GET, "/store").header("Origin", "http://allowed.example").send().await.unwrap();
    assert_eq!(r.headers()["access-control-allow-origin"], "http://allowed.example");
    assert!(r.headers()["access-control-expose-headers"].to_str().unwrap().contains("x-request-id"));
    // Even errors carry CORS headers, so a browser can read them.
    let r = s.http.get(format!("{}/store", s.base)).header("Origin", "http://allowed.example").send().await.unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(r.headers()["access-control-allow-origin"], "http://allowed.example");
    let any = spawn_with(|c| c.cors_origins = vec!["*".into()]).await;
    let r = any.req(Method::GET, "/store").header("Origin", "http://whatever.example").send().await.unwrap();
    assert_eq!(r.headers()["access-control-allow-origin"], "http://whatever.example");
}

#[tokio::test]
async fn rate_limit_answers_429_with_retry_after() {
    // Orderings and bounds derived from the measured time, no wall-clock limit: on two
    // loaded cores the requests may be slow, which only lets the bucket refill more.
    let rate = 2.0;
    let s = spawn_with(|c| c.rate_limit = 2).await;
    let t0 = Instant::now();
    let mut ok = 0u32;
    let limited = loop {
        let r = s.get("/pages").await;
        if r.status() == 429 {
            break r;
        }
        assert_eq!(r.status(), 200);
        ok += 1;
        assert!(ok < 1_000, "the limiter never answered 429");
    };
    let elapsed = t0.elapsed().as_secs_f64();
    assert!(ok >= 4, "a burst of twice the rate passes first: {ok}");
    assert!(f64::from(ok) <= 2.0 * rate + rate * elapsed + 1.0, "no more than burst + refill: {ok} in {elapsed:.2} s");
    let retry: u64 = limited.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1);
    assert_error(limited, 429, "rate_limited", "rate limit").await;
    // Waiting as told (plus slack) always refills.
    tokio::time::sleep(Duration::from_millis(retry * 1000 + 200)).await;
    assert_eq!(s.get("/pages").await.status(), 200, "refills");
}

#[tokio::test]
async fn framework_rejections_are_contract_json() {
    let s = spawn().await;
    // Bad path encodings (axum answered text/plain "Invalid URL" before).
    assert_error(s.get("/products/slug/%FF").await, 400, "invalid_request", "path").await;
    assert_error(s.get("/collections/%FF%FE").await, 400, "invalid_request", "path").await;
    assert_error(s.get("/collections/slug/%C3").await, 400, "invalid_request", "path").await;
    assert_error(s.http.get(format!("{}/static/products/%FF.svg", s.origin)).send().await.unwrap(), 400, "invalid_request", "path").await;
    // Unknown route, method not allowed, bad JSON, bad query, wrong JSON shape.
    assert_error(s.get("/products/slug").await, 404, "not_found", "no route").await;
    assert_error(s.req(Method::PUT, "/store").send().await.unwrap(), 404, "not_found", "PUT").await;
    assert_error(s.req(Method::PATCH, "/payments/confirm").send().await.unwrap(), 404, "not_found", "PATCH").await;
    let r = s.req(Method::POST, "/payments/confirm").header("Content-Type", "application/json").body("[1,2]").send().await.unwrap();
    assert_error(r, 400, "invalid_request", "").await;
    let r = s.req(Method::POST, "/payments/update").header("Content-Type", "application/json").body(vec![0xFF, 0xFE]).send().await.unwrap();
    assert_error(r, 400, "invalid_request", "JSON").await;
    assert_error(s.get("/products?limit=%FF").await, 400, "invalid_request", "limit").await;
    assert_error(s.get("/products?offset=1&offset=2").await, 400, "invalid_request", "offset").await;
}

#[tokio::test]
async fn thousands_of_query_parameters_are_a_fast_400() {
    let s = spawn().await;
    let many: Vec<String> = (0..5_000).map(|i| format!("p{i}=1")).collect();
    let r = s.get(&format!("/products?{}", many.join("&"))).await;
    assert_error(r, 400, "invalid_request", "query").await;
    // A few unknown parameters are still ignored.
    let few: Vec<String> = (0..20).map(|i| format!("p{i}=1")).collect();
    assert_eq!(s.get(&format!("/products?limit=1&{}", few.join("&"))).await.status(), 200);
}

#[tokio::test]
async fn the_demo_page_has_security_headers() {
    let dir = std::env::temp_dir().join(format!("cirrus-www-{}", common::random_key()));
    std::fs::create_dir_all(&dir).unwrap();
    let csp = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval' http://127.0.0.1:8420; connect-src 'self'";
    std::fs::write(dir.join("index.html"), format!("<!doctype html><html><head>\n  <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n</head><body></body></html>")).unwrap();
    std::fs::write(dir.join("app.js"), "console.log(1)").unwrap();
    std::fs::write(dir.join("plain.html"), "<!doctype html><title>no policy</title>").unwrap();
    let d = dir.clone();
    let s = spawn_with(move |c| c.www_dir = Some(d)).await;
    for path in ["/", "/index.html"] {
        let r = s.http.get(format!("{}{path}", s.origin)).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let h = r.headers();
        assert_eq!(h["content-security-policy"], format!("{csp}; frame-ancestors 'none'").as_str(), "the page's CSP as a header, no framing");
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin");
        assert_eq!(h["x-frame-options"], "DENY");
    }
    let r = s.http.get(format!("{}/app.js", s.origin)).send().await.unwrap();
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    assert!(r.headers()["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
    // A page without a policy of its own is only kept out of frames.
    let r = s.http.get(format!("{}/plain.html", s.origin)).send().await.unwrap();
    assert_eq!(r.headers()["content-security-policy"], "frame-ancestors 'none'");
    // API answers are never sniffed either.
    assert_eq!(s.get("/store").await.headers()["x-content-type-options"], "nosniff");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn shipping_rates_by_profile_country_and_total() {
    let s = spawn().await;
    let all = s.all_products().await;
    let variant_of = |tag: &str| -> String {
        let p = all.iter().find(|p| p["tags"][0] == tag).unwrap_or_else(|| panic!("a {tag} product"));
        p["variants"][0]["id"].as_str().unwrap().to_string()
    };
    let (shirt, mug, tent) = (variant_of("t-shirts"), variant_of("mugs"), variant_of("tents"));
    let rates = |v: Value| -> Vec<Vec<String>> {
        v["variantRates"].as_array().unwrap().iter().map(|vr| vr["rates"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect()).collect()
    };
    let v = s.post_json("/shipping-rates", &json!({ "variantIds": [shirt, mug, tent], "country": "US" })).await;
    let r = rates(v.clone());
    assert_eq!(r[0], ["rate_us_standard", "rate_us_free", "rate_us_express"]);
    assert_eq!(r[1], ["rate_us_standard", "rate_us_free", "rate_us_express", "rate_us_economy"]);
    assert_eq!(r[2], ["rate_us_standard", "rate_us_free", "rate_us_freight"]);
    assert_eq!(v["variantRates"][0]["profileId"], "prof_standard");
    assert_eq!(v["variantRates"][2]["profileId"], "prof_bulky");
    let std_rate = &v["variantRates"][0]["rates"][0];
    assert_eq!(std_rate["price"], "5.99");
    assert_eq!(std_rate["minOrderPrice"], Value::Null);
    assert_eq!(std_rate["maxOrderPrice"], "99.99");
    assert!(std_rate["deliveryTimeframeMin"].as_u64().unwrap() <= std_rate["deliveryTimeframeMax"].as_u64().unwrap());
    // orderTotal keeps rates whose band holds it (bounds inclusive).
    let r = rates(s.post_json("/shipping-rates", &json!({ "variantIds": [mug], "country": "US", "orderTotal": 30 })).await);
    assert_eq!(r[0], ["rate_us_standard", "rate_us_express", "rate_us_economy"]);
    let r = rates(s.post_json("/shipping-rates", &json!({ "variantIds": [mug], "country": "US", "orderTotal": 99.99 })).await);
    assert_eq!(r[0], ["rate_us_standard", "rate_us_express"]);
    let r = rates(s.post_json("/shipping-rates", &json!({ "variantIds": [mug], "country": "US", "orderTotal": 100 })).await);
    assert_eq!(r[0], ["rate_us_free", "rate_us_express"]);
    let r = rates(s.post_json("/shipping-rates", &json!({ "variantIds": [mug], "country": "US", "orderTotal": 0 })).await);
    assert_eq!(r[0], ["rate_us_standard", "rate_us_express", "rate_us_economy"]);
    // Five-plus countries; every mix of profiles shares a rate in each.
    for cc in ["US", "CA", "GB", "DE", "FR", "AU"] {
        let r = rates(s.post_json("/shipping-rates", &json!({ "variantIds": [shirt, mug, tent], "country": cc })).await);
        let common: HashSet<&String> = r[0].iter().filter(|id| r[1].contains(id) && r[2].contains(id)).collect();
        assert!(common.len() >= 2, "{cc}: {r:?}");
        assert!(r.iter().flatten().all(|id| id.starts_with(&format!("rate_{}_", cc.to_lowercase()))));
    }
    let r = rates(s.post_json("/shipping-rates", &json!({ "variantIds": [shirt], "country": "JP" })).await);
    assert!(r[0].is_empty(), "no shipping to JP");
    assert_error(s.post("/shipping-rates", &json!({ "variantIds": ["var_nope"], "country": "US" })).await, 404, "not_found", "var_nope").await;
    assert_error(s.post("/shipping-rates", &json!({ "variantIds": [], "country": "US" })).await, 400, "invalid_request", "variantIds").await;
    assert_error(s.post("/shipping-rates", &json!({ "variantIds": vec![shirt.clone(); 251], "country": "US" })).await, 400, "invalid_request", "variantIds").await;
    assert_error(s.post("/shipping-rates", &json!({ "variantIds": [shirt], "country": "us" })).await, 400, "invalid_request", "country").await;
    assert_error(s.post("/shipping-rates", &json!({ "variantIds": [shirt], "country": "US", "orderTotal": -1 })).await, 400, "invalid_request", "orderTotal").await;
    assert_error(s.post("/shipping-rates", &json!({ "variantIds": [shirt], "country": "US", "orderTotal": "10" })).await, 400, "invalid_request", "orderTotal").await;
}

#[tokio::test]
async fn test_hooks_are_off_by_default() {
    let s = spawn().await;
    let r = s.http.post(format!("{}/__test/faults", s.origin)).json(&json!({ "method": "GET", "path": "/api/v1/store", "kind": "status", "status": 500 })).send().await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(s.get("/store").await.status(), 200);
    assert_error(s.get("/products/slug/xss-probe").await, 404, "not_found", "xss-probe").await;
}

#[tokio::test]
async fn fault_hooks() {
    let s = spawn_with(|c| c.test_hooks = true).await;
    let arm = |body: Value| s.http.post(format!("{}/__test/faults", s.origin)).json(&body).send();
    // status 500 (the `internal` row), twice, then disarmed.
    assert_eq!(arm(json!({ "method": "GET", "path": "/api/v1/store", "kind": "status", "status": 500, "times": 2 })).await.unwrap().status(), 204);
    assert_error(s.get("/store").await, 500, "internal", "fault").await;
    assert_error(s.get("/store").await, 500, "internal", "fault").await;
    assert_eq!(s.get("/store").await.status(), 200);
    // 503 and 429 carry Retry-After.
    arm(json!({ "method": "GET", "path": "/api/v1/pages", "kind": "status", "status": 503, "retryAfter": 3 })).await.unwrap();
    let r = s.get("/pages").await;
    assert_eq!(r.headers()["retry-after"], "3");
    assert_error(r, 503, "internal", "fault").await;
    arm(json!({ "method": "GET", "path": "/api/v1/pages", "kind": "status", "status": 429, "retryAfter": 2 })).await.unwrap();
    let r = s.get("/pages?x=1").await;
    assert_eq!(r.headers()["retry-after"], "2");
    assert_error(r, 429, "rate_limited", "fault").await;
    // truncated: the real body cut in half.
    let full = s.get("/pages").await.bytes().await.unwrap();
    arm(json!({ "method": "GET", "path": "/api/v1/pages", "kind": "truncated" })).await.unwrap();
    let r = s.get("/pages").await;
    assert_eq!(r.status(), 200);
    let cut = r.bytes().await.unwrap();
    assert_eq!(cut.len(), full.len() / 2);
    assert!(serde_json::from_slice::<Value>(&cut).is_err());
    // slow.
    arm(json!({ "method": "GET", "path": "/api/v1/pages", "kind": "slow", "delayMs": 300 })).await.unwrap();
    let t = Instant::now();
    assert_eq!(s.get("/pages").await.status(), 200);
    assert!(t.elapsed() >= Duration::from_millis(300));
    // method must match; DELETE disarms all.
    arm(json!({ "method": "POST", "path": "/api/v1/store", "kind": "status", "status": 500 })).await.unwrap();
    assert_eq!(s.get("/store").await.status(), 200);
    arm(json!({ "method": "GET", "path": "/api/v1/store", "kind": "status", "status": 500, "times": 5 })).await.unwrap();
    assert_eq!(s.http.delete(format!("{}/__test/faults", s.origin)).send().await.unwrap().status(), 204);
    assert_eq!(s.get("/store").await.status(), 200);
    // Bad fault bodies.
    assert_error(arm(json!({ "method": "GET", "path": "/x", "kind": "explode" })).await.unwrap(), 400, "invalid_request", "kind").await;
    assert_error(arm(json!({ "method": "GET", "path": "x", "kind": "slow" })).await.unwrap(), 400, "invalid_request", "path").await;
    // The xss probe exists with hooks on, in a root collection.
    let p = s.get_json("/products/slug/xss-probe").await;
    assert!(p["product"]["description"].as_str().unwrap().contains("<script>window.__xss=1</script>"));
    let col = s.get_json(&format!("/collections/{}", p["product"]["collections"][0]["id"].as_str().unwrap())).await;
    assert!(col["collection"]["parent"].is_null());
    let orders = s.http.get(format!("{}/__test/orders", s.origin)).send().await.unwrap().json::<Value>().await.unwrap();
    assert_eq!(orders, json!({ "orders": [] }));
}
