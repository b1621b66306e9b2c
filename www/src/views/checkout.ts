// Checkout: address -> shipping options (prices, delivery times) -> the server's
// totals with tax -> the processor's payment element -> pay (3-D Secure when the
// card asks for it) -> order summary. The SDK's `Checkout` runs the state
// machine and keeps the checkout with the cart, for every tab (single flight,
// idempotent confirm, resumable anywhere); this view opens it exactly as the
// README says, `Checkout.resume(client, { adapter, cart }) ?? Checkout.start(client,
// { cart, adapter })`, and only renders its state.
import { Checkout } from 'cirrus-storefront';
import { LocalstripeAdapter } from 'cirrus-storefront/adapters/localstripe';
import { StripeAdapter } from 'cirrus-storefront/adapters/stripe';
import type { Breakdown, CheckoutState, CountryCode, CurrencyCode, MinorUnits, ShippingAddress, ShippingOption } from 'cirrus-storefront';
import type { Ctx } from '../ctx';
import { h, replace, status } from '../dom';
import { href, navigate } from '../router';
import { fmt } from '../money';
import { CirrusError, describeError } from '../sdk';

const ORDER_KEY = 'cirrus-demo-last-order';
const COUNTRIES: [CountryCode, string][] = [
  ['US', 'United States'], ['CA', 'Canada'], ['GB', 'United Kingdom'], ['DE', 'Germany'], ['FR', 'France'],
  ['NL', 'Netherlands'], ['ES', 'Spain'], ['IT', 'Italy'], ['AU', 'Australia'], ['JP', 'Japan'],
];

interface OrderSummary {
  paymentIntentId: string;
  email: string;
  name: string;
  address: string;
  rate: string;
  currency: CurrencyCode;
  breakdown: Breakdown;
  lines: { name: string; attrs: string; quantity: number; lineTotal: MinorUnits }[];
}

/** The processor's payment form goes into `container`; `Checkout` mounts it once a session exists. */
function adapterFor(ctx: Ctx, container: HTMLElement) {
  return ctx.config.processor === 'stripe'
    ? new StripeAdapter({ container })
    : new LocalstripeAdapter({ container, localstripeUrl: ctx.config.localstripeUrl! });
}

function field(id: string, label: string, attrs: Record<string, string | boolean> = {}): HTMLElement {
  const input = h('input', { id, name: id, type: 'text', ...attrs, 'aria-describedby': `${id}-error` });
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, h('span', { class: 'error', id: `${id}-error` }));
}

