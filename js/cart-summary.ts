// `cirrus-storefront/cart-summary`: what a cart badge or a mini-cart shows (item count,
// subtotal, currency), read from the summary the Rust cart writes into its saved form after
// every change (src/cart/storage.rs), in plain JS: no wasm, no glue, a few hundred bytes. It
// follows other tabs (the `storage` event) and this tab's carts (the event a persistent cart
// dispatches after saving, src/wasm/cart_persist.rs SAVED_EVENT). Nothing is computed here:
// the shape is checked and anything odd is "unknown" (`null`); the cart itself (the wasm)
// recomputes everything from the lines when it loads.
import type { CartSummary } from "./cirrus_storefront.js";

export type { CartSummary };

/** No cart saved yet: an empty cart whose currency is not known yet. */
export interface EmptyCartSummary {
  currency: null;
  itemCount: 0;
  lineCount: 0;
  subtotal: 0;
}

/** What `readCartSummary` gives: the saved summary, or the empty one when nothing is saved. */
export type StoredCartSummary = CartSummary | EmptyCartSummary;

/** Where `readCartSummary` and `subscribeCartSummary` read the saved cart. */
export interface CartSummaryOptions {
  /** The cart's key (`Cart.persistent`'s `key`); default `"cirrus-storefront.cart"`. */
  key?: string;
  /** Where the cart is kept; default `localStorage`. */
  storage?: Pick<Storage, "getItem">;
}

const EMPTY: EmptyCartSummary = Object.freeze({ currency: null, itemCount: 0, lineCount: 0, subtotal: 0 });
const SAVED_EVENT = "cirrus-storefront:cart";
const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
let last: [string | null, StoredCartSummary | null] | undefined;

/** The summary saved text carries, else `null` (not the shape the Rust cart writes). */
function parse(text: string | null): StoredCartSummary | null {
  if (text === null || text.trim() === "") return EMPTY;
  try {
    const doc = JSON.parse(text) as { version?: unknown; currency?: unknown; summary?: Partial<Record<keyof CartSummary, unknown>> };
    const s = doc.summary;
    if (doc.version !== 1 || !s || s.currency !== doc.currency || !/^[A-Z]{3}$/.test(String(s.currency))) return null;
    if (!count(s.itemCount) || !count(s.lineCount) || !count(s.subtotal) || s.lineCount > s.itemCount || (s.lineCount === 0) !== (s.itemCount === 0)) return null;
    return Object.freeze({ currency: s.currency as string, itemCount: s.itemCount, lineCount: s.lineCount, subtotal: s.subtotal as CartSummary["subtotal"] });
  } catch {
    return null;
  }
}

/**
 * The stored cart's summary: `{ currency, itemCount, lineCount, subtotal }` (minor units), the
 * empty summary (`currency: null`) when no cart is saved, `null` when it cannot be known (no
 * storage, data this reader does not recognise). The same object while the saved text is
 * unchanged (a store snapshot).
 */
export function readCartSummary(options?: CartSummaryOptions): StoredCartSummary | null {
  let text: string | null;
  try {
    text = (options?.storage ?? globalThis.localStorage).getItem(options?.key ?? "cirrus-storefront.cart");
  } catch {
    return null;
  }
  if (last?.[0] !== text) last = [text, parse(text)];
  return last[1];
}

/**
 * Calls `listener` with the summary after every change of the stored cart: another tab's
 * (`storage` event) or this tab's (a persistent `Cart` saving itself). Returns the function
 * that stops it. Does nothing without a `window` (on a server).
 */
export function subscribeCartSummary(listener: (summary: StoredCartSummary | null) => void, options?: CartSummaryOptions): () => void {
  if (typeof window === "undefined") return () => {};
  const key = options?.key ?? "cirrus-storefront.cart";
  const on = (e: Event): void => {
    const k = (e as StorageEvent).key;
    if (e.type === SAVED_EVENT || k === key || k === null) listener(readCartSummary(options));
  };
  window.addEventListener("storage", on);
  window.addEventListener(SAVED_EVENT, on);
  return () => {
    window.removeEventListener("storage", on);
    window.removeEventListener(SAVED_EVENT, on);
  };
}
