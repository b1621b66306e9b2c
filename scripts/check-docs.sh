#!/usr/bin/env bash
# Every file a doc names exists: the repository paths in backticks or links of the docs that
# describe the house as it is (README.md, docs/ARCHITECTURE.md, BENCHMARKS.md,
# server/README.md, pkg-template/README.md). A path is a token starting with one of the
# repository's top-level directories (src/, js/, tests/, scripts/, server/, docs/, www/,
# pkg-template/, vendor/, templates/); `{a,b}` is expanded, `*` globbed, `:line` and `#anchor` dropped.
# docs/history.md is exempt: it records earlier states; paths outside the repository
# (../shared/design/) are not checked (CI's copy of shared/ is not everywhere). Run by stage 10-core.
# It also checks what the docs state of the build against the files that decide it:
#   - every `wasm-opt -O<level>` a doc names is the level scripts/build-pkg.sh passes;
#   - every test stage a doc names in backticks (`10-core`) is a scripts/test.d/ file;
#   - every Cargo feature a doc names (`--features a,b`, `feature = "a"`) is in Cargo.toml;
# and what the README states that code or a bench script decides:
#   - the cache bound ("keeps at most N answers") is MAX_CACHED of src/wasm/client_cache.rs, and
#     the eviction rule after it is, word for word, the rule the doc comment of its `bound()`
#     states next to the code;
#   - every page weight of the README's and BENCHMARKS.md's tables is the figure of
#     docs/page-weights.svg, which scripts/bench-size.sh writes from the same run;
# and what the docs and the code's comments name of the API and of counted lists:
#   - every `METHOD /path` and `/api/v1/…` path named (docs above; src/, server/src/, js/,
#     www/src/, templates/next/, scripts/) is a route of server/src/router.rs with that method;
#   - every count of a thing whose list is in the repository ("31 named cases": the client
#     matrix's CASES; "(249 codes)": src/country.rs COUNTRIES; "a page of 500 products":
#     src/endpoint.rs MAX_LIMIT) is that list's length.
# (A figure only a build gives, such as a wasm's size, is not checked here: BENCHMARKS.md names
# the commit it was measured on.)
# Usage: scripts/check-docs.sh   (exit 1, listing each problem and the doc naming it)
set -euo pipefail
cd "$(dirname "$0")/.."
node - README.md docs/ARCHITECTURE.md BENCHMARKS.md server/README.md pkg-template/README.md <<'JS'
const fs = require("fs");
const path = require("path");
const TOP = /^(?:\.\.\/)*(src|js|tests|scripts|server|docs|www|pkg-template|vendor|templates)\//;
const expand = (p) => {
  const m = p.match(/^(.*?)\{([^{}]*)\}(.*)$/);
  return m ? m[2].split(",").flatMap((x) => expand(m[1] + x + m[3])) : [p];
};
const exists = (p) => {
  if (!p.includes("*")) return fs.existsSync(p);
  const dir = path.dirname(p), re = new RegExp(`^${path.basename(p).replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
  return fs.existsSync(dir) && fs.readdirSync(dir).some((f) => re.test(f));
};
const missing = [];
for (const doc of process.argv.slice(2)) {
  const text = fs.readFileSync(doc, "utf8");
  const tokens = [...text.matchAll(/`([^`\s]+)`|\]\(([^)\s]+)\)/g)].map((m) => m[1] || m[2]);
  for (const t of tokens) {
    const base = path.dirname(doc);
    for (let p of expand(t.replace(/[#:].*$/, "").replace(/[.,;)]+$/, ""))) {
      // A link is relative to its doc; a backticked path to the repository root (or, in
      // server/README.md, to server/ when it starts with neither).
      // Paths outside the repository (../shared/design/…) are not the repository's to check.
      const candidates = [p, path.join(base, p)];
      if (p.startsWith("../") && !exists(path.join(base, p))) continue; // outside the repository
      if (!TOP.test(p) && !(t.startsWith("../") || t.startsWith("./"))) continue;
      if (!candidates.some(exists)) missing.push(`${doc}: ${t}`);
    }
  }
}
// What the docs say of the build, against the files that decide it.
const wrong = [];
const build = fs.readFileSync("scripts/build-pkg.sh", "utf8");
const levels = new Set([...build.matchAll(/^\s*-(O[0-4sz])\b/gm)].map((m) => m[1]));
if (levels.size !== 1) wrong.push(`scripts/build-pkg.sh: expected one wasm-opt -O level, found ${[...levels].join(", ") || "none"}`);
const stages = new Set(fs.readdirSync("scripts/test.d").map((f) => f.replace(/\.sh$/, "")));
const cargo = fs.readFileSync("Cargo.toml", "utf8");
const featureBlock = (cargo.match(/^\[features\]\n([\s\S]*?)(?=^\[)/m) || [, ""])[1];
const features = new Set([...featureBlock.matchAll(/^([a-z][a-z0-9_-]*)\s*=/gm)].map((m) => m[1]));
for (const doc of process.argv.slice(2)) {
  const text = fs.readFileSync(doc, "utf8");
  for (const m of text.matchAll(/wasm-opt`?\s+`?-(O[0-4sz])\b/g)) {
    if (!levels.has(m[1])) wrong.push(`${doc}: says wasm-opt -${m[1]}, scripts/build-pkg.sh passes -${[...levels].join("/")}`);
  }
  for (const m of text.matchAll(/`(\d\d-[a-z]+)`/g)) {
    if (!stages.has(m[1])) wrong.push(`${doc}: names test stage \`${m[1]}\`, not in scripts/test.d/`);
  }
  const named = [...text.matchAll(/--features[ =]+([a-z][a-z0-9_,-]*)/g)].flatMap((m) => m[1].split(","))
    .concat([...text.matchAll(/feature = "([a-z][a-z0-9_-]*)"/g)].map((m) => m[1]));
  for (const f of named) if (!features.has(f)) wrong.push(`${doc}: names Cargo feature \`${f}\`, not in Cargo.toml [features]`);
}
// What the README says of the client's cache, against the code that decides it.
const squash = (t) => t.replace(/\s+/g, " ").trim();
const readme = squash(fs.readFileSync("README.md", "utf8"));
const cacheCode = fs.readFileSync("src/wasm/client_cache.rs", "utf8");
const maxCached = (cacheCode.match(/const MAX_CACHED: usize = (\d+);/) || [])[1];
const bound = cacheCode.match(/((?:^\/\/\/.*\n)+)fn bound\(/m);
const rule = bound && squash(bound[1].replace(/^\/\/\/ ?/gm, "")).match(/answers: (.*?)\. \(/);
const said = readme.match(/keeps at most (\d+) answers \(past that, (.*?);/);
if (!maxCached || !rule) wrong.push("src/wasm/client_cache.rs: no MAX_CACHED, or no eviction rule in the doc comment of bound()");
else if (!said) wrong.push("README.md: no \"keeps at most N answers (past that, <rule>;\" sentence for the client's cache");
else {
  if (said[1] !== maxCached) wrong.push(`README.md: says the cache keeps ${said[1]} answers, MAX_CACHED is ${maxCached}`);
  if (said[2] !== rule[1]) wrong.push(`README.md: says the cache evicts "${said[2]}", bound() in src/wasm/client_cache.rs: "${rule[1]}"`);
}
// Page weights: the chart scripts/bench-size.sh wrote holds the run's figures.
const svg = fs.readFileSync("docs/page-weights.svg", "utf8");
const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
const chart = new Map();
for (let i = 0; i + 1 < texts.length; i++) {
  const kb = texts[i + 1].match(/^(\d+\.\d) KB$/);
  if (kb) chart.set(texts[i].replace(/^cirrus-storefront: (\w+) page$/, "$1"), kb[1]);
}
if (chart.size < 3) wrong.push("docs/page-weights.svg: fewer than three page weights found");
for (const doc of ["README.md", "BENCHMARKS.md"]) {
  const text = fs.readFileSync(doc, "utf8");
  const rows = text.split("\n").filter((l) => l.startsWith("| "));
  for (const [name, kb] of chart) {
    const row = rows.find((l) => { const c = l.split("|")[1].trim(); return c === name || c === `peer: ${name}` || c === `peer ${name}`; });
    if (!row) { wrong.push(`${doc}: no page-weight row for ${name} (docs/page-weights.svg has ${kb} KB)`); continue; }
    if (!new RegExp(`\\| \\*{0,2}${kb.replace(".", "\\.")} KB\\*{0,2} \\|`).test(row)) wrong.push(`${doc}: the ${name} row does not say ${kb} KB, the figure of docs/page-weights.svg (scripts/bench-size.sh)`);
  }
}
// API paths: every `METHOD /path` (and every `/api/v1/…` path) named in the docs and in the
// comments and code of src/, server/src/, js/, www/src/, templates/next/ and scripts/ is a route
// of server/src/router.rs with that method; `{x}` in a doc is any one segment the route also
// leaves open. Not read: tests/ (tests name missing routes on purpose) and the processor's own
// API (`/v1/…`).
const { execFileSync } = require("child_process");
const routerText = fs.readFileSync("server/src/router.rs", "utf8");
const apiEnd = routerText.indexOf("let mut app");
const routes = [...routerText.matchAll(/\.route\("([^"]+)",\s*([^\n]*)/g)].map((m) => ({
  path: (m.index < apiEnd ? "/api/v1" : "") + m[1],
  methods: new Set([...m[2].matchAll(/\b(get|post|put|patch|delete)\(/g)].map((x) => x[1].toUpperCase())),
}));
if (routes.length < 10 || !routes.some((r) => r.path === "/api/v1/products")) wrong.push(`server/src/router.rs: found ${routes.length} routes, not the API's (the check reads \`.route("…", get(…))\`)`);
const segs = (p) => p.split("/").slice(1);
const routeMatches = (route, doc) => {
  const r = segs(route), d = segs(doc);
  for (let i = 0; i < r.length; i++) {
    if (r[i].startsWith("{*")) return d.length > i;
    if (i >= d.length) return false;
    const open = r[i].startsWith("{");
    if (d[i].includes("{") ? !open : !open && d[i] !== r[i]) return false;
  }
  return r.length === d.length;
};
const known = (method, p) => {
  const full = p.startsWith("/api/v1/") ? [p] : [p, `/api/v1${p}`];
  return routes.some((r) => (method === null || r.methods.has(method)) && full.some((f) => routeMatches(r.path, f)));
};
const sources = execFileSync("git", ["ls-files", "--", "src", "server/src", "js", "www/src", "templates/next", "scripts"], { encoding: "utf8" })
  .split("\n").filter((f) => /\.(rs|ts|tsx|js|mjs|sh|md)$/.test(f) && fs.existsSync(f));
const badPaths = [];
for (const file of [...process.argv.slice(2), ...sources]) {
  const text = fs.readFileSync(file, "utf8");
  const named = [...text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s+`?(\/(?!\/)[A-Za-z0-9_{}*.\/?=&%-]*)/g)].map((m) => [m[1], m[2]])
    .concat([...text.matchAll(/(?<![\w.:\/-])(\/api\/v1\/[A-Za-z0-9_{}*.\/-]*)/g)].map((m) => [null, m[1]]));
  for (const [method, raw] of named) {
    const p = raw.replace(/\?.*$/, "").replace(/[.,;:]+$/, "").replace(/\/$/, "") || "/";
    if (p.startsWith("/v1/") || p === "/api/v1") continue;
    if (!known(method, p)) badPaths.push(`${file}: names ${method ? method + " " : ""}${p}, not a route of server/src/router.rs`);
  }
}
wrong.push(...badPaths);
// Counts of named things whose list is in the repository: each "N <things>" a doc or a stage
// states is the length of the list that defines them.
const matrixText = fs.readFileSync("tests/sdk/matrix.mjs", "utf8");
const casesBlock = (matrixText.match(/^export const CASES = \[\n([\s\S]*?)^\];/m) || [, ""])[1];
const countryText = fs.readFileSync("src/country.rs", "utf8");
const countryBlock = (countryText.match(/pub const COUNTRIES: &\[\[u8; 2\]\] = &\[\n([\s\S]*?)^\];/m) || [, ""])[1];
const endpointText = fs.readFileSync("src/endpoint.rs", "utf8");
const COUNTS = [
  { what: "cases of the client matrix (tests/sdk/matrix.mjs CASES)", said: /\b(\d+) named cases\b/g, n: [...casesBlock.matchAll(/^  \["/gm)].length },
  { what: "ISO 3166-1 alpha-2 codes (src/country.rs)", said: /\((\d+) codes\)|\bThe (\d+) officially assigned\b/g, n: new Set([...countryBlock.matchAll(/\*b"([A-Z]{2})"/g)].map((m) => m[1])).size },
  { what: "products at most in a page (src/endpoint.rs MAX_LIMIT)", said: /\ba page of (\d+) (?:full )?products\b/g, n: Number((endpointText.match(/pub const MAX_LIMIT: u32 = (\d+);/) || [])[1]) },
];
for (const c of COUNTS) if (!(c.n > 0)) wrong.push(`check-docs: could not count the ${c.what}`);
const countFiles = [...process.argv.slice(2), ...sources, "tests/sdk/matrix.mjs"];
for (const file of countFiles) {
  const text = fs.readFileSync(file, "utf8");
  for (const c of COUNTS) for (const m of text.matchAll(c.said)) {
    if (Number(m[1] ?? m[2]) !== c.n) wrong.push(`${file}: says ${m[0]}, there are ${c.n} ${c.what}`);
  }
}
if (missing.length) {
  console.error(`docs name files that do not exist:\n  ${[...new Set(missing)].join("\n  ")}`);
}
if (wrong.length) {
  console.error(`docs say what the build does not do:\n  ${[...new Set(wrong)].join("\n  ")}`);
}
if (missing.length || wrong.length) process.exit(1);
console.log(`docs: every named file exists; wasm-opt level, stages and features match the build; the cache bound and eviction rule match the code; ${chart.size} page weights match docs/page-weights.svg; every API path named is one of the ${routes.length} routes; ${COUNTS.map((c) => `${c.n} ${c.what.replace(/ \(.*/, "")}`).join(", ")} as stated`);
JS
