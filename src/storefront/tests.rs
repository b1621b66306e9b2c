//! Unit tests of the storefront helpers (property tests in `props.rs`).

use serde_json::Value;

use super::fixtures::{product, store, tee, variant};
use super::routes::absolute_url;
use super::seo::{cap, plain_text, DESCRIPTION_MAX};
use super::*;
use crate::error::ErrorCode;
use super::input::{self, Collection, Page};
use crate::model::{CollectionRef, Image};

fn sel(pairs: &[(&str, &str)]) -> OptionSelection {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

/// `(value, exists, available, selected)` of every value of option `name`.
fn states(m: &OptionMatrix, name: &str) -> Vec<(String, bool, bool, bool)> {
    let o = m.options.iter().find(|o| o.name == name).unwrap();
    o.values.iter().map(|v| (v.value.clone(), v.exists, v.available, v.selected)).collect()
}

fn s(v: &str, exists: bool, available: bool, selected: bool) -> (String, bool, bool, bool) {
    (v.to_owned(), exists, available, selected)
}

#[test]
fn empty_selection_gives_every_value_by_stock() {
    let m = product_options(&tee(), &sel(&[])).unwrap();
    assert_eq!(m.options.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(), ["Size", "Color"]);
    assert_eq!(states(&m, "Size"), [s("S", true, true, false), s("M", true, true, false), s("L", true, true, false)]);
    assert_eq!(states(&m, "Color"), [s("Red", true, true, false), s("Blue", true, true, false)]);
    assert_eq!(m.selected_variant, None);
    assert_eq!(m.first_available_variant.unwrap().id, "v_s_red");
}

#[test]
fn other_selections_narrow_existence_and_stock() {
    let p = tee();
    // Size S: only S-Red exists. Color's values depend on Size; Size's on nothing (Color unselected).
    let m = product_options(&p, &sel(&[("Size", "S")])).unwrap();
    assert_eq!(states(&m, "Color"), [s("Red", true, true, false), s("Blue", false, false, false)]);
    assert_eq!(states(&m, "Size"), [s("S", true, true, true), s("M", true, true, false), s("L", true, true, false)]);
    assert_eq!(m.selected_variant, None, "Color is not selected");
    // Color Red: M-Red is sold out, so M is there but not available with Red.
    let m = product_options(&p, &sel(&[("Color", "Red")])).unwrap();
    assert_eq!(states(&m, "Size"), [s("S", true, true, false), s("M", true, false, false), s("L", true, true, false)]);
    // Color Blue: S-Blue does not exist, L-Blue is sold out.
    let m = product_options(&p, &sel(&[("Color", "Blue")])).unwrap();
    assert_eq!(states(&m, "Size"), [s("S", false, false, false), s("M", true, true, false), s("L", true, false, false)]);
}

#[test]
fn a_full_selection_names_its_variant_and_each_value_its_neighbour() {
    let p = tee();
    let m = product_options(&p, &sel(&[("Size", "M"), ("Color", "Red")])).unwrap();
    assert_eq!(m.selected_variant.as_ref().unwrap().id, "v_m_red");
    let size = &m.options[0].values;
    assert_eq!(size.iter().map(|v| v.variant_id.as_deref()).collect::<Vec<_>>(), [Some("v_s_red"), Some("v_m_red"), Some("v_l_red")]);
    assert_eq!(size[2].selection, sel(&[("Size", "L"), ("Color", "Red")]));
    let color = &m.options[1].values;
    assert_eq!(color[1].variant_id.as_deref(), Some("v_m_blue"));
    // A combination that does not exist names nothing.
    let m = product_options(&p, &sel(&[("Size", "S"), ("Color", "Blue")])).unwrap();
    assert_eq!(m.selected_variant, None);
}

#[test]
fn options_and_values_follow_position_not_array_order() {
    let mut p = tee();
    p.options.reverse();
    p.options[0].values.reverse();
    let m = product_options(&p, &sel(&[])).unwrap();
    assert_eq!(m.options[0].name, "Size");
    assert_eq!(m.options[1].values.iter().map(|v| v.value.as_str()).collect::<Vec<_>>(), ["Red", "Blue"]);
}

#[test]
fn no_options_names_the_first_variant_and_sold_out_has_no_first_available() {
    let p = product(&[], vec![variant("only", &[], 0)]);
    let m = product_options(&p, &sel(&[])).unwrap();
    assert_eq!(m.selected_variant.unwrap().id, "only");
    assert!(m.first_available_variant.is_none());
    assert!(m.options.is_empty());
}

#[test]
fn bad_selections_are_invalid_arguments_naming_the_problem() {
    let e = product_options(&tee(), &sel(&[("Colour", "Red")])).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert_eq!(e.message, "selection: product \"trail-tee\" has no option \"Colour\" (its options: \"Size\", \"Color\")");
    let e = product_options(&tee(), &sel(&[("Size", "XXL")])).unwrap_err();
    assert_eq!(e.message, "selection.Size: \"XXL\" is not a value of option \"Size\" of product \"trail-tee\"");
    let e = variant_selection(&tee(), "v_nope").unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (ErrorCode::InvalidArgument, "variantId: product \"trail-tee\" has no variant \"v_nope\""));
}

