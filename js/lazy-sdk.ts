// The root entry (`cirrus-storefront`: its glue and its .wasm), imported and initialised on
// first use: a dynamic import, which bundlers split into a chunk the page fetches only then.
// Used by the parts of the package that render without the wasm until the buyer acts
// (js/react.ts, js/picker.ts). A page that calls `init(…)` itself first gets that same
// module (init() is idempotent).
import type * as Root from "./index.js";

/** The root entry's module. */
export type Sdk = typeof Root;

let loading: Promise<Sdk> | undefined;
let loaded: Sdk | undefined;
let given: Sdk | undefined;

/**
 * The root entry's module as the page imported it itself (`import * as sdk from
 * "cirrus-storefront"` in the chunk that needs it first): `loadSdk()` initialises that one and
 * fetches no chunk of its own (a network round trip on the first action's path).
 */
export function provideSdk(sdk: Sdk): void {
  given ??= sdk;
}

/** The root entry, initialised (again after a failed try). */
export function loadSdk(): Promise<Sdk> {
  loading ??= (given !== undefined ? Promise.resolve(given) : import("./index.js"))
    .then(async (m) => {
      await m.init();
      loaded = m;
      return m;
    })
    .catch((e: unknown) => {
      loading = undefined;
      throw e;
    });
  return loading;
}

/** The root entry if it is loaded and initialised, else `undefined`. */
export function sdkIfLoaded(): Sdk | undefined {
  return loaded;
}

/**
 * The URL the root entry's `.wasm` is fetched from, as the bundler emitted it (the same
 * `new URL(…, import.meta.url)` as the glue's, so a bundler gives both the same hashed file):
 * `null` when it is not a URL a page can preload (a `file:` URL when run unbundled on a server).
 */
export function sdkWasmHref(): string | null {
  try {
    const href = String(new URL("./cirrus_storefront_bg.wasm", import.meta.url).href);
    return /^(https?:\/\/|\/)/.test(href) ? href : null;
  } catch {
    return null;
  }
}

/** Starts `loadSdk()` once the page is idle (`requestIdleCallback`, else a timeout); returns the cancel. */
export function loadSdkWhenIdle(): () => void {
  const g = globalThis as { requestIdleCallback?: (f: () => void) => number; cancelIdleCallback?: (id: number) => void };
  const start = (): void => void loadSdk().catch(() => {}); // the action that needs it reports the error
  if (g.requestIdleCallback && g.cancelIdleCallback) {
    const id = g.requestIdleCallback(start);
    return () => g.cancelIdleCallback?.(id);
  }
  const id = setTimeout(start, 200);
  return () => clearTimeout(id);
}
