// Checkout (issue 5): the I/O half. The state machine is in Rust
// (src/checkout.rs, through the wasm class `CheckoutCore`): it decides every
// transition and what to do next; this class calls the client, the processor
// adapter, storage and listeners, and builds the state objects users see.
//
// Guarantees:
// - single flight: while a payment runs, `pay()` returns the same promise and
//   shipping cannot change or the checkout be cancelled;
// - one token in flight: the core only re-confirms the unsettled token, and
//   the state saying a confirm is in flight is stored BEFORE it is sent;
// - resume: `Checkout.resume()` after a reload or a 3-D Secure redirect
//   confirms that same token once more (idempotent on the server) instead of
//   paying again.
import {
  CheckoutCore,
  type Breakdown,
  type CheckoutListener,
  type CheckoutOptions,
  type CheckoutSession,
  type CheckoutState,
  type PayOptions,
  type PaymentAttempt,
  type ProcessorAdapter,
  type ShippingAddress,
  type ShippingChoice,
  type ShippingOption,
  type ShippingRate,
  type StartCheckoutOptions,
} from "./cirrus_storefront.js";
import type { CirrusClient } from "./cirrus_storefront.js";
import { SCHEMA } from "./generated/schema.js";
import { check } from "./validate.js";
import { cirrusError, type CirrusError } from "./error.js";

// Events of the core (`crate::checkout::event`).
const INITIATED = 0, CAN_SHIP = 1, OPTIONS = 2, UPDATE = 3, CHOSEN = 4, PAY = 5, RESUME = 6, BEGIN = 7,
  CONFIRMED = 8, CONFIRM_FAILED = 9, ACTION_DONE = 10, ADAPTER_FAILED = 11, CANCEL = 12, UNSETTLED = 13, FINAL = 14;

const DEFAULT_KEY = "cirrus.checkout";
/// The address fields in the order of `crate::checkout::ADDRESS_FIELDS` (the generated schema's).
const ADDRESS = Object.keys(SCHEMA.ShippingAddress);

/** A plain copy of a shipping rate (`min`/`maxOrderPrice` null when absent). */
const rateOf = (r: ShippingRate): ShippingRate => ({
  id: r.id,
  name: r.name,
  price: r.price,
  deliveryDescription: r.deliveryDescription,
  deliveryTimeframeMin: r.deliveryTimeframeMin,
  deliveryTimeframeMax: r.deliveryTimeframeMax,
  minOrderPrice: r.minOrderPrice ?? null,
  maxOrderPrice: r.maxOrderPrice ?? null,
});

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;
type Rec = Record<string, unknown>;

const fail = cirrusError;
const bad = (message: string): CirrusError => fail("invalid_argument", message);
/** The shape of `v` by the generated schema's type `t` (js/validate.js). */
function shape(v: unknown, t: string, what: string): void {
  try {
    check(v, t, what, SCHEMA);
  } catch (m) {
    throw bad(String(m));
  }
}
const isFn = (o: unknown, m: string): boolean => typeof (o as Rec | null)?.[m] === "function";
/** The message of whatever an adapter threw ("" lets the core say something generic). */
const messageOf = (e: unknown): string =>
  typeof (e as Rec | null)?.message === "string" ? ((e as Rec).message as string) : typeof e === "string" ? e : "";

const breakdown = (b: Breakdown): Breakdown => ({ subtotal: b.subtotal, shipping: b.shipping, tax: b.tax, total: b.total });

function sessionStore(): Store | null {
  try {
    return (globalThis as { sessionStorage?: Store }).sessionStorage ?? null;
  } catch {
    return null; // reading `sessionStorage` throws where storage is disabled: keep nothing
  }
}

/** A stored state as the core's flat `path, value` entries (`CheckoutState::from_entries`). */
function flatten(v: unknown, path: string, out: string[]): string[] {
  if (v !== null && typeof v === "object") {
    for (const k in v) flatten((v as Rec)[k], path ? `${path}.${k}` : k, out);
  } else {
    out.push(path, (v === null ? "o" : (typeof v)[0]) + String(v));
  }
  return out;
}

