"use client";
// The checkout: the SDK's cart-owned checkout through useCheckout (shared by every tab, resumed
// after a reload, never charging twice), the address and shipping choice, and the payment form
// of the processor's adapter (localstripe in development, Stripe with real keys).
import Link from "next/link";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { formatMoney, type CheckoutSession, type CheckoutState, type CountryCode, type MinorUnits, type ProcessorAdapter, type ShippingOption } from "cirrus-storefront";
import { useCart, useCheckout } from "cirrus-storefront/react";

const COUNTRIES: [CountryCode, string][] = [
  ["US", "United States"], ["CA", "Canada"], ["GB", "United Kingdom"], ["DE", "Germany"], ["FR", "France"],
  ["NL", "Netherlands"], ["ES", "Spain"], ["IT", "Italy"], ["AU", "Australia"], ["JP", "Japan"],
];

/** An amount of the checkout's session, in its currency. */
function price(session: CheckoutSession, amount: MinorUnits): string {
  return formatMoney(amount, session.currency, "en-US");
}

/** The processor's adapter, made once its container is in the page. */
function useAdapter(localstripeUrl: string | null, container: React.RefObject<HTMLDivElement | null>): ProcessorAdapter | null {
  const [adapter, setAdapter] = useState<ProcessorAdapter | null>(null);
  useEffect(() => {
    const el = container.current!;
    let live = true;
    (localstripeUrl
      ? import("cirrus-storefront/adapters/localstripe").then((m) => new m.LocalstripeAdapter({ container: el, localstripeUrl }))
      : import("cirrus-storefront/adapters/stripe").then((m) => new m.StripeAdapter({ container: el }))
    ).then((a) => live && setAdapter(a));
    return () => {
      live = false;
    };
  }, [localstripeUrl, container]);
  return adapter;
}

