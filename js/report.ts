// The store's failure log (js/store.ts): a cart that cannot be loaded (its client cannot be
// made, the API not running, a .wasm that cannot be fetched), a refused cart action, a checkout
// error, logged once per message in development with what to do about it.
import type { CirrusError } from "./error.js";

const dev = (): boolean => {
  try {
    return process.env.NODE_ENV !== "production";
  } catch {
    return true; // no `process` and no bundler define: tell
  }
};
const logged = new Set<string>();
/** Logs `e` once per message in development, with what to do about it. */
export function report(what: string, e: CirrusError): void {
  if (!dev() || logged.has(e.message)) return;
  logged.add(e.message);
  const hint =
    e.code === "unauthorized" || /apiKey|baseUrl/.test(e.message) ? "pass the storefront's API key and base URL: <CirrusProvider client={{ baseUrl, apiKey }}>, new CartStore({ client: { baseUrl, apiKey } }) (the storefront key is public by design; e.g. NEXT_PUBLIC_CIRRUS_API_KEY)"
    : e.code === "network" || e.code === "timeout" ? "is the API running at the client's baseUrl (scripts/api.sh), and does it allow this origin (CORS)?"
    : e.code === "invalid_state" && /load|wasm/.test(e.message) ? "the SDK's .wasm could not be loaded: see the message for what to pass to init()"
    : "render the cart's or the checkout's `error` to show it";
  console.error(`[cirrus-storefront] ${what}: ${e.message}\n  What to do: ${hint}`, e);
}
