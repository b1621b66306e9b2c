// Groups `twiggy top -n 100000 --format csv` of a names-kept wasm by crate and, for this crate,
// by module: the "what the wasm is made of" tables of BENCHMARKS.md (scripts/bench-twiggy.sh).
// Each function or data segment is counted once, under the first crate path in its name
// (`<serde_wasm_bindgen::de::Deserializer as serde::de::Deserializer>::…` is serde_wasm_bindgen);
// the name sections (added only to read names) are left out of the total.
// Usage: node tests/size/twiggy-groups.mjs TOP.csv  -> a Markdown table on stdout
import { readFileSync } from "node:fs";

const rows = readFileSync(process.argv[2], "utf8").trim().split("\n").slice(1);
const parse = (line) => {
  // CSV: the name may be quoted (with "" inside); the size is the second field.
  const m = line.match(/^("(?:[^"]|"")*"|[^,]*),(\d+),/);
  if (!m) throw new Error(`unreadable twiggy row: ${line}`);
  const name = m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1];
  return { name, bytes: Number(m[2]) };
};

function group(name) {
  if (/subsection$/.test(name)) return null; // names sections: only there to read names
  if (name.startsWith("data segment")) return "data (strings, tables, serde field names)";
  if (/flt2dec|::dragon::|::grisu::|bignum|float_to_decimal|float_to_exponential|<f64 as core::fmt|<f32 as core::fmt/.test(name))
    return "core::fmt float printing (flt2dec, dragon/grisu, bignum)";
  const m = name.replace(/^[<&*\s]+|^(mut |dyn )+/g, "").match(/^([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::([a-z_][a-z0-9_]*)?(?:::([a-z_][a-z0-9_]*))?/);
  if (!m) return "unnamed (wasm-bindgen shims, exports, elem)";
  const [, krate, mod1, mod2] = m;
  if (krate === "cirrus_storefront") {
    if (mod1 === "wasm") return `ours: wasm::${mod2 ?? "?"}`;
    return `ours: ${mod1 ?? "?"}`;
  }
  if (krate === "core" && mod1 === "fmt") return "core::fmt (other)";
  if (krate === "core" && mod1 === "net") return "core::net (IP address parsing)";
  if (krate === "serde_core" || krate === "serde") return "serde";
  return krate;
}

const sums = new Map();
let total = 0;
for (const r of rows.map(parse)) {
  const g = group(r.name);
  if (g === null) continue;
  sums.set(g, (sums.get(g) ?? 0) + r.bytes);
  total += r.bytes;
}
const sorted = [...sums].sort((a, b) => b[1] - a[1]);
console.log("| part | bytes | share |\n|---|---|---|");
for (const [g, b] of sorted) console.log(`| ${g} | ${b.toLocaleString("en-US")} | ${((100 * b) / total).toFixed(1)}% |`);
console.log(`| total | ${total.toLocaleString("en-US")} | |`);
