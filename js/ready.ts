// init() bookkeeping shared by the browser and node entries.
import * as glue from "./cirrus_storefront.js";
import { ENTRY } from "./entry-name.js";
import { CirrusError, cirrusError } from "./error.js";

let ready = false;

/** Throws a `CirrusError` (`invalid_state`) unless `init()` has completed. */
export function assertReady(): void {
  if (!ready) {
    // Each entry has its own wasm module and its own init(): name the one this export is of.
    throw cirrusError("invalid_state", `${ENTRY} is not initialised: call \`await init()\` imported from "${ENTRY}" first (init() of another entry of the package does not initialise this one)`);
  }
}

/** Called once the wasm module is instantiated. */
export function markReady(): void {
  if (ready) return;
  // Internal hook, left out of the public typings on purpose (src/wasm/error.rs).
  (glue as unknown as { __registerErrorClass(c: typeof CirrusError): void }).__registerErrorClass(CirrusError);
  ready = true;
}

/**
 * Whether `init()` has completed, so the wasm exports can be called (before it they throw a
 * `CirrusError` with code `invalid_state`).
 * @example if (!isReady()) await init();
 */
export function isReady(): boolean {
  return ready;
}
