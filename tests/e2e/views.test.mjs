// Every view of the demo on its own URL: deep links opened directly (and reloaded),
// old #/ links redirected, unknown paths answered 404 with the page's "not found",
// and axe-core (pinned in package.json) on every view at a phone and a desktop width,
// failing on any violation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SITE, api, chooseVariant, launch, pickProduct, usePage, viewUrl } from './harness.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [{ width: 390, height: 844 }, { width: 1280, height: 900 }];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The store's first root collection, the about page and a product with stock, read from the API. */
async function targets() {
  const { collections } = await api('/collections');
  const { pages } = await api('/pages');
  const { product, variant } = await pickProduct({ minStock: 2 });
  const collection = collections.find((c) => c.parent === null && c.products.length > 0);
  assert.ok(collection, 'the seed has a root collection with products');
  return { product, variant, collection, page: pages.find((p) => p.slug === 'about') ?? pages[0] };
}

/**
 * axe-core's violations on the page as it is now (all its rules but the experimental
 * ones), as readable lines. Evaluated through the DevTools protocol, which the page's
 * Content-Security-Policy does not apply to.
 */
async function axeViolations(page) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => (await window.axe.run(document)).violations
    .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`) })));
  return violations.map((v) => `${v.id} (${v.help}): ${v.nodes.slice(0, 3).join(' | ')}`);
}

async function settled(page) {
  await page.locator('main#main:not([aria-busy]) h1').first().waitFor();
}

describe('views on their own URLs', () => {
  test('deep links open the view directly, and a reload stays on it', async () => {
    const t = await targets();
    const cases = [
      ['product', t.product.slug, t.product.name],
      ['collection', t.collection.slug, t.collection.name],
      ['page', t.page.slug, t.page.title],
    ];
    await usePage(browser, {}, async (page) => {
      for (const [kind, slug, heading] of cases) {
        const url = await viewUrl(kind, slug);
        assert.doesNotMatch(url, /#/, 'a real path');
        const res = await page.goto(url);
        assert.equal(res.status(), 200, `${url} answers 200`);
        await settled(page);
        assert.equal((await page.locator('h1').first().textContent()).trim(), heading, `${kind} view at ${url}`);
        await page.reload();
        await settled(page);
        assert.equal((await page.locator('h1').first().textContent()).trim(), heading, `${kind} view after a reload`);
        assert.equal(page.url(), url);
      }
    });
  });

  test("a product page's JSON-LD: a Product whose offers carry price, currency and availability", async () => {
    const { product } = await targets();
    const { store } = await api('/store');
    await usePage(browser, {}, async (page) => {
      const url = await viewUrl('product', product.slug);
      // In the HTML as sent (a crawler runs no script) and in the page once it has run.
      const sent = await (await fetch(url)).text();
      assert.match(sent, /<script type="application\/ld\+json">/, 'the server sends the JSON-LD');
      await page.goto(url);
      await settled(page);
      const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
      assert.equal(blocks.length, 1, 'one JSON-LD block');
      const ld = JSON.parse(blocks[0]);
      assert.equal(ld['@context'], 'https://schema.org');
      assert.equal(ld['@type'], 'Product');
      assert.equal(ld.name, product.name);
      assert.ok(Array.isArray(ld.offers) && ld.offers.length === product.variants.length, 'one offer per variant');
      for (const v of product.variants) {
        const offer = ld.offers.find((o) => o.sku === v.id);
        assert.ok(offer, `an offer for ${v.id}`);
        assert.equal(offer['@type'], 'Offer');
        assert.equal(offer.price, v.price);
        assert.equal(offer.priceCurrency, store.defaultCurrency);
        const inStock = v.stockStatus === 'IN_STOCK' && v.stockQuantity > 0;
        assert.equal(offer.availability, `https://schema.org/${inStock ? 'InStock' : 'OutOfStock'}`);
      }
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
      assert.equal(new URL(canonical).pathname, new URL(url).pathname, 'canonical URL of the product');
      assert.equal(await page.locator('meta[property="og:type"]').getAttribute('content'), 'product');
    });
  });

  test('an old #/ link is replaced by its path', async () => {
    const { product } = await targets();
    await usePage(browser, {}, async (page) => {
      await page.goto(`${SITE}#/products/${encodeURIComponent(product.slug)}`);
      await settled(page);
      assert.equal(page.url(), await viewUrl('product', product.slug));
      assert.equal((await page.locator('h1').textContent()).trim(), product.name);
      // back and forward move between views without reloading the page
      await page.locator('nav.breadcrumb a').first().click();
      await page.locator('#product-grid > li').first().waitFor();
      assert.equal(page.url(), SITE);
      await page.goBack();
      await page.locator('h1', { hasText: product.name }).waitFor();
    });
  });

  test('unknown paths are 404 with the page saying so; the API keeps its JSON 404', async () => {
    await usePage(browser, {}, async (page) => {
      for (const url of [await viewUrl('product', 'no-such-product'), await viewUrl('collection', 'no-such-collection'), new URL('no/such/path', SITE).href]) {
        const res = await page.goto(url);
        assert.equal(res.status(), 404, url);
        await settled(page);
        assert.equal(await page.locator('h1').textContent(), 'Page not found', url);
      }
    });
    const res = await fetch(new URL('api/v1/nope', SITE));
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, 'not_found');
  });
});