#[test]
fn the_default_selection_names_the_first_variant_in_stock() {
    let mut p = tee();
    p.variants[0] = variant("v_s_red", &[("Size", "S"), ("Color", "Red")], 0); // sold out: v_m_blue is the first in stock
    let m = product_options(&p, &default_selection(&p)).unwrap();
    assert_eq!(m.selected_variant.map(|v| v.id).as_deref(), Some("v_m_blue"));
    assert_eq!(m.selection, sel(&[("Size", "M"), ("Color", "Blue")]));
    // Nothing in stock: the first variant; no variant: nothing selected.
    let mut sold_out = tee();
    for v in &mut sold_out.variants {
        v.stock_quantity = 0;
        v.stock_status = crate::model::StockStatus::OutOfStock;
    }
    assert_eq!(default_selection(&sold_out), variant_selection(&sold_out, &sold_out.variants[0].id).unwrap());
    let mut none = tee();
    none.variants.clear();
    assert!(default_selection(&none).is_empty());
}

#[test]
fn variant_selection_is_the_variants_option_values() {
    let mut p = tee();
    p.variants[2].attributes.insert("Material".into(), "Cotton".into()); // not an option: left out
    assert_eq!(variant_selection(&p, "v_m_blue").unwrap(), sel(&[("Size", "M"), ("Color", "Blue")]));
}

// ---------------------------------------------------------------- routes

fn product_at(slug: &str) -> StoreResource {
    StoreResource::Product { slug: slug.into() }
}

#[test]
fn paths_follow_the_route_settings_and_encode_slugs() {
    let st = store();
    assert_eq!(store_path(&st, &product_at("coastal-glass-bottle")).unwrap(), "/products/coastal-glass-bottle");
    assert_eq!(store_path(&st, &StoreResource::Collection { slug: "apparel".into() }).unwrap(), "/collections/apparel");
    assert_eq!(store_path(&st, &StoreResource::Page { slug: "about".into() }).unwrap(), "/pages/about");
    assert_eq!(store_path(&st, &StoreResource::Home).unwrap(), "/");
    assert_eq!(store_path(&st, &product_at("a b/ü?#%")).unwrap(), "/products/a%20b%2F%C3%BC%3F%23%25");
    let mut custom = store();
    custom.route_products = "/shop/item/".into();
    custom.route_pages = "/".into();
    assert_eq!(store_path(&custom, &product_at("x")).unwrap(), "/shop/item/x");
    assert_eq!(store_path(&custom, &StoreResource::Page { slug: "about".into() }).unwrap(), "/about");
    for bad in ["", ".", ".."] {
        let e = store_path(&st, &product_at(bad)).unwrap_err();
        assert_eq!(e.message, ["resource.slug: \"", bad, "\" cannot be a path segment"].concat());
    }
}