export function CheckoutView({ localstripeUrl }: { localstripeUrl: string | null }) {
  const container = useRef<HTMLDivElement>(null);
  const adapter = useAdapter(localstripeUrl, container);
  const cart = useCart();
  const { state, error, shippingOptions, selectShipping, pay, cancel } = useCheckout(adapter);
  const [country, setCountry] = useState<CountryCode>("US");
  const [options, setOptions] = useState<ShippingOption[] | null>(null);
  const [busy, setBusy] = useState(false);
  // What the page may do now is the SDK's: the state's canSelectShipping, canPay, canCancel.
  const canSelectShipping = state?.canSelectShipping === true;
  const session = state !== null && "session" in state ? state.session : null;
  const chosen = state !== null && "shipping" in state;
  // The options are asked for when the country changes or shipping becomes changeable, not
  // when the checkout's callbacks do (they change with every state).
  const loadOptions = useEffectEvent((c: CountryCode) => shippingOptions(c));

  useEffect(() => {
    if (!canSelectShipping) return;
    let live = true;
    setOptions(null);
    loadOptions(country).then((o) => live && setOptions(o), () => live && setOptions([]));
    return () => {
      live = false;
    };
  }, [country, canSelectShipping]);

  const submitAddress = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const v = (k: string) => String(f.get(k) ?? "").trim();
    setBusy(true);
    try {
      await selectShipping(v("rate"), { email: v("email"), firstName: v("firstName"), lastName: v("lastName"), address1: v("address1"), city: v("city"), postalCode: v("postalCode"), country });
    } catch {
      // useCheckout().error says why
    } finally {
      setBusy(false);
    }
  };
  const payNow = async () => {
    setBusy(true);
    try {
      await pay({ returnUrl: location.href });
    } catch {
      // useCheckout().error says why
    } finally {
      setBusy(false);
    }
  };

  let body: React.ReactNode = null;
  if (cart.error && !cart.ready) body = <p role="alert">The cart could not be opened: {cart.error.message}</p>;
  else if (!cart.ready || (state === null && !error && !cart.isEmpty)) body = <p role="status">Opening the checkout…</p>;
  else if (state === null && cart.isEmpty)
    body = (
      <p>
        Your cart is empty. <Link prefetch={false} href="/collections">Browse the collections</Link>
      </p>
    );
  else if (state?.state === "succeeded") body = <Thanks state={state} />;
  else if (state?.state === "cancelled") body = <p role="status">This checkout was cancelled. Nothing was charged; your cart is kept.</p>;

  return (
    <>
      {body}
      {error && state?.state !== "succeeded" ? <p role="alert" className="notice notice-error">{error.message}</p> : null}
      <div className="checkout" hidden={body !== null}>
        <form id="address-form" onSubmit={submitAddress}>
          <fieldset>
            <legend>Contact</legend>
            <Field name="email" label="Email" type="email" autoComplete="email" />
          </fieldset>
          <fieldset>
            <legend>Shipping address</legend>
            <Field name="firstName" label="First name" autoComplete="given-name" />
            <Field name="lastName" label="Last name" autoComplete="family-name" />
            <Field name="address1" label="Address" autoComplete="address-line1" />
            <Field name="city" label="City" autoComplete="address-level2" />
            <Field name="postalCode" label="Postal code" autoComplete="postal-code" />
            <p className="field">
              <label htmlFor="country">Country</label>
              <select id="country" name="country" autoComplete="country" value={country} onChange={(e) => setCountry(e.target.value as CountryCode)}>
                {COUNTRIES.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            </p>
          </fieldset>
          <fieldset id="shipping-rates" aria-busy={options === null}>
            <legend>Shipping method</legend>
            {options === null ? <p role="status">Finding shipping options…</p> : null}
            {options?.length === 0 ? <p>We don’t ship this order to that country yet.</p> : null}
            {session && options?.map((o, i) => (
              <label key={o.rate.id} className="choice rate">
                <input type="radio" name="rate" value={o.rate.id} defaultChecked={i === 0} required />
                <span>
                  {o.rate.name} ({o.rate.deliveryTimeframeMin}–{o.rate.deliveryTimeframeMax} business days)
                </span>
                <span className="rate-price">{o.price === 0 ? "Free" : price(session, o.price)}</span>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="btn" disabled={!canSelectShipping || busy || !options?.length}>
            {chosen ? "Update shipping" : "Continue to payment"}
          </button>{" "}
          {state?.canCancel ? (
            <button type="button" className="link-button" onClick={() => cancel()}>
              Cancel checkout
            </button>
          ) : null}
        </form>
        <section aria-labelledby="payment-title" hidden={!chosen}>
          <h2 id="payment-title">Payment</h2>
          {localstripeUrl ? <p className="hint">Test cards: 4242 4242 4242 4242 pays, 4000 0027 6000 3184 asks for 3-D Secure, 4000 0000 0000 0341 is declined.</p> : null}
          <div id="payment-element" ref={container} />
          <PaymentStatus state={state} />
          {session ? (
            <dl className="totals">
              <dt>Subtotal</dt>
              <dd>{price(session, session.breakdown.subtotal)}</dd>
              <dt>Shipping</dt>
              <dd>{price(session, session.breakdown.shipping)}</dd>
              <dt>Tax</dt>
              <dd>{price(session, session.breakdown.tax)}</dd>
              <dt>Total</dt>
              <dd data-total>{price(session, session.breakdown.total)}</dd>
            </dl>
          ) : null}
          <button type="button" id="pay" className="btn btn-primary" onClick={payNow} disabled={busy || state?.canPay !== true}>
            {state?.state === "confirming" ? "Check payment status" : state?.state === "requires_action" ? "Confirm with your bank" : session ? `Pay ${price(session, session.amount)}` : "Pay"}
          </button>
        </section>
      </div>
    </>
  );
}

function Field({ name, label, type = "text", autoComplete }: { name: string; label: string; type?: string; autoComplete: string }) {
  return (
    <p className="field">
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} type={type} autoComplete={autoComplete} required />
    </p>
  );
}

function PaymentStatus({ state }: { state: CheckoutState | null }) {
  if (state?.state === "failed") return <p role="alert" className="notice notice-error">Payment failed: {state.message}{state.canPay ? " Check the card details and try again." : " This checkout cannot be completed."}</p>;
  if (state?.state === "confirming") return <p role="status">We’re confirming your payment… You will not be charged twice.</p>;
  if (state?.state === "requires_action") return <p role="status">Your bank asks you to confirm this payment. Press “Confirm with your bank” to continue; you will not be charged twice.</p>;
  if (state?.state === "paying") return <p role="status">Processing your payment…</p>;
  return null;
}

function Thanks({ state }: { state: Extract<CheckoutState, { state: "succeeded" }> }) {
  return (
    <section aria-labelledby="thanks-title">
      <h2 id="thanks-title">Thank you for your order</h2>
      <p>
        Order <span data-order>{state.paymentIntentId}</span>, {price(state.session, state.session.breakdown.total)}, ships to {state.shipping.address.firstName} {state.shipping.address.lastName} ({state.shipping.rate.name}).
      </p>
      <p>
        <Link prefetch={false} href="/">Continue shopping</Link>
      </p>
    </section>
  );
}
