"use client";
// The product picker and "Add to cart". The first render is the server's productOptions()
// (options, availability, the selected variant; its price formatted on the server), so the
// server HTML sells before any wasm arrives; a choice and "Add to cart" go through the SDK
// (useProductOptions, useCart). The first click must be fast: the SDK's root entry ships with
// this island (its whole module, imported here and handed to PreloadSdk: the bindings fetch no
// chunk of their own on the click's path), and PreloadSdk preloads its .wasm from the page's
// head and compiles it as it downloads.
import { useState } from "react";
import * as sdk from "cirrus-storefront";
import type { OptionMatrix, Product } from "cirrus-storefront";
import { PreloadSdk, useCart, useLoadCart, useProductOptions } from "cirrus-storefront/react";

export interface ProductFormProps {
  product: Product;
  /** productOptions(product, defaultSelection(product)) as the server computed it. */
  options: OptionMatrix;
  /** Each variant's price, formatted on the server (formatMoney). */
  prices: Record<string, string>;
}

export function ProductForm({ product, options, prices }: ProductFormProps) {
  useLoadCart();
  const { matrix, select, selectedVariant, pending, error } = useProductOptions(product, options);
  const add = useCart((c) => c.add);
  const [quantity, setQuantity] = useState(1);
  const [message, setMessage] = useState<{ kind: "status" | "alert"; text: string } | null>(null);
  const variant = selectedVariant;
  const inStock = variant !== null && variant.stockStatus === "IN_STOCK";
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!variant) return;
    add(product, variant.id, quantity).then(
      () => setMessage({ kind: "status", text: `Added ${quantity} × ${product.name} to the cart.` }),
      (err: Error) => setMessage({ kind: "alert", text: `Could not add to the cart: ${err.message}` }),
    );
  };
  return (
    <form className="product-form" onSubmit={submit}>
      <PreloadSdk sdk={sdk} />
      <p className="price" data-price>
        {variant ? prices[variant.id] : "Choose the options"}
        {variant && !inStock ? <span className="stock"> (sold out)</span> : null}
      </p>
      {(matrix ?? options).options.map((option) => (
        <fieldset key={option.name} className="option" aria-busy={pending}>
          <legend>{option.name}</legend>
          {option.values.map((v) => (
            <label key={v.value} className={v.available ? "choice" : "choice unavailable"}>
              <input type="radio" name={option.name} value={v.value} checked={v.selected} disabled={!v.exists} onChange={() => select(option.name, v.value)} />
              <span>
                {v.value}
                {v.exists && !v.available ? " (sold out)" : ""}
              </span>
            </label>
          ))}
        </fieldset>
      ))}
      <p className="field">
        <label htmlFor="quantity">Quantity</label>
        <input id="quantity" name="quantity" type="number" inputMode="numeric" min={1} max={variant?.stockQuantity || undefined} value={quantity} onChange={(e) => setQuantity(Math.max(1, Number(e.target.value) || 1))} />
      </p>
      <button type="submit" className="btn btn-primary" disabled={!inStock}>
        Add to cart
      </button>
      <div className="message" aria-live="polite">
        {error ? <p role="alert">{error.message}</p> : message ? <p role={message.kind}>{message.text}</p> : null}
      </div>
    </form>
  );
}
