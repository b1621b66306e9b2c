#!/usr/bin/env bash
# cirrus-storefront/react as consumers get it: build the package, `npm pack` it, install the
# tarball into a throwaway project (React 19 from the repo's dev dependencies) and
#   1. type-check tests/react/consumer.tsx with `tsc --strict --noEmit` (its `@ts-expect-error`
#      lines are misuse that must not compile);
#   2. import the entry under React Server Components' `react-server` condition (no
#      `createContext` there): importing it must not throw;
#   3. check that a page that does not import it bundles none of it (nor React); that a page with
#      only cirrus-storefront/store (the plain-JS store under it) bundles no React and loads none
#      of the glue or .wasm up front; that a page
#      with the provider and a cart badge loads none of the SDK's glue or .wasm up front (the
#      glue is a lazy chunk); that cirrus-storefront/cart-summary is one small module;
#   4. server-render tests/react/app.mjs (`renderToString`, tests/react/ssr.mjs), bundle
#      tests/react/browser.mjs (`hydrateRoot`, React's development build) with esbuild, and run
#      it in headless Chromium in two tabs (tests/react/run.mjs): no hydration warning, the
#      cart once storage was read, options, another tab's changes, the cart's checkout; the
#      README's React example (tests/react/readme-example.jsx) server-rendered and hydrated next to it;
#   5. the search store and hooks (cirrus-storefront/search/store, /search/react): a page with a
#      search field loads no glue or .wasm up front and the React entry's pages none of them;
#      tests/react/search.mjs (server render, snapshots, changes, errors, the URL form);
#   6. run the README's cache example (tests/sdk/cache-example.mjs) on the packed package and
#      check its output. Both README blocks must be those files.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_chromium
ensure_python_tools
ensure_node_modules   # react, react-dom and their types, pinned in the root package.json
: "${CIRRUS_API_KEY:=$(new_api_key)}"
export CIRRUS_API_KEY
trap stop_services EXIT

