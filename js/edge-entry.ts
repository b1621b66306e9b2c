// The `workerd` (Cloudflare Workers, wrangler) and `edge-light` (Vercel Edge, Next.js
// `runtime = "edge"`) export conditions of an entry. These hosts compile no WebAssembly from
// bytes or a URL: the `.wasm` is imported as a module (`?module`, which wrangler, Next.js
// and Vercel read as a compiled `WebAssembly.Module`) and instantiated by init().
// scripts/build-pkg.sh compiles this file as the `cirrus-storefront/client` subpath's edge.ts;
// the root's js/edge.ts adds the checkout module's.
import type { InitInput } from "./cirrus_storefront.js";
import { initWith } from "./load.js";
import wasm from "./cirrus_storefront_bg.wasm?module";

export * from "./index.js";

/**
 * Loads the WebAssembly module; call (and await) it once before anything else.
 * Idempotent. Without an argument the `.wasm` module imported with the package is used;
 * a URL, `Response`, bytes or `WebAssembly.Module` loads it from elsewhere.
 */
export function init(module?: InitInput | Promise<InitInput>): Promise<void> {
  return initWith(module, () => wasm);
}
