//! Read-only catalog endpoints: store, products, pages, collections.

use std::collections::HashMap;

use axum::extract::{RawQuery, State as AxState};
use axum::Json;
use cirrus_storefront::endpoint::{check_limit, MAX_LIMIT};
use cirrus_storefront::model::{
    Collection, CollectionProduct, CollectionRef, CollectionResponse, CollectionsResponse, Image,
    MinimalProduct, Page, PagesResponse, Pagination, Product, ProductOption, ProductResponse,
    ProductStatus, StockStatus, Store, StoreResponse, Variant,
};
use rusqlite::types::Type;
use rusqlite::{params, Connection, OptionalExtension, Row};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::db::stored_json;
use crate::error::{ApiError, ApiResult};
use crate::extract::{parse_bool, parse_int, query_pairs, Path};
use crate::util::format_cents;
use crate::{AppState, State};

fn images(state: &AppState, r: &Row<'_>, col: usize) -> rusqlite::Result<Vec<Image>> {
    let mut v: Vec<Image> = stored_json(r, col)?;
    for i in &mut v {
        i.url = state.url(&i.url);
    }
    Ok(v)
}

fn image(state: &AppState, r: &Row<'_>, col: usize) -> rusqlite::Result<Option<Image>> {
    if r.get::<_, Option<String>>(col)?.is_none() {
        return Ok(None);
    }
    let mut i: Image = stored_json(r, col)?;
    i.url = state.url(&i.url);
    Ok(Some(i))
}

/// `GET /store`
///
/// # Errors
/// 500 on a database error.
pub async fn store(AxState(state): AxState<State>) -> ApiResult<Json<StoreResponse>> {
    let st = state.clone();
    state
        .db(move |c| {
            let raw: String = c.query_row("SELECT value FROM meta WHERE key = 'store'", [], |r| r.get(0))?;
            let mut store: Store = serde_json::from_str(&raw).map_err(ApiError::internal)?;
            store.logo_url = st.url(&store.logo_url);
            store.favicon_url = st.url(&store.favicon_url);
            store.email_logo_url = st.url(&store.email_logo_url);
            Ok(Json(StoreResponse { store }))
        })
        .await
}

/// Product rows plus their variants and collections, for the given WHERE/ORDER/LIMIT tail.
const PRODUCT_COLS: &str = "p.id, p.name, p.slug, p.status, p.description, p.meta_title, p.meta_description, p.images, p.tags, p.options, p.created_at, p.updated_at";

fn product_row(state: &AppState, r: &Row<'_>) -> rusqlite::Result<Product> {
    let status: String = r.get(3)?;
    Ok(Product {
        id: r.get(0)?,
        store_id: crate::db::STORE_ID.into(),
        name: r.get(1)?,
        slug: r.get(2)?,
        status: match status.as_str() {
            "DRAFT" => ProductStatus::Draft,
            "ARCHIVED" => ProductStatus::Archived,
            "ACTIVE" => ProductStatus::Active,
            other => {
                let e = format!("stored column status is not a product status: {other:?}");
                return Err(rusqlite::Error::FromSqlConversionFailure(3, Type::Text, e.into()));
            }
        },
        description: r.get(4)?,
        meta_title: r.get(5)?,
        meta_description: r.get(6)?,
        images: images(state, r, 7)?,
        tags: stored_json(r, 8)?,
        created_at: r.get(10)?,
        updated_at: r.get(11)?,
        options: stored_json::<Vec<ProductOption>>(r, 9)?,
        variants: Vec::new(),
        collections: Vec::new(),
    })
}

fn variant_row(state: &AppState, r: &Row<'_>) -> rusqlite::Result<(String, Variant)> {
    let stock: i64 = r.get(4)?;
    Ok((
        r.get(0)?,
        Variant {
            id: r.get(1)?,
            price: format_cents(r.get(2)?),
            compare_at_price: r.get::<_, Option<i64>>(3)?.map(format_cents),
            stock_quantity: u32::try_from(stock).unwrap_or(0),
            stock_status: if stock > 0 { StockStatus::InStock } else { StockStatus::OutOfStock },
            image: image(state, r, 5)?,
            attributes: stored_json(r, 6)?,
        },
    ))
}

