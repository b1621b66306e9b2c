import { initSync as wasmInitSync, type SyncInitInput } from "./cirrus_storefront.js";
import { isReady, markReady } from "./ready.js";

/** Synchronous `init()` from the module's bytes or a compiled `WebAssembly.Module`. Idempotent. */
export function initSync(wasm: SyncInitInput): void {
  if (isReady()) return;
  wasmInitSync({ module: wasm });
  markReady();
}
