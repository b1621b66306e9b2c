// `Checkout` of the package root: the Rust class of the checkout's own wasm module
// (pkg/checkout/: the crate built with `--no-default-features --features checkout`; src/wasm/checkout_split.rs),
// fetched and instantiated on the first `Checkout.start` or `Checkout.resume`, so a page that
// never checks out loads none of its code. Its typings are that module's glue's. The module
// calls the client through its JS methods and reads a `Cart` through its JS API (two wasm
// instances share no Rust objects). `Checkout.clearStored` stays synchronous: the root
// entry's wasm does it.
import type { Checkout as WasmCheckout } from "./checkout/cirrus_storefront.js";
import * as glue from "./cirrus_storefront.js";
import { checkoutWasm } from "./checkout-wasm.js";
import { CirrusError, cirrusError } from "./error.js";
import { guardClass } from "./guard.js";
import { loadError } from "./host.js";

type CheckoutClass = typeof WasmCheckout;

let loading: Promise<CheckoutClass> | undefined;
let loaded: CheckoutClass | undefined;

/** The checkout module's `Checkout` class, instantiated once (again after a failed try). */
function load(): Promise<CheckoutClass> {
  loading ??= import("./checkout/cirrus_storefront.js")
    .then(async (m) => {
      const wasm = checkoutWasm();
      try {
        await m.default({ module_or_path: wasm });
      } catch (e) {
        throw loadError(e, wasm, true);
      }
      // Internal hook, as in js/ready.ts: its errors are the package's CirrusError too.
      (m as unknown as { __registerErrorClass(c: typeof CirrusError): void }).__registerErrorClass(CirrusError);
      loaded = m.Checkout;
      return m.Checkout;
    })
    .catch((e: unknown) => {
      loading = undefined;
      throw e;
    });
  return loading;
}

class LazyCheckout {
  private constructor() {
    throw cirrusError("invalid_state", "a Checkout comes from Checkout.start() or Checkout.resume()");
  }

  static start(...args: Parameters<CheckoutClass["start"]>): ReturnType<CheckoutClass["start"]> {
    return load().then((C) => C.start(...args));
  }

  static resume(...args: Parameters<CheckoutClass["resume"]>): ReturnType<CheckoutClass["resume"]> {
    return load().then((C) => C.resume(...args));
  }

  static clearStored(...args: Parameters<CheckoutClass["clearStored"]>): void {
    (glue as unknown as { __clearStoredCheckout: CheckoutClass["clearStored"] }).__clearStoredCheckout(...args);
  }

  /** `x instanceof Checkout`: a checkout of the loaded module. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return loaded !== undefined && value instanceof loaded;
  }
}

/** The checkout (the Rust class of src/wasm/checkout.rs), guarded like every export. */
export const Checkout = /* @__PURE__ */ guardClass(LazyCheckout) as unknown as CheckoutClass;
export type Checkout = WasmCheckout;
