#!/usr/bin/env bash
# Size: what a storefront page loads of the SDK, measured like issue 17's table. Three small
# apps, bundled by esbuild --bundle --minify (the .wasm through esbuild's file loader), are
# loaded in headless Chromium against fixture answers (captured from the dev server once per
# run); the figure is gzip -9 of every .js and .wasm the page requested
# (tests/size/page-weight.mjs):
#   catalog   init + CirrusClient from cirrus-storefront/client: store() and a page of products
#   product   init + CirrusClient + Cart from cirrus-storefront: a product, a cart line,
#             shipping options
#   checkout  the product page + Checkout (Checkout.resume with a stub adapter), which fetches
#             the checkout's own wasm module (pkg/checkout/) on that first call; the product
#             page must request no checkout wasm, the checkout page the root entry's wasm and
#             the checkout's, each once (the run fails otherwise)
# Peers, measured the same way in the same run: each SDK's app lists a page of products
# (their requests are answered 404 by the fixture server; only what loads counts). The peers
# are pinned (PEERS below) and installed once into target/bench-size/peers.
# Writes docs/page-weights.svg (the README's chart) from the figures of this run, and prints
# the figures for BENCHMARKS.md. Also prints the package-level rows (wasm and JS bundle of
# each entry) that earlier sessions recorded.
# Usage: CIRRUS_PORT_OFFSET=N scripts/bench-size.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_chromium
ensure_python_tools
ensure_node_modules
W="$ROOT/target/bench-size"
P="$W/pkg"   # its own build: other runs may rebuild pkg/ meanwhile
mkdir -p "$W"
log "building the package (scripts/build-pkg.sh)"
CIRRUS_PKG_OUT="$P" bash scripts/build-pkg.sh >"$W/build.log" 2>&1 \
  || { tail -20 "$W/build.log"; die "scripts/build-pkg.sh failed"; }

ESBUILD="$ROOT/node_modules/.bin/esbuild"
gz() { gzip -9c | wc -c; }
# bundle ENTRY [--minify]: the JS an app importing ENTRY ships, on stdout
bundle() { "$ESBUILD" "$1" --bundle --format=esm --platform=browser --log-level=error "${@:2}"; }

# ---------------------------------------------------------------- fixtures
log "fixture answers from the dev server"
FX="$W/fixtures"
rm -rf "$FX" && mkdir -p "$FX"
API_KEY="$(new_api_key)"
trap stop_services EXIT
start_localstripe $(P 18421)
build_server
start_server $(P 18791) CIRRUS_API_KEY="$API_KEY"
get() { curl -sf -H "Authorization: Bearer $API_KEY" "$@"; }
get "$CIRRUS_BASE_URL/store" -o "$FX/store.json"
get "$CIRRUS_BASE_URL/products?limit=12&minimal=true" -o "$FX/products.json"
slug=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).products[0].slug' "$FX/products.json")
get "$CIRRUS_BASE_URL/products/slug/$slug" -o "$FX/products-slug.json"
variant=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).product.variants[0].id' "$FX/products-slug.json")
get -X POST -H 'Content-Type: application/json' -d "{\"variantIds\":[\"$variant\"],\"country\":\"US\"}" \
  "$CIRRUS_BASE_URL/shipping-rates" -o "$FX/shipping-rates.json"
stop_services || true   # (lib.sh: `wait` on a killed pid returns 143)
trap - EXIT