interface Common {
  a: ProcessorAdapter;
  s: Store | null;
  k: string;
}

function common(options: CheckoutOptions): Common {
  if (options === null || typeof options !== "object") throw bad("options must be an object with at least `adapter`");
  const { adapter, storage, storageKey } = options;
  for (const m of ["mount", "updateAmount", "collectToken", "handleNextAction"]) {
    if (!isFn(adapter, m)) throw bad(`options.adapter.${m} must be a function (see ProcessorAdapter)`);
  }
  if (storageKey !== undefined && (typeof storageKey !== "string" || !storageKey)) {
    throw bad("options.storageKey must be a non-empty string");
  }
  if (storage != null) {
    for (const m of ["getItem", "setItem", "removeItem"]) {
      if (!isFn(storage, m)) throw bad(`options.storage.${m} must be a function`);
    }
  }
  return { a: adapter, s: storage === undefined ? sessionStore() : storage, k: storageKey ?? DEFAULT_KEY };
}

/** The stored state's core and its session / shipping objects, or null when nothing is stored. */
function stored(c: Common): [CheckoutCore, Rec] | null {
  const text = c.s?.getItem(c.k);
  if (text == null) return null;
  let v: Rec;
  try {
    v = JSON.parse(text) as Rec;
  } catch (e) {
    throw bad(`stored checkout state is not valid: ${messageOf(e)}`);
  }
  return [CheckoutCore.restore(flatten(v, "", [])), v];
}

/**
 * A checkout from cart to paid order. See the module comment for the
 * single-flight, one-token and resume guarantees.
 */
export class Checkout {
  #m: CheckoutCore;
  #c: CirrusClient;
  #a: ProcessorAdapter;
  #s: Store | null;
  #k: string;
  #session?: CheckoutSession;
  #shipping?: ShippingChoice;
  #listeners = new Set<CheckoutListener>();
  /** The running payment's promise (single flight). */
  #flight?: Promise<CheckoutState>;
  /** The last shipping options, their rates, and the country they were fetched for. */
  #options?: [string, ShippingOption[]];

  private constructor(client: CirrusClient, c: Common, m: CheckoutCore, v: Rec) {
    this.#c = client;
    this.#a = c.a;
    this.#s = c.s;
    this.#k = c.k;
    this.#m = m;
    this.#session = v.session as CheckoutSession | undefined;
    this.#shipping = v.shipping as ShippingChoice | undefined;
  }

  /**
   * Initiate a payment session for `items` in `currency`, mount the
   * adapter's payment form and keep the state in storage.
   *
   * Rejects with a `CirrusError`: `invalid_argument` for bad options,
   * `invalid_state` if the storage holds a checkout with an unsettled
   * payment (finish it with `Checkout.resume()` first), or the server's
   * error. An adapter that fails to mount rejects with its own error.
   */
  static async start(client: CirrusClient, options: StartCheckoutOptions): Promise<Checkout> {
    const c = common(options);
    const o = options as unknown as Rec;
    let items = o.items as unknown, currency = o.currency;
    const cart = o.cart as Rec | undefined;
    if (cart !== undefined) {
      const call = (m: string): unknown => {
        if (!isFn(cart, m)) throw bad(`options.cart.${m}() must be callable (pass a Cart)`);
        return (cart[m] as () => unknown)();
      };
      items = call("paymentItems");
      // A Cart has the `currency` getter; a function returning it is accepted too.
      currency = isFn(cart, "currency") ? call("currency") : cart.currency;
    }
    shape(items, "[PaymentItem", "options.items");
    if (!(items as unknown[]).length) throw fail("invalid_state", "the cart is empty: add an item before checkout");
    shape(currency, "s", "options.currency");
    let old = null;
    try {
      old = stored(c);
    } catch {
      // an unreadable stored state does not block a new checkout
    }
    const unsettled = old?.[0].step(UNSETTLED, [], []);
    old?.[0].free();
    if (unsettled) {
      throw fail(
        "invalid_state",
        "the stored checkout has a payment whose outcome is not known yet; finish it with Checkout.resume() first",
      );
    }
    const list = (items as Rec[]).map((i) => ({ variantId: i.variantId as string, quantity: i.quantity as number }));
    const r = await client.initiatePayment({ items: list, currency: currency as string });
    const m = new CheckoutCore();
    const b = r.breakdown;
    m.step(INITIATED, [r.sessionId], [r.amount, b.subtotal, b.shipping, b.tax, b.total, list.length]);
    const session: CheckoutSession = {
      sessionId: r.sessionId,
      processor: r.processor,
      publishableKey: r.publishableKey,
      currency: r.currency,
      amount: r.amount,
      breakdown: breakdown(b),
      items: list,
    };
    const checkout = new Checkout(client, c, m, { session });
    checkout.#changed();
    await checkout.#mount();
    return checkout;
  }

