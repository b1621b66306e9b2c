// The compile-time checks of the published package's types (scripts/test.d/40-pkg.sh):
//   node tests/package/types/check.mjs DIR
// DIR is a project with the packed package installed and this folder's `.ts` files copied in.
// `tsc --strict` (the consumer's compiler options, the repo's TypeScript) must pass `ok.ts`, the
// correct use (the README's examples, typed), and fail each `mistake-*.ts` with exactly the
// errors its `// expect: TS<code> <fragment>` header lines name, in order (a fragment is
// text the error's message must contain, e.g. `// expect: TS2322 'pageSize'`). A mistake that
// compiles, or fails with another error or in another place, fails the check.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ts = createRequire(import.meta.url)("typescript");
const dir = path.resolve(process.argv[2] ?? ".");
const files = readdirSync(dir).filter((f) => f === "ok.ts" || /^mistake-.*\.tsx?$/.test(f)).sort();
if (!files.includes("ok.ts")) throw new Error(`${dir} has no ok.ts`);
const options = {
  strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [],
  skipLibCheck: false, jsx: ts.JsxEmit.ReactJSX,
};
const program = ts.createProgram(files.map((f) => path.join(dir, f)), options);
const text = (d) => ts.flattenDiagnosticMessageText(d.messageText, "\n");
const where = (d) => {
  if (!d.file) return "(global)";
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.basename(d.file.fileName)}(${line + 1},${character + 1})`;
};
const show = (d) => `${where(d)} TS${d.code}: ${text(d).replace(/\n/g, "\n      ")}`;

const failures = [];
const all = ts.getPreEmitDiagnostics(program);
const global = all.filter((d) => !d.file || !files.includes(path.basename(d.file.fileName)));
for (const d of global) failures.push(`not in a test file: ${show(d)}`);
for (const f of files) {
  const got = all.filter((d) => d.file && path.basename(d.file.fileName) === f);
  const want = [...readFileSync(path.join(dir, f), "utf8").matchAll(/^\/\/ expect: TS(\d+) (.+)$/gm)].map((m) => ({ code: Number(m[1]), fragment: m[2].trim() }));
  if (f === "ok.ts") {
    if (got.length) failures.push(`ok.ts must compile:\n  ${got.map(show).join("\n  ")}`);
    else console.log("ok.ts: compiles");
    continue;
  }
  if (!want.length) { failures.push(`${f}: no "// expect: TS<code> <fragment>" line`); continue; }
  if (!got.length) { failures.push(`${f}: compiles, but must fail with ${want.map((w) => `TS${w.code} ${w.fragment}`).join("; ")}`); continue; }
  const bad = got.length !== want.length || want.some((w, i) => got[i].code !== w.code || !text(got[i]).includes(w.fragment));
  if (bad) failures.push(`${f}: want ${want.map((w) => `TS${w.code} ${w.fragment}`).join("; ")}, got\n  ${got.map(show).join("\n  ")}`);
  else console.log(`${f}: fails as expected: ${got.map(show).join("; ")}`);
}
if (failures.length) {
  console.error(`type checks: ${failures.length} failed\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`type checks: ok.ts compiles, ${files.length - 1} mistakes fail with their expected errors`);
