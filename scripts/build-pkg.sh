#!/usr/bin/env bash
# Builds the npm package into pkg/:
#   1. wasm-pack build --release --target web --no-default-features (wasm-opt disabled in
#      Cargo.toml metadata), three times, each with the features of its entry (Cargo.toml
#      [features]; one function, build_wasm): the root entry's wasm (`client cart storefront`),
#      the checkout module's (`checkout`, pkg/checkout/, loaded on the first
#      Checkout.start/resume), the `cirrus-storefront/client` subpath's (`client storefront`,
#      pkg/client/) and the `cirrus-storefront/search` subpath's (`search`, pkg/search/)
#   2. binaryen wasm-opt on each (npm binaryen 132; flags in WASM_OPT below)
#   3. each .wasm also embedded, base64, in a wasm-base64.js next to it (the `node` entries';
#      browsers and bundlers fetch the .wasm file itself)
#   4. tsc of the JS entries (js/*.ts) against the generated glue: index.js (browsers, bundlers),
#      node.js (`node`: Node, Deno, Bun, server bundles), edge.js (`workerd`, `edge-light`),
#      react.js (cirrus-storefront/react), cart-summary.js (cirrus-storefront/cart-summary: no
#      wasm), picker.js (cirrus-storefront/picker), store.js (cirrus-storefront/store: the plain-JS
#      store the framework bindings read); search/search-store.js and search/search-react.js
#      (cirrus-storefront/search/store and /search/react: the search store and its React hooks)
#   5. package.json rendered from pkg-template/
# A package whose inputs have not changed is not built again but copied from
# target/pkg-cache/ (pkg_stamp below), so a whole scripts/test.sh builds it once while each
# stage still calls this script and, run alone, builds what it needs.
# Usage: scripts/build-pkg.sh   (idempotent; prints the sizes at the end)
#        CIRRUS_PKG_OUT=/some/dir scripts/build-pkg.sh
#        CIRRUS_PKG_NO_CACHE=1 scripts/build-pkg.sh   (build even when a cached build matches)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_node_modules

# CIRRUS_PKG_OUT: where to build (default pkg/); test stages and benchmarks use their own
# directory so parallel runs in one checkout never see a half-built package.
OUT="${CIRRUS_PKG_OUT:-$ROOT/pkg}"

