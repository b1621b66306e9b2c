// Page weights: loads each bundled app (a directory with index.html, made by
// scripts/bench-size.sh) in headless Chromium, answers its API requests from fixture files,
// and sums gzip -9 of every .js and .wasm the page requested. Prints one JSON object:
// { PAGE: { bytes, files: { path: gzip bytes }, requests: { path: times requested }, note } }
// for the pages given.
// Usage: node tests/size/page-weight.mjs FIXTURE_DIR NAME=DIR...
// The app reports `window.__done = string` when it finished its work, or
// `window.__done = { error }`; an error or no report within 60 s fails the run (exit 1).
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { extname, join } from "node:path";
import { chromium } from "playwright-core";

const [fixtures, ...pages] = process.argv.slice(2);
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/** The fixture answering an API path (`/api/v1/products/slug/x` → products-slug.json), or null. */
function fixture(path) {
  const rest = path.replace(/^\/api\/v1\//, "");
  const name = rest.startsWith("products/slug/") ? "products-slug" : rest.replace(/\//g, "-");
  const file = join(fixtures, `${name}.json`);
  return existsSync(file) ? file : null;
}

/** gzip -9 bytes of a file, as the gzip command counts them. */
const gz = (bytes) => execFileSync("gzip", ["-9c"], { input: bytes, maxBuffer: 64 << 20 }).length;

async function measure(browser, dir) {
  const requested = new Map();
  const requests = new Map();
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Headers", "*");
    if (req.method === "OPTIONS") return res.writeHead(204).end();
    try {
      if (path.startsWith("/api/")) {
        const f = fixture(path);
        if (!f) throw new Error("no fixture");
        res.writeHead(200, { "Content-Type": "application/json", "x-request-id": "req_fixture" });
        return res.end(await readFile(f));
      }
      if (path.includes("..")) throw new Error("outside");
      const file = path === "/" ? "index.html" : path;
      const body = await readFile(join(dir, file));
      if (/\.(m?js|wasm)$/.test(file)) {
        requested.set(file, gz(body));
        requests.set(file, (requests.get(file) ?? 0) + 1);
      }
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end('{"error":{"code":"not_found","message":"no fixture"}}');
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.__done, null, { timeout: 60_000 });
    const done = await page.evaluate(() => window.__done);
    await page.close();
    if (typeof done !== "string") throw new Error(`${dir}: the app failed: ${JSON.stringify(done)} ${errors.join("; ")}`);
    const files = Object.fromEntries([...requested].sort());
    return { bytes: Object.values(files).reduce((a, b) => a + b, 0), files, requests: Object.fromEntries([...requests].sort()), note: done };
  } finally {
    server.close();
  }
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const out = {};
  for (const p of pages) {
    const [name, dir] = p.split("=");
    out[name] = await measure(browser, dir);
  }
  console.log(JSON.stringify(out, null, 1));
} catch (e) {
  console.error(String((e && e.stack) || e));
  process.exitCode = 1;
} finally {
  await browser.close();
}
