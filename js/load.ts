// init() of both package entries (`cirrus-storefront` and `cirrus-storefront/client`):
// each is compiled next to its own wasm-bindgen glue.
import wasmInit, { type InitInput } from "./cirrus_storefront.js";
import { markReady } from "./ready.js";

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
