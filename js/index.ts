/// <reference lib="esnext.disposable" preserve="true" />
// Browser / bundler entry of cirrus-storefront.
import { Checkout as WasmCheckout } from "./cirrus_storefront.js";
import {
  Cart as JsCart,
  addMoney as jsAddMoney,
  currencyExponent as jsCurrencyExponent,
  formatMoney as jsFormatMoney,
  moneyToDecimal as jsMoneyToDecimal,
  parseMoney as jsParseMoney,
} from "./cart.js";
import { guardClass, guardFn } from "./guard.js";

// The catalog client, its types and init(): the same module as `cirrus-storefront/client`.
export * from "./client-entry.js";
// The cart's and the checkout's types (generated from the Rust types), listed one by one so
// the glue's `InitOutput` (its raw wasm exports, typed `any`) stays out of the public
// surface. Stage 40-pkg fails if a type the glue declares is missing from the entry, or if
// `any` is reachable from it.
export type {
  AdapterSession,
  CartChange,
  CartLine,
  CartStorageEvent,
  CartTotals,
  CheckoutClient,
  CheckoutFailureCode,
  CheckoutListener,
  CheckoutOptions,
  CheckoutSession,
  CheckoutState,
  LineRemoved,
  PayOptions,
  PaymentAttempt,
  PersistentCartOptions,
  PriceChange,
  ProcessorAdapter,
  RefreshReport,
  RestoreProblem,
  RestoreProblemKind,
  ShippingChoice,
  ShippingOption,
  StartCheckoutOptions,
  StockChange,
} from "./cirrus_storefront.js";

// The other areas' exports, guarded so a call before init() is a clear CirrusError
// (tests/package/smoke.mjs checks that every function export is guarded).
export const Cart = /* @__PURE__ */ guardClass(JsCart);
export type Cart = JsCart;
// Checkout is the Rust class itself (src/wasm/checkout.rs); guarded like the others.
export const Checkout = /* @__PURE__ */ guardClass(WasmCheckout);
export type Checkout = WasmCheckout;
export const addMoney = /* @__PURE__ */ guardFn(jsAddMoney);
export const currencyExponent = /* @__PURE__ */ guardFn(jsCurrencyExponent);
export const formatMoney = /* @__PURE__ */ guardFn(jsFormatMoney);
export const moneyToDecimal = /* @__PURE__ */ guardFn(jsMoneyToDecimal);
export const parseMoney = /* @__PURE__ */ guardFn(jsParseMoney);
