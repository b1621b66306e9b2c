"use client";
// The cart link in the header: "Cart (2)" from the summary the cart saved
// (cirrus-storefront/cart-summary: plain JS, no wasm), following this tab and the others.
import Link from "next/link";
import { useSyncExternalStore } from "react";
import { readCartSummary, subscribeCartSummary } from "cirrus-storefront/cart-summary";

export function CartBadge() {
  // The server and the hydration render say "Cart"; the stored count right after.
  const count = useSyncExternalStore(subscribeCartSummary, () => readCartSummary()?.itemCount ?? null, () => null);
  return (
    <Link prefetch={false} href="/cart" className="cart-link" data-cart-count={count || ""}>
      Cart <span className="cart-count">{count ? `(${count})` : ""}</span>
    </Link>
  );
}
