// webpack 5 defaults: `new URL("cirrus_storefront_bg.wasm", import.meta.url)` in the
// package's glue is an asset module (emitted as a file, URL resolved against the
// automatic publicPath); no loader, no experiments.
import { fileURLToPath } from "node:url";

export default {
  mode: "production",
  entry: "./src/main.js",
  output: { path: fileURLToPath(new URL("dist", import.meta.url)), filename: "main.js", clean: true },
  performance: { hints: false },
  stats: "errors-warnings",
};
