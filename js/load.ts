// init() of both package entries (`cirrus-storefront` and `cirrus-storefront/client`):
// each is compiled next to its own wasm-bindgen glue. The browser entry's default is the glue's
// own `new URL("cirrus_storefront_bg.wasm", import.meta.url)` (fetched and compiled while it
// streams; Vite and webpack emit it as an asset); the host entries (js/node-entry.ts,
// js/edge-entry.ts) give theirs.
import wasmInit, { type InitInput } from "./cirrus_storefront.js";
import { loadError } from "./host.js";
import { markReady } from "./ready.js";

let pending: Promise<void> | undefined;

/** A host entry's default `.wasm`: called only when `init()` gets no argument. */
export type DefaultWasm = () => InitInput | Promise<InitInput>;

/** init() with a host entry's default (none: the glue fetches the file next to it). */
export function initWith(wasm: InitInput | Promise<InitInput> | undefined, fallback?: DefaultWasm): Promise<void> {
  pending ??= wasmInit({ module_or_path: wasm ?? fallback?.() }).then(
    () => markReady(),
    (e: unknown) => {
      pending = undefined;
      throw loadError(e, wasm, false);
    },
  );
  return pending;
}

/**
 * Loads the WebAssembly module; call (and await) it once before anything else.
 * Idempotent: later calls return the same promise. By default the `.wasm` is
 * fetched from next to this file; pass a URL, `Response`, bytes or a
 * `WebAssembly.Module` to load it from elsewhere.
 */
export function init(wasm?: InitInput | Promise<InitInput>): Promise<void> {
  return initWith(wasm);
}
