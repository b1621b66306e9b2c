// Issue 16, "never charge twice, even when an answer is lost or a tab goes
// away": the three situations of the issue and the webhook path, in headless
// Chromium against the dev server and localstripe, through the public API
// only (a persistent Cart and Checkout on tests/checkout/page.html). Each test
// counts the cart's charges in localstripe (every PaymentIntent of every
// session the cart's tabs opened, paged) and its orders in /__test/orders, and
// prints them ("figures: …"). The invariant: charges <= 1, and every charge
// has exactly one order. Also the SDK holes of item 6 that need a browser
// (the localStorage lease fallback).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, api, testHook, pickProduct, paymentIntentsOf } from "../e2e/harness.mjs";
import { RETURN_URL, CARDS, ADDRESS, ok, ordersOf, fillCard, openCheckoutPage } from "./browser.mjs";

let browser;
let currency;
// Products of their own (checkout.test.mjs buys the first ones).
let nextProduct = 12;
before(async () => {
  browser = await launch();
  currency = (await api("/store")).store.defaultCurrency;
});
after(async () => {
  await testHook("/__test/processor-faults", { method: "DELETE" }).catch(() => {});
  await browser?.close();
});

const PAGE = () => new URL("checkout-test/page.html", process.env.E2E_SITE).href;
const COMPLETE = "Complete authentication";

/** A new tab of the same browser context (same localStorage, its own sessionStorage). */
async function newTab(context) {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(PAGE());
  await page.waitForFunction(() => window.ready === true);
  return page;
}

/**
 * Runs `window.t[name](...args)` in the page and waits for it, completing
 * 3-D Secure whenever the localstripe modal asks (the buyer authenticates).
 */
async function run(page, name, args = [], { timeoutMs = 45_000 } = {}) {
  await page.evaluate(([n, a]) => window.t.bg(n, ...a), [name, args]);
  const complete = page.getByRole("button", { name: COMPLETE });
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(() => window.t.bgDone()))) {
    assert.ok(Date.now() < deadline, `${name} did not settle in ${timeoutMs} ms`);
    if (await complete.isVisible().catch(() => false)) await complete.click();
    await page.waitForTimeout(150);
  }
  return page.evaluate(() => window.t.bgResult());
}

/** A fresh cart key and a product for it; the cart holds one unit. */
async function fillCart(page) {
  const key = `cart.issue16.${nextProduct}.${Date.now()}`;
  const { product, variant } = await pickProduct({ minStock: 3, skip: nextProduct++ });
  await page.evaluate(([k, c, p, v]) => window.t.cartFill(k, c, p, v, 1), [key, currency, product, variant.id]);
  return key;
}

/** Checkout of the cart in `page` up to a filled card form (initiated → shipping chosen). */
async function toCard(page, state, card) {
  let s = state;
  if (s.state === "initiated") {
    const options = ok(await page.evaluate(() => window.t.options("US")), "shippingOptions");
    s = ok(await page.evaluate(([id, a]) => window.t.select(id, a), [options[0].rate.id, ADDRESS]), "selectShipping");
  }
  await fillCard(page, card);
  return s;
}

/**
 * What a buyer does in a tab to check out the cart: start; if that is a new
 * checkout, choose shipping, fill the card and pay; if it is a checkout whose
 * payment is unsettled, pay (the SDK carries that payment on). 3-D Secure is
 * completed when asked. Returns the final state and every session seen.
 */
async function buyerChecksOut(page, key, card = CARDS.ok) {
  let s = ok(await run(page, "cartStart", [key, currency]), "start");
  const sessions = [s.session.sessionId];
  if (["initiated", "shipping_chosen"].includes(s.state) || (s.state === "failed" && s.retryable && !s.pending)) {
    await toCard(page, s, card);
    s = ok(await run(page, "pay", [RETURN_URL]), "pay");
  } else if (["confirming", "requires_action", "paying"].includes(s.state)) {
    s = ok(await run(page, "pay", [RETURN_URL]), "pay");
  }
  return { state: s, sessions };
}

/** The cart's charges (PaymentIntents that took or hold money) and orders, over its sessions. */
async function figures(sessions) {
  const ids = [...new Set(sessions)];
  const pis = (await Promise.all(ids.map(paymentIntentsOf))).flat();
  const orders = (await Promise.all(ids.map(ordersOf))).flat();
  const charged = pis.filter((p) => p.status === "succeeded" || p.status === "requires_capture");
  return { sessions: ids.length, paymentIntents: pis.length, charges: charged.length, orders: orders.length, charged, all: orders };
}

