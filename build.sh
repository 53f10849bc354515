#!/usr/bin/env bash
# pkcalc's one build script.
#
#   ./build.sh serve [--port N]   build what changed in the site and serve it on http://127.0.0.1:8080
#   ./build.sh test               every test: vet, native, WebAssembly (Node), browser (Chromium)
#   ./build.sh dist               the static site in dist/, relative URLs only
#   ./build.sh screenshots        refresh the screenshots in docs/images from the browser tests
#   ./build.sh fuzz               every fuzz target, FUZZTIME (default 30s) each, one after another
#   ./build.sh bench              the Go benchmarks (a generated 100 MB NDJSON set), into build/bench.txt, then
#                                 the browser and the peers (DuckDB, a plain script) into docs/PERFORMANCE.md
#   ./build.sh pgo                profile the 100 MB analysis again into cmd/pkcalc/default.pgo
#   ./build.sh cloudflare         the site and API as a Cloudflare Worker in build/cloudflare (docs/CLOUDFLARE.md)
#   ./build.sh help               this text
#
# It installs what it needs and is missing where it can (Chromium and Node
# from Debian's packages when run as root on Debian), and otherwise says what
# to install.
set -euo pipefail
cd "$(dirname "$0")"

# The profile that guides the compiler's optimisation (PGO) of the engine:
# go build and go run of ./cmd/pkcalc take it on their own; the engine's
# WebAssembly and the benchmarks are given it here. ./build.sh pgo makes it.
pgo=cmd/pkcalc/default.pgo

# usage prints the comment at the top of this file, all of it.
usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${0##*/}"
}

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

apt_install() {
  # Installs Debian packages when this is a root shell on Debian; else fails.
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing $* from Debian's packages"
    if [ -z "${APT_UPDATED:-}" ]; then
      apt-get update -qq >&2
      APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
    return 0
  fi
  return 1
}

need_go() {
  command -v go >/dev/null 2>&1 || die "Go 1.26 or newer is needed: install it from the Go website, then run this again"
  local v
  goversion=$(go env GOVERSION)
  v=${goversion#go}
  case "$v" in
    1.2[6-9]*|1.[3-9]*|[2-9].*) ;;
    *) die "Go $v is too old: pkcalc needs Go 1.26 or newer" ;;
  esac
}

need_node() {
  command -v node >/dev/null 2>&1 && return 0
  apt_install nodejs || die "Node.js is needed to run the WebAssembly tests: install the nodejs package"
}

# need_languages: the languages in which core/provision's tests run the
# snippets it writes (Python; Java's javac and java). Node and bash are
# needed anyway.
need_languages() {
  command -v python3 >/dev/null 2>&1 || apt_install python3 ||
    die "Python 3 is needed to run the Python snippets in the tests: install the python3 package"
  if ! command -v javac >/dev/null 2>&1 || ! command -v java >/dev/null 2>&1; then
    apt_install default-jdk-headless || die "a JDK is needed to compile the Java snippets in the tests: install the default-jdk-headless package"
  fi
}

need_npm() {
  command -v npm >/dev/null 2>&1 && return 0
  apt_install npm || die "npm is needed to install DuckDB for the tests: install the npm package"
}

# The DuckDB that the tests run pkcalc's DuckDB queries on
# (core/aggregate): DuckDB's Node API, pinned, installed with npm in
# build/duckdb (never globally) when it is not there, and beside it
# core/aggregate/testdata/duckdb-csv.mjs, which prints a result as
# duckdb -csv does; Node looks for the package from the directory of the
# file that imports it, hence the copy. PKCALC_DUCKDB, when set, is used
# instead: a command that reads SQL on standard input, such as duckdb.
DUCKDB=${PKCALC_DUCKDB:-}
duckdb_node_api=1.5.6-r.1
duckdb_dir=build/duckdb
need_duckdb() {
  if [ -z "$DUCKDB" ]; then
    need_duckdb_api
    install -m 755 core/aggregate/testdata/duckdb-csv.mjs "$duckdb_dir/duckdb-csv.mjs"
    DUCKDB=$PWD/$duckdb_dir/duckdb-csv.mjs
  fi
  export PKCALC_DUCKDB=$DUCKDB
}

