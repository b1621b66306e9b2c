//! SEO metadata for the home page, a product, a collection and a CMS page:
//! title, description, canonical URL, Open Graph fields and schema.org JSON-LD.
//!
//! Title and description come from the resource's `metaTitle` /
//! `metaDescription`, falling back to `<name> | <store>` and to the resource's
//! own text (HTML stripped). Both are plain text (tags removed, the common
//! entities decoded, whitespace collapsed), capped at [`TITLE_MAX`] and
//! [`DESCRIPTION_MAX`] characters (cut at a word, ending in `…`); the page
//! still escapes them as it writes them. `jsonLd` is one JSON object written by
//! [`super::jsonld`], safe to place as-is in `<script type="application/ld+json">`.
//! Prices are the wire's decimal strings, copied; no floats anywhere.

use serde::{Deserialize, Serialize};

use super::jsonld::Json;
use super::routes::{absolute_url, canonical_url, origin, store_path, StoreResource};
use super::variants::in_stock;
use super::StoreSettings;
use crate::error::{Error, Result};
use super::input::{Collection, Page, Product};
use crate::model::Image;

/// Longest title, in characters.
pub const TITLE_MAX: usize = 70;
/// Longest description, in characters.
pub const DESCRIPTION_MAX: usize = 160;

/// Open Graph (`og:*`) fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenGraph {
    /// `website` or `product`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub description: String,
    pub url: String,
    pub site_name: String,
    /// Absolute URL of the resource's first image (the store's logo at home).
    pub image: Option<String>,
    pub image_alt: Option<String>,
}

/// What a page puts in its `<head>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeoMeta {
    pub title: String,
    pub description: String,
    pub canonical_url: String,
    pub open_graph: OpenGraph,
    /// schema.org JSON-LD, escaped for `<script type="application/ld+json">`.
    pub json_ld: String,
}

/// Decodes the entity that starts `s` (after its `&`): the character and the
/// bytes it took, `;` included.
fn entity(s: &str) -> Option<(char, usize)> {
    let end = s.get(..12.min(s.len())).unwrap_or(s).find(';')?;
    let name = &s[..end];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        _ => {
            let n = name.strip_prefix('#')?;
            let code = match n.strip_prefix(['x', 'X']) {
                Some(h) => u32::from_str_radix(h, 16).ok()?,
                None => n.parse::<u32>().ok()?,
            };
            char::from_u32(code).filter(|c| *c != '\0')?
        }
    };
    Some((c, end + 1))
}

/// The index of the `>` that ends the tag `s` starts (quoted attribute values skipped).
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, b) in s.bytes().enumerate() {
        match (quote, b) {
            (None, b'>') => return Some(i),
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if q == b => quote = None,
            _ => {}
        }
    }
    None
}

/// `html` as plain text: tags and comments dropped (a tag counts as a space),
/// `<script>` and `<style>` contents dropped, entities decoded, whitespace
/// collapsed, trimmed.
#[must_use]
pub fn plain_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut space = false;
    let mut push = |out: &mut String, c: char| {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    };
    let mut rest = html;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '<' if rest.starts_with("!--") => {
                rest = rest.find("-->").map_or("", |i| &rest[i + 3..]);
                push(&mut out, ' ');
            }
            '<' if rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!' || c == '?') => {
                let lower: String = rest.chars().take(7).collect::<String>().to_ascii_lowercase();
                rest = tag_end(rest).map_or("", |i| &rest[i + 1..]);
                for raw in ["script", "style"] {
                    if lower.starts_with(raw) && !lower[raw.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                        let close = format!("</{raw}");
                        let at = rest.to_ascii_lowercase().find(&close);
                        rest = at.map_or("", |i| &rest[i..]);
                    }
                }
                push(&mut out, ' ');
            }
            '&' => match entity(rest) {
                Some((d, n)) => {
                    rest = &rest[n..];
                    push(&mut out, d);
                }
                None => push(&mut out, '&'),
            },
            c => push(&mut out, c),
        }
    }
    out
}

/// `s` cut to at most `max` characters: at the last space in the second half
/// of the allowance if there is one, then `…`.
#[must_use]
pub fn cap(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let end = s.char_indices().nth(max.saturating_sub(1)).map_or(s.len(), |(i, _)| i);
    let head = &s[..end];
    let head = match head.rfind(' ') {
        Some(i) if (&head[..i]).chars().count() >= max / 2 => &head[..i],
        _ => head,
    };
    format!("{}…", head.trim_end())
}

