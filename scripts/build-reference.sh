#!/usr/bin/env bash
# The API reference: every export of every entry of the package (each `exports` subpath of its
# package.json that has `types`: cirrus-storefront, /client, /search, /react, /store, /cart-summary, /picker, the adapters), with its
# signature and its doc comment (summary, @throws, @example), written as Markdown by TypeDoc
# with typedoc-plugin-markdown (both pinned in package.json) from the package's own .d.ts: the
# Rust doc comments reach them through wasm-bindgen, the JS entries' through tsc. Nothing is
# written by hand here; a doc comment belongs next to the code it describes
# (docs/ARCHITECTURE.md "Public API reference").
#
# Fails, listing them, when an export (or a public member of an exported class, inherited ones
# aside) has no doc comment (issue 33: every export has one).
# Stage 40-pkg runs it on the package it packed. The Markdown is a build output (target/, not
# committed: it is rewritten by every doc-comment change and is built from what is committed).
#
# Usage: scripts/build-reference.sh [PKG_DIR [OUT_DIR]]
#   PKG_DIR  a built package (default: scripts/build-pkg.sh builds one into target/reference/pkg)
#   OUT_DIR  where the Markdown goes (default target/reference/md; its README.md is the index)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_node_modules
PKG="${1:-}"
OUT="${2:-$ROOT/target/reference/md}"
if [ -z "$PKG" ]; then
  PKG="$ROOT/target/reference/pkg"
  log "building the package into ${PKG#"$ROOT"/} (scripts/build-pkg.sh)"
  ensure_wasm_toolchain
  CIRRUS_PKG_OUT="$PKG" bash scripts/build-pkg.sh >"$ROOT/target/reference-build.log" 2>&1 \
    || { tail -20 "$ROOT/target/reference-build.log"; die "scripts/build-pkg.sh failed"; }
fi
PKG="$(cd "$PKG" && pwd)"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
log "API reference of $PKG -> ${OUT#"$ROOT"/}"
node --input-type=module - "$PKG" "$OUT" <<'JS'
import fs from "node:fs";
import path from "node:path";
import { Application, ReflectionKind } from "typedoc";

const [pkg, out] = process.argv.slice(2);
const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
// Every entry a consumer can import that has types, named as it is imported.
const entries = Object.entries(manifest.exports)
  .filter(([, target]) => typeof target === "object" && target.types)
  .map(([sub, target]) => ({
    name: sub === "." ? manifest.name : `${manifest.name}/${sub.slice(2)}`,
    file: path.join(pkg, target.types),
  }));
const tsconfig = path.join(path.dirname(out), "reference-tsconfig.json");
fs.writeFileSync(tsconfig, JSON.stringify({
  compilerOptions: {
    strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler", noEmit: true,
    skipLibCheck: true, lib: ["es2022", "dom", "esnext.disposable"], jsx: "react-jsx",
  },
  files: entries.map((e) => e.file),
}, null, 1));

const app = await Application.bootstrapWithPlugins({
  entryPoints: entries.map((e) => e.file),
  entryPointStrategy: "resolve",
  tsconfig,
  plugin: ["typedoc-plugin-markdown"],
  out,
  readme: "none",
  name: `${manifest.name} ${manifest.version} API reference`,
  excludePrivate: true,
  excludeInternal: true,
  skipErrorChecking: true,
  disableSources: true,
  validation: { notExported: false, invalidLink: false, notDocumented: false },
  logLevel: "Error",
  // typedoc-plugin-markdown: one page per entry, members listed on it.
  outputFileStrategy: "modules",
  entryFileName: "README.md",
  hidePageHeader: true,
  hideBreadcrumbs: true,
  useCodeBlocks: true,
  parametersFormat: "table",
});
const project = await app.convert();
if (!project) throw new Error("TypeDoc could not read the package's declarations");

// Name each entry's module as it is imported (TypeDoc names them by file path).
const modules = project.children ?? [project];
for (const m of modules) {
  const e = entries.find((e) => m.sources?.some((s) => s.fullFileName === e.file)) ??
    entries.find((e) => path.relative(pkg, e.file).replace(/(\/index)?\.d\.ts$/, "") === m.name.replace(/\/index$/, ""));
  if (e) m.name = e.name;
}

// The check: every export, and every public member of an exported class, has a doc comment.
// (wasm-bindgen's own `free()` and `[Symbol.dispose]()` of every class it makes are described
// once, in the index below.)
const said = (c) => Boolean(c && (c.summary.some((p) => p.text.trim()) || c.blockTags.some((t) => t.content.some((p) => p.text.trim()))));
const commentOf = (r) =>
  r.comment ?? r.signatures?.find((s) => s.comment)?.comment ?? r.getSignature?.comment ?? r.setSignature?.comment ??
  r.type?.declaration?.signatures?.find((s) => s.comment)?.comment;
const WASM_BINDGEN_OWN = new Set(["free", "[dispose]", "__@dispose@", "[Symbol.dispose]"]);
const undocumented = [];
let exportsSeen = 0;
for (const m of modules) {
  for (let r of m.children ?? []) {
    exportsSeen++;
    const target = r.kind === ReflectionKind.Reference ? r.getTargetReflectionDeep() : r;
    if (!said(commentOf(target)) && !said(commentOf(r))) {
      undocumented.push(`${m.name}: ${r.name} (${ReflectionKind.singularString(target.kind)})`);
    }
    if (target.kind !== ReflectionKind.Class) continue;
    for (const member of target.children ?? []) {
      if (member.flags.isPrivate || member.flags.isProtected || member.inheritedFrom || member.name.startsWith("__")) continue;
      if (WASM_BINDGEN_OWN.has(member.name) || member.name.includes("dispose")) continue;
      if (member.kind === ReflectionKind.Constructor && said(commentOf(target))) continue;
      if (!said(commentOf(member))) {
        undocumented.push(`${m.name}: ${r.name}.${member.name} (${ReflectionKind.singularString(member.kind)})`);
      }
    }
  }
}
const unique = [...new Set(undocumented)].sort();
if (unique.length) {
  console.error(`${unique.length} export(s) without a doc comment (write one next to the code: docs/ARCHITECTURE.md "Public API reference"):\n  ${unique.join("\n  ")}`);
  process.exit(1);
}

fs.rmSync(out, { recursive: true, force: true });
await app.generateOutputs(project);
const index = path.join(out, "README.md");
fs.writeFileSync(index, `${fs.readFileSync(index, "utf8").trimEnd()}

Every class made by wasm-bindgen (\`CirrusClient\`, \`Cart\`, \`Checkout\`'s instances, …) also has
\`free()\`, which releases its wasm memory (the object refuses calls after it), and
\`[Symbol.dispose]()\`, which calls it (\`using\`).

Generated by \`scripts/build-reference.sh\` from the package's own declarations; not edited by hand.
`);
const files = fs.readdirSync(out, { recursive: true }).filter((f) => f.endsWith(".md"));
const bytes = files.reduce((n, f) => n + fs.statSync(path.join(out, f)).size, 0);
console.log(`reference: ${exportsSeen} exports of ${entries.length} entries, every one documented; ${files.length} Markdown files, ${bytes} bytes in ${out}`);
JS