# need_duckdb_api installs the pinned Node API in $duckdb_dir, whatever
# PKCALC_DUCKDB says: the benchmark's DuckDB peer needs the package itself.
need_duckdb_api() {
  local npmlog
  need_node
  if ! grep -qs "\"version\": \"$duckdb_node_api\"" "$duckdb_dir/node_modules/@duckdb/node-api/package.json"; then
    need_npm
    log "installing DuckDB ($duckdb_node_api of @duckdb/node-api) in $duckdb_dir/"
    mkdir -p "$duckdb_dir"
    npmlog=$(npm install --no-audit --no-fund --save-exact --prefix "$duckdb_dir" "@duckdb/node-api@$duckdb_node_api" 2>&1) ||
      { printf '%s\n' "$npmlog" >&2; die "npm could not install @duckdb/node-api $duckdb_node_api in $duckdb_dir/"; }
  fi
}

# need_duckdb_peer installs the benchmark's DuckDB peer beside the Node
# API, where Node finds the package, for e2e's TestDuckDBPeer and the
# benchmark.
need_duckdb_peer() {
  need_duckdb_api
  install -m 755 e2e/testdata/duckdb-peer.mjs "$duckdb_dir/duckdb-peer.mjs"
  export PKCALC_DUCKDB_PEER=$PWD/$duckdb_dir/duckdb-peer.mjs
}

CHROMIUM=${PKCALC_CHROMIUM:-}
need_chromium() {
  if [ -z "$CHROMIUM" ]; then
    for c in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
      if [ -x "$c" ]; then CHROMIUM=$c; break; fi
    done
  fi
  if [ -z "$CHROMIUM" ]; then
    apt_install chromium fonts-dejavu-core || die "Chromium is needed for the browser tests: install the chromium package (or set PKCALC_CHROMIUM to a Chrome or Chromium binary)"
    CHROMIUM=/usr/bin/chromium
  fi
  export PKCALC_CHROMIUM=$CHROMIUM
}

# What build_site keeps between runs, so that a run redoes only what its
# inputs changed and never leaves an output older than its inputs:
# - the Go builds' targets in $cache, which go build relinks only when the
#   hash of their inputs, kept in the target as its build ID, changed (Go's
#   build cache holds the compiled packages);
# - for every other output made in a step of its own, a stamp in $stamps:
#   the hash of the inputs it was made from and of the output as made; the
#   step runs again when either differs.
# A file is copied into the site only when its bytes changed, so what did
# not change keeps its time, and files the build no longer makes go.
cache=build/cache
stamps=build/stamps

# sha256 prints sha256sum's lines for the files, or for standard input
# (macOS has shasum in its place).
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}

# digest prints one hash of the files' names and contents.
digest() { sha256 "$@" | sha256 | cut -c1-64; }

# up_to_date NAME INPUTS OUTPUT...: whether the stamp NAME says that the
# outputs were made from inputs of the hash INPUTS and are still as made.
up_to_date() {
  local stamp=$stamps/$1 inputs=$2 f
  shift 2
  [ -f "$stamp" ] || return 1
  for f in "$@"; do [ -f "$f" ] || return 1; done
  [ "$(cat "$stamp")" = "$inputs $(digest "$@")" ]
}

# stamp NAME INPUTS OUTPUT...: records that the outputs were made from
# inputs of the hash INPUTS.
stamp() {
  local stamp=$stamps/$1 inputs=$2
  shift 2
  mkdir -p "$(dirname "$stamp")"
  printf '%s %s\n' "$inputs" "$(digest "$@")" > "$stamp"
}

