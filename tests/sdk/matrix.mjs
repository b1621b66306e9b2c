// The SDK client of the BUILT package against a dev server with test hooks
// (CIRRUS_TEST_HOOKS=1, `/__test/faults`), as a table of named cases: `CASES` is a list of
// [name, body]; every body takes the context `setup()` made (the first case fills in the
// product, variant and currency the others use). Two runners drive the same table, every case
// reported and every case run (a failure does not stop the others):
//  - node: tests/sdk/matrix-node.mjs, one node:test test per case;
//  - headless Chromium: tests/sdk/matrix-browser.mjs, `runAll()` in the page, each case's
//    result printed, any failure failing the run.
// Stage 40-pkg runs both on the root entry `cirrus-storefront` and on `cirrus-storefront/client`.
// What the cases cover:
//  - every fetcher succeeding (products full/minimal/paginated, productBySlug, pages,
//    collections, collectionBySlug, collection, store, shippingRates, initiatePayment,
//    allProducts page by page);
//  - THE ERROR MATRIX: each of the 12 fetchers (store, products, allProducts,
//    productBySlug, pages, collections, collectionBySlug, collection, shippingRates,
//    initiatePayment, updatePayment, confirmPayment) x each of the 9 contract codes
//    (400 invalid_request, 401 unauthorized, 404 not_found, 409 conflict,
//    413 payload_too_large, 415 unsupported_media_type, 429 rate_limited,
//    502 processor_error, 500 internal; plus 503, which the contract answers as
//    `internal`), injected by the fault hook on that fetcher's exact path: with
//    `retries: 0` the call rejects with a CirrusError carrying that code, the status,
//    the server's request id and message (and `retryAfter` for 429/503), after exactly
//    one request; with the default retries, the transient statuses (429, 500, 502,
//    503) are retried once and succeed on GETs and shippingRates, every other status
//    and every payment call gets exactly one request and the same error;
//  - real server errors: 401 (wrong key), 404 (unknown slug/id, slugs kept one path
//    segment), 400 (a currency the store does not price in), 400/404 on update;
//  - bad arguments rejected before any request; Retry-After honoured; 500/503 retried;
//    payments never retried (not after a 5xx, a 429 or a network failure); POST bodies
//    hold only known fields; truncated and wrong-shaped bodies are `decode`; non-ASCII
//    bodies and text-only Response-likes reach the caller as sent; a non-JSON
//    error body is `http`; timeout, abort (before, during a request, while waiting to
//    retry), network failure; shared in-flight GETs; the TTL cache; free();
//  - cache strategies (`cache`, per client and per call): fresh, stale-while-revalidate
//    (answered at once, one background refresh shared by every caller), stale-if-error
//    inside and outside its window (network, timeout, 5xx; not 4xx), no-store, the presets,
//    checks of the options, `fetchOptions` passed to fetch, the bound on memory.
// Wall-clock: no upper bound that a loaded 2-core machine could miss. Where a call must
// give up early (timeout, abort), the server is made to hold the answer for 30 s and the
// bound is 10 s; lower bounds (Retry-After waited) are exact. Timing budgets are
// benchmarks (tests/sdk/bench-decode.mjs), not assertions here.

