#!/usr/bin/env bash
# End-to-end check of the built images without a kubelet: a throwaway containerd (root, state,
# sockets in a temp dir), `build-images.sh import` into it, then with `ctr run --rm --net-host`:
#   1. a session JobManager (image user 9999, config dir bind-mounted read-only at
#      /opt/flink/conf as a ConfigMap would be) answering GET /overview,
#   2. a TaskManager started as root (a test-only copy of the image config with User 0), whose
#      entrypoint drops to uid 9999, with a config dir lacking log4j-console.properties; it must
#      register with the JobManager,
#   3. the example job submitted over REST: RUNNING with a completed checkpoint,
#   4. standalone-job (application mode) from flink:<v>-examples with a TaskManager: RUNNING with
#      a completed checkpoint.
# Then everything is stopped and removed (containers, containerd, mounts, temp dir, shim sockets).
#
#   verify-images.sh [VERSION]    (default 2.2; needs root, like build-images.sh)
# VERIFY_LOG_DIR=<dir> keeps the containers' and containerd's logs; VERIFY_PORT_BASE (18000) moves
# the ports (REST on base+81).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VERSION=${1:-2.2}
PORT_BASE=${VERIFY_PORT_BASE:-18000}
REST_PORT=$((PORT_BASE + 81))
T=$(mktemp -d /tmp/flink-images-verify.XXXXXX)
SOCK=$T/containerd.sock
CTR=(ctr --address "$SOCK" -n k8s.io)
RUN_OPTS=(--rm --net-host --runc-root "$T/runc" --fifo-dir "$T/fifo")
containerd_pid=
ctr_pids=()
shim_dir=/run/containerd/s
had_run_containerd=$([ -d /run/containerd ] && echo 1 || true)
CGROUP_PARENT=$(basename "$T")
container_ids=()

