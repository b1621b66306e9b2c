// The cart and money helpers (issue 4). Rust (`CartCore`, `money*` in
// src/wasm/cart.rs) owns the rules and the exact integer math; this file checks
// argument shapes, keeps the line objects, persists, and builds what users see.
// Amounts go to Rust as BigInt after `Number.isSafeInteger`, and come back as
// BigInt checked <= 2^53 - 1 there, so `Number(…)` is exact.
import { CartCore, moneyAdd, moneyDecimal, moneyExponent, moneyParse } from "./cirrus_storefront.js";
import type {
  CartChange,
  CartLine,
  CartStorageEvent,
  CartTotals,
  Image,
  PaymentItem,
  PersistentCartOptions,
  Product,
  RefreshReport,
  RestoreProblem,
  RestoreProblemKind,
  ShippingOption,
  ShippingRate,
  ShippingRatesResponse,
  Variant,
  VariantRates,
} from "./cirrus_storefront.js";
import { cirrusError } from "./error.js";
import { SCHEMA } from "./generated/schema.js";
import { check as shape } from "./validate.js";

const N = Number;
const err = (message: string) => cirrusError("invalid_argument", message);
const msg = (e: unknown): string => {
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m == "string" ? m : "unknown error";
};
/** A short rendering of a value for messages (JSON, at most 40 characters). */
function show(v: unknown): string {
  if (v === undefined) return "undefined";
  let t: string | undefined;
  try {
    t = JSON.stringify(v);
  } catch {}
  return t === undefined ? "a non-JSON value" : t.length > 40 ? t.slice(0, 40) + "…" : t;
}
const isU32 = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 4294967295;

// The shapes the cart reads, in js/validate.js's language (names not defined here are
// the generated schema's): a catalog product (only the members the cart reads), a
// `shippingRates` answer, a saved cart.
const CS = Object.assign(Object.create(SCHEMA) as Record<string, unknown>, {
  P: { id: "s", name: "s", slug: "s", status: "ProductStatus", images: "[Image", variants: "[V" },
  V: { id: "s", price: "s", compareAtPrice: "?s", stockQuantity: "u", stockStatus: "StockStatus", image: "?Image", attributes: "{s" },
  VR: { variantId: "s", profileId: "s", rates: "[R" },
  R: { id: "s", name: "s", price: "s", deliveryDescription: "s", deliveryTimeframeMin: "u", deliveryTimeframeMax: "u", minOrderPrice: "?s", maxOrderPrice: "?s" },
  C: { version: "u", currency: "s", lines: "[L" },
  L: { productId: "s", productName: "s", productSlug: "s", variantId: "s", attributes: "{s", image: "?Image", unitPrice: "i", compareAtPrice: "?i", quantity: "u", stockQuantity: "u", lineTotal: "?i", lineSavings: "?i" },
});
function check(v: unknown, t: string | object, what: string): void {
  try {
    shape(v, t, what, CS);
  } catch (m) {
    throw err(String(m));
  }
}

/** An amount argument: a safe integer `number`, as BigInt for Rust. */
function amount(v: unknown, what: string): bigint {
  if (!Number.isSafeInteger(v)) throw err(`${what} must be a whole number of minor units, got ${show(v)}`);
  return BigInt(v as number);
}
function qty(v: unknown): number {
  if (!isU32(v)) throw err(`quantity must be a whole number, got ${show(v)}`);
  return v as number;
}
const problem = (kind: RestoreProblemKind, message: string): RestoreProblem => Object.freeze({ kind, message });
const U = (xs: number[]) => new Uint32Array(xs);

type Display = Pick<CartLine, "productId" | "productName" | "productSlug" | "variantId" | "attributes" | "image">;
const image = (i: Image | null | undefined): Image | null => (i ? Object.freeze({ url: i.url, alt: i.alt }) : null);
/** Attributes sorted by name (as the Rust side keeps them), frozen. */
const attrs = (a: Record<string, string>) => Object.freeze(Object.fromEntries(Object.entries(a).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))));
const display = (p: Product, v: Variant): Display => ({
  productId: p.id,
  productName: p.name,
  productSlug: p.slug,
  variantId: v.id,
  attributes: attrs(v.attributes),
  image: image(v.image ?? p.images[0]),
});
const orNull = (x: bigint | undefined) => (x === undefined || x < 0n ? null : N(x));
/** A line object: display fields of `d`, numbers from Rust at `n[o…o+5]`. */
const line = (d: Display, n: BigInt64Array, o: number): CartLine =>
  Object.freeze({
    productId: d.productId,
    productName: d.productName,
    productSlug: d.productSlug,
    variantId: d.variantId,
    attributes: d.attributes,
    image: d.image,
    unitPrice: N(n[o]),
    compareAtPrice: orNull(n[o + 1]),
    quantity: N(n[o + 2]),
    stockQuantity: N(n[o + 3]),
    lineTotal: N(n[o + 4]),
    lineSavings: N(n[o + 5]),
  });
