#!/usr/bin/env bash
# Entrypoint of the project's locally built Flink images (written for this project; it follows the
# contract the official image documents, it is not a copy of it):
#
#   jobmanager [args…]      → bin/jobmanager.sh start-foreground [args…]      (session cluster)
#   taskmanager [args…]     → bin/taskmanager.sh start-foreground [args…]
#   standalone-job [args…]  → bin/standalone-job.sh start-foreground [args…]  (application mode)
#   help | (nothing)        → this usage
#   anything else           → exec'd as a command (e.g. `bash`, `flink run …`)
#
# - Started as root, it re-executes itself as the flink user (uid/gid 9999) with setpriv
#   (util-linux, part of every Debian root file system: no gosu). Started as any other user, as
#   the rendered pods do (runAsUser 9999, runAsNonRoot, allowPrivilegeEscalation false), it runs
#   as that user.
# - It never writes into $FLINK_CONF_DIR (default /opt/flink/conf, usually a read-only ConfigMap
#   mount). What the environment adds to the configuration reaches Flink as dynamic properties,
#   two tokens each (`-D` `key=value`): FLINK_PROPERTIES (lines of `key: value`),
#   JOB_MANAGER_RPC_ADDRESS, TASK_MANAGER_NUMBER_OF_TASK_SLOTS (TaskManager only).
#   Only when the mounted directory lacks log4j-console.properties is it copied to a writable
#   temp dir, the image's default added, and FLINK_CONF_DIR pointed there.
# - ENABLE_BUILT_IN_PLUGINS=a.jar;b.jar links /opt/flink/opt/<jar> into plugins/<name>/, as the
#   official image does (this image's opt/ holds what the PyPI distribution ships).
# - Logs go to the console; bin/flink-console.sh also writes a log file to FLINK_LOG_DIR
#   (/opt/flink/log, or a temp dir when that is not writable for the current user).
set -euo pipefail

FLINK_HOME=${FLINK_HOME:-/opt/flink}
FLINK_USER=flink
FLINK_UID=9999

usage() {
  cat <<EOF
Usage: $(basename "$0") (jobmanager|taskmanager|standalone-job|help) [args…] | COMMAND [args…]
  jobmanager [-D key=value …]        session JobManager in the foreground
  taskmanager [-D key=value …]       TaskManager in the foreground
  standalone-job --job-classname C [--jars local:///opt/flink/usrlib/x.jar] [-D key=value …] [job args…]
  anything else is run as a command (as the flink user when started as root)
Environment: FLINK_PROPERTIES, JOB_MANAGER_RPC_ADDRESS, TASK_MANAGER_NUMBER_OF_TASK_SLOTS,
  ENABLE_BUILT_IN_PLUGINS, FLINK_CONF_DIR (default \$FLINK_HOME/conf, may be read-only).
EOF
}

say() { echo "[flink-entrypoint] $*" >&2; }

# Root → flink user, once, before anything else runs (no_new_privs does not stop lowering ids).
if [ "$(id -u)" = 0 ] && [ -z "${FLINK_ENTRYPOINT_KEEP_ROOT:-}" ]; then
  export HOME=$FLINK_HOME USER=$FLINK_USER LOGNAME=$FLINK_USER
  exec setpriv --reuid="$FLINK_UID" --regid="$FLINK_UID" --init-groups -- "$0" "$@"
fi
export USER=${USER:-$(id -un 2>/dev/null || id -u)}

export FLINK_CONF_DIR=${FLINK_CONF_DIR:-$FLINK_HOME/conf}
DEFAULT_CONF=$FLINK_HOME/conf.default

# A config dir without the console log4j file (e.g. a ConfigMap with only the Flink config):
# make a writable copy with the image's default, instead of writing into the mount.
ensure_console_logging() {
  [ -f "$FLINK_CONF_DIR/log4j-console.properties" ] && return 0
  [ -f "$DEFAULT_CONF/log4j-console.properties" ] || return 0
  local copy
  copy=$(mktemp -d "${TMPDIR:-/tmp}/flink-conf.XXXXXX")
  if [ -d "$FLINK_CONF_DIR" ]; then cp -rL "$FLINK_CONF_DIR/." "$copy/"; fi
  cp "$DEFAULT_CONF/log4j-console.properties" "$copy/"
  say "$FLINK_CONF_DIR has no log4j-console.properties: using a copy with the image's default in $copy"
  export FLINK_CONF_DIR=$copy
}

# bin/flink-console.sh writes <log dir>/flink-*.log besides the console: it must be writable.
ensure_log_dir() {
  local dir=${FLINK_LOG_DIR:-$FLINK_HOME/log}
  if mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ]; then return 0; fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/flink-log.XXXXXX")
  say "log dir not writable for uid $(id -u): logging files to $dir"
  export FLINK_LOG_DIR=$dir
}

