// CirrusClient: the I/O half of the SDK client. It fetches (timeout, abort, the
// retry loop), shares identical GETs in flight, caches with a TTL, and checks the
// shape of arguments and 2xx bodies against the generated schemas. Every rule is
// the Rust core's (src/wasm/client.rs): options, paths and queries, body rules,
// the retry policy, the error of a non-2xx response.
import {
  catalogPath,
  checkAddress,
  checkConfirm,
  checkEndpoint,
  checkInitiate,
  checkNumbers,
  checkShippingRates,
  checkUpdate,
  httpError,
  productsPath,
  retryDelay,
  type ClientOptions,
  type Collection,
  type ConfirmRequest,
  type ConfirmResponse,
  type InitiateRequest,
  type InitiateResponse,
  type MinimalProduct,
  type Page,
  type Pagination,
  type Product,
  type ProductsOptions,
  type ShippingAddress,
  type ShippingRatesRequest,
  type Store,
  type UpdateRequest,
  type UpdateResponse,
  type VariantRates,
} from "./cirrus_storefront.js";
import { cirrusError } from "./error.js";
import { SCHEMA } from "./generated/schema.js";
import { assertReady } from "./ready.js";
import { cirrusFetch, raceAbort, sleep } from "./transport.js";
import { checkArg, fieldNames, parseChecked } from "./validate.js";

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

/** What js/transport.js's cirrusFetch resolves with. */
interface Raw {
  status: number;
  body: string;
  requestId?: string | null;
  retryAfter?: string | null;
  failure?: "network" | "timeout" | "aborted";
  message: string;
}

/** A GET in flight (shared by its callers) or a cached answer. */
type Flight = { p: Promise<unknown>; n: number; c: AbortController };
type Entry = Flight | { v: unknown; t: number };

/** [path and query, response schema, member to unwrap ("" keeps the body), pagination required] */
type Get = [string, string, string, boolean?];

const fail = cirrusError;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The argument's shape against the generated schema `name` (the rules are Rust's). */
function arg<T>(value: unknown, name: string, what: string, strict?: boolean): T {
  try {
    return checkArg(value, name, what, SCHEMA, strict) as T;
  } catch (m) {
    throw fail("invalid_argument", String(m));
  }
}

function checkSignal(signal: unknown): void {
  if (signal != null && typeof (signal as AbortSignal).aborted !== "boolean") {
    throw fail("invalid_argument", "signal must be an AbortSignal");
  }
}

const address = (a: ShippingAddress) =>
  checkAddress(a.email, a.firstName, a.lastName, a.address1, a.address2 ?? undefined, a.city, a.state ?? undefined, a.postalCode, a.country, a.phone ?? undefined);

/** A Cirrus V1 storefront client. */
export class CirrusClient {
  readonly #base: string;
  readonly #auth: string;
  readonly #fetch: typeof fetch | undefined;
  readonly #timeout: number;
  readonly #retries: number;
  readonly #ttl: number;
  readonly #entries = new Map<string, Entry>();