log() { printf '[verify %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
fail() {
  printf '[verify] FAILED: %s\n' "$*" >&2
  exit 1
}

cleanup() {
  set +e
  if [ -n "${VERIFY_LOG_DIR:-}" ]; then
    mkdir -p "$VERIFY_LOG_DIR" && cp "$T"/*.log "$VERIFY_LOG_DIR"/ 2>/dev/null
    log "logs copied to $VERIFY_LOG_DIR"
  fi
  log "cleaning up"
  local id
  for id in $("${CTR[@]}" tasks ls -q 2>/dev/null); do
    "${CTR[@]}" tasks kill -s KILL "$id" >/dev/null 2>&1
  done
  for pid in "${ctr_pids[@]}"; do wait "$pid" 2>/dev/null; done
  for id in $("${CTR[@]}" containers ls -q 2>/dev/null); do
    "${CTR[@]}" tasks delete -f "$id" >/dev/null 2>&1
    "${CTR[@]}" containers delete "$id" >/dev/null 2>&1
  done
  if [ -n "$containerd_pid" ]; then
    kill -TERM "$containerd_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$containerd_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$containerd_pid" 2>/dev/null
    wait "$containerd_pid" 2>/dev/null
  fi
  # Mounts under the temp dir (snapshots of containers that did not go away), deepest first.
  findmnt -rn -o TARGET | grep -F "$T/" | sort -r | xargs -r -n1 umount -l 2>/dev/null
  # The cgroups runc made for our containers, in every hierarchy.
  local c
  for c in /sys/fs/cgroup/*/"$CGROUP_PARENT" /sys/fs/cgroup/unified/"$CGROUP_PARENT"; do
    [ -d "$c" ] || continue
    find "$c" -mindepth 1 -depth -type d -exec rmdir {} \; 2>/dev/null
    rmdir "$c" 2>/dev/null
  done
  rm -rf "$T"
  # containerd 1.6 puts shim sockets in /run/containerd/s/<sha256 of address/namespace/id>,
  # whatever its state dir: remove exactly ours (other containerds on this host have their own).
  for id in "${container_ids[@]}"; do
    rm -f "$shim_dir/$(printf '%s' "$SOCK/k8s.io/$id" | sha256sum | cut -d' ' -f1)"
  done
  if [ -z "$had_run_containerd" ]; then
    rmdir "$shim_dir" 2>/dev/null && rmdir /run/containerd 2>/dev/null
  fi
}
trap cleanup EXIT

full=$(bash "$HERE/build-images.sh" archives "$VERSION" 2>/dev/null | tail -n1 | sed -E 's#.*/flink-([0-9.]+)-[0-9a-f]+\.tar#\1#')
[[ $full =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "could not build or find the archive of Flink $VERSION"
major=${VERSION%%.*}
log "Flink $VERSION ($full), temp dir $T, REST port $REST_PORT"

# --- containerd -------------------------------------------------------------------------------
mkdir -p "$T/runc" "$T/fifo"
cat >"$T/containerd.toml" <<EOF
version = 2
root = "$T/root"
state = "$T/state"
[grpc]
  address = "$SOCK"
[ttrpc]
  address = "$SOCK.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$T/opt"
[plugins."io.containerd.grpc.v1.cri"]
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  sandbox_image = "$(bash "$HERE/build-images.sh" pause-tag)"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
    SystemdCgroup = false
    Root = "$T/runc"
EOF
containerd --config "$T/containerd.toml" >"$T/containerd.log" 2>&1 &
containerd_pid=$!
for _ in $(seq 100); do [ -S "$SOCK" ] && "${CTR[@]}" version >/dev/null 2>&1 && break; sleep 0.1; done
"${CTR[@]}" version >/dev/null 2>&1 || fail "containerd did not start (log: $T/containerd.log)"
log "containerd $(containerd --version | awk '{print $3}') on $SOCK"

# --- import (twice: the second must skip) -----------------------------------------------------
started=$SECONDS
bash "$HERE/build-images.sh" import --address "$SOCK" "$VERSION"
log "import took $((SECONDS - started)) s"
bash "$HERE/build-images.sh" import --address "$SOCK" "$VERSION" 2>&1 | tee "$T/import2.log" >&2
grep -q "present in" "$T/import2.log" || fail "the second import did not find the images present"
"${CTR[@]}" images ls | awk '{print $1, $4, $5}' >&2

# A test-only image that starts as root (the rendered pods never do): same layers, User 0.
image=docker.io/library/flink:$VERSION
examples=docker.io/library/flink:$VERSION-examples
root_image=localhost/flink-root-test:$VERSION
# From the archive: its config with User 0, the same layers, re-imported under another name.
python3 - "$T" "$full" "$root_image" <<'PY' || fail "could not make the root test image"
import glob, json, os, sys, tarfile
T, full, root_image = sys.argv[1:4]
cache = os.environ.get("FLINK_STANDALONE_CACHE", os.path.expanduser("~/.cache/flink-standalone"))
archive = sorted(glob.glob(f"{cache}/images/flink/flink-{full}-*.tar"))[-1]
with tarfile.open(archive) as t:
    manifest = json.load(t.extractfile("manifest.json"))
    entry = manifest[0]
    config = json.load(t.extractfile(entry["Config"]))
    config["config"]["User"] = "0:0"
    layers = {}
    os.makedirs(f"{T}/root-image", exist_ok=True)
    for i, layer in enumerate(entry["Layers"]):
        path = f"{T}/root-image/layer{i}.tar"
        with t.extractfile(layer) as src, open(path, "wb") as dst:
            while True:
                b = src.read(1 << 20)
                if not b:
                    break
                dst.write(b)
        layers[f"l{i}"] = path
spec = {"layers": layers, "images": [{"tags": [root_image], "layers": list(layers), "config": config["config"]}]}
with open(f"{T}/root-image/spec.json", "w") as f:
    json.dump(spec, f)
PY
python3 "$HERE/pack-docker-archive.py" "$T/root-image/spec.json" "$T/root-image.tar"
"${CTR[@]}" images import "$T/root-image.tar" >/dev/null
rm -rf "$T/root-image" "$T/root-image.tar"

# --- config dirs (read-only mounts) -----------------------------------------------------------
config_file=config.yaml
[ "$major" = 1 ] && config_file=flink-conf.yaml
java_opts="--add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED"
write_conf() { # dir
  mkdir -p "$1"
  cat >"$1/$config_file" <<EOF
jobmanager.rpc.address: 127.0.0.1
jobmanager.rpc.port: $((PORT_BASE + 23))
jobmanager.bind-host: 127.0.0.1
taskmanager.bind-host: 127.0.0.1
taskmanager.host: 127.0.0.1
taskmanager.rpc.port: $((PORT_BASE + 22))
taskmanager.data.port: $((PORT_BASE + 21))
blob.server.port: $((PORT_BASE + 24))
rest.address: 127.0.0.1
rest.bind-address: 127.0.0.1
rest.port: $REST_PORT
jobmanager.memory.process.size: 900m
taskmanager.memory.process.size: 1100m
taskmanager.numberOfTaskSlots: 2
parallelism.default: 2
env.java.default-opts.all: $java_opts
EOF
}
write_conf "$T/conf-jm"
write_conf "$T/conf-tm"
# The JobManager's config dir is complete, as the renderer's ConfigMap is; the TaskManager's
# lacks log4j-console.properties, so its entrypoint must fall back to a writable copy.
cat >"$T/conf-jm/log4j-console.properties" <<'EOF'
rootLogger.level = INFO
rootLogger.appenderRef.console.ref = ConsoleAppender
appender.console.name = ConsoleAppender
appender.console.type = CONSOLE
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-40c{1} - %m%n
logger.netty.name = org.jboss.netty.channel.DefaultChannelPipeline
logger.netty.level = OFF
EOF
chmod -R a+rX "$T/conf-jm" "$T/conf-tm"
mount_conf() { echo "type=bind,src=$1,dst=/opt/flink/conf,options=rbind:ro"; }

run() { # name, image, conf dir, args… (in the background; output to $T/<name>.log)
  local name=$1 img=$2 conf=$3
  shift 3
  container_ids+=("$name")
  # ctr's arguments replace the image's Entrypoint and Cmd (a pod's `args` replace only Cmd).
  # Our own cgroup parent: a real node's cleanup of /k8s.io must not take these containers along.
  "${CTR[@]}" run "${RUN_OPTS[@]}" --cgroup "/$CGROUP_PARENT/$name" --mount "$(mount_conf "$conf")" "$img" "$name" \
    /usr/local/bin/flink-entrypoint "$@" >"$T/$name.log" 2>&1 &
  ctr_pids+=($!)
}
stop() { # name
  "${CTR[@]}" tasks kill -s TERM "$1" >/dev/null 2>&1 || true
  for _ in $(seq 60); do "${CTR[@]}" containers info "$1" >/dev/null 2>&1 || return 0; sleep 0.5; done
  "${CTR[@]}" tasks kill -s KILL "$1" >/dev/null 2>&1 || true
}
rest() { curl -fsS --max-time 5 "http://127.0.0.1:$REST_PORT$1"; }
wait_for() { # seconds, description, command…
  local seconds=$1 what=$2 started=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - started)) -lt "$seconds" ] || return 1
    sleep 1
  done
  log "$what after $((SECONDS - started)) s"
}
show_logs() { local f; for f in "$@"; do echo "----- $f" >&2; tail -n 40 "$T/$f.log" >&2; done; }

