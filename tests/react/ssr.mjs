// Server rendering of tests/react/app.mjs (stage 45-react): the store settings and a product
// with two options from the dev server, `renderToString` of the app, written as the page the
// browser hydrates (dist/index.html, the props inlined as JSON). The server's HTML must show
// the cart as not ready (it lives in the browser's localStorage), the store's name, and the
// product's picker computed here (options, the default variant, an enabled "Add to cart").
// Usage: node ssr.mjs DIST   (CIRRUS_BASE_URL, CIRRUS_API_KEY from the environment)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { CirrusClient, defaultSelection, init, productOptions, variantSelection } from "cirrus-storefront";
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
// The picker computed here, with the same SDK, as a server component does: the page's HTML has
// the options, the selected variant and an enabled "Add to cart".
const options = productOptions(product, defaultSelection(product));
// fixes.mjs: a second product for which the first one's selection is not valid (an option or a value it lacks).
const aSelection = variantSelection(product, options.selectedVariant.id);
const other = products.find((p) => p.id !== product.id && p.variants.some(inStock) && (() => {
  try { productOptions(p, aSelection); return false; } catch { return true; }
})());
if (!other) throw new Error("no second product that the first one's selection does not fit");
const fixes = { a: product, aSelection, b: other, bSelection: defaultSelection(other) };
const props = { baseUrl, apiKey, store, product, options, fixes };
const html = renderToString(h(App, props));
const readme = renderToString(h(Shop, props));
const fail = (m, page = html) => { console.error(`ssr: ${m}\n${page}`); process.exit(1); };
const variant = options.selectedVariant;
if (!readme.startsWith('<span class="badge">Cart</span><form><fieldset>')) fail("the README example's badge or picker is not in the server's HTML", readme);
if (!readme.includes(`aria-pressed="true">${variant.attributes[product.options[0].name]}</button>`)) fail("the README example's server HTML does not show the selected value", readme);
if (!readme.endsWith(`<button>Add to cart</button></form>`)) fail("the README example's Add to cart is not enabled in the server's HTML", readme);
if (!html.includes("cart: not ready")) fail("the server's HTML does not show the cart as not ready");
if (!html.includes(`>${store.name.replace(/&/g, "&amp;")}<`)) fail("the server's HTML does not show the store's name");
if (!html.includes(`selected ${variant.id}`)) fail("the server's HTML does not show the default variant selected");
if (!html.includes(`data-available="true"`)) fail("the server's HTML has no available option value");
writeFileSync(join(dist, "index.html"), `<!doctype html><meta charset="utf-8"><title>react</title><link rel="icon" href="data:,">
<div id="root">${html}</div>
<div id="readme">${readme}</div>
<div id="fixes"></div>
<div id="own-clients"></div>
<script>window.__PROPS__ = ${JSON.stringify(props).replace(/</g, "\\u003c")};</script>
<script type="module" src="app.js"></script>
`);
console.log(`ssr: ${html.length} characters of HTML, product ${product.slug}`);
