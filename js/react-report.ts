// The React bindings' failure log (js/react.ts): a provider that cannot make its client, a cart or
// checkout error, logged once per message in development with what to do about it.
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
    e.code === "unauthorized" || /apiKey|baseUrl/.test(e.message) ? "pass the storefront's API key and base URL: <CirrusProvider client={{ baseUrl, apiKey }}> (the storefront key is public by design; e.g. NEXT_PUBLIC_CIRRUS_API_KEY)"
    : e.code === "network" || e.code === "timeout" ? "is the API running at the client's baseUrl (scripts/api.sh), and does it allow this origin (CORS)?"
    : e.code === "invalid_state" && /load|wasm/.test(e.message) ? "the SDK's .wasm could not be loaded: see the message for what to pass to init()"
    : "render `error` from useCart() / useCheckout() to show it";
  console.error(`[cirrus-storefront] ${what}: ${e.message}\n  What to do: ${hint}`, e);
}
