// `cirrus-storefront/store`: the plain-JS store every framework binding reads (React's
// js/react.ts today; Svelte's and Vue's are the same thin layer), with no framework import.
// The persistent `Cart`, `Checkout` (the cart-owned checkout: `Checkout.resume ??
// Checkout.start`) and `productOptions` decide every rule; the store only keeps a framework in
// step with them: each piece has `subscribe(listener)` and `getSnapshot()` (a new object after
// every change, the same one until then), stable actions, and `start()` / `stop()` for the
// lifetime of the component that owns it.
//   - `CartStore`: the cart: its saved summary before the wasm (cirrus-storefront/cart-summary,
//     plain JS), then its lines, totals and actions once the SDK read it.
//   - `CheckoutStore`: the cart's checkout, opened once the cart is loaded, freed on `stop()`.
//   - `ProductPicker` (cirrus-storefront/picker): a product's option picker; `mount()` for
//     the component showing it.
//   - `preloadSdk`, `sdkPreload`: the early SDK load of a page whose first action must be fast.
// Nothing of the SDK's wasm is fetched until it is needed: the root entry (its glue and .wasm,
// js/lazy-sdk.ts) is imported when the buyer acts on the cart, when a component asks for the
// lines (`loadWhen`) or a checkout, when a page with a product picker is idle, or with the page
// (`preloadSdk`). The server snapshot is the not-ready cart without a summary, so the first
// client render matches the server's HTML.
import type {
  Cart,
  CartLine,
  CartSummary,
  CartTotals,
  CheckoutOptions,
  CheckoutState,
  CirrusClient,
  ClientOptions,
  CountryCode,
  CurrencyCode,
  PayOptions,
  ProcessorAdapter,
  RestoreProblem,
  ShippingAddress,
  ShippingOption,
  Store,
  Product,
} from "./index.js";
import type { Checkout } from "./index.js";
import { readCartSummary, subscribeCartSummary, type StoredCartSummary } from "./cart-summary.js";
import { asCirrusError, cirrusError, type CirrusError } from "./error.js";
import { report } from "./report.js";
import { earlyCompileScript, loadSdk, loadSdkWhenIdle, provideSdk, sdkWasmHref, type Sdk } from "./lazy-sdk.js";

export { ProductPicker, type PickerInitial, type PickerState } from "./picker.js";
export type { Sdk, StoredCartSummary };

/** The cart before the SDK read it (on the server, after hydration, until the buyer acts). */
export interface PendingCart {
  /** `false` until the cart was read by the SDK (the lines are then the stored ones). */
  ready: false;
  /** `true` while the SDK loads the cart (after an action, `load()`, a checkout). */
  loading: boolean;
  /** The stored cart's summary (no wasm needed): `null` on the server, in the first client render, and when it cannot be known. */
  summary: StoredCartSummary | null;
  /** Not known before the SDK read the cart. */
  currency: null;
  /** Empty before the SDK read the cart. */
  lines: readonly CartLine[];
  /** Not known before the SDK read the cart. */
  totals: null;
  /** As the summary says (`true` when it is unknown). */
  isEmpty: boolean;
  /** Known once the SDK read the cart. */
  problem: null;
  /** Why the cart could not be loaded (`init()` failed, the client could not be made, the store's currency could not be read), else `null`. */
  error: CirrusError | null;
}

/** The cart as the SDK read it. */
export interface ReadyCart {
  /** The cart was read by the SDK. */
  ready: true;
  /** Never loading once read. */
  loading: false;
  /** The cart's own summary. */
  summary: CartSummary;
  /** The cart's currency. */
  currency: CurrencyCode;
  /** The cart's lines. */
  lines: readonly CartLine[];
  /** The cart's totals. */
  totals: CartTotals;
  /** `true` when the cart has no line. */
  isEmpty: boolean;
  /** Why the stored cart could not be used as it was (corrupt data, no storage, a failed save). */
  problem: RestoreProblem | null;
  /** The last action's refusal (e.g. a quantity beyond the stock), else `null`. */
  error: CirrusError | null;
}

/** The cart as it is now (`ready` narrows it). */
export type CartSnapshot = PendingCart | ReadyCart;

/**
 * The cart's actions (stable functions). Each loads the cart first if needed (the SDK's wasm
 * is fetched on the first one), then applies the change; the promise rejects with the SDK's
 * `CirrusError` (also the snapshot's `error`, and logged once in development).
 */