export CIRRUS_PKG_OUT="$ROOT/target/stage-45-react/pkg"   # its own build: other stages rebuild pkg/ meanwhile
bash "$ROOT/scripts/build-pkg.sh"
WORK="$ROOT/target/react-consumer"
rm -rf "$WORK" && mkdir -p "$WORK/app/dist"
(cd "$CIRRUS_PKG_OUT" && npm pack --silent --pack-destination "$WORK" >/dev/null)
tarball=$(ls "$WORK"/cirrus-storefront-*.tgz)
APP="$WORK/app"
printf '{ "name": "react-consumer", "private": true, "type": "module" }\n' >"$APP/package.json"
# React is not installed here: it resolves from the repo's node_modules above (one copy of React).
(cd "$APP" && npm install --silent --no-audit --no-fund --prefer-offline "$tarball")
cp tests/react/*.mjs tests/react/readme-example.jsx tests/react/consumer.tsx tests/sdk/cache-example.mjs "$APP/"

log "README examples are tests/react/readme-example.jsx and tests/sdk/cache-example.mjs"
node -e '
  const fs = require("fs");
  const readme = fs.readFileSync("README.md", "utf8");
  for (const [marker, lang, path] of [["react-example", "jsx", "tests/react/readme-example.jsx"], ["cache-example", "js", "tests/sdk/cache-example.mjs"]]) {
    const m = readme.match(new RegExp("<!-- " + marker + ":start -->\\n```" + lang + "\\n([\\s\\S]*?)```\\n<!-- " + marker + ":end -->"));
    const file = fs.readFileSync(path, "utf8").split("\n").filter((l) => !l.startsWith("// The README") && !l.startsWith("// (CIRRUS_BASE_URL") && !l.startsWith("// stage 45-react")).join("\n");
    if (!m) { console.error(`README.md has no ${marker} block`); process.exit(1); }
    if (m[1].trim() !== file.trim()) { console.error(`README.md ${marker} block differs from ${path}`); process.exit(1); }
  }
' || die "a README example is out of date"

log "tsc --strict on tests/react/consumer.tsx"
cat >"$APP/tsconfig.json" <<'JSON'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "NodeNext",
  "moduleResolution": "NodeNext", "lib": ["ES2022", "DOM"], "jsx": "react-jsx", "types": [], "skipLibCheck": false },
  "files": ["consumer.tsx"] }
JSON
(cd "$APP" && "$ROOT/node_modules/.bin/tsc" -p tsconfig.json) || die "tsc --strict failed on tests/react/consumer.tsx"

log "React Server Components: importing cirrus-storefront/react under the react-server condition"
(cd "$APP" && node --conditions=react-server --input-type=module -e '
  const React = await import("react");
  if (typeof React.createContext === "function") throw new Error("this React build has createContext: the check proves nothing");
  const m = await import("cirrus-storefront/react");
  for (const n of ["CirrusProvider", "useCart", "useProductOptions", "useCheckout", "useStore", "useClient"]) if (typeof m[n] !== "function") throw new Error(`no ${n}`);
  console.log("imported under react-server (no createContext): ok");
') || die "importing cirrus-storefront/react in a server component module failed"

log "a page that does not import cirrus-storefront/react bundles none of it"
for entry in cirrus-storefront cirrus-storefront/client; do
  printf 'import { init, CirrusClient } from "%s";\nawait init(); new CirrusClient({ baseUrl: "https://a/api/v1", apiKey: "x" });\n' "$entry" >"$APP/plain.mjs"
  (cd "$APP" && "$ROOT/node_modules/.bin/esbuild" plain.mjs --bundle --format=esm --platform=browser --loader:.wasm=file \
    --outdir=plain-dist --metafile=plain-meta.json --log-level=error)
  node -e '
    const inputs = Object.keys(JSON.parse(require("fs").readFileSync(process.argv[1])).inputs);
    const bad = inputs.filter((f) => /(^|\/)react(-dom)?\/|\/react\.js$/.test(f));
    if (bad.length) { console.error(`a page importing ${process.argv[2]} bundles ${bad.join(", ")}`); process.exit(1); }
    console.log(`${process.argv[2]}: ${inputs.length} modules, none of React or cirrus-storefront/react`);
  ' "$APP/plain-meta.json" "$entry" || die "the React entry leaks into pages that do not import it"
done

log "a page with the provider and a cart badge loads none of the SDK's glue or .wasm until the cart is used"
cat >"$APP/badge.mjs" <<'JS'
import { createElement as h } from "react";
import { CirrusProvider, useCart } from "cirrus-storefront/react";
const Badge = () => h("span", null, useCart((c) => c.summary?.itemCount ?? "Cart"));
export const Layout = () => h(CirrusProvider, { client: { baseUrl: "https://a/api/v1", apiKey: "x" } }, h(Badge));
JS
(cd "$APP" && "$ROOT/node_modules/.bin/esbuild" badge.mjs --bundle --splitting --minify --format=esm --platform=browser \
  --loader:.wasm=file --external:react --outdir=badge-dist --metafile=badge-meta.json --log-level=error)
node "$APP/upfront.mjs" "$APP" badge-meta.json badge.mjs "badge page" /cirrus_storefront.js || die "a page with only a cart badge loads the SDK's wasm"

log "cirrus-storefront/store (the store the framework bindings read): no React, none of the SDK's glue or .wasm up front"
cat >"$APP/store.mjs" <<'JS'
import { CartStore, CheckoutStore, ProductPicker, preloadSdk, sdkPreload } from "cirrus-storefront/store";
const cart = new CartStore({ client: { baseUrl: "https://a/api/v1", apiKey: "x" } });
cart.subscribe(() => console.log(cart.getSnapshot().summary));
cart.start();
export { cart, CheckoutStore, ProductPicker, preloadSdk, sdkPreload };
JS
# React is not external here: a store that imported it would bundle it.
(cd "$APP" && "$ROOT/node_modules/.bin/esbuild" store.mjs --bundle --splitting --minify --format=esm --platform=browser \
  --loader:.wasm=file --outdir=store-dist --metafile=store-meta.json --log-level=error)
node -e '
  const meta = JSON.parse(require("fs").readFileSync(process.argv[1]));
  const all = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
  const react = all.filter((f) => /(^|\/)react(-dom)?\/|\/react\.js$/.test(f));
  if (react.length) { console.error(`a page with only cirrus-storefront/store bundles ${react.join(", ")}`); process.exit(1); }
  if (!all.some((f) => f.endsWith("/store.js"))) { console.error("no input is the store: the check proves nothing"); process.exit(1); }
  console.log(`cirrus-storefront/store: ${all.length} modules, none of React`);
' "$APP/store-meta.json" || die "cirrus-storefront/store bundles React"
node "$APP/upfront.mjs" "$APP" store-meta.json store.mjs "store page" /cirrus_storefront.js || die "cirrus-storefront/store loads the SDK's glue or .wasm up front"

log "cirrus-storefront/cart-summary: plain JS, no glue, no .wasm"
printf 'import { readCartSummary, subscribeCartSummary } from "cirrus-storefront/cart-summary";\nsubscribeCartSummary(() => {}); console.log(readCartSummary());\n' >"$APP/summary.mjs"
(cd "$APP" && "$ROOT/node_modules/.bin/esbuild" summary.mjs --bundle --minify --format=esm --platform=browser \
  --outfile=summary-dist/summary.js --metafile=summary-meta.json --log-level=error)
node -e '
  const fs = require("fs"), zlib = require("zlib"), path = require("path");
  const dir = process.argv[1], inputs = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, "summary-meta.json"))).inputs);
  const sdk = inputs.filter((f) => f.includes("cirrus-storefront"));
  if (sdk.length !== 1 || !sdk[0].endsWith("cart-summary.js")) { console.error(`the summary reader bundles ${sdk.join(", ")}`); process.exit(1); }
  const gz = zlib.gzipSync(fs.readFileSync(path.join(dir, "summary-dist/summary.js")), { level: 9 }).length;
  if (gz > 1024) { console.error(`the summary reader is ${gz} B gzip -9, over 1 KB`); process.exit(1); }
  console.log(`cirrus-storefront/cart-summary: ${gz} B gzip -9 (minified), one module`);
' "$APP" || die "cirrus-storefront/cart-summary is not the small plain-JS reader it should be"

log "cirrus-storefront/search/react and /search/store: no glue or .wasm up front, the search entry a lazy chunk; none of it in the React entry's pages"
cat >"$APP/search-page.mjs" <<'JS'
import { createElement as h } from "react";
import { useSearch, useSearchStore } from "cirrus-storefront/search/react";
const index = async () => {
  const { init, SearchIndex } = await import("cirrus-storefront/search");
  await init();
  return SearchIndex.fromBytes(new Uint8Array(await (await fetch("/index")).arrayBuffer()));
};
export const Box = () => {
  const store = useSearchStore({ index, suggest: true });
  return h("input", { value: useSearch(store, (s) => s.query), onFocus: () => store.load(), onChange: (e) => store.set({ query: e.target.value }) });
};
JS
(cd "$APP" && "$ROOT/node_modules/.bin/esbuild" search-page.mjs --bundle --splitting --minify --format=esm --platform=browser \
  --loader:.wasm=file --external:react --outdir=search-dist --metafile=search-meta.json --log-level=error)
node "$APP/upfront.mjs" "$APP" search-meta.json search-page.mjs "search field page" search/cirrus_storefront.js \
  || die "the search store or hooks load the search wasm up front"
node -e '
  const badge = Object.keys(JSON.parse(require("fs").readFileSync(process.argv[1])).inputs).filter((f) => /cirrus-storefront\/search\//.test(f));
  if (badge.length) { console.error(`the badge page (cirrus-storefront/react) bundles ${badge.join(", ")}`); process.exit(1); }
  console.log("the badge page (cirrus-storefront/react) bundles none of the search store, hooks or entry");
' "$APP/badge-meta.json" || die "the search code leaks into the React entry's pages"

start_localstripe $(P 18422)
build_server
start_server $(P 18792) CIRRUS_CORS_ORIGINS='*' CIRRUS_API_KEY="$CIRRUS_API_KEY"
export CIRRUS_BASE_URL

log "the search store and hooks (tests/react/search.mjs): the server's results, then the store's"
(cd "$APP" && node search.mjs) || die "the search store failed"

log "README cache example (tests/sdk/cache-example.mjs)"
cache_out=$(cd "$APP" && node cache-example.mjs) || die "the README cache example failed"
printf '%s\n' "$cache_out"
CACHE_OUT="$cache_out" node -e '
  const lines = process.env.CACHE_OUT.trimEnd().split("\n");
  const want = [/^from the cache: true$/, /^store: .+$/, /^no-store: a new answer: true$/, /^stale answer: error \(network\)$/, /^the same pages: true$/];
  if (lines.length !== want.length || !lines.every((l, i) => want[i].test(l))) { console.error(`README cache example output:\n${lines.join("\n")}`); process.exit(1); }
' || die "the README cache example did not show every case it promises"

log "server rendering (tests/react/ssr.mjs), then hydration in two tabs of headless Chromium (tests/react/run.mjs)"
(cd "$APP" && "$ROOT/node_modules/.bin/esbuild" readme-example.jsx --jsx=automatic --format=esm --outfile=readme-example.mjs --log-level=error)
(cd "$APP" && node ssr.mjs dist) || die "server rendering failed"
(cd "$APP" && "$ROOT/node_modules/.bin/esbuild" browser.mjs --bundle --format=esm --platform=browser --loader:.wasm=file \
  --define:process.env.NODE_ENV='"development"' --outdir=dist --entry-names=app --asset-names='[name]-[hash]' --log-level=error)
node tests/react/run.mjs "$APP/dist" || die "the React app failed in headless Chromium"
