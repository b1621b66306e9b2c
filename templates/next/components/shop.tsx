"use client";
// The cart page's and the checkout's provider: the SDK's client and persistent cart, made in
// the browser (the wasm loads on these pages only). Every cart change made here (or by a paid
// checkout) reaches the header's badge.
import { useEffect } from "react";
import type { Store } from "cirrus-storefront";
import { CirrusProvider, useCart } from "cirrus-storefront/react";
import { CART_KEY, cartChanged } from "@/lib/cart-summary";
import type { BrowserSettings } from "@/lib/cirrus";

export function Shop({ settings, store, children }: { settings: BrowserSettings; store: Store; children: React.ReactNode }) {
  return (
    <CirrusProvider client={{ baseUrl: settings.baseUrl, apiKey: settings.apiKey }} store={store} cartKey={CART_KEY}>
      <BadgeSync />
      <ProblemLog />
      {children}
    </CirrusProvider>
  );
}

/** Tells the badge when the item count changes in this tab. */
function BadgeSync() {
  const count = useCart((c) => (c.ready ? c.totals!.itemCount : null));
  useEffect(() => {
    if (count !== null) cartChanged();
  }, [count]);
  return null;
}

/** A cart that cannot be made (no API key, no wasm) says so in development. */
function ProblemLog() {
  const error = useCart((c) => c.error);
  useEffect(() => {
    if (error && process.env.NODE_ENV !== "production") console.error("cirrus-storefront: the cart could not start:", error);
  }, [error]);
  return null;
}

/** A message for an error the SDK gave (a CirrusError's message names the problem). */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
