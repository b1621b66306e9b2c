// Decoding a 500-product GET /products body in headless Chromium, fetch to validated objects:
// the shipped Rust client, `client.products({ limit: 500 })` with an in-memory `fetch`, against
// what a JavaScript SDK pays on the same stub, `Response.json()` (issue 17: goal <= 1.1x).
// Same page, same run, the variants interleaved: each round runs every variant once, in an
// order rotated round by round, so load that comes and goes hits them alike. Reported per
// variant: median with p25–p75 and min–max over the rounds; and the ratio client /
// Response.json() both of the medians and per round (median and p25–p75 of the rounds'
// ratios, each round's pair measured back to back).
// With BASELINE_PKG_DIR, a second build of the package (another commit's) runs in the same page
// as one more interleaved variant, `baselineCall`, and the per-round ratio of the two builds is
// reported too: the fair way to compare two builds on a shared machine.
// Usage: node tests/sdk/bench-decode.mjs PKG_DIR BODY_JSON [ROUNDS [BASELINE_PKG_DIR]]   (see scripts/bench-decode.sh)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { chromium } from "playwright-core";

const [pkgDir, bodyFile, rounds = "41", basePkgDir] = process.argv.slice(2);
const GOAL = 1.1;
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { init, CirrusClient } from "/pkg/index.js";
await init();
${basePkgDir ? `import * as base from "/base/index.js";
await base.init();` : ""}
const text = await (await fetch("/body.json")).text();
const ROUNDS = ${Number(rounds)}, WARMUP = 5;
const key = "ak_" + "0".repeat(48);
const respond = async () => new Response(text, { status: 200, headers: { "content-type": "application/json" } });
const client = new CirrusClient({ baseUrl: "http://127.0.0.1:1/api/v1", apiKey: key, fetch: respond });
const n = JSON.parse(text).products.length;
if ((await client.products({ limit: 500 })).products.length !== n) throw new Error("client");
${basePkgDir ? `const baseClient = new base.CirrusClient({ baseUrl: "http://127.0.0.1:1/api/v1", apiKey: key, fetch: respond });
if ((await baseClient.products({ limit: 500 })).products.length !== n) throw new Error("baseline client");` : ""}
if ((await (await respond()).json()).products.length !== n) throw new Error("Response.json");
// What the client does in JS, without the check in wasm: text(), encodeInto a buffer, JSON.parse.
const encoder = new TextEncoder(), into = new Uint8Array(3 * text.length);
const variants = {
  clientCall: () => client.products({ limit: 500 }),
  responseJson: async () => (await respond()).json(),
  responseText: async () => (await respond()).text(),
  jsonParse: async () => JSON.parse(text),
  responseBytes: async () => (await respond()).arrayBuffer(),
  bytesDecodeParse: async () => JSON.parse(new TextDecoder().decode(await (await respond()).arrayBuffer())),
  textEncodeParse: async () => { const t = await (await respond()).text(); encoder.encodeInto(t, into); return JSON.parse(t); },
  ${basePkgDir ? `baselineCall: () => baseClient.products({ limit: 500 }),` : ""}
};
const names = Object.keys(variants);
const times = Object.fromEntries(names.map((k) => [k, []]));
for (let r = -WARMUP; r < ROUNDS; r++) {
  for (let i = 0; i < names.length; i++) {
    const k = names[(i + Math.max(r, 0)) % names.length];
    const t0 = performance.now();
    await variants[k]();
    if (r >= 0) times[k].push(performance.now() - t0);
  }
}
window.__result = { products: n, bytes: text.length, rounds: ROUNDS, times };
</script>`;
const body = await readFile(bodyFile);
const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  try {
    if (path === "/") { res.writeHead(200, { "Content-Type": "text/html" }); return res.end(page); }
    if (path === "/body.json") { res.writeHead(200, { "Content-Type": "application/json" }); return res.end(body); }
    const file = path.startsWith("/base/") ? join(basePkgDir, path.slice(6)) : join(pkgDir, path.replace(/^\/pkg\//, ""));
    const data = await readFile(file);
    res.writeHead(200, { "Content-Type": types[extname(path)] || "application/octet-stream" });
    res.end(data);
  } catch { res.writeHead(404); res.end(); }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
/** The q-quantile of sorted values (linear interpolation). */
const q = (sorted, p) => {
  const i = (sorted.length - 1) * p, lo = Math.floor(i), hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
};
const stats = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return { median: q(s, 0.5), p25: q(s, 0.25), p75: q(s, 0.75), min: s[0], max: s[s.length - 1] };
};
const fmt = (s, unit = " ms", d = 2) =>
  `${s.median.toFixed(d)}${unit} (p25–p75 ${s.p25.toFixed(d)}–${s.p75.toFixed(d)}, min–max ${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
try {
  const p = await browser.newPage();
  p.on("pageerror", (e) => { console.error("page error:", e); process.exit(1); });
  await p.goto(`http://127.0.0.1:${server.address().port}/`);
  await p.waitForFunction(() => window.__result, null, { timeout: 600_000 });
  const r = await p.evaluate(() => window.__result);
  const s = Object.fromEntries(Object.entries(r.times).map(([k, v]) => [k, stats(v)]));
  console.log(`body: ${r.products} products, ${r.bytes} bytes; ${r.rounds} interleaved rounds after 5 warm-up rounds`);
  console.log(`JSON.parse alone (reference):                  ${fmt(s.jsonParse)}`);
  console.log(`the stub's Response.text() alone:               ${fmt(s.responseText)}`);
  console.log(`the stub's Response.arrayBuffer() alone:        ${fmt(s.responseBytes)}`);
  console.log(`arrayBuffer(), TextDecoder, JSON.parse (no check): ${fmt(s.bytesDecodeParse)}`);
  console.log(`text(), encodeInto, JSON.parse (no check):      ${fmt(s.textEncodeParse)}`);
  console.log(`a JS SDK: Response.json() on the stub:          ${fmt(s.responseJson)}`);
  console.log(`shipped: client.products({ limit: 500 }):       ${fmt(s.clientCall)}`);
  const perRound = stats(r.times.clientCall.map((t, i) => t / r.times.responseJson[i]));
  const ratio = s.clientCall.median / s.responseJson.median;
  console.log(`ratio client / Response.json(): medians ${ratio.toFixed(2)}x; per round ${fmt(perRound, "x")}`);
  if (r.times.baselineCall) {
    console.log(`baseline build: client.products({ limit: 500 }): ${fmt(s.baselineCall)}`);
    const base = stats(r.times.baselineCall.map((t, i) => t / r.times.responseJson[i]));
    console.log(`ratio baseline / Response.json(): per round ${fmt(base, "x")}`);
    const vs = stats(r.times.clientCall.map((t, i) => t / r.times.baselineCall[i]));
    console.log(`ratio client / baseline build: per round ${fmt(vs, "x")}`);
  }
  console.log(`goal <= ${GOAL}x: ${perRound.median <= GOAL ? "MET" : "MISSED"} (per-round median ${perRound.median.toFixed(2)}x)`);
} finally {
  await browser.close();
  server.close();
}