export interface CartActions {
  /** Adds `quantity` (default 1) of a variant of `product` (merged with a line of the same variant). */
  add(product: Product, variantId: string, quantity?: number): Promise<void>;
  /** Sets a line's quantity (0 removes it). */
  setQuantity(variantId: string, quantity: number): Promise<void>;
  /** `true` when there was such a line. */
  remove(variantId: string): Promise<boolean>;
  /** Removes every line. */
  clear(): Promise<void>;
  /** Reads the cart with the SDK now. */
  load(): Promise<void>;
}

/** A `CartStore`'s snapshot: the cart as it is now and its actions. */
export type CartView = CartSnapshot & CartActions;

/**
 * What a `CartStore` is made from: the client (or its options), the store settings and the
 * cart's currency and key. `update()` with another client (or other options), currency or cart
 * key loads the cart again with them; an options literal equal to the last one changes nothing.
 */
export interface CartStoreOptions {
  /** A `CirrusClient` (made after `init()`), or its options: the client is then made in the browser when the cart is first loaded. */
  client: CirrusClient | ClientOptions;
  /** The store settings, when the page has them (a server's `client.store()`); the cart's currency is their `defaultCurrency`. */
  store?: Store | null;
  /** The cart's currency; default `store.defaultCurrency`, else the one `client.store()` answers. */
  currency?: CurrencyCode;
  /** The cart's `localStorage` key (`Cart.persistent`'s `key`). */
  cartKey?: string;
}

type Listener = () => void;

/** Whether two `client` options make the same client (an options literal is new on every render). */
function sameClient(a: CartStoreOptions["client"], b: CartStoreOptions["client"]): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  const flat = (v: unknown): unknown => (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype ? JSON.stringify(v) : v);
  return ka.length === kb.length && ka.every((k) => Object.is(flat((a as unknown as Record<string, unknown>)[k]), flat((b as unknown as Record<string, unknown>)[k])));
}

/** What `Checkout` reads of the cart and calls to empty it once paid. */
type CheckoutCart = NonNullable<CheckoutOptions["cart"]>;

/**
 * The persistent cart of one page (one per page: two carts on one key in one tab do not hear
 * each other; other tabs do): its saved summary after `start()`, then the SDK's client and
 * `Cart.persistent` once loaded. `subscribe` / `getSnapshot` (`getServerSnapshot` on the
 * server and in the first client render), `actions`, and `start()` / `update()` / `stop()`
 * for the lifetime of the component that owns it.
 * @example
 * const cart = new CartStore({ client: { baseUrl, apiKey }, store });
 * cart.start(); // in the browser, once mounted
 * const stop = cart.subscribe(() => render(cart.getSnapshot()));
 */
export class CartStore {
  private options: CartStoreOptions;
  private sdkClient: CirrusClient | null = null;
  /** `client` was made here (from options), so it is this store's to free; a client the caller passed is the caller's. */
  private ownClient = false;
  private sdkCart: Cart | null = null;
  private loading: Promise<Cart> | null = null;
  private error: CirrusError | null = null;
  private summary: StoredCartSummary | null = null;
  private listeners = new Set<Listener>();
  private view: CartView;
  private readonly serverView: CartView;
  private generation = 0;
  private unfollow: () => void = () => {};
  /** The cart's actions (the same functions as the snapshot's). */
  readonly actions: CartActions;

  /** A store for the cart `options` describe; nothing is read until `start()` or `load()`. */
  constructor(options: CartStoreOptions) {
    this.options = options;
    this.actions = {
      add: (product, variantId, quantity = 1) => this.act((c) => c.add(product, variantId, quantity)),
      setQuantity: (variantId, quantity) => this.act((c) => c.setQuantity(variantId, quantity)),
      remove: (variantId) => this.act((c) => c.remove(variantId)),
      clear: () => this.act((c) => c.clear()),
      load: () => this.load().then(() => {}),
    };
    this.serverView = { ready: false, loading: false, summary: null, currency: null, lines: [], totals: null, isEmpty: true, problem: null, error: null, ...this.actions };
    this.view = this.serverView;
  }

  /** The SDK's client, once the cart was loaded (`null` before, when the store was given options). */
  get client(): CirrusClient | null {
    return this.sdkClient;
  }

  /** The SDK's persistent cart, once loaded, else `null`. */
  get cart(): Cart | null {
    return this.sdkCart;
  }

