//! The demo page (`CIRRUS_WWW_DIR`): its files are read once, in the background at
//! start-up, and kept compressed (brotli and gzip, when smaller); every answer has an
//! ETag and `If-None-Match` gets a 304.
//!
//! - `/assets/…` (www/build.mjs names every file there by a hash of its content):
//!   `Cache-Control: public, max-age=31536000, immutable`.
//! - everything else (the HTML, config files): `no-cache` (revalidated with the ETag).
//! - the store's paths (`/`, `<routeProducts>/<slug>`, `<routeCollections>/<slug>`,
//!   `<routePages>/<slug>` from the store configuration, `/checkout`, `/order`, `/search`) are
//!   answered with `index.html`, so a reload or a shared link opens the same view, its
//!   head rendered for that view by the SDK core ([`head`]); an unknown slug or any
//!   other path without a file extension gets the page with status 404 (the page shows
//!   "not found"); a missing file, the API and other methods keep the JSON 404.
//!
//! The API's JSON is compressed on the fly by [`api_compression`].

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State as AxState;
use axum::http::{header, Extensions, HeaderMap, HeaderValue, Method, StatusCode, Uri, Version};
use axum::response::{IntoResponse, Response};
use sha2::Digest;
use tokio::sync::OnceCell;
use tower_http::compression::predicate::{And, Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;

use crate::error::ApiError;
use crate::State;

mod head;

/// Hashed, never-changing files live under this folder.
const ASSETS: &str = "assets/";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const FRAME_ANCESTORS: &str = "frame-ancestors 'none'";

/// The predicate of [`api_compression`]: the answer is JSON.
pub type JsonOnly = fn(StatusCode, Version, &HeaderMap, &Extensions) -> bool;

/// Compression of the JSON answers (gzip or brotli, as the client accepts). Outside the
/// test faults, so a truncated body is cut before it is compressed.
#[must_use]
pub fn api_compression() -> CompressionLayer<And<SizeAbove, JsonOnly>> {
    let json: JsonOnly = |_, _, h, _| {
        h.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("application/json"))
    };
    CompressionLayer::new()
        .br(true)
        .gzip(true)
        .compress_when(SizeAbove::default().and(json))
}

/// One file of the www dir, ready to send.
struct Asset {
    content_type: &'static str,
    raw: Bytes,
    br: Option<Bytes>,
    gzip: Option<Bytes>,
    etag: HeaderValue,
    cache: &'static str,
    csp: HeaderValue,
}

/// The www dir as loaded: relative path (`index.html`, `assets/app-X.js`) to file.
pub struct Site {
    files: HashMap<String, Asset>,
}

/// The site, loaded once (started in the background by [`Www::new`]).
#[derive(Clone)]
struct Www {
    dir: Option<Arc<PathBuf>>,
    site: Arc<OnceCell<Option<Site>>>,
}

impl Www {
    /// Starts reading and compressing `dir` in the background (a no-op without a dir).
    fn new(dir: Option<PathBuf>) -> Self {
        let w = Self { dir: dir.map(Arc::new), site: Arc::new(OnceCell::new()) };
        if let (Some(_), Ok(rt)) = (&w.dir, tokio::runtime::Handle::try_current()) {
            let bg = w.clone();
            rt.spawn(async move {
                bg.site().await;
            });
        }
        w
    }

    async fn site(&self) -> Option<&Site> {
        let dir = self.dir.clone()?;
        self.site
            .get_or_init(|| async move {
                match tokio::task::spawn_blocking(move || Site::load(&dir)).await {
                    Ok(Ok(site)) => Some(site),
                    Ok(Err(e)) => {
                        eprintln!("www: cannot read the www dir: {e}");
                        None
                    }
                    Err(e) => {
                        eprintln!("www: loading the www dir failed: {e}");
                        None
                    }
                }
            })
            .await
            .as_ref()
    }
}

