"use client";
// `cirrus-storefront/react`: React (>= 18) bindings over the package's Rust classes, nothing
// else. The persistent `Cart`, `Checkout` (the cart-owned checkout: `Checkout.resume ??
// Checkout.start`) and `productOptions` decide every rule; this file only keeps React in step
// with them through one small store per provider (`subscribe` / `getSnapshot`, read with
// `useSyncExternalStore`).
// Nothing of the SDK's wasm is fetched until it is needed: after hydration the cart is its
// saved summary (cirrus-storefront/cart-summary, plain JS); the root entry (its glue and
// .wasm, js/lazy-sdk.ts) is imported when the buyer acts on the cart, when a component asks
// for the lines (`useLoadCart`) or a checkout, when a page with a product picker is idle, or,
// with `PreloadSdk`, from the first render, its .wasm compiled while the page loads. The server
// snapshot is the provider's not-ready cart without a summary, so the first client render
// matches the server's HTML. No React context is created at import time (React Server
// Components have no `createContext`), and the module is `"use client"`.
import * as React from "react";
import * as ReactDOM from "react-dom";
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
  OptionMatrix,
  OptionSelection,
  PayOptions,
  ProcessorAdapter,
  Product,
  RestoreProblem,
  ShippingAddress,
  ShippingOption,
  Store,
} from "./index.js";
import type { Checkout } from "./index.js";
import { readCartSummary, subscribeCartSummary, type StoredCartSummary } from "./cart-summary.js";
import { asCirrusError, cirrusError, type CirrusError } from "./error.js";
import { report } from "./react-report.js";
import { earlyCompileScript, loadSdk, loadSdkWhenIdle, provideSdk, sdkWasmHref, type Sdk } from "./lazy-sdk.js";
import { ProductPicker, type PickerInitial, type PickerState } from "./picker.js";

/** The cart before the SDK read it (on the server, after hydration, until the buyer acts). */
export interface PendingCart {
  /** `false` until the cart was read by the SDK (the lines are then the stored ones). */
  ready: false;
  /** `true` while the SDK loads the cart (after an action, `useLoadCart`, a checkout). */
  loading: boolean;
  /** The stored cart's summary (no wasm needed): `null` on the server, in the first client render, and when it cannot be known. */
  summary: StoredCartSummary | null;
  currency: null;
  lines: readonly CartLine[];
  totals: null;
  /** As the summary says (`true` when it is unknown). */
  isEmpty: boolean;
  problem: null;
  /** Why the cart could not be loaded (`init()` failed, the client could not be made, the store's currency could not be read), else `null`. */
  error: CirrusError | null;
}

/** The cart as the SDK read it. */
export interface ReadyCart {
  ready: true;
  loading: false;
  summary: CartSummary;
  currency: CurrencyCode;
  lines: readonly CartLine[];
  totals: CartTotals;
  isEmpty: boolean;
  /** Why the stored cart could not be used as it was (corrupt data, no storage, a failed save). */
  problem: RestoreProblem | null;
  /** The last action's refusal (e.g. a quantity beyond the stock), else `null`. */
  error: CirrusError | null;
}

/** What `useCart()` reads: the cart as it is now (`ready` narrows it). */
export type CartSnapshot = PendingCart | ReadyCart;

/**
 * The cart's actions (stable functions). Each loads the cart first if needed (the SDK's wasm
 * is fetched on the first one), then applies the change; the promise rejects with the SDK's
 * `CirrusError` (also `useCart().error`, and logged once in development).
 */
export interface CartActions {
  /** Adds `quantity` (default 1) of a variant of `product` (merged with a line of the same variant). */
  add(product: Product, variantId: string, quantity?: number): Promise<void>;
  setQuantity(variantId: string, quantity: number): Promise<void>;
  /** `true` when there was such a line. */
  remove(variantId: string): Promise<boolean>;
  clear(): Promise<void>;
  /** Reads the cart with the SDK now (what `useLoadCart` does). */
  load(): Promise<void>;
}

/** `useCart()` without a selector: the snapshot and the actions. */
export type CartView = CartSnapshot & CartActions;

