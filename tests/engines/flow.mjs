// The demo's buyer flow through WebDriver, the same in every engine: the product grid, a
// product's options, add to cart, the cart in a second tab (and a change there seen in the
// first), a checkout with 4242, one with 3-D Secure, and a decline. Each step is a function of
// the session; text is read by script everywhere (WebKit's "get element text" fails on the
// checkout page: localstripe's fake Stripe.js declares a global `class Element`).
import assert from 'node:assert/strict';
import { cents, paymentIntentsOf, pickProduct, SITE, usd, viewUrl } from '../e2e/harness.mjs';
import { ordersFor } from '../e2e/shop.mjs';

/**
 * Installed in every document the flow opens: uncaught errors, unhandled rejections and
 * Content-Security-Policy violations are kept in `window.__problems`. (WebDriver classic
 * has no script that runs before the page's own: what happens during the first load of a
 * document is seen through what the page then shows, and the CSP test's page records from
 * its first script on.)
 */
const PROBE = `
  if (!window.__problems) {
    window.__problems = [];
    window.addEventListener('error', (e) => window.__problems.push('error: ' + e.message));
    window.addEventListener('unhandledrejection', (e) => window.__problems.push('unhandled rejection: ' + (e.reason && e.reason.message || String(e.reason))));
    document.addEventListener('securitypolicyviolation', (e) => window.__problems.push('CSP: ' + e.violatedDirective + ' ' + e.blockedURI));
  }`;

/** A CSS attribute value, quoted (ids and option names from the seed). */
const q = (v) => JSON.stringify(String(v));

/** What the demo shows when something failed (a view's error state). */
const FAILED = /Something went wrong|is not usable|invalid_argument/;

export class Flow {
  constructor(session) {
    this.s = session;
    /** Problems seen in every document so far. */
    this.problems = [];
    /** What the page showed, for the report (navigator.language, a price). */
    this.seen = {};
  }

  /** The current document's problems move to `this.problems`. */
  async collect() {
    const got = await this.s.execute('const p = window.__problems || []; window.__problems = []; return p;').catch(() => []);
    this.problems.push(...got);
  }

  async go(url) {
    await this.collect();
    await this.s.navigate(url);
    await this.s.execute(PROBE);
  }

  text(css) { return this.s.execute('const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;', css); }

  waitText(what, css, re, timeout) {
    return this.s.waitFor(what, 'const e = document.querySelector(arguments[0]); const t = e ? e.textContent.trim() : ""; return new RegExp(arguments[1], arguments[2]).test(t) && t;',
      { args: [css, re.source, re.flags], timeout });
  }

  async visible(css, timeout) {
    await this.s.waitFor(`${css} shown`, 'const e = document.querySelector(arguments[0]); return !!e && !e.closest("[hidden]") && e.getClientRects().length > 0;', { args: [css], timeout });
    return this.s.find(css);
  }

  /** The page is not in an error state (it would say so in the main region or a status). */
  async noFailureShown() {
    const body = await this.s.execute('return document.body.innerText;');
    assert.doesNotMatch(body, FAILED, 'the page shows no failure');
  }

  async click(css) { await this.s.click(await this.visible(css)); }

  async fill(css, value) {
    const el = await this.visible(css);
    await this.s.clear(el);
    await this.s.type(el, value);
  }

  /** Choose `value` in the <select> `css` (a click on its option, as a user's pick). */
  async choose(css, value) {
    await this.visible(css);
    const option = await this.s.find(`${css} option[value=${q(value)}]`);
    await this.s.click(option);
    await this.s.waitFor(`${css} = ${value}`, 'return document.querySelector(arguments[0]).value === arguments[1];', { args: [css, value] });
  }

  // ---------------------------------------------------------------- the steps

  async grid() {
    await this.go(SITE);
    await this.s.waitFor('the product grid', 'return document.querySelectorAll("#product-grid > li").length;');
    const price = await this.s.waitFor('a price in the grid', 'const e = document.querySelector("#product-grid > li .price, #product-grid > li [class*=price]"); return e && e.textContent.trim();');
    this.seen.language = await this.s.execute('return navigator.language;');
    // The checkout's cross-tab lock is the Web Locks API (README: "One tab acts at a time").
    assert.equal(await this.s.execute('return typeof (navigator.locks && navigator.locks.request);'), 'function', 'navigator.locks is there');
    this.seen.gridPrice = price;
    assert.match(price, /\$\d+\.\d\d/, `a grid price shows as dollars: ${price}`);
    await this.noFailureShown();
  }

