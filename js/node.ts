// The `node` export condition of `cirrus-storefront` (js/node-entry.ts, plus the checkout
// module's `.wasm`, embedded the same way and decoded on the first Checkout.start/resume).
import type { InitInput } from "./cirrus_storefront.js";
import { fromBase64 } from "./base64.js";
import { defaultCheckoutWasm } from "./checkout-wasm.js";
import { init as initEntry } from "./node-entry.js";

export * from "./node-entry.js";

/**
 * Loads the WebAssembly module; call (and await) it once before anything else.
 * Idempotent. Without an argument the `.wasm` shipped with the package is used;
 * a URL, `Response`, bytes or `WebAssembly.Module` loads it from elsewhere.
 */
export function init(module?: InitInput | Promise<InitInput>): Promise<void> {
  defaultCheckoutWasm(() => import("./checkout/wasm-base64.js").then((m) => fromBase64(m.default)));
  return initEntry(module);
}
