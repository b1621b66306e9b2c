// What a page bundled by esbuild (--splitting, its --metafile) loads up front: its entry chunk
// and the chunks it imports statically; none of them may hold the SDK's glue or a .wasm, and
// some lazy chunk must hold the glue named (else the check proves nothing). Prints the up-front
// chunks' gzip -9 size. Stage 45-react: the cart badge page, the store page, the search field page.
// Usage: node upfront.mjs DIR META ENTRY LABEL GLUE_SUFFIX
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const [dir, metaFile, entryPoint, label, glue] = process.argv.slice(2);
const meta = JSON.parse(fs.readFileSync(path.join(dir, metaFile)));
const outs = Object.entries(meta.outputs);
const [entryOut] = outs.find(([, o]) => o.entryPoint === entryPoint);
const upfront = new Set([entryOut]);
for (const f of upfront) for (const i of meta.outputs[f].imports) if (i.kind === "import-statement" && !i.external) upfront.add(i.path);
const inputs = [...upfront].flatMap((f) => Object.keys(meta.outputs[f].inputs));
const bad = inputs.filter((f) => /cirrus_storefront(_bg\.wasm|\.js)$/.test(f));
if (bad.length) {
  console.error(`the ${label} loads ${bad.join(", ")} up front`);
  process.exit(1);
}
const lazy = outs.filter(([f]) => !upfront.has(f)).flatMap(([, o]) => Object.keys(o.inputs));
if (!lazy.some((f) => f.endsWith(glue))) {
  console.error(`no lazy chunk of the ${label} holds ${glue}: the check proves nothing`);
  process.exit(1);
}
const gz = [...upfront].filter((f) => f.endsWith(".js")).reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
console.log(`${label}: ${upfront.size} chunk(s) up front, ${gz} B gzip -9 of the SDK (React external), no glue, no .wasm; ${glue} in a lazy chunk`);
