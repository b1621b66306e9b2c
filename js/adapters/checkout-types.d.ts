// TypeScript types of `Checkout` (js/checkout.ts), included verbatim in the
// package's .d.ts (through src/wasm/checkout.rs) next to js/generated/types.ts
// (whose names it uses). Hand-written: the state objects are built by
// js/checkout.ts (tsc checks each state it builds against the union below)
// and read back from storage by the Rust core, whose test
// `checkout::tests::typescript_matches_the_stored_form` (src/checkout.rs)
// fails when a state or member here differs from the form it accepts.

/** What a processor adapter is told when it mounts (amount in minor units). */
export interface AdapterSession {
  publishableKey: string;
  amount: number;
  currency: string;
}
/**
 * A payment processor's browser library behind one interface (contract in
 * js/adapters/adapter.js). The SDK never sees card data: it only receives the
 * token id from `collectToken`.
 */
export interface ProcessorAdapter {
  mount(session: AdapterSession): Promise<void>;
  updateAmount(amount: number, currency: string): Promise<void>;
  collectToken(): Promise<string>;
  handleNextAction(clientSecret: string): Promise<void>;
  unmount?(): void;
}
/** Options shared by `Checkout.start` and `Checkout.resume`. */
export interface CheckoutOptions {
  adapter: ProcessorAdapter;
  /** Where the state is kept; default `sessionStorage`; `null` keeps nothing (no resume). */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  /** Storage key; default "cirrus.checkout". */
  storageKey?: string;
}
/** What to buy: a `Cart`, or the items and currency directly. */
export type StartCheckoutOptions = CheckoutOptions &
  (
    | { cart: { paymentItems(): PaymentItem[]; readonly currency: string | (() => string) } }
    | { items: PaymentItem[]; currency: string }
  );
export interface PayOptions {
  /** Absolute http(s) URL the processor returns to after a redirect-based next action. */
  returnUrl: string;
}
export type CheckoutListener = (state: CheckoutState) => void;

/** The payment session as initiate / update last described it (amounts in minor units). */
export interface CheckoutSession {
  sessionId: string;
  processor: Processor;
  publishableKey: string;
  currency: string;
  amount: number;
  breakdown: Breakdown;
  items: PaymentItem[];
}
export interface ShippingChoice {
  rate: ShippingRate;
  address: ShippingAddress;
}
/** One payment attempt: its confirmation token and what is known about it. */
export interface PaymentAttempt {
  token: string;
  returnUrl: string;
  /** A confirm with `token` was sent and its answer not yet applied. */
  confirmInFlight: boolean;
  paymentIntentId: string | null;
  lastStatus: PaymentStatus | null;
}
export type CheckoutFailureCode = "declined" | "action_failed" | "canceled" | "adapter" | "request";
/** The checkout, discriminated by `state`. */
export type CheckoutState =
  | { state: "idle" }
  | { state: "initiated"; session: CheckoutSession }
  | { state: "shipping_chosen"; session: CheckoutSession; shipping: ShippingChoice }
  | { state: "paying"; session: CheckoutSession; shipping: ShippingChoice; attempt: PaymentAttempt }
  | {
      state: "requires_action";
      session: CheckoutSession;
      shipping: ShippingChoice;
      attempt: PaymentAttempt;
      clientSecret: string;
    }
  | { state: "succeeded"; session: CheckoutSession; shipping: ShippingChoice; paymentIntentId: string }
  | {
      state: "failed";
      session: CheckoutSession;
      shipping: ShippingChoice;
      code: CheckoutFailureCode;
      /** Set for `code: "request"`: how the confirm failed. */
      errorCode: ErrorCode | null;
      message: string;
      /** `pay()` may be called again. */
      retryable: boolean;
      /** Set when that attempt's outcome is unknown: the retry confirms the same token again. */
      pending: PaymentAttempt | null;
      paymentIntentId: string | null;
    }
  | { state: "cancelled"; sessionId: string | null };