# generate writes ui/*_gen.go from the .vugu files again (the
# //go:generate lines in ui/root.go), so that a site built from an edited
# .vugu file shows the edit, unless nothing vugugen reads (ui's .vugu and
# Go files, the module's versions, Go's) nor what it wrote changed since it
# last ran. They are committed: ui's TestGenerated fails when they are
# stale, so the tests run on them as committed.
generate() {
  if up_to_date ui "$(generate_inputs)" ui/*_gen.go; then
    log "Vugu components are up to date"
    return 0
  fi
  log "generating Vugu components"
  go generate ./ui
  # After it, as gofmt -w may have rewritten a Go file.
  stamp ui "$(generate_inputs)" ui/*_gen.go
}

generate_inputs() {
  printf '%s %s' "$goversion" "$(digest go.mod go.sum ui/*.vugu $(ls ui/*.go | grep -v '_gen\.go$'))"
}

# build_site builds the site in $1 (default dist). With $2 = serve it
# writes no compressed copies (pkcalc serve sends the files as they are,
# and brotli's 11th level takes a minute) and removes those that are no
# longer the file's; otherwise it writes them (precompress).
build_site() {
  local out=${1:-dist} mode=${2:-dist} key work inputs made= changed=
  # Every Go build here without the checkout's path in it, so that another
  # checkout (a fresh clone, a copy) finds every package in Go's build
  # cache, and the native ones (vugugen, vuguscript, the command) share
  # their standard library.
  local GOFLAGS="-trimpath${GOFLAGS:+ $GOFLAGS}"
  export GOFLAGS
  key=$(printf '%s' "$out" | tr / _)
  work=$cache/$key
  generate
  log "building the site in $out/"
  mkdir -p "$out" "$work"
  go_builds "$mode"

  # The Go runtime glue of github.com/syumai/workers (its wasm_exec.js hands
  # the program a context object); public/engine.js runs the one instance,
  # so the rest of syumai's browser glue (an instance per request) is not used.
  inputs="$goversion $(digest go.mod go.sum)"
  if ! up_to_date glue "$inputs" "$cache/glue/wasm_exec.js"; then
    rm -rf "$cache/glue"
    go tool workers-assets-gen -mode=go -runtime=browser -o "$cache/glue" >/dev/null
    stamp glue "$inputs" "$cache/glue/wasm_exec.js"
  fi
  # Vugu's DOM renderer script, in a file so the page can load it as a
  # script of its own instead of letting Vugu eval() it: the
  # Content-Security-Policy then needs no 'unsafe-eval'.
  inputs="$goversion $(digest go.mod go.sum internal/cmd/vuguscript/*.go)"
  if ! up_to_date vugu-render "$inputs" "$cache/vugu-render.js"; then
    go run ./internal/cmd/vuguscript -o "$cache/vugu-render.js"
    stamp vugu-render "$inputs" "$cache/vugu-render.js"
  fi

  put index.html index.html
  for f in $(cd public && find . -type f ! -name sw.js | LC_ALL=C sort); do
    put "public/${f#./}" "${f#./}"
  done
  put "$(go env GOROOT)/lib/wasm/wasm_exec.js" wasm_exec.js
  put "$cache/glue/wasm_exec.js" engine/wasm_exec.js
  put "$cache/vugu-render.js" vugu-render.js
  put "$cache/wasm-$mode/page" main.wasm
  put "$cache/wasm-$mode/engine" engine/engine.wasm
  sed 's/<html lang="en">/<html lang="en" class="embed">/' index.html > "$work/embed.html"
  put "$work/embed.html" embed.html
  service_worker > "$work/sw.js"
  put "$work/sw.js" sw.js

  # What an earlier build made and this one does not.
  (cd "$out" && find . -type f ! -name '*.gz' ! -name '*.br' ! -name pkcalc.html) | sed 's|^\./||' | LC_ALL=C sort > "$work/found"
  printf '%s' "$made" | LC_ALL=C sort > "$work/made"
  for f in $(LC_ALL=C comm -23 "$work/found" "$work/made"); do
    rm -f "$out/$f"
    changed="$changed $f (removed)"
  done
  find "$out" -mindepth 1 -type d -empty -delete

  # The single-file build, from the site and the command that writes it.
  inputs="$(cd "$out" && digest $made) $(digest "$cache/pkcalc")"
  if ! up_to_date "$key/pkcalc.html" "$inputs" "$out/pkcalc.html"; then
    "$cache/pkcalc" bundle --dir "$out" >/dev/null
    stamp "$key/pkcalc.html" "$inputs" "$out/pkcalc.html"
    changed="$changed pkcalc.html"
  fi
  precompress "$out" "$mode"
  if [ -z "$changed" ]; then
    log "$out/ is up to date: nothing changed since it was built"
  else
    log "$out/: wrote$changed"
  fi
}

# go_builds builds the page's and the engine's WebAssembly into
# $cache/wasm-$1 (page, engine) and the command, which writes the
# single-file build and serves the site, into $cache/pkcalc: the engine
# with the profile (PGO), unless $1 is serve. Without it the engine runs
# some 5 % slower (docs/PERFORMANCE.md), but a first build compiles the
# standard library once for WebAssembly, not twice, and both modules build
# in one go build, at once. The command is built without the profile: it
# only bundles here, and serves on the loopback; so it shares its compiled
# packages with vugugen and vuguscript. It builds beside the WebAssembly,
# which shares nothing with it.
go_builds() {
  local dir=$cache/wasm-$1 wasm=(go build -ldflags='-s -w') native
  mkdir -p "$dir"
  go build -pgo=off -o "$cache/pkcalc" ./cmd/pkcalc > "$cache/pkcalc.log" 2>&1 &
  native=$!
  if [ "$1" = serve ]; then
    GOOS=js GOARCH=wasm "${wasm[@]}" -o "$dir/" ./wasm/page ./wasm/engine || { wait "$native" || true; return 1; }
  else
    GOOS=js GOARCH=wasm "${wasm[@]}" -o "$dir/page" ./wasm/page &&
      GOOS=js GOARCH=wasm "${wasm[@]}" -pgo="$pgo" -o "$dir/engine" ./wasm/engine || { wait "$native" || true; return 1; }
  fi
  wait "$native" || { cat "$cache/pkcalc.log" >&2; die "go build ./cmd/pkcalc failed"; }
}

# put copies the file $1 to $2 in the site, unless it holds the same bytes
# already, and counts $2 among the files the build makes.
put() {
  made="$made$2
"
  cmp -s "$1" "$out/$2" && return 0
  mkdir -p "$(dirname "$out/$2")"
  cp "$1" "$out/$2.new"
  mv -f "$out/$2.new" "$out/$2"
  changed="$changed $2"
}

# service_worker prints sw.js filled in: the list of the site's files
# ($made, so far), and a version that changes whenever one of them, or
# sw.js itself, does, so a new build replaces the cache.
service_worker() {
  local names files version
  names=$(printf '%s' "$made" | LC_ALL=C sort)
  files=$(printf '%s\n' "$names" | sed 's|^index.html$|./|; s/.*/"&"/' | paste -sd, -)
  version=$({ (cd "$out" && sha256 $names) | sed 's|  |  ./|'; sha256 < public/sw.js | sed 's|  -$|  ./sw.js|'; } |
    LC_ALL=C sort -k2 | sha256 | cut -c1-16)
  sed "s|@VERSION@|$version|; s|@FILES@|$files|" public/sw.js
}

