// Runs tests/sdk/matrix.mjs in headless Chromium against the built package's browser
// entry, served as plain ES modules (the package at /pkg/, the cases at /matrix.mjs).
// Usage: node tests/sdk/matrix-browser.mjs PKG_DIR BASE_URL API_KEY   (exit code 1 on failure)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const [pkg, base, key] = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import * as lib from "/pkg/index.js";
import { matrix } from "/matrix.mjs";
const q = new URLSearchParams(location.search);
matrix(lib, { baseUrl: q.get("base"), apiKey: q.get("key") }).then(
  (passed) => { window.__result = { ok: true, passed }; },
  (e) => { window.__result = { ok: false, error: String(e && e.stack || e) }; });
</script>`;
const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  try {
    if (path === "/") return res.writeHead(200, { "Content-Type": "text/html" }), res.end(page);
    const file = path === "/matrix.mjs" ? join(here, "matrix.mjs") : path.startsWith("/pkg/") ? join(pkg, path.slice(5)) : null;
    if (!file || file.includes("..")) throw new Error("not found");
    const body = await readFile(file);
    res.writeHead(200, { "Content-Type": types[extname(file)] || "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let code = 1;
try {
  const tab = await browser.newPage();
  tab.on("pageerror", (e) => console.error("page error:", e));
  await tab.goto(`http://127.0.0.1:${server.address().port}/?base=${encodeURIComponent(base)}&key=${encodeURIComponent(key)}`);
  await tab.waitForFunction(() => window.__result, null, { timeout: 120_000 });
  const result = await tab.evaluate(() => window.__result);
  if (result.ok) {
    console.log(`client matrix (Chromium): ${result.passed.length} cases passed`);
    code = 0;
  } else {
    console.error(result.error);
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(code);
