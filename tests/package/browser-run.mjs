// Serves files over HTTP and runs a page in headless Chromium; the page reports
// `window.__result = { ok, passed, note? } | { ok: false, error }`. Used by stage 40-pkg for
// the bundled consumers (esbuild, Vite, webpack: this file as a command) and by
// tests/sdk/matrix-browser.mjs (as a module).
// Usage: node browser-run.mjs DIR BASE_URL API_KEY [LABEL]   (serves DIR, runs its index.html; exit 1 on failure)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };

/**
 * Runs a page in headless Chromium and returns the process exit code (0 when the page
 * reported ok). `resolve(path)` maps a URL path to a file path, to `{ type, body }`, or to
 * null (404); `query` becomes the page's search parameters; `label` names what passed;
 * `report(result)`, when given, is called with what the page reported (pass or fail).
 */
export async function runInChromium(resolve, { query = {}, label, timeoutMs = 60_000, report }) {
  const server = createServer(async (req, res) => {
    try {
      const r = resolve(new URL(req.url, "http://x").pathname);
      if (r === null || (typeof r === "string" && r.includes(".."))) throw new Error("not found");
      const { type, body } = typeof r === "string" ? { type: TYPES[extname(r)], body: await readFile(r) } : r;
      res.writeHead(200, { "Content-Type": type || "application/octet-stream" });
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
    const page = await browser.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    await page.goto(`http://127.0.0.1:${server.address().port}/?${new URLSearchParams(query)}`);
    await page.waitForFunction(() => window.__result, null, { timeout: timeoutMs });
    const result = await page.evaluate(() => window.__result);
    report?.(result);
    if (result.ok) {
      console.log(`${label}: ${result.passed.length} passed${result.note ? ` (${result.note})` : ""}`);
      code = 0;
    } else {
      console.error(result.error);
    }
  } finally {
    await browser.close();
    server.close();
  }
  return code;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, base, key, label = "browser consumer (esbuild bundle), checks"] = process.argv.slice(2);
  process.exit(await runInChromium((p) => join(dir, p === "/" ? "index.html" : p), { query: { base, key }, label }));
}
