// Hand-written: the shapes that only exist in JavaScript (objects with methods a caller
// passes in: the processor adapter, the client and the cart as the checkout calls them), which
// no Rust type describes. The options types that hold them are generated from Rust
// (`JsObject` members, tools/typegen/src/ts.rs `JS_MEMBERS`). Everything else is generated from the Rust
// types (tools/typegen/, `cargo run -p cirrus-typegen`) into js/generated/, whose
// cart and checkout files import these into the glues' `.d.ts`; scripts/build-pkg.sh ships
// this file next to the root entry's glue (and `checkout/interfaces.d.ts` re-exporting it
// next to the checkout module's).
import type { AdapterSession, CheckoutState } from "./checkout/cirrus_storefront.js";
import type {
  ConfirmRequest,
  CurrencyCode,
  MinorUnits,
  ConfirmResponse,
  InitiateRequest,
  InitiateResponse,
  PaymentItem,
  ShippingRatesRequest,
  UpdateRequest,
  UpdateResponse,
  VariantRates,
} from "./cirrus_storefront.js";

/**
 * A payment processor's browser library behind one interface (contract in
 * js/adapters/adapter.js). The SDK never sees card data: it only receives the
 * token id from `collectToken`.
 */
export interface ProcessorAdapter {
  mount(session: AdapterSession): Promise<void>;
  updateAmount(amount: MinorUnits, currency: CurrencyCode): Promise<void>;
  collectToken(): Promise<string>;
  handleNextAction(clientSecret: string): Promise<void>;
  unmount?(): void;
}
/**
 * What `Checkout` reads of a `confirmPayment` answer: `status` is required, every other member
 * may be left out (a `CirrusClient` answers the whole `ConfirmResponse`). An answer that does not
 * read is an unknown outcome, never a failure: the same payment is confirmed again.
 */
export type ConfirmAnswer = Pick<ConfirmResponse, "status"> & Partial<Omit<ConfirmResponse, "status">>;
/** The payment methods of a `CirrusClient` that `Checkout` calls (each sent once, never retried). */
export interface CheckoutClient {
  initiatePayment(body: InitiateRequest): Promise<InitiateResponse>;
  updatePayment(body: UpdateRequest): Promise<UpdateResponse>;
  confirmPayment(body: ConfirmRequest): Promise<ConfirmAnswer>;
  shippingRates(body: ShippingRatesRequest): Promise<VariantRates[]>;
  /**
   * The store (a `CirrusClient` has it): when present, `Checkout.start` refuses a cart whose
   * currency is not the store's `defaultCurrency` before a payment session is asked for.
   */
  store?(): Promise<{ defaultCurrency: CurrencyCode }>;
}
/** What `Checkout` reads of a `Cart` (and calls to empty it once paid). */
export interface CheckoutCart {
  paymentItems(): PaymentItem[];
  readonly currency: CurrencyCode | (() => CurrencyCode);
  /** The persistent cart's storage key (`null`: not persistent). */
  readonly storageKey?: string | null;
  /** Called once the payment succeeded, when the cart holds only what was paid for. */
  clear?(): void;
  /** Called once the payment succeeded for a paid line, when the cart also holds other items. */
  remove?(variantId: string): unknown;
  /** Called once the payment succeeded for a paid line the buyer added more of meanwhile. */
  setQuantity?(variantId: string, quantity: number): unknown;
}
/** What `Checkout.subscribe` is given: called with the new state after every change. */
export type CheckoutListener = (state: CheckoutState) => void;
