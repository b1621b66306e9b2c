#!/usr/bin/env bash
# The npm package as consumers get it: build pkg/, `npm pack` it, install the
# tarball into throwaway projects and
#   0. check the tarball with publint and attw (every `exports` entry: the root, /client, /search,
#      /react, /store, /cart-summary, /picker, the adapters);
#   1. type-check tests/package/consumer.ts with `tsc --strict --noEmit` (its
#      `@ts-expect-error` lines are misuse that must not compile), and tests/package/types/
#      (check.mjs): ok.ts, the README's examples typed, must compile, and each mistake-*.ts
#      must fail with the error code and message its `// expect:` line names;
#   2. run a node ESM consumer and the README example against a dev server (the example
#      must be the README's block, and its output must show every case it promises);
#   3. bundle a browser app with esbuild and run it in headless Chromium;
#   4. build a Vite app and a webpack 5 app (tests/package/bundlers/) for production and run
#      them in headless Chromium: `init()` without an argument, so each bundler must emit the
#      `.wasm` and resolve the glue's `new URL(…, import.meta.url)` itself;
#   5. run the client matrix (tests/sdk/matrix.mjs: a table of 31 named cases, every one run
#      and reported, node:test in node, a per-case report from Chromium; it covers the 12
#      fetchers × the 9 contract error codes (+ 503) injected by the dev server's fault hook,
#      decoded and retried or not, real server errors, bad arguments, retries, sharing, cache,
#      abort, timeout) on the installed package, in node and in headless Chromium, for the
#      root entry and for cirrus-storefront/client: four runs;
#   6. render the API reference from the tarball's .d.ts (scripts/build-reference.sh): every
#      export of every entry must have a doc comment.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_chromium
ensure_python_tools
ensure_node_modules
ensure_node_modules "$ROOT/tests/package/bundlers"   # vite, webpack, webpack-cli, pinned by its lock file
: "${CIRRUS_API_KEY:=$(new_api_key)}"
export CIRRUS_API_KEY
trap stop_services EXIT

export CIRRUS_PKG_OUT="$ROOT/target/stage-40-pkg/pkg"   # not pkg/: other stages may rebuild that meanwhile
bash "$ROOT/scripts/build-pkg.sh"

node tests/package/surface-check.mjs "$CIRRUS_PKG_OUT"
node tests/package/surface-check.mjs "$CIRRUS_PKG_OUT/client"

WORK="$ROOT/target/pkg-consumers"
rm -rf "$WORK" && mkdir -p "$WORK"
(cd "$CIRRUS_PKG_OUT" && npm pack --silent --pack-destination "$WORK" >/dev/null)
tarball=$(ls "$WORK"/cirrus-storefront-*.tgz)
log "packed $(basename "$tarball") ($(wc -c <"$tarball") bytes)"
# Tools nobody here wrote judge the package as published: publint (package.json, exports,
# files) and attw (every entry's types resolve; ESM-only is deliberate, so its profile; the
# four `.wasm` subpaths are assets, not modules with types).
log "publint --strict, attw --profile esm-only"
"$ROOT/node_modules/.bin/publint" "$CIRRUS_PKG_OUT" --strict
"$ROOT/node_modules/.bin/attw" "$tarball" --profile esm-only --format table-flipped \
  --exclude-entrypoints ./cirrus_storefront_bg.wasm ./client/cirrus_storefront_bg.wasm ./checkout/cirrus_storefront_bg.wasm ./search/cirrus_storefront_bg.wasm
contents=$(tar tzf "$tarball")
for f in package/package.json package/index.js package/index.d.ts package/node.js package/edge.js package/wasm-base64.js \
  package/cirrus_storefront_bg.wasm package/cirrus_storefront.js package/client-entry.js \
  package/checkout/cirrus_storefront_bg.wasm package/checkout/wasm-base64.js \
  package/client/index.js package/client/index.d.ts package/client/node.js package/client/edge.js package/client/wasm-base64.js \
  package/client/cirrus_storefront_bg.wasm package/store.js package/store.d.ts package/react.js package/react.d.ts \
  package/search/index.js package/search/index.d.ts package/search/node.js package/search/edge.js package/search/cirrus_storefront_bg.wasm \
  package/search/search-store.js package/search/search-store.d.ts package/search/search-react.js package/search/search-react.d.ts; do
  grep -qx "$f" <<<"$contents" || die "tarball lacks $f"
