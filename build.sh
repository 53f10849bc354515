#!/usr/bin/env bash
# pkcalc's one build script.
#
#   ./build.sh serve [--port N]   build the site and serve it on http://127.0.0.1:8080
#   ./build.sh test               every test: vet, native, WebAssembly (Node), browser (Chromium)
#   ./build.sh dist               the static site in dist/, relative URLs only
#   ./build.sh screenshots        refresh the screenshots in docs/images from the browser tests
#   ./build.sh bench              the Go benchmarks (a generated 100 MB NDJSON set), into build/bench.txt
#
# It installs what it needs and is missing where it can (Chromium and Node
# from Debian's packages when run as root on Debian), and otherwise says what
# to install.
set -euo pipefail
cd "$(dirname "$0")"

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
  v=$(go env GOVERSION | sed 's/^go//')
  case "$v" in
    1.2[6-9]*|1.[3-9]*|[2-9].*) ;;
    *) die "Go $v is too old: pkcalc needs Go 1.26 or newer" ;;
  esac
}

need_node() {
  command -v node >/dev/null 2>&1 && return 0
  apt_install nodejs || die "Node.js is needed to run the WebAssembly tests: install the nodejs package"
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

generate() {
  log "generating Vugu components"
  go tool vugugen -skip-go-mod ./ui
}

build_site() {
  local out=${1:-dist}
  generate
  log "building the site in $out/"
  rm -rf "$out"
  mkdir -p "$out"
  # The engine's glue from github.com/syumai/workers, then our own files over it.
  go tool workers-assets-gen -mode=go -runtime=browser -o "$out/engine" >/dev/null
  cp index.html "$out/"
  cp -R public/. "$out/"
  cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/"
  GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$out/main.wasm" ./wasm/page
  GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$out/engine/engine.wasm" ./wasm/engine
}

run_tests() {
  need_node
  generate
  log "go vet"
  go vet ./...
  GOOS=js GOARCH=wasm go vet ./wasm/... ./ui/... ./core/...
  log "native tests"
  go test -count=1 ./...
  log "WebAssembly tests (Node)"
  PATH="$PATH:$(go env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm go test -count=1 ./core/... ./ui/...
  need_chromium
  build_site build/site
  log "browser tests (Chromium at $CHROMIUM)"
  PKCALC_SITE="$PWD/build/site" PKCALC_SCREENSHOTS="${PKCALC_SCREENSHOTS:-$PWD/build/screenshots}" \
    go test -count=1 -v ./e2e/ 2>&1 | grep -v '^=== \(RUN\|PAUSE\|CONT\)'
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
        --port) port=${2:?--port needs a number}; shift 2 ;;
        --port=*) port=${1#--port=}; shift ;;
        *) die "serve: unknown flag $1 (only --port N)" ;;
      esac
    done
    build_site dist
    exec go run ./cmd/pkcalc serve --dir dist --addr "127.0.0.1:$port"
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
  bench)
    mkdir -p build
    log "benchmarks (go test -bench), results in build/bench.txt"
    go test -run '^$' -bench . -benchmem -benchtime "${BENCHTIME:-3x}" ./core/... | tee build/bench.txt
    ;;
  *)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    [ -z "$cmd" ] || [ "$cmd" = help ] || exit 2
    ;;
esac
