#!/usr/bin/env bash
# What each wasm of the package is made of: a names-kept build of each (the release profile
# without strip, wasm-bindgen, the package's wasm-opt passes plus --debuginfo), read by
# twiggy 0.8 and grouped by crate and by our module (tests/size/twiggy-groups.mjs).
# Raw bytes of code and data (not gzip): compare shares and before/after, not page weights.
#   scripts/bench-twiggy.sh                      the package's three wasm files (Cargo.toml [features],
#                                                with --no-default-features): `client storefront`
#                                                (client entry), `client cart storefront` (root
#                                                entry), `checkout` (checkout module)
#   scripts/bench-twiggy.sh "client" "default"   named: one cargo feature list per wasm ("default":
#                                                every module in one wasm, as the wasm-bindgen tests build it)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_node_modules
command -v twiggy >/dev/null || { log "cargo install twiggy 0.8.0 (once)"; cargo install twiggy --version 0.8.0 --locked; }
[ $# -gt 0 ] || set -- "client storefront" "client cart storefront" "checkout"
OUT="$ROOT/target/bench-twiggy"
mkdir -p "$OUT"
for features in "$@"; do
  name=${features// /+}
  log "names-kept wasm: features '${features}'"
  CARGO_PROFILE_RELEASE_STRIP=false cargo build -q --release --target wasm32-unknown-unknown --lib \
    --target-dir "$OUT/target" --no-default-features --features "$features"
  WASM_BINDGEN_MULTI_VALUE=1 wasm-bindgen --target web --out-dir "$OUT/$name" --out-name w \
    "$OUT/target/wasm32-unknown-unknown/release/cirrus_storefront.wasm"
  "$ROOT/node_modules/.bin/wasm-opt" --enable-bulk-memory --enable-bulk-memory-opt --enable-sign-ext \
    --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
    -Os --converge --one-caller-inline-max-function-size 0 --always-inline-max-function-size 0 \
    --flexible-inline-max-function-size 0 --debuginfo "$OUT/$name/w_bg.wasm" -o "$OUT/$name.wasm"
  twiggy top -n 100000 --format csv "$OUT/$name.wasm" >"$OUT/$name.csv"
  echo; echo "### wasm with features '${features}' ($OUT/$name.wasm)"; echo
  node "$ROOT/tests/size/twiggy-groups.mjs" "$OUT/$name.csv"
done