done
# No entry may reference a file it does not ship: every relative import and
# `new URL("…", import.meta.url)` of every .js in the tarball names a file in it (the `?module`
# query of the workerd/edge-light entries' .wasm import dropped).
tar xzf "$tarball" -C "$WORK"
node -e '
  const fs = require("fs"), path = require("path");
  const root = process.argv[1], missing = [];
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
  for (const f of walk(root).filter((f) => f.endsWith(".js"))) {
    const code = fs.readFileSync(f, "utf8");
    const refs = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|new URL\(\s*)["\x27](\.{1,2}\/[^"\x27?]+|[\w-]+\.wasm)(?:\?module)?["\x27]/g)].map((m) => m[1]);
    for (const r of refs) if (!fs.existsSync(path.resolve(path.dirname(f), r))) missing.push(`${path.relative(root, f)} -> ${r}`);
  }
  if (missing.length) { console.error("the tarball references files it does not ship:\n  " + missing.join("\n  ")); process.exit(1); }
  console.log("every relative import and new URL(…, import.meta.url) of the tarball resolves to a file in it");
' "$WORK/package" || die "an entry references a file the tarball does not ship"
# What `npm publish` would upload, checked by npm itself (nothing is sent: --dry-run).
log "npm publish --dry-run $(basename "$tarball")"
npm publish --dry-run "$tarball" 2>&1 | grep -E "^npm notice (name|version|filename|package size|unpacked size|total files)|^\+ " \
  || die "npm publish --dry-run failed on the packed tarball"
grep -q '\.ts$' <<<"$(grep -v '\.d\.ts$' <<<"$contents")" && die "tarball ships TypeScript sources"

project() { # project DIR [APP]: an empty ESM project, or a copy of the app in APP, with the tarball installed
  mkdir -p "$1"
  if [ -n "${2:-}" ]; then cp -r "$2/." "$1/"
  else printf '{ "name": "%s", "private": true, "type": "module" }\n' "$(basename "$1")" >"$1/package.json"; fi
  (cd "$1" && npm install --silent --no-audit --no-fund --prefer-offline "$tarball")
}

log "consumer 1: tsc --strict on tests/package/consumer.ts"
project "$WORK/node-esm"
cp tests/package/consumer.ts tests/package/smoke.mjs tests/package/node-consumer.mjs tests/package/readme-example.mjs \
  tests/package/quickstart-example.mjs tests/package/storefront-checks.mjs tests/package/storefront-client.mjs tests/package/storefront-example.mjs "$WORK/node-esm/"
cat >"$WORK/node-esm/tsconfig.json" <<'JSON'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "NodeNext",
  "moduleResolution": "NodeNext", "lib": ["ES2022", "DOM"], "types": [], "skipLibCheck": false },
  "files": ["consumer.ts"] }
