# Sourced after node-env.sh: installs the workspace's npm dependencies when they are missing or
# out of date with the lock file (or were built for another Node ABI).
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
install_stamp() {
  { node -p 'process.versions.modules'; cat "$repo_root/package-lock.json" 2>/dev/null; } | sha256sum | cut -c1-16
}
# npm prints nothing for minutes when it is not on a TTY; show how far it got instead.
npm_with_progress() {
  local started=$SECONDS
  ( cd "$repo_root" && npm "$@" --no-audit --no-fund ) &
  local npm_pid=$!
  while kill -0 "$npm_pid" 2>/dev/null; do
    sleep 15
    kill -0 "$npm_pid" 2>/dev/null || break
    local count
    count=$(find "$repo_root/node_modules" -maxdepth 3 -name package.json 2>/dev/null | wc -l)
    echo "[deps] npm $1: $((SECONDS - started)) s, $count packages unpacked so far" >&2
  done
  wait "$npm_pid"
}
stamp_file="$repo_root/node_modules/.flink-standalone-install"
if [ ! -f "$stamp_file" ] || [ "$(cat "$stamp_file")" != "$(install_stamp)" ]; then
  deps_started=$SECONDS
  if [ -f "$repo_root/package-lock.json" ] && [ ! -d "$repo_root/node_modules" ]; then
    echo "[deps] npm ci: installing the locked dependencies (about 2,500 packages, 3-5 minutes on 2 cores)" >&2
    npm_with_progress ci || { echo "[deps] npm ci failed" >&2; exit 1; }
  else
    # An existing install is updated in place (npm ci would delete it first).
    echo "[deps] npm install: updating the installed dependencies to the lock file" >&2
    npm_with_progress install || { echo "[deps] npm install failed" >&2; exit 1; }
  fi
  install_stamp > "$stamp_file"
  echo "[deps] installed in $((SECONDS - deps_started)) s" >&2
fi
