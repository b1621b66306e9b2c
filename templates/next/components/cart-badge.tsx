"use client";
// The cart link in the header: "Cart (2)" from the stored cart's summary, with no SDK wasm.
import Link from "next/link";
import { useSyncExternalStore } from "react";
import { onCartChange, storedItemCount } from "@/lib/cart-summary";

export function CartBadge() {
  // The server and the hydration render say "Cart"; the stored count right after.
  const count = useSyncExternalStore(onCartChange, () => storedItemCount(), () => null);
  return (
    <Link href="/cart" className="cart-link" data-cart-count={count || ""}>
      Cart <span className="cart-count">{count ? `(${count})` : ""}</span>
    </Link>
  );
}
