// Browser tests of the cart/money JS surface in headless Chromium: money
// helpers, the Cart class, persistence, and two tabs following each other.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openSdkPage, product, startStatic } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await startStatic();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh context + SDK page; returns { page, errors, context }. */
async function fresh() {
  const context = await browser.newContext({ locale: 'en-US' });
  const { page, errors } = await openSdkPage(context, server.origin);
  return { context, page, errors };
}

/** Run `fn(sdk, arg)` in the page; a thrown error comes back as { threw: {name, code, message, isError} }. */
function inPage(page, fn, arg) {
  return page.evaluate(async ([src, arg]) => {
    const f = new Function(`return (${src})`)();
    try {
      return await f(window.sdk, arg);
    } catch (e) {
      return { threw: { name: e?.name, code: e?.code ?? null, message: String(e?.message), isError: e instanceof Error } };
    }
  }, [fn.toString(), arg]);
}

const TEE = product('p1', [['v1', '19.99', '24.99', 5], ['v2', '0.10', null, 100], ['v0', '5.00', null, 0]]);

describe('money helpers', () => {
  let t;
  before(async () => { t = await fresh(); });
  after(async () => {
    assert.deepEqual(t.errors, []);
    await t.context.close();
  });

  test('parse and exact decimals for every exponent', async () => {
    const r = await inPage(t.page, (sdk) => ({
      usd: sdk.parseMoney('19.99', 'USD'),
      jpy: sdk.parseMoney('1500', 'JPY'),
      kwd: sdk.parseMoney('1.234', 'KWD'),
      clf: sdk.parseMoney('1.0001', 'CLF'),
      back: [sdk.moneyToDecimal(1999, 'USD'), sdk.moneyToDecimal(1500, 'JPY'), sdk.moneyToDecimal(1234, 'KWD'), sdk.moneyToDecimal(-5, 'USD')],
      exps: ['USD', 'JPY', 'KWD', 'BHD', 'CLF'].map((c) => sdk.currencyExponent(c)),
      // 0.1 + 0.2 in doubles is 0.30000000000000004
      sum: sdk.moneyToDecimal(sdk.addMoney(sdk.parseMoney('0.1', 'USD'), sdk.parseMoney('0.2', 'USD')), 'USD'),
      max: sdk.moneyToDecimal(9007199254740991, 'USD'),
    }));
    assert.deepEqual(r, {
      usd: 1999, jpy: 1500, kwd: 1234, clf: 10001,
      back: ['19.99', '1500', '1.234', '-0.05'],
      exps: [2, 0, 3, 3, 4],
      sum: '0.30',
      max: '90071992547409.91',
    });
  });

  test('Intl formatting for a locale, exact to the last digit', async () => {
    const r = await inPage(t.page, (sdk) => [
      sdk.formatMoney(123456, 'USD', 'en-US'),
      sdk.formatMoney(123456, 'EUR', 'de-DE'),
      sdk.formatMoney(1500, 'JPY', 'ja-JP'),
      sdk.formatMoney(1234, 'KWD', 'en-US'),
      sdk.formatMoney(9007199254740991, 'USD', 'en-US'),
      sdk.formatMoney(5, 'USD', 'en-US'),
      sdk.formatMoney(-5, 'USD', 'en-US'),
    ]);
    assert.deepEqual(r, ['$1,234.56', '1.234,56\u00a0€', '￥1,500', 'KWD\u00a01.234', '$90,071,992,547,409.91', '$0.05', '-$0.05']);
  });

  test('bad input is a CirrusError invalid_argument naming the value', async () => {
    const cases = await inPage(t.page, (sdk) => {
      const out = [];
      const attempt = (label, f) => {
        try { out.push([label, 'no throw', f()]); } catch (e) {
          // With the package entry (pkg/index.js) errors are real CirrusError instances.
          out.push([label, e.name, e.code, e.message, e instanceof Error && (!sdk.CirrusError || e instanceof sdk.CirrusError)]);
        }
      };
      attempt('too many decimals', () => sdk.parseMoney('1.999', 'USD'));
      attempt('yen decimals', () => sdk.parseMoney('1.5', 'JPY'));
      attempt('garbage', () => sdk.parseMoney('12abc', 'USD'));
      attempt('exponent notation', () => sdk.parseMoney('1e3', 'USD'));
      attempt('beyond 2^53', () => sdk.parseMoney('90071992547409.92', 'USD'));
      attempt('unknown currency', () => sdk.parseMoney('1.00', 'ABC'));
      attempt('fractional minor', () => sdk.formatMoney(1.5, 'USD', 'en-US'));
      attempt('unsafe minor', () => sdk.formatMoney(9007199254740992, 'USD', 'en-US'));
      attempt('NaN', () => sdk.moneyToDecimal(NaN, 'USD'));
      attempt('string minor', () => sdk.addMoney('1', 2));
      attempt('overflowing sum', () => sdk.addMoney(9007199254740991, 1));
      attempt('bad locale', () => sdk.formatMoney(1, 'USD', 'not a locale!'));
      attempt('currency not a string', () => sdk.formatMoney(1, 840));
      attempt('no currency', () => new sdk.Cart());
      attempt('currency object', () => sdk.currencyExponent({ code: 'USD' }));
      return out;
    });
    const expect = {
      'too many decimals': '1.999', 'yen decimals': '1.5', garbage: '12abc', 'exponent notation': '1e3',
      'beyond 2^53': '9007199254740992', 'unknown currency': 'ABC', 'fractional minor': '1.5',
      'unsafe minor': '9007199254740992', NaN: 'null', 'string minor': '"1"', 'overflowing sum': '9007199254740992',
      'bad locale': 'not a locale!',
      'currency not a string': 'currency must be a string such as "USD", got the number 840',
      'no currency': 'currency must be a string such as "USD", got undefined',
      'currency object': 'currency must be a string such as "USD", got the object {"code":"USD"}',
    };
    for (const [label, name, code, message, isError] of cases) {
      assert.equal(name, 'CirrusError', `${label}: ${name} ${code}`);
      assert.equal(code, 'invalid_argument', label);
      assert.equal(isError, true, label);
      assert.ok(message.includes(expect[label]), `${label}: "${message}" should name ${expect[label]}`);
    }
    assert.equal(cases.length, Object.keys(expect).length);
  });
});

