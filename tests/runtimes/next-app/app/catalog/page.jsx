// A server component with the catalog-only entry `cirrus-storefront/client`.
import { init, CirrusClient, productSeo } from "cirrus-storefront/client";

export const dynamic = "force-dynamic";

export default async function Catalog() {
  await init();
  const client = new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
  const [store, { products }] = await Promise.all([client.store(), client.products({ limit: 5 })]);
  return (
    <main>
      <h1 id="store">{store.name}</h1>
      <ul id="products">
        {products.map((p) => (
          <li key={p.slug} data-slug={p.slug}>{productSeo(store, p).title}</li>
        ))}
      </ul>
    </main>
  );
}
