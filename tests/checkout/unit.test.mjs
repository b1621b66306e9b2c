// Checkout's orchestration (the Rust class, src/wasm/checkout.rs) in node against the built package
// (CHECKOUT_PKG, set by scripts/test.d/60-checkout.sh), with a fake client,
// adapter and storage that record the order of every call: the guarantees
// that do not need a real processor, checked call by call.
import { test, before } from "node:test";
import assert from "node:assert/strict";

const lib = await import(`${process.env.CHECKOUT_PKG}/node.js`);
before(() => lib.init());

const URL = "https://shop.example/return";
const ADDRESS = { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", address1: "1 A St", city: "X", postalCode: "1", country: "US" };
/** A store as the API answers it (`client.store()`), selling in USD. */
const STORE = {
  id: "s", name: "Shop", defaultCurrency: "USD", contactEmail: "a@b.c", frontendDomain: "shop.example", logoUrl: "", logoHeightDesktop: 1,
  logoHeightMobile: 1, headerPaddingDesktop: 1, headerPaddingMobile: 1, faviconUrl: "", emailLogoUrl: "", processingTimeMin: 1, processingTimeMax: 2,
  shippingTimeMin: 1, shippingTimeMax: 2, returnPeriodDays: 30, refundTimeMin: 1, refundTimeMax: 2, businessHoursWeekdayOpen: "09:00",
  businessHoursWeekdayClose: "17:00", businessHoursWeekendOpen: "10:00", businessHoursWeekendClose: "14:00", routeProducts: "/products",
  routeCollections: "/collections", routePages: "/pages", homeMetaTitle: "Shop", homeMetaDescription: "A shop",
};
const err = (code, message) => new lib.CirrusError(message, { code, status: null, requestId: null, retryAfter: null });

/** A fake world: every call is logged in order; `confirm` answers from a queue. */
function world({ confirms = [{ status: "succeeded" }] } = {}) {
  const log = [];
  const data = new Map();
  const storage = {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => { log.push(["store", k.endsWith(":unreadable") ? v : JSON.parse(v)]); data.set(k, v); },
    removeItem: (k) => { data.delete(k); },
  };
  const client = {
    async initiatePayment(body) {
      log.push(["initiate", body]);
      return { processor: "stripe", sessionId: "ps_1", publishableKey: "pk_test", amount: 1000, currency: "USD", breakdown: { subtotal: 1000, shipping: 0, tax: 0, total: 1000 } };
    },
    async shippingRates(body) {
      log.push(["rates", body]);
      const rate = (id, price) => ({ id, name: id, price, deliveryDescription: "", deliveryTimeframeMin: 1, deliveryTimeframeMax: 2, minOrderPrice: null, maxOrderPrice: null, extra: "dropped" });
      return [{ variantId: "v1", profileId: "p", rates: [rate("express", "9.00"), rate("std", "5.00")] }];
    },
    async updatePayment(body) {
      log.push(["update", body]);
      return { sessionId: "ps_1", amount: 1500, currency: "USD", breakdown: { subtotal: 1000, shipping: 500, tax: 0, total: 1500 } };
    },
    async confirmPayment(body) {
      log.push(["confirm", body]);
      const next = confirms.shift() ?? { status: "succeeded" };
      if (next instanceof Error) throw next;
      return { success: next.status === "succeeded", clientSecret: null, paymentIntentId: "pi_1", error: null, ...next };
    },
  };
  let tokens = 0;
  const adapter = {
    async mount(s) { log.push(["mount", s]); },
    async updateAmount(a, c) { log.push(["amount", a, c]); },
    async collectToken() { tokens++; log.push(["token"]); return `tok_${tokens}`; },
    async handleNextAction(secret) { log.push(["action", secret]); },
  };
  const opts = { adapter, storage };
  return { log, data, storage, client, adapter, opts, calls: (k) => log.filter((e) => e[0] === k) };
}

async function readyToPay(w) {
  const c = await lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  const options = await c.shippingOptions("US");
  assert.deepEqual(options.map((o) => [o.rate.id, o.price, o.estimatedTotal]), [["std", 500, 1500], ["express", 900, 1900]]);
  assert.equal("extra" in options[0].rate, false, "rates carry exactly the ShippingRate members");
  await c.selectShipping("std", ADDRESS);
  return c;
}

test("the in-flight state is stored before the confirm is sent; then succeeded", async () => {
  const w = world();
  const c = await readyToPay(w);
  const events = [];
  c.subscribe((s) => events.push(s.state));
  const s = await c.pay({ returnUrl: URL });
  assert.equal(s.state, "succeeded");
  assert.equal(s.paymentIntentId, "pi_1");
  const i = w.log.findIndex((e) => e[0] === "confirm");
  const stored = w.log.slice(0, i).filter((e) => e[0] === "store").at(-1)[1];
  assert.equal(stored.state, "paying");
  assert.equal(stored.attempt.confirmInFlight, true);
  assert.equal(stored.attempt.token, "tok_1");
  assert.deepEqual(w.calls("confirm")[0][1], { sessionId: "ps_1", confirmationTokenId: "tok_1", shippingRateId: "std", shippingAddress: ADDRESS, returnUrl: URL });
  assert.deepEqual(events, ["paying", "succeeded"]);
  assert.deepEqual(w.calls("amount"), [["amount", 1500, "USD"]]);
  const { version, revision, ...kept } = JSON.parse(w.data.get("cirrus.checkout"));
  assert.equal(version, 1, "the stored form is versioned");
  assert.equal(revision, 4, "each write a new revision: initiated, shipping_chosen, paying, succeeded");
  const { canSelectShipping, canPay, canCancel, ...members } = c.state;
  assert.deepEqual({ canSelectShipping, canPay, canCancel }, { canSelectShipping: false, canPay: false, canCancel: false }, "paid: nothing left to do");
  assert.deepEqual(kept, members, "storage holds the current state (what a page may do is given with it, not stored)");
  assert.notEqual(c.state, c.state, "a fresh object each time");
});

test("single flight: one promise, one token, one confirm; shipping and cancel refused meanwhile", async () => {
  let release;
  const w = world();
  const c = await readyToPay(w);
  const slow = w.client.confirmPayment;
  w.client.confirmPayment = async (b) => { await new Promise((r) => { release = r; }); return slow(b); };
  const a = c.pay({ returnUrl: URL });
  const b = c.pay({ returnUrl: URL });
  assert.equal(a, b, "the same promise");
  assert.throws(() => c.cancel(), (e) => e.code === "invalid_state" && /payment is in progress/.test(e.message));
  await assert.rejects(c.selectShipping("std", ADDRESS), (e) => e.code === "invalid_state");
  while (!release) await new Promise((r) => setTimeout(r, 1));
  release();
  assert.equal((await a).state, "succeeded");
  assert.equal(w.calls("token").length, 1);
  assert.equal(w.calls("confirm").length, 1);
  await assert.rejects(c.pay({ returnUrl: URL }), (e) => e.code === "invalid_state" && /`succeeded`/.test(e.message));
});

test("a lost confirm is an unknown outcome, not a failure: confirmed again by itself, then by pay() and resume(), never a new token", async () => {
  // One failure more than the SDK's own re-confirms (3): the outcome stays unknown.
  const lost = [err("network", "connection reset"), err("http", "503"), err("timeout", "slow"), err("processor_error", "the payment processor is unreachable; try again")];
  const w = world({ confirms: [...lost] });
  const c = await readyToPay(w);
  const t0 = Date.now();
  const s = await c.pay({ returnUrl: URL });
  assert.equal(s.state, "confirming", JSON.stringify(s));
  assert.equal(s.errorCode, "processor_error");
  assert.equal(s.attempt.token, "tok_1");
  assert.equal(w.calls("confirm").length, 4, "the first confirm and three more with the same token");
  assert.ok(Date.now() - t0 >= 300 + 1000 + 2500 - 50, "with backoff between them");
  assert.deepEqual(w.calls("store").map((e) => e[1].state).filter((x) => x !== "paying").slice(-1), ["confirming"]);
  assert.throws(() => c.cancel(), (e) => e.code === "invalid_state");
  // A reload now: resume checks the unknown outcome again by itself.
  const r = await lib.Checkout.resume(w.client, w.opts);
  assert.equal(r.state.state, "succeeded");
  assert.deepEqual(w.calls("confirm").map((c) => c[1].confirmationTokenId), ["tok_1", "tok_1", "tok_1", "tok_1", "tok_1"]);
  assert.equal(w.calls("token").length, 1);
  // pay() checks again too: a second world where the next pay settles it.
  const w2 = world({ confirms: [...lost] });
  const c2 = await readyToPay(w2);
  assert.equal((await c2.pay({ returnUrl: URL })).state, "confirming");
  assert.equal((await c2.pay({ returnUrl: URL })).state, "succeeded");
  assert.equal(w2.calls("token").length, 1);
});

test("a lost answer settled by the SDK's own re-confirm: pay() resolves succeeded", async () => {
  const w = world({ confirms: [err("processor_error", "unreachable"), { status: "succeeded" }] });
  const c = await readyToPay(w);
  assert.equal((await c.pay({ returnUrl: URL })).state, "succeeded");
  assert.deepEqual(w.calls("confirm").map((c) => c[1].confirmationTokenId), ["tok_1", "tok_1"]);
  assert.deepEqual(w.calls("store").map((e) => e[1].state).slice(-4), ["paying", "confirming", "paying", "succeeded"]);
});

test("processing is followed with backoff until it settles, no reload", async () => {
  const w = world({ confirms: [{ status: "processing" }, { status: "processing" }, { status: "succeeded" }] });
  const c = await readyToPay(w);
  const t0 = Date.now();
  const s = await c.pay({ returnUrl: URL });
  assert.equal(s.state, "succeeded");
  assert.equal(w.calls("confirm").length, 3);
  assert.ok(Date.now() - t0 >= 1000 + 2000 - 50, "re-read after 1 s, then 2 s");
});

test("a definitive refusal is final with nothing pending: a new checkout may start", async () => {
  const w = world({ confirms: [err("conflict", "stock gone: the last units went to another buyer")] });
  const c = await readyToPay(w);
  const f = await c.pay({ returnUrl: URL });
  assert.deepEqual([f.state, f.errorCode, f.retryable, f.pending], ["failed", "conflict", false, null]);
  assert.equal(w.calls("confirm").length, 1, "a definitive answer is not confirmed again");
  const next = await lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  assert.equal(next.state.state, "initiated");
});

test("a persistent cart's checkout is the cart's: start() elsewhere resumes it (one session); a changed cart without a payment starts anew", async () => {
  const w = world({ confirms: [err("network", "x"), err("network", "x"), err("network", "x"), err("network", "x")] });
  let items = [{ variantId: "v1", quantity: 1 }];
  const cart = { storageKey: "shop.cart", currency: "USD", paymentItems: () => items };
  const a = await lib.Checkout.start(w.client, { ...w.opts, cart });
  assert.ok(w.data.has("shop.cart:checkout"), "kept under <cartKey>:checkout");
  await a.shippingOptions("US");
  await a.selectShipping("std", ADDRESS);
  // Another tab (same storage) starts a checkout of the same cart: it gets this one.
  const b = await lib.Checkout.start(w.client, { ...w.opts, cart });
  assert.equal(b.state.state, "shipping_chosen");
  assert.equal(w.calls("initiate").length, 1, "no second payment session");
  assert.equal((await a.pay({ returnUrl: URL })).state, "confirming");
  // A new tab after the first was closed: it finishes the unknown outcome first.
  const c = await lib.Checkout.start(w.client, { ...w.opts, cart });
  assert.equal(c.state.state, "succeeded");
  assert.equal(w.calls("initiate").length, 1);
  assert.deepEqual(w.calls("confirm").map((e) => e[1].confirmationTokenId), Array(5).fill("tok_1"));
  // Finished: the next start is a new checkout; a live one with other items is replaced.
  const d = await lib.Checkout.start(w.client, { ...w.opts, cart });
  assert.equal(d.state.state, "initiated");
  items = [{ variantId: "v1", quantity: 2 }];
  const e = await lib.Checkout.start(w.client, { ...w.opts, cart });
  assert.equal(w.calls("initiate").length, 3);
  assert.deepEqual(e.state.session.items, items);
});

test("unreadable stored state is kept aside under <key>:unreadable and reported, never silently deleted", async () => {
  const w = world();
  w.data.set("cirrus.checkout", "{not json");
  await assert.rejects(lib.Checkout.resume(w.client, w.opts), (e) => e.code === "invalid_argument" && /kept aside under "cirrus\.checkout:unreadable"/.test(e.message));
  assert.equal(w.data.get("cirrus.checkout:unreadable"), "{not json");
  assert.equal(w.data.has("cirrus.checkout"), false);
  // Issue 41: a record that may name a payment not settled yet is kept where it is, and start refuses.
  w.data.set("cirrus.checkout", JSON.stringify({ version: 1, state: "paying" }));
  await assert.rejects(
    lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" }),
    (e) => e.code === "invalid_state" && /missing field `session`.*it is kept, and no new payment session opens/.test(e.message),
  );
  assert.equal(JSON.parse(w.data.get("cirrus.checkout")).state, "paying", "kept where it is");
  assert.equal(w.data.get("cirrus.checkout:unreadable"), "{not json");
  assert.equal(w.calls("initiate").length, 0, "start did not open a session over it");
});

test("a confirm answer without its null members is read; one that does not read is an unknown outcome, never a failure (issue 41)", async () => {
  const w = world({ confirms: [{ status: "requires_capture" }, { status: "succeeded" }] });
  const full = w.client.confirmPayment;
  w.client.confirmPayment = async (b) => Object.fromEntries(Object.entries(await full.call(w.client, b)).filter(([, v]) => v !== null));
  const c = await readyToPay(w);
  assert.equal((await c.pay({ returnUrl: URL })).state, "succeeded");
  assert.deepEqual(w.calls("confirm").map((e) => e[1].confirmationTokenId), ["tok_1", "tok_1"], "the same token confirmed again");
  assert.equal(w.calls("initiate").length, 1);
});

test("a record another SDK version rewrote with a payment in flight: resume() ?? start() finishes that payment, no second session (issue 41)", async () => {
  const w = world({ confirms: Array.from({ length: 4 }, () => err("timeout", "slow")) });
  const c = await readyToPay(w);
  assert.equal((await c.pay({ returnUrl: URL })).state, "confirming");
  const record = JSON.parse(w.data.get("cirrus.checkout"));
  const items = [{ variantId: "v1", quantity: 1 }];
  const open = async (text) => {
    w.data.set("cirrus.checkout", text);
    const w2 = { ...world(), data: w.data };
    w2.opts.storage = w.storage;
    const r = await lib.Checkout.resume(w2.client, { ...w2.opts, items, currency: "USD" }).then((x) => x ?? lib.Checkout.start(w2.client, { ...w2.opts, items, currency: "USD" }));
    return { r, w2 };
  };
  // A newer release's member: read leniently, and that payment is finished with its token.
  const { r, w2 } = await open(JSON.stringify({ ...record, channel: "web" }));
  assert.equal(r.state.state, "succeeded");
  assert.equal(w2.calls("initiate").length, 0, "no second session");
  assert.deepEqual(w2.calls("confirm").map((e) => e[1].confirmationTokenId), ["tok_1"]);
  // Another version of the stored form: kept where it is, and refused saying what to do.
  await assert.rejects(open(JSON.stringify({ ...record, version: 2 })), (e) => e.code === "invalid_state" && /no new payment session opens/.test(e.message));
  assert.equal(JSON.parse(w.data.get("cirrus.checkout")).version, 2, "kept where it is");
});

test("resume of a state stored with a confirm in flight confirms that token once more", async () => {
  const w = world({ confirms: [{ status: "requires_action", clientSecret: "sec_1" }] });
  const c = await readyToPay(w);
  // The page goes away during the 3-D Secure step.
  w.adapter.handleNextAction = () => new Promise(() => {});
  void c.pay({ returnUrl: URL });
  while (!w.calls("store").some((e) => e[1].state === "requires_action")) await new Promise((r) => setTimeout(r, 1));
  const w2 = { ...world(), data: w.data };
  w2.opts.storage = w.storage;
  const r = await lib.Checkout.resume(w2.client, w2.opts);
  assert.equal(r.state.state, "succeeded");
  assert.deepEqual(w2.calls("mount"), [["mount", { publishableKey: "pk_test", amount: 1500, currency: "USD" }]]);
  assert.equal(w2.calls("token").length, 0, "no new token");
  assert.deepEqual(w2.calls("confirm").map((e) => [e[1].confirmationTokenId, e[1].returnUrl]), [["tok_1", URL]]);
  // start() over a stored payment whose outcome is unknown finishes that payment: no second session.
  const w3 = world({ confirms: Array.from({ length: 4 }, () => err("timeout", "slow")) });
  const c3 = await readyToPay(w3);
  assert.equal((await c3.pay({ returnUrl: URL })).state, "confirming");
  const s3 = await lib.Checkout.start(w3.client, { ...w3.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  assert.equal(s3.state.state, "succeeded");
  assert.equal(w3.calls("initiate").length, 1, "no second payment session");
  assert.deepEqual(w3.calls("confirm").map((e) => e[1].confirmationTokenId), Array(5).fill("tok_1"));
});

test("start/resume never wait on a person: a payment waiting for 3-D Secure is returned as requires_action; pay() runs the challenge", async () => {
  const w = world({ confirms: [{ status: "requires_action", clientSecret: "sec_1" }] });
  const c = await readyToPay(w);
  w.adapter.handleNextAction = () => new Promise(() => {}); // the buyer walks away from the challenge
  void c.pay({ returnUrl: URL });
  while (!w.calls("store").some((e) => e[1].state === "requires_action")) await new Promise((r) => setTimeout(r, 1));
  // Another tab opens the cart's checkout: the server still asks for authentication.
  const waits = { status: "requires_action", clientSecret: "sec_1" };
  const w2 = { ...world({ confirms: [waits, waits, { status: "succeeded" }] }), data: w.data };
  w2.opts.storage = w.storage;
  const b = await lib.Checkout.start(w2.client, { ...w2.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  assert.equal(b.state.state, "requires_action", "start resolved without waiting for the challenge");
  assert.equal(b.state.clientSecret, "sec_1");
  assert.equal(w2.calls("action").length, 0, "no challenge opened by start");
  assert.equal(w2.calls("initiate").length, 0);
  const paid = await b.pay({ returnUrl: URL });
  assert.equal(paid.state, "succeeded");
  assert.deepEqual(w2.calls("action"), [["action", "sec_1"]], "the challenge runs on pay()");
  assert.deepEqual(w2.calls("confirm").map((e) => e[1].confirmationTokenId), ["tok_1", "tok_1", "tok_1"], "the same payment, never a new token");
  assert.equal(w2.calls("token").length, 0);
});

test("a stale tab acts on the live record: its cancel after another tab paid is refused, saying what happened", async () => {
  const w = world({ confirms: Array.from({ length: 4 }, () => err("network", "the request failed")) });
  const a = await readyToPay(w);
  // Tab B opened the same checkout while it was at shipping_chosen.
  const b = await lib.Checkout.resume(w.client, w.opts);
  assert.equal(b.state.state, "shipping_chosen");
  assert.equal((await a.pay({ returnUrl: URL })).state, "confirming");
  assert.throws(() => b.cancel(), (e) => e.code === "invalid_state" && /^another tab moved this checkout on to `confirming`: cannot cancel/.test(e.message));
  assert.equal(b.state.state, "confirming", "tab B now shows the live state");
  assert.equal(JSON.parse(w.data.get("cirrus.checkout")).state, "confirming", "the record was not written over");
  await assert.rejects(b.selectShipping("std", ADDRESS), (e) => e.code === "invalid_state");
  // Another tab started a new checkout for other items over a finished one: A's copy is refused, never written back.
  const done = world({ confirms: [{ status: "succeeded" }] });
  const x = await readyToPay(done);
  assert.equal((await x.pay({ returnUrl: URL })).state, "succeeded");
  done.data.set("cirrus.checkout", done.data.get("cirrus.checkout").replaceAll("ps_1", "ps_2"));
  await assert.rejects(x.shippingOptions("US"), (e) => e.code === "invalid_state" && /another tab replaced this checkout with a new one \(session "ps_2"\)/.test(e.message));
});

test("another tab settles the payment while this one waits to check again: pay() resolves with that state, nothing more is sent", async () => {
  const w = world({ confirms: [err("network", "the request failed")] });
  const c = await readyToPay(w);
  const paying = c.pay({ returnUrl: URL });
  // The first confirm's answer was lost (confirming); during the wait before the re-check,
  // another tab of the cart learns that the payment succeeded and records it.
  while (!w.calls("store").some((e) => e[1].state === "confirming")) await new Promise((r) => setTimeout(r, 1));
  const { attempt, errorCode, message, ...rest } = JSON.parse(w.data.get("cirrus.checkout"));
  w.data.set("cirrus.checkout", JSON.stringify({ ...rest, state: "succeeded", paymentIntentId: "pi_other_tab" }));
  const s = await paying;
  assert.equal(s.state, "succeeded");
  assert.equal(s.paymentIntentId, "pi_other_tab");
  assert.equal(w.calls("confirm").length, 1, "no re-confirm after the record settled");
  assert.equal(JSON.parse(w.data.get("cirrus.checkout")).state, "succeeded", "the paid record was not written over");
});

test("success empties the cart of what was paid for; the cart's checkout then shows the order; new items start the next one", async () => {
  const w = world();
  let items = [{ variantId: "v1", quantity: 1 }];
  const cartLog = [];
  const cart = {
    storageKey: "shop.cart", currency: "USD", paymentItems: () => items,
    clear() { cartLog.push(["clear"]); items = []; },
    remove(v) { cartLog.push(["remove", v]); items = items.filter((i) => i.variantId !== v); },
    setQuantity(v, q) { cartLog.push(["setQuantity", v, q]); items = items.map((i) => (i.variantId === v ? { ...i, quantity: q } : i)); },
  };
  const c = await lib.Checkout.start(w.client, { ...w.opts, cart });
  await c.shippingOptions("US");
  await c.selectShipping("std", ADDRESS);
  assert.equal((await c.pay({ returnUrl: URL })).state, "succeeded");
  assert.deepEqual(cartLog, [["clear"]], "emptied once");
  // README: resume() ?? start() in a tab that opens checkout afterwards shows the order.
  const again = (await lib.Checkout.resume(w.client, { ...w.opts, cart })) ?? (await lib.Checkout.start(w.client, { ...w.opts, cart }));
  assert.equal(again.state.state, "succeeded");
  assert.equal(again.state.paymentIntentId, "pi_1", "the record keeps the order's payment reference");
  assert.equal(w.calls("initiate").length, 1);
  // New items: the same code opens the next checkout.
  items = [{ variantId: "v1", quantity: 2 }];
  assert.equal(await lib.Checkout.resume(w.client, { ...w.opts, cart }), null, "a finished checkout does not block the next one");
  const next = await lib.Checkout.start(w.client, { ...w.opts, cart });
  assert.equal(next.state.state, "initiated");
  assert.equal(w.calls("initiate").length, 2);
  // The buyer added more meanwhile: only what was paid for goes.
  await next.shippingOptions("US");
  await next.selectShipping("std", ADDRESS);
  const paying = next.pay({ returnUrl: URL });
  items = [{ variantId: "v1", quantity: 3 }, { variantId: "v2", quantity: 1 }];
  assert.equal((await paying).state, "succeeded");
  assert.deepEqual(cartLog.slice(1), [["setQuantity", "v1", 1]]);
});

test("next actions: at most one per pay(); a throwing adapter is a retryable failure", async () => {
  const w = world({ confirms: [{ status: "requires_action", clientSecret: "s1" }, { status: "requires_action", clientSecret: "s2" }] });
  const c = await readyToPay(w);
  const s = await c.pay({ returnUrl: URL });
  assert.equal(s.state, "failed");
  assert.equal(s.code, "action_failed");
  assert.equal(s.message, "authentication was not completed");
  assert.equal(s.pending.token, "tok_1");
  const w2 = world();
  const c2 = await readyToPay(w2);
  w2.adapter.collectToken = async () => { throw new Error("Your card number is incomplete."); };
  const f = await c2.pay({ returnUrl: URL });
  assert.deepEqual([f.state, f.code, f.message, f.pending, f.retryable], ["failed", "adapter", "Your card number is incomplete.", null, true]);
  assert.equal(w2.calls("confirm").length, 0, "nothing was sent");
  w2.adapter.collectToken = async () => "  ";
  assert.equal((await c2.pay({ returnUrl: URL })).message, "the processor adapter returned no token");
  c2.cancel();
  assert.equal(c2.state.state, "cancelled");
  assert.equal(c2.state.sessionId, "ps_1");
});

test("a client's malformed answer is refused naming its path", async () => {
  const w = world();
  const initiate = w.client.initiatePayment;
  w.client.initiatePayment = async (body) => ({ ...(await initiate(body)), breakdown: { subtotal: 1000, shipping: 0, tax: 0, total: "10.00" } });
  await assert.rejects(lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" }),
    (e) => e instanceof lib.CirrusError && e.code === "invalid_argument" && e.message === 'initiatePayment answer.breakdown.total: expected a safe integer, got the string "10.00"', "initiate");
});

test("bad options and arguments are CirrusErrors naming the argument", async () => {
  const w = world();
  const start = (o) => lib.Checkout.start(w.client, o);
  const items = [{ variantId: "v1", quantity: 1 }];
  const cases = [
    [null, "invalid_argument", /options must be an object/],
    [{ items, currency: "USD" }, "invalid_argument", /options\.adapter\.mount/],
    [{ ...w.opts, adapter: { ...w.adapter, collectToken: 1 } }, "invalid_argument", /options\.adapter\.collectToken/],
    [{ ...w.opts, items, currency: "USD", storageKey: "" }, "invalid_argument", /options\.storageKey/],
    [{ ...w.opts, items, currency: "USD", storage: false }, "invalid_argument", /options\.storage\.getItem/],
    [{ ...w.opts, items: [{ variantId: "v1", quantity: 1.5 }], currency: "USD" }, "invalid_argument", /^options\.items\[0\]\.quantity: expected an integer in 0\.\.=4294967295, got the number 1\.5$/],
    [{ ...w.opts, items, currency: 840 }, "invalid_argument", /options\.currency/],
    [{ ...w.opts, items: [], currency: "USD" }, "invalid_state", /cart is empty/],
    [{ ...w.opts, cart: {} }, "invalid_argument", /options\.cart\.paymentItems/],
    // The JS-only members (adapter, storage, cart) are known names; any other is refused.
    [{ adaptr: w.adapter, items, currency: "USD" }, "invalid_argument", /^options: unknown field `adaptr`, expected one of `adapter`, `storage`, `storageKey`, `cart`, `items`, `currency`$/],
  ];
  for (const [o, code, re] of cases) {
    await assert.rejects(start(o), (e) => e instanceof lib.CirrusError && e.code === code && re.test(e.message), JSON.stringify(o));
  }
  assert.equal(w.calls("initiate").length, 0, "nothing was sent");
  // A Cart's `currency` is a getter: accepted as well as the function form.
  const viaGetter = await start({ ...w.opts, cart: { paymentItems: () => items, get currency() { return "EUR"; } } });
  assert.equal(w.calls("initiate").at(-1)?.[1]?.currency, "EUR", "the getter's currency was sent");
  viaGetter.free();
  const c = await start({ ...w.opts, cart: { paymentItems: () => items, currency: () => "USD" } });
  await assert.rejects(c.pay({}), (e) => e.code === "invalid_argument" && /returnUrl/.test(e.message));
  await assert.rejects(c.pay({ returnUrl: URL }), (e) => e.code === "invalid_state" && /`initiated`/.test(e.message));
  await assert.rejects(c.selectShipping("std", ADDRESS), (e) => e.code === "invalid_state" && /shippingOptions/.test(e.message));
  await c.shippingOptions("US");
  await assert.rejects(c.selectShipping("std", { ...ADDRESS, country: "CA" }), (e) => e.code === "invalid_argument" && /shippingOptions\("CA"\)/.test(e.message));
  await assert.rejects(c.selectShipping("nope", ADDRESS), (e) => e.code === "invalid_argument" && /"nope"/.test(e.message));
  await assert.rejects(c.selectShipping("std", { ...ADDRESS, city: 5 }), (e) => e.code === "invalid_argument" && /shippingAddress\.city/.test(e.message));
  await assert.rejects(c.selectShipping("std", { ...ADDRESS, email: "x" }), (e) => e.code === "invalid_argument" && /shippingAddress\.email/.test(e.message));
  assert.equal(w.calls("update").length, 0, "nothing was sent");
  assert.equal(c.state.state, "initiated");
  const unsubscribe = c.subscribe(() => { throw new Error("a listener's bug"); });
  await c.selectShipping("std", { ...ADDRESS, phone: undefined, state: null });
  assert.deepEqual(c.state.shipping.address, ADDRESS, "absent optional members stay absent");
  unsubscribe();
  c.free();
  assert.throws(() => c.state);
});

test("a 2xx body over 8 MiB is refused with a typed decode error before it is copied into wasm memory", async () => {
  const body = (n) => `{"store":${" ".repeat(n - 14)}null}`;
  const client = (n) => new lib.CirrusClient({
    baseUrl: "http://127.0.0.1:1/api/v1",
    apiKey: `ak_${"0".repeat(48)}`,
    retries: 0,
    fetch: async () => new Response(body(n), { status: 200, headers: { "content-type": "application/json" } }),
  });
  const MiB8 = 8 * 1024 * 1024;
  await assert.rejects(client(MiB8 + 1).store(), (e) => e instanceof lib.CirrusError && e.code === "decode"
    && /the response body is larger than 8 MiB \(8388609 characters\); refused before decoding/.test(e.message));
  // At the cap it is read and decoded as usual (here: `store` is null, a schema error naming the path).
  await assert.rejects(client(MiB8).store(), (e) => e.code === "decode" && !/larger than 8 MiB/.test(e.message));
});

test("a real CirrusClient is called through its payment methods, once per payment call, and stays usable", async () => {
  const sent = [];
  const answers = {
    "/payments/initiate": { processor: "stripe", sessionId: "ps_1", publishableKey: "pk_test", amount: 1000, currency: "USD", breakdown: { subtotal: 1000, shipping: 0, tax: 0, total: 1000 } },
    "/payments/confirm": { success: true, status: "succeeded", clientSecret: null, paymentIntentId: "pi_1", error: null },
    "/shipping-rates": { variantRates: [{ variantId: "v1", profileId: "p", rates: [{ id: "std", name: "std", price: "5.00", deliveryDescription: "", deliveryTimeframeMin: 1, deliveryTimeframeMax: 2, minOrderPrice: null, maxOrderPrice: null }] }] },
    "/payments/update": { sessionId: "ps_1", amount: 1500, currency: "USD", breakdown: { subtotal: 1000, shipping: 500, tax: 0, total: 1500 } },
    "/store": { store: STORE },
  };
  const client = new lib.CirrusClient({
    baseUrl: "http://127.0.0.1:1/api/v1",
    apiKey: `ak_${"0".repeat(48)}`,
    fetch: async (req) => {
      const path = req.url.replace(/^.*\/api\/v1/, "");
      sent.push([req.method, path, req.method === "POST" ? await req.text() : null]);
      return new Response(JSON.stringify(answers[path] ?? {}), { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  // The checkout is a wasm module of its own (loaded on the first start): it calls the client's
  // public methods (two wasm instances share no Rust objects), each of them once per payment call.
  const called = [];
  for (const m of ["initiatePayment", "updatePayment", "confirmPayment", "shippingRates"]) {
    const f = client[m].bind(client);
    client[m] = (body) => { called.push(m); return f(body); };
  }
  const w = world();
  const c = await lib.Checkout.start(client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  assert.deepEqual((await c.shippingOptions("US")).map((o) => [o.rate.id, o.price]), [["std", 500]]);
  await c.selectShipping("std", ADDRESS);
  const s = await c.pay({ returnUrl: URL });
  assert.equal(s.state, "succeeded");
  // The store's currency is asked first (a cart in another currency is refused before a session).
  assert.deepEqual(sent.map(([m, p]) => [m, p]),
    [["GET", "/store"], ["POST", "/payments/initiate"], ["POST", "/shipping-rates"], ["POST", "/payments/update"], ["POST", "/payments/confirm"]]);
  assert.deepEqual(JSON.parse(sent[1][2]), { items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  assert.equal(JSON.parse(sent[4][2]).confirmationTokenId, "tok_1");
  assert.deepEqual(called, ["initiatePayment", "shippingRates", "updatePayment", "confirmPayment"]);
  // The caller's client was not taken over: it still works.
  await client.store().catch(() => {});
  assert.equal(sent.at(-1)[1], "/store");
});

test("refusals say what to do next: pay before shipping, a lowercase country, a number given to parseMoney", async () => {
  const w = world();
  const c = await lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  await assert.rejects(c.pay({ returnUrl: URL }), (e) => e.code === "invalid_state"
    && e.message === "cannot pay in checkout state `initiated`; choose a shipping rate first: shippingOptions(country), then selectShipping(rateId, address)");
  await c.shippingOptions("US");
  await assert.rejects(c.selectShipping("std", { ...ADDRESS, country: "us" }), (e) => e.code === "invalid_argument"
    && /^shippingAddress\.country must be an uppercase ISO 3166-1 alpha-2 code like "DE", got "us"$/.test(e.message));
  assert.throws(() => lib.parseMoney(45.99, "USD"), (e) => e.code === "invalid_argument"
    && e.message === 'parseMoney takes a decimal string like "45.99" (a price as the API gives it), got the number 45.99');
  assert.equal(lib.parseMoney("45.99", "USD"), 4599);
});

test("a cart in another currency than the store's is refused before a session is asked for, naming both and the fix", async () => {
  const w = world();
  w.client.store = async () => { w.log.push(["client.store"]); return STORE; };
  const cart = { storageKey: null, currency: "EUR", paymentItems: () => [{ variantId: "v1", quantity: 1 }] };
  await assert.rejects(lib.Checkout.start(w.client, { ...w.opts, cart }), (e) => e instanceof lib.CirrusError && e.code === "invalid_argument"
    && e.message === "the cart is in EUR but the store sells in USD: make the cart with new Cart(store.defaultCurrency)");
  await assert.rejects(lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "EUR" }),
    (e) => e.code === "invalid_argument" && e.message === "currency is EUR but the store sells in USD: pass currency: store.defaultCurrency");
  assert.deepEqual(w.log.map((e) => e[0]), ["client.store", "client.store"], "no session initiated, nothing stored, no adapter mounted");
  // A real Cart made from the store's currency goes through.
  const real = new lib.Cart(STORE.defaultCurrency);
  real.add({ id: "p", name: "P", slug: "p", status: "ACTIVE", images: [],
    variants: [{ id: "v1", price: "10.00", compareAtPrice: null, stockQuantity: 5, stockStatus: "IN_STOCK", image: null, attributes: {} }] }, "v1", 1);
  const c = await lib.Checkout.start(w.client, { ...w.opts, cart: real });
  assert.equal(c.state.state, "initiated");
  assert.deepEqual(w.calls("initiate")[0][1], { items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
});

test("a country, rate id or return URL of the wrong JS type names the type expected and the value given", async () => {
  const w = world();
  const c = await lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  await assert.rejects(c.shippingOptions(840), (e) => e.code === "invalid_argument" && e.message === 'country must be a string such as "US", got the number 840');
  await c.shippingOptions("US");
  await assert.rejects(c.selectShipping({ id: "std" }, ADDRESS), (e) => e.code === "invalid_argument" && e.message === 'rateId must be a string (a ShippingOption\'s id), got the object {"id":"std"}');
  await c.selectShipping("std", ADDRESS);
  await assert.rejects(c.pay({ returnUrl: 1 }), (e) => e.code === "invalid_argument" && e.message === "options.returnUrl must be a string, got the number 1");
  assert.equal(w.calls("token").length, 0, "nothing was paid");
});

/** A second tab of `w`'s origin: its own client, adapter and log, the same storage. */
function tabOf(w, options) {
  const t = world(options);
  t.data = w.data;
  t.opts.storage = w.storage;
  return t;
}

/** A promise and the function that settles it. */
function gate() {
  let open;
  const p = new Promise((r) => { open = r; });
  return { p, open };
}
const tick = () => new Promise((r) => setTimeout(r, 1));
const record = (w) => JSON.parse(w.data.get("cirrus.checkout"));

test("issue 31, finding 2: a late answer for an older token never overwrites a newer attempt", async () => {
  const w = world({ confirms: [err("network", "connection reset"), { status: "requires_payment_method", error: "Your card was declined." }] });
  const a = await readyToPay(w);
  // Tab A's confirm of tok_1 gets no answer: confirming, re-checked after 300 ms.
  const paying = a.pay({ returnUrl: URL });
  while (record(w).state !== "confirming") await tick();
  // Tab B resumes and confirms tok_1 again; its answer is slow.
  const b = tabOf(w);
  const slow = gate();
  b.client.confirmPayment = async (body) => { b.log.push(["confirm", body]); await slow.p; return { success: false, status: "requires_payment_method", clientSecret: null, paymentIntentId: "pi_1", error: "Your card was declined." }; };
  void lib.Checkout.resume(b.client, b.opts);
  while (b.calls("confirm").length === 0) await tick();
  // A's re-check says declined; the buyer pays again with tok_2, whose confirm is in flight.
  assert.equal((await paying).state, "failed");
  const second = gate();
  const confirm = w.client.confirmPayment;
  w.client.confirmPayment = async (body) => { await second.p; return confirm(body); };
  const again = a.pay({ returnUrl: URL });
  while (record(w).attempt?.token !== "tok_2") await tick();
  // B's late "declined" for tok_1 lands: it changes nothing.
  slow.open();
  for (let i = 0; i < 20; i++) await tick();
  const now = record(w);
  assert.deepEqual([now.state, now.attempt.token, now.attempt.confirmInFlight], ["paying", "tok_2", true], JSON.stringify(now));
  second.open();
  assert.equal((await again).state, "succeeded");
  assert.equal(record(w).state, "succeeded");
});

test("issue 31, finding 3: storage that cannot be written is a typed error before any session is opened, and before any confirm", async () => {
  const w = world();
  const setItem = w.storage.setItem;
  w.storage.setItem = () => { throw new Error("QuotaExceededError: the quota has been exceeded"); };
  await assert.rejects(lib.Checkout.start(w.client, { ...w.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" }),
    (e) => e instanceof lib.CirrusError && e.code === "invalid_state" && /^storage refused to write this checkout's record \(.*QuotaExceededError.*\): no payment session was opened;/.test(e.message) && !/cleared/.test(e.message));
  assert.equal(w.calls("initiate").length, 0, "no session opened");
  w.storage.setItem = setItem;
  const c = await readyToPay(w);
  w.storage.setItem = () => { throw new Error("QuotaExceededError"); };
  await assert.rejects(c.pay({ returnUrl: URL }), (e) => e.code === "invalid_state" && /the payment was not sent/.test(e.message));
  assert.equal(w.calls("confirm").length, 0, "no confirm without its in-flight record");
  assert.equal(c.state.state, "shipping_chosen");
});

test("issue 31, finding 4: a confirm goes out only for the amount the payment form showed; the form is told the new amount", async () => {
  const w = world();
  const a = await readyToPay(w); // the form shows 15.00
  const token = gate();
  w.adapter.collectToken = async () => { w.log.push(["token"]); await token.p; return "tok_1"; };
  const paying = a.pay({ returnUrl: URL });
  while (w.calls("token").length === 0) await tick();
  // Tab B changes the shipping rate meanwhile (no lock API here): 19.00.
  const b = tabOf(w);
  b.client.updatePayment = async (body) => ({ sessionId: body.sessionId, amount: 1900, currency: "USD", breakdown: { subtotal: 1000, shipping: 900, tax: 0, total: 1900 } });
  const bc = await lib.Checkout.resume(b.client, b.opts);
  await bc.shippingOptions("US");
  await bc.selectShipping("express", ADDRESS);
  token.open();
  await assert.rejects(paying, (e) => e.code === "invalid_state" && /the amount to pay changed to 1900 USD/.test(e.message));
  assert.equal(w.calls("confirm").length, 0, "nothing charged");
  assert.deepEqual(w.calls("amount").at(-1), ["amount", 1900, "USD"], "the form shows the new amount");
  assert.equal((await a.pay({ returnUrl: URL })).state, "succeeded", "paying again pays what the form shows");
});

test("issue 31, finding 6: a checkout of bare items that succeeded is shown again on reload for the same items", async () => {
  const w = world();
  const c = await readyToPay(w);
  assert.equal((await c.pay({ returnUrl: URL })).state, "succeeded");
  const reload = tabOf(w);
  const again = await lib.Checkout.start(reload.client, { ...reload.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  assert.equal(again.state.state, "succeeded");
  assert.equal(reload.calls("initiate").length, 0, "no second payment session");
  assert.equal(reload.calls("mount").length, 0, "no payment form");
  const resumed = await lib.Checkout.resume(reload.client, { ...reload.opts, items: [{ variantId: "v1", quantity: 1 }], currency: "USD" });
  assert.equal(resumed.state.state, "succeeded");
});

test("issue 31: a checkout that ends or is freed unmounts its adapter's form", async () => {
  for (const end of ["pay", "cancel", "free"]) {
    const w = world();
    w.adapter.unmount = () => { w.log.push(["unmount"]); };
    const c = await readyToPay(w);
    if (end === "pay") assert.equal((await c.pay({ returnUrl: URL })).state, "succeeded");
    if (end === "cancel") c.cancel();
    if (end === "free") c.free();
    assert.equal(w.calls("unmount").length, 1, end);
  }
});

test("storage: null keeps the record in this page's memory: a checkout let go with its payment unsettled is finished by the page's next one, never a second session; paid bare items show the order", async () => {
  // 10,000,000-schedule simulation (issue 31): 14 seeds, all with no storage, where a page let a
  // checkout go while its payment was unsettled (or paid for bare items) and its next checkout
  // of the same cart opened a second payment session.
  const w = world();
  const opts = { adapter: w.adapter, storage: null, storageKey: "page-memory-test" };
  const items = [{ variantId: "v1", quantity: 1 }];
  const a = await lib.Checkout.start(w.client, { ...opts, items, currency: "USD" });
  await a.shippingOptions("US");
  await a.selectShipping("std", ADDRESS);
  const answer = gate();
  const confirm = w.client.confirmPayment;
  w.client.confirmPayment = async (body) => { await answer.p; return confirm(body); };
  const paying = a.pay({ returnUrl: URL });
  while (w.calls("token").length === 0) await tick();
  await tick();
  a.free();
  const opening = lib.Checkout.start(w.client, { ...opts, items, currency: "USD" });
  answer.open();
  const b = await opening;
  await paying;
  assert.equal(w.calls("initiate").length, 1, "no second payment session");
  assert.ok(w.calls("confirm").every((c) => c[1].confirmationTokenId === "tok_1"), "only the first token is confirmed");
  assert.equal(b.state.state, "succeeded", JSON.stringify(b.state));
  b.free();
  const again = await lib.Checkout.start(w.client, { ...opts, items, currency: "USD" });
  assert.equal(again.state.state, "succeeded", "the same bare items show the order");
  assert.equal(w.calls("initiate").length, 1);
  again.free();
});

test("issue 41, finding 1: a paid checkout leaves the cart once, whichever tabs see it succeed; a tab that missed the cart's storage events takes nothing out again", async () => {
  // Two tabs' persistent carts over one storage; node has no `storage` event, so neither
  // hears the other: B's cart is the stale copy of a page restored from the back/forward cache.
  const w = world();
  const mug = { id: "p1", name: "Mug", slug: "mug", status: "ACTIVE", images: [], variants: [{ id: "v1", price: "10.00", stockQuantity: 9, stockStatus: "IN_STOCK", attributes: {} }] };
  const cartA = lib.Cart.persistent("USD", { storage: w.storage, key: "shop.cart" });
  cartA.add(mug, "v1", 1);
  const cartB = lib.Cart.persistent("USD", { storage: w.storage, key: "shop.cart" });
  const a = await lib.Checkout.start(w.client, { ...w.opts, cart: cartA });
  const b = await lib.Checkout.resume(w.client, { ...w.opts, cart: cartB });
  assert.ok(b, "B holds the same checkout open");
  await a.shippingOptions("US");
  await a.selectShipping("std", ADDRESS);
  assert.equal((await a.pay({ returnUrl: URL })).state, "succeeded");
  assert.equal(cartA.isEmpty, true, "A's cart: the mug paid for is taken out");
  cartA.add(mug, "v1", 1); // the buyer adds the mug again
  const saved = () => JSON.parse(w.data.get("shop.cart"));
  assert.deepEqual(saved().settled, ["ps_1"], "the saved form records the checkout taken out");
  await b.pay({ returnUrl: URL }).catch(() => {}); // B adopts the paid record
  assert.equal(b.state.state, "succeeded");
  assert.deepEqual(saved().lines.map((l) => [l.variantId, l.quantity]), [["v1", 1]], "the mug added again stays");
  assert.deepEqual(cartB.lines.map((l) => [l.variantId, l.quantity]), [["v1", 1]], "B's cart caught up with the saved form");
  assert.equal(cartB.takePaid("ps_1", [{ variantId: "v1", quantity: 1 }]), false, "asked again: nothing changes");
  assert.equal(w.calls("initiate").length, 1);
});
