// The `node` export condition of an entry (Node ≥ 18, Deno, Bun, server bundles: Next.js
// server components, route handlers and server actions with Turbopack or webpack). init()
// with no argument instantiates the `.wasm` embedded in wasm-base64.js (scripts/build-pkg.sh):
// no file path, no `import.meta.url`, nothing a bundler can move away from it.
// scripts/build-pkg.sh compiles this file as the `cirrus-storefront/client` subpath's node.ts;
// the root's js/node.ts adds the checkout module's.
import type { InitInput } from "./cirrus_storefront.js";
import { fromBase64 } from "./base64.js";
import { initWith } from "./load.js";
import wasm from "./wasm-base64.js";

export * from "./index.js";

/**
 * Loads the WebAssembly module; call (and await) it once before anything else.
 * Idempotent. Without an argument the `.wasm` shipped with the package is used;
 * a URL, `Response`, bytes or `WebAssembly.Module` loads it from elsewhere.
 */
export function init(module?: InitInput | Promise<InitInput>): Promise<void> {
  return initWith(module, () => fromBase64(wasm));
}
