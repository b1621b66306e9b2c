// Requests a started Next.js consumer (tests/runtimes/next-app) and checks every answer against
// the dev server's own (a plain fetch of the same endpoints). Every check runs and is reported;
// exit 1 if any failed.
// Usage: node tests/runtimes/check-next.mjs NEXT_URL LABEL [--no-edge]   (CIRRUS_BASE_URL, CIRRUS_API_KEY set)
// --no-edge: the app was built without its edge-runtime routes (stage 45-runtimes, webpack).
import { chromium } from "playwright-core";

const [next, label, noEdge] = process.argv.slice(2);
const baseUrl = process.env.CIRRUS_BASE_URL, apiKey = process.env.CIRRUS_API_KEY;
const raw = async (path) => (await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } })).json();
const text = (s) => s.replace(/<!-- -->/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#x27;/g, "'");
const failures = [];
async function check(name, run) {
  try {
    console.log(`  ok   ${label}: ${name}: ${await run()}`);
  } catch (e) {
    failures.push(name);
    console.log(`  FAIL ${label}: ${name}: ${String(e.message ?? e).split("\n").slice(0, 3).join(" / ").slice(0, 600)}`);
  }
}
const page = async (path) => {
  const r = await fetch(`${next}${path}`);
  const body = await r.text();
  if (r.status !== 200) throw new Error(`GET ${path}: HTTP ${r.status}: ${text(body).match(/"message":"([^"]*)"/)?.[1] ?? body.slice(0, 300)}`);
  return body;
};
const items = (html) => [...html.matchAll(/<li data-slug="([^"]*)">([^<]*)<\/li>/g)].map((m) => [text(m[1]), text(m[2])]);
const inStock = (products) => {
  const product = products.find((p) => p.variants.some((v) => v.stockQuantity > 0));
  return [product, product.variants.find((v) => v.stockQuantity > 0)];
};
const usd = (price) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(price));

const { products } = await raw("/products?limit=5");
const { store } = await raw("/store");
const [, variant] = inStock(products);
const want = products.map((p) => [p.slug, p.name]);

await check("server component, root entry (products, a cart in memory, Cart.persistent in memory)", async () => {
  const html = await page("/");
  const got = items(html);
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`products ${JSON.stringify(got)}, the dev server has ${JSON.stringify(want)}`);
  const cart = text(html.match(/<p id="server-cart">([^<]*)<\/p>/)?.[1] ?? "");
  if (cart !== `${variant.id}: ${usd(variant.price)}`) throw new Error(`cart "${cart}", want "${variant.id}: ${usd(variant.price)}"`);
  const persistent = html.match(/<p id="persistent-cart">([^<]*)<\/p>/)?.[1];
  if (persistent !== "storage_unavailable") throw new Error(`Cart.persistent on the server: ${persistent}`);
  return `${got.length} products, cart ${cart}, Cart.persistent: ${persistent}`;
});

await check("server component, cirrus-storefront/client (store, products, productSeo)", async () => {
  const html = await page("/catalog");
  const name = text(html.match(/<h1 id="store">([^<]*)<\/h1>/)?.[1] ?? "");
  if (name !== store.name) throw new Error(`store "${name}", the dev server's is "${store.name}"`);
  const slugs = items(html).map(([s]) => s);
  if (slugs.join() !== products.map((p) => p.slug).join()) throw new Error(`slugs ${slugs}`);
  return `store "${name}", ${slugs.length} products`;
});

