#!/usr/bin/env bash
# After the tests: a stopped real node must leave nothing on the host, nor the tests anything in
# the temporary folder since the file given as $1 was touched. Prints what it finds and exits 1
# when anything is left (test.sh counts that as a failure).
set -uo pipefail
since="${1:-}"
left=()
pgrep -f 'containerd --config .*/node/containerd.toml' >/dev/null && left+=("containerd process")
pgrep -f 'containerd-shim-runc-v2 .*flink-standalone-k8s-' >/dev/null && left+=("containerd shim processes")
pgrep -x kubelet >/dev/null && left+=("kubelet process")
ip link show fsbr0 >/dev/null 2>&1 && left+=("bridge fsbr0")
ip addr show dev lo 2>/dev/null | grep -q '192\.0\.2\.2/' && left+=("node address 192.0.2.2 on lo")
iptables -t nat -S 2>/dev/null | grep -q flink-standalone-testenv && left+=("iptables rule")
grep -q 'flink-standalone-k8s-' /proc/self/mountinfo && left+=("mounts under the node's folder")
for hierarchy in /sys/fs/cgroup/*/; do
  for name in kubepods k8s.io; do [ -d "$hierarchy$name" ] && left+=("cgroup $hierarchy$name"); done
done
[ -e /run/flink-standalone-real-node.pid ] && left+=("lock file /run/flink-standalone-real-node.pid")
# Backstage's mock directories (kept under CI=true: it counts on a machine thrown away), Flink's
# temporary files (its RPC jar, JAAS file, I/O, shuffle and local state folders), the control
# planes' and Flink sessions' own folders.
if [ -n "$since" ]; then
  while IFS= read -r entry; do
    left+=("$entry")
  done < <(find "${TMPDIR:-/tmp}" -mindepth 1 -maxdepth 1 -newer "$since" \( -name 'backstage-tmp-test-dir-*' \
    -o -name 'flink-*' -o -name 'jaas-*.conf' -o -name 'tm_*' \) 2>/dev/null)
fi
if [ ${#left[@]} -gt 0 ]; then
  printf '[host-clean] left behind: %s\n' "${left[@]}" >&2
  exit 1
fi
echo "[host-clean] nothing left behind"
