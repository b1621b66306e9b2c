// Decoding a 500-product GET /products body in headless Chromium, fetch to validated
// objects: the shipped Rust client (`client.products({ limit: 500 })` with an in-memory
// `fetch`: gloo-net request, body text into wasm, checked against the model types there,
// then the engine's JSON.parse builds the objects) against a bare JSON.parse of the same
// body in the same run, and against the browser's own `Response.json()`.
// Usage: node tests/sdk/bench-decode.mjs PKG_DIR BODY_JSON   (see scripts/bench-decode.sh)
// PKG_DIR is a package built by scripts/build-pkg.sh.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { chromium } from "playwright-core";

const [pkgDir, bodyFile] = process.argv.slice(2);
const BUDGET = 2.0;
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { init, CirrusClient } from "/pkg/index.js";
await init();
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
const respond = async () => new Response(text, { status: 200, headers: { "content-type": "application/json" } });
const client = new CirrusClient({ baseUrl: "http://127.0.0.1:1/api/v1", apiKey: key, fetch: respond });
const n = JSON.parse(text).products.length;
if ((await client.products({ limit: 500 })).products.length !== n) throw new Error("client");
const r = {
  products: n, bytes: text.length,
  jsonParse: await median(() => JSON.parse(text)),
  responseJson: await median(async () => (await respond()).json()),
  fetchStubText: await median(async () => (await respond()).text()),
  clientCall: await median(() => client.products({ limit: 500 })),
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
  console.log(`JSON.parse alone:                                    ${r.jsonParse.toFixed(2)} ms`);
  console.log(`the browser's Response.json() (no validation):       ${x(r.responseJson)}`);
  console.log(`  the stub fetch's Response.text() alone:            ${x(r.fetchStubText)}`);
  console.log(`shipped: client.products({limit:500}), in-memory fetch: ${x(r.clientCall)}`);
  const ratio = r.clientCall / r.jsonParse;
  console.log(`budget <= ${BUDGET}x JSON.parse: ${ratio <= BUDGET ? "MET" : "MISSED"} (${ratio.toFixed(2)}x)`);
} finally {
  await browser.close();
  server.close();
}