# precompress writes .gz and .br beside the large files of the site $1, for
# static hosts that serve precompressed files, unless they are there as
# made from the file as it is; with $2 = serve it only removes those that
# are not. brotli comes from Debian's packages when it can be installed;
# without it there are only .gz files.
precompress() {
  local out=$1 mode=$2 f h ext kept=
  if [ "$mode" != serve ]; then
    command -v brotli >/dev/null 2>&1 || apt_install brotli || log "brotli is not installed: writing .gz files only"
  fi
  for f in "$out"/*.wasm "$out"/engine/*.wasm "$out"/*.js; do
    h=$(digest "$f")
    for ext in gz br; do
      kept="$kept$f.$ext
"
      up_to_date "$key/${f#"$out"/}.$ext" "$h" "$f.$ext" && continue
      if [ -f "$f.$ext" ]; then
        rm -f "$f.$ext"
        changed="$changed ${f#"$out"/}.$ext (removed)"
      fi
      [ "$mode" != serve ] || continue
      case $ext in
        gz) gzip -9 -k -n -f "$f" ;;
        br) command -v brotli >/dev/null 2>&1 || continue
            brotli -f -q 11 -o "$f.br" "$f" ;;
      esac
      stamp "$key/${f#"$out"/}.$ext" "$h" "$f.$ext"
      changed="$changed ${f#"$out"/}.$ext"
    done
  done
  # Those of files that are gone or no longer compressed.
  for f in $(find "$out" -type f \( -name '*.gz' -o -name '*.br' \)); do
    if ! printf '%s' "$kept" | grep -qxF "$f"; then
      rm -f "$f"
      changed="$changed ${f#"$out"/} (removed)"
    fi
  done
}

build_cloudflare() {
  # pkcalc as a Cloudflare Worker in $1 (default build/cloudflare), ready for
  # wrangler dev|deploy -c $1/wrangler.jsonc: the config from wasm/engine,
  # the glue and the engine in build/, and in site/ a copy of the site that
  # build_site wrote in $2 (default dist) with wasm/engine/404.html, the
  # answer for every other path that is not /v1/*, and .assetsignore.
  # Wrangler 4.60.0 is installed, pinned, in build/wrangler (never
  # globally) when it is not there. Self-contained, so that
  # docs/CLOUDFLARE.md can run it alone.
  local out=${1:-build/cloudflare} site=${2:-dist} w=build/wrangler npmlog
  local note=
  [ -f "$site/index.html" ] || { printf 'build.sh: no site in %s/: run ./build.sh dist first\n' "$site" >&2; return 1; }
  grep -qs '"version": "4.60.0"' "$w/node_modules/wrangler/package.json" || note=", installing wrangler 4.60.0 in $w/"
  printf '==> building the Cloudflare Worker in %s/%s\n' "$out" "$note" >&2
  rm -rf "$out"
  mkdir -p "$out"
  go tool workers-assets-gen -mode=go -runtime=cloudflare -o "$out/build" >/dev/null
  GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -pgo="$pgo" -o "$out/build/app.wasm" ./wasm/engine/cloudflare
  cp wasm/engine/wrangler.jsonc "$out/"
  cp -R "$site" "$out/site"
  cp wasm/engine/404.html wasm/engine/.assetsignore "$out/site/"
  cloudflare_headers "$out/site"
  if [ -n "$note" ]; then
    mkdir -p "$w"
    npmlog=$(npm install --no-audit --no-fund --save-exact --prefix "$w" wrangler@4.60.0 2>&1) ||
      { printf '%s\nbuild.sh: npm could not install wrangler 4.60.0 in %s/\n' "$npmlog" "$w" >&2; return 1; }
  fi
}

# cloudflare_headers writes _headers in the Worker's copy of the site, which
# Workers static assets apply to their responses (and do not serve): the
# Content-Security-Policy of index.html's <meta> tag on every file, as
# pkcalc serve sends it, since the engine's module worker takes its policy
# from engine.js's response and not from the page; and an HTML file whose
# <meta> tag says another (pkcalc.html, the single-file build) gets its own,
# at its address with .html and at the one without, where Cloudflare
# redirects it.
cloudflare_headers() {
  local site=$1 policy f name own
  policy=$(csp_of "$site/index.html")
  [ -n "$policy" ] || { printf 'build.sh: %s/index.html has no Content-Security-Policy <meta> tag\n' "$site" >&2; return 1; }
  {
    printf '# Written by build.sh from the Content-Security-Policy <meta> tags of the site.\n'
    printf '/*\n  Content-Security-Policy: %s\n' "$policy"
    for f in "$site"/*.html; do
      name=${f##*/}
      own=$(csp_of "$f")
      if [ -n "$own" ] && [ "$own" != "$policy" ]; then
        printf '/%s\n  ! Content-Security-Policy\n  Content-Security-Policy: %s\n' "$name" "$own" "${name%.html}" "$own"
      fi
    done
  } > "$site/_headers"
}

