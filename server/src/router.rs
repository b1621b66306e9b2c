//! The routes: the API under `/api/v1` behind auth, the processor's webhook,
//! `/static`, the test hooks when enabled, the www dir, and the layers around them all.

use axum::http::{header, HeaderValue, Method, Uri};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::error::ApiError;
use crate::{catalog, checkout, hooks, middleware, static_files, webhook, www, State};

/// The whole app: API under `/api/v1` (auth + rate limit), `/static`, the test
/// hooks when enabled, the www dir or a JSON 404 for everything else.
pub fn router(state: State) -> Router {
    let api = Router::new()
        .route("/store", get(catalog::store))
        .route("/products", get(catalog::products))
        .route("/products/slug/{slug}", get(catalog::product_by_slug))
        .route("/pages", get(catalog::pages))
        .route("/collections", get(catalog::collections))
        .route("/collections/slug/{slug}", get(catalog::collection_by_slug))
        .route("/collections/{id}", get(catalog::collection_by_id))
        .route("/shipping-rates", post(checkout::shipping_rates))
        .route("/payments/initiate", post(checkout::initiate))
        .route("/payments/update", post(checkout::update))
        .route("/payments/confirm", post(checkout::confirm))
        .route_layer(from_fn_with_state(state.clone(), middleware::auth::auth))
        // The processor's events: signed with the endpoint secret, not a bearer key.
        .route("/webhooks/stripe", post(webhook::stripe));
    let mut app = Router::new()
        .nest("/api/v1", api)
        .route("/static/{*path}", get(static_files::static_file));
    if state.config.test_hooks {
        app = app
            .route("/__test/faults", post(hooks::arm_fault).delete(hooks::disarm_faults))
            .route("/__test/processor-faults", post(hooks::arm_processor_fault).delete(hooks::disarm_processor_faults))
            .route("/__test/processor-processing", post(hooks::arm_processing).delete(hooks::disarm_processing))
            .route("/__test/processor-calls", get(hooks::processor_calls))
            .route("/__test/orders", get(hooks::orders));
    }
    // The last layer put on is the outermost (the order of `crate::middleware`).
    app.fallback(www::fallback(state.config.www_dir.clone()))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(from_fn_with_state(state.clone(), middleware::faults::faults))
        .layer(www::api_compression())
        .layer(from_fn(middleware::errors::json_errors))
        .layer(from_fn_with_state(state.clone(), middleware::cors::preflight))
        .layer(from_fn_with_state(state.clone(), middleware::host::host))
        .layer(from_fn_with_state(state.clone(), middleware::cors::cors))
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(from_fn(middleware::log::log))
        .layer(from_fn(middleware::request_id::request_id))
        .with_state(state)
}

/// A known path with the wrong method: JSON 404 too (the contract has no 405).
pub async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    ApiError::not_found(format!("no route {method} {}", uri.path())).into_response()
}
