/// <reference lib="esnext.disposable" preserve="true" />
// Browser / bundler entry of cirrus-storefront.
import wasmInit, { type InitInput } from "./cirrus_storefront.js";
import { markReady } from "./ready.js";

export * from "./cirrus_storefront.js";
export { CirrusError, type CirrusErrorFields, type ErrorCode } from "./error.js";
export { CirrusClient, type AllProductsOptions, type PaginationOf, type ProductOf, type ProductsResult } from "./client.js";
export { isReady } from "./ready.js";

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
