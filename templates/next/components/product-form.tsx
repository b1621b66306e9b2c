"use client";
// The product picker and "Add to cart": rendered on the server from the server's
// productOptions() (options, availability, the selected variant, its price, an enabled
// button), so the page sells before any wasm arrives. A choice asks the SDK's productOptions
// again (the rule stays in the Rust core); "Add to cart" adds to the persistent cart.
import { useEffect, useState } from "react";
import type { CurrencyCode, OptionMatrix, Product } from "cirrus-storefront";
import { cartChanged } from "@/lib/cart-summary";
import { loadSdk, persistentCart } from "@/lib/browser-sdk";

export interface ProductFormProps {
  product: Product;
  /** productOptions(product, selection) as the server computed it. */
  matrix: OptionMatrix;
  /** Each variant's price, formatted on the server (formatMoney). */
  prices: Record<string, string>;
  currency: CurrencyCode;
}

export function ProductForm({ product, matrix: serverMatrix, prices, currency }: ProductFormProps) {
  const [matrix, setMatrix] = useState(serverMatrix);
  const [quantity, setQuantity] = useState(1);
  const [message, setMessage] = useState<{ kind: "status" | "alert"; text: string } | null>(null);
  const [adding, setAdding] = useState(false);
  useEffect(() => setMatrix(serverMatrix), [serverMatrix]);
  // Fetch and compile the SDK now, while the buyer reads: the first click finds it ready.
  useEffect(() => void persistentCart(currency).catch(() => {}), [currency]);

  const variant = matrix.selectedVariant;
  const select = async (selection: Record<string, string>) => {
    try {
      const sdk = await loadSdk();
      setMatrix(sdk.productOptions(product, selection));
    } catch (e) {
      setMessage({ kind: "alert", text: `Could not change the option: ${(e as Error).message}` });
    }
  };
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!variant) return;
    setAdding(true);
    try {
      const cart = await persistentCart(currency);
      cart.add(product, variant.id, quantity);
      cartChanged();
      setMessage({ kind: "status", text: `Added ${quantity} × ${product.name} to the cart.` });
    } catch (err) {
      setMessage({ kind: "alert", text: `Could not add to the cart: ${(err as Error).message}` });
    } finally {
      setAdding(false);
    }
  };

  return (
    <form className="product-form" onSubmit={add} action="/cart">
      <p className="price" data-price>
        {variant ? prices[variant.id] : "Choose the options"}
        {variant && variant.stockStatus !== "IN_STOCK" ? <span className="stock"> (sold out)</span> : null}
      </p>
      {matrix.options.map((option) => (
        <fieldset key={option.name} className="option">
          <legend>{option.name}</legend>
          {option.values.map((v) => (
            <label key={v.value} className={v.available ? "choice" : "choice unavailable"}>
              <input type="radio" name={option.name} value={v.value} checked={v.selected} disabled={!v.exists} onChange={() => void select(v.selection)} />
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
      <button type="submit" className="btn btn-primary" disabled={!variant || !matrix.selectedVariant || variant.stockStatus !== "IN_STOCK" || adding}>
        Add to cart
      </button>
      <div className="message" aria-live="polite">
        {message ? <p role={message.kind}>{message.text}</p> : null}
      </div>
    </form>
  );
}
