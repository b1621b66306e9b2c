// Where the checkout module's `.wasm` comes from (js/lazy-checkout.ts loads it on the first
// `Checkout.start`/`resume`): what `setCheckoutWasm` was given, else what the node entry
// reads from disk (js/node.ts), else the checkout glue's own
// `new URL("cirrus_storefront_bg.wasm", import.meta.url)`, which Vite and webpack emit as an
// asset and rewrite. No glue code here: js/node.ts imports it in both package entries.
import type { InitInput } from "./cirrus_storefront.js";

/** The checkout module's `.wasm`: a URL, a `Response`, bytes or a `WebAssembly.Module`. */
export type CheckoutWasm = InitInput | Promise<InitInput>;

let given: CheckoutWasm | undefined;
let fallback: (() => CheckoutWasm) | undefined;

/**
 * Where `Checkout` loads its module's `.wasm` from on the first `Checkout.start` or
 * `Checkout.resume` (call it after `init()`). Only needed where the bundler does not emit
 * `new URL(…, import.meta.url)` assets itself (esbuild: import
 * `cirrus-storefront/checkout/cirrus_storefront_bg.wasm` with the file loader and pass its
 * URL); Vite, webpack and node need nothing.
 */
export function setCheckoutWasm(wasm: CheckoutWasm): void {
  given = wasm;
}

/** The node entry's default (the file next to the package), read only when first needed. */
export function defaultCheckoutWasm(read: () => CheckoutWasm): void {
  fallback = read;
}

/** What to instantiate the checkout module from; `undefined`: the glue's own URL. */
export function checkoutWasm(): CheckoutWasm | undefined {
  return given ?? fallback?.();
}
