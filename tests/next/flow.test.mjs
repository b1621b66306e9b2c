// The Next.js template (templates/next/, issue 32), production build (`next build` +
// `next start`), driven in headless Chromium as a buyer drives it: browse, pick options, add,
// the cart in two tabs, checkout, a second order with a reload mid-checkout and 3-D Secure.
// Every page of every test must log no hydration warning and no console error. At the end the
// charges are counted in localstripe and the orders in /__test/orders (stage 75-next starts a
// fresh localstripe and dev server, so every PaymentIntent and order is this run's).
// Run by scripts/test.d/75-next.sh: NEXT_SITE is the storefront, E2E_SITE the dev server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { allPaymentIntents, api, launch, pickProduct, shot, testHook } from '../e2e/harness.mjs';
import { fillAddress, fillCard } from '../e2e/shop.mjs';

const SITE = process.env.NEXT_SITE?.replace(/\/?$/, '/');
if (!SITE) throw new Error('NEXT_SITE is not set (run through scripts/test.d/75-next.sh)');
const url = (path) => new URL(path.replace(/^\//, ''), SITE).href;
const CHECKOUT_KEY = 'cirrus-storefront.cart:checkout'; // the cart's key + ":checkout" (README)
const THANKS = 'Thank you for your order';

let browser;
let context;
const problems = []; // console errors and warnings, page errors, of every page
const requests = []; // every URL every page requested
before(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  context.on('page', watch);
});
after(async () => browser?.close());

function watch(page) {
  page.setDefaultTimeout(20_000);
  page.on('console', (m) => {
    // (a "Failed to load resource" message names its URL only in its location)
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()} on ${page.url()}: ${m.text()} [${m.location()?.url ?? ''}]`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror on ${page.url()}: ${e.message}`));
  page.on('request', (r) => requests.push({ page, url: r.url() }));
  // Chromium's "Failed to load resource" names no URL: this names it, with what asked for it.
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} on ${page.url()}: ${r.request().resourceType()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => {
    if (!/ERR_ABORTED/.test(r.failure()?.errorText ?? '')) problems.push(`request failed on ${page.url()}: ${r.resourceType()} ${r.url()} (${r.failure()?.errorText})`);
  });
}

const badge = (page) => page.locator('header .cart-link');
async function badgeSays(page, count) {
  await page.waitForFunction((n) => document.querySelector('header .cart-link')?.getAttribute('data-cart-count') === n, String(count ?? ''));
}
const wasmRequested = (page) => requests.filter((r) => r.page === page && /\.wasm(\?|$)/.test(r.url)).map((r) => r.url);

/** The server's HTML of a path (no JavaScript run). */
async function serverHtml(path) {
  const res = await fetch(url(path));
  assert.equal(res.status, 200, `GET ${path}`);
  return res.text();
}

/** On a product page: choose the variant's value of every option. */
async function choose(page, product, variant) {
  for (const o of [...product.options].sort((a, b) => a.position - b.position)) {
    const radio = page.getByRole('group', { name: o.name }).getByRole('radio', { name: variant.attributes[o.name], exact: true });
    await radio.check();
    await page.waitForFunction(([n, v]) => document.querySelector(`input[type=radio][name="${CSS.escape(n)}"][value="${CSS.escape(v)}"]`)?.checked, [o.name, variant.attributes[o.name]]);
  }
}

/** The order the page thanks for (its PaymentIntent id). */
async function thanks(page) {
  await page.getByRole('heading', { name: THANKS }).waitFor({ timeout: 30_000 });
  return (await page.locator('[data-order]').textContent()).trim();
}

const sessions = new Set(); // every checkout session the tabs opened
async function noteSession(page) {
  const id = await page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null')?.session?.sessionId ?? null, CHECKOUT_KEY);
  if (id) sessions.add(id);
}

let first, second; // { product, variant }
const paid = [];

