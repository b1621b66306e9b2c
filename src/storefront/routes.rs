//! Store URLs: the path of a product, collection or CMS page under the
//! store's `routeProducts` / `routeCollections` / `routePages` settings, the
//! reverse (which resource a path names), and absolute URLs on the store's
//! `frontendDomain`.
//!
//! A route is a path such as `/products` or `/` (a trailing `/` is dropped);
//! the three must differ. A resource's path is its route, `/` and its slug
//! percent-encoded (every byte but `A-Z a-z 0-9 - . _ ~`), so a slug is always
//! exactly one path segment and `resolve_path(store_path(r)) == r`.

use serde::{Deserialize, Serialize};

use super::StoreSettings;
use crate::endpoint::{percent_encode, unreserved};
use crate::error::{Error, Result};

/// A page of the store: what [`store_path`] makes a path of and
/// [`resolve_path`] finds in one. In JS: `{ kind: "home" }` or
/// `{ kind: "product" | "collection" | "page", slug }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum StoreResource {
    Home,
    Product { slug: String },
    Collection { slug: String },
    Page { slug: String },
}

/// The kinds of [`StoreResource`], as the JS `kind` member spells them
/// (decoded by serde: [`ResourceArg`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ResourceKind {
    Home,
    Product,
    Collection,
    Page,
}

impl StoreResource {
    /// `{kind}` or `{kind, slug}` as a string map: what serde's internally
    /// tagged form of this type gives, made of the map type a selection is (so
    /// the wasm serializes it with the serializer it already has).
    #[must_use]
    pub fn to_map(&self) -> crate::strmap::StrMap {
        let (kind, slug) = match self {
            Self::Home => ("home", None),
            Self::Product { slug } => ("product", Some(slug)),
            Self::Collection { slug } => ("collection", Some(slug)),
            Self::Page { slug } => ("page", Some(slug)),
        };
        let mut map = crate::strmap::StrMap::new();
        map.insert("kind".to_owned(), kind.to_owned());
        if let Some(slug) = slug {
            map.insert("slug".to_owned(), slug.clone());
        }
        map
    }

    /// The resource of `kind` with `slug` (which `home` must not have, and the
    /// others must).
    ///
    /// # Errors
    /// `invalid_argument` naming `resource.slug` when it is missing or not allowed.
    pub fn from_parts(kind: ResourceKind, slug: Option<String>) -> Result<Self> {
        let need = |kind: &str| slug.clone().ok_or_else(|| Error::invalid_argument(format!("resource.slug is required for a {kind}")));
        Ok(match kind {
            ResourceKind::Home if slug.is_some() => return Err(Error::invalid_argument("resource.slug: the home page has no slug")),
            ResourceKind::Home => Self::Home,
            ResourceKind::Product => Self::Product { slug: need("product")? },
            ResourceKind::Collection => Self::Collection { slug: need("collection")? },
            ResourceKind::Page => Self::Page { slug: need("page")? },
        })
    }
}

/// A route setting: the path prefix it gives (`""` for `/`).
///
/// # Errors
/// `invalid_argument` naming the setting when it does not start with `/`, has
/// an empty or dot segment, or a character other than a path's.
fn prefix<'a>(setting: &'a str, name: &str) -> Result<&'a str> {
    let bad = |why: &str| Err(Error::invalid_argument(format!("store.{name}: {setting:?} {why}")));
    if !setting.starts_with('/') {
        return bad("must start with \"/\"");
    }
    if let Some(c) = setting.chars().find(|&c| !(c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/".contains(c))) {
        return bad(&format!("has {:?}, which a route may not have", c.encode_utf8(&mut [0; 4])));
    }
    let p = setting.trim_end_matches('/');
    if p.split('/').skip(1).any(|s| s.is_empty() || s == "." || s == "..") {
        return bad("has an empty, \".\" or \"..\" segment");
    }
    Ok(p)
}