/// Loads full products for `ids_sql` (a SELECT of product ids, parameterized by `p`).
fn load_products(state: &AppState, c: &Connection, ids_sql: &str, p: &[&dyn rusqlite::ToSql]) -> ApiResult<Vec<Product>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {PRODUCT_COLS} FROM products p JOIN ({ids_sql}) AS page ON page.id = p.id ORDER BY p.created_at, p.id"
    ))?;
    let mut products = stmt.query_map(p, |r| product_row(state, r))?.collect::<Result<Vec<_>, _>>()?;
    let index: HashMap<String, usize> = products.iter().enumerate().map(|(i, p)| (p.id.clone(), i)).collect();
    let mut stmt = c.prepare_cached(&format!(
        "SELECT v.product_id, v.id, v.price_cents, v.compare_at_cents, v.stock, v.image, v.attributes FROM variants v JOIN ({ids_sql}) AS page ON page.id = v.product_id ORDER BY v.product_id, v.position"
    ))?;
    for row in stmt.query_map(p, |r| variant_row(state, r))? {
        let (pid, v) = row?;
        if let Some(&i) = index.get(&pid) {
            products[i].variants.push(v);
        }
    }
    let mut stmt = c.prepare_cached(&format!(
        "SELECT pc.product_id, c.id, c.name, c.slug FROM product_collections pc JOIN ({ids_sql}) AS page ON page.id = pc.product_id JOIN collections c ON c.id = pc.collection_id ORDER BY pc.product_id, c.position"
    ))?;
    let rows = stmt.query_map(p, |r| {
        Ok((r.get::<_, String>(0)?, CollectionRef { id: r.get(1)?, name: r.get(2)?, slug: r.get(3)? }))
    })?;
    for row in rows {
        let (pid, cref) = row?;
        if let Some(&i) = index.get(&pid) {
            products[i].collections.push(cref);
        }
    }
    Ok(products)
}