/** Offer flags of variant `v` of `p` (see CartCore.refresh): active, found, out of stock, has compare-at. */
const flags = (p: Product, v: Variant | undefined) =>
  (p.status == "ACTIVE" ? 2 : 0) | (v ? 4 : 0) | (v?.stockStatus == "OUT_OF_STOCK" ? 8 : 0) | (v?.compareAtPrice != null ? 16 : 0);
/** A plain copy of a shipping rate (`min`/`maxOrderPrice` null when absent). */
export const rateOf = (r: ShippingRate): ShippingRate => ({
  id: r.id,
  name: r.name,
  price: r.price,
  deliveryDescription: r.deliveryDescription,
  deliveryTimeframeMin: r.deliveryTimeframeMin,
  deliveryTimeframeMax: r.deliveryTimeframeMax,
  minOrderPrice: r.minOrderPrice ?? null,
  maxOrderPrice: r.maxOrderPrice ?? null,
});
const KINDS = ["priceChanged", "stockLowered", "outOfStock", "variantGone"] as const;

interface Persist {
  k: string;
  s: Storage | null;
  f: ((event: CartStorageEvent) => void) | undefined;
  q: RestoreProblem | null;
  h?: (e: StorageEvent) => void;
}

/**
 * A cart in one currency, with exact prices in integer minor units.
 *
 * Amounts (`unitPrice`, `lineTotal`, `subtotal`, …) are whole numbers of the
 * currency's minor unit (cents for USD), always `<= 2^53 − 1`. Format them
 * with `formatMoney`. A cart made by `Cart.persistent` saves itself to
 * `localStorage` after every change and follows changes made in other tabs.
 * Line objects are frozen snapshots.
 */
export class Cart {
  #c: CartCore;
  #l: CartLine[] = [];
  #cur: string;
  #p: Persist | undefined;

  /**
   * An empty cart in `currency` (the store's `defaultCurrency`, e.g. `"USD"`).
   * Throws `invalid_argument` for an unknown currency code.
   */
  constructor(currency: string) {
    this.#c = new CartCore(currency);
    this.#cur = currency;
  }

