// Hand-written: the shapes that only exist in JavaScript (functions, `Storage`, objects a
// caller passes in), which no Rust type describes. Everything else is generated from the Rust
// types (tests/typegen/, `CIRRUS_BLESS=1 cargo test --test typegen`) into js/generated/, whose
// cart and checkout files import these into the glues' `.d.ts`; scripts/build-pkg.sh ships
// this file next to the root entry's glue (and `checkout/interfaces.d.ts` re-exporting it
// next to the checkout module's).
import type { AdapterSession, CheckoutState } from "./checkout/cirrus_storefront.js";
import type {
  ConfirmRequest,
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
  updateAmount(amount: number, currency: string): Promise<void>;
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
}
/** Options shared by `Checkout.start` and `Checkout.resume`. */
export interface CheckoutOptions {
  adapter: ProcessorAdapter;
  /**
   * Where the state is kept; default `sessionStorage`, or `localStorage` for a persistent
   * cart (shared by its tabs); `null` keeps nothing (no resume).
   */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  /**
   * Storage key; default `"<cart.storageKey>:checkout"` for a persistent cart, else
   * "cirrus.checkout". Also names the cross-tab checkout lock.
   */
  storageKey?: string;
  /** The cart being bought: a persistent one (`Cart.persistent`) shares its live checkout with every tab. */
  cart?: CheckoutCart;
}
/** What `Checkout` reads of a `Cart`. */
export interface CheckoutCart {
  paymentItems(): PaymentItem[];
  readonly currency: string | (() => string);
  /** The persistent cart's storage key (`null`: not persistent). */
  readonly storageKey?: string | null;
}
/** What to buy: a `Cart`, or the items and currency directly. */
export type StartCheckoutOptions = CheckoutOptions &
  (
    | { cart: CheckoutCart }
    | { items: PaymentItem[]; currency: string; cart?: undefined }
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
  /** After another tab changed the cart (`"storage"`) or a save failed/recovered (`"save"`). */
  onChange?: (event: CartStorageEvent) => void;
}
export interface CartStorageEvent {
  source: "storage" | "save";
  problem: RestoreProblem | null;
}
