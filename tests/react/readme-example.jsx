// The README's React example ("React: cirrus-storefront/react"), server-rendered and hydrated by
// stage 45-react next to tests/react/app.mjs (esbuild compiles its JSX).
"use client";
import { CirrusProvider, useCart, useCheckout, useProductOptions } from "cirrus-storefront/react";

// From the server (a server component, a loader): the store settings, the product and its
// picker, `productOptions(product, defaultSelection(product))`. The cart lives in the
// browser's localStorage: its summary shows after hydration; the SDK's wasm loads when the
// buyer acts (or once the product page is idle).
export function Shop({ baseUrl, apiKey, store, product, options }) {
  return (
    <CirrusProvider client={{ baseUrl, apiKey }} store={store}>
      <CartBadge />
      <ProductForm product={product} options={options} />
    </CirrusProvider>
  );
}

function CartBadge() {
  // "Cart" on the server and in the first client render; the stored count after hydration.
  const count = useCart((cart) => cart.summary?.itemCount ?? null);
  return <span className="badge">{count === null ? "Cart" : `Cart (${count})`}</span>;
}

function ProductForm({ product, options }) {
  const add = useCart((cart) => cart.add);
  const error = useCart((cart) => cart.error);
  // The server's options, selected variant and enabled button are the first render.
  const { matrix, select, selectedVariant } = useProductOptions(product, options);
  return (
    <form onSubmit={(e) => (e.preventDefault(), add(product, selectedVariant.id, 1).catch(() => {}))}>
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
      {error && <p role="alert">{error.message}</p>}
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
