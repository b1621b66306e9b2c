// The React app of stage 45-react, rendered on the server (ssr.mjs: renderToString) and
// hydrated in headless Chromium (browser.mjs: hydrateRoot), with `cirrus-storefront/react` as
// a storefront uses it: the store settings from the server, the persistent cart (ready once
// storage was read, other tabs' changes), a product's options, and the cart's checkout.
// Plain `createElement`, so node runs it without a JSX step.
import { createElement as h, useMemo, useState } from "react";
import { CirrusProvider, useCart, useCheckout, useLoadCart, useProductOptions, useStore } from "cirrus-storefront/react";

function Header() {
  const store = useStore();
  // The stored summary after hydration (no wasm); the cart's own totals once it is loaded.
  const count = useCart((c) => c.summary?.itemCount ?? null);
  const ready = useCart((c) => c.ready);
  return h("header", null,
    h("h1", { id: "store" }, store ? store.name : "no store"),
    h("p", { id: "cart", "data-ready": String(ready) }, count === null ? "cart: not ready" : `${count} item(s)`));
}

function ProductForm({ product, options }) {
  const { add } = useCart();
  // The server's productOptions result: the server and the first client render show it.
  const { selection, select, matrix, selectedVariant } = useProductOptions(product, options);
  return h("section", { id: "product" },
    h("h2", null, product.name),
    product.options.map((o) =>
      h("div", { key: o.name, className: "option" }, o.name, ": ",
        (matrix?.options.find((m) => m.name === o.name)?.values ?? []).map((v) =>
          h("button", { key: v.value, "data-option": o.name, "data-value": v.value, "data-available": String(v.available), onClick: () => select(o.name, v.value) },
            v.value + (selection[o.name] === v.value ? " ✓" : ""))))),
    h("p", { id: "selected" }, selectedVariant ? `selected ${selectedVariant.id}` : "no variant selected"),
    h("button", { id: "add", disabled: !selectedVariant, onClick: () => add(product, selectedVariant.id, 1) }, "Add to cart"));
}

function Lines() {
  useLoadCart(); // the lines are the SDK's: load the cart when this mounts
  const { lines, remove, clear } = useCart();
  return h("ul", { id: "lines" },
    lines.map((l) => h("li", { key: l.variantId, "data-variant": l.variantId }, `${l.productName} × ${l.quantity}`,
      h("button", { onClick: () => remove(l.variantId) }, "remove"))),
    h("li", null, h("button", { id: "clear", onClick: clear }, "clear")));
}

/** A processor adapter that mounts nothing (the checkout opens; nobody pays here). */
const stubAdapter = () => ({ mount: async () => {}, updateAmount: async () => {}, collectToken: async () => "tok_stub", handleNextAction: async () => {} });

function CheckoutPanel() {
  const [open, setOpen] = useState(false);
  const adapter = useMemo(() => (open ? stubAdapter() : null), [open]);
  const { state, error } = useCheckout(adapter);
  return h("section", { id: "checkout" },
    h("button", { id: "open-checkout", onClick: () => setOpen(true) }, "Checkout"),
    h("p", { id: "checkout-state" }, error ? `error: ${error.code ?? error}` : state ? state.state : "closed"));
}

export function App({ baseUrl, apiKey, store, product, options }) {
  return h(CirrusProvider, { client: { baseUrl, apiKey }, store },
    h(Header), h(ProductForm, { product, options }), h(Lines), h(CheckoutPanel));
}