#[test]
fn paths_resolve_to_resources() {
    let st = store();
    let r = |p: &str| resolve_path(&st, p).unwrap();
    assert_eq!(r("/products/coastal-glass-bottle"), Some(product_at("coastal-glass-bottle")));
    assert_eq!(r("/products/coastal-glass-bottle/?variant=1#top"), Some(product_at("coastal-glass-bottle")));
    assert_eq!(r("https://shop.example/collections/apparel?x"), Some(StoreResource::Collection { slug: "apparel".into() }));
    assert_eq!(r("/pages/about"), Some(StoreResource::Page { slug: "about".into() }));
    assert_eq!(r("/products/a%20b%2F%C3%BC"), Some(product_at("a b/ü")));
    assert_eq!(r("/"), Some(StoreResource::Home));
    assert_eq!(r("/?q=1"), Some(StoreResource::Home));
    assert_eq!(r("https://shop.example"), Some(StoreResource::Home));
    for none in ["/products", "/products/", "/products/a/b", "/product/a", "/productsx/a", "/products/%ZZ", "/products/%C3", "/products/%2E%2E", "products/a", "/cart"] {
        assert_eq!(r(none), None, "{none}");
    }
    let mut custom = store();
    custom.route_pages = "/".into();
    assert_eq!(resolve_path(&custom, "/about").unwrap(), Some(StoreResource::Page { slug: "about".into() }));
    assert_eq!(resolve_path(&custom, "/products").unwrap(), Some(StoreResource::Page { slug: "products".into() }));
    assert_eq!(resolve_path(&custom, "/products/x").unwrap(), Some(product_at("x")));
}

#[test]
fn bad_route_settings_are_named() {
    let mut st = store();
    st.route_products = "products".into();
    assert_eq!(store_path(&st, &product_at("x")).unwrap_err().message, "store.routeProducts: \"products\" must start with \"/\"");
    st.route_products = "/pro ducts".into();
    assert_eq!(resolve_path(&st, "/").unwrap_err().message, "store.routeProducts: \"/pro ducts\" has \" \", which a route may not have");
    st.route_products = "/a//b".into();
    assert_eq!(resolve_path(&st, "/").unwrap_err().message, "store.routeProducts: \"/a//b\" has an empty, \".\" or \"..\" segment");
    let mut st = store();
    st.route_pages = "/collections/".into();
    let e = resolve_path(&st, "/").unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (ErrorCode::InvalidArgument, "store.routeCollections and store.routePages are the same route \"/collections\""));
}

#[test]
fn canonical_urls_take_the_scheme_from_the_domain() {
    let mut st = store();
    assert_eq!(canonical_url(&st, "/products/x").unwrap(), "https://shop.example/products/x");
    assert_eq!(canonical_url(&st, "/a b").unwrap(), "https://shop.example/a%20b");
    for (domain, want) in [
        ("127.0.0.1:8787", "http://127.0.0.1:8787/"),
        ("localhost:3000", "http://localhost:3000/"),
        ("[::1]:8080", "http://[::1]:8080/"),
        ("http://shop.example/", "http://shop.example/"),
        ("https://shop.example/store", "https://shop.example/store/"),
        ("SHOP.example", "https://SHOP.example/"),
    ] {
        st.frontend_domain = domain.into();
        assert_eq!(canonical_url(&st, "/").unwrap(), want, "{domain}");
    }
    for (domain, why) in [
        ("", "is empty: no absolute URL can be made"),
        ("ftp://shop.example", "has a scheme other than http or https"),
        ("https://", "has no host"),
        ("shop example", "has \" \", which a host name cannot have"),
    ] {
        st.frontend_domain = domain.into();
        let e = canonical_url(&st, "/").unwrap_err();
        assert_eq!(e.message, ["store.frontendDomain: \"", domain, "\" ", why].concat());
    }
    let e = canonical_url(&store(), "products/x").unwrap_err();
    assert_eq!(e.message, "path: \"products/x\" must start with a single \"/\"");
    assert_eq!(absolute_url(&store(), "//cdn.example/a.png").unwrap(), "https://cdn.example/a.png");
    assert_eq!(absolute_url(&store(), "HTTPS://cdn.example/a.png").unwrap(), "HTTPS://cdn.example/a.png");
    assert_eq!(absolute_url(&store(), "img/a.png").unwrap(), "https://shop.example/img/a.png");
}

// ---------------------------------------------------------------- SEO

fn parse(ld: &str) -> Value {
    assert!(!ld.to_ascii_lowercase().contains("</script"), "{ld}");
    assert!(!ld.contains(['<', '>', '&', '\u{2028}', '\u{2029}']), "{ld}");
    serde_json::from_str(ld).unwrap_or_else(|e| panic!("{e}: {ld}"))
}

