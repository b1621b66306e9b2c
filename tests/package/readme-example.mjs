// The README's usage example, run as-is by scripts/test.d/40-pkg.sh against a dev server
// (CIRRUS_BASE_URL and CIRRUS_API_KEY come from the environment).
import { init, CirrusClient, CirrusError, Cart, formatMoney, preferredLocale } from "cirrus-storefront";

await init(); // once, before anything else (idempotent)

const client = new CirrusClient({
  baseUrl: process.env.CIRRUS_BASE_URL, // e.g. "https://shop.example/api/v1"
  apiKey: process.env.CIRRUS_API_KEY, // "ak_" + 48 hex characters
  cacheTtlMs: 30_000, // optional: cache GETs for 30 s
});

// A page of minimal products, with pagination.
const { products, pagination } = await client.products({ limit: 12, minimal: true, includePagination: true });
console.log(`${products.length} of ${pagination.total} products; first: ${products[0].name} at ${products[0].price}`);

// One product, its variants and prices (decimal strings, exact).
const product = await client.productBySlug(products[0].slug);
console.log(product.variants.map((v) => `${v.id}: ${v.price}`).join(", "));

// Exact cart pricing in integer minor units (cents), no floating point.
const cart = new Cart("USD");
const variant = product.variants.find((v) => v.stockQuantity > 0);
if (!variant) throw new Error(`${product.name} is sold out`);
cart.add(product, variant.id, 1);
const { subtotal, itemCount } = cart.totals;
// Shown in the first of the browser's languages that Intl supports, else "en-US" (a browser
// under a C locale says navigator.language === "C", which Intl refuses).
const locale = preferredLocale();
console.log(`${itemCount} item(s), subtotal ${formatMoney(subtotal, "USD", locale)}`);

// The rates the whole order can use, cheapest first, with the estimated total.
const [cheapest] = cart.shippingOptions(await client.shippingRates({ variantIds: [variant.id], country: "US" }));
console.log(cheapest ? `cheapest shipping: ${cheapest.rate.name}, total ${formatMoney(cheapest.estimatedTotal, "USD", locale)}` : "no rate ships this order to US");

// Every active product, fetched page by page.
const names = [];
for await (const p of client.allProducts({ pageSize: 100, minimal: true })) names.push(p.name);
console.log(`iterated ${names.length} products`);

// Errors are CirrusError with a stable code.
try {
  await client.productBySlug("no-such-product");
  console.log("found?!");
} catch (e) {
  if (!(e instanceof CirrusError)) throw e;
  console.log(`${e.code} (HTTP ${e.status}, request ${e.requestId})`); // "not_found (HTTP 404, …)"
}

// Abort or time out any call.
const ctl = new AbortController();
const pending = client.store(ctl.signal);
ctl.abort();
await pending.then(() => console.log("store(): answered"), (e) => console.log(`store(): ${e.code}`)); // "aborted"
