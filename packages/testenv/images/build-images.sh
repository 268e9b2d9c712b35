#!/usr/bin/env bash
# Container images for the project's real-node tests, built locally (no registry, no Docker):
#
#   build-images.sh [build] [VERSION…]              build once, or reuse, the image archives
#   build-images.sh import --address SOCK [VERSION…] build/reuse, then `ctr -n k8s.io images import`
#   build-images.sh pause-tag                       print the sandbox (pause) image tag
#   build-images.sh archives [VERSION…]             print the archive paths (after building them)
#
# VERSION is a Flink major.minor (1.19 1.20 2.0 2.1 2.2 2.3; default: 2.2 1.20), resolved to the
# newest release on PyPI (remembered in the cache; FLINK_IMAGES_REFRESH=1 asks PyPI again), or a
# full version such as 2.2.0 (tagged with that full version only).
#
# Archives (docker-archive tars) land in ${FLINK_STANDALONE_CACHE:-~/.cache/flink-standalone}/images,
# named by version and a content hash of their inputs; a second run finds them ("present"):
#   pause/pause-<key>.tar   registry.k8s.io/pause:3.10 (PAUSE_IMAGE): a static C program (pause.c)
#   base/<suite>-<key>.tar  one layer: Debian bookworm minbase + openjdk-17-jre-headless + the
#                           user flink (9999:9999), shared by every Flink version
#   flink/flink-<v>-<key>.tar  flink:<major.minor> and flink:<v>: base + /opt/flink from the PyPI
#                           wheels apache-flink and apache-flink-libraries + entrypoint.sh;
#                           flink:<major.minor>-examples and flink:<v>-examples add
#                           /opt/flink/usrlib/keyed-counter-job.jar (example-job/)
# Needs root (mmdebstrap, chown to 9999); installs missing Debian tools with apt-get.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE_ROOT=${FLINK_STANDALONE_CACHE:-$HOME/.cache/flink-standalone}
CACHE=$CACHE_ROOT/images
PAUSE_TAG=${PAUSE_IMAGE:-registry.k8s.io/pause:3.10}
SUITE=bookworm
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
# What Flink's bin/*.sh use beyond bash, coreutils, sed, grep, findutils and util-linux (flock,
# rev, setpriv), which minbase has: a JRE. procps (ps, top) only for looking into a pod.
BASE_PACKAGES=(openjdk-17-jre-headless procps)
JAVA_HOME_IN_IMAGE=/usr/lib/jvm/java-17-openjdk-amd64
FLINK_UID=9999
SUPPORTED=(1.19 1.20 2.0 2.1 2.2 2.3)
DEFAULT_VERSIONS=(2.2 1.20)
# The apache-flink wheel is per CPython version; its bin/ and conf/ are the same for each.
WHEEL_PYTHON=3.11
BUILD_LABEL=io.flink-standalone.build

log() { printf '[images %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() {
  printf '[images] error: %s\n' "$*" >&2
  exit 1
}
on_error() { printf '[images] error: failed at line %s: %s\n' "$1" "$2" >&2; }
trap 'on_error $LINENO "$BASH_COMMAND"' ERR
mib() { # size of a file, in MiB (KiB when smaller)
  local bytes
  bytes=$(stat -c %s "$1")
  if [ "$bytes" -lt 1048576 ]; then echo "$((bytes / 1024)) KiB"; else echo "$((bytes / 1048576)) MiB"; fi
}
short_hash() { sha256sum | cut -c1-16; }

# ---------------------------------------------------------------------------------------------
# Tools

apt_updated=
apt_install() {
  [ "$(id -u)" = 0 ] || die "missing $*; apt-get needs root: run 'apt-get install $*'"
  export DEBIAN_FRONTEND=noninteractive
  # Another apt-get may hold the dpkg lock (a long install): wait for it rather than fail.
  if [ -z "$apt_updated" ]; then
    log "apt-get update (waiting for the dpkg lock if another apt-get holds it)"
    apt-get -o DPkg::Lock::Timeout=900 update -qq || log "apt-get update failed; trying the lists we have"
    apt_updated=1
  fi
  log "apt-get install $*"
  apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "$@" >&2 ||
    die "apt-get install $* failed"
}

need_tools() { # command=package …
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null 2>&1 || missing+=("${pair#*=}")
  done
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null 2>&1 || die "${pair%%=*} is still missing after installing ${pair#*=}"
  done
}

