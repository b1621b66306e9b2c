// Shrinks the wasm-bindgen glue (`--target web`, wasm-bindgen 0.2.130 with
// WASM_BINDGEN_MULTI_VALUE=1) that scripts/build-pkg.sh ships: every rewrite below is
// a textual, behaviour-preserving change of a pattern wasm-bindgen emits. A pattern
// that no longer occurs (another wasm-bindgen) is skipped with a warning, so the
// glue stays correct, only larger. With MAP and WASM (the JSON mapping printed by
// `wasm-opt --minify-imports-and-exports-and-modules`, and the .wasm it wrote) the glue
// is also moved to the minified import and export names, and checked against the .wasm:
// the build fails if the glue would miss an import or use an export that is not there.
// Usage: node scripts/slim-glue.mjs IN OUT [MAP WASM]
import { readFileSync, writeFileSync } from "node:fs";

const [inPath, outPath, mapPath, wasmPath] = process.argv.slice(2);
let src = readFileSync(inPath, "utf8");
const die = (m) => { console.error(`slim-glue: ${m}`); process.exit(1); };

function rewrite(label, re, to, { need = 1 } = {}) {
  let n = 0;
  src = src.replace(re, (...m) => (n++, typeof to === "function" ? to(...m) : to.replace(/\$(\d)/g, (_, i) => m[+i])));
  if (n < need) console.error(`slim-glue: "${label}" matched ${n} times (wasm-bindgen changed?); left as is`);
  return n;
}

// 1. Arguments are marshalled inside try/catch only to free the ones already copied
//    when a later one throws (a non-string where the glue expects a string): our own
//    TypeScript passes checked primitives, so a throw there is a bug either way, and
//    the few bytes it would leak are not worth ~1 KB of glue.
rewrite(
  "marshalling cleanup",
  /\btry \{\n((?:[ \t]*(?:ptr\d+|len\d+) = [^\n]*\n)+)[ \t]*\} catch \(e\) \{\n(?:[ \t]*if \(ptr\d+\) \{[^\n]*\}\n)+[ \t]*throw e;\n[ \t]*\}\n/g,
  "$1",
);

// 2. The allocator arguments are always the same exports: default parameters.
if (
  rewrite("passStringToWasm0 definition", /function passStringToWasm0\(arg, malloc, realloc\) \{\n    if \(realloc === undefined\) \{\n[\s\S]*?\n    \}\n\n/,
    "function passStringToWasm0(arg, malloc = wasm.__wbindgen_export, realloc = wasm.__wbindgen_export2) {\n")
) {
  rewrite("passStringToWasm0 calls", /passStringToWasm0\(([\w$]+), wasm\.__wbindgen_export, wasm\.__wbindgen_export2\)/g, "passStringToWasm0($1)");
}
for (const f of ["passArray32ToWasm0", "passArrayF64ToWasm0", "passArrayJsValueToWasm0"]) {
  const def = new RegExp(`function ${f}\\((\\w+), malloc\\) \\{`);
  if (!def.test(src)) continue;
  src = src.replace(def, `function ${f}($1, malloc = wasm.__wbindgen_export) {`);
  rewrite(`${f} calls`, new RegExp(`${f}\\(([\\w$]+), wasm\\.__wbindgen_export\\)`, "g"), `${f}($1)`);
}

// 3. Freeing a returned buffer: one helper instead of the export's long name each time.
if (rewrite("free calls", /wasm\.__wbindgen_export3\(/g, "wfree(", { need: 1 })) {
  src += "\nfunction wfree(ptr, len, align) { wasm.__wbindgen_export3(ptr, len, align); }\n";
}

// 4. Internal classes (CartCore, CheckoutCore) are never used with `using`.
rewrite("Symbol.dispose", /\nif \(Symbol\.dispose\) \w+\.prototype\[Symbol\.dispose\] = \w+\.prototype\.free;\n/g, "\n");

// 5. Warnings for call forms the package's init()/initSync() never use, and the long
//    MIME-type advice (the fallback itself stays).
rewrite("initSync deprecation warning", /else \{\n\s*console\.warn\('using deprecated parameters for `initSync\(\)`; pass a single object instead'\)\n\s*\}/, "");
rewrite("init deprecation warning", /else \{\n\s*console\.warn\('using deprecated parameters for the initialization function; pass a single object instead'\)\n\s*\}/, "");
rewrite("MIME warning", /console\.warn\("`WebAssembly\.instantiateStreaming` failed[^;]*;/, 'console.warn("instantiateStreaming:", e);');

// 6. Minified import and export names (shorter in the .wasm and in the glue).
if (mapPath) {
  const map = JSON.parse(readFileSync(mapPath, "utf8"));
  const mod = new WebAssembly.Module(readFileSync(wasmPath));
  const exportsOld = new Map(map.exports);
  src = src.replace(/\bwasm\.(\w+)/g, (m, name) => {
    const to = exportsOld.get(name);
    if (to === undefined) die(`the glue uses wasm.${name}, which the mapping does not name`);
    return `wasm.${to}`;
  });
  const importsOld = new Map(map.imports.map(([, name, to]) => [name, to]));
  const modules = new Set(map.imports.map(([m]) => m));
  const newModules = new Set(WebAssembly.Module.imports(mod).map((i) => i.module));
  if (modules.size !== 1 || newModules.size !== 1) die(`expected one import module, got ${[...modules]} -> ${[...newModules]}`);
  const [oldModule] = modules, [newModule] = newModules;
  if (!src.includes(`"${oldModule}": import0`)) die(`no import object for module ${oldModule}`);
  src = src.replace(`"${oldModule}": import0`, `${JSON.stringify(newModule)}: import0`);
  src = src.replace(/^(        )(\w+)(: function\()/gm, (m, sp, name, rest) => {
    const to = importsOld.get(name);
    if (to === undefined) die(`the glue provides import ${name}, which the mapping does not name`);
    return sp + to + rest;
  });
  // Every import the module asks for is provided, every export the glue uses exists.
  const provided = new Set([...src.matchAll(/^        (\w+): function\(/gm)].map((m) => m[1]));
  for (const i of WebAssembly.Module.imports(mod)) if (!provided.has(i.name)) die(`the glue does not provide import ${i.module}.${i.name}`);
  const exported = new Set(WebAssembly.Module.exports(mod).map((e) => e.name));
  for (const [, name] of src.matchAll(/\bwasm\.(\w+)/g)) if (!exported.has(name)) die(`the glue uses wasm.${name}, not exported`);
}

writeFileSync(outPath, src);
