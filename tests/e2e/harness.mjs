// Shared pieces of the e2e suite: Chromium via playwright-core (Debian's
// /usr/bin/chromium, TOOLCHAIN.md's flags), the API for test setup, money in
// integer cents, and artifacts.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from './flags.mjs';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(ROOT, 'artifacts', 'e2e');
mkdirSync(ARTIFACTS, { recursive: true });

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run through scripts/test.d/70-e2e.sh)`);
  return v;
}
/** The page's origin (the dev server serving www/ at /). */
export const SITE = need('E2E_SITE').replace(/\/?$/, '/');
export const API = new URL('api/v1', SITE).href;
export const API_KEY = need('CIRRUS_API_KEY');
export const LOCALSTRIPE = need('LOCALSTRIPE_URL');

export { CHROMIUM_FLAGS };

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/**
 * A fresh context (empty storage and cache) and page. Page errors and CSP
 * violations are collected so tests can assert the page ran clean.
 */
export async function openPage(browser, { width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'en-US', timezoneId: 'UTC' });
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.setDefaultTimeout(15_000);
  return { context, page, problems };
}

export async function api(path, init = {}) {
  const res = await fetch(new URL(path.replace(/^\//, ''), API + '/'), {
    ...init,
    headers: { Authorization: `Bearer ${API_KEY}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function testHook(path, init = {}) {
  const res = await fetch(new URL(path.replace(/^\//, ''), SITE), {
    ...init, headers: init.body ? { 'Content-Type': 'application/json' } : {},
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/**
 * Every PaymentIntent localstripe holds, paged through with `has_more` / `starting_after`
 * (as server/tests/payments.rs does), `pageSize` at a time. The default page is small on
 * purpose, so the paging runs in every stage rather than only once 100 payments exist.
 * Each id is seen once, and the count matches localstripe's `total_count`.
 */
export async function allPaymentIntents({ pageSize = 10 } = {}) {
  const out = [];
  const seen = new Set();
  let after = null;
  let total = null;
  for (let pages = 1; ; pages++) {
    assert.ok(pages <= 10_000, 'paging through PaymentIntents terminates');
    const url = new URL('/v1/payment_intents', LOCALSTRIPE);
    url.searchParams.set('limit', String(pageSize));
    if (after) url.searchParams.set('starting_after', after);
    const res = await fetch(url, { headers: { Authorization: 'Bearer sk_test_localstripe' } });
    assert.equal(res.status, 200, `localstripe lists PaymentIntents (${url})`);
    const page = await res.json();
    assert.ok(Array.isArray(page.data) && typeof page.has_more === 'boolean', `a list page: ${JSON.stringify(page).slice(0, 200)}`);
    assert.ok(page.data.length <= pageSize, 'a page holds at most `limit` items');
    if (typeof page.total_count === 'number') total ??= page.total_count;
    for (const pi of page.data) {
      assert.ok(!seen.has(pi.id), `PaymentIntent ${pi.id} listed twice while paging`);
      seen.add(pi.id);
      out.push(pi);
    }
    if (!page.has_more) break;
    assert.ok(page.data.length > 0, 'has_more with an empty page');
    after = page.data[page.data.length - 1].id;
  }
  if (total !== null) assert.equal(out.length, total, 'paged through every PaymentIntent');
  return out;
}

/** The PaymentIntents of one payment session (the server tags them with metadata.cirrus_session). */
export async function paymentIntentsOf(sessionId) {
  assert.ok(typeof sessionId === 'string' && sessionId.length > 0, `a session id: ${sessionId}`);
  return (await allPaymentIntents()).filter((pi) => pi.metadata && pi.metadata.cirrus_session === sessionId);
}

/** "19.99" -> 1999 (USD, exponent 2), integers only. */
export function cents(decimal) {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!m) throw new Error(`not a USD decimal: ${decimal}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 123456 -> "$1,234.56" (what Intl.NumberFormat en-US USD prints). */
export function usd(c) {
  return `$${Math.floor(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;
}

/**
 * A product for a purchase: ACTIVE, with options, and an in-stock variant with
 * at least `minStock` units. Read from the API, not hard-coded, so the tests
 * follow the seed.
 */
export async function pickProduct({ minStock = 5, skip = 0 } = {}) {
  const { products } = await api('/products?limit=100');
  const found = [];
  for (const p of products) {
    if (p.slug === 'xss-probe' || p.options.length === 0) continue;
    const v = p.variants.find((x) => x.stockStatus === 'IN_STOCK' && x.stockQuantity >= minStock);
    if (v) found.push({ product: p, variant: v });
  }
  if (found.length <= skip) throw new Error('no product with enough stock in the seed');
  return found[skip];
}

let routes = null;
/** The URL of a product, collection or CMS page under the store's routes (routeProducts, …). */
export async function viewUrl(kind, slug) {
  routes ??= (await api('/store')).store;
  const route = { product: routes.routeProducts, collection: routes.routeCollections, page: routes.routePages }[kind];
  if (route === undefined) throw new Error(`viewUrl: unknown kind ${kind}`);
  return new URL(`${route.replace(/\/+$/, '')}/${encodeURIComponent(slug)}`, SITE).href;
}

/** Open a product page and choose the variant's options in the pickers. */
export async function chooseVariant(page, product, variant) {
  await page.goto(await viewUrl('product', product.slug));
  await page.locator('h1', { hasText: product.name }).waitFor();
  const opts = [...product.options].sort((a, b) => a.position - b.position);
  for (const o of opts) {
    await page.getByLabel(o.name, { exact: true }).selectOption(variant.attributes[o.name]);
  }
}

export async function shot(page, name) {
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Run `fn` with a fresh page of `browser`; fail on page errors and CSP violations,
 *  and keep a screenshot of a failure in the artifacts. */
export async function usePage(browser, opts, fn) {
  const { context, page, problems } = await openPage(browser, opts);
  try {
    await fn(page);
    assert.deepEqual(await page.evaluate(() => window.__csp ?? []), [], 'no Content-Security-Policy violations');
    assert.deepEqual(problems, [], 'no uncaught page errors');
  } catch (err) {
    await page.screenshot({ path: join(ARTIFACTS, `failure-${Date.now()}.png`) }).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
}
