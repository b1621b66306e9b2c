// Compile-time test of the packaged Checkout types as an application sees
// them (tsc --strict --noEmit against the package 60-checkout.sh builds).
import { init, Cart, CirrusClient, Checkout, type CheckoutState, type ProcessorAdapter } from "cirrus-storefront";
import { LocalstripeAdapter } from "cirrus-storefront/adapters/localstripe";
import { StripeAdapter } from "cirrus-storefront/adapters/stripe";

export async function flow(apiKey: string): Promise<string> {
  await init();
  const client = new CirrusClient({ baseUrl: "http://127.0.0.1:8787/api/v1", apiKey });
  // Both shipped adapters satisfy the interface the package declares.
  const adapter: ProcessorAdapter = new LocalstripeAdapter({ container: "#card", localstripeUrl: "http://127.0.0.1:8420" });
  const stripe: ProcessorAdapter = new StripeAdapter({ container: "#payment" });
  void stripe;
  const checkout = await Checkout.start(client, { items: [{ variantId: "v", quantity: 1 }], currency: "USD", adapter });
  const unsubscribe: () => void = checkout.subscribe((s: CheckoutState) => void s.state);
  const options = await checkout.shippingOptions("US");
  const first = options[0];
  if (first) {
    await checkout.selectShipping(first.rate.id, {
      email: "a@b.co", firstName: "A", lastName: "B", address1: "x", city: "y", postalCode: "1", country: "US",
    });
  }
  const s = await checkout.pay({ returnUrl: "https://shop.example/return" });
  unsubscribe();
  // The union narrows on `state`.
  switch (s.state) {
    case "succeeded":
      return s.paymentIntentId;
    case "failed":
      return `${s.code} ${s.retryable} ${s.pending?.token ?? ""} ${s.errorCode ?? ""}`;
    case "paying":
      return s.attempt.lastStatus ?? "unknown";
    default:
      return s.state;
  }
}

export async function resumed(client: CirrusClient, adapter: ProcessorAdapter): Promise<number | null> {
  const c = await Checkout.resume(client, { adapter, storage: null });
  if (!c) return null;
  const s = c.state;
  // @ts-expect-error `session` does not exist on every state (idle, cancelled)
  void s.session;
  return s.state === "requires_action" ? s.session.amount : 0;
}

/** A `Cart` is what `start` takes as `cart` (its `currency` is a getter). */
export function fromCart(client: CirrusClient, adapter: ProcessorAdapter, cart: Cart): Promise<Checkout> {
  return Checkout.start(client, { adapter, cart });
}

/** The README's way: the cart's checkout, resumed or started; its record cleared by the cart. */
export async function openCartCheckout(client: CirrusClient, adapter: ProcessorAdapter, cart: Cart): Promise<Checkout> {
  const c = (await Checkout.resume(client, { adapter, cart })) ?? (await Checkout.start(client, { cart, adapter }));
  if (c.state.state === "succeeded") Checkout.clearStored(cart);
  Checkout.clearStored("shop.cart:checkout");
  return c;
}

export function misuse(c: Checkout, a: ProcessorAdapter, client: CirrusClient): void {
  // @ts-expect-error returnUrl is required
  void c.pay({});
  // @ts-expect-error an adapter is required
  void Checkout.resume(client, {});
  // @ts-expect-error items or a cart are required to start
  void Checkout.start(client, { adapter: a });
  // @ts-expect-error a state name that does not exist
  const bad: CheckoutState["state"] = "pending";
  void bad;
}
