// Cart and checkout in the browser: the cart kept over a reload, a full
// purchase with 4242, the 3-D Secure path, and a decline followed by a
// successful retry. Orders are checked on the server (GET /__test/orders) and
// payments on localstripe itself: every PaymentIntent of the order's session,
// paged through (harness.mjs allPaymentIntents), counted and their amount checked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, cents, launch, paymentIntentsOf, shot, usd, usePage } from './harness.mjs';
import { addToCart, fillCard, ordersFor, toPayment } from './shop.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const withPage = (opts, fn) => usePage(browser, opts, fn);

/**
 * The payment `pi` the page reported: exactly one order for it, and its session's
 * PaymentIntents on localstripe: `count` in all, exactly one succeeded, and that one is
 * `pi`, for the order's amount, which is the total the page showed.
 */
async function paidOnce(pi, total, count) {
  assert.match(pi, /^pi_/);
  const orders = await ordersFor(pi);
  assert.equal(orders.length, 1, 'one order for the payment');
  const pis = await paymentIntentsOf(orders[0].sessionId);
  assert.equal(pis.length, count, `PaymentIntents of the session: ${JSON.stringify(pis.map((p) => [p.id, p.status, p.amount]))}`);
  const paid = pis.filter((p) => p.status === 'succeeded');
  assert.equal(paid.length, 1, 'exactly one successful payment');
  assert.equal(paid[0].id, pi, 'the page reported the payment that succeeded');
  assert.equal(paid[0].amount, orders[0].amount, 'charged the order amount');
  assert.equal(usd(paid[0].amount), total, 'charged what the page showed');
  return orders[0];
}

describe('cart', () => {
  test('cart lines, totals and savings follow the cart helpers, and survive a reload', async () => {
    const { products } = await api('/products?limit=200');
    // a variant with a compare-at price above its price, to see savings
    const pick = products.flatMap((p) => p.options.length ? p.variants.filter((v) => v.stockQuantity >= 4).map((v) => ({ product: p, variant: v })) : [])
      .find(({ variant: v }) => v.compareAtPrice !== null && cents(v.compareAtPrice) > cents(v.price));
    assert.ok(pick, 'the seed has an in-stock variant (4+) with a compare-at price above its price');
    const { product, variant } = pick;
    const unit = cents(variant.price);
    await withPage({ width: 390, height: 844 }, async (page) => {
      await addToCart(page, product, variant, 2);
      const line = page.locator(`#cart-drawer li[data-variant="${variant.id}"]`);
      assert.equal(await line.locator('input.line-qty').inputValue(), '2');
      assert.equal(await line.locator('[data-line-total]').textContent(), usd(unit * 2));
      assert.equal(await page.locator('#cart-drawer [data-subtotal]').textContent(), usd(unit * 2));
      assert.equal(await page.locator('#cart-drawer [data-savings]').textContent(), usd((cents(variant.compareAtPrice) - unit) * 2));
      await shot(page, 'cart-390');
      await page.reload();
      await page.locator('#product-grid > li, article.product').first().waitFor();
      assert.equal(await page.locator('#cart-button .badge').textContent(), '2');
      await page.locator('#cart-button').click();
      await line.waitFor();
      assert.equal(await line.locator('input.line-qty').inputValue(), '2', 'quantity kept over the reload');
      // + raises the quantity; the totals follow
      await line.getByRole('button', { name: `Increase quantity of ${product.name}` }).click();
      await page.waitForFunction((id) => document.querySelector(`#cart-drawer li[data-variant="${id}"] input.line-qty`)?.value === '3', variant.id);
      assert.equal(await page.locator('#cart-drawer [data-subtotal]').textContent(), usd(unit * 3));
      // keyboard: Escape closes the drawer and gives focus back to the cart button
      await page.keyboard.press('Escape');
      await page.locator('#cart-drawer').waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'cart-button');
      // remove empties the cart
      await page.locator('#cart-button').click();
      await line.getByRole('button', { name: /Remove/ }).click();
      await page.getByText('Your cart is empty.').waitFor();
      await page.reload();
      await page.locator('#product-grid > li, article.product').first().waitFor();
      assert.equal(await page.locator('#cart-button .badge').textContent(), '0');
    });
  });
});

