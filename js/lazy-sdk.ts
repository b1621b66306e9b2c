// The root entry (`cirrus-storefront`: its glue and its .wasm), imported and initialised on
// first use: a dynamic import, which bundlers split into a chunk the page fetches only then.
// Used by the parts of the package that render without the wasm until the buyer acts
// (js/store.ts, js/picker.ts). A page that calls `init(…)` itself first gets that same
// module (init() is idempotent).
import type * as Root from "./index.js";

/** The root entry's module. */
export type Sdk = typeof Root;

/** Where the early compile (`earlyCompileScript`) leaves its promise: a global, as the inline script runs before any module. */
const EARLY = "__cirrusWasm";

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

/** The root entry, initialised (again after a failed try), from the page's early compile if it has one. */
export function loadSdk(): Promise<Sdk> {
  loading ??= (given !== undefined ? Promise.resolve(given) : import("./index.js"))
    .then(async (m) => {
      await m.init((globalThis as { [EARLY]?: Promise<WebAssembly.Module | string> })[EARLY]);
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

/**
 * The inline script of a page whose first action must be fast (`PreloadSdk` renders it on the
 * server, with a preload of `href` in the head): it compiles the root entry's `.wasm` while the
 * page downloads (`WebAssembly.compileStreaming` of the preloaded response: the bytes are
 * compiled as they arrive, while the main thread waits for the framework's chunks), so that work
 * is done before the first action. `loadSdk()` gives the result to `init()`: the module, or
 * `href` when the streaming compile failed (a server that does not send `application/wasm`),
 * which `init()` then fetches itself.
 */
export function earlyCompileScript(href: string): string {
  const u = JSON.stringify(href).replace(/</g, "\\u003c");
  return `(()=>{const g=globalThis,W=g.WebAssembly;if(!g.${EARLY}&&W&&W.compileStreaming)g.${EARLY}=W.compileStreaming(fetch(${u})).catch(()=>${u})})()`;
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