/// The three route prefixes, checked: each valid, no two the same.
fn routes(store: &StoreSettings) -> Result<[(&str, ResourceKind); 3]> {
    let r = [
        (prefix(&store.route_products, "routeProducts")?, ResourceKind::Product),
        (prefix(&store.route_collections, "routeCollections")?, ResourceKind::Collection),
        (prefix(&store.route_pages, "routePages")?, ResourceKind::Page),
    ];
    let name = |k: ResourceKind| match k {
        ResourceKind::Product => "routeProducts",
        ResourceKind::Collection => "routeCollections",
        _ => "routePages",
    };
    for i in 0..3 {
        for j in i + 1..3 {
            if r[i].0 == r[j].0 {
                return Err(Error::invalid_argument(format!("store.{} and store.{} are the same route {:?}", name(r[i].1), name(r[j].1), if r[i].0.is_empty() { "/" } else { r[i].0 })));
            }
        }
    }
    Ok(r)
}

/// `b` is allowed in a URL as it is (`%` only as an escape, so it is kept).
fn url_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?#%[]".contains(&b)
}

/// A slug as one path segment: everything but `A-Z a-z 0-9 - . _ ~` encoded.
#[must_use]
pub fn encode_segment(slug: &str) -> String {
    percent_encode(slug, unreserved)
}

