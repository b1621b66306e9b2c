#!/usr/bin/env bash
# Frameworks and runtimes (issue 24): the packed tarball `npm install`ed offline into
# throwaway consumer projects (tests/runtimes/), with no configuration for the SDK, each
# checked against the dev server's own answers:
#   1. Next.js 16 App Router, built with Turbopack and with webpack, started and requested
#      (tests/runtimes/check-next.mjs): server components (root entry; cirrus-storefront/client),
#      a route handler whose one module-level client answers 24 concurrent requests (each its
#      own product or its own abort) in the Node.js runtime and in the edge runtime (both
#      entries; Turbopack only, see below), a server action and a client component with a persistent
#      cart run in headless Chromium (and the CORS hint of a refused cross-origin call);
#   2. a Cloudflare Worker run by `wrangler dev` (local workerd), both entries
#      (tests/runtimes/check-worker.mjs);
#   3. the same script under Deno, Bun and Node (tests/runtimes/scripts/server-script.mjs);
#   4. scripts/api.sh (the API for a frontend of one's own): key file named, never the key;
#      loopback origins allowed by CORS on any port, others not; localstripe's webhook registered.
# Every check runs and is reported; the stage fails at the end if any failed.
# The hosts (next, react, wrangler, deno, bun) are installed once into tests/runtimes/node_modules
# (pinned by its lock file, ensure_node_modules); each project gets a hard-linked copy.
# CIRRUS_RUNTIMES_TARBALL=path.tgz checks that tarball instead of building the package.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_chromium
ensure_node_modules
ensure_node_modules "$ROOT/tests/runtimes"
: "${CIRRUS_API_KEY:=$(new_api_key)}"
export CIRRUS_API_KEY NEXT_TELEMETRY_DISABLED=1 WRANGLER_SEND_METRICS=false DENO_NO_UPDATE_CHECK=1

W="$ROOT/target/stage-45-runtimes"
rm -rf "$W" && mkdir -p "$W"
if [ -n "${CIRRUS_RUNTIMES_TARBALL:-}" ]; then
  tarball="$CIRRUS_RUNTIMES_TARBALL"
else
  CIRRUS_PKG_OUT="$W/pkg" bash scripts/build-pkg.sh
  (cd "$W/pkg" && npm pack --silent --pack-destination "$W" >/dev/null)
  tarball=$(ls "$W"/cirrus-storefront-*.tgz)
fi
log "tarball: $tarball"

GROUPS_STARTED=()   # process groups of `next start` and `wrangler dev` (each runs child processes)
cleanup() {
  local g
  for g in "${GROUPS_STARTED[@]:-}"; do [ -n "$g" ] && kill -- "-$g" 2>/dev/null || true; done
  stop_services
}
trap cleanup EXIT
failed=()

# consumer DIR SRC: a throwaway project with SRC's files, the hosts hard-linked from the cache
# (tests/runtimes/package.json and its lock, so npm keeps them) and the tarball npm-installed.
consumer() {
  rm -rf "$1" && mkdir -p "$1"
  cp -r "$2/." "$1/"
  cp tests/runtimes/package.json tests/runtimes/package-lock.json "$1/"
  cp -al tests/runtimes/node_modules "$1/node_modules"
  (cd "$1" && npm install --no-save --offline --no-audit --no-fund --loglevel=error "$tarball")
}

# serve NAME PORT DIR CMD...: starts CMD in DIR in a process group of its own (log: DIR/NAME.log)
# and waits until PORT answers.
serve() {
  local name=$1 port=$2 dir=$3; shift 3
  port_free "$port" || die "port $port is in use"
  (cd "$dir" && exec setsid "$@" >"$dir/$name.log" 2>&1) &
  GROUPS_STARTED+=($!)
  wait_http "http://127.0.0.1:$port/" 90 || { tail -30 "$dir/$name.log"; return 1; }
}
stop_group() { kill -- "-${GROUPS_STARTED[-1]}" 2>/dev/null || true; wait "${GROUPS_STARTED[-1]}" 2>/dev/null || true; }

build_server
start_server $(P 18793) CIRRUS_API_KEY="$CIRRUS_API_KEY"   # the default CORS: any loopback origin
export CIRRUS_BASE_URL

