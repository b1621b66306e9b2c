// For scripts/bench-next.sh: what the browser gets of the SDK on the Next.js template's pages
// (production build), and the first "Add to cart" under Lighthouse's mobile throttling.
//   node scripts/bench-next.mjs weights SITE PRODUCT_SLUG COLLECTION_SLUG
//   node scripts/bench-next.mjs click SITE PRODUCT_SLUG [RUNS]
//   node scripts/bench-next.mjs cart-profile SITE PRODUCT_SLUG PROFILE_DIR
// "JS of the SDK" is the part of every requested .js that the chunk's source map attributes
// to node_modules/cirrus-storefront/ (the bench builds the template with
// productionBrowserSourceMaps), gzip -9; "SDK .wasm" is every .wasm requested, gzip -9.
import { chromium } from 'playwright-core';
import { gzipSync } from 'node:zlib';
import { CHROMIUM_FLAGS } from '../tests/e2e/flags.mjs';

const [cmd, site, slug, arg] = process.argv.slice(2);
const url = (path) => new URL(path.replace(/^\//, ''), site.replace(/\/?$/, '/')).href;
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const launch = () => chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });

/** Adds the product's preselected variant to the cart through its page; resolves once the badge counts it. */
async function addToCart(page, productSlug) {
  await page.goto(url(`/products/${encodeURIComponent(productSlug)}`));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.waitForFunction(() => document.querySelector('header .cart-link')?.getAttribute('data-cart-count') !== '');
}

