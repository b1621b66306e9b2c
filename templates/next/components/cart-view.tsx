"use client";
// The cart page: the persistent cart's lines and totals, from the SDK's Cart (prices in
// integer minor units, formatted by formatMoney).
import Link from "next/link";
import { formatMoney } from "cirrus-storefront";
import { useCart } from "cirrus-storefront/react";
import { describe } from "./shop";

export function CartView() {
  const cart = useCart();
  if (cart.error) return <p role="alert">The cart could not be opened: {describe(cart.error)}</p>;
  if (!cart.ready) return <p role="status">Loading the cart…</p>;
  const currency = cart.currency!;
  if (cart.isEmpty)
    return (
      <p>
        Your cart is empty. <Link href="/collections">Browse the collections</Link>
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
                <Link href={`/products/${encodeURIComponent(line.productSlug)}`}>{line.productName}</Link>
                <p className="line-attrs">{Object.values(line.attributes).join(" / ")}</p>
              </div>
              <p className="field">
                <label htmlFor={id}>Quantity of {line.productName}</label>
                <input id={id} type="number" min={1} max={line.stockQuantity} value={line.quantity} onChange={(e) => cart.setQuantity(line.variantId, Math.max(1, Number(e.target.value) || 1))} />
              </p>
              <p className="line-total">{formatMoney(line.lineTotal, currency, "en-US")}</p>
              <button type="button" className="link-button" onClick={() => cart.remove(line.variantId)}>
                Remove {line.productName}
              </button>
            </li>
          );
        })}
      </ul>
      <dl className="totals">
        <dt>Subtotal</dt>
        <dd data-subtotal>{formatMoney(cart.totals!.subtotal, currency, "en-US")}</dd>
      </dl>
      <p>
        <Link className="btn btn-primary" href="/checkout">
          Check out
        </Link>
      </p>
    </>
  );
}
