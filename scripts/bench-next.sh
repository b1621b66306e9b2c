#!/usr/bin/env bash
# The budgets of the Next.js template (templates/next/, issue 32), on its production build
# (`next build` + `next start`) against a fresh dev server and localstripe, ports shifted by
# CIRRUS_PORT_OFFSET:
#   1. what each page gets of the SDK (scripts/bench-next.mjs weights): JS of the SDK and SDK
#      .wasm (gzip -9) on home, a collection, a product, cart and checkout, cold, then idle;
#      home and collection with the badge showing the stored count must request no .wasm and
#      at most 5 KB of the SDK's JS;
#   2. a click on "Add to cart" at the product page's load event, until the badge counts it,
#      under Lighthouse's mobile throttling applied through the DevTools protocol (CPU 4x,
#      1.6 Mbps, 150 ms RTT): the median of BENCH_CLICK_RUNS (default 5) <= 300 ms;
#   3. Lighthouse mobile on home, the collection and the product (home and collection with one
#      item in the stored cart): the median of BENCH_RUNS (default 5, as Lighthouse's docs advise
#      for its run-to-run variance) runs; performance >= 98,
#      accessibility, best practices and SEO 100, CLS 0; then the pages' main-thread CPU
#      (scripts/bench-cpu.mjs, BENCH_CPU_RUNS cold loads each, default 5), which a loaded
#      machine does not inflate as it does Lighthouse's wall-clock TBT.
# Prints the tables; exits non-zero when a budget is missed (every part runs first).
# Usage: scripts/bench-next.sh   (BENCH_PARTS="weights click lighthouse", BENCH_PKG=DIR: a built package)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$ROOT/scripts/next-template.sh"
cd "$ROOT"
RUNS=${BENCH_RUNS:-5} CLICK_RUNS=${BENCH_CLICK_RUNS:-5} PARTS=${BENCH_PARTS:-weights click lighthouse}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive integer, got '$RUNS'"
ensure_wasm_toolchain
ensure_chromium
ensure_python_tools
ensure_node_modules
[[ $PARTS == *lighthouse* ]] && ensure_lighthouse

W="$RUN_DIR/bench-next"
rm -rf "$W" && mkdir -p "$W"
if [ -n "${BENCH_PKG:-}" ]; then
  (cd "$BENCH_PKG" && npm pack --silent --pack-destination "$W" >/dev/null)
  tarball=$(ls "$W"/cirrus-storefront-*.tgz)
else
  tarball=$(pack_sdk "$W")
fi
# The bench's copy keeps source maps, so the SDK's share of each chunk can be told apart.
NEXT_SOURCE_MAPS=1 build_template "$W/app" "$tarball"

trap 'stop_template; stop_services' EXIT
key=$(new_api_key)
export CIRRUS_API_KEY="$key"
start_localstripe "$(P 18470)"
build_server
start_server "$(P 18797)" CIRRUS_API_KEY="$key" CIRRUS_FRONTEND_DOMAIN="127.0.0.1:$(P 3406)"
start_template "$W/app" "$(P 3406)"
site=${NEXT_SITE%/}
api() { curl -sf -H "Authorization: Bearer $key" "$CIRRUS_BASE_URL$1"; }
json_of() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const b=JSON.parse(s);console.log(eval(process.argv[1]))})' "$1"; }
# a product with options and a variant in stock, a root collection (read from the API: they follow the seed)
product=$(api '/products?limit=100' | json_of 'b.products.find(p=>p.slug!=="xss-probe"&&p.options.length>0&&p.variants.some(v=>v.stockStatus==="IN_STOCK"&&v.stockQuantity>5)).slug')
collection=$(api '/collections' | json_of 'b.collections.find(c=>c.parent===null).slug')
for path in / "/collections/$collection" "/products/$product"; do curl -s -o /dev/null "$site$path"; done # warm the server's caches

failed=()
if [[ $PARTS == *weights* ]]; then
  log "what each page gets of the SDK (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  node scripts/bench-next.mjs weights "$site" "$product" "$collection" || failed+=(weights)
fi
if [[ $PARTS == *click* ]]; then
  log "\"Add to cart\" at the load event, throttled (CPU 4x, 1.6 Mbps, 150 ms RTT)"
  node scripts/bench-next.mjs click "$site" "$product" "$CLICK_RUNS" || failed+=(click)
fi
if [[ $PARTS == *lighthouse* ]]; then
  OUT="$ROOT/artifacts/lighthouse/next"
  rm -rf "$OUT" && mkdir -p "$OUT"
  log "lighthouse $LIGHTHOUSE_VERSION mobile: $RUNS run(s) of home, collection, product (load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)"
  for page in home collection product; do
    case $page in
      home) url="$site/" ;; collection) url="$site/collections/$collection" ;; product) url="$site/products/$product" ;;
    esac
    for ((i = 1; i <= RUNS; i++)); do
      profile="$W/lighthouse-profile"
      rm -rf "$profile"
      flags=()
      if [ "$page" != product ]; then # the badge shows the stored count
        node scripts/bench-next.mjs cart-profile "$site" "$product" "$profile"
        flags+=(--disable-storage-reset)
      fi
      run_lighthouse "$url" "$OUT/mobile-$page-$i.json" "$profile" ${flags[@]+"${flags[@]}"}
      printf '.' >&2
    done
  done
  echo >&2
  table=$(node scripts/lighthouse-table.mjs "$OUT" "$RUNS" mobile "home collection product")
  echo "$table"
  # performance >= 98, the other three 100, CLS 0 (columns: preset page perf a11y bp seo LCP CLS ...)
  echo "$table" | awk -F' \\| ' '/^\| mobile/ { if ($3 < 98 || $4 < 100 || $5 < 100 || $6 < 100 || $8 != "0.000") bad = 1 } END { exit bad }' || failed+=(lighthouse)
  # Lighthouse's TBT is wall-clock time and grows with the machine's load; main-thread CPU
  # (thread time, unthrottled, cold loads with an empty cart) grows far less: the figure to compare builds with.
  echo
  node scripts/bench-cpu.mjs "${BENCH_CPU_RUNS:-5}" "$site/" "$site/collections/$collection" "$site/products/$product"
fi
[ ${#failed[@]} -eq 0 ] || die "budgets missed: ${failed[*]}"
log "every budget met"
