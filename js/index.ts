/// <reference lib="esnext.disposable" preserve="true" />
// Browser / bundler entry of cirrus-storefront.
import { Checkout as WasmCheckout } from "./cirrus_storefront.js";
// The cart and the money helpers are the wasm's own exports (src/wasm/cart.rs).
import {
  Cart as WasmCart,
  addMoney as wasmAddMoney,
  currencyExponent as wasmCurrencyExponent,
  formatMoney as wasmFormatMoney,
  moneyToDecimal as wasmMoneyToDecimal,
  parseMoney as wasmParseMoney,
} from "./cirrus_storefront.js";
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
export const Cart = /* @__PURE__ */ guardClass(WasmCart);
export type Cart = WasmCart;
export const Checkout = /* @__PURE__ */ guardClass(WasmCheckout);
export type Checkout = WasmCheckout;
export const addMoney = /* @__PURE__ */ guardFn(wasmAddMoney);
export const currencyExponent = /* @__PURE__ */ guardFn(wasmCurrencyExponent);
export const formatMoney = /* @__PURE__ */ guardFn(wasmFormatMoney);
export const moneyToDecimal = /* @__PURE__ */ guardFn(wasmMoneyToDecimal);
export const parseMoney = /* @__PURE__ */ guardFn(wasmParseMoney);
