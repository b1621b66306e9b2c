// Runs the client matrix (tests/sdk/matrix.mjs) in headless Chromium against the built
// package's browser entry, served as plain ES modules (the package at /pkg/, the cases at
// /matrix.mjs): the page runs every case in order, each case's result is printed here, and
// any failure fails the run.
// Usage: node tests/sdk/matrix-browser.mjs PKG_DIR BASE_URL API_KEY   (exit code 1 on failure)
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runInChromium } from "../package/browser-run.mjs";

const [pkg, base, key] = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import * as lib from "/pkg/index.js";
import { runAll } from "/matrix.mjs";
const q = new URLSearchParams(location.search);
runAll(lib, { baseUrl: q.get("base"), apiKey: q.get("key") }).then(
  (results) => {
    const failed = results.filter((r) => !r.ok);
    window.__result = failed.length === 0
      ? { ok: true, passed: results.map((r) => r.name), results }
      : { ok: false, error: failed.length + " of " + results.length + " cases failed", results };
  },
  (e) => { window.__result = { ok: false, error: String(e && e.stack || e) }; });
</script>`;
const report = ({ results = [] }) => {
  for (const r of results) {
    console.log(`${r.ok ? "ok    " : "FAILED"} ${r.name} (${r.ms} ms)`);
    if (!r.ok) console.log(`       ${r.error.replace(/\n/g, "\n       ")}`);
  }
};
process.exit(await runInChromium(
  (p) => (p === "/" ? { type: "text/html", body: page } : p === "/matrix.mjs" ? join(here, "matrix.mjs")
    : p.startsWith("/pkg/") ? join(pkg, p.slice(5)) : null),
  { query: { base, key }, label: "client matrix (Chromium), cases", timeoutMs: 240_000, report },
));