function assertInvariant(name, f) {
  console.log(`figures: ${name}: charges ${f.charges}, orders ${f.orders} (sessions ${f.sessions}, PaymentIntents ${f.paymentIntents})`);
  assert.ok(f.charges <= 1, `${name}: at most one charge for the cart, got ${f.charges}`);
  assert.equal(f.orders, f.charges, `${name}: every charge has exactly one order (charges ${f.charges}, orders ${f.orders})`);
  for (const pi of f.charged) {
    assert.equal(f.all.filter((o) => o.paymentIntentId === pi.id).length, 1, `${name}: one order for ${pi.id}`);
  }
}

/** The server's capture of the next payment is carried out but its answer lost. */
async function loseNextCapture() {
  await testHook("/__test/processor-faults", { method: "POST", body: JSON.stringify({ op: "capture", kind: "lost", times: 1 }) });
}

/** The tab's first confirm goes through; every later one never reaches the server (its network is gone). */
async function onlyFirstConfirmGetsThrough(page) {
  const seen = { confirms: 0 };
  await page.route("**/api/v1/payments/confirm", (route) => {
    seen.confirms++;
    return seen.confirms === 1 ? route.continue() : route.abort("connectionreset");
  });
  return seen;
}

/** Tab A pays the cart with 4242 while the capture's answer is lost and A cannot reach the server again. */
async function payWithTheAnswerLost(page, key) {
  const started = ok(await run(page, "cartStart", [key, currency]), "start in tab A");
  await toCard(page, started, CARDS.ok);
  await loseNextCapture();
  const seen = await onlyFirstConfirmGetsThrough(page);
  const s = ok(await run(page, "pay", [RETURN_URL]), "pay in tab A");
  assert.ok(seen.confirms >= 1);
  // Never "declined" nor "check your card": the outcome is unknown.
  assert.notEqual(s.code, "declined", JSON.stringify(s));
  return { state: s, sessionId: started.session.sessionId };
}

test("(1) the capture's answer is lost, the buyer closes the tab and checks the cart out in a new one: one charge, one order", async () => {
  const { context, page: a } = await openCheckoutPage(browser);
  const key = await fillCart(a);
  const first = await payWithTheAnswerLost(a, key);
  console.log(`tab A's pay() ended ${first.state.state}${first.state.code ? ` (${first.state.code}/${first.state.errorCode})` : ""}`);
  await a.close();
  const b = await newTab(context);
  const second = await buyerChecksOut(b, key);
  const f = await figures([first.sessionId, ...second.sessions]);
  assertInvariant("situation 1", f);
  assert.equal(second.state.state, "succeeded", JSON.stringify(second.state));
  assert.equal(f.charges, 1, "the lost capture's charge is the cart's one charge");
  await context.close();
});

test("(2) the capture's answer is lost, the buyer reloads and resumes: the payment is settled, one charge, one order", async () => {
  const { context, page: a } = await openCheckoutPage(browser);
  const key = await fillCart(a);
  const first = await payWithTheAnswerLost(a, key);
  await a.unroute("**/api/v1/payments/confirm");
  await a.reload();
  await a.waitForFunction(() => window.ready === true);
  const resumed = ok(await run(a, "cartResume", [key, currency]), "resume");
  const f = await figures([first.sessionId]);
  assertInvariant("situation 2", f);
  assert.equal(resumed.state, "succeeded", JSON.stringify(resumed));
  assert.equal(f.charges, 1);
  await context.close();
});

test("(3) tab A in 3-D Secure navigates away, tab B checks the cart out, A comes back and completes authentication: one charge", async () => {
  const { context, page: a } = await openCheckoutPage(browser);
  const key = await fillCart(a);
  const started = ok(await run(a, "cartStart", [key, currency]), "start in tab A");
  await toCard(a, started, CARDS.threeDs);
  await a.evaluate((u) => window.t.bg("pay", u), RETURN_URL);
  await a.getByRole("button", { name: COMPLETE }).waitFor();
  // A bank redirect: the page goes away in the middle of 3-D Secure.
  await a.goto("about:blank");
  const b = await newTab(context);
  const other = await buyerChecksOut(b, key);
  assert.equal(other.state.state, "succeeded", JSON.stringify(other.state));
  // A comes back and finishes what it left (authenticating if asked).
  await a.goto(PAGE());
  await a.waitForFunction(() => window.ready === true);
  const back = ok(await run(a, "cartResume", [key, currency]), "resume in tab A");
  const f = await figures([started.session.sessionId, ...other.sessions]);
  assertInvariant("situation 3", f);
  assert.equal(back.state, "succeeded", JSON.stringify(back));
  await context.close();
});