for bundler in turbopack webpack; do
  t0=$SECONDS
  dir="$W/next-$bundler"
  log "Next.js 16 ($bundler): next build"
  consumer "$dir" tests/runtimes/next-app
  flag=() edge=()
  if [ "$bundler" = webpack ]; then
    # Next 16.4's `next build --webpack` fails on any route handler with `runtime = "edge"`, the
    # SDK or not ("Failed to collect page data": ENOENT …/route_client-reference-manifest.js,
    # seen with a route that only returns Response.json): the edge runtime is checked in the
    # Turbopack build.
    rm -rf "$dir/app/api/edge-product" "$dir/app/api/edge-client"
    flag=(--webpack) edge=(--no-edge)
  fi
  if ! (cd "$dir" && node_modules/.bin/next build "${flag[@]}" >build.log 2>&1); then
    grep -E "Error|error|rror:" "$dir/build.log" | head -8 | sed 's/^/  /'
    log "FAIL Next.js 16 ($bundler): next build failed (log: ${dir#"$ROOT"/}/build.log)"
    failed+=("next build ($bundler)")
    continue
  fi
  port=$(P $([ "$bundler" = webpack ] && echo 3402 || echo 3401))
  if serve next "$port" "$dir" node_modules/.bin/next start -p "$port" -H 127.0.0.1; then
    node tests/runtimes/check-next.mjs "http://127.0.0.1:$port" "Next.js 16 ($bundler)" "${edge[@]}" || failed+=("Next.js 16 ($bundler)")
  else
    failed+=("next start ($bundler)")
  fi
  stop_group
  log "Next.js 16 ($bundler): $((SECONDS - t0)) s (install, build, start, checks)"
done

t0=$SECONDS
log "Cloudflare Workers: wrangler dev (local workerd)"
dir="$W/worker"
consumer "$dir" tests/runtimes/worker
# The settings as the Worker's env, from .dev.vars (wrangler shows their values as hidden).
(umask 077 && printf 'CIRRUS_BASE_URL=%s\nCIRRUS_API_KEY=%s\n' "$CIRRUS_BASE_URL" "$CIRRUS_API_KEY" >"$dir/.dev.vars")
port=$(P 3403)
if serve wrangler "$port" "$dir" node_modules/.bin/wrangler dev --port "$port" --ip 127.0.0.1 --inspector-port "$(P 9330)" --log-level warn; then
  node tests/runtimes/check-worker.mjs "http://127.0.0.1:$port" || failed+=("Cloudflare Workers")
else
  failed+=("wrangler dev")
fi
stop_group
rm -f "$dir/.dev.vars"
log "Cloudflare Workers: $((SECONDS - t0)) s"

log "Deno, Bun, Node: tests/runtimes/scripts/server-script.mjs"
dir="$W/scripts"
consumer "$dir" tests/runtimes/scripts
for host in deno bun node; do
  case $host in
    deno) run=(node_modules/.bin/deno run -A server-script.mjs) ;;
    bun) run=(node_modules/.bin/bun server-script.mjs) ;;
    node) run=(node server-script.mjs) ;;
  esac
  (cd "$dir" && "${run[@]}") || { log "FAIL $host: ${run[*]}"; failed+=("$host"); }
done

log "scripts/api.sh: the API for a frontend of one's own"
api_port=$(P 18794)
mkdir -p "$W/api"
(CIRRUS_API_PORT="$api_port" CIRRUS_LOCALSTRIPE_PORT="$(P 18422)" CIRRUS_DB="$W/api/dev.sqlite" exec setsid bash scripts/api.sh >"$W/api.log" 2>&1) &
GROUPS_STARTED+=($!)
for _ in $(seq 1 600); do grep -q "Ctrl-C stops everything" "$W/api.log" && break; sleep 0.2; done
api_check() { # the banner names the key file (never the key); loopback origins pass CORS, others do not; the webhook is registered
  local key_file="$W/api/dev.sqlite.key" key acao
  grep -q "API key:       in $key_file" "$W/api.log" || { echo "api.sh does not name the key file $key_file"; return 1; }
  [ "$(stat -c %a "$key_file")" = 600 ] || { echo "the key file is not 0600"; return 1; }
  key=$(tr -d '[:space:]' <"$key_file")
  grep -qF "$key" "$W/api.log" && { echo "api.sh printed the API key"; return 1; }
  grep -q "webhook: localstripe -> http://127.0.0.1:$api_port/api/v1/webhooks/stripe" "$W/api.log" || { echo "no webhook registered"; return 1; }
  for origin in http://localhost:5173 http://127.0.0.1:3000; do
    acao=$(curl -s -o /dev/null -D - -H "Origin: $origin" -H "Authorization: Bearer $key" "http://127.0.0.1:$api_port/api/v1/store" | tr -d '\r' | sed -n 's/^access-control-allow-origin: //Ip')
    [ "$acao" = "$origin" ] || { echo "CORS: $origin not allowed (got '$acao')"; return 1; }
  done
  acao=$(curl -s -o /dev/null -D - -H "Origin: https://shop.example" -H "Authorization: Bearer $key" "http://127.0.0.1:$api_port/api/v1/store" | tr -d '\r' | sed -n 's/^access-control-allow-origin: //Ip')
  [ -z "$acao" ] || { echo "CORS: https://shop.example allowed by default"; return 1; }
  echo "key file named (0600, key not printed), webhook registered, loopback origins allowed on any port, https://shop.example refused"
}
if out=$(api_check); then log "ok   scripts/api.sh: $out"; else log "FAIL scripts/api.sh: $out (log: ${W#"$ROOT"/}/api.log)"; failed+=("scripts/api.sh"); fi
stop_group

if [ ${#failed[@]} -gt 0 ]; then
  die "failed: ${failed[*]}"
fi
log "every host passed"
