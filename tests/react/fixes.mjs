// Stage 45-react: the React bindings' fixes of issue 32, each shown in the browser
// (tests/react/run.mjs, "fixes" steps; every one failed with the bindings before the fix):
//  - a provider given new props (another cartKey) reads that cart (it kept the first props' cart);
//  - useProductOptions given another product in place starts over from that product's selection
//    (it kept the old selection and productOptions threw during render);
//  - a selector that changes is used at once (the memo returned the old selector's value until
//    the cart changed);
//  - a provider given another client frees neither of the clients the caller passed (issue 41: it
//    freed the first, which the caller still owns, when the props changed).
// Rendered with createRoot in the browser (browser.mjs), after the hydrated apps.
import { Component, createElement as h, useEffect, useState } from "react";
import { init, CirrusClient } from "cirrus-storefront";
import { CirrusProvider, useCart, useLoadCart, useProductOptions } from "cirrus-storefront/react";

class Boundary extends Component {
  state = { error: null };
  static getDerivedStateFromError(error) {
    return { error };
  }
  render() {
    return this.state.error ? h("p", { id: "fix-threw" }, `threw: ${this.state.error.message}`) : this.props.children;
  }
}

function Count() {
  useLoadCart();
  const [which, setWhich] = useState("itemCount");
  // The selector's value names what it selected: the old selector's value would still say itemCount.
  const value = useCart((c) => (c.ready ? `${which}:${c.totals[which]}` : "…"));
  return h("p", null,
    h("span", { id: "fix-count" }, value),
    h("button", { id: "fix-lines", onClick: () => setWhich("lineCount") }, "count lines"));
}

function Picker({ product, initial }) {
  const { selectedVariant } = useProductOptions(product, initial);
  return h("p", { id: "fix-product" }, `${product.slug}: ${selectedVariant ? selectedVariant.id : "none"}`);
}

export function Fixes({ baseUrl, apiKey, store, fixes }) {
  const [cartKey, setCartKey] = useState("fixes.empty");
  const [which, setWhich] = useState("a");
  return h(CirrusProvider, { client: { baseUrl, apiKey }, store, cartKey },
    h("button", { id: "fix-key", onClick: () => setCartKey(undefined) }, "the shared cart"),
    h(Count),
    h("button", { id: "fix-switch", onClick: () => setWhich("b") }, "another product"),
    h(Boundary, null, h(Picker, { product: fixes[which], initial: fixes[`${which}Selection`] })));
}

function Loaded({ which }) {
  useLoadCart();
  const ready = useCart((c) => c.ready);
  return h("p", { id: "own-client" }, ready ? `client ${which}` : "…");
}

/** The caller's own two clients (kept on `window.__ownClients` for the test to call), one at a time. */
export function OwnClients({ baseUrl, apiKey, store }) {
  const [clients, setClients] = useState(null);
  const [which, setWhich] = useState(0);
  useEffect(() => {
    void init().then(() => {
      const made = [new CirrusClient({ baseUrl, apiKey }), new CirrusClient({ baseUrl, apiKey })];
      window.__ownClients = made;
      setClients(made);
    });
  }, [baseUrl, apiKey]);
  if (!clients) return h("p", null, "…");
  return h(CirrusProvider, { client: clients[which], store, cartKey: "fixes.own" },
    h("button", { id: "own-switch", onClick: () => setWhich(1) }, "the other client"),
    h(Loaded, { which }));
}