impl Site {
    /// Reads every file under `dir` (dot files left out) and compresses what compresses.
    ///
    /// # Errors
    /// The I/O error of a directory or file that cannot be read.
    pub fn load(dir: &Path) -> std::io::Result<Self> {
        let mut files = HashMap::new();
        let mut stack = vec![(dir.to_path_buf(), String::new())];
        while let Some((d, prefix)) = stack.pop() {
            for entry in std::fs::read_dir(&d)? {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let rel = format!("{prefix}{name}");
                if entry.file_type()?.is_dir() {
                    stack.push((entry.path(), format!("{rel}/")));
                } else {
                    let bytes = std::fs::read(entry.path())?;
                    files.insert(rel.clone(), Asset::new(&rel, bytes));
                }
            }
        }
        Ok(Self { files })
    }
}

impl Asset {
    fn new(rel: &str, bytes: Vec<u8>) -> Self {
        let ext = rel.rsplit_once('.').map_or("", |(_, e)| e);
        let content_type = content_type(ext);
        let compressible = matches!(ext, "html" | "js" | "mjs" | "css" | "json" | "map" | "wasm" | "svg" | "txt" | "ts");
        let (br, gzip) = if compressible && bytes.len() > 512 {
            (smaller(&bytes, brotli(&bytes)), smaller(&bytes, gzip(&bytes)))
        } else {
            (None, None)
        };
        let digest: [u8; 32] = sha2::Sha256::digest(&bytes).into();
        let etag = HeaderValue::from_str(&format!("\"{}\"", hex(&digest[..12]))).unwrap_or(HeaderValue::from_static("\"0\""));
        let csp = if content_type.starts_with("text/html") {
            page_csp(&String::from_utf8_lossy(&bytes))
        } else {
            FRAME_ANCESTORS.to_string()
        };
        Self {
            content_type,
            raw: Bytes::from(bytes),
            br,
            gzip,
            etag,
            cache: if rel.starts_with(ASSETS) { IMMUTABLE } else { "no-cache" },
            csp: HeaderValue::from_str(&csp).unwrap_or(HeaderValue::from_static(FRAME_ANCESTORS)),
        }
    }

    /// The answer to a GET with these request headers.
    fn respond(&self, status: StatusCode, req: &HeaderMap) -> Response {
        let mut r = if status == StatusCode::OK && etag_matches(req, &self.etag) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let (body, encoding) = match (accepts(req, "br"), &self.br, accepts(req, "gzip"), &self.gzip) {
                (true, Some(b), _, _) => (b.clone(), Some("br")),
                (_, _, true, Some(g)) => (g.clone(), Some("gzip")),
                _ => (self.raw.clone(), None),
            };
            let mut r = (status, body).into_response();
            if let Some(e) = encoding {
                r.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static(e));
            }
            r
        };
        let h = r.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(if status == StatusCode::OK { self.cache } else { "no-cache" }));
        h.insert(header::ETAG, self.etag.clone());
        if self.br.is_some() || self.gzip.is_some() {
            h.append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        h.insert(header::CONTENT_SECURITY_POLICY, self.csp.clone());
        h.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        r.extensions_mut().insert(FromWww);
        r
    }
}

/// Marks an answer of the www dir (its 404 is the page, not JSON).
#[derive(Clone, Copy)]
struct FromWww;

/// Whether `r` is an answer of the www dir (`middleware::errors` keeps its 404 page as it is).
#[must_use]
pub fn is_page(r: &Response) -> bool {
    r.extensions().get::<FromWww>().is_some()
}

type Answer = std::pin::Pin<Box<dyn std::future::Future<Output = Response> + Send>>;

/// The handler of everything unrouted: a file of the www dir `dir` or the page for GET
/// (see the module docs), else the JSON 404. Starts loading `dir` now.
pub fn fallback(dir: Option<PathBuf>) -> impl Fn(AxState<State>, Method, Uri, HeaderMap) -> Answer + Clone + Send + Sync + 'static {
    let www = Www::new(dir);
    move |AxState(state), method, uri, headers| {
        let www = www.clone();
        Box::pin(async move { answer(&www, &state, &method, &uri, &headers).await })
    }
}

