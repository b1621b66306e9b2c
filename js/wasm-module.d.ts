// A `.wasm` imported with `?module` (js/edge-entry.ts): a compiled module, as wrangler, Next.js's
// edge runtime and Vercel Edge give it.
declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}
