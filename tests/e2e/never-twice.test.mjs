// Issue 23, "the storefront we ship charges twice": the demo's own pages (not a harness
// page), driven as a buyer drives them, in the situations where a checkout kept per tab
// charged twice, and the record rules that keep one checkout per cart: a stale tab's
// cancel, a new tab after success, two orders in a row, and `processing`. Each test counts
// the cart's charges (every PaymentIntent of every session its tabs opened, paged through
// localstripe) and its orders (/__test/orders), and prints them ("figures: …").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SITE, launch, openPage, paymentIntentsOf, pickProduct, testHook } from './harness.mjs';
import { addToCart, fillAddress, fillCard, toPayment } from './shop.mjs';

const RECORD_KEY = 'cirrus-demo-cart:checkout'; // the demo cart's key + ":checkout" (README)
const THANKS = 'Thank you for your order';
const CONFIRMING = /We’re confirming your payment… You will not be charged twice\./;

let browser;
// Products of their own (checkout.test.mjs buys the first ones).
let nextProduct = 20;
before(async () => { browser = await launch(); });
after(async () => {
  await testHook('/__test/processor-faults', { method: 'DELETE' }).catch(() => {});
  await testHook('/__test/processor-processing', { method: 'DELETE' }).catch(() => {});
  await browser?.close();
});

/** A fresh browser (its own storage) and its first tab. */
async function freshBrowser() {
  const { context, page, problems } = await openPage(browser);
  return { context, page, problems };
}

