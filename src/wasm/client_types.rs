//! The TypeScript of `CirrusClient` ([`super::client`]): the generated model
//! types (js/generated/types.ts) and the hand-written signatures wasm-bindgen
//! cannot infer (options that type the result, the cache strategy, call options).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../js/generated/types.ts");

#[wasm_bindgen(typescript_custom_section)]
const CLIENT_TYPES: &str = r#"
/** The value of option `K` in an options type `O` (`undefined` when absent). */
type FlagOf<O, K extends string> = O extends object ? (K extends keyof O ? O[K] : undefined) : undefined;

/** The product type `products(options)` yields: `MinimalProduct` when `minimal: true`. */
export type ProductOf<O> = [FlagOf<O, "minimal">] extends [true]
  ? MinimalProduct
  : [FlagOf<O, "minimal">] extends [false | null | undefined]
    ? Product
    : Product | MinimalProduct;

/** `pagination` is present exactly when `includePagination: true`. */
export type PaginationOf<O> = [FlagOf<O, "includePagination">] extends [true]
  ? { pagination: Pagination }
  : [FlagOf<O, "includePagination">] extends [false | null | undefined]
    ? { pagination?: never }
    : { pagination?: Pagination };

/**
 * The options `O` a call was given, with each member its options type `T` lacks typed as a
 * message naming it: an unknown or misspelled option is a compile error also next to known
 * ones (`Type 'number' is not assignable to type '"pageSize is not an option of products()"'`).
 */
type ExactOptions<T, O, Call extends string> = [Exclude<keyof O, keyof T>] extends [never]
  ? O
  : { [K in keyof O]: K extends keyof T ? O[K] : `${K & string} is not an option of ${Call}` };

/** What `products(options)` resolves with. */
export type ProductsResult<O> = { products: ProductOf<O>[] } & PaginationOf<O>;

/**
 * A cache strategy (Hydrogen's, in milliseconds): `"no-store"` (nothing cached), or how long
 * an answer is used: fresh for `maxAgeMs` (no request); then for `staleWhileRevalidateMs`
 * more it is given at once while one request refreshes it in the background; and for
 * `staleIfErrorMs` after `maxAgeMs` it is given instead of a network error, a timeout or a
 * 5xx (the call's `onStale` hears of it). Absent members are 0. Presets: `CacheShort()`, `CacheLong()`,
 * `CacheNone()`, `CacheCustom({...})`.
 */
export type CacheStrategy = "no-store" | { maxAgeMs?: number; staleWhileRevalidateMs?: number; staleIfErrorMs?: number };

/** What `onStale` is told when a call was answered with a stored answer past its `maxAgeMs`. */
export interface StaleAnswer {
  /** `"revalidating"`: stale-while-revalidate (a refresh runs in the background); `"error"`: stale-if-error (`error` is what the request failed with). */
  reason: "revalidating" | "error";
  /** The request path (`"/products?limit=12"`). */
  path: string;
  /** Milliseconds since the answer was fetched. */
  ageMs: number;
  /** The request's error (`reason: "error"`), else `null`. */
  error: Error | null;
}

/**
 * The last argument of every call: an `AbortSignal`, or these options.
 * `fetchOptions` go to `fetch` as its second argument (Next's `{ next: { revalidate, tags } }`,
 * Workers' `cf`, `cache: "force-cache"` …); `method`, `headers`, `body` and `signal` are the
 * client's and are refused. Identical GETs in flight share one request, sent with the first
 * caller's `fetchOptions`.
 */
export interface CallOptions {
  signal?: AbortSignal;
  /** This call's cache strategy, instead of the client's (GETs; POSTs are never cached). */
  cache?: CacheStrategy;
  fetchOptions?: { [member: string]: unknown };
  /** Told (before the promise resolves) when this call is answered with a stale answer. */
  onStale?: (answer: StaleAnswer) => void;
}

export interface CirrusClient {
  /**
   * `GET /products`: `limit` 1..=500 (an integer), `offset` >= 0. With `minimal: true`
   * the products are `MinimalProduct`s; with `includePagination: true` the result has
   * `pagination`.
   */
  products<const O extends ProductsOptions | undefined = undefined>(options?: ExactOptions<ProductsOptions, O, "products()">, signal?: AbortSignal | CallOptions): Promise<ProductsResult<O>>;
  /** Options whose members are not known here (a generic wrapper's `O extends ProductsOptions`). */
  products(options?: ProductsOptions, signal?: AbortSignal | CallOptions): Promise<ProductsResult<ProductsOptions>>;
  /** Every active product, fetched page by page (`for await (const p of client.allProducts())`). */
  allProducts<const O extends AllProductsOptions | undefined = undefined>(options?: ExactOptions<AllProductsOptions, O, "allProducts()">, signal?: AbortSignal | CallOptions): AsyncIterableIterator<ProductOf<O>>;
  /** Options whose members are not known here (a generic wrapper's `O extends AllProductsOptions`). */
  allProducts(options?: AllProductsOptions, signal?: AbortSignal | CallOptions): AsyncIterableIterator<ProductOf<AllProductsOptions>>;
}
"#;
