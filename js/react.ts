"use client";
// `cirrus-storefront/react`: React (>= 18) bindings over the package's Rust classes, nothing
// else. The persistent `Cart`, `Checkout` (the cart-owned checkout: `Checkout.resume ??
// Checkout.start`) and `productOptions` decide every rule; this file only keeps React in step
// with them through one small store per provider (`subscribe` / `getSnapshot`, read with
// `useSyncExternalStore`). The server snapshot is the provider's empty, not-ready cart, so the
// first client render matches the server's HTML; the cart is read from storage in an effect
// and `ready` turns true. No React context is created at import time (React Server Components
// have no `createContext`: the context is made on the first render of a provider), and the
// module is `"use client"`: a server component may import and render `CirrusProvider`.
import * as React from "react";
import type { CheckoutOptions, CheckoutState, CountryCode, CurrencyCode, PayOptions, ProcessorAdapter, ShippingAddress, ShippingOption } from "./index.js";
import {
  Cart,
  Checkout,
  CirrusClient,
  init,
  productOptions,
  type CartLine,
  type CartTotals,
  type ClientOptions,
  type OptionMatrix,
  type OptionSelection,
  type Product,
  type RestoreProblem,
  type Store,
} from "./index.js";
import { cirrusError } from "./error.js";

/** What `useCart()` reads: the cart as it is now. */
export interface CartSnapshot {
  /** `false` on the server and until the cart was read from storage (then the lines are the stored ones). */
  ready: boolean;
  /** The cart's currency (`null` until ready). */
  currency: CurrencyCode | null;
  lines: CartLine[];
  /** `null` until ready. */
  totals: CartTotals | null;
  isEmpty: boolean;
  /** Why the stored cart could not be used as it was (corrupt data, no storage, a failed save). */
  problem: RestoreProblem | null;
  /** Why there is no cart (`init()` failed, the store's currency could not be read), else `null`. */
  error: unknown;
}

/** The cart's actions (stable functions; before `ready` they throw `CirrusError` `invalid_state`). */
export interface CartActions {
  /** Adds `quantity` (default 1) of a variant of `product` (merged with a line of the same variant). */
  add(product: Product, variantId: string, quantity?: number): void;
  setQuantity(variantId: string, quantity: number): void;
  /** `true` when there was such a line. */
  remove(variantId: string): boolean;
  clear(): void;
}

/** `useCart()` without a selector: the snapshot and the actions. */
export type CartView = CartSnapshot & CartActions;

export interface CirrusProviderProps {
  /** A `CirrusClient` (made after `init()`), or its options: the client is then made in the browser once `init()` resolved. */
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

const NOT_READY: CartSnapshot = { ready: false, currency: null, lines: [], totals: null, isEmpty: true, problem: null, error: null };

/** What `Checkout` reads of the cart and calls to empty it once paid. */
type CheckoutCart = NonNullable<CheckoutOptions["cart"]>;

/** One provider's state: the client, the persistent cart, and who listens. */
class CirrusStore {
  client: CirrusClient | null = null;
  cart: Cart | null = null;
  error: unknown = null;
  private listeners = new Set<Listener>();
  private view: CartView;
  private readonly serverView: CartView;
  private generation = 0;
  readonly actions: CartActions;

