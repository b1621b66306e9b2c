//! The Cirrus V1 wire model: every resource, request and response body of
//! `shared/design/SPEC.md` as decided in `shared/design/CONTRACT.md`.
//!
//! These types are shared by the SDK (decoding responses, building requests)
//! and by the dev server in `server/` (encoding responses, decoding requests),
//! so the two cannot drift apart. Field names are the wire names (camelCase).
//!
//! Nullable fields are `Option<T>` and are **required on the wire**: a missing
//! nullable field is a decode error, `null` is `None` (see [`nullable`]).
//! Prices are decimal strings as on the wire; [`crate::money`] turns them into
//! exact integer minor units.

use crate::strmap::StrMap;

use serde::{Deserialize, Serialize};

pub mod nullable;

/// An image of a product or a variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    pub url: String,
    pub alt: String,
}

/// A product's publication status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ProductStatus {
    Active,
    Draft,
    Archived,
}

/// A variant's stock status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StockStatus {
    InStock,
    OutOfStock,
}

/// How a product option's values are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DisplayStyle {
    Dropdown,
}

/// One value of a product option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionValue {
    pub id: String,
    pub value: String,
    pub position: u32,
}

/// A product option such as "Size" (named `ProductOption` to avoid clashing
/// with `std::option::Option`; on the wire it is the spec's `Option`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductOption {
    pub id: String,
    pub name: String,
    pub display_style: DisplayStyle,
    pub position: u32,
    pub values: Vec<OptionValue>,
}

/// A purchasable variant of a product.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Variant {
    pub id: String,
    /// Decimal string, e.g. `"19.99"`.
    pub price: String,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub compare_at_price: Option<String>,
    pub stock_quantity: u32,
    pub stock_status: StockStatus,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub image: Option<Image>,
    /// Option name to option value, e.g. `{"Size": "M", "Color": "Red"}`.
    pub attributes: StrMap,
}

/// A collection named by reference (a product's collections, a breadcrumb).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionRef {
    pub id: String,
    pub name: String,
    pub slug: String,
}

/// A product of the catalog with its options and variants (`GET /products`, `GET /products/slug/{slug}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub id: String,
    pub store_id: String,
    pub name: String,
    pub slug: String,
    pub status: ProductStatus,
    pub description: String,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub meta_title: Option<String>,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub meta_description: Option<String>,
    pub images: Vec<Image>,
    pub tags: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    pub options: Vec<ProductOption>,
    pub variants: Vec<Variant>,
    pub collections: Vec<CollectionRef>,
}

/// `GET /products?minimal=true` item: `price` is the lowest variant price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MinimalProduct {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub images: Vec<Image>,
    pub tags: Vec<String>,
    pub price: String,
}

/// Where a page of `GET /products` is in the whole list (with `includePagination: true`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub total: u64,
    pub limit: u32,
    pub offset: u64,
    pub has_more: bool,
}

/// `GET /products` body; `pagination` is present only with `includePagination=true`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductsResponse<P = Product> {
    pub products: Vec<P>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
}

/// `GET /products/slug/{slug}` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProductResponse {
    pub product: Product,
}

/// Product summary inside a collection. `price` is the lowest variant price,
/// `compareAtPrice` that variant's compare-at price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionProduct {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub images: Vec<Image>,
    pub tags: Vec<String>,
    pub price: String,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub compare_at_price: Option<String>,
}

/// A collection with its products (`GET /collections/slug/{slug}`, `GET /collections/{id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Collection {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub meta_title: String,
    pub meta_description: String,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub image: Option<Image>,
    /// The parent collection's id; `null` for a root collection.
    #[serde(deserialize_with = "nullable::deserialize")]
    pub parent: Option<String>,
    pub products: Vec<CollectionProduct>,
    /// From the root to this collection itself.
    pub breadcrumb: Vec<CollectionRef>,
}

/// `GET /collections` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionsResponse {
    pub collections: Vec<Collection>,
}

/// `GET /collections/slug/{slug}` and `GET /collections/{id}` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionResponse {
    pub collection: Collection,
}

/// A content page of the store (`GET /pages`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page {
    pub id: String,
    pub title: String,
    pub slug: String,
    pub content: String,
    pub page_type: String,
    pub frontend_id: String,
    pub meta_title: String,
    pub meta_description: String,
    pub created_at: String,
    pub updated_at: String,
}

/// `GET /pages` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PagesResponse {
    pub pages: Vec<Page>,
}

