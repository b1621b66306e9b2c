// The package's public type surface: no `any` reachable from the entry, and every type the
// wasm glue declares (generated from the Rust types) is exported by the entry.
// Usage: node tests/package/surface-check.mjs <built package dir>
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const read = (f) => readFileSync(join(dir, f), "utf8");
const fail = (msg) => { console.error(`surface check: ${msg}`); process.exit(1); };

// The glue minus InitOutput (raw wasm exports, not re-exported by the entry).
const minusInitOutput = (t) => t.replace(/export interface InitOutput \{[\s\S]*?\n\}/, "");
const glue = minusInitOutput(read("cirrus_storefront.d.ts"));
const publicFiles = { "cirrus_storefront.d.ts (minus InitOutput)": glue };
// The root entry's checkout module (pkg/checkout/, loaded on first use): its types are the entry's too.
const checkoutGlue = existsSync(join(dir, "checkout/cirrus_storefront.d.ts")) ? minusInitOutput(read("checkout/cirrus_storefront.d.ts")) : "";
if (checkoutGlue) publicFiles["checkout/cirrus_storefront.d.ts (minus InitOutput)"] = checkoutGlue;
else if (!dir.replace(/\/+$/, "").endsWith("/client")) fail("checkout/cirrus_storefront.d.ts is missing");
// client-entry.d.ts is the root's copy of the client entry (the client/ subpath compiles it
// as its index.d.ts). index/node/error are in every entry; guard only in the package root,
// not in the `client/` subpath. node/edge: the `node` and `workerd`/`edge-light` entries.
if (existsSync(join(dir, "client-entry.d.ts"))) publicFiles["client-entry.d.ts"] = read("client-entry.d.ts");
publicFiles["next-metadata.d.ts"] = read("next-metadata.d.ts");
for (const f of ["index.d.ts", "node.d.ts", "edge.d.ts", "host.d.ts", "error.d.ts", "init-sync.d.ts", "ready.d.ts", "load.d.ts"]) publicFiles[f] = read(f);
// (Cart and Checkout are wasm classes now: their declarations are in the glue, checked above.)
for (const f of ["guard.d.ts", "lazy-checkout.d.ts", "checkout-wasm.d.ts", "react.d.ts", "cart-summary.d.ts", "picker.d.ts", "store.d.ts", "lazy-sdk.d.ts"]) if (existsSync(join(dir, f))) publicFiles[f] = read(f);
else if (!dir.replace(/\/+$/, "").endsWith("/client")) fail(`${f} is missing`);
for (const [name, text] of Object.entries(publicFiles)) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  const hit = code.split("\n").find((l) => /\bany\b/.test(l));
  if (hit) fail(`${name} exposes \`any\`: ${hit.trim()}`);
}

const declared = [...(glue + checkoutGlue).matchAll(/^export (?:interface|type) ([A-Za-z_]+)/gm)].map((m) => m[1]);
// The entry's declarations, following its `export * from "./x.js"` re-exports.
const entryText = (f, seen = new Set()) => {
  if (seen.has(f)) return "";
  seen.add(f);
  const t = read(f);
  return t + [...t.matchAll(/^export \* from "\.\/([\w-]+)\.js";/gm)].map((m) => entryText(`${m[1]}.d.ts`, seen)).join("\n");
};
const entry = entryText("index.d.ts");
const missing = declared.filter((n) => !new RegExp(`\\b${n}\\b`).test(entry));
if (missing.length) fail(`types declared by the glue but not exported by index.d.ts: ${missing.join(", ")}`);
if (/\bInitOutput\b/.test(entry)) fail("index.d.ts exports InitOutput");
console.log(`surface check: ${declared.length} generated types exported, no \`any\` in the public declarations`);
