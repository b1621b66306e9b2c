"use client";
// The cart page: the persistent cart's lines and totals, from the SDK's Cart (prices in
// integer minor units, formatted by formatMoney).
import Link from "next/link";
import { formatMoney } from "cirrus-storefront";
import { useCart, useLoadCart } from "cirrus-storefront/react";

export function CartView() {
  useLoadCart();
  const cart = useCart();
  if (!cart.ready) return cart.error ? <p role="alert">The cart could not be opened: {cart.error.message}</p> : <p role="status">Loading the cart…</p>;
  const currency = cart.currency;
  if (cart.isEmpty)
    return (
      <p>
        Your cart is empty. <Link prefetch={false} href="/collections">Browse the collections</Link>
      </p>
    );
  return (
    <>
      <ul className="lines">
        {cart.lines.map((line) => {
          const id = `qty-${line.variantId}`;
          return (
            <li key={line.variantId} className="line" data-variant={line.variantId}>
              <div>
                <Link prefetch={false} href={`/products/${encodeURIComponent(line.productSlug)}`}>{line.productName}</Link>
                <p className="line-attrs">{Object.values(line.attributes).join(" / ")}</p>
              </div>
              <p className="field">
                <label htmlFor={id}>Quantity of {line.productName}</label>
                <input id={id} type="number" min={1} max={line.stockQuantity} value={line.quantity} onChange={(e) => void cart.setQuantity(line.variantId, Math.max(1, Number(e.target.value) || 1)).catch(() => {})} />
              </p>
              <p className="line-total">{formatMoney(line.lineTotal, currency, "en-US")}</p>
              <button type="button" className="link-button" onClick={() => void cart.remove(line.variantId)}>
                Remove {line.productName}
              </button>
            </li>
          );
        })}
      </ul>
      {cart.error ? <p role="alert">{cart.error.message}</p> : null}
      <dl className="totals">
        <dt>Subtotal</dt>
        <dd data-subtotal>{formatMoney(cart.totals.subtotal, currency, "en-US")}</dd>
      </dl>
      <p>
        <Link prefetch={false} className="btn btn-primary" href="/checkout">
          Check out
        </Link>
      </p>
    </>
  );
}
