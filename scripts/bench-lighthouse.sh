#!/usr/bin/env bash
# Lighthouse of the demo storefront: performance, accessibility, best practices, SEO,
# LCP, CLS, TBT and transferred bytes of home, a collection, a product, a CMS page and
# checkout (with one item in the cart), mobile (Lighthouse's default: simulated slow 4G,
# 4x CPU) and desktop (--preset=desktop); the median of N runs (default 3) of each,
# metric by metric. Lighthouse is the npm registry's, pinned exactly (installed once
# under .cirrus/), run against Debian's /usr/bin/chromium, headless.
#
# It builds the package, the page and the server of this checkout and serves them like
# scripts/demo.sh (dev server + localstripe, fresh in-memory database), on ports shifted
# by CIRRUS_PORT_OFFSET.
#
# Usage: scripts/bench-lighthouse.sh
#   BENCH_RUNS=3                    runs per page and preset
#   BENCH_PRESETS="mobile desktop"  BENCH_PAGES="home collection product cms checkout"
#   BENCH_LABEL=NAME                where the reports go: artifacts/lighthouse/NAME/
#   BENCH_RESUME=1                  keep the reports already there, run only the missing ones
#   BENCH_PKG=DIR                   an already built package (else scripts/build-pkg.sh builds one)
#   BENCH_CPU_RUNS=5                cold loads per page (checkout excepted) for the main-thread CPU
#                                   table (scripts/bench-cpu.mjs) printed after Lighthouse's
# To measure another build in the same conditions (a baseline): BENCH_WWW_DIR=DIR (a built
# page, any API key: its config.json gets this run's key), BENCH_SERVER_BIN=FILE, and
# BENCH_HASH_ROUTES=1 for a page with #/ routes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
trap stop_services EXIT
cd "$ROOT"

RUNS=${BENCH_RUNS:-3}
PRESETS=${BENCH_PRESETS:-mobile desktop}
PAGES=${BENCH_PAGES:-home collection product cms checkout}
LABEL=${BENCH_LABEL:-current}
LS_PORT=$(P 18467) SERVER_PORT=$(P 18787)
OUT="$ROOT/artifacts/lighthouse/$LABEL"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive integer, got '$RUNS'"

ensure_chromium
ensure_python_tools
ensure_node_modules
ensure_lighthouse

key=$(new_api_key)
if [ -n "${BENCH_WWW_DIR:-}" ]; then
  www_dir="$RUN_DIR/lighthouse-www-$LABEL"
  rm -rf "$www_dir"; cp -r "$BENCH_WWW_DIR" "$www_dir"
  node -e 'const f = process.argv[1], c = JSON.parse(require("fs").readFileSync(f, "utf8")); c.apiKey = process.argv[2]; c.localstripeUrl = process.argv[3]; require("fs").writeFileSync(f, JSON.stringify(c))' \
    "$www_dir/config.json" "$key" "http://127.0.0.1:$LS_PORT"
  sed -i "s#http://127.0.0.1:[0-9]*#http://127.0.0.1:$LS_PORT#g" "$www_dir/index.html"
else
  log "building the package, the page and the server"
  pkg="${BENCH_PKG:-$RUN_DIR/lighthouse-pkg}"
  [ -n "${BENCH_PKG:-}" ] || CIRRUS_PKG_OUT="$pkg" "$ROOT/scripts/build-pkg.sh" >/dev/null
  www_dir="$RUN_DIR/lighthouse-www"
  node www/build.mjs --pkg "$pkg" --out "$www_dir" --api-key "$key" --processor localstripe --localstripe "http://127.0.0.1:$LS_PORT" >/dev/null
  build_server
fi
server_bin=${BENCH_SERVER_BIN:-$ROOT/target/server/cirrus-dev-server}
[ -x "$server_bin" ] || die "no server binary at $server_bin"

