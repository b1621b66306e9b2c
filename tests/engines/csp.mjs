// The README's Content-Security-Policy, tested: its localstripe example (the block after
// `<!-- csp:localstripe -->`), with this run's API and localstripe origins put in for the
// example ones, is the header of a storefront page served from an origin of its own
// (tests/engines/csp/, the package under /pkg/). In each engine the page checks out with 4242;
// any error or `securitypolicyviolation` (recorded from the page's first script on) fails it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ordersFor } from '../e2e/shop.mjs';
import { API, API_KEY, LOCALSTRIPE, pickProduct, usd } from '../e2e/harness.mjs';

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'csp');
const ROOT = resolve(HERE, '..', '..', '..');
const EXAMPLE_API = 'https://api.example.com';
const EXAMPLE_LOCALSTRIPE = 'http://127.0.0.1:8420';

/** The README's policy for the localstripe adapter, with this run's origins. */
export function readmePolicy(apiOrigin, localstripeOrigin) {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /<!-- csp:localstripe -->\n```http\nContent-Security-Policy: ([^\n]+)\n```/.exec(readme);
  if (!m) throw new Error('README.md has no `<!-- csp:localstripe -->` block with a Content-Security-Policy line');
  const policy = m[1];
  for (const example of [EXAMPLE_API, EXAMPLE_LOCALSTRIPE]) {
    if (!policy.includes(example)) throw new Error(`the README's policy no longer names ${example}: ${policy}`);
  }
  return policy.replaceAll(EXAMPLE_API, apiOrigin).replaceAll(EXAMPLE_LOCALSTRIPE, localstripeOrigin);
}

const MIME = { '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

/** Serve the page and `pkgDir` on 127.0.0.1:`port` with `policy` as every answer's CSP header. */
export function serveCspPage({ port, pkgDir, policy }) {
  const config = JSON.stringify({ baseUrl: API, apiKey: API_KEY, localstripeUrl: LOCALSTRIPE });
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const headers = { 'Content-Security-Policy': policy, 'Cache-Control': 'no-store' };
    if (path === '/config.json') {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json' }).end(config);
      return;
    }
    const [base, rel] = path.startsWith('/pkg/') ? [pkgDir, path.slice(5)] : [HERE, path === '/' ? 'index.html' : path.slice(1)];
    const file = resolve(base, rel);
    if (!(file + sep).startsWith(resolve(base) + sep) || !existsSync(file)) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok({ origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) }));
  });
}

/** In `flow`'s session: the page under the policy, a 4242 checkout, no problem reported. */
export async function cspCheckout(flow, origin) {
  const s = flow.s;
  const { product, variant } = await pickProduct({ minStock: 10, skip: 3 });
  await flow.collect();
  await s.navigate(`${origin}/`);
  await s.waitFor('the CSP page ready', 'return window.ready === true || (window.__problems || []).length > 0 && JSON.stringify(window.__problems);', { timeout: 20_000 });
  const run = (step, ...args) => s.executeAsync(`const done = arguments[arguments.length - 1]; window.t[${JSON.stringify(step)}](...Array.from(arguments).slice(0, -1)).then(done, (e) => done({ error: String(e) }));`, ...args);
  const started = await run('start', product.slug, variant.id, 1);
  assert.ok(started && started.ok, `the checkout starts under the policy: ${JSON.stringify(started)}`);
  assert.equal(started.ok.total, usd(started.ok.amount), `the total shown in the preferred locale (${started.ok.locale})`);
  await flow.card('4242424242424242', '#payment');
  const paid = await run('pay');
  assert.equal(paid?.ok?.state, 'succeeded', `paid under the policy: ${JSON.stringify(paid)}`);
  const orders = await ordersFor(paid.ok.paymentIntentId);
  assert.equal(orders.length, 1, 'one order for the payment');
  assert.equal(orders[0].amount, started.ok.amount, 'for the amount shown');
  const problems = await s.execute('return window.__problems;');
  assert.deepEqual(problems, [], 'no error and no CSP violation under the README\'s policy');
  return started.ok.total;
}
