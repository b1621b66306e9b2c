// Decoding a 500-product GET /products body in headless Chromium: the shipped
// design (JSON.parse + in-place check against the generated schema) and the
// alternatives, against a bare JSON.parse of the same body in the same run.
// Usage: node tests/sdk/bench-decode.mjs WASM_PKG_DIR BODY_JSON   (see scripts/bench-decode.sh)
// WASM_PKG_DIR is a wasm-pack build with the `bench` feature; the TypeScript client
// (js/client.ts) is bundled against its glue here, with esbuild.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const [pkgDir, bodyFile] = process.argv.slice(2);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const glue = resolve(pkgDir, "cirrus_storefront.js");
await build({
  stdin: {
    contents: `export { default as init, benchSerdeDecodeProducts } from "./cirrus_storefront.js";
export { markReady } from "./js/ready.ts";
export { CirrusClient } from "./js/client.ts";
export { parseChecked } from "./js/validate.js";
export { SCHEMA } from "./js/generated/schema.js";`,
    resolveDir: root,
    loader: "js",
  },
  bundle: true,
  format: "esm",
  outfile: join(pkgDir, "bench-bundle.js"),
  logLevel: "error",
  plugins: [{ name: "glue", setup: (b) => b.onResolve({ filter: /cirrus_storefront\.js$/ }, () => ({ path: glue })) }],
});
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { init, benchSerdeDecodeProducts, markReady, CirrusClient, parseChecked, SCHEMA } from "/pkg/bench-bundle.js";
await init({ module_or_path: "/pkg/cirrus_storefront_bg.wasm" });
markReady();
const text = await (await fetch("/body.json")).text();
const RUNS = 30, WARMUP = 5;
async function median(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const t = [];
  for (let i = 0; i < RUNS; i++) { const t0 = performance.now(); await fn(); t.push(performance.now() - t0); }
  t.sort((a, b) => a - b);
  return t[RUNS >> 1];
}
const key = "ak_" + "0".repeat(48);
const client = new CirrusClient({ baseUrl: "http://127.0.0.1:1/api/v1", apiKey: key,
  fetch: async () => new Response(text, { status: 200, headers: { "content-type": "application/json" } }) });
const n = JSON.parse(text).products.length;
if (parseChecked(text, "ProductsResponse", SCHEMA).products.length !== n) throw new Error("validator");
if (benchSerdeDecodeProducts(text) !== n) throw new Error("serde");
const r = {
  products: n, bytes: text.length,
  jsonParse: await median(() => JSON.parse(text)),
  shipped: await median(() => parseChecked(text, "ProductsResponse", SCHEMA)),
  clientCall: await median(() => client.products({ limit: 500 })),
  fetchStubOnly: await median(async () => (await new Response(text)).text()),
  serdeJsonInWasm: await median(() => benchSerdeDecodeProducts(text)),
};
window.__result = r;
</script>`;
const body = await readFile(bodyFile);
const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  try {
    if (path === "/") { res.writeHead(200, { "Content-Type": "text/html" }); return res.end(page); }
    if (path === "/body.json") { res.writeHead(200, { "Content-Type": "application/json" }); return res.end(body); }
    const data = await readFile(join(pkgDir, path.replace(/^\/pkg\//, "")));
    res.writeHead(200, { "Content-Type": types[extname(path)] || "application/octet-stream" });
    res.end(data);
  } catch { res.writeHead(404); res.end(); }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
try {
  const p = await browser.newPage();
  p.on("pageerror", (e) => { console.error("page error:", e); process.exit(1); });
  await p.goto(`http://127.0.0.1:${server.address().port}/`);
  await p.waitForFunction(() => window.__result, null, { timeout: 120_000 });
  const r = await p.evaluate(() => window.__result);
  const x = (v) => `${v.toFixed(2)} ms (${(v / r.jsonParse).toFixed(2)}x JSON.parse)`;
  console.log(`body: ${r.products} products, ${r.bytes} bytes; median of 30 runs after 5 warm-up runs`);
  console.log(`JSON.parse alone:                         ${r.jsonParse.toFixed(2)} ms`);
  console.log(`shipped: JSON.parse + schema check (JS):  ${x(r.shipped)}`);
  console.log(`full client.products({limit:500}), in-memory fetch: ${x(r.clientCall)}`);
  console.log(`  of which the stub's Response.text():    ${r.fetchStubOnly.toFixed(2)} ms`);
  console.log(`alternative: serde_json in wasm → Rust structs (no JS objects yet): ${x(r.serdeJsonInWasm)}`);
  const ratio = r.shipped / r.jsonParse;
  console.log(`budget <= 1.5x JSON.parse: ${ratio <= 1.5 ? "MET" : "MISSED"} (${ratio.toFixed(2)}x)`);
  process.exitCode = ratio <= 1.5 ? 0 : 2;
} finally {
  await browser.close();
  server.close();
}
