// A server component (rendered at request time) with the root entry: products from the dev
// server, and a cart priced on the server (in memory: no browser storage there).
import { init, CirrusClient, Cart, formatMoney } from "cirrus-storefront";

export const dynamic = "force-dynamic";

export default async function Home() {
  await init();
  const client = new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
  const { products } = await client.products({ limit: 5 });
  const product = products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
  const variant = product.variants.find((v) => v.stockQuantity > 0);
  const cart = new Cart("USD");
  cart.add(product, variant.id, 1);
  const stored = Cart.persistent("USD", { key: "server-cart" });
  return (
    <main>
      <ul id="products">
        {products.map((p) => (
          <li key={p.slug} data-slug={p.slug}>{p.name}</li>
        ))}
      </ul>
      <p id="server-cart">{`${variant.id}: ${formatMoney(cart.totals.subtotal, "USD", "en-US")}`}</p>
      <p id="persistent-cart">{stored.problem ? stored.problem.kind : "stored"}</p>
    </main>
  );
}
