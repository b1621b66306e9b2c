# shellcheck shell=bash
# Shared helpers for scripts/*.sh: idempotent installs and service start/stop.
# Source it; do not run it. Every ensure_* step checks what is present first and
# skips it, so a warm machine spends seconds here, a fresh one ~12 minutes.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
WASM_BINDGEN_VERSION="0.2.130"   # must equal the `wasm-bindgen = "=…"` pin in Cargo.toml
WASM_PACK_VERSION="0.15.1"
LOCALSTRIPE_VERSION="1.15.10"
SCHEMATHESIS_VERSION="4.32.5"    # fuzzes the dev server against server/openapi.yaml
export PATH="$HOME/.cargo/bin:$PATH"
RUN_DIR="$ROOT/.cirrus"          # logs, pids, databases of local runs (git-ignored)
mkdir -p "$RUN_DIR"

# new_secret PREFIX BYTES: PREFIX + 2*BYTES random hex (test and demo secrets are generated, never
# committed). Under scripts/test.sh every secret made here is also registered in $CIRRUS_SECRETS_FILE
# (a 0600 file outside the repo), so the run can check that none reaches a log (check_no_secrets).
new_secret() {
  local k
  k="$1$(od -An -N"$2" -tx1 /dev/urandom | tr -d ' \n')"
  [ -n "${CIRRUS_SECRETS_FILE:-}" ] && printf '%s\n' "$k" >>"$CIRRUS_SECRETS_FILE"
  printf '%s\n' "$k"
}
# new_api_key: a fresh, throwaway `ak_` + 48 hex API key.
new_api_key() { new_secret ak_ 24; }

# check_no_secrets OUTPUT_FILE: fails (non-zero, naming the places, never the secret) if a secret
# registered in $CIRRUS_SECRETS_FILE appears in OUTPUT_FILE (a stage's captured stdout+stderr)
# or in any file under .cirrus/ (server and localstripe logs, databases, built pages) or artifacts/.
check_no_secrets() {
  local out=$1 found=0 f
  [ -s "${CIRRUS_SECRETS_FILE:-}" ] || { log "check_no_secrets: no registered keys (CIRRUS_SECRETS_FILE)"; return 1; }
  if grep -qaF -f "$CIRRUS_SECRETS_FILE" "$out"; then
    log "SECRET LEAK: a secret of the run (API key or webhook secret) appears in the stage's output ($(grep -caF -f "$CIRRUS_SECRETS_FILE" "$out") line(s))"
    found=1
  fi
  while IFS= read -r f; do
    # By design, not a log: a built storefront page's config.json (next to its index.html)
    # carries the storefront key the browser sends (www/build.mjs). Only that file is let through.
    if [ "$(basename "$f")" = config.json ] && [ -f "$(dirname "$f")/index.html" ] \
       && node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.exit(typeof c.apiKey === "string" ? 0 : 1)' "$f"; then
      log "note: ${f#"$ROOT"/} holds the key as the page's apiKey (a built storefront page's config, served to the browser by design)"
      continue
    fi
    log "SECRET LEAK: a secret of the run (API key or webhook secret) appears in ${f#"$ROOT"/} ($(grep -caF -f "$CIRRUS_SECRETS_FILE" "$f") line(s))"
    found=1
  done < <(grep -rlaF -f "$CIRRUS_SECRETS_FILE" "$RUN_DIR" "$ROOT/artifacts" 2>/dev/null || true)
  return $found
}

log() { printf '\033[1m[cirrus]\033[0m %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

apt_updated=0
apt_install() { # apt_install PKG... : installs only the missing ones
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if [ $apt_updated -eq 0 ]; then $sudo apt-get update -q >/dev/null; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" >/dev/null
}

ensure_wasm_toolchain() {
  rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
    || { log "rustup target add wasm32-unknown-unknown"; rustup target add wasm32-unknown-unknown; }
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
    log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 5 minutes, once)"
    # not --locked: its lock file pins a webpki-roots release the registry mirror does not serve
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
  fi
  if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "$WASM_PACK_VERSION" ]; then
    log "cargo install wasm-pack $WASM_PACK_VERSION (about 4 minutes, once)"
    cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force
  fi
  # wasm-opt comes from npm binaryen 132 (root devDependency, ensure_node_modules):
  # Debian's binaryen 108 breaks the externref table for node 20 (BENCHMARKS.md, SDK).
}

LIGHTHOUSE_VERSION="13.5.0"
ensure_lighthouse() { # Lighthouse from the npm registry, pinned exactly, installed once under .cirrus/; sets LH
  local dir="$RUN_DIR/lighthouse-$LIGHTHOUSE_VERSION"
  LH="$dir/node_modules/.bin/lighthouse"
  if [ "$(node -p "require('$dir/node_modules/lighthouse/package.json').version" 2>/dev/null)" != "$LIGHTHOUSE_VERSION" ]; then
    log "installing lighthouse@$LIGHTHOUSE_VERSION from the npm registry into ${dir#"$ROOT"/}"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "lighthouse@$LIGHTHOUSE_VERSION" >/dev/null
  fi
}