describe('checkout', () => {
  test('full purchase with 4242: order summary, order recorded once', async () => {
    await withPage({}, async (page) => {
      const { variant, total } = await toPayment(page, { quantity: 2 });
      await shot(page, 'checkout-1280');
      await fillCard(page, '4242424242424242');
      await page.locator('#pay').click();
      await page.locator('h1', { hasText: 'Thank you for your order' }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('#order-total').textContent(), total);
      const pi = (await page.locator('#payment-ref').textContent()).trim();
      const order = await paidOnce(pi, total, 1);
      assert.deepEqual(order.items, [{ variantId: variant.id, quantity: 2 }]);
      assert.equal(await page.locator('#cart-button .badge').textContent(), '0', 'the cart is emptied');
      await shot(page, 'order-1280');
    });
  });

  test('3-D Secure: the authentication step, then success', async () => {
    await withPage({ width: 390, height: 844 }, async (page) => {
      const { total } = await toPayment(page, { skip: 1 });
      await fillCard(page, '4000002760003184');
      await page.locator('#pay').click();
      const complete = page.getByRole('button', { name: 'Complete authentication' });
      await complete.waitFor({ timeout: 30_000 });
      await shot(page, 'three-d-secure-390');
      await complete.click();
      await page.locator('h1', { hasText: 'Thank you for your order' }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('#order-total').textContent(), total);
      const pi = (await page.locator('#payment-ref').textContent()).trim();
      await paidOnce(pi, total, 1); // the authenticated PaymentIntent, and no other
    });
  });

  test('an answer that never comes back: "We’re confirming your payment…", never "check your card"; then the order, one charge', async () => {
    await withPage({}, async (page) => {
      const { total } = await toPayment(page, { skip: 3 });
      await fillCard(page, '4242424242424242');
      // The server processes every confirm; the browser never sees an answer (the SDK's own re-confirms included).
      let confirms = 0;
      await page.route('**/api/v1/payments/confirm', async (route) => {
        confirms++;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await page.locator('#pay').click();
      // Meanwhile (and after) the page says it is confirming; the SDK re-confirms three times, with backoff.
      for (const until = Date.now() + 30_000; confirms < 4 && Date.now() < until;) await page.waitForTimeout(100);
      await page.waitForFunction(() => {
        const b = document.querySelector('#pay');
        return b?.textContent === 'Check payment status' && !b.disabled;
      }, null, { timeout: 30_000 });
      await page.waitForTimeout(500);
      assert.equal(confirms, 4, 'the confirm and three re-confirms of the same payment, then it stops');
      const box = page.locator('#pay-error');
      assert.match(await box.textContent(), /We’re confirming your payment…/);
      assert.doesNotMatch(await box.textContent(), /check (the|your) card|failed|declined/i);
      assert.doesNotMatch(await page.locator('main').textContent(), /check (the|your) card|payment failed/i);
      await page.unroute('**/api/v1/payments/confirm');
      await page.locator('#pay').click();
      await page.locator('h1', { hasText: 'Thank you for your order' }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('#order-total').textContent(), total);
      const pi = (await page.locator('#payment-ref').textContent()).trim();
      await paidOnce(pi, total, 1); // one PaymentIntent for five confirms
    });
  });

  test('a decline shows the reason, and a retry with another card succeeds', async () => {
    await withPage({}, async (page) => {
      const { total } = await toPayment(page, { skip: 2 });
      await fillCard(page, '4000000000000341');
      await page.locator('#pay').click();
      const alert = page.locator('#pay-error [role="alert"]');
      await alert.waitFor({ timeout: 30_000 });
      assert.match(await alert.textContent(), /declined/i);
      await shot(page, 'declined-1280');
      assert.equal(await page.locator('#pay').isEnabled(), true, 'pay again is possible');
      await fillCard(page, '4242424242424242');
      await page.locator('#pay').click();
      await page.locator('h1', { hasText: 'Thank you for your order' }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('#order-total').textContent(), total);
      const pi = (await page.locator('#payment-ref').textContent()).trim();
      await paidOnce(pi, total, 2); // the declined attempt and the paid one
    });
  });
});