# ---------------------------------------------------------------------------------------------
# Versions

resolve_version() { # major.minor or full version → full version
  local wanted=$1 file full
  if [[ $wanted =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "$wanted"
    return
  fi
  [[ " ${SUPPORTED[*]} " == *" $wanted "* ]] || die "unsupported Flink version '$wanted' (supported: ${SUPPORTED[*]}, or a full version like 2.2.0)"
  file=$CACHE/versions/$wanted
  if [ -s "$file" ] && [ -z "${FLINK_IMAGES_REFRESH:-}" ]; then
    cat "$file"
    return
  fi
  need_tools pip=python3-pip
  log "asking PyPI for the newest apache-flink $wanted.x (pip index versions)"
  full=$(pip index versions apache-flink 2>/dev/null | sed -n 's/^Available versions: //p' | tr ',' '\n' |
    tr -d ' ' | grep -E "^${wanted//./\\.}\.[0-9]+$" | sort -t. -k3,3n | tail -n1) || true
  [ -n "$full" ] || die "PyPI lists no apache-flink $wanted.x (pip index versions apache-flink)"
  mkdir -p "$CACHE/versions"
  echo "$full" >"$file.tmp" && mv -f "$file.tmp" "$file"
  log "Flink $wanted → $full"
  echo "$full"
}

major_minor() { echo "${1%.*}"; }

# ---------------------------------------------------------------------------------------------
# Keys: the hash of everything that goes into an artifact (the text of the function that builds
# it, as bash prints it, and the files it reads), so a change to any of them rebuilds it.

pause_key() { { declare -f build_pause; cat "$HERE/pause.c" "$HERE/pack-docker-archive.py"; echo "$PAUSE_TAG"; } | short_hash; }
base_key() { { declare -f build_base; echo "$SUITE ${BASE_PACKAGES[*]} $FLINK_UID"; } | short_hash; }
flink_key() { # full version
  {
    echo "$1 $WHEEL_PYTHON $FLINK_UID $JAVA_HOME_IN_IMAGE $(base_key)"
    declare -f build_flink flink_tags image_config
    cat "$HERE/entrypoint.sh" "$HERE/pack-docker-archive.py"
    find "$HERE/example-job" -type f -name '*.java' | sort | xargs cat
  } | short_hash
}

pause_archive() { echo "$CACHE/pause/pause-$(pause_key).tar"; }
base_layer() { echo "$CACHE/base/$SUITE-$(base_key).tar"; }
flink_archive() { echo "$CACHE/flink/flink-$1-$(flink_key "$1").tar"; }

# Tags of a version's images: plain and -examples, by major.minor (when it is the resolved newest)
# and by full version.
flink_tags() { # full version, requested name, suffix
  local full=$1 requested=$2 suffix=${3:-}
  if [ "$requested" != "$full" ]; then echo "flink:$requested$suffix"; fi
  echo "flink:$full$suffix"
}

work_dir() { mktemp -d "$CACHE/tmp/$1.XXXXXX"; }

# Keeps only the newest artifact of a kind: older keys of the same name are removed.
prune() { # new file, glob of its siblings
  local f
  for f in $2; do
    if [ -e "$f" ] && [ "$f" != "$1" ]; then
      log "removing stale $(basename "$f")"
      rm -f "$f" "$f.sha256"
    fi
  done
}

# ---------------------------------------------------------------------------------------------
# Pause image

build_pause() { # output archive
  local out=$1 dir
  need_tools gcc=gcc python3=python3
  dir=$(work_dir pause)
  mkdir -p "$dir/root"
  # glibc's static libc.a comes with libc6-dev (a dependency of gcc's usual install).
  gcc -static -Os -s -Wall -o "$dir/root/pause" "$HERE/pause.c" || die "gcc -static failed (is libc6-dev installed?)"
  tar --numeric-owner --owner=0 --group=0 --mtime=@0 -C "$dir/root" -cf "$dir/layer.tar" pause
  cat >"$dir/spec.json" <<EOF
{"layers": {"pause": "$dir/layer.tar"},
 "images": [{"tags": ["$PAUSE_TAG"], "layers": ["pause"], "history": ["static pause program (pause.c)"],
   "config": {"Entrypoint": ["/pause"], "User": "65535:65535", "WorkingDir": "/",
              "Labels": {"$BUILD_LABEL": "$(pause_key)"}}}]}
EOF
  python3 "$HERE/pack-docker-archive.py" "$dir/spec.json" "$out"
  rm -rf "$dir"
}

ensure_pause() {
  local out
  out=$(pause_archive)
  if [ -f "$out" ]; then
    log "pause image $PAUSE_TAG: present ($(basename "$out"), $(mib "$out"))"
    return
  fi
  log "pause image $PAUSE_TAG: building (gcc -static pause.c)"
  mkdir -p "$CACHE/pause"
  build_pause "$out"
  prune "$out" "$CACHE/pause/pause-*.tar"
}

# ---------------------------------------------------------------------------------------------
# Base layer

build_base() { # output layer tar
  local out=$1 dir started include
  need_tools mmdebstrap=mmdebstrap
  dir=$(work_dir base)
  include=$(
    IFS=,
    echo "${BASE_PACKAGES[*]}"
  )
  started=$SECONDS
  log "mmdebstrap --variant=minbase $SUITE + $include (about 2 minutes; apt output in $dir/mmdebstrap.log)"
  # Docs, man pages and translations left out (copyright files kept; the JRE's postinst needs
  # /usr/share/man/man1 to exist); the flink user is made here, so every Flink layer finds it.
  # The build host's /etc/hostname and /etc/resolv.conf stay out; /etc/hosts knows localhost
  # (the kubelet mounts its own three files; a plain `ctr run` does not).
  if ! mmdebstrap --variant=minbase --mode=root --format=directory --include="$include" \
    --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
    --customize-hook="chroot \"\$1\" groupadd --gid $FLINK_UID flink" \
    --customize-hook="chroot \"\$1\" useradd --uid $FLINK_UID --gid $FLINK_UID --home-dir /opt/flink --no-create-home --shell /bin/bash flink" \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*.log "$1"/var/cache/ldconfig/aux-cache' \
    --customize-hook=': >"$1/etc/resolv.conf"; echo localhost >"$1/etc/hostname"; printf "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n" >"$1/etc/hosts"' \
    "$SUITE" "$dir/rootfs" \
    "deb $DEBIAN_MIRROR $SUITE main" "deb $DEBIAN_MIRROR $SUITE-updates main" \
    "deb $DEBIAN_SECURITY_MIRROR $SUITE-security main" >"$dir/mmdebstrap.log" 2>&1; then
    tail -n 30 "$dir/mmdebstrap.log" >&2
    die "mmdebstrap failed (log: $dir/mmdebstrap.log)"
  fi
  log "mmdebstrap done in $((SECONDS - started)) s ($(du -sm "$dir/rootfs" | cut -f1) MiB)"
  [ -x "$dir/rootfs$JAVA_HOME_IN_IMAGE/bin/java" ] || die "no java at $JAVA_HOME_IN_IMAGE in the root file system"
  # /dev is the runtime's: no device nodes in the layer.
  rm -rf "${dir:?}/rootfs/dev" && mkdir -m 755 "$dir/rootfs/dev"
  tar --numeric-owner --sort=name --mtime=@0 --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$dir/rootfs" -cf "$dir/layer.tar" .
  mv -f "$dir/layer.tar" "$out"
  rm -rf "$dir"
}

ensure_base() {
  local out
  out=$(base_layer)
  if [ -f "$out" ]; then
    log "base layer: present ($(basename "$out"), $(mib "$out"))"
    return
  fi
  mkdir -p "$CACHE/base"
  build_base "$out"
  log "base layer: $(basename "$out") ($(mib "$out"))"
  prune "$out" "$CACHE/base/$SUITE-*.tar"
}

# ---------------------------------------------------------------------------------------------
# Flink images

download_wheels() { # full version → prints the download dir
  # apache-flink is a wheel per CPython version (bin/, conf/); apache-flink-libraries (lib/,
  # opt/, plugins/, bin/bash-java-utils.jar) is a wheel from 2.2 on and a source archive
  # (.tar.gz, the same files under deps/) before: pip picks what the version has.
  local full=$1 dir started
  dir=$CACHE/downloads/flink-$full
  if compgen -G "$dir/apache_flink-$full-*.whl" >/dev/null && compgen -G "$dir/apache_flink_libraries-$full[.-]*" >/dev/null; then
    echo "$dir"
    return
  fi
  need_tools pip=python3-pip
  rm -rf "$dir.partial"
  mkdir -p "$dir" "$dir.partial"
  started=$SECONDS
  log "pip download apache-flink==$full (wheel for CPython $WHEEL_PYTHON)"
  pip download --no-deps --only-binary=:all: --python-version "$WHEEL_PYTHON" \
    --platform manylinux2014_x86_64 --progress-bar off -q -d "$dir.partial" "apache-flink==$full" >&2 ||
    die "pip download apache-flink==$full failed"
  log "pip download apache-flink-libraries==$full (about 230-310 MB)"
  pip download --no-deps --progress-bar off -q -d "$dir.partial" "apache-flink-libraries==$full" >&2 ||
    die "pip download apache-flink-libraries==$full failed"
  local file
  for file in "$dir.partial"/*; do log "  $(basename "$file"): $(mib "$file")"; done
  mv -f "$dir.partial"/* "$dir/" && rmdir "$dir.partial"
  log "downloaded in $((SECONDS - started)) s"
  echo "$dir"
}

image_config() { # full version, key → the image config JSON (Docker's config object)
  cat <<EOF
{"Env": ["PATH=/opt/flink/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "FLINK_HOME=/opt/flink", "JAVA_HOME=$JAVA_HOME_IN_IMAGE", "LANG=C.UTF-8"],
 "Entrypoint": ["/usr/local/bin/flink-entrypoint"], "Cmd": ["help"],
 "WorkingDir": "/opt/flink", "User": "$FLINK_UID:$FLINK_UID",
 "ExposedPorts": {"6123/tcp": {}, "6124/tcp": {}, "6122/tcp": {}, "8081/tcp": {}},
 "Labels": {"org.opencontainers.image.title": "flink", "org.opencontainers.image.version": "$1",
            "org.opencontainers.image.description": "Apache Flink $1 from PyPI's apache-flink(-libraries) wheels, flink-standalone's own entrypoint",
            "$BUILD_LABEL": "$2"}}
EOF
}

build_flink() { # full version, requested name, output archive
  local full=$1 requested=$2 out=$3 dir downloads root home started key
  need_tools python3=python3 javac=openjdk-17-jdk-headless jar=openjdk-17-jdk-headless
  key=$(flink_key "$full")
  downloads=$(download_wheels "$full")
  dir=$(work_dir "flink-$full")
  root=$dir/flink-root
  home=$root/opt/flink
  started=$SECONDS
  log "unpacking the wheels into /opt/flink"
  mkdir -p "$root/opt" "$root/usr/local/bin"
  python3 - "$home" "$downloads"/* <<'PY'
import os, re, sys, tarfile, zipfile
home, archives = sys.argv[1], sys.argv[2:]
# The distribution's layout: pyflink/<dir> of the wheels (deps/<dir> of the libraries' source
# archive) → /opt/flink/<dir>. bin/ of both packages merge, so bin/bash-java-utils.jar lands
# where bin/config.sh looks for it. LICENSE and NOTICE go to /opt/flink.
keep = ("bin/", "conf/", "lib/", "opt/", "plugins/", "licenses/")

def target_of(name):
    m = re.match(r"^(?:pyflink|[^/]+/deps)/(.*)$", name)
    if m and m.group(1).startswith(keep):
        return os.path.join(home, m.group(1))
    base = name.rsplit("/", 1)[-1]
    if base in ("LICENSE", "NOTICE") and ("dist-info/licenses/" in name or name.count("/") == 1):
        return os.path.join(home, base)
    return None

def write(target, src, executable):
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as dst:
        while True:
            block = src.read(1 << 20)
            if not block:
                break
            dst.write(block)
    os.chmod(target, 0o755 if executable or target.endswith(".sh") else 0o644)

for archive in archives:
    if archive.endswith(".whl"):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                target = target_of(info.filename)
                if target is None or info.filename.endswith("/"):
                    continue
                with z.open(info) as src:
                    write(target, src, (info.external_attr >> 16) & 0o111)
    elif archive.endswith(".tar.gz"):
        with tarfile.open(archive) as t:
            for member in t:
                target = target_of(member.name)
                if target is None or not member.isfile():
                    continue
                with t.extractfile(member) as src:
                    write(target, src, member.mode & 0o111)
    else:
        sys.exit(f"unexpected download {archive}")
PY
  [ -f "$home/lib/flink-dist-$full.jar" ] || die "no lib/flink-dist-$full.jar in the wheels"
  [ -f "$home/bin/bash-java-utils.jar" ] || die "no bin/bash-java-utils.jar in the wheels"
  [ -x "$home/bin/jobmanager.sh" ] || die "no executable bin/jobmanager.sh in the wheels"
  # Python-only helpers of the wheel: not part of Flink's own distribution.
  rm -f "$home"/bin/*.bat
  mkdir -p "$home/log" "$home/usrlib"
  # The distribution's default config binds to localhost; a container is reached from outside
  # (the renderer mounts its own config over conf/ anyway). The same edits for config.yaml
  # (nested, 2.x and 1.19+) and flink-conf.yaml (flat).
  local conf
  for conf in "$home/conf/config.yaml" "$home/conf/flink-conf.yaml"; do
    [ -f "$conf" ] || continue
    sed -i -E \
      -e 's/^([[:space:]]*(jobmanager\.|taskmanager\.)?bind-host:) localhost/\1 0.0.0.0/' \
      -e 's/^([[:space:]]*)#[[:space:]]*((rest\.)?bind-address:) localhost/\1\2 0.0.0.0/' \
      -e '/^[[:space:]]*(taskmanager\.)?host: localhost/d' "$conf"
  done
  cp -r "$home/conf" "$home/conf.default"
  install -m 755 "$HERE/entrypoint.sh" "$root/usr/local/bin/flink-entrypoint"
  chown -R "$FLINK_UID:$FLINK_UID" "$home"
  chmod 775 "$home/log"
  tar --numeric-owner --sort=name --mtime=@0 --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$root" -cf "$dir/flink-layer.tar" opt/flink usr/local/bin/flink-entrypoint
  log "Flink layer: $(mib "$dir/flink-layer.tar") ($((SECONDS - started)) s)"

  # The example job, compiled against this version's own jars.
  log "compiling example-job against Flink $full"
  mkdir -p "$dir/job/classes" "$dir/examples-root/opt/flink/usrlib"
  javac --release 11 -nowarn -encoding UTF-8 -d "$dir/job/classes" -cp "$home/lib/*" \
    $(find "$HERE/example-job" -name '*.java' | sort) || die "javac of example-job failed"
  jar --create --file "$dir/examples-root/opt/flink/usrlib/keyed-counter-job.jar" \
    --main-class flinkstandalone.examples.KeyedCounterJob -C "$dir/job/classes" .
  chown -R "$FLINK_UID:$FLINK_UID" "$dir/examples-root/opt/flink"
  tar --numeric-owner --sort=name --mtime=@0 --format=posix \
    -C "$dir/examples-root" -cf "$dir/examples-layer.tar" opt/flink/usrlib/keyed-counter-job.jar
  cp "$dir/examples-root/opt/flink/usrlib/keyed-counter-job.jar" "$CACHE/flink/keyed-counter-job-$full.jar"

  local tags examples_tags config
  tags=$(flink_tags "$full" "$requested" | sed 's/.*/"&"/' | paste -sd,)
  examples_tags=$(flink_tags "$full" "$requested" -examples | sed 's/.*/"&"/' | paste -sd,)
  config=$(image_config "$full" "$key")
  cat >"$dir/spec.json" <<EOF
{"layers": {"base": "$(base_layer)", "flink": "$dir/flink-layer.tar", "examples": "$dir/examples-layer.tar"},
 "images": [
  {"tags": [$tags], "layers": ["base", "flink"], "config": $config,
   "history": ["mmdebstrap --variant=minbase $SUITE + ${BASE_PACKAGES[*]}, user flink", "Flink $full (PyPI wheels) in /opt/flink, entrypoint"]},
  {"tags": [$examples_tags], "layers": ["base", "flink", "examples"], "config": $config,
   "history": ["mmdebstrap --variant=minbase $SUITE + ${BASE_PACKAGES[*]}, user flink", "Flink $full (PyPI wheels) in /opt/flink, entrypoint", "/opt/flink/usrlib/keyed-counter-job.jar"]}
 ]}
EOF
  log "packing the docker archive"
  python3 "$HERE/pack-docker-archive.py" "$dir/spec.json" "$out"
  rm -rf "$dir"
}

ensure_flink() { # requested name
  local requested=$1 full out started
  full=$(resolve_version "$requested")
  out=$(flink_archive "$full")
  if [ -f "$out" ]; then
    log "flink $full ($(flink_tags "$full" "$requested" | paste -sd' '), + -examples): present ($(basename "$out"), $(mib "$out"))"
    return
  fi
  started=$SECONDS
  ensure_base
  log "flink $full: building $(basename "$out")"
  mkdir -p "$CACHE/flink"
  build_flink "$full" "$requested" "$out"
  prune "$out" "$CACHE/flink/flink-$full-*.tar"
  log "flink $full: built in $((SECONDS - started)) s: $(flink_tags "$full" "$requested" | paste -sd' ') $(flink_tags "$full" "$requested" -examples | paste -sd' ') ($(mib "$out"))"
}

# ---------------------------------------------------------------------------------------------
# Import into a containerd

normalize() { # image reference → containerd's name for it (docker.io/library/… for short names)
  local ref=$1 first=${1%%/*}
  if [[ $ref != */* ]]; then
    echo "docker.io/library/$ref"
  elif [[ $first != *.* && $first != *:* && $first != localhost ]]; then
    echo "docker.io/$ref"
  else
    echo "$ref"
  fi
}

import_archive() { # socket, archive, key, tags…
  local sock=$1 archive=$2 key=$3 tag present missing=() started
  shift 3
  present=$(ctr --address "$sock" -n k8s.io images ls -q "labels.\"$BUILD_LABEL\"==$key" 2>/dev/null) ||
    die "ctr cannot list images at $sock (is containerd running there?)"
  for tag in "$@"; do
    grep -qxF "$(normalize "$tag")" <<<"$present" || missing+=("$tag")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "import: $* present in $sock"
    return
  fi
  started=$SECONDS
  log "import: ctr -n k8s.io images import $(basename "$archive") ($(mib "$archive")) for ${missing[*]}"
  ctr --address "$sock" -n k8s.io images import "$archive" >&2 || die "ctr images import $archive failed"
  for tag in "$@"; do
    ctr --address "$sock" -n k8s.io images label "$(normalize "$tag")" "$BUILD_LABEL=$key" >/dev/null ||
      die "import of $archive did not create $(normalize "$tag")"
  done
  log "import: done in $((SECONDS - started)) s"
}

# ---------------------------------------------------------------------------------------------

main() {
  local command=build address= versions=() v full
  case "${1:-}" in
    build | import | archives | pause-tag) command=$1 && shift ;;
    -h | --help | help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' && return ;;
  esac
  while [ $# -gt 0 ]; do
    case "$1" in
      --address) address=${2:?--address needs a socket path} && shift 2 ;;
      --address=*) address=${1#--address=} && shift ;;
      -*) die "unknown option $1" ;;
      *) versions+=("$1") && shift ;;
    esac
  done
  [ ${#versions[@]} -gt 0 ] || versions=("${DEFAULT_VERSIONS[@]}")
  if [ "$command" = pause-tag ]; then
    echo "$PAUSE_TAG"
    return
  fi
  [ "$command" != import ] || [ -n "$address" ] || die "import needs --address <containerd socket>"
  [ "$(id -u)" = 0 ] || die "building the images needs root (mmdebstrap, files owned by uid $FLINK_UID)"

  mkdir -p "$CACHE/tmp"
  # One build at a time per cache; a second caller waits, then finds the archives present.
  exec 9>"$CACHE/.lock"
  if ! flock -n 9; then
    log "another build-images.sh holds $CACHE/.lock: waiting"
    flock 9
  fi
  find "$CACHE/tmp" -mindepth 1 -maxdepth 1 -mmin +120 -exec rm -rf {} + 2>/dev/null || true

  ensure_pause
  for v in "${versions[@]}"; do ensure_flink "$v"; done
  log "sandbox image: $PAUSE_TAG (containerd CRI: sandbox_image = \"$PAUSE_TAG\")"

  case "$command" in
    archives)
      pause_archive
      for v in "${versions[@]}"; do flink_archive "$(resolve_version "$v")"; done
      ;;
    import)
      need_tools ctr=containerd
      [ -S "$address" ] || die "no containerd socket at $address"
      import_archive "$address" "$(pause_archive)" "$(pause_key)" "$PAUSE_TAG"
      for v in "${versions[@]}"; do
        full=$(resolve_version "$v")
        # shellcheck disable=SC2046
        import_archive "$address" "$(flink_archive "$full")" "$(flink_key "$full")" \
          $(flink_tags "$full" "$v") $(flink_tags "$full" "$v" -examples)
      done
      ;;
  esac
}

main "$@"