/// The first of `candidates` that has text, as plain text.
fn first_text(candidates: &[&str]) -> String {
    candidates.iter().map(|c| plain_text(c)).find(|t| !t.is_empty()).unwrap_or_default()
}

/// `"19.99"`: digits, optionally `.` and digits (what a wire price is).
fn check_price(price: &str, what: &dyn Fn() -> String) -> Result<()> {
    let (int, frac) = price.split_once('.').unwrap_or((price, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if digits(int) && digits(frac) {
        Ok(())
    } else {
        Err(Error::invalid_argument(format!("{}: {price:?} is not a decimal price", what())))
    }
}

/// Title, description, canonical URL and Open Graph fields; JSON-LD added by the caller.
fn meta(
    store: &StoreSettings,
    kind: &str,
    title: &[&str],
    description: &[&str],
    path: &str,
    image: Option<&Image>,
) -> Result<SeoMeta> {
    let title = cap(&first_text(title), TITLE_MAX);
    let mut description = first_text(description);
    if description.is_empty() {
        description.clone_from(&title);
    }
    let description = cap(&description, DESCRIPTION_MAX);
    let url = canonical_url(store, path)?;
    let image_url = image.map(|i| absolute_url(store, &i.url)).transpose()?;
    Ok(SeoMeta {
        open_graph: OpenGraph {
            kind: kind.to_owned(),
            title: title.clone(),
            description: description.clone(),
            url: url.clone(),
            site_name: store.name.clone(),
            image: image_url,
            image_alt: image.map(|i| plain_text(&i.alt)),
        },
        title,
        description,
        canonical_url: url,
        json_ld: String::new(),
    })
}

/// `{"@context":"https://schema.org",` opened.
fn ld() -> Json {
    let mut j = Json::new();
    j.open('{').field("@context", "https://schema.org");
    j
}

/// The store's `WebSite` and `Organization` nodes, as members of an open object.
fn website(j: &mut Json, store: &StoreSettings, home: &str) -> Result<()> {
    let org = format!("{home}#organization");
    j.open('{').field("@type", "WebSite").field("@id", &format!("{home}#website")).field("name", &store.name).field("url", home);
    j.key("publisher").open('{').field("@id", &org).close('}').close('}');
    j.open('{').field("@type", "Organization").field("@id", &org).field("name", &store.name).field("url", home);
    if !store.logo_url.is_empty() {
        j.field("logo", &absolute_url(store, &store.logo_url)?);
    }
    j.field_nonempty("email", &store.contact_email).close('}');
    Ok(())
}

/// The home page: `homeMetaTitle` (else the store's name), `homeMetaDescription`;
/// JSON-LD `WebSite` and `Organization`.
///
/// # Errors
/// `invalid_argument` for a bad `frontendDomain` or route setting.
pub fn home_seo(store: &StoreSettings) -> Result<SeoMeta> {
    let logo = Image { url: store.logo_url.clone(), alt: store.name.clone() };
    let logo = (!logo.url.is_empty()).then_some(&logo);
    let mut m = meta(store, "website", &[&store.home_meta_title, &store.name], &[&store.home_meta_description], "/", logo)?;
    let mut j = ld();
    j.key("@graph").open('[');
    website(&mut j, store, &m.canonical_url)?;
    j.close(']').close('}');
    m.json_ld = j.finish();
    Ok(m)
}

/// A product: `metaTitle` (else `<name> | <store>`), `metaDescription` (else its
/// description as text); JSON-LD `Product` with its images and one `Offer` per
/// variant (SKU = variant id, price, `defaultCurrency`, availability from stock).
///
/// # Errors
/// `invalid_argument` for a bad `frontendDomain`, route setting, slug,
/// currency or variant price.
pub fn product_seo(store: &StoreSettings, product: &Product) -> Result<SeoMeta> {
    let currency = &store.default_currency;
    if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(Error::invalid_argument(format!("store.defaultCurrency: {currency:?} is not an ISO 4217 code")));
    }
    let path = store_path(store, &StoreResource::Product { slug: product.slug.clone() })?;
    let fallback = format!("{} | {}", product.name, store.name);
    let image = product.images.first().or_else(|| product.variants.iter().find_map(|v| v.image.as_ref()));
    let mut m = meta(
        store,
        "product",
        &[product.meta_title.as_deref().unwrap_or(""), &fallback],
        &[product.meta_description.as_deref().unwrap_or(""), &product.description],
        &path,
        image,
    )?;
    let mut j = ld();
    j.field("@type", "Product").field("@id", &m.canonical_url).field("productID", &product.id);
    j.field("name", &plain_text(&product.name)).field("description", &m.description).field("url", &m.canonical_url);
    if !product.images.is_empty() {
        j.key("image").open('[');
        for i in &product.images {
            j.str(&absolute_url(store, &i.url)?);
        }
        j.close(']');
    }
    j.key("brand").open('{').field("@type", "Brand").field("name", &store.name).close('}');
    if !product.variants.is_empty() {
        j.key("offers").open('[');
        for (n, v) in product.variants.iter().enumerate() {
            check_price(&v.price, &|| format!("product.variants[{n}].price"))?;
            // `<name> - <value> / <value>`, by pushes (a `Vec<&str>` join is one more ~1 KB instantiation).
            let mut name = product.name.clone();
            let mut sep = " - ";
            for val in product.options.iter().filter_map(|o| v.attributes.get(&o.name)) {
                name.push_str(sep);
                name.push_str(val);
                sep = " / ";
            }
            let stock = if in_stock(v) { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" };
            j.open('{').field("@type", "Offer").field("sku", &v.id).field("name", &plain_text(&name));
            j.field("price", &v.price).field("priceCurrency", currency).field("availability", stock).field("url", &m.canonical_url);
            if let Some(img) = &v.image {
                j.field("image", &absolute_url(store, &img.url)?);
            }
            j.close('}');
        }
        j.close(']');
    }
    j.close('}');
    m.json_ld = j.finish();
    Ok(m)
}

/// A collection: `metaTitle` (else `<name> | <store>`), `metaDescription` (else
/// its description as text); JSON-LD `CollectionPage` and a `BreadcrumbList`
/// from its breadcrumb (root first; the collection alone when it is empty).
///
/// # Errors
/// `invalid_argument` for a bad `frontendDomain`, route setting or slug.
pub fn collection_seo(store: &StoreSettings, collection: &Collection) -> Result<SeoMeta> {
    let path = store_path(store, &StoreResource::Collection { slug: collection.slug.clone() })?;
    let fallback = format!("{} | {}", collection.name, store.name);
    let mut m = meta(
        store,
        "website",
        &[&collection.meta_title, &fallback],
        &[&collection.meta_description, &collection.description],
        &path,
        collection.image.as_ref(),
    )?;
    let mut j = ld();
    j.key("@graph").open('[');
    j.open('{').field("@type", "CollectionPage").field("@id", &m.canonical_url).field("name", &plain_text(&collection.name));
    j.field("description", &m.description).field("url", &m.canonical_url);
    if let Some(img) = &m.open_graph.image {
        j.field("image", img);
    }
    j.close('}');
    j.open('{').field("@type", "BreadcrumbList").key("itemListElement").open('[');
    let own = [crate::model::CollectionRef { id: collection.id.clone(), name: collection.name.clone(), slug: collection.slug.clone() }];
    let crumbs = if collection.breadcrumb.is_empty() { &own[..] } else { &collection.breadcrumb[..] };
    for (n, c) in crumbs.iter().enumerate() {
        let url = canonical_url(store, &store_path(store, &StoreResource::Collection { slug: c.slug.clone() })?)?;
        j.open('{').field("@type", "ListItem").key("position").raw(&(n as u64 + 1).to_string());
        j.field("name", &plain_text(&c.name)).field("item", &url).close('}');
    }
    j.close(']').close('}').close(']').close('}');
    m.json_ld = j.finish();
    Ok(m)
}

/// A CMS page: `metaTitle` (else `<title> | <store>`), `metaDescription` (else
/// its content as text); JSON-LD `WebPage`, part of the store's `WebSite`.
///
/// # Errors
/// `invalid_argument` for a bad `frontendDomain`, route setting or slug.
pub fn page_seo(store: &StoreSettings, page: &Page) -> Result<SeoMeta> {
    let path = store_path(store, &StoreResource::Page { slug: page.slug.clone() })?;
    let fallback = format!("{} | {}", page.title, store.name);
    let mut m = meta(store, "website", &[&page.meta_title, &fallback], &[&page.meta_description, &page.content], &path, None)?;
    let home = format!("{}/", origin(store)?);
    let mut j = ld();
    j.field("@type", "WebPage").field("@id", &m.canonical_url).field("name", &plain_text(&page.title));
    j.field("description", &m.description).field("url", &m.canonical_url);
    j.key("isPartOf").open('{').field("@type", "WebSite").field("@id", &format!("{home}#website")).field("name", &store.name);
    j.field("url", &home).close('}').close('}');
    m.json_ld = j.finish();
    Ok(m)
}