/// The store's settings (`GET /store`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Store {
    pub id: String,
    pub name: String,
    pub default_currency: String,
    pub contact_email: String,
    pub frontend_domain: String,
    pub logo_url: String,
    pub logo_height_desktop: f64,
    pub logo_height_mobile: f64,
    pub header_padding_desktop: f64,
    pub header_padding_mobile: f64,
    pub favicon_url: String,
    pub email_logo_url: String,
    pub processing_time_min: f64,
    pub processing_time_max: f64,
    pub shipping_time_min: f64,
    pub shipping_time_max: f64,
    pub return_period_days: f64,
    pub refund_time_min: f64,
    pub refund_time_max: f64,
    pub business_hours_weekday_open: String,
    pub business_hours_weekday_close: String,
    pub business_hours_weekend_open: String,
    pub business_hours_weekend_close: String,
    pub route_products: String,
    pub route_collections: String,
    pub route_pages: String,
    pub home_meta_title: String,
    pub home_meta_description: String,
}

/// `GET /store` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoreResponse {
    pub store: Store,
}

// ---------------------------------------------------------------- shipping

/// `POST /shipping-rates` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingRatesRequest {
    pub variant_ids: Vec<String>,
    /// ISO 3166-1 alpha-2, uppercase.
    pub country: String,
    /// Order total in major units; keeps rates whose band contains it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_total: Option<f64>,
}

/// A shipping rate a variant can use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingRate {
    pub id: String,
    pub name: String,
    pub price: String,
    pub delivery_description: String,
    pub delivery_timeframe_min: u32,
    pub delivery_timeframe_max: u32,
    /// Lower bound of the order-total band; `null` is open.
    #[serde(deserialize_with = "nullable::deserialize")]
    pub min_order_price: Option<String>,
    /// Upper bound of the order-total band; `null` is open.
    #[serde(deserialize_with = "nullable::deserialize")]
    pub max_order_price: Option<String>,
}

/// The shipping rates of one variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VariantRates {
    pub variant_id: String,
    pub profile_id: String,
    pub rates: Vec<ShippingRate>,
}

/// `POST /shipping-rates` body of the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingRatesResponse {
    pub variant_rates: Vec<VariantRates>,
}

// ---------------------------------------------------------------- payments

/// A variant and the quantity of it being bought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentItem {
    pub variant_id: String,
    pub quantity: u32,
}

/// `POST /payments/initiate` body: what is bought, in which currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitiateRequest {
    pub items: Vec<PaymentItem>,
    pub currency: String,
}

/// The payment processor of a payment session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Processor {
    Stripe,
}

/// Integer minor units; `total == subtotal + shipping + tax`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Breakdown {
    pub subtotal: i64,
    pub shipping: i64,
    pub tax: i64,
    pub total: i64,
}

/// `POST /payments/initiate` answer: the payment session and its amount.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitiateResponse {
    pub processor: Processor,
    pub session_id: String,
    pub publishable_key: String,
    /// Integer minor units.
    pub amount: i64,
    pub currency: String,
    pub breakdown: Breakdown,
}

/// Where an order is shipped.
// `Default`: the tests' fixtures set what they need, so a member added here touches none of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingAddress {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub address1: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address2: Option<String>,
    pub city: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    pub postal_code: String,
    /// ISO 3166-1 alpha-2, uppercase.
    pub country: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
}

/// `POST /payments/update` body: the shipping rate and address chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateRequest {
    pub session_id: String,
    pub shipping_rate_id: String,
    pub shipping_address: ShippingAddress,
}

/// `POST /payments/update` answer: the session's new amount.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateResponse {
    pub session_id: String,
    pub amount: i64,
    pub currency: String,
    pub breakdown: Breakdown,
}

/// `POST /payments/confirm` body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmRequest {
    pub session_id: String,
    /// `ctoken_…` (Stripe ConfirmationToken) or `tok_…` (localstripe card token).
    pub confirmation_token_id: String,
    pub shipping_rate_id: String,
    pub shipping_address: ShippingAddress,
    pub return_url: String,
}

/// The processor's payment status, as Stripe names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaymentStatus {
    Succeeded,
    RequiresAction,
    RequiresPaymentMethod,
    Processing,
    Canceled,
}

/// `POST /payments/confirm` answer: the processor's status of the payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmResponse {
    pub success: bool,
    pub status: PaymentStatus,
    /// Present only when `status` is `requires_action`.
    #[serde(deserialize_with = "nullable::deserialize")]
    pub client_secret: Option<String>,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub payment_intent_id: Option<String>,
    /// `null` on success; the processor's reason otherwise.
    #[serde(deserialize_with = "nullable::deserialize")]
    pub error: Option<String>,
}

// ---------------------------------------------------------------- errors

/// The `code` of a server error body (CONTRACT.md, "Errors"). Its HTTP status table (both
/// ways) is in `crate::error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerErrorCode {
    InvalidRequest,
    Unauthorized,
    NotFound,
    Conflict,
    PayloadTooLarge,
    UnsupportedMediaType,
    RateLimited,
    ProcessorError,
    Internal,
}

/// `{ "error": "<human message>", "code": "<machine code>" }` on every non-2xx.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: String,
    pub code: ServerErrorCode,
}

#[cfg(test)]
mod tests;