  /**
   * Restore a cart saved with `serialize()`. Never throws on the data:
   * corrupt, unknown-version or other-currency data gives an empty cart and
   * a `problem` saying why; `null`/`undefined`/`""` gives an empty cart.
   * Throws `invalid_argument` only for an unknown `currency`.
   */
  static restore(data: string | null | undefined, currency: string): { cart: Cart; problem: RestoreProblem | null } {
    const cart = new Cart(currency);
    return { cart, problem: cart.#load(data) };
  }

  /**
   * A cart kept in `localStorage` (or `options.storage`) under `options.key`
   * (default `"cirrus-storefront.cart"`): restored now, saved after every
   * change, and replaced when another tab changes it (the `storage` event).
   * Never throws on bad saved data or unavailable storage: the cart starts
   * empty and `problem` says why. `options.onChange({ source, problem })` is
   * called after another tab's change (`source: "storage"`) and when saving
   * fails or recovers (`source: "save"`). Call `free()` to stop following.
   * Throws `invalid_argument` for an unknown `currency` or bad options.
   */
  static persistent(currency: string, options?: PersistentCartOptions | null): Cart {
    const o: { key?: unknown; onChange?: unknown; storage?: unknown } = options ?? {};
    const k = o.key ?? "cirrus-storefront.cart";
    if (typeof k != "string" || !k) throw err("options.key must be a non-empty string");
    const f = o.onChange ?? undefined;
    if (f !== undefined && typeof f != "function") throw err("options.onChange must be a function");
    let s = o.storage as Storage | null | undefined;
    let q: RestoreProblem | null = null;
    if (s == null) {
      // Reading `localStorage` itself throws where storage is disabled.
      try {
        s = globalThis.localStorage;
        if (typeof s != "object" || !s) {
          s = null;
          q = problem("storage_unavailable", "localStorage is not available here; the cart is kept in memory only");
        }
      } catch (e) {
        s = null;
        q = problem("storage_unavailable", `localStorage is not available; the cart is kept in memory only: ${msg(e)}`);
      }
    } else if (typeof s != "object") throw err("options.storage must be a Storage object");
    const cart = new Cart(currency);
    let saved: string | null = null;
    if (s)
      try {
        saved = s.getItem(k);
      } catch (e) {
        q = problem("storage_unavailable", `reading the saved cart failed: ${msg(e)}`);
      }
    const p: Persist = (cart.#p = { k, s, f: f as Persist["f"], q: q ?? cart.#load(saved) });
    if (s && typeof addEventListener == "function") {
      // `key === null` is `storage.clear()` in the other tab.
      p.h = (e) => {
        if (e.storageArea === s && (e.key === null || e.key === k)) cart.#report("storage", cart.#load(e.newValue));
      };
      addEventListener("storage", p.h);
    }
    return cart;
  }

  /** Replace the content by saved `data`; the problem, if any (the cart is then empty). */
  #load(data: string | null | undefined): RestoreProblem | null {
    const cur = this.#cur;
    let c = new CartCore(cur);
    let l: CartLine[] = [];
    let q: RestoreProblem | null = null;
    const text = typeof data == "string" ? data.trim() : "";
    try {
      if (text) {
        const fail = (m: string, kind: RestoreProblemKind = "corrupt") => {
          throw problem(kind, m);
        };
        let doc: { version?: unknown; currency: string; lines: CartLine[] } | undefined;
        try {
          doc = JSON.parse(text);
        } catch (e) {
          fail(`saved cart is not JSON: ${msg(e)}`);
        }
        const v = typeof doc == "object" && doc ? doc.version : undefined;
        if (!Number.isSafeInteger(v) || (v as number) < 0) fail('saved cart has no numeric "version"');
        if (v !== 1) fail(`saved cart has version ${v}; this SDK reads version 1`, "unknown_version");
        try {
          check(doc, "C", "cart");
        } catch (e) {
          fail(`saved cart has an invalid shape: ${msg(e)}`);
        }
        if (doc!.currency !== cur) fail(`saved cart is in ${show(doc!.currency)}, the store uses ${cur}`, "currency_mismatch");
        try {
          for (const s of doc!.lines) {
            const n = c.restoreLine(s.variantId, BigInt(s.unitPrice), s.compareAtPrice == null ? null : BigInt(s.compareAtPrice), s.quantity, s.stockQuantity);
            l.push(line({ ...s, attributes: attrs(s.attributes), image: image(s.image) }, n, 1));
          }
        } catch (e) {
          fail(msg(e));
        }
      }
    } catch (e) {
      q = e as RestoreProblem;
      c.free();
      c = new CartCore(cur);
      l = [];
    }
    this.#c.free();
    this.#c = c;
    this.#l = l;
    return q;
  }

  #report(source: CartStorageEvent["source"], problem: RestoreProblem | null): void {
    const p = this.#p!;
    p.q = problem;
    try {
      p.f?.({ source, problem });
    } catch {
      // A throwing listener must not break the cart.
    }
  }

