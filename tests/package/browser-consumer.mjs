// Browser app bundled by esbuild from the packed tarball (the .wasm through
// esbuild's file loader), run in headless Chromium by browser-run.mjs.
import * as lib from "cirrus-storefront";
import wasmUrl from "cirrus-storefront/cirrus_storefront_bg.wasm";
import checkoutWasmUrl from "cirrus-storefront/checkout/cirrus_storefront_bg.wasm";
import { smoke } from "./smoke.mjs";

const params = new URLSearchParams(location.search);
smoke(lib, { baseUrl: params.get("base"), apiKey: params.get("key"), initArg: new URL(wasmUrl, import.meta.url),
  checkoutWasm: new URL(checkoutWasmUrl, import.meta.url) }).then(
  (passed) => { window.__result = { ok: true, passed }; },
  (e) => { window.__result = { ok: false, error: String(e && e.stack || e) }; },
);