# csp_of prints the policy of an HTML file's Content-Security-Policy <meta>
# tag (in its head, at the top), or nothing.
csp_of() {
  head -c 16384 "$1" | sed -n 's/.*<meta http-equiv="Content-Security-Policy" content="\([^"]*\)">.*/\1/p' | head -n 1
}

# need_shared finds the real datasets and expert verdicts the tests read in
# place (shared/datasets, shared/casebook): PKCALC_SHARED as given, the
# shared folder beside this checkout, or, in a clone of a local checkout,
# the one beside that. The tests fail without it (PKCALC_REQUIRE_TOOLS).
need_shared() {
  local origin
  if [ -n "${PKCALC_SHARED:-}" ]; then return 0; fi
  if [ -d ../shared/casebook ]; then
    PKCALC_SHARED=$(cd ../shared && pwd)
  else
    origin=$(git config --get remote.origin.url 2>/dev/null || true)
    if [ -n "$origin" ] && [ -d "$origin/../shared/casebook" ]; then
      PKCALC_SHARED=$(cd "$origin/../shared" && pwd)
    fi
  fi
  if [ -z "${PKCALC_SHARED:-}" ]; then
    log "no shared/ folder of datasets beside this checkout: the tests that read them will fail (set PKCALC_SHARED)"
    return 0
  fi
  export PKCALC_SHARED
}

