// Serves a directory over HTTP and runs its index.html in headless Chromium;
// prints the result the page reports in window.__result. Exit code 1 on failure.
// Usage: node browser-run.mjs DIR BASE_URL API_KEY
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { chromium } from "playwright-core";

const [dir, base, key] = process.argv.slice(2);
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
const server = createServer(async (req, res) => {
  try {
    const path = new URL(req.url, "http://x").pathname;
    const file = path === "/" ? "index.html" : path;
    const body = await readFile(join(dir, file));
    res.writeHead(200, { "Content-Type": types[extname(file)] || "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const port = server.address().port;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let code = 1;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error("page error:", e));
  await page.goto(`http://127.0.0.1:${port}/?base=${encodeURIComponent(base)}&key=${encodeURIComponent(key)}`);
  await page.waitForFunction(() => window.__result, null, { timeout: 60_000 });
  const result = await page.evaluate(() => window.__result);
  if (result.ok) {
    console.log(`browser consumer (esbuild bundle): ${result.passed.length} checks passed`);
    code = 0;
  } else {
    console.error(result.error);
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(code);