  constructor(private props: CirrusProviderProps) {
    const cart = (): Cart => {
      if (this.cart === null) throw cirrusError("invalid_state", "the cart is not ready yet: wait for useCart().ready");
      return this.cart;
    };
    this.actions = {
      add: (product, variantId, quantity = 1) => this.change(() => cart().add(product, variantId, quantity)),
      setQuantity: (variantId, quantity) => this.change(() => cart().setQuantity(variantId, quantity)),
      remove: (variantId) => this.change(() => cart().remove(variantId)),
      clear: () => this.change(() => cart().clear()),
    };
    this.serverView = { ...NOT_READY, ...this.actions };
    this.view = this.serverView;
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getView = (): CartView => this.view;
  getServerView = (): CartView => this.serverView;

  /** Runs a change of the cart, then tells every listener (also when it threw: the cart may have saved part of it). */
  private change<T>(f: () => T): T {
    try {
      return f();
    } finally {
      this.changed();
    }
  }

  /** A new snapshot of the cart (the cart changed here, in another tab, or by the checkout). */
  changed(): void {
    const c = this.cart;
    if (c === null) {
      this.view = this.error === null ? this.serverView : { ...NOT_READY, error: this.error, ...this.actions };
    } else {
      this.view = { ready: true, currency: c.currency, lines: c.lines, totals: c.totals, isEmpty: c.isEmpty, problem: c.problem, error: null, ...this.actions };
    }
    for (const l of [...this.listeners]) l();
  }

  /** In the browser (an effect): `init()`, the client, the currency, then the cart read from storage. */
  async start(): Promise<void> {
    const generation = ++this.generation;
    const live = () => generation === this.generation;
    try {
      await init();
      if (!live()) return;
      const given = this.props.client;
      this.client ??= given instanceof CirrusClient ? given : new CirrusClient(given);
      const currency = this.props.currency ?? this.props.store?.defaultCurrency ?? (await this.client.store()).defaultCurrency;
      if (!live()) return;
      const cart = Cart.persistent(currency, this.props.cartKey === undefined ? undefined : { key: this.props.cartKey });
      cart.subscribe(() => this.changed());
      this.cart = cart;
    } catch (e) {
      if (!live()) return;
      this.error = e;
    }
    this.changed();
  }

  /** The effect's cleanup (unmount, or React's development double run): lets the cart go. */
  stop(): void {
    this.generation++;
    this.cart?.free();
    this.cart = null;
    if (!(this.props.client instanceof CirrusClient)) {
      this.client?.free();
      this.client = null;
    }
  }
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
 * same on the server and in the first client render (the cart is not ready there); reads the
 * cart from storage after hydration.
 */
export function CirrusProvider(props: CirrusProviderProps): React.ReactElement {
  const [store] = React.useState(() => new CirrusStore(props));
  React.useEffect(() => {
    void store.start();
    return () => store.stop();
  }, [store]);
  const value = React.useMemo(() => ({ store, props }), [store, props]);
  return React.createElement(ctx().Provider, { value }, props.children);
}

/** Re-renders on every change of the provider's store; `selector`'s result is kept while `isEqual` says it is the same. */
function useStoreValue<T>(store: CirrusStore, selector: (view: CartView) => T, isEqual: (a: T, b: T) => boolean): T {
  const memo = React.useRef<{ view: CartView; value: T } | null>(null);
  const serverMemo = React.useRef<{ view: CartView; value: T } | null>(null);
  const select = (ref: React.RefObject<{ view: CartView; value: T } | null>, view: CartView): T => {
    const prev = ref.current;
    if (prev !== null && prev.view === view) return prev.value;
    const value = selector(view);
    ref.current = { view, value: prev !== null && isEqual(prev.value, value) ? prev.value : value };
    return ref.current.value;
  };
  return React.useSyncExternalStore(
    store.subscribe,
    () => select(memo, store.getView()),
    () => select(serverMemo, store.getServerView()),
  );
}

/**
 * The persistent cart: its lines, totals and `ready`, with its actions; re-renders when the
 * cart changes here, in another tab, or when a checkout takes the paid lines out. With a
 * `selector`, only what it selects (compared with `isEqual`, default `Object.is`).
 */
export function useCart(): CartView;
export function useCart<T>(selector: (cart: CartView) => T, isEqual?: (a: T, b: T) => boolean): T;
export function useCart<T>(selector?: (cart: CartView) => T, isEqual: (a: T, b: T) => boolean = Object.is): T | CartView {
  const { store } = useCirrus("useCart");
  return useStoreValue(store, selector ?? ((v: CartView) => v as unknown as T), isEqual);
}

/** The store settings the provider was given (`null` when it was given none). */
export function useStore(): Store | null {
  return useCirrus("useStore").props.store ?? null;
}

/** The client, once made (`null` on the server and until `init()` resolved, when the provider was given options). */
export function useClient(): CirrusClient | null {
  const { store } = useCirrus("useClient");
  useStoreValue(store, (v) => v.ready, Object.is);
  return store.client;
}

/** What `useProductOptions` gives. */
export interface ProductOptionsView {
  /** The selected value of each option chosen so far. */
  selection: OptionSelection;
  /** Chooses `value` for the option `name` (`CirrusError` `invalid_argument` for a name or value the product does not have). */
  select(name: string, value: string): void;
  /** The availability matrix of `productOptions(product, selection)`; `null` until the provider is ready (`useCart().ready`), so the server and the first client render agree. */
  matrix: OptionMatrix | null;
  /** The variant the selection names (every option chosen), else `null`. */
  selectedVariant: OptionMatrix["selectedVariant"];
}

/** The selected options of `product` and what they make available (the SDK's `productOptions`). */
export function useProductOptions(product: Product, initial?: OptionSelection | null): ProductOptionsView {
  const { store } = useCirrus("useProductOptions");
  const ready = useStoreValue(store, (v) => v.ready, Object.is);
  const [selection, setSelection] = React.useState<OptionSelection>(() => ({ ...(initial ?? {}) }));
  const matrix = React.useMemo(() => (ready ? productOptions(product, selection) : null), [ready, product, selection]);
  const select = React.useCallback(
    (name: string, value: string) => {
      const next = { ...selection, [name]: value };
      productOptions(product, next); // the SDK refuses an option or value the product does not have, here, not in a render
      setSelection(next);
    },
    [product, selection],
  );
  return { selection, select, matrix, selectedVariant: matrix?.selectedVariant ?? null };
}

/** What `useCheckout` gives: the checkout's state (the SDK's union) and its actions. */
export interface CheckoutView {
  /** `null` until the checkout is open (the cart must be ready and not empty, unless a paid order is shown). */
  state: CheckoutState | null;
  /** Why opening it failed, or the last action's refusal. */
  error: unknown;
  shippingOptions(country: CountryCode): Promise<ShippingOption[]>;
  selectShipping(rateId: string, address: ShippingAddress): Promise<CheckoutState>;
  pay(options: PayOptions): Promise<CheckoutState>;
  cancel(): void;
}

/**
 * The cart's checkout (`Checkout.resume(client, { adapter, cart }) ?? Checkout.start(client,
 * { cart, adapter })`), opened once the cart is ready and `adapter` is given: shared with every
 * tab as the SDK shares it, and when the payment succeeds the cart loses what was paid for
 * (`useCart` re-renders). Pass `null` as the adapter until it can mount (e.g. its container
 * exists).
 */
export function useCheckout(adapter: ProcessorAdapter | null): CheckoutView {
  const { store } = useCirrus("useCheckout");
  const ready = useCart((c) => c.ready);
  const [checkout, setCheckout] = React.useState<Checkout | null>(null);
  const [state, setState] = React.useState<CheckoutState | null>(null);
  const [error, setError] = React.useState<unknown>(null);
  React.useEffect(() => {
    const { client, cart } = store;
    if (!ready || adapter === null || client === null || cart === null) return;
    let live = true;
    let opened: Checkout | null = null;
    let unsubscribe = (): void => {};
    // The cart as the checkout sees it: every change it makes once paid reaches useCart.
    const owned: CheckoutCart = {
      paymentItems: () => cart.paymentItems(),
      currency: cart.currency,
      storageKey: cart.storageKey ?? null,
      clear: () => {
        cart.clear();
        store.changed();
      },
      remove: (variantId) => {
        const removed = cart.remove(variantId);
        store.changed();
        return removed;
      },
      setQuantity: (variantId, quantity) => {
        cart.setQuantity(variantId, quantity);
        store.changed();
      },
    };
    (async () => (await Checkout.resume(client, { adapter, cart: owned })) ?? (await Checkout.start(client, { cart: owned, adapter })))().then(
      (c) => {
        if (!live) return c.free();
        opened = c;
        unsubscribe = c.subscribe((s) => setState(s));
        setCheckout(c);
        setState(c.state);
        setError(null);
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
      unsubscribe();
      opened?.free();
      setCheckout(null);
    };
  }, [store, ready, adapter]);
  const act = React.useCallback(
    <T,>(f: (c: Checkout) => T): T => {
      if (checkout === null) throw cirrusError("invalid_state", "the checkout is not open yet: wait for useCheckout().state");
      try {
        const result = f(checkout);
        if (result instanceof Promise) result.then(() => setError(null), setError);
        return result;
      } catch (e) {
        setError(e);
        throw e;
      }
    },
    [checkout],
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
