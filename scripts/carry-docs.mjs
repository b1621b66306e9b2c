// The doc comment of each guarded wrapper in the package's declarations (scripts/build-pkg.sh
// runs this on every directory tsc wrote). An entry wraps a wasm function so that calling it
// before `init()` is a `CirrusError` (js/guard.ts):
//
//   /** @function */
//   export const addMoney = guardFn(wasmAddMoney);     // `addMoney as wasmAddMoney` imported
//
// tsc declares it `export declare const addMoney: typeof wasmAddMoney;` under that comment, so
// editors and the API reference (scripts/build-reference.sh) would show no description. The
// description is the wrapped function's own (its Rust doc comment, which wasm-bindgen wrote into
// the glue's .d.ts, or a JS module's JSDoc): written once, next to that function, and copied here
// at build time. A wrapper whose comment says more than `@function` keeps its own.
//
// Usage: node scripts/carry-docs.mjs DIR...
import fs from "node:fs";
import path from "node:path";

/** The doc comment right above `export [declare] function NAME(` in `source`, if any. */
function docOf(source, name) {
  const at = source.search(new RegExp(`^export (declare )?function ${name}\\(`, "m"));
  if (at < 0) return null;
  const before = source.slice(0, at).trimEnd();
  if (!before.endsWith("*/")) return null;
  const start = before.lastIndexOf("/**");
  return start < 0 ? null : before.slice(start);
}

let carried = 0;
for (const dir of process.argv.slice(2)) {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".d.ts"))) {
    const full = path.join(dir, file);
    let text = fs.readFileSync(full, "utf8");
    // `name as alias` → the module it is imported from.
    const from = new Map();
    for (const m of text.matchAll(/^import \{([^}]*)\} from "([^"]+)";$/gm)) {
      for (const part of m[1].split(",")) {
        const [name, alias] = part.trim().split(/\s+as\s+/);
        if (alias) from.set(alias, { name, module: m[2] });
      }
    }
    text = text.replace(/^\/\*\* @function \*\/\nexport declare const (\w+): typeof (\w+);$/gm, (line, exported, alias) => {
      const origin = from.get(alias);
      if (!origin) return line;
      const target = path.join(dir, origin.module.replace(/\.js$/, ".d.ts"));
      const doc = fs.existsSync(target) ? docOf(fs.readFileSync(target, "utf8"), origin.name) : null;
      if (!doc) return line;
      carried++;
      return `${doc.replace(/\s*\*\/$/, "\n * @function\n */")}\nexport declare const ${exported}: typeof ${alias};`;
    });
    fs.writeFileSync(full, text);
  }
}
console.log(`carry-docs: ${carried} guarded wrapper(s) given their function's doc comment`);