  /**
   * Restore the checkout kept in storage (after a reload or a 3-D Secure
   * redirect). Resolves `null` when nothing is stored. Mounts the adapter
   * unless the checkout is final; if a payment was under way (`paying`,
   * `requires_action`) it is finished first: one more confirm with the
   * token already used (never a new charge), and the next action if the
   * processor still asks for it.
   *
   * Rejects with `invalid_argument` if the stored state is unreadable (it
   * is removed).
   */
  static async resume(client: CirrusClient, options: CheckoutOptions): Promise<Checkout | null> {
    const c = common(options);
    let old;
    try {
      old = stored(c);
    } catch (e) {
      try {
        c.s?.removeItem(c.k);
      } catch {
        // nothing more to do about a broken storage
      }
      throw e;
    }
    if (!old) return null;
    const checkout = new Checkout(client, c, ...old);
    if (!old[0].step(FINAL, [], [])) await checkout.#mount();
    if (old[0].step(RESUME, [], []) != null) await checkout.#run("", true);
    return checkout;
  }

  /**
   * Remove the stored state of `storageKey` (default "cirrus.checkout")
   * from `sessionStorage`, e.g. after showing the order confirmation.
   */
  static clearStored(storageKey?: string | null): void {
    try {
      sessionStore()?.removeItem(storageKey ?? DEFAULT_KEY);
    } catch {
      // storage disabled: nothing is stored
    }
  }

  /** The current state (a fresh object each time). */
  get state(): CheckoutState {
    const m = this.#m;
    const g = (i: number): string | null => m.get(i) ?? null;
    const attempt = (): PaymentAttempt | null =>
      g(1) === null
        ? null
        : {
            token: g(1) as string,
            returnUrl: g(2) as string,
            confirmInFlight: g(3) !== null,
            paymentIntentId: g(4),
            lastStatus: g(5) as PaymentAttempt["lastStatus"],
          };
    // Which members each state has: the TypeScript union's (js/adapters/checkout-types.d.ts),
    // in its order (the form the core restores, see `checkout::tests` in src/checkout.rs).
    const state = g(0) as CheckoutState["state"], s: Rec = { state };
    if (state == "cancelled") s.sessionId = g(12);
    else if (state != "idle") {
      s.session = this.#session;
      if (state != "initiated") {
        s.shipping = this.#shipping;
        if (state == "paying" || state == "requires_action") s.attempt = attempt();
        if (state == "requires_action") s.clientSecret = g(6);
        if (state == "failed") Object.assign(s, { code: g(7), errorCode: g(8), message: g(9), retryable: g(10) !== null, pending: attempt() });
        if (state == "succeeded" || state == "failed") s.paymentIntentId = g(11);
      }
    }
    return structuredClone(s) as CheckoutState;
  }

  /**
   * Call `listener(state)` after every change (not immediately). Returns
   * the function that unsubscribes it.
   */
  subscribe(listener: CheckoutListener): () => void {
    const l: CheckoutListener = (s) => listener(s);
    this.#listeners.add(l);
    return () => void this.#listeners.delete(l);
  }