export async function checkoutView(main: HTMLElement, ctx: Ctx): Promise<void> {
  ctx.setTitle('Checkout');
  const cur = ctx.store.defaultCurrency;
  const paymentElement = h('div', { id: 'payment-element', class: 'payment-element' });
  const adapter = adapterFor(ctx, paymentElement);
  const cart = ctx.cart.cart;
  // What the order summary lists once paid (the SDK empties the cart when the payment succeeds).
  const lines = cart.lines.map((l) => ({ name: l.productName, attrs: Object.values(l.attributes).join(' / '), quantity: l.quantity, lineTotal: l.lineTotal }));
  // The cart's checkout, shared by every tab: a payment not settled yet is finished, a live
  // checkout for these items goes on, a paid one shows its order; otherwise a new one starts.
  let checkout: Checkout | null;
  try {
    checkout = (await Checkout.resume(ctx.api.client, { adapter, cart }))
      ?? (cart.isEmpty ? null : await Checkout.start(ctx.api.client, { cart, adapter }));
  } catch (err) {
    if (ctx.signal.aborted) return;
    const msg = err instanceof CirrusError && err.code === 'invalid_state' ? err.message : describeError(err);
    replace(main, h('h1', null, 'Checkout'), status('error', msg, { label: 'Try again', run: () => void checkoutView(main, ctx) }));
    return;
  }
  if (ctx.signal.aborted) return;
  if (!checkout) {
    replace(main, h('h1', null, 'Checkout'), status('empty', 'Your cart is empty.'), h('p', null, h('a', { href: href.home() }, 'Continue shopping')));
    return;
  }
  const co = checkout;

  const summary = h('aside', { class: 'summary', 'aria-labelledby': 'summary-title' });
  const addressForm = h('form', { id: 'address-form', novalidate: true });
  const rates = h('div', { id: 'shipping-rates', 'aria-live': 'polite' });
  const addrError = h('div', { 'aria-live': 'assertive' });
  const payBox = h('section', { id: 'payment', 'aria-labelledby': 'payment-title', hidden: true });
  const payError = h('div', { id: 'pay-error', 'aria-live': 'assertive' });
  const payBtn = h('button', { type: 'button', class: 'btn btn-primary', id: 'pay' }, 'Pay');
  const continueBtn = h('button', { type: 'submit', class: 'btn btn-primary', id: 'continue' }, 'Continue to payment');
  let options: ShippingOption[] = [];

  const renderSummary = (s: CheckoutState) => {
    // The server's totals once they hold the shipping chosen.
    const b = 'shipping' in s ? s.session.breakdown : null;
    replace(summary,
      h('h2', { id: 'summary-title' }, 'Order summary'),
      ctx.cart.linesList(false),
      b
        ? h('dl', { class: 'totals', id: 'server-totals' },
            h('dt', null, 'Subtotal'), h('dd', null, fmt(b.subtotal, cur)),
            h('dt', null, 'Shipping'), h('dd', { 'data-shipping': '' }, fmt(b.shipping, cur)),
            h('dt', null, 'Tax'), h('dd', { 'data-tax': '' }, fmt(b.tax, cur)),
            h('dt', { class: 'grand' }, 'Total'), h('dd', { class: 'grand', 'data-total': '' }, fmt(b.total, cur)))
        : ctx.cart.totalsList([['Shipping', 'Calculated next']]));
  };

  const country = h('select', { id: 'country', name: 'country', autocomplete: 'country' },
    COUNTRIES.map(([code, name]) => h('option', { value: code }, name)));
  // The <select> offers COUNTRIES' codes only (the SDK checks the code again at run time).
  const countryCode = (): CountryCode => country.value as CountryCode;
  const loadRates = async () => {
    replace(rates, status('loading', 'Finding shipping options…'));
    try {
      options = await co.shippingOptions(countryCode());
    } catch (err) {
      replace(rates, status('error', describeError(err), { label: 'Try again', run: () => void loadRates() }));
      return;
    }
    const now = co.state;
    const chosen = 'shipping' in now && now.shipping.address.country === country.value ? now.shipping.rate.id : null;
    if (options.length === 0) {
      replace(rates, status('empty', 'We don’t ship this order to that country yet.'));
      return;
    }
    replace(rates, h('fieldset', null, h('legend', null, 'Shipping method'),
      h('ul', { class: 'rates' }, options.map((o, i) => h('li', null,
        h('label', null,
          h('input', { type: 'radio', name: 'rate', value: o.rate.id, checked: chosen ? o.rate.id === chosen : i === 0, required: true }),
          h('span', null, o.rate.name,
            h('span', { class: 'rate-time' }, `${o.rate.deliveryTimeframeMin}–${o.rate.deliveryTimeframeMax} business days`),
            o.rate.deliveryDescription ? h('span', { class: 'rate-desc' }, o.rate.deliveryDescription) : null),
          h('span', { class: 'rate-price' }, o.price === 0 ? 'Free' : fmt(o.price, cur))))))));
  };
  country.addEventListener('change', () => void loadRates());

  replace(addressForm,
    h('fieldset', null, h('legend', null, 'Contact'),
      field('email', 'Email', { type: 'email', autocomplete: 'email', required: true })),
    h('fieldset', null, h('legend', null, 'Shipping address'),
      h('div', { class: 'row' }, field('firstName', 'First name', { autocomplete: 'given-name', required: true }),
        field('lastName', 'Last name', { autocomplete: 'family-name', required: true })),
      field('address1', 'Address', { autocomplete: 'address-line1', required: true }),
      field('address2', 'Apartment, suite (optional)', { autocomplete: 'address-line2' }),
      h('div', { class: 'row' }, field('city', 'City', { autocomplete: 'address-level2', required: true }),
        field('state', 'State / region (optional)', { autocomplete: 'address-level1' }),
        field('postalCode', 'Postal code', { autocomplete: 'postal-code', required: true })),
      h('div', { class: 'field' }, h('label', { for: 'country' }, 'Country'), country),
      field('phone', 'Phone (optional)', { type: 'tel', autocomplete: 'tel' })),
    rates,
    addrError,
    continueBtn);

  const value = (id: string) => (addressForm.querySelector(`#${id}`) as HTMLInputElement).value.trim();
  addressForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(addrError);
    for (const el of addressForm.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    const address: ShippingAddress = {
      email: value('email'), firstName: value('firstName'), lastName: value('lastName'), address1: value('address1'),
      address2: value('address2') || null, city: value('city'), state: value('state') || null,
      postalCode: value('postalCode'), country: countryCode(), phone: value('phone') || null,
    };
    const rateId = (addressForm.querySelector('input[name="rate"]:checked') as HTMLInputElement | null)?.value;
    const option = options.find((o) => o.rate.id === rateId);
    if (!option) {
      replace(addrError, h('p', { class: 'notice notice-error', role: 'alert' }, 'Choose a shipping method.'));
      return;
    }
    const btn = continueBtn;
    btn.disabled = true;
    try {
      await co.selectShipping(option.rate.id, address);
    } catch (err) {
      showAddressError(err);
    } finally {
      btn.disabled = !co.state.canSelectShipping;
    }
  });

  const showAddressError = (err: unknown) => {
    const msg = err instanceof CirrusError && (err.code === 'invalid_argument' || err.code === 'invalid_request') ? err.message : describeError(err);
    // The SDK names the field ("shippingAddress.email: …"): mark it.
    const m = /\b(email|firstName|lastName|address1|city|postalCode|country)\b/.exec(msg);
    if (m) {
      const input = addressForm.querySelector(`#${m[1]}`);
      input?.setAttribute('aria-invalid', 'true');
      const slot = addressForm.querySelector(`#${m[1]}-error`);
      if (slot) slot.textContent = msg;
      (input as HTMLElement | null)?.focus();
    }
    replace(addrError, h('p', { class: 'notice notice-error', role: 'alert' }, msg));
  };

  const cancelBtn = h('button', { type: 'button', class: 'link-button', id: 'cancel-checkout' }, 'Cancel checkout');
  const render = (s: CheckoutState) => {
    ctx.cart.changed(); // the SDK empties the cart when a payment succeeds (in any tab)
    renderSummary(s);
    if ('shipping' in s) {
      payBox.hidden = false;
      // An unknown outcome is checked again, never paid anew (the SDK confirms the same payment).
      payBtn.textContent = s.state === 'confirming' ? 'Check payment status'
        : s.state === 'requires_action' ? 'Confirm with your bank'
        : `Pay ${fmt(s.session.amount, cur)}`;
      continueBtn.textContent = 'Update shipping';
    }
    // What the page may do now is the SDK's: shipping changes only while no payment exists,
    // cancelling while none may still succeed, paying again after a failure that allows it.
    payBtn.disabled = !s.canPay;
    continueBtn.disabled = !s.canSelectShipping;
    cancelBtn.hidden = !s.canCancel;
    if (s.state === 'failed') {
      replace(payError, h('p', { class: 'notice notice-error', role: 'alert' },
        `Payment failed: ${s.message}`, s.canPay ? ' Check the card details and try again.' : ' This checkout cannot be completed.'),
        s.canPay ? null : h('p', null, h('a', { class: 'btn', href: href.home() }, 'Back to the shop')));
    } else if (s.state === 'confirming') {
      // The answer was lost: the card may have been charged. Never "failed" or "check your card".
      replace(payError, status('loading', 'We’re confirming your payment… You will not be charged twice.'));
    } else if (s.state === 'requires_action') {
      replace(payError, h('p', { class: 'notice', role: 'status', id: 'needs-action' },
        'Your bank asks you to confirm this payment. Press “Confirm with your bank” to continue; you will not be charged twice.'));
    } else if (s.state === 'paying') {
      replace(payError, status('loading', s.attempt.lastStatus === 'processing'
        ? 'Your bank is processing the payment… This page updates by itself.'
        : 'Processing your payment…'));
    } else if (s.state === 'cancelled') {
      replace(main, h('h1', null, 'Checkout cancelled'),
        status('empty', 'This checkout was cancelled. Nothing was charged; your cart is kept.'),
        h('p', null, h('a', { class: 'btn', href: href.home() }, 'Continue shopping')));
    } else {
      replace(payError);
    }
    if (s.state === 'succeeded') finish(s);
  };

  const finish = (s: Extract<CheckoutState, { state: 'succeeded' }>) => {
    const a = s.shipping.address;
    const order: OrderSummary = {
      paymentIntentId: s.paymentIntentId, email: a.email, name: `${a.firstName} ${a.lastName}`,
      address: [a.address1, a.address2, `${a.postalCode} ${a.city}`, a.state, a.country].filter(Boolean).join(', '),
      rate: s.shipping.rate.name, currency: s.session.currency, breakdown: s.session.breakdown, lines,
    };
    sessionStorage.setItem(ORDER_KEY, JSON.stringify(order));
    navigate(href.order(), { replace: true });
  };

  cancelBtn.addEventListener('click', () => {
    try {
      co.cancel();
    } catch (err) {
      // e.g. another tab paid meanwhile: the SDK says so and this page now shows that payment.
      replace(payError, h('p', { class: 'notice notice-error', role: 'alert' }, err instanceof CirrusError ? err.message : describeError(err)));
    }
  });

  payBtn.addEventListener('click', async () => {
    payBtn.disabled = true;
    try {
      await co.pay({ returnUrl: new URL(href.checkout(), location.href).href });
    } catch (err) {
      const msg = err instanceof CirrusError && err.code === 'invalid_state' ? err.message : describeError(err);
      replace(payError, h('p', { class: 'notice notice-error', role: 'alert' }, msg));
      payBtn.disabled = !co.state.canPay;
    }
  });

  replace(payBox,
    h('h2', { id: 'payment-title' }, 'Payment'),
    h('p', { class: 'line-attrs' }, ctx.config.processor === 'stripe'
      ? 'Stripe test mode: use a Stripe test card.'
      : 'Offline test processor (localstripe): 4242 4242 4242 4242 pays, 4000 0027 6000 3184 asks for 3-D Secure, 4000 0000 0000 0341 is declined.'),
    paymentElement, payError, payBtn);
  addressForm.append(cancelBtn);

  replace(main,
    h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, h('ol', null,
      h('li', null, h('a', { href: href.home() }, 'Home')), h('li', null, h('span', { 'aria-current': 'page' }, 'Checkout')))),
    h('h1', null, 'Checkout'),
    h('div', { class: 'checkout' }, h('div', null, addressForm, payBox), summary));

  // A checkout carried on (another tab, a reload): the address it already has.
  const first = co.state;
  if ('shipping' in first) {
    const a = first.shipping.address;
    for (const [id, v] of Object.entries({ email: a.email, firstName: a.firstName, lastName: a.lastName, address1: a.address1,
      address2: a.address2, city: a.city, state: a.state, postalCode: a.postalCode, phone: a.phone })) {
      (addressForm.querySelector(`#${id}`) as HTMLInputElement).value = v ?? '';
    }
    country.value = a.country;
  }
  const unsubscribe = co.subscribe(render);
  ctx.signal.addEventListener('abort', () => unsubscribe());
  render(first);
  if (first.canSelectShipping) void loadRates();
}

