/// <reference lib="esnext.disposable" preserve="true" />
// Browser / bundler entry of cirrus-storefront.
import wasmInit, {
  type InitInput,
} from "./cirrus_storefront.js";
import { Checkout as TsCheckout } from "./checkout.js";
import {
  Cart as JsCart,
  addMoney as jsAddMoney,
  currencyExponent as jsCurrencyExponent,
  formatMoney as jsFormatMoney,
  moneyToDecimal as jsMoneyToDecimal,
  parseMoney as jsParseMoney,
} from "./cart.js";
import { guardClass, guardFn } from "./guard.js";
import { markReady } from "./ready.js";

// Types generated from the Rust types, listed one by one so the glue's `InitOutput` (its raw
// wasm exports, typed `any`) stays out of the public surface. Stage 40-pkg fails if a type
// the glue declares is missing here, or if `any` is reachable from the entry.
export type {
  AdapterSession,
  Breakdown,
  CartChange,
  CartLine,
  CartStorageEvent,
  CartTotals,
  CheckoutFailureCode,
  CheckoutListener,
  CheckoutOptions,
  CheckoutSession,
  CheckoutState,
  ClientOptions,
  Collection,
  CollectionProduct,
  CollectionRef,
  CollectionResponse,
  CollectionsResponse,
  ConfirmRequest,
  ConfirmResponse,
  DisplayStyle,
  Image,
  InitInput,
  InitiateRequest,
  InitiateResponse,
  LineRemoved,
  MinimalProduct,
  MinimalProductsResponse,
  OptionValue,
  Page,
  PagesResponse,
  Pagination,
  PayOptions,
  PaymentAttempt,
  PaymentItem,
  PaymentStatus,
  PersistentCartOptions,
  PriceChange,
  Processor,
  ProcessorAdapter,
  Product,
  ProductOption,
  ProductResponse,
  ProductStatus,
  ProductsOptions,
  ProductsResponse,
  RefreshReport,
  RestoreProblem,
  RestoreProblemKind,
  ShippingAddress,
  ShippingChoice,
  ShippingOption,
  ShippingRate,
  ShippingRatesRequest,
  ShippingRatesResponse,
  StartCheckoutOptions,
  StockChange,
  StockStatus,
  Store,
  StoreResponse,
  SyncInitInput,
  UpdateRequest,
  UpdateResponse,
  Variant,
  VariantRates,
} from "./cirrus_storefront.js";
export { CirrusError, type CirrusErrorFields, type ErrorCode } from "./error.js";
export { CirrusClient, type AllProductsOptions, type PaginationOf, type ProductOf, type ProductsResult } from "./client.js";
export { isReady } from "./ready.js";

// The other areas' exports, guarded so a call before init() is a clear CirrusError
// (tests/package/smoke.mjs checks that every function export is guarded).
export const Cart = /* @__PURE__ */ guardClass(JsCart);
export type Cart = JsCart;
export const Checkout = /* @__PURE__ */ guardClass(TsCheckout);
export type Checkout = TsCheckout;
export const addMoney = /* @__PURE__ */ guardFn(jsAddMoney);
export const currencyExponent = /* @__PURE__ */ guardFn(jsCurrencyExponent);
export const formatMoney = /* @__PURE__ */ guardFn(jsFormatMoney);
export const moneyToDecimal = /* @__PURE__ */ guardFn(jsMoneyToDecimal);
export const parseMoney = /* @__PURE__ */ guardFn(jsParseMoney);

let pending: Promise<void> | undefined;

/**
 * Loads the WebAssembly module; call (and await) it once before anything else.
 * Idempotent: later calls return the same promise. By default the `.wasm` is
 * fetched from next to this file; pass a URL, `Response`, bytes or a
 * `WebAssembly.Module` to load it from elsewhere.
 */
export function init(wasm?: InitInput | Promise<InitInput>): Promise<void> {
  pending ??= wasmInit(wasm === undefined ? undefined : { module_or_path: wasm }).then(
    () => markReady(),
    (e: unknown) => {
      pending = undefined;
      throw e;
    },
  );
  return pending;
}

/** Synchronous `init()` from the module's bytes or a compiled `WebAssembly.Module`. */
export { initSync } from "./init-sync.js";