test("webhook: a payment whose confirm never comes back (the tab is gone) is settled by the server: one charge, one order", async () => {
  const { context, page: a } = await openCheckoutPage(browser);
  const key = await fillCart(a);
  const started = ok(await run(a, "cartStart", [key, currency]), "start");
  await toCard(a, started, CARDS.ok);
  await loseNextCapture();
  const seen = await onlyFirstConfirmGetsThrough(a);
  await a.evaluate((u) => window.t.bg("pay", u), RETURN_URL);
  // The first confirm's answer (a processor error: the capture timed out) comes back, then the tab closes.
  const deadline = Date.now() + 30_000;
  while (seen.confirms < 2 && Date.now() < deadline) await a.waitForTimeout(50);
  await context.close();
  const sessionId = started.session.sessionId;
  // localstripe sends payment_intent.succeeded about 1 s after the capture.
  let f;
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
    f = await figures([sessionId]);
    if (f.orders > 0) break;
  }
  assertInvariant("webhook", f);
  assert.equal(f.charges, 1, "the card was charged (the capture was carried out)");
});

/** Two tabs of one context without the Web Locks API (the localStorage lease), each with the page loaded. */
async function leaseTabs({ sharedTabId } = {}) {
  const { context, page: a } = await openCheckoutPage(browser);
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, "locks", { get: () => undefined, configurable: true }));
  if (sharedTabId) {
    // A duplicated tab: the browser copies sessionStorage, whatever the SDK kept there.
    await context.addInitScript((id) => sessionStorage.setItem("cirrus.checkout.tab", id), sharedTabId);
  }
  await a.reload();
  await a.waitForFunction(() => window.ready === true);
  const b = await newTab(context);
  for (const p of [a, b]) assert.equal(await p.evaluate(() => typeof navigator.locks), "undefined");
  return { context, a, b };
}

test("lease fallback: a tab whose lease expired and went to another tab no longer holds the lock", async () => {
  const { context, a } = await leaseTabs();
  const { variant } = await pickProduct({ minStock: 1, skip: nextProduct++ });
  const items = [{ variantId: variant.id, quantity: 1 }];
  const started = ok(await a.evaluate(([i, c]) => window.t.start(i, c), [items, currency]), "start in tab A");
  await toCard(a, started, CARDS.ok);
  // A's timers were throttled: its lease ran out and another tab took it.
  await a.evaluate(() => localStorage.setItem("cirrus.checkout.lock:cirrus.checkout", JSON.stringify({ owner: "tab-other", until: Date.now() + 15000 })));
  const refused = await a.evaluate((u) => window.t.pay(u), RETURN_URL);
  assert.equal(refused.error && refused.error.code, "invalid_state", JSON.stringify(refused));
  assert.match(refused.error.message, /a checkout for this cart is in progress in another tab/);
  assert.equal((await paymentIntentsOf(started.session.sessionId)).length, 0, "no payment was created");
  await context.close();
});

test("lease fallback: duplicated tabs (sessionStorage copied) do not share an owner id", async () => {
  const { context, a, b } = await leaseTabs({ sharedTabId: "tab-duplicated" });
  const { variant } = await pickProduct({ minStock: 1, skip: nextProduct++ });
  const items = [{ variantId: variant.id, quantity: 1 }];
  ok(await a.evaluate(([i, c]) => window.t.start(i, c), [items, currency]), "start in tab A");
  // A new checkout (other items) needs the lock: the duplicated tab is another owner.
  const { variant: other } = await pickProduct({ minStock: 1, skip: nextProduct++ });
  const second = await b.evaluate(([i, c]) => window.t.start(i, c), [[{ variantId: other.id, quantity: 1 }], currency]);
  assert.equal(second.error && second.error.code, "invalid_state", JSON.stringify(second));
  assert.match(second.error.message, /a checkout for this cart is in progress in another tab/);
  await context.close();
});
