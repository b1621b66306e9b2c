// Issue 42's search benchmark, side by side in one run: `cirrus-storefront/search` (the package's
// search entry, its node.js: the wasm embedded) and the JS engines of ../shared/search-bench/peers.mjs
// (Orama, MiniSearch, FlexSearch, run as child processes on the same catalog and queries), at each
// catalog size. Per engine: bundle gz (the entry bundled and minified by esbuild, + its .wasm),
// index gz (gzip -9 of the serialized index), build time, p50/p95 query time (ours and Orama's
// WITH facet counts), success@10 per query kind, precision@10; swapped letters found is the
// `swap` kind's success@10. Prints the JSON lines, then a markdown table (BENCHMARKS.md "Search").
//   node scripts/bench-search.mjs [N...]              default 10000 100000
//   CIRRUS_SEARCH_PKG=pkg   the package directory (default pkg/, scripts/build-pkg.sh)
//   SEARCH_BENCH=../shared/search-bench   the catalog and peers (default: the repo's sibling)
//   SEARCH_PEERS_AT_100K="minisearch flexsearch"   peers run above 10,000 products (Orama's
//   100k build does not finish in minutes on the bench machine)
//   SEARCH_PEERS_AT_10K="orama minisearch flexsearch"   peers run at 10,000 and below ("" none)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bench = resolve(process.env.SEARCH_BENCH ?? join(root, "..", "shared", "search-bench"));
const pkg = resolve(process.env.CIRRUS_SEARCH_PKG ?? join(root, "pkg"));
const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [10000, 100000];
const bigPeers = (process.env.SEARCH_PEERS_AT_100K ?? "minisearch flexsearch").split(/\s+/).filter(Boolean);
const smallPeers = (process.env.SEARCH_PEERS_AT_10K ?? "orama minisearch flexsearch").split(/\s+/).filter(Boolean);
const { makeCatalog, makeQueries } = await import(pathToFileURL(join(bench, "catalog.mjs")).href);
const gz = (b) => gzipSync(b, { level: 9 }).length;
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

/** esbuild's minified bundle of `entry`, gzip -9. */
function bundleGz(entry) {
  const out = execFileSync(join(root, "node_modules/.bin/esbuild"), [entry, "--bundle", "--minify", "--format=esm", "--platform=browser", "--log-level=error", "--external:*.wasm"], { maxBuffer: 1 << 26 });
  return gz(out);
}

/** The search entry: the package's, or (CIRRUS_SEARCH_GLUE=DIR, while developing) a wasm-pack
 *  output directory's glue and .wasm, without the package's JS. */
async function entry() {
  const glue = process.env.CIRRUS_SEARCH_GLUE;
  if (!glue) {
    const m = await import(pathToFileURL(join(pkg, "search/node.js")).href);
    await m.init();
    return m;
  }
  const m = await import(pathToFileURL(join(glue, "cirrus_storefront.js")).href);
  await m.default({ module_or_path: readFileSync(join(glue, "cirrus_storefront_bg.wasm")) });
  return m;
}

async function ours(n) {
  const { SearchIndex } = await entry();
  const products = makeCatalog(n), byId = new Map(products.map((p) => [p.id, p])), queries = makeQueries(products);
  const t0 = performance.now();
  const index = SearchIndex.build(products);
  const build_ms = Math.round(performance.now() - t0);
  const bytes = index.toBytes();
  const t1 = performance.now();
  const loaded = SearchIndex.fromBytes(bytes);
  const load_ms = Math.round(performance.now() - t1);
  index.free();
  const opts = (q) => ({ perPage: 10, filters: q.filters ? { options: Object.fromEntries(Object.entries(q.filters).map(([k, v]) => [k, [v]])) } : undefined });
  for (const q of queries.slice(0, 20)) loaded.search(q.q, opts(q));
  const lat = [], hits = {}, seen = {};
  let rel = 0, shown = 0, facetsOk = 0;
  for (const q of queries) {
    const t = performance.now();
    const r = loaded.search(q.q, opts(q));
    lat.push(performance.now() - t);
    if (r.facets && r.facets.options.length) facetsOk++;
    const ids = r.hits.map((h) => h.id);
    const good = ids.filter((id) => q.relevant(byId.get(id))).length;
    seen[q.kind] = (seen[q.kind] ?? 0) + 1;
    hits[q.kind] = (hits[q.kind] ?? 0) + (good > 0 ? 1 : 0);
    rel += good; shown += Math.min(10, products.filter(q.relevant).length);
  }
  const success_at_10 = Object.fromEntries(Object.keys(seen).map((k) => [k, `${hits[k]}/${seen[k]}`]));
  return { engine: "cirrus-storefront/search", n, build_ms, load_ms, index_gz_bytes: gz(bytes), index_bytes: bytes.length, p50_ms: +pct(lat, 0.5).toFixed(2), p95_ms: +pct(lat, 0.95).toFixed(2), success_at_10, precision_at_10: +(rel / shown).toFixed(3), with_facets: `${facetsOk}/${queries.length}` };
}

function peers(n, engines) {
  if (!engines.length) return [];
  const out = execFileSync("node", [join(bench, "peers.mjs"), String(n), ...engines], { maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "inherit"] }).toString();
  return out.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

// Bundles: ours = the search entry's JS (browser build) + its .wasm; the peers' ESM entries.
const peerDir = resolve(process.env.SEARCH_PEERS ?? join(tmpdir(), "cirrus-search-peers"));
const rows = [];
for (const n of sizes) {
  rows.push(await ours(n));
  for (const r of peers(n, n > 10000 ? bigPeers : smallPeers)) rows.push(r);
}
const bundles = {};
if (!process.env.CIRRUS_SEARCH_GLUE) bundles["cirrus-storefront/search"] = { js: bundleGz(join(pkg, "search/index.js")), wasm: gz(readFileSync(join(pkg, "search/cirrus_storefront_bg.wasm"))) };
const peerEntry = { orama: "@orama/orama/dist/esm/index.js", minisearch: "minisearch/dist/es/index.js", flexsearch: "flexsearch/dist/flexsearch.bundle.module.min.mjs" };
for (const [e, p] of Object.entries(peerEntry)) if (existsSync(join(peerDir, "node_modules", p))) bundles[e] = { js: bundleGz(join(peerDir, "node_modules", p)), wasm: 0 };
for (const r of rows) console.log(JSON.stringify(r));
console.log(JSON.stringify({ bundles }));

const kb = (b) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(2)} MB` : `${(b / 1024).toFixed(1)} KB`);
console.log("\n| engine | bundle (gz) | n | index (gz) | build | p50 / p95 (ms) | exact | prefix | sub | swap | two-typos | facet | precision@10 |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const b = bundles[r.engine];
  const bundle = b ? (b.wasm ? `${kb(b.js)} JS + ${kb(b.wasm)} wasm` : kb(b.js)) : "—";
  const s = r.success_at_10;
  console.log(`| ${r.engine} | ${bundle} | ${r.n} | ${kb(r.index_gz_bytes)} | ${r.build_ms} ms | ${r.p50_ms} / ${r.p95_ms} | ${s.exact} | ${s.prefix} | ${s.sub} | ${s.swap} | ${s["two-typos"]} | ${s.facet} | ${r.precision_at_10} |`);
}
