"use client";
// A client component: init(), the client and a persistent cart in the browser, and the error
// of a cross-origin call refused by CORS.
import { useEffect, useState } from "react";
import { init, CirrusClient, Cart, formatMoney } from "cirrus-storefront";

export default function CartView({ baseUrl, apiKey }) {
  const [text, setText] = useState("loading");
  const [cors, setCors] = useState("loading");
  useEffect(() => {
    (async () => {
      await init();
      const client = new CirrusClient({ baseUrl, apiKey });
      const { products } = await client.products({ limit: 5 });
      const product = products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
      const variant = product.variants.find((v) => v.stockQuantity > 0);
      const cart = Cart.persistent("USD", { key: "next-cart" });
      cart.clear();
      cart.add(product, variant.id, 1);
      const saved = localStorage.getItem("next-cart") !== null;
      setText(`${variant.id}: ${formatMoney(cart.totals.subtotal, "USD", "en-US")}${saved ? " (saved)" : ""}`);
      // A call the browser refuses by CORS: this Next.js server on another origin (localhost
      // instead of 127.0.0.1) sends no CORS headers. The error must say so and name both origins.
      const other = new CirrusClient({ baseUrl: `${location.origin.replace("127.0.0.1", "localhost")}/api/v1`, apiKey, retries: 0 });
      const refused = await other.store().then(() => "answered?!", (e) => `${e.code}: ${e.message}`);
      setCors(refused);
    })().catch((e) => setText(`error: ${e.code ?? e.name}: ${e.message}`));
  }, []);
  return (
    <>
      <p id="cart">{text}</p>
      <p id="cors">{cors}</p>
    </>
  );
}