# run_lighthouse URL REPORT.json PROFILE_DIR [FLAG...]: one Lighthouse run (performance,
# accessibility, best practices, SEO) in headless /usr/bin/chromium with that profile; its log
# is REPORT's name with .log. Chromium sometimes fails to start on a loaded machine: up to 3 attempts.
run_lighthouse() {
  local url=$1 report=$2 profile=$3 attempt; shift 3
  for attempt in 1 2 3; do
    if CHROME_PATH=/usr/bin/chromium "$LH" "$url" --quiet "$@" \
      --only-categories=performance,accessibility,best-practices,seo \
      --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=$profile" \
      --output=json --output-path="$report" >/dev/null 2>"${report%.json}.log"; then
      return 0
    fi
    rm -f "$report"
    [ "$attempt" = 3 ] && { tail -5 "${report%.json}.log" >&2; die "lighthouse failed 3 times on $url"; }
    log "lighthouse attempt $attempt failed on $url: $(grep -m1 -i error "${report%.json}.log" || true)"
  done
}

ensure_chromium() {
  apt_install chromium chromium-driver
  export CHROMEDRIVER=/usr/bin/chromedriver CHROME_BIN=/usr/bin/chromium
}

# Firefox ESR and WebKitGTK for the engines stage (75-engines), both driven through WebDriver:
# Debian's firefox-esr with geckodriver from crates.io, Debian's WebKitWebDriver (package
# webkit2gtk-driver) under Xvfb (WebKitGTK has no headless mode of its own).
GECKODRIVER_VERSION="0.37.1"
ensure_firefox() {
  apt_install firefox-esr
  if [ "$(geckodriver --version 2>/dev/null | awk 'NR == 1 { print $2 }')" != "$GECKODRIVER_VERSION" ]; then
    log "cargo install geckodriver $GECKODRIVER_VERSION (once; 24 min measured on 2 cores shared with three other builds)"
    cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked --force
  fi
  export GECKODRIVER="$HOME/.cargo/bin/geckodriver" FIREFOX_BIN=/usr/bin/firefox-esr
}

ensure_webkit() {
  apt_install webkit2gtk-driver xvfb xauth
  export WEBKIT_DRIVER=/usr/bin/WebKitWebDriver
}

ensure_localstripe() { # localstripe (offline Stripe) alone, in $ROOT/.venv: what scripts/api.sh needs
  [ -x "$ROOT/.venv/bin/python" ] || { log "python3 -m venv .venv"; python3 -m venv "$ROOT/.venv"; }
  if ! "$ROOT/.venv/bin/python" -c "import importlib.metadata as m; assert m.version('localstripe')=='$LOCALSTRIPE_VERSION'" 2>/dev/null; then
    log "pip install localstripe==$LOCALSTRIPE_VERSION"
    "$ROOT/.venv/bin/pip" install -q "localstripe==$LOCALSTRIPE_VERSION"
  fi
}

ensure_python_tools() { # localstripe and schemathesis (the tests' API fuzzer), in $ROOT/.venv
  ensure_localstripe
  if ! "$ROOT/.venv/bin/python" -c "import importlib.metadata as m; assert m.version('schemathesis')=='$SCHEMATHESIS_VERSION'" 2>/dev/null; then
    log "pip install schemathesis==$SCHEMATHESIS_VERSION"
    "$ROOT/.venv/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION"
  fi
}

ensure_node_modules() { # [DIR]: `npm ci` in DIR, by default the repo's dev tooling (typescript, esbuild, playwright-core, stripe-js types, react + react-dom 19 and their types)
  # Keyed on the content of package.json + package-lock.json (not mtimes: a checkout or a
  # git worktree touches them), so a present, matching install is never redone.
  local dir="${1:-$ROOT}" stamp want
  stamp="$dir/node_modules/.cirrus-stamp"
  want=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -c1-64)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    log "npm ci${1:+ in ${dir#"$ROOT"/}}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) && echo "$want" >"$stamp"
  fi
}

# ------------------------------------------------------------------ services
# Each started service is stopped by stop_services (installed as an EXIT trap).

SERVICE_PIDS=()
stop_services() {
  local pid
  for pid in "${SERVICE_PIDS[@]:-}"; do
    # A service killed by SIGTERM makes `wait` return 143; under `set -e` in an
    # EXIT trap that would turn a passing stage into a failure.
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }
  done
  SERVICE_PIDS=()
}

wait_http() { # wait_http URL [seconds]: until anything answers over HTTP
  local url=$1 t=${2:-60} i
  for ((i = 0; i < t * 10; i++)); do
    curl -s -o /dev/null "$url" && return 0
    sleep 0.1
  done
  return 1
}

# P PORT: PORT shifted by CIRRUS_PORT_OFFSET (default 0), so test runs in separate
# worktrees can run side by side (e.g. CIRRUS_PORT_OFFSET=100).
P() { echo $(( $1 + ${CIRRUS_PORT_OFFSET:-0} )); }