enable_builtin_plugins() {
  [ -n "${ENABLE_BUILT_IN_PLUGINS:-}" ] || return 0
  local jar name
  IFS=';' read -ra jars <<<"$ENABLE_BUILT_IN_PLUGINS"
  for jar in "${jars[@]}"; do
    jar=$(echo "$jar" | tr -d '[:space:]')
    [ -n "$jar" ] || continue
    if [ ! -f "$FLINK_HOME/opt/$jar" ]; then
      say "ENABLE_BUILT_IN_PLUGINS names $jar, which $FLINK_HOME/opt does not have (it has: $(cd "$FLINK_HOME/opt" && ls | tr '\n' ' '))"
      exit 1
    fi
    name=${jar%.jar}
    mkdir -p "$FLINK_HOME/plugins/$name"
    ln -sf "$FLINK_HOME/opt/$jar" "$FLINK_HOME/plugins/$name/"
    say "enabled plugin $jar"
  done
}

# Environment → dynamic properties, appended to the arguments as `-D` `key=value` pairs.
dynamic_properties=()
add_property() { dynamic_properties+=(-D "$1=$2"); }
collect_properties() {
  local role=$1 line key value
  if [ -n "${JOB_MANAGER_RPC_ADDRESS:-}" ]; then
    add_property jobmanager.rpc.address "$JOB_MANAGER_RPC_ADDRESS"
  fi
  if [ "$role" = taskmanager ] && [ -n "${TASK_MANAGER_NUMBER_OF_TASK_SLOTS:-}" ]; then
    add_property taskmanager.numberOfTaskSlots "$TASK_MANAGER_NUMBER_OF_TASK_SLOTS"
  fi
  while IFS= read -r line; do
    line=${line%$'\r'}
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    if [[ $line != *:* ]]; then
      say "FLINK_PROPERTIES: ignoring '$line' (not 'key: value')"
      continue
    fi
    key=${line%%:*}
    value=${line#*:}
    key=$(echo "$key" | sed 's/^[[:space:]]*//;s/[[:space:]]*$//')
    value=$(echo "$value" | sed 's/^[[:space:]]*//;s/[[:space:]]*$//')
    add_property "$key" "$value"
  done <<<"${FLINK_PROPERTIES:-}"
}

run_flink() {
  local role=$1 script=$2
  shift 2
  ensure_console_logging
  ensure_log_dir
  enable_builtin_plugins
  collect_properties "$role"
  say "$role as uid $(id -u), config $FLINK_CONF_DIR"
  if [ "$role" = jobmanager ]; then
    # jobmanager.sh reads a first argument other than `-D` as a legacy host: keep it first.
    exec "$FLINK_HOME/bin/$script" start-foreground "$@" "${dynamic_properties[@]}"
  fi
  # standalone-job: whatever follows the job's options is the job's own arguments.
  exec "$FLINK_HOME/bin/$script" start-foreground "${dynamic_properties[@]}" "$@"
}

case "${1:-help}" in
  jobmanager) shift; run_flink jobmanager jobmanager.sh "$@" ;;
  taskmanager) shift; run_flink taskmanager taskmanager.sh "$@" ;;
  standalone-job) shift; run_flink standalone-job standalone-job.sh "$@" ;;
  help | --help | -h) usage ;;
  *) exec "$@" ;;
esac