# --- 1+2: session cluster ---------------------------------------------------------------------
started=$SECONDS
run verify-jm "$image" "$T/conf-jm" jobmanager
wait_for 120 "JobManager REST answers" rest /overview || { show_logs verify-jm; fail "no REST answer"; }
log "GET /overview: $(rest /overview)"
log "GET /config: $(rest /config)"
run verify-tm "$root_image" "$T/conf-tm" taskmanager -D taskmanager.resource-id=verify-tm
tm_registered() { rest /taskmanagers | grep -q '"id":"verify-tm"'; }
wait_for 120 "TaskManager registered" tm_registered || { show_logs verify-jm verify-tm; fail "TaskManager did not register"; }
log "session cluster ready $((SECONDS - started)) s after the JobManager's start"
log "GET /overview: $(rest /overview)"
grep -h '\[flink-entrypoint\]' "$T/verify-jm.log" "$T/verify-tm.log" >&2
grep -q 'taskmanager as uid 9999' "$T/verify-tm.log" || fail "the TaskManager started as root did not drop to uid 9999"
grep -q 'jobmanager as uid 9999' "$T/verify-jm.log" || fail "the JobManager did not run as uid 9999"

# --- 3: the example job over REST -------------------------------------------------------------
jar=$(ls "${FLINK_STANDALONE_CACHE:-$HOME/.cache/flink-standalone}/images/flink/keyed-counter-job-$full.jar")
upload=$(curl -fsS --max-time 30 -X POST -F "jarfile=@$jar" "http://127.0.0.1:$REST_PORT/jars/upload")
jar_id=$(sed -E 's#.*"filename":"[^"]*/([^"/]+)".*#\1#' <<<"$upload")
submit=$(curl -fsS --max-time 60 -X POST -H 'Content-Type: application/json' \
  -d '{"entryClass":"flinkstandalone.examples.KeyedCounterJob","programArgs":"--checkpoint-interval 2000 --rate 50"}' \
  "http://127.0.0.1:$REST_PORT/jars/$jar_id/run") || { show_logs verify-jm; fail "job submission failed"; }
