//! Property tests of the storefront helpers: every variant is reachable from
//! its own selection, availability agrees with stock, paths and resources
//! round trip, JSON-LD always parses and never closes its `<script>`.

use proptest::prelude::*;

use super::fixtures::{product, store, variant};
use super::variants::in_stock;
use super::*;
use super::input::Product;
use crate::model::Image;

const OPTION_NAMES: [&str; 3] = ["Size", "Color", "Material"];
const VALUES: [&str; 4] = ["a", "b", "c", "d"];

/// A product with 0..=3 options of 1..=4 values and a subset of the
/// combinations as variants (each combination at most once), random stock.
fn arb_product() -> impl Strategy<Value = Product> {
    proptest::collection::vec(1..=4usize, 0..=3)
        .prop_flat_map(|counts| {
            let combos: usize = counts.iter().product();
            (Just(counts), proptest::collection::vec((any::<bool>(), 0..3u32), combos))
        })
        .prop_map(|(counts, picks)| {
            let opts: Vec<(&str, &[&str])> = counts.iter().enumerate().map(|(i, &n)| (OPTION_NAMES[i], &VALUES[..n])).collect();
            let mut variants = Vec::new();
            for (idx, (keep, stock)) in picks.into_iter().enumerate() {
                if !keep {
                    continue;
                }
                let mut rest = idx;
                let attrs: Vec<(&str, &str)> = counts
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| {
                        let v = VALUES[rest % n];
                        rest /= n;
                        (OPTION_NAMES[i], v)
                    })
                    .collect();
                variants.push(variant(&["v", &idx.to_string()].concat(), &attrs, stock));
            }
            product(&opts, variants)
        })
}