// ------------------------------------------------------------ source-map attribution
const B64 = Object.fromEntries([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));
function vlq(segment) {
  const out = [];
  let value = 0, shift = 0;
  for (const c of segment) {
    const d = B64[c];
    value += (d & 31) << shift;
    if (d & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0; shift = 0;
    }
  }
  return out;
}
/** The generated text of `lines` (from line/column offset) that `map` attributes to a source matching `isSdk`. */
function sdkText(lines, map, isSdk, lineOffset = 0, colOffset = 0) {
  if (map.sections) return map.sections.map((s) => sdkText(lines, s.map, isSdk, lineOffset + s.offset.line, s.offset.line === 0 ? colOffset + s.offset.column : s.offset.column)).join('');
  const sdk = map.sources.map(isSdk);
  let text = '', src = 0;
  map.mappings.split(';').forEach((line, i) => {
    const gen = lines[lineOffset + i] ?? '';
    let col = 0;
    const segs = line ? line.split(',').map(vlq) : [];
    const starts = [];
    for (const s of segs) {
      col += s[0];
      if (s.length > 1) src += s[1];
      starts.push({ col: col + (i === 0 ? colOffset : 0), src: s.length > 1 ? src : -1 });
    }
    starts.forEach((s, k) => {
      if (s.src >= 0 && sdk[s.src]) text += gen.slice(s.col, k + 1 < starts.length ? starts[k + 1].col : gen.length);
    });
  });
  return text;
}
async function sdkJsOf(jsUrl, body) {
  const m = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(body);
  if (!m) return '';
  const res = await fetch(new URL(m[1], jsUrl));
  if (!res.ok) return '';
  return sdkText(body.split('\n'), await res.json(), (s) => /node_modules\/cirrus-storefront\//.test(s));
}

// ------------------------------------------------------------ weights
async function weights(productSlug, collectionSlug) {
  const browser = await launch();
  const rows = [];
  const pages = [
    ['home', '/', true],
    ['collection', `/collections/${encodeURIComponent(collectionSlug)}`, true],
    ['product', `/products/${encodeURIComponent(productSlug)}`, false],
    ['cart', '/cart', true],
    ['checkout', '/checkout', true],
  ];
  try {
    for (const [name, path, withCart] of pages) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (withCart) await addToCart(page, productSlug);
      const got = [];
      page.on('response', (r) => got.push(r));
      await page.goto(url(path));
      await page.waitForLoadState('networkidle');
      // Idle: anything a page fetches "when idle" has been asked for by now.
      await page.evaluate(() => new Promise((r) => requestIdleCallback(() => setTimeout(r, 3000))));
      await page.waitForLoadState('networkidle');
      let sdkJs = '', allJs = 0, wasm = 0;
      const wasmFiles = [];
      for (const r of got) {
        const u = r.url();
        if (/\.wasm(\?|$)/.test(u)) {
          const b = await r.body();
          wasm += gz(b);
          wasmFiles.push(u.replace(/^.*\//, ''));
        } else if (/\.js(\?|$)/.test(u) && u.startsWith(site)) {
          const b = await r.body();
          allJs += gz(b);
          sdkJs += await sdkJsOf(u, b.toString('utf8'));
        }
      }
      const count = await page.locator('header .cart-link').getAttribute('data-cart-count');
      rows.push({ page: name, sdkJs: sdkJs ? gz(Buffer.from(sdkJs)) : 0, wasm, wasmFiles, allJs, badge: count });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  console.log('| page (gzip -9, cold load, then idle) | JS of the SDK | SDK .wasm | all JS | badge |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.page} | ${kb(r.sdkJs)} | ${r.wasm ? `${kb(r.wasm)} (${r.wasmFiles.length} file${r.wasmFiles.length > 1 ? 's' : ''})` : 'none'} | ${kb(r.allJs)} | ${r.badge ? `Cart (${r.badge})` : 'Cart'} |`);
  const bad = rows.filter((r) => (r.page === 'home' || r.page === 'collection') && (r.wasm > 0 || r.sdkJs > 5 * 1024 || !r.badge));
  for (const r of bad) console.log(`BUDGET: ${r.page}: ${r.wasm ? 'a .wasm was requested' : ''} ${r.sdkJs > 5120 ? `SDK JS ${kb(r.sdkJs)} > 5 KB` : ''} ${r.badge ? '' : 'the badge shows no count'}`);
  return bad.length === 0;
}

// ------------------------------------------------------------ click latency
// Lighthouse's mobile throttling (its "simulated slow 4G" numbers, applied for real through
// the DevTools protocol): 150 ms RTT, 1.6 Mbps down, 750 Kbps up, CPU 4x slower.
async function click(productSlug, runs) {
  const browser = await launch();
  const times = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      // The browser script: at the load event, click "Add to cart"; the time until the badge counts it.
      await page.addInitScript(() => {
        addEventListener('load', () => {
          const t0 = performance.now();
          const badge = () => document.querySelector('header .cart-link');
          new MutationObserver((_, obs) => {
            if (badge()?.getAttribute('data-cart-count')) {
              window.__clickToBadge = performance.now() - t0;
              obs.disconnect();
            }
          }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
          const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Add to cart');
          window.__clickedEnabled = !!button && !button.disabled;
          button?.click();
        });
      });
      await page.goto(url(`/products/${encodeURIComponent(productSlug)}`), { waitUntil: 'load', timeout: 60_000 });
      await page.waitForFunction(() => window.__clickToBadge !== undefined, null, { timeout: 30_000 });
      const [ms, enabled, loadAt, wasm, late] = await page.evaluate(() => [
        window.__clickToBadge,
        window.__clickedEnabled,
        performance.getEntriesByType('navigation')[0].loadEventStart,
        performance.getEntriesByType('resource').filter((e) => /\.wasm(\?|$)/.test(e.name)).map((e) => [e.initiatorType, e.startTime, e.responseEnd]),
        // scripts requested after the load event: a chunk the click may wait for (a round trip on its path)
        performance.getEntriesByType('resource').filter((e) => /\.js(\?|$)/.test(e.name) && e.startTime > performance.getEntriesByType('navigation')[0].loadEventStart).map((e) => e.name.replace(/^.*\//, '')),
      ]);
      if (!enabled) throw new Error('"Add to cart" was not there enabled at the load event');
      times.push(ms);
      const fetched = wasm.map(([by, start, end]) => `.wasm (${by}) ${Math.round(start)}-${Math.round(end)} ms`).join(', ') || 'no .wasm';
      console.log(`run ${i + 1}: load event at ${Math.round(loadAt)} ms, click -> badge ${Math.round(ms)} ms; ${fetched}; ${late.length ? `scripts requested after the load event: ${late.join(', ')}` : 'no script requested after the load event'}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[(sorted.length - 1) >> 1];
  console.log(`click at the load event -> badge: median ${Math.round(median)} ms, max ${Math.round(sorted.at(-1))} ms of ${runs} runs (budget 300 ms)`);
  return median <= 300;
}

// ------------------------------------------------------------ a cart in a Lighthouse profile
async function cartProfile(productSlug, profile) {
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  try {
    await addToCart(ctx.pages()[0] ?? (await ctx.newPage()), productSlug);
  } finally {
    await ctx.close();
  }
  return true;
}

const ok = cmd === 'weights' ? await weights(slug, arg)
  : cmd === 'click' ? await click(slug, Number(arg ?? 5))
  : cmd === 'cart-profile' ? await cartProfile(slug, arg)
  : (console.error(`unknown command ${cmd}: weights | click | cart-profile`), false);
process.exitCode = ok ? 0 : 1;
