// End-to-end tests of the demo storefront (www/) in Debian's Chromium, against
// the dev server (serving the page and the API on one origin, test hooks on)
// and a real localstripe, both started by scripts/test.d/70-e2e.sh.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SITE, LOCALSTRIPE, api, chooseVariant, cents, launch, openPage, pickProduct, shot, testHook, usd, usePage, viewUrl } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const withPage = (opts, fn) => usePage(browser, opts, fn);

async function gridItems(page) {
  await page.locator('#product-grid > li').first().waitFor();
  return page.locator('#product-grid > li');
}

describe('catalog', () => {
  test('home: the header comes from the store config and the grid pages in (infinite scroll)', async () => {
    const { store } = await api('/store');
    const { pagination } = await api('/products?limit=1&includePagination=true&minimal=true');
    await withPage({}, async (page) => {
      await page.goto(SITE);
      const items = await gridItems(page);
      await assert.doesNotReject(page.locator('.brand', { hasText: store.name }).waitFor());
      assert.equal(await page.locator('.header-contact').textContent(), store.contactEmail);
      const logoHeight = await page.locator('.brand img').evaluate((el) => el.getBoundingClientRect().height);
      assert.equal(Math.round(logoHeight), Math.round(store.logoHeightDesktop), 'logo at logoHeightDesktop');
      assert.equal(await items.count(), Math.min(24, pagination.total));
      await page.getByText(`Showing 24 of ${pagination.total} products`).waitFor();
      await shot(page, 'home-1280');
      // scrolling to the end loads the next page
      await page.locator('#load-more').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelectorAll('#product-grid > li').length > 24);
      assert.ok(await items.count() > 24);
      // every card links to a product page that opens
      const first = await page.locator('#product-grid > li a').first().getAttribute('data-product');
      await page.locator('#product-grid > li a').first().click();
      await page.locator('article.product').waitFor();
      assert.equal(await page.locator('article.product').getAttribute('data-product'), first);
    });
  });

  test('home at 390 px: two columns, mobile logo height, nothing wider than the screen', async () => {
    const { store } = await api('/store');
    await withPage({ width: 390, height: 844 }, async (page) => {
      await page.goto(SITE);
      await gridItems(page);
      const logoHeight = await page.locator('.brand img').evaluate((el) => el.getBoundingClientRect().height);
      assert.equal(Math.round(logoHeight), Math.round(store.logoHeightMobile), 'logo at logoHeightMobile');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
      const xs = await page.locator('#product-grid > li').evaluateAll((els) => [...new Set(els.slice(0, 4).map((e) => Math.round(e.getBoundingClientRect().x)))]);
      assert.equal(xs.length, 2, 'two columns');
      await shot(page, 'home-390');
    });
  });

  test('collections: nav, sub-collections and breadcrumbs', async () => {
    const { collections } = await api('/collections');
    // a collection three levels deep with products (fewer than a grid page), read from the API
    const leaf = collections.find((c) => c.breadcrumb.length === 3 && c.products.length >= 1 && c.products.length <= 24);
    assert.ok(leaf, 'the seed has a three-level collection with 1 to 24 products');
    const [rootRef, midRef] = leaf.breadcrumb;
    await withPage({}, async (page) => {
      await page.goto(SITE);
      await gridItems(page);
      await page.locator('#collection-nav').getByRole('link', { name: rootRef.name, exact: true }).click();
      await page.locator('h1', { hasText: rootRef.name }).waitFor();
      assert.equal(await page.locator('#collection-nav [aria-current="page"]').textContent(), rootRef.name);
      await page.locator('.subcollections').getByRole('link', { name: midRef.name, exact: true }).click();
      await page.locator('h1', { hasText: midRef.name }).waitFor();
      await page.locator('.subcollections').getByRole('link', { name: leaf.name, exact: true }).click();
      await page.locator('h1', { hasText: leaf.name }).waitFor();
      const crumbs = page.locator('nav.breadcrumb li');
      assert.deepEqual(await crumbs.allTextContents(), ['Home', rootRef.name, midRef.name, leaf.name]);
      assert.equal(await page.locator('nav.breadcrumb [aria-current="page"]').textContent(), leaf.name);
      await page.locator('#product-grid > li').first().waitFor();
      assert.equal(await page.locator('#product-grid > li').count(), leaf.products.length, 'the leaf shows its products');
      // the breadcrumb leads back up
      await page.locator('nav.breadcrumb').getByRole('link', { name: midRef.name, exact: true }).click();
      await page.locator('h1', { hasText: midRef.name }).waitFor();
      assert.equal(page.url(), await viewUrl('collection', midRef.slug), 'a real path, not a #/ route');
      await page.goBack();
      await page.locator('h1', { hasText: leaf.name }).waitFor();
    });
  });

  test('a CMS page renders its content from the footer link', async () => {
    const { pages } = await api('/pages');
    const about = pages.find((p) => p.slug === 'about');
    assert.ok(about, 'the seed has the about page');
    await withPage({}, async (page) => {
      await page.goto(SITE);
      await gridItems(page);
      const footerLinks = await page.locator('#site-footer nav a').allTextContents();
      for (const p of pages) assert.ok(footerLinks.includes(p.title), `footer links ${p.title}`);
      // A DOM click: a pointer click scrolls to the footer, which makes the infinite scroll
      // load the next page, and the footer can move away between Playwright's stability
      // check and the mouse-down (seen twice on 2026-11-22; the failure screenshot showed the grid).
      await page.locator('#site-footer').getByRole('link', { name: about.title, exact: true }).evaluate((a) => a.click());
      await page.locator('h1', { hasText: about.title }).waitFor();
      const text = (await page.locator(`[data-page="${about.slug}"]`).textContent()).trim();
      assert.ok(text.length > 20, 'page content is shown');
      // The title from the SDK's pageSeo, the same the server renders into the page it sends for that path.
      const sent = await (await fetch(await viewUrl('page', about.slug))).text();
      const sentTitle = /<title>([^<]*)<\/title>/.exec(sent)[1].replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      assert.equal(await page.title(), sentTitle, 'the title set on navigation is the one the server renders');
      assert.ok(sentTitle.startsWith(about.metaTitle || about.title), `title ${sentTitle} from the page's metaTitle or title`);
    });
  });

  test('product page: option pickers resolve to a variant, sold-out combinations are disabled', async () => {
    const { products } = await api('/products?limit=200');
    const byPosition = (p) => [...p.options].sort((a, b) => a.position - b.position);
    // The variant with these attributes, with the last option set to `value`.
    const variantWith = (p, attrs, last, value) => p.variants.find((x) => Object.entries({ ...attrs, [last]: value }).every(([k, val]) => x.attributes[k] === val));
    // A product with two or more options and an in-stock variant whose sibling (same other
    // options, another value of the last one) is sold out: that value must show disabled.
    let pick = null;
    for (const p of products) {
      if (p.options.length < 2) continue;
      const last = byPosition(p).at(-1).name;
      for (const v of p.variants.filter((x) => x.stockQuantity > 0)) {
        const soldOut = p.variants.find((x) => x.stockQuantity === 0 && x.attributes[last] !== v.attributes[last]
          && Object.keys(v.attributes).every((k) => k === last || x.attributes[k] === v.attributes[k]));
        if (soldOut) { pick = { p, v, soldOutValue: soldOut.attributes[last] }; break; }
      }
      if (pick) break;
    }
    assert.ok(pick, 'the seed has a 2+-option product with a sold-out combination next to an in-stock one');
    const { p, v, soldOutValue } = pick;
    // A variant with a compare-at price above its price (any product), for the savings display.
    const disc = products.flatMap((x) => x.options.length ? x.variants.filter((y) => y.stockQuantity > 0).map((y) => ({ p: x, v: y })) : [])
      .find(({ v: y }) => y.compareAtPrice !== null && cents(y.compareAtPrice) > cents(y.price));
    assert.ok(disc, 'the seed has an in-stock variant with a compare-at price above its price');
    await withPage({}, async (page) => {
      await chooseVariant(page, p, v);
      const priceText = await page.locator('article.product .price').first().textContent();
      assert.ok(priceText.includes(usd(cents(v.price))), `price ${priceText} shows ${v.price}`);
      assert.match(await page.locator('.stock').textContent(), /In stock/);
      // every enabled option value leads to an in-stock variant, every disabled one is missing or sold out
      const sorted = byPosition(p);
      const last = sorted[sorted.length - 1];
      const sel = Object.fromEntries(sorted.slice(0, -1).map((o) => [o.name, v.attributes[o.name]]));
      const enabled = await page.getByLabel(last.name, { exact: true }).locator('option:not([disabled])').evaluateAll((os) => os.map((o) => o.value));
      const disabled = await page.getByLabel(last.name, { exact: true }).locator('option[disabled]').evaluateAll((os) => os.map((o) => o.value));
      assert.ok(enabled.includes(v.attributes[last.name]), `the chosen ${last.name}=${v.attributes[last.name]} is enabled (${enabled})`);
      assert.ok(disabled.includes(soldOutValue), `the sold-out ${last.name}=${soldOutValue} is disabled (${disabled})`);
      const variantFor = (value) => variantWith(p, sel, last.name, value);
      for (const value of enabled) assert.ok(variantFor(value)?.stockQuantity > 0, `${last.name}=${value} is enabled and in stock`);
      for (const value of disabled) assert.ok(!variantFor(value) || variantFor(value).stockQuantity === 0, `${last.name}=${value} is disabled: missing or sold out`);
      await shot(page, 'product-1280');
      // compare-at price and savings
      await chooseVariant(page, disc.p, disc.v);
      const discText = await page.locator('article.product .price').first().textContent();
      assert.ok(discText.includes(usd(cents(disc.v.price))), `price ${discText} shows ${disc.v.price}`);
      assert.ok(discText.includes(usd(cents(disc.v.compareAtPrice))), `compare-at price shown: ${discText}`);
      assert.ok((await page.locator('.savings').textContent()).includes(usd(cents(disc.v.compareAtPrice) - cents(disc.v.price))), 'savings shown');
    });
  });
});