JSON
(cd "$WORK/node-esm" && "$ROOT/node_modules/.bin/tsc" -p tsconfig.json) || die "tsc --strict failed on consumer.ts"
log "consumer 1b: tsc --strict on tests/package/types/ (ok.ts compiles, each mistake-*.ts fails with its expected error)"
mkdir -p "$WORK/node-esm/types" && cp tests/package/types/*.ts tests/package/types/*.tsx "$WORK/node-esm/types/"
node tests/package/types/check.mjs "$WORK/node-esm/types" || die "the package's types let a mistake through, or refuse correct use"

start_localstripe $(P 18421)
build_server
start_server $(P 18791) CIRRUS_TEST_HOOKS=1 CIRRUS_CORS_ORIGINS='*' CIRRUS_API_KEY="$CIRRUS_API_KEY"
export CIRRUS_BASE_URL

log "consumer 2: node ESM project"
(cd "$WORK/node-esm" && node node-consumer.mjs)
log "README examples (tests/package/{quickstart,readme,storefront}-example.mjs)"
# The README's example blocks must be these files, so what the README shows is what runs here.
node -e '
  const fs = require("fs");
  const readme = fs.readFileSync("README.md", "utf8");
  for (const [marker, path] of [["quickstart-example", "tests/package/quickstart-example.mjs"], ["readme-example", "tests/package/readme-example.mjs"], ["storefront-example", "tests/package/storefront-example.mjs"]]) {
    const m = readme.match(new RegExp("<!-- " + marker + ":start -->\\n```js\\n([\\s\\S]*?)```\\n<!-- " + marker + ":end -->"));
    const file = fs.readFileSync(path, "utf8").split("\n").filter((l) => !l.startsWith("// The README") && !l.startsWith("// (CIRRUS_BASE_URL")).join("\n");
    if (!m) { console.error(`README.md has no ${marker} block`); process.exit(1); }
    if (m[1].trim() !== file.trim()) { console.error(`README.md ${marker} block differs from ${path}`); process.exit(1); }
  }
' || die "a README example is out of date"
quick_out=$(cd "$WORK/node-esm" && node quickstart-example.mjs) || die "the README quickstart failed"
printf '%s\n' "$quick_out"
# Five products, each "name: price".
QUICK_OUT="$quick_out" node -e '
  const lines = process.env.QUICK_OUT.trimEnd().split("\n");
  if (lines.length !== 5 || !lines.every((l) => /^.+: \d+\.\d{2}$/.test(l))) { console.error(`README quickstart output:\n${lines.join("\n")}`); process.exit(1); }
' || die "the README quickstart did not list five products with their prices"
readme_out=$(cd "$WORK/node-esm" && node readme-example.mjs) || die "the README example failed"
printf '%s\n' "$readme_out"
# Every case the example shows must have happened, exactly as its comments say (no branch of
# it may be skipped): the lines below, in this order, and nothing else.
README_OUT="$readme_out" node -e '
  const lines = process.env.README_OUT.trimEnd().split("\n");
  const want = [
    /^12 of (\d+) products; first: .+ at \d+\.\d{2}$/,
    /^[\w-]+: \d+\.\d{2}(, [\w-]+: \d+\.\d{2})*$/,
    /^1 item\(s\), subtotal \$\d+\.\d{2}$/,
    /^cheapest shipping: .+, total \$\d+\.\d{2}$/,
    /^iterated (\d+) products$/,
    /^not_found \(HTTP 404, request \S+\)$/,
    /^store\(\): aborted$/,
  ];
  const fail = (m) => { console.error(`README example output: ${m}\n${lines.join("\n")}`); process.exit(1); };
  if (lines.length !== want.length) fail(`${lines.length} lines, want ${want.length}`);
  const m = lines.map((l, i) => want[i].exec(l) || fail(`line ${i + 1} does not match ${want[i]}`));
  if (m[0][1] !== m[4][1]) fail(`allProducts iterated ${m[4][1]} products, the first page says ${m[0][1]}`);
  if (m[5][0].includes("request null")) fail("no request id");
' || die "the README example did not show every case it promises"

log "storefront helpers through cirrus-storefront/client (the root entry ran them in the node consumer)"
(cd "$WORK/node-esm" && node storefront-client.mjs) || die "storefront helpers failed through cirrus-storefront/client"
log "README storefront example (tests/package/storefront-example.mjs)"
sf_out=$(cd "$WORK/node-esm" && node storefront-example.mjs) || die "the README storefront example failed"
printf '%s\n' "$sf_out"
SF_OUT="$sf_out" node -e '
  const lines = process.env.SF_OUT.trimEnd().split("\n");
  const want = [
    /^(\/products\/\S+) -> product (\S+)$/,
    /^[^:]+: .+$/,
    /^[^:]+: .+$/,
    /^(selected \S+ at \d+\.\d{2}|no variant is \{.+\})$/,
    /^\{"[^"]+":"[^"]+","[^"]+":"[^"]+"\}$/,
    /^.+ \| http:\/\/\S+\/products\/\S+ \| og:product$/,
    /^Product with [1-9]\d* offers, first \d+\.\d{2} [A-Z]{3}$/,
  ];
  const fail = (m) => { console.error(`README storefront example output: ${m}\n${lines.join("\n")}`); process.exit(1); };
  if (lines.length !== want.length) fail(`${lines.length} lines, want ${want.length}`);
  const m = lines.map((l, i) => want[i].exec(l) || fail(`line ${i + 1} does not match ${want[i]}`));
  if (m[0][1] !== `/products/${m[0][2]}`) fail("the path does not resolve to its own slug");
  if (!/\(sold out\)|\(none\)|, /.test(lines[1] + lines[2])) fail("no option lists its values");
' || die "the README storefront example did not show every case it promises"

log "consumer 3: esbuild browser bundle in headless Chromium"
project "$WORK/bundler"
cp tests/package/browser-consumer.mjs tests/package/smoke.mjs tests/package/storefront-checks.mjs "$WORK/bundler/"
(cd "$WORK/bundler" && "$ROOT/node_modules/.bin/esbuild" browser-consumer.mjs --bundle --format=esm \
  --platform=browser --loader:.wasm=file --outdir=dist --log-level=warning)
printf '<!doctype html><meta charset="utf-8"><script type="module" src="browser-consumer.js"></script>\n' >"$WORK/bundler/dist/index.html"
node tests/package/browser-run.mjs "$WORK/bundler/dist" "$CIRRUS_BASE_URL" "$CIRRUS_API_KEY"

# Each app as its user has it (package.json with `npm run build`, the bundler's config,
# src/main.js = tests/package/bundlers/main.js), the bundlers on PATH from their own install.
for app in vite-app webpack-app; do
  started=$SECONDS
  log "consumer ${app%-app}: production build of tests/package/bundlers/$app, run in headless Chromium"
  project "$WORK/$app" "tests/package/bundlers/$app"
  mkdir -p "$WORK/$app/src" && cp tests/package/bundlers/main.js "$WORK/$app/src/main.js"
  (cd "$WORK/$app" && PATH="$ROOT/tests/package/bundlers/node_modules/.bin:$PATH" npm run --silent build) \
    || die "$app: production build failed"
  [ -f "$WORK/$app/dist/index.html" ] || cp "$WORK/$app/index.html" "$WORK/$app/dist/"   # webpack emits no HTML
  node tests/package/browser-run.mjs "$WORK/$app/dist" "$CIRRUS_BASE_URL" "$CIRRUS_API_KEY" "$app (${app%-app} production build), checks" \
    || die "$app failed in headless Chromium"
  log "$app: $((SECONDS - started)) s (install, build, Chromium)"
done

INSTALLED="$WORK/node-esm/node_modules/cirrus-storefront"
log "client matrix, node (tests/sdk/matrix.mjs)"
node --test-reporter=spec tests/sdk/matrix-node.mjs "$INSTALLED"
log "client matrix, headless Chromium"
node tests/sdk/matrix-browser.mjs "$INSTALLED" "$CIRRUS_BASE_URL" "$CIRRUS_API_KEY"
log "cirrus-storefront/client (catalog-only subpath, its own smaller wasm): the same matrix, node and Chromium"
node --test-reporter=spec tests/sdk/matrix-node.mjs "$INSTALLED/client"
node tests/sdk/matrix-browser.mjs "$INSTALLED/client" "$CIRRUS_BASE_URL" "$CIRRUS_API_KEY"
log "fuzz: the baseUrl check against node's WHATWG URL parser (tests/sdk/fuzz-base-url.mjs)"
CIRRUS_FUZZ_CASES="${CIRRUS_FUZZ_CASES:-5000}" node tests/sdk/fuzz-base-url.mjs "$INSTALLED"
(cd "$WORK/node-esm" && node --input-type=module -e '
  import { statSync } from "node:fs";
  import { createRequire } from "node:module";
  const sub = await import("cirrus-storefront/client"), full = await import("cirrus-storefront");
  for (const n of ["Cart", "Checkout", "formatMoney"]) if (n in sub) throw new Error(`cirrus-storefront/client exports ${n}`);
  for (const n of ["init", "initSync", "CirrusClient", "CirrusError", "isReady"]) if (typeof sub[n] !== "function") throw new Error(`cirrus-storefront/client lacks ${n}`);
  if (sub.CirrusClient === full.CirrusClient) throw new Error("the subpath shares the root entry");
  const size = (p) => statSync(createRequire(import.meta.url).resolve(p)).size;
  const a = size("cirrus-storefront/client/cirrus_storefront_bg.wasm"), b = size("cirrus-storefront/cirrus_storefront_bg.wasm");
  if (!(a < b)) throw new Error(`client wasm ${a} B is not smaller than the package wasm ${b} B`);
  console.log(`cirrus-storefront/client: exports resolve, no cart/checkout, wasm ${a} B vs ${b} B`);
') || die "cirrus-storefront/client subpath check failed"

# The API reference, from the packed package's own declarations: every export of every entry
# has a doc comment (the script lists the ones that do not, and fails).
log "API reference (scripts/build-reference.sh on the packed package)"
bash scripts/build-reference.sh "$WORK/package" "$WORK/reference" || die "an export has no doc comment (docs/ARCHITECTURE.md \"Public API reference\")"