/// `GET /products?limit&offset&includePagination&minimal`
///
/// Product bodies are rendered once and kept in [`AppState::product_json`]
/// (dropped when an order changes a product's stock), so a page is an index
/// query plus string concatenation.
///
/// # Errors
/// 400 for a bad parameter, 500 on a database error.
pub async fn products(AxState(state): AxState<State>, RawQuery(q): RawQuery) -> ApiResult<Response> {
    let (mut limit, mut offset, mut with_pagination, mut minimal) = (50u64, 0u64, false, false);
    for (k, v) in query_pairs(q.as_deref())? {
        match k.as_str() {
            // The client's rule for a page size (the core's), on the parameter as given.
            "limit" => {
                limit = parse_int("limit", &v, 0, u64::MAX)?;
                check_limit(limit).map_err(|e| ApiError::bad_request(e.message))?;
            }
            // SQLite's bound (an i64); the contract's is >= 0.
            "offset" => offset = parse_int("offset", &v, 0, i64::MAX as u64)?,
            "includePagination" => with_pagination = parse_bool("includePagination", &v)?,
            "minimal" => minimal = parse_bool("minimal", &v)?,
            _ => {}
        }
    }
    let st = state.clone();
    let body = state
        .db(move |c| {
            #[allow(clippy::cast_possible_wrap)]
            let (l, o) = (limit as i64, offset as i64);
            let page_sql = "SELECT id FROM products WHERE status = 'ACTIVE' ORDER BY created_at, id LIMIT ?1 OFFSET ?2";
            let ids: Vec<String> = c.prepare_cached(page_sql)?.query_map([l, o], |r| r.get(0))?.collect::<Result<_, _>>()?;
            let mut cache = st.product_json.lock().map_err(|_| ApiError::internal("cache lock poisoned"))?;
            if ids.iter().any(|id| !cache.contains_key(id)) {
                for p in load_products(&st, c, page_sql, &[&l, &o])? {
                    let price = lowest(&p.variants).map_or_else(|| "0.00".to_string(), |v| v.price.clone());
                    let m = MinimalProduct { id: p.id.clone(), name: p.name.clone(), slug: p.slug.clone(), images: p.images.clone(), tags: p.tags.clone(), price };
                    let full = serde_json::to_string(&p).map_err(ApiError::internal)?;
                    let min = serde_json::to_string(&m).map_err(ApiError::internal)?;
                    cache.insert(p.id, (full.into(), min.into()));
                }
            }
            let mut body = String::with_capacity(ids.len() * if minimal { 400 } else { 3_500 } + 100);
            body.push_str("{\"products\":[");
            for (i, id) in ids.iter().enumerate() {
                let (full, min) = cache.get(id).ok_or_else(|| ApiError::internal(format!("product {id} vanished")))?;
                if i > 0 {
                    body.push(',');
                }
                body.push_str(if minimal { min } else { full });
            }
            body.push(']');
            if with_pagination {
                let total: i64 = c.prepare_cached("SELECT COUNT(*) FROM products WHERE status = 'ACTIVE'")?.query_row([], |r| r.get(0))?;
                let total = u64::try_from(total).unwrap_or(0);
                let p = Pagination {
                    total,
                    limit: u32::try_from(limit).unwrap_or(MAX_LIMIT),
                    offset,
                    has_more: offset.saturating_add(ids.len() as u64) < total,
                };
                body.push_str(",\"pagination\":");
                body.push_str(&serde_json::to_string(&p).map_err(ApiError::internal)?);
            }
            body.push('}');
            Ok(body)
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The lowest-priced variant (first by position on ties).
fn lowest(variants: &[Variant]) -> Option<&Variant> {
    variants.iter().min_by_key(|v| cirrus_storefront::money::parse_decimal(&v.price, crate::util::EXPONENT).unwrap_or(i64::MAX))
}

/// `GET /products/slug/{slug}`: an ACTIVE product.
///
/// # Errors
/// 404 for an unknown (or inactive) slug.
pub async fn product_by_slug(AxState(state): AxState<State>, Path(slug): Path<String>) -> ApiResult<Json<ProductResponse>> {
    let st = state.clone();
    state
        .db(move |c| {
            let sql = "SELECT id FROM products WHERE slug = ?1 AND status = 'ACTIVE'";
            let mut found = load_products(&st, c, sql, &[&slug])?;
            found.pop().map(|product| Json(ProductResponse { product })).ok_or_else(|| ApiError::not_found(format!("no product with slug {slug:?}")))
        })
        .await
}

/// `GET /pages`
///
/// # Errors
/// 500 on a database error.
pub async fn pages(AxState(state): AxState<State>) -> ApiResult<Json<PagesResponse>> {
    state
        .db(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, title, slug, content, page_type, frontend_id, meta_title, meta_description, created_at, updated_at FROM pages ORDER BY position",
            )?;
            let pages = stmt
                .query_map([], |r| {
                    Ok(Page {
                        id: r.get(0)?, title: r.get(1)?, slug: r.get(2)?, content: r.get(3)?, page_type: r.get(4)?,
                        frontend_id: r.get(5)?, meta_title: r.get(6)?, meta_description: r.get(7)?,
                        created_at: r.get(8)?, updated_at: r.get(9)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Json(PagesResponse { pages }))
        })
        .await
}

/// Every collection with its ACTIVE products and breadcrumb; `only` keeps one (by id).
fn load_collections(state: &AppState, c: &Connection, only: Option<&str>) -> ApiResult<Vec<Collection>> {
    let mut stmt = c.prepare_cached(
        "SELECT id, name, slug, description, meta_title, meta_description, image, parent_id FROM collections ORDER BY position",
    )?;
    let all = stmt
        .query_map([], |r| {
            Ok(Collection {
                id: r.get(0)?, name: r.get(1)?, slug: r.get(2)?, description: r.get(3)?, meta_title: r.get(4)?,
                meta_description: r.get(5)?, image: image(state, r, 6)?, parent: r.get(7)?,
                products: Vec::new(), breadcrumb: Vec::new(),
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let by_id: HashMap<&str, &Collection> = all.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut out: Vec<Collection> = Vec::new();
    for col in all.iter().filter(|c| only.is_none_or(|id| id == c.id)) {
        let mut crumbs = Vec::new();
        let mut cur = Some(col);
        while let Some(x) = cur {
            crumbs.push(CollectionRef { id: x.id.clone(), name: x.name.clone(), slug: x.slug.clone() });
            cur = x.parent.as_deref().and_then(|p| by_id.get(p).copied());
            if crumbs.len() > 16 {
                break;
            }
        }
        crumbs.reverse();
        let mut col = col.clone();
        col.breadcrumb = crumbs;
        out.push(col);
    }
    let index: HashMap<String, usize> = out.iter().enumerate().map(|(i, c)| (c.id.clone(), i)).collect();
    let mut stmt = c.prepare_cached(
        "SELECT pc.collection_id, p.id, p.name, p.slug, p.images, p.tags, \
           (SELECT v.price_cents FROM variants v WHERE v.product_id = p.id ORDER BY v.price_cents, v.position LIMIT 1), \
           (SELECT v.compare_at_cents FROM variants v WHERE v.product_id = p.id ORDER BY v.price_cents, v.position LIMIT 1) \
         FROM product_collections pc JOIN products p ON p.id = pc.product_id AND p.status = 'ACTIVE' \
         WHERE ?1 IS NULL OR pc.collection_id = ?1 ORDER BY pc.collection_id, p.created_at, p.id",
    )?;
    let rows = stmt.query_map(params![only], |r| {
        Ok((
            r.get::<_, String>(0)?,
            CollectionProduct {
                id: r.get(1)?, name: r.get(2)?, slug: r.get(3)?,
                images: images(state, r, 4)?,
                tags: stored_json(r, 5)?,
                price: format_cents(r.get::<_, Option<i64>>(6)?.unwrap_or(0)),
                compare_at_price: r.get::<_, Option<i64>>(7)?.map(format_cents),
            },
        ))
    })?;
    for row in rows {
        let (cid, p) = row?;
        if let Some(&i) = index.get(&cid) {
            out[i].products.push(p);
        }
    }
    Ok(out)
}

/// `GET /collections`: every collection with products and breadcrumb.
///
/// # Errors
/// 500 on a database error.
pub async fn collections(AxState(state): AxState<State>) -> ApiResult<Json<CollectionsResponse>> {
    let st = state.clone();
    state.db(move |c| Ok(Json(CollectionsResponse { collections: load_collections(&st, c, None)? }))).await
}

/// `GET /collections/{id}`
///
/// # Errors
/// 404 for an unknown id.
pub async fn collection_by_id(AxState(state): AxState<State>, Path(id): Path<String>) -> ApiResult<Json<CollectionResponse>> {
    let st = state.clone();
    state
        .db(move |c| {
            let mut found = load_collections(&st, c, Some(&id))?;
            found.pop().map(|collection| Json(CollectionResponse { collection })).ok_or_else(|| ApiError::not_found(format!("no collection with id {id:?}")))
        })
        .await
}

/// `GET /collections/slug/{slug}`
///
/// # Errors
/// 404 for an unknown slug.
pub async fn collection_by_slug(AxState(state): AxState<State>, Path(slug): Path<String>) -> ApiResult<Json<CollectionResponse>> {
    let st = state.clone();
    state
        .db(move |c| {
            let id: Option<String> = c
                .prepare_cached("SELECT id FROM collections WHERE slug = ?1")?
                .query_row([&slug], |r| r.get(0))
                .optional()?;
            let id = id.ok_or_else(|| ApiError::not_found(format!("no collection with slug {slug:?}")))?;
            let mut found = load_collections(&st, c, Some(&id))?;
            found.pop().map(|collection| Json(CollectionResponse { collection })).ok_or_else(|| ApiError::not_found(format!("no collection with slug {slug:?}")))
        })
        .await
}