/**
 * The props of `CirrusProvider`: the client (or its options), the store and the cart's currency
 * and key. A new client (or other options), currency or cart key makes the provider load the
 * cart again with them; an options literal equal to the last one changes nothing.
 * @example
 * <CirrusProvider client={{ baseUrl, apiKey }} store={store}>{children}</CirrusProvider>
 */
export interface CirrusProviderProps {
  /** A `CirrusClient` (made after `init()`), or its options: the client is then made in the browser when the cart is first loaded. */
  client: CirrusClient | ClientOptions;
  /** The store settings, when the page has them (a server component's `client.store()`): `useStore()` gives them, and the cart's currency is their `defaultCurrency`. */
  store?: Store | null;
  /** The cart's currency; default `store.defaultCurrency`, else the one `client.store()` answers. */
  currency?: CurrencyCode;
  /** The cart's `localStorage` key (`Cart.persistent`'s `key`). */
  cartKey?: string;
  children?: React.ReactNode;
}

type Listener = () => void;

/** Whether two `client` props make the same client (an options literal is new on every render). */
function sameClient(a: CirrusProviderProps["client"], b: CirrusProviderProps["client"]): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  const flat = (v: unknown): unknown => (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype ? JSON.stringify(v) : v);
  return ka.length === kb.length && ka.every((k) => Object.is(flat((a as unknown as Record<string, unknown>)[k]), flat((b as unknown as Record<string, unknown>)[k])));
}

/** What `Checkout` reads of the cart and calls to empty it once paid. */
type CheckoutCart = NonNullable<CheckoutOptions["cart"]>;

/** One provider's state: its props, the summary, then the SDK's client and persistent cart, and who listens. */
class CirrusStore {
  client: CirrusClient | null = null;
  /** `client` was made here (from options), so it is this store's to free; a client the caller passed is the caller's. */
  private ownClient = false;
  cart: Cart | null = null;
  private loading: Promise<Cart> | null = null;
  private error: CirrusError | null = null;
  private summary: StoredCartSummary | null = null;
  private listeners = new Set<Listener>();
  private view: CartView;
  private readonly serverView: CartView;
  private generation = 0;
  private unfollow: () => void = () => {};
  readonly actions: CartActions;

