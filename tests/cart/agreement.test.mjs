// Agreement with the server, through the built package in node: for random
// carts over the demo catalog (seeded; the seed is printed), the SDK's
// subtotal equals the server's initiate `breakdown.subtotal`, and after an
// update with a rate the SDK's shipping choice offers, SDK subtotal + shipping
// equals the server's `subtotal + shipping`, and the server's tax equals an
// independent oracle (below). Rates the SDK excludes are checked to be refused
// by the server with 400 invalid_request naming shippingRateId.
//
// Tax oracle: written out here from the design (server/README.md "Shipping":
// basis points on subtotal + shipping, rounded half up to the minor unit), in
// BigInt, never read from the server. Every random cart's tax is checked against
// it, every taxed country is exercised, and a second test finds real carts whose
// exact tax ends in .5 of a cent (ties, where half up differs from half even or
// truncation) for every country whose rate can produce one (GB and FR at 20 %
// cannot: 2000 * n is never 5000 mod 10000; the test checks that too).
// Currency: the demo store prices in USD only (exponent 2); initiate refuses any
// other currency, which the last test asserts, so no exponent-0 or -3 currency
// can be checked against this server (the SDK's JPY/KWD/CLF math is in
// tests/cart/browser.test.mjs and the native tests).
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
/** Tax in basis points per country, from the design (server/README.md), not from the server. */
const TAX_BPS = { US: 725n, CA: 500n, GB: 2000n, DE: 1900n, FR: 2000n, AU: 1000n };
const COUNTRIES = Object.keys(TAX_BPS);

/** The oracle: round_half_up(base * bps / 10000) for base >= 0, in BigInt. */
function expectedTax(country, base) {
  const bps = TAX_BPS[country];
  assert.ok(bps !== undefined, `no tax rate written out for ${country}`);
  const b = BigInt(base);
  assert.ok(b >= 0n, `negative base ${b}`);
  return (b * bps + 5000n) / 10000n;
}
/** "32.99" -> 3299n: USD decimals to cents, BigInt (the catalog's wire prices). */
function cents(decimal) {
  const m = /^(\d+)\.(\d{2})$/.exec(decimal);
  assert.ok(m, `a USD decimal: ${decimal}`);
  return BigInt(m[1]) * 100n + BigInt(m[2]);
}
/** True when base * bps / 10000 ends in exactly half a minor unit. */
const isTie = (country, base) => (BigInt(base) * TAX_BPS[country]) % 10000n === 5000n;

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

