// Server rendering of tests/react/app.mjs (stage 45-react): the store settings and a product
// with two options from the dev server, `renderToString` of the app, written as the page the
// browser hydrates (dist/index.html, the props inlined as JSON). The server's HTML must show
// the cart as not ready (it lives in the browser's localStorage) and the store's name.
// Usage: node ssr.mjs DIST   (CIRRUS_BASE_URL, CIRRUS_API_KEY from the environment)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { CirrusClient, init } from "cirrus-storefront";
import { App } from "./app.mjs";
import { Shop } from "./readme-example.mjs"; // the README's example, its JSX compiled by esbuild

const [dist] = process.argv.slice(2);
const baseUrl = process.env.CIRRUS_BASE_URL, apiKey = process.env.CIRRUS_API_KEY;
await init();
const client = new CirrusClient({ baseUrl, apiKey });
const store = await client.store();
const { products } = await client.products({ limit: 100 });
// Two options, and every variant in stock has 3 or more (the tabs add the same variant twice).
const inStock = (v) => v.stockStatus === "IN_STOCK" && v.stockQuantity > 0;
const product = products.find((p) => p.options.length === 2 && p.variants.some(inStock) && p.variants.every((v) => !inStock(v) || v.stockQuantity >= 3));
if (!product) throw new Error("no product with two options whose variants in stock have 3 or more");
const props = { baseUrl, apiKey, store, product };
const html = renderToString(h(App, props));
const readme = renderToString(h(Shop, props));
if (readme !== '<span class="badge">Cart</span><form><button disabled="">Add to cart</button></form>') {
  console.error(`ssr: the README example rendered ${readme}`);
  process.exit(1);
}
const fail = (m) => { console.error(`ssr: ${m}\n${html}`); process.exit(1); };
if (!html.includes("cart: not ready")) fail("the server's HTML does not show the cart as not ready");
if (!html.includes(`>${store.name.replace(/&/g, "&amp;")}<`)) fail("the server's HTML does not show the store's name");
if (!html.includes("no variant selected")) fail("the server's HTML selected a variant");
writeFileSync(join(dist, "index.html"), `<!doctype html><meta charset="utf-8"><title>react</title><link rel="icon" href="data:,">
<div id="root">${html}</div>
<div id="readme">${readme}</div>
<script>window.__PROPS__ = ${JSON.stringify(props).replace(/</g, "\\u003c")};</script>
<script type="module" src="app.js"></script>
`);
console.log(`ssr: ${html.length} characters of HTML, product ${product.slug}`);