describe('store content is rendered safely', () => {
  test('the xss-probe product description does not run script', async () => {
    const { product } = await api('/products/slug/xss-probe');
    assert.match(product.description, /<script>/, 'the probe is seeded (CIRRUS_TEST_HOOKS=1)');
    const { context, page } = await openPage(browser);
    try {
      await page.goto(await viewUrl('product', 'xss-probe'));
      await page.locator('#description').waitFor();
      await page.waitForTimeout(500); // give any onerror / script a chance to run
      assert.equal(await page.evaluate(() => typeof window.__xss), 'undefined');
      assert.equal(await page.locator('#description script, #description [onerror]').count(), 0);
      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
      assert.doesNotMatch(csp, /unsafe-inline/);
    } finally {
      await context.close();
    }
  });

  test('the sanitizer keeps formatting and drops everything active', async () => {
    const { build } = await import('esbuild');
    const bundle = await build({ entryPoints: [join(ROOT, 'www', 'src', 'sanitize.ts')], bundle: true, write: false, format: 'iife', globalName: 'Sanitizer' });
    const cases = [
      ['<p>Hi <strong>there</strong></p>', '<p>Hi <strong>there</strong></p>'],
      ['<script>window.__xss=1</script><p>x</p>', '<p>x</p>'],
      ['<img src=x onerror="window.__xss=2">', `<img src="${SITE}x" loading="lazy" decoding="async" alt="">`],
      ['<a href="javascript:window.__xss=3">c</a>', '<a>c</a>'],
      ['<a href=" JaVaScRiPt:window.__xss=3">c</a>', '<a>c</a>'],
      ['<a href="/about" onclick="x()">a</a>', `<a href="${SITE}about">a</a>`],
      ['<a href="https://example.com/">e</a>', '<a href="https://example.com/" rel="noopener noreferrer nofollow" target="_blank">e</a>'],
      ['<img src="data:image/svg+xml,<svg onload=alert(1)>">', ''],
      ['<svg><script>window.__xss=4</script></svg>t', 't'],
      ['<iframe srcdoc="<script>parent.__xss=5</script>"></iframe>', ''],
      ['<style>body{display:none}</style><p style="color:red" class="c" id="i">s</p>', '<p>s</p>'],
      ['<h1>T</h1>', '<h2>T</h2>'],
      ['<custom-el><b>keep</b></custom-el>', '<b>keep</b>'],
      ['<form action="https://evil"><input name=a><button>go</button></form>', ''],
      ['<math><mi xlink:href="javascript:alert(1)">m</mi></math>', ''],
      ['<noscript><p title="</noscript><img src=x onerror=window.__xss=6>"></noscript>', ''],
      ['<!-- c --><p>a<br>b</p>', '<p>a<br>b</p>'],
      ['&lt;script&gt;', '&lt;script&gt;'],
      ['<table><tr><td colspan="2" onmouseover="x">t</td></tr></table>', '<table><tbody><tr><td colspan="2">t</td></tr></tbody></table>'],
    ];
    const { context, page } = await openPage(browser);
    try {
      await page.goto(SITE);
      await page.locator('#product-grid > li').first().waitFor();
      await page.evaluate(bundle.outputFiles[0].text + ';window.__sanitize = Sanitizer.sanitize;');
      const got = await page.evaluate((inputs) => inputs.map((html) => {
        const div = document.createElement('div');
        div.appendChild(window.__sanitize(html));
        document.body.appendChild(div); // live in the page: any handler would get its chance
        return div.innerHTML;
      }), cases.map((c) => c[0]));
      await page.waitForTimeout(300);
      cases.forEach(([input, want], i) => assert.equal(got[i], want, `sanitize(${input})`));
      assert.equal(await page.evaluate(() => typeof window.__xss), 'undefined');
      // absurd nesting does not blow the stack and keeps the text
      const deep = await page.evaluate(() => { const d = document.createElement('div'); d.appendChild(window.__sanitize('<b>'.repeat(5000) + 'deep')); return d.textContent; });
      assert.equal(deep, 'deep');
    } finally {
      await context.close();
    }
  });
});
