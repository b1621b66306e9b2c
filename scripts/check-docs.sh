#!/usr/bin/env bash
# Every file a doc names exists: the repository paths in backticks or links of the docs that
# describe the house as it is (README.md, docs/ARCHITECTURE.md, BENCHMARKS.md,
# server/README.md, pkg-template/README.md). A path is a token starting with one of the
# repository's top-level directories (src/, js/, tests/, scripts/, server/, docs/, www/,
# pkg-template/, vendor/); `{a,b}` is expanded, `*` globbed, `:line` and `#anchor` dropped.
# docs/history.md is exempt: it records earlier states; paths outside the repository
# (../shared/design/) are not checked (CI's copy of shared/ is not everywhere). Run by stage 10-core.
# Usage: scripts/check-docs.sh   (exit 1, listing each missing path and the doc naming it)
set -euo pipefail
cd "$(dirname "$0")/.."
node - README.md docs/ARCHITECTURE.md BENCHMARKS.md server/README.md pkg-template/README.md <<'JS'
const fs = require("fs");
const path = require("path");
const TOP = /^(?:\.\.\/)*(src|js|tests|scripts|server|docs|www|pkg-template|vendor)\//;
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
if (missing.length) {
  console.error(`docs name files that do not exist:\n  ${[...new Set(missing)].join("\n  ")}`);
  process.exit(1);
}
console.log("docs: every named file exists");
JS
