// Agreement with the server, through the built package in node: for random
// carts over the demo catalog (seeded; the seed is printed), the SDK's
// subtotal equals the server's initiate `breakdown.subtotal`, and after an
// update with a rate the SDK's shipping choice offers, SDK subtotal + shipping
// equals the server's `subtotal + shipping`. Rates the SDK excludes are
// checked to be refused by the server too.
//
// Needs CIRRUS_BASE_URL (…/api/v1) and CIRRUS_API_KEY (scripts/test.d/50-cart.sh).
// CART_SEED replays a run; CART_AGREEMENT_CARTS sets the count (default 1000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSdk, rng } from './harness.mjs';

const BASE = process.env.CIRRUS_BASE_URL;
const KEY = process.env.CIRRUS_API_KEY;
const CARTS = Number(process.env.CART_AGREEMENT_CARTS ?? 1000);
const SEED = Number(process.env.CART_SEED ?? Math.floor(Math.random() * 2 ** 31));
const COUNTRIES = ['US', 'CA', 'GB', 'DE', 'FR', 'AU'];

async function call(method, path, body) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(BASE + path, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status === 429 && attempt < 20) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      continue;
    }
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
}

async function ok(method, path, body) {
  const r = await call(method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path} ${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

test(`${CARTS} random carts agree with the server to the minor unit`, { timeout: 600_000 }, async () => {
  assert.ok(BASE && KEY, 'CIRRUS_BASE_URL and CIRRUS_API_KEY must be set (run scripts/test.d/50-cart.sh)');
  console.log(`# agreement seed: ${SEED} (replay with CART_SEED=${SEED})`);
  const sdk = await loadSdk();
  const { store } = await ok('GET', '/store');
  const products = [];
  for (let offset = 0; ; offset += 500) {
    const page = await ok('GET', `/products?limit=500&offset=${offset}&includePagination=true`);
    products.push(...page.products);
    if (!page.pagination.hasMore) break;
  }
  const buyable = products.filter((p) => p.variants.some((v) => v.stockQuantity > 0 && v.stockStatus === 'IN_STOCK'));
  assert.ok(buyable.length >= 10, `the demo catalog has buyable products (${buyable.length})`);
  console.log(`# catalog: ${products.length} products, currency ${store.defaultCurrency}`);

  const stats = { carts: 0, lines: 0, mergeRefused: 0, updated: 0, noRate: 0, excludedRefused: 0, rates: {} };
  const address = (country) => ({ email: 'buyer@example.test', firstName: 'Ada', lastName: 'Lovelace', address1: '1 Test Street', city: 'Testville', postalCode: '12345', country });

  async function oneCart(i) {
    // One RNG per cart, derived from the seed and the index: replayable whatever the interleaving.
    const r = rng((SEED ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
    const cart = new sdk.Cart(store.defaultCurrency);
    try {
      // Many small carts too, so rates with an upper order-total bound get chosen.
      const lines = r.next() < 0.4 ? 1 : r.int(2, 8);
      for (let l = 0; l < lines; l++) {
        const p = r.pick(buyable);
        const v = r.pick(p.variants.filter((x) => x.stockQuantity > 0 && x.stockStatus === 'IN_STOCK'));
        const q = r.next() < 0.1 ? r.int(1, v.stockQuantity) : r.int(1, Math.min(4, v.stockQuantity));
        try {
          cart.add(p, v.id, q);
        } catch (e) {
          // A merge beyond stock is refused (typed), the cart is unchanged.
          assert.equal(e.code, 'invalid_argument', e.message);
          stats.mergeRefused++;
        }
      }
      const subtotal = cart.subtotal;
      const items = cart.paymentItems();
      const init = await ok('POST', '/payments/initiate', { items, currency: cart.currency });
      assert.equal(init.breakdown.subtotal, subtotal, `cart ${i}: initiate subtotal for ${JSON.stringify(items)}`);
      assert.equal(init.amount, subtotal);
      stats.carts++;
      stats.lines += items.length;

      const country = r.pick(COUNTRIES);
      const answer = await ok('POST', '/shipping-rates', { variantIds: items.map((x) => x.variantId), country });
      const options = cart.shippingOptions(answer);
      for (let k = 1; k < options.length; k++) assert.ok(options[k - 1].price <= options[k].price, 'cheapest first');
      if (options.length === 0) {
        stats.noRate++;
      } else {
        const choice = r.pick(options);
        stats.rates[choice.rate.id.replace(/^rate_[a-z]+_/, '')] = (stats.rates[choice.rate.id.replace(/^rate_[a-z]+_/, '')] ?? 0) + 1;
        const up = await ok('POST', '/payments/update', { sessionId: init.sessionId, shippingRateId: choice.rate.id, shippingAddress: address(country) });
        assert.equal(up.breakdown.subtotal, subtotal, `cart ${i}: update subtotal`);
        assert.equal(up.breakdown.shipping, choice.price, `cart ${i}: shipping of ${choice.rate.id}`);
        assert.equal(up.breakdown.subtotal + up.breakdown.shipping, choice.estimatedTotal, `cart ${i}: subtotal + shipping`);
        assert.equal(up.breakdown.total, up.breakdown.subtotal + up.breakdown.shipping + up.breakdown.tax);
        stats.updated++;
      }
      // A rate listed for some variant that the SDK excluded must be refused by the server.
      const usable = new Set(options.map((o) => o.rate.id));
      const excluded = [...new Set(answer.variantRates.flatMap((vr) => vr.rates.map((x) => x.id)))].filter((id) => !usable.has(id));
      if (excluded.length > 0 && r.next() < 0.25) {
        const bad = await call('POST', '/payments/update', { sessionId: init.sessionId, shippingRateId: r.pick(excluded), shippingAddress: address(country) });
        assert.ok(bad.status >= 400 && bad.status < 500, `cart ${i}: server accepted a rate the SDK excluded: ${bad.status} ${JSON.stringify(bad.body)}`);
        stats.excludedRefused++;
      }
    } finally {
      cart.free();
    }
  }

  // A few carts in flight at a time.
  const t0 = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: 6 }, async () => {
    while (next < CARTS) await oneCart(next++);
  }));
  console.log(`# agreement: ${JSON.stringify(stats)} in ${Date.now() - t0} ms`);
  assert.equal(stats.carts, CARTS);
  assert.ok(stats.updated >= CARTS * 0.8, `most carts got a rate (${stats.updated}/${CARTS})`);
  assert.ok(stats.excludedRefused > 0, 'excluded rates were tried');
});
