#!/usr/bin/env bash
# Builds the control-plane binaries from the Go module proxy into a cache folder keyed by version.
# Binaries already present (in the cache, or pointed at by KUBEBUILDER_ASSETS / TEST_ASSET_<NAME> /
# FLINK_STANDALONE_BIN_DIR) are not rebuilt.
set -euo pipefail

K8S_PINNED="${K8S_VERSION:-}"
K8S_VERSION="${K8S_VERSION:-v1.37.2}"
# Used when the newest fails to build with the installed Go (only when K8S_VERSION is not set).
K8S_FALLBACK_VERSION="${K8S_FALLBACK_VERSION:-v1.36.3}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
KWOK_VERSION="${KWOK_VERSION:-v0.8.0}"
CACHE="${FLINK_STANDALONE_CACHE:-$HOME/.cache/flink-standalone}"

export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0
export GONOSUMDB="${GONOSUMDB:-}" GOSUMDB="${GOSUMDB:-sum.golang.org}"

log() { printf '[build-binaries %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# The envtest convention: TEST_ASSET_KUBE_APISERVER for kube-apiserver, and so on.
asset_var() { echo "TEST_ASSET_$(echo "$1" | tr 'a-z-' 'A-Z_')"; }

# Prints the path of an already available binary, or nothing.
existing_binary() {
  local name="$1" cache_dir="$2" var
  var="$(asset_var "$name")"
  for candidate in "${!var:-}" "${KUBEBUILDER_ASSETS:+$KUBEBUILDER_ASSETS/$name}" \
    "${FLINK_STANDALONE_BIN_DIR:+$FLINK_STANDALONE_BIN_DIR/$name}" "$cache_dir/$name"; do
    if [[ -n "$candidate" && -x "$candidate" ]]; then echo "$candidate"; return; fi
  done
}

# go build -v prints one line per compiled package; turn it into sparse progress lines.
progress() {
  local label="$1" n=0
  while IFS= read -r line; do
    n=$((n + 1))
    echo "$line" >>"$LOG"
    if (( n % 200 == 0 )); then log "$label: $n packages compiled"; fi
    case "$line" in *.go:*|go:*) echo "$line" >&2 ;; esac
  done
  log "$label: $n packages compiled in total"
}

# go_build <label> <module dir> <out dir> <ldflags> <pkg>...
go_build() {
  local label="$1" dir="$2" out="$3" ldflags="$4"; shift 4
  local start=$SECONDS
  mkdir -p "$out.tmp"
  log "$label: building $* (log: $LOG)"
  (cd "$dir" && go build -v -trimpath -ldflags "-s -w $ldflags" -o "$out.tmp/" "$@" 2>&1) | progress "$label"
  local rc=${PIPESTATUS[0]}
  if (( rc != 0 )); then log "$label: FAILED (see $LOG)"; return "$rc"; fi
  mkdir -p "$out" && mv "$out.tmp"/* "$out/" && rmdir "$out.tmp"
  log "$label: done in $((SECONDS - start)) s"
}

build_kubernetes() {
  local root="$CACHE/k8s/$K8S_VERSION" names=(kube-apiserver kube-controller-manager kube-scheduler kubectl kubelet)
  local missing=() n
  for n in "${names[@]}"; do [[ -n "$(existing_binary "$n" "$root/bin")" ]] || missing+=("$n"); done
  if (( ${#missing[@]} == 0 )); then log "kubernetes $K8S_VERSION: present"; return; fi
  local src="$root/src" staging minor="${K8S_VERSION#v1.}"
  mkdir -p "$src"
  # k8s.io/kubernetes requires its staging modules at v0.0.0 with replaces into ./staging, which
  # are ignored in a dependency: replace each with its published v0.<minor>.<patch> instead.
  (cd "$src" && go mod download -json "k8s.io/kubernetes@$K8S_VERSION" >"$src/kubernetes.json")
  local gomod; gomod="$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' "$src/kubernetes.json")"
  staging="$(sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p' "$gomod")"
  {
    echo "module flinkstandalone.local/k8s-binaries"
    echo; echo "go 1.26"
    echo; echo "require k8s.io/kubernetes $K8S_VERSION"
    echo; echo "replace ("
    for m in $staging; do echo "	$m => $m v0.$minor"; done
    echo ")"
  } >"$src/go.mod"
  printf 'package tools\n\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver"\n' >"$src/tools.go"
  local date; date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  local major=1 min="${minor%%.*}" flags="" pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$min"
    flags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$date -X $pkg.gitCommit=module-proxy"
  done
  (cd "$src" && go mod tidy >/dev/null 2>&1 || true)
  local pkgs=(); for n in "${missing[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$n"); done
  go_build "kubernetes $K8S_VERSION" "$src" "$root/bin" "$flags" "${pkgs[@]}"
}

build_etcd() {
  local root="$CACHE/etcd/$ETCD_VERSION"
  if [[ -n "$(existing_binary etcd "$root/bin")" ]]; then log "etcd $ETCD_VERSION: present"; return; fi
  local src="$root/src"; mkdir -p "$src/etcd"
  # The server module's go.mod has relative replaces; a wrapper main module avoids them.
  printf 'module flinkstandalone.local/etcd\n\ngo 1.26\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$ETCD_VERSION" >"$src/go.mod"
  printf 'package main\n\nimport (\n\t"os"\n\n\t"go.etcd.io/etcd/server/v3/etcdmain"\n)\n\nfunc main() { etcdmain.Main(os.Args) }\n' >"$src/etcd/main.go"
  (cd "$src" && go mod tidy >/dev/null)
  go_build "etcd $ETCD_VERSION" "$src" "$root/bin" "" ./etcd
}

build_kwok() {
  local root="$CACHE/kwok/$KWOK_VERSION"
  if [[ -n "$(existing_binary kwok "$root/bin")" ]]; then log "kwok $KWOK_VERSION: present"; return; fi
  local src="$root/src"; mkdir -p "$src"
  printf 'module flinkstandalone.local/kwok\n\ngo 1.26\n\nrequire sigs.k8s.io/kwok %s\n' "$KWOK_VERSION" >"$src/go.mod"
  printf 'package tools\n\nimport _ "sigs.k8s.io/kwok/cmd/kwok"\n' >"$src/tools.go"
  (cd "$src" && go mod tidy >/dev/null)
  go_build "kwok $KWOK_VERSION" "$src" "$root/bin" "-X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK_VERSION" sigs.k8s.io/kwok/cmd/kwok
}

# Tries K8S_VERSION, then the fallback; a version that failed once is not retried (marker file).
build_kubernetes_any() {
  local failed="$CACHE/k8s/$K8S_VERSION/build-failed"
  if [[ ! -e "$failed" || -n "$K8S_PINNED" ]]; then
    if build_kubernetes; then return; fi
    [[ -n "$K8S_PINNED" ]] && return 1
    mkdir -p "$(dirname "$failed")" && date -u >"$failed"
  fi
  log "kubernetes $K8S_VERSION does not build here; using $K8S_FALLBACK_VERSION"
  K8S_VERSION="$K8S_FALLBACK_VERSION" build_kubernetes
}

mkdir -p "$CACHE/logs"
LOG="$CACHE/logs/build-$(date -u +%Y%m%dT%H%M%S).log"
total=$SECONDS
targets=("${@:-etcd kubernetes kwok}"); targets=(${targets[*]})
for t in "${targets[@]}"; do
  if [[ "$t" == kubernetes ]]; then build_kubernetes_any; else "build_$t"; fi
done
log "all binaries ready in $((SECONDS - total)) s"
