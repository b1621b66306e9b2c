// Hand-written: the shapes that only exist in JavaScript (functions, `Storage`, objects a
// caller passes in), which no Rust type describes. Everything else is generated from the Rust
// types (tests/typegen/, `CIRRUS_BLESS=1 cargo test --test typegen`) into js/generated/, whose
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
  RestoreProblem,
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
/** The payment methods of a `CirrusClient` that `Checkout` calls (each sent once, never retried). */
export interface CheckoutClient {
  initiatePayment(body: InitiateRequest): Promise<InitiateResponse>;
  updatePayment(body: UpdateRequest): Promise<UpdateResponse>;
  confirmPayment(body: ConfirmRequest): Promise<ConfirmResponse>;
  shippingRates(body: ShippingRatesRequest): Promise<VariantRates[]>;
  /**
   * The store (a `CirrusClient` has it): when present, `Checkout.start` refuses a cart whose
   * currency is not the store's `defaultCurrency` before a payment session is asked for.
   */
  store?(): Promise<{ defaultCurrency: CurrencyCode }>;
}
/** Options shared by `Checkout.start` and `Checkout.resume`. */
export interface CheckoutOptions {
  adapter: ProcessorAdapter;
  /**
   * Where the checkout's record is kept: default `localStorage`, which every tab of the
   * origin reads (there is no per-tab mode). Another shared `Storage` may be passed; `null`
   * keeps it in this page's memory (the page's next checkout of the cart finds it; other tabs
   * do not, and a reload forgets it).
   */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  /**
   * The record's key; default `"<cart.storageKey>:checkout"` for a persistent cart, else
   * "cirrus.checkout". Also names the cross-tab checkout lock.
   */
  storageKey?: string;
  /**
   * The cart being bought. Its checkout is shared with every tab; when the payment
   * succeeds, what was paid for is taken out of it (in every tab, for a persistent cart).
   */
  cart?: CheckoutCart;
  /** Without a cart: the items being bought (`resume` does not open a record for other items). */
  items?: PaymentItem[];
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
/** What to buy: a `Cart`, or the items and currency directly. */
export type StartCheckoutOptions = CheckoutOptions &
  (
    | { cart: CheckoutCart }
    | { items: PaymentItem[]; currency: CurrencyCode; cart?: undefined }
  );
export interface PayOptions {
  /** Absolute http(s) URL the processor returns to after a redirect-based next action. */
  returnUrl: string;
}
export type CheckoutListener = (state: CheckoutState) => void;
/** Options of `Cart.persistent`. */
export interface PersistentCartOptions {
  /** localStorage key; default "cirrus-storefront.cart". */
  key?: string;
  /** Where to keep the cart; default `localStorage`. */
  storage?: Storage;
  /** After every change: this tab's (`"change"`) or another tab's (`"storage"`). */
  onChange?: (event: CartEvent) => void;
}
/** What `Cart.subscribe` listeners (and `onChange`) receive after every change of the cart. */
export interface CartEvent {
  /** `"change"`: this tab changed it (an action, or a paid checkout taking lines out); `"storage"`: another tab did. */
  source: "change" | "storage";
  /** The cart's problem after the change (e.g. `write_failed`: saving failed, the cart in memory is intact), else `null`. */
  problem: RestoreProblem | null;
  /** The cart's `version` after the change. */
  version: number;
}
