// Requests a Worker started by `wrangler dev` (tests/runtimes/worker) and checks its answers
// against the dev server's own (a plain fetch of the same endpoints).
// Usage: node tests/runtimes/check-worker.mjs WORKER_URL   (CIRRUS_BASE_URL, CIRRUS_API_KEY set)
const [worker] = process.argv.slice(2);
const baseUrl = process.env.CIRRUS_BASE_URL, apiKey = process.env.CIRRUS_API_KEY;
const raw = async (path) => (await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } })).json();
const usd = (price) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(price));

const { products } = await raw("/products?limit=5");
const { store } = await raw("/store");
const product = products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
const variant = product.variants.find((v) => v.stockQuantity > 0);
let failed = 0;
// First (before any init): the error of bytes Workers refuse to compile.
const refused = await (await fetch(`${worker}/bytes`)).json();
const line = 'import m from "cirrus-storefront/client/cirrus_storefront_bg.wasm"; await init(m)';
const named = refused.name === "CirrusError" && refused.code === "invalid_state" && refused.message.includes("in Cloudflare Workers (") && refused.message.includes(line);
if (!named) failed++;
console.log(`  ${named ? "ok  " : "FAIL"} Cloudflare Workers (wrangler dev, workerd): init(bytes) rejects with a CirrusError naming the host and the line to write: ${JSON.stringify(refused).slice(0, 400)}`);
for (const [path, entry] of [["/", "cirrus-storefront"], ["/client", "cirrus-storefront/client"]]) {
  const r = await fetch(`${worker}${path}`);
  const a = await r.json().catch(() => ({ error: `HTTP ${r.status}, not JSON` }));
  const problems = [];
  if (a.error) problems.push(a.error);
  else {
    if (a.products.join(" | ") !== products.map((p) => p.name).join(" | ")) problems.push(`products ${a.products.join(" | ")}`);
    if (path === "/client" && a.store !== store.name) problems.push(`store ${a.store}`);
    if (path === "/" && a.cart !== `${variant.id}: ${usd(variant.price)}`) problems.push(`cart ${a.cart}`);
    if (path === "/" && a.persistent !== "storage_unavailable") problems.push(`Cart.persistent: ${a.persistent}`);
  }
  if (problems.length) failed++;
  console.log(`  ${problems.length ? "FAIL" : "ok  "} Cloudflare Workers (wrangler dev, workerd): ${entry}: ${problems.length ? problems.join("; ").slice(0, 600) : `${a.products.length} products${a.cart ? `, cart ${a.cart}, Cart.persistent: ${a.persistent}` : `, store "${a.store}"`}`}`);
}
process.exit(failed ? 1 : 0);
