// STOPGAP until cirrus-storefront/cart-summary (issue 32, sdk32) is in the package: the
// cart badge's count read from the cart's saved form in localStorage, without the wasm. It
// reads only what the Rust cart wrote (its `summary`); this tab's own changes are announced
// by cartChanged(), other tabs' by the `storage` event.
export const CART_KEY = "cirrus-storefront.cart";
const EVENT = "cirrus-storefront:cart";

/** The stored cart's item count (`null`: no stored cart, or storage cannot be read). */
export function storedItemCount(key: string = CART_KEY): number | null {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return null;
    const saved = JSON.parse(text) as { summary?: { itemCount?: unknown }; lines?: { quantity?: unknown }[] };
    if (typeof saved.summary?.itemCount === "number") return saved.summary.itemCount;
    // Before the summary was written (packages before issue 32): the lines' quantities.
    return Array.isArray(saved.lines) ? saved.lines.reduce((n, l) => n + (typeof l.quantity === "number" ? l.quantity : 0), 0) : null;
  } catch {
    return null;
  }
}

/** Calls `listener` when the stored cart changes here (cartChanged) or in another tab; returns the unsubscribe function. */
export function onCartChange(listener: () => void, key: string = CART_KEY): () => void {
  const onStorage = (e: StorageEvent) => (e.key === null || e.key === key) && listener();
  window.addEventListener("storage", onStorage);
  window.addEventListener(EVENT, listener);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(EVENT, listener);
  };
}

/** Tells this tab's listeners that the stored cart changed. */
export function cartChanged(): void {
  window.dispatchEvent(new Event(EVENT));
}
