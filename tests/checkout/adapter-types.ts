// Compile-time proof (tsc --strict --noEmit) that both adapters implement the
// documented interface and that the Stripe adapter matches @stripe/stripe-js.
import type { ProcessorAdapter } from "../../js/adapters/adapter.js";
import { StripeAdapter, LocalstripeAdapter } from "../../js/adapters/index.js";
import { loadStripe } from "@stripe/stripe-js/pure";

const adapters: ProcessorAdapter[] = [
  new StripeAdapter({ container: "#payment", loadStripe }),
  new LocalstripeAdapter({ container: document.body, localstripeUrl: "http://127.0.0.1:8420" }),
];
export async function use(a: ProcessorAdapter): Promise<string> {
  await a.mount({ publishableKey: "pk_test_x", amount: 1000, currency: "USD" });
  await a.updateAmount(1200, "USD");
  const token: string = await a.collectToken();
  await a.handleNextAction("pi_x_secret_y");
  a.unmount?.();
  return token;
}
void adapters;

// @ts-expect-error a container is required
new StripeAdapter({});
// @ts-expect-error localstripeUrl is required
new LocalstripeAdapter({ container: "#card" });
// @ts-expect-error amounts are numbers (minor units), not strings
void adapters[0].updateAmount("12.00", "USD");