/** Another tab of the same browser, on `path`. */
async function tab(context, path = '/') {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(new URL(path.replace(/^\//, ''), SITE).href);
  return page;
}

/**
 * The session of the cart's checkout record as the tab sees it now (null: none). SDKs before
 * issue 23 kept a checkout per tab in sessionStorage ("cirrus.checkout"): read there too, so
 * these figures also count what that code did.
 */
async function recordSession(page) {
  return page.evaluate((k) => {
    const id = (s) => JSON.parse(s ?? 'null')?.session?.sessionId ?? null;
    return id(localStorage.getItem(k)) ?? id(sessionStorage.getItem('cirrus.checkout'));
  }, RECORD_KEY);
}

/** Every session the cart's tabs opened, collected as the test goes. */
function sessions() {
  const seen = new Set();
  return {
    async note(page) {
      const id = await recordSession(page);
      if (id) seen.add(id);
    },
    get ids() { return [...seen]; },
  };
}

/** The cart's charges (PaymentIntents that took or hold money) and orders over its sessions. */
async function figures(name, ids) {
  const pis = (await Promise.all(ids.map(paymentIntentsOf))).flat();
  const { orders } = await testHook('/__test/orders');
  const ours = orders.filter((o) => ids.includes(o.sessionId));
  const charged = pis.filter((p) => p.status === 'succeeded' || p.status === 'requires_capture');
  console.log(`figures: ${name}: charges ${charged.length}, orders ${ours.length} (sessions ${ids.length}, PaymentIntents ${pis.length})`);
  for (const pi of charged) {
    assert.equal(ours.filter((o) => o.paymentIntentId === pi.id).length, 1, `${name}: exactly one order for ${pi.id}`);
  }
  return { charges: charged.length, orders: ours.length, charged, ours };
}

/** The server captures the next payment but its answer is lost. */
async function loseNextCapture() {
  await testHook('/__test/processor-faults', { method: 'POST', body: JSON.stringify({ op: 'capture', kind: 'lost', times: 1 }) });
}

/** The tab's first confirm goes through; every later one never reaches the server (its network is gone). */
async function networkDropsAfterFirstConfirm(page) {
  let confirms = 0;
  await page.route('**/api/v1/payments/confirm', (route) => (++confirms === 1 ? route.continue() : route.abort('connectionreset')));
}

/**
 * What a buyer does on the checkout page of `page` until the order shows: when a new payment
 * form is there, fill it and pay with `card`; when the bank asks to confirm a payment, confirm
 * it (the localstripe challenge: `challenge` is the button pressed there) and, if that payment
 * fails, pay with `card`. Returns the payment reference of the order shown and what the buyer
 * had to do (`shown`: nothing, the order was there; `confirmed`: a challenge; `paid`: a new payment).
 * Every session it pays into is noted in `s`.
 */
async function buyerFinishes(page, { card = '4242424242424242', challenge = 'Complete authentication', s = null } = {}) {
  const form = page.locator('#continue:not([disabled])');
  const thanksTitle = page.locator('h1', { hasText: THANKS });
  const needsAction = page.locator('#needs-action');
  const modal = page.getByRole('button', { name: 'Complete authentication' });
  await form.or(thanksTitle).or(needsAction).or(modal).first().waitFor({ timeout: 45_000 });
  if (await thanksTitle.isVisible()) return { pi: await thanks(page), did: 'shown' };
  if (await needsAction.isVisible()) {
    await page.locator('#pay').click();
    await page.getByRole('button', { name: challenge }).click();
    await thanksTitle.or(page.locator('#pay-error [role="alert"]')).first().waitFor({ timeout: 30_000 });
    if (await thanksTitle.isVisible()) return { pi: await thanks(page), did: 'confirmed' };
  } else if (await modal.isVisible()) {
    await modal.click(); // the page opened the challenge by itself: the buyer authenticates
    return { pi: await thanks(page), did: 'confirmed' };
  } else {
    await fillAddress(page);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.locator('#payment-element input').first().waitFor();
  }
  await s?.note(page); // the session this payment goes to
  await fillCard(page, card);
  await page.locator('#pay').click();
  return { pi: await thanks(page), did: 'paid' };
}

async function thanks(page, timeout = 45_000) {
  await page.locator('h1', { hasText: THANKS }).waitFor({ timeout });
  return (await page.locator('#payment-ref').textContent()).trim();
}

test('(1) the capture\'s answer is lost and the network drops; the buyer closes the tab and checks out in a new one: one charge, one order', async () => {
  const { context, page: a } = await freshBrowser();
  const s = sessions();
  await toPayment(a, { skip: nextProduct++ });
  await s.note(a);
  await fillCard(a, '4242424242424242');
  await loseNextCapture();
  await networkDropsAfterFirstConfirm(a);
  await a.locator('#pay').click();
  await a.locator('#pay-error').getByText(CONFIRMING).waitFor({ timeout: 30_000 });
  await a.close();
  // A new tab: the shop, the cart drawer, checkout — as the buyer goes there.
  const b = await tab(context, '/');
  await b.locator('#cart-button').click();
  await b.locator('#go-checkout').click();
  const { pi, did } = await buyerFinishes(b, { s }); // a payment form? the buyer pays again
  await s.note(b);
  const f = await figures('situation 1', s.ids);
  assert.equal(f.charges, 1, 'one charge for the cart');
  assert.equal(f.orders, 1, 'and its order');
  assert.equal(f.ours[0].paymentIntentId, pi, 'the new tab shows the order of that charge');
  assert.equal(s.ids.length, 1, 'no second payment session');
  assert.equal(did, 'shown', 'the new tab showed the order, not a payment form');
  await context.close();
});

test('(2) 3-D Secure: the tab goes away during the challenge, a second tab checks the cart out with another card, the first comes back: one charge', async () => {
  const { context, page: a } = await freshBrowser();
  const s = sessions();
  await toPayment(a, { skip: nextProduct++ });
  await s.note(a);
  await fillCard(a, '4000002760003184');
  await a.locator('#pay').click();
  await a.getByRole('button', { name: 'Complete authentication' }).waitFor({ timeout: 30_000 }); // the processor's challenge
  await a.goto(new URL('/', SITE).href); // the buyer navigates that tab away
  // The second tab opens the cart's checkout: the payment waiting for authentication, not a new form.
  const b = await tab(context, '/checkout');
  await b.locator('#needs-action').or(b.locator('#continue')).first().waitFor({ timeout: 30_000 });
  await s.note(b);
  const waited = await b.locator('#needs-action').isVisible();
  // The buyer does not want that card: the challenge is failed, then another card pays.
  const { pi } = await buyerFinishes(b, { challenge: 'Fail authentication', s });
  await s.note(b);
  // The buyer goes back to checkout in the first tab (and authenticates if asked).
  await a.goto(new URL('/checkout', SITE).href);
  const { pi: back } = await buyerFinishes(a, { s });
  await s.note(a);
  const f = await figures('situation 2', s.ids);
  assert.ok(waited, 'the second tab showed the payment waiting for the bank, not a new form');
  assert.equal(back, pi, 'the first tab shows the same order');
  assert.equal(f.charges, 1);
  assert.equal(f.orders, 1);
  assert.equal(s.ids.length, 1, 'one payment session for the cart');
  await context.close();
});

test('a stale tab cannot cancel a payment another tab made: the cancel is refused, one charge, one order', async () => {
  const { context, page: a } = await freshBrowser();
  const s = sessions();
  await toPayment(a, { skip: nextProduct++ });
  await s.note(a);
  // Tab B opens the same checkout while it is at shipping_chosen.
  const b = await tab(context, '/checkout');
  await b.locator('#cancel-checkout').waitFor();
  await fillCard(a, '4242424242424242');
  await loseNextCapture();
  await networkDropsAfterFirstConfirm(a);
  await a.locator('#pay').click();
  await a.locator('#pay-error').getByText(CONFIRMING).waitFor({ timeout: 30_000 });
  // B follows the record: it shows the payment being confirmed and no cancel any more.
  await b.locator('#pay-error').getByText(CONFIRMING).waitFor({ timeout: 30_000 });
  assert.equal(await b.locator('#cancel-checkout').isHidden(), true, 'no cancel while a payment exists');
  // A buyer who pressed cancel in B a moment earlier (the button still there) is refused.
  await b.evaluate(() => document.getElementById('cancel-checkout').click());
  const refusal = await b.locator('#pay-error [role="alert"]').textContent();
  assert.match(refusal, /cannot cancel in checkout state `confirming`/);
  assert.equal(await b.evaluate((k) => JSON.parse(localStorage.getItem(k)).state, RECORD_KEY), 'confirming', 'the record was not written over');
  await a.close();
  const c = await tab(context, '/checkout');
  await thanks(c);
  await s.note(c);
  const f = await figures('stale-tab cancel', s.ids);
  assert.equal(f.charges, 1);
  assert.equal(f.orders, 1);
  assert.equal(s.ids.length, 1);
  await context.close();
});

test('after success every open tab shows the order, a new tab too, and the cart is empty everywhere', async () => {
  const { context, page: a } = await freshBrowser();
  const s = sessions();
  await toPayment(a, { skip: nextProduct++ });
  await s.note(a);
  const b = await tab(context, '/checkout'); // the same checkout, open in a second tab
  await b.locator('#pay').waitFor();
  await fillCard(a, '4242424242424242');
  await a.locator('#pay').click();
  const pi = await thanks(a);
  assert.equal(await thanks(b), pi, 'the other open tab shows the order');
  const c = await tab(context, '/checkout'); // a tab opened afterwards
  assert.equal(await thanks(c), pi, 'a new tab shows the order, not a payment form with the old items');
  for (const p of [a, b, c]) assert.equal(await p.locator('#cart-button .badge').textContent(), '0', 'the cart is empty in every tab');
  await s.note(c);
  const f = await figures('new tab after success', s.ids);
  assert.equal(f.charges, 1);
  assert.equal(f.orders, 1);
  await context.close();
});

test('two orders in a row in one browser: the finished checkout does not block the next one', async () => {
  const { context, page } = await freshBrowser();
  const s = sessions();
  await toPayment(page, { skip: nextProduct++ });
  await s.note(page);
  await fillCard(page, '4242424242424242');
  await page.locator('#pay').click();
  const first = await thanks(page);
  // Shopping on: another product, checkout again.
  const { product, variant } = await pickProduct({ minStock: 3, skip: nextProduct++ });
  await addToCart(page, product, variant, 1);
  await page.locator('#go-checkout').click();
  await page.locator('#pay, #continue').first().waitFor();
  assert.equal(await page.locator('h1', { hasText: THANKS }).count(), 0, 'a new checkout, not the old order');
  await fillAddress(page);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.locator('#payment-element input').first().waitFor();
  const total = await page.locator('[data-total]').textContent();
  await s.note(page);
  await fillCard(page, '4242424242424242');
  await page.locator('#pay').click();
  const second = await thanks(page);
  assert.notEqual(second, first, 'a second payment');
  assert.equal(await page.locator('#order-total').textContent(), total);
  const f = await figures('two orders in a row', s.ids);
  assert.equal(s.ids.length, 2, 'two sessions');
  assert.equal(f.charges, 2, 'one charge per order');
  assert.equal(f.orders, 2);
  await context.close();
});

test('processing: the page says the bank is processing, then shows the order; one charge, one order', async () => {
  const { context, page } = await freshBrowser();
  const s = sessions();
  await toPayment(page, { skip: nextProduct++ });
  await s.note(page);
  await fillCard(page, '4242424242424242');
  await testHook('/__test/processor-processing', { method: 'POST', body: JSON.stringify({ times: 2 }) });
  await page.locator('#pay').click();
  await page.locator('#pay-error').getByText('Your bank is processing the payment… This page updates by itself.').waitFor({ timeout: 30_000 });
  await thanks(page, 60_000);
  const f = await figures('processing', s.ids);
  assert.equal(f.charges, 1);
  assert.equal(f.orders, 1);
  await context.close();
});