test('the tax oracle rounds half up (hand-computed ties and neighbours)', () => {
  // base (cents) * bps / 10000 worked out by hand:
  for (const [country, base, want] of [
    ['US', 200, 15n], // 200 * 7.25 % = 14.5  -> 15
    ['US', 600, 44n], // 43.5 -> 44
    ['US', 199, 14n], // 14.4275 -> 14
    ['US', 1379, 100n], // 99.9775 -> 100
    ['CA', 10, 1n], // 0.5 -> 1
    ['CA', 1010, 51n], // 50.5 -> 51
    ['CA', 9, 0n], // 0.45 -> 0
    ['DE', 50, 10n], // 9.5 -> 10
    ['DE', 150, 29n], // 28.5 -> 29
    ['AU', 5, 1n], // 0.5 -> 1
    ['AU', 1995, 200n], // 199.5 -> 200
    ['AU', 1994, 199n], // 199.4 -> 199
    ['GB', 1999, 400n], // 399.8 -> 400
    ['FR', 1, 0n], // 0.2 -> 0
    ['US', 0, 0n],
    ['US', 9007199254740991, 653021945968722n], // 2^53-1 cents: exact in BigInt (653021945968721.8475)
  ]) {
    assert.equal(expectedTax(country, base), want, `${country} tax on ${base}`);
  }
  assert.ok(isTie('US', 200) && isTie('CA', 1010) && isTie('DE', 50) && isTie('AU', 1995) && !isTie('US', 199));
});

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

  const stats = { carts: 0, lines: 0, mergeRefused: 0, updated: 0, noRate: 0, excludedRefused: 0, rates: {}, taxed: {}, ties: {} };
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
        // Tax from the oracle, on the SDK's own subtotal + shipping (not the server's).
        const base = BigInt(subtotal) + BigInt(choice.price);
        assert.equal(BigInt(up.breakdown.tax), expectedTax(country, base), `cart ${i}: tax ${country} on ${base}`);
        assert.equal(up.breakdown.total, up.breakdown.subtotal + up.breakdown.shipping + up.breakdown.tax);
        assert.equal(BigInt(up.amount), base + expectedTax(country, base), `cart ${i}: amount`);
        stats.taxed[country] = (stats.taxed[country] ?? 0) + 1;
        if (isTie(country, base)) stats.ties[country] = (stats.ties[country] ?? 0) + 1;
        stats.updated++;
      }
      // A rate listed for some variant that the SDK excluded must be refused by the server.
      const usable = new Set(options.map((o) => o.rate.id));
      const excluded = [...new Set(answer.variantRates.flatMap((vr) => vr.rates.map((x) => x.id)))].filter((id) => !usable.has(id));
      if (excluded.length > 0 && r.next() < 0.25) {
        const bad = await call('POST', '/payments/update', { sessionId: init.sessionId, shippingRateId: r.pick(excluded), shippingAddress: address(country) });
        const what = `cart ${i}: a rate the SDK excluded: ${bad.status} ${JSON.stringify(bad.body)}`;
        assert.equal(bad.status, 400, what);
        assert.equal(bad.body?.code, 'invalid_request', what);
        assert.match(bad.body.error, /shippingRateId/, what);
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
  for (const c of COUNTRIES) assert.ok((stats.taxed[c] ?? 0) >= CARTS / 20, `tax checked for ${c} (${stats.taxed[c] ?? 0} carts)`);
});

