//! The TypeScript of `CirrusClient` ([`super::client`]): the generated model
//! types (js/generated/types.ts) and the hand-written signatures wasm-bindgen
//! cannot infer (options that type the result).

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
