/// <reference lib="esnext.disposable" preserve="true" />
// Entry of `cirrus-storefront/client`: the catalog client alone, next to its own, smaller
// .wasm (the crate built with `--features sdk-only`: no cart, checkout or money exports).
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
  DisplayStyle,
  Image,
  InitInput,
  InitiateRequest,
  InitiateResponse,
  MinimalProduct,
  MinimalProductsResponse,
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
  SyncInitInput,
  UpdateRequest,
  UpdateResponse,
  Variant,
  VariantRates,
} from "./cirrus_storefront.js";
export { CirrusError, type CirrusErrorFields, type ErrorCode } from "./error.js";
export { CirrusClient, type AllProductsOptions, type PaginationOf, type ProductOf, type ProductsResult } from "./client.js";
export { isReady } from "./ready.js";
export { init } from "./load.js";

/** Synchronous `init()` from the module's bytes or a compiled `WebAssembly.Module`. */
export { initSync } from "./init-sync.js";