  #save(): void {
    const p = this.#p;
    if (!p?.s) return;
    try {
      p.s.setItem(p.k, this.serialize());
      if (p.q?.kind == "write_failed") this.#report("save", null);
    } catch (e) {
      this.#report("save", problem("write_failed", `saving the cart failed: ${msg(e)}`));
    }
  }

  /** Why a persistent cart started empty or could not be saved, or `null`. */
  get problem(): RestoreProblem | null {
    return this.#p?.q ?? null;
  }

  /** The versioned JSON form (`{"version":1,…}`) for `Cart.restore`. */
  serialize(): string {
    return JSON.stringify({ version: 1, currency: this.#cur, lines: this.#l });
  }

  /** The cart's ISO 4217 currency code. */
  get currency(): string {
    return this.#cur;
  }

  /**
   * Add `quantity` of variant `variantId` of `product` (a catalog `Product`).
   * Adding a variant already in the cart merges into its line.
   * Throws `not_found` (no such variant), `conflict` (out of stock, product
   * not active), `invalid_argument` (quantity not a whole number in stock,
   * bad product data, total beyond 2^53 − 1).
   */
  add(product: Product, variantId: string, quantity: number): void {
    check(product, "P", "product");
    const q = qty(quantity);
    const v = product.variants.find((x) => x.id === variantId);
    const n = this.#c.add([product.slug, variantId, v?.price ?? "", v?.compareAtPrice ?? ""].join("\0"), flags(product, v), v?.stockQuantity ?? 0, q);
    const i = N(n[0]);
    this.#l[i] = line(this.#l[i] ?? display(product, v!), n, 1);
    this.#save();
  }

  /**
   * Set the quantity of a line (1..=stockQuantity); use `remove` to drop it.
   * Throws `not_found` (not in the cart), `invalid_argument` (quantity).
   */
  setQuantity(variantId: string, quantity: number): void {
    const n = this.#c.setQuantity(variantId, qty(quantity));
    const i = N(n[0]);
    this.#l[i] = line(this.#l[i]!, n, 1);
    this.#save();
  }

  /** Remove a line; returns whether there was one. */
  remove(variantId: string): boolean {
    const had = this.#c.remove(variantId);
    if (had) this.#l = this.#l.filter((l) => l.variantId !== variantId);
    this.#save();
    return had;
  }

  /** Remove every line. */
  clear(): void {
    this.#c.free();
    this.#c = new CartCore(this.#cur);
    this.#l = [];
    this.#save();
  }

  /** The lines, in the order they were added. */
  get lines(): CartLine[] {
    return this.#l.slice();
  }

  /** The line of `variantId`, or `null`. */
  line(variantId: string): CartLine | null {
    return this.#l.find((l) => l.variantId === variantId) ?? null;
  }

  /** `{ subtotal, totalSavings, itemCount, lineCount }` (minor units, counts). */
  get totals(): CartTotals {
    const t = this.#c.totals();
    return { subtotal: N(t[0]), totalSavings: N(t[1]), itemCount: N(t[2]), lineCount: N(t[3]) };
  }

  /** The subtotal in minor units. */
  get subtotal(): number {
    return N(this.#c.totals()[0]);
  }

  get isEmpty(): boolean {
    return !this.#l.length;
  }

  /**
   * Apply fresh catalog `products` (those of the cart's lines) and report
   * what changed: `priceChanged`, `stockLowered`, `outOfStock`, `variantGone`.
   * Lines whose product is not given stay and are listed in `unchecked`.
   * Throws `invalid_argument` for bad product data; the cart is then unchanged.
   */
  refresh(products: Product[]): RefreshReport {
    return this.#fresh(products, true);
  }

  /** What `refresh` would report, without changing the cart. */
  check(products: Product[]): RefreshReport {
    return this.#fresh(products, false);
  }

  #fresh(products: Product[], apply: boolean): RefreshReport {
    check(products, "[P", "products");
    const byId = new Map<string, Product>();
    for (const p of products) if (!byId.has(p.id)) byId.set(p.id, p);
    const nums: number[] = [];
    const strs: string[] = [];
    const fresh: (Display | undefined)[] = [];
    for (const l of this.#l) {
      const p = byId.get(l.productId);
      const v = p?.variants.find((x) => x.id === l.variantId);
      nums.push(p ? 1 | flags(p, v) : 0, v?.stockQuantity ?? 0);
      strs.push(v?.price ?? "", v?.compareAtPrice ?? "");
      fresh.push(v && display(p!, v));
    }
    const r = this.#c.refresh(apply, U(nums), strs.join("\0"));
    const report: RefreshReport = { changes: [], unchecked: [] };
    const gone = new Set<number>();
    const end = 1 + 6 * N(r[0]);
    for (let o = 1; o < end; o += 6) {
      const k = N(r[o]);
      const i = N(r[o + 1]);
      const { variantId, productName } = this.#l[i]!;
      const a = N(r[o + 2]);
      const b = N(r[o + 3]);
      if (k == 4) report.unchecked.push(variantId);
      else {
        const kind = KINDS[k]!;
        if (k > 1) gone.add(i);
        report.changes.push(
          (k == 0
            ? { kind, variantId, productName, oldUnitPrice: a, newUnitPrice: b, oldCompareAtPrice: orNull(r[o + 4]), newCompareAtPrice: orNull(r[o + 5]) }
            : k == 1
              ? { kind, variantId, productName, oldQuantity: a, newQuantity: b }
              : { kind, variantId, productName, removedQuantity: a }) as CartChange,
        );
      }
    }
    if (apply) {
      let j = end;
      this.#l = this.#l.flatMap((l, i) => (gone.has(i) ? [] : [line(fresh[i] ?? l, r, (j += 6) - 6)]));
      this.#save();
    }
    return report;
  }

  /** The `items` of `payments.initiate`: `{ variantId, quantity }` per line. */
  paymentItems(): PaymentItem[] {
    return this.#l.map((l) => ({ variantId: l.variantId, quantity: l.quantity }));
  }

  /**
   * From a `shippingRates` answer for this cart's variants, the rates the
   * whole order can use (offered for every variant, subtotal inside the
   * rate's band), cheapest first, each with `price` and `estimatedTotal`
   * (subtotal + price, before tax) in minor units.
   * Throws `invalid_argument` for an empty cart or a malformed answer.
   */
  shippingOptions(answer: VariantRates[] | ShippingRatesResponse): ShippingOption[] {
    let vrs: VariantRates[];
    if (Array.isArray(answer)) check((vrs = answer), "[VR", "variantRates");
    else check(answer, { variantRates: "[VR" }, "answer"), (vrs = answer.variantRates);
    const counts: number[] = [];
    const vids: string[] = [];
    const strs: string[] = [];
    const nums: number[] = [];
    for (const vr of vrs) {
      counts.push(vr.rates.length);
      vids.push(vr.variantId);
      for (const r of vr.rates) {
        strs.push(r.id, r.price, r.minOrderPrice ?? "", r.maxOrderPrice ?? "");
        nums.push((r.minOrderPrice != null ? 1 : 0) | (r.maxOrderPrice != null ? 2 : 0), r.deliveryTimeframeMin, r.deliveryTimeframeMax);
      }
    }
    const u = this.#c.shipping(U(counts), [...vids, ...strs].join("\0"), U(nums));
    const out: ShippingOption[] = [];
    for (let o = 0; o < u.length; o += 4) {
      const r = vrs[N(u[o])]!.rates[N(u[o + 1])]!;
      out.push({
        rate: rateOf(r),
        price: N(u[o + 2]),
        estimatedTotal: N(u[o + 3]),
      });
    }
    return out;
  }

  /** Format `minor` units of the cart's currency for `locale` (see `formatMoney`). */
  format(minor: number, locale?: string | null): string {
    return formatMoney(minor, this.#cur, locale);
  }

  /** Stop following other tabs and release the cart's memory. */
  free(): void {
    const h = this.#p?.h;
    if (h) removeEventListener("storage", h);
    this.#c.free();
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

/**
 * Decimal price string → integer minor units: `parseMoney("19.99", "USD") === 1999`.
 * Throws `invalid_argument` naming the value (not a plain decimal, more
 * decimals than the currency has, beyond 2^53 − 1) or the unknown currency.
 */
export function parseMoney(value: string, currency: string): number {
  return N(moneyParse(value, currency));
}

/**
 * Integer minor units → the exact decimal string: `moneyToDecimal(1999, "USD") === "19.99"`.
 * Throws `invalid_argument` for a non-integer or unsafe amount or an unknown currency.
 */
export function moneyToDecimal(minor: number, currency: string): string {
  return moneyDecimal(amount(minor, "minor"), currency);
}

/** `a + b` in minor units, exact. Throws `invalid_argument` for a non-integer input or a sum beyond 2^53 − 1. */
export function addMoney(a: number, b: number): number {
  return N(moneyAdd(amount(a, "a"), amount(b, "b")));
}

/** Digits after the decimal point of an ISO 4217 currency (USD 2, JPY 0, KWD 3). Throws `invalid_argument` for an unknown currency. */
export const currencyExponent: (currency: string) => number = moneyExponent;

/** `Intl.NumberFormat#format` by locale and currency: building one costs tens of µs. */
const formatters = new Map<string, (decimal: string) => string>();

/**
 * Format `minor` units of `currency` for display with `Intl.NumberFormat`
 * (`locale` like `"de-DE"`; omitted: the runtime's default). The exact decimal
 * string is handed to `Intl`, so no digit is lost or rounded:
 * `formatMoney(123456, "USD", "en-US") === "$1,234.56"`.
 * Throws `invalid_argument` for a non-integer or unsafe amount, an unknown
 * currency or a locale `Intl` rejects.
 */
export function formatMoney(minor: number, currency: string, locale?: string | null): string {
  const decimal = moneyDecimal(amount(minor, "minor"), currency);
  const key = locale + "\u0000" + currency;
  let f = formatters.get(key);
  if (!f) {
    const e = moneyExponent(currency);
    try {
      // Exactly the ISO 4217 digits, so the display is the exact amount.
      f = new Intl.NumberFormat(locale ?? undefined, { style: "currency", currency, minimumFractionDigits: e, maximumFractionDigits: e }).format as unknown as (d: string) => string;
    } catch (x) {
      throw err(`locale ${show(locale)} is not usable: ${msg(x)}`);
    }
    formatters.set(key, f);
  }
  return f(decimal);
}