/// A percent-decoded segment, `None` for a bad escape or bytes that are not UTF-8.
fn decode_segment(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |c: u8| char::from(c).to_digit(16);
            let hi = hex(*b.get(i + 1)?)?;
            let lo = hex(*b.get(i + 2)?)?;
            out.push(u8::try_from(hi * 16 + lo).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A slug can be a path segment: not empty, not `.` or `..` (which URLs resolve away).
fn check_slug(slug: &str) -> Result<()> {
    if slug.is_empty() || slug == "." || slug == ".." {
        return Err(Error::invalid_argument(format!("resource.slug: {slug:?} cannot be a path segment")));
    }
    Ok(())
}

/// The path of `resource` under the store's routes, e.g. `/products/coastal-glass-bottle`.
///
/// # Errors
/// `invalid_argument` for a bad route setting (or two equal ones) or an
/// empty, `.` or `..` slug.
pub fn store_path(store: &StoreSettings, resource: &StoreResource) -> Result<String> {
    let r = routes(store)?;
    let (kind, slug) = match resource {
        StoreResource::Home => return Ok("/".to_owned()),
        StoreResource::Product { slug } => (ResourceKind::Product, slug),
        StoreResource::Collection { slug } => (ResourceKind::Collection, slug),
        StoreResource::Page { slug } => (ResourceKind::Page, slug),
    };
    check_slug(slug)?;
    let prefix = r.iter().find(|(_, k)| *k == kind).map_or("", |(p, _)| p);
    Ok(format!("{prefix}/{}", encode_segment(slug)))
}

/// Which resource `path` names: `/` is the home page, `<route>/<slug>` a
/// product, collection or page; a query, a fragment and one trailing `/` are
/// ignored, and so is the origin of an absolute `http(s)` URL. `None` for
/// anything else (a route alone, more segments, a bad escape).
///
/// # Errors
/// `invalid_argument` for a bad route setting or two equal ones.
pub fn resolve_path(store: &StoreSettings, path: &str) -> Result<Option<StoreResource>> {
    let r = routes(store)?;
    let mut p = path;
    for scheme in ["https://", "http://", "//"] {
        if let Some(rest) = p.strip_prefix(scheme) {
            p = rest.find(['/', '?', '#']).map_or("", |i| &rest[i..]);
            break;
        }
    }
    let p = p.find(['?', '#']).map_or(p, |i| &p[..i]);
    if p.is_empty() || p == "/" {
        return Ok(Some(StoreResource::Home));
    }
    if !p.starts_with('/') {
        return Ok(None);
    }
    let p = p.strip_suffix('/').unwrap_or(p);
    // A path is a route and one segment, so at most one route (they differ) matches it.
    for (prefix, kind) in r {
        let Some(rest) = p.strip_prefix(prefix).and_then(|rest| rest.strip_prefix('/')) else { continue };
        if rest.is_empty() || rest.contains('/') {
            continue;
        }
        let Some(slug) = decode_segment(rest) else { continue };
        if check_slug(&slug).is_err() {
            continue;
        }
        return Ok(Some(match kind {
            ResourceKind::Product => StoreResource::Product { slug },
            ResourceKind::Collection => StoreResource::Collection { slug },
            _ => StoreResource::Page { slug },
        }));
    }
    Ok(None)
}

/// The store's origin from `frontendDomain`: kept when it has an `http(s)`
/// scheme, else `http://` for a loopback host (`localhost`, `127.x`, `[::1]`)
/// and `https://` for any other; never a trailing `/`.
///
/// # Errors
/// `invalid_argument` naming `store.frontendDomain` when it is empty, has
/// another scheme, or a character a host cannot have.
pub fn origin(store: &StoreSettings) -> Result<String> {
    let d = store.frontend_domain.trim();
    let bad = |why: &str| Err(Error::invalid_argument(format!("store.frontendDomain: {:?} {why}", store.frontend_domain)));
    if let Some(i) = d.find("://") {
        let scheme = d[..i].to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return bad("has a scheme other than http or https");
        }
        let rest = d[i + 3..].trim_end_matches('/');
        if rest.is_empty() || rest.starts_with('/') {
            return bad("has no host");
        }
        return Ok(format!("{}{}", &d[..i + 3], percent_encode(rest, url_safe)));
    }
    let d = d.trim_end_matches('/');
    if d.is_empty() {
        return bad("is empty: no absolute URL can be made");
    }
    if let Some(c) = d.chars().find(|&c| !(c.is_ascii_alphanumeric() || "-.:[]".contains(c))) {
        return bad(&format!("has {:?}, which a host name cannot have", c.encode_utf8(&mut [0; 4])));
    }
    let host = if d.starts_with('[') { d.split(']').next().unwrap_or(d) } else { d.split(':').next().unwrap_or(d) };
    let host = host.to_ascii_lowercase();
    let loopback = host == "localhost" || host.ends_with(".localhost") || host.starts_with("127.") || host == "[::1";
    Ok(format!("{}{d}", if loopback { "http://" } else { "https://" }))
}

/// The canonical absolute URL of `path` (which must start with `/`) on the
/// store's origin ([`origin`]); bytes a URL cannot hold as they are (spaces,
/// non-ASCII) are percent-encoded.
///
/// # Errors
/// `invalid_argument` when `path` does not start with `/`, or as [`origin`].
pub fn canonical_url(store: &StoreSettings, path: &str) -> Result<String> {
    if !path.starts_with('/') || path.starts_with("//") {
        return Err(Error::invalid_argument(format!("path: {path:?} must start with a single \"/\"")));
    }
    Ok(format!("{}{}", origin(store)?, percent_encode(path, url_safe)))
}

/// `url` (an image's, a logo's) made absolute on the store's origin, unless
/// it already is (`http(s)://…`; `//host/…` takes the origin's scheme).
///
/// # Errors
/// As [`origin`], for a relative `url`.
pub fn absolute_url(store: &StoreSettings, url: &str) -> Result<String> {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        return Ok(percent_encode(url, url_safe));
    }
    let origin = origin(store)?;
    if url.starts_with("//") {
        let scheme = origin.find("//").map_or("https:", |i| &origin[..i]);
        return Ok(format!("{scheme}{}", percent_encode(url, url_safe)));
    }
    let sep = if url.starts_with('/') { "" } else { "/" };
    Ok(format!("{origin}{sep}{}", percent_encode(url, url_safe)))
}

/// A [`StoreResource`] as JS gives it (`storePath`): `kind`, and `slug` but
/// for `home` (`null` reads as absent; other members are ignored).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceArg {
    pub kind: ResourceKind,
    #[serde(default)]
    pub slug: Option<String>,
}

impl ResourceArg {
    /// The resource named: `slug` required but for `home`, which must not have one.
    ///
    /// # Errors
    /// `invalid_argument` naming `resource.slug` when it is missing or not allowed.
    pub fn resource(self) -> Result<StoreResource> {
        StoreResource::from_parts(self.kind, self.slug)
    }
}
