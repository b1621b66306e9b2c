//! The head of the page for one view, rendered on the server with the SDK core's own
//! helpers (`cirrus_storefront::storefront`: `resolve_path` and the `*_seo` functions),
//! the ones the page calls through the wasm when it navigates: title, description,
//! canonical URL, Open Graph and JSON-LD are in the HTML a crawler (or a link preview)
//! fetches, without running any script.

use axum::extract::State as AxState;
use cirrus_storefront::model::ServerErrorCode;
use cirrus_storefront::storefront::{self as sf, SeoMeta, StoreResource, StoreSettings};

use crate::error::ApiError;
use crate::extract::Path;
use crate::{catalog, State};

/// What the page at `path` is: found or not, and its head when one is rendered.
pub struct PageHead {
    pub found: bool,
    pub head: Option<String>,
}

/// The view `path` names under the store's routes and its head; `/checkout`, `/order` and
/// `/search` are views of the page without a head of their own.
///
/// # Errors
/// A database error (a route or SEO error of the store settings is logged and the
/// page goes out with its default head).
pub async fn for_path(state: &State, path: &str) -> Result<PageHead, ApiError> {
    if path == "/checkout" || path == "/order" || path == "/search" {
        return Ok(PageHead { found: true, head: None });
    }
    let store = catalog::store(AxState(state.clone())).await?.0.store;
    let settings = StoreSettings::from(&store);
    let resource = match sf::resolve_path(&settings, path) {
        Ok(Some(r)) => r,
        Ok(None) => return Ok(PageHead { found: false, head: None }),
        Err(e) => {
            eprintln!("www: the store's routes: {e}");
            return Ok(PageHead { found: false, head: None });
        }
    };
    let not_found = |e: &ApiError| e.code == ServerErrorCode::NotFound;
    let seo = match resource {
        StoreResource::Home => sf::home_seo(&settings),
        StoreResource::Product { slug } => match catalog::product_by_slug(AxState(state.clone()), Path(slug)).await {
            Ok(r) => narrow(&r.0.product).and_then(|p| sf::product_seo(&settings, &p)),
            Err(e) if not_found(&e) => return Ok(PageHead { found: false, head: None }),
            Err(e) => return Err(e),
        },
        StoreResource::Collection { slug } => match catalog::collection_by_slug(AxState(state.clone()), Path(slug)).await {
            Ok(r) => narrow(&r.0.collection).and_then(|c| sf::collection_seo(&settings, &c)),
            Err(e) if not_found(&e) => return Ok(PageHead { found: false, head: None }),
            Err(e) => return Err(e),
        },
        StoreResource::Page { slug } => {
            let pages = catalog::pages(AxState(state.clone())).await?.0.pages;
            match pages.iter().find(|p| p.slug == slug) {
                Some(p) => narrow(p).and_then(|p| sf::page_seo(&settings, &p)),
                None => return Ok(PageHead { found: false, head: None }),
            }
        }
    };
    match seo {
        Ok(meta) => Ok(PageHead { found: true, head: Some(render(&meta)) }),
        Err(e) => {
            eprintln!("www: no head for {path}: {e}");
            Ok(PageHead { found: true, head: None })
        }
    }
}

/// The tags of `meta` (the page script finds and updates the same ones).
#[must_use]
pub fn render(meta: &SeoMeta) -> String {
    let og = &meta.open_graph;
    let mut tags = vec![
        format!("<title>{}</title>", esc(&meta.title)),
        format!("<meta name=\"description\" content=\"{}\">", esc(&meta.description)),
        format!("<link rel=\"canonical\" href=\"{}\">", esc(&meta.canonical_url)),
    ];
    let mut prop = |p: &str, v: &str| tags.push(format!("<meta property=\"og:{p}\" content=\"{}\">", esc(v)));
    prop("type", &og.kind);
    prop("title", &og.title);
    prop("description", &og.description);
    prop("url", &og.url);
    prop("site_name", &og.site_name);
    if let Some(i) = &og.image {
        prop("image", i);
    }
    if let Some(a) = &og.image_alt {
        prop("image:alt", a);
    }
    // A product page's largest paint is its image: start it with the HTML.
    if let (Some(i), "product") = (&og.image, og.kind.as_str()) {
        tags.push(format!("<link rel=\"preload\" as=\"image\" href=\"{}\" fetchpriority=\"high\">", esc(i)));
    }
    // json_ld is escaped for a script element by the core (<, >, & as \u escapes).
    tags.push(format!("<script type=\"application/ld+json\">{}</script>", meta.json_ld));
    tags.join("\n  ")
}

/// `page` with its `<title>` and description replaced by `head` (inserted before `</head>`).
#[must_use]
pub fn inject(page: &str, head: &str) -> Option<String> {
    let mut html = page.to_string();
    if let (Some(a), Some(b)) = (html.find("<title>"), html.find("</title>")) {
        if a < b {
            html.replace_range(a..b + "</title>".len(), "");
        }
    }
    if let Some(a) = html.find("<meta name=\"description\"") {
        let b = a + html[a..].find('>')? + 1;
        html.replace_range(a..b, "");
    }
    let end = html.find("</head>")?;
    html.insert_str(end, &format!("  {head}\n"));
    Some(html)
}

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_goes_in_place_of_the_default_title_and_description() {
        let page = "<html><head><meta charset=\"utf-8\">\n  <title>Storefront</title>\n  <meta name=\"description\" content=\"x\">\n</head><body></body></html>";
        let html = inject(page, "<title>A &amp; B</title>").unwrap();
        assert_eq!(html.matches("<title>").count(), 1);
        assert!(html.contains("<title>A &amp; B</title>\n</head>"));
        assert!(!html.contains("name=\"description\" content=\"x\""));
        assert_eq!(inject("<p>no head</p>", "<title>t</title>"), None);
        assert_eq!(esc("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }
}

/// The storefront helpers read narrow views of the wire types (`src/storefront/input.rs`,
/// what the wasm decodes); the server holds the full model types: one serde round trip
/// converts, so the head is made by the same core functions the SDK exports.
fn narrow<T: serde::Serialize, U: serde::de::DeserializeOwned>(value: &T) -> cirrus_storefront::error::Result<U> {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .map_err(|e| cirrus_storefront::error::Error::invalid_argument(e.to_string()))
}
