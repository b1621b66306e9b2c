#!/usr/bin/env bash
# The structure rules of docs/ARCHITECTURE.md ("Structure rules"), checked over src/ and server/src/:
#   - no import circle between modules: an edge A -> B when a file of module A names
#     `crate::B…` or `super::…` resolving to B (paths between a module and its own parent or
#     children do not count: a child reading its parent's items is how Rust modules nest);
#     every cycle of the remaining graph is listed;
#   - no `#![allow(…)]` (or `#![cfg_attr(…, allow(…))]`) at module level, and no `#[allow(…)]`
#     on a `mod` item: a lint is allowed where the code that needs it is, with its reason;
#   - no source file over 500 lines but tests (`tests.rs`, `tests/`, `*_tests.rs`), generated
#     files (`src/generated/`) and the files of ONE_JOB below, each with the one job it does.
# Run by stage 10-core. Usage: scripts/check-structure.sh (exit 1, listing each problem)
set -euo pipefail
cd "$(dirname "$0")/.."
node - <<'JS'
const fs = require("fs");
const path = require("path");
const problems = [];
const MAX_LINES = 500;
// Files over MAX_LINES that do one job, and which.
const ONE_JOB = {
  "src/jsoncheck/scan.rs": "the one-pass scanner: a body's syntax and its schema checked together, byte by byte",
};

// Every .rs file of a crate's src/, with its module path (`wasm::cart`, `cart`, `cart::lines`).
function files(root) {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".rs")) out.push(p);
    }
  };
  walk(root);
  return out.map((file) => {
    let rel = path.relative(root, file).replace(/\.rs$/, "").split(path.sep);
    if (rel[rel.length - 1] === "mod") rel.pop();
    if (rel.length === 1 && ["lib", "main"].includes(rel[0])) rel = [];
    return { file, mod: rel };
  });
}

const isTest = (f) => /(^|\/)tests?(\.rs|\/)|_tests\.rs$|\/generated\//.test(f);
const related = (a, b) => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true; // one is a prefix of the other: a parent and its child (or the same module)
};

for (const root of ["src", "server/src"]) {
  const all = files(root);
  const known = new Set(all.map((f) => f.mod.join("::")));
  // The longest known module that a path's segments start with.
  const resolve = (segs) => {
    for (let n = segs.length; n > 0; n--) if (known.has(segs.slice(0, n).join("::"))) return segs.slice(0, n);
    return null;
  };
  const edges = new Map(); // "a::b" -> Map("c", "file:line")
  for (const { file, mod } of all) {
    const text = fs.readFileSync(file, "utf8");
    const lines = text.split("\n");
    if (lines.length > MAX_LINES && !isTest(file) && !ONE_JOB[file]) problems.push(`${file}: ${lines.length} lines (over ${MAX_LINES}): split it by concern`);
    lines.forEach((line, i) => {
      if (/^\s*#!\[(allow|cfg_attr\(.*\ballow)\(/.test(line)) problems.push(`${file}:${i + 1}: module-level allow: ${line.trim()}`);
      if (/^\s*#\[(allow|cfg_attr\(.*\ballow)\(/.test(line) && /^\s*(pub(\([^)]*\))?\s+)?mod\s/.test(lines[i + 1] || "")) {
        problems.push(`${file}:${i + 1}: allow on a module: ${line.trim()} ${lines[i + 1].trim()}`);
      }
    });
    if (isTest(file)) continue;
    // Paths named in the file outside comments (and before its `#[cfg(test)] mod tests`).
    const code = text.split(/#\[cfg\(test\)\]\s*mod\s+tests\b/)[0].replace(/\/\/[^\n]*/g, "");
    const add = (segs, at) => {
      const target = resolve(segs);
      if (!target || related(mod, target)) return;
      const from = mod.join("::") || "(crate)", to = target.join("::");
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, at);
    };
    const lineOf = (idx) => code.slice(0, idx).split("\n").length;
    // `crate::a::b`, `crate::a::{b, c}`, `super::x`, `super::super::x` (use lines and inline paths).
    for (const m of code.matchAll(/\b(crate|(?:super::)+)(::)?([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)(?:::\{([^}]*)\})?/g)) {
      let base;
      if (m[1] === "crate") base = [];
      else {
        const ups = m[1].split("super::").length - 1;
        // In a `mod.rs`/non-mod file, `super` is the parent of this module.
        base = mod.slice(0, Math.max(0, mod.length - ups));
      }
      const segs = base.concat(m[3].split("::"));
      const at = `${file}:${lineOf(m.index)}`;
      if (m[4]) for (const item of m[4].split(",")) {
        const s = item.trim().split(/\s+as\s+/)[0].split("::").filter((x) => x && x !== "self");
        add(s.length ? segs.concat(s) : segs, at);
      }
      add(segs, at);
    }
  }
  // Cycles: strongly connected components with more than one module.
  let index = 0; const idx = new Map(), low = new Map(), stack = [], on = new Set(), sccs = [];
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])];
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of (edges.get(v) || new Map()).keys()) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = []; let w;
      do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1) sccs.push(c);
    }
  };
  for (const v of nodes) if (!idx.has(v)) strong(v);
  for (const c of sccs) {
    const inC = new Set(c);
    const shown = c.flatMap((a) => [...(edges.get(a) || new Map())].filter(([b]) => inC.has(b)).map(([b, at]) => `${a} -> ${b} (${at})`));
    problems.push(`${root}: import circle between ${c.sort().join(", ")}:\n    ${shown.join("\n    ")}`);
  }
}
if (problems.length) {
  console.error(`structure:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log("structure: no import circle, no module-level allow, no source file over 500 lines");
JS
