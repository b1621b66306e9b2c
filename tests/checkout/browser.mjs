// Helpers shared by the browser tests of the checkout (checkout.test.mjs,
// never-twice.test.mjs): the test page (tests/checkout/page.html), cards, the
// server's orders.
import assert from "node:assert/strict";
import { openPage, testHook, SITE, API, API_KEY, LOCALSTRIPE } from "../e2e/harness.mjs";

export const RETURN_URL = new URL("return", SITE).href;
export const CARDS = {
  ok: "4242424242424242",
  threeDs: "4000002760003184",
  threeDsFail: "4000002500003155",
  declined: "4000000000000341",
};
export const ADDRESS = {
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  address1: "1 Analytical Way",
  city: "Springfield",
  postalCode: "12345",
  country: "US",
};

/** The server's orders of one payment session (test hooks). */
export async function ordersOf(sessionId) {
  const { orders } = await testHook("/__test/orders");
  return orders.filter((o) => o.sessionId === sessionId);
}

/** Unwraps a page call's { ok } / { error }. */
export function ok(r, what) {
  assert.ok(!r.error, `${what}: ${JSON.stringify(r.error)}`);
  return r.ok;
}

/** A new browser context with the test page loaded (its tabs share localStorage). */
export async function openCheckoutPage(browser, { init } = {}) {
  const { context, page, problems } = await openPage(browser);
  if (init) await context.addInitScript(init);
  await context.addInitScript((cfg) => { window.__CHECKOUT_TEST = cfg; }, {
    baseUrl: API, apiKey: API_KEY, localstripeUrl: LOCALSTRIPE,
  });
  await page.goto(new URL("checkout-test/page.html", SITE).href);
  await page.waitForFunction(() => window.ready === true).catch((e) => {
    throw new Error(`the test page did not start: ${problems.join("; ") || e.message}`);
  });
  return { context, page, problems };
}

/** Fill the localstripe card form. */
export async function fillCard(page, number) {
  const field = (name) => page.locator(`#card input[placeholder="${name}"]`);
  await field("number").fill(number);
  await field("exp_month").fill("12");
  await field("exp_year").fill("34");
  await field("cvc").fill("123");
  await field("postal_code").fill("12345");
}
