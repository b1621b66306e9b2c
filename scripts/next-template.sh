# shellcheck shell=bash
# The Next.js template (templates/next/) built and started as a consumer of a packed package,
# for stage 75-next and scripts/bench-next.sh. Source it after scripts/lib.sh; do not run it.

# pack_sdk DIR: scripts/build-pkg.sh into DIR/pkg, packed; prints the tarball's path.
pack_sdk() {
  CIRRUS_PKG_OUT="$1/pkg" bash "$ROOT/scripts/build-pkg.sh" >/dev/null
  (cd "$1/pkg" && npm pack --silent --pack-destination "$1" >/dev/null)
  ls "$1"/cirrus-storefront-*.tgz
}

# build_template APP TARBALL: a copy of the template in APP (no node_modules, no .next) with
# the package from TARBALL, `npm install`ed (from npm's cache after the first time) and
# its `npm run build` (production: `next build` with Turbopack, then compile-hints.mjs). The build
# needs no API (every page renders per request).
build_template() {
  local app=$1 tarball=$2 t0=$SECONDS
  rm -rf "$app" && mkdir -p "$app"
  (cd "$ROOT/templates/next" && tar --exclude=./node_modules --exclude=./.next --exclude='./.env*.local' -cf - .) | tar -xf - -C "$app"
  (cd "$app" && npm pkg set "dependencies.cirrus-storefront=file:$tarball" \
    && npm install --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null) || die "npm install of the template failed"
  log "template installed in $((SECONDS - t0)) s"
  t0=$SECONDS
  if ! (cd "$app" && NEXT_TELEMETRY_DISABLED=1 npm run --silent build >build.log 2>&1); then
    grep -E "rror" "$app/build.log" | head -12 | sed 's/^/  /' >&2
    die "next build of the template failed (log: ${app#"$ROOT"/}/build.log)"
  fi
  log "next build in $((SECONDS - t0)) s"
}

# start_template APP PORT: `next start` of APP on 127.0.0.1:PORT in a process group of its own
# (next start runs child processes), against $CIRRUS_BASE_URL with $CIRRUS_API_KEY and
# $LOCALSTRIPE_URL; NEXT_GROUP is its group (stop_template ends it).
start_template() {
  local app=$1 port=$2
  port_free "$port" || die "port $port is in use"
  (cd "$app" && CIRRUS_LOCALSTRIPE_URL="$LOCALSTRIPE_URL" NEXT_TELEMETRY_DISABLED=1 exec setsid node_modules/.bin/next start -p "$port" -H 127.0.0.1 >"$app/next.log" 2>&1) &
  NEXT_GROUP=$!
  wait_http "http://127.0.0.1:$port/" 90 || { tail -20 "$app/next.log" >&2; die "next start did not answer on $port"; }
  export NEXT_SITE="http://127.0.0.1:$port/"
}
stop_template() {
  [ -n "${NEXT_GROUP:-}" ] || return 0
  kill -- "-$NEXT_GROUP" 2>/dev/null || true
  wait "$NEXT_GROUP" 2>/dev/null || true
  NEXT_GROUP=""
}