run_tests() {
  # The tests that need a tool fail without it, rather than skip.
  export PKCALC_REQUIRE_TOOLS=1
  need_shared
  need_node
  need_languages
  need_duckdb
  need_duckdb_peer
  log "go vet"
  go vet ./...
  GOOS=js GOARCH=wasm go vet ./wasm/... ./ui/... ./core/...
  log "native tests"
  # All but e2e, which needs the site and the browser: it runs below.
  go test -count=1 -timeout 30m $(go list ./... | grep -vx github.com/pkcalc/pkcalc/e2e)
  log "WebAssembly tests (Node)"
  PATH="$PATH:$(go env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm go test -count=1 -timeout 30m ./core/... ./ui/...
  need_chromium
  build_site build/site
  build_cloudflare build/cloudflare build/site; export PKCALC_CLOUDFLARE="$PWD/build/cloudflare" PKCALC_WRANGLER="$PWD/build/wrangler/node_modules/.bin/wrangler"
  log "browser tests (Chromium at $CHROMIUM)"
  PKCALC_SITE="$PWD/build/site" PKCALC_SCREENSHOTS="${PKCALC_SCREENSHOTS:-$PWD/build/screenshots}" \
    go test -count=1 -timeout 30m -v ./e2e/ 2>&1 | grep -v '^=== \(RUN\|PAUSE\|CONT\)'
  return "${PIPESTATUS[0]}"
}

