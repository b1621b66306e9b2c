// A production build as `vite build` makes it by default: index.html → dist/, the package's
// `new URL("cirrus_storefront_bg.wasm", import.meta.url)` emitted as a hashed asset under
// dist/assets/. (A plain object: no `import { defineConfig } from "vite"`, because stage
// 40-pkg runs vite from tests/package/bundlers/node_modules, outside the app.)
export default {
  logLevel: "warn",
  build: { outDir: "dist", emptyOutDir: true },
};
