"use client";
// `cirrus-storefront/react` in a client component: rendered on the server with the provider's
// not-ready snapshot ("loading"), hydrated, then the persistent cart is loaded (useLoadCart) and one
// line added.
import { useEffect } from "react";
import { CirrusProvider, useCart, useClient, useLoadCart } from "cirrus-storefront/react";

function Lines() {
  useLoadCart(); // the lines are the SDK's: load the cart (and its wasm) when this mounts
  const cart = useCart();
  const client = useClient();
  useEffect(() => {
    if (!cart.ready || !client || !cart.isEmpty) return;
    client.products({ limit: 5 }).then(({ products }) => {
      const product = products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
      cart.add(product, product.variants.find((v) => v.stockQuantity > 0).id, 1);
    });
  }, [cart, client]);
  const text = !cart.ready ? "loading" : cart.isEmpty ? "empty" : cart.lines.map((l) => `${l.variantId} x${l.quantity}`).join(", ");
  return <p id="react-cart">{text}</p>;
}

export default function ReactCart({ baseUrl, apiKey }) {
  return (
    <CirrusProvider client={{ baseUrl, apiKey }} currency="USD" cartKey="next-react-cart">
      <Lines />
    </CirrusProvider>
  );
}
