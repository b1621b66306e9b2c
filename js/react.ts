"use client";
// `cirrus-storefront/react`: React (>= 18) hooks over the plain-JS store
// (`cirrus-storefront/store`, js/store.ts), nothing else: the store (and the Rust classes under
// it) decides every rule; this file only ties its pieces to React's lifetimes (a `CartStore`
// per provider, a `CheckoutStore` per `useCheckout`, a `ProductPicker` per product) and reads
// them with `useSyncExternalStore`. The server snapshot is the provider's not-ready cart
// without a summary, so the first client render matches the server's HTML. No React context is
// created at import time (React Server Components have no `createContext`), and the module is
// `"use client"`.
import * as React from "react";
import * as ReactDOM from "react-dom";
import type { CirrusClient, OptionMatrix, OptionSelection, ProcessorAdapter, Product, Store } from "./index.js";
import { cirrusError } from "./error.js";
import {
  CartStore,
  CheckoutStore,
  CLOSED_CHECKOUT,
  preloadSdk,
  ProductPicker,
  sdkPreload,
  type CartStoreOptions,
  type CartView,
  type CheckoutView,
  type PickerInitial,
  type PickerState,
  type Sdk,
  type StoredCartSummary,
} from "./store.js";

export type { CartActions, CartSnapshot, CartView, CheckoutView, PendingCart, ReadyCart } from "./store.js";

/**
 * The props of `CirrusProvider`: the client (or its options), the store and the cart's currency
 * and key (`CartStoreOptions`). A new client (or other options), currency or cart key makes the
 * provider load the cart again with them; an options literal equal to the last one changes nothing.
 * @example
 * <CirrusProvider client={{ baseUrl, apiKey }} store={store}>{children}</CirrusProvider>
 */
export interface CirrusProviderProps extends CartStoreOptions {
  /** The components that read the cart. */
  children?: React.ReactNode;
}

type Value = { store: CartStore; props: CirrusProviderProps };
type Context = React.Context<Value | null>;
let context: Context | undefined;
/** The context, made on first use (never at import time: React Server Components have no `createContext`). */
function ctx(): Context {
  return (context ??= React.createContext<Value | null>(null));
}

function useCirrus(hook: string): Value {
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
  const [store] = React.useState(() => new CartStore(props));
  React.useEffect(() => {
    store.start();
    return () => store.stop();
  }, [store]);
  React.useEffect(() => store.update(props), [store, props]);
  const value = React.useMemo(() => ({ store, props }), [store, props]);
  return React.createElement(ctx().Provider, { value }, props.children);
}

/** Re-renders on every change of the provider's store; `selector`'s result is kept while `isEqual` says it is the same. */
function useStoreValue<T>(store: CartStore, selector: (view: CartView) => T, isEqual: (a: T, b: T) => boolean): T {
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
    () => select(memo, store.getSnapshot()),
    () => select(serverMemo, store.getServerSnapshot()),
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
  React.useEffect(() => store.loadWhen(when === "mount" ? "now" : "idle"), [store, when]);
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
  if (typeof window !== "undefined") preloadSdk(sdk);
  const early = sdkPreload();
  const preload = (ReactDOM as { preload?: (href: string, options: { as: string; crossOrigin: string }) => void }).preload;
  if (early !== null && typeof preload === "function") preload(early.href, { as: "fetch", crossOrigin: "anonymous" });
  // The browser does not run a script React renders; the server's ran while the HTML was parsed.
  return early === null ? null : React.createElement("script", { dangerouslySetInnerHTML: { __html: early.script }, suppressHydrationWarning: true });
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
  React.useEffect(() => picker.mount(), [picker]);
  const select = React.useCallback((name: string, value: string) => void picker.select(name, value), [picker]);
  return React.useMemo(() => ({ ...state, select }), [state, select]);
}

const noSubscribe = (): (() => void) => () => {};

/**
 * The cart's checkout (`Checkout.resume(client, { adapter, cart }) ?? Checkout.start(client,
 * { cart, adapter })`, the store's `CheckoutStore`), opened once `adapter` is given (the cart is
 * loaded then) and freed when the component unmounts: shared with every tab as the SDK shares
 * it, and when the payment succeeds the cart loses what was paid for (`useCart` re-renders).
 * Pass `null` as the adapter until it can mount (e.g. its container exists).
 */
export function useCheckout(adapter: ProcessorAdapter | null): CheckoutView {
  const { store } = useCirrus("useCheckout");
  const checkout = React.useMemo(() => (adapter === null ? null : new CheckoutStore(store, adapter)), [store, adapter]);
  React.useEffect(() => {
    if (checkout === null) return;
    checkout.start();
    return () => checkout.stop();
  }, [checkout]);
  return React.useSyncExternalStore(
    checkout?.subscribe ?? noSubscribe,
    checkout?.getSnapshot ?? (() => CLOSED_CHECKOUT),
    () => CLOSED_CHECKOUT,
  );
}

export type { OptionMatrix, OptionSelection, PickerState, StoredCartSummary };