  /** Open `product`, pick `variant`'s options; the price shown is the variant's. */
  async options(product, variant) {
    await this.go(await viewUrl('product', product.slug));
    await this.waitText('the product page', 'h1', new RegExp(product.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    for (const o of [...product.options].sort((a, b) => a.position - b.position)) {
      await this.choose(`select[data-option=${q(o.name)}]`, variant.attributes[o.name]);
    }
    const unit = usd(cents(variant.price));
    await this.s.waitFor(`the price ${unit}`, 'return document.querySelector("main").textContent.includes(arguments[0]);', { args: [unit] });
    await this.noFailureShown();
  }

  async add(variant, quantity) {
    await this.fill('#qty', String(quantity));
    await this.click('#add-to-cart');
    await this.visible(`#cart-drawer li[data-variant=${q(variant.id)}]`);
    const line = await this.text(`#cart-drawer li[data-variant=${q(variant.id)}] [data-line-total]`);
    assert.equal(line, usd(cents(variant.price) * quantity), 'the line total');
    this.seen.cartLine ??= line; // the first cart's line
    await this.noFailureShown();
  }

  /** The cart in a second tab; a change there is seen in the first. Ends in the first tab. */
  async twoTabs(variant, quantity) {
    const first = await this.s.window();
    await this.collect();
    const second = await this.s.newWindow();
    await this.s.switchTo(second);
    await this.go(SITE);
    await this.waitText('the second tab sees the cart', '#cart-button .badge', new RegExp(`^${quantity}$`));
    await this.click('#cart-button');
    const sel = `#cart-drawer li[data-variant=${q(variant.id)}]`;
    await this.visible(sel);
    await this.click(`${sel} button[aria-label^="Increase quantity"]`);
    await this.s.waitFor('the second tab raised the quantity', 'return document.querySelector(arguments[0] + " input.line-qty").value === arguments[1];', { args: [sel, String(quantity + 1)] });
    await this.collect();
    await this.s.closeWindow();
    await this.s.switchTo(first);
    await this.waitText('the first tab follows the second', '#cart-button .badge', new RegExp(`^${quantity + 1}$`));
    await this.waitText('and its drawer', `${sel} [data-line-total]`, new RegExp(`^${usd(cents(variant.price) * (quantity + 1)).replace(/[$.]/g, '\\$&')}$`));
    await this.noFailureShown();
  }

  /** From the open cart drawer to the payment form; the total the page shows. */
  async toPayment() {
    await this.click('#go-checkout');
    await this.waitText('the checkout page', 'h1', /Checkout/);
    await this.fill('#email', 'buyer@example.com');
    await this.fill('#firstName', 'Ada');
    await this.fill('#lastName', 'Lovelace');
    await this.fill('#address1', '1 Analytical Way');
    await this.fill('#city', 'Springfield');
    await this.fill('#postalCode', '12345');
    await this.choose('#country', 'US');
    await this.visible('#shipping-rates input[type="radio"]');
    await this.click('#continue');
    await this.visible('#payment-element input');
    const total = await this.waitText('the total', '[data-total]', /^\$\d/);
    await this.noFailureShown();
    return total;
  }

  /** localstripe's card form (in `container`), filled as a buyer types. */
  async card(number, container = '#payment-element') {
    for (const [ph, v] of [['number', number], ['exp_month', '12'], ['exp_year', '34'], ['cvc', '123'], ['postal_code', '12345']]) {
      await this.fill(`${container} input[placeholder="${ph}"]`, v);
    }
  }

  /** The order page after a payment: one order for the payment, charged what the page showed. */
  async paid(total) {
    await this.waitText('the order page', 'h1', /Thank you for your order/, 30_000);
    assert.equal(await this.text('#order-total'), total, 'the order total is the checkout total');
    const pi = await this.text('#payment-ref');
    assert.match(pi, /^pi_/);
    const orders = await ordersFor(pi);
    assert.equal(orders.length, 1, 'one order for the payment');
    assert.equal(usd(orders[0].amount), total, 'the order is for what the page showed');
    const pis = (await paymentIntentsOf(orders[0].sessionId)).filter((p) => p.status === 'succeeded');
    assert.deepEqual(pis.map((p) => [p.id, usd(p.amount)]), [[pi, total]], 'exactly one successful charge, of the total');
    await this.waitText('the cart is emptied', '#cart-button .badge', /^0$/);
    await this.noFailureShown();
  }

  async pay4242() {
    const total = await this.toPayment();
    this.seen.checkoutTotal = total;
    await this.card('4242424242424242');
    await this.click('#pay');
    await this.paid(total);
  }

  /** A new cart of `variant` (its product page), to its payment form; the total. */
  async buyAgain(product, variant) {
    await this.options(product, variant);
    await this.add(variant, 1);
    return this.toPayment();
  }

  async threeDSecure(product, variant) {
    const total = await this.buyAgain(product, variant);
    await this.card('4000002760003184');
    await this.click('#pay');
    const button = 'const b = [...document.querySelectorAll("button")].find((x) => x.textContent.trim() === "Complete authentication"); return b && b.getClientRects().length > 0 ? b : null;';
    const complete = await this.s.waitFor('the 3-D Secure step', button, { timeout: 30_000 });
    await this.s.click(Object.values(complete)[0]);
    await this.paid(total);
  }

  async decline(product, variant) {
    await this.buyAgain(product, variant);
    await this.card('4000000000000341');
    await this.click('#pay');
    const said = await this.waitText('the decline', '#pay-error [role="alert"]', /./, 30_000);
    assert.match(said, /declined/i, 'the decline says so');
    assert.equal(await this.s.execute('return document.querySelector("#pay").disabled;'), false, 'paying again is possible');
    this.seen.decline = said;
  }
}

/** The products the flow buys (each engine buys two units of the first, one of the second; 10+ in stock). */
export async function flowProducts() {
  return Promise.all([0, 1, 2].map((skip) => pickProduct({ minStock: 10, skip })));
}

/**
 * The flow's steps in order, as [name, fn(flow)]: a step runs only if the ones before passed.
 */
export function steps([a, b, c]) {
  return [
    ['grid', (f) => f.grid()],
    ['options', (f) => f.options(a.product, a.variant)],
    ['add', (f) => f.add(a.variant, 1)],
    ['cart in two tabs', (f) => f.twoTabs(a.variant, 1)],
    ['checkout 4242', (f) => f.pay4242()],
    ['3-D Secure', (f) => f.threeDSecure(b.product, b.variant)],
    ['decline', (f) => f.decline(c.product, c.variant)],
  ];
}