async fn answer(www: &Www, state: &State, method: &Method, uri: &Uri, headers: &HeaderMap) -> Response {
    if method == Method::GET && !uri.path().starts_with("/api/") {
        if let Some(site) = www.site().await {
            if let Some(r) = serve(state, site, uri.path(), headers).await {
                return r;
            }
        }
    }
    ApiError::not_found(format!("no route {method} {}", uri.path())).into_response()
}

async fn serve(state: &State, site: &Site, path: &str, headers: &HeaderMap) -> Option<Response> {
    let rel = path.trim_start_matches('/');
    if rel.split('/').any(|seg| seg == ".." || seg.starts_with('.')) {
        return None;
    }
    if let Some(file) = site.files.get(rel) {
        return Some(file.respond(StatusCode::OK, headers));
    }
    let page = site.files.get("index.html")?;
    // A path with a file extension names a file: a missing one stays a JSON 404.
    if rel.rsplit('/').next().is_some_and(|last| last.contains('.')) {
        return None;
    }
    let page_head = head::for_path(state, path).await.unwrap_or_else(|e| {
        eprintln!("www: cannot resolve {path}: {e:?}");
        head::PageHead { found: false, head: None }
    });
    let status = if page_head.found { StatusCode::OK } else { StatusCode::NOT_FOUND };
    let rendered = page_head.head.and_then(|h| head::inject(&String::from_utf8_lossy(&page.raw), &h));
    Some(match rendered {
        // Rendered per request (a few KB): compressed now, ETag of this HTML.
        Some(html) => Asset::new("index.html", html.into_bytes()).respond(status, headers),
        None => page.respond(status, headers),
    })
}

fn content_type(ext: &str) -> &'static str {
    match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "ts" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn accepts(req: &HeaderMap, coding: &str) -> bool {
    req.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|part| {
        let mut it = part.split(';');
        let name = it.next().unwrap_or("").trim();
        let q_zero = it.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
        name.eq_ignore_ascii_case(coding) && !q_zero
    })
}

fn etag_matches(req: &HeaderMap, etag: &HeaderValue) -> bool {
    let Ok(tag) = etag.to_str() else { return false };
    req.get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| {
            let t = t.trim();
            t == "*" || t.trim_start_matches("W/") == tag
        })
}

fn smaller(raw: &[u8], packed: Vec<u8>) -> Option<Bytes> {
    (packed.len() < raw.len()).then(|| Bytes::from(packed))
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 64 * 1024, 11, 22);
        // Writing into a Vec cannot fail.
        let _ = w.write_all(bytes);
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = w.write_all(bytes);
    w.finish().unwrap_or_default()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The Content-Security-Policy header of a page: the policy of its
/// `<meta http-equiv="Content-Security-Policy">` (www/build.mjs writes it) plus
/// `frame-ancestors 'none'`, which a meta tag cannot carry. A page without a meta
/// policy (the test pages) gets `frame-ancestors 'none'` alone: nothing else of it is
/// restricted, so it works as written.
fn page_csp(html: &str) -> String {
    let meta = meta_csp(html).filter(|p| !p.is_empty() && !p.contains(['\r', '\n']));
    match meta {
        Some(p) if p.contains("frame-ancestors") => p,
        Some(p) => format!("{}; {FRAME_ANCESTORS}", p.trim_end_matches([';', ' '])),
        None => FRAME_ANCESTORS.to_string(),
    }
}

fn meta_csp(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let at = lower.find("http-equiv=\"content-security-policy\"")?;
    let tag_start = lower[..at].rfind('<')?;
    let tag_end = at + lower[at..].find('>')?;
    let tag = &html[tag_start..tag_end];
    let c = tag.to_ascii_lowercase().find("content=\"")? + "content=\"".len();
    let end = tag[c..].find('"')?;
    Some(tag[c..c + end].trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_and_etags_follow_the_request() {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip, deflate, br;q=0"));
        assert!(accepts(&h, "gzip") && !accepts(&h, "br"));
        let tag = HeaderValue::from_static("\"abc\"");
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("W/\"x\", \"abc\""));
        assert!(etag_matches(&h, &tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"abd\""));
        assert!(!etag_matches(&h, &tag));
    }
}