describe('Cart', () => {
  let t;
  before(async () => { t = await fresh(); });
  after(async () => {
    assert.deepEqual(t.errors, []);
    await t.context.close();
  });

  test('lines carry catalog data; totals are exact', async () => {
    const r = await inPage(t.page, (sdk, tee) => {
      const cart = new sdk.Cart('USD');
      cart.add(tee, 'v1', 2);
      cart.add(tee, 'v2', 3);
      cart.add(tee, 'v1', 1); // merges
      return { lines: cart.lines, totals: cart.totals, subtotal: cart.subtotal, items: cart.paymentItems(), currency: cart.currency, fmt: cart.format(cart.subtotal, 'en-US') };
    }, TEE);
    assert.equal(r.lines.length, 2);
    assert.deepEqual(r.lines[0], {
      productId: 'p1', productName: 'Product p1', productSlug: 'product-p1', variantId: 'v1',
      attributes: { Size: 'M' }, image: { url: 'https://img.test/p1.png', alt: 'p1' },
      unitPrice: 1999, compareAtPrice: 2499, quantity: 3, stockQuantity: 5, lineTotal: 5997, lineSavings: 1500,
    });
    assert.equal(r.lines[1].compareAtPrice, null, 'nullable fields are null, not undefined');
    assert.equal(r.lines[1].lineTotal, 30, '0.10 x 3 is exactly 30 cents');
    assert.deepEqual(r.totals, { subtotal: 6027, totalSavings: 1500, itemCount: 6, lineCount: 2 });
    assert.equal(r.subtotal, 6027);
    assert.deepEqual(r.items, [{ variantId: 'v1', quantity: 3 }, { variantId: 'v2', quantity: 3 }]);
    assert.equal(r.currency, 'USD');
    assert.equal(r.fmt, '$60.27');
  });

  test('refusals are typed and leave the cart unchanged', async () => {
    const r = await inPage(t.page, (sdk, tee) => {
      const cart = new sdk.Cart('USD');
      cart.add(tee, 'v1', 4);
      const codes = {};
      const attempt = (label, f) => { try { f(); codes[label] = 'no throw'; } catch (e) { codes[label] = `${e.name}:${e.code}`; } };
      attempt('over stock', () => cart.add(tee, 'v1', 2));
      attempt('unknown variant', () => cart.add(tee, 'nope', 1));
      attempt('out of stock', () => cart.add(tee, 'v0', 1));
      attempt('fractional quantity', () => cart.add(tee, 'v2', 1.5));
      attempt('negative quantity', () => cart.add(tee, 'v2', -1));
      attempt('string quantity', () => cart.add(tee, 'v2', '2'));
      attempt('zero quantity', () => cart.setQuantity('v1', 0));
      attempt('set above stock', () => cart.setQuantity('v1', 6));
      attempt('set unknown', () => cart.setQuantity('zz', 1));
      attempt('not a product', () => cart.add({ id: 1 }, 'v1', 1));
      attempt('bad currency', () => new sdk.Cart('usd'));
      // Products cross as objects (no joined strings): U+0000 inside an id is an ordinary character.
      const nul = new sdk.Cart('USD');
      nul.add({ ...tee, variants: [{ ...tee.variants[1], id: 'v\u0000x' }] }, 'v\u0000x', 1);
      const nulIds = nul.lines.map((l) => l.variantId);
      return { codes, nulIds, nulRemoved: nul.remove('v\u0000x'), lines: cart.lines.map((l) => [l.variantId, l.quantity]) };
    }, TEE);
    assert.deepEqual(r.codes, {
      'over stock': 'CirrusError:invalid_argument',
      'unknown variant': 'CirrusError:not_found',
      'out of stock': 'CirrusError:conflict',
      'fractional quantity': 'CirrusError:invalid_argument',
      'negative quantity': 'CirrusError:invalid_argument',
      'string quantity': 'CirrusError:invalid_argument',
      'zero quantity': 'CirrusError:invalid_argument',
      'set above stock': 'CirrusError:invalid_argument',
      'set unknown': 'CirrusError:not_found',
      'not a product': 'CirrusError:invalid_argument',
      'bad currency': 'CirrusError:invalid_argument',
    });
    assert.deepEqual(r.nulIds, ['v\u0000x']);
    assert.equal(r.nulRemoved, true);
    assert.deepEqual(r.lines, [['v1', 4]]);
  });

  test('argument errors name the path of the first problem', async () => {
    const r = await inPage(t.page, (sdk, tee) => {
      const cart = new sdk.Cart('USD');
      const message = (f) => { try { f(); return 'no throw'; } catch (e) { return `${e.code}: ${e.message}`; } };
      return [
        message(() => cart.add({ id: 1 }, 'v1', 1)),
        message(() => cart.add({ ...tee, variants: [tee.variants[0], { ...tee.variants[1], stockQuantity: -1 }] }, 'v1', 1)),
        message(() => cart.refresh([tee, { ...tee, variants: [{ ...tee.variants[0], price: 5 }] }])),
        message(() => cart.shippingOptions([{ variantId: 'v1', profileId: 'p', rates: 'x' }])),
        message(() => cart.shippingOptions({ variantRates: [{ variantId: 'v1', rates: [] }] })),
      ];
    }, TEE);
    assert.deepEqual(r, [
      'invalid_argument: product.id: expected a string, got the number 1',
      'invalid_argument: product.variants[1].stockQuantity: expected an integer in 0..=4294967295, got the number -1',
      'invalid_argument: products[1].variants[0].price: expected a string, got the number 5',
      'invalid_argument: variantRates[0].rates: expected an array, got the string "x"',
      'invalid_argument: answer.variantRates[0]: missing field `profileId`',
    ]);
  });

  test('line objects are frozen snapshots; lines is a copy', async () => {
    const r = await inPage(t.page, (sdk, tee) => {
      'use strict';
      const cart = new sdk.Cart('USD');
      cart.add(tee, 'v1', 2);
      const lines = cart.lines;
      const first = lines[0];
      const tries = [() => { first.quantity = 99; }, () => { first.attributes.Size = 'XL'; }, () => { first.image.url = 'x'; }];
      const threw = tries.map((f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } });
      lines.pop();
      cart.setQuantity('v1', 3);
      return { threw, frozen: Object.isFrozen(first), count: cart.lines.length, old: first.quantity, now: cart.line('v1').quantity, total: cart.line('v1').lineTotal, saved: JSON.parse(cart.serialize()).lines[0].attributes };
    }, TEE);
    assert.deepEqual(r, { threw: [true, true, true], frozen: true, count: 1, old: 2, now: 3, total: 3 * 1999, saved: { Size: 'M' } });
  });

  test('setQuantity, remove, clear, line', async () => {
    const r = await inPage(t.page, (sdk, tee) => {
      const cart = new sdk.Cart('USD');
      cart.add(tee, 'v1', 1);
      cart.add(tee, 'v2', 1);
      cart.setQuantity('v1', 5);
      const a = cart.subtotal;
      const removed = [cart.remove('v2'), cart.remove('v2')];
      const line = cart.line('v1').quantity;
      const missing = cart.line('v2');
      cart.clear();
      return { a, removed, line, missing, empty: cart.isEmpty, totals: cart.totals };
    }, TEE);
    assert.deepEqual(r, { a: 5 * 1999 + 10, removed: [true, false], line: 5, missing: null, empty: true, totals: { subtotal: 0, totalSavings: 0, itemCount: 0, lineCount: 0 } });
  });

  test('refresh reports price, stock and gone variants; check does not apply', async () => {
    const fresh1 = { ...TEE, variants: [{ ...TEE.variants[0], price: '17.99', stockQuantity: 2 }] };
    const r = await inPage(t.page, (sdk, [tee, fresh1]) => {
      const cart = new sdk.Cart('USD');
      cart.add(tee, 'v1', 4);
      cart.add(tee, 'v2', 2);
      const preview = cart.check([fresh1]);
      const unchanged = cart.subtotal;
      const report = cart.refresh([fresh1]);
      return { preview, report, unchanged, after: cart.lines.map((l) => [l.variantId, l.quantity, l.unitPrice]) };
    }, [TEE, fresh1]);
    assert.deepEqual(r.report, {
      changes: [
        { kind: 'priceChanged', variantId: 'v1', productName: 'Product p1', oldUnitPrice: 1999, newUnitPrice: 1799, oldCompareAtPrice: 2499, newCompareAtPrice: 2499 },
        { kind: 'stockLowered', variantId: 'v1', productName: 'Product p1', oldQuantity: 4, newQuantity: 2 },
        { kind: 'variantGone', variantId: 'v2', productName: 'Product p1', removedQuantity: 2 },
      ],
      unchecked: [],
    });
    assert.deepEqual(r.preview, r.report);
    assert.equal(r.unchanged, 4 * 1999 + 20);
    assert.deepEqual(r.after, [['v1', 2, 1799]]);
  });

  test('shipping options: rates for the whole order, in band, cheapest first', async () => {
    const rate = (id, price, min, max, days = [3, 5]) => ({ id, name: id, price, deliveryDescription: '', deliveryTimeframeMin: days[0], deliveryTimeframeMax: days[1], minOrderPrice: min, maxOrderPrice: max });
    const answer = {
      variantRates: [
        { variantId: 'v1', profileId: 'a', rates: [rate('express', '14.99', null, null, [1, 2]), rate('standard', '5.99', null, '99.99'), rate('free', '0.00', '100.00', null)] },
        { variantId: 'v2', profileId: 'b', rates: [rate('standard', '5.99', null, '99.99'), rate('free', '0.00', '100.00', null)] },
      ],
    };
    const r = await inPage(t.page, (sdk, [tee, answer]) => {
      const cart = new sdk.Cart('USD');
      cart.add(tee, 'v1', 1);
      cart.add(tee, 'v2', 1);
      const small = cart.shippingOptions(answer).map((o) => [o.rate.id, o.price, o.estimatedTotal]);
      cart.setQuantity('v1', 5); // 99.95 + 0.10 = 100.05
      const big = cart.shippingOptions(answer).map((o) => [o.rate.id, o.price, o.estimatedTotal]);
      let empty;
      try { new sdk.Cart('USD').shippingOptions(answer); } catch (e) { empty = e.code; }
      return { small, big, empty };
    }, [TEE, answer]);
    assert.deepEqual(r.small, [['standard', 599, 2009 + 599]], 'express is not offered for v2');
    assert.deepEqual(r.big, [['free', 0, 10005]]);
    assert.equal(r.empty, 'invalid_argument');
  });

  test('serialize / restore round trip; bad data gives an empty cart and a reason', async () => {
    const r = await inPage(t.page, (sdk, tee) => {
      const cart = new sdk.Cart('USD');
      cart.add(tee, 'v1', 2);
      const json = cart.serialize();
      const back = sdk.Cart.restore(json, 'USD');
      const bad = ['{oops', '{"version":99,"currency":"USD","lines":[]}', json.replace('"quantity":2', '"quantity":50'), json.replace('"USD"', '"EUR"'), null, ''];
      return {
        version: JSON.parse(json).version,
        same: back.cart.serialize() === json,
        problem: back.problem,
        isCart: back.cart instanceof sdk.Cart,
        bad: bad.map((d) => { const x = sdk.Cart.restore(d, 'USD'); return [x.cart.isEmpty, x.problem?.kind ?? null]; }),
      };
    }, TEE);
    assert.deepEqual(r, {
      version: 1, same: true, problem: null, isCart: true,
      bad: [[true, 'corrupt'], [true, 'unknown_version'], [true, 'corrupt'], [true, 'currency_mismatch'], [true, null], [true, null]],
    });
  });
});

