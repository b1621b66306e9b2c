// Where the checkout module's `.wasm` comes from (js/lazy-checkout.ts loads it on the first
// `Checkout.start`/`resume`): what `setCheckoutWasm` was given, else the host entry's default
// (js/node.ts: the bytes embedded in checkout/wasm-base64.js; js/edge.ts: the module imported
// with `?module`), else the checkout glue's own
// `new URL("cirrus_storefront_bg.wasm", import.meta.url)`, which Vite and webpack emit as an
// asset and rewrite. No glue code here.
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
 * URL); Vite, webpack and the node, workerd and edge-light entries need nothing.
 */
export function setCheckoutWasm(wasm: CheckoutWasm): void {
  given = wasm;
}

/** A host entry's default (js/node.ts, js/edge.ts), called only when first needed. */
export function defaultCheckoutWasm(read: () => CheckoutWasm): void {
  fallback = read;
}

/** What to instantiate the checkout module from; `undefined`: the glue's own URL. */
export function checkoutWasm(): CheckoutWasm | undefined {
  return given ?? fallback?.();
}
