// The typed face of the wasm CirrusClient: products() whose result type follows
// its options, an async iterator over every product, and the init() guard.
import {
  CirrusClient as WasmClient,
  type ClientOptions,
  type MinimalProduct,
  type Pagination,
  type Product,
  type ProductsOptions,
} from "./cirrus_storefront.js";
import { assertReady } from "./ready.js";

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

/** What `products(options)` resolves with. */
export type ProductsResult<O> = { products: ProductOf<O>[] } & PaginationOf<O>;

/** Options of `allProducts()`: page size and the minimal flag. */
export interface AllProductsOptions {
  /** Products per request, 1..=500 (default 100). */
  pageSize?: number;
  minimal?: boolean;
}

export class CirrusClient extends WasmClient {
  /**
   * Makes a client; the options are checked at once.
   * @throws {CirrusError} `invalid_state` before `init()`, `invalid_argument` for a bad option.
   */
  constructor(options: ClientOptions) {
    assertReady();
    super(options);
  }

  /**
   * `GET /products`. With `minimal: true` the products are `MinimalProduct`s; with
   * `includePagination: true` the result has `pagination`.
   */
  override products<const O extends ProductsOptions | undefined = undefined>(
    options?: O,
    signal?: AbortSignal,
  ): Promise<ProductsResult<O>> {
    return super.products(options ?? {}, signal) as Promise<ProductsResult<O>>;
  }

  /**
   * Every active product, fetched page by page (`for await (const p of client.allProducts())`).
   */
  async *allProducts<const O extends AllProductsOptions | undefined = undefined>(
    options?: O,
    signal?: AbortSignal,
  ): AsyncGenerator<ProductOf<O>, void, undefined> {
    const limit = options?.pageSize ?? 100;
    const minimal = options?.minimal ?? false;
    let offset = 0;
    for (;;) {
      const page = await super.products({ limit, offset, minimal, includePagination: true }, signal);
      for (const p of page.products) yield p as ProductOf<O>;
      offset += page.products.length;
      if (!page.pagination?.hasMore || page.products.length === 0) return;
    }
  }
}
