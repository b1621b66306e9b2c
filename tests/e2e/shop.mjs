// The demo storefront's buying steps, as a buyer does them (shared by the e2e tests
// of the checkout): add to cart, the address form, the card form, up to the payment. The
// address and card forms are also the Next.js template's (tests/next/flow.test.mjs).
import assert from 'node:assert/strict';
import { chooseVariant, pickProduct, testHook } from './harness.mjs';

export async function addToCart(page, product, variant, quantity) {
  await chooseVariant(page, product, variant);
  await page.getByLabel('Quantity', { exact: true }).fill(String(quantity));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.locator('#cart-drawer:not([hidden])').waitFor();
}

export async function fillAddress(page, { country = 'US', email = 'buyer@example.com' } = {}) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Address', { exact: true }).fill('1 Analytical Way');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('Postal code').fill('12345');
  await page.getByLabel('Country').selectOption(country);
  await page.locator('#shipping-rates input[type="radio"]').first().waitFor();
}

export async function fillCard(page, number) {
  const pe = page.locator('#payment-element');
  await pe.getByPlaceholder('number').fill(number);
  await pe.getByPlaceholder('exp_month').fill('12');
  await pe.getByPlaceholder('exp_year').fill('34');
  await pe.getByPlaceholder('cvc').fill('123');
  await pe.getByPlaceholder('postal_code').fill('12345');
}

/** Cart with one line, through checkout to the payment form; returns what the page showed. */
export async function toPayment(page, { skip = 0, quantity = 1 } = {}) {
  const { product, variant } = await pickProduct({ minStock: 3, skip });
  await addToCart(page, product, variant, quantity);
  await page.locator('#go-checkout').click();
  await page.locator('h1', { hasText: 'Checkout' }).waitFor();
  await fillAddress(page);
  // shipping options show a price and delivery time
  const firstRate = page.locator('#shipping-rates li').first();
  assert.match(await firstRate.textContent(), /\$\d|Free/);
  assert.match(await firstRate.textContent(), /\d+–\d+ business days/);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.locator('#payment-element input').first().waitFor();
  const total = await page.locator('[data-total]').textContent();
  return { product, variant, total };
}

export async function ordersFor(paymentIntentId) {
  const { orders } = await testHook('/__test/orders');
  return orders.filter((o) => o.paymentIntentId === paymentIntentId);
}

