// The browser side of stage 45-react (bundled by esbuild, React's development build so that a
// hydration mismatch is reported): hydrates the server's HTML (ssr.mjs) with the same props.
// `init()` is started, not awaited, before hydrating: the provider waits for it when the cart is
// first needed (esbuild emits no `new URL(…, import.meta.url)` asset, so the page gives the URL;
// a Vite, webpack or Next.js page leaves it to the provider, which fetches nothing until then).
import { createElement as h } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { init, setCheckoutWasm } from "cirrus-storefront";
import wasm from "cirrus-storefront/cirrus_storefront_bg.wasm";
import checkoutWasm from "cirrus-storefront/checkout/cirrus_storefront_bg.wasm";
import { App } from "./app.mjs";
import { Fixes, OwnClients } from "./fixes.mjs";
import { Shop } from "./readme-example.mjs";

window.__errors = [];
const consoleError = console.error;
console.error = (...a) => {
  window.__errors.push(a.map(String).join(" "));
  consoleError(...a);
};
// esbuild does not emit `new URL(…, import.meta.url)` assets: the file loader's URLs instead.
init(new URL(wasm, import.meta.url)).then(() => setCheckoutWasm(new URL(checkoutWasm, import.meta.url)));
const onRecoverableError = (e) => window.__errors.push(`recoverable: ${e}`);
hydrateRoot(document.getElementById("root"), h(App, window.__PROPS__), { onRecoverableError });
// The README's example, a provider of its own on the same cart (one localStorage key).
hydrateRoot(document.getElementById("readme"), h(Shop, window.__PROPS__), { onRecoverableError });
// The bindings' fixes (fixes.mjs), rendered in the browser only.
createRoot(document.getElementById("fixes")).render(h(Fixes, window.__PROPS__));
createRoot(document.getElementById("own-clients")).render(h(OwnClients, window.__PROPS__));
