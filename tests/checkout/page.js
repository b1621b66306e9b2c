// Drives the packaged Checkout for checkout.test.mjs. Configuration comes from
// window.__CHECKOUT_TEST (set by the test through an init script, so the API
// key never appears in a URL).
import { init, CirrusClient, Checkout, Cart } from "./pkg/index.js";
import { LocalstripeAdapter } from "./pkg/adapters/localstripe.js";

const cfg = window.__CHECKOUT_TEST;
await init();
const client = new CirrusClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey, retries: 0 });
/** A storefront's own CheckoutClient whose confirm answer leaves out its null members (issue 41, finding 2). */
const lean = {
  initiatePayment: (b) => client.initiatePayment(b),
  updatePayment: (b) => client.updatePayment(b),
  shippingRates: (b) => client.shippingRates(b),
  confirmPayment: async (b) => Object.fromEntries(Object.entries(await client.confirmPayment(b)).filter(([, v]) => v !== null)),
};
let active = client;
const adapter = new LocalstripeAdapter({ container: "#card", localstripeUrl: cfg.localstripeUrl });
let checkout = null;
const events = [];

function watch(c) {
  checkout = c;
  if (c) {
    c.subscribe((s) => {
      events.push(s.state);
      document.getElementById("state").textContent = s.state;
    });
  }
  return c ? c.state : null;
}

/** Errors cross to the test as plain data. */
async function data(p) {
  try {
    return { ok: await p };
  } catch (e) {
    return { error: { name: e && e.name, code: e && e.code, message: e && e.message } };
  }
}

window.t = {
  events,
  start: (items, currency) => data(Checkout.start(active, { items, currency, adapter }).then(watch)),
  resume: () => data(Checkout.resume(active, { adapter }).then(watch)),
  /** `start`/`resume` use the lean client from now on. */
  useLean: () => { active = lean; return true; },
  options: (country) => data(checkout.shippingOptions(country)),
  select: (rateId, address) => data(checkout.selectShipping(rateId, address)),
  pay: (returnUrl) => data(checkout.pay({ returnUrl })),
  /** Two clicks in the same tick: both must get the very same promise. */
  doublePay: (returnUrl) => {
    const a = checkout.pay({ returnUrl });
    const b = checkout.pay({ returnUrl });
    return data(Promise.all([a, b]).then(([x, y]) => ({ same: a === b, x, y })));
  },
  /** Start a payment without awaiting it (for reloads in the middle). */
  payInBackground: (returnUrl) => {
    window.__paying = data(checkout.pay({ returnUrl }));
    return true;
  },
  cancel: () => data(Promise.resolve().then(() => checkout.cancel())),
  /** `Checkout.clearStored()`: a page buying the same bare items again after they were paid (issue 31, finding 6). */
  clear: () => data(Promise.resolve().then(() => Checkout.clearStored())),
  state: () => (checkout ? checkout.state : null),
  stored: () => localStorage.getItem("cirrus.checkout"),
  setStored: (text) => localStorage.setItem("cirrus.checkout", text),
  /** A call left running (it may wait for 3-D Secure): `bgDone()` tells when, `bgResult()` gives it. */
  bg: (name, ...args) => {
    window.__bgDone = false;
    window.__bg = window.t[name](...args).finally(() => { window.__bgDone = true; });
    return true;
  },
  bgDone: () => window.__bgDone === true,
  bgResult: () => window.__bg,
  /** A persistent cart (Cart.persistent, localStorage under `key`) shared by the tabs of this browser context. */
  cartFill: (key, currency, product, variantId, quantity) => {
    const cart = Cart.persistent(currency, { key });
    cart.clear();
    cart.add(product, variantId, quantity);
    return cart.paymentItems();
  },
  cartStart: (key, currency) => data(Checkout.start(client, { cart: Cart.persistent(currency, { key }), adapter }).then(watch)),
  cartResume: (key, currency) => data(Checkout.resume(client, { adapter, cart: Cart.persistent(currency, { key }) }).then(watch)),
};
window.ready = true;