  /** Calls `listener` after every change of the snapshot; returns the function that stops it. */
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  /** The cart as it is now (a new object after each change). */
  getSnapshot = (): CartView => this.view;
  /** The snapshot of the server and of the first client render: not ready, no summary. */
  getServerSnapshot = (): CartView => this.serverView;

  /** Runs a change of the cart once it is loaded (now, if it is). */
  private act<T>(f: (cart: Cart) => T): Promise<T> {
    const run = (c: Cart): T => {
      try {
        const out = f(c);
        if (this.error !== null) this.setError(null);
        return out;
      } catch (e) {
        const err = asCirrusError(e);
        this.setError(err);
        report("a cart action failed", err);
        throw err;
      }
    };
    if (this.sdkCart === null) return this.load().then(run);
    try {
      return Promise.resolve(run(this.sdkCart)); // at once: the click's render shows it
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private setError(e: CirrusError | null): void {
    this.error = e;
    this.changed();
  }

  /** A new snapshot (the summary, the cart, loading or an error changed). */
  private changed(): void {
    const c = this.sdkCart;
    if (c === null) {
      const s = this.summary;
      this.view = { ready: false, loading: this.loading !== null, summary: s, currency: null, lines: [], totals: null, isEmpty: s === null || s.itemCount === 0, problem: null, error: this.error, ...this.actions };
    } else {
      this.view = { ready: true, loading: false, summary: c.summary, currency: c.currency, lines: c.lines, totals: c.totals, isEmpty: c.isEmpty, problem: c.problem, error: this.error, ...this.actions };
    }
    for (const l of [...this.listeners]) l();
  }

  /** In the browser, once mounted: the stored summary, followed until the cart is loaded. */
  start(): void {
    const key = this.options.cartKey === undefined ? undefined : { key: this.options.cartKey };
    this.summary = readCartSummary(key);
    this.unfollow = subscribeCartSummary((s) => {
      this.summary = s;
      if (this.sdkCart === null) this.changed();
    }, key);
    this.changed();
  }

  /** The SDK, the client, the currency, then the cart read from storage (once; again after a failure). */
  load(): Promise<Cart> {
    if (this.sdkCart !== null) return Promise.resolve(this.sdkCart);
    if (this.loading !== null) return this.loading;
    const generation = this.generation;
    // A child component's mount may come before its parent's: a load may start before start().
    const live = (): boolean => generation === this.generation;
    const gone = (): CirrusError => cirrusError("aborted", "the cart store was stopped or given another client, currency or cartKey");
    // Each step in a task of its own (`nextTask`): a page's first load runs right after
    // hydration, and the SDK's first calls (each compiles its wasm functions) added to the
    // framework's task made one long task that blocks the page; apart, none is long.
    const loading = (async (): Promise<Cart> => {
      const sdk: Sdk = await loadSdk();
      await nextTask();
      if (!live()) throw gone();
      const given = this.options.client;
      if (this.sdkClient === null) {
        this.ownClient = !(given instanceof sdk.CirrusClient);
        this.sdkClient = this.ownClient ? new sdk.CirrusClient(given as ClientOptions) : (given as CirrusClient);
      }
      const currency = this.options.currency ?? this.options.store?.defaultCurrency ?? (await this.sdkClient.store()).defaultCurrency;
      await nextTask();
      if (!live()) throw gone();
      const cart = sdk.Cart.persistent(currency as CurrencyCode, this.options.cartKey === undefined ? undefined : { key: this.options.cartKey });
      await nextTask();
      if (!live()) {
        cart.free();
        throw gone();
      }
      cart.subscribe(() => this.changed());
      this.sdkCart = cart;
      this.unfollow();
      return cart;
    })();
    this.loading = loading;
    this.changed();
    loading.then(
      () => {
        this.loading = null;
        this.error = null;
        this.changed();
      },
      (e: unknown) => {
        if (!live()) return;
        this.loading = null;
        const err = asCirrusError(e);
        report("the cart could not be loaded", err);
        this.setError(err);
      },
    );
    return loading;
  }

  /**
   * Loads the cart now (`"now"`: a cart page, which shows the lines) or starts the SDK's load
   * once the page is idle (`"idle"`: a page where the first action must be fast). Returns the
   * function that cancels what is still to start (call it on unmount).
   */
  loadWhen(when: "now" | "idle"): () => void {
    if (when === "idle") return loadSdkWhenIdle();
    void this.load().catch(() => {}); // reported by the store
    return () => {};
  }

  /** New options: a different client, currency or cart key starts over (reloading the cart if it was loaded). */
  update(options: CartStoreOptions): void {
    const old = this.options;
    this.options = options;
    if (sameClient(old.client, options.client) && old.currency === options.currency && old.cartKey === options.cartKey && old.store?.defaultCurrency === options.store?.defaultCurrency) return;
    const wasLoaded = this.sdkCart !== null || this.loading !== null;
    this.stop();
    this.error = null;
    this.start();
    if (wasLoaded) void this.load().catch(() => {});
  }

  /** On unmount: lets the cart go (and the client, when the store made it). `start()` may follow. */
  stop(): void {
    this.generation++;
    this.unfollow();
    this.loading = null;
    this.sdkCart?.free();
    this.sdkCart = null;
    if (this.ownClient) this.sdkClient?.free();
    this.sdkClient = null;
    this.ownClient = false;
  }
}

/** A new task (`scheduler.yield()` where there is one: it runs before other queued tasks; else a timeout). */
function nextTask(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return typeof s?.yield === "function" ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/** A checkout's state and its last error. */
export interface CheckoutSnapshot {
  /** `null` until the checkout is open (the cart must be loaded and not empty, unless a paid order is shown). */
  state: CheckoutState | null;
  /** Why opening it failed, or the last action's refusal. */
  error: CirrusError | null;
}

/** A checkout's actions (stable functions; each throws `invalid_state` until the checkout is open). */
export interface CheckoutActions {
  /** The shipping options to `country` (`Checkout.shippingOptions`). */
  shippingOptions(country: CountryCode): Promise<ShippingOption[]>;
  /** Chooses a rate and the address (`Checkout.selectShipping`). */
  selectShipping(rateId: string, address: ShippingAddress): Promise<CheckoutState>;
  /** Pays (`Checkout.pay`). */
  pay(options: PayOptions): Promise<CheckoutState>;
  /** Cancels the checkout (`Checkout.cancel`). */
  cancel(): void;
}

/** A `CheckoutStore`'s snapshot: the checkout's state (the SDK's union), its error and its actions. */
export interface CheckoutView extends CheckoutSnapshot, CheckoutActions {}

const notOpen = (): never => {
  throw cirrusError("invalid_state", "the checkout is not open yet: wait for its state");
};

/** The snapshot of a checkout that is not open (no adapter yet, on the server): its actions throw `invalid_state`. */
export const CLOSED_CHECKOUT: CheckoutView = /* @__PURE__ */ Object.freeze({ state: null, error: null, shippingOptions: notOpen, selectShipping: notOpen, pay: notOpen, cancel: notOpen });

/**
 * The cart's checkout (`Checkout.resume(client, { adapter, cart }) ?? Checkout.start(client,
 * { cart, adapter })`), for the component that shows it: `start()` loads the cart (if it is
 * not) and opens the checkout once it is; `stop()` frees it. Shared with every tab as the SDK
 * shares it; when the payment succeeds the cart loses what was paid for (the `CartStore`'s
 * subscribers hear it). A cart store that starts over (another client, currency or key) closes
 * it and opens the new cart's.
 * @example
 * const checkout = new CheckoutStore(cart, adapter);
 * checkout.start(); // on mount
 * checkout.subscribe(() => render(checkout.getSnapshot()));
 * checkout.stop(); // on unmount
 */
export class CheckoutStore {
  private readonly carts: CartStore;
  private readonly adapter: ProcessorAdapter;
  private checkout: Checkout | null = null;
  private view: CheckoutView = CLOSED_CHECKOUT;
  private listeners = new Set<Listener>();
  /** The cart the open (or opening) checkout is for: `undefined` when stopped. */
  private openedFor: Cart | null | undefined = undefined;
  private unfollow: () => void = () => {};
  private closeOpened: () => void = () => {};
  private running = false;
  /** The checkout's actions (the same functions as the snapshot's). */
  readonly actions: CheckoutActions;

  /** The checkout of `cart`'s cart, paid through `adapter` (keep it the same object); nothing happens until `start()`. */
  constructor(cart: CartStore, adapter: ProcessorAdapter) {
    this.carts = cart;
    this.adapter = adapter;
    this.actions = {
      shippingOptions: (country) => this.act((c) => c.shippingOptions(country)),
      selectShipping: (rateId, address) => this.act((c) => c.selectShipping(rateId, address)),
      pay: (options) => this.act((c) => c.pay(options)),
      cancel: () => this.act((c) => c.cancel()),
    };
  }

  /** Calls `listener` after every change of the snapshot; returns the function that stops it. */
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  /** The checkout as it is now (a new object after each change). */
  getSnapshot = (): CheckoutView => this.view;

  /** On mount: loads the cart if needed, then opens its checkout (and follows the cart store). `stop()` undoes it. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unfollow = this.carts.subscribe(() => this.follow());
    this.follow();
  }

  /** On unmount: frees the checkout (the shared record stays for the next page). `start()` may follow. */
  stop(): void {
    this.running = false;
    this.unfollow();
    this.unfollow = () => {};
    this.close();
    this.openedFor = undefined;
  }

  /** The cart store changed: a cart loaded (open its checkout), gone or another (close; load). */
  private follow(): void {
    const cart = this.carts.cart;
    if (cart === this.openedFor) return;
    this.close();
    this.openedFor = cart;
    if (cart === null) {
      void this.carts.load().catch((e: unknown) => this.running && this.openedFor === null && this.fail(e));
      return;
    }
    const client = this.carts.client;
    if (client === null) return; // never: the cart store makes its client before its cart
    let live = true;
    let opened: Checkout | null = null;
    let unsubscribe = (): void => {};
    // The cart itself: every change the checkout makes once paid reaches the cart store's subscribers.
    const owned: CheckoutCart = cart;
    const adapter = this.adapter;
    void loadSdk()
      .then(async ({ Checkout }) => (await Checkout.resume(client, { adapter, cart: owned })) ?? (await Checkout.start(client, { cart: owned, adapter })))
      .then(
        (c) => {
          if (!live) return c.free();
          opened = c;
          this.checkout = c;
          unsubscribe = c.subscribe((s) => this.set(s, this.view.error));
          this.set(c.state, null);
        },
        (e: unknown) => live && this.fail(e),
      );
    this.closeOpened = () => {
      live = false;
      unsubscribe();
      opened?.free();
      this.checkout = null;
    };
  }

  private close(): void {
    this.closeOpened();
    this.closeOpened = () => {};
  }

  private set(state: CheckoutState | null, error: CirrusError | null): void {
    this.view = { state, error, ...this.actions };
    for (const l of [...this.listeners]) l();
  }

  private fail(e: unknown): void {
    const err = asCirrusError(e);
    report("the checkout failed", err);
    this.set(this.view.state, err);
  }

  private act<T>(f: (c: Checkout) => T): T {
    const checkout = this.checkout;
    if (checkout === null) return notOpen();
    try {
      const result = f(checkout);
      if (result instanceof Promise) result.then(() => this.view.error !== null && this.set(this.view.state, null), (e: unknown) => this.fail(e));
      return result;
    } catch (e) {
      this.fail(e);
      throw e;
    }
  }
}

/**
 * In the browser: starts loading the SDK (the root entry and its `.wasm`) now, with the module
 * the page's early compile made (`sdkPreload`); `sdk`, the root entry's module when the page
 * imports it itself (`import * as sdk from "cirrus-storefront"`), is then used and no chunk of
 * the store's own is fetched. A failure is left to the action that needs the SDK.
 */
export function preloadSdk(sdk?: Sdk): void {
  if (sdk !== undefined) provideSdk(sdk);
  void loadSdk().catch(() => {}); // the action that needs it reports the error
}

/** What a page's head needs to fetch and compile the SDK's `.wasm` with the page (`sdkPreload`). */
export interface SdkPreload {
  /** The `.wasm`'s URL, as the bundler emitted it: `<link rel="preload" as="fetch" crossorigin href>`. */
  href: string;
  /** An inline script (its text) that compiles that response while it downloads (`WebAssembly.compileStreaming`). */
  script: string;
}

/**
 * For the server render of a page whose first action must be fast: the SDK's `.wasm` URL to
 * preload in the head and the inline script that compiles it as it downloads, at the URL of
 * the glue's `new URL(…, import.meta.url)` (bundlers that emit the `.wasm` from it: Turbopack,
 * webpack, Vite); `null` where there is none (render nothing). Pair it with `preloadSdk()` in
 * the browser.
 */
export function sdkPreload(): SdkPreload | null {
  const href = sdkWasmHref();
  return href === null ? null : { href, script: earlyCompileScript(href) };
}
