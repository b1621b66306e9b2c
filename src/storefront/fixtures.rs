//! Test data for the storefront helpers: a store, and products built from
//! option lists and variant tuples.

use super::input::{OptionValue, Product, ProductOption};
use crate::model::{Image, StockStatus, Variant};
use super::StoreSettings;

pub(crate) fn store() -> StoreSettings {
    StoreSettings {
        name: "Cirrus Outfitters".into(),
        default_currency: "USD".into(),
        contact_email: "hello@cirrus-outfitters.example".into(),
        frontend_domain: "shop.example".into(),
        logo_url: "/static/brand/logo.svg".into(),
        route_products: "/products".into(),
        route_collections: "/collections".into(),
        route_pages: "/pages".into(),
        home_meta_title: "Cirrus Outfitters: gear for clear days".into(),
        home_meta_description: "Apparel and gear, shipped fast.".into(),
    }
}

pub(crate) fn variant(id: &str, attrs: &[(&str, &str)], stock: u32) -> Variant {
    Variant {
        id: id.into(),
        price: "19.99".into(),
        compare_at_price: None,
        stock_quantity: stock,
        stock_status: if stock > 0 { StockStatus::InStock } else { StockStatus::OutOfStock },
        image: None,
        attributes: attrs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
    }
}

/// A product with `options` (name, values in position order) and `variants`.
pub(crate) fn product(options: &[(&str, &[&str])], variants: Vec<Variant>) -> Product {
    Product {
        id: "prod_1".into(),
        name: "Trail Tee".into(),
        slug: "trail-tee".into(),
        description: "<p>A soft tee &amp; more.</p>".into(),
        meta_title: None,
        meta_description: None,
        images: vec![Image { url: "/static/products/trail-tee-1.svg".into(), alt: "Trail Tee, front".into() }],
        options: options
            .iter()
            .zip(0u32..)
            .map(|((name, values), pos)| ProductOption {
                name: (*name).to_owned(),
                position: pos,
                values: values
                    .iter()
                    .zip(0u32..)
                    .map(|(v, p)| OptionValue { value: (*v).to_owned(), position: p })
                    .collect(),
            })
            .collect(),
        variants,
    }
}

/// Size S/M/L × Color Red/Blue with S-Blue missing and M-Red sold out.
pub(crate) fn tee() -> Product {
    product(
        &[("Size", &["S", "M", "L"]), ("Color", &["Red", "Blue"])],
        vec![
            variant("v_s_red", &[("Size", "S"), ("Color", "Red")], 3),
            variant("v_m_red", &[("Size", "M"), ("Color", "Red")], 0),
            variant("v_m_blue", &[("Size", "M"), ("Color", "Blue")], 2),
            variant("v_l_red", &[("Size", "L"), ("Color", "Red")], 1),
            variant("v_l_blue", &[("Size", "L"), ("Color", "Blue")], 0),
        ],
    )
}
