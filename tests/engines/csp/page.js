// The README's checkout, as a storefront on another origin than the API writes it, under the
// README's Content-Security-Policy: init() (the .wasm from this origin), the client (the API's
// origin), a persistent cart, Checkout with the localstripe adapter (its Stripe.js and API).
// The test drives it through window.t (each step a promise; errors come back as data).
import { init, CirrusClient, Cart, Checkout, formatMoney, preferredLocale } from "/pkg/index.js";
import { LocalstripeAdapter } from "/pkg/adapters/localstripe.js";

const cfg = await (await fetch("/config.json")).json();
await init();
const client = new CirrusClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey });
const store = await client.store();
const adapter = new LocalstripeAdapter({ container: "#payment", localstripeUrl: cfg.localstripeUrl });
const locale = preferredLocale();
let checkout = null;

const data = (p) => p.then((ok) => ({ ok }), (e) => ({ error: `${e && e.name}: ${e && e.code} ${e && e.message}` }));
const address = { email: "buyer@example.com", firstName: "Ada", lastName: "Lovelace", address1: "1 Analytical Way", address2: null, city: "Springfield", state: null, postalCode: "12345", country: "US", phone: null };

window.t = {
  /** A cart with `quantity` of the variant, its checkout, the first US rate; the total shown. */
  start: (slug, variantId, quantity) => data((async () => {
    const product = await client.productBySlug(slug);
    const cart = Cart.persistent(store.defaultCurrency, { key: "csp.cart" });
    cart.clear();
    cart.add(product, variantId, quantity);
    checkout = (await Checkout.resume(client, { adapter, cart })) ?? (await Checkout.start(client, { cart, adapter }));
    checkout.subscribe((s) => { document.getElementById("state").textContent = s.state; });
    const options = await checkout.shippingOptions("US");
    const chosen = await checkout.selectShipping(options[0].rate.id, address);
    const shown = formatMoney(chosen.session.amount, store.defaultCurrency, locale);
    document.getElementById("total").textContent = shown;
    return { total: shown, amount: chosen.session.amount, locale };
  })()),
  pay: () => data(checkout.pay({ returnUrl: location.href }).then((s) => ({ state: s.state, paymentIntentId: s.paymentIntentId ?? null }))),
};
window.ready = true;