describe('persistence in localStorage', () => {
  test('a persistent cart survives a new page load; corrupt data starts empty with a reason', async () => {
    const { context, page, errors } = await fresh();
    const KEY = 'cirrus-storefront.cart';
    await inPage(page, (sdk, tee) => {
      const cart = sdk.Cart.persistent('USD');
      cart.add(tee, 'v1', 2);
      cart.add(tee, 'v2', 1);
    }, TEE);
    const saved = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), KEY);
    assert.equal(saved.version, 1);
    assert.deepEqual(saved.lines.map((l) => [l.variantId, l.quantity]), [['v1', 2], ['v2', 1]]);

    await page.close();
    const reloaded = await openSdkPage(context, server.origin);
    const r = await inPage(reloaded.page, (sdk) => {
      const cart = sdk.Cart.persistent('USD');
      return { lines: cart.lines.map((l) => [l.variantId, l.quantity]), problem: cart.problem, subtotal: cart.subtotal };
    });
    assert.deepEqual(r, { lines: [['v1', 2], ['v2', 1]], problem: null, subtotal: 2 * 1999 + 10 });

    for (const [data, kind] of [['not json {', 'corrupt'], ['{"version":7,"currency":"USD","lines":[]}', 'unknown_version'], ['{"version":1,"currency":"USD","lines":[{"variantId":"x"}]}', 'corrupt']]) {
      const got = await inPage(reloaded.page, (sdk, [key, data]) => {
        localStorage.setItem(key, data);
        const cart = sdk.Cart.persistent('USD');
        const out = { empty: cart.isEmpty, problem: cart.problem };
        cart.free();
        return out;
      }, [KEY, data]);
      assert.equal(got.empty, true, data);
      assert.equal(got.problem.kind, kind, data);
      assert.ok(got.problem.message.length > 0);
    }
    assert.deepEqual(reloaded.errors, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('storage that throws (disabled) keeps the cart in memory and says why', async () => {
    const { context, page, errors } = await fresh();
    const r = await inPage(page, (sdk, tee) => {
      const broken = { getItem() { throw new Error('SecurityError: storage disabled'); }, setItem() { throw new Error('QuotaExceededError'); } };
      const events = [];
      const cart = sdk.Cart.persistent('USD', { storage: broken, onChange: (e) => events.push([e.source, e.problem?.kind ?? null]) });
      const first = cart.problem.kind;
      cart.add(tee, 'v1', 1);
      return { first, after: cart.problem.kind, events, subtotal: cart.subtotal };
    }, TEE);
    assert.deepEqual(r, { first: 'storage_unavailable', after: 'write_failed', events: [['change', 'write_failed']], subtotal: 1999 });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('subscribe: listeners hear a change whose save failed, a throwing one breaks nothing, unsubscribe stops one', async () => {
    const { context, page, errors } = await fresh();
    const r = await inPage(page, (sdk, tee) => {
      const full = { getItem() { return null; }, setItem() { throw new Error('QuotaExceededError'); } };
      const cart = sdk.Cart.persistent('USD', { storage: full, onChange: () => { throw new Error('a listener bug'); } });
      const seen = [];
      // The listener reads the cart while it is called from inside add().
      const off = cart.subscribe((e) => seen.push([e.source, e.problem?.kind ?? null, cart.lines.length]));
      cart.add(tee, 'v1', 1);
      off();
      cart.add(tee, 'v2', 1);
      let bad;
      try { cart.subscribe(1); } catch (e) { bad = e.code; }
      return { seen, lines: cart.lines.length, problem: cart.problem.kind, bad };
    }, TEE);
    assert.deepEqual(r, { seen: [['change', 'write_failed', 1]], lines: 2, problem: 'write_failed', bad: 'invalid_argument' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('re-entrancy: a storage.setItem that calls back into the cart (reads, a change) does not trap it', async () => {
    const { context, page, errors } = await fresh();
    const r = await inPage(page, (sdk, tee) => {
      const data = new Map();
      const seen = [];
      let cart;
      let nested = false;
      // setItem reads the cart (and once changes it) while the cart is saving itself.
      const storage = {
        getItem: (k) => data.get(k) ?? null,
        setItem(k, v) {
          data.set(k, v);
          try {
            seen.push(['setItem', cart.lines.length, cart.subtotal]);
            if (!nested && cart.lines.length === 1) {
              nested = true;
              cart.add(tee, 'v2', 1);
            }
          } catch (e) {
            // A cart still borrowed here traps (RuntimeError: unreachable) or refuses (recursive use).
            seen.push(['threw', String(e)]);
            throw e;
          }
        },
      };
      cart = sdk.Cart.persistent('USD', { storage, key: 'reentrant' });
      cart.add(tee, 'v1', 1);
      // Still alive: a trapped instance would throw "recursive use of an object" / unreachable from here on.
      cart.setQuantity('v1', 2);
      return { seen: seen.slice(0, 3), lines: cart.lines.map((l) => [l.variantId, l.quantity]), key: cart.storageKey, saved: JSON.parse(data.get('reentrant')).lines.length };
    }, TEE);
    assert.equal(r.threw, undefined, JSON.stringify(r));
    assert.deepEqual(r.seen, [['setItem', 1, 1999], ['setItem', 2, 2009], ['setItem', 2, 4008]]);
    assert.deepEqual(r.lines, [['v1', 2], ['v2', 1]]);
    assert.equal(r.key, 'reentrant', 'storageKey names where a persistent cart (and its checkout) is kept');
    assert.equal(r.saved, 2);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('cart-summary (cirrus-storefront/cart-summary: plain JS, no wasm)', () => {
  test('reads the summary the Rust cart wrote, follows this tab and another, and says "unknown" for anything odd', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const a = await openSdkPage(context, server.origin, '/');
    const b = await openSdkPage(context, server.origin, '/other');
    // Tab B reads the summary without the SDK's wasm being used there: only the summary module.
    await b.page.evaluate(async () => {
      const m = await import('/pkg/cart-summary.js');
      window.summary = m;
      window.seen = [];
      window.stop = m.subscribeCartSummary((s) => window.seen.push(s), { key: 'badge.cart' });
    });
    const nothing = await b.page.evaluate(() => window.summary.readCartSummary({ key: 'badge.cart' }));
    assert.deepEqual(nothing, { currency: null, itemCount: 0, lineCount: 0, subtotal: 0 }, 'nothing saved: the empty summary');
    // Tab A changes its cart; this tab's own reader hears it too (the cart's saved event).
    const here = await inPage(a.page, async (sdk, tee) => {
      const m = await import('/pkg/cart-summary.js');
      const seen = [];
      m.subscribeCartSummary((s) => seen.push(s.itemCount), { key: 'badge.cart' });
      const cart = sdk.Cart.persistent('USD', { key: 'badge.cart' });
      cart.add(tee, 'v1', 2);
      cart.add(tee, 'v2', 1);
      const read = m.readCartSummary({ key: 'badge.cart' });
      return { seen, read, same: read === m.readCartSummary({ key: 'badge.cart' }), rust: cart.summary };
    }, TEE);
    assert.deepEqual(here.seen, [2, 3]);
    assert.deepEqual(here.read, { currency: 'USD', itemCount: 3, lineCount: 2, subtotal: 4008 });
    assert.deepEqual(here.read, here.rust, 'the reader gives what the Rust cart says');
    assert.equal(here.same, true, 'the same object while the saved text is unchanged');
    await b.page.waitForFunction(() => window.seen.length >= 2);
    assert.deepEqual(await b.page.evaluate(() => window.seen.at(-1)), here.read);
    // Odd data is "unknown" (null), never a guess.
    const odd = await b.page.evaluate(() => {
      const { readCartSummary } = window.summary;
      const base = JSON.parse(localStorage.getItem('badge.cart'));
      const read = (doc) => readCartSummary({ storage: { getItem: () => (typeof doc === 'string' ? doc : JSON.stringify(doc)) } });
      return {
        notJson: read('{'),
        noSummary: read({ ...base, summary: undefined }),
        version: read({ ...base, version: 2 }),
        currency: read({ ...base, summary: { ...base.summary, currency: 'EUR' } }),
        fraction: read({ ...base, summary: { ...base.summary, itemCount: 1.5 } }),
        negative: read({ ...base, summary: { ...base.summary, subtotal: -1 } }),
        string: read({ ...base, summary: { ...base.summary, itemCount: '3' } }),
        inconsistent: read({ ...base, summary: { ...base.summary, lineCount: 4 } }),
        throwing: readCartSummary({ storage: { getItem() { throw new Error('SecurityError'); } } }),
      };
    });
    assert.deepEqual(odd, { notJson: null, noSummary: null, version: null, currency: null, fraction: null, negative: null, string: null, inconsistent: null, throwing: null });
    assert.deepEqual([...a.errors, ...b.errors], []);
    await context.close();
  });
});

describe('picker (cirrus-storefront/picker: the server\'s productOptions first, the SDK\'s after)', () => {
  test('starts from the server result as is, selects through the SDK, and a refused selection is an error, not a throw', async () => {
    const { context, page, errors } = await fresh();
    const r = await inPage(page, async (sdk, base) => {
      const value = (v, i) => ({ id: `ov_${v}`, value: v, position: i });
      const tee = {
        ...base,
        options: [{ id: 'o1', name: 'Size', displayStyle: 'dropdown', position: 1, values: ['S', 'M'].map(value) }],
        variants: [
          { id: 'vs', price: '10.00', compareAtPrice: null, stockQuantity: 0, stockStatus: 'OUT_OF_STOCK', image: null, attributes: { Size: 'S' } },
          { id: 'vm', price: '12.00', compareAtPrice: null, stockQuantity: 3, stockStatus: 'IN_STOCK', image: null, attributes: { Size: 'M' } },
        ],
      };
      // What a server computes with the same SDK.
      const server = sdk.productOptions(tee, sdk.defaultSelection(tee));
      const { ProductPicker } = await import('/pkg/picker.js');
      const picker = new ProductPicker(tee, server);
      const first = { same: picker.state.matrix === server, variant: picker.state.selectedVariant?.id, pending: picker.state.pending };
      let heard = 0;
      picker.subscribe(() => heard++);
      const choosing = picker.select('Size', 'S');
      const during = { pending: picker.state.pending, selection: picker.state.selection };
      await choosing;
      const chosen = { selection: picker.state.selection, variant: picker.state.selectedVariant?.id, available: picker.state.matrix.options[0].values.map((v) => v.available), error: picker.state.error };
      await picker.select('Size', 'XL');
      const refused = { code: picker.state.error?.code, isError: picker.state.error instanceof sdk.CirrusError, selection: picker.state.selection };
      return { first, during, chosen, refused, heard };
    }, TEE);
    assert.deepEqual(r.first, { same: true, variant: 'vm', pending: false });
    assert.deepEqual(r.during, { pending: true, selection: { Size: 'S' } }, 'the choice shows at once, the matrix once the SDK is loaded');
    assert.deepEqual(r.chosen, { selection: { Size: 'S' }, variant: 'vs', available: [false, true], error: null });
    assert.deepEqual(r.refused, { code: 'invalid_argument', isError: true, selection: { Size: 'S' } });
    assert.ok(r.heard >= 2, `listeners heard ${r.heard} changes`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('two tabs', () => {
  test('subscribe hears every change with a new version: this tab\'s, another tab\'s, a paid checkout\'s; the saved form carries the summary', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const a = await openSdkPage(context, server.origin, '/');
    const b = await openSdkPage(context, server.origin, '/other');
    const setup = () => {
      window.heard = [];
      window.cart = window.sdk.Cart.persistent('USD', { key: 'sub.cart' });
      window.cart.subscribe((e) => window.heard.push([e.source, e.version === window.cart.version, window.cart.summary.itemCount]));
      return window.cart.version;
    };
    const v0 = await a.page.evaluate(setup);
    await b.page.evaluate(setup);
    // This tab's change; a remove of a line that is not there changes nothing and is not heard.
    const here = await inPage(a.page, (sdk, tee) => {
      window.cart.add(tee, 'v1', 2);
      window.cart.remove('nope');
      return { heard: window.heard, version: window.cart.version, saved: JSON.parse(localStorage.getItem('sub.cart')).summary };
    }, TEE);
    assert.deepEqual(here, { heard: [['change', true, 2]], version: v0 + 1, saved: { currency: 'USD', itemCount: 2, lineCount: 1, subtotal: 3998 } });
    // Another tab's change.
    await b.page.waitForFunction(() => window.heard.length === 1);
    assert.deepEqual(await b.page.evaluate(() => window.heard), [['storage', true, 2]]);
    // A paid checkout (a fake client and adapter) takes the paid lines out: heard here and there.
    const paid = await inPage(a.page, async () => {
      const client = {
        initiatePayment: async () => ({ processor: 'stripe', sessionId: 'ps_1', publishableKey: 'pk_test', amount: 3998, currency: 'USD', breakdown: { subtotal: 3998, shipping: 0, tax: 0, total: 3998 } }),
        shippingRates: async () => [{ variantId: 'v1', profileId: 'p', rates: [{ id: 'std', name: 'std', price: '5.00', deliveryDescription: '', deliveryTimeframeMin: 1, deliveryTimeframeMax: 2, minOrderPrice: null, maxOrderPrice: null }] }],
        updatePayment: async () => ({ sessionId: 'ps_1', amount: 4498, currency: 'USD', breakdown: { subtotal: 3998, shipping: 500, tax: 0, total: 4498 } }),
        confirmPayment: async () => ({ success: true, status: 'succeeded', clientSecret: null, paymentIntentId: 'pi_1', error: null }),
      };
      const adapter = { mount: async () => {}, updateAmount: async () => {}, collectToken: async () => 'tok_1', handleNextAction: async () => {} };
      const c = await window.sdk.Checkout.start(client, { adapter, cart: window.cart });
      await c.shippingOptions('US');
      await c.selectShipping('std', { email: 'a@b.c', firstName: 'A', lastName: 'B', address1: '1', city: 'C', postalCode: '1', country: 'US' });
      const state = (await c.pay({ returnUrl: location.href })).state;
      return { state, heard: window.heard.slice(1), empty: window.cart.isEmpty };
    });
    assert.deepEqual(paid, { state: 'succeeded', heard: [['change', true, 0]], empty: true });
    await b.page.waitForFunction(() => window.heard.length === 2);
    assert.deepEqual(await b.page.evaluate(() => window.heard[1]), ['storage', true, 0]);
    assert.deepEqual([...a.errors, ...b.errors], []);
    await context.close();
  });

  test('a change in one tab shows in the other; corrupt data there is reported, not thrown', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const a = await openSdkPage(context, server.origin, '/');
    const b = await openSdkPage(context, server.origin, '/other');
    const setup = (sdk) => {
      window.events = [];
      window.cart = sdk.Cart.persistent('USD', { key: 'shop.cart', onChange: (e) => window.events.push({ source: e.source, problem: e.problem?.kind ?? null, lines: window.cart?.lines.length }) });
      return window.cart.lines.length;
    };
    assert.equal(await inPage(a.page, setup), 0);
    assert.equal(await inPage(b.page, setup), 0);

    await inPage(a.page, (sdk, tee) => { window.cart.add(tee, 'v1', 2); }, TEE);
    await b.page.waitForFunction(() => window.events.length >= 1);
    const inB = await b.page.evaluate(() => ({ lines: window.cart.lines.map((l) => [l.variantId, l.quantity]), events: window.events }));
    assert.deepEqual(inB, { lines: [['v1', 2]], events: [{ source: 'storage', problem: null, lines: 1 }] });

    await inPage(b.page, (sdk, tee) => { window.cart.add(tee, 'v2', 3); window.cart.setQuantity('v1', 1); }, TEE);
    await a.page.waitForFunction(() => window.events.filter((e) => e.source === 'storage').length >= 2);
    const inA = await a.page.evaluate(() => window.cart.lines.map((l) => [l.variantId, l.quantity]));
    assert.deepEqual(inA, [['v1', 1], ['v2', 3]]);

    // Another writer puts garbage under the key: the other tab reports it and empties, without throwing.
    await a.page.evaluate(() => localStorage.setItem('shop.cart', '{"version":1,"currency":"USD","lines":"garbage"}'));
    await b.page.waitForFunction(() => window.events.some((e) => e.problem === 'corrupt'));
    assert.equal(await b.page.evaluate(() => window.cart.isEmpty), true);

    // A different key is ignored; clear() in a tab empties the other.
    await inPage(b.page, (sdk, tee) => { window.cart.add(tee, 'v1', 1); }, TEE);
    await a.page.waitForFunction(() => window.cart.lines.length === 1);
    const before = await b.page.evaluate(() => window.events.length);
    await a.page.evaluate(() => localStorage.setItem('unrelated', 'x'));
    await a.page.evaluate(() => localStorage.clear());
    await b.page.waitForFunction(() => window.cart.isEmpty);
    assert.equal(await b.page.evaluate(() => window.events.length), before + 1, 'only the clear() was followed');

    assert.deepEqual([...a.errors, ...b.errors], []);
    await context.close();
  });
});