# ---------------------------------------------------------------- our three pages
A="$W/apps"
rm -rf "$A" && mkdir -p "$A/node_modules"
ln -s "$P" "$A/node_modules/cirrus-storefront"
cat >"$A/catalog.mjs" <<'JS'
import { init, CirrusClient } from "cirrus-storefront/client";
import wasm from "cirrus-storefront/client/cirrus_storefront_bg.wasm";
try {
  await init(new URL(wasm, import.meta.url));
  const client = new CirrusClient({ baseUrl: `${location.origin}/api/v1`, apiKey: `ak_${"0".repeat(48)}` });
  const [store, page] = await Promise.all([client.store(), client.products({ limit: 12, minimal: true })]);
  window.__done = `${page.products.length} products of ${store.name}`;
} catch (e) { window.__done = { error: String(e) }; }
JS
cat >"$A/product.mjs" <<'JS'
import { init, CirrusClient, Cart } from "cirrus-storefront";
import wasm from "cirrus-storefront/cirrus_storefront_bg.wasm";
export async function productPage() {
  await init(new URL(wasm, import.meta.url));
  const client = new CirrusClient({ baseUrl: `${location.origin}/api/v1`, apiKey: `ak_${"0".repeat(48)}` });
  const product = await client.productBySlug("any");
  const cart = new Cart("USD");
  cart.add(product, product.variants[0].id, 1);
  const options = cart.shippingOptions(await client.shippingRates({ variantIds: [product.variants[0].id], country: "US" }));
  return { client, note: `${cart.totals.itemCount} item(s), ${options.length} shipping option(s)` };
}
if (!window.__checkoutPage) productPage().then((r) => { window.__done = r.note; }, (e) => { window.__done = { error: String(e) }; });
JS
cat >"$A/checkout.mjs" <<'JS'
import { Checkout, setCheckoutWasm } from "cirrus-storefront";
import checkoutWasm from "cirrus-storefront/checkout/cirrus_storefront_bg.wasm";
window.__checkoutPage = true;
const { productPage } = await import("./product.mjs");
const adapter = { mount: async () => {}, updateAmount: async () => {}, collectToken: async () => "tok", handleNextAction: async () => {} };
productPage().then(async (r) => {
  // esbuild does not emit `new URL(…, import.meta.url)` assets: the file loader's URL instead.
  setCheckoutWasm(new URL(checkoutWasm, import.meta.url));
  const resumed = await Checkout.resume(r.client, { adapter });
  window.__done = `${r.note}; nothing to resume: ${resumed === null}`;
}).catch((e) => { window.__done = { error: String(e) }; });
JS
page() { # page NAME ENTRY: bundles ENTRY into $W/pages/NAME with an index.html
  local d="$W/pages/$1"
  rm -rf "$d" && mkdir -p "$d"
  "$ESBUILD" "$2" --bundle --minify --format=esm --platform=browser --splitting=false --loader:.wasm=file \
    --outdir="$d" --entry-names=app --asset-names='[name]-[hash]' --log-level=error
  printf '<!doctype html><meta charset="utf-8"><script type="module" src="app.js"></script>\n' >"$d/index.html"
}
page catalog "$A/catalog.mjs"
page product "$A/product.mjs"
page checkout "$A/checkout.mjs"

# ---------------------------------------------------------------- peers
PEERS=(@medusajs/js-sdk@2.21.2 swell-js@5.8.1 @chec/commerce.js@2.8.0)
PD="$W/peers"
if [ "$(cat "$PD/.installed" 2>/dev/null)" != "${PEERS[*]}" ]; then
  rm -rf "$PD" && mkdir -p "$PD" && echo '{ "name": "peers", "private": true, "type": "module" }' >"$PD/package.json"
  (cd "$PD" && npm install --silent --no-audit --no-fund --save-exact "${PEERS[@]}" >/dev/null) || die "npm install of the peers failed"
  echo "${PEERS[*]}" >"$PD/.installed"
fi
# Each peer's app: construct the client, list a page of products (the answer is a 404 here).
cat >"$PD/medusa.mjs" <<'JS'
import Medusa from "@medusajs/js-sdk";
const sdk = new Medusa({ baseUrl: location.origin, publishableKey: "pk_x" });
sdk.store.product.list({ limit: 12 }).then(() => {}, () => {}).finally(() => { window.__done = "listed"; });
JS
cat >"$PD/swell.mjs" <<'JS'
import swell from "swell-js";
swell.init("store", "pk_x", { url: location.origin });
swell.products.list({ limit: 12 }).then(() => {}, () => {}).finally(() => { window.__done = "listed"; });
JS
cat >"$PD/commerce.mjs" <<'JS'
import Commerce from "@chec/commerce.js";
const commerce = new Commerce("pk_x", false, { url: location.origin });
commerce.products.list({ limit: 12 }).then(() => {}, () => {}).finally(() => { window.__done = "listed"; });
JS
page medusa "$PD/medusa.mjs"
page swell "$PD/swell.mjs"
page commerce "$PD/commerce.mjs"