# report_sizes: the package's sizes, at the end of a build or of a copy from the cache.
report_sizes() {
  local wasm_gz glue_gz sub w
  wasm_gz=$(gzip -9c "$OUT/cirrus_storefront_bg.wasm" | wc -c)
  glue_gz=$(cat "$OUT/cirrus_storefront.js" $(ls "$OUT"/snippets/*/js/*.js "$OUT"/snippets/*/js/generated/*.js 2>/dev/null) | gzip -9c | wc -c)
  log "pkg/ ready: wasm $(wc -c <"$OUT/cirrus_storefront_bg.wasm") B ($wasm_gz B gzip -9), glue+snippets $glue_gz B gzip -9"
  for sub in checkout client search; do
    w="$OUT/$sub/cirrus_storefront_bg.wasm"
    log "  $sub/: wasm $(wc -c <"$w") B ($(gzip -9c "$w" | wc -c) B gzip -9), glue $(gzip -9c "$OUT/$sub/cirrus_storefront.js" | wc -c) B gzip -9"
  done
}

# pkg_stamp: what the package is made from, hashed: the content of every file git sees (tracked,
# or new and not ignored) under the inputs below, the tools' versions and the environment
# variables cargo, rustc and wasm-bindgen read. The output directory is not an input (nothing
# in the package names it).
pkg_stamp() {
  {
    git ls-files -z --cached --others --exclude-standard -- src js pkg-template vendor Cargo.toml Cargo.lock .cargo \
        package-lock.json scripts/build-pkg.sh scripts/carry-docs.mjs \
      | while IFS= read -r -d '' f; do if [ -f "$f" ]; then printf '%s\0' "$f"; fi; done | xargs -0 -r sha256sum
    rustc -V; wasm-pack --version; node --version
    node -p 'require("./node_modules/binaryen/package.json").version + " " + require("./node_modules/typescript/package.json").version'
    env | grep -E '^(RUSTFLAGS|RUSTC|CARGO_BUILD_|CARGO_PROFILE_|CARGO_TARGET_|CARGO_ENCODED_|WASM_BINDGEN_)' | sort || true
  } | sha256sum | cut -c1-20
}

CACHE="$ROOT/target/pkg-cache"
stamp=""
# Outside a git checkout the inputs cannot be listed: always build.
if [ -z "${CIRRUS_PKG_NO_CACHE:-}" ] && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  stamp=$(pkg_stamp)
  # A cache entry is complete: it is moved into place whole once its build has finished.
  if [ -f "$CACHE/$stamp/package.json" ]; then
    rm -rf "$OUT" && mkdir -p "$(dirname "$OUT")"
    cp -r "$CACHE/$stamp" "$OUT"
    log "package inputs unchanged (stamp $stamp): copied from ${CACHE#"$ROOT"/}/$stamp, not built"
    report_sizes
    exit 0
  fi
fi

BUILD="$ROOT/target/pkg-build/$(printf '%s' "$OUT" | md5sum | cut -c1-12)"
STAGE="$BUILD/stage"
rm -rf "$STAGE" "$OUT"
mkdir -p "$STAGE" "$OUT"

# binaryen from npm (root devDependency, version 132): Debian's binaryen 108 rewrites
# wasm-bindgen's externref table as anyref, which node 20 then refuses at init.
# rustc's target_features section is stripped, so name the features it emits.
# The passes: -Os without binaryen's inlining (rustc already inlined what pays; binaryen's
# inlining grows the gzip), then again until nothing changes. Gzip decides, never raw bytes:
# -Oz gives fewer raw bytes and more gzip (BENCHMARKS.md, SDK "Size").
WASM_OPT=("$ROOT/node_modules/.bin/wasm-opt" --enable-bulk-memory --enable-bulk-memory-opt --enable-sign-ext
  --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue
  -Os --converge --strip-debug --strip-producers --one-caller-inline-max-function-size 0
  --always-inline-max-function-size 0 --flexible-inline-max-function-size 0)

# embed DIR...: DIR/wasm-base64.js, the .wasm in the first DIR as a base64 string (the `node`
# entries' default: no file path and no `import.meta.url` for a server bundler to rewrite),
# and its .d.ts in every DIR (the build's staging directories type-check against it).
embed() {
  node -e '
    const fs = require("fs");
    fs.writeFileSync(process.argv[1] + "/wasm-base64.js", "// cirrus_storefront_bg.wasm, base64 (scripts/build-pkg.sh; js/base64.ts)\nexport default \"" + fs.readFileSync(process.argv[1] + "/cirrus_storefront_bg.wasm").toString("base64") + "\";\n");
  ' "$1"
  for d in "$@"; do printf 'declare const wasm: string;\nexport default wasm;\n' >"$d/wasm-base64.d.ts"; done
}

# build_wasm FEATURES DIR STAGE: one of the package's wasm modules, the crate built with only
# FEATURES (Cargo.toml [features]): wasm-pack into $BUILD/raw-DIR, wasm-opt into $OUT/DIR
# (DIR "": $OUT itself), its glue and snippets beside it (the glue ships as wasm-bindgen
# wrote it: text rewrites of it and minified import/export names were measured at -1.5 KB gz
# in all and rejected, BENCHMARKS.md, SDK size), the glue's typings in STAGE (tsc compiles the
# entries there), the base64 copy (embed).
build_wasm() {
  local features=$1 out="$OUT${2:+/$2}" stage=$3 raw="$BUILD/raw${2:+-$2}"
  log "wasm-pack build --release --target web --no-default-features --features \"$features\" (${2:-root} entry)"
  rm -rf "$raw" && mkdir -p "$raw" "$out" "$stage"
  # Multi-value returns: the glue reads results from the returned array instead of a
  # stack slot per export (~300 B less JS gzip; node >= 16 and every current browser).
  WASM_BINDGEN_MULTI_VALUE=1 wasm-pack --quiet build --release --target web --no-pack --out-dir "$raw" \
    --out-name cirrus_storefront -- --no-default-features --features "$features" >/dev/null
  "${WASM_OPT[@]}" "$raw/cirrus_storefront_bg.wasm" -o "$out/cirrus_storefront_bg.wasm"
  cp "$raw/cirrus_storefront.js" "$raw/cirrus_storefront.d.ts" "$raw/cirrus_storefront_bg.wasm.d.ts" "$out/"
  if [ -d "$raw/snippets" ]; then cp -r "$raw/snippets" "$out/"; fi   # inline_js / module imports, if any
  cp "$raw/cirrus_storefront.d.ts" "$raw/cirrus_storefront_bg.wasm.d.ts" "$stage/"
  embed "$out" "$stage"
}

# The root entry's wasm (wasm-opt flags: WASM_OPT above): the client, the cart, money, the
# storefront helpers; no checkout.
build_wasm "client cart storefront" "" "$STAGE"
# The hand-written JS-only interfaces the glue's cart and checkout types import (js/generated/).
cp js/interfaces.d.ts "$OUT/"
cp js/*.ts "$STAGE/"

# The checkout module (pkg/checkout/): `Checkout` and its lock, fetched and instantiated by the
# root entry's `Checkout` on the first start/resume (js/lazy-checkout.ts), so a page that never
# checks out loads none of it. Its glue's types import the JS-only interfaces as
# "./interfaces.js" (the root's copy, re-exported) and the client's and the cart's types from
# "../cirrus_storefront.js" (src/wasm/checkout_split.rs).
build_wasm checkout checkout "$STAGE/checkout"
echo 'export * from "../interfaces.js";' >"$OUT/checkout/interfaces.d.ts"
cp "$OUT/checkout/interfaces.d.ts" "$STAGE/checkout/"

cp pkg-template/tsconfig.json "$STAGE/"
log "tsc (entry points)"
"$ROOT/node_modules/.bin/tsc" -p "$STAGE/tsconfig.json" --outDir "$OUT"

# `cirrus-storefront/client`: the catalog client alone (and the storefront helpers), with the
# wasm built without the cart and the checkout, for pages that only read the catalog.
# Same TypeScript, compiled next to that build's glue, js/client-entry.ts as its index.ts.
STAGEC="$BUILD/stage-client"
rm -rf "$STAGEC"
build_wasm "client storefront" client "$STAGEC"
# The client's entries are the root's without the cart and checkout: js/client-entry.ts as its
# index.ts, js/node-entry.ts as its node.ts, js/edge-entry.ts as its edge.ts.
cp js/*.ts "$STAGEC/" && cp js/client-entry.ts "$STAGEC/index.ts"
cp js/node-entry.ts "$STAGEC/node.ts" && cp js/edge-entry.ts "$STAGEC/edge.ts"
echo 'export const ENTRY = "cirrus-storefront/client";' >"$STAGEC/entry-name.ts"

# cirrus-storefront/cart-summary, /picker, /store and /react are the root's
sed 's/, "cart-summary.ts", "picker.ts", "store.ts", "react.ts"//' pkg-template/tsconfig.json >"$STAGEC/tsconfig.json"
"$ROOT/node_modules/.bin/tsc" -p "$STAGEC/tsconfig.json" --outDir "$OUT/client"

# `cirrus-storefront/search` (issue 42): the `SearchIndex` class alone, its wasm built from the
# feature `search` (no client, cart or checkout), js/search-entry.ts as its index.ts and the
# client's host entries as its node.ts and edge.ts. Staged under the root's stage, like the
# checkout module, since its types import `Product` and `MinorUnits` from "../cirrus_storefront.js".
STAGES="$STAGE/search"
build_wasm search search "$STAGES"
cp js/*.ts "$STAGES/" && cp js/search-entry.ts "$STAGES/index.ts"
cp js/node-entry.ts "$STAGES/node.ts" && cp js/edge-entry.ts "$STAGES/edge.ts"
echo 'export const ENTRY = "cirrus-storefront/search";' >"$STAGES/entry-name.ts"
# With it, compiled against its types and shipped beside it: cirrus-storefront/search/store
# (js/search-store.ts: the plain-JS search store, no wasm) and cirrus-storefront/search/react
# (js/search-react.ts: its React hooks), so the root's React entry carries no search code.
sed 's/, "cart-summary.ts", "picker.ts", "store.ts", "react.ts"/, "search-store.ts", "search-react.ts"/' pkg-template/tsconfig.json >"$STAGES/tsconfig.json"
"$ROOT/node_modules/.bin/tsc" -p "$STAGES/tsconfig.json" --outDir "$OUT/search"

# The guarded wrappers' declarations carry the doc comment of the function they wrap (the Rust
# doc comment in the glue's .d.ts): scripts/carry-docs.mjs.
node scripts/carry-docs.mjs "$OUT" "$OUT/client" "$OUT/search"

# Processor adapters (js/adapters/, issue 5) as subpath exports (`cirrus-storefront/adapters/…`),
# so the main entry never pulls in @stripe/stripe-js; declarations come from their JSDoc.
mkdir -p "$OUT/adapters"
cp js/adapters/*.js "$OUT/adapters/"
"$ROOT/node_modules/.bin/tsc" --allowJs --declaration --emitDeclarationOnly --target es2022 --module esnext \
  --moduleResolution bundler --lib es2022,dom --outDir "$OUT/adapters" js/adapters/index.js

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
description=$(sed -n 's/^description = "\(.*\)"/\1/p' Cargo.toml | head -1)
license=$(sed -n 's/^license = "\(.*\)"/\1/p' Cargo.toml | head -1)
sed -e "s|@VERSION@|$version|" -e "s|@DESCRIPTION@|${description//|/\\|}|" -e "s|@LICENSE@|$license|" \
  pkg-template/package.json >"$OUT/package.json"
cp pkg-template/README.md "$OUT/README.md"

# Kept for the next call with the same inputs, unless an input changed while this one built
# (then the build may be of neither). The three newest builds are kept.
if [ -n "$stamp" ] && [ "$(pkg_stamp)" = "$stamp" ]; then
  mkdir -p "$CACHE"
  tmp=$(mktemp -d "$CACHE/.tmp-XXXXXX") && chmod 755 "$tmp"
  cp -r "$OUT/." "$tmp/"
  mv -T "$tmp" "$CACHE/$stamp" 2>/dev/null || rm -rf "$tmp"   # another run kept the same build first
  ls -1dt "$CACHE"/*/ | tail -n +4 | xargs -r rm -rf
fi
report_sizes
