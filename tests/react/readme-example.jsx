// The README's React example ("React: cirrus-storefront/react"), server-rendered and hydrated by
// stage 45-react next to tests/react/app.mjs (esbuild compiles its JSX).
"use client";
import { CirrusProvider, useCart, useCheckout, useProductOptions } from "cirrus-storefront/react";

// The store settings and the product come from the server (a server component, a loader);
// the cart lives in the browser's localStorage and is read after hydration.
export function Shop({ baseUrl, apiKey, store, product }) {
  return (
    <CirrusProvider client={{ baseUrl, apiKey }} store={store}>
      <CartBadge />
      <ProductForm product={product} />
    </CirrusProvider>
  );
}

function CartBadge() {
  // The server and the first client render say "Cart"; the count once storage was read.
  const count = useCart((cart) => (cart.ready ? cart.totals.itemCount : null));
  return <span className="badge">{count === null ? "Cart" : `Cart (${count})`}</span>;
}

function ProductForm({ product }) {
  const add = useCart((cart) => cart.add);
  const { matrix, select, selectedVariant } = useProductOptions(product);
  return (
    <form onSubmit={(e) => (e.preventDefault(), add(product, selectedVariant.id, 1))}>
      {matrix?.options.map((option) => (
        <fieldset key={option.name}>
          <legend>{option.name}</legend>
          {option.values.map((v) => (
            <button type="button" key={v.value} disabled={!v.available} aria-pressed={v.selected} onClick={() => select(option.name, v.value)}>
              {v.value}
            </button>
          ))}
        </fieldset>
      ))}
      <button disabled={!selectedVariant}>Add to cart</button>
    </form>
  );
}

// The cart's checkout, shared by every tab; once paid, the cart loses what was paid for.
export function CheckoutPage({ adapter }) {
  const { state, error, pay } = useCheckout(adapter);
  if (error) return <p role="alert">{error.message}</p>;
  if (!state) return <p>Opening the checkout…</p>;
  if (state.state === "succeeded") return <p>Thank you! Order {state.paymentIntentId}</p>;
  if (state.state === "confirming") return <p>We're confirming your payment…</p>;
  return <button onClick={() => pay({ returnUrl: location.href })}>Pay</button>;
}