export const assert = (ok, what) => {
  if (!ok) throw new Error(`assertion failed: ${what}`);
};
export const eq = (a, b, what) => assert(a === b, `${what}: ${JSON.stringify(a)} !== ${JSON.stringify(b)}`);
/** A fetch that counts its calls and keeps their arguments. */
const counting = () => {
  const f = (...a) => {
    f.calls.push(a);
    return fetch(...a);
  };
  f.calls = [];
  return f;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** How long the server holds a "slow" answer, and the generous bound for giving up before it. */
const HELD_MS = 30_000, GAVE_UP_MS = 10_000;
const abortAfter = (ms) => {
  const c = new AbortController();
  setTimeout(() => c.abort(), ms);
  return c.signal;
};

/** The context every case takes: the library, the server, helpers bound to them. */
export function setup(lib, { baseUrl, apiKey, initArg }) {
  const origin = baseUrl.replace(/\/api\/v1$/, "");
  /** Awaits a rejection: a CirrusError (an Error) with `code`. */
  const fails = async (p, code) => {
    let v;
    try {
      v = await p;
    } catch (e) {
      assert(e instanceof lib.CirrusError && e instanceof Error && e.name === "CirrusError", `a CirrusError: ${e}`);
      eq(e.code, code, `code (message: ${e.message})`);
      return e;
    }
    throw new Error(`expected a ${code} error, got ${JSON.stringify(v).slice(0, 200)}`);
  };
  const throws = (f, code) => {
    try {
      f();
    } catch (e) {
      assert(e instanceof lib.CirrusError, `a CirrusError: ${e}`);
      eq(e.code, code, `code (message: ${e.message})`);
      return e;
    }
    throw new Error(`expected a ${code} error`);
  };
  const arm = async (fault) => {
    const r = await fetch(`${origin}/__test/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ times: 1, ...fault, path: `/api/v1${fault.path}` }),
    });
    if (r.status !== 204) throw new Error(`arming the fault failed: ${r.status}`);
  };
  const disarm = async () => {
    await fetch(`${origin}/__test/faults`, { method: "DELETE" });
  };
  const client = (extra = {}) => new lib.CirrusClient({ baseUrl, apiKey, ...extra });
  const address = { email: "a@b.example", firstName: "A", lastName: "B", address1: "1 Road", city: "Town", postalCode: "12345", country: "US" };
  return { lib, baseUrl, apiKey, initArg, fails, throws, arm, disarm, client, address };
}

/** Runs one case, then disarms the fault hook whatever happened (the case's own failure wins). */
export async function runCase(t, [name, body]) {
  if (name !== CASES[0][0] && !t.c) throw new Error(`the first case ("${CASES[0][0]}") did not set up the client`);
  let failure;
  try {
    await body(t);
  } catch (e) {
    failure = e;
  }
  try {
    await t.disarm();
  } catch (e) {
    failure ??= new Error(`disarming the fault hook: ${e}`);
  }
  if (failure) throw failure;
}

/** Runs every case in order; `{ name, ok, ms, error? }` for each (for the browser page). */
export async function runAll(lib, options) {
  const t = setup(lib, options);
  const results = [];
  for (const k of CASES) {
    const t0 = Date.now();
    try {
      await runCase(t, k);
      results.push({ name: k[0], ok: true, ms: Date.now() - t0 });
    } catch (e) {
      results.push({ name: k[0], ok: false, ms: Date.now() - t0, error: String((e && e.stack) || e) });
    }
  }
  return results;
}

export const CASES = [
  ["init(), then the first answers the other cases use", async (t) => {
    await t.lib.init(t.initArg);
    t.c = t.client();
    const first = await t.c.products({ limit: 1 });
    t.product = first.products[0];
    t.variant = t.product.variants[0].id;
    t.currency = (await t.c.store()).defaultCurrency;
    eq(typeof t.variant, "string", "a variant id");
    eq(t.currency.length, 3, "a currency code");
  }],

  // ------------------------------------------------------------------ fetchers

  ["products: full, minimal, paginated, offset", async ({ c, product }) => {
    const page = await c.products({ limit: 5, includePagination: true });
    eq(page.products.length, 5, "limit");
    const p = page.products[0];
    assert("variants" in p && "metaTitle" in p && p.metaTitle !== undefined, "a full product");
    eq(p.status, "ACTIVE", "status");
    eq(page.pagination.limit, 5, "pagination.limit");
    eq(page.pagination.hasMore, true, "hasMore");
    assert("compareAtPrice" in p.variants[0] && "image" in p.variants[0], "nullable fields are present");
    const min = await c.products({ limit: 3, offset: 2, minimal: true });
    assert(!("pagination" in min), "no pagination unless asked");
    const m = min.products[0];
    assert(!("variants" in m) && "price" in m, "a minimal product");
    const three = await c.products({ limit: 3 });
    eq(m.id, three.products[2].id, "offset 2 is the third product");
    eq((await c.products()).products.length > 0, true, "no options");
  }],

  ["productBySlug, pages, collections, collectionBySlug, collection(id), store", async ({ c, product }) => {
    eq((await c.productBySlug(product.slug)).slug, product.slug, "productBySlug");
    const pages = await c.pages();
    assert(pages.length > 0 && "content" in pages[0], "pages");
    const cols = await c.collections();
    assert(cols.length > 0, "collections");
    eq((await c.collectionBySlug(cols[0].slug)).id, cols[0].id, "collectionBySlug");
    const byId = await c.collection(cols[0].id);
    eq(byId.slug, cols[0].slug, "collection(id)");
    assert(byId.breadcrumb.length >= 1, "breadcrumb");
    eq((await c.store()).defaultCurrency.length, 3, "store");
  }],

  ["shippingRates, initiatePayment, updatePayment's server error", async ({ lib, c, variant, currency, address }) => {
    const rates = await c.shippingRates({ variantIds: [variant], country: "US" });
    eq(rates[0].variantId, variant, "shippingRates");
    const session = await c.initiatePayment({ items: [{ variantId: variant, quantity: 1 }], currency });
    eq(session.processor, "stripe", "processor");
    eq(session.breakdown.total, session.amount, "breakdown");
    let e;
    try {
      await c.updatePayment({ sessionId: session.sessionId, shippingRateId: "no-such-rate", shippingAddress: address });
    } catch (x) {
      e = x;
    }
    // An unknown rate id: the contract's 404 not_found, naming the field.
    assert(e instanceof lib.CirrusError, `a CirrusError: ${e}`);
    eq(e.code, "not_found", `code (message: ${e.message})`);
    eq(e.status, 404, "status");
    assert(e.message.includes("shippingRateId"), `names shippingRateId: ${e.message}`);
  }],

  ["allProducts iterates every product page by page", async ({ c, client }) => {
    const total = (await c.products({ limit: 1, includePagination: true })).pagination.total;
    const f = counting();
    let n = 0;
    for await (const p of client({ fetch: f }).allProducts({ pageSize: 50, minimal: true })) n += p.id ? 1 : 0;
    eq(n, total, "count");
    eq(f.calls.length, Math.ceil(total / 50), "one request per page");
  }],

  // ------------------------------------------------------------------ errors

  ["the error matrix: every contract code on every fetcher", async ({ c, client, product, variant, currency, address, arm, fails }) => {
    const cols = await c.collections();
    const col = cols[0];
    const confirmBody = { sessionId: "s", confirmationTokenId: "tok_1", shippingRateId: "r", shippingAddress: address, returnUrl: "https://x.example/" };
    // [name, method, exact path the fault matches, retried on transient statuses, call]
    const fetchers = [
      ["store", "GET", "/store", true, (cc) => cc.store()],
      ["products", "GET", "/products", true, (cc) => cc.products({ limit: 2 })],
      ["allProducts", "GET", "/products", true, async (cc) => {
        let n = 0;
        for await (const p of cc.allProducts({ pageSize: 200, minimal: true })) n += p.id ? 1 : 0;
        return n;
      }],
      ["productBySlug", "GET", `/products/slug/${product.slug}`, true, (cc) => cc.productBySlug(product.slug)],
      ["pages", "GET", "/pages", true, (cc) => cc.pages()],
      ["collections", "GET", "/collections", true, (cc) => cc.collections()],
      ["collectionBySlug", "GET", `/collections/slug/${col.slug}`, true, (cc) => cc.collectionBySlug(col.slug)],
      ["collection", "GET", `/collections/${col.id}`, true, (cc) => cc.collection(col.id)],
      ["shippingRates", "POST", "/shipping-rates", true, (cc) => cc.shippingRates({ variantIds: [variant], country: "US" })],
      ["initiatePayment", "POST", "/payments/initiate", false, (cc) => cc.initiatePayment({ items: [{ variantId: variant, quantity: 1 }], currency })],
      ["updatePayment", "POST", "/payments/update", false, (cc) => cc.updatePayment({ sessionId: "s", shippingRateId: "r", shippingAddress: address })],
      ["confirmPayment", "POST", "/payments/confirm", false, (cc) => cc.confirmPayment(confirmBody)],
    ];
    const codes = [
      [400, "invalid_request"], [401, "unauthorized"], [404, "not_found"], [409, "conflict"],
      [413, "payload_too_large"], [415, "unsupported_media_type"], [429, "rate_limited"],
      [502, "processor_error"], [500, "internal"], [503, "internal"],
    ];
    const transient = new Set([429, 500, 502, 503]);
    // Every cell runs; the case fails listing every failed cell.
    let cells = 0;
    const failed = [];
    const cellTest = async ([name, method, path, retried, call], [status, code]) => {
      const cell = `${name} × ${status} ${code}`;
      try {
        const retryAfter = status === 429 ? 3 : status === 503 ? 0 : undefined;
        // Decoding: retries off, one request, every field of the error.
        const f = counting();
        await arm({ method, path, kind: "status", status, ...(retryAfter === undefined ? {} : { retryAfter }) });
        const e = await fails(call(client({ fetch: f, retries: 0 })), code);
        eq(e.status, status, "status");
        assert(typeof e.requestId === "string" && e.requestId.length > 0, `request id ${e.requestId}`);
        assert(e.message.includes(`injected fault: status ${status}`), `the server's message: ${e.message}`);
        eq(e.retryAfter, retryAfter === undefined ? null : retryAfter, "retryAfter");
        eq(f.calls.length, 1, "requests with retries: 0");
        eq(f.calls[0][0].method, method, "method");
        // Policy: default retries (2). A transient status on a retried fetcher is retried
        // (the fault answers once: the retry succeeds); anything else is one request.
        const g = counting();
        await arm({ method, path, kind: "status", status, retryAfter: 0 });
        if (retried && transient.has(status)) {
          const v = await call(client({ fetch: g }));
          assert(v !== undefined && v !== null, "an answer after the retry");
          eq(g.calls.length, 2, "one failure, one retry");
        } else {
          const e2 = await fails(call(client({ fetch: g })), code);
          eq(e2.status, status, "status with retries");
          eq(g.calls.length, 1, `${retried ? "a non-transient status" : "a payment"} is sent once`);
        }
      } catch (x) {
        failed.push(`${cell}: ${x.message}`);
        return;
      }
      cells++;
    };
    // The fault hook matches method + exact path, so fetchers on different paths run side by
    // side (one code at a time); allProducts shares GET /products, so it runs after them.
    for (const code of codes) {
      await Promise.all(fetchers.filter((x) => x[0] !== "allProducts").map((x) => cellTest(x, code)));
      await cellTest(fetchers.find((x) => x[0] === "allProducts"), code);
    }
    assert(failed.length === 0, `${failed.length} cell(s) failed:\n  ${failed.join("\n  ")}`);
    eq(cells, fetchers.length * codes.length, "cells");
    eq(new Set(codes.map(([, code]) => code)).size, 9, "all nine contract codes");
  }],

  ["401 unauthorized keeps status and request id, never shows the key", async ({ client, apiKey, fails }) => {
    const wrong = `ak_${"0".repeat(48)}`;
    const e = await fails(client({ apiKey: wrong }).store(), "unauthorized");
    eq(e.status, 401, "status");
    assert(typeof e.requestId === "string" && e.requestId.length > 0, "request id kept");
    assert(!e.message.includes(wrong), "the key never shows");
  }],

  ["404 not_found, and slugs stay one path segment", async ({ c, product, fails }) => {
    const e = await fails(c.productBySlug("no-such-product"), "not_found");
    eq(e.status, 404, "status");
    // Without encoding, "../../store" would reach GET /store (200).
    await fails(c.productBySlug("../../store"), "not_found");
    await fails(c.collection("a/b?c#d"), "not_found");
    await fails(c.collectionBySlug("no-such-collection"), "not_found");
  }],

  ["400 invalid_request from the server", async ({ c, client, variant, currency, fails }) => {
    // Well-formed for the client, wrong for this store (its currency is not XXX).
    const e = await fails(c.initiatePayment({ items: [{ variantId: variant, quantity: 1 }], currency: "XXX" }), "invalid_request");
    eq(e.status, 400, "status");
    assert(/currency/.test(e.message), e.message);
  }],

  ["bad arguments are rejected before any request", async ({ lib, client, currency, address, baseUrl, apiKey, fails, throws }) => {
    const f = counting();
    const cc = client({ fetch: f });
    for (const [args, needle] of [
      [{ limit: 0 }, "limit"],
      [{ limit: 501 }, "limit"],
      [{ limit: 2.5 }, "limit"],
      [{ limit: "5" }, "limit"],
      [{ offset: -1 }, "offset"],
      [{ offset: 1.5 }, "offset"],
      [{ limt: 5 }, "limt"],
      [{ minimal: "yes" }, "minimal"],
      [[], "options"],
      ["x", "options"],
    ]) {
      const e = await fails(cc.products(args), "invalid_argument");
      assert(e.message.includes(needle), `${JSON.stringify(args)}: ${e.message}`);
    }
    await fails(cc.productBySlug(""), "invalid_argument");
    await fails(cc.productBySlug(5), "invalid_argument");
    await fails(cc.productBySlug("."), "invalid_argument");
    await fails(cc.collectionBySlug(undefined), "invalid_argument");
    await fails(cc.collection(".."), "invalid_argument");
    await fails(cc.store({ signal: {} }), "invalid_argument");
    await fails(cc.pages("signal"), "invalid_argument");
    for (const [body, needle] of [
      [{ variantIds: [], country: "US" }, "variantIds"],
      [{ variantIds: ["v"], country: "usa" }, "country"],
      [{ variantIds: ["v"] }, "country"],
      [{ variantIds: "v", country: "US" }, "variantIds"],
      [{ variantIds: ["v"], country: "US", orderTotal: -1 }, "orderTotal"],
      [{ variantIds: ["v"], country: "US", orderTotal: Number.NaN }, "orderTotal"],
      [undefined, "variantIds"],
    ]) {
      const e = await fails(cc.shippingRates(body), "invalid_argument");
      assert(e.message.includes(needle), `${JSON.stringify(body)}: ${e.message}`);
    }
    for (const [body, needle] of [
      [{ items: [], currency: "USD" }, "items"],
      [{ items: [{ variantId: "v", quantity: 0 }], currency: "USD" }, "items[0].quantity"],
      [{ items: [{ variantId: "v", quantity: 1.5 }], currency: "USD" }, "items[0].quantity"],
      [{ items: [{ variantId: "v", quantity: 1 }, { variantId: "v", quantity: 1 }], currency: "USD" }, "items[1].variantId"],
      [{ items: [{ variantId: "v", quantity: 1 }], currency: "usd" }, "currency"],
      [{ items: [{ variantId: "v", quantity: 1 }] }, "currency"],
    ]) {
      const e = await fails(cc.initiatePayment(body), "invalid_argument");
      assert(e.message.includes(needle), `${JSON.stringify(body)}: ${e.message}`);
    }
    for (const [body, needle] of [
      [{ sessionId: "", shippingRateId: "r", shippingAddress: address }, "sessionId"],
      [{ sessionId: "s", shippingRateId: "r", shippingAddress: { ...address, city: " " } }, "shippingAddress.city"],
      [{ sessionId: "s", shippingRateId: "r", shippingAddress: { ...address, email: "nope" } }, "shippingAddress.email"],
      [{ sessionId: "s", shippingRateId: "r" }, "shippingAddress"],
    ]) {
      const e = await fails(cc.updatePayment(body), "invalid_argument");
      assert(e.message.includes(needle), `${JSON.stringify(body)}: ${e.message}`);
    }
    const confirm = { sessionId: "s", confirmationTokenId: "tok_1", shippingRateId: "r", shippingAddress: address, returnUrl: "https://x.example/" };
    for (const [body, needle] of [
      [{ ...confirm, confirmationTokenId: "" }, "confirmationTokenId"],
      [{ ...confirm, returnUrl: " " }, "returnUrl"],
      [{ ...confirm, shippingAddress: { ...address, country: "us" } }, "shippingAddress.country"],
    ]) {
      const e = await fails(cc.confirmPayment(body), "invalid_argument");
      assert(e.message.includes(needle), `${JSON.stringify(body)}: ${e.message}`);
    }
    eq(f.calls.length, 0, "no request was sent");

    for (const [extra, needle] of [
      [{ baseUrl: "http://shop.example/api/v1" }, "https"],
      [{ baseUrl: "https://shop.example/v1" }, "/api/v1"],
      [{ baseUrl: 5 }, "baseUrl"],
      [{ apiKey: "ak_123" }, "apiKey"],
      [{ apiKey: undefined }, "apiKey"],
      [{ timeoutMs: -5 }, "timeoutMs"],
      [{ timeoutMs: 0 }, "timeoutMs"],
      [{ retries: 11 }, "retries"],
      [{ retrys: 1 }, "retrys"],
      [{ fetch: "nope" }, "fetch"],
    ]) {
      const e = throws(() => client(extra), "invalid_argument");
      assert(e.message.includes(needle), `${JSON.stringify(extra)}: ${e.message}`);
    }
    throws(() => new lib.CirrusClient(), "invalid_argument");
  }],

  ["429 then success honours Retry-After; retries: 0 surfaces it", async ({ c, client, arm, fails }) => {
    await arm({ method: "GET", path: "/store", kind: "status", status: 429, retryAfter: 1 });
    const t0 = Date.now();
    await c.store();
    const waited = Date.now() - t0;
    assert(waited >= 950, `waited ${waited} ms, Retry-After says 1 s`);
    await arm({ method: "GET", path: "/store", kind: "status", status: 429, retryAfter: 7 });
    const e = await fails(client({ retries: 0 }).store(), "rate_limited");
    eq(e.retryAfter, 7, "retryAfter");
    eq(e.status, 429, "status");
  }],

  ["500 then success (one retry); shipping rates retried too", async ({ client, variant, arm, fails }) => {
    const f = counting();
    const cc = client({ fetch: f });
    await arm({ method: "GET", path: "/pages", kind: "status", status: 500 });
    assert((await cc.pages()).length > 0, "pages after a retry");
    eq(f.calls.length, 2, "one failure, one retry");
    await arm({ method: "POST", path: "/shipping-rates", kind: "status", status: 503, retryAfter: 0 });
    eq((await cc.shippingRates({ variantIds: [variant], country: "US" }))[0].variantId, variant, "rates after a retry");
    eq(f.calls.length, 4, "shipping rates: one failure, one retry");
    // Out of retries: the last error surfaces.
    await arm({ method: "GET", path: "/store", kind: "status", status: 500, times: 2 });
    const e = await fails(client({ fetch: f, retries: 1 }).store(), "internal");
    eq(e.status, 500, "status");
    eq(f.calls.length, 6, "two attempts");
  }],

  ["payments are never retried: one POST per call", async ({ client, variant, currency, address, baseUrl, arm, fails }) => {
    const f = counting();
    const cc = client({ fetch: f });
    await arm({ method: "POST", path: "/payments/initiate", kind: "status", status: 500 });
    const e = await fails(cc.initiatePayment({ items: [{ variantId: variant, quantity: 1 }], currency }), "internal");
    eq(e.status, 500, "status");
    eq(f.calls.length, 1, "initiate sent exactly once");
    await arm({ method: "POST", path: "/payments/update", kind: "status", status: 503, retryAfter: 0 });
    await fails(cc.updatePayment({ sessionId: "s", shippingRateId: "r", shippingAddress: address }), "internal");
    eq(f.calls.length, 2, "update sent exactly once");
    await arm({ method: "POST", path: "/payments/confirm", kind: "status", status: 429, retryAfter: 0 });
    const confirm = { sessionId: "s", confirmationTokenId: "tok_1", shippingRateId: "r", shippingAddress: address, returnUrl: "https://x.example/" };
    await fails(cc.confirmPayment(confirm), "rate_limited");
    eq(f.calls.length, 3, "confirm sent exactly once");
    await fails(client({ baseUrl: "http://127.0.0.1:9/api/v1", fetch: f }).confirmPayment(confirm), "network");
    eq(f.calls.length, 4, "not even after a network failure");
  }],

  ["a POST body holds the fields the API knows, nothing else", async ({ client, variant, baseUrl, apiKey, fails }) => {
    // options.fetch is called with the Request the client built (one argument); its body
    // is read here before the real fetch consumes it.
    const seen = [];
    const f = async (...a) => {
      seen.push({ args: a, body: a[0] instanceof Request ? await a[0].clone().text() : undefined });
      return fetch(...a);
    };
    const rates = await client({ fetch: f }).shippingRates({ variantIds: [variant], country: "US", extra: "x", orderTotal: 10 });
    eq(rates[0].variantId, variant, "rates");
    eq(seen.length, 1, "one request");
    eq(seen[0].args.length, 1, "fetch(request)");
    const [req] = seen[0].args;
    assert(req instanceof Request, "a Request");
    eq(req.url, `${baseUrl}/shipping-rates`, "url");
    eq(req.method, "POST", "method");
    eq(seen[0].body, JSON.stringify({ variantIds: [variant], country: "US", orderTotal: 10 }), "body");
    eq(req.headers.get("Authorization"), `Bearer ${apiKey}`, "authorization");
    eq(req.headers.get("Content-Type"), "application/json", "content type");
    // A fetch that resolves to something that is not a Response is a network error, never a crash.
    await fails(client({ fetch: async () => "not a response", retries: 0 }).store(), "network");
    await fails(client({ fetch: () => { throw new TypeError("sync failure"); }, retries: 0 }).store(), "network");
  }],

  ["truncated body is decode naming the request and status", async ({ c, arm, fails }) => {
    await arm({ method: "GET", path: "/collections", kind: "truncated" });
    const e = await fails(c.collections(), "decode");
    assert(e.message.includes("JSON") && e.message.includes("/collections"), e.message);
    eq(e.status, 200, "status");
    assert(typeof e.requestId === "string", "request id");
  }],

  ["non-ASCII bodies and text-only Response-likes reach the caller as sent", async ({ c, client, fails }) => {
    // The body is copied into wasm memory by TextEncoder.encodeInto: one byte per UTF-16 unit
    // first (all of an ASCII body), the rest of any other body in a second call
    // (src/wasm/body.rs). 2-, 3- and 4-byte characters, then a long ASCII tail: the check must
    // see every byte where it is, so a wrong type after them is still named by its path.
    const store = await c.store();
    const name = "Café — 日本 😀 " + "x".repeat(5000);
    const sent = (v) => async () => new Response(JSON.stringify({ store: v }), { status: 200 });
    eq((await client({ fetch: sent({ ...store, name }) }).store()).name, name, "non-ASCII name");
    const e = await fails(client({ fetch: sent({ ...store, name, id: 5 }) }).store(), "decode");
    assert(e.message.includes("store.id"), e.message);
    // A Response-like object with status, headers and text() only (another realm's, a polyfill's).
    const like = async () => ({ status: 200, headers: new Headers(), text: async () => JSON.stringify({ store: { ...store, name } }) });
    eq((await client({ fetch: like }).store()).name, name, "text-only Response-like");
  }],

  ["a body of the wrong shape is decode naming the JSON path", async ({ client, fails }) => {
    const fake = async () => new Response(JSON.stringify({ store: { id: 5 } }), { status: 200, headers: { "x-request-id": "req_fake" } });
    const e = await fails(client({ fetch: fake }).store(), "decode");
    assert(e.message.includes("store.id") && e.message.includes("/store"), e.message);
    eq(e.requestId, "req_fake", "request id");
    const nopag = async () => new Response(JSON.stringify({ products: [] }), { status: 200 });
    const e2 = await fails(client({ fetch: nopag }).products({ includePagination: true }), "decode");
    assert(e2.message.includes("pagination"), e2.message);
    const html = async () => new Response("<html>bad gateway</html>", { status: 502, headers: { "x-request-id": "req_proxy" } });
    const e3 = await fails(client({ fetch: html, retries: 0 }).store(), "http");
    eq(e3.status, 502, "status");
    eq(e3.requestId, "req_proxy", "request id");
  }],

  ["slow response is timeout (and a timeout is retried)", async ({ client, arm, disarm, fails }) => {
    // The server holds the answer for 30 s; a client that waited for it would take 30 s.
    await arm({ method: "GET", path: "/store", kind: "slow", delayMs: HELD_MS });
    const t0 = Date.now();
    await fails(client({ timeoutMs: 300, retries: 0 }).store(), "timeout");
    const took = Date.now() - t0;
    assert(took < GAVE_UP_MS, `gave up at the timeout (${took} ms), not after the ${HELD_MS} ms response`);
    assert(took >= 250, `not before the timeout (${took} ms)`);
    await disarm();
    // A timeout long enough for the first attempt to reach the server (and take the fault)
    // on a loaded machine; the server holds it for 30 s, the retry is answered at once.
    const f = counting();
    await arm({ method: "GET", path: "/store", kind: "slow", delayMs: HELD_MS });
    await client({ timeoutMs: 1000, retries: 1, fetch: f }).store();
    eq(f.calls.length, 2, "timed out once, then answered");
  }],

  ["abort signal is aborted", async ({ c, client, variant, arm, fails }) => {
    await arm({ method: "GET", path: "/pages", kind: "slow", delayMs: HELD_MS });
    const t0 = Date.now();
    await fails(c.pages(abortAfter(100)), "aborted");
    assert(Date.now() - t0 < GAVE_UP_MS, `gave up at the abort (${Date.now() - t0} ms), not after the ${HELD_MS} ms response`);
    const ctl = new AbortController();
    ctl.abort();
    await fails(c.store(ctl.signal), "aborted");
    await arm({ method: "POST", path: "/shipping-rates", kind: "slow", delayMs: HELD_MS });
    const t2 = Date.now();
    await fails(c.shippingRates({ variantIds: [variant], country: "US" }, abortAfter(100)), "aborted");
    assert(Date.now() - t2 < GAVE_UP_MS, `shipping rates gave up at the abort (${Date.now() - t2} ms)`);
    // Aborting while waiting to retry: Retry-After 30 s, the abort comes once the first
    // attempt was answered (ordering: the 429 arrived, then the abort).
    const answered = [];
    const f = counting();
    const seen = (...a) => f(...a).then((r) => (answered.push(r.status), r));
    await arm({ method: "GET", path: "/store", kind: "status", status: 429, retryAfter: 30 });
    const later = new AbortController();
    const t1 = Date.now();
    const waiting = client({ fetch: seen }).store(later.signal);
    while (answered.length === 0) await sleep(10);
    eq(answered[0], 429, "the first attempt was answered 429");
    later.abort();
    await fails(waiting, "aborted");
    eq(f.calls.length, 1, "no second attempt after the abort");
    assert(Date.now() - t1 < GAVE_UP_MS, `did not wait out Retry-After 30 s (${Date.now() - t1} ms)`);
  }],

  ["network failure is network", async ({ client, baseUrl, fails }) => {
    const e = await fails(client({ baseUrl: "http://127.0.0.1:9/api/v1", retries: 0 }).store(), "network");
    eq(e.status, null, "no status");
    const f = counting();
    const down = (...a) => (f.calls.push(a), Promise.reject(new TypeError("Failed to fetch")));
    down.calls = f.calls;
    await fails(client({ fetch: down, retries: 1 }).store(), "network");
    eq(f.calls.length, 2, "a network failure is retried");
  }],

  // ------------------------------------------------------------------ sharing and cache

  ["identical GETs in flight share one request", async ({ client }) => {
    const f = counting();
    const cc = client({ fetch: f });
    const [a, b] = await Promise.all([cc.store(), cc.store()]);
    eq(f.calls.length, 1, "two callers, one request");
    assert(a === b, "the same object");
    await cc.store();
    eq(f.calls.length, 2, "no cache without cacheTtlMs");
    await Promise.all([cc.products({ limit: 2 }), cc.products({ limit: 3 }), cc.products({ limit: 2 })]);
    eq(f.calls.length, 4, "different queries are different requests");
  }],

  ["cache TTL and clearCache", async ({ client, arm, fails }) => {
    const f = counting();
    const cc = client({ fetch: f, cacheTtlMs: 60_000 });
    const [a, b] = await Promise.all([cc.store(), cc.store()]);
    assert(a === b, "shared");
    eq(f.calls.length, 1, "one request");
    eq(await cc.store(), a, "from the cache");
    eq(f.calls.length, 1, "answered from the cache");
    cc.clearCache();
    await cc.store();
    eq(f.calls.length, 2, "clearCache() forgets");
    // Failures are not cached.
    await arm({ method: "GET", path: "/pages", kind: "status", status: 404 });
    await fails(cc.pages(), "not_found");
    await cc.pages();
    eq(f.calls.length, 4, "a failure is not cached");
    // The TTL expires (within the TTL is the 60 s client above; here only a lower bound:
    // after sleeping past the TTL the answer must be fetched again).
    const g = counting();
    const short = client({ fetch: g, cacheTtlMs: 100 });
    await short.store();
    eq(g.calls.length, 1, "fetched once");
    await sleep(250);
    await short.store();
    eq(g.calls.length, 2, "after the TTL");
  }],

  // ------------------------------------------------------------------ cache strategies
  // Short windows, lower bounds only: a loaded machine may take longer between two lines, so
  // "still fresh" uses windows of minutes, and "past the window" sleeps well beyond it.

  ["cache strategies: fresh, then stale served at once and refreshed once for every caller", async ({ lib, client }) => {
    // Requests after the first wait for `open()`, so the refresh is surely in flight meanwhile.
    let open;
    const gate = new Promise((r) => (open = r));
    const f = async (...a) => {
      f.calls.push(a);
      if (f.calls.length > 1) await gate;
      return fetch(...a);
    };
    f.calls = [];
    const told = [];
    const cc = client({ fetch: f, cache: { maxAgeMs: 300, staleWhileRevalidateMs: 60_000 } });
    const a = await cc.store();
    eq(await cc.store(), a, "fresh: from the cache");
    eq(f.calls.length, 1, "fresh: no request");
    await sleep(500);
    const mine = [];
    const tell = { onStale: (s) => told.push(s) };
    const answers = await Promise.all([cc.store({ onStale: (s) => mine.push(s) }), cc.store(tell), cc.store(), cc.store({ cache: lib.CacheLong(), ...tell })]);
    assert(answers.every((x) => x === a), "every caller got the stale answer at once");
    eq(f.calls.length, 2, "one background refresh for four callers");
    eq(mine.length, 1, "the call's onStale heard of its own stale answer");
    eq(told.length, 1, "each call's onStale heard of its own (CacheLong() found it fresh)");
    eq(mine[0].reason, "revalidating", "reason");
    eq(mine[0].path, "/store", "path");
    eq(mine[0].error, null, "no error");
    // `Date.now()` ticks in whole milliseconds and node's timers may fire a millisecond early
    // against it (seen: 499 after sleep(500)), so the age is checked with 10 ms to spare.
    assert(mine[0].ageMs >= 490, `ageMs ${mine[0].ageMs}`);
    // A caller that does not take stale answers joins the refresh in flight.
    const joining = cc.store({ cache: "no-store" });
    await sleep(50);
    open();
    const fresh = await joining;
    assert(fresh !== a, "no-store: a new answer");
    eq(f.calls.length, 2, "no-store joined the refresh in flight");
    eq(await cc.store(), fresh, "the refreshed answer is stored");
    eq(f.calls.length, 2, "refreshed once");
  }],

  ["cache strategies: stale-if-error inside its window (network, timeout, 5xx), not outside it", async ({ client, arm, fails }) => {
    let mode = "ok";
    const f = (...a) => {
      f.calls.push(a);
      if (mode === "network") return Promise.reject(new TypeError("Failed to fetch"));
      if (mode === "hang") return new Promise(() => {});
      return fetch(...a);
    };
    f.calls = [];
    const cc = client({ fetch: f, retries: 0, cache: { maxAgeMs: 100, staleIfErrorMs: 60_000 } });
    const a = await cc.pages();
    await sleep(250);
    const seen = [];
    mode = "network";
    eq(await cc.pages({ onStale: (s) => seen.push(s) }), a, "network error: the stored answer");
    eq(f.calls.length, 2, "the request was sent");
    eq(seen.length, 1, "onStale told");
    eq(seen[0].reason, "error", "reason");
    eq(seen[0].error.code, "network", "the request's error");
    assert(seen[0].ageMs >= 240, `ageMs ${seen[0].ageMs}`); // 10 ms to spare, as above
    // A timeout (an in-memory fetch, so a slow machine cannot time out the first answer).
    const memory = () => (mode === "hang" ? new Promise(() => {}) : Promise.resolve(new Response('{"pages":[]}')));
    const hc = client({ fetch: memory, retries: 0, timeoutMs: 300, cache: { maxAgeMs: 100, staleIfErrorMs: 60_000 } });
    const empty = await hc.pages();
    await sleep(250);
    mode = "hang";
    eq(await hc.pages({ onStale: (s) => seen.push(s) }), empty, "timeout: the stored answer");
    eq(seen[1].error.code, "timeout", "timeout told");
    mode = "ok";
    await arm({ method: "GET", path: "/pages", kind: "status", status: 503 });
    eq(await cc.pages({ onStale: (s) => seen.push(s) }), a, "503: the stored answer");
    eq(seen[2].error.status, 503, "503 told");
    // Not a 4xx, and not for a call that asked for no cache.
    await arm({ method: "GET", path: "/pages", kind: "status", status: 404 });
    await fails(cc.pages(), "not_found");
    mode = "network";
    await fails(cc.pages({ cache: "no-store" }), "network");
    eq(seen.length, 3, "no more stale answers");
    // Outside the window: the error.
    mode = "ok";
    const short = client({ fetch: f, retries: 0, cache: { maxAgeMs: 50, staleIfErrorMs: 200 } });
    await short.collections();
    await sleep(450);
    mode = "network";
    await fails(short.collections(), "network");
  }],

  ["cache strategies: no-store, per client and per call; presets; cacheTtlMs is maxAgeMs", async ({ lib, client }) => {
    eq(lib.CacheNone(), "no-store", "CacheNone()");
    eq(JSON.stringify(lib.CacheShort()), '{"maxAgeMs":1000,"staleWhileRevalidateMs":9000}', "CacheShort()");
    eq(JSON.stringify(lib.CacheLong()), '{"maxAgeMs":3600000,"staleWhileRevalidateMs":82800000}', "CacheLong()");
    eq(JSON.stringify(lib.CacheShort({ staleIfErrorMs: 5 })), '{"maxAgeMs":1000,"staleWhileRevalidateMs":9000,"staleIfErrorMs":5}', "CacheShort(overrides)");
    eq(JSON.stringify(lib.CacheCustom({ maxAgeMs: 7 })), '{"maxAgeMs":7}', "CacheCustom()");
    const f = counting();
    const none = client({ fetch: f, cache: lib.CacheNone() });
    await none.store();
    await none.store();
    eq(f.calls.length, 2, "no-store client: every call a request");
    eq(none.cacheSize, 0, "nothing stored");
    const long = client({ fetch: f, cache: lib.CacheLong() });
    const a = await long.store();
    assert((await long.store({ cache: "no-store" })) !== a, "per call no-store: a new answer");
    eq(f.calls.length, 4, "per call no-store skips the cache");
    eq(await long.store(), a, "the stored answer is still the client's");
    eq(f.calls.length, 4, "from the cache");
    // A call's strategy on a client without one.
    const plain = client({ fetch: f });
    const b = await plain.store({ cache: lib.CacheLong() });
    eq(await plain.store({ cache: lib.CacheLong() }), b, "per call cache");
    eq(f.calls.length, 5, "one request");
    await plain.store();
    eq(f.calls.length, 6, "the client's own strategy (none) still asks");
    const ttl = client({ fetch: f, cacheTtlMs: 60_000 });
    await ttl.store();
    await ttl.store();
    eq(f.calls.length, 7, "cacheTtlMs caches as before");
  }],

  ["cache options and fetchOptions are checked before any request; fetchOptions reach fetch", async ({ lib, client, variant, fails, throws }) => {
    for (const cache of ["no-cache", 5, [], { maxAge: 1000 }, { maxAgeMs: -1 }, { staleWhileRevalidateMs: 1.5 }, { staleIfErrorMs: "1" }]) {
      const e = throws(() => client({ cache }), "invalid_argument");
      assert(e.message.startsWith("options.cache"), e.message);
    }
    assert(throws(() => client({ cache: lib.CacheShort(), cacheTtlMs: 5 }), "invalid_argument").message.includes("not both"), "cache and cacheTtlMs");
    const f = counting();
    const cc = client({ fetch: f });
    for (const [opts, says] of [
      [{ cache: { maxAgeMs: 1.5 } }, "callOptions.cache.maxAgeMs"],
      [{ fetchOptions: { headers: {} } }, "fetchOptions.headers"],
      [{ fetchOptions: { signal: null } }, "fetchOptions.signal"],
      [{ fetchOptions: "x" }, "callOptions.fetchOptions"],
      [{ cache: { maxAge: 1 } }, "callOptions.cache: unknown field `maxAge`, expected one of `maxAgeMs`"],
      [{ cache: "no-cache" }, "callOptions.cache must be \"no-store\" or a CacheStrategy object"],
      [{ onStale: 1 }, "callOptions.onStale must be a function, got the number 1"],
      [{ cach: lib.CacheShort() }, "callOptions: unknown field `cach`, expected one of `signal`, `cache`, `fetchOptions`, `onStale`"],
      [{ signal: 5 }, "callOptions.signal must be an AbortSignal, got the number 5"],
      [5, "signal must be an AbortSignal"],
    ]) {
      const e = await fails(cc.store(opts), "invalid_argument");
      assert(e.message.includes(says), `${says}: ${e.message}`);
    }
    eq(f.calls.length, 0, "no request");
    const fetchOptions = { next: { revalidate: 60, tags: ["products"] }, cf: { cacheTtl: 5 } };
    await cc.products({ limit: 1 }, { fetchOptions });
    eq(f.calls[0][1], fetchOptions, "the call's fetchOptions are fetch's second argument");
    assert(f.calls[0][0] instanceof Request, "the Request first");
    await cc.shippingRates({ variantIds: [variant], country: "US" }, { fetchOptions });
    eq(f.calls[1][1], fetchOptions, "POSTs too");
    await cc.store();
    eq(f.calls[2].length, 1, "no fetchOptions: the Request alone");
    const ctl = new AbortController();
    ctl.abort();
    await fails(cc.store({ signal: ctl.signal, fetchOptions }), "aborted");
    const pages = [];
    for await (const p of cc.allProducts({ pageSize: 500, minimal: true }, { fetchOptions })) pages.push(p);
    eq(f.calls.at(-1)[1], fetchOptions, "allProducts passes them on");
  }],

  ["the cache is bounded with stale windows too: at most 256 answers", async ({ client }) => {
    const f = async (...a) => (f.calls.push(a), new Response('{"products":[]}', { status: 200 }));
    f.calls = [];
    const cc = client({ fetch: f, cache: { maxAgeMs: 1, staleWhileRevalidateMs: 60_000, staleIfErrorMs: 120_000 } });
    for (let offset = 0; offset < 300; offset++) await cc.products({ limit: 1, offset, minimal: true });
    eq(f.calls.length, 300, "one request per page");
    eq(cc.cacheSize, 256, "the oldest answers went");
    await sleep(20);
    await cc.products({ limit: 1, offset: 299, minimal: true });
    eq(f.calls.length, 301, "a stale answer, refreshed in the background");
    await sleep(20);
    assert(cc.cacheSize <= 256, `cacheSize ${cc.cacheSize}`);
    await cc.products({ limit: 1, offset: 0, minimal: true });
    eq(f.calls.length, 302, "an evicted answer is fetched again");
    cc.clearCache();
    eq(cc.cacheSize, 0, "clearCache() empties it");
  }],

  ["past 256 answers the one whose last window ends soonest goes, not the oldest", async ({ client }) => {
    const f = async (...a) => (f.calls.push(a), new Response('{"products":[]}', { status: 200 }));
    f.calls = [];
    const cc = client({ fetch: f });
    const page = (offset, maxAgeMs) => cc.products({ limit: 1, offset, minimal: true }, { cache: { maxAgeMs } });
    await page(0, 3_600_000); // the oldest answer, kept for an hour
    for (let offset = 1; offset <= 256; offset++) await page(offset, 60_000);
    eq(cc.cacheSize, 256, "one answer went");
    await page(0, 3_600_000);
    eq(f.calls.length, 257, "the oldest answer (its window ends last) is still cached");
    await page(1, 60_000);
    eq(f.calls.length, 258, "the answer whose window ends soonest went and is fetched again");
  }],

  ["one caller aborting leaves the shared request to the others; all leaving aborts it", async ({ client, arm, disarm, fails }) => {
    const f = counting();
    const cc = client({ fetch: f });
    // Ordering, not timing: the server holds the answer (1 s) and the quitter aborts as soon
    // as the shared request has been sent.
    await arm({ method: "GET", path: "/pages", kind: "slow", delayMs: 1000 });
    const quit = new AbortController();
    const quitter = cc.pages(quit.signal);
    const stayer = cc.pages();
    while (f.calls.length === 0) await sleep(5);
    quit.abort();
    await fails(quitter, "aborted");
    assert((await stayer).length > 0, "the other caller gets the answer");
    eq(f.calls.length, 1, "one request");
    await arm({ method: "GET", path: "/pages", kind: "slow", delayMs: HELD_MS });
    const ctl = new AbortController();
    const both = [cc.pages(ctl.signal), cc.pages(ctl.signal)];
    while (f.calls.length < 2) await sleep(5);
    ctl.abort();
    await fails(both[0], "aborted");
    await fails(both[1], "aborted");
    eq(f.calls.length, 2, "one more request");
    assert(f.calls[1][0].signal.aborted, "the request itself was aborted once everybody left");
    // The abort may come before the server saw the request (then the fault is still armed).
    await disarm();
    // A later caller starts afresh instead of joining the aborted request.
    assert((await cc.pages()).length > 0, "a new request");
    eq(f.calls.length, 3, "fresh request");
  }],

  ["clearCache() is harmless; free() releases one client, not the others", async ({ client, currency }) => {
    const cc = client();
    cc.clearCache();
    eq((await cc.store()).defaultCurrency, currency, "still works after clearCache()");
    const other = client();
    cc.free();
    let threw = false;
    try {
      await cc.store();
    } catch (e) {
      threw = e instanceof Error;
    }
    assert(threw, "a freed client refuses calls with an Error");
    eq((await other.store()).defaultCurrency, currency, "other clients keep working");
  }],

  ["the cache is bounded: paging with a TTL keeps at most 256 answers", async ({ client }) => {
    // An in-memory fetch: 300 requests would meet the dev server's rate limit.
    const f = async (...a) => (f.calls.push(a), new Response('{"products":[]}', { status: 200 }));
    f.calls = [];
    const cc = client({ fetch: f, cacheTtlMs: 60_000 });
    for (let offset = 0; offset < 300; offset++) await cc.products({ limit: 1, offset, minimal: true });
    eq(f.calls.length, 300, "one request per page");
    assert(cc.cacheSize <= 256 && cc.cacheSize >= 200, `cacheSize ${cc.cacheSize}`);
    await cc.products({ limit: 1, offset: 299, minimal: true });
    eq(f.calls.length, 300, "the newest answers are still cached");
    cc.clearCache();
    eq(cc.cacheSize, 0, "clearCache() empties it");
  }],
];
