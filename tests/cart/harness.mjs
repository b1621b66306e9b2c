// Shared pieces of the cart tests: the SDK entry, a static file server for the
// browser tests (port 18802), headless Chromium via playwright-core, and
// catalog fixtures.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The package under test: `pkg/` from scripts/build-pkg.sh (the browser entry
 * `index.js`, the node entry `node.js`). CART_PKG_DIR may point elsewhere.
 */
export const PKG_DIR = resolve(process.env.CART_PKG_DIR ?? join(ROOT, 'pkg'));
const BROWSER_ENTRY = ['index.js', 'cirrus_storefront.js'].find((f) => existsSync(join(PKG_DIR, f)));
if (!BROWSER_ENTRY) throw new Error(`no package in ${PKG_DIR} (run scripts/build-pkg.sh)`);

/** The SDK in node, initialised. */
export async function loadSdk() {
  const node = join(PKG_DIR, 'node.js');
  if (existsSync(node)) {
    const sdk = await import(pathToFileURL(node).href);
    await sdk.init();
    return sdk;
  }
  // A bare wasm-bindgen `--target web` output (development only).
  const sdk = await import(pathToFileURL(join(PKG_DIR, BROWSER_ENTRY)).href);
  await sdk.default({ module_or_path: readFileSync(join(PKG_DIR, 'cirrus_storefront_bg.wasm')) });
  return sdk;
}

const MIME = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.json': 'application/json', '.ts': 'text/plain' };

/** Serves `/pkg/*` from PKG_DIR and `/` (an empty page) on 127.0.0.1:port. */
export function startStatic(port = Number(process.env.CART_STATIC_PORT ?? 18802)) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/' || path === '/other') {
      // Cross-origin isolated, so performance.now() is precise (benchmarks).
      res.writeHead(200, { 'Content-Type': 'text/html', 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
      res.end('<!doctype html><meta charset="utf-8"><title>cart test</title><body></body>');
      return;
    }
    const file = path.startsWith('/pkg/') ? resolve(PKG_DIR, '.' + path.slice(4)) : null;
    if (!file || !(file + sep).startsWith(PKG_DIR + sep) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store', 'Cross-Origin-Resource-Policy': 'same-origin' });
    res.end(readFileSync(file));
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok({ origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) }));
  });
}

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Headless Chromium (Playwright); with CART_ENGINE=firefox, webkit or webkit-c, that engine
 * through WebDriver, behind the same API (tests/engines/pages.mjs), its drivers on ports from
 * CART_DRIVER_PORT on.
 */
export async function launch() {
  const engine = process.env.CART_ENGINE ?? 'chromium';
  if (engine !== 'chromium') {
    const { webdriverBrowser } = await import('../engines/pages.mjs');
    return webdriverBrowser(engine, Number(process.env.CART_DRIVER_PORT ?? 18830));
  }
  return chromium.launch({ executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/**
 * Open `origin + path` in `context` and load the SDK as `window.sdk`. Page
 * errors are collected in the returned `errors` (tests assert it stays empty).
 */
export async function openSdkPage(context, origin, path = '/') {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(15_000);
  await page.goto(origin + path);
  await page.evaluate(async (entry) => {
    const sdk = await import(entry);
    await (sdk.init ?? sdk.default)();
    window.sdk = sdk;
  }, `/pkg/${BROWSER_ENTRY}`);
  return { page, errors };
}

/** A catalog product (the wire shape of GET /products) with the given variants. */
export function product(id, variants, { status = 'ACTIVE' } = {}) {
  return {
    id, storeId: 'st_test', name: `Product ${id}`, slug: `product-${id}`, status,
    description: '', metaTitle: null, metaDescription: null,
    images: [{ url: `https://img.test/${id}.png`, alt: id }], tags: [],
    createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
    options: [], collections: [],
    variants: variants.map(([vid, price, compareAtPrice, stockQuantity]) => ({
      id: vid, price, compareAtPrice, stockQuantity,
      stockStatus: stockQuantity > 0 ? 'IN_STOCK' : 'OUT_OF_STOCK',
      image: null, attributes: { Size: 'M' },
    })),
  };
}

/** A small seeded PRNG (mulberry32) so failures can be replayed from the printed seed. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}
