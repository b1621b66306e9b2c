// GET /        the root entry: a page of products and a cart priced in the Worker
// GET /client  the catalog-only entry `cirrus-storefront/client`: the store and a page of products
// GET /bytes   init() given bytes, which Workers refuse to compile: the CirrusError it rejects with
import * as full from "cirrus-storefront";
import * as catalog from "cirrus-storefront/client";

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    const lib = pathname === "/client" ? catalog : full;
    if (pathname === "/bytes") {
      // Workers compile no WebAssembly from bytes: a CirrusError naming the host and the line to write.
      const e = await catalog.init(new Uint8Array([0, 97, 115, 109])).then(() => null, (e) => e);
      return Response.json({ name: e?.name, code: e?.code, message: e?.message });
    }
    try {
      await lib.init();
      const client = new lib.CirrusClient({ baseUrl: env.CIRRUS_BASE_URL, apiKey: env.CIRRUS_API_KEY });
      const { products } = await client.products({ limit: 5 });
      const answer = { products: products.map((p) => p.name) };
      if (lib === catalog) {
        answer.store = (await client.store()).name;
      } else {
        const product = products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
        const variant = product.variants.find((v) => v.stockQuantity > 0);
        const cart = full.Cart.persistent("USD", { key: "worker-cart" });
        cart.add(product, variant.id, 1);
        answer.cart = `${variant.id}: ${full.formatMoney(cart.totals.subtotal, "USD", "en-US")}`;
        answer.persistent = cart.problem ? cart.problem.kind : "stored";
      }
      return Response.json(answer);
    } catch (e) {
      return Response.json({ error: `${e.name} ${e.code ?? ""}: ${e.message}` }, { status: 500 });
    }
  },
};
