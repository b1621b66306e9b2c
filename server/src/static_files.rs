//! `GET /static/{path}.svg`: the generated placeholder images the seeded
//! catalog links to (production, not a test hook).

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::extract::Path;

fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// `GET /static/{path}.svg`: a generated placeholder image (no auth), its
/// colour and label derived from the file name.
///
/// # Errors
/// 404 for anything but `.svg` under a known folder.
pub async fn static_file(Path(path): Path<String>) -> Result<Response, ApiError> {
    let folders = ["products/", "collections/", "brand/"];
    let stem = path.strip_suffix(".svg").filter(|_| folders.iter().any(|f| path.starts_with(f)));
    let Some(stem) = stem else { return Err(ApiError::not_found(format!("no static file {path}"))) };
    let name = stem.rsplit('/').next().unwrap_or(stem);
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(ApiError::not_found(format!("no static file {path}")));
    }
    let hue = crate::util::sha256(name)[0] as u32 * 360 / 256;
    let label: String = name.split('-').filter(|w| !w.chars().all(|c| c.is_ascii_digit())).collect::<Vec<_>>().join(" ");
    let label = escape_xml(&label);
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600"><rect width="600" height="600" fill="hsl({hue},45%,82%)"/><circle cx="300" cy="260" r="140" fill="hsl({hue},50%,62%)"/><text x="300" y="500" font-family="sans-serif" font-size="30" text-anchor="middle" fill="hsl({hue},40%,25%)">{label}</text></svg>"##
    );
    let mut r = svg.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
    Ok(r)
}
