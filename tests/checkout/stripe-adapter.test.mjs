// The Stripe adapter's calls into Stripe.js (deferred-intent Payment Element,
// ConfirmationToken, handleNextAction), checked against a recording fake in
// Chromium: real Stripe.js cannot load offline (README: running with test keys).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, openPage, SITE } from "../e2e/harness.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function page() {
  const p = await openPage(browser);
  await p.page.goto(new URL("checkout-test/stripe-adapter.html", SITE).href);
  await p.page.waitForFunction(() => window.ready === true);
  return p;
}

test("mount, amount update, token, next action: the calls Stripe's deferred-intent flow needs", async () => {
  const { context, page: pg, problems } = await page();
  const token = await pg.evaluate(async () => {
    await window.adapter.mount({ publishableKey: "pk_test_fake", amount: 1999, currency: "USD" });
    await window.adapter.updateAmount(2599, "USD");
    const t = await window.adapter.collectToken();
    await window.adapter.handleNextAction("pi_1_secret_2");
    window.adapter.unmount();
    return t;
  });
  assert.equal(token, "ctoken_test_1");
  assert.deepEqual(await pg.evaluate(() => window.calls), [
    ["loadStripe", "pk_test_fake"],
    ["elements", { mode: "payment", amount: 1999, currency: "usd", paymentMethodCreation: "manual" }],
    ["create", "payment", null],
    ["mount", "payment"],
    ["update", { amount: 2599, currency: "usd" }],
    ["submit"],
    ["createConfirmationToken", true],
    ["handleNextAction", "pi_1_secret_2"],
    ["destroy"],
  ]);
  assert.deepEqual(problems, []);
  await context.close();
});

test("errors: incomplete form and token failure reject with Stripe's message; a failed 3-D Secure resolves", async () => {
  const { context, page: pg } = await page();
  const r = await pg.evaluate(async () => {
    const out = {};
    const msg = (p) => p.then(() => null, (e) => e.message);
    out.beforeMount = await msg(window.adapter.collectToken());
    await window.adapter.mount({ publishableKey: "pk_test_fake", amount: 100, currency: "EUR" });
    window.fake.submitError = { type: "validation_error", message: "Your card number is incomplete." };
    out.submit = await msg(window.adapter.collectToken());
    window.fake.submitError = null;
    window.fake.tokenError = { type: "api_error", message: "Token creation failed." };
    out.token = await msg(window.adapter.collectToken());
    window.fake.nextActionError = { type: "card_error", code: "payment_intent_authentication_failure", message: "auth failed" };
    out.authFailed = await msg(window.adapter.handleNextAction("pi_x_secret_y"));
    window.fake.nextActionError = { type: "invalid_request_error", message: "No such payment_intent" };
    out.broken = await msg(window.adapter.handleNextAction("pi_x_secret_y"));
    out.submitsBeforeToken = window.calls.filter((c) => c[0] === "submit").length;
    return out;
  });
  assert.match(r.beforeMount, /before mount/);
  assert.equal(r.submit, "Your card number is incomplete.");
  assert.equal(r.token, "Token creation failed.");
  assert.equal(r.authFailed, null, "a failed authentication is an outcome for the next confirm, not an adapter error");
  assert.equal(r.broken, "No such payment_intent");
  assert.equal(r.submitsBeforeToken, 2, "elements.submit() runs before every createConfirmationToken");
  await context.close();
});

test("a mount into a container that holds another adapter's form replaces that form (issue 31)", async () => {
  const { context, page: pg, problems } = await page();
  const calls = await pg.evaluate(async () => {
    const session = { publishableKey: "pk_test_fake", amount: 100, currency: "USD" };
    await window.adapter.mount(session);
    // The next checkout of a single-page app mounts its own adapter in the same place.
    const next = window.another();
    window.calls.length = 0;
    await next.mount(session);
    window.adapter.unmount(); // the first one's late unmount leaves the new form alone
    const out = [...window.calls];
    next.unmount();
    return out;
  });
  assert.deepEqual(calls, [
    ["loadStripe", "pk_test_fake"],
    ["elements", { mode: "payment", amount: 100, currency: "usd", paymentMethodCreation: "manual" }],
    ["create", "payment", null],
    ["destroy"],
    ["mount", "payment"],
  ]);
  assert.deepEqual(problems, []);
  await context.close();
});