  /**
   * Makes a client. Options are checked here: `baseUrl` (ends with `/api/v1`, https
   * unless loopback), `apiKey` (`ak_` + 48 hex), `timeoutMs` (default 10000), `retries`
   * (default 2), `cacheTtlMs` (default 0: no cache), `fetch` (default `globalThis.fetch`).
   * @throws {CirrusError} `invalid_state` before `init()`, `invalid_argument` for a bad option.
   */
  constructor(options: ClientOptions) {
    assertReady();
    const o = arg<ClientOptions>(options, "ClientOptions", "options", true);
    this.#base = checkEndpoint(o.baseUrl, o.apiKey);
    [this.#timeout, this.#retries, this.#ttl] = checkNumbers(o.timeoutMs ?? undefined, o.retries ?? undefined, o.cacheTtlMs ?? undefined);
    this.#auth = "Bearer " + o.apiKey;
    this.#fetch = o.fetch;
  }

  /**
   * `GET /products`: `limit` 1..=500 (an integer), `offset` >= 0. With `minimal: true`
   * the products are `MinimalProduct`s; with `includePagination: true` the result has
   * `pagination`.
   */
  products<const O extends ProductsOptions | undefined = undefined>(options?: O, signal?: AbortSignal): Promise<ProductsResult<O>> {
    return this.#get(signal, () => {
      const o = arg<ProductsOptions>(options, "ProductsOptions", "options", true);
      const path = productsPath(o.limit ?? undefined, o.offset ?? undefined, !!o.includePagination, !!o.minimal);
      return [path, o.minimal ? "MinimalProductsResponse" : "ProductsResponse", "", !!o.includePagination];
    }) as Promise<ProductsResult<O>>;
  }

  /** Every active product, fetched page by page (`for await (const p of client.allProducts())`). */
  async *allProducts<const O extends AllProductsOptions | undefined = undefined>(
    options?: O,
    signal?: AbortSignal,
  ): AsyncGenerator<ProductOf<O>, void, undefined> {
    const limit = options?.pageSize ?? 100;
    const minimal = options?.minimal ?? false;
    for (let offset = 0; ; ) {
      const page = await this.products({ limit, offset, minimal, includePagination: true }, signal);
      for (const p of page.products) yield p as ProductOf<O>;
      offset += page.products.length;
      if (!page.pagination.hasMore || page.products.length === 0) return;
    }
  }

  /** `GET /products/slug/{slug}`: the product. */
  productBySlug(slug: string, signal?: AbortSignal): Promise<Product> {
    return this.#catalog("productBySlug", "slug", slug, "ProductResponse", "product", signal) as Promise<Product>;
  }

  /** `GET /pages`: every page. */
  pages(signal?: AbortSignal): Promise<Page[]> {
    return this.#catalog("pages", "", "", "PagesResponse", "pages", signal) as Promise<Page[]>;
  }

  /** `GET /collections`: every collection, with products and breadcrumb. */
  collections(signal?: AbortSignal): Promise<Collection[]> {
    return this.#catalog("collections", "", "", "CollectionsResponse", "collections", signal) as Promise<Collection[]>;
  }

  /** `GET /collections/slug/{slug}`: the collection. */
  collectionBySlug(slug: string, signal?: AbortSignal): Promise<Collection> {
    return this.#catalog("collectionBySlug", "slug", slug, "CollectionResponse", "collection", signal) as Promise<Collection>;
  }

  /** `GET /collections/{id}`: the collection. */
  collection(id: string, signal?: AbortSignal): Promise<Collection> {
    return this.#catalog("collection", "id", id, "CollectionResponse", "collection", signal) as Promise<Collection>;
  }

  /** `GET /store`: the store configuration. */
  store(signal?: AbortSignal): Promise<Store> {
    return this.#catalog("store", "", "", "StoreResponse", "store", signal) as Promise<Store>;
  }

  /** `POST /shipping-rates`: the rates per variant (retried like a GET). */
  shippingRates(body: ShippingRatesRequest, signal?: AbortSignal): Promise<VariantRates[]> {
    return this.#post(signal, "/shipping-rates", true, "ShippingRatesResponse", "variantRates", "ShippingRatesRequest", body, (b: ShippingRatesRequest) =>
      checkShippingRates(b.variantIds, b.country, b.orderTotal ?? undefined),
    ) as Promise<VariantRates[]>;
  }

  /** `POST /payments/initiate` (sent once, never retried). */
  initiatePayment(body: InitiateRequest, signal?: AbortSignal): Promise<InitiateResponse> {
    return this.#post(signal, "/payments/initiate", false, "InitiateResponse", "", "InitiateRequest", body, (b: InitiateRequest) =>
      checkInitiate(
        b.items.map((i) => i.variantId),
        Uint32Array.from(b.items, (i) => i.quantity),
        b.currency,
      ),
    ) as Promise<InitiateResponse>;
  }

  /** `POST /payments/update` (sent once, never retried). */
  updatePayment(body: UpdateRequest, signal?: AbortSignal): Promise<UpdateResponse> {
    return this.#post(signal, "/payments/update", false, "UpdateResponse", "", "UpdateRequest", body, (b: UpdateRequest) => {
      checkUpdate(b.sessionId, b.shippingRateId);
      address(b.shippingAddress);
    }) as Promise<UpdateResponse>;
  }

  /**
   * `POST /payments/confirm` (sent once, never retried; the server makes it idempotent,
   * so calling it again after 3-D Secure is safe).
   */
  confirmPayment(body: ConfirmRequest, signal?: AbortSignal): Promise<ConfirmResponse> {
    return this.#post(signal, "/payments/confirm", false, "ConfirmResponse", "", "ConfirmRequest", body, (b: ConfirmRequest) => {
      checkConfirm(b.sessionId, b.confirmationTokenId, b.shippingRateId, b.returnUrl);
      address(b.shippingAddress);
    }) as Promise<ConfirmResponse>;
  }

  /** Forgets cached answers (requests in flight still complete). */
  clearCache(): void {
    for (const [k, e] of this.#entries) if ("v" in e) this.#entries.delete(k);
  }

  /** Nothing to free (the client is plain JS); kept from the wasm class it was. */
  free(): void {}

  [Symbol.dispose](): void {}

  #catalog(method: string, what: string, value: unknown, schema: string, member: string, signal?: AbortSignal): Promise<unknown> {
    return this.#get(signal, () => {
      if (typeof value !== "string") throw fail("invalid_argument", what + " must be a string");
      return [catalogPath(method, value), schema, member];
    });
  }

  /**
   * A GET: identical requests in flight share one; with a TTL, answers are cached. Each
   * caller's `signal` aborts only that caller (the request itself once every caller
   * has given up).
   */
  async #get(signal: AbortSignal | undefined, build: () => Get): Promise<unknown> {
    checkSignal(signal);
    const [path, schema, member, pagination] = build();
    const entries = this.#entries;
    let e = entries.get(path);
    if (e && "v" in e) {
      if (e.t > Date.now()) return e.v;
      e = undefined;
    }
    if (!e) {
      const c = new AbortController();
      const f: Flight = {
        n: 0,
        c,
        p: this.#send("GET", path, undefined, true, c.signal, schema, member, pagination).then(
          (v) => {
            if (entries.get(path) === f) this.#ttl ? entries.set(path, { v, t: Date.now() + this.#ttl }) : entries.delete(path);
            return v;
          },
          (x: unknown) => {
            if (entries.get(path) === f) entries.delete(path);
            throw x;
          },
        ),
      };
      // Every caller may have gone; keep the rejection from being "unhandled".
      f.p.catch(() => {});
      entries.set(path, (e = f));
    }
    const f = e;
    f.n++;
    return raceAbort(f.p, signal, (m: string) => fail("aborted", m), () => {
      if (--f.n) return;
      if (entries.get(path) === f) entries.delete(path);
      f.c.abort();
    });
  }

  /** A POST: never shared or cached; the body's shape, then its rules, are checked first. */
  async #post<B>(
    signal: AbortSignal | undefined,
    path: string,
    retryable: boolean,
    schema: string,
    member: string,
    name: string,
    body: unknown,
    rules: (b: B) => void,
  ): Promise<unknown> {
    checkSignal(signal);
    const b = arg<B>(body, name, "body");
    rules(b);
    return this.#send("POST", path, JSON.stringify(b, fieldNames(name, SCHEMA)), retryable, signal ?? undefined, schema, member);
  }

  /** Sends (retrying as the core's policy says) and checks a 2xx body against `schema`. */
  async #send(
    method: string,
    path: string,
    body: string | undefined,
    retryable: boolean,
    signal: AbortSignal | undefined,
    schema: string,
    member: string,
    pagination?: boolean,
  ): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const r = (await cirrusFetch(this.#fetch, this.#base + path, method, this.#auth, body, this.#timeout, signal)) as unknown as Raw;
      const { status, failure, requestId = null, retryAfter } = r;
      if (failure === "aborted") throw fail(failure, r.message);
      if (!failure && status > 199 && status < 300) {
        try {
          const v = parseChecked(r.body, schema, SCHEMA) as Record<string, unknown>;
          if (pagination && v.pagination === undefined) throw "at pagination: missing field `pagination` (asked for with includePagination)";
          return member ? v[member] : v;
        } catch (m) {
          throw fail("decode", `${method} ${path}: ${String(m)}`, status, requestId);
        }
      }
      let e: unknown = failure && fail(failure, r.message);
      if (!e) {
        let b: { code?: unknown; error?: unknown } | undefined;
        try {
          b = JSON.parse(r.body) as typeof b;
        } catch {
          // not JSON: an `http` error
        }
        e = httpError(status, str(b?.code), str(b?.error), requestId ?? undefined, retryAfter ?? undefined);
      }
      const wait = retryDelay(attempt, this.#retries, retryable, status, retryAfter ?? undefined, Math.random());
      if (wait === undefined) throw e;
      if (!(await sleep(wait, signal))) throw fail("aborted", "aborted while waiting to retry");
    }
  }
}