port_free() { ! (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_localstripe PORT: a fresh localstripe bound to loopback.
start_localstripe() {
  local port=${1:-8420}
  port_free "$port" || die "port $port is in use (another localstripe?)"
  log "localstripe on 127.0.0.1:$port"
  # localstripe keeps state in a pickle file; give each run its own, fresh one.
  (cd "$RUN_DIR" && exec "$ROOT/.venv/bin/python" - "$port" >"$RUN_DIR/localstripe-$port.log" 2>&1 <<'PY'
import sys
from aiohttp import web
import localstripe.resources as resources
import localstripe.server as server
port = int(sys.argv[1])
# localstripe pickles its whole store to a fixed /tmp path on every write; keep
# state in memory only, so runs cannot leak into each other and writes stay O(1).
resources.Store.dump_to_disk = lambda self: None
web.run_app(server.app, host="127.0.0.1", port=port, print=None)
PY
  ) &
  SERVICE_PIDS+=($!)
  wait_http "http://127.0.0.1:$port/js.stripe.com/v3/" 30 || die "localstripe did not start (see $RUN_DIR/localstripe-$port.log)"
  # Start from an empty store even if a pickle survived somewhere.
  curl -s -X DELETE "http://127.0.0.1:$port/_config/data" >/dev/null || true
  export LOCALSTRIPE_URL="http://127.0.0.1:$port"
}

build_server() {
  (cd "$ROOT" && cargo build -q -p cirrus-dev-server --profile server) || die "server build failed"
}

# start_server PORT [ENV=VALUE ...]: the dev server on loopback with a fresh
# in-memory database (unless CIRRUS_DB is given), talking to $LOCALSTRIPE_URL.
# CIRRUS_TEST_HOOKS=1 among the arguments becomes the server's --test-hooks flag
# (the server ignores the variable: hooks are asked for per process, never inherited).
# With a local localstripe (LOCALSTRIPE_URL on 127.0.0.1) the server's webhook endpoint
# (POST /api/v1/webhooks/stripe) is registered there under a fresh per-run secret
# (STRIPE_WEBHOOK_SECRET, made by new_secret).
start_server() {
  local port=$1; shift
  port_free "$port" || die "port $port is in use"
  log "dev server on 127.0.0.1:$port"
  local envs=() flags=() a whsec=""
  for a in "$@"; do
    if [ "$a" = CIRRUS_TEST_HOOKS=1 ]; then flags+=(--test-hooks); else envs+=("$a"); fi
  done
  if [[ ${LOCALSTRIPE_URL:-} == http://127.0.0.1:* ]]; then
    whsec="$(new_secret whsec_ 32)"
    envs+=(STRIPE_WEBHOOK_SECRET="$whsec")
  fi
  env -u CIRRUS_TEST_HOOKS CIRRUS_ADDR="127.0.0.1:$port" CIRRUS_DB="${CIRRUS_DB:-:memory:}" \
      STRIPE_API_BASE="${LOCALSTRIPE_URL:-http://127.0.0.1:8420}" ${envs[@]+"${envs[@]}"} \
      "$ROOT/target/server/cirrus-dev-server" ${flags[@]+"${flags[@]}"} >"$RUN_DIR/server-$port.log" 2>&1 &
  SERVICE_PIDS+=($!)
  wait_http "http://127.0.0.1:$port/api/v1/store" 60 || die "dev server did not start (see $RUN_DIR/server-$port.log)"
  [ -z "$whsec" ] || register_webhook "$port" "$whsec"
  export CIRRUS_BASE_URL="http://127.0.0.1:$port/api/v1"
}

# register_webhook PORT SECRET: localstripe sends its PaymentIntent events (about 1 s after
# they happen, signed with SECRET) to the dev server on PORT. Registrations live in
# localstripe's memory: one per server port, replaced when that port's server starts again.
register_webhook() {
  local body
  body=$(printf '{"url":"http://127.0.0.1:%s/api/v1/webhooks/stripe","secret":"%s","events":["payment_intent.succeeded","payment_intent.payment_failed"]}' "$1" "$2")
  curl -sf -X POST "$LOCALSTRIPE_URL/_config/webhooks/cirrus-dev-server-$1" -H 'Content-Type: application/json' --data @- <<<"$body" >/dev/null \
    || die "cannot register the dev server's webhook with localstripe at $LOCALSTRIPE_URL"
  log "webhook: localstripe -> http://127.0.0.1:$1/api/v1/webhooks/stripe"
}

# Stay in the foreground until a service started here dies or Ctrl-C (which reaches the
# services too): exit 0 when stopped by Ctrl-C/kill (the services stop gracefully on SIGINT),
# 1 when a service failed (scripts/demo.sh, scripts/api.sh).
wait_for_services() {
  local rc=0
  wait -n "${SERVICE_PIDS[@]}" || rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -gt 128 ]; then log "stopped"; exit 0; fi
  log "a service failed with status $rc (see the logs above)"
  exit 1
}