test('half-cent ties: a real cart per country whose exact tax ends in .5 is rounded up', { timeout: 120_000 }, async () => {
  // Seed prices all end in .99, so whether a tie exists depends on the units in the cart
  // (e.g. DE needs 50 or 49 units, US a whole-dollar amount): search carts of up to four
  // lines (replayable: fixed seed) for one whose subtotal + an offered rate is a tie.
  const sdk = await loadSdk();
  const { store } = await ok('GET', '/store');
  const products = [];
  for (let offset = 0; ; offset += 500) {
    const page = await ok('GET', `/products?limit=500&offset=${offset}&includePagination=true`);
    products.push(...page.products);
    if (!page.pagination.hasMore) break;
  }
  const lines = products.flatMap((p) => p.variants.filter((v) => v.stockQuantity > 0 && v.stockStatus === 'IN_STOCK').map((v) => ({ p, v, price: cents(v.price) })));
  assert.ok(lines.length >= 50, `in-stock variants (${lines.length})`);
  const address = (country) => ({ email: 'tie@example.test', firstName: 'Ada', lastName: 'Lovelace', address1: '1 Test Street', city: 'Testville', postalCode: '12345', country });
  const found = [];
  for (const country of COUNTRIES) {
    const canTie = Array.from({ length: 10000 }, (_, b) => b).some((b) => isTie(country, b));
    if (!canTie) {
      assert.ok(['GB', 'FR'].includes(country), `${country}: no tie possible at ${TAX_BPS[country]} bps`);
      continue;
    }
    const rates = new Map();
    for (let i = 0; i < lines.length; i += 250) {
      const answer = await ok('POST', '/shipping-rates', { variantIds: lines.slice(i, i + 250).map((l) => l.v.id), country });
      for (const vr of answer.variantRates) rates.set(vr.variantId, vr.rates);
    }
    // Rates offered for every variant of the cart whose order bounds hold the subtotal.
    const usable = (ids, subtotal) => {
      const [first, ...rest] = ids.map((id) => rates.get(id) ?? []);
      return first.filter((x) => rest.every((rs) => rs.some((y) => y.id === x.id))
        && (x.minOrderPrice === null || cents(x.minOrderPrice) <= subtotal) && (x.maxOrderPrice === null || subtotal <= cents(x.maxOrderPrice)));
    };
    const r = rng(0x7a11 + country.charCodeAt(0) * 256 + country.charCodeAt(1));
    let hit = null;
    for (let attempt = 0; attempt < 400 && !hit; attempt++) {
      const prefix = [];
      for (let k = r.int(0, 3); k > 0; k--) {
        const l = r.pick(lines);
        if (!prefix.some((x) => x.l === l)) prefix.push({ l, q: r.int(1, l.v.stockQuantity) });
      }
      const sub0 = prefix.reduce((a, x) => a + x.l.price * BigInt(x.q), 0n);
      for (const l of lines) {
        if (hit) break;
        if (prefix.some((x) => x.l === l)) continue;
        const ids = [...prefix.map((x) => x.l.v.id), l.v.id];
        for (let q = 1; q <= l.v.stockQuantity && !hit; q++) {
          const subtotal = sub0 + l.price * BigInt(q);
          for (const rate of usable(ids, subtotal)) {
            if (isTie(country, subtotal + cents(rate.price))) { hit = { items: [...prefix, { l, q }], rate, subtotal }; break; }
          }
        }
      }
    }
    assert.ok(hit, `${country}: a cart whose tax is a half-cent tie exists in the catalog`);
    // Priced by the SDK, sent to the server, taxed by the server; checked against the oracle.
    const cart = new sdk.Cart(store.defaultCurrency);
    let choice;
    try {
      for (const { l, q } of hit.items) cart.add(l.p, l.v.id, q);
      assert.equal(BigInt(cart.subtotal), hit.subtotal, `${country}: the SDK's subtotal`);
      const answer = await ok('POST', '/shipping-rates', { variantIds: hit.items.map((x) => x.l.v.id), country });
      choice = cart.shippingOptions(answer).find((o) => o.rate.id === hit.rate.id);
      assert.ok(choice, `${country}: the SDK offers ${hit.rate.id}`);
    } finally {
      cart.free();
    }
    const base = hit.subtotal + BigInt(choice.price);
    const items = hit.items.map(({ l, q }) => ({ variantId: l.v.id, quantity: q }));
    const init = await ok('POST', '/payments/initiate', { items, currency: store.defaultCurrency });
    assert.equal(BigInt(init.breakdown.subtotal), hit.subtotal);
    const up = await ok('POST', '/payments/update', { sessionId: init.sessionId, shippingRateId: hit.rate.id, shippingAddress: address(country) });
    const exact = `${base * TAX_BPS[country] / 10000n}.${String(base * TAX_BPS[country] % 10000n).padStart(4, '0')}`;
    assert.ok(isTie(country, base) && exact.endsWith('.5000'), `${country}: ${base} is a tie (${exact})`);
    assert.equal(BigInt(up.breakdown.tax), expectedTax(country, base), `${country}: tax on ${base} (exactly ${exact} cents) rounds half up`);
    assert.equal(BigInt(up.breakdown.tax) * 10000n, base * TAX_BPS[country] + 5000n, `${country}: a tie rounds up by exactly half a cent`);
    found.push(`${country} ${items.length} line(s), ${base}c -> ${up.breakdown.tax}c (exactly ${exact})`);
  }
  console.log(`# ties: ${found.join('; ')}`);
  assert.equal(found.length, 4, 'ties checked for US, CA, DE and AU');
});

test('the demo store prices in its currency only (no exponent-0 or -3 currency to check here)', async () => {
  const { store } = await ok('GET', '/store');
  assert.equal(store.defaultCurrency, 'USD');
  const { products } = await ok('GET', '/products?limit=20');
  const v = products.flatMap((p) => p.variants).find((x) => x.stockQuantity > 0);
  assert.ok(v, 'an in-stock variant');
  for (const currency of ['JPY', 'KWD']) {
    const r = await call('POST', '/payments/initiate', { items: [{ variantId: v.id, quantity: 1 }], currency });
    assert.equal(r.status, 400, `${currency}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.code, 'invalid_request');
    assert.match(r.body.error, /currency/);
  }
});