export async function orderView(main: HTMLElement, ctx: Ctx): Promise<void> {
  ctx.setTitle('Thank you');
  let order: OrderSummary | null = null;
  try {
    order = JSON.parse(sessionStorage.getItem(ORDER_KEY) ?? 'null') as OrderSummary | null;
  } catch {
    order = null;
  }
  if (!order) {
    replace(main, h('h1', null, 'No recent order'), status('empty', 'There is no order to show in this tab.'),
      h('p', null, h('a', { href: href.home() }, 'Continue shopping')));
    return;
  }
  const cur = order.currency;
  replace(main,
    h('h1', null, 'Thank you for your order'),
    h('section', { id: 'order-summary', class: 'summary', 'aria-label': 'Order summary' },
      h('p', null, `A confirmation goes to ${order.email}. Payment reference `, h('code', { id: 'payment-ref' }, order.paymentIntentId), '.'),
      h('ul', { class: 'lines' }, order.lines.map((l) => h('li', { class: 'line' }, h('span', null, `${l.quantity} ×`),
        h('div', null, h('div', { class: 'line-name' }, l.name), h('div', { class: 'line-attrs' }, l.attrs),
          h('div', { class: 'line-total' }, fmt(l.lineTotal, cur)))))),
      h('dl', { class: 'totals' },
        h('dt', null, 'Subtotal'), h('dd', null, fmt(order.breakdown.subtotal, cur)),
        h('dt', null, `Shipping (${order.rate})`), h('dd', null, fmt(order.breakdown.shipping, cur)),
        h('dt', null, 'Tax'), h('dd', null, fmt(order.breakdown.tax, cur)),
        h('dt', { class: 'grand' }, 'Total paid'), h('dd', { class: 'grand', id: 'order-total' }, fmt(order.breakdown.total, cur))),
      h('p', null, `Ships to ${order.name}, ${order.address}.`)),
    h('p', null, h('a', { class: 'btn', href: href.home() }, 'Continue shopping')));
}
