// The `workerd` and `edge-light` export conditions of `cirrus-storefront` (js/edge-entry.ts,
// plus the checkout module's `.wasm`, imported as a module on the first Checkout.start/resume).
import type { InitInput } from "./cirrus_storefront.js";
import { defaultCheckoutWasm } from "./checkout-wasm.js";
import { init as initEntry } from "./edge-entry.js";

export * from "./edge-entry.js";

/**
 * Loads the WebAssembly module; call (and await) it once before anything else.
 * Idempotent. Without an argument the `.wasm` module imported with the package is used;
 * a URL, `Response`, bytes or `WebAssembly.Module` loads it from elsewhere.
 */
export function init(module?: InitInput | Promise<InitInput>): Promise<void> {
  defaultCheckoutWasm(() => import("./checkout/cirrus_storefront_bg.wasm?module").then((m) => m.default));
  return initEntry(module);
}
