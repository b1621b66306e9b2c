// The SDK's .wasm compiled while the page downloads: an inline script (in the server HTML, after the
// product's island) starts `WebAssembly.compileStreaming` on the `.wasm` that
// usePreloadSdk preloads from the head, so the bytes are compiled as they arrive, while the
// main thread waits for the framework's chunks. Without it the compile starts when the island's
// module first runs, during hydration, and lands on the first "Add to cart" (the click at the
// load event waited for it: compile, then the cart). The island hands the result to `init()`:
// the compiled module; if the streaming compile failed (a server that does not send
// `application/wasm`, say), the `.wasm`'s URL, which `init()` fetches itself; `undefined` (no
// preload, no streaming compile) lets `init()` use its default.

const SCRIPT = `(()=>{const l=document.querySelector('link[rel="preload"][as="fetch"][href$=".wasm"]');if(l&&WebAssembly.compileStreaming)window.__cirrusWasm=WebAssembly.compileStreaming(fetch(l.href)).catch(()=>l.href)})()`;

/** The inline script: render it once in the page, after the island that calls usePreloadSdk. */
export function EarlySdkCompile() {
  return <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}

/** What the inline script started (in the browser), for `init()`. */
export function earlySdkModule(): Promise<WebAssembly.Module | string> | undefined {
  return (globalThis as { __cirrusWasm?: Promise<WebAssembly.Module | string> }).__cirrusWasm;
}