need_go
cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  serve)
    port=8080
    while [ $# -gt 0 ]; do
      case "$1" in
        --port) [ $# -ge 2 ] || die "serve: --port needs a number, as in ./build.sh serve --port 9000"; port=$2; shift 2 ;;
        --port=*) port=${1#--port=}; shift ;;
        *) die "serve: unknown flag $1 (only --port N)" ;;
      esac
    done
    case "$port" in
      ''|*[!0-9]*|??????*) die "serve: --port needs a number, as in ./build.sh serve --port 9000; got '$port'" ;;
    esac
    [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || die "serve: --port $port is not a port number (1 to 65535)"
    build_site dist serve
    exec "$cache/pkcalc" serve --dir dist --addr "127.0.0.1:$port"
    ;;
  test)
    run_tests
    ;;
  dist)
    build_site dist
    log "dist/ is ready: $(du -sh dist | cut -f1); host it from any path of any static server"
    ;;
  screenshots)
    PKCALC_SCREENSHOTS="$PWD/docs/images" run_tests
    ;;
  cloudflare)
    build_site dist
    build_cloudflare build/cloudflare dist
    log "deploy with: build/wrangler/node_modules/.bin/wrangler deploy -c build/cloudflare/wrangler.jsonc"
    ;;
  fuzz)
    # Each target alone, as go test -fuzz takes one at a time. A failing
    # input is written to the package's testdata/fuzz/<target>/, where it
    # stays as a regression case; the others still run, and the command
    # fails at the end if any did. Minimising a new input is cut short
    # (FUZZMINIMIZETIME) so that the time goes to fuzzing.
    fuzztime=${FUZZTIME:-30s}
    failed=() n=0
    for file in $(grep -rl "func Fuzz" --include='*_test.go' --exclude-dir=build --exclude-dir=dist --exclude-dir=node_modules . | LC_ALL=C sort); do
      pkg=./$(dirname "${file#./}")
      for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
        n=$((n + 1))
        log "fuzzing $target in $pkg for $fuzztime"
        go test -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" -fuzzminimizetime "${FUZZMINIMIZETIME:-10s}" "$pkg" ||
          failed+=("$target in $pkg")
      done
    done
    [ "$n" -gt 0 ] || die "no fuzz targets found"
    if [ ${#failed[@]} -gt 0 ]; then
      die "$((${#failed[@]})) of $n fuzz targets failed: $(printf '%s; ' "${failed[@]}")see testdata/fuzz/ in their packages"
    fi
    log "all $n fuzz targets passed, $fuzztime each"
    ;;
  bench)
    mkdir -p build
    log "benchmarks (go test -bench), results in build/bench.txt"
    # Built with the profile, as the command and the engine's WebAssembly are.
    go test -pgo="$pgo" -run '^$' -bench . -benchmem ./core/... | tee build/bench.txt
    # The analysis again on one core, as the engine issue's aim is put.
    go test -pgo="$pgo" -run '^$' -bench 'Analyze$' -cpu 1 -benchmem ./core/analysis | tee -a build/bench.txt
    need_chromium
    # The peers measured beside it: DuckDB natively (its Node API, run by
    # e2e/testdata/duckdb-peer.mjs from beside the package) and a plain
    # script in the same tab.
    need_duckdb_peer
    build_site build/site
    log "in the browser: 100 MB through window.pkcalc.analyze, and the peers; writing docs/PERFORMANCE.md"
    PKCALC_SITE="$PWD/build/site" PKCALC_BENCH="$PWD/docs/PERFORMANCE.md" PKCALC_BENCH_GO="$PWD/build/bench.txt" \
      go test -pgo="$pgo" -count=1 -run TestBrowserBenchmark -timeout 30m -v ./e2e/ | grep -v '^=== '
    ;;
  pgo)
    # A CPU profile of the 100 MB analysis on one core, the engine's hot path
    # in the command, the browser and the Worker alike. Refresh it when that
    # path changes much: a stale profile only optimises less.
    mkdir -p build
    log "profiling the 100 MB analysis into $pgo"
    go test -pgo=off -run '^$' -bench 'Analyze$' -benchtime 10x -cpu 1 \
      -cpuprofile "$PWD/build/pgo.prof" -o build/analysis.test ./core/analysis
    cp build/pgo.prof "$pgo"
    ;;
  ''|help|-h|--help)
    usage
    ;;
  *)
    printf 'build.sh: unknown target: %s\n\n' "$cmd" >&2
    usage >&2
    exit 2
    ;;
esac
