// The consumer app that stage 40-pkg builds with Vite (vite-app/) and with webpack 5
// (webpack-app/) from the packed tarball, copied into each as src/main.js, and runs in
// headless Chromium (tests/package/browser-run.mjs). `init()` gets no argument: the
// bundler itself must emit the `.wasm` files (the root entry's and the checkout module's,
// loaded on the first Checkout.resume) and rewrite the glues'
// `new URL("cirrus_storefront_bg.wasm", import.meta.url)` to where it put them.
// Reports `window.__result = { ok, passed, note } | { ok: false, error }`.
import { init, CirrusClient, CirrusError, Cart, Checkout, formatMoney } from "cirrus-storefront";

async function run({ baseUrl, apiKey }) {
  const passed = [];
  const check = (name, ok, detail = "") => {
    if (!ok) throw new Error(`FAILED: ${name} ${detail}`);
    passed.push(name);
  };

  await init();
  const wasmRequests = () => performance.getEntriesByType("resource").map((e) => new URL(e.name)).filter((u) => u.pathname.endsWith(".wasm"));
  const wasm = wasmRequests();
  check("init() found the bundled .wasm on the page's origin", wasm.length === 1 && wasm[0].origin === location.origin, wasm.join(", "));

  const client = new CirrusClient({ baseUrl, apiKey });
  const { products } = await client.products({ limit: 3 });
  check("catalog: products({ limit: 3 })", products.length === 3 && products.every((p) => typeof p.slug === "string"));

  const product = products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
  check("a product with a variant in stock", product !== undefined);
  const variant = product.variants.find((v) => v.stockQuantity > 0);
  const qty = Math.min(2, variant.stockQuantity);
  const cart = new Cart("USD");
  cart.add(product, variant.id, qty);
  const { subtotal, itemCount, lineCount } = cart.totals;
  const [units, cents = ""] = variant.price.split(".");
  const expected = qty * (Number(units) * 100 + Number(cents.padEnd(2, "0")));
  check("cart: totals in minor units", subtotal === expected && itemCount === qty && lineCount === 1, JSON.stringify(cart.totals));
  const shown = formatMoney(subtotal, "USD", "en-US");
  check("formatMoney", shown === new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(expected / 100), shown);

  // The checkout is a wasm module of its own (pkg/checkout/), fetched on the first
  // Checkout.start/resume: the bundler must emit it too (the checkout glue's own
  // `new URL("cirrus_storefront_bg.wasm", import.meta.url)`), and a page that only used the
  // client and the cart has not requested it.
  check("client + cart: the checkout's wasm not requested", wasmRequests().length === 1, wasmRequests().join(", "));
  Checkout.clearStored();
  check("Checkout.clearStored() (synchronous) loads nothing", wasmRequests().length === 1, wasmRequests().join(", "));
  const adapter = { mount: async () => {}, updateAmount: async () => {}, collectToken: async () => "tok", handleNextAction: async () => {} };
  const resumed = await Checkout.resume(client, { adapter, storage: null });
  const after = wasmRequests();
  check("Checkout.resume() fetched the checkout's wasm from the page's origin", resumed === null && after.length === 2
    && after[1].origin === location.origin && after[1].pathname !== wasm[0].pathname, after.join(", "));
  let bad;
  try { await Checkout.start(client, { items: [], currency: "USD" }); } catch (e) { bad = e; }
  check("the checkout module's errors are CirrusErrors", bad instanceof CirrusError && bad.code === "invalid_argument", String(bad));
  check("the checkout's wasm is fetched once", wasmRequests().length === 2, wasmRequests().join(", "));

  let err;
  try { await client.productBySlug("no-such-product"); } catch (e) { err = e; }
  check("error code: CirrusError not_found", err instanceof CirrusError && err.code === "not_found" && err.status === 404, String(err));
  return { passed, note: `.wasm from ${wasm[0].pathname}, the checkout's from ${wasmRequests()[1].pathname}` };
}

const params = new URLSearchParams(location.search);
run({ baseUrl: params.get("base"), apiKey: params.get("key") }).then(
  ({ passed, note }) => { window.__result = { ok: true, passed, note }; document.title = "ok"; },
  (e) => { window.__result = { ok: false, error: String((e && e.stack) || e) }; document.title = "failed"; },
);