  /**
   * The shipping options the whole order can use in `country` (uppercase
   * ISO 3166-1 alpha-2), cheapest first, with exact minor-unit prices.
   *
   * Rejects with `invalid_argument` for a bad country, `invalid_state`
   * once a payment exists, or the server's error.
   */
  async shippingOptions(country: string): Promise<ShippingOption[]> {
    this.#m.step(CAN_SHIP, [], []);
    const se = this.#session as CheckoutSession;
    const variantIds = se.items.map((i) => i.variantId);
    const answer = await this.#c.shippingRates({ variantIds, country });
    const s = [se.currency, ...variantIds], n = [se.breakdown.subtotal, variantIds.length], rates: ShippingRate[] = [];
    for (const v of answer) {
      for (const r of v.rates) {
        const c = rateOf(r), min = c.minOrderPrice, max = c.maxOrderPrice;
        s.push(v.variantId, r.id, r.price, min ?? "", max ?? "");
        n.push(r.deliveryTimeframeMin, r.deliveryTimeframeMax, (min === null ? 0 : 1) + (max === null ? 0 : 2));
        rates.push(c);
      }
    }
    const out = (this.#m.step(OPTIONS, s, n) as string).split(" ").map(Number);
    const options: ShippingOption[] = [];
    for (let i = 0; i + 2 < out.length; i += 3) {
      options.push({ rate: rates[out[i]] as ShippingRate, price: out[i + 1] as number, estimatedTotal: out[i + 2] as number });
    }
    this.#options = [country, options];
    return structuredClone(options);
  }

  /**
   * Choose a rate (by id, from the last `shippingOptions(country)`) and the
   * shipping address; the server adds shipping and tax and the adapter is
   * told the new amount. The address is checked first (required fields,
   * e-mail shape, uppercase country matching the options' country).
   *
   * Rejects with `invalid_argument` naming the field, `invalid_state`
   * while paying or after a payment exists, or the server's error.
   */
  async selectShipping(rateId: string, address: ShippingAddress): Promise<CheckoutState> {
    this.#idle("select shipping");
    const m = this.#m;
    m.step(CAN_SHIP, [], []);
    shape(address, "ShippingAddress", "shippingAddress");
    const a: Rec = {}, fields: string[] = [];
    for (const k of ADDRESS) {
      const v = (address as unknown as Rec)[k] as string | null | undefined;
      if (v != null) a[k] = v;
      fields.push(v ?? "");
    }
    const opts = this.#options;
    if (!opts) throw fail("invalid_state", "call shippingOptions(country) before selectShipping");
    const [country, list] = opts;
    if (a.country !== country) {
      throw bad(
        `shippingAddress.country "${a.country as string}" differs from the country of the shipping options ("${country}"); call shippingOptions("${a.country as string}") first`,
      );
    }
    const rate = list.find((o) => o.rate.id === rateId)?.rate;
    if (!rate) throw bad(`shipping rate "${rateId}" is not one of the options for ${country}`);
    m.step(UPDATE, [rateId, ...fields], []);
    const se = this.#session as CheckoutSession;
    const r = await this.#c.updatePayment({
      sessionId: se.sessionId,
      shippingRateId: rateId,
      shippingAddress: a as unknown as ShippingAddress,
    });
    this.#idle("select shipping");
    const b = r.breakdown;
    m.step(CHOSEN, [rateId, ...fields, r.sessionId], [r.amount, b.subtotal, b.shipping, b.tax, b.total]);
    this.#session = {
      ...se,
      currency: r.currency,
      amount: r.amount,
      breakdown: breakdown(b),
    };
    this.#shipping = { rate: structuredClone(rate), address: a as unknown as ShippingAddress };
    this.#changed();
    await this.#a.updateAmount(r.amount, r.currency);
    return this.state;
  }

  /**
   * Pay: the adapter collects a token (or the unsettled one is reused),
   * the SDK confirms, runs the next action (3-D Secure) if asked, and
   * confirms again. Resolves with the settled state: `succeeded`,
   * `failed` (see `retryable`), or `paying` if the processor is still
   * `processing`. A second call while one runs returns the same promise.
   *
   * Rejects with a `CirrusError` only when paying is not allowed now
   * (`invalid_state`) or `returnUrl` is bad (`invalid_argument`).
   */
  pay(options: PayOptions): Promise<CheckoutState> {
    if (this.#flight) return this.#flight;
    const url = (options as unknown as Rec | null)?.returnUrl;
    if (typeof url !== "string") return Promise.reject(bad("options.returnUrl must be a string"));
    return this.#run(url, false);
  }

  /**
   * Abandon the checkout before any payment exists.
   *
   * @throws {CirrusError} `invalid_state` while a payment is in progress or
   * unsettled, after success, or when already cancelled.
   */
  cancel(): void {
    this.#idle("cancel");
    this.#m.step(CANCEL, [], []);
    this.#changed();
    try {
      this.#a.unmount?.();
    } catch {
      // the form is going away anyway
    }
  }

  /** Releases the state machine; the checkout is unusable afterwards. */
  free(): void {
    this.#m.free();
  }

  [Symbol.dispose](): void {
    this.free();
  }

  #idle(action: string): void {
    if (this.#flight) throw fail("invalid_state", `cannot ${action} while a payment is in progress`);
  }

  /** Persist, then tell the listeners. */
  #changed(): void {
    const s = this.state;
    try {
      // A full or disabled storage only costs the ability to resume; the
      // server's idempotent confirm still prevents double charges.
      this.#s?.setItem(this.#k, JSON.stringify(s));
    } catch {
      // see above
    }
    for (const l of [...this.#listeners]) {
      try {
        l(s);
      } catch {
        // a listener's error is its own
      }
    }
  }

  async #mount(): Promise<void> {
    const s = this.#session;
    if (s) await this.#a.mount({ publishableKey: s.publishableKey, amount: s.amount, currency: s.currency });
  }

  /** Starts a payment as the single flight. */
  #run(url: string, resume: boolean): Promise<CheckoutState> {
    const p = (async () => {
      try {
        await this.#pay(url, resume);
        return this.state;
      } finally {
        this.#flight = undefined;
      }
    })();
    return (this.#flight = p);
  }

  /**
   * One payment run: collect (or reuse) a token, confirm, run at most one
   * next action per run and confirm again. Payment outcomes end in the
   * state; only a step that may not run now rejects.
   */
  async #pay(url: string, resume: boolean): Promise<void> {
    await undefined; // #run has recorded the flight before anything runs
    const m = this.#m, a = this.#a;
    let token = m.step(resume ? RESUME : PAY, [url], []);
    if (token == null) {
      if (resume) return;
      let t: unknown;
      try {
        t = await a.collectToken();
      } catch (e) {
        return this.#adapterFailed(messageOf(e));
      }
      if (typeof t !== "string" || !t.trim()) return this.#adapterFailed("the processor adapter returned no token");
      token = t;
    }
    for (let actions = 0; ; actions++) {
      m.step(BEGIN, [token, url], []);
      this.#changed(); // stored as in flight before anything is sent
      const s = this.state as Extract<CheckoutState, { state: "paying" }>;
      let next: string | undefined;
      try {
        const r = await this.#c.confirmPayment({
          sessionId: s.session.sessionId,
          confirmationTokenId: token,
          shippingRateId: s.shipping.rate.id,
          shippingAddress: s.shipping.address,
          returnUrl: s.attempt.returnUrl,
        });
        try {
          next = m.step(CONFIRMED, [r.status, r.clientSecret ?? "", r.paymentIntentId ?? "", r.error ?? ""], []);
        } catch {
          // a malformed answer: the core recorded a retryable failure
        }
      } catch (e) {
        m.step(CONFIRM_FAILED, [String((e as Rec | null)?.code ?? "internal"), messageOf(e)], []);
      }
      this.#changed();
      if (next == null) return; // final, processing, or a failure
      if (actions) return this.#adapterFailed("authentication was not completed");
      try {
        await a.handleNextAction(next);
      } catch (e) {
        return this.#adapterFailed(messageOf(e));
      }
      token = m.step(ACTION_DONE, [], []) as string;
    }
  }

  #adapterFailed(message: string): void {
    this.#m.step(ADAPTER_FAILED, [message], []);
    this.#changed();
  }
}