// 24 concurrent requests to one module-level client: 8 products x 3, the third of each aborted
// by its own signal. Each answer must be its own product (or its own abort).
const { products: eight } = await raw("/products?limit=8&minimal=true");
const routes = [["/api/product", "Node.js runtime, root entry"], ["/api/edge-product", "edge runtime, root entry"], ["/api/edge-client", "edge runtime, cirrus-storefront/client"]];
for (const [route, entry] of noEdge === "--no-edge" ? routes.slice(0, 1) : routes) {
  await check(`route handler, ${entry}: one module-level client, 24 concurrent requests`, async () => {
    const asks = Array.from({ length: 24 }, (_, i) => ({ p: eight[i % 8], abort: i >= 16 }));
    const answers = await Promise.all(asks.map(async ({ p, abort }) => {
      const r = await fetch(`${next}${route}?slug=${encodeURIComponent(p.slug)}${abort ? "&abort=1" : ""}`);
      const body = await r.text();
      try { return JSON.parse(body); } catch { throw new Error(`HTTP ${r.status}: ${body.slice(0, 300)}`); }
    }));
    asks.forEach(({ p, abort }, i) => {
      const a = answers[i];
      const ok = abort ? a.slug === p.slug && a.code === "aborted" : a.slug === p.slug && a.name === p.name;
      if (!ok) throw new Error(`request ${i} (${p.slug}${abort ? ", aborted" : ""}) answered ${JSON.stringify(a)}`);
    });
    return "16 answered with their own product, 8 aborted by their own signal";
  });
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const tab = await browser.newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  const shown = async (id) => {
    await tab.waitForFunction((id) => (document.getElementById(id)?.textContent ?? "loading") !== "loading", id, { timeout: 30_000 });
    return tab.textContent(`#${id}`);
  };
  await check("client component in Chromium (init, client, Cart.persistent in localStorage)", async () => {
    await tab.goto(`${next}/cart`);
    const got = await shown("cart");
    const expected = `${variant.id}: ${usd(variant.price)} (saved)`;
    if (got !== expected) throw new Error(`"${got}", want "${expected}"${errors.length ? `; page errors: ${errors.join("; ")}` : ""}`);
    const wasm = await tab.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).map((e) => new URL(e.name).pathname));
    if (wasm.length !== 1) throw new Error(`the page requested ${wasm.length} .wasm files: ${wasm}`);
    return `${got}; the .wasm streamed as a file of its own (${wasm[0]})`;
  });
  await check("client component in Chromium: a call refused by CORS names both origins", async () => {
    const cors = await shown("cors");
    const origin = new URL(next).origin;
    const hint = `(CORS may be the cause: this page's origin is ${origin}, the API's ${origin.replace("127.0.0.1", "localhost")})`;
    if (!cors.startsWith("network: ") || !cors.includes(hint)) throw new Error(`"${cors}"`);
    return cors.slice(0, 160) + "…";
  });
  await check("server action (root entry), called from a form in Chromium", async () => {
    const [p] = products;
    await tab.goto(`${next}/action?slug=${encodeURIComponent(p.slug)}`);
    await tab.waitForLoadState("networkidle");
    await tab.click("#ask");
    await tab.waitForFunction(() => document.getElementById("action")?.textContent !== "idle", null, { timeout: 30_000 });
    const got = await tab.textContent("#action");
    if (got !== `${p.slug}: ${p.name}`) throw new Error(`"${got}", want "${p.slug}: ${p.name}"`);
    return got;
  });
  await check("cirrus-storefront/react in a client component: the server HTML has the not-ready cart, hydration without a warning, then the cart", async () => {
    const html = await (await fetch(`${next}/react`)).text();
    if (!html.includes('<p id="react-cart">loading</p>')) throw new Error("the server HTML does not show the provider's not-ready cart");
    const t = await browser.newPage();
    const logged = [];
    t.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") logged.push(m.text()); });
    t.on("pageerror", (e) => logged.push(String(e)));
    await t.goto(`${next}/react`);
    await t.waitForFunction(() => !["loading", "empty"].includes(document.getElementById("react-cart")?.textContent ?? "loading"), null, { timeout: 30_000 });
    const got = await t.textContent("#react-cart");
    if (got !== `${variant.id} x1`) throw new Error(`"${got}", want "${variant.id} x1"`);
    const hydration = logged.filter((e) => /hydrat|#418|#423|#425/i.test(e));
    if (hydration.length) throw new Error(`hydration: ${hydration.join("; ")}`);
    return got;
  });
} finally {
  await browser.close();
}

if (failures.length) {
  console.log(`${label}: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log(`${label}: every check passed`);
