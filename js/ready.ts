// init() bookkeeping shared by the browser and node entries.
import * as glue from "./cirrus_storefront.js";
import { CirrusError, cirrusError } from "./error.js";

let ready = false;

/** Throws a `CirrusError` (`invalid_state`) unless `init()` has completed. */
export function assertReady(): void {
  if (!ready) {
    throw cirrusError("invalid_state", "cirrus-storefront is not initialised: call `await init()` first");
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
