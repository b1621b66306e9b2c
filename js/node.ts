// Node entry of cirrus-storefront: init() reads the .wasm next to this file.
import { readFileSync } from "node:fs";
import type { InitInput } from "./cirrus_storefront.js";
import { defaultCheckoutWasm } from "./checkout-wasm.js";
import { init as initFrom } from "./index.js";
import { initSync } from "./init-sync.js";

export * from "./index.js";

// The root entry's checkout module (pkg/checkout/), read from disk on the first
// Checkout.start/resume (unused by `cirrus-storefront/client`, which has no checkout).
defaultCheckoutWasm(() => readFileSync(new URL("./checkout/cirrus_storefront_bg.wasm", import.meta.url)));

/**
 * Loads the WebAssembly module; call (and await) it once before anything else.
 * Idempotent. Without an argument the `.wasm` next to this file is read from disk.
 */
export function init(wasm?: InitInput | Promise<InitInput>): Promise<void> {
  if (wasm !== undefined) return initFrom(wasm);
  try {
    initSync(readFileSync(new URL("./cirrus_storefront_bg.wasm", import.meta.url)));
    return Promise.resolve();
  } catch (e) {
    return Promise.reject(e);
  }
}
