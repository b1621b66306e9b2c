// The consumer app that stage 40-pkg builds with Vite (vite-app/) and with webpack 5
// (webpack-app/) from the packed tarball, copied into each as src/main.js, and runs in
// headless Chromium (tests/package/browser-run.mjs). `init()` gets no argument: the
// bundler itself must emit the `.wasm` and rewrite the glue's
// `new URL("cirrus_storefront_bg.wasm", import.meta.url)` to where it put it.
// Reports `window.__result = { ok, passed, note } | { ok: false, error }`.
import { init, CirrusClient, CirrusError, Cart, formatMoney } from "cirrus-storefront";

async function run({ baseUrl, apiKey }) {
  const passed = [];
  const check = (name, ok, detail = "") => {
    if (!ok) throw new Error(`FAILED: ${name} ${detail}`);
    passed.push(name);
  };

  await init();
  const wasm = performance.getEntriesByType("resource").map((e) => new URL(e.name)).filter((u) => u.pathname.endsWith(".wasm"));
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

  let err;
  try { await client.productBySlug("no-such-product"); } catch (e) { err = e; }
  check("error code: CirrusError not_found", err instanceof CirrusError && err.code === "not_found" && err.status === 404, String(err));
  return { passed, note: `.wasm from ${wasm[0].pathname}` };
}

const params = new URLSearchParams(location.search);
run({ baseUrl: params.get("base"), apiKey: params.get("key") }).then(
  ({ passed, note }) => { window.__result = { ok: true, passed, note }; document.title = "ok"; },
  (e) => { window.__result = { ok: false, error: String((e && e.stack) || e) }; document.title = "failed"; },
);