test('browse: home, collections, a collection, a product, all in the server HTML', async () => {
  first = await pickProduct({ minStock: 5 });
  second = await pickProduct({ minStock: 5, skip: 1 });
  const home = await serverHtml('/');
  assert.match(home, /<h2[^>]*>New in<\/h2>/);
  assert.match(home, /href="\/products\//, 'the home page lists products in its HTML');
  assert.match(home, /application\/ld\+json/, 'JSON-LD in the head');
  assert.doesNotMatch(home, /\.wasm/, 'the home page names no .wasm (no preload)');
  // Chromium asks for /favicon.ico when a client-side navigation swaps the icon links (a 404 logged under load, once in CI).
  const favicon = await fetch(url('/favicon.ico'));
  assert.equal(favicon.status, 200, 'GET /favicon.ico (the rewrite to app/icon.svg)');
  assert.match(favicon.headers.get('content-type') ?? '', /^image\//);
  const page = await context.newPage();
  await page.goto(url('/'));
  await badgeSays(page, null);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
  await page.getByRole('heading', { level: 1, name: 'Collections' }).waitFor();
  const link = page.locator('main ul.collections > li > a').first();
  const name = (await link.textContent()).trim();
  await link.click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(wasmRequested(page), [], 'home, collections and a collection request no .wasm');
  await page.locator('main .grid .card a').first().click();
  await page.waitForURL(/\/products\//);
  await page.locator('main form button', { hasText: 'Add to cart' }).waitFor();
  await page.close();
});

/** Every active product of the API (its pages, 100 at a time). */
async function allProducts() {
  const out = [];
  for (let offset = 0; ; offset += 100) {
    const { products, pagination } = await api(`/products?limit=100&offset=${offset}&includePagination=true`);
    out.push(...products);
    if (!pagination?.hasMore) return out;
  }
}
const hoodies = async () => (await allProducts()).filter((p) => /\bhoodies?\b/i.test(p.name)).map((p) => p.id).sort();
/** The facet links of a search page's HTML or DOM: `Name=value` → its count. */
const facetCounts = (html) => new Map([...html.matchAll(/data-facet="([^"]+)" data-count="(\d+)"/g)].map((m) => [m[1].replaceAll('&amp;', '&'), Number(m[2])]));

test('search: the server HTML of /search?q=hoodie has the hoodies and the facet counts', async () => {
  const want = await hoodies();
  assert.ok(want.length >= 2, `the seed has hoodies (${want.length})`);
  const html = await serverHtml('/search?q=hoodie');
  const hits = [...html.matchAll(/data-hit="([^"]+)"/g)].map((m) => m[1]).sort();
  const total = Number(/data-total="(\d+)"/.exec(html)?.[1]);
  assert.ok(total >= want.length, `${total} results, at least the ${want.length} hoodies`);
  if (want.length <= 20) for (const id of want) assert.ok(hits.includes(id), `hoodie ${id} among the hits`);
  else assert.equal(hits.length, 20, 'a full first page');
  assert.match(html, /<mark>Hoodie<\/mark>/, 'the matched word of a name is marked');
  const counts = facetCounts(html);
  const colors = [...counts].filter(([k]) => k.startsWith('Color='));
  assert.ok(colors.length > 0, 'Color values with their counts in the HTML');
  for (const [k, n] of colors) {
    assert.ok(n >= 1 && n <= total, `${k}: ${n} of ${total}`);
    const link = html.slice(html.indexOf(`data-facet="${k}"`)).split('</a>')[0];
    assert.ok(link.includes(`(<!-- -->${n}<!-- -->)`) || link.includes(`(${n})`), `${k}'s count ${n} is shown beside it: ${link}`);
  }
  // A value's count is the total its filter gives (the other filters applied: none here).
  const [value, n] = colors[0];
  const filtered = await serverHtml(`/search?q=hoodie&o.Color=${encodeURIComponent(value.slice('Color='.length))}`);
  assert.equal(Number(/data-total="(\d+)"/.exec(filtered)?.[1]), n, `the count of ${value} is what choosing it gives`);
});

test('predictive search: no .wasm until the field is focused; "hodoie" finds the hoodies', async () => {
  const want = new Set(await hoodies());
  const page = await context.newPage();
  await page.goto(url('/'));
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  assert.deepEqual(wasmRequested(page), [], 'a catalog page with the search field requests no .wasm');
  assert.ok(!requests.some((r) => r.page === page && r.url.includes('/search-index/')), 'nor the index');
  const field = page.getByRole('search').getByRole('searchbox', { name: 'Search products' });
  await field.focus();
  await page.waitForFunction(() => document.querySelector('.predictive')?.dataset.status === 'ready');
  assert.equal(wasmRequested(page).length, 1, 'focusing the field loads the search .wasm, once');
  const index = requests.filter((r) => r.page === page && r.url.includes('/search-index/'));
  assert.equal(index.length, 1, 'and the index, once');
  const res = await fetch(index[0].url);
  assert.match(res.headers.get('cache-control') ?? '', /immutable/, 'the index is served immutable at its hashed URL');
  await field.pressSequentially('hodoie');
  const products = page.locator('.predictive [data-product]');
  await products.first().waitFor();
  const found = await products.evaluateAll((as) => as.map((a) => a.dataset.product));
  assert.ok(found.length > 0 && found.every((id) => want.has(id)), `"hodoie" suggests hoodies: ${found.join(', ')}`);
  await products.first().click();
  await page.waitForURL(/\/products\//);
  await page.locator('main form button', { hasText: 'Add to cart' }).waitFor();
  await page.close();
});

test('search filters and sort live in the URL; the back button restores them', async () => {
  const page = await context.newPage();
  await page.goto(url('/search?q=hoodie'));
  const total = async () => Number(await page.locator('[data-total]').getAttribute('data-total'));
  const color = page.locator('[data-facet^="Color="]').first();
  const colorFacet = await color.getAttribute('data-facet');
  const colorCount = Number(await color.getAttribute('data-count'));
  await color.click();
  await page.waitForURL((u) => u.searchParams.has('o.Color'));
  await page.locator(`[data-facet="${colorFacet}"][aria-current="true"]`).waitFor();
  assert.equal(await total(), colorCount, 'the chosen value gives the count shown beside it');
  const size = page.locator('[data-facet^="Size="]').first();
  const sizeFacet = await size.getAttribute('data-facet');
  const sizeCount = Number(await size.getAttribute('data-count'));
  await size.click();
  await page.waitForURL((u) => u.searchParams.has('o.Size'));
  await page.locator(`[data-facet="${sizeFacet}"][aria-current="true"]`).waitFor();
  assert.equal(await total(), sizeCount, 'with the color chosen, the size count is the total both give');
  await page.getByRole('navigation', { name: 'Sort' }).getByRole('link', { name: 'Price: low to high' }).click();
  await page.waitForURL((u) => u.searchParams.get('sort') === 'price-asc');
  const shared = page.url();

  await page.goBack();
  await page.waitForURL((u) => !u.searchParams.has('sort') && u.searchParams.has('o.Size'));
  await page.goBack();
  await page.waitForURL((u) => u.searchParams.has('o.Color') && !u.searchParams.has('o.Size'));
  await page.locator(`[data-facet="${colorFacet}"][aria-current="true"]`).waitFor();
  assert.equal(await page.locator(`[data-facet="${sizeFacet}"][aria-current="true"]`).count(), 0, 'the size is no longer chosen');
  assert.equal(await total(), colorCount, 'back: the color filter alone again');
  await page.goForward();
  await page.waitForURL((u) => u.searchParams.has('o.Size'));
  await page.locator(`[data-facet="${sizeFacet}"][aria-current="true"]`).waitFor();

  // The URL is shareable: opened afresh, the same filters and sort are in the server's HTML.
  const html = await serverHtml(new URL(shared).pathname + new URL(shared).search);
  for (const f of [colorFacet, sizeFacet]) assert.match(html, new RegExp(`data-facet="${f}" data-count="\\d+" aria-current="true"`), `${f} chosen in the shared URL's HTML`);
  await page.close();
});

test('a collection page with the same filters: facet counts within the collection, a filter in its URL', async () => {
  const { collections } = await api('/collections');
  const c = collections.find((x) => x.products.length >= 3);
  assert.ok(c, 'the seed has a collection with products');
  const path = `/collections/${encodeURIComponent(c.slug)}`;
  const html = await serverHtml(path);
  assert.equal(Number(/data-total="(\d+)"/.exec(html)?.[1]), c.products.length, 'the total is the collection\'s products');
  const counts = [...facetCounts(html)].filter(([k]) => !k.startsWith('price='));
  assert.ok(counts.length > 0, 'facet values with their counts');
  assert.ok(!counts.some(([k]) => k.startsWith('collection=')), 'no collection facet on a collection page');
  const [facet, n] = counts[0];
  const [name, value] = [facet.slice(0, facet.indexOf('=')), facet.slice(facet.indexOf('=') + 1)];
  const filtered = await serverHtml(`${path}?o.${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  assert.equal(Number(/data-total="(\d+)"/.exec(filtered)?.[1]), n, `${facet}: the count shown is what the filter gives`);
  const hits = [...filtered.matchAll(/data-hit="([^"]+)"/g)].map((m) => m[1]);
  const ids = new Set(c.products.map((p) => p.id));
  assert.ok(hits.length > 0 && hits.every((id) => ids.has(id)), 'every hit is in the collection');
  assert.match(filtered, new RegExp(`data-facet="${facet}" data-count="\\d+" aria-current="true"`), 'the filter is shown chosen');
});

test('product page: options, price and an enabled "Add to cart" in the server HTML', async () => {
  const html = await serverHtml(`/products/${encodeURIComponent(first.product.slug)}`);
  for (const o of first.product.options) assert.ok(html.includes(`<legend>${o.name}</legend>`), `the option ${o.name} is in the HTML`);
  assert.match(html, /<p class="price" data-price="true">\$[\d,]+\.\d\d/, 'a price in the HTML');
  const button = /<button[^>]*>Add to cart<\/button>/.exec(html);
  assert.ok(button, '"Add to cart" is in the HTML');
  assert.doesNotMatch(button[0], /disabled/, '"Add to cart" is enabled in the HTML');
  assert.match(html, /"@type":"Product"/, 'the Product JSON-LD');
  assert.match(html, /<link rel="canonical" href="[^"]+\/products\//, 'a canonical URL');
  // PreloadSdk (in the island): the SDK's .wasm, at the URL the bundler gave it, preloaded with the
  // page, and an inline script that compiles that response as it downloads.
  const preload = /<link rel="preload" href="([^"]+\.wasm)" as="fetch" crossorigin=""\/>/.exec(html);
  assert.ok(preload, 'a preload of the SDK .wasm in the HTML');
  assert.ok(html.includes(`W.compileStreaming(fetch(${JSON.stringify(preload[1])}))`), 'the inline script compiles the preloaded .wasm');
  const wasm = await fetch(new URL(preload[1], SITE));
  assert.equal(wasm.status, 200, `the preloaded ${preload[1]} is served`);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  // The template's build (compile-hints.mjs): every chunk the page loads is compiled while it downloads.
  const chunks = [...html.matchAll(/<script src="(\/_next\/static\/chunks\/[^"]+\.js)"/g)].map((m) => m[1]);
  assert.ok(chunks.length > 0, 'the page loads chunks');
  for (const chunk of chunks) assert.ok((await (await fetch(url(chunk))).text()).startsWith('//# allFunctionsCalledOnLoad\n'), `${chunk} starts with the compile hint`);
});

test('pick options, add; the cart in two tabs; the badge follows without the wasm', async () => {
  const { product, variant } = first;
  const a = await context.newPage();
  await a.goto(url(`/products/${encodeURIComponent(product.slug)}`));
  await choose(a, product, variant);
  await a.getByLabel('Quantity').fill('2');
  await a.getByRole('button', { name: 'Add to cart' }).click();
  await badgeSays(a, 2);
  assert.equal(wasmRequested(a).length, 1, 'the .wasm requested once: the preload, compiled by the inline script, is what init() got');
  await a.getByRole('status').filter({ hasText: `Added 2 × ${product.name}` }).waitFor();

  // A second tab: the cart page shows the line; a change there reaches the first tab's badge.
  const b = await context.newPage();
  await b.goto(url('/cart'));
  await badgeSays(b, 2);
  const qty = b.getByLabel(`Quantity of ${product.name}`);
  assert.equal(await qty.inputValue(), '2');
  await qty.fill('3');
  await badgeSays(b, 3);
  await badgeSays(a, 3);

  // A catalog page with the stored count: no .wasm requested, even once the page is idle.
  const c = await context.newPage();
  await c.goto(url('/'));
  await badgeSays(c, 3);
  await c.waitForLoadState('networkidle');
  await c.waitForTimeout(1500);
  assert.deepEqual(wasmRequested(c), [], 'the home page shows the count with no .wasm');
  assert.equal((await badge(c).textContent()).trim(), 'Cart (3)');
  await Promise.all([a.close(), b.close(), c.close()]);
});

test('checkout: the first order (a triple click on Pay is one payment)', async () => {
  const page = await context.newPage();
  await page.goto(url('/checkout'));
  await fillAddress(page);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.locator('#payment-element input').first().waitFor();
  await noteSession(page);
  await fillCard(page, '4242424242424242');
  const pay = page.locator('#pay');
  await pay.click({ clickCount: 3 });
  paid.push(await thanks(page));
  await badgeSays(page, null);
  await shot(page, 'next-order-1280');
  await page.close();
});

test('a second order: a reload mid-checkout, then 3-D Secure with a reload during the challenge', async () => {
  const { product, variant } = second;
  const page = await context.newPage();
  await page.goto(url(`/products/${encodeURIComponent(product.slug)}`));
  await choose(page, product, variant);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await badgeSays(page, 1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Cart/ }).click();
  await page.getByRole('link', { name: 'Check out' }).click();
  await fillAddress(page);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.locator('#payment-element input').first().waitFor();
  await noteSession(page);
  const total = await page.locator('[data-total]').textContent();

  await page.reload(); // the same checkout comes back, shipping chosen
  await page.locator('#payment-element input').first().waitFor();
  assert.equal(await page.locator('[data-total]').textContent(), total, 'the same checkout after the reload');
  await noteSession(page);
  await fillCard(page, '4000002760003184');
  await page.locator('#pay').click();
  await page.getByRole('button', { name: 'Complete authentication' }).waitFor({ timeout: 30_000 });

  await page.reload(); // mid-challenge: the payment waits for the bank, never a second one
  await page.getByRole('button', { name: 'Confirm with your bank' }).click();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  paid.push(await thanks(page));
  await badgeSays(page, null);
  await page.close();
});

test('one charge per order: PaymentIntents in localstripe, orders in /__test/orders', async () => {
  const pis = await allPaymentIntents();
  const { orders } = await testHook('/__test/orders');
  const charged = pis.filter((p) => p.status === 'succeeded' || p.status === 'requires_capture');
  console.log(`figures: sessions ${sessions.size}, PaymentIntents ${pis.length}, charged ${charged.length}, orders ${orders.length}`);
  assert.equal(sessions.size, 2, 'one checkout session per order (the reloads resumed it)');
  assert.equal(charged.length, 2, 'two charges for two orders');
  assert.equal(orders.length, 2, 'two orders');
  assert.deepEqual(new Set(orders.map((o) => o.paymentIntentId)), new Set(paid), 'the orders are the ones the pages thanked for');
  assert.deepEqual(new Set(charged.map((p) => p.id)), new Set(paid), 'the charges are those orders');
});

test('no hydration warning, no console error on any page', () => {
  const hydration = problems.filter((p) => /hydrat|did not match|Minified React error #4(18|19|22|23|25)/i.test(p));
  assert.deepEqual(hydration, [], 'hydration warnings');
  assert.deepEqual(problems, [], 'console errors and warnings');
});