job_id=$(sed -E 's/.*"jobid":"([0-9a-f]+)".*/\1/' <<<"$submit")
log "submitted the example job: $job_id"
job_checkpointed() {
  rest "/jobs/$1" | grep -q '"state":"RUNNING"' &&
    rest "/jobs/$1/checkpoints" | grep -qE '"completed":[1-9]'
}
wait_for 120 "example job RUNNING with a completed checkpoint" job_checkpointed "$job_id" || {
  show_logs verify-jm verify-tm
  fail "the example job did not checkpoint"
}
log "GET /jobs/overview: $(rest /jobs/overview)"
log "checkpoint counts: $(rest "/jobs/$job_id/checkpoints" | grep -oE '"counts":\{[^}]*\}')"
counted() { grep -q 'count=' "$T/$1.log"; }
wait_for 60 "the job's keyed counts printed by the TaskManager" counted verify-tm || fail "no key=… count=… line from the job"
log "TaskManager stdout: $(grep -m1 'count=' "$T/verify-tm.log")"
stop verify-tm
stop verify-jm

# --- 4: application mode ----------------------------------------------------------------------
started=$SECONDS
run verify-app "$examples" "$T/conf-jm" standalone-job --job-classname flinkstandalone.examples.KeyedCounterJob \
  -D execution.shutdown-on-application-finish=false --checkpoint-interval 2000 --rate 50
run verify-app-tm "$examples" "$T/conf-jm" taskmanager -D taskmanager.resource-id=verify-app-tm
app_job() { rest /jobs/overview | grep -q '"state":"RUNNING"'; }
wait_for 180 "standalone-job RUNNING" app_job || { show_logs verify-app verify-app-tm; fail "standalone-job did not run"; }
app_job_id=$(rest /jobs/overview | sed -E 's/.*"jid":"([0-9a-f]+)".*/\1/')
wait_for 120 "standalone-job checkpointed" job_checkpointed "$app_job_id" || {
  show_logs verify-app verify-app-tm
  fail "the standalone job did not checkpoint"
}
log "application mode: GET /jobs/overview: $(rest /jobs/overview)"
wait_for 60 "the standalone job's keyed counts printed" counted verify-app-tm || fail "no key=… count=… line from the standalone job"
log "TaskManager stdout: $(grep -m1 'count=' "$T/verify-app-tm.log")"
stop verify-app-tm
stop verify-app
log "OK: Flink $full images verified"
