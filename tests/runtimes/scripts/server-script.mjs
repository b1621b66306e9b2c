// A Deno or Bun script (`deno run -A server-script.mjs`, `bun server-script.mjs`) with both
// entries, checked against the dev server's own answers (a plain fetch of the same endpoints):
// products and the store through the SDK, a cart priced in memory, and Cart.persistent, which
// on a server (no localStorage) keeps the cart in memory and says so in `problem`.
import * as full from "cirrus-storefront";
import * as catalog from "cirrus-storefront/client";

const baseUrl = process.env.CIRRUS_BASE_URL, apiKey = process.env.CIRRUS_API_KEY;
const host = typeof Deno !== "undefined" ? `Deno ${Deno.version.deno}` : typeof Bun !== "undefined" ? `Bun ${Bun.version}` : `Node ${process.versions.node}`;
const raw = async (path) => (await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } })).json();
const fail = (m) => { console.error(`${host}: ${m}`); process.exit(1); };

// A .wasm that cannot be loaded is a CirrusError naming the host and the line to write; a
// failed init() can be retried.
const refused = await catalog.init(new Uint8Array([0, 97, 115, 109])).then(() => null, (e) => e);
const hostName = host.split(" ")[0].replace("Node", "Node.js");
if (!(refused instanceof catalog.CirrusError) || refused.code !== "invalid_state" || !refused.message.includes(` in ${hostName} (`)
  || !refused.message.includes('import.meta.resolve("cirrus-storefront/client/cirrus_storefront_bg.wasm")')) fail(`bad bytes: ${refused}`);
const wrongType = await full.init(42).then(() => null, (e) => e);
if (!(wrongType instanceof full.CirrusError) || wrongType.code !== "invalid_argument") fail(`init(42): ${wrongType}`);

const want = await raw("/products?limit=5");
for (const [name, lib] of [["cirrus-storefront", full], ["cirrus-storefront/client", catalog]]) {
  await lib.init();
  const client = new lib.CirrusClient({ baseUrl, apiKey });
  const { products } = await client.products({ limit: 5 });
  const got = products.map((p) => p.name).join(" | "), expected = want.products.map((p) => p.name).join(" | ");
  if (got !== expected) fail(`${name}: products ${got} != ${expected}`);
  const store = await client.store();
  if (store.name !== (await raw("/store")).store.name) fail(`${name}: store name ${store.name}`);
}
const product = want.products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
const variant = product.variants.find((v) => v.stockQuantity > 0);
const cart = new full.Cart("USD");
cart.add(product, variant.id, 2);
const [units, cents] = variant.price.split(".");
if (cart.totals.subtotal !== 2 * (Number(units) * 100 + Number(cents))) fail(`cart subtotal ${cart.totals.subtotal} for 2 x ${variant.price}`);
const stored = full.Cart.persistent("USD", { key: "server-script-cart" });
stored.add(product, variant.id, 1);
const kept = stored.problem ? stored.problem.kind : "stored";
console.log(`${host}: a .wasm that cannot load is a CirrusError naming ${hostName}; both entries match the dev server (${want.products.length} products, store ${JSON.stringify((await raw("/store")).store.name)}); cart ${full.formatMoney(cart.totals.subtotal, "USD", "en-US")}; Cart.persistent: ${kept}`);
