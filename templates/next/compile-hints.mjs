// Run after `next build` (package.json's "build"): marks every browser chunk of the build with
// V8's explicit compile hint, `//# allFunctionsCalledOnLoad` on its first line (Chromium 136+;
// other engines read a comment). Without it V8 compiles each function of a chunk on the main
// thread at its first call: Turbopack's module factories (React DOM's is 200 KB) run during
// the page's startup, so their compile lands in the long tasks that evaluate the chunks and
// hydrate (Lighthouse's total blocking time, and a click made at the load event). With it the
// whole chunk is compiled while it downloads, off the main thread. The chunks here are what
// pages load to run; a chunk's source map, when shipped (productionBrowserSourceMaps), is
// shifted by the added line. Running it twice changes nothing.
import { existsSync } from "node:fs";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

const HINT = "//# allFunctionsCalledOnLoad\n";
const dir = join(import.meta.dirname, ".next", "static", "chunks");

/** A source map (plain or indexed) moved down by one generated line. */
function shifted(map) {
  if (map.sections) return { ...map, sections: map.sections.map((s) => ({ ...s, offset: { ...s.offset, line: s.offset.line + 1 } })) };
  return { ...map, mappings: `;${map.mappings}` };
}

let marked = 0;
for (const name of await readdir(dir, { recursive: true })) {
  if (!name.endsWith(".js")) continue;
  const file = join(dir, name);
  const code = await readFile(file, "utf8");
  if (code.startsWith(HINT)) continue;
  await writeFile(file, HINT + code);
  marked++;
  const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
  const mapFile = url && !url.startsWith("data:") ? join(dirname(file), url) : null;
  if (mapFile && existsSync(mapFile)) {
    await writeFile(mapFile, JSON.stringify(shifted(JSON.parse(await readFile(mapFile, "utf8")))));
  }
}
console.log(`compile hints: ${marked} chunk(s) in ${dir} marked for eager compilation`);