#[test]
fn plain_text_strips_html() {
    assert_eq!(plain_text("<p>A soft tee &amp; more.</p>\n<p>Wash&nbsp;cold</p>"), "A soft tee & more. Wash cold");
    assert_eq!(plain_text("a<script>alert('<b>')</script>b<STYLE>p{}</STYLE >c"), "a b c");
    assert_eq!(plain_text("x<!-- <p>hidden</p> -->y"), "x y");
    assert_eq!(plain_text("<img alt=\"a>b\" src=x>z"), "z");
    assert_eq!(plain_text("1 < 2 &unknown; &#60;&#x3E; &#0;"), "1 < 2 &unknown; <> &#0;");
    assert_eq!(plain_text("  "), "");
}

#[test]
fn cap_cuts_at_a_word() {
    let long = "word ".repeat(50);
    let c = cap(&long, DESCRIPTION_MAX);
    assert!(c.chars().count() <= DESCRIPTION_MAX && c.ends_with("word…"), "{c}");
    assert_eq!(cap("short", 10), "short");
    let c = cap(&"é".repeat(200), 70);
    assert_eq!(c.chars().count(), 70);
}

#[test]
fn product_seo_falls_back_and_builds_product_json_ld() {
    let st = store();
    let mut p = tee();
    p.variants[1].price = "1234.50".into();
    p.variants[3].image = Some(Image { url: "https://cdn.example/l-red.png".into(), alt: "L red".into() });
    let m = product_seo(&st, &p).unwrap();
    assert_eq!(m.title, "Trail Tee | Cirrus Outfitters");
    assert_eq!(m.description, "A soft tee & more.");
    assert_eq!(m.canonical_url, "https://shop.example/products/trail-tee");
    assert_eq!(m.open_graph.kind, "product");
    assert_eq!(m.open_graph.image.as_deref(), Some("https://shop.example/static/products/trail-tee-1.svg"));
    assert_eq!(m.open_graph.image_alt.as_deref(), Some("Trail Tee, front"));
    let ld = parse(&m.json_ld);
    assert_eq!(ld["@context"], "https://schema.org");
    assert_eq!(ld["@type"], "Product");
    assert_eq!(ld["image"][0], "https://shop.example/static/products/trail-tee-1.svg");
    let offers = ld["offers"].as_array().unwrap();
    assert_eq!(offers.len(), p.variants.len());
    for (o, v) in offers.iter().zip(&p.variants) {
        assert_eq!(o["sku"], v.id.as_str());
        assert_eq!(o["price"], v.price.as_str());
        assert_eq!(o["priceCurrency"], "USD");
        let want = if v.stock_quantity > 0 { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" };
        assert_eq!(o["availability"], want);
    }
    assert_eq!(offers[1]["name"], "Trail Tee - M / Red");
    assert_eq!(offers[3]["image"], "https://cdn.example/l-red.png");
    p.meta_title = Some("Buy the <Trail> Tee".into());
    p.meta_description = Some("The tee for trails.".into());
    p.name = "</script><script>alert(1)</script>\u{2028}".into();
    p.variants[0].id = "</script><!--&\u{2028}\u{2029}\"\\\u{1}".into(); // a raw string field: escaped, not stripped
    let m = product_seo(&st, &p).unwrap();
    assert_eq!((m.title.as_str(), m.description.as_str()), ("Buy the Tee", "The tee for trails."));
    let ld = parse(&m.json_ld);
    assert_eq!(ld["offers"][0]["name"], "- S / Red");
    assert_eq!(ld["offers"][0]["sku"], p.variants[0].id.as_str());
    assert!(m.json_ld.contains(r#""sku":"\u003c/script\u003e\u003c!--\u0026\u2028\u2029\"\\\u0001""#), "{}", m.json_ld);
}

#[test]
fn product_seo_refuses_bad_prices_and_currencies() {
    let mut p = tee();
    p.variants[2].price = "1e3".into();
    let e = product_seo(&store(), &p).unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (ErrorCode::InvalidArgument, "product.variants[2].price: \"1e3\" is not a decimal price"));
    let mut st = store();
    st.default_currency = "usd".into();
    assert_eq!(product_seo(&st, &tee()).unwrap_err().message, "store.defaultCurrency: \"usd\" is not an ISO 4217 code");
}

#[test]
fn collection_seo_has_a_breadcrumb_list() {
    let crumb = |slug: &str, name: &str| CollectionRef { id: ["col_", slug].concat(), name: name.into(), slug: slug.into() };
    let c = Collection {
        id: "col_tees".into(),
        name: "Tees".into(),
        slug: "tees".into(),
        description: "All our <em>tees</em>.".into(),
        meta_title: String::new(),
        meta_description: String::new(),
        image: Some(Image { url: "/static/collections/tees.svg".into(), alt: "Tees".into() }),
        breadcrumb: vec![crumb("apparel", "Apparel & Co"), crumb("tees", "Tees")],
    };
    let m = collection_seo(&store(), &c).unwrap();
    assert_eq!((m.title.as_str(), m.description.as_str()), ("Tees | Cirrus Outfitters", "All our tees ."));
    let ld = parse(&m.json_ld);
    assert_eq!(ld["@graph"][0]["@type"], "CollectionPage");
    let items = ld["@graph"][1]["itemListElement"].as_array().unwrap();
    assert_eq!(ld["@graph"][1]["@type"], "BreadcrumbList");
    assert_eq!(items.len(), 2);
    assert_eq!((items[0]["position"].as_u64(), items[0]["name"].as_str()), (Some(1), Some("Apparel & Co")));
    assert_eq!(items[1]["item"], "https://shop.example/collections/tees");
}

#[test]
fn home_and_page_seo() {
    let st = store();
    let m = home_seo(&st).unwrap();
    assert_eq!((m.title.as_str(), m.canonical_url.as_str()), ("Cirrus Outfitters: gear for clear days", "https://shop.example/"));
    assert_eq!(m.open_graph.image.as_deref(), Some("https://shop.example/static/brand/logo.svg"));
    let ld = parse(&m.json_ld);
    assert_eq!(ld["@graph"][0]["@type"], "WebSite");
    assert_eq!(ld["@graph"][1]["@type"], "Organization");
    assert_eq!(ld["@graph"][1]["logo"], "https://shop.example/static/brand/logo.svg");
    let mut st2 = store();
    st2.home_meta_title = " ".into();
    st2.home_meta_description = String::new();
    let m = home_seo(&st2).unwrap();
    assert_eq!((m.title.as_str(), m.description.as_str()), ("Cirrus Outfitters", "Cirrus Outfitters"));
    let page = Page {
        title: "About us".into(),
        slug: "about".into(),
        content: format!("<h1>About</h1><p>{}</p>", "We make gear. ".repeat(30)),
        meta_title: String::new(),
        meta_description: String::new(),
    };
    let m = page_seo(&st, &page).unwrap();
    assert_eq!(m.title, "About us | Cirrus Outfitters");
    assert!(m.description.starts_with("About We make gear.") && m.description.ends_with('…'), "{}", m.description);
    assert_eq!(m.open_graph.image, None);
    let ld = parse(&m.json_ld);
    assert_eq!((ld["@type"].as_str(), ld["url"].as_str()), (Some("WebPage"), Some("https://shop.example/pages/about")));
}

#[test]
fn by_position_keeps_ties_in_order() {
    let items = [(1, 'a'), (0, 'b'), (1, 'c'), (0, 'd'), (2, 'e')];
    let got: String = variants::by_position(&items, |x| x.0).into_iter().map(|x| x.1).collect();
    assert_eq!(got, "bdace");
}

#[test]
fn wire_resources_decode_as_the_inputs() {
    // A whole wire Product / Collection / Page (every member) reads as what the helpers take.
    let product = serde_json::json!({
        "id": "p1", "storeId": "s1", "name": "Tee", "slug": "tee", "status": "ACTIVE", "description": "<p>x</p>",
        "metaTitle": null, "metaDescription": "d", "images": [{ "url": "/a.svg", "alt": "a" }], "tags": ["t"],
        "createdAt": "2025-01-01T00:00:00Z", "updatedAt": "2025-01-01T00:00:00Z",
        "options": [{ "id": "o1", "name": "Size", "displayStyle": "dropdown", "position": 0, "values": [{ "id": "ov1", "value": "S", "position": 0 }] }],
        "variants": [{ "id": "v1", "price": "1.00", "compareAtPrice": null, "stockQuantity": 1, "stockStatus": "IN_STOCK", "image": null, "attributes": { "Size": "S" } }],
        "collections": [{ "id": "c1", "name": "C", "slug": "c" }]
    });
    let wire: crate::model::Product = serde_json::from_value(product.clone()).unwrap();
    let p: input::Product = serde_json::from_value(product).unwrap();
    assert_eq!((p.meta_title, p.meta_description.as_deref(), p.variants), (None, Some("d"), wire.variants));
    assert_eq!(p.options[0].values[0].value, "S");
    let collection = serde_json::json!({
        "id": "c1", "name": "C", "slug": "c", "description": "", "metaTitle": "", "metaDescription": "", "image": null,
        "parent": null, "products": [{ "id": "p1", "name": "Tee", "slug": "tee", "images": [], "tags": [], "price": "1.00", "compareAtPrice": null }],
        "breadcrumb": [{ "id": "c1", "name": "C", "slug": "c" }]
    });
    let _: crate::model::Collection = serde_json::from_value(collection.clone()).unwrap();
    assert_eq!(serde_json::from_value::<Collection>(collection.clone()).unwrap().breadcrumb.len(), 1);
    let page = serde_json::json!({
        "id": "pg", "title": "About", "slug": "about", "content": "<p>x</p>", "pageType": "page", "frontendId": "about",
        "metaTitle": "", "metaDescription": "", "createdAt": "", "updatedAt": ""
    });
    let _: crate::model::Page = serde_json::from_value(page.clone()).unwrap();
    // Each requires its own members, in serde's words.
    let missing = |v: &Value, what: &str| match what {
        "page" => serde_json::from_value::<Page>(v.clone()).unwrap_err().to_string(),
        _ => serde_json::from_value::<Collection>(v.clone()).unwrap_err().to_string(),
    };
    assert_eq!(missing(&page, "collection"), "missing field `name`");
    let mut no_crumbs = collection.clone();
    no_crumbs.as_object_mut().unwrap().remove("breadcrumb");
    assert_eq!(missing(&no_crumbs, "collection"), "missing field `breadcrumb`");
    assert_eq!(missing(&collection, "page"), "missing field `title`");
    // A nullable member must still be there.
    let e = serde_json::from_value::<Collection>(serde_json::json!({ "id": "c", "name": "", "slug": "c", "description": "", "metaTitle": "", "metaDescription": "", "breadcrumb": [] })).unwrap_err();
    assert!(e.to_string().contains("missing field `image`"), "{e}");
}

#[test]
fn resources_read_and_written_as_string_maps() {
    use super::routes::ResourceArg;
    let arg = |v: Value| serde_json::from_value::<ResourceArg>(v).map_err(|e| e.to_string()).and_then(|r| r.resource().map_err(|e| e.message));
    assert_eq!(arg(serde_json::json!({ "kind": "home", "slug": null, "other": 1 })), Ok(StoreResource::Home));
    assert_eq!(arg(serde_json::json!({ "kind": "page", "slug": "p" })), Ok(StoreResource::Page { slug: "p".into() }));
    assert_eq!(arg(serde_json::json!({ "slug": "p" })).unwrap_err(), "missing field `kind`");
    assert_eq!(arg(serde_json::json!({ "kind": "cart" })).unwrap_err(), "unknown variant `cart`, expected one of `home`, `product`, `collection`, `page`");
    assert_eq!(arg(serde_json::json!({ "kind": "product" })).unwrap_err(), "resource.slug is required for a product");
    assert_eq!(arg(serde_json::json!({ "kind": "home", "slug": "x" })).unwrap_err(), "resource.slug: the home page has no slug");
    // `to_map` is what serde's internally tagged `StoreResource` gives, for every kind.
    for r in [StoreResource::Home, StoreResource::Product { slug: "a b".into() }, StoreResource::Page { slug: "p".into() }, StoreResource::Collection { slug: "c".into() }] {
        let map = serde_json::to_value(r.to_map()).unwrap();
        assert_eq!(map, serde_json::to_value(&r).unwrap(), "{r:?}");
        assert_eq!(arg(map), Ok(r.clone()));
    }
}

