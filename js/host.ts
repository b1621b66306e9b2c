// The CirrusError of a `.wasm` that cannot be loaded: it names the host detected and the line
// to write there instead, never the bare TypeError of the host's fetch or WebAssembly API.
// Used by init() (js/load.ts) and the checkout's loader (js/lazy-checkout.ts); short, since
// every browser page ships it.
import { ENTRY } from "./entry-name.js";
import { cirrusError, type CirrusError } from "./error.js";

interface Globals {
  navigator?: { userAgent?: unknown };
  EdgeRuntime?: unknown;
  Deno?: unknown;
  Bun?: unknown;
  process?: { versions?: { node?: string } };
}

/**
 * `invalid_argument` when the value given is not a URL, `Response`, bytes or
 * `WebAssembly.Module`, else `invalid_state` naming the host and what to pass to `init` (or,
 * for the checkout module, to `setCheckoutWasm`); the host's error is its `cause`.
 */
export function loadError(cause: unknown, given: unknown, checkout: boolean): CirrusError {
  const g = globalThis as Globals;
  const s = `${ENTRY}/${checkout ? "checkout/" : ""}cirrus_storefront_bg.wasm`;
  const pass = checkout ? "setCheckoutWasm" : "init";
  // [host, what to pass there, the export condition whose entry does that by itself]
  const [host, code, condition] =
    g.navigator?.userAgent === "Cloudflare-Workers" ? ["Cloudflare Workers", `import m from "${s}"; await ${pass}(m)`, "workerd"]
    : typeof g.EdgeRuntime === "string" ? ["an edge runtime", `import m from "${s}?module"; await ${pass}(m)`, "edge-light"]
    : g.Deno || g.Bun || g.process?.versions?.node ? [g.Deno ? "Deno" : g.Bun ? "Bun" : "Node.js", `await ${pass}(readFileSync(fileURLToPath(import.meta.resolve("${s}"))))`, "node"]
    : ["a browser", `await ${pass}(its URL)`];
  const e = given === null || !["object", "string", "undefined"].includes(typeof given)
    ? cirrusError("invalid_argument", `${pass}() takes a URL, Response, bytes or WebAssembly.Module`)
    : cirrusError("invalid_state", `could not load ${s} in ${host} (${String(cause)}); pass it: ${code}${condition ? ` (as the package's "${condition}" entry does)` : ""}`);
  Object.defineProperty(e, "cause", { value: cause });
  return e;
}
