/// <reference lib="esnext.disposable" preserve="true" />
// Browser / bundler entry of cirrus-storefront.
// The cart and the money helpers are the wasm's own exports (src/wasm/cart.rs).
import {
  Cart as WasmCart,
  addMoney as wasmAddMoney,
  currencyExponent as wasmCurrencyExponent,
  formatMoney as wasmFormatMoney,
  moneyToDecimal as wasmMoneyToDecimal,
  parseMoney as wasmParseMoney,
  preferredLocale as wasmPreferredLocale,
} from "./cirrus_storefront.js";
import { setCheckoutWasm as wasmSetCheckoutWasm } from "./checkout-wasm.js";
import { guardClass, guardFn } from "./guard.js";

// The catalog client, its types and init(): the same module as `cirrus-storefront/client`.
export * from "./client-entry.js";
// The cart's and the checkout's types (generated from the Rust types), listed one by one so
// the glues' `InitOutput` (their raw wasm exports, typed `any`) stays out of the public
// surface. Stage 40-pkg fails if a type a glue declares is missing from the entry, or if
// `any` is reachable from it. The checkout's come from its own module's glue (pkg/checkout/).
export type {
  CartChange,
  CartEvent,
  CartEventSource,
  CartLine,
  CartSummary,
  CartTotals,
  LineRemoved,
  PersistentCartOptions,
  PriceChange,
  RefreshReport,
  RestoreProblem,
  RestoreProblemKind,
  ShippingOption,
  StockChange,
} from "./cirrus_storefront.js";
export type {
  AdapterSession,
  CheckoutActions,
  CheckoutClient,
  CheckoutFailureCode,
  ConfirmAnswer,
  CheckoutListener,
  CheckoutOptions,
  CheckoutSession,
  CheckoutState,
  PayOptions,
  PaymentAttempt,
  ProcessorAdapter,
  ShippingChoice,
  StartCheckoutOptions,
} from "./checkout/cirrus_storefront.js";

// The other areas' exports, guarded so a call before init() is a clear CirrusError
// (tests/package/smoke.mjs checks that every function export is guarded).
/**
 * A cart priced in integer minor units: the Rust `Cart` class of the wasm, guarded so that
 * `new Cart()` or `Cart.persistent()` before `init()` is a `CirrusError`.
 * @class
 */
export const Cart = /* @__PURE__ */ guardClass(WasmCart);
export type Cart = WasmCart;
// The checkout's module is loaded on the first Checkout.start/resume (js/lazy-checkout.ts).
export { Checkout } from "./lazy-checkout.js";
export type { CheckoutWasm } from "./checkout-wasm.js";
/** @function */
export const setCheckoutWasm = /* @__PURE__ */ guardFn(wasmSetCheckoutWasm);
/** @function */
export const addMoney = /* @__PURE__ */ guardFn(wasmAddMoney);
/** @function */
export const currencyExponent = /* @__PURE__ */ guardFn(wasmCurrencyExponent);
/** @function */
export const formatMoney = /* @__PURE__ */ guardFn(wasmFormatMoney);
/** @function */
export const moneyToDecimal = /* @__PURE__ */ guardFn(wasmMoneyToDecimal);
/** @function */
export const parseMoney = /* @__PURE__ */ guardFn(wasmParseMoney);
/**
 * The locale to format money in: the first of `candidates` (default: the browser's
 * `navigator.languages`) that `Intl` supports, skipping "C", "POSIX" and "" and reading POSIX
 * names such as "de_DE.UTF-8" as tags; else "en-US". Pass it to `formatMoney`.
 * @function
 */
export const preferredLocale = /* @__PURE__ */ guardFn(wasmPreferredLocale);
// Plain JS, no init() needed: an integer typed as MinorUnits, checked.
export { minorUnits } from "./money.js";