start_localstripe "$LS_PORT"
port_free "$SERVER_PORT" || die "port $SERVER_PORT is in use"
env CIRRUS_ADDR="127.0.0.1:$SERVER_PORT" CIRRUS_DB=":memory:" CIRRUS_API_KEY="$key" CIRRUS_WWW_DIR="$www_dir" \
  STRIPE_API_BASE="$LOCALSTRIPE_URL" "$server_bin" >"$RUN_DIR/server-$SERVER_PORT.log" 2>&1 &
SERVICE_PIDS+=($!)
wait_http "http://127.0.0.1:$SERVER_PORT/api/v1/store" 60 || die "dev server did not start (see $RUN_DIR/server-$SERVER_PORT.log)"
site="http://127.0.0.1:$SERVER_PORT"
# Warm the server (it compresses the page's files once, in the background).
curl -s -o /dev/null -H 'Accept-Encoding: br' "$site/"

# The pages: read from the API, so they follow the seed.
api() { curl -sf -H "Authorization: Bearer $key" "$site/api/v1$1"; }
json_of() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const b=JSON.parse(s);console.log(eval(process.argv[1]))})' "$1"; }
# a product with a variant in stock (checkout puts it in the cart), a root collection, a CMS page
product=$(api '/products?limit=100' | json_of 'b.products.find(p=>p.slug!=="xss-probe"&&p.variants.some(v=>v.stockStatus==="IN_STOCK"&&v.stockQuantity>0)).slug')
collection=$(api '/collections' | json_of 'b.collections.find(c=>c.parent===null).slug')
cms=$(api '/pages' | json_of 'b.pages[0].slug')
pre=""; [ "${BENCH_HASH_ROUTES:-0}" = 1 ] && pre="/#"
url_of() {
  case $1 in
    home) echo "$site/" ;;
    collection) echo "$site$pre/collections/$collection" ;;
    product) echo "$site$pre/products/$product" ;;
    cms) echo "$site$pre/pages/$cms" ;;
    checkout) echo "$site$pre/checkout" ;;
    *) die "unknown page $1 (home collection product cms checkout)" ;;
  esac
}
# Checkout with one item in the cart: the SDK's saved cart (localStorage), put there by
# a first visit to the product page with the script below (Lighthouse keeps storage with
# --disable-storage-reset; every other page is measured with storage cleared).
cart_item=$product

[ "${BENCH_RESUME:-0}" = 1 ] || rm -rf "$OUT"
mkdir -p "$OUT"
log "lighthouse $LIGHTHOUSE_VERSION: $RUNS run(s) of [$PAGES] x [$PRESETS] against $site (load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)"
for preset in $PRESETS; do
  for page in $PAGES; do
    url=$(url_of "$page")
    for ((i = 1; i <= RUNS; i++)); do
      flags=()
      [ "$preset" = desktop ] && flags+=(--preset=desktop)
      [ "$preset" = mobile ] || [ "$preset" = desktop ] || die "unknown preset $preset (mobile desktop)"
      profile="$RUN_DIR/lighthouse-profile"
      rm -rf "$profile"
      if [ "$page" = checkout ]; then
        node scripts/lighthouse-cart.mjs "$site$pre" "$cart_item" "$profile" >/dev/null
        flags+=(--disable-storage-reset)
      fi
      report="$OUT/$preset-$page-$i.json"
      [ "${BENCH_RESUME:-0}" = 1 ] && [ -s "$report" ] && continue
      run_lighthouse "$url" "$report" "$profile" "${flags[@]}"
      printf '.' >&2
    done
  done
done
echo >&2
log "done (load average $(cut -d' ' -f1-3 /proc/loadavg))"
node scripts/lighthouse-table.mjs "$OUT" "$RUNS" "$PRESETS" "$PAGES"
# Lighthouse's TBT is wall-clock time and grows with the machine's load; the pages' main-thread
# CPU (thread time, unthrottled) grows far less: the figure to compare two builds with.
cpu_urls=()
for page in $PAGES; do [ "$page" = checkout ] || cpu_urls+=("$(url_of "$page")"); done
if [ ${#cpu_urls[@]} -gt 0 ]; then
  echo
  node scripts/bench-cpu.mjs "${BENCH_CPU_RUNS:-5}" "${cpu_urls[@]}"
fi
