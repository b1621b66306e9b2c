// Stage 45-react: `tsc --strict --noEmit` on a consumer of `cirrus-storefront/react`. Every
// `@ts-expect-error` line is misuse that must not compile (tsc fails if it does).
import { useState, type ReactElement } from "react";
import type { CheckoutState, CirrusError, CurrencyCode, OptionMatrix, Product, ProcessorAdapter, Store } from "cirrus-storefront";
import * as sdk from "cirrus-storefront";
import { CirrusProvider, useCart, useCheckout, useClient, useLoadCart, PreloadSdk, useProductOptions, useStore, type CartView } from "cirrus-storefront/react";

export function Shop({ store, product, adapter }: { store: Store; product: Product; adapter: ProcessorAdapter }): ReactElement {
  return (
    <CirrusProvider client={{ baseUrl: "https://shop.example/api/v1", apiKey: "ak_x", cache: { maxAgeMs: 1000 } }} store={store} cartKey="shop.cart">
      <Cart />
      <Options product={product} server={Object() as OptionMatrix} />
      <Pay adapter={adapter} />
    </CirrusProvider>
  );
}

function Cart(): ReactElement {
  const view: CartView = useCart();
  const count: number = useCart((c) => c.totals?.itemCount ?? 0);
  const names: string[] = useCart((c) => c.lines.map((l) => l.productName), (a, b) => a.join() === b.join());
  const ready: boolean = view.ready;
  // @ts-expect-error totals is null until the cart is ready
  const subtotal: number = view.totals.subtotal;
  // `ready` narrows the view: totals and currency without `!`.
  if (view.ready) {
    const total: number = view.totals.subtotal;
    const currency: CurrencyCode = view.currency;
    void [total, currency];
  }
  // The stored summary (no wasm): null until read, its currency null when nothing is saved.
  const items: number | undefined = view.summary?.itemCount;
  const error: CirrusError | null = view.error;
  if (error) void error.code;
  // @ts-expect-error the error is a CirrusError, not any value
  const bad: string = view.error;
  useLoadCart("idle");
  // @ts-expect-error useLoadCart takes "mount" or "idle"
  useLoadCart("later");
  const preloads: ReactElement[] = [
    <PreloadSdk key="a" />,
    // The root entry's module, when the island imports it itself.
    <PreloadSdk key="b" sdk={sdk} />,
    // @ts-expect-error PreloadSdk takes nothing or the root entry's module
    <PreloadSdk key="c" sdk="now" />,
    // @ts-expect-error only the root entry's module (this object has no Cart)
    <PreloadSdk key="d" sdk={{ init: sdk.init }} />,
  ];
  void preloads;
  void view.add(Object() as Product, "v1").then(() => view.remove("v1")).then((had: boolean) => had);
  // @ts-expect-error setQuantity takes a variant id and a quantity
  view.setQuantity(3);
  // @ts-expect-error the selector receives the cart view, whose lines are CartLine objects
  useCart((c) => c.lines[0].nope);
  const store = useStore();
  // @ts-expect-error the store settings may be absent
  const name: string = store.name;
  const client = useClient();
  void client?.store({ cache: "no-store" });
  // @ts-expect-error a cache strategy is "no-store" or an object of milliseconds
  void client?.store({ cache: "short" });
  void [count, names, ready, subtotal, name, items, bad];
  return <p>{view.ready ? `${count} item(s)` : "…"}</p>;
}

function Options({ product, server }: { product: Product; server: OptionMatrix }): ReactElement {
  // The server's productOptions result, or a selection.
  const fromServer = useProductOptions(product, server);
  const e: CirrusError | null = fromServer.error;
  void [e, fromServer.pending satisfies boolean];
  const { selection, select, matrix, selectedVariant } = useProductOptions(product, { Size: "M" });
  select("Size", "L");
  // @ts-expect-error select takes an option name and a value
  select({ Size: "L" });
  // @ts-expect-error the matrix is null until computed (no server result given here)
  void matrix.options;
  void selection.Size;
  return <p>{selectedVariant?.id ?? "none"}</p>;
}

function Pay({ adapter }: { adapter: ProcessorAdapter }): ReactElement {
  const [on] = useState(false);
  const { state, pay, selectShipping, shippingOptions, cancel, error } = useCheckout(on ? adapter : null);
  const err: CirrusError | null = error;
  void err?.code;
  const s: CheckoutState | null = state;
  if (s?.state === "succeeded") void s.paymentIntentId;
  // @ts-expect-error only a succeeded checkout has its paymentIntentId
  if (s?.state === "initiated") void s.paymentIntentId;
  void pay({ returnUrl: "https://shop.example/" });
  void shippingOptions("US").then((o) => selectShipping(o[0].rate.id, { email: "a@b.c", firstName: "A", lastName: "B", address1: "1", city: "C", postalCode: "1", country: "US" }));
  // @ts-expect-error useCheckout takes a processor adapter (or null)
  useCheckout({ container: "#pay" });
  cancel();
  return <p>{s?.state ?? "closed"}</p>;
}

// @ts-expect-error the provider needs a client or its options
export const Bad = (): ReactElement => <CirrusProvider store={null} />;