describe('search (cirrus-storefront/search)', () => {
  test('the header field opens /search; hoodies found with a typo; facet counts; filters in the URL and back', async () => {
    const hoodies = new Set();
    for (let offset = 0; ; offset += 100) {
      const { products, pagination } = await api(`/products?limit=100&offset=${offset}&includePagination=true`);
      for (const p of products) if (/\bhoodies?\b/i.test(p.name)) hoodies.add(p.id);
      if (!pagination.hasMore) break;
    }
    assert.ok(hoodies.size >= 2, `the seed has hoodies (${hoodies.size})`);
    await usePage(browser, {}, async (page) => {
      const wasm = [];
      page.on('request', (r) => { if (/\.wasm$/.test(new URL(r.url()).pathname)) wasm.push(new URL(r.url()).pathname); });
      await page.goto(SITE);
      await page.locator('#product-grid > li').first().waitFor();
      assert.ok(!wasm.some((w) => w.includes('search')), `the home page loads no search .wasm (${wasm.join(', ')})`);
      await page.getByRole('search').getByRole('searchbox', { name: 'Search products' }).fill('hodoie');
      await page.getByRole('searchbox', { name: 'Search products' }).press('Enter');
      await page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === 'hodoie');
      await page.locator('[data-total]').waitFor();
      assert.equal(wasm.filter((w) => w.includes('search')).length, 1, 'the search .wasm, once the search is shown');
      const hits = await page.locator('[data-hit]').evaluateAll((els) => els.map((e) => e.dataset.hit));
      assert.ok(hits.length > 0 && hits.slice(0, Math.min(hits.length, hoodies.size)).every((id) => hoodies.has(id)), `"hodoie" finds the hoodies first: ${hits.join(', ')}`);

      const res = await page.goto(new URL('search?q=hoodie', SITE).href);
      assert.equal(res.status(), 200, '/search answers 200 (a shareable link)');
      await page.locator('[data-total]').waitFor();
      const total = async () => Number(await page.locator('[data-total]').getAttribute('data-total'));
      const color = page.locator('[data-facet^="Color="]').first();
      const [facet, count] = [await color.getAttribute('data-facet'), Number(await color.getAttribute('data-count'))];
      const all = await total();
      assert.ok(count >= 1 && count <= all, `${facet}: (${count}) beside it, of ${all}`);
      await color.click();
      await page.waitForURL((u) => u.searchParams.has('o.Color'));
      await page.locator(`[data-facet="${facet}"][aria-current="true"]`).waitFor();
      assert.equal(await total(), count, 'the chosen value gives the count shown beside it');
      await page.getByRole('navigation', { name: 'Sort' }).getByRole('link', { name: 'Price: low to high' }).click();
      await page.waitForURL((u) => u.searchParams.get('sort') === 'price-asc');
      await page.goBack();
      await page.waitForURL((u) => !u.searchParams.has('sort') && u.searchParams.has('o.Color'));
      await page.goBack();
      await page.waitForURL((u) => u.search === '?q=hoodie');
      await page.locator(`[data-facet="${facet}"]:not([aria-current])`).waitFor();
      assert.equal(await total(), all, 'back: no filter again');
      await page.goForward();
      await page.locator(`[data-facet="${facet}"][aria-current="true"]`).waitFor();
      assert.equal(await total(), count, 'forward: the filter again');
    });
  });
});

describe('accessibility (axe-core)', () => {
  for (const vp of VIEWPORTS) {
    test(`no axe violations on any view at ${vp.width} px`, async () => {
      const t = await targets();
      const found = [];
      await usePage(browser, vp, async (page) => {
        const check = async (name) => {
          for (const v of await axeViolations(page)) found.push(`${name}: ${v}`);
        };
        await page.goto(SITE);
        await page.locator('#product-grid > li').first().waitFor();
        await check('home');
        await page.goto(await viewUrl('collection', t.collection.slug));
        await settled(page);
        await check('collection');
        await page.goto(await viewUrl('page', t.page.slug));
        await settled(page);
        await check('CMS page');
        await page.goto(new URL('search?q=hoodie', SITE).href);
        await page.locator('[data-total]').waitFor();
        await check('search');
        await page.goto(new URL('no-such-page', SITE).href);
        await settled(page);
        await check('not found');
        await chooseVariant(page, t.product, t.variant);
        await settled(page);
        await check('product');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.locator('#cart-drawer:not([hidden])').waitFor();
        await check('cart drawer');
        await page.locator('#go-checkout').click();
        await page.locator('#checkout-form, form').first().waitFor();
        await settled(page);
        await check('checkout');
        await page.goto(new URL('order', SITE).href);
        await settled(page);
        await check('order (none in this tab)');
      });
      assert.deepEqual(found, [], `axe violations at ${vp.width} px:\n${found.join('\n')}`);
    });
  }
});