log "loading the pages in headless Chromium"
node tests/size/page-weight.mjs "$FX" catalog="$W/pages/catalog" product="$W/pages/product" checkout="$W/pages/checkout" \
  medusa="$W/pages/medusa" swell="$W/pages/swell" commerce="$W/pages/commerce" >"$W/weights.json"

# ---------------------------------------------------------------- report and chart
node - "$W/weights.json" "$PD" "$W/figures.json" <<'JS'
const fs = require("fs");
const [weights, pd, out] = process.argv.slice(2);
const w = JSON.parse(fs.readFileSync(weights, "utf8"));
const kb = (b) => Math.round(b / 100) / 10;
const version = (n) => JSON.parse(fs.readFileSync(`${pd}/node_modules/${n}/package.json`, "utf8")).version;
// The checkout's wasm module is loaded only by the page that uses Checkout, once.
const wasmOf = (name) => Object.entries(w[name].requests).filter(([f]) => f.endsWith(".wasm"));
if (wasmOf("product").length !== 1) throw new Error(`the product page requested ${JSON.stringify(wasmOf("product"))}: not only the root entry's wasm`);
const cw = wasmOf("checkout");
if (cw.length !== 2 || cw.some(([, n]) => n !== 1)) throw new Error(`the checkout page requested ${JSON.stringify(cw)}: not the two wasm modules once each`);
const pages = [
  { name: "catalog", label: "catalog page", budgetKb: 50 },
  { name: "product", label: "product page", budgetKb: 75 },
  { name: "checkout", label: "checkout page", budgetKb: 110 },
].map((p) => ({ ...p, kb: kb(w[p.name].bytes), bytes: w[p.name].bytes }));
const peers = [["medusa", "@medusajs/js-sdk"], ["swell", "swell-js"], ["commerce", "@chec/commerce.js"]]
  .map(([k, name]) => ({ name, version: version(name), kb: kb(w[k].bytes), bytes: w[k].bytes }));
console.log("page       gzip -9 of every .js and .wasm requested        budget");
for (const p of pages) {
  console.log(`${p.name.padEnd(10)} ${String(p.bytes).padStart(7)} B = ${p.kb.toFixed(1).padStart(5)} KB   <= ${p.budgetKb} KB ${p.kb <= p.budgetKb ? "(within)" : "(OVER)"}`);
  for (const [f, b] of Object.entries(w[p.name].files)) console.log(`             ${f} ${b} B`);
  console.log(`             app: ${w[p.name].note}`);
}
for (const p of peers) console.log(`peer ${`${p.name} ${p.version}`.padEnd(26)} ${String(p.bytes).padStart(7)} B = ${p.kb.toFixed(1).padStart(5)} KB`);
fs.writeFileSync(out, JSON.stringify({ pages, peers, date: new Date().toISOString().slice(0, 10) }, null, 1));
JS
node tests/size/chart.mjs "$W/figures.json" docs/page-weights.svg
log "wrote docs/page-weights.svg (commit it with the figures in README.md and BENCHMARKS.md)"

# ---------------------------------------------------------------- package rows
cat >"$W/all.mjs" <<EOF
export * from "$P/index.js";
EOF
cat >"$W/client-only.mjs" <<EOF
export * from "$P/client/index.js";
EOF
row() { # row LABEL WASM ENTRY
  local w js
  w=$(gz <"$2"); js=$(bundle "$3" --minify | gz)
  printf '%-26s wasm %6d B raw, %6d B gz | JS bundle minified %6d B gz | %.1f KB\n' "$1" "$(wc -c <"$2")" "$w" "$js" \
    "$(echo "($w + $js) / 1000" | bc -l)"
}
echo "package-level (export * of the entry, bundled --minify; not a page):"
row "cirrus-storefront" "$P/cirrus_storefront_bg.wasm" "$W/all.mjs"
row "cirrus-storefront/client" "$P/client/cirrus_storefront_bg.wasm" "$W/client-only.mjs"
printf '%-26s wasm %6d B raw, %6d B gz (fetched on the first Checkout.start/resume)\n' "checkout module" \
  "$(wc -c <"$P/checkout/cirrus_storefront_bg.wasm")" "$(gz <"$P/checkout/cirrus_storefront_bg.wasm")"
