/// <reference lib="esnext.disposable" preserve="true" />
import { CirrusClient as WasmClient } from "./cirrus_storefront.js";
// The storefront helpers (variants, store URLs, SEO): the wasm's own free functions (src/wasm/storefront.rs).
import {
  canonicalUrl as wasmCanonicalUrl,
  collectionSeo as wasmCollectionSeo,
  defaultSelection as wasmDefaultSelection,
  homeSeo as wasmHomeSeo,
  pageSeo as wasmPageSeo,
  productOptions as wasmProductOptions,
  productSeo as wasmProductSeo,
  resolveStorePath as wasmResolveStorePath,
  storePath as wasmStorePath,
  variantSelection as wasmVariantSelection,
} from "./cirrus_storefront.js";
import type { OptionMatrix, OptionSelection, Product } from "./cirrus_storefront.js";
import { guardClass, guardFn } from "./guard.js";

// Entry of `cirrus-storefront/client`: the catalog client alone, next to its own, smaller
// .wasm (the crate built with `--no-default-features --features "client storefront"`: no cart, checkout or money exports).
// For pages that only read the catalog; everything else comes from "cirrus-storefront".
// scripts/build-pkg.sh compiles this file as `client/index.ts`, with js/node.ts beside it;
// the root entry (js/index.ts) re-exports it, so both entries expose the same client surface.
export type {
  Breakdown,
  ClientOptions,
  Collection,
  CollectionProduct,
  CollectionRef,
  CollectionResponse,
  CollectionsResponse,
  ConfirmRequest,
  ConfirmResponse,
  CountryCode,
  CurrencyCode,
  DisplayStyle,
  Image,
  InitiateRequest,
  InitiateResponse,
  MinimalProduct,
  MinimalProductsResponse,
  MinorUnits,
  OptionValue,
  Page,
  PagesResponse,
  Pagination,
  PaymentItem,
  PaymentStatus,
  Processor,
  Product,
  ProductOption,
  ProductResponse,
  ProductStatus,
  ProductsOptions,
  ProductsResponse,
  ShippingAddress,
  ShippingRate,
  ShippingRatesRequest,
  ShippingRatesResponse,
  StockStatus,
  Store,
  StoreResponse,
  UpdateRequest,
  UpdateResponse,
  Variant,
  VariantRates,
} from "./cirrus_storefront.js";
export type { AllProductsOptions, PaginationOf, ProductOf, ProductPages, ProductsResult } from "./cirrus_storefront.js";
import type { InitInput as GlueInitInput, SyncInitInput as GlueSyncInitInput } from "./cirrus_storefront.js";
/**
 * What `init()` loads the SDK's `.wasm` from: a URL, a `Request`, a `Response`, the bytes or a
 * compiled `WebAssembly.Module` (or a promise of one). Omitted, `init()` loads the package's own.
 */
export type InitInput = GlueInitInput;
/** What `initSync()` instantiates at once: the `.wasm`'s bytes or a compiled `WebAssembly.Module`. */
export type SyncInitInput = GlueSyncInitInput;
export type { CacheMembers, CacheStrategy, CallOptions, StaleAnswer, StaleReason } from "./cirrus_storefront.js";
export type {
  OpenGraph,
  OptionAvailability,
  OptionMatrix,
  OptionSelection,
  OptionValueAvailability,
  SeoMeta,
  StoreResource,
  StoreSettings,
} from "./cirrus_storefront.js";
export { CirrusError, type CirrusErrorFields, type ErrorCode } from "./error.js";
export { isReady } from "./ready.js";
/** SEO metadata in Next.js's `Metadata` shape (plain JS, usable before `init()`). */
export { toNextMetadata, type NextMetadata } from "./next-metadata.js";
export { init } from "./load.js";
/** Cache strategy presets (plain values, usable before `init()`). */
export { CacheCustom, CacheLong, CacheNone, CacheShort } from "./cache.js";

/** Synchronous `init()` from the module's bytes or a compiled `WebAssembly.Module`. */
export { initSync } from "./init-sync.js";

/**
 * The catalog client: the Rust `CirrusClient` class of the wasm (src/wasm/client.rs),
 * guarded so that `new CirrusClient()` before `init()` is a clear `CirrusError`.
 * @class
 */
export const CirrusClient = /* @__PURE__ */ guardClass(WasmClient);
export type CirrusClient = WasmClient;

/** Storefront helpers (docs/ARCHITECTURE.md "Storefront helpers"), guarded like the client. */
/** `selection` may be omitted (nothing selected). */
export const productOptions: (product: Product, selection?: OptionSelection | null) => OptionMatrix = /* @__PURE__ */ guardFn(wasmProductOptions);
/** @function */
export const variantSelection = /* @__PURE__ */ guardFn(wasmVariantSelection);
/**
 * The selection a product page starts from: the first in-stock variant's options (else the
 * first variant's, else none). Pass it to `productOptions` on the server.
 * @function
 */
export const defaultSelection = /* @__PURE__ */ guardFn(wasmDefaultSelection);
/** @function */
export const storePath = /* @__PURE__ */ guardFn(wasmStorePath);
/** @function */
export const resolveStorePath = /* @__PURE__ */ guardFn(wasmResolveStorePath);
/** @function */
export const canonicalUrl = /* @__PURE__ */ guardFn(wasmCanonicalUrl);
/** @function */
export const homeSeo = /* @__PURE__ */ guardFn(wasmHomeSeo);
/** @function */
export const productSeo = /* @__PURE__ */ guardFn(wasmProductSeo);
/** @function */
export const collectionSeo = /* @__PURE__ */ guardFn(wasmCollectionSeo);
/** @function */
export const pageSeo = /* @__PURE__ */ guardFn(wasmPageSeo);