/// A partial selection over `p`'s options: each option unselected or one of its values.
fn arb_selection(p: &Product) -> impl Strategy<Value = OptionSelection> {
    let opts: Vec<(String, Vec<String>)> = p.options.iter().map(|o| (o.name.clone(), o.values.iter().map(|v| v.value.clone()).collect())).collect();
    proptest::collection::vec(proptest::option::of(0..4usize), opts.len()).prop_map(move |picks| {
        opts.iter()
            .zip(picks)
            .filter_map(|((name, values), pick)| pick.map(|i| (name.clone(), values[i % values.len()].clone())))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every variant is named by its own selection, and each of its values is
    /// marked selected.
    #[test]
    fn every_variant_is_reachable_from_its_own_selection(p in arb_product()) {
        for v in &p.variants {
            let s = variant_selection(&p, &v.id).unwrap();
            let m = product_options(&p, &s).unwrap();
            prop_assert_eq!(m.selected_variant.as_ref().map(|x| x.id.as_str()), Some(v.id.as_str()));
            for o in &m.options {
                let chosen: Vec<&str> = o.values.iter().filter(|x| x.selected).map(|x| x.value.as_str()).collect();
                prop_assert_eq!(chosen, vec![v.attributes[&o.name].as_str()]);
                // Every value's own selection names exactly the variant it reports.
                for x in &o.values {
                    let named = product_options(&p, &x.selection).unwrap().selected_variant.map(|y| y.id);
                    prop_assert_eq!(&named, &x.variant_id);
                }
            }
        }
    }

    /// A value exists iff a variant has it and agrees with the other selected
    /// options; it is available iff one such variant is in stock. The named
    /// variant's stock is what its selected values report.
    #[test]
    fn availability_agrees_with_stock((p, s) in arb_product().prop_flat_map(|p| { let s = arb_selection(&p); (Just(p), s) })) {
        let m = product_options(&p, &s).unwrap();
        prop_assert_eq!(m.options.len(), p.options.len());
        for o in &m.options {
            for x in &o.values {
                let fits: Vec<_> = p.variants.iter().filter(|v| {
                    v.attributes.get(&o.name) == Some(&x.value)
                        && p.options.iter().all(|q| q.name == o.name || s.get(&q.name).is_none_or(|want| v.attributes.get(&q.name) == Some(want)))
                }).collect();
                prop_assert_eq!(x.exists, !fits.is_empty(), "{} = {}", o.name, x.value);
                prop_assert_eq!(x.available, fits.iter().any(|v| v.stock_quantity > 0), "{} = {}", o.name, x.value);
                prop_assert!(!x.available || x.exists);
            }
        }
        if let Some(v) = &m.selected_variant {
            prop_assert!(s.iter().all(|(k, val)| v.attributes.get(k) == Some(val)));
            for o in &m.options {
                let sel = o.values.iter().find(|x| x.selected).unwrap();
                prop_assert_eq!(sel.available, in_stock(v));
            }
        } else {
            prop_assert!(s.len() < p.options.len() || !p.variants.iter().any(|v| s.iter().all(|(k, val)| v.attributes.get(k) == Some(val))));
        }
        prop_assert_eq!(m.first_available_variant.map(|v| v.id), p.variants.iter().find(|v| v.stock_quantity > 0).map(|v| v.id.clone()));
    }

    /// Any slug under any distinct routes round trips through its path.
    #[test]
    fn paths_and_resources_round_trip(
        slug in "\\PC{1,12}",
        kind in 0..3usize,
        routes in proptest::sample::subsequence(vec!["/", "/products", "/p", "/shop", "/shop/p", "/c", "/pages", "/a/b/c", "/x.y~z"], 3).prop_shuffle(),
    ) {
        prop_assume!(slug != "." && slug != "..");
        let mut st = store();
        st.route_products = routes[0].into();
        st.route_collections = routes[1].into();
        st.route_pages = routes[2].into();
        let r = match kind {
            0 => StoreResource::Product { slug },
            1 => StoreResource::Collection { slug },
            _ => StoreResource::Page { slug },
        };
        let path = store_path(&st, &r).unwrap();
        prop_assert!(path.bytes().all(|b| b.is_ascii_graphic()), "{}", path);
        prop_assert_eq!(resolve_path(&st, &path).unwrap(), Some(r.clone()));
        let url = canonical_url(&st, &path).unwrap();
        prop_assert_eq!(resolve_path(&st, &url).unwrap(), Some(r));
    }

    /// Any path resolves without error or panic; what it names maps back to a
    /// path that names the same thing.
    #[test]
    fn any_path_resolves_consistently(path in "(/|/products/|/pages/|https://x/)?[a-z%0-9/?#.]{0,16}") {
        let st = store();
        if let Some(r) = resolve_path(&st, &path).unwrap() {
            let back = store_path(&st, &r).unwrap();
            prop_assert_eq!(resolve_path(&st, &back).unwrap(), Some(r));
        }
    }

    /// No text makes a helper panic: paths, URLs, domains, routes and HTML of any characters.
    #[test]
    fn no_input_panics(s in "\\PC{0,40}|(<|&#|&|%|/|\\?|#|:|\\[|\\]|\\PC){0,40}") {
        let mut st = store();
        let _ = resolve_path(&st, &s).unwrap();
        let _ = canonical_url(&st, &s);
        let _ = routes::absolute_url(&st, &s);
        let _ = seo::cap(&seo::plain_text(&s), 5);
        st.frontend_domain.clone_from(&s);
        let _ = home_seo(&st);
        st.route_pages.clone_from(&s);
        let _ = resolve_path(&st, "/pages/x");
        let _ = store_path(&st, &StoreResource::Page { slug: s.clone() });
    }

    /// Whatever the texts, JSON-LD parses as JSON, never contains `<` (so never
    /// `</script`), `>`, `&`, U+2028 or U+2029, and titles and descriptions
    /// keep their caps.
    #[test]
    fn json_ld_always_parses_and_stays_in_its_script(
        name in "\\PC{0,40}|</script>|<!--",
        text in "(\\PC|<|>|&|\u{2028}|\u{2029}|</script>|<script>){0,80}",
        sku in "\\PC{0,10}|</script>",
        url in "\\PC{0,20}",
    ) {
        let st = store();
        let mut p = product(&[("Size", &["S"])], vec![variant(&sku, &[("Size", "S")], 1), variant("v2", &[("Size", "S")], 0)]);
        p.name.clone_from(&name);
        p.description.clone_from(&text);
        p.meta_title = Some(text.clone());
        p.images = vec![Image { url: url.clone(), alt: text.clone() }];
        let page = input::Page { title: name.clone(), slug: "p".into(), content: text.clone(), meta_title: String::new(), meta_description: text.clone() };
        let mut st2 = st.clone();
        st2.name.clone_from(&text);
        st2.logo_url.clone_from(&url);
        for m in [product_seo(&st, &p).unwrap(), page_seo(&st2, &page).unwrap(), home_seo(&st2).unwrap()] {
            prop_assert!(!m.json_ld.contains(['<', '>', '&', '\u{2028}', '\u{2029}']), "{}", m.json_ld);
            let v: serde_json::Value = serde_json::from_str(&m.json_ld).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&v["@context"], "https://schema.org");
            prop_assert!(m.title.chars().count() <= seo::TITLE_MAX);
            prop_assert!(m.description.chars().count() <= seo::DESCRIPTION_MAX);
        }
        let v: serde_json::Value = serde_json::from_str(&product_seo(&st, &p).unwrap().json_ld).unwrap();
        prop_assert_eq!(&v["offers"][0]["sku"], sku.as_str());
    }
}