  constructor(public props: CirrusProviderProps) {
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

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getView = (): CartView => this.view;
  getServerView = (): CartView => this.serverView;

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
    if (this.cart === null) return this.load().then(run);
    try {
      return Promise.resolve(run(this.cart)); // at once: the click's render shows it
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private setError(e: CirrusError | null): void {
    this.error = e;
    this.changed();
  }

  /** A new snapshot (the summary, the cart, loading or an error changed). */
  changed(): void {
    const c = this.cart;
    if (c === null) {
      const s = this.summary;
      this.view = { ready: false, loading: this.loading !== null, summary: s, currency: null, lines: [], totals: null, isEmpty: s === null || s.itemCount === 0, problem: null, error: this.error, ...this.actions };
    } else {
      this.view = { ready: true, loading: false, summary: c.summary, currency: c.currency, lines: c.lines, totals: c.totals, isEmpty: c.isEmpty, problem: c.problem, error: this.error, ...this.actions };
    }
    for (const l of [...this.listeners]) l();
  }

  /** In the browser (the provider's effect): the stored summary, followed until the cart is loaded. */
  start(): void {
    const key = this.props.cartKey === undefined ? undefined : { key: this.props.cartKey };
    this.summary = readCartSummary(key);
    this.unfollow = subscribeCartSummary((s) => {
      this.summary = s;
      if (this.cart === null) this.changed();
    }, key);
    this.changed();
  }

  /** The SDK, the client, the currency, then the cart read from storage (once; again after a failure). */
  load(): Promise<Cart> {
    if (this.cart !== null) return Promise.resolve(this.cart);
    if (this.loading !== null) return this.loading;
    const generation = this.generation;
    // Children's effects run before the provider's: a load may start before start().
    const live = (): boolean => generation === this.generation;
    const gone = (): CirrusError => cirrusError("aborted", "the provider was unmounted or given another client, currency or cartKey");
    // Each step in a task of its own (`nextTask`): a page's first load runs right after
    // hydration, and the SDK's first calls (each compiles its wasm functions) added to React's
    // task made one long task that blocks the page; apart, none is long.
    const loading = (async (): Promise<Cart> => {
      const sdk: Sdk = await loadSdk();
      await nextTask();
      if (!live()) throw gone();
      const given = this.props.client;
      if (this.client === null) {
        this.ownClient = !(given instanceof sdk.CirrusClient);
        this.client = this.ownClient ? new sdk.CirrusClient(given as ClientOptions) : (given as CirrusClient);
      }
      const currency = this.props.currency ?? this.props.store?.defaultCurrency ?? (await this.client.store()).defaultCurrency;
      await nextTask();
      if (!live()) throw gone();
      const cart = sdk.Cart.persistent(currency as CurrencyCode, this.props.cartKey === undefined ? undefined : { key: this.props.cartKey });
      await nextTask();
      if (!live()) {
        cart.free();
        throw gone();
      }
      cart.subscribe(() => this.changed());
      this.cart = cart;
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

  /** New props: a different client, currency or cart key starts over (reloading the cart if it was loaded). */
  update(props: CirrusProviderProps): void {
    const old = this.props;
    this.props = props;
    if (sameClient(old.client, props.client) && old.currency === props.currency && old.cartKey === props.cartKey && old.store?.defaultCurrency === props.store?.defaultCurrency) return;
    const wasLoaded = this.cart !== null || this.loading !== null;
    this.stop();
    this.error = null;
    this.start();
    if (wasLoaded) void this.load().catch(() => {});
  }

  /** The effect's cleanup (unmount, or React's development double run): lets the cart go. */
  stop(): void {
    this.generation++;
    this.unfollow();
    this.loading = null;
    this.cart?.free();
    this.cart = null;
    if (this.ownClient) this.client?.free();
    this.client = null;
    this.ownClient = false;
  }
}

/** A new task (`scheduler.yield()` where there is one: it runs before other queued tasks; else a timeout). */
function nextTask(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return typeof s?.yield === "function" ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

type Context = React.Context<{ store: CirrusStore; props: CirrusProviderProps } | null>;
let context: Context | undefined;
/** The context, made on first use (never at import time: React Server Components have no `createContext`). */
function ctx(): Context {
  return (context ??= React.createContext<{ store: CirrusStore; props: CirrusProviderProps } | null>(null));
}

function useCirrus(hook: string): { store: CirrusStore; props: CirrusProviderProps } {
  const value = React.useContext(ctx());
  if (value === null) throw cirrusError("invalid_state", `${hook}() must be called inside <CirrusProvider>`);
  return value;
}

/**
 * Provides the client, the store settings and the persistent cart to the hooks. Renders the
 * same on the server and in the first client render; after hydration the cart is its stored
 * summary, and the SDK reads the cart itself when it is first needed. New props are taken:
 * another `client`, `currency` or `cartKey` starts the cart over.
 */
export function CirrusProvider(props: CirrusProviderProps): React.ReactElement {
  const [store] = React.useState(() => new CirrusStore(props));
  React.useEffect(() => {
    store.start();
    return () => store.stop();
  }, [store]);
  React.useEffect(() => store.update(props), [store, props]);
  const value = React.useMemo(() => ({ store, props }), [store, props]);
  return React.createElement(ctx().Provider, { value }, props.children);
}

/** Re-renders on every change of the provider's store; `selector`'s result is kept while `isEqual` says it is the same. */
function useStoreValue<T>(store: CirrusStore, selector: (view: CartView) => T, isEqual: (a: T, b: T) => boolean): T {
  type Memo = { view: CartView; selector: (view: CartView) => T; value: T } | null;
  const memo = React.useRef<Memo>(null);
  const serverMemo = React.useRef<Memo>(null);
  const select = (ref: React.RefObject<Memo>, view: CartView): T => {
    const prev = ref.current;
    if (prev !== null && prev.view === view && prev.selector === selector) return prev.value;
    const value = selector(view);
    ref.current = { view, selector, value: prev !== null && isEqual(prev.value, value) ? prev.value : value };
    return ref.current.value;
  };
  return React.useSyncExternalStore(
    store.subscribe,
    () => select(memo, store.getView()),
    () => select(serverMemo, store.getServerView()),
  );
}

/**
 * The persistent cart: its summary after hydration, its lines and totals once `ready`, and its
 * actions; re-renders when the cart changes here, in another tab, or when a checkout takes the
 * paid lines out. With a `selector`, only what it selects (compared with `isEqual`, default
 * `Object.is`). Reading the cart does not load the SDK: an action, `useLoadCart` or
 * `useCheckout` does.
 */
export function useCart(): CartView;
export function useCart<T>(selector: (cart: CartView) => T, isEqual?: (a: T, b: T) => boolean): T;
export function useCart<T>(selector?: (cart: CartView) => T, isEqual: (a: T, b: T) => boolean = Object.is): T | CartView {
  const { store } = useCirrus("useCart");
  return useStoreValue(store, selector ?? ((v: CartView) => v as unknown as T), isEqual);
}

/**
 * Loads the cart with the SDK when the component mounts (`"mount"`: a cart page, which shows the
 * lines) or once the page is idle (`"idle"`: a page where the first action must be fast).
 */
export function useLoadCart(when: "mount" | "idle" = "mount"): void {
  const { store } = useCirrus("useLoadCart");
  React.useEffect(() => {
    if (when === "mount") {
      void store.load().catch(() => {}); // reported by the store
      return;
    }
    return loadSdkWhenIdle();
  }, [store, when]);
}

/** What `PreloadSdk` takes. */
export interface PreloadSdkProps {
  /**
   * The root entry's module when the island imports it itself (`import * as sdk from
   * "cirrus-storefront"`): the bindings then use it and fetch no chunk of their own on the first
   * action's path.
   */
  sdk?: Sdk;
}

/**
 * For a page whose first action must be fast (render it in a product page's island). On the
 * server: a `<link rel="preload" as="fetch" crossorigin>` of the SDK's `.wasm` in the page's head
 * (React 19's `preload`), so the browser fetches it with the page, and an inline script that
 * compiles it as it downloads (`WebAssembly.compileStreaming`); at the URL of the glue's
 * `new URL(…, import.meta.url)` (bundlers that emit the `.wasm` from it: Turbopack, webpack,
 * Vite; nothing is rendered where there is none). In the browser: loads the SDK from the first
 * render, with that compiled module. Pages without it fetch no `.wasm` until the buyer acts.
 */
export function PreloadSdk({ sdk }: PreloadSdkProps = {}): React.ReactElement | null {
  if (typeof window !== "undefined") {
    if (sdk !== undefined) provideSdk(sdk);
    void loadSdk().catch(() => {}); // the action that needs it reports the error
  }
  const href = sdkWasmHref();
  const preload = (ReactDOM as { preload?: (href: string, options: { as: string; crossOrigin: string }) => void }).preload;
  if (href !== null && typeof preload === "function") preload(href, { as: "fetch", crossOrigin: "anonymous" });
  // The browser does not run a script React renders; the server's ran while the HTML was parsed.
  return href === null ? null : React.createElement("script", { dangerouslySetInnerHTML: { __html: earlyCompileScript(href) }, suppressHydrationWarning: true });
}

/** The store settings the provider was given (`null` when it was given none). */
export function useStore(): Store | null {
  return useCirrus("useStore").props.store ?? null;
}

/** The client, once made (`null` on the server and until the cart was loaded, when the provider was given options). */
export function useClient(): CirrusClient | null {
  const { store } = useCirrus("useClient");
  useStoreValue(store, (v) => v.ready, Object.is);
  return store.client;
}

/** What `useProductOptions` gives (`ProductPicker`'s state, cirrus-storefront/picker). */
export interface ProductOptionsView extends PickerState {
  /** Chooses `value` for the option `name` (a name or value the product does not have is `error`, `CirrusError` `invalid_argument`). */
  select(name: string, value: string): void;
}

/**
 * The selected options of `product` and what they make available (the SDK's `productOptions`,
 * through `ProductPicker`). `initial`: the server's `productOptions(product,
 * defaultSelection(product))` (rendered as is, no wasm needed), or a selection to start from.
 * A new `product` starts over from the `initial` given with it. The SDK is loaded once the page
 * is idle (the first choice and "Add to cart" then need no download; `PreloadSdk` starts it
 * with the page).
 */
export function useProductOptions(product: Product, initial?: PickerInitial): ProductOptionsView {
  useCirrus("useProductOptions");
  let [picker, setPicker] = React.useState(() => new ProductPicker(product, initial));
  if (picker.product !== product) {
    picker = new ProductPicker(product, initial);
    setPicker(picker);
  }
  const state = React.useSyncExternalStore(
    React.useCallback((l: () => void) => picker.subscribe(l), [picker]),
    () => picker.state,
    () => picker.state,
  );
  React.useEffect(() => {
    if (state.matrix === null) void picker.preload();
    return loadSdkWhenIdle();
  }, [picker]); // eslint-disable-line react-hooks/exhaustive-deps -- once per picker
  const select = React.useCallback((name: string, value: string) => void picker.select(name, value), [picker]);
  return React.useMemo(() => ({ ...state, select }), [state, select]);
}

/** What `useCheckout` gives: the checkout's state (the SDK's union) and its actions. */
export interface CheckoutView {
  /** `null` until the checkout is open (the cart must be loaded and not empty, unless a paid order is shown). */
  state: CheckoutState | null;
  /** Why opening it failed, or the last action's refusal. */
  error: CirrusError | null;
  shippingOptions(country: CountryCode): Promise<ShippingOption[]>;
  selectShipping(rateId: string, address: ShippingAddress): Promise<CheckoutState>;
  pay(options: PayOptions): Promise<CheckoutState>;
  cancel(): void;
}

/**
 * The cart's checkout (`Checkout.resume(client, { adapter, cart }) ?? Checkout.start(client,
 * { cart, adapter })`), opened once `adapter` is given (the cart is loaded then): shared with
 * every tab as the SDK shares it, and when the payment succeeds the cart loses what was paid
 * for (`useCart` re-renders). Pass `null` as the adapter until it can mount (e.g. its container
 * exists).
 */
export function useCheckout(adapter: ProcessorAdapter | null): CheckoutView {
  const { store } = useCirrus("useCheckout");
  const ready = useCart((c) => c.ready);
  const [checkout, setCheckout] = React.useState<Checkout | null>(null);
  const [state, setState] = React.useState<CheckoutState | null>(null);
  const [error, setErrorState] = React.useState<CirrusError | null>(null);
  const setError = React.useCallback((e: unknown) => {
    const err = asCirrusError(e);
    report("the checkout failed", err);
    setErrorState(err);
  }, []);
  React.useEffect(() => {
    if (adapter !== null && !ready) void store.load().catch(setError);
  }, [store, adapter, ready, setError]);
  React.useEffect(() => {
    const { client, cart } = store;
    if (!ready || adapter === null || client === null || cart === null) return;
    let live = true;
    let opened: Checkout | null = null;
    let unsubscribe = (): void => {};
    // The cart itself: every change the checkout makes once paid reaches its subscribers (useCart).
    const owned: CheckoutCart = cart;
    void loadSdk()
      .then(async ({ Checkout }) => (await Checkout.resume(client, { adapter, cart: owned })) ?? (await Checkout.start(client, { cart: owned, adapter })))
      .then(
        (c) => {
          if (!live) return c.free();
          opened = c;
          unsubscribe = c.subscribe((s) => setState(s));
          setCheckout(c);
          setState(c.state);
          setErrorState(null);
        },
        (e: unknown) => live && setError(e),
      );
    return () => {
      live = false;
      unsubscribe();
      opened?.free();
      setCheckout(null);
    };
  }, [store, ready, adapter, setError]);
  const act = React.useCallback(
    <T,>(f: (c: Checkout) => T): T => {
      if (checkout === null) throw cirrusError("invalid_state", "the checkout is not open yet: wait for useCheckout().state");
      try {
        const result = f(checkout);
        if (result instanceof Promise) result.then(() => setErrorState(null), setError);
        return result;
      } catch (e) {
        setError(e);
        throw e;
      }
    },
    [checkout, setError],
  );
  return React.useMemo(
    () => ({
      state,
      error,
      shippingOptions: (country: CountryCode) => act((c) => c.shippingOptions(country)),
      selectShipping: (rateId: string, address: ShippingAddress) => act((c) => c.selectShipping(rateId, address)),
      pay: (options: PayOptions) => act((c) => c.pay(options)),
      cancel: () => act((c) => c.cancel()),
    }),
    [state, error, act],
  );
}

export type { OptionMatrix, OptionSelection, PickerState, StoredCartSummary };
